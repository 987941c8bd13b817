//! Instruction semantics, one small handler function per operation, reached through a table
//! indexed by the decoded [`Op`]. Each handler reads only the operand fields it needs, in place
//! in the decoded block. RV64I and M are here; the rest is grouped by extension: [`a`]
//! (atomics), [`fd`] (F and D), [`zicsr`] (CSR access), [`system`] (xRET, WFI, fences).
//!
//! A handler executes instruction `a[k]` (its place [`Ix`]) of the block that starts at `bpc`
//! (so at `pc = bpc + a[k].block_off()`: a handler that falls through passes `bpc` on as it
//! came, and a straight-line instruction never computes its pc) with the budget `left` ([`Lim`]:
//! at least 1 instruction, or none at an end marker). Untraced, a handler whose instruction
//! falls through to the next one dispatches that one itself, without counting the budget (threaded code: a tail call, one indirect jump site per handler), so a block runs
//! without returning to the run loop; the recursion is bounded by the block length where the
//! compiler does not turn the call into a jump. The chain stops at a control transfer, a
//! sentinel, the block's end marker or the end of the budget, returning the next pc or one of
//! the odd sentinels below (no real pc is odd with C), with `sched.budget` set to what is left
//! and, for sentinels, `hart.pc` set as each says. Traced (`REC`), handlers do not chain: the
//! run loop sees every instruction to hand its record to the sink. For a sink that takes runs
//! of simple instructions ([`crate::record::Detail::SimpleRuns`]), the handlers of operations
//! whose records have a fixed shape chain as untraced and leave each instruction's
//! [`Effect`](crate::record::Effect) at its place in the chain (`FX`, [`Machine::effect`]);
//! the others stop the chain before they execute ([`BUILD`]) so that the run loop builds
//! their records.
//!
//! Untraced runs chain from block to block too ([`chain`]), CTR's tables included (their jumps
//! and branches tell CTR as they go). When the run loop must see every block's run (the PMU
//! counting instruction classes, a sink that takes runs), the chain goes on through the `TR`
//! tables, which leave a trail of the blocks they enter ([`crate::run::Trail`]) for the run
//! loop to account for and report after the chain. The `FX` tables chain from block to block
//! the same way, leaving the same trail.

mod a;
mod fd;
pub(crate) use fd::*;
pub mod cbo;
pub(crate) mod system;
pub(crate) mod zicsr;

use crate::classify::flow_ctr_type;
use crate::insn::{Insn, Op};
use crate::machine::Machine;
use crate::ops::Flow;
use crate::record::{Reg, Shape, SHAPES};
use arch::{Cause, Exception};

/// The instruction raised the exception in `Machine::exc`; it did not retire; `hart.pc` is its
/// pc.
pub(crate) const TRAP: u64 = 1;
/// The instruction retired; `hart.pc` holds the next pc; pending interrupts must be re-checked
/// before the next instruction (CSR writes, xRET).
pub(crate) const SERIALIZE: u64 = 3;
/// The instruction retired; `hart.pc` holds the next pc; the decoded-instruction cache changed
/// (fence.i), so the run loop must look the page up again.
pub(crate) const REFETCH: u64 = 5;
/// WFI retired; `hart.pc` holds the next pc; the hart waits for an interrupt.
pub(crate) const WFI: u64 = 7;
/// The instruction did not execute: a pending interrupt must be taken first (before a CSR
/// instruction); `hart.pc` is its pc.
pub(crate) const IRQ: u64 = 9;
/// The end of a block: nothing executed; `hart.pc` is where execution goes on.
pub(crate) const DECODE: u64 = 11;
/// In the `FX` tables: the instruction did not execute, as its record must be built (its
/// operation's [`Shape`] is `Built`, or FS is not Dirty for an FP one); `hart.pc` is its pc.
pub(crate) const BUILD: u64 = 13;

/// An instruction handler: `(machine, block, place in the block, [`Spare`], block's pc, budget
/// left) -> next pc`.
///
/// # Safety
///
/// `k < block.len()`, and the block goes on after every instruction that is not an end
/// marker ([`Op::NotDecoded`], whose handler reads nothing): every block of the decode
/// cache's arena ends with one, as does every block built for a single instruction
/// (`[insn, Insn::single_end(len)]`). Handlers read their instruction, and the next one when they
/// fall through to it, without bounds checks ([`at`]).
pub(crate) type Handler = unsafe fn(&mut Machine, Blk<'_>, Ix, Spare, u64, Lim) -> u64;

/// A handler's fourth argument, which holds nothing: it keeps the register it is passed in
/// (rcx on x86-64, the only register a shift by a variable count can take its count from)
/// free for the handlers, which would otherwise move the pc out of it and back around every
/// shift.
pub(crate) type Spare = std::mem::MaybeUninit<u64>;

/// The [`Spare`] argument handlers pass on.
pub(crate) const SPARE: Spare = std::mem::MaybeUninit::uninit();

/// The step of an [`Ix`] from one instruction to the next: the size of a link
/// ([`Scheduler::links`]), so that a place addresses the instruction's link without scaling
/// (and the instruction itself with the scale of an address, `a + 4 * k`).
///
/// [`Scheduler::links`]: crate::run::Scheduler::links
pub(crate) const IX_STEP: usize = std::mem::size_of::<u32>();
/// [`IX_STEP`] in [`Lim`]'s units.
const INSN: u64 = IX_STEP as u64;
const _: () = assert!(std::mem::size_of::<Insn>() == 4 * IX_STEP);

/// The budget of instructions as handlers pass it on: the place in the block or arena (an
/// [`Ix`]'s offset) at which it would run out if the chain went on in straight line, so
/// that `a[k]` has `(lim - k) / IX_STEP` instructions left, itself included ([`Lim::count`]).
///
/// An untraced handler that falls through passes it on as it came: nothing counts or checks
/// the budget instruction by instruction. Instead a chain enters a block only with at least
/// [`MAX_BLOCK`](crate::dcache::MAX_BLOCK) instructions of budget left ([`ENTER_MIN`]), as
/// many as the longest block has, so a block never runs out of budget part way; and the run
/// loop starts a chain only in a block that fits its budget, running the part of a block that
/// a short budget allows from a copy cut to it (`Machine::run_block`). A block's end marker
/// may be reached with no budget left: it retires nothing. The record (`REC`) handlers return
/// after every instruction; those of simple runs (`FX`) chain as the untraced ones do, the
/// run loop starting them where the rest of the block fits (or in a copy cut to the budget,
/// `Machine::run_simple`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lim(u64);

/// The budget, in [`Lim`]'s units, below which a chain does not enter another block.
const ENTER_MIN: u64 = crate::dcache::MAX_BLOCK as u64 * INSN;

impl Lim {
    /// `left` instructions of budget from `a[k]` on.
    #[inline(always)]
    pub(crate) fn new(k: Ix, left: u64) -> Lim {
        Lim(k.0 as u64 + left * INSN)
    }

    /// The instructions left at `a[k]`, itself included.
    #[inline(always)]
    pub(crate) fn count(self, k: Ix) -> u64 {
        self.here(k) / INSN
    }

    /// The budget at `a[k]`, in these units, with nothing retired there (at an end marker).
    #[inline(always)]
    fn here(self, k: Ix) -> u64 {
        debug_assert!(self.0 >= k.0 as u64, "budget {:#x} at {:#x}", self.0, k.0);
        self.0 - k.0 as u64
    }

    /// The budget after `a[k]` retired, in these units (the place of a block entered then
    /// is added to it).
    #[inline(always)]
    fn after(self, k: Ix) -> u64 {
        debug_assert!(self.0 > k.0 as u64, "budget {:#x} at {:#x}", self.0, k.0);
        self.0 - k.0 as u64 - INSN
    }
}

/// The block (or arena) a handler runs in: a slice's start alone, so that it takes one
/// register of the six the calling convention passes arguments in, not two; the slice's
/// length is kept in debug builds only, where [`at`] checks against it.
#[derive(Clone, Copy)]
pub(crate) struct Blk<'a> {
    p: *const Insn,
    #[cfg(debug_assertions)]
    len: usize,
    _a: std::marker::PhantomData<&'a [Insn]>,
}

impl<'a> Blk<'a> {
    #[inline(always)]
    pub(crate) fn new(a: &'a [Insn]) -> Blk<'a> {
        Blk {
            p: a.as_ptr(),
            #[cfg(debug_assertions)]
            len: a.len(),
            _a: std::marker::PhantomData,
        }
    }
}

/// An instruction's place in its block, as handlers pass it: its index times [`IX_STEP`],
/// the byte offset of its link, so that they address the instruction (scaled by 4, in the
/// address itself) and its link without shifting an index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ix(usize);

impl Ix {
    /// The place of `a[k]`.
    #[inline(always)]
    pub(crate) fn new(k: usize) -> Ix {
        Ix(k * IX_STEP)
    }

    /// A place kept as a number (a trail step's, `run::TrailStep`).
    #[inline(always)]
    pub(crate) fn from_place(place: u32) -> Ix {
        Ix(place as usize)
    }

    /// The index in the block (`k` of `a[k]`).
    #[inline(always)]
    pub(crate) fn k(self) -> usize {
        self.0 / IX_STEP
    }

    /// The place of the next instruction.
    #[inline(always)]
    pub(crate) fn next(self) -> Ix {
        Ix(self.0 + IX_STEP)
    }

    /// The place `n` instructions on.
    #[inline(always)]
    pub(crate) fn next_n(self, n: usize) -> Ix {
        Ix(self.0 + n * IX_STEP)
    }

    /// The byte offset of the instruction at this place.
    #[inline(always)]
    pub(crate) fn bytes(self) -> usize {
        self.0 * (std::mem::size_of::<Insn>() / IX_STEP)
    }
}

/// `a[k]` at place `k`, without a bounds check (debug builds check).
///
/// # Safety
///
/// `k` is in the block: `k.k()` is less than the length of the slice `a` was made from.
#[inline(always)]
pub(crate) unsafe fn at(a: Blk<'_>, k: Ix) -> &Insn {
    #[cfg(debug_assertions)]
    assert!(
        k.k() < a.len,
        "instruction {} of a block of {}",
        k.k(),
        a.len
    );
    // SAFETY: the caller's promise.
    unsafe { &*a.p.byte_add(k.bytes()) }
}

/// The handlers when no record is built.
pub(crate) static HANDLERS: [Handler; 256] = table::<false, false, false, false, false>();
/// The handlers that also fill the retirement record.
pub(crate) static HANDLERS_REC: [Handler; 256] = table::<true, false, false, false, false>();
/// [`HANDLERS`] whose jumps and branches also tell CTR ([`crate::events::ExecMode::ctr_chain`]).
pub(crate) static HANDLERS_CTR: [Handler; 256] = table::<false, true, false, false, false>();
/// [`HANDLERS_REC`] whose jumps and branches also tell CTR.
pub(crate) static HANDLERS_REC_CTR: [Handler; 256] = table::<true, true, false, false, false>();
/// The handlers of runs of simple instructions: [`HANDLERS`] that leave each instruction's
/// effect, for the operations of fixed shapes; [`BUILD`] for the others.
pub(crate) static HANDLERS_FX: [Handler; 256] = table::<false, false, true, false, false>();
/// [`HANDLERS_FX`] whose jumps and branches also tell CTR.
pub(crate) static HANDLERS_FX_CTR: [Handler; 256] = table::<false, true, true, false, false>();

/// The same six tables for a hart without C (IALIGN 32), whose jumps and taken branches to
/// an address that is not 4-byte aligned raise instruction-address-misaligned (a check the
/// tables above, of harts with C, do not make: it costs them nothing).
pub(crate) static HANDLERS_I32: [Handler; 256] = table::<false, false, false, true, false>();
pub(crate) static HANDLERS_REC_I32: [Handler; 256] = table::<true, false, false, true, false>();
pub(crate) static HANDLERS_CTR_I32: [Handler; 256] = table::<false, true, false, true, false>();
pub(crate) static HANDLERS_REC_CTR_I32: [Handler; 256] = table::<true, true, false, true, false>();
pub(crate) static HANDLERS_FX_I32: [Handler; 256] = table::<false, false, true, true, false>();
pub(crate) static HANDLERS_FX_CTR_I32: [Handler; 256] = table::<false, true, true, true, false>();

/// The untraced handlers (with CTR or not, IALIGN 32 or not) whose chains leave a trail of the
/// blocks they enter ([`crate::run::Trail`]), for the run loop to account for or report each
/// block after the chain: the PMU counting instruction classes, a sink that takes runs.
pub(crate) static HANDLERS_TR: [Handler; 256] = table::<false, false, false, false, true>();
pub(crate) static HANDLERS_CTR_TR: [Handler; 256] = table::<false, true, false, false, true>();
pub(crate) static HANDLERS_TR_I32: [Handler; 256] = table::<false, false, false, true, true>();
pub(crate) static HANDLERS_CTR_TR_I32: [Handler; 256] = table::<false, true, false, true, true>();

/// The handler table for a recording mode, whether CTR hears of transfers from handlers, and
/// whether IALIGN is 32 (no C).
#[inline(always)]
pub(crate) fn handlers(rec: bool, ctr: bool, i32: bool) -> &'static [Handler; 256] {
    match (rec, ctr, i32) {
        (false, false, false) => &HANDLERS,
        (true, false, false) => &HANDLERS_REC,
        (false, true, false) => &HANDLERS_CTR,
        (true, true, false) => &HANDLERS_REC_CTR,
        (false, false, true) => &HANDLERS_I32,
        (true, false, true) => &HANDLERS_REC_I32,
        (false, true, true) => &HANDLERS_CTR_I32,
        (true, true, true) => &HANDLERS_REC_CTR_I32,
    }
}

/// The untraced handler table, whose chains leave a trail (`tr`) or not.
#[inline(always)]
pub(crate) fn chain_handlers(ctr: bool, i32: bool, tr: bool) -> &'static [Handler; 256] {
    match (ctr, i32, tr) {
        (ctr, i32, false) => handlers(false, ctr, i32),
        (false, false, true) => &HANDLERS_TR,
        (true, false, true) => &HANDLERS_CTR_TR,
        (false, true, true) => &HANDLERS_TR_I32,
        (true, true, true) => &HANDLERS_CTR_TR_I32,
    }
}

/// The handler table of runs of simple instructions.
#[inline(always)]
pub(crate) fn fx_handlers(ctr: bool, i32: bool) -> &'static [Handler; 256] {
    match (ctr, i32) {
        (false, false) => &HANDLERS_FX,
        (true, false) => &HANDLERS_FX_CTR,
        (false, true) => &HANDLERS_FX_I32,
        (true, true) => &HANDLERS_FX_CTR_I32,
    }
}

/// Evaluate a memory or CSR access; on `Err` the exception is already recorded: return TRAP.
macro_rules! tri {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(()) => return $crate::exec::TRAP,
        }
    };
}
pub(crate) use tri;

/// In a handler: evaluate a memory access; on `Err` stop the chain with TRAP.
macro_rules! htri {
    ($m:ident, $k:ident, $pc:ident, $left:ident, $e:expr) => {
        match $e {
            Ok(v) => v,
            Err(()) => return $crate::exec::special($m, $k, $pc, $left, $crate::exec::TRAP),
        }
    };
}
pub(crate) use htri;

/// Finish a handler whose instruction produced `r` (its next pc, or a sentinel): fall through
/// to the next instruction of the block, or stop the chain.
///
/// # Safety
///
/// As [`Handler`]'s: `a[k]` is the instruction that produced `r`.
#[inline(always)]
pub(crate) unsafe fn done<
    const REC: bool,
    const CTR: bool,
    const FX: bool,
    const I32: bool,
    const TR: bool,
>(
    m: &mut Machine,
    a: Blk<'_>,
    k: Ix,
    pc: u64,
    left: Lim,
    r: u64,
) -> u64 {
    if r == next(at(a, k), pc) {
        // `a[k]` fell through: it is not an end marker, so `a[k + 1]` exists.
        // The block's pc: `pc` less the same offset, which the caller just added to it.
        let bpc = pc.wrapping_sub(at(a, k).insn_off());
        if !REC && !FX {
            // The block fits in the budget (`Lim`): go on without counting.
            let d = at(a, k.next());
            return chain_handlers(CTR, I32, TR)[d.op as usize](m, a, k.next(), SPARE, bpc, left);
        }
        if FX {
            // The rest of the block fits in the budget (`Machine::run_simple`): go on without
            // counting, to the block's end marker at the latest.
            let d = at(a, k.next());
            return fx_handlers(CTR, I32)[d.op as usize](m, a, k.next(), SPARE, bpc, left);
        }
        m.sched.budget = left.count(k) - 1;
        return r;
    }
    if !REC && r & 1 == 0 {
        // A jump or taken branch: chain to the target's block when it is decoded in the
        // running block's page (see `Scheduler::chain_va`).
        let rest = left.after(k);
        let off = r.wrapping_sub(m.sched.chain_va.0);
        if rest >= ENTER_MIN && in_chain_page(off) {
            // SAFETY: chaining is on and `off` is in the page.
            let k2 = unsafe { chain_entry(m, off) };
            // Chaining is only on while `a` is the arena whose blocks the page's table
            // indexes (and holds arena indices of blocks).
            if k2 != 0 {
                // A transfer ends its block: its end marker follows.
                let taken = r != next(at(a, k), pc);
                return enter::<CTR, FX, I32, TR>(m, a, k.next(), Ix::new(k2), taken, r, rest);
            }
        }
        m.sched.budget = rest / INSN;
        return r;
    }
    special(m, k, pc, left, r)
}

/// Finish the handler of a direct jump or taken-or-not branch `a[k]` (whose target its pc
/// fixes) that produced `r`: as [`done`], but a transfer enters the target's block through
/// the link the decode cache keeps for `a[k]` ([`Scheduler::links`]), set on the first pass by
/// [`chain_link`].
///
/// [`Scheduler::links`]: crate::run::Scheduler::links
///
/// # Safety
///
/// As [`done`]'s.
#[inline(always)]
pub(crate) unsafe fn done_direct<
    const REC: bool,
    const CTR: bool,
    const FX: bool,
    const I32: bool,
    const TR: bool,
>(
    m: &mut Machine,
    a: Blk<'_>,
    k: Ix,
    pc: u64,
    left: Lim,
    r: u64,
) -> u64 {
    if !REC && r & 1 == 0 {
        let rest = left.after(k);
        if r != next(at(a, k), pc) {
            return chain::<CTR, FX, I32, TR, false>(m, a, k, k.next(), r, rest);
        }
        // Not taken: a jump or branch ends its block, so its end marker follows; go where
        // that goes without dispatching it.
        return chain::<CTR, FX, I32, TR, false>(m, a, k.next(), k.next(), r, rest);
    }
    done::<REC, CTR, FX, I32, TR>(m, a, k, pc, left, r)
}

/// Untraced or in a simple run (`FX`), with CTR or not: finish conditional branch `a[k]` at
/// `pc`, `taken` or not, as [`done_direct`] does, without finding out again from the next pc
/// whether it was taken. With CTR each path tells it its own transfer type, so that what the
/// settings want of that type is known there ([`Machine::chain_transfer_noted`], fixed).
///
/// # Safety
///
/// As [`Handler`]'s.
#[inline(always)]
unsafe fn branch_chain<const CTR: bool, const FX: bool, const I32: bool, const TR: bool>(
    m: &mut Machine,
    a: Blk<'_>,
    k: Ix,
    pc: u64,
    left: Lim,
    taken: bool,
) -> u64 {
    let d = at(a, k);
    if taken {
        let target = pc.wrapping_add(imm(d));
        if I32 && target & 2 != 0 {
            let r = m.misaligned_target(target);
            return special(m, k, pc, left, r);
        }
        let ty = arch::Itype::TakenBranch;
        return branch_to::<CTR, FX, I32, TR>(m, a, k, k, pc, left, target, ty);
    }
    // A branch ends its block, so its end marker follows: go where that goes.
    let ty = arch::Itype::NontakenBranch;
    branch_to::<CTR, FX, I32, TR>(m, a, k, k.next(), pc, left, next(d, pc), ty)
}

/// [`branch_chain`]'s end on each path: to `r` through `a[from]`'s link, having told CTR of
/// the transfer, of type `ty`.
///
/// # Safety
///
/// As [`Handler`]'s.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn branch_to<const CTR: bool, const FX: bool, const I32: bool, const TR: bool>(
    m: &mut Machine,
    a: Blk<'_>,
    k: Ix,
    from: Ix,
    pc: u64,
    left: Lim,
    r: u64,
    ty: arch::Itype,
) -> u64 {
    if CTR && !m.chain_transfer_noted::<true>(pc, r, ty, left.count(k)) {
        m.sched.ctr_ty = ty;
        return ctr_done::<false, true, FX, I32, TR>(m, a, k, pc, left, r);
    }
    chain::<CTR, FX, I32, TR, false>(m, a, from, k.next(), r, left.after(k))
}

/// Untraced or in a simple run (`FX`): go on at `r` from `a[k]`, a direct transfer or a
/// block's end marker, through `a[k]`'s link when it has one, with `rest` of budget in
/// [`Lim`]'s units (the transfer already retired); `a[end]` is the end marker of the block
/// being left. `END`: the end marker's own handler, which retires nothing, so an unlinked `r`
/// returns as [`DECODE`]. With chaining off, every link reads 0 ([`Scheduler::links`]).
///
/// [`Scheduler::links`]: crate::run::Scheduler::links
///
/// # Safety
///
/// As [`Handler`]'s.
#[inline(always)]
unsafe fn chain<
    const CTR: bool,
    const FX: bool,
    const I32: bool,
    const TR: bool,
    const END: bool,
>(
    m: &mut Machine,
    a: Blk<'_>,
    k: Ix,
    end: Ix,
    r: u64,
    rest: u64,
) -> u64 {
    if rest < ENTER_MIN {
        return chain_short::<CTR, FX, I32, TR, END>(m, a, k, end, r, rest);
    }
    // SAFETY: the links are as long as `a`, and a link is 0 or, with chaining on (`a` is the
    // arena), the arena index of a block (`DecodeCache::links_for`).
    let l = unsafe { link(m, k) };
    if l != Ix(0) {
        return enter::<CTR, FX, I32, TR>(m, a, end, l, k != end, r, rest);
    }
    chain_link::<CTR, FX, I32, TR, END>(m, a, k, end, r, rest)
}

/// Whether chaining is on and a target `off` bytes from [`Scheduler::chain_va`] is in the
/// running block's page: `off` (of an even target) is even, which it is only with chaining
/// on ([`CHAIN_OFF`] is odd), and less than the page's size.
///
/// [`Scheduler::chain_va`]: crate::run::Scheduler::chain_va
/// [`CHAIN_OFF`]: crate::run::CHAIN_OFF
#[inline(always)]
fn in_chain_page(off: u64) -> bool {
    off & (!(crate::bus::PAGE_SIZE - 1) | 1) == 0
}

/// The arena index of the block that starts `off` bytes into the running block's page (0:
/// none), from the page's table ([`Scheduler::chain_entries`]).
///
/// [`Scheduler::chain_entries`]: crate::run::Scheduler::chain_entries
///
/// # Safety
///
/// Chaining is on, and `off` is in the page ([`in_chain_page`]).
#[inline(always)]
unsafe fn chain_entry(m: &Machine, off: u64) -> usize {
    debug_assert!(m.sched.chain_on() && in_chain_page(off));
    // SAFETY: the table has an entry per halfword slot of the page, and is valid while
    // chaining is on (no block is decoded during a chain).
    unsafe { *(m.sched.chain_entries as *const u32).add((off >> 1) as usize) as usize }
}

/// The link of `a[k]`: the place of the block it goes to (`Ix(0)`: none).
///
/// # Safety
///
/// As [`Handler`]'s: `a[k]` is in the arena, as long as the links.
#[inline(always)]
unsafe fn link(m: &Machine, k: Ix) -> Ix {
    // SAFETY: the links are as long as `a`, and a link is 0 or, with chaining on (`a` is the
    // arena), the place of a block (`DecodeCache::links_for`).
    // (`k.0` is the link's byte offset: `IX_STEP` is a link's size.)
    Ix(unsafe { *(m.sched.links as *const u8).add(k.0).cast::<u32>() as usize })
}

/// The size of the block at `a[l]` in [`Lim`]'s units: up to its end marker.
///
/// # Safety
///
/// `a[l]` starts a block, which ends with an end marker as every block does.
#[inline(always)]
unsafe fn block_size(a: Blk<'_>, l: Ix) -> u64 {
    let mut i = l;
    while at(a, i).op != Op::NotDecoded {
        i = i.next();
    }
    (i.0 - l.0) as u64
}

/// [`chain`] with less than [`ENTER_MIN`] of budget left, near the end of the chain's budget:
/// enter the block `a[k]` links to only if the budget covers its length; else stop, and the
/// run loop runs the part of the block the budget allows.
///
/// # Safety
///
/// As [`Handler`]'s.
#[cold]
#[inline(never)]
unsafe fn chain_short<
    const CTR: bool,
    const FX: bool,
    const I32: bool,
    const TR: bool,
    const END: bool,
>(
    m: &mut Machine,
    a: Blk<'_>,
    k: Ix,
    end: Ix,
    r: u64,
    rest: u64,
) -> u64 {
    let l = unsafe { link(m, k) };
    if l != Ix(0) && unsafe { block_size(a, l) } <= rest {
        return enter::<CTR, FX, I32, TR>(m, a, end, l, k != end, r, rest);
    }
    stop_chain::<END>(m, r, rest)
}

/// Untraced or in a simple run (`FX`), chaining: leave the block whose end marker is `a[end]`
/// for the block at `a[l]`, at `r` (`taken`: not its fall-through), with `rest` of budget in [`Lim`]'s units, which the whole
/// block fits (at least [`ENTER_MIN`], or its size: [`chain_short`]); with `TR` or `FX`, on
/// the chain's trail ([`crate::run::Trail`]).
///
/// # Safety
///
/// As [`Handler`]'s; `a[l]` starts a block, and `a` is the arena.
#[inline(always)]
unsafe fn enter<const CTR: bool, const FX: bool, const I32: bool, const TR: bool>(
    m: &mut Machine,
    a: Blk<'_>,
    end: Ix,
    l: Ix,
    taken: bool,
    r: u64,
    rest: u64,
) -> u64 {
    if TR || FX {
        m.sched.trail.push(end.0, l.0, taken, r, rest);
    }
    // The whole block fits the budget: its handlers do not count.
    debug_assert!(
        unsafe { block_size(a, l) } <= rest,
        "a block of {} entered with {}",
        unsafe { block_size(a, l) } / INSN,
        rest / INSN
    );
    let lim = Lim(l.0 as u64 + rest);
    // SAFETY: the caller's promise.
    unsafe { start_block::<CTR, I32, TR, FX>(m, a, l, r, lim) }
}

/// A chain (untraced, with CTR's handlers or not, without C or not, with a trail or not, or
/// of simple runs: `CTR`, `I32`, `TR`, `FX`) enters the block at `a[l]`, at `bpc`, with
/// budget `lim` (which it fits): run it through the chain's handlers ([`chain_handlers`] or
/// [`fx_handlers`]), starting with its compiled code when it has some ([`crate::jit`]), else
/// counting the entry towards its compilation.
///
/// # Safety
///
/// As [`Handler`]'s; `a` is the arena and `a[l]` starts one of its blocks.
#[inline(always)]
pub(crate) unsafe fn start_block<
    const CTR: bool,
    const I32: bool,
    const TR: bool,
    const FX: bool,
>(
    m: &mut Machine,
    a: Blk<'_>,
    l: Ix,
    bpc: u64,
    lim: Lim,
) -> u64 {
    // SAFETY: `a[l]` is in the arena.
    let v = unsafe { m.dcache.native(FX, l.k()) };
    if v >= crate::jit::NATIVE_MIN {
        return unsafe { run_native::<CTR, I32, TR, FX>(m, a, l, bpc, lim, v) };
    }
    if v < crate::jit::HOT - 1 {
        m.dcache.set_native(FX, l.k(), v + 1);
    } else if v == crate::jit::HOT - 1 {
        return unsafe { compile_native::<CTR, I32, TR, FX>(m, a, l, bpc, lim) };
    }
    unsafe { chain_at::<CTR, I32, TR, FX>(m, a, l, bpc, lim) }
}

/// Go on at `a[k]` in the chain's handler (as [`start_block`]'s).
///
/// # Safety
///
/// As [`Handler`]'s.
#[inline(always)]
unsafe fn chain_at<const CTR: bool, const I32: bool, const TR: bool, const FX: bool>(
    m: &mut Machine,
    a: Blk<'_>,
    k: Ix,
    bpc: u64,
    lim: Lim,
) -> u64 {
    let t = if FX {
        fx_handlers(CTR, I32)
    } else {
        chain_handlers(CTR, I32, TR)
    };
    t[at(a, k).op as usize](m, a, k, SPARE, bpc, lim)
}

/// Run the block at `a[l]` (at `bpc`, with budget `lim`) through its compiled code `code`
/// ([`crate::jit`]), then go on where the code stopped: at the block's conditional branch,
/// which it evaluated, or in the chain's handler of the first instruction it did not retire.
/// (Six arguments, all in registers: the handlers call it in tail position.)
///
/// # Safety
///
/// As [`start_block`]'s; `code` is the block's compiled code for the chain's kind (`FX`).
#[inline(never)]
unsafe fn run_native<const CTR: bool, const I32: bool, const TR: bool, const FX: bool>(
    m: &mut Machine,
    a: Blk<'_>,
    l: Ix,
    bpc: u64,
    lim: Lim,
    code: usize,
) -> u64 {
    let (effects, paddr) = if FX {
        // The effect of `a[l]` (those of the next instructions follow it), and what turns a
        // host address in RAM into its physical address.
        let delta = m.bus.ram.base().wrapping_sub(m.bus.ram.host_base() as u64);
        (m.effect(l, lim) as *mut crate::record::Effect, delta)
    } else {
        (std::ptr::null_mut(), 0)
    };
    // SAFETY: `code` is a function `jit::compile` made for this block, which reads and
    // writes the registers, the RAM the TLB maps and, with `FX`, the effects of the block's
    // instructions (which the chain's budget covers) as the handlers' fast paths do.
    let r = unsafe {
        let f: crate::jit::Native = std::mem::transmute(code);
        let tlb = &m.tlb as *const crate::mmu::Tlb as *const u8;
        f(m.hart.x.as_mut_ptr(), tlb, bpc, effects, paddr)
    };
    // The code retired the block's first `n` instructions; the end marker is past them.
    let k = l.next_n(r as u32 as usize);
    if r & crate::jit::BRANCH != 0 {
        // `a[k]` is the block's conditional branch, which did not retire yet.
        let pc = bpc.wrapping_add(at(a, k).insn_off());
        let taken = r & crate::jit::TAKEN != 0;
        return branch_chain::<CTR, FX, I32, TR>(m, a, k, pc, lim, taken);
    }
    unsafe { chain_at::<CTR, I32, TR, FX>(m, a, k, bpc, lim) }
}

/// [`start_block`] for a block entered for the [`crate::jit::HOT`]th time: compile it (or
/// mark it as never compiled), then run it.
///
/// # Safety
///
/// As [`start_block`]'s.
#[cold]
#[inline(never)]
unsafe fn compile_native<const CTR: bool, const I32: bool, const TR: bool, const FX: bool>(
    m: &mut Machine,
    a: Blk<'_>,
    l: Ix,
    bpc: u64,
    lim: Lim,
) -> u64 {
    // SAFETY: `a[l]` starts a block, which ends with an end marker.
    let len = unsafe { block_size(a, l) } / INSN;
    // SAFETY: the block's `len` instructions and its end marker are in `a`.
    let block = unsafe { std::slice::from_raw_parts(at(a, l) as *const Insn, len as usize + 1) };
    let code = if m.config.jit {
        let tlb = crate::mmu::Tlb::jit_layout();
        crate::jit::install(&mut m.dcache.code_mem, block, tlb, FX)
    } else {
        crate::jit::NEVER
    };
    m.dcache.set_native(FX, l.k(), code);
    if code >= crate::jit::NATIVE_MIN {
        return unsafe { run_native::<CTR, I32, TR, FX>(m, a, l, bpc, lim, code) };
    }
    unsafe { chain_at::<CTR, I32, TR, FX>(m, a, l, bpc, lim) }
}

/// [`start_block`] from the run loop, which knows the chain's kind at run time: `ctr`
/// (`ExecMode::ctr_chain`), `i32` (no C), `tr` (a trail), `fx` (simple runs; no trail then).
///
/// # Safety
///
/// As [`start_block`]'s; the chain's handlers are `Machine::tables`' for that kind.
#[inline(always)]
pub(crate) unsafe fn start_block_from_loop(
    m: &mut Machine,
    a: Blk<'_>,
    l: Ix,
    bpc: u64,
    lim: Lim,
    (ctr, i32, tr, fx): (bool, bool, bool, bool),
) -> u64 {
    macro_rules! go {
        ($($c:literal $i:literal $t:literal $f:literal),*) => {
            match (ctr, i32, tr, fx) {
                $(($c, $i, $t, $f) => unsafe { start_block::<$c, $i, $t, $f>(m, a, l, bpc, lim) },)*
                (_, _, true, true) => unreachable!("simple runs leave no trail"),
            }
        };
    }
    go!(
        false false false false, false false true false, false false false true,
        false true false false, false true true false, false true false true,
        true false false false, true false true false, true false false true,
        true true false false, true true true false, true true false true
    )
}

/// [`chain`] where `a[k]` has no link yet: find the block at `r` in the running block's page,
/// link `a[k]` to it and enter it; or, when it is in another page or not decoded, stop the
/// chain. Out of line and called in tail position, as loads' slow path.
///
/// A block that ends with a branch to its own fall-through is not linked, and a chain that
/// leaves a trail stops after it (see below).
///
/// A link stays right as long as `a[k]` can run: the target is in the same physical page
/// (a direct transfer's or the fall-through's offset in the page is fixed, whatever virtual
/// page maps it), and blocks are only ever dropped a whole page at a time (or all at once),
/// so the target's block is dropped only with `a[k]`'s, whose replacement starts unlinked.
///
/// # Safety
///
/// As [`Handler`]'s.
#[inline(never)]
unsafe fn chain_link<
    const CTR: bool,
    const FX: bool,
    const I32: bool,
    const TR: bool,
    const END: bool,
>(
    m: &mut Machine,
    a: Blk<'_>,
    k: Ix,
    end: Ix,
    r: u64,
    rest: u64,
) -> u64 {
    let off = r.wrapping_sub(m.sched.chain_va.0);
    if in_chain_page(off) {
        // SAFETY: chaining is on and `off` is in the page.
        let l = unsafe { chain_entry(m, off) };
        // The page's table holds arena indices of blocks, and `a` is the arena.
        if l != 0 {
            let l = Ix::new(l);
            // The end marker of the block being left: `a[k]` is that, or the jump or branch
            // that ends the block. (Found from `k`, not `end`, which the tables without a
            // trail do not use otherwise: the compiler drops it from their `chain_link`,
            // whose callers then pass their arguments where they have them.)
            let left_end = if at(a, k).op == Op::NotDecoded {
                at(a, k)
            } else {
                at(a, k.next())
            };
            debug_assert_eq!(left_end as *const Insn, at(a, end) as *const Insn);
            if left_end.wd == crate::events::FAST_BLOCK {
                m.dcache.set_link(k.k(), l.0 as u32);
            } else if TR || FX {
                // The block being left ends with a branch to its own fall-through (see
                // `events::mark_block`): where it went does not say whether it was taken,
                // which the run loop's accounting of its run reads from the registers. A
                // chain that leaves a trail stops here, before anything changes them; and
                // such a branch is never linked, so that every chain comes here.
                return stop_chain::<END>(m, r, rest);
            }
            return enter::<CTR, FX, I32, TR>(m, a, end, l, k != end, r, rest);
        }
    }
    stop_chain::<END>(m, r, rest)
}

/// Stop a chain that would go on at `r` with `rest` of budget in [`Lim`]'s units: `END`, from
/// a block's end marker (which retired nothing), as [`DECODE`].
#[inline(always)]
fn stop_chain<const END: bool>(m: &mut Machine, r: u64, rest: u64) -> u64 {
    m.sched.budget = rest / INSN;
    if END {
        m.hart.pc = r;
        return DECODE;
    }
    r
}

/// Finish the handler of jump or branch `a[k]` to `target` (its fall-through when not taken)
/// when CTR could not simply note it ([`Machine::chain_transfer_noted`]): tell CTR, then go
/// on as [`done`]. Out of line and called in tail position, so that the handler's common path
/// makes no call (and saves no registers). The transfer's type comes in `sched.ctr_ty`: with
/// it as a seventh argument, which the calling convention passes on the stack, the call is
/// not a tail call, and every handler of the CTR tables saved registers on entry.
#[inline(never)]
unsafe fn ctr_done<
    const REC: bool,
    const CTR: bool,
    const FX: bool,
    const I32: bool,
    const TR: bool,
>(
    m: &mut Machine,
    a: Blk<'_>,
    k: Ix,
    pc: u64,
    left: Lim,
    target: u64,
) -> u64 {
    let ty = m.sched.ctr_ty;
    m.chain_transfer(pc, target, ty, left.count(k));
    done::<REC, CTR, FX, I32, TR>(m, a, k, pc, left, target)
}

/// In a jump's or branch's handler, in the CTR tables: tell CTR of the transfer to `target`
/// of type `ty` (evaluated only there), noting it in line or finishing through [`ctr_done`].
macro_rules! tell_ctr {
    ($m:ident, $a:ident, $k:ident, $pc:ident, $left:ident, $target:ident, $ty:expr) => {
        if CTR {
            let ty = $ty;
            if !$m.chain_transfer_noted::<false>($pc, $target, ty, $left.count($k)) {
                $m.sched.ctr_ty = ty;
                return ctr_done::<REC, CTR, FX, I32, TR>($m, $a, $k, $pc, $left, $target);
            }
        }
    };
}

/// Stop the chain at instruction `a[k]` that did not simply fall through: account for the
/// budget and, where the sentinel says so, the pc.
#[inline(always)]
pub(crate) fn special(m: &mut Machine, k: Ix, pc: u64, left: Lim, r: u64) -> u64 {
    match r {
        // Did not retire.
        TRAP | IRQ => {
            m.hart.pc = pc;
            m.sched.budget = left.count(k);
        }
        // A control transfer, or SERIALIZE, REFETCH, WFI (which set hart.pc): retired.
        _ => m.sched.budget = left.count(k) - 1,
    }
    r
}

#[inline(always)]
fn sext32(v: u64) -> u64 {
    v as i32 as i64 as u64
}

impl Machine {
    #[inline(always)]
    pub(crate) fn rs1(&self, d: &Insn) -> u64 {
        debug_assert!(d.rs1 < 32, "rs1 {} of {:?}", d.rs1, d.op);
        self.hart.x[d.rs1 as usize]
    }

    #[inline(always)]
    pub(crate) fn rs2(&self, d: &Insn) -> u64 {
        debug_assert!(d.rs2 < 32, "rs2 {} of {:?}", d.rs2, d.op);
        self.hart.x[d.rs2 as usize]
    }

    /// Write the instruction's destination GPR (x0 writes land in the scratch slot).
    #[inline(always)]
    pub(crate) fn wx<const REC: bool>(&mut self, d: &Insn, v: u64) {
        debug_assert!(d.wd <= 32, "wd {} of {:?}", d.wd, d.op);
        self.hart.x[d.wd as usize] = v;
        if REC && d.rd != 0 {
            self.rec.push_write(Reg::X(d.rd), v);
        }
    }

    /// Write the destination GPR of `a[k]` (`d`, run with budget `left`); `FX`: keep the
    /// value as its effect.
    #[inline(always)]
    pub(crate) fn wxe<const REC: bool, const FX: bool>(
        &mut self,
        d: &Insn,
        k: Ix,
        left: Lim,
        v: u64,
    ) {
        self.wx::<REC>(d, v);
        if FX {
            self.effect(k, left).value = v;
        }
    }

    /// `FX`: keep the data access of `a[k]` (run with budget `left`; at `vaddr`, of `value`;
    /// its physical address is in `fx_paddr`) as its effect.
    #[inline(always)]
    pub(crate) fn fx_access<const FX: bool>(&mut self, k: Ix, left: Lim, vaddr: u64, value: u64) {
        if FX {
            let paddr = self.fx_paddr;
            let e = self.effect(k, left);
            e.mem_value = value;
            e.vaddr = vaddr;
            e.paddr = paddr;
        }
    }

    /// In a chain of simple runs (`FX`), the effect of `a[k]`, run with budget `left`: at its
    /// place in the chain, which is the number of instructions the chain retired before it.
    /// The budget says which: `a[k]` has `left.count(k)` of the chain's budget left, itself
    /// included, and `fx_end` is the place past the chain's whole budget
    /// ([`Machine::fx_chain`]). So a loop that enters a block again in the same chain keeps
    /// each pass's effects apart, and nothing is updated as a block is entered.
    #[inline(always)]
    pub(crate) fn effect(&mut self, k: Ix, left: Lim) -> &mut crate::record::Effect {
        // An effect is a whole number of `Lim` units (`IX_STEP`s) long.
        const EFFECT: usize = size_of::<crate::record::Effect>();
        const { assert!(EFFECT.is_multiple_of(IX_STEP)) };
        // The budget left, in bytes of effects.
        let back = left.here(k) as usize * (EFFECT / IX_STEP);
        debug_assert!(
            back != 0 && back <= self.fx_end - self.effects.as_ptr() as usize,
            "an effect {back:#x} bytes before the end of a chain of {:#x}",
            self.fx_end - self.effects.as_ptr() as usize
        );
        // SAFETY: `fx_end` is `effects`' place for the chain's budget, which is at most its
        // length (`Machine::fx_chain`); `a[k]` is a real instruction of a block that fits the
        // budget (`Lim`), so `left.count(k)` is at least 1 and at most that budget.
        unsafe { &mut *((self.fx_end - back) as *mut crate::record::Effect) }
    }

    /// Start a chain of simple runs (`FX`) with `budget` instructions, at most
    /// [`TRAIL_INSNS`](crate::run::TRAIL_INSNS): their effects go to `effects[..budget]`
    /// ([`Machine::effect`]).
    #[inline(always)]
    pub(crate) fn fx_chain(&mut self, budget: u64) {
        assert!(budget as usize <= self.effects.len());
        self.fx_end =
            self.effects.as_ptr() as usize + budget as usize * size_of::<crate::record::Effect>();
    }

    /// After a store: if it overwrote decoded instructions, the run loop must pick up the
    /// change before the next instruction.
    #[inline(always)]
    pub(crate) fn after_store(&mut self, npc: u64) -> u64 {
        if self.dcache.dirty {
            self.hart.pc = npc;
            REFETCH
        } else {
            npc
        }
    }

    /// Raise an exception from the current instruction.
    #[inline(always)]
    pub(crate) fn raise(&mut self, e: Exception, tval: u64) -> u64 {
        self.exc = (Cause::Exception(e), tval);
        TRAP
    }

    /// A jump or taken branch of a hart without C to `target`, which is not 4-byte aligned:
    /// instruction-address-misaligned, with the target in xtval, before anything is written
    /// (as Spike's `set_pc` raises it).
    #[cold]
    #[inline(never)]
    pub(crate) fn misaligned_target(&mut self, target: u64) -> u64 {
        self.raise(Exception::InstructionAddressMisaligned, target)
    }

    /// Raise an illegal-instruction exception with the instruction bits in xtval.
    #[inline(always)]
    pub(crate) fn illegal(&mut self, d: &Insn) -> u64 {
        self.illegal_bits(d.bits)
    }

    #[cold]
    #[inline(never)]
    fn illegal_bits(&mut self, bits: u32) -> u64 {
        self.raise(Exception::IllegalInstruction, bits as u64)
    }

    /// Execute one decoded instruction at `pc` (outside the run loop), with the budget in
    /// `sched.budget`. No chaining: its block is not the arena, whose links it would read.
    #[inline]
    pub(crate) fn exec<const REC: bool>(&mut self, d: &Insn, pc: u64) -> u64 {
        let t = self.tables[REC as usize];
        let mut block = [*d, Insn::single_end(d.len)];
        block[0].off = 0;
        let left = Lim::new(Ix::new(0), self.sched.budget.max(1));
        let chain = (self.sched.chain_va, self.sched.links);
        self.chain_off(block.len());
        // SAFETY: instruction 0 of a block that ends with an end marker, chaining off; the
        // block (of one instruction) fits the budget.
        let r = unsafe { t[d.op as usize](self, Blk::new(&block), Ix::new(0), SPARE, pc, left) };
        (self.sched.chain_va, self.sched.links) = chain;
        if r == DECODE {
            // An instruction that fell through reached the block's end marker (untraced
            // handlers go on to it whatever the budget): its next pc, which the marker set.
            return self.hart.pc;
        }
        r
    }
}

#[inline(always)]
pub(crate) fn next(d: &Insn, pc: u64) -> u64 {
    pc.wrapping_add(d.len as u64)
}

#[inline(always)]
pub(crate) fn imm(d: &Insn) -> u64 {
    d.imm as i64 as u64
}

/// Define handlers: `name => |m, d, pc| result`, where the result is the next pc or a
/// sentinel, and `d` is the instruction. `left` is in scope for `htri!`.
macro_rules! handlers {
    ($($name:ident => |$m:ident, $d:ident, $pc:ident, $left:ident| $e:expr;)*) => {
        handlers! {$($name => |$m, a, k, $d, $pc, $left| $e;)*}
    };
    // With the block and the instruction's index in it named too.
    ($($name:ident => |$m:ident, $a:ident, $k:ident, $d:ident, $pc:ident, $left:ident| $e:expr;)*) => {
        handlers! {@finish done; $($name => |$m, $a, $k, $d, $pc, $left| $e;)*}
    };
    // Finished by `$fin` (`done`, or `done_direct` for direct jumps and branches).
    (@finish $fin:ident; $($name:ident => |$m:ident, $a:ident, $k:ident, $d:ident, $pc:ident, $left:ident| $e:expr;)*) => {$(
        pub(crate) unsafe fn $name<const REC: bool, const CTR: bool, const FX: bool, const I32: bool, const TR: bool>($m: &mut Machine, $a: Blk<'_>, $k: Ix, _spare: Spare, bpc: u64, $left: Lim) -> u64 {
            let $d = at($a, $k);
            let $pc = bpc.wrapping_add($d.insn_off());
            let r = $e;
            $fin::<REC, CTR, FX, I32, TR>($m, $a, $k, $pc, $left, r)
        }
    )*};
}

/// Register-register operations: `x[rd] = f(x[rs1], x[rs2])`.
macro_rules! alu {
    ($($name:ident => |$a:ident, $b:ident| $e:expr;)*) => {
        handlers! {$(
            $name => |m, a, k, d, pc, left| {
                let $a = m.rs1(d);
                let $b = m.rs2(d);
                m.wxe::<REC, FX>(d, k, left, $e);
                next(d, pc)
            };
        )*}
    };
}

/// Register-immediate operations: `x[rd] = f(x[rs1], imm)`.
macro_rules! alui {
    ($($name:ident => |$a:ident, $i:ident| $e:expr;)*) => {
        handlers! {$(
            $name => |m, a, k, d, pc, left| {
                let $a = m.rs1(d);
                let $i = imm(d);
                m.wxe::<REC, FX>(d, k, left, $e);
                next(d, pc)
            };
        )*}
    };
}

/// Whether the branch `op` is taken with `a` in rs1 and `b` in rs2: the one statement of each
/// branch's condition, for its handler and for the PMU's run accounting
/// (`Machine::branch_taken`). Not a branch: false.
#[inline(always)]
pub(crate) fn branch_condition(op: Op, a: u64, b: u64) -> bool {
    match op {
        Op::Beq => a == b,
        Op::Bne => a != b,
        Op::Blt => (a as i64) < (b as i64),
        Op::Bge => (a as i64) >= (b as i64),
        Op::Bltu => a < b,
        Op::Bgeu => a >= b,
        _ => false,
    }
}

macro_rules! branch {
    ($($name:ident => $op:ident;)*) => {
        handlers! {@finish done_direct; $(
            $name => |m, a, k, d, pc, left| {
                let taken = branch_condition(Op::$op, m.rs1(d), m.rs2(d));
                if !REC {
                    return branch_chain::<CTR, FX, I32, TR>(m, a, k, pc, left, taken);
                }
                let target = if taken {
                    pc.wrapping_add(imm(d))
                } else {
                    next(d, pc)
                };
                if I32 && target & 2 != 0 {
                    let r = m.misaligned_target(target);
                    return special(m, k, pc, left, r);
                }
                tell_ctr!(m, a, k, pc, left, target, if taken {
                    arch::Itype::TakenBranch
                } else {
                    arch::Itype::NontakenBranch
                });
                target
            };
        )*}
    };
}

macro_rules! load {
    ($($name:ident => $size:expr, |$v:ident| $e:expr;)*) => {$(
        pub(crate) unsafe fn $name<const REC: bool, const CTR: bool, const FX: bool, const I32: bool, const TR: bool>(
            m: &mut Machine,
            a: Blk<'_>,
            k: Ix,
            _spare: Spare,
            bpc: u64,
            left: Lim,
        ) -> u64 {
            /// The access the fast path could not make (misaligned, a TLB miss, not RAM):
            /// the whole instruction again, out of line, so that the common path saves no
            /// registers for a call.
            #[cold]
            #[inline(never)]
            unsafe fn slow<const REC: bool, const CTR: bool, const FX: bool, const I32: bool, const TR: bool>(
                m: &mut Machine,
                a: Blk<'_>,
                k: Ix,
                _spare: Spare,
                bpc: u64,
                left: Lim,
            ) -> u64 {
                let d = at(a, k);
                let pc = bpc.wrapping_add(d.insn_off());
                let addr = m.rs1(d).wrapping_add(imm(d));
                let $v = htri!(m, k, pc, left, m.load::<REC, FX>(addr, $size));
                m.fx_access::<FX>(k, left, addr, $v);
                m.wxe::<REC, FX>(d, k, left, $e);
                done::<REC, CTR, FX, I32, TR>(m, a, k, pc, left, next(d, pc))
            }
            let d = at(a, k);
            let addr = m.rs1(d).wrapping_add(imm(d));
            let Some($v) = m.load_fast::<REC, FX>(addr, $size) else {
                return slow::<REC, CTR, FX, I32, TR>(m, a, k, SPARE, bpc, left);
            };
            m.fx_access::<FX>(k, left, addr, $v);
            m.wxe::<REC, FX>(d, k, left, $e);
            let pc = bpc.wrapping_add(d.insn_off());
            done::<REC, CTR, FX, I32, TR>(m, a, k, pc, left, next(d, pc))
        }
    )*};
}

macro_rules! store {
    ($($name:ident => $size:expr;)*) => {$(
        pub(crate) unsafe fn $name<const REC: bool, const CTR: bool, const FX: bool, const I32: bool, const TR: bool>(
            m: &mut Machine,
            a: Blk<'_>,
            k: Ix,
            _spare: Spare,
            bpc: u64,
            left: Lim,
        ) -> u64 {
            /// The store the fast path could not make (misaligned, a TLB miss, a page with
            /// decoded code, not RAM), out of line as loads' `slow`.
            #[cold]
            #[inline(never)]
            unsafe fn slow<const REC: bool, const CTR: bool, const FX: bool, const I32: bool, const TR: bool>(
                m: &mut Machine,
                a: Blk<'_>,
                k: Ix,
                _spare: Spare,
                bpc: u64,
                left: Lim,
            ) -> u64 {
                let d = at(a, k);
                let pc = bpc.wrapping_add(d.insn_off());
                let addr = m.rs1(d).wrapping_add(imm(d));
                let v = m.rs2(d);
                htri!(m, k, pc, left, m.store::<REC, FX>(addr, $size, v));
                m.fx_access::<FX>(k, left, addr, crate::mmu::low_bytes(v, $size));
                let r = m.after_store(next(d, pc));
                done::<REC, CTR, FX, I32, TR>(m, a, k, pc, left, r)
            }
            let d = at(a, k);
            let addr = m.rs1(d).wrapping_add(imm(d));
            let v = m.rs2(d);
            if !m.store_fast::<REC, FX>(addr, $size, v) {
                return slow::<REC, CTR, FX, I32, TR>(m, a, k, SPARE, bpc, left);
            }
            m.fx_access::<FX>(k, left, addr, crate::mmu::low_bytes(v, $size));
            // The fast path never writes a page with decoded code: no block was dropped.
            let pc = bpc.wrapping_add(d.insn_off());
            done::<REC, CTR, FX, I32, TR>(m, a, k, pc, left, next(d, pc))
        }
    )*};
}

handlers! {
    lui => |m, a, k, d, pc, left| {
        m.wxe::<REC, FX>(d, k, left, imm(d));
        next(d, pc)
    };
    auipc => |m, a, k, d, pc, left| {
        m.wxe::<REC, FX>(d, k, left, pc.wrapping_add(imm(d)));
        next(d, pc)
    };
}

handlers! {@finish done_direct;
    jal => |m, a, k, d, pc, left| {
        if I32 && pc.wrapping_add(imm(d)) & 2 != 0 {
            let r = m.misaligned_target(pc.wrapping_add(imm(d)));
            return special(m, k, pc, left, r);
        }
        m.wxe::<REC, FX>(d, k, left, next(d, pc));
        let target = pc.wrapping_add(imm(d));
        tell_ctr!(m, a, k, pc, left, target, flow_ctr_type(Flow::DirectJump, d.rd, d.rs1, true));
        target
    };
}

handlers! {
    jalr => |m, a, k, d, pc, left| {
        let target = m.rs1(d).wrapping_add(imm(d)) & !1;
        if I32 && target & 2 != 0 {
            let r = m.misaligned_target(target);
            return special(m, k, pc, left, r);
        }
        m.wxe::<REC, FX>(d, k, left, next(d, pc));
        tell_ctr!(m, a, k, pc, left, target, flow_ctr_type(Flow::IndirectJump, d.rd, d.rs1, true));
        target
    };
}

handlers! {
    fence => |_m, d, pc, _left| next(d, pc);
    fence_i => |m, d, pc, _left| m.fence_i(next(d, pc));
    ecall => |m, _d, _pc, _left| m.ecall();
    ebreak => |m, _d, pc, _left| m.raise(Exception::Breakpoint, pc);
    wfi => |m, d, pc, _left| m.wfi(d, next(d, pc));
    sfence_vma => |m, d, pc, _left| m.sfence_vma(d, next(d, pc));
    sfence_inval => |m, d, pc, _left| m.sfence_inval(d, next(d, pc));
    atomic => |m, d, pc, _left| m.exec_atomic::<REC>(d, next(d, pc));
    illegal => |m, d, _pc, _left| m.illegal(d);
}

// The handlers that bring the budget up to date (`sched.budget`) before they execute.
handlers! {
    // xRETs read the budget to count themselves in the privilege they ran in.
    mret => |m, _a, k, d, pc, left| {
        m.sched.budget = left.count(k);
        m.mret::<REC>(d, pc)
    };
    sret => |m, _a, k, d, pc, left| {
        m.sched.budget = left.count(k);
        m.sret::<REC>(d, pc)
    };
    // Reads the clock (CTR's cycle counter restarts), which reads the budget.
    sctrclr => |m, _a, k, d, pc, left| {
        m.sched.budget = left.count(k);
        m.sctrclr(d, next(d, pc))
    };
    csr => |m, _a, k, d, pc, left| {
        // The counters read the budget to know how many instructions retired.
        m.sched.budget = left.count(k);
        m.exec_csr::<REC>(d, next(d, pc))
    };
}

// Zicbom, Zicboz
handlers! {
    cbo_manage => |m, d, pc, _left| m.cbo_manage(d, next(d, pc));
    cbo_zero => |m, d, pc, _left| m.cbo_zero::<REC>(d, next(d, pc));
}

branch! {
    beq => Beq;
    bne => Bne;
    blt => Blt;
    bge => Bge;
    bltu => Bltu;
    bgeu => Bgeu;
}

load! {
    lb => 1, |v| v as i8 as i64 as u64;
    lh => 2, |v| v as i16 as i64 as u64;
    lw => 4, |v| sext32(v);
    ld => 8, |v| v;
    lbu => 1, |v| v;
    lhu => 2, |v| v;
    lwu => 4, |v| v;
}

store! {
    sb => 1;
    sh => 2;
    sw => 4;
    sd => 8;
}

alui! {
    addi => |a, i| a.wrapping_add(i);
    slti => |a, i| ((a as i64) < (i as i64)) as u64;
    sltiu => |a, i| (a < i) as u64;
    xori => |a, i| a ^ i;
    ori => |a, i| a | i;
    andi => |a, i| a & i;
    slli => |a, i| a << (i & 63);
    srli => |a, i| a >> (i & 63);
    srai => |a, i| ((a as i64) >> (i & 63)) as u64;
    addiw => |a, i| sext32(a.wrapping_add(i));
    slliw => |a, i| sext32(a << (i & 31));
    srliw => |a, i| sext32((a as u32 >> (i & 31)) as u64);
    sraiw => |a, i| ((a as i32) >> (i & 31)) as i64 as u64;
}

alu! {
    add => |a, b| a.wrapping_add(b);
    sub => |a, b| a.wrapping_sub(b);
    sll => |a, b| a << (b & 63);
    slt => |a, b| ((a as i64) < (b as i64)) as u64;
    sltu => |a, b| (a < b) as u64;
    xor => |a, b| a ^ b;
    srl => |a, b| a >> (b & 63);
    sra => |a, b| ((a as i64) >> (b & 63)) as u64;
    or => |a, b| a | b;
    and => |a, b| a & b;
    addw => |a, b| sext32(a.wrapping_add(b));
    subw => |a, b| sext32(a.wrapping_sub(b));
    sllw => |a, b| sext32(a << (b & 31));
    srlw => |a, b| sext32((a as u32 >> (b & 31)) as u64);
    sraw => |a, b| ((a as i32) >> (b & 31)) as i64 as u64;
    // M
    mul => |a, b| a.wrapping_mul(b);
    mulh => |a, b| ((a as i64 as i128 * b as i64 as i128) >> 64) as u64;
    mulhsu => |a, b| ((a as i64 as i128 * b as i128) >> 64) as u64;
    mulhu => |a, b| ((a as u128 * b as u128) >> 64) as u64;
    div_ => |a, b| div(a as i64, b as i64) as u64;
    divu => |a, b| a.checked_div(b).unwrap_or(u64::MAX);
    rem_ => |a, b| rem(a as i64, b as i64) as u64;
    remu => |a, b| if b == 0 { a } else { a % b };
    mulw => |a, b| sext32(a.wrapping_mul(b));
    divw => |a, b| div32(a as i32, b as i32) as i64 as u64;
    divuw => |a, b| sext32((a as u32).checked_div(b as u32).unwrap_or(u32::MAX) as u64);
    remw => |a, b| rem32(a as i32, b as i32) as i64 as u64;
    remuw => |a, b| {
        let (a, b) = (a as u32, b as u32);
        sext32(if b == 0 { a } else { a % b } as u64)
    };
}

// Zba, Zbb, Zbs, Zicond (the unary ones read x0 as their second operand and ignore it).
alu! {
    add_uw => |a, b| (a as u32 as u64).wrapping_add(b);
    sh1add => |a, b| (a << 1).wrapping_add(b);
    sh2add => |a, b| (a << 2).wrapping_add(b);
    sh3add => |a, b| (a << 3).wrapping_add(b);
    sh1add_uw => |a, b| ((a as u32 as u64) << 1).wrapping_add(b);
    sh2add_uw => |a, b| ((a as u32 as u64) << 2).wrapping_add(b);
    sh3add_uw => |a, b| ((a as u32 as u64) << 3).wrapping_add(b);
    andn => |a, b| a & !b;
    orn => |a, b| a | !b;
    xnor => |a, b| !(a ^ b);
    clz => |a, _b| a.leading_zeros() as u64;
    clzw => |a, _b| (a as u32).leading_zeros() as u64;
    ctz => |a, _b| a.trailing_zeros() as u64;
    ctzw => |a, _b| (a as u32).trailing_zeros() as u64;
    cpop => |a, _b| a.count_ones() as u64;
    cpopw => |a, _b| (a as u32).count_ones() as u64;
    max => |a, b| (a as i64).max(b as i64) as u64;
    maxu => |a, b| a.max(b);
    min => |a, b| (a as i64).min(b as i64) as u64;
    minu => |a, b| a.min(b);
    sext_b => |a, _b| a as i8 as i64 as u64;
    sext_h => |a, _b| a as i16 as i64 as u64;
    zext_h => |a, _b| a & 0xffff;
    rol => |a, b| a.rotate_left((b & 63) as u32);
    ror => |a, b| a.rotate_right((b & 63) as u32);
    rolw => |a, b| sext32((a as u32).rotate_left((b & 31) as u32) as u64);
    rorw => |a, b| sext32((a as u32).rotate_right((b & 31) as u32) as u64);
    orc_b => |a, _b| {
        let mut v = 0u64;
        for i in 0..8 {
            if (a >> (8 * i)) & 0xff != 0 {
                v |= 0xff << (8 * i);
            }
        }
        v
    };
    rev8 => |a, _b| a.swap_bytes();
    bclr => |a, b| a & !(1 << (b & 63));
    bext => |a, b| (a >> (b & 63)) & 1;
    binv => |a, b| a ^ (1 << (b & 63));
    bset => |a, b| a | (1 << (b & 63));
    czero_eqz => |a, b| if b == 0 { 0 } else { a };
    czero_nez => |a, b| if b != 0 { 0 } else { a };
}

alui! {
    slli_uw => |a, i| (a as u32 as u64) << (i & 63);
    rori => |a, i| a.rotate_right((i & 63) as u32);
    roriw => |a, i| sext32((a as u32).rotate_right((i & 31) as u32) as u64);
    bclri => |a, i| a & !(1 << (i & 63));
    bexti => |a, i| (a >> (i & 63)) & 1;
    binvi => |a, i| a ^ (1 << (i & 63));
    bseti => |a, i| a | (1 << (i & 63));
}

/// The block's end marker: execution goes on at `pc`, the instruction after the block.
///
/// Untraced with chaining on, the block that starts there in the same page is entered
/// directly ([`chain`]), so that a branch not taken does not return to the run loop.
pub(crate) unsafe fn end_of_block<
    const REC: bool,
    const CTR: bool,
    const FX: bool,
    const I32: bool,
    const TR: bool,
>(
    m: &mut Machine,
    a: Blk<'_>,
    k: Ix,
    _spare: Spare,
    bpc: u64,
    left: Lim,
) -> u64 {
    // The end of the block (`Insn::block_off` of an end marker).
    let pc = bpc.wrapping_add(at(a, k).imm.unsigned_abs() as u64);
    // The marker retires nothing: the budget it came with (perhaps none) is what is left.
    let rest = left.here(k);
    if !REC {
        return chain::<CTR, FX, I32, TR, true>(m, a, k, k, pc, rest);
    }
    stop_chain::<true>(m, pc, rest)
}

/// In the `FX` tables, an operation whose record must be built: stop before it.
pub(super) unsafe fn build_record(
    m: &mut Machine,
    a: Blk<'_>,
    k: Ix,
    _spare: Spare,
    bpc: u64,
    left: Lim,
) -> u64 {
    m.hart.pc = bpc.wrapping_add(at(a, k).block_off());
    m.sched.budget = left.count(k);
    BUILD
}

/// Build the handler table for one recording mode: each operation's handler as the
/// instruction table binds it ([`crate::ops`]), illegal past the last operation.
const fn table<
    const REC: bool,
    const CTR: bool,
    const FX: bool,
    const I32: bool,
    const TR: bool,
>() -> [Handler; 256] {
    let mut t: [Handler; 256] = [illegal::<REC, CTR, FX, I32, TR>; 256];
    crate::ops::bind_handlers::<REC, CTR, FX, I32, TR>(&mut t);
    if FX {
        let mut i = 0;
        while i < 256 {
            if matches!(SHAPES[i], Shape::Built) && i != Op::NotDecoded as usize {
                t[i] = build_record;
            }
            i += 1;
        }
    }
    t
}

#[inline(always)]
fn div(a: i64, b: i64) -> i64 {
    if b == 0 {
        -1
    } else {
        a.wrapping_div(b)
    }
}

#[inline(always)]
fn rem(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        a.wrapping_rem(b)
    }
}

#[inline(always)]
fn div32(a: i32, b: i32) -> i32 {
    if b == 0 {
        -1
    } else {
        a.wrapping_div(b)
    }
}

#[inline(always)]
fn rem32(a: i32, b: i32) -> i32 {
    if b == 0 {
        a
    } else {
        a.wrapping_rem(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_corners() {
        assert_eq!(div(i64::MIN, -1), i64::MIN);
        assert_eq!(rem(i64::MIN, -1), 0);
        assert_eq!(div(7, 0), -1);
        assert_eq!(rem(7, 0), 7);
        assert_eq!(div32(i32::MIN, -1), i32::MIN);
        assert_eq!(rem32(i32::MIN, -1), 0);
        assert_eq!(div(-7, 2), -3);
        assert_eq!(rem(-7, 2), -1);
    }

    /// An instruction run on its own gives its next pc whatever the budget, though untraced
    /// handlers go on to the end marker after it without counting (`Lim`).
    #[test]
    fn one_instruction_gives_its_next_pc() {
        let mut m = Machine::new(crate::Config::default());
        let addi = crate::decode::decode(0x0015_0513); // addi a0, a0, 1
        let pc = crate::bus::RAM_BASE;
        for budget in [1, 2, 100] {
            m.sched.budget = budget;
            assert_eq!(m.exec::<false>(&addi, pc), pc + 4, "budget {budget}");
            m.sched.budget = budget;
            assert_eq!(m.exec::<true>(&addi, pc), pc + 4, "budget {budget}");
        }
        assert_eq!(m.hart.x[10], 6);
    }
}
