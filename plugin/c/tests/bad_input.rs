//! Bad input through the C ABI is a negative status with a message naming what and where,
//! never a crash: null pointers, bad settings, files that are not there or not ELF, register
//! numbers and lengths out of range, malformed retirements.

mod common;
use common::*;
use hartscope::*;
use std::ptr::{null, null_mut};

/// `status` is `code`, and the message starts with the call's name and has every part.
#[track_caller]
fn fails(status: i32, code: i32, func: &str, parts: &[&str]) {
    let e = last_error();
    assert_eq!(status, code, "{e}");
    assert!(e.starts_with(&format!("{func}: ")), "{e}");
    for p in parts {
        assert!(e.contains(p), "`{p}` not in `{e}`");
    }
}

#[test]
fn null_pointers_are_errors() {
    let h = H::new("");
    let mut v = 0u64;
    let mut r = Retirement::default();
    // SAFETY: every pointer is null or valid.
    unsafe {
        fails(
            hs_new(null(), null_mut()),
            HS_ERR_NULL,
            "hs_new",
            &["out is null"],
        );
        fails(
            hs_get_pc(null_mut(), &mut v),
            HS_ERR_NULL,
            "hs_get_pc",
            &["handle is null"],
        );
        fails(
            hs_get_pc(h.0, null_mut()),
            HS_ERR_NULL,
            "hs_get_pc",
            &["value is null"],
        );
        fails(
            hs_step(null_mut(), &mut r),
            HS_ERR_NULL,
            "hs_step",
            &["handle"],
        );
        fails(
            hs_step(h.0, null_mut()),
            HS_ERR_NULL,
            "hs_step",
            &["out is null"],
        );
        fails(
            hs_step_check(h.0, null()),
            HS_ERR_NULL,
            "hs_step_check",
            &["dut is null"],
        );
        fails(
            hs_step_check_rvfi(h.0, null()),
            HS_ERR_NULL,
            "hs_step_check_rvfi",
            &["dut is null"],
        );
        fails(
            hs_load_elf(h.0, null(), null_mut()),
            HS_ERR_NULL,
            "hs_load_elf",
            &["path"],
        );
        fails(
            hs_reg_by_name(h.0, null(), &mut v),
            HS_ERR_NULL,
            "hs_reg_by_name",
            &["name"],
        );
        fails(
            hs_write_mem(h.0, 0x8000_0000, null(), 4),
            HS_ERR_NULL,
            "hs_write_mem",
            &["data is null with a length of 4"],
        );
        fails(
            hs_read_mem(h.0, 0x8000_0000, null_mut(), 8),
            HS_ERR_NULL,
            "hs_read_mem",
            &["buf is null with a length of 8"],
        );
        fails(
            hs_mismatches_text(h.0, null_mut()),
            HS_ERR_NULL,
            "hs_mismatches_text",
            &["text"],
        );
        fails(
            hs_snapshot(h.0, null_mut()),
            HS_ERR_NULL,
            "hs_snapshot",
            &["out"],
        );
        fails(
            hs_restore(h.0, null()),
            HS_ERR_NULL,
            "hs_restore",
            &["snapshot is null"],
        );
        fails(
            hs_run(h.0, 10, null(), null_mut()),
            HS_ERR_NULL,
            "hs_run",
            &["result"],
        );
        fails(hs_record(h.0, null()), HS_ERR_NULL, "hs_record", &["path"]);
        fails(
            hs_disassemble(0, 0x13, null_mut(), 16),
            HS_ERR_NULL,
            "hs_disassemble",
            &["buf"],
        );
        // What may be null is not an error.
        assert_eq!(hs_write_mem(h.0, 0x8000_0000, null(), 0), HS_OK);
        assert_eq!(hs_free(null_mut()), HS_OK);
        assert_eq!(hs_snapshot_free(null_mut()), HS_OK);
        assert_eq!(hs_poll_exit(h.0, null_mut()), 0);
        let d = dpi::hs_dpi_new(null());
        assert!(!d.is_null(), "{}", last_error());
        assert_eq!(hs_free(d), HS_OK);
    }
}

#[test]
fn bad_settings_are_errors_naming_the_setting() {
    let mut h = null_mut();
    // SAFETY: valid pointers.
    unsafe {
        fails(
            hs_new(c("{not json").as_ptr(), &mut h),
            HS_ERR_CONFIG,
            "hs_new",
            &["settings", "line 1"],
        );
        assert!(h.is_null());
        fails(
            hs_new(c(r#"{"isa": "rv64gc", "ram_sise": 4}"#).as_ptr(), &mut h),
            HS_ERR_CONFIG,
            "hs_new",
            &["unknown field `ram_sise`"],
        );
        fails(
            hs_new(c(r#"{"misaligned": "sometimes"}"#).as_ptr(), &mut h),
            HS_ERR_CONFIG,
            "hs_new",
            &["misaligned", "sometimes"],
        );
        fails(
            hs_new(c(r#"{"isa": "rv32q"}"#).as_ptr(), &mut h),
            HS_ERR_CONFIG,
            "hs_new",
            &["rv32q"],
        );
        let bad_utf8 = [b'{', 0xff, b'}', 0];
        fails(
            hs_new(bad_utf8.as_ptr().cast(), &mut h),
            HS_ERR_ARG,
            "hs_new",
            &["config_json is not UTF-8"],
        );
        assert!(h.is_null());
        assert!(dpi::hs_dpi_new(c("42").as_ptr()).is_null());
        assert!(
            last_error().starts_with("hs_new: settings"),
            "{}",
            last_error()
        );
    }
}

#[test]
fn files_that_are_missing_or_not_elf_are_errors_naming_the_file() {
    let h = H::new("");
    let dir = std::env::temp_dir().join(format!("hs-c-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("missing.elf");
    let text = dir.join("text.elf");
    std::fs::write(&text, "this is not an ELF file\n").unwrap();
    // SAFETY: valid pointers.
    unsafe {
        let p = missing.display().to_string();
        fails(
            hs_load_elf(h.0, c(&p).as_ptr(), null_mut()),
            HS_ERR_IO,
            "hs_load_elf",
            &[&p, "No such file"],
        );
        let p = text.display().to_string();
        fails(
            hs_load_elf(h.0, c(&p).as_ptr(), null_mut()),
            HS_ERR_ELF,
            "hs_load_elf",
            &[&p],
        );
        let junk = [0x7fu8, b'E', b'L', b'F', 2, 1, 1, 0];
        fails(
            hs_load_elf_bytes(
                h.0,
                junk.as_ptr(),
                junk.len(),
                c("junk.bin").as_ptr(),
                null_mut(),
            ),
            HS_ERR_ELF,
            "hs_load_elf_bytes",
            &["junk.bin"],
        );
        let p = dir.join("no-such-dir/rec.tandem").display().to_string();
        fails(
            hs_record(h.0, c(&p).as_ptr()),
            HS_ERR_IO,
            "hs_record",
            &[&p],
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn registers_and_addresses_out_of_range_are_errors() {
    let h = H::new("");
    let mut v = 0u64;
    let mut buf = [0u8; 8];
    // SAFETY: valid pointers.
    unsafe {
        fails(
            hs_get_x(h.0, 32, &mut v),
            HS_ERR_ARG,
            "hs_get_x",
            &["register number 32"],
        );
        fails(
            hs_set_f(h.0, 99, 1),
            HS_ERR_ARG,
            "hs_set_f",
            &["register number 99"],
        );
        fails(
            hs_get_csr(h.0, 0x1000, &mut v),
            HS_ERR_NO_REGISTER,
            "hs_get_csr",
            &["0x1000"],
        );
        fails(
            hs_get_csr(h.0, 0x7ff, &mut v),
            HS_ERR_NO_REGISTER,
            "hs_get_csr",
            &["0x7ff"],
        );
        fails(
            hs_set_csr(h.0, 0x7ff, 1),
            HS_ERR_NO_REGISTER,
            "hs_set_csr",
            &["0x7ff"],
        );
        fails(
            hs_reg_by_name(h.0, c("q9").as_ptr(), &mut v),
            HS_ERR_NO_REGISTER,
            "hs_reg_by_name",
            &["q9"],
        );
        fails(
            hs_read_mem(h.0, 0x10, buf.as_mut_ptr(), 8),
            HS_ERR_ADDRESS,
            "hs_read_mem",
            &["0x10", "8 bytes", "outside RAM"],
        );
        fails(
            hs_write_mem(h.0, u64::MAX - 2, buf.as_ptr(), 8),
            HS_ERR_ADDRESS,
            "hs_write_mem",
            &["0xfffffffffffffffd"],
        );
        fails(
            hs_read_mem(h.0, 0x8000_0000, buf.as_mut_ptr(), usize::MAX),
            HS_ERR_ARG,
            "hs_read_mem",
            &["length"],
        );
    }
}

fn bad_retirement(r: Retirement, parts: &[&str]) {
    let h = H::load(FULL, "rv64i.elf");
    fails(h.check(&r), HS_ERR_RETIREMENT, "hs_step_check", parts);
    // The bad one is not counted; the handle goes on.
    assert_eq!(h.checked(), 0);
    let good = H::load(FULL, "rv64i.elf").step();
    assert_eq!(h.check(&good), 0, "{}", h.mismatches_text());
}

#[test]
fn malformed_retirements_are_errors_naming_the_field() {
    let good = H::load(FULL, "rv64i.elf").step();
    bad_retirement(Retirement { trap: 7, ..good }, &["retirement 0", "trap 7"]);
    bad_retirement(Retirement { len: 3, ..good }, &["instruction length 3"]);
    bad_retirement(
        Retirement {
            n_writes: 99,
            ..good
        },
        &["99 register writes"],
    );
    bad_retirement(Retirement { n_mem: 3, ..good }, &["3 memory accesses"]);
    let mut r = good;
    r.n_writes = 1;
    r.writes[0] = RegWrite {
        file: 9,
        num: 1,
        value: 0,
    };
    bad_retirement(r, &["no such register: file 9"]);
    r.writes[0] = RegWrite {
        file: HS_REG_X,
        num: 40,
        value: 0,
    };
    bad_retirement(r, &["number 40"]);
    let mut r = good;
    r.n_mem = 1;
    r.mem[0] = MemAccess {
        kind: HS_MEM_LOAD,
        size: 3,
        ..MemAccess::default()
    };
    bad_retirement(r, &["size 3"]);
}

#[test]
fn malformed_rvfi_is_an_error_naming_the_signal() {
    let h = H::load(FULL, "rv64i.elf");
    let good = H::load(FULL, "rv64i.elf").step_rvfi();
    let r = Rvfi { ixl: 1, ..good };
    fails(
        h.check_rvfi(&r),
        HS_ERR_RETIREMENT,
        "hs_step_check_rvfi",
        &["rvfi_ixl 1"],
    );
    let r = Rvfi {
        mem_rmask: 0b0101,
        ..good
    };
    fails(
        h.check_rvfi(&r),
        HS_ERR_RETIREMENT,
        "hs_step_check_rvfi",
        &["rvfi_mem_rmask 0x05"],
    );
    // SAFETY: a live handle.
    unsafe {
        for _ in 0..HS_RVFI_MAX_CSR {
            assert_eq!(dpi::hs_dpi_rvfi_csr(h.0, 0x300, u64::MAX, 0), HS_OK);
        }
        fails(
            dpi::hs_dpi_rvfi_csr(h.0, 0x300, u64::MAX, 0),
            HS_ERR_RETIREMENT,
            "hs_dpi_rvfi_csr",
            &["more than 8 CSR writes"],
        );
        fails(
            dpi::hs_dpi_rvfi_csr(h.0, 0x2000, u64::MAX, 0),
            HS_ERR_RETIREMENT,
            "hs_dpi_rvfi_csr",
            &["0x2000"],
        );
        let t = text(dpi::hs_dpi_mismatch_text(h.0, 5));
        assert_eq!(t, "");
        assert!(last_error().contains("mismatch 5"), "{}", last_error());
    }
    assert_eq!(h.check_rvfi(&good), 0, "{}", h.mismatches_text());
}

#[test]
fn snapshots_of_another_handle_or_gone_stale_are_errors() {
    let a = H::load(FULL, "rv64i.elf");
    let b = H::load(FULL, "rv64i.elf");
    let (mut s1, mut s2, mut sb) = (null_mut(), null_mut(), null_mut());
    // SAFETY: live handles and snapshots.
    unsafe {
        assert_eq!(hs_snapshot(a.0, &mut s1), HS_OK);
        a.step();
        assert_eq!(hs_snapshot(a.0, &mut s2), HS_OK);
        assert_eq!(hs_snapshot(b.0, &mut sb), HS_OK);
        fails(
            hs_restore(a.0, sb),
            HS_ERR_ARG,
            "hs_restore",
            &["another handle"],
        );
        assert_eq!(hs_restore(a.0, s1), HS_OK);
        fails(
            hs_restore(a.0, s2),
            HS_ERR_ARG,
            "hs_restore",
            &["can no longer be restored"],
        );
        assert_eq!(hs_restore(a.0, s1), HS_OK);
        assert_eq!(hs_drop_snapshots(a.0), HS_OK);
        fails(
            hs_restore(a.0, s1),
            HS_ERR_ARG,
            "hs_restore",
            &["can no longer be restored"],
        );
        for s in [s1, s2, sb] {
            assert_eq!(hs_snapshot_free(s), HS_OK);
        }
    }
}

#[test]
fn the_error_message_is_per_thread_and_stays_until_the_next_failure() {
    let h = H::new("");
    let mut v = 0;
    // SAFETY: valid pointers.
    unsafe {
        assert_eq!(hs_get_x(h.0, 40, &mut v), HS_ERR_ARG);
        let msg = last_error();
        assert_eq!(hs_get_x(h.0, 1, &mut v), HS_OK);
        assert_eq!(last_error(), msg);
    }
    let other = std::thread::spawn(last_error).join().unwrap();
    assert_eq!(other, "");
}
