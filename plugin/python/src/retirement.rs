//! `hartscope.Retirement`: one step of a hart (what `Hart.step()` returns) or of the core
//! under test (built from keywords and given to `Hart.check()`); and `hartscope.SpikeLog`,
//! Spike's commit log read as retirements.

use crate::convert::{self, file_arg, file_name, repr, uint};
use crate::{err, guard};
use plugin::{MemAccess, RegWrite, MAX_MEM, MAX_WRITES, MEM_LOAD, MEM_STORE, PADDR_UNKNOWN};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use std::fs::File;
use std::io::BufReader;

/// One step of a hart: an instruction that retired or raised an exception, or an interrupt
/// taken before any instruction.
///
/// `Retirement(*, order=0, pc=None, next_pc=None, insn=0, len=None, prv=None, next_prv=None,
/// trap=0, cause=None, tval=None, writes=(), mem=(), valid=None)` builds the retirement of
/// the core under test. A field left out (None) is not compared: the reference hart's value
/// is taken. `len` defaults to what the instruction's low bits say (0 for an interrupt);
/// `trap` is 0 / "none", 1 / "exception" or 2 / "interrupt"; `writes` is a list of
/// (file, num, value) with file "x", "f" or "csr" (or of (name, value): "a0", "fa0",
/// "mstatus"); `mem` is a list of (kind, size, vaddr[, paddr[, rdata[, wdata]]]) or dicts
/// with those keys, kind "load" or "store".
#[pyclass(name = "Retirement", module = "hartscope")]
#[derive(Clone)]
pub struct Retirement {
    pub r: plugin::Retirement,
}

fn trap_arg(v: &Bound<'_, PyAny>) -> PyResult<u8> {
    if let Ok(s) = v.cast::<PyString>() {
        return match s.to_cow()?.as_ref() {
            "none" => Ok(plugin::TRAP_NONE),
            "exception" => Ok(plugin::TRAP_EXCEPTION),
            "interrupt" => Ok(plugin::TRAP_INTERRUPT),
            o => Err(err(format!(
                "Retirement: trap {o:?} (\"none\", \"exception\" or \"interrupt\")"
            ))),
        };
    }
    match uint(v, "Retirement: trap", 8)? as u8 {
        t @ 0..=2 => Ok(t),
        t => Err(err(format!(
            "Retirement: trap {t} (0 none, 1 exception, 2 interrupt)"
        ))),
    }
}

fn prv_arg(v: u64, what: &str) -> PyResult<u8> {
    match v {
        0 | 1 | 3 => Ok(v as u8),
        _ => Err(err(format!("Retirement: {what} {v} (0 U, 1 S, 3 M)"))),
    }
}

fn opt_uint(v: Option<&Bound<'_, PyAny>>, what: &str, bits: u32) -> PyResult<Option<u64>> {
    match v {
        None => Ok(None),
        Some(v) if v.is_none() => Ok(None),
        Some(v) => uint(v, what, bits).map(Some),
    }
}

/// One element of `writes`: (file, num, value) or (name, value).
fn write_arg(v: &Bound<'_, PyAny>, i: usize) -> PyResult<RegWrite> {
    let what = format!("Retirement: writes[{i}]");
    let t: Vec<Bound<'_, PyAny>> = v.extract().map_err(|_| {
        err(format!(
            "{what}: {} is not a (file, num, value) or (name, value) tuple",
            repr(v)
        ))
    })?;
    match t.as_slice() {
        [file, num, value] => {
            let file = file_arg(file, &what)?;
            let num = if file == plugin::REG_CSR {
                convert::csr_arg(num, &what)?
            } else {
                let n = uint(num, &what, 8)?;
                if n >= 32 {
                    return Err(err(format!("{what}: register number {n} (0 to 31)")));
                }
                n as u16
            };
            Ok(RegWrite {
                file,
                num,
                value: uint(value, &what, 64)?,
            })
        }
        [name, value] => {
            let name: String = name
                .extract()
                .map_err(|_| err(format!("{what}: {} is not a register name", repr(name))))?;
            let (file, num) = match convert::gpr_fpr_by_name(&name) {
                Some(r) => r,
                None => match convert::csr_by_name(&name) {
                    Some(a) => (plugin::REG_CSR, a),
                    None => return Err(err(format!("{what}: {name:?}: no such register"))),
                },
            };
            Ok(RegWrite {
                file,
                num,
                value: uint(value, &what, 64)?,
            })
        }
        _ => Err(err(format!(
            "{what}: {} is not a (file, num, value) or (name, value) tuple",
            repr(v)
        ))),
    }
}

fn kind_arg(v: &Bound<'_, PyAny>, what: &str) -> PyResult<u8> {
    if let Ok(s) = v.cast::<PyString>() {
        return match s.to_cow()?.as_ref() {
            "load" => Ok(MEM_LOAD),
            "store" => Ok(MEM_STORE),
            o => Err(err(format!("{what}: kind {o:?} (\"load\" or \"store\")"))),
        };
    }
    match uint(v, what, 8)? as u8 {
        k @ (MEM_LOAD | MEM_STORE) => Ok(k),
        k => Err(err(format!("{what}: kind {k} (1 load, 2 store)"))),
    }
}

/// One element of `mem`: a tuple (kind, size, vaddr[, paddr[, rdata[, wdata]]]) or a dict.
fn mem_arg(v: &Bound<'_, PyAny>, i: usize) -> PyResult<MemAccess> {
    let what = format!("Retirement: mem[{i}]");
    let (kind, size, vaddr, paddr, rdata, wdata);
    if let Ok(d) = v.cast::<PyDict>() {
        for k in d.keys() {
            let k: String = k.extract()?;
            if !matches!(
                k.as_str(),
                "kind" | "size" | "vaddr" | "addr" | "paddr" | "rdata" | "wdata" | "data"
            ) {
                return Err(err(format!(
                    "{what}: unknown key {k:?} (kind, size, vaddr, paddr, rdata, wdata)"
                )));
            }
        }
        let get = |k: &str| d.get_item(k);
        kind = match get("kind")? {
            Some(k) => kind_arg(&k, &what)?,
            None => return Err(err(format!("{what}: no \"kind\""))),
        };
        size = get("size")?;
        vaddr = match get("vaddr")? {
            Some(a) => Some(a),
            None => get("addr")?,
        };
        paddr = get("paddr")?;
        let data = get("data")?;
        rdata = match get("rdata")? {
            Some(x) => Some(x),
            None if kind == MEM_LOAD => data.clone(),
            None => None,
        };
        wdata = match get("wdata")? {
            Some(x) => Some(x),
            None if kind == MEM_STORE => data,
            None => None,
        };
    } else {
        let t: Vec<Bound<'_, PyAny>> = v.extract().map_err(|_| {
            err(format!(
                "{what}: {} is not a (kind, size, vaddr, paddr, rdata, wdata) tuple or a dict",
                repr(v)
            ))
        })?;
        if t.len() < 3 || t.len() > 6 {
            return Err(err(format!(
                "{what}: {} items (kind, size, vaddr[, paddr[, rdata[, wdata]]])",
                t.len()
            )));
        }
        kind = kind_arg(&t[0], &what)?;
        size = Some(t[1].clone());
        vaddr = Some(t[2].clone());
        paddr = t.get(3).cloned();
        rdata = t.get(4).cloned();
        wdata = t.get(5).cloned();
    }
    let size = match size {
        Some(s) => uint(&s, &format!("{what}: size"), 8)? as u8,
        None => return Err(err(format!("{what}: no \"size\""))),
    };
    if !matches!(size, 1 | 2 | 4 | 8) {
        return Err(err(format!("{what}: size {size} (1, 2, 4 or 8)")));
    }
    let vaddr = match vaddr {
        Some(a) => uint(&a, &format!("{what}: vaddr"), 64)?,
        None => return Err(err(format!("{what}: no \"vaddr\""))),
    };
    let paddr = opt_uint(paddr.as_ref(), &format!("{what}: paddr"), 64)?.unwrap_or(PADDR_UNKNOWN);
    Ok(MemAccess {
        kind,
        size,
        vaddr,
        paddr,
        rdata: opt_uint(rdata.as_ref(), &format!("{what}: rdata"), 64)?.unwrap_or(0),
        wdata: opt_uint(wdata.as_ref(), &format!("{what}: wdata"), 64)?.unwrap_or(0),
    })
}

fn set_writes(r: &mut plugin::Retirement, v: &Bound<'_, PyAny>) -> PyResult<()> {
    let items: Vec<Bound<'_, PyAny>> = v.extract().map_err(|_| {
        err(format!(
            "Retirement: writes: {} is not a list of register writes",
            repr(v)
        ))
    })?;
    if items.len() > MAX_WRITES {
        return Err(err(format!(
            "Retirement: writes: {} register writes (at most {MAX_WRITES})",
            items.len()
        )));
    }
    let mut out = [RegWrite::default(); MAX_WRITES];
    for (i, it) in items.iter().enumerate() {
        out[i] = write_arg(it, i)?;
    }
    r.writes = out;
    r.n_writes = items.len() as u32;
    Ok(())
}

fn set_mem(r: &mut plugin::Retirement, v: &Bound<'_, PyAny>) -> PyResult<()> {
    let items: Vec<Bound<'_, PyAny>> = v.extract().map_err(|_| {
        err(format!(
            "Retirement: mem: {} is not a list of memory accesses",
            repr(v)
        ))
    })?;
    if items.len() > MAX_MEM {
        return Err(err(format!(
            "Retirement: mem: {} accesses (at most {MAX_MEM})",
            items.len()
        )));
    }
    let mut out = [MemAccess::default(); MAX_MEM];
    for (i, it) in items.iter().enumerate() {
        out[i] = mem_arg(it, i)?;
    }
    r.mem = out;
    r.n_mem = items.len() as u32;
    Ok(())
}

pub fn writes_list<'py>(py: Python<'py>, r: &plugin::Retirement) -> PyResult<Bound<'py, PyList>> {
    let t = convert::reg_write_type(py)?;
    let items = r
        .writes()
        .iter()
        .map(|w| t.call1((file_name(w.file), w.num, w.value)))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, items)
}

pub fn mem_list<'py>(py: Python<'py>, r: &plugin::Retirement) -> PyResult<Bound<'py, PyList>> {
    let t = convert::mem_access_type(py)?;
    let items = r
        .mem()
        .iter()
        .map(|a| {
            let kind = match a.kind & !plugin::spike_log::MEM_DATA_UNKNOWN {
                MEM_LOAD => "load",
                MEM_STORE => "store",
                _ => "?",
            };
            let paddr = (a.paddr != PADDR_UNKNOWN).then_some(a.paddr);
            t.call1((kind, a.size, a.vaddr, paddr, a.rdata, a.wdata))
        })
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, items)
}

/// A register write's name for messages and repr: `a0`, `fa0`, `mstatus`.
fn write_name(w: &RegWrite) -> String {
    match w.file {
        plugin::REG_X => tandem::names::GPR_ABI[(w.num & 31) as usize].to_string(),
        plugin::REG_F => tandem::names::FPR_ABI[(w.num & 31) as usize].to_string(),
        _ => iss::csr::csr_name(w.num)
            .map(|n| n.to_string())
            .unwrap_or_else(|| format!("csr 0x{:03x}", w.num)),
    }
}

#[pymethods]
impl Retirement {
    #[new]
    #[pyo3(signature = (*, order = None, pc = None, next_pc = None, insn = None, len = None,
        prv = None, next_prv = None, trap = None, cause = None, tval = None, writes = None,
        mem = None, valid = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        order: Option<&Bound<'_, PyAny>>,
        pc: Option<&Bound<'_, PyAny>>,
        next_pc: Option<&Bound<'_, PyAny>>,
        insn: Option<&Bound<'_, PyAny>>,
        len: Option<&Bound<'_, PyAny>>,
        prv: Option<&Bound<'_, PyAny>>,
        next_prv: Option<&Bound<'_, PyAny>>,
        trap: Option<&Bound<'_, PyAny>>,
        cause: Option<&Bound<'_, PyAny>>,
        tval: Option<&Bound<'_, PyAny>>,
        writes: Option<&Bound<'_, PyAny>>,
        mem: Option<&Bound<'_, PyAny>>,
        valid: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let mut r = plugin::Retirement {
            order: opt_uint(order, "Retirement: order", 64)?.unwrap_or(0),
            insn: opt_uint(insn, "Retirement: insn", 32)?.unwrap_or(0) as u32,
            valid: 0,
            ..plugin::Retirement::default()
        };
        if let Some(t) = trap.filter(|t| !t.is_none()) {
            r.trap = trap_arg(t)?;
        }
        if let Some(pc) = opt_uint(pc, "Retirement: pc", 64)? {
            r.pc = pc;
            r.valid |= plugin::VALID_PC;
        }
        if let Some(v) = opt_uint(next_pc, "Retirement: next_pc", 64)? {
            r.next_pc = v;
            r.valid |= plugin::VALID_NEXT_PC;
        }
        if let Some(v) = opt_uint(prv, "Retirement: prv", 8)? {
            r.prv = prv_arg(v, "prv")?;
            r.valid |= plugin::VALID_PRV;
        }
        if let Some(v) = opt_uint(next_prv, "Retirement: next_prv", 8)? {
            r.next_prv = prv_arg(v, "next_prv")?;
            r.valid |= plugin::VALID_NEXT_PRV;
        }
        if let Some(v) = opt_uint(cause, "Retirement: cause", 64)? {
            r.cause = v;
            r.valid |= plugin::VALID_CAUSE;
        }
        if let Some(v) = opt_uint(tval, "Retirement: tval", 64)? {
            r.tval = v;
            r.valid |= plugin::VALID_TVAL;
        }
        r.len = match opt_uint(len, "Retirement: len", 8)? {
            Some(l) => l as u8,
            None if r.trap == plugin::TRAP_INTERRUPT => 0,
            None if r.insn & 3 == 3 => 4,
            None => 2,
        };
        if r.len == 2 {
            r.insn &= 0xffff;
        }
        if let Some(w) = writes.filter(|w| !w.is_none()) {
            set_writes(&mut r, w)?;
        }
        if let Some(m) = mem.filter(|m| !m.is_none()) {
            set_mem(&mut r, m)?;
        }
        if let Some(v) = opt_uint(valid, "Retirement: valid", 32)? {
            r.valid = v as u32;
        }
        Ok(Retirement { r })
    }

    /// Position in the sequence of retirements (from 0 after a reset or load).
    #[getter]
    fn order(&self) -> u64 {
        self.r.order
    }
    #[setter]
    fn set_order(&mut self, v: u64) {
        self.r.order = v;
    }

    /// Where the instruction is (for an interrupt: where the hart was when it took it).
    #[getter]
    fn pc(&self) -> u64 {
        self.r.pc
    }
    #[setter]
    fn set_pc(&mut self, v: u64) {
        self.r.pc = v;
        self.r.valid |= plugin::VALID_PC;
    }

    /// The pc after the step: the next instruction, or the trap vector.
    #[getter]
    fn next_pc(&self) -> u64 {
        self.r.next_pc
    }
    #[setter]
    fn set_next_pc(&mut self, v: u64) {
        self.r.next_pc = v;
        self.r.valid |= plugin::VALID_NEXT_PC;
    }

    /// The instruction word (a compressed one in the low 16 bits); 0 for an interrupt.
    #[getter]
    fn insn(&self) -> u32 {
        self.r.insn
    }
    #[setter]
    fn set_insn(&mut self, v: u32) {
        self.r.insn = v;
    }

    /// 2 or 4; 0 for an interrupt.
    #[getter]
    fn len(&self) -> u8 {
        self.r.len
    }
    #[setter]
    fn set_len(&mut self, v: u8) {
        self.r.len = v;
    }

    /// The privilege the step began in (0 U, 1 S, 3 M).
    #[getter]
    fn prv(&self) -> u8 {
        self.r.prv
    }
    #[setter]
    fn set_prv(&mut self, v: u64) -> PyResult<()> {
        self.r.prv = prv_arg(v, "prv")?;
        self.r.valid |= plugin::VALID_PRV;
        Ok(())
    }

    /// The privilege after it.
    #[getter]
    fn next_prv(&self) -> u8 {
        self.r.next_prv
    }
    #[setter]
    fn set_next_prv(&mut self, v: u64) -> PyResult<()> {
        self.r.next_prv = prv_arg(v, "next_prv")?;
        self.r.valid |= plugin::VALID_NEXT_PRV;
        Ok(())
    }

    /// 0 (TRAP_NONE: retired), 1 (TRAP_EXCEPTION) or 2 (TRAP_INTERRUPT).
    #[getter]
    fn trap(&self) -> u8 {
        self.r.trap
    }
    #[setter]
    fn set_trap(&mut self, v: &Bound<'_, PyAny>) -> PyResult<()> {
        self.r.trap = trap_arg(v)?;
        Ok(())
    }

    /// The trap's cause code (without the interrupt bit).
    #[getter]
    fn cause(&self) -> u64 {
        self.r.cause
    }
    #[setter]
    fn set_cause(&mut self, v: u64) {
        self.r.cause = v;
        self.r.valid |= plugin::VALID_CAUSE;
    }

    /// The trap's name (`illegal_instruction`, `machine_timer_interrupt`), or None.
    #[getter]
    fn cause_name(&self) -> Option<&'static str> {
        self.r.cause().map(|c| c.name())
    }

    /// The trap's value (xtval).
    #[getter]
    fn tval(&self) -> u64 {
        self.r.tval
    }
    #[setter]
    fn set_tval(&mut self, v: u64) {
        self.r.tval = v;
        self.r.valid |= plugin::VALID_TVAL;
    }

    /// Which optional fields are given: VALID_* bits.
    #[getter]
    fn valid(&self) -> u32 {
        self.r.valid
    }
    #[setter]
    fn set_valid(&mut self, v: u32) {
        self.r.valid = v;
    }

    /// The registers written, as RegWrite(file, num, value) tuples, in order.
    #[getter]
    fn writes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        writes_list(py, &self.r)
    }
    #[setter(writes)]
    fn set_writes_attr(&mut self, v: &Bound<'_, PyAny>) -> PyResult<()> {
        set_writes(&mut self.r, v)
    }

    /// The data accesses, as MemAccess(kind, size, vaddr, paddr, rdata, wdata) tuples.
    #[getter]
    fn mem<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        mem_list(py, &self.r)
    }
    #[setter(mem)]
    fn set_mem_attr(&mut self, v: &Bound<'_, PyAny>) -> PyResult<()> {
        set_mem(&mut self.r, v)
    }

    /// The instruction's disassembly (empty for an interrupt).
    #[getter]
    fn disasm(&self) -> PyResult<String> {
        guard("disasm", || self.r.disasm())
    }

    #[getter]
    fn is_interrupt(&self) -> bool {
        self.r.is_interrupt()
    }

    #[getter]
    fn is_exception(&self) -> bool {
        self.r.trap == plugin::TRAP_EXCEPTION
    }

    /// The value written to x{n} (the last write), or None.
    fn x_write(&self, n: u8) -> Option<u64> {
        self.r.x_write(n)
    }

    /// The value written to a CSR (by name or address; the last write), or None.
    fn csr_write(&self, csr: &Bound<'_, PyAny>) -> PyResult<Option<u64>> {
        let a = convert::csr_arg(csr, "csr_write")?;
        Ok(self.r.csr_write(a))
    }

    /// A copy (to change into a faulty retirement, for instance).
    fn copy(&self) -> Retirement {
        self.clone()
    }

    fn __copy__(&self) -> Retirement {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Retirement {
        self.clone()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<Retirement>() {
            Ok(o) => o.borrow().r == self.r,
            Err(_) => false,
        }
    }

    /// The RVFI signals of this retirement, as a dict `Hart.check_rvfi()` takes (the keys
    /// without the `rvfi_` prefix). An interrupt is not a retirement of its own in RVFI: pass
    /// it as `interrupt` to the retirement of the first instruction of its handler (which
    /// gets `intr` set and the interrupt's CSR writes). With `aligned`, memory masks select
    /// bytes of the 8-byte word at `mem_addr` (riscv-formal's aligned form).
    #[pyo3(signature = (interrupt = None, aligned = false))]
    fn to_rvfi<'py>(
        &self,
        py: Python<'py>,
        interrupt: Option<PyRef<'_, Retirement>>,
        aligned: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        let r = &self.r;
        if r.is_interrupt() {
            return Err(err(
                "to_rvfi: an interrupt is not an RVFI retirement of its own: pass it as \
                 `interrupt` to the next retirement's to_rvfi()",
            ));
        }
        let d = PyDict::new(py);
        d.set_item("valid", 1)?;
        d.set_item("order", r.order)?;
        d.set_item("insn", r.insn)?;
        d.set_item("trap", (r.trap == plugin::TRAP_EXCEPTION) as u8)?;
        d.set_item("halt", 0)?;
        d.set_item("intr", interrupt.is_some() as u8)?;
        d.set_item("mode", r.prv)?;
        d.set_item("ixl", 2)?;
        d.set_item("pc_rdata", r.pc)?;
        d.set_item("pc_wdata", r.next_pc)?;
        let (mut rd, mut rd_wdata, mut frd, mut frd_wdata, mut frd_wen) = (0u16, 0, 0u16, 0, 0);
        let mut csrs = Vec::new();
        let mut add_csrs = |w: &RegWrite| {
            if w.file == plugin::REG_CSR {
                // A CSR written twice (fflags then fcsr's view) keeps its last value.
                csrs.retain(|&(a, _)| a != w.num);
                csrs.push((w.num, w.value));
            }
        };
        if let Some(i) = &interrupt {
            i.r.writes().iter().for_each(&mut add_csrs);
        }
        for w in r.writes() {
            match w.file {
                plugin::REG_X if r.trap == plugin::TRAP_NONE => {
                    rd = w.num;
                    rd_wdata = w.value;
                }
                plugin::REG_F if r.trap == plugin::TRAP_NONE => {
                    frd = w.num;
                    frd_wdata = w.value;
                    frd_wen = 1;
                }
                _ => add_csrs(w),
            }
        }
        d.set_item("rd_addr", rd)?;
        d.set_item("rd_wdata", rd_wdata)?;
        d.set_item("frd_wen", frd_wen)?;
        d.set_item("frd_addr", frd)?;
        d.set_item("frd_wdata", frd_wdata)?;
        let (mut addr, mut rmask, mut wmask, mut rdata, mut wdata) = (0u64, 0u8, 0u8, 0u64, 0u64);
        for a in r.mem() {
            let mask = 1u16.checked_shl(a.size as u32).unwrap_or(0).wrapping_sub(1) as u8;
            let shift = if aligned { a.vaddr & 7 } else { 0 };
            addr = if aligned { a.vaddr & !7 } else { a.vaddr };
            match a.kind & !plugin::spike_log::MEM_DATA_UNKNOWN {
                MEM_LOAD => {
                    rmask = mask << shift;
                    rdata = a.rdata << (8 * shift);
                }
                MEM_STORE => {
                    wmask = mask << shift;
                    wdata = a.wdata << (8 * shift);
                }
                _ => {}
            }
        }
        d.set_item("mem_addr", addr)?;
        d.set_item("mem_rmask", rmask)?;
        d.set_item("mem_wmask", wmask)?;
        d.set_item("mem_rdata", rdata)?;
        d.set_item("mem_wdata", wdata)?;
        let csr_list = csrs
            .iter()
            .map(|&(a, v)| PyTuple::new(py, [a as u64, u64::MAX, v]))
            .collect::<PyResult<Vec<_>>>()?;
        d.set_item("csr", PyList::new(py, csr_list)?)?;
        Ok(d)
    }

    fn __repr__(&self) -> PyResult<String> {
        let r = &self.r;
        let mut s = format!("Retirement(order={}, pc=0x{:x}", r.order, r.pc);
        if r.is_interrupt() {
            s += &format!(", interrupt {}", r.cause);
        } else {
            let hex = if r.len == 2 {
                format!("{:04x}", r.insn & 0xffff)
            } else {
                format!("{:08x}", r.insn)
            };
            let d = if matches!(r.len, 2 | 4) {
                guard("disasm", || r.disasm())?
            } else {
                String::new()
            };
            s += &format!(", insn=0x{hex} '{d}'");
        }
        if r.trap == plugin::TRAP_EXCEPTION {
            s += &format!(", exception {} tval=0x{:x}", r.cause, r.tval);
        }
        if let Some(n) = self.cause_name() {
            s += &format!(" ({n})");
        }
        for w in r.writes() {
            s += &format!(", {}=0x{:x}", write_name(w), w.value);
        }
        for a in r.mem() {
            match a.kind & !plugin::spike_log::MEM_DATA_UNKNOWN {
                MEM_LOAD => s += &format!(", load{} [0x{:x}]=0x{:x}", a.size, a.vaddr, a.rdata),
                _ => s += &format!(", store{} [0x{:x}]=0x{:x}", a.size, a.vaddr, a.wdata),
            }
        }
        s += &format!(", next_pc=0x{:x}", r.next_pc);
        if r.next_prv != r.prv {
            s += &format!(", prv {} -> {}", r.prv, r.next_prv);
        }
        s += ")";
        Ok(s)
    }
}

/// Spike's commit log (`spike -l --log-commits`) read as retirements: `for r in
/// hartscope.SpikeLog(path, start_pc=entry)`. Steps before `start_pc` (Spike's boot ROM) are
/// skipped. Spike prints no load data and no trap CSR writes: check such retirements with
/// `reports={"csr": False}`.
#[pyclass(name = "SpikeLog", module = "hartscope")]
pub struct SpikeLog {
    log: plugin::spike_log::SpikeLog<BufReader<File>>,
}

#[pymethods]
impl SpikeLog {
    #[new]
    #[pyo3(signature = (path, start_pc = None))]
    fn new(path: std::path::PathBuf, start_pc: Option<u64>) -> PyResult<Self> {
        let f = File::open(&path).map_err(|e| err(format!("{}: {e}", path.display())))?;
        Ok(SpikeLog {
            log: plugin::spike_log::SpikeLog::new(BufReader::new(f), start_pc),
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self) -> PyResult<Option<Retirement>> {
        match guard("SpikeLog", || self.log.next_retirement())? {
            Ok(r) => Ok(r.map(|r| Retirement { r })),
            Err(e) => Err(err(e)),
        }
    }
}
