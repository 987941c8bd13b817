//! Privilege-mode transitions: every row of the trap / trap-return table (0.1.4 section 5.1;
//! 1.0 "Privilege Mode Transitions", same table), and external traps (0.1.4 section 5.2.1;
//! 1.0 "External Traps" with its "External Trap Enable Requirements" table).

mod common;
use arch::{Cause, Exception, Interrupt, Priv};
use common::*;
use ctr::{Layout, Outcome};
use rstest::rstest;
use Priv::{M, S, U};

const SRC: u64 = 0x8000_1234;
const TGT: u64 = 0x8000_4000;

/// Section 5.1 table, "Trap" rows. `want` is (source, target) of the record, or None.
#[rstest]
// Enabled -> enabled: "Recorded."
#[case::ee_u_s(U, S, &[U, S], Some((SRC, TGT)))]
#[case::ee_s_m(S, M, &[S, M], Some((SRC, TGT)))]
#[case::ee_u_m(U, M, &[U, M], Some((SRC, TGT)))]
#[case::ee_s_s(S, S, &[S], Some((SRC, TGT)))]
#[case::ee_m_m(M, M, &[M], Some((SRC, TGT)))]
// Disabled -> enabled: "Recorded, Source PC is 0."
#[case::de_u_s(U, S, &[S], Some((0, TGT)))]
#[case::de_s_m(S, M, &[M], Some((0, TGT)))]
#[case::de_u_m(U, M, &[M, S], Some((0, TGT)))]
// Enabled -> disabled (external trap), not opted in: "Recorded if ETEN=xTE=1" only.
#[case::ed_u_s(U, S, &[U], None)]
#[case::ed_s_m(S, M, &[S, U], None)]
// Disabled -> disabled: "Not recorded."
#[case::dd_u_s(U, S, &[M], None)]
#[case::dd_s_m(S, M, &[U], None)]
#[case::dd_s_s(S, S, &[U, M], None)]
fn trap_table(
    #[values(Layout::Draft014, Layout::Ratified10)] layout: Layout,
    #[case] from: Priv,
    #[case] to: Priv,
    #[case] enabled: &[Priv],
    #[case] want: Option<(u64, u64)>,
) {
    let mut c = new(layout);
    let b = bits(layout);
    set_ctl(&mut c, b.modes(enabled));
    let out = c.trap(SRC, TGT, from, to, ecall(from), 10);
    match want {
        Some((s, t)) => {
            assert_eq!(out, Outcome::Recorded);
            // TYPE 1 = exception (section 3.3).
            assert_eq!(rec(&c, 0), (s, t, 1, true));
            assert_eq!(c.wrptr(), 1);
        }
        None => {
            assert_eq!(out, Outcome::Ignored);
            assert_eq!(rec(&c, 0), (0, 0, 0, false));
            assert_eq!(c.wrptr(), 0);
        }
    }
}

/// Section 5.1 table, "Trap Return" rows.
#[rstest]
// Enabled -> enabled: "Recorded."
#[case::ee_s_u(S, U, &[S, U], Some((SRC, TGT)))]
#[case::ee_m_s(M, S, &[M, S], Some((SRC, TGT)))]
#[case::ee_m_u(M, U, &[M, U], Some((SRC, TGT)))]
#[case::ee_m_m(M, M, &[M], Some((SRC, TGT)))]
#[case::ee_s_s(S, S, &[S], Some((SRC, TGT)))]
// Enabled -> disabled: "Recorded, Target PC is 0."
#[case::ed_s_u(S, U, &[S], Some((SRC, 0)))]
#[case::ed_m_s(M, S, &[M, U], Some((SRC, 0)))]
#[case::ed_m_u(M, U, &[M], Some((SRC, 0)))]
// Disabled -> enabled: "Not recorded."
#[case::de_s_u(S, U, &[U], None)]
#[case::de_m_s(M, S, &[S], None)]
// Disabled -> disabled: "Not recorded."
#[case::dd_s_u(S, U, &[M], None)]
#[case::dd_m_u(M, U, &[S], None)]
fn xret_table(
    #[values(Layout::Draft014, Layout::Ratified10)] layout: Layout,
    #[case] from: Priv,
    #[case] to: Priv,
    #[case] enabled: &[Priv],
    #[case] want: Option<(u64, u64)>,
) {
    let mut c = new(layout);
    set_ctl(&mut c, bits(layout).modes(enabled));
    let out = c.xret(SRC, TGT, from, to, 10);
    match want {
        Some((s, t)) => {
            assert_eq!(out, Outcome::Recorded);
            // TYPE 3 = trap return.
            assert_eq!(rec(&c, 0), (s, t, 3, true));
        }
        None => {
            assert_eq!(out, Outcome::Ignored);
            assert_eq!(rec(&c, 0), (0, 0, 0, false));
        }
    }
}

/// Draft 0.1.4, section 5.2.1: an external trap is recorded "only if both ETEN=1 and xTE=1,
/// such that x is the target privilege mode", with target pc 0, whatever EXCINH/INTRINH say.
#[rstest]
#[case::u_s_eten_ste(U, S, &[U], d014::ETEN | d014::STE, true)]
#[case::u_s_ste_only(U, S, &[U], d014::STE, false)]
#[case::u_s_eten_only(U, S, &[U], d014::ETEN, false)]
#[case::u_s_eten_mte(U, S, &[U], d014::ETEN | d014::MTE, false)]
#[case::u_m_eten_mte(U, M, &[U], d014::ETEN | d014::MTE, true)]
#[case::u_m_eten_ste(U, M, &[U], d014::ETEN | d014::STE, false)]
#[case::s_m_eten_mte(S, M, &[S], d014::ETEN | d014::MTE, true)]
#[case::s_m_mte_only(S, M, &[S], d014::MTE, false)]
#[case::s_m_all_inh(S, M, &[S], d014::ETEN | d014::MTE | EXCINH | INTRINH, true)]
fn external_traps_014(
    #[case] from: Priv,
    #[case] to: Priv,
    #[case] enabled: &[Priv],
    #[case] extra: u64,
    #[case] recorded: bool,
) {
    for (cause, ty) in [(ILLEGAL, 1), (TIMER, 2)] {
        let mut c = new(Layout::Draft014);
        set_ctl(&mut c, bits(Layout::Draft014).modes(enabled) | extra);
        let out = c.trap(SRC, TGT, from, to, cause, 0);
        if recorded {
            assert_eq!(out, Outcome::Recorded);
            assert_eq!(rec(&c, 0), (SRC, 0, ty, true));
        } else {
            assert_eq!(out, Outcome::Ignored);
            assert!(!rec(&c, 0).3);
        }
    }
}

/// Ratified 1.0 "External Trap Enable Requirements": U->S needs STE; U->M needs MTE and STE;
/// S->M needs MTE. No ETEN. Target pc 0; EXCINH/INTRINH do not matter.
#[rstest]
#[case::u_s_ste(U, S, &[U], r10::STE, true)]
#[case::u_s_none(U, S, &[U], 0, false)]
#[case::u_s_mte(U, S, &[U], r10::MTE, false)]
#[case::u_m_mte_ste(U, M, &[U], r10::MTE | r10::STE, true)]
#[case::u_m_mte_only(U, M, &[U], r10::MTE, false)]
#[case::u_m_ste_only(U, M, &[U], r10::STE, false)]
// S is an intervening mode even when S itself is enabled.
#[case::u_m_s_enabled_mte_only(U, M, &[U, S], r10::MTE, false)]
#[case::u_m_s_enabled_both(U, M, &[U, S], r10::MTE | r10::STE, true)]
#[case::s_m_mte(S, M, &[S], r10::MTE, true)]
#[case::s_m_ste(S, M, &[S], r10::STE, false)]
#[case::s_m_all_inh(S, M, &[S], r10::MTE | EXCINH | INTRINH, true)]
fn external_traps_10(
    #[case] from: Priv,
    #[case] to: Priv,
    #[case] enabled: &[Priv],
    #[case] extra: u64,
    #[case] recorded: bool,
) {
    for (cause, ty) in [(ILLEGAL, 1), (TIMER, 2)] {
        let mut c = new(Layout::Ratified10);
        set_ctl(&mut c, bits(Layout::Ratified10).modes(enabled) | extra);
        let out = c.trap(SRC, TGT, from, to, cause, 0);
        if recorded {
            assert_eq!(out, Outcome::Recorded);
            assert_eq!(rec(&c, 0), (SRC, 0, ty, true));
        } else {
            assert_eq!(out, Outcome::Ignored);
            assert!(!rec(&c, 0).3);
        }
    }
}

/// Bit 38 is ETEN only in 0.1.4; in 1.0 it is WPRI (reads 0) and 0.1.4-style opt-in with ETEN
/// set but xTE clear records nothing in either.
#[test]
fn eten_exists_only_in_draft() {
    let mut c = new(Layout::Draft014);
    set_ctl(&mut c, d014::ETEN);
    assert_eq!(ctl(&c) & d014::ETEN, d014::ETEN);
    let mut c = new(Layout::Ratified10);
    set_ctl(&mut c, 1 << 38);
    assert_eq!(ctl(&c) & (1 << 38), 0);
}

/// "Standard dependencies on FROZEN and transfer type inhibits also apply" (5.1): EXCINH
/// inhibits exceptions, INTRINH interrupts, TRETINH trap returns, FROZEN and RASEMU all.
#[rstest]
fn inhibits_apply_to_transitions(#[values(Layout::Draft014, Layout::Ratified10)] l: Layout) {
    let b = bits(l);
    let both = b.s | b.u;
    let exc = Cause::Exception(Exception::LoadPageFault);
    let int = Cause::Interrupt(Interrupt::SupervisorExternal);
    let cases: [(u64, Cause, bool); 4] = [
        (EXCINH, exc, false),
        (EXCINH, int, true),
        (INTRINH, int, false),
        (INTRINH, exc, true),
    ];
    for (inh, cause, rec_) in cases {
        let mut c = new(l);
        set_ctl(&mut c, both | inh);
        let out = c.trap(SRC, TGT, U, S, cause, 0);
        assert_eq!(out == Outcome::Recorded, rec_, "{inh:#x} {cause:?}");
        // Partial records (disabled source) obey the same inhibits.
        let mut c = new(l);
        set_ctl(&mut c, b.s | inh);
        let out = c.trap(SRC, TGT, U, S, cause, 0);
        assert_eq!(out == Outcome::Recorded, rec_, "partial {inh:#x} {cause:?}");
    }
    let mut c = new(l);
    set_ctl(&mut c, both | TRETINH);
    assert_eq!(c.xret(SRC, TGT, S, U, 0), Outcome::Ignored);
    let mut c = new(l);
    set_ctl(&mut c, both | b.rasemu);
    assert_eq!(c.trap(SRC, TGT, U, S, exc, 0), Outcome::Ignored);
    assert_eq!(c.xret(SRC, TGT, S, U, 0), Outcome::Ignored);
    // RASEMU also ignores external-trap opt-in (1.0: "external trap enable bits ... are
    // ignored"; 0.1.4: "Other transfer types are inhibited").
    let mut c = new(l);
    set_ctl(&mut c, b.u | b.ste | b.eten | b.rasemu);
    assert_eq!(c.trap(SRC, TGT, U, S, exc, 0), Outcome::Ignored);
    let mut c = new(l);
    set_ctl(&mut c, both);
    set_status(&mut c, b.frozen);
    assert_eq!(c.trap(SRC, TGT, U, S, exc, 0), Outcome::Ignored);
    assert_eq!(c.xret(SRC, TGT, S, U, 0), Outcome::Ignored);
}

/// "Debug Mode is always inhibited. Transfers into and out of Debug Mode are never recorded."
#[rstest]
fn debug_mode_never_records(#[values(Layout::Draft014, Layout::Ratified10)] l: Layout) {
    let mut c = new(l);
    let b = bits(l);
    set_ctl(&mut c, b.m | b.s | b.u);
    assert_eq!(
        c.trap(SRC, TGT, M, Priv::Debug, BREAKPOINT, 0),
        Outcome::Ignored
    );
    assert_eq!(
        c.transfer(SRC, TGT, arch::Itype::TakenBranch, Priv::Debug, false, 0),
        Outcome::Ignored
    );
    assert!(!c.recording_in(Priv::Debug));
    assert_eq!(c.wrptr(), 0);
    assert!(!c.frozen());
}
