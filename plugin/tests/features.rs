//! Interrupt pins and timing, record and replay, snapshots, RVFI input and bad input.

use plugin::rvfi::{Rvfi, RvfiCsr};
use plugin::*;
use std::path::PathBuf;

fn program(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../programs/bin")
        .join(format!("{name}.elf"))
}

fn quiet() -> Config {
    Config {
        console: "none".into(),
        ..Config::default()
    }
}

/// The "core": a hart stepping `interrupts` with its own CLINT. The checker is driven as a
/// testbench drives it: the core's interrupt lines (MSIP, MTIP, MEIP) on the pins and its
/// time before every retirement. With `late_at`, the core takes the interrupt due at that
/// interrupt retirement (counted from 0) one instruction late.
fn interrupts_lockstep(late_at: Option<usize>) -> (Hart, Vec<u64>, u64) {
    let elf = program("interrupts");
    let mut core = Hart::new(&quiet()).unwrap();
    core.load_elf(&elf).unwrap();
    let mut checker = Hart::new(&Config {
        interrupt_pins: true,
        external_time: true,
        ..quiet()
    })
    .unwrap();
    checker.load_elf(&elf).unwrap();
    let mut interrupts = Vec::new();
    let mut late_order = u64::MAX;
    while core.exit().is_none() && core.order() < 3_000_000 {
        let pins = core.machine().hart.csr.mip & PIN_BITS;
        let time = core.machine().bus.clint.mtime;
        let snap = core.snapshot();
        let mut r = core.step();
        if r.is_interrupt() {
            if late_at == Some(interrupts.len()) {
                // The core is late: it retires the next instruction first.
                core.restore(&snap);
                let mie = core.machine().hart.csr.mie;
                core.machine().hart.csr.mie = 0;
                r = core.step();
                core.machine().hart.csr.mie = mie;
                late_order = r.order;
            }
            interrupts.push(r.order);
        }
        core.drop_snapshots();
        checker.set_mip(pins);
        checker.set_time(time);
        checker.step_check(&r).unwrap();
    }
    assert_eq!(
        core.exit(),
        Some(&RunStop::Exit(0)),
        "the core failed the program"
    );
    (checker, interrupts, late_order)
}

#[test]
fn interrupts_from_pins_check_clean() {
    let (checker, interrupts, _) = interrupts_lockstep(None);
    assert!(
        interrupts.len() >= 5,
        "only {} interrupts",
        interrupts.len()
    );
    assert_eq!(
        checker.errors(),
        0,
        "{:#?}",
        &checker.mismatches()[..checker.mismatches().len().min(3)]
    );
    assert_eq!(checker.exit(), Some(&RunStop::Exit(0)));
}

#[test]
fn an_interrupt_taken_late_is_reported_as_late() {
    let (_, interrupts, _) = interrupts_lockstep(None);
    // An interrupt not at the start of a handler loop: the third one.
    let (checker, _, late) = interrupts_lockstep(Some(2));
    let first = &checker.mismatches()[0];
    assert_eq!(first.group, late, "{first:#?}");
    let d = &first.diffs[0];
    assert_eq!(d.element, "interrupt", "{first:#?}");
    assert!(d.expected.contains("pending and enabled"), "{d:?}");
    assert_eq!(d.actual, "not taken");
    assert_eq!(
        checker.errors(),
        1,
        "one late interrupt, one mismatch: {:#?}",
        checker.mismatches()
    );
    assert!(interrupts.len() > 2);
}

/// A session with a fault, recorded, verifies offline (`tandem verify`, settings from the
/// file beside it) to the same verdict at the same retirement.
#[test]
fn a_recorded_session_replays_to_the_same_verdict() {
    let elf = program("hello");
    let cfg = quiet();
    let mut core = Hart::new(&cfg).unwrap();
    core.load_elf(&elf).unwrap();
    let mut checker = Hart::new(&cfg).unwrap();
    checker.load_elf(&elf).unwrap();
    let dir = std::env::temp_dir().join(format!("hs-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("session.tandem");
    checker.record(&file).unwrap();
    let mut fault_offset = None;
    while core.exit().is_none() {
        let mut r = core.step();
        if r.order == 500 {
            r.writes[0].value ^= 4;
        }
        let bad = checker.step_check(&r).unwrap();
        if let Some(m) = bad.first() {
            fault_offset.get_or_insert(m.offset);
        }
    }
    checker.finish_recording().unwrap();
    // The core kept its own value, which the checker took: its later use of it differs too.
    assert!(checker.errors() >= 1);
    let live = checker.mismatches().to_vec();
    assert_eq!(live[0].group, 500);
    assert_eq!(Some(live[0].offset), fault_offset);

    let sidecar = tandem::sidecar::Sidecar::read(&file)
        .unwrap()
        .expect("settings file");
    let vc = tandem::verify::VerifyConfig {
        absent: sidecar.writer.omit.clone(),
        machine: sidecar.hart.machine.clone(),
        nondet: tandem::verify::Nondet::parse("+htif").unwrap(),
        ..Default::default()
    };
    let bytes = std::fs::read(&file).unwrap();
    let elf_bytes = std::fs::read(&elf).unwrap();
    let report = tandem::verify::verify(vc, Some((&elf_bytes, "hello.elf")), &bytes[..]);
    assert_eq!(
        report.status,
        tandem::verify::Status::Mismatch,
        "{:?}",
        report.error
    );
    // The same mismatches, at the same places of the stream, with the same differences.
    let key = |m: &Mismatch| (m.offset, m.pc, m.diffs.clone());
    let offline: Vec<_> = report.mismatches.iter().map(key).collect();
    let live: Vec<_> = live.iter().map(key).collect();
    assert_eq!(offline, live);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn restore_goes_back_exactly() {
    let mut h = Hart::new(&quiet()).unwrap();
    h.load_elf(program("rv64a")).unwrap();
    for _ in 0..300 {
        h.step();
    }
    let snap = h.snapshot();
    let first: Vec<Retirement> = (0..2000).map(|_| h.step()).collect();
    h.restore(&snap);
    let again: Vec<Retirement> = (0..2000).map(|_| h.step()).collect();
    assert_eq!(first, again);
}

#[test]
fn rvfi_retirements_check_clean_and_faults_are_found() {
    let elf = program("rv64i");
    let mut core = Hart::new(&quiet()).unwrap();
    core.load_elf(&elf).unwrap();
    let mut checker = Hart::new(&quiet()).unwrap();
    checker.load_elf(&elf).unwrap();
    let mut n = 0;
    while core.exit().is_none() && n < 20_000 {
        let r = core.step();
        let mut v = to_rvfi(&r);
        if n == 1000 {
            v.rd_wdata ^= 1;
        }
        let bad = checker.step_check_rvfi(&v).unwrap();
        if n == 1000 && v.rd_addr != 0 {
            assert_eq!(bad.len(), 1, "{bad:#?}");
        } else {
            assert!(bad.is_empty(), "{n}: {bad:#?}");
        }
        n += 1;
    }
}

/// What a core's RVFI port shows for a retirement (interrupts ride on the next one).
fn to_rvfi(r: &Retirement) -> Rvfi {
    let mut v = Rvfi {
        valid: 1,
        order: r.order,
        insn: r.insn as u64,
        trap: (r.trap == TRAP_EXCEPTION) as u8,
        mode: r.prv,
        ixl: 2,
        pc_rdata: r.pc,
        pc_wdata: r.next_pc,
        ..Rvfi::default()
    };
    if let Some(w) = r.writes().iter().find(|w| w.file == REG_X) {
        v.rd_addr = w.num as u8;
        v.rd_wdata = w.value;
    }
    for a in r.mem() {
        let mask = ((1u16 << a.size) - 1) as u8;
        v.mem_addr = a.vaddr;
        if a.kind == MEM_LOAD {
            v.mem_rmask = mask;
            v.mem_rdata = a.rdata;
        } else {
            v.mem_wmask = mask;
            v.mem_wdata = a.wdata;
        }
    }
    for w in r.writes().iter().filter(|w| w.file == REG_CSR) {
        if (v.n_csr as usize) < v.csr.len() {
            v.csr[v.n_csr as usize] = RvfiCsr {
                addr: w.num,
                wmask: u64::MAX,
                wdata: w.value,
            };
            v.n_csr += 1;
        }
    }
    v
}

#[test]
fn bad_input_is_an_error_naming_it() {
    let e = |r: Result<Hart, Error>| r.err().expect("an error").to_string();
    assert!(e(Hart::new(&Config {
        isa: "rv32i".into(),
        ..quiet()
    }))
    .contains("RV64"));
    assert!(e(Hart::new(&Config {
        misaligned: "maybe".into(),
        ..quiet()
    }))
    .contains("misaligned"));
    assert!(Config::from_json(r#"{"ram_sise": 1}"#)
        .unwrap_err()
        .to_string()
        .contains("ram_sise"));
    let mut h = Hart::new(&quiet()).unwrap();
    assert!(h
        .load_elf("/nonexistent.elf")
        .unwrap_err()
        .to_string()
        .contains("/nonexistent.elf"));
    assert!(h
        .write_mem(0x10, &[1])
        .unwrap_err()
        .to_string()
        .contains("0x10"));
    let r = Retirement {
        len: 3,
        ..Retirement::default()
    };
    assert!(h
        .step_check(&r)
        .unwrap_err()
        .to_string()
        .contains("length 3"));
    let mut r = Retirement {
        len: 4,
        ..Retirement::default()
    };
    r.n_writes = 99;
    assert!(h.step_check(&r).is_err());
    let mut r = Retirement {
        len: 4,
        ..Retirement::default()
    };
    r.push_write(REG_X, 40, 0).unwrap();
    assert!(h
        .step_check(&r)
        .unwrap_err()
        .to_string()
        .contains("number 40"));
}

/// What a device model saw: offset, size, and the value of a store.
type Seen = std::sync::Arc<std::sync::Mutex<Vec<(u64, u8, Option<u64>)>>>;

/// A model of a testbench device, counting what it sees.
struct Model(Seen);

impl ExternalDevice for Model {
    fn load(&mut self, offset: u64, size: u8) -> Option<u64> {
        self.0.lock().unwrap().push((offset, size, None));
        Some(0x1234_5678)
    }
    fn store(&mut self, offset: u64, size: u8, value: u64) -> bool {
        self.0.lock().unwrap().push((offset, size, Some(value)));
        true
    }
}

#[test]
fn testbench_devices_answer_the_hart_and_checked_loads_are_the_cores() {
    // lui t0, 0x20000; lw a0, 0(t0); sw a0, 8(t0)
    let code: [u32; 3] = [0x2000_02b7, 0x0002_a503, 0x00a2_a423];
    let bytes: Vec<u8> = code.iter().flat_map(|w| w.to_le_bytes()).collect();
    let devices = vec![Region {
        base: 0x2000_0000,
        size: 0x1000,
    }];
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let mut core = Hart::new(&Config {
        devices: devices.clone(),
        ..quiet()
    })
    .unwrap();
    core.add_device(0x2000_0000, 0x1000, Box::new(Model(seen.clone())))
        .unwrap();
    core.load_image(0x8000_0000, &bytes).unwrap();
    core.reset(0x8000_0000);
    let rs: Vec<Retirement> = (0..3).map(|_| core.step()).collect();
    assert_eq!(rs[1].x_write(10), Some(0x1234_5678));
    assert_eq!(
        *seen.lock().unwrap(),
        vec![(0, 4, None), (8, 4, Some(0x1234_5678))]
    );
    // The checker has the region but no model: the core's load value is taken.
    let mut checker = Hart::new(&Config { devices, ..quiet() }).unwrap();
    checker.load_image(0x8000_0000, &bytes).unwrap();
    checker.reset(0x8000_0000);
    for r in &rs {
        let bad = checker.step_check(r).unwrap();
        assert!(bad.is_empty(), "{bad:#?}");
    }
    // Overlaps are refused, naming what they overlap.
    let e = Hart::new(&Config {
        devices: vec![Region {
            base: 0x8000_1000,
            size: 16,
        }],
        ..quiet()
    })
    .err()
    .unwrap();
    assert!(e.to_string().contains("overlaps RAM"), "{e}");
}

/// An implementation's WARL choice (here: mscratch's bit 63 always set) is not a mismatch in
/// the bits `csr_masks` leaves out, and the reference takes the core's value; its reset
/// values come from `csr_reset`.
#[test]
fn csr_masks_and_reset_values_follow_the_implementation() {
    // li t0, 5; csrw mscratch, t0; csrr a0, mscratch; csrr a1, mtvec
    let code: [u32; 4] = [0x0050_0293, 0x3402_9073, 0x3400_2573, 0x3050_25f3];
    let bytes: Vec<u8> = code.iter().flat_map(|w| w.to_le_bytes()).collect();
    let run = |cfg: &Config| {
        let mut h = Hart::new(cfg).unwrap();
        h.load_image(0x8000_0000, &bytes).unwrap();
        h.reset(0x8000_0000);
        (0..4).map(|_| h.step()).collect::<Vec<_>>()
    };
    let core_cfg = Config {
        csr_reset: [("mtvec".to_string(), 0x8000_0100)].into(),
        ..quiet()
    };
    let mut core = run(&core_cfg);
    assert_eq!(core[3].x_write(11), Some(0x8000_0100));
    // The core's mscratch holds bit 63 too.
    let n = core[1].n_writes as usize;
    core[1].writes[..n]
        .iter_mut()
        .for_each(|w| w.value |= 1 << 63);
    core[2].writes[0].value |= 1 << 63;
    let check = |cfg: Config| {
        let mut h = Hart::new(&cfg).unwrap();
        h.load_image(0x8000_0000, &bytes).unwrap();
        h.reset(0x8000_0000);
        for r in &core {
            h.step_check(r).unwrap();
        }
        h.mismatches().to_vec()
    };
    let masked = check(Config {
        csr_masks: [("mscratch".to_string(), !(1u64 << 63))].into(),
        ..core_cfg.clone()
    });
    assert!(masked.is_empty(), "{masked:#?}");
    let strict = check(core_cfg.clone());
    assert_eq!(strict.len(), 1, "{strict:#?}");
    assert_eq!(strict[0].diffs[0].element, "mscratch");
    let no_reset = check(Config {
        csr_masks: [("mscratch".to_string(), !(1u64 << 63))].into(),
        ..quiet()
    });
    assert_eq!(no_reset.len(), 1, "{no_reset:#?}");
    assert_eq!(no_reset[0].diffs[0].element, "x11/a1");
    assert!(Hart::new(&Config {
        csr_masks: [("mscratchy".to_string(), 1)].into(),
        ..quiet()
    })
    .err()
    .unwrap()
    .to_string()
    .contains("mscratchy"));
}

/// A bus error the model cannot know: the core's load took an access fault. The testbench
/// raises it on the checker before checking that retirement: no mismatch, and the reference
/// hart is at the handler with the core's cause and tval. Without the raise, the same
/// retirement is a mismatch. An interrupt raised is taken whatever mie says.
#[test]
fn raised_traps_are_taken_as_the_core_took_them() {
    // la t0, handler (auipc/addi); csrw mtvec, t0; li t1, 0x80000100; ld a0, 0(t1);
    // nop; handler: nop
    let code: [u32; 6] = [
        0x0000_0297, // auipc t0, 0
        0x0182_8293, // addi t0, t0, 24  (handler at +24)
        0x3052_9073, // csrw mtvec, t0
        0x8000_0337, // lui t1, 0x80000
        0x0003_3503, // ld a0, 0(t1)
        0x0000_0013, // nop
    ];
    let mut bytes: Vec<u8> = code.iter().flat_map(|w| w.to_le_bytes()).collect();
    bytes.extend(0x0000_0013u32.to_le_bytes()); // handler: nop
    let fresh = || {
        let mut h = Hart::new(&quiet()).unwrap();
        h.load_image(0x8000_0000, &bytes).unwrap();
        h.reset(0x8000_0000);
        h
    };
    // The core: four instructions, then the load faults (a bus error).
    let mut core = fresh();
    let mut rs: Vec<Retirement> = (0..4).map(|_| core.step()).collect();
    core.raise_trap(false, 5, 0x8000_0000).unwrap();
    let fault = core.step();
    assert_eq!(
        (fault.trap, fault.cause, fault.tval),
        (TRAP_EXCEPTION, 5, 0x8000_0000)
    );
    assert_eq!(fault.next_pc, 0x8000_0018);
    assert_eq!(core.csr(0x341), Some(0x8000_0010), "mepc");
    rs.push(fault);
    rs.push(core.step());
    assert_eq!(rs[5].pc, 0x8000_0018, "the handler ran");

    let mut checker = fresh();
    for (i, r) in rs.iter().enumerate() {
        if i == 4 {
            checker.raise_trap(false, 5, 0x8000_0000).unwrap();
        }
        assert!(checker.step_check(r).unwrap().is_empty(), "retirement {i}");
    }
    let mut unwarned = fresh();
    let bad: usize = rs
        .iter()
        .map(|r| unwarned.step_check(r).unwrap().len())
        .sum();
    assert!(bad >= 1, "the unannounced fault is a mismatch");

    // An interrupt raised with every enable off.
    let mut h = fresh();
    h.raise_trap(true, 11, 0).unwrap();
    let r = h.step();
    assert_eq!((r.trap, r.cause, r.len), (TRAP_INTERRUPT, 11, 0));
    assert_eq!(h.csr(0x342), Some(1 << 63 | 11), "mcause");
    // Codes that do not exist.
    for (irq, code) in [(false, 10), (false, 64), (true, 4), (true, 99)] {
        let e = h.raise_trap(irq, code, 0).unwrap_err().to_string();
        assert!(e.contains(&format!("code {code} does not exist")), "{e}");
    }
}

/// The implementation's tval choices (`tval_zero`) and PMP (`pmp_regions`, checked in
/// full against Spike by tests/spike_diff.rs) are settings of the hart.
#[test]
fn tval_policy_and_pmp_are_settings() {
    // csrr a0, pmpaddr0 (0x3b0); .word 0 (illegal); ebreak
    let code: [u32; 3] = [0x3b00_2573, 0x0000_0000, 0x0010_0073];
    let bytes: Vec<u8> = code.iter().flat_map(|w| w.to_le_bytes()).collect();
    let run = |cfg: Config| {
        let mut h = Hart::new(&cfg).unwrap();
        h.load_image(0x8000_0000, &bytes).unwrap();
        h.reset(0x8000_0000);
        h.set_csr(0x305, 0x8000_0100).unwrap(); // mtvec
        (0..3)
            .map(|i| {
                h.set_pc(0x8000_0000 + 4 * i);
                h.step()
            })
            .collect::<Vec<_>>()
    };
    let spike = run(quiet());
    assert_eq!(spike[0].trap, TRAP_NONE, "pmpaddr0 exists");
    assert_eq!((spike[1].cause, spike[1].tval), (2, 0));
    assert_eq!((spike[2].cause, spike[2].tval), (3, 0x8000_0008));
    let zero = run(Config {
        pmp_regions: 0,
        tval_zero: vec!["breakpoint".into()],
        ..quiet()
    });
    assert_eq!(
        (zero[0].trap, zero[0].cause, zero[0].tval),
        (TRAP_EXCEPTION, 2, code[0] as u64)
    );
    assert_eq!((zero[2].cause, zero[2].tval), (3, 0), "breakpoint: tval 0");
    let e = Hart::new(&Config {
        tval_zero: vec!["bogus".into()],
        ..quiet()
    })
    .err()
    .unwrap()
    .to_string();
    assert!(e.contains("'bogus' is not an exception"), "{e}");
    let e = Hart::new(&Config {
        pmp_regions: 65,
        ..quiet()
    })
    .err()
    .unwrap()
    .to_string();
    assert!(e.contains("65 entries: at most 64"), "{e}");
    let c = Config::from_json(r#"{"pmp_regions": 8, "pmp_granularity": 4096, "tval_zero": ["2"]}"#)
        .unwrap();
    assert_eq!((c.pmp_regions, c.pmp_granularity), (8, 4096));
}

/// A core's memory map with a tightly coupled memory at 0x1_0000 beside RAM: code runs from
/// it, loads and stores reach it and RAM, a load from the gap between is an access fault;
/// a checker with the same map checks the core clean, the session replays offline, and a
/// map that overlaps a device or RAM is refused naming both.
#[test]
fn memory_regions_are_ram() {
    let cfg = Config {
        memory: vec![Region {
            base: 0x1_0000,
            size: 0x4000,
        }],
        ..quiet()
    };
    // At 0x1_0000: lui t0, 0x10; li t1, 0x55; sd t1, 0x100(t0); ld a0, 0x100(t0);
    // li t2, 1; slli t2, t2, 31; sd a0, 0x100(t2); ld a1, 0x100(t2); jr t2
    let tcm: [u32; 9] = [
        0x000102b7, 0x05500313, 0x1062b023, 0x1002b503, 0x00100393, 0x01f39393, 0x10a3b023,
        0x1003b583, 0x00038067,
    ];
    // At 0x8000_0000: addi a2, a1, 1; lui t0, 0x20; ld a3, 0(t0) (the gap: access fault)
    let ram: [u32; 3] = [0x00158613, 0x000202b7, 0x0002b683];
    let bytes = |w: &[u32]| w.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>();
    let fresh = |cfg: &Config| {
        let mut h = Hart::new(cfg).unwrap();
        h.load_image(0x1_0000, &bytes(&tcm)).unwrap();
        h.load_image(0x8000_0000, &bytes(&ram)).unwrap();
        h.reset(0x1_0000);
        h
    };
    let mut core = fresh(&cfg);
    let rs: Vec<Retirement> = (0..12).map(|_| core.step()).collect();
    assert!(rs[..11].iter().all(|r| r.trap == TRAP_NONE), "{rs:#?}");
    assert_eq!(rs[3].x_write(10), Some(0x55), "loaded from the TCM");
    assert_eq!(rs[3].mem[0].paddr, 0x1_0100);
    assert_eq!(rs[7].x_write(11), Some(0x55), "loaded from RAM");
    assert_eq!(rs[9].pc, 0x8000_0000);
    assert_eq!(rs[9].x_write(12), Some(0x56));
    assert_eq!(
        (rs[11].trap, rs[11].cause, rs[11].tval),
        (TRAP_EXCEPTION, 5, 0x2_0000)
    );
    let mut buf = [0u8; 8];
    core.read_mem(0x1_0100, &mut buf).unwrap();
    assert_eq!(u64::from_le_bytes(buf), 0x55);
    // The run loop (decoded blocks) runs from both regions too.
    let mut fast = fresh(&cfg);
    let (n, stop) = fast.run(11, None);
    assert_eq!((n, stop), (11, RunStop::Limit));
    assert_eq!(
        (fast.x(11), fast.x(12), fast.pc()),
        (0x55, 0x56, 0x8000_0008)
    );

    let dir = std::env::temp_dir().join(format!("hartscope-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let trace = dir.join("tcm.tandem");
    let mut checker = fresh(&cfg);
    checker.record(&trace).unwrap();
    for (i, r) in rs.iter().enumerate() {
        assert!(checker.step_check(r).unwrap().is_empty(), "retirement {i}");
    }
    checker.finish_recording().unwrap();
    // Offline, from the stream's own image and start state: the same clean verdict.
    let sidecar = tandem::sidecar::Sidecar::read(&trace)
        .unwrap()
        .expect("settings file");
    let vc = tandem::verify::VerifyConfig {
        absent: sidecar.writer.omit.clone(),
        ram_size: sidecar.hart.ram_size,
        machine: sidecar.hart.machine.clone(),
        nondet: tandem::verify::Nondet::parse("+htif").unwrap(),
        ..Default::default()
    };
    let report = tandem::verify::verify(vc, None, &std::fs::read(&trace).unwrap()[..]);
    assert_eq!(
        report.status,
        tandem::verify::Status::Match,
        "{:?} {:#?}",
        report.error,
        report.mismatches
    );
    assert_eq!(report.instructions + report.exceptions, 12);
    std::fs::remove_dir_all(&dir).ok();

    // Without the TCM the same core is wrong at its first instruction.
    let mut plain = Hart::new(&quiet()).unwrap();
    assert!(plain.load_image(0x1_0000, &bytes(&tcm)).is_err());
    for (base, size, what) in [
        (0x200_0000, 0x1000, "the CLINT"),
        (0x8000_1000, 0x1000, "another RAM region"),
        (0x7fff_f000, 0x2000, "another RAM region"),
    ] {
        let e = Hart::new(&Config {
            memory: vec![Region { base, size }],
            ..quiet()
        })
        .err()
        .unwrap()
        .to_string();
        assert!(e.contains(what), "{base:#x}: {e}");
    }
    let e = Hart::new(&Config {
        memory: vec![Region {
            base: 0x200_0000_0000_0000,
            size: 0x1000,
        }],
        ..quiet()
    })
    .err()
    .unwrap()
    .to_string();
    assert!(e.contains("span more than"), "{e}");
}
