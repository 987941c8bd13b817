//! The SBI PMU extension, function by function: one rstest row per case, with the error the
//! SBI spec's table for that function gives (section names of the SBI spec's PMU chapter,
//! ../shared/specs/sbi-pmu-extension.txt, and the error codes of ../shared/specs/README.md).

mod common;

use common::*;
use pmu::event::{MHPMEVENT_MINH, MHPMEVENT_OF, MHPMEVENT_SINH, MHPMEVENT_UINH};
use pmu::sbi::{fid, *};
use pmu::{Class, FwEvent, PmuConfig, SbiError, SbiRet};
use rstest::rstest;

use SbiError::*;

fn models() -> PmuConfig {
    cfg().with_all_models()
}

// ----- FID 0: num_counters ("always returns SBI_SUCCESS") -------------------------------

#[rstest]
#[case(0, 3 + 16)]
#[case(8, 11 + 16)]
#[case(29, 32 + 16)]
fn num_counters(#[case] hpm: u8, #[case] n: u64) {
    let (mut p, mut h) = boot(PmuConfig {
        hpm_counters: hpm,
        ..cfg()
    });
    assert_eq!(call(&mut p, &mut h, fid::NUM_COUNTERS, &[]), ok(n));
}

// ----- FID 1: counter_get_info ("PMU Counter Get Info Errors": INVALID_PARAM when
// counter_idx points to an invalid counter; README: hardware counters report 0xC00 + n and
// width - 1, counter 1 is a hole) -----------------------------------------------------------

#[rstest]
#[case::mcycle(0, ok(0xc00 | 63 << 12))]
#[case::time_is_a_hole(1, err(InvalidParam))]
#[case::minstret(2, ok(0xc02 | 63 << 12))]
#[case::first_hpm(3, ok(0xc03 | 47 << 12))]
#[case::last_hpm(10, ok(0xc0a | 47 << 12))]
#[case::first_fw(11, ok(1 << 63 | 63 << 12))]
#[case::last_fw(26, ok(1 << 63 | 63 << 12))]
#[case::past_last(27, err(InvalidParam))]
#[case::huge(u64::MAX, err(InvalidParam))]
fn counter_get_info(#[case] idx: u64, #[case] want: SbiRet) {
    let (mut p, mut h) = boot(cfg());
    assert_eq!(call(&mut p, &mut h, fid::COUNTER_GET_INFO, &[idx]), want);
}

// ----- FID 2: counter_config_matching ("PMU Counter Config Match Errors": INVALID_PARAM
// for a set with an invalid counter or a reserved flag bit; NOT_SUPPORTED when none of the
// counters can monitor the event) --------------------------------------------------------

#[rstest]
#[case::empty_mask(0, 0, 0, 0x2, 0, err(InvalidParam))]
#[case::past_last(0, 1 << 27, 0, 0x2, 0, err(InvalidParam))]
#[case::past_last_from_base(20, 0x80, 0, 0xf0005, 0, err(InvalidParam))]
#[case::base_overflows(u64::MAX, 0b10, 0, 0x2, 0, err(InvalidParam))]
#[case::hole_in_set(0, 0b10, 0, 0x2, 0, err(InvalidParam))]
#[case::reserved_flag_8(0, HPM, 1 << 8, 0x2, 0, err(InvalidParam))]
#[case::reserved_flag_63(0, HPM, 1 << 63, 0x2, 0, err(InvalidParam))]
#[case::instructions(0, HPM, 0, 0x2, 0, ok(3))]
#[case::instructions_from_base(3, 0b1100, 0, 0x2, 0, ok(5))]
#[case::cycles_prefers_hpm(0, HPM | 1, 0, 0x1, 0, ok(3))]
#[case::cycles_on_mcycle_only(0, 1, 0, 0x1, 0, ok(0))]
#[case::instructions_on_minstret_only(0, 0b100, 0, 0x2, 0, ok(2))]
#[case::cycles_not_on_minstret(0, 0b100, 0, 0x1, 0, err(NotSupported))]
#[case::no_event(0, HPM, 0, 0x0, 0, err(NotSupported))]
#[case::branch_instructions(0, HPM, 0, 0x5, 0, ok(3))]
#[case::branch_misses_without_bp(0, HPM, 0, 0x6, 0, err(NotSupported))]
#[case::bus_cycles(0, HPM, 0, 0x7, 0, err(NotSupported))]
#[case::ref_cycles(0, HPM, 0, 0xa, 0, ok(3))]
#[case::general_code_11(0, HPM, 0, 0xb, 0, err(NotSupported))]
#[case::cache_without_model(0, HPM, 0, 0x10001, 0, err(NotSupported))]
#[case::raw_v1(0, HPM, 0, 0x20000, 0x20001, ok(3))]
#[case::raw_v1_upper_bits_ignored(0, HPM, 0, 0x20000, 0xffff_0000_0002_0001, ok(3))]
#[case::raw_v2(0, HPM, 0, 0x30000, 0x2000c, ok(3))]
#[case::raw_general_selector(0, HPM, 0, 0x20000, 0x2, ok(3))]
#[case::raw_cycles_not_on_mcycle(0, 1, 0, 0x20000, 0x1, err(NotSupported))]
#[case::raw_instructions_not_on_minstret(
    0,
    0b100,
    CFG_FLAG_SKIP_MATCH,
    0x20000,
    0x2,
    err(NotSupported)
)]
#[case::raw_cache_without_model(0, HPM, 0, 0x20000, 0x10001, err(NotSupported))]
#[case::raw_no_event(0, HPM, 0, 0x20000, 0x0, err(NotSupported))]
#[case::raw_unknown(0, HPM, 0, 0x30000, 0x200ff, err(NotSupported))]
#[case::raw_code_not_zero(0, HPM, 0, 0x20001, 0x20001, err(NotSupported))]
#[case::type_4(0, HPM, 0, 0x40000, 0, err(NotSupported))]
#[case::reserved_idx_bit(0, HPM, 0, 0x100002, 0, err(NotSupported))]
#[case::fw_set_timer(0, FW, 0, 0xf0005, 0, ok(11))]
#[case::fw_hfence(0, FW, 0, 0xf0015, 0, ok(11))]
#[case::fw_reserved_code(0, FW, 0, 0xf0016, 0, err(NotSupported))]
#[case::fw_impl_specific(0, FW, 0, 0xf0100, 0, err(NotSupported))]
#[case::fw_platform(0, FW, 0, 0xfffff, 0, err(NotSupported))]
#[case::fw_event_on_hw_counters(0, HPM, 0, 0xf0005, 0, err(NotSupported))]
#[case::hw_event_on_fw_counters(0, FW, 0, 0x2, 0, err(NotSupported))]
#[case::skip_match_first_of_set(0, 0b110000, CFG_FLAG_SKIP_MATCH, 0x2, 0, ok(4))]
#[case::skip_match_legacy_cycles(0, 1, CFG_FLAG_SKIP_MATCH, 0x1, 0, ok(0))]
#[case::skip_match_legacy_instret(0, 0b100, CFG_FLAG_SKIP_MATCH, 0x2, 0, ok(2))]
#[case::skip_match_wrong_fixed(0, 1, CFG_FLAG_SKIP_MATCH, 0x2, 0, err(NotSupported))]
#[case::skip_match_fw(0, 1 << 12, CFG_FLAG_SKIP_MATCH, 0xf0004, 0, ok(12))]
#[case::all_flags(0, HPM, 0xff, 0x2, 0, ok(3))]
fn counter_config_matching(
    #[case] base: u64,
    #[case] mask: u64,
    #[case] flags: u64,
    #[case] idx: u64,
    #[case] data: u64,
    #[case] want: SbiRet,
) {
    let (mut p, mut h) = boot(cfg());
    let r = call(
        &mut p,
        &mut h,
        fid::COUNTER_CONFIG_MATCHING,
        &[base, mask, flags, idx, data],
    );
    assert_eq!(r, want);
}

/// A raw event's data is what goes into mhpmevent: `perf -e r10001` (L1D read misses) is
/// event_idx 0x20000 with event_data 0x10001, and programs mhpmevent3 with that selector.
#[rstest]
#[case::l1d_read_miss(0x10001, ok(3))]
#[case::l1d_prefetch(0x10004, err(NotSupported))]
#[case::bpu_read_miss(0x10029, ok(3))]
#[case::ours(0x2000e, ok(3))]
fn raw_events_take_any_selector_mhpmevent_takes(#[case] data: u64, #[case] want: SbiRet) {
    let (mut p, mut h) = boot(models());
    let r = call(
        &mut p,
        &mut h,
        fid::COUNTER_CONFIG_MATCHING,
        &[0, HPM, 0, 0x20000, data],
    );
    assert_eq!(r, want);
    if want == ok(3) {
        assert_eq!(p.mhpmevent(3) & pmu::event::SELECTOR_MASK, data);
    }
}

#[rstest]
#[case::cache_references(0x3, ok(3))]
#[case::cache_misses(0x4, ok(3))]
#[case::branch_misses(0x6, ok(3))]
#[case::stalled_frontend(0x8, ok(3))]
#[case::stalled_backend(0x9, ok(3))]
#[case::bus_cycles(0x7, err(NotSupported))]
#[case::l1d_read_miss(0x10001, ok(3))]
#[case::l1d_write_access(0x10002, ok(3))]
#[case::l1d_prefetch(0x10004, err(NotSupported))]
#[case::l1i_read_miss(0x10009, ok(3))]
#[case::l1i_write(0x1000a, err(NotSupported))]
#[case::ll_write_miss(0x10013, ok(3))]
#[case::dtlb_write_miss(0x1001b, ok(3))]
#[case::itlb_read_access(0x10020, ok(3))]
#[case::itlb_write(0x10022, err(NotSupported))]
#[case::bpu_read_miss(0x10029, ok(3))]
#[case::bpu_write(0x1002a, err(NotSupported))]
#[case::node(0x10030, err(NotSupported))]
#[case::cache_id_7(0x10038, err(NotSupported))]
fn config_matching_with_models(#[case] idx: u64, #[case] want: SbiRet) {
    let (mut p, mut h) = boot(models());
    let r = call(
        &mut p,
        &mut h,
        fid::COUNTER_CONFIG_MATCHING,
        &[0, HPM, 0, idx, 0],
    );
    assert_eq!(r, want);
}

#[test]
fn config_matching_programs_mhpmevent_and_keeps_the_counter_stopped() {
    let (mut p, mut h) = boot(cfg());
    p.write_counter(3, 1234);
    let flags = CFG_FLAG_SET_UINH | CFG_FLAG_SET_VUINH | CFG_FLAG_SET_VSINH;
    assert_eq!(
        call(
            &mut p,
            &mut h,
            fid::COUNTER_CONFIG_MATCHING,
            &[0, HPM, flags, 0x20000, 0x20001]
        ),
        ok(3)
    );
    // OF set (no interrupt before start), MINH always, UINH from the flag; VS/VU ignored.
    assert_eq!(
        p.mhpmevent(3),
        0x20001 | MHPMEVENT_OF | MHPMEVENT_MINH | MHPMEVENT_UINH
    );
    assert_ne!(p.mcountinhibit() & 1 << 3, 0, "not started");
    assert_eq!(p.counter(3), 1234, "no CLEAR_VALUE: value kept");
    // The next match takes the next free counter.
    let r = call(
        &mut p,
        &mut h,
        fid::COUNTER_CONFIG_MATCHING,
        &[0, HPM, CFG_FLAG_SET_SINH, 0x2, 0],
    );
    assert_eq!(r, ok(4));
    assert_eq!(
        p.mhpmevent(4),
        0x2 | MHPMEVENT_OF | MHPMEVENT_MINH | MHPMEVENT_SINH
    );
}

#[test]
fn config_matching_clear_value_and_auto_start() {
    let (mut p, mut h) = boot(cfg());
    p.write_counter(3, 99);
    let flags = CFG_FLAG_CLEAR_VALUE | CFG_FLAG_AUTO_START;
    assert_eq!(
        call(
            &mut p,
            &mut h,
            fid::COUNTER_CONFIG_MATCHING,
            &[0, HPM, flags, 0x2, 0]
        ),
        ok(3)
    );
    assert_eq!(p.mcountinhibit() & 1 << 3, 0, "started");
    assert_eq!(p.mhpmevent(3) & MHPMEVENT_OF, 0, "OF cleared on start");
    p.retire(pmu_priv::S, 7);
    assert_eq!(p.counter(3), 7);
    // With LCOFIP pending, start leaves OF alone (OpenSBI).
    h.lcofip = true;
    assert_eq!(
        call(
            &mut p,
            &mut h,
            fid::COUNTER_CONFIG_MATCHING,
            &[0, HPM, flags, 0x2, 0]
        ),
        ok(4)
    );
    assert_ne!(p.mhpmevent(4) & MHPMEVENT_OF, 0);
    // Firmware counter: AUTO_START counts at once.
    let r = call(
        &mut p,
        &mut h,
        fid::COUNTER_CONFIG_MATCHING,
        &[0, FW, flags, 0xf0005, 0],
    );
    assert_eq!(r, ok(11));
    p.fw_event(FwEvent::SetTimer);
    assert_eq!(call(&mut p, &mut h, fid::COUNTER_FW_READ, &[11]), ok(1));
}

#[test]
fn config_matching_runs_out_of_counters_then_falls_back_to_fixed() {
    let (mut p, mut h) = boot(cfg());
    for i in 3..=10 {
        let r = call(
            &mut p,
            &mut h,
            fid::COUNTER_CONFIG_MATCHING,
            &[0, HPM | 0b101, 0, 0x1, 0],
        );
        assert_eq!(r, ok(i));
    }
    // Every hpm counter is taken: cycles fall back to mcycle (running since boot).
    let r = call(
        &mut p,
        &mut h,
        fid::COUNTER_CONFIG_MATCHING,
        &[0, HPM | 0b101, 0, 0x1, 0],
    );
    assert_eq!(r, ok(0));
    let r = call(
        &mut p,
        &mut h,
        fid::COUNTER_CONFIG_MATCHING,
        &[0, HPM | 0b101, 0, 0x5, 0],
    );
    assert_eq!(r, err(NotSupported));
    // A started counter is not free: stop + reset frees it.
    let r = call(&mut p, &mut h, fid::COUNTER_STOP, &[7, 1, STOP_FLAG_RESET]);
    assert_eq!(r, err(AlreadyStopped), "configured, never started");
    let r = call(
        &mut p,
        &mut h,
        fid::COUNTER_CONFIG_MATCHING,
        &[0, HPM, 0, 0x5, 0],
    );
    assert_eq!(r, ok(7));
}

#[test]
fn skip_match_reprograms_and_keeps_a_running_counters_of() {
    let (mut p, mut h) = boot(cfg());
    let auto = CFG_FLAG_AUTO_START;
    assert_eq!(
        call(
            &mut p,
            &mut h,
            fid::COUNTER_CONFIG_MATCHING,
            &[0, HPM, auto, 0x2, 0]
        ),
        ok(3)
    );
    let flags = CFG_FLAG_SKIP_MATCH | CFG_FLAG_SET_SINH;
    let r = call(
        &mut p,
        &mut h,
        fid::COUNTER_CONFIG_MATCHING,
        &[3, 1, flags, 0x20000, 0x20002],
    );
    assert_eq!(r, ok(3));
    assert_eq!(p.mhpmevent(3), 0x20002 | MHPMEVENT_MINH | MHPMEVENT_SINH);
    assert_eq!(p.mcountinhibit() & 1 << 3, 0, "still running");
}

// ----- FID 3: counter_start ("PMU Counter Start Errors") --------------------------------

/// Boot, then configure counter 3 for instructions and fw counter 11 for SET_TIMER, both
/// stopped.
fn configured() -> (pmu::Pmu, Host) {
    let (mut p, mut h) = boot(cfg());
    assert_eq!(
        call(
            &mut p,
            &mut h,
            fid::COUNTER_CONFIG_MATCHING,
            &[0, HPM, 0, 0x2, 0]
        ),
        ok(3)
    );
    assert_eq!(
        call(
            &mut p,
            &mut h,
            fid::COUNTER_CONFIG_MATCHING,
            &[0, FW, 0, 0xf0005, 0]
        ),
        ok(11)
    );
    (p, h)
}

#[rstest]
#[case::reserved_flag(3, 1, 1 << 2, 0, err(InvalidParam))]
#[case::reserved_flag_63(3, 1, 1 << 63, 0, err(InvalidParam))]
#[case::empty_mask(3, 0, 0, 0, err(InvalidParam))]
#[case::past_last(26, 0b11, 0, 0, err(InvalidParam))]
#[case::hole(1, 1, 0, 0, err(InvalidParam))]
#[case::not_configured(4, 1, 0, 0, err(InvalidParam))]
#[case::init_snapshot_without_shmem(3, 1, START_FLAG_INIT_SNAPSHOT, 0, err(NoShmem))]
#[case::hw(3, 1, 0, 0, ok(0))]
#[case::hw_with_unconfigured_neighbours(3, 0b111, 0, 0, ok(0))]
#[case::fw(11, 1, START_SET_INIT_VALUE, 5, ok(0))]
#[case::fw_not_configured(12, 1, 0, 0, err(InvalidParam))]
#[case::fw_reserved_flag(11, 1, 1 << 2, 0, err(InvalidParam))]
#[case::fw_and_free_fw(11, 0b11, 0, 0, ok(0))]
#[case::mcycle_runs_since_boot(0, 1, 0, 0, err(AlreadyStarted))]
#[case::mcycle_and_hw(0, 0b1000, 0, 0, ok(0))]
#[case::mcycle_and_minstret_and_hw(0, 0b1101, 0, 0, err(AlreadyStarted))]
fn counter_start(
    #[case] base: u64,
    #[case] mask: u64,
    #[case] flags: u64,
    #[case] ival: u64,
    #[case] want: SbiRet,
) {
    let (mut p, mut h) = configured();
    assert_eq!(
        call(
            &mut p,
            &mut h,
            fid::COUNTER_START,
            &[base, mask, flags, ival]
        ),
        want
    );
}

#[test]
fn start_sets_the_initial_value_and_counts() {
    let (mut p, mut h) = configured();
    let r = call(
        &mut p,
        &mut h,
        fid::COUNTER_START,
        &[3, 1, START_SET_INIT_VALUE, 1000],
    );
    assert_eq!(r, ok(0));
    p.retire(pmu_priv::U, 10);
    assert_eq!(p.counter(3), 1010);
    // Already started: ALREADY_STARTED, and the value is not touched.
    let r = call(
        &mut p,
        &mut h,
        fid::COUNTER_START,
        &[3, 1, START_SET_INIT_VALUE, 0],
    );
    assert_eq!(r, err(AlreadyStarted));
    assert_eq!(p.counter(3), 1010);
    // The other counters of a set are started even when one already was.
    let r = call(&mut p, &mut h, fid::COUNTER_START, &[3, 1 | 1 << 8, 0, 0]);
    assert_eq!(r, err(AlreadyStarted));
    p.fw_event(FwEvent::SetTimer);
    assert_eq!(call(&mut p, &mut h, fid::COUNTER_FW_READ, &[11]), ok(1));
}

// ----- FID 4: counter_stop ("PMU Counter Stop Errors") ----------------------------------

#[rstest]
#[case::reserved_flag(3, 1, 1 << 2, err(InvalidParam))]
#[case::empty_mask(3, 0, 0, err(InvalidParam))]
#[case::past_last(27, 1, 0, err(InvalidParam))]
#[case::hole(0, 0b10, 0, err(InvalidParam))]
#[case::not_configured(5, 1, 0, err(InvalidParam))]
#[case::take_snapshot_without_shmem(3, 1, STOP_FLAG_TAKE_SNAPSHOT, err(NoShmem))]
#[case::running(3, 1, 0, ok(0))]
#[case::running_fw(11, 1, STOP_FLAG_RESET, ok(0))]
#[case::stopped(4, 1, 0, err(AlreadyStopped))]
#[case::stopped_reset(4, 1, STOP_FLAG_RESET, err(AlreadyStopped))]
#[case::running_and_stopped(3, 0b11, 0, err(AlreadyStopped))]
#[case::with_unconfigured(3, 0b101, 0, ok(0))]
#[case::fw_not_configured(12, 1, 0, err(InvalidParam))]
#[case::fw_running_and_free(11, 0b11, 0, ok(0))]
#[case::hw_and_fw(3, 1 << 8 | 1, 0, ok(0))]
fn counter_stop(#[case] base: u64, #[case] mask: u64, #[case] flags: u64, #[case] want: SbiRet) {
    let (mut p, mut h) = configured();
    // Counter 3 and fw counter 11 running; counter 4 configured and stopped.
    assert_eq!(
        call(&mut p, &mut h, fid::COUNTER_START, &[3, 1, 0, 0]),
        ok(0)
    );
    assert_eq!(
        call(&mut p, &mut h, fid::COUNTER_START, &[11, 1, 0, 0]),
        ok(0)
    );
    assert_eq!(
        call(
            &mut p,
            &mut h,
            fid::COUNTER_CONFIG_MATCHING,
            &[4, 1, 0, 0x2, 0]
        ),
        ok(4)
    );
    assert_eq!(
        call(&mut p, &mut h, fid::COUNTER_STOP, &[base, mask, flags]),
        want
    );
}

/// A firmware counter: started twice ALREADY_STARTED, stopped twice ALREADY_STOPPED, and
/// RESET frees it (fw_read then INVALID_PARAM, config_matching may take it again).
#[test]
fn firmware_counter_start_stop_reset() {
    let (mut p, mut h) = configured();
    let start = |p: &mut _, h: &mut _| call(p, h, fid::COUNTER_START, &[11, 1, 0, 0]);
    assert_eq!(start(&mut p, &mut h), ok(0));
    assert_eq!(start(&mut p, &mut h), err(AlreadyStarted));
    p.fw_event(FwEvent::SetTimer);
    assert_eq!(call(&mut p, &mut h, fid::COUNTER_STOP, &[11, 1, 0]), ok(0));
    assert_eq!(
        call(&mut p, &mut h, fid::COUNTER_STOP, &[11, 1, 0]),
        err(AlreadyStopped)
    );
    assert_eq!(call(&mut p, &mut h, fid::COUNTER_FW_READ, &[11]), ok(1));
    assert_eq!(
        call(&mut p, &mut h, fid::COUNTER_STOP, &[11, 1, STOP_FLAG_RESET]),
        err(AlreadyStopped)
    );
    assert_eq!(
        call(&mut p, &mut h, fid::COUNTER_FW_READ, &[11]),
        err(InvalidParam)
    );
    assert_eq!(p.sbi_counter_event(11), None);
    assert_eq!(
        call(
            &mut p,
            &mut h,
            fid::COUNTER_CONFIG_MATCHING,
            &[0, FW, 0, 0xf0006, 0]
        ),
        ok(11)
    );
}

/// Linux's pmu_sbi_check_event: config_matching without AUTO_START, then stop with RESET
/// on the (never started) counter. The spec's ALREADY_STOPPED comes back, and the counter
/// must still be freed, or every probe would leak one.
#[test]
fn stop_reset_on_a_stopped_counter_still_resets() {
    let (mut p, mut h) = boot(cfg());
    for _ in 0..20 {
        let r = call(
            &mut p,
            &mut h,
            fid::COUNTER_CONFIG_MATCHING,
            &[0, HPM, 0, 0x2, 0],
        );
        assert_eq!(r, ok(3));
        let r = call(
            &mut p,
            &mut h,
            fid::COUNTER_STOP,
            &[r.value, 1, STOP_FLAG_RESET],
        );
        assert_eq!(r, err(AlreadyStopped));
        assert_eq!(p.mhpmevent(3), 0);
        assert_eq!(p.sbi_counter_event(3), None);
    }
    // A running counter: stopped and reset, SUCCESS.
    let r = call(
        &mut p,
        &mut h,
        fid::COUNTER_CONFIG_MATCHING,
        &[0, HPM, CFG_FLAG_AUTO_START, 0x2, 0],
    );
    assert_eq!(r, ok(3));
    assert_eq!(
        call(&mut p, &mut h, fid::COUNTER_STOP, &[3, 1, STOP_FLAG_RESET]),
        ok(0)
    );
    assert_eq!(p.mhpmevent(3), 0);
    assert_ne!(p.mcountinhibit() & 1 << 3, 0);
    // mcycle keeps its event: RESET only stops it.
    assert_eq!(
        call(&mut p, &mut h, fid::COUNTER_STOP, &[0, 1, STOP_FLAG_RESET]),
        ok(0)
    );
    assert_eq!(
        call(&mut p, &mut h, fid::COUNTER_START, &[0, 1, 0, 0]),
        ok(0)
    );
}

/// Linux's pmu_sbi_stop_all at CPU start: every counter of its cmask (the hole excluded)
/// with RESET; errors ignored. Counters 0 and 2 must stop.
#[test]
fn stop_all_like_linux() {
    let (mut p, mut h) = boot(cfg());
    let cmask = ((1u64 << NUM) - 1) & !0b10;
    let r = call(
        &mut p,
        &mut h,
        fid::COUNTER_STOP,
        &[0, cmask, STOP_FLAG_RESET],
    );
    assert_eq!(r, ok(0));
    assert_eq!(p.mcountinhibit(), 0x7fd);
}

// ----- FID 5, 6: counter_fw_read, counter_fw_read_hi ("PMU Counter Firmware Read
// Errors": INVALID_PARAM when counter_idx points to a hardware counter or an invalid
// counter) ------------------------------------------------------------------------------

#[rstest]
#[case::hw_counter(3, err(InvalidParam))]
#[case::mcycle(0, err(InvalidParam))]
#[case::hole(1, err(InvalidParam))]
#[case::not_configured(12, err(InvalidParam))]
#[case::past_last(27, err(InvalidParam))]
#[case::configured(11, ok(3))]
fn counter_fw_read(#[case] idx: u64, #[case] want: SbiRet) {
    let (mut p, mut h) = configured();
    assert_eq!(
        call(
            &mut p,
            &mut h,
            fid::COUNTER_START,
            &[11, 1, START_SET_INIT_VALUE, 2]
        ),
        ok(0)
    );
    p.fw_event(FwEvent::SetTimer);
    p.fw_event(FwEvent::IpiSent);
    assert_eq!(call(&mut p, &mut h, fid::COUNTER_FW_READ, &[idx]), want);
    let hi = if want.error == 0 { ok(0) } else { want };
    assert_eq!(call(&mut p, &mut h, fid::COUNTER_FW_READ_HI, &[idx]), hi);
}

#[test]
fn fw_counters_count_only_while_started() {
    let (mut p, mut h) = configured();
    p.fw_event(FwEvent::SetTimer);
    assert_eq!(call(&mut p, &mut h, fid::COUNTER_FW_READ, &[11]), ok(0));
    assert_eq!(
        call(&mut p, &mut h, fid::COUNTER_START, &[11, 1, 0, 0]),
        ok(0)
    );
    // Two counters on the same event both count.
    let auto = CFG_FLAG_AUTO_START;
    assert_eq!(
        call(
            &mut p,
            &mut h,
            fid::COUNTER_CONFIG_MATCHING,
            &[0, FW, auto, 0xf0005, 0]
        ),
        ok(12)
    );
    for _ in 0..3 {
        p.fw_event(FwEvent::SetTimer);
    }
    assert_eq!(call(&mut p, &mut h, fid::COUNTER_FW_READ, &[11]), ok(3));
    assert_eq!(call(&mut p, &mut h, fid::COUNTER_FW_READ, &[12]), ok(3));
    assert_eq!(call(&mut p, &mut h, fid::COUNTER_STOP, &[11, 1, 0]), ok(0));
    p.fw_event(FwEvent::SetTimer);
    assert_eq!(call(&mut p, &mut h, fid::COUNTER_FW_READ, &[11]), ok(3));
    assert_eq!(call(&mut p, &mut h, fid::COUNTER_FW_READ, &[12]), ok(4));
}

// ----- FID 7: snapshot_set_shmem ("PMU Setup Snapshot Area Errors") ---------------------

#[rstest]
#[case::ok(RAM, 0, 0, ok(0))]
#[case::disable(u64::MAX, u64::MAX, 0, ok(0))]
#[case::flags(RAM, 0, 1, err(InvalidParam))]
#[case::flags_on_disable(u64::MAX, u64::MAX, 1, err(InvalidParam))]
#[case::misaligned(RAM + 8, 0, 0, err(InvalidParam))]
#[case::hi_not_zero(RAM, 1, 0, err(InvalidAddress))]
#[case::not_ram(0x1000, 0, 0, err(InvalidAddress))]
#[case::past_ram(RAM + RAM_SIZE, 0, 0, err(InvalidAddress))]
#[case::read_only(RO_PAGE, 0, 0, err(InvalidAddress))]
#[case::top_of_address_space(!0xfff, 0, 0, err(InvalidAddress))]
fn snapshot_set_shmem(#[case] lo: u64, #[case] hi: u64, #[case] flags: u64, #[case] want: SbiRet) {
    let (mut p, mut h) = boot(cfg());
    assert_eq!(
        call(&mut p, &mut h, fid::SNAPSHOT_SET_SHMEM, &[lo, hi, flags]),
        want
    );
}

#[test]
fn snapshot_can_be_turned_off_as_in_opensbi() {
    let (mut p, mut h) = boot(PmuConfig {
        sbi_snapshot: false,
        ..cfg()
    });
    let r = call(&mut p, &mut h, fid::SNAPSHOT_SET_SHMEM, &[RAM, 0, 0]);
    assert_eq!(r, err(NotSupported));
    assert_eq!(
        call(
            &mut p,
            &mut h,
            fid::COUNTER_CONFIG_MATCHING,
            &[0, HPM, 0, 0x2, 0]
        ),
        ok(3)
    );
    let r = call(
        &mut p,
        &mut h,
        fid::COUNTER_STOP,
        &[3, 1, STOP_FLAG_TAKE_SNAPSHOT],
    );
    assert_eq!(r, err(NoShmem));
}

#[test]
fn snapshot_values_and_overflow_bitmap_are_relative_to_the_base() {
    let (mut p, mut h) = boot(cfg());
    let shmem = RAM + 0x2000;
    assert_eq!(
        call(&mut p, &mut h, fid::SNAPSHOT_SET_SHMEM, &[shmem, 0, 0]),
        ok(0)
    );
    // The SBI does not touch the memory when it is set.
    assert_eq!(h.read_u64(shmem), 0);
    for _ in 0..2 {
        assert_eq!(
            call(
                &mut p,
                &mut h,
                fid::COUNTER_CONFIG_MATCHING,
                &[0, HPM, 0, 0x2, 0]
            )
            .error,
            0
        );
    }
    // INIT_SNAPSHOT: counter 3 + i takes counter_values[i].
    h.write_u64(shmem + 8, (1 << 48) - 5);
    h.write_u64(shmem + 16, 100);
    h.write_u64(shmem + 24, 0xdead);
    let r = call(
        &mut p,
        &mut h,
        fid::COUNTER_START,
        &[3, 0b11, START_FLAG_INIT_SNAPSHOT, 0],
    );
    assert_eq!(r, ok(0));
    assert_eq!((p.counter(3), p.counter(4)), ((1 << 48) - 5, 100));
    p.retire(pmu_priv::S, 6);
    assert!(p.check_overflow());
    // TAKE_SNAPSHOT with base 3: counter 3 at counter_values[0], overflow bit 0; entry 2
    // (no counter in the set) is left alone, as is bitmap bit 5 outside the set.
    h.write_u64(shmem, 1 << 5 | 1 << 1);
    let r = call(
        &mut p,
        &mut h,
        fid::COUNTER_STOP,
        &[3, 0b11, STOP_FLAG_TAKE_SNAPSHOT],
    );
    assert_eq!(r, ok(0));
    assert_eq!(h.read_u64(shmem + 8), 1);
    assert_eq!(h.read_u64(shmem + 16), 106);
    assert_eq!(h.read_u64(shmem + 24), 0xdead);
    assert_eq!(h.read_u64(shmem), 1 << 5 | 1);
    // Linux's single-counter stop: base = idx, mask 1: value lands in counter_values[0].
    assert_eq!(
        call(&mut p, &mut h, fid::COUNTER_START, &[4, 1, 0, 0]),
        ok(0)
    );
    p.retire(pmu_priv::S, 4);
    let r = call(
        &mut p,
        &mut h,
        fid::COUNTER_STOP,
        &[4, 1, STOP_FLAG_TAKE_SNAPSHOT | STOP_FLAG_RESET],
    );
    assert_eq!(r, ok(0));
    assert_eq!(h.read_u64(shmem + 8), 110);
    assert_eq!(h.read_u64(shmem) & 1, 0, "counter 4 did not overflow");
    // Disabled: snapshot flags give NO_SHMEM again.
    assert_eq!(
        call(
            &mut p,
            &mut h,
            fid::SNAPSHOT_SET_SHMEM,
            &[u64::MAX, u64::MAX, 0]
        ),
        ok(0)
    );
    let r = call(
        &mut p,
        &mut h,
        fid::COUNTER_STOP,
        &[3, 1, STOP_FLAG_TAKE_SNAPSHOT],
    );
    assert_eq!(r, err(NoShmem));
}

// ----- FID 8: event_get_info ("PMU Get Event Info Errors") ------------------------------

const EVENTS: &[(u32, u64, bool, bool)] = &[
    // (event_idx, event_data, supported with models off, with models on)
    (0x1, 0, true, true),
    (0x2, 0, true, true),
    (0x4, 0, false, true),
    (0x6, 0, false, true),
    (0x7, 0, false, false),
    (0x10001, 0, false, true),
    (0x10004, 0, false, false),
    (0x10030, 0, false, false),
    (0x20000, 0x20001, true, true),
    (0x30000, 0x2000e, false, true),
    (0x20000, 0x1, true, true),
    (0x20000, 0x10001, false, true),
    (0x20000, 0x10004, false, false),
    (0x20000, 0x0, false, false),
    (0xf0000, 0, true, true),
    (0xf0015, 0, true, true),
    (0xf0016, 0, false, false),
    (0xfffff, 0, false, false),
];

fn write_entries(h: &mut Host, at: u64, entries: &[(u32, u64)]) {
    for (k, &(idx, data)) in entries.iter().enumerate() {
        let e = at + 16 * k as u64;
        h.write_u32(e, idx);
        h.write_u32(e + 4, 0xffff_ffff);
        h.write_u64(e + 8, data);
    }
}

#[rstest]
#[case(false)]
#[case(true)]
fn event_get_info(#[case] with_models: bool) {
    let (mut p, mut h) = boot(if with_models { models() } else { cfg() });
    let at = RAM + 0x100;
    let entries: Vec<(u32, u64)> = EVENTS.iter().map(|e| (e.0, e.1)).collect();
    write_entries(&mut h, at, &entries);
    let r = call(
        &mut p,
        &mut h,
        fid::EVENT_GET_INFO,
        &[at, 0, EVENTS.len() as u64, 0],
    );
    assert_eq!(r, ok(0));
    for (k, e) in EVENTS.iter().enumerate() {
        let want = if with_models { e.3 } else { e.2 };
        // The whole output word is written.
        assert_eq!(
            h.read_u32(at + 16 * k as u64 + 4),
            want as u32,
            "event {:#x}",
            e.0
        );
    }
}

#[rstest]
#[case::flags(RAM, 0, 1, 1, err(InvalidParam))]
#[case::misaligned(RAM + 8, 0, 1, 0, err(InvalidParam))]
#[case::no_entries(RAM, 0, 0, 0, err(InvalidParam))]
#[case::too_many(RAM, 0, u64::MAX, 0, err(InvalidParam))]
#[case::hi_not_zero(RAM, 1, 1, 0, err(InvalidAddress))]
#[case::not_ram(0x1000, 0, 1, 0, err(InvalidAddress))]
#[case::runs_past_ram(RAM + RAM_SIZE - 16, 0, 2, 0, err(InvalidAddress))]
#[case::read_only(RO_PAGE, 0, 1, 0, err(InvalidAddress))]
#[case::ok(RAM + 0x10, 0, 2, 0, ok(0))]
fn event_get_info_errors(
    #[case] lo: u64,
    #[case] hi: u64,
    #[case] n: u64,
    #[case] flags: u64,
    #[case] want: SbiRet,
) {
    let (mut p, mut h) = boot(cfg());
    assert_eq!(
        call(&mut p, &mut h, fid::EVENT_GET_INFO, &[lo, hi, n, flags]),
        want
    );
}

#[test]
fn event_get_info_reserved_idx_bits_write_nothing() {
    let (mut p, mut h) = boot(cfg());
    let at = RAM;
    write_entries(&mut h, at, &[(0x2, 0), (0x10_0002, 0)]);
    let r = call(&mut p, &mut h, fid::EVENT_GET_INFO, &[at, 0, 2, 0]);
    assert_eq!(r, err(InvalidParam));
    assert_eq!(h.read_u32(at + 4), 0xffff_ffff);
}

// ----- The rest --------------------------------------------------------------------------

#[test]
fn unknown_function() {
    let (mut p, mut h) = boot(cfg());
    assert_eq!(call(&mut p, &mut h, 9, &[]), err(NotSupported));
}

/// Linux's overflow handling without snapshot memory: a sampling counter overflows, the
/// handler stops the counters, reads scountovf, and restarts the overflowed one with a new
/// initial value; OF is cleared on that start (LCOFIP was cleared first), so the counter
/// interrupts again on its next overflow.
#[test]
fn sampling_round_trip() {
    let (mut p, mut h) = boot(cfg());
    let flags = CFG_FLAG_SET_UINH;
    let r = call(
        &mut p,
        &mut h,
        fid::COUNTER_CONFIG_MATCHING,
        &[0, HPM, flags, 0x2, 0],
    );
    assert_eq!(r, ok(3));
    let period = 1000u64;
    let ival = (1u64 << 48) - period;
    let r = call(
        &mut p,
        &mut h,
        fid::COUNTER_START,
        &[3, 1, START_SET_INIT_VALUE, ival],
    );
    assert_eq!(r, ok(0));
    assert!(p.armed());
    for round in 0..3 {
        p.retire(pmu_priv::U, 5000); // not counted: UINH
        assert!(!p.check_overflow());
        assert_eq!(p.overflow_horizon(), period);
        p.retire(pmu_priv::S, period - 1);
        assert!(!p.check_overflow(), "round {round}");
        p.retire(pmu_priv::S, 1);
        assert!(p.check_overflow(), "round {round}");
        h.lcofip = true;
        assert_eq!(
            call(&mut p, &mut h, fid::COUNTER_STOP, &[0, HPM, 0]).error,
            0
        );
        let ctx = pmu::CsrCtx {
            prv: pmu_priv::S,
            mcounteren: !0,
            scounteren: 0,
            time: 0,
        };
        assert_eq!(p.csr_read(pmu::csr::SCOUNTOVF, &ctx), Ok(1 << 3));
        assert_eq!(p.csr_read(pmu::csr::HPMCOUNTER3, &ctx), Ok(0));
        h.lcofip = false; // csrc sip, LCOFIP
        let r = call(
            &mut p,
            &mut h,
            fid::COUNTER_START,
            &[3, 1, START_SET_INIT_VALUE, ival],
        );
        assert_eq!(r, ok(0));
        assert_eq!(p.csr_read(pmu::csr::SCOUNTOVF, &ctx), Ok(0));
    }
}

#[test]
fn the_log_keeps_calls_and_results() {
    let cfg = PmuConfig {
        sbi_log_limit: 3,
        ..cfg()
    };
    let (mut p, mut h) = boot(cfg);
    call(&mut p, &mut h, fid::NUM_COUNTERS, &[]);
    call(&mut p, &mut h, fid::COUNTER_GET_INFO, &[1]);
    call(
        &mut p,
        &mut h,
        fid::COUNTER_CONFIG_MATCHING,
        &[0, HPM, 0, 0x2, 0],
    );
    call(&mut p, &mut h, fid::COUNTER_GET_INFO, &[1]);
    let rep = p.report();
    assert_eq!(rep.sbi_calls.len(), 3);
    assert_eq!(rep.sbi_calls_not_listed, 1);
    assert_eq!(rep.sbi_calls[1].function, "counter_get_info");
    assert_eq!(rep.sbi_calls[1].args, vec![1]);
    assert_eq!(rep.sbi_calls[1].error_name, "ERR_INVALID_PARAM");
    assert_eq!(rep.sbi_calls[2].value, 3);
    let info = rep
        .sbi_summary
        .iter()
        .find(|r| r.function == "counter_get_info")
        .unwrap();
    assert_eq!((info.error, info.calls), (-3, 2));
    let c3 = rep.counters.iter().find(|c| c.index == 3).unwrap();
    assert_eq!(c3.event, "INSTRUCTIONS");
    assert!(!c3.running);
    let table = rep.to_table();
    assert!(table.contains("mhpmcounter3"), "{table}");
    assert!(
        table.contains("pmu.counter_get_info(0x1) -> ERR_INVALID_PARAM"),
        "{table}"
    );
    let json = serde_json::to_string(&rep).unwrap();
    assert!(json.contains("\"sbi_calls_not_listed\":1"));
}

#[test]
fn counting_classes_reach_the_sbi_counters() {
    let (mut p, mut h) = boot(cfg());
    let auto = CFG_FLAG_AUTO_START | CFG_FLAG_CLEAR_VALUE;
    let r = call(
        &mut p,
        &mut h,
        fid::COUNTER_CONFIG_MATCHING,
        &[0, HPM, auto, 0x5, 0],
    );
    assert_eq!(r, ok(3));
    for c in [
        Class::BranchesTaken,
        Class::BranchesNotTaken,
        Class::Jumps,
        Class::Calls,
        Class::Returns,
        Class::Loads,
    ] {
        p.count(pmu_priv::M, c, 2);
    }
    assert_eq!(p.counter(3), 0, "MINH: nothing in M-mode");
    p.count(pmu_priv::S, Class::Calls, 3);
    p.count(pmu_priv::U, Class::Loads, 3);
    assert_eq!(p.counter(3), 3);
}

use arch::Priv as pmu_priv;
