//! Spike's execution log (`spike -l --log-commits`, the form riscv-dv and core-v-verif read)
//! as [`Retirement`]s: an independent model's retirements, to drive [`crate::Hart::step_check`]
//! as a core's testbench would.
//!
//! ```text
//! core   0: 0x0000000080000000 (0x00000297) auipc   t0, 0x0        <- -l: fetched
//! core   0: 3 0x0000000080000000 (0x00000297) x5  0x0000000080000000 <- retired
//! core   0: exception trap_illegal_instruction, epc 0x000000008000201a
//! core   0:           tval 0x0000000000000000
//! core   0: exception interrupt #7, epc 0x0000000080002288
//! core   0: >>>>  m_vec_7                                         <- symbol, ignored
//! ```
//!
//! A retired line gives the privilege, pc, instruction, the registers written (`x5`, `f3`,
//! `c768_mstatus`, decimal CSR numbers) and the memory accesses (`mem ADDR` for a load, whose
//! data Spike does not print, `mem ADDR VALUE` for a store, as wide as the store). An
//! exception line follows the `-l` line of the instruction that raised it; an interrupt line
//! stands alone. Spike logs no trap CSR writes, so a checker fed from this log should not
//! expect complete CSR reports ([`crate::Reports::csr`] off). The next pc and privilege of
//! each step are the pc and privilege of the step after it.

use crate::retire::*;
use arch::Exception;
use std::io::BufRead;

/// [`MemAccess::kind`] bit: the load's data is not known (Spike does not print it).
pub const MEM_DATA_UNKNOWN: u8 = 0x80;

/// Reads retirements from a Spike log.
pub struct SpikeLog<R: BufRead> {
    input: R,
    line: String,
    line_no: u64,
    /// The last `-l` line: pc and instruction.
    fetched: Option<(u64, u32, u8)>,
    /// The step waiting for the next one (its next pc and privilege).
    pending: Option<Retirement>,
    /// Steps before this pc are skipped (Spike's boot ROM).
    start_pc: Option<u64>,
    order: u64,
    done: bool,
}

/// A line the reader could not understand.
#[derive(Debug, thiserror::Error)]
#[error("the Spike log, line {line}: {problem}")]
pub struct LogError {
    pub line: u64,
    pub problem: String,
}

impl<R: BufRead> SpikeLog<R> {
    /// A reader that starts with the first step at `start_pc` (the ELF's entry point: the
    /// boot ROM's steps before it are skipped), or at the first step if `None`.
    pub fn new(input: R, start_pc: Option<u64>) -> SpikeLog<R> {
        SpikeLog {
            input,
            line: String::new(),
            line_no: 0,
            fetched: None,
            pending: None,
            start_pc,
            order: 0,
            done: false,
        }
    }

    /// The next retirement, or `None` at the end of the log.
    pub fn next_retirement(&mut self) -> Result<Option<Retirement>, LogError> {
        loop {
            if self.done {
                return Ok(self.pending.take());
            }
            self.line.clear();
            let n = self.input.read_line(&mut self.line).map_err(|e| LogError {
                line: self.line_no + 1,
                problem: e.to_string(),
            })?;
            if n == 0 {
                self.done = true;
                continue;
            }
            self.line_no += 1;
            let Some(event) = self.parse_line()? else {
                continue;
            };
            // A new step: it says where the previous one went.
            if let Some(mut p) = self.pending.take() {
                if event.valid & VALID_PC != 0 {
                    p.next_pc = event.pc;
                    p.valid |= VALID_NEXT_PC;
                }
                if event.valid & VALID_PRV != 0 {
                    p.next_prv = event.prv;
                    p.valid |= VALID_NEXT_PRV;
                }
                self.pending = Some(event);
                if self.started(&p) {
                    p.order = self.order;
                    self.order += 1;
                    return Ok(Some(p));
                }
                continue;
            }
            self.pending = Some(event);
        }
    }

    fn started(&mut self, r: &Retirement) -> bool {
        match self.start_pc {
            Some(pc) if r.pc == pc && r.trap != TRAP_INTERRUPT => {
                self.start_pc = None;
                true
            }
            Some(_) => false,
            None => true,
        }
    }

    fn err<T>(&self, problem: impl Into<String>) -> Result<T, LogError> {
        Err(LogError {
            line: self.line_no,
            problem: problem.into(),
        })
    }

    /// One line: a step (retired instruction, exception, interrupt), or nothing.
    fn parse_line(&mut self) -> Result<Option<Retirement>, LogError> {
        let line = self.line.trim_end().to_string();
        let Some(rest) = line.strip_prefix("core") else {
            return Ok(None);
        };
        let Some((_, body)) = rest.split_once(':') else {
            return Ok(None);
        };
        let body = body.trim_start();
        let words: Vec<&str> = body.split_whitespace().collect();
        match words.first().copied() {
            None | Some(">>>>") => Ok(None),
            Some("tval") => {
                let v = self.hex(words.get(1).copied(), "tval")?;
                if let Some(p) = self.pending.as_mut().filter(|p| p.trap != TRAP_NONE) {
                    p.tval = v;
                    p.valid |= VALID_TVAL;
                }
                Ok(None)
            }
            Some("exception") => self.trap_line(body),
            Some(w) if w.starts_with("0x") => {
                // -l: the instruction about to execute.
                let pc = self.hex(Some(w), "pc")?;
                let (bits, len) = self.insn_word(words.get(1).copied())?;
                self.fetched = Some((pc, bits, len));
                Ok(None)
            }
            Some(p) if p.len() == 1 && p.as_bytes()[0].is_ascii_digit() => {
                self.commit_line(&words).map(Some)
            }
            _ => Ok(None),
        }
    }

    fn commit_line(&mut self, w: &[&str]) -> Result<Retirement, LogError> {
        let prv: u8 = w[0].parse().unwrap_or(3);
        let pc = self.hex(w.get(1).copied(), "pc")?;
        let (insn, len) = self.insn_word(w.get(2).copied())?;
        let mut r = Retirement {
            pc,
            insn,
            len,
            prv,
            next_prv: prv,
            valid: VALID_PC | VALID_PRV,
            ..Retirement::default()
        };
        let mut i = 3;
        while i < w.len() {
            let name = w[i];
            let full = |e: Overflow| LogError {
                line: self.line_no,
                problem: e.to_string(),
            };
            if name == "mem" {
                let addr = self.hex(w.get(i + 1).copied(), "mem address")?;
                let value = w.get(i + 2).filter(|v| v.starts_with("0x"));
                match value {
                    Some(v) => {
                        let size = ((v.len() - 2) / 2) as u8;
                        let data = self.hex(Some(v), "store data")?;
                        r.push_mem(MemAccess {
                            kind: MEM_STORE,
                            size,
                            vaddr: addr,
                            paddr: PADDR_UNKNOWN,
                            rdata: 0,
                            wdata: data,
                        })
                        .map_err(full)?;
                        i += 3;
                    }
                    None => {
                        r.push_mem(MemAccess {
                            kind: MEM_LOAD | MEM_DATA_UNKNOWN,
                            size: 8,
                            vaddr: addr,
                            paddr: PADDR_UNKNOWN,
                            rdata: 0,
                            wdata: 0,
                        })
                        .map_err(full)?;
                        i += 2;
                    }
                }
                continue;
            }
            let value = self.hex(w.get(i + 1).copied(), name)?;
            let (file, num) = if let Some(n) = name.strip_prefix('x') {
                (REG_X, n.parse::<u16>().ok())
            } else if let Some(n) = name.strip_prefix('f') {
                (REG_F, n.parse::<u16>().ok())
            } else if let Some(n) = name.strip_prefix('c') {
                (
                    REG_CSR,
                    n.split('_').next().and_then(|d| d.parse::<u16>().ok()),
                )
            } else {
                return self.err(format!("unknown field `{name}`"));
            };
            let Some(num) = num else {
                return self.err(format!("unknown register `{name}`"));
            };
            // mvip is a view Spike's log shows beside mip; the hart's own write is mip's.
            if !(file == REG_CSR && num == iss::csr::MVIP) {
                r.push_write(file, num, value).map_err(full)?;
            }
            i += 2;
        }
        self.fetched = None;
        Ok(r)
    }

    fn trap_line(&mut self, body: &str) -> Result<Option<Retirement>, LogError> {
        // "exception NAME, epc 0x..."
        let Some((name, epc)) = body
            .strip_prefix("exception ")
            .and_then(|s| s.split_once(", epc "))
        else {
            return self.err("an exception line without its epc");
        };
        let epc = self.hex(Some(epc.trim()), "epc")?;
        if let Some(code) = name.strip_prefix("interrupt #") {
            let Ok(code) = code.trim().parse::<u64>() else {
                return self.err(format!("interrupt `{name}`"));
            };
            return Ok(Some(Retirement {
                pc: epc,
                trap: TRAP_INTERRUPT,
                cause: code,
                valid: VALID_PC | VALID_CAUSE,
                ..Retirement::default()
            }));
        }
        let Some(cause) = spike_exception(name) else {
            return self.err(format!("unknown exception `{name}`"));
        };
        let (insn, len) = match self.fetched.take() {
            Some((pc, bits, len)) if pc == epc => (bits, len),
            // A fetch that faulted has no -l line.
            _ => (0, 0),
        };
        // So has a debug trigger's breakpoint taken before the instruction is fetched
        // (execute, icount, a match waiting for this instruction): ebreak has its line.
        let fetch_fault = matches!(
            cause,
            Exception::InstructionAccessFault
                | Exception::InstructionPageFault
                | Exception::Breakpoint
        );
        if len == 0 && !fetch_fault {
            return self.err(format!(
                "exception {name} at 0x{epc:x} without its instruction (run Spike with -l)"
            ));
        }
        Ok(Some(Retirement {
            pc: epc,
            insn,
            len,
            trap: TRAP_EXCEPTION,
            cause: cause.code(),
            valid: VALID_PC | VALID_CAUSE,
            ..Retirement::default()
        }))
    }

    fn hex(&self, w: Option<&str>, what: &str) -> Result<u64, LogError> {
        w.and_then(|w| w.strip_prefix("0x"))
            .and_then(|h| u64::from_str_radix(h, 16).ok())
            .map_or_else(|| self.err(format!("{what}: not a hex number")), Ok)
    }

    /// `(0x00000297)` or `(0x4501)`.
    fn insn_word(&self, w: Option<&str>) -> Result<(u32, u8), LogError> {
        let Some(h) = w
            .and_then(|w| w.strip_prefix("(0x"))
            .and_then(|w| w.strip_suffix(')'))
        else {
            return self.err("instruction: expected (0x...)");
        };
        // The -l line prints a compressed instruction in 8 digits, the commit line in 4:
        // the low bits say which it is. A longer encoding (48 bits and up, reserved in
        // RV64GC: illegal) is printed whole; the hart fetches its first 32 bits.
        match u64::from_str_radix(h, 16) {
            Ok(b) if b & 3 == 3 => Ok((b as u32, 4)),
            Ok(b) => Ok((b as u32 & 0xffff, 2)),
            Err(_) => self.err(format!("instruction `{h}`")),
        }
    }
}

impl<R: BufRead> Iterator for SpikeLog<R> {
    type Item = Result<Retirement, LogError>;
    fn next(&mut self) -> Option<Self::Item> {
        self.next_retirement().transpose()
    }
}

/// Spike's name of an exception (`trap_illegal_instruction`).
pub fn spike_exception(name: &str) -> Option<Exception> {
    use Exception::*;
    Some(match name.trim() {
        "trap_instruction_address_misaligned" => InstructionAddressMisaligned,
        "trap_instruction_access_fault" => InstructionAccessFault,
        "trap_illegal_instruction" => IllegalInstruction,
        "trap_breakpoint" => Breakpoint,
        "trap_load_address_misaligned" => LoadAddressMisaligned,
        "trap_load_access_fault" => LoadAccessFault,
        "trap_store_address_misaligned" => StoreAddressMisaligned,
        "trap_store_access_fault" => StoreAccessFault,
        "trap_user_ecall" => EcallFromU,
        "trap_supervisor_ecall" => EcallFromS,
        "trap_machine_ecall" => EcallFromM,
        "trap_instruction_page_fault" => InstructionPageFault,
        "trap_load_page_fault" => LoadPageFault,
        "trap_store_page_fault" => StorePageFault,
        _ => return None,
    })
}
