//! RVFI retirements with the CSR extension: an interrupt's trap CSR writes belong to the
//! interrupt's step; a trap with no instruction word and a fetch's cause is a fetch fault.

use plugin::rvfi::{Rvfi, RvfiCsr};
use plugin::*;

fn csr(addr: u16, wdata: u64) -> RvfiCsr {
    RvfiCsr {
        addr,
        wmask: u64::MAX,
        wdata,
    }
}

fn split(r: &Rvfi) -> Vec<Retirement> {
    let mut out = [Retirement::default(); 2];
    let n = r.to_retirements(|_| 0, &mut out).unwrap();
    out[..n].to_vec()
}

#[test]
fn an_interrupts_trap_csrs_go_to_its_step() {
    let mut r = Rvfi {
        valid: 1,
        intr: 1,
        insn: 0x3400_1073, // csrw mscratch, zero
        mode: 3,
        pc_rdata: 0x8000_0100,
        pc_wdata: 0x8000_0104,
        n_csr: 5,
        ..Rvfi::default()
    };
    r.csr[..5].copy_from_slice(&[
        csr(0x341, 0x8000_0040),
        csr(0x342, (1 << 63) | 7),
        csr(0x343, 0),
        csr(0x300, 0x1880),
        csr(0x340, 0),
    ]);
    let s = split(&r);
    assert_eq!(s.len(), 2);
    assert_eq!(s[0].trap, TRAP_INTERRUPT);
    assert_eq!(s[0].cause, 7);
    let on_intr: Vec<u16> = s[0].writes().iter().map(|w| w.num).collect();
    assert_eq!(on_intr, [0x341, 0x342, 0x343, 0x300]);
    let on_insn: Vec<u16> = s[1].writes().iter().map(|w| w.num).collect();
    assert_eq!(on_insn, [0x340]);
}

#[test]
fn a_trap_without_an_instruction_word_is_a_fetch_fault_by_its_cause() {
    let mut r = Rvfi {
        valid: 1,
        trap: 1,
        insn: 0,
        mode: 1,
        pc_rdata: 0x4000_0000,
        pc_wdata: 0x8000_0200,
        n_csr: 1,
        ..Rvfi::default()
    };
    r.csr[0] = csr(0x142, 12);
    assert_eq!(split(&r)[0].len, 0);
    // Illegal instruction: the all-zero word was executed.
    r.csr[0] = csr(0x142, 2);
    assert_eq!(split(&r)[0].len, 2);
    // No cause given: the all-zero word.
    r.n_csr = 0;
    assert_eq!(split(&r)[0].len, 2);
}

/// Retirements that make no steps are refused with a typed error carrying the signal's value,
/// and the message the C ABI and Python report.
#[test]
fn bad_signals_are_typed_errors_with_their_values() {
    use plugin::rvfi::RvfiError;
    let refuse = |r: Rvfi| {
        let mut out = [Retirement::default(); 2];
        r.to_retirements(|_| 0, &mut out).unwrap_err()
    };
    let base = Rvfi {
        valid: 1,
        insn: 0x0000_0013, // nop
        pc_rdata: 0x8000_0000,
        pc_wdata: 0x8000_0004,
        mode: 3,
        ..Rvfi::default()
    };
    let e = refuse(Rvfi { ixl: 1, ..base });
    assert_eq!(e, RvfiError::Ixl(1));
    assert_eq!(e.to_string(), "rvfi_ixl 1 (hartscope is RV64: 2)");
    let e = refuse(Rvfi {
        mem_rmask: 0x05,
        ..base
    });
    assert_eq!(
        e,
        RvfiError::MemMask {
            store: false,
            mask: 0x05
        }
    );
    assert_eq!(
        e.to_string(),
        "rvfi_mem_rmask 0x05 is not an access of 1, 2, 4 or 8 bytes"
    );
    let e = refuse(Rvfi {
        mem_wmask: 0x50,
        mem_rmask: 0,
        ..base
    });
    assert!(e.to_string().starts_with("rvfi_mem_wmask 0x50 "), "{e}");
    let mut r = Rvfi { n_csr: 1, ..base };
    r.csr[0] = csr(0x1000, 0);
    let e = refuse(r);
    assert_eq!(e, RvfiError::CsrAddress(0x1000));
    assert_eq!(e.to_string(), "CSR address 0x1000");
}
