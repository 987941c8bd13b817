//! Transfer-type filtering (0.1.4 section 5.2, 1.0 "Transfer Type Filtering"): every filter bit
//! with its polarity, every transfer type recorded with its TYPE code (section 3.3), and the
//! qualification rules of chapter 5 (enabled mode, not frozen).

mod common;
use arch::{Itype, Priv};
use common::*;
use ctr::{CtrConfig, Layout, Outcome};
use rstest::rstest;

const SRC: u64 = 0x8000_0100;
const TGT: u64 = 0x8000_0200;

/// Every itype an instruction transfer can have. `default` is whether it is recorded with all
/// filter bits 0 (section 5.2: "By default, all control transfers within enabled privileged
/// modes are recorded", except not-taken branches, which need NTBREN); `bit` is the filter bit
/// of that type (32 + TYPE); `opt_in` tells its polarity.
#[rstest]
#[case::not_taken(Itype::NontakenBranch, 4, false, NTBREN, true)]
#[case::taken(Itype::TakenBranch, 5, true, TKBRINH, false)]
#[case::indirect_call(Itype::UninferableCall, 8, true, INDCALLINH, false)]
#[case::direct_call(Itype::InferableCall, 9, true, DIRCALLINH, false)]
#[case::indirect_jump(Itype::UninferableTailCall, 10, true, INDJMPINH, false)]
#[case::direct_jump(Itype::InferableTailCall, 11, true, DIRJMPINH, false)]
#[case::coroutine_swap(Itype::CoroutineSwap, 12, true, CORSWAPINH, false)]
#[case::ret(Itype::Return, 13, true, RETINH, false)]
#[case::other_indirect(Itype::OtherUninferableJump, 14, true, INDLJMPINH, false)]
#[case::other_direct(Itype::OtherInferableJump, 15, true, DIRLJMPINH, false)]
fn filter_bit_polarity(
    #[values(Layout::Draft014, Layout::Ratified10)] l: Layout,
    #[case] ty: Itype,
    #[case] code: u64,
    #[case] default: bool,
    #[case] bit: u64,
    #[case] opt_in: bool,
) {
    let b = bits(l);
    assert_eq!(bit, 1 << (32 + code), "filter bit is 32 + TYPE");
    // All filter bits 0: the default.
    let mut c = new(l);
    set_ctl(&mut c, b.s);
    let out = c.transfer(SRC, TGT, ty, Priv::S, false, 0);
    assert_eq!(out == Outcome::Recorded, default);
    if default {
        assert_eq!(rec(&c, 0), (SRC, TGT, code, true));
    }
    // The bit set: opt-in types are now recorded, opt-out types are not.
    let mut c = new(l);
    set_ctl(&mut c, b.s | bit);
    assert_eq!(ctl(&c) & bit, bit, "filter bit implemented and writable");
    let out = c.transfer(SRC, TGT, ty, Priv::S, false, 0);
    assert_eq!(out == Outcome::Recorded, opt_in);
    if opt_in {
        assert_eq!(rec(&c, 0), (SRC, TGT, code, true));
    }
    // Every *other* filter bit set: this type behaves as by default (bits are independent).
    let others = (0xFF3Eu64 << 32) & !bit;
    let mut c = new(l);
    set_ctl(&mut c, b.s | others);
    let out = c.transfer(SRC, TGT, ty, Priv::S, false, 0);
    assert_eq!(out == Outcome::Recorded, default);
}

/// Exceptions (1), interrupts (2) and trap returns (3) are recorded through trap()/xret() with
/// their TYPE codes; EXCINH/INTRINH/TRETINH opt out.
#[rstest]
#[case::exception(ILLEGAL, 1, EXCINH)]
#[case::interrupt(TIMER, 2, INTRINH)]
fn trap_types(
    #[values(Layout::Draft014, Layout::Ratified10)] l: Layout,
    #[case] cause: arch::Cause,
    #[case] code: u64,
    #[case] inh: u64,
) {
    let b = bits(l);
    let mut c = new(l);
    set_ctl(&mut c, b.s);
    assert_eq!(
        c.trap(SRC, TGT, Priv::S, Priv::S, cause, 0),
        Outcome::Recorded
    );
    assert_eq!(rec(&c, 0), (SRC, TGT, code, true));
    set_ctl(&mut c, b.s | inh);
    assert_eq!(
        c.trap(SRC, TGT, Priv::S, Priv::S, cause, 0),
        Outcome::Ignored
    );
    assert_eq!(c.wrptr(), 1);
}

#[rstest]
fn trap_return_type(#[values(Layout::Draft014, Layout::Ratified10)] l: Layout) {
    let b = bits(l);
    let mut c = new(l);
    set_ctl(&mut c, b.m);
    assert_eq!(c.xret(SRC, TGT, Priv::M, Priv::M, 0), Outcome::Recorded);
    assert_eq!(rec(&c, 0), (SRC, TGT, 3, true));
    set_ctl(&mut c, b.m | TRETINH);
    assert_eq!(c.xret(SRC, TGT, Priv::M, Priv::M, 0), Outcome::Ignored);
}

/// Codes that are not instruction transfers are never recorded by transfer(): 0 (none), the
/// trap types (reported through trap/xret), 6 and 7 (reserved in TYPE).
#[rstest]
fn non_transfer_itypes_ignored(
    #[values(
        Itype::None,
        Itype::Exception,
        Itype::Interrupt,
        Itype::TrapReturn,
        Itype::UninferableJump,
        Itype::Reserved7
    )]
    ty: Itype,
) {
    let mut c = new(Layout::Draft014);
    set_ctl(&mut c, d014::M | NTBREN);
    assert_eq!(
        c.transfer(SRC, TGT, ty, Priv::M, false, 0),
        Outcome::Ignored
    );
    assert_eq!(c.wrptr(), 0);
}

/// Chapter 5: only "the current privilege mode is enabled" transfers qualify.
#[rstest]
fn mode_enable_bits(
    #[values(Layout::Draft014, Layout::Ratified10)] l: Layout,
    #[values(Priv::U, Priv::S, Priv::M)] enabled: Priv,
    #[values(Priv::U, Priv::S, Priv::M)] running: Priv,
) {
    let b = bits(l);
    let mut c = new(l);
    set_ctl(&mut c, b.mode(enabled));
    let out = br(&mut c, SRC, TGT, running);
    assert_eq!(out == Outcome::Recorded, enabled == running);
    assert_eq!(c.recording_in(running), enabled == running);
}

/// Unimplemented filter bits are read-only 0 and then do not filter (section 5.2: "An
/// implementation may opt to support any combination of transfer type filter bits").
#[rstest]
fn unimplemented_filter_bits(#[values(Layout::Draft014, Layout::Ratified10)] l: Layout) {
    let cfg = CtrConfig {
        filter_bits: 0,
        ..CtrConfig::with_layout(l)
    };
    let mut c = with(cfg);
    let b = bits(l);
    set_ctl(&mut c, b.m | (0xFFFFu64 << 32));
    // (Bit 38 is ETEN in 0.1.4, an external-trap bit rather than a filter bit.)
    assert_eq!(ctl(&c) >> 32 & 0xFF3E, 0);
    // TKBRINH unimplemented: taken branches recorded; NTBREN unimplemented: not-taken not.
    assert_eq!(br(&mut c, SRC, TGT, Priv::M), Outcome::Recorded);
    assert_eq!(
        c.transfer(SRC, TGT, Itype::NontakenBranch, Priv::M, false, 0),
        Outcome::Ignored
    );
}

/// MISP is set from the predictor verdict only when implemented; otherwise read-only 0
/// (section 3.2).
#[rstest]
fn misp(
    #[values(Layout::Draft014, Layout::Ratified10)] l: Layout,
    #[values(false, true)] imp: bool,
) {
    let cfg = CtrConfig {
        misp: imp,
        ..CtrConfig::with_layout(l)
    };
    let mut c = with(cfg);
    set_ctl(&mut c, bits(l).m);
    c.transfer(SRC, TGT, Itype::TakenBranch, Priv::M, true, 0);
    c.transfer(SRC + 8, TGT + 8, Itype::TakenBranch, Priv::M, false, 0);
    assert_eq!(raw(&c, 1).1, TGT | u64::from(imp));
    assert_eq!(raw(&c, 0).1, TGT + 8);
    assert_eq!(c.entry(1).unwrap().misp, imp);
}

/// `Itype::None` (no transfer: a caller may report every run without testing whether it
/// ended in a transfer; the hart once did) must change nothing, whether transfer()
/// takes its fast path (the mode records plainly) or not (another mode, or RAS emulation),
/// so the array and the next record's cycle count are those of a run without it.
#[rstest]
fn itype_none_changes_nothing(
    #[values(Layout::Draft014, Layout::Ratified10)] l: Layout,
    #[values(Priv::M, Priv::U)] from: Priv,
    #[values(false, true)] rasemu: bool,
) {
    let b = bits(l);
    let ctl = b.m | if rasemu { b.rasemu } else { 0 };
    let run = |none: bool| {
        let mut c = with(CtrConfig {
            rasemu: true,
            ..CtrConfig::with_layout(l)
        });
        set_ctl_at(&mut c, ctl, 0);
        if none {
            assert_eq!(
                c.transfer(0x500, 0x600, Itype::None, from, false, 5),
                Outcome::Ignored
            );
        }
        c.transfer(SRC, TGT, Itype::InferableCall, Priv::M, false, 10);
        c.flush();
        (views(&c), status(&c))
    };
    assert_eq!(run(true), run(false));
}
