//! Spike's execution trace (`-l`, issue 17): `hartscope spike -l --log-commits` against
//! `spike -l --log-commits`, line for line, and the line shapes riscv-dv's
//! `spike_log_to_trace_csv.py` reads.
//!
//! * Every program in `programs/bin/` (Spike-compatible ones; `bench` as a prefix) and random
//!   RV64GC programs: identical from the first line on, the boot ROM's five instructions at
//!   0x1000 included (hartscope applies their effects at reset and logs them as Spike
//!   retires them).
//! * riscv-dv's parser (no Spike needed): every instruction line of our log has the shape its
//!   `CORE_RE` matches, every commit line that writes a register the shape of its `RD_RE`, each
//!   retired instruction's line is followed by its commit line, and ecall is spelled `ecall`.
//!
//! The Spike tests skip when Spike is missing and HARTSCOPE_SKIP_SPIKE=1, but fail when
//! HARTSCOPE_REQUIRE_TOOLS=1 (as `.ci/run` sets).

mod common;

use common::*;
use proptest::prelude::*;
use rstest::rstest;
use std::path::{Path, PathBuf};
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(300);

/// Spike, or `None` to skip (see the module's doc).
fn spike_for(test: &str) -> Option<&'static Spike> {
    if std::env::var("HARTSCOPE_REQUIRE_TOOLS").as_deref() == Ok("1") {
        let s = Spike::locate(None);
        return Some(
            s.map(|s| &*Box::leak(Box::new(s)))
                .unwrap_or_else(|e| panic!("{test}: HARTSCOPE_REQUIRE_TOOLS=1 and {e}")),
        );
    }
    spike_or_skip(test)
}

/// Spike's `-l --log-commits` log of `elf` (`extra`: more options).
fn spike_log(spike: &Spike, elf: &Path, extra: &[&str], what: &str) -> String {
    let tmp = TempDir::new(what);
    let log = tmp.join("spike.log");
    let mut cmd = spike.command();
    cmd.args(["-l", "--log-commits"])
        .arg(format!("--log={}", log.display()))
        .args(extra)
        .arg(elf);
    let out = run_with_timeout(&mut cmd, &format!("Spike on {what}"), TIMEOUT);
    std::fs::read_to_string(&log)
        .unwrap_or_else(|e| panic!("{what}: Spike wrote no log ({e}): {}", out.stderr_str()))
}

/// `hartscope spike -l --log-commits` log of `elf` and the run's outcome.
fn our_log(elf: &Path, extra: &[&str], what: &str) -> (String, Outcome) {
    let tmp = TempDir::new(what);
    let log = tmp.join("hartscope.log");
    let mut cmd = hartscope();
    cmd.args(["spike", "-l", "--log-commits"])
        .arg(format!("--log={}", log.display()))
        .args(extra)
        .arg(elf);
    let out = run_with_timeout(&mut cmd, &format!("hartscope spike on {what}"), TIMEOUT);
    assert_no_panic(what, &out.stderr_str());
    let text = std::fs::read_to_string(&log)
        .unwrap_or_else(|e| panic!("{what}: hartscope wrote no log ({e}): {}", out.stderr_str()));
    (text, out)
}

/// Spike's log without its boot-ROM lines: those before the first line at `entry` (or the
/// symbol line just before it), each checked to be at a pc below 0x8000_0000.
fn strip_boot_rom(log: &str, entry: u64) -> Vec<&str> {
    let lines: Vec<&str> = log.lines().collect();
    let at_entry = format!("core   0: 0x{entry:016x} (");
    let mut first = lines
        .iter()
        .position(|l| l.starts_with(&at_entry))
        .unwrap_or_else(|| panic!("Spike's log has no line at the entry {entry:#x}"));
    if first > 0 && lines[first - 1].starts_with("core   0: >>>>  ") {
        first -= 1;
    }
    for l in &lines[..first] {
        let pc = l
            .strip_prefix("core   0: 3 0x")
            .or_else(|| l.strip_prefix("core   0: 0x"))
            .and_then(|r| u64::from_str_radix(&r[..16], 16).ok());
        assert!(
            pc.is_some_and(|pc| pc < 0x8000_0000),
            "a line before the entry that is not a boot-ROM line: {l}"
        );
    }
    lines[first..].to_vec()
}

/// Spike's whole log, after checking that what comes before the entry is its boot ROM.
fn spike_lines(log: &str, entry: u64) -> Vec<&str> {
    let program = strip_boot_rom(log, entry).len();
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(
        lines.len() - program,
        10,
        "Spike's boot ROM: five instruction lines, each with its commit line"
    );
    lines
}

/// Compare the logs line by line (the first `limit` lines, or the common prefix when the
/// runs stop at different points); returns the lines compared.
fn compare(ours: &[&str], spikes: &[&str], limit: Option<usize>, what: &str) -> usize {
    let n = match limit {
        Some(l) => l,
        None => ours.len(),
    };
    for i in 0..n {
        let (a, b) = (ours.get(i), spikes.get(i));
        if a != b {
            let from = i.saturating_sub(3);
            let context: Vec<String> = ours[from..i].iter().map(|l| format!("  {l}")).collect();
            panic!(
                "{what}: the -l logs differ at line {}:\n{}\n  \
                 hartscope: {}\n  spike:     {}",
                i + 1,
                context.join("\n"),
                a.unwrap_or(&"<end of log>"),
                b.unwrap_or(&"<end of log>")
            );
        }
    }
    n
}

fn entry(elf: &Path) -> u64 {
    let bytes = std::fs::read(elf).expect("the program");
    iss::elf::parse_symbols(&bytes, "elf")
        .expect("an ELF")
        .entry
}

#[rstest]
fn trace_matches_spike(
    #[files("programs/bin/*.elf")]
    #[exclude("(^|/)(bench|finisher)\\.elf$")]
    program: PathBuf,
) {
    let name = program_name(&program);
    if hartscope_only(&name) {
        eprintln!("{name}: hartscope-only, not compared with Spike");
        return;
    }
    let Some(spike) = spike_for(&format!("trace_matches_spike({name})")) else {
        return;
    };
    let (ours, out) = our_log(&program, &[], &name);
    let theirs = spike_log(spike, &program, &[], &name);
    let spikes = spike_lines(&theirs, entry(&program));
    let ours: Vec<&str> = ours.lines().collect();
    assert_eq!(
        ours.len(),
        spikes.len(),
        "{name}: {} lines against Spike's {} (first difference: line {})",
        ours.len(),
        spikes.len(),
        ours.iter()
            .zip(&spikes)
            .position(|(a, b)| a != b)
            .map_or("none".into(), |i| (i + 1).to_string())
    );
    let n = compare(&ours, &spikes, None, &name);
    assert!(n > 100, "{name}: only {n} lines");
    assert!(out.status.success() || out.code().is_some(), "{name}");
}

/// A program added to `programs/bin/` after this test binary was compiled has no case.
#[test]
fn every_program_has_a_trace_case() {
    assert_every_program_has_a_case("trace_matches_spike", &["bench", "finisher"]);
}

/// `bench` retires about 1e9 instructions: the first 200,000 lines of a prefix (Spike's
/// --instructions budget loses steps at traps, so the logs end at different points).
#[test]
fn bench_trace_prefix_matches_spike() {
    let Some(spike) = spike_for("bench_trace_prefix_matches_spike") else {
        return;
    };
    let elf = program("bench");
    let (ours, _) = our_log(&elf, &["--instructions=150000"], "bench");
    let theirs = spike_log(spike, &elf, &["--instructions=150000"], "bench");
    let spikes = spike_lines(&theirs, entry(&elf));
    let ours: Vec<&str> = ours.lines().collect();
    assert!(ours.len() > 200_000, "{} lines", ours.len());
    compare(&ours, &spikes, Some(200_000), "bench");
}

/// The prologue and handler of a random program: `la t0, handler; csrw mtvec, t0; li a1, 0`
/// (a1 pointed at Spike's device tree in its boot ROM), and a handler that steps over the
/// instruction that trapped, 2 or 4 bytes as its low bits say.
fn random_program(insns: &[(u32, u8)]) -> Vec<u8> {
    let body: usize = insns.iter().map(|&(_, l)| l as usize).sum();
    let body_padded = (body + 3) & !3;
    let handler = 16 + body_padded;
    let mut code: Vec<u8> = Vec::new();
    let words = |code: &mut Vec<u8>, ws: &[u32]| {
        for w in ws {
            code.extend_from_slice(&w.to_le_bytes());
        }
    };
    let (hi, lo) = (((handler + 0x800) >> 12) as u32, (handler & 0xfff) as i32);
    let lo = if lo >= 0x800 { lo - 0x1000 } else { lo };
    words(
        &mut code,
        &[
            rv::auipc(5, hi),
            rv::addi(5, 5, lo),
            0x3052_9073, // csrw mtvec, t0
            rv::addi(11, 0, 0),
        ],
    );
    for &(bits, len) in insns {
        code.extend_from_slice(&bits.to_le_bytes()[..len as usize]);
    }
    if body_padded != body {
        code.extend_from_slice(&[0x01, 0x00]); // c.nop
    }
    words(
        &mut code,
        &[
            0x3410_2ff3,                                           // csrr t6, mepc
            (31 << 15) | (5 << 12) | (30 << 7) | 0x03,             // lhu t5, 0(t6)
            (3 << 20) | (30 << 15) | (7 << 12) | (30 << 7) | 0x13, // andi t5, t5, 3
            rv::addi(29, 0, 3),
            rv::addi(31, 31, 2),
            (29 << 20) | (30 << 15) | (1 << 12) | (8 << 7) | 0x63, // bne t5, t4, +8
            rv::addi(31, 31, 2),
            0x341f_9073, // csrw mepc, t6
            0x3020_0073, // mret
        ],
    );
    build_elf(&ElfSpec {
        class64: true,
        machine: EM_RISCV,
        addr: RAM_BASE,
        mem_size: code.len() as u64 + 0x1000,
        image: code,
        symbols: vec![],
    })
}

/// An RV64GC instruction (one hartscope's decoder accepts) from random bits: 32-bit when the
/// low bits say so, else the low 16 bits.
fn rv64gc(bits: u32) -> Option<(u32, u8)> {
    let insn = if bits & 3 == 3 { bits } else { bits & 0xffff };
    let d = iss::decode::decode(insn);
    (d.op != iss::insn::Op::Illegal && d.op != iss::insn::Op::NotDecoded).then_some((insn, d.len))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(fuzz_cases(8)))]

    /// Random RV64GC code (with a handler that steps over what traps): our -l log is Spike's.
    #[test]
    fn random_code_trace_matches_spike(
        raw in proptest::collection::vec(any::<u32>(), 16..64)
    ) {
        let Some(spike) = spike_for("random_code_trace_matches_spike") else {
            return Ok(());
        };
        let insns: Vec<(u32, u8)> = raw.iter().filter_map(|&b| rv64gc(b)).collect();
        let tmp = TempDir::new("random_trace");
        let elf = tmp.write("random.elf", &random_program(&insns));
        let theirs = spike_log(spike, &elf, &["--instructions=3000"], "random code");
        // Code that reaches the boot ROM (0x1000) or the PLIC (0xc000000) is not a case for
        // this test: their contents and registers are each platform's own.
        let elsewhere = |l: &&str| {
            l.split_whitespace().any(|w| {
                w.strip_prefix("0x")
                    .and_then(|h| u64::from_str_radix(h, 16).ok())
                    .is_some_and(|a| (0x1000..0x2000).contains(&a) || (0xc00_0000..0xd00_0000).contains(&a))
            })
        };
        prop_assume!(!strip_boot_rom(&theirs, RAM_BASE).iter().any(elsewhere));
        let spikes = spike_lines(&theirs, RAM_BASE);
        let (ours, _) = our_log(&elf, &["--instructions=3000"], "random code");
        let ours: Vec<&str> = ours.lines().collect();
        // Both stop at their instruction budget, at different points: the common prefix.
        let n = ours.len().min(spikes.len());
        prop_assert!(n >= 8, "{n} lines");
        compare(&ours, &spikes, Some(n), &format!("random code {insns:08x?}"));
    }
}

/// Whether random bits make an instruction the disassembly sweep may execute: no stores (they
/// could overwrite the code), no control transfers, no CSR writes, no wfi or xRET.
fn sweepable(bits: u32) -> Option<(u32, u8)> {
    if bits & 3 == 3 {
        let ok = match bits & 0x7f {
            0x63 | 0x6f | 0x67 | 0x23 | 0x27 | 0x2f => false,
            0x73 => {
                let (f3, rs1) = ((bits >> 12) & 7, (bits >> 15) & 31);
                match f3 {
                    0 => bits == 0x73 || bits == 0x0010_0073,
                    2 | 3 => rs1 == 0,
                    _ => false,
                }
            }
            _ => bits & 0x1f != 0x1f,
        };
        return ok.then_some((bits, 4));
    }
    let h = bits & 0xffff;
    let (q, f3, rs2) = (h & 3, h >> 13, (h >> 2) & 31);
    let ok = match (q, f3) {
        (1, 5..=7) => false,
        (2, 4) => rs2 != 0,
        (0, 4..=7) | (2, 5..=7) => false,
        _ => true,
    };
    ok.then_some((h, 2))
}

/// Spike's disassembly of random encodings (stores and control transfers aside, which the
/// programs cover) is ours, but for encodings of extensions hartscope does not model, which it
/// prints as `unknown` (docs/riscv-dv.md).
#[test]
fn disassembly_sweep_matches_spike() {
    let Some(spike) = spike_for("disassembly_sweep_matches_spike") else {
        return;
    };
    let raw = noise(0x5eed_1234, 4 * 5000);
    let insns: Vec<(u32, u8)> = raw
        .chunks_exact(4)
        .filter_map(|c| sweepable(u32::from_le_bytes([c[0], c[1], c[2], c[3]])))
        .collect();
    let tmp = TempDir::new("sweep");
    let elf = tmp.write("sweep.elf", &random_program(&insns));
    let theirs = spike_log(spike, &elf, &["--instructions=100000000"], "sweep");
    let mut spikes = std::collections::HashMap::new();
    for l in strip_boot_rom(&theirs, RAM_BASE) {
        if let Some((_, bits, text)) = instruction_line(l) {
            spikes.insert(bits, text.to_string());
        }
    }
    let (mut same, mut other_ext) = (0, 0);
    for &(bits, _) in &insns {
        let Some(theirs) = spikes.get(&bits) else {
            continue;
        };
        let ours = iss::disasm::disasm(bits);
        if ours == *theirs {
            same += 1;
        } else {
            assert_eq!(ours, "unknown", "{bits:#010x}: Spike says {theirs:?}");
            other_ext += 1;
        }
    }
    eprintln!("{same} encodings disassembled as Spike does, {other_ext} of other extensions");
    assert!(same > 2000, "{same} compared");
}

/// riscv-dv's shapes: `core N: 0xPC (0xBITS) TEXT` for an instruction line (its CORE_RE).
fn instruction_line(l: &str) -> Option<(u64, u32, &str)> {
    let r = l.strip_prefix("core")?.trim_start();
    let (core, r) = r.split_once(':')?;
    core.parse::<u32>().ok()?;
    let r = r.trim_start().strip_prefix("0x")?;
    let (pc, r) = r.split_once(char::is_whitespace)?;
    let pc = u64::from_str_radix(pc, 16).ok()?;
    let r = r.trim_start().strip_prefix("(0x")?;
    let (bits, text) = r.split_once(')')?;
    let bits = u32::from_str_radix(bits, 16).ok()?;
    let text = text.strip_prefix(char::is_whitespace)?.trim_start();
    (!text.is_empty()).then_some((pc, bits, text))
}

/// `core N: PRIV 0xPC (0xBITS) ...` (a commit line): pc, bits, and the rest.
fn commit_line(l: &str) -> Option<(u64, u32, &str)> {
    let r = l.strip_prefix("core")?.trim_start();
    let (_, r) = r.split_once(':')?;
    let r = r.trim_start();
    let (prv, r) = r.split_once(char::is_whitespace)?;
    (prv.len() == 1 && prv.as_bytes()[0].is_ascii_digit()).then_some(())?;
    let r = r.trim_start().strip_prefix("0x")?;
    let (pc, r) = r.split_once(char::is_whitespace)?;
    let r = r.trim_start().strip_prefix("(0x")?;
    let (bits, rest) = r.split_once(')')?;
    Some((
        u64::from_str_radix(pc, 16).ok()?,
        u32::from_str_radix(bits, 16).ok()?,
        rest,
    ))
}

/// RD_RE's part after the bits: a register (`x5`, `f10`), spaces, `0x` and hex digits.
fn rd_write(rest: &str) -> bool {
    let r = rest.trim_start();
    let Some(r) = r.strip_prefix(['x', 'f']) else {
        return false;
    };
    let digits = r.chars().take_while(char::is_ascii_digit).count();
    let r = r[digits..].trim_start();
    r.strip_prefix("0x")
        .is_some_and(|h| h.chars().next().is_some_and(|c| c.is_ascii_hexdigit()))
}

#[rstest]
fn trace_lines_parse_as_riscv_dv_reads_them(
    #[values("traps", "umode", "rv64i", "rvc", "rv64d")] name: &str,
) {
    let (log, out) = our_log(&program(name), &[], name);
    assert_eq!(out.code(), Some(0), "{name}: {}", out.stderr_str());
    let lines: Vec<&str> = log.lines().collect();
    let (mut insns, mut writes, mut ecalls) = (0, 0, 0);
    for (i, l) in lines.iter().enumerate() {
        if l.starts_with("core   0: >>>>  ") || l.starts_with("core   0: exception ") {
            continue;
        }
        if l.starts_with("core   0:           tval 0x") {
            continue;
        }
        if let Some((pc, bits, text)) = instruction_line(l) {
            insns += 1;
            if text.split_whitespace().next() == Some("ecall") {
                ecalls += 1;
            }
            // Retired: the commit line follows, same pc and bits; trapped: the exception.
            let next = lines.get(i + 1).copied().unwrap_or("");
            match commit_line(next) {
                Some((cpc, cbits, _)) => {
                    assert_eq!(
                        (cpc, cbits),
                        (pc, bits),
                        "{name}: line {}: {l} / {next}",
                        i + 1
                    )
                }
                None => assert!(
                    next.starts_with("core   0: exception "),
                    "{name}: line {}: {l} is followed by {next:?}",
                    i + 1
                ),
            }
            continue;
        }
        let (_, _, rest) = commit_line(l)
            .unwrap_or_else(|| panic!("{name}: line {} has no known shape: {l}", i + 1));
        if rest.trim_start().starts_with(['x', 'f']) {
            assert!(
                rd_write(rest),
                "{name}: line {}: not RD_RE's shape: {l}",
                i + 1
            );
            writes += 1;
        }
    }
    assert!(
        insns > 1000 && writes > 500,
        "{name}: {insns} instructions, {writes} writes"
    );
    if matches!(name, "traps" | "umode") {
        assert!(ecalls > 0, "{name}: no ecall line");
    }
}

/// Options Spike has that hartscope does not implement are refused by name, never ignored.
#[rstest]
#[case(&["--dtb=x.dtb"], "'--dtb=x.dtb' is not implemented")]
#[case(&["-p9"], "-p9: hartscope simulates 1 to 8 harts")]
#[case(&["--priv=mu"], "--priv=mu: hartscope has M, S and U")]
#[case(&["-m0x1001:0x1000"], "-m0x1001:0x1000: '0x1001:0x1000': the base must be 4 KiB aligned")]
#[case(&["-m0x80000000:0x10000000,0x2000000:0x1000"], "overlaps the CLINT")]
#[case(&["--isa=rv64gcv"], "extension 'v' is not implemented")]
#[case(&["+signature-granularity=3"], "power of two")]
fn spike_command_refuses_what_it_does_not_do(#[case] opts: &[&str], #[case] needle: &str) {
    expect_status(
        hartscope().arg("spike").args(opts).arg(program("hello")),
        2,
        &[needle],
    );
}

/// Program arguments after the ELF are refused; the help lists the options.
#[test]
fn spike_command_program_arguments_and_help() {
    expect_status(
        hartscope().arg("spike").arg(program("hello")).arg("x"),
        2,
        &["'x' after the program"],
    );
    let out = run_with_timeout(
        hartscope().args(["spike", "--help"]),
        "spike --help",
        TIMEOUT,
    );
    assert_eq!(out.code(), Some(0));
    assert!(out.stdout_str().contains("+signature-granularity=N"));
}

/// The options map onto run's: the signature with its granularity, -m in MiB, the log on
/// standard error by default, the program's output on standard output.
#[test]
fn spike_command_maps_onto_run() {
    let tmp = TempDir::new("spike_map");
    let elf = tmp.write("signature.elf", &htif_elf(&signature_code(0), true));
    let sig = tmp.join("sig");
    let out = run_with_timeout(
        hartscope()
            .args(["spike", "-m64", "--log-commits"])
            .arg(format!("+signature={}", sig.display()))
            .arg("+signature-granularity=8")
            .arg(&elf),
        "spike +signature",
        TIMEOUT,
    );
    assert_eq!(out.code(), Some(0), "{}", out.stderr_str());
    // The words 0x123, 0xdeadbeef, 0xdeadbeef, 0xffffffff, two per line.
    assert_eq!(
        std::fs::read_to_string(&sig).unwrap(),
        "deadbeef00000123\nffffffffdeadbeef\n"
    );
    let err = out.stderr_str();
    // The boot ROM's reset sequence first, then the program's first instruction.
    assert!(err.starts_with("core   0: 3 0x0000000000001000 ("), "{err}");
    assert!(err.contains("\ncore   0: 3 0x0000000080000000 ("), "{err}");
    assert!(!err.contains("instructions in"), "no summary line: {err}");
}

/// Spike's `-l` trace of the extension programs with the extension on (the default ISA's runs
/// with it off are `trace_matches_spike`'s): Spike is handed a tree whose `riscv,isa` is the
/// same string as hartscope's `--isa`.
#[rstest]
#[case("isa_zcb", "rv64gcb_zcb")]
#[case("isa_zcb", "rv64gc_zcb")]
#[case("isa_hints", "rv64gc_zicbop_zihintntl_zihintpause")]
#[case("isa_cbo", "rv64gc_zicbom_zicboz")]
#[case("isa_zfa", "rv64gc_zfa")]
fn extension_trace_matches_spike(#[case] name: &str, #[case] isa: &str) {
    let what = format!("{name} with --isa {isa}");
    let Some(spike) = spike_for(&what) else {
        return;
    };
    let tmp = TempDir::new("ext-trace");
    let dtb = tmp.join("spike-isa.dtb");
    std::fs::write(&dtb, spike_platform_dtb_with(isa, 16, 4).expect("the tree"))
        .expect("write the device tree");
    let spike = Spike {
        dtb,
        ..spike.clone()
    };
    let elf = program(name);
    let isa_arg = format!("--isa={isa}");
    let (ours, out) = our_log(&elf, &[&isa_arg], &what);
    let theirs = spike_log(&spike, &elf, &[], &what);
    let spikes = spike_lines(&theirs, entry(&elf));
    let ours: Vec<&str> = ours.lines().collect();
    assert_eq!(ours.len(), spikes.len(), "{what}: line counts");
    let n = compare(&ours, &spikes, None, &what);
    assert!(n > 100, "{what}: only {n} lines");
    assert_eq!(out.code(), Some(0), "{what}");
}
