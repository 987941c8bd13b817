//! Zicbom and Zicboz: `cbo.clean`, `cbo.flush`, `cbo.inval` and `cbo.zero` (the CMO spec
//! 1.0.1), as Spike executes them.
//!
//! - Below M-mode each is enabled by menvcfg (CBCFE for clean and flush, CBIE for inval, CBZE
//!   for zero) and, in U-mode, by senvcfg too; otherwise it raises illegal instruction (there
//!   is no hypervisor here, so never virtual instruction). `cbo.inval` with CBIE = 01 acts as
//!   a flush, which with no cache model is the same thing.
//! - Clean, flush and inval change nothing the hart can see: they check that the address is
//!   readable (translation and PMP as a load) and is RAM, raising store page or access faults
//!   with rs1 in xtval otherwise.
//! - `cbo.zero` stores 64 zero bytes at the cache block holding rs1 (the device tree says
//!   `riscv,cboz-block-size = 64`), one byte at a time as Spike does: translation, PMP and
//!   devices as for byte stores, and a fault names the byte (so the block's first byte when
//!   the block is out of bounds). Its record has one store of the whole block
//!   ([`BLOCK`] bytes, value 0), which each consumer spells as it can (the commit log as
//!   Spike's 64 byte writes).

use crate::insn::{Insn, Op};
use crate::machine::Machine;
use crate::record::MemKind;
use arch::Priv;

/// The cache block size of `cbo.*` (Spike's), in bytes.
pub const BLOCK: u64 = 64;

/// menvcfg/senvcfg: cbo.inval enable (2 bits; 10 is reserved and reads 00, as on Spike).
pub const ENVCFG_CBIE: u64 = 3 << 4;
/// menvcfg/senvcfg: cbo.clean/cbo.flush enable.
pub const ENVCFG_CBCFE: u64 = 1 << 6;
/// menvcfg/senvcfg: cbo.zero enable.
pub const ENVCFG_CBZE: u64 = 1 << 7;

/// The CMO enables menvcfg or senvcfg takes when `v` is written: those of the extensions that
/// are on (CBIE's reserved 10 becomes 00, as on Spike). FIOM is read-only zero, as on Spike.
pub(crate) fn envcfg_write(isa: &crate::Isa, v: u64) -> u64 {
    let mut mask = 0;
    if isa.zicbom {
        mask |= ENVCFG_CBIE | ENVCFG_CBCFE;
    }
    if isa.zicboz {
        mask |= ENVCFG_CBZE;
    }
    let mut w = v & mask;
    if w & ENVCFG_CBIE == 2 << 4 {
        w &= !ENVCFG_CBIE;
    }
    w
}

impl Machine {
    /// Whether the envcfg `field` lets the current privilege run the instruction (Spike's
    /// `require_envcfg`).
    fn cbo_enabled(&self, field: u64) -> bool {
        let c = &self.hart.csr;
        match self.hart.prv {
            Priv::M | Priv::Debug => true,
            Priv::S => c.menvcfg & field != 0,
            Priv::U => c.menvcfg & field != 0 && c.senvcfg & field != 0,
        }
    }

    /// `cbo.clean`, `cbo.flush`, `cbo.inval`.
    #[inline(never)]
    pub(crate) fn cbo_manage(&mut self, d: &Insn, npc: u64) -> u64 {
        let field = if d.op == Op::CboInval {
            ENVCFG_CBIE
        } else {
            ENVCFG_CBCFE
        };
        if !self.cbo_enabled(field) {
            return self.illegal(d);
        }
        let va = self.hart.x[(d.rs1 & 31) as usize];
        match self.cbo_check(va) {
            Ok(()) => npc,
            Err(()) => super::TRAP,
        }
    }

    /// `cbo.zero`.
    #[inline(never)]
    pub(crate) fn cbo_zero<const REC: bool>(&mut self, d: &Insn, npc: u64) -> u64 {
        if !self.cbo_enabled(ENVCFG_CBZE) {
            return self.illegal(d);
        }
        let base = self.hart.x[(d.rs1 & 31) as usize] & !(BLOCK - 1);
        for i in 0..BLOCK {
            if self.store::<false, true>(base + i, 1, 0).is_err() {
                return super::TRAP;
            }
            if i == 0 && REC {
                let pa = self.fx_paddr;
                self.record_mem(MemKind::Store, base, pa, BLOCK as u8, 0);
            }
        }
        self.after_store(npc)
    }
}
