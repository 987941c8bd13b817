//! The F and D extensions (unprivileged spec chapters 11-12) on top of [`crate::fp`]: one
//! handler per operation, bound to its operation by the instruction table ([`crate::ops`]).
//!
//! Every FP instruction is illegal while mstatus.FS is Off. Writing an FP register, or raising
//! a flag (which writes fflags), sets FS to Dirty. Instructions with a rounding-mode field use
//! it, or frm when it is 7 (dynamic); a dynamic mode with frm > 4 is illegal (the static
//! reserved modes 5 and 6 are already illegal at decode). Single-precision values are NaN-boxed
//! in the 64-bit registers: operands are unboxed (an improperly boxed value reads as the
//! canonical NaN) and results boxed on write.

use super::{at, build_record, done, htri, imm, next, Blk, Ix, Lim, Spare, SPARE};
use crate::csr::{FFLAGS, MSTATUS, MSTATUS_FS};
use crate::fp;
use crate::insn::Insn;
use crate::machine::Machine;
use crate::record::Reg;

impl Machine {
    #[inline(always)]
    fn fs_off(&self) -> bool {
        self.hart.csr.mstatus & MSTATUS_FS == 0
    }

    /// In a run (`FX`): whether the instruction's record would not have its operation's fixed
    /// shape, as FS is not Dirty (it would write mstatus, or raise illegal-instruction): then
    /// it must be built.
    #[inline(always)]
    fn fs_not_dirty<const FX: bool>(&self) -> bool {
        FX && self.hart.csr.mstatus & MSTATUS_FS != MSTATUS_FS
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

    /// The instruction's rounding mode, resolved; `None` when it is illegal.
    #[inline(always)]
    fn rm(&self, d: &Insn) -> Option<u8> {
        let rm = if d.rm == 7 { self.hart.csr.frm } else { d.rm };
        (rm <= 4).then_some(rm)
    }

    #[inline(always)]
    fn f1(&self, d: &Insn) -> u64 {
        self.hart.f[(d.rs1 & 31) as usize]
    }

    #[inline(always)]
    fn f2(&self, d: &Insn) -> u64 {
        self.hart.f[(d.rs2 & 31) as usize]
    }

    #[inline(always)]
    fn f3(&self, d: &Insn) -> u64 {
        // rs3 (R4 operations) is bits 31:27, not decoded into a field.
        self.hart.f[(d.bits >> 27) as usize]
    }
}

/// Define FP handlers. Each arm names the handler, what it writes (`fs`: a single to `f[rd]`,
/// `fd`: a double to `f[rd]`, `x`: `x[rd]`), whether it takes a rounding mode, and the operation
/// over the machine `m`, the instruction `d` and the resolved mode `rm`, giving
/// `(value, flags)`.
macro_rules! fp_ops {
    ($($name:ident => $dst:ident, $rm:tt, |$m:ident, $d:ident, $r:ident| $e:expr;)*) => {$(
        pub(crate) unsafe fn $name<const REC: bool, const CTR: bool, const FX: bool, const I32: bool, const TR: bool>($m: &mut Machine, a: Blk<'_>, k: Ix, _spare: Spare, bpc: u64, left: Lim) -> u64 {
            if $m.fs_not_dirty::<FX>() {
                return build_record($m, a, k, SPARE, bpc, left);
            }
            let $d = at(a, k);
            let pc = bpc.wrapping_add($d.insn_off());
            let r = (|| {
                if $m.fs_off() {
                    return $m.illegal($d);
                }
                let $r: u8 = fp_ops!(@rm $rm, $m, $d);
                let (v, flags) = $e;
                let v = fp_ops!(@write $dst, $m, $d, v);
                $m.accrue::<REC>(flags);
                if FX {
                    let fflags = if flags != 0 { $m.hart.csr.fflags as u64 } else { u64::MAX };
                    let e = $m.effect(k, left);
                    e.value = v;
                    e.mem_value = fflags;
                }
                next($d, pc)
            })();
            done::<REC, CTR, FX, I32, TR>($m, a, k, pc, left, r)
        }
    )*};
    (@rm rm, $m:ident, $d:ident) => {
        match $m.rm($d) {
            Some(r) => r,
            None => return $m.illegal($d),
        }
    };
    (@rm -, $m:ident, $d:ident) => { 0 };
    (@write fs, $m:ident, $d:ident, $v:ident) => {{
        let v = fp::box_s($v);
        $m.wf::<REC>($d.rd, v);
        v
    }};
    (@write fd, $m:ident, $d:ident, $v:ident) => {{
        $m.wf::<REC>($d.rd, $v);
        $v
    }};
    (@write x, $m:ident, $d:ident, $v:ident) => {{
        $m.wx::<REC>($d, $v);
        $v
    }};
}

/// Unboxed single-precision operands.
macro_rules! s {
    ($m:ident, $d:ident, 1) => {
        fp::unbox_s($m.f1($d))
    };
    ($m:ident, $d:ident, 2) => {
        fp::unbox_s($m.f2($d))
    };
    ($m:ident, $d:ident, 3) => {
        fp::unbox_s($m.f3($d))
    };
}

fp_ops! {
    fadd_s => fs, rm, |m, d, rm| fp::add_s(s!(m, d, 1), s!(m, d, 2), rm);
    fsub_s => fs, rm, |m, d, rm| fp::sub_s(s!(m, d, 1), s!(m, d, 2), rm);
    fmul_s => fs, rm, |m, d, rm| fp::mul_s(s!(m, d, 1), s!(m, d, 2), rm);
    fdiv_s => fs, rm, |m, d, rm| fp::div_s(s!(m, d, 1), s!(m, d, 2), rm);
    fsqrt_s => fs, rm, |m, d, rm| fp::sqrt_s(s!(m, d, 1), rm);
    fmadd_s => fs, rm, |m, d, rm| fp::madd_s(s!(m, d, 1), s!(m, d, 2), s!(m, d, 3), rm);
    fmsub_s => fs, rm, |m, d, rm| fp::msub_s(s!(m, d, 1), s!(m, d, 2), s!(m, d, 3), rm);
    fnmsub_s => fs, rm, |m, d, rm| fp::nmsub_s(s!(m, d, 1), s!(m, d, 2), s!(m, d, 3), rm);
    fnmadd_s => fs, rm, |m, d, rm| fp::nmadd_s(s!(m, d, 1), s!(m, d, 2), s!(m, d, 3), rm);
    fsgnj_s => fs, -, |m, d, _rm| (fp::sgnj_s(s!(m, d, 1), s!(m, d, 2)), 0);
    fsgnjn_s => fs, -, |m, d, _rm| (fp::sgnjn_s(s!(m, d, 1), s!(m, d, 2)), 0);
    fsgnjx_s => fs, -, |m, d, _rm| (fp::sgnjx_s(s!(m, d, 1), s!(m, d, 2)), 0);
    fmin_s => fs, -, |m, d, _rm| fp::min_s(s!(m, d, 1), s!(m, d, 2));
    fmax_s => fs, -, |m, d, _rm| fp::max_s(s!(m, d, 1), s!(m, d, 2));
    fcvt_w_s => x, rm, |m, d, rm| fp::cvt_w_s(s!(m, d, 1), rm);
    fcvt_wu_s => x, rm, |m, d, rm| fp::cvt_wu_s(s!(m, d, 1), rm);
    fcvt_l_s => x, rm, |m, d, rm| fp::cvt_l_s(s!(m, d, 1), rm);
    fcvt_lu_s => x, rm, |m, d, rm| fp::cvt_lu_s(s!(m, d, 1), rm);
    fmv_x_w => x, -, |m, d, _rm| (fp::fmv_x_w(m.f1(d)), 0);
    feq_s => x, -, |m, d, _rm| fp::eq_s(s!(m, d, 1), s!(m, d, 2));
    flt_s => x, -, |m, d, _rm| fp::lt_s(s!(m, d, 1), s!(m, d, 2));
    fle_s => x, -, |m, d, _rm| fp::le_s(s!(m, d, 1), s!(m, d, 2));
    fclass_s => x, -, |m, d, _rm| (fp::class_s(s!(m, d, 1)), 0);
    fcvt_s_w => fs, rm, |m, d, rm| fp::cvt_s_w(m.rs1(d), rm);
    fcvt_s_wu => fs, rm, |m, d, rm| fp::cvt_s_wu(m.rs1(d), rm);
    fcvt_s_l => fs, rm, |m, d, rm| fp::cvt_s_l(m.rs1(d), rm);
    fcvt_s_lu => fs, rm, |m, d, rm| fp::cvt_s_lu(m.rs1(d), rm);
    fmv_w_x => fd, -, |m, d, _rm| (fp::fmv_w_x(m.rs1(d)), 0);

    fadd_d => fd, rm, |m, d, rm| fp::add_d(m.f1(d), m.f2(d), rm);
    fsub_d => fd, rm, |m, d, rm| fp::sub_d(m.f1(d), m.f2(d), rm);
    fmul_d => fd, rm, |m, d, rm| fp::mul_d(m.f1(d), m.f2(d), rm);
    fdiv_d => fd, rm, |m, d, rm| fp::div_d(m.f1(d), m.f2(d), rm);
    fsqrt_d => fd, rm, |m, d, rm| fp::sqrt_d(m.f1(d), rm);
    fmadd_d => fd, rm, |m, d, rm| fp::madd_d(m.f1(d), m.f2(d), m.f3(d), rm);
    fmsub_d => fd, rm, |m, d, rm| fp::msub_d(m.f1(d), m.f2(d), m.f3(d), rm);
    fnmsub_d => fd, rm, |m, d, rm| fp::nmsub_d(m.f1(d), m.f2(d), m.f3(d), rm);
    fnmadd_d => fd, rm, |m, d, rm| fp::nmadd_d(m.f1(d), m.f2(d), m.f3(d), rm);
    fsgnj_d => fd, -, |m, d, _rm| (fp::sgnj_d(m.f1(d), m.f2(d)), 0);
    fsgnjn_d => fd, -, |m, d, _rm| (fp::sgnjn_d(m.f1(d), m.f2(d)), 0);
    fsgnjx_d => fd, -, |m, d, _rm| (fp::sgnjx_d(m.f1(d), m.f2(d)), 0);
    fmin_d => fd, -, |m, d, _rm| fp::min_d(m.f1(d), m.f2(d));
    fmax_d => fd, -, |m, d, _rm| fp::max_d(m.f1(d), m.f2(d));
    fcvt_s_d => fs, rm, |m, d, rm| fp::cvt_s_d(m.f1(d), rm);
    fcvt_d_s => fd, rm, |m, d, rm| fp::cvt_d_s(s!(m, d, 1), rm);
    feq_d => x, -, |m, d, _rm| fp::eq_d(m.f1(d), m.f2(d));
    flt_d => x, -, |m, d, _rm| fp::lt_d(m.f1(d), m.f2(d));
    fle_d => x, -, |m, d, _rm| fp::le_d(m.f1(d), m.f2(d));
    fclass_d => x, -, |m, d, _rm| (fp::class_d(m.f1(d)), 0);
    fcvt_w_d => x, rm, |m, d, rm| fp::cvt_w_d(m.f1(d), rm);
    fcvt_wu_d => x, rm, |m, d, rm| fp::cvt_wu_d(m.f1(d), rm);
    fcvt_l_d => x, rm, |m, d, rm| fp::cvt_l_d(m.f1(d), rm);
    fcvt_lu_d => x, rm, |m, d, rm| fp::cvt_lu_d(m.f1(d), rm);
    fmv_x_d => x, -, |m, d, _rm| (m.f1(d), 0);
    fcvt_d_w => fd, rm, |m, d, rm| fp::cvt_d_w(m.rs1(d), rm);
    fcvt_d_wu => fd, rm, |m, d, rm| fp::cvt_d_wu(m.rs1(d), rm);
    fcvt_d_l => fd, rm, |m, d, rm| fp::cvt_d_l(m.rs1(d), rm);
    fcvt_d_lu => fd, rm, |m, d, rm| fp::cvt_d_lu(m.rs1(d), rm);
    fmv_d_x => fd, -, |m, d, _rm| (m.rs1(d), 0);
}

// Zfa (`fli`'s index is rs1; `fcvtmod.w.d` is always RTZ)
fp_ops! {
    fli_s => fs, -, |m, d, _rm| (fp::fli_s(d.rs1), 0);
    fli_d => fd, -, |m, d, _rm| (fp::fli_d(d.rs1), 0);
    fminm_s => fs, -, |m, d, _rm| fp::minm_s(s!(m, d, 1), s!(m, d, 2));
    fmaxm_s => fs, -, |m, d, _rm| fp::maxm_s(s!(m, d, 1), s!(m, d, 2));
    fminm_d => fd, -, |m, d, _rm| fp::minm_d(m.f1(d), m.f2(d));
    fmaxm_d => fd, -, |m, d, _rm| fp::maxm_d(m.f1(d), m.f2(d));
    fround_s => fs, rm, |m, d, rm| fp::round_s(s!(m, d, 1), rm, false);
    froundnx_s => fs, rm, |m, d, rm| fp::round_s(s!(m, d, 1), rm, true);
    fround_d => fd, rm, |m, d, rm| fp::round_d(m.f1(d), rm, false);
    froundnx_d => fd, rm, |m, d, rm| fp::round_d(m.f1(d), rm, true);
    fcvtmod_w_d => x, -, |m, d, _rm| fp::cvtmod_w_d(m.f1(d));
    fleq_s => x, -, |m, d, _rm| fp::leq_s(s!(m, d, 1), s!(m, d, 2));
    fltq_s => x, -, |m, d, _rm| fp::ltq_s(s!(m, d, 1), s!(m, d, 2));
    fleq_d => x, -, |m, d, _rm| fp::leq_d(m.f1(d), m.f2(d));
    fltq_d => x, -, |m, d, _rm| fp::ltq_d(m.f1(d), m.f2(d));
}

/// FP loads: `flw` boxes the loaded single. The common case (FS on, an aligned load from RAM
/// through the TLB) makes no call; anything else runs the instruction again out of line
/// ([`fload_slow`]), as the integer loads do.
#[inline(always)]
unsafe fn fload<
    const REC: bool,
    const CTR: bool,
    const FX: bool,
    const I32: bool,
    const TR: bool,
    const SIZE: u8,
>(
    m: &mut Machine,
    a: Blk<'_>,
    k: Ix,
    _spare: Spare,
    bpc: u64,
    left: Lim,
) -> u64 {
    if m.fs_not_dirty::<FX>() {
        return build_record(m, a, k, SPARE, bpc, left);
    }
    let d = at(a, k);
    if m.fs_off() {
        return fload_slow::<REC, CTR, FX, I32, TR, SIZE>(m, a, k, SPARE, bpc, left);
    }
    let addr = m.rs1(d).wrapping_add(imm(d));
    // Nothing is recorded unless the load is made.
    let Some(raw) = m.load_fast::<REC, FX>(addr, SIZE) else {
        return fload_slow::<REC, CTR, FX, I32, TR, SIZE>(m, a, k, SPARE, bpc, left);
    };
    fload_done::<REC, CTR, FX, I32, TR, SIZE>(m, a, k, SPARE, bpc, left, addr, raw)
}

/// [`fload`] with FS off, or a load its fast path could not make.
#[cold]
#[inline(never)]
unsafe fn fload_slow<
    const REC: bool,
    const CTR: bool,
    const FX: bool,
    const I32: bool,
    const TR: bool,
    const SIZE: u8,
>(
    m: &mut Machine,
    a: Blk<'_>,
    k: Ix,
    _spare: Spare,
    bpc: u64,
    left: Lim,
) -> u64 {
    let d = at(a, k);
    let pc = bpc.wrapping_add(d.insn_off());
    if m.fs_off() {
        let r = m.illegal(d);
        return done::<REC, CTR, FX, I32, TR>(m, a, k, pc, left, r);
    }
    let addr = m.rs1(d).wrapping_add(imm(d));
    let raw = htri!(m, k, pc, left, m.load::<REC, FX>(addr, SIZE));
    fload_done::<REC, CTR, FX, I32, TR, SIZE>(m, a, k, SPARE, bpc, left, addr, raw)
}

/// An FP load read `raw` at `addr`: write `f[rd]` and go on.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn fload_done<
    const REC: bool,
    const CTR: bool,
    const FX: bool,
    const I32: bool,
    const TR: bool,
    const SIZE: u8,
>(
    m: &mut Machine,
    a: Blk<'_>,
    k: Ix,
    _spare: Spare,
    bpc: u64,
    left: Lim,
    addr: u64,
    raw: u64,
) -> u64 {
    let d = at(a, k);
    let v = if SIZE == 4 {
        fp::box_s(raw as u32)
    } else {
        raw
    };
    m.wf::<REC>(d.rd, v);
    m.fx_access::<FX>(k, left, addr, raw);
    if FX {
        m.effect(k, left).value = v;
    }
    let pc = bpc.wrapping_add(d.insn_off());
    done::<REC, CTR, FX, I32, TR>(m, a, k, pc, left, next(d, pc))
}

/// FP stores write the register's raw low bits (no unboxing). As [`fload`], the common case
/// makes no call.
#[inline(always)]
unsafe fn fstore<
    const REC: bool,
    const CTR: bool,
    const FX: bool,
    const I32: bool,
    const TR: bool,
    const SIZE: u8,
>(
    m: &mut Machine,
    a: Blk<'_>,
    k: Ix,
    _spare: Spare,
    bpc: u64,
    left: Lim,
) -> u64 {
    if m.fs_not_dirty::<FX>() {
        return build_record(m, a, k, SPARE, bpc, left);
    }
    let d = at(a, k);
    if m.fs_off() {
        return fstore_slow::<REC, CTR, FX, I32, TR, SIZE>(m, a, k, SPARE, bpc, left);
    }
    let addr = m.rs1(d).wrapping_add(imm(d));
    let v = m.f2(d);
    if !m.store_fast::<REC, FX>(addr, SIZE, v) {
        return fstore_slow::<REC, CTR, FX, I32, TR, SIZE>(m, a, k, SPARE, bpc, left);
    }
    m.fx_access::<FX>(k, left, addr, crate::mmu::low_bytes(v, SIZE));
    // The fast path never writes a page with decoded code: no block was dropped.
    let pc = bpc.wrapping_add(d.insn_off());
    done::<REC, CTR, FX, I32, TR>(m, a, k, pc, left, next(d, pc))
}

/// [`fstore`] with FS off, or a store its fast path could not make.
#[cold]
#[inline(never)]
unsafe fn fstore_slow<
    const REC: bool,
    const CTR: bool,
    const FX: bool,
    const I32: bool,
    const TR: bool,
    const SIZE: u8,
>(
    m: &mut Machine,
    a: Blk<'_>,
    k: Ix,
    _spare: Spare,
    bpc: u64,
    left: Lim,
) -> u64 {
    let d = at(a, k);
    let pc = bpc.wrapping_add(d.insn_off());
    if m.fs_off() {
        let r = m.illegal(d);
        return done::<REC, CTR, FX, I32, TR>(m, a, k, pc, left, r);
    }
    let addr = m.rs1(d).wrapping_add(imm(d));
    let v = m.f2(d);
    htri!(m, k, pc, left, m.store::<REC, FX>(addr, SIZE, v));
    m.fx_access::<FX>(k, left, addr, crate::mmu::low_bytes(v, SIZE));
    let r = m.after_store(next(d, pc));
    done::<REC, CTR, FX, I32, TR>(m, a, k, pc, left, r)
}

/// Define the FP load and store handlers: `name => fload or fstore, size`.
macro_rules! fp_access {
    ($($name:ident => $f:ident, $size:literal;)*) => {$(
        pub(crate) unsafe fn $name<const REC: bool, const CTR: bool, const FX: bool, const I32: bool, const TR: bool>(
            m: &mut Machine,
            a: Blk<'_>,
            k: Ix,
            _spare: Spare,
            bpc: u64,
            left: Lim,
        ) -> u64 {
            $f::<REC, CTR, FX, I32, TR, $size>(m, a, k, SPARE, bpc, left)
        }
    )*};
}

fp_access! {
    flw => fload, 4;
    fld => fload, 8;
    fsw => fstore, 4;
    fsd => fstore, 8;
}
