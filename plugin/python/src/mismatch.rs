//! `hartscope.Mismatch`: one retirement of the core that differed from the reference hart.

use crate::convert;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// One retirement whose core values differ from the reference hart's.
///
/// `order` is the retirement's position (the hart's count of steps checked since its reset or
/// load), `kind` what it was (`instruction`, `exception`, `interrupt`, `full-compare`), `pc`
/// where it was, `insn` (hex) and `disasm` the core's instruction, `ref_insn` the reference
/// hart's when it differs, and `diffs` a list of Diff(element, expected, actual) with the
/// reference's value as `expected` and the core's as `actual`. `str(m)` is the
/// human-readable report.
#[pyclass(name = "Mismatch", module = "hartscope", frozen, get_all)]
pub struct Mismatch {
    pub order: u64,
    /// Byte offset of the retirement in the recording (when recording).
    pub offset: u64,
    pub kind: String,
    pub pc: u64,
    pub insn: Option<String>,
    pub disasm: Option<String>,
    pub ref_insn: Option<String>,
    pub diffs: Py<PyList>,
}

impl Mismatch {
    pub fn new(py: Python<'_>, m: &plugin::Mismatch) -> PyResult<Mismatch> {
        let t = convert::diff_type(py)?;
        let diffs = m
            .diffs
            .iter()
            .map(|d| t.call1((&d.element, &d.expected, &d.actual)))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(Mismatch {
            order: m.group,
            offset: m.offset,
            kind: m.kind.clone(),
            pc: m.pc,
            insn: m.insn.clone(),
            disasm: m.disasm.clone(),
            ref_insn: m.ref_insn.clone(),
            diffs: PyList::new(py, diffs)?.unbind(),
        })
    }

    pub fn list<'py>(py: Python<'py>, ms: &[plugin::Mismatch]) -> PyResult<Bound<'py, PyList>> {
        let items = ms
            .iter()
            .map(|m| Bound::new(py, Mismatch::new(py, m)?))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, items)
    }
}

#[pymethods]
impl Mismatch {
    /// The elements that differed, by name: {element: (expected, actual)}.
    fn elements<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for it in self.diffs.bind(py).iter() {
            let (e, x, a): (String, String, String) = it.extract()?;
            d.set_item(e, (x, a))?;
        }
        Ok(d)
    }

    /// A dict of every field (for JSON).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("order", self.order)?;
        d.set_item("offset", self.offset)?;
        d.set_item("kind", &self.kind)?;
        d.set_item("pc", self.pc)?;
        d.set_item("insn", &self.insn)?;
        d.set_item("disasm", &self.disasm)?;
        d.set_item("ref_insn", &self.ref_insn)?;
        let diffs = PyList::empty(py);
        for it in self.diffs.bind(py).iter() {
            let (e, x, a): (String, String, String) = it.extract()?;
            let dd = PyDict::new(py);
            dd.set_item("element", e)?;
            dd.set_item("expected", x)?;
            dd.set_item("actual", a)?;
            diffs.append(dd)?;
        }
        d.set_item("diffs", diffs)?;
        Ok(d)
    }

    fn __str__(&self, py: Python<'_>) -> PyResult<String> {
        let insn = match (&self.insn, &self.disasm) {
            (Some(i), Some(d)) => format!(": {i}  {d}"),
            (Some(i), None) => format!(": {i}"),
            _ => String::new(),
        };
        let mut s = format!(
            "mismatch at retirement {}, {} at pc 0x{:016x}{insn}",
            self.order, self.kind, self.pc
        );
        if let Some(r) = &self.ref_insn {
            s += &format!("\n    the reference hart executed {r}");
        }
        for it in self.diffs.bind(py).iter() {
            let (e, x, a): (String, String, String) = it.extract()?;
            s += &format!("\n    {e:<14} expected {x:<20} core {a}");
        }
        Ok(s)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let mut s = format!(
            "<Mismatch order={} {} pc=0x{:x}",
            self.order, self.kind, self.pc
        );
        if let Some(d) = &self.disasm {
            s += &format!(" '{d}'");
        }
        for it in self.diffs.bind(py).iter() {
            let (e, x, a): (String, String, String) = it.extract()?;
            s += &format!(" {e}: expected {x}, core {a};");
        }
        if s.ends_with(';') {
            s.pop();
        }
        s += ">";
        Ok(s)
    }
}
