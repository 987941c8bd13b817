//! The C ABI of hartscope's lockstep reference model: the [`plugin`] crate behind one opaque
//! handle (`hs_hart *`), for a core's testbench written in C, C++ or SystemVerilog (through the
//! DPI-C entry points of [`dpi`]).
//!
//! The rules every call keeps (the header `include/hartscope.h`, generated from this crate by
//! cbindgen, repeats them):
//! - Every call returns an `int` status: 0 (or a count, for the checks) when it worked, a
//!   negative `HS_ERR_*` code when it did not; `hs_last_error()` then says what and where.
//! - Nothing unwinds across the boundary: every entry point catches a panic and turns it into
//!   `HS_ERR_PANIC`; the handle is then unusable (every later call on it fails) but can be
//!   freed.
//! - Null pointers, lengths that cannot be, register numbers out of range and malformed
//!   retirements are errors, never crashes. A pointer that is not null must point to what the
//!   call says (a handle from `hs_new`, a buffer of the length given): that the C side cannot
//!   prove, and the library cannot check beyond a tag in the handle.
//! - Strings the library returns (`const char *`) belong to the library: `hs_last_error()`'s
//!   to the calling thread, valid until its next failing call; a handle's until the next
//!   call on that handle.
//! - One handle per thread at a time: a handle may move between threads, but two threads
//!   must not use one handle at once.
//!
//! The structures (`hs_retirement`, `hs_rvfi`, ...) are the [`plugin`] crate's `#[repr(C)]`
//! types unchanged, so a retirement crosses the boundary without translation.

// The entry points are `unsafe extern "C"` because they take raw pointers; what each pointer
// must be is said once, in the module doc above and in the header, not in every function.
#![allow(clippy::missing_safety_doc)]

pub mod dpi;
mod rvfi_out;
mod text;

pub use plugin::rvfi::{Rvfi, RvfiCsr};
pub use plugin::{MemAccess, RegWrite, Retirement};

use plugin::{Hart, Mismatch, RunStop};
use std::cell::RefCell;
use std::ffi::{c_char, c_int, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};

/// The version of the ABI this header describes: `hs_api_version()` returns the library's.
/// The part above 10000 changes when a call or a structure changes incompatibly.
pub const HS_API_VERSION: u32 = 10000;
const _: () = assert!(HS_API_VERSION == plugin::API_VERSION);

// Status codes.
/// The call worked.
pub const HS_OK: c_int = 0;
/// A pointer that must not be null was null.
pub const HS_ERR_NULL: c_int = -1;
/// An argument is out of range: a register number, a length, a string that is not UTF-8, a
/// handle that is not one (freed, or never made by `hs_new`), a snapshot of another handle.
pub const HS_ERR_ARG: c_int = -2;
/// The settings (JSON) are not valid.
pub const HS_ERR_CONFIG: c_int = -3;
/// A file could not be read or written (the ELF, the recording).
pub const HS_ERR_IO: c_int = -4;
/// The ELF file is not a RISC-V 64-bit executable hartscope can load.
pub const HS_ERR_ELF: c_int = -5;
/// A memory access outside RAM.
pub const HS_ERR_ADDRESS: c_int = -6;
/// No such register (a CSR the hart does not have, a name it does not know).
pub const HS_ERR_NO_REGISTER: c_int = -7;
/// The core's retirement is malformed (a length, a count, a register, a mask that cannot be).
pub const HS_ERR_RETIREMENT: c_int = -8;
/// An internal error (a panic) was caught; the handle cannot be used any more.
pub const HS_ERR_PANIC: c_int = -9;

// Retirement constants (the plugin crate's, with the `HS_` prefix C needs).
/// `hs_retirement.trap`: no trap, the instruction retired.
pub const HS_TRAP_NONE: u8 = 0;
/// The instruction raised an exception (it did not retire; `next_pc` is the trap vector).
pub const HS_TRAP_EXCEPTION: u8 = 1;
/// An interrupt was taken before any instruction (`insn` and `len` are 0).
pub const HS_TRAP_INTERRUPT: u8 = 2;
/// `hs_retirement.valid`: `prv` is given.
pub const HS_VALID_PRV: u32 = 1 << 0;
/// `next_prv` is given.
pub const HS_VALID_NEXT_PRV: u32 = 1 << 1;
/// `cause` is given (for a trap).
pub const HS_VALID_CAUSE: u32 = 1 << 2;
/// `tval` is given (for a trap).
pub const HS_VALID_TVAL: u32 = 1 << 3;
/// `next_pc` is given.
pub const HS_VALID_NEXT_PC: u32 = 1 << 4;
/// `pc` is given.
pub const HS_VALID_PC: u32 = 1 << 5;
/// Everything a hart's own step gives.
pub const HS_VALID_ALL: u32 = 0x3f;
/// `hs_reg_write.file`: an integer register x0..x31.
pub const HS_REG_X: u8 = 0;
/// A floating-point register f0..f31.
pub const HS_REG_F: u8 = 1;
/// A CSR by its 12-bit address.
pub const HS_REG_CSR: u8 = 2;
/// `hs_mem_access.kind`: a load (`rdata` is the value read).
pub const HS_MEM_LOAD: u8 = 1;
/// A store (`wdata` is the value written).
pub const HS_MEM_STORE: u8 = 2;
/// `hs_mem_access.kind` bit: the load's data is not known (it is taken from memory).
pub const HS_MEM_DATA_UNKNOWN: u8 = 0x80;
/// `hs_mem_access.paddr` when the core does not give the physical address.
pub const HS_PADDR_UNKNOWN: u64 = u64::MAX;
/// Register writes one retirement holds.
pub const HS_MAX_WRITES: usize = 12;
/// Data accesses one retirement holds.
pub const HS_MAX_MEM: usize = 2;
/// CSR writes one RVFI retirement carries.
pub const HS_RVFI_MAX_CSR: usize = 8;

// `hs_run_result.stop`: why `hs_run` stopped.
/// It ran the number of steps asked for.
pub const HS_STOP_LIMIT: i32 = 0;
/// It reached the pc asked for (before executing the instruction there).
pub const HS_STOP_PC: i32 = 1;
/// The program ended (test finisher or HTIF); `exit_code` is its code.
pub const HS_STOP_EXIT: i32 = 2;
/// The hart cannot go on (a trap loop, a WFI nothing wakes...): `hs_stop_reason` says why.
pub const HS_STOP_STOPPED: i32 = 3;

const _: () = {
    use plugin::*;
    assert!(HS_TRAP_NONE == TRAP_NONE);
    assert!(HS_TRAP_EXCEPTION == TRAP_EXCEPTION);
    assert!(HS_TRAP_INTERRUPT == TRAP_INTERRUPT);
    assert!(HS_VALID_PRV == VALID_PRV);
    assert!(HS_VALID_NEXT_PRV == VALID_NEXT_PRV);
    assert!(HS_VALID_CAUSE == VALID_CAUSE);
    assert!(HS_VALID_TVAL == VALID_TVAL);
    assert!(HS_VALID_NEXT_PC == VALID_NEXT_PC);
    assert!(HS_VALID_PC == VALID_PC);
    assert!(HS_VALID_ALL == VALID_ALL);
    assert!(HS_REG_X == REG_X);
    assert!(HS_REG_F == REG_F);
    assert!(HS_REG_CSR == REG_CSR);
    assert!(HS_MEM_LOAD == MEM_LOAD);
    assert!(HS_MEM_STORE == MEM_STORE);
    assert!(HS_MEM_DATA_UNKNOWN == spike_log::MEM_DATA_UNKNOWN);
    assert!(HS_PADDR_UNKNOWN == PADDR_UNKNOWN);
    assert!(HS_MAX_WRITES == MAX_WRITES);
    assert!(HS_MAX_MEM == MAX_MEM);
    assert!(HS_RVFI_MAX_CSR == rvfi::RVFI_MAX_CSR);
};

/// What `hs_run` did.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunResult {
    /// Steps taken.
    pub steps: u64,
    /// Why it stopped: `HS_STOP_*`.
    pub stop: i32,
    /// The program's exit code (with `HS_STOP_EXIT`).
    pub exit_code: i32,
}

/// A failed call: the status and the message `hs_last_error` gives.
pub(crate) struct Fail {
    code: c_int,
    msg: String,
}

impl Fail {
    pub(crate) fn new(code: c_int, msg: impl Into<String>) -> Fail {
        Fail {
            code,
            msg: msg.into(),
        }
    }
}

impl From<plugin::Error> for Fail {
    fn from(e: plugin::Error) -> Fail {
        use plugin::Error as E;
        let code = match &e {
            E::Config(_)
            | E::Options(_)
            | E::HartSettings(_)
            | E::Setup(_)
            | E::Device(_)
            | E::Nondet(_)
            | E::Group(_) => HS_ERR_CONFIG,
            E::Elf(_) => HS_ERR_ELF,
            E::Io { .. } | E::Record(_) => HS_ERR_IO,
            E::Address { .. } => HS_ERR_ADDRESS,
            E::NoSuchRegister(_) => HS_ERR_NO_REGISTER,
            E::Retirement { .. } | E::Rvfi { .. } => HS_ERR_RETIREMENT,
        };
        Fail::new(code, e.to_string())
    }
}

type Res<T> = Result<T, Fail>;

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// A C string of `s` (a NUL inside is written `\0`).
pub(crate) fn c_string(s: &str) -> CString {
    CString::new(s.replace('\0', "\\0")).unwrap_or_default()
}

fn set_error(func: &str, msg: &str) {
    let text = c_string(&format!("{func}: {msg}"));
    LAST_ERROR.with(|e| *e.borrow_mut() = text);
}

fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic".to_string()
    }
}

/// Run `f`, turning an error into its status (with the message set) and a panic into
/// `HS_ERR_PANIC`.
pub(crate) fn guard(func: &str, f: impl FnOnce() -> Res<c_int>) -> c_int {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(n)) => n,
        Ok(Err(e)) => {
            set_error(func, &e.msg);
            e.code
        }
        Err(p) => {
            set_error(
                func,
                &format!("internal error (please report it): {}", panic_text(&*p)),
            );
            HS_ERR_PANIC
        }
    }
}

const MAGIC: u64 = 0x6873_6861_7274_2131; // "hshart!1"
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// The opaque handle: a reference hart and what the C side reads back from it.
pub struct HsHart {
    magic: u64,
    id: u64,
    /// Set when a panic was caught: the hart may be half-way through a step.
    poisoned: Option<String>,
    pub(crate) hart: Hart,
    /// The last check's mismatches (`hs_mismatches_text`, `_json`).
    pub(crate) last: Vec<Mismatch>,
    /// The string the last call that returns one made (valid until the next call).
    pub(crate) text: CString,
    /// Live snapshots, oldest first: restoring one makes those after it invalid.
    snaps: Vec<u64>,
    next_snap: u64,
    /// Why the last `hs_run` stopped, when the hart could not go on.
    stop_reason: CString,
    /// The DPI-C front end's state.
    pub(crate) dpi: dpi::State,
}

impl HsHart {
    pub(crate) fn new(config_json: &str) -> Res<HsHart> {
        let cfg = plugin::Config::from_json(config_json)?;
        let hart = Hart::new(&cfg)?;
        Ok(HsHart {
            magic: MAGIC,
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            poisoned: None,
            hart,
            last: Vec::new(),
            text: CString::default(),
            snaps: Vec::new(),
            next_snap: 0,
            stop_reason: CString::default(),
            dpi: dpi::State::default(),
        })
    }

    /// Keep `s` as the handle's returned string and give its address.
    pub(crate) fn give_text(&mut self, s: &str) -> *const c_char {
        self.text = c_string(s);
        self.text.as_ptr()
    }

    /// Whether the program has ended: its exit code, or -1 when the hart stopped for another
    /// reason (kept for `hs_stop_reason`).
    pub(crate) fn ended(&mut self) -> Option<i32> {
        match self.hart.exit()? {
            RunStop::Exit(c) => Some(*c),
            RunStop::Stopped(why) => {
                self.stop_reason = c_string(why);
                Some(-1)
            }
            RunStop::Limit | RunStop::Pc => None,
        }
    }
}

/// The handle behind `h`, checked, with `f` run on it under [`guard`].
pub(crate) fn with_hart(
    func: &str,
    h: *mut HsHart,
    f: impl FnOnce(&mut HsHart) -> Res<c_int>,
) -> c_int {
    guard(func, || {
        let s = hart_mut(h)?;
        if let Some(p) = &s.poisoned {
            return Err(Fail::new(
                HS_ERR_PANIC,
                format!("the handle is unusable after an internal error ({p}); free it"),
            ));
        }
        match catch_unwind(AssertUnwindSafe(|| f(&mut *s))) {
            Ok(r) => r,
            Err(p) => {
                let msg = panic_text(&*p);
                s.poisoned = Some(msg.clone());
                Err(Fail::new(
                    HS_ERR_PANIC,
                    format!("internal error (please report it): {msg}"),
                ))
            }
        }
    })
}

pub(crate) fn hart_mut<'a>(h: *mut HsHart) -> Res<&'a mut HsHart> {
    if h.is_null() {
        return Err(Fail::new(HS_ERR_NULL, "the handle is null"));
    }
    // SAFETY: the caller passes a handle from `hs_new` (checked by its tag below as far as
    // that can be checked), used by one thread at a time.
    let s = unsafe { &mut *h };
    if s.magic != MAGIC {
        return Err(Fail::new(
            HS_ERR_ARG,
            "the handle is not one hs_new made (freed already?)",
        ));
    }
    Ok(s)
}

/// `p` as a reference for the call's output `what`.
pub(crate) fn out_ref<'a, T>(p: *mut T, what: &str) -> Res<&'a mut T> {
    // SAFETY: not null, and the caller passes a pointer to a `T` it owns.
    unsafe { p.as_mut() }.ok_or_else(|| Fail::new(HS_ERR_NULL, format!("{what} is null")))
}

/// `p` as a reference for the call's input `what`.
pub(crate) fn in_ref<'a, T>(p: *const T, what: &str) -> Res<&'a T> {
    // SAFETY: not null, and the caller passes a pointer to a `T`.
    unsafe { p.as_ref() }.ok_or_else(|| Fail::new(HS_ERR_NULL, format!("{what} is null")))
}

/// A NUL-terminated UTF-8 string argument.
pub(crate) fn string<'a>(p: *const c_char, what: &str) -> Res<&'a str> {
    if p.is_null() {
        return Err(Fail::new(HS_ERR_NULL, format!("{what} is null")));
    }
    // SAFETY: not null, and the caller passes a NUL-terminated string.
    let c = unsafe { CStr::from_ptr(p) };
    c.to_str()
        .map_err(|e| Fail::new(HS_ERR_ARG, format!("{what} is not UTF-8: {e}")))
}

/// A byte buffer argument of `len` bytes (null is allowed when `len` is 0).
fn bytes<'a>(p: *const u8, len: usize, what: &str) -> Res<&'a [u8]> {
    if len == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(Fail::new(
            HS_ERR_NULL,
            format!("{what} is null with a length of {len}"),
        ));
    }
    if len > isize::MAX as usize {
        return Err(Fail::new(HS_ERR_ARG, format!("{what}: length {len}")));
    }
    // SAFETY: not null, and the caller passes a buffer of `len` bytes.
    Ok(unsafe { std::slice::from_raw_parts(p, len) })
}

fn bytes_mut<'a>(p: *mut u8, len: usize, what: &str) -> Res<&'a mut [u8]> {
    if len == 0 {
        return Ok(&mut []);
    }
    if p.is_null() {
        return Err(Fail::new(
            HS_ERR_NULL,
            format!("{what} is null with a length of {len}"),
        ));
    }
    if len > isize::MAX as usize {
        return Err(Fail::new(HS_ERR_ARG, format!("{what}: length {len}")));
    }
    // SAFETY: not null, and the caller passes a buffer of `len` bytes it owns.
    Ok(unsafe { std::slice::from_raw_parts_mut(p, len) })
}

fn reg_num(n: u32, what: &str) -> Res<u8> {
    if n < 32 {
        Ok(n as u8)
    } else {
        Err(Fail::new(
            HS_ERR_ARG,
            format!("{what} register number {n} (0 to 31)"),
        ))
    }
}

fn csr_addr(a: u32) -> Res<u16> {
    if a < 0x1000 {
        Ok(a as u16)
    } else {
        Err(Fail::new(
            HS_ERR_NO_REGISTER,
            format!("CSR address 0x{a:x} (12 bits: 0 to 0xfff)"),
        ))
    }
}

// ---------------------------------------------------------------------------------------------
// Creating and loading

/// The ABI version of the library (compare with `HS_API_VERSION` of the header compiled
/// against: the same value divided by 10000 means compatible).
#[no_mangle]
pub extern "C" fn hs_api_version() -> u32 {
    plugin::API_VERSION
}

/// What the last failing call on this thread went wrong with (`"hs_load_elf: prog.elf: ..."`);
/// an empty string before any failure. Valid until this thread's next failing call.
#[no_mangle]
pub extern "C" fn hs_last_error() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

/// A new hart from settings in JSON (`NULL` or `""`: the defaults; see the README for the
/// fields), in `*out`. Free it with `hs_free`.
#[no_mangle]
pub unsafe extern "C" fn hs_new(config_json: *const c_char, out: *mut *mut HsHart) -> c_int {
    guard("hs_new", || {
        let o = out_ref(out, "out")?;
        *o = std::ptr::null_mut();
        let json = if config_json.is_null() {
            ""
        } else {
            string(config_json, "config_json")?
        };
        *o = Box::into_raw(Box::new(HsHart::new(json)?));
        Ok(HS_OK)
    })
}

/// Free a hart (a recording in progress is finished; its error is lost: call
/// `hs_finish_recording` first to see it). `NULL` is allowed.
#[no_mangle]
pub unsafe extern "C" fn hs_free(h: *mut HsHart) -> c_int {
    guard("hs_free", || {
        if h.is_null() {
            return Ok(HS_OK);
        }
        let s = hart_mut(h)?;
        s.magic = 0;
        // SAFETY: made by Box::into_raw in hs_new, and not freed before (its tag said so).
        drop(unsafe { Box::from_raw(h) });
        Ok(HS_OK)
    })
}

/// Load an ELF file and reset the hart to its entry point (stored in `*entry` unless it is
/// `NULL`).
#[no_mangle]
pub unsafe extern "C" fn hs_load_elf(
    h: *mut HsHart,
    path: *const c_char,
    entry: *mut u64,
) -> c_int {
    with_hart("hs_load_elf", h, |s| {
        let path = string(path, "path")?;
        let e = s.hart.load_elf(path)?;
        if !entry.is_null() {
            *out_ref(entry, "entry")? = e;
        }
        Ok(HS_OK)
    })
}

/// Load an ELF image of `len` bytes from memory (`name`, which may be `NULL`, is for
/// messages) and reset to its entry point (in `*entry` unless it is `NULL`).
#[no_mangle]
pub unsafe extern "C" fn hs_load_elf_bytes(
    h: *mut HsHart,
    data: *const u8,
    len: usize,
    name: *const c_char,
    entry: *mut u64,
) -> c_int {
    with_hart("hs_load_elf_bytes", h, |s| {
        let b = bytes(data, len, "data")?;
        let name = if name.is_null() {
            "the ELF image"
        } else {
            string(name, "name")?
        };
        let e = s.hart.load_elf_bytes(b, name)?;
        if !entry.is_null() {
            *out_ref(entry, "entry")? = e;
        }
        Ok(HS_OK)
    })
}

/// Copy `len` raw bytes into RAM at physical address `addr`.
#[no_mangle]
pub unsafe extern "C" fn hs_load_image(
    h: *mut HsHart,
    addr: u64,
    data: *const u8,
    len: usize,
) -> c_int {
    with_hart("hs_load_image", h, |s| {
        s.hart.load_image(addr, bytes(data, len, "data")?)?;
        Ok(HS_OK)
    })
}

/// Read `len` bytes of physical memory (RAM) at `addr` into `buf`.
#[no_mangle]
pub unsafe extern "C" fn hs_read_mem(h: *mut HsHart, addr: u64, buf: *mut u8, len: usize) -> c_int {
    with_hart("hs_read_mem", h, |s| {
        s.hart.read_mem(addr, bytes_mut(buf, len, "buf")?)?;
        Ok(HS_OK)
    })
}

/// Write `len` bytes to physical memory (RAM) at `addr`, as another bus agent or a backdoor
/// would: the hart sees them at its next fetch or load.
#[no_mangle]
pub unsafe extern "C" fn hs_write_mem(
    h: *mut HsHart,
    addr: u64,
    data: *const u8,
    len: usize,
) -> c_int {
    with_hart("hs_write_mem", h, |s| {
        s.hart.write_mem(addr, bytes(data, len, "data")?)?;
        Ok(HS_OK)
    })
}

/// A warm reset: start at `pc` in M-mode with the integer and FP registers cleared, no
/// reservation and the `csr_reset` values set again; other CSRs and memory keep theirs.
#[no_mangle]
pub unsafe extern "C" fn hs_reset(h: *mut HsHart, pc: u64) -> c_int {
    with_hart("hs_reset", h, |s| {
        s.hart.reset(pc);
        Ok(HS_OK)
    })
}

// ---------------------------------------------------------------------------------------------
// State

/// The pc of the next instruction.
#[no_mangle]
pub unsafe extern "C" fn hs_get_pc(h: *mut HsHart, value: *mut u64) -> c_int {
    with_hart("hs_get_pc", h, |s| {
        *out_ref(value, "value")? = s.hart.pc();
        Ok(HS_OK)
    })
}

#[no_mangle]
pub unsafe extern "C" fn hs_set_pc(h: *mut HsHart, pc: u64) -> c_int {
    with_hart("hs_set_pc", h, |s| {
        s.hart.set_pc(pc);
        Ok(HS_OK)
    })
}

/// The current privilege level (0 U, 1 S, 3 M).
#[no_mangle]
pub unsafe extern "C" fn hs_privilege(h: *mut HsHart, value: *mut u8) -> c_int {
    with_hart("hs_privilege", h, |s| {
        *out_ref(value, "value")? = s.hart.privilege();
        Ok(HS_OK)
    })
}

/// Integer register `n` (0 to 31).
#[no_mangle]
pub unsafe extern "C" fn hs_get_x(h: *mut HsHart, n: u32, value: *mut u64) -> c_int {
    with_hart("hs_get_x", h, |s| {
        let n = reg_num(n, "integer")?;
        *out_ref(value, "value")? = s.hart.x(n);
        Ok(HS_OK)
    })
}

#[no_mangle]
pub unsafe extern "C" fn hs_set_x(h: *mut HsHart, n: u32, value: u64) -> c_int {
    with_hart("hs_set_x", h, |s| {
        s.hart.set_x(reg_num(n, "integer")?, value);
        Ok(HS_OK)
    })
}

/// Floating-point register `n` (0 to 31), NaN-boxed as the hart holds it.
#[no_mangle]
pub unsafe extern "C" fn hs_get_f(h: *mut HsHart, n: u32, value: *mut u64) -> c_int {
    with_hart("hs_get_f", h, |s| {
        let n = reg_num(n, "floating-point")?;
        *out_ref(value, "value")? = s.hart.f(n);
        Ok(HS_OK)
    })
}

#[no_mangle]
pub unsafe extern "C" fn hs_set_f(h: *mut HsHart, n: u32, value: u64) -> c_int {
    with_hart("hs_set_f", h, |s| {
        s.hart.set_f(reg_num(n, "floating-point")?, value);
        Ok(HS_OK)
    })
}

/// CSR `addr` (`HS_ERR_NO_REGISTER` when the hart has no such CSR).
#[no_mangle]
pub unsafe extern "C" fn hs_get_csr(h: *mut HsHart, addr: u32, value: *mut u64) -> c_int {
    with_hart("hs_get_csr", h, |s| {
        let a = csr_addr(addr)?;
        let v = s.hart.csr(a).ok_or_else(|| {
            Fail::new(
                HS_ERR_NO_REGISTER,
                format!("CSR 0x{a:03x}: the hart has no such CSR"),
            )
        })?;
        *out_ref(value, "value")? = v;
        Ok(HS_OK)
    })
}

/// Write CSR `addr` as a debugger would (WARL fields keep what they can hold).
#[no_mangle]
pub unsafe extern "C" fn hs_set_csr(h: *mut HsHart, addr: u32, value: u64) -> c_int {
    with_hart("hs_set_csr", h, |s| {
        s.hart.set_csr(csr_addr(addr)?, value)?;
        Ok(HS_OK)
    })
}

/// A register by its name: `a0`, `x10`, `f3`, `fa0`, `mstatus`, `0x300`.
#[no_mangle]
pub unsafe extern "C" fn hs_reg_by_name(
    h: *mut HsHart,
    name: *const c_char,
    value: *mut u64,
) -> c_int {
    with_hart("hs_reg_by_name", h, |s| {
        let v = s.hart.reg_by_name(string(name, "name")?)?;
        *out_ref(value, "value")? = v;
        Ok(HS_OK)
    })
}

/// Drive the interrupt pins: the device interrupt-pending bits of mip (MSIP 3, MTIP 7, SEIP 9,
/// MEIP 11, LCOFIP 13). Takes effect before the next step.
#[no_mangle]
pub unsafe extern "C" fn hs_set_mip(h: *mut HsHart, bits: u64) -> c_int {
    with_hart("hs_set_mip", h, |s| {
        s.hart.set_mip(bits);
        Ok(HS_OK)
    })
}

/// Set mtime (external time).
#[no_mangle]
pub unsafe extern "C" fn hs_set_time(h: *mut HsHart, mtime: u64) -> c_int {
    with_hart("hs_set_time", h, |s| {
        s.hart.set_time(mtime);
        Ok(HS_OK)
    })
}

/// The LR reservation is lost (another agent wrote the line, or the core dropped it).
#[no_mangle]
pub unsafe extern "C" fn hs_cancel_reservation(h: *mut HsHart) -> c_int {
    with_hart("hs_cancel_reservation", h, |s| {
        s.hart.cancel_reservation();
        Ok(HS_OK)
    })
}

/// Raise a trap now: the next step or check takes it at the current pc instead of executing
/// (a bus error's access fault the model cannot know, or an interrupt the core decided to
/// take: `interrupt` non-zero, taken whatever mie says). `code` is the exception or
/// interrupt code (mcause without the interrupt bit); an unknown one is `HS_ERR_CONFIG`.
#[no_mangle]
pub unsafe extern "C" fn hs_raise_trap(
    h: *mut HsHart,
    interrupt: c_int,
    code: u64,
    tval: u64,
) -> c_int {
    with_hart("hs_raise_trap", h, |s| {
        s.hart.raise_trap(interrupt != 0, code, tval)?;
        Ok(HS_OK)
    })
}

/// Steps retired or checked since the last reset or load.
#[no_mangle]
pub unsafe extern "C" fn hs_order(h: *mut HsHart, value: *mut u64) -> c_int {
    with_hart("hs_order", h, |s| {
        *out_ref(value, "value")? = s.hart.order();
        Ok(HS_OK)
    })
}

// ---------------------------------------------------------------------------------------------
// Stepping

/// Execute one step (an instruction, or the interrupt that is pending and enabled) and
/// describe it in `*out`.
#[no_mangle]
pub unsafe extern "C" fn hs_step(h: *mut HsHart, out: *mut Retirement) -> c_int {
    with_hart("hs_step", h, |s| {
        let o = out_ref(out, "out")?;
        s.hart.step_into(o);
        Ok(HS_OK)
    })
}

/// Execute one step and describe it as the RVFI signals of one retirement (`*out`): an
/// interrupt is taken together with the first instruction of its handler (`intr` set), as
/// RVFI shows it; CSR writes go into hartscope's CSR extension. This is a reference stream
/// for a testbench that drives an RVFI monitor without a core.
#[no_mangle]
pub unsafe extern "C" fn hs_step_rvfi(h: *mut HsHart, out: *mut Rvfi) -> c_int {
    with_hart("hs_step_rvfi", h, |s| {
        let o = out_ref(out, "out")?;
        *o = rvfi_out::step(s)?;
        Ok(HS_OK)
    })
}

/// Whether the program has ended (test finisher or HTIF): 1 with its exit code in `*code`
/// (unless `NULL`; -1 when the hart stopped for another reason, which `hs_stop_reason`
/// gives), 0 while it runs.
#[no_mangle]
pub unsafe extern "C" fn hs_poll_exit(h: *mut HsHart, code: *mut i32) -> c_int {
    with_hart("hs_poll_exit", h, |s| match s.ended() {
        Some(c) => {
            if !code.is_null() {
                *out_ref(code, "code")? = c;
            }
            Ok(1)
        }
        None => Ok(0),
    })
}

/// Run up to `max` steps, stopping before the instruction at `*until_pc` (unless `until_pc`
/// is `NULL`) or when the program ends. `*result` says how many steps and why it stopped.
#[no_mangle]
pub unsafe extern "C" fn hs_run(
    h: *mut HsHart,
    max: u64,
    until_pc: *const u64,
    result: *mut RunResult,
) -> c_int {
    with_hart("hs_run", h, |s| {
        let r = out_ref(result, "result")?;
        // SAFETY: null or a pointer to a u64.
        let until = unsafe { until_pc.as_ref() }.copied();
        let (steps, stop) = s.hart.run(max, until);
        let (stop, exit_code) = match stop {
            RunStop::Limit => (HS_STOP_LIMIT, 0),
            RunStop::Pc => (HS_STOP_PC, 0),
            RunStop::Exit(c) => (HS_STOP_EXIT, c),
            RunStop::Stopped(why) => {
                s.stop_reason = c_string(&why);
                (HS_STOP_STOPPED, 0)
            }
        };
        *r = RunResult {
            steps,
            stop,
            exit_code,
        };
        Ok(HS_OK)
    })
}

/// Why the hart stopped (`hs_run`'s `HS_STOP_STOPPED`, `hs_poll_exit`'s -1), in `*text`,
/// valid until the next call on the handle; empty if it did not.
#[no_mangle]
pub unsafe extern "C" fn hs_stop_reason(h: *mut HsHart, text: *mut *const c_char) -> c_int {
    with_hart("hs_stop_reason", h, |s| {
        *out_ref(text, "text")? = s.stop_reason.as_ptr();
        Ok(HS_OK)
    })
}

// ---------------------------------------------------------------------------------------------
// Checking

/// Step the hart with the core's retirement `*dut` and compare. Returns the number of
/// mismatches (0: the core did what the architecture says; read them with
/// `hs_mismatches_text` or `hs_mismatches_json`), or a negative error (a malformed
/// retirement: `HS_ERR_RETIREMENT`). After a mismatch the hart takes the core's state.
#[no_mangle]
pub unsafe extern "C" fn hs_step_check(h: *mut HsHart, dut: *const Retirement) -> c_int {
    with_hart("hs_step_check", h, |s| {
        let d = in_ref(dut, "dut")?;
        s.last.clear();
        let found = s.hart.step_check(d)?;
        let n = found.len();
        if n != 0 {
            s.last.extend_from_slice(found);
        }
        Ok(count(n))
    })
}

/// Check one RVFI retirement (an interrupt and the first instruction of its handler when
/// `intr` is set). Returns the number of mismatches, or a negative error.
#[no_mangle]
pub unsafe extern "C" fn hs_step_check_rvfi(h: *mut HsHart, dut: *const Rvfi) -> c_int {
    with_hart("hs_step_check_rvfi", h, |s| {
        let d = in_ref(dut, "dut")?;
        s.last.clear();
        s.last = s.hart.step_check_rvfi(d)?;
        Ok(count(s.last.len()))
    })
}

/// Compare every register of the hart with the core's state as the checked retirements built
/// it. Returns the number of mismatches (read as after `hs_step_check`).
#[no_mangle]
pub unsafe extern "C" fn hs_compare_all(h: *mut HsHart) -> c_int {
    with_hart("hs_compare_all", h, |s| {
        let found = s.hart.compare_all().to_vec();
        s.last = found;
        Ok(count(s.last.len()))
    })
}

fn count(n: usize) -> c_int {
    n.min(c_int::MAX as usize) as c_int
}

/// The last check's mismatches as text, one block each: where (retirement order, pc,
/// instruction and disassembly), then one line per element with the expected (reference)
/// and actual (core) values. Empty when it matched. In `*text`, valid until the next call
/// on the handle.
#[no_mangle]
pub unsafe extern "C" fn hs_mismatches_text(h: *mut HsHart, text: *mut *const c_char) -> c_int {
    with_hart("hs_mismatches_text", h, |s| {
        let o = out_ref(text, "text")?;
        let t = text::blocks(&s.last);
        *o = s.give_text(&t);
        Ok(HS_OK)
    })
}

/// The last check's mismatches as a JSON array of objects (`group` = the retirement's order,
/// `pc`, `kind`, `insn`, `disasm`, `diffs`: `[{element, expected, actual}]`). In `*text`,
/// valid until the next call on the handle.
#[no_mangle]
pub unsafe extern "C" fn hs_mismatches_json(h: *mut HsHart, text: *mut *const c_char) -> c_int {
    with_hart("hs_mismatches_json", h, |s| {
        let o = out_ref(text, "text")?;
        let t = serde_json::to_string(&s.last)
            .map_err(|e| Fail::new(HS_ERR_PANIC, format!("JSON: {e}")))?;
        *o = s.give_text(&t);
        Ok(HS_OK)
    })
}

/// Every mismatch kept since the hart was made (at most the settings' `max_kept`), as JSON
/// like `hs_mismatches_json`.
#[no_mangle]
pub unsafe extern "C" fn hs_kept_mismatches_json(
    h: *mut HsHart,
    text: *mut *const c_char,
) -> c_int {
    with_hart("hs_kept_mismatches_json", h, |s| {
        let o = out_ref(text, "text")?;
        let t = serde_json::to_string(s.hart.mismatches())
            .map_err(|e| Fail::new(HS_ERR_PANIC, format!("JSON: {e}")))?;
        *o = s.give_text(&t);
        Ok(HS_OK)
    })
}

/// Retirements that mismatched so far.
#[no_mangle]
pub unsafe extern "C" fn hs_errors(h: *mut HsHart, value: *mut u64) -> c_int {
    with_hart("hs_errors", h, |s| {
        *out_ref(value, "value")? = s.hart.errors();
        Ok(HS_OK)
    })
}

/// Retirements checked so far.
#[no_mangle]
pub unsafe extern "C" fn hs_checked(h: *mut HsHart, value: *mut u64) -> c_int {
    with_hart("hs_checked", h, |s| {
        *out_ref(value, "value")? = s.hart.checked();
        Ok(HS_OK)
    })
}

/// Record every checked retirement from now on as a Bluespec tandem stream in the file
/// `path`, which `hartscope tandem verify FILE` replays to the same verdict.
#[no_mangle]
pub unsafe extern "C" fn hs_record(h: *mut HsHart, path: *const c_char) -> c_int {
    with_hart("hs_record", h, |s| {
        s.hart.record(string(path, "path")?)?;
        Ok(HS_OK)
    })
}

/// Finish the recording (flush the file); nothing to do without one.
#[no_mangle]
pub unsafe extern "C" fn hs_finish_recording(h: *mut HsHart) -> c_int {
    with_hart("hs_finish_recording", h, |s| {
        s.hart.finish_recording()?;
        Ok(HS_OK)
    })
}

// ---------------------------------------------------------------------------------------------
// Snapshots

/// A saved state of a hart (opaque).
pub struct HsSnapshot {
    magic: u64,
    owner: u64,
    id: u64,
    snap: plugin::Snapshot,
}

const SNAP_MAGIC: u64 = 0x6873_736e_6170_2131; // "hssnap!1"

/// Save the hart's whole state in a new snapshot (`*out`; free it with `hs_snapshot_free`).
/// Memory is kept as a journal of what changes after the oldest live snapshot, so a snapshot
/// costs the registers, not the RAM.
#[no_mangle]
pub unsafe extern "C" fn hs_snapshot(h: *mut HsHart, out: *mut *mut HsSnapshot) -> c_int {
    with_hart("hs_snapshot", h, |s| {
        let o = out_ref(out, "out")?;
        *o = std::ptr::null_mut();
        let id = s.next_snap;
        s.next_snap += 1;
        s.snaps.push(id);
        *o = Box::into_raw(Box::new(HsSnapshot {
            magic: SNAP_MAGIC,
            owner: s.id,
            id,
            snap: s.hart.snapshot(),
        }));
        Ok(HS_OK)
    })
}

/// Go back to a snapshot taken on this handle. Snapshots taken after it can no longer be
/// restored (they fail with `HS_ERR_ARG`); it and those before it can.
#[no_mangle]
pub unsafe extern "C" fn hs_restore(h: *mut HsHart, snap: *const HsSnapshot) -> c_int {
    with_hart("hs_restore", h, |s| {
        let sn = in_ref(snap, "snapshot")?;
        if sn.magic != SNAP_MAGIC {
            return Err(Fail::new(
                HS_ERR_ARG,
                "the snapshot is not one hs_snapshot made (freed already?)",
            ));
        }
        if sn.owner != s.id {
            return Err(Fail::new(
                HS_ERR_ARG,
                "the snapshot was taken on another handle",
            ));
        }
        let Some(pos) = s.snaps.iter().position(|&i| i == sn.id) else {
            return Err(Fail::new(
                HS_ERR_ARG,
                format!(
                    "snapshot {} can no longer be restored (an older one was restored after \
                     it was taken, or hs_drop_snapshots was called)",
                    sn.id
                ),
            ));
        };
        s.snaps.truncate(pos + 1);
        s.hart.restore(&sn.snap);
        s.last.clear();
        Ok(HS_OK)
    })
}

/// Free a snapshot (`NULL` is allowed).
#[no_mangle]
pub unsafe extern "C" fn hs_snapshot_free(snap: *mut HsSnapshot) -> c_int {
    guard("hs_snapshot_free", || {
        // SAFETY: null or a snapshot from hs_snapshot (its tag is checked).
        let Some(sn) = (unsafe { snap.as_mut() }) else {
            return Ok(HS_OK);
        };
        if sn.magic != SNAP_MAGIC {
            return Err(Fail::new(
                HS_ERR_ARG,
                "the snapshot is not one hs_snapshot made (freed already?)",
            ));
        }
        sn.magic = 0;
        // SAFETY: made by Box::into_raw in hs_snapshot and not freed before.
        drop(unsafe { Box::from_raw(snap) });
        Ok(HS_OK)
    })
}

/// Forget every snapshot of the handle (stops the memory journal); they can no longer be
/// restored but must still be freed.
#[no_mangle]
pub unsafe extern "C" fn hs_drop_snapshots(h: *mut HsHart) -> c_int {
    with_hart("hs_drop_snapshots", h, |s| {
        s.hart.drop_snapshots();
        s.snaps.clear();
        Ok(HS_OK)
    })
}

// ---------------------------------------------------------------------------------------------
// Disassembly

/// The disassembly of the instruction `insn` at `pc` (a compressed one in the low 16 bits),
/// written into `buf` of `cap` bytes as `snprintf` does (cut short and NUL-terminated when it
/// does not fit). Returns the length of the whole text (without the NUL).
#[no_mangle]
pub unsafe extern "C" fn hs_disassemble(pc: u64, insn: u32, buf: *mut c_char, cap: usize) -> c_int {
    guard("hs_disassemble", || {
        let t = text::disasm(pc, insn);
        let b = bytes_mut(buf.cast::<u8>(), cap, "buf")?;
        if let Some((last, body)) = b.split_last_mut() {
            let n = t.len().min(body.len());
            body[..n].copy_from_slice(&t.as_bytes()[..n]);
            if n < body.len() {
                body[n] = 0;
            } else {
                *last = 0;
            }
        }
        Ok(count(t.len()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn last_error() -> String {
        // SAFETY: hs_last_error returns a NUL-terminated string.
        unsafe { CStr::from_ptr(hs_last_error()) }
            .to_string_lossy()
            .into_owned()
    }

    #[test]
    fn a_panic_becomes_a_status_and_a_message() {
        let r = guard("hs_test", || panic!("boom at 0x42"));
        assert_eq!(r, HS_ERR_PANIC);
        let e = last_error();
        assert!(e.starts_with("hs_test: internal error"), "{e}");
        assert!(e.contains("boom at 0x42"), "{e}");
    }

    #[test]
    fn a_panic_on_a_handle_makes_it_unusable_but_freeable() {
        let mut h = std::ptr::null_mut();
        // SAFETY: valid out pointer.
        assert_eq!(unsafe { hs_new(std::ptr::null(), &mut h) }, HS_OK);
        let r = with_hart("hs_test", h, |_| panic!("half-way"));
        assert_eq!(r, HS_ERR_PANIC);
        let mut pc = 0;
        // SAFETY: h is live.
        assert_eq!(unsafe { hs_get_pc(h, &mut pc) }, HS_ERR_PANIC);
        assert!(last_error().contains("unusable"), "{}", last_error());
        // SAFETY: h is live.
        assert_eq!(unsafe { hs_free(h) }, HS_OK);
    }

    #[test]
    fn the_handle_may_move_between_threads() {
        fn send<T: Send>() {}
        send::<HsHart>();
        send::<HsSnapshot>();
    }
}
