//! The RISC-V Formal Interface (RVFI, riscv-formal's `docs/rvfi.md`): the retirement signals
//! most open cores expose, and how they become [`Retirement`]s.
//!
//! RVFI has no exception cause and no trap CSRs: an instruction that traps has `rvfi_trap`
//! set and `pc_wdata` at the trap vector; an interrupt is seen as `rvfi_intr` on the first
//! instruction of its handler. So one valid RVFI retirement with `intr` set is two steps of
//! the hart: the interrupt (whose cause the checker takes from the handler address, or from
//! an mcause/scause write in the CSR extension below), then the instruction. Memory masks
//! select the bytes of `mem_addr`'s word (riscv-formal's aligned form) or start at it.
//! hartscope's extensions, for what RV64GC needs and RVFI lacks: the CSR writes (the
//! `rvfi_csr_<name>_wmask/wdata` signals of riscv-formal's CSR extension, by address), and one
//! floating-point register write.

use crate::retire::*;

/// One CSR write of the RVFI CSR extension.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RvfiCsr {
    /// The CSR's address.
    pub addr: u16,
    /// The bits written (all ones: a full write).
    pub wmask: u64,
    pub wdata: u64,
}

/// CSR writes one RVFI retirement carries.
pub const RVFI_MAX_CSR: usize = 8;

/// The RVFI signals of one retirement channel.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rvfi {
    pub valid: u8,
    pub order: u64,
    pub insn: u64,
    pub trap: u8,
    pub halt: u8,
    pub intr: u8,
    /// The privilege the instruction executed in (0 U, 1 S, 3 M).
    pub mode: u8,
    /// 2 for RV64.
    pub ixl: u8,
    pub rs1_addr: u8,
    pub rs2_addr: u8,
    pub rs1_rdata: u64,
    pub rs2_rdata: u64,
    pub rd_addr: u8,
    pub rd_wdata: u64,
    pub pc_rdata: u64,
    pub pc_wdata: u64,
    pub mem_addr: u64,
    pub mem_rmask: u8,
    pub mem_wmask: u8,
    pub mem_rdata: u64,
    pub mem_wdata: u64,
    /// hartscope's extension: a floating-point register write.
    pub frd_wen: u8,
    pub frd_addr: u8,
    pub frd_wdata: u64,
    /// hartscope's extension: the CSR writes (riscv-formal's CSR extension, by address).
    pub n_csr: u32,
    pub csr: [RvfiCsr; RVFI_MAX_CSR],
}

/// An RVFI retirement the hart's steps cannot be made of ([`Rvfi::to_retirements`]): the
/// signal and its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RvfiError {
    /// `rvfi_ixl` other than 0 (not given) or 2 (RV64).
    #[error("rvfi_ixl {0} (hartscope is RV64: 2)")]
    Ixl(u8),
    /// A CSR write to an address beyond the 12-bit CSR space.
    #[error("CSR address 0x{0:x}")]
    CsrAddress(u16),
    /// `rvfi_mem_rmask` (or, `store`, `rvfi_mem_wmask`) that is not one aligned access.
    #[error(
        "rvfi_mem_{}mask 0x{mask:02x} is not an access of 1, 2, 4 or 8 bytes",
        if *store { "w" } else { "r" }
    )]
    MemMask { store: bool, mask: u8 },
    /// More writes or accesses than a retirement holds.
    #[error(transparent)]
    Overflow(#[from] Overflow),
}

impl Rvfi {
    /// The hart's steps for this retirement, into `out`: none (not valid), one, or two (an
    /// interrupt, then the first instruction of its handler). `csr_before` gives a CSR's
    /// value before the step, for writes with a partial mask.
    pub fn to_retirements(
        &self,
        csr_before: impl Fn(u16) -> u64,
        out: &mut [Retirement; 2],
    ) -> Result<usize, RvfiError> {
        if self.valid == 0 {
            return Ok(0);
        }
        if self.ixl != 0 && self.ixl != 2 {
            return Err(RvfiError::Ixl(self.ixl));
        }
        let mut n = 0;
        if self.intr != 0 {
            out[0] = Retirement {
                order: self.order,
                trap: TRAP_INTERRUPT,
                next_pc: self.pc_rdata,
                next_prv: self.mode,
                valid: VALID_NEXT_PC | VALID_NEXT_PRV,
                ..Retirement::default()
            };
            for c in self.csrs() {
                if matches!(c.addr, 0x342 | 0x142) && c.wmask == u64::MAX {
                    out[0].cause = c.wdata & !(1 << 63);
                    out[0].valid |= VALID_CAUSE;
                }
            }
            n = 1;
        }
        // The interrupt's own CSR writes (the trap CSRs of the level it went to, the first
        // write of each) are its step's, not the handler's first instruction's.
        let trap_csrs: &[u16] = match self.csrs().iter().find(|c| matches!(c.addr, 0x342 | 0x142)) {
            Some(c) if self.intr != 0 && c.addr == 0x342 => {
                &[0x300, 0x341, 0x342, 0x343, 0x34a, 0x34b]
            }
            Some(_) if self.intr != 0 => &[0x100, 0x300, 0x141, 0x142, 0x143],
            _ => &[],
        };
        let mut taken = [false; RVFI_MAX_CSR];
        let insn = self.insn as u32;
        // A trap with no instruction word whose cause (from the CSR extension) is a fetch's
        // (misaligned, access fault, page fault), or a breakpoint (a debug trigger's, taken
        // before its instruction was fetched: EBREAK's word is never 0): there was no
        // instruction. Without the cause it is the all-zero word, which is illegal.
        let fetch_fault = self.trap != 0
            && insn == 0
            && self.intr == 0
            && self.csrs().iter().any(|c| {
                matches!(c.addr, 0x342 | 0x142)
                    && c.wmask == u64::MAX
                    && matches!(c.wdata, 0 | 1 | 3 | 12)
            });
        let len = match insn {
            _ if fetch_fault => 0,
            i if i & 3 == 3 => 4,
            _ => 2,
        };
        let mut r = Retirement {
            order: self.order,
            pc: self.pc_rdata,
            next_pc: self.pc_wdata,
            insn: if len == 2 { insn & 0xffff } else { insn },
            len,
            prv: self.mode,
            next_prv: self.mode,
            valid: VALID_PC | VALID_NEXT_PC | VALID_PRV,
            ..Retirement::default()
        };
        if self.trap != 0 {
            r.trap = TRAP_EXCEPTION;
        }
        if self.rd_addr != 0 && self.trap == 0 {
            r.push_write(REG_X, (self.rd_addr & 31) as u16, self.rd_wdata)?;
        }
        if self.frd_wen != 0 && self.trap == 0 {
            r.push_write(REG_F, (self.frd_addr & 31) as u16, self.frd_wdata)?;
        }
        for c in self.csrs() {
            if c.addr > 0xfff {
                return Err(RvfiError::CsrAddress(c.addr));
            }
            let v = if c.wmask == u64::MAX {
                c.wdata
            } else {
                (csr_before(c.addr) & !c.wmask) | (c.wdata & c.wmask)
            };
            if c.wmask == 0 {
                continue;
            }
            if let Some(i) = trap_csrs.iter().position(|&a| a == c.addr) {
                if !taken[i] {
                    taken[i] = true;
                    out[0].push_write(REG_CSR, c.addr, v)?;
                    continue;
                }
            }
            r.push_write(REG_CSR, c.addr, v)?;
        }
        if self.trap == 0 {
            for (mask, kind) in [(self.mem_rmask, MEM_LOAD), (self.mem_wmask, MEM_STORE)] {
                if mask == 0 {
                    continue;
                }
                let tz = mask.trailing_zeros();
                let size = mask.count_ones();
                if mask >> tz != ((1u16 << size) - 1) as u8 || !matches!(size, 1 | 2 | 4 | 8) {
                    return Err(RvfiError::MemMask {
                        store: kind == MEM_STORE,
                        mask,
                    });
                }
                let data = |d: u64| d.checked_shr(8 * tz).unwrap_or(0);
                r.push_mem(MemAccess {
                    kind,
                    size: size as u8,
                    vaddr: self.mem_addr.wrapping_add(tz as u64),
                    paddr: PADDR_UNKNOWN,
                    rdata: if kind == MEM_LOAD {
                        data(self.mem_rdata)
                    } else {
                        0
                    },
                    wdata: if kind == MEM_STORE {
                        data(self.mem_wdata)
                    } else {
                        0
                    },
                })?;
            }
        }
        out[n] = r;
        Ok(n + 1)
    }

    fn csrs(&self) -> &[RvfiCsr] {
        &self.csr[..(self.n_csr as usize).min(RVFI_MAX_CSR)]
    }
}
