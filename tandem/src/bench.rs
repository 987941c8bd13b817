//! Benchmarks (`hartscope tandem bench`): the hart's speed with the writer on and off, and
//! the verifier's speed, on a stream in memory and on a stream piped from a running hart
//! (whose length is limited only by the run, to show the verifier's memory stays flat).

use crate::config::WriterConfig;
use crate::session::{machine, writer, HartConfig, SetupError};
use crate::verify::{Report, Verifier, VerifyConfig};
use iss::Detail;
use iss::NoSink;
use std::io::{Read, Write};
use std::time::Instant;

/// Instructions per second of a run of `insns` instructions, with the writer writing to
/// `out` (or untraced with `None`). Returns (instructions retired, seconds, stream bytes).
pub fn hart_speed(
    elf: &[u8],
    path: &str,
    hart: HartConfig,
    insns: u64,
    traced: Option<(&WriterConfig, Box<dyn Write + Send>)>,
) -> Result<(u64, f64, u64), SetupError> {
    let (mut m, prog) = machine(elf, path, hart)?;
    match traced {
        None => {
            let t = Instant::now();
            m.run(&mut NoSink, Some(insns));
            Ok((m.retired(), t.elapsed().as_secs_f64(), 0))
        }
        Some((cfg, out)) => {
            let mut w = writer(&m, &prog, cfg, out)?;
            let t = Instant::now();
            m.run(&mut w, Some(insns));
            let (_, stats) = w.finish(Some(m.hart.prv)).map_err(SetupError::Write)?;
            Ok((m.retired(), t.elapsed().as_secs_f64(), stats.bytes))
        }
    }
}

/// A sink that takes every record and does almost nothing with it: the hart's own cost of
/// producing records, the floor under any writer's. `SIMPLE`: it takes runs of simple
/// instructions (as the tandem writer does), else every record built.
struct Records<const SIMPLE: bool> {
    sum: u64,
}

impl<const SIMPLE: bool> iss::record::Sink for Records<SIMPLE> {
    const DETAIL: Detail = if SIMPLE {
        Detail::SimpleRuns
    } else {
        Detail::Records
    };
    #[inline]
    fn simple_run(&mut self, r: &iss::record::SimpleRun) {
        std::hint::black_box(r);
        self.sum = self.sum.wrapping_add(r.next_pc ^ r.effects.len() as u64);
    }
    #[inline]
    fn retire(&mut self, r: &iss::record::Retired) {
        // The whole record must exist, as for a real sink (not only the fields read here).
        std::hint::black_box(r);
        self.sum = self.sum.wrapping_add(r.next_pc ^ r.n_writes as u64);
    }
    fn trap(&mut self, t: &iss::record::TrapRecord) {
        self.sum = self.sum.wrapping_add(t.handler);
    }
}

/// Like [`hart_speed`] untraced, but with a sink that takes the retirement records and
/// ignores them; `simple`: in runs of simple instructions where it can (as the writer takes
/// them), else every record built. Returns (instructions retired, seconds).
pub fn hart_speed_records(
    elf: &[u8],
    path: &str,
    hart: HartConfig,
    insns: u64,
    simple: bool,
) -> Result<(u64, f64), SetupError> {
    fn run<const SIMPLE: bool>(m: &mut iss::Machine, insns: u64) -> f64 {
        let mut sink = Records::<SIMPLE> { sum: 0 };
        let t = Instant::now();
        m.run(&mut sink, Some(insns));
        let secs = t.elapsed().as_secs_f64();
        std::hint::black_box(sink.sum);
        secs
    }
    let (mut m, _) = machine(elf, path, hart)?;
    let secs = if simple {
        run::<true>(&mut m, insns)
    } else {
        run::<false>(&mut m, insns)
    };
    Ok((m.retired(), secs))
}

/// The resident set size of this process, in KiB (Linux), or 0.
pub fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

/// A reader that samples the process's memory as the stream goes by.
pub struct Sampling<R: Read> {
    inner: R,
    read: u64,
    next: u64,
    every: u64,
    /// (bytes read, RSS in KiB).
    pub samples: Vec<(u64, u64)>,
}

impl<R: Read> Sampling<R> {
    pub fn new(inner: R, every: u64) -> Self {
        Sampling {
            inner,
            read: 0,
            next: 0,
            every,
            samples: Vec::new(),
        }
    }
}

impl<R: Read> Read for Sampling<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        if self.read >= self.next {
            self.samples.push((self.read, rss_kib()));
            self.next = self.read + self.every;
        }
        Ok(n)
    }
}

/// Why [`verify_streamed`] failed.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The pipe between the hart and the verifier could not be made.
    #[error("{0}")]
    Pipe(std::io::Error),
    #[error("the hart thread panicked")]
    Panicked,
}

/// Verify the stream of a run of `insns` instructions, piped from a hart running on another
/// thread. Returns the report and RSS samples taken along the stream.
pub fn verify_streamed(
    elf: &[u8],
    path: &str,
    hart: HartConfig,
    insns: u64,
    cfg: &WriterConfig,
    vcfg: VerifyConfig,
) -> Result<(Report, Vec<(u64, u64)>), BenchError> {
    let (reader, pipe) = std::io::pipe().map_err(BenchError::Pipe)?;
    let elf_owned = elf.to_vec();
    let path_owned = path.to_string();
    let wcfg = cfg.clone();
    let producer = std::thread::spawn(move || -> Result<(), SetupError> {
        let (mut m, prog) = machine(&elf_owned, &path_owned, hart)?;
        let mut w = writer(&m, &prog, &wcfg, pipe)?;
        m.run(&mut w, Some(insns));
        // A verifier that stopped early closes the pipe: that is not this thread's error.
        let _ = w.finish(Some(m.hart.prv));
        Ok(())
    });
    let mut v = Verifier::new(vcfg, Some((elf, path)))?;
    let mut input = Sampling::new(reader, 256 << 20);
    v.run(&mut input);
    drop(input.inner);
    producer.join().map_err(|_| BenchError::Panicked)??;
    let mut samples = input.samples;
    samples.push((input.read, rss_kib()));
    Ok((v.report, samples))
}
