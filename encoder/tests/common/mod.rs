//! What the N-Trace round-trip tests share: the expected flow from the hart's full records,
//! the encoder behind the ingress port (driven three ways), the decoder's output in
//! stretches, and the comparison of the two.
//!
//! The hart runs a program twice (it is deterministic): once collecting the instructions it
//! retires from its full retirement records (independently of the ingress port: retired
//! instructions, plus ecall and ebreak, which trace counts as retired), once feeding the ingress
//! port and the encoder. The decoder, given the stream and the program image, must give back
//! exactly the first sequence, with no error. Where the trace loses messages (a full FIFO) or
//! is switched off (filters, triggers), each stretch the decoder reconstructs between two
//! reported gaps must be exactly a stretch of the retired sequence, in order.

#![allow(dead_code)]

pub mod asm;

use arch::Itype;
use encoder::decoder::{Decoder, DecoderConfig, Event, FlowSink};
use encoder::encoder::{Encoder, EncoderConfig};
use encoder::image::Image;
use encoder::msg::{self, Format, Message};
use iss::classify;
use iss::ingress::{
    Beat, BeatSink, Capture, DataBeat, EventSink, IngressConfig, IngressPort, PortBatch,
};
use iss::Detail;
use iss::{Exception, Machine, Retired, Sink, Stop, TrapRecord};
use std::collections::{BTreeMap, BTreeSet};

pub const PAGE: u64 = 4096;

/// What the hart retired, from full records: the pcs, the pages they were fetched from, and
/// where a counter-based implicit return (mode 1) first cannot follow the program.
#[derive(Default)]
pub struct Expect {
    pub pcs: Vec<u64>,
    /// Virtual page to physical page, for every page instructions were fetched from.
    pub pages: BTreeMap<u64, u64>,
    /// Physical address and length of every instruction executed.
    pub code: BTreeSet<(u64, u8)>,
    /// Return addresses of the calls not yet returned from.
    pub calls: Vec<u64>,
    /// Returns that went somewhere else than the return address of their call: the index in
    /// `pcs` of the instruction after them, the return address and where they went.
    pub odd_returns: Vec<(usize, u64, u64)>,
    /// The same when direct jumps are reported as taken branches (`trTeInstEnAllJumps`): then
    /// `jal` calls are not calls.
    pub calls_all_jumps: Vec<u64>,
    pub odd_returns_all_jumps: Vec<(usize, u64, u64)>,
    /// The last record was an exception counted as retired (ecall, ebreak), whose trap
    /// record comes next.
    pushed_exception: bool,
}

impl Sink for Expect {
    const DETAIL: Detail = Detail::Records;
    fn retire(&mut self, r: &Retired) {
        let traced = match r.exception {
            None => true,
            Some((c, _)) => matches!(
                c,
                iss::Cause::Exception(
                    Exception::EcallFromU
                        | Exception::EcallFromS
                        | Exception::EcallFromM
                        | Exception::Breakpoint
                )
            ),
        };
        if let Some(pa) = r.fetch_pa {
            self.code.insert((pa, r.insn.len));
            let (va, pa) = (r.pc & !(PAGE - 1), pa & !(PAGE - 1));
            let old = self.pages.insert(va, pa);
            assert!(
                old.is_none_or(|o| o == pa),
                "page {va:#x} ran from two physical pages"
            );
        }
        if traced {
            self.pcs.push(r.pc);
        }
        self.pushed_exception = traced && r.exception.is_some();
        if r.exception.is_none() {
            let taken = r.next_pc != r.pc.wrapping_add(r.insn.len as u64);
            let after = r.pc + r.insn.len as u64;
            let it = classify::itype(&r.insn, taken);
            let n = self.pcs.len();
            for (all_jumps, calls, odd) in [
                (false, &mut self.calls, &mut self.odd_returns),
                (
                    true,
                    &mut self.calls_all_jumps,
                    &mut self.odd_returns_all_jumps,
                ),
            ] {
                match it {
                    Itype::InferableCall if all_jumps => {}
                    Itype::InferableCall | Itype::UninferableCall => calls.push(after),
                    Itype::Return | Itype::CoroutineSwap => {
                        if let Some(a) = calls.pop() {
                            if a != r.next_pc {
                                odd.push((n, a, r.next_pc));
                            }
                        }
                        if it == Itype::CoroutineSwap {
                            calls.push(after);
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    fn trap(&mut self, t: &TrapRecord) {
        // A debug trigger's breakpoint (before its instruction, or on an instruction's bits
        // after its fetch, even an ebreak's) retires nothing: its instruction did not execute.
        if t.trigger && std::mem::take(&mut self.pushed_exception) {
            self.pcs.pop();
        }
    }
}

/// Feeds beats straight to an encoder writing into memory: in batches, or (the third field)
/// one at a time as they are finished, as the port on its own thread does.
pub struct Direct(pub Option<Encoder<Vec<u8>>>, pub Vec<u8>, pub bool);

impl BeatSink for Direct {
    fn beats(&mut self, beats: &[Beat], _: &[DataBeat]) {
        let e = self.0.as_mut().unwrap();
        for b in beats {
            e.beat(b);
        }
    }
    fn one_by_one(&self) -> bool {
        self.2
    }
    fn beat(&mut self, b: &Beat) {
        self.0.as_mut().unwrap().beat(b);
    }
    fn finish(&mut self, next_pc: u64, prv: u8) -> std::io::Result<()> {
        let (bytes, _) = self.0.take().unwrap().finish(next_pc, prv)?;
        self.1 = bytes;
        Ok(())
    }
}

/// The port behind a [`Capture`], replaying each batch at once (as its thread would).
pub struct Replay(pub IngressPort<Direct, false>);

impl EventSink for Replay {
    fn events(&mut self, b: &mut PortBatch) {
        self.0.replay(b);
        b.clear();
    }
}

/// What the decoder gave back: stretches of pcs separated by reported gaps.
#[derive(Default)]
pub struct Collect {
    pub stretches: Vec<Vec<u64>>,
    pub errors: Vec<String>,
    /// The warnings ([`Event::Warning`]): the kind and `@offset: message`.
    pub warnings: Vec<(encoder::decoder::Warning, String)>,
    pub gaps: usize,
    /// The times of the messages that carried a timestamp, as the decoder reconstructed them.
    pub times: Vec<u64>,
    /// The sync messages: SYNC code and F-ADDR.
    pub syncs: Vec<(u8, u64)>,
}

impl Collect {
    pub fn all(&self) -> Vec<u64> {
        self.stretches.concat()
    }
}

impl FlowSink for Collect {
    fn pc(&mut self, pc: u64) {
        match self.stretches.last_mut() {
            Some(s) => s.push(pc),
            None => self.stretches.push(vec![pc]),
        }
    }
    fn event(&mut self, e: &Event) {
        match e {
            Event::Error { offset, message } => self.errors.push(format!("@{offset}: {message}")),
            Event::Warning {
                offset,
                kind,
                message,
            } => self.warnings.push((*kind, format!("@{offset}: {message}"))),
            Event::Timestamp { time, .. }
            | Event::Sync {
                time: Some(time), ..
            } => self.times.push(*time),
            _ => {}
        }
        if let Event::Sync { sync, pc, .. } = e {
            self.syncs.push((*sync, *pc));
        }
        match e {
            Event::Lost { .. } | Event::TraceOff { .. } => {
                self.gaps += 1;
                if self.stretches.last().is_none_or(|s| !s.is_empty()) {
                    self.stretches.push(Vec::new());
                }
            }
            _ => {}
        }
    }
}

/// How the hart drives the ingress port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drive {
    /// Run events recorded on the hart's side and replayed into the port (as `hartscope run`
    /// does, with the port on its own thread).
    Capture,
    /// The port as a `RUNS` sink on the hart's thread.
    Runs,
    /// The port from full records (with the data trace interface on).
    Records,
}

/// What the comparison may assume.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expectation {
    /// The whole flow, exactly.
    Exact,
    /// Exact stretches separated by reported gaps (dropped messages, trace switched off).
    Stretches,
}

#[derive(Clone, Debug)]
pub struct Case {
    pub name: &'static str,
    pub cfg: EncoderConfig,
    pub icfg: IngressConfig,
    pub drive: Drive,
    pub expect: Expectation,
}

/// Run `m` (booted) through the ingress port into an encoder configured as `case` says (with
/// the port's retirement); returns why the run stopped and the encoder's bytes.
pub fn trace(m: &mut Machine, case: &Case, limit: u64) -> (Stop, Vec<u8>) {
    let mut cfg = case.cfg.clone();
    cfg.retirement = case.icfg.retirement;
    let enc = Encoder::new(cfg, Vec::new()).unwrap();
    // Captured runs go one by one, as with `hartscope run`; the others in batches.
    let direct = Direct(Some(enc), Vec::new(), case.drive == Drive::Capture);
    match case.drive {
        Drive::Capture => {
            let port = IngressPort::new(case.icfg.clone(), direct, &m.hart.csr);
            let mut cap = Capture::new(&case.icfg, Replay(port), &m.hart.csr);
            let stop = m.run(&mut cap, Some(limit));
            (stop, cap.finish().0.finish().unwrap().1)
        }
        Drive::Runs => {
            let mut port: IngressPort<Direct, false> =
                IngressPort::new(case.icfg.clone(), direct, &m.hart.csr);
            let stop = m.run(&mut port, Some(limit));
            (stop, port.finish().unwrap().1)
        }
        Drive::Records => {
            let icfg = IngressConfig {
                data: true,
                ..case.icfg.clone()
            };
            let mut port: IngressPort<Direct, true> = IngressPort::new(icfg, direct, &m.hart.csr);
            let stop = m.run(&mut port, Some(limit));
            (stop, port.finish().unwrap().1)
        }
    }
}

/// Decode `bytes` as an encoder configured with `cfg` wrote them.
pub fn decode(cfg: &EncoderConfig, image: Image, bytes: &[u8]) -> Collect {
    let mut dec = Decoder::new(DecoderConfig::for_encoder(cfg), image).unwrap();
    let mut got = Collect::default();
    dec.decode_all(bytes, &mut got);
    got
}

pub struct Outcome {
    pub expect: Expect,
    pub got: Collect,
    pub bytes: Vec<u8>,
    pub stop: Stop,
}

/// Run the machine `fresh` builds (booted) twice, as [`Expect`] and traced as `case` says,
/// build the decoder's image from the first run (`image` gets what it retired and the machine
/// after it), and decode.
pub fn round_trip(
    fresh: &dyn Fn() -> Machine,
    image: impl FnOnce(&Expect, &Machine) -> Image,
    case: &Case,
    limit: u64,
) -> Outcome {
    let mut m = fresh();
    let mut expect = Expect::default();
    let stop1 = m.run(&mut expect, Some(limit));
    let image = image(&expect, &m);
    let mut m = fresh();
    let (stop2, bytes) = trace(&mut m, case, limit);
    assert_eq!(stop1, stop2, "the two runs differ");
    let got = decode(&case.cfg, image, &bytes);
    Outcome {
        expect,
        got,
        bytes,
        stop: stop1,
    }
}

pub fn first_difference(a: &[u64], b: &[u64]) -> Option<usize> {
    (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i))
}

pub fn around(v: &[u64], i: usize) -> &[u64] {
    &v[i.saturating_sub(3).min(v.len())..(i + 3).min(v.len())]
}

/// Each stretch must be the next exact stretch of `expect`; with `require_some`, something
/// must have been decoded.
pub fn check_stretches(
    prog: &str,
    name: &str,
    expect: &[u64],
    got: &Collect,
    require_some: bool,
) -> Result<(), String> {
    let mut pos = 0;
    let mut decoded = 0;
    for s in got.stretches.iter().filter(|s| !s.is_empty()) {
        decoded += s.len();
        let start = (pos..expect.len())
            .find(|&i| expect[i..].starts_with(s))
            .ok_or_else(|| {
                format!(
                    "{prog} [{name}]: a decoded stretch of {} instructions from {:#x} is not in \
                     the retired flow after instruction {pos}",
                    s.len(),
                    s[0]
                )
            })?;
        pos = start + s.len();
    }
    if require_some && decoded == 0 {
        return Err(format!("{prog} [{name}]: nothing decoded"));
    }
    Ok(())
}

/// Where the decoded flow stops being comparable under implicit return by counting (mode 1)
/// or by partial addresses (mode 2): the index in the retired flow of the instruction after
/// the first return the mode cannot follow. Counting cannot follow a return to anywhere but
/// its call's return address (N-Trace 9.2: "any program that modifies return addresses cannot
/// be traced using this mode"), partial addresses one whose target has the same low bits
/// ("changes ... are very slim").
pub fn implicit_return_cut(cfg: &EncoderConfig, e: &Expect) -> Option<usize> {
    let odd = if cfg.control.tr_te_inst_en_all_jumps {
        &e.odd_returns_all_jumps
    } else {
        &e.odd_returns
    };
    match cfg.control.tr_te_inst_implicit_return_mode {
        1 => odd.first().map(|r| r.0),
        2 => {
            let mask = (1u64 << cfg.partial_bits) - 1;
            odd.iter()
                .find(|(_, a, t)| (a ^ t) & mask == 0)
                .map(|r| r.0)
        }
        _ => None,
    }
}

/// Compare the decoded flow with the retired one as `case` promises. `require_some`: a
/// stretch case must decode something.
pub fn verify(prog: &str, case: &Case, o: &Outcome, require_some: bool) -> Result<(), String> {
    let name = case.name;
    let expect = &o.expect.pcs;
    if let Some(cut) = implicit_return_cut(&case.cfg, &o.expect) {
        if case.expect != Expectation::Exact {
            return Err(format!(
                "{prog} [{name}]: a lossy case with a return implicit return mode {} cannot \
                 follow (the test must not build one)",
                case.cfg.control.tr_te_inst_implicit_return_mode
            ));
        }
        let got = o.got.all();
        if got[..cut.min(got.len())] != expect[..cut] {
            let i = first_difference(&got[..cut.min(got.len())], &expect[..cut]).unwrap_or(0);
            return Err(format!(
                "{prog} [{name}]: differs before the first return mode {} cannot follow \
                 (instruction {cut}), at instruction {i}: expected {:x?}, got {:x?}",
                case.cfg.control.tr_te_inst_implicit_return_mode,
                around(expect, i),
                around(&got, i),
            ));
        }
        return Ok(());
    }
    if !o.got.errors.is_empty() {
        return Err(format!(
            "{prog} [{name}]: decoding errors ({} bytes): {:?}",
            o.bytes.len(),
            &o.got.errors[..o.got.errors.len().min(5)]
        ));
    }
    match case.expect {
        Expectation::Exact => {
            if o.got.gaps != 1 {
                return Err(format!(
                    "{prog} [{name}]: {} gaps besides the end of trace",
                    o.got.gaps as i64 - 1
                ));
            }
            let got = o.got.all();
            if let Some(i) = first_difference(expect, &got) {
                return Err(format!(
                    "{prog} [{name}]: decoded flow differs at instruction {i} of {} (decoded \
                     {}): expected {:x?}, got {:x?}",
                    expect.len(),
                    got.len(),
                    around(expect, i),
                    around(&got, i),
                ));
            }
            Ok(())
        }
        Expectation::Stretches => check_stretches(prog, name, expect, &o.got, require_some),
    }
}

/// The messages of a stream (idle bytes skipped), each with its byte offset; panics on a
/// malformed one.
pub fn messages(bytes: &[u8], f: &Format) -> Vec<(usize, Message)> {
    let mut v = Vec::new();
    let mut start = None;
    for (i, &b) in bytes.iter().enumerate() {
        if start.is_none() {
            if b == 0xff {
                continue;
            }
            start = Some(i);
        }
        if b & 3 == 3 {
            let s = start.take().unwrap();
            let m =
                msg::parse(&bytes[s..=i], f).unwrap_or_else(|e| panic!("message at byte {s}: {e}"));
            v.push((s, m));
        }
    }
    assert!(start.is_none(), "the stream ends inside a message");
    v
}

/// The stream as the dump prints it (for failure messages).
pub fn dump(bytes: &[u8], f: &Format) -> String {
    let mut out = Vec::new();
    encoder::dump::dump(bytes, f, &mut out).unwrap();
    String::from_utf8_lossy(&out).into_owned()
}

/// Cases per property test: bounded (fast) in a normal `cargo test`, or the number in
/// `HARTSCOPE_FUZZ_CASES` for long (nightly) runs.
pub fn fuzz_cases() -> u32 {
    std::env::var("HARTSCOPE_FUZZ_CASES")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(128)
}
