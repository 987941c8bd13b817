//! The block compiler (`jit.rs`) retires exactly what the handlers do: the same programs run
//! with it (`Config::jit`, the default) and without end in the same state, registers, memory
//! and all, at the same instruction.
//!
//! - Random loops of the operations it compiles (every one of them, with random registers,
//!   immediates and values), among loads and stores that hit, miss the TLB, are misaligned
//!   (emulated or trapping), fault, or write the page the code is in; and operations it does
//!   not compile in between.
//! - The benchmark set's workloads and `bench.elf`, stopped part way: bare metal, Sv39 with
//!   U-mode, traps, FP, an interpreter.
//!
//! Case counts: a few seconds by default; `HARTSCOPE_FUZZ_CASES=N` for long runs.

mod common;

use common::{fuzz_cases, step_over_handler};
use iss::bus::RAM_BASE;
use iss::{Config, Detail, Machine, Misaligned, NoSink, Retired, Sink, TrapRecord};
use proptest::prelude::*;

/// The hart's state that a run can change, for comparing two runs.
#[derive(Debug, PartialEq, Eq)]
struct State {
    x: Vec<u64>,
    f: Vec<u64>,
    pc: u64,
    retired: u64,
    mepc: u64,
    mcause: u64,
    mtval: u64,
    /// RAM: its FNV-1a hash over 8-byte words, and its length.
    ram: (u64, usize),
}

fn state(m: &Machine) -> State {
    let bytes = m.bus.ram.bytes(0, m.bus.ram.size() as usize);
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for chunk in bytes.chunks(8) {
        let mut w = [0u8; 8];
        w[..chunk.len()].copy_from_slice(chunk);
        h = (h ^ u64::from_le_bytes(w)).wrapping_mul(0x0100_0000_01b3);
    }
    State {
        x: m.hart.x[..32].to_vec(),
        f: m.hart.f.to_vec(),
        pc: m.hart.pc,
        retired: m.retired(),
        mepc: m.hart.csr.mepc,
        mcause: m.hart.csr.mcause,
        mtval: m.hart.csr.mtval,
        ram: (h, bytes.len()),
    }
}

/// A sink of simple runs that keeps everything it hears, as text: each run's instructions
/// and effects (every field, used by the run's shapes or not), the other records, the traps.
#[derive(Default)]
struct Heard(Vec<String>);

impl Sink for Heard {
    const DETAIL: Detail = Detail::SimpleRuns;

    fn retire(&mut self, r: &Retired) {
        self.0.push(format!("{r:?}"));
    }

    fn simple_run(&mut self, r: &iss::record::SimpleRun) {
        self.0.push(format!("{r:?}"));
    }

    fn trap(&mut self, t: &TrapRecord) {
        self.0.push(format!("{t:?}"));
    }
}

// ---------------------------------------------------------------------------------------
// Random loops.

fn r_type(op: u32, f3: u32, f7: u32, rd: u32, rs1: u32, rs2: u32) -> u32 {
    f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op
}

fn i_type(op: u32, f3: u32, rd: u32, rs1: u32, imm: i32) -> u32 {
    ((imm as u32) & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op
}

fn s_type(f3: u32, rs1: u32, rs2: u32, imm: i32) -> u32 {
    let imm = imm as u32;
    (imm >> 5 & 0x7f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (imm & 0x1f) << 7 | 0x23
}

/// The registers the random operations write and read; x29 and x30 are the bases of the
/// accesses, x31 the loop's counter.
const GPRS: u32 = 29;
/// x29: the code's page, past the code (a store there leaves the compiled code for the
/// store's slow path, which finds no instruction there).
const CODE_PAGE_DATA: u64 = RAM_BASE + 0xc00;
/// x30: data, its accesses spread over two pages.
const DATA: u64 = RAM_BASE + 0x10000;
/// The trap handler: steps over the trapping instruction.
const HANDLER: usize = 0x8000;
/// Passes through the loop (the compiler takes a block on its 16th entry).
const PASSES: u64 = 40;

/// A random instruction of the loop's body: mostly what the compiler compiles.
fn body_insn() -> impl Strategy<Value = u32> {
    let reg = 0..GPRS;
    // (funct3, funct7) of OP and OP-32, and funct3 of OP-IMM, OP-IMM-32, LOAD, STORE.
    const OP: [(u32, u32); 14] = [
        (0, 0),
        (0, 0x20),
        (1, 0),
        (2, 0),
        (3, 0),
        (4, 0),
        (5, 0),
        (5, 0x20),
        (6, 0),
        (7, 0),
        (0, 1),
        // Not compiled: mulh, div, remu.
        (1, 1),
        (4, 1),
        (7, 1),
    ];
    const OP32: [(u32, u32); 7] = [(0, 0), (0, 0x20), (1, 0), (5, 0), (5, 0x20), (0, 1), (4, 1)];
    let imm = prop_oneof![
        -2048i32..2048,
        Just(0),
        Just(-1),
        Just(2047),
        Just(-2048),
        0i32..64
    ];
    let big = any::<i32>();
    prop_oneof![
        4 => (0..OP.len(), reg.clone(), reg.clone(), reg.clone())
            .prop_map(|(o, rd, a, b)| r_type(0x33, OP[o].0, OP[o].1, rd, a, b)),
        2 => (0..OP32.len(), reg.clone(), reg.clone(), reg.clone())
            .prop_map(|(o, rd, a, b)| r_type(0x3b, OP32[o].0, OP32[o].1, rd, a, b)),
        4 => (prop::sample::select(vec![0u32, 2, 3, 4, 6, 7]), reg.clone(), reg.clone(), imm.clone())
            .prop_map(|(f3, rd, a, i)| i_type(0x13, f3, rd, a, i)),
        2 => (prop::sample::select(vec![1u32, 5, 5 | 8]), reg.clone(), reg.clone(), 0i32..64)
            .prop_map(|(f3, rd, a, sh)| {
                let imm = if f3 & 8 != 0 { sh | 0x400 } else { sh };
                i_type(0x13, f3 & 7, rd, a, imm)
            }),
        1 => (reg.clone(), reg.clone(), imm.clone())
            .prop_map(|(rd, a, i)| i_type(0x1b, 0, rd, a, i)),
        1 => (prop::sample::select(vec![1u32, 5, 5 | 8]), reg.clone(), reg.clone(), 0i32..32)
            .prop_map(|(f3, rd, a, sh)| {
                let imm = if f3 & 8 != 0 { sh | 0x400 } else { sh };
                i_type(0x1b, f3 & 7, rd, a, imm)
            }),
        1 => (reg.clone(), big).prop_map(|(rd, i)| (i as u32) & !0xfff | rd << 7 | 0x37),
        1 => (reg.clone(), big).prop_map(|(rd, i)| (i as u32) & !0xfff | rd << 7 | 0x17),
        3 => (0u32..7, reg.clone(), base(), imm.clone())
            .prop_map(|(f3, rd, (b, lo, hi), i)| i_type(0x03, f3, rd, b, i.clamp(lo, hi))),
        3 => (0u32..4, base(), reg.clone(), imm.clone())
            .prop_map(|(f3, (b, lo, hi), v, i)| s_type(f3, b, v, i.clamp(lo, hi))),
    ]
}

/// A base register for an access, with the offsets it may take: mostly the data's or the
/// code page's, sometimes any register (an address that faults, or hits by chance).
fn base() -> impl Strategy<Value = (u32, i32, i32)> {
    prop_oneof![
        6 => Just((30, -2048, 2047)),
        2 => Just((29, 0, 0x3f8)),
        1 => (0..GPRS).prop_map(|r| (r, -2048, 2047)),
    ]
}

fn value() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<i64>(),
        -64i64..64,
        Just(i64::MIN),
        Just(i64::MAX),
        Just(0xffff_ffff),
        Just(0x8000_0000),
    ]
    .prop_map(|v| v as u64)
}

/// Run the loop `body` `PASSES` times (then spin) with registers `regs`, the compiler on or
/// off, for `limit` instructions; `log`: traced by a sink of simple runs (which run code of
/// their own, that leaves each instruction's effect), whose [`Heard`] comes back too, and
/// how many blocks were compiled.
fn run_loop(
    body: &[u32],
    regs: &[u64],
    emulate: bool,
    jit: bool,
    limit: u64,
    log: bool,
) -> (State, Vec<String>, u64) {
    let cfg = Config {
        misaligned: if emulate {
            Misaligned::Emulate
        } else {
            Misaligned::Trap
        },
        ram_size: 1 << 20,
        jit,
        ..Config::default()
    };
    let mut m = Machine::new(cfg);
    m.bus.console = iss::bus::Console::Null;
    let back = -4 * (body.len() as i32 + 1);
    let bne = {
        let o = back as u32;
        (o >> 12 & 1) << 31
            | (o >> 5 & 0x3f) << 25
            | 31 << 15
            | 1 << 12
            | (o >> 1 & 0xf) << 8
            | (o >> 11 & 1) << 7
            | 0x63
    };
    let words: Vec<u32> = body
        .iter()
        .copied()
        .chain([i_type(0x13, 0, 31, 31, -1), bne, 0x0000_006f])
        .collect();
    let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    assert!(code.len() < 0xc00, "the code stays below x29's stores");
    m.bus.ram.bytes_mut(0, code.len()).copy_from_slice(&code);
    let handler = step_over_handler(28);
    m.bus
        .ram
        .bytes_mut(HANDLER, handler.len())
        .copy_from_slice(&handler);
    m.boot(RAM_BASE);
    m.hart.csr.mtvec = RAM_BASE + HANDLER as u64;
    for (r, &v) in regs.iter().enumerate().skip(1) {
        m.hart.x[r] = v;
    }
    m.hart.x[29] = CODE_PAGE_DATA;
    m.hart.x[30] = DATA;
    m.hart.x[31] = PASSES;
    if log {
        let mut heard = Heard::default();
        m.run(&mut heard, Some(limit));
        return (state(&m), heard.0, m.compiled_blocks());
    }
    m.run(&mut NoSink, Some(limit));
    (state(&m), Vec::new(), m.compiled_blocks())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(fuzz_cases(96)))]

    /// Loops of random operations end in the same state, compiled or not, wherever the
    /// instruction limit stops them; traced (the commit log), the logs are the same too.
    #[test]
    fn random_loops_end_in_the_same_state(
        body in prop::collection::vec(body_insn(), 1..48),
        regs in prop::collection::vec(value(), GPRS as usize),
        emulate in any::<bool>(),
        log in any::<bool>(),
        cut in 0u64..4000,
    ) {
        // From early in the first pass to past the last (the trap handler's instructions
        // count too).
        let limit = 1 + cut % ((body.len() as u64 + 2) * PASSES + 100);
        let (with, with_log, _) = run_loop(&body, &regs, emulate, true, limit, log);
        let (without, without_log, none) = run_loop(&body, &regs, emulate, false, limit, log);
        prop_assert_eq!(with, without);
        prop_assert_eq!(with_log, without_log);
        prop_assert_eq!(none, 0);
    }
}

/// A loop the compiler takes whole (every kind of operation it compiles, accesses that hit)
/// is in the same state at every stop, before, while and after it is compiled.
#[test]
fn a_compiled_loop_matches_at_every_stop() {
    // add, sub, xor, slli, addiw, ld, sd, lw, sb, sltu, lui, auipc
    let body = [
        r_type(0x33, 0, 0, 5, 6, 7),
        r_type(0x33, 0, 0x20, 6, 5, 8),
        r_type(0x33, 4, 0, 7, 7, 6),
        i_type(0x13, 1, 8, 8, 3),
        i_type(0x1b, 0, 9, 5, -77),
        i_type(0x03, 3, 10, 30, 8),
        s_type(3, 30, 5, 8),
        i_type(0x03, 2, 11, 30, -4),
        s_type(0, 30, 9, -3),
        r_type(0x33, 3, 0, 12, 11, 10),
        0x1234_5000 | 13 << 7 | 0x37,
        0xfff0_0000 | 14 << 7 | 0x17,
    ];
    let regs: Vec<u64> = (0..GPRS as u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    let end = (body.len() as u64 + 2) * PASSES + 10;
    for limit in (0..=end).step_by(7) {
        for log in [false, true] {
            let (with, with_log, compiled) = run_loop(&body, &regs, false, true, limit, log);
            let (without, without_log, none) = run_loop(&body, &regs, false, false, limit, log);
            assert!(
                with == without && with_log == without_log,
                "stopped after {limit} instructions, log {log}"
            );
            assert_eq!(none, 0, "--no-jit compiles nothing");
            // Past the passes that make the loop hot, its code ran: the plain kind untraced,
            // the kind that leaves effects traced.
            if limit > end / 2 {
                assert!(compiled > 0, "the loop was compiled ({limit}, log {log})");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// The benchmark set.

/// Run a shipped program for `limit` instructions, the compiler on or off; its state, and
/// how many blocks were compiled.
fn run_program(path: &std::path::Path, jit: bool, limit: u64) -> (State, u64) {
    let mut cfg = Config {
        jit,
        ..Config::default()
    };
    if let Ok(isa) = std::fs::read_to_string(path.with_extension("isa")) {
        cfg.isa = iss::isa::Isa::parse(isa.trim()).expect("the program's ISA string");
    }
    let mut m = Machine::new(cfg);
    m.bus.console = iss::bus::Console::Null;
    let bytes = std::fs::read(path).expect("a shipped program");
    let prog = iss::elf::load(&mut m, &bytes, &path.display().to_string()).expect("an ELF");
    m.boot(prog.entry);
    m.run(&mut NoSink, Some(limit));
    (state(&m), m.compiled_blocks())
}

#[test]
fn the_benchmark_set_ends_in_the_same_state() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../programs/bin");
    let mut programs: Vec<_> = std::fs::read_dir(root.join("workloads"))
        .expect("programs/bin/workloads")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "elf"))
        .collect();
    programs.push(root.join("bench.elf"));
    programs.sort();
    assert!(programs.len() >= 7, "{programs:?}");
    for p in &programs {
        // Stops at odd counts, inside blocks; the last well into the hot loops.
        for limit in [1_000_003, 3_000_017] {
            let (with, compiled) = run_program(p, true, limit);
            let (without, none) = run_program(p, false, limit);
            assert!(compiled > 0 && none == 0, "{}: {compiled}", p.display());
            assert_eq!(with.retired, without.retired, "{}", p.display());
            assert!(
                with == without,
                "{} after {limit}: {with:?}\n{without:?}",
                p.display()
            );
        }
    }
}
