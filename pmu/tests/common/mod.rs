//! A small machine for the SBI tests: RAM at 0x8000_0000 (1 MiB), of which the last page is
//! read-only to S-mode, and a settable mip.LCOFIP.

#![allow(dead_code)]

use pmu::{Pmu, PmuConfig, SbiPmuHost, SbiRet};

pub const RAM: u64 = 0x8000_0000;
pub const RAM_SIZE: u64 = 1 << 20;
/// The last page of RAM: S-mode may read it, not write it.
pub const RO_PAGE: u64 = RAM + RAM_SIZE - 4096;

pub struct Host {
    pub mem: Vec<u8>,
    pub lcofip: bool,
}

impl Host {
    pub fn new() -> Host {
        Host {
            mem: vec![0; RAM_SIZE as usize],
            lcofip: false,
        }
    }

    fn range(&self, addr: u64, len: usize) -> Option<std::ops::Range<usize>> {
        let off = addr.checked_sub(RAM)?;
        let end = off.checked_add(len as u64)?;
        (end <= RAM_SIZE).then_some(off as usize..end as usize)
    }

    pub fn read_u64(&self, addr: u64) -> u64 {
        let r = self.range(addr, 8).unwrap();
        u64::from_le_bytes(self.mem[r].try_into().unwrap())
    }

    pub fn write_u64(&mut self, addr: u64, v: u64) {
        let r = self.range(addr, 8).unwrap();
        self.mem[r].copy_from_slice(&v.to_le_bytes());
    }

    pub fn read_u32(&self, addr: u64) -> u32 {
        let r = self.range(addr, 4).unwrap();
        u32::from_le_bytes(self.mem[r].try_into().unwrap())
    }

    pub fn write_u32(&mut self, addr: u64, v: u32) {
        let r = self.range(addr, 4).unwrap();
        self.mem[r].copy_from_slice(&v.to_le_bytes());
    }
}

impl SbiPmuHost for Host {
    fn accessible(&self, addr: u64, len: u64, write: bool) -> bool {
        let Some(end) = addr.checked_add(len) else {
            return false;
        };
        addr >= RAM && end <= RAM + RAM_SIZE && !(write && end > RO_PAGE)
    }

    fn read_phys(&mut self, addr: u64, buf: &mut [u8]) -> bool {
        match self.range(addr, buf.len()) {
            Some(r) => {
                buf.copy_from_slice(&self.mem[r]);
                true
            }
            None => false,
        }
    }

    fn write_phys(&mut self, addr: u64, data: &[u8]) -> bool {
        match self.range(addr, data.len()) {
            Some(r) if addr + data.len() as u64 <= RO_PAGE => {
                self.mem[r].copy_from_slice(data);
                true
            }
            _ => false,
        }
    }

    fn lcofip_pending(&self) -> bool {
        self.lcofip
    }
}

/// 8 hpm counters of 48 bits: hardware counters 0..=10 (1 is the hole), firmware 11..=26.
pub fn cfg() -> PmuConfig {
    PmuConfig {
        hpm_counters: 8,
        hpm_width: 48,
        ..PmuConfig::default()
    }
}

pub const NUM_HW: u64 = 11;
pub const NUM: u64 = 27;
/// The hpm counters' mask (counters 3..=10).
pub const HPM: u64 = 0x7f8;
/// The firmware counters' mask with base 0.
pub const FW: u64 = 0xffff << NUM_HW;

/// A PMU in the built-in SBI's boot state.
pub fn boot(cfg: PmuConfig) -> (Pmu, Host) {
    let mut p = Pmu::new(cfg).unwrap();
    p.sbi_boot();
    (p, Host::new())
}

pub fn call(p: &mut Pmu, h: &mut Host, fid: u64, a: &[u64]) -> SbiRet {
    let mut args = [0u64; 6];
    args[..a.len()].copy_from_slice(a);
    p.sbi_pmu_call(fid, args, h)
}

pub fn ok(value: u64) -> SbiRet {
    SbiRet { error: 0, value }
}

pub fn err(e: pmu::SbiError) -> SbiRet {
    SbiRet {
        error: e as i64,
        value: 0,
    }
}
