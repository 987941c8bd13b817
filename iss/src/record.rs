//! Retirement records: what the hart tells the outside world about each instruction and trap.
//!
//! The hart hands records to a [`Sink`] chosen at compile time. With [`NoSink`] the executor
//! never builds a record (every recording site is behind `if S::DETAIL.records()`), so an untraced run
//! pays nothing; a traced run pays for the fields it fills.

use crate::insn::{Insn, Op};
use arch::{Cause, Priv};

/// A register the instruction (or trap) wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reg {
    X(u8),
    F(u8),
    Csr(u16),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegWrite {
    pub reg: Reg,
    pub value: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemKind {
    Load,
    Store,
}

/// A data memory access, as the instruction saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemAccess {
    pub kind: MemKind,
    /// Effective (virtual) address.
    pub vaddr: u64,
    /// Physical address.
    pub paddr: u64,
    /// Bytes: 1, 2, 4 or 8.
    pub size: u8,
    /// Value loaded or stored (zero-extended to 64 bits).
    pub value: u64,
}

pub const MAX_WRITES: usize = 8;
pub const MAX_MEM: usize = 2;

/// One executed instruction: it either retired, or raised `exception` (then it did not retire,
/// except for the trace meaning of ecall/ebreak, which is the ingress port's business).
#[derive(Clone, Debug)]
pub struct Retired {
    pub pc: u64,
    pub insn: Insn,
    /// Privilege the instruction executed in.
    pub prv: Priv,
    /// The pc after the instruction (the trap vector if it raised an exception).
    pub next_pc: u64,
    /// Exception raised by this instruction: cause and tval.
    pub exception: Option<(Cause, u64)>,
    /// Registers and CSRs written, in the order the instruction wrote them.
    pub writes: [RegWrite; MAX_WRITES],
    pub n_writes: u8,
    pub mem: [MemAccess; MAX_MEM],
    pub n_mem: u8,
    /// For a store-conditional: whether it failed (wrote nothing).
    pub sc_failed: bool,
    /// For a failed store-conditional: its address.
    pub sc_addr: u64,
    /// mtime when it executed.
    pub time: u64,
    /// The physical address it was fetched from (None when the fetch itself faulted).
    pub fetch_pa: Option<u64>,
}

impl Default for Retired {
    fn default() -> Self {
        Retired {
            pc: 0,
            insn: Insn::NOT_DECODED,
            prv: Priv::M,
            next_pc: 0,
            exception: None,
            writes: [RegWrite {
                reg: Reg::X(0),
                value: 0,
            }; MAX_WRITES],
            n_writes: 0,
            mem: [MemAccess {
                kind: MemKind::Load,
                vaddr: 0,
                paddr: 0,
                size: 0,
                value: 0,
            }; MAX_MEM],
            n_mem: 0,
            sc_failed: false,
            sc_addr: 0,
            time: 0,
            fetch_pa: None,
        }
    }
}

impl Retired {
    #[inline]
    pub fn writes(&self) -> &[RegWrite] {
        &self.writes[..self.n_writes as usize]
    }

    #[inline]
    pub fn mem(&self) -> &[MemAccess] {
        &self.mem[..self.n_mem as usize]
    }

    /// Whether the instruction retired (did not raise an exception).
    #[inline]
    pub fn retired(&self) -> bool {
        self.exception.is_none()
    }

    /// Start the record of `insn` at `pc`: nothing written, no access, no exception.
    #[inline]
    pub(crate) fn reset(&mut self, pc: u64, insn: &Insn, prv: Priv, time: u64) {
        self.time = time;
        self.pc = pc;
        // One 16-byte load and store: a field-by-field copy (what the compiler does with
        // the fields it already holds) makes every sink that reads the instruction back in
        // another width wait for the stores to drain instead of forwarding them.
        // SAFETY: `Insn` is `repr(C)`, 16 bytes with no padding (asserted in `insn`); both
        // pointers are valid for 16 bytes.
        unsafe {
            let raw = (insn as *const Insn as *const u128).read_unaligned();
            (&mut self.insn as *mut Insn as *mut u128).write_unaligned(raw);
        }
        self.prv = prv;
        self.exception = None;
        self.n_writes = 0;
        self.n_mem = 0;
        self.sc_failed = false;
        self.fetch_pa = None;
    }

    #[inline]
    pub(crate) fn push_write(&mut self, reg: Reg, value: u64) {
        let n = self.n_writes as usize;
        if n < MAX_WRITES {
            self.writes[n] = RegWrite { reg, value };
            self.n_writes += 1;
        }
    }

    #[inline]
    pub(crate) fn push_mem(&mut self, m: MemAccess) {
        let n = self.n_mem as usize;
        if n < MAX_MEM {
            self.mem[n] = m;
            self.n_mem += 1;
        }
    }
}

/// A run of instructions that retired one after the other in straight-line order (each at the
/// previous one's pc plus its length), reported to sinks that want control flow but not
/// register values ([`Detail::Runs`]). Only the last one can have transferred control.
#[derive(Clone, Copy, Debug)]
pub struct Run<'a> {
    pub insns: &'a [Insn],
    /// The pc of `insns[0]`.
    pub pc: u64,
    /// The pc after the last instruction: its target if it transferred control.
    pub next_pc: u64,
    /// The privilege the instructions ran in.
    pub prv: Priv,
    /// mtime while they ran.
    pub time: u64,
    /// satp while they ran.
    pub satp: u64,
    /// The entry after `insns` in the decoded-instruction cache: when it is the block's end
    /// marker, the run is that whole block, whose length and summary for the ingress port the
    /// marker carries (see [`Run::whole_block`]).
    pub(crate) end: &'a Insn,
}

impl<'a> Run<'a> {
    /// The block's end marker, when the run went through its whole block (a run starts at
    /// its block's first instruction).
    #[inline(always)]
    pub(crate) fn whole_block(&self) -> Option<&'a Insn> {
        self.end.is_block_end().then_some(self.end)
    }

    /// The instructions' length in bytes.
    #[inline(always)]
    pub fn bytes(&self) -> u32 {
        run_bytes(self.insns, self.whole_block())
    }
}

/// Runs that a chain of blocks retired one after the other, in one privilege, with one satp
/// and mtime: each a whole block, left by a transfer (or its end) to the next block's first
/// instruction. What a chain that leaves a trail of the blocks it enters hands a
/// [`Detail::Runs`] sink at once ([`Sink::blocks`]), so that a sink can take them in one
/// loop; the part of the block the chain ended in follows as a [`Run`] of its own.
#[derive(Clone, Copy)]
pub struct Blocks<'a> {
    arena: &'a [Insn],
    /// The arena index and pc of the first run.
    first: (usize, u64),
    steps: &'a [crate::run::TrailStep],
    /// The privilege the instructions ran in.
    pub prv: Priv,
    /// mtime while they ran.
    pub time: u64,
    /// satp while they ran.
    pub satp: u64,
}

impl<'a> Blocks<'a> {
    /// The runs of a chain that started at `arena[first.0]`, at pc `first.1`, and left a
    /// block at each of `steps`.
    #[inline(always)]
    pub(crate) fn new(
        arena: &'a [Insn],
        first: (usize, u64),
        steps: &'a [crate::run::TrailStep],
        (prv, time, satp): (Priv, u64, u64),
    ) -> Blocks<'a> {
        Blocks {
            arena,
            first,
            steps,
            prv,
            time,
            satp,
        }
    }

    /// How many runs.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// No runs.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Each run in order, as a [`Run`].
    #[inline(always)]
    pub fn for_each_run(&self, mut f: impl FnMut(&Run)) {
        let (mut k, mut pc) = self.first;
        for step in self.steps {
            let end = step.end();
            f(&Run {
                insns: &self.arena[k..end],
                pc,
                next_pc: step.pc,
                prv: self.prv,
                time: self.time,
                satp: self.satp,
                end: &self.arena[end],
            });
            (k, pc) = (step.next(), step.pc);
        }
    }

    /// Each run's pc, the pc after it, and the entry after its instructions (`Run::end`:
    /// each is its block's end marker, as every run is a whole block), in
    /// order: what a sink that wants only each block's summary reads, without the runs'
    /// instructions.
    #[inline(always)]
    pub(crate) fn for_each_block(&self, mut f: impl FnMut(u64, u64, &Insn)) {
        let mut pc = self.first.1;
        for step in self.steps {
            // SAFETY: the trail is of a chain in this arena.
            let end = unsafe { step.end_in(self.arena) };
            debug_assert!(end.is_block_end());
            f(pc, step.pc, end);
            pc = step.pc;
        }
    }
}

/// The length in bytes of `insns`; `whole`: the end marker of their block when they are all of
/// it. (The usual run, a whole block, has its block's length, which the end marker carries:
/// summing would mispredict the loop's exit.)
#[inline(always)]
pub(crate) fn run_bytes(insns: &[Insn], whole: Option<&Insn>) -> u32 {
    match whole {
        Some(end) => end.imm as u32,
        None => insns.iter().map(|d| d.len as u32).sum(),
    }
}

/// What a record holds beside an instruction's pc, bits and next pc, for the operations whose
/// records have a fixed shape ([`shape`]). The hart runs those chained, as untraced, and keeps
/// only an [`Effect`] for each; [`SimpleRun`] makes the records again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// The record depends on more than the operation (CSRs, atomics, xRETs, ecall: anything
    /// that can write several registers or change privilege): the hart builds it as it
    /// executes.
    Built,
    /// Writes rd (when rd is not x0).
    Rd,
    /// Writes nothing (branches, fences).
    Nothing,
    /// Loads this many bytes and writes rd (when rd is not x0).
    Load(u8),
    /// Stores this many bytes.
    Store(u8),
    /// Loads this many bytes into f\[rd\] (FS is Dirty: nothing else is written).
    FLoad(u8),
    /// Stores this many bytes of an FP register.
    FStore(u8),
    /// An FP operation that writes f\[rd\], and fflags when it raises a flag (FS is Dirty).
    FpToF,
    /// An FP operation that writes x\[rd\] (when rd is not x0), and fflags when it raises a
    /// flag (FS is Dirty).
    FpToX,
}

/// The shape of an operation's record (the instruction table's, [`crate::ops`]).
#[inline(always)]
pub const fn shape(op: Op) -> Shape {
    op.facts().shape
}

/// [`shape`] of every operation, by discriminant (`Built` past the last).
pub const SHAPES: [Shape; 256] = {
    let mut t = [Shape::Built; 256];
    let mut i = 0;
    while i < Op::COUNT {
        t[i] = crate::ops::FACTS[i].shape;
        i += 1;
    }
    t
};

impl Shape {
    /// In [`Shape::bits`]: writes rd (when rd is not x0).
    pub const WRITES_RD: u8 = 1;
    /// In [`Shape::bits`]: accesses memory (a load or a store).
    pub const ACCESS: u8 = 2;
    /// In [`Shape::bits`]: stores.
    pub const STORE: u8 = 4;
    /// In [`Shape::bits`]: the register written is f\[rd\] (f0 included), not x\[rd\].
    pub const FREG: u8 = 8;
    /// In [`Shape::bits`]: may write fflags (when the effect's `mem_value` is not
    /// `u64::MAX`).
    pub const FFLAGS: u8 = 16;
    /// In [`Shape::bits`]: the access size's log2 is `bits >> SIZE_SHIFT`.
    pub const SIZE_SHIFT: u32 = 5;

    /// The shape in one byte, for loops that test it per instruction: [`Shape::WRITES_RD`],
    /// [`Shape::ACCESS`], [`Shape::STORE`], [`Shape::FREG`], [`Shape::FFLAGS`], and the
    /// access size's log2 above [`Shape::SIZE_SHIFT`] (`Built` is 0).
    pub const fn bits(self) -> u8 {
        const fn size(n: u8) -> u8 {
            (n.trailing_zeros() as u8) << Shape::SIZE_SHIFT
        }
        const W: u8 = Shape::WRITES_RD;
        const A: u8 = Shape::ACCESS;
        match self {
            Shape::Built | Shape::Nothing => 0,
            Shape::Rd => W,
            Shape::Load(n) => W | A | size(n),
            Shape::Store(n) => A | Shape::STORE | size(n),
            Shape::FLoad(n) => W | Shape::FREG | A | size(n),
            Shape::FStore(n) => A | Shape::STORE | size(n),
            Shape::FpToF => W | Shape::FREG | Shape::FFLAGS,
            Shape::FpToX => W | Shape::FFLAGS,
        }
    }
}

/// [`Shape::bits`] of every operation, by discriminant.
pub const SHAPE_BITS: [u8; 256] = {
    let mut t = [0; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = SHAPES[i].bits();
        i += 1;
    }
    t
};

/// What an instruction of a fixed [`Shape`] left for its record, beside its pc, bits and next
/// pc. Fields its shape does not use hold anything.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct Effect {
    /// The value written to rd (`Rd`, `Load`, `FLoad`, `FpToF`, `FpToX`).
    pub value: u64,
    /// The value loaded (zero-extended) or stored (the low `size` bytes); for `FpToF` and
    /// `FpToX`, the value written to fflags, or `u64::MAX` when the operation raised no flag
    /// (and wrote none).
    pub mem_value: u64,
    /// Effective (virtual) address of the access.
    pub vaddr: u64,
    /// Physical address of the access.
    pub paddr: u64,
}

/// Instructions of fixed shapes that retired one after the other in straight-line order (each
/// at the previous one's pc plus its length; only the last can have transferred control), for
/// sinks that take them so ([`Detail::SimpleRuns`]).
#[derive(Clone, Copy, Debug)]
pub struct SimpleRun<'a> {
    pub insns: &'a [Insn],
    /// One per instruction.
    pub effects: &'a [Effect],
    /// The pc of `insns[0]`.
    pub pc: u64,
    /// The pc after the last instruction.
    pub next_pc: u64,
    /// The privilege they ran in.
    pub prv: Priv,
    /// mtime while they ran.
    pub time: u64,
    /// The virtual page they were fetched from, and its physical page (their physical pc is
    /// at the same offset).
    pub fetch_page: (u64, u64),
}

impl SimpleRun<'_> {
    /// The pc after instruction `i`, at `pc`.
    #[inline(always)]
    pub fn next_pc_of(&self, i: usize, pc: u64) -> u64 {
        if i + 1 == self.insns.len() {
            self.next_pc
        } else {
            pc.wrapping_add(self.insns[i].len as u64)
        }
    }

    /// The record of each instruction, in order, as the hart would have built it.
    pub fn for_each_record(&self, mut f: impl FnMut(&Retired)) {
        let mut r = Retired::default();
        let mut pc = self.pc;
        for i in 0..self.insns.len() {
            self.record(i, pc, &mut r);
            f(&r);
            pc = r.next_pc;
        }
    }

    /// Fill `r` with the record of instruction `i`, at `pc`, as the hart would have built it.
    pub fn record(&self, i: usize, pc: u64, r: &mut Retired) {
        let (d, e) = (&self.insns[i], &self.effects[i]);
        r.reset(pc, d, self.prv, self.time);
        r.next_pc = self.next_pc_of(i, pc);
        r.fetch_pa = Some(fetch_pa(self.fetch_page, pc));
        let shape = SHAPES[d.op as usize];
        if let Shape::Load(size) | Shape::Store(size) | Shape::FLoad(size) | Shape::FStore(size) =
            shape
        {
            r.push_mem(MemAccess {
                kind: match shape {
                    Shape::Load(_) | Shape::FLoad(_) => MemKind::Load,
                    _ => MemKind::Store,
                },
                vaddr: e.vaddr,
                paddr: e.paddr,
                size,
                value: e.mem_value,
            });
        }
        match shape {
            Shape::Rd | Shape::Load(_) | Shape::FpToX if d.rd != 0 => {
                r.push_write(Reg::X(d.rd), e.value)
            }
            Shape::FLoad(_) | Shape::FpToF => r.push_write(Reg::F(d.rd), e.value),
            _ => {}
        }
        if matches!(shape, Shape::FpToF | Shape::FpToX) && e.mem_value != u64::MAX {
            r.push_write(Reg::Csr(crate::csr::FFLAGS), e.mem_value);
        }
    }
}

/// The simple runs a chain of blocks retired one after the other, in one privilege and at
/// one mtime, from one fetch page: each whole block it left, left by a transfer (or its end)
/// to the next block's first instruction (the first from where the chain started), then
/// the part of the block it ended in that retired. What the run loop hands a
/// [`Detail::SimpleRuns`] sink at once ([`Sink::simple_chain`]), so that a sink can take
/// them in one loop; each is the [`SimpleRun`] it would hear one at a time.
#[derive(Clone, Copy)]
pub struct SimpleChain<'a> {
    arena: &'a [Insn],
    /// The arena index and pc of the first run's first instruction.
    first: (usize, u64),
    /// Where each run ends (`end()`: the arena index after its last instruction), the pc
    /// after it, and where the next starts.
    steps: &'a [crate::run::TrailStep],
    /// One per instruction of all the runs, in order.
    effects: &'a [Effect],
    /// The privilege they ran in.
    pub prv: Priv,
    /// mtime while they ran.
    pub time: u64,
    /// The virtual page they were fetched from, and its physical page.
    pub fetch_page: (u64, u64),
}

impl<'a> SimpleChain<'a> {
    /// The runs of a chain that started at `arena[first.0]`, at pc `first.1`, and ended each
    /// run at one of `steps`, with the effects of their instructions.
    ///
    /// # Safety
    ///
    /// Each step ends a run of at least one instruction in `arena` (`first.0 < end()`, then
    /// `next() < end()` of the step after), and `effects` has one per instruction of them.
    #[inline(always)]
    pub(crate) unsafe fn new(
        arena: &'a [Insn],
        first: (usize, u64),
        steps: &'a [crate::run::TrailStep],
        effects: &'a [Effect],
        (prv, time, fetch_page): (Priv, u64, (u64, u64)),
    ) -> SimpleChain<'a> {
        debug_assert_eq!(
            steps
                .iter()
                .fold((first.0, 0), |(k, n), s| {
                    assert!(k < s.end() && s.end() <= arena.len(), "an empty or bad run");
                    (s.next(), n + s.end() - k)
                })
                .1,
            effects.len()
        );
        SimpleChain {
            arena,
            first,
            steps,
            effects,
            prv,
            time,
            fetch_page,
        }
    }

    /// How many runs.
    #[inline(always)]
    pub fn runs(&self) -> usize {
        self.steps.len()
    }

    /// How many instructions, in all the runs.
    #[inline(always)]
    pub fn insns(&self) -> usize {
        self.effects.len()
    }

    /// The runs in order.
    #[inline(always)]
    pub fn iter(&self) -> SimpleChainIter<'a> {
        SimpleChainIter {
            chain: *self,
            step: 0,
            k: self.first.0,
            pc: self.first.1,
            done: 0,
        }
    }

    /// Each run in order.
    #[inline(always)]
    pub fn for_each_run(&self, mut f: impl FnMut(&SimpleRun)) {
        for r in self.iter() {
            f(&r);
        }
    }
}

/// The runs of a [`SimpleChain`], in order.
pub struct SimpleChainIter<'a> {
    chain: SimpleChain<'a>,
    /// The next run's step, arena index, pc, and the effects of the runs before it.
    step: usize,
    k: usize,
    pc: u64,
    done: usize,
}

impl<'a> Iterator for SimpleChainIter<'a> {
    type Item = SimpleRun<'a>;

    #[inline(always)]
    fn next(&mut self) -> Option<SimpleRun<'a>> {
        let c = &self.chain;
        let step = c.steps.get(self.step)?;
        let (k, end, done) = (self.k, step.end(), self.done);
        let n = end - k;
        // SAFETY: `SimpleChain::new`'s promise: the run is in the arena, and there are
        // effects for it after those of the runs before.
        let (insns, effects) = unsafe {
            (
                c.arena.get_unchecked(k..end),
                c.effects.get_unchecked(done..done + n),
            )
        };
        let run = SimpleRun {
            insns,
            effects,
            pc: self.pc,
            next_pc: step.pc,
            prv: c.prv,
            time: c.time,
            fetch_page: c.fetch_page,
        };
        (self.step, self.k, self.pc, self.done) = (self.step + 1, step.next(), step.pc, done + n);
        Some(run)
    }
}

/// The physical address of `pc`, fetched from the virtual page `page.0`, which is at the
/// physical page `page.1`.
#[inline(always)]
pub(crate) fn fetch_pa(page: (u64, u64), pc: u64) -> u64 {
    page.1.wrapping_add(pc.wrapping_sub(page.0))
}

/// A trap taken: after an instruction raised an exception, or between instructions for an
/// interrupt.
#[derive(Clone, Debug)]
pub struct TrapRecord {
    pub cause: Cause,
    pub tval: u64,
    /// xepc: the pc of the excepting instruction or of the instruction the interrupt preempted.
    pub epc: u64,
    pub from: Priv,
    pub to: Priv,
    /// The trap vector: the next pc.
    pub handler: u64,
    /// The CSRs the trap wrote (xepc, xcause, xtval, mstatus), in order.
    pub writes: [RegWrite; 4],
    /// The instruction that raised the exception, when it was fetched and decoded (not for
    /// interrupts or fetch faults).
    pub insn: Option<Insn>,
    /// mtime when the trap was taken.
    pub time: u64,
    /// A debug trigger's breakpoint (Spike's `-l` trace says `trigger action 0` first).
    pub trigger: bool,
}

/// How much a [`Sink`] wants to hear of what the hart does, chosen at compile time (its
/// [`Sink::DETAIL`]). One value, so that what cannot be combined cannot be said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    /// Nothing but traps: the hart runs at full speed and the sink pays nothing.
    Nothing,
    /// A [`Run`] per straight-line run of retired instructions: the hart runs at full speed and
    /// only reports where control went.
    Runs,
    /// A full [`Retired`] record per executed instruction (registers, CSRs, memory); the hart
    /// executes one instruction at a time and fills records.
    Records,
    /// The same records, but those of operations of fixed shapes come in [`SimpleRun`]s, as
    /// effects the hart left while running chained (and `retire` gets the others, in order
    /// with the runs).
    SimpleRuns,
}

impl Detail {
    /// Full records are built ([`Detail::Records`] or [`Detail::SimpleRuns`]).
    #[inline(always)]
    pub const fn records(self) -> bool {
        matches!(self, Detail::Records | Detail::SimpleRuns)
    }

    /// Straight-line runs are reported ([`Detail::Runs`]).
    #[inline(always)]
    pub const fn runs(self) -> bool {
        matches!(self, Detail::Runs)
    }

    /// Instructions of fixed shapes come in [`SimpleRun`]s ([`Detail::SimpleRuns`]).
    #[inline(always)]
    pub const fn simple_runs(self) -> bool {
        matches!(self, Detail::SimpleRuns)
    }

    /// Anything beyond traps is reported.
    #[inline(always)]
    pub const fn any(self) -> bool {
        !matches!(self, Detail::Nothing)
    }

    /// What two sinks fed together want: records if either wants them (in simple runs only if
    /// both take those), runs if both want runs (or one wants nothing). A sink that wants runs
    /// cannot be fed with one that wants records (it would get no runs): that pairing fails to
    /// compile where it is used.
    pub const fn pair(a: Detail, b: Detail) -> Detail {
        match (a, b) {
            (Detail::Nothing, x) | (x, Detail::Nothing) => x,
            (Detail::Runs, Detail::Runs) => Detail::Runs,
            (Detail::Runs, _) | (_, Detail::Runs) => {
                panic!("a sink that takes runs cannot be paired with one that takes records")
            }
            (Detail::SimpleRuns, Detail::SimpleRuns) => Detail::SimpleRuns,
            _ => Detail::Records,
        }
    }

    /// The same, but never in simple runs (records one instruction at a time).
    pub const fn one_by_one(self) -> Detail {
        match self {
            Detail::SimpleRuns => Detail::Records,
            d => d,
        }
    }
}

/// Receives what the hart does, in the [`Detail`] it asks for. Traps are reported at every
/// level of detail.
///
/// Pairing a runs sink with a records sink does not compile:
///
/// ```compile_fail
/// use iss::record::{Detail, Retired, Run, Sink, TrapRecord};
/// struct R;
/// impl Sink for R {
///     const DETAIL: Detail = Detail::Runs;
///     fn retire(&mut self, _: &Retired) {}
///     fn trap(&mut self, _: &TrapRecord) {}
/// }
/// struct F;
/// impl Sink for F {
///     const DETAIL: Detail = Detail::Records;
///     fn retire(&mut self, _: &Retired) {}
///     fn trap(&mut self, _: &TrapRecord) {}
/// }
/// const D: Detail = <(R, F) as Sink>::DETAIL;
/// ```
pub trait Sink {
    /// What the sink wants to hear of.
    const DETAIL: Detail;
    /// An instruction executed (see [`Retired::retired`]). Sinks that want records only.
    fn retire(&mut self, r: &Retired);
    /// Instructions retired in straight-line order. [`Detail::Runs`] sinks only.
    fn run(&mut self, _r: &Run) {}
    /// Runs retired one after the other by a chain of blocks. [`Detail::Runs`] sinks only; by
    /// default, each goes to `run`.
    #[inline]
    fn blocks(&mut self, b: &Blocks) {
        b.for_each_run(|r| self.run(r));
    }
    /// Instructions of fixed shapes retired in straight-line order. [`Detail::SimpleRuns`] sinks only;
    /// by default, each one's record goes to `retire`.
    fn simple_run(&mut self, r: &SimpleRun) {
        r.for_each_record(|rec| self.retire(rec));
    }
    /// Simple runs retired one after the other by a chain of blocks. [`Detail::SimpleRuns`]
    /// sinks only; by default, each goes to `simple_run`.
    #[inline]
    fn simple_chain(&mut self, c: &SimpleChain) {
        c.for_each_run(|r| self.simple_run(r));
    }
    /// A trap was taken (after the `retire` of the excepting instruction, or on its own for an
    /// interrupt).
    fn trap(&mut self, t: &TrapRecord);

    /// Hart `h` runs from now on (several harts: at the start of each one's quantum); what
    /// follows is its. Not called with one hart.
    fn hart(&mut self, _h: usize) {}

    /// Debug triggers with a trace action fired for the next instruction the sink hears of
    /// (through `retire`, `run`, `simple_run` or `simple_chain`: with a trigger armed the
    /// hart reports one instruction at a time): the ingress port's `trigger` sideband bits
    /// (0 trace-on, 1 trace-off, 2 trace-notify), pulsed with that instruction's retirement
    /// ([`crate::trigger`]). Any detail but [`Detail::Nothing`].
    fn trigger(&mut self, _bits: u8) {}

    /// A record of a secondary hart's reset sequence (the boot ROM's instructions, which the
    /// machine applies without executing: [`crate::Machine::boot_rom_records`]), at the start
    /// of its first quantum: for a log that reads as Spike's. By default [`Sink::retire`].
    fn reset_record(&mut self, r: &Retired) {
        self.retire(r)
    }
    /// The sink's output failed (its writer met an I/O error): the run loop looks at this after
    /// every quantum and ends the run with [`crate::Stop::HostIoError`]; the sink's owner
    /// reports the error when it finishes the sink.
    fn failed(&self) -> bool {
        false
    }
    /// The hart calls [`Sink::watch`] (full records only: [`Detail::Records`], or one
    /// instruction at a time). A constant, so that the sinks without it pay nothing: the run
    /// loop of a sink with `false` has no call.
    const WATCH: bool = false;
    /// The machine as it is before the instruction or trap `at` (or at the end of a run),
    /// for a sink that follows state no record carries (a tandem writer writing mip's
    /// changes, Flute's mstatus and fflags with every FP operation). Called only when
    /// [`Sink::WATCH`].
    fn watch(&mut self, _m: &crate::Machine, _at: At) {}
    /// Whether this sink, as it is set up, needs [`Sink::watch`] (a setting known only at run
    /// time): its owner then runs it through [`Watched`].
    fn wants_watch(&self) -> bool {
        false
    }
}

/// Where the hart calls [`Sink::watch`].
#[derive(Clone, Copy, Debug)]
pub enum At<'a> {
    /// Before this instruction executes (before its record starts).
    Insn(&'a Insn),
    /// Before a trap is taken (an interrupt, or the exception of the instruction whose record
    /// came last).
    Trap,
    /// At the end of a run (or a pause): nothing follows yet.
    End,
}

/// A sink run with [`Sink::watch`] calls, on full records one instruction at a time (for a
/// sink whose [`Sink::wants_watch`] says so).
pub struct Watched<S>(pub S);

impl<S: Sink> Sink for Watched<S> {
    const DETAIL: Detail = S::DETAIL.one_by_one();
    const WATCH: bool = true;
    #[inline]
    fn retire(&mut self, r: &Retired) {
        self.0.retire(r)
    }
    #[inline]
    fn trap(&mut self, t: &TrapRecord) {
        self.0.trap(t)
    }
    #[inline]
    fn watch(&mut self, m: &crate::Machine, at: At) {
        self.0.watch(m, at)
    }
    fn failed(&self) -> bool {
        self.0.failed()
    }
    fn hart(&mut self, h: usize) {
        self.0.hart(h)
    }
    fn trigger(&mut self, bits: u8) {
        self.0.trigger(bits)
    }
    fn reset_record(&mut self, r: &Retired) {
        self.0.reset_record(r)
    }
}

/// No tracing: nothing is recorded.
pub struct NoSink;

impl Sink for NoSink {
    const DETAIL: Detail = Detail::Nothing;
    #[inline(always)]
    fn retire(&mut self, _: &Retired) {}
    #[inline(always)]
    fn trap(&mut self, _: &TrapRecord) {}
}

/// Forward to two sinks, in the detail both want ([`Detail::pair`]).
impl<A: Sink, B: Sink> Sink for (A, B) {
    const DETAIL: Detail = Detail::pair(A::DETAIL, B::DETAIL);
    #[inline]
    fn retire(&mut self, r: &Retired) {
        self.0.retire(r);
        self.1.retire(r);
    }
    #[inline]
    fn simple_run(&mut self, r: &SimpleRun) {
        self.0.simple_run(r);
        self.1.simple_run(r);
    }
    #[inline]
    fn simple_chain(&mut self, c: &SimpleChain) {
        self.0.simple_chain(c);
        self.1.simple_chain(c);
    }
    #[inline]
    fn run(&mut self, r: &Run) {
        self.0.run(r);
        self.1.run(r);
    }
    #[inline]
    fn blocks(&mut self, b: &Blocks) {
        self.0.blocks(b);
        self.1.blocks(b);
    }
    #[inline]
    fn trap(&mut self, t: &TrapRecord) {
        self.0.trap(t);
        self.1.trap(t);
    }
    fn hart(&mut self, h: usize) {
        self.0.hart(h);
        self.1.hart(h);
    }
    fn trigger(&mut self, bits: u8) {
        self.0.trigger(bits);
        self.1.trigger(bits);
    }
    fn reset_record(&mut self, r: &Retired) {
        self.0.reset_record(r);
        self.1.reset_record(r);
    }
    fn failed(&self) -> bool {
        self.0.failed() || self.1.failed()
    }
    const WATCH: bool = A::WATCH || B::WATCH;
    #[inline]
    fn watch(&mut self, m: &crate::Machine, at: At) {
        self.0.watch(m, at);
        self.1.watch(m, at);
    }
    fn wants_watch(&self) -> bool {
        self.0.wants_watch() || self.1.wants_watch()
    }
}

/// A sink that takes every record built, one instruction at a time, never in a [`SimpleRun`]
/// (to compare the two ways, or to leave the hart in its one-at-a-time loop).
pub struct OneByOne<S>(pub S);

impl<S: Sink> Sink for OneByOne<S> {
    const DETAIL: Detail = S::DETAIL.one_by_one();
    #[inline]
    fn retire(&mut self, r: &Retired) {
        self.0.retire(r)
    }
    #[inline]
    fn run(&mut self, r: &Run) {
        self.0.run(r)
    }
    #[inline]
    fn blocks(&mut self, b: &Blocks) {
        self.0.blocks(b)
    }
    #[inline]
    fn trap(&mut self, t: &TrapRecord) {
        self.0.trap(t)
    }
    fn hart(&mut self, h: usize) {
        self.0.hart(h)
    }
    fn trigger(&mut self, bits: u8) {
        self.0.trigger(bits)
    }
    fn reset_record(&mut self, r: &Retired) {
        self.0.reset_record(r)
    }
    fn failed(&self) -> bool {
        self.0.failed()
    }
    const WATCH: bool = S::WATCH;
    #[inline]
    fn watch(&mut self, m: &crate::Machine, at: At) {
        self.0.watch(m, at)
    }
    fn wants_watch(&self) -> bool {
        self.0.wants_watch()
    }
}

impl<S: Sink + ?Sized> Sink for &mut S {
    const DETAIL: Detail = S::DETAIL;
    #[inline]
    fn retire(&mut self, r: &Retired) {
        (**self).retire(r)
    }
    #[inline]
    fn simple_run(&mut self, r: &SimpleRun) {
        (**self).simple_run(r)
    }
    #[inline]
    fn simple_chain(&mut self, c: &SimpleChain) {
        (**self).simple_chain(c)
    }
    #[inline]
    fn run(&mut self, r: &Run) {
        (**self).run(r)
    }
    #[inline]
    fn blocks(&mut self, b: &Blocks) {
        (**self).blocks(b)
    }
    #[inline]
    fn trap(&mut self, t: &TrapRecord) {
        (**self).trap(t)
    }
    fn hart(&mut self, h: usize) {
        (**self).hart(h)
    }
    fn trigger(&mut self, bits: u8) {
        (**self).trigger(bits)
    }
    fn reset_record(&mut self, r: &Retired) {
        (**self).reset_record(r)
    }
    fn failed(&self) -> bool {
        (**self).failed()
    }
    const WATCH: bool = S::WATCH;
    #[inline]
    fn watch(&mut self, m: &crate::Machine, at: At) {
        (**self).watch(m, at)
    }
    fn wants_watch(&self) -> bool {
        (**self).wants_watch()
    }
}
