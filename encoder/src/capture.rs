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

use crate::encoder::{ConfigError, Encoder, EncoderConfig, EncoderStats, EncoderThread};
use iss::csr::Csrs;
use iss::ingress::{
    Beat, BeatSink, Capture, DataBeat, EventSink, IngressConfig, IngressPort, PortBatch,
};
use iss::record::{At, Retired, TrapRecord, Watched};
use iss::stage::{Inbox, Stage};
use iss::{Detail, Machine, NoSink, Sink, Stop};
use std::io::{self, Write};

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
                for m in inbox.iter() {
                    match m {
                        ToPort::Batch(mut b) => {
                            port.replay(&b);
                            b.clear();
                            inbox.give_back(ToPort::Batch(b));
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

/// The ingress port with its outputs, run one of three ways (see the module's doc).
pub enum Port<W: Write + Send + 'static> {
    Threaded(Capture<PortThread<W>>),
    Inline(IngressPort<Outputs<W>, false>),
    Records(IngressPort<Outputs<W>, true>),
}

impl<W: Write + Send + 'static> Port<W> {
    /// End the run: flush the port and finish its outputs (the first error names its
    /// output); the outputs come back with the encoder's statistics.
    pub fn finish(self) -> io::Result<Outputs<W>> {
        match self {
            Port::Threaded(c) => c.finish().finish(),
            Port::Inline(p) => p.finish(),
            Port::Records(p) => p.finish(),
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
            None => {}
        }
    }

    fn trap(&mut self, t: &TrapRecord) {
        if let Some(l) = &mut self.log {
            l.trap(t);
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
            None => {}
        }
    }

    fn trigger(&mut self, bits: u8) {
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
            None => {}
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
/// untraced with none; the tandem writer alone or the port alone as the hart's only sink (a
/// port on its own thread then takes runs, not records); otherwise all of them on full
/// records. The sinks come back unfinished: the caller finishes each (its errors name its
/// file).
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
