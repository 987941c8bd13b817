//! What the hart tells its PMU and its Control Transfer Records about the instructions it
//! retires (docs/pmu.md "Integration", docs/ctr.md).
//!
//! Nothing here costs an untraced run anything unless it is needed:
//!
//! - **Instructions and cycles** are brought into the PMU's totals lazily ([`Machine::pmu_sync`]):
//!   the privilege only changes at traps and xRETs, so every instruction retired since the
//!   last sync ran in the current privilege. The sync happens before every privilege change,
//!   before every access to a counter, and at the end of every chunk of execution. A counter
//!   that can overflow (Sscofpmf) shortens the chunk to the instruction that overflows it
//!   ([`Machine::pmu_horizon`]), so LCOFI is raised exactly there.
//! - **Per-run work** ([`Machine::account_run`]) is switched on by [`Machine::update_hooks`]
//!   only when a counter counts an instruction class (loads, stores, atomics, FP operations,
//!   branches, jumps, calls, returns) or a PMU model runs. A run is straight-line code ending
//!   at most at one control transfer, so a run through a whole block takes its classes and its
//!   transfer's kind from the block's [`BlockMeta`], made when the block was decoded, and any
//!   other run looks at its instructions. CSR instructions start blocks of their own, so a
//!   counter read sees every instruction before it.
//! - **Runs through whole blocks** (the usual case, models off) take
//!   [`Machine::account_block`]: the block's [`BlockMeta`] holds its class counts packed in
//!   lanes of one `u128` (taken and not-taken versions), which the run adds to
//!   [`Machine::lanes`]; [`Machine::pmu_sync`] moves the lanes into the totals, before every
//!   privilege change and counter access and at every chunk's end, as it does the instruction
//!   count. Partial runs, xRETs and the models take the general [`Machine::account_run`].
//!   A chain of handlers runs through blocks as untraced does, leaving a trail of the blocks
//!   it entered, which the run loop accounts for after it (`exec`'s `TR` tables); the models
//!   do not chain.
//! - **CTR** hears of jumps and branches from their handlers ([`Machine::chain_transfer`],
//!   while [`ExecMode::ctr_chain`]), with no per-run work; with the PMU's models on (whose
//!   cycle count and mispredictions it records) it hears of them from
//!   [`Machine::account_run`] instead.

use crate::classify;
use crate::csr::MIP_LCOFIP;
use crate::insn::{Insn, Op};
use crate::machine::Machine;
use crate::ops::{Flow, PmuClass};
use arch::{Cause, Itype, Priv};
use pmu::{AccessKind, Class};

/// How the hart accounts for what it retires: computed in one place ([`ExecMode::new`], from
/// what the PMU and CTR want, by [`Machine::update_hooks`]) and kept as the flags the hot paths
/// test. The flags are private and only set together, so no combination the run loop does not
/// expect can arise (CTR fed both by the handlers and by the run loop, say).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ExecMode {
    per_run: bool,
    pmu_counts: bool,
    fast_blocks: bool,
    models: bool,
    ctr_active: bool,
    ctr_chain: bool,
}

impl ExecMode {
    /// The mode for a PMU whose models are on (`models`) or whose counters count instruction
    /// classes (`classes`), and a CTR that wants events (`ctr`). With the models on, CTR hears
    /// of transfers from the run loop, which knows their cycle counts and mispredictions;
    /// otherwise from the handlers, with no per-run work.
    pub(crate) const fn new(models: bool, classes: bool, ctr: bool) -> ExecMode {
        let per_run = models || classes;
        ExecMode {
            per_run,
            pmu_counts: per_run,
            fast_blocks: per_run && !models,
            models,
            ctr_active: ctr,
            ctr_chain: ctr && !models,
        }
    }

    /// Every run needs accounting ([`Machine::account_run`]): the PMU counts instruction
    /// classes or runs its models.
    #[inline(always)]
    pub(crate) const fn per_run(&self) -> bool {
        self.per_run
    }

    /// The PMU counts what runs retire (instruction classes, or its models): what
    /// [`Machine::account_run`] and [`Machine::account_block`] test. Today always equal to
    /// [`ExecMode::per_run`], which the run loop tests before calling them; a flag of its own
    /// because with one flag the compiler folds their tests and lays out the run loop worse
    /// (callgrind, `--tandem` on bench.elf: 144.5 M host instructions against 149.9 M).
    #[inline(always)]
    pub(crate) const fn pmu_counts(&self) -> bool {
        self.pmu_counts
    }

    /// Per-run accounting without the models: runs through whole blocks take the fast path
    /// ([`Machine::account_block`]).
    #[inline(always)]
    pub(crate) const fn fast_blocks(&self) -> bool {
        self.fast_blocks
    }

    /// The PMU's models are on: memory accesses take the slow path, which reports them.
    #[inline(always)]
    pub(crate) const fn models(&self) -> bool {
        self.models
    }

    /// CTR wants events ([`ctr::Ctr::active`]).
    #[inline(always)]
    pub(crate) const fn ctr_active(&self) -> bool {
        self.ctr_active
    }

    /// CTR hears of jumps and branches from their handlers ([`Machine::chain_transfer`]), not
    /// from the run loop: CTR active without the PMU's models.
    #[inline(always)]
    pub(crate) const fn ctr_chain(&self) -> bool {
        self.ctr_chain
    }

    /// CTR hears of transfers from the run loop ([`Machine::account_run`]).
    #[inline(always)]
    pub(crate) const fn ctr_from_runs(&self) -> bool {
        self.ctr_active && !self.ctr_chain
    }
}

/// An instruction's PMU class, as a block's [`BlockMeta`] counts them: 0 none, 1 load, 2
/// store, 3 atomic, 4 FP operation (the instruction table's [`PmuClass`]).
#[inline]
pub(crate) fn op_class(op: Op) -> u8 {
    op.facts().pmu as u8
}

/// The end marker's `wd` when runs through the whole block may take [`Machine::account_block`]
/// (a real instruction's `wd` is at most 32, the empty marker's 32).
pub(crate) const FAST_BLOCK: u8 = 0xFF;

/// Bits per lane of [`BlockMeta::lanes`] and [`Machine::lanes`]. The lanes are brought into the
/// PMU's totals at every [`Machine::pmu_sync`], which happens at the end of every chunk, so a
/// lane counts at most a quantum's instructions.
const LANE_BITS: u32 = 14;
const _: () = assert!(crate::run::QUANTUM < 1 << LANE_BITS);
/// The class of each lane, lane `i` at bit `LANE_BITS * i`: every class per-run work counts.
const LANE_CLASSES: [Class; 9] = [
    Class::Loads,
    Class::Stores,
    Class::Atomics,
    Class::FpOps,
    Class::BranchesTaken,
    Class::BranchesNotTaken,
    Class::Jumps,
    Class::Calls,
    Class::Returns,
];

/// The lane of `class` set to 1.
const fn lane(class: Class) -> u128 {
    let mut i = 0;
    while i < LANE_CLASSES.len() {
        if LANE_CLASSES[i] as usize == class as usize {
            return 1 << (LANE_BITS * i as u32);
        }
        i += 1;
    }
    panic!("not a lane class")
}

/// What a run through a whole block means for the PMU and CTR, precomputed when the block is
/// decoded, by whether its last instruction's transfer was taken (index 1) or not (0; only a
/// conditional branch falls through).
#[derive(Clone, Copy, Debug)]
pub(crate) struct BlockMeta {
    /// The run's class counts, in lanes.
    pub lanes: [u128; 2],
    /// The last instruction's transfer kind ([`transfer_kind`]).
    pub kind: u8,
}

/// The blocks' [`BlockMeta`]s by index, their fields apart: the class counts that a chain's
/// accounting adds for every block it left ([`Machine::block_lanes`]) are 32 bytes each,
/// found by one shift and read without a bounds check, which the end marker's index makes
/// safe ([`BlockMetas::lanes`]).
#[derive(Debug, Default)]
pub(crate) struct BlockMetas {
    lanes: Vec<[u128; 2]>,
    kind: Vec<u8>,
}

impl BlockMetas {
    fn push(&mut self, m: BlockMeta) -> usize {
        self.lanes.push(m.lanes);
        self.kind.push(m.kind);
        self.lanes.len() - 1
    }

    /// Forget them all, with the arena whose end markers index them.
    pub(crate) fn clear(&mut self) {
        self.lanes.clear();
        self.kind.clear();
    }

    /// The meta of the block whose end marker is `end`.
    ///
    /// # Panics
    ///
    /// When `end` does not index a meta (is not an end marker of the arena).
    pub(crate) fn get(&self, end: &Insn) -> BlockMeta {
        let i = end.bits as usize;
        BlockMeta {
            lanes: self.lanes[i],
            kind: self.kind[i],
        }
    }

    /// The class counts of the block whose end marker is `end`, taken or not.
    ///
    /// # Safety
    ///
    /// `end` is the end marker of a block of the arena these metas are of: `mark_block` gave
    /// its `bits` the index of its meta, and the metas are only cleared with that arena
    /// (`DecodeCache::build`).
    #[inline(always)]
    pub(crate) unsafe fn lanes(&self, end: &Insn, taken: bool) -> u128 {
        let i = end.bits as usize;
        debug_assert!(i < self.lanes.len(), "meta {i} of {}", self.lanes.len());
        // SAFETY: the caller's promise.
        unsafe { self.lanes.get_unchecked(i)[taken as usize] }
    }
}

/// Make a block's [`BlockMeta`], at the index its end marker's `bits` then hold. The marker is
/// [`FAST_BLOCK`]
/// when a run through the whole block can be accounted from its meta alone: its last
/// instruction neither changes the privilege (xRET) nor is a branch to its own fall-through
/// (whose direction the next pc does not tell).
pub(crate) fn mark_block(m: &mut Insn, block: &[Insn], meta: &mut BlockMetas) {
    let mut c = [0u8; 5];
    for d in block {
        c[op_class(d.op) as usize] += 1;
    }
    let Some(last) = block.last() else { return };
    let kind = transfer_kind(last);
    let counts: u128 = (0..4).map(|i| c[i + 1] as u128 * lane(CLASSES[i])).sum();
    let k = kind as usize;
    // Only a conditional branch can fall through; everything else here is taken.
    let by = |t: usize| if k == 1 { t } else { 1 };
    let class_lane = |t: usize| match k {
        0 => 0,
        _ => lane(KIND_CLASS[k][by(t)]),
    };
    m.bits = meta.push(BlockMeta {
        lanes: [counts + class_lane(0), counts + class_lane(1)],
        kind,
    }) as u32;
    let own_fall = k == 1 && last.imm == last.len as i32;
    if last.op.flow() != Flow::TrapReturn && !own_fall {
        m.wd = FAST_BLOCK;
    }
}

/// How an instruction transfers control, as the tables below index it: 0 not a transfer (or
/// an xRET, which CTR hears of separately), 1 conditional branch, 2 direct call, 3 indirect
/// call, 4 co-routine swap, 5 return, 6 other jump through a register, 7 other direct jump,
/// 8 jump through a register linking nothing (`jr`), 9 direct jump linking nothing (`j`).
pub(crate) fn transfer_kind(d: &Insn) -> u8 {
    match d.op.flow() {
        Flow::Branch => 1,
        Flow::DirectJump | Flow::IndirectJump => match classify::ctr_type(d, true) {
            Itype::InferableCall => 2,
            Itype::UninferableCall => 3,
            Itype::CoroutineSwap => 4,
            Itype::Return => 5,
            Itype::OtherUninferableJump => 6,
            Itype::OtherInferableJump => 7,
            Itype::UninferableTailCall => 8,
            _ => 9,
        },
        _ => 0,
    }
}

/// The classes [`op_class`] numbers 1 to 4 ([`PmuClass::Load`] to [`PmuClass::Fp`]).
const CLASSES: [Class; 4] = [Class::Loads, Class::Stores, Class::Atomics, Class::FpOps];
const _: () = assert!(PmuClass::Load as usize == 1 && PmuClass::Fp as usize == CLASSES.len());

/// The classes whose counting needs per-run work (everything but instructions, cycles, traps
/// and misaligned accesses, which the hart reports anyway): those the lanes count.
fn per_run_classes() -> u64 {
    LANE_CLASSES.iter().fold(0, |m, c| m | c.bit())
}

/// By kind and taken (0/1): CTR's TYPE ([`classify::ctr_type`], which defines the kinds).
const KIND_CTR: [[Itype; 2]; 10] = [
    [Itype::None; 2],
    [Itype::NontakenBranch, Itype::TakenBranch],
    [Itype::InferableCall; 2],
    [Itype::UninferableCall; 2],
    [Itype::CoroutineSwap; 2],
    [Itype::Return; 2],
    [Itype::OtherUninferableJump; 2],
    [Itype::OtherInferableJump; 2],
    [Itype::UninferableTailCall; 2],
    [Itype::InferableTailCall; 2],
];
/// By kind and taken (0/1): the PMU class, [`Class::of_itype`] of CTR's TYPE (kind 0, no
/// transfer, counts in no class of its own: `Instructions` stands in, never counted).
const KIND_CLASS: [[Class; 2]; 10] = {
    let mut t = [[Class::Instructions; 2]; 10];
    let mut k = 0;
    while k < t.len() {
        let mut j = 0;
        while j < 2 {
            if let Some(c) = Class::of_itype(KIND_CTR[k][j]) {
                t[k][j] = c;
            }
            j += 1;
        }
        k += 1;
    }
    t
};
/// By kind and taken (0/1): N-Trace's itype ([`classify::itype`]): CTR's TYPE with the tail
/// calls (jumps that link nothing) as the other jumps they are there.
const KIND_ITYPE: [[Itype; 2]; 10] = {
    let mut t = KIND_CTR;
    let mut k = 0;
    while k < t.len() {
        let mut j = 0;
        while j < 2 {
            t[k][j] = match t[k][j] {
                Itype::UninferableTailCall => Itype::OtherUninferableJump,
                Itype::InferableTailCall => Itype::OtherInferableJump,
                it => it,
            };
            j += 1;
        }
        k += 1;
    }
    t
};

impl Machine {
    /// Decide whether runs need accounting; call after anything that can change it (PMU and
    /// CTR CSR writes, SBI PMU calls, configuration).
    pub(crate) fn update_hooks(&mut self) {
        let pmu = &self.hart.pmu;
        let models = pmu.models_on();
        let classes = pmu.live_classes() & per_run_classes() != 0;
        let ctr = self.hart.ctr.as_ref().is_some_and(|c| c.active());
        if models && !self.mode.models() {
            // Data accesses must take the slow path, which reports them to the models.
            self.flush_tlb();
            // Time follows the modelled cycles from now on (`quantum_ticks`).
            self.pmu_sync();
            self.sched.cycles_at_tick = self.hart.pmu.cycle_total();
        }
        self.mode = ExecMode::new(models, classes, ctr);
        let (chain, i32) = (self.mode.ctr_chain(), !self.config.isa.c);
        self.tables = [
            crate::exec::handlers(false, chain, i32),
            crate::exec::handlers(true, chain, i32),
            crate::exec::fx_handlers(chain, i32),
            crate::exec::chain_handlers(chain, i32, true),
        ];
    }

    /// Bring the PMU's instruction totals up to date: every instruction retired since the last
    /// sync ran in the current privilege.
    #[inline]
    pub(crate) fn pmu_sync(&mut self) {
        let now = self.now();
        let n = now.wrapping_sub(self.pmu_synced);
        if n != 0 {
            self.pmu_synced = now;
            let prv = self.hart.prv;
            self.hart.pmu.retire(prv, n);
        }
        if self.lanes != 0 {
            self.flush_lanes();
        }
    }

    /// Add the class counts gathered in lanes to the PMU's totals: they ran in the current
    /// privilege, as the instructions [`Machine::pmu_sync`] counts.
    #[cold]
    #[inline(never)]
    fn flush_lanes(&mut self) {
        let l = std::mem::take(&mut self.lanes);
        self.add_lanes(self.hart.prv, l);
    }

    /// Add class counts in lanes to the totals of `prv`.
    fn add_lanes(&mut self, prv: Priv, mut l: u128) {
        let t = self.hart.pmu.totals_mut(prv);
        for c in LANE_CLASSES {
            t[c as usize] += (l & ((1 << LANE_BITS) - 1)) as u64;
            l >>= LANE_BITS;
        }
    }

    /// After instructions retired: look for counter overflows (the countdown makes this one
    /// compare until one is possible) and raise LCOFI. True when it was raised.
    #[inline]
    pub(crate) fn pmu_after(&mut self, n: u64) -> bool {
        if self.hart.pmu.after_run(n) && self.config.sscofpmf {
            self.hart.csr.mip |= MIP_LCOFIP;
            return true;
        }
        false
    }

    /// How many instructions may run before a counter can overflow.
    #[inline]
    pub(crate) fn pmu_horizon(&self) -> u64 {
        if self.config.sscofpmf && self.hart.pmu.armed() {
            self.hart.pmu.overflow_horizon()
        } else {
            u64::MAX
        }
    }

    /// The cost model's cycle count now (instructions retired plus penalties), for CTR.
    /// Without models it is the instructions retired.
    #[inline]
    pub(crate) fn cycles_now(&mut self) -> u64 {
        if self.mode.models() {
            self.pmu_sync();
            self.hart.pmu.cycle_total()
        } else {
            self.now()
        }
    }

    /// Account for a run through the whole block whose end marker is `end` ([`FAST_BLOCK`],
    /// and the PMU's models off), from `pc`, in the current privilege. `npc` is what the chain
    /// returned: the next pc, or a sentinel after which `hart.pc` holds it. The class counts go
    /// to the lanes. (Only the PMU's class counts bring a run here: with the models off, CTR
    /// hears of the block's transfer from its handler, [`ExecMode::ctr_chain`].)
    #[inline(always)]
    pub(crate) fn account_block(&mut self, end: &Insn, pc: u64, npc: u64) {
        // (Selected without a branch: it depends on the guest's branches.)
        let odd = 0u64.wrapping_sub(npc & 1);
        let target = npc ^ ((npc ^ self.hart.pc) & odd);
        // Always true here; without the test (on a flag the caller does not test: see
        // `ExecMode::pmu_counts`) the compiler lays out the run loop worse
        // (cachegrind: +6 M host instructions per 20 M, untraced).
        if self.mode.pmu_counts() {
            // SAFETY: a [`FAST_BLOCK`] end marker is only made by `mark_block`, in the arena
            // (a block cut to the budget or run on its own ends otherwise).
            let lanes = unsafe { self.block_lanes(end, pc, target) };
            self.lanes = self.lanes.wrapping_add(lanes);
        }
    }

    /// The class counts, in lanes, of a run through the whole block whose end marker is `end`
    /// ([`FAST_BLOCK`]) from `pc`, which went on at `target`: its block meta's taken version
    /// when `target` is not the block's fall-through.
    #[inline(always)]
    ///
    /// # Safety
    ///
    /// As [`BlockMetas::lanes`]': `end` is an end marker of the arena.
    pub(crate) unsafe fn block_lanes(&self, end: &Insn, pc: u64, target: u64) -> u128 {
        let taken = target != pc.wrapping_add(end.imm as u64);
        // SAFETY: the caller's promise.
        unsafe { self.dcache.meta.lanes(end, taken) }
    }

    /// A jump or branch at `pc` to `target` (its fall-through when not taken), of CTR type
    /// `ty`, told by its handler with the budget `left` it ran with ([`ExecMode::ctr_chain`]),
    /// when CTR can note it without a call ([`ctr::Ctr::transfer_noted`]; `FIXED`: `ty` is
    /// fixed where this is inlined). False, having done nothing, when it needs
    /// [`Machine::chain_transfer`].
    #[inline(always)]
    pub(crate) fn chain_transfer_noted<const FIXED: bool>(
        &mut self,
        pc: u64,
        target: u64,
        ty: Itype,
        left: u64,
    ) -> bool {
        let cycles = self.chain_now(left);
        let prv = self.hart.prv;
        match self.hart.ctr.as_mut() {
            Some(c) => c.transfer_noted::<FIXED>(pc, target, ty, prv, cycles),
            None => true,
        }
    }

    /// [`Machine::chain_transfer_noted`] in every case.
    #[inline(never)]
    pub(crate) fn chain_transfer(&mut self, pc: u64, target: u64, ty: Itype, left: u64) {
        let cycles = self.chain_now(left);
        let prv = self.hart.prv;
        if let Some(c) = self.hart.ctr.as_mut() {
            c.transfer(pc, target, ty, prv, false, cycles);
        }
    }

    /// `now()` after the instruction a handler runs with budget `left`: inside a chain
    /// `sched.budget` is not kept up to date, `left` is.
    #[inline(always)]
    fn chain_now(&self, left: u64) -> u64 {
        self.retired + (self.sched.budget_start - left) + 1
    }

    /// Account for the `n` instructions a chain retired from `a[k]` (the first of its block
    /// when `block_start`), at `pc`, in privilege `prv`, the chain having returned `npc`: a
    /// whole fast block through [`Machine::account_block`], anything else through
    /// [`Machine::account_run`]. True when LCOFI was raised.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn account_chain(
        &mut self,
        a: &[Insn],
        k: usize,
        n: usize,
        pc: u64,
        npc: u64,
        prv: Priv,
        block_start: bool,
    ) -> bool {
        let end = &a[k + n];
        if block_start && self.mode.fast_blocks() && end.wd == FAST_BLOCK {
            self.account_block(end, pc, npc);
            return false;
        }
        self.account_run(a, k, n, pc, npc, prv, block_start)
    }

    /// Account for a run: `n` instructions of `a` from index `k`, the first at `pc`, which ran
    /// in privilege `prv`. `npc` is what the chain returned (the target of a transfer that
    /// ended the run, or a sentinel). `block_start`: `a[k]` starts its block (a run that
    /// reaches the block's end then covers the whole block, whose class counts and last
    /// transfer kind its [`BlockMeta`] holds). True when LCOFI was raised.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn account_run(
        &mut self,
        a: &[Insn],
        k: usize,
        n: usize,
        pc: u64,
        npc: u64,
        prv: Priv,
        block_start: bool,
    ) -> bool {
        if n == 0 {
            return false;
        }
        let end = &a[k + n];
        let last = &a[k + n - 1];
        let full = block_start && end.is_block_end();
        let bytes = crate::record::run_bytes(&a[k..k + n], full.then_some(end)) as u64;
        // A run through its whole block has its block's meta (class counts, the transfer's
        // kind); any other counts its own instructions.
        let meta = full.then(|| self.dcache.meta.get(end));
        let pmu = self.mode.pmu_counts();
        let kind = match meta {
            Some(m) => m.kind as usize,
            None => {
                if pmu {
                    self.count_classes(&a[k..k + n], prv);
                }
                if last.op.flow() == Flow::TrapReturn {
                    0
                } else {
                    transfer_kind(last) as usize
                }
            }
        };
        if self.mode.models() {
            // The run's fetches come before its transfer (whose cycle count, for CTR, they
            // are part of), however the run was cut: one instruction at a time or chained.
            let pa = crate::record::fetch_pa(self.fetch_page, pc);
            let asid = self.asid();
            self.hart.pmu.fetch(prv, pc, pa, bytes, asid);
        }
        let mut t = 0;
        if kind != 0 {
            let len = last.len as u64;
            let fall = pc + bytes;
            // A transfer to its own fall-through lets the untraced chain run on to the block's
            // end marker, which returns the DECODE sentinel; hart.pc holds the next pc then.
            // (Selected without a branch: it depends on the guest's branches.)
            let odd = 0u64.wrapping_sub(npc & 1);
            let npc = npc ^ ((npc ^ self.hart.pc) & odd);
            // A branch was taken when the chain ended at another pc than its fall-through, or
            // when it branched to its own fall-through (rare: look).
            let mut taken = (kind != 1) | (npc != fall);
            if kind == 1 && last.imm as u64 == len {
                taken = self.branch_taken(last);
            }
            t = taken as usize;
            let target = [fall, npc][t];
            let mut misp = false;
            if pmu {
                if meta.is_none() {
                    self.hart.pmu.count(prv, KIND_CLASS[kind][t], 1);
                }
                misp = self.mode.models() && self.predict(last, fall - len, target, kind, t, prv);
            }
            if self.mode.ctr_from_runs() {
                let cycles = self.cycles_now();
                if let Some(c) = self.hart.ctr.as_mut() {
                    c.transfer(fall - len, target, KIND_CTR[kind][t], prv, misp, cycles);
                }
            }
        }
        if let (true, Some(m)) = (pmu, meta) {
            self.add_lanes(prv, m.lanes[t]);
        }
        if !self.mode.models() {
            // Overflows need no per-run look: chunks stop at the PMU's overflow horizon.
            return false;
        }
        let n = n as u64;
        if self.hart.pmu.due(n) {
            self.pmu_sync();
            self.pmu_after(n)
        } else {
            self.hart.pmu.after_run(n)
        }
    }

    /// The class counts of a run that is not a whole block.
    #[cold]
    #[inline(never)]
    fn count_classes(&mut self, run: &[Insn], prv: Priv) {
        let t = self.hart.pmu.totals_mut(prv);
        for d in run {
            let c = op_class(d.op);
            if c != 0 {
                t[CLASSES[c as usize - 1] as usize] += 1;
            }
        }
    }

    /// Whether CTR wants events (cached from `Ctr::active` by [`Machine::update_hooks`], which
    /// runs after everything that can change it: CTR CSR writes and traps).
    #[inline(always)]
    fn ctr_on(&self) -> bool {
        self.mode.ctr_active()
    }

    /// One retired control transfer (or not-taken branch) to the branch predictor model:
    /// whether it was mispredicted.
    #[inline(never)]
    fn predict(
        &mut self,
        d: &Insn,
        pc: u64,
        target: u64,
        kind: usize,
        t: usize,
        prv: Priv,
    ) -> bool {
        self.hart
            .pmu
            .branch(prv, pc, d.len as u64, target, KIND_ITYPE[kind][t])
    }

    /// Whether conditional branch `d` (just executed: branches write no register) was taken.
    fn branch_taken(&self, d: &Insn) -> bool {
        crate::exec::branch_condition(d.op, self.rs1(d), self.rs2(d))
    }

    /// The ASID of translated accesses, None for bare or M-mode accesses.
    fn asid(&self) -> Option<u16> {
        let c = &self.hart.csr;
        (self.hart.prv != Priv::M && c.satp_mode() != crate::csr::SATP_MODE_BARE)
            .then_some((c.satp >> 44) as u16)
    }

    /// A trap is being taken from `from` to `to`: the PMU counts it, CTR records or freezes.
    pub(crate) fn trap_events(
        &mut self,
        cause: Cause,
        epc: u64,
        handler: u64,
        from: Priv,
        to: Priv,
    ) {
        self.events_flush();
        self.pmu_sync();
        self.hart.pmu.trap_taken(from, cause.is_interrupt());
        if self.ctr_on() {
            let cycles = self.cycles_now();
            if let Some(c) = self.hart.ctr.as_mut() {
                c.trap(epc, handler, from, to, cause, cycles);
            }
            self.update_hooks();
        }
    }

    /// An MRET or SRET at `pc` to `target`, from `from` to `to`.
    pub(crate) fn xret_events(&mut self, pc: u64, target: u64, from: Priv, to: Priv) {
        if self.ctr_on() {
            // The xRET's own cycle belongs to the mode it executes in, `from` ("qualified
            // cycles are those executed within an enabled privilege mode"): count it now.
            let cycles = self.cycles_now() + 1;
            if let Some(c) = self.hart.ctr.as_mut() {
                c.xret(pc, target, from, to, cycles);
            }
        }
    }

    /// Write CTR's deferred records to its array: before anything reads CTR.
    #[inline]
    pub(crate) fn events_flush(&mut self) {
        if let Some(c) = self.hart.ctr.as_mut() {
            c.flush();
        }
    }

    /// What CTR's CSR accesses depend on (Smstateen is implemented whenever CTR is).
    pub(crate) fn ctr_ctx(&mut self) -> ctr::AccessCtx {
        ctr::AccessCtx {
            mstateen0: self.hart.csr.mstateen0,
            // The CSR instruction's own cycle counts with the state it executed in (before a
            // write that sets or clears FROZEN or changes the enables).
            now_cycles: self.cycles_now() + 1,
        }
    }

    /// The same for a read outside an instruction (the cycle count as of the last sync).
    pub(crate) fn ctr_ctx_ro(&self) -> ctr::AccessCtx {
        ctr::AccessCtx {
            mstateen0: self.hart.csr.mstateen0,
            now_cycles: if self.mode.models() {
                self.hart.pmu.cycle_total()
            } else {
                self.now()
            },
        }
    }

    /// A misaligned load, store or AMO in the current data privilege.
    #[cold]
    pub(crate) fn misaligned_event(&mut self) {
        let prv = self.data_priv();
        self.hart.pmu.count(prv, Class::Misaligned, 1);
    }

    /// A data access for the PMU's models (only called when they run).
    pub(crate) fn data_event(&mut self, va: u64, pa: u64, kind: AccessKind, size: u8) {
        let prv = self.data_priv();
        let asid = if prv != Priv::M && self.hart.csr.satp_mode() != crate::csr::SATP_MODE_BARE {
            Some((self.hart.csr.satp >> 44) as u16)
        } else {
            None
        };
        self.hart
            .pmu
            .data_access(prv, va, pa, kind, size as u64, asid);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode;

    /// Every combination of what the PMU and CTR want gives one consistent mode: per-run work
    /// exactly when the PMU needs it, the fast block path only without the models, and CTR fed
    /// from exactly one place when active.
    #[test]
    fn execution_modes() {
        for bits in 0..8u8 {
            let (models, classes, ctr) = (bits & 1 != 0, bits & 2 != 0, bits & 4 != 0);
            let m = ExecMode::new(models, classes, ctr);
            assert_eq!(m.per_run(), models || classes, "{bits:03b}");
            assert_eq!(m.pmu_counts(), models || classes, "{bits:03b}");
            assert_eq!(m.fast_blocks(), classes && !models, "{bits:03b}");
            assert_eq!(m.models(), models, "{bits:03b}");
            assert_eq!(m.ctr_active(), ctr, "{bits:03b}");
            assert_eq!(
                m.ctr_chain() as u8 + m.ctr_from_runs() as u8,
                ctr as u8,
                "{bits:03b}"
            );
            assert_eq!(m.ctr_from_runs(), ctr && models, "{bits:03b}");
        }
        assert_eq!(ExecMode::default(), ExecMode::new(false, false, false));
    }

    /// The tables agree with the one classifier for every kind of transfer.
    #[test]
    fn kinds_match_the_classifier() {
        for bits in [
            0x00b50463u32, // beq
            0x008000ef,    // jal ra
            0x000500e7,    // jalr ra, a0
            0x000280e7,    // jalr ra, t0 (swap)
            0x00008067,    // ret
            0x000505e7,    // jalr a1, a0
            0x0080056f,    // jal a0
            0x00050067,    // jr a0
            0x0080006f,    // j
            0xa011,        // c.j
            0x9502,        // c.jalr a0
        ] {
            let d = decode(bits);
            let k = transfer_kind(&d) as usize;
            assert_ne!(k, 0, "{bits:#x}");
            for taken in [false, true] {
                if k != 1 && !taken {
                    continue;
                }
                let t = taken as usize;
                assert_eq!(KIND_ITYPE[k][t], classify::itype(&d, taken), "{bits:#x}");
                assert_eq!(KIND_CTR[k][t], classify::ctr_type(&d, taken), "{bits:#x}");
                assert_eq!(
                    Some(KIND_CLASS[k][t]),
                    Class::of_itype(classify::itype(&d, taken)),
                    "{bits:#x}"
                );
            }
        }
        assert_eq!(transfer_kind(&decode(0x00150513)), 0); // addi
    }
}
