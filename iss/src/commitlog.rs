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
//! With the execution trace (`-l`, [`CommitLog::spike`]) each instruction the hart fetched,
//! the ones that then trap included, first gets Spike's `-l` line, and each trap its lines:
//!
//! ```text
//! core   0: >>>>  _start                                      <- a symbol at the pc
//! core   0: 0x0000000080000000 (0x00000297) auipc   t0, 0x0   <- fetched (bits in 8 digits)
//! core   0: 3 0x0000000080000000 (0x00000297) x5  0x0000000080000000
//! core   0: exception trap_illegal_instruction, epc 0x000000008000201a
//! core   0:           tval 0x0000000000000000                 <- not for ecalls
//! core   0: exception interrupt #7, epc 0x0000000080002288
//! ```
//!
//! As in Spike, the `-l` line (and its symbol line) is left out when the instruction is the
//! same one, at the same pc, as the last one printed (a `j .` loop, or an instruction that
//! traps to itself), and an instruction whose fetch faulted has none. The disassembly is
//! [`crate::disasm`]'s, the symbols [`crate::elf::spike_symbols`]'s.
//!
//! Spike keeps an instruction's register writes in a `std::map` keyed by `(number << 4) | kind`
//! (kind 0 for x, 1 for f, 4 for CSRs) and prints them in ascending key order, each register
//! once with its last value; loads then stores follow. See `docs/spike-compat.md`.

use crate::csr::csr_name;
use crate::insn::{Insn, Op};
use crate::record::{Detail, Effect, Shape, SimpleRun, SHAPES};
use crate::record::{MemKind, Reg, RegWrite, Retired, Sink, TrapRecord};
use crate::stage::{Inbox, Stage};
use arch::{Cause, Exception, Priv};
use std::collections::HashMap;
use std::io::{self, Write};

/// The sixteen lower-case hex digits of `v`, most significant first.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn hex16(v: u64) -> [u8; 16] {
    use std::arch::x86_64::*;
    // SSE2 (in every x86-64): the bytes most significant first, each split into its two
    // nibbles, then '0' added to each and 39 more to those above 9 ('a' - '0' - 10).
    // SAFETY: SSE2 is part of x86-64; the result is 16 plain bytes.
    unsafe {
        let x = _mm_cvtsi64_si128(v.swap_bytes() as i64);
        let low = _mm_set1_epi8(0x0f);
        let n = _mm_unpacklo_epi8(
            _mm_and_si128(_mm_srli_epi16::<4>(x), low),
            _mm_and_si128(x, low),
        );
        let letters = _mm_and_si128(_mm_cmpgt_epi8(n, _mm_set1_epi8(9)), _mm_set1_epi8(39));
        let a = _mm_add_epi8(_mm_add_epi8(n, _mm_set1_epi8(b'0' as i8)), letters);
        std::mem::transmute::<__m128i, [u8; 16]>(a)
    }
}

/// The sixteen lower-case hex digits of `v`, most significant first.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn hex16(v: u64) -> [u8; 16] {
    hex16_swar(v)
}

/// [`hex16`] in plain 64-bit arithmetic (other hosts; checked against the SSE2 one).
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline(always)]
fn hex16_swar(v: u64) -> [u8; 16] {
    /// The eight digits of `v`: its nibbles spread one to a byte, then in ASCII.
    #[inline(always)]
    fn hex8(v: u32) -> [u8; 8] {
        let mut x = v as u64;
        x = (x | (x << 16)) & 0x0000_ffff_0000_ffff;
        x = (x | (x << 8)) & 0x00ff_00ff_00ff_00ff;
        x = (x | (x << 4)) & 0x0f0f_0f0f_0f0f_0f0f;
        // 1 in each byte whose nibble is 10 or more (no byte carries into the next).
        let letters = ((x + 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101;
        (x + 0x3030_3030_3030_3030 + letters * 39).to_be_bytes()
    }
    let mut out = [0u8; 16];
    out[..8].copy_from_slice(&hex8((v >> 32) as u32));
    out[8..].copy_from_slice(&hex8(v as u32));
    out
}

/// The start of each `x<n>` and `f<n>` entry, up to its value's digits: ` x5  0x`,
/// ` f31 0x` (7 bytes, and a pad byte that the next write covers).
static REG_PREFIX: [[u8; 8]; 64] = {
    let mut t = [[0u8; 8]; 64];
    let mut i = 0;
    while i < 64 {
        let n = (i % 32) as u8;
        let c = if i < 32 { b'x' } else { b'f' };
        let mut e = *b" x0  0x ";
        e[1] = c;
        if n < 10 {
            e[2] = b'0' + n;
        } else {
            e[2] = b'0' + n / 10;
            e[3] = b'0' + n % 10;
        }
        t[i] = e;
        i += 1;
    }
    t
};

/// A line being written at the end of a chunk buffer, which always has room for one and
/// [`SLACK`] bytes more: fixed-size writes may run past what they count, the next write
/// (or the next line) covering the excess.
struct Line<'a> {
    b: &'a mut [u8],
    n: usize,
}

/// Bytes a line's writes may run past its end (a CSR's [`CsrPrefix`]).
const SLACK: usize = 32;

impl Line<'_> {
    #[inline(always)]
    fn put(&mut self, s: &[u8]) {
        self.b[self.n..self.n + s.len()].copy_from_slice(s);
        self.n += s.len();
    }

    /// The first `len` bytes of `s` (the rest written too, to be covered).
    #[inline(always)]
    fn put_n<const N: usize>(&mut self, s: &[u8; N], len: usize) {
        self.b[self.n..self.n + N].copy_from_slice(s);
        self.n += len;
    }

    /// The low `digits` (1 to 16) hex digits of `v`, without `0x`.
    #[inline(always)]
    fn digits(&mut self, v: u64, digits: usize) {
        // The digits wanted at the top, all sixteen written.
        let top = if digits >= 16 {
            v
        } else {
            v << (64 - 4 * digits)
        };
        self.put_n(&hex16(top), digits);
    }

    /// `0x` and the low `digits` (1 to 16) hex digits of `v`.
    #[inline(always)]
    fn hex(&mut self, v: u64, digits: usize) {
        self.put(b"0x");
        self.digits(v, digits);
    }
}

/// The longest line: the prefix, eight register writes and two memory accesses, or
/// cbo.zero's 64 byte writes (28 bytes each), with room.
const MAX_LINE: usize = 4096;

/// The key Spike's commit log uses for a register write.
fn spike_key(r: Reg) -> u64 {
    match r {
        Reg::X(n) => (n as u64) << 4,
        Reg::F(n) => ((n as u64) << 4) | 1,
        Reg::Csr(n) => ((n as u64) << 4) | 4,
    }
}

/// Bytes handed to the writer thread at a time.
const CHUNK: usize = 4 << 20;

/// Chunk buffers made at most (unless the writer thread ends): the one being filled, two
/// queued and one being written.
const BUFFERS: usize = 4;

/// Writes Spike's commit log. Lines are formatted on the hart's thread straight into large
/// buffers that a writer thread writes out, so the hart does not wait for the file system.
pub struct CommitLog<W: Write + Send + 'static> {
    /// The chunk being filled: always `CHUNK + MAX_LINE + SLACK` long; `pos` bytes are lines.
    buf: Vec<u8>,
    pos: usize,
    /// Chunk buffers made so far (at most [`BUFFERS`]).
    buffers: usize,
    ordered: Vec<(u64, RegWrite)>,
    /// CSR write prefixes, by number, each made on first use.
    csr_prefix: Vec<CsrPrefix>,
    /// The writer thread: full chunks to it, empty ones back.
    writer: Option<Stage<Vec<u8>, io::Result<W>>>,
    /// Set by the writer thread when a write failed ([`Sink::failed`]).
    failed: std::sync::Arc<std::sync::atomic::AtomicBool>,
    /// Commit lines are written (`--log-commits`).
    commits: bool,
    /// The execution trace (`-l`), when asked for.
    trace: Option<Box<Trace>>,
    /// FP registers are 32 bits (a hart with F but not D): their values are written in 8
    /// digits, as Spike writes them.
    flen32: bool,
    /// Each line's start: `core %3d: ` with the running hart's number, as Spike's.
    core: [u8; 10],
    /// The start of a commit line up to the low half of its pc: [`Head`].
    head: Head,
}

/// The first 22 bytes of the commit lines of one privilege and one high half of the pc
/// (`core   0: 3 0x00000000`), made again when either changes (or the hart does): a line's
/// start is then one copy, and only the pc's low half is converted.
struct Head {
    /// The 22 bytes (and 10 that the line's next writes cover).
    bytes: [u8; 32],
    /// The privilege and high half they are for: `(prv << 32) | (pc >> 32)`; `u64::MAX` for
    /// none.
    key: u64,
}

impl Head {
    const NONE: u64 = u64::MAX;

    /// `(prv << 32) | (pc >> 32)`: what a line's head depends on beside the hart.
    #[inline(always)]
    fn key(prv: Priv, pc: u64) -> u64 {
        ((prv as u64) << 32) | (pc >> 32)
    }

    /// The head of the lines of `prv` with `pc`'s high half, on hart `core`.
    #[cold]
    fn make(&mut self, core: &[u8; 10], prv: Priv, pc: u64) {
        let b = &mut self.bytes;
        b[..10].copy_from_slice(core);
        b[10] = b'0' + prv as u8;
        b[11..14].copy_from_slice(b" 0x");
        b[14..30].copy_from_slice(&hex16(pc >> 32 << 32));
        self.key = Head::key(prv, pc);
    }
}

/// `core %3d: ` for hart `h` (Spike's prefix of every log line).
fn core_prefix(h: usize) -> [u8; 10] {
    let mut p = *b"core   0: ";
    let s = format!("{:>3}", h.min(999));
    p[5..8].copy_from_slice(s.as_bytes());
    p
}

/// What the execution trace keeps between lines.
struct Trace {
    /// The name shown at each address.
    symbols: HashMap<u64, String>,
    /// The pc and bits of the last instruction whose `-l` line was written.
    last: Option<(u64, u32)>,
    /// The lines being made.
    text: String,
}

impl<W: Write + Send + 'static> CommitLog<W> {
    /// Spike's `--log-commits` log to `out`.
    pub fn new(out: W) -> Self {
        Self::spike(out, true, None)
    }

    /// Spike's log to `out`: commit lines if `commits` (`--log-commits`), and the execution
    /// trace (`-l`) if `trace` is given: the names to show at addresses
    /// ([`crate::elf::spike_symbols`]).
    pub fn spike(mut out: W, commits: bool, trace: Option<HashMap<u64, String>>) -> Self {
        let failed = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let failed_w = std::sync::Arc::clone(&failed);
        // Two chunks queued, four on the way back.
        let writer = Stage::spawn(
            "commit-log",
            "the commit-log writer thread",
            2,
            4,
            move |inbox: Inbox<Vec<u8>>| -> io::Result<W> {
                let mut result = Ok(());
                for b in inbox.iter() {
                    // After an error keep draining, so the hart never blocks.
                    if result.is_ok() {
                        result = out.write_all(&b);
                        if result.is_err() {
                            failed_w.store(true, std::sync::atomic::Ordering::Relaxed);
                        }
                    }
                    inbox.give_back(b);
                }
                result?;
                out.flush()?;
                Ok(out)
            },
        )
        .expect("cannot start the commit-log writer thread");
        CommitLog {
            buf: vec![0; CHUNK + MAX_LINE + SLACK],
            pos: 0,
            buffers: 1,
            ordered: Vec::with_capacity(8),
            csr_prefix: vec![[0; 32]; 4096],
            writer: Some(writer),
            failed,
            commits,
            flen32: false,
            core: core_prefix(0),
            head: Head {
                bytes: [0; 32],
                key: Head::NONE,
            },
            trace: trace.map(|symbols| {
                Box::new(Trace {
                    symbols,
                    last: None,
                    text: String::with_capacity(256),
                })
            }),
        }
    }

    /// Append `bytes` (any length) to the chunk being filled.
    fn put_raw(&mut self, bytes: &[u8]) {
        if self.pos + bytes.len() > CHUNK {
            self.hand_over();
        }
        if bytes.len() > CHUNK {
            // Longer than a chunk (a symbol name can be as long as the ELF allows): on its own.
            if let Some(w) = &self.writer {
                w.send(bytes.to_vec());
            }
            return;
        }
        self.buf[self.pos..self.pos + bytes.len()].copy_from_slice(bytes);
        self.pos += bytes.len();
    }

    /// The `-l` line of the instruction of `r` (with the symbol line before it), unless it
    /// is the one last written or its fetch faulted.
    #[cold]
    fn trace_insn(&mut self, r: &Retired) {
        let Some(t) = self.trace.as_deref_mut() else {
            return;
        };
        if r.insn.op == Op::NotDecoded {
            return;
        }
        let bits = if r.insn.len == 2 {
            r.insn.bits & 0xffff
        } else {
            r.insn.bits
        };
        if t.last == Some((r.pc, bits)) {
            return;
        }
        t.last = Some((r.pc, bits));
        t.text.clear();
        let core = std::str::from_utf8(&self.core).unwrap_or("core   0: ");
        use std::fmt::Write as _;
        if let Some(name) = t.symbols.get(&r.pc) {
            let _ = writeln!(t.text, "{core}>>>>  {name}");
        }
        let _ = write!(t.text, "{core}0x{:016x} (0x{bits:08x}) ", r.pc);
        crate::disasm::disasm_into(bits, &mut t.text);
        t.text.push('\n');
        let text = std::mem::take(&mut t.text);
        self.put_raw(text.as_bytes());
        if let Some(t) = self.trace.as_deref_mut() {
            t.text = text;
        }
    }

    /// The lines Spike's `-l` log gives a trap.
    #[cold]
    fn trace_trap(&mut self, tr: &TrapRecord) {
        let Some(t) = self.trace.as_deref_mut() else {
            return;
        };
        t.text.clear();
        let core = std::str::from_utf8(&self.core).unwrap_or("core   0: ");
        use std::fmt::Write as _;
        if tr.trigger {
            let _ = writeln!(t.text, "core   0: trigger action 0");
        }
        let _ = match tr.cause {
            Cause::Interrupt(i) => writeln!(
                t.text,
                "{core}exception interrupt #{}, epc 0x{:016x}",
                i.code(),
                tr.epc
            ),
            Cause::Exception(e) => writeln!(
                t.text,
                "{core}exception {}, epc 0x{:016x}",
                trap_name(e),
                tr.epc
            ),
        };
        if let Cause::Exception(e) = tr.cause {
            if !matches!(
                e,
                Exception::EcallFromU | Exception::EcallFromS | Exception::EcallFromM
            ) {
                let _ = writeln!(t.text, "{core}          tval 0x{:016x}", tr.tval);
            }
        }
        let text = std::mem::take(&mut t.text);
        self.put_raw(text.as_bytes());
        if let Some(t) = self.trace.as_deref_mut() {
            t.text = text;
        }
        if self.pos >= CHUNK {
            self.hand_over();
        }
    }

    /// Write what is left, stop the writer thread and return the writer, or the first I/O
    /// error met.
    pub fn finish(mut self) -> io::Result<W> {
        self.send_chunk();
        match self.writer.take().map(Stage::join) {
            Some(Ok(r)) => r,
            Some(Err(panicked)) => Err(panicked.into()),
            None => Err(io::Error::other("the commit log was already finished")),
        }
    }

    /// Send the chunk being filled to the writer, and take an empty one.
    fn hand_over(&mut self) {
        if !self.send_chunk() {
            return;
        }
        let Some(w) = &self.writer else {
            return;
        };
        // A buffer the writer gave back; a new one while fewer than BUFFERS were made; else
        // wait for one (the writer has them all: as if its queue were longer). Not a new one
        // each time the writer is late, which would cost a 4 MiB allocation and the first
        // touch of each of its pages.
        let mut next = match w.recycled() {
            Some(b) => b,
            None if self.buffers < BUFFERS => {
                self.buffers += 1;
                vec![0; CHUNK + MAX_LINE + SLACK]
            }
            // `None`: the writer thread has ended (it panicked: `finish` says so).
            None => w.wait_recycled().unwrap_or_default(),
        };
        next.resize(CHUNK + MAX_LINE + SLACK, 0);
        self.buf = next;
    }

    /// Send the chunk being filled to the writer, if it holds anything; leaves no buffer to
    /// fill. Whether it sent one.
    fn send_chunk(&mut self) -> bool {
        if self.pos == 0 {
            return false;
        }
        let Some(w) = &self.writer else {
            return false;
        };
        let mut b = std::mem::take(&mut self.buf);
        b.truncate(self.pos);
        self.pos = 0;
        // The writer only goes away in `finish`.
        w.send(b);
        true
    }

    /// Write FP register values in 8 hex digits (FLEN 32: a hart with F but not D, whose
    /// registers hold NaN-boxed singles) rather than 16.
    pub fn with_flen32(mut self, flen32: bool) -> Self {
        self.flen32 = flen32;
        self
    }

    /// The lines of the instructions of `run` from `i` (at `pc`) on, made straight from
    /// their effects, up to the first that is not simple ([`is_simple`]), or the end of the
    /// run or of the chunk. Returns the index and pc of the next instruction.
    #[inline(always)]
    fn simple_lines(&mut self, run: &SimpleRun, mut i: usize, mut pc: u64) -> (usize, u64) {
        // The buffer as an array, its length known: a line's window at any position below
        // CHUNK needs no bounds check.
        let buf: &mut [u8; CHUNK + MAX_LINE + SLACK] = (&mut self.buf[..])
            .try_into()
            .expect("the chunk buffer has its length");
        let insns = run.insns;
        let effects = &run.effects[..insns.len()];
        let mut pos = self.pos;
        while i < insns.len() && pos < CHUNK {
            let (d, e) = (&insns[i], &effects[i]);
            if !is_simple(d) {
                break;
            }
            if Head::key(run.prv, pc) != self.head.key {
                self.head.make(&self.core, run.prv, pc);
            }
            let w = (&mut buf[pos..pos + 2 * SIMPLE_LINE])
                .try_into()
                .expect("a chunk buffer has room for a line past CHUNK");
            let shape = SHAPES[d.op as usize];
            pos += simple_line(
                &mut Window(w),
                &self.head.bytes,
                pc,
                d,
                e,
                shape,
                self.flen32,
            );
            pc = pc.wrapping_add(d.len as u64);
            i += 1;
        }
        self.pos = pos;
        (i, pc)
    }

    /// The line of instruction `i` of `run` (at `pc`), which is not simple ([`is_simple`]):
    /// made from its record.
    #[cold]
    #[inline(never)]
    fn built_line(&mut self, run: &SimpleRun, i: usize, pc: u64) {
        let mut r = Retired::default();
        run.record(i, pc, &mut r);
        self.format(&r);
    }

    /// Format one line into the buffer.
    pub fn format(&mut self, r: &Retired) {
        if Head::key(r.prv, r.pc) != self.head.key {
            self.head.make(&self.core, r.prv, r.pc);
        }
        let n = put_head(
            &mut Window::at(&mut self.buf, self.pos),
            &self.head.bytes,
            r.pc,
            &r.insn,
        );
        let mut l = Line {
            b: &mut self.buf[self.pos..],
            n,
        };
        let writes = r.writes();
        if writes.len() == 1 {
            put_write(&mut self.csr_prefix, &mut l, writes[0], self.flen32);
        } else if writes.len() > 1 {
            // Distinct registers, last value wins, in ascending key order.
            let ordered = &mut self.ordered;
            ordered.clear();
            for w in writes {
                let k = spike_key(w.reg);
                match ordered.iter_mut().find(|(kk, _)| *kk == k) {
                    Some(e) => e.1.value = w.value,
                    None => ordered.push((k, *w)),
                }
            }
            ordered.sort_unstable_by_key(|(k, _)| *k);
            for (_, w) in ordered.iter() {
                put_write(&mut self.csr_prefix, &mut l, *w, self.flen32);
            }
        }
        for m in r.mem().iter().filter(|m| m.kind == MemKind::Load) {
            l.put(b" mem ");
            l.hex(m.vaddr, 16);
        }
        for m in r.mem().iter().filter(|m| m.kind == MemKind::Store) {
            if m.size > 8 {
                // cbo.zero's block of zeros: Spike stores (and logs) it byte by byte.
                for i in 0..m.size as u64 {
                    l.put(b" mem ");
                    l.hex(m.vaddr.wrapping_add(i), 16);
                    l.put(b" ");
                    l.hex(0, 2);
                }
                continue;
            }
            l.put(b" mem ");
            l.hex(m.vaddr, 16);
            l.put(b" ");
            l.hex(m.value, 2 * m.size as usize);
        }
        l.put(b"\n");
        self.pos += l.n;
    }
}

/// Bytes a commit line made from an effect can take, with the fixed-size writes past its
/// end: the head and the instruction's bits (43), then a register (23) and an address (23),
/// an address and a stored value (42), or a register and fflags (52), with room.
const SIMPLE_LINE: usize = 128;

/// Where a line's start, or a whole line made from an effect, is written: a fixed window at
/// the end of the chunk buffer (which always has room for one past [`CHUNK`]), twice as long
/// as such a line, so that a write at an offset below [`SIMPLE_LINE`] needs no bounds check.
struct Window<'a>(&'a mut [u8; 2 * SIMPLE_LINE]);

impl Window<'_> {
    /// The window at `pos` in a chunk buffer (`pos` below [`CHUNK`]).
    #[inline(always)]
    fn at(buf: &mut [u8], pos: usize) -> Window<'_> {
        Window(
            buf[pos..]
                .first_chunk_mut()
                .expect("a chunk buffer has room for a line past CHUNK"),
        )
    }

    /// `s` at `at` (below [`SIMPLE_LINE`], as every offset in a line made from an effect).
    #[inline(always)]
    fn put<const N: usize>(&mut self, at: usize, s: &[u8; N]) {
        const { assert!(N <= SIMPLE_LINE) };
        debug_assert!(at < SIMPLE_LINE);
        let at = at % SIMPLE_LINE;
        self.0[at..at + N].copy_from_slice(s);
    }
}

/// The two halves of 16 bytes.
#[inline(always)]
fn halves(x: [u8; 16]) -> ([u8; 8], [u8; 8]) {
    let (a, b) = x.split_at(8);
    (
        a.try_into().unwrap_or_default(),
        b.try_into().unwrap_or_default(),
    )
}

/// A line's start, `core   0: 3 0x0000000080000000 (0x00004197)`, from `head` (the
/// [`Head`] of `pc`); returns its length. The pc's low half and the instruction's bits are
/// converted together.
#[inline(always)]
fn put_head(w: &mut Window, head: &[u8; 32], pc: u64, insn: &Insn) -> usize {
    w.put(0, head);
    let short = insn.len == 2;
    let bits = if short { insn.bits << 16 } else { insn.bits };
    let (low, bits) = halves(hex16((pc << 32) | bits as u64));
    w.put(22, &low);
    w.put(30, b" (0x");
    w.put(34, &bits);
    let n = if short { 38 } else { 42 };
    w.put(n, b")");
    n + 1
}

/// Whether the line of `d`, which left the effect `e` in a simple run, can be made straight
/// from the effect: any but a store wider than 8 bytes (none is: cbo.zero's record is built,
/// and Spike logs its block byte by byte).
#[inline(always)]
fn is_simple(d: &Insn) -> bool {
    match SHAPES[d.op as usize] {
        Shape::Store(size) | Shape::FStore(size) => size <= 8,
        Shape::Built => false,
        _ => true,
    }
}

/// The commit line of `d` at `pc`, an operation of a fixed `shape` that needs no sorting
/// ([`is_simple`]), made from its effect `e` in `w` after `head` (the
/// [`Head`] of `pc`); returns its length. `flen32`: FP values in 8 digits.
#[inline(always)]
fn simple_line(
    w: &mut Window,
    head: &[u8; 32],
    pc: u64,
    d: &Insn,
    e: &Effect,
    shape: Shape,
    flen32: bool,
) -> usize {
    /// ` x5  0x` or ` f5  0x` (`i`: the register, f registers from 32), then `v` (its
    /// digits at the top, all sixteen written); returns the end.
    #[inline(always)]
    fn reg(w: &mut Window, n: usize, i: usize, v: u64, digits: usize) -> usize {
        w.put(n, &REG_PREFIX[i]);
        w.put(n + 7, &hex16(v));
        n + 7 + digits
    }
    /// fflags (CSR 1) written with `v`; returns the end.
    #[inline(always)]
    fn fflags(w: &mut Window, n: usize, v: u64) -> usize {
        w.put(n, b" c1_fflags 0x");
        w.put(n + 13, &hex16(v));
        n + 29
    }
    /// ` mem 0x` and the address `a`; returns the end.
    #[inline(always)]
    fn mem(w: &mut Window, n: usize, a: u64) -> usize {
        w.put(n, b" mem 0x");
        w.put(n + 7, &hex16(a));
        n + 23
    }
    let x = |w: &mut Window, n: usize| {
        if d.rd != 0 {
            reg(w, n, (d.rd & 31) as usize, e.value, 16)
        } else {
            n
        }
    };
    let f = |w: &mut Window, n: usize| {
        let i = 32 + (d.rd & 31) as usize;
        if flen32 {
            reg(w, n, i, e.value << 32, 8)
        } else {
            reg(w, n, i, e.value, 16)
        }
    };
    let mut n = put_head(w, head, pc, d);
    match shape {
        Shape::Rd => n = x(w, n),
        Shape::FpToF | Shape::FpToX => {
            // With fflags when the operation raised a flag (its effect's `mem_value`), in
            // Spike's order (ascending `spike_key`): fflags' key, CSR 1's, comes after x1's,
            // f0's and f1's (x0 is not logged), before the others'.
            let flags = e.mem_value != u64::MAX;
            let fflags_last = d.rd <= 1;
            if flags && !fflags_last {
                n = fflags(w, n, e.mem_value);
            }
            n = if shape == Shape::FpToF {
                f(w, n)
            } else {
                x(w, n)
            };
            if flags && fflags_last {
                n = fflags(w, n, e.mem_value);
            }
        }
        Shape::Load(_) => {
            n = x(w, n);
            n = mem(w, n, e.vaddr);
        }
        Shape::FLoad(_) => {
            n = f(w, n);
            n = mem(w, n, e.vaddr);
        }
        Shape::Store(size) | Shape::FStore(size) => {
            n = mem(w, n, e.vaddr);
            // The value as wide as the access (1 to 8 bytes), its digits at the top.
            w.put(n, b" 0x");
            w.put(
                n + 3,
                &hex16(e.mem_value.wrapping_shl(64 - 8 * size as u32)),
            );
            n += 3 + 2 * size as usize;
        }
        Shape::Nothing | Shape::Built => {}
    }
    w.put(n, b"\n");
    n + 1
}

/// Spike's name of an exception (its `trap_t::name`).
fn trap_name(e: Exception) -> &'static str {
    match e {
        Exception::InstructionAddressMisaligned => "trap_instruction_address_misaligned",
        Exception::InstructionAccessFault => "trap_instruction_access_fault",
        Exception::IllegalInstruction => "trap_illegal_instruction",
        Exception::Breakpoint => "trap_breakpoint",
        Exception::LoadAddressMisaligned => "trap_load_address_misaligned",
        Exception::LoadAccessFault => "trap_load_access_fault",
        Exception::StoreAddressMisaligned => "trap_store_address_misaligned",
        Exception::StoreAccessFault => "trap_store_access_fault",
        Exception::EcallFromU => "trap_user_ecall",
        Exception::EcallFromS => "trap_supervisor_ecall",
        Exception::EcallFromM => "trap_machine_ecall",
        Exception::InstructionPageFault => "trap_instruction_page_fault",
        Exception::LoadPageFault => "trap_load_page_fault",
        Exception::StorePageFault => "trap_store_page_fault",
    }
}

#[inline(always)]
fn put_write(csr_prefix: &mut [CsrPrefix], l: &mut Line, w: RegWrite, flen32: bool) {
    match w.reg {
        Reg::X(0) => {}
        Reg::X(n) => {
            l.put_n(&REG_PREFIX[(n & 31) as usize], 7);
            l.digits(w.value, 16);
        }
        Reg::F(n) => {
            l.put_n(&REG_PREFIX[32 + (n & 31) as usize], 7);
            l.digits(w.value, if flen32 { 8 } else { 16 });
        }
        Reg::Csr(n) => {
            let p = &mut csr_prefix[(n & 0xfff) as usize];
            if p[31] == 0 {
                make_csr_prefix(p, n);
            }
            l.put_n(p, p[31] as usize);
            l.digits(w.value, 16);
        }
    }
}

/// The start of a CSR's entry in a line, ` c<number>_<name> 0x` (at most 31 bytes: the
/// longest name has 13 characters), its length in the last byte; all zero until made.
type CsrPrefix = [u8; 32];

/// [`CsrPrefix`] of CSR `n`.
#[cold]
fn make_csr_prefix(p: &mut CsrPrefix, n: u16) {
    let name = csr_name(n).unwrap_or_else(|| "unknown".into());
    let s = format!(" c{n}_{name} 0x");
    // Every CSR's fits (the test `csr_prefixes` checks each of the 4096).
    assert!(
        s.len() < 32,
        "CSR {n}'s name is too long for the commit log"
    );
    p[..s.len()].copy_from_slice(s.as_bytes());
    p[31] = s.len() as u8;
}

impl<W: Write + Send + 'static> Sink for CommitLog<W> {
    // Each record of a run is made from its effect and formatted as any other.
    const DETAIL: Detail = Detail::SimpleRuns;

    #[inline]
    fn retire(&mut self, r: &Retired) {
        if self.trace.is_some() {
            self.trace_insn(r);
        }
        if r.exception.is_none() && self.commits {
            self.format(r);
        }
        if self.pos >= CHUNK {
            self.hand_over();
        }
    }

    /// Each line made from the effects, without the record in between (an FP operation that
    /// raised a flag too, its fflags write in Spike's order).
    fn simple_run(&mut self, run: &SimpleRun) {
        if self.trace.is_some() || !self.commits {
            run.for_each_record(|r| self.retire(r));
            return;
        }
        let (mut i, mut pc) = (0, run.pc);
        loop {
            (i, pc) = self.simple_lines(run, i, pc);
            if self.pos >= CHUNK {
                self.hand_over();
            }
            let Some(d) = run.insns.get(i) else {
                return;
            };
            if !is_simple(d) {
                self.built_line(run, i, pc);
                (i, pc) = (i + 1, pc.wrapping_add(d.len as u64));
                if self.pos >= CHUNK {
                    self.hand_over();
                }
            }
        }
    }

    fn trap(&mut self, t: &TrapRecord) {
        if self.trace.is_some() {
            self.trace_trap(t);
        }
    }

    fn failed(&self) -> bool {
        self.failed.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn hart(&mut self, h: usize) {
        self.core = core_prefix(h);
        self.head.key = Head::NONE;
    }
}

impl<W: Write + Send + 'static> Drop for CommitLog<W> {
    fn drop(&mut self) {
        // Dropped without `finish` (an error path): still write what was logged.
        self.send_chunk();
        if let Some(w) = self.writer.take() {
            let _ = w.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode;
    use crate::record::{MemAccess, Retired};
    use arch::Priv;

    fn line(r: &Retired) -> String {
        let mut log = CommitLog::new(Vec::new());
        log.retire(r);
        String::from_utf8(log.finish().unwrap()).unwrap()
    }

    fn rec(pc: u64, bits: u32) -> Retired {
        let mut r = Retired::default();
        r.reset(pc, &decode(bits), Priv::M, 0);
        r
    }

    #[test]
    fn spike_format() {
        let mut r = rec(0x8000_0000, 0x0000_4197);
        r.push_write(Reg::X(3), 0x8000_4000);
        assert_eq!(
            line(&r),
            "core   0: 3 0x0000000080000000 (0x00004197) x3  0x0000000080004000\n"
        );
        // Compressed instruction, store entry as wide as the access.
        let mut r = rec(0x8000_002c, 0xc084);
        r.push_mem(MemAccess {
            kind: MemKind::Store,
            vaddr: 0x8000_2000,
            paddr: 0x8000_2000,
            size: 4,
            value: 0x8000_2000,
        });
        assert_eq!(
            line(&r),
            "core   0: 3 0x000000008000002c (0xc084) mem 0x0000000080002000 0x80002000\n"
        );
        // Ascending key order: x1 < fflags < x2; mstatus last.
        let mut r = rec(0x8000_004c, 0x0015_90f3);
        r.push_write(Reg::Csr(0x300), 0x8000_000a_0000_6000);
        r.push_write(Reg::Csr(1), 0x1f);
        r.push_write(Reg::X(1), 0);
        assert_eq!(
            line(&r),
            "core   0: 3 0x000000008000004c (0x001590f3) x1  0x0000000000000000 c1_fflags \
             0x000000000000001f c768_mstatus 0x8000000a00006000\n"
        );
        // Writes to x0 are not logged; x10 has one space; trapping instructions print nothing.
        let mut r = rec(0x8000_0010, 0x0004_a003);
        r.push_write(Reg::X(0), 5);
        r.push_write(Reg::X(10), 1);
        assert_eq!(
            line(&r),
            "core   0: 3 0x0000000080000010 (0x0004a003) x10 0x0000000000000001\n"
        );
        r.exception = Some((arch::Cause::Exception(arch::Exception::LoadAccessFault), 0));
        assert_eq!(line(&r), "");
    }

    fn trace(records: &[Retired], symbols: HashMap<u64, String>) -> String {
        let mut log = CommitLog::spike(Vec::new(), true, Some(symbols));
        for r in records {
            log.retire(r);
        }
        String::from_utf8(log.finish().unwrap()).unwrap()
    }

    #[test]
    fn execution_trace() {
        let r = rec(0x8000_0000, 0x0000_0013);
        let syms = HashMap::from([(0x8000_0000, "_start".to_string())]);
        // The symbol line, the fetched line, the commit line; a repeat of the same pc and
        // bits gets no second fetched line.
        assert_eq!(
            trace(&[r.clone(), r], syms),
            "core   0: >>>>  _start\n\
             core   0: 0x0000000080000000 (0x00000013) nop\n\
             core   0: 3 0x0000000080000000 (0x00000013)\n\
             core   0: 3 0x0000000080000000 (0x00000013)\n"
        );
        // A trapping instruction: its line, then the exception's (tval, except for ecall).
        let mut log = CommitLog::spike(Vec::new(), true, Some(HashMap::new()));
        let mut r = rec(0x8000_0004, 0x0000_0073);
        r.exception = Some((arch::Cause::Exception(Exception::EcallFromM), 0));
        log.retire(&r);
        log.trap(&TrapRecord {
            cause: Cause::Exception(Exception::EcallFromM),
            tval: 0,
            epc: 0x8000_0004,
            from: Priv::M,
            to: Priv::M,
            handler: 0x8000_0100,
            writes: [RegWrite {
                reg: Reg::X(0),
                value: 0,
            }; 4],
            insn: None,
            time: 0,
            trigger: false,
        });
        assert_eq!(
            String::from_utf8(log.finish().unwrap()).unwrap(),
            "core   0: 0x0000000080000004 (0x00000073) ecall\n\
             core   0: exception trap_machine_ecall, epc 0x0000000080000004\n"
        );
    }

    /// Hex digits of every width, against `format!`.
    #[test]
    fn hex_digits() {
        let mut buf = vec![0u8; 64];
        let mut v: u64 = 0x0123_4567_89ab_cdef;
        for i in 0..20_000u64 {
            for (digits, mask) in [(2, 0xff), (4, 0xffff), (8, 0xffff_ffff), (16, u64::MAX)] {
                let mut l = Line { b: &mut buf, n: 0 };
                l.hex(v, digits);
                let end = l.n;
                let want = format!("0x{:0digits$x}", v & mask);
                assert_eq!(std::str::from_utf8(&buf[..end]).unwrap(), want);
                assert_eq!(hex16_swar(v), hex16(v));
            }
            // Every nibble value in every place, then pseudo-random values.
            v = if i < 15 {
                (i + 1) * 0x1111_1111_1111_1111
            } else {
                v.wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407)
            };
        }
        for n in 0..32u8 {
            let mut l = Line { b: &mut buf, n: 0 };
            put_write(
                &mut [],
                &mut l,
                RegWrite {
                    reg: Reg::X(n),
                    value: 0xa,
                },
                false,
            );
            let end = l.n;
            let got = String::from_utf8(buf[..end].to_vec()).unwrap();
            let want = if n == 0 {
                String::new()
            } else {
                format!(" x{n:<2} 0x{:016x}", 0xa)
            };
            assert_eq!(got, want);
            let mut l = Line { b: &mut buf, n: 0 };
            put_write(
                &mut [],
                &mut l,
                RegWrite {
                    reg: Reg::F(n),
                    value: 0xb,
                },
                true,
            );
            let end = l.n;
            assert_eq!(&buf[..end], format!(" f{n:<2} 0x{:08x}", 0xb).as_bytes());
        }
    }

    /// Lines made straight from a simple run's effects are the lines of its records, for
    /// every shape (FP values in 16 digits and in 8), whatever fflags did.
    #[test]
    fn simple_runs_as_records() {
        use crate::record::SimpleRun;
        let bits: &[u32] = &[
            0x0010_0293, // addi x5, x0, 1
            0x0000_0013, // nop (rd x0)
            0x0000_0463, // beq
            0x0081_3303, // ld x6, 8(x2)
            0x0001_2003, // lw x0, 0(x2)
            0x0061_3823, // sd x6, 16(x2)
            0x0061_00a3, // sb x6, 1(x2)
            0xc084,      // c.sw
            0x0001_3087, // fld f1, 0(x2)
            0x0011_3427, // fsd f1, 8(x2)
            0x0220_f1d3, // fadd.d f3, f1, f2
            0x0220_f053, // fadd.d f0, f1, f2
            0x0220_f0d3, // fadd.d f1, f1, f2 (fflags after f1, before f2)
            0x0220_f153, // fadd.d f2, f1, f2
            0xa220_a553, // feq.d x10, f1, f2
            0xa220_a053, // feq.d x0, f1, f2
            0xa220_a0d3, // feq.d x1, f1, f2 (fflags after x1, before x2)
            0xa220_a153, // feq.d x2, f1, f2
            0x0000_8082, // c.ret
        ];
        let insns: Vec<_> = bits.iter().map(|&b| decode(b)).collect();
        let has = |f: fn(Shape) -> bool| insns.iter().any(|d| f(SHAPES[d.op as usize]));
        assert!(has(|s| s == Shape::Rd) && has(|s| s == Shape::Nothing));
        assert!(has(|s| matches!(s, Shape::Load(_))) && has(|s| matches!(s, Shape::Store(_))));
        assert!(has(|s| matches!(s, Shape::FLoad(_))) && has(|s| matches!(s, Shape::FStore(_))));
        assert!(has(|s| s == Shape::FpToF) && has(|s| s == Shape::FpToX));
        let mut v: u64 = 0x0123_4567_89ab_cdef;
        let mut next = || {
            v = v
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            v
        };
        for flags in [false, true] {
            let effects: Vec<Effect> = insns
                .iter()
                .map(|_| Effect {
                    value: next(),
                    mem_value: if flags { next() & 0x1f } else { u64::MAX },
                    vaddr: next(),
                    paddr: 0x8000_0000,
                })
                .collect();
            let run = SimpleRun {
                insns: &insns,
                effects: &effects,
                pc: 0x8000_0000,
                next_pc: 0x8000_1000,
                prv: Priv::S,
                time: 0,
                fetch_page: (0x8000_0000, 0x8000_0000),
            };
            for flen32 in [false, true] {
                let mut direct = CommitLog::new(Vec::new()).with_flen32(flen32);
                direct.simple_run(&run);
                let mut records = CommitLog::new(Vec::new()).with_flen32(flen32);
                run.for_each_record(|r| records.retire(r));
                let (a, b) = (direct.finish().unwrap(), records.finish().unwrap());
                assert_eq!(String::from_utf8(a).unwrap(), String::from_utf8(b).unwrap());
            }
        }
    }

    /// Each line's start is made again when the privilege, the pc's high half or the hart
    /// changes (also in the middle of a simple run), whichever way the line is made.
    #[test]
    fn line_heads() {
        use crate::record::SimpleRun;
        // addi x5, x0, 1; c.addi x8, 1 (with bits above its 16 that are not its); nop.
        let mut insns = vec![decode(0x0010_0293), decode(0x0405), decode(0x0000_0013)];
        insns[1].bits |= 0xdead_0000;
        let effects = [Effect::default(); 3];
        let mut log = CommitLog::new(Vec::new());
        let mut want = String::new();
        for (hart, prv, pc) in [
            (0, Priv::M, 0x8000_0000u64),
            (0, Priv::S, 0x8000_0000),
            (0, Priv::S, 0xffff_fffa),
            (0, Priv::U, 0x1_ffff_fffc),
            (7, Priv::U, 0x1_ffff_fffc),
            (7, Priv::M, 0xffff_ffff_ffff_fff8),
        ] {
            log.hart(hart);
            let run = SimpleRun {
                insns: &insns,
                effects: &effects,
                pc,
                next_pc: pc.wrapping_add(10),
                prv,
                time: 0,
                fetch_page: (0, 0),
            };
            log.simple_run(&run);
            // The same instructions as records, then as the trace of an execution would
            // give them (format!), for the run's and the records' lines.
            run.for_each_record(|r| log.retire(r));
            for _ in 0..2 {
                let p = prv as u8;
                let (a, b, c) = (pc, pc.wrapping_add(4), pc.wrapping_add(6));
                want += &format!(
                    "core {hart:>3}: {p} 0x{a:016x} (0x00100293) x5  0x{:016x}\n",
                    0
                );
                want += &format!("core {hart:>3}: {p} 0x{b:016x} (0x0405) x8  0x{:016x}\n", 0);
                want += &format!("core {hart:>3}: {p} 0x{c:016x} (0x00000013)\n");
            }
        }
        assert_eq!(String::from_utf8(log.finish().unwrap()).unwrap(), want);
    }

    /// Every CSR's entry start fits its table slot and reads as Spike's.
    #[test]
    fn csr_prefixes() {
        for n in 0..4096u16 {
            let mut p = [0; 32];
            make_csr_prefix(&mut p, n);
            let name = csr_name(n).unwrap_or_else(|| "unknown".into());
            assert_eq!(&p[..p[31] as usize], format!(" c{n}_{name} 0x").as_bytes());
        }
    }

    /// A symbol name longer than a chunk (the ELF decides its length) is written whole.
    #[test]
    fn huge_symbol_name() {
        let name = "s".repeat(CHUNK + 10);
        let out = trace(
            &[rec(0x8000_0000, 0x0000_0013)],
            HashMap::from([(0x8000_0000, name.clone())]),
        );
        assert!(out.starts_with(&format!("core   0: >>>>  {name}\n")));
        assert!(out.ends_with("core   0: 3 0x0000000080000000 (0x00000013)\n"));
    }
}
