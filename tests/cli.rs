//! `hartscope run` on bad input and options: each case checks the exit status and that stderr
//! names the problem, without a panic. ELF files are built byte by byte in the test
//! (`common::build_elf`) or patched copies of a real program.
//!
//! Exit statuses (src/run.rs): 2 host-side error (bad option or ELF, I/O), 124 instruction
//! limit, 125 stuck guest (trap loop, WFI with nothing to wake it).

mod common;

use common::{
    assert_no_panic, build_elf, code_bytes, hartscope, htif_elf, minimal_elf, program,
    run_with_timeout, rv, signature_code, ElfSpec, Outcome, TempDir, EM_RISCV, EM_X86_64, RAM_BASE,
    SEGMENT_OFFSET,
};
use std::ffi::OsStr;
use std::path::Path;
use std::time::Duration;

/// Every case here takes well under a second; a stuck guest must be detected, not hang.
const TIMEOUT: Duration = Duration::from_secs(60);

fn run<S: AsRef<OsStr>>(args: &[S]) -> Outcome {
    let shown: Vec<String> = args
        .iter()
        .map(|a| a.as_ref().to_string_lossy().into_owned())
        .collect();
    let what = format!("hartscope run {}", shown.join(" "));
    run_with_timeout(hartscope().arg("run").args(args), &what, TIMEOUT)
}

/// Run `hartscope run ARGS`; require exit status `status` and a stderr that mentions every one
/// of `needles` (and no panic). Returns stderr.
fn expect_failure<S: AsRef<OsStr>>(args: &[S], status: i32, needles: &[&str]) -> String {
    let out = run(args);
    let shown: Vec<String> = args
        .iter()
        .map(|a| a.as_ref().to_string_lossy().into_owned())
        .collect();
    let what = format!("`hartscope run {}`", shown.join(" "));
    let stderr = out.stderr_str();
    assert_no_panic(&what, &stderr);
    assert_eq!(
        out.code(),
        Some(status),
        "{what}: expected exit status {status}, got {}; stderr:\n{stderr}",
        out.status
    );
    for n in needles {
        assert!(
            stderr.contains(n),
            "{what}: stderr does not mention {n:?}:\n{stderr}"
        );
    }
    stderr
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

// ---------------------------------------------------------------------------------------------
// The program file
// ---------------------------------------------------------------------------------------------

#[test]
fn missing_file() {
    let tmp = TempDir::new("missing");
    let p = tmp.join("no-such-program.elf");
    expect_failure(&[&p], 2, &[path_str(&p), "No such file or directory"]);
}

/// The cause of an error is stated once: an error whose message already includes its source
/// must not also print the source again through the error chain.
#[test]
fn error_cause_not_repeated() {
    let tmp = TempDir::new("missing2");
    let p = tmp.join("no-such-program.elf");
    let stderr = expect_failure(&[&p], 2, &["No such file or directory"]);
    assert_eq!(
        stderr.matches("No such file or directory").count(),
        1,
        "the OS error is printed twice:\n{stderr}"
    );
}

#[test]
fn not_an_elf_file() {
    let tmp = TempDir::new("text");
    let p = tmp.write("notes.txt", b"this is not an ELF file\n");
    expect_failure(&[&p], 2, &[path_str(&p), "not an ELF file"]);
}

#[test]
fn empty_file() {
    let tmp = TempDir::new("empty");
    let p = tmp.write("empty.elf", b"");
    expect_failure(&[&p], 2, &[path_str(&p), "not an ELF file"]);
}

#[test]
fn truncated_real_elf() {
    let tmp = TempDir::new("truncated");
    let bytes = std::fs::read(program("rv64i")).expect("read rv64i.elf");
    let p = tmp.write("truncated.elf", &bytes[..100]);
    // The ELF header is intact; the program headers are cut off.
    expect_failure(
        &[&p],
        2,
        &[
            path_str(&p),
            "truncated",
            "the program header table at file offset 0x40",
            "(0x64 bytes)",
        ],
    );
}

/// A real program cut anywhere: the message names the file, says it is truncated, which part
/// is missing, and the offsets against the file's size (it was goblin's "bad offset 61024").
#[test]
fn truncated_real_elf_everywhere() {
    let tmp = TempDir::new("truncated_all");
    let bytes = std::fs::read(program("hello")).expect("read hello.elf");
    for (cut, what) in [
        (10, "the ELF header"),
        (63, "the ELF header"),
        (bytes.len() - 1, "the section header table"),
        (bytes.len() / 2, "the section header table"),
        (0x1100, "the section header table"),
    ] {
        let p = tmp.write(&format!("cut{cut}.elf"), &bytes[..cut]);
        expect_failure(
            &[&p],
            2,
            &[
                path_str(&p),
                "truncated",
                what,
                &format!("past the end of the file ({cut:#x} bytes)"),
            ],
        );
    }
}

#[test]
fn truncated_segment_data() {
    let tmp = TempDir::new("truncated_segment");
    let mut bytes = minimal_elf(&[rv::jal(0, 0), rv::jal(0, 0)]);
    // All headers come before the segment data: cut the data in the middle.
    bytes.truncate(SEGMENT_OFFSET + 2);
    let p = tmp.write("cut.elf", &bytes);
    expect_failure(
        &[&p],
        2,
        &[
            path_str(&p),
            "truncated",
            "segment 0's data at file offset 0x1000 with 0x8 bytes",
            "(0x1002 bytes)",
        ],
    );
}

/// Offsets of the one program header's fields in `build_elf`'s files.
const PH_OFFSET: usize = 64 + 8;
const PH_FILESZ: usize = 64 + 32;
const PH_MEMSZ: usize = 64 + 40;

fn patched(bytes: &[u8], at: usize, v: u64) -> Vec<u8> {
    let mut b = bytes.to_vec();
    b[at..at + 8].copy_from_slice(&v.to_le_bytes());
    b
}

/// A huge p_filesz is reported as what it is, with the segment's real range (it was "outside
/// RAM" with a range inside RAM); a huge p_offset as data past the end; a huge p_memsz as a
/// range that wraps or does not fit in any RAM (no --mem hint then).
#[test]
fn corrupt_segment_sizes() {
    let tmp = TempDir::new("segment_sizes");
    let good = minimal_elf(&[rv::jal(0, 0), rv::jal(0, 0)]);
    let cases: [(usize, u64, &[&str]); 5] = [
        (
            PH_FILESZ,
            0xffff_ffff_ffff_0000,
            &[
                "segment 0 at 0x80000000..0x80000008",
                "p_filesz 0xffffffffffff0000",
                "p_memsz 0x8",
            ],
        ),
        (
            PH_OFFSET,
            u64::MAX - 3,
            &[
                "truncated",
                "segment 0's data at file offset 0xfffffffffffffffc",
            ],
        ),
        (
            PH_MEMSZ,
            u64::MAX,
            &[
                "segment 0 at 0x80000000",
                "p_memsz 0xffffffffffffffff",
                "64-bit address space",
            ],
        ),
        (
            PH_MEMSZ,
            1 << 48,
            &[
                "segment 0 at 0x80000000..0x1000080000000",
                "outside RAM 0x80000000..0x90000000",
            ],
        ),
        (
            PH_MEMSZ,
            1 << 30,
            &[
                "segment 0 at 0x80000000..0xc0000000",
                "outside RAM",
                "use --mem",
            ],
        ),
    ];
    for (i, (at, v, needles)) in cases.into_iter().enumerate() {
        let p = tmp.write(&format!("case{i}.elf"), &patched(&good, at, v));
        let mut all = vec![path_str(&p)];
        all.extend_from_slice(needles);
        let err = expect_failure(&[&p], 2, &all);
        if at == PH_MEMSZ && v == 1 << 48 {
            assert!(!err.contains("--mem"), "no RAM holds it: {err}");
        }
    }
}

#[test]
fn elf32() {
    let tmp = TempDir::new("elf32");
    let image = code_bytes(&[rv::jal(0, 0)]);
    let bytes = build_elf(&ElfSpec {
        class64: false,
        machine: EM_RISCV,
        addr: RAM_BASE,
        mem_size: image.len() as u64,
        image,
        symbols: vec![("tohost", RAM_BASE + 0x1000)],
    });
    let p = tmp.write("rv32.elf", &bytes);
    expect_failure(&[&p], 2, &[path_str(&p), "32-bit"]);
}

#[test]
fn not_risc_v() {
    let tmp = TempDir::new("x86");
    let image = code_bytes(&[rv::jal(0, 0)]);
    let bytes = build_elf(&ElfSpec {
        class64: true,
        machine: EM_X86_64,
        addr: RAM_BASE,
        mem_size: image.len() as u64,
        image,
        symbols: vec![],
    });
    let p = tmp.write("x86_64.elf", &bytes);
    expect_failure(&[&p], 2, &[path_str(&p), "not RISC-V", "62"]);
}

#[test]
fn real_program_patched_to_x86_64() {
    let tmp = TempDir::new("patched");
    let mut bytes = std::fs::read(program("hello")).expect("read hello.elf");
    bytes[18..20].copy_from_slice(&EM_X86_64.to_le_bytes()); // e_machine
    let p = tmp.write("hello-x86.elf", &bytes);
    expect_failure(&[&p], 2, &[path_str(&p), "not RISC-V"]);
}

#[test]
fn big_endian() {
    let tmp = TempDir::new("big_endian");
    let mut bytes = minimal_elf(&[rv::jal(0, 0)]);
    bytes[5] = 2; // EI_DATA = ELFDATA2MSB
    let p = tmp.write("be.elf", &bytes);
    expect_failure(&[&p], 2, &[path_str(&p), "big-endian"]);
}

#[test]
fn not_an_executable() {
    let tmp = TempDir::new("dyn");
    let mut bytes = minimal_elf(&[rv::jal(0, 0)]);
    bytes[16..18].copy_from_slice(&3u16.to_le_bytes()); // e_type = ET_DYN
    let p = tmp.write("shared.elf", &bytes);
    expect_failure(&[&p], 2, &[path_str(&p), "not an executable"]);
}

#[test]
fn segment_below_ram() {
    let tmp = TempDir::new("below_ram");
    let image = code_bytes(&[rv::jal(0, 0)]);
    let bytes = build_elf(&ElfSpec {
        class64: true,
        machine: EM_RISCV,
        addr: 0x4000_0000,
        mem_size: image.len() as u64,
        image,
        symbols: vec![],
    });
    let p = tmp.write("low.elf", &bytes);
    // Below RAM: a larger RAM would not help, so no --mem hint.
    let err = expect_failure(
        &[&p],
        2,
        &[
            path_str(&p),
            "segment 0 at 0x40000000..0x40000004 lies below RAM, which starts at 0x80000000",
            "only RAM",
        ],
    );
    assert!(!err.contains("--mem"), "{err}");
}

/// The signature program (`signature_code(0)`) at RAM's base with HTIF's symbols and `more`.
fn signature_elf(more: &[(&'static str, u64)]) -> Vec<u8> {
    let mut symbols = vec![("tohost", common::TOHOST), ("fromhost", common::FROMHOST)];
    symbols.extend_from_slice(more);
    build_elf(&ElfSpec {
        class64: true,
        machine: EM_RISCV,
        addr: RAM_BASE,
        image: code_bytes(&signature_code(0)),
        mem_size: 0x2000,
        symbols,
    })
}

/// Symbol names need not be UTF-8: such symbols are converted lossily, and the ones hartscope
/// needs (tohost, fromhost, the signature's) still work (the file used to be refused with
/// "invalid utf8").
#[test]
fn non_utf8_symbol_names() {
    let tmp = TempDir::new("non_utf8");
    let mut bytes = signature_elf(&[
        ("zzzzzzzz", RAM_BASE),
        ("begin_signature", common::SIGNATURE),
        ("end_signature", common::SIGNATURE + 16),
    ]);
    let at = bytes
        .windows(9)
        .position(|w| w == b"zzzzzzzz\0")
        .expect("the name in .strtab");
    bytes[at..at + 8].copy_from_slice(&[0xff, 0xfe, 0x80, 0xc3, 0x28, b'x', 0xa0, 0xa1]);
    let elf = tmp.write("latin.elf", &bytes);
    let sig = tmp.join("out.sig");
    let out = run(&[
        OsStr::new("-q"),
        OsStr::new("--signature"),
        sig.as_os_str(),
        elf.as_os_str(),
    ]);
    assert_no_panic("latin.elf", &out.stderr_str());
    assert_eq!(out.code(), Some(0), "{}", out.stderr_str());
    assert_eq!(
        std::fs::read_to_string(&sig).expect("the signature file"),
        "00000123\ndeadbeef\ndeadbeef\nffffffff\n"
    );
    // The N-Trace decoder reads the same file (it used another ELF parser, which refused it).
    let ntr = tmp.join("latin.ntr");
    let out = run(&[
        OsStr::new("-q"),
        OsStr::new("--ntrace"),
        ntr.as_os_str(),
        elf.as_os_str(),
    ]);
    assert_eq!(out.code(), Some(0), "{}", out.stderr_str());
    let out = common::run_with_timeout(
        hartscope()
            .args([OsStr::new("ntrace"), OsStr::new("decode"), ntr.as_os_str()])
            .args([OsStr::new("--elf"), elf.as_os_str(), OsStr::new("--disasm")]),
        "ntrace decode latin.elf",
        Duration::from_secs(60),
    );
    assert_no_panic("ntrace decode latin.elf", &out.stderr_str());
    assert_eq!(out.code(), Some(0), "{}", out.stderr_str());
    assert!(
        out.stdout_str().contains("80000000"),
        "{}",
        out.stdout_str()
    );
}

#[test]
fn segment_beyond_small_ram() {
    let p = program("rv64i");
    let p = path_str(&p);
    expect_failure(
        &["--mem", "4K", p],
        2,
        &[p, "segment", "outside RAM 0x80000000..0x80001000", "--mem"],
    );
}

/// The hand-built ELF itself is fine: the failures above come from what each case changes.
#[test]
fn minimal_elf_runs() {
    let tmp = TempDir::new("minimal");
    let p = tmp.write("spin.elf", &minimal_elf(&[rv::jal(0, 0)]));
    expect_failure(
        &[OsStr::new("--max-insns"), OsStr::new("10"), p.as_os_str()],
        124,
        &["instruction limit"],
    );
}

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

#[test]
fn bad_mem_values() {
    let p = program("hello");
    let p = path_str(&p);
    for (value, reason) in [
        ("0", "non-zero multiple of 4 KiB"),
        ("12X", "unknown size suffix 'X'"),
        ("5000", "multiple of 4 KiB"),
        ("lots", "invalid value 'lots'"),
        ("", "not a size"),
    ] {
        expect_failure(&["--mem", value, p], 2, &["--mem", reason]);
    }
}

/// RAM is reserved lazily: sizes above the host's memory (up to the 1 TiB the parser allows)
/// run, costing only the pages touched (they used to abort: "memory allocation failed").
#[test]
fn mem_above_host_memory() {
    let p = program("hello");
    for size in ["32G", "1024G"] {
        let out = run(&["-q", "--mem", size, path_str(&p)]);
        assert_no_panic(size, &out.stderr_str());
        assert_eq!(out.code(), Some(0), "--mem {size}: {}", out.stderr_str());
        assert_eq!(out.stdout_str(), "Hello from hartscope!\n");
    }
}

/// When the host refuses even the reservation (here a 1 GB address-space limit), the run ends
/// with status 2 and a message naming --mem, not an abort.
#[test]
fn mem_reservation_refused() {
    let p = program("hello");
    let mut cmd = std::process::Command::new("sh");
    cmd.args([
        "-c",
        "ulimit -v 1000000 && exec \"$0\" run -q --mem 32G \"$1\"",
    ])
    .arg(env!("CARGO_BIN_EXE_hartscope"))
    .arg(&p)
    .env_remove("RUST_BACKTRACE");
    common::expect_status(
        &mut cmd,
        2,
        &["--mem", "cannot reserve", "34359738368 bytes"],
    );
}

/// PMU, CTR and SBI options are checked before anything runs: status 2, the option named.
#[test]
fn bad_pmu_ctr_and_sbi_options() {
    let p = program("hello");
    let p = path_str(&p);
    expect_failure(&["--ctr", "2.0", p], 2, &["--ctr 2.0", "0.1.4 or 1.0"]);
    expect_failure(&["--ctr-report", p], 2, &["--ctr-report", "no CTR"]);
    expect_failure(&["--pmu-models", "foo", p], 2, &["--pmu-models", "foo"]);
    expect_failure(&["--hpm-counters", "40", p], 2, &["40", "29"]);
    expect_failure(&["--hpm-width", "0", p], 2, &["width", "1..=64"]);
    expect_failure(
        &["--pmu-config", "/nonexistent/pmu.toml", p],
        2,
        &["/nonexistent/pmu.toml"],
    );
    expect_failure(&["--isa", "rv64gc_smcsrind", p], 2, &["smcsrind", "smctr"]);
    expect_failure(&["--sbi", "opensbi", p], 2, &["--sbi"]);
}

#[test]
fn bad_isa() {
    let p = program("hello");
    let p = path_str(&p);
    expect_failure(&["--isa", "rv32gc", p], 2, &["rv32gc", "rv64"]);
    expect_failure(
        &["--isa", "rv64gcv", p],
        2,
        &["rv64gcv", "'v'", "not implemented"],
    );
    expect_failure(&["--isa", "rv64gc_zbc", p], 2, &["zbc", "not implemented"]);
    expect_failure(&["--isa", "rva23u64_v", p], 2, &["'v'", "not implemented"]);
    expect_failure(&["--isa", "rva20u64", p], 2, &["rva20u64", "rva22u64"]);
    expect_failure(&["--isa", "rv64i_zcb", p], 2, &["zcb", "requires"]);
}

#[test]
fn good_isa_strings() {
    let p = program("hello");
    let p = path_str(&p);
    for isa in [
        "rv64gc",
        "RV64GC",
        "rv64imafdc",
        "rv64imafdc_zicsr_zifencei_zicntr_zihpm",
        "rva22u64",
        "rva23u64",
        "rv64gcb_zcb_zicbom_zicboz_zicbop_zihintntl_zihintpause",
    ] {
        let out = run(&["-q", "--isa", isa, p]);
        assert_eq!(out.code(), Some(0), "--isa {isa}: {}", out.stderr_str());
    }
}

#[test]
fn unknown_option_and_missing_program() {
    let p = program("hello");
    expect_failure(&["--bogus", path_str(&p)], 2, &["--bogus"]);
    expect_failure(&[] as &[&str], 2, &["PROGRAM"]);
    expect_failure(
        &["--max-insns", "many", path_str(&p)],
        2,
        &["--max-insns", "many"],
    );
}

#[test]
fn instruction_limit() {
    let p = program("rv64i");
    // Reported even with -q.
    let stderr = expect_failure(
        &["-q", "--max-insns", "1000", path_str(&p)],
        124,
        &["instruction limit", "1000"],
    );
    assert_eq!(stderr.lines().count(), 1, "one line expected:\n{stderr}");
}

#[test]
fn commit_log_in_missing_directory() {
    let tmp = TempDir::new("log_dir");
    let log = tmp.join("no/such/dir/commits.log");
    let p = program("hello");
    expect_failure(
        &[OsStr::new("--log-commits"), log.as_os_str(), p.as_os_str()],
        2,
        &[path_str(&log)],
    );
    assert!(!log.exists());
}

#[test]
fn signature_in_missing_directory() {
    let tmp = TempDir::new("sig_dir");
    let sig = tmp.join("no/such/dir/out.sig");
    let p = program("hello");
    expect_failure(
        &[OsStr::new("--signature"), sig.as_os_str(), p.as_os_str()],
        2,
        &[path_str(&sig)],
    );
}

/// A program without `begin_signature`/`end_signature` (built here: it exits 0 through HTIF).
#[test]
fn signature_without_symbols() {
    let tmp = TempDir::new("no_sig_symbols");
    let elf = tmp.write("nosig.elf", &htif_elf(&signature_code(0), false));
    // Without --signature the program exits 0.
    let out = run(&[OsStr::new("-q"), elf.as_os_str()]);
    assert_eq!(out.code(), Some(0), "nosig.elf: {}", out.stderr_str());
    let sig = tmp.join("out.sig");
    expect_failure(
        &[
            OsStr::new("-q"),
            OsStr::new("--signature"),
            sig.as_os_str(),
            elf.as_os_str(),
        ],
        2,
        &["--signature", "begin_signature"],
    );
}

/// A signature range that is reversed, outside RAM or ends at 2^64 - 1 is an error naming the
/// symbols and their values (end_signature = 0xffffffffffffffff used to panic: capacity
/// overflow).
#[test]
fn signature_ranges_checked() {
    let tmp = TempDir::new("sig_ranges");
    let sig = tmp.join("out.sig");
    for (i, (begin, end, needles)) in [
        (
            common::SIGNATURE,
            u64::MAX,
            vec![
                "begin_signature 0x80001100",
                "end_signature 0xffffffffffffffff",
                "not inside RAM 0x80000000..0x90000000",
            ],
        ),
        (
            common::SIGNATURE + 16,
            common::SIGNATURE,
            vec!["end_signature 0x80001100 is before begin_signature 0x80001110"],
        ),
        (
            0x1000,
            0x1010,
            vec![
                "begin_signature 0x1000..end_signature 0x1010",
                "not inside RAM",
            ],
        ),
        (
            0x8fff_fff0,
            0x9000_0010,
            vec![
                "begin_signature 0x8ffffff0..end_signature 0x90000010",
                "not inside RAM",
            ],
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let bytes = signature_elf(&[("begin_signature", begin), ("end_signature", end)]);
        let elf = tmp.write(&format!("sig{i}.elf"), &bytes);
        let mut all = vec!["--signature"];
        all.extend(needles);
        expect_failure(
            &[
                OsStr::new("-q"),
                OsStr::new("--signature"),
                sig.as_os_str(),
                elf.as_os_str(),
            ],
            2,
            &all,
        );
    }
}

/// The signature of the hand-built program, in hartscope's format.
#[test]
fn signature_of_handmade_program() {
    let tmp = TempDir::new("sig");
    let elf = tmp.write("sig.elf", &htif_elf(&signature_code(0), true));
    let sig = tmp.join("out.sig");
    let out = run(&[
        OsStr::new("-q"),
        OsStr::new("--signature"),
        sig.as_os_str(),
        elf.as_os_str(),
    ]);
    assert_eq!(out.code(), Some(0), "{}", out.stderr_str());
    assert_eq!(
        std::fs::read_to_string(&sig).expect("the signature file"),
        "00000123\ndeadbeef\ndeadbeef\nffffffff\n"
    );
}

/// The exit code the guest writes to tohost is hartscope's exit status.
#[test]
fn guest_exit_code() {
    let tmp = TempDir::new("exit");
    let elf = tmp.write("exit7.elf", &htif_elf(&signature_code(7), false));
    let out = run(&[OsStr::new("-q"), elf.as_os_str()]);
    assert_no_panic("exit7.elf", &out.stderr_str());
    assert_eq!(out.code(), Some(7), "{}", out.stderr_str());
}

/// The test finisher ends the run at the store, as on QEMU's `virt`: it is the last
/// instruction retired (nothing of the `j .` after it).
#[test]
fn finisher_stops_at_the_store() {
    let elf = common::program("finisher");
    let out = run(&[
        OsStr::new("-q"),
        elf.as_os_str(),
        OsStr::new("--log-commits"),
        OsStr::new("-"),
    ]);
    assert_no_panic("finisher.elf", &out.stderr_str());
    assert_eq!(out.code(), Some(0), "{}", out.stderr_str());
    let log = out.stdout_str();
    let last = log
        .lines()
        .rev()
        .find(|l| l.starts_with("core"))
        .expect("a commit log");
    assert!(
        last.ends_with("mem 0x0000000000100000 0x00005555"),
        "the finisher store is the last instruction: {last}"
    );
}

// ---------------------------------------------------------------------------------------------
// Stuck guests
// ---------------------------------------------------------------------------------------------

/// `jalr x0, 0(x0)` with mtvec = 0 (its reset value): the fetch at 0 faults, the trap goes to
/// mtvec = 0, which faults again, forever (Spike loops silently). hartscope must stop with
/// status 125.
#[test]
fn trap_loop() {
    let tmp = TempDir::new("trap_loop");
    let p = tmp.write("void.elf", &minimal_elf(&[rv::jalr(0, 0, 0)]));
    expect_failure(&[&p], 125, &["trap loop"]);
    // Also with a commit log: the boot ROM's five lines, the jalr, then nothing.
    let log = tmp.join("void.log");
    expect_failure(
        &[OsStr::new("--log-commits"), log.as_os_str(), p.as_os_str()],
        125,
        &["trap loop"],
    );
    let text = std::fs::read_to_string(&log).expect("the commit log");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6, "the commit log of the trap loop: {text}");
    assert!(
        lines[..5]
            .iter()
            .all(|l| l.starts_with("core   0: 3 0x00000000000010")),
        "the boot ROM's lines first: {text}"
    );
    assert_eq!(
        lines[5], "core   0: 3 0x0000000080000000 (0x00000067)",
        "the commit log of the trap loop"
    );
}

/// `wfi` with mie = 0 can never wake: status 125.
#[test]
fn wfi_forever() {
    let tmp = TempDir::new("wfi");
    let p = tmp.write("wfi.elf", &minimal_elf(&[rv::WFI, rv::jal(0, -4)]));
    expect_failure(&[&p], 125, &["WFI"]);
}

/// A timer whose compare value lies in the last quantum before mtime wraps (here its last
/// value) wakes a `wfi`: mtime reaches its last value before it wraps, and the program runs
/// on to its instruction limit. Time stepped over it, and the hart waited for ever, time
/// going round, ignoring the limit.
#[test]
fn wfi_wakes_for_a_timer_just_before_mtime_wraps() {
    let tmp = TempDir::new("wfi-wrap");
    let code = [
        rv::addi(rv::T2, 0, 0x80), // mie.MTIE
        rv::csrrs(0, rv::MIE, rv::T2),
        rv::lui(rv::T1, 0x2004),   // the CLINT's mtimecmp (hart 0)
        rv::addi(rv::T0, 0, -1),   // u64::MAX
        rv::sd(rv::T0, 0, rv::T1), // mtimecmp = u64::MAX
        rv::WFI,
        rv::jal(0, -4),
    ];
    let p = tmp.write("wfi.elf", &minimal_elf(&code));
    expect_failure(
        &[OsStr::new("--max-insns"), OsStr::new("1000"), p.as_os_str()],
        124,
        &["instruction limit"],
    );
}

/// A sanity check of the encoders used to build the programs above.
#[test]
fn encoders() {
    assert_eq!(rv::jalr(0, 0, 0), 0x0000_0067);
    assert_eq!(rv::jal(0, 0), 0x0000_006f);
    assert_eq!(rv::jal(0, -4), 0xffdf_f06f);
    assert_eq!(rv::auipc(rv::T0, 1), 0x0000_1297);
    assert_eq!(rv::addi(rv::T1, 0, 0x123), 0x1230_0313);
    assert_eq!(rv::addi(rv::T2, rv::T2, -0x111), 0xeef3_8393);
    assert_eq!(rv::lui(rv::T2, 0xdeadc), 0xdead_c3b7);
    assert_eq!(rv::sw(rv::T1, 0x100, rv::T0), 0x1062_a023);
    assert_eq!(rv::sd(rv::T2, 0x108, rv::T0), 0x1072_b423);
    assert_eq!(rv::sd(rv::T1, 0, rv::T0), 0x0062_b023);
    assert_eq!(rv::csrrs(rv::T1, rv::MSCRATCH, 0), 0x3400_2373);
}

// ---------------------------------------------------------------------------------------------
// Output to a full or closed standard output
// ---------------------------------------------------------------------------------------------

/// Run `hartscope run ARGS` with standard output `stdout`; returns the exit status and stderr.
fn run_to(args: &[&OsStr], stdout: std::process::Stdio) -> (Option<i32>, String) {
    use std::io::Read;
    let mut cmd = hartscope();
    cmd.arg("run")
        .args(args)
        .stdout(stdout)
        .stderr(std::process::Stdio::piped());
    let what = format!("{cmd:?}");
    let mut w = common::Watched::spawn(&mut cmd, &what, TIMEOUT);
    let mut err = String::new();
    if let Some(mut e) = w.stderr.take() {
        e.read_to_string(&mut err).expect("read stderr");
    }
    let status = w.wait();
    assert_no_panic(&what, &err);
    (status.code(), err)
}

fn dev_full() -> std::process::Stdio {
    std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("open /dev/full")
        .into()
}

/// A pipe whose reading end is already closed: every write gets EPIPE.
fn closed_pipe() -> std::process::Stdio {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    writer.into()
}

/// A guest that writes 'x' to the UART forever (no newline, no exit).
fn uart_forever_elf(tmp: &TempDir) -> std::path::PathBuf {
    const SB_T1_0_T0: u32 = (rv::T1 << 20) | (rv::T0 << 15) | 0x23; // sb t1, 0(t0)
    tmp.write(
        "uart_forever.elf",
        &minimal_elf(&[
            rv::lui(rv::T0, 0x10000), // t0 = 0x1000_0000, the UART
            rv::addi(rv::T1, 0, b'x' as i32),
            SB_T1_0_T0,
            rv::jal(0, -4),
        ]),
    )
}

/// The guest's output (HTIF write, UART transmit) to a full or closed standard output ends the
/// run with status 2 and a message naming standard output (it was lost with status 0).
#[test]
fn guest_output_to_full_or_closed_stdout() {
    let tmp = TempDir::new("stdout_errors");
    let hello = program("hello");
    let uart = uart_forever_elf(&tmp);
    for (elf, name) in [(&hello, "hello (HTIF)"), (&uart, "UART forever")] {
        for (out, kind, reason) in [
            (dev_full(), "/dev/full", "No space left on device"),
            (closed_pipe(), "closed pipe", "Broken pipe"),
        ] {
            let (code, err) = run_to(&[OsStr::new("-q"), elf.as_os_str()], out);
            assert_eq!(code, Some(2), "{name} to {kind}: {err}");
            for needle in ["standard output", reason] {
                assert!(
                    err.contains(needle),
                    "{name} to {kind}: no {needle:?} in {err}"
                );
            }
        }
    }
}

/// `--log-commits -` to a full or closed standard output: status 2 naming standard output, and
/// the run stops at once (it used to run the whole program).
#[test]
fn commit_log_to_full_or_closed_stdout() {
    let bench = program("bench");
    for (out, kind, reason) in [
        (dev_full(), "/dev/full", "No space left on device"),
        (closed_pipe(), "closed pipe", "Broken pipe"),
    ] {
        let start = std::time::Instant::now();
        let (code, err) = run_to(
            &[
                OsStr::new("-q"),
                OsStr::new("--log-commits"),
                OsStr::new("-"),
                bench.as_os_str(),
            ],
            out,
        );
        assert_eq!(code, Some(2), "{kind}: {err}");
        for needle in ["commit log", "standard output", reason] {
            assert!(err.contains(needle), "{kind}: no {needle:?} in {err}");
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{kind}: the run went on after the log failed ({:?})",
            start.elapsed()
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Bounded inputs: --uart-input streams, settings files are capped
// ---------------------------------------------------------------------------------------------

/// A guest that reads the UART while LSR.DR says a byte is waiting, echoing each byte to the
/// UART if `echo`, and exits 0 through HTIF when no byte is left.
fn uart_reader_elf(tmp: &TempDir, echo: bool) -> std::path::PathBuf {
    use rv::{T0, T1, T2};
    let lbu =
        |rd: u32, imm: u32, rs1: u32| (imm << 20) | (rs1 << 15) | (4 << 12) | (rd << 7) | 0x03;
    let andi =
        |rd: u32, rs1: u32, imm: u32| (imm << 20) | (rs1 << 15) | (7 << 12) | (rd << 7) | 0x13;
    // beq t1, x0, +16
    let beq_t1_zero_16 = (T1 << 15) | (8 << 8) | 0x63;
    let sb_t1_0_t0 = (T1 << 20) | (T0 << 15) | 0x23;
    let nop = 0x13;
    let code = [
        rv::auipc(T2, 1),     // t2 = tohost (0x8000_1000)
        rv::lui(T0, 0x10000), // t0 = the UART
        lbu(T1, 5, T0),       // 8: t1 = LSR
        andi(T1, T1, 1),      // DR
        beq_t1_zero_16,       // 16: no byte: to 32
        lbu(T1, 0, T0),       // t1 = RBR
        if echo { sb_t1_0_t0 } else { nop },
        rv::jal(0, -20),    // 28: to 8
        rv::addi(T1, 0, 1), // 32: exit code 0
        rv::sd(T1, 0, T2),
        rv::jal(0, 0),
    ];
    let name = if echo {
        "uart_echo.elf"
    } else {
        "uart_drain.elf"
    };
    tmp.write(name, &htif_elf(&code, false))
}

/// --uart-input delivers a file's bytes in order, then LSR.DR stays clear.
#[test]
fn uart_input_file_is_echoed() {
    let tmp = TempDir::new("uart_file");
    let elf = uart_reader_elf(&tmp, true);
    let data: Vec<u8> = (0..20_000u32).map(|i| (i % 251) as u8).collect();
    let input = tmp.write("in.bin", &data);
    let out = run(&[
        OsStr::new("-q"),
        OsStr::new("--uart-input"),
        input.as_os_str(),
        elf.as_os_str(),
    ]);
    assert_eq!(out.code(), Some(0), "{}", out.stderr_str());
    assert_eq!(out.stdout, data);
}

/// /dev/zero as UART input: the guest reads it for millions of instructions with memory staying
/// bounded (under a 300 MB address-space limit; it used to read the whole input first, 1.3 GB
/// in 5 s).
#[test]
fn uart_input_endless_source_is_streamed() {
    let tmp = TempDir::new("uart_zero");
    let elf = uart_reader_elf(&tmp, false);
    let mut cmd = std::process::Command::new("sh");
    cmd.args([
        "-c",
        "ulimit -v 300000 && exec \"$0\" run -q --mem 16M --max-insns 2000000 --uart-input /dev/zero \"$1\"",
    ])
    .arg(env!("CARGO_BIN_EXE_hartscope"))
    .arg(&elf)
    .env_remove("RUST_BACKTRACE");
    common::expect_status(&mut cmd, 124, &["instruction limit", "2000000"]);
}

/// A FIFO as UART input: read as it is written; its end is the input's end.
#[test]
fn uart_input_fifo() {
    let tmp = TempDir::new("uart_fifo");
    let elf = uart_reader_elf(&tmp, true);
    let fifo = tmp.join("in.fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("run mkfifo");
    assert!(made.success(), "mkfifo {}", fifo.display());
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            use std::io::Write;
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .open(&fifo)
                .expect("open the FIFO");
            for i in 0..50 {
                writeln!(f, "line {i} through the FIFO").expect("write the FIFO");
            }
        })
    };
    let out = run(&[
        OsStr::new("-q"),
        OsStr::new("--uart-input"),
        fifo.as_os_str(),
        elf.as_os_str(),
    ]);
    writer.join().expect("the FIFO writer");
    assert_eq!(out.code(), Some(0), "{}", out.stderr_str());
    let want: String = (0..50)
        .map(|i| format!("line {i} through the FIFO\n"))
        .collect();
    assert_eq!(out.stdout_str(), want);
}

/// `--uart-input -` reads standard input.
#[test]
fn uart_input_stdin() {
    use std::io::Write;
    let tmp = TempDir::new("uart_stdin");
    let elf = uart_reader_elf(&tmp, true);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hartscope"))
        .args([
            OsStr::new("run"),
            OsStr::new("-q"),
            OsStr::new("--uart-input"),
            OsStr::new("-"),
            elf.as_os_str(),
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start hartscope");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"typed on standard input\n")
        .expect("write stdin");
    let out = child.wait_with_output().expect("wait for hartscope");
    assert_no_panic("--uart-input -", &String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, b"typed on standard input\n");
}

/// A directory as --uart-input is refused before the run; a source that fails while the guest
/// reads it (a directory as standard input) stops the run naming --uart-input, not standard
/// output (the fuzzing of options found that message blaming the output).
#[test]
fn uart_input_read_errors_name_the_input() {
    let tmp = TempDir::new("uart_dir");
    let elf = uart_reader_elf(&tmp, true);
    expect_failure(
        &["--uart-input", "/", path_str(&elf)],
        2,
        &["--uart-input /: is a directory"],
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hartscope"))
        .args([
            OsStr::new("run"),
            OsStr::new("-q"),
            OsStr::new("--uart-input"),
            OsStr::new("-"),
            elf.as_os_str(),
        ])
        .stdin(std::fs::File::open("/").expect("open / for reading"))
        .output()
        .expect("run hartscope");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_no_panic("--uart-input - < /", &err);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--uart-input standard input: cannot read: Is a directory"),
        "{err}"
    );
    assert!(!err.contains("standard output"), "{err}");
}

/// A missing --uart-input file is refused before the run, naming the option and the file.
#[test]
fn uart_input_missing_file() {
    let p = program("hello");
    expect_failure(
        &["--uart-input", "/nonexistent/in.txt", path_str(&p)],
        2,
        &["--uart-input", "/nonexistent/in.txt", "No such file"],
    );
}

/// Settings files are read up to 1 MiB: /dev/zero or a huge file is an error naming the option,
/// the file and the cap (they were read without bound).
#[test]
fn settings_files_are_capped() {
    let tmp = TempDir::new("caps");
    let big = tmp.write("big.toml", &vec![b'#'; (1 << 20) + 1]);
    let p = program("hello");
    for opt in ["--pmu-config", "--ctr-config"] {
        for file in [Path::new("/dev/zero"), big.as_path()] {
            expect_failure(
                &[opt, path_str(file), path_str(&p)],
                2,
                &[opt, path_str(file), "larger than the 1 MiB"],
            );
        }
    }
}

/// The program itself: /dev/zero is refused at its first bytes, not read without end.
#[test]
fn program_from_dev_zero() {
    expect_failure(&["/dev/zero"], 2, &["/dev/zero", "not an ELF file"]);
}

// ---------------------------------------------------------------------------------------------
// hartscope bench
// ---------------------------------------------------------------------------------------------

/// `hartscope bench --spike` with something that is not Spike is refused at once, before any
/// measurement (it was found out only after the hartscope runs).
#[test]
fn bench_checks_spike_first() {
    let p = program("bench");
    for (spike, needles) in [
        (
            "/bin/true",
            vec!["--spike /bin/true is not Spike", "banner"],
        ),
        (
            "/nonexistent/spike",
            vec!["--spike /nonexistent/spike", "cannot run it"],
        ),
    ] {
        let start = std::time::Instant::now();
        let o = common::expect_status(
            hartscope().args([
                OsStr::new("bench"),
                p.as_os_str(),
                OsStr::new("--spike"),
                OsStr::new(spike),
            ]),
            2,
            &needles,
        );
        assert!(
            !o.stderr_str().contains("MIPS"),
            "measured before checking: {}",
            o.stderr_str()
        );
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{:?}",
            start.elapsed()
        );
    }
}

/// `hartscope bench --no-jit` runs hartscope's hart without its block compiler, and says so:
/// in its heading, and in the JSON report, whose hartscope runs compiled no block (and do
/// compile some without the option).
#[test]
fn bench_no_jit_runs_without_the_compiler() {
    let Some(spike) = common::spike_or_skip("bench_no_jit_runs_without_the_compiler") else {
        return;
    };
    // Short, with loops that run hot enough to be compiled.
    let p = program("hello");
    let json =
        std::env::temp_dir().join(format!("hartscope-cli-nojit-{}.json", std::process::id()));
    let mut compiled = Vec::new();
    for no_jit in [true, false] {
        let mut c = hartscope();
        c.args([
            OsStr::new("bench"),
            p.as_os_str(),
            OsStr::new("--repeat"),
            OsStr::new("1"),
            OsStr::new("--no-log"),
            OsStr::new("--trace-insns"),
            OsStr::new("0"),
            OsStr::new("--json"),
            json.as_os_str(),
            OsStr::new("--spike"),
            spike.bin.as_os_str(),
        ]);
        if no_jit {
            c.arg("--no-jit");
        }
        let o = common::expect_status(&mut c, 0, &[]);
        assert_eq!(
            o.stderr_str()
                .contains("without its block compiler (--no-jit)"),
            no_jit,
            "{}",
            o.stderr_str()
        );
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        assert_eq!(v["jit"], !no_jit, "{v}");
        let h = v["measures"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["simulator"] == "hartscope")
            .unwrap_or_else(|| panic!("no hartscope run: {v}"));
        compiled.push(h["compiled_blocks"].as_u64().expect("a count"));
    }
    std::fs::remove_file(&json).unwrap();
    assert!(compiled[0] == 0 && compiled[1] > 0, "{compiled:?}");
}

/// `hartscope bench --set` reports, after the untraced table, each workload's commit-log
/// ratio and traced fractions: a program that takes exceptions (whose pcs the decoded flow
/// has beside the retired instructions) among them.
#[test]
fn bench_set_reports_traced_modes() {
    let Some(spike) = common::spike_or_skip("bench_set_reports_traced_modes") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("hartscope-cli-set-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("workloads")).unwrap();
    std::fs::copy(program("hello"), dir.join("bench.elf")).unwrap();
    std::fs::copy(program("traps"), dir.join("workloads/traps.elf")).unwrap();
    let o = common::expect_status(
        hartscope().args([
            OsStr::new("bench"),
            OsStr::new("--set"),
            dir.as_os_str(),
            OsStr::new("--repeat"),
            OsStr::new("1"),
            OsStr::new("--trace-insns"),
            OsStr::new("20000"),
            OsStr::new("--log-insns"),
            OsStr::new("20000"),
            OsStr::new("--spike"),
            spike.bin.as_os_str(),
        ]),
        0,
        &[],
    );
    let out = o.stdout_str();
    assert!(out.contains("geometric mean of the ratios"), "{out}");
    let table = out
        .split_once("traced (fraction of untraced")
        .unwrap_or_else(|| panic!("no traced table: {out}"))
        .1;
    for name in ["bench", "traps"] {
        let row: Vec<&str> = table
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no {name} row: {table}"))
            .split_whitespace()
            .collect();
        assert_eq!(row.len(), 7, "{row:?}");
        assert!(row[1].ends_with('x'), "{row:?}");
        // Fractions of a run of 20000 instructions, which a thread's start or a timer tick
        // dominates: on a loaded machine one prints as 0.00 and another as 5.90 (seen in
        // CI). What is checked is the table's shape: each a number, finite, not negative.
        for f in &row[2..] {
            let v: f64 = f.parse().unwrap_or_else(|_| panic!("{f} in {row:?}"));
            assert!(v.is_finite() && v >= 0.0, "{row:?}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
