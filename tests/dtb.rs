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
    let blob = dtb(&["--mem", "64M", "--isa", "rv64gc_sscofpmf"]);
    assert!(blob.status.success(), "{blob:?}");
    assert_eq!(&blob.stdout[..4], &[0xd0, 0x0d, 0xfe, 0xed]);
    let dts = dtb(&[
        "--mem",
        "64M",
        "--isa",
        "rv64gc_sscofpmf",
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
