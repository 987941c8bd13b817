//! The counters (Zicntr, Zihpm, Sscofpmf), kept lazily from the per-privilege totals.
//!
//! Counter `i` (0 mcycle, 2 minstret, 3..=31 mhpmcounter3..31; 1 is `time`, not ours) is
//!
//! ```text
//! value = (base + Σ_terms totals[p][c] − snap) mod 2^width
//! ```
//!
//! where the terms are the (privilege, class) pairs it counts: its event's classes, in every
//! privilege whose inhibit bit (mhpmevent.MINH/SINH/UINH) is clear, or none when its
//! mcountinhibit bit is set or it selects no event. Writing the counter, its mhpmevent or
//! mcountinhibit *rebases* it: the value as of now becomes `base`, the terms change, and
//! `snap` becomes their current sum. Between rebases nothing about a counter changes, so the
//! hart's only work is bumping totals.
//!
//! Overflow (Sscofpmf): a counter overflows when `base + growth` reaches 2^width, that is
//! when its growth since the rebase reaches `need = 2^width − base`. Counters that can
//! overflow with OF clear are *armed* with that need; [`Pmu::check_overflow`] compares each
//! armed counter's growth against it, sets OF and reports that LCOFIP must be raised. A
//! counter with OF set wraps silently, as the spec says. Writes never overflow a counter.
//! Reads are exact whenever the totals are: an overflow not yet seen by check_overflow
//! already shows in mhpmevent.OF and scountovf, and a rebase first records the overflows
//! that happened before it (reported by the next check_overflow).

use crate::class::{prv_index, Class, NCLASS, NPRV};
use crate::config::{ConfigError, PmuConfig};
use crate::event::{self, INH_BY_PRV, MHPMEVENT_OF, SELECTOR_MASK};
use crate::model::Models;
use crate::sbi::SbiState;
use arch::Priv;

/// Most (privilege, class) terms a counter sums: 3 privileges × 5 classes
/// (BRANCH_INSTRUCTIONS).
const MAX_TERMS: usize = 16;

/// Counter indices with a fixed event.
pub const MCYCLE_IDX: usize = 0;
pub const TIME_IDX: usize = 1;
pub const MINSTRET_IDX: usize = 2;
/// The first hpm counter.
pub const HPM_FIRST: usize = 3;

const CYCLE_CLASSES: &[Class] = &[
    Class::Instructions,
    Class::StallFrontend,
    Class::StallBackend,
];
const INSTRET_CLASSES: &[Class] = &[Class::Instructions];

#[derive(Clone, Copy, Debug)]
pub(crate) struct Counter {
    /// The value at the last rebase.
    base: u64,
    /// The sum of the terms at the last rebase.
    snap: u64,
    /// (privilege index, class index) pairs.
    terms: [(u8, u8); MAX_TERMS],
    nterms: u8,
    /// Value mask (the counter's width).
    mask: u64,
}

impl Counter {
    const EMPTY: Counter = Counter {
        base: 0,
        snap: 0,
        terms: [(0, 0); MAX_TERMS],
        nterms: 0,
        mask: u64::MAX,
    };

    #[inline]
    fn sum(&self, totals: &[[u64; NCLASS]; NPRV]) -> u64 {
        let mut s = 0u64;
        for &(p, c) in &self.terms[..self.nterms as usize] {
            s = s.wrapping_add(totals[p as usize][c as usize]);
        }
        s
    }

    #[inline]
    fn growth(&self, totals: &[[u64; NCLASS]; NPRV]) -> u64 {
        self.sum(totals).wrapping_sub(self.snap)
    }

    #[inline]
    fn value(&self, totals: &[[u64; NCLASS]; NPRV]) -> u64 {
        self.base.wrapping_add(self.growth(totals)) & self.mask
    }
}

/// An hpm counter that can overflow with OF clear.
#[derive(Clone, Copy, Debug, Default)]
struct Armed {
    idx: u8,
    /// Growth since the rebase at which the counter wraps.
    need: u64,
    /// The most the counter can grow per retired instruction.
    max_per_insn: u64,
}

/// The PMU of one hart: counters, event totals, models and the SBI PMU extension's state.
#[derive(Clone, Debug)]
pub struct Pmu {
    /// Monotonic event totals, `totals[prv_index(p)][class]`. The hart bumps them (directly,
    /// or with [`Pmu::count`] and [`Pmu::retire`]); everything else is derived from them.
    pub totals: [[u64; NCLASS]; NPRV],
    pub(crate) cfg: PmuConfig,
    ctr: [Counter; 32],
    /// Stored mhpmevent values (3..=31; legal values only).
    mhpmevent: [u64; 32],
    mcountinhibit: u32,
    armed: [Armed; 29],
    narmed: usize,
    /// An overflow was detected outside check_overflow (before a rebase): report it at the
    /// next check_overflow.
    lcofi_latched: bool,
    /// Instructions that may retire before the next overflow check is due (see
    /// [`Pmu::after_run`]); 0 forces a check.
    countdown: u64,
    live: u64,
    max_fetch_stall: u64,
    max_data_stall: u64,
    pub(crate) models: Models,
    pub(crate) sbi: SbiState,
}

impl Pmu {
    /// A PMU at reset: every counter zero and counting (mcountinhibit 0), every mhpmevent 0.
    pub fn new(cfg: PmuConfig) -> Result<Pmu, ConfigError> {
        cfg.validate()?;
        let p = cfg.penalties;
        let mem = p.l1_miss + p.ll_miss;
        let (caches, tlb, bp) = (cfg.caches.is_some(), cfg.tlb.is_some(), cfg.bp.is_some());
        let max_data_stall =
            if caches { 2 * mem } else { 0 } + if tlb { 2 * p.tlb_miss } else { 0 };
        let max_fetch_stall = max_data_stall + if bp { p.mispredict } else { 0 };
        let mut pmu = Pmu {
            totals: [[0; NCLASS]; NPRV],
            ctr: [Counter::EMPTY; 32],
            mhpmevent: [0; 32],
            mcountinhibit: 0,
            armed: [Armed::default(); 29],
            narmed: 0,
            lcofi_latched: false,
            countdown: u64::MAX,
            live: 0,
            max_fetch_stall,
            max_data_stall,
            models: Models::new(&cfg),
            sbi: SbiState::new(&cfg),
            cfg,
        };
        for i in 0..32 {
            pmu.ctr[i].mask = if i < HPM_FIRST {
                u64::MAX
            } else {
                pmu.cfg.hpm_mask()
            };
            pmu.retarget(i);
        }
        pmu.refresh();
        Ok(pmu)
    }

    pub fn config(&self) -> &PmuConfig {
        &self.cfg
    }

    /// Number of implemented hpm counters.
    pub fn hpm_counters(&self) -> usize {
        self.cfg.hpm_counters as usize
    }

    /// Whether counter `i` exists (mcycle, minstret and the implemented hpm counters).
    #[inline]
    pub fn implemented(&self, i: usize) -> bool {
        i == MCYCLE_IDX
            || i == MINSTRET_IDX
            || (HPM_FIRST..HPM_FIRST + self.hpm_counters()).contains(&i)
    }

    /// The mcountinhibit bits that exist: CY, IR and the implemented hpm counters.
    pub fn counter_mask(&self) -> u32 {
        let hpm = ((1u64 << self.hpm_counters()) - 1) as u32;
        0b101 | (hpm << HPM_FIRST)
    }

    // ----- the hart's hot path -------------------------------------------------------------

    /// Add `n` events of `class` in privilege `prv`.
    #[inline]
    pub fn count(&mut self, prv: Priv, class: Class, n: u64) {
        let t = &mut self.totals[prv_index(prv)][class as usize];
        *t = t.wrapping_add(n);
    }

    /// `n` instructions retired in `prv` (one cycle each in the cost model).
    #[inline]
    pub fn retire(&mut self, prv: Priv, n: u64) {
        self.count(prv, Class::Instructions, n);
    }

    /// The totals of one privilege, to bump several classes at once.
    #[inline]
    pub fn totals_mut(&mut self, prv: Priv) -> &mut [u64; NCLASS] {
        &mut self.totals[prv_index(prv)]
    }

    /// The classes some counter currently counts (bit `Class::bit`). A hart may skip bumping
    /// a class outside this mask; it changes only in `csr_write`, `sbi_pmu_call` and
    /// `write_*`, so re-read it after those.
    #[inline]
    pub fn live_classes(&self) -> u64 {
        self.live
    }

    /// The overflow check for the hart's hot path: call after every retired run, `n` being
    /// the instructions retired since the previous call (their totals already bumped; `n`
    /// may be 0, after a trap). True when
    /// LCOFIP must be raised. It costs a compare and a subtraction until an overflow is
    /// possible: between checks it counts down [`Pmu::overflow_horizon`], so an overflow is
    /// reported at the end of the run in which it happened, exactly as if
    /// [`Pmu::check_overflow`] ran after every run.
    ///
    /// The count down assumes each instruction reports at most one fetch run of its own
    /// bytes, one data access and one branch, and bumps at most one instruction class;
    /// traps are reported with [`Pmu::trap_taken`].
    /// Whether [`Pmu::after_run`]`(n)` would look at the counters (so the totals must be up to
    /// date first); when false, it only counts down.
    #[inline]
    pub fn due(&self, n: u64) -> bool {
        n >= self.countdown
    }

    #[inline]
    pub fn after_run(&mut self, n: u64) -> bool {
        if n < self.countdown {
            self.countdown -= n;
            return false;
        }
        self.overflow_due()
    }

    #[cold]
    fn overflow_due(&mut self) -> bool {
        let raised = self.check_overflow();
        self.countdown = self.overflow_horizon();
        raised
    }

    /// A trap was taken from privilege `prv` (an interrupt, or an exception, ecall
    /// included). Forces the next [`Pmu::after_run`] to check for overflow.
    #[inline]
    pub fn trap_taken(&mut self, prv: Priv, interrupt: bool) {
        let c = if interrupt {
            Class::Interrupts
        } else {
            Class::Exceptions
        };
        self.count(prv, c, 1);
        if self.narmed != 0 {
            self.countdown = 0;
        }
    }

    /// Whether some counter can overflow, or an overflow awaits reporting: call
    /// [`Pmu::check_overflow`] after each run then.
    #[inline]
    pub fn armed(&self) -> bool {
        self.narmed != 0 || self.lcofi_latched
    }

    /// Set OF on every armed counter that has overflowed since its rebase. True when at least
    /// one did (here or in a write since the last check): the hart must set mip.LCOFIP
    /// (interrupt 13).
    #[inline]
    pub fn check_overflow(&mut self) -> bool {
        let found = self.narmed != 0 && self.detect();
        // Take the latch whatever detect found: both are this one report.
        let latched = std::mem::take(&mut self.lcofi_latched);
        found || latched
    }

    /// Set OF on every armed counter past its need and disarm it; true if any.
    fn detect(&mut self) -> bool {
        let mut found = false;
        let mut k = 0;
        while k < self.narmed {
            let a = self.armed[k];
            if self.ctr[a.idx as usize].growth(&self.totals) >= a.need {
                self.mhpmevent[a.idx as usize] |= MHPMEVENT_OF;
                self.narmed -= 1;
                self.armed[k] = self.armed[self.narmed];
                found = true;
            } else {
                k += 1;
            }
        }
        found
    }

    /// Whether armed counter `i` has overflowed but check_overflow has not seen it yet.
    fn overflowed_unseen(&self, i: usize) -> bool {
        self.armed[..self.narmed]
            .iter()
            .any(|a| a.idx as usize == i && self.ctr[i].growth(&self.totals) >= a.need)
    }

    /// How many more instructions can retire before some armed counter might overflow
    /// (u64::MAX when none is armed; at least 1). A hart that ends its runs within this many
    /// instructions and then calls [`Pmu::check_overflow`] sees every overflow at the
    /// instruction that causes it.
    pub fn overflow_horizon(&self) -> u64 {
        let mut h = u64::MAX;
        for a in &self.armed[..self.narmed] {
            let c = &self.ctr[a.idx as usize];
            let left = a.need.saturating_sub(c.growth(&self.totals));
            let insns = left.div_ceil(a.max_per_insn.max(1)).max(1);
            h = h.min(insns);
        }
        h
    }

    /// The total cycles of the cost model in every privilege, whatever the counters do
    /// (for timestamps and CTR cycle counts).
    pub fn cycle_total(&self) -> u64 {
        let mut s = 0u64;
        for row in &self.totals {
            for c in CYCLE_CLASSES {
                s = s.wrapping_add(row[*c as usize]);
            }
        }
        s
    }

    // ----- machine-mode view ---------------------------------------------------------------

    /// The value of counter `i` (0 for a counter that does not exist).
    #[inline]
    pub fn counter(&self, i: usize) -> u64 {
        if self.implemented(i) {
            self.ctr[i].value(&self.totals)
        } else {
            0
        }
    }

    /// Write counter `i` (ignored for a counter that does not exist).
    pub fn write_counter(&mut self, i: usize, v: u64) {
        if self.implemented(i) {
            self.lcofi_latched |= self.detect();
            let c = &mut self.ctr[i];
            c.base = v & c.mask;
            c.snap = c.sum(&self.totals);
            self.refresh();
        }
    }

    /// mhpmevent `i` (3..=31; 0 for one that does not exist).
    pub fn mhpmevent(&self, i: usize) -> u64 {
        if i >= HPM_FIRST && self.implemented(i) {
            let of = if self.overflowed_unseen(i) {
                MHPMEVENT_OF
            } else {
                0
            };
            self.mhpmevent[i] | of
        } else {
            0
        }
    }

    /// Write mhpmevent `i` with its WARL rules (see `event.rs`).
    pub fn write_mhpmevent(&mut self, i: usize, v: u64) {
        if i >= HPM_FIRST && self.implemented(i) {
            let v = event::legalize(v, &self.cfg);
            self.reconfigure(1 << i, |p| p.mhpmevent[i] = v);
        }
    }

    pub fn mcountinhibit(&self) -> u32 {
        self.mcountinhibit
    }

    /// Write mcountinhibit (bits of counters that do not exist, and TM, read as zero).
    pub fn write_mcountinhibit(&mut self, v: u32) {
        let v = v & self.counter_mask();
        let changed = v ^ self.mcountinhibit;
        self.reconfigure(changed, |p| p.mcountinhibit = v);
    }

    /// scountovf as M-mode reads it: bit i = mhpmevent i's OF.
    pub fn scountovf(&self) -> u32 {
        let mut v = 0u32;
        for i in HPM_FIRST..32 {
            if self.mhpmevent(i) & MHPMEVENT_OF != 0 {
                v |= 1 << i;
            }
        }
        v
    }

    /// The privileges (bit per privilege index) counter `i` counts in, as configured.
    pub(crate) fn counting_privileges(&self, i: usize) -> u8 {
        if !self.implemented(i) || self.mcountinhibit & (1 << i) != 0 {
            return 0;
        }
        if i < HPM_FIRST {
            return 0b111;
        }
        let e = self.mhpmevent[i];
        if e & SELECTOR_MASK == 0 {
            return 0;
        }
        (0..NPRV)
            .filter(|&p| e & INH_BY_PRV[p] == 0)
            .fold(0u8, |m, p| m | 1 << p)
    }

    /// The classes counter `i` sums.
    pub(crate) fn counter_classes(&self, i: usize) -> &'static [Class] {
        match i {
            MCYCLE_IDX => CYCLE_CLASSES,
            MINSTRET_IDX => INSTRET_CLASSES,
            TIME_IDX => &[],
            _ => event::lookup(self.mhpmevent[i] & SELECTOR_MASK).map_or(&[], |e| e.classes),
        }
    }

    /// Change configuration with `f`, keeping the value of every counter in `which` (a bit
    /// mask) continuous across the change.
    pub(crate) fn reconfigure(&mut self, which: u32, f: impl FnOnce(&mut Pmu)) {
        // Overflows up to now happened under the old configuration.
        self.lcofi_latched |= self.detect();
        let mut values = [0u64; 32];
        for (i, v) in values.iter_mut().enumerate() {
            if which & (1 << i) != 0 {
                *v = self.ctr[i].value(&self.totals);
            }
        }
        f(self);
        for (i, v) in values.iter().enumerate() {
            if which & (1 << i) != 0 {
                self.retarget(i);
                let c = &mut self.ctr[i];
                c.base = *v;
                c.snap = c.sum(&self.totals);
            }
        }
        self.refresh();
    }

    /// Recompute counter `i`'s terms from the configuration (its value must be rebased).
    fn retarget(&mut self, i: usize) {
        let prvs = self.counting_privileges(i);
        let classes = self.counter_classes(i);
        let c = &mut self.ctr[i];
        c.nterms = 0;
        for p in 0..NPRV {
            if prvs & (1 << p) != 0 {
                for cl in classes {
                    c.terms[c.nterms as usize] = (p as u8, *cl as u8);
                    c.nterms += 1;
                }
            }
        }
    }

    /// Rebuild the armed list and the live class mask.
    fn refresh(&mut self) {
        self.live = 0;
        self.narmed = 0;
        for i in 0..32 {
            let c = &self.ctr[i];
            for &(_, cl) in &c.terms[..c.nterms as usize] {
                self.live |= 1 << cl;
            }
            if i < HPM_FIRST || c.nterms == 0 || self.mhpmevent[i] & MHPMEVENT_OF != 0 {
                continue;
            }
            // need = 2^width - base, growth counted from the rebase.
            // A counter already past its need stays armed: the next check_overflow sees it.
            let need = (c.mask as u128 + 1) - (c.base & c.mask) as u128;
            if need > u64::MAX as u128 {
                // A 64-bit counter from 0 would need 2^64 events.
                continue;
            }
            let (f, d) = (self.max_fetch_stall, self.max_data_stall);
            let max_per_insn = self
                .counter_classes(i)
                .iter()
                .map(|cl| cl.max_per_insn(f, d))
                .sum();
            self.armed[self.narmed] = Armed {
                idx: i as u8,
                need: need as u64,
                max_per_insn,
            };
            self.narmed += 1;
        }
        self.countdown = if self.lcofi_latched {
            0
        } else {
            self.overflow_horizon()
        };
    }

    /// Counters back to reset and every total to zero; the models forget everything; the SBI
    /// state is cleared.
    pub fn reset(&mut self) {
        let cfg = self.cfg.clone();
        // The configuration was validated when this PMU was made.
        if let Ok(p) = Pmu::new(cfg) {
            *self = p;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pmu() -> Pmu {
        Pmu::new(PmuConfig::default()).unwrap()
    }

    #[test]
    fn cycles_and_instret_count_everywhere() {
        let mut p = pmu();
        p.retire(Priv::U, 5);
        p.retire(Priv::S, 3);
        p.retire(Priv::M, 2);
        assert_eq!(p.counter(MCYCLE_IDX), 10);
        assert_eq!(p.counter(MINSTRET_IDX), 10);
        p.count(Priv::S, Class::StallBackend, 7);
        assert_eq!(p.counter(MCYCLE_IDX), 17);
        assert_eq!(p.cycle_total(), 17);
    }

    #[test]
    fn write_and_inhibit_rebase() {
        let mut p = pmu();
        p.retire(Priv::M, 100);
        p.write_counter(MINSTRET_IDX, 1000);
        p.retire(Priv::M, 1);
        assert_eq!(p.counter(MINSTRET_IDX), 1001);
        p.write_mcountinhibit(0b100);
        p.retire(Priv::M, 50);
        assert_eq!(p.counter(MINSTRET_IDX), 1001);
        assert_eq!(p.counter(MCYCLE_IDX), 151);
        p.write_mcountinhibit(0);
        p.retire(Priv::U, 2);
        assert_eq!(p.counter(MINSTRET_IDX), 1003);
    }

    #[test]
    fn mode_inhibit_bits() {
        let mut p = pmu();
        p.write_mhpmevent(3, event::MHPMEVENT_UINH | 0x20001); // loads, not in U
        p.count(Priv::U, Class::Loads, 10);
        p.count(Priv::S, Class::Loads, 3);
        p.count(Priv::M, Class::Loads, 4);
        assert_eq!(p.counter(3), 7);
        p.write_mhpmevent(3, event::MHPMEVENT_MINH | event::MHPMEVENT_SINH | 0x20001);
        p.count(Priv::S, Class::Loads, 3);
        p.count(Priv::U, Class::Loads, 1);
        assert_eq!(p.counter(3), 8);
    }

    #[test]
    fn overflow_sets_of_once_and_wraps() {
        let cfg = PmuConfig {
            hpm_width: 8,
            ..PmuConfig::default()
        };
        let mut p = Pmu::new(cfg).unwrap();
        p.write_mhpmevent(4, 0x2); // instructions, OF clear
        p.write_counter(4, 250);
        assert!(p.armed());
        assert_eq!(p.overflow_horizon(), 6);
        p.retire(Priv::S, 5);
        assert!(!p.check_overflow());
        assert_eq!(p.counter(4), 255);
        p.retire(Priv::S, 1);
        assert!(p.check_overflow());
        assert_eq!(p.counter(4), 0);
        assert_eq!(p.scountovf(), 1 << 4);
        assert!(!p.armed());
        // OF set: wraps again silently.
        p.retire(Priv::S, 300);
        assert!(!p.check_overflow());
        assert_eq!(p.counter(4), 300 % 256);
    }

    #[test]
    fn unimplemented_counters_read_zero() {
        let cfg = PmuConfig {
            hpm_counters: 2,
            ..PmuConfig::default()
        };
        let mut p = Pmu::new(cfg).unwrap();
        p.write_mhpmevent(5, 0x2);
        p.write_counter(5, 9);
        assert_eq!(p.mhpmevent(5), 0);
        assert_eq!(p.counter(5), 0);
        p.write_mcountinhibit(u32::MAX);
        assert_eq!(p.mcountinhibit(), 0b11101);
    }
}
