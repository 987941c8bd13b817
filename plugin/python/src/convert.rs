//! Python values to the plugin's and back: integers (Python ints, and anything `int()` takes,
//! such as cocotb's signal values), register names, and the named tuples `RegWrite`,
//! `MemAccess` and `Diff`.

use crate::err;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyInt, PyString};
use std::collections::HashMap;
use std::sync::OnceLock;

/// An unsigned integer of at most `bits` bits from a Python value: an int (bools count), or
/// anything `int(v)` converts (cocotb's `LogicArray`, numpy integers). `what` names it in
/// the error.
pub fn uint(v: &Bound<'_, PyAny>, what: &str, bits: u32) -> PyResult<u64> {
    let n: Bound<'_, PyInt> = match v.cast::<PyInt>() {
        Ok(i) => i.clone(),
        Err(_) => {
            if v.is_instance_of::<PyString>() {
                return Err(err(format!("{what}: {} is not an integer", repr(v))));
            }
            match v.py().get_type::<PyInt>().call1((v,)) {
                Ok(i) => i
                    .cast_into::<PyInt>()
                    .map_err(|_| err(format!("{what}: int() of {} is not an int", repr(v))))?,
                Err(e) => return Err(err(format!("{what}: {} is not an integer ({e})", repr(v)))),
            }
        }
    };
    let max = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    match n.extract::<u64>() {
        Ok(x) if x <= max => Ok(x),
        _ => Err(err(format!(
            "{what}: {} is out of range (0 to 0x{max:x})",
            repr(n.as_any())
        ))),
    }
}

/// `repr(v)`, shortened, for messages.
pub fn repr(v: &Bound<'_, PyAny>) -> String {
    let s = v
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "<unprintable>".into());
    if s.chars().count() > 80 {
        let t: String = s.chars().take(77).collect();
        format!("{t}...")
    } else {
        s
    }
}

/// A CSR's address from its name (`mstatus`, case-insensitive) or a number in text
/// (`0x300`, `768`).
pub fn csr_by_name(name: &str) -> Option<u16> {
    static NAMES: OnceLock<HashMap<String, u16>> = OnceLock::new();
    let names = NAMES.get_or_init(|| {
        (0..0x1000u16)
            .filter_map(|a| iss::csr::csr_name(a).map(|n| (n.to_ascii_lowercase(), a)))
            .collect()
    });
    let n = name.trim().to_ascii_lowercase();
    if let Some(&a) = names.get(&n) {
        return Some(a);
    }
    let num = match n.strip_prefix("0x") {
        Some(h) => u16::from_str_radix(h, 16).ok(),
        None => n.parse::<u16>().ok(),
    };
    num.filter(|&a| a < 0x1000)
}

/// A CSR given as an address or a name.
pub fn csr_arg(v: &Bound<'_, PyAny>, what: &str) -> PyResult<u16> {
    if let Ok(s) = v.cast::<PyString>() {
        let s = s.to_cow()?;
        return csr_by_name(&s).ok_or_else(|| err(format!("{what}: {s:?}: no such CSR")));
    }
    Ok(uint(v, what, 12).map_err(|_| {
        err(format!(
            "{what}: {} is not a CSR (a name or an address 0 to 0xfff)",
            repr(v)
        ))
    })? as u16)
}

/// A general-purpose or floating-point register's number from its name (`a0`, `x10`, `fp`,
/// `fa0`, `f10`): (file, number).
pub fn gpr_fpr_by_name(name: &str) -> Option<(u8, u16)> {
    use tandem::names::{FPR_ABI, GPR_ABI};
    let n = name.trim().to_ascii_lowercase();
    if let Some(i) = GPR_ABI.iter().position(|a| *a == n) {
        return Some((plugin::REG_X, i as u16));
    }
    if n == "fp" {
        return Some((plugin::REG_X, 8));
    }
    if let Some(i) = FPR_ABI.iter().position(|a| *a == n) {
        return Some((plugin::REG_F, i as u16));
    }
    let num = |s: &str| s.parse::<u16>().ok().filter(|&i| i < 32);
    if let Some(i) = n.strip_prefix('x').and_then(num) {
        return Some((plugin::REG_X, i));
    }
    n.strip_prefix('f')
        .and_then(num)
        .map(|i| (plugin::REG_F, i))
}

/// The name Python sees for a register file.
pub fn file_name(file: u8) -> &'static str {
    match file {
        plugin::REG_X => "x",
        plugin::REG_F => "f",
        plugin::REG_CSR => "csr",
        _ => "?",
    }
}

/// A register file from its name (`x`, `f`, `csr`) or number (the C constants).
pub fn file_arg(v: &Bound<'_, PyAny>, what: &str) -> PyResult<u8> {
    if let Ok(s) = v.cast::<PyString>() {
        let s = s.to_cow()?;
        return match s.as_ref() {
            "x" | "gpr" => Ok(plugin::REG_X),
            "f" | "fpr" => Ok(plugin::REG_F),
            "csr" => Ok(plugin::REG_CSR),
            o => Err(err(format!(
                "{what}: register file {o:?} (\"x\", \"f\" or \"csr\")"
            ))),
        };
    }
    match uint(v, what, 8)? as u8 {
        f @ (plugin::REG_X | plugin::REG_F | plugin::REG_CSR) => Ok(f),
        f => Err(err(format!("{what}: register file {f} (0 x, 1 f, 2 csr)"))),
    }
}

static REG_WRITE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static MEM_ACCESS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static DIFF: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

fn tuple_type<'py>(
    py: Python<'py>,
    cell: &'static PyOnceLock<Py<PyAny>>,
    name: &str,
    fields: &str,
    doc: &str,
) -> PyResult<&'py Bound<'py, PyAny>> {
    cell.get_or_try_init(py, || -> PyResult<Py<PyAny>> {
        let t = py
            .import("collections")?
            .getattr("namedtuple")?
            .call1((name, fields))?;
        t.setattr("__module__", "hartscope")?;
        t.setattr("__doc__", doc)?;
        Ok(t.unbind())
    })
    .map(|t| t.bind(py))
}

/// `hartscope.RegWrite(file, num, value)`: file is "x", "f" or "csr".
pub fn reg_write_type(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    tuple_type(
        py,
        &REG_WRITE,
        "RegWrite",
        "file num value",
        "A register a retirement wrote: file (\"x\", \"f\" or \"csr\"), num (0-31 or the \
         CSR's address) and the value it holds afterwards.",
    )
}

/// `hartscope.MemAccess(kind, size, vaddr, paddr, rdata, wdata)`.
pub fn mem_access_type(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    tuple_type(
        py,
        &MEM_ACCESS,
        "MemAccess",
        "kind size vaddr paddr rdata wdata",
        "A data memory access: kind (\"load\" or \"store\"), size in bytes, the virtual and \
         physical address (paddr None: not known), the value loaded (rdata) or stored \
         (wdata).",
    )
}

/// `hartscope.Diff(element, expected, actual)`.
pub fn diff_type(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    tuple_type(
        py,
        &DIFF,
        "Diff",
        "element expected actual",
        "One element that differed: its name (\"x10/a0\", \"pc\", \"mstatus\", \"store data\"), \
         the reference hart's value and the core's.",
    )
}

pub fn add_tuple_types(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("RegWrite", reg_write_type(py)?)?;
    m.add("MemAccess", mem_access_type(py)?)?;
    m.add("Diff", diff_type(py)?)?;
    Ok(())
}
