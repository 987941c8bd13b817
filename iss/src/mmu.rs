//! Address translation (Sv39, Sv48), physical memory protection, and the data/fetch paths.
//!
//! Privileged spec 1.12: section 3.7 (PMP), section 4.3-4.4 (Sv39, Sv48), 3.1.6.3 (MPRV, MXR,
//! SUM). A/D bits are not updated by hardware unless Svadu is on and menvcfg.ADUE set: a leaf
//! PTE with A clear, or with D clear on a store, raises a page fault (Spike's default
//! behaviour) and software sets them; with ADUE the access sets them with a store to the PTE
//! (checked by PMP as an S-mode store; not a memory access of the instruction's record, as on
//! Spike). Svnapot's 64 KiB NAPOT leaves (PTE.N) and Svpbmt's memory types (PTE.PBMT, with
//! menvcfg.PBMTE; the types change nothing in this model) are accepted when on; otherwise
//! those bits are reserved and fault, as on Spike.
//!
//! Three software TLBs (fetch, load, store), direct-mapped with 256 entries, cache successful
//! translations of RAM pages whose whole 4 KiB page PMP allows, for the translation context in
//! force when they were filled. Any change of that context (privilege, satp, PMP, SFENCE.VMA,
//! a write of mstatus that changes MPP, MPRV, MXR or SUM: where Spike flushes its TLB) flushes
//! all three by bumping a generation number folded into every tag, so a flush costs nothing. A store-TLB entry for a page holding decoded instructions carries the
//! page's place in the decoded-instruction cache, so a store there resets the slots it
//! overwrote on the fast path; when a page first gets decoded instructions the TLBs are flushed
//! so no entry for it lacks that mark.

use crate::bus::{BusEffect, PAGE_SIZE};
use crate::csr::*;
use crate::machine::{Machine, Misaligned};
use crate::record::{MemAccess, MemKind};
use crate::trigger::Op as TrigOp;
use arch::{Cause, Exception, Priv};
use pmu::AccessKind;

pub const TLB_ENTRIES: usize = 256;
const GEN_SHIFT: u32 = 52;
const GEN_LIMIT: u64 = 4095;

/// The kind of memory access, for permission checks and fault causes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Fetch,
    Load,
    Store,
}

impl Access {
    fn page_fault(self) -> Exception {
        match self {
            Access::Fetch => Exception::InstructionPageFault,
            Access::Load => Exception::LoadPageFault,
            Access::Store => Exception::StorePageFault,
        }
    }

    fn access_fault(self) -> Exception {
        match self {
            Access::Fetch => Exception::InstructionAccessFault,
            Access::Load => Exception::LoadAccessFault,
            Access::Store => Exception::StoreAccessFault,
        }
    }

    fn pmp_bit(self) -> u8 {
        match self {
            Access::Fetch => PMP_X,
            Access::Load => PMP_R,
            Access::Store => PMP_W,
        }
    }
}

/// A single translation, kept apart from the tables: the boot ROM's page (`Tlb::rom`).
#[derive(Clone, Copy)]
pub(crate) struct TlbEntry {
    /// The virtual page number with the generation it was filled in ([`Tlb::tag`]): an
    /// entry of an older generation, or `u64::MAX`, matches no access.
    tag: u64,
    /// Where the page is in the memory that holds it, as the page's offset there less its
    /// virtual address (both wrapping): `va + va_off` is the offset of any `va` in the page,
    /// with no masking.
    va_off: u64,
}

const EMPTY: TlbEntry = TlbEntry {
    tag: u64::MAX,
    va_off: 0,
};

/// One of the fetch, load and store translation tables, by field: each field an array by
/// slot, so that a handler's fast path reads one as the machine's address + a constant +
/// slot x 8 (one instruction), where entries of several fields need the slot multiplied and
/// the entry's address formed first. `tag` means what [`TlbEntry`]'s does.
#[derive(Clone)]
pub(crate) struct TlbTable {
    tag: [u64; TLB_ENTRIES],
    /// Where the page is in the host's memory: the host address of its bytes in RAM less
    /// its virtual address (both wrapping), so that `va + va_host` is where any `va` in the
    /// page is read and written ([`crate::bus::Ram::read_host`]), with no RAM base to add.
    va_host: [u64; TLB_ENTRIES],
}

impl TlbTable {
    const EMPTY: TlbTable = TlbTable {
        tag: [u64::MAX; TLB_ENTRIES],
        va_host: [0; TLB_ENTRIES],
    };

    /// `va`'s host address if slot `slot` holds `tag`.
    #[inline(always)]
    fn hit(&self, slot: usize, tag: u64, va: u64) -> Option<usize> {
        if self.tag[slot] == tag {
            Some(va.wrapping_add(self.va_host[slot]) as usize)
        } else {
            None
        }
    }
}

pub(crate) struct Tlb {
    /// Current generation, already shifted into tag position.
    gen: u64,
    /// The host address of RAM offset 0 ([`crate::bus::Ram::host_base`]), which the tables'
    /// host addresses are relative to.
    ram_host: usize,
    // In line, not boxed: the handlers' fast paths address an entry from the machine's
    // own address, without loading the table's first.
    fetch: TlbTable,
    load: TlbTable,
    store: TlbTable,
    /// The store table's third field, by slot: the page's number in the decoded-instruction
    /// cache plus one, or 0 when the page holds no decoded instructions.
    store_code: [u64; TLB_ENTRIES],
    /// One load translation to a page of the boot ROM (`va_off`: to the page's offset in the
    /// ROM), filled and flushed as the others: firmware such as OpenSBI reads the device tree
    /// there with byte loads (150k of them in a Linux boot), which it serves without a walk.
    rom: TlbEntry,
    /// PMP entries decoded into address ranges: (lo, hi, cfg), hi exclusive; `hi == 0` off.
    pmp: [(u64, u64, u8); PMP_MAX],
    /// Entries to scan: the last active one's index + 1. A u32, so that the TLB kept its
    /// size when it gained `ram_host`: the compiler orders the machine's fields by their
    /// sizes, and with the TLB a word larger the new order cost PMU counting on the bench
    /// 3-4% of wall clock (0.86 of untraced against 0.88-0.91), with no more instructions.
    pmp_len: u32,
    /// No PMP entry is implemented: every access passes PMP.
    pmp_none: bool,
    /// Statistics: misses (walks or slow-path fills), for the PMU's TLB events.
    pub misses: [u64; 3],
}

impl Tlb {
    /// The TLB of a hart of a machine whose RAM starts at host address `ram_host`
    /// ([`crate::bus::Ram::host_base`]).
    pub fn new(ram_host: usize) -> Tlb {
        Tlb {
            gen: 0,
            ram_host,
            fetch: TlbTable::EMPTY,
            load: TlbTable::EMPTY,
            store: TlbTable::EMPTY,
            store_code: [0; TLB_ENTRIES],
            rom: EMPTY,
            pmp: [(0, 0, 0); PMP_MAX],
            pmp_len: 0,
            pmp_none: false,
            misses: [0; 3],
        }
    }

    /// Where the compiled fast paths (`crate::jit`) find what [`TlbTable::hit`] and the store
    /// fast path read, from the TLB's address.
    pub(crate) fn jit_layout() -> crate::jit::TlbLayout {
        use std::mem::offset_of;
        let at = |off: usize| i32::try_from(off).expect("the TLB is smaller than 2 GiB");
        crate::jit::TlbLayout {
            gen: at(offset_of!(Tlb, gen)),
            load_tag: at(offset_of!(Tlb, load.tag)),
            load_host: at(offset_of!(Tlb, load.va_host)),
            store_tag: at(offset_of!(Tlb, store.tag)),
            store_host: at(offset_of!(Tlb, store.va_host)),
            store_code: at(offset_of!(Tlb, store_code)),
            entries: TLB_ENTRIES as u32,
        }
    }

    /// Invalidate every entry.
    pub fn flush(&mut self) {
        let g = (self.gen >> GEN_SHIFT) + 1;
        if g >= GEN_LIMIT {
            self.fetch = TlbTable::EMPTY;
            self.load = TlbTable::EMPTY;
            self.store = TlbTable::EMPTY;
            self.store_code = [0; TLB_ENTRIES];
            self.rom = EMPTY;
            self.gen = 0;
        } else {
            self.gen = g << GEN_SHIFT;
        }
    }

    #[inline(always)]
    fn tag(&self, va: u64) -> u64 {
        (va >> 12) | self.gen
    }

    #[inline(always)]
    fn slot(va: u64) -> usize {
        ((va >> 12) as usize) & (TLB_ENTRIES - 1)
    }

    #[inline(always)]
    fn table(&self, a: Access) -> &TlbTable {
        match a {
            Access::Fetch => &self.fetch,
            Access::Load => &self.load,
            Access::Store => &self.store,
        }
    }

    /// `va`'s RAM offset, if the table for `a` translates its page.
    #[inline(always)]
    pub(crate) fn lookup(&self, a: Access, va: u64) -> Option<u64> {
        self.host(a, va).map(|h| self.ram_off(h))
    }

    /// `va`'s host address in RAM, if the table for `a` translates its page.
    #[inline(always)]
    pub(crate) fn host(&self, a: Access, va: u64) -> Option<usize> {
        self.table(a).hit(Self::slot(va), self.tag(va), va)
    }

    /// The RAM offset of host address `host` in RAM.
    #[inline(always)]
    fn ram_off(&self, host: usize) -> u64 {
        host.wrapping_sub(self.ram_host) as u64
    }

    fn fill(&mut self, a: Access, va: u64, ram_off_page: u64, code: u64) {
        let (slot, tag) = (Self::slot(va), self.tag(va));
        let t = match a {
            Access::Fetch => &mut self.fetch,
            Access::Load => &mut self.load,
            Access::Store => {
                self.store_code[slot] = code;
                &mut self.store
            }
        };
        t.tag[slot] = tag;
        let host_page = (self.ram_host as u64).wrapping_add(ram_off_page);
        t.va_host[slot] = host_page.wrapping_sub(va & !(PAGE_SIZE - 1));
    }

    /// Recompute the PMP ranges from the CSRs (with the granularity's address bits, as
    /// Spike's `tor_paddr` and `napot_mask` read them).
    pub fn set_pmp(&mut self, csr: &Csrs) {
        let n = (csr.pmp_regions as usize).min(PMP_MAX);
        let tor_mask = csr.pmp_tor_mask();
        self.pmp_none = n == 0;
        self.pmp_len = 0;
        for i in 0..PMP_MAX {
            let cfg = csr.pmpcfg[i];
            let a = if i < n {
                (cfg & PMP_A) >> PMP_A_SHIFT
            } else {
                PMP_OFF
            };
            let (lo, hi) = match a {
                PMP_TOR => {
                    let lo = if i == 0 {
                        0
                    } else {
                        (csr.pmpaddr[i - 1] & tor_mask) << 2
                    };
                    (lo, (csr.pmpaddr[i] & tor_mask) << 2)
                }
                PMP_NA4 => (csr.pmpaddr[i] << 2, (csr.pmpaddr[i] << 2) + 4),
                PMP_NAPOT => {
                    let addr = csr.pmpaddr_read(i);
                    let ones = addr.trailing_ones();
                    if ones >= 54 {
                        (0, 1 << 56)
                    } else {
                        let size = 1u64 << (ones + 3);
                        let lo = (addr & !((1u64 << ones) - 1)) << 2;
                        (lo, lo + size)
                    }
                }
                _ => (0, 0),
            };
            if a != PMP_OFF {
                self.pmp_len = i as u32 + 1;
            }
            self.pmp[i] = if a == PMP_OFF || hi <= lo {
                (0, 0, cfg)
            } else {
                (lo, hi, cfg)
            };
        }
    }

    /// PMP verdict for `[pa, pa+len)`: `Some(true)` allowed, `Some(false)` denied, `None` when
    /// the first overlapping entry covers only part of the range (denied for a single access;
    /// for a page, it means the page must not be cached).
    pub fn pmp_check(&self, pa: u64, len: u64, access: Access, prv: Priv) -> Option<bool> {
        if self.pmp_none {
            return Some(true);
        }
        let end = pa.saturating_add(len);
        for &(lo, hi, cfg) in &self.pmp[..self.pmp_len as usize] {
            if hi == 0 || end <= lo || pa >= hi {
                continue;
            }
            if pa < lo || end > hi {
                return None;
            }
            if prv == Priv::M && cfg & PMP_L == 0 {
                return Some(true);
            }
            return Some(cfg & access.pmp_bit() != 0);
        }
        // No entry matches: M-mode succeeds; S and U fail since entries are implemented.
        Some(prv == Priv::M)
    }
}

/// A translation failure: exception to raise, tval is the faulting virtual address.
type Xlate = Result<u64, Exception>;

impl Machine {
    /// Privilege used for a data access (MPRV applies MPP to loads and stores in M-mode).
    #[inline]
    pub fn data_priv(&self) -> Priv {
        if self.hart.prv == Priv::M && self.hart.csr.mstatus & MSTATUS_MPRV != 0 {
            Priv::from_bits(self.hart.csr.mpp()).unwrap_or(Priv::U)
        } else {
            self.hart.prv
        }
    }

    /// Translate `va` for `access`, walking the page table if needed. PMP is not checked here
    /// for the final address (only for the page-table accesses). No side effects: with Svadu's
    /// hardware updating, a PTE whose A (or D) bit the access would set translates as if it
    /// were set, and is left as it is (the accesses themselves set it: `Machine::resolve`).
    pub fn translate(&mut self, va: u64, access: Access) -> Xlate {
        self.walk::<false>(va, access)
    }

    /// The page walk. `UPDATE`: an access is being made, so Svadu's A/D updates are written.
    /// This is the walk through ordinary PTEs, hot when the TLBs miss often: a PTE with any of
    /// bits 63:54 set (N, PBMT, reserved) sends it to [`Machine::walk_ext`], the complete walk,
    /// and A/D clear to [`Machine::update_ad`], so the extensions cost nothing here.
    #[inline(never)]
    fn walk<const UPDATE: bool>(&mut self, va: u64, access: Access) -> Xlate {
        let prv = if access == Access::Fetch {
            self.hart.prv
        } else {
            self.data_priv()
        };
        let mode = self.hart.csr.satp_mode();
        if prv == Priv::M || mode == SATP_MODE_BARE {
            return Ok(va);
        }
        let levels: u32 = if mode == SATP_MODE_SV48 { 4 } else { 3 };
        let va_bits = 12 + 9 * levels;
        // Canonical: bits 63..va_bits-1 all equal.
        let top = (va as i64) >> (va_bits - 1);
        if top != 0 && top != -1 {
            return Err(access.page_fault());
        }
        let mstatus = self.hart.csr.mstatus;
        let sum = mstatus & MSTATUS_SUM != 0;
        let mxr = mstatus & MSTATUS_MXR != 0;
        let mut a = (self.hart.csr.satp & SATP_PPN_MASK) << 12;
        for level in (0..levels).rev() {
            let vpn = (va >> (12 + 9 * level)) & 0x1ff;
            let pte_addr = a + vpn * 8;
            // Implicit page-table accesses are checked by PMP as S-mode accesses.
            if self.tlb.pmp_check(pte_addr, 8, Access::Load, Priv::S) != Some(true) {
                return Err(access.access_fault());
            }
            let pte = match self.bus.read_u64(pte_addr) {
                Some(p) => p,
                None => return Err(access.access_fault()),
            };
            let v = pte & 1 != 0;
            let r = pte & 2 != 0;
            let w = pte & 4 != 0;
            let x = pte & 8 != 0;
            let u = pte & 16 != 0;
            let acc = pte & 64 != 0;
            let dirty = pte & 128 != 0;
            if !v || (!r && w) {
                return Err(access.page_fault());
            }
            if pte >> 54 != 0 {
                return self.walk_ext::<UPDATE>(va, access);
            }
            let ppn = (pte >> 10) & ((1 << 44) - 1);
            if !r && !x {
                // Pointer to the next level; at level 0 it is a fault.
                if level == 0 || pte & (16 | 64 | 128) != 0 {
                    return Err(access.page_fault());
                }
                a = ppn << 12;
                continue;
            }
            // Leaf.
            let ok_priv = match prv {
                Priv::U => u,
                _ => !u || (sum && access != Access::Fetch),
            };
            let ok_perm = match access {
                Access::Fetch => x,
                Access::Load => r || (mxr && x),
                Access::Store => w,
            };
            if !ok_priv || !ok_perm {
                return Err(access.page_fault());
            }
            // Misaligned superpage.
            if level > 0 && ppn & ((1u64 << (9 * level)) - 1) != 0 {
                return Err(access.page_fault());
            }
            if !acc || (access == Access::Store && !dirty) {
                self.update_ad::<UPDATE>(pte, pte_addr, access)?;
            }
            let page_mask = (1u64 << (12 + 9 * level)) - 1;
            return Ok(((ppn << 12) & !page_mask) | (va & page_mask));
        }
        Err(access.page_fault())
    }

    /// The whole page walk, with every case of Svnapot, Svpbmt and Svadu: [`Machine::walk`]
    /// starts over here when a PTE on its way has any of bits 63:54 set (which ordinary
    /// page tables never have). Nothing is written before the walk succeeds, so starting
    /// over is exact.
    #[cold]
    #[inline(never)]
    fn walk_ext<const UPDATE: bool>(&mut self, va: u64, access: Access) -> Xlate {
        let prv = if access == Access::Fetch {
            self.hart.prv
        } else {
            self.data_priv()
        };
        let mode = self.hart.csr.satp_mode();
        if prv == Priv::M || mode == SATP_MODE_BARE {
            return Ok(va);
        }
        let levels: u32 = if mode == SATP_MODE_SV48 { 4 } else { 3 };
        let va_bits = 12 + 9 * levels;
        // Canonical: bits 63..va_bits-1 all equal.
        let top = (va as i64) >> (va_bits - 1);
        if top != 0 && top != -1 {
            return Err(access.page_fault());
        }
        let mstatus = self.hart.csr.mstatus;
        let sum = mstatus & MSTATUS_SUM != 0;
        let mxr = mstatus & MSTATUS_MXR != 0;
        let mut a = (self.hart.csr.satp & SATP_PPN_MASK) << 12;
        for level in (0..levels).rev() {
            let vpn = (va >> (12 + 9 * level)) & 0x1ff;
            let pte_addr = a + vpn * 8;
            // Implicit page-table accesses are checked by PMP as S-mode accesses.
            if self.tlb.pmp_check(pte_addr, 8, Access::Load, Priv::S) != Some(true) {
                return Err(access.access_fault());
            }
            let pte = match self.bus.read_u64(pte_addr) {
                Some(p) => p,
                None => return Err(access.access_fault()),
            };
            let v = pte & 1 != 0;
            let r = pte & 2 != 0;
            let w = pte & 4 != 0;
            let x = pte & 8 != 0;
            let u = pte & 16 != 0;
            let acc = pte & 64 != 0;
            let dirty = pte & 128 != 0;
            // Bits 63:54: N (Svnapot) and PBMT (Svpbmt with PBMTE) may be set, the rest is
            // reserved.
            if !v || (!r && w) || (pte >> 54 != 0 && !self.pte_high_bits_ok(pte)) {
                return Err(access.page_fault());
            }
            let ppn = (pte >> 10) & ((1 << 44) - 1);
            if !r && !x {
                // Pointer to the next level; at level 0 it is a fault, and so are A, D, U, N
                // and PBMT on it.
                if level == 0 || pte & (16 | 64 | 128 | PTE_N | PTE_PBMT) != 0 {
                    return Err(access.page_fault());
                }
                a = ppn << 12;
                continue;
            }
            // Leaf.
            let ok_priv = match prv {
                Priv::U => u,
                _ => !u || (sum && access != Access::Fetch),
            };
            let ok_perm = match access {
                Access::Fetch => x,
                Access::Load => r || (mxr && x),
                Access::Store => w,
            };
            if !ok_priv || !ok_perm {
                return Err(access.page_fault());
            }
            // Misaligned superpage.
            if level > 0 && ppn & ((1u64 << (9 * level)) - 1) != 0 {
                return Err(access.page_fault());
            }
            // Svnapot: a NAPOT PTE is a level-0 leaf whose ppn ends in 1000 (64 KiB); any
            // other size is reserved.
            if pte & PTE_N != 0 && (level != 0 || ppn & 0xf != 0x8) {
                return Err(access.page_fault());
            }
            if !acc || (access == Access::Store && !dirty) {
                self.update_ad::<UPDATE>(pte, pte_addr, access)?;
            }
            let page_mask = (1u64 << (12 + 9 * level)) - 1;
            // A NAPOT leaf's page is chosen by the VPN's low four bits.
            let ppn = if pte & PTE_N != 0 {
                (ppn & !0xf) | ((va >> 12) & 0xf)
            } else {
                ppn
            };
            return Ok(((ppn << 12) & !page_mask) | (va & page_mask));
        }
        Err(access.page_fault())
    }

    /// Whether a PTE's bits 63:54 (some set) are allowed: N with Svnapot, PBMT 1 or 2 with
    /// menvcfg.PBMTE (writable with Svpbmt only); PBMT 3 and bits 60:54 are reserved.
    #[cold]
    #[inline(never)]
    fn pte_high_bits_ok(&self, pte: u64) -> bool {
        let allowed = if self.config.isa.svnapot { PTE_N } else { 0 }
            | if self.hart.csr.menvcfg & MENVCFG_PBMTE != 0 {
                PTE_PBMT
            } else {
                0
            };
        (pte >> 54) & !(allowed >> 54) == 0 && pte & PTE_PBMT != PTE_PBMT
    }

    /// A leaf's A (or, for a store, D) bit is clear. Svadu: with menvcfg.ADUE the hart sets
    /// it with a store to the PTE, checked by PMP as an S-mode store (`UPDATE`: written, else
    /// only checked); without ADUE, a page fault.
    #[cold]
    #[inline(never)]
    fn update_ad<const UPDATE: bool>(
        &mut self,
        pte: u64,
        pte_addr: u64,
        access: Access,
    ) -> Result<(), Exception> {
        if self.hart.csr.menvcfg & MENVCFG_ADUE == 0 {
            return Err(access.page_fault());
        }
        if self.tlb.pmp_check(pte_addr, 8, Access::Store, Priv::S) != Some(true) {
            return Err(access.access_fault());
        }
        if UPDATE {
            let ad = 64 | if access == Access::Store { 128 } else { 0 };
            if !self.bus.write_u64(pte_addr, pte | ad) {
                return Err(access.access_fault());
            }
            self.code_written(pte_addr, 8);
        }
        Ok(())
    }

    /// Raise an exception from a memory access: record it and signal the caller.
    #[inline(never)]
    #[cold]
    pub(crate) fn mem_fault(&mut self, e: Exception, tval: u64) {
        self.exc = (Cause::Exception(e), tval);
    }

    /// Translate and PMP-check a whole access; returns the physical address. On success, caches
    /// the page in the TLB if the page is RAM that PMP allows entirely.
    fn resolve(&mut self, va: u64, size: u8, access: Access) -> Result<u64, ()> {
        let pa = match self.walk::<true>(va, access) {
            Ok(pa) => pa,
            Err(e) => {
                self.mem_fault(e, va);
                return Err(());
            }
        };
        let prv = if access == Access::Fetch {
            self.hart.prv
        } else {
            self.data_priv()
        };
        if self.tlb.pmp_check(pa, size as u64, access, prv) != Some(true) {
            self.mem_fault(access.access_fault(), va);
            return Err(());
        }
        let page = pa & !(PAGE_SIZE - 1);
        // With the PMU's models on, data accesses stay on this path (which reports them); with
        // a debug trigger armed, fetches and data accesses do (`crate::trigger`).
        let cache = !self.hart.trig.armed && (access == Access::Fetch || !self.mode.models());
        if let (Some(off), true) = (self.bus.ram.offset(page, PAGE_SIZE), cache) {
            if self.tlb.pmp_check(page, PAGE_SIZE, access, prv) == Some(true) {
                let code = match access {
                    Access::Store => self.dcache.page_of(page).map_or(0, |p| p as u64 + 1),
                    _ => 0,
                };
                self.tlb.fill(access, va, off as u64, code);
            }
        } else if access == Access::Load && cache {
            // A page of the boot ROM (which holds whole pages).
            if let Some(off) = self.bus.rom_offset(page) {
                if self.tlb.pmp_check(page, PAGE_SIZE, access, prv) == Some(true) {
                    self.tlb.rom = TlbEntry {
                        tag: self.tlb.tag(va),
                        va_off: off.wrapping_sub(va & !(PAGE_SIZE - 1)),
                    };
                }
            }
        }
        Ok(pa)
    }

    // ------------------------------------------------------------------------------------
    // Data loads and stores, as instructions use them. `Err(())` means an exception was
    // recorded in `self.exc`.

    /// The fast path of [`Machine::load`] alone: an aligned load from RAM through the load
    /// TLB, or `None` (nothing done) where it does not apply.
    #[inline(always)]
    pub(crate) fn load_fast<const REC: bool, const FX: bool>(
        &mut self,
        va: u64,
        size: u8,
    ) -> Option<u64> {
        if va & (size as u64 - 1) != 0 {
            return None;
        }
        let host = self.tlb.host(Access::Load, va)?;
        // SAFETY: a TLB entry is a whole page of RAM, and an aligned access stays in it.
        let v = unsafe { self.bus.ram.read_host(host, size) };
        let off = self.tlb.ram_off(host);
        if REC {
            self.record_mem(MemKind::Load, va, self.bus.ram.base() + off, size, v);
        }
        if FX {
            self.fx_paddr = self.bus.ram.base() + off;
        }
        Some(v)
    }

    /// The fast path of [`Machine::store`] alone: an aligned store to RAM through the store
    /// TLB to a page without decoded code, or `false` (nothing done) where it does not apply.
    #[inline(always)]
    pub(crate) fn store_fast<const REC: bool, const FX: bool>(
        &mut self,
        va: u64,
        size: u8,
        val: u64,
    ) -> bool {
        if va & (size as u64 - 1) != 0 {
            return false;
        }
        let slot = Tlb::slot(va);
        let Some(host) = self.tlb.store.hit(slot, self.tlb.tag(va), va) else {
            return false;
        };
        if self.tlb.store_code[slot] != 0 {
            return false;
        }
        // SAFETY: a TLB entry is a whole page of RAM, and an aligned access stays in it.
        unsafe { self.bus.ram.write_host(host, size, val) };
        let off = self.tlb.ram_off(host);
        if REC {
            let v = low_bytes(val, size);
            self.record_mem(MemKind::Store, va, self.bus.ram.base() + off, size, v);
        }
        if FX {
            self.fx_paddr = self.bus.ram.base() + off;
        }
        true
    }

    /// Load `size` bytes at virtual address `va`, zero-extended. `FX`: leave the physical
    /// address in `fx_paddr`.
    #[inline(always)]
    pub(crate) fn load<const REC: bool, const FX: bool>(
        &mut self,
        va: u64,
        size: u8,
    ) -> Result<u64, ()> {
        if va & (size as u64 - 1) == 0 {
            if let Some(host) = self.tlb.host(Access::Load, va) {
                // SAFETY: a TLB entry is a whole page of RAM, and an aligned access stays in
                // it.
                let v = unsafe { self.bus.ram.read_host(host, size) };
                let off = self.tlb.ram_off(host);
                if REC {
                    self.record_mem(MemKind::Load, va, self.bus.ram.base() + off, size, v);
                }
                if FX {
                    self.fx_paddr = self.bus.ram.base() + off;
                }
                return Ok(v);
            }
        }
        self.load_slow::<REC, FX>(va, size)
    }

    #[inline(never)]
    fn load_slow<const REC: bool, const FX: bool>(&mut self, va: u64, size: u8) -> Result<u64, ()> {
        if self.hart.trig.armed {
            return self.load_triggered::<REC, FX>(va, size);
        }
        self.load_untriggered::<REC, FX>(va, size)
    }

    /// A load with the debug triggers armed: they see its address before it, and the value
    /// after it (Spike's `load_slow_path`).
    #[cold]
    #[inline(never)]
    fn load_triggered<const REC: bool, const FX: bool>(
        &mut self,
        va: u64,
        size: u8,
    ) -> Result<u64, ()> {
        self.trig_access(TrigOp::Load, va, None)?;
        let v = self.load_untriggered::<REC, FX>(va, size)?;
        self.trig_access(TrigOp::Load, va, Some(v))?;
        Ok(v)
    }

    #[inline(always)]
    fn load_untriggered<const REC: bool, const FX: bool>(
        &mut self,
        va: u64,
        size: u8,
    ) -> Result<u64, ()> {
        if va & (size as u64 - 1) != 0 {
            self.misaligned_event();
            if self.config.misaligned == Misaligned::Trap {
                self.mem_fault(Exception::LoadAddressMisaligned, va);
                return Err(());
            }
            let mut v = 0u64;
            let mut pa0 = 0;
            for i in 0..size as u64 {
                let pa = self.resolve(va.wrapping_add(i), 1, Access::Load)?;
                if i == 0 {
                    pa0 = pa;
                }
                // A fault names the byte that faulted (the portion of the access).
                let b = self.phys_load(pa, 1, va.wrapping_add(i))?;
                v |= b << (8 * i);
            }
            if REC {
                self.record_mem(MemKind::Load, va, pa0, size, v);
            }
            if FX {
                self.fx_paddr = pa0;
            }
            if self.mode.models() {
                self.data_event(va, pa0, AccessKind::Read, size);
            }
            return Ok(v);
        }
        self.tlb.misses[1] += 1;
        let (pa, v) = match self.rom_load(va, size) {
            Some(hit) => hit,
            None => {
                let pa = self.resolve(va, size, Access::Load)?;
                (pa, self.phys_load(pa, size, va)?)
            }
        };
        if self.mode.models() {
            self.data_event(va, pa, AccessKind::Read, size);
        }
        if REC {
            self.record_mem(MemKind::Load, va, pa, size, v);
        }
        if FX {
            self.fx_paddr = pa;
        }
        Ok(v)
    }

    /// An aligned load through the boot ROM's load translation ([`Tlb`]'s `rom`): its
    /// physical address and value, or `None` (nothing done) when it does not hold `va`.
    /// Reading the ROM has no side effects, so this is what the walk and the bus would do.
    #[inline]
    fn rom_load(&self, va: u64, size: u8) -> Option<(u64, u64)> {
        let e = &self.tlb.rom;
        if e.tag != self.tlb.tag(va) {
            return None;
        }
        let off = va.wrapping_add(e.va_off);
        let v = self.bus.rom_read(off, size)?;
        Some((crate::bus::ROM_BASE + off, v))
    }

    fn phys_load(&mut self, pa: u64, size: u8, va: u64) -> Result<u64, ()> {
        if let Some(off) = self.bus.ram.offset(pa, size as u64) {
            return Ok(self.bus.ram.read(off, size));
        }
        match self.bus.device_load(pa, size) {
            Some(v) => {
                if self.bus.irq_dirty {
                    self.irq_update();
                }
                // Spike synchronises its time with the CLINT on every CLINT load, which
                // recomputes Sstc's STIP.
                if self.config.isa.sstc && crate::bus::is_clint(pa) {
                    self.sstc_sync();
                }
                Ok(v)
            }
            None => {
                self.mem_fault(Exception::LoadAccessFault, va);
                Err(())
            }
        }
    }

    /// Store the low `size` bytes of `val` at virtual address `va`. `FX`: leave the physical
    /// address in `fx_paddr`.
    #[inline(always)]
    pub(crate) fn store<const REC: bool, const FX: bool>(
        &mut self,
        va: u64,
        size: u8,
        val: u64,
    ) -> Result<(), ()> {
        if va & (size as u64 - 1) == 0 {
            let slot = Tlb::slot(va);
            if let Some(host) = self.tlb.store.hit(slot, self.tlb.tag(va), va) {
                // SAFETY: a TLB entry is a whole page of RAM, and an aligned access stays in
                // it.
                unsafe { self.bus.ram.write_host(host, size, val) };
                let off = self.tlb.ram_off(host);
                let code = self.tlb.store_code[slot];
                if code != 0 {
                    self.dcache
                        .store_in_page((code - 1) as usize, va & (PAGE_SIZE - 1), size);
                }
                if REC {
                    let v = low_bytes(val, size);
                    self.record_mem(MemKind::Store, va, self.bus.ram.base() + off, size, v);
                }
                if FX {
                    self.fx_paddr = self.bus.ram.base() + off;
                }
                return Ok(());
            }
        }
        self.store_slow::<REC, FX>(va, size, val)
    }

    #[inline(never)]
    fn store_slow<const REC: bool, const FX: bool>(
        &mut self,
        va: u64,
        size: u8,
        val: u64,
    ) -> Result<(), ()> {
        let val = low_bytes(val, size);
        if self.hart.trig.armed {
            // The debug triggers see the address and value first (Spike's
            // `store_slow_path`).
            self.trig_access(TrigOp::Store, va, Some(val))?;
        }
        if va & (size as u64 - 1) != 0 {
            self.misaligned_event();
            if self.config.misaligned == Misaligned::Trap {
                self.mem_fault(Exception::StoreAddressMisaligned, va);
                return Err(());
            }
            // Translate every byte first so a fault leaves memory untouched.
            let mut pas = [0u64; 8];
            for (i, pa) in pas.iter_mut().enumerate().take(size as usize) {
                *pa = self.resolve(va.wrapping_add(i as u64), 1, Access::Store)?;
            }
            for (i, &pa) in pas.iter().enumerate().take(size as usize) {
                self.phys_store(pa, 1, val >> (8 * i), va.wrapping_add(i as u64))?;
            }
            if REC {
                self.record_mem(MemKind::Store, va, pas[0], size, val);
            }
            if FX {
                self.fx_paddr = pas[0];
            }
            if self.mode.models() {
                self.data_event(va, pas[0], AccessKind::Write, size);
            }
            return Ok(());
        }
        self.tlb.misses[2] += 1;
        let pa = self.resolve(va, size, Access::Store)?;
        self.phys_store(pa, size, val, va)?;
        if self.mode.models() {
            self.data_event(va, pa, AccessKind::Write, size);
        }
        if REC {
            self.record_mem(MemKind::Store, va, pa, size, val);
        }
        if FX {
            self.fx_paddr = pa;
        }
        Ok(())
    }

    fn phys_store(&mut self, pa: u64, size: u8, val: u64, va: u64) -> Result<(), ()> {
        if let Some(off) = self.bus.ram.offset(pa, size as u64) {
            self.bus.ram.write(off, size, val);
            self.code_written(pa, size as u64);
            return Ok(());
        }
        match self.bus.device_store(pa, size, val) {
            Some(BusEffect::None) => {
                if self.bus.irq_dirty {
                    self.irq_update();
                }
                Ok(())
            }
            Some(BusEffect::Clint) => {
                self.clint_changed();
                // End the chain, as after a store into decoded code: the records of the
                // instructions after it have the time it may have set (runs of simple
                // instructions have one time).
                self.dcache.dirty = true;
                Ok(())
            }
            Some(BusEffect::Exit) => {
                // The run ends after this store, as on QEMU's `virt`: the store handler ends
                // the chain (as after a store into decoded code) and the run loop then sees
                // the request. (HTIF's tohost, in RAM, is looked at when the quantum ends, as
                // Spike does.)
                self.sched.stop_requested = true;
                self.dcache.dirty = true;
                Ok(())
            }
            None => {
                self.mem_fault(Exception::StoreAccessFault, va);
                Err(())
            }
        }
    }

    /// Resolve an atomic's address: alignment (misaligned atomics raise the address-misaligned
    /// exception for LR as a load, for SC/AMOs as a store/AMO), translation and PMP as a store
    /// (an AMO needs write permission; LR only read). Returns the physical address; the access
    /// must be to RAM (atomics to devices raise an access fault).
    pub(crate) fn atomic_addr(
        &mut self,
        va: u64,
        size: u8,
        access: Access,
        kind: AccessKind,
    ) -> Result<u64, ()> {
        if va & (size as u64 - 1) != 0 {
            self.misaligned_event();
            let e = if access == Access::Load {
                Exception::LoadAddressMisaligned
            } else {
                Exception::StoreAddressMisaligned
            };
            self.mem_fault(e, va);
            return Err(());
        }
        // A TLB entry is a translation in force whose whole page is RAM that PMP allows for
        // the access (AMOs and SC look in the store TLB, LR in the load TLB): what the walk
        // would find. Linux's spin locks are AMOs and LR/SC.
        let pa = match self.tlb.lookup(access, va) {
            Some(off) => self.bus.ram.base() + off,
            None => self.resolve(va, size, access)?,
        };
        if self.bus.ram.offset(pa, size as u64).is_none() {
            self.mem_fault(access.access_fault(), va);
            return Err(());
        }
        if self.mode.models() {
            self.data_event(va, pa, kind, size);
        }
        Ok(pa)
    }

    /// Read RAM at a physical address already resolved by [`Machine::atomic_addr`].
    #[inline]
    pub(crate) fn ram_read(&self, pa: u64, size: u8) -> u64 {
        match self.bus.ram.offset(pa, size as u64) {
            Some(off) => self.bus.ram.read(off, size),
            None => 0,
        }
    }

    /// Write RAM at a physical address already resolved by [`Machine::atomic_addr`].
    #[inline]
    pub(crate) fn ram_write(&mut self, pa: u64, size: u8, val: u64) {
        if let Some(off) = self.bus.ram.offset(pa, size as u64) {
            self.bus.ram.write(off, size, val);
            self.code_written(pa, size as u64);
        }
    }

    /// RAM at `[pa, pa+len)` was written: drop blocks decoded from it.
    #[inline]
    pub(crate) fn code_written(&mut self, pa: u64, len: u64) {
        if self.dcache.is_code_page(pa & !(PAGE_SIZE - 1))
            || self.dcache.is_code_page((pa + len - 1) & !(PAGE_SIZE - 1))
        {
            self.dcache.store(pa, len);
        }
    }

    #[inline]
    /// What `cbo.clean`, `cbo.flush` and `cbo.inval` check of their address `va` (as Spike's
    /// `clean_inval`): that it translates and PMP allows it as a load, and that it is RAM;
    /// each failure is a store fault (page or access) with `va` in xtval.
    pub(crate) fn cbo_check(&mut self, va: u64) -> Result<(), ()> {
        let pa = match self.translate(va, Access::Load) {
            Ok(pa) => pa,
            Err(e) => {
                let e = match e {
                    Exception::LoadPageFault => Exception::StorePageFault,
                    _ => Exception::StoreAccessFault,
                };
                self.mem_fault(e, va);
                return Err(());
            }
        };
        let prv = self.data_priv();
        if self.tlb.pmp_check(pa, 1, Access::Load, prv) != Some(true)
            || self.bus.ram.offset(pa, 1).is_none()
        {
            self.mem_fault(Exception::StoreAccessFault, va);
            return Err(());
        }
        Ok(())
    }

    pub(crate) fn record_mem(&mut self, kind: MemKind, va: u64, pa: u64, size: u8, v: u64) {
        self.rec.push_mem(MemAccess {
            kind,
            vaddr: va,
            paddr: pa,
            size,
            value: v,
        });
    }

    // ------------------------------------------------------------------------------------
    // Instruction fetch.

    /// Translate a fetch of the halfword at `va` to a RAM offset, or record the fault.
    #[inline(always)]
    pub(crate) fn fetch_ram_off(&mut self, va: u64) -> Result<u64, ()> {
        if let Some(off) = self.tlb.lookup(Access::Fetch, va) {
            return Ok(off);
        }
        self.fetch_slow(va)
    }

    #[inline(never)]
    fn fetch_slow(&mut self, va: u64) -> Result<u64, ()> {
        self.tlb.misses[0] += 1;
        let pa = self.resolve(va, 2, Access::Fetch)?;
        match self.bus.ram.offset(pa, 2) {
            Some(off) => Ok(off as u64),
            None if self.bus.rom_fetch(pa).is_some() => {
                // Not RAM, but fetchable: the caller runs it with `fetch_half`.
                self.fetch_rom = true;
                Err(())
            }
            None => {
                self.mem_fault(Exception::InstructionAccessFault, va);
                Err(())
            }
        }
    }

    /// The half-word at `va` for a fetch of one instruction, its physical address, and
    /// whether the fetch TLB held the page (then the whole page is RAM and may be fetched
    /// from): from RAM or the boot ROM (which is not in the decode cache), or the fault
    /// recorded.
    pub(crate) fn fetch_half(&mut self, va: u64) -> Result<(u16, u64, bool), ()> {
        if let Some(off) = self.tlb.lookup(Access::Fetch, va) {
            let h = self.bus.ram.read_u16(off as usize);
            return Ok((h, self.bus.ram.base() + off, true));
        }
        self.tlb.misses[0] += 1;
        let pa = self.resolve(va, 2, Access::Fetch)?;
        if let Some(off) = self.bus.ram.offset(pa, 2) {
            return Ok((self.bus.ram.read_u16(off), pa, false));
        }
        match self.bus.rom_fetch(pa) {
            Some(h) => Ok((h, pa, false)),
            None => {
                self.mem_fault(Exception::InstructionAccessFault, va);
                Err(())
            }
        }
    }

    /// Called whenever the translation context changes.
    #[inline]
    pub(crate) fn flush_tlb(&mut self) {
        self.tlb.flush();
    }

    /// Called after a write of mstatus (or sstatus) that changed it from `old`: flush the
    /// TLBs if a field translation depends on changed (MPP, MPRV, MXR, SUM), as Spike's
    /// `maybe_flush_tlb` does. Linux writes sstatus.SIE around every spin lock it takes with
    /// interrupts saved, which changes none of them.
    #[inline]
    pub(crate) fn mstatus_written(&mut self, old: u64) {
        const XLATE: u64 = MSTATUS_MPP | MSTATUS_MPRV | MSTATUS_MXR | MSTATUS_SUM;
        if (old ^ self.hart.csr.mstatus) & XLATE != 0 {
            self.tlb.flush();
        }
    }

    /// Read a value from guest virtual memory for the host (debuggers, the SBI), as a load in
    /// the current data context. No side effects on devices: RAM only.
    pub fn peek_virt(&mut self, va: u64, size: u8) -> Option<u64> {
        let pa = self.translate(va, Access::Load).ok()?;
        self.bus
            .ram
            .offset(pa, size as u64)
            .map(|off| self.bus.ram.read(off, size))
    }
}

/// The low `size` bytes of `v` (a store's data, as records hold it).
#[inline(always)]
pub(crate) fn low_bytes(v: u64, size: u8) -> u64 {
    if size >= 8 {
        v
    } else {
        v & ((1u64 << (8 * size as u32)) - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pmp_napot_and_tor() {
        let mut csr = Csrs::default();
        let mut tlb = Tlb::new(0);
        // Entry 0: NAPOT 4 KiB at 0x8000_0000, R only.
        csr.pmpaddr[0] = (0x8000_0000 >> 2) | 0x1ff;
        csr.pmpcfg[0] = (PMP_NAPOT << PMP_A_SHIFT) | PMP_R;
        // Entry 1: TOR up to 0x9000_0000 (from pmpaddr0's address), RWX.
        csr.pmpaddr[1] = 0x9000_0000 >> 2;
        csr.pmpcfg[1] = (PMP_TOR << PMP_A_SHIFT) | PMP_R | PMP_W | PMP_X;
        tlb.set_pmp(&csr);
        assert_eq!(
            tlb.pmp_check(0x8000_0000, 8, Access::Load, Priv::S),
            Some(true)
        );
        assert_eq!(
            tlb.pmp_check(0x8000_0ff8, 8, Access::Store, Priv::S),
            Some(false)
        );
        // Straddles the end of entry 0 (which matches first): partial.
        assert_eq!(tlb.pmp_check(0x8000_0ffc, 8, Access::Load, Priv::U), None);
        // M-mode ignores unlocked entries.
        assert_eq!(
            tlb.pmp_check(0x8000_0ff8, 8, Access::Store, Priv::M),
            Some(true)
        );
        // No match: S fails, M succeeds.
        assert_eq!(
            tlb.pmp_check(0xa000_0000, 8, Access::Load, Priv::S),
            Some(false)
        );
        assert_eq!(
            tlb.pmp_check(0xa000_0000, 8, Access::Load, Priv::M),
            Some(true)
        );
        // Locked entries bind M-mode too.
        csr.pmpcfg[0] |= PMP_L;
        tlb.set_pmp(&csr);
        assert_eq!(
            tlb.pmp_check(0x8000_0000, 8, Access::Store, Priv::M),
            Some(false)
        );
    }

    /// A hart with no PMP entries (Spike's `--pmpregions 0`): the pmpaddr CSRs do not exist
    /// (illegal instruction, mtval the instruction), pmpcfg reads 0 and ignores writes, and
    /// PMP allows every S and U access.
    #[test]
    fn no_pmp_entries() {
        use crate::machine::{Config, Machine};
        use crate::record::NoSink;
        let csrr = |rd: u32, csr: u32| (csr << 20) | (2 << 12) | (rd << 7) | 0x73;
        let csrw = |csr: u32, rs1: u32| (csr << 20) | (rs1 << 15) | (1 << 12) | 0x73;
        let code = [
            csrw(0x3a0, 0), // pmpcfg0 = x0: ignored
            csrr(10, 0x3a0),
            csrr(11, 0x3b0), // pmpaddr0: illegal
        ];
        let mut m = Machine::try_new(Config {
            pmp_regions: 0,
            ..Config::default()
        })
        .unwrap();
        let bytes: Vec<u8> = code.iter().flat_map(|w| w.to_le_bytes()).collect();
        m.bus.ram.bytes_mut(0, bytes.len()).copy_from_slice(&bytes);
        m.boot(crate::bus::RAM_BASE);
        m.hart.x[10] = 7;
        for _ in 0..2 {
            assert_eq!(m.step(&mut NoSink), crate::StepOutcome::Retired);
        }
        assert_eq!(m.x(10), 0, "pmpcfg0 reads 0");
        assert!(matches!(
            m.step(&mut NoSink),
            crate::StepOutcome::Exception(_)
        ));
        assert_eq!(m.hart.csr.mcause, 2);
        assert_eq!(m.hart.csr.mtval, code[2] as u64);
        for prv in [Priv::S, Priv::U] {
            for a in [Access::Load, Access::Store, Access::Fetch] {
                assert_eq!(m.tlb.pmp_check(0x8000_0000, 8, a, prv), Some(true));
                assert_eq!(m.tlb.pmp_check(0, 8, a, prv), Some(true));
            }
        }
        // Entries but none matching: S and U fail, as before.
        let m = Machine::try_new(Config {
            pmp_regions: 1,
            ..Config::default()
        })
        .unwrap();
        assert_eq!(m.hart.csr.pmpcfg[0] & PMP_A, PMP_NAPOT << PMP_A_SHIFT);
        let mut csr = m.hart.csr.clone();
        csr.pmpcfg[0] = 0;
        let mut tlb = Tlb::new(0);
        tlb.set_pmp(&csr);
        assert_eq!(
            tlb.pmp_check(0x8000_0000, 8, Access::Load, Priv::U),
            Some(false)
        );
    }

    /// The PMP settings a machine cannot have are refused when it is built.
    #[test]
    fn pmp_settings_checked() {
        use crate::machine::{Config, ConfigError, Machine};
        for (regions, g) in [(65, 4), (16, 2), (16, 12), (16, 0)] {
            let r = Machine::try_new(Config {
                pmp_regions: regions,
                pmp_granularity: g,
                ..Config::default()
            });
            assert!(matches!(r, Err(ConfigError::Pmp(_))), "{regions} {g}");
        }
    }

    #[test]
    fn tlb_generations() {
        let mut t = Tlb::new(0);
        t.fill(Access::Load, 0x8000_1234, 0x1000, 0);
        assert_eq!(t.lookup(Access::Load, 0x8000_1238), Some(0x1238));
        assert_eq!(t.lookup(Access::Store, 0x8000_1238), None);
        t.flush();
        assert_eq!(t.lookup(Access::Load, 0x8000_1238), None);
        for _ in 0..5000 {
            t.flush();
        }
        assert_eq!(t.lookup(Access::Load, 0xffff_ffff_ffff_f000), None);
    }

    /// The TLBs outlive a write of sstatus that changes nothing they depend on (SIE, which
    /// Linux sets and clears around its spin locks), and are flushed by one that does (SUM):
    /// an S-mode load from a user page that hit in the load TLB faults once SUM is clear.
    /// An AMO hits the store TLB a store filled.
    #[test]
    fn tlb_kept_across_sie_flushed_by_sum() {
        use crate::machine::{Config, Machine};
        use crate::record::NoSink;
        use crate::StepOutcome;
        let i = |imm: u32, rs1: u32, f3: u32, rd: u32, op: u32| {
            (imm << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op
        };
        let code = [
            i(0, 5, 3, 10, 0x03),            // ld a0, 0(t0)
            i(0x100, 2, 6, 0, 0x73),         // csrsi sstatus, 2 (SIE)
            i(0, 5, 3, 11, 0x03),            // ld a1, 0(t0)
            (7 << 20) | i(0, 5, 3, 8, 0x23), // sd t2, 8(t0)
            i(7, 5, 3, 13, 0x2f),            // amoadd.d a3, t2, (t0)
            i(0x100, 6, 3, 0, 0x73),         // csrc sstatus, t1 (SUM)
            i(0, 5, 3, 12, 0x03),            // ld a2, 0(t0)
        ];
        let mut m = Machine::try_new(Config::default()).unwrap();
        let bytes: Vec<u8> = code.iter().flat_map(|w| w.to_le_bytes()).collect();
        m.bus.ram.bytes_mut(0, bytes.len()).copy_from_slice(&bytes);
        // Sv39 root at RAM + 0x8000: VA 0 (1 GiB, U, RW) and VA 0x8000_0000 (identity, RWX),
        // both onto RAM's base.
        let root = 0x8000usize;
        let ppn = 0x8000_0000u64 >> 12;
        let user = (ppn << 10) | 0xd7; // V R W U A D
        let kernel = (ppn << 10) | 0xcf; // V R W X A D
        m.bus
            .ram
            .bytes_mut(root, 8)
            .copy_from_slice(&user.to_le_bytes());
        m.bus
            .ram
            .bytes_mut(root + 16, 8)
            .copy_from_slice(&kernel.to_le_bytes());
        m.bus
            .ram
            .bytes_mut(0x2000, 8)
            .copy_from_slice(&40u64.to_le_bytes());
        m.boot(crate::bus::RAM_BASE);
        m.hart.csr.mtvec = crate::bus::RAM_BASE + 0x1000;
        m.hart.csr.satp = (SATP_MODE_SV39 << SATP_MODE_SHIFT) | ((0x8000_0000 + root as u64) >> 12);
        m.hart.csr.mstatus |= MSTATUS_SUM;
        m.hart.prv = Priv::S;
        m.state_replaced();
        m.hart.x[5] = 0x2000;
        m.hart.x[6] = MSTATUS_SUM;
        m.hart.x[7] = 2;
        for _ in 0..5 {
            assert_eq!(m.step(&mut NoSink), StepOutcome::Retired);
            assert!(m.tlb.lookup(Access::Load, 0x2000).is_some(), "kept");
        }
        assert_eq!((m.x(10), m.x(11), m.x(13)), (40, 40, 40));
        assert_eq!(
            m.peek_virt(0x2000, 8),
            Some(42),
            "the AMO through the store TLB"
        );
        assert_eq!(m.step(&mut NoSink), StepOutcome::Retired);
        assert_eq!(
            m.tlb.lookup(Access::Load, 0x2000),
            None,
            "SUM cleared: flushed"
        );
        assert_eq!(
            m.step(&mut NoSink),
            StepOutcome::Exception(Cause::Exception(Exception::LoadPageFault))
        );
        assert_eq!(m.hart.csr.mtval, 0x2000);
    }

    /// Loads from the boot ROM (OpenSBI reads the device tree there) go through its one
    /// load translation after the first, with the values and faults the bus gives.
    #[test]
    fn boot_rom_loads_through_the_rom_translation() {
        use crate::machine::{Config, Machine};
        use crate::record::NoSink;
        use crate::StepOutcome;
        let i = |imm: u32, rs1: u32, f3: u32, rd: u32, op: u32| {
            (imm << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op
        };
        let code = [
            0x0000_12b7,           // lui t0, 1
            i(32, 5, 2, 10, 0x03), // lw a0, 32(t0): the device tree's magic
            i(35, 5, 4, 11, 0x03), // lbu a1, 35(t0)
            i(36, 5, 6, 12, 0x03), // lwu a2, 36(t0): its total size (big-endian)
            i(34, 5, 2, 13, 0x03), // lw a3, 34(t0): misaligned
        ];
        let mut m = Machine::try_new(Config::default()).unwrap();
        let bytes: Vec<u8> = code.iter().flat_map(|w| w.to_le_bytes()).collect();
        m.bus.ram.bytes_mut(0, bytes.len()).copy_from_slice(&bytes);
        m.boot(crate::bus::RAM_BASE);
        m.hart.csr.mtvec = crate::bus::RAM_BASE + 0x1000;
        for _ in 0..4 {
            assert_eq!(m.step(&mut NoSink), StepOutcome::Retired);
            assert!(m.hart.pc == crate::bus::RAM_BASE + 4 || m.tlb.rom.tag == m.tlb.tag(0x1000));
        }
        assert_eq!(m.x(10), 0xffff_ffff_edfe_0dd0);
        assert_eq!(m.x(11), 0xed);
        let dtb = m.dtb.clone();
        assert_eq!(
            m.x(12),
            u32::from_le_bytes(dtb[4..8].try_into().unwrap()) as u64
        );
        assert_eq!(
            m.step(&mut NoSink),
            StepOutcome::Exception(Cause::Exception(Exception::LoadAddressMisaligned))
        );
        m.flush_tlb();
        assert_ne!(m.tlb.rom.tag, m.tlb.tag(0x1000));
    }
}
