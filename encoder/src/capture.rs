//! N-Trace capture: the hart's ingress port, the N-Trace encoder and a beat writer, wired
//! together and run on the threads that keep up with the hart. The command line
//! (`hartscope run --ntrace/--ingress`) and the plugin build a capture with [`start`] from
//! writers they opened, hand the returned [`Port`] to the hart as its sink, and
//! [`Port::finish`] it for the encoder's statistics.
//!
//! There are three ways to run the port, chosen by [`start`]:
//! - [`Port::Threaded`]: the hart only records runs ([`iss::ingress::Capture`], a [`Detail::Runs`]
//!   sink); the port, the encoder (in line with it) and the writer run on one thread of their
//!   own ([`PortThread`]). The fast way, when nothing else needs full records.
//! - [`Port::Inline`]: the port runs on the hart's thread, on full records another consumer
//!   (the commit log, the tandem writer, GDB) needs anyway; the encoder has a thread of its
//!   own ([`EncoderThread`]).
//! - [`Port::Records`]: as `Inline`, with the data trace interface (which needs full
//!   records).
//! - [`Port::Funnel`]: several harts traced into one N-Trace stream ([`Funnel`]): one
//!   ingress port and one encoder per hart, their messages merged whole, in the order the
//!   harts produced them (N-Trace's SRC field tells them apart).

use crate::encoder::{ConfigError, Encoder, EncoderConfig, EncoderStats, EncoderThread};
use iss::csr::Csrs;
use iss::ingress::{
    Beat, BeatSink, Capture, DataBeat, EventSink, IngressConfig, IngressPort, PortBatch,
};
use iss::record::{At, Retired, TrapRecord, Watched};
use iss::stage::{Inbox, Stage};
use iss::{Detail, Machine, NoSink, Sink, Stop};
use std::io::{self, Write};
use std::sync::{Arc, Mutex};

/// The encoder: in line with the ingress port (when the port has a thread of its own), or on
/// a thread of its own (when the port runs on the hart's thread).
pub enum EncoderOut<W: Write + Send + 'static> {
    Inline(Box<Encoder<W>>),
    Thread(EncoderThread<W>),
}

/// Where the ingress port's beats go: the encoder, a file writer, or both.
pub struct Outputs<W: Write + Send + 'static> {
    pub encoder: Option<EncoderOut<W>>,
    pub writer: Option<Box<dyn BeatSink + Send>>,
    /// The encoder's statistics, once finished.
    pub stats: Option<EncoderStats>,
    /// The names of the encoder's and the writer's outputs, for their errors.
    pub encoder_name: String,
    pub writer_name: String,
}

/// `e`, saying which file it happened to.
fn writing(name: &str, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("writing {name}: {e}"))
}

impl<W: Write + Send + 'static> BeatSink for Outputs<W> {
    fn beats(&mut self, beats: &[Beat], data: &[DataBeat]) {
        match &mut self.encoder {
            Some(EncoderOut::Inline(e)) => {
                for b in beats {
                    e.beat(b);
                }
            }
            Some(EncoderOut::Thread(e)) => e.beats(beats, data),
            None => {}
        }
        if let Some(w) = &mut self.writer {
            w.beats(beats, data);
        }
    }

    /// One by one to an encoder in line (with the port on its own thread) alone.
    fn one_by_one(&self) -> bool {
        matches!(self.encoder, Some(EncoderOut::Inline(_))) && self.writer.is_none()
    }

    #[inline]
    fn beat(&mut self, b: &Beat) {
        match &mut self.encoder {
            Some(EncoderOut::Inline(e)) => e.beat(b),
            _ => self.beats(std::slice::from_ref(b), &[]),
        }
    }

    fn finish(&mut self, next_pc: u64, prv: u8) -> io::Result<()> {
        let mut first = Ok(());
        if let Some(w) = &mut self.writer {
            first = w
                .finish(next_pc, prv)
                .map_err(|e| writing(&self.writer_name, e));
        }
        let result = match self.encoder.take() {
            Some(EncoderOut::Inline(e)) => Some((Ok(()), (*e).finish(next_pc, prv))),
            Some(EncoderOut::Thread(mut e)) => {
                let r = e.finish(next_pc, prv);
                Some((r, e.into_result()))
            }
            None => None,
        };
        if let Some((r, out)) = result {
            let name = &self.encoder_name;
            let (r, out) = (
                r.map_err(|e| writing(name, e)),
                out.map_err(|e| writing(name, e)),
            );
            match out {
                Ok((_, stats)) => self.stats = Some(stats),
                Err(err) if first.is_ok() => first = Err(err),
                Err(_) => {}
            }
            if first.is_ok() {
                first = r;
            }
        }
        first
    }
}

/// What the port's thread is sent: batches of events (given back emptied), then the end.
pub enum ToPort {
    Batch(PortBatch),
    End,
}

/// Batches of events queued for the port's thread at most (each 1 MiB, allocated only when
/// the port falls that far behind). The port's thread keeps up with the hart on average;
/// a deep queue lets the hart run on while the host deschedules that thread for a few
/// milliseconds (with 4, `hartscope bench` measured capture at 0.64-0.83 of untraced on a
/// busy 2-core VM; with 32, 0.75-0.84 in the same hour).
const PORT_QUEUE: usize = 32;

/// Batches the port's thread makes ready for the hart, their memory mapped there, one after
/// each of the first batches it replays (a run shorter than a batch makes none, and its end
/// does not wait for them): a batch the hart allocates itself takes a page fault per 4 KiB
/// as the hart fills it (about 1,500 faults in the first 50 M instructions of bench.elf
/// without these).
const PREFAULTED: usize = 4;

/// The ingress port and what it feeds, on a thread of their own, fed with the events the
/// hart's [`iss::ingress::Capture`] records (bounded channel: the hart waits when it is full).
pub struct PortThread<W: Write + Send + 'static> {
    stage: Option<Stage<ToPort, io::Result<Outputs<W>>>>,
}

impl<W: Write + Send + 'static> PortThread<W> {
    pub fn spawn(mut port: IngressPort<Outputs<W>, false>) -> io::Result<Self> {
        let stage = Stage::spawn(
            "ingress-port",
            "the ingress port's thread",
            PORT_QUEUE,
            PORT_QUEUE,
            move |inbox: Inbox<ToPort>| {
                let mut prefault = PREFAULTED;
                for m in inbox.iter() {
                    match m {
                        ToPort::Batch(mut b) => {
                            port.replay(&b);
                            b.clear();
                            inbox.give_back(ToPort::Batch(b));
                            if prefault > 0 {
                                prefault -= 1;
                                let mut b = PortBatch::default();
                                b.prefault();
                                inbox.give_back(ToPort::Batch(b));
                            }
                        }
                        ToPort::End => return port.finish(),
                    }
                }
                Err(io::Error::other("the trace ended without an end of run"))
            },
        )?;
        Ok(PortThread { stage: Some(stage) })
    }

    /// End the run: the port flushes and finishes its outputs, which are returned.
    pub fn finish(mut self) -> io::Result<Outputs<W>> {
        match self.stage.take() {
            Some(s) => {
                s.send(ToPort::End);
                s.join().unwrap_or_else(|p| Err(p.into()))
            }
            None => Err(io::Error::other("the ingress port's thread is gone")),
        }
    }
}

impl<W: Write + Send + 'static> EventSink for PortThread<W> {
    fn events(&mut self, batch: &mut PortBatch) {
        if let Some(s) = &self.stage {
            let fresh = match s.recycled() {
                Some(ToPort::Batch(b)) => b,
                _ => PortBatch::default(),
            };
            let full = std::mem::replace(batch, fresh);
            // The thread only ends after `End` (or a panic, reported by `finish`).
            s.send(ToPort::Batch(full));
        }
    }
}

/// The ingress port with its outputs, run one of four ways (see the module's doc).
pub enum Port<W: Write + Send + 'static> {
    Threaded(Capture<PortThread<W>>),
    Inline(IngressPort<Outputs<W>, false>),
    Records(IngressPort<Outputs<W>, true>),
    Funnel(Funnel<W>),
}

impl<W: Write + Send + 'static> Port<W> {
    /// End the run: flush the port and finish its outputs (the first error names its
    /// output); the outputs come back with the encoder's statistics.
    pub fn finish(self) -> io::Result<Outputs<W>> {
        match self {
            Port::Threaded(c) => c.finish().finish(),
            Port::Inline(p) => p.finish(),
            Port::Records(p) => p.finish(),
            Port::Funnel(f) => f.finish(),
        }
    }
}

/// An output of a capture: what to write to, and its name for errors.
pub struct Named<T> {
    pub out: T,
    pub name: String,
}

/// Why a capture could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("N-Trace encoder: {0}")]
    Config(#[from] ConfigError),
    #[error("cannot start the ingress port's thread: {0}")]
    Thread(io::Error),
}

/// Start a capture: the ingress port (settings `icfg`, on a hart whose CSRs are `csr` now)
/// feeding the encoder (settings `enc`, writing to `ntrace`) and the beat `writer`, either
/// of them optional. `records`: the hart produces full records for another consumer anyway
/// (the port then runs on the hart's thread).
pub fn start<W: Write + Send + 'static>(
    enc: &EncoderConfig,
    ntrace: Option<Named<W>>,
    writer: Option<Named<Box<dyn BeatSink + Send>>>,
    icfg: IngressConfig,
    csr: &Csrs,
    records: bool,
) -> Result<Port<W>, StartError> {
    let threaded = !icfg.data && !records;
    let (encoder, encoder_name) = match ntrace {
        Some(n) => (
            Some(if threaded {
                EncoderOut::Inline(Box::new(Encoder::new(enc.clone(), n.out)?))
            } else {
                EncoderOut::Thread(EncoderThread::new(enc.clone(), n.out)?)
            }),
            n.name,
        ),
        None => (None, String::new()),
    };
    let (writer, writer_name) = match writer {
        Some(w) => (Some(w.out), w.name),
        None => (None, String::new()),
    };
    let out = Outputs {
        encoder,
        writer,
        stats: None,
        encoder_name,
        writer_name,
    };
    Ok(if icfg.data {
        Port::Records(IngressPort::new(icfg, out, csr))
    } else if threaded {
        let thread = PortThread::spawn(IngressPort::new(icfg.clone(), out, csr))
            .map_err(StartError::Thread)?;
        Port::Threaded(Capture::new(&icfg, thread, csr))
    } else {
        Port::Inline(IngressPort::new(icfg, out, csr))
    })
}

// ----------------------------------------------------------------------------------------
// Several harts into one stream.

/// A funnelled hart's port keeps the beats it finished here until the hart's turn ends.
#[derive(Default)]
pub struct Held {
    beats: Vec<Beat>,
    /// Where the hart was going when the run ended, once it has.
    end: Option<(u64, u8)>,
}

impl BeatSink for Held {
    fn beats(&mut self, beats: &[Beat], _data: &[DataBeat]) {
        self.beats.extend_from_slice(beats);
    }

    fn finish(&mut self, next_pc: u64, prv: u8) -> io::Result<()> {
        self.end = Some((next_pc, prv));
        Ok(())
    }
}

/// Beats a funnelled hart's port holds at most before they go to its encoder.
pub const HELD_BEATS: usize = 8192;

/// What the funnel's thread is sent: one hart's beats of one turn (by the hart's slot), or
/// the end of a hart's trace.
enum ToFunnel {
    Beats { slot: usize, beats: Vec<Beat> },
    End { slot: usize, next_pc: u64, prv: u8 },
}

/// The trace port all funnelled encoders write to, one whole message at a time.
struct FunnelOut<W>(Arc<Mutex<W>>);

impl<W: Write> Write for FunnelOut<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut w = self.0.lock().unwrap_or_else(|p| p.into_inner());
        w.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        let mut w = self.0.lock().unwrap_or_else(|p| p.into_inner());
        w.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        let mut w = self.0.lock().unwrap_or_else(|p| p.into_inner());
        w.flush()
    }
}

/// Several harts traced into one N-Trace stream, as hardware with one encoder per hart and a
/// trace funnel in front of one trace port: each traced hart has its own ingress port and
/// its own encoder (trTeSrcID = the hart's index, the same trTeSrcBits for all, N-Trace 4.2:
/// "each encoder for each enabled hart (in same trace stream) must have same trTeSrcBits and
/// different trTeSrcID"), with its own output FIFO (without stall, each drains at the
/// configured rate as its own hart retires: the rate is each encoder's share of the port).
/// The funnel merges their messages whole, in the order the harts produced them: the hart's
/// port hands its finished beats over when the hart's turn (its quantum) ends, and one
/// thread runs the encoders on them in that order, each writing its messages out after its
/// turn. The stream is the same from run to run.
pub struct Funnel<W: Write + Send + 'static> {
    /// The traced harts' ports, by slot, with their hart.
    ports: Vec<(usize, IngressPort<Held, false>)>,
    /// The slot of each hart (by hart index), if it is traced.
    slot: Vec<Option<usize>>,
    stage: Option<Stage<ToFunnel, io::Result<(W, EncoderStats)>>>,
    name: String,
}

impl<W: Write + Send + 'static> Funnel<W> {
    /// A funnel of the harts `harts` (hart index, its CSRs now), each with an encoder of
    /// settings `enc` but for trTeSrcID (the hart's index), writing to `out`.
    pub fn start(
        enc: &EncoderConfig,
        out: Named<W>,
        icfg: IngressConfig,
        harts: &[(usize, Csrs)],
    ) -> Result<Funnel<W>, StartError> {
        let shared = Arc::new(Mutex::new(out.out));
        let mut encoders = Vec::with_capacity(harts.len());
        let mut slot = Vec::new();
        let mut ports = Vec::with_capacity(harts.len());
        for (i, (h, csr)) in harts.iter().enumerate() {
            let mut cfg = enc.clone();
            cfg.control.tr_te_src_id = *h as u16;
            encoders.push(Some(Encoder::new(cfg, FunnelOut(shared.clone()))?));
            if slot.len() <= *h {
                slot.resize(*h + 1, None);
            }
            slot[*h] = Some(i);
            ports.push((*h, IngressPort::new(icfg.clone(), Held::default(), csr)));
        }
        let stage = Stage::spawn(
            "ntrace-funnel",
            "the N-Trace funnel's thread",
            PORT_QUEUE,
            PORT_QUEUE,
            move |inbox: Inbox<ToFunnel>| {
                let mut total = EncoderStats::default();
                let mut first_error = None;
                for m in inbox.iter() {
                    match m {
                        ToFunnel::Beats { slot, mut beats } => {
                            if let Some(Some(e)) = encoders.get_mut(slot) {
                                for b in &beats {
                                    e.beat(b);
                                }
                                e.flush_messages();
                            }
                            beats.clear();
                            inbox.give_back(ToFunnel::Beats { slot, beats });
                        }
                        ToFunnel::End { slot, next_pc, prv } => {
                            if let Some(e) = encoders.get_mut(slot).and_then(Option::take) {
                                match e.finish(next_pc, prv) {
                                    Ok((_, stats)) => total.add(&stats),
                                    Err(err) => {
                                        first_error.get_or_insert(err);
                                    }
                                }
                            }
                        }
                    }
                }
                if encoders.iter().any(Option::is_some) {
                    return Err(io::Error::other(
                        "the funnel's input ended without an end of run",
                    ));
                }
                drop(encoders);
                if let Some(e) = first_error {
                    return Err(e);
                }
                let out = Arc::try_unwrap(shared)
                    .map_err(|_| io::Error::other("the funnel's output is still shared"))?;
                let mut w = out.into_inner().unwrap_or_else(|p| p.into_inner());
                w.flush()?;
                Ok((w, total))
            },
        )
        .map_err(StartError::Thread)?;
        Ok(Funnel {
            ports,
            slot,
            stage: Some(stage),
            name: out.name,
        })
    }

    fn port(&mut self, hart: usize) -> Option<&mut IngressPort<Held, false>> {
        let s = (*self.slot.get(hart)?)?;
        self.ports.get_mut(s).map(|(_, p)| p)
    }

    /// Hart `hart` retired `r`. A turn's beats are handed over at its end, or earlier when
    /// [`HELD_BEATS`] have gathered (one hart, or a hart that runs long: memory stays
    /// bounded, and the order is the same).
    #[inline]
    pub fn retire(&mut self, hart: usize, r: &Retired) {
        if let Some(p) = self.port(hart) {
            p.retire(r);
            if p.sink_mut().beats.len() >= HELD_BEATS {
                self.turn_ended(hart);
            }
        }
    }

    /// Hart `hart` took trap `t`.
    pub fn trap(&mut self, hart: usize, t: &TrapRecord) {
        if let Some(p) = self.port(hart) {
            p.trap(t);
        }
    }

    /// Hart `hart`'s next instruction fired trace-action triggers `bits` (`Sink::trigger`).
    pub fn trigger(&mut self, hart: usize, bits: u8) {
        if let Some(p) = self.port(hart) {
            p.trigger(bits);
        }
    }

    /// Hart `hart`'s turn ended: its finished beats go to its encoder.
    pub fn turn_ended(&mut self, hart: usize) {
        let Some(s) = self.slot.get(hart).copied().flatten() else {
            return;
        };
        let Some(stage) = &self.stage else { return };
        let p = &mut self.ports[s].1;
        p.flush_finished();
        if p.sink_mut().beats.is_empty() {
            return;
        }
        let fresh = match stage.recycled() {
            Some(ToFunnel::Beats { beats, .. }) => beats,
            _ => Vec::new(),
        };
        let beats = std::mem::replace(&mut p.sink_mut().beats, fresh);
        stage.send(ToFunnel::Beats { slot: s, beats });
    }

    /// End the run: every hart's port flushes, and its encoder closes its trace, in slot
    /// order; the statistics are all encoders' together.
    pub fn finish(mut self) -> io::Result<Outputs<W>> {
        let Some(stage) = self.stage.take() else {
            return Err(io::Error::other("the N-Trace funnel's thread is gone"));
        };
        let mut failed = None;
        for (s, (_, p)) in std::mem::take(&mut self.ports).into_iter().enumerate() {
            match p.finish() {
                Ok(mut held) => {
                    let beats = std::mem::take(&mut held.beats);
                    if !beats.is_empty() {
                        stage.send(ToFunnel::Beats { slot: s, beats });
                    }
                    let (next_pc, prv) = held.end.unwrap_or((0, 3));
                    stage.send(ToFunnel::End {
                        slot: s,
                        next_pc,
                        prv,
                    });
                }
                Err(e) => {
                    failed.get_or_insert(e);
                }
            }
        }
        let r = stage.join().unwrap_or_else(|p| Err(p.into()));
        if let Some(e) = failed {
            return Err(writing(&self.name, e));
        }
        let (_, stats) = r.map_err(|e| writing(&self.name, e))?;
        Ok(Outputs {
            encoder: None,
            writer: None,
            stats: Some(stats),
            encoder_name: self.name,
            writer_name: String::new(),
        })
    }
}

/// The sinks of one run, each optional: a commit log `L` and a tandem writer `T` (any sinks
/// of full records) and the ingress port. As one [`Sink`] it feeds them all full records (the
/// port in line); [`run`] runs the hart the cheapest way for the ones present. With a log or a
/// tandem writer beside it, the port must be one [`start`] made for records (`records`
/// true): a port on its own thread takes runs, and cannot be fed records (that panics).
pub struct Recorders<L, T, W: Write + Send + 'static> {
    pub log: Option<L>,
    pub port: Option<Port<W>>,
    pub tandem: Option<T>,
    /// With several harts, the hart the port and the tandem writer follow (`--trace-hart`):
    /// they see its records and traps only; the log sees every hart's.
    pub trace_hart: usize,
    /// The hart running now ([`Sink::hart`]; the one the machine shows when the run starts).
    pub running: usize,
}

impl<L: Sink, T: Sink, W: Write + Send + 'static> Sink for Recorders<L, T, W> {
    const DETAIL: Detail = Detail::Records;

    #[inline]
    fn retire(&mut self, r: &Retired) {
        if let Some(l) = &mut self.log {
            l.retire(r);
        }
        if let Some(Port::Funnel(f)) = &mut self.port {
            f.retire(self.running, r);
        }
        if self.running != self.trace_hart {
            return;
        }
        if let Some(t) = &mut self.tandem {
            t.retire(r);
        }
        match &mut self.port {
            Some(Port::Inline(p)) => p.retire(r),
            Some(Port::Records(p)) => p.retire(r),
            // `start` puts the port on its own thread only when nothing else takes records.
            Some(Port::Threaded(_)) => unreachable!("a port on its own thread takes runs"),
            Some(Port::Funnel(_)) | None => {}
        }
    }

    fn trap(&mut self, t: &TrapRecord) {
        if let Some(l) = &mut self.log {
            l.trap(t);
        }
        if let Some(Port::Funnel(f)) = &mut self.port {
            f.trap(self.running, t);
        }
        if self.running != self.trace_hart {
            return;
        }
        if let Some(w) = &mut self.tandem {
            w.trap(t);
        }
        match &mut self.port {
            Some(Port::Inline(p)) => p.trap(t),
            Some(Port::Records(p)) => p.trap(t),
            Some(Port::Threaded(p)) => p.trap(t),
            Some(Port::Funnel(_)) | None => {}
        }
    }

    fn trigger(&mut self, bits: u8) {
        if let Some(Port::Funnel(f)) = &mut self.port {
            f.trigger(self.running, bits);
        }
        if self.running != self.trace_hart {
            return;
        }
        if let Some(w) = &mut self.tandem {
            w.trigger(bits);
        }
        match &mut self.port {
            Some(Port::Inline(p)) => p.trigger(bits),
            Some(Port::Records(p)) => p.trigger(bits),
            Some(Port::Threaded(p)) => p.trigger(bits),
            Some(Port::Funnel(_)) | None => {}
        }
    }

    fn failed(&self) -> bool {
        self.log.as_ref().is_some_and(|l| l.failed())
            || self.tandem.as_ref().is_some_and(|t| t.failed())
    }

    fn reset_record(&mut self, r: &Retired) {
        // The log's only: a trace starts at the entry, as hart 0's does.
        if let Some(l) = &mut self.log {
            l.retire(r);
        }
    }

    fn hart(&mut self, h: usize) {
        if let Some(Port::Funnel(f)) = &mut self.port {
            f.turn_ended(self.running);
        }
        self.running = h;
        if let Some(l) = &mut self.log {
            l.hart(h);
        }
    }

    // A tandem writer may need the hart seen (its style, known at run time): the owner then
    // runs the recorders through `Watched` (`wants_watch`), and no other run pays a call.
    const WATCH: bool = T::WATCH;

    #[inline]
    fn watch(&mut self, m: &Machine, at: At) {
        if self.running != self.trace_hart {
            return;
        }
        if let Some(t) = &mut self.tandem {
            t.watch(m, at);
        }
    }

    fn wants_watch(&self) -> bool {
        self.tandem.as_ref().is_some_and(|t| t.wants_watch())
    }
}

/// Run `m` (at most `limit` instructions) with the sinks present, each the cheapest way:
/// untraced with none; the commit log, the tandem writer or the port alone as the hart's
/// only sink (the log then takes simple runs, and a port on its own thread runs, not
/// records); otherwise all of them on full records. The sinks come back unfinished: the
/// caller finishes each (its errors name its file).
pub fn run<L: Sink, T: Sink, W: Write + Send + 'static>(
    m: &mut Machine,
    mut sinks: Recorders<L, T, W>,
    limit: Option<u64>,
) -> (Stop, Recorders<L, T, W>) {
    let watch = sinks.wants_watch();
    sinks.running = m.current_hart();
    if m.harts() > 1 && (sinks.port.is_some() || sinks.tandem.is_some()) {
        // Every sink through the records path, where the port and the tandem writer follow
        // one hart.
        let stop = if watch {
            run_one(m, &mut Watched(&mut sinks), limit)
        } else {
            run_one(m, &mut sinks, limit)
        };
        return (stop, sinks);
    }
    let stop = match (&mut sinks.log, &mut sinks.port, &mut sinks.tandem) {
        (None, None, None) => run_one(m, &mut NoSink, limit),
        // The commit log alone takes simple runs (its `DETAIL`), not full records.
        (Some(l), None, None) => run_one(m, l, limit),
        (None, None, Some(t)) if t.wants_watch() => run_one(m, &mut Watched(t), limit),
        (None, None, Some(t)) => run_one(m, t, limit),
        (None, Some(Port::Threaded(p)), None) => run_one(m, p, limit),
        (None, Some(Port::Inline(p)), None) => run_one(m, p, limit),
        _ if watch => run_one(m, &mut Watched(&mut sinks), limit),
        _ => run_one(m, &mut sinks, limit),
    };
    (stop, sinks)
}

/// One run loop per sink type, each compiled on its own: inlined side by side into [`run`],
/// they share one function's register allocation, and each one's speed then depends on the
/// others (callgrind, `--tandem` on bench.elf, 1 M instructions: 153.2 M host instructions
/// inlined, 147.5 M so).
#[inline(never)]
fn run_one<S: Sink>(m: &mut Machine, sink: &mut S, limit: Option<u64>) -> Stop {
    m.run(sink, limit)
}
