//! PMU extension (EID "PMU", 0x504D55; SBI 3.0 chapter 11): the nine functions are the PMU
//! crate's ([`pmu::Pmu::sbi_pmu_call`], docs/pmu.md "The SBI PMU extension"); this file gives
//! them guest physical memory for the snapshot and event-info shared memory, and tells the
//! hart to look again at what it counts (`update_hooks`) and at overflows after each call.
//!
//! Shared memory must be RAM that S-mode may access (PMP); the SBI reads and writes it with
//! host accesses (no translation: the addresses are physical), keeping the decoded-instruction
//! cache exact.

use super::Reply;
use crate::bus::Bus;
use crate::csr::MIP_LCOFIP;
use crate::dcache::DecodeCache;
use crate::machine::Machine;
use crate::mmu::{Access, Tlb};
use arch::Priv;
use pmu::SbiPmuHost;

/// Guest physical memory as the SBI sees it.
struct Host<'a> {
    bus: &'a mut Bus,
    tlb: &'a Tlb,
    dcache: &'a mut DecodeCache,
    mip: u64,
}

impl SbiPmuHost for Host<'_> {
    fn accessible(&self, addr: u64, len: u64, write: bool) -> bool {
        if len == 0 {
            return true;
        }
        self.bus.ram.offset(addr, len).is_some()
            && self.tlb.pmp_check(addr, len, Access::Load, Priv::S) == Some(true)
            && (!write || self.tlb.pmp_check(addr, len, Access::Store, Priv::S) == Some(true))
    }

    fn read_phys(&mut self, addr: u64, buf: &mut [u8]) -> bool {
        self.bus.read_phys(addr, buf)
    }

    fn write_phys(&mut self, addr: u64, data: &[u8]) -> bool {
        let Some(off) = self.bus.ram.offset(addr, data.len() as u64) else {
            return false;
        };
        self.bus
            .ram
            .bytes_mut(off, data.len())
            .copy_from_slice(data);
        let len = data.len() as u64;
        if len > 0
            && (self.dcache.is_code_page(addr & !0xfff)
                || self.dcache.is_code_page((addr + len - 1) & !0xfff))
        {
            self.dcache.store(addr, len);
        }
        true
    }

    fn lcofip_pending(&self) -> bool {
        self.mip & MIP_LCOFIP != 0
    }
}

pub(super) fn call(m: &mut Machine, fid: u64, a: [u64; 6]) -> Reply {
    m.pmu_sync();
    let Machine {
        hart,
        bus,
        tlb,
        dcache,
        ..
    } = m;
    let mut host = Host {
        bus,
        tlb,
        dcache,
        mip: hart.csr.mip,
    };
    let ret = hart.pmu.sbi_pmu_call(fid, a, &mut host);
    // What the counters count may have changed; a counter started near its overflow is
    // seen at the next check.
    m.update_hooks();
    Reply {
        ret,
        then: super::Then::Return,
    }
}
