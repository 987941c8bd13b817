//! RAS emulation mode (0.1.4 section 5.4; 1.0 "RAS (Return Address Stack) Emulation Mode"):
//! calls push, returns pop (decrement WRPTR, invalidate the entry), co-routine swaps overwrite
//! logical entry 0, other types are inhibited, filter bits are ignored; WRPTR/WRAP updates.

mod common;
use arch::{Itype, Priv};
use common::*;
use ctr::{Layout, Outcome};
use rstest::rstest;

const CALL: Itype = Itype::InferableCall;
const ICALL: Itype = Itype::UninferableCall;
const RET: Itype = Itype::Return;
const SWAP: Itype = Itype::CoroutineSwap;

fn ras(l: Layout, extra: u64) -> ctr::Ctr {
    let mut c = new(l);
    let b = bits(l);
    set_ctl(&mut c, b.m | b.rasemu | extra);
    assert_eq!(ctl(&c) & b.rasemu, b.rasemu);
    c
}

fn call(c: &mut ctr::Ctr, n: u64) {
    assert_eq!(
        jump(c, 0x1000 + 8 * n, 0x9000 + 8 * n, CALL, Priv::M),
        Outcome::Recorded
    );
}

#[rstest]
fn call_call_return(#[values(Layout::Draft014, Layout::Ratified10)] l: Layout) {
    let mut c = ras(l, 0);
    call(&mut c, 1);
    assert_eq!(
        jump(&mut c, 0x2000, 0x3000, ICALL, Priv::M),
        Outcome::Recorded
    );
    assert_eq!(c.wrptr(), 2);
    assert_eq!(rec(&c, 0), (0x2000, 0x3000, 8, true));
    assert_eq!(rec(&c, 1), (0x1008, 0x9008, 9, true));
    // "Function returns pop the most recent call, by decrementing the WRPTR then invalidating
    // the WRPTR entry": logical 0 is the first call again; the popped record moves to
    // logical depth-1 with V = 0 (its other fields are left as they were).
    assert_eq!(jump(&mut c, 0x3010, 0x2004, RET, Priv::M), Outcome::Popped);
    assert_eq!(c.wrptr(), 1);
    assert_eq!(rec(&c, 0), (0x1008, 0x9008, 9, true));
    assert_eq!(rec(&c, 15), (0x2000, 0x3000, 8, false));
    assert_eq!(rec(&c, 1), (0, 0, 0, false));
    // The return itself is never recorded.
    assert_eq!(valid_records(&c).len(), 1);
}

#[rstest]
fn coroutine_swap_overwrites_entry_0(#[values(Layout::Draft014, Layout::Ratified10)] l: Layout) {
    let mut c = ras(l, 0);
    call(&mut c, 1);
    call(&mut c, 2);
    // "Co-routine swaps affect both a return and a call. Entry 0 is overwritten" (1.0: "and
    // WRPTR is not modified").
    assert_eq!(
        jump(&mut c, 0x5000, 0x6000, SWAP, Priv::M),
        Outcome::Replaced
    );
    assert_eq!(c.wrptr(), 2);
    assert_eq!(rec(&c, 0), (0x5000, 0x6000, 12, true));
    assert_eq!(rec(&c, 1), (0x1008, 0x9008, 9, true));
    // A swap on an empty stack writes entry 0 as well.
    let mut c = ras(l, 0);
    assert_eq!(
        jump(&mut c, 0x5000, 0x6000, SWAP, Priv::M),
        Outcome::Replaced
    );
    assert_eq!(c.wrptr(), 0);
    assert_eq!(rec(&c, 0), (0x5000, 0x6000, 12, true));
}

#[rstest]
fn overflow_past_depth(#[values(Layout::Draft014, Layout::Ratified10)] l: Layout) {
    let mut c = ras(l, 0);
    assert_eq!(c.depth(), 16);
    for n in 1..=20 {
        call(&mut c, n);
    }
    // The array holds the 16 youngest calls; WRPTR = 20 mod 16.
    assert_eq!(c.wrptr(), 4);
    for x in 0..16 {
        let n = 20 - x;
        assert_eq!(rec(&c, x), (0x1000 + 8 * n, 0x9000 + 8 * n, 9, true), "{x}");
    }
    // 0.1.4 section 2.4: WRAP set on the increment from depth-1.
    if l == Layout::Draft014 {
        assert_eq!(status(&c) & d014::WRAP, d014::WRAP);
    }
    // Returns pop in order; the 5th decrements from 0 and (0.1.4) clears WRAP.
    for k in 0..16 {
        assert_eq!(jump(&mut c, 0x7000, 0x7100, RET, Priv::M), Outcome::Popped);
        let n = 20 - k - 1;
        if k < 15 {
            assert_eq!(rec(&c, 0), (0x1000 + 8 * n, 0x9000 + 8 * n, 9, true), "{k}");
        }
        if l == Layout::Draft014 {
            assert_eq!(
                status(&c) & d014::WRAP != 0,
                k < 4,
                "WRAP after {} pops",
                k + 1
            );
        }
    }
    // Calls 1..4 were overwritten: the stack is empty now.
    assert!(valid_records(&c).is_empty());
    assert_eq!(c.wrptr(), 4);
    // A return on an empty stack still rotates (decrements WRPTR).
    assert_eq!(jump(&mut c, 0x7000, 0x7100, RET, Priv::M), Outcome::Popped);
    assert_eq!(c.wrptr(), 3);
    assert!(valid_records(&c).is_empty());
    // Pushing again exposes nothing stale.
    call(&mut c, 30);
    assert_eq!(
        valid_records(&c),
        vec![(0x1000 + 8 * 30, 0x9000 + 8 * 30, 9)]
    );
}

/// "Transfer Type Filtering bits are ignored" (1.0: xctrctl\[47:32\]) and "Other transfer
/// types are inhibited".
#[rstest]
fn filters_ignored_other_types_inhibited(
    #[values(Layout::Draft014, Layout::Ratified10)] l: Layout,
) {
    let mut c = ras(l, INDCALLINH | DIRCALLINH | RETINH | CORSWAPINH | NTBREN);
    call(&mut c, 1);
    assert_eq!(jump(&mut c, 1, 2, ICALL, Priv::M), Outcome::Recorded);
    assert_eq!(jump(&mut c, 1, 2, SWAP, Priv::M), Outcome::Replaced);
    assert_eq!(jump(&mut c, 1, 2, RET, Priv::M), Outcome::Popped);
    for ty in [
        Itype::TakenBranch,
        Itype::NontakenBranch,
        Itype::UninferableTailCall,
        Itype::InferableTailCall,
        Itype::OtherUninferableJump,
        Itype::OtherInferableJump,
    ] {
        assert_eq!(jump(&mut c, 1, 2, ty, Priv::M), Outcome::Ignored, "{ty:?}");
    }
    assert_eq!(c.wrptr(), 1);
    assert_eq!(valid_records(&c), vec![(0x1008, 0x9008, 9)]);
}

/// RAS operations are qualified like any transfer: enabled mode, not frozen.
#[rstest]
fn ras_needs_qualification(#[values(Layout::Draft014, Layout::Ratified10)] l: Layout) {
    let b = bits(l);
    let mut c = ras(l, 0);
    call(&mut c, 1);
    // Return in a disabled mode: no pop.
    assert_eq!(jump(&mut c, 1, 2, RET, Priv::S), Outcome::Ignored);
    assert_eq!(c.wrptr(), 1);
    set_status(&mut c, b.frozen | 1);
    assert_eq!(jump(&mut c, 1, 2, RET, Priv::M), Outcome::Ignored);
    assert_eq!(jump(&mut c, 1, 2, CALL, Priv::M), Outcome::Ignored);
    assert_eq!(c.wrptr(), 1);
    assert_eq!(valid_records(&c).len(), 1);
}

/// WRPTR bookkeeping of a return from WRPTR = 0 on a fresh array: it wraps to depth-1.
#[rstest]
fn pop_from_zero_wraps_to_top(#[values(Layout::Draft014, Layout::Ratified10)] l: Layout) {
    let mut c = ras(l, 0);
    assert_eq!(jump(&mut c, 1, 2, RET, Priv::M), Outcome::Popped);
    assert_eq!(c.wrptr(), 15);
    call(&mut c, 1);
    assert_eq!(c.wrptr(), 0);
    if l == Layout::Draft014 {
        // The push from 15 wraps and sets WRAP.
        assert_eq!(status(&c) & d014::WRAP, d014::WRAP);
    }
    assert_eq!(rec(&c, 0), (0x1008, 0x9008, 9, true));
}
