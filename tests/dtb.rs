//! `hartscope dtb`: the platform's device tree as a blob and as source.

mod common;

use common::hartscope;
use std::process::Stdio;

fn dtb(args: &[&str]) -> std::process::Output {
    hartscope()
        .arg("dtb")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("hartscope runs")
}

/// The blob written to standard output reads back as the source `--format dts` prints, and
/// says what the options asked for.
#[test]
fn blob_and_source_agree() {
    let blob = dtb(&["--mem", "64M", "--isa", "rv64gc_zicntr_zihpm_sscofpmf"]);
    assert!(blob.status.success(), "{blob:?}");
    assert_eq!(&blob.stdout[..4], &[0xd0, 0x0d, 0xfe, 0xed]);
    let dts = dtb(&[
        "--mem",
        "64M",
        "--isa",
        "rv64gc_zicntr_zihpm_sscofpmf",
        "--format",
        "dts",
    ]);
    assert!(dts.status.success(), "{dts:?}");
    let text = String::from_utf8(dts.stdout).expect("UTF-8");
    assert_eq!(iss::dtb::to_dts(&blob.stdout).expect("a valid blob"), text);
    assert!(text.contains("riscv,isa = \"rv64imafdc_zicntr_zicsr_zifencei_zihpm_sscofpmf\";"));
    assert!(
        text.contains("reg = <0x00 0x80000000 0x00 0x4000000>;"),
        "{text}"
    );
    assert!(text.contains("\tpmu {\n"), "{text}");
}

/// To a file, and a failed write names the file and fails.
#[test]
fn writes_a_file_or_says_why_not() {
    let dir = std::env::temp_dir().join(format!("hartscope-dtb-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("platform.dtb");
    let out = dtb(&["-o", f.to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
    let blob = std::fs::read(&f).unwrap();
    assert!(iss::dtb::to_dts(&blob).is_ok());
    std::fs::remove_dir_all(&dir).unwrap();

    let out = dtb(&["-o", "/dev/full"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("/dev/full") && err.contains("No space left"),
        "{err}"
    );

    let out = dtb(&["--isa", "rv64gc_nonsense"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

/// `--platform spike` is the tree Spike makes for its own machine, the one the differential
/// tests hand Spike (so a user's Spike runs with `--dtb` and no device tree compiler).
#[test]
fn the_spike_platform_is_spikes_own_tree() {
    let out = dtb(&["--platform", "spike", "-o", "-"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.stdout, common::spike_platform_dtb().unwrap());
}

/// With `--isa`, Spike's tree says that ISA (the string as given: Spike parses it), which is
/// how the differential tests run Spike with another ISA.
#[test]
fn the_spike_platform_takes_the_isa() {
    let isa = "rv64imafdc_zicntr_zihpm_sstc_svinval";
    let out = dtb(&["--platform", "spike", "--isa", isa, "-o", "-"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        out.stdout,
        common::spike_platform_dtb_with(isa, 16, 4).unwrap()
    );
    assert_ne!(out.stdout, common::spike_platform_dtb().unwrap());
    // A string hartscope refuses is refused here too, by name.
    let out = dtb(&["--platform", "spike", "--isa", "rv64gc_sstc"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("'sstc' requires 'zicntr"));
}

/// `--mem` regions (Spike's -m form) are the platform's memory: a node per region in the tree
/// (and `--pmpregions`/`--pmpgranularity` in the cpu node); a program runs with them; a region
/// over a device is refused naming it.
#[test]
fn memory_regions_and_pmp_are_in_the_tree() {
    let args = [
        "--mem",
        "0x80000000:64M,0x20000000:64K",
        "--pmpregions",
        "64",
        "--pmpgranularity",
        "4096",
        "--format",
        "dts",
    ];
    let out = dtb(&args);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    for want in [
        "memory@20000000 {",
        "reg = <0x00 0x20000000 0x00 0x10000>;",
        "memory@80000000 {",
        "reg = <0x00 0x80000000 0x00 0x4000000>;",
        "riscv,pmpregions = <0x40>;",
        "riscv,pmpgranularity = <0x1000>;",
    ] {
        assert!(text.contains(want), "{want}:\n{text}");
    }
    let elf = common::program("hello");
    let run = hartscope()
        .args(["run", "-q", "--mem", "0x80000000:64M,0x20000000:64K"])
        .arg(&elf)
        .output()
        .unwrap();
    assert!(run.status.success(), "{run:?}");
    assert_eq!(
        String::from_utf8_lossy(&run.stdout),
        "Hello from hartscope!\n"
    );
    let bad = hartscope()
        .args(["run", "--mem", "0x80000000:64M,0x10000000:4K"])
        .arg(&elf)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2), "{bad:?}");
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("--mem") && err.contains("overlaps the UART"),
        "{err}"
    );
}

/// `--bootargs` and the initrd's bounds go into /chosen (next to stdout-path), as a run sets
/// them; bounds that are reversed, or only one of them, are refused.
#[test]
fn chosen_takes_bootargs_and_initrd_bounds() {
    let out = dtb(&[
        "--bootargs",
        "console=ttyS0 quiet",
        "--initrd-start",
        "0x88200000",
        "--initrd-end",
        "2284847104",
        "--format",
        "dts",
    ]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(
        text.contains(
            "\tchosen {\n\t\tstdout-path = \"/soc/serial@10000000\";\n\t\tbootargs = \
             \"console=ttyS0 quiet\";\n\t\tlinux,initrd-start = <0x00 0x88200000>;\n\t\t\
             linux,initrd-end = <0x00 0x88300000>;\n\t};\n"
        ),
        "{text}"
    );
    let out = dtb(&["--initrd-start", "0x2000", "--initrd-end", "0x1000"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("--initrd-end 0x1000 is below"));
    let out = dtb(&["--initrd-start", "0x2000"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let out = dtb(&["--initrd-start", "nope", "--initrd-end", "1"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("'nope' is not an address"));
}
