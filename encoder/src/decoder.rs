//! The N-Trace decoder: a byte stream and the program image back into the executed pc flow
//! (N-Trace 1.0.0-rc7 chapter 11, with the rules of `docs/ntrace.md`).
//!
//! [`Decoder::feed`] takes the stream in chunks of any size. The `Framer` cuts it into
//! messages by their MSEO bits (idle `0xFF` bytes between messages are skipped; MSEO `10` is
//! reserved), keeping at most one partial message of at most [`MAX_MESSAGE`] bytes. Each message
//! is parsed with [`msg::parse`], filtered by SRC, checked against the configuration, and
//! applied: its HIST and I-CNT are walked through the image from the current pc (every
//! instruction walked goes to [`FlowSink::pc`]), then its address, if any, gives the next pc.
//! Everything else goes to [`FlowSink::event`].
//!
//! # Walking
//!
//! I-CNT counts half-words since the last message that carried I-CNT. HIST bits are consumed
//! MSB first (the bit after the stop bit is the first branch; 1 = taken). In HTM a
//! ResourceFull with HIST (RCODE 1 and 2) is walked up to and including the branch of its last
//! bit, and the half-words walked then count towards the next I-CNT. In BTM a walked
//! conditional branch is not taken, except the last instruction of a DirectBranch. Direct jumps
//! are followed (with `trTeInstEnAllJumps` they are reported like taken branches instead). An
//! uninferable jump (jalr, mret, sret) can only be passed when its target can be inferred:
//! a sequential jump (the `lui`/`c.lui`/`auipc` that sets its rs1 walked just before it, with
//! no message in between) or an unreported return (the implicit-return stack). Otherwise it
//! must be the last instruction of a message that gives its target: B-TYPE 0 with U-ADDR or
//! F-ADDR, or a sync message's F-ADDR. ecall and ebreak retire and are counted, and must be
//! the last instruction before their exception message.
//!
//! # Errors
//!
//! Nothing panics on any input. Every problem (a framing or parse error, a message the
//! configuration does not allow, a walk that does not fit the image) is reported as
//! [`Event::Error`] with the byte offset of the message, after which the decoder waits for
//! the next synchronization message. An Error message in the stream (lost trace) is reported
//! as [`Event::Lost`] and also waits for a sync (normally SYNC 7).
//!
//! # Other encoders
//!
//! The streams of other encoders in the field are decoded where they deviate from
//! `docs/ntrace.md` and the spec's algorithm can still decode them: each [`Warning`] kind is
//! reported once per stream as [`Event::Warning`] at the first message that shows it, and
//! nothing is lost. Without the encoder's return-stack depth
//! ([`DecoderConfig::implicit_return_depth_known`]) the decoder assumes the maximum, 32
//! (N-Trace 9.2). RepeatBranch in HTM and B-TYPE 1 are no deviations and are decoded silently.
//!
//! A decoder starts (or restarts) at a sync message that resets the encoder (any SYNC but 0, 4
//! and 6); with implicit return off, the non-resetting ones (0, 4, 6) also do, since then the
//! encoder keeps no state across them that the decoder would need.

use crate::image::{FetchError, Image};
use crate::msg::process::{FORMAT_PRIVILEGE, FORMAT_SCONTEXT};
use crate::msg::{self, btype, evcode, rcode, sync, Body, Format, Message, BTM, HTM};
use arch::{Itype, Priv};
use iss::classify;
use iss::insn::{Insn, Op};
use iss::ops::Flow as OpFlow;
use iss::trace_control::TraceControl;
use serde::{Deserialize, Serialize};

/// The longest message the framer accepts (the longest N-Trace message is 38 bytes).
pub const MAX_MESSAGE: usize = 128;

/// The largest I-CNT (22 bits, N-Trace table 10): also bounds the half-words a HIST may walk
/// before an I-CNT report.
pub const MAX_ICNT: u64 = (1 << 22) - 1;

/// The largest repeat count (HREPEAT, B-CNT) accepted.
pub const MAX_REPEAT: u64 = (1 << 32) - 1;

/// The default work limit ([`Decoder::set_work_limit`]): the half-words one message may make
/// the decoder walk, its repetitions (RepeatBranch's B-CNT, ResourceFull's HREPEAT) included.
/// Four times the longest walk one message without repetitions can ask for ([`MAX_ICNT`]);
/// a corrupt repeat count asks for up to 2^54.
pub const DEFAULT_WORK_LIMIT: u64 = 1 << 24;

#[derive(Serialize, Deserialize)]
#[serde(remote = "Format", deny_unknown_fields)]
struct FormatDef {
    #[serde(default)]
    src_bits: u8,
    #[serde(default)]
    timestamps: bool,
    #[serde(default)]
    extend_addr_msb: bool,
}

/// What the decoder must know of the encoder's settings: its trace-control settings
/// ([`TraceControl`], one name for each), the encoder's return stack, and the decoder's own
/// choices (whether that depth is known, which source to follow).
///
/// As JSON it is one table ([`DecoderConfigFile`]); missing fields take the [`Default`]
/// values.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "DecoderConfigFile", into = "DecoderConfigFile")]
pub struct DecoderConfig {
    /// The encoder's trace-control settings. The decoder reads `trTeInstMode`, the byte
    /// format's (`trTeSrcBits`, `trTeInhibitSrc`, `trTsEnable`, `trTeInstExtendAddrMSB`),
    /// `trTeInstImplicitReturnMode`, `trTeInstEnSequentialJump`, `trTeInstEnAllJumps` (direct
    /// jumps are reported as taken branches), `trTeInstEnRepeatBranch` (BTM: RepeatBranch
    /// messages may come; in HTM RepeatBranch is always accepted, see [`Warning`]'s notes on
    /// N-Trace 7.11) and `trTeInstEnRepeatedHistory` (HTM: ResourceFull RCODE 2 may come).
    pub control: TraceControl,
    /// Depth of the return stack the decoder keeps (1..=32): the encoder's when known, else
    /// the maximum N-Trace allows (32), as 9.2 says a decoder should assume ("Decoder does not
    /// need to know what is actual depth of the call stack implemented by encoder but for
    /// efficiency reasons it should assume max depth").
    pub implicit_return_depth: u8,
    /// `implicit_return_depth` is the encoder's (from its settings, or told): a return the
    /// stream reports although the decoder's stack predicts it is then an error. When false
    /// (the default), such a return is what an encoder with a shallower stack writes: the
    /// decoder follows the reported target, empties its stack and warns once per stream.
    pub implicit_return_depth_known: bool,
    /// Mode 2: how many low address bits the encoder compares (1..=64).
    pub partial_bits: u8,
    /// With SRC bits: the source to follow (others are ignored). `None`: the stream must
    /// have a single source, and a message with another SRC than the first is an error.
    pub src_filter: Option<u16>,
}

/// [`DecoderConfig`] as JSON: the trace-control settings the decoder reads under short
/// names (`format` holds the byte format's).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DecoderConfigFile {
    pub tr_te_inst_mode: u8,
    #[serde(with = "FormatDef")]
    pub format: Format,
    pub implicit_return_mode: u8,
    pub implicit_return_depth: u8,
    pub implicit_return_depth_known: bool,
    pub partial_bits: u8,
    pub sequential_jump: bool,
    pub all_jumps: bool,
    pub repeat_branch: bool,
    pub repeated_history: bool,
    pub src_filter: Option<u16>,
}

impl Default for DecoderConfigFile {
    fn default() -> Self {
        DecoderConfig::default().into()
    }
}

impl From<DecoderConfigFile> for DecoderConfig {
    fn from(f: DecoderConfigFile) -> Self {
        let mut c = DecoderConfig {
            control: TraceControl {
                tr_te_inst_mode: f.tr_te_inst_mode,
                tr_te_inst_implicit_return_mode: f.implicit_return_mode,
                tr_te_inst_en_sequential_jump: f.sequential_jump,
                tr_te_inst_en_all_jumps: f.all_jumps,
                tr_te_inst_en_repeat_branch: f.repeat_branch,
                tr_te_inst_en_repeated_history: f.repeated_history,
                ..TraceControl::default()
            },
            implicit_return_depth: f.implicit_return_depth,
            implicit_return_depth_known: f.implicit_return_depth_known,
            partial_bits: f.partial_bits,
            src_filter: f.src_filter,
        };
        c.set_format(f.format);
        c
    }
}

impl From<DecoderConfig> for DecoderConfigFile {
    fn from(c: DecoderConfig) -> Self {
        DecoderConfigFile {
            tr_te_inst_mode: c.control.tr_te_inst_mode,
            format: c.format(),
            implicit_return_mode: c.control.tr_te_inst_implicit_return_mode,
            implicit_return_depth: c.implicit_return_depth,
            implicit_return_depth_known: c.implicit_return_depth_known,
            partial_bits: c.partial_bits,
            sequential_jump: c.control.tr_te_inst_en_sequential_jump,
            all_jumps: c.control.tr_te_inst_en_all_jumps,
            repeat_branch: c.control.tr_te_inst_en_repeat_branch,
            repeated_history: c.control.tr_te_inst_en_repeated_history,
            src_filter: c.src_filter,
        }
    }
}

impl Default for DecoderConfig {
    fn default() -> Self {
        DecoderConfig {
            control: TraceControl {
                tr_te_inst_mode: HTM,
                ..TraceControl::default()
            },
            implicit_return_depth: 32,
            implicit_return_depth_known: false,
            partial_bits: 16,
            src_filter: None,
        }
    }
}

/// Decoder settings out of range ([`DecoderConfig::validate`]): the setting and its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum DecoderConfigError {
    #[error("tr_te_inst_mode {0} is neither 3 (BTM) nor 6 (HTM)")]
    Mode(u8),
    #[error("implicit_return_mode {0} is not 0..=3")]
    ImplicitReturnMode(u8),
    #[error("implicit_return_depth {0} is not 1..=32")]
    ImplicitReturnDepth(u8),
    #[error("partial_bits {0} is not 1..=64")]
    PartialBits(u8),
    #[error("src_bits {0} is more than 12")]
    SrcBits(u8),
    /// `src_filter` wider than the SRC field.
    #[error("src_filter {src} does not fit in {bits} SRC bits")]
    SrcFilter { src: u16, bits: u8 },
    #[error("repeat_branch is a BTM option")]
    RepeatBranchInHtm,
    #[error("repeated_history is an HTM option")]
    RepeatedHistoryInBtm,
}

impl DecoderConfig {
    /// The decoder settings that match an encoder's (its return-stack depth known).
    pub fn for_encoder(e: &crate::encoder::EncoderConfig) -> DecoderConfig {
        DecoderConfig {
            control: e.control.clone(),
            implicit_return_depth: e.implicit_return_depth,
            implicit_return_depth_known: true,
            partial_bits: e.partial_bits,
            src_filter: None,
        }
    }

    /// The decoder settings for an encoder's settings read from a file that may leave out
    /// the return-stack depth (`depth_known` false: a hand-written file without
    /// `implicit_return_depth`): the maximum is then assumed (N-Trace 9.2).
    pub fn for_settings(e: &crate::encoder::EncoderConfig, depth_known: bool) -> DecoderConfig {
        DecoderConfig {
            implicit_return_depth: if depth_known {
                e.implicit_return_depth
            } else {
                32
            },
            implicit_return_depth_known: depth_known,
            ..DecoderConfig::for_encoder(e)
        }
    }

    /// The byte format of the stream.
    #[inline]
    pub fn format(&self) -> Format {
        Format::of(&self.control)
    }

    /// Set the byte format's trace-control settings.
    pub fn set_format(&mut self, f: Format) {
        self.control.tr_te_src_bits = f.src_bits;
        self.control.tr_te_inhibit_src = false;
        self.control.tr_ts_enable = f.timestamps;
        self.control.tr_te_inst_extend_addr_msb = f.extend_addr_msb;
    }

    /// Checks the settings' ranges.
    pub fn validate(&self) -> Result<(), DecoderConfigError> {
        use DecoderConfigError as E;
        let c = &self.control;
        if c.tr_te_inst_mode != BTM && c.tr_te_inst_mode != HTM {
            return Err(E::Mode(c.tr_te_inst_mode));
        }
        if c.tr_te_inst_implicit_return_mode > 3 {
            return Err(E::ImplicitReturnMode(c.tr_te_inst_implicit_return_mode));
        }
        if !(1..=32).contains(&self.implicit_return_depth) {
            return Err(E::ImplicitReturnDepth(self.implicit_return_depth));
        }
        if !(1..=64).contains(&self.partial_bits) {
            return Err(E::PartialBits(self.partial_bits));
        }
        let src_bits = c.src_bits();
        if src_bits > 12 {
            return Err(E::SrcBits(src_bits));
        }
        if let Some(s) = self.src_filter {
            if src_bits == 0 || u32::from(s) >> src_bits != 0 {
                return Err(E::SrcFilter {
                    src: s,
                    bits: src_bits,
                });
            }
        }
        if c.tr_te_inst_en_repeat_branch && c.tr_te_inst_mode != BTM {
            return Err(E::RepeatBranchInHtm);
        }
        if c.tr_te_inst_en_repeated_history && c.tr_te_inst_mode != HTM {
            return Err(E::RepeatedHistoryInBtm);
        }
        Ok(())
    }

    #[inline]
    fn htm(&self) -> bool {
        self.control.tr_te_inst_mode == HTM
    }
}

/// Exception or interrupt (B-TYPE 2 or 3), or either (B-TYPE 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrapKind {
    Exception,
    Interrupt,
    /// B-TYPE 1, the standard Nexus value for "exception or interrupt", which N-Trace allows
    /// instead of 2 or 3 (table 2: "B-TYPE=2 or 1", "B-TYPE=3 or 1"); hartscope's encoder
    /// does not send it, other encoders do.
    ExceptionOrInterrupt,
}

/// What the decoder reports besides the pc flow. `offset` is the byte offset of the message
/// (its first byte) in the stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A synchronization message: `pc` is its F-ADDR (the next instruction), `time` its
    /// absolute timestamp.
    Sync {
        offset: u64,
        sync: u8,
        pc: u64,
        time: Option<u64>,
    },
    /// An exception or interrupt after the instructions reported so far.
    Trap {
        offset: u64,
        kind: TrapKind,
        handler: u64,
    },
    /// An Ownership message: the privilege (and, with FORMAT 2, the context) from now on.
    Ownership {
        offset: u64,
        format: u8,
        prv: Priv,
        v: bool,
        context: Option<u64>,
    },
    /// The time of a message that carried TSTAMP (reconstructed: absolute).
    Timestamp { offset: u64, time: u64 },
    /// ProgTraceCorrelation: trace stops (EVCODE 0: debug mode / end of run, 4: trace
    /// disabled) after the instructions reported so far.
    TraceOff { offset: u64, evcode: u8 },
    /// An Error message: trace was lost here; decoding resumes at the next sync.
    Lost { offset: u64, etype: u8, ecode: u64 },
    /// A decoding error; decoding resumes at the next sync message.
    Error { offset: u64, message: String },
    /// A deviation from N-Trace (or its errata) that the decoder decoded anyway, losing
    /// nothing: see [`Warning`]. Each kind is reported once per stream, at the first message
    /// that shows it.
    Warning {
        offset: u64,
        kind: Warning,
        message: String,
    },
}

/// The deviations real encoders are known to write that the decoder accepts, reporting them
/// as [`Event::Warning`] (once per kind and stream).
///
/// Not a deviation, and so accepted without a warning: RepeatBranch in HTM after an
/// IndirectBranchHist (or an IndirectBranch). N-Trace 7.11 defines RepeatBranch as
/// "generated if I-CNT, HIST and target address is the same as in the previous branch
/// message" and tells the decoder to "just repeat handling of previous branch message B-CNT
/// times"; the only branch messages with HIST are the HTM ones. 9.3 only says it cannot
/// repeat HTM's direct branches, which have no message. So in HTM the decoder repeats the
/// previous IndirectBranchHist (its I-CNT, HIST, B-TYPE and U-ADDR) B-CNT times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Warning {
    /// A return the decoder's return stack predicts is reported (an IndirectBranch with its
    /// target): the encoder's stack is shallower than the decoder's (or was emptied), so it
    /// had lost that entry (N-Trace 9.2: the decoder need not know the encoder's depth and
    /// assumes the maximum). The reported target is followed; the encoder's stack, whose
    /// entries are always the newest of the decoder's, was empty there, so the decoder
    /// empties its own. Only when the depth is not known
    /// ([`DecoderConfig::implicit_return_depth_known`]); otherwise an error.
    ShallowReturnStack,
    /// RepeatBranch after an IndirectBranch(Hist) whose U-ADDR is not 0: the errata say an
    /// encoder emits RepeatBranch only when U-ADDR is 0. Decoded as a decoder does: every
    /// repetition applies the U-ADDR XOR again (so the targets alternate).
    RepeatedUaddr,
    /// ProgTraceCorrelation with CDF 0 (no HIST field) in HTM, which the errata say carries
    /// CDF 1 and a HIST field even when empty: its I-CNT is walked with an empty HIST.
    HtmCorrelationWithoutHist,
}

impl Warning {
    fn bit(self) -> u8 {
        match self {
            Warning::ShallowReturnStack => 1,
            Warning::RepeatedUaddr => 2,
            Warning::HtmCorrelationWithoutHist => 4,
        }
    }
}

/// Where the decoder's output goes.
pub trait FlowSink {
    /// One reconstructed retired instruction (ecall/ebreak included, as the ingress port
    /// counts them).
    fn pc(&mut self, pc: u64);
    fn event(&mut self, e: &Event);
    /// The source (SRC) whose pcs and events follow, when a [`SourcesDecoder`] decodes
    /// several; `None` for what belongs to no source (bytes that are not a message).
    fn source(&mut self, _src: Option<u16>) {}
}

/// One item of the output, for collecting it in a `Vec<Flow>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    Pc(u64),
    Event(Event),
}

impl FlowSink for Vec<Flow> {
    fn pc(&mut self, pc: u64) {
        self.push(Flow::Pc(pc));
    }
    fn event(&mut self, e: &Event) {
        self.push(Flow::Event(e.clone()));
    }
}

/// Counters of a decoder's work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Bytes fed.
    pub bytes: u64,
    /// Messages framed (including ignored and malformed ones).
    pub messages: u64,
    /// Instructions reported through [`FlowSink::pc`].
    pub instructions: u64,
    /// [`Event::Error`]s reported.
    pub errors: u64,
    /// [`Event::Warning`]s reported.
    pub warnings: u64,
}

// ---------------------------------------------------------------------------------------------
// Framing
// ---------------------------------------------------------------------------------------------

/// What the framer produces.
pub(crate) enum Frame<'a> {
    /// A whole message: its bytes from the first to the one with MSEO 11.
    Message { offset: u64, bytes: &'a [u8] },
    /// Bytes that are not a message.
    Error { offset: u64, message: String },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FState {
    /// Between messages.
    Idle,
    /// Inside a message (its first bytes are in `buf`).
    Message,
    /// Skipping a broken message up to its last byte (MSEO 11).
    Discard,
}

/// Cuts a byte stream, fed in chunks, into messages.
pub(crate) struct Framer {
    buf: Vec<u8>,
    /// Offset of the first byte of the message in `buf`.
    start: u64,
    /// Offset of the next byte.
    pos: u64,
    state: FState,
}

impl Framer {
    pub(crate) fn new() -> Framer {
        Framer {
            buf: Vec::with_capacity(MAX_MESSAGE),
            start: 0,
            pos: 0,
            state: FState::Idle,
        }
    }

    pub(crate) fn pos(&self) -> u64 {
        self.pos
    }

    /// The offset of the message being framed, if the last chunk ended inside one.
    pub(crate) fn partial_start(&self) -> Option<u64> {
        (self.state == FState::Message).then_some(self.start)
    }

    /// Frames `chunk`, calling `f` for each message or error, in stream order.
    pub(crate) fn push(&mut self, chunk: &[u8], mut f: impl FnMut(Frame<'_>)) {
        let base = self.pos;
        let n = chunk.len();
        let mut i = 0;
        while i < n {
            match self.state {
                FState::Idle => {
                    let b = chunk[i];
                    if b == 0xff {
                        i += 1;
                        continue;
                    }
                    let offset = base + i as u64;
                    match b & 3 {
                        0 => {
                            self.state = FState::Message;
                            self.start = offset;
                            self.buf.clear();
                        }
                        2 => {
                            f(Frame::Error {
                                offset,
                                message: format!("byte {b:#04x} has the reserved MSEO 10"),
                            });
                            self.state = FState::Discard;
                            i += 1;
                            continue;
                        }
                        1 => {
                            f(Frame::Error {
                                offset,
                                message: format!(
                                    "byte {b:#04x} ends a field (MSEO 01) where a message must \
                                     start (MSEO 00)"
                                ),
                            });
                            self.state = FState::Discard;
                            i += 1;
                            continue;
                        }
                        _ => {
                            f(Frame::Error {
                                offset,
                                message: format!(
                                    "byte {b:#04x} (MSEO 11) between messages is neither idle \
                                     (0xff) nor the start of a message (MSEO 00)"
                                ),
                            });
                            i += 1;
                            continue;
                        }
                    }
                }
                FState::Discard => {
                    while i < n && chunk[i] & 3 != 3 {
                        i += 1;
                    }
                    if i < n {
                        i += 1;
                        self.state = FState::Idle;
                    }
                    continue;
                }
                FState::Message => {}
            }
            // Inside a message: look for its last byte.
            let from = i;
            let mut end = None;
            while i < n {
                let m = chunk[i] & 3;
                if m == 3 {
                    end = Some(i);
                    break;
                }
                if m == 2 {
                    break;
                }
                i += 1;
            }
            let have = self.buf.len() + (i - from) + end.map_or(0, |_| 1);
            if have > MAX_MESSAGE {
                f(Frame::Error {
                    offset: self.start,
                    message: format!("message longer than {MAX_MESSAGE} bytes"),
                });
                self.buf.clear();
                // Resume after its end, if it is in this chunk.
                match end {
                    Some(e) => {
                        i = e + 1;
                        self.state = FState::Idle;
                    }
                    None => self.state = FState::Discard,
                }
                continue;
            }
            match end {
                Some(e) => {
                    let offset = self.start;
                    if self.buf.is_empty() {
                        f(Frame::Message {
                            offset,
                            bytes: &chunk[from..=e],
                        });
                    } else {
                        self.buf.extend_from_slice(&chunk[from..=e]);
                        f(Frame::Message {
                            offset,
                            bytes: &self.buf,
                        });
                        self.buf.clear();
                    }
                    self.state = FState::Idle;
                    i = e + 1;
                }
                None if i < n => {
                    // MSEO 10 inside the message.
                    f(Frame::Error {
                        offset: self.start,
                        message: format!(
                            "byte {:#04x} at offset {} inside the message has the reserved MSEO 10",
                            chunk[i],
                            base + i as u64
                        ),
                    });
                    self.buf.clear();
                    self.state = FState::Discard;
                    i += 1;
                }
                None => self.buf.extend_from_slice(&chunk[from..]),
            }
        }
        self.pos += n as u64;
    }

    /// The end of the stream: a partial message is an error.
    pub(crate) fn finish(&mut self, mut f: impl FnMut(Frame<'_>)) {
        if self.state == FState::Message {
            f(Frame::Error {
                offset: self.start,
                message: format!(
                    "the stream ends inside a message ({} bytes, no byte with MSEO 11)",
                    self.buf.len()
                ),
            });
        }
        self.buf.clear();
        self.state = FState::Idle;
    }
}

/// The SRC field of a message's bytes, if it has that many bits.
pub(crate) fn peek_src(bytes: &[u8], src_bits: u8) -> Option<u16> {
    let mut v = 0u32;
    let mut got = 0u8;
    let mut i = 1;
    while got < src_bits {
        let mdo = (*bytes.get(i)? >> 2) as u32;
        let k = (src_bits - got).min(6);
        v |= (mdo & ((1 << k) - 1)) << got;
        got += k;
        i += 1;
    }
    Some(v as u16)
}

// ---------------------------------------------------------------------------------------------
// Decoding state
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Waiting for a sync message.
    Unsynced,
    /// Following the flow.
    On,
    /// After ProgTraceCorrelation: waiting for the sync that turns trace on again.
    Off,
}

/// The implicit-return stack: a ring of return addresses, the oldest dropped when full.
#[derive(Clone, Debug)]
struct Stack {
    buf: [u64; 32],
    start: usize,
    len: usize,
    depth: usize,
}

impl Stack {
    fn new(depth: usize) -> Stack {
        Stack {
            buf: [0; 32],
            start: 0,
            len: 0,
            depth,
        }
    }

    #[inline]
    fn push(&mut self, a: u64) {
        if self.len == self.depth {
            self.start = (self.start + 1) & 31;
            self.len -= 1;
        }
        self.buf[(self.start + self.len) & 31] = a;
        self.len += 1;
    }

    #[inline]
    fn pop(&mut self) -> Option<u64> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.buf[(self.start + self.len) & 31])
    }

    fn clear(&mut self) {
        self.len = 0;
    }
}

/// The last message RepeatBranch may repeat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Repeatable {
    Direct {
        icnt: u64,
    },
    /// IndirectBranch (`hist` 1) or IndirectBranchHist.
    Indirect {
        btype: u8,
        icnt: u64,
        uaddr: u64,
        hist: u64,
    },
}

/// How a walk ends: what the message says about its last instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// Only a count (ResourceFull RCODE 0).
    Count,
    /// ProgTraceCorrelation: trace stops after the last instruction, which may be an
    /// uninferable jump or a trap return whose target was not traced (a trace-off trigger
    /// stops trace after the beat containing it).
    Off,
    /// DirectBranch: the last instruction is a taken branch.
    Taken,
    /// B-TYPE 0 with this target: the last instruction is the reported uninferable jump.
    Jump(u64),
    /// B-TYPE 2 or 3: a trap follows the last instruction.
    Trap { interrupt: bool },
    /// A sync message's F-ADDR: the next pc, whatever the last instruction was.
    Sync(u64),
    /// HIST only (ResourceFull RCODE 1, 2): up to the branch of the last bit.
    Hist,
}

/// What a walk found out.
#[derive(Clone, Copy, Debug, Default)]
struct Walked {
    /// The last instruction was an uninferable jump whose target the message gave.
    jump_resolved: bool,
    /// The last instruction was the taken branch of a DirectBranch.
    taken: bool,
    /// The last instruction was an uninferable jump whose target was inferred.
    inferred_last: bool,
}

/// Why a message cannot be applied: the decoder reports it as an [`Event::Error`] at the
/// message's byte offset (its text after the message's name) and resumes at the next sync.
/// Each variant carries the values the message and the walk had (a pc, a count, a field).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MessageError {
    #[error("TCODE {0} is not an N-Trace instruction trace message")]
    NotInstructionTrace(u8),
    #[error("no TSTAMP, but timestamps are on")]
    NoTimestamp,
    #[error("a BTM message in HTM")]
    BtmMessageInHtm,
    #[error("an HTM message in BTM")]
    HtmMessageInBtm,
    #[error("RepeatBranch, but trTeInstEnRepeatBranch is off (BTM)")]
    RepeatBranchOff,
    #[error("RCODE {0} is reserved")]
    ReservedRcode(u8),
    #[error("a HIST overflow in BTM")]
    HistOverflowInBtm,
    #[error("RCODE 2, but trTeInstEnRepeatedHistory is off")]
    RepeatedHistoryOff,
    #[error("EVCODE {0} is not used (0 end, 4 trace off)")]
    UnusedEvcode(u8),
    /// ProgTraceCorrelation's CDF is not the mode's (`htm`).
    #[error("CDF {cdf} in {} (must be {})", mode_name(*htm), *htm as u8)]
    Cdf { cdf: u8, htm: bool },
    #[error("SYNC 4 (I-CNT overflow) with B-TYPE {0}")]
    IcntOverflowBtype(u8),
    #[error("a message while trace is off (a sync message must come first)")]
    WhileOff,
    #[error("PROCESS {0:#x}: PRV 2 is reserved")]
    ReservedPrv(u64),
    #[error("PROCESS {0:#x}: V is 1, but this hart has no H")]
    VirtualMode(u64),
    #[error("PROCESS {0:#x}: FORMAT 0 with a context")]
    Format0Context(u64),
    #[error("PROCESS {process:#x}: FORMAT {format} is not used (0 privilege, 2 scontext)")]
    UnusedFormat { process: u64, format: u8 },
    #[error("HREPEAT {0} is not 2..=2^32-1")]
    Hrepeat(u64),
    #[error("HIST {0:#x} has no branch bit or is longer than 32 bits")]
    RdataHist(u64),
    /// HREPEAT repetitions of a HIST walk (the first took `first` half-words) beyond the
    /// work limit.
    #[error(
        "HREPEAT {n} repetitions (the first walked {first} half-words): {}",
        OverLimit(*limit)
    )]
    HrepeatOverLimit { n: u64, first: u64, limit: u64 },
    /// RepeatBranch with nothing before it to repeat (`htm`: the mode).
    #[error(
        "RepeatBranch does not follow {}",
        if *htm { "an IndirectBranchHist or IndirectBranch" } else { "a DirectBranch or IndirectBranch" }
    )]
    NothingToRepeat { htm: bool },
    #[error("B-CNT {0} is not 1..=2^32-1")]
    Bcnt(u64),
    #[error(
        "B-CNT {bcnt} repetitions of I-CNT {icnt} would walk {work} half-words: {}",
        OverLimit(*limit)
    )]
    BcntOverLimit {
        bcnt: u64,
        icnt: u64,
        work: u64,
        limit: u64,
    },
    /// A sync message's F-ADDR is not where the flow it continues is.
    #[error("F-ADDR {faddr:#x}, but the flow continues at {pc:#x}")]
    FaddrDiffers { faddr: u64, pc: u64 },
    #[error("SYNC {0} (not a restart) while trace is off")]
    SyncWhileOff(u8),
    #[error("I-CNT {0:#x} is longer than 22 bits")]
    IcntTooLong(u64),
    #[error("HIST {0:#x} has no stop bit or is longer than 32 bits")]
    HistField(u64),
    #[error("I-CNT {icnt} is less than the {walked} half-words HIST walked already")]
    IcntBelowHist { icnt: u64, walked: u64 },
    #[error(
        "I-CNT {icnt} (half-words) is more than this message may still walk: {}",
        OverLimit(*limit)
    )]
    IcntOverLimit { icnt: u64, limit: u64 },
    #[error(
        "HIST walk: {walked} half-words without finding the branches of all HIST bits: {}",
        OverLimit(*limit)
    )]
    HistWalkOverLimit { walked: u64, limit: u64 },
    /// A HIST walk from `from` longer than I-CNT can count.
    #[error(
        "HIST walk: {walked} half-words from {from:#x} without finding the branches of all \
         HIST bits"
    )]
    HistWalkTooLong { walked: u64, from: u64 },
    /// The walk reached code the program image does not have.
    #[error("{walk}: {err}")]
    Fetch { walk: Walk, err: FetchError },
    #[error("I-CNT ends in the middle of the 32-bit instruction at {0:#x}")]
    IcntMidInstruction(u64),
    #[error("the conditional branch at {0:#x} has no HIST bit left")]
    NoHistBit(u64),
    #[error("the direct jump at {0:#x} has no HIST bit left (trTeInstEnAllJumps)")]
    NoHistBitForJump(u64),
    #[error("HIST says the direct jump at {0:#x} was not taken")]
    JumpNotTaken(u64),
    #[error("the direct jump at {0:#x} is not the end of a DirectBranch (trTeInstEnAllJumps)")]
    JumpNotDirectBranchEnd(u64),
    #[error("the sequentially inferable jump at {0:#x} is reported")]
    SequentialJumpReported(u64),
    /// A reported return the stack (of the encoder's depth) predicts.
    #[error(
        "the return at {pc:#x} to {target:#x} is reported, but the return stack (depth \
         {depth}, the encoder's) predicts it ({predicted:#x})"
    )]
    ReturnPredicted {
        pc: u64,
        target: u64,
        depth: usize,
        predicted: u64,
    },
    #[error("the uninferable jump at {0:#x} before the trap was not reported")]
    JumpBeforeTrap(u64),
    #[error("the message ends at the uninferable jump at {0:#x} but gives no target")]
    JumpWithoutTarget(u64),
    #[error("the return at {0:#x} is not reported, but the return stack is empty")]
    ReturnStackEmpty(u64),
    #[error("the {walk} reaches the uninferable jump at {pc:#x} before its end")]
    JumpBeforeEnd { walk: Walk, pc: u64 },
    #[error("the {walk} reaches the trap return at {pc:#x} before its end")]
    TrapReturnBeforeEnd { walk: Walk, pc: u64 },
    #[error("the message ends at the trap return at {0:#x} but does not report it")]
    TrapReturnUnreported(u64),
    /// An ecall (or ebreak) not followed by its exception.
    #[error(
        "the {} at {pc:#x} is not followed by its exception message",
        if *ecall { "ecall" } else { "ebreak" }
    )]
    TrapWithoutException { pc: u64, ecall: bool },
    #[error("the instruction {bits:#x} at {pc:#x} is illegal: it cannot have retired")]
    Illegal { bits: u32, pc: u64 },
    #[error("{0} HIST bit(s) left over after the I-CNT walk")]
    HistLeftOver(u32),
    #[error("the last instruction (before {0:#x}) is not a taken branch")]
    NotTakenBranch(u64),
    #[error("B-TYPE 0, but the walk does not end at an uninferable jump (next pc {0:#x})")]
    NoJumpAtEnd(u64),
}

/// Which walk of a message's code: I-CNT's, or a ResourceFull's HIST.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Walk {
    Icnt,
    Hist,
}

impl std::fmt::Display for Walk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Walk::Icnt => "I-CNT walk",
            Walk::Hist => "HIST walk",
        })
    }
}

/// What an error about the work limit says about it.
struct OverLimit(u64);

impl std::fmt::Display for OverLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "more than the work limit of {} half-words per message (implausible; raise the \
             limit to decode it: `ntrace decode --work-limit`)",
            self.0
        )
    }
}

fn mode_name(htm: bool) -> &'static str {
    if htm {
        "HTM"
    } else {
        "BTM"
    }
}

/// Everything but the framer.
struct Core {
    cfg: DecoderConfig,
    image: Image,
    state: State,
    pc: u64,
    /// The address reference for U-ADDR.
    addr_ref: u64,
    time: Option<u64>,
    /// Half-words walked (by HIST) since the last message carrying I-CNT.
    hw_since_icnt: u64,
    stack: Stack,
    /// Sequential-jump window: the pc right after the last `lui`/`auipc` walked, its rd and
    /// the value it set. `seq_pc` is `u64::MAX` (never a pc) when closed.
    seq_pc: u64,
    seq_rd: u8,
    seq_val: u64,
    repeat: Option<Repeatable>,
    /// The SRC of the stream when no filter is set (the first seen).
    src_seen: Option<u16>,
    /// Every SRC seen in the stream (a bit per value; empty without SRC bits).
    srcs: Vec<u64>,
    /// Messages of the source followed (all messages without a filter).
    followed: u64,
    /// The segment the walk is in.
    seg: usize,
    /// Half-words one message may make the decoder walk (its repetitions included); every
    /// repetition counts at least one (a repeated trap with I-CNT 0 walks nothing but is
    /// reported).
    work_limit: u64,
    /// What the message being applied may still walk.
    work_left: u64,
    /// The [`Warning`]s reported so far (their bits).
    warned: u8,
    /// A shallower encoder stack seen by the walk, to report after it: the message.
    shallow: Option<String>,
    stats: Stats,
}

type R<T> = Result<T, MessageError>;

impl Core {
    fn new(cfg: DecoderConfig, image: Image) -> Core {
        let depth = cfg.implicit_return_depth as usize;
        Core {
            cfg,
            image,
            state: State::Unsynced,
            pc: 0,
            addr_ref: 0,
            time: None,
            hw_since_icnt: 0,
            stack: Stack::new(depth),
            seq_pc: u64::MAX,
            seq_rd: 0,
            seq_val: 0,
            repeat: None,
            src_seen: None,
            srcs: Vec::new(),
            followed: 0,
            seg: 0,
            work_limit: DEFAULT_WORK_LIMIT,
            work_left: DEFAULT_WORK_LIMIT,
            warned: 0,
            shallow: None,
            stats: Stats::default(),
        }
    }

    /// The SRC values seen, in order.
    fn sources(&self) -> Vec<u16> {
        let mut v = Vec::new();
        for (w, bits) in self.srcs.iter().enumerate() {
            for b in 0..64 {
                if bits >> b & 1 != 0 {
                    v.push((w * 64 + b) as u16);
                }
            }
        }
        v
    }

    fn reset_flow_state(&mut self) {
        self.stack.clear();
        self.hw_since_icnt = 0;
        self.seq_pc = u64::MAX;
        self.repeat = None;
    }

    fn error<S: FlowSink>(&mut self, offset: u64, message: String, out: &mut S) {
        self.stats.errors += 1;
        out.event(&Event::Error { offset, message });
        self.state = State::Unsynced;
        self.repeat = None;
        self.time = None;
    }

    fn message<S: FlowSink>(&mut self, bytes: &[u8], offset: u64, out: &mut S) {
        self.stats.messages += 1;
        let f = self.cfg.format();
        if f.src_bits > 0 {
            if let Some(src) = peek_src(bytes, f.src_bits) {
                let (w, b) = (usize::from(src) / 64, src % 64);
                if self.srcs.len() <= w {
                    self.srcs.resize(w + 1, 0);
                }
                self.srcs[w] |= 1 << b;
                match self.cfg.src_filter {
                    Some(want) if want != src => return,
                    Some(_) => {}
                    None => match self.src_seen {
                        None => self.src_seen = Some(src),
                        Some(s) if s != src => {
                            let tcode = bytes[0] >> 2;
                            return self.error(
                                offset,
                                format!(
                                    "unexpected SRC {src} (TCODE {tcode}) in a stream of SRC {s}: \
                                     it interleaves several sources; follow one (src_filter, \
                                     `ntrace decode --src N`) or all (`--src all`)"
                                ),
                                out,
                            );
                        }
                        Some(_) => {}
                    },
                }
            }
        }
        self.followed += 1;
        let m = match msg::parse(bytes, &f) {
            Ok(m) => m,
            Err(e) => {
                let tcode = bytes[0] >> 2;
                let name = msg::layout(tcode).map_or("unknown TCODE", |l| l.name);
                let hint = match e {
                    msg::ParseError::ExtraFields(1) if !f.timestamps => {
                        " (a TSTAMP? timestamps are off in the format)"
                    }
                    _ => "",
                };
                return self.error(offset, format!("{name} (TCODE {tcode}): {e}{hint}"), out);
            }
        };
        self.work_left = self.work_limit;
        let r = self.apply(&m, offset, out);
        if let Some(w) = self.shallow.take() {
            self.warn(Warning::ShallowReturnStack, offset, w, out);
        }
        if let Err(e) = r {
            self.error(offset, format!("{}: {e}", m.body.name()), out);
        }
    }

    /// Reports a warning, the first of its kind only.
    fn warn<S: FlowSink>(&mut self, kind: Warning, offset: u64, message: String, out: &mut S) {
        if self.warned & kind.bit() == 0 {
            self.warned |= kind.bit();
            self.stats.warnings += 1;
            out.event(&Event::Warning {
                offset,
                kind,
                message,
            });
        }
    }

    /// Checks that do not depend on the decoding state.
    fn check(&self, m: &Message) -> R<()> {
        use MessageError as E;
        let htm = self.cfg.htm();
        if let Body::Other { tcode, .. } = m.body {
            return Err(E::NotInstructionTrace(tcode));
        }
        if self.cfg.control.tr_ts_enable && m.tstamp.is_none() {
            return Err(E::NoTimestamp);
        }
        match &m.body {
            Body::DirectBranch { .. } | Body::DirectBranchSync { .. } if htm => {
                Err(E::BtmMessageInHtm)
            }
            Body::IndirectBranchHist { .. } | Body::IndirectBranchHistSync { .. } if !htm => {
                Err(E::HtmMessageInBtm)
            }
            Body::RepeatBranch { .. } if !htm && !self.cfg.control.tr_te_inst_en_repeat_branch => {
                Err(E::RepeatBranchOff)
            }
            Body::ResourceFull { rcode, .. } if *rcode > rcode::HIST_REPEAT => {
                Err(E::ReservedRcode(*rcode))
            }
            Body::ResourceFull {
                rcode: rcode::HIST_OVERFLOW | rcode::HIST_REPEAT,
                ..
            } if !htm => Err(E::HistOverflowInBtm),
            Body::ResourceFull {
                rcode: rcode::HIST_REPEAT,
                ..
            } if !self.cfg.control.tr_te_inst_en_repeated_history => Err(E::RepeatedHistoryOff),
            Body::ProgTraceCorrelation { evcode, cdf, .. } => {
                if *evcode != evcode::ENTER_DEBUG && *evcode != evcode::TRACE_DISABLED {
                    Err(E::UnusedEvcode(*evcode))
                } else if *cdf != htm as u8 && !(htm && *cdf == 0) {
                    Err(E::Cdf { cdf: *cdf, htm })
                } else {
                    Ok(())
                }
            }
            Body::IndirectBranchHistSync {
                sync: sync::ICNT_OVERFLOW,
                btype,
                ..
            } if *btype != btype::INDIRECT => Err(E::IcntOverflowBtype(*btype)),
            _ => Ok(()),
        }
    }

    fn apply<S: FlowSink>(&mut self, m: &Message, offset: u64, out: &mut S) -> R<()> {
        self.check(m)?;
        if let Body::ProgTraceCorrelation { cdf: 0, icnt, .. } = m.body {
            if self.cfg.htm() {
                self.warn(
                    Warning::HtmCorrelationWithoutHist,
                    offset,
                    format!(
                        "ProgTraceCorrelation with CDF 0 (no HIST field) in HTM, which carries \
                         CDF 1 and a HIST field even when empty: decoded with an empty HIST \
                         (I-CNT {icnt})"
                    ),
                    out,
                );
            }
        }
        if let Some(sync) = m.body.sync() {
            return self.sync(m, sync, offset, out);
        }
        match m.body {
            Body::Error { etype, ecode } => {
                self.time_rel(m, offset, out);
                self.state = State::Unsynced;
                self.repeat = None;
                out.event(&Event::Lost {
                    offset,
                    etype,
                    ecode,
                });
                return Ok(());
            }
            Body::ProgTraceCorrelation { evcode, .. } if self.state == State::Unsynced => {
                out.event(&Event::TraceOff { offset, evcode });
                return Ok(());
            }
            // Table 26, "hart stops with trace disabled": EVCODE 0 with nothing executed.
            Body::ProgTraceCorrelation {
                evcode,
                icnt: 0,
                hist,
                ..
            } if self.state == State::Off && hist.is_none_or(|h| h == 1) => {
                self.time_rel(m, offset, out);
                out.event(&Event::TraceOff { offset, evcode });
                return Ok(());
            }
            _ => {}
        }
        match self.state {
            State::Unsynced => return Ok(()),
            State::Off if !matches!(m.body, Body::Ownership { .. }) => {
                return Err(MessageError::WhileOff)
            }
            _ => {}
        }
        let repeat = self.repeat.take();
        match m.body {
            Body::Ownership { process } => {
                let format = (process & 3) as u8;
                let prv_bits = (process >> 2) & 3;
                let v = (process >> 4) & 1 == 1;
                let context = process >> 5;
                let prv = Priv::from_bits(prv_bits).ok_or(MessageError::ReservedPrv(process))?;
                if v {
                    return Err(MessageError::VirtualMode(process));
                }
                let context = match format {
                    FORMAT_PRIVILEGE if context != 0 => {
                        return Err(MessageError::Format0Context(process))
                    }
                    FORMAT_PRIVILEGE => None,
                    FORMAT_SCONTEXT => Some(context),
                    _ => return Err(MessageError::UnusedFormat { process, format }),
                };
                self.time_rel(m, offset, out);
                out.event(&Event::Ownership {
                    offset,
                    format,
                    prv,
                    v,
                    context,
                });
            }
            Body::DirectBranch { icnt } => {
                let r = Repeatable::Direct { icnt };
                self.repeatable(r, out)?;
                self.repeat = Some(r);
                self.time_rel(m, offset, out);
            }
            Body::IndirectBranch { btype, icnt, uaddr }
            | Body::IndirectBranchHist {
                btype,
                icnt,
                uaddr,
                hist: _,
            } => {
                let hist = match m.body {
                    Body::IndirectBranchHist { hist, .. } => hist,
                    _ => 1,
                };
                let r = Repeatable::Indirect {
                    btype,
                    icnt,
                    uaddr,
                    hist,
                };
                let trap = self.repeatable(r, out)?;
                self.repeat = Some(r);
                self.time_rel(m, offset, out);
                self.trap_event(trap, offset, out);
            }
            Body::ResourceFull {
                rcode,
                rdata,
                hrepeat,
            } => match rcode {
                rcode::ICNT_OVERFLOW => {
                    self.walk_msg(rdata, 1, End::Count, out)?;
                    self.time_rel(m, offset, out);
                }
                _ => {
                    let n = match hrepeat {
                        None => 1,
                        Some(n) if (2..=MAX_REPEAT).contains(&n) => n,
                        Some(n) => return Err(MessageError::Hrepeat(n)),
                    };
                    if !(2..=u32::MAX as u64).contains(&rdata) {
                        return Err(MessageError::RdataHist(rdata));
                    }
                    // Every repetition walks at least one half-word: a count that cannot fit is
                    // refused before the rest is reported (the walks stop at the limit anyway).
                    let before = self.work_left;
                    self.walk_hist(rdata, out)?;
                    let first = before - self.work_left;
                    if n - 1 > self.work_left {
                        return Err(MessageError::HrepeatOverLimit {
                            n,
                            first,
                            limit: self.work_limit,
                        });
                    }
                    for _ in 1..n {
                        self.walk_hist(rdata, out)?;
                    }
                    self.time_rel(m, offset, out);
                }
            },
            Body::RepeatBranch { bcnt } => {
                let Some(r) = repeat else {
                    return Err(MessageError::NothingToRepeat {
                        htm: self.cfg.htm(),
                    });
                };
                if !(1..=MAX_REPEAT).contains(&bcnt) {
                    return Err(MessageError::Bcnt(bcnt));
                }
                if let Repeatable::Indirect { uaddr, .. } = r {
                    if uaddr != 0 {
                        self.warn(
                            Warning::RepeatedUaddr,
                            offset,
                            format!(
                                "RepeatBranch after an indirect branch message with U-ADDR \
                                 {uaddr:#x} (the errata: only U-ADDR 0 repeats): each \
                                 repetition applies the U-ADDR again"
                            ),
                            out,
                        );
                    }
                }
                let (Repeatable::Direct { icnt } | Repeatable::Indirect { icnt, .. }) = r;
                let work = bcnt.saturating_mul(icnt.max(1));
                if work > self.work_left {
                    return Err(MessageError::BcntOverLimit {
                        bcnt,
                        icnt,
                        work,
                        limit: self.work_limit,
                    });
                }
                for _ in 0..bcnt {
                    let trap = self.repeatable(r, out)?;
                    self.trap_event(trap, offset, out);
                }
                self.repeat = Some(r);
                self.time_rel(m, offset, out);
            }
            Body::ProgTraceCorrelation {
                evcode, icnt, hist, ..
            } => {
                self.walk_msg(icnt, hist.unwrap_or(1), End::Off, out)?;
                self.state = State::Off;
                self.time_rel(m, offset, out);
                out.event(&Event::TraceOff { offset, evcode });
            }
            _ => {}
        }
        Ok(())
    }

    /// DirectBranch or IndirectBranch, as first sent or repeated. Returns the B-TYPE.
    fn repeatable<S: FlowSink>(&mut self, r: Repeatable, out: &mut S) -> R<u8> {
        match r {
            Repeatable::Direct { icnt } => {
                self.walk_msg(icnt, 1, End::Taken, out)?;
                Ok(0)
            }
            Repeatable::Indirect {
                btype,
                icnt,
                uaddr,
                hist,
            } => {
                let target = self.addr_ref ^ (uaddr << 1);
                let end = if btype == btype::INDIRECT {
                    End::Jump(target)
                } else {
                    End::Trap {
                        interrupt: btype == btype::INTERRUPT,
                    }
                };
                self.walk_msg(icnt, hist, end, out)?;
                self.set_target(target);
                Ok(btype)
            }
        }
    }

    fn set_target(&mut self, target: u64) {
        self.pc = target;
        self.addr_ref = target;
    }

    fn trap_event<S: FlowSink>(&mut self, btype: u8, offset: u64, out: &mut S) {
        if btype != btype::INDIRECT {
            out.event(&Event::Trap {
                offset,
                kind: match btype {
                    btype::TRAP => TrapKind::ExceptionOrInterrupt,
                    btype::INTERRUPT => TrapKind::Interrupt,
                    _ => TrapKind::Exception,
                },
                handler: self.pc,
            });
        }
    }

    /// A relative timestamp.
    fn time_rel<S: FlowSink>(&mut self, m: &Message, offset: u64, out: &mut S) {
        if let (Some(t), Some(d)) = (self.time, m.tstamp) {
            let time = t.wrapping_add(d);
            self.time = Some(time);
            out.event(&Event::Timestamp { offset, time });
        }
    }

    fn sync<S: FlowSink>(&mut self, m: &Message, sync: u8, offset: u64, out: &mut S) -> R<()> {
        let (btype, icnt, faddr, hist) = match m.body {
            Body::ProgTraceSync { icnt, faddr, .. } => (None, icnt, faddr, 1),
            Body::DirectBranchSync { icnt, faddr, .. } => (None, icnt, faddr, 1),
            Body::IndirectBranchSync {
                btype, icnt, faddr, ..
            } => (Some(btype), icnt, faddr, 1),
            Body::IndirectBranchHistSync {
                btype,
                icnt,
                faddr,
                hist,
                ..
            } => (Some(btype), icnt, faddr, hist),
            _ => return Ok(()),
        };
        let target = faddr << 1;
        let resets = sync::resets(sync);
        match self.state {
            State::On => {
                let end = match (&m.body, btype) {
                    (Body::ProgTraceSync { .. }, _) => End::Sync(target),
                    (Body::DirectBranchSync { .. }, _) => End::Taken,
                    (Body::IndirectBranchHistSync { .. }, _) if sync == sync::ICNT_OVERFLOW => {
                        End::Sync(target)
                    }
                    (_, Some(btype::INDIRECT)) => End::Jump(target),
                    (_, b) => End::Trap {
                        interrupt: b == Some(btype::INTERRUPT),
                    },
                };
                let w = self.walk_msg(icnt, hist, end, out)?;
                let continues = sync::continues(sync);
                let check = match end {
                    End::Taken => true,
                    End::Sync(_) => continues && !w.jump_resolved,
                    _ => false,
                };
                if check
                    && self.pc != target
                    && !(self.cfg.control.tr_te_inst_implicit_return_mode == 2 && w.inferred_last)
                {
                    return Err(MessageError::FaddrDiffers {
                        faddr: target,
                        pc: self.pc,
                    });
                }
            }
            State::Off if !resets => return Err(MessageError::SyncWhileOff(sync)),
            State::Off => {}
            State::Unsynced if !resets && self.cfg.control.tr_te_inst_implicit_return_mode != 0 => {
                // The encoder's return stack is unknown here: wait for a resetting sync.
                return Ok(());
            }
            State::Unsynced => {}
        }
        self.set_target(target);
        self.hw_since_icnt = 0;
        self.seq_pc = u64::MAX;
        self.repeat = None;
        if resets {
            self.reset_flow_state();
        }
        self.state = State::On;
        if let Some(t) = m.tstamp {
            self.time = Some(t);
            out.event(&Event::Timestamp { offset, time: t });
        } else {
            self.time = None;
        }
        if let Some(b) = btype {
            if !(m.body.tcode() == msg::tcode::INDIRECT_BRANCH_HIST_SYNC
                && sync == sync::ICNT_OVERFLOW)
            {
                self.trap_event(b, offset, out);
            }
        }
        out.event(&Event::Sync {
            offset,
            sync,
            pc: target,
            time: m.tstamp,
        });
        Ok(())
    }

    /// Walks a message's I-CNT (the half-words since the last I-CNT report, some of them
    /// maybe walked already by HIST) and HIST.
    fn walk_msg<S: FlowSink>(&mut self, icnt: u64, hist: u64, end: End, out: &mut S) -> R<Walked> {
        if icnt > MAX_ICNT {
            return Err(MessageError::IcntTooLong(icnt));
        }
        if hist == 0 || hist > u32::MAX as u64 {
            return Err(MessageError::HistField(hist));
        }
        let Some(remaining) = icnt.checked_sub(self.hw_since_icnt) else {
            return Err(MessageError::IcntBelowHist {
                icnt,
                walked: self.hw_since_icnt,
            });
        };
        self.hw_since_icnt = 0;
        self.seq_pc = u64::MAX;
        if remaining > self.work_left {
            return Err(MessageError::IcntOverLimit {
                icnt: remaining,
                limit: self.work_limit,
            });
        }
        // A repetition of nothing (a trap with I-CNT 0) still costs one.
        self.work_left -= remaining.max(1).min(self.work_left);
        self.walk::<S, false>(remaining, hist, end, out)
    }

    /// Walks a ResourceFull's HIST.
    fn walk_hist<S: FlowSink>(&mut self, hist: u64, out: &mut S) -> R<()> {
        self.seq_pc = u64::MAX;
        let icnt_left = MAX_ICNT - self.hw_since_icnt.min(MAX_ICNT);
        let limit = icnt_left.min(self.work_left);
        let before = self.hw_since_icnt;
        let r = self.walk::<S, true>(limit, hist, End::Hist, out);
        let walked = self.hw_since_icnt - before;
        self.work_left -= walked.max(1).min(self.work_left);
        match r {
            // Stopped by the work limit, not by the I-CNT's range.
            Err(_) if limit < icnt_left && walked >= limit => {
                Err(MessageError::HistWalkOverLimit {
                    walked,
                    limit: self.work_limit,
                })
            }
            r => r.map(|_| ()),
        }
    }

    /// The walk. Without `HIST_ONLY`, walks exactly `limit` half-words; with it, up to the
    /// branch of the last HIST bit (and at most `limit` half-words, adding them to
    /// `hw_since_icnt`). The loop fetches and counts; what each instruction means for the flow
    /// is [`Walker::step`]'s, one function per optional feature.
    #[inline(always)]
    fn walk<S: FlowSink, const HIST_ONLY: bool>(
        &mut self,
        limit: u64,
        hist: u64,
        end: End,
        out: &mut S,
    ) -> R<Walked> {
        let nbits = 63 - hist.leading_zeros();
        let mut wk = Walker {
            cfg: &self.cfg,
            stack: &mut self.stack,
            seq_pc: &mut self.seq_pc,
            seq_rd: &mut self.seq_rd,
            seq_val: &mut self.seq_val,
            shallow: &mut self.shallow,
            warned: self.warned,
            hist,
            bit: if nbits == 0 { 0 } else { 1 << (nbits - 1) },
            end,
            w: Walked::default(),
        };
        let mut pc = self.pc;
        let mut walked = 0u64;
        let mut count = 0u64;
        let image = &mut self.image;
        let mut si = self.seg;
        // The current segment: its base and decoded slots. A pc outside it, or a slot not
        // decoded yet, takes the slow path.
        let (mut base, mut slots): (u64, &mut [Insn]) = match image.segs.get_mut(si) {
            Some(s) => (s.base, s.slots()),
            None => (0, &mut []),
        };
        let what = if HIST_ONLY { Walk::Hist } else { Walk::Icnt };
        let result: R<()> = loop {
            if HIST_ONLY {
                if wk.bit == 0 {
                    break Ok(());
                }
                if walked >= limit {
                    break Err(MessageError::HistWalkTooLong {
                        walked,
                        from: self.pc,
                    });
                }
            } else if walked == limit {
                break Ok(());
            }
            // pc is always even: every target is.
            let idx = (pc.wrapping_sub(base) >> 1) as usize;
            if !matches!(slots.get(idx), Some(d) if d.op != Op::NotDecoded) {
                match image.fetch_slow(pc) {
                    Ok((i, _)) => {
                        si = i;
                        let s = &mut image.segs[i];
                        base = s.base;
                        slots = s.slots();
                    }
                    Err(err) => break Err(MessageError::Fetch { walk: what, err }),
                }
            }
            let idx = (pc.wrapping_sub(base) >> 1) as usize;
            let Some(insn) = slots.get(idx) else {
                break Err(MessageError::Fetch {
                    walk: what,
                    err: FetchError::Outside(pc),
                });
            };
            let len = insn.len as u64;
            walked += len >> 1;
            if !HIST_ONLY && walked > limit {
                break Err(MessageError::IcntMidInstruction(pc));
            }
            let last = !HIST_ONLY && walked == limit;
            count += 1;
            out.pc(pc);
            pc = match wk.step(pc, insn, last, what) {
                Ok(next) => next,
                Err(e) => break Err(*e),
            };
        };
        let (bit, w) = (wk.bit, wk.w);
        self.pc = pc;
        self.seg = si;
        self.stats.instructions += count;
        if HIST_ONLY {
            self.hw_since_icnt += walked;
        }
        result?;
        if !HIST_ONLY {
            if bit != 0 {
                return Err(MessageError::HistLeftOver(64 - bit.leading_zeros()));
            }
            match end {
                End::Taken if !w.taken => return Err(MessageError::NotTakenBranch(pc)),
                End::Jump(_) if !w.jump_resolved => return Err(MessageError::NoJumpAtEnd(pc)),
                _ => {}
            }
        }
        Ok(w)
    }
}

/// What a walk's instructions read and change besides the pc: the settings, the
/// implicit-return stack, the sequential-jump window, the HIST bits left and what the walk
/// found out. Borrowed from [`Core`] for one walk (the program image is the walk loop's).
struct Walker<'a> {
    cfg: &'a DecoderConfig,
    stack: &'a mut Stack,
    seq_pc: &'a mut u64,
    seq_rd: &'a mut u8,
    seq_val: &'a mut u64,
    shallow: &'a mut Option<String>,
    warned: u8,
    hist: u64,
    /// The next HIST bit (0: none left).
    bit: u64,
    end: End,
    w: Walked,
}

/// What a walk's step gives: the error is boxed, so that the result of every instruction's
/// step stays two words (errors are rare: corrupt input).
type WalkResult<T> = Result<T, Box<MessageError>>;

/// A step's error (out of the walk's loop).
#[cold]
#[inline(never)]
fn fail<T>(e: MessageError) -> WalkResult<T> {
    Err(Box::new(e))
}

impl Walker<'_> {
    /// The instruction at `pc` (`last`: the last the message counts) was executed: where the
    /// flow goes next. What an instruction means is the hart's own classification: the
    /// instruction table's flow, and `classify` for the jumps' itypes.
    #[inline(always)]
    fn step(&mut self, pc: u64, insn: &Insn, last: bool, what: Walk) -> WalkResult<u64> {
        let next = pc.wrapping_add(insn.len as u64);
        match insn.op.flow() {
            OpFlow::Straight => Ok(next),
            OpFlow::Branch => self.branch(pc, insn, next, last),
            OpFlow::DirectJump if self.cfg.control.tr_te_inst_en_all_jumps => {
                self.reported_direct_jump(pc, insn, last)
            }
            OpFlow::DirectJump => {
                if self.cfg.control.tr_te_inst_implicit_return_mode != 0 && arch::is_link(insn.rd) {
                    self.stack.push(next);
                }
                Ok(pc.wrapping_add(insn.imm as i64 as u64))
            }
            OpFlow::IndirectJump => self.indirect_jump(pc, insn, next, last, what),
            OpFlow::TrapReturn => self.trap_return(pc, next, last, what),
            OpFlow::Trap => self.trap(pc, insn, next, last),
            OpFlow::Constant | OpFlow::PcRelative => {
                if self.cfg.control.tr_te_inst_en_sequential_jump && insn.rd != 0 {
                    self.open_sequential_window(pc, insn, next);
                }
                Ok(next)
            }
            OpFlow::Illegal => fail(MessageError::Illegal {
                bits: insn.bits,
                pc,
            }),
        }
    }

    /// The next HIST bit (HTM): whether the conditional branch (or, trTeInstEnAllJumps, the
    /// direct jump) at `pc` was taken.
    #[inline(always)]
    fn hist_bit(&mut self, pc: u64) -> WalkResult<bool> {
        if self.bit == 0 {
            return fail(MessageError::NoHistBit(pc));
        }
        let taken = self.hist & self.bit != 0;
        self.bit >>= 1;
        Ok(taken)
    }

    /// A conditional branch: taken as HIST says (HTM), or (BTM) only as a DirectBranch's last
    /// instruction.
    #[inline(always)]
    fn branch(&mut self, pc: u64, insn: &Insn, next: u64, last: bool) -> WalkResult<u64> {
        let taken = if self.cfg.htm() {
            self.hist_bit(pc)?
        } else if last && self.end == End::Taken {
            self.w.taken = true;
            true
        } else {
            false
        };
        Ok(if taken {
            pc.wrapping_add(insn.imm as i64 as u64)
        } else {
            next
        })
    }

    /// trTeInstEnAllJumps: the hart reports a direct jump as a taken branch (a HIST bit in
    /// HTM, the end of a DirectBranch in BTM). Its link is not pushed (the encoder reports
    /// it).
    #[inline]
    fn reported_direct_jump(&mut self, pc: u64, insn: &Insn, last: bool) -> WalkResult<u64> {
        if self.cfg.htm() {
            if self.bit == 0 {
                return fail(MessageError::NoHistBitForJump(pc));
            }
            if !self.hist_bit(pc)? {
                return fail(MessageError::JumpNotTaken(pc));
            }
        } else if last && self.end == End::Taken {
            self.w.taken = true;
        } else if last && self.end == End::Off {
            // Trace stopped after it (its DirectBranchSync, when a periodic sync was due,
            // would have come with the next beat).
        } else {
            return fail(MessageError::JumpNotDirectBranchEnd(pc));
        }
        Ok(pc.wrapping_add(insn.imm as i64 as u64))
    }

    /// An uninferable jump: its target is inferred (sequential jump, implicit return) or
    /// reported by the message it ends.
    #[inline(always)]
    fn indirect_jump(
        &mut self,
        pc: u64,
        insn: &Insn,
        next: u64,
        last: bool,
        what: Walk,
    ) -> WalkResult<u64> {
        let irm = self.cfg.control.tr_te_inst_implicit_return_mode;
        let it = classify::flow_itype(OpFlow::IndirectJump, insn.rd, insn.rs1, true);
        let ret_like = irm != 0 && matches!(it, Itype::Return | Itype::CoroutineSwap);
        let popped = if ret_like { self.stack.pop() } else { None };
        let link = irm != 0 && matches!(it, Itype::UninferableCall | Itype::CoroutineSwap);
        if link {
            self.stack.push(next);
        }
        // Under implicit return, returns and swaps follow the stack whatever sijump says (as
        // the encoder does).
        let seq = self.cfg.control.tr_te_inst_en_sequential_jump
            && !ret_like
            && *self.seq_pc == pc
            && *self.seq_rd == insn.rs1;
        *self.seq_pc = u64::MAX;
        if seq {
            self.sequential_jump(pc, insn, last)
        } else if let Some(p) = popped {
            self.implicit_return(pc, p, last, link.then_some(next))
        } else if last {
            match self.end {
                End::Jump(t) | End::Sync(t) => {
                    self.w.jump_resolved = true;
                    Ok(t)
                }
                End::Trap { .. } => fail(MessageError::JumpBeforeTrap(pc)),
                // Trace stopped: where it went was not traced.
                End::Off => Ok(next),
                _ => fail(MessageError::JumpWithoutTarget(pc)),
            }
        } else if ret_like {
            fail(MessageError::ReturnStackEmpty(pc))
        } else {
            fail(MessageError::JumpBeforeEnd { walk: what, pc })
        }
    }

    /// trTeInstEnSequentialJump: a `lui`/`auipc` (with a destination) opens the window for
    /// an uninferable jump through its register right after it.
    #[inline(always)]
    fn open_sequential_window(&mut self, pc: u64, insn: &Insn, next: u64) {
        let imm = insn.imm as i64 as u64;
        *self.seq_pc = next;
        *self.seq_rd = insn.rd;
        *self.seq_val = if insn.op.flow() == OpFlow::Constant {
            imm
        } else {
            pc.wrapping_add(imm)
        };
    }

    /// trTeInstEnSequentialJump: the jump's target is inferred from the window (the message
    /// must not report it).
    #[inline]
    fn sequential_jump(&mut self, pc: u64, insn: &Insn, last: bool) -> WalkResult<u64> {
        if last && matches!(self.end, End::Jump(_)) {
            return fail(MessageError::SequentialJumpReported(pc));
        }
        self.w.inferred_last = last;
        Ok(self.seq_val.wrapping_add(insn.imm as i64 as u64) & !1)
    }

    /// trTeInstImplicitReturnMode: a return (or co-routine swap) whose predicted target `p`
    /// was popped: followed unless the message ends here and reports the target, which
    /// then must differ from the prediction (in the compared bits). `link`: a co-routine
    /// swap's link, pushed already.
    #[inline(always)]
    fn implicit_return(
        &mut self,
        pc: u64,
        p: u64,
        last: bool,
        link: Option<u64>,
    ) -> WalkResult<u64> {
        match self.end {
            End::Jump(t) if last => {
                // The message reports this return: it did not match.
                let agree = match self.cfg.control.tr_te_inst_implicit_return_mode {
                    1 => true,
                    2 => {
                        let bits = self.cfg.partial_bits as u32;
                        let mask = u64::MAX >> (64 - bits);
                        (p ^ t) & mask == 0
                    }
                    _ => p == t,
                };
                if agree {
                    self.reported_but_predicted(pc, p, t, link)?;
                }
                self.w.jump_resolved = true;
                Ok(t)
            }
            _ => {
                self.w.inferred_last = last;
                Ok(p)
            }
        }
    }

    /// A reported return the stack predicted: an error with the encoder's depth known; else
    /// the encoder's stack was shallower (a warning, once), and this one is emptied but for a
    /// co-routine swap's `link` (the encoder pops, then pushes it).
    #[cold]
    #[inline(never)]
    fn reported_but_predicted(
        &mut self,
        pc: u64,
        p: u64,
        t: u64,
        link: Option<u64>,
    ) -> WalkResult<()> {
        if self.cfg.implicit_return_depth_known {
            return fail(MessageError::ReturnPredicted {
                pc,
                target: t,
                depth: self.stack.depth,
                predicted: p,
            });
        }
        // The encoder's stack, always the newest entries of this one, was empty: so is this
        // one now.
        let bit = Warning::ShallowReturnStack.bit();
        if self.shallow.is_none() && self.warned & bit == 0 {
            *self.shallow = Some(format!(
                "the return at {pc:#x} to {t:#x} is reported, but the return stack (depth {}, \
                 the maximum assumed) predicts it: the encoder's return stack is shallower; \
                 the reported target is followed (give the encoder's depth: `ntrace decode \
                 --return-stack-depth N`)",
                self.stack.depth
            ));
        }
        // A co-routine swap's link (pushed after the pop) stays: the encoder's stack holds it.
        self.stack.clear();
        if let Some(l) = link {
            self.stack.push(l);
        }
        Ok(())
    }

    /// An xRET: the last instruction of its message, which reports its target.
    #[inline(always)]
    fn trap_return(&mut self, pc: u64, next: u64, last: bool, what: Walk) -> WalkResult<u64> {
        if !last {
            return fail(MessageError::TrapReturnBeforeEnd { walk: what, pc });
        }
        match self.end {
            End::Jump(t) | End::Sync(t) => {
                self.w.jump_resolved = true;
                Ok(t)
            }
            End::Off => Ok(next),
            _ => fail(MessageError::TrapReturnUnreported(pc)),
        }
    }

    /// An ecall or ebreak: the last instruction of a message reporting its exception (or a
    /// sync, count or trace-off message).
    #[inline(always)]
    fn trap(&mut self, pc: u64, insn: &Insn, next: u64, last: bool) -> WalkResult<u64> {
        let ok = last
            && matches!(
                self.end,
                End::Trap { interrupt: false } | End::Sync(_) | End::Count | End::Off
            );
        if !ok {
            return fail(MessageError::TrapWithoutException {
                pc,
                ecall: insn.op == Op::Ecall,
            });
        }
        Ok(next)
    }
}

// ---------------------------------------------------------------------------------------------
// The decoder
// ---------------------------------------------------------------------------------------------

/// The streaming N-Trace decoder.
pub struct Decoder {
    framer: Framer,
    core: Core,
}

impl Decoder {
    /// A decoder of streams made with `cfg`, reading code from `image`.
    pub fn new(cfg: DecoderConfig, image: Image) -> Result<Decoder, DecoderConfigError> {
        cfg.validate()?;
        Ok(Decoder {
            framer: Framer::new(),
            core: Core::new(cfg, image),
        })
    }

    /// Limits the half-words one message may make the decoder walk, its repetitions
    /// (RepeatBranch's B-CNT, ResourceFull's HREPEAT) included, each repetition counting at
    /// least one; a message asking for more is an [`Event::Error`] at its offset (and the
    /// decoder resumes at the next sync). This bounds the work and the output per byte of
    /// stream: a corrupt RepeatBranch can ask for 2^32 repetitions of a 2^22 half-word walk.
    /// [`DEFAULT_WORK_LIMIT`] unless set; `u64::MAX` for no limit.
    pub fn set_work_limit(&mut self, halfwords: u64) {
        self.core.work_limit = halfwords.max(1);
    }

    /// The work limit ([`Decoder::set_work_limit`]).
    pub fn work_limit(&self) -> u64 {
        self.core.work_limit
    }

    /// Decodes the next bytes of the stream.
    pub fn feed<S: FlowSink>(&mut self, chunk: &[u8], out: &mut S) {
        let core = &mut self.core;
        self.framer.push(chunk, |fr| match fr {
            Frame::Message { offset, bytes } => core.message(bytes, offset, out),
            Frame::Error { offset, message } => core.error(offset, message, out),
        });
        self.core.stats.bytes = self.framer.pos();
    }

    /// The end of the stream (a partial message is reported).
    pub fn finish<S: FlowSink>(&mut self, out: &mut S) {
        let core = &mut self.core;
        self.framer.finish(|fr| {
            if let Frame::Error { offset, message } = fr {
                core.error(offset, message, out)
            }
        });
    }

    /// Decodes a whole stream.
    pub fn decode_all<S: FlowSink>(&mut self, bytes: &[u8], out: &mut S) {
        self.feed(bytes, out);
        self.finish(out);
    }

    pub fn config(&self) -> &DecoderConfig {
        &self.core.cfg
    }

    pub fn image(&self) -> &Image {
        &self.core.image
    }

    pub fn image_mut(&mut self) -> &mut Image {
        &mut self.core.image
    }

    pub fn stats(&self) -> Stats {
        self.core.stats
    }

    /// The next pc, when following the flow.
    pub fn pc(&self) -> Option<u64> {
        (self.core.state == State::On).then_some(self.core.pc)
    }

    /// The SRC values of the messages seen so far, in order (empty without SRC bits).
    pub fn sources(&self) -> Vec<u16> {
        self.core.sources()
    }

    /// Messages of the source followed so far (with `src_filter`, those of that SRC; else
    /// all).
    pub fn followed(&self) -> u64 {
        self.core.followed
    }
}

/// Decodes every source of a stream whose messages several encoders interleave (SRC, one
/// hart each: N-Trace 4.2, "decoder for a specific hart should only look for messages with
/// SRC for that hart"), each source with its own decoding state, as if one [`Decoder`] with
/// `src_filter` followed each, in one pass: messages are framed once and each goes to its
/// source's state, its offsets those of the whole stream. Before a source's pcs and events
/// the sink is told whose they are ([`FlowSink::source`]), so a flow of several harts comes
/// out interleaved as their messages are.
pub struct SourcesDecoder {
    framer: Framer,
    /// The settings a source's state starts from when its first message comes.
    cfg: DecoderConfig,
    /// The program image, one for all sources: lent to the source whose message is being
    /// decoded (a hostile stream of 4096 sources costs 4096 small states, not 4096 images).
    image: Image,
    work_limit: u64,
    /// Each source's state, by SRC.
    cores: std::collections::BTreeMap<u16, Core>,
    /// Errors that belong to no source (framing, messages too short for SRC).
    errors: u64,
}

/// Why a [`SourcesDecoder`] cannot decode a stream of these settings.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SourcesError {
    #[error(transparent)]
    Config(#[from] DecoderConfigError),
    #[error("the stream's messages carry no SRC field (trTeSrcBits 0): it has one source")]
    NoSrcField,
}

impl SourcesDecoder {
    /// A decoder of every source of streams made with `cfg` (whose `src_filter` is
    /// ignored), reading code from `image`.
    pub fn new(mut cfg: DecoderConfig, image: Image) -> Result<SourcesDecoder, SourcesError> {
        cfg.src_filter = None;
        cfg.validate()?;
        if cfg.format().src_bits == 0 {
            return Err(SourcesError::NoSrcField);
        }
        Ok(SourcesDecoder {
            framer: Framer::new(),
            cfg,
            image,
            work_limit: DEFAULT_WORK_LIMIT,
            cores: Default::default(),
            errors: 0,
        })
    }

    /// As [`Decoder::set_work_limit`], for each source.
    pub fn set_work_limit(&mut self, halfwords: u64) {
        self.work_limit = halfwords.max(1);
        for c in self.cores.values_mut() {
            c.work_limit = self.work_limit;
        }
    }

    /// Decodes the next bytes of the stream.
    pub fn feed<S: FlowSink>(&mut self, chunk: &[u8], out: &mut S) {
        let bits = self.cfg.format().src_bits;
        let (cores, cfg, image, limit, errors) = (
            &mut self.cores,
            &self.cfg,
            &mut self.image,
            self.work_limit,
            &mut self.errors,
        );
        self.framer.push(chunk, |fr| match fr {
            Frame::Message { offset, bytes } => match peek_src(bytes, bits) {
                Some(src) => {
                    let core = cores.entry(src).or_insert_with(|| {
                        let mut c = cfg.clone();
                        c.src_filter = Some(src);
                        let mut core = Core::new(c, Image::new());
                        core.work_limit = limit;
                        core
                    });
                    out.source(Some(src));
                    std::mem::swap(&mut core.image, image);
                    core.message(bytes, offset, out);
                    std::mem::swap(&mut core.image, image);
                }
                None => {
                    *errors += 1;
                    out.source(None);
                    out.event(&Event::Error {
                        offset,
                        message: format!(
                            "a message of {} bytes is too short for its {bits}-bit SRC field",
                            bytes.len()
                        ),
                    });
                }
            },
            Frame::Error { offset, message } => {
                *errors += 1;
                out.source(None);
                out.event(&Event::Error { offset, message });
            }
        });
    }

    /// The end of the stream (a partial message is reported).
    pub fn finish<S: FlowSink>(&mut self, out: &mut S) {
        let errors = &mut self.errors;
        self.framer.finish(|fr| {
            if let Frame::Error { offset, message } = fr {
                *errors += 1;
                out.source(None);
                out.event(&Event::Error { offset, message });
            }
        });
    }

    /// Bytes fed so far.
    pub fn bytes(&self) -> u64 {
        self.framer.pos()
    }

    /// The sources seen so far, in order, each with its statistics and, when the flow is
    /// being followed (trace on), its next pc.
    pub fn sources(&self) -> Vec<(u16, Stats, Option<u64>)> {
        self.cores
            .iter()
            .map(|(s, c)| (*s, c.stats, (c.state == State::On).then_some(c.pc)))
            .collect()
    }

    /// Errors that belong to no source.
    pub fn unattributed_errors(&self) -> u64 {
        self.errors
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::msg::{to_bytes, Body as B};
    use proptest::prelude::*;
    use rstest::rstest;

    // --- A tiny assembler -------------------------------------------------------------------

    fn i_type(op: u32, f3: u32, rd: u32, rs1: u32, imm: i32) -> u32 {
        ((imm as u32 & 0xfff) << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op
    }
    fn addi(rd: u32, rs1: u32, imm: i32) -> u32 {
        i_type(0x13, 0, rd, rs1, imm)
    }
    fn jalr(rd: u32, rs1: u32, imm: i32) -> u32 {
        i_type(0x67, 0, rd, rs1, imm)
    }
    fn branch(f3: u32, rs1: u32, rs2: u32, off: i32) -> u32 {
        let o = off as u32;
        ((o >> 12 & 1) << 31)
            | ((o >> 5 & 0x3f) << 25)
            | (rs2 << 20)
            | (rs1 << 15)
            | (f3 << 12)
            | ((o >> 1 & 0xf) << 8)
            | ((o >> 11 & 1) << 7)
            | 0x63
    }
    fn bne(rs1: u32, rs2: u32, off: i32) -> u32 {
        branch(1, rs1, rs2, off)
    }
    fn beq(rs1: u32, rs2: u32, off: i32) -> u32 {
        branch(0, rs1, rs2, off)
    }
    fn jal(rd: u32, off: i32) -> u32 {
        let o = off as u32;
        ((o >> 20 & 1) << 31)
            | ((o >> 1 & 0x3ff) << 21)
            | ((o >> 11 & 1) << 20)
            | ((o >> 12 & 0xff) << 12)
            | (rd << 7)
            | 0x6f
    }
    fn lui(rd: u32, imm20: u32) -> u32 {
        (imm20 << 12) | (rd << 7) | 0x37
    }
    fn auipc(rd: u32, imm20: u32) -> u32 {
        (imm20 << 12) | (rd << 7) | 0x17
    }
    /// c.j
    fn cj(off: i32) -> u16 {
        let o = off as u32;
        let imm = ((o >> 11 & 1) << 10)
            | ((o >> 4 & 1) << 9)
            | ((o >> 8 & 3) << 7)
            | ((o >> 10 & 1) << 6)
            | ((o >> 6 & 1) << 5)
            | ((o >> 7 & 1) << 4)
            | ((o >> 1 & 7) << 1)
            | (o >> 5 & 1);
        (0b101 << 13 | imm << 2 | 1) as u16
    }
    const ECALL: u32 = 0x0000_0073;
    const MRET: u32 = 0x3020_0073;
    const RET: u32 = 0x0000_8067;
    const C_NOP: u16 = 0x0001;
    const C_RET: u16 = 0x8082;
    const C_EBREAK: u16 = 0x9002;
    const RA: u32 = 1;
    const T0: u32 = 5;
    const T1: u32 = 6;
    const A0: u32 = 10;
    const A1: u32 = 11;

    /// Code at consecutive addresses.
    struct Asm {
        base: u64,
        b: Vec<u8>,
    }
    impl Asm {
        fn new(base: u64) -> Asm {
            Asm {
                base,
                b: Vec::new(),
            }
        }
        fn pc(&self) -> u64 {
            self.base + self.b.len() as u64
        }
        fn w(&mut self, x: u32) -> &mut Self {
            self.b.extend(x.to_le_bytes());
            self
        }
        fn h(&mut self, x: u16) -> &mut Self {
            self.b.extend(x.to_le_bytes());
            self
        }
        /// Pads with c.nop up to `addr`.
        fn at(&mut self, addr: u64) -> &mut Self {
            assert!(addr >= self.pc());
            while self.pc() < addr {
                self.h(C_NOP);
            }
            self
        }
        fn image(&self) -> Image {
            let mut i = Image::new();
            i.add_raw(self.base, self.b.clone()).unwrap();
            i
        }
    }

    #[test]
    fn assembler_matches_the_hart_decoder() {
        use iss::decode::decode;
        let d = decode(addi(A0, A0, -1));
        assert_eq!((d.op, d.rd, d.rs1, d.imm), (Op::Addi, 10, 10, -1));
        let d = decode(bne(A0, 0, -6));
        assert_eq!((d.op, d.rs1, d.imm), (Op::Bne, 10, -6));
        let d = decode(beq(A0, A1, 4094));
        assert_eq!((d.op, d.rs2, d.imm), (Op::Beq, 11, 4094));
        let d = decode(jal(RA, 0x12));
        assert_eq!((d.op, d.rd, d.imm), (Op::Jal, 1, 0x12));
        let d = decode(jal(0, -0x100000));
        assert_eq!(d.imm, -0x100000);
        let d = decode(jalr(0, T1, 0x20));
        assert_eq!((d.op, d.rd, d.rs1, d.imm), (Op::Jalr, 0, 6, 0x20));
        assert_eq!(decode(lui(T1, 2)).imm, 0x2000);
        assert_eq!(decode(auipc(T1, 1)).op, Op::Auipc);
        for off in [-2048, -6, 2, 4, 0x18, 2046] {
            let d = decode(cj(off) as u32);
            assert_eq!((d.op, d.len, d.imm), (Op::Jal, 2, off), "c.j {off}");
        }
        assert_eq!(decode(RET).op, Op::Jalr);
        assert_eq!(decode(MRET).op, Op::Mret);
        assert_eq!(decode(ECALL).op, Op::Ecall);
        assert_eq!(decode(C_EBREAK as u32).op, Op::Ebreak);
        assert_eq!(decode(C_RET as u32).rs1, 1);
    }

    // --- Streams ----------------------------------------------------------------------------

    const BASE: u64 = 0x8000_0000;

    fn btm() -> DecoderConfig {
        let mut c = DecoderConfig::default();
        c.control.tr_te_inst_mode = BTM;
        c
    }
    fn htm() -> DecoderConfig {
        DecoderConfig::default()
    }

    /// Messages to bytes (no SRC, no timestamps unless the format says; `tstamp` for all).
    fn stream_fmt(bodies: &[B], f: &Format, tstamps: &[u64]) -> Vec<u8> {
        let mut v = Vec::new();
        for (i, b) in bodies.iter().enumerate() {
            let m = Message {
                src: 0,
                body: b.clone(),
                tstamp: tstamps.get(i).copied(),
            };
            v.extend(to_bytes(&m, f));
        }
        v
    }
    fn stream(bodies: &[B]) -> Vec<u8> {
        stream_fmt(bodies, &Format::default(), &[])
    }
    /// Offsets of each message in `stream(bodies)`.
    fn offsets(bodies: &[B], f: &Format) -> Vec<u64> {
        let mut o = Vec::new();
        let mut at = 0;
        for b in bodies {
            o.push(at);
            at += to_bytes(
                &Message {
                    src: 0,
                    body: b.clone(),
                    tstamp: None,
                },
                f,
            )
            .len() as u64;
        }
        o
    }

    fn run_cfg(cfg: DecoderConfig, img: Image, bytes: &[u8]) -> Vec<Flow> {
        let mut d = Decoder::new(cfg, img).unwrap();
        let mut out = Vec::new();
        d.decode_all(bytes, &mut out);
        out
    }
    fn pcs(f: &[Flow]) -> Vec<u64> {
        f.iter()
            .filter_map(|x| match x {
                Flow::Pc(p) => Some(*p),
                _ => None,
            })
            .collect()
    }
    fn events(f: &[Flow]) -> Vec<Event> {
        f.iter()
            .filter_map(|x| match x {
                Flow::Event(e) => Some(e.clone()),
                _ => None,
            })
            .collect()
    }
    fn errors(f: &[Flow]) -> Vec<(u64, String)> {
        events(f)
            .into_iter()
            .filter_map(|e| match e {
                Event::Error { offset, message } => Some((offset, message)),
                _ => None,
            })
            .collect()
    }
    fn no_errors(f: &[Flow]) {
        assert_eq!(errors(f), vec![], "{f:x?}");
    }
    fn warnings(f: &[Flow]) -> Vec<(u64, Warning)> {
        events(f)
            .into_iter()
            .filter_map(|e| match e {
                Event::Warning { offset, kind, .. } => Some((offset, kind)),
                _ => None,
            })
            .collect()
    }
    fn sync(sync: u8, pc: u64) -> B {
        B::ProgTraceSync {
            sync,
            icnt: 0,
            faddr: pc >> 1,
        }
    }
    /// U-ADDR for `target`, updating the reference.
    fn ua(r: &mut u64, target: u64) -> u64 {
        let u = (*r ^ target) >> 1;
        *r = target;
        u
    }

    /// The program most tests use, at BASE:
    ///
    /// ```text
    /// 00: addi a0, x0, 3
    /// 04: addi a0, a0, -1     <- loop
    /// 08: c.nop
    /// 0a: bne a0, x0, 04
    /// 0e: jal ra, f (20)
    /// 12: c.nop
    /// 14: ecall               -> handler 28
    /// 18: c.j 00
    /// 1a..20: c.nop
    /// 20: f: addi a1, a1, 1
    /// 24: ret
    /// 28: handler: mret       -> 18
    /// ```
    fn prog() -> Asm {
        prog_at(BASE)
    }
    fn prog_at(base: u64) -> Asm {
        let mut a = Asm::new(base);
        a.w(addi(A0, 0, 3))
            .w(addi(A0, A0, -1))
            .h(C_NOP)
            .w(bne(A0, 0, -6))
            .w(jal(RA, 0x12))
            .h(C_NOP)
            .w(ECALL)
            .h(cj(-0x18))
            .at(base + 0x20)
            .w(addi(A1, A1, 1))
            .w(RET)
            .w(MRET);
        a
    }

    /// The pc flow of `prog` from 00: three loop iterations, the call, the ecall, the mret,
    /// the c.j back, and the first addi again.
    fn prog_flow() -> Vec<u64> {
        prog_flow_at(BASE)
    }
    fn prog_flow_at(base: u64) -> Vec<u64> {
        [
            0x00, 0x04, 0x08, 0x0a, 0x04, 0x08, 0x0a, 0x04, 0x08, 0x0a, 0x0e, 0x20, 0x24, 0x12,
            0x14, 0x28, 0x18, 0x00,
        ]
        .iter()
        .map(|x| base + x)
        .collect()
    }

    fn prog_btm() -> Vec<B> {
        prog_btm_with(B::DirectBranch { icnt: 7 }, BASE)
    }
    /// prog's BTM messages with `first` for the first taken branch, and `r` the address
    /// reference after it.
    fn prog_btm_with(first: B, mut r: u64) -> Vec<B> {
        vec![
            sync(sync::EXIT_DEBUG, BASE),
            first,
            B::DirectBranch { icnt: 5 },
            B::IndirectBranch {
                btype: btype::INDIRECT,
                icnt: 11,
                uaddr: ua(&mut r, BASE + 0x12),
            },
            B::IndirectBranch {
                btype: btype::EXCEPTION,
                icnt: 3,
                uaddr: ua(&mut r, BASE + 0x28),
            },
            B::IndirectBranch {
                btype: btype::INDIRECT,
                icnt: 2,
                uaddr: ua(&mut r, BASE + 0x18),
            },
            B::ProgTraceCorrelation {
                evcode: evcode::ENTER_DEBUG,
                cdf: 0,
                icnt: 3,
                hist: None,
            },
        ]
    }

    fn prog_htm() -> Vec<B> {
        prog_htm_at(BASE)
    }
    fn prog_htm_at(base: u64) -> Vec<B> {
        let mut r = base;
        vec![
            sync(sync::EXIT_DEBUG, base),
            B::IndirectBranchHist {
                btype: btype::INDIRECT,
                icnt: 23,
                uaddr: ua(&mut r, base + 0x12),
                hist: 0b1110,
            },
            B::IndirectBranch {
                btype: btype::EXCEPTION,
                icnt: 3,
                uaddr: ua(&mut r, base + 0x28),
            },
            B::IndirectBranchHist {
                btype: btype::INDIRECT,
                icnt: 2,
                uaddr: ua(&mut r, base + 0x18),
                hist: 1,
            },
            B::ProgTraceCorrelation {
                evcode: evcode::ENTER_DEBUG,
                cdf: 1,
                icnt: 3,
                hist: Some(1),
            },
        ]
    }

    fn prog_events(bodies: &[B]) -> Vec<Event> {
        let o = offsets(bodies, &Format::default());
        let trap = bodies
            .iter()
            .position(|b| {
                matches!(
                    b,
                    B::IndirectBranch {
                        btype: btype::EXCEPTION,
                        ..
                    }
                )
            })
            .unwrap();
        vec![
            Event::Sync {
                offset: 0,
                sync: sync::EXIT_DEBUG,
                pc: BASE,
                time: None,
            },
            Event::Trap {
                offset: o[trap],
                kind: TrapKind::Exception,
                handler: BASE + 0x28,
            },
            Event::TraceOff {
                offset: *o.last().unwrap(),
                evcode: evcode::ENTER_DEBUG,
            },
        ]
    }

    #[rstest]
    #[case::btm(btm(), prog_btm())]
    #[case::htm(htm(), prog_htm())]
    fn basic_flow(#[case] cfg: DecoderConfig, #[case] bodies: Vec<B>) {
        let f = run_cfg(cfg, prog().image(), &stream(&bodies));
        no_errors(&f);
        assert_eq!(pcs(&f), prog_flow());
        assert_eq!(events(&f), prog_events(&bodies));
        // Every instruction comes before the event that follows it: the trap after the ecall.
        let trap = f
            .iter()
            .position(|x| matches!(x, Flow::Event(Event::Trap { .. })))
            .unwrap();
        assert_eq!(f[trap - 1], Flow::Pc(BASE + 0x14));
    }

    #[rstest]
    fn chunked_and_idle_input_gives_the_same_flow(
        #[values(1, 2, 3, 7, 1000)] chunk: usize,
        #[values(0, 1, 5)] idles: usize,
    ) {
        let bodies = prog_htm();
        let mut bytes = vec![0xff; idles];
        for b in &bodies {
            bytes.extend(stream(std::slice::from_ref(b)));
            bytes.extend(std::iter::repeat_n(0xff, idles));
        }
        let mut d = Decoder::new(htm(), prog().image()).unwrap();
        let mut out = Vec::new();
        for c in bytes.chunks(chunk) {
            d.feed(c, &mut out);
        }
        d.finish(&mut out);
        no_errors(&out);
        assert_eq!(pcs(&out), prog_flow());
        // Offsets count the idle bytes.
        let sync_at = idles as u64;
        assert!(matches!(events(&out)[0], Event::Sync { offset, .. } if offset == sync_at));
        assert_eq!(d.stats().instructions, prog_flow().len() as u64);
        assert_eq!(d.stats().messages, bodies.len() as u64);
        assert_eq!(d.stats().bytes, bytes.len() as u64);
    }

    /// ProgTraceCorrelation EVCODE 0 for a mode.
    fn end(cfg: &DecoderConfig, icnt: u64) -> B {
        B::ProgTraceCorrelation {
            evcode: evcode::ENTER_DEBUG,
            cdf: cfg.htm() as u8,
            icnt,
            hist: cfg.htm().then_some(1),
        }
    }
    fn at(offs: &[u64]) -> Vec<u64> {
        offs.iter().map(|o| BASE + o).collect()
    }
    fn with<F: FnOnce(&mut DecoderConfig)>(mut c: DecoderConfig, f: F) -> DecoderConfig {
        f(&mut c);
        c
    }
    fn trace_offs(f: &[Flow]) -> usize {
        events(f)
            .iter()
            .filter(|e| matches!(e, Event::TraceOff { .. }))
            .count()
    }
    /// Asserts exactly one error, at `offset`, whose message contains `what`.
    fn one_error(f: &[Flow], offset: u64, what: &str) {
        let e = errors(f);
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].0, offset, "{e:?}");
        assert!(
            e[0].1.contains(what),
            "{:?} does not contain {what:?}",
            e[0].1
        );
    }

    // --- Implicit return ---------------------------------------------------------------------

    /// 00: jal ra, f(10); 04..10: c.nop; 10: f: addi a1,a1,1 (or addi ra,ra,0x3c); 14: ret;
    /// 40: c.nop
    fn call_prog(bump_ra: bool) -> Asm {
        let mut a = Asm::new(BASE);
        a.w(jal(RA, 0x10))
            .at(BASE + 0x10)
            .w(if bump_ra {
                addi(RA, RA, 0x3c)
            } else {
                addi(A1, A1, 1)
            })
            .w(RET)
            .at(BASE + 0x44);
        a
    }

    #[rstest]
    #[case::off(0, true)]
    #[case::counter(1, false)]
    #[case::partial(2, false)]
    #[case::full(3, false)]
    fn unreported_return(#[case] mode: u8, #[case] fails: bool) {
        let cfg = with(htm(), |c| c.control.tr_te_inst_implicit_return_mode = mode);
        let bodies = [sync(sync::EXIT_DEBUG, BASE), end(&cfg, 7)];
        let f = run_cfg(cfg, call_prog(false).image(), &stream(&bodies));
        if fails {
            one_error(
                &f,
                offsets(&bodies, &Format::default())[1],
                "uninferable jump at 0x80000014",
            );
        } else {
            no_errors(&f);
            assert_eq!(pcs(&f), at(&[0x00, 0x10, 0x14, 0x04]));
        }
    }

    #[rstest]
    #[case::full(3, 16, None)]
    #[case::partial16(2, 16, None)]
    #[case::partial2(2, 2, Some("predicts it"))]
    #[case::counter(1, 16, Some("predicts it"))]
    #[case::off(0, 16, None)]
    /// `err`: the encoder would have predicted this return, had its stack held the entry. With
    /// the encoder's depth known that is an error; with the depth assumed (the maximum, the
    /// default) it is what a shallower encoder writes: a warning and the reported target.
    /// (Before the decoder accepted shallower encoders, the default was an error too.)
    fn reported_mismatching_return(
        #[case] mode: u8,
        #[case] partial: u8,
        #[case] err: Option<&str>,
    ) {
        let cfg = with(htm(), |c| {
            c.control.tr_te_inst_implicit_return_mode = mode;
            c.partial_bits = partial;
        });
        let mut r = BASE;
        let bodies = [
            sync(sync::EXIT_DEBUG, BASE),
            B::IndirectBranch {
                btype: btype::INDIRECT,
                icnt: 6,
                uaddr: ua(&mut r, BASE + 0x40),
            },
            end(&cfg, 1),
        ];
        let f = run_cfg(cfg.clone(), call_prog(true).image(), &stream(&bodies));
        no_errors(&f);
        assert_eq!(pcs(&f), at(&[0x00, 0x10, 0x14, 0x40]));
        let o = offsets(&bodies, &Format::default());
        match err {
            None => assert_eq!(warnings(&f), vec![]),
            Some(e) => {
                assert_eq!(warnings(&f), vec![(o[1], Warning::ShallowReturnStack)]);
                let known = with(cfg, |c| c.implicit_return_depth_known = true);
                let f = run_cfg(known, call_prog(true).image(), &stream(&bodies));
                one_error(&f, o[1], e);
            }
        }
    }

    /// A return the stack predicts, reported: with the encoder's depth known an error (as it
    /// was always before); with the depth assumed, the reported target, one warning, and the
    /// stack emptied (the encoder's was empty), so the next reported return is no deviation.
    #[test]
    fn reported_return_that_matches_is_an_error_only_with_a_known_depth() {
        let cfg = with(htm(), |c| {
            c.control.tr_te_inst_implicit_return_mode = 3;
            c.implicit_return_depth_known = true;
        });
        let mut r = BASE;
        let bodies = [
            sync(sync::EXIT_DEBUG, BASE),
            B::IndirectBranch {
                btype: btype::INDIRECT,
                icnt: 6,
                uaddr: ua(&mut r, BASE + 0x04),
            },
        ];
        let f = run_cfg(cfg, call_prog(false).image(), &stream(&bodies));
        one_error(&f, offsets(&bodies, &Format::default())[1], "predicts it");
        // The depth assumed: the return to 04 is followed, then the c.nop at 04.
        let cfg = with(htm(), |c| c.control.tr_te_inst_implicit_return_mode = 3);
        let bodies = [bodies[0].clone(), bodies[1].clone(), end(&cfg, 1)];
        let f = run_cfg(cfg, call_prog(false).image(), &stream(&bodies));
        no_errors(&f);
        assert_eq!(pcs(&f), at(&[0x00, 0x10, 0x14, 0x04]));
        let o = offsets(&bodies, &Format::default());
        assert_eq!(warnings(&f), vec![(o[1], Warning::ShallowReturnStack)]);
        let msg = events(&f)
            .into_iter()
            .find_map(|e| match e {
                Event::Warning { message, .. } => Some(message),
                _ => None,
            })
            .unwrap();
        assert!(msg.contains("return at 0x80000014 to 0x80000004"), "{msg}");
        assert!(msg.contains("shallower"), "{msg}");
        assert!(msg.contains("--return-stack-depth"), "{msg}");
    }

    /// 00: jal ra, 20; 04: c.nop; 20: jal t0, 60; 24: ret; 60: jr t0 (a return through t0).
    fn nested_prog() -> Asm {
        let mut a = Asm::new(BASE);
        a.w(jal(RA, 0x20))
            .at(BASE + 0x20)
            .w(jal(T0, 0x40))
            .w(RET)
            .at(BASE + 0x60)
            .w(jalr(0, T0, 0));
        a
    }

    /// Depth 1: the call at 20 drops the entry of the call at 00, so the return at 24 finds
    /// the stack empty and is reported. With depth 2 (known to be the encoder's) the same
    /// stream is wrong; with the depth assumed (32, the default) it is a depth-1 encoder's
    /// stream: decoded, with a warning at the reported return.
    #[rstest]
    #[case::full_depth1(3, 1, false)]
    #[case::counter_depth1(1, 1, false)]
    #[case::full_depth2(3, 2, true)]
    #[case::counter_depth2(1, 2, true)]
    fn stack_overflow_drops_the_oldest(#[case] mode: u8, #[case] depth: u8, #[case] fails: bool) {
        let cfg = with(btm(), |c| {
            c.control.tr_te_inst_implicit_return_mode = mode;
            c.implicit_return_depth = depth;
            c.implicit_return_depth_known = true;
        });
        let mut r = BASE;
        let bodies = [
            sync(sync::EXIT_DEBUG, BASE),
            B::IndirectBranch {
                btype: btype::INDIRECT,
                icnt: 8,
                uaddr: ua(&mut r, BASE + 0x04),
            },
            end(&cfg, 1),
        ];
        let f = run_cfg(cfg.clone(), nested_prog().image(), &stream(&bodies));
        let o = offsets(&bodies, &Format::default());
        if fails {
            one_error(&f, o[1], "predicts it");
        } else {
            no_errors(&f);
            assert_eq!(pcs(&f), at(&[0x00, 0x20, 0x60, 0x24, 0x04]));
            assert_eq!(warnings(&f), vec![]);
        }
        let assumed = with(cfg, |c| {
            c.implicit_return_depth = 32;
            c.implicit_return_depth_known = false;
        });
        let f = run_cfg(assumed, nested_prog().image(), &stream(&bodies));
        no_errors(&f);
        assert_eq!(pcs(&f), at(&[0x00, 0x20, 0x60, 0x24, 0x04]));
        assert_eq!(warnings(&f), vec![(o[1], Warning::ShallowReturnStack)]);
    }

    /// 00: jal t0, 10 (push 04); 04: c.nop; 06: c.jr ra; 10: jalr ra, t0 (swap: to 04,
    /// push 14); 14: c.nop.
    fn swap_prog() -> Asm {
        let mut a = Asm::new(BASE);
        a.w(jal(T0, 0x10))
            .h(C_NOP)
            .h(C_RET)
            .at(BASE + 0x10)
            .w(jalr(RA, T0, 0))
            .h(C_NOP);
        a
    }

    #[test]
    fn coroutine_swap_pops_then_pushes() {
        let a = swap_prog();
        let cfg = with(htm(), |c| c.control.tr_te_inst_implicit_return_mode = 3);
        let bodies = [sync(sync::EXIT_DEBUG, BASE), end(&cfg, 7)];
        let f = run_cfg(cfg, a.image(), &stream(&bodies));
        no_errors(&f);
        assert_eq!(pcs(&f), at(&[0x00, 0x10, 0x04, 0x06, 0x14]));
    }

    /// A co-routine swap the encoder reports although this stack predicts it (the encoder's,
    /// shallower, was empty): the stack is emptied, then holds the swap's link, as the
    /// encoder's does, so the return after it is inferred. (The link used to be pushed first
    /// and emptied with the rest: the next return was an error.)
    #[test]
    fn a_reported_swap_keeps_its_link_after_a_shallow_stack() {
        let a = swap_prog();
        for mode in [1, 3] {
            let cfg = with(htm(), |c| c.control.tr_te_inst_implicit_return_mode = mode);
            let mut r = BASE;
            let bodies = [
                sync(sync::EXIT_DEBUG, BASE),
                B::IndirectBranch {
                    btype: btype::INDIRECT,
                    icnt: 4,
                    uaddr: ua(&mut r, BASE + 0x04),
                },
                end(&cfg, 3),
            ];
            let f = run_cfg(cfg, a.image(), &stream(&bodies));
            no_errors(&f);
            assert_eq!(pcs(&f), at(&[0x00, 0x10, 0x04, 0x06, 0x14]), "mode {mode}");
            let o = offsets(&bodies, &Format::default());
            assert_eq!(warnings(&f), vec![(o[1], Warning::ShallowReturnStack)]);
        }
    }

    #[test]
    fn reset_sync_empties_the_stack() {
        // The call pushes 04; SYNC 2 at f empties the stack; the return must then be reported.
        let cfg = with(htm(), |c| c.control.tr_te_inst_implicit_return_mode = 3);
        let bodies = [
            sync(sync::EXIT_DEBUG, BASE),
            B::ProgTraceSync {
                sync: sync::PERIODIC,
                icnt: 2,
                faddr: (BASE + 0x10) >> 1,
            },
            end(&cfg, 5),
        ];
        let f = run_cfg(cfg.clone(), call_prog(false).image(), &stream(&bodies));
        one_error(
            &f,
            offsets(&bodies, &Format::default())[2],
            "return stack is empty",
        );
        // SYNC 0 does not reset it.
        let bodies = [
            sync(sync::EXIT_DEBUG, BASE),
            B::ProgTraceSync {
                sync: sync::EXTERNAL_TRIGGER,
                icnt: 2,
                faddr: (BASE + 0x10) >> 1,
            },
            end(&cfg, 5),
        ];
        let f = run_cfg(cfg, call_prog(false).image(), &stream(&bodies));
        no_errors(&f);
        assert_eq!(pcs(&f), at(&[0x00, 0x10, 0x14, 0x04]));
    }

    // --- Sequential jumps --------------------------------------------------------------------

    /// 1000: lui t1, 2 (or c.lui); jalr x0, 4(t1) -> 2004: auipc t1, 0; jalr x0, 0x10(t1)
    /// -> 2014: c.nop.
    fn seq_image(c_lui: bool) -> Image {
        let mut a = Asm::new(0x1000);
        if c_lui {
            a.h(0x6309); // c.lui t1, 2
        } else {
            a.w(lui(T1, 2));
        }
        a.w(jalr(0, T1, 4));
        let mut b = Asm::new(0x2000);
        b.at(0x2004)
            .w(auipc(T1, 0))
            .w(jalr(0, T1, 0x10))
            .at(0x2014)
            .h(C_NOP);
        let mut img = a.image();
        img.add_raw(0x2000, b.b.clone()).unwrap();
        img
    }

    #[rstest]
    #[case::lui(false, true, None)]
    #[case::c_lui(true, true, None)]
    #[case::off(false, false, Some("uninferable jump at 0x1004"))]
    fn sequential_jump(#[case] c_lui: bool, #[case] on: bool, #[case] err: Option<&str>) {
        let cfg = with(btm(), |c| c.control.tr_te_inst_en_sequential_jump = on);
        let first = if c_lui { 1 } else { 2 };
        let bodies = [
            sync(sync::EXIT_DEBUG, 0x1000),
            end(&cfg, first + 2 + 2 + 2 + 1),
        ];
        let f = run_cfg(cfg, seq_image(c_lui), &stream(&bodies));
        match err {
            None => {
                no_errors(&f);
                assert_eq!(
                    pcs(&f),
                    vec![0x1000, 0x1000 + first * 2, 0x2004, 0x2008, 0x2014]
                );
            }
            Some(e) => one_error(&f, offsets(&bodies, &Format::default())[1], e),
        }
    }

    #[test]
    fn sequential_jump_window_broken_by_a_message() {
        let cfg = with(btm(), |c| c.control.tr_te_inst_en_sequential_jump = true);
        let mut r = 0x1000;
        let bodies = [
            sync(sync::EXIT_DEBUG, 0x1000),
            B::ResourceFull {
                rcode: rcode::ICNT_OVERFLOW,
                rdata: 2,
                hrepeat: None,
            },
            B::IndirectBranch {
                btype: btype::INDIRECT,
                icnt: 2,
                uaddr: ua(&mut r, 0x2004),
            },
            end(&cfg, 5),
        ];
        let f = run_cfg(cfg.clone(), seq_image(false), &stream(&bodies));
        no_errors(&f);
        assert_eq!(pcs(&f), vec![0x1000, 0x1004, 0x2004, 0x2008, 0x2014]);
        // Reporting a jump the decoder can infer is an error.
        let mut r = 0x1000;
        let bodies = [
            sync(sync::EXIT_DEBUG, 0x1000),
            B::IndirectBranch {
                btype: btype::INDIRECT,
                icnt: 4,
                uaddr: ua(&mut r, 0x2004),
            },
        ];
        let f = run_cfg(cfg, seq_image(false), &stream(&bodies));
        one_error(
            &f,
            offsets(&bodies, &Format::default())[1],
            "sequentially inferable jump at 0x1004 is reported",
        );
    }

    #[test]
    fn sequential_jump_does_not_apply_to_returns_under_implicit_return() {
        // 1000: auipc t0, 0; 1004: jr 0x10(t0) (rs1 = t0, a link register: a return).
        let mut a = Asm::new(0x1000);
        a.w(auipc(T0, 0)).w(jalr(0, T0, 0x10)).at(0x1010).h(C_NOP);
        let seq = with(btm(), |c| c.control.tr_te_inst_en_sequential_jump = true);
        let both = with(seq.clone(), |c| {
            c.control.tr_te_inst_implicit_return_mode = 3
        });
        let unreported = [sync(sync::EXIT_DEBUG, 0x1000), end(&btm(), 5)];
        let f = run_cfg(seq.clone(), a.image(), &stream(&unreported));
        no_errors(&f);
        assert_eq!(pcs(&f), vec![0x1000, 0x1004, 0x1010]);
        let f = run_cfg(both.clone(), a.image(), &stream(&unreported));
        one_error(
            &f,
            offsets(&unreported, &Format::default())[1],
            "the return at 0x1004 is not reported",
        );
        let mut r = 0x1000;
        let reported = [
            sync(sync::EXIT_DEBUG, 0x1000),
            B::IndirectBranch {
                btype: btype::INDIRECT,
                icnt: 4,
                uaddr: ua(&mut r, 0x1010),
            },
            end(&btm(), 1),
        ];
        let f = run_cfg(both, a.image(), &stream(&reported));
        no_errors(&f);
        assert_eq!(pcs(&f), vec![0x1000, 0x1004, 0x1010]);
    }

    // --- RepeatBranch ------------------------------------------------------------------------

    /// 00: addi a0, x0, 4; 04: addi a0, a0, -1; 08: bne a0, x0, 04; 0c: c.nop
    fn loop_prog() -> Asm {
        let mut a = Asm::new(BASE);
        a.w(addi(A0, 0, 4))
            .w(addi(A0, A0, -1))
            .w(bne(A0, 0, -4))
            .h(C_NOP)
            // 0e: c.nop; 10: handler loop: c.nop; 12: ecall (to 10).
            .h(C_NOP)
            .h(C_NOP)
            .w(ECALL)
            .h(C_NOP);
        a
    }

    fn repeat_cfg() -> DecoderConfig {
        with(btm(), |c| c.control.tr_te_inst_en_repeat_branch = true)
    }

    #[test]
    fn repeat_branch_repeats_a_direct_branch() {
        let bodies = [
            sync(sync::EXIT_DEBUG, BASE),
            B::DirectBranch { icnt: 6 },
            B::DirectBranch { icnt: 4 },
            B::RepeatBranch { bcnt: 1 },
            end(&btm(), 5),
        ];
        let f = run_cfg(repeat_cfg(), loop_prog().image(), &stream(&bodies));
        no_errors(&f);
        assert_eq!(
            pcs(&f),
            at(&[0x00, 0x04, 0x08, 0x04, 0x08, 0x04, 0x08, 0x04, 0x08, 0x0c])
        );
        // Not enabled, or in HTM: a configuration mismatch.
        let f = run_cfg(btm(), loop_prog().image(), &stream(&bodies));
        one_error(
            &f,
            offsets(&bodies, &Format::default())[3],
            "trTeInstEnRepeatBranch is off",
        );
    }

    #[test]
    fn repeat_branch_repeats_an_indirect_branch_with_zero_uaddr() {
        let h = BASE + 0x10;
        let bodies = [
            sync(sync::EXIT_DEBUG, h),
            B::IndirectBranch {
                btype: btype::EXCEPTION,
                icnt: 3,
                uaddr: 0,
            },
            B::RepeatBranch { bcnt: 2 },
            end(&btm(), 1),
        ];
        let f = run_cfg(repeat_cfg(), loop_prog().image(), &stream(&bodies));
        no_errors(&f);
        assert_eq!(pcs(&f), [h, h + 2, h, h + 2, h, h + 2, h].to_vec());
        let o = offsets(&bodies, &Format::default());
        let traps: Vec<u64> = events(&f)
            .iter()
            .filter_map(|e| match e {
                Event::Trap {
                    offset, handler, ..
                } if *handler == h => Some(*offset),
                _ => None,
            })
            .collect();
        assert_eq!(traps, vec![o[1], o[2], o[2]]);
    }

    #[rstest]
    #[case::first(vec![sync(sync::EXIT_DEBUG, BASE), B::RepeatBranch { bcnt: 1 }], 1, "does not follow")]
    #[case::zero(vec![sync(sync::EXIT_DEBUG, BASE), B::DirectBranch { icnt: 6 }, B::RepeatBranch { bcnt: 0 }], 2, "B-CNT 0")]
    #[case::after_other(vec![sync(sync::EXIT_DEBUG, BASE), B::DirectBranch { icnt: 6 }, B::Ownership { process: 0xe }, B::RepeatBranch { bcnt: 1 }], 3, "does not follow")]
    #[case::nonzero_uaddr(vec![sync(sync::EXIT_DEBUG, BASE + 0x10), B::IndirectBranch { btype: btype::EXCEPTION, icnt: 3, uaddr: 1 }, B::RepeatBranch { bcnt: 1 }], 1, "")]
    fn repeat_branch_errors(#[case] bodies: Vec<B>, #[case] at_msg: usize, #[case] what: &str) {
        let f = run_cfg(repeat_cfg(), loop_prog().image(), &stream(&bodies));
        let o = offsets(&bodies, &Format::default());
        if what.is_empty() {
            // U-ADDR 1 sends the handler elsewhere: the error is the repeat (or the target).
            assert!(!errors(&f).is_empty());
        } else {
            one_error(&f, o[at_msg], what);
        }
    }

    fn run_limited(cfg: DecoderConfig, img: Image, bytes: &[u8], limit: u64) -> Vec<Flow> {
        let mut d = Decoder::new(cfg, img).unwrap();
        d.set_work_limit(limit);
        let mut out = Vec::new();
        d.decode_all(bytes, &mut out);
        out
    }

    /// A corrupt RepeatBranch asked for 0x3fffffdd repetitions (two billion pcs from a
    /// 1,260-byte stream): a count whose walk exceeds the work limit is an error at the
    /// message's offset, reported before anything of it is walked; decoding resumes at the
    /// next sync. Raising the limit decodes it.
    #[test]
    fn implausible_repeat_counts_are_errors() {
        let bodies = [
            sync(sync::EXIT_DEBUG, BASE),
            B::DirectBranch { icnt: 6 },
            B::DirectBranch { icnt: 4 },
            B::RepeatBranch { bcnt: 0x3fff_ffdd },
            sync(sync::EXIT_DEBUG, BASE),
            B::DirectBranch { icnt: 6 },
            end(&btm(), 5),
        ];
        let bytes = stream(&bodies);
        let o = offsets(&bodies, &Format::default());
        let f = run_cfg(repeat_cfg(), loop_prog().image(), &bytes);
        one_error(&f, o[3], "B-CNT 1073741789 repetitions of I-CNT 4");
        assert!(errors(&f)[0]
            .1
            .contains("work limit of 16777216 half-words"));
        assert!(errors(&f)[0].1.contains("--work-limit"));
        // The two DirectBranches, then after the sync the third one and the end.
        assert_eq!(pcs(&f).len(), 3 + 2 + 3 + 3);
        // The same under a lower limit for a plausible count, and no error when raised.
        let small = [
            sync(sync::EXIT_DEBUG, BASE),
            B::DirectBranch { icnt: 6 },
            B::DirectBranch { icnt: 4 },
            B::RepeatBranch { bcnt: 100 },
        ];
        let f = run_limited(repeat_cfg(), loop_prog().image(), &stream(&small), 399);
        one_error(
            &f,
            offsets(&small, &Format::default())[3],
            "work limit of 399",
        );
        let f = run_limited(repeat_cfg(), loop_prog().image(), &stream(&small), 400);
        no_errors(&f);
        assert_eq!(pcs(&f).len(), 3 + 2 + 200);
        // Repeated traps with I-CNT 0 walk nothing but each is reported: they count too.
        let traps = [
            sync(sync::EXIT_DEBUG, BASE + 0x10),
            B::IndirectBranch {
                btype: btype::EXCEPTION,
                icnt: 0,
                uaddr: 0,
            },
            B::RepeatBranch { bcnt: 0xffff_ffff },
        ];
        let f = run_cfg(repeat_cfg(), loop_prog().image(), &stream(&traps));
        let e = errors(&f);
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].0, offsets(&traps, &Format::default())[2]);
        assert!(f.len() < 10, "{} items", f.len());
    }

    /// The same for HREPEAT: the first repetition tells what all of them walk.
    #[test]
    fn implausible_history_repeats_are_errors() {
        let cfg = with(htm(), |c| c.control.tr_te_inst_en_repeated_history = true);
        // From 00: addi, addi, bne (taken, 6 half-words), then 04: addi, bne (4) each time.
        let bodies = [
            sync(sync::EXIT_DEBUG, BASE),
            rf(rcode::HIST_REPEAT, 0b11, Some(0xffff_fff0)),
        ];
        let f = run_cfg(cfg.clone(), loop_prog().image(), &stream(&bodies));
        one_error(
            &f,
            offsets(&bodies, &Format::default())[1],
            "HREPEAT 4294967280 repetitions (the first walked 6 half-words)",
        );
        assert_eq!(pcs(&f), at(&[0x00, 0x04, 0x08]));
        let fine = [
            sync(sync::EXIT_DEBUG, BASE),
            rf(rcode::HIST_REPEAT, 0b11, Some(3)),
        ];
        let f = run_limited(cfg, loop_prog().image(), &stream(&fine), 14);
        no_errors(&f);
        assert_eq!(pcs(&f).len(), 3 + 2 + 2);
    }

    /// A walk that never meets the branch its HIST bit needs (a `j .` loop) stops at the
    /// work limit, not after 2^22 half-words.
    #[test]
    fn hist_walks_stop_at_the_work_limit() {
        let mut a = Asm::new(BASE);
        a.h(cj(0));
        let bodies = [
            sync(sync::EXIT_DEBUG, BASE),
            rf(rcode::HIST_OVERFLOW, 0b11, None),
        ];
        let f = run_limited(htm(), a.image(), &stream(&bodies), 1000);
        one_error(
            &f,
            offsets(&bodies, &Format::default())[1],
            "work limit of 1000",
        );
        assert_eq!(pcs(&f).len(), 1000);
    }

    /// RepeatBranch after a U-ADDR that is not 0 (the errata: an encoder must not): applied
    /// again, XOR included, as a decoder does, with a warning. Here the ret of prog (U-ADDR
    /// 9, to 12) repeated goes to 00 after walking from 12 over the ecall: an error of the
    /// walk. (This was refused outright before, as "only U-ADDR 0 repeats".)
    #[test]
    fn repeat_branch_after_nonzero_uaddr_warns_and_applies_it_again() {
        let mut bodies = prog_btm();
        bodies.truncate(4);
        bodies.push(B::RepeatBranch { bcnt: 1 });
        let f = run_cfg(repeat_cfg(), prog().image(), &stream(&bodies));
        let o = offsets(&bodies, &Format::default());
        assert_eq!(warnings(&f), vec![(o[4], Warning::RepeatedUaddr)]);
        one_error(&f, o[4], "the ecall at 0x80000014 is not followed");
    }

    /// `00: jr t0` and `40: jr t0`, jumping to each other: one IndirectBranch with U-ADDR
    /// 0x20 (00 to 40) repeated twice goes 40 to 00 and 00 to 40, the XOR applied each time.
    #[rstest]
    #[case::btm(repeat_cfg())]
    #[case::htm(htm())]
    fn repeat_branch_applies_a_nonzero_uaddr_on_every_repetition(#[case] cfg: DecoderConfig) {
        let mut a = Asm::new(BASE);
        a.w(jalr(0, T0, 0)).at(BASE + 0x40).w(jalr(0, T0, 0));
        let bodies = [
            sync(sync::EXIT_DEBUG, BASE),
            B::IndirectBranch {
                btype: btype::INDIRECT,
                icnt: 2,
                uaddr: 0x20,
            },
            B::RepeatBranch { bcnt: 2 },
            end(&cfg, 0),
        ];
        let f = run_cfg(cfg, a.image(), &stream(&bodies));
        no_errors(&f);
        assert_eq!(pcs(&f), at(&[0x00, 0x40, 0x00]));
        let o = offsets(&bodies, &Format::default());
        assert_eq!(warnings(&f), vec![(o[2], Warning::RepeatedUaddr)]);
    }

    /// `00: bne a0, x0, 08; 04: c.nop; 06: c.nop; 08: jr t0` (t0 = 00): every iteration is
    /// IndirectBranchHist I-CNT 4, HIST 0b11 (taken), U-ADDR 0. NexRv (`-rpt 1`) sends the
    /// repetitions as RepeatBranch; N-Trace 7.11 allows it (same I-CNT, HIST and target), so
    /// it is decoded without a warning, trTeInstEnRepeatBranch or not. A not-taken HIST
    /// repeated walks the c.nops each time.
    #[rstest]
    #[case::taken(0b11, 4, &[0x00, 0x08])]
    #[case::not_taken(0b10, 6, &[0x00, 0x04, 0x06, 0x08])]
    fn repeat_branch_repeats_an_indirect_branch_hist_in_htm(
        #[case] hist: u64,
        #[case] icnt: u64,
        #[case] once: &[u64],
    ) {
        let mut a = Asm::new(BASE);
        a.w(bne(A0, 0, 8)).h(C_NOP).h(C_NOP).w(jalr(0, T0, 0));
        let bodies = [
            sync(sync::EXIT_DEBUG, BASE),
            B::IndirectBranchHist {
                btype: btype::INDIRECT,
                icnt,
                uaddr: 0,
                hist,
            },
            B::RepeatBranch { bcnt: 2 },
            end(&htm(), 0),
        ];
        let f = run_cfg(htm(), a.image(), &stream(&bodies));
        no_errors(&f);
        assert_eq!(pcs(&f), at(&once.repeat(3)));
        assert_eq!(warnings(&f), vec![]);
        assert_eq!(trace_offs(&f), 1);
        // Before the branch message (after a sync) there is nothing to repeat.
        let bad = [sync(sync::EXIT_DEBUG, BASE), B::RepeatBranch { bcnt: 1 }];
        let f = run_cfg(htm(), a.image(), &stream(&bad));
        one_error(
            &f,
            offsets(&bad, &Format::default())[1],
            "does not follow an IndirectBranchHist",
        );
    }

    /// B-TYPE 1 (exception or interrupt, the standard Nexus value N-Trace table 2 allows
    /// besides 2 and 3) decodes like 2: the ecall may end its walk. (It was refused before as
    /// "B-TYPE 1: this encoder reports exceptions as 2".)
    #[rstest]
    #[case::btm(btm(), prog_btm())]
    #[case::htm(htm(), prog_htm())]
    fn btype_1_is_a_trap(#[case] cfg: DecoderConfig, #[case] mut bodies: Vec<B>) {
        let trap = bodies
            .iter()
            .position(|b| {
                matches!(
                    b,
                    B::IndirectBranch {
                        btype: btype::EXCEPTION,
                        ..
                    }
                )
            })
            .unwrap();
        let mut want = prog_events(&bodies);
        if let B::IndirectBranch { btype, .. } = &mut bodies[trap] {
            *btype = 1;
        }
        if let Event::Trap { kind, .. } = &mut want[1] {
            *kind = TrapKind::ExceptionOrInterrupt;
        }
        let f = run_cfg(cfg, prog().image(), &stream(&bodies));
        no_errors(&f);
        assert_eq!(pcs(&f), prog_flow());
        assert_eq!(events(&f), want);
        assert_eq!(warnings(&f), vec![]);
    }

    /// NexRv ends an HTM trace whose HIST is empty with ProgTraceCorrelation CDF 0 (no HIST
    /// field); the errata want CDF 1 and HIST 1. Its I-CNT is walked (the flow's tail is
    /// kept), with a warning at its offset. (This was refused before, "CDF 0 in HTM", losing
    /// the tail.) A HIST the tail needs is then missing: an error.
    #[test]
    fn htm_correlation_with_cdf_0_keeps_the_tail() {
        let mut bodies = prog_htm();
        let last = bodies.len() - 1;
        bodies[last] = B::ProgTraceCorrelation {
            evcode: evcode::ENTER_DEBUG,
            cdf: 0,
            icnt: 3,
            hist: None,
        };
        let f = run_cfg(htm(), prog().image(), &stream(&bodies));
        no_errors(&f);
        assert_eq!(pcs(&f), prog_flow());
        assert_eq!(events(&f).last(), prog_events(&bodies).last());
        let o = offsets(&bodies, &Format::default());
        assert_eq!(
            warnings(&f),
            vec![(o[last], Warning::HtmCorrelationWithoutHist)]
        );
        // Trace stops right after the loop's first branch, which needs a HIST bit.
        let cut = [
            sync(sync::EXIT_DEBUG, BASE),
            B::ProgTraceCorrelation {
                evcode: evcode::ENTER_DEBUG,
                cdf: 0,
                icnt: 7,
                hist: None,
            },
        ];
        let f = run_cfg(htm(), prog().image(), &stream(&cut));
        one_error(
            &f,
            offsets(&cut, &Format::default())[1],
            "has no HIST bit left",
        );
    }

    // --- ResourceFull ------------------------------------------------------------------------

    fn rf(rcode: u8, rdata: u64, hrepeat: Option<u64>) -> B {
        B::ResourceFull {
            rcode,
            rdata,
            hrepeat,
        }
    }

    /// prog_htm with the first HIST bits sent ahead in ResourceFull messages.
    fn htm_with_rf(pre: Vec<B>, icnt: u64, hist: u64) -> Vec<B> {
        let mut b = prog_htm();
        if let B::IndirectBranchHist {
            icnt: i, hist: h, ..
        } = &mut b[1]
        {
            *i = icnt;
            *h = hist;
        }
        for (k, m) in pre.into_iter().enumerate() {
            b.insert(1 + k, m);
        }
        b
    }

    #[rstest]
    #[case::rcode1(htm(), htm_with_rf(vec![rf(rcode::HIST_OVERFLOW, 0b111, None)], 23, 0b10))]
    #[case::rcode1_twice(htm(), htm_with_rf(vec![rf(rcode::HIST_OVERFLOW, 0b11, None), rf(rcode::HIST_OVERFLOW, 0b11, None)], 23, 0b10))]
    #[case::rcode2(with(htm(), |c| c.control.tr_te_inst_en_repeated_history = true), htm_with_rf(vec![rf(rcode::HIST_REPEAT, 0b11, Some(2))], 23, 0b10))]
    #[case::rcode2_all(with(htm(), |c| c.control.tr_te_inst_en_repeated_history = true), htm_with_rf(vec![rf(rcode::HIST_REPEAT, 0b11, Some(2)), rf(rcode::HIST_OVERFLOW, 0b10, None)], 23, 1))]
    #[case::rcode0_btm(btm(), {
        let mut b = prog_btm();
        b[1] = B::DirectBranch { icnt: 3 };
        b.insert(1, rf(rcode::ICNT_OVERFLOW, 4, None));
        b
    })]
    fn resource_full(#[case] cfg: DecoderConfig, #[case] bodies: Vec<B>) {
        let f = run_cfg(cfg, prog().image(), &stream(&bodies));
        no_errors(&f);
        assert_eq!(pcs(&f), prog_flow());
    }

    #[rstest]
    #[case::rcode2_off(htm(), htm_with_rf(vec![rf(rcode::HIST_REPEAT, 0b11, Some(2))], 23, 0b10), 1, "trTeInstEnRepeatedHistory is off")]
    #[case::hrepeat1(with(htm(), |c| c.control.tr_te_inst_en_repeated_history = true), htm_with_rf(vec![rf(rcode::HIST_REPEAT, 0b11, Some(1))], 23, 0b10), 1, "HREPEAT 1")]
    #[case::rcode1_btm(btm(), vec![sync(sync::EXIT_DEBUG, BASE), rf(rcode::HIST_OVERFLOW, 0b11, None)], 1, "HIST overflow in BTM")]
    #[case::rcode3(htm(), vec![sync(sync::EXIT_DEBUG, BASE), rf(3, 0b11, None)], 1, "RCODE 3 is reserved")]
    #[case::empty_hist(htm(), vec![sync(sync::EXIT_DEBUG, BASE), rf(rcode::HIST_OVERFLOW, 1, None)], 1, "no branch bit")]
    #[case::icnt_less(htm(), htm_with_rf(vec![rf(rcode::HIST_OVERFLOW, 0b111, None)], 10, 0b10), 2, "less than the 12 half-words")]
    #[case::hist_reaches_jump(htm(), vec![sync(sync::EXIT_DEBUG, BASE), rf(rcode::HIST_OVERFLOW, 0b1000, None)], 1, "HIST walk reaches the uninferable jump at 0x80000024")]
    #[case::icnt_mid_insn(btm(), vec![sync(sync::EXIT_DEBUG, BASE), rf(rcode::ICNT_OVERFLOW, 3, None)], 1, "middle of the 32-bit instruction at 0x80000004")]
    fn resource_full_errors(
        #[case] cfg: DecoderConfig,
        #[case] bodies: Vec<B>,
        #[case] at_msg: usize,
        #[case] what: &str,
    ) {
        let f = run_cfg(cfg, prog().image(), &stream(&bodies));
        one_error(&f, offsets(&bodies, &Format::default())[at_msg], what);
    }

    /// The walk's and the messages' errors are types carrying their values (the pc, the
    /// count, the field); the event at the message's byte offset is the message's name and
    /// the error's text.
    #[test]
    fn message_errors_carry_their_values() {
        use MessageError as E;
        let cases: Vec<(DecoderConfig, Image, Vec<B>, usize, MessageError)> = vec![
            (
                btm(),
                prog().image(),
                vec![
                    sync(sync::EXIT_DEBUG, BASE),
                    rf(rcode::ICNT_OVERFLOW, 3, None),
                ],
                1,
                E::IcntMidInstruction(BASE + 4),
            ),
            (
                htm(),
                prog().image(),
                vec![sync(sync::EXIT_DEBUG, BASE), rf(3, 0b11, None)],
                1,
                E::ReservedRcode(3),
            ),
            (
                htm(),
                prog().image(),
                vec![
                    sync(sync::EXIT_DEBUG, BASE),
                    rf(rcode::HIST_OVERFLOW, 0b1000, None),
                ],
                1,
                E::JumpBeforeEnd {
                    walk: Walk::Hist,
                    pc: BASE + 0x24,
                },
            ),
            (
                repeat_cfg(),
                loop_prog().image(),
                vec![
                    sync(sync::EXIT_DEBUG, BASE),
                    B::DirectBranch { icnt: 6 },
                    B::RepeatBranch { bcnt: 0 },
                ],
                2,
                E::Bcnt(0),
            ),
            (
                repeat_cfg(),
                loop_prog().image(),
                vec![sync(sync::EXIT_DEBUG, BASE), B::RepeatBranch { bcnt: 1 }],
                1,
                E::NothingToRepeat { htm: false },
            ),
        ];
        for (cfg, image, bodies, at, want) in cases {
            let f = run_cfg(cfg, image, &stream(&bodies));
            let o = offsets(&bodies, &Format::default());
            assert_eq!(
                errors(&f),
                vec![(o[at], format!("{}: {want}", bodies[at].name()))]
            );
        }
        // The texts are the ones the command line and its users' scripts see.
        assert_eq!(
            E::HistWalkOverLimit {
                walked: 7,
                limit: 16
            }
            .to_string(),
            "HIST walk: 7 half-words without finding the branches of all HIST bits: more than \
             the work limit of 16 half-words per message (implausible; raise the limit to \
             decode it: `ntrace decode --work-limit`)"
        );
        assert_eq!(
            E::Cdf { cdf: 0, htm: false }.to_string(),
            "CDF 0 in BTM (must be 0)"
        );
        assert_eq!(
            E::TrapWithoutException {
                pc: 0x10,
                ecall: false
            }
            .to_string(),
            "the ebreak at 0x10 is not followed by its exception message"
        );
    }

    // --- Addresses, SRC, timestamps -----------------------------------------------------------

    #[test]
    fn address_msb_extension() {
        let va = 0xffff_ffff_8000_0000u64;
        let mut img = prog().image();
        img.alias(va, BASE, 0x2c).unwrap();
        let bodies = prog_htm_at(va);
        let ext = Format {
            extend_addr_msb: true,
            ..Format::default()
        };
        let short = stream_fmt(&bodies, &ext, &[]);
        let long = stream(&bodies);
        assert_eq!(short.len() + 5, long.len());
        let cfg = with(htm(), |c| c.set_format(ext));
        let f = run_cfg(cfg.clone(), img.clone(), &short);
        no_errors(&f);
        assert_eq!(pcs(&f), prog_flow_at(va));
        // The long form decodes the same without extension, and the short one does not.
        let f = run_cfg(htm(), img.clone(), &long);
        no_errors(&f);
        assert_eq!(pcs(&f), prog_flow_at(va));
        let f = run_cfg(htm(), img, &short);
        assert!(
            errors(&f)[0].1.contains("outside the program image"),
            "{f:?}"
        );
    }

    #[rstest]
    #[case::follow_1(Some(1), None)]
    #[case::follow_2(Some(2), None)]
    #[case::single_source(None, Some("unexpected SRC 2"))]
    fn src_demultiplexing(#[case] filter: Option<u16>, #[case] err: Option<&str>) {
        let f2 = Format {
            src_bits: 2,
            ..Format::default()
        };
        let other = BASE + 0x100;
        let one = prog_htm();
        let two = [
            sync(sync::EXIT_DEBUG, other),
            B::ProgTraceCorrelation {
                evcode: evcode::ENTER_DEBUG,
                cdf: 1,
                icnt: 4,
                hist: Some(1),
            },
        ];
        let mut bytes = Vec::new();
        let mut offs2 = Vec::new();
        let push = |bytes: &mut Vec<u8>, src: u16, b: &B| {
            let m = Message {
                src,
                body: b.clone(),
                tstamp: None,
            };
            bytes.extend(to_bytes(&m, &f2));
        };
        push(&mut bytes, 1, &one[0]);
        offs2.push(bytes.len() as u64);
        push(&mut bytes, 2, &two[0]);
        push(&mut bytes, 1, &one[1]);
        push(&mut bytes, 2, &two[1]);
        for b in &one[2..] {
            push(&mut bytes, 1, b);
        }
        let mut a = prog();
        a.at(other).h(C_NOP).h(C_NOP).h(C_NOP).h(C_NOP);
        let cfg = with(htm(), |c| {
            c.set_format(f2);
            c.src_filter = filter;
        });
        let f = run_cfg(cfg, a.image(), &bytes);
        match (filter, err) {
            (Some(1), _) => {
                no_errors(&f);
                assert_eq!(pcs(&f), prog_flow());
            }
            (Some(_), _) => {
                no_errors(&f);
                assert_eq!(pcs(&f), vec![other, other + 2, other + 4, other + 6]);
            }
            (None, Some(e)) => {
                assert!(errors(&f)[0].1.contains(e), "{f:?}");
                assert_eq!(errors(&f)[0].0, offs2[0]);
            }
            _ => unreachable!(),
        }
    }

    /// A sink that records each pc and error with the source it was told.
    #[derive(Default)]
    struct Tagged {
        src: Option<u16>,
        pcs: Vec<(Option<u16>, u64)>,
        errors: Vec<(Option<u16>, u64, String)>,
    }

    impl FlowSink for Tagged {
        fn pc(&mut self, pc: u64) {
            self.pcs.push((self.src, pc));
        }
        fn event(&mut self, e: &Event) {
            if let Event::Error { offset, message } = e {
                self.errors.push((self.src, *offset, message.clone()));
            }
        }
        fn source(&mut self, src: Option<u16>) {
            self.src = src;
        }
    }

    /// Every source at once ([`SourcesDecoder`]): each source's flow is what a decoder
    /// following it alone gives, its pcs tagged with its SRC and interleaved as the messages
    /// are; an error in one source's message is that source's, at its offset in the whole
    /// stream, and leaves the other's flow alone; a stream without SRC is refused.
    #[test]
    fn sources_decoder_follows_every_source() {
        let f2 = Format {
            src_bits: 2,
            ..Format::default()
        };
        let other = BASE + 0x100;
        let one = prog_htm();
        let two = [
            sync(sync::EXIT_DEBUG, other),
            B::ProgTraceCorrelation {
                evcode: evcode::ENTER_DEBUG,
                cdf: 1,
                icnt: 4,
                hist: Some(1),
            },
        ];
        let push = |bytes: &mut Vec<u8>, src: u16, b: &B| {
            let m = Message {
                src,
                body: b.clone(),
                tstamp: None,
            };
            bytes.extend(to_bytes(&m, &f2));
        };
        let mut bytes = Vec::new();
        push(&mut bytes, 1, &one[0]);
        push(&mut bytes, 3, &two[0]);
        push(&mut bytes, 1, &one[1]);
        push(&mut bytes, 3, &two[1]);
        for b in &one[2..] {
            push(&mut bytes, 1, b);
        }
        let mut a = prog();
        a.at(other).h(C_NOP).h(C_NOP).h(C_NOP).h(C_NOP);
        let cfg = with(htm(), |c| c.set_format(f2));
        let mut d = SourcesDecoder::new(cfg.clone(), a.image()).unwrap();
        let mut t = Tagged::default();
        d.decode_all_for_test(&bytes, &mut t);
        assert!(t.errors.is_empty(), "{:?}", t.errors);
        let of = |s: u16| -> Vec<u64> {
            t.pcs
                .iter()
                .filter(|(src, _)| *src == Some(s))
                .map(|&(_, pc)| pc)
                .collect()
        };
        assert_eq!(of(1), prog_flow());
        assert_eq!(of(3), vec![other, other + 2, other + 4, other + 6]);
        assert_eq!(t.pcs.len(), prog_flow().len() + 4);
        let srcs: Vec<u16> = d.sources().iter().map(|s| s.0).collect();
        assert_eq!(srcs, vec![1, 3]);
        assert!(
            d.sources().iter().all(|s| s.2.is_none()),
            "both traces ended"
        );

        // A broken message of source 3 (an unknown TCODE 63 with SRC 3): source 3's error,
        // at its offset; source 1 decodes on.
        let mut broken = Vec::new();
        push(&mut broken, 1, &one[0]);
        let at = broken.len() as u64;
        broken.extend([(63 << 2), (3 << 2) | 3]);
        for b in &one[1..] {
            push(&mut broken, 1, b);
        }
        let mut d = SourcesDecoder::new(cfg.clone(), a.image()).unwrap();
        let mut t = Tagged::default();
        d.decode_all_for_test(&broken, &mut t);
        assert_eq!(t.errors.len(), 1, "{:?}", t.errors);
        assert_eq!((t.errors[0].0, t.errors[0].1), (Some(3), at));
        let ones: Vec<u64> = t.pcs.iter().map(|&(_, pc)| pc).collect();
        assert_eq!(ones, prog_flow());

        let e = SourcesDecoder::new(htm(), a.image()).err().unwrap();
        assert_eq!(e, SourcesError::NoSrcField);
        assert!(e.to_string().contains("no SRC field"), "{e}");
    }

    impl SourcesDecoder {
        fn decode_all_for_test<S: FlowSink>(&mut self, bytes: &[u8], out: &mut S) {
            // In two pieces, so that a message split across feeds is framed whole.
            let (a, b) = bytes.split_at(bytes.len() / 2 + 1);
            self.feed(a, out);
            self.feed(b, out);
            self.finish(out);
        }
    }

    #[test]
    fn timestamps_absolute_at_sync_relative_otherwise() {
        let ts = Format {
            timestamps: true,
            ..Format::default()
        };
        let bodies = prog_htm();
        let bytes = stream_fmt(&bodies, &ts, &[1000, 5, 7, 3, 10]);
        let cfg = with(htm(), |c| c.set_format(ts));
        let f = run_cfg(cfg.clone(), prog().image(), &bytes);
        no_errors(&f);
        assert_eq!(pcs(&f), prog_flow());
        let times: Vec<u64> = events(&f)
            .iter()
            .filter_map(|e| match e {
                Event::Timestamp { time, .. } => Some(*time),
                _ => None,
            })
            .collect();
        assert_eq!(times, vec![1000, 1005, 1012, 1015, 1025]);
        assert!(matches!(
            events(&f)[1],
            Event::Sync {
                time: Some(1000),
                ..
            }
        ));
        // A message without TSTAMP.
        let mut bytes = stream_fmt(&bodies[..2], &ts, &[1000, 5]);
        let at2 = bytes.len() as u64;
        bytes.extend(stream(&bodies[2..3]));
        let f = run_cfg(cfg, prog().image(), &bytes);
        one_error(&f, at2, "no TSTAMP");
        // TSTAMP when the format has none.
        let bytes = stream_fmt(&bodies, &ts, &[1000, 5, 7, 3, 10]);
        let f = run_cfg(htm(), prog().image(), &bytes);
        assert_eq!(errors(&f)[0].0, 0);
        assert!(errors(&f)[0].1.contains("timestamps are off"), "{f:?}");
    }

    // --- Lost trace, trace on/off, ownership ----------------------------------------------------

    #[test]
    fn error_message_then_sync_7() {
        let bodies = [
            sync(sync::EXIT_DEBUG, BASE),
            B::DirectBranch { icnt: 7 },
            B::Error {
                etype: msg::error::QUEUE_OVERRUN,
                ecode: msg::error::PROGRAM_TRACE_LOST,
            },
            B::DirectBranch { icnt: 99 },
            B::IndirectBranch {
                btype: btype::INDIRECT,
                icnt: 1,
                uaddr: 77,
            },
            sync(sync::FIFO_OVERRUN, BASE + 4),
            end(&btm(), 5),
        ];
        let o = offsets(&bodies, &Format::default());
        let f = run_cfg(btm(), prog().image(), &stream(&bodies));
        no_errors(&f);
        assert_eq!(pcs(&f), at(&[0x00, 0x04, 0x08, 0x0a, 0x04, 0x08, 0x0a]));
        assert_eq!(
            events(&f),
            vec![
                Event::Sync {
                    offset: 0,
                    sync: sync::EXIT_DEBUG,
                    pc: BASE,
                    time: None
                },
                Event::Lost {
                    offset: o[2],
                    etype: msg::error::QUEUE_OVERRUN,
                    ecode: msg::error::PROGRAM_TRACE_LOST
                },
                Event::Sync {
                    offset: o[5],
                    sync: sync::FIFO_OVERRUN,
                    pc: BASE + 4,
                    time: None
                },
                Event::TraceOff {
                    offset: o[6],
                    evcode: evcode::ENTER_DEBUG
                },
            ]
        );
    }

    #[test]
    fn trace_starts_disabled_then_sync_5() {
        let mut bodies = vec![
            B::ProgTraceCorrelation {
                evcode: evcode::TRACE_DISABLED,
                cdf: 1,
                icnt: 0,
                hist: Some(1),
            },
            sync(sync::TRACE_ENABLE, BASE),
        ];
        bodies.extend(prog_htm().into_iter().skip(1));
        let f = run_cfg(htm(), prog().image(), &stream(&bodies));
        no_errors(&f);
        assert_eq!(pcs(&f), prog_flow());
        let ev = events(&f);
        assert_eq!(
            ev[0],
            Event::TraceOff {
                offset: 0,
                evcode: evcode::TRACE_DISABLED
            }
        );
        assert!(matches!(
            ev[1],
            Event::Sync {
                sync: sync::TRACE_ENABLE,
                ..
            }
        ));
    }

    #[test]
    fn trace_off_mid_stream_then_sync_5() {
        let mut r = BASE + 0x12;
        let off = B::ProgTraceCorrelation {
            evcode: evcode::TRACE_DISABLED,
            cdf: 1,
            icnt: 2,
            hist: Some(1),
        };
        let bodies = [
            sync(sync::EXIT_DEBUG, BASE),
            off.clone(),
            sync(sync::TRACE_ENABLE, BASE + 0x12),
            B::IndirectBranch {
                btype: btype::EXCEPTION,
                icnt: 3,
                uaddr: ua(&mut r, BASE + 0x28),
            },
            B::IndirectBranchHist {
                btype: btype::INDIRECT,
                icnt: 2,
                uaddr: ua(&mut r, BASE + 0x18),
                hist: 1,
            },
            end(&htm(), 3),
        ];
        let f = run_cfg(htm(), prog().image(), &stream(&bodies));
        no_errors(&f);
        assert_eq!(pcs(&f), at(&[0x00, 0x12, 0x14, 0x28, 0x18, 0x00]));
        assert_eq!(trace_offs(&f), 2);
        // Anything but a sync while trace is off is an error.
        let bodies = [sync(sync::EXIT_DEBUG, BASE), off, bodies[3].clone()];
        let f = run_cfg(htm(), prog().image(), &stream(&bodies));
        one_error(
            &f,
            offsets(&bodies, &Format::default())[2],
            "while trace is off",
        );
    }

    /// A trace-off trigger stops trace after the beat containing it (docs/ntrace.md): when
    /// that beat ends with an uninferable jump or a trap return, ProgTraceCorrelation ends at
    /// it and its target is not traced. (Found by the random round trips.) A ResourceFull
    /// I-CNT still cannot end there.
    #[rstest]
    #[case::ret(0x20, 4, &[0x20, 0x24])]
    #[case::mret(0x28, 2, &[0x28])]
    fn trace_off_after_an_uninferable_jump(
        #[case] start: u64,
        #[case] icnt: u64,
        #[case] flow: &[u64],
        #[values(btm(), htm())] cfg: DecoderConfig,
    ) {
        let off = B::ProgTraceCorrelation {
            evcode: evcode::TRACE_DISABLED,
            cdf: cfg.htm() as u8,
            icnt,
            hist: cfg.htm().then_some(1),
        };
        let bodies = [sync(sync::EXIT_DEBUG, BASE + start), off];
        let f = run_cfg(cfg.clone(), prog().image(), &stream(&bodies));
        no_errors(&f);
        assert_eq!(pcs(&f), at(flow));
        assert_eq!(trace_offs(&f), 1);
        let bodies = [
            sync(sync::EXIT_DEBUG, BASE + start),
            B::ResourceFull {
                rcode: rcode::ICNT_OVERFLOW,
                rdata: icnt,
                hrepeat: None,
            },
        ];
        let f = run_cfg(cfg, prog().image(), &stream(&bodies));
        one_error(
            &f,
            offsets(&bodies, &Format::default())[1],
            "the message ends at the",
        );
    }

    /// The same for a direct jump reported as a taken branch (`trTeInstEnAllJumps`) in BTM,
    /// whose DirectBranchSync (a periodic sync was due) would have come with the next beat.
    #[test]
    fn trace_off_after_a_direct_jump_under_all_jumps() {
        let cfg = with(btm(), |c| c.control.tr_te_inst_en_all_jumps = true);
        let off = B::ProgTraceCorrelation {
            evcode: evcode::TRACE_DISABLED,
            cdf: 0,
            icnt: 2,
            hist: None,
        };
        let bodies = [sync(sync::EXIT_DEBUG, BASE + 0x0e), off];
        let f = run_cfg(cfg.clone(), prog().image(), &stream(&bodies));
        no_errors(&f);
        assert_eq!(pcs(&f), at(&[0x0e]));
        let bodies = [
            sync(sync::EXIT_DEBUG, BASE + 0x0e),
            B::ResourceFull {
                rcode: rcode::ICNT_OVERFLOW,
                rdata: 2,
                hrepeat: None,
            },
        ];
        let f = run_cfg(cfg, prog().image(), &stream(&bodies));
        one_error(
            &f,
            offsets(&bodies, &Format::default())[1],
            "is not the end of a DirectBranch",
        );
    }

    #[rstest]
    #[case::m_with_context((0x1d << 5) | (3 << 2) | 2, Ok((2, Priv::M, Some(0x1d))))]
    #[case::u_privilege(0, Ok((0, Priv::U, None)))]
    #[case::s_privilege(1 << 2, Ok((0, Priv::S, None)))]
    #[case::format_1(1, Err("FORMAT 1"))]
    #[case::format_3(3 | (3 << 2), Err("FORMAT 3"))]
    #[case::prv_2(2 << 2, Err("PRV 2"))]
    #[case::v_set((1 << 4) | 2, Err("V is 1"))]
    #[case::format_0_context(1 << 5, Err("FORMAT 0 with a context"))]
    fn ownership(#[case] process: u64, #[case] want: Result<(u8, Priv, Option<u64>), &str>) {
        let bodies = [
            sync(sync::EXIT_DEBUG, BASE),
            B::Ownership { process },
            end(&htm(), 2),
        ];
        let o = offsets(&bodies, &Format::default());
        let f = run_cfg(htm(), prog().image(), &stream(&bodies));
        match want {
            Ok((format, prv, context)) => {
                no_errors(&f);
                assert_eq!(
                    events(&f)[1],
                    Event::Ownership {
                        offset: o[1],
                        format,
                        prv,
                        v: false,
                        context
                    }
                );
            }
            Err(e) => one_error(&f, o[1], e),
        }
    }

    // --- Sync forms ----------------------------------------------------------------------------

    #[test]
    fn periodic_sync_forms() {
        // BTM: DirectBranchSync for the first taken branch.
        let bodies = prog_btm_with(
            B::DirectBranchSync {
                sync: sync::PERIODIC,
                icnt: 7,
                faddr: (BASE + 4) >> 1,
            },
            BASE + 4,
        );
        let f = run_cfg(btm(), prog().image(), &stream(&bodies));
        no_errors(&f);
        assert_eq!(pcs(&f), prog_flow());
        // HTM: IndirectBranchSync for the ecall, IndirectBranchHistSync SYNC 4 for an I-CNT
        // overflow after the first taken branch, ProgTraceSync SYNC 0 as a marker (its F-ADDR
        // is the new address reference).
        let mut r = BASE + 8;
        let bodies = [
            sync(sync::EXIT_DEBUG, BASE),
            B::IndirectBranchHistSync {
                sync: sync::ICNT_OVERFLOW,
                btype: btype::INDIRECT,
                icnt: 7,
                faddr: (BASE + 4) >> 1,
                hist: 0b11,
            },
            B::ProgTraceSync {
                sync: sync::EXTERNAL_TRIGGER,
                icnt: 2,
                faddr: (BASE + 8) >> 1,
            },
            B::IndirectBranchHist {
                btype: btype::INDIRECT,
                icnt: 14,
                uaddr: ua(&mut r, BASE + 0x12),
                hist: 0b110,
            },
            B::IndirectBranchSync {
                sync: sync::PERIODIC,
                btype: btype::EXCEPTION,
                icnt: 3,
                faddr: (BASE + 0x28) >> 1,
            },
            B::IndirectBranchHist {
                btype: btype::INDIRECT,
                icnt: 2,
                uaddr: ((BASE + 0x28) ^ (BASE + 0x18)) >> 1,
                hist: 1,
            },
            end(&htm(), 3),
        ];
        let o = offsets(&bodies, &Format::default());
        let f = run_cfg(htm(), prog().image(), &stream(&bodies));
        no_errors(&f);
        assert_eq!(pcs(&f), prog_flow());
        let syncs: Vec<(u8, u64)> = events(&f)
            .iter()
            .filter_map(|e| match e {
                Event::Sync { sync, offset, .. } => Some((*sync, *offset)),
                _ => None,
            })
            .collect();
        assert_eq!(syncs, vec![(3, 0), (4, o[1]), (0, o[2]), (2, o[4])]);
        // A trap event comes with the IndirectBranchSync, before its Sync event.
        let ev = events(&f);
        let k = ev
            .iter()
            .position(|e| {
                matches!(
                    e,
                    Event::Sync {
                        sync: sync::PERIODIC,
                        ..
                    }
                )
            })
            .unwrap();
        assert!(matches!(ev[k - 1], Event::Trap { offset, .. } if offset == o[4]));
    }

    #[rstest]
    #[case::prog_trace_sync_2(B::ProgTraceSync { sync: sync::PERIODIC, icnt: 2, faddr: (BASE + 0x40) >> 1 })]
    #[case::sync_4(B::IndirectBranchHistSync { sync: sync::ICNT_OVERFLOW, btype: btype::INDIRECT, icnt: 7, faddr: (BASE + 0x0e) >> 1, hist: 0b11 })]
    fn sync_faddr_must_continue_the_flow(#[case] b: B) {
        let bodies = [sync(sync::EXIT_DEBUG, BASE), b];
        let f = run_cfg(htm(), prog().image(), &stream(&bodies));
        one_error(
            &f,
            offsets(&bodies, &Format::default())[1],
            "but the flow continues at",
        );
    }

    /// prog's messages in HTM with implicit return: the ret is not reported.
    fn prog_htm_ir() -> Vec<B> {
        let mut r = BASE;
        vec![
            sync(sync::EXIT_DEBUG, BASE),
            B::IndirectBranchHist {
                btype: btype::EXCEPTION,
                icnt: 26,
                uaddr: ua(&mut r, BASE + 0x28),
                hist: 0b1110,
            },
            B::IndirectBranch {
                btype: btype::INDIRECT,
                icnt: 2,
                uaddr: ua(&mut r, BASE + 0x18),
            },
            end(&htm(), 3),
        ]
    }

    #[rstest]
    #[case::counter(1)]
    #[case::partial(2)]
    #[case::full(3)]
    fn implicit_return_in_a_longer_flow(#[case] mode: u8) {
        let cfg = with(htm(), |c| c.control.tr_te_inst_implicit_return_mode = mode);
        let f = run_cfg(cfg, prog().image(), &stream(&prog_htm_ir()));
        no_errors(&f);
        assert_eq!(pcs(&f), prog_flow());
        // Without implicit return the same stream is wrong.
        let f = run_cfg(htm(), prog().image(), &stream(&prog_htm_ir()));
        one_error(&f, 8, "uninferable jump at 0x80000024 before its end");
    }

    #[test]
    fn unreported_return_with_an_empty_stack() {
        let cfg = with(htm(), |c| c.control.tr_te_inst_implicit_return_mode = 3);
        let bodies = [sync(sync::EXIT_DEBUG, BASE + 0x20), end(&htm(), 5)];
        let f = run_cfg(cfg, prog().image(), &stream(&bodies));
        one_error(
            &f,
            offsets(&bodies, &Format::default())[1],
            "the return at 0x80000024 is not reported, but the return stack is empty",
        );
    }

    #[test]
    fn decoding_starts_at_the_first_usable_sync() {
        // Messages before the first sync are skipped; with implicit return, a non-resetting
        // sync (4) is not a starting point either.
        let cfg = with(htm(), |c| c.control.tr_te_inst_implicit_return_mode = 3);
        let mut bodies = vec![
            B::IndirectBranch {
                btype: btype::INDIRECT,
                icnt: 9,
                uaddr: 3,
            },
            B::IndirectBranchHistSync {
                sync: sync::ICNT_OVERFLOW,
                btype: btype::INDIRECT,
                icnt: 7,
                faddr: (BASE + 0x40) >> 1,
                hist: 0b11,
            },
            sync(sync::PERIODIC, BASE),
        ];
        bodies.extend(prog_htm_ir().into_iter().skip(1));
        let f = run_cfg(cfg, prog().image(), &stream(&bodies));
        no_errors(&f);
        assert_eq!(pcs(&f), prog_flow());
        assert!(matches!(
            events(&f)[0],
            Event::Sync {
                sync: sync::PERIODIC,
                ..
            }
        ));
        // Without implicit return, SYNC 4 is a starting point.
        let f = run_cfg(htm(), prog().image(), &stream(&bodies[..2]));
        no_errors(&f);
        assert!(
            matches!(events(&f)[0], Event::Sync { sync: sync::ICNT_OVERFLOW, pc, .. } if pc == BASE + 0x40)
        );
    }

    // --- trTeInstEnAllJumps ---------------------------------------------------------------------

    /// 00: c.nop; 02: jal x0, 10; 10: c.nop
    fn jump_prog() -> Image {
        let mut a = Asm::new(BASE);
        a.h(C_NOP).w(jal(0, 0x0e)).at(BASE + 0x10).h(C_NOP);
        a.image()
    }

    #[rstest]
    #[case::btm_on(with(btm(), |c| c.control.tr_te_inst_en_all_jumps = true), vec![B::DirectBranch { icnt: 3 }, end(&btm(), 1)], None)]
    #[case::btm_off(btm(), vec![B::DirectBranch { icnt: 3 }, end(&btm(), 1)], Some((1, "not a taken branch")))]
    #[case::btm_unreported(with(btm(), |c| c.control.tr_te_inst_en_all_jumps = true), vec![end(&btm(), 4)], Some((1, "not the end of a DirectBranch")))]
    #[case::htm_on(with(htm(), |c| c.control.tr_te_inst_en_all_jumps = true), vec![B::ProgTraceCorrelation { evcode: evcode::ENTER_DEBUG, cdf: 1, icnt: 4, hist: Some(0b11) }], None)]
    #[case::htm_off(htm(), vec![B::ProgTraceCorrelation { evcode: evcode::ENTER_DEBUG, cdf: 1, icnt: 4, hist: Some(0b11) }], Some((1, "1 HIST bit(s) left over")))]
    #[case::htm_not_taken(with(htm(), |c| c.control.tr_te_inst_en_all_jumps = true), vec![B::ProgTraceCorrelation { evcode: evcode::ENTER_DEBUG, cdf: 1, icnt: 4, hist: Some(0b10) }], Some((1, "was not taken")))]
    fn all_jumps(
        #[case] cfg: DecoderConfig,
        #[case] msgs: Vec<B>,
        #[case] err: Option<(usize, &str)>,
    ) {
        let mut bodies = vec![sync(sync::EXIT_DEBUG, BASE)];
        bodies.extend(msgs);
        let f = run_cfg(cfg, jump_prog(), &stream(&bodies));
        match err {
            None => {
                no_errors(&f);
                assert_eq!(pcs(&f), at(&[0x00, 0x02, 0x10]));
            }
            Some((k, e)) => one_error(&f, offsets(&bodies, &Format::default())[k], e),
        }
    }

    // --- Corrupt input ------------------------------------------------------------------------

    /// A valid sync to resume at, and the message after it.
    fn resume(cfg: &DecoderConfig) -> Vec<u8> {
        stream(&[sync(sync::PERIODIC, BASE), end(cfg, 2)])
    }

    fn bad_after_sync(msg: &[u8]) -> (Vec<u8>, u64) {
        let mut v = stream(&[sync(sync::EXIT_DEBUG, BASE)]);
        let at = v.len() as u64;
        v.extend_from_slice(msg);
        (v, at)
    }

    fn ibh(icnt: u64, hist: u64) -> B {
        B::IndirectBranchHist {
            btype: btype::INDIRECT,
            icnt,
            uaddr: 9,
            hist,
        }
    }

    #[rstest]
    #[case::unknown_tcode(htm(), bad_after_sync(&[60 << 2, 0x07]), "TCODE 60 is not")]
    #[case::reserved_mseo(htm(), bad_after_sync(&[0x70, 0x02, 0x03]), "reserved MSEO 10")]
    #[case::stray_mseo_01(htm(), bad_after_sync(&[0x01, 0xff]), "MSEO 01")]
    #[case::stray_mseo_11(htm(), bad_after_sync(&[0x07]), "neither idle")]
    #[case::too_long(htm(), bad_after_sync(&[&[0x0c][..], &[0u8; 200], &[0x03]].concat()), "longer than 128 bytes")]
    #[case::field_too_long(htm(), bad_after_sync(&[&[0x0c][..], &[0xfc; 12], &[0xff]].concat()), "longer than 64 bits")]
    #[case::truncated_field(htm(), bad_after_sync(&[0x70, 0x03]), "ends before its")]
    #[case::icnt_mid_instruction(htm(), bad_after_sync(&stream(&[ibh(3, 1)])), "middle of the 32-bit instruction at 0x80000004")]
    #[case::icnt_22_bits(htm(), bad_after_sync(&stream(&[ibh(1 << 22, 1)])), "longer than 22 bits")]
    #[case::hist_33_bits(htm(), bad_after_sync(&stream(&[ibh(23, 1 << 32)])), "longer than 32 bits")]
    #[case::hist_left_over(htm(), bad_after_sync(&stream(&[ibh(23, 0b11100)])), "1 HIST bit(s) left over")]
    #[case::no_hist_bit(htm(), bad_after_sync(&stream(&[ibh(23, 0b111)])), "has no HIST bit left")]
    #[case::jump_before_end(htm(), bad_after_sync(&stream(&[ibh(25, 0b1110)])), "reaches the uninferable jump at 0x80000024 before its end")]
    #[case::not_at_jump(htm(), bad_after_sync(&stream(&[ibh(2, 1)])), "does not end at an uninferable jump")]
    #[case::btm_in_htm(htm(), bad_after_sync(&stream(&[B::DirectBranch { icnt: 7 }])), "a BTM message in HTM")]
    #[case::htm_in_btm(btm(), bad_after_sync(&stream(&[ibh(23, 0b1110)])), "an HTM message in BTM")]
    #[case::cdf_btm(btm(), bad_after_sync(&stream(&[end(&htm(), 2)])), "CDF 1 in BTM")]
    #[case::evcode_1(htm(), bad_after_sync(&stream(&[B::ProgTraceCorrelation { evcode: evcode::ENTER_LOW_POWER, cdf: 1, icnt: 0, hist: Some(1) }])), "EVCODE 1")]
    #[case::not_taken_branch(btm(), bad_after_sync(&stream(&[B::DirectBranch { icnt: 2 }])), "not a taken branch")]
    #[case::outside_image(htm(), bad_after_sync(&stream(&[ibh(23, 0b1110), rf(rcode::ICNT_OVERFLOW, 40, None)])), "")]
    #[case::ecall_not_last(htm(), bad_after_sync(&stream(&[ibh(23, 0b1110), end(&htm(), 4)])), "")]
    fn corrupt_input(
        #[case] cfg: DecoderConfig,
        #[case] input: (Vec<u8>, u64),
        #[case] what: &str,
    ) {
        let (mut bytes, at) = input;
        if what.is_empty() {
            // Cases whose error is in the second message after the sync.
            let f = run_cfg(cfg, prog().image(), &bytes);
            assert_eq!(errors(&f).len(), 1, "{f:x?}");
            assert!(errors(&f)[0].0 > at);
            return;
        }
        let n = bytes.len();
        bytes.extend(resume(&cfg));
        let f = run_cfg(cfg.clone(), prog().image(), &bytes);
        one_error(&f, at, what);
        // Decoding resumes at the next sync.
        let ev = events(&f);
        assert!(
            matches!(ev[ev.len() - 2], Event::Sync { sync: sync::PERIODIC, offset, .. } if offset == n as u64),
            "{ev:?}"
        );
        assert_eq!(pcs(&f).last(), Some(&BASE));
    }

    #[test]
    fn error_kinds_in_the_second_message() {
        let img = || {
            let mut a = prog();
            a.h(0); // 2c: an illegal instruction
            a.image()
        };
        let cases: Vec<(Vec<B>, &str)> = vec![
            (vec![sync(sync::EXIT_DEBUG, BASE + 0x2e)], ""),
            (
                vec![sync(sync::EXIT_DEBUG, BASE + 0x2c), end(&htm(), 1)],
                "the instruction 0x0 at 0x8000002c is illegal",
            ),
            (
                vec![sync(sync::EXIT_DEBUG, BASE + 0x2e), end(&htm(), 1)],
                "address 0x8000002e is outside the program image",
            ),
            (
                vec![sync(sync::EXIT_DEBUG, BASE + 0x12), end(&htm(), 4)],
                "the ecall at 0x80000014 is not followed by its exception message",
            ),
            (
                vec![
                    sync(sync::EXIT_DEBUG, BASE + 0x20),
                    B::IndirectBranch {
                        btype: btype::INTERRUPT,
                        icnt: 4,
                        uaddr: 1,
                    },
                ],
                "the uninferable jump at 0x80000024 before the trap was not reported",
            ),
            (
                vec![
                    sync(sync::EXIT_DEBUG, BASE + 0x20),
                    B::IndirectBranch {
                        btype: btype::INDIRECT,
                        icnt: 6,
                        uaddr: 1,
                    },
                ],
                "reaches the uninferable jump at 0x80000024",
            ),
        ];
        for (bodies, what) in cases {
            let f = run_cfg(htm(), img(), &stream(&bodies));
            if what.is_empty() {
                no_errors(&f);
                continue;
            }
            one_error(&f, offsets(&bodies, &Format::default())[1], what);
        }
        // A stream that ends inside a message.
        let mut bytes = stream(&[sync(sync::EXIT_DEBUG, BASE)]);
        let at = bytes.len() as u64;
        bytes.extend(&stream(&[ibh(23, 0b1110)])[..3]);
        let f = run_cfg(htm(), img(), &bytes);
        one_error(&f, at, "the stream ends inside a message");
    }

    #[test]
    fn config_from_json_and_validation() {
        let c: DecoderConfig = serde_json::from_str(
            r#"{"tr_te_inst_mode": 3, "format": {"src_bits": 4, "timestamps": true},
                "implicit_return_mode": 3, "src_filter": 2}"#,
        )
        .unwrap();
        assert_eq!(c.control.tr_te_inst_mode, 3);
        assert_eq!(
            c.format(),
            Format {
                src_bits: 4,
                timestamps: true,
                extend_addr_msb: false
            }
        );
        assert_eq!(c.implicit_return_depth, 32);
        assert_eq!(c.src_filter, Some(2));
        c.validate().unwrap();
        let back: DecoderConfig =
            serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
        assert_eq!(back, c);
        assert!(serde_json::from_str::<DecoderConfig>(r#"{"mode": 3}"#).is_err());
        use DecoderConfigError as E;
        for (bad, want, text) in [
            (
                with(htm(), |c| c.control.tr_te_inst_mode = 4),
                E::Mode(4),
                "tr_te_inst_mode 4 is neither 3 (BTM) nor 6 (HTM)",
            ),
            (
                with(htm(), |c| c.control.tr_te_inst_implicit_return_mode = 4),
                E::ImplicitReturnMode(4),
                "implicit_return_mode 4 is not 0..=3",
            ),
            (
                with(htm(), |c| c.implicit_return_depth = 0),
                E::ImplicitReturnDepth(0),
                "implicit_return_depth 0 is not 1..=32",
            ),
            (
                with(htm(), |c| c.implicit_return_depth = 33),
                E::ImplicitReturnDepth(33),
                "implicit_return_depth 33 is not 1..=32",
            ),
            (
                with(htm(), |c| c.partial_bits = 0),
                E::PartialBits(0),
                "partial_bits 0 is not 1..=64",
            ),
            (
                with(htm(), |c| c.src_filter = Some(1)),
                E::SrcFilter { src: 1, bits: 0 },
                "src_filter 1 does not fit in 0 SRC bits",
            ),
            (
                with(htm(), |c| c.control.tr_te_inst_en_repeat_branch = true),
                E::RepeatBranchInHtm,
                "repeat_branch is a BTM option",
            ),
            (
                with(btm(), |c| c.control.tr_te_inst_en_repeated_history = true),
                E::RepeatedHistoryInBtm,
                "repeated_history is an HTM option",
            ),
        ] {
            let e = Decoder::new(bad.clone(), Image::new()).err();
            assert_eq!(e, Some(want), "{bad:?}");
            assert_eq!(want.to_string(), text);
        }
    }

    // --- Robustness -----------------------------------------------------------------------------

    fn configs() -> Vec<DecoderConfig> {
        vec![
            btm(),
            with(btm(), |c| {
                c.control.tr_te_inst_en_repeat_branch = true;
                c.control.tr_te_inst_implicit_return_mode = 3;
                c.control.tr_te_inst_en_sequential_jump = true;
            }),
            htm(),
            with(htm(), |c| {
                c.control.tr_te_inst_en_repeated_history = true;
                c.control.tr_te_inst_implicit_return_mode = 1;
                c.control.tr_te_inst_en_all_jumps = true;
                c.control.tr_ts_enable = true;
            }),
            with(htm(), |c| {
                c.control.tr_te_src_bits = 3;
                c.control.tr_te_inst_extend_addr_msb = true;
            }),
        ]
    }

    fn decode_untrusted(cfg: DecoderConfig, bytes: &[u8], chunk: usize) -> Stats {
        let mut d = Decoder::new(cfg, prog().image()).unwrap();
        d.set_work_limit(1 << 12);
        let mut out = Vec::new();
        for c in bytes.chunks(chunk.max(1)) {
            d.feed(c, &mut out);
        }
        d.finish(&mut out);
        for e in events(&out) {
            if let Event::Error { offset, .. } = e {
                assert!(offset < bytes.len() as u64);
            }
        }
        d.stats()
    }

    proptest! {
        #[test]
        fn random_bytes_never_panic(
            bytes in proptest::collection::vec(any::<u8>(), 0..600),
            cfg in 0usize..5,
            chunk in 1usize..40,
        ) {
            let st = decode_untrusted(configs()[cfg].clone(), &bytes, chunk);
            prop_assert_eq!(st.bytes, bytes.len() as u64);
        }

        #[test]
        fn mutated_streams_never_panic(
            which in 0usize..4,
            edits in proptest::collection::vec((any::<u16>(), any::<u8>(), 0u8..4), 1..6),
            cfg in 0usize..5,
            chunk in 1usize..40,
        ) {
            let mut bytes = match which {
                0 => stream(&prog_btm()),
                1 => stream(&prog_htm()),
                2 => stream(&htm_with_rf(vec![rf(rcode::HIST_REPEAT, 0b11, Some(2))], 23, 0b10)),
                _ => stream(&[
                    sync(sync::EXIT_DEBUG, BASE),
                    B::DirectBranch { icnt: 7 },
                    B::RepeatBranch { bcnt: 3 },
                    B::Ownership { process: 0x3ae },
                ]),
            };
            for (pos, val, kind) in edits {
                let n = bytes.len();
                let p = pos as usize % (n + 1);
                match kind {
                    0 if p < n => bytes[p] = val,
                    1 if p < n => bytes[p] ^= 1 << (val % 8),
                    2 => bytes.insert(p, val),
                    _ if p < n => { bytes.remove(p); }
                    _ => {}
                }
            }
            decode_untrusted(configs()[cfg].clone(), &bytes, chunk);
        }
    }

    /// `cargo test --release -p encoder -- --ignored --nocapture decode_speed`
    #[test]
    #[ignore]
    fn decode_speed() {
        struct Count(u64, u64);
        impl FlowSink for Count {
            #[inline]
            fn pc(&mut self, pc: u64) {
                self.0 += 1;
                self.1 ^= pc;
            }
            fn event(&mut self, _: &Event) {}
        }
        // A loop of 12 instructions (16 half-words) ending in a taken branch, called from an
        // outer loop; HTM with HIST overflows every 31 branches and an I-CNT report every 64
        // ResourceFull messages, as a long-running loop gives.
        let mut a = Asm::new(BASE);
        a.w(addi(A0, A0, 1));
        for _ in 0..4 {
            a.h(0x0505).w(addi(A1, A1, 1));
        }
        a.h(C_NOP).h(C_NOP).w(bne(A0, 0, -(4 + 4 * 6 + 4)));
        let per_iter = 2 + 4 * 3 + 2 + 2;
        let mut msgs = vec![sync(sync::EXIT_DEBUG, BASE)];
        let mut bytes = Vec::new();
        let rounds = 20_000u64;
        for _ in 0..rounds {
            for _ in 0..64 {
                msgs.push(rf(rcode::HIST_OVERFLOW, 0xffff_ffff, None));
            }
            msgs.push(rf(rcode::ICNT_OVERFLOW, 64 * 31 * per_iter, None));
            bytes.extend(stream(&msgs));
            msgs.clear();
        }
        let measure = |name: &str, cfg: DecoderConfig, img: Image, bytes: &[u8]| {
            let mut d = Decoder::new(cfg, img).unwrap();
            let mut c = Count(0, 0);
            let t = std::time::Instant::now();
            d.decode_all(bytes, &mut c);
            let s = t.elapsed().as_secs_f64();
            assert_eq!(d.stats().errors, 0);
            println!(
                "{name}: {} instructions, {} messages, {} bytes in {:.3} s: {:.1} M \
                 instructions/s ({:x})",
                c.0,
                d.stats().messages,
                bytes.len(),
                s,
                c.0 as f64 / s / 1e6,
                c.1
            );
        };
        measure("HTM loop", htm(), a.image(), &bytes);
        // BTM, message-dense: every 9 instructions a DirectBranch; a call and an implicit
        // return in each iteration (00: addi; 04: jal ra, 40; 08: c.nop; 0a: bne a0, x0, 00;
        // 40: addi; 44: c.addi x3; 4a: ret).
        let mut a = Asm::new(BASE);
        a.w(addi(A0, A0, 1))
            .w(jal(RA, 0x3c))
            .h(C_NOP)
            .w(bne(A0, 0, -0xa))
            .at(BASE + 0x40)
            .w(addi(A1, A1, 1))
            .h(0x0505)
            .h(0x0505)
            .h(0x0505)
            .w(RET);
        let cfg = with(btm(), |c| c.control.tr_te_inst_implicit_return_mode = 3);
        let mut bytes = stream(&[sync(sync::EXIT_DEBUG, BASE)]);
        let one = stream(&[B::DirectBranch { icnt: 14 }]);
        for _ in 0..10_000_000 {
            bytes.extend_from_slice(&one);
        }
        measure("BTM calls", cfg, a.image(), &bytes);
    }
}
