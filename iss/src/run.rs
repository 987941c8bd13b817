//! The run loop and the deterministic time model.
//!
//! Time advances with execution, never with the host clock, so a run is the same every time.
//! The model is Spike's, so that commit logs compare line for line with Spike's:
//!
//! - execution proceeds in *quanta* of [`QUANTUM`] steps (retired instructions);
//! - a quantum ends early when a trap is taken or a WFI retires;
//! - at the end of every quantum, mtime advances by [`TICKS_PER_QUANTUM`] (so one tick per 100
//!   instructions), mip.MTIP is recomputed, an LR reservation is dropped, and HTIF's `tohost` is
//!   polled (so a program's exit is seen at the end of the quantum in which it wrote tohost);
//! - pending interrupts are taken at the start of a quantum and after instructions that can
//!   change interrupt enables (CSR instructions, MRET, SRET);
//! - a hart in WFI with no interrupt pending and enabled in mie executes nothing; its quanta
//!   pass (and mtime advances) until one is.
//!
//! Inside a quantum, instructions run from the decoded-instruction cache in an inner loop that
//! stays on one virtual page, where the handlers chain: sequential code costs one dispatch
//! per instruction, and the budget is checked once per block entered (`exec::Lim`).

use crate::bus::{PlatformExit, PAGE_SIZE};
use crate::dcache::MAX_BLOCK;
use crate::decode::{decode, decode16, decode32};
use crate::exec::{Blk, Ix, Lim, BUILD, DECODE, IRQ, REFETCH, SERIALIZE, TRAP, WFI};
use crate::insn::{Insn, Op};
use crate::machine::Machine;
use crate::mmu::Access;
use crate::record::{fetch_pa, Blocks, Effect, Run, SimpleChain, Sink};
use crate::sbi::{SbiTrap, Then};
use arch::{Cause, Priv};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Steps per quantum (Spike's INTERLEAVE).
pub const QUANTUM: u64 = 5000;

/// Entries of the single-step decode table ([`Machine::fetch_one`]): a power of two.
pub(crate) const STEP_DECODED: usize = 4096;
/// mtime ticks per quantum (INTERLEAVE / INSNS_PER_RTC_TICK).
pub const TICKS_PER_QUANTUM: u64 = 50;
/// Consecutive traps without a retired instruction that make a trap loop.
pub const TRAP_LOOP_LIMIT: u32 = 1000;

/// mtime `ticks` after `mtime`. It wraps, as the CLINT's counter does, but not past its last
/// value: a quantum that would carry it over ends at `u64::MAX`, and the next one wraps. A
/// tick of one passes through every value, so a timer whose compare value lies in the last
/// quantum before the wrap must see mtime reach it: stepping over it left a hart that waits
/// for that timer waiting for ever, time going round (`Machine::wait_for_interrupt`).
fn tick(mtime: u64, ticks: u64) -> u64 {
    match mtime.checked_add(ticks) {
        Some(t) => t,
        None if mtime != u64::MAX => u64::MAX,
        None => ticks - 1,
    }
}

/// [`Scheduler::chain_va`] with chaining off: odd, as no target is.
pub(crate) const CHAIN_OFF: u64 = 1;

/// [`Scheduler::chain_va`]'s type: [`CHAIN_OFF`] by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ChainVa(pub u64);

impl Default for ChainVa {
    fn default() -> Self {
        ChainVa(CHAIN_OFF)
    }
}

#[derive(Default)]
pub(crate) struct Scheduler {
    /// Steps left before the current chunk must stop (quantum end or instruction limit).
    pub budget: u64,
    /// `budget` when the chunk started.
    pub budget_start: u64,
    /// Steps left in the current quantum.
    pub quantum_left: u64,
    /// A device asked the run to stop (test finisher).
    pub stop_requested: bool,
    /// The hart executed WFI and waits for an interrupt.
    pub waiting: bool,
    /// Steps the reset sequence takes out of the first quantum (Spike's boot ROM).
    pub boot_steps: u64,
    /// A secondary hart's reset sequence is still to be shown to the sink, at the start of
    /// its first quantum (hart 0's the caller shows: [`Machine::boot_rom_records`]).
    pub boot_records: bool,
    /// `retired` at the last trap, and how many traps in a row happened with nothing retired.
    last_trap_retired: u64,
    traps_in_a_row: u32,
    /// Instructions retired, published at the end of every quantum for another thread to read
    /// (a progress display): one relaxed store per 5000 instructions.
    progress: Arc<AtomicU64>,
    /// [`Machine::run_paused`]: pause when `retired` reaches this (`u64::MAX`: never).
    pause_at: u64,
    /// [`Pause::after_trap`] of the run in progress.
    pause_after_trap: bool,
    /// The run paused inside a quantum: the next run goes on with it instead of starting one.
    resume: bool,
    /// The run in progress paused (its `Stop` is no stop).
    paused: bool,
    /// Block chaining ([`crate::exec::done`]): a jump or taken branch of an untraced run
    /// to a decoded block of the same page goes to that block's first handler directly
    /// instead of returning to the run loop. The page of the running block: its virtual base,
    /// and the address of its table of blocks by slot in the decode cache
    /// ([`crate::dcache::DecodeCache::entries`]; valid while chaining is on, as no block is
    /// decoded meanwhile).
    ///
    /// Chaining is on ([`Scheduler::chain_on`]) when the handlers run in the run loop's
    /// arena, untraced or in simple runs, with the PMU's models off; off for every other
    /// caller of the handlers, whatever its table. Off, `chain_va` is [`CHAIN_OFF`], odd:
    /// the handlers' one test that a target is in the page (`exec::in_chain_page`) then fails
    /// for every target, as targets are even, and they need not test chaining apart.
    pub chain_va: ChainVa,
    pub chain_entries: usize,
    /// The links the handlers follow ([`crate::dcache::DecodeCache::links_for`]): the
    /// cache's own when chaining is on, all zeros when it is off, as long as the arena
    /// either way. An address, so that the scheduler stays `Send`.
    pub links: usize,
    /// The cost model's cycle total when time last followed it ([`Machine::quantum_ticks`]),
    /// less the cycles not yet turned into a tick.
    pub cycles_at_tick: u64,
    /// The blocks the running chain entered after its first, when the run loop must account
    /// for each block or report it to the sink (the handlers' `TR` tables).
    pub trail: Trail,
    /// The type of the transfer a handler of the CTR tables hands to `exec::ctr_done`.
    pub ctr_ty: arch::Itype,
}

/// One block a chain entered: it left the block whose end marker is at arena index `end()` by
/// a transfer (or its end) to `pc`, where the block at arena index `next()` starts; `taken()`:
/// `pc` is not the left block's fall-through. The two are kept as places in the arena
/// (`exec::Ix`'s offsets), as the handlers have them, the end's with `taken()` in its low bit
/// (a place is a multiple of `exec::IX_STEP`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TrailStep {
    end: u32,
    next: u32,
    pub pc: u64,
}

impl TrailStep {
    /// The arena index of the end marker of the block left.
    #[inline(always)]
    pub(crate) fn end(&self) -> usize {
        self.end_place().k()
    }

    fn end_place(&self) -> Ix {
        Ix::from_place(self.end & !(crate::exec::IX_STEP as u32 - 1))
    }

    /// The transfer to `pc` was taken: `pc` is not the fall-through of the block left (which
    /// only a conditional branch has), so that a block's counts need not be found from pcs.
    #[inline(always)]
    pub(crate) fn taken(&self) -> bool {
        self.end & 1 != 0
    }

    /// The arena index of the block entered.
    #[inline(always)]
    pub(crate) fn next(&self) -> usize {
        Ix::from_place(self.next).k()
    }

    /// The end marker of the block left, in `arena`.
    ///
    /// # Safety
    ///
    /// `arena` is the arena the step's chain ran in.
    #[inline(always)]
    pub(crate) unsafe fn end_in<'a>(&self, arena: &'a [Insn]) -> &'a Insn {
        debug_assert!(self.end() < arena.len());
        // SAFETY: the caller's promise: the trail holds places of end markers in `arena`.
        unsafe { &*arena.as_ptr().byte_add(self.end_place().bytes()) }
    }
}

/// Where the runs of a chain of simple runs start ([`Machine::simple_trail`]): the arena index
/// and pc of the first one's first instruction, and the trail step that ends it.
#[derive(Clone, Copy)]
struct ChainStart {
    k: usize,
    pc: u64,
    step: usize,
}

/// Instructions a chain that leaves a trail runs at most: each block it enters follows at
/// least one retired instruction, so the trail never holds more steps than this. A chain of
/// simple runs keeps as many effects at most (`Machine::effects`), and the trail has room for
/// one step more, where the run loop notes the end of the run in the block the chain ended
/// in (`Machine::run_simple`).
pub(crate) const TRAIL_INSNS: u64 = 1024;

/// The blocks a chain entered, in order ([`TrailStep`]), so that a chain can run through
/// blocks whose every run the run loop must see: the PMU counting instruction classes
/// ([`Machine::account_chain`]), a sink that takes runs or simple runs. The handlers that
/// leave it (`exec`'s `TR` and `FX` tables) run at most [`TRAIL_INSNS`] instructions in a
/// chain.
pub(crate) struct Trail {
    steps: Box<[TrailStep]>,
    /// The address of the next step's slot in `steps` (the steps so far end there): the
    /// handlers' push is a store through it and an add, with no index to scale.
    next: usize,
    /// The budget left as the chain entered its last block, in `exec::Lim`'s units: the
    /// instructions retired before it are the chain's budget less this.
    rest: u64,
}

impl Default for Trail {
    fn default() -> Trail {
        let steps = vec![TrailStep::default(); TRAIL_INSNS as usize + 1].into_boxed_slice();
        Trail {
            next: steps.as_ptr() as usize,
            steps,
            rest: 0,
        }
    }
}

impl Trail {
    /// Note a block entered (see [`TrailStep`]: `end` and `next` are places in the arena,
    /// `exec::Ix`'s offsets), by a transfer `taken` or not, with `rest` of budget left (in
    /// `exec::Lim`'s units).
    ///
    /// # Safety
    ///
    /// Fewer than [`TRAIL_INSNS`] steps since the run loop last read the trail
    /// (`walk_trail`): the chain's budget was cut to it.
    #[inline(always)]
    pub(crate) unsafe fn push(&mut self, end: usize, next: usize, taken: bool, pc: u64, rest: u64) {
        debug_assert!(
            self.len() < TRAIL_INSNS as usize,
            "a trail of {} steps",
            self.len()
        );
        // SAFETY: the caller's promise: `self.next` is a slot of `steps` (which are in place
        // while handlers run: the run loop takes them only between chains).
        unsafe {
            *(self.next as *mut TrailStep) = TrailStep {
                end: end as u32 | taken as u32,
                next: next as u32,
                pc,
            };
        }
        self.next += std::mem::size_of::<TrailStep>();
        self.rest = rest;
    }

    /// Add `step` after the steps so far (the last run of a chain of simple runs).
    ///
    /// # Panics
    ///
    /// When the trail is full.
    fn push_last(&mut self, step: TrailStep) {
        let i = self.len();
        self.steps[i] = step;
        self.next += std::mem::size_of::<TrailStep>();
    }

    /// The steps so far (with the steps in place).
    #[inline(always)]
    fn len(&self) -> usize {
        (self.next - self.steps.as_ptr() as usize) / std::mem::size_of::<TrailStep>()
    }

    /// Forget the steps (with the steps in place).
    #[inline(always)]
    fn clear(&mut self) {
        self.next = self.steps.as_ptr() as usize;
    }

    /// The instructions of budget left as the chain entered its last block.
    #[inline(always)]
    fn rest_insns(&self) -> u64 {
        self.rest / crate::exec::IX_STEP as u64
    }
}

impl Scheduler {
    /// Chaining is on ([`Scheduler::chain_va`]).
    #[inline]
    pub(crate) fn chain_on(&self) -> bool {
        self.chain_va.0 & 1 == 0
    }

    /// Exchange the hart's own fields with `other`'s (a hart switch); the run's own fields
    /// (progress, pauses, a device's stop request) stay.
    pub(crate) fn swap_hart(&mut self, other: &mut Scheduler) {
        use std::mem::swap;
        swap(&mut self.budget, &mut other.budget);
        swap(&mut self.budget_start, &mut other.budget_start);
        swap(&mut self.quantum_left, &mut other.quantum_left);
        swap(&mut self.waiting, &mut other.waiting);
        swap(&mut self.boot_steps, &mut other.boot_steps);
        swap(&mut self.boot_records, &mut other.boot_records);
        swap(&mut self.last_trap_retired, &mut other.last_trap_retired);
        swap(&mut self.traps_in_a_row, &mut other.traps_in_a_row);
        swap(&mut self.chain_va, &mut other.chain_va);
        swap(&mut self.chain_entries, &mut other.chain_entries);
        swap(&mut self.links, &mut other.links);
        swap(&mut self.cycles_at_tick, &mut other.cycles_at_tick);
    }
}

/// The first `n` instructions of the block at `arena[k]` (fewer than it has), followed by an
/// end marker that says where the block goes on after them (`Insn::cut_end`), as an
/// instruction run on its own has: what a budget shorter than the block runs.
#[inline(always)]
fn cut_block(arena: &[Insn], k: usize, n: usize) -> [Insn; MAX_BLOCK] {
    let mut cut = [Insn::NOT_DECODED; MAX_BLOCK];
    cut[..n].copy_from_slice(&arena[k..k + n]);
    cut[n] = Insn::cut_end(arena[k + n].insn_off());
    cut
}

/// The length of the block an instruction run on its own gets (`[insn, Insn::single_end]`).
pub(crate) const LONE_BLOCK: usize = 2;

/// Instructions a chain of handlers runs at most before it returns to the run loop (its
/// budget is cut to this). It bounds the recursion where a handler's call is not turned into
/// a jump (every call in a debug build).
pub(crate) const CHAIN_INSNS: u64 = if cfg!(debug_assertions) { 256 } else { 1 << 14 };

/// Where [`Machine::run_paused`] pauses, for a debugger. A paused run is resumed by the next
/// `run`/`run_paused`, inside the quantum it paused in: the instructions, traps, interrupts
/// and time are those of one uninterrupted run, and so is every record the sink gets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pause {
    /// Pause before executing anything more once [`Machine::retired`] reaches this count
    /// (after a pending interrupt was taken, which retires nothing).
    pub at_retired: Option<u64>,
    /// Pause after a trap (exception or interrupt) was taken: before the handler's first
    /// instruction.
    pub after_trap: bool,
    /// Pause after this many quanta ended (at a quantum's end: nothing is split).
    pub after_quanta: Option<u64>,
}

/// Why a run stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The guest finished with this exit code (HTIF or the test finisher).
    Exit(u64),
    /// The instruction limit was reached.
    InstructionLimit,
    /// Traps kept being taken with no instruction retiring: the guest cannot leave the loop.
    TrapLoop { pc: u64, cause: Cause, tval: u64 },
    /// The hart is in WFI and no interrupt can ever wake it.
    WaitForever { pc: u64 },
    /// The guest asked the test finisher to reset the machine.
    ResetRequested,
    /// A host-side input or output of the run failed: the guest's console output could not be
    /// written (standard output full or closed: `bus.console.error()`), the UART's input
    /// source could not be read (`bus.uart.input.error()`), or a sink's writer failed
    /// ([`crate::Sink::failed`]; its owner reports the error when finishing it). Looked at after
    /// every quantum and at the end of the run (whose last flush may fail), where it takes
    /// precedence over the other reasons.
    HostIoError,
}

/// How a block ended.
enum BlockEnd {
    /// Go on at this pc.
    Next(u64),
    End(ChunkEnd),
}

enum ChunkEnd {
    /// The chunk's budget ran out.
    Budget,
    /// The decoded-instruction cache or the translation changed: look the page up again.
    Refetch,
    /// Re-check interrupts and continue the quantum.
    Serialize,
    /// A trap was taken or WFI retired: the quantum ends.
    EndQuantum,
    Stop(Stop),
}

impl Machine {
    /// Instructions retired so far, including those of the chunk in progress.
    #[inline]
    pub(crate) fn now(&self) -> u64 {
        self.retired + (self.sched.budget_start - self.sched.budget)
    }

    /// The number of instructions retired as of the last quantum's end, readable from another
    /// thread while the machine runs (for a progress display).
    pub fn progress(&self) -> Arc<AtomicU64> {
        self.sched.progress.clone()
    }

    /// Run until the guest exits, the limit of retired instructions is reached, or the guest
    /// can make no more progress.
    pub fn run<S: Sink>(&mut self, sink: &mut S, limit: Option<u64>) -> Stop {
        match self.run_paused(sink, limit, Pause::default()) {
            Some(stop) => stop,
            // Never paused without a pause asked for; the limit is the nearest stop.
            None => Stop::InstructionLimit,
        }
    }

    /// [`Machine::run`] that may also pause where `pause` says (for a debugger): `None` when
    /// it paused, the machine ready to go on with the next `run` or `run_paused` as if it had
    /// never stopped. The pauses cost the run loop a comparison per chunk.
    pub fn run_paused<S: Sink>(
        &mut self,
        sink: &mut S,
        limit: Option<u64>,
        pause: Pause,
    ) -> Option<Stop> {
        self.sched.pause_at = pause.at_retired.unwrap_or(u64::MAX);
        self.sched.pause_after_trap = pause.after_trap;
        self.sched.paused = false;
        let mut quanta = pause.after_quanta.unwrap_or(u64::MAX);
        let stop = loop {
            if let Some(stop) = self.run_quantum(sink, limit) {
                break stop;
            }
            let end = if self.parked.is_empty() {
                self.end_quantum()
            } else {
                self.next_hart(sink)
            };
            if let Some(stop) = end {
                break stop;
            }
            if self.bus.console.error().is_some()
                || self.bus.uart.input.error().is_some()
                || sink.failed()
            {
                break Stop::HostIoError;
            }
            quanta -= 1;
            if quanta == 0 {
                self.sched.paused = true;
                break Stop::InstructionLimit;
            }
        };
        self.sched.pause_at = u64::MAX;
        self.sched.pause_after_trap = false;
        if S::WATCH {
            sink.watch(self, crate::record::At::End);
        }
        self.bus.console.flush();
        if self.bus.console.error().is_some() || self.bus.uart.input.error().is_some() {
            self.sched.paused = false;
            self.sched.resume = false;
            return Some(Stop::HostIoError);
        }
        if std::mem::take(&mut self.sched.paused) {
            return None;
        }
        Some(stop)
    }

    /// One quantum. Returns `Some` when the run must stop.
    fn run_quantum<S: Sink>(&mut self, sink: &mut S, limit: Option<u64>) -> Option<Stop> {
        // A run that paused inside this quantum goes on with it (it paused at the top of the
        // loop below, after the checks of a quantum's start).
        if !std::mem::take(&mut self.sched.resume) {
            self.sched.quantum_left = QUANTUM - std::mem::take(&mut self.sched.boot_steps);
            if std::mem::take(&mut self.sched.boot_records) && S::DETAIL.records() {
                for r in self.boot_rom_records() {
                    sink.reset_record(&r);
                }
            }
            if self.sbi.hsm != crate::sbi::HsmState::Started {
                if let crate::sbi::HsmState::StartPending { addr, opaque } = self.sbi.hsm {
                    self.sbi_hart_enter(addr, opaque);
                } else {
                    // A stopped hart lets its quantum pass.
                    return None;
                }
            }
            if self.sched.waiting {
                if self.hart.csr.mip & self.hart.csr.mie == 0 {
                    if !self.parked.is_empty() {
                        // Its quantum passes; `next_hart` sees whether all harts wait.
                        return None;
                    }
                    return self.wait_for_interrupt();
                }
                self.sched.waiting = false;
            }
        }
        loop {
            // A serializing instruction that used the quantum's last step ends it: Spike looks
            // for interrupts only while steps remain.
            if self.sched.quantum_left == 0 {
                return None;
            }
            if let Some(irq) = self.pending_interrupt() {
                let pc = self.hart.pc;
                self.take_trap(Cause::Interrupt(irq), 0, pc, None, sink);
                return self.note_trap(pc, Cause::Interrupt(irq), 0);
            }
            let left = match limit {
                // The limit counts every hart's instructions.
                Some(l) if l <= self.retired() => return Some(Stop::InstructionLimit),
                Some(l) => self.sched.quantum_left.min(l - self.retired()),
                None => self.sched.quantum_left,
            };
            if self.retired >= self.sched.pause_at {
                self.sched.resume = true;
                self.sched.paused = true;
                return Some(Stop::InstructionLimit);
            }
            let left = left.min(self.sched.pause_at - self.retired);
            // Stop where a counter may overflow, to raise LCOFI at that instruction.
            let left = left.min(self.pmu_horizon());
            self.sched.budget = left;
            self.sched.budget_start = left;
            let end = self.run_chunk(sink);
            let done = self.sched.budget_start - self.sched.budget;
            self.retired += done;
            self.sched.quantum_left -= done;
            self.sched.budget = 0;
            self.sched.budget_start = 0;
            // The PMU sees the chunk (whose length its overflow horizon bounded); the models
            // looked after every run themselves.
            self.events_flush();
            self.pmu_sync();
            if !self.mode.models() {
                self.pmu_after(done);
            }
            if self.sched.stop_requested {
                self.sched.stop_requested = false;
                return Some(match self.bus.exit.take() {
                    Some(PlatformExit::Code(c)) => Stop::Exit(c),
                    Some(PlatformExit::ResetRequested) => Stop::ResetRequested,
                    None => continue,
                });
            }
            match end {
                ChunkEnd::Serialize => continue,
                ChunkEnd::Refetch => unreachable!("run_chunk handles refetches"),
                ChunkEnd::EndQuantum => return None,
                ChunkEnd::Stop(s) => return Some(s),
                ChunkEnd::Budget => {
                    if self.sched.quantum_left == 0 {
                        return None;
                    }
                    if limit.is_some_and(|l| self.retired() >= l) {
                        return Some(Stop::InstructionLimit);
                    }
                    // The PMU's overflow horizon: go on (an LCOFI is taken first).
                }
            }
        }
    }

    /// WFI with nothing pending: let quanta pass until the timer fires. All the skipped quanta
    /// would execute nothing, so they are skipped in one step.
    fn wait_for_interrupt(&mut self) -> Option<Stop> {
        let now = self.bus.clint.mtime;
        let csr = &self.hart.csr;
        // The times at which a timer will raise an enabled interrupt: the CLINT's mtimecmp,
        // Sstc's stimecmp (with STCE) and the built-in SBI's S-mode timer. The earliest wakes
        // the hart.
        let mtimer =
            (csr.mie & crate::csr::MIP_MTIP != 0).then_some(self.bus.clint.mtimecmp[self.cur]);
        let stimer = (self.config.isa.sstc
            && csr.menvcfg & crate::csr::MENVCFG_STCE != 0
            && csr.mie & crate::csr::MIP_STIP != 0)
            .then_some(csr.stimecmp);
        let wake = [mtimer, stimer, self.sbi_timer_wake()]
            .into_iter()
            .flatten()
            .filter(|&t| t > now)
            .min();
        if let Some(t) = wake {
            // Quanta until mtime >= t, minus this one (end_quantum adds one more tick).
            let quanta = (t - now).div_ceil(TICKS_PER_QUANTUM);
            self.bus.clint.mtime += (quanta - 1) * TICKS_PER_QUANTUM;
            return None;
        }
        if self.hart.csr.mip & self.hart.csr.mie != 0 {
            return None;
        }
        // Only typing can wake the hart: wait for it (the end of the input ends the run).
        if self.bus.uart.rx_irq_enabled()
            && self.bus.uart.input.is_live()
            && self.bus.uart.input.wait_live()
        {
            self.irq_update();
            return None;
        }
        Some(Stop::WaitForever { pc: self.hart.pc })
    }

    /// For a caller that steps one instruction at a time ([`Machine::step`]) and keeps
    /// Spike's time: end the quantum now (advance time, drop the reservation, poll HTIF).
    pub fn end_quantum_now(&mut self) -> Option<Stop> {
        self.end_quantum()
    }

    /// For a stepping caller, after a WFI (or the built-in SBI's suspend) retired: let time
    /// pass as a run does, a quantum at a time, until an interrupt is pending. `Some` when
    /// none ever will be (or the program ended meanwhile).
    pub fn wait_while_idle(&mut self) -> Option<Stop> {
        if !self.sched.waiting {
            return None;
        }
        while self.hart.csr.mip & self.hart.csr.mie == 0 {
            if let Some(s) = self.wait_for_interrupt() {
                return Some(s);
            }
            if let Some(s) = self.end_quantum() {
                return Some(s);
            }
        }
        self.sched.waiting = false;
        None
    }

    /// Whether the hart waits for an interrupt (a WFI retired).
    pub fn is_waiting(&self) -> bool {
        self.sched.waiting
    }

    /// Steps of the quantum a stepping caller is in that the reset sequence already took
    /// (Spike's boot ROM: [`crate::machine::BOOT_STEPS`] at the start, then 0).
    pub fn take_boot_steps(&mut self) -> u64 {
        std::mem::take(&mut self.sched.boot_steps)
    }

    /// End of a quantum: advance time, drop the reservation, poll HTIF.
    fn end_quantum(&mut self) -> Option<Stop> {
        self.sched.progress.store(self.now(), Ordering::Relaxed);
        let ticks = self.quantum_ticks();
        self.bus.clint.mtime = tick(self.bus.clint.mtime, ticks);
        self.clint_changed();
        // Input for the UART's receive interrupt is looked for once a quantum, as time is.
        if self.bus.uart.rx_irq_enabled() {
            self.irq_update();
        }
        self.hart.reservation = None;
        self.htif_poll()
    }

    /// The end of a hart's quantum when there are several (Spike's `sim_t::step`): the hart
    /// yields its reservation and the next hart runs; when every hart had its quantum, the
    /// devices tick. HTIF is polled after every hart's quantum, as Spike's HTIF loop does
    /// between the quanta it asks for. A round in which every hart waited (WFI, or stopped)
    /// lets time pass at once up to the first timer that wakes one, or ends the run when
    /// nothing can.
    fn next_hart<S: Sink>(&mut self, sink: &mut S) -> Option<Stop> {
        self.sched.progress.store(self.retired(), Ordering::Relaxed);
        self.hart.reservation = None;
        let next = (self.cur + 1) % self.parked.len();
        if next == 0 {
            self.bus.clint.mtime = tick(self.bus.clint.mtime, TICKS_PER_QUANTUM);
            if self.bus.uart.rx_irq_enabled() {
                self.irq_update();
            }
        }
        if let Some(stop) = self.htif_poll() {
            return Some(stop);
        }
        self.switch_hart(next);
        sink.hart(next);
        if next == 0 && self.all_idle() {
            return self.idle_round();
        }
        None
    }

    /// Whether every hart waits with nothing that wakes it pending (the running hart is 0).
    fn all_idle(&self) -> bool {
        use crate::sbi::HsmState;
        (0..self.parked.len()).all(|h| {
            if h == self.cur {
                self.sbi.hsm == HsmState::Stopped
                    || (self.sbi.hsm == HsmState::Started
                        && self.sched.waiting
                        && self.hart.csr.mip & self.hart.csr.mie == 0)
            } else {
                let p = &self.parked[h];
                p.sbi.hsm == HsmState::Stopped
                    || (p.sbi.hsm == HsmState::Started
                        && p.sched.waiting
                        && self.parked_pending(h) & p.hart.csr.mie == 0)
            }
        })
    }

    /// The interrupts parked hart `h` will find pending when it runs: its mip with what the
    /// CLINT, the PLIC and the timers raised since it was parked.
    fn parked_pending(&self, h: usize) -> u64 {
        use crate::csr::{MENVCFG_STCE, MIP_MEIP, MIP_MSIP, MIP_MTIP, MIP_SEIP, MIP_STIP};
        let p = &self.parked[h];
        let (c, clint, now) = (&p.hart.csr, &self.bus.clint, self.bus.clint.mtime);
        let mut mip = c.mip;
        if clint.msip[h] {
            mip |= MIP_MSIP;
        }
        if now >= clint.mtimecmp[h] {
            mip |= MIP_MTIP;
        }
        if p.sbi.timer.is_some_and(|t| now >= t)
            || (self.config.isa.sstc && c.menvcfg & MENVCFG_STCE != 0 && now >= c.stimecmp)
        {
            mip |= MIP_STIP;
        }
        if self.bus.plic.line(2 * h) {
            mip |= MIP_MEIP;
        }
        if self.bus.plic.line(2 * h + 1) {
            mip |= MIP_SEIP;
        }
        mip
    }

    /// Every hart waits: let time pass until the first timer that wakes one of them, or stop.
    fn idle_round(&mut self) -> Option<Stop> {
        let now = self.bus.clint.mtime;
        let mut wake: Option<u64> = None;
        for h in 0..self.parked.len() {
            let t = if h == self.cur {
                self.wake_time(h, &self.hart, self.sbi.timer)
            } else {
                let p = &self.parked[h];
                self.wake_time(h, &p.hart, p.sbi.timer)
            };
            if let Some(t) = t.filter(|&t| t > now) {
                wake = Some(wake.map_or(t, |w| w.min(t)));
            }
        }
        match wake {
            Some(t) => {
                // Whole rounds until mtime >= t, less the one that is starting (the next
                // round's end adds its ticks).
                let rounds = (t - now).div_ceil(TICKS_PER_QUANTUM);
                self.bus.clint.mtime += (rounds - 1) * TICKS_PER_QUANTUM;
                self.clint_changed();
                None
            }
            None => Some(Stop::WaitForever { pc: self.hart.pc }),
        }
    }

    /// When a timer raises an interrupt hart `h` enables (its CLINT mtimecmp, Sstc's
    /// stimecmp, the built-in SBI's S-mode timer).
    fn wake_time(
        &self,
        h: usize,
        hart: &crate::machine::HartState,
        sbi: Option<u64>,
    ) -> Option<u64> {
        let csr = &hart.csr;
        let mtimer = (csr.mie & crate::csr::MIP_MTIP != 0).then_some(self.bus.clint.mtimecmp[h]);
        let stimer = (self.config.isa.sstc
            && csr.menvcfg & crate::csr::MENVCFG_STCE != 0
            && csr.mie & crate::csr::MIP_STIP != 0)
            .then_some(csr.stimecmp);
        let sbi = sbi.filter(|_| csr.mie & crate::csr::MIP_STIP != 0);
        [mtimer, stimer, sbi].into_iter().flatten().min()
    }

    /// The ticks a quantum's end adds to mtime. Spike's time: [`TICKS_PER_QUANTUM`], one tick
    /// per 100 instructions. With the PMU's cost models on, time follows the modelled cycles
    /// instead (one tick per 100 cycles since the last quantum's end, the rest carried), so
    /// that cycles per unit of time stay what they are without the models (a perf sampling
    /// CPU_CYCLES is not throttled); never fewer ticks than Spike's, so a quantum in which the
    /// hart waited still lets time pass.
    fn quantum_ticks(&mut self) -> u64 {
        if !self.mode.models() {
            return TICKS_PER_QUANTUM;
        }
        self.pmu_sync();
        let total = self.hart.pmu.cycle_total();
        let per_tick = QUANTUM / TICKS_PER_QUANTUM;
        let elapsed = total.wrapping_sub(self.sched.cycles_at_tick);
        if elapsed / per_tick <= TICKS_PER_QUANTUM {
            self.sched.cycles_at_tick = total;
            return TICKS_PER_QUANTUM;
        }
        self.sched.cycles_at_tick = total - elapsed % per_tick;
        elapsed / per_tick
    }

    /// Book-keeping after a trap; detects trap loops.
    fn note_trap(&mut self, pc: u64, cause: Cause, tval: u64) -> Option<Stop> {
        let retired = self.now();
        if self.sched.pause_after_trap {
            // The trap ends the quantum; the run pauses at the start of the next one.
            self.sched.pause_at = retired;
        }
        if retired == self.sched.last_trap_retired && self.sched.traps_in_a_row > 0 {
            self.sched.traps_in_a_row += 1;
            if self.sched.traps_in_a_row >= TRAP_LOOP_LIMIT {
                return Some(Stop::TrapLoop { pc, cause, tval });
            }
        } else {
            self.sched.traps_in_a_row = 1;
            self.sched.last_trap_retired = retired;
        }
        None
    }

    /// Execute instructions until the budget runs out, a trap, or an instruction that ends the
    /// chunk. `hart.pc` and `sched.budget` are up to date on return.
    fn run_chunk<S: Sink>(&mut self, sink: &mut S) -> ChunkEnd {
        let mut arena = self.dcache.take();
        let end = self.run_blocks(&mut arena, sink);
        self.dcache.put(arena);
        // Block indices mean nothing outside the run loop's arena.
        self.chain_off(LONE_BLOCK);
        end
    }

    /// Chaining off for handlers running in a block of `len` instructions (the arena's
    /// length, or a block of its own): they follow no link and enter no other block.
    #[inline]
    pub(crate) fn chain_off(&mut self, len: usize) {
        self.sched.chain_va = ChainVa(CHAIN_OFF);
        self.sched.links = self.dcache.links_for(false, len);
    }

    fn run_blocks<S: Sink>(&mut self, arena: &mut Vec<Insn>, sink: &mut S) -> ChunkEnd {
        self.fit_effects::<S>();
        // Set to run the next instruction outside the cache (it crosses a page boundary).
        let mut uncached = false;
        'page: loop {
            let pc = self.hart.pc;
            let off = match self.fetch_ram_off(pc) {
                Ok(off) => off,
                // The boot ROM: one instruction at a time, as below.
                Err(()) if std::mem::take(&mut self.fetch_rom) => {
                    match self.run_uncached(pc, sink) {
                        Some(e) => return e,
                        None => continue,
                    }
                }
                Err(()) => return self.trap_at(pc, &Insn::NOT_DECODED, sink),
            };
            if std::mem::take(&mut uncached) || self.tlb.lookup(Access::Fetch, pc).is_none() {
                // A page PMP allows only in part is never in the fetch TLB: fetch and check
                // every instruction on its own. So is an instruction that crosses pages.
                match self.run_uncached(pc, sink) {
                    Some(e) => return e,
                    None => continue,
                }
            }
            self.fetch_page = (
                pc & !(PAGE_SIZE - 1),
                self.bus.ram.base() + (off & !(PAGE_SIZE - 1)),
            );
            let page_off = off & !(PAGE_SIZE - 1);
            let (p, new) = self.dcache.page(self.bus.ram.base() + page_off);
            if new {
                // Store-TLB entries for this page must learn that it now holds code (those
                // of the parked harts when they run again: `switch_hart`).
                self.flush_tlb();
                self.code_gen = self.code_gen.wrapping_add(1);
            }
            let page_va = pc & !(PAGE_SIZE - 1);
            let mut pc = pc;
            loop {
                let slot = ((pc - page_va) >> 1) as usize;
                let mut k = self.dcache.block(p, slot);
                if k == 0 {
                    let ram = &self.bus.ram;
                    let base = page_off as usize;
                    let isa = self.config.isa;
                    k = self.dcache.build(
                        arena,
                        p,
                        slot,
                        |s| ram.read_u16(base + 2 * s),
                        |bits| isa.filter(decode(bits)),
                    );
                    if k == 0 {
                        self.hart.pc = pc;
                        uncached = true;
                        continue 'page;
                    }
                }
                self.dcache.dirty = false;
                // A sink that takes runs and the PMU counting classes chain too, leaving a
                // trail of the blocks they enter (`walk_trail`), and so do the simple runs
                // of a sink that takes them (`simple_trail`).
                if (!S::DETAIL.records() || S::DETAIL.simple_runs()) && !self.mode.models() {
                    self.sched.chain_va = ChainVa(page_va);
                    self.sched.chain_entries = self.dcache.entries(p);
                    self.sched.links = self.dcache.links_for(true, arena.len());
                } else {
                    self.chain_off(arena.len());
                }
                match self.run_block(arena, k as usize, pc, sink) {
                    BlockEnd::Next(npc) => {
                        if npc.wrapping_sub(page_va) >= PAGE_SIZE {
                            self.hart.pc = npc;
                            continue 'page;
                        }
                        pc = npc;
                    }
                    BlockEnd::End(ChunkEnd::Refetch) => continue 'page,
                    BlockEnd::End(e) => return e,
                }
            }
        }
    }

    /// Fetch, decode and run the one instruction at `pc` outside the decode cache (a page PMP
    /// allows in part, an instruction that crosses pages, the boot ROM). `Some`: the chunk
    /// ends so.
    #[cold]
    #[inline(never)]
    fn run_uncached<S: Sink>(&mut self, pc: u64, sink: &mut S) -> Option<ChunkEnd> {
        self.chain_off(LONE_BLOCK);
        let d = match self.fetch_one_triggered(pc) {
            Ok((d, pa)) => {
                self.fetch_page = (pc & !(PAGE_SIZE - 1), pa & !(PAGE_SIZE - 1));
                d
            }
            Err(()) => return Some(self.trap_at(pc, &Insn::NOT_DECODED, sink)),
        };
        match self.run_block(&[d, Insn::single_end(d.len)], 0, pc, sink) {
            BlockEnd::Next(npc) => self.hart.pc = npc,
            // hart.pc and the budget are already up to date.
            BlockEnd::End(ChunkEnd::Refetch) => {}
            BlockEnd::End(e) => return Some(e),
        }
        if self.sched.budget == 0 {
            return Some(ChunkEnd::Budget);
        }
        None
    }

    /// Run the block starting at `arena[k]`, whose first instruction is at `pc`, until it
    /// leaves straight-line order or the budget runs out. `sched.budget` is up to date on
    /// return, and `hart.pc` when the chunk ends.
    #[inline(always)]
    fn run_block<S: Sink>(
        &mut self,
        arena: &[Insn],
        mut k: usize,
        mut pc: u64,
        sink: &mut S,
    ) -> BlockEnd {
        if !S::DETAIL.records() {
            // A chain runs whole blocks (`exec::Lim`): a block longer than the budget left
            // runs cut to it.
            if self.past_budget(arena, k) {
                return self.run_cut(arena, k, pc, sink);
            }
            return self.run_chain(arena, k, pc, sink);
        }
        // Traced: one instruction at a time, each handed to the sink; or, for a sink that takes
        // runs of simple instructions, runs of those chained, and the others one at a time.
        let mut block_start = true;
        loop {
            if S::DETAIL.simple_runs() {
                match self.run_simple(arena, k, pc, block_start, sink) {
                    ControlFlow::Continue(at) => (k, pc) = at,
                    ControlFlow::Break(end) => return end,
                }
            }
            let d = &arena[k];
            if S::WATCH {
                sink.watch(self, crate::record::At::Insn(d));
            }
            self.start_record(pc, d, self.hart.prv, self.bus.clint.mtime);
            let left = self.sched.budget;
            let prv = self.rec.prv;
            // SAFETY: as in the untraced case: `d` is `arena[k]`, checked.
            let npc = unsafe {
                let bpc = pc.wrapping_sub(d.block_off());
                let left = Lim::new(Ix::new(k), left);
                self.tables[1][d.op as usize](
                    self,
                    Blk::new(arena),
                    Ix::new(k),
                    crate::exec::SPARE,
                    bpc,
                    left,
                )
            };
            let lcofi = self.mode.per_run()
                && (npc & 1 == 0 || matches!(npc, SERIALIZE | REFETCH | WFI))
                && self.account_run(arena, k, 1, pc, npc, prv, false);
            if npc & 1 == 0 {
                self.rec.next_pc = npc;
                self.report_pulse(sink);
                sink.retire(&self.rec);
                if self.sched.budget == 0 {
                    self.hart.pc = npc;
                    return BlockEnd::End(ChunkEnd::Budget);
                }
                if lcofi {
                    self.hart.pc = npc;
                    return BlockEnd::End(ChunkEnd::Serialize);
                }
                if npc == pc.wrapping_add(d.len as u64) {
                    pc = npc;
                    k += 1;
                    block_start = false;
                    continue;
                }
                return BlockEnd::Next(npc);
            }
            if npc == DECODE {
                return BlockEnd::Next(pc);
            }
            let e = self.finish_unusual(d, pc, npc, true, sink);
            return BlockEnd::End(after_lcofi(e, lcofi));
        }
    }

    /// The rest of the block from `arena[k]` is longer than the budget left, which the
    /// chained handlers, as they do not count it (`exec::Lim`), need it to cover.
    #[inline(always)]
    fn past_budget(&self, arena: &[Insn], k: usize) -> bool {
        let left = self.sched.budget;
        left < MAX_BLOCK as u64 && {
            let len = arena[k..]
                .iter()
                .position(|d| d.op == Op::NotDecoded)
                .expect("a block ends with an end marker");
            len as u64 > left
        }
    }

    /// Start a chain of `table`'s handlers at `arena[k]`, at `pc`, with `cut` instructions of
    /// budget (which the chain's blocks must fit).
    ///
    /// # Safety
    ///
    /// As a handler's call: every block handed to the run loop ends with an end marker
    /// (`exec::Handler`); with a trail or effects, they take `cut`.
    #[inline(always)]
    unsafe fn start_chain(
        &mut self,
        table: &[crate::exec::Handler; 256],
        arena: &[Insn],
        k: usize,
        pc: u64,
        cut: u64,
    ) -> u64 {
        let d = &arena[k];
        let bpc = pc.wrapping_sub(d.block_off());
        let cut = Lim::new(Ix::new(k), cut);
        let (a, k) = (Blk::new(arena), Ix::new(k));
        // SAFETY: the caller's promise; `arena[k]` is checked.
        unsafe { table[d.op as usize](self, a, k, crate::exec::SPARE, bpc, cut) }
    }

    /// [`Machine::start_chain`] at a block of the arena, `arena[k]`: through its compiled
    /// code when it has some (`exec::start_block`), for a chain with a trail (`trail`), of
    /// simple runs (`fx`) or plain.
    ///
    /// # Safety
    ///
    /// As [`Machine::start_chain`]'s; chaining is on, `arena` is the arena and `arena[k]`
    /// starts one of its blocks.
    #[inline(never)]
    unsafe fn start_arena_chain(
        &mut self,
        arena: &[Insn],
        k: usize,
        pc: u64,
        cut: u64,
        trail: bool,
        fx: bool,
    ) -> u64 {
        debug_assert!(self.sched.chain_on());
        debug_assert_eq!(arena[k].block_off(), 0, "a block starts at {k}");
        let lim = crate::exec::Lim::new(crate::exec::Ix::new(k), cut);
        let (a, l) = (crate::exec::Blk::new(arena), crate::exec::Ix::new(k));
        let kind = (self.mode.ctr_chain(), !self.config.isa.c, trail, fx);
        // SAFETY: the caller's promise; the chain's handlers are `tables`', of that kind.
        unsafe { crate::exec::start_block_from_loop(self, a, l, pc, lim, kind) }
    }

    /// Untraced: run the block at `arena[k]`, at `pc`, which fits the budget, as [`run_block`]
    /// does, and the blocks its handlers chain to.
    ///
    /// [`run_block`]: Machine::run_block
    #[inline(always)]
    fn run_chain<S: Sink>(&mut self, arena: &[Insn], k: usize, pc: u64, sink: &mut S) -> BlockEnd {
        // The handlers chain through the block themselves.
        let left = self.sched.budget;
        let (prv, satp) = (self.hart.prv, self.hart.csr.satp);
        // Every run must be seen: the chain leaves a trail of the blocks it enters.
        let trail = S::DETAIL.runs() || self.mode.per_run();
        // The chain runs at most CHAIN_INSNS (TRAIL_INSNS with a trail); the rest of the
        // budget waits here, out of both `budget` and `budget_start` (whose difference the
        // handlers' clocks read).
        let rest = self.cut_budget(if trail { TRAIL_INSNS } else { CHAIN_INSNS });
        let cut = left - rest;
        let table = self.tables[if trail { 3 } else { 0 }];
        // SAFETY: `arena[k]` is checked; every block handed to the run loop ends with an
        // end marker (`exec::Handler`); the links are as long as the arena; the trail
        // takes the chain's budget.
        let npc = if self.sched.chain_on() {
            // SAFETY: as above; with chaining on, `arena` is the arena and `k` the start of
            // one of its blocks (`run_blocks`).
            unsafe { self.start_arena_chain(arena, k, pc, cut, trail, false) }
        } else {
            // SAFETY: as above.
            unsafe { self.start_chain(table, arena, k, pc, cut) }
        };
        self.restore_budget(rest);
        let mut lcofi = false;
        if trail {
            // The blocks the chain left, then the one it ended in, as a chain of one.
            let (k, pc, done) = self.walk_trail(sink, arena, (k, pc), cut, (prv, satp));
            let n = (left - self.sched.budget) as usize - done;
            if n != 0 {
                if self.mode.per_run() {
                    lcofi = self.account_chain(arena, k, n, pc, npc, prv, true);
                }
                if S::DETAIL.runs() {
                    self.report_pulse(sink);
                    let run = (&arena[k..k + n], &arena[k + n], pc);
                    self.report_run(sink, run, npc, prv, satp);
                }
            }
        }
        if let Some(end) = self.chain_end(npc, lcofi) {
            return end;
        }
        let (start, pc) = (pc, self.hart.pc);
        let d = if npc == TRAP {
            // The instruction that raised it, for the trap record (and the built-in SBI,
            // which decodes it): the n-th after `k` when the chain did not leave its first
            // block, which holds no end marker up to it (a chain that left the block
            // retired all of it). After a chain of blocks (`exec::done`) it is found
            // again at the trap's pc.
            let i = k + (left - self.sched.budget) as usize;
            match arena.get(k..=i) {
                Some(run) if run.iter().all(|d| d.op != Op::NotDecoded) => {
                    debug_assert_eq!(
                        start.wrapping_add(run[i - k].block_off()),
                        pc.wrapping_add(arena[k].block_off())
                    );
                    run[i - k]
                }
                _ => {
                    // The instruction was just fetched from there; the exception is kept
                    // whatever the fetch says.
                    let exc = self.exc;
                    let d = self.fetch_one(pc).map_or(Insn::NOT_DECODED, |(d, _)| d);
                    self.exc = exc;
                    d
                }
            }
        } else {
            Insn::NOT_DECODED
        };
        let e = self.finish_unusual(&d, pc, npc, false, sink);
        BlockEnd::End(after_lcofi(e, lcofi))
    }

    /// Untraced: run the first instructions of the block at `arena[k]`, at `pc`, as many as
    /// the budget (less than the block's length) allows: from a copy of them whose end marker
    /// says where the block goes on (not a block's end), as an instruction run on its own.
    #[cold]
    #[inline(never)]
    fn run_cut<S: Sink>(&mut self, arena: &[Insn], k: usize, pc: u64, sink: &mut S) -> BlockEnd {
        let n = self.sched.budget as usize;
        let cut = cut_block(arena, k, n);
        let chain = (self.sched.chain_va, self.sched.links);
        self.chain_off(n + 1);
        let e = self.run_chain(&cut[..=n], 0, pc, sink);
        (self.sched.chain_va, self.sched.links) = chain;
        e
    }

    /// Cut the budget to at most `cap` for a chain of handlers; returns the rest, which waits
    /// here out of both `budget` and `budget_start` (whose difference the handlers' clocks
    /// read) until [`Machine::restore_budget`].
    #[inline(always)]
    fn cut_budget(&mut self, cap: u64) -> u64 {
        let left = self.sched.budget;
        // CHAIN_INSNS bounds the recursion where calls are not jumps (a debug build).
        let cut = left.min(cap.min(CHAIN_INSNS));
        let rest = left - cut;
        self.sched.budget = cut;
        self.sched.budget_start -= rest;
        rest
    }

    #[inline(always)]
    fn restore_budget(&mut self, rest: u64) {
        self.sched.budget += rest;
        self.sched.budget_start += rest;
    }

    /// After a chain that left a trail, from the block at arena index `k` at `pc`, whose
    /// budget was `cut`: account for and report each block it left, whole, for a transfer
    /// (or its end) to the next (in privilege `prv`, with `satp`). Returns the arena index and
    /// pc of the block the chain ended in, and the instructions retired before it.
    #[inline(always)]
    fn walk_trail<S: Sink>(
        &mut self,
        sink: &mut S,
        arena: &[Insn],
        (k, pc): (usize, u64),
        cut: u64,
        (prv, satp): (Priv, u64),
    ) -> (usize, u64, usize) {
        let len = self.sched.trail.len();
        if len == 0 {
            return (k, pc, 0);
        }
        // Out of the scheduler while it is read (an empty boxed slice allocates nothing).
        let steps = std::mem::take(&mut self.sched.trail.steps);
        let trail = &steps[..len];
        if self.mode.per_run() {
            self.account_trail(arena, (k, pc), trail, prv);
        }
        if S::DETAIL.runs() {
            self.report_pulse(sink);
            let time = self.bus.clint.mtime;
            sink.blocks(&Blocks::new(arena, (k, pc), trail, (prv, time, satp)));
        }
        let last = trail[len - 1];
        self.sched.trail.steps = steps;
        self.sched.trail.clear();
        let done = cut - self.sched.trail.rest_insns();
        (last.next(), last.pc, done as usize)
    }

    /// Account for each block a chain left (`trail`, from the block at arena index `k` at
    /// `pc`, in privilege `prv`), whole, for a transfer (or its end) to the next. Out of line,
    /// as a chain's blocks are many: the loop gets the registers to itself.
    #[inline(never)]
    fn account_trail(
        &mut self,
        arena: &[Insn],
        (mut k, mut pc): (usize, u64),
        trail: &[TrailStep],
        prv: Priv,
    ) {
        let fast = self.mode.fast_blocks();
        let mut lanes = 0u128;
        for (i, step) in trail.iter().enumerate() {
            // SAFETY: the trail is of a chain in `arena`.
            let e = unsafe { step.end_in(arena) };
            if fast && e.wd == crate::events::FAST_BLOCK {
                // As `Machine::account_block`, summed here.
                // SAFETY: `e` is an end marker of the arena, as the trail's are.
                lanes = lanes.wrapping_add(unsafe { self.dcache.meta.lanes(e, step.taken()) });
            } else {
                // The block's index and pc, from the step before (found only here: fast
                // blocks need neither).
                if let Some(before) = i.checked_sub(1) {
                    (k, pc) = (trail[before].next(), trail[before].pc);
                }
                self.account_left_block(arena, k, step, pc, prv);
            }
        }
        self.lanes = self.lanes.wrapping_add(lanes);
    }

    /// [`Machine::account_trail`] for a block that is not a fast one: at arena index `k`, at
    /// `pc`, left at `step`.
    #[cold]
    #[inline(never)]
    fn account_left_block(
        &mut self,
        arena: &[Insn],
        k: usize,
        step: &TrailStep,
        pc: u64,
        prv: Priv,
    ) {
        // Without the models (which do not chain): no LCOFI to take here.
        let end = step.end();
        self.account_run(arena, k, end - k, pc, step.pc, prv, true);
    }

    /// Traced, for a sink that takes runs of simple instructions: run the chain of them from
    /// `arena[k]` at `pc` (`block_start`: the first of its block), through the blocks it
    /// enters as an untraced chain does, and hand the sink the runs, one per block, at once
    /// ([`Sink::simple_chain`]). `Continue`:
    /// the chain stopped before an instruction whose record must be built (its index and pc);
    /// `Break`: how the block the chain ended in ended.
    #[inline(always)]
    fn run_simple<S: Sink>(
        &mut self,
        arena: &[Insn],
        k: usize,
        pc: u64,
        block_start: bool,
        sink: &mut S,
    ) -> ControlFlow<BlockEnd, (usize, u64)> {
        // The handlers do not count the budget (`exec::Lim`): the rest of the block must fit
        // in it, else a copy cut to it runs.
        if self.past_budget(arena, k) {
            return self.run_simple_cut(arena, k, pc, block_start, sink);
        }
        let left = self.sched.budget;
        let (prv, time) = (self.hart.prv, self.bus.clint.mtime);
        // The chain runs at most TRAIL_INSNS, as many as there are effects and trail steps;
        // the rest of the budget waits here (as in `run_chain`).
        let rest = self.cut_budget(TRAIL_INSNS);
        let cut = left - rest;
        self.fx_chain(cut);
        // SAFETY: as in `run_chain`: `arena[k]` is checked; the block ends with an end
        // marker; the links are as long as the arena; the trail and the effects take the
        // chain's budget.
        let npc = if block_start && self.sched.chain_on() {
            // SAFETY: as above; with chaining on, `arena` is the arena, and `k` the start of
            // one of its blocks (`run_blocks`).
            unsafe { self.start_arena_chain(arena, k, pc, cut, false, true) }
        } else {
            // SAFETY: as above.
            unsafe { self.start_chain(self.tables[2], arena, k, pc, cut) }
        };
        self.restore_budget(rest);
        // A chain that used the budget up reached its block's (or cut's) end marker: it ends
        // at the next pc (hart.pc), as at a budget end after any instruction.
        let npc = if npc == DECODE && self.sched.budget == 0 {
            self.hart.pc
        } else {
            npc
        };
        // The blocks the chain left, whole (the first from `k`), then the one it ended in.
        let (first, (k, pc, block_start, done)) =
            self.simple_trail(arena, (k, pc, block_start), cut, prv);
        // Retired in the last block: all but one that raised an exception or must be built.
        let n = (left - self.sched.budget) as usize - done;
        let mut lcofi = false;
        if n != 0 {
            if self.mode.per_run() {
                lcofi = self.account_chain(arena, k, n, pc, npc, prv, block_start);
            }
            // Its run, as one step more on the trail: it ends at `k + n`, before the next pc
            // (a transfer, or the end of the budget; else hart.pc: see `report_run`).
            let next_pc = if npc & 1 == 0 { npc } else { self.hart.pc };
            self.sched.trail.push_last(TrailStep {
                end: ((k + n) * crate::exec::IX_STEP) as u32,
                next: 0,
                pc: next_pc,
            });
        }
        // The chain's runs, to the sink at once.
        let len = self.sched.trail.len();
        if len != 0 {
            self.report_pulse(sink);
        }
        if first.step < len {
            // SAFETY: the trail's steps from `first` each end a run of one instruction or
            // more (an empty first block was skipped), whose effects the handlers left at
            // their places in the chain: `done + n` of them.
            let chain = unsafe {
                SimpleChain::new(
                    arena,
                    (first.k, first.pc),
                    &self.sched.trail.steps[first.step..len],
                    &self.effects[..done + n],
                    (prv, time, self.fetch_page),
                )
            };
            sink.simple_chain(&chain);
        }
        self.sched.trail.clear();
        if let Some(end) = self.chain_end(npc, lcofi) {
            return ControlFlow::Break(end);
        }
        if npc == BUILD {
            // Nothing executed at hart.pc.
            if lcofi {
                return ControlFlow::Break(BlockEnd::End(ChunkEnd::Serialize));
            }
            return ControlFlow::Continue((k + n, self.hart.pc));
        }
        let d = &arena[k + n];
        if npc == TRAP {
            // The instruction that raised it: its record, to which the trap adds.
            self.start_record(self.hart.pc, d, prv, time);
        }
        // SERIALIZE, REFETCH, WFI: retired, in the run.
        let e = self.finish_unusual(d, self.hart.pc, npc, false, sink);
        ControlFlow::Break(BlockEnd::End(after_lcofi(e, lcofi)))
    }

    /// After a chain of simple runs from `arena[k]` at `pc` (`block_start`: the first of its
    /// block), whose budget was `cut`, in privilege `prv`: account for each block it left (on
    /// its trail), whole from its first instruction (the first block from `k`). Returns where
    /// the chain's runs start (the arena index and pc of the first one's first instruction,
    /// and the trail step that ends it: the first block is skipped when it is empty), and the
    /// arena index and pc of the block the chain ended in, whether that is its first
    /// instruction, and the instructions retired before it (the place of its first effect).
    /// The trail stays, for the sink.
    #[inline(always)]
    fn simple_trail(
        &mut self,
        arena: &[Insn],
        (k, pc, block_start): (usize, u64, bool),
        cut: u64,
        prv: Priv,
    ) -> (ChainStart, (usize, u64, bool, usize)) {
        let len = self.sched.trail.len();
        if len == 0 {
            return (ChainStart { k, pc, step: 0 }, (k, pc, block_start, 0));
        }
        // Out of the scheduler while it is read (an empty boxed slice allocates nothing).
        let steps = std::mem::take(&mut self.sched.trail.steps);
        let trail = &steps[..len];
        if self.mode.per_run() {
            // Without the models (which do not chain): no LCOFI to take here.
            if block_start {
                self.account_trail(arena, (k, pc), trail, prv);
            } else {
                let first = &trail[0];
                self.account_run(arena, k, first.end() - k, pc, first.pc, prv, false);
                self.account_trail(arena, (first.next(), first.pc), &trail[1..], prv);
            }
        }
        // The first block is empty when the chain started at its end marker, after a record
        // built for the instruction before it; every other block has an instruction or more.
        let first = if k == trail[0].end() {
            ChainStart {
                k: trail[0].next(),
                pc: trail[0].pc,
                step: 1,
            }
        } else {
            ChainStart { k, pc, step: 0 }
        };
        let last = trail[len - 1];
        // Retired before the last block: the chain's budget less what was left as it
        // entered that block.
        let done = (cut - self.sched.trail.rest_insns()) as usize;
        debug_assert_eq!(
            done,
            trail
                .iter()
                .fold((k, 0), |(k, n), s| (s.next(), n + s.end() - k))
                .1
        );
        self.sched.trail.steps = steps;
        (first, (last.next(), last.pc, true, done))
    }

    /// [`Machine::run_simple`] for the first instructions of the block at `arena[k]`, at
    /// `pc`, as many as the budget (less than the block's length) allows: from a copy of them
    /// whose end marker says where the block goes on, as [`Machine::run_cut`] runs them
    /// untraced (chaining off). `Continue` names the instruction in `arena`.
    #[cold]
    #[inline(never)]
    fn run_simple_cut<S: Sink>(
        &mut self,
        arena: &[Insn],
        k: usize,
        pc: u64,
        block_start: bool,
        sink: &mut S,
    ) -> ControlFlow<BlockEnd, (usize, u64)> {
        let n = self.sched.budget as usize;
        let cut = cut_block(arena, k, n);
        let chain = (self.sched.chain_va, self.sched.links);
        self.chain_off(n + 1);
        let e = self.run_simple(&cut[..=n], 0, pc, block_start, sink);
        (self.sched.chain_va, self.sched.links) = chain;
        match e {
            ControlFlow::Continue((i, pc)) => ControlFlow::Continue((k + i, pc)),
            end => end,
        }
    }

    /// How the block ends after a chain that returned `npc` (`lcofi`: an LCOFI must be taken
    /// first): at a transfer, the end of the budget or the block's end; `None` for the other
    /// sentinels.
    #[inline(always)]
    fn chain_end(&mut self, npc: u64, lcofi: bool) -> Option<BlockEnd> {
        if npc & 1 == 0 {
            if self.sched.budget == 0 {
                self.hart.pc = npc;
                return Some(BlockEnd::End(ChunkEnd::Budget));
            }
            if lcofi {
                self.hart.pc = npc;
                return Some(BlockEnd::End(ChunkEnd::Serialize));
            }
            return Some(BlockEnd::Next(npc));
        }
        if npc == DECODE {
            // Nothing executed at hart.pc.
            if lcofi {
                return Some(BlockEnd::End(ChunkEnd::Serialize));
            }
            // A chain's last block used the budget up (`exec::Lim`).
            if self.sched.budget == 0 {
                return Some(BlockEnd::End(ChunkEnd::Budget));
            }
            return Some(BlockEnd::Next(self.hart.pc));
        }
        None
    }

    /// Start the record of `d` at `pc`, fetched from the current fetch page.
    #[inline(always)]
    fn start_record(&mut self, pc: u64, d: &Insn, prv: Priv, time: u64) {
        self.rec.reset(pc, d, prv, time);
        self.rec.fetch_pa = Some(fetch_pa(self.fetch_page, pc));
    }

    /// For a sink that takes simple runs: make `effects` as long as the longest chain of
    /// them ([`TRAIL_INSNS`]: the handlers keep each effect at its place in the chain).
    #[inline(always)]
    fn fit_effects<S: Sink>(&mut self) {
        if S::DETAIL.simple_runs() && self.effects.len() < TRAIL_INSNS as usize {
            self.effects.resize(TRAIL_INSNS as usize, Effect::default());
        }
    }

    /// Tell a `RUNS` sink that the instructions of `run` (with the cache entry after them,
    /// and the first one's pc) retired in the chain that just returned `npc`.
    #[inline(always)]
    fn report_run<S: Sink>(
        &mut self,
        sink: &mut S,
        run: (&[Insn], &Insn, u64),
        npc: u64,
        prv: Priv,
        satp: u64,
    ) {
        let (insns, end, pc) = run;
        let next_pc = match npc {
            // A transfer, or the end of the budget after a sequential instruction.
            npc if npc & 1 == 0 => npc,
            // SERIALIZE, REFETCH, WFI, the block's end: hart.pc is the next instruction.
            // TRAP, IRQ: the instruction at hart.pc did not retire; those before it did.
            _ => self.hart.pc,
        };
        sink.run(&Run {
            insns,
            pc,
            next_pc,
            prv,
            time: self.bus.clint.mtime,
            satp,
            end,
        });
    }

    /// Trace actions of debug triggers fired for the instruction whose retirement the sink
    /// hears of next: tell it first ([`Sink::trigger`]).
    #[inline(always)]
    fn report_pulse<S: Sink>(&mut self, sink: &mut S) {
        if self.hart.trig.pulse != 0 {
            self.send_pulse(sink);
        }
    }

    #[cold]
    #[inline(never)]
    fn send_pulse<S: Sink>(&mut self, sink: &mut S) {
        let bits = std::mem::take(&mut self.hart.trig.pulse);
        sink.trigger(bits);
    }

    /// The cases where a handler returned a sentinel other than the end of a block. `d` and
    /// `pc` are the instruction's when traced (untraced, `hart.pc` says where); `built`: its
    /// record is in `rec`, for the sink (else the sink has it in a run, or wants none).
    #[cold]
    #[inline(never)]
    fn finish_unusual<S: Sink>(
        &mut self,
        d: &Insn,
        pc: u64,
        npc: u64,
        built: bool,
        sink: &mut S,
    ) -> ChunkEnd {
        match npc {
            TRAP => return self.trap_at(self.hart.pc, d, sink),
            IRQ => return ChunkEnd::Serialize,
            _ => {}
        }
        // SERIALIZE, REFETCH and WFI: the instruction retired and set hart.pc.
        if S::DETAIL.records() && built {
            debug_assert_eq!(self.rec.pc, pc);
            self.rec.next_pc = self.hart.pc;
            self.report_pulse(sink);
            sink.retire(&self.rec);
        }
        if self.sched.stop_requested {
            return ChunkEnd::Budget;
        }
        match npc {
            SERIALIZE => ChunkEnd::Serialize,
            WFI => {
                self.sched.waiting = true;
                ChunkEnd::EndQuantum
            }
            _ => {
                debug_assert_eq!(npc, REFETCH);
                if self.sched.budget == 0 {
                    ChunkEnd::Budget
                } else {
                    ChunkEnd::Refetch
                }
            }
        }
    }

    /// The instruction at `pc` raised the exception in `self.exc`: record and take it.
    #[cold]
    fn trap_at<S: Sink>(&mut self, pc: u64, d: &Insn, sink: &mut S) -> ChunkEnd {
        // The PMU and CTR see every run before the trap (and before an SBI call).
        self.events_flush();
        // The built-in SBI takes what would go to M-mode (crate::sbi).
        let mut redirect = false;
        if self.config.sbi {
            match self.sbi_trap(pc, d, sink) {
                SbiTrap::NotMine => {}
                SbiTrap::Redirect => redirect = true,
                SbiTrap::Retry => return self.trap_at(pc, d, sink),
                SbiTrap::Done(Then::Return) => return ChunkEnd::Serialize,
                SbiTrap::Done(Then::Suspend(_)) => {
                    self.sched.waiting = true;
                    return ChunkEnd::EndQuantum;
                }
                SbiTrap::Done(Then::Stop(s)) => return ChunkEnd::Stop(s),
            }
        }
        let medeleg = self.hart.csr.medeleg;
        if redirect {
            self.hart.csr.medeleg |= 1 << self.exc.0.code();
        }
        let end = self.take_exception(pc, d, sink);
        self.hart.csr.medeleg = medeleg;
        end
    }

    /// Take the exception in `self.exc`, raised at `pc` by `d`: record it and take the trap.
    fn take_exception<S: Sink>(&mut self, pc: u64, d: &Insn, sink: &mut S) -> ChunkEnd {
        let (cause, tval) = self.exc;
        // A debug trigger's trace action pulses with a retirement: this one did not retire.
        self.hart.trig.pulse = 0;
        if S::DETAIL.records() {
            if d.op == Op::NotDecoded {
                self.rec.reset(pc, d, self.hart.prv, self.bus.clint.mtime);
            }
            self.rec.exception = Some((cause, tval));
            self.rec.next_pc = self.trap_target(cause);
            sink.retire(&self.rec);
        }
        let insn = (d.op != Op::NotDecoded).then_some(*d);
        // A debug trigger's breakpoint does not end the quantum (`crate::trigger`).
        let fired = std::mem::take(&mut self.hart.trig.fired);
        self.hart.trig.took = fired;
        self.hart.trig.log_trigger = fired;
        self.take_trap(cause, tval, pc, insn, sink);
        match self.note_trap(pc, cause, tval) {
            Some(s) => ChunkEnd::Stop(s),
            None if fired => ChunkEnd::Serialize,
            None => ChunkEnd::EndQuantum,
        }
    }

    /// Execute exactly one instruction, or take one pending interrupt, outside the quantum
    /// model (time does not advance). For the tandem verifier's reference hart and for tests.
    pub fn step<S: Sink>(&mut self, sink: &mut S) -> StepOutcome {
        if self.forced_trap.is_some() {
            return self.step_insn(sink);
        }
        if let Some(irq) = self.pending_interrupt() {
            let pc = self.hart.pc;
            self.take_trap(Cause::Interrupt(irq), 0, pc, None, sink);
            return StepOutcome::Interrupt(irq);
        }
        self.step_insn(sink)
    }

    /// Execute exactly one instruction, even if an interrupt is pending and enabled: for a
    /// checker that follows a core which took the interrupt later (the checker reports
    /// that itself).
    pub fn step_insn<S: Sink>(&mut self, sink: &mut S) -> StepOutcome {
        let pc = self.hart.pc;
        if let Some((cause, tval)) = self.forced_trap {
            self.forced_trap = None;
            return self.take_forced_trap(pc, cause, tval, sink);
        }
        let (d, pa) = match self.fetch_one_triggered(pc) {
            Ok(x) => x,
            Err(()) => {
                self.sched.budget = 0;
                self.sched.budget_start = 0;
                let _ = self.trap_at(pc, &Insn::NOT_DECODED, sink);
                return StepOutcome::Exception(self.exc.0);
            }
        };
        self.sched.budget = 1;
        self.sched.budget_start = 1;
        let prv = self.hart.prv;
        if S::WATCH {
            sink.watch(self, crate::record::At::Insn(&d));
        }
        if S::DETAIL.records() || self.mode.per_run() {
            self.fetch_page = (pc & !(PAGE_SIZE - 1), pa & !(PAGE_SIZE - 1));
            if S::DETAIL.records() {
                self.rec.reset(pc, &d, prv, self.bus.clint.mtime);
                self.rec.fetch_pa = Some(pa);
            }
        }
        let npc = if S::DETAIL.records() {
            self.exec::<true>(&d, pc)
        } else {
            self.exec::<false>(&d, pc)
        };
        self.sched.budget = 0;
        self.sched.budget_start = 0;
        if npc == TRAP {
            let _ = self.trap_at(pc, &d, sink);
            return StepOutcome::Exception(self.exc.0);
        }
        self.retired += 1;
        if npc & 1 == 0 {
            self.hart.pc = npc;
        } else if npc == WFI {
            self.sched.waiting = true;
        }
        if self.mode.per_run() {
            let block = [d, Insn::NOT_DECODED];
            self.account_run(&block, 0, 1, pc, npc, prv, false);
        }
        self.events_flush();
        if !self.mode.models() {
            self.pmu_sync();
            self.pmu_after(1);
        }
        if S::DETAIL.records() {
            self.rec.next_pc = self.hart.pc;
            self.report_pulse(sink);
            sink.retire(&self.rec);
        }
        StepOutcome::Retired
    }

    /// Raise a trap now, as the embedding program says (a core's bus error or NMI that the
    /// model cannot know, an interrupt the testbench decided): the next step ([`Machine::step`],
    /// [`Machine::step_insn`]) takes it at the current pc instead of executing, whatever the
    /// enables and delegation say about interrupts (delegation still chooses the mode). An
    /// exception's record shows the instruction at the pc, as an excepting instruction's does.
    pub fn raise_trap(&mut self, cause: Cause, tval: u64) {
        self.forced_trap = Some((cause, tval));
    }

    /// The instruction the single-step table holds for `pc` decoded from `raw`, if it does
    /// (no side effects: for a look ahead at the next instruction).
    #[inline]
    pub fn step_decoded_for(&self, pc: u64, raw: u32) -> Option<Insn> {
        let slot = &self.step_decoded[(pc >> 1) as usize & (STEP_DECODED - 1)];
        (slot.0 == raw && slot.1.op != Op::NotDecoded).then_some(slot.1)
    }

    /// The instruction the next step would execute, when that is quick to know: its page is
    /// in the fetch TLB and the single-step table holds its decode. No side effects; `None`
    /// says "not known this way" (the caller fetches through the walk), not "no instruction".
    #[inline]
    pub fn peek_step_insn(&self) -> Option<Insn> {
        let pc = self.hart.pc;
        if pc & (PAGE_SIZE - 1) > PAGE_SIZE - 4 {
            return None;
        }
        let off = self.tlb.lookup(Access::Fetch, pc)?;
        let word = self.bus.ram.read(off as usize, 4) as u32;
        let raw = if word & 3 != 3 { word & 0xffff } else { word };
        self.step_decoded_for(pc, raw)
    }

    /// The low 16 bits of the instruction at pc, as the fetch TLB holds its page (no walk,
    /// no side effects); `None` when the TLB does not hold it.
    #[inline]
    pub fn peek_step_u16(&self) -> Option<u16> {
        let off = self.tlb.lookup(Access::Fetch, self.hart.pc)?;
        Some(self.bus.ram.read(off as usize, 2) as u16)
    }

    /// The RAM offset of a data access at `va` as the data TLB holds it (no walk, no side
    /// effects), for `len` bytes that stay in the page; `None` when the TLB does not hold it.
    #[inline]
    pub fn tlb_ram_offset(&self, va: u64, len: u64, access: Access) -> Option<usize> {
        if (va & (PAGE_SIZE - 1)) + len > PAGE_SIZE {
            return None;
        }
        self.tlb.lookup(access, va).map(|off| off as usize)
    }

    /// The trap [`Machine::raise_trap`] asked for and the next step will take, if any.
    pub fn forced_trap(&self) -> Option<(Cause, u64)> {
        self.forced_trap
    }

    /// The trap [`Machine::raise_trap`] asked for, taken at `pc`.
    fn take_forced_trap<S: Sink>(
        &mut self,
        pc: u64,
        cause: Cause,
        tval: u64,
        sink: &mut S,
    ) -> StepOutcome {
        self.sched.budget = 0;
        self.sched.budget_start = 0;
        if let Cause::Interrupt(irq) = cause {
            self.take_trap(cause, 0, pc, None, sink);
            return StepOutcome::Interrupt(irq);
        }
        let d = self.fetch_one(pc).map_or(Insn::NOT_DECODED, |(d, _)| d);
        if S::DETAIL.records() {
            self.rec.reset(pc, &d, self.hart.prv, self.bus.clint.mtime);
        }
        self.exc = (cause, tval);
        let _ = self.take_exception(pc, &d, sink);
        StepOutcome::Exception(cause)
    }

    /// Fetch and decode the instruction at `pc` for a single step. The blocks of the decode
    /// cache are the run loop's; a step keeps its own small table of the instructions it
    /// decoded, by pc, each with the bits it was decoded from: what is fetched is compared
    /// with them, so a changed instruction (self-modifying code, a new page mapping) is
    /// decoded again, and the decode of a loop's instructions is not repeated every step.
    /// Also returns the physical address of its first half-word (in RAM or the boot ROM).
    #[inline]
    pub(crate) fn fetch_one(&mut self, pc: u64) -> Result<(Insn, u64), ()> {
        // The common case: the fetch TLB holds the page (wholly RAM, wholly fetchable) and the
        // word does not cross its end, so one read gives both halves.
        if pc & (PAGE_SIZE - 1) <= PAGE_SIZE - 4 {
            if let Some(off) = self.tlb.lookup(Access::Fetch, pc) {
                let word = self.bus.ram.read(off as usize, 4) as u32;
                let raw = if word & 3 != 3 { word & 0xffff } else { word };
                let pa = self.bus.ram.base() + off;
                let slot = &self.step_decoded[(pc >> 1) as usize & (STEP_DECODED - 1)];
                if slot.0 == raw && slot.1.op != Op::NotDecoded {
                    return Ok((slot.1, pa));
                }
            }
        }
        self.fetch_one_slow(pc)
    }

    /// [`Machine::fetch_one`] for an instruction about to execute: with a debug trigger armed
    /// (then every instruction comes here, one at a time), the triggers see it first.
    #[inline]
    fn fetch_one_triggered(&mut self, pc: u64) -> Result<(Insn, u64), ()> {
        if !self.hart.trig.armed {
            return self.fetch_one(pc);
        }
        self.trig_before_fetch(pc)?;
        let (d, pa) = self.fetch_one(pc)?;
        self.trig_after_fetch(pc, d.bits, d.len)?;
        Ok((d, pa))
    }

    /// [`Machine::fetch_one`] half-word by half-word, through the page walk, and decoding.
    #[inline(never)]
    fn fetch_one_slow(&mut self, pc: u64) -> Result<(Insn, u64), ()> {
        let (lo, pa, whole_page) = self.fetch_half(pc)?;
        let raw = if lo & 3 != 3 {
            lo as u32
        } else {
            // The upper half in the same page as a lower half the fetch TLB holds (a page it
            // holds is wholly readable for fetches, and RAM) is at the next offset.
            let hi = if whole_page && pc & (PAGE_SIZE - 1) != PAGE_SIZE - 2 {
                self.bus
                    .ram
                    .read_u16((pa - self.bus.ram.base()) as usize + 2)
            } else {
                self.fetch_half(pc.wrapping_add(2))?.0
            };
            lo as u32 | (hi as u32) << 16
        };
        let slot = &mut self.step_decoded[(pc >> 1) as usize & (STEP_DECODED - 1)];
        if slot.0 == raw && slot.1.op != Op::NotDecoded {
            return Ok((slot.1, pa));
        }
        let d = self.config.isa.filter(if lo & 3 != 3 {
            decode16(lo)
        } else {
            decode32(raw)
        });
        *slot = (raw, d);
        Ok((d, pa))
    }

    /// The exception recorded for a failed fetch or execution.
    pub fn last_exception(&self) -> (Cause, u64) {
        self.exc
    }
}

/// A run that raised LCOFI must let the run loop take it: a refetch becomes a serialize.
#[inline(always)]
fn after_lcofi(e: ChunkEnd, lcofi: bool) -> ChunkEnd {
    match e {
        ChunkEnd::Refetch if lcofi => ChunkEnd::Serialize,
        e => e,
    }
}

/// What [`Machine::step`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepOutcome {
    Retired,
    Exception(Cause),
    Interrupt(arch::Interrupt),
}
