//! A progress line on standard error for long work (`run`, `ntrace decode`, `tandem verify`,
//! `tandem mutate`): the work done, its rate and, when the total is known, a bar.
//!
//! It is drawn only where a person watches and nothing else is written: standard error is a
//! terminal, `--quiet` was not given, and standard output is not that terminal too (the
//! guest's console or a command's results would interleave with the redrawn line). It appears
//! after half a second, so short work shows nothing, and is cleared when the work ends. The
//! work itself publishes a counter (an atomic) and never waits for the display: a thread reads
//! the counter a few times a second.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What is counted, for the line's wording and rate.
#[derive(Clone, Copy)]
pub enum Unit {
    /// Retired instructions: "123,456,789 instructions, 310.2 MIPS".
    Instructions,
    /// Input bytes read: "1.2 GiB of 3.4 GiB, 250 MiB/s".
    Bytes,
    /// Items of work ("programs", "groups"): "12 of 40 programs".
    Items(&'static str),
}

/// A reader that counts the bytes read through it into a shared counter, for a progress line
/// over a stream that is read once (one relaxed add per read call).
pub struct Counted<R> {
    pub inner: R,
    pub count: Arc<AtomicU64>,
}

impl<R: std::io::Read> std::io::Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// The size of a regular file (the total of a progress line over it), if it is one.
pub fn file_size(p: &std::path::Path) -> Option<u64> {
    std::fs::metadata(p)
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.len())
}

/// Whether a progress line may be drawn: standard error is a terminal, standard output is not
/// (or the command writes nothing there), and not `--quiet`.
pub fn wanted(quiet: bool, writes_stdout: bool) -> bool {
    !quiet && std::io::stderr().is_terminal() && !(writes_stdout && std::io::stdout().is_terminal())
}

/// A progress line fed by `counter`; cleared on [`Progress::finish`] or drop.
pub struct Progress {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Progress {
    /// Nothing drawn: the work runs as it would without a display.
    pub fn none() -> Progress {
        Progress {
            stop: Arc::new(AtomicBool::new(true)),
            thread: None,
        }
    }

    /// Show `counter` (of `total`, when known) in `unit`s, with `what` as the line's label,
    /// if [`wanted`] says so.
    pub fn start(
        show: bool,
        what: &str,
        unit: Unit,
        counter: Arc<AtomicU64>,
        total: Option<u64>,
    ) -> Progress {
        if !show {
            return Progress::none();
        }
        let stop = Arc::new(AtomicBool::new(false));
        let what = what.to_string();
        let thread = {
            let stop = stop.clone();
            std::thread::Builder::new()
                .name("progress".into())
                .spawn(move || draw(&what, unit, &counter, total, &stop))
                .ok()
        };
        Progress { stop, thread }
    }

    /// Clear the line and stop the display.
    pub fn finish(mut self) {
        self.end();
    }

    fn end(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.end();
    }
}

fn draw(what: &str, unit: Unit, counter: &AtomicU64, total: Option<u64>, stop: &AtomicBool) {
    let start = Instant::now();
    let tick = Duration::from_millis(100);
    // Nothing for the first half second.
    while start.elapsed() < Duration::from_millis(500) {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        std::thread::sleep(tick);
    }
    let bar = match total {
        Some(t) => ProgressBar::with_draw_target(Some(t), ProgressDrawTarget::stderr()).with_style(
            ProgressStyle::with_template("{prefix} [{bar:30}] {percent:>3}% {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
        ),
        None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(
            ProgressStyle::with_template("{prefix} {spinner} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        ),
    };
    bar.set_prefix(what.to_string());
    let mut last = (start, 0u64);
    let mut rate = 0.0f64;
    while !stop.load(Ordering::Relaxed) {
        let n = counter.load(Ordering::Relaxed);
        let now = Instant::now();
        let dt = now.duration_since(last.0).as_secs_f64();
        if dt >= 0.5 {
            // A rate over the last half second or more, smoothed.
            let r = n.saturating_sub(last.1) as f64 / dt;
            rate = if rate == 0.0 { r } else { 0.7 * rate + 0.3 * r };
            last = (now, n);
        }
        bar.set_position(n);
        bar.set_message(describe(unit, n, total, rate));
        std::thread::sleep(tick);
    }
    bar.finish_and_clear();
}

/// The line's text: the count, the total and the rate in the unit's words.
fn describe(unit: Unit, n: u64, total: Option<u64>, rate: f64) -> String {
    match unit {
        Unit::Instructions => match total {
            Some(t) => format!(
                "{} of {} instructions, {:.1} MIPS",
                grouped(n),
                grouped(t),
                rate / 1e6
            ),
            None => format!("{} instructions, {:.1} MIPS", grouped(n), rate / 1e6),
        },
        Unit::Bytes => match total {
            Some(t) => format!("{} of {}, {}/s", bytes(n), bytes(t), bytes(rate as u64)),
            None => format!("{}, {}/s", bytes(n), bytes(rate as u64)),
        },
        Unit::Items(name) => match total {
            Some(t) => format!("{} of {} {name}", grouped(n), grouped(t)),
            None => format!("{} {name}", grouped(n)),
        },
    }
}

/// 1234567 -> "1,234,567".
fn grouped(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A byte count in B, KiB, MiB or GiB.
fn bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["B", "KiB", "MiB", "GiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u < UNITS.len() - 1 {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wording() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1_000), "1,000");
        assert_eq!(grouped(1_234_567_890), "1,234,567,890");
        assert_eq!(bytes(512), "512 B");
        assert_eq!(bytes(3 << 29), "1.5 GiB");
        assert_eq!(
            describe(Unit::Instructions, 2_000_000, None, 312.44e6),
            "2,000,000 instructions, 312.4 MIPS"
        );
        assert_eq!(
            describe(Unit::Instructions, 5, Some(10), 0.0),
            "5 of 10 instructions, 0.0 MIPS"
        );
        assert_eq!(
            describe(Unit::Bytes, 1 << 20, Some(1 << 30), (1 << 20) as f64),
            "1.0 MiB of 1.0 GiB, 1.0 MiB/s"
        );
        assert_eq!(
            describe(Unit::Items("programs"), 3, Some(11), 0.0),
            "3 of 11 programs"
        );
    }

    /// With nothing to draw on, the work goes on and the display ends at once.
    #[test]
    fn not_shown_is_free() {
        let p = Progress::start(false, "run", Unit::Instructions, Arc::default(), None);
        assert!(p.thread.is_none());
        p.finish();
    }
}
