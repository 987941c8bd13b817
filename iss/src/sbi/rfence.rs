//! RFENCE extension (EID "RFNC", SBI 3.0 chapter 8).
//!
//! The hart set is checked as for IPIs ([`Machine::sbi_hart_set`]); the fence is done on
//! every hart it names (each has its own TLB; the decode cache is shared), counting the "sent"
//! event on the caller and the "received" one on the target, per target:
//!
//! | FID | function | does | firmware events |
//! |---|---|---|---|
//! | 0 | remote_fence_i | `fence.i` | FENCE_I_SENT, FENCE_I_RECEIVED |
//! | 1 | remote_sfence_vma(start, size) | `sfence.vma` over the range | SFENCE_VMA_SENT, _RECEIVED |
//! | 2 | remote_sfence_vma_asid(start, size, asid) | the same for one ASID | SFENCE_VMA_ASID_SENT, _RECEIVED |
//! | 3-6 | remote_hfence_* | NOT_SUPPORTED: no H extension (as OpenSBI without H) | — |
//!
//! The range: `start = size = 0` or `size = -1` is the whole address space; like OpenSBI
//! (whose flush limit is one page), a range over 4 KiB is flushed whole, a smaller one page by
//! page. The hart's own translation caches are always flushed whole; the PMU's TLB model sees
//! the pages. Other FIDs: NOT_SUPPORTED.

use super::Reply;
use crate::bus::PAGE_SIZE;
use crate::machine::Machine;
use pmu::{FwEvent, SbiError};

pub(super) fn call(m: &mut Machine, fid: u64, a: [u64; 6]) -> Reply {
    let (sent, received) = match fid {
        0 => (FwEvent::FenceISent, FwEvent::FenceIReceived),
        1 => (FwEvent::SfenceVmaSent, FwEvent::SfenceVmaReceived),
        2 => (FwEvent::SfenceVmaAsidSent, FwEvent::SfenceVmaAsidReceived),
        _ => return Reply::err(SbiError::NotSupported),
    };
    let set = match m.sbi_hart_set(a[0], a[1]) {
        Err(e) => return Reply::err(e),
        Ok(set) => set,
    };
    let me = m.hart.csr.mhartid as usize;
    for h in super::ipi::harts_in(set) {
        m.hart.pmu.fw_event(sent);
        if h != me {
            m.remote_fence(h, fid == 0, received);
        }
    }
    if set >> me & 1 == 0 {
        return Reply::ok(0);
    }
    m.hart.pmu.fw_event(received);
    match fid {
        0 => {
            m.dcache.drop_all();
            if m.mode.models() {
                m.hart.pmu.fence_i();
            }
        }
        _ => {
            m.flush_tlb();
            if m.mode.models() {
                let asid = (fid == 2).then_some(a[4] as u16);
                let (start, size) = (a[2], a[3]);
                if (start == 0 && size == 0) || size == u64::MAX || size > PAGE_SIZE {
                    m.hart.pmu.tlb_flush(asid, None);
                } else {
                    let first = start & !(PAGE_SIZE - 1);
                    let end = start.saturating_add(size);
                    let mut va = first;
                    while va < end {
                        m.hart.pmu.tlb_flush(asid, Some(va));
                        va += PAGE_SIZE;
                    }
                }
            }
        }
    }
    Reply::ok(0)
}

impl Machine {
    /// A remote fence on parked hart `h`: its TLB is flushed (an sfence.vma, whole), or for
    /// fence.i the shared decode cache is dropped.
    fn remote_fence(&mut self, h: usize, fence_i: bool, received: FwEvent) {
        if fence_i {
            self.dcache.drop_all();
        }
        if let Some(p) = self.parked.get_mut(h) {
            p.hart.pmu.fw_event(received);
            let models = p.mode.models();
            if fence_i {
                if models {
                    p.hart.pmu.fence_i();
                }
            } else {
                p.tlb.flush();
                if models {
                    p.hart.pmu.tlb_flush(None, None);
                }
            }
        }
    }
}
