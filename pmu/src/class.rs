//! Event classes: the per-privilege, monotonic totals that everything else is derived from.
//!
//! The hart never updates a counter. It bumps `totals[privilege][class]` (one add per retired
//! run for instructions, one per instruction of a class it counts), and the models bump their
//! access, miss and stall classes. A counter's value is a base plus the growth of the totals
//! of its event's classes, over the privileges it counts in, since the counter was last
//! written or reconfigured (see `counters.rs`). So counting costs the same whatever the
//! number of counters, and a read is exact at any instant.
//!
//! Classes are primitive and mutually exclusive where that matters: an instruction is at
//! most one of `Loads`, `Stores`, `Atomics`, `FpOps`, the branch classes; composite events
//! (CPU_CYCLES = instructions + stall cycles, BRANCH_INSTRUCTIONS = the five transfer classes)
//! are sums of classes, formed when a counter is read.

use arch::{Itype, Priv};
use serde::{Deserialize, Serialize};

/// Number of privilege levels that have totals: U, S, M.
pub const NPRV: usize = 3;

/// The totals index of a privilege level (U 0, S 1, M 2; Debug counts as M).
#[inline]
pub fn prv_index(p: Priv) -> usize {
    match p {
        Priv::U => 0,
        Priv::S => 1,
        Priv::M | Priv::Debug => 2,
    }
}

/// The privilege level of a totals index.
pub fn prv_of_index(i: usize) -> Priv {
    match i {
        0 => Priv::U,
        1 => Priv::S,
        _ => Priv::M,
    }
}

/// A primitive event class, the index into a privilege's totals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[repr(u8)]
pub enum Class {
    /// Instructions retired. An instruction that raises an exception does not retire, ecall
    /// and ebreak included ("not considered to retire", privileged spec 3.3.1).
    Instructions = 0,
    /// Load instructions retired (integer and FP loads, LR excluded).
    Loads,
    /// Store instructions retired (integer and FP stores, SC excluded).
    Stores,
    /// AMO, LR and SC instructions retired.
    Atomics,
    /// Conditional branches retired that were taken.
    BranchesTaken,
    /// Conditional branches retired that were not taken.
    BranchesNotTaken,
    /// Jumps that are neither calls nor returns (itypes 10, 11, 12, 14, 15).
    Jumps,
    /// Calls (itypes 8 and 9).
    Calls,
    /// Returns (itype 13).
    Returns,
    /// F and D instructions other than loads and stores.
    FpOps,
    /// Exceptions taken (ecall included), in the privilege the trap was taken from.
    Exceptions,
    /// Interrupts taken, in the privilege the trap was taken from.
    Interrupts,
    /// Loads, stores and AMOs whose address is not a multiple of their size.
    Misaligned,
    /// Cycles lost to instruction fetch: L1I and LL misses on fetch, ITLB misses,
    /// branch mispredictions.
    StallFrontend,
    /// Cycles lost to data accesses: L1D and LL misses on loads and stores, DTLB misses.
    StallBackend,
    L1dReadAccess,
    L1dReadMiss,
    L1dWriteAccess,
    L1dWriteMiss,
    L1iReadAccess,
    L1iReadMiss,
    LlReadAccess,
    LlReadMiss,
    LlWriteAccess,
    LlWriteMiss,
    DtlbReadAccess,
    DtlbReadMiss,
    DtlbWriteAccess,
    DtlbWriteMiss,
    ItlbReadAccess,
    ItlbReadMiss,
    /// Conditional branches whose direction was mispredicted.
    CondMispredicts,
    /// Indirect jumps, calls and returns whose target was mispredicted.
    TargetMispredicts,
}

/// Number of classes.
pub const NCLASS: usize = Class::TargetMispredicts as usize + 1;

impl Class {
    /// Every class, in index order.
    pub const ALL: [Class; NCLASS] = {
        use Class::*;
        [
            Instructions,
            Loads,
            Stores,
            Atomics,
            BranchesTaken,
            BranchesNotTaken,
            Jumps,
            Calls,
            Returns,
            FpOps,
            Exceptions,
            Interrupts,
            Misaligned,
            StallFrontend,
            StallBackend,
            L1dReadAccess,
            L1dReadMiss,
            L1dWriteAccess,
            L1dWriteMiss,
            L1iReadAccess,
            L1iReadMiss,
            LlReadAccess,
            LlReadMiss,
            LlWriteAccess,
            LlWriteMiss,
            DtlbReadAccess,
            DtlbReadMiss,
            DtlbWriteAccess,
            DtlbWriteMiss,
            ItlbReadAccess,
            ItlbReadMiss,
            CondMispredicts,
            TargetMispredicts,
        ]
    };

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The bit of this class in a class mask (see [`crate::Pmu::live_classes`]).
    #[inline]
    pub fn bit(self) -> u64 {
        1 << (self as u64)
    }

    /// The class a retired control transfer of this itype counts in, if any. Conditional
    /// branches go by taken / not taken; a co-routine swap (a return and a call at once)
    /// counts as a jump. Traps and trap returns are not transfers here.
    pub const fn of_itype(itype: Itype) -> Option<Class> {
        use Itype::*;
        Some(match itype {
            TakenBranch => Class::BranchesTaken,
            NontakenBranch => Class::BranchesNotTaken,
            InferableCall | UninferableCall => Class::Calls,
            Return => Class::Returns,
            UninferableJump | UninferableTailCall | InferableTailCall | CoroutineSwap
            | OtherUninferableJump | OtherInferableJump => Class::Jumps,
            None | Exception | Interrupt | TrapReturn | Reserved7 => return Option::None,
        })
    }

    /// The most one retired instruction (with the trap that may end its run) can add to this
    /// class, given the largest penalty one fetch or data access can cost. Bounds how soon a
    /// counter can overflow ([`crate::Pmu::overflow_horizon`]).
    pub(crate) fn max_per_insn(self, max_fetch_stall: u64, max_data_stall: u64) -> u64 {
        use Class::*;
        match self {
            // A fetch or a data access can span two lines or two pages.
            L1dReadAccess | L1dReadMiss | L1dWriteAccess | L1dWriteMiss | L1iReadAccess
            | L1iReadMiss | DtlbReadAccess | DtlbReadMiss | DtlbWriteAccess | DtlbWriteMiss
            | ItlbReadAccess | ItlbReadMiss => 2,
            LlReadAccess | LlReadMiss | LlWriteAccess | LlWriteMiss => 4,
            StallFrontend => max_fetch_stall,
            StallBackend => max_data_stall,
            _ => 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_is_in_index_order() {
        for (i, c) in Class::ALL.iter().enumerate() {
            assert_eq!(c.index(), i);
        }
        const { assert!(NCLASS <= 64, "class masks are u64") };
    }

    #[test]
    fn itype_classes() {
        assert_eq!(
            Class::of_itype(Itype::TakenBranch),
            Some(Class::BranchesTaken)
        );
        assert_eq!(Class::of_itype(Itype::InferableCall), Some(Class::Calls));
        assert_eq!(Class::of_itype(Itype::Return), Some(Class::Returns));
        assert_eq!(Class::of_itype(Itype::CoroutineSwap), Some(Class::Jumps));
        assert_eq!(Class::of_itype(Itype::TrapReturn), None);
        assert_eq!(prv_index(Priv::Debug), 2);
    }
}
