//! Freeze (0.1.4 section 5.5; 1.0 "Freeze"): LCOFI with LCOFIFRZ and breakpoint exceptions with
//! BPFRZ set FROZEN, the freezing trap itself is not recorded, recording stays inhibited until
//! software clears FROZEN.

mod common;
use arch::{Cause, Exception, Interrupt, Priv};
use common::*;
use ctr::{CtrConfig, Layout, Outcome};
use rstest::rstest;
use Priv::{M, S, U};

#[rstest]
#[case::lcofi_to_s(LCOFI, U, S)]
#[case::lcofi_to_m(LCOFI, S, M)]
#[case::breakpoint_to_s(BREAKPOINT, U, S)]
#[case::breakpoint_to_m(BREAKPOINT, M, M)]
fn freezing_trap_is_not_recorded(
    #[values(Layout::Draft014, Layout::Ratified10)] l: Layout,
    #[case] cause: Cause,
    #[case] from: Priv,
    #[case] to: Priv,
) {
    let b = bits(l);
    let frz = if cause == LCOFI { b.lcofifrz } else { b.bpfrz };
    let mut c = new(l);
    set_ctl(&mut c, b.m | b.s | b.u | frz);
    assert_eq!(ctl(&c) & frz, frz);
    br(&mut c, 0x100, 0x200, from);
    assert_eq!(c.trap(0x104, 0x8000, from, to, cause, 5), Outcome::Frozen);
    assert!(c.frozen());
    assert_eq!(status(&c) & b.frozen, b.frozen);
    // The trap is not recorded: the branch is still logical entry 0.
    assert_eq!(c.wrptr(), 1);
    assert_eq!(rec(&c, 0), (0x100, 0x200, 5, true));
    // Nothing is recorded while frozen: the handler's transfers and its trap return.
    assert_eq!(br(&mut c, 0x8000, 0x8010, to), Outcome::Ignored);
    assert_eq!(c.xret(0x8020, 0x104, to, from, 9), Outcome::Ignored);
    assert!(!c.recording_in(from));
    // Software clears FROZEN ("It is the responsibility of the ISR to clear FROZEN"):
    // recording resumes, and WRPTR was preserved by the read-modify-write.
    let st = status(&c);
    set_status(&mut c, st & !b.frozen);
    assert!(!c.frozen());
    assert_eq!(br(&mut c, 0x104, 0x300, from), Outcome::Recorded);
    assert_eq!(c.wrptr(), 2);
}

/// Without LCOFIFRZ/BPFRZ the same traps are recorded as ordinary interrupt/exception records.
#[rstest]
#[case::lcofi(LCOFI, 2)]
#[case::breakpoint(BREAKPOINT, 1)]
fn no_freeze_bit_records_normally(
    #[values(Layout::Draft014, Layout::Ratified10)] l: Layout,
    #[case] cause: Cause,
    #[case] ty: u64,
) {
    let b = bits(l);
    let mut c = new(l);
    set_ctl(&mut c, b.s | b.u);
    assert_eq!(c.trap(0x104, 0x8000, U, S, cause, 0), Outcome::Recorded);
    assert!(!c.frozen());
    assert_eq!(rec(&c, 0), (0x104, 0x8000, ty, true));
}

/// Only the matching cause freezes: BPFRZ does not freeze on LCOFI, LCOFIFRZ not on ebreak,
/// and other causes never freeze.
#[rstest]
fn only_matching_causes_freeze(#[values(Layout::Draft014, Layout::Ratified10)] l: Layout) {
    let b = bits(l);
    let others = [
        Cause::Interrupt(Interrupt::SupervisorTimer),
        Cause::Interrupt(Interrupt::MachineExternal),
        Cause::Exception(Exception::IllegalInstruction),
        Cause::Exception(Exception::EcallFromU),
        Cause::Exception(Exception::LoadPageFault),
    ];
    for (frz, wrong) in [(b.bpfrz, LCOFI), (b.lcofifrz, BREAKPOINT)] {
        let mut c = new(l);
        set_ctl(&mut c, b.s | b.u | frz);
        assert_eq!(c.trap(1, 2, U, S, wrong, 0), Outcome::Recorded);
        for cause in others {
            assert_eq!(c.trap(1, 2, U, S, cause, 0), Outcome::Recorded, "{cause:?}");
        }
        assert!(!c.frozen());
    }
}

/// Freeze happens even when the trap would not have been recorded (here: EXCINH, and a trap
/// from a disabled mode into a disabled mode); the freeze rule has no recording condition.
#[rstest]
fn freeze_independent_of_recording(#[values(Layout::Draft014, Layout::Ratified10)] l: Layout) {
    let b = bits(l);
    let mut c = new(l);
    set_ctl(&mut c, b.u | b.bpfrz | EXCINH);
    assert_eq!(c.trap(1, 2, U, S, BREAKPOINT, 0), Outcome::Frozen);
    assert!(c.frozen());
    let mut c = new(l);
    set_ctl(&mut c, b.lcofifrz);
    assert!(
        c.active(),
        "a freeze can still happen, so the hart must report traps"
    );
    assert_eq!(c.trap(1, 2, U, M, LCOFI, 0), Outcome::Frozen);
    assert!(c.frozen());
    assert!(!c.active(), "nothing enabled and already frozen");
}

/// 0.1.4 BPFRZ is optional (read-only 0 when not implemented); 1.0 requires it ("All fields
/// are optional except for M, S, U, and BPFRZ").
#[rstest]
fn bpfrz_optional_in_draft_only(#[values(Layout::Draft014, Layout::Ratified10)] l: Layout) {
    let cfg = CtrConfig {
        bpfrz: false,
        lcofifrz: false,
        ..CtrConfig::with_layout(l)
    };
    let mut c = with(cfg);
    let b = bits(l);
    set_ctl(&mut c, b.bpfrz | b.lcofifrz | b.s);
    let want_bp = if l == Layout::Ratified10 { b.bpfrz } else { 0 };
    assert_eq!(ctl(&c) & (b.bpfrz | b.lcofifrz), want_bp);
    assert_eq!(c.trap(1, 2, S, S, LCOFI, 0), Outcome::Recorded);
}

/// Software may set FROZEN itself ("This bit can be set by hardware ... or by software").
#[rstest]
fn software_freeze(#[values(Layout::Draft014, Layout::Ratified10)] l: Layout) {
    let b = bits(l);
    let mut c = new(l);
    set_ctl(&mut c, b.m);
    set_status(&mut c, b.frozen);
    assert!(c.frozen());
    assert_eq!(br(&mut c, 1, 2, M), Outcome::Ignored);
    set_status(&mut c, 0);
    assert_eq!(br(&mut c, 1, 2, M), Outcome::Recorded);
}
