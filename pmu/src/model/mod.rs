//! The micro-architectural models and the cycle cost model.
//!
//! Every model is optional and off by default; a model that is off is never called into and
//! its events are not supported. What the hart reports and what each report adds:
//!
//! - [`Pmu::fetch`] (a straight-line run of instruction bytes, within one page): the fetch
//!   unit holds one line and one page. Moving to another page looks the ITLB up (when the
//!   fetch is translated); moving to another line accesses the L1I. Fetching on within the
//!   current line or page costs nothing, so how the hart splits its runs does not matter.
//! - [`Pmu::data_access`] (one load, store, AMO, LR or SC, within one page): the DTLB is
//!   looked up once per access when translated, the L1D once per line the access touches.
//!   Loads and LR are reads; stores, SC and AMOs are writes.
//! - [`Pmu::branch`] (one retired jump or conditional branch): the branch predictor.
//!
//! An L1 miss accesses the last-level cache (if any) with the op of the miss (L1I misses
//! read). Cost model, per event: L1 miss `l1_miss`; LL miss, or L1 miss with no LL,
//! `ll_miss` more; TLB miss `tlb_miss`; misprediction `mispredict`. Fetch-side and
//! mispredict penalties are frontend stall cycles, data-side ones backend stall cycles;
//! cycles = instructions + both.

pub mod bp;
pub mod cache;
pub mod tlb;

use crate::class::{prv_index, Class, NCLASS};
use crate::config::{Penalties, PmuConfig};
use crate::counters::Pmu;
use arch::{Itype, Priv};
use bp::{BranchPredictor, Outcome};
use cache::Cache;
use serde::{Deserialize, Serialize};
use tlb::Tlb;

/// The kind of a data access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AccessKind {
    /// Loads (integer and FP) and LR.
    Read,
    /// Stores (integer and FP) and SC.
    Write,
    /// AMOs: a read-modify-write that needs the line writable; counted as a write access.
    Atomic,
}

const NO_LINE: u64 = u64::MAX;

#[derive(Clone, Debug)]
pub(crate) struct Models {
    l1i: Option<Cache>,
    l1d: Option<Cache>,
    ll: Option<Cache>,
    itlb: Option<Tlb>,
    dtlb: Option<Tlb>,
    bp: Option<BranchPredictor>,
    pen: Penalties,
    /// The line the fetch unit holds (L1I line address), or NO_LINE.
    fetch_line: u64,
    /// The (asid, vpn) key of the page the fetch unit holds, or NO_LINE.
    fetch_page: u64,
}

impl Models {
    pub(crate) fn new(cfg: &PmuConfig) -> Models {
        let c = cfg.caches.as_ref();
        Models {
            l1i: c.map(|c| Cache::new(&c.l1i)),
            l1d: c.map(|c| Cache::new(&c.l1d)),
            ll: c.and_then(|c| c.ll.as_ref()).map(Cache::new),
            itlb: cfg.tlb.as_ref().map(|t| Tlb::new(&t.itlb)),
            dtlb: cfg.tlb.as_ref().map(|t| Tlb::new(&t.dtlb)),
            bp: cfg.bp.as_ref().map(BranchPredictor::new),
            pen: cfg.penalties,
            fetch_line: NO_LINE,
            fetch_page: NO_LINE,
        }
    }
}

/// An L1 miss of the line at byte address `line_addr` goes to the last-level cache, if any.
/// Returns the penalty.
#[inline]
fn l1_miss(
    ll: &mut Option<Cache>,
    pen: &Penalties,
    t: &mut [u64; NCLASS],
    line_addr: u64,
    write: bool,
) -> u64 {
    let mut cost = pen.l1_miss;
    match ll {
        Some(ll) => {
            let (acc, miss) = if write {
                (Class::LlWriteAccess, Class::LlWriteMiss)
            } else {
                (Class::LlReadAccess, Class::LlReadMiss)
            };
            t[acc as usize] += 1;
            if !ll.access(line_addr >> ll.line_shift()) {
                t[miss as usize] += 1;
                cost += pen.ll_miss;
            }
        }
        None => cost += pen.ll_miss,
    }
    cost
}

impl Pmu {
    /// Whether the hart needs to report fetches, data accesses or branches at all (false:
    /// skip the calls; they would do nothing).
    #[inline]
    pub fn models_on(&self) -> bool {
        self.cfg.any_model()
    }

    /// Instruction fetch of `bytes` bytes of straight-line code at virtual `va`, physical
    /// `pa`, in privilege `prv`; `asid` is the address space when the fetch is translated
    /// (None: bare or M-mode). The run must not cross a page boundary.
    #[inline]
    pub fn fetch(&mut self, prv: Priv, va: u64, pa: u64, bytes: u64, asid: Option<u16>) {
        if bytes == 0 || (self.models.l1i.is_none() && self.models.itlb.is_none()) {
            return;
        }
        let m = &mut self.models;
        let t = &mut self.totals[prv_index(prv)];
        let mut stall = 0;
        if let Some(itlb) = &mut m.itlb {
            match asid {
                Some(a) => {
                    let page = tlb::vpn(va);
                    let key = (a as u64) << 48 | page;
                    if key != m.fetch_page {
                        m.fetch_page = key;
                        t[Class::ItlbReadAccess as usize] += 1;
                        if !itlb.access(a, page) {
                            t[Class::ItlbReadMiss as usize] += 1;
                            stall += m.pen.tlb_miss;
                        }
                    }
                }
                None => m.fetch_page = NO_LINE,
            }
        }
        if let Some(l1i) = &mut m.l1i {
            let sh = l1i.line_shift();
            let (first, last) = (pa >> sh, (pa + bytes - 1) >> sh);
            for line in first..=last {
                if line == m.fetch_line {
                    continue;
                }
                m.fetch_line = line;
                t[Class::L1iReadAccess as usize] += 1;
                if !l1i.access(line) {
                    t[Class::L1iReadMiss as usize] += 1;
                    stall += l1_miss(&mut m.ll, &m.pen, t, line << sh, false);
                }
            }
        }
        t[Class::StallFrontend as usize] += stall;
    }

    /// A data access of `size` bytes at virtual `va`, physical `pa` by an instruction in
    /// privilege `prv` (the effective privilege of the access does not matter: events count
    /// in the privilege the instruction ran in); `asid` as for [`Pmu::fetch`]. An access that
    /// crosses a page boundary is reported as two, one per page.
    #[inline]
    pub fn data_access(
        &mut self,
        prv: Priv,
        va: u64,
        pa: u64,
        kind: AccessKind,
        size: u64,
        asid: Option<u16>,
    ) {
        if size == 0 || (self.models.l1d.is_none() && self.models.dtlb.is_none()) {
            return;
        }
        let write = kind != AccessKind::Read;
        let m = &mut self.models;
        let t = &mut self.totals[prv_index(prv)];
        let mut stall = 0;
        if let (Some(dtlb), Some(a)) = (&mut m.dtlb, asid) {
            let (acc, miss) = if write {
                (Class::DtlbWriteAccess, Class::DtlbWriteMiss)
            } else {
                (Class::DtlbReadAccess, Class::DtlbReadMiss)
            };
            t[acc as usize] += 1;
            if !dtlb.access(a, tlb::vpn(va)) {
                t[miss as usize] += 1;
                stall += m.pen.tlb_miss;
            }
        }
        if let Some(l1d) = &mut m.l1d {
            let (acc, miss) = if write {
                (Class::L1dWriteAccess, Class::L1dWriteMiss)
            } else {
                (Class::L1dReadAccess, Class::L1dReadMiss)
            };
            let sh = l1d.line_shift();
            let (first, last) = (pa >> sh, (pa + size - 1) >> sh);
            for line in first..=last {
                t[acc as usize] += 1;
                if !l1d.access(line) {
                    t[miss as usize] += 1;
                    stall += l1_miss(&mut m.ll, &m.pen, t, line << sh, write);
                }
            }
        }
        t[Class::StallBackend as usize] += stall;
    }

    /// One retired transfer at `pc` (`len` bytes) of type `itype` going to `target`. True if
    /// it was mispredicted (always false with no branch predictor).
    #[inline]
    pub fn branch(&mut self, prv: Priv, pc: u64, len: u64, target: u64, itype: Itype) -> bool {
        let Some(bp) = &mut self.models.bp else {
            return false;
        };
        let t = &mut self.totals[prv_index(prv)];
        let class = match bp.predict(pc, len, target, itype) {
            Outcome::Correct | Outcome::NotPredicted => return false,
            Outcome::DirectionMiss => Class::CondMispredicts,
            Outcome::TargetMiss => Class::TargetMispredicts,
        };
        t[class as usize] += 1;
        t[Class::StallFrontend as usize] += self.models.pen.mispredict;
        true
    }

    /// `sfence.vma` (rs1 = x0 gives `va` None, rs2 = x0 gives `asid` None): flush the TLB
    /// models. The fetch unit forgets its page.
    pub fn tlb_flush(&mut self, asid: Option<u16>, va: Option<u64>) {
        let m = &mut self.models;
        if let Some(t) = &mut m.itlb {
            t.flush(asid, va);
        }
        if let Some(t) = &mut m.dtlb {
            t.flush(asid, va);
        }
        m.fetch_page = NO_LINE;
    }

    /// `fence.i`: the L1I model is invalidated.
    pub fn fence_i(&mut self) {
        if let Some(c) = &mut self.models.l1i {
            c.invalidate_all();
        }
        self.models.fetch_line = NO_LINE;
    }
}
