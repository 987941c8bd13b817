//! The DPI-C entry points `plugin/sv/hartscope_pkg.sv` imports: the C ABI with scalar
//! arguments only (a DPI-C import cannot pass a C structure portably), a handle as a
//! `chandle`, and values returned directly where SystemVerilog wants them.
//!
//! The SystemVerilog types map as DPI-C says: `chandle` is `void *` (an `hs_hart *`),
//! `string` a `const char *`, `byte unsigned` a `uint8_t`, `int` an `int32_t`, `int unsigned`
//! a `uint32_t`, `longint` an `int64_t`, `longint unsigned` a `uint64_t`; an `output` argument
//! is a pointer. Calls of the C ABI whose arguments are already scalar (`hs_set_mip`,
//! `hs_set_time`, `hs_reset`, `hs_poll_exit`...) are imported as they are.
//!
//! The RVFI check is two kinds of call: `hs_dpi_rvfi_csr` for each CSR write of the
//! retirement (hartscope's CSR extension), then `hs_dpi_rvfi_check` with the retirement's
//! signals, which checks it and clears the CSR writes given.

// DPI-C passes the RVFI signals one by one.
#![allow(clippy::too_many_arguments)]

use crate::*;
use plugin::rvfi::{Rvfi, RvfiCsr, RVFI_MAX_CSR};

/// What the DPI-C calls keep between calls.
#[derive(Default)]
pub(crate) struct State {
    /// CSR writes given for the next `hs_dpi_rvfi_check`.
    csr: Vec<RvfiCsr>,
    /// The last `hs_dpi_step_rvfi`'s retirement.
    stepped: Rvfi,
}

/// A new hart from settings in JSON (`""`: the defaults), or `null` when the settings are
/// not valid (`hs_last_error` says why).
#[no_mangle]
pub unsafe extern "C" fn hs_dpi_new(config_json: *const c_char) -> *mut HsHart {
    let mut h = std::ptr::null_mut();
    // SAFETY: `h` is a valid place for the handle.
    if unsafe { hs_new(config_json, &mut h) } == HS_OK {
        h
    } else {
        std::ptr::null_mut()
    }
}

/// Load an ELF file and reset to its entry point. Returns a status.
#[no_mangle]
pub unsafe extern "C" fn hs_dpi_load_elf(h: *mut HsHart, path: *const c_char) -> c_int {
    // SAFETY: as hs_load_elf, with no entry point wanted.
    unsafe { hs_load_elf(h, path, std::ptr::null_mut()) }
}

/// Retirements that mismatched so far, or a negative error.
#[no_mangle]
pub unsafe extern "C" fn hs_dpi_errors(h: *mut HsHart) -> i64 {
    let mut v = 0;
    // SAFETY: `v` is a valid place for the value.
    match unsafe { hs_errors(h, &mut v) } {
        HS_OK => v.min(i64::MAX as u64) as i64,
        e => e as i64,
    }
}

/// Retirements checked so far, or a negative error.
#[no_mangle]
pub unsafe extern "C" fn hs_dpi_checked(h: *mut HsHart) -> i64 {
    let mut v = 0;
    // SAFETY: `v` is a valid place for the value.
    match unsafe { hs_checked(h, &mut v) } {
        HS_OK => v.min(i64::MAX as u64) as i64,
        e => e as i64,
    }
}

/// Give one CSR write of the next retirement to check (at most `HS_RVFI_MAX_CSR`): the CSR's
/// address, the bits written and their values. Returns a status.
#[no_mangle]
pub unsafe extern "C" fn hs_dpi_rvfi_csr(
    h: *mut HsHart,
    addr: u32,
    wmask: u64,
    wdata: u64,
) -> c_int {
    with_hart("hs_dpi_rvfi_csr", h, |s| {
        if addr > 0xfff {
            return Err(Fail::new(
                HS_ERR_RETIREMENT,
                format!("CSR address 0x{addr:x} (12 bits: 0 to 0xfff)"),
            ));
        }
        if s.dpi.csr.len() >= RVFI_MAX_CSR {
            return Err(Fail::new(
                HS_ERR_RETIREMENT,
                format!("more than {RVFI_MAX_CSR} CSR writes for one retirement"),
            ));
        }
        s.dpi.csr.push(RvfiCsr {
            addr: addr as u16,
            wmask,
            wdata,
        });
        Ok(HS_OK)
    })
}

/// Check one RVFI retirement (the signals of riscv-formal's RVFI, then hartscope's
/// floating-point write) with the CSR writes given before it by `hs_dpi_rvfi_csr`. Returns
/// the number of mismatches (read each with `hs_dpi_mismatch_text`), or a negative error.
#[no_mangle]
pub unsafe extern "C" fn hs_dpi_rvfi_check(
    h: *mut HsHart,
    valid: u8,
    order: u64,
    insn: u32,
    trap: u8,
    halt: u8,
    intr: u8,
    mode: u8,
    ixl: u8,
    rs1_addr: u8,
    rs2_addr: u8,
    rs1_rdata: u64,
    rs2_rdata: u64,
    rd_addr: u8,
    rd_wdata: u64,
    pc_rdata: u64,
    pc_wdata: u64,
    mem_addr: u64,
    mem_rmask: u8,
    mem_wmask: u8,
    mem_rdata: u64,
    mem_wdata: u64,
    frd_wen: u8,
    frd_addr: u8,
    frd_wdata: u64,
) -> c_int {
    with_hart("hs_dpi_rvfi_check", h, |s| {
        let mut r = Rvfi {
            valid,
            order,
            insn: insn as u64,
            trap,
            halt,
            intr,
            mode,
            ixl,
            rs1_addr,
            rs2_addr,
            rs1_rdata,
            rs2_rdata,
            rd_addr,
            rd_wdata,
            pc_rdata,
            pc_wdata,
            mem_addr,
            mem_rmask,
            mem_wmask,
            mem_rdata,
            mem_wdata,
            frd_wen,
            frd_addr,
            frd_wdata,
            ..Rvfi::default()
        };
        let n = s.dpi.csr.len();
        r.n_csr = n as u32;
        r.csr[..n].copy_from_slice(&s.dpi.csr);
        s.dpi.csr.clear();
        s.last.clear();
        s.last = s.hart.step_check_rvfi(&r)?;
        Ok(count_of(s.last.len()))
    })
}

fn count_of(n: usize) -> c_int {
    n.min(c_int::MAX as usize) as c_int
}

/// Mismatch `i` (from 0) of the last check, on one line: where (retirement order, pc,
/// instruction and disassembly), then each element with its expected and actual values.
/// `""` when there is no such mismatch or the handle is not valid (`hs_last_error` says why).
#[no_mangle]
pub unsafe extern "C" fn hs_dpi_mismatch_text(h: *mut HsHart, i: c_int) -> *const c_char {
    let mut p: *const c_char = c"".as_ptr();
    with_hart("hs_dpi_mismatch_text", h, |s| {
        let m = usize::try_from(i)
            .ok()
            .and_then(|i| s.last.get(i))
            .ok_or_else(|| {
                Fail::new(
                    HS_ERR_ARG,
                    format!("mismatch {i}: the last check had {}", s.last.len()),
                )
            })?;
        let t = text::line(m);
        p = s.give_text(&t);
        Ok(HS_OK)
    });
    p
}

/// Execute one step of the hart as one RVFI retirement (see `hs_step_rvfi`) and give its
/// signals; its CSR writes are read with `hs_dpi_stepped_csr`. Returns 0, 1 when the
/// program had already ended (nothing was stepped: `hs_poll_exit` gives its code), or a
/// negative error.
#[no_mangle]
pub unsafe extern "C" fn hs_dpi_step_rvfi(
    h: *mut HsHart,
    valid: *mut u8,
    order: *mut u64,
    insn: *mut u32,
    trap: *mut u8,
    halt: *mut u8,
    intr: *mut u8,
    mode: *mut u8,
    ixl: *mut u8,
    rd_addr: *mut u8,
    rd_wdata: *mut u64,
    pc_rdata: *mut u64,
    pc_wdata: *mut u64,
    mem_addr: *mut u64,
    mem_rmask: *mut u8,
    mem_wmask: *mut u8,
    mem_rdata: *mut u64,
    mem_wdata: *mut u64,
    frd_wen: *mut u8,
    frd_addr: *mut u8,
    frd_wdata: *mut u64,
    n_csr: *mut u32,
) -> c_int {
    with_hart("hs_dpi_step_rvfi", h, |s| {
        if s.ended().is_some() {
            s.dpi.stepped = Rvfi::default();
            *out_ref(valid, "valid")? = 0;
            return Ok(1);
        }
        let r = rvfi_out::step(s)?;
        s.dpi.stepped = r;
        *out_ref(valid, "valid")? = r.valid;
        *out_ref(order, "order")? = r.order;
        *out_ref(insn, "insn")? = r.insn as u32;
        *out_ref(trap, "trap")? = r.trap;
        *out_ref(halt, "halt")? = r.halt;
        *out_ref(intr, "intr")? = r.intr;
        *out_ref(mode, "mode")? = r.mode;
        *out_ref(ixl, "ixl")? = r.ixl;
        *out_ref(rd_addr, "rd_addr")? = r.rd_addr;
        *out_ref(rd_wdata, "rd_wdata")? = r.rd_wdata;
        *out_ref(pc_rdata, "pc_rdata")? = r.pc_rdata;
        *out_ref(pc_wdata, "pc_wdata")? = r.pc_wdata;
        *out_ref(mem_addr, "mem_addr")? = r.mem_addr;
        *out_ref(mem_rmask, "mem_rmask")? = r.mem_rmask;
        *out_ref(mem_wmask, "mem_wmask")? = r.mem_wmask;
        *out_ref(mem_rdata, "mem_rdata")? = r.mem_rdata;
        *out_ref(mem_wdata, "mem_wdata")? = r.mem_wdata;
        *out_ref(frd_wen, "frd_wen")? = r.frd_wen;
        *out_ref(frd_addr, "frd_addr")? = r.frd_addr;
        *out_ref(frd_wdata, "frd_wdata")? = r.frd_wdata;
        *out_ref(n_csr, "n_csr")? = r.n_csr;
        Ok(HS_OK)
    })
}

/// CSR write `i` (from 0) of the last `hs_dpi_step_rvfi`'s retirement. Returns a status.
#[no_mangle]
pub unsafe extern "C" fn hs_dpi_stepped_csr(
    h: *mut HsHart,
    i: u32,
    addr: *mut u32,
    wmask: *mut u64,
    wdata: *mut u64,
) -> c_int {
    with_hart("hs_dpi_stepped_csr", h, |s| {
        let r = &s.dpi.stepped;
        if i >= r.n_csr.min(RVFI_MAX_CSR as u32) {
            return Err(Fail::new(
                HS_ERR_ARG,
                format!("CSR write {i}: the retirement has {}", r.n_csr),
            ));
        }
        let c = r.csr[i as usize];
        *out_ref(addr, "addr")? = c.addr as u32;
        *out_ref(wmask, "wmask")? = c.wmask;
        *out_ref(wdata, "wdata")? = c.wdata;
        Ok(HS_OK)
    })
}
