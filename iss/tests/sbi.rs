//! The built-in SBI through the iss API: every extension's functions and error codes (tables
//! over `Machine::sbi_call`), what the calls do to the machine, the boot state, and the trap
//! path of S-mode code (ecall served, misaligned accesses emulated, other exceptions
//! redirected, the records sinks see).

use iss::bus::{Console, RAM_BASE};
use iss::csr::*;
use iss::record::{Reg, Retired, TrapRecord};
use iss::sbi::{eid, Then, IMPL_ID, OPENSBI_MEDELEG};
use iss::Detail;
use iss::{Cause, Config, Exception, Machine, NoSink, Priv, Sink, Stop};
use rstest::rstest;

const INVALID_PARAM: i64 = -3;
const NOT_SUPPORTED: i64 = -2;
const INVALID_ADDRESS: i64 = -5;
const ALREADY_AVAILABLE: i64 = -6;
const NO_RET: u64 = u64::MAX; // "any value" in the tables

fn config() -> Config {
    let mut c = Config {
        sscofpmf: true,
        sbi: true,
        ..Config::default()
    };
    c.pmu.hpm_counters = 29;
    c
}

/// A machine booted under the built-in SBI with `code` at RAM_BASE (the entry).
fn machine_with(code: &[u32]) -> Machine {
    let mut m = Machine::new(config());
    m.bus.console = Console::Capture(Vec::new());
    let bytes: Vec<u8> = code.iter().flat_map(|w| w.to_le_bytes()).collect();
    if !bytes.is_empty() {
        let off = m.bus.ram.offset(RAM_BASE, bytes.len() as u64).unwrap();
        m.bus
            .ram
            .bytes_mut(off, bytes.len())
            .copy_from_slice(&bytes);
    }
    m.boot(RAM_BASE);
    m
}

fn machine() -> Machine {
    machine_with(&[])
}

// A few RV64 encodings.
fn addi(rd: u32, rs1: u32, imm: i32) -> u32 {
    ((imm as u32 & 0xfff) << 20) | (rs1 << 15) | (rd << 7) | 0x13
}
fn lui(rd: u32, imm20: u32) -> u32 {
    (imm20 << 12) | (rd << 7) | 0x37
}
fn auipc(rd: u32, imm20: u32) -> u32 {
    (imm20 << 12) | (rd << 7) | 0x17
}
fn ld(rd: u32, imm: i32, rs1: u32) -> u32 {
    ((imm as u32 & 0xfff) << 20) | (rs1 << 15) | (3 << 12) | (rd << 7) | 0x03
}
fn sd(rs2: u32, imm: i32, rs1: u32) -> u32 {
    let i = imm as u32 & 0xfff;
    ((i >> 5) << 25) | (rs2 << 20) | (rs1 << 15) | (3 << 12) | ((i & 0x1f) << 7) | 0x23
}
fn csrr(rd: u32, csr: u32) -> u32 {
    (csr << 20) | (2 << 12) | (rd << 7) | 0x73
}
const ECALL: u32 = 0x73;
const LOOP: u32 = 0x6f; // j .
const WFI: u32 = 0x1050_0073;
const A0: u32 = 10;
const A1: u32 = 11;
const A6: u32 = 16;
const A7: u32 = 17;
const T0: u32 = 5;

#[rstest]
// Base
#[case::spec_version(eid::BASE, 0, [0; 6], 0, 0x0300_0000)]
#[case::impl_id(eid::BASE, 1, [0; 6], 0, IMPL_ID)]
#[case::impl_version(eid::BASE, 2, [0; 6], 0, NO_RET)]
#[case::probe_base(eid::BASE, 3, [eid::BASE, 0, 0, 0, 0, 0], 0, 1)]
#[case::probe_time(eid::BASE, 3, [eid::TIME, 0, 0, 0, 0, 0], 0, 1)]
#[case::probe_ipi(eid::BASE, 3, [eid::IPI, 0, 0, 0, 0, 0], 0, 1)]
#[case::probe_rfence(eid::BASE, 3, [eid::RFENCE, 0, 0, 0, 0, 0], 0, 1)]
#[case::probe_hsm(eid::BASE, 3, [eid::HSM, 0, 0, 0, 0, 0], 0, 1)]
#[case::probe_srst(eid::BASE, 3, [eid::SRST, 0, 0, 0, 0, 0], 0, 1)]
#[case::probe_pmu(eid::BASE, 3, [eid::PMU, 0, 0, 0, 0, 0], 0, 1)]
#[case::probe_dbcn(eid::BASE, 3, [eid::DBCN, 0, 0, 0, 0, 0], 0, 1)]
#[case::probe_putchar(eid::BASE, 3, [1, 0, 0, 0, 0, 0], 0, 1)]
#[case::probe_getchar(eid::BASE, 3, [2, 0, 0, 0, 0, 0], 0, 1)]
#[case::probe_legacy_timer(eid::BASE, 3, [0, 0, 0, 0, 0, 0], 0, 0)]
#[case::probe_legacy_shutdown(eid::BASE, 3, [8, 0, 0, 0, 0, 0], 0, 0)]
#[case::probe_susp(eid::BASE, 3, [0x5355_5350, 0, 0, 0, 0, 0], 0, 0)]
#[case::mvendorid(eid::BASE, 4, [0; 6], 0, 0)]
#[case::marchid(eid::BASE, 5, [0; 6], 0, 0)]
#[case::mimpid(eid::BASE, 6, [0; 6], 0, 0)]
#[case::base_bad_fid(eid::BASE, 7, [0; 6], NOT_SUPPORTED, 0)]
#[case::unknown_eid(0x0bad_bad0, 0, [0; 6], NOT_SUPPORTED, 0)]
#[case::legacy_set_timer(0x00, 0, [0; 6], NOT_SUPPORTED, 0)]
#[case::legacy_shutdown(0x08, 0, [0; 6], NOT_SUPPORTED, 0)]
// Timer
#[case::set_timer(eid::TIME, 0, [u64::MAX, 0, 0, 0, 0, 0], 0, 0)]
#[case::time_bad_fid(eid::TIME, 1, [0; 6], NOT_SUPPORTED, 0)]
// IPI
#[case::ipi_self(eid::IPI, 0, [1, 0, 0, 0, 0, 0], 0, 0)]
#[case::ipi_all(eid::IPI, 0, [0, u64::MAX, 0, 0, 0, 0], 0, 0)]
#[case::ipi_empty(eid::IPI, 0, [0, 0, 0, 0, 0, 0], 0, 0)]
#[case::ipi_other_hart(eid::IPI, 0, [2, 0, 0, 0, 0, 0], INVALID_PARAM, 0)]
#[case::ipi_other_base(eid::IPI, 0, [1, 1, 0, 0, 0, 0], INVALID_PARAM, 0)]
#[case::ipi_base_overflow(eid::IPI, 0, [2, u64::MAX - 1, 0, 0, 0, 0], INVALID_PARAM, 0)]
#[case::ipi_bad_fid(eid::IPI, 1, [1, 0, 0, 0, 0, 0], NOT_SUPPORTED, 0)]
// RFENCE
#[case::fence_i(eid::RFENCE, 0, [1, 0, 0, 0, 0, 0], 0, 0)]
#[case::fence_i_other(eid::RFENCE, 0, [3, 0, 0, 0, 0, 0], INVALID_PARAM, 0)]
#[case::sfence_vma(eid::RFENCE, 1, [1, 0, 0, 0, 0, 0], 0, 0)]
#[case::sfence_vma_range(eid::RFENCE, 1, [0, u64::MAX, 0x8000_0000, 0x3000, 0, 0], 0, 0)]
#[case::sfence_vma_asid(eid::RFENCE, 2, [1, 0, 0, u64::MAX, 7, 0], 0, 0)]
#[case::sfence_vma_other(eid::RFENCE, 1, [1, 5, 0, 0, 0, 0], INVALID_PARAM, 0)]
#[case::hfence_gvma_vmid(eid::RFENCE, 3, [1, 0, 0, 0, 0, 0], NOT_SUPPORTED, 0)]
#[case::hfence_gvma(eid::RFENCE, 4, [1, 0, 0, 0, 0, 0], NOT_SUPPORTED, 0)]
#[case::hfence_vvma_asid(eid::RFENCE, 5, [1, 0, 0, 0, 0, 0], NOT_SUPPORTED, 0)]
#[case::hfence_vvma(eid::RFENCE, 6, [1, 0, 0, 0, 0, 0], NOT_SUPPORTED, 0)]
#[case::rfence_bad_fid(eid::RFENCE, 7, [1, 0, 0, 0, 0, 0], NOT_SUPPORTED, 0)]
// HSM
#[case::hart_start_self(eid::HSM, 0, [0, RAM_BASE, 0, 0, 0, 0], ALREADY_AVAILABLE, 0)]
#[case::hart_start_other(eid::HSM, 0, [1, RAM_BASE, 0, 0, 0, 0], INVALID_PARAM, 0)]
#[case::hart_start_bad_addr(eid::HSM, 0, [0, 0x1000, 0, 0, 0, 0], INVALID_ADDRESS, 0)]
#[case::hart_status(eid::HSM, 2, [0; 6], 0, 0)]
#[case::hart_status_other(eid::HSM, 2, [1, 0, 0, 0, 0, 0], INVALID_PARAM, 0)]
#[case::suspend_reserved(eid::HSM, 3, [1, 0, 0, 0, 0, 0], INVALID_PARAM, 0)]
#[case::suspend_platform_ret(eid::HSM, 3, [0x1000_0000, 0, 0, 0, 0, 0], INVALID_PARAM, 0)]
#[case::suspend_reserved_nonret(eid::HSM, 3, [0x8000_0001, RAM_BASE, 0, 0, 0, 0], INVALID_PARAM, 0)]
#[case::suspend_platform_nonret(eid::HSM, 3, [0x9000_0000, RAM_BASE, 0, 0, 0, 0], INVALID_PARAM, 0)]
#[case::suspend_wide(eid::HSM, 3, [1 << 32, 0, 0, 0, 0, 0], INVALID_PARAM, 0)]
#[case::suspend_bad_resume(eid::HSM, 3, [0x8000_0000, 0x1000, 0, 0, 0, 0], INVALID_ADDRESS, 0)]
#[case::suspend_odd_resume(eid::HSM, 3, [0x8000_0000, RAM_BASE + 1, 0, 0, 0, 0], INVALID_ADDRESS, 0)]
#[case::hsm_bad_fid(eid::HSM, 4, [0; 6], NOT_SUPPORTED, 0)]
// SRST
#[case::reset_reserved_type(eid::SRST, 0, [3, 0, 0, 0, 0, 0], INVALID_PARAM, 0)]
#[case::reset_platform_type(eid::SRST, 0, [0xf000_0000, 0, 0, 0, 0, 0], INVALID_PARAM, 0)]
#[case::reset_wide_type(eid::SRST, 0, [1 << 32, 0, 0, 0, 0, 0], INVALID_PARAM, 0)]
#[case::reset_reserved_reason(eid::SRST, 0, [0, 2, 0, 0, 0, 0], INVALID_PARAM, 0)]
#[case::reset_vendor_reason(eid::SRST, 0, [0, 0xf000_0000, 0, 0, 0, 0], INVALID_PARAM, 0)]
#[case::reset_wide_reason(eid::SRST, 0, [0, 0x1_0000_0000, 0, 0, 0, 0], INVALID_PARAM, 0)]
#[case::srst_bad_fid(eid::SRST, 1, [0; 6], NOT_SUPPORTED, 0)]
// DBCN
#[case::dbcn_write_nothing(eid::DBCN, 0, [0, RAM_BASE, 0, 0, 0, 0], 0, 0)]
#[case::dbcn_write_hi(eid::DBCN, 0, [4, RAM_BASE, 1, 0, 0, 0], INVALID_PARAM, 0)]
#[case::dbcn_write_not_ram(eid::DBCN, 0, [4, 0x1000_0000, 0, 0, 0, 0], INVALID_PARAM, 0)]
#[case::dbcn_write_past_ram(eid::DBCN, 0, [16, RAM_BASE + (256 << 20) - 8, 0, 0, 0, 0], INVALID_PARAM, 0)]
#[case::dbcn_read_nothing(eid::DBCN, 1, [8, RAM_BASE, 0, 0, 0, 0], 0, 0)]
#[case::dbcn_read_hi(eid::DBCN, 1, [8, RAM_BASE, 1, 0, 0, 0], INVALID_PARAM, 0)]
#[case::dbcn_read_not_ram(eid::DBCN, 1, [8, 0, 0, 0, 0, 0], INVALID_PARAM, 0)]
#[case::dbcn_write_byte(eid::DBCN, 2, [b'x' as u64, 0, 0, 0, 0, 0], 0, 0)]
#[case::dbcn_bad_fid(eid::DBCN, 3, [0; 6], NOT_SUPPORTED, 0)]
// PMU (the functions' own tables are the pmu crate's; these check the plumbing)
#[case::pmu_num_counters(eid::PMU, 0, [0; 6], 0, 48)]
#[case::pmu_info_hole(eid::PMU, 1, [1, 0, 0, 0, 0, 0], INVALID_PARAM, 0)]
#[case::pmu_info_instret(eid::PMU, 1, [2, 0, 0, 0, 0, 0], 0, 0xc02 | 63 << 12)]
#[case::pmu_snapshot_ram(eid::PMU, 7, [RAM_BASE + 0x1000, 0, 0, 0, 0, 0], 0, 0)]
#[case::pmu_snapshot_not_ram(eid::PMU, 7, [0x1000, 0, 0, 0, 0, 0], INVALID_ADDRESS, 0)]
#[case::pmu_snapshot_past_ram(eid::PMU, 7, [RAM_BASE + (256 << 20), 0, 0, 0, 0, 0], INVALID_ADDRESS, 0)]
#[case::pmu_event_info_not_ram(eid::PMU, 8, [0x1000, 0, 1, 0, 0, 0], INVALID_ADDRESS, 0)]
#[case::pmu_bad_fid(eid::PMU, 9, [0; 6], NOT_SUPPORTED, 0)]
// Legacy console
#[case::putchar(eid::LEGACY_PUTCHAR, 0, [b'x' as u64, 0, 0, 0, 0, 0], 0, 0)]
#[case::getchar_empty(eid::LEGACY_GETCHAR, 0, [0; 6], -1, 0)]
fn sbi_calls(
    #[case] e: u64,
    #[case] fid: u64,
    #[case] args: [u64; 6],
    #[case] error: i64,
    #[case] value: u64,
) {
    let mut m = machine();
    let r = m.sbi_call(e, fid, args);
    assert_eq!(r.ret.error, error, "{e:#x}/{fid}: error");
    if value != NO_RET {
        assert_eq!(r.ret.value, value, "{e:#x}/{fid}: value");
    }
    assert_eq!(r.then, Then::Return);
}

#[rstest]
#[case::shutdown(0, 0, 0)]
#[case::cold_reboot_failure(1, 1, 1)]
#[case::warm_reboot_code(2, 0xe000_0007, 7)]
#[case::code_300(0, 0xe000_0000 + 300, 300)]
fn system_reset_ends_the_run(#[case] ty: u64, #[case] reason: u64, #[case] code: u64) {
    let mut m = machine();
    let r = m.sbi_call(eid::SRST, 0, [ty, reason, 0, 0, 0, 0]);
    assert_eq!(r.then, Then::Stop(Stop::Exit(code)));
    assert_eq!(m.sbi().reset, Some((ty as u32, reason as u32)));
    assert_eq!(iss::sbi::exit_code(reason as u32), Some(code));
}

#[test]
fn hart_stop_and_suspend() {
    let mut m = machine();
    let r = m.sbi_call(eid::HSM, 1, [0; 6]);
    assert!(matches!(r.then, Then::Stop(Stop::WaitForever { .. })));
    assert!(m.sbi().stopped);

    let mut m = machine();
    assert_eq!(m.sbi_call(eid::HSM, 3, [0; 6]).then, Then::Suspend(None));
    m.hart.csr.mstatus |= MSTATUS_SIE;
    let r = m.sbi_call(
        eid::HSM,
        3,
        [0x8000_0000, RAM_BASE + 0x40, 0x5ca1ab1e, 0, 0, 0],
    );
    assert_eq!(r.then, Then::Suspend(Some(RAM_BASE + 0x40)));
    assert_eq!(
        (r.ret.error, r.ret.value),
        (0, 0x5ca1ab1e),
        "a0 = hart id, a1 = opaque"
    );
    assert_eq!(m.hart.csr.mstatus & MSTATUS_SIE, 0);
    assert_eq!(m.hart.csr.satp, 0);
}

#[test]
fn console_and_timer_and_ipi_effects() {
    let mut m = machine();
    let msg = b"hello, console";
    let off = m.bus.ram.offset(RAM_BASE + 0x100, 64).unwrap();
    m.bus.ram.bytes_mut(off, msg.len()).copy_from_slice(msg);
    let r = m.sbi_call(
        eid::DBCN,
        0,
        [msg.len() as u64, RAM_BASE + 0x100, 0, 0, 0, 0],
    );
    assert_eq!((r.ret.error, r.ret.value), (0, msg.len() as u64));
    m.sbi_call(eid::DBCN, 2, [b'!' as u64, 0, 0, 0, 0, 0]);
    m.sbi_call(eid::LEGACY_PUTCHAR, 0, [b'?' as u64, 0, 0, 0, 0, 0]);
    assert_eq!(m.bus.console.captured(), b"hello, console!?");
    // reads take what the UART received
    m.bus.uart.input.extend(b"abc");
    let r = m.sbi_call(eid::DBCN, 1, [2, RAM_BASE + 0x200, 0, 0, 0, 0]);
    assert_eq!((r.ret.error, r.ret.value), (0, 2));
    assert_eq!(m.bus.ram.bytes(off + 0x100, 2), b"ab");
    let r = m.sbi_call(eid::LEGACY_GETCHAR, 0, [0; 6]);
    assert_eq!(r.ret.error, b'c' as i64);
    assert_eq!(m.sbi_call(eid::LEGACY_GETCHAR, 0, [0; 6]).ret.error, -1);

    // set_timer: STIP at once for a deadline already passed, cleared by the next call
    m.bus.clint.mtime = 1000;
    m.sbi_call(eid::TIME, 0, [999, 0, 0, 0, 0, 0]);
    assert_ne!(m.hart.csr.mip & MIP_STIP, 0);
    m.sbi_call(eid::TIME, 0, [2000, 0, 0, 0, 0, 0]);
    assert_eq!(m.hart.csr.mip & MIP_STIP, 0);
    assert_eq!(m.sbi().timer, Some(2000));
    // IPIs: SSIP
    m.sbi_call(eid::IPI, 0, [0, 0, 0, 0, 0, 0]);
    assert_eq!(m.hart.csr.mip & MIP_SSIP, 0, "an empty set sends nothing");
    m.sbi_call(eid::IPI, 0, [1, 0, 0, 0, 0, 0]);
    assert_ne!(m.hart.csr.mip & MIP_SSIP, 0);
    assert_eq!(m.sbi().calls, 10);
}

#[test]
fn firmware_events_count() {
    let mut m = machine();
    // Firmware counters for every event the SBI can see, auto-started.
    let all = ((1u64 << 48) - 1) & !2;
    let events = [5u64, 6, 7, 8, 9, 10, 11, 12, 13];
    let mut ctr = Vec::new();
    for e in events {
        let r = m.sbi_call(eid::PMU, 2, [0, all, 0b110, 0xf0000 | e, 0, 0]);
        assert_eq!(r.ret.error, 0);
        ctr.push(r.ret.value);
    }
    m.sbi_call(eid::TIME, 0, [u64::MAX, 0, 0, 0, 0, 0]);
    m.sbi_call(eid::TIME, 0, [u64::MAX, 0, 0, 0, 0, 0]);
    m.sbi_call(eid::IPI, 0, [1, 0, 0, 0, 0, 0]);
    m.sbi_call(eid::IPI, 0, [2, 0, 0, 0, 0, 0]); // invalid: not counted
    m.sbi_call(eid::RFENCE, 0, [1, 0, 0, 0, 0, 0]);
    m.sbi_call(eid::RFENCE, 1, [0, u64::MAX, 0, 0, 0, 0]);
    m.sbi_call(eid::RFENCE, 1, [1, 0, 0x8000_0000, 0x100, 0, 0]);
    m.sbi_call(eid::RFENCE, 2, [1, 0, 0, 0, 3, 0]);
    m.sbi_call(eid::RFENCE, 2, [0, 0, 0, 0, 3, 0]); // empty set: not counted
    let want = [2u64, 1, 1, 1, 1, 2, 2, 1, 1];
    for (c, w) in ctr.iter().zip(want) {
        let r = m.sbi_call(eid::PMU, 5, [*c, 0, 0, 0, 0, 0]);
        assert_eq!((r.ret.error, r.ret.value), (0, w), "counter {c}");
    }
}

#[test]
fn boot_state_is_opensbi_s_mode() {
    let m = machine();
    let c = &m.hart.csr;
    assert_eq!(m.hart.prv, Priv::S);
    assert_eq!(m.hart.pc, RAM_BASE);
    assert_eq!(m.x(10), 0, "a0 = hart id");
    let (dtb, len) = m.sbi().dtb;
    assert_eq!(m.x(11), dtb, "a1 = the device tree");
    assert_eq!(dtb % 4096, 0);
    assert!(
        dtb + len <= RAM_BASE + m.bus.ram.size() && dtb + 4096 * 4 >= RAM_BASE + m.bus.ram.size()
    );
    let mut magic = [0u8; 4];
    assert!(m.bus.read_phys(dtb, &mut magic));
    assert_eq!(u32::from_be_bytes(magic), 0xd00d_feed);
    assert_eq!(c.medeleg, OPENSBI_MEDELEG & MEDELEG_WRITABLE);
    assert_eq!(c.medeleg, 1 << 3 | 1 << 8 | 1 << 12 | 1 << 13 | 1 << 15);
    assert_eq!(c.mideleg, MIP_SSIP | MIP_STIP | MIP_SEIP | MIP_LCOFIP);
    assert_eq!(c.mie, 0);
    assert_eq!(c.mcounteren, u32::MAX);
    assert_eq!(c.scounteren, 7);
    assert_eq!(c.mstatus & MSTATUS_FS, MSTATUS_FS, "FS = Dirty");
    assert_eq!(c.mstatus & (MSTATUS_SIE | MSTATUS_SPP | MSTATUS_MIE), 0);
    assert_eq!(c.stvec, RAM_BASE);
    assert_eq!(c.satp, 0);
    // hpm counters inhibited and free, cycle and instret counting
    assert_eq!(m.csr_read(MCOUNTINHIBIT), Some(0xffff_fff8));
    // without CTR there is no mstateen0 to open; with CTR every implemented bit is open
    let mut cfg = config();
    cfg.ctr = Some(ctr::CtrConfig::default());
    let mut mc = Machine::new(cfg);
    mc.boot(RAM_BASE);
    assert_ne!(mc.csr_read(MSTATEEN0).unwrap() & MSTATEEN0_SE0, 0);
    assert_ne!(mc.csr_read(MSTATEEN0).unwrap() & MSTATEEN0_CSRIND, 0);
}

/// Full records and traps, as a tracer sees them.
#[derive(Default)]
struct Recorder {
    records: Vec<Retired>,
    traps: Vec<TrapRecord>,
}

impl Sink for Recorder {
    const DETAIL: Detail = Detail::Records;
    fn retire(&mut self, r: &Retired) {
        self.records.push(r.clone());
    }
    fn trap(&mut self, t: &TrapRecord) {
        self.traps.push(t.clone());
    }
}

/// S-mode code: get_spec_version through ecall, then loop.
fn spec_version_code() -> Vec<u32> {
    vec![
        addi(A7, 0, 0x10),
        addi(A6, 0, 0),
        addi(A1, 0, 77),
        ECALL,
        LOOP,
    ]
}

#[rstest]
#[case::untraced(false)]
#[case::traced(true)]
fn ecall_from_s_is_served(#[case] traced: bool) {
    let mut m = machine_with(&spec_version_code());
    let instret = m.csr_read(MINSTRET).unwrap();
    let mut rec = Recorder::default();
    if traced {
        m.run(&mut rec, Some(10));
    } else {
        m.run(&mut NoSink, Some(10));
    }
    assert_eq!(m.x(10), 0);
    assert_eq!(m.x(11), 0x0300_0000);
    assert_eq!(m.hart.pc, RAM_BASE + 16, "after the ecall, on the loop");
    assert_eq!(m.hart.prv, Priv::S);
    assert_eq!(m.hart.csr.scause, 0, "no trap reached S-mode");
    // the ecall does not retire (it is the SBI's exception): 3 addi and 7 loops
    assert_eq!(m.retired(), 10);
    assert_eq!(m.csr_read(MINSTRET).unwrap() - instret, 10);
    if traced {
        assert!(rec.traps.is_empty());
        let e = &rec.records[3];
        assert_eq!(e.pc, RAM_BASE + 12);
        assert!(e.exception.is_none(), "tracers see the ecall retire");
        assert_eq!(e.next_pc, RAM_BASE + 16);
        assert_eq!(e.writes().len(), 2);
        assert_eq!((e.writes()[0].reg, e.writes()[0].value), (Reg::X(10), 0));
        assert_eq!(
            (e.writes()[1].reg, e.writes()[1].value),
            (Reg::X(11), 0x0300_0000)
        );
    }
}

#[test]
fn legacy_calls_leave_a1() {
    let code = [
        addi(A7, 0, 1),
        addi(A0, 0, b'x' as i32),
        addi(A1, 0, 77),
        ECALL,
        LOOP,
    ];
    let mut m = machine_with(&code);
    m.run(&mut NoSink, Some(8));
    assert_eq!(m.x(10), 0);
    assert_eq!(m.x(11), 77);
    assert_eq!(m.bus.console.captured(), b"x");
}

#[test]
fn without_the_sbi_ecall_traps_to_m() {
    let mut c = config();
    c.sbi = false;
    let mut m = Machine::new(c);
    let code = spec_version_code();
    let bytes: Vec<u8> = code.iter().flat_map(|w| w.to_le_bytes()).collect();
    let off = m.bus.ram.offset(RAM_BASE, bytes.len() as u64).unwrap();
    m.bus
        .ram
        .bytes_mut(off, bytes.len())
        .copy_from_slice(&bytes);
    m.boot(RAM_BASE);
    m.set_priv_level(Priv::S);
    m.set_reg(MTVEC, RAM_BASE + 16);
    m.run(&mut NoSink, Some(8));
    assert_eq!(m.hart.prv, Priv::M);
    assert_eq!(m.hart.csr.mcause, Exception::EcallFromS as u64);
}

#[rstest]
#[case::untraced(false)]
#[case::traced(true)]
fn misaligned_load_is_emulated(#[case] traced: bool) {
    // t0 = RAM_BASE + 0x1000 (auipc: lui would sign-extend 0x80001000); ld a0, 1(t0);
    // sd a0, 9(t0); loop
    let code = [auipc(T0, 1), ld(A0, 1, T0), sd(A0, 9, T0), LOOP];
    let mut m = machine_with(&code);
    // count MISALIGNED_LOAD / _STORE in firmware counters, and misaligned accesses and
    // exceptions in hpm counters
    let all = ((1u64 << 48) - 1) & !2;
    let fl = m
        .sbi_call(eid::PMU, 2, [0, all, 0b110, 0xf0000, 0, 0])
        .ret
        .value;
    let fs = m
        .sbi_call(eid::PMU, 2, [0, all, 0b110, 0xf0001, 0, 0])
        .ret
        .value;
    let mis = m
        .sbi_call(eid::PMU, 2, [0, all, 0b110, 0x20000, 0x2000c, 0])
        .ret
        .value;
    let exc = m
        .sbi_call(eid::PMU, 2, [0, all, 0b110, 0x20000, 0x2000a, 0])
        .ret
        .value;
    let ins = m
        .sbi_call(eid::PMU, 2, [0, all, 0b110, 0x2, 0, 0])
        .ret
        .value;
    let data = 0x1122_3344_5566_7788_99aa_bbcc_ddee_ff00u128.to_le_bytes();
    let off = m.bus.ram.offset(RAM_BASE + 0x1000, 32).unwrap();
    m.bus.ram.bytes_mut(off, 16).copy_from_slice(&data);
    let mut rec = Recorder::default();
    if traced {
        m.run(&mut rec, Some(4));
    } else {
        m.run(&mut NoSink, Some(4));
    }
    let want = u64::from_le_bytes(data[1..9].try_into().unwrap());
    assert_eq!(m.x(10), want);
    assert_eq!(m.bus.ram.bytes(off + 9, 8), &want.to_le_bytes());
    assert_eq!(m.hart.csr.scause, 0, "nothing reached S-mode");
    let fw = |m: &mut Machine, c| m.sbi_call(eid::PMU, 5, [c, 0, 0, 0, 0, 0]).ret.value;
    assert_eq!(fw(&mut m, fl), 1);
    assert_eq!(fw(&mut m, fs), 1);
    let hw = |m: &Machine, c: u64| m.hart.pmu.counter(c as usize);
    assert_eq!(hw(&m, mis), 2, "each misaligned access counts once");
    assert_eq!(hw(&m, exc), 2, "each is an exception into the SBI");
    // the limit of 4 is auipc and 3 loops retired; the emulated load and store did not retire
    assert_eq!(m.retired(), 4);
    assert_eq!(hw(&m, ins), 4);
    if traced {
        assert!(rec.traps.is_empty());
        let r = &rec.records[1];
        assert!(r.exception.is_none());
        assert_eq!((r.writes()[0].reg, r.writes()[0].value), (Reg::X(10), want));
        assert_eq!(r.mem()[0].vaddr, RAM_BASE + 0x1001);
    }
}

#[rstest]
#[case::load(ld(A0, 0, A1), Exception::LoadAccessFault)]
#[case::store(sd(A0, 0, A1), Exception::StoreAccessFault)]
fn misaligned_fault_on_the_way_is_taken(#[case] insn: u32, #[case] cause: Exception) {
    // a misaligned access across the end of RAM: the emulation faults on the byte past it
    let end = RAM_BASE + (256 << 20);
    let code = [insn, LOOP];
    let mut m = machine_with(&code);
    m.set_reg(iss::state::GPR_BASE + A1 as u16, end - 3);
    m.set_reg(STVEC, RAM_BASE + 4);
    m.run(&mut NoSink, Some(3));
    assert_eq!(m.hart.csr.scause, cause as u64);
    assert_eq!(m.hart.csr.stval, end, "the first byte that faulted");
    assert_eq!(m.hart.csr.sepc, RAM_BASE);
    assert_eq!(m.hart.prv, Priv::S);
    assert_eq!(m.hart.csr.mcause, 0, "M-mode saw nothing");
}

#[rstest]
#[case::illegal_csr(csrr(T0, 0xf14), Exception::IllegalInstruction, None)]
#[case::load_access(ld(A0, 0, 0), Exception::LoadAccessFault, Some(0))]
#[case::store_access(sd(A0, 8, 0), Exception::StoreAccessFault, Some(8))]
fn exceptions_are_redirected_to_s(
    #[case] insn: u32,
    #[case] cause: Exception,
    #[case] tval: Option<u64>,
) {
    let mut m = machine_with(&[insn, LOOP, LOOP]);
    m.set_reg(STVEC, RAM_BASE + 8);
    m.hart.csr.mstatus |= MSTATUS_SIE;
    let mut rec = Recorder::default();
    m.run(&mut rec, Some(3));
    assert_eq!(m.hart.prv, Priv::S);
    assert_eq!(m.hart.pc, RAM_BASE + 8);
    assert_eq!(m.hart.csr.scause, cause as u64);
    assert_eq!(m.hart.csr.sepc, RAM_BASE);
    assert_eq!(m.hart.csr.stval, tval.unwrap_or(insn as u64));
    let s = m.hart.csr.mstatus;
    assert_ne!(s & MSTATUS_SPP, 0, "from S");
    assert_ne!(s & MSTATUS_SPIE, 0, "SPIE = the old SIE");
    assert_eq!(s & MSTATUS_SIE, 0);
    assert_eq!(m.hart.csr.mcause, 0, "M-mode saw nothing");
    assert_eq!(rec.traps.len(), 1);
    assert_eq!(rec.traps[0].to, Priv::S);
    assert_eq!(rec.traps[0].cause, Cause::Exception(cause));
    assert_eq!(
        m.hart.csr.medeleg,
        OPENSBI_MEDELEG & MEDELEG_WRITABLE,
        "medeleg unchanged"
    );
}

#[test]
fn wfi_waits_for_the_sbi_timer() {
    // set_timer(mtime + 1000), enable STIE, wfi, loop
    let code = [
        addi(A7, 0, 0),
        lui(A7, 0x54495),              // 0x5449_5000
        addi(A7, A7, 0x4d45 - 0x5000), // 0x5449_4d45 "TIME"
        addi(A6, 0, 0),
        csrr(A0, 0xc01), // time
        addi(A0, A0, 1000),
        ECALL,
        addi(T0, 0, 1 << 5),
        0x1042_a073, // csrs sie, t0
        WFI,
        LOOP,
    ];
    let mut m = machine_with(&code);
    let stop = m.run(&mut NoSink, Some(20));
    assert_eq!(stop, Stop::InstructionLimit);
    assert!(m.bus.clint.mtime >= 1000);
    assert_ne!(m.hart.csr.mip & MIP_STIP, 0);
    assert_eq!(m.hart.pc, RAM_BASE + 40);
}

#[rstest]
#[case::suspend_retentive(3, 0x0000_0000, false)]
#[case::suspend_non_retentive(3, 0x8000_0000, false)]
#[case::stop(1, 0, true)]
fn nothing_wakes_a_stopped_or_suspended_hart(
    #[case] fid: i32,
    #[case] ty: u64,
    #[case] stopped: bool,
) {
    // hart_suspend or hart_stop with no interrupt enabled: the run ends waiting forever
    // (bounded: a hart that went on would reach the limit instead)
    let code = [
        lui(A7, 0x485),
        addi(A7, A7, 0x34d), // 0x48534d "HSM"
        addi(A6, 0, fid),
        auipc(A1, 0), // resume at the start (non-retentive)
        ECALL,
        LOOP,
    ];
    let mut m = machine_with(&code);
    // a0 = the suspend type (an lui would sign-extend 0x8000_0000)
    m.set_reg(iss::state::GPR_BASE + A0 as u16, ty);
    let stop = m.run(&mut NoSink, Some(1000));
    assert!(matches!(stop, Stop::WaitForever { .. }), "{stop:?}");
    assert_eq!(m.retired(), 4, "nothing ran after the call");
    assert_eq!(m.sbi().calls, 1);
    assert_eq!(m.sbi().stopped, stopped);
}

#[test]
fn the_report_lists_every_call() {
    let mut m = machine();
    m.sbi_call(eid::BASE, 3, [eid::PMU, 0, 0, 0, 0, 0]);
    m.sbi_call(eid::PMU, 1, [1, 0, 0, 0, 0, 0]);
    m.sbi_call(eid::TIME, 0, [u64::MAX, 0, 0, 0, 0, 0]);
    m.sbi_call(0x0bad_bad0, 5, [1, 2, 3, 4, 5, 6]);
    m.sbi_call(eid::PMU, 0, [0; 6]);
    m.sbi_call(eid::LEGACY_PUTCHAR, 0, [b'x' as u64, 0, 0, 0, 0, 0]);
    m.sbi_call(eid::PMU, 1, [1, 0, 0, 0, 0, 0]);
    let r = m.pmu_report();
    let got: Vec<_> = r
        .sbi_calls
        .iter()
        .map(|c| {
            (
                c.seq,
                c.extension,
                c.function,
                c.args.clone(),
                c.error,
                c.value,
            )
        })
        .collect();
    let want = vec![
        (0, "base", "probe_extension", vec![eid::PMU], 0, 1),
        (1, "pmu", "counter_get_info", vec![1], INVALID_PARAM, 0),
        (2, "time", "set_timer", vec![u64::MAX], 0, 0),
        (
            3,
            "unknown",
            "unknown",
            vec![1, 2, 3, 4, 5, 6],
            NOT_SUPPORTED,
            0,
        ),
        (4, "pmu", "num_counters", vec![], 0, 48),
        (5, "legacy", "console_putchar", vec![b'x' as u64], 0, 0),
        (6, "pmu", "counter_get_info", vec![1], INVALID_PARAM, 0),
    ];
    assert_eq!(got, want);
    assert_eq!(r.sbi_calls_not_listed, 0);
    // the PMU calls are those the PMU crate logged itself, with the same results
    let pmu_only = m.hart.pmu.report().sbi_calls;
    let from_all: Vec<_> = r.sbi_calls.iter().filter(|c| c.eid == eid::PMU).collect();
    assert_eq!(pmu_only.len(), from_all.len());
    for (a, b) in pmu_only.iter().zip(from_all) {
        assert_eq!(
            (a.fid, a.function, &a.args, a.error, a.value),
            (b.fid, b.function, &b.args, b.error, b.value)
        );
    }
    let row = |e: u64, f: u64, err: i64| {
        r.sbi_summary
            .iter()
            .find(|s| (s.eid, s.fid, s.error) == (e, f, err))
            .map(|s| s.calls)
    };
    assert_eq!(row(eid::PMU, 1, INVALID_PARAM), Some(2));
    assert_eq!(row(eid::PMU, 0, 0), Some(1));
    assert_eq!(row(0x0bad_bad0, 5, NOT_SUPPORTED), Some(1));
    assert_eq!(r.sbi_summary.iter().map(|s| s.calls).sum::<u64>(), 7);
    let table = r.to_table();
    assert!(
        table
            .contains("#3      unknown.unknown(0x1, 0x2, 0x3, 0x4, 0x5, 0x6) -> ERR_NOT_SUPPORTED"),
        "{table}"
    );
}

#[test]
fn the_call_log_is_bounded() {
    let mut c = config();
    c.pmu.sbi_log_limit = 2;
    let mut m = Machine::new(c);
    m.boot(RAM_BASE);
    for _ in 0..5 {
        m.sbi_call(eid::BASE, 0, [0; 6]);
    }
    let r = m.pmu_report();
    assert_eq!(r.sbi_calls.len(), 2);
    assert_eq!(r.sbi_calls_not_listed, 3);
    assert_eq!(r.sbi_summary.len(), 1);
    assert_eq!(r.sbi_summary[0].calls, 5);
}

/// With Sstc the boot sets menvcfg.STCE, as OpenSBI's `mstatus_init` does, so S-mode may use
/// stimecmp (before, a kernel under the built-in SBI could not), and `set_timer` writes
/// stimecmp, as OpenSBI's `sbi_timer_event_start` does: STIP follows `time >= stimecmp`.
/// Without Sstc, menvcfg stays 0 and `set_timer` keeps its own deadline.
#[test]
fn sstc_gives_s_mode_stimecmp() {
    let code = [csrr(A0, 0x14d), LOOP]; // csrr a0, stimecmp
    let mut cfg = config();
    cfg.isa = iss::isa::Isa::parse("rv64gc_zicntr_sstc").unwrap();
    let mut m = Machine::new(cfg);
    let bytes: Vec<u8> = code.iter().flat_map(|w| w.to_le_bytes()).collect();
    let off = m.bus.ram.offset(RAM_BASE, bytes.len() as u64).unwrap();
    m.bus
        .ram
        .bytes_mut(off, bytes.len())
        .copy_from_slice(&bytes);
    m.boot(RAM_BASE);
    assert_eq!(m.hart.csr.menvcfg, MENVCFG_STCE);
    m.hart.csr.stimecmp = 77;
    assert_eq!(m.run(&mut NoSink, Some(1)), Stop::InstructionLimit);
    assert_eq!(m.hart.prv, Priv::S);
    assert_eq!(m.hart.pc, RAM_BASE + 4, "stimecmp read in S-mode");
    assert_eq!(m.x(10), 77);
    // set_timer writes stimecmp: a deadline passed sets STIP, a later one clears it
    m.bus.clint.mtime = 1000;
    m.sbi_call(eid::TIME, 0, [999, 0, 0, 0, 0, 0]);
    assert_eq!(m.hart.csr.stimecmp, 999);
    assert_ne!(m.hart.csr.mip & MIP_STIP, 0);
    m.sbi_call(eid::TIME, 0, [2000, 0, 0, 0, 0, 0]);
    assert_eq!(m.hart.csr.stimecmp, 2000);
    assert_eq!(m.hart.csr.mip & MIP_STIP, 0);
    assert_eq!(m.sbi().timer, None);

    let m = machine();
    assert_eq!(m.hart.csr.menvcfg, 0, "no Sstc: STCE clear");
}
