//! Spike's `--log-commits` format, so that `diff` against Spike's log of the same program finds
//! the first difference.
//!
//! ```text
//! core   0: 3 0x0000000080000000 (0x00004197) x3  0x0000000080004000
//! core   0: 3 0x000000008000000e (0x000e3383) x7  0x0000000000000000 mem 0x00000000800000c0
//! ```
//!
//! One line per retired instruction: privilege, pc, instruction bits (4 hex digits for a
//! compressed instruction, 8 otherwise), each register written (`x`/`f` with the register
//! number left-aligned in two columns, `c<number>_<name>` for CSRs; x0 never), then `mem ADDR`
//! for each load and `mem ADDR VALUE` for each store, the value as wide as the access.
//! Instructions that raise an exception (ecall included) are not logged, as in Spike.
//!
//! Spike keeps an instruction's register writes in a `std::map` keyed by `(number << 4) | kind`
//! (kind 0 for x, 1 for f, 4 for CSRs) and prints them in ascending key order, each register
//! once with its last value; loads then stores follow. See `docs/spike-compat.md`.

use crate::csr::csr_name;
use crate::record::{MemKind, Reg, RegWrite, Retired, Sink, TrapRecord};
use std::io::{self, Write};

const HEX: &[u8; 16] = b"0123456789abcdef";

#[inline(always)]
fn put_hex(buf: &mut Vec<u8>, v: u64, digits: usize) {
    buf.extend_from_slice(b"0x");
    let start = buf.len();
    buf.resize(start + digits, b'0');
    let mut v = v;
    for i in (0..digits).rev() {
        buf[start + i] = HEX[(v & 0xf) as usize];
        v >>= 4;
    }
}

/// The key Spike's commit log uses for a register write.
fn spike_key(r: Reg) -> u64 {
    match r {
        Reg::X(n) => (n as u64) << 4,
        Reg::F(n) => ((n as u64) << 4) | 1,
        Reg::Csr(n) => ((n as u64) << 4) | 4,
    }
}

/// Writes Spike's commit log.
pub struct CommitLog<W: Write> {
    out: W,
    buf: Vec<u8>,
    ordered: Vec<(u64, RegWrite)>,
    error: Option<io::Error>,
}

impl<W: Write> CommitLog<W> {
    pub fn new(out: W) -> Self {
        CommitLog {
            out,
            buf: Vec::with_capacity(1 << 16),
            ordered: Vec::new(),
            error: None,
        }
    }

    /// Flush and return the writer, or the first I/O error met.
    pub fn finish(mut self) -> io::Result<W> {
        self.drain();
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.out.flush()?;
        Ok(self.out)
    }

    fn drain(&mut self) {
        if self.error.is_none() && !self.buf.is_empty() {
            if let Err(e) = self.out.write_all(&self.buf) {
                self.error = Some(e);
            }
        }
        self.buf.clear();
    }

    /// Format one line (without writing it out).
    pub fn format(&mut self, r: &Retired) {
        let b = &mut self.buf;
        b.extend_from_slice(b"core   0: ");
        b.push(b'0' + r.prv as u8);
        b.push(b' ');
        put_hex(b, r.pc, 16);
        b.extend_from_slice(b" (");
        if r.insn.len == 2 {
            put_hex(b, r.insn.bits as u64 & 0xffff, 4);
        } else {
            put_hex(b, r.insn.bits as u64, 8);
        }
        b.push(b')');
        // Distinct registers, last value wins, in ascending key order.
        self.ordered.clear();
        for w in r.writes() {
            let k = spike_key(w.reg);
            match self.ordered.iter_mut().find(|(kk, _)| *kk == k) {
                Some(e) => e.1.value = w.value,
                None => self.ordered.push((k, *w)),
            }
        }
        if self.ordered.len() > 1 {
            self.ordered.sort_unstable_by_key(|(k, _)| *k);
        }
        for (_, w) in &self.ordered {
            match w.reg {
                Reg::X(0) => continue,
                Reg::X(n) | Reg::F(n) => {
                    b.push(b' ');
                    b.push(if matches!(w.reg, Reg::X(_)) {
                        b'x'
                    } else {
                        b'f'
                    });
                    if n < 10 {
                        b.push(b'0' + n);
                        b.push(b' ');
                    } else {
                        b.push(b'0' + n / 10);
                        b.push(b'0' + n % 10);
                    }
                    b.push(b' ');
                }
                Reg::Csr(n) => {
                    let name = csr_name(n).unwrap_or_else(|| "unknown".into());
                    let _ = write!(b, " c{}_{} ", n, name);
                }
            }
            put_hex(b, w.value, 16);
        }
        for m in r.mem().iter().filter(|m| m.kind == MemKind::Load) {
            b.extend_from_slice(b" mem ");
            put_hex(b, m.vaddr, 16);
        }
        for m in r.mem().iter().filter(|m| m.kind == MemKind::Store) {
            b.extend_from_slice(b" mem ");
            put_hex(b, m.vaddr, 16);
            b.push(b' ');
            put_hex(b, m.value, 2 * m.size as usize);
        }
        b.push(b'\n');
    }
}

impl<W: Write> Sink for CommitLog<W> {
    const ENABLED: bool = true;

    #[inline]
    fn retire(&mut self, r: &Retired) {
        if r.exception.is_some() {
            return;
        }
        self.format(r);
        if self.buf.len() >= 1 << 16 {
            self.drain();
        }
    }

    fn trap(&mut self, _: &TrapRecord) {}
}
