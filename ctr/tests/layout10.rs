//! The ratified 1.0 layout's differences from draft 0.1.4 (README "Control Transfer Records"
//! facts; ratified Smctr/Ssctr text): CSR numbers, enable-bit order, sctrstatus without WRAP
//! and with FROZEN at bit 31, sctrdepth, SCTRCLR, entries only through siselect/sireg*,
//! mstateen0 bit 54. (External traps across intervening modes: tests/transitions.rs.)

mod common;
use arch::{Itype, Priv};
use common::*;
use ctr::{AccessCtx, Bank, Fault, Layout, Outcome};
use rstest::rstest;
use Priv::{M, S, U};

/// Enable bits U=0, S=1, M=2 (0.1.4 has M=0, S=1, U=2).
#[rstest]
#[case::u(r10::U, U)]
#[case::s(r10::S, S)]
#[case::m(r10::M, M)]
fn enable_bit_order(#[case] bit: u64, #[case] p: Priv) {
    let mut c = new(Layout::Ratified10);
    set_ctl(&mut c, bit);
    for q in [U, S, M] {
        assert_eq!(c.recording_in(q), q == p);
    }
    let mut d = new(Layout::Draft014);
    set_ctl(&mut d, bit);
    // The same bit means another mode in the draft (bit 0 M, bit 2 U).
    let draft_mode = match bit {
        1 => M,
        2 => S,
        _ => U,
    };
    assert!(d.recording_in(draft_mode));
}

/// sctrstatus: WRPTR\[7:0\], FROZEN at bit 31, no WRAP, 32 bits; the rest reads 0.
#[test]
fn sctrstatus_fields() {
    let mut c = new(Layout::Ratified10);
    set_status(&mut c, u64::MAX);
    assert_eq!(status(&c), 0x8000_000F);
    assert!(c.frozen());
    set_status(&mut c, 1 << 15 | 1 << 14);
    assert_eq!(status(&c), 0, "bits 15 and 14 are not FROZEN/WRAP here");
    assert!(!c.frozen());
    // There is no mctrstatus: 0x383 is not CTR's in 1.0.
    assert_eq!(c.csr_read(0x383, M, &ctx()), None);
}

/// sctrdepth holds the depth; mctrctl has no DEPTH or CLR field.
#[test]
fn sctrdepth_holds_depth() {
    let mut c = new(Layout::Ratified10);
    c.csr_write(r10::SCTRDEPTH, 4, S, &ctx()).unwrap().unwrap();
    assert_eq!(c.depth(), 256);
    set_ctl(&mut c, 0xF << 16 | 1 << 7);
    assert_eq!(c.depth(), 256);
    assert_eq!(ctl(&c) & (0xF << 16), 0);
    assert_eq!(c.csr_read(r10::SCTRDEPTH, S, &ctx()).unwrap().unwrap(), 4);
}

/// SCTRCLR: "Zeroes all CTR Entry Registers, for all DEPTH values"; WRPTR and FROZEN are not
/// mentioned and are left alone.
#[test]
fn sctrclr_clears_all_depths() {
    let mut c = new(Layout::Ratified10);
    c.csr_write(r10::SCTRDEPTH, 4, M, &ctx()).unwrap().unwrap();
    set_ctl(&mut c, r10::S);
    for n in 0..300u64 {
        br(&mut c, 0x1000 + 2 * n, 0x2000, S);
    }
    c.csr_write(r10::SCTRDEPTH, 0, M, &ctx()).unwrap().unwrap();
    set_status(&mut c, 7 | r10::FROZEN);
    assert_eq!(c.sctrclr(S, &ctx()), Ok(()));
    assert_eq!(status(&c), 7 | r10::FROZEN);
    c.csr_write(r10::SCTRDEPTH, 4, M, &ctx()).unwrap().unwrap();
    for x in 0..256 {
        assert_eq!(raw(&c, x), (0, 0, 0), "{x}");
    }
}

/// SCTRCLR privilege: illegal in U-mode; in S-mode only with mstateen0.CTR (bit 54); M always.
/// In 0.1.4 the encoding is no instruction at all.
#[rstest]
#[case::m(Layout::Ratified10, M, true, Ok(()))]
#[case::m_gated(Layout::Ratified10, M, false, Ok(()))]
#[case::s(Layout::Ratified10, S, true, Ok(()))]
#[case::s_gated(Layout::Ratified10, S, false, Err(Fault::Stateen))]
#[case::u(Layout::Ratified10, U, true, Err(Fault::Privilege))]
#[case::draft_m(Layout::Draft014, M, true, Err(Fault::NotImplemented))]
#[case::draft_s(Layout::Draft014, S, true, Err(Fault::NotImplemented))]
fn sctrclr_privilege(
    #[case] l: Layout,
    #[case] p: Priv,
    #[case] ctr_bit: bool,
    #[case] want: Result<(), Fault>,
) {
    let mut c = new(l);
    set_ctl(&mut c, bits(l).m);
    br(&mut c, 1, 2, M);
    let x = AccessCtx {
        mstateen0: if ctr_bit { 1 << 54 } else { !(1 << 54) },
        now_cycles: 0,
    };
    assert_eq!(c.sctrclr(p, &x), want);
    assert_eq!(c.entry(0).unwrap().valid, want.is_err());
    assert_eq!(ctr::bits::SCTRCLR, 0x1040_0073);
}

/// Entries only through siselect/sireg*. The ratified spec defines no miselect range for CTR
/// (its note: a future extension "should make CTR entries accessible via miselect/mireg*"), so
/// 0x200..0x2FF is an unimplemented miselect value, for which Smcsrind says the behaviour of
/// mireg* is UNSPECIFIED and expects an illegal-instruction exception: the model reports
/// NotImplemented, from every mode, for every mireg*.
#[test]
fn no_mireg_access() {
    let mut c = new(Layout::Ratified10);
    set_ctl(&mut c, r10::M);
    br(&mut c, 0x10, 0x20, M);
    for reg in 1..=6 {
        assert_eq!(
            c.ireg_read(Bank::Machine, 0x200, reg, M, &ctx()),
            Some(Err(Fault::NotImplemented))
        );
        assert_eq!(
            c.ireg_write(Bank::Machine, 0x200, reg, 0, M, &ctx()),
            Some(Err(Fault::NotImplemented))
        );
    }
    // Other miselect values stay the hart's.
    assert_eq!(c.ireg_read(Bank::Machine, 0x30, 1, M, &ctx()), None);
    // siselect works from M and S.
    assert_eq!(
        c.ireg_read(Bank::Supervisor, 0x200, 1, M, &ctx()),
        Some(Ok(0x11))
    );
    assert_eq!(
        c.ireg_read(Bank::Supervisor, 0x200, 2, S, &ctx()),
        Some(Ok(0x20))
    );
}

/// 1.0 ctrtarget for a not-taken branch "holds the PC of the next sequential instruction"
/// (the hart passes it); TYPE 4.
#[test]
fn not_taken_branch_target() {
    let mut c = new(Layout::Ratified10);
    set_ctl(&mut c, r10::U | NTBREN);
    assert_eq!(
        c.transfer(0x400, 0x404, Itype::NontakenBranch, U, false, 0),
        Outcome::Recorded
    );
    assert_eq!(rec(&c, 0), (0x400, 0x404, 4, true));
}
