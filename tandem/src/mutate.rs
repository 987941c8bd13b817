//! Broken-core streams for the mutation test: the stream of a run on a hart that goes wrong
//! in one of the ways a broken core does, at random points, with the group where each
//! fault shows.
//!
//! Most kinds are made by breaking the hart itself at the chosen instruction (its state and
//! the record the writer gets agree, and execution goes on from the broken state), so the
//! stream stays consistent after the fault as a real core's would: a verifier that reports
//! the fault and resynchronises must report nothing further. Two kinds are trace faults
//! (the state is right, the stream is not): a duplicated group and a wrong instruction
//! word.
//!
//! A fault is *state-changing* when it gives the hart a state the architecture does not
//! allow at that point. Some faults are not: a flipped bit a CSR cannot hold, a trap CSR
//! that already had the value the trap writes, an interrupt that was enabled (an external
//! interrupt may legitimately arrive at any time), a skipped or repeated `j .`. The test
//! requires every state-changing fault to be reported at its group.

use crate::config::WriterConfig;
use crate::group::Group;
use crate::parser::{GroupReader, ParserOptions};
use crate::refhart::{self, peek_insn, predict_store, write_ram, PreStore};
use crate::session::{machine, writer, HartConfig, SetupError};
use crate::writer::TandemWriter;
use arch::{Cause, Interrupt, Priv};
use iss::csr::*;
use iss::record::{MemAccess, MemKind, Reg, RegWrite, Retired, Shape, Sink, TrapRecord};
use iss::Detail;
use iss::{Machine, StepOutcome, Stop};
use serde::Serialize;

/// What goes wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A GPR or FPR gets a wrong value.
    RegValue,
    /// A CSR gets a wrong value (a CSR instruction's or a trap's).
    CsrValue,
    /// Execution goes on at a wrong pc.
    NextPc,
    /// An instruction is skipped (its group is missing).
    DroppedGroup,
    /// A group appears twice in the stream.
    DuplicatedGroup,
    /// The stream reports a wrong instruction word.
    InsnWord,
    /// A store writes wrong data.
    StoreData,
    /// A store writes to a wrong address.
    StoreAddr,
    /// The hart ends up in a wrong privilege level.
    Priv,
    /// A trap leaves one of xepc, xcause, xtval, xstatus unwritten.
    MissingTrapCsr,
    /// An interrupt is taken that is not pending.
    SpuriousInterrupt,
}

pub const KINDS: [Kind; 11] = [
    Kind::RegValue,
    Kind::CsrValue,
    Kind::NextPc,
    Kind::DroppedGroup,
    Kind::DuplicatedGroup,
    Kind::InsnWord,
    Kind::StoreData,
    Kind::StoreAddr,
    Kind::Priv,
    Kind::MissingTrapCsr,
    Kind::SpuriousInterrupt,
];

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::RegValue => "wrong register value",
            Kind::CsrValue => "wrong CSR value",
            Kind::NextPc => "wrong next pc",
            Kind::DroppedGroup => "dropped group",
            Kind::DuplicatedGroup => "duplicated group",
            Kind::InsnWord => "wrong instruction word",
            Kind::StoreData => "wrong store data",
            Kind::StoreAddr => "wrong store address",
            Kind::Priv => "wrong privilege",
            Kind::MissingTrapCsr => "missing trap CSR",
            Kind::SpuriousInterrupt => "spurious interrupt",
        }
    }
}

/// One fault put in a stream.
#[derive(Clone, Debug, Serialize)]
pub struct Mutation {
    pub kind: Kind,
    /// The group where the fault first shows.
    pub group: u64,
    pub state_changing: bool,
    pub what: String,
}

/// A stream with faults.
pub struct Mutated {
    pub bytes: Vec<u8>,
    pub mutations: Vec<Mutation>,
}

/// How many faults, how far apart.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    pub kind: Kind,
    pub seed: u64,
    /// Instructions between faults: at least `spacing.0`, less than `spacing.1`.
    pub spacing: (u64, u64),
    pub max_mutations: usize,
    /// Stop the run after this many instructions.
    pub limit: u64,
}

impl Plan {
    /// Round `round` (1, 2, ...) of faults of `kind` in the mutation test and in
    /// `hartscope tandem mutate`: up to 40 faults, 150 to 700 instructions apart, in a run
    /// stopped after 60,000 instructions.
    pub fn standard(kind: Kind, round: u64) -> Plan {
        Plan {
            kind,
            seed: round * 7919 + kind as u64,
            spacing: (150, 700),
            max_mutations: 40,
            limit: 60_000,
        }
    }
}

/// Instructions a stream goes on after its last fault.
pub const HORIZON: u64 = 3000;

/// SplitMix64: small, fast, reproducible.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `lo..hi` (`lo` when the range is empty).
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        if hi <= lo {
            lo
        } else {
            lo + self.next_u64() % (hi - lo)
        }
    }
}

/// The records of one step, whole.
#[derive(Default)]
struct Full {
    rec: Option<Retired>,
    trap: Option<TrapRecord>,
}

impl Sink for Full {
    const DETAIL: Detail = Detail::Records;
    fn retire(&mut self, r: &Retired) {
        self.rec = Some(r.clone());
    }
    fn trap(&mut self, t: &TrapRecord) {
        self.trap = Some(t.clone());
    }
}

type W = TandemWriter<Vec<u8>>;

/// Step once, the writer seeing the hart first (the strict style's mip and mstatus).
fn step(m: &mut Machine, w: &mut W) -> (StepOutcome, Full) {
    if w.wants_watch() {
        // The instruction the step will run (for its rs2): from the step's table, else
        // decoded from the bytes at pc taken as a physical address (the programs here run
        // untranslated where it matters).
        let pc = m.hart.pc;
        let raw = || {
            let word = |a: u64| m.bus.read_u64(a & !7).map(|v| v >> (8 * (a & 7)));
            let lo = word(pc)? & 0xffff;
            let hi = word(pc + 2)? & 0xffff;
            Some(iss::decode::decode((lo | hi << 16) as u32))
        };
        match m.peek_step_insn().or_else(raw) {
            Some(d) => w.watch(m, iss::record::At::Insn(&d)),
            None => w.watch(m, iss::record::At::Trap),
        }
    }
    let mut f = Full::default();
    let o = m.step(&mut f);
    (o, f)
}

fn feed(w: &mut W, f: &Full) {
    if let Some(r) = &f.rec {
        w.retire(r);
    }
    if let Some(t) = &f.trap {
        w.trap(t);
    }
}

/// Why faults could not be made: the run's setup, or reading back the clean stream.
#[derive(Debug, thiserror::Error)]
pub enum MutateError {
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The clean stream does not read back (a writer bug).
    #[error(transparent)]
    Parse(#[from] crate::parser::ParseError),
}

/// The group the writer wrote last.
fn last_group(w: &W) -> u64 {
    w.groups_written().saturating_sub(1)
}

/// Make a stream with faults of `plan.kind` in a run of the program.
pub fn generate(
    elf: &[u8],
    path: &str,
    hart: HartConfig,
    cfg: &WriterConfig,
    plan: &Plan,
) -> Result<Mutated, MutateError> {
    match plan.kind {
        Kind::DuplicatedGroup | Kind::InsnWord => trace_faults(elf, path, hart, cfg, plan),
        _ => core_faults(elf, path, hart, cfg, plan),
    }
}

fn core_faults(
    elf: &[u8],
    path: &str,
    hart: HartConfig,
    cfg: &WriterConfig,
    plan: &Plan,
) -> Result<Mutated, MutateError> {
    // Kinds that need a rare event (a trap, a CSR write) go straight to the next one.
    let events = match plan.kind {
        Kind::MissingTrapCsr | Kind::CsrValue => Some(event_points(elf, path, hart, plan)?),
        _ => None,
    };
    let (mut m, prog) = machine(elf, path, hart)?;
    let mut w = writer(&m, &prog, cfg, Vec::new())?;
    let mut rng = Rng::new(plan.seed);
    let mut muts = Vec::new();
    let pick = |rng: &mut Rng, from: u64| -> u64 {
        let at = from + rng.range(plan.spacing.0, plan.spacing.1);
        match &events {
            None => at,
            Some(ev) => {
                let i = ev.partition_point(|&e| e < at);
                ev.get(i).copied().unwrap_or(u64::MAX)
            }
        }
    };
    let mut next = pick(&mut rng, 0);
    while muts.len() < plan.max_mutations && next < plan.limit {
        if crate::writer::run(&mut m, &mut w, Some(next)) != Stop::InstructionLimit {
            break;
        }
        if let Some(mu) = inject(plan.kind, &mut m, &mut w, &mut rng, cfg) {
            muts.push(mu);
        }
        next = pick(&mut rng, m.retired());
    }
    if muts.len() >= plan.max_mutations || next >= plan.limit {
        // Long enough after the last fault to see that nothing more is reported.
        let limit = Some(m.retired() + HORIZON);
        crate::writer::run(&mut m, &mut w, limit);
    }
    let (bytes, _) = w.finish(Some(m.hart.prv)).map_err(SetupError::Write)?;
    Ok(Mutated {
        bytes,
        mutations: muts,
    })
}

/// Counts of retired instructions at which a clean run has an event the kind needs (a trap;
/// for CSR faults also an instruction writing a CSR).
fn event_points(
    elf: &[u8],
    path: &str,
    hart: HartConfig,
    plan: &Plan,
) -> Result<Vec<u64>, MutateError> {
    struct Points {
        retired: u64,
        csr: bool,
        at: Vec<u64>,
    }
    impl Sink for Points {
        const DETAIL: Detail = Detail::Records;
        fn retire(&mut self, r: &Retired) {
            if r.exception.is_some() {
                return;
            }
            if self.csr
                && r.writes()
                    .iter()
                    .any(|w| matches!(w.reg, Reg::Csr(c) if csr_mutable(c)))
            {
                self.at.push(self.retired);
            }
            self.retired += 1;
        }
        fn trap(&mut self, _: &TrapRecord) {
            self.at.push(self.retired);
        }
    }
    let (mut m, _) = machine(elf, path, hart)?;
    let mut p = Points {
        retired: 0,
        csr: plan.kind == Kind::CsrValue,
        at: Vec::new(),
    };
    m.run(&mut p, Some(plan.limit));
    p.at.dedup();
    Ok(p.at)
}

/// Break the hart at the next suitable instruction (within a few).
fn inject(
    kind: Kind,
    m: &mut Machine,
    w: &mut W,
    rng: &mut Rng,
    cfg: &WriterConfig,
) -> Option<Mutation> {
    for _ in 0..64 {
        let r = match kind {
            Kind::RegValue => reg_value(m, w, rng, cfg),
            Kind::CsrValue => csr_value(m, w, rng, cfg),
            Kind::NextPc => next_pc(m, w, rng),
            Kind::DroppedGroup => dropped(m, w, cfg),
            Kind::StoreData | Kind::StoreAddr => store(kind, m, w, rng, cfg),
            Kind::Priv => privilege(m, w, rng),
            Kind::MissingTrapCsr => missing_trap_csr(m, w, rng, cfg),
            Kind::SpuriousInterrupt => return Some(spurious(m, w, rng)),
            Kind::DuplicatedGroup | Kind::InsnWord => return None,
        };
        match r {
            Some(Some(mu)) => return Some(mu),
            // Not applicable here: the step went through unchanged; try the next one.
            Some(None) => continue,
            // Nothing was executed (no step possible).
            None => return None,
        }
    }
    None
}

/// Step once; `None` if the hart cannot step. The closure decides on a mutation from the
/// records (and may change the hart); if it does not, the records go to the writer as
/// they are.
fn step_with(
    m: &mut Machine,
    w: &mut W,
    f: impl FnOnce(&mut Machine, &mut Full) -> Option<(bool, String)>,
    kind: Kind,
) -> Option<Option<Mutation>> {
    let (_, mut full) = step(m, w);
    if full.rec.is_none() && full.trap.is_none() {
        return None;
    }
    let r = f(m, &mut full);
    feed(w, &full);
    Some(r.map(|(state_changing, what)| Mutation {
        kind,
        group: last_group(w),
        state_changing,
        what,
    }))
}

fn retired_ok(f: &Full) -> Option<&Retired> {
    f.rec
        .as_ref()
        .filter(|r| r.exception.is_none() && f.trap.is_none())
}

fn reg_value(
    m: &mut Machine,
    w: &mut W,
    rng: &mut Rng,
    cfg: &WriterConfig,
) -> Option<Option<Mutation>> {
    let bit = rng.range(0, 64);
    let strict = cfg.style == crate::config::Style::FluteStrict;
    let mut pre = PreStore::default();
    if strict {
        predict_store(m, &mut pre);
    }
    // An SC that stored and says it failed (below).
    let mut stored_sc: Option<MemAccess> = None;
    let r = step_with(
        m,
        w,
        |m, f| {
            let r = retired_ok(f)?;
            let i = r
                .writes()
                .iter()
                .rposition(|x| matches!(x.reg, Reg::X(1..) | Reg::F(_)))?;
            let reg = r.writes[i].reg;
            let old = r.writes[i].value;
            let new = old ^ (1 << bit);
            if strict
                && matches!(r.insn.op.facts().atomic, iss::ops::Atomic::Sc(_))
                && (old, new) == (0, 1)
            {
                stored_sc = r.mem().iter().copied().find(|a| a.kind == MemKind::Store);
            }
            let idx = refhart::record_idx(reg)?;
            refhart::write(m, idx, new);
            let rec = f.rec.as_mut()?;
            for x in rec.writes[..rec.n_writes as usize].iter_mut() {
                if x.reg == reg {
                    x.value = new;
                }
            }
            Some((true, format!("{reg:?} bit {bit}")))
        },
        Kind::RegValue,
    );
    match (r, stored_sc) {
        (Some(Some(mu)), Some(a)) => Some(Some(sc_said_failed(m, w, mu, a, &pre))),
        (r, _) => r,
    }
}

/// An SC that stored (`a`; `pre`, the bytes before it) with rd 1 instead of 0, in a strict
/// Flute stream. Its group is the one a correct core writes when its reservation is lost: rd
/// 1, the failure code the hart writes, and rs2's value as the data element whether or not
/// the SC stored (the strict style's AMO rule); an SC may fail at any time. So the fault
/// shows only where the core reads those bytes ([`shown_by_next_load`]; a correct core
/// reads the old ones).
fn sc_said_failed(
    m: &mut Machine,
    w: &mut W,
    mu: Mutation,
    a: MemAccess,
    pre: &PreStore,
) -> Mutation {
    let old: Vec<Option<u8>> = (0..a.size as u64).map(|i| pre.get(a.paddr + i)).collect();
    let mut mu = shown_by_next_load(m, w, mu, a, |i| old[i as usize]);
    mu.what.push_str(" (an SC that stored)");
    mu
}

/// A fault in what a store (`a`: address, size, the value the core stored) put in memory,
/// that its group does not show. It shows where the core first loads any of those bytes
/// into a register (a plain load, LR or AMO), if one of the bytes loaded is not what a
/// correct core would have there (`correct(i)`, for byte `i` of `a`; `None`: unknown, taken
/// as different). A store to them first (or the end of the run) leaves it unseen: not
/// state-changing. Runs the hart on to that instruction (or to a store to them, or for
/// `HORIZON` instructions).
fn shown_by_next_load(
    m: &mut Machine,
    w: &mut W,
    mut mu: Mutation,
    a: MemAccess,
    correct: impl Fn(u64) -> Option<u8>,
) -> Mutation {
    let differs: Vec<u64> = (0..a.size as u64)
        .filter(|&i| correct(i) != Some((a.value >> (8 * i)) as u8))
        .map(|i| a.paddr + i)
        .collect();
    mu.state_changing = false;
    for _ in 0..HORIZON {
        let (_, f) = step(m, w);
        if f.rec.is_none() && f.trap.is_none() {
            break;
        }
        feed(w, &f);
        let Some(r) = retired_ok(&f) else { continue };
        let touches =
            |x: &&MemAccess| x.paddr < a.paddr + a.size as u64 && a.paddr < x.paddr + x.size as u64;
        let Some(x) = r.mem().iter().find(touches) else {
            continue;
        };
        let loads_reg = r
            .writes()
            .iter()
            .any(|w| matches!(w.reg, Reg::X(1..) | Reg::F(_)));
        if x.kind == MemKind::Load && !loads_reg {
            continue;
        }
        if x.kind == MemKind::Load {
            mu.state_changing = differs
                .iter()
                .any(|&pa| pa.wrapping_sub(x.paddr) < x.size as u64);
            mu.group = last_group(w);
            mu.what.push_str(", shown by the next load");
        }
        break;
    }
    mu
}

/// CSRs whose value the stream shows exactly and the verifier compares.
fn csr_mutable(c: u16) -> bool {
    !matches!(
        c,
        MVIP | SIE | SIP | MIP | MCYCLE | MINSTRET | TIME | CYCLE | INSTRET | SSTATUS
    ) && !(MHPMCOUNTER3..=MHPMCOUNTER31).contains(&c)
}

fn csr_value(
    m: &mut Machine,
    w: &mut W,
    rng: &mut Rng,
    cfg: &WriterConfig,
) -> Option<Option<Mutation>> {
    let pick = rng.next_u64();
    let bits: Vec<u32> = (0..16).map(|_| rng.range(0, 64) as u32).collect();
    let flute = cfg.style.flute_layout();
    let strict = cfg.style == crate::config::Style::FluteStrict;
    step_with(
        m,
        w,
        |m, f| {
            // A CSR written by the instruction, or by its trap.
            let in_trap = f.trap.is_some();
            let writes: Vec<RegWrite> = match (&f.rec, &f.trap) {
                (_, Some(t)) => t.writes.to_vec(),
                (Some(r), None) if r.exception.is_none() => r.writes().to_vec(),
                _ => return None,
            };
            let cands: Vec<usize> = (0..writes.len())
                .filter(|&i| matches!(writes[i].reg, Reg::Csr(c) if csr_mutable(c)))
                .collect();
            if cands.is_empty() {
                return None;
            }
            let i = cands[(pick % cands.len() as u64) as usize];
            let Reg::Csr(c) = writes[i].reg else {
                return None;
            };
            let old = writes[i].value;
            // A trap into S-mode reports only the sstatus bits of mstatus (Flute's layout); so
            // does a strict stream's CSR instruction that names sstatus (it writes the CSR
            // named, not mstatus).
            let to_s = f.trap.as_ref().is_some_and(|t| t.to == Priv::S);
            let names_sstatus = strict
                && !in_trap
                && f.rec.as_ref().is_some_and(|r| {
                    matches!(
                        r.insn.op,
                        iss::insn::Op::Csrrw
                            | iss::insn::Op::Csrrs
                            | iss::insn::Op::Csrrc
                            | iss::insn::Op::Csrrwi
                            | iss::insn::Op::Csrrsi
                            | iss::insn::Op::Csrrci
                    ) && r.insn.csr() == SSTATUS
                });
            let visible = if c == MSTATUS && ((in_trap && to_s && flute) || names_sstatus) {
                SSTATUS_MASK & !MSTATUS_SD
            } else {
                !MSTATUS_SD
            };
            for &b in &bits {
                if visible >> b & 1 == 0 {
                    continue;
                }
                m.set_reg(c, old ^ (1 << b));
                let now = m.get_reg(c).unwrap_or(old);
                if now != old {
                    match (&mut f.rec, &mut f.trap) {
                        (_, Some(t)) => t.writes[i].value = now,
                        (Some(r), None) => {
                            for x in r.writes[..r.n_writes as usize].iter_mut() {
                                if x.reg == Reg::Csr(c) {
                                    x.value = now;
                                }
                            }
                        }
                        _ => {}
                    }
                    return Some((
                        true,
                        format!("{} {old:#x} -> {now:#x}", crate::names::reg_name(c)),
                    ));
                }
                m.set_reg(c, old);
            }
            None
        },
        Kind::CsrValue,
    )
}

fn next_pc(m: &mut Machine, w: &mut W, rng: &mut Rng) -> Option<Option<Mutation>> {
    let mut k = rng.range(1, 9) as i64 * 2;
    if rng.next_u64() & 1 == 0 {
        k = -k;
    }
    step_with(
        m,
        w,
        |m, f| {
            retired_ok(f)?;
            let r = f.rec.as_mut()?;
            let new = r.next_pc.wrapping_add(k as u64);
            r.next_pc = new;
            m.set_pc(new);
            Some((true, format!("next pc {k:+}")))
        },
        Kind::NextPc,
    )
}

fn self_jump(bits: u32, len: u8) -> bool {
    (len == 4 && bits == 0x0000_006f) || (len == 2 && bits & 0xffff == 0xa001)
}

fn dropped(m: &mut Machine, w: &mut W, cfg: &WriterConfig) -> Option<Option<Mutation>> {
    if m.pending_interrupt().is_some() {
        // The next event is an interrupt: let it happen, then try again.
        let (_, f) = step(m, w);
        feed(w, &f);
        return Some(None);
    }
    let pc = m.hart.pc;
    let Some(d) = peek_insn(m) else {
        let (_, f) = step(m, w);
        feed(w, &f);
        return Some(None);
    };
    m.set_pc(pc.wrapping_add(d.len as u64));
    // The fault shows in the next group, unless the stream cannot show it there (see
    // `same_as_skipped`): then at the first group that is not the one a correct core writes.
    let pc_hidden = (cfg.pc == crate::config::PcMode::Increment || cfg.omit.pc) && !cfg.pc_paddr;
    let mut shows = false;
    for k in 0..HORIZON {
        let (_, f) = step(m, w);
        if f.rec.is_none() && f.trap.is_none() {
            if k == 0 {
                return None;
            }
            // The run ended with the stream still the same as a correct core's.
            break;
        }
        feed(w, &f);
        if !(pc_hidden && same_as_skipped(m, &f, d.bits, d.len)) {
            shows = true;
            break;
        }
    }
    Some(Some(Mutation {
        kind: Kind::DroppedGroup,
        group: last_group(w),
        state_changing: shows && !self_jump(d.bits, d.len),
        what: format!("skipped {:08x} at {pc:#x}", d.bits),
    }))
}

/// Whether the group of a step after a skipped instruction is the group a correct core writes
/// in its place, in a stream that gives a sequential instruction's next pc as "increment"
/// (or not at all): a core that skipped an instruction runs one instruction ahead of a
/// correct one, from the same state but the pc. When the instruction it runs has the skipped
/// one's bits (`bits`, `len`), retires with no trap, goes on to the next instruction, and
/// has a result that does not depend on its pc (not `auipc`, not a jump; a branch only when
/// not taken, and then it goes on the same from either pc), a correct core running the
/// skipped instruction writes the same group: a stream the same as the correct one so far.
/// (With a trigger armed, the correct core's pc might match where this one's does not: not
/// assumed the same.) The fault shows at the first group where this is not so: the first
/// other instruction (in a run of the same instruction, such as a `nop` sled, the one after
/// the run), a trap, or a transfer.
fn same_as_skipped(m: &Machine, f: &Full, bits: u32, len: u8) -> bool {
    use iss::ops::Flow;
    let Some(r) = retired_ok(f) else {
        return false;
    };
    let flow = r.insn.op.facts().flow;
    let word = |b: u32| if len == 2 { b & 0xffff } else { b };
    r.insn.len == len
        && word(r.insn.bits) == word(bits)
        && r.next_pc == r.pc.wrapping_add(len as u64)
        && matches!(flow, Flow::Straight | Flow::Constant | Flow::Branch)
        && !m.hart.trig.armed
}

fn store(
    kind: Kind,
    m: &mut Machine,
    w: &mut W,
    rng: &mut Rng,
    cfg: &WriterConfig,
) -> Option<Option<Mutation>> {
    let mut pre = PreStore::default();
    predict_store(m, &mut pre);
    let bit = rng.range(0, 64);
    let mut delta = 8 * rng.range(1, 33) as i64;
    if rng.next_u64() & 1 == 0 {
        delta = -delta;
    }
    // A wrong value stored by an AMO or SC of a strict Flute stream: its group carries rs2's
    // value, not what was stored (the access as stored, and the value a correct core
    // stored).
    let strict = cfg.style == crate::config::Style::FluteStrict;
    let mut unseen: Option<(MemAccess, u64)> = None;
    let r = step_with(
        m,
        w,
        |m, f| {
            let r = retired_ok(f)?;
            let op = r.insn.op;
            let i = r.mem().iter().position(|a| a.kind == MemKind::Store)?;
            let a = r.mem()[i];
            if m.bus.is_device(a.paddr) || (a.paddr & 7) + a.size as u64 > 8 {
                return None;
            }
            let n = a.size as usize;
            match kind {
                Kind::StoreData => {
                    let b = bit % (8 * a.size as u64);
                    let new = a.value ^ (1 << b);
                    write_ram(m, a.paddr, &new.to_le_bytes()[..n]);
                    f.rec.as_mut()?.mem[i].value = new;
                    if strict && op.facts().atomic != iss::ops::Atomic::No {
                        unseen = Some((MemAccess { value: new, ..a }, a.value));
                    }
                    Some((true, format!("store data bit {b} at {:#x}", a.paddr)))
                }
                _ => {
                    // Plain stores only: an AMO's load and store share one address field.
                    let plain_store = matches!(
                        iss::record::SHAPES[op as usize],
                        Shape::Store(_) | Shape::FStore(_)
                    );
                    if r.n_mem != 1 || !plain_store {
                        return None;
                    }
                    // A place in the same page where the data is not already (when there is
                    // one: then the move changes memory).
                    let data_bytes = a.value.to_le_bytes();
                    let ok = |m: &Machine, d: i64| {
                        let pa = a.paddr.wrapping_add(d as u64);
                        pa & !0xfff == a.paddr & !0xfff
                            && m.bus.ram.offset(pa, a.size as u64).is_some()
                    };
                    let differs = |m: &Machine, d: i64| {
                        let mut b = vec![0u8; n];
                        m.bus.read_phys(a.paddr.wrapping_add(d as u64), &mut b);
                        b != data_bytes[..n]
                    };
                    let candidates = [delta, -delta, 2 * delta, -2 * delta, 8, -8, 16, -16];
                    let delta = candidates
                        .iter()
                        .copied()
                        .find(|&d| ok(m, d) && differs(m, d))
                        .or_else(|| candidates.iter().copied().find(|&d| ok(m, d)))?;
                    let new_pa = a.paddr.wrapping_add(delta as u64);
                    // Undo the store, then make it at the wrong address.
                    let mut old = Vec::with_capacity(n);
                    for k in 0..n as u64 {
                        old.push(pre.get(a.paddr + k)?);
                    }
                    let mut there = vec![0u8; n];
                    m.bus.read_phys(new_pa, &mut there);
                    let data = &a.value.to_le_bytes()[..n];
                    write_ram(m, a.paddr, &old);
                    write_ram(m, new_pa, data);
                    let changing = old != data || there != data;
                    let rec = f.rec.as_mut()?;
                    rec.mem[i].paddr = new_pa;
                    rec.mem[i].vaddr = a.vaddr.wrapping_add(delta as u64);
                    Some((changing, format!("store moved {delta:+} to {new_pa:#x}")))
                }
            }
        },
        kind,
    );
    match (r, unseen) {
        (Some(Some(mu)), Some((a, correct))) => Some(Some(shown_by_next_load(m, w, mu, a, |i| {
            Some((correct >> (8 * i)) as u8)
        }))),
        (r, _) => r,
    }
}

fn privilege(m: &mut Machine, w: &mut W, rng: &mut Rng) -> Option<Option<Mutation>> {
    let pick = rng.next_u64();
    step_with(
        m,
        w,
        |m, f| {
            retired_ok(f)?;
            let cur = m.hart.prv;
            let others: Vec<Priv> = [Priv::U, Priv::S, Priv::M]
                .into_iter()
                .filter(|&p| p != cur)
                .collect();
            let p = others[(pick % 2) as usize];
            m.set_priv_level(p);
            Some((true, format!("privilege {cur} -> {p}")))
        },
        Kind::Priv,
    )
}

const TRAP_CSRS: [u16; 7] = [MEPC, MCAUSE, MTVAL, MSTATUS, SEPC, SCAUSE, STVAL];

fn missing_trap_csr(
    m: &mut Machine,
    w: &mut W,
    rng: &mut Rng,
    cfg: &WriterConfig,
) -> Option<Option<Mutation>> {
    let before: Vec<u64> = TRAP_CSRS
        .iter()
        .map(|&c| m.get_reg(c).unwrap_or(0))
        .collect();
    let pick = rng.range(0, 4) as usize;
    let _ = cfg;
    step_with(
        m,
        w,
        |m, f| {
            let t = f.trap.as_mut()?;
            let Reg::Csr(c) = t.writes[pick].reg else {
                return None;
            };
            let k = TRAP_CSRS.iter().position(|&x| x == c)?;
            let old = before[k];
            let new = t.writes[pick].value;
            m.set_reg(c, old);
            let now = m.get_reg(c).unwrap_or(old);
            // The writer leaves out a write to mvip (not a register): use it as "no write".
            t.writes[pick] = RegWrite {
                reg: Reg::Csr(MVIP),
                value: 0,
            };
            Some((
                now != new,
                format!("{} not written", crate::names::reg_name(c)),
            ))
        },
        Kind::MissingTrapCsr,
    )
}

fn spurious(m: &mut Machine, w: &mut W, rng: &mut Rng) -> Mutation {
    let codes = [1u64, 3, 5, 7, 9, 11];
    let code = codes[rng.range(0, codes.len() as u64) as usize];
    let irq = Interrupt::from_code(code).unwrap_or(Interrupt::MachineTimer);
    let c = m.hart.csr.clone();
    let prv = m.hart.prv;
    let bit = 1u64 << code;
    let deleg = c.mideleg & bit != 0 && prv != Priv::M;
    let m_enabled = prv != Priv::M || c.mstatus & MSTATUS_MIE != 0;
    let s_enabled = prv == Priv::U || (prv == Priv::S && c.mstatus & MSTATUS_SIE != 0);
    let enabled = c.mie & bit != 0 && if deleg { s_enabled } else { m_enabled };
    let device = bit & (MIP_MSIP | MIP_MTIP | MIP_MEIP) != 0;
    let allowed = enabled && (device || c.mip & bit != 0);
    let pc = m.hart.pc;
    let xcause = (1u64 << 63) | code;
    let status = m.get_reg(MSTATUS).unwrap_or(0);
    let (to, tvec, regs, new_status) = if deleg {
        let mut s = status & !(MSTATUS_SPIE | MSTATUS_SPP | MSTATUS_SIE);
        if status & MSTATUS_SIE != 0 {
            s |= MSTATUS_SPIE;
        }
        if prv == Priv::S {
            s |= MSTATUS_SPP;
        }
        (Priv::S, c.stvec, [SEPC, SCAUSE, STVAL], s)
    } else {
        let mut s = status & !(MSTATUS_MPIE | MSTATUS_MPP | MSTATUS_MIE);
        if status & MSTATUS_MIE != 0 {
            s |= MSTATUS_MPIE;
        }
        s |= prv.bits() << MSTATUS_MPP_SHIFT;
        (Priv::M, c.mtvec, [MEPC, MCAUSE, MTVAL], s)
    };
    let handler = if tvec & 3 == 1 {
        (tvec & !3).wrapping_add(4 * code)
    } else {
        tvec & !3
    };
    m.set_reg(regs[0], pc);
    m.set_reg(regs[1], xcause);
    m.set_reg(regs[2], 0);
    m.set_reg(MSTATUS, new_status);
    m.set_priv_level(to);
    m.set_pc(handler);
    let rd = |m: &Machine, r: u16| m.get_reg(r).unwrap_or(0);
    let t = TrapRecord {
        cause: Cause::Interrupt(irq),
        tval: 0,
        epc: pc,
        from: prv,
        to,
        handler,
        writes: [
            RegWrite {
                reg: Reg::Csr(regs[0]),
                value: rd(m, regs[0]),
            },
            RegWrite {
                reg: Reg::Csr(regs[1]),
                value: rd(m, regs[1]),
            },
            RegWrite {
                reg: Reg::Csr(regs[2]),
                value: rd(m, regs[2]),
            },
            RegWrite {
                reg: Reg::Csr(MSTATUS),
                value: rd(m, MSTATUS),
            },
        ],
        insn: None,
        time: m.bus.clint.mtime,
        trigger: false,
    };
    w.trap(&t);
    Mutation {
        kind: Kind::SpuriousInterrupt,
        group: last_group(w),
        state_changing: !allowed,
        what: format!(
            "{} at {pc:#x} in {prv} ({})",
            irq.name(),
            if allowed { "enabled" } else { "not enabled" }
        ),
    }
}

/// Faults in the stream itself: groups duplicated, instruction words changed.
fn trace_faults(
    elf: &[u8],
    path: &str,
    hart: HartConfig,
    cfg: &WriterConfig,
    plan: &Plan,
) -> Result<Mutated, MutateError> {
    let (clean, _, _) = crate::session::record(elf, path, hart, cfg, Some(plan.limit), Vec::new())?;
    let mut reader = GroupReader::new(&clean[..], ParserOptions::with_params(cfg.params));
    reader.keep_items = true;
    let mut rng = Rng::new(plan.seed);
    let mut out = Vec::with_capacity(clean.len() + clean.len() / 16);
    let mut muts = Vec::new();
    let mut g = Group::default();
    let mut insns = 0u64;
    let mut next = rng.range(plan.spacing.0, plan.spacing.1);
    let mut shift = 0u64;
    let mut copied = 0usize;
    while muts.len() < plan.max_mutations && reader.next_group(&mut g)? {
        let counts = g.insn.is_some() || (!g.reset && !g.state_init && g.pc.is_some());
        if counts {
            insns += 1;
        }
        if !counts || insns < next {
            continue;
        }
        let (start, end) = (g.offset as usize, g.end as usize);
        out.extend_from_slice(&clean[copied..end]);
        copied = end;
        match plan.kind {
            Kind::DuplicatedGroup => {
                // With an implied end group the copy needs its own end.
                let mut dup = clean[start..end].to_vec();
                if dup.last() != Some(&crate::opcode::END_GROUP) {
                    dup.push(crate::opcode::END_GROUP);
                    if out.last() != Some(&crate::opcode::END_GROUP) {
                        out.push(crate::opcode::END_GROUP);
                    }
                }
                out.extend_from_slice(&dup);
                shift += 1;
                let changing = g.insn.is_none_or(|i| !self_jump(i.bits, i.len));
                muts.push(Mutation {
                    kind: Kind::DuplicatedGroup,
                    group: g.index + shift,
                    state_changing: changing,
                    what: format!("group {} twice", g.index),
                });
            }
            _ => {
                let Some(i) = g.insn else { continue };
                let Some(&(off, _)) = g.items.iter().find(|(_, it)| {
                    matches!(
                        it,
                        crate::item::Item::Insn16(_) | crate::item::Item::Insn32(_)
                    )
                }) else {
                    continue;
                };
                let bit = rng.range(0, 8 * i.len as u64);
                let at = out.len() - (end - off as usize) + 1 + (bit / 8) as usize;
                out[at] ^= 1 << (bit % 8);
                muts.push(Mutation {
                    kind: Kind::InsnWord,
                    group: g.index + shift,
                    state_changing: true,
                    what: format!("instruction bit {bit} flipped"),
                });
            }
        }
        next = insns + rng.range(plan.spacing.0, plan.spacing.1);
    }
    // The rest, up to the horizon after the last fault.
    let mut tail = 0;
    while tail < HORIZON && reader.next_group(&mut g)? {
        tail += 1;
    }
    let stop = if tail < HORIZON {
        clean.len()
    } else {
        g.end as usize
    };
    out.extend_from_slice(&clean[copied..stop.max(copied)]);
    if stop < clean.len() && !matches!(g.items.last(), Some((_, crate::item::Item::EndGroup))) {
        // Cut after a group whose end was implied by the next begin group.
        out.push(crate::opcode::END_GROUP);
    }
    Ok(Mutated {
        bytes: out,
        mutations: muts,
    })
}

/// How the verifier did on one kind.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Tally {
    pub mutations: u64,
    pub state_changing: u64,
    /// State-changing faults reported at their group.
    pub detected: u64,
    /// Faults that change nothing the architecture forbids, and were (rightly) not reported.
    pub allowed_silent: u64,
    /// Groups reported that hold no fault (must be none).
    pub false_reports: u64,
    /// State-changing faults not reported at their group.
    pub missed: Vec<String>,
    pub stray: Vec<String>,
}

impl Tally {
    pub fn rate(&self) -> f64 {
        if self.state_changing == 0 {
            1.0
        } else {
            self.detected as f64 / self.state_changing as f64
        }
    }
}

/// Faults of `kind` in runs of `programs` (name, ELF bytes), made with [`Plan::standard`]
/// round after round, each verified and counted, until `per_kind` were made (or rounds past
/// the first few make none).
pub fn run_kind(
    kind: Kind,
    programs: &[(String, Vec<u8>)],
    cfg: &WriterConfig,
    vcfg: &crate::verify::VerifyConfig,
    per_kind: u64,
) -> Result<Tally, MutateError> {
    let mut t = Tally::default();
    let mut round = 1u64;
    while t.mutations < per_kind && round < 1000 {
        let before = t.mutations;
        for (name, elf) in programs {
            let m = generate(
                elf,
                name,
                HartConfig::default(),
                cfg,
                &Plan::standard(kind, round),
            )?;
            evaluate(elf, name, &m, vcfg, &mut t);
            if t.mutations >= per_kind {
                break;
            }
        }
        if t.mutations == before && round > 3 {
            break;
        }
        round += 1;
    }
    Ok(t)
}

/// Verify a stream with faults and count what the verifier found.
pub fn evaluate(
    elf: &[u8],
    path: &str,
    mutated: &Mutated,
    vcfg: &crate::verify::VerifyConfig,
    tally: &mut Tally,
) {
    let mut vcfg = vcfg.clone();
    vcfg.max_mismatches = 0;
    vcfg.max_reported = usize::MAX;
    let report = crate::verify::verify(vcfg, Some((elf, path)), &mutated.bytes[..]);
    let reported: std::collections::BTreeSet<u64> =
        report.mismatches.iter().map(|m| m.group).collect();
    let planted: std::collections::BTreeSet<u64> =
        mutated.mutations.iter().map(|m| m.group).collect();
    for mu in &mutated.mutations {
        tally.mutations += 1;
        if mu.state_changing {
            tally.state_changing += 1;
            if reported.contains(&mu.group) {
                tally.detected += 1;
            } else if tally.missed.len() < 20 {
                tally
                    .missed
                    .push(format!("{path}: group {}: {}", mu.group, mu.what));
            }
        } else if !reported.contains(&mu.group) {
            tally.allowed_silent += 1;
        }
    }
    for m in &report.mismatches {
        if !planted.contains(&m.group) {
            tally.false_reports += 1;
            if tally.stray.len() < 20 {
                let d: Vec<String> = m
                    .diffs
                    .iter()
                    .map(|d| format!("{} exp {} got {}", d.element, d.expected, d.actual))
                    .collect();
                tally.stray.push(format!(
                    "{path}: group {} ({}) pc {:#x} {:?}: {}",
                    m.group,
                    m.kind,
                    m.pc,
                    m.disasm,
                    d.join("; ")
                ));
            }
        }
    }
    if let Some(e) = &report.error {
        tally.false_reports += 1;
        tally.stray.push(format!("{path}: error {e}"));
    }
}

#[cfg(test)]
mod tests {
    //! Faults the mutation test once judged wrongly, or the verifier once reported wrongly:
    //! each made as the test makes them, at a chosen place.

    use super::*;
    use crate::config::PcMode;
    use crate::verify::{verify, VerifyConfig};
    use iss::ops::Atomic;

    fn program(name: &str) -> Vec<u8> {
        let path = format!("{}/../programs/bin/{name}.elf", env!("CARGO_MANIFEST_DIR"));
        std::fs::read(path).expect("program")
    }

    /// A run of `elf` with its writer, stepped until `stop` holds before a step.
    fn run_to(elf: &[u8], cfg: &WriterConfig, stop: impl Fn(&mut Machine) -> bool) -> (Machine, W) {
        let (mut m, prog) = machine(elf, "test", HartConfig::default()).expect("machine");
        let mut w = writer(&m, &prog, cfg, Vec::new()).expect("writer");
        for _ in 0..100_000 {
            if stop(&mut m) {
                return (m, w);
            }
            let (_, f) = step(&mut m, &mut w);
            feed(&mut w, &f);
        }
        panic!("never got there");
    }

    /// The groups the verifier reports in the stream, after running on for `more`.
    fn reported(elf: &[u8], cfg: &WriterConfig, mut m: Machine, mut w: W, more: u64) -> Vec<u64> {
        let limit = m.retired() + more;
        crate::writer::run(&mut m, &mut w, Some(limit));
        let (bytes, _) = w.finish(Some(m.hart.prv)).expect("stream");
        let vcfg = VerifyConfig {
            params: cfg.params,
            max_mismatches: 0,
            flute_strict: cfg.style == crate::config::Style::FluteStrict,
            ..Default::default()
        };
        let r = verify(vcfg, Some((elf, "test")), &bytes[..]);
        assert!(r.error.is_none(), "{:?}", r.error);
        r.mismatches.iter().map(|x| x.group).collect()
    }

    /// The first of three `nop`s (csr's, before it reads minstret) skipped: with full next
    /// pcs the next group shows it (its pc); with increment pc the next two groups are a
    /// correct core's (`nop`, `nop`), and it shows, and is reported, only at the third.
    #[test]
    fn a_nop_skipped_in_a_run_of_nops_shows_where_the_run_ends() {
        let elf = program("csr");
        let mut at = Vec::new();
        for pc in [PcMode::Full, PcMode::Increment] {
            let cfg = WriterConfig {
                pc,
                ..WriterConfig::flute()
            };
            let (mut m, mut w) = run_to(&elf, &cfg, |m| {
                let pc = m.hart.pc;
                (0..3).all(|k| refhart::insn_at(m, pc + 4 * k) == Some((0x13, 4)))
            });
            let next = w.groups_written();
            let mu = dropped(&mut m, &mut w, &cfg)
                .flatten()
                .expect("a nop skipped");
            assert!(mu.state_changing, "{mu:?}");
            assert_eq!(reported(&elf, &cfg, m, w, 200), [mu.group], "{pc:?}");
            at.push((next, mu.group));
        }
        assert_eq!(at[0].0, at[0].1);
        assert_eq!(at[1].1, at[1].0 + 2, "{at:?}");
    }

    /// Two of csr's three `nop`s skipped, in an increment-pc stream: the stream is a correct
    /// core's until the run of `nop`s ends; there the verifier finds the core's instruction
    /// past the run and resynchronises: one report.
    #[test]
    fn two_nops_skipped_in_a_run_are_one_report() {
        let elf = program("csr");
        let cfg = WriterConfig {
            pc: PcMode::Increment,
            ..WriterConfig::flute()
        };
        let (mut m, w) = run_to(&elf, &cfg, |m| {
            let pc = m.hart.pc;
            (0..3).all(|k| refhart::insn_at(m, pc + 4 * k) == Some((0x13, 4)))
        });
        let next = w.groups_written();
        let pc = m.hart.pc;
        m.set_pc(pc + 8);
        // The third nop (a correct core's first), then the instruction after the run.
        assert_eq!(reported(&elf, &cfg, m, w, 200), [next + 1]);
    }

    /// An `mret` skipped in an increment-pc stream (isa_svinval's first to U-mode with
    /// translation on): the verifier finds the core's next instruction after it as the core
    /// fetched it, in M-mode (the reference hart, which ran the `mret`, is in U-mode by then,
    /// where the handler's page cannot be fetched), and resynchronises there: one report.
    #[test]
    fn a_skipped_mret_is_one_report_with_increment_pc() {
        let elf = program("isa_svinval");
        let cfg = WriterConfig {
            pc: PcMode::Increment,
            ..WriterConfig::flute()
        };
        let (mut m, mut w) = run_to(&elf, &cfg, |m| {
            let to_u = m.hart.csr.mstatus & MSTATUS_MPP == 0;
            m.hart.csr.satp >> 60 != 0
                && to_u
                && peek_insn(m).is_some_and(|d| d.op == iss::insn::Op::Mret)
        });
        let mu = dropped(&mut m, &mut w, &cfg)
            .flatten()
            .expect("mret skipped");
        assert_eq!(reported(&elf, &cfg, m, w, 300), [mu.group]);
    }

    /// A wrong value stored by an SC of a strict Flute stream (its data element is rs2's
    /// value, not what was stored) shows where the core loads it: smp's LR/SC increment of
    /// its counter, at the next `lr.d` of it, reported there; its spin lock's `sc.w`, which
    /// `sw zero` releases before anything loads it, changes nothing and nothing is reported.
    #[test]
    fn a_wrong_value_an_sc_stored_shows_at_the_next_load_of_it() {
        let elf = program("smp");
        let cfg = WriterConfig::flute_strict();
        for (sc, seen) in [(Atomic::Sc(4), false), (Atomic::Sc(8), true)] {
            let (mut m, mut w) = run_to(&elf, &cfg, |m| {
                peek_insn(m).is_some_and(|d| d.op.facts().atomic == sc)
            });
            let sc_group = w.groups_written();
            let mu = store(Kind::StoreData, &mut m, &mut w, &mut Rng::new(7), &cfg)
                .flatten()
                .expect("a fault in the data stored");
            assert_eq!(mu.state_changing, seen, "{mu:?}");
            let want = if seen {
                assert!(mu.group > sc_group, "{mu:?}");
                vec![mu.group]
            } else {
                vec![]
            };
            assert_eq!(reported(&elf, &cfg, m, w, 2000), want, "{sc:?}");
        }
    }

    /// In a strict Flute stream an SC's group does not say whether it stored. smp's spin lock
    /// taken by an SC that stored but wrote rd 1 (a lost reservation's code) or 2 (no code):
    /// the core then spins on its own lock for ever, each `lr.w` reading 1. With rd 1 the
    /// SC's group is a correct core's (the oracle puts the fault at the `lr.w` after it) and
    /// the verifier reports the `lr.w` once; with rd 2 it reports the SC, and then nothing:
    /// it takes the store from the first `lr.w` that shows it.
    #[test]
    fn an_sc_that_stored_but_says_it_failed_is_one_report() {
        let elf = program("smp");
        let cfg = WriterConfig::flute_strict();
        for rd_value in [1u64, 2] {
            let (mut m, mut w) = run_to(&elf, &cfg, |m| {
                peek_insn(m).is_some_and(|d| matches!(d.op.facts().atomic, Atomic::Sc(_)))
            });
            let mut pre = PreStore::default();
            predict_store(&mut m, &mut pre);
            let sc_group = w.groups_written();
            let (_, mut f) = step(&mut m, &mut w);
            let r = f.rec.as_mut().expect("the SC retires");
            let store = *r
                .mem()
                .iter()
                .find(|a| a.kind == MemKind::Store)
                .expect("it stores");
            let n = r.n_writes as usize;
            let rd = r.writes[..n]
                .iter_mut()
                .find(|x| matches!(x.reg, Reg::X(1..)))
                .expect("rd");
            assert_eq!(rd.value, 0);
            rd.value = rd_value;
            let Reg::X(x) = rd.reg else { unreachable!() };
            m.set_x(x, rd_value);
            feed(&mut w, &f);
            let mu = Mutation {
                kind: Kind::RegValue,
                group: sc_group,
                state_changing: true,
                what: String::new(),
            };
            let want = if rd_value == 1 {
                let mu = sc_said_failed(&mut m, &mut w, mu, store, &pre);
                assert!(mu.state_changing);
                assert_eq!(mu.group, sc_group + 2, "bnez, then lr.w");
                mu.group
            } else {
                sc_group
            };
            assert_eq!(reported(&elf, &cfg, m, w, 2000), [want], "rd {rd_value}");
        }
    }
}
