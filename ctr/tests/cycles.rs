//! Cycle counting (0.1.4 section 5.3, with the corrected formula of the README errata; 1.0
//! "Cycle Counting"): the CC encoding at its edges, saturation per implemented CCE width, and
//! the counting of qualified cycles only, CCV after control writes, clears and RAS pops.

mod common;
use arch::{Itype, Priv};
use common::*;
use ctr::cycles::{decode, encode, max_count};
use ctr::{Bank, CtrConfig, Layout};
use rstest::rstest;
use Priv::{M, S};

/// CCE = index of the top set bit - 11 (0 below 4096), CCM = the 12 bits below the top bit;
/// decode = CCM if CCE = 0 else (4096 + CCM) << (CCE - 1).
#[rstest]
#[case(0, 0x0000, 0)]
#[case(1, 0x0001, 1)]
#[case(4095, 0x0FFF, 4095)]
#[case(4096, 0x1000, 4096)]
#[case(4097, 0x1001, 4097)]
#[case(8191, 0x1FFF, 8191)]
#[case(8192, 0x2000, 8192)]
#[case(8193, 0x2000, 8192)] // bit 0 is below CCM's reach at CCE = 2
#[case(8194, 0x2001, 8194)]
#[case(12288, 0x2800, 12288)]
#[case(16383, 0x2FFF, 16382)]
#[case(16384, 0x3000, 16384)]
#[case(1 << 20, 0x9000, 1 << 20)]
#[case((1 << 26) + (1 << 25), 0xF800, (1 << 26) + (1 << 25))]
#[case(134_201_344, 0xFFFF, 134_201_344)]
#[case(134_201_345, 0xFFFF, 134_201_344)]
#[case(1 << 27, 0xFFFF, 134_201_344)] // CCE would be 16: saturate
#[case(u64::MAX, 0xFFFF, 134_201_344)]
fn encoding_edges(#[case] count: u64, #[case] cc: u16, #[case] back: u64) {
    assert_eq!(encode(count, 4), cc, "{count}");
    assert_eq!(decode(cc), back);
}

/// Saturation with fewer CCE bits: "The CC value saturates when all implemented bits in CCM and
/// CCE are 1"; maxima from the 1.0 "Cycle Counter Size Options" table.
#[rstest]
#[case(0, 4095, 0x0FFF)]
#[case(1, 8191, 0x1FFF)]
#[case(2, 32764, 0x3FFF)]
#[case(3, 524_224, 0x7FFF)]
#[case(4, 134_201_344, 0xFFFF)]
fn saturation_per_cce_width(#[case] bits: u8, #[case] max: u64, #[case] sat: u16) {
    assert_eq!(max_count(bits), max);
    assert_eq!(encode(max, bits), sat);
    assert_eq!(encode(max + 1, bits), sat);
    assert_eq!(encode(u64::MAX, bits), sat);
    // Below the maximum, a narrower exponent encodes like the full one.
    assert_eq!(encode(4096, bits.max(1)), 0x1000);
}

fn cc(c: &ctr::Ctr, x: usize) -> (bool, u64) {
    let e = c.entry(x).expect("within depth");
    (e.ccv, decode(e.cc))
}

/// "An implementation must clear CCV for the next recorded transfer upon a write to
/// ctrcontrol" (1.0: the counter is reset by the write); later records are valid and count the
/// cycles since the previous record.
#[rstest]
fn ccv_after_control_write(#[values(Layout::Draft014, Layout::Ratified10)] l: Layout) {
    let b = bits(l);
    let mut c = new(l);
    set_ctl_at(&mut c, b.m, 0);
    c.transfer(1, 2, Itype::TakenBranch, M, false, 100);
    c.transfer(3, 4, Itype::TakenBranch, M, false, 350);
    assert_eq!(cc(&c, 1), (false, 100));
    assert_eq!(cc(&c, 0), (true, 250));
    assert_eq!(c.entry(0).unwrap().cycles, Some(250));
    assert_eq!(c.entry(1).unwrap().cycles, None);
    // Another control write (same value) invalidates the next record only.
    set_ctl_at(&mut c, b.m, 600);
    c.transfer(5, 6, Itype::TakenBranch, M, false, 650);
    c.transfer(7, 8, Itype::TakenBranch, M, false, 700);
    assert_eq!(cc(&c, 1), (false, 50));
    assert_eq!(cc(&c, 0), (true, 50));
    // CCV is bit 15 of ctrdata, CC bits 31:16.
    assert_eq!(raw(&c, 0).2, 5 | CCV | 50 << 16);
}

/// "Qualified cycles are those executed within an enabled privilege mode with FROZEN=0."
#[rstest]
fn only_qualified_cycles_count(#[values(Layout::Draft014, Layout::Ratified10)] l: Layout) {
    let b = bits(l);
    let mut c = new(l);
    set_ctl_at(&mut c, b.s, 0);
    c.transfer(1, 2, Itype::TakenBranch, S, false, 100);
    // S -> M (disabled; no external-trap opt-in): not recorded; 150..1000 in M not counted.
    c.trap(3, 4, S, M, TIMER, 150);
    c.xret(5, 6, M, S, 1000);
    c.transfer(7, 8, Itype::TakenBranch, S, false, 1100);
    assert_eq!(cc(&c, 0), (true, 50 + 100));
    // Frozen from 1200 to 1700: not counted.
    // (The CSR writes execute in S-mode, where the hart is.)
    let st = status(&c);
    let w = |c: &mut ctr::Ctr, v, t| c.csr_write(b.sstatus, v, S, &ctx_at(t)).unwrap().unwrap();
    w(&mut c, st | b.frozen, 1200);
    c.transfer(9, 10, Itype::TakenBranch, S, false, 1500); // not recorded
    w(&mut c, st, 1700);
    c.transfer(11, 12, Itype::TakenBranch, S, false, 1800);
    assert_eq!(cc(&c, 0), (true, 100 + 100));
}

/// Transfers that are not recorded (filtered) do not restart the counter; every record does,
/// including trap records.
#[rstest]
fn counter_spans_unrecorded_transfers(#[values(Layout::Draft014, Layout::Ratified10)] l: Layout) {
    let b = bits(l);
    let mut c = new(l);
    set_ctl_at(&mut c, b.m | TKBRINH, 0);
    c.transfer(1, 2, Itype::InferableCall, M, false, 10);
    c.transfer(3, 4, Itype::TakenBranch, M, false, 200);
    c.transfer(5, 6, Itype::Return, M, false, 300);
    assert_eq!(cc(&c, 0), (true, 290));
    c.trap(7, 8, M, M, ILLEGAL, 1000);
    assert_eq!(cc(&c, 0), (true, 700));
    assert_eq!(c.entry(0).unwrap().ty, Itype::Exception);
}

/// A long gap saturates CC (CCV stays 1).
#[rstest]
fn saturating_count(#[values(0u8, 2, 4)] cce_bits: u8) {
    let mut c = with(CtrConfig {
        cce_bits,
        ..CtrConfig::default()
    });
    set_ctl_at(&mut c, d014::M, 0);
    c.transfer(1, 2, Itype::TakenBranch, M, false, 5);
    c.transfer(1, 2, Itype::TakenBranch, M, false, 5 + (1 << 40));
    assert_eq!(cc(&c, 0), (true, max_count(cce_bits)));
}

/// Without cycle counting CC and CCV read 0 (section 3.3: unimplemented fields read-only 0).
#[test]
fn no_cycle_counting() {
    let mut c = with(CtrConfig {
        cycle_counting: false,
        ..CtrConfig::default()
    });
    set_ctl_at(&mut c, d014::M, 0);
    c.transfer(1, 2, Itype::TakenBranch, M, false, 5);
    c.transfer(1, 2, Itype::TakenBranch, M, false, 500);
    assert_eq!(raw(&c, 0).2, 5);
}

/// 1.0 SCTRCLR "Zeroes the CTR cycle counter and CCV": the next record has CCV = 0 and counts
/// from the clear.
#[test]
fn sctrclr_resets_counter() {
    let mut c = new(Layout::Ratified10);
    set_ctl_at(&mut c, r10::S, 0);
    c.transfer(1, 2, Itype::TakenBranch, S, false, 10);
    c.transfer(1, 2, Itype::TakenBranch, S, false, 20);
    c.sctrclr(S, &ctx_at(400)).unwrap();
    c.transfer(1, 2, Itype::TakenBranch, S, false, 450);
    assert_eq!(cc(&c, 0), (false, 50));
    c.transfer(1, 2, Itype::TakenBranch, S, false, 470);
    assert_eq!(cc(&c, 0), (true, 20));
}

/// RAS emulation (5.4 note): "returns that pop a call entry not only do not reset the cycle
/// counter, but instead add the CC field from the popped entry to the counter", so a call's CC
/// is the time since the call now below it was recorded.
#[rstest]
fn ras_pop_adds_popped_cc(#[values(Layout::Draft014, Layout::Ratified10)] l: Layout) {
    let b = bits(l);
    let mut c = new(l);
    set_ctl_at(&mut c, b.m | b.rasemu, 0);
    c.transfer(0xA0, 0xA4, Itype::InferableCall, M, false, 100); // A: CCV 0
    c.transfer(0xA0, 0xA8, Itype::InferableCall, M, false, 200); // (placeholder) B
    c.transfer(0xB0, 0xB4, Itype::InferableCall, M, false, 300); // C: 100 since B
    assert_eq!(cc(&c, 0), (true, 100));
    c.transfer(0xB8, 0xB0, Itype::Return, M, false, 350); // pop C: counter 50 + 100
    c.transfer(0xC0, 0xC4, Itype::InferableCall, M, false, 400); // D: 200 since B
    assert_eq!(cc(&c, 0), (true, 200));
    // A co-routine swap pops D (adding its 200) and records the swap: 250 + 200 since B.
    c.transfer(0xD0, 0xD4, Itype::CoroutineSwap, M, false, 650);
    assert_eq!(cc(&c, 0), (true, 450));
    assert_eq!(c.entry(0).unwrap().ty, Itype::CoroutineSwap);
    // Popping a record whose CCV is 0 leaves the next record without a valid count.
    c.transfer(0, 0, Itype::Return, M, false, 700); // pops the swap
    c.transfer(0, 0, Itype::Return, M, false, 710); // pops B
    c.transfer(0, 0, Itype::Return, M, false, 720); // pops A (CCV 0)
    c.transfer(0xE0, 0xE4, Itype::InferableCall, M, false, 800);
    assert!(!cc(&c, 0).0);
    // ... and the one after it counts normally again.
    c.transfer(0xE8, 0xEC, Itype::InferableCall, M, false, 900);
    assert_eq!(cc(&c, 0), (true, 100));
}

/// Software writes to ctrdata CC/CCV (e.g. a context-switch restore) are read back and decoded.
#[test]
fn written_cc_is_decoded() {
    let mut c = new(Layout::Draft014);
    c.ireg_write(Bank::Machine, 0x200, 3, 9 | CCV | 0x2800 << 16, M, &ctx())
        .unwrap()
        .unwrap();
    let e = c.entry(0).unwrap();
    assert_eq!(
        (e.ty, e.ccv, e.cce(), e.ccm()),
        (Itype::InferableCall, true, 2, 0x800)
    );
    assert_eq!(e.cycles, Some(12288));
}

/// The clock must be monotonic; a stale `now` (behind an earlier event) counts as no time
/// passing instead of a wrapped, huge interval.
#[test]
fn stale_clock_is_harmless() {
    let mut c = new(Layout::Draft014);
    set_ctl_at(&mut c, d014::M, 1000);
    c.transfer(1, 2, Itype::TakenBranch, M, false, 1010);
    set_status_at(&mut c, 1, 0); // a CSR access passing a stale 0
    c.transfer(1, 2, Itype::TakenBranch, M, false, 1100);
    assert_eq!(cc(&c, 0), (true, 90));
}
