//! Floating-point arithmetic: bit-exact IEEE 754-2008 with the RISC-V rules, through Berkeley
//! SoftFloat (`softfloat-sys`, built with SoftFloat's RISCV specialization).
//!
//! This implements the computational part of the RISC-V unprivileged ISA's "F" (single
//! precision) and "D" (double precision) chapters: arithmetic, fused multiply-add, square root,
//! sign injection, minimum/maximum, comparisons, classification, conversions and the NaN-boxing
//! of single-precision values in 64-bit registers. Loads, stores, `fcsr` and the legality of
//! rounding modes are the caller's business. The semantics follow Spike (riscv-isa-sim), which
//! uses the same SoftFloat calls, bit for bit and flag for flag.
//!
//! Everything works on raw bits. Single-precision operands are the *unboxed* 32-bit values
//! (see [`unbox_s`]) and single-precision results are 32-bit values to be [`box_s`]ed before they
//! are written to an `f` register. Integer results (comparisons, `fclass`, conversions to
//! integers) are the 64-bit value to write to `rd`, already sign-extended where the ISA says so.
//!
//! Rounding modes are the instruction's `rm` field values 0..=4 ([`RNE`], [`RTZ`], [`RDN`],
//! [`RUP`], [`RMM`]), which are also SoftFloat's `softfloat_round_*` values; the caller resolves
//! the dynamic mode (7) from `frm` and rejects the reserved ones. Every operation that can raise
//! exceptions returns the accrued flags it raised ([`NV`], [`DZ`], [`OF`], [`UF`], [`NX`]: the
//! `fflags` layout, which is also SoftFloat's); the caller ORs them into `fflags`.
//!
//! SoftFloat's RISCV specialization supplies the RISC-V specifics: tininess is detected after
//! rounding, every NaN result is the canonical NaN (0x7fc00000 / 0x7ff8000000000000), and
//! conversions to integers saturate (NaN converts to the largest integer).
//!
//! # Safety
//!
//! SoftFloat's functions take and return plain integers (wrapped in `#[repr(C)]` structs), have
//! no preconditions on their arguments (every bit pattern is a valid operand) and touch only
//! SoftFloat's state variables, which are C `_Thread_local`: each Rust thread has its own copy,
//! reached through the `*_helper` accessor functions. So every call below is sound.

use softfloat_sys as sf;

/// Invalid operation (`fflags` bit 4).
pub const NV: u8 = 0x10;
/// Divide by zero (`fflags` bit 3).
pub const DZ: u8 = 0x08;
/// Overflow (`fflags` bit 2).
pub const OF: u8 = 0x04;
/// Underflow (`fflags` bit 1).
pub const UF: u8 = 0x02;
/// Inexact (`fflags` bit 0).
pub const NX: u8 = 0x01;

/// Round to nearest, ties to even.
pub const RNE: u8 = 0;
/// Round towards zero.
pub const RTZ: u8 = 1;
/// Round down (towards negative infinity).
pub const RDN: u8 = 2;
/// Round up (towards positive infinity).
pub const RUP: u8 = 3;
/// Round to nearest, ties to max magnitude.
pub const RMM: u8 = 4;

/// The canonical single-precision NaN.
pub const CANONICAL_NAN_S: u32 = 0x7fc0_0000;
/// The canonical double-precision NaN.
pub const CANONICAL_NAN_D: u64 = 0x7ff8_0000_0000_0000;

const SIGN_S: u32 = 0x8000_0000;
const SIGN_D: u64 = 0x8000_0000_0000_0000;
const BOX: u64 = 0xffff_ffff_0000_0000;

// The RISC-V `rm` encodings must be SoftFloat's rounding modes, and `fflags` its flags.
const _: () = {
    assert!(RNE == sf::softfloat_round_near_even);
    assert!(RTZ == sf::softfloat_round_minMag);
    assert!(RDN == sf::softfloat_round_min);
    assert!(RUP == sf::softfloat_round_max);
    assert!(RMM == sf::softfloat_round_near_maxMag);
    assert!(NV == sf::softfloat_flag_invalid);
    assert!(DZ == sf::softfloat_flag_infinite);
    assert!(OF == sf::softfloat_flag_overflow);
    assert!(UF == sf::softfloat_flag_underflow);
    assert!(NX == sf::softfloat_flag_inexact);
};

#[inline(always)]
fn sf32(v: u32) -> sf::float32_t {
    sf::float32_t { v }
}

#[inline(always)]
fn sf64(v: u64) -> sf::float64_t {
    sf::float64_t { v }
}

/// Runs `f` (SoftFloat calls) with the exception flags cleared; returns its result and the
/// flags it raised.
#[inline(always)]
fn flags_of<T>(f: impl FnOnce() -> T) -> (T, u8) {
    // SAFETY: writes SoftFloat's thread-local flag byte (see the module's Safety section).
    unsafe { sf::softfloat_exceptionFlags_write_helper(0) };
    let v = f();
    // SAFETY: reads SoftFloat's thread-local flag byte.
    let flags = unsafe { sf::softfloat_exceptionFlags_read_helper() };
    (v, flags)
}

thread_local! {
    /// The rounding mode last given to SoftFloat on this thread (its initial mode is RNE), so
    /// that the mode is only written when it changes: a call into C saved per operation.
    static SOFTFLOAT_RM: std::cell::Cell<u8> = const { std::cell::Cell::new(RNE) };
}

/// [`flags_of`] with SoftFloat's rounding mode set to `rm` first.
#[inline(always)]
fn rounded<T>(rm: u8, f: impl FnOnce() -> T) -> (T, u8) {
    debug_assert!(rm <= RMM, "unresolved or reserved rounding mode {rm}");
    SOFTFLOAT_RM.with(|c| {
        if c.get() != rm {
            // SAFETY: writes SoftFloat's thread-local rounding mode; any value is memory-safe.
            unsafe { sf::softfloat_roundingMode_write_helper(rm) };
            c.set(rm);
        }
    });
    flags_of(f)
}

#[inline(always)]
fn is_nan_s(a: u32) -> bool {
    a & 0x7f80_0000 == 0x7f80_0000 && a & 0x007f_ffff != 0
}

#[inline(always)]
fn is_nan_d(a: u64) -> bool {
    a & 0x7ff0_0000_0000_0000 == 0x7ff0_0000_0000_0000 && a & 0x000f_ffff_ffff_ffff != 0
}

/// Sign-extends the low 32 bits of `v` to 64.
#[inline(always)]
fn sext32(v: u32) -> u64 {
    v as i32 as i64 as u64
}

// ---------------------------------------------------------------------------------------------
// NaN-boxing and moves
// ---------------------------------------------------------------------------------------------

/// NaN-boxes a single-precision value for an `f` register: the upper 32 bits all ones.
#[inline]
pub fn box_s(v: u32) -> u64 {
    BOX | v as u64
}

/// Reads a single-precision operand from an `f` register: the low 32 bits if the register is
/// properly NaN-boxed, otherwise the canonical NaN.
#[inline]
pub fn unbox_s(r: u64) -> u32 {
    if r & BOX == BOX {
        r as u32
    } else {
        CANONICAL_NAN_S
    }
}

/// `fmv.x.w`: the raw low 32 bits of the `f` register (no unboxing), sign-extended.
#[inline]
pub fn fmv_x_w(r: u64) -> u64 {
    sext32(r as u32)
}

/// `fmv.w.x`: the low 32 bits of the `x` register, NaN-boxed.
#[inline]
pub fn fmv_w_x(x: u64) -> u64 {
    box_s(x as u32)
}

// ---------------------------------------------------------------------------------------------
// Single precision
// ---------------------------------------------------------------------------------------------

/// `fadd.s`.
#[inline]
pub fn add_s(a: u32, b: u32, rm: u8) -> (u32, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    rounded(rm, || unsafe { sf::f32_add(sf32(a), sf32(b)) }.v)
}

/// `fsub.s`.
#[inline]
pub fn sub_s(a: u32, b: u32, rm: u8) -> (u32, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    rounded(rm, || unsafe { sf::f32_sub(sf32(a), sf32(b)) }.v)
}

/// `fmul.s`.
#[inline]
pub fn mul_s(a: u32, b: u32, rm: u8) -> (u32, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    rounded(rm, || unsafe { sf::f32_mul(sf32(a), sf32(b)) }.v)
}

/// `fdiv.s`.
#[inline]
pub fn div_s(a: u32, b: u32, rm: u8) -> (u32, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    rounded(rm, || unsafe { sf::f32_div(sf32(a), sf32(b)) }.v)
}

/// `fsqrt.s`.
#[inline]
pub fn sqrt_s(a: u32, rm: u8) -> (u32, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    rounded(rm, || unsafe { sf::f32_sqrt(sf32(a)) }.v)
}

/// SoftFloat's fused `a * b + c`; the four FMA instructions negate operands by flipping sign
/// bits first (as Spike does), so a NaN operand never comes out sign-flipped.
#[inline(always)]
fn mul_add_s(a: u32, b: u32, c: u32, rm: u8) -> (u32, u8) {
    let (a, b, c) = (sf32(a), sf32(b), sf32(c));
    // SAFETY: value-only SoftFloat call (module Safety section).
    rounded(rm, || unsafe { sf::f32_mulAdd(a, b, c) }.v)
}

/// `fmadd.s`: `a * b + c` with one rounding.
#[inline]
pub fn madd_s(a: u32, b: u32, c: u32, rm: u8) -> (u32, u8) {
    mul_add_s(a, b, c, rm)
}

/// `fmsub.s`: `a * b - c` with one rounding.
#[inline]
pub fn msub_s(a: u32, b: u32, c: u32, rm: u8) -> (u32, u8) {
    mul_add_s(a, b, c ^ SIGN_S, rm)
}

/// `fnmsub.s`: `-(a * b) + c` with one rounding.
#[inline]
pub fn nmsub_s(a: u32, b: u32, c: u32, rm: u8) -> (u32, u8) {
    mul_add_s(a ^ SIGN_S, b, c, rm)
}

/// `fnmadd.s`: `-(a * b) - c` with one rounding.
#[inline]
pub fn nmadd_s(a: u32, b: u32, c: u32, rm: u8) -> (u32, u8) {
    mul_add_s(a ^ SIGN_S, b, c ^ SIGN_S, rm)
}

/// `fmin.s` (F 2.2 `minimumNumber`): -0 < +0; one NaN operand gives the other operand; two
/// give the canonical NaN; a signalling NaN operand raises NV.
#[inline]
pub fn min_s(a: u32, b: u32) -> (u32, u8) {
    flags_of(|| {
        // SAFETY: value-only SoftFloat calls (module Safety section).
        let less = unsafe {
            sf::f32_lt_quiet(sf32(a), sf32(b)) || (sf::f32_eq(sf32(a), sf32(b)) && a & SIGN_S != 0)
        };
        if is_nan_s(a) && is_nan_s(b) {
            CANONICAL_NAN_S
        } else if less || is_nan_s(b) {
            a
        } else {
            b
        }
    })
}

/// `fmax.s` (F 2.2 `maximumNumber`): +0 > -0; NaN handling as [`min_s`].
#[inline]
pub fn max_s(a: u32, b: u32) -> (u32, u8) {
    flags_of(|| {
        // SAFETY: value-only SoftFloat calls (module Safety section).
        let greater = unsafe {
            sf::f32_lt_quiet(sf32(b), sf32(a)) || (sf::f32_eq(sf32(b), sf32(a)) && b & SIGN_S != 0)
        };
        if is_nan_s(a) && is_nan_s(b) {
            CANONICAL_NAN_S
        } else if greater || is_nan_s(b) {
            a
        } else {
            b
        }
    })
}

/// `feq.s`: quiet comparison (NV only for a signalling NaN). Returns `rd` (0 or 1).
#[inline]
pub fn eq_s(a: u32, b: u32) -> (u64, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    flags_of(|| unsafe { sf::f32_eq(sf32(a), sf32(b)) } as u64)
}

/// `flt.s`: signalling comparison (NV for any NaN). Returns `rd` (0 or 1).
#[inline]
pub fn lt_s(a: u32, b: u32) -> (u64, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    flags_of(|| unsafe { sf::f32_lt(sf32(a), sf32(b)) } as u64)
}

/// `fle.s`: signalling comparison (NV for any NaN). Returns `rd` (0 or 1).
#[inline]
pub fn le_s(a: u32, b: u32) -> (u64, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    flags_of(|| unsafe { sf::f32_le(sf32(a), sf32(b)) } as u64)
}

/// `fclass.s`: the one-hot 10-bit class mask (bit 0 -inf ... bit 9 quiet NaN). Raises nothing.
#[inline]
pub fn class_s(a: u32) -> u64 {
    let sign = a & SIGN_S != 0;
    let exp = (a >> 23) & 0xff;
    let frac = a & 0x007f_ffff;
    classify(
        sign,
        exp == 0xff,
        exp == 0,
        frac == 0,
        frac & 0x0040_0000 != 0,
    )
}

/// `fsgnj.s`: `a`'s magnitude with `b`'s sign.
#[inline]
pub fn sgnj_s(a: u32, b: u32) -> u32 {
    (a & !SIGN_S) | (b & SIGN_S)
}

/// `fsgnjn.s`: `a`'s magnitude with the opposite of `b`'s sign.
#[inline]
pub fn sgnjn_s(a: u32, b: u32) -> u32 {
    (a & !SIGN_S) | (!b & SIGN_S)
}

/// `fsgnjx.s`: `a` with its sign XORed with `b`'s.
#[inline]
pub fn sgnjx_s(a: u32, b: u32) -> u32 {
    a ^ (b & SIGN_S)
}

/// `fcvt.w.s`: saturating; returns `rd` (sign-extended).
#[inline]
pub fn cvt_w_s(a: u32, rm: u8) -> (u64, u8) {
    rounded(rm, || {
        // SAFETY: value-only SoftFloat call (module Safety section).
        let v = unsafe { sf::f32_to_i32(sf32(a), rm, true) };
        sext32(v as u32)
    })
}

/// `fcvt.wu.s`: saturating; returns `rd` (the 32-bit result sign-extended, as RV64 does).
#[inline]
pub fn cvt_wu_s(a: u32, rm: u8) -> (u64, u8) {
    rounded(rm, || {
        // SAFETY: value-only SoftFloat call (module Safety section).
        let v = unsafe { sf::f32_to_ui32(sf32(a), rm, true) };
        sext32(v as u32)
    })
}

/// `fcvt.l.s`: saturating; returns `rd`.
#[inline]
pub fn cvt_l_s(a: u32, rm: u8) -> (u64, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    rounded(rm, || unsafe { sf::f32_to_i64(sf32(a), rm, true) } as u64)
}

/// `fcvt.lu.s`: saturating; returns `rd`.
#[inline]
pub fn cvt_lu_s(a: u32, rm: u8) -> (u64, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    rounded(rm, || unsafe { sf::f32_to_ui64(sf32(a), rm, true) })
}

/// `fcvt.s.w`: converts the low 32 bits of `x` as a signed integer.
#[inline]
pub fn cvt_s_w(x: u64, rm: u8) -> (u32, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    rounded(rm, || unsafe { sf::i32_to_f32(x as i32) }.v)
}

/// `fcvt.s.wu`: converts the low 32 bits of `x` as an unsigned integer.
#[inline]
pub fn cvt_s_wu(x: u64, rm: u8) -> (u32, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    rounded(rm, || unsafe { sf::ui32_to_f32(x as u32) }.v)
}

/// `fcvt.s.l`: converts `x` as a signed integer.
#[inline]
pub fn cvt_s_l(x: u64, rm: u8) -> (u32, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    rounded(rm, || unsafe { sf::i64_to_f32(x as i64) }.v)
}

/// `fcvt.s.lu`: converts `x` as an unsigned integer.
#[inline]
pub fn cvt_s_lu(x: u64, rm: u8) -> (u32, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    rounded(rm, || unsafe { sf::ui64_to_f32(x) }.v)
}

// ---------------------------------------------------------------------------------------------
// Double precision
// ---------------------------------------------------------------------------------------------

/// `fadd.d`.
#[inline]
pub fn add_d(a: u64, b: u64, rm: u8) -> (u64, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    rounded(rm, || unsafe { sf::f64_add(sf64(a), sf64(b)) }.v)
}

/// `fsub.d`.
#[inline]
pub fn sub_d(a: u64, b: u64, rm: u8) -> (u64, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    rounded(rm, || unsafe { sf::f64_sub(sf64(a), sf64(b)) }.v)
}

/// `fmul.d`.
#[inline]
pub fn mul_d(a: u64, b: u64, rm: u8) -> (u64, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    rounded(rm, || unsafe { sf::f64_mul(sf64(a), sf64(b)) }.v)
}

/// `fdiv.d`.
#[inline]
pub fn div_d(a: u64, b: u64, rm: u8) -> (u64, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    rounded(rm, || unsafe { sf::f64_div(sf64(a), sf64(b)) }.v)
}

/// `fsqrt.d`.
#[inline]
pub fn sqrt_d(a: u64, rm: u8) -> (u64, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    rounded(rm, || unsafe { sf::f64_sqrt(sf64(a)) }.v)
}

/// SoftFloat's fused `a * b + c`; the four FMA instructions negate operands by flipping sign
/// bits first (as Spike does), so a NaN operand never comes out sign-flipped.
#[inline(always)]
fn mul_add_d(a: u64, b: u64, c: u64, rm: u8) -> (u64, u8) {
    let (a, b, c) = (sf64(a), sf64(b), sf64(c));
    // SAFETY: value-only SoftFloat call (module Safety section).
    rounded(rm, || unsafe { sf::f64_mulAdd(a, b, c) }.v)
}

/// `fmadd.d`: `a * b + c` with one rounding.
#[inline]
pub fn madd_d(a: u64, b: u64, c: u64, rm: u8) -> (u64, u8) {
    mul_add_d(a, b, c, rm)
}

/// `fmsub.d`: `a * b - c` with one rounding.
#[inline]
pub fn msub_d(a: u64, b: u64, c: u64, rm: u8) -> (u64, u8) {
    mul_add_d(a, b, c ^ SIGN_D, rm)
}

/// `fnmsub.d`: `-(a * b) + c` with one rounding.
#[inline]
pub fn nmsub_d(a: u64, b: u64, c: u64, rm: u8) -> (u64, u8) {
    mul_add_d(a ^ SIGN_D, b, c, rm)
}

/// `fnmadd.d`: `-(a * b) - c` with one rounding.
#[inline]
pub fn nmadd_d(a: u64, b: u64, c: u64, rm: u8) -> (u64, u8) {
    mul_add_d(a ^ SIGN_D, b, c ^ SIGN_D, rm)
}

/// `fmin.d`: as [`min_s`].
#[inline]
pub fn min_d(a: u64, b: u64) -> (u64, u8) {
    flags_of(|| {
        // SAFETY: value-only SoftFloat calls (module Safety section).
        let less = unsafe {
            sf::f64_lt_quiet(sf64(a), sf64(b)) || (sf::f64_eq(sf64(a), sf64(b)) && a & SIGN_D != 0)
        };
        if is_nan_d(a) && is_nan_d(b) {
            CANONICAL_NAN_D
        } else if less || is_nan_d(b) {
            a
        } else {
            b
        }
    })
}

/// `fmax.d`: as [`max_s`].
#[inline]
pub fn max_d(a: u64, b: u64) -> (u64, u8) {
    flags_of(|| {
        // SAFETY: value-only SoftFloat calls (module Safety section).
        let greater = unsafe {
            sf::f64_lt_quiet(sf64(b), sf64(a)) || (sf::f64_eq(sf64(b), sf64(a)) && b & SIGN_D != 0)
        };
        if is_nan_d(a) && is_nan_d(b) {
            CANONICAL_NAN_D
        } else if greater || is_nan_d(b) {
            a
        } else {
            b
        }
    })
}

/// `feq.d`: quiet comparison (NV only for a signalling NaN). Returns `rd` (0 or 1).
#[inline]
pub fn eq_d(a: u64, b: u64) -> (u64, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    flags_of(|| unsafe { sf::f64_eq(sf64(a), sf64(b)) } as u64)
}

/// `flt.d`: signalling comparison (NV for any NaN). Returns `rd` (0 or 1).
#[inline]
pub fn lt_d(a: u64, b: u64) -> (u64, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    flags_of(|| unsafe { sf::f64_lt(sf64(a), sf64(b)) } as u64)
}

/// `fle.d`: signalling comparison (NV for any NaN). Returns `rd` (0 or 1).
#[inline]
pub fn le_d(a: u64, b: u64) -> (u64, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    flags_of(|| unsafe { sf::f64_le(sf64(a), sf64(b)) } as u64)
}

/// `fclass.d`: the one-hot 10-bit class mask (bit 0 -inf ... bit 9 quiet NaN). Raises nothing.
#[inline]
pub fn class_d(a: u64) -> u64 {
    let sign = a & SIGN_D != 0;
    let exp = (a >> 52) & 0x7ff;
    let frac = a & 0x000f_ffff_ffff_ffff;
    classify(
        sign,
        exp == 0x7ff,
        exp == 0,
        frac == 0,
        frac & 0x0008_0000_0000_0000 != 0,
    )
}

/// `fsgnj.d`: `a`'s magnitude with `b`'s sign.
#[inline]
pub fn sgnj_d(a: u64, b: u64) -> u64 {
    (a & !SIGN_D) | (b & SIGN_D)
}

/// `fsgnjn.d`: `a`'s magnitude with the opposite of `b`'s sign.
#[inline]
pub fn sgnjn_d(a: u64, b: u64) -> u64 {
    (a & !SIGN_D) | (!b & SIGN_D)
}

/// `fsgnjx.d`: `a` with its sign XORed with `b`'s.
#[inline]
pub fn sgnjx_d(a: u64, b: u64) -> u64 {
    a ^ (b & SIGN_D)
}

/// `fcvt.w.d`: saturating; returns `rd` (sign-extended).
#[inline]
pub fn cvt_w_d(a: u64, rm: u8) -> (u64, u8) {
    rounded(rm, || {
        // SAFETY: value-only SoftFloat call (module Safety section).
        let v = unsafe { sf::f64_to_i32(sf64(a), rm, true) };
        sext32(v as u32)
    })
}

/// `fcvt.wu.d`: saturating; returns `rd` (the 32-bit result sign-extended, as RV64 does).
#[inline]
pub fn cvt_wu_d(a: u64, rm: u8) -> (u64, u8) {
    rounded(rm, || {
        // SAFETY: value-only SoftFloat call (module Safety section).
        let v = unsafe { sf::f64_to_ui32(sf64(a), rm, true) };
        sext32(v as u32)
    })
}

/// `fcvt.l.d`: saturating; returns `rd`.
#[inline]
pub fn cvt_l_d(a: u64, rm: u8) -> (u64, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    rounded(rm, || unsafe { sf::f64_to_i64(sf64(a), rm, true) } as u64)
}

/// `fcvt.lu.d`: saturating; returns `rd`.
#[inline]
pub fn cvt_lu_d(a: u64, rm: u8) -> (u64, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    rounded(rm, || unsafe { sf::f64_to_ui64(sf64(a), rm, true) })
}

/// `fcvt.d.w`: converts the low 32 bits of `x` as a signed integer (always exact; `rm` is
/// taken for uniformity).
#[inline]
pub fn cvt_d_w(x: u64, rm: u8) -> (u64, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    rounded(rm, || unsafe { sf::i32_to_f64(x as i32) }.v)
}

/// `fcvt.d.wu`: converts the low 32 bits of `x` as an unsigned integer (always exact; `rm` is
/// taken for uniformity).
#[inline]
pub fn cvt_d_wu(x: u64, rm: u8) -> (u64, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    rounded(rm, || unsafe { sf::ui32_to_f64(x as u32) }.v)
}

/// `fcvt.d.l`: converts `x` as a signed integer.
#[inline]
pub fn cvt_d_l(x: u64, rm: u8) -> (u64, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    rounded(rm, || unsafe { sf::i64_to_f64(x as i64) }.v)
}

/// `fcvt.d.lu`: converts `x` as an unsigned integer.
#[inline]
pub fn cvt_d_lu(x: u64, rm: u8) -> (u64, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    rounded(rm, || unsafe { sf::ui64_to_f64(x) }.v)
}

/// `fcvt.s.d`: rounds a double to single (a NaN becomes the canonical NaN).
#[inline]
pub fn cvt_s_d(a: u64, rm: u8) -> (u32, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    rounded(rm, || unsafe { sf::f64_to_f32(sf64(a)) }.v)
}

/// `fcvt.d.s`: widens a single to double (exact; a NaN becomes the canonical NaN; `rm` is taken
/// for uniformity).
#[inline]
pub fn cvt_d_s(a: u32, rm: u8) -> (u64, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    rounded(rm, || unsafe { sf::f32_to_f64(sf32(a)) }.v)
}

/// The `fclass` mask from the decoded fields: `top` = exponent all ones, `bottom` = exponent
/// zero, `quiet` = the most significant fraction bit.
#[inline(always)]
fn classify(sign: bool, top: bool, bottom: bool, frac_zero: bool, quiet: bool) -> u64 {
    let bit = match (top, bottom, frac_zero) {
        (true, _, true) => 0,           // infinity
        (true, _, false) if quiet => 9, // quiet NaN
        (true, _, false) => 8,          // signalling NaN
        (false, true, true) => 3,       // zero
        (false, true, false) => 2,      // subnormal
        (false, false, _) => 1,         // normal
    };
    match bit {
        8 | 9 => 1 << bit,
        _ if sign => 1 << bit,
        _ => 1 << (7 - bit),
    }
}

// ---------------------------------------------------------------------------------------------
// Zfa (F and D only: hartscope has no Zfh or Q), as Spike computes it.

/// `fli.s`/`fli.d`'s 32 constants, by rs1: -1.0, the least positive normal (`min`), 2^-16,
/// 2^-15, 2^-8, 2^-7, 0.0625 ... 65536.0, infinity and the canonical NaN. As `f64`s, index 1
/// aside (each format's own minimum).
const FLI: [f64; 32] = [
    -1.0,
    0.0,
    1.52587890625e-05,
    3.0517578125e-05,
    0.00390625,
    0.0078125,
    0.0625,
    0.125,
    0.25,
    0.3125,
    0.375,
    0.4375,
    0.5,
    0.625,
    0.75,
    0.875,
    1.0,
    1.25,
    1.5,
    1.75,
    2.0,
    2.5,
    3.0,
    4.0,
    8.0,
    16.0,
    128.0,
    256.0,
    32768.0,
    65536.0,
    f64::INFINITY,
    0.0,
];

/// `fli.s`: the constant of index `i` (0..=31).
pub fn fli_s(i: u8) -> u32 {
    match i & 31 {
        1 => f32::MIN_POSITIVE.to_bits(),
        31 => CANONICAL_NAN_S,
        i => (FLI[i as usize] as f32).to_bits(),
    }
}

/// `fli.d`: the constant of index `i` (0..=31).
pub fn fli_d(i: u8) -> u64 {
    match i & 31 {
        1 => f64::MIN_POSITIVE.to_bits(),
        31 => CANONICAL_NAN_D,
        i => FLI[i as usize].to_bits(),
    }
}

/// How Spike's disassembly spells `fli`'s constant of index `i`.
pub fn fli_text(i: u8) -> &'static str {
    const TEXT: [&str; 32] = [
        "-1.0",
        "min",
        "1.52587890625e-05",
        "3.0517578125e-05",
        "0.00390625",
        "0.0078125",
        "0.0625",
        "0.125",
        "0.25",
        "0.3125",
        "0.375",
        "0.4375",
        "0.5",
        "0.625",
        "0.75",
        "0.875",
        "1.0",
        "1.25",
        "1.5",
        "1.75",
        "2.0",
        "2.5",
        "3.0",
        "4.0",
        "8.0",
        "16.0",
        "128.0",
        "256.0",
        "32768.0",
        "65536.0",
        "inf",
        "nan",
    ];
    TEXT[(i & 31) as usize]
}

/// `fminm.s` (IEEE 754-2019 `minimum`): any NaN operand gives the canonical NaN (NV for a
/// signalling one); -0 < +0.
#[inline]
pub fn minm_s(a: u32, b: u32) -> (u32, u8) {
    flags_of(|| {
        // SAFETY: value-only SoftFloat calls (module Safety section).
        let less = unsafe {
            sf::f32_lt_quiet(sf32(a), sf32(b)) || (sf::f32_eq(sf32(a), sf32(b)) && a & SIGN_S != 0)
        };
        if is_nan_s(a) || is_nan_s(b) {
            CANONICAL_NAN_S
        } else if less {
            a
        } else {
            b
        }
    })
}

/// `fmaxm.s` (`maximum`): NaNs as [`minm_s`]; +0 > -0.
#[inline]
pub fn maxm_s(a: u32, b: u32) -> (u32, u8) {
    flags_of(|| {
        // SAFETY: value-only SoftFloat calls (module Safety section).
        let greater = unsafe {
            sf::f32_lt_quiet(sf32(b), sf32(a)) || (sf::f32_eq(sf32(b), sf32(a)) && b & SIGN_S != 0)
        };
        if is_nan_s(a) || is_nan_s(b) {
            CANONICAL_NAN_S
        } else if greater {
            a
        } else {
            b
        }
    })
}

/// `fminm.d`: as [`minm_s`].
#[inline]
pub fn minm_d(a: u64, b: u64) -> (u64, u8) {
    flags_of(|| {
        // SAFETY: value-only SoftFloat calls (module Safety section).
        let less = unsafe {
            sf::f64_lt_quiet(sf64(a), sf64(b)) || (sf::f64_eq(sf64(a), sf64(b)) && a & SIGN_D != 0)
        };
        if is_nan_d(a) || is_nan_d(b) {
            CANONICAL_NAN_D
        } else if less {
            a
        } else {
            b
        }
    })
}

/// `fmaxm.d`: as [`maxm_s`].
#[inline]
pub fn maxm_d(a: u64, b: u64) -> (u64, u8) {
    flags_of(|| {
        // SAFETY: value-only SoftFloat calls (module Safety section).
        let greater = unsafe {
            sf::f64_lt_quiet(sf64(b), sf64(a)) || (sf::f64_eq(sf64(b), sf64(a)) && b & SIGN_D != 0)
        };
        if is_nan_d(a) || is_nan_d(b) {
            CANONICAL_NAN_D
        } else if greater {
            a
        } else {
            b
        }
    })
}

/// `fround.s` (`exact` false) and `froundnx.s` (true: NX when the value changes): round to an
/// integer in the same format with `rm`.
#[inline]
pub fn round_s(a: u32, rm: u8, exact: bool) -> (u32, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    rounded(rm, || unsafe { sf::f32_roundToInt(sf32(a), rm, exact) }.v)
}

/// `fround.d`, `froundnx.d`: as [`round_s`].
#[inline]
pub fn round_d(a: u64, rm: u8, exact: bool) -> (u64, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    rounded(rm, || unsafe { sf::f64_roundToInt(sf64(a), rm, exact) }.v)
}

/// `fleq.s`: `fle.s` as a quiet comparison (NV only for a signalling NaN).
#[inline]
pub fn leq_s(a: u32, b: u32) -> (u64, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    flags_of(|| unsafe { sf::f32_le_quiet(sf32(a), sf32(b)) } as u64)
}

/// `fltq.s`: `flt.s` as a quiet comparison.
#[inline]
pub fn ltq_s(a: u32, b: u32) -> (u64, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    flags_of(|| unsafe { sf::f32_lt_quiet(sf32(a), sf32(b)) } as u64)
}

/// `fleq.d`: as [`leq_s`].
#[inline]
pub fn leq_d(a: u64, b: u64) -> (u64, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    flags_of(|| unsafe { sf::f64_le_quiet(sf64(a), sf64(b)) } as u64)
}

/// `fltq.d`: as [`ltq_s`].
#[inline]
pub fn ltq_d(a: u64, b: u64) -> (u64, u8) {
    // SAFETY: value-only SoftFloat call (module Safety section).
    flags_of(|| unsafe { sf::f64_lt_quiet(sf64(a), sf64(b)) } as u64)
}

/// `fcvtmod.w.d`: the double truncated to an integer, modulo 2^32, sign-extended (Spike's
/// computation): NV for infinities, NaNs and values outside the 32-bit range (the result is
/// still the value modulo 2^32, or 0 for infinities and NaNs), NX when a fraction was dropped
/// and NV was not raised.
pub fn cvtmod_w_d(a: u64) -> (u64, u8) {
    let sign = a >> 63 != 0;
    let exp = ((a >> 52) & 0x7ff) as i32;
    let mut frac = a & ((1 << 52) - 1);
    let (mut inexact, mut invalid) = (false, false);
    if exp == 0 {
        inexact = frac != 0;
        frac = 0;
    } else if exp == 0x7ff {
        invalid = true;
        frac = 0;
    } else {
        let true_exp = exp - 1023;
        let shift = true_exp - 52;
        frac |= 1 << 52;
        if shift >= 64 {
            frac = 0;
        } else if shift >= 0 {
            frac <<= shift;
        } else if shift > -64 {
            inexact = frac << (64 + shift) != 0;
            frac >>= -shift;
        } else {
            inexact = true;
            frac = 0;
        }
        if true_exp > 31 || frac > if sign { 0x8000_0000 } else { 0x7fff_ffff } {
            invalid = true;
            inexact = false;
        }
        if sign {
            frac = frac.wrapping_neg();
        }
    }
    let flags = if invalid { NV } else { 0 } | if inexact { NX } else { 0 };
    (frac as u32 as i32 as i64 as u64, flags)
}

#[cfg(test)]
mod tests {
    //! The tables marked "Spike-confirmed" hold vectors that were run on Spike (riscv-isa-sim,
    //! `--isa=rv64gc --log-commits`): each operand loaded into a register, `fflags` cleared, the
    //! instruction executed with the static rounding mode shown, and the destination register
    //! and `fflags` (read back with `frflags`) taken from the commit log. Register values are the
    //! raw 64 bits: `B | x` is the single `x` properly NaN-boxed; a single operand written as a
    //! plain 64-bit value is deliberately not boxed. `rm` is ignored by operations without one.

    use super::*;
    use rstest::rstest;

    /// The NaN-box: a single-precision value `x` sits in an `f` register as `B | x`.
    const B: u64 = 0xffff_ffff_0000_0000;

    /// Executes `op` as the hart does: register values in (NaN-unboxing single operands), the
    /// destination register's new value and the raised flags out.
    fn exec(op: &str, a: u64, b: u64, c: u64, rm: u8) -> (u64, u8) {
        let (sa, sb, sc) = (unbox_s(a), unbox_s(b), unbox_s(c));
        let f = |(v, fl): (u32, u8)| (box_s(v), fl);
        match op {
            "fadd.s" => f(add_s(sa, sb, rm)),
            "fsub.s" => f(sub_s(sa, sb, rm)),
            "fmul.s" => f(mul_s(sa, sb, rm)),
            "fdiv.s" => f(div_s(sa, sb, rm)),
            "fsqrt.s" => f(sqrt_s(sa, rm)),
            "fmadd.s" => f(madd_s(sa, sb, sc, rm)),
            "fmsub.s" => f(msub_s(sa, sb, sc, rm)),
            "fnmsub.s" => f(nmsub_s(sa, sb, sc, rm)),
            "fnmadd.s" => f(nmadd_s(sa, sb, sc, rm)),
            "fmin.s" => f(min_s(sa, sb)),
            "fmax.s" => f(max_s(sa, sb)),
            "feq.s" => eq_s(sa, sb),
            "flt.s" => lt_s(sa, sb),
            "fle.s" => le_s(sa, sb),
            "fclass.s" => (class_s(sa), 0),
            "fsgnj.s" => (box_s(sgnj_s(sa, sb)), 0),
            "fsgnjn.s" => (box_s(sgnjn_s(sa, sb)), 0),
            "fsgnjx.s" => (box_s(sgnjx_s(sa, sb)), 0),
            "fcvt.w.s" => cvt_w_s(sa, rm),
            "fcvt.wu.s" => cvt_wu_s(sa, rm),
            "fcvt.l.s" => cvt_l_s(sa, rm),
            "fcvt.lu.s" => cvt_lu_s(sa, rm),
            "fcvt.s.w" => f(cvt_s_w(a, rm)),
            "fcvt.s.wu" => f(cvt_s_wu(a, rm)),
            "fcvt.s.l" => f(cvt_s_l(a, rm)),
            "fcvt.s.lu" => f(cvt_s_lu(a, rm)),
            "fmv.x.w" => (fmv_x_w(a), 0),
            "fmv.w.x" => (fmv_w_x(a), 0),
            "fadd.d" => add_d(a, b, rm),
            "fsub.d" => sub_d(a, b, rm),
            "fmul.d" => mul_d(a, b, rm),
            "fdiv.d" => div_d(a, b, rm),
            "fsqrt.d" => sqrt_d(a, rm),
            "fmadd.d" => madd_d(a, b, c, rm),
            "fmsub.d" => msub_d(a, b, c, rm),
            "fnmsub.d" => nmsub_d(a, b, c, rm),
            "fnmadd.d" => nmadd_d(a, b, c, rm),
            "fmin.d" => min_d(a, b),
            "fmax.d" => max_d(a, b),
            "feq.d" => eq_d(a, b),
            "flt.d" => lt_d(a, b),
            "fle.d" => le_d(a, b),
            "fclass.d" => (class_d(a), 0),
            "fsgnj.d" => (sgnj_d(a, b), 0),
            "fsgnjn.d" => (sgnjn_d(a, b), 0),
            "fsgnjx.d" => (sgnjx_d(a, b), 0),
            "fcvt.w.d" => cvt_w_d(a, rm),
            "fcvt.wu.d" => cvt_wu_d(a, rm),
            "fcvt.l.d" => cvt_l_d(a, rm),
            "fcvt.lu.d" => cvt_lu_d(a, rm),
            "fcvt.d.w" => cvt_d_w(a, rm),
            "fcvt.d.wu" => cvt_d_wu(a, rm),
            "fcvt.d.l" => cvt_d_l(a, rm),
            "fcvt.d.lu" => cvt_d_lu(a, rm),
            "fcvt.s.d" => f(cvt_s_d(a, rm)),
            "fcvt.d.s" => cvt_d_s(sa, rm),
            _ => panic!("no such operation {op}"),
        }
    }

    fn check(op: &str, a: u64, b: u64, c: u64, rm: u8, want: u64, flags: u8) {
        let (got, got_flags) = exec(op, a, b, c, rm);
        assert!(
            (got, got_flags) == (want, flags),
            "{op} {a:#x} {b:#x} {c:#x} rm {rm}: got {got:#x} flags {got_flags:#04x}, \
             want {want:#x} flags {flags:#04x}"
        );
    }

    #[test]
    fn tininess_is_detected_after_rounding() {
        // The RISCV specialization's default; every thread starts with it.
        let on_new_thread = std::thread::spawn(|| {
            // SAFETY: reads SoftFloat's thread-local tininess mode.
            unsafe { sf::softfloat_detectTininess_read_helper() }
        })
        .join()
        .unwrap();
        assert_eq!(on_new_thread, sf::softfloat_tininess_afterRounding);
        // SAFETY: as above.
        let here = unsafe { sf::softfloat_detectTininess_read_helper() };
        assert_eq!(here, sf::softfloat_tininess_afterRounding);
        // (1 + 2^-23) * (2^-126 - 2^-149) rounds up to 2^-126: tiny only before rounding.
        assert_eq!(mul_s(0x3f80_0001, 0x007f_ffff, RNE), (0x0080_0000, NX));
        assert_eq!(mul_s(0x3f80_0001, 0x007f_ffff, RTZ), (0x007f_ffff, UF | NX));
    }

    #[test]
    fn flags_do_not_leak_between_operations() {
        assert_eq!(div_s(0x3f80_0000, 0, RNE), (0x7f80_0000, DZ));
        assert_eq!(add_s(0x3f80_0000, 0x3f80_0000, RNE), (0x4000_0000, 0));
        assert_eq!(sqrt_d(0xbff0_0000_0000_0000, RNE), (CANONICAL_NAN_D, NV));
        assert_eq!(eq_d(0, SIGN_D), (1, 0));
    }

    #[test]
    fn rounding_mode_does_not_leak_between_operations() {
        assert_eq!(add_s(0x3f80_0000, 0x3380_0000, RUP), (0x3f80_0001, NX));
        assert_eq!(add_s(0x3f80_0000, 0x3380_0000, RNE), (0x3f80_0000, NX));
        assert_eq!(cvt_s_w(16_777_217, RMM), (0x4b80_0001, NX));
        assert_eq!(cvt_s_w(16_777_217, RNE), (0x4b80_0000, NX));
    }

    #[rstest]
    #[case::boxed(B | 0x3f80_0000, 0x3f80_0000)]
    #[case::boxed_nan(B | 0xffc0_0001, 0xffc0_0001)]
    #[case::upper_zero(0x0000_0000_3f80_0000, CANONICAL_NAN_S)]
    #[case::upper_almost_ones(0xffff_fffe_3f80_0000, CANONICAL_NAN_S)]
    #[case::upper_high_half_ones(0xffff_0000_3f80_0000, CANONICAL_NAN_S)]
    #[case::double_one(0x3ff0_0000_0000_0000, CANONICAL_NAN_S)]
    fn unbox(#[case] reg: u64, #[case] want: u32) {
        assert_eq!(unbox_s(reg), want);
    }

    #[rstest]
    #[case::one(0x3f80_0000)]
    #[case::neg_zero(0x8000_0000)]
    #[case::snan(0x7f80_0001)]
    fn box_round_trips(#[case] v: u32) {
        assert_eq!(box_s(v), B | v as u64);
        assert_eq!(unbox_s(box_s(v)), v);
    }

    #[rstest]
    #[case::pos(0x3f80_0000, 0x0000_0000_3f80_0000)]
    #[case::neg(0xbf80_0000, 0xffff_ffff_bf80_0000)]
    fn fmv_round_trips(#[case] v: u32, #[case] x: u64) {
        assert_eq!(fmv_x_w(fmv_w_x(v as u64)), x);
        assert_eq!(fmv_w_x(x), B | v as u64);
    }

    /// Spike-confirmed: fadd/fsub/fmul/fdiv/fsqrt.s: every rounding mode on ties (RNE vs RMM),
    /// overflow, underflow (tininess after rounding), DZ, NV, signed zeros, infinities, subnormals,
    /// NaN propagation (always canonical) and improperly NaN-boxed operands.
    #[rstest]
    #[case::add_exact(                   "fadd.s",  B | 0x3f80_0000,       B | 0x4000_0000,       0, RNE, B | 0x4040_0000, 0)]
    #[case::add_halfway_even_rne(        "fadd.s",  B | 0x3f80_0000,       B | 0x3380_0000,       0, RNE, B | 0x3f80_0000, NX)]
    #[case::add_halfway_even_rtz(        "fadd.s",  B | 0x3f80_0000,       B | 0x3380_0000,       0, RTZ, B | 0x3f80_0000, NX)]
    #[case::add_halfway_even_rdn(        "fadd.s",  B | 0x3f80_0000,       B | 0x3380_0000,       0, RDN, B | 0x3f80_0000, NX)]
    #[case::add_halfway_even_rup(        "fadd.s",  B | 0x3f80_0000,       B | 0x3380_0000,       0, RUP, B | 0x3f80_0001, NX)]
    #[case::add_halfway_even_rmm(        "fadd.s",  B | 0x3f80_0000,       B | 0x3380_0000,       0, RMM, B | 0x3f80_0001, NX)]
    #[case::add_halfway_odd_rne(         "fadd.s",  B | 0x3f80_0001,       B | 0x3380_0000,       0, RNE, B | 0x3f80_0002, NX)]
    #[case::add_halfway_odd_rtz(         "fadd.s",  B | 0x3f80_0001,       B | 0x3380_0000,       0, RTZ, B | 0x3f80_0001, NX)]
    #[case::add_halfway_odd_rdn(         "fadd.s",  B | 0x3f80_0001,       B | 0x3380_0000,       0, RDN, B | 0x3f80_0001, NX)]
    #[case::add_halfway_odd_rup(         "fadd.s",  B | 0x3f80_0001,       B | 0x3380_0000,       0, RUP, B | 0x3f80_0002, NX)]
    #[case::add_halfway_odd_rmm(         "fadd.s",  B | 0x3f80_0001,       B | 0x3380_0000,       0, RMM, B | 0x3f80_0002, NX)]
    #[case::add_neg_halfway_rne(         "fadd.s",  B | 0xbf80_0000,       B | 0xb380_0000,       0, RNE, B | 0xbf80_0000, NX)]
    #[case::add_neg_halfway_rtz(         "fadd.s",  B | 0xbf80_0000,       B | 0xb380_0000,       0, RTZ, B | 0xbf80_0000, NX)]
    #[case::add_neg_halfway_rdn(         "fadd.s",  B | 0xbf80_0000,       B | 0xb380_0000,       0, RDN, B | 0xbf80_0001, NX)]
    #[case::add_neg_halfway_rup(         "fadd.s",  B | 0xbf80_0000,       B | 0xb380_0000,       0, RUP, B | 0xbf80_0000, NX)]
    #[case::add_neg_halfway_rmm(         "fadd.s",  B | 0xbf80_0000,       B | 0xb380_0000,       0, RMM, B | 0xbf80_0001, NX)]
    #[case::add_overflow_rne(            "fadd.s",  B | 0x7f7f_ffff,       B | 0x7f7f_ffff,       0, RNE, B | 0x7f80_0000, OF | NX)]
    #[case::add_overflow_rtz(            "fadd.s",  B | 0x7f7f_ffff,       B | 0x7f7f_ffff,       0, RTZ, B | 0x7f7f_ffff, OF | NX)]
    #[case::add_overflow_rdn(            "fadd.s",  B | 0x7f7f_ffff,       B | 0x7f7f_ffff,       0, RDN, B | 0x7f7f_ffff, OF | NX)]
    #[case::add_overflow_rup(            "fadd.s",  B | 0x7f7f_ffff,       B | 0x7f7f_ffff,       0, RUP, B | 0x7f80_0000, OF | NX)]
    #[case::add_overflow_rmm(            "fadd.s",  B | 0x7f7f_ffff,       B | 0x7f7f_ffff,       0, RMM, B | 0x7f80_0000, OF | NX)]
    #[case::add_neg_overflow_rne(        "fadd.s",  B | 0xff7f_ffff,       B | 0xff7f_ffff,       0, RNE, B | 0xff80_0000, OF | NX)]
    #[case::add_neg_overflow_rtz(        "fadd.s",  B | 0xff7f_ffff,       B | 0xff7f_ffff,       0, RTZ, B | 0xff7f_ffff, OF | NX)]
    #[case::add_neg_overflow_rdn(        "fadd.s",  B | 0xff7f_ffff,       B | 0xff7f_ffff,       0, RDN, B | 0xff80_0000, OF | NX)]
    #[case::add_neg_overflow_rup(        "fadd.s",  B | 0xff7f_ffff,       B | 0xff7f_ffff,       0, RUP, B | 0xff7f_ffff, OF | NX)]
    #[case::add_neg_overflow_rmm(        "fadd.s",  B | 0xff7f_ffff,       B | 0xff7f_ffff,       0, RMM, B | 0xff80_0000, OF | NX)]
    #[case::add_zero_sum_rne(            "fadd.s",  B,                     B | 0x8000_0000,       0, RNE, B,               0)]
    #[case::add_zero_sum_rtz(            "fadd.s",  B,                     B | 0x8000_0000,       0, RTZ, B,               0)]
    #[case::add_zero_sum_rdn(            "fadd.s",  B,                     B | 0x8000_0000,       0, RDN, B | 0x8000_0000, 0)]
    #[case::add_zero_sum_rup(            "fadd.s",  B,                     B | 0x8000_0000,       0, RUP, B,               0)]
    #[case::add_zero_sum_rmm(            "fadd.s",  B,                     B | 0x8000_0000,       0, RMM, B,               0)]
    #[case::sub_x_minus_x_rne(           "fsub.s",  B | 0x3fc0_0000,       B | 0x3fc0_0000,       0, RNE, B,               0)]
    #[case::sub_x_minus_x_rtz(           "fsub.s",  B | 0x3fc0_0000,       B | 0x3fc0_0000,       0, RTZ, B,               0)]
    #[case::sub_x_minus_x_rdn(           "fsub.s",  B | 0x3fc0_0000,       B | 0x3fc0_0000,       0, RDN, B | 0x8000_0000, 0)]
    #[case::sub_x_minus_x_rup(           "fsub.s",  B | 0x3fc0_0000,       B | 0x3fc0_0000,       0, RUP, B,               0)]
    #[case::sub_x_minus_x_rmm(           "fsub.s",  B | 0x3fc0_0000,       B | 0x3fc0_0000,       0, RMM, B,               0)]
    #[case::add_neg_zeros(               "fadd.s",  B | 0x8000_0000,       B | 0x8000_0000,       0, RNE, B | 0x8000_0000, 0)]
    #[case::add_subnormals(              "fadd.s",  B | 0x0000_0001,       B | 0x0000_0001,       0, RNE, B | 0x0000_0002, 0)]
    #[case::add_subnormal_to_normal(     "fadd.s",  B | 0x007f_ffff,       B | 0x0000_0001,       0, RNE, B | 0x0080_0000, 0)]
    #[case::add_inf_one(                 "fadd.s",  B | 0x7f80_0000,       B | 0x3f80_0000,       0, RNE, B | 0x7f80_0000, 0)]
    #[case::add_inf_minus_inf(           "fadd.s",  B | 0x7f80_0000,       B | 0xff80_0000,       0, RNE, B | 0x7fc0_0000, NV)]
    #[case::sub_inf_inf(                 "fsub.s",  B | 0x7f80_0000,       B | 0x7f80_0000,       0, RNE, B | 0x7fc0_0000, NV)]
    #[case::add_qnan(                    "fadd.s",  B | 0x7fc1_2345,       B | 0x3f80_0000,       0, RNE, B | 0x7fc0_0000, 0)]
    #[case::add_neg_qnan(                "fadd.s",  B | 0x3f80_0000,       B | 0xffc0_0000,       0, RNE, B | 0x7fc0_0000, 0)]
    #[case::add_snan(                    "fadd.s",  B | 0x7f80_0001,       B | 0x3f80_0000,       0, RNE, B | 0x7fc0_0000, NV)]
    #[case::add_snan_qnan(               "fadd.s",  B | 0x7fc0_0000,       B | 0xffa0_0000,       0, RNE, B | 0x7fc0_0000, NV)]
    #[case::add_bad_box(                 "fadd.s",  0x0000_0000_3f80_0000, B | 0x3f80_0000,       0, RNE, B | 0x7fc0_0000, 0)]
    #[case::add_almost_box(              "fadd.s",  B | 0x3f80_0000,       0xffff_fffe_3f80_0000, 0, RNE, B | 0x7fc0_0000, 0)]
    #[case::add_bad_box_sub(             "fsub.s",  B | 0x4000_0000,       0x7fff_ffff_3f80_0000, 0, RNE, B | 0x7fc0_0000, 0)]
    #[case::sub_exact(                   "fsub.s",  B | 0x4040_0000,       B | 0x3fa0_0000,       0, RNE, B | 0x3fe0_0000, 0)]
    #[case::sub_inexact_rne(             "fsub.s",  B | 0x3f80_0000,       B | 0x3300_0001,       0, RNE, B | 0x3f7f_ffff, NX)]
    #[case::sub_inexact_rtz(             "fsub.s",  B | 0x3f80_0000,       B | 0x3300_0001,       0, RTZ, B | 0x3f7f_ffff, NX)]
    #[case::sub_inexact_rdn(             "fsub.s",  B | 0x3f80_0000,       B | 0x3300_0001,       0, RDN, B | 0x3f7f_ffff, NX)]
    #[case::sub_inexact_rup(             "fsub.s",  B | 0x3f80_0000,       B | 0x3300_0001,       0, RUP, B | 0x3f80_0000, NX)]
    #[case::sub_inexact_rmm(             "fsub.s",  B | 0x3f80_0000,       B | 0x3300_0001,       0, RMM, B | 0x3f7f_ffff, NX)]
    #[case::mul_third_rne(               "fmul.s",  B | 0x3eaa_aaab,       B | 0x4040_0000,       0, RNE, B | 0x3f80_0000, NX)]
    #[case::mul_third_rtz(               "fmul.s",  B | 0x3eaa_aaab,       B | 0x4040_0000,       0, RTZ, B | 0x3f80_0000, NX)]
    #[case::mul_third_rdn(               "fmul.s",  B | 0x3eaa_aaab,       B | 0x4040_0000,       0, RDN, B | 0x3f80_0000, NX)]
    #[case::mul_third_rup(               "fmul.s",  B | 0x3eaa_aaab,       B | 0x4040_0000,       0, RUP, B | 0x3f80_0001, NX)]
    #[case::mul_third_rmm(               "fmul.s",  B | 0x3eaa_aaab,       B | 0x4040_0000,       0, RMM, B | 0x3f80_0000, NX)]
    #[case::mul_overflow_rne(            "fmul.s",  B | 0x7f7f_ffff,       B | 0xc000_0000,       0, RNE, B | 0xff80_0000, OF | NX)]
    #[case::mul_overflow_rtz(            "fmul.s",  B | 0x7f7f_ffff,       B | 0xc000_0000,       0, RTZ, B | 0xff7f_ffff, OF | NX)]
    #[case::mul_overflow_rdn(            "fmul.s",  B | 0x7f7f_ffff,       B | 0xc000_0000,       0, RDN, B | 0xff80_0000, OF | NX)]
    #[case::mul_overflow_rup(            "fmul.s",  B | 0x7f7f_ffff,       B | 0xc000_0000,       0, RUP, B | 0xff7f_ffff, OF | NX)]
    #[case::mul_overflow_rmm(            "fmul.s",  B | 0x7f7f_ffff,       B | 0xc000_0000,       0, RMM, B | 0xff80_0000, OF | NX)]
    #[case::mul_underflow_tie_rne(       "fmul.s",  B | 0x0000_0001,       B | 0x3f00_0000,       0, RNE, B,               UF | NX)]
    #[case::mul_underflow_tie_rtz(       "fmul.s",  B | 0x0000_0001,       B | 0x3f00_0000,       0, RTZ, B,               UF | NX)]
    #[case::mul_underflow_tie_rdn(       "fmul.s",  B | 0x0000_0001,       B | 0x3f00_0000,       0, RDN, B,               UF | NX)]
    #[case::mul_underflow_tie_rup(       "fmul.s",  B | 0x0000_0001,       B | 0x3f00_0000,       0, RUP, B | 0x0000_0001, UF | NX)]
    #[case::mul_underflow_tie_rmm(       "fmul.s",  B | 0x0000_0001,       B | 0x3f00_0000,       0, RMM, B | 0x0000_0001, UF | NX)]
    #[case::mul_tiny_after_rounding_rne( "fmul.s",  B | 0x3f80_0001,       B | 0x007f_ffff,       0, RNE, B | 0x0080_0000, NX)]
    #[case::mul_tiny_after_rounding_rtz( "fmul.s",  B | 0x3f80_0001,       B | 0x007f_ffff,       0, RTZ, B | 0x007f_ffff, UF | NX)]
    #[case::mul_tiny_after_rounding_rdn( "fmul.s",  B | 0x3f80_0001,       B | 0x007f_ffff,       0, RDN, B | 0x007f_ffff, UF | NX)]
    #[case::mul_tiny_after_rounding_rup( "fmul.s",  B | 0x3f80_0001,       B | 0x007f_ffff,       0, RUP, B | 0x0080_0000, NX)]
    #[case::mul_tiny_after_rounding_rmm( "fmul.s",  B | 0x3f80_0001,       B | 0x007f_ffff,       0, RMM, B | 0x0080_0000, NX)]
    #[case::mul_exact_subnormal(         "fmul.s",  B | 0x0080_0000,       B | 0x3f00_0000,       0, RNE, B | 0x0040_0000, 0)]
    #[case::mul_exact_neg_subnormal(     "fmul.s",  B | 0x8080_0000,       B | 0x3e80_0000,       0, RNE, B | 0x8020_0000, 0)]
    #[case::mul_zero_inf(                "fmul.s",  B,                     B | 0x7f80_0000,       0, RNE, B | 0x7fc0_0000, NV)]
    #[case::mul_negzero(                 "fmul.s",  B | 0x8000_0000,       B | 0x4040_0000,       0, RNE, B | 0x8000_0000, 0)]
    #[case::mul_inf_neg(                 "fmul.s",  B | 0x7f80_0000,       B | 0xc000_0000,       0, RNE, B | 0xff80_0000, 0)]
    #[case::mul_snan(                    "fmul.s",  B | 0x4000_0000,       B | 0x7f80_0001,       0, RNE, B | 0x7fc0_0000, NV)]
    #[case::div_one_third_rne(           "fdiv.s",  B | 0x3f80_0000,       B | 0x4040_0000,       0, RNE, B | 0x3eaa_aaab, NX)]
    #[case::div_one_third_rtz(           "fdiv.s",  B | 0x3f80_0000,       B | 0x4040_0000,       0, RTZ, B | 0x3eaa_aaaa, NX)]
    #[case::div_one_third_rdn(           "fdiv.s",  B | 0x3f80_0000,       B | 0x4040_0000,       0, RDN, B | 0x3eaa_aaaa, NX)]
    #[case::div_one_third_rup(           "fdiv.s",  B | 0x3f80_0000,       B | 0x4040_0000,       0, RUP, B | 0x3eaa_aaab, NX)]
    #[case::div_one_third_rmm(           "fdiv.s",  B | 0x3f80_0000,       B | 0x4040_0000,       0, RMM, B | 0x3eaa_aaab, NX)]
    #[case::div_neg_two_thirds_rne(      "fdiv.s",  B | 0xc000_0000,       B | 0x4040_0000,       0, RNE, B | 0xbf2a_aaab, NX)]
    #[case::div_neg_two_thirds_rtz(      "fdiv.s",  B | 0xc000_0000,       B | 0x4040_0000,       0, RTZ, B | 0xbf2a_aaaa, NX)]
    #[case::div_neg_two_thirds_rdn(      "fdiv.s",  B | 0xc000_0000,       B | 0x4040_0000,       0, RDN, B | 0xbf2a_aaab, NX)]
    #[case::div_neg_two_thirds_rup(      "fdiv.s",  B | 0xc000_0000,       B | 0x4040_0000,       0, RUP, B | 0xbf2a_aaaa, NX)]
    #[case::div_neg_two_thirds_rmm(      "fdiv.s",  B | 0xc000_0000,       B | 0x4040_0000,       0, RMM, B | 0xbf2a_aaab, NX)]
    #[case::div_by_zero(                 "fdiv.s",  B | 0x3f80_0000,       B,                     0, RNE, B | 0x7f80_0000, DZ)]
    #[case::div_by_neg_zero(             "fdiv.s",  B | 0x3f80_0000,       B | 0x8000_0000,       0, RNE, B | 0xff80_0000, DZ)]
    #[case::div_neg_by_zero(             "fdiv.s",  B | 0xbf80_0000,       B,                     0, RNE, B | 0xff80_0000, DZ)]
    #[case::div_zero_zero(               "fdiv.s",  B,                     B,                     0, RNE, B | 0x7fc0_0000, NV)]
    #[case::div_inf_inf(                 "fdiv.s",  B | 0x7f80_0000,       B | 0xff80_0000,       0, RNE, B | 0x7fc0_0000, NV)]
    #[case::div_inf_zero(                "fdiv.s",  B | 0x7f80_0000,       B,                     0, RNE, B | 0x7f80_0000, 0)]
    #[case::div_by_inf(                  "fdiv.s",  B | 0x3f80_0000,       B | 0xff80_0000,       0, RNE, B | 0x8000_0000, 0)]
    #[case::div_overflow(                "fdiv.s",  B | 0x7f7f_ffff,       B | 0x3f00_0000,       0, RNE, B | 0x7f80_0000, OF | NX)]
    #[case::div_underflow_rne(           "fdiv.s",  B | 0x0080_0000,       B | 0x4040_0000,       0, RNE, B | 0x002a_aaab, UF | NX)]
    #[case::div_underflow_rtz(           "fdiv.s",  B | 0x0080_0000,       B | 0x4040_0000,       0, RTZ, B | 0x002a_aaaa, UF | NX)]
    #[case::div_underflow_rdn(           "fdiv.s",  B | 0x0080_0000,       B | 0x4040_0000,       0, RDN, B | 0x002a_aaaa, UF | NX)]
    #[case::div_underflow_rup(           "fdiv.s",  B | 0x0080_0000,       B | 0x4040_0000,       0, RUP, B | 0x002a_aaab, UF | NX)]
    #[case::div_underflow_rmm(           "fdiv.s",  B | 0x0080_0000,       B | 0x4040_0000,       0, RMM, B | 0x002a_aaab, UF | NX)]
    #[case::div_qnan_by_zero(            "fdiv.s",  B | 0x7fc0_0000,       B,                     0, RNE, B | 0x7fc0_0000, 0)]
    #[case::sqrt_two_rne(                "fsqrt.s", B | 0x4000_0000,       0,                     0, RNE, B | 0x3fb5_04f3, NX)]
    #[case::sqrt_two_rtz(                "fsqrt.s", B | 0x4000_0000,       0,                     0, RTZ, B | 0x3fb5_04f3, NX)]
    #[case::sqrt_two_rdn(                "fsqrt.s", B | 0x4000_0000,       0,                     0, RDN, B | 0x3fb5_04f3, NX)]
    #[case::sqrt_two_rup(                "fsqrt.s", B | 0x4000_0000,       0,                     0, RUP, B | 0x3fb5_04f4, NX)]
    #[case::sqrt_two_rmm(                "fsqrt.s", B | 0x4000_0000,       0,                     0, RMM, B | 0x3fb5_04f3, NX)]
    #[case::sqrt_four(                   "fsqrt.s", B | 0x4080_0000,       0,                     0, RNE, B | 0x4000_0000, 0)]
    #[case::sqrt_neg_zero(               "fsqrt.s", B | 0x8000_0000,       0,                     0, RNE, B | 0x8000_0000, 0)]
    #[case::sqrt_inf(                    "fsqrt.s", B | 0x7f80_0000,       0,                     0, RNE, B | 0x7f80_0000, 0)]
    #[case::sqrt_neg_one(                "fsqrt.s", B | 0xbf80_0000,       0,                     0, RNE, B | 0x7fc0_0000, NV)]
    #[case::sqrt_neg_inf(                "fsqrt.s", B | 0xff80_0000,       0,                     0, RNE, B | 0x7fc0_0000, NV)]
    #[case::sqrt_min_subnormal(          "fsqrt.s", B | 0x0000_0001,       0,                     0, RNE, B | 0x1a35_04f3, NX)]
    #[case::sqrt_snan(                   "fsqrt.s", B | 0x7f80_0001,       0,                     0, RNE, B | 0x7fc0_0000, NV)]
    #[case::sqrt_neg_qnan(               "fsqrt.s", B | 0xffc0_0000,       0,                     0, RNE, B | 0x7fc0_0000, 0)]
    #[case::sqrt_bad_box(                "fsqrt.s", 0x0000_0000_4080_0000, 0,                     0, RNE, B | 0x7fc0_0000, 0)]
    #[rustfmt::skip]
    fn arith_s(
        #[case] op: &str,
        #[case] a: u64,
        #[case] b: u64,
        #[case] c: u64,
        #[case] rm: u8,
        #[case] want: u64,
        #[case] flags: u8,
    ) {
        check(op, a, b, c, rm, want, flags);
    }

    /// Spike-confirmed: fadd/fsub/fmul/fdiv/fsqrt.d: as `arith_s`, plus a boxed single read as a
    /// double.
    #[rstest]
    #[case::add_exact(                   "fadd.d",  0x3ff0_0000_0000_0000, 0x4000_0000_0000_0000, 0, RNE, 0x4008_0000_0000_0000, 0)]
    #[case::add_halfway_even_rne(        "fadd.d",  0x3ff0_0000_0000_0000, 0x3ca0_0000_0000_0000, 0, RNE, 0x3ff0_0000_0000_0000, NX)]
    #[case::add_halfway_even_rtz(        "fadd.d",  0x3ff0_0000_0000_0000, 0x3ca0_0000_0000_0000, 0, RTZ, 0x3ff0_0000_0000_0000, NX)]
    #[case::add_halfway_even_rdn(        "fadd.d",  0x3ff0_0000_0000_0000, 0x3ca0_0000_0000_0000, 0, RDN, 0x3ff0_0000_0000_0000, NX)]
    #[case::add_halfway_even_rup(        "fadd.d",  0x3ff0_0000_0000_0000, 0x3ca0_0000_0000_0000, 0, RUP, 0x3ff0_0000_0000_0001, NX)]
    #[case::add_halfway_even_rmm(        "fadd.d",  0x3ff0_0000_0000_0000, 0x3ca0_0000_0000_0000, 0, RMM, 0x3ff0_0000_0000_0001, NX)]
    #[case::add_halfway_odd_rne(         "fadd.d",  0x3ff0_0000_0000_0001, 0x3ca0_0000_0000_0000, 0, RNE, 0x3ff0_0000_0000_0002, NX)]
    #[case::add_halfway_odd_rtz(         "fadd.d",  0x3ff0_0000_0000_0001, 0x3ca0_0000_0000_0000, 0, RTZ, 0x3ff0_0000_0000_0001, NX)]
    #[case::add_halfway_odd_rdn(         "fadd.d",  0x3ff0_0000_0000_0001, 0x3ca0_0000_0000_0000, 0, RDN, 0x3ff0_0000_0000_0001, NX)]
    #[case::add_halfway_odd_rup(         "fadd.d",  0x3ff0_0000_0000_0001, 0x3ca0_0000_0000_0000, 0, RUP, 0x3ff0_0000_0000_0002, NX)]
    #[case::add_halfway_odd_rmm(         "fadd.d",  0x3ff0_0000_0000_0001, 0x3ca0_0000_0000_0000, 0, RMM, 0x3ff0_0000_0000_0002, NX)]
    #[case::add_neg_halfway_rne(         "fadd.d",  0xbff0_0000_0000_0000, 0xbca0_0000_0000_0000, 0, RNE, 0xbff0_0000_0000_0000, NX)]
    #[case::add_neg_halfway_rtz(         "fadd.d",  0xbff0_0000_0000_0000, 0xbca0_0000_0000_0000, 0, RTZ, 0xbff0_0000_0000_0000, NX)]
    #[case::add_neg_halfway_rdn(         "fadd.d",  0xbff0_0000_0000_0000, 0xbca0_0000_0000_0000, 0, RDN, 0xbff0_0000_0000_0001, NX)]
    #[case::add_neg_halfway_rup(         "fadd.d",  0xbff0_0000_0000_0000, 0xbca0_0000_0000_0000, 0, RUP, 0xbff0_0000_0000_0000, NX)]
    #[case::add_neg_halfway_rmm(         "fadd.d",  0xbff0_0000_0000_0000, 0xbca0_0000_0000_0000, 0, RMM, 0xbff0_0000_0000_0001, NX)]
    #[case::add_overflow_rne(            "fadd.d",  0x7fef_ffff_ffff_ffff, 0x7fef_ffff_ffff_ffff, 0, RNE, 0x7ff0_0000_0000_0000, OF | NX)]
    #[case::add_overflow_rtz(            "fadd.d",  0x7fef_ffff_ffff_ffff, 0x7fef_ffff_ffff_ffff, 0, RTZ, 0x7fef_ffff_ffff_ffff, OF | NX)]
    #[case::add_overflow_rdn(            "fadd.d",  0x7fef_ffff_ffff_ffff, 0x7fef_ffff_ffff_ffff, 0, RDN, 0x7fef_ffff_ffff_ffff, OF | NX)]
    #[case::add_overflow_rup(            "fadd.d",  0x7fef_ffff_ffff_ffff, 0x7fef_ffff_ffff_ffff, 0, RUP, 0x7ff0_0000_0000_0000, OF | NX)]
    #[case::add_overflow_rmm(            "fadd.d",  0x7fef_ffff_ffff_ffff, 0x7fef_ffff_ffff_ffff, 0, RMM, 0x7ff0_0000_0000_0000, OF | NX)]
    #[case::add_zero_sum_rne(            "fadd.d",  0,                     0x8000_0000_0000_0000, 0, RNE, 0,                     0)]
    #[case::add_zero_sum_rtz(            "fadd.d",  0,                     0x8000_0000_0000_0000, 0, RTZ, 0,                     0)]
    #[case::add_zero_sum_rdn(            "fadd.d",  0,                     0x8000_0000_0000_0000, 0, RDN, 0x8000_0000_0000_0000, 0)]
    #[case::add_zero_sum_rup(            "fadd.d",  0,                     0x8000_0000_0000_0000, 0, RUP, 0,                     0)]
    #[case::add_zero_sum_rmm(            "fadd.d",  0,                     0x8000_0000_0000_0000, 0, RMM, 0,                     0)]
    #[case::sub_x_minus_x_rne(           "fsub.d",  0x3fb9_9999_9999_999a, 0x3fb9_9999_9999_999a, 0, RNE, 0,                     0)]
    #[case::sub_x_minus_x_rtz(           "fsub.d",  0x3fb9_9999_9999_999a, 0x3fb9_9999_9999_999a, 0, RTZ, 0,                     0)]
    #[case::sub_x_minus_x_rdn(           "fsub.d",  0x3fb9_9999_9999_999a, 0x3fb9_9999_9999_999a, 0, RDN, 0x8000_0000_0000_0000, 0)]
    #[case::sub_x_minus_x_rup(           "fsub.d",  0x3fb9_9999_9999_999a, 0x3fb9_9999_9999_999a, 0, RUP, 0,                     0)]
    #[case::sub_x_minus_x_rmm(           "fsub.d",  0x3fb9_9999_9999_999a, 0x3fb9_9999_9999_999a, 0, RMM, 0,                     0)]
    #[case::add_subnormals(              "fadd.d",  0x0000_0000_0000_0001, 0x0000_0000_0000_0001, 0, RNE, 0x0000_0000_0000_0002, 0)]
    #[case::add_inf_minus_inf(           "fadd.d",  0x7ff0_0000_0000_0000, 0xfff0_0000_0000_0000, 0, RNE, 0x7ff8_0000_0000_0000, NV)]
    #[case::add_qnan(                    "fadd.d",  0x7ff8_0000_0000_beef, 0x3ff0_0000_0000_0000, 0, RNE, 0x7ff8_0000_0000_0000, 0)]
    #[case::add_snan(                    "fadd.d",  0x3ff0_0000_0000_0000, 0x7ff0_0000_0000_0001, 0, RNE, 0x7ff8_0000_0000_0000, NV)]
    #[case::add_neg_qnan(                "fadd.d",  0xfff8_0000_0000_0000, 0x3ff0_0000_0000_0000, 0, RNE, 0x7ff8_0000_0000_0000, 0)]
    #[case::add_boxed_single_is_nan(     "fadd.d",  0xffff_ffff_3f80_0000, 0x3ff0_0000_0000_0000, 0, RNE, 0x7ff8_0000_0000_0000, 0)]
    #[case::sub_tenth_rne(               "fsub.d",  0x3ff0_0000_0000_0000, 0x3fb9_9999_9999_999a, 0, RNE, 0x3fec_cccc_cccc_cccd, NX)]
    #[case::sub_tenth_rtz(               "fsub.d",  0x3ff0_0000_0000_0000, 0x3fb9_9999_9999_999a, 0, RTZ, 0x3fec_cccc_cccc_cccc, NX)]
    #[case::sub_tenth_rdn(               "fsub.d",  0x3ff0_0000_0000_0000, 0x3fb9_9999_9999_999a, 0, RDN, 0x3fec_cccc_cccc_cccc, NX)]
    #[case::sub_tenth_rup(               "fsub.d",  0x3ff0_0000_0000_0000, 0x3fb9_9999_9999_999a, 0, RUP, 0x3fec_cccc_cccc_cccd, NX)]
    #[case::sub_tenth_rmm(               "fsub.d",  0x3ff0_0000_0000_0000, 0x3fb9_9999_9999_999a, 0, RMM, 0x3fec_cccc_cccc_cccd, NX)]
    #[case::mul_overflow_rne(            "fmul.d",  0x7fef_ffff_ffff_ffff, 0xc000_0000_0000_0000, 0, RNE, 0xfff0_0000_0000_0000, OF | NX)]
    #[case::mul_overflow_rtz(            "fmul.d",  0x7fef_ffff_ffff_ffff, 0xc000_0000_0000_0000, 0, RTZ, 0xffef_ffff_ffff_ffff, OF | NX)]
    #[case::mul_overflow_rdn(            "fmul.d",  0x7fef_ffff_ffff_ffff, 0xc000_0000_0000_0000, 0, RDN, 0xfff0_0000_0000_0000, OF | NX)]
    #[case::mul_overflow_rup(            "fmul.d",  0x7fef_ffff_ffff_ffff, 0xc000_0000_0000_0000, 0, RUP, 0xffef_ffff_ffff_ffff, OF | NX)]
    #[case::mul_overflow_rmm(            "fmul.d",  0x7fef_ffff_ffff_ffff, 0xc000_0000_0000_0000, 0, RMM, 0xfff0_0000_0000_0000, OF | NX)]
    #[case::mul_underflow_tie_rne(       "fmul.d",  0x0000_0000_0000_0001, 0x3fe0_0000_0000_0000, 0, RNE, 0,                     UF | NX)]
    #[case::mul_underflow_tie_rtz(       "fmul.d",  0x0000_0000_0000_0001, 0x3fe0_0000_0000_0000, 0, RTZ, 0,                     UF | NX)]
    #[case::mul_underflow_tie_rdn(       "fmul.d",  0x0000_0000_0000_0001, 0x3fe0_0000_0000_0000, 0, RDN, 0,                     UF | NX)]
    #[case::mul_underflow_tie_rup(       "fmul.d",  0x0000_0000_0000_0001, 0x3fe0_0000_0000_0000, 0, RUP, 0x0000_0000_0000_0001, UF | NX)]
    #[case::mul_underflow_tie_rmm(       "fmul.d",  0x0000_0000_0000_0001, 0x3fe0_0000_0000_0000, 0, RMM, 0x0000_0000_0000_0001, UF | NX)]
    #[case::mul_tiny_after_rounding_rne( "fmul.d",  0x3ff0_0000_0000_0001, 0x000f_ffff_ffff_ffff, 0, RNE, 0x0010_0000_0000_0000, NX)]
    #[case::mul_tiny_after_rounding_rtz( "fmul.d",  0x3ff0_0000_0000_0001, 0x000f_ffff_ffff_ffff, 0, RTZ, 0x000f_ffff_ffff_ffff, UF | NX)]
    #[case::mul_tiny_after_rounding_rdn( "fmul.d",  0x3ff0_0000_0000_0001, 0x000f_ffff_ffff_ffff, 0, RDN, 0x000f_ffff_ffff_ffff, UF | NX)]
    #[case::mul_tiny_after_rounding_rup( "fmul.d",  0x3ff0_0000_0000_0001, 0x000f_ffff_ffff_ffff, 0, RUP, 0x0010_0000_0000_0000, NX)]
    #[case::mul_tiny_after_rounding_rmm( "fmul.d",  0x3ff0_0000_0000_0001, 0x000f_ffff_ffff_ffff, 0, RMM, 0x0010_0000_0000_0000, NX)]
    #[case::mul_exact_subnormal(         "fmul.d",  0x0010_0000_0000_0000, 0x3fe0_0000_0000_0000, 0, RNE, 0x0008_0000_0000_0000, 0)]
    #[case::mul_zero_inf(                "fmul.d",  0x8000_0000_0000_0000, 0x7ff0_0000_0000_0000, 0, RNE, 0x7ff8_0000_0000_0000, NV)]
    #[case::mul_negzero(                 "fmul.d",  0x8000_0000_0000_0000, 0x4008_0000_0000_0000, 0, RNE, 0x8000_0000_0000_0000, 0)]
    #[case::div_one_third_rne(           "fdiv.d",  0x3ff0_0000_0000_0000, 0x4008_0000_0000_0000, 0, RNE, 0x3fd5_5555_5555_5555, NX)]
    #[case::div_one_third_rtz(           "fdiv.d",  0x3ff0_0000_0000_0000, 0x4008_0000_0000_0000, 0, RTZ, 0x3fd5_5555_5555_5555, NX)]
    #[case::div_one_third_rdn(           "fdiv.d",  0x3ff0_0000_0000_0000, 0x4008_0000_0000_0000, 0, RDN, 0x3fd5_5555_5555_5555, NX)]
    #[case::div_one_third_rup(           "fdiv.d",  0x3ff0_0000_0000_0000, 0x4008_0000_0000_0000, 0, RUP, 0x3fd5_5555_5555_5556, NX)]
    #[case::div_one_third_rmm(           "fdiv.d",  0x3ff0_0000_0000_0000, 0x4008_0000_0000_0000, 0, RMM, 0x3fd5_5555_5555_5555, NX)]
    #[case::div_neg_one_third_rne(       "fdiv.d",  0xbff0_0000_0000_0000, 0x4008_0000_0000_0000, 0, RNE, 0xbfd5_5555_5555_5555, NX)]
    #[case::div_neg_one_third_rtz(       "fdiv.d",  0xbff0_0000_0000_0000, 0x4008_0000_0000_0000, 0, RTZ, 0xbfd5_5555_5555_5555, NX)]
    #[case::div_neg_one_third_rdn(       "fdiv.d",  0xbff0_0000_0000_0000, 0x4008_0000_0000_0000, 0, RDN, 0xbfd5_5555_5555_5556, NX)]
    #[case::div_neg_one_third_rup(       "fdiv.d",  0xbff0_0000_0000_0000, 0x4008_0000_0000_0000, 0, RUP, 0xbfd5_5555_5555_5555, NX)]
    #[case::div_neg_one_third_rmm(       "fdiv.d",  0xbff0_0000_0000_0000, 0x4008_0000_0000_0000, 0, RMM, 0xbfd5_5555_5555_5555, NX)]
    #[case::div_by_zero(                 "fdiv.d",  0x3ff0_0000_0000_0000, 0,                     0, RNE, 0x7ff0_0000_0000_0000, DZ)]
    #[case::div_by_neg_zero(             "fdiv.d",  0x3ff0_0000_0000_0000, 0x8000_0000_0000_0000, 0, RNE, 0xfff0_0000_0000_0000, DZ)]
    #[case::div_zero_zero(               "fdiv.d",  0x8000_0000_0000_0000, 0,                     0, RNE, 0x7ff8_0000_0000_0000, NV)]
    #[case::div_inf_inf(                 "fdiv.d",  0x7ff0_0000_0000_0000, 0x7ff0_0000_0000_0000, 0, RNE, 0x7ff8_0000_0000_0000, NV)]
    #[case::div_snan_zero(               "fdiv.d",  0x7ff0_0000_0000_0001, 0,                     0, RNE, 0x7ff8_0000_0000_0000, NV)]
    #[case::div_underflow_rne(           "fdiv.d",  0x0010_0000_0000_0000, 0x4008_0000_0000_0000, 0, RNE, 0x0005_5555_5555_5555, UF | NX)]
    #[case::div_underflow_rtz(           "fdiv.d",  0x0010_0000_0000_0000, 0x4008_0000_0000_0000, 0, RTZ, 0x0005_5555_5555_5555, UF | NX)]
    #[case::div_underflow_rdn(           "fdiv.d",  0x0010_0000_0000_0000, 0x4008_0000_0000_0000, 0, RDN, 0x0005_5555_5555_5555, UF | NX)]
    #[case::div_underflow_rup(           "fdiv.d",  0x0010_0000_0000_0000, 0x4008_0000_0000_0000, 0, RUP, 0x0005_5555_5555_5556, UF | NX)]
    #[case::div_underflow_rmm(           "fdiv.d",  0x0010_0000_0000_0000, 0x4008_0000_0000_0000, 0, RMM, 0x0005_5555_5555_5555, UF | NX)]
    #[case::sqrt_two_rne(                "fsqrt.d", 0x4000_0000_0000_0000, 0,                     0, RNE, 0x3ff6_a09e_667f_3bcd, NX)]
    #[case::sqrt_two_rtz(                "fsqrt.d", 0x4000_0000_0000_0000, 0,                     0, RTZ, 0x3ff6_a09e_667f_3bcc, NX)]
    #[case::sqrt_two_rdn(                "fsqrt.d", 0x4000_0000_0000_0000, 0,                     0, RDN, 0x3ff6_a09e_667f_3bcc, NX)]
    #[case::sqrt_two_rup(                "fsqrt.d", 0x4000_0000_0000_0000, 0,                     0, RUP, 0x3ff6_a09e_667f_3bcd, NX)]
    #[case::sqrt_two_rmm(                "fsqrt.d", 0x4000_0000_0000_0000, 0,                     0, RMM, 0x3ff6_a09e_667f_3bcd, NX)]
    #[case::sqrt_neg_zero(               "fsqrt.d", 0x8000_0000_0000_0000, 0,                     0, RNE, 0x8000_0000_0000_0000, 0)]
    #[case::sqrt_neg(                    "fsqrt.d", 0xc010_0000_0000_0000, 0,                     0, RNE, 0x7ff8_0000_0000_0000, NV)]
    #[case::sqrt_inf(                    "fsqrt.d", 0x7ff0_0000_0000_0000, 0,                     0, RNE, 0x7ff0_0000_0000_0000, 0)]
    #[case::sqrt_subnormal(              "fsqrt.d", 0x0000_0000_0000_0001, 0,                     0, RNE, 0x1e60_0000_0000_0000, 0)]
    #[case::sqrt_snan(                   "fsqrt.d", 0x7ff0_0000_0000_0001, 0,                     0, RNE, 0x7ff8_0000_0000_0000, NV)]
    #[rustfmt::skip]
    fn arith_d(
        #[case] op: &str,
        #[case] a: u64,
        #[case] b: u64,
        #[case] c: u64,
        #[case] rm: u8,
        #[case] want: u64,
        #[case] flags: u8,
    ) {
        check(op, a, b, c, rm, want, flags);
    }

    /// Spike-confirmed: fmadd/fmsub/fnmsub/fnmadd.s: single rounding, signs of exact zeros per
    /// mode, inf*0 + qNaN raising NV, NaN results not sign-flipped, overflow and underflow.
    #[rstest]
    #[case::madd_exact(           "fmadd.s",  B | 0x4000_0000, B | 0x4040_0000, B | 0x3f80_0000,       RNE, B | 0x40e0_0000, 0)]
    #[case::msub_exact(           "fmsub.s",  B | 0x4000_0000, B | 0x4040_0000, B | 0x3f80_0000,       RNE, B | 0x40a0_0000, 0)]
    #[case::nmsub_exact(          "fnmsub.s", B | 0x4000_0000, B | 0x4040_0000, B | 0x3f80_0000,       RNE, B | 0xc0a0_0000, 0)]
    #[case::nmadd_exact(          "fnmadd.s", B | 0x4000_0000, B | 0x4040_0000, B | 0x3f80_0000,       RNE, B | 0xc0e0_0000, 0)]
    #[case::madd_single_rounding( "fmadd.s",  B | 0x3f80_0001, B | 0x3f80_0001, B | 0xbf80_0002,       RNE, B | 0x2880_0000, 0)]
    #[case::msub_single_rounding( "fmsub.s",  B | 0x3f80_0001, B | 0x3f80_0001, B | 0x3f80_0002,       RNE, B | 0x2880_0000, 0)]
    #[case::madd_halfway_rne(     "fmadd.s",  B | 0x3f80_0000, B | 0x3f80_0000, B | 0x3380_0000,       RNE, B | 0x3f80_0000, NX)]
    #[case::madd_halfway_rtz(     "fmadd.s",  B | 0x3f80_0000, B | 0x3f80_0000, B | 0x3380_0000,       RTZ, B | 0x3f80_0000, NX)]
    #[case::madd_halfway_rdn(     "fmadd.s",  B | 0x3f80_0000, B | 0x3f80_0000, B | 0x3380_0000,       RDN, B | 0x3f80_0000, NX)]
    #[case::madd_halfway_rup(     "fmadd.s",  B | 0x3f80_0000, B | 0x3f80_0000, B | 0x3380_0000,       RUP, B | 0x3f80_0001, NX)]
    #[case::madd_halfway_rmm(     "fmadd.s",  B | 0x3f80_0000, B | 0x3f80_0000, B | 0x3380_0000,       RMM, B | 0x3f80_0001, NX)]
    #[case::nmadd_halfway_rne(    "fnmadd.s", B | 0x3f80_0000, B | 0x3f80_0000, B | 0x3380_0000,       RNE, B | 0xbf80_0000, NX)]
    #[case::nmadd_halfway_rtz(    "fnmadd.s", B | 0x3f80_0000, B | 0x3f80_0000, B | 0x3380_0000,       RTZ, B | 0xbf80_0000, NX)]
    #[case::nmadd_halfway_rdn(    "fnmadd.s", B | 0x3f80_0000, B | 0x3f80_0000, B | 0x3380_0000,       RDN, B | 0xbf80_0001, NX)]
    #[case::nmadd_halfway_rup(    "fnmadd.s", B | 0x3f80_0000, B | 0x3f80_0000, B | 0x3380_0000,       RUP, B | 0xbf80_0000, NX)]
    #[case::nmadd_halfway_rmm(    "fnmadd.s", B | 0x3f80_0000, B | 0x3f80_0000, B | 0x3380_0000,       RMM, B | 0xbf80_0001, NX)]
    #[case::madd_zero_sum_rne(    "fmadd.s",  B | 0x3f80_0000, B,               B | 0x8000_0000,       RNE, B,               0)]
    #[case::madd_zero_sum_rtz(    "fmadd.s",  B | 0x3f80_0000, B,               B | 0x8000_0000,       RTZ, B,               0)]
    #[case::madd_zero_sum_rdn(    "fmadd.s",  B | 0x3f80_0000, B,               B | 0x8000_0000,       RDN, B | 0x8000_0000, 0)]
    #[case::madd_zero_sum_rup(    "fmadd.s",  B | 0x3f80_0000, B,               B | 0x8000_0000,       RUP, B,               0)]
    #[case::madd_zero_sum_rmm(    "fmadd.s",  B | 0x3f80_0000, B,               B | 0x8000_0000,       RMM, B,               0)]
    #[case::msub_zero_sum_rne(    "fmsub.s",  B | 0x3f80_0000, B,               B,                     RNE, B,               0)]
    #[case::msub_zero_sum_rtz(    "fmsub.s",  B | 0x3f80_0000, B,               B,                     RTZ, B,               0)]
    #[case::msub_zero_sum_rdn(    "fmsub.s",  B | 0x3f80_0000, B,               B,                     RDN, B | 0x8000_0000, 0)]
    #[case::msub_zero_sum_rup(    "fmsub.s",  B | 0x3f80_0000, B,               B,                     RUP, B,               0)]
    #[case::msub_zero_sum_rmm(    "fmsub.s",  B | 0x3f80_0000, B,               B,                     RMM, B,               0)]
    #[case::nmsub_zero_sum_rne(   "fnmsub.s", B | 0x3f80_0000, B,               B,                     RNE, B,               0)]
    #[case::nmsub_zero_sum_rtz(   "fnmsub.s", B | 0x3f80_0000, B,               B,                     RTZ, B,               0)]
    #[case::nmsub_zero_sum_rdn(   "fnmsub.s", B | 0x3f80_0000, B,               B,                     RDN, B | 0x8000_0000, 0)]
    #[case::nmsub_zero_sum_rup(   "fnmsub.s", B | 0x3f80_0000, B,               B,                     RUP, B,               0)]
    #[case::nmsub_zero_sum_rmm(   "fnmsub.s", B | 0x3f80_0000, B,               B,                     RMM, B,               0)]
    #[case::nmadd_zero_sum_rne(   "fnmadd.s", B | 0x3f80_0000, B,               B,                     RNE, B | 0x8000_0000, 0)]
    #[case::nmadd_zero_sum_rtz(   "fnmadd.s", B | 0x3f80_0000, B,               B,                     RTZ, B | 0x8000_0000, 0)]
    #[case::nmadd_zero_sum_rdn(   "fnmadd.s", B | 0x3f80_0000, B,               B,                     RDN, B | 0x8000_0000, 0)]
    #[case::nmadd_zero_sum_rup(   "fnmadd.s", B | 0x3f80_0000, B,               B,                     RUP, B | 0x8000_0000, 0)]
    #[case::nmadd_zero_sum_rmm(   "fnmadd.s", B | 0x3f80_0000, B,               B,                     RMM, B | 0x8000_0000, 0)]
    #[case::madd_overflow_rne(    "fmadd.s",  B | 0x7f7f_ffff, B | 0x4000_0000, B | 0x3f80_0000,       RNE, B | 0x7f80_0000, OF | NX)]
    #[case::madd_overflow_rtz(    "fmadd.s",  B | 0x7f7f_ffff, B | 0x4000_0000, B | 0x3f80_0000,       RTZ, B | 0x7f7f_ffff, OF | NX)]
    #[case::madd_overflow_rdn(    "fmadd.s",  B | 0x7f7f_ffff, B | 0x4000_0000, B | 0x3f80_0000,       RDN, B | 0x7f7f_ffff, OF | NX)]
    #[case::madd_overflow_rup(    "fmadd.s",  B | 0x7f7f_ffff, B | 0x4000_0000, B | 0x3f80_0000,       RUP, B | 0x7f80_0000, OF | NX)]
    #[case::madd_overflow_rmm(    "fmadd.s",  B | 0x7f7f_ffff, B | 0x4000_0000, B | 0x3f80_0000,       RMM, B | 0x7f80_0000, OF | NX)]
    #[case::nmsub_underflow_rne(  "fnmsub.s", B | 0x0080_0000, B | 0x3f00_0001, B,                     RNE, B | 0x8040_0000, UF | NX)]
    #[case::nmsub_underflow_rtz(  "fnmsub.s", B | 0x0080_0000, B | 0x3f00_0001, B,                     RTZ, B | 0x8040_0000, UF | NX)]
    #[case::nmsub_underflow_rdn(  "fnmsub.s", B | 0x0080_0000, B | 0x3f00_0001, B,                     RDN, B | 0x8040_0001, UF | NX)]
    #[case::nmsub_underflow_rup(  "fnmsub.s", B | 0x0080_0000, B | 0x3f00_0001, B,                     RUP, B | 0x8040_0000, UF | NX)]
    #[case::nmsub_underflow_rmm(  "fnmsub.s", B | 0x0080_0000, B | 0x3f00_0001, B,                     RMM, B | 0x8040_0001, UF | NX)]
    #[case::madd_inf_zero_qnan(   "fmadd.s",  B | 0x7f80_0000, B,               B | 0x7fc0_0000,       RNE, B | 0x7fc0_0000, NV)]
    #[case::madd_zero_inf_qnan(   "fmadd.s",  B,               B | 0xff80_0000, B | 0x7fc1_2345,       RNE, B | 0x7fc0_0000, NV)]
    #[case::madd_inf_zero_one(    "fmadd.s",  B | 0x7f80_0000, B,               B | 0x3f80_0000,       RNE, B | 0x7fc0_0000, NV)]
    #[case::madd_inf_minus_inf(   "fmadd.s",  B | 0x7f80_0000, B | 0x3f80_0000, B | 0xff80_0000,       RNE, B | 0x7fc0_0000, NV)]
    #[case::msub_inf_inf(         "fmsub.s",  B | 0x7f80_0000, B | 0x3f80_0000, B | 0x7f80_0000,       RNE, B | 0x7fc0_0000, NV)]
    #[case::madd_qnan_a(          "fmadd.s",  B | 0x7fc0_0000, B | 0x3f80_0000, B | 0x3f80_0000,       RNE, B | 0x7fc0_0000, 0)]
    #[case::nmadd_qnan_c(         "fnmadd.s", B | 0x3f80_0000, B | 0x3f80_0000, B | 0x7fc1_2345,       RNE, B | 0x7fc0_0000, 0)]
    #[case::nmsub_snan_c(         "fnmsub.s", B | 0x3f80_0000, B | 0x3f80_0000, B | 0x7f80_0001,       RNE, B | 0x7fc0_0000, NV)]
    #[case::msub_snan_b(          "fmsub.s",  B | 0x3f80_0000, B | 0xffa0_0000, B | 0x3f80_0000,       RNE, B | 0x7fc0_0000, NV)]
    #[case::madd_bad_box_c(       "fmadd.s",  B | 0x3f80_0000, B | 0x3f80_0000, 0x0000_0000_3f80_0000, RNE, B | 0x7fc0_0000, 0)]
    #[case::madd_inf_plus(        "fmadd.s",  B | 0x7f80_0000, B | 0x4000_0000, B | 0xc0a0_0000,       RNE, B | 0x7f80_0000, 0)]
    #[rustfmt::skip]
    fn fma_s(
        #[case] op: &str,
        #[case] a: u64,
        #[case] b: u64,
        #[case] c: u64,
        #[case] rm: u8,
        #[case] want: u64,
        #[case] flags: u8,
    ) {
        check(op, a, b, c, rm, want, flags);
    }

    /// Spike-confirmed: fmadd/fmsub/fnmsub/fnmadd.d: as `fma_s`.
    #[rstest]
    #[case::madd_exact(           "fmadd.d",  0x4000_0000_0000_0000, 0x4008_0000_0000_0000, 0x3ff0_0000_0000_0000, RNE, 0x401c_0000_0000_0000, 0)]
    #[case::msub_exact(           "fmsub.d",  0x4000_0000_0000_0000, 0x4008_0000_0000_0000, 0x3ff0_0000_0000_0000, RNE, 0x4014_0000_0000_0000, 0)]
    #[case::nmsub_exact(          "fnmsub.d", 0x4000_0000_0000_0000, 0x4008_0000_0000_0000, 0x3ff0_0000_0000_0000, RNE, 0xc014_0000_0000_0000, 0)]
    #[case::nmadd_exact(          "fnmadd.d", 0x4000_0000_0000_0000, 0x4008_0000_0000_0000, 0x3ff0_0000_0000_0000, RNE, 0xc01c_0000_0000_0000, 0)]
    #[case::madd_single_rounding( "fmadd.d",  0x3ff0_0000_0000_0001, 0x3ff0_0000_0000_0001, 0xbff0_0000_0000_0002, RNE, 0x3970_0000_0000_0000, 0)]
    #[case::madd_halfway_rne(     "fmadd.d",  0x3ff0_0000_0000_0000, 0x3ff0_0000_0000_0000, 0x3ca0_0000_0000_0000, RNE, 0x3ff0_0000_0000_0000, NX)]
    #[case::madd_halfway_rtz(     "fmadd.d",  0x3ff0_0000_0000_0000, 0x3ff0_0000_0000_0000, 0x3ca0_0000_0000_0000, RTZ, 0x3ff0_0000_0000_0000, NX)]
    #[case::madd_halfway_rdn(     "fmadd.d",  0x3ff0_0000_0000_0000, 0x3ff0_0000_0000_0000, 0x3ca0_0000_0000_0000, RDN, 0x3ff0_0000_0000_0000, NX)]
    #[case::madd_halfway_rup(     "fmadd.d",  0x3ff0_0000_0000_0000, 0x3ff0_0000_0000_0000, 0x3ca0_0000_0000_0000, RUP, 0x3ff0_0000_0000_0001, NX)]
    #[case::madd_halfway_rmm(     "fmadd.d",  0x3ff0_0000_0000_0000, 0x3ff0_0000_0000_0000, 0x3ca0_0000_0000_0000, RMM, 0x3ff0_0000_0000_0001, NX)]
    #[case::msub_zero_sum_rne(    "fmsub.d",  0x3ff0_0000_0000_0000, 0,                     0,                     RNE, 0,                     0)]
    #[case::msub_zero_sum_rtz(    "fmsub.d",  0x3ff0_0000_0000_0000, 0,                     0,                     RTZ, 0,                     0)]
    #[case::msub_zero_sum_rdn(    "fmsub.d",  0x3ff0_0000_0000_0000, 0,                     0,                     RDN, 0x8000_0000_0000_0000, 0)]
    #[case::msub_zero_sum_rup(    "fmsub.d",  0x3ff0_0000_0000_0000, 0,                     0,                     RUP, 0,                     0)]
    #[case::msub_zero_sum_rmm(    "fmsub.d",  0x3ff0_0000_0000_0000, 0,                     0,                     RMM, 0,                     0)]
    #[case::nmadd_zero_sum_rne(   "fnmadd.d", 0x3ff0_0000_0000_0000, 0,                     0,                     RNE, 0x8000_0000_0000_0000, 0)]
    #[case::nmadd_zero_sum_rtz(   "fnmadd.d", 0x3ff0_0000_0000_0000, 0,                     0,                     RTZ, 0x8000_0000_0000_0000, 0)]
    #[case::nmadd_zero_sum_rdn(   "fnmadd.d", 0x3ff0_0000_0000_0000, 0,                     0,                     RDN, 0x8000_0000_0000_0000, 0)]
    #[case::nmadd_zero_sum_rup(   "fnmadd.d", 0x3ff0_0000_0000_0000, 0,                     0,                     RUP, 0x8000_0000_0000_0000, 0)]
    #[case::nmadd_zero_sum_rmm(   "fnmadd.d", 0x3ff0_0000_0000_0000, 0,                     0,                     RMM, 0x8000_0000_0000_0000, 0)]
    #[case::nmadd_overflow_rne(   "fnmadd.d", 0x7fef_ffff_ffff_ffff, 0x4000_0000_0000_0000, 0x3ff0_0000_0000_0000, RNE, 0xfff0_0000_0000_0000, OF | NX)]
    #[case::nmadd_overflow_rtz(   "fnmadd.d", 0x7fef_ffff_ffff_ffff, 0x4000_0000_0000_0000, 0x3ff0_0000_0000_0000, RTZ, 0xffef_ffff_ffff_ffff, OF | NX)]
    #[case::nmadd_overflow_rdn(   "fnmadd.d", 0x7fef_ffff_ffff_ffff, 0x4000_0000_0000_0000, 0x3ff0_0000_0000_0000, RDN, 0xfff0_0000_0000_0000, OF | NX)]
    #[case::nmadd_overflow_rup(   "fnmadd.d", 0x7fef_ffff_ffff_ffff, 0x4000_0000_0000_0000, 0x3ff0_0000_0000_0000, RUP, 0xffef_ffff_ffff_ffff, OF | NX)]
    #[case::nmadd_overflow_rmm(   "fnmadd.d", 0x7fef_ffff_ffff_ffff, 0x4000_0000_0000_0000, 0x3ff0_0000_0000_0000, RMM, 0xfff0_0000_0000_0000, OF | NX)]
    #[case::madd_underflow_rne(   "fmadd.d",  0x0010_0000_0000_0000, 0x3fe0_0000_0000_0001, 0,                     RNE, 0x0008_0000_0000_0000, UF | NX)]
    #[case::madd_underflow_rtz(   "fmadd.d",  0x0010_0000_0000_0000, 0x3fe0_0000_0000_0001, 0,                     RTZ, 0x0008_0000_0000_0000, UF | NX)]
    #[case::madd_underflow_rdn(   "fmadd.d",  0x0010_0000_0000_0000, 0x3fe0_0000_0000_0001, 0,                     RDN, 0x0008_0000_0000_0000, UF | NX)]
    #[case::madd_underflow_rup(   "fmadd.d",  0x0010_0000_0000_0000, 0x3fe0_0000_0000_0001, 0,                     RUP, 0x0008_0000_0000_0001, UF | NX)]
    #[case::madd_underflow_rmm(   "fmadd.d",  0x0010_0000_0000_0000, 0x3fe0_0000_0000_0001, 0,                     RMM, 0x0008_0000_0000_0001, UF | NX)]
    #[case::madd_inf_zero_qnan(   "fmadd.d",  0x7ff0_0000_0000_0000, 0x8000_0000_0000_0000, 0x7ff8_0000_0000_0000, RNE, 0x7ff8_0000_0000_0000, NV)]
    #[case::nmsub_inf_minus_inf(  "fnmsub.d", 0x7ff0_0000_0000_0000, 0x3ff0_0000_0000_0000, 0x7ff0_0000_0000_0000, RNE, 0x7ff8_0000_0000_0000, NV)]
    #[case::madd_snan(            "fmadd.d",  0x7ff0_0000_0000_0001, 0x3ff0_0000_0000_0000, 0x3ff0_0000_0000_0000, RNE, 0x7ff8_0000_0000_0000, NV)]
    #[case::nmadd_qnan_c(         "fnmadd.d", 0x3ff0_0000_0000_0000, 0x3ff0_0000_0000_0000, 0x7ff8_0000_0000_beef, RNE, 0x7ff8_0000_0000_0000, 0)]
    #[rustfmt::skip]
    fn fma_d(
        #[case] op: &str,
        #[case] a: u64,
        #[case] b: u64,
        #[case] c: u64,
        #[case] rm: u8,
        #[case] want: u64,
        #[case] flags: u8,
    ) {
        check(op, a, b, c, rm, want, flags);
    }

    /// Spike-confirmed: fmin/fmax (2.2 rules): -0 < +0, one NaN gives the other operand, two give
    /// the canonical NaN, any sNaN raises NV; an improperly boxed operand is a quiet NaN.
    #[rstest]
    #[case::min_s_nz_pz(        "fmin.s", B | 0x8000_0000,       B,                     0, RNE, B | 0x8000_0000,       0)]
    #[case::min_s_pz_nz(        "fmin.s", B,                     B | 0x8000_0000,       0, RNE, B | 0x8000_0000,       0)]
    #[case::min_s_1_2(          "fmin.s", B | 0x3f80_0000,       B | 0x4000_0000,       0, RNE, B | 0x3f80_0000,       0)]
    #[case::min_s_2_1(          "fmin.s", B | 0x4000_0000,       B | 0x3f80_0000,       0, RNE, B | 0x3f80_0000,       0)]
    #[case::min_s_equal(        "fmin.s", B | 0x3f80_0000,       B | 0x3f80_0000,       0, RNE, B | 0x3f80_0000,       0)]
    #[case::min_s_ninf_1(       "fmin.s", B | 0xff80_0000,       B | 0x3f80_0000,       0, RNE, B | 0xff80_0000,       0)]
    #[case::min_s_qnan_1(       "fmin.s", B | 0x7fc1_2345,       B | 0x3f80_0000,       0, RNE, B | 0x3f80_0000,       0)]
    #[case::min_s_1_qnan(       "fmin.s", B | 0x3f80_0000,       B | 0x7fc0_0000,       0, RNE, B | 0x3f80_0000,       0)]
    #[case::min_s_neg_qnan_1(   "fmin.s", B | 0xffc0_0000,       B | 0x3f80_0000,       0, RNE, B | 0x3f80_0000,       0)]
    #[case::min_s_snan_1(       "fmin.s", B | 0x7f80_0001,       B | 0x3f80_0000,       0, RNE, B | 0x3f80_0000,       NV)]
    #[case::min_s_1_snan(       "fmin.s", B | 0x3f80_0000,       B | 0x7f80_0001,       0, RNE, B | 0x3f80_0000,       NV)]
    #[case::min_s_qnan_qnan(    "fmin.s", B | 0x7fc1_2345,       B | 0x7fc0_0000,       0, RNE, B | 0x7fc0_0000,       0)]
    #[case::min_s_snan_qnan(    "fmin.s", B | 0x7f80_0001,       B | 0x7fc1_2345,       0, RNE, B | 0x7fc0_0000,       NV)]
    #[case::min_s_qnan_snan(    "fmin.s", B | 0x7fc0_0000,       B | 0x7f80_0001,       0, RNE, B | 0x7fc0_0000,       NV)]
    #[case::min_s_snan_snan(    "fmin.s", B | 0x7f80_0001,       B | 0x7f80_0001,       0, RNE, B | 0x7fc0_0000,       NV)]
    #[case::min_s_snan_nz(      "fmin.s", B | 0x7f80_0001,       B | 0x8000_0000,       0, RNE, B | 0x8000_0000,       NV)]
    #[case::min_s_bad_box_2(    "fmin.s", 0x0000_0000_3f80_0000, B | 0x4000_0000,       0, RNE, B | 0x4000_0000,       0)]
    #[case::min_s_bad_box_snan( "fmin.s", 0x0000_0000_3f80_0000, B | 0x7f80_0001,       0, RNE, B | 0x7fc0_0000,       NV)]
    #[case::max_s_nz_pz(        "fmax.s", B | 0x8000_0000,       B,                     0, RNE, B,                     0)]
    #[case::max_s_pz_nz(        "fmax.s", B,                     B | 0x8000_0000,       0, RNE, B,                     0)]
    #[case::max_s_1_2(          "fmax.s", B | 0x3f80_0000,       B | 0x4000_0000,       0, RNE, B | 0x4000_0000,       0)]
    #[case::max_s_2_1(          "fmax.s", B | 0x4000_0000,       B | 0x3f80_0000,       0, RNE, B | 0x4000_0000,       0)]
    #[case::max_s_equal(        "fmax.s", B | 0x3f80_0000,       B | 0x3f80_0000,       0, RNE, B | 0x3f80_0000,       0)]
    #[case::max_s_ninf_1(       "fmax.s", B | 0xff80_0000,       B | 0x3f80_0000,       0, RNE, B | 0x3f80_0000,       0)]
    #[case::max_s_qnan_1(       "fmax.s", B | 0x7fc1_2345,       B | 0x3f80_0000,       0, RNE, B | 0x3f80_0000,       0)]
    #[case::max_s_1_qnan(       "fmax.s", B | 0x3f80_0000,       B | 0x7fc0_0000,       0, RNE, B | 0x3f80_0000,       0)]
    #[case::max_s_neg_qnan_1(   "fmax.s", B | 0xffc0_0000,       B | 0x3f80_0000,       0, RNE, B | 0x3f80_0000,       0)]
    #[case::max_s_snan_1(       "fmax.s", B | 0x7f80_0001,       B | 0x3f80_0000,       0, RNE, B | 0x3f80_0000,       NV)]
    #[case::max_s_1_snan(       "fmax.s", B | 0x3f80_0000,       B | 0x7f80_0001,       0, RNE, B | 0x3f80_0000,       NV)]
    #[case::max_s_qnan_qnan(    "fmax.s", B | 0x7fc1_2345,       B | 0x7fc0_0000,       0, RNE, B | 0x7fc0_0000,       0)]
    #[case::max_s_snan_qnan(    "fmax.s", B | 0x7f80_0001,       B | 0x7fc1_2345,       0, RNE, B | 0x7fc0_0000,       NV)]
    #[case::max_s_qnan_snan(    "fmax.s", B | 0x7fc0_0000,       B | 0x7f80_0001,       0, RNE, B | 0x7fc0_0000,       NV)]
    #[case::max_s_snan_snan(    "fmax.s", B | 0x7f80_0001,       B | 0x7f80_0001,       0, RNE, B | 0x7fc0_0000,       NV)]
    #[case::max_s_snan_nz(      "fmax.s", B | 0x7f80_0001,       B | 0x8000_0000,       0, RNE, B | 0x8000_0000,       NV)]
    #[case::max_s_bad_box_2(    "fmax.s", 0x0000_0000_3f80_0000, B | 0x4000_0000,       0, RNE, B | 0x4000_0000,       0)]
    #[case::max_s_bad_box_snan( "fmax.s", 0x0000_0000_3f80_0000, B | 0x7f80_0001,       0, RNE, B | 0x7fc0_0000,       NV)]
    #[case::min_d_nz_pz(        "fmin.d", 0x8000_0000_0000_0000, 0,                     0, RNE, 0x8000_0000_0000_0000, 0)]
    #[case::min_d_pz_nz(        "fmin.d", 0,                     0x8000_0000_0000_0000, 0, RNE, 0x8000_0000_0000_0000, 0)]
    #[case::min_d_1_2(          "fmin.d", 0x3ff0_0000_0000_0000, 0x4000_0000_0000_0000, 0, RNE, 0x3ff0_0000_0000_0000, 0)]
    #[case::min_d_2_1(          "fmin.d", 0x4000_0000_0000_0000, 0x3ff0_0000_0000_0000, 0, RNE, 0x3ff0_0000_0000_0000, 0)]
    #[case::min_d_equal(        "fmin.d", 0x3ff0_0000_0000_0000, 0x3ff0_0000_0000_0000, 0, RNE, 0x3ff0_0000_0000_0000, 0)]
    #[case::min_d_ninf_1(       "fmin.d", 0xfff0_0000_0000_0000, 0x3ff0_0000_0000_0000, 0, RNE, 0xfff0_0000_0000_0000, 0)]
    #[case::min_d_qnan_1(       "fmin.d", 0x7ff8_0000_0000_beef, 0x3ff0_0000_0000_0000, 0, RNE, 0x3ff0_0000_0000_0000, 0)]
    #[case::min_d_1_qnan(       "fmin.d", 0x3ff0_0000_0000_0000, 0x7ff8_0000_0000_0000, 0, RNE, 0x3ff0_0000_0000_0000, 0)]
    #[case::min_d_neg_qnan_1(   "fmin.d", 0xfff8_0000_0000_0000, 0x3ff0_0000_0000_0000, 0, RNE, 0x3ff0_0000_0000_0000, 0)]
    #[case::min_d_snan_1(       "fmin.d", 0x7ff0_0000_0000_0001, 0x3ff0_0000_0000_0000, 0, RNE, 0x3ff0_0000_0000_0000, NV)]
    #[case::min_d_1_snan(       "fmin.d", 0x3ff0_0000_0000_0000, 0x7ff0_0000_0000_0001, 0, RNE, 0x3ff0_0000_0000_0000, NV)]
    #[case::min_d_qnan_qnan(    "fmin.d", 0x7ff8_0000_0000_beef, 0x7ff8_0000_0000_0000, 0, RNE, 0x7ff8_0000_0000_0000, 0)]
    #[case::min_d_snan_qnan(    "fmin.d", 0x7ff0_0000_0000_0001, 0x7ff8_0000_0000_beef, 0, RNE, 0x7ff8_0000_0000_0000, NV)]
    #[case::min_d_qnan_snan(    "fmin.d", 0x7ff8_0000_0000_0000, 0x7ff0_0000_0000_0001, 0, RNE, 0x7ff8_0000_0000_0000, NV)]
    #[case::min_d_snan_snan(    "fmin.d", 0x7ff0_0000_0000_0001, 0x7ff0_0000_0000_0001, 0, RNE, 0x7ff8_0000_0000_0000, NV)]
    #[case::min_d_snan_nz(      "fmin.d", 0x7ff0_0000_0000_0001, 0x8000_0000_0000_0000, 0, RNE, 0x8000_0000_0000_0000, NV)]
    #[case::max_d_nz_pz(        "fmax.d", 0x8000_0000_0000_0000, 0,                     0, RNE, 0,                     0)]
    #[case::max_d_pz_nz(        "fmax.d", 0,                     0x8000_0000_0000_0000, 0, RNE, 0,                     0)]
    #[case::max_d_1_2(          "fmax.d", 0x3ff0_0000_0000_0000, 0x4000_0000_0000_0000, 0, RNE, 0x4000_0000_0000_0000, 0)]
    #[case::max_d_2_1(          "fmax.d", 0x4000_0000_0000_0000, 0x3ff0_0000_0000_0000, 0, RNE, 0x4000_0000_0000_0000, 0)]
    #[case::max_d_equal(        "fmax.d", 0x3ff0_0000_0000_0000, 0x3ff0_0000_0000_0000, 0, RNE, 0x3ff0_0000_0000_0000, 0)]
    #[case::max_d_ninf_1(       "fmax.d", 0xfff0_0000_0000_0000, 0x3ff0_0000_0000_0000, 0, RNE, 0x3ff0_0000_0000_0000, 0)]
    #[case::max_d_qnan_1(       "fmax.d", 0x7ff8_0000_0000_beef, 0x3ff0_0000_0000_0000, 0, RNE, 0x3ff0_0000_0000_0000, 0)]
    #[case::max_d_1_qnan(       "fmax.d", 0x3ff0_0000_0000_0000, 0x7ff8_0000_0000_0000, 0, RNE, 0x3ff0_0000_0000_0000, 0)]
    #[case::max_d_neg_qnan_1(   "fmax.d", 0xfff8_0000_0000_0000, 0x3ff0_0000_0000_0000, 0, RNE, 0x3ff0_0000_0000_0000, 0)]
    #[case::max_d_snan_1(       "fmax.d", 0x7ff0_0000_0000_0001, 0x3ff0_0000_0000_0000, 0, RNE, 0x3ff0_0000_0000_0000, NV)]
    #[case::max_d_1_snan(       "fmax.d", 0x3ff0_0000_0000_0000, 0x7ff0_0000_0000_0001, 0, RNE, 0x3ff0_0000_0000_0000, NV)]
    #[case::max_d_qnan_qnan(    "fmax.d", 0x7ff8_0000_0000_beef, 0x7ff8_0000_0000_0000, 0, RNE, 0x7ff8_0000_0000_0000, 0)]
    #[case::max_d_snan_qnan(    "fmax.d", 0x7ff0_0000_0000_0001, 0x7ff8_0000_0000_beef, 0, RNE, 0x7ff8_0000_0000_0000, NV)]
    #[case::max_d_qnan_snan(    "fmax.d", 0x7ff8_0000_0000_0000, 0x7ff0_0000_0000_0001, 0, RNE, 0x7ff8_0000_0000_0000, NV)]
    #[case::max_d_snan_snan(    "fmax.d", 0x7ff0_0000_0000_0001, 0x7ff0_0000_0000_0001, 0, RNE, 0x7ff8_0000_0000_0000, NV)]
    #[case::max_d_snan_nz(      "fmax.d", 0x7ff0_0000_0000_0001, 0x8000_0000_0000_0000, 0, RNE, 0x8000_0000_0000_0000, NV)]
    #[rustfmt::skip]
    fn minmax(
        #[case] op: &str,
        #[case] a: u64,
        #[case] b: u64,
        #[case] c: u64,
        #[case] rm: u8,
        #[case] want: u64,
        #[case] flags: u8,
    ) {
        check(op, a, b, c, rm, want, flags);
    }

    /// Spike-confirmed: feq (quiet), flt/fle (signalling) on ordered, zero, infinite and NaN
    /// operands.
    #[rstest]
    #[case::eq_s_1_1(       "feq.s", B | 0x3f80_0000,       B | 0x3f80_0000,       0, RNE, 0x0000_0000_0000_0001, 0)]
    #[case::eq_s_1_2(       "feq.s", B | 0x3f80_0000,       B | 0x4000_0000,       0, RNE, 0,                     0)]
    #[case::eq_s_2_1(       "feq.s", B | 0x4000_0000,       B | 0x3f80_0000,       0, RNE, 0,                     0)]
    #[case::eq_s_nz_pz(     "feq.s", B | 0x8000_0000,       B,                     0, RNE, 0x0000_0000_0000_0001, 0)]
    #[case::eq_s_ninf_inf(  "feq.s", B | 0xff80_0000,       B | 0x7f80_0000,       0, RNE, 0,                     0)]
    #[case::eq_s_inf_inf(   "feq.s", B | 0x7f80_0000,       B | 0x7f80_0000,       0, RNE, 0x0000_0000_0000_0001, 0)]
    #[case::eq_s_sub_zero(  "feq.s", B | 0x0000_0001,       B,                     0, RNE, 0,                     0)]
    #[case::eq_s_qnan_1(    "feq.s", B | 0x7fc0_0000,       B | 0x3f80_0000,       0, RNE, 0,                     0)]
    #[case::eq_s_1_qnan(    "feq.s", B | 0x3f80_0000,       B | 0x7fc0_0000,       0, RNE, 0,                     0)]
    #[case::eq_s_snan_1(    "feq.s", B | 0x7f80_0001,       B | 0x3f80_0000,       0, RNE, 0,                     NV)]
    #[case::eq_s_qnan_qnan( "feq.s", B | 0x7fc0_0000,       B | 0x7fc0_0000,       0, RNE, 0,                     0)]
    #[case::lt_s_1_1(       "flt.s", B | 0x3f80_0000,       B | 0x3f80_0000,       0, RNE, 0,                     0)]
    #[case::lt_s_1_2(       "flt.s", B | 0x3f80_0000,       B | 0x4000_0000,       0, RNE, 0x0000_0000_0000_0001, 0)]
    #[case::lt_s_2_1(       "flt.s", B | 0x4000_0000,       B | 0x3f80_0000,       0, RNE, 0,                     0)]
    #[case::lt_s_nz_pz(     "flt.s", B | 0x8000_0000,       B,                     0, RNE, 0,                     0)]
    #[case::lt_s_ninf_inf(  "flt.s", B | 0xff80_0000,       B | 0x7f80_0000,       0, RNE, 0x0000_0000_0000_0001, 0)]
    #[case::lt_s_inf_inf(   "flt.s", B | 0x7f80_0000,       B | 0x7f80_0000,       0, RNE, 0,                     0)]
    #[case::lt_s_sub_zero(  "flt.s", B | 0x0000_0001,       B,                     0, RNE, 0,                     0)]
    #[case::lt_s_qnan_1(    "flt.s", B | 0x7fc0_0000,       B | 0x3f80_0000,       0, RNE, 0,                     NV)]
    #[case::lt_s_1_qnan(    "flt.s", B | 0x3f80_0000,       B | 0x7fc0_0000,       0, RNE, 0,                     NV)]
    #[case::lt_s_snan_1(    "flt.s", B | 0x7f80_0001,       B | 0x3f80_0000,       0, RNE, 0,                     NV)]
    #[case::lt_s_qnan_qnan( "flt.s", B | 0x7fc0_0000,       B | 0x7fc0_0000,       0, RNE, 0,                     NV)]
    #[case::le_s_1_1(       "fle.s", B | 0x3f80_0000,       B | 0x3f80_0000,       0, RNE, 0x0000_0000_0000_0001, 0)]
    #[case::le_s_1_2(       "fle.s", B | 0x3f80_0000,       B | 0x4000_0000,       0, RNE, 0x0000_0000_0000_0001, 0)]
    #[case::le_s_2_1(       "fle.s", B | 0x4000_0000,       B | 0x3f80_0000,       0, RNE, 0,                     0)]
    #[case::le_s_nz_pz(     "fle.s", B | 0x8000_0000,       B,                     0, RNE, 0x0000_0000_0000_0001, 0)]
    #[case::le_s_ninf_inf(  "fle.s", B | 0xff80_0000,       B | 0x7f80_0000,       0, RNE, 0x0000_0000_0000_0001, 0)]
    #[case::le_s_inf_inf(   "fle.s", B | 0x7f80_0000,       B | 0x7f80_0000,       0, RNE, 0x0000_0000_0000_0001, 0)]
    #[case::le_s_sub_zero(  "fle.s", B | 0x0000_0001,       B,                     0, RNE, 0,                     0)]
    #[case::le_s_qnan_1(    "fle.s", B | 0x7fc0_0000,       B | 0x3f80_0000,       0, RNE, 0,                     NV)]
    #[case::le_s_1_qnan(    "fle.s", B | 0x3f80_0000,       B | 0x7fc0_0000,       0, RNE, 0,                     NV)]
    #[case::le_s_snan_1(    "fle.s", B | 0x7f80_0001,       B | 0x3f80_0000,       0, RNE, 0,                     NV)]
    #[case::le_s_qnan_qnan( "fle.s", B | 0x7fc0_0000,       B | 0x7fc0_0000,       0, RNE, 0,                     NV)]
    #[case::eq_s_bad_box(   "feq.s", 0x0000_0000_7fc0_0000, B | 0x3f80_0000,       0, RNE, 0,                     0)]
    #[case::lt_s_bad_box(   "flt.s", B | 0x3f80_0000,       0xffff_0000_3f80_0000, 0, RNE, 0,                     NV)]
    #[case::eq_d_1_1(       "feq.d", 0x3ff0_0000_0000_0000, 0x3ff0_0000_0000_0000, 0, RNE, 0x0000_0000_0000_0001, 0)]
    #[case::eq_d_1_2(       "feq.d", 0x3ff0_0000_0000_0000, 0x4000_0000_0000_0000, 0, RNE, 0,                     0)]
    #[case::eq_d_2_1(       "feq.d", 0x4000_0000_0000_0000, 0x3ff0_0000_0000_0000, 0, RNE, 0,                     0)]
    #[case::eq_d_nz_pz(     "feq.d", 0x8000_0000_0000_0000, 0,                     0, RNE, 0x0000_0000_0000_0001, 0)]
    #[case::eq_d_ninf_inf(  "feq.d", 0xfff0_0000_0000_0000, 0x7ff0_0000_0000_0000, 0, RNE, 0,                     0)]
    #[case::eq_d_inf_inf(   "feq.d", 0x7ff0_0000_0000_0000, 0x7ff0_0000_0000_0000, 0, RNE, 0x0000_0000_0000_0001, 0)]
    #[case::eq_d_sub_zero(  "feq.d", 0x0000_0000_0000_0001, 0,                     0, RNE, 0,                     0)]
    #[case::eq_d_qnan_1(    "feq.d", 0x7ff8_0000_0000_0000, 0x3ff0_0000_0000_0000, 0, RNE, 0,                     0)]
    #[case::eq_d_1_qnan(    "feq.d", 0x3ff0_0000_0000_0000, 0x7ff8_0000_0000_0000, 0, RNE, 0,                     0)]
    #[case::eq_d_snan_1(    "feq.d", 0x7ff0_0000_0000_0001, 0x3ff0_0000_0000_0000, 0, RNE, 0,                     NV)]
    #[case::eq_d_qnan_qnan( "feq.d", 0x7ff8_0000_0000_0000, 0x7ff8_0000_0000_0000, 0, RNE, 0,                     0)]
    #[case::lt_d_1_1(       "flt.d", 0x3ff0_0000_0000_0000, 0x3ff0_0000_0000_0000, 0, RNE, 0,                     0)]
    #[case::lt_d_1_2(       "flt.d", 0x3ff0_0000_0000_0000, 0x4000_0000_0000_0000, 0, RNE, 0x0000_0000_0000_0001, 0)]
    #[case::lt_d_2_1(       "flt.d", 0x4000_0000_0000_0000, 0x3ff0_0000_0000_0000, 0, RNE, 0,                     0)]
    #[case::lt_d_nz_pz(     "flt.d", 0x8000_0000_0000_0000, 0,                     0, RNE, 0,                     0)]
    #[case::lt_d_ninf_inf(  "flt.d", 0xfff0_0000_0000_0000, 0x7ff0_0000_0000_0000, 0, RNE, 0x0000_0000_0000_0001, 0)]
    #[case::lt_d_inf_inf(   "flt.d", 0x7ff0_0000_0000_0000, 0x7ff0_0000_0000_0000, 0, RNE, 0,                     0)]
    #[case::lt_d_sub_zero(  "flt.d", 0x0000_0000_0000_0001, 0,                     0, RNE, 0,                     0)]
    #[case::lt_d_qnan_1(    "flt.d", 0x7ff8_0000_0000_0000, 0x3ff0_0000_0000_0000, 0, RNE, 0,                     NV)]
    #[case::lt_d_1_qnan(    "flt.d", 0x3ff0_0000_0000_0000, 0x7ff8_0000_0000_0000, 0, RNE, 0,                     NV)]
    #[case::lt_d_snan_1(    "flt.d", 0x7ff0_0000_0000_0001, 0x3ff0_0000_0000_0000, 0, RNE, 0,                     NV)]
    #[case::lt_d_qnan_qnan( "flt.d", 0x7ff8_0000_0000_0000, 0x7ff8_0000_0000_0000, 0, RNE, 0,                     NV)]
    #[case::le_d_1_1(       "fle.d", 0x3ff0_0000_0000_0000, 0x3ff0_0000_0000_0000, 0, RNE, 0x0000_0000_0000_0001, 0)]
    #[case::le_d_1_2(       "fle.d", 0x3ff0_0000_0000_0000, 0x4000_0000_0000_0000, 0, RNE, 0x0000_0000_0000_0001, 0)]
    #[case::le_d_2_1(       "fle.d", 0x4000_0000_0000_0000, 0x3ff0_0000_0000_0000, 0, RNE, 0,                     0)]
    #[case::le_d_nz_pz(     "fle.d", 0x8000_0000_0000_0000, 0,                     0, RNE, 0x0000_0000_0000_0001, 0)]
    #[case::le_d_ninf_inf(  "fle.d", 0xfff0_0000_0000_0000, 0x7ff0_0000_0000_0000, 0, RNE, 0x0000_0000_0000_0001, 0)]
    #[case::le_d_inf_inf(   "fle.d", 0x7ff0_0000_0000_0000, 0x7ff0_0000_0000_0000, 0, RNE, 0x0000_0000_0000_0001, 0)]
    #[case::le_d_sub_zero(  "fle.d", 0x0000_0000_0000_0001, 0,                     0, RNE, 0,                     0)]
    #[case::le_d_qnan_1(    "fle.d", 0x7ff8_0000_0000_0000, 0x3ff0_0000_0000_0000, 0, RNE, 0,                     NV)]
    #[case::le_d_1_qnan(    "fle.d", 0x3ff0_0000_0000_0000, 0x7ff8_0000_0000_0000, 0, RNE, 0,                     NV)]
    #[case::le_d_snan_1(    "fle.d", 0x7ff0_0000_0000_0001, 0x3ff0_0000_0000_0000, 0, RNE, 0,                     NV)]
    #[case::le_d_qnan_qnan( "fle.d", 0x7ff8_0000_0000_0000, 0x7ff8_0000_0000_0000, 0, RNE, 0,                     NV)]
    #[rustfmt::skip]
    fn compare(
        #[case] op: &str,
        #[case] a: u64,
        #[case] b: u64,
        #[case] c: u64,
        #[case] rm: u8,
        #[case] want: u64,
        #[case] flags: u8,
    ) {
        check(op, a, b, c, rm, want, flags);
    }

    /// Spike-confirmed: fclass.s/d: every one of the ten classes, both NaN signs, an improperly
    /// boxed operand.
    #[rstest]
    #[case::class_s_ninf(     "fclass.s", B | 0xff80_0000,       0, 0, RNE, 0x0000_0000_0000_0001, 0)]
    #[case::class_s_nnorm(    "fclass.s", B | 0xbf80_0000,       0, 0, RNE, 0x0000_0000_0000_0002, 0)]
    #[case::class_s_nsub(     "fclass.s", B | 0x8000_0001,       0, 0, RNE, 0x0000_0000_0000_0004, 0)]
    #[case::class_s_nzero(    "fclass.s", B | 0x8000_0000,       0, 0, RNE, 0x0000_0000_0000_0008, 0)]
    #[case::class_s_pzero(    "fclass.s", B,                     0, 0, RNE, 0x0000_0000_0000_0010, 0)]
    #[case::class_s_psub(     "fclass.s", B | 0x007f_ffff,       0, 0, RNE, 0x0000_0000_0000_0020, 0)]
    #[case::class_s_pnorm(    "fclass.s", B | 0x7f7f_ffff,       0, 0, RNE, 0x0000_0000_0000_0040, 0)]
    #[case::class_s_pinf(     "fclass.s", B | 0x7f80_0000,       0, 0, RNE, 0x0000_0000_0000_0080, 0)]
    #[case::class_s_snan(     "fclass.s", B | 0x7f80_0001,       0, 0, RNE, 0x0000_0000_0000_0100, 0)]
    #[case::class_s_qnan(     "fclass.s", B | 0x7fc0_0000,       0, 0, RNE, 0x0000_0000_0000_0200, 0)]
    #[case::class_s_neg_snan( "fclass.s", B | 0xffa0_0000,       0, 0, RNE, 0x0000_0000_0000_0100, 0)]
    #[case::class_s_neg_qnan( "fclass.s", B | 0xffc0_0000,       0, 0, RNE, 0x0000_0000_0000_0200, 0)]
    #[case::class_s_bad_box(  "fclass.s", 0x0000_0000_ff80_0000, 0, 0, RNE, 0x0000_0000_0000_0200, 0)]
    #[case::class_d_ninf(     "fclass.d", 0xfff0_0000_0000_0000, 0, 0, RNE, 0x0000_0000_0000_0001, 0)]
    #[case::class_d_nnorm(    "fclass.d", 0xc00c_0000_0000_0000, 0, 0, RNE, 0x0000_0000_0000_0002, 0)]
    #[case::class_d_nsub(     "fclass.d", 0x800f_ffff_ffff_ffff, 0, 0, RNE, 0x0000_0000_0000_0004, 0)]
    #[case::class_d_nzero(    "fclass.d", 0x8000_0000_0000_0000, 0, 0, RNE, 0x0000_0000_0000_0008, 0)]
    #[case::class_d_pzero(    "fclass.d", 0,                     0, 0, RNE, 0x0000_0000_0000_0010, 0)]
    #[case::class_d_psub(     "fclass.d", 0x0000_0000_0000_0001, 0, 0, RNE, 0x0000_0000_0000_0020, 0)]
    #[case::class_d_pnorm(    "fclass.d", 0x0010_0000_0000_0000, 0, 0, RNE, 0x0000_0000_0000_0040, 0)]
    #[case::class_d_pinf(     "fclass.d", 0x7ff0_0000_0000_0000, 0, 0, RNE, 0x0000_0000_0000_0080, 0)]
    #[case::class_d_snan(     "fclass.d", 0x7ff0_0000_0000_0001, 0, 0, RNE, 0x0000_0000_0000_0100, 0)]
    #[case::class_d_qnan(     "fclass.d", 0x7ff8_0000_0000_beef, 0, 0, RNE, 0x0000_0000_0000_0200, 0)]
    #[case::class_d_neg_snan( "fclass.d", 0xfff4_0000_0000_0000, 0, 0, RNE, 0x0000_0000_0000_0100, 0)]
    #[case::class_d_neg_qnan( "fclass.d", 0xfff8_0000_0000_0000, 0, 0, RNE, 0x0000_0000_0000_0200, 0)]
    #[rustfmt::skip]
    fn class(
        #[case] op: &str,
        #[case] a: u64,
        #[case] b: u64,
        #[case] c: u64,
        #[case] rm: u8,
        #[case] want: u64,
        #[case] flags: u8,
    ) {
        check(op, a, b, c, rm, want, flags);
    }

    /// Spike-confirmed: fsgnj/fsgnjn/fsgnjx: bit operations with no NaN canonicalisation and no
    /// flags; a single operand that is not NaN-boxed reads as the canonical NaN (0x7fc00000).
    #[rstest]
    #[case::sgnj_s_pos_neg(    "fsgnj.s",  B | 0x3fc0_0000,       B | 0xc000_0000,       0, RNE, B | 0xbfc0_0000,       0)]
    #[case::sgnj_s_pos_pos(    "fsgnj.s",  B | 0x3fc0_0000,       B | 0x4000_0000,       0, RNE, B | 0x3fc0_0000,       0)]
    #[case::sgnj_s_neg_neg(    "fsgnj.s",  B | 0xc000_0000,       B | 0xc000_0000,       0, RNE, B | 0xc000_0000,       0)]
    #[case::sgnj_s_snan_neg(   "fsgnj.s",  B | 0x7f80_0001,       B | 0xc000_0000,       0, RNE, B | 0xff80_0001,       0)]
    #[case::sgnj_s_bad_box_a(  "fsgnj.s",  0x0000_0000_3fc0_0000, B | 0xc000_0000,       0, RNE, B | 0xffc0_0000,       0)]
    #[case::sgnj_s_bad_box_b(  "fsgnj.s",  B | 0x3fc0_0000,       0x0000_0000_3fc0_0000, 0, RNE, B | 0x3fc0_0000,       0)]
    #[case::sgnjn_s_pos_neg(   "fsgnjn.s", B | 0x3fc0_0000,       B | 0xc000_0000,       0, RNE, B | 0x3fc0_0000,       0)]
    #[case::sgnjn_s_pos_pos(   "fsgnjn.s", B | 0x3fc0_0000,       B | 0x4000_0000,       0, RNE, B | 0xbfc0_0000,       0)]
    #[case::sgnjn_s_neg_neg(   "fsgnjn.s", B | 0xc000_0000,       B | 0xc000_0000,       0, RNE, B | 0x4000_0000,       0)]
    #[case::sgnjn_s_snan_neg(  "fsgnjn.s", B | 0x7f80_0001,       B | 0xc000_0000,       0, RNE, B | 0x7f80_0001,       0)]
    #[case::sgnjn_s_bad_box_a( "fsgnjn.s", 0x0000_0000_3fc0_0000, B | 0xc000_0000,       0, RNE, B | 0x7fc0_0000,       0)]
    #[case::sgnjn_s_bad_box_b( "fsgnjn.s", B | 0x3fc0_0000,       0x0000_0000_3fc0_0000, 0, RNE, B | 0xbfc0_0000,       0)]
    #[case::sgnjx_s_pos_neg(   "fsgnjx.s", B | 0x3fc0_0000,       B | 0xc000_0000,       0, RNE, B | 0xbfc0_0000,       0)]
    #[case::sgnjx_s_pos_pos(   "fsgnjx.s", B | 0x3fc0_0000,       B | 0x4000_0000,       0, RNE, B | 0x3fc0_0000,       0)]
    #[case::sgnjx_s_neg_neg(   "fsgnjx.s", B | 0xc000_0000,       B | 0xc000_0000,       0, RNE, B | 0x4000_0000,       0)]
    #[case::sgnjx_s_snan_neg(  "fsgnjx.s", B | 0x7f80_0001,       B | 0xc000_0000,       0, RNE, B | 0xff80_0001,       0)]
    #[case::sgnjx_s_bad_box_a( "fsgnjx.s", 0x0000_0000_3fc0_0000, B | 0xc000_0000,       0, RNE, B | 0xffc0_0000,       0)]
    #[case::sgnjx_s_bad_box_b( "fsgnjx.s", B | 0x3fc0_0000,       0x0000_0000_3fc0_0000, 0, RNE, B | 0x3fc0_0000,       0)]
    #[case::sgnj_d_pos_neg(    "fsgnj.d",  0x3ff8_0000_0000_0000, 0xc000_0000_0000_0000, 0, RNE, 0xbff8_0000_0000_0000, 0)]
    #[case::sgnj_d_pos_pos(    "fsgnj.d",  0x3ff8_0000_0000_0000, 0x4000_0000_0000_0000, 0, RNE, 0x3ff8_0000_0000_0000, 0)]
    #[case::sgnj_d_neg_neg(    "fsgnj.d",  0xc000_0000_0000_0000, 0xc000_0000_0000_0000, 0, RNE, 0xc000_0000_0000_0000, 0)]
    #[case::sgnj_d_snan_neg(   "fsgnj.d",  0x7ff0_0000_0000_0001, 0xc000_0000_0000_0000, 0, RNE, 0xfff0_0000_0000_0001, 0)]
    #[case::sgnjn_d_pos_neg(   "fsgnjn.d", 0x3ff8_0000_0000_0000, 0xc000_0000_0000_0000, 0, RNE, 0x3ff8_0000_0000_0000, 0)]
    #[case::sgnjn_d_pos_pos(   "fsgnjn.d", 0x3ff8_0000_0000_0000, 0x4000_0000_0000_0000, 0, RNE, 0xbff8_0000_0000_0000, 0)]
    #[case::sgnjn_d_neg_neg(   "fsgnjn.d", 0xc000_0000_0000_0000, 0xc000_0000_0000_0000, 0, RNE, 0x4000_0000_0000_0000, 0)]
    #[case::sgnjn_d_snan_neg(  "fsgnjn.d", 0x7ff0_0000_0000_0001, 0xc000_0000_0000_0000, 0, RNE, 0x7ff0_0000_0000_0001, 0)]
    #[case::sgnjx_d_pos_neg(   "fsgnjx.d", 0x3ff8_0000_0000_0000, 0xc000_0000_0000_0000, 0, RNE, 0xbff8_0000_0000_0000, 0)]
    #[case::sgnjx_d_pos_pos(   "fsgnjx.d", 0x3ff8_0000_0000_0000, 0x4000_0000_0000_0000, 0, RNE, 0x3ff8_0000_0000_0000, 0)]
    #[case::sgnjx_d_neg_neg(   "fsgnjx.d", 0xc000_0000_0000_0000, 0xc000_0000_0000_0000, 0, RNE, 0x4000_0000_0000_0000, 0)]
    #[case::sgnjx_d_snan_neg(  "fsgnjx.d", 0x7ff0_0000_0000_0001, 0xc000_0000_0000_0000, 0, RNE, 0xfff0_0000_0000_0001, 0)]
    #[rustfmt::skip]
    fn sgnj(
        #[case] op: &str,
        #[case] a: u64,
        #[case] b: u64,
        #[case] c: u64,
        #[case] rm: u8,
        #[case] want: u64,
        #[case] flags: u8,
    ) {
        check(op, a, b, c, rm, want, flags);
    }

    /// Spike-confirmed: fcvt.{w,wu,l,lu}.{s,d}: rounding modes on ties, NaN/inf/out-of-range
    /// saturation, -1.0 and -0.5 to unsigned (NV when the rounded value is negative, else NX), and
    /// the sign-extension of the 32-bit results (including wu).
    #[rstest]
    #[case::w_s_1p5_rne(        "fcvt.w.s",  B | 0x3fc0_0000,       0, 0, RNE, 0x0000_0000_0000_0002, NX)]
    #[case::w_s_1p5_rtz(        "fcvt.w.s",  B | 0x3fc0_0000,       0, 0, RTZ, 0x0000_0000_0000_0001, NX)]
    #[case::w_s_1p5_rdn(        "fcvt.w.s",  B | 0x3fc0_0000,       0, 0, RDN, 0x0000_0000_0000_0001, NX)]
    #[case::w_s_1p5_rup(        "fcvt.w.s",  B | 0x3fc0_0000,       0, 0, RUP, 0x0000_0000_0000_0002, NX)]
    #[case::w_s_1p5_rmm(        "fcvt.w.s",  B | 0x3fc0_0000,       0, 0, RMM, 0x0000_0000_0000_0002, NX)]
    #[case::w_s_2p5_rne(        "fcvt.w.s",  B | 0x4020_0000,       0, 0, RNE, 0x0000_0000_0000_0002, NX)]
    #[case::w_s_2p5_rtz(        "fcvt.w.s",  B | 0x4020_0000,       0, 0, RTZ, 0x0000_0000_0000_0002, NX)]
    #[case::w_s_2p5_rdn(        "fcvt.w.s",  B | 0x4020_0000,       0, 0, RDN, 0x0000_0000_0000_0002, NX)]
    #[case::w_s_2p5_rup(        "fcvt.w.s",  B | 0x4020_0000,       0, 0, RUP, 0x0000_0000_0000_0003, NX)]
    #[case::w_s_2p5_rmm(        "fcvt.w.s",  B | 0x4020_0000,       0, 0, RMM, 0x0000_0000_0000_0003, NX)]
    #[case::w_s_m1p5_rne(       "fcvt.w.s",  B | 0xbfc0_0000,       0, 0, RNE, 0xffff_ffff_ffff_fffe, NX)]
    #[case::w_s_m1p5_rtz(       "fcvt.w.s",  B | 0xbfc0_0000,       0, 0, RTZ, 0xffff_ffff_ffff_ffff, NX)]
    #[case::w_s_m1p5_rdn(       "fcvt.w.s",  B | 0xbfc0_0000,       0, 0, RDN, 0xffff_ffff_ffff_fffe, NX)]
    #[case::w_s_m1p5_rup(       "fcvt.w.s",  B | 0xbfc0_0000,       0, 0, RUP, 0xffff_ffff_ffff_ffff, NX)]
    #[case::w_s_m1p5_rmm(       "fcvt.w.s",  B | 0xbfc0_0000,       0, 0, RMM, 0xffff_ffff_ffff_fffe, NX)]
    #[case::w_s_m2p5_rne(       "fcvt.w.s",  B | 0xc020_0000,       0, 0, RNE, 0xffff_ffff_ffff_fffe, NX)]
    #[case::w_s_m2p5_rtz(       "fcvt.w.s",  B | 0xc020_0000,       0, 0, RTZ, 0xffff_ffff_ffff_fffe, NX)]
    #[case::w_s_m2p5_rdn(       "fcvt.w.s",  B | 0xc020_0000,       0, 0, RDN, 0xffff_ffff_ffff_fffd, NX)]
    #[case::w_s_m2p5_rup(       "fcvt.w.s",  B | 0xc020_0000,       0, 0, RUP, 0xffff_ffff_ffff_fffe, NX)]
    #[case::w_s_m2p5_rmm(       "fcvt.w.s",  B | 0xc020_0000,       0, 0, RMM, 0xffff_ffff_ffff_fffd, NX)]
    #[case::w_s_m0p5(           "fcvt.w.s",  B | 0xbf00_0000,       0, 0, RNE, 0,                     NX)]
    #[case::w_s_nan(            "fcvt.w.s",  B | 0x7fc0_0000,       0, 0, RNE, 0x0000_0000_7fff_ffff, NV)]
    #[case::w_s_snan(           "fcvt.w.s",  B | 0x7f80_0001,       0, 0, RNE, 0x0000_0000_7fff_ffff, NV)]
    #[case::w_s_neg_nan(        "fcvt.w.s",  B | 0xffc0_0000,       0, 0, RNE, 0x0000_0000_7fff_ffff, NV)]
    #[case::w_s_inf(            "fcvt.w.s",  B | 0x7f80_0000,       0, 0, RNE, 0x0000_0000_7fff_ffff, NV)]
    #[case::w_s_ninf(           "fcvt.w.s",  B | 0xff80_0000,       0, 0, RNE, 0xffff_ffff_8000_0000, NV)]
    #[case::w_s_nzero(          "fcvt.w.s",  B | 0x8000_0000,       0, 0, RNE, 0,                     0)]
    #[case::w_s_m1(             "fcvt.w.s",  B | 0xbf80_0000,       0, 0, RNE, 0xffff_ffff_ffff_ffff, 0)]
    #[case::w_s_sub_rup(        "fcvt.w.s",  B | 0x0000_0001,       0, 0, RUP, 0x0000_0000_0000_0001, NX)]
    #[case::w_s_sub_rdn(        "fcvt.w.s",  B | 0x0000_0001,       0, 0, RDN, 0,                     NX)]
    #[case::w_s_0p99_rup(       "fcvt.w.s",  B | 0x3f7d_70a4,       0, 0, RUP, 0x0000_0000_0000_0001, NX)]
    #[case::w_s_2p31(           "fcvt.w.s",  B | 0x4f00_0000,       0, 0, RNE, 0x0000_0000_7fff_ffff, NV)]
    #[case::w_s_m2p31(          "fcvt.w.s",  B | 0xcf00_0000,       0, 0, RNE, 0xffff_ffff_8000_0000, 0)]
    #[case::w_s_3e9(            "fcvt.w.s",  B | 0x4f32_d05e,       0, 0, RNE, 0x0000_0000_7fff_ffff, NV)]
    #[case::w_s_2p32(           "fcvt.w.s",  B | 0x4f80_0000,       0, 0, RNE, 0x0000_0000_7fff_ffff, NV)]
    #[case::w_s_2p63(           "fcvt.w.s",  B | 0x5f00_0000,       0, 0, RNE, 0x0000_0000_7fff_ffff, NV)]
    #[case::w_s_m2p63(          "fcvt.w.s",  B | 0xdf00_0000,       0, 0, RNE, 0xffff_ffff_8000_0000, NV)]
    #[case::w_s_2p64(           "fcvt.w.s",  B | 0x5f80_0000,       0, 0, RNE, 0x0000_0000_7fff_ffff, NV)]
    #[case::w_s_big(            "fcvt.w.s",  B | 0x7149_f2ca,       0, 0, RNE, 0x0000_0000_7fff_ffff, NV)]
    #[case::wu_s_1p5(           "fcvt.wu.s", B | 0x3fc0_0000,       0, 0, RNE, 0x0000_0000_0000_0002, NX)]
    #[case::wu_s_2p5_rne(       "fcvt.wu.s", B | 0x4020_0000,       0, 0, RNE, 0x0000_0000_0000_0002, NX)]
    #[case::wu_s_2p5_rtz(       "fcvt.wu.s", B | 0x4020_0000,       0, 0, RTZ, 0x0000_0000_0000_0002, NX)]
    #[case::wu_s_2p5_rdn(       "fcvt.wu.s", B | 0x4020_0000,       0, 0, RDN, 0x0000_0000_0000_0002, NX)]
    #[case::wu_s_2p5_rup(       "fcvt.wu.s", B | 0x4020_0000,       0, 0, RUP, 0x0000_0000_0000_0003, NX)]
    #[case::wu_s_2p5_rmm(       "fcvt.wu.s", B | 0x4020_0000,       0, 0, RMM, 0x0000_0000_0000_0003, NX)]
    #[case::wu_s_m1p5(          "fcvt.wu.s", B | 0xbfc0_0000,       0, 0, RNE, 0,                     NV)]
    #[case::wu_s_m2p5(          "fcvt.wu.s", B | 0xc020_0000,       0, 0, RNE, 0,                     NV)]
    #[case::wu_s_m0p5_rne(      "fcvt.wu.s", B | 0xbf00_0000,       0, 0, RNE, 0,                     NX)]
    #[case::wu_s_m0p5_rtz(      "fcvt.wu.s", B | 0xbf00_0000,       0, 0, RTZ, 0,                     NX)]
    #[case::wu_s_m0p5_rdn(      "fcvt.wu.s", B | 0xbf00_0000,       0, 0, RDN, 0,                     NV)]
    #[case::wu_s_m0p5_rup(      "fcvt.wu.s", B | 0xbf00_0000,       0, 0, RUP, 0,                     NX)]
    #[case::wu_s_m0p5_rmm(      "fcvt.wu.s", B | 0xbf00_0000,       0, 0, RMM, 0,                     NV)]
    #[case::wu_s_nan(           "fcvt.wu.s", B | 0x7fc0_0000,       0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[case::wu_s_snan(          "fcvt.wu.s", B | 0x7f80_0001,       0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[case::wu_s_neg_nan(       "fcvt.wu.s", B | 0xffc0_0000,       0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[case::wu_s_inf(           "fcvt.wu.s", B | 0x7f80_0000,       0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[case::wu_s_ninf(          "fcvt.wu.s", B | 0xff80_0000,       0, 0, RNE, 0,                     NV)]
    #[case::wu_s_nzero(         "fcvt.wu.s", B | 0x8000_0000,       0, 0, RNE, 0,                     0)]
    #[case::wu_s_m1(            "fcvt.wu.s", B | 0xbf80_0000,       0, 0, RNE, 0,                     NV)]
    #[case::wu_s_sub_rup(       "fcvt.wu.s", B | 0x0000_0001,       0, 0, RUP, 0x0000_0000_0000_0001, NX)]
    #[case::wu_s_sub_rdn(       "fcvt.wu.s", B | 0x0000_0001,       0, 0, RDN, 0,                     NX)]
    #[case::wu_s_0p99_rup(      "fcvt.wu.s", B | 0x3f7d_70a4,       0, 0, RUP, 0x0000_0000_0000_0001, NX)]
    #[case::wu_s_2p31(          "fcvt.wu.s", B | 0x4f00_0000,       0, 0, RNE, 0xffff_ffff_8000_0000, 0)]
    #[case::wu_s_m2p31(         "fcvt.wu.s", B | 0xcf00_0000,       0, 0, RNE, 0,                     NV)]
    #[case::wu_s_3e9(           "fcvt.wu.s", B | 0x4f32_d05e,       0, 0, RNE, 0xffff_ffff_b2d0_5e00, 0)]
    #[case::wu_s_2p32(          "fcvt.wu.s", B | 0x4f80_0000,       0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[case::wu_s_2p63(          "fcvt.wu.s", B | 0x5f00_0000,       0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[case::wu_s_m2p63(         "fcvt.wu.s", B | 0xdf00_0000,       0, 0, RNE, 0,                     NV)]
    #[case::wu_s_2p64(          "fcvt.wu.s", B | 0x5f80_0000,       0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[case::wu_s_big(           "fcvt.wu.s", B | 0x7149_f2ca,       0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[case::l_s_1p5_rne(        "fcvt.l.s",  B | 0x3fc0_0000,       0, 0, RNE, 0x0000_0000_0000_0002, NX)]
    #[case::l_s_1p5_rtz(        "fcvt.l.s",  B | 0x3fc0_0000,       0, 0, RTZ, 0x0000_0000_0000_0001, NX)]
    #[case::l_s_1p5_rdn(        "fcvt.l.s",  B | 0x3fc0_0000,       0, 0, RDN, 0x0000_0000_0000_0001, NX)]
    #[case::l_s_1p5_rup(        "fcvt.l.s",  B | 0x3fc0_0000,       0, 0, RUP, 0x0000_0000_0000_0002, NX)]
    #[case::l_s_1p5_rmm(        "fcvt.l.s",  B | 0x3fc0_0000,       0, 0, RMM, 0x0000_0000_0000_0002, NX)]
    #[case::l_s_2p5(            "fcvt.l.s",  B | 0x4020_0000,       0, 0, RNE, 0x0000_0000_0000_0002, NX)]
    #[case::l_s_m1p5_rne(       "fcvt.l.s",  B | 0xbfc0_0000,       0, 0, RNE, 0xffff_ffff_ffff_fffe, NX)]
    #[case::l_s_m1p5_rtz(       "fcvt.l.s",  B | 0xbfc0_0000,       0, 0, RTZ, 0xffff_ffff_ffff_ffff, NX)]
    #[case::l_s_m1p5_rdn(       "fcvt.l.s",  B | 0xbfc0_0000,       0, 0, RDN, 0xffff_ffff_ffff_fffe, NX)]
    #[case::l_s_m1p5_rup(       "fcvt.l.s",  B | 0xbfc0_0000,       0, 0, RUP, 0xffff_ffff_ffff_ffff, NX)]
    #[case::l_s_m1p5_rmm(       "fcvt.l.s",  B | 0xbfc0_0000,       0, 0, RMM, 0xffff_ffff_ffff_fffe, NX)]
    #[case::l_s_m2p5(           "fcvt.l.s",  B | 0xc020_0000,       0, 0, RNE, 0xffff_ffff_ffff_fffe, NX)]
    #[case::l_s_m0p5(           "fcvt.l.s",  B | 0xbf00_0000,       0, 0, RNE, 0,                     NX)]
    #[case::l_s_nan(            "fcvt.l.s",  B | 0x7fc0_0000,       0, 0, RNE, 0x7fff_ffff_ffff_ffff, NV)]
    #[case::l_s_snan(           "fcvt.l.s",  B | 0x7f80_0001,       0, 0, RNE, 0x7fff_ffff_ffff_ffff, NV)]
    #[case::l_s_neg_nan(        "fcvt.l.s",  B | 0xffc0_0000,       0, 0, RNE, 0x7fff_ffff_ffff_ffff, NV)]
    #[case::l_s_inf(            "fcvt.l.s",  B | 0x7f80_0000,       0, 0, RNE, 0x7fff_ffff_ffff_ffff, NV)]
    #[case::l_s_ninf(           "fcvt.l.s",  B | 0xff80_0000,       0, 0, RNE, 0x8000_0000_0000_0000, NV)]
    #[case::l_s_nzero(          "fcvt.l.s",  B | 0x8000_0000,       0, 0, RNE, 0,                     0)]
    #[case::l_s_m1(             "fcvt.l.s",  B | 0xbf80_0000,       0, 0, RNE, 0xffff_ffff_ffff_ffff, 0)]
    #[case::l_s_sub_rup(        "fcvt.l.s",  B | 0x0000_0001,       0, 0, RUP, 0x0000_0000_0000_0001, NX)]
    #[case::l_s_sub_rdn(        "fcvt.l.s",  B | 0x0000_0001,       0, 0, RDN, 0,                     NX)]
    #[case::l_s_0p99_rup(       "fcvt.l.s",  B | 0x3f7d_70a4,       0, 0, RUP, 0x0000_0000_0000_0001, NX)]
    #[case::l_s_2p31(           "fcvt.l.s",  B | 0x4f00_0000,       0, 0, RNE, 0x0000_0000_8000_0000, 0)]
    #[case::l_s_m2p31(          "fcvt.l.s",  B | 0xcf00_0000,       0, 0, RNE, 0xffff_ffff_8000_0000, 0)]
    #[case::l_s_3e9(            "fcvt.l.s",  B | 0x4f32_d05e,       0, 0, RNE, 0x0000_0000_b2d0_5e00, 0)]
    #[case::l_s_2p32(           "fcvt.l.s",  B | 0x4f80_0000,       0, 0, RNE, 0x0000_0001_0000_0000, 0)]
    #[case::l_s_2p63(           "fcvt.l.s",  B | 0x5f00_0000,       0, 0, RNE, 0x7fff_ffff_ffff_ffff, NV)]
    #[case::l_s_m2p63(          "fcvt.l.s",  B | 0xdf00_0000,       0, 0, RNE, 0x8000_0000_0000_0000, 0)]
    #[case::l_s_2p64(           "fcvt.l.s",  B | 0x5f80_0000,       0, 0, RNE, 0x7fff_ffff_ffff_ffff, NV)]
    #[case::l_s_big(            "fcvt.l.s",  B | 0x7149_f2ca,       0, 0, RNE, 0x7fff_ffff_ffff_ffff, NV)]
    #[case::lu_s_1p5(           "fcvt.lu.s", B | 0x3fc0_0000,       0, 0, RNE, 0x0000_0000_0000_0002, NX)]
    #[case::lu_s_2p5(           "fcvt.lu.s", B | 0x4020_0000,       0, 0, RNE, 0x0000_0000_0000_0002, NX)]
    #[case::lu_s_m1p5(          "fcvt.lu.s", B | 0xbfc0_0000,       0, 0, RNE, 0,                     NV)]
    #[case::lu_s_m2p5(          "fcvt.lu.s", B | 0xc020_0000,       0, 0, RNE, 0,                     NV)]
    #[case::lu_s_m0p5_rne(      "fcvt.lu.s", B | 0xbf00_0000,       0, 0, RNE, 0,                     NX)]
    #[case::lu_s_m0p5_rtz(      "fcvt.lu.s", B | 0xbf00_0000,       0, 0, RTZ, 0,                     NX)]
    #[case::lu_s_m0p5_rdn(      "fcvt.lu.s", B | 0xbf00_0000,       0, 0, RDN, 0,                     NV)]
    #[case::lu_s_m0p5_rup(      "fcvt.lu.s", B | 0xbf00_0000,       0, 0, RUP, 0,                     NX)]
    #[case::lu_s_m0p5_rmm(      "fcvt.lu.s", B | 0xbf00_0000,       0, 0, RMM, 0,                     NV)]
    #[case::lu_s_nan(           "fcvt.lu.s", B | 0x7fc0_0000,       0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[case::lu_s_snan(          "fcvt.lu.s", B | 0x7f80_0001,       0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[case::lu_s_neg_nan(       "fcvt.lu.s", B | 0xffc0_0000,       0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[case::lu_s_inf(           "fcvt.lu.s", B | 0x7f80_0000,       0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[case::lu_s_ninf(          "fcvt.lu.s", B | 0xff80_0000,       0, 0, RNE, 0,                     NV)]
    #[case::lu_s_nzero(         "fcvt.lu.s", B | 0x8000_0000,       0, 0, RNE, 0,                     0)]
    #[case::lu_s_m1(            "fcvt.lu.s", B | 0xbf80_0000,       0, 0, RNE, 0,                     NV)]
    #[case::lu_s_sub_rup(       "fcvt.lu.s", B | 0x0000_0001,       0, 0, RUP, 0x0000_0000_0000_0001, NX)]
    #[case::lu_s_sub_rdn(       "fcvt.lu.s", B | 0x0000_0001,       0, 0, RDN, 0,                     NX)]
    #[case::lu_s_0p99_rup(      "fcvt.lu.s", B | 0x3f7d_70a4,       0, 0, RUP, 0x0000_0000_0000_0001, NX)]
    #[case::lu_s_2p31(          "fcvt.lu.s", B | 0x4f00_0000,       0, 0, RNE, 0x0000_0000_8000_0000, 0)]
    #[case::lu_s_m2p31(         "fcvt.lu.s", B | 0xcf00_0000,       0, 0, RNE, 0,                     NV)]
    #[case::lu_s_3e9(           "fcvt.lu.s", B | 0x4f32_d05e,       0, 0, RNE, 0x0000_0000_b2d0_5e00, 0)]
    #[case::lu_s_2p32(          "fcvt.lu.s", B | 0x4f80_0000,       0, 0, RNE, 0x0000_0001_0000_0000, 0)]
    #[case::lu_s_2p63(          "fcvt.lu.s", B | 0x5f00_0000,       0, 0, RNE, 0x8000_0000_0000_0000, 0)]
    #[case::lu_s_m2p63(         "fcvt.lu.s", B | 0xdf00_0000,       0, 0, RNE, 0,                     NV)]
    #[case::lu_s_2p64(          "fcvt.lu.s", B | 0x5f80_0000,       0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[case::lu_s_big(           "fcvt.lu.s", B | 0x7149_f2ca,       0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[case::w_d_1p5_rne(        "fcvt.w.d",  0x3ff8_0000_0000_0000, 0, 0, RNE, 0x0000_0000_0000_0002, NX)]
    #[case::w_d_1p5_rtz(        "fcvt.w.d",  0x3ff8_0000_0000_0000, 0, 0, RTZ, 0x0000_0000_0000_0001, NX)]
    #[case::w_d_1p5_rdn(        "fcvt.w.d",  0x3ff8_0000_0000_0000, 0, 0, RDN, 0x0000_0000_0000_0001, NX)]
    #[case::w_d_1p5_rup(        "fcvt.w.d",  0x3ff8_0000_0000_0000, 0, 0, RUP, 0x0000_0000_0000_0002, NX)]
    #[case::w_d_1p5_rmm(        "fcvt.w.d",  0x3ff8_0000_0000_0000, 0, 0, RMM, 0x0000_0000_0000_0002, NX)]
    #[case::w_d_2p5_rne(        "fcvt.w.d",  0x4004_0000_0000_0000, 0, 0, RNE, 0x0000_0000_0000_0002, NX)]
    #[case::w_d_2p5_rtz(        "fcvt.w.d",  0x4004_0000_0000_0000, 0, 0, RTZ, 0x0000_0000_0000_0002, NX)]
    #[case::w_d_2p5_rdn(        "fcvt.w.d",  0x4004_0000_0000_0000, 0, 0, RDN, 0x0000_0000_0000_0002, NX)]
    #[case::w_d_2p5_rup(        "fcvt.w.d",  0x4004_0000_0000_0000, 0, 0, RUP, 0x0000_0000_0000_0003, NX)]
    #[case::w_d_2p5_rmm(        "fcvt.w.d",  0x4004_0000_0000_0000, 0, 0, RMM, 0x0000_0000_0000_0003, NX)]
    #[case::w_d_m1p5_rne(       "fcvt.w.d",  0xbff8_0000_0000_0000, 0, 0, RNE, 0xffff_ffff_ffff_fffe, NX)]
    #[case::w_d_m1p5_rtz(       "fcvt.w.d",  0xbff8_0000_0000_0000, 0, 0, RTZ, 0xffff_ffff_ffff_ffff, NX)]
    #[case::w_d_m1p5_rdn(       "fcvt.w.d",  0xbff8_0000_0000_0000, 0, 0, RDN, 0xffff_ffff_ffff_fffe, NX)]
    #[case::w_d_m1p5_rup(       "fcvt.w.d",  0xbff8_0000_0000_0000, 0, 0, RUP, 0xffff_ffff_ffff_ffff, NX)]
    #[case::w_d_m1p5_rmm(       "fcvt.w.d",  0xbff8_0000_0000_0000, 0, 0, RMM, 0xffff_ffff_ffff_fffe, NX)]
    #[case::w_d_m2p5_rne(       "fcvt.w.d",  0xc004_0000_0000_0000, 0, 0, RNE, 0xffff_ffff_ffff_fffe, NX)]
    #[case::w_d_m2p5_rtz(       "fcvt.w.d",  0xc004_0000_0000_0000, 0, 0, RTZ, 0xffff_ffff_ffff_fffe, NX)]
    #[case::w_d_m2p5_rdn(       "fcvt.w.d",  0xc004_0000_0000_0000, 0, 0, RDN, 0xffff_ffff_ffff_fffd, NX)]
    #[case::w_d_m2p5_rup(       "fcvt.w.d",  0xc004_0000_0000_0000, 0, 0, RUP, 0xffff_ffff_ffff_fffe, NX)]
    #[case::w_d_m2p5_rmm(       "fcvt.w.d",  0xc004_0000_0000_0000, 0, 0, RMM, 0xffff_ffff_ffff_fffd, NX)]
    #[case::w_d_m0p5(           "fcvt.w.d",  0xbfe0_0000_0000_0000, 0, 0, RNE, 0,                     NX)]
    #[case::w_d_nan(            "fcvt.w.d",  0x7ff8_0000_0000_0000, 0, 0, RNE, 0x0000_0000_7fff_ffff, NV)]
    #[case::w_d_snan(           "fcvt.w.d",  0x7ff0_0000_0000_0001, 0, 0, RNE, 0x0000_0000_7fff_ffff, NV)]
    #[case::w_d_neg_nan(        "fcvt.w.d",  0xfff8_0000_0000_0000, 0, 0, RNE, 0x0000_0000_7fff_ffff, NV)]
    #[case::w_d_inf(            "fcvt.w.d",  0x7ff0_0000_0000_0000, 0, 0, RNE, 0x0000_0000_7fff_ffff, NV)]
    #[case::w_d_ninf(           "fcvt.w.d",  0xfff0_0000_0000_0000, 0, 0, RNE, 0xffff_ffff_8000_0000, NV)]
    #[case::w_d_nzero(          "fcvt.w.d",  0x8000_0000_0000_0000, 0, 0, RNE, 0,                     0)]
    #[case::w_d_m1(             "fcvt.w.d",  0xbff0_0000_0000_0000, 0, 0, RNE, 0xffff_ffff_ffff_ffff, 0)]
    #[case::w_d_sub_rup(        "fcvt.w.d",  0x0000_0000_0000_0001, 0, 0, RUP, 0x0000_0000_0000_0001, NX)]
    #[case::w_d_sub_rdn(        "fcvt.w.d",  0x0000_0000_0000_0001, 0, 0, RDN, 0,                     NX)]
    #[case::w_d_0p99_rup(       "fcvt.w.d",  0x3fef_ae14_7ae1_47ae, 0, 0, RUP, 0x0000_0000_0000_0001, NX)]
    #[case::w_d_2p31(           "fcvt.w.d",  0x41e0_0000_0000_0000, 0, 0, RNE, 0x0000_0000_7fff_ffff, NV)]
    #[case::w_d_m2p31(          "fcvt.w.d",  0xc1e0_0000_0000_0000, 0, 0, RNE, 0xffff_ffff_8000_0000, 0)]
    #[case::w_d_3e9(            "fcvt.w.d",  0x41e6_5a0b_c000_0000, 0, 0, RNE, 0x0000_0000_7fff_ffff, NV)]
    #[case::w_d_2p32(           "fcvt.w.d",  0x41f0_0000_0000_0000, 0, 0, RNE, 0x0000_0000_7fff_ffff, NV)]
    #[case::w_d_2p63(           "fcvt.w.d",  0x43e0_0000_0000_0000, 0, 0, RNE, 0x0000_0000_7fff_ffff, NV)]
    #[case::w_d_m2p63(          "fcvt.w.d",  0xc3e0_0000_0000_0000, 0, 0, RNE, 0xffff_ffff_8000_0000, NV)]
    #[case::w_d_2p64(           "fcvt.w.d",  0x43f0_0000_0000_0000, 0, 0, RNE, 0x0000_0000_7fff_ffff, NV)]
    #[case::w_d_big(            "fcvt.w.d",  0x4629_3e59_39a0_8cea, 0, 0, RNE, 0x0000_0000_7fff_ffff, NV)]
    #[case::w_d_m2p31_m1(       "fcvt.w.d",  0xc1e0_0000_0020_0000, 0, 0, RNE, 0xffff_ffff_8000_0000, NV)]
    #[case::w_d_2p31_m0p5_rne(  "fcvt.w.d",  0x41df_ffff_ffe0_0000, 0, 0, RNE, 0x0000_0000_7fff_ffff, NV)]
    #[case::w_d_2p31_m0p5_rtz(  "fcvt.w.d",  0x41df_ffff_ffe0_0000, 0, 0, RTZ, 0x0000_0000_7fff_ffff, NX)]
    #[case::w_d_2p31_m0p5_rdn(  "fcvt.w.d",  0x41df_ffff_ffe0_0000, 0, 0, RDN, 0x0000_0000_7fff_ffff, NX)]
    #[case::w_d_2p31_m0p5_rup(  "fcvt.w.d",  0x41df_ffff_ffe0_0000, 0, 0, RUP, 0x0000_0000_7fff_ffff, NV)]
    #[case::w_d_2p31_m0p5_rmm(  "fcvt.w.d",  0x41df_ffff_ffe0_0000, 0, 0, RMM, 0x0000_0000_7fff_ffff, NV)]
    #[case::w_d_2p32_m0p5_rne(  "fcvt.w.d",  0x41ef_ffff_fff0_0000, 0, 0, RNE, 0x0000_0000_7fff_ffff, NV)]
    #[case::w_d_2p32_m0p5_rtz(  "fcvt.w.d",  0x41ef_ffff_fff0_0000, 0, 0, RTZ, 0x0000_0000_7fff_ffff, NV)]
    #[case::wu_d_1p5(           "fcvt.wu.d", 0x3ff8_0000_0000_0000, 0, 0, RNE, 0x0000_0000_0000_0002, NX)]
    #[case::wu_d_2p5_rne(       "fcvt.wu.d", 0x4004_0000_0000_0000, 0, 0, RNE, 0x0000_0000_0000_0002, NX)]
    #[case::wu_d_2p5_rtz(       "fcvt.wu.d", 0x4004_0000_0000_0000, 0, 0, RTZ, 0x0000_0000_0000_0002, NX)]
    #[case::wu_d_2p5_rdn(       "fcvt.wu.d", 0x4004_0000_0000_0000, 0, 0, RDN, 0x0000_0000_0000_0002, NX)]
    #[case::wu_d_2p5_rup(       "fcvt.wu.d", 0x4004_0000_0000_0000, 0, 0, RUP, 0x0000_0000_0000_0003, NX)]
    #[case::wu_d_2p5_rmm(       "fcvt.wu.d", 0x4004_0000_0000_0000, 0, 0, RMM, 0x0000_0000_0000_0003, NX)]
    #[case::wu_d_m1p5(          "fcvt.wu.d", 0xbff8_0000_0000_0000, 0, 0, RNE, 0,                     NV)]
    #[case::wu_d_m2p5(          "fcvt.wu.d", 0xc004_0000_0000_0000, 0, 0, RNE, 0,                     NV)]
    #[case::wu_d_m0p5_rne(      "fcvt.wu.d", 0xbfe0_0000_0000_0000, 0, 0, RNE, 0,                     NX)]
    #[case::wu_d_m0p5_rtz(      "fcvt.wu.d", 0xbfe0_0000_0000_0000, 0, 0, RTZ, 0,                     NX)]
    #[case::wu_d_m0p5_rdn(      "fcvt.wu.d", 0xbfe0_0000_0000_0000, 0, 0, RDN, 0,                     NV)]
    #[case::wu_d_m0p5_rup(      "fcvt.wu.d", 0xbfe0_0000_0000_0000, 0, 0, RUP, 0,                     NX)]
    #[case::wu_d_m0p5_rmm(      "fcvt.wu.d", 0xbfe0_0000_0000_0000, 0, 0, RMM, 0,                     NV)]
    #[case::wu_d_nan(           "fcvt.wu.d", 0x7ff8_0000_0000_0000, 0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[case::wu_d_snan(          "fcvt.wu.d", 0x7ff0_0000_0000_0001, 0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[case::wu_d_neg_nan(       "fcvt.wu.d", 0xfff8_0000_0000_0000, 0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[case::wu_d_inf(           "fcvt.wu.d", 0x7ff0_0000_0000_0000, 0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[case::wu_d_ninf(          "fcvt.wu.d", 0xfff0_0000_0000_0000, 0, 0, RNE, 0,                     NV)]
    #[case::wu_d_nzero(         "fcvt.wu.d", 0x8000_0000_0000_0000, 0, 0, RNE, 0,                     0)]
    #[case::wu_d_m1(            "fcvt.wu.d", 0xbff0_0000_0000_0000, 0, 0, RNE, 0,                     NV)]
    #[case::wu_d_sub_rup(       "fcvt.wu.d", 0x0000_0000_0000_0001, 0, 0, RUP, 0x0000_0000_0000_0001, NX)]
    #[case::wu_d_sub_rdn(       "fcvt.wu.d", 0x0000_0000_0000_0001, 0, 0, RDN, 0,                     NX)]
    #[case::wu_d_0p99_rup(      "fcvt.wu.d", 0x3fef_ae14_7ae1_47ae, 0, 0, RUP, 0x0000_0000_0000_0001, NX)]
    #[case::wu_d_2p31(          "fcvt.wu.d", 0x41e0_0000_0000_0000, 0, 0, RNE, 0xffff_ffff_8000_0000, 0)]
    #[case::wu_d_m2p31(         "fcvt.wu.d", 0xc1e0_0000_0000_0000, 0, 0, RNE, 0,                     NV)]
    #[case::wu_d_3e9(           "fcvt.wu.d", 0x41e6_5a0b_c000_0000, 0, 0, RNE, 0xffff_ffff_b2d0_5e00, 0)]
    #[case::wu_d_2p32(          "fcvt.wu.d", 0x41f0_0000_0000_0000, 0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[case::wu_d_2p63(          "fcvt.wu.d", 0x43e0_0000_0000_0000, 0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[case::wu_d_m2p63(         "fcvt.wu.d", 0xc3e0_0000_0000_0000, 0, 0, RNE, 0,                     NV)]
    #[case::wu_d_2p64(          "fcvt.wu.d", 0x43f0_0000_0000_0000, 0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[case::wu_d_big(           "fcvt.wu.d", 0x4629_3e59_39a0_8cea, 0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[case::wu_d_m2p31_m1(      "fcvt.wu.d", 0xc1e0_0000_0020_0000, 0, 0, RNE, 0,                     NV)]
    #[case::wu_d_2p31_m0p5_rne( "fcvt.wu.d", 0x41df_ffff_ffe0_0000, 0, 0, RNE, 0xffff_ffff_8000_0000, NX)]
    #[case::wu_d_2p31_m0p5_rtz( "fcvt.wu.d", 0x41df_ffff_ffe0_0000, 0, 0, RTZ, 0x0000_0000_7fff_ffff, NX)]
    #[case::wu_d_2p31_m0p5_rdn( "fcvt.wu.d", 0x41df_ffff_ffe0_0000, 0, 0, RDN, 0x0000_0000_7fff_ffff, NX)]
    #[case::wu_d_2p31_m0p5_rup( "fcvt.wu.d", 0x41df_ffff_ffe0_0000, 0, 0, RUP, 0xffff_ffff_8000_0000, NX)]
    #[case::wu_d_2p31_m0p5_rmm( "fcvt.wu.d", 0x41df_ffff_ffe0_0000, 0, 0, RMM, 0xffff_ffff_8000_0000, NX)]
    #[case::wu_d_2p32_m0p5_rne( "fcvt.wu.d", 0x41ef_ffff_fff0_0000, 0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[case::wu_d_2p32_m0p5_rtz( "fcvt.wu.d", 0x41ef_ffff_fff0_0000, 0, 0, RTZ, 0xffff_ffff_ffff_ffff, NX)]
    #[case::l_d_1p5_rne(        "fcvt.l.d",  0x3ff8_0000_0000_0000, 0, 0, RNE, 0x0000_0000_0000_0002, NX)]
    #[case::l_d_1p5_rtz(        "fcvt.l.d",  0x3ff8_0000_0000_0000, 0, 0, RTZ, 0x0000_0000_0000_0001, NX)]
    #[case::l_d_1p5_rdn(        "fcvt.l.d",  0x3ff8_0000_0000_0000, 0, 0, RDN, 0x0000_0000_0000_0001, NX)]
    #[case::l_d_1p5_rup(        "fcvt.l.d",  0x3ff8_0000_0000_0000, 0, 0, RUP, 0x0000_0000_0000_0002, NX)]
    #[case::l_d_1p5_rmm(        "fcvt.l.d",  0x3ff8_0000_0000_0000, 0, 0, RMM, 0x0000_0000_0000_0002, NX)]
    #[case::l_d_2p5(            "fcvt.l.d",  0x4004_0000_0000_0000, 0, 0, RNE, 0x0000_0000_0000_0002, NX)]
    #[case::l_d_m1p5_rne(       "fcvt.l.d",  0xbff8_0000_0000_0000, 0, 0, RNE, 0xffff_ffff_ffff_fffe, NX)]
    #[case::l_d_m1p5_rtz(       "fcvt.l.d",  0xbff8_0000_0000_0000, 0, 0, RTZ, 0xffff_ffff_ffff_ffff, NX)]
    #[case::l_d_m1p5_rdn(       "fcvt.l.d",  0xbff8_0000_0000_0000, 0, 0, RDN, 0xffff_ffff_ffff_fffe, NX)]
    #[case::l_d_m1p5_rup(       "fcvt.l.d",  0xbff8_0000_0000_0000, 0, 0, RUP, 0xffff_ffff_ffff_ffff, NX)]
    #[case::l_d_m1p5_rmm(       "fcvt.l.d",  0xbff8_0000_0000_0000, 0, 0, RMM, 0xffff_ffff_ffff_fffe, NX)]
    #[case::l_d_m2p5(           "fcvt.l.d",  0xc004_0000_0000_0000, 0, 0, RNE, 0xffff_ffff_ffff_fffe, NX)]
    #[case::l_d_m0p5(           "fcvt.l.d",  0xbfe0_0000_0000_0000, 0, 0, RNE, 0,                     NX)]
    #[case::l_d_nan(            "fcvt.l.d",  0x7ff8_0000_0000_0000, 0, 0, RNE, 0x7fff_ffff_ffff_ffff, NV)]
    #[case::l_d_snan(           "fcvt.l.d",  0x7ff0_0000_0000_0001, 0, 0, RNE, 0x7fff_ffff_ffff_ffff, NV)]
    #[case::l_d_neg_nan(        "fcvt.l.d",  0xfff8_0000_0000_0000, 0, 0, RNE, 0x7fff_ffff_ffff_ffff, NV)]
    #[case::l_d_inf(            "fcvt.l.d",  0x7ff0_0000_0000_0000, 0, 0, RNE, 0x7fff_ffff_ffff_ffff, NV)]
    #[case::l_d_ninf(           "fcvt.l.d",  0xfff0_0000_0000_0000, 0, 0, RNE, 0x8000_0000_0000_0000, NV)]
    #[case::l_d_nzero(          "fcvt.l.d",  0x8000_0000_0000_0000, 0, 0, RNE, 0,                     0)]
    #[case::l_d_m1(             "fcvt.l.d",  0xbff0_0000_0000_0000, 0, 0, RNE, 0xffff_ffff_ffff_ffff, 0)]
    #[case::l_d_sub_rup(        "fcvt.l.d",  0x0000_0000_0000_0001, 0, 0, RUP, 0x0000_0000_0000_0001, NX)]
    #[case::l_d_sub_rdn(        "fcvt.l.d",  0x0000_0000_0000_0001, 0, 0, RDN, 0,                     NX)]
    #[case::l_d_0p99_rup(       "fcvt.l.d",  0x3fef_ae14_7ae1_47ae, 0, 0, RUP, 0x0000_0000_0000_0001, NX)]
    #[case::l_d_2p31(           "fcvt.l.d",  0x41e0_0000_0000_0000, 0, 0, RNE, 0x0000_0000_8000_0000, 0)]
    #[case::l_d_m2p31(          "fcvt.l.d",  0xc1e0_0000_0000_0000, 0, 0, RNE, 0xffff_ffff_8000_0000, 0)]
    #[case::l_d_3e9(            "fcvt.l.d",  0x41e6_5a0b_c000_0000, 0, 0, RNE, 0x0000_0000_b2d0_5e00, 0)]
    #[case::l_d_2p32(           "fcvt.l.d",  0x41f0_0000_0000_0000, 0, 0, RNE, 0x0000_0001_0000_0000, 0)]
    #[case::l_d_2p63(           "fcvt.l.d",  0x43e0_0000_0000_0000, 0, 0, RNE, 0x7fff_ffff_ffff_ffff, NV)]
    #[case::l_d_m2p63(          "fcvt.l.d",  0xc3e0_0000_0000_0000, 0, 0, RNE, 0x8000_0000_0000_0000, 0)]
    #[case::l_d_2p64(           "fcvt.l.d",  0x43f0_0000_0000_0000, 0, 0, RNE, 0x7fff_ffff_ffff_ffff, NV)]
    #[case::l_d_big(            "fcvt.l.d",  0x4629_3e59_39a0_8cea, 0, 0, RNE, 0x7fff_ffff_ffff_ffff, NV)]
    #[case::l_d_m2p31_m1(       "fcvt.l.d",  0xc1e0_0000_0020_0000, 0, 0, RNE, 0xffff_ffff_7fff_ffff, 0)]
    #[case::l_d_2p32_m0p5_rne(  "fcvt.l.d",  0x41ef_ffff_fff0_0000, 0, 0, RNE, 0x0000_0001_0000_0000, NX)]
    #[case::l_d_2p32_m0p5_rtz(  "fcvt.l.d",  0x41ef_ffff_fff0_0000, 0, 0, RTZ, 0x0000_0000_ffff_ffff, NX)]
    #[case::lu_d_1p5(           "fcvt.lu.d", 0x3ff8_0000_0000_0000, 0, 0, RNE, 0x0000_0000_0000_0002, NX)]
    #[case::lu_d_2p5(           "fcvt.lu.d", 0x4004_0000_0000_0000, 0, 0, RNE, 0x0000_0000_0000_0002, NX)]
    #[case::lu_d_m1p5(          "fcvt.lu.d", 0xbff8_0000_0000_0000, 0, 0, RNE, 0,                     NV)]
    #[case::lu_d_m2p5(          "fcvt.lu.d", 0xc004_0000_0000_0000, 0, 0, RNE, 0,                     NV)]
    #[case::lu_d_m0p5_rne(      "fcvt.lu.d", 0xbfe0_0000_0000_0000, 0, 0, RNE, 0,                     NX)]
    #[case::lu_d_m0p5_rtz(      "fcvt.lu.d", 0xbfe0_0000_0000_0000, 0, 0, RTZ, 0,                     NX)]
    #[case::lu_d_m0p5_rdn(      "fcvt.lu.d", 0xbfe0_0000_0000_0000, 0, 0, RDN, 0,                     NV)]
    #[case::lu_d_m0p5_rup(      "fcvt.lu.d", 0xbfe0_0000_0000_0000, 0, 0, RUP, 0,                     NX)]
    #[case::lu_d_m0p5_rmm(      "fcvt.lu.d", 0xbfe0_0000_0000_0000, 0, 0, RMM, 0,                     NV)]
    #[case::lu_d_nan(           "fcvt.lu.d", 0x7ff8_0000_0000_0000, 0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[case::lu_d_snan(          "fcvt.lu.d", 0x7ff0_0000_0000_0001, 0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[case::lu_d_neg_nan(       "fcvt.lu.d", 0xfff8_0000_0000_0000, 0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[case::lu_d_inf(           "fcvt.lu.d", 0x7ff0_0000_0000_0000, 0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[case::lu_d_ninf(          "fcvt.lu.d", 0xfff0_0000_0000_0000, 0, 0, RNE, 0,                     NV)]
    #[case::lu_d_nzero(         "fcvt.lu.d", 0x8000_0000_0000_0000, 0, 0, RNE, 0,                     0)]
    #[case::lu_d_m1(            "fcvt.lu.d", 0xbff0_0000_0000_0000, 0, 0, RNE, 0,                     NV)]
    #[case::lu_d_sub_rup(       "fcvt.lu.d", 0x0000_0000_0000_0001, 0, 0, RUP, 0x0000_0000_0000_0001, NX)]
    #[case::lu_d_sub_rdn(       "fcvt.lu.d", 0x0000_0000_0000_0001, 0, 0, RDN, 0,                     NX)]
    #[case::lu_d_0p99_rup(      "fcvt.lu.d", 0x3fef_ae14_7ae1_47ae, 0, 0, RUP, 0x0000_0000_0000_0001, NX)]
    #[case::lu_d_2p31(          "fcvt.lu.d", 0x41e0_0000_0000_0000, 0, 0, RNE, 0x0000_0000_8000_0000, 0)]
    #[case::lu_d_m2p31(         "fcvt.lu.d", 0xc1e0_0000_0000_0000, 0, 0, RNE, 0,                     NV)]
    #[case::lu_d_3e9(           "fcvt.lu.d", 0x41e6_5a0b_c000_0000, 0, 0, RNE, 0x0000_0000_b2d0_5e00, 0)]
    #[case::lu_d_2p32(          "fcvt.lu.d", 0x41f0_0000_0000_0000, 0, 0, RNE, 0x0000_0001_0000_0000, 0)]
    #[case::lu_d_2p63(          "fcvt.lu.d", 0x43e0_0000_0000_0000, 0, 0, RNE, 0x8000_0000_0000_0000, 0)]
    #[case::lu_d_m2p63(         "fcvt.lu.d", 0xc3e0_0000_0000_0000, 0, 0, RNE, 0,                     NV)]
    #[case::lu_d_2p64(          "fcvt.lu.d", 0x43f0_0000_0000_0000, 0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[case::lu_d_big(           "fcvt.lu.d", 0x4629_3e59_39a0_8cea, 0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[case::lu_d_m2p31_m1(      "fcvt.lu.d", 0xc1e0_0000_0020_0000, 0, 0, RNE, 0,                     NV)]
    #[case::lu_d_2p32_m0p5_rne( "fcvt.lu.d", 0x41ef_ffff_fff0_0000, 0, 0, RNE, 0x0000_0001_0000_0000, NX)]
    #[case::lu_d_2p32_m0p5_rtz( "fcvt.lu.d", 0x41ef_ffff_fff0_0000, 0, 0, RTZ, 0x0000_0000_ffff_ffff, NX)]
    #[case::w_s_bad_box(        "fcvt.w.s",  0x0000_0000_4040_0000, 0, 0, RNE, 0x0000_0000_7fff_ffff, NV)]
    #[case::lu_s_bad_box(       "fcvt.lu.s", 0x0000_0000_4040_0000, 0, 0, RNE, 0xffff_ffff_ffff_ffff, NV)]
    #[rustfmt::skip]
    fn cvt_to_int(
        #[case] op: &str,
        #[case] a: u64,
        #[case] b: u64,
        #[case] c: u64,
        #[case] rm: u8,
        #[case] want: u64,
        #[case] flags: u8,
    ) {
        check(op, a, b, c, rm, want, flags);
    }

    /// Spike-confirmed: fcvt.{s,d}.{w,wu,l,lu}: rounding of wide integers in every mode; W forms
    /// read only the low 32 bits of rs1.
    #[rstest]
    #[case::s_w_2p24p1_rne(     "fcvt.s.w",  0x0000_0000_0100_0001, 0, 0, RNE, B | 0x4b80_0000,       NX)]
    #[case::s_w_2p24p1_rtz(     "fcvt.s.w",  0x0000_0000_0100_0001, 0, 0, RTZ, B | 0x4b80_0000,       NX)]
    #[case::s_w_2p24p1_rdn(     "fcvt.s.w",  0x0000_0000_0100_0001, 0, 0, RDN, B | 0x4b80_0000,       NX)]
    #[case::s_w_2p24p1_rup(     "fcvt.s.w",  0x0000_0000_0100_0001, 0, 0, RUP, B | 0x4b80_0001,       NX)]
    #[case::s_w_2p24p1_rmm(     "fcvt.s.w",  0x0000_0000_0100_0001, 0, 0, RMM, B | 0x4b80_0001,       NX)]
    #[case::s_w_2p24p3_rne(     "fcvt.s.w",  0x0000_0000_0100_0003, 0, 0, RNE, B | 0x4b80_0002,       NX)]
    #[case::s_w_2p24p3_rtz(     "fcvt.s.w",  0x0000_0000_0100_0003, 0, 0, RTZ, B | 0x4b80_0001,       NX)]
    #[case::s_w_2p24p3_rdn(     "fcvt.s.w",  0x0000_0000_0100_0003, 0, 0, RDN, B | 0x4b80_0001,       NX)]
    #[case::s_w_2p24p3_rup(     "fcvt.s.w",  0x0000_0000_0100_0003, 0, 0, RUP, B | 0x4b80_0002,       NX)]
    #[case::s_w_2p24p3_rmm(     "fcvt.s.w",  0x0000_0000_0100_0003, 0, 0, RMM, B | 0x4b80_0002,       NX)]
    #[case::s_w_m2p24m1_rne(    "fcvt.s.w",  0xffff_ffff_feff_ffff, 0, 0, RNE, B | 0xcb80_0000,       NX)]
    #[case::s_w_m2p24m1_rtz(    "fcvt.s.w",  0xffff_ffff_feff_ffff, 0, 0, RTZ, B | 0xcb80_0000,       NX)]
    #[case::s_w_m2p24m1_rdn(    "fcvt.s.w",  0xffff_ffff_feff_ffff, 0, 0, RDN, B | 0xcb80_0001,       NX)]
    #[case::s_w_m2p24m1_rup(    "fcvt.s.w",  0xffff_ffff_feff_ffff, 0, 0, RUP, B | 0xcb80_0000,       NX)]
    #[case::s_w_m2p24m1_rmm(    "fcvt.s.w",  0xffff_ffff_feff_ffff, 0, 0, RMM, B | 0xcb80_0001,       NX)]
    #[case::s_w_zero(           "fcvt.s.w",  0,                     0, 0, RNE, B,                     0)]
    #[case::s_w_int_min(        "fcvt.s.w",  0xffff_ffff_8000_0000, 0, 0, RNE, B | 0xcf00_0000,       0)]
    #[case::s_w_ignores_upper(  "fcvt.s.w",  0x1234_5678_0000_0001, 0, 0, RNE, B | 0x3f80_0000,       0)]
    #[case::s_w_low_neg(        "fcvt.s.w",  0x0000_0000_ffff_ffff, 0, 0, RNE, B | 0xbf80_0000,       0)]
    #[case::s_wu_max_rne(       "fcvt.s.wu", 0x0000_0000_ffff_ffff, 0, 0, RNE, B | 0x4f80_0000,       NX)]
    #[case::s_wu_max_rtz(       "fcvt.s.wu", 0x0000_0000_ffff_ffff, 0, 0, RTZ, B | 0x4f7f_ffff,       NX)]
    #[case::s_wu_max_rdn(       "fcvt.s.wu", 0x0000_0000_ffff_ffff, 0, 0, RDN, B | 0x4f7f_ffff,       NX)]
    #[case::s_wu_max_rup(       "fcvt.s.wu", 0x0000_0000_ffff_ffff, 0, 0, RUP, B | 0x4f80_0000,       NX)]
    #[case::s_wu_max_rmm(       "fcvt.s.wu", 0x0000_0000_ffff_ffff, 0, 0, RMM, B | 0x4f80_0000,       NX)]
    #[case::s_wu_ignores_upper( "fcvt.s.wu", 0xffff_ffff_8000_0000, 0, 0, RNE, B | 0x4f00_0000,       0)]
    #[case::s_l_m1(             "fcvt.s.l",  0xffff_ffff_ffff_ffff, 0, 0, RNE, B | 0xbf80_0000,       0)]
    #[case::s_l_min(            "fcvt.s.l",  0x8000_0000_0000_0000, 0, 0, RNE, B | 0xdf00_0000,       0)]
    #[case::s_l_max_rne(        "fcvt.s.l",  0x7fff_ffff_ffff_ffff, 0, 0, RNE, B | 0x5f00_0000,       NX)]
    #[case::s_l_max_rtz(        "fcvt.s.l",  0x7fff_ffff_ffff_ffff, 0, 0, RTZ, B | 0x5eff_ffff,       NX)]
    #[case::s_l_max_rdn(        "fcvt.s.l",  0x7fff_ffff_ffff_ffff, 0, 0, RDN, B | 0x5eff_ffff,       NX)]
    #[case::s_l_max_rup(        "fcvt.s.l",  0x7fff_ffff_ffff_ffff, 0, 0, RUP, B | 0x5f00_0000,       NX)]
    #[case::s_l_max_rmm(        "fcvt.s.l",  0x7fff_ffff_ffff_ffff, 0, 0, RMM, B | 0x5f00_0000,       NX)]
    #[case::s_l_neg_odd_rne(    "fcvt.s.l",  0xffff_feff_fffe_ffff, 0, 0, RNE, B | 0xd380_0001,       NX)]
    #[case::s_l_neg_odd_rtz(    "fcvt.s.l",  0xffff_feff_fffe_ffff, 0, 0, RTZ, B | 0xd380_0000,       NX)]
    #[case::s_l_neg_odd_rdn(    "fcvt.s.l",  0xffff_feff_fffe_ffff, 0, 0, RDN, B | 0xd380_0001,       NX)]
    #[case::s_l_neg_odd_rup(    "fcvt.s.l",  0xffff_feff_fffe_ffff, 0, 0, RUP, B | 0xd380_0000,       NX)]
    #[case::s_l_neg_odd_rmm(    "fcvt.s.l",  0xffff_feff_fffe_ffff, 0, 0, RMM, B | 0xd380_0001,       NX)]
    #[case::s_lu_max_rne(       "fcvt.s.lu", 0xffff_ffff_ffff_ffff, 0, 0, RNE, B | 0x5f80_0000,       NX)]
    #[case::s_lu_max_rtz(       "fcvt.s.lu", 0xffff_ffff_ffff_ffff, 0, 0, RTZ, B | 0x5f7f_ffff,       NX)]
    #[case::s_lu_max_rdn(       "fcvt.s.lu", 0xffff_ffff_ffff_ffff, 0, 0, RDN, B | 0x5f7f_ffff,       NX)]
    #[case::s_lu_max_rup(       "fcvt.s.lu", 0xffff_ffff_ffff_ffff, 0, 0, RUP, B | 0x5f80_0000,       NX)]
    #[case::s_lu_max_rmm(       "fcvt.s.lu", 0xffff_ffff_ffff_ffff, 0, 0, RMM, B | 0x5f80_0000,       NX)]
    #[case::s_lu_2p63(          "fcvt.s.lu", 0x8000_0000_0000_0000, 0, 0, RNE, B | 0x5f00_0000,       0)]
    #[case::d_w_m1(             "fcvt.d.w",  0xffff_ffff_ffff_ffff, 0, 0, RNE, 0xbff0_0000_0000_0000, 0)]
    #[case::d_w_int_min(        "fcvt.d.w",  0x0000_0000_8000_0000, 0, 0, RNE, 0xc1e0_0000_0000_0000, 0)]
    #[case::d_w_ignores_upper(  "fcvt.d.w",  0xabcd_ef00_0000_0007, 0, 0, RNE, 0x401c_0000_0000_0000, 0)]
    #[case::d_wu_max(           "fcvt.d.wu", 0xffff_ffff_ffff_ffff, 0, 0, RNE, 0x41ef_ffff_ffe0_0000, 0)]
    #[case::d_wu_zero(          "fcvt.d.wu", 0xffff_ffff_0000_0000, 0, 0, RNE, 0,                     0)]
    #[case::d_l_2p53p1_rne(     "fcvt.d.l",  0x0020_0000_0000_0001, 0, 0, RNE, 0x4340_0000_0000_0000, NX)]
    #[case::d_l_2p53p1_rtz(     "fcvt.d.l",  0x0020_0000_0000_0001, 0, 0, RTZ, 0x4340_0000_0000_0000, NX)]
    #[case::d_l_2p53p1_rdn(     "fcvt.d.l",  0x0020_0000_0000_0001, 0, 0, RDN, 0x4340_0000_0000_0000, NX)]
    #[case::d_l_2p53p1_rup(     "fcvt.d.l",  0x0020_0000_0000_0001, 0, 0, RUP, 0x4340_0000_0000_0001, NX)]
    #[case::d_l_2p53p1_rmm(     "fcvt.d.l",  0x0020_0000_0000_0001, 0, 0, RMM, 0x4340_0000_0000_0001, NX)]
    #[case::d_l_m2p53m1_rne(    "fcvt.d.l",  0xffdf_ffff_ffff_ffff, 0, 0, RNE, 0xc340_0000_0000_0000, NX)]
    #[case::d_l_m2p53m1_rtz(    "fcvt.d.l",  0xffdf_ffff_ffff_ffff, 0, 0, RTZ, 0xc340_0000_0000_0000, NX)]
    #[case::d_l_m2p53m1_rdn(    "fcvt.d.l",  0xffdf_ffff_ffff_ffff, 0, 0, RDN, 0xc340_0000_0000_0001, NX)]
    #[case::d_l_m2p53m1_rup(    "fcvt.d.l",  0xffdf_ffff_ffff_ffff, 0, 0, RUP, 0xc340_0000_0000_0000, NX)]
    #[case::d_l_m2p53m1_rmm(    "fcvt.d.l",  0xffdf_ffff_ffff_ffff, 0, 0, RMM, 0xc340_0000_0000_0001, NX)]
    #[case::d_l_min(            "fcvt.d.l",  0x8000_0000_0000_0000, 0, 0, RNE, 0xc3e0_0000_0000_0000, 0)]
    #[case::d_l_zero(           "fcvt.d.l",  0,                     0, 0, RNE, 0,                     0)]
    #[case::d_lu_max_rne(       "fcvt.d.lu", 0xffff_ffff_ffff_ffff, 0, 0, RNE, 0x43f0_0000_0000_0000, NX)]
    #[case::d_lu_max_rtz(       "fcvt.d.lu", 0xffff_ffff_ffff_ffff, 0, 0, RTZ, 0x43ef_ffff_ffff_ffff, NX)]
    #[case::d_lu_max_rdn(       "fcvt.d.lu", 0xffff_ffff_ffff_ffff, 0, 0, RDN, 0x43ef_ffff_ffff_ffff, NX)]
    #[case::d_lu_max_rup(       "fcvt.d.lu", 0xffff_ffff_ffff_ffff, 0, 0, RUP, 0x43f0_0000_0000_0000, NX)]
    #[case::d_lu_max_rmm(       "fcvt.d.lu", 0xffff_ffff_ffff_ffff, 0, 0, RMM, 0x43f0_0000_0000_0000, NX)]
    #[case::d_lu_2p53p3_rne(    "fcvt.d.lu", 0x0020_0000_0000_0003, 0, 0, RNE, 0x4340_0000_0000_0002, NX)]
    #[case::d_lu_2p53p3_rtz(    "fcvt.d.lu", 0x0020_0000_0000_0003, 0, 0, RTZ, 0x4340_0000_0000_0001, NX)]
    #[case::d_lu_2p53p3_rdn(    "fcvt.d.lu", 0x0020_0000_0000_0003, 0, 0, RDN, 0x4340_0000_0000_0001, NX)]
    #[case::d_lu_2p53p3_rup(    "fcvt.d.lu", 0x0020_0000_0000_0003, 0, 0, RUP, 0x4340_0000_0000_0002, NX)]
    #[case::d_lu_2p53p3_rmm(    "fcvt.d.lu", 0x0020_0000_0000_0003, 0, 0, RMM, 0x4340_0000_0000_0002, NX)]
    #[rustfmt::skip]
    fn cvt_from_int(
        #[case] op: &str,
        #[case] a: u64,
        #[case] b: u64,
        #[case] c: u64,
        #[case] rm: u8,
        #[case] want: u64,
        #[case] flags: u8,
    ) {
        check(op, a, b, c, rm, want, flags);
    }

    /// Spike-confirmed: fcvt.s.d (rounding, overflow, underflow, tininess after rounding, NaN
    /// canonicalisation) and fcvt.d.s (exact; NaN canonicalisation; improperly boxed input).
    #[rstest]
    #[case::s_d_one(                     "fcvt.s.d", 0x3ff0_0000_0000_0000, 0, 0, RNE, B | 0x3f80_0000,       0)]
    #[case::s_d_tenth_rne(               "fcvt.s.d", 0x3fb9_9999_9999_999a, 0, 0, RNE, B | 0x3dcc_cccd,       NX)]
    #[case::s_d_tenth_rtz(               "fcvt.s.d", 0x3fb9_9999_9999_999a, 0, 0, RTZ, B | 0x3dcc_cccc,       NX)]
    #[case::s_d_tenth_rdn(               "fcvt.s.d", 0x3fb9_9999_9999_999a, 0, 0, RDN, B | 0x3dcc_cccc,       NX)]
    #[case::s_d_tenth_rup(               "fcvt.s.d", 0x3fb9_9999_9999_999a, 0, 0, RUP, B | 0x3dcc_cccd,       NX)]
    #[case::s_d_tenth_rmm(               "fcvt.s.d", 0x3fb9_9999_9999_999a, 0, 0, RMM, B | 0x3dcc_cccd,       NX)]
    #[case::s_d_neg_tenth_rne(           "fcvt.s.d", 0xbfb9_9999_9999_999a, 0, 0, RNE, B | 0xbdcc_cccd,       NX)]
    #[case::s_d_neg_tenth_rtz(           "fcvt.s.d", 0xbfb9_9999_9999_999a, 0, 0, RTZ, B | 0xbdcc_cccc,       NX)]
    #[case::s_d_neg_tenth_rdn(           "fcvt.s.d", 0xbfb9_9999_9999_999a, 0, 0, RDN, B | 0xbdcc_cccd,       NX)]
    #[case::s_d_neg_tenth_rup(           "fcvt.s.d", 0xbfb9_9999_9999_999a, 0, 0, RUP, B | 0xbdcc_cccc,       NX)]
    #[case::s_d_neg_tenth_rmm(           "fcvt.s.d", 0xbfb9_9999_9999_999a, 0, 0, RMM, B | 0xbdcc_cccd,       NX)]
    #[case::s_d_halfway_rne(             "fcvt.s.d", 0x3ff0_0000_1000_0000, 0, 0, RNE, B | 0x3f80_0000,       NX)]
    #[case::s_d_halfway_rtz(             "fcvt.s.d", 0x3ff0_0000_1000_0000, 0, 0, RTZ, B | 0x3f80_0000,       NX)]
    #[case::s_d_halfway_rdn(             "fcvt.s.d", 0x3ff0_0000_1000_0000, 0, 0, RDN, B | 0x3f80_0000,       NX)]
    #[case::s_d_halfway_rup(             "fcvt.s.d", 0x3ff0_0000_1000_0000, 0, 0, RUP, B | 0x3f80_0001,       NX)]
    #[case::s_d_halfway_rmm(             "fcvt.s.d", 0x3ff0_0000_1000_0000, 0, 0, RMM, B | 0x3f80_0001,       NX)]
    #[case::s_d_overflow_rne(            "fcvt.s.d", 0x7e37_e43c_8800_759c, 0, 0, RNE, B | 0x7f80_0000,       OF | NX)]
    #[case::s_d_overflow_rtz(            "fcvt.s.d", 0x7e37_e43c_8800_759c, 0, 0, RTZ, B | 0x7f7f_ffff,       OF | NX)]
    #[case::s_d_overflow_rdn(            "fcvt.s.d", 0x7e37_e43c_8800_759c, 0, 0, RDN, B | 0x7f7f_ffff,       OF | NX)]
    #[case::s_d_overflow_rup(            "fcvt.s.d", 0x7e37_e43c_8800_759c, 0, 0, RUP, B | 0x7f80_0000,       OF | NX)]
    #[case::s_d_overflow_rmm(            "fcvt.s.d", 0x7e37_e43c_8800_759c, 0, 0, RMM, B | 0x7f80_0000,       OF | NX)]
    #[case::s_d_neg_overflow_rne(        "fcvt.s.d", 0xfe37_e43c_8800_759c, 0, 0, RNE, B | 0xff80_0000,       OF | NX)]
    #[case::s_d_neg_overflow_rtz(        "fcvt.s.d", 0xfe37_e43c_8800_759c, 0, 0, RTZ, B | 0xff7f_ffff,       OF | NX)]
    #[case::s_d_neg_overflow_rdn(        "fcvt.s.d", 0xfe37_e43c_8800_759c, 0, 0, RDN, B | 0xff80_0000,       OF | NX)]
    #[case::s_d_neg_overflow_rup(        "fcvt.s.d", 0xfe37_e43c_8800_759c, 0, 0, RUP, B | 0xff7f_ffff,       OF | NX)]
    #[case::s_d_neg_overflow_rmm(        "fcvt.s.d", 0xfe37_e43c_8800_759c, 0, 0, RMM, B | 0xff80_0000,       OF | NX)]
    #[case::s_d_just_over_max_rne(       "fcvt.s.d", 0x47ef_ffff_f000_0000, 0, 0, RNE, B | 0x7f80_0000,       OF | NX)]
    #[case::s_d_just_over_max_rtz(       "fcvt.s.d", 0x47ef_ffff_f000_0000, 0, 0, RTZ, B | 0x7f7f_ffff,       NX)]
    #[case::s_d_just_over_max_rdn(       "fcvt.s.d", 0x47ef_ffff_f000_0000, 0, 0, RDN, B | 0x7f7f_ffff,       NX)]
    #[case::s_d_just_over_max_rup(       "fcvt.s.d", 0x47ef_ffff_f000_0000, 0, 0, RUP, B | 0x7f80_0000,       OF | NX)]
    #[case::s_d_just_over_max_rmm(       "fcvt.s.d", 0x47ef_ffff_f000_0000, 0, 0, RMM, B | 0x7f80_0000,       OF | NX)]
    #[case::s_d_underflow_rne(           "fcvt.s.d", 0x358d_ee7a_4ad4_b81f, 0, 0, RNE, B,                     UF | NX)]
    #[case::s_d_underflow_rtz(           "fcvt.s.d", 0x358d_ee7a_4ad4_b81f, 0, 0, RTZ, B,                     UF | NX)]
    #[case::s_d_underflow_rdn(           "fcvt.s.d", 0x358d_ee7a_4ad4_b81f, 0, 0, RDN, B,                     UF | NX)]
    #[case::s_d_underflow_rup(           "fcvt.s.d", 0x358d_ee7a_4ad4_b81f, 0, 0, RUP, B | 0x0000_0001,       UF | NX)]
    #[case::s_d_underflow_rmm(           "fcvt.s.d", 0x358d_ee7a_4ad4_b81f, 0, 0, RMM, B,                     UF | NX)]
    #[case::s_d_neg_underflow_rne(       "fcvt.s.d", 0xb58d_ee7a_4ad4_b81f, 0, 0, RNE, B | 0x8000_0000,       UF | NX)]
    #[case::s_d_neg_underflow_rtz(       "fcvt.s.d", 0xb58d_ee7a_4ad4_b81f, 0, 0, RTZ, B | 0x8000_0000,       UF | NX)]
    #[case::s_d_neg_underflow_rdn(       "fcvt.s.d", 0xb58d_ee7a_4ad4_b81f, 0, 0, RDN, B | 0x8000_0001,       UF | NX)]
    #[case::s_d_neg_underflow_rup(       "fcvt.s.d", 0xb58d_ee7a_4ad4_b81f, 0, 0, RUP, B | 0x8000_0000,       UF | NX)]
    #[case::s_d_neg_underflow_rmm(       "fcvt.s.d", 0xb58d_ee7a_4ad4_b81f, 0, 0, RMM, B | 0x8000_0000,       UF | NX)]
    #[case::s_d_tiny_after_rounding_rne( "fcvt.s.d", 0x380f_ffff_ff80_0000, 0, 0, RNE, B | 0x0080_0000,       NX)]
    #[case::s_d_tiny_after_rounding_rtz( "fcvt.s.d", 0x380f_ffff_ff80_0000, 0, 0, RTZ, B | 0x007f_ffff,       UF | NX)]
    #[case::s_d_tiny_after_rounding_rdn( "fcvt.s.d", 0x380f_ffff_ff80_0000, 0, 0, RDN, B | 0x007f_ffff,       UF | NX)]
    #[case::s_d_tiny_after_rounding_rup( "fcvt.s.d", 0x380f_ffff_ff80_0000, 0, 0, RUP, B | 0x0080_0000,       NX)]
    #[case::s_d_tiny_after_rounding_rmm( "fcvt.s.d", 0x380f_ffff_ff80_0000, 0, 0, RMM, B | 0x0080_0000,       NX)]
    #[case::s_d_exact_subnormal(         "fcvt.s.d", 0x36a0_0000_0000_0000, 0, 0, RNE, B | 0x0000_0001,       0)]
    #[case::s_d_dmax(                    "fcvt.s.d", 0x7fef_ffff_ffff_ffff, 0, 0, RDN, B | 0x7f7f_ffff,       OF | NX)]
    #[case::s_d_inf(                     "fcvt.s.d", 0xfff0_0000_0000_0000, 0, 0, RNE, B | 0xff80_0000,       0)]
    #[case::s_d_nzero(                   "fcvt.s.d", 0x8000_0000_0000_0000, 0, 0, RNE, B | 0x8000_0000,       0)]
    #[case::s_d_qnan(                    "fcvt.s.d", 0x7ff8_0000_0000_beef, 0, 0, RNE, B | 0x7fc0_0000,       0)]
    #[case::s_d_neg_qnan(                "fcvt.s.d", 0xfff8_0000_0000_0000, 0, 0, RNE, B | 0x7fc0_0000,       0)]
    #[case::s_d_snan(                    "fcvt.s.d", 0x7ff0_0000_0000_0001, 0, 0, RNE, B | 0x7fc0_0000,       NV)]
    #[case::d_s_one(                     "fcvt.d.s", B | 0x3f80_0000,       0, 0, RNE, 0x3ff0_0000_0000_0000, 0)]
    #[case::d_s_subnormal(               "fcvt.d.s", B | 0x0000_0001,       0, 0, RNE, 0x36a0_0000_0000_0000, 0)]
    #[case::d_s_max(                     "fcvt.d.s", B | 0xff7f_ffff,       0, 0, RNE, 0xc7ef_ffff_e000_0000, 0)]
    #[case::d_s_ninf(                    "fcvt.d.s", B | 0xff80_0000,       0, 0, RNE, 0xfff0_0000_0000_0000, 0)]
    #[case::d_s_nzero(                   "fcvt.d.s", B | 0x8000_0000,       0, 0, RNE, 0x8000_0000_0000_0000, 0)]
    #[case::d_s_qnan_payload(            "fcvt.d.s", B | 0x7fc1_2345,       0, 0, RNE, 0x7ff8_0000_0000_0000, 0)]
    #[case::d_s_neg_qnan(                "fcvt.d.s", B | 0xffc0_0000,       0, 0, RNE, 0x7ff8_0000_0000_0000, 0)]
    #[case::d_s_snan(                    "fcvt.d.s", B | 0x7f80_0001,       0, 0, RNE, 0x7ff8_0000_0000_0000, NV)]
    #[case::d_s_bad_box(                 "fcvt.d.s", 0x0000_0000_3f80_0000, 0, 0, RNE, 0x7ff8_0000_0000_0000, 0)]
    #[rustfmt::skip]
    fn cvt_fp(
        #[case] op: &str,
        #[case] a: u64,
        #[case] b: u64,
        #[case] c: u64,
        #[case] rm: u8,
        #[case] want: u64,
        #[case] flags: u8,
    ) {
        check(op, a, b, c, rm, want, flags);
    }

    /// Spike-confirmed: fmv.x.w (raw low 32 bits sign-extended, no unboxing) and fmv.w.x (boxes).
    #[rstest]
    #[case::x_w_pos(         "fmv.x.w", B | 0x3f80_0000,       0, 0, RNE, 0x0000_0000_3f80_0000, 0)]
    #[case::x_w_neg(         "fmv.x.w", B | 0xc000_0000,       0, 0, RNE, 0xffff_ffff_c000_0000, 0)]
    #[case::x_w_bad_box_raw( "fmv.x.w", 0x1234_5678_9abc_def0, 0, 0, RNE, 0xffff_ffff_9abc_def0, 0)]
    #[case::x_w_bad_box_pos( "fmv.x.w", 0x0000_0000_1234_5678, 0, 0, RNE, 0x0000_0000_1234_5678, 0)]
    #[case::w_x_boxes(       "fmv.w.x", 0x1234_5678_3f80_0000, 0, 0, RNE, B | 0x3f80_0000,       0)]
    #[case::w_x_neg(         "fmv.w.x", 0x0000_0000_bf80_0000, 0, 0, RNE, B | 0xbf80_0000,       0)]
    #[rustfmt::skip]
    fn moves(
        #[case] op: &str,
        #[case] a: u64,
        #[case] b: u64,
        #[case] c: u64,
        #[case] rm: u8,
        #[case] want: u64,
        #[case] flags: u8,
    ) {
        check(op, a, b, c, rm, want, flags);
    }
}
