//! Event counts against the retired instruction stream of the same run.
//!
//! Every instruction-class event of the PMU (docs/pmu.md, "Events") is given an hpm counter,
//! once counting in every mode and once with MINH (S and U only), and the program runs with a
//! full-record sink. The sink counts the same events on its own, from the records alone: it
//! decodes each instruction's raw bits itself (opcode, funct3, the compressed quadrants; no
//! use of the hart's decoder or op tables), decides a conditional branch's direction from a
//! shadow register file kept from the records' register writes, tells calls, returns and
//! other jumps apart by the link registers x1/x5 (the E-Trace itype rules), and counts traps
//! from the trap records in the privilege they were taken from. At the end each counter must
//! equal its independent count exactly.
//!
//! M-mode programs run as they are; `sbi_ext` runs in S-mode under the built-in SBI, where an
//! `ecall` the SBI serves and a misaligned access it emulates show as retired in the records
//! but count as what they are on hardware: an exception into M-mode that does not retire.

mod common;

use iss::csr::{MCOUNTINHIBIT, MHPMCOUNTER3, MHPMEVENT3};
use iss::record::{MemKind, Reg, Retired, TrapRecord};
use iss::Detail;
use iss::{Cause, Config, Exception, Machine, NoSink, Priv, Sink, Stop};
use rstest::rstest;

/// The events checked, by mhpmevent selector (pmu/src/event.rs, docs/pmu.md).
const CPU_CYCLES: u64 = 0x1;
const INSTRUCTIONS: u64 = 0x2;
const BRANCH_INSTRUCTIONS: u64 = 0x5;
const LOADS: u64 = 0x20001;
const STORES: u64 = 0x20002;
const ATOMICS: u64 = 0x20003;
const BRANCHES_TAKEN: u64 = 0x20004;
const BRANCHES_NOT_TAKEN: u64 = 0x20005;
const JUMPS: u64 = 0x20006;
const CALLS: u64 = 0x20007;
const RETURNS: u64 = 0x20008;
const FP_OPS: u64 = 0x20009;
const EXCEPTIONS: u64 = 0x2000a;
const INTERRUPTS: u64 = 0x2000b;
const MISALIGNED: u64 = 0x2000c;
const CONDITIONAL_BRANCHES: u64 = 0x2000d;

const ALL_MODES: [u64; 16] = [
    CPU_CYCLES,
    INSTRUCTIONS,
    BRANCH_INSTRUCTIONS,
    LOADS,
    STORES,
    ATOMICS,
    BRANCHES_TAKEN,
    BRANCHES_NOT_TAKEN,
    JUMPS,
    CALLS,
    RETURNS,
    FP_OPS,
    EXCEPTIONS,
    INTERRUPTS,
    MISALIGNED,
    CONDITIONAL_BRANCHES,
];
/// Counted again with MINH: S and U only.
const S_AND_U: [u64; 13] = [
    INSTRUCTIONS,
    LOADS,
    STORES,
    ATOMICS,
    BRANCHES_TAKEN,
    BRANCHES_NOT_TAKEN,
    JUMPS,
    CALLS,
    RETURNS,
    FP_OPS,
    EXCEPTIONS,
    INTERRUPTS,
    MISALIGNED,
];
const MINH: u64 = 1 << 62;

/// What one instruction is, from its bits alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Load,
    Store,
    Atomic,
    /// A conditional branch: compare x[rs1] with x[rs2] (x0 for c.beqz/c.bnez) by funct3
    /// (0 beq, 1 bne, 4 blt, 5 bge, 6 bltu, 7 bgeu); its offset.
    Branch {
        f3: u32,
        rs1: usize,
        rs2: usize,
        off: i64,
    },
    /// jal / jalr (and the compressed forms) with their rd and, for jalr, rs1.
    Jump {
        rd: usize,
        rs1: Option<usize>,
    },
    Fp,
    Other,
}

fn bits(v: u32, hi: u32, lo: u32) -> u32 {
    (v >> lo) & ((1 << (hi - lo + 1)) - 1)
}

fn sext(v: u32, width: u32) -> i64 {
    ((v as i64) << (64 - width)) >> (64 - width)
}

fn classify(insn: u32, len: u8) -> Kind {
    if len == 2 {
        let q = insn & 3;
        let f3 = bits(insn, 15, 13);
        let rs1p = 8 + bits(insn, 9, 7) as usize;
        return match (q, f3) {
            (0, 1..=3) | (2, 1..=3) => Kind::Load, // c.fld c.lw c.ld, c.fldsp c.lwsp c.ldsp
            (0, 5..=7) | (2, 5..=7) => Kind::Store, // c.fsd c.sw c.sd, c.fsdsp c.swsp c.sdsp
            (1, 5) => Kind::Jump { rd: 0, rs1: None }, // c.j
            (1, 6) | (1, 7) => {
                let off = bits(insn, 12, 12) << 8
                    | bits(insn, 11, 10) << 3
                    | bits(insn, 6, 5) << 6
                    | bits(insn, 4, 3) << 1
                    | bits(insn, 2, 2) << 5;
                Kind::Branch {
                    f3: f3 - 6, // beqz: beq, bnez: bne
                    rs1: rs1p,
                    rs2: 0,
                    off: sext(off, 9),
                }
            }
            (2, 4) => {
                let (b12, rs1, rs2) = (
                    bits(insn, 12, 12),
                    bits(insn, 11, 7) as usize,
                    bits(insn, 6, 2),
                );
                match (b12, rs1, rs2) {
                    (0, r, 0) if r != 0 => Kind::Jump {
                        rd: 0,
                        rs1: Some(r),
                    }, // c.jr
                    (1, r, 0) if r != 0 => Kind::Jump {
                        rd: 1,
                        rs1: Some(r),
                    }, // c.jalr
                    _ => Kind::Other, // c.mv, c.add, c.ebreak
                }
            }
            _ => Kind::Other,
        };
    }
    let rd = bits(insn, 11, 7) as usize;
    let rs1 = bits(insn, 19, 15) as usize;
    let rs2 = bits(insn, 24, 20) as usize;
    match insn & 0x7f {
        0x03 | 0x07 => Kind::Load,
        0x23 | 0x27 => Kind::Store,
        0x2f => Kind::Atomic,
        0x63 => {
            let off = bits(insn, 31, 31) << 12
                | bits(insn, 7, 7) << 11
                | bits(insn, 30, 25) << 5
                | bits(insn, 11, 8) << 1;
            Kind::Branch {
                f3: bits(insn, 14, 12),
                rs1,
                rs2,
                off: sext(off, 13),
            }
        }
        0x6f => Kind::Jump { rd, rs1: None },
        0x67 => Kind::Jump { rd, rs1: Some(rs1) },
        0x53 | 0x43 | 0x47 | 0x4b | 0x4f => Kind::Fp,
        _ => Kind::Other,
    }
}

fn link(r: usize) -> bool {
    r == 1 || r == 5
}

/// Counts per privilege (U 0, S 1, M 2) and selector.
#[derive(Default)]
struct Reference {
    /// Under the built-in SBI: what S-mode sees as a retired ecall was an SBI call, and a
    /// retired misaligned access was emulated; on hardware both are exceptions into M-mode
    /// that do not retire (docs/pmu.md, "Built-in SBI").
    sbi: bool,
    x: [u64; 32],
    counts: [std::collections::BTreeMap<u64, u64>; 3],
    records: u64,
}

fn pi(p: Priv) -> usize {
    match p {
        Priv::U => 0,
        Priv::S => 1,
        _ => 2,
    }
}

impl Reference {
    fn add(&mut self, p: Priv, sel: u64) {
        *self.counts[pi(p)].entry(sel).or_default() += 1;
    }

    fn count(&self, sel: u64, modes: &[Priv]) -> u64 {
        modes
            .iter()
            .map(|&p| self.counts[pi(p)].get(&sel).copied().unwrap_or(0))
            .sum()
    }
}

impl Reference {
    /// Keep the shadow registers.
    fn shadow(&mut self, r: &Retired) {
        for w in r.writes() {
            if let Reg::X(n) = w.reg {
                if n != 0 {
                    self.x[n as usize] = w.value;
                }
            }
        }
    }
}

impl Sink for Reference {
    const DETAIL: Detail = Detail::Records;

    fn retire(&mut self, r: &Retired) {
        self.records += 1;
        let p = r.prv;
        match r.exception {
            // An instruction that raises an exception does not retire; ecall and ebreak
            // neither ("they are not considered to retire, and should not increment the
            // minstret CSR", privileged spec 3.3.1).
            Some((Cause::Exception(e), _)) => {
                // an access whose address is not a multiple of its size counts as misaligned
                // also when it traps for it
                if matches!(
                    e,
                    Exception::LoadAddressMisaligned | Exception::StoreAddressMisaligned
                ) {
                    self.add(p, MISALIGNED);
                }
                return;
            }
            Some(_) => return,
            None => {}
        }
        if self.sbi && p != Priv::M {
            let misaligned = r.mem().iter().any(|m| m.vaddr % m.size as u64 != 0);
            if r.insn.bits == 0x73 || misaligned {
                self.add(p, EXCEPTIONS);
                if misaligned {
                    self.add(p, MISALIGNED);
                }
                self.shadow(r);
                return;
            }
        }
        self.add(p, INSTRUCTIONS);
        self.add(p, CPU_CYCLES);
        let len = r.insn.len;
        let fall = r.pc.wrapping_add(len as u64);
        match classify(r.insn.bits, len) {
            Kind::Load => self.add(p, LOADS),
            Kind::Store => self.add(p, STORES),
            Kind::Atomic => self.add(p, ATOMICS),
            Kind::Fp => self.add(p, FP_OPS),
            Kind::Branch { f3, rs1, rs2, off } => {
                let (a, b) = (self.x[rs1], self.x[rs2]);
                let taken = match f3 {
                    0 => a == b,
                    1 => a != b,
                    4 => (a as i64) < (b as i64),
                    5 => (a as i64) >= (b as i64),
                    6 => a < b,
                    7 => a >= b,
                    _ => panic!("not a branch: {:#x} at {:#x}", r.insn.bits, r.pc),
                };
                let want = if taken {
                    r.pc.wrapping_add(off as u64)
                } else {
                    fall
                };
                assert_eq!(
                    r.next_pc, want,
                    "branch {:#x} at {:#x}: the shadow registers disagree",
                    r.insn.bits, r.pc
                );
                self.add(
                    p,
                    if taken {
                        BRANCHES_TAKEN
                    } else {
                        BRANCHES_NOT_TAKEN
                    },
                );
                self.add(p, CONDITIONAL_BRANCHES);
                self.add(p, BRANCH_INSTRUCTIONS);
            }
            Kind::Jump { rd, rs1 } => {
                // E-Trace: rd link and rs1 a different link register is a co-routine swap (a
                // jump); rd link otherwise a call; rs1 link with rd not a return.
                let ev = match rs1 {
                    None if link(rd) => CALLS,
                    None => JUMPS,
                    Some(s) if link(rd) && link(s) && s != rd => JUMPS,
                    Some(_) if link(rd) => CALLS,
                    Some(s) if link(s) => RETURNS,
                    Some(_) => JUMPS,
                };
                self.add(p, ev);
                self.add(p, BRANCH_INSTRUCTIONS);
            }
            Kind::Other => {}
        }
        for m in r.mem() {
            if m.vaddr % m.size as u64 != 0 {
                assert!(matches!(m.kind, MemKind::Load | MemKind::Store));
                self.add(p, MISALIGNED);
            }
        }
        self.shadow(r);
    }

    fn trap(&mut self, t: &TrapRecord) {
        match t.cause {
            Cause::Exception(_) => self.add(t.from, EXCEPTIONS),
            Cause::Interrupt(_) => self.add(t.from, INTERRUPTS),
        }
    }
}

fn name(sel: u64) -> String {
    pmu::event::EVENTS
        .iter()
        .find(|e| e.selector == sel)
        .map_or(format!("{sel:#x}"), |e| e.name.to_string())
}

/// The programs, an instruction limit for the long one, and the events each must see (so
/// that every event is compared on a stream where it happens).
#[rstest]
#[case::rv64i("rv64i", None, &[LOADS, STORES, BRANCHES_NOT_TAKEN])]
#[case::rv64m("rv64m", None, &[BRANCHES_TAKEN])]
#[case::rv64a("rv64a", None, &[ATOMICS, MISALIGNED, EXCEPTIONS])]
#[case::rv64f("rv64f", None, &[FP_OPS, EXCEPTIONS])]
#[case::rv64d("rv64d", None, &[FP_OPS])]
#[case::rvc("rvc", None, &[JUMPS, CALLS, RETURNS])]
#[case::traps("traps", None, &[EXCEPTIONS, MISALIGNED])]
#[case::interrupts("interrupts", None, &[INTERRUPTS])]
#[case::deleg("deleg", None, &[INTERRUPTS, EXCEPTIONS, MISALIGNED])]
#[case::smode("smode", None, &[EXCEPTIONS])]
#[case::umode("umode", None, &[EXCEPTIONS])]
#[case::sv39("sv39", None, &[EXCEPTIONS])]
#[case::sv48("sv48", None, &[EXCEPTIONS])]
#[case::pmp("pmp", None, &[EXCEPTIONS])]
#[case::fencei("fencei", None, &[CALLS, RETURNS])]
#[case::cprog("cprog", None, &[CALLS, RETURNS, FP_OPS])]
#[case::bench("bench", Some(2_000_000), &[CALLS, RETURNS, FP_OPS, LOADS])]
#[case::sbi_ext("sbi_ext", None, &[EXCEPTIONS, MISALIGNED, INTERRUPTS])]
fn counters_match_the_retired_stream(
    #[case] prog: &str,
    #[case] limit: Option<u64>,
    #[case] seen: &[u64],
) {
    let sbi = match common::program_options(prog).join(" ").as_str() {
        "" => false,
        "--sbi builtin" => true,
        o => panic!("{prog} asks for {o}"),
    };
    let mut counters = Vec::new();
    for (k, &sel) in ALL_MODES.iter().enumerate() {
        counters.push((3 + k as u16, sel, &[Priv::M, Priv::S, Priv::U][..]));
    }
    for (k, &sel) in S_AND_U.iter().enumerate() {
        counters.push((
            3 + (ALL_MODES.len() + k) as u16,
            sel | MINH,
            &[Priv::S, Priv::U][..],
        ));
    }
    assert_eq!(counters.len(), 29);
    let machine = |models: bool| {
        let mut c = Config {
            sscofpmf: true,
            sbi,
            ..Config::default()
        };
        c.pmu.hpm_counters = 29;
        if models {
            c.pmu = c.pmu.with_all_models();
        }
        let mut m = Machine::new(c);
        m.bus.console = iss::bus::Console::Capture(Vec::new());
        let p = iss::elf::load_file(&mut m, &common::program(prog)).expect("load");
        m.boot(p.entry);
        for &(i, ev, _) in &counters {
            assert!(m.set_reg(MHPMEVENT3 + i - 3, ev), "mhpmevent{i}");
            assert!(m.set_reg(MHPMCOUNTER3 + i - 3, 0), "mhpmcounter{i}");
        }
        assert!(m.set_reg(MCOUNTINHIBIT, 0));
        m
    };
    let mut m = machine(false);
    let mut r = Reference {
        sbi,
        ..Reference::default()
    };
    r.x.copy_from_slice(&m.hart.x[..32]);
    let run_limit = Some(limit.unwrap_or(50_000_000));
    let stop = m.run(&mut r, run_limit);
    match limit {
        Some(_) => assert_eq!(stop, Stop::InstructionLimit),
        None => assert_eq!(stop, Stop::Exit(0), "{prog} failed"),
    }
    // Untraced, the hart accounts for whole straight-line runs at once (packed class counts
    // per block; with the models on, through the general per-run path): the counters must be
    // the traced run's, counter for counter (cycles aside with the models, which add stalls).
    // A program started by the built-in SBI reads the device tree, whose PMU node lists the
    // models' events: it runs differently with them, so it is compared without.
    let with_models: &[bool] = if sbi { &[false] } else { &[false, true] };
    for &models in with_models {
        let mut fast = machine(models);
        assert_eq!(fast.run(&mut NoSink, run_limit), stop, "{prog} untraced");
        for &(i, ev, _) in &counters {
            if models && ev == CPU_CYCLES {
                continue;
            }
            assert_eq!(
                fast.hart.pmu.counter(i as usize),
                m.hart.pmu.counter(i as usize),
                "{prog} untraced (models {models}): mhpmcounter{i} {}",
                name(ev & !MINH)
            );
        }
    }
    let mut bad = Vec::new();
    for &(i, ev, modes) in &counters {
        let got = m.hart.pmu.counter(i as usize);
        let want = r.count(ev & !MINH, modes);
        if got != want {
            bad.push(format!(
                "mhpmcounter{i} {}{}: {got}, the stream says {want}",
                name(ev & !MINH),
                if ev & MINH != 0 { " (S+U)" } else { "" }
            ));
        }
    }
    assert!(bad.is_empty(), "{prog}:\n{}", bad.join("\n"));
    // the stream is not trivial, and the counters agree with minstret
    assert_eq!(
        r.count(INSTRUCTIONS, &[Priv::M, Priv::S, Priv::U]),
        m.retired()
    );
    assert!(r.records > 50, "{prog}: only {} records", r.records);
    for &e in seen {
        assert!(
            r.count(e, &[Priv::M, Priv::S, Priv::U]) > 0,
            "{prog}: no {}",
            name(e)
        );
    }
    // programs that leave M-mode compare the S+U counters on something
    if [
        "smode",
        "umode",
        "deleg",
        "sv39",
        "sv48",
        "interrupts",
        "sbi_ext",
    ]
    .contains(&prog)
    {
        assert!(
            r.count(INSTRUCTIONS, &[Priv::S, Priv::U]) > 100,
            "{prog}: S and U"
        );
    }
}
