//! The tandem verifier's reference hart: a hartscope [`Machine`] stepped one instruction at a
//! time (spec Appendix A: read and write its state, execute one instruction, reset it), and
//! the register index space shared by the shadow state and the comparison.
//!
//! Registers are indexed 0..4096 for CSRs, 4096 + n for xn and 4128 + n for fn (the debug
//! spec's addresses, packed). View CSRs (sstatus, sie, sip, fcsr, cycle, instret,
//! hpmcounterN) have no index of their own: writes to them are applied to the registers
//! that hold their bits. So has hcontext: without H it is only the name the hart's records
//! (and Spike's commit log) give mcontext's writes.

use crate::opcode::{FPR_ADDR, GPR_ADDR};
use iss::csr::*;
use iss::insn::{Insn, Op};
use iss::mmu::Access;
use iss::ops::Atomic;
use iss::record::{MemAccess, MemKind, Reg, Retired, Shape, Sink, TrapRecord};
use iss::trigger::MCONTEXT;
use iss::Detail;
use iss::{Machine, Priv};

/// Size of the register index space.
pub const NREG: usize = 4096 + 64;
pub const GPR0: usize = 4096;
pub const FPR0: usize = 4096 + 32;

/// Where a write to a debug-spec register address lands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A register with state, by index.
    Reg(usize),
    /// sstatus: the sstatus bits of mstatus.
    Sstatus,
    /// sie: the delegated bits of mie.
    Sie,
    /// sip: the delegated bits of mip.
    Sip,
    /// fcsr: frm and fflags.
    Fcsr,
    /// An address with no register behind it.
    Unknown,
}

/// Map a debug-spec register address to where its value lives.
#[inline]
pub fn target(addr: u16) -> Target {
    match addr {
        GPR_ADDR..=0x101f => Target::Reg(GPR0 + (addr - GPR_ADDR) as usize),
        FPR_ADDR..=0x103f => Target::Reg(FPR0 + (addr - FPR_ADDR) as usize),
        SSTATUS => Target::Sstatus,
        SIE => Target::Sie,
        SIP => Target::Sip,
        FCSR => Target::Fcsr,
        CYCLE => Target::Reg(MCYCLE as usize),
        INSTRET => Target::Reg(MINSTRET as usize),
        HPMCOUNTER3..=HPMCOUNTER31 => Target::Reg((addr - CYCLE + MCYCLE) as usize),
        // One register, two names: a write of hcontext is mcontext's.
        HCONTEXT => Target::Reg(MCONTEXT as usize),
        0..=0xfff => Target::Reg(addr as usize),
        _ => Target::Unknown,
    }
}

/// The debug-spec address of an index.
#[inline]
pub fn addr_of(idx: usize) -> u16 {
    if idx >= FPR0 {
        FPR_ADDR + (idx - FPR0) as u16
    } else if idx >= GPR0 {
        GPR_ADDR + (idx - GPR0) as u16
    } else {
        idx as u16
    }
}

/// The index a hart record's register write changes (`None` for mvip, which hartscope's
/// records carry only for Spike's commit log).
#[inline]
pub fn record_idx(r: Reg) -> Option<usize> {
    match r {
        Reg::X(n) => Some(GPR0 + (n & 31) as usize),
        Reg::F(n) => Some(FPR0 + (n & 31) as usize),
        Reg::Csr(MVIP) => None,
        Reg::Csr(SIE) => Some(MIE as usize),
        Reg::Csr(SIP) => Some(MIP as usize),
        Reg::Csr(SSTATUS) => Some(MSTATUS as usize),
        Reg::Csr(c) => match target(c) {
            Target::Reg(i) => Some(i),
            _ => None,
        },
    }
}

/// Read a register by index.
#[inline]
pub fn read(m: &Machine, idx: usize) -> Option<u64> {
    if idx >= FPR0 {
        Some(m.hart.f[idx - FPR0])
    } else if idx >= GPR0 {
        Some(m.x((idx - GPR0) as u8))
    } else {
        m.get_reg(idx as u16)
    }
}

/// Force a register by index (CSRs as `Machine::set_reg` does).
#[inline]
pub fn write(m: &mut Machine, idx: usize, v: u64) {
    if idx >= FPR0 {
        m.hart.f[idx - FPR0] = v;
    } else if idx >= GPR0 {
        m.set_x((idx - GPR0) as u8, v);
    } else {
        m.set_reg(idx as u16, v);
    }
}

/// What the verifier keeps of an instruction's record: the registers it wrote by index,
/// its memory accesses, and the rest of the record but the values written (read from the
/// hart when needed). Fields are copied one by one: the hart has just written them one by
/// one, and wider copies would wait for those stores.
#[derive(Clone, Copy, Debug)]
pub struct Captured {
    pub pc: u64,
    pub insn: Insn,
    pub prv: Priv,
    pub next_pc: u64,
    pub exception: Option<(arch::Cause, u64)>,
    idx: [u16; iss::record::MAX_WRITES],
    n_idx: u8,
    mem: [MemAccess; iss::record::MAX_MEM],
    n_mem: u8,
    pub sc_failed: bool,
    pub sc_addr: u64,
}

const NO_ACCESS: MemAccess = MemAccess {
    kind: MemKind::Load,
    vaddr: 0,
    paddr: 0,
    size: 0,
    value: 0,
};

impl Default for Captured {
    fn default() -> Self {
        Captured {
            pc: 0,
            insn: Insn::NOT_DECODED,
            prv: Priv::M,
            next_pc: 0,
            exception: None,
            idx: [0; iss::record::MAX_WRITES],
            n_idx: 0,
            mem: [NO_ACCESS; iss::record::MAX_MEM],
            n_mem: 0,
            sc_failed: false,
            sc_addr: 0,
        }
    }
}

impl Captured {
    /// The data accesses.
    #[inline]
    pub fn mem(&self) -> &[MemAccess] {
        &self.mem[..self.n_mem as usize]
    }

    /// Indices of the registers written.
    #[inline]
    pub fn written(&self) -> &[u16] {
        &self.idx[..self.n_idx as usize]
    }
}

/// A sink that keeps what the verifier needs of one step's records.
#[derive(Default)]
pub struct Capture {
    rec: Captured,
    has_rec: bool,
    pub trap: Option<TrapRecord>,
}

impl Capture {
    #[inline]
    pub fn clear(&mut self) {
        self.has_rec = false;
        self.trap = None;
    }

    /// The instruction's record, if one was executed.
    #[inline]
    pub fn retired(&self) -> Option<&Captured> {
        self.has_rec.then_some(&self.rec)
    }
}

impl Sink for Capture {
    const DETAIL: Detail = Detail::Records;

    #[inline(always)]
    fn retire(&mut self, r: &Retired) {
        let x = &mut self.rec;
        x.pc = r.pc;
        x.insn = r.insn;
        x.prv = r.prv;
        x.next_pc = r.next_pc;
        x.exception = r.exception;
        let mut n = 0;
        for w in r.writes() {
            if let Some(i) = record_idx(w.reg) {
                x.idx[n] = i as u16;
                n += 1;
            }
        }
        x.n_idx = n as u8;
        for (d, m) in x.mem.iter_mut().zip(r.mem()) {
            d.kind = m.kind;
            d.vaddr = m.vaddr;
            d.paddr = m.paddr;
            d.size = m.size;
            d.value = m.value;
        }
        x.n_mem = r.n_mem;
        x.sc_failed = r.sc_failed;
        x.sc_addr = r.sc_addr;
        self.has_rec = true;
    }

    #[inline]
    fn trap(&mut self, t: &TrapRecord) {
        self.trap = Some(t.clone());
    }
}

/// Memory bytes the next instruction may overwrite, as they are before it runs (so that a
/// store the trace does not have can be undone).
#[derive(Clone, Copy, Debug, Default)]
pub struct PreStore {
    pub n: usize,
    pub bytes: [(u64, u8); 8],
}

impl PreStore {
    /// The byte at `pa` before the instruction, if it was saved.
    #[inline]
    pub fn get(&self, pa: u64) -> Option<u8> {
        self.bytes[..self.n]
            .iter()
            .find(|(a, _)| *a == pa)
            .map(|(_, b)| *b)
    }
}

/// Whether the first halfword of an instruction says it may store (stores, FP stores,
/// AMOs and SC, and their compressed forms).
#[inline]
/// Whether an instruction whose low 16 bits are `lo` may store (a test holds it to every
/// encoding [`store_size`] gives a size for).
pub(crate) fn may_store(lo: u16) -> bool {
    let f3 = lo >> 13;
    match lo & 3 {
        3 => matches!(lo & 0x7f, 0x23 | 0x27 | 0x2f),
        // c.fsd, c.sw, c.sd; and funct3 100, Zcb's c.sb and c.sh among its loads.
        0 => f3 >= 4,
        // c.fsdsp, c.swsp, c.sdsp.
        _ => lo & 3 == 2 && f3 >= 5,
    }
}

#[inline]
fn ram_u16(m: &mut Machine, va: u64) -> Option<u16> {
    let pa = if m.hart.prv == Priv::M || m.hart.csr.satp >> 60 == 0 {
        va
    } else {
        m.translate(va, Access::Fetch).ok()?
    };
    let off = m.bus.ram.offset(pa, 2)?;
    Some(m.bus.ram.read_u16(off))
}

/// The raw instruction (bits, length) at virtual address `va`, fetched as the hart would
/// now, if it is in RAM.
pub fn insn_at(m: &mut Machine, va: u64) -> Option<(u32, u8)> {
    let lo = ram_u16(m, va)?;
    if lo & 3 != 3 {
        return Some((lo as u32, 2));
    }
    let hi = ram_u16(m, va.wrapping_add(2))?;
    Some((lo as u32 | (hi as u32) << 16, 4))
}

/// The instruction the hart would execute next, if it can be fetched from RAM (as the
/// hart's extensions have it: one that is off is illegal).
pub fn peek_insn(m: &mut Machine) -> Option<Insn> {
    let pc = m.hart.pc;
    let lo = ram_u16(m, pc)?;
    let isa = m.config.isa;
    if lo & 3 != 3 {
        return Some(
            m.step_decoded_for(pc, lo as u32)
                .unwrap_or_else(|| isa.filter(iss::decode::decode16(lo))),
        );
    }
    let hi = ram_u16(m, pc.wrapping_add(2))?;
    let raw = lo as u32 | (hi as u32) << 16;
    Some(
        m.step_decoded_for(pc, raw)
            .unwrap_or_else(|| isa.filter(iss::decode::decode32(raw))),
    )
}

/// Bytes a store of `size` bytes writes, for a decoded store-like instruction.
pub fn store_size(op: Op) -> Option<u8> {
    match (iss::record::SHAPES[op as usize], op.facts().atomic) {
        (Shape::Store(n) | Shape::FStore(n), _) => Some(n),
        (_, Atomic::Sc(n) | Atomic::Amo(n, _)) => Some(n),
        _ => None,
    }
}

/// Save the RAM bytes the next instruction would store to in `pre` (emptied first; kept by
/// the caller so that nothing is zeroed or copied for the many instructions that store
/// nothing).
#[inline]
pub fn predict_store(m: &mut Machine, pre: &mut PreStore) {
    pre.n = 0;
    // Most instructions store nothing, and their low 16 bits say so before any decode.
    if m.peek_step_u16().is_some_and(|lo| !may_store(lo)) {
        return;
    }
    save_store_bytes(m, pre);
}

/// [`predict_store`] for an instruction that may store.
#[inline(never)]
fn save_store_bytes(m: &mut Machine, pre: &mut PreStore) {
    let d = match m.peek_step_insn() {
        Some(d) => d,
        None => {
            let Some(lo) = ram_u16(m, m.hart.pc) else {
                return;
            };
            if !may_store(lo) {
                return;
            }
            let Some(d) = peek_insn(m) else {
                return;
            };
            d
        }
    };
    let Some(size) = store_size(d.op) else {
        return;
    };
    let va = m.x(d.rs1).wrapping_add(d.imm as i64 as u64);
    // The common case: the store TLB holds the page, one read.
    if let Some(off) = m.tlb_ram_offset(va, size as u64, Access::Store) {
        let pa = m.bus.ram.base() + off as u64;
        for (i, &v) in m.bus.ram.bytes(off, size as usize).iter().enumerate() {
            pre.bytes[i] = (pa + i as u64, v);
        }
        pre.n = size as usize;
        return;
    }
    // Within one page of RAM, one translation and one read.
    if (va & 0xfff) + size as u64 <= 0x1000 {
        if let Ok(pa) = m.translate(va, Access::Store) {
            let mut b = [0u8; 8];
            let n = size as usize;
            if m.bus.read_phys(pa, &mut b[..n]) {
                for (i, &v) in b[..n].iter().enumerate() {
                    pre.bytes[i] = (pa + i as u64, v);
                }
                pre.n = n;
                return;
            }
        }
    }
    let mut page_pa = None;
    for i in 0..size as u64 {
        let a = va.wrapping_add(i);
        let pa = match page_pa {
            Some((page_va, page_pa)) if a & !0xfff == page_va => page_pa | (a & 0xfff),
            _ => match m.translate(a, Access::Store) {
                Ok(pa) => {
                    page_pa = Some((a & !0xfff, pa & !0xfff));
                    pa
                }
                Err(_) => continue,
            },
        };
        let mut b = [0u8];
        if m.bus.read_phys(pa, &mut b) {
            pre.bytes[pre.n] = (pa, b[0]);
            pre.n += 1;
        }
    }
}

/// Read one byte of RAM.
#[inline]
pub fn ram_byte(m: &Machine, pa: u64) -> Option<u8> {
    let mut b = [0u8];
    m.bus.read_phys(pa, &mut b).then_some(b[0])
}

/// Write bytes of RAM (keeps the hart's decoded-instruction cache exact). Bytes outside RAM
/// are ignored. Returns whether all were written.
pub fn write_ram(m: &mut Machine, pa: u64, bytes: &[u8]) -> bool {
    let mut ok = true;
    let mut i = 0;
    while i < bytes.len() {
        let a = pa.wrapping_add(i as u64);
        let word = a & !7;
        let Some(old) = m.bus.read_u64(word) else {
            ok = false;
            i += 1;
            continue;
        };
        let mut w = old.to_le_bytes();
        while i < bytes.len() && pa.wrapping_add(i as u64) & !7 == word {
            w[(pa.wrapping_add(i as u64) & 7) as usize] = bytes[i];
            i += 1;
        }
        m.host_write_u64(word, u64::from_le_bytes(w));
    }
    ok
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The quick filter `predict_store` trusts never says "no store" for an instruction that
    /// stores: every 16-bit encoding, and every 32-bit opcode with a spread of the other bits.
    #[test]
    fn may_store_covers_every_store() {
        for half in 0..=u16::MAX {
            if half & 3 != 3 && store_size(iss::decode::decode16(half).op).is_some() {
                assert!(may_store(half), "{half:04x}");
            }
        }
        let mut x = 0x9e37_79b9u32;
        for _ in 0..1_000_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let bits = x | 3;
            if store_size(iss::decode::decode32(bits).op).is_some() {
                assert!(may_store(bits as u16), "{bits:08x}");
            }
        }
    }

    #[test]
    fn index_space() {
        assert_eq!(target(0x1003), Target::Reg(GPR0 + 3));
        assert_eq!(target(0x103f), Target::Reg(FPR0 + 31));
        assert_eq!(target(0x100), Target::Sstatus);
        assert_eq!(target(0xc02), Target::Reg(MINSTRET as usize));
        assert_eq!(target(0xc05), Target::Reg(0xb05));
        assert_eq!(target(0x2000), Target::Unknown);
        assert_eq!(target(HCONTEXT), Target::Reg(MCONTEXT as usize));
        assert_eq!(record_idx(Reg::Csr(HCONTEXT)), Some(MCONTEXT as usize));
        assert_eq!(addr_of(GPR0 + 3), 0x1003);
        assert_eq!(addr_of(FPR0 + 7), 0x1027);
        assert_eq!(addr_of(0x300), 0x300);
        assert_eq!(record_idx(Reg::Csr(SIE)), Some(MIE as usize));
        assert_eq!(record_idx(Reg::Csr(MVIP)), None);
    }

    #[test]
    fn store_shapes() {
        assert!(may_store(0x0023)); // sb
        assert!(may_store(0x00a7)); // fsw/fsd opcode 0x27
        assert!(may_store(0x202f)); // amo
        assert!(may_store(0xe000)); // c.sd (q0, f3 7)
        assert!(may_store(0xe002)); // c.sdsp
        assert!(!may_store(0x0003)); // lb
        assert!(!may_store(0x4000)); // c.lw
        assert!(!may_store(0x0001)); // c.nop
    }
}
