//! The N-Trace encoder: ingress beats in, MSEO/MDO bytes out (N-Trace chapters 7-10), with
//! every choice the specification leaves open fixed as `docs/ntrace.md` describes.
//!
//! [`Encoder`] is the state machine; [`EncoderThread`] runs one on its own thread behind a
//! bounded channel, fed with batches of beats by the hart's ingress port.
//!
//! The encoder works at beat granularity. An event that needs a target address (an
//! uninferable jump, a trap, an xRET) becomes *pending* and is completed by the next beat,
//! whose first instruction is the target. I-CNT counts half-words; the optional parts
//! (implicit return, sequential jumps, repeated history, RepeatBranch, timestamps, Ownership,
//! SRC, filters and triggers, periodic sync, the output FIFO) are each a few lines below,
//! switched by [`EncoderConfig`], whose fields carry the trace-control names.

use crate::msg::process::{FORMAT_PRIVILEGE, FORMAT_SCONTEXT};
use crate::msg::{self, btype, evcode, rcode, Body, Format, Message};
use arch::Itype;
use iss::ingress::{Beat, BeatSink, DataBeat, Retirement, TRIGGER_NOTIFY, TRIGGER_OFF, TRIGGER_ON};
use iss::stage::{Inbox, Stage};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::io::{self, Write};

/// The trace modes and SYNC codes, here where the encoder's users have always found them;
/// their home is [`msg`] with the other codes.
pub use crate::msg::{sync, BTM, HTM};

pub use iss::trace_control::{Filter, TraceControl};

/// The encoder's configuration: the trace-control settings ([`TraceControl`], named as the
/// RISC-V Trace Control Interface and N-Trace name them), plus the model's own parameters.
///
/// As a file (`--ntrace-config`, the sidecar `hartscope run --ntrace FILE` writes as
/// FILE.json) it is one flat table of both, in the order [`EncoderConfigFile`] gives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "EncoderConfigFile", into = "EncoderConfigFile")]
pub struct EncoderConfig {
    /// The trace-control settings.
    pub control: TraceControl,
    /// Depth of the return-address stack (1..=32).
    pub implicit_return_depth: u8,
    /// Low address bits compared in implicit-return mode 2.
    pub partial_bits: u8,
    /// I-CNT counter width, including the overflow MSB (at most 22).
    pub icnt_bits: u8,
    /// HIST width, including the stop bit (at most 32).
    pub hist_bits: u8,
    /// Output FIFO size in bytes (without stall).
    pub fifo_bytes: u32,
    /// FIFO drain rate: bytes per 1000 half-words retired.
    pub drain_per_khw: u32,
    /// How the hart retires (the ingress port's `retires_p`).
    pub retirement: Retirement,
}

/// [`EncoderConfig`] as a settings file holds it: one flat table, its fields in this order
/// (what `hartscope run --ntrace` has always written; missing fields take their defaults,
/// unknown ones are errors).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EncoderConfigFile {
    pub tr_te_inst_mode: u8,
    pub tr_te_context: bool,
    pub tr_te_inhibit_src: bool,
    pub tr_te_src_id: u16,
    pub tr_te_src_bits: u8,
    pub tr_te_inst_sync_mode: u8,
    pub tr_te_inst_sync_max: u8,
    pub tr_te_inst_en_all_jumps: bool,
    pub tr_te_inst_en_sequential_jump: bool,
    pub tr_te_inst_implicit_return_mode: u8,
    pub implicit_return_depth: u8,
    pub partial_bits: u8,
    pub tr_te_inst_en_repeated_history: bool,
    pub tr_te_inst_en_repeat_branch: bool,
    pub tr_te_inst_extend_addr_msb: bool,
    pub tr_ts_enable: bool,
    pub tr_te_inst_stall_ena: bool,
    pub icnt_bits: u8,
    pub hist_bits: u8,
    pub filter: Option<Filter>,
    pub trace_on: Option<u64>,
    pub trace_off: Option<u64>,
    pub fifo_bytes: u32,
    pub drain_per_khw: u32,
    pub retirement: Retirement,
}

impl Default for EncoderConfigFile {
    fn default() -> Self {
        EncoderConfig::default().into()
    }
}

impl From<EncoderConfigFile> for EncoderConfig {
    fn from(f: EncoderConfigFile) -> Self {
        EncoderConfig {
            control: TraceControl {
                tr_te_inst_mode: f.tr_te_inst_mode,
                tr_te_context: f.tr_te_context,
                tr_te_inhibit_src: f.tr_te_inhibit_src,
                tr_te_src_id: f.tr_te_src_id,
                tr_te_src_bits: f.tr_te_src_bits,
                tr_te_inst_sync_mode: f.tr_te_inst_sync_mode,
                tr_te_inst_sync_max: f.tr_te_inst_sync_max,
                tr_te_inst_en_all_jumps: f.tr_te_inst_en_all_jumps,
                tr_te_inst_en_sequential_jump: f.tr_te_inst_en_sequential_jump,
                tr_te_inst_implicit_return_mode: f.tr_te_inst_implicit_return_mode,
                tr_te_inst_en_repeated_history: f.tr_te_inst_en_repeated_history,
                tr_te_inst_en_repeat_branch: f.tr_te_inst_en_repeat_branch,
                tr_te_inst_extend_addr_msb: f.tr_te_inst_extend_addr_msb,
                tr_ts_enable: f.tr_ts_enable,
                tr_te_inst_stall_ena: f.tr_te_inst_stall_ena,
                filter: f.filter,
                trace_on: f.trace_on,
                trace_off: f.trace_off,
            },
            implicit_return_depth: f.implicit_return_depth,
            partial_bits: f.partial_bits,
            icnt_bits: f.icnt_bits,
            hist_bits: f.hist_bits,
            fifo_bytes: f.fifo_bytes,
            drain_per_khw: f.drain_per_khw,
            retirement: f.retirement,
        }
    }
}

impl From<EncoderConfig> for EncoderConfigFile {
    fn from(c: EncoderConfig) -> Self {
        let t = c.control;
        EncoderConfigFile {
            tr_te_inst_mode: t.tr_te_inst_mode,
            tr_te_context: t.tr_te_context,
            tr_te_inhibit_src: t.tr_te_inhibit_src,
            tr_te_src_id: t.tr_te_src_id,
            tr_te_src_bits: t.tr_te_src_bits,
            tr_te_inst_sync_mode: t.tr_te_inst_sync_mode,
            tr_te_inst_sync_max: t.tr_te_inst_sync_max,
            tr_te_inst_en_all_jumps: t.tr_te_inst_en_all_jumps,
            tr_te_inst_en_sequential_jump: t.tr_te_inst_en_sequential_jump,
            tr_te_inst_implicit_return_mode: t.tr_te_inst_implicit_return_mode,
            implicit_return_depth: c.implicit_return_depth,
            partial_bits: c.partial_bits,
            tr_te_inst_en_repeated_history: t.tr_te_inst_en_repeated_history,
            tr_te_inst_en_repeat_branch: t.tr_te_inst_en_repeat_branch,
            tr_te_inst_extend_addr_msb: t.tr_te_inst_extend_addr_msb,
            tr_ts_enable: t.tr_ts_enable,
            tr_te_inst_stall_ena: t.tr_te_inst_stall_ena,
            icnt_bits: c.icnt_bits,
            hist_bits: c.hist_bits,
            filter: t.filter,
            trace_on: t.trace_on,
            trace_off: t.trace_off,
            fifo_bytes: c.fifo_bytes,
            drain_per_khw: c.drain_per_khw,
            retirement: c.retirement,
        }
    }
}

impl Default for EncoderConfig {
    fn default() -> Self {
        EncoderConfig {
            control: TraceControl::default(),
            implicit_return_depth: 32,
            partial_bits: 16,
            icnt_bits: 22,
            hist_bits: 32,
            fifo_bytes: 4096,
            drain_per_khw: 200,
            retirement: Retirement::Block {
                max_halfwords: 1 << 16,
            },
        }
    }
}

/// A configuration the encoder cannot implement, or an encoder that cannot start.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// A trace-control setting out of range or an impossible combination.
    #[error(transparent)]
    Control(#[from] iss::trace_control::ControlError),
    #[error("the implicit-return stack depth is 1..=32")]
    ImplicitReturnDepth(u8),
    #[error("partial_bits is 1..=63")]
    PartialBits(u8),
    #[error("icnt_bits is 4..=22")]
    IcntBits(u8),
    #[error("hist_bits is 3..=32")]
    HistBits(u8),
    /// The host could not start the encoder's thread.
    #[error("cannot start the encoder thread: {0}")]
    Thread(std::io::Error),
}

impl EncoderConfig {
    /// Check the configuration and apply the WARL rules (values out of range read back as the
    /// nearest legal one; impossible combinations are errors).
    pub fn legalize(&mut self) -> Result<(), ConfigError> {
        self.control.legalize()?;
        if !(1..=32).contains(&self.implicit_return_depth) {
            return Err(ConfigError::ImplicitReturnDepth(self.implicit_return_depth));
        }
        if !(1..=63).contains(&self.partial_bits) {
            return Err(ConfigError::PartialBits(self.partial_bits));
        }
        if !(4..=22).contains(&self.icnt_bits) {
            return Err(ConfigError::IcntBits(self.icnt_bits));
        }
        if !(3..=32).contains(&self.hist_bits) {
            return Err(ConfigError::HistBits(self.hist_bits));
        }
        self.control.check_combinations()?;
        if let Retirement::Block { max_halfwords } = &mut self.retirement {
            // A block must fit well inside I-CNT, which is reported at beat boundaries.
            *max_halfwords = (*max_halfwords).min(1 << (self.icnt_bits - 2)).max(2);
        }
        Ok(())
    }

    /// The byte format these settings give.
    pub fn format(&self) -> Format {
        Format::of(&self.control)
    }

    fn htm(&self) -> bool {
        self.control.htm()
    }
}

/// What the encoder produced.
#[derive(Clone, Debug, Default, Serialize)]
pub struct EncoderStats {
    /// Messages by TCODE.
    pub messages: std::collections::BTreeMap<u8, u64>,
    pub bytes: u64,
    /// Messages dropped because the output FIFO was full.
    pub dropped: u64,
    pub beats: u64,
    pub halfwords: u64,
}

impl EncoderStats {
    /// Add another encoder's statistics (encoders funnelled into one stream).
    pub fn add(&mut self, o: &EncoderStats) {
        for (t, n) in &o.messages {
            *self.messages.entry(*t).or_default() += n;
        }
        self.bytes += o.bytes;
        self.dropped += o.dropped;
        self.beats += o.beats;
        self.halfwords += o.halfwords;
    }
}

/// An event waiting for its target address (the next beat's first instruction).
#[derive(Clone, Copy, Debug)]
enum Pending {
    /// An uninferable jump, xRET or trap: an indirect-branch message with this B-TYPE.
    Indirect { btype: u8, time: u64 },
    /// A return or co-routine swap under implicit return: reported only if the target is not
    /// `predicted` (None: nothing was on the stack).
    Return {
        predicted: Option<u64>,
        counted: bool,
        time: u64,
    },
    /// A taken branch (BTM) that must go out as DirectBranchSync (a periodic sync is due).
    DirectSync { time: u64 },
}

/// The N-Trace encoder.
pub struct Encoder<W: Write> {
    cfg: EncoderConfig,
    fmt: Format,
    out: W,
    single: bool,
    /// The settings use none of the features a beat may need on its way (context and
    /// ownership, the trace-on/off addresses, the filter): see [`Encoder::beat`].
    plain: bool,
    /// `1 << (icnt_bits - 1)`: I-CNT at this overflows.
    icnt_limit: u64,
    /// The periodic sync's period ([`Encoder::sync_period`]).
    sync_period: u64,
    /// Bytes of encoded messages not yet written out.
    buf: Vec<u8>,
    started: bool,
    tracing: bool,
    icnt: u64,
    hist: u64,
    addr_ref: u64,
    pending: Option<Pending>,
    ts_last: u64,
    sync_count: u64,
    sync_due: bool,
    /// Return-address stack (newest last), or its depth in counter mode.
    stack: VecDeque<u64>,
    count: u32,
    /// A message carrying I-CNT, HIST or an address went out at this beat's boundary.
    window_broken: bool,
    /// RepeatBranch: the last repeatable message and how often it repeated since.
    last_branch: Option<Body>,
    bcnt: u64,
    bcnt_time: u64,
    /// Repeated history: the held chunk (with stop bit), its count and the time of the last.
    rh_chunk: Option<u64>,
    rh_count: u64,
    rh_time: u64,
    /// Ownership: what was reported last.
    prv_reported: Option<u8>,
    ctx: u64,
    /// FIFO level in thousandths of a byte, and lost-trace state.
    fifo_level: u64,
    lost: bool,
    lost_time: u64,
    /// The run has ended ([`Encoder::finish`]): nothing is dropped any more.
    ending: bool,
    /// Trigger state.
    trig_on: bool,
    /// The last beat's time (for messages not tied to an event).
    now: u64,
    /// What it produced so far, but for the messages by TCODE, which are in `tcodes` until
    /// [`Encoder::finish`] hands the statistics over.
    stats: EncoderStats,
    /// Messages sent, by TCODE (a 6-bit field): counted here once per message rather than
    /// in `stats.messages`' map.
    tcodes: [u64; 64],
    error: Option<io::Error>,
}

const HREPEAT_MAX: u64 = (1 << 32) - 1;
const BCNT_MAX: u64 = (1 << 32) - 1;

impl<W: Write> Encoder<W> {
    pub fn new(mut cfg: EncoderConfig, out: W) -> Result<Self, ConfigError> {
        cfg.legalize()?;
        let fmt = cfg.format();
        let single = cfg.retirement == Retirement::Single;
        let trig_on = cfg.control.trace_on.is_none();
        let c = &cfg.control;
        let plain =
            !c.tr_te_context && c.trace_on.is_none() && c.trace_off.is_none() && c.filter.is_none();
        let icnt_limit = 1u64 << (cfg.icnt_bits - 1);
        let sync_period = 1u64 << (c.tr_te_inst_sync_max as u32 + 4);
        Ok(Encoder {
            fmt,
            out,
            single,
            plain,
            icnt_limit,
            sync_period,
            buf: Vec::with_capacity(1 << 16),
            started: false,
            tracing: false,
            icnt: 0,
            hist: 1,
            addr_ref: 0,
            pending: None,
            ts_last: 0,
            sync_count: 0,
            sync_due: false,
            stack: VecDeque::with_capacity(cfg.implicit_return_depth as usize),
            count: 0,
            window_broken: false,
            last_branch: None,
            bcnt: 0,
            bcnt_time: 0,
            rh_chunk: None,
            rh_count: 0,
            rh_time: 0,
            prv_reported: None,
            ctx: 0,
            fifo_level: 0,
            lost: false,
            lost_time: 0,
            ending: false,
            trig_on,
            now: 0,
            stats: EncoderStats::default(),
            tcodes: [0; 64],
            error: None,
            cfg,
        })
    }

    pub fn config(&self) -> &EncoderConfig {
        &self.cfg
    }

    // ------------------------------------------------------------------------------------
    // Output.

    /// Emit a message: flush what must precede it, time-stamp, encode, and pass it through
    /// the output FIFO.
    fn emit(&mut self, body: Body, time: u64) {
        let repeatable = self.cfg.control.tr_te_inst_en_repeat_branch
            && matches!(
                body,
                Body::DirectBranch { .. } | Body::IndirectBranch { uaddr: 0, .. }
            );
        if repeatable && self.last_branch.as_ref() == Some(&body) && self.bcnt < BCNT_MAX {
            self.bcnt += 1;
            self.bcnt_time = time;
            self.after_message(&body);
            return;
        }
        self.flush_repeats();
        self.flush_history();
        self.last_branch = if repeatable { Some(body.clone()) } else { None };
        self.send(body, time);
    }

    /// Encode and output one message (no repeat handling).
    fn send(&mut self, body: Body, time: u64) {
        let is_sync = body.sync().is_some();
        // Relative to the last timestamp reported (N-Trace 8.7): a dropped message's is not.
        let tstamp = self.cfg.control.tr_ts_enable.then(|| {
            if is_sync {
                time
            } else {
                time.wrapping_sub(self.ts_last)
            }
        });
        let m = Message {
            src: self.cfg.control.tr_te_src_id,
            body,
            tstamp,
        };
        let start = self.buf.len();
        msg::encode(&m, &self.fmt, &mut self.buf);
        let len = (self.buf.len() - start) as u64;
        if self.ending && !self.lost {
            // The end of the run: the encoder waits for room (see `finish`).
            self.fifo_level = 0;
        } else if !self.cfg.control.tr_te_inst_stall_ena {
            let cap = self.cfg.fifo_bytes as u64 * 1000;
            if self.lost || self.fifo_level + len * 1000 > cap {
                self.buf.truncate(start);
                if !self.lost {
                    self.lost = true;
                    self.lost_time = time;
                }
                self.stats.dropped += 1;
                self.after_message(&m.body);
                return;
            }
            self.fifo_level += len * 1000;
        }
        if tstamp.is_some() {
            self.ts_last = time;
        }
        self.tcodes[(m.body.tcode() & 63) as usize] += 1;
        self.stats.bytes += len;
        self.after_message(&m.body);
        if self.buf.len() >= 1 << 16 {
            self.write_out();
        }
    }

    /// Book-keeping after a message went out (or was dropped, or counted as a repeat).
    fn after_message(&mut self, body: &Body) {
        if self.cfg.control.tr_te_inst_sync_mode == 1 {
            self.sync_count += 1;
            if self.sync_count >= self.sync_period() {
                self.sync_due = true;
            }
        }
        if !matches!(body, Body::Ownership { .. } | Body::Error { .. }) {
            self.window_broken = true;
        }
    }

    /// Write out the messages encoded so far (each whole), instead of when 64 KiB have
    /// gathered: encoders funnelled into one stream do so after each hart's turn, so that
    /// their messages interleave in the order they were produced.
    pub fn flush_messages(&mut self) {
        self.write_out();
    }

    fn write_out(&mut self) {
        if self.error.is_none() && !self.buf.is_empty() {
            if let Err(e) = self.out.write_all(&self.buf) {
                self.error = Some(e);
            }
        }
        self.buf.clear();
    }

    fn flush_repeats(&mut self) {
        if self.bcnt > 0 {
            let n = std::mem::take(&mut self.bcnt);
            let t = self.bcnt_time;
            self.send(Body::RepeatBranch { bcnt: n }, t);
        }
    }

    /// Send the held repeated-history chunk.
    fn flush_history(&mut self) {
        if let Some(chunk) = self.rh_chunk.take() {
            let n = std::mem::take(&mut self.rh_count);
            let t = self.rh_time;
            let body = if n == 1 {
                Body::ResourceFull {
                    rcode: rcode::HIST_OVERFLOW,
                    rdata: chunk,
                    hrepeat: None,
                }
            } else {
                Body::ResourceFull {
                    rcode: rcode::HIST_REPEAT,
                    rdata: chunk,
                    hrepeat: Some(n),
                }
            };
            self.send(body, t);
        }
    }

    fn sync_period(&self) -> u64 {
        self.sync_period
    }

    // ------------------------------------------------------------------------------------
    // State.

    /// A sync message went out with this code and F-ADDR.
    fn synced(&mut self, code: u8, faddr: u64) {
        self.icnt = 0;
        self.hist = 1;
        self.addr_ref = faddr;
        self.sync_count = 0;
        self.sync_due = false;
        if sync::resets(code) {
            self.stack.clear();
            self.count = 0;
            self.last_branch = None;
        }
    }

    /// Send a sync message (flushing held history first, as for any message) and Ownership
    /// after it.
    fn sync_message(&mut self, body: Body, code: u8, faddr: u64, prv: u8, time: u64) {
        self.emit(body, time);
        self.synced(code, faddr);
        if self.cfg.control.tr_te_context {
            self.ownership(FORMAT_SCONTEXT, prv, time);
        }
    }

    fn ownership(&mut self, format: u8, prv: u8, time: u64) {
        let prv2 = (prv & 3) as u64;
        let process = if format == FORMAT_SCONTEXT {
            (self.ctx << 5) | (prv2 << 2) | FORMAT_SCONTEXT as u64
        } else {
            (prv2 << 2) | format as u64
        };
        self.prv_reported = Some(prv);
        self.emit(Body::Ownership { process }, time);
    }

    /// In HTM, flush a non-empty HIST as ResourceFull RCODE 1 (before a message without HIST).
    fn flush_hist_field(&mut self, time: u64) {
        if self.cfg.htm() && self.hist != 1 {
            let h = std::mem::replace(&mut self.hist, 1);
            self.emit(
                Body::ResourceFull {
                    rcode: rcode::HIST_OVERFLOW,
                    rdata: h,
                    hrepeat: None,
                },
                time,
            );
        }
    }

    /// Add a HIST bit.
    #[inline]
    fn push_hist(&mut self, bit: u64, time: u64) {
        let w = self.cfg.hist_bits as u32;
        if self.hist >> (w - 1) != 0 {
            let full = std::mem::replace(&mut self.hist, 1);
            self.hist_full(full, time);
        }
        self.hist = (self.hist << 1) | bit;
    }

    /// The HIST register is full: send it, or (repeated history) hold it as a chunk.
    #[cold]
    #[inline(never)]
    fn hist_full(&mut self, h: u64, time: u64) {
        if !self.cfg.control.tr_te_inst_en_repeated_history {
            self.emit(
                Body::ResourceFull {
                    rcode: rcode::HIST_OVERFLOW,
                    rdata: h,
                    hrepeat: None,
                },
                time,
            );
            return;
        }
        let n = 63 - h.leading_zeros(); // payload bits
        let payload = h & ((1 << n) - 1);
        // Bits oldest first: bit i of the sequence is payload bit n-1-i.
        let bit = |i: u32| (payload >> (n - 1 - i)) & 1;
        let period = (1..=n / 2)
            .find(|&p| (0..n - p).all(|i| bit(i) == bit(i + p)))
            .unwrap_or(n);
        let take = (n / period) * period;
        let carry_bits = n - take;
        let chunk = (1u64 << take) | (payload >> carry_bits);
        let carry = payload & ((1u64 << carry_bits) - 1);
        self.hist = (1u64 << carry_bits) | carry;
        if self.rh_chunk == Some(chunk) && self.rh_count < HREPEAT_MAX {
            self.rh_count += 1;
            self.rh_time = time;
        } else {
            self.flush_repeats();
            self.flush_history();
            self.rh_chunk = Some(chunk);
            self.rh_count = 1;
            self.rh_time = time;
            self.window_broken = true;
        }
    }

    fn push_return(&mut self, addr: u64) {
        if self.cfg.control.tr_te_inst_implicit_return_mode == 0 {
            return;
        }
        let depth = self.cfg.implicit_return_depth as usize;
        if self.cfg.control.tr_te_inst_implicit_return_mode == 1 {
            self.count = (self.count + 1).min(depth as u32);
        }
        if self.stack.len() == depth {
            self.stack.pop_front();
        }
        self.stack.push_back(addr);
    }

    /// Pop for a return: the predicted address (None: nothing to predict with) and whether
    /// the counter (mode 1) had an entry.
    fn pop_return(&mut self) -> (Option<u64>, bool) {
        let counted = self.count > 0;
        if counted {
            self.count -= 1;
        }
        (self.stack.pop_back(), counted)
    }

    // ------------------------------------------------------------------------------------
    // Beats.

    /// Process one beat: each optional part of the encoder in its turn, in the order the
    /// beat's events happen (the pending target, lost trace, trace on or off, context, periodic
    /// sync, I-CNT, the block's last instruction, the trace-off trigger).
    #[inline(always)]
    pub fn beat(&mut self, b: &Beat) {
        let hw = b.halfwords(self.single);
        self.begin_beat(b, hw);
        // The pending event's target is this beat's first instruction.
        if let Some(p) = self.pending.take() {
            if self.tracing {
                self.complete(p, b.iaddr, b.prv);
            }
        }
        // The usual beat: settings without context, trace-on/off addresses or filter, no
        // trigger pulse or context change on the beat, tracing steadily (not lost, no sync
        // due). All the steps below but counting and the block's end then do nothing.
        if self.plain
            & ((b.trigger | b.ctype) == 0)
            & self.started
            & self.tracing
            & self.trig_on
            & !self.lost
            & !self.sync_due
        {
            self.count(b, hw);
            self.end_of_block(b, hw);
            return;
        }
        self.beat_rest(b, hw);
    }

    /// [`Encoder::beat`] after the pending event, for any beat.
    #[inline(never)]
    fn beat_rest(&mut self, b: &Beat, hw: u64) {
        if self.lost {
            self.recover_when_room(b);
        }
        if !self.filter_and_trigger(b, hw) {
            return;
        }
        if self.cfg.control.tr_te_context || b.ctype != 0 {
            self.context(b);
        }
        if self.sync_due {
            self.periodic_sync(b);
        }
        if b.trigger & TRIGGER_NOTIFY != 0 {
            self.trace_notify(b);
        }
        self.count(b, hw);
        self.end_of_block(b, hw);
        if self.cfg.control.trace_off.is_some() {
            self.trace_off_trigger(b, hw);
        }
        if b.trigger & TRIGGER_OFF != 0 {
            self.trace_off_pulse(b);
        }
    }

    /// The ingress port's trace-notify pulse (a debug trigger's action 4) on a beat: the
    /// beat holds the instruction that caused it alone. ProgTraceSync SYNC 6 (Trace Event, a
    /// marker: the encoder state is not reset), its I-CNT the half-words retired before the
    /// instruction, its F-ADDR the instruction's address; HIST held in HTM goes out first
    /// (ResourceFull), as before any message without HIST.
    #[cold]
    #[inline(never)]
    fn trace_notify(&mut self, b: &Beat) {
        self.flush_hist_field(b.time);
        let icnt = std::mem::take(&mut self.icnt);
        self.emit(
            Body::ProgTraceSync {
                sync: sync::TRACE_EVENT,
                icnt,
                faddr: b.iaddr >> 1,
            },
            b.time,
        );
        self.synced(sync::TRACE_EVENT, b.iaddr);
    }

    /// The ingress port's trace-off pulse (a debug trigger's action 3): trace stops after
    /// the beat, as with the trace-off trigger address, until a trace-on pulse.
    #[cold]
    #[inline(never)]
    fn trace_off_pulse(&mut self, b: &Beat) {
        self.trig_on = false;
        self.pending = None;
        if self.tracing {
            self.stop(evcode::TRACE_DISABLED, b.time);
        }
    }

    /// The beat's statistics and time, and the output FIFO draining as the hart retires (the
    /// FIFO: only without stall).
    #[inline(always)]
    fn begin_beat(&mut self, b: &Beat, hw: u64) {
        self.stats.beats += 1;
        self.stats.halfwords += hw;
        self.now = b.time;
        self.window_broken = false;
        if !self.cfg.control.tr_te_inst_stall_ena {
            self.fifo_level = self
                .fifo_level
                .saturating_sub(self.cfg.drain_per_khw as u64 * hw);
        }
    }

    /// Lost trace (the FIFO): recover as soon as there is room for Error and a sync.
    #[cold]
    #[inline(never)]
    fn recover_when_room(&mut self, b: &Beat) {
        if self.fifo_level + 64 * 1000 <= self.cfg.fifo_bytes as u64 * 1000 {
            self.recover(b.iaddr, b.prv, b.time);
        }
    }

    /// Filters and triggers (trTeInstFilters, trTeInstTrigEnable): start or stop tracing at
    /// this beat. The first beat starts the trace (SYNC 3) or reports it disabled (EVCODE 4).
    /// Returns whether the beat is traced.
    #[inline(always)]
    fn filter_and_trigger(&mut self, b: &Beat, hw: u64) -> bool {
        if let Some(on) = self.cfg.control.trace_on {
            if !self.trig_on && contains(b, hw, on) {
                self.trig_on = true;
            }
        }
        // The ingress port's trace-on pulse (a debug trigger's action 2): trace starts with
        // this beat (SYNC 5 after a gap).
        if b.trigger & TRIGGER_ON != 0 {
            self.trig_on = true;
        }
        let want = self.trig_on
            && self
                .cfg
                .control
                .filter
                .is_none_or(|f| f.matches(b.iaddr, b.prv));
        if !self.started {
            self.started = true;
            self.ctx = b.context;
            if want {
                self.start(b, sync::EXIT_DEBUG);
            } else {
                self.tracing = false;
                self.correlation(evcode::TRACE_DISABLED, b.time);
            }
        } else if self.tracing && !want {
            self.stop(evcode::TRACE_DISABLED, b.time);
        } else if !self.tracing && want {
            self.ctx = b.context;
            self.start(b, sync::TRACE_ENABLE);
        }
        self.tracing
    }

    /// Context changes and Ownership (trTeContext): a context switch (SYNC 0 for a precise
    /// one, ctype 2 or 3) and a privilege change are reported.
    #[inline(never)]
    fn context(&mut self, b: &Beat) {
        if b.ctype != 0 && b.context != self.ctx {
            self.ctx = b.context;
            if self.cfg.control.tr_te_context {
                if b.ctype >= 2 {
                    self.flush_hist_field(b.time);
                    let icnt = std::mem::take(&mut self.icnt);
                    self.emit(
                        Body::ProgTraceSync {
                            sync: sync::EXTERNAL_TRIGGER,
                            icnt,
                            faddr: b.iaddr >> 1,
                        },
                        b.time,
                    );
                    self.synced(sync::EXTERNAL_TRIGGER, b.iaddr);
                }
                self.ownership(FORMAT_SCONTEXT, b.prv, b.time);
            }
        }
        if self.cfg.control.tr_te_context && self.prv_reported != Some(b.prv) {
            self.ownership(FORMAT_PRIVILEGE, b.prv, b.time);
        }
    }

    /// Periodic sync (trTeInstSyncMode, trTeInstSyncMax) at a beat boundary with nothing
    /// pending: ProgTraceSync SYNC 2.
    #[cold]
    #[inline(never)]
    fn periodic_sync(&mut self, b: &Beat) {
        self.flush_hist_field(b.time);
        let icnt = self.icnt;
        self.sync_message(
            Body::ProgTraceSync {
                sync: sync::PERIODIC,
                icnt,
                faddr: b.iaddr >> 1,
            },
            sync::PERIODIC,
            b.iaddr,
            b.prv,
            b.time,
        );
    }

    /// I-CNT: add the beat's half-words, reporting an overflow first, and count them towards
    /// the periodic sync when it counts half-words (trTeInstSyncMode 3).
    #[inline(always)]
    fn count(&mut self, b: &Beat, hw: u64) {
        if self.icnt + hw >= self.icnt_limit {
            self.icnt_overflow(b);
        }
        self.icnt += hw;
        if self.cfg.control.tr_te_inst_sync_mode == 3 {
            self.sync_count += hw;
            if self.sync_count >= self.sync_period() {
                self.sync_due = true;
            }
        }
    }

    /// I-CNT would overflow with this beat: in HTM with history, IndirectBranchHistSync SYNC 4;
    /// else ResourceFull RCODE 0.
    #[cold]
    #[inline(never)]
    fn icnt_overflow(&mut self, b: &Beat) {
        if self.cfg.htm() && self.hist != 1 {
            let (icnt, hist) = (self.icnt, self.hist);
            self.emit(
                Body::IndirectBranchHistSync {
                    sync: sync::ICNT_OVERFLOW,
                    btype: btype::INDIRECT,
                    icnt,
                    faddr: b.iaddr >> 1,
                    hist,
                },
                b.time,
            );
            self.synced(sync::ICNT_OVERFLOW, b.iaddr);
        } else {
            let icnt = std::mem::take(&mut self.icnt);
            self.emit(
                Body::ResourceFull {
                    rcode: rcode::ICNT_OVERFLOW,
                    rdata: icnt,
                    hrepeat: None,
                },
                b.time,
            );
        }
    }

    /// The trace-off trigger (trTeInstTrigEnable): trace stops after the beat containing it.
    #[inline(never)]
    fn trace_off_trigger(&mut self, b: &Beat, hw: u64) {
        if let Some(off) = self.cfg.control.trace_off {
            if contains(b, hw, off) {
                self.trig_on = false;
                self.pending = None;
                self.stop(evcode::TRACE_DISABLED, b.time);
            }
        }
    }

    /// What the block's last instruction does.
    #[inline(always)]
    fn end_of_block(&mut self, b: &Beat, hw: u64) {
        // A conditional branch in HTM (the usual block end): its direction is HIST's next bit,
        // taken without a branch on it (the guest's branches are hard to predict; the match
        // in `transfer` is an indirect jump on them).
        const _: () = assert!(Itype::NontakenBranch as u8 == 4 && Itype::TakenBranch as u8 == 5);
        if b.itype & !1 == Itype::NontakenBranch as u8 && self.cfg.htm() {
            self.push_hist((b.itype & 1) as u64, b.time);
            return;
        }
        // A block ending without a transfer (itype 0) does nothing here.
        if b.itype != Itype::None as u8 {
            self.transfer(b, hw);
        }
    }

    /// [`Encoder::end_of_block`] for the other block ends: out of line, so that the usual
    /// ones above do not pay for this one's registers.
    #[inline(never)]
    fn transfer(&mut self, b: &Beat, hw: u64) {
        let it = Itype::from_code(b.itype).unwrap_or(Itype::None);
        let last_hw = 1u64 << b.ilastsize;
        // The address after the last instruction: where a call returns.
        let after = b.iaddr.wrapping_add(2 * hw);
        // A sequentially inferable jump, with the window unbroken: the decoder infers it.
        let seq = self.cfg.control.tr_te_inst_en_sequential_jump
            && b.sijump
            && !(self.window_broken && hw == last_hw);
        let t = b.time;
        match it {
            Itype::None | Itype::Reserved7 => {}
            Itype::Exception if hw == 0 || b.iretire > 0 => {
                self.pending = Some(Pending::Indirect {
                    btype: btype::EXCEPTION,
                    time: t,
                });
            }
            Itype::Exception => {}
            Itype::Interrupt => {
                self.pending = Some(Pending::Indirect {
                    btype: btype::INTERRUPT,
                    time: t,
                });
            }
            Itype::TrapReturn => {
                self.pending = Some(Pending::Indirect {
                    btype: btype::INDIRECT,
                    time: t,
                });
            }
            Itype::NontakenBranch => {
                if self.cfg.htm() {
                    self.push_hist(0, t);
                }
            }
            Itype::TakenBranch => {
                if self.cfg.htm() {
                    self.push_hist(1, t);
                } else if self.sync_due {
                    self.pending = Some(Pending::DirectSync { time: t });
                } else {
                    let icnt = std::mem::take(&mut self.icnt);
                    self.emit(Body::DirectBranch { icnt }, t);
                }
            }
            Itype::InferableCall => self.push_return(after),
            Itype::UninferableCall => {
                self.push_return(after);
                if !seq {
                    self.pending = Some(Pending::Indirect {
                        btype: btype::INDIRECT,
                        time: t,
                    });
                }
            }
            Itype::Return | Itype::CoroutineSwap => {
                if self.cfg.control.tr_te_inst_implicit_return_mode == 0 {
                    if !seq {
                        self.pending = Some(Pending::Indirect {
                            btype: btype::INDIRECT,
                            time: t,
                        });
                    }
                } else {
                    let (predicted, counted) = self.pop_return();
                    if it == Itype::CoroutineSwap {
                        self.push_return(after);
                    }
                    self.pending = Some(Pending::Return {
                        predicted,
                        counted,
                        time: t,
                    });
                }
            }
            Itype::UninferableJump | Itype::OtherUninferableJump | Itype::UninferableTailCall => {
                if !seq {
                    self.pending = Some(Pending::Indirect {
                        btype: btype::INDIRECT,
                        time: t,
                    });
                }
            }
            Itype::InferableTailCall | Itype::OtherInferableJump => {}
        }
        let _ = last_hw;
    }

    /// Complete a pending event with its target.
    fn complete(&mut self, p: Pending, target: u64, prv: u8) {
        let (btype, time) = match p {
            Pending::Indirect { btype, time } => (btype, time),
            Pending::Return {
                predicted,
                counted,
                time,
            } => {
                let implicit = match self.cfg.control.tr_te_inst_implicit_return_mode {
                    1 => counted,
                    2 => {
                        let m = (1u64 << self.cfg.partial_bits) - 1;
                        predicted.is_some_and(|a| a & m == target & m)
                    }
                    _ => predicted == Some(target),
                };
                if implicit {
                    self.owner_after_target(prv, time);
                    return;
                }
                (btype::INDIRECT, time)
            }
            Pending::DirectSync { time } => {
                let icnt = self.icnt;
                self.sync_message(
                    Body::DirectBranchSync {
                        sync: sync::PERIODIC,
                        icnt,
                        faddr: target >> 1,
                    },
                    sync::PERIODIC,
                    target,
                    prv,
                    time,
                );
                return;
            }
        };
        let icnt = self.icnt;
        let hist = self.hist;
        if self.sync_due {
            let body = if self.cfg.htm() {
                Body::IndirectBranchHistSync {
                    sync: sync::PERIODIC,
                    btype,
                    icnt,
                    faddr: target >> 1,
                    hist,
                }
            } else {
                Body::IndirectBranchSync {
                    sync: sync::PERIODIC,
                    btype,
                    icnt,
                    faddr: target >> 1,
                }
            };
            self.sync_message(body, sync::PERIODIC, target, prv, time);
            return;
        }
        let uaddr = (target ^ self.addr_ref) >> 1;
        let body = if self.cfg.htm() && hist != 1 {
            Body::IndirectBranchHist {
                btype,
                icnt,
                uaddr,
                hist,
            }
        } else {
            Body::IndirectBranch { btype, icnt, uaddr }
        };
        self.emit(body, time);
        self.icnt = 0;
        self.hist = 1;
        self.addr_ref = target;
        self.owner_after_target(prv, time);
    }

    fn owner_after_target(&mut self, prv: u8, time: u64) {
        if self.cfg.control.tr_te_context && self.prv_reported != Some(prv) {
            self.ownership(FORMAT_PRIVILEGE, prv, time);
        }
    }

    /// Start tracing at this beat.
    fn start(&mut self, b: &Beat, code: u8) {
        self.tracing = true;
        self.pending = None;
        self.sync_message(
            Body::ProgTraceSync {
                sync: code,
                icnt: 0,
                faddr: b.iaddr >> 1,
            },
            code,
            b.iaddr,
            b.prv,
            b.time,
        );
    }

    /// ProgTraceCorrelation with the I-CNT (and HIST in HTM) so far.
    fn correlation(&mut self, evcode: u8, time: u64) {
        let icnt = std::mem::take(&mut self.icnt);
        let hist = std::mem::replace(&mut self.hist, 1);
        let body = if self.cfg.htm() {
            Body::ProgTraceCorrelation {
                evcode,
                cdf: 1,
                icnt,
                hist: Some(hist),
            }
        } else {
            Body::ProgTraceCorrelation {
                evcode,
                cdf: 0,
                icnt,
                hist: None,
            }
        };
        self.emit(body, time);
    }

    /// Report lost trace: the Error message (time-stamped when the loss began), then, when
    /// tracing, SYNC 7 at `faddr`, the next instruction.
    fn recover(&mut self, faddr: u64, prv: u8, time: u64) {
        self.lost = false;
        let t = self.lost_time;
        self.rh_chunk = None;
        self.bcnt = 0;
        self.last_branch = None;
        self.send(
            Body::Error {
                etype: msg::error::QUEUE_OVERRUN,
                ecode: msg::error::PROGRAM_TRACE_LOST,
            },
            t,
        );
        if self.tracing {
            self.sync_message(
                Body::ProgTraceSync {
                    sync: sync::FIFO_OVERRUN,
                    icnt: 0,
                    faddr: faddr >> 1,
                },
                sync::FIFO_OVERRUN,
                faddr,
                prv,
                time,
            );
        }
    }

    /// Stop tracing (trace disabled, or the end).
    fn stop(&mut self, evcode: u8, time: u64) {
        if self.tracing {
            self.correlation(evcode, time);
        }
        self.tracing = false;
        self.pending = None;
    }

    /// The run ended with the hart about to execute `next_pc`: complete what is pending,
    /// send ProgTraceCorrelation EVCODE 0 and flush. Returns the writer.
    pub fn finish(mut self, next_pc: u64, prv: u8) -> io::Result<(W, EncoderStats)> {
        let t = self.now;
        // The hart has stopped: from here the encoder waits for the trace port to drain the
        // FIFO instead of dropping, so the end of a lossy run reports its loss (Error, SYNC 7)
        // and the closing ProgTraceCorrelation always gets out.
        self.ending = true;
        if let Some(p) = self.pending.take() {
            if self.tracing {
                // Dropped if trace is being lost: it belongs to the lost stretch.
                self.complete(p, next_pc, prv);
            }
        }
        if self.lost {
            self.recover(next_pc, prv, t);
        }
        if !self.started {
            // Nothing retired at all.
            self.started = true;
            self.tracing = false;
        }
        if self.tracing {
            self.stop(evcode::ENTER_DEBUG, t);
        } else {
            // Hart stops with trace disabled (table 26): I-CNT 0.
            self.icnt = 0;
            self.hist = 1;
            self.correlation(evcode::ENTER_DEBUG, t);
        }
        self.flush_repeats();
        self.flush_history();
        self.write_out();
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.out.flush()?;
        for (t, &n) in self.tcodes.iter().enumerate() {
            if n != 0 {
                self.stats.messages.insert(t as u8, n);
            }
        }
        Ok((self.out, self.stats))
    }
}

/// Whether `addr` is among the instructions of beat `b` (its first one for a beat that
/// retires nothing).
fn contains(b: &Beat, hw: u64, addr: u64) -> bool {
    if hw == 0 {
        addr == b.iaddr
    } else {
        addr >= b.iaddr && addr < b.iaddr + 2 * hw
    }
}

// ----------------------------------------------------------------------------------------
// The encoder on its own thread.

enum ToEncoder {
    Beats(Vec<Beat>),
    End { next_pc: u64, prv: u8 },
}

/// Runs an [`Encoder`] on its own thread (an [`iss::stage::Stage`]), fed through a bounded
/// channel. The hart's ingress port hands it batches of beats; when the channel is full the
/// hart waits (the simulation stays deterministic: loss is modelled inside the encoder, never
/// by the host).
pub struct EncoderThread<W: Write + Send + 'static> {
    stage: Option<Stage<ToEncoder, io::Result<(W, EncoderStats)>>>,
    result: Option<io::Result<(W, EncoderStats)>>,
}

/// Batches of beats queued for the encoder's thread at most.
const ENCODER_QUEUE: usize = 8;

impl<W: Write + Send + 'static> EncoderThread<W> {
    pub fn new(cfg: EncoderConfig, out: W) -> Result<Self, ConfigError> {
        let mut enc = Encoder::new(cfg, out)?;
        let stage = Stage::spawn(
            "ntrace-encoder",
            "the encoder thread",
            ENCODER_QUEUE,
            ENCODER_QUEUE,
            move |inbox: Inbox<ToEncoder>| {
                for m in inbox.iter() {
                    match m {
                        ToEncoder::Beats(mut v) => {
                            for b in &v {
                                enc.beat(b);
                            }
                            v.clear();
                            inbox.give_back(ToEncoder::Beats(v));
                        }
                        ToEncoder::End { next_pc, prv } => return enc.finish(next_pc, prv),
                    }
                }
                Err(io::Error::other(
                    "the encoder's input ended without an end of run",
                ))
            },
        )
        .map_err(ConfigError::Thread)?;
        Ok(EncoderThread {
            stage: Some(stage),
            result: None,
        })
    }

    /// The writer and statistics, after [`BeatSink::finish`].
    pub fn into_result(mut self) -> io::Result<(W, EncoderStats)> {
        self.join();
        self.result
            .take()
            .unwrap_or_else(|| Err(io::Error::other("the encoder was not finished")))
    }

    fn join(&mut self) {
        if let Some(s) = self.stage.take() {
            self.result = Some(s.join().unwrap_or_else(|p| Err(p.into())));
        }
    }
}

impl<W: Write + Send + 'static> BeatSink for EncoderThread<W> {
    fn beats(&mut self, beats: &[Beat], _data: &[DataBeat]) {
        if let Some(s) = &self.stage {
            let mut v = match s.recycled() {
                Some(ToEncoder::Beats(v)) => v,
                _ => Vec::new(),
            };
            v.extend_from_slice(beats);
            // The thread only ends after `finish`.
            s.send(ToEncoder::Beats(v));
        }
    }

    fn finish(&mut self, next_pc: u64, prv: u8) -> io::Result<()> {
        if let Some(s) = &self.stage {
            s.send(ToEncoder::End { next_pc, prv });
        }
        self.join();
        match &self.result {
            Some(Err(e)) => Err(io::Error::new(e.kind(), e.to_string())),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Settings the encoder cannot take are typed errors that carry the value, with the text
    /// the command line has always printed.
    #[test]
    fn config_errors_carry_the_value() {
        let bad = |f: fn(&mut EncoderConfig)| {
            let mut c = EncoderConfig::default();
            f(&mut c);
            c.legalize().unwrap_err()
        };
        let e = bad(|c| c.implicit_return_depth = 33);
        assert!(matches!(e, ConfigError::ImplicitReturnDepth(33)), "{e:?}");
        assert_eq!(e.to_string(), "the implicit-return stack depth is 1..=32");
        let e = bad(|c| c.partial_bits = 0);
        assert!(matches!(e, ConfigError::PartialBits(0)), "{e:?}");
        let e = bad(|c| c.icnt_bits = 23);
        assert!(matches!(e, ConfigError::IcntBits(23)), "{e:?}");
        assert_eq!(e.to_string(), "icnt_bits is 4..=22");
        let e = bad(|c| c.hist_bits = 2);
        assert!(matches!(e, ConfigError::HistBits(2)), "{e:?}");
        let e = bad(|c| c.control.tr_te_inst_mode = 4);
        assert!(
            matches!(
                e,
                ConfigError::Control(iss::trace_control::ControlError::InstMode(4))
            ),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "trTeInstMode 4 is not implemented (3 BTM or 6 HTM)"
        );
    }

    /// Relative timestamps are relative to the last timestamp reported (N-Trace 8.7). A
    /// message the output FIFO drops is not reported: it must not become the reference, or
    /// the Error message that reports the loss (time-stamped when the first message was
    /// dropped, so earlier than the later dropped ones) carries a negative, wrapped,
    /// difference and the decoded time goes back. (Found by the random round trips.)
    #[test]
    fn dropped_messages_are_not_the_timestamp_reference() {
        let cfg = EncoderConfig {
            control: TraceControl {
                tr_te_inst_mode: BTM,
                tr_ts_enable: true,
                tr_te_inst_stall_ena: false,
                ..TraceControl::default()
            },
            fifo_bytes: 80,
            drain_per_khw: 1000,
            retirement: Retirement::Single,
            ..EncoderConfig::default()
        };
        let mut e = Encoder::new(cfg.clone(), Vec::new()).unwrap();
        // A taken branch every 4 bytes (a DirectBranch each): the FIFO fills and drops; then
        // straight code drains it and trace restarts.
        let mut time = 0;
        for i in 0..400u64 {
            time += 10;
            e.beat(&Beat {
                itype: if i < 300 { 5 } else { 0 },
                prv: 3,
                iaddr: 0x8000_0000 + 4 * (i % 8),
                iretire: 1,
                ilastsize: 1,
                time,
                ..Beat::default()
            });
        }
        let (bytes, stats) = e.finish(0x8000_0000, 3).unwrap();
        assert!(stats.dropped > 0);
        let f = cfg.format();
        let (mut now, mut last, mut errors) = (0u64, 0u64, 0);
        let mut start = 0;
        for (i, &b) in bytes.iter().enumerate() {
            if b & 3 != 3 {
                continue;
            }
            let m = msg::parse(&bytes[start..=i], &f).unwrap();
            start = i + 1;
            let t = m.tstamp.unwrap();
            now = if m.body.sync().is_some() {
                t
            } else {
                now.wrapping_add(t)
            };
            assert!(
                now >= last && now <= time,
                "{}: time {now} after {last}",
                m.body.name()
            );
            errors += matches!(m.body, Body::Error { .. }) as u32;
            last = now;
        }
        assert!(errors > 0);
    }
}

#[cfg(test)]
mod file_shape {
    use super::*;

    /// The settings file keeps its flat shape with the trace-control settings inside
    /// [`TraceControl`]: what `hartscope run --ntrace` writes is byte for byte what it wrote
    /// before, and a file that leaves fields out (an old or hand-written one) still loads.
    #[test]
    fn sidecar_json_is_flat_and_in_the_old_order() {
        let c = EncoderConfig {
            control: TraceControl {
                tr_te_inst_en_all_jumps: true,
                filter: Some(Filter {
                    start: 0x10,
                    end: 0x20,
                    privs: 8,
                }),
                ..TraceControl::default()
            },
            icnt_bits: 20,
            ..EncoderConfig::default()
        };
        let text = serde_json::to_string(&c).unwrap();
        assert_eq!(
            text,
            r#"{"tr_te_inst_mode":6,"tr_te_context":false,"tr_te_inhibit_src":false,"tr_te_src_id":0,"tr_te_src_bits":0,"tr_te_inst_sync_mode":3,"tr_te_inst_sync_max":15,"tr_te_inst_en_all_jumps":true,"tr_te_inst_en_sequential_jump":false,"tr_te_inst_implicit_return_mode":0,"implicit_return_depth":32,"partial_bits":16,"tr_te_inst_en_repeated_history":false,"tr_te_inst_en_repeat_branch":false,"tr_te_inst_extend_addr_msb":false,"tr_ts_enable":false,"tr_te_inst_stall_ena":true,"icnt_bits":20,"hist_bits":32,"filter":{"start":16,"end":32,"privs":8},"trace_on":null,"trace_off":null,"fifo_bytes":4096,"drain_per_khw":200,"retirement":{"Block":{"max_halfwords":65536}}}"#
        );
        assert_eq!(serde_json::from_str::<EncoderConfig>(&text).unwrap(), c);
        let old: EncoderConfig =
            serde_json::from_str(r#"{"tr_te_inst_mode": 3, "tr_te_inst_en_all_jumps": true}"#)
                .unwrap();
        assert_eq!(old.control.tr_te_inst_mode, BTM);
        assert!(old.control.port().tr_te_inst_en_all_jumps);
        assert_eq!(old.icnt_bits, 22);
        assert!(serde_json::from_str::<EncoderConfig>(r#"{"all_jumps": true}"#).is_err());
    }
}
