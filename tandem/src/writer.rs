//! The writer: a hart [`Sink`] that turns retirement and trap records into the trace stream.
//!
//! One group per executed instruction, trap or interrupt. Groups are formatted on the hart's
//! thread straight into large buffers that a background thread writes out (as the commit log
//! does), so the hart never waits for the file system.
//!
//! What each record becomes (default Flute layout; see [`crate::config`] for the options):
//!
//! - a retired instruction: `01`, the next pc (`07 0a`, or `03` when sequential in
//!   increment mode), the instruction (`10`/`11`), every register written (`04`, x0 left
//!   out; GPRs and FPRs first, then CSRs, mstatus last; the value of the last write when one
//!   register is written twice), loads `07 03 <eaddr>`, stores `07 04..07 <data> 07 03
//!   <eaddr>`, AMOs both, a failed SC its address only; optional physical addresses, memory
//!   requests and responses, mtime, counters; `02`;
//! - an exception: the instruction (none for a fetch fault) with the trap vector as next pc,
//!   the new privilege, xstatus, xcause, xepc and xtval;
//! - an interrupt: the same without an instruction.
//!
//! The privilege after a group is only known when the next record arrives (an MRET's target
//! is not in its record), so a group stays open until then: if the next record runs in
//! another privilege, `07 01 <priv>` is added (or patched, in a trap group) before the end
//! group. MRET and SRET groups always carry it, as Flute's do.
//!
//! HTIF: the host writes `tohost`, `fromhost` and the syscall result in guest memory at the
//! end of a time quantum, where no record shows it. The writer watches those words (from the
//! ELF's symbols and the syscall buffer address written to `tohost`) and, on the first load
//! after the host may have written one, emits a state-initialisation group (`01 0b 08 ...
//! 02`, Flute's format) carrying the value the load found, just before the load's group, so
//! that a verifier's memory matches. (A `Sink` callback for host writes in `iss` would make
//! this exact.)

use crate::config::{PcMode, Style, WriterConfig};
use crate::opcode::*;
use iss::csr::{
    FFLAGS, MCOUNTINHIBIT, MCYCLE, MINSTRET, MIP, MSTATUS, MVIP, SSTATUS, SSTATUS_MASK,
};
use iss::insn::{Insn, Op};
use iss::ops::{AmoOp, Atomic};
use iss::record::{
    At, Effect, MemKind, Reg, RegWrite, Retired, Shape, SimpleChain, SimpleRun, Sink, TrapRecord,
    SHAPE_BITS,
};
use iss::stage::{Inbox, Stage};
use iss::{Cause, Exception, Stop};
use iss::{Machine, Priv};
use std::io::{self, Write};

/// Bytes handed to the writer thread at a time.
const CHUNK: usize = 1 << 20;
/// Buffers in circulation between the hart and the writer thread.
const POOL: usize = 8;
/// A buffer and how many of its bytes are the stream's.
type Chunk = (Vec<u8>, usize);
/// Room kept free for one event's groups.
const MAX_EVENT: usize = 2048;
/// fcsr, the register the spec's example ORs new exception flags into.
const FCSR: u16 = 0x003;
/// Most bytes [`TandemWriter::plain_run`] stores for one instruction's group: end and begin
/// group (2), the next pc (10), the instruction (5), x\[rd\] or f\[rd\] (11), fflags (11),
/// store data (10), effective and physical addresses (10 each), and the bytes the last
/// 8-byte store writes past them (8).
const MAX_PLAIN: usize = 2 + 10 + 5 + 11 + 11 + 10 + 10 + 10 + 8;

/// For [`Cursor::plain_group`], per operation (by discriminant): the first three bytes of
/// the element of the register it writes, for register 0 (`04` and the address: x0's, or
/// f0's for an operation that writes an FPR), as stored little-endian.
const RD_HEAD: [u32; 256] = {
    let mut t = [0; 256];
    let mut op = 0;
    while op < 256 {
        let fpr = (SHAPE_BITS[op] & Shape::FREG != 0) as u32;
        t[op] = FULL_REG as u32 | (GPR_ADDR as u32 + 32 * fpr) << 8;
        op += 1;
    }
    t
};

/// For [`Cursor::plain_group`], at `2 * op + (rd == 0)` (`Insn::wd >> 5` is 1 for x0): the
/// length of the element of the register the operation writes (11), or 0 when it writes
/// none, or x0.
const RD_LEN: [u8; 512] = {
    let mut t = [0; 512];
    let mut op = 0;
    while op < 256 {
        let s = SHAPE_BITS[op];
        if s & Shape::WRITES_RD != 0 {
            t[2 * op] = 11;
            // f0 is written; x0 is not.
            t[2 * op + 1] = if s & Shape::FREG != 0 { 11 } else { 0 };
        }
        op += 1;
    }
    t
};

/// For [`Cursor::plain_group`], per operation (by discriminant): for a store, the first two
/// bytes of its data's element (`07`, the id of its size) and, above them, the element's
/// length; 0 for other operations.
const STORE_DATA: [u32; 256] = {
    let mut t = [0; 256];
    let mut op = 0;
    while op < 256 {
        let s = SHAPE_BITS[op];
        if s & Shape::STORE != 0 {
            let log_size = s >> Shape::SIZE_SHIFT;
            let head = ADDL_STATE as u32 | ((ADDL_DATA8 + log_size) as u32) << 8;
            t[op] = head | (2 + (1 << log_size)) << 16;
        }
        op += 1;
    }
    t
};

/// The hart's state when the writer starts: what incremental updates and the program image
/// need.
#[derive(Clone, Debug)]
pub struct InitialState {
    pub gpr: [u64; 32],
    pub pc: u64,
    pub prv: Priv,
    pub fflags: u8,
    pub mtime: u64,
    pub minstret: u64,
    pub mcycle: u64,
    pub mcountinhibit: u64,
    /// mip and mstatus (as read): the strict Flute style writes mip's changes from this
    /// value on, and mstatus with FP operations.
    pub mip: u64,
    pub mstatus: u64,
    /// HTIF `tohost` and `fromhost` addresses.
    pub tohost: Option<u64>,
    pub fromhost: Option<u64>,
    /// Non-zero 8-byte words of the loaded program (for the image option).
    pub image: Vec<(u64, u64)>,
    /// The hart's FLEN ([`crate::params::hart_flen`]: 64 with D, 32 with F alone, 0
    /// without F), which the writer's FLEN must be.
    pub flen: u8,
}

impl InitialState {
    /// Read the state of a machine that is about to run (after loading and boot).
    pub fn capture(m: &Machine, prog: Option<&iss::elf::Program>, image: bool) -> InitialState {
        let mut words = Vec::new();
        if let (true, Some(p)) = (image, prog) {
            for &(addr, _, memsz, _) in &p.segments {
                let mut a = addr & !7;
                while a < addr + memsz {
                    if let Some(v) = m.bus.read_u64(a) {
                        if v != 0 {
                            words.push((a, v));
                        }
                    }
                    a += 8;
                }
            }
            words.sort_unstable();
            words.dedup();
        }
        let mut gpr = [0u64; 32];
        for (i, r) in gpr.iter_mut().enumerate() {
            *r = m.x(i as u8);
        }
        InitialState {
            gpr,
            pc: m.hart.pc,
            prv: m.hart.prv,
            fflags: m.hart.csr.fflags,
            mtime: m.bus.clint.mtime,
            minstret: m.get_reg(MINSTRET).unwrap_or(0),
            mcycle: m.get_reg(MCYCLE).unwrap_or(0),
            mcountinhibit: m.get_reg(MCOUNTINHIBIT).unwrap_or(0),
            mip: m.csr_read(MIP).unwrap_or(m.hart.csr.mip),
            mstatus: m.hart.csr.mstatus_read(),
            tohost: m.htif.tohost,
            fromhost: m.htif.fromhost,
            image: words,
            flen: crate::params::hart_flen(&m.config.isa),
        }
    }
}

/// What the writer wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriterStats {
    pub groups: u64,
    pub instructions: u64,
    pub traps: u64,
    pub state_inits: u64,
    pub bytes: u64,
}

/// An excepting instruction waiting for its trap record.
#[derive(Clone, Copy)]
struct PendingExc {
    insn: Insn,
    fetch_pa: Option<u64>,
    writes: [RegWrite; iss::record::MAX_WRITES],
    n_writes: u8,
}

/// A word of guest memory the HTIF host may write behind the hart's back.
#[derive(Clone, Copy, Debug)]
struct Watched {
    addr: u64,
    /// The host may have written it since the hart last stored or loaded it.
    dirty: bool,
}

#[derive(Default)]
struct HtifWatch {
    tohost: Option<u64>,
    /// `[lo, lo + span)` covers tohost and fromhost (a quick filter).
    lo: u64,
    span: u64,
    words: Vec<Watched>,
    /// The syscall buffer's first word (the result), once a syscall was made; `u64::MAX`
    /// (a word address matches nothing) before.
    magic: u64,
    /// mtime when a command was written to tohost: the host acts at the next quantum end,
    /// which advances mtime. `u64::MAX`: nothing outstanding.
    pending_time: u64,
}

impl HtifWatch {
    fn new(init: &InitialState) -> HtifWatch {
        let mut h = HtifWatch {
            tohost: init.tohost,
            lo: u64::MAX,
            span: 0,
            magic: u64::MAX,
            pending_time: u64::MAX,
            ..Default::default()
        };
        let addrs: Vec<u64> = [init.tohost, init.fromhost].into_iter().flatten().collect();
        if let (Some(&lo), Some(&hi)) = (addrs.iter().min(), addrs.iter().max()) {
            h.lo = lo & !7;
            h.span = (hi & !7) + 8 - h.lo;
        }
        for a in addrs {
            h.words.push(Watched {
                addr: a & !7,
                dirty: false,
            });
        }
        h
    }

    #[inline(always)]
    fn active(&self) -> bool {
        self.span != 0 || self.magic != u64::MAX
    }

    #[inline(always)]
    fn hit(&self, pa: u64) -> bool {
        self.filter().hit(pa)
    }

    /// What [`HtifWatch::hit`] tests, as a value (kept in registers by a loop that writes
    /// through a raw pointer, which might otherwise alias it).
    #[inline(always)]
    fn filter(&self) -> HtifFilter {
        HtifFilter {
            lo: self.lo,
            span: self.span,
            magic: self.magic,
        }
    }
}

/// [`HtifWatch`]'s test of an access's physical address.
#[derive(Clone, Copy)]
struct HtifFilter {
    lo: u64,
    span: u64,
    magic: u64,
}

impl HtifFilter {
    /// The access at `pa` may touch a word the HTIF host may have written.
    #[inline(always)]
    fn hit(self, pa: u64) -> bool {
        (pa.wrapping_sub(self.lo) < self.span) | (pa & !7 == self.magic)
    }
}

/// The writer's settings, resolved into the flags the hot path tests.
struct Enc {
    cfg: WriterConfig,
    xb: usize,
    fb: usize,
    mb: usize,
    incr_pc: bool,
    pc: bool,
    insn: bool,
    gpr: bool,
    fpr: bool,
    csr: bool,
    /// Some CSRs are left out by name.
    some_csrs: bool,
    /// The physical address of the next pc (additional state 9).
    pc_paddr: bool,
    eaddr: bool,
    paddr: bool,
    store_data: bool,
    incremental: bool,
    /// Something needs the hart state followed (old values, satp, counters).
    track: bool,
    /// pc physical address or memory trace (before the instruction field).
    extras_before: bool,
    /// mtime or counters (after the accesses).
    extras_after: bool,
    /// The settings [`TandemWriter::plain`] handles: explicit end groups, every element of an
    /// instruction's group present, 64-bit registers and addresses, nothing followed and no
    /// extras.
    plain: bool,
    /// [`Style::FluteStrict`]: Flute's rules, record kind by record kind
    /// ([`Out::strict_instruction`]), and mip's changes.
    strict: bool,
    /// The settings the plain path tests, and whether they are [`PlainLayout::FLUTE`].
    layout: PlainLayout,
    flute_plain: bool,
}

/// The settings among [`Enc::plain`]'s that change a plain group's bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PlainLayout {
    /// Increment pc (opcode 3) for a sequential instruction.
    incr_pc: bool,
    store_data: bool,
    /// Effective and physical addresses.
    eaddr: bool,
    paddr: bool,
    /// fflags writes are written out (full; incremental settings are not plain).
    fflags: bool,
}

impl PlainLayout {
    /// [`WriterConfig::flute`]'s: the full next pc, store data, effective addresses and
    /// fflags.
    const FLUTE: PlainLayout = PlainLayout {
        incr_pc: false,
        store_data: true,
        eaddr: true,
        paddr: false,
        fflags: true,
    };
}

impl Enc {
    fn new(cfg: WriterConfig) -> Enc {
        let o = &cfg.omit;
        let layout = PlainLayout {
            incr_pc: cfg.pc == PcMode::Increment,
            store_data: cfg.store_data && !o.store_data,
            eaddr: cfg.eaddr && !o.eaddr,
            paddr: cfg.paddr,
            fflags: !o.csr && !o.csrs.contains(&FFLAGS),
        };
        Enc {
            xb: cfg.params.xbytes(),
            fb: cfg.params.fbytes(),
            mb: cfg.params.mbytes(),
            incr_pc: cfg.pc == PcMode::Increment,
            pc: !o.pc,
            insn: !o.insn,
            gpr: !o.gpr,
            fpr: !o.fpr,
            csr: !o.csr,
            some_csrs: !o.csrs.is_empty(),
            pc_paddr: cfg.pc_paddr && !o.pc,
            eaddr: cfg.eaddr && !o.eaddr,
            paddr: cfg.paddr,
            store_data: cfg.store_data && !o.store_data,
            incremental: cfg.incremental,
            track: cfg.incremental || cfg.memory || cfg.counters,
            extras_before: cfg.memory,
            extras_after: cfg.mtime || cfg.counters,
            plain: cfg.style != Style::FluteStrict
                && !cfg.implicit_end
                && !cfg.incremental
                && !cfg.memory
                && !cfg.counters
                && !cfg.mtime
                && !cfg.pc_paddr
                && !o.pc
                && !o.insn
                && !o.gpr
                && !o.fpr
                && !o.priv_
                && cfg.params.xbytes() == 8
                && cfg.params.fbytes() == 8
                && cfg.params.mbytes() == 8,
            strict: cfg.style == Style::FluteStrict,
            layout,
            flute_plain: layout == PlainLayout::FLUTE,
            cfg,
        }
    }

    #[inline(always)]
    fn csr_left_out(&self, c: u16) -> bool {
        self.some_csrs && self.cfg.omit.csrs.contains(&c)
    }
}

/// Hart state the writer follows from the records: old values for incremental updates,
/// AMO operands, the counters.
struct Track {
    x: [u64; 32],
    fflags: u8,
    minstret: u64,
    mcycle: u64,
    mcountinhibit: u64,
    last_mtime: u64,
}

impl Track {
    #[inline(always)]
    fn write(&mut self, w: RegWrite) {
        match w.reg {
            Reg::X(n) => self.x[(n & 31) as usize] = w.value,
            Reg::F(_) => {}
            Reg::Csr(c) => match c {
                FFLAGS => self.fflags = w.value as u8,
                MINSTRET => self.minstret = w.value,
                MCYCLE => self.mcycle = w.value,
                MCOUNTINHIBIT => self.mcountinhibit = w.value,
                _ => {}
            },
        }
    }
}

/// Where [`TandemWriter::plain_run`] writes: a pointer into the buffer, which the caller
/// checked has room for what is written through it.
struct Cursor(*mut u8);

impl Cursor {
    /// Store the 8 bytes of `v`, little-endian, `off` bytes on. (An element of fewer bytes
    /// is stored so too: the bytes past it are overwritten by the next element or are past
    /// the stream's end.)
    ///
    /// # Safety
    /// The buffer has `off + 8` bytes from the cursor.
    #[inline(always)]
    unsafe fn at(&mut self, off: usize, v: u64) {
        unsafe { (self.0.add(off) as *mut [u8; 8]).write_unaligned(v.to_le_bytes()) };
    }

    /// # Safety
    /// The buffer has `k` bytes from the cursor.
    #[inline(always)]
    unsafe fn skip(&mut self, k: usize) {
        self.0 = unsafe { self.0.add(k) };
    }

    /// The group of `d` at `pc`, which left `fx` and went on at `next`, as
    /// [`TandemWriter::plain`] writes its record in layout `l`; false, the cursor not moved
    /// (what was stored past it is not the stream's), for an access to a word the HTIF host
    /// may have written (`htif`).
    /// x\[rd\], which some instructions write and others not, and among accesses a store's
    /// data are stored always and kept or not by how far the group's end moves: no branch
    /// on them.
    ///
    /// # Safety
    /// The buffer has [`MAX_PLAIN`] bytes from the cursor.
    #[inline(always)]
    unsafe fn plain_group(
        &mut self,
        l: PlainLayout,
        htif: HtifFilter,
        d: &Insn,
        fx: &Effect,
        pc: u64,
        next: u64,
    ) -> bool {
        const HEAD: u64 = END_GROUP as u64 | (BEGIN_GROUP as u64) << 8;
        let shape = SHAPE_BITS[d.op as usize];
        // The elements are stored at offsets from the group's start, and the cursor moves
        // once, at the end: its move from group to group is one addition (the offsets are
        // summed beside it), not a chain of one per element.
        let mut o;
        unsafe {
            if l.incr_pc && next == pc.wrapping_add(d.len as u64) {
                self.at(0, HEAD | (INCR_PC as u64) << 16);
                o = 3;
            } else {
                self.at(0, HEAD | (ADDL_STATE as u64) << 16 | (ADDL_PC as u64) << 24);
                self.at(4, next);
                o = 12;
            }
            // INSN16 (3 bytes) or INSN32 (5 bytes).
            let opcode = INSN16 as u64 + (d.len as u64 >> 2);
            self.at(o, opcode | (d.bits as u64) << 8);
            o += d.len as usize + 1;
            // x[rd] (not x0) or f[rd]: `04`, GPR_ADDR + rd (+ 32 for an FPR), the value;
            // its length from the operation and whether rd is 0 (`wd` is 32 then).
            let rd = (d.rd & 31) as u64;
            self.at(o, RD_HEAD[d.op as usize] as u64 + (rd << 8));
            self.at(o + 3, fx.value);
            o += RD_LEN[d.op as usize * 2 + (d.wd >> 5) as usize] as usize;
            // Neither fflags nor an access (most instructions): one test.
            if shape & (Shape::FFLAGS | Shape::ACCESS) != 0 {
                // The fflags an FP operation raised.
                if (shape & Shape::FFLAGS != 0) && (fx.mem_value != u64::MAX) && l.fflags {
                    self.at(o, FULL_REG as u64 | (FFLAGS as u64) << 8);
                    self.at(o + 3, fx.mem_value);
                    o += 11;
                }
                if shape & Shape::ACCESS != 0 {
                    // What was stored stays past the cursor, not in the stream.
                    if htif.hit(fx.paddr) {
                        return false;
                    }
                    if l.store_data {
                        // `07 <size's id> <data>` for a store (its length, 0 for a load).
                        let e = STORE_DATA[d.op as usize];
                        self.at(o, e as u64 & 0xffff);
                        self.at(o + 2, fx.mem_value);
                        o += (e >> 16) as usize;
                    }
                    if l.eaddr {
                        self.at(o, ADDL_STATE as u64 | (ADDL_EADDR as u64) << 8);
                        self.at(o + 2, fx.vaddr);
                        o += 10;
                    }
                    if l.paddr {
                        self.at(o, ADDL_STATE as u64 | (ADDL_PADDR as u64) << 8);
                        self.at(o + 2, fx.paddr);
                        o += 10;
                    }
                }
            }
            self.skip(o);
        }
        true
    }

    /// The groups of `run`'s instructions, as [`Cursor::plain_group`] writes them, up to the
    /// first access to a word the HTIF host may have written; returns how many it wrote.
    ///
    /// # Safety
    /// The buffer has [`MAX_PLAIN`] bytes per instruction of `run` from the cursor.
    #[inline(always)]
    unsafe fn plain_insns(&mut self, l: PlainLayout, htif: HtifFilter, run: &SimpleRun) -> usize {
        let n = run.insns.len();
        let (insns, effects) = (run.insns, &run.effects[..n]);
        // Each instruction but the last goes on in straight line. (SAFETY: a group stores
        // at most MAX_PLAIN bytes from its start, counting the 8 bytes each store writes;
        // the caller checked the room for n of them.)
        let mut pc = run.pc;
        let mut i = 0;
        while i + 1 < n {
            let next = pc.wrapping_add(insns[i].len as u64);
            if !unsafe { self.plain_group(l, htif, &insns[i], &effects[i], pc, next) } {
                return i;
            }
            (pc, i) = (next, i + 1);
        }
        if i + 1 == n
            && unsafe { self.plain_group(l, htif, &insns[i], &effects[i], pc, run.next_pc) }
        {
            i = n;
        }
        i
    }
}

/// Bytes being written at the end of the buffer, with what formatting needs.
///
/// One event (a record) writes at most a few hundred bytes; [`Out::new`] checks that the
/// buffer has [`MAX_EVENT`] bytes free, so the writes need no further bounds checks (they
/// are the hart's hot path: a bounds check per byte costs more than the rest).
struct Out<'a> {
    p: *mut u8,
    n: usize,
    #[cfg(debug_assertions)]
    cap: usize,
    e: &'a Enc,
    t: &'a mut Track,
    _buf: std::marker::PhantomData<&'a mut [u8]>,
}

impl<'a> Out<'a> {
    #[inline(always)]
    fn new(buf: &'a mut [u8], e: &'a Enc, t: &'a mut Track) -> Out<'a> {
        assert!(buf.len() >= MAX_EVENT);
        Out {
            p: buf.as_mut_ptr(),
            n: 0,
            #[cfg(debug_assertions)]
            cap: buf.len(),
            e,
            t,
            _buf: std::marker::PhantomData,
        }
    }

    #[inline(always)]
    fn u8(&mut self, v: u8) {
        #[cfg(debug_assertions)]
        assert!(self.n < self.cap && self.n < MAX_EVENT - 8);
        // SAFETY: `new` checked MAX_EVENT bytes of room and no event writes that many.
        unsafe { self.p.add(self.n).write(v) };
        self.n += 1;
    }

    /// The low `k` bytes of `v`, little-endian (8 are stored; there is room).
    #[inline(always)]
    fn le(&mut self, v: u64, k: usize) {
        #[cfg(debug_assertions)]
        assert!(self.n + 8 <= self.cap && self.n + 8 < MAX_EVENT);
        // SAFETY: as in `u8`.
        unsafe { (self.p.add(self.n) as *mut [u8; 8]).write_unaligned(v.to_le_bytes()) };
        self.n += k;
    }

    /// Run an out-of-line writer on a copy of the cursor: this one's address never escapes,
    /// so it can stay in registers.
    #[inline(always)]
    fn detour(&mut self, f: impl FnOnce(&mut Out)) {
        let mut o = Out {
            p: self.p,
            n: self.n,
            #[cfg(debug_assertions)]
            cap: self.cap,
            e: self.e,
            t: &mut *self.t,
            _buf: std::marker::PhantomData,
        };
        f(&mut o);
        self.n = o.n;
    }

    #[inline(always)]
    fn full_reg(&mut self, addr: u16, v: u64, k: usize) {
        self.le(FULL_REG as u64 | (addr as u64) << 8, 3);
        self.le(v, k);
    }

    #[inline(always)]
    fn addl(&mut self, id: u8, v: u64, k: usize) {
        self.le(ADDL_STATE as u64 | (id as u64) << 8, 2);
        self.le(v, k);
    }

    /// The start of a plain group ([`Enc::plain`]'s settings): end the group before, begin
    /// this one, `d`'s next pc (incremented when set so and sequential) and `d` itself.
    #[inline(always)]
    fn plain_head(&mut self, d: &Insn, pc: u64, next_pc: u64) {
        self.le(END_GROUP as u64 | (BEGIN_GROUP as u64) << 8, 2);
        if self.e.incr_pc && next_pc == pc.wrapping_add(d.len as u64) {
            self.u8(INCR_PC);
        } else {
            self.addl(ADDL_PC, next_pc, 8);
        }
        // INSN16 (3 bytes) or INSN32 (5 bytes), without a branch on the length.
        let wide = (d.len >> 2) as u64;
        let bits = d.bits as u64 & (0xffff | wide.wrapping_neg() << 16);
        self.le((INSN16 as u64 + wide) | (bits << 8), 3 + 2 * wide as usize);
    }

    /// A plain group's elements for its one data access (what [`Out::accesses`] writes for
    /// one, without its loop and its tests of what the plain path excludes): the data of a
    /// store (`store`) of `size` bytes, the effective and physical addresses.
    #[inline(always)]
    fn plain_access(&mut self, store: bool, size: u8, value: u64, vaddr: u64, paddr: u64) {
        if store & self.e.store_data {
            self.addl(
                ADDL_DATA8 + size.trailing_zeros() as u8,
                value,
                size as usize,
            );
        }
        if self.e.eaddr {
            self.addl(ADDL_EADDR, vaddr, 8);
        }
        if self.e.paddr {
            self.addl(ADDL_PADDR, paddr, 8);
        }
    }

    #[inline(always)]
    fn insn(&mut self, d: &Insn) {
        if !self.e.insn {
            return;
        }
        if d.len == 2 {
            self.le(INSN16 as u64 | (d.bits as u64 & 0xffff) << 8, 3);
        } else {
            self.le(INSN32 as u64 | (d.bits as u64) << 8, 5);
        }
    }

    /// One register write of an instruction.
    #[inline(always)]
    fn reg_write(&mut self, w: RegWrite) {
        match w.reg {
            Reg::X(n) => {
                let n = (n & 31) as usize;
                if n == 0 || !self.e.gpr {
                    return;
                }
                if self.e.incremental {
                    let delta = w.value.wrapping_sub(self.t.x[n]) as i64;
                    if (-128..=127).contains(&delta) {
                        self.u8(INCR_REG_ADD);
                        self.le((GPR_ADDR + n as u16) as u64, 2);
                        self.u8(delta as i8 as u8);
                        return;
                    }
                }
                self.full_reg(GPR_ADDR + n as u16, w.value, self.e.xb);
            }
            Reg::F(n) => {
                if self.e.fpr {
                    self.full_reg(FPR_ADDR + (n & 31) as u16, w.value, self.e.fb);
                }
            }
            Reg::Csr(c) => self.detour(|o| o.csr_write(c, w.value)),
        }
    }

    #[inline(never)]
    fn csr_write(&mut self, c: u16, v: u64) {
        // mvip is Spike's commit-log view of mip, not a register hartscope has.
        if c == MVIP || !self.e.csr || self.e.csr_left_out(c) {
            return;
        }
        if c == FFLAGS && self.e.incremental {
            let old = self.t.fflags as u64;
            if v & old == old && v != old && v < 0x20 {
                self.u8(INCR_REG_OR);
                self.le(FCSR as u64, 2);
                self.u8((v & !old) as u8);
                return;
            }
        }
        self.full_reg(c, v, self.e.xb);
    }

    /// The register writes of a record, ordered GPR/FPR, CSRs, mstatus; one per register.
    #[inline(never)]
    fn reg_writes(&mut self, ws: &[RegWrite]) {
        let mut v = [RegWrite {
            reg: Reg::X(0),
            value: 0,
        }; iss::record::MAX_WRITES];
        let mut n = 0;
        for w in ws {
            match v[..n].iter_mut().find(|e| e.reg == w.reg) {
                Some(e) => e.value = w.value,
                None => {
                    v[n] = *w;
                    n += 1;
                }
            }
        }
        let rank = |w: &RegWrite| match w.reg {
            Reg::X(_) | Reg::F(_) => 0,
            Reg::Csr(MSTATUS) => 2,
            Reg::Csr(_) => 1,
        };
        for pass in 0..3 {
            for w in &v[..n] {
                if rank(w) == pass {
                    self.reg_write(*w);
                }
            }
        }
    }

    /// The data-access part of a retired instruction's group.
    #[inline(always)]
    fn accesses(&mut self, r: &Retired) {
        let mut addr_done = false;
        for m in r.mem() {
            // cbo.zero's block (64 zero bytes) has no store-data item of its size: its
            // address says where, the instruction what.
            if m.kind == MemKind::Store && self.e.store_data && m.size <= 8 {
                let size = MemSize::from_bytes(m.size).unwrap_or(MemSize::B64);
                self.addl(size.store_data_id(), m.value, m.size as usize);
            }
            if !addr_done {
                if self.e.eaddr {
                    self.addl(ADDL_EADDR, m.vaddr, self.e.mb);
                }
                if self.e.paddr {
                    self.addl(ADDL_PADDR, m.paddr, self.e.mb);
                }
                addr_done = true;
            }
        }
        if r.sc_failed && !addr_done && self.e.eaddr {
            self.addl(ADDL_EADDR, r.sc_addr, self.e.mb);
        }
        if self.e.cfg.memory {
            self.detour(|o| o.memory_trace(r));
        }
    }

    /// Memory requests and responses (opcodes 8, 9) for the data accesses.
    #[cold]
    fn memory_trace(&mut self, r: &Retired) {
        let op = r.insn.op;
        let mem = r.mem();
        let amo = amo_op(op);
        let mb = self.e.mb;
        let mut i = 0;
        while i < mem.len() {
            let m = mem[i];
            if m.size > 8 {
                // cbo.zero's block: one 8-byte store of zeros per doubleword.
                for k in 0..m.size as u64 / 8 {
                    self.u8(MEM_REQ);
                    self.le(m.paddr + 8 * k, mb);
                    self.u8(req_byte(MemOp::Store, MemSize::B64));
                    self.le(0, 8);
                    self.u8(MEM_RSP);
                    self.u8(rsp_byte(MemSize::B64, MemResult::Success));
                }
                i += 1;
                continue;
            }
            let size = MemSize::from_bytes(m.size).unwrap_or(MemSize::B64);
            self.u8(MEM_REQ);
            self.le(m.paddr, mb);
            if let Some(aop) = amo.filter(|_| m.kind == MemKind::Load) {
                // An AMO: one request with the operand, one response with the old value.
                let operand = self.t.x[(r.insn.rs2 & 31) as usize];
                self.u8(req_byte(aop, size));
                self.le(operand, m.size as usize);
                self.u8(MEM_RSP);
                self.u8(rsp_byte(size, MemResult::Success));
                self.le(m.value, m.size as usize);
                // Its store record is part of the same transaction.
                i += 2;
                continue;
            }
            match m.kind {
                MemKind::Load => {
                    let mop = if matches!(op.facts().atomic, Atomic::Lr(_)) {
                        MemOp::LoadReserved
                    } else {
                        MemOp::Load
                    };
                    self.u8(req_byte(mop, size));
                    self.u8(MEM_RSP);
                    self.u8(rsp_byte(size, MemResult::Success));
                    self.le(m.value, m.size as usize);
                }
                MemKind::Store => {
                    let mop = if matches!(op.facts().atomic, Atomic::Sc(_)) {
                        MemOp::StoreConditional
                    } else {
                        MemOp::Store
                    };
                    self.u8(req_byte(mop, size));
                    self.le(m.value, m.size as usize);
                    self.u8(MEM_RSP);
                    self.u8(rsp_byte(size, MemResult::Success));
                }
            }
            i += 1;
        }
    }

    /// An instruction fetch as a memory request.
    #[cold]
    fn fetch_trace(&mut self, r: &Retired, pa: u64) {
        let size = if r.insn.len == 2 {
            MemSize::B16
        } else {
            MemSize::B32
        };
        self.u8(MEM_REQ);
        self.le(pa, self.e.mb);
        self.u8(req_byte(MemOp::Fetch, size));
        self.u8(MEM_RSP);
        self.u8(rsp_byte(size, MemResult::Success));
        self.le(r.insn.bits as u64, r.insn.len as usize);
    }

    /// minstret and mcycle after a retired instruction.
    #[cold]
    fn counters(&mut self, r: &Retired) {
        let wrote = |c: u16| r.writes().iter().any(|w| w.reg == Reg::Csr(c));
        // A write of mcountinhibit applies to the instruction that makes it.
        let inhibit = r
            .writes()
            .iter()
            .rev()
            .find(|w| w.reg == Reg::Csr(MCOUNTINHIBIT))
            .map_or(self.t.mcountinhibit, |w| w.value);
        if inhibit & 4 == 0 && !wrote(MINSTRET) {
            self.t.minstret = self.t.minstret.wrapping_add(1);
            self.counter(MINSTRET, self.t.minstret);
        }
        if inhibit & 1 == 0 && !wrote(MCYCLE) {
            self.t.mcycle = self.t.mcycle.wrapping_add(1);
            self.counter(MCYCLE, self.t.mcycle);
        }
    }

    fn counter(&mut self, c: u16, v: u64) {
        if self.e.incremental {
            self.u8(INCR_REG_ADD);
            self.le(c as u64, 2);
            self.u8(1);
        } else {
            self.full_reg(c, v, self.e.xb);
        }
    }

    /// A retired instruction's group, after its begin-group byte (not closed).
    #[inline(always)]
    fn instruction(&mut self, r: &Retired) {
        let d = r.insn;
        let e = self.e;
        if e.pc {
            if e.incr_pc && r.next_pc == r.pc.wrapping_add(d.len as u64) {
                self.u8(INCR_PC);
            } else {
                self.addl(ADDL_PC, r.next_pc, e.xb);
            }
        }
        let ws = r.writes();
        if e.extras_before {
            self.detour(|o| o.extras_before(r));
        }
        self.insn(&d);
        match ws.len() {
            0 => {}
            1 => self.reg_write(ws[0]),
            _ => self.detour(|o| o.reg_writes(ws)),
        }
        if r.n_mem != 0 || r.sc_failed {
            self.accesses(r);
        }
        if e.extras_after {
            if e.cfg.mtime && r.time != self.t.last_mtime {
                self.addl(ADDL_MTIME, r.time, 8);
                self.t.last_mtime = r.time;
            }
            if e.cfg.counters {
                self.detour(|o| o.counters(r));
            }
        }
        if e.track {
            for &w in ws {
                self.t.write(w);
            }
        }
    }

    /// A retired instruction's group in the strict Flute style, after its begin-group byte
    /// (not closed): the elements of the `mkTV_Encode` rule for the kind Flute's CPU gives
    /// the instruction (docs/tandem.md, "What Flute writes, rule by rule"):
    ///
    /// - FP operations (`F_FRD`, `F_GRD`): rd, then fflags (the whole accumulated value) and
    ///   mstatus, always;
    /// - FP loads (`F_LOAD`): fd, the effective address, mstatus;
    /// - AMO, LR, SC (`AMO`): rd, rs2's value as store data (0 for LR; for SC whether or not
    ///   it succeeded), the effective address;
    /// - CSR instructions (`CSRRX`): rd, and the CSR the instruction names if it writes it
    ///   (its value after the write: [`StrictTail::csr`], added when the hart is seen next);
    /// - MRET, SRET (`RET`): the new privilege (a place patched when the next record shows
    ///   it: [`StrictTail::priv_at`]), mstatus;
    /// - everything else (`I_RD`, `I_LOAD`, `I_STORE`, `F_STORE`, `OTHER`): rd, the store
    ///   data, the effective address.
    #[inline(never)]
    fn strict_instruction(&mut self, r: &Retired, seen: &Seen) -> StrictTail {
        let d = r.insn;
        let e = self.e;
        let mut tail = StrictTail::default();
        if e.pc {
            if e.incr_pc && r.next_pc == r.pc.wrapping_add(d.len as u64) {
                self.u8(INCR_PC);
            } else {
                self.addl(ADDL_PC, r.next_pc, e.xb);
            }
        }
        if e.extras_before {
            self.extras_before(r);
        }
        self.insn(&d);
        let ws = r.writes();
        let last = |reg: Reg| ws.iter().rev().find(|w| w.reg == reg).map(|w| w.value);
        let rd_x = |o: &mut Out| {
            if let Some(v) = last(Reg::X(d.rd)) {
                o.reg_write(RegWrite {
                    reg: Reg::X(d.rd),
                    value: v,
                });
            }
        };
        let mstatus = last(Reg::Csr(MSTATUS)).unwrap_or(seen.mstatus);
        let facts = d.op.facts();
        match facts.shape {
            Shape::FpToF | Shape::FpToX => {
                if facts.shape == Shape::FpToF {
                    if let Some(v) = last(Reg::F(d.rd)) {
                        self.reg_write(RegWrite {
                            reg: Reg::F(d.rd),
                            value: v,
                        });
                    }
                } else {
                    rd_x(self);
                }
                let fflags = last(Reg::Csr(FFLAGS)).unwrap_or(seen.fflags as u64);
                self.csr_write(FFLAGS, fflags);
                self.csr_write(MSTATUS, mstatus);
            }
            Shape::FLoad(_) => {
                if let Some(v) = last(Reg::F(d.rd)) {
                    self.reg_write(RegWrite {
                        reg: Reg::F(d.rd),
                        value: v,
                    });
                }
                self.accesses(r);
                self.csr_write(MSTATUS, mstatus);
            }
            Shape::Built => match facts.atomic {
                Atomic::Lr(n) | Atomic::Sc(n) | Atomic::Amo(n, _) => {
                    rd_x(self);
                    let data = if matches!(facts.atomic, Atomic::Lr(_)) {
                        0
                    } else {
                        seen.rs2
                    };
                    if e.store_data {
                        let size = MemSize::from_bytes(n).unwrap_or(MemSize::B64);
                        self.addl(size.store_data_id(), data, n as usize);
                    }
                    let (va, pa) = match r.mem().first() {
                        Some(m) => (m.vaddr, Some(m.paddr)),
                        None => (r.sc_addr, None),
                    };
                    if e.eaddr {
                        self.addl(ADDL_EADDR, va, e.mb);
                    }
                    if let (true, Some(pa)) = (e.paddr, pa) {
                        self.addl(ADDL_PADDR, pa, e.mb);
                    }
                    if e.cfg.memory {
                        self.memory_trace(r);
                    }
                }
                Atomic::No => match d.op {
                    Op::Csrrw | Op::Csrrs | Op::Csrrc | Op::Csrrwi | Op::Csrrsi | Op::Csrrci => {
                        rd_x(self);
                        let writes = matches!(d.op, Op::Csrrw | Op::Csrrwi) || d.rs1 != 0;
                        if writes {
                            let c = d.csr();
                            // The value the record has, in case the hart is not seen again.
                            let v = last(Reg::Csr(c)).or_else(|| {
                                (c == SSTATUS)
                                    .then(|| last(Reg::Csr(MSTATUS)).map(|v| v & SSTATUS_MASK))
                                    .flatten()
                            });
                            tail.csr = Some((c, v));
                        }
                    }
                    Op::Mret | Op::Sret => {
                        if !e.cfg.omit.priv_ {
                            self.u8(ADDL_STATE);
                            self.u8(ADDL_PRIV);
                            tail.priv_at = Some(self.n);
                            self.u8(r.prv as u8);
                        }
                        self.csr_write(MSTATUS, mstatus);
                    }
                    _ => {
                        rd_x(self);
                        if r.n_mem != 0 {
                            self.accesses(r);
                        }
                    }
                },
            },
            _ => {
                rd_x(self);
                if r.n_mem != 0 {
                    self.accesses(r);
                }
            }
        }
        if e.extras_after {
            if e.cfg.mtime && r.time != self.t.last_mtime {
                self.addl(ADDL_MTIME, r.time, 8);
                self.t.last_mtime = r.time;
            }
            if e.cfg.counters {
                self.counters(r);
            }
        }
        if e.track {
            for &w in ws {
                self.t.write(w);
            }
        }
        tail
    }

    /// The instruction fetch, as a memory request, from the physical address the hart
    /// fetched from.
    #[cold]
    fn extras_before(&mut self, r: &Retired) {
        if self.e.cfg.memory {
            if let Some(pa) = r.fetch_pa {
                self.fetch_trace(r, pa);
            }
        }
    }
}

/// What the strict Flute style knows of the hart beyond the records, from
/// [`Sink::watch`] before each instruction and trap (or the start state).
#[derive(Clone, Copy, Debug, Default)]
struct Seen {
    /// mstatus as read.
    mstatus: u64,
    fflags: u8,
    /// The value of the next instruction's rs2 (an AMO's or SC's store data).
    rs2: u64,
}

/// What a strict group leaves to be done after it was written.
#[derive(Clone, Copy, Debug, Default)]
struct StrictTail {
    /// The CSR a CSR instruction wrote, and its value in the record if it has one: its
    /// element comes at the next [`Sink::watch`] (the value read from the hart).
    csr: Option<(u16, Option<u64>)>,
    /// Where the privilege byte of an MRET or SRET is, from the group's start.
    priv_at: Option<usize>,
}

/// The writer. Create it after the machine is loaded and booted, hand it to
/// [`Machine::run`] as the sink, and [`finish`](TandemWriter::finish) it.
pub struct TandemWriter<W: Write + Send + 'static> {
    enc: Enc,
    track: Track,
    buf: Vec<u8>,
    pos: usize,
    /// A group is open (its end, and maybe its privilege, are still to come).
    open: bool,
    /// Where the open group's privilege byte is, when it has one.
    open_priv_pos: Option<usize>,
    /// The open group is an MRET or SRET.
    open_xret: bool,
    /// [`TandemWriter::plain`] may write the next group: the settings allow it
    /// ([`Enc::plain`]) and a group is open that is not an xRET's.
    fast: bool,
    /// Instructions written by [`TandemWriter::plain`] (not yet in `stats`).
    plain_groups: u64,
    /// The privilege the stream has reported last.
    cur_priv: u8,
    pending: Option<PendingExc>,
    htif: HtifWatch,
    stats: WriterStats,
    /// The strict Flute style's view of the hart, its last mip written, and the CSR element
    /// the open group still needs.
    seen: Seen,
    last_mip: u64,
    csr_pending: Option<(u16, Option<u64>)>,
    /// Buffers allocated so far (at most [`POOL`]).
    allocated: usize,
    /// The writer thread: full buffers and their lengths to it, the buffers back.
    thread: Option<Stage<Chunk, io::Result<W>>>,
}

impl<W: Write + Send + 'static> TandemWriter<W> {
    /// Start writing to `out`: the hart-reset group, then (with the image option) the
    /// program image and the start state.
    pub fn new(cfg: WriterConfig, out: W, init: &InitialState) -> io::Result<Self> {
        cfg.params
            .check_hart_flen(init.flen)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
        let mut out = out;
        let thread = Stage::spawn(
            "tandem-writer",
            "the tandem writer thread",
            POOL - 2,
            POOL + 1,
            move |inbox: Inbox<Chunk>| -> io::Result<W> {
                let mut result = Ok(());
                for (b, n) in inbox.iter() {
                    // After an error keep draining, so the hart never blocks.
                    if result.is_ok() {
                        result = out.write_all(&b[..n]);
                    }
                    // Room for every buffer of the pool: never dropped.
                    inbox.give_back((b, 0));
                }
                result?;
                out.flush()?;
                Ok(out)
            },
        )?;
        let image = cfg.image;
        let mut w = TandemWriter {
            enc: Enc::new(cfg),
            track: Track {
                x: init.gpr,
                fflags: init.fflags,
                minstret: init.minstret,
                mcycle: init.mcycle,
                mcountinhibit: init.mcountinhibit,
                last_mtime: init.mtime,
            },
            buf: vec![0; CHUNK + MAX_EVENT],
            pos: 0,
            open: false,
            open_priv_pos: None,
            open_xret: false,
            fast: false,
            plain_groups: 0,
            cur_priv: init.prv as u8,
            pending: None,
            htif: HtifWatch::new(init),
            stats: WriterStats::default(),
            seen: Seen {
                mstatus: init.mstatus,
                fflags: init.fflags,
                rs2: 0,
            },
            last_mip: init.mip,
            csr_pending: None,
            allocated: 1,
            thread: Some(thread),
        };
        w.begin();
        w.b(HART_RESET);
        w.end();
        if image {
            for &(a, v) in &init.image {
                w.reserve();
                w.state_init_store(a, MemSize::B64, v);
            }
        }
        if image || w.enc.cfg.start_state {
            w.start_state(init);
        }
        Ok(w)
    }

    /// The state-initialisation group with the start state: pc, privilege, the GPRs that are
    /// not 0, and with [`WriterConfig::start_state`] the boot ROM's t0, a0 and a1 (even when
    /// 0), minstret and mcycle.
    fn start_state(&mut self, init: &InitialState) {
        self.reserve();
        self.begin();
        self.b(STATE_INIT);
        let xb = self.enc.xb;
        let start = self.enc.cfg.start_state;
        self.addl(ADDL_PC, init.pc, xb);
        self.addl(ADDL_PRIV, init.prv as u64, 1);
        for (i, &v) in init.gpr.iter().enumerate().skip(1) {
            // t0, a0 and a1 are the boot ROM's, written even when 0 (a0, hart 0's id).
            if v != 0 || (start && matches!(i, 5 | 10 | 11)) {
                self.b(FULL_REG);
                self.le((GPR_ADDR + i as u16) as u64, 2);
                self.le(v, xb);
            }
        }
        if start {
            for (c, v) in [(MINSTRET, init.minstret), (MCYCLE, init.mcycle)] {
                self.b(FULL_REG);
                self.le(c as u64, 2);
                self.le(v, xb);
            }
        }
        self.end();
        self.stats.state_inits += 1;
    }

    /// Groups written so far (the index the next group will have).
    pub fn groups_written(&self) -> u64 {
        self.stats.groups + self.plain_groups
    }

    pub fn stats(&self) -> WriterStats {
        let mut s = self.stats;
        s.bytes += self.pos as u64;
        s.groups += self.plain_groups;
        s.instructions += self.plain_groups;
        s
    }

    pub fn config(&self) -> &WriterConfig {
        &self.enc.cfg
    }

    // ---------------------------------------------------------------------------------
    // Bytes outside the hot path.

    fn b(&mut self, v: u8) {
        self.buf[self.pos] = v;
        self.pos += 1;
    }

    fn le(&mut self, v: u64, n: usize) {
        self.buf[self.pos..self.pos + 8].copy_from_slice(&v.to_le_bytes());
        self.pos += n;
    }

    fn addl(&mut self, id: u8, v: u64, n: usize) {
        self.b(ADDL_STATE);
        self.b(id);
        self.le(v, n);
    }

    /// Open a group.
    #[inline(always)]
    fn begin(&mut self) {
        self.buf[self.pos] = BEGIN_GROUP;
        self.pos += 1;
        self.opened(false);
        self.stats.groups += 1;
    }

    /// A group is open now (its privilege byte not placed yet); `xret`: an MRET's or SRET's.
    /// Keeps `fast` in step with the fields it stands for.
    #[inline(always)]
    fn opened(&mut self, xret: bool) {
        self.open = true;
        self.open_priv_pos = None;
        self.open_xret = xret;
        self.fast = self.enc.plain && !xret;
    }

    /// End the open group now (no privilege look-ahead).
    #[inline(always)]
    fn end(&mut self) {
        if !self.enc.cfg.implicit_end {
            self.buf[self.pos] = END_GROUP;
            self.pos += 1;
        }
        self.open = false;
        self.fast = false;
    }

    /// Hand a full chunk to the writer thread.
    #[inline(always)]
    fn reserve(&mut self) {
        if self.pos >= CHUNK {
            self.hand_over();
        }
    }

    #[cold]
    fn hand_over(&mut self) {
        if self.pos == 0 {
            return;
        }
        // A pool of buffers that keep their full length: each is allocated (and its pages
        // touched) once.
        let Some(t) = &self.thread else {
            return;
        };
        let next = match t.recycled() {
            Some((b, _)) => b,
            None if self.allocated < POOL => {
                self.allocated += 1;
                vec![0; CHUNK + MAX_EVENT]
            }
            None => t
                .wait_recycled()
                .map_or_else(|| vec![0; CHUNK + MAX_EVENT], |(b, _)| b),
        };
        let b = std::mem::replace(&mut self.buf, next);
        let n = std::mem::take(&mut self.pos);
        self.stats.bytes += n as u64;
        // The thread only goes away in `finish`.
        t.send((b, n));
    }

    /// Close the open group, now that the privilege after it is known: `prv`.
    #[inline(always)]
    fn close(&mut self, prv: u8) {
        if !self.open {
            return;
        }
        if prv != self.cur_priv || self.open_xret {
            self.priv_change(prv);
        }
        self.end();
    }

    #[cold]
    fn priv_change(&mut self, prv: u8) {
        if !self.enc.cfg.omit.priv_ {
            match self.open_priv_pos {
                Some(p) => self.buf[p] = prv,
                None => self.addl(ADDL_PRIV, prv as u64, 1),
            }
        }
        self.cur_priv = prv;
    }

    /// The open group's next pc was fetched from `pa`: say so (additional state 9).
    #[cold]
    fn next_pc_paddr(&mut self, pa: Option<u64>) {
        if let Some(pa) = pa {
            self.addl(ADDL_PC_PADDR, pa, self.enc.mb);
        }
    }

    /// A state-initialisation group storing `v` at `addr` (Flute's format: no response).
    fn state_init_store(&mut self, addr: u64, size: MemSize, v: u64) {
        self.begin();
        self.b(STATE_INIT);
        self.b(MEM_REQ);
        self.le(addr, self.enc.mb);
        self.b(req_byte(MemOp::Store, size));
        self.le(v, size.bytes() as usize);
        self.end();
        self.stats.state_inits += 1;
    }

    // ---------------------------------------------------------------------------------
    // HTIF.

    /// Time moved on: if a command was outstanding, the host has acted on it.
    #[inline(always)]
    fn htif_tick(&mut self, time: u64) {
        if self.htif.pending_time != u64::MAX && time != self.htif.pending_time {
            self.htif_host_acted();
        }
    }

    #[cold]
    fn htif_host_acted(&mut self) {
        self.htif.pending_time = u64::MAX;
        for w in &mut self.htif.words {
            w.dirty = true;
        }
    }

    /// Before an instruction's group: state-initialisation groups for loads of words the host
    /// may have written; note the instruction's stores.
    #[cold]
    fn htif_access(&mut self, r: &Retired) {
        self.htif_tick(r.time);
        for m in r.mem() {
            if !self.htif.hit(m.paddr) {
                continue;
            }
            let word = m.paddr & !7;
            let covers = m.paddr == word && m.size == 8;
            let Some(i) = self.htif.words.iter().position(|w| w.addr == word) else {
                continue;
            };
            match m.kind {
                MemKind::Load => {
                    if self.htif.words[i].dirty {
                        let size = MemSize::from_bytes(m.size).unwrap_or(MemSize::B64);
                        self.state_init_store(m.paddr, size, m.value);
                        if covers {
                            self.htif.words[i].dirty = false;
                        }
                    }
                }
                MemKind::Store => {
                    if covers {
                        self.htif.words[i].dirty = false;
                    }
                    if Some(word) == self.htif.tohost.map(|t| t & !7) && m.value != 0 {
                        self.htif.pending_time = r.time;
                        let (dev, cmd, payload) = (
                            m.value >> 56,
                            (m.value >> 48) & 0xff,
                            m.value & ((1 << 48) - 1),
                        );
                        if dev == 0 && cmd == 0 && payload & 1 == 0 {
                            // A proxied syscall: the host writes the result at payload[0].
                            let magic = payload & !7;
                            self.htif.magic = magic;
                            if !self.htif.words.iter().any(|w| w.addr == magic) {
                                self.htif.words.push(Watched {
                                    addr: magic,
                                    dirty: false,
                                });
                            }
                        }
                    }
                }
            }
        }
    }

    // ---------------------------------------------------------------------------------
    // Groups.

    /// A retired instruction: close the group before, then write its group. The common
    /// case writes everything through one cursor and updates the writer's fields once.
    #[inline(always)]
    fn retired(&mut self, r: &Retired) {
        if self.plain(r) {
            return;
        }
        if self.csr_pending.is_some() {
            self.flush_csr(None);
        }
        let prv = r.prv as u8;
        if self.open {
            if prv != self.cur_priv || self.open_xret {
                self.priv_change(prv);
            }
            if self.enc.pc_paddr {
                self.next_pc_paddr(r.fetch_pa);
            }
        }
        let htif =
            r.n_mem != 0 && self.htif.active() && r.mem().iter().any(|m| self.htif.hit(m.paddr));
        if self.pos >= CHUNK || htif {
            // The open group's privilege is placed (above): end it (`close` would place an
            // xRET's a second time).
            if self.open {
                self.end();
            }
            self.reserve();
            if htif {
                self.htif_access(r);
            }
        }
        let close = self.open && !self.enc.cfg.implicit_end;
        let pos = self.pos;
        let seen = self.seen;
        let mut o = Out::new(&mut self.buf[pos..], &self.enc, &mut self.track);
        if close {
            o.le(END_GROUP as u64 | (BEGIN_GROUP as u64) << 8, 2);
        } else {
            o.u8(BEGIN_GROUP);
        }
        let tail = if o.e.strict {
            let mut tail = StrictTail::default();
            o.detour(|o| tail = o.strict_instruction(r, &seen));
            Some(tail)
        } else {
            o.instruction(r);
            None
        };
        self.pos = pos + o.n;
        self.opened(matches!(r.insn.op, Op::Mret | Op::Sret));
        if let Some(t) = tail {
            self.open_priv_pos = t.priv_at.map(|p| pos + p);
            self.csr_pending = t.csr;
        }
        self.cur_priv = prv;
        self.stats.groups += 1;
        self.stats.instructions += 1;
    }

    /// Most instructions, on the usual settings ([`Enc::plain`]): at most one GPR or FPR
    /// written (and then maybe fflags, as FP operations do), at most one data access, in the
    /// privilege of the group before, which is not an xRET's. Writes the same bytes as the general path with the same element writers,
    /// but without its tests of the group's state and the settings it excludes; returns
    /// false, having written nothing, for anything else.
    #[inline(always)]
    fn plain(&mut self, r: &Retired) -> bool {
        // One branch for everything that sends a record to the general path (`|` evaluates
        // them all: cheaper than a branch each).
        let fflags = r.n_writes == 2;
        if !self.fast
            | (r.n_mem > 1)
            | (r.n_writes > 2)
            | (fflags && r.writes[1].reg != Reg::Csr(FFLAGS))
            | r.sc_failed
            | (r.prv as u8 != self.cur_priv)
            | (self.pos >= CHUNK)
        {
            return false;
        }
        let e = &self.enc;
        let d = &r.insn;
        let pos = self.pos;
        // SAFETY: `pos < CHUNK` and the buffer has MAX_EVENT bytes more.
        let room = unsafe { self.buf.get_unchecked_mut(pos..) };
        let mut o = Out::new(room, e, &mut self.track);
        o.plain_head(d, r.pc, r.next_pc);
        if r.n_writes != 0 {
            match r.writes[0] {
                RegWrite { reg: Reg::X(0), .. } => {}
                RegWrite {
                    reg: Reg::X(n),
                    value,
                } => o.full_reg(GPR_ADDR + (n & 31) as u16, value, 8),
                RegWrite {
                    reg: Reg::F(n),
                    value,
                } => o.full_reg(FPR_ADDR + (n & 31) as u16, value, 8),
                RegWrite {
                    reg: Reg::Csr(_), ..
                } => return false,
            }
            if fflags & e.layout.fflags {
                o.full_reg(FFLAGS, r.writes[1].value, 8);
            }
        }
        if r.n_mem != 0 {
            let m = &r.mem[0];
            if self.htif.hit(m.paddr) || m.size > 8 {
                // Nothing is kept of what was written past `pos` (cbo.zero's block takes the
                // general path).
                return false;
            }
            let store = m.kind == MemKind::Store;
            o.plain_access(store, m.size, m.value, m.vaddr, m.paddr);
        }
        self.pos = pos + o.n;
        self.open_priv_pos = None;
        if matches!(d.op, Op::Mret | Op::Sret) {
            self.open_xret = true;
            self.fast = false;
        }
        self.plain_groups += 1;
        true
    }

    /// A run of simple instructions ([`SimpleRun`]): each one's group as
    /// [`TandemWriter::plain`] writes it, from the instruction and its effect, without a
    /// record ([`TandemWriter::plain_run`]); through its record and
    /// [`TandemWriter::retired`] where the plain path would not take it.
    #[inline(always)]
    fn simple(&mut self, run: &SimpleRun) {
        let n = run.insns.len();
        // Room for every group of the run: no test per instruction (a run near the end of
        // the buffer, once per CHUNK bytes, goes the general way).
        if !self.fast | (run.prv as u8 != self.cur_priv) | (self.pos + n * MAX_PLAIN > CHUNK) {
            return self.simple_general(run);
        }
        let done = if self.enc.flute_plain {
            self.plain_run::<true>(run)
        } else {
            self.plain_run::<false>(run)
        };
        self.open_priv_pos = None;
        self.plain_groups += done as u64;
        if done < n {
            self.simple_rest(run, done);
        }
    }

    /// The groups of `run`'s instructions, as [`TandemWriter::plain`] writes their records,
    /// up to the first access to a word the HTIF host may have written (whose group needs
    /// the general path). `FLUTE`: the settings are [`PlainLayout::FLUTE`] (constants here,
    /// not flags tested per instruction). Returns how many it wrote.
    ///
    /// The caller checked that the buffer has `MAX_PLAIN` bytes per instruction free.
    /// Elements that some instructions have and others not (x\[rd\], store data) are
    /// stored always and kept or not by how far the cursor moves: no branch on them.
    #[inline(always)]
    fn plain_run<const FLUTE: bool>(&mut self, run: &SimpleRun) -> usize {
        let l = if FLUTE {
            PlainLayout::FLUTE
        } else {
            self.enc.layout
        };
        let base = self.buf.as_mut_ptr();
        // SAFETY: `pos + n * MAX_PLAIN <= CHUNK` (the caller) and the buffer is longer.
        let mut c = Cursor(unsafe { base.add(self.pos) });
        let i = unsafe { c.plain_insns(l, self.htif.filter(), run) };
        // SAFETY: `c` moved forward from `base` within the buffer.
        self.pos = unsafe { c.0.offset_from(base) } as usize;
        i
    }

    /// The runs of a chain ([`SimpleChain`]): as [`TandemWriter::simple`] writes each, with
    /// the tests of the writer's state and of the room in the buffer once for all of them,
    /// and the cursor kept from run to run.
    #[inline(always)]
    fn chain(&mut self, c: &SimpleChain) {
        let n = c.insns();
        // Room for every group of the chain (near the end of the buffer, from a new one),
        // else run by run, as are the chains the plain path does not write.
        if !self.fast
            | (c.prv as u8 != self.cur_priv)
            | ((self.pos + n * MAX_PLAIN > CHUNK) && !self.make_room(n * MAX_PLAIN))
        {
            return self.chain_by_runs(c);
        }
        let done = if self.enc.flute_plain {
            self.plain_chain::<true>(c)
        } else {
            self.plain_chain::<false>(c)
        };
        self.open_priv_pos = None;
        self.plain_groups += done as u64;
        if done < n {
            self.chain_rest(c, done);
        }
    }

    /// The groups of the instructions of `c`'s runs, as [`TandemWriter::plain_run`] writes
    /// each run's, up to the first access to a word the HTIF host may have written. Returns
    /// how many it wrote.
    ///
    /// The caller checked that the buffer has `MAX_PLAIN` bytes per instruction free.
    #[inline(always)]
    fn plain_chain<const FLUTE: bool>(&mut self, c: &SimpleChain) -> usize {
        let l = if FLUTE {
            PlainLayout::FLUTE
        } else {
            self.enc.layout
        };
        let htif = self.htif.filter();
        let base = self.buf.as_mut_ptr();
        // SAFETY: `pos + c.insns() * MAX_PLAIN <= CHUNK` (the caller) and the buffer is
        // longer.
        let mut cur = Cursor(unsafe { base.add(self.pos) });
        let mut done = 0;
        for run in c.iter() {
            // SAFETY: the room for the runs before and this one.
            let i = unsafe { cur.plain_insns(l, htif, &run) };
            done += i;
            if i < run.insns.len() {
                break;
            }
        }
        // SAFETY: `cur` moved forward from `base` within the buffer.
        self.pos = unsafe { cur.0.offset_from(base) } as usize;
        done
    }

    /// The instructions of `c` from the `i`-th on, run by run: through their records in the
    /// run of the `i`-th ([`TandemWriter::simple_rest`]), then as [`TandemWriter::simple`]
    /// writes each run.
    #[cold]
    #[inline(never)]
    fn chain_rest(&mut self, c: &SimpleChain, i: usize) {
        let mut before = 0;
        for run in c.iter() {
            let n = run.insns.len();
            if before + n <= i {
                before += n;
                continue;
            }
            if before <= i {
                self.simple_rest(&run, i - before);
            } else {
                self.simple(&run);
            }
            before += n;
        }
    }

    /// Room for `need` bytes (at most `CHUNK`) of plain groups: what is written goes to the
    /// writer thread first (the open group goes on in the next buffer), unless the open
    /// group has a privilege byte to patch. Whether there is room now.
    #[cold]
    #[inline(never)]
    fn make_room(&mut self, need: usize) -> bool {
        if self.open_priv_pos.is_none() {
            self.hand_over();
        }
        self.pos + need <= CHUNK
    }

    /// A chain the plain path does not write at once: run by run.
    #[cold]
    #[inline(never)]
    fn chain_by_runs(&mut self, c: &SimpleChain) {
        c.for_each_run(|r| self.simple(r));
    }

    /// The instructions of `run` from `i` on, through their records ([`TandemWriter::plain`]
    /// takes those it can).
    #[cold]
    #[inline(never)]
    fn simple_rest(&mut self, run: &SimpleRun, i: usize) {
        let mut pc = run.pc;
        for d in &run.insns[..i] {
            pc = pc.wrapping_add(d.len as u64);
        }
        let mut r = Retired::default();
        for j in i..run.insns.len() {
            run.record(j, pc, &mut r);
            self.retired(&r);
            pc = r.next_pc;
        }
    }

    /// A run the plain path does not write (other settings, another privilege): each
    /// instruction through its record.
    #[cold]
    #[inline(never)]
    fn simple_general(&mut self, run: &SimpleRun) {
        run.for_each_record(|r| self.retired(r));
    }

    /// A trap's group: an exception (with the instruction that raised it, if it was fetched)
    /// or an interrupt.
    fn trap_group(&mut self, t: &TrapRecord) {
        if self.csr_pending.is_some() {
            self.flush_csr(None);
        }
        let pend = self.pending.take();
        if self.open && self.enc.pc_paddr {
            // The excepting instruction was fetched from here (an interrupted one was not).
            self.next_pc_paddr(pend.and_then(|p| p.fetch_pa));
        }
        self.close(t.from as u8);
        self.reserve();
        self.begin();
        self.stats.traps += 1;
        let pos = self.pos;
        let mut o = Out::new(&mut self.buf[pos..], &self.enc, &mut self.track);
        let e = o.e;
        if e.pc {
            o.addl(ADDL_PC, t.handler, e.xb);
        }
        if let Some(p) = &pend {
            // Flute leaves the instruction out for an instruction access or page fault
            // (it is bogus then); hartscope has none to write when the fetch failed.
            let fetch_fault = matches!(
                t.cause,
                Cause::Exception(Exception::InstructionAccessFault)
                    | Cause::Exception(Exception::InstructionPageFault)
            );
            if p.insn.op != Op::NotDecoded && !(e.strict && fetch_fault) {
                o.insn(&p.insn);
            }
            // State the excepting instruction changed before it trapped (not in Flute's
            // TRAP rule).
            for &w in &p.writes[..p.n_writes as usize] {
                if !e.strict {
                    o.reg_write(w);
                }
                o.t.write(w);
            }
        }
        let to_s = t.to == Priv::S;
        // TrapRecord.writes: xepc, xcause, xtval, mstatus.
        let [epc, cause, tval, st] = t.writes;
        let status = if to_s && e.cfg.style.flute_layout() && st.reg == Reg::Csr(MSTATUS) {
            RegWrite {
                reg: Reg::Csr(SSTATUS),
                value: st.value & SSTATUS_MASK,
            }
        } else {
            st
        };
        let trap_csrs = !e.cfg.omit.trap;
        let csr = |o: &mut Out, w: RegWrite| {
            if let Reg::Csr(c) = w.reg {
                if trap_csrs && c != MVIP && !e.csr_left_out(c) {
                    o.full_reg(c, w.value, e.xb);
                }
            }
        };
        let with_priv = !e.cfg.omit.priv_;
        let mut priv_at = None;
        match e.cfg.style {
            Style::Flute | Style::FluteStrict => {
                if with_priv {
                    o.u8(ADDL_STATE);
                    o.u8(ADDL_PRIV);
                    priv_at = Some(o.n);
                    o.u8(t.to as u8);
                }
                csr(&mut o, status);
                csr(&mut o, cause);
                csr(&mut o, epc);
                csr(&mut o, tval);
            }
            Style::Spec => {
                csr(&mut o, epc);
                csr(&mut o, cause);
                csr(&mut o, status);
                csr(&mut o, tval);
                if with_priv {
                    o.u8(ADDL_STATE);
                    o.u8(ADDL_PRIV);
                    priv_at = Some(o.n);
                    o.u8(t.to as u8);
                }
            }
        }
        if e.cfg.mtime && t.time != o.t.last_mtime {
            o.addl(ADDL_MTIME, t.time, 8);
            o.t.last_mtime = t.time;
        }
        let n = o.n;
        self.open_priv_pos = priv_at.map(|p| pos + p);
        self.pos += n;
        self.cur_priv = t.to as u8;
    }

    /// Close the last group, stop the writer thread and return the output, or the first I/O
    /// error met. `final_priv` is the hart's privilege at the end (an MRET as the last
    /// instruction needs it).
    pub fn finish(mut self, final_priv: Option<Priv>) -> io::Result<(W, WriterStats)> {
        if self.csr_pending.is_some() {
            self.flush_csr(None);
        }
        let prv = final_priv.map_or(self.cur_priv, |p| p as u8);
        self.close_last(prv);
        let stats = self.stats();
        self.hand_over();
        match self.thread.take().map(Stage::join) {
            Some(Ok(r)) => r.map(|w| (w, stats)),
            Some(Err(panicked)) => Err(panicked.into()),
            None => Err(io::Error::other("the tandem writer was already finished")),
        }
    }

    /// The CSR element a strict CSR instruction's group still needs: the value read from
    /// the hart `m` after the instruction, or (not seen) the record's.
    #[cold]
    fn flush_csr(&mut self, m: Option<&Machine>) {
        let Some((c, rec)) = self.csr_pending.take() else {
            return;
        };
        let v = match m {
            Some(m) => m.csr_read(c).or(rec),
            None => rec,
        };
        if let (true, Some(v)) = (self.open, v) {
            // The group may have ended past CHUNK, where an event has not MAX_EVENT bytes of
            // room: what is written goes to the writer thread first, and the group goes on
            // in the next buffer (a CSR instruction's group has no privilege byte to patch).
            debug_assert!(self.open_priv_pos.is_none());
            self.reserve();
            let pos = self.pos;
            let mut o = Out::new(&mut self.buf[pos..], &self.enc, &mut self.track);
            o.csr_write(c, v);
            self.pos += o.n;
        }
    }

    /// The strict style's look at the hart before an instruction or trap (or at the end of
    /// a run): the CSR a CSR instruction wrote, mstatus, fflags and the next rs2, and mip:
    /// when it differs from the last value written, `04 44 03 <mip>` outside any group, so
    /// before the group of the instruction or trap that sees it first.
    #[cold]
    #[inline(never)]
    fn strict_watch(&mut self, m: &Machine, at: At) {
        self.flush_csr(Some(m));
        let c = &m.hart.csr;
        self.seen.mstatus = c.mstatus_read();
        self.seen.fflags = c.fflags;
        if let At::Insn(d) = at {
            self.seen.rs2 = m.x(d.rs2);
        }
        if matches!(at, At::End) {
            return;
        }
        let mip = m.csr_read(MIP).unwrap_or(c.mip);
        if mip == self.last_mip {
            return;
        }
        self.last_mip = mip;
        // Where the hart is now is the privilege after the open group.
        self.close(m.hart.prv as u8);
        self.reserve();
        if !self.enc.cfg.omit.csr && !self.enc.csr_left_out(MIP) {
            self.b(FULL_REG);
            self.le(MIP as u64, 2);
            self.le(mip, self.enc.xb);
            self.stats.groups += 1;
        }
    }

    fn close_last(&mut self, prv: u8) {
        if self.open {
            self.close(prv);
            if self.enc.cfg.implicit_end {
                self.b(END_GROUP);
            }
        }
    }
}

/// The memory-request op of an AMO instruction.
/// The memory request of an AMO (from the instruction table's [`Atomic`] column), None for
/// other operations.
fn amo_op(op: Op) -> Option<MemOp> {
    let Atomic::Amo(_, o) = op.facts().atomic else {
        return None;
    };
    Some(match o {
        AmoOp::Swap => MemOp::AmoSwap,
        AmoOp::Add => MemOp::AmoAdd,
        AmoOp::Xor => MemOp::AmoXor,
        AmoOp::And => MemOp::AmoAnd,
        AmoOp::Or => MemOp::AmoOr,
        AmoOp::Min => MemOp::AmoMin,
        AmoOp::Max => MemOp::AmoMax,
        AmoOp::Minu => MemOp::AmoMinu,
        AmoOp::Maxu => MemOp::AmoMaxu,
    })
}

impl<W: Write + Send + 'static> Sink for TandemWriter<W> {
    const DETAIL: iss::Detail = iss::Detail::SimpleRuns;

    #[inline(always)]
    fn simple_run(&mut self, r: &SimpleRun) {
        self.simple(r);
    }

    #[inline(always)]
    fn simple_chain(&mut self, c: &SimpleChain) {
        self.chain(c);
    }

    #[inline(always)]
    fn retire(&mut self, r: &Retired) {
        if r.exception.is_some() {
            self.pending = Some(PendingExc {
                insn: r.insn,
                fetch_pa: r.fetch_pa,
                writes: r.writes,
                n_writes: r.n_writes,
            });
            return;
        }
        self.retired(r);
    }

    fn trap(&mut self, t: &TrapRecord) {
        self.htif_tick(t.time);
        self.trap_group(t);
    }

    #[inline]
    fn watch(&mut self, m: &Machine, at: At) {
        if self.enc.strict {
            self.strict_watch(m, at);
        }
    }

    /// The strict Flute style needs the hart seen before every instruction and trap.
    fn wants_watch(&self) -> bool {
        self.enc.strict
    }
}

/// Run `m` (at most `limit` instructions) writing to `w`: through
/// [`iss::record::Watched`], one
/// instruction at a time, when its style needs the hart seen ([`Sink::wants_watch`]), else
/// the usual way.
pub fn run<W: Write + Send + 'static>(
    m: &mut Machine,
    w: &mut TandemWriter<W>,
    limit: Option<u64>,
) -> Stop {
    if w.wants_watch() {
        m.run(&mut iss::record::Watched(w), limit)
    } else {
        m.run(w, limit)
    }
}

impl<W: Write + Send + 'static> Drop for TandemWriter<W> {
    fn drop(&mut self) {
        // Dropped without `finish` (an error path): still write what was written.
        if self.thread.is_some() {
            let p = self.cur_priv;
            self.close_last(p);
            self.hand_over();
            if let Some(w) = self.thread.take() {
                let _ = w.join();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{PcMode, Style};
    use crate::session::{machine, writer, HartConfig};

    /// The stream of `elf` (at most `limit` instructions), with the plain path on or off,
    /// and taking runs of simple instructions or every record built.
    fn stream(
        name: &str,
        elf: &[u8],
        cfg: &WriterConfig,
        plain: bool,
        simple: bool,
        limit: u64,
    ) -> Vec<u8> {
        let (mut m, prog) = machine(elf, name, HartConfig::default()).unwrap();
        let mut w = writer(&m, &prog, cfg, Vec::new()).unwrap();
        assert!(
            w.enc.plain,
            "{name}: the configuration should take the plain path"
        );
        w.enc.plain = plain;
        if simple {
            m.run(&mut w, Some(limit));
        } else {
            m.run(&mut iss::record::OneByOne(&mut w), Some(limit));
        }
        w.finish(Some(m.hart.prv)).unwrap().0
    }

    /// The plain path, and the runs of simple instructions, write exactly the bytes the
    /// general path writes, for every shipped program, on each setting they cover (full and
    /// incremented pc, with and without effective and physical addresses, store data, fflags).
    #[test]
    fn plain_path_writes_what_the_general_path_writes() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../programs/bin");
        let mut elfs: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "elf"))
            .collect();
        elfs.sort();
        assert!(elfs.len() > 10);
        let configs = [
            WriterConfig::flute(),
            WriterConfig {
                pc: PcMode::Increment,
                style: Style::Spec,
                eaddr: false,
                paddr: true,
                ..WriterConfig::flute()
            },
            WriterConfig {
                store_data: false,
                paddr: true,
                ..WriterConfig::flute()
            },
            WriterConfig {
                omit: crate::config::Partial {
                    csrs: vec![FFLAGS],
                    ..Default::default()
                },
                ..WriterConfig::flute()
            },
        ];
        for p in &elfs {
            let name = p.file_stem().unwrap().to_string_lossy();
            let elf = std::fs::read(p).unwrap();
            for cfg in &configs {
                let general = stream(&name, &elf, cfg, false, false, 200_000);
                assert!(general.len() > 1000, "{name}");
                for (plain, simple) in [(true, false), (true, true), (false, true)] {
                    let fast = stream(&name, &elf, cfg, plain, simple, 200_000);
                    let how = format!("{name} {cfg:?} plain {plain} simple {simple}");
                    if let Some(i) = fast.iter().zip(&general).position(|(a, b)| a != b) {
                        panic!("{how}: the streams differ from byte {i}");
                    }
                    assert_eq!(fast.len(), general.len(), "{how}");
                }
            }
        }
    }

    /// An MRET's group always carries the privilege after it, once, also when the group ends
    /// past a buffer's end (where the next record's group starts in a new buffer): the
    /// streams of k instructions, an MRET and an instruction in U-mode differ only by the k
    /// groups, for k around a buffer's worth.
    #[test]
    fn xret_group_at_a_buffer_end_has_its_privilege_once() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../programs/bin/rv64i.elf");
        let elf = std::fs::read(path).unwrap();
        let (m, prog) = machine(&elf, "rv64i", HartConfig::default()).unwrap();
        let addi = iss::decode::decode(0x0010_8093); // addi x1, x1, 1
        let mret = iss::decode::decode(0x3020_0073);
        let record = |insn: Insn, pc: u64, next_pc: u64, prv: Priv| {
            let mut r = Retired {
                pc,
                insn,
                next_pc,
                prv,
                ..Retired::default()
            };
            if insn.op == Op::Addi {
                r.writes[0] = RegWrite {
                    reg: Reg::X(1),
                    value: 7,
                };
                r.n_writes = 1;
            }
            r
        };
        let stream = |k: usize| {
            let mut w = writer(&m, &prog, &WriterConfig::flute(), Vec::new()).unwrap();
            let pc = 0x8000_0000;
            for _ in 0..k {
                w.retire(&record(addi, pc, pc, Priv::M));
            }
            w.retire(&record(mret, pc, 0x8000_1000, Priv::M));
            w.retire(&record(addi, 0x8000_1000, 0x8000_1004, Priv::U));
            w.finish(Some(Priv::U)).unwrap().0
        };
        // One addi group: end and begin group, the next pc, the instruction, x1.
        let group = 2 + 10 + 5 + 11;
        let first = CHUNK / group - 4;
        let base = stream(first);
        let tail = &base[base.len() - 40..];
        for k in first + 1..first + 8 {
            let s = stream(k);
            assert_eq!(s.len(), base.len() + (k - first) * group, "k = {k}");
            assert_eq!(&s[s.len() - 40..], tail, "k = {k}");
        }
    }
}
