//! The mhpmevent encoding: which value selects which event (docs/pmu.md has the table).
//!
//! mhpmevent (privileged spec, Zihpm; the Sscofpmf chapter for bits 63:58):
//!
//! | bits | field | here |
//! |---|---|---|
//! | 63 | OF | overflow status and interrupt disable |
//! | 62 | MINH | no counting in M-mode |
//! | 61 | SINH | no counting in S-mode |
//! | 60 | UINH | no counting in U-mode |
//! | 59, 58 | VSINH, VUINH | read-only zero: no H extension, so the modes do not exist |
//! | 57, 56 | WPRI | read-only zero |
//! | 55:0 | event selector | below |
//!
//! The selector reads like an SBI `event_idx` (SBI PMU extension, "Event: Hardware general
//! events" and "Hardware cache events"), as the SBI spec suggests for general and cache events:
//! bits 19:16 are a type and 15:0 a code.
//!
//! - type 0, code 1..=10: SBI hardware general events (CPU_CYCLES = 0x1, INSTRUCTIONS = 0x2...);
//! - type 1: SBI hardware cache events, code = cache_id << 3 | op_id << 1 | result_id;
//! - type 2: hartscope's own events, the ones the SBI reaches through its raw event types
//!   (`event_idx` 0x20000 or 0x30000 with this value as `event_data`).
//!
//! Selector 0 selects nothing. Writing a selector that is not in [`EVENTS`], or whose model is
//! not configured, stores 0 (WARL): the counter counts nothing until given a supported event.

use crate::class::Class;
use crate::config::PmuConfig;

/// mhpmevent.OF: set when the counter overflows; while set, no overflow interrupt.
pub const MHPMEVENT_OF: u64 = 1 << 63;
pub const MHPMEVENT_MINH: u64 = 1 << 62;
pub const MHPMEVENT_SINH: u64 = 1 << 61;
pub const MHPMEVENT_UINH: u64 = 1 << 60;
/// Read-only zero here (no H extension).
pub const MHPMEVENT_VSINH: u64 = 1 << 59;
/// Read-only zero here (no H extension).
pub const MHPMEVENT_VUINH: u64 = 1 << 58;
/// The event selector field.
pub const SELECTOR_MASK: u64 = (1 << 56) - 1;
/// The flag bits software can write.
pub const MHPMEVENT_FLAGS: u64 = MHPMEVENT_OF | MHPMEVENT_MINH | MHPMEVENT_SINH | MHPMEVENT_UINH;

/// The inhibit bit of a privilege index (U 0, S 1, M 2).
pub const INH_BY_PRV: [u64; 3] = [MHPMEVENT_UINH, MHPMEVENT_SINH, MHPMEVENT_MINH];

/// Selector type field values.
pub const TYPE_GENERAL: u64 = 0;
pub const TYPE_CACHE: u64 = 1;
pub const TYPE_HARTSCOPE: u64 = 2;

/// What must be configured for an event to be supported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needs {
    Nothing,
    /// The cache models.
    Caches,
    /// The cache models with a last-level cache.
    LastLevel,
    /// The TLB models.
    Tlb,
    /// The branch predictor.
    Bp,
    /// Any model (the fetch side has stalls with any of them).
    AnyModel,
    /// The cache or TLB models (data-side stalls).
    DataModel,
}

impl Needs {
    pub fn met(self, cfg: &PmuConfig) -> bool {
        match self {
            Needs::Nothing => true,
            Needs::Caches => cfg.caches.is_some(),
            Needs::LastLevel => cfg.caches.is_some_and(|c| c.ll.is_some()),
            Needs::Tlb => cfg.tlb.is_some(),
            Needs::Bp => cfg.bp.is_some(),
            Needs::AnyModel => cfg.any_model(),
            Needs::DataModel => cfg.caches.is_some() || cfg.tlb.is_some(),
        }
    }
}

/// One selectable event.
#[derive(Debug)]
pub struct EventDef {
    /// mhpmevent\[55:0\].
    pub selector: u64,
    pub name: &'static str,
    /// The counter grows by the sum of these classes.
    pub classes: &'static [Class],
    pub needs: Needs,
    pub description: &'static str,
}

impl EventDef {
    pub fn supported(&self, cfg: &PmuConfig) -> bool {
        self.needs.met(cfg)
    }

    /// The SBI `event_idx` that names this event (general and cache events), or the raw
    /// `event_idx` 0x20000 for hartscope's own events (their `event_data` is the selector).
    pub fn sbi_event_idx(&self) -> u32 {
        if self.selector >> 16 == TYPE_HARTSCOPE {
            0x20000
        } else {
            self.selector as u32
        }
    }
}

use Class::*;

const CYCLE_CLASSES: &[Class] = &[Instructions, StallFrontend, StallBackend];
const BRANCH_CLASSES: &[Class] = &[BranchesTaken, BranchesNotTaken, Jumps, Calls, Returns];
const MISPREDICT_CLASSES: &[Class] = &[CondMispredicts, TargetMispredicts];

macro_rules! ev {
    ($sel:expr, $name:expr, $classes:expr, $needs:ident, $desc:expr) => {
        EventDef {
            selector: $sel,
            name: $name,
            classes: $classes,
            needs: Needs::$needs,
            description: $desc,
        }
    };
}

/// Every supported selector, in increasing order.
pub static EVENTS: &[EventDef] = &[
    // Type 0: SBI hardware general events.
    ev!(
        0x1,
        "CPU_CYCLES",
        CYCLE_CLASSES,
        Nothing,
        "cycles: instructions plus stall cycles of the cost model"
    ),
    ev!(
        0x2,
        "INSTRUCTIONS",
        &[Instructions],
        Nothing,
        "instructions retired"
    ),
    ev!(
        0x3,
        "CACHE_REFERENCES",
        &[L1dReadAccess, L1dWriteAccess],
        Caches,
        "L1D accesses"
    ),
    ev!(
        0x4,
        "CACHE_MISSES",
        &[L1dReadMiss, L1dWriteMiss],
        Caches,
        "L1D misses"
    ),
    ev!(
        0x5,
        "BRANCH_INSTRUCTIONS",
        BRANCH_CLASSES,
        Nothing,
        "conditional branches, jumps, calls and returns retired"
    ),
    ev!(
        0x6,
        "BRANCH_MISSES",
        MISPREDICT_CLASSES,
        Bp,
        "mispredicted branches, jumps, calls and returns"
    ),
    ev!(
        0x8,
        "STALLED_CYCLES_FRONTEND",
        &[StallFrontend],
        AnyModel,
        "cycles lost to fetch: L1I/LL misses, ITLB misses, mispredictions"
    ),
    ev!(
        0x9,
        "STALLED_CYCLES_BACKEND",
        &[StallBackend],
        DataModel,
        "cycles lost to data accesses: L1D/LL misses, DTLB misses"
    ),
    ev!(
        0xa,
        "REF_CPU_CYCLES",
        CYCLE_CLASSES,
        Nothing,
        "fixed-frequency cycles while not halted (the clock never changes: = CPU_CYCLES)"
    ),
    // Type 1: SBI hardware cache events.
    ev!(
        0x10000,
        "L1D_READ_ACCESS",
        &[L1dReadAccess],
        Caches,
        "L1D line accesses by loads and LR"
    ),
    ev!(
        0x10001,
        "L1D_READ_MISS",
        &[L1dReadMiss],
        Caches,
        "L1D misses of loads and LR"
    ),
    ev!(
        0x10002,
        "L1D_WRITE_ACCESS",
        &[L1dWriteAccess],
        Caches,
        "L1D line accesses by stores, SC and AMOs"
    ),
    ev!(
        0x10003,
        "L1D_WRITE_MISS",
        &[L1dWriteMiss],
        Caches,
        "L1D misses of stores, SC and AMOs"
    ),
    ev!(
        0x10008,
        "L1I_READ_ACCESS",
        &[L1iReadAccess],
        Caches,
        "L1I accesses (fetch moving to another line)"
    ),
    ev!(
        0x10009,
        "L1I_READ_MISS",
        &[L1iReadMiss],
        Caches,
        "L1I misses"
    ),
    ev!(
        0x10010,
        "LL_READ_ACCESS",
        &[LlReadAccess],
        LastLevel,
        "last-level accesses by L1I misses and L1D read misses"
    ),
    ev!(
        0x10011,
        "LL_READ_MISS",
        &[LlReadMiss],
        LastLevel,
        "last-level misses of reads"
    ),
    ev!(
        0x10012,
        "LL_WRITE_ACCESS",
        &[LlWriteAccess],
        LastLevel,
        "last-level accesses by L1D write misses"
    ),
    ev!(
        0x10013,
        "LL_WRITE_MISS",
        &[LlWriteMiss],
        LastLevel,
        "last-level misses of writes"
    ),
    ev!(
        0x10018,
        "DTLB_READ_ACCESS",
        &[DtlbReadAccess],
        Tlb,
        "DTLB lookups by translated loads and LR"
    ),
    ev!(
        0x10019,
        "DTLB_READ_MISS",
        &[DtlbReadMiss],
        Tlb,
        "DTLB misses of loads and LR"
    ),
    ev!(
        0x1001a,
        "DTLB_WRITE_ACCESS",
        &[DtlbWriteAccess],
        Tlb,
        "DTLB lookups by translated stores, SC and AMOs"
    ),
    ev!(
        0x1001b,
        "DTLB_WRITE_MISS",
        &[DtlbWriteMiss],
        Tlb,
        "DTLB misses of stores, SC and AMOs"
    ),
    ev!(
        0x10020,
        "ITLB_READ_ACCESS",
        &[ItlbReadAccess],
        Tlb,
        "ITLB lookups (fetch moving to another page)"
    ),
    ev!(
        0x10021,
        "ITLB_READ_MISS",
        &[ItlbReadMiss],
        Tlb,
        "ITLB misses"
    ),
    ev!(
        0x10028,
        "BPU_READ_ACCESS",
        BRANCH_CLASSES,
        Bp,
        "predictions: conditional branches, jumps, calls and returns"
    ),
    ev!(
        0x10029,
        "BPU_READ_MISS",
        MISPREDICT_CLASSES,
        Bp,
        "mispredictions"
    ),
    // Type 2: hartscope's own events (SBI raw events).
    ev!(
        0x20001,
        "LOADS",
        &[Loads],
        Nothing,
        "load instructions retired (LR excluded)"
    ),
    ev!(
        0x20002,
        "STORES",
        &[Stores],
        Nothing,
        "store instructions retired (SC excluded)"
    ),
    ev!(
        0x20003,
        "ATOMICS",
        &[Atomics],
        Nothing,
        "AMO, LR and SC instructions retired"
    ),
    ev!(
        0x20004,
        "BRANCHES_TAKEN",
        &[BranchesTaken],
        Nothing,
        "conditional branches taken"
    ),
    ev!(
        0x20005,
        "BRANCHES_NOT_TAKEN",
        &[BranchesNotTaken],
        Nothing,
        "conditional branches not taken"
    ),
    ev!(
        0x20006,
        "JUMPS",
        &[Jumps],
        Nothing,
        "jumps that are neither calls nor returns"
    ),
    ev!(0x20007, "CALLS", &[Calls], Nothing, "calls"),
    ev!(0x20008, "RETURNS", &[Returns], Nothing, "returns"),
    ev!(
        0x20009,
        "FP_OPS",
        &[FpOps],
        Nothing,
        "F/D instructions other than loads and stores"
    ),
    ev!(
        0x2000a,
        "EXCEPTIONS",
        &[Exceptions],
        Nothing,
        "exceptions taken"
    ),
    ev!(
        0x2000b,
        "INTERRUPTS",
        &[Interrupts],
        Nothing,
        "interrupts taken"
    ),
    ev!(
        0x2000c,
        "MISALIGNED",
        &[Misaligned],
        Nothing,
        "misaligned loads, stores and AMOs"
    ),
    ev!(
        0x2000d,
        "CONDITIONAL_BRANCHES",
        &[BranchesTaken, BranchesNotTaken],
        Nothing,
        "conditional branches retired"
    ),
    ev!(
        0x2000e,
        "COND_MISPREDICTS",
        &[CondMispredicts],
        Bp,
        "conditional branches with a mispredicted direction"
    ),
    ev!(
        0x2000f,
        "TARGET_MISPREDICTS",
        &[TargetMispredicts],
        Bp,
        "indirect jumps, calls and returns with a mispredicted target"
    ),
];

/// The definition of a selector, supported or not in the current configuration.
pub fn lookup(selector: u64) -> Option<&'static EventDef> {
    EVENTS
        .binary_search_by_key(&selector, |e| e.selector)
        .ok()
        .map(|i| &EVENTS[i])
}

/// The definition of a selector if the configuration supports it.
pub fn lookup_supported(selector: u64, cfg: &PmuConfig) -> Option<&'static EventDef> {
    lookup(selector).filter(|e| e.supported(cfg))
}

/// A readable name for any mhpmevent value's selector.
pub fn selector_name(selector: u64) -> String {
    let selector = selector & SELECTOR_MASK;
    match lookup(selector) {
        Some(e) => e.name.to_string(),
        None if selector == 0 => "none".to_string(),
        None => format!("unknown {selector:#x}"),
    }
}

/// The mhpmevent value a write leaves (WARL): flags software can write, VSINH/VUINH/WPRI
/// zero, and an unsupported selector replaced by 0.
pub fn legalize(value: u64, cfg: &PmuConfig) -> u64 {
    let sel = value & SELECTOR_MASK;
    let sel = if lookup_supported(sel, cfg).is_some() {
        sel
    } else {
        0
    };
    (value & MHPMEVENT_FLAGS) | sel
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_and_unique() {
        for w in EVENTS.windows(2) {
            assert!(
                w[0].selector < w[1].selector,
                "{} / {}",
                w[0].name,
                w[1].name
            );
        }
    }

    #[test]
    fn cache_codes_follow_the_sbi_layout() {
        // event_idx.code = cache_id << 3 | op_id << 1 | result_id (SBI PMU, hardware cache
        // events): DTLB (3) write (1) miss (1).
        assert_eq!(
            lookup(0x10000 | (3 << 3) | (1 << 1) | 1).unwrap().name,
            "DTLB_WRITE_MISS"
        );
        assert_eq!(
            lookup(0x10000 | (5 << 3) | 1).unwrap().name,
            "BPU_READ_MISS"
        );
    }

    #[test]
    fn warl() {
        let off = PmuConfig::default();
        let on = PmuConfig::default().with_all_models();
        // Supported selector with every flag: VSINH, VUINH and the WPRI bits drop.
        assert_eq!(legalize(u64::MAX << 56 | 0x2, &off), MHPMEVENT_FLAGS | 0x2);
        // An unsupported selector becomes "no event", the flags stay.
        assert_eq!(legalize(MHPMEVENT_OF | 0x7, &off), MHPMEVENT_OF);
        assert_eq!(legalize(0x10001, &off), 0);
        assert_eq!(legalize(0x10001, &on), 0x10001);
        assert_eq!(selector_name(0), "none");
        assert_eq!(selector_name(0x10001), "L1D_READ_MISS");
        assert_eq!(selector_name(0x77), "unknown 0x77");
    }
}
