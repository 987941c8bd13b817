//! A dict of RVFI signals as the plugin's [`plugin::rvfi::Rvfi`].
//!
//! Keys are the signal names with or without the `rvfi_` prefix: `valid`, `order`, `insn`,
//! `trap`, `halt`, `intr`, `mode`, `ixl`, `rs1_addr`, `rs2_addr`, `rs1_rdata`, `rs2_rdata`,
//! `rd_addr`, `rd_wdata`, `pc_rdata`, `pc_wdata`, `mem_addr`, `mem_rmask`, `mem_wmask`,
//! `mem_rdata`, `mem_wdata`; hartscope's extensions `frd_wen`, `frd_addr`, `frd_wdata`, and
//! `csr`: a list of (addr or name, wmask, wdata) tuples or {addr, wmask, wdata} dicts. The
//! CSR extension's own signals are taken too: `csr_<name>_wmask` and `csr_<name>_wdata`
//! (`csr_<name>_rmask` / `_rdata` are accepted and not used). A missing signal is 0 (`valid`:
//! 1). An unknown key is an error (a misspelt signal would otherwise be silently 0).

use crate::convert::{csr_arg, csr_by_name, repr, uint};
use crate::err;
use plugin::rvfi::{Rvfi, RvfiCsr, RVFI_MAX_CSR};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

/// The signals: name, width in bits.
const SIGNALS: &[(&str, u32)] = &[
    ("valid", 1),
    ("order", 64),
    ("insn", 64),
    ("trap", 1),
    ("halt", 1),
    ("intr", 1),
    ("mode", 2),
    ("ixl", 2),
    ("rs1_addr", 5),
    ("rs2_addr", 5),
    ("rs1_rdata", 64),
    ("rs2_rdata", 64),
    ("rd_addr", 5),
    ("rd_wdata", 64),
    ("pc_rdata", 64),
    ("pc_wdata", 64),
    ("mem_addr", 64),
    ("mem_rmask", 8),
    ("mem_wmask", 8),
    ("mem_rdata", 64),
    ("mem_wdata", 64),
    ("frd_wen", 1),
    ("frd_addr", 5),
    ("frd_wdata", 64),
];

fn set(r: &mut Rvfi, name: &str, v: u64) {
    match name {
        "valid" => r.valid = v as u8,
        "order" => r.order = v,
        "insn" => r.insn = v,
        "trap" => r.trap = v as u8,
        "halt" => r.halt = v as u8,
        "intr" => r.intr = v as u8,
        "mode" => r.mode = v as u8,
        "ixl" => r.ixl = v as u8,
        "rs1_addr" => r.rs1_addr = v as u8,
        "rs2_addr" => r.rs2_addr = v as u8,
        "rs1_rdata" => r.rs1_rdata = v,
        "rs2_rdata" => r.rs2_rdata = v,
        "rd_addr" => r.rd_addr = v as u8,
        "rd_wdata" => r.rd_wdata = v,
        "pc_rdata" => r.pc_rdata = v,
        "pc_wdata" => r.pc_wdata = v,
        "mem_addr" => r.mem_addr = v,
        "mem_rmask" => r.mem_rmask = v as u8,
        "mem_wmask" => r.mem_wmask = v as u8,
        "mem_rdata" => r.mem_rdata = v,
        "mem_wdata" => r.mem_wdata = v,
        "frd_wen" => r.frd_wen = v as u8,
        "frd_addr" => r.frd_addr = v as u8,
        "frd_wdata" => r.frd_wdata = v,
        _ => {}
    }
}

fn push_csr(r: &mut Rvfi, c: RvfiCsr) -> PyResult<()> {
    let n = r.n_csr as usize;
    if n >= RVFI_MAX_CSR {
        return Err(err(format!(
            "RVFI: more than {RVFI_MAX_CSR} CSR writes in one retirement"
        )));
    }
    r.csr[n] = c;
    r.n_csr += 1;
    Ok(())
}

/// One element of the `csr` list.
fn csr_item(v: &Bound<'_, PyAny>, i: usize) -> PyResult<RvfiCsr> {
    let what = format!("RVFI: csr[{i}]");
    if let Ok(d) = v.cast::<PyDict>() {
        let get = |k: &str| -> PyResult<Bound<'_, PyAny>> {
            d.get_item(k)?
                .ok_or_else(|| err(format!("{what}: no {k:?} (addr, wmask, wdata)")))
        };
        for k in d.keys() {
            let k: String = k.extract()?;
            if !matches!(k.as_str(), "addr" | "wmask" | "wdata" | "rmask" | "rdata") {
                return Err(err(format!(
                    "{what}: unknown key {k:?} (addr, wmask, wdata)"
                )));
            }
        }
        return Ok(RvfiCsr {
            addr: csr_arg(&get("addr")?, &what)?,
            wmask: uint(&get("wmask")?, &format!("{what}: wmask"), 64)?,
            wdata: uint(&get("wdata")?, &format!("{what}: wdata"), 64)?,
        });
    }
    let t: Vec<Bound<'_, PyAny>> = v.extract().map_err(|_| {
        err(format!(
            "{what}: {} is not an (addr, wmask, wdata) tuple or a dict",
            repr(v)
        ))
    })?;
    match t.as_slice() {
        [a, m, d] => Ok(RvfiCsr {
            addr: csr_arg(a, &what)?,
            wmask: uint(m, &format!("{what}: wmask"), 64)?,
            wdata: uint(d, &format!("{what}: wdata"), 64)?,
        }),
        _ => Err(err(format!(
            "{what}: {} items (addr, wmask, wdata)",
            t.len()
        ))),
    }
}

/// The RVFI record a dict gives.
pub fn from_dict(d: &Bound<'_, PyDict>) -> PyResult<Rvfi> {
    let mut r = Rvfi {
        valid: 1,
        ..Rvfi::default()
    };
    // riscv-formal CSR extension signals, by CSR: (wmask, wdata).
    let mut ext: Vec<(u16, String, Option<u64>, Option<u64>)> = Vec::new();
    for (k, v) in d.iter() {
        let key: String = k
            .cast::<PyString>()
            .map_err(|_| err(format!("RVFI: key {} is not a signal name", repr(&k))))?
            .to_cow()?
            .into_owned();
        let name = key.strip_prefix("rvfi_").unwrap_or(&key);
        if name == "csr" {
            if v.is_none() {
                continue;
            }
            let items: Vec<Bound<'_, PyAny>> = v.extract().map_err(|_| {
                err(format!(
                    "RVFI: {key}: {} is not a list of CSR writes",
                    repr(&v)
                ))
            })?;
            for (i, it) in items.iter().enumerate() {
                let c = csr_item(it, i)?;
                push_csr(&mut r, c)?;
            }
            continue;
        }
        if let Some(&(sig, bits)) = SIGNALS.iter().find(|(s, _)| *s == name) {
            let x = uint(&v, &format!("RVFI: {key}"), bits)?;
            set(&mut r, sig, x);
            continue;
        }
        if let Some(rest) = name.strip_prefix("csr_") {
            let (csr, field) = match rest.rsplit_once('_') {
                Some((c, f @ ("wmask" | "wdata" | "rmask" | "rdata"))) => (c, f),
                _ => {
                    return Err(err(format!(
                        "RVFI: {key}: not a CSR signal (csr_<name>_wmask, _wdata, _rmask, \
                         _rdata)"
                    )))
                }
            };
            let addr = csr_by_name(csr)
                .ok_or_else(|| err(format!("RVFI: {key}: {csr:?} is no CSR hartscope knows")))?;
            let x = uint(&v, &format!("RVFI: {key}"), 64)?;
            let i = match ext.iter().position(|e| e.0 == addr) {
                Some(i) => i,
                None => {
                    ext.push((addr, key.clone(), None, None));
                    ext.len() - 1
                }
            };
            match field {
                "wmask" => ext[i].2 = Some(x),
                "wdata" => ext[i].3 = Some(x),
                _ => {}
            }
            continue;
        }
        return Err(err(format!(
            "RVFI: unknown signal {key:?} (valid, order, insn, trap, halt, intr, mode, ixl, \
             rs1_addr, rs2_addr, rs1_rdata, rs2_rdata, rd_addr, rd_wdata, pc_rdata, pc_wdata, \
             mem_addr, mem_rmask, mem_wmask, mem_rdata, mem_wdata, frd_wen, frd_addr, \
             frd_wdata, csr, csr_<name>_wmask/_wdata)"
        )));
    }
    for (addr, key, wmask, wdata) in ext {
        match (wmask, wdata) {
            (Some(0), _) | (None, None) => {}
            (Some(wmask), Some(wdata)) => push_csr(&mut r, RvfiCsr { addr, wmask, wdata })?,
            (Some(_), None) => {
                return Err(err(format!(
                    "RVFI: {key}: a CSR write mask without its wdata"
                )))
            }
            (None, Some(_)) => {
                return Err(err(format!(
                    "RVFI: {key}: CSR write data without its wmask"
                )))
            }
        }
    }
    Ok(r)
}
