//! CSR access: the directly addressed control/status/depth CSRs, the entry registers through
//! the indirect interface (Smcsrind/Sscsrind), and SCTRCLR, with their privilege and
//! Smstateen checks and WARL behaviour.
//!
//! Every access returns `None` when the address (or select value) is not CTR's in the
//! configured layout, so that the hart handles it, and `Some(Err(Fault))` when CTR owns it and
//! the access must raise an illegal-instruction exception.

use crate::bits::{self, csr::draft014 as d, csr::ratified10 as r, entry, status};
use crate::{entry::data_write_mask, Ctr, Layout};
use arch::{Exception, Priv};

/// Why an access raises an illegal-instruction exception.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Fault {
    /// The CSR needs a higher privilege mode (M-level CSRs from S or U, S-level ones from U).
    #[error("CTR state is not accessible from this privilege mode")]
    Privilege,
    /// `mstateen0`.CTR is 0 and the access comes from below M-mode (0.1.4 chapter 4; 1.0
    /// "State Enable Access Control").
    #[error("CTR state is disabled for this privilege mode by mstateen0.CTR")]
    Stateen,
    /// The register or instruction does not exist in this configuration: `vsctrcontrol` and
    /// `vsctrctl` (no H extension), the RV32-only `*h` CSRs, `mireg*` on CTR select values in
    /// 1.0, SCTRCLR in 0.1.4.
    #[error("not implemented in this CTR configuration")]
    NotImplemented,
}

impl Fault {
    /// The exception the hart raises: always illegal instruction (there is no H extension,
    /// so no virtual-instruction exception).
    pub fn exception(self) -> Exception {
        Exception::IllegalInstruction
    }
}

/// What the hart owns that CTR accesses depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AccessCtx {
    /// `mstateen0`. Pass `u64::MAX` when Smstateen is not implemented (nothing is gated).
    /// The CTR bit is 55 in 0.1.4 and 54 in 1.0 ([`Ctr::mstateen0_ctr_bit`]). Bit 60
    /// (CSRIND, gating `siselect`/`sireg*` themselves) is the hart's to check.
    pub mstateen0: u64,
    /// The PMU cycle count now (writes that change FROZEN or reset the cycle counter need it).
    pub now_cycles: u64,
}

impl AccessCtx {
    /// A context with Smstateen absent (nothing gated) at cycle `now_cycles`.
    pub fn ungated(now_cycles: u64) -> AccessCtx {
        AccessCtx {
            mstateen0: u64::MAX,
            now_cycles,
        }
    }
}

/// Which indirect-access interface an `*ireg*` access came through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bank {
    /// `miselect` / `mireg`..`mireg6` (Smcsrind).
    Machine,
    /// `siselect` / `sireg`..`sireg6` (Sscsrind).
    Supervisor,
}

/// A CTR CSR, by role.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reg {
    /// `mctrcontrol` / `mctrctl`.
    MCtl,
    /// `sctrcontrol` / `sctrctl`.
    SCtl,
    /// `mctrstatus` (0.1.4).
    MStatus,
    /// `sctrstatus`.
    SStatus,
    /// `sctrdepth` (1.0).
    SDepth,
    /// Exists in the listing but not on this hart: `vs*`, RV32 `*h`.
    Absent,
}

impl Reg {
    fn decode(layout: Layout, addr: u16) -> Option<Reg> {
        Some(match (layout, addr) {
            (Layout::Draft014, d::MCTRCONTROL) => Reg::MCtl,
            (Layout::Draft014, d::SCTRCONTROL) => Reg::SCtl,
            (Layout::Draft014, d::MCTRSTATUS) => Reg::MStatus,
            (Layout::Draft014, d::SCTRSTATUS) => Reg::SStatus,
            (
                Layout::Draft014,
                d::VSCTRCONTROL | d::VSCTRCONTROLH | d::MCTRCONTROLH | d::SCTRCONTROLH,
            ) => Reg::Absent,
            (Layout::Ratified10, r::MCTRCTL) => Reg::MCtl,
            (Layout::Ratified10, r::SCTRCTL) => Reg::SCtl,
            (Layout::Ratified10, r::SCTRSTATUS) => Reg::SStatus,
            (Layout::Ratified10, r::SCTRDEPTH) => Reg::SDepth,
            (Layout::Ratified10, r::VSCTRCTL) => Reg::Absent,
            _ => return None,
        })
    }
}

impl Ctr {
    /// The `mstateen0` bit that gates S-mode access to CTR state in this layout.
    pub fn mstateen0_ctr_bit(&self) -> u32 {
        match self.cfg.layout {
            Layout::Draft014 => bits::MSTATEEN0_CTR_014,
            Layout::Ratified10 => bits::MSTATEEN0_CTR_10,
        }
    }

    /// Supervisor-level CTR state access from `prv`: U never; S only with mstateen0.CTR.
    fn check_s_level(&self, prv: Priv, ctx: &AccessCtx) -> Result<(), Fault> {
        match prv {
            Priv::U => Err(Fault::Privilege),
            Priv::S if ctx.mstateen0 >> self.mstateen0_ctr_bit() & 1 == 0 => Err(Fault::Stateen),
            _ => Ok(()),
        }
    }

    fn check(&self, reg: Reg, prv: Priv, ctx: &AccessCtx) -> Result<(), Fault> {
        match reg {
            Reg::Absent => Err(Fault::NotImplemented),
            Reg::MCtl | Reg::MStatus if prv < Priv::M => Err(Fault::Privilege),
            Reg::MCtl | Reg::MStatus => Ok(()),
            Reg::SCtl | Reg::SStatus | Reg::SDepth => self.check_s_level(prv, ctx),
        }
    }

    /// Bits of the control register only M-mode sees (M and MTE: "Bits 0 and 8 in
    /// sctrcontrol are read-only 0" in 0.1.4; bits 2 and 9 in 1.0).
    fn m_only(&self) -> u64 {
        self.bits.m | self.bits.mte
    }

    /// Read a directly addressed CTR CSR from privilege `prv`. `None`: not a CTR CSR in this
    /// layout.
    pub fn csr_read(&self, addr: u16, prv: Priv, ctx: &AccessCtx) -> Option<Result<u64, Fault>> {
        debug_assert!(
            self.pending_len == 0,
            "CTR read with deferred records: flush first"
        );
        let reg = Reg::decode(self.cfg.layout, addr)?;
        Some(self.check(reg, prv, ctx).map(|()| self.read_reg(reg)))
    }

    fn read_reg(&self, reg: Reg) -> u64 {
        match reg {
            Reg::MCtl => self.ctl_value(),
            Reg::SCtl => self.ctl_value() & !self.m_only(),
            Reg::MStatus | Reg::SStatus => self.status_value(),
            Reg::SDepth => u64::from(self.depth_log),
            Reg::Absent => 0,
        }
    }

    fn status_value(&self) -> u64 {
        let w = u64::from(self.wrptr);
        match self.cfg.layout {
            Layout::Draft014 => {
                w | if self.wrap { status::WRAP_014 } else { 0 }
                    | if self.frozen { status::FROZEN_014 } else { 0 }
            }
            Layout::Ratified10 => w | if self.frozen { status::FROZEN_10 } else { 0 },
        }
    }

    /// Write a directly addressed CTR CSR from privilege `prv` (the hart calls this only for
    /// instructions that write: not for `csrrs`/`csrrc` with rs1 = x0). `None`: not a CTR CSR.
    ///
    /// Control-register writes are WARL: unimplemented fields stay 0, DEPTH is legalised
    /// (see `docs/ctr.md`), CLR (0.1.4) clears the array and mctrstatus and reads 0, and the cycle counter
    /// restarts with CCV = 0 for the next record ("An implementation must clear CCV for the
    /// next recorded transfer upon a write to ctrcontrol").
    pub fn csr_write(
        &mut self,
        addr: u16,
        value: u64,
        prv: Priv,
        ctx: &AccessCtx,
    ) -> Option<Result<(), Fault>> {
        self.flush();
        let reg = Reg::decode(self.cfg.layout, addr)?;
        if let Err(f) = self.check(reg, prv, ctx) {
            return Some(Err(f));
        }
        self.settle_in(prv, ctx.now_cycles);
        match reg {
            Reg::MCtl => self.write_ctl(value, self.ctl_mask, ctx.now_cycles),
            Reg::SCtl => self.write_ctl(value, self.ctl_mask & !self.m_only(), ctx.now_cycles),
            Reg::MStatus | Reg::SStatus => self.write_status(value),
            Reg::SDepth => self.set_depth_log(self.legal_depth_10(value)),
            Reg::Absent => {}
        }
        Some(Ok(()))
    }

    fn write_ctl(&mut self, value: u64, mask: u64, now: u64) {
        self.ctl = (self.ctl & !mask) | (value & mask);
        if self.cfg.layout == Layout::Draft014 {
            let code = (value & self.bits.depth) >> bits::DEPTH_SHIFT_014;
            self.set_depth_log(self.legal_depth_014(code));
            if value & self.bits.clr != 0 {
                self.clr_014();
            }
        }
        self.cc.reset(now);
        self.refresh();
    }

    /// 0.1.4 CLR: zero every implemented entry, and mctrstatus ("Also zeroes mctrstatus"):
    /// WRPTR, WRAP and FROZEN (see docs/ctr.md for why all entries).
    fn clr_014(&mut self) {
        self.clear_entries();
        self.wrptr = 0;
        self.wrap = false;
        self.frozen = false;
    }

    fn write_status(&mut self, value: u64) {
        let mask = (self.depth() - 1) as u64;
        self.wrptr = (value & status::WRPTR & mask) as u8;
        match self.cfg.layout {
            Layout::Draft014 => {
                self.wrap = value & status::WRAP_014 != 0;
                self.frozen = value & status::FROZEN_014 != 0;
            }
            Layout::Ratified10 => self.frozen = value & status::FROZEN_10 != 0,
        }
        self.refresh();
    }

    /// Legalise a written 0.1.4 DEPTH code. The legal codes are 0000, 0001, 0011, 0111, 1111
    /// (16..256). A code is read as the depth its highest set bit reaches (so the bits behave
    /// like the thermometer code they are, as if hardwired bits below the top one were 1),
    /// then clamped into the supported run: writing 0000 gives the minimum supported depth and
    /// 1111 the maximum (chapter 6, Discovery).
    fn legal_depth_014(&self, code: u64) -> u8 {
        let want = (64 - (code & 0xF).leading_zeros()) as u8; // 0 for 0000 ... 4 for 1xxx
        want.clamp(self.cfg.min_depth_log(), self.cfg.max_depth_log())
    }

    /// Legalise a written 1.0 `sctrdepth`.DEPTH: 000..100 are 16..256, 101..111 reserved
    /// (read as "more than 256"); clamped into the supported run.
    fn legal_depth_10(&self, value: u64) -> u8 {
        let want = (value & 7) as u8;
        want.clamp(self.cfg.min_depth_log(), self.cfg.max_depth_log())
    }

    /// Read `mireg`/`sireg` number `reg` (1..=6) while the select register of `bank` holds
    /// `select`, from privilege `prv`. `None` when `select` is outside 0x200..=0x2FF.
    ///
    /// `*ireg` reads logical entry `select - 0x200`'s `ctrsource`, `*ireg2` its `ctrtarget`,
    /// `*ireg3` its `ctrdata`; `*ireg4..6` read 0; entries at or beyond the depth read 0. In
    /// 1.0 the machine bank has no CTR range: see [`Fault::NotImplemented`] and docs/ctr.md.
    /// A `reg` outside 1..=6 is not an indirect alias register: `NotImplemented`.
    pub fn ireg_read(
        &self,
        bank: Bank,
        select: u64,
        reg: u8,
        prv: Priv,
        ctx: &AccessCtx,
    ) -> Option<Result<u64, Fault>> {
        debug_assert!(
            self.pending_len == 0,
            "CTR read with deferred records: flush first"
        );
        if !(bits::SELECT_FIRST..=bits::SELECT_LAST).contains(&select) {
            return None;
        }
        if let Err(f) = self.check_ireg(bank, reg, prv, ctx) {
            return Some(Err(f));
        }
        let x = (select - bits::SELECT_FIRST) as usize;
        if x >= self.depth() {
            return Some(Ok(0));
        }
        let e = &self.entries[self.physical(x)];
        Some(Ok(match reg {
            1 => e.source,
            2 => e.target,
            3 => e.data,
            _ => 0,
        }))
    }

    /// Write `mireg`/`sireg` number `reg` (see [`Ctr::ireg_read`]). `ctrsource` holds any
    /// value; `ctrtarget`.MISP is read-only 0 unless MISP is implemented; `ctrdata` keeps TYPE
    /// and, with cycle counting, CCV, CCM and the implemented CCE bits. Writes to `*ireg4..6`
    /// and to entries beyond the depth are ignored.
    pub fn ireg_write(
        &mut self,
        bank: Bank,
        select: u64,
        reg: u8,
        value: u64,
        prv: Priv,
        ctx: &AccessCtx,
    ) -> Option<Result<(), Fault>> {
        self.flush();
        if !(bits::SELECT_FIRST..=bits::SELECT_LAST).contains(&select) {
            return None;
        }
        if let Err(f) = self.check_ireg(bank, reg, prv, ctx) {
            return Some(Err(f));
        }
        let x = (select - bits::SELECT_FIRST) as usize;
        if x < self.depth() {
            let p = self.physical(x);
            let misp_mask = if self.cfg.misp { 0 } else { entry::MISP };
            let data_mask = data_write_mask(self.cfg.cycle_counting, self.cfg.cce_bits);
            let e = &mut self.entries[p];
            match reg {
                1 => e.source = value,
                2 => e.target = value & !misp_mask,
                3 => e.data = value & data_mask,
                _ => {}
            }
        }
        Some(Ok(()))
    }

    fn check_ireg(&self, bank: Bank, reg: u8, prv: Priv, ctx: &AccessCtx) -> Result<(), Fault> {
        match (bank, self.cfg.layout) {
            // 1.0: entries only through siselect/sireg*; the miselect value is not implemented
            // (Smcsrind: UNSPECIFIED, expected to raise illegal instruction).
            (Bank::Machine, Layout::Ratified10) => return Err(Fault::NotImplemented),
            (Bank::Machine, Layout::Draft014) if prv < Priv::M => return Err(Fault::Privilege),
            (Bank::Machine, Layout::Draft014) => {}
            (Bank::Supervisor, _) => self.check_s_level(prv, ctx)?,
        }
        if (1..=6).contains(&reg) {
            Ok(())
        } else {
            Err(Fault::NotImplemented)
        }
    }

    /// SCTRCLR (1.0; encoding [`bits::SCTRCLR`]) executed in `prv`: zero every entry of the
    /// array (all depths), zero the cycle counter and give the next record CCV = 0. WRPTR
    /// and FROZEN are unchanged. Illegal from U-mode, and from S-mode when mstateen0.CTR = 0.
    /// In 0.1.4 the encoding is not an instruction: always [`Fault::NotImplemented`].
    pub fn sctrclr(&mut self, prv: Priv, ctx: &AccessCtx) -> Result<(), Fault> {
        self.flush();
        if self.cfg.layout == Layout::Draft014 {
            return Err(Fault::NotImplemented);
        }
        self.check_s_level(prv, ctx)?;
        self.settle_in(prv, ctx.now_cycles);
        self.clear_entries();
        self.cc.reset(ctx.now_cycles);
        Ok(())
    }
}
