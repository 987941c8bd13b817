//! Control Transfer Records (Smctr/Ssctr): a pure model of the record array and its CSRs,
//! with no knowledge of the hart that owns it.
//!
//! Two layouts are modelled, chosen by [`CtrConfig::layout`]: the draft v0.1.4 this project
//! was seeded with (`../shared/specs/smctr-ssctr-0.1.4.txt`) and the ratified 1.0 (whose
//! facts are listed in `../shared/specs/README.md`). `docs/ctr.md` describes both, every CSR
//! and bit, and every place where the spec had to be interpreted.
//!
//! # How the hart drives it
//!
//! The hart owns one [`Ctr`] in its CSR file and
//! - checks [`Ctr::active`] (one load and one branch) before reporting anything; when it is
//!   false no privilege mode records and no freeze can happen, so events may be skipped;
//! - reports every retired control transfer with [`Ctr::transfer`] (including not-taken
//!   branches), every trap taken with [`Ctr::trap`] (which also performs freeze on LCOFI and
//!   breakpoints) and every MRET/SRET with [`Ctr::xret`], each with the PMU cycle count;
//! - forwards CSR accesses: [`Ctr::csr_read`]/[`Ctr::csr_write`] for the directly addressed
//!   CSRs, [`Ctr::ireg_read`]/[`Ctr::ireg_write`] for `mireg*`/`sireg*` while the select
//!   register holds 0x200..0x2FF, and [`Ctr::sctrclr`] for the SCTRCLR encoding. A
//!   [`Fault`] means "raise an illegal-instruction exception".
//!
//! Privilege transitions, filtering, RAS emulation, freeze and cycle counting are all decided
//! here (module `record`); the CSR side is in module `csr`.

pub mod bits;
mod config;
mod csr;
pub mod cycles;
mod entry;
mod record;

pub use config::{ConfigError, CtrConfig, Layout};
pub use csr::{AccessCtx, Bank, Fault};
pub use entry::{Entry, EntryView};
pub use record::Outcome;

use arch::{Itype, Priv};
use bits::CtlBits;
use cycles::CycleCounter;

/// The CTR state of one hart.
#[derive(Clone, Debug)]
pub struct Ctr {
    cfg: CtrConfig,
    /// Bit positions of the control register in this layout.
    bits: &'static CtlBits,
    /// Writable bits of the control register, other than DEPTH and CLR (handled apart).
    ctl_mask: u64,
    /// The control register (`mctrcontrol` / `mctrctl`) without DEPTH and CLR.
    ctl: u64,
    /// log2(depth / 16): 0 = 16 ... 4 = 256.
    depth_log: u8,
    /// WRPTR: the physical entry written next (< depth).
    wrptr: u8,
    /// WRAP (0.1.4 only; never set in 1.0).
    wrap: bool,
    /// FROZEN.
    frozen: bool,
    /// The physical array, as deep as the largest supported depth.
    entries: Box<[Entry]>,
    /// CtrCycleCounter.
    cc: CycleCounter,
    /// The privilege mode the hart is in, as last reported.
    cur: Priv,
    /// Cache: bit `p` set when the mode with encoding `p` (U 0, S 1, M 3) records.
    enabled: u8,
    /// Cache: events matter (some mode records, or a freeze can still happen).
    wants_events: bool,
    /// Cache for the fast path of [`Ctr::transfer`]: bit `16 * p + t` set when a transfer of
    /// type code `t` in the mode with encoding `p` is simply recorded (mode enabled, not
    /// frozen, no RAS emulation, type wanted).
    fast: u64,
    /// Bit `p` set when the mode with encoding `p` records without RAS emulation and is not
    /// frozen: a transfer there that `fast` does not record is simply filtered out.
    plain: u8,
    /// By mode encoding (U 0, S 1, M 3, Debug 4): [`GATE_OPEN`] when the mode is the current
    /// one and records plainly (bit `p` of `plain`), with the type codes `fast` records there
    /// in the low 16 bits, and [`GATE_DEFER`] when records are deferred; 0 otherwise. One
    /// load decides [`Ctr::transfer`]'s fast path.
    gate: [u32; 5],
    /// Records made on the fast path and not yet written to the array (see [`Ctr::flush`]):
    /// a ring holding the last [`PENDING`] of the `pending_len` made since the last flush
    /// (only the last DEPTH of them, and the one before, are ever needed).
    pending: Box<[Pending; PENDING]>,
    pending_len: usize,
    /// Fast-path records are deferred to [`Ctr::flush`] ([`Ctr::set_deferred`]).
    defer: bool,
}

/// [`Ctr::transfer`] may take its fast path in this mode (see `Ctr::gate`).
const GATE_OPEN: u32 = 1 << 16;
/// With [`GATE_OPEN`]: the fast path defers its records (`Ctr::defer`).
const GATE_DEFER: u32 = 1 << 17;

/// A record made on [`Ctr::transfer`]'s fast path: the array is brought up to date later, in
/// bulk, by [`Ctr::flush`].
#[derive(Clone, Copy, Debug)]
struct Pending {
    source: u64,
    target: u64,
    /// TYPE, and MISP in bit 63.
    ty_misp: u64,
    /// The cycle count when it was made.
    cycles: u64,
}

/// Size of the ring of pending records: a power of two above the largest depth (256) plus
/// one, so the ring never needs a flush to make room.
const PENDING: usize = 512;
const _: () = assert!(PENDING.is_power_of_two() && PENDING > 256 + 1);

impl Ctr {
    /// A CTR in its reset state: control register 0 (nothing enabled), DEPTH the minimum
    /// supported depth (the value a write of 0 gives), WRPTR 0, not frozen, entries all 0.
    pub fn new(cfg: CtrConfig) -> Result<Ctr, ConfigError> {
        cfg.validate()?;
        let bits = match cfg.layout {
            Layout::Draft014 => &bits::DRAFT014,
            Layout::Ratified10 => &bits::RATIFIED10,
        };
        let mut ctl_mask = bits.m | bits.s | bits.u;
        if cfg.rasemu {
            ctl_mask |= bits.rasemu;
        }
        if cfg.external_traps {
            ctl_mask |= bits.mte | bits.ste | bits.eten;
        }
        if cfg.bpfrz || cfg.layout == Layout::Ratified10 {
            ctl_mask |= bits.bpfrz;
        }
        if cfg.lcofifrz {
            ctl_mask |= bits.lcofifrz;
        }
        ctl_mask |= u64::from(cfg.filter_bits & bits::FILTERS_ALL) << bits::FILTER_SHIFT;
        ctl_mask |= u64::from(cfg.custom_bits & 0xF) << bits::CUSTOM_SHIFT;
        let mut ctr = Ctr {
            cfg,
            bits,
            ctl_mask,
            ctl: 0,
            depth_log: cfg.min_depth_log(),
            wrptr: 0,
            wrap: false,
            frozen: false,
            entries: vec![Entry::ZERO; cfg.max_depth()].into_boxed_slice(),
            cc: CycleCounter::new(),
            cur: Priv::M,
            enabled: 0,
            wants_events: false,
            fast: 0,
            plain: 0,
            gate: [0; 5],
            pending: Box::new(
                [Pending {
                    source: 0,
                    target: 0,
                    ty_misp: 0,
                    cycles: 0,
                }; PENDING],
            ),
            pending_len: 0,
            defer: false,
        };
        ctr.refresh();
        Ok(ctr)
    }

    /// Defer the records of plain transfers (the common case: mode unchanged, recording, no
    /// RAS emulation) to [`Ctr::flush`], which writes only the last `depth` of them. A caller
    /// that turns this on must call `flush` before reading CTR state through `&self` (CSR and
    /// entry reads); everything that changes CTR flushes first by itself.
    pub fn set_deferred(&mut self, on: bool) {
        self.flush();
        self.defer = on;
        self.regate();
    }

    /// Whether the hart must report events. False when no privilege mode is enabled for
    /// recording and no freeze (BPFRZ/LCOFIFRZ with FROZEN clear) can happen: then transfers,
    /// traps and trap returns change nothing, and the hart may skip the calls. CSR accesses
    /// must always be forwarded.
    #[inline(always)]
    pub fn active(&self) -> bool {
        self.wants_events
    }

    /// Whether transfers in privilege mode `prv` are recorded (its enable bit is set and CTR
    /// is not frozen): the spec's "CTR is active" for that mode. Debug mode never records.
    #[inline]
    pub fn recording_in(&self, prv: Priv) -> bool {
        self.mode_enabled(prv) && !self.frozen
    }

    /// The configuration.
    pub fn config(&self) -> &CtrConfig {
        &self.cfg
    }

    /// The layout.
    pub fn layout(&self) -> Layout {
        self.cfg.layout
    }

    /// The selected depth (16..=256).
    pub fn depth(&self) -> usize {
        16 << self.depth_log
    }

    /// WRPTR.
    pub fn wrptr(&self) -> usize {
        debug_assert!(
            self.pending_len == 0,
            "CTR read with deferred records: flush first"
        );
        usize::from(self.wrptr)
    }

    /// WRAP (always false in 1.0, which has no WRAP).
    pub fn wrap(&self) -> bool {
        self.wrap
    }

    /// FROZEN.
    pub fn frozen(&self) -> bool {
        self.frozen
    }

    /// The M-mode view of the control register, as `mctrcontrol` / `mctrctl` reads.
    pub fn control(&self) -> u64 {
        self.ctl_value()
    }

    /// Logical entry `logical` (0 = youngest), decoded; `None` at or beyond the depth.
    pub fn entry(&self, logical: usize) -> Option<EntryView> {
        debug_assert!(
            self.pending_len == 0,
            "CTR read with deferred records: flush first"
        );
        (logical < self.depth()).then(|| self.entries[self.physical(logical)].view(logical))
    }

    /// Logical entries 0..depth, youngest first, decoded (invalid ones included, V = 0).
    pub fn entries(&self) -> impl Iterator<Item = EntryView> + '_ {
        debug_assert!(
            self.pending_len == 0,
            "CTR read with deferred records: flush first"
        );
        (0..self.depth()).map(move |i| self.entries[self.physical(i)].view(i))
    }

    // ---- internals shared by the modules ----

    /// The physical entry of logical entry `x` < depth: (WRPTR - x - 1) mod depth.
    #[inline]
    fn physical(&self, x: usize) -> usize {
        let depth = self.depth();
        (usize::from(self.wrptr) + depth - 1 - x) & (depth - 1)
    }

    #[inline]
    fn mode_enabled(&self, prv: Priv) -> bool {
        prv != Priv::Debug && self.enabled & (1 << prv.bits()) != 0
    }

    /// Whether the interval since the last event counts as qualified cycles.
    #[inline]
    fn counting(&self) -> bool {
        self.recording_in(self.cur)
    }

    /// An event in mode `prv` at `now`, before anything that changes the mode, the enable bits
    /// or FROZEN: bring the cycle counter up to `now` in the mode reported so far, then take
    /// `prv` as the current mode.
    fn settle_in(&mut self, prv: Priv, now: u64) {
        let q = self.counting();
        self.cc.settle(now, q);
        self.cur = prv;
        self.regate();
    }

    #[inline]
    fn ctl_has(&self, mask: u64) -> bool {
        self.ctl & mask != 0
    }

    /// Recompute the caches after the control register or FROZEN changed.
    fn refresh(&mut self) {
        let b = self.bits;
        let mut e = 0u8;
        if self.ctl & b.u != 0 {
            e |= 1 << Priv::U.bits();
        }
        if self.ctl & b.s != 0 {
            e |= 1 << Priv::S.bits();
        }
        if self.ctl & b.m != 0 {
            e |= 1 << Priv::M.bits();
        }
        self.enabled = e;
        self.wants_events = e != 0 || (!self.frozen && self.ctl & (b.bpfrz | b.lcofifrz) != 0);
        self.fast = 0;
        self.plain = 0;
        if !self.frozen && !self.ctl_has(b.rasemu) {
            self.plain = e;
            for p in [Priv::U, Priv::S, Priv::M] {
                if e & (1 << p.bits()) == 0 {
                    continue;
                }
                for t in 0..16u8 {
                    if Itype::from_code(t).is_some_and(|ty| self.wanted(ty)) {
                        self.fast |= 1 << (16 * p.bits() as u32 + u32::from(t));
                    }
                }
            }
        }
        self.regate();
    }

    /// Recompute `gate` after `cur` ([`Ctr::settle_in`]), `fast` or `plain` changed.
    pub(crate) fn regate(&mut self) {
        self.gate = [0; 5];
        let p = self.cur.bits() as u32;
        if p < 4 && (self.plain >> p) & 1 != 0 {
            let defer = if self.defer { GATE_DEFER } else { 0 };
            self.gate[p as usize] = GATE_OPEN | defer | ((self.fast >> (16 * p)) & 0xFFFF) as u32;
        }
    }

    /// The full control-register value (M view), including DEPTH in 0.1.4.
    fn ctl_value(&self) -> u64 {
        let mut v = self.ctl;
        if self.cfg.layout == Layout::Draft014 {
            let code = (1u64 << self.depth_log) - 1; // 0000, 0001, 0011, 0111, 1111
            v |= code << bits::DEPTH_SHIFT_014;
        }
        v
    }

    /// Select depth `16 << log` (already legal). WRPTR keeps only the bits that exist at the
    /// new depth ("bits above those needed to represent depth-1 are read-only 0").
    fn set_depth_log(&mut self, log: u8) {
        self.depth_log = log;
        self.wrptr &= ((16u16 << log) - 1) as u8;
    }

    /// Zero every physical entry.
    fn clear_entries(&mut self) {
        self.entries.fill(Entry::ZERO);
    }
}
