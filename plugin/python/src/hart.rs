//! `hartscope.Hart`: the reference hart, with its register views and snapshots.

use crate::convert::{self, csr_arg, repr, uint};
use crate::mismatch::Mismatch;
use crate::retirement::Retirement;
use crate::{err, guard, rvfi};
use plugin::RunStop;
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PySlice, PyString, PyTuple};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

static NEXT_HART_ID: AtomicU64 = AtomicU64::new(1);

/// A reference RV64GC hart: step it, or check a core's retirements against it in lockstep.
///
/// `Hart(config=None, **settings)`: the settings are `plugin::Config`'s fields as keywords
/// (`isa`, `ram_size`, `misaligned`, `hpm_counters`, `sbi`, `external_time`,
/// `interrupt_pins`, `reports` (a dict with `csr` and `fpr`), `nondet`,
/// `full_compare_every`, `max_kept`), or a `config` dict or JSON string (keywords win).
/// Unknown settings raise hartscope.Error.
#[pyclass(name = "Hart", module = "hartscope")]
pub struct Hart {
    /// Behind a mutex because a pyclass must be Sync and the hart is only Send (its console
    /// input is a `Box<dyn Read + Send>`). Calls through `&mut self` reach it with
    /// `get_mut` (no locking); only the read-only getters lock.
    h: Mutex<plugin::Hart>,
    id: u64,
    /// A panic happened inside a call: the state may be half-changed.
    poisoned: Option<String>,
    /// The first exception a device model (add_mmio) raised, to raise from the call that
    /// made the access.
    device_error: DeviceError,
    /// Snapshots are numbered; those in these ranges were invalidated by a restore.
    next_snapshot: u64,
    invalid: Vec<(u64, u64)>,
    /// Snapshots numbered below this were dropped.
    valid_from: u64,
}

/// Python settings as JSON.
fn to_json(v: &Bound<'_, PyAny>, what: &str) -> PyResult<serde_json::Value> {
    use serde_json::Value;
    if v.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = v.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if v.cast::<PyInt>().is_ok() {
        if let Ok(i) = v.extract::<u64>() {
            return Ok(Value::from(i));
        }
        if let Ok(i) = v.extract::<i64>() {
            return Ok(Value::from(i));
        }
        return Err(err(format!("{what}: {} is out of range", repr(v))));
    }
    if let Ok(f) = v.cast::<PyFloat>() {
        return serde_json::Number::from_f64(f.value())
            .map(Value::Number)
            .ok_or_else(|| err(format!("{what}: {} is not a number", repr(v))));
    }
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(Value::String(s.to_cow()?.into_owned()));
    }
    if let Ok(d) = v.cast::<PyDict>() {
        let mut m = serde_json::Map::new();
        for (k, x) in d.iter() {
            let k: String = k
                .extract()
                .map_err(|_| err(format!("{what}: key {} is not a string", repr(&k))))?;
            let x = to_json(&x, &format!("{what}.{k}"))?;
            m.insert(k, x);
        }
        return Ok(Value::Object(m));
    }
    if v.cast::<PyList>().is_ok() || v.cast::<PyTuple>().is_ok() {
        let items: Vec<Bound<'_, PyAny>> = v.extract()?;
        return items
            .iter()
            .enumerate()
            .map(|(i, x)| to_json(x, &format!("{what}[{i}]")))
            .collect::<PyResult<Vec<_>>>()
            .map(Value::Array);
    }
    Err(err(format!(
        "{what}: {} is not a setting (a bool, number, string or dict)",
        repr(v)
    )))
}

type DeviceError = std::sync::Arc<Mutex<Option<PyErr>>>;

/// A device model written in Python (`Hart.add_mmio`).
struct PyDevice {
    base: u64,
    read: Py<PyAny>,
    write: Option<Py<PyAny>>,
    error: DeviceError,
}

impl PyDevice {
    fn fail(&self, e: PyErr) {
        let mut slot = self.error.lock().unwrap_or_else(|p| p.into_inner());
        slot.get_or_insert(e);
    }
}

impl plugin::ExternalDevice for PyDevice {
    fn load(&mut self, offset: u64, size: u8) -> Option<u64> {
        // The GIL is held in step() and taken back here inside run().
        Python::attach(|py| {
            let v = match self.read.bind(py).call1((offset, size)) {
                Ok(v) => v,
                Err(e) => {
                    self.fail(e);
                    return None;
                }
            };
            if v.is_none() {
                return None;
            }
            let what = format!(
                "the device model's read at 0x{:x} ({size} bytes)",
                self.base.wrapping_add(offset)
            );
            match uint(&v, &what, 8 * size.min(8) as u32) {
                Ok(x) => Some(x),
                Err(e) => {
                    self.fail(e);
                    None
                }
            }
        })
    }

    fn store(&mut self, offset: u64, size: u8, value: u64) -> bool {
        let Some(w) = &self.write else {
            return true;
        };
        Python::attach(|py| match w.bind(py).call1((offset, size, value)) {
            Ok(r) => !r.is_instance_of::<PyBool>() || r.is_truthy().unwrap_or(true),
            Err(e) => {
                self.fail(e);
                false
            }
        })
    }
}

fn stop_name(s: &RunStop) -> &'static str {
    match s {
        RunStop::Limit => "limit",
        RunStop::Pc => "until_pc",
        RunStop::Exit(_) => "exit",
        RunStop::Stopped(_) => "stopped",
    }
}

impl Hart {
    fn usable(&self) -> PyResult<()> {
        match &self.poisoned {
            None => Ok(()),
            Some(m) => Err(err(format!(
                "this hart can no longer be used: an earlier call failed inside hartscope \
                 ({m})"
            ))),
        }
    }

    /// The plugin's hart, for reading.
    fn hart(&self) -> MutexGuard<'_, plugin::Hart> {
        self.h.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The plugin's hart, for changing (no locking: `&mut self` is exclusive).
    fn hart_mut(&mut self) -> &mut plugin::Hart {
        self.h.get_mut().unwrap_or_else(|p| p.into_inner())
    }

    /// Run `f` on the plugin's hart, under [`guard`]: a panic poisons this hart.
    fn call<T>(&mut self, what: &str, f: impl FnOnce(&mut plugin::Hart) -> T) -> PyResult<T> {
        self.usable()?;
        let h = self.hart_mut();
        guard(what, || f(h)).inspect_err(|e| self.poisoned = Some(e.to_string()))
    }

    /// A device model's exception, if one was raised since the last look.
    fn device_result(&self) -> PyResult<()> {
        match self
            .device_error
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
        {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn check_ret(&mut self, py: Python<'_>, r: &plugin::Retirement) -> PyResult<Py<PyList>> {
        let ms = self.call("check", |h| h.step_check(r).map(|m| m.to_vec()))?;
        self.device_result()?;
        Ok(Mismatch::list(py, &ms.map_err(err)?)?.unbind())
    }

    fn rvfi(&mut self, py: Python<'_>, d: &Bound<'_, PyDict>) -> PyResult<Py<PyList>> {
        let r = rvfi::from_dict(d)?;
        let ms = self.call("check_rvfi", |h| h.step_check_rvfi(&r))?;
        self.device_result()?;
        Ok(Mismatch::list(py, &ms.map_err(err)?)?.unbind())
    }

    fn reg_get(&self, file: u8, n: u8) -> u64 {
        let h = self.hart();
        if file == plugin::REG_X {
            h.x(n)
        } else {
            h.f(n)
        }
    }
}

#[pymethods]
impl Hart {
    #[new]
    #[pyo3(signature = (config = None, **settings))]
    fn new(
        config: Option<&Bound<'_, PyAny>>,
        settings: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let mut obj = serde_json::Map::new();
        if let Some(c) = config.filter(|c| !c.is_none()) {
            let v = if let Ok(s) = c.cast::<PyString>() {
                let s = s.to_cow()?;
                if s.trim().is_empty() {
                    serde_json::Value::Object(Default::default())
                } else {
                    serde_json::from_str(&s).map_err(|e| err(format!("settings: {e}")))?
                }
            } else {
                to_json(c, "config")?
            };
            match v {
                serde_json::Value::Object(m) => obj = m,
                _ => {
                    return Err(err(
                        "settings: the config is not an object (a dict or a JSON object)",
                    ))
                }
            }
        }
        if let Some(s) = settings {
            for (k, v) in s.iter() {
                let k: String = k.extract()?;
                let v = to_json(&v, &k)?;
                obj.insert(k, v);
            }
        }
        let cfg =
            match plugin::Config::from_json(&serde_json::Value::Object(obj.clone()).to_string()) {
                Ok(c) => c,
                Err(e) => {
                    // serde names an unknown field but not one of the wrong type: find it.
                    for (k, v) in &obj {
                        let one = serde_json::json!({ k: v }).to_string();
                        if let Err(e) = plugin::Config::from_json(&one) {
                            let msg = e.to_string();
                            let msg = msg.strip_prefix("settings: ").unwrap_or(&msg);
                            let msg = msg.split(" at line 1 column").next().unwrap_or(msg);
                            return Err(err(format!("settings: {k}: {msg}")));
                        }
                    }
                    return Err(err(e));
                }
            };
        let h = guard("Hart", || plugin::Hart::new(&cfg))?.map_err(err)?;
        Ok(Hart {
            h: Mutex::new(h),
            id: NEXT_HART_ID.fetch_add(1, Ordering::Relaxed),
            poisoned: None,
            device_error: DeviceError::default(),
            next_snapshot: 0,
            invalid: Vec::new(),
            valid_from: 0,
        })
    }

    /// The settings the hart was made with, as a dict.
    #[getter]
    fn config<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let s = serde_json::to_string(self.hart().config()).map_err(err)?;
        py.import("json")?.call_method1("loads", (s,))
    }

    /// Load an ELF file and reset to its entry point (a0 = hart id, a1 = the device tree's
    /// address, as Spike's boot ROM leaves them). Returns the entry point.
    fn load_elf(&mut self, path: PathBuf) -> PyResult<u64> {
        self.call("load_elf", |h| h.load_elf(&path))?.map_err(err)
    }

    /// Load an ELF image from bytes (`name` is for messages). Returns the entry point.
    #[pyo3(signature = (data, name = "<bytes>"))]
    fn load_elf_bytes(&mut self, data: PyBackedBytes, name: &str) -> PyResult<u64> {
        self.call("load_elf_bytes", |h| h.load_elf_bytes(&data, name))?
            .map_err(err)
    }

    /// Copy raw bytes (bytes or bytearray) into RAM at physical address `addr`.
    fn load_image(&mut self, addr: u64, data: PyBackedBytes) -> PyResult<()> {
        self.call("load_image", |h| h.load_image(addr, &data))?
            .map_err(err)
    }

    /// Read `n` bytes of physical memory (RAM) at `addr`.
    fn read_mem<'py>(&self, py: Python<'py>, addr: u64, n: u64) -> PyResult<Bound<'py, PyBytes>> {
        self.usable()?;
        let ram = self.hart().config().ram_size;
        if n > ram {
            return Err(err(format!(
                "a memory read at 0x{addr:x} ({n} bytes) is larger than RAM ({ram} bytes)"
            )));
        }
        let mut buf = vec![0u8; n as usize];
        guard("read_mem", || self.hart().read_mem(addr, &mut buf))?.map_err(err)?;
        Ok(PyBytes::new(py, &buf))
    }

    /// Write physical memory (RAM) as another bus agent or a backdoor would.
    fn write_mem(&mut self, addr: u64, data: PyBackedBytes) -> PyResult<()> {
        self.call("write_mem", |h| h.write_mem(addr, &data))?
            .map_err(err)
    }

    /// A warm reset: start at `pc` in M-mode with the integer and FP registers cleared, no
    /// reservation and the `csr_reset` values set again; other CSRs and memory keep theirs.
    fn reset(&mut self, pc: u64) -> PyResult<()> {
        self.call("reset", |h| h.reset(pc))
    }

    /// The pc of the next instruction (settable).
    #[getter]
    fn pc(&self) -> u64 {
        self.hart().pc()
    }
    #[setter]
    fn set_pc(&mut self, pc: u64) -> PyResult<()> {
        self.call("pc", |h| h.set_pc(pc))
    }

    /// The integer registers: `hart.x[10]`, `hart.x["a0"]`, `hart.x[5] = 1`, `list(hart.x)`.
    #[getter]
    fn x(slf: &Bound<'_, Self>) -> RegisterFile {
        RegisterFile {
            hart: slf.clone().unbind(),
            file: plugin::REG_X,
        }
    }

    /// The floating-point registers (NaN-boxed 64-bit values), as `x`.
    #[getter]
    fn f(slf: &Bound<'_, Self>) -> RegisterFile {
        RegisterFile {
            hart: slf.clone().unbind(),
            file: plugin::REG_F,
        }
    }

    /// A CSR's value by name (`"mstatus"`) or address (`0x300`).
    fn csr(&self, csr: &Bound<'_, PyAny>) -> PyResult<u64> {
        let a = csr_arg(csr, "csr")?;
        self.hart()
            .csr(a)
            .ok_or_else(|| err(format!("csr: CSR 0x{a:03x}: this hart has no such CSR")))
    }

    /// Write a CSR as a debugger would (WARL fields keep what they can hold).
    fn set_csr(&mut self, csr: &Bound<'_, PyAny>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let a = csr_arg(csr, "set_csr")?;
        let v = uint(value, "set_csr: value", 64)?;
        self.call("set_csr", |h| h.set_csr(a, v))?.map_err(err)
    }

    /// Any register by name: `a0`, `x10`, `f3`, `fa0`, `mstatus`, `0x300`.
    fn reg(&self, name: &str) -> PyResult<u64> {
        self.usable()?;
        guard("reg", || self.hart().reg_by_name(name))?.map_err(err)
    }

    /// The current privilege level (0 U, 1 S, 3 M).
    #[getter]
    fn privilege(&self) -> u8 {
        self.hart().privilege()
    }

    /// Drive the interrupt pins (with `interrupt_pins=True`): the mip bits MSIP (1 << 3), MTIP
    /// (1 << 7), SEIP (1 << 9), MEIP (1 << 11), LCOFIP (1 << 13). Takes effect before the
    /// next step.
    fn set_mip(&mut self, bits: u64) -> PyResult<()> {
        self.call("set_mip", |h| h.set_mip(bits))
    }

    /// Set mtime (external time).
    fn set_time(&mut self, t: u64) -> PyResult<()> {
        self.call("set_time", |h| h.set_time(t))
    }

    /// The LR reservation is lost.
    fn cancel_reservation(&mut self) -> PyResult<()> {
        self.call("cancel_reservation", |h| h.cancel_reservation())
    }

    /// Raise a trap now: the next step or check takes it at the current pc instead of
    /// executing (a bus error the model cannot know: `raise_trap(5, tval=addr)`; an interrupt
    /// the core decided to take: `raise_trap(11, interrupt=True)`, whatever mie says).
    #[pyo3(signature = (code, tval=0, interrupt=false))]
    fn raise_trap(&mut self, code: u64, tval: u64, interrupt: bool) -> PyResult<()> {
        self.call("raise_trap", |h| h.raise_trap(interrupt, code, tval))?
            .map_err(err)
    }

    /// The interrupt the hart would take now (its name), or None.
    fn pending_interrupt(&mut self) -> PyResult<Option<&'static str>> {
        Ok(self
            .call("pending_interrupt", |h| h.pending_interrupt())?
            .map(|i| i.name()))
    }

    /// Steps stepped or checked since the last reset or load.
    #[getter]
    fn order(&self) -> u64 {
        self.hart().order()
    }

    /// The program's exit code once it has ended (test finisher or HTIF), else None.
    #[getter]
    fn exit_code(&self) -> Option<i32> {
        match self.hart().exit() {
            Some(RunStop::Exit(c)) => Some(*c),
            _ => None,
        }
    }

    /// Why the program cannot go on, once it cannot (a trap loop, a WFI nothing can wake,
    /// a reset request), else None.
    #[getter]
    fn stop_message(&self) -> Option<String> {
        match self.hart().exit() {
            Some(RunStop::Stopped(m)) => Some(m.clone()),
            _ => None,
        }
    }

    /// Whether the program has ended or stopped (exit_code or stop_message is set).
    #[getter]
    fn done(&self) -> bool {
        self.hart().exit().is_some()
    }

    /// What the program printed (HTIF and UART) with `console="capture"`.
    fn console_output<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.hart().console_output())
    }

    /// Execute one step (an instruction, or the interrupt that is pending and enabled) and
    /// return its Retirement. When the program ends, `exit_code` is set (`done`).
    fn step(&mut self) -> PyResult<Retirement> {
        let r = self.call("step", |h| h.step())?;
        self.device_result()?;
        Ok(Retirement { r })
    }

    /// Run up to `n` steps with the GIL released (other Python threads go on), stopping
    /// before the instruction at `until_pc` or when the program ends. Returns (steps,
    /// reason): reason is "limit", "until_pc", "exit" (see `exit_code`) or "stopped" (see
    /// `stop_message`).
    #[pyo3(signature = (n, until_pc = None))]
    fn run(
        mut slf: PyRefMut<'_, Self>,
        py: Python<'_>,
        n: u64,
        until_pc: Option<u64>,
    ) -> PyResult<(u64, &'static str)> {
        slf.usable()?;
        let this = &mut *slf;
        // One call, not chunks: a run that stops at a limit ends the hart's time quantum
        // early (Spike's time), so chunks would change what the program does. The price:
        // Ctrl-C waits for the run to end.
        let h = this.hart_mut();
        let res = py.detach(|| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| h.run(n, until_pc)))
        });
        let (total, stop) = match res {
            Ok(r) => r,
            Err(_) => {
                let e = err("run: internal error in hartscope (a panic; see stderr)");
                this.poisoned = Some(e.to_string());
                return Err(e);
            }
        };
        this.device_result()?;
        Ok((total, stop_name(&stop)))
    }

    /// Step with the core's retirement and compare: `check(retirement)` with a Retirement,
    /// or `check(rvfi_dict)` with RVFI signals (see check_rvfi). Returns the list of
    /// Mismatch (empty: the core did what the architecture says). After a mismatch the hart
    /// takes the core's state and goes on from there.
    fn check(&mut self, py: Python<'_>, dut: &Bound<'_, PyAny>) -> PyResult<Py<PyList>> {
        if let Ok(r) = dut.cast::<Retirement>() {
            let r = r.borrow().r;
            return self.check_ret(py, &r);
        }
        if let Ok(d) = dut.cast::<PyDict>() {
            return self.rvfi(py, d);
        }
        Err(err(format!(
            "check: {} is neither a Retirement nor a dict of RVFI signals",
            repr(dut)
        )))
    }

    /// Check one RVFI retirement, given as a dict of its signals (`rvfi_valid` or `valid`,
    /// `order`, `insn`, `trap`, `halt`, `intr`, `mode`, `ixl`, `rs1_addr`, ..., `pc_rdata`,
    /// `pc_wdata`, `mem_addr`, `mem_rmask`, `mem_wmask`, `mem_rdata`, `mem_wdata`, `frd_wen`,
    /// `frd_addr`, `frd_wdata`, and `csr`: a list of (addr or name, wmask, wdata)). A
    /// record with valid 0 checks nothing. Returns the list of Mismatch.
    fn check_rvfi(&mut self, py: Python<'_>, rvfi: &Bound<'_, PyDict>) -> PyResult<Py<PyList>> {
        self.rvfi(py, rvfi)
    }

    /// Compare every register with the core's (the state its checked retirements built);
    /// returns the list of Mismatch.
    fn compare_all(&mut self, py: Python<'_>) -> PyResult<Py<PyList>> {
        let ms = self.call("compare_all", |h| h.compare_all().to_vec())?;
        Ok(Mismatch::list(py, &ms)?.unbind())
    }

    /// Retirements that mismatched so far.
    #[getter]
    fn errors(&self) -> u64 {
        self.hart().errors()
    }

    /// Retirements checked so far.
    #[getter]
    fn checked(&self) -> u64 {
        self.hart().checked()
    }

    /// The mismatches kept so far (at most `max_kept`), oldest first.
    #[getter]
    fn mismatches<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        Mismatch::list(py, self.hart().mismatches())
    }

    /// A device of the testbench's, modelled in Python, at physical addresses `base` to
    /// `base + size - 1`: the hart's loads there call `read(offset, size)`, which returns the
    /// value (an int; None: an access fault), and its stores call `write(offset, size,
    /// value)` (False: an access fault). A region named in the `devices` setting gets its
    /// model this way; with a core being checked, its loads from the region are its own and
    /// the model is not called for them. An exception the model raises is raised from the
    /// call that made the access (the hart took an access fault there).
    #[pyo3(signature = (base, size, read, write = None))]
    fn add_mmio(
        &mut self,
        base: u64,
        size: u64,
        read: Py<PyAny>,
        write: Option<Py<PyAny>>,
    ) -> PyResult<()> {
        let model = PyDevice {
            base,
            read,
            write,
            error: self.device_error.clone(),
        };
        self.call("add_mmio", |h| h.add_device(base, size, Box::new(model)))?
            .map_err(err)
    }

    /// Record every checked retirement as a Bluespec tandem stream in `path`, so that
    /// `hartscope tandem verify path` replays the session.
    fn record(&mut self, path: PathBuf) -> PyResult<()> {
        self.call("record", |h| h.record(&path))?.map_err(err)
    }

    /// Finish the recording (also done when the hart is garbage-collected, where an error
    /// is lost).
    fn finish_recording(&mut self) -> PyResult<()> {
        self.call("finish_recording", |h| h.finish_recording())?
            .map_err(err)
    }

    /// Save the hart's whole state (registers, CSRs, privilege, reservation, counters,
    /// time, and the memory it writes from now on).
    fn snapshot(&mut self) -> PyResult<Snapshot> {
        let s = self.call("snapshot", |h| h.snapshot())?;
        let seq = self.next_snapshot;
        self.next_snapshot += 1;
        Ok(Snapshot {
            s,
            hart: self.id,
            seq,
        })
    }

    /// Go back to a snapshot taken on this hart. Snapshots taken after it can no longer be
    /// restored.
    fn restore(&mut self, s: PyRef<'_, Snapshot>) -> PyResult<()> {
        if s.hart != self.id {
            return Err(err("restore: the snapshot was taken on another hart"));
        }
        if s.seq < self.valid_from || self.invalid.iter().any(|&(a, b)| s.seq > a && s.seq < b) {
            return Err(err(
                "restore: the snapshot was taken after one that was restored since (or \
                 before drop_snapshots()): the memory it needs is gone",
            ));
        }
        self.call("restore", |h| h.restore(&s.s))?;
        self.invalid.push((s.seq, self.next_snapshot));
        Ok(())
    }

    /// Forget all snapshots (stops the memory journal that makes them cost nothing to
    /// take).
    fn drop_snapshots(&mut self) -> PyResult<()> {
        self.call("drop_snapshots", |h| h.drop_snapshots())?;
        // Every snapshot so far is gone.
        self.valid_from = self.next_snapshot;
        Ok(())
    }

    fn __repr__(&self) -> String {
        let h = self.hart();
        format!(
            "<hartscope.Hart {} pc=0x{:x} order={} checked={} errors={}>",
            h.config().isa,
            h.pc(),
            h.order(),
            h.checked(),
            h.errors()
        )
    }
}

/// A saved state of one hart (`Hart.snapshot()`), to `Hart.restore()`.
#[pyclass(name = "Snapshot", module = "hartscope", frozen)]
pub struct Snapshot {
    s: plugin::Snapshot,
    hart: u64,
    seq: u64,
}

#[pymethods]
impl Snapshot {
    fn __repr__(&self) -> String {
        format!("<hartscope.Snapshot {} of hart {}>", self.seq, self.hart)
    }
}

/// The integer (`Hart.x`) or floating-point (`Hart.f`) registers of a hart: index by
/// number (0-31, negative from the end) or ABI name, slice, assign, iterate.
#[pyclass(name = "RegisterFile", module = "hartscope")]
pub struct RegisterFile {
    hart: Py<Hart>,
    file: u8,
}

impl RegisterFile {
    fn index(&self, i: &Bound<'_, PyAny>) -> PyResult<u8> {
        let name = if self.file == plugin::REG_X { "x" } else { "f" };
        if let Ok(s) = i.cast::<PyString>() {
            let s = s.to_cow()?;
            return match convert::gpr_fpr_by_name(&s) {
                Some((f, n)) if f == self.file => Ok(n as u8),
                _ => Err(err(format!("{name}[{s:?}]: no such register"))),
            };
        }
        let n: i64 = i
            .extract()
            .map_err(|_| err(format!("{name}[{}]: a register number or name", repr(i))))?;
        let n = if n < 0 { n + 32 } else { n };
        if !(0..32).contains(&n) {
            return Err(PyIndexError::new_err(format!(
                "{name}[{}]: register index out of range (0 to 31)",
                repr(i)
            )));
        }
        Ok(n as u8)
    }
}

#[pymethods]
impl RegisterFile {
    fn __len__(&self) -> usize {
        32
    }

    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        i: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let h = self.hart.bind(py).try_borrow()?;
        if let Ok(s) = i.cast::<PySlice>() {
            let ind = s.indices(32)?;
            let mut out = Vec::new();
            let mut k = ind.start;
            for _ in 0..ind.slicelength {
                out.push(h.reg_get(self.file, k as u8));
                k += ind.step;
            }
            return Ok(PyList::new(py, out)?.into_any());
        }
        let n = self.index(i)?;
        Ok(h.reg_get(self.file, n).into_pyobject(py)?.into_any())
    }

    fn __setitem__(
        &self,
        py: Python<'_>,
        i: &Bound<'_, PyAny>,
        v: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let n = self.index(i)?;
        let v = uint(v, "register value", 64)?;
        let mut h = self.hart.bind(py).try_borrow_mut()?;
        let file = self.file;
        h.call("set register", |h| {
            if file == plugin::REG_X {
                h.set_x(n, v)
            } else {
                h.set_f(n, v)
            }
        })
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let h = self.hart.bind(py).try_borrow()?;
        let vals: Vec<u64> = (0..32).map(|n| h.reg_get(self.file, n)).collect();
        PyList::new(py, vals)?
            .as_any()
            .try_iter()
            .map(|i| i.into_any())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let h = self.hart.bind(py).try_borrow()?;
        let names = if self.file == plugin::REG_X {
            &tandem::names::GPR_ABI
        } else {
            &tandem::names::FPR_ABI
        };
        let regs: Vec<String> = (0..32u8)
            .map(|n| format!("{}=0x{:x}", names[n as usize], h.reg_get(self.file, n)))
            .collect();
        Ok(format!("[{}]", regs.join(", ")))
    }
}
