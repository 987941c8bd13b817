//! hartscope's Python module (`import hartscope`): the `plugin` crate's lockstep reference
//! model for cocotb and pyuvm testbenches and for scripts.
//!
//! A thin front end: every call goes to [`plugin::Hart`]; what is here turns Python values
//! into the plugin's plain structures and back, and errors into `hartscope.Error`. The
//! pieces:
//! - [`hart`]: `hartscope.Hart` (configure, load, step, run with the GIL released, check),
//!   its register views `Hart.x` / `Hart.f` and `hartscope.Snapshot`;
//! - [`retirement`]: `hartscope.Retirement`, one step of a hart or of the core under test,
//!   built from keywords for checking a DUT, and turned into RVFI signals for driving ports;
//! - [`rvfi`]: a dict of RVFI signals (`rvfi_valid`, `rvfi_order`, ...) as the plugin's
//!   `Rvfi` structure;
//! - [`mismatch`]: `hartscope.Mismatch`, what differed and where;
//! - [`convert`]: integers, register names and values shared by the above.
//!
//! No call lets a panic reach Python: each call into the plugin runs under
//! [`guard`], which turns a panic into `hartscope.Error` and refuses further use of that
//! hart (its state may be half-changed).

mod convert;
mod hart;
mod mismatch;
mod retirement;
mod rvfi;

use pyo3::prelude::*;

pyo3::create_exception!(
    hartscope,
    Error,
    pyo3::exceptions::PyException,
    "What went wrong in hartscope: bad settings, a file that cannot be loaded, an address \
     outside RAM, an unknown register, a retirement or RVFI record that cannot be checked. \
     The message says what and where."
);

/// `hartscope.Error` with this message.
pub(crate) fn err(e: impl std::fmt::Display) -> PyErr {
    Error::new_err(e.to_string())
}

/// Run `f`, turning a panic into `hartscope.Error` (the plugin should never panic; if it
/// does, Python gets an exception, not an abort or a `PanicException`).
pub(crate) fn guard<T>(what: &str, f: impl FnOnce() -> T) -> PyResult<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|p| {
        let msg = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(no message)".into());
        err(format!("{what}: internal error in hartscope: {msg}"))
    })
}

/// The disassembly of an instruction word (a compressed one in the low 16 bits when `len`
/// is 2; `len` defaults to what the low bits say).
#[pyfunction]
#[pyo3(signature = (insn, pc = 0, len = None))]
fn disasm(insn: u32, pc: u64, len: Option<u8>) -> PyResult<String> {
    let len = len.unwrap_or(if insn & 3 == 3 { 4 } else { 2 });
    if len != 2 && len != 4 {
        return Err(err(format!("disasm: length {len} (2 or 4)")));
    }
    guard("disasm", || tandem::names::disasm(pc, insn, len))
}

#[pymodule]
fn hartscope(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("Error", py.get_type::<Error>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("API_VERSION", plugin::API_VERSION)?;
    m.add_class::<hart::Hart>()?;
    m.add_class::<hart::RegisterFile>()?;
    m.add_class::<hart::Snapshot>()?;
    m.add_class::<retirement::Retirement>()?;
    m.add_class::<retirement::SpikeLog>()?;
    m.add_class::<mismatch::Mismatch>()?;
    m.add_function(wrap_pyfunction!(disasm, m)?)?;
    convert::add_tuple_types(m)?;
    for (name, v) in [
        ("TRAP_NONE", plugin::TRAP_NONE),
        ("TRAP_EXCEPTION", plugin::TRAP_EXCEPTION),
        ("TRAP_INTERRUPT", plugin::TRAP_INTERRUPT),
    ] {
        m.add(name, v)?;
    }
    for (name, v) in [
        ("VALID_PRV", plugin::VALID_PRV),
        ("VALID_NEXT_PRV", plugin::VALID_NEXT_PRV),
        ("VALID_CAUSE", plugin::VALID_CAUSE),
        ("VALID_TVAL", plugin::VALID_TVAL),
        ("VALID_NEXT_PC", plugin::VALID_NEXT_PC),
        ("VALID_PC", plugin::VALID_PC),
        ("VALID_ALL", plugin::VALID_ALL),
    ] {
        m.add(name, v)?;
    }
    m.add("PIN_BITS", plugin::PIN_BITS)?;
    Ok(())
}
