//! The hart's steps as RVFI retirements (`hs_step_rvfi`): the reference stream a testbench
//! can drive an RVFI monitor with, and the inverse of [`plugin::rvfi::Rvfi::to_retirements`].
//!
//! RVFI has no separate interrupt retirement: an interrupt shows as `rvfi_intr` on the first
//! instruction of its handler, so an interrupt step is merged with the step after it. The
//! order given is the hart's order of the instruction's step (an interrupt counts as a step,
//! so a checking hart's mismatch names the same order). Register writes go to `rd_*`, a
//! floating-point write to hartscope's `frd_*`, every CSR write (the trap's included) to the
//! CSR extension with a full mask; a memory access is given at its own address (the mask
//! starts at bit 0) with its data in the low bytes.

use crate::{Fail, HsHart, Res, HS_ERR_RETIREMENT};
use plugin::rvfi::{Rvfi, RvfiCsr, RVFI_MAX_CSR};
use plugin::*;

/// Nested interrupts merged into one RVFI retirement at most (an interrupt taken at the first
/// instruction of another's handler).
const MAX_NESTED: usize = 4;

/// One step of the hart (two or more with interrupts) as one RVFI retirement.
pub(crate) fn step(s: &mut HsHart) -> Res<Rvfi> {
    let mut r = s.hart.step();
    let mut intr: Option<Retirement> = None;
    let mut nested = 0;
    while r.is_interrupt() && nested < MAX_NESTED {
        intr = Some(r);
        r = s.hart.step();
        nested += 1;
    }
    to_rvfi(&r, intr.as_ref())
}

/// `r` (with the interrupt taken before it) as RVFI.
pub(crate) fn to_rvfi(r: &Retirement, intr: Option<&Retirement>) -> Res<Rvfi> {
    let mut o = Rvfi {
        valid: 1,
        order: r.order,
        insn: r.insn as u64,
        trap: (r.trap == TRAP_EXCEPTION) as u8,
        intr: intr.is_some() as u8,
        mode: r.prv,
        ixl: 2,
        pc_rdata: r.pc,
        pc_wdata: r.next_pc,
        ..Rvfi::default()
    };
    let writes = intr.into_iter().flat_map(|i| i.writes()).chain(r.writes());
    for w in writes {
        match w.file {
            REG_X if o.rd_addr == 0 && w.num != 0 => {
                o.rd_addr = w.num as u8;
                o.rd_wdata = w.value;
            }
            REG_F if o.frd_wen == 0 => {
                o.frd_wen = 1;
                o.frd_addr = w.num as u8;
                o.frd_wdata = w.value;
            }
            REG_CSR => {
                let n = o.n_csr as usize;
                if n >= RVFI_MAX_CSR {
                    return Err(Fail::new(
                        HS_ERR_RETIREMENT,
                        format!(
                            "retirement {}: more than {RVFI_MAX_CSR} CSR writes for RVFI",
                            r.order
                        ),
                    ));
                }
                o.csr[n] = RvfiCsr {
                    addr: w.num,
                    wmask: u64::MAX,
                    wdata: w.value,
                };
                o.n_csr += 1;
            }
            _ => {}
        }
    }
    for a in r.mem() {
        let mask = (((1u16 << a.size.min(8)) - 1) & 0xff) as u8;
        o.mem_addr = a.vaddr;
        match a.kind & !spike_log::MEM_DATA_UNKNOWN {
            MEM_LOAD => {
                o.mem_rmask = mask;
                o.mem_rdata = a.rdata;
            }
            MEM_STORE => {
                o.mem_wmask = mask;
                o.mem_wdata = a.wdata;
            }
            _ => {}
        }
    }
    Ok(o)
}
