//! `hartscope run --kernel`, `--initrd`, `--dtb`, `--bootargs` (and `hartscope dtb`'s
//! `--bootargs`, `--initrd-start`/`--initrd-end`, `--dtb`).
//!
//! The kernel is `programs/bin/kernel_boot.elf`, a stand-in whose first 64 bytes are a RISC-V
//! Linux Image header: flattened from 0x8020_0000 it is an Image. Entered in S-mode, it checks
//! that it runs at 0x8020_0000 with a0 = 0 and a device tree at a1, and prints what /chosen
//! says (bootargs, linux,initrd-start/-end) and the initrd's first line. It runs under the
//! built-in SBI and under OpenSBI's fw_jump (Debian's `opensbi` package; those tests are
//! skipped with a message without it, a failure under `HARTSCOPE_REQUIRE_TOOLS=1`).
//!
//! Bad input (a malformed or too large device tree, an Image with a bad magic, an initrd
//! larger than RAM, overlapping ranges) is a host-side error: exit status 2 and a message
//! naming the file and what is wrong, as for every bad option (tests/cli.rs).

mod common;

use common::{
    assert_no_panic, fw_jump_or_skip, hartscope, program, run_with_timeout, Outcome, TempDir,
};
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(120);

const BOOTARGS: &str = "console=ttyS0 earlycon root=/dev/ram rdinit=/init";
const INITRD: &[u8] = b"hartscope initrd: first line\nsecond line\n";

fn run<S: AsRef<OsStr>>(args: &[S]) -> Outcome {
    let shown: Vec<String> = args
        .iter()
        .map(|a| a.as_ref().to_string_lossy().into_owned())
        .collect();
    run_with_timeout(
        hartscope().arg("run").args(args),
        &format!("hartscope run {}", shown.join(" ")),
        TIMEOUT,
    )
}

/// Run; require exit status 2, no output, and a message with every one of `needles`.
fn refused<S: AsRef<OsStr>>(args: &[S], needles: &[&str]) -> String {
    let out = run(args);
    let stderr = out.stderr_str();
    assert_no_panic("refused run", &stderr);
    assert_eq!(out.code(), Some(2), "{stderr}");
    assert_eq!(out.stdout_str(), "", "nothing ran");
    for n in needles {
        assert!(stderr.contains(n), "no {n:?} in:\n{stderr}");
    }
    stderr
}

/// `--sbi builtin --kernel KERNEL`: the options of a kernel run under the built-in SBI.
fn builtin_kernel(kernel: &Path) -> Vec<OsString> {
    vec![
        "--sbi".into(),
        "builtin".into(),
        "--kernel".into(),
        kernel.into(),
    ]
}

/// The stand-in kernel as a flat Image: its loadable segments' file bytes from its lowest
/// physical address (what `objcopy -O binary` writes).
fn image_bytes() -> Vec<u8> {
    let bytes = std::fs::read(program("kernel_boot")).expect("kernel_boot.elf");
    let elf = iss::elf::ElfFile::parse(&bytes, "kernel_boot.elf").expect("an ELF");
    let segs: Vec<_> = elf.loadable().filter(|s| s.p_filesz > 0).collect();
    let base = segs.iter().map(|s| s.p_paddr).min().unwrap();
    assert_eq!(base, 0x8020_0000);
    let mut out = Vec::new();
    for s in &segs {
        let at = (s.p_paddr - base) as usize;
        let data = elf.segment_data(s).unwrap();
        if out.len() < at + data.len() {
            out.resize(at + data.len(), 0);
        }
        out[at..at + data.len()].copy_from_slice(data);
    }
    assert_eq!(&out[56..60], b"RSC\x05", "the header's magic2");
    out
}

/// A temporary directory with the Image and the initrd in it.
fn setup(label: &str) -> (TempDir, PathBuf, PathBuf) {
    let tmp = TempDir::new(label);
    let image = tmp.write("Image", &image_bytes());
    let initrd = tmp.write("initrd.img", INITRD);
    (tmp, image, initrd)
}

/// What the stand-in kernel prints for `dtb` (its address), the bootargs and the initrd.
fn kernel_lines(dtb: &str, bootargs: Option<&str>, initrd: Option<(u64, u64)>) -> String {
    let mut s = format!("kernel_boot: hart 0 at 0x80200000 in S-mode, device tree at {dtb}\n");
    match bootargs {
        Some(a) => s += &format!("kernel_boot: bootargs \"{a}\"\n"),
        None => s += "kernel_boot: no bootargs\n",
    }
    match initrd {
        Some((a, b)) => {
            s += &format!(
                "kernel_boot: initrd {a:#x}..{b:#x} ({} bytes): \"hartscope initrd: first line\"\n",
                b - a
            )
        }
        None => s += "kernel_boot: no initrd\n",
    }
    s + "kernel_boot: OK\n"
}

/// The initrd where QEMU puts it for a kernel at 0x8020_0000 in 256 MiB of RAM: 128 MiB on.
const INITRD_AT: (u64, u64) = (0x8820_0000, 0x8820_0000 + INITRD.len() as u64);

/// `--sbi builtin --kernel Image`: entered in S-mode at 0x8020_0000 with the device tree at
/// the top of RAM, /chosen holding the bootargs and the initrd's bounds, the initrd loaded
/// there; standard error says where the initrd went.
#[test]
fn image_under_the_builtin_sbi() {
    let (_tmp, image, initrd) = setup("image_builtin");
    let out = run(&[
        OsStr::new("--sbi"),
        OsStr::new("builtin"),
        OsStr::new("--kernel"),
        image.as_os_str(),
        OsStr::new("--initrd"),
        initrd.as_os_str(),
        OsStr::new("--bootargs"),
        OsStr::new(BOOTARGS),
    ]);
    let stderr = out.stderr_str();
    assert_eq!(out.code(), Some(0), "{stderr}");
    assert_eq!(
        out.stdout_str(),
        kernel_lines("0x8ffff000", Some(BOOTARGS), Some(INITRD_AT))
    );
    let at = format!(
        "initrd.img at {:#x}..{:#x} (/chosen",
        INITRD_AT.0, INITRD_AT.1
    );
    assert!(stderr.contains(&at), "{at} in:\n{stderr}");
}

/// `--kernel` takes the ELF too (at its physical addresses); with no initrd and no bootargs,
/// /chosen has neither. With a smaller RAM the initrd goes half way into it.
#[test]
fn elf_kernel_and_small_ram() {
    let (_tmp, _image, initrd) = setup("elf_builtin");
    let elf = program("kernel_boot");
    let out = run(&[
        OsStr::new("-q"),
        OsStr::new("--sbi"),
        OsStr::new("builtin"),
        OsStr::new("--kernel"),
        elf.as_os_str(),
    ]);
    assert_eq!(out.code(), Some(0), "{}", out.stderr_str());
    assert_eq!(out.stdout_str(), kernel_lines("0x8ffff000", None, None));
    let out = run(&[
        OsStr::new("-q"),
        OsStr::new("--sbi"),
        OsStr::new("builtin"),
        OsStr::new("--mem"),
        OsStr::new("16M"),
        OsStr::new("--kernel"),
        elf.as_os_str(),
        OsStr::new("--initrd"),
        initrd.as_os_str(),
    ]);
    assert_eq!(out.code(), Some(0), "{}", out.stderr_str());
    // 0x80200000 + 16 MiB / 2.
    let at = (0x80a0_0000, 0x80a0_0000 + INITRD.len() as u64);
    assert_eq!(out.stdout_str(), kernel_lines("0x80fff000", None, Some(at)));
}

/// OpenSBI's fw_jump (PROGRAM) reads the tree in the boot ROM, moves it to its
/// FW_JUMP_FDT_ADDR and starts the Image at 0x8020_0000 in S-mode: the kernel finds the
/// bootargs and the initrd. `--payload Image` is the same.
#[test]
fn image_under_opensbi() {
    let Some(fw) = fw_jump_or_skip("image_under_opensbi") else {
        return;
    };
    let (_tmp, image, initrd) = setup("image_opensbi");
    for option in ["--kernel", "--payload"] {
        let out = run(&[
            OsStr::new("-q"),
            fw.as_os_str(),
            OsStr::new(option),
            image.as_os_str(),
            OsStr::new("--initrd"),
            initrd.as_os_str(),
            OsStr::new("--bootargs"),
            OsStr::new(BOOTARGS),
        ]);
        let (stdout, stderr) = (out.stdout_str(), out.stderr_str());
        assert_no_panic("opensbi", &stderr);
        assert_eq!(out.code(), Some(0), "{option}\n{stdout}\n{stderr}");
        assert!(stdout.contains("OpenSBI v"), "{stdout}");
        // OpenSBI's console writes `\n` as `\r\n`.
        let want =
            kernel_lines("0x82200000", Some(BOOTARGS), Some(INITRD_AT)).replace('\n', "\r\n");
        assert!(
            stdout.ends_with(&want),
            "{option}: want\n{want}\nin\n{stdout}"
        );
    }
}

/// `--dtb FILE` replaces the generated tree: one written by `hartscope dtb` with other
/// bootargs, rewritten by `--bootargs` and `--initrd`, reaches the kernel under both SBIs.
/// `hartscope dtb` prints the tree a run uses.
#[test]
fn a_users_device_tree() {
    let (tmp, image, initrd) = setup("user_dtb");
    let dtb = tmp.join("user.dtb");
    let out = hartscope()
        .args(["dtb", "--bootargs", "from the user's tree", "-o"])
        .arg(&dtb)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    // As it is: the kernel finds the user's bootargs.
    let out = run(&[
        OsStr::new("-q"),
        OsStr::new("--sbi"),
        OsStr::new("builtin"),
        OsStr::new("--kernel"),
        image.as_os_str(),
        OsStr::new("--dtb"),
        dtb.as_os_str(),
    ]);
    assert_eq!(out.code(), Some(0), "{}", out.stderr_str());
    assert_eq!(
        out.stdout_str(),
        kernel_lines("0x8ffff000", Some("from the user's tree"), None)
    );
    // Rewritten.
    let out = run(&[
        OsStr::new("-q"),
        OsStr::new("--sbi"),
        OsStr::new("builtin"),
        OsStr::new("--kernel"),
        image.as_os_str(),
        OsStr::new("--dtb"),
        dtb.as_os_str(),
        OsStr::new("--bootargs"),
        OsStr::new(BOOTARGS),
        OsStr::new("--initrd"),
        initrd.as_os_str(),
    ]);
    assert_eq!(out.code(), Some(0), "{}", out.stderr_str());
    assert_eq!(
        out.stdout_str(),
        kernel_lines("0x8ffff000", Some(BOOTARGS), Some(INITRD_AT))
    );
    // The tree `hartscope dtb` prints for those values is the one the run used.
    let dts = hartscope()
        .arg("dtb")
        .arg("--dtb")
        .arg(&dtb)
        .args(["--bootargs", BOOTARGS, "--format", "dts"])
        .args(["--initrd-start", "0x88200000", "--initrd-end", "0x8820002a"])
        .output()
        .unwrap();
    assert!(dts.status.success(), "{dts:?}");
    let text = String::from_utf8(dts.stdout).unwrap();
    for want in [
        &format!("\t\tbootargs = \"{BOOTARGS}\";\n"),
        "\t\tlinux,initrd-start = <0x00 0x88200000>;\n",
        "\t\tlinux,initrd-end = <0x00 0x8820002a>;\n",
        "\t\tstdout-path = \"/soc/serial@10000000\";\n",
    ] {
        assert!(text.contains(want), "{want:?} in\n{text}");
    }
    assert_eq!(text.matches("bootargs").count(), 1, "{text}");
    // In the boot ROM, for M-mode firmware.
    if let Some(fw) = fw_jump_or_skip("a_users_device_tree") {
        let out = run(&[
            OsStr::new("-q"),
            fw.as_os_str(),
            OsStr::new("--kernel"),
            image.as_os_str(),
            OsStr::new("--dtb"),
            dtb.as_os_str(),
        ]);
        assert_eq!(out.code(), Some(0), "{}", out.stderr_str());
        let want =
            kernel_lines("0x82200000", Some("from the user's tree"), None).replace('\n', "\r\n");
        assert!(out.stdout_str().ends_with(&want), "{}", out.stdout_str());
    }
}

/// A device tree that is not one is refused naming the file and what is wrong: the magic,
/// totalsize against the file, the version, a block past the end; and one too large for
/// where it goes names both sizes (the boot ROM's, or main RAM's with the built-in SBI).
#[test]
fn bad_device_trees_are_refused() {
    let tmp = TempDir::new("bad_dtb");
    let hello = program("hello");
    let good = {
        let out = hartscope().args(["dtb", "-o", "-"]).output().unwrap();
        assert!(out.status.success());
        out.stdout
    };
    let patched = |off: usize, v: u32| {
        let mut b = good.clone();
        b[off..off + 4].copy_from_slice(&v.to_be_bytes());
        b
    };
    let cases: Vec<(&str, Vec<u8>, Vec<String>)> = vec![
        (
            "junk.dtb",
            b"not a device tree at all, just text".to_vec(),
            vec!["magic 0x6e6f7420".into()],
        ),
        ("empty.dtb", Vec::new(), vec!["truncated".into()]),
        (
            "truncated.dtb",
            good[..good.len() - 8].to_vec(),
            vec![format!(
                "totalsize is {} bytes but the blob has {}",
                good.len(),
                good.len() - 8
            )],
        ),
        ("version.dtb", patched(20, 1), vec!["version 1".into()]),
        (
            "strings.dtb",
            patched(12, 0xffff_0000),
            vec!["strings block at byte 0xffff0000".into()],
        ),
    ];
    for (name, bytes, needles) in cases {
        let f = tmp.write(name, &bytes);
        let mut n: Vec<&str> = vec!["--dtb", name];
        n.extend(needles.iter().map(String::as_str));
        refused(&[hello.as_os_str(), OsStr::new("--dtb"), f.as_os_str()], &n);
        // `hartscope dtb --dtb` checks it the same way.
        let out = hartscope()
            .args(["dtb", "--format", "dts", "--dtb"])
            .arg(&f)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(name));
    }
    refused(
        &[
            hello.as_os_str(),
            OsStr::new("--dtb"),
            tmp.join("missing.dtb").as_os_str(),
        ],
        &["--dtb", "missing.dtb", "No such file"],
    );
    // Too large for the boot ROM (at most 0xf000 - 32 bytes after the reset vector): a valid
    // blob, from bootargs of 64 KiB.
    let big = tmp.join("big.dtb");
    let long = "x".repeat(64 << 10);
    let out = hartscope()
        .args(["dtb", "--bootargs", &long, "-o"])
        .arg(&big)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let size = std::fs::metadata(&big).unwrap().len();
    refused(
        &[hello.as_os_str(), OsStr::new("--dtb"), big.as_os_str()],
        &[
            "--dtb",
            "big.dtb",
            &format!("the device tree ({size} bytes) does not fit in the boot ROM"),
            "at most 61408 bytes",
        ],
    );
    // The same bootargs on the generated tree.
    refused(
        &[
            hello.as_os_str(),
            OsStr::new("--bootargs"),
            OsStr::new(&long),
        ],
        &["the generated device tree", "does not fit in the boot ROM"],
    );
    // With the built-in SBI, main RAM must hold it: 4 KiB of RAM cannot.
    refused(
        &[
            OsStr::new("--sbi"),
            OsStr::new("builtin"),
            OsStr::new("--mem"),
            OsStr::new("0x80000000:4K,0x80200000:1M"),
            OsStr::new("--kernel"),
            program("kernel_boot").as_os_str(),
            OsStr::new("--dtb"),
            big.as_os_str(),
        ],
        &[&format!(
            "({size} bytes) does not fit in the 4096 bytes of main RAM"
        )],
    );
}

/// An Image whose magic is wrong, or that is too short or big-endian, is refused naming the
/// file and the bytes found; so is an Image that does not fit in RAM.
#[test]
fn bad_images_are_refused() {
    let tmp = TempDir::new("bad_image");
    let mut bad = image_bytes();
    bad[56..60].copy_from_slice(b"RSC\x06");
    bad[48..56].copy_from_slice(b"ARM\x64\0\0\0\0");
    let f = tmp.write("bad-magic.Image", &bad);
    refused(
        &builtin_kernel(&f),
        &[
            "--kernel",
            "bad-magic.Image",
            "not a RISC-V Linux Image",
            "magic2 at byte 56 is \"RSC\\x06\"",
        ],
    );
    let short = tmp.write("short.Image", &image_bytes()[..40]);
    refused(
        &builtin_kernel(&short),
        &["short.Image", "40 bytes: shorter than the 64-byte"],
    );
    let mut be = image_bytes();
    be[24] = 1;
    let be = tmp.write("be.Image", &be);
    refused(&builtin_kernel(&be), &["be.Image", "big-endian"]);
    // A vmlinux: its load addresses are virtual.
    let code = common::code_bytes(&[0x0000_0073]);
    let vmlinux = tmp.write(
        "vmlinux",
        &common::build_elf(&common::ElfSpec {
            class64: true,
            machine: common::EM_RISCV,
            addr: 0xffff_ffff_8000_0000,
            mem_size: code.len() as u64,
            image: code,
            symbols: vec![],
        }),
    );
    refused(
        &builtin_kernel(&vmlinux),
        &[
            "--kernel",
            "vmlinux: segment 0 has physical address 0xffffffff80000000",
            "give the kernel's Image",
        ],
    );
    // text_offset past the end of 1 MiB of RAM.
    let image = tmp.write("Image", &image_bytes());
    refused(
        &[
            OsStr::new("--sbi"),
            OsStr::new("builtin"),
            OsStr::new("--mem"),
            OsStr::new("1M"),
            OsStr::new("--kernel"),
            image.as_os_str(),
        ],
        &[
            "--kernel",
            "text_offset 0x200000",
            "does not fit in main RAM",
        ],
    );
    // A huge text_offset does not wrap around.
    let mut far = image_bytes();
    far[8..16].copy_from_slice(&u64::MAX.to_le_bytes());
    let far = tmp.write("far.Image", &far);
    refused(&builtin_kernel(&far), &["text_offset 0xffffffffffffffff"]);
}

/// An initrd larger than the RAM after the kernel is refused naming the sizes and bounds;
/// the initrd, the kernel, PROGRAM and the device tree may not overlap (each named with its
/// range).
#[test]
fn initrd_and_overlaps_are_refused() {
    let (tmp, image, _) = setup("overlaps");
    let builtin = [OsStr::new("--sbi"), OsStr::new("builtin")];
    // 16 MiB of RAM: the initrd goes at 0x80a00000, 6 MiB before RAM's end.
    let big = tmp.write("big.initrd", &vec![0x55; 7 << 20]);
    let mut args = builtin.to_vec();
    args.extend([
        OsStr::new("--mem"),
        OsStr::new("16M"),
        OsStr::new("--kernel"),
        image.as_os_str(),
        OsStr::new("--initrd"),
        big.as_os_str(),
    ]);
    refused(
        &args,
        &[
            "--initrd",
            "big.initrd",
            "7340032 bytes do not fit in RAM",
            "0x80a00000",
            "0x81000000",
            "6291456 bytes on",
        ],
    );
    // 6 MiB fits in RAM but runs into the device tree at its top.
    let six = tmp.write("six.initrd", &vec![0x55; 6 << 20]);
    args[7] = six.as_os_str();
    refused(
        &args,
        &[
            "the generated device tree, which the built-in SBI puts at the top of main RAM, at \
             0x80fff000..",
            "overlaps --initrd",
            "six.initrd at 0x80a00000..0x81000000",
        ],
    );
    // PROGRAM over the Image.
    let kelf = program("kernel_boot");
    let out = refused(
        &[kelf.as_os_str(), OsStr::new("--kernel"), image.as_os_str()],
        &[
            "--kernel",
            "(an Image) at 0x80200000..",
            "overlaps segment 0 of",
        ],
    );
    assert!(out.contains("kernel_boot.elf at 0x80200000.."), "{out}");
    // The initrd over PROGRAM: after a payload at 0x80000000 in 4 MiB of RAM, it goes at
    // 0x80200000, where PROGRAM is.
    let initrd = tmp.write("small.initrd", INITRD);
    refused(
        &[
            kelf.as_os_str(),
            OsStr::new("--mem"),
            OsStr::new("4M"),
            OsStr::new("--payload"),
            program("hello").as_os_str(),
            OsStr::new("--initrd"),
            initrd.as_os_str(),
        ],
        &[
            "--initrd",
            "small.initrd at 0x80200000..",
            "overlaps segment 0 of",
            "kernel_boot.elf at 0x80200000..",
        ],
    );
}

/// The roles are clear: the built-in SBI takes the kernel or PROGRAM, not both; firmware
/// needs PROGRAM; --kernel and --payload are one thing; --payload is not for the built-in SBI.
#[test]
fn kernel_program_and_payload_combinations() {
    let (_tmp, image, _) = setup("roles");
    let hello = program("hello");
    refused(
        &[
            OsStr::new("--sbi"),
            OsStr::new("builtin"),
            hello.as_os_str(),
            OsStr::new("--kernel"),
            image.as_os_str(),
        ],
        &["--kernel", "with --sbi builtin", "give one of them"],
    );
    refused(
        &[OsStr::new("--kernel"), image.as_os_str()],
        &["--kernel", "without --sbi builtin needs PROGRAM"],
    );
    refused(
        &[
            hello.as_os_str(),
            OsStr::new("--kernel"),
            image.as_os_str(),
            OsStr::new("--payload"),
            image.as_os_str(),
        ],
        &["--kernel", "--payload", "give one"],
    );
    refused(
        &[
            OsStr::new("--sbi"),
            OsStr::new("builtin"),
            hello.as_os_str(),
            OsStr::new("--payload"),
            image.as_os_str(),
        ],
        &["--payload", "--kernel FILE gives the built-in SBI a kernel"],
    );
    // Neither PROGRAM nor --kernel: clap's usage error.
    let out = run::<&str>(&[]);
    assert_eq!(out.code(), Some(2));
    assert!(out.stderr_str().contains("PROGRAM"), "{}", out.stderr_str());
}

/// A kernel on a hart without Zicntr (Linux reads `time` and `cycle` early and panics when
/// they trap) gets a warning naming the extension and the fix, and runs anyway (a stand-in
/// that does not read them finishes). `--isa rv64gc` has no Zicntr (G is IMAFD, Zicsr and
/// Zifencei: `--isa` means what it says); the default ISA and `rv64gc_zicntr` have it, and
/// a program that is not a kernel is not warned about.
#[test]
fn kernel_without_zicntr_is_warned_about() {
    let (_tmp, image, _initrd) = setup("zicntr");
    let warning = "lacks Zicntr (the cycle, time and instret CSRs), which Linux reads early";
    for (isa, warned) in [
        (Some("rv64gc"), true),
        (Some("rv64imac"), true),
        (Some("rv64gc_zicntr"), false),
        (Some("rva22u64"), false),
        (None, false),
    ] {
        let mut args: Vec<OsString> = vec!["-q".into()];
        if let Some(i) = isa {
            args.extend(["--isa".into(), i.into()]);
        }
        args.extend(builtin_kernel(&image));
        let out = run(&args);
        let stderr = out.stderr_str();
        assert_eq!(out.code(), Some(0), "{isa:?}: {stderr}");
        assert_eq!(
            out.stdout_str(),
            kernel_lines("0x8ffff000", None, None),
            "{isa:?}"
        );
        assert_eq!(stderr.contains(warning), warned, "{isa:?}: {stderr}");
        if let (true, Some(i)) = (warned, isa) {
            let fix = format!("add _zicntr to --isa (e.g. --isa {i}_zicntr)");
            assert!(stderr.contains(&fix), "{stderr}");
            assert!(
                stderr.contains(&format!("--kernel {}", image.display())),
                "{stderr}"
            );
        }
    }
    // Not a kernel: no warning.
    let out = run(&[
        OsStr::new("-q"),
        OsStr::new("--isa"),
        OsStr::new("rv64gc"),
        program("hello").as_os_str(),
    ]);
    assert!(!out.stderr_str().contains("Zicntr"), "{}", out.stderr_str());
}
