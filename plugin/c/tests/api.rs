//! The calls of the C ABI do what the Rust API does: state, memory, running, snapshots,
//! recording, disassembly.

mod common;
use common::*;
use hartscope::*;
use std::ptr::{null, null_mut};

#[test]
fn the_version_is_the_headers() {
    assert_eq!(hs_api_version(), HS_API_VERSION);
    assert_eq!(hs_api_version() / 10000, 1);
    let h = include_str!("../include/hartscope.h");
    assert!(h.contains(&format!("#define HS_API_VERSION {HS_API_VERSION}")));
}

#[test]
fn an_image_steps_and_registers_read_back() {
    let h = H::new("");
    // addi a0,zero,5; c.addi a0,1
    let code: [u8; 6] = [0x13, 0x05, 0x50, 0x00, 0x05, 0x05];
    let mut v = 0u64;
    // SAFETY: valid pointers.
    unsafe {
        assert_eq!(
            hs_load_image(h.0, 0x8000_0000, code.as_ptr(), code.len()),
            HS_OK
        );
        assert_eq!(hs_reset(h.0, 0x8000_0000), HS_OK);
        let r = h.step();
        assert_eq!(
            (r.order, r.pc, r.next_pc, r.len),
            (0, 0x8000_0000, 0x8000_0004, 4)
        );
        assert_eq!(
            r.writes(),
            &[RegWrite {
                file: HS_REG_X,
                num: 10,
                value: 5
            }]
        );
        let r = h.step();
        assert_eq!((r.order, r.insn, r.len), (1, 0x0505, 2));
        assert_eq!(h.x(10), 6);
        assert_eq!(hs_reg_by_name(h.0, c("a0").as_ptr(), &mut v), HS_OK);
        assert_eq!(v, 6);
        assert_eq!(hs_set_x(h.0, 11, 0x1234), HS_OK);
        assert_eq!(hs_reg_by_name(h.0, c("x11").as_ptr(), &mut v), HS_OK);
        assert_eq!(v, 0x1234);
        assert_eq!(hs_set_f(h.0, 3, 0xffff_ffff_3f80_0000), HS_OK);
        assert_eq!(hs_get_f(h.0, 3, &mut v), HS_OK);
        assert_eq!(v, 0xffff_ffff_3f80_0000);
        assert_eq!(hs_set_csr(h.0, 0x340, 0xabc), HS_OK);
        assert_eq!(hs_get_csr(h.0, 0x340, &mut v), HS_OK);
        assert_eq!(v, 0xabc);
        assert_eq!(hs_reg_by_name(h.0, c("mscratch").as_ptr(), &mut v), HS_OK);
        assert_eq!(v, 0xabc);
        let mut p = 0u8;
        assert_eq!(hs_privilege(h.0, &mut p), HS_OK);
        assert_eq!(p, 3);
        assert_eq!(hs_set_pc(h.0, 0x8000_0004), HS_OK);
        assert_eq!(h.pc(), 0x8000_0004);
        assert_eq!(hs_order(h.0, &mut v), HS_OK);
        assert_eq!(v, 2);
        // Backdoor memory.
        let mut buf = [0u8; 6];
        assert_eq!(hs_read_mem(h.0, 0x8000_0000, buf.as_mut_ptr(), 6), HS_OK);
        assert_eq!(buf, code);
        assert_eq!(
            hs_write_mem(h.0, 0x8000_1000, [1u8, 2, 3].as_ptr(), 3),
            HS_OK
        );
        assert_eq!(hs_read_mem(h.0, 0x8000_1000, buf.as_mut_ptr(), 3), HS_OK);
        assert_eq!(&buf[..3], &[1, 2, 3]);
        // The hooks take their values.
        assert_eq!(hs_set_mip(h.0, 1 << 7), HS_OK);
        assert_eq!(hs_set_time(h.0, 1000), HS_OK);
        assert_eq!(hs_cancel_reservation(h.0), HS_OK);
        assert_eq!(hs_reg_by_name(h.0, c("time").as_ptr(), &mut v), HS_OK);
        assert_eq!(v, 1000);
        // A trap raised is taken by the next step; a code that does not exist is refused.
        assert_eq!(hs_raise_trap(h.0, 0, 10, 0), HS_ERR_CONFIG);
        assert!(last_error().contains("exception code 10 does not exist"));
        assert_eq!(hs_raise_trap(h.0, 0, 5, 0x1234), HS_OK);
        let mut r = Retirement::default();
        assert_eq!(hs_step(h.0, &mut r), HS_OK);
        assert_eq!((r.trap, r.cause, r.tval), (HS_TRAP_EXCEPTION, 5, 0x1234));
    }
}

#[test]
fn run_stops_at_the_pc_the_limit_or_the_end() {
    let h = H::load(FULL, "hello.elf");
    let mut r = RunResult::default();
    let entry = h.pc();
    // SAFETY: valid pointers.
    unsafe {
        assert_eq!(hs_run(h.0, 5, null(), &mut r), HS_OK);
        assert_eq!((r.steps, r.stop), (5, HS_STOP_LIMIT));
        let pc = h.pc();
        assert_eq!(hs_reset(h.0, entry), HS_OK);
        assert_eq!(hs_run(h.0, 100, &pc, &mut r), HS_OK);
        assert_eq!((r.steps, r.stop), (5, HS_STOP_PC));
        assert_eq!(hs_run(h.0, 10_000_000, null(), &mut r), HS_OK);
        assert_eq!((r.stop, r.exit_code), (HS_STOP_EXIT, 0));
    }
    assert!(h.exited());
}

#[test]
fn a_snapshot_takes_the_hart_back_with_its_memory() {
    let h = H::load(FULL, "rv64i.elf");
    let mut s = null_mut();
    // SAFETY: valid pointers.
    unsafe {
        for _ in 0..50 {
            h.step();
        }
        assert_eq!(hs_snapshot(h.0, &mut s), HS_OK);
        let ahead: Vec<_> = (0..2000).map(|_| h.step()).collect();
        let mut mem = [0u8; 64];
        assert_eq!(hs_restore(h.0, s), HS_OK);
        let again: Vec<_> = (0..2000).map(|_| h.step()).collect();
        assert_eq!(ahead, again);
        assert_eq!(hs_read_mem(h.0, h.pc() & !63, mem.as_mut_ptr(), 64), HS_OK);
        assert_eq!(hs_snapshot_free(s), HS_OK);
    }
}

#[test]
fn compare_all_and_the_kept_mismatches_read_back() {
    let stepper = H::load(FULL, "rv64i.elf");
    let checker = H::load(FULL, "rv64i.elf");
    let mut t = stepper.trace(300);
    t[200].writes[0].value ^= 4;
    for r in &t {
        assert!(checker.check(r) >= 0);
    }
    // The wrong value the checker took goes on to make later retirements differ too.
    assert!(checker.errors() >= 1);
    let mut p = null();
    // SAFETY: valid pointers.
    unsafe {
        assert!(hs_compare_all(checker.0) >= 0, "{}", last_error());
        assert_eq!(hs_kept_mismatches_json(checker.0, &mut p), HS_OK);
    }
    let kept: serde_json::Value = serde_json::from_str(&text(p)).unwrap();
    assert_eq!(kept[0]["group"], 200, "{kept}");
}

#[test]
fn a_recording_is_a_tandem_stream() {
    let dir = std::env::temp_dir().join(format!("hs-c-rec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("session.tandem");
    let stepper = H::load(FULL, "hello.elf");
    let checker = H::load(FULL, "hello.elf");
    // SAFETY: valid pointers.
    unsafe {
        assert_eq!(
            hs_record(checker.0, c(path.to_str().unwrap()).as_ptr()),
            HS_OK
        );
        for r in stepper.trace(1000) {
            assert_eq!(checker.check(&r), 0);
        }
        assert_eq!(hs_finish_recording(checker.0), HS_OK);
    }
    let bytes = std::fs::read(&path).unwrap();
    // The hart-reset group, the image, then a group per retirement.
    assert!(bytes.len() > 1000, "{} bytes", bytes.len());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn disassembly_is_cut_as_snprintf_cuts() {
    let mut buf = [0x55u8; 32];
    // SAFETY: valid pointers.
    unsafe {
        let n = hs_disassemble(0x8000_0000, 0x0050_0513, buf.as_mut_ptr().cast(), 32);
        let s = text(buf.as_ptr().cast());
        assert_eq!(n as usize, s.len());
        assert_eq!(s, "li a0,5");
        let n2 = hs_disassemble(0x8000_0000, 0x0050_0513, buf.as_mut_ptr().cast(), 4);
        assert_eq!(n2, n);
        assert_eq!(text(buf.as_ptr().cast()), "li ");
        // Compressed, from the low 16 bits.
        hs_disassemble(0x8000_0000, 0x0505, buf.as_mut_ptr().cast(), 32);
        assert_eq!(text(buf.as_ptr().cast()), "addi a0,a0,1");
        assert_eq!(hs_disassemble(0, 0x13, null_mut(), 0), 3);
    }
}

#[test]
fn interrupts_come_as_rvfi_intr_on_the_handlers_first_instruction() {
    let stepper = H::load(FULL, "interrupts.elf");
    let reference = H::load(FULL, "interrupts.elf");
    let mut seen = 0;
    for _ in 0..100_000 {
        if stepper.exited() {
            break;
        }
        let r = stepper.step_rvfi();
        if r.intr == 1 {
            // The reference's two steps: the interrupt, then the handler's instruction.
            let i = reference.step();
            assert_eq!(i.trap, HS_TRAP_INTERRUPT);
            assert_eq!(i.next_pc, r.pc_rdata);
            let n = r.n_csr as usize;
            assert!(
                r.csr[..n].iter().any(|c| matches!(c.addr, 0x342 | 0x142)),
                "{r:?}"
            );
            seen += 1;
        }
        let s = reference.step();
        assert_eq!((s.order, s.pc), (r.order, r.pc_rdata));
    }
    assert!(seen > 0);
}
