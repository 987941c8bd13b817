//! The F and D extensions (unprivileged spec chapters 11-12) on top of [`crate::fp`].
//!
//! Every FP instruction is illegal while mstatus.FS is Off. Writing an FP register, or raising
//! a flag (which writes fflags), sets FS to Dirty. Instructions with a rounding-mode field use
//! it, or frm when it is 7 (dynamic); a dynamic mode with frm > 4 is illegal (the static
//! reserved modes 5 and 6 are already illegal at decode). Single-precision values are NaN-boxed
//! in the 64-bit registers; `fp` unboxes operands (an improperly boxed value reads as the
//! canonical NaN) and the results here are boxed on write.

use super::tri;
use crate::csr::{FFLAGS, MSTATUS, MSTATUS_FS};
use crate::fp;
use crate::insn::{Insn, Op};
use crate::machine::Machine;
use crate::record::Reg;

impl Machine {
    #[inline(always)]
    fn fs_off(&self) -> bool {
        self.hart.csr.mstatus & MSTATUS_FS == 0
    }

    /// Mark the FP state Dirty; records the mstatus write when it changes.
    #[inline(always)]
    pub(crate) fn fs_dirty<const REC: bool>(&mut self) {
        if self.hart.csr.mstatus & MSTATUS_FS != MSTATUS_FS {
            self.hart.csr.mstatus |= MSTATUS_FS;
            if REC {
                let v = self.hart.csr.mstatus_read();
                self.rec.push_write(Reg::Csr(MSTATUS), v);
            }
        }
    }

    #[inline(always)]
    fn wf<const REC: bool>(&mut self, rd: u8, v: u64) {
        self.hart.f[(rd & 31) as usize] = v;
        if REC {
            self.rec.push_write(Reg::F(rd), v);
        }
        self.fs_dirty::<REC>();
    }

    /// Accrue exception flags into fflags.
    #[inline(always)]
    fn accrue<const REC: bool>(&mut self, flags: u8) {
        if flags != 0 {
            self.fs_dirty::<REC>();
            self.hart.csr.fflags |= flags;
            if REC {
                let v = self.hart.csr.fflags as u64;
                self.rec.push_write(Reg::Csr(FFLAGS), v);
            }
        }
    }

    #[inline(always)]
    fn frs1(&self, d: &Insn) -> u64 {
        self.hart.f[(d.rs1 & 31) as usize]
    }

    #[inline(always)]
    fn frs2(&self, d: &Insn) -> u64 {
        self.hart.f[(d.rs2 & 31) as usize]
    }

    #[inline(always)]
    fn frs3(&self, d: &Insn) -> u64 {
        self.hart.f[(d.rs3 & 31) as usize]
    }

    #[inline(never)]
    pub(crate) fn exec_fp<const REC: bool>(&mut self, d: &Insn, npc: u64) -> u64 {
        if self.fs_off() {
            return self.illegal(d);
        }
        // The rounding mode, for the instructions that have one.
        macro_rules! rm {
            () => {{
                let rm = if d.rm == 7 { self.hart.csr.frm } else { d.rm };
                if rm > 4 {
                    return self.illegal(d);
                }
                rm
            }};
        }
        // f[rd] <- single result, flags accrued.
        macro_rules! fs {
            ($e:expr) => {{
                let (v, fl): (u32, u8) = $e;
                self.wf::<REC>(d.rd, fp::box_s(v));
                self.accrue::<REC>(fl);
                npc
            }};
        }
        macro_rules! fd {
            ($e:expr) => {{
                let (v, fl): (u64, u8) = $e;
                self.wf::<REC>(d.rd, v);
                self.accrue::<REC>(fl);
                npc
            }};
        }
        // x[rd] <- integer result, flags accrued.
        macro_rules! fx {
            ($e:expr) => {{
                let (v, fl): (u64, u8) = $e;
                self.wx::<REC>(d, v);
                self.accrue::<REC>(fl);
                npc
            }};
        }
        let (a, b, c) = (self.frs1(d), self.frs2(d), self.frs3(d));
        let (sa, sb, sc) = (fp::unbox_s(a), fp::unbox_s(b), fp::unbox_s(c));
        let x1 = self.rs1(d);
        match d.op {
            Op::Flw | Op::Fld => {
                let size = if d.op == Op::Flw { 4 } else { 8 };
                let addr = x1.wrapping_add(d.imm as i64 as u64);
                let v = tri!(self.load::<REC>(addr, size));
                let v = if size == 4 { fp::box_s(v as u32) } else { v };
                self.wf::<REC>(d.rd, v);
                npc
            }
            Op::Fsw | Op::Fsd => {
                let size = if d.op == Op::Fsw { 4 } else { 8 };
                let addr = x1.wrapping_add(d.imm as i64 as u64);
                tri!(self.store::<REC>(addr, size, b));
                self.after_store(npc)
            }

            Op::FaddS => fs!(fp::add_s(sa, sb, rm!())),
            Op::FsubS => fs!(fp::sub_s(sa, sb, rm!())),
            Op::FmulS => fs!(fp::mul_s(sa, sb, rm!())),
            Op::FdivS => fs!(fp::div_s(sa, sb, rm!())),
            Op::FsqrtS => fs!(fp::sqrt_s(sa, rm!())),
            Op::FmaddS => fs!(fp::madd_s(sa, sb, sc, rm!())),
            Op::FmsubS => fs!(fp::msub_s(sa, sb, sc, rm!())),
            Op::FnmsubS => fs!(fp::nmsub_s(sa, sb, sc, rm!())),
            Op::FnmaddS => fs!(fp::nmadd_s(sa, sb, sc, rm!())),
            Op::FsgnjS => fs!((fp::sgnj_s(sa, sb), 0)),
            Op::FsgnjnS => fs!((fp::sgnjn_s(sa, sb), 0)),
            Op::FsgnjxS => fs!((fp::sgnjx_s(sa, sb), 0)),
            Op::FminS => fs!(fp::min_s(sa, sb)),
            Op::FmaxS => fs!(fp::max_s(sa, sb)),
            Op::FcvtWS => fx!(fp::cvt_w_s(sa, rm!())),
            Op::FcvtWuS => fx!(fp::cvt_wu_s(sa, rm!())),
            Op::FcvtLS => fx!(fp::cvt_l_s(sa, rm!())),
            Op::FcvtLuS => fx!(fp::cvt_lu_s(sa, rm!())),
            Op::FmvXW => fx!((fp::fmv_x_w(a), 0)),
            Op::FeqS => fx!(fp::eq_s(sa, sb)),
            Op::FltS => fx!(fp::lt_s(sa, sb)),
            Op::FleS => fx!(fp::le_s(sa, sb)),
            Op::FclassS => fx!((fp::class_s(sa), 0)),
            Op::FcvtSW => fs!(fp::cvt_s_w(x1, rm!())),
            Op::FcvtSWu => fs!(fp::cvt_s_wu(x1, rm!())),
            Op::FcvtSL => fs!(fp::cvt_s_l(x1, rm!())),
            Op::FcvtSLu => fs!(fp::cvt_s_lu(x1, rm!())),
            Op::FmvWX => fd!((fp::fmv_w_x(x1), 0)),

            Op::FaddD => fd!(fp::add_d(a, b, rm!())),
            Op::FsubD => fd!(fp::sub_d(a, b, rm!())),
            Op::FmulD => fd!(fp::mul_d(a, b, rm!())),
            Op::FdivD => fd!(fp::div_d(a, b, rm!())),
            Op::FsqrtD => fd!(fp::sqrt_d(a, rm!())),
            Op::FmaddD => fd!(fp::madd_d(a, b, c, rm!())),
            Op::FmsubD => fd!(fp::msub_d(a, b, c, rm!())),
            Op::FnmsubD => fd!(fp::nmsub_d(a, b, c, rm!())),
            Op::FnmaddD => fd!(fp::nmadd_d(a, b, c, rm!())),
            Op::FsgnjD => fd!((fp::sgnj_d(a, b), 0)),
            Op::FsgnjnD => fd!((fp::sgnjn_d(a, b), 0)),
            Op::FsgnjxD => fd!((fp::sgnjx_d(a, b), 0)),
            Op::FminD => fd!(fp::min_d(a, b)),
            Op::FmaxD => fd!(fp::max_d(a, b)),
            Op::FcvtSD => fs!(fp::cvt_s_d(a, rm!())),
            Op::FcvtDS => fd!(fp::cvt_d_s(sa, rm!())),
            Op::FeqD => fx!(fp::eq_d(a, b)),
            Op::FltD => fx!(fp::lt_d(a, b)),
            Op::FleD => fx!(fp::le_d(a, b)),
            Op::FclassD => fx!((fp::class_d(a), 0)),
            Op::FcvtWD => fx!(fp::cvt_w_d(a, rm!())),
            Op::FcvtWuD => fx!(fp::cvt_wu_d(a, rm!())),
            Op::FcvtLD => fx!(fp::cvt_l_d(a, rm!())),
            Op::FcvtLuD => fx!(fp::cvt_lu_d(a, rm!())),
            Op::FmvXD => fx!((a, 0)),
            Op::FcvtDW => fd!(fp::cvt_d_w(x1, rm!())),
            Op::FcvtDWu => fd!(fp::cvt_d_wu(x1, rm!())),
            Op::FcvtDL => fd!(fp::cvt_d_l(x1, rm!())),
            Op::FcvtDLu => fd!(fp::cvt_d_lu(x1, rm!())),
            Op::FmvDX => fd!((x1, 0)),
            _ => self.illegal(d),
        }
    }
}
