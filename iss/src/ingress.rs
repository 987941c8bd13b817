//! The E-Trace hart-to-encoder interface (the "ingress port"), which N-Trace shares:
//! `../shared/specs/etrace-ingress-port.tex`, with N-Trace table 2 for `itype` and the errata
//! (ecall, ebreak and c.ebreak retire and carry itype 1).
//!
//! [`IngressPort`] is a [`Sink`]: it turns what the hart retires into [`Beat`]s, either one per
//! retired instruction (single retirement, `retires_p` = 1: `iretire` is 0 or 1) or one per
//! block of contiguous instructions (multiple retirement: `iretire` counts half-words; a block
//! ends at the first instruction with a non-zero itype, at any discontinuity, at a change of
//! privilege, time or context, at the configured size, and with data trace at every data
//! access, which so belongs to the block's last instruction). Exceptions that do not retire their
//! instruction and interrupts are reported on the block they follow when it ends with itype 0,
//! else on a beat of their own with `iretire` 0 (`iaddr` the excepting instruction).
//!
//! Without data trace the port is a `RUNS` sink: the hart runs at full speed and reports runs
//! of retired instructions. With data trace it needs the full records (addresses and values).
//! Beats go out in batches to a [`BeatSink`].

use crate::classify;
use crate::csr::{Csrs, SATP};
use crate::insn::{Insn, Op};
use crate::isa::Ext;
use crate::ops::{AmoOp, Atomic, Flow};
use crate::record::Detail;
use crate::record::{Blocks, MemKind, Reg, Retired, Run, Sink, TrapRecord};
use crate::trace_control::PortControl;
use arch::{Cause, Exception, Itype, Priv};
use serde::{Deserialize, Serialize};

/// [`Beat::trigger`]'s bits: trace-on (a debug trigger's action 2), trace-off (3) and
/// trace-notify (4).
pub const TRIGGER_ON: u8 = 1;
pub const TRIGGER_OFF: u8 = 2;
pub const TRIGGER_NOTIFY: u8 = 4;

/// One beat of the instruction trace interface.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Beat {
    /// Termination type of the block ([`Itype`] code).
    pub itype: u8,
    /// xcause, when itype is 1 or 2.
    pub cause: u64,
    /// xtval, when itype is 1.
    pub tval: u64,
    /// Privilege: 0 U, 1 S, 3 M, 4 D.
    #[serde(rename = "priv")]
    pub prv: u8,
    /// Address of the first instruction retired (of the excepting one if `iretire` is 0 and
    /// itype is 1).
    pub iaddr: u64,
    /// Single retirement: instructions retired (0 or 1). Multiple: half-words retired.
    pub iretire: u32,
    /// The last instruction is 2^ilastsize half-words long.
    pub ilastsize: u8,
    pub context: u64,
    /// 0 unreported, 1 imprecise, 2 precise, 3 asynchronous discontinuity.
    pub ctype: u8,
    pub time: u64,
    /// The uninferable jump ending the block is sequentially inferable.
    pub sijump: bool,
    /// The `trigger` sideband (the ingress spec's optional input, fed by the debug
    /// triggers' trace actions): bit 0 trace-on, bit 1 trace-off, bit 2 trace-notify, pulsed
    /// with the beat's last instruction, which caused it (a beat with a pulse holds that
    /// instruction alone).
    #[serde(default)]
    pub trigger: u8,
    /// Data accesses of this beat, following in the batch's data slice.
    #[serde(skip)]
    pub ndata: u8,
}

impl Beat {
    /// Half-words retired, whatever the retirement mode (`single`: `iretire` counts
    /// instructions).
    #[inline]
    pub fn halfwords(&self, single: bool) -> u64 {
        if single {
            (self.iretire as u64) << self.ilastsize
        } else {
            self.iretire as u64
        }
    }
}

/// One beat of the data trace interface (unified signalling).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DataBeat {
    /// 0 load, 1 store, 4/5/6 CSR read-write/set/clear, 8..14 atomic swap, add, AND, OR, XOR,
    /// max, min, 15 conditional store failure.
    pub dtype: u8,
    /// The data address (the CSR number for CSR accesses).
    pub daddr: u64,
    /// The access is 2^dsize bytes.
    pub dsize: u8,
    /// The data; for CSRs and atomics the store data in the low 64 bits and the load data (or
    /// old CSR value) in the high 64 bits.
    pub data: u128,
}

/// How instructions are grouped into beats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Retirement {
    /// One beat per instruction (`retires_p` = 1).
    Single,
    /// Blocks of up to this many half-words (`retires_p` > 1).
    Block { max_halfwords: u32 },
}

/// What the `context` signal carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ContextSource {
    /// Nothing: context is always 0.
    None,
    /// satp.ASID, on bits 15:0 (the E-Trace recommendation).
    Asid,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct IngressConfig {
    pub retirement: Retirement,
    /// 3 or 4: with 3, every uninferable jump is itype 6 and inferable jumps are 0.
    pub itype_width: u8,
    /// The trace-control settings the port reads ([`TraceControl::port`]).
    ///
    /// [`TraceControl::port`]: crate::trace_control::TraceControl::port
    #[serde(flatten)]
    pub control: PortControl,
    pub context: ContextSource,
    /// The ctype reported on the first retirement after a context change (1, 2 or 3).
    pub ctype: u8,
    /// Whether the hart detects sequentially inferable jumps (drives `sijump`).
    pub sijump: bool,
    /// Emit the data trace interface too.
    pub data: bool,
}

impl Default for IngressConfig {
    fn default() -> Self {
        IngressConfig {
            retirement: Retirement::Block {
                max_halfwords: 1 << 16,
            },
            itype_width: 4,
            control: PortControl::default(),
            context: ContextSource::Asid,
            ctype: 2,
            sijump: true,
            data: false,
        }
    }
}

/// Receives beats in batches. Beat `i` owns the next `beats[i].ndata` entries of `data`.
pub trait BeatSink {
    fn beats(&mut self, beats: &[Beat], data: &[DataBeat]);
    /// The run ended with the hart about to execute `next_pc` in privilege `prv`: flush.
    fn finish(&mut self, next_pc: u64, prv: u8) -> std::io::Result<()>;
    /// Whether the sink would rather take each beat as it is finished ([`BeatSink::beat`]),
    /// without data trace, than in batches: an encoder in line with the port (building a
    /// batch and reading it back then only costs). Asked once, when the port is made.
    fn one_by_one(&self) -> bool {
        false
    }
    /// One finished beat, owning no data accesses (see [`BeatSink::one_by_one`]).
    fn beat(&mut self, b: &Beat) {
        self.beats(std::slice::from_ref(b), &[]);
    }
}

/// Several beat sinks fed the same beats.
impl BeatSink for Vec<Box<dyn BeatSink + Send>> {
    fn beats(&mut self, beats: &[Beat], data: &[DataBeat]) {
        for s in self.iter_mut() {
            s.beats(beats, data);
        }
    }

    fn finish(&mut self, next_pc: u64, prv: u8) -> std::io::Result<()> {
        let mut first = Ok(());
        for s in self.iter_mut() {
            let r = s.finish(next_pc, prv);
            if first.is_ok() {
                first = r;
            }
        }
        first
    }
}

/// Beats per batch handed to the sink.
const BATCH: usize = 4096;

/// The ingress port. `DATA` selects data trace (and with it, full records from the hart).
pub struct IngressPort<B: BeatSink, const DATA: bool> {
    cfg: IngressConfig,
    out: B,
    /// Finished beats not handed to `out` yet.
    batch: Vec<Beat>,
    data: Vec<DataBeat>,
    /// The beat being built, if `open`: the open block, or (single retirement) the last
    /// instruction's beat, held back so an interrupt can be reported on it.
    cur: Beat,
    open: bool,
    /// Finished beats go to `out` one at a time ([`BeatSink::one_by_one`]), not in batches.
    one_by_one: bool,
    /// The register the instruction retired just before set to a constant (lui/auipc).
    const_rd: Option<u8>,
    context: u64,
    /// A context change waiting for the next retirement.
    ctype_pending: bool,
    satp: u64,
    single: bool,
    max_hw: u32,
    /// The port's itype code of a run's last instruction by operation, when the run goes to
    /// its fall-through (`[0]`) or elsewhere (`[1]`), for the operations whose itype depends
    /// on nothing else and that set no constant; [`JUMP`] for jumps, whose itype also depends
    /// on their registers ([`IngressPort::jump_itype`]); [`SLOW`] for the others, and for all
    /// with per-instruction beats. (Replaying a run is the port's thread's main work.)
    fast_itype: Box<[[u8; 2]; 256]>,
    /// The port needs every instruction of a run ([`per_insn`]).
    per_insn: bool,
    /// Where the hart goes next, and in which privilege (after the last event seen).
    next_pc: u64,
    next_prv: Priv,
    /// mtime of the run being reported.
    time: u64,
    /// Trigger sideband bits for the next instruction retired ([`Sink::trigger`]).
    pulse: u8,
    /// Beats emitted so far.
    pub count: u64,
}

impl<B: BeatSink, const DATA: bool> IngressPort<B, DATA> {
    pub fn new(cfg: IngressConfig, out: B, csr: &Csrs) -> Self {
        let (single, max_hw) = match cfg.retirement {
            Retirement::Single => (true, 2),
            Retirement::Block { max_halfwords } => (false, max_halfwords.max(2)),
        };
        let one_by_one = !DATA && out.one_by_one();
        let mut p = IngressPort {
            fast_itype: Box::new([[SLOW; 2]; 256]),
            per_insn: per_insn(&cfg),
            cfg,
            out,
            batch: Vec::with_capacity(BATCH),
            data: Vec::new(),
            cur: Beat::default(),
            open: false,
            one_by_one,
            const_rd: None,
            context: 0,
            ctype_pending: false,
            satp: csr.satp,
            single,
            max_hw,
            next_pc: 0,
            next_prv: Priv::M,
            time: 0,
            pulse: 0,
            count: 0,
        };
        p.context = p.context_of(csr.satp);
        if !p.per_insn {
            for v in 0..=255u8 {
                // Jumps, whose itype depends on their registers, have their own mark. Ecall
                // and ebreak (ecall may be a firmware call) and the instructions that set a
                // constant (sijump) take the general path.
                let Some(op) = Op::from_u8(v) else { continue };
                let flow = op.flow();
                if flow.is_jump() {
                    p.fast_itype[v as usize] = [JUMP; 2];
                    continue;
                }
                if flow.sets_constant() || flow == Flow::Trap {
                    continue;
                }
                let d = Insn {
                    op,
                    ..Insn::NOT_DECODED
                };
                let code = |taken| p.port_itype(classify::itype(&d, taken), &d, None).0.code();
                p.fast_itype[v as usize] = [code(false), code(true)];
            }
        }
        p
    }

    fn context_of(&self, satp: u64) -> u64 {
        match self.cfg.context {
            ContextSource::None => 0,
            ContextSource::Asid => (satp >> 44) & 0xffff,
        }
    }

    /// satp is (now) `satp`: a changed context is reported on the next retirement.
    #[inline]
    fn see_satp(&mut self, satp: u64) {
        if satp != self.satp {
            self.satp = satp;
            let c = self.context_of(satp);
            if c != self.context {
                self.context = c;
                self.ctype_pending = true;
            }
        }
    }

    /// The ctype of the next beat: the configured one once after a context change, else 0.
    #[inline]
    fn take_ctype(&mut self) -> u8 {
        if std::mem::take(&mut self.ctype_pending) {
            self.cfg.ctype
        } else {
            0
        }
    }

    /// The itype the port reports for instruction `d`, which the hart classified as `it`
    /// (`jal` as a taken branch with `tr_te_inst_en_all_jumps`, 3-bit codes with `itype_width` 3), and
    /// whether it is a sequentially inferable jump: a `jalr` through the register that the
    /// instruction before it set to a constant (`prev_const`).
    #[inline]
    fn port_itype(&self, mut it: Itype, d: &Insn, prev_const: Option<u8>) -> (Itype, bool) {
        if self.cfg.control.tr_te_inst_en_all_jumps && d.op.flow() == Flow::DirectJump {
            it = Itype::TakenBranch;
        }
        if self.cfg.itype_width == 3 {
            it = it.to_3bit();
        }
        let sijump = self.cfg.sijump
            && it.is_uninferable_jump()
            && d.op.flow() == Flow::IndirectJump
            && prev_const == Some(d.rs1);
        (it, sijump)
    }

    /// Flush everything and finish the sink; returns the sink.
    pub fn finish(mut self) -> std::io::Result<B> {
        self.close();
        self.flush();
        self.out.finish(self.next_pc, self.next_prv as u8)?;
        Ok(self.out)
    }

    /// Add a finished beat.
    #[inline]
    fn emit(&mut self, b: Beat) {
        self.close();
        self.cur = b;
        self.finished();
    }

    /// Hand the finished beat `cur` on, or add it to the batch.
    #[inline(always)]
    fn finished(&mut self) {
        self.count += 1;
        if self.one_by_one {
            self.out.beat(&self.cur);
            return;
        }
        self.batch.push(self.cur);
        if self.batch.len() >= BATCH {
            self.flush();
        }
    }

    /// Start building a beat (closing the open one).
    #[inline]
    fn open_beat(&mut self, b: Beat) {
        self.close();
        self.cur = b;
        self.open = true;
    }

    /// Start building a block beat at `iaddr` with nothing retired yet (closing the open one).
    #[inline]
    fn open_empty(&mut self, prv: u8, iaddr: u64, ilastsize: u8, ctype: u8, time: u64) {
        self.open_beat(Beat {
            prv,
            iaddr,
            ilastsize,
            context: self.context,
            ctype,
            time,
            ..Beat::default()
        });
    }

    /// The beat being built.
    #[inline]
    fn open_mut(&mut self) -> Option<&mut Beat> {
        if self.open {
            Some(&mut self.cur)
        } else {
            None
        }
    }

    /// Hand the finished beats to the sink with exactly the data accesses they own. Data
    /// already recorded for an instruction whose beat is not in the batch yet (a retirement
    /// records its accesses before its beat closes the one before it, which may fill the
    /// batch) stays for the next batch, with its beat.
    fn flush(&mut self) {
        if !self.batch.is_empty() {
            let owned = if self.data.is_empty() {
                0
            } else {
                let owned: usize = self.batch.iter().map(|b| b.ndata as usize).sum();
                owned.min(self.data.len())
            };
            self.out.beats(&self.batch, &self.data[..owned]);
            self.batch.clear();
            self.data.drain(..owned);
        }
    }

    /// Hand the finished beats to the sink now, keeping the one still being built (several
    /// harts' ports funnelled into one stream hand theirs over at the end of each hart's
    /// quantum, so that the stream keeps the order in which the harts ran). Without data
    /// trace only: a port with data trace must own the accesses of the beat being built.
    pub fn flush_finished(&mut self) {
        debug_assert!(!DATA);
        self.flush();
    }

    /// The sink the beats go to.
    pub fn sink_mut(&mut self) -> &mut B {
        &mut self.out
    }

    /// Finish the beat being built.
    #[inline]
    fn close(&mut self) {
        if self.open {
            self.open = false;
            self.finished();
        }
    }

    /// One retired instruction at `pc`, followed by the next one in memory (`contiguous`) or
    /// not. (The caller keeps [`IngressPort::next_pc`].)
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn retire_insn(
        &mut self,
        pc: u64,
        d: &Insn,
        contiguous: bool,
        prv: Priv,
        time: u64,
        forced: Option<(Itype, u64, u64)>,
        ndata: u8,
    ) {
        let len = d.len as u64;
        self.next_prv = prv;
        let (it, cause, tval) = match forced {
            Some(f) => f,
            None if d.op == Op::Ecall => firmware_call(prv),
            None => (classify::itype(d, !contiguous), 0, 0),
        };
        let (it, sijump) = self.port_itype(it, d, self.const_rd);
        self.const_rd = classify::sets_constant(d);
        let ctype = self.take_ctype();
        let hw = (len / 2) as u32;
        let ilastsize = (hw == 2) as u8;
        let prv = prv as u8;
        let trigger = std::mem::take(&mut self.pulse);
        if trigger != 0 && !self.single {
            // The instruction that caused the pulse makes a beat of its own.
            self.close();
        }
        if self.single {
            self.open_beat(Beat {
                itype: it.code(),
                cause,
                tval,
                prv,
                iaddr: pc,
                iretire: 1,
                ilastsize,
                context: self.context,
                ctype,
                time,
                sijump,
                trigger,
                ndata,
            });
        } else {
            let max_hw = self.max_hw;
            if let Some(o) = self.open_mut() {
                if o.prv != prv || o.time != time || ctype != 0 || o.iretire + hw > max_hw {
                    self.close();
                }
            }
            if !self.open {
                self.open_empty(prv, pc, ilastsize, ctype, time);
            }
            if let Some(b) = self.open_mut() {
                b.iretire += hw;
                b.ilastsize = ilastsize;
                b.itype = it.code();
                b.cause = cause;
                b.tval = tval;
                b.sijump = sijump;
                b.ndata += ndata;
                b.trigger = trigger;
            }
        }
        // A block also ends at a data access, so each data beat belongs to the last
        // instruction of its block, and at a trigger pulse.
        if !self.single
            && (it != Itype::None || !contiguous || forced.is_some() || ndata != 0 || trigger != 0)
        {
            self.close();
        }
    }

    /// A trap. Exceptions from ecall and ebreak retire their instruction (itype 1); other
    /// exceptions and interrupts are reported on the open beat when it ends with itype 0, or
    /// on a beat of their own with iretire 0.
    fn see_trap(&mut self, t: &TrapRecord) {
        // An instruction that traps pulses nothing (the hart sends none for it).
        self.pulse = 0;
        // A debug trigger's breakpoint (`t.trigger`) retires nothing, even when it matched
        // an ebreak's bits after its fetch: it is an exception on an instruction that did not
        // retire (iretire 0, the ingress spec's "Using trigger outputs from the Debug
        // Module"), like a fetch fault.
        let retires = !t.trigger
            && matches!(
                t.cause,
                Cause::Exception(
                    Exception::EcallFromU | Exception::EcallFromS | Exception::EcallFromM
                ) | Cause::Exception(Exception::Breakpoint)
            )
            && t.insn.is_some_and(|d| d.op.flow() == Flow::Trap);
        if retires {
            if let Some(d) = t.insn {
                self.retire_insn(
                    t.epc,
                    &d,
                    t.handler == t.epc.wrapping_add(d.len as u64),
                    t.from,
                    t.time,
                    Some((Itype::Exception, t.cause.xcause(), t.tval)),
                    0,
                );
            }
        } else {
            let it = if t.cause.is_interrupt() {
                Itype::Interrupt
            } else {
                Itype::Exception
            };
            // Single retirement reports a non-retiring exception on a beat of its own, with
            // the excepting instruction's address; an interrupt goes on the last retirement.
            let attach = it == Itype::Interrupt || !self.single;
            match self.open_mut() {
                Some(o) if o.itype == 0 && attach => {
                    o.itype = it.code();
                    o.cause = t.cause.xcause();
                    o.tval = t.tval;
                    self.close();
                }
                _ => {
                    self.close();
                    let ctype = self.take_ctype();
                    self.emit(Beat {
                        itype: it.code(),
                        cause: t.cause.xcause(),
                        tval: t.tval,
                        prv: t.from as u8,
                        iaddr: t.epc,
                        iretire: 0,
                        ilastsize: 0,
                        context: self.context,
                        ctype,
                        time: t.time,
                        sijump: false,
                        trigger: 0,
                        ndata: 0,
                    });
                }
            }
        }
        self.const_rd = None;
        self.next_pc = t.handler;
        self.next_prv = t.to;
    }

    /// A run, one instruction at a time.
    fn run_each(&mut self, r: &Run) {
        let mut pc = r.pc;
        let last = r.insns.len() - 1;
        for (i, d) in r.insns.iter().enumerate() {
            let next = if i == last {
                r.next_pc
            } else {
                pc + d.len as u64
            };
            let contiguous = next == pc.wrapping_add(d.len as u64);
            self.retire_insn(pc, d, contiguous, r.prv, r.time, None, 0);
            pc = next;
        }
    }

    /// A run of contiguous instructions under multiple retirement, given by its first pc,
    /// whether the next instruction follows it in memory, its length in bytes, its last
    /// instruction, and what the instruction before the last set to a constant
    /// ([`PREV_UNKNOWN`] for a one-instruction run). Only the last instruction can have a
    /// non-zero itype, so the run extends the open block or makes one beat.
    #[inline]
    fn run_summary(
        &mut self,
        pc: u64,
        contiguous: bool,
        last: &Insn,
        bytes: u32,
        prev_const: u8,
        prv: Priv,
    ) {
        if self.per_insn {
            self.retire_insn(pc, last, contiguous, prv, self.time, None, 0);
            return;
        }
        let hw = self.make_room(bytes);
        let (it, cause, _) = if last.op == Op::Ecall {
            firmware_call(prv)
        } else {
            (classify::itype(last, !contiguous), 0, 0)
        };
        let (it, sijump) = self.port_itype(it, last, self.prev_const_reg(prev_const));
        self.const_rd = classify::sets_constant(last);
        let run = (pc, hw, contiguous, last.len);
        self.add_run(run, it.code(), cause, sijump, prv);
    }

    /// A run event whose last instruction's itype [`IngressPort::fast_itype`] gives, without
    /// building the instruction; any other through [`IngressPort::run_summary`].
    #[inline(always)]
    fn replay_run(&mut self, ev: &PortEvent) {
        let [fall, taken] = self.fast_itype[ev.op() as usize];
        let (pc, contiguous, bytes, prv) = (ev.pc(), ev.contiguous(), ev.bytes(), ev.prv());
        let (it, sijump) = if fall < JUMP {
            (if contiguous { fall } else { taken }, false)
        } else if fall == JUMP {
            self.jump_itype(ev)
        } else {
            let (last, prev_const) = (ev.last(), ev.prev_const());
            self.run_summary(pc, contiguous, &last, bytes, prev_const, prv);
            return;
        };
        // No operation of the fast path sets a constant.
        self.const_rd = None;
        if !self.open
            && (it != 0 || !contiguous)
            && self.pulse == 0
            && !self.ctype_pending
            && !sijump
        {
            // The usual run: it makes a beat of its own (no block is open, and it ends with a
            // transfer), as `add_run` would build and close it.
            self.next_prv = prv;
            self.cur = Beat {
                itype: it,
                cause: 0,
                tval: 0,
                prv: prv as u8,
                iaddr: pc,
                iretire: bytes / 2,
                ilastsize: (ev.last_len() == 4) as u8,
                context: self.context,
                ctype: 0,
                time: self.time,
                sijump: false,
                trigger: 0,
                ndata: 0,
            };
            self.finished();
            return;
        }
        let hw = self.make_room(bytes);
        let run = (pc, hw, contiguous, ev.last_len());
        self.add_run(run, it, 0, sijump, prv);
    }

    /// The itype code and sequential inferability of the jump that ends run `ev`, as
    /// [`IngressPort::run_summary`] finds them (before it sets `const_rd`).
    #[inline(always)]
    fn jump_itype(&self, ev: &PortEvent) -> (u8, bool) {
        let last = ev.last();
        let prev_const = self.prev_const_reg(ev.prev_const());
        let (it, sijump) =
            self.port_itype(classify::itype(&last, !ev.contiguous()), &last, prev_const);
        (it.code(), sijump)
    }

    /// The register the instruction before a run's last set to a constant, from what the run
    /// says of it (`prev_const`: [`PREV_UNKNOWN`], 0 for none, or the register).
    #[inline(always)]
    fn prev_const_reg(&self, prev_const: u8) -> Option<u8> {
        match prev_const {
            PREV_UNKNOWN => self.const_rd,
            0 => None,
            r => Some(r),
        }
    }

    /// A run of `bytes` under multiple retirement: close the open block if the run would
    /// take it past the maximum (which is then at least a page, and a run never leaves its
    /// page: the run fits in a beat of its own). Returns the run's half-words.
    #[inline(always)]
    fn make_room(&mut self, bytes: u32) -> u32 {
        let hw = bytes / 2;
        let open_hw = if self.open { self.cur.iretire } else { 0 };
        if hw + open_hw > self.max_hw {
            self.close();
        }
        hw
    }

    /// Add a run (first pc, half-words, whether the next instruction follows it in memory,
    /// the last instruction's length) whose last instruction has itype code `it` (and `cause`,
    /// `sijump`) to the open block, or to a new one; close the block after a transfer.
    #[inline(always)]
    fn add_run(&mut self, run: (u64, u32, bool, u8), it: u8, cause: u64, sijump: bool, prv: Priv) {
        let (pc, hw, contiguous, last_len) = run;
        let ctype = self.take_ctype();
        let prv_code = prv as u8;
        let ilastsize = (last_len == 4) as u8;
        let time = self.time;
        let trigger = std::mem::take(&mut self.pulse);
        if let Some(o) = self.open_mut() {
            if o.prv != prv_code || o.time != time || ctype != 0 || o.ndata != 0 || trigger != 0 {
                self.close();
            }
        }
        if !self.open {
            self.open_empty(prv_code, pc, ilastsize, ctype, time);
        }
        let b = &mut self.cur;
        b.iretire += hw;
        b.ilastsize = ilastsize;
        b.itype = it;
        b.cause = cause;
        b.tval = 0;
        b.sijump = sijump;
        b.trigger = trigger;
        self.next_prv = prv;
        if it != 0 || !contiguous || trigger != 0 {
            self.close();
        }
    }

    /// Replay what a [`Capture`] recorded on the hart's thread.
    pub fn replay(&mut self, b: &PortBatch) {
        let mut traps = b.traps.iter();
        for ev in b.events() {
            match ev.kind() {
                PortEvent::RUN => self.replay_run(ev),
                PortEvent::TRAP => {
                    if let Some(t) = traps.next() {
                        self.see_trap(t);
                    }
                }
                PortEvent::TIME => self.time = ev.pc(),
                PortEvent::TRIGGER => self.pulse |= ev.pc() as u8,
                PortEvent::END => self.next_pc = ev.pc(),
                _ => self.see_satp(ev.pc()),
            }
        }
    }

    /// The data accesses of a retired instruction, appended to the data slice; returns how
    /// many.
    fn data_of(&mut self, r: &Retired) -> u8 {
        let op = r.insn.op;
        let mut n = 0u8;
        let dsize = |s: u8| s.trailing_zeros() as u8;
        if op.facts().ext == Ext::Zicsr {
            let csr = r.insn.csr();
            let new = r
                .writes()
                .iter()
                .find(|w| w.reg == Reg::Csr(csr))
                .map(|w| w.value);
            let old = r
                .writes()
                .iter()
                .find(|w| w.reg == Reg::X(r.insn.rd))
                .map(|w| w.value)
                .unwrap_or(0);
            let dtype = match op {
                Op::Csrrw | Op::Csrrwi => 4,
                Op::Csrrs | Op::Csrrsi => 5,
                _ => 6,
            };
            self.data.push(DataBeat {
                dtype,
                daddr: csr as u64,
                dsize: 3,
                data: ((old as u128) << 64) | new.unwrap_or(old) as u128,
            });
            return 1;
        }
        // E-Trace data trace, dtype by AMO operation.
        let amo = match op.facts().atomic {
            Atomic::Amo(_, o) => Some(match o {
                AmoOp::Swap => 8,
                AmoOp::Add => 9,
                AmoOp::And => 10,
                AmoOp::Or => 11,
                AmoOp::Xor => 12,
                AmoOp::Max | AmoOp::Maxu => 13,
                AmoOp::Min | AmoOp::Minu => 14,
            }),
            _ => None,
        };
        if let Some(dtype) = amo {
            let ld = r.mem().iter().find(|m| m.kind == MemKind::Load);
            let st = r.mem().iter().find(|m| m.kind == MemKind::Store);
            if let (Some(ld), Some(st)) = (ld, st) {
                self.data.push(DataBeat {
                    dtype,
                    daddr: st.vaddr,
                    dsize: dsize(st.size),
                    data: ((ld.value as u128) << 64) | st.value as u128,
                });
                return 1;
            }
        }
        if r.sc_failed {
            self.data.push(DataBeat {
                dtype: 15,
                daddr: r.sc_addr,
                dsize: dsize(op.facts().atomic.size()),
                data: 0,
            });
            return 1;
        }
        for m in r.mem() {
            self.data.push(DataBeat {
                dtype: if m.kind == MemKind::Load { 0 } else { 1 },
                daddr: m.vaddr,
                dsize: dsize(m.size),
                data: m.value as u128,
            });
            n += 1;
        }
        n
    }
}

impl<B: BeatSink, const DATA: bool> Sink for IngressPort<B, DATA> {
    const DETAIL: Detail = if DATA { Detail::Records } else { Detail::Runs };

    fn retire(&mut self, r: &Retired) {
        if r.exception.is_some() {
            // Reported by `trap` (ecall/ebreak included: they retire there).
            return;
        }
        let ndata = if self.cfg.data { self.data_of(r) } else { 0 };
        let contiguous = r.next_pc == r.pc.wrapping_add(r.insn.len as u64);
        self.next_pc = r.next_pc;
        self.retire_insn(r.pc, &r.insn, contiguous, r.prv, r.time, None, ndata);
        if let Some(w) = r.writes().iter().find(|w| w.reg == Reg::Csr(SATP)) {
            self.see_satp(w.value);
        }
    }

    #[inline]
    fn run(&mut self, r: &Run) {
        self.see_satp(r.satp);
        self.time = r.time;
        self.next_pc = r.next_pc;
        let n = r.insns.len();
        if self.per_insn {
            self.run_each(r);
            return;
        }
        let prev_const = prev_const_of(r.insns);
        let bytes = r.bytes();
        let contiguous = r.next_pc == r.pc.wrapping_add(bytes as u64);
        self.run_summary(r.pc, contiguous, &r.insns[n - 1], bytes, prev_const, r.prv);
    }

    fn trap(&mut self, t: &TrapRecord) {
        self.see_trap(t);
    }

    fn trigger(&mut self, bits: u8) {
        self.pulse |= bits;
    }
}

// ----------------------------------------------------------------------------------------
// The port on another thread.
//
// Building beats costs the hart's thread as much as executing the instructions. With
// [`Capture`] the hart's thread only records each run in a few words ([`PortEvent`]) and hands
// batches of them to an [`EventSink`], which runs the [`IngressPort`] (and whatever it feeds)
// elsewhere through [`IngressPort::replay`]. The beats are the same as with the port in line.

/// An `ecall` that reaches the port as a retirement, not a trap, was served by firmware the
/// hart does not run (the built-in SBI, `crate::sbi`). On hardware it is an exception into
/// M-mode, whose code trace would show or filter out before execution resumes: the port
/// reports it as the exception it is (itype 1, the ecall's cause, tval 0), the ecall retiring
/// as the errata say, and the next beat starting where the call returned.
fn firmware_call(prv: Priv) -> (Itype, u64, u64) {
    let e = match prv {
        Priv::U => Exception::EcallFromU,
        Priv::S => Exception::EcallFromS,
        _ => Exception::EcallFromM,
    };
    (Itype::Exception, Cause::Exception(e).xcause(), 0)
}

/// `prev_const` of a one-instruction run: the port's own record of the instruction before
/// applies.
pub const PREV_UNKNOWN: u8 = 0xff;

/// What a run's `prev_const` is ([`PortEvent`]): the register the instruction before the last
/// set to a constant, when the last is a `jalr` (only a jalr looks at it: sijump); 0 for none;
/// [`PREV_UNKNOWN`] for a one-instruction run.
fn prev_const_of(run: &[Insn]) -> u8 {
    match run {
        [] | [_] => PREV_UNKNOWN,
        [.., before, last] if last.op.flow() == Flow::IndirectJump => {
            classify::sets_constant(before).unwrap_or(0)
        }
        _ => 0,
    }
}

/// In [`IngressPort::fast_itype`]: the operation needs the general path.
const SLOW: u8 = 0xff;
/// In [`IngressPort::fast_itype`]: a jump ([`IngressPort::jump_itype`]). Itype codes are less.
const JUMP: u8 = 0xfe;

/// Whether the port needs every instruction of a run, not only its summary: with single
/// retirement, and with blocks smaller than a page (a run can then fill more than a beat).
pub fn per_insn(cfg: &IngressConfig) -> bool {
    match cfg.retirement {
        Retirement::Single => true,
        Retirement::Block { max_halfwords } => max_halfwords < 2048,
    }
}

/// What the hart reports to a port that runs elsewhere, packed in two words (the hart writes
/// one per run, so its size and the number of stores are the cost: the hart's thread spends
/// most of its capture time on the stores of a batch's cache lines):
///
/// - word 0: [`PortEvent::RUN`]: the first instruction's pc; `TIME`, `SATP`: the new value;
///   `TRIGGER`: the trigger sideband bits; `END`: where the hart goes next;
/// - word 1: bits 7:0 the kind; then for `RUN`: bits 15:8 the last instruction's operation,
///   20:16 its rd, 25:21 its rs1, 31:26 the register the instruction before the last set to
///   a constant (0 none, 63 when the run has one instruction: [`PREV_UNKNOWN`]), bit 32 the
///   last instruction is 4 bytes long, 55:33 the run's length in bytes, 58:56 the
///   privilege, bit 59 the next instruction follows the run in memory.
///
/// Bits 55:8 of word 1 of a run through a whole decoded block are its end marker's bytes 1
/// to 6 (see `mark_block_end`): the hart copies them and adds the privilege and bit 59. The
/// pc after a run is not recorded: the port needs only bit 59, and the last one (`END`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortEvent([u64; 2]);

/// [`PortEvent`]'s word 1 of a run: field positions.
const EV_RD: u32 = 16;
const EV_RS1: u32 = 21;
const EV_PREV: u32 = 26;
const EV_LEN4: u32 = 32;
const EV_BYTES: u32 = 33;
const EV_PRV: u32 = 56;
const EV_CONTIGUOUS: u32 = 59;
/// The bits of word 1 that a block's end marker carries (its bytes 1 to 6).
const EV_MARKED: u64 = ((1 << EV_PRV) - 1) & !0xff;
/// [`PREV_UNKNOWN`] in the event's 6 bits.
const EV_PREV_UNKNOWN: u64 = 63;

impl PortEvent {
    /// Straight-line instructions (the kind byte of an end marker: [`Op::NotDecoded`]).
    pub const RUN: u8 = 0;
    /// The batch's next trap record.
    pub const TRAP: u8 = 1;
    /// mtime changed.
    pub const TIME: u8 = 2;
    /// satp changed.
    pub const SATP: u8 = 3;
    /// Trigger sideband bits for the next instruction (word 0).
    pub const TRIGGER: u8 = 4;
    /// The capture ended with the hart about to execute the instruction at word 0.
    pub const END: u8 = 5;

    const EMPTY: PortEvent = PortEvent([0; 2]);

    #[inline(always)]
    fn value(kind: u8, v: u64) -> PortEvent {
        PortEvent([v, kind as u64])
    }

    /// Word 1 of a run of `bytes` ending with `last`, without the privilege and bit 59.
    #[inline(always)]
    fn run_word(bytes: u32, last: &Insn, prev_const: u8) -> u64 {
        let prev = match prev_const {
            PREV_UNKNOWN => EV_PREV_UNKNOWN,
            r => (r & 31) as u64,
        };
        // A run never leaves its page.
        debug_assert!(bytes as u64 <= EV_MARKED >> EV_BYTES);
        (last.op as u64) << 8
            | ((last.rd & 31) as u64) << EV_RD
            | ((last.rs1 & 31) as u64) << EV_RS1
            | prev << EV_PREV
            | ((last.len == 4) as u64) << EV_LEN4
            | (bytes as u64 & (EV_MARKED >> EV_BYTES)) << EV_BYTES
    }

    /// Word 1's privilege and bit 59 for a run from `pc` of `bytes` followed by `next_pc`.
    #[inline(always)]
    fn prv_and_next(pc: u64, bytes: u64, next_pc: u64, prv: Priv) -> u64 {
        let contiguous = next_pc == pc.wrapping_add(bytes);
        (prv as u64) << EV_PRV | (contiguous as u64) << EV_CONTIGUOUS
    }

    #[inline(always)]
    fn run(pc: u64, next_pc: u64, bytes: u32, last: &Insn, prev_const: u8, prv: Priv) -> Self {
        let w = Self::run_word(bytes, last, prev_const);
        PortEvent([pc, w | Self::prv_and_next(pc, bytes as u64, next_pc, prv)])
    }

    /// A run through a whole block, from its end marker (whose `imm` is the block's length).
    #[inline(always)]
    fn block(pc: u64, next_pc: u64, end: &Insn, prv: Priv) -> Self {
        let m = end.packed();
        let bytes = (m >> 64) as u32 as u64;
        PortEvent([
            pc,
            (m as u64 & EV_MARKED) | Self::prv_and_next(pc, bytes, next_pc, prv),
        ])
    }

    #[inline]
    pub fn kind(&self) -> u8 {
        self.0[1] as u8
    }

    #[inline]
    pub fn pc(&self) -> u64 {
        self.0[0]
    }

    /// The next instruction follows the run in memory.
    #[inline]
    pub fn contiguous(&self) -> bool {
        (self.0[1] >> EV_CONTIGUOUS) & 1 != 0
    }

    #[inline]
    pub fn bytes(&self) -> u32 {
        ((self.0[1] & EV_MARKED) >> EV_BYTES) as u32
    }

    #[inline]
    pub fn prev_const(&self) -> u8 {
        match (self.0[1] >> EV_PREV) & 63 {
            EV_PREV_UNKNOWN => PREV_UNKNOWN,
            r => r as u8,
        }
    }

    #[inline]
    pub fn prv(&self) -> Priv {
        Priv::from_u8((self.0[1] >> EV_PRV) as u8 & 7).unwrap_or(Priv::M)
    }

    /// The last instruction's operation code.
    #[inline]
    pub fn op(&self) -> u8 {
        (self.0[1] >> 8) as u8
    }

    /// The last instruction's length in bytes.
    #[inline]
    pub fn last_len(&self) -> u8 {
        2 << ((self.0[1] >> EV_LEN4) & 1)
    }

    /// The last instruction, as much of it as the port needs.
    pub fn last(&self) -> Insn {
        let w = self.0[1];
        Insn {
            op: Op::from_u8(self.op()).unwrap_or(Op::NotDecoded),
            rd: (w >> EV_RD) as u8 & 31,
            rs1: (w >> EV_RS1) as u8 & 31,
            len: self.last_len(),
            ..Insn::NOT_DECODED
        }
    }
}

/// Record in a decoded block's end marker (made by [`Insn::block_end`]) what a [`PortEvent`]
/// of a run through the whole block says of it: bits 55:8 of the event's word 1 (see
/// [`PortEvent`]) go to the marker's bytes 1 to 6 (`rd`, `rs1`, `rs2`, `off`, `rm`, `len`),
/// where [`PortEvent::block`] takes them with one load; `op` stays [`Op::NotDecoded`] (the
/// event's kind [`PortEvent::RUN`]); `wd`, `imm` (the block's length in bytes) and `bits`
/// keep their meaning.
pub(crate) fn mark_block_end(end: &mut Insn, block: &[Insn]) {
    let Some(last) = block.last() else { return };
    let w = PortEvent::run_word(end.imm as u32, last, prev_const_of(block)).to_le_bytes();
    (end.rd, end.rs1, end.rs2, end.off, end.rm, end.len) = (w[1], w[2], w[3], w[4], w[5], w[6]);
}

/// Events per batch (512 KiB). Handing a batch to the port's thread wakes it, which costs more
/// than the cache misses of a batch larger than the cache: 2,048 events ran slower than 8,192,
/// and 8,192 than 32,768 (`hookprof`-style hand-over with an idle consumer, best of 15).
pub const EVENT_BATCH: usize = 32768;

/// Events in the order the hart produced them, and the trap records they refer to. The
/// events are a fixed array filled from the start (the hart's store is then one bounds test
/// against a constant).
pub struct PortBatch {
    events: Box<[PortEvent; EVENT_BATCH]>,
    len: usize,
    pub traps: Vec<TrapRecord>,
}

impl Default for PortBatch {
    fn default() -> Self {
        let events: Box<[PortEvent]> = vec![PortEvent::EMPTY; EVENT_BATCH].into_boxed_slice();
        PortBatch {
            events: events.try_into().unwrap_or_else(|_| unreachable!()),
            len: 0,
            traps: Vec::new(),
        }
    }
}

impl PortBatch {
    /// The events recorded.
    #[inline]
    pub fn events(&self) -> &[PortEvent] {
        &self.events[..self.len]
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn clear(&mut self) {
        self.len = 0;
        self.traps.clear();
    }

    /// Write to every page of the events, so that the hart filling the batch takes no page
    /// faults (a new batch's memory is mapped on first write).
    pub fn prefault(&mut self) {
        const PER_PAGE: usize = 4096 / std::mem::size_of::<PortEvent>();
        for e in self.events.iter_mut().step_by(PER_PAGE) {
            // SAFETY: `e` is a valid, aligned reference. (Volatile: the allocator's zeroed
            // memory already holds EMPTY, and a plain store of it could be dropped.)
            unsafe { std::ptr::write_volatile(e, PortEvent::EMPTY) };
        }
    }
}

/// Takes full batches from a [`Capture`]: it must leave `batch` empty (swapping in an empty
/// one is the cheap way).
pub trait EventSink {
    fn events(&mut self, batch: &mut PortBatch);
}

/// The hart's side of a port on another thread: a `RUNS` sink that records events.
pub struct Capture<E: EventSink> {
    out: E,
    batch: PortBatch,
    time: u64,
    satp: u64,
    per_insn: bool,
    /// Where the hart goes after the last run or trap ([`PortEvent::END`]).
    next_pc: u64,
}

impl<E: EventSink> Capture<E> {
    /// Capture for a port configured with `cfg`, on a hart whose CSRs are `csr` now.
    pub fn new(cfg: &IngressConfig, out: E, csr: &Csrs) -> Self {
        Capture {
            out,
            batch: PortBatch::default(),
            time: u64::MAX,
            satp: csr.satp,
            per_insn: per_insn(cfg),
            next_pc: 0,
        }
    }

    /// Hand over what is left, with where the hart goes next; returns the event sink.
    pub fn finish(mut self) -> E {
        self.push(PortEvent::value(PortEvent::END, self.next_pc));
        if !self.batch.is_empty() {
            self.out.events(&mut self.batch);
        }
        self.out
    }

    /// Record `e`; hand the batch over when it is full.
    #[inline(always)]
    fn push(&mut self, e: PortEvent) {
        let b = &mut self.batch;
        if let Some(slot) = b.events.get_mut(b.len) {
            *slot = e;
            b.len += 1;
        }
        if b.len == EVENT_BATCH {
            self.hand_over();
        }
    }

    #[cold]
    #[inline(never)]
    fn hand_over(&mut self) {
        self.out.events(&mut self.batch);
    }

    /// Record mtime's and satp's values where they changed since the last event.
    #[inline(always)]
    fn see(&mut self, time: u64, satp: u64) {
        if time != self.time {
            self.time = time;
            self.push(PortEvent::value(PortEvent::TIME, time));
        }
        if satp != self.satp {
            self.satp = satp;
            self.push(PortEvent::value(PortEvent::SATP, satp));
        }
    }
}

impl<E: EventSink> Sink for Capture<E> {
    const DETAIL: Detail = Detail::Runs;

    fn retire(&mut self, _: &Retired) {}

    #[inline(always)]
    fn run(&mut self, r: &Run) {
        self.next_pc = r.next_pc;
        self.see(r.time, r.satp);
        if self.per_insn {
            let (n, mut pc) = (r.insns.len(), r.pc);
            for (i, d) in r.insns.iter().enumerate() {
                let next_pc = if i + 1 == n {
                    r.next_pc
                } else {
                    pc.wrapping_add(d.len as u64)
                };
                let len = d.len as u32;
                self.push(PortEvent::run(pc, next_pc, len, d, PREV_UNKNOWN, r.prv));
                pc = next_pc;
            }
        } else if let Some(end) = r.whole_block() {
            self.push(PortEvent::block(r.pc, r.next_pc, end, r.prv));
        } else if let Some(last) = r.insns.last() {
            let (bytes, prev_const) = (r.bytes(), prev_const_of(r.insns));
            let e = PortEvent::run(r.pc, r.next_pc, bytes, last, prev_const, r.prv);
            self.push(e);
        }
    }

    /// Whole blocks, one event each, in one loop: mtime and satp are the same for all. Out of
    /// line, as a chain's blocks are many: the loop gets the registers to itself.
    #[inline(never)]
    fn blocks(&mut self, b: &Blocks) {
        if self.per_insn {
            b.for_each_run(|r| self.run(r));
            return;
        }
        self.see(b.time, b.satp);
        let prv = b.prv;
        // The batch's length and the last pc in locals, which the stores of events cannot
        // change.
        let (mut len, mut next) = (self.batch.len, self.next_pc);
        b.for_each_block(|pc, next_pc, end| {
            self.batch.events[len] = PortEvent::block(pc, next_pc, end, prv);
            len += 1;
            if len == EVENT_BATCH {
                self.batch.len = len;
                self.hand_over();
                len = self.batch.len;
            }
            next = next_pc;
        });
        (self.batch.len, self.next_pc) = (len, next);
    }

    fn trap(&mut self, t: &TrapRecord) {
        if t.time != self.time {
            self.time = t.time;
            self.push(PortEvent::value(PortEvent::TIME, t.time));
        }
        self.batch.traps.push(t.clone());
        self.push(PortEvent::value(PortEvent::TRAP, 0));
        self.next_pc = t.handler;
    }

    fn trigger(&mut self, bits: u8) {
        self.push(PortEvent::value(PortEvent::TRIGGER, bits as u64));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode;
    use crate::record::RegWrite;

    /// Collects beats: in batches, or one at a time (`ONE`, [`BeatSink::one_by_one`]).
    #[derive(Default)]
    struct Beats<const ONE: bool>(Vec<Beat>);

    impl<const ONE: bool> BeatSink for Beats<ONE> {
        fn beats(&mut self, beats: &[Beat], _: &[DataBeat]) {
            self.0.extend_from_slice(beats);
        }
        fn finish(&mut self, _: u64, _: u8) -> std::io::Result<()> {
            Ok(())
        }
        fn one_by_one(&self) -> bool {
            ONE
        }
        fn beat(&mut self, b: &Beat) {
            self.0.push(*b);
        }
    }

    /// The default port, retiring one instruction per beat (`single`) or as by default.
    fn retiring(single: bool) -> IngressConfig {
        IngressConfig {
            retirement: if single {
                Retirement::Single
            } else {
                IngressConfig::default().retirement
            },
            ..IngressConfig::default()
        }
    }

    fn breakpoint(insn: Option<Insn>, trigger: bool) -> TrapRecord {
        let w = RegWrite {
            reg: Reg::X(0),
            value: 0,
        };
        TrapRecord {
            cause: Cause::Exception(Exception::Breakpoint),
            tval: 0x8000_0010,
            epc: 0x8000_0010,
            from: Priv::M,
            to: Priv::M,
            handler: 0x8000_0100,
            writes: [w; 4],
            insn,
            time: 0,
            trigger,
        }
    }

    /// A debug trigger's breakpoint retires nothing, even when it matched the bits of an
    /// ebreak after its fetch (the trap record then holds the ebreak): a beat of its own with
    /// iretire 0 at the instruction (single retirement), or the exception on the open block
    /// (multiple), never an ebreak retired. An ebreak's own breakpoint retires it.
    #[test]
    fn trigger_breakpoint_retires_nothing() {
        let ebreak = decode(0x0010_0073);
        let addi = decode(0x0000_0013);
        for single in [true, false] {
            for (insn, trigger, retired) in [
                (Some(ebreak), true, false),
                (None, true, false),
                (Some(addi), true, false),
                (Some(ebreak), false, true),
            ] {
                let cfg = retiring(single);
                let mut p =
                    IngressPort::<_, false>::new(cfg, Beats::<false>::default(), &Csrs::default());
                p.retire_insn(0x8000_000c, &addi, true, Priv::M, 0, None, 0);
                p.see_trap(&breakpoint(insn, trigger));
                let beats = p.finish().unwrap().0;
                let hw: u64 = beats.iter().map(|b| b.halfwords(single)).sum();
                let what = format!("single {single}, {insn:?}, trigger {trigger}");
                assert_eq!(hw, if retired { 4 } else { 2 }, "{what}: {beats:?}");
                let last = beats.last().unwrap();
                assert_eq!(
                    (last.itype, last.cause, last.tval),
                    (1, 3, 0x8000_0010),
                    "{what}"
                );
                if single && !retired {
                    assert_eq!((last.iretire, last.iaddr), (0, 0x8000_0010), "{what}");
                }
            }
        }
    }

    /// Retirements, traps, trigger pulses and context changes, the same for any sink; the
    /// port's beats at the end.
    fn drive<B: BeatSink>(mut p: IngressPort<B, false>) -> (u64, B) {
        let (addi, beq) = (decode(0x0000_0013), decode(0x00b5_0463));
        let mut pc = 0x8000_0000u64;
        for i in 0..3 * BATCH as u64 {
            if i % 7 == 0 {
                p.trigger(TRIGGER_NOTIFY);
            }
            if i % 13 == 0 {
                p.see_satp((i / 13 % 3) << 44);
            }
            if i % 11 == 0 {
                p.see_trap(&breakpoint(None, true));
                pc = 0x8000_0100;
            }
            if i % 3 == 0 {
                p.retire_insn(pc, &beq, false, Priv::M, i / 64, None, 0);
                pc = 0x8000_0000 + (i % 5) * 4;
            } else {
                p.retire_insn(pc, &addi, true, Priv::M, i / 64, None, 0);
                pc += 4;
            }
        }
        p.close();
        let count = p.count;
        (count, p.finish().unwrap())
    }

    /// A sink that takes each beat as it is finished gets the beats a sink of batches gets,
    /// in the same order, under both retirements.
    #[test]
    fn beats_one_by_one_as_in_batches() {
        for single in [true, false] {
            let cfg = retiring(single);
            let csr = Csrs::default();
            let batched =
                IngressPort::<_, false>::new(cfg.clone(), Beats::<false>::default(), &csr);
            let direct = IngressPort::<_, false>::new(cfg, Beats::<true>::default(), &csr);
            assert!(direct.one_by_one && !batched.one_by_one);
            let (n1, a) = drive(batched);
            let (n2, b) = drive(direct);
            assert_eq!(n1, n2);
            assert_eq!(a.0.len() as u64, n1, "single {single}");
            assert!(a.0.len() > BATCH, "single {single}: {} beats", a.0.len());
            assert!(a.0 == b.0, "single {single}");
        }
    }

    /// A block's end marker gives the event the block's instructions give, and the event
    /// gives back every field of it.
    #[test]
    fn run_events_from_end_markers() {
        // lui a0; addi a0; jalr ra, a0 / c.addi; beq / j / c.nop; c.nop; c.jr ra.
        let blocks: [&[u32]; 4] = [
            &[0x0000_0537, 0x0105_0513, 0x0005_00e7],
            &[0x0505, 0x00b5_0463],
            &[0x0000_006f],
            &[0x0001, 0x0001, 0x8082],
        ];
        for words in blocks {
            let block: Vec<Insn> = words.iter().map(|&w| decode(w)).collect();
            let bytes: u32 = block.iter().map(|d| d.len as u32).sum();
            let mut end = Insn::block_end(bytes);
            mark_block_end(&mut end, &block);
            assert_eq!((end.op, end.imm), (Op::NotDecoded, bytes as i32));
            let last = block.last().unwrap();
            let prev_const = prev_const_of(&block);
            for prv in [Priv::U, Priv::S, Priv::M] {
                let (pc, next) = (0x8000_1000, 0x8000_2000);
                let e = PortEvent::block(pc, next, &end, prv);
                let built = PortEvent::run(pc, next, bytes, last, prev_const, prv);
                assert_eq!(e.kind(), PortEvent::RUN);
                assert_eq!((e.pc(), e.contiguous(), e.prv()), (pc, false, prv));
                assert_eq!(e.bytes(), bytes);
                assert_eq!(e.prev_const(), prev_const);
                let fall = PortEvent::block(pc, pc + bytes as u64, &end, prv);
                assert!(fall.contiguous());
                assert_eq!(fall.0[1], e.0[1] | 1 << EV_CONTIGUOUS);
                for e in [e, built] {
                    assert_eq!(e.0, built.0);
                    let l = e.last();
                    assert_eq!(
                        (l.op, l.rd, l.rs1, l.len),
                        (last.op, last.rd, last.rs1, last.len)
                    );
                }
            }
        }
        // The prev_const of a jalr after lui a0.
        let mut end = Insn::block_end(8);
        mark_block_end(&mut end, &[decode(0x0000_0537), decode(0x0005_00e7)]);
        assert_eq!(PortEvent::block(0, 0, &end, Priv::M).prev_const(), 10);
    }
}
