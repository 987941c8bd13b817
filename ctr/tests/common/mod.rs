//! Shared helpers for the CTR tests. Bit positions are written out here from the spec texts
//! (not taken from the crate), so that a wrong constant in the crate shows up as a failure.
#![allow(dead_code)]

use arch::{Cause, Exception, Interrupt, Itype, Priv};
use ctr::{AccessCtx, Bank, Ctr, CtrConfig, EntryView, Layout, Outcome};

/// Draft 0.1.4 `mctrcontrol` (section 2.1).
pub mod d014 {
    pub const M: u64 = 1 << 0;
    pub const S: u64 = 1 << 1;
    pub const U: u64 = 1 << 2;
    pub const CLR: u64 = 1 << 7;
    pub const MTE: u64 = 1 << 8;
    pub const STE: u64 = 1 << 9;
    pub const RASEMU: u64 = 1 << 10;
    pub const BPFRZ: u64 = 1 << 11;
    pub const LCOFIFRZ: u64 = 1 << 12;
    pub const DEPTH_SHIFT: u32 = 16;
    pub const ETEN: u64 = 1 << 38;
    /// `mctrstatus` (section 2.4).
    pub const WRAP: u64 = 1 << 14;
    pub const FROZEN: u64 = 1 << 15;
    /// CSR numbers (section 2.6).
    pub const SCTRCONTROL: u16 = 0x181;
    pub const SCTRCONTROLH: u16 = 0x182;
    pub const SCTRSTATUS: u16 = 0x183;
    pub const VSCTRCONTROL: u16 = 0x281;
    pub const VSCTRCONTROLH: u16 = 0x282;
    pub const MCTRCONTROL: u16 = 0x381;
    pub const MCTRCONTROLH: u16 = 0x382;
    pub const MCTRSTATUS: u16 = 0x383;
    /// Chapter 4: "The CTR bit is bit 55 in mstateen0".
    pub const MSTATEEN0_CTR: u32 = 55;
}

/// Ratified 1.0 `mctrctl` (README facts; ratified text register diagram).
pub mod r10 {
    pub const U: u64 = 1 << 0;
    pub const S: u64 = 1 << 1;
    pub const M: u64 = 1 << 2;
    pub const RASEMU: u64 = 1 << 7;
    pub const STE: u64 = 1 << 8;
    pub const MTE: u64 = 1 << 9;
    pub const BPFRZ: u64 = 1 << 11;
    pub const LCOFIFRZ: u64 = 1 << 12;
    /// `sctrstatus`: FROZEN at bit 31.
    pub const FROZEN: u64 = 1 << 31;
    pub const SCTRCTL: u16 = 0x14E;
    pub const SCTRSTATUS: u16 = 0x14F;
    pub const SCTRDEPTH: u16 = 0x15F;
    pub const VSCTRCTL: u16 = 0x24E;
    pub const MCTRCTL: u16 = 0x34E;
    pub const MSTATEEN0_CTR: u32 = 54;
}

/// Filter bits 47:32, identical in both layouts (bit 32 + itype).
pub const EXCINH: u64 = 1 << 33;
pub const INTRINH: u64 = 1 << 34;
pub const TRETINH: u64 = 1 << 35;
pub const NTBREN: u64 = 1 << 36;
pub const TKBRINH: u64 = 1 << 37;
pub const INDCALLINH: u64 = 1 << 40;
pub const DIRCALLINH: u64 = 1 << 41;
pub const INDJMPINH: u64 = 1 << 42;
pub const DIRJMPINH: u64 = 1 << 43;
pub const CORSWAPINH: u64 = 1 << 44;
pub const RETINH: u64 = 1 << 45;
pub const INDLJMPINH: u64 = 1 << 46;
pub const DIRLJMPINH: u64 = 1 << 47;

/// `ctrdata` fields (section 3.3).
pub const CCV: u64 = 1 << 15;

/// Layout-neutral names for the mode/trap bits.
#[derive(Clone, Copy, Debug)]
pub struct Bits {
    pub m: u64,
    pub s: u64,
    pub u: u64,
    pub mte: u64,
    pub ste: u64,
    pub rasemu: u64,
    pub bpfrz: u64,
    pub lcofifrz: u64,
    /// ETEN in 0.1.4; 0 in 1.0 (no such bit).
    pub eten: u64,
    pub frozen: u64,
    pub ctl: u16,
    pub sctl: u16,
    pub sstatus: u16,
}

pub fn bits(layout: Layout) -> Bits {
    match layout {
        Layout::Draft014 => Bits {
            m: d014::M,
            s: d014::S,
            u: d014::U,
            mte: d014::MTE,
            ste: d014::STE,
            rasemu: d014::RASEMU,
            bpfrz: d014::BPFRZ,
            lcofifrz: d014::LCOFIFRZ,
            eten: d014::ETEN,
            frozen: d014::FROZEN,
            ctl: d014::MCTRCONTROL,
            sctl: d014::SCTRCONTROL,
            sstatus: d014::SCTRSTATUS,
        },
        Layout::Ratified10 => Bits {
            m: r10::M,
            s: r10::S,
            u: r10::U,
            mte: r10::MTE,
            ste: r10::STE,
            rasemu: r10::RASEMU,
            bpfrz: r10::BPFRZ,
            lcofifrz: r10::LCOFIFRZ,
            eten: 0,
            frozen: r10::FROZEN,
            ctl: r10::MCTRCTL,
            sctl: r10::SCTRCTL,
            sstatus: r10::SCTRSTATUS,
        },
    }
}

impl Bits {
    /// The enable bit of a mode.
    pub fn mode(&self, p: Priv) -> u64 {
        match p {
            Priv::U => self.u,
            Priv::S => self.s,
            Priv::M => self.m,
            Priv::Debug => 0,
        }
    }
    /// Enable bits of a set of modes.
    pub fn modes(&self, ps: &[Priv]) -> u64 {
        ps.iter().map(|&p| self.mode(p)).fold(0, |a, b| a | b)
    }
}

pub const ALL: [Layout; 2] = [Layout::Draft014, Layout::Ratified10];

pub fn ctx() -> AccessCtx {
    AccessCtx::ungated(0)
}

pub fn ctx_at(now: u64) -> AccessCtx {
    AccessCtx::ungated(now)
}

pub fn new(layout: Layout) -> Ctr {
    Ctr::new(CtrConfig::with_layout(layout)).expect("default config is valid")
}

pub fn with(cfg: CtrConfig) -> Ctr {
    Ctr::new(cfg).expect("valid config")
}

/// Write the control register from M-mode (at cycle 0).
pub fn set_ctl(c: &mut Ctr, value: u64) {
    set_ctl_at(c, value, 0);
}

pub fn set_ctl_at(c: &mut Ctr, value: u64, now: u64) {
    let b = bits(c.layout());
    c.csr_write(b.ctl, value, Priv::M, &ctx_at(now))
        .expect("control register is a CTR CSR")
        .expect("M-mode may write it");
}

pub fn ctl(c: &Ctr) -> u64 {
    let b = bits(c.layout());
    c.csr_read(b.ctl, Priv::M, &ctx()).unwrap().unwrap()
}

pub fn status(c: &Ctr) -> u64 {
    let b = bits(c.layout());
    c.csr_read(b.sstatus, Priv::M, &ctx()).unwrap().unwrap()
}

pub fn set_status(c: &mut Ctr, v: u64) {
    set_status_at(c, v, 0);
}

pub fn set_status_at(c: &mut Ctr, v: u64, now: u64) {
    let b = bits(c.layout());
    c.csr_write(b.sstatus, v, Priv::M, &ctx_at(now))
        .unwrap()
        .unwrap();
}

/// Read logical entry `x` through siselect/sireg* from M-mode (valid in both layouts).
pub fn raw(c: &Ctr, x: u64) -> (u64, u64, u64) {
    let r = |reg| {
        c.ireg_read(Bank::Supervisor, 0x200 + x, reg, Priv::M, &ctx())
            .expect("CTR select range")
            .expect("M-mode access")
    };
    (r(1), r(2), r(3))
}

/// (source, target, TYPE, V) of logical entry x as read through sireg*.
pub fn rec(c: &Ctr, x: u64) -> (u64, u64, u64, bool) {
    let (s, t, d) = raw(c, x);
    (s & !1, t & !1, d & 0xF, s & 1 == 1)
}

/// Valid records, youngest first, as (source, target, TYPE).
pub fn valid_records(c: &Ctr) -> Vec<(u64, u64, u64)> {
    c.entries()
        .filter(|e| e.valid)
        .map(|e| (e.source, e.target, e.ty.code() as u64))
        .collect()
}

pub fn views(c: &Ctr) -> Vec<EntryView> {
    c.entries().collect()
}

/// A taken branch in mode `p` at cycle 0.
pub fn br(c: &mut Ctr, src: u64, dst: u64, p: Priv) -> Outcome {
    c.transfer(src, dst, Itype::TakenBranch, p, false, 0)
}

pub fn jump(c: &mut Ctr, src: u64, dst: u64, ty: Itype, p: Priv) -> Outcome {
    c.transfer(src, dst, ty, p, false, 0)
}

pub fn ecall(from: Priv) -> Cause {
    Cause::Exception(Exception::ecall_from(from))
}

pub const TIMER: Cause = Cause::Interrupt(Interrupt::SupervisorTimer);
pub const LCOFI: Cause = Cause::Interrupt(Interrupt::CounterOverflow);
pub const BREAKPOINT: Cause = Cause::Exception(Exception::Breakpoint);
pub const ILLEGAL: Cause = Cause::Exception(Exception::IllegalInstruction);
