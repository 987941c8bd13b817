//! Control Transfer Records end to end: the branch-stack profiling example
//! (`programs/ctr_profile.c`) and the `--ctr-report` of `hartscope run`.
//!
//! The profiler samples S-mode code with an hpm counter's overflow interrupt, freezes CTR on it
//! (LCOFIFRZ), reads the whole branch stack in the handler and adds every valid entry's edge
//! (source -> target) to a histogram, which it prints. Here the same ELF runs through the hart
//! with a full-record sink that feeds the independent reference of `iss/tests/ctr_ref` (it
//! knows nothing of the `ctr` crate): at every LCOFI that freezes CTR it notes what the array
//! must hold, the last `depth` qualified transfers. The printed histogram must be exactly the
//! sum of those stacks. Exactly, because nothing in the example is approximate: the LCOFI is
//! taken at the instruction that overflows the counter, the freeze happens at the trap (which
//! itself is not recorded), the handler reads every entry while frozen, and it clears FROZEN
//! as its last instruction before an sret that TRETINH keeps out of the array; so each sample
//! is the stack at one precise point of the retired stream.

mod common;
#[path = "../iss/tests/ctr_ref/mod.rs"]
mod ctr_ref;

use common::hartscope;
use ctr_ref::{CtrRef, RefSink};
use iss::bus::Console;
use iss::{Machine, NoSink, Sink, Stop};
use std::collections::BTreeMap;

type Histogram = BTreeMap<(u64, u64), u64>;

/// What the profiler printed.
#[derive(Debug, Default)]
struct Printed {
    samples: u64,
    depth: usize,
    records: u64,
    hist: Histogram,
}

fn parse(out: &str) -> Printed {
    let mut p = Printed::default();
    let hex = |s: &str| u64::from_str_radix(s.trim_start_matches("0x"), 16).expect("a hex pc");
    for line in out.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.as_slice() {
            ["edge", src, dst, n] => {
                let old = p
                    .hist
                    .insert((hex(src), hex(dst)), n.parse().expect("a count"));
                assert!(old.is_none(), "edge printed twice: {line}");
            }
            ["ctr_profile:", n, "samples", .., "depth", d] => {
                p.samples = n.parse().expect("a sample count");
                p.depth = d.parse().expect("a depth");
            }
            ["ctr_profile:", _, "edges,", n, "records"] => p.records = n.parse().expect("records"),
            _ => panic!("unexpected output line: {line}"),
        }
    }
    p
}

/// Run the profiler on the machine its source asks for (`hartscope-options`), into `sink`;
/// what it printed, and why it stopped.
fn run_profile<S: Sink>(sink: &mut S) -> (String, Stop) {
    assert_eq!(
        common::program_options("ctr_profile"),
        [
            "--isa",
            "rv64gc_zicntr_zihpm_smctr_sscofpmf",
            "--ctr",
            "1.0"
        ],
        "the machine built here must be the one ctr_profile.c asks for"
    );
    let c = iss::options::HartOptions::from_args(&common::program_options("ctr_profile"))
        .and_then(|o| o.config(iss::Config::default()))
        .expect("ctr_profile's options");
    let mut m = Machine::new(c);
    m.bus.console = Console::Capture(Vec::new());
    let prog = iss::elf::load_file(&mut m, &common::program("ctr_profile")).expect("load");
    m.boot(prog.entry);
    let stop = m.run(sink, Some(50_000_000));
    let out = String::from_utf8_lossy(m.bus.console.captured()).into_owned();
    (out, stop)
}

#[test]
fn profile_histogram_is_the_sum_of_the_true_branch_stacks() {
    let mut r = CtrRef::new(true);
    let (out, stop) = run_profile(&mut RefSink(&mut r));
    assert_eq!(stop, Stop::Exit(0), "the profiler failed:\n{out}");
    assert_eq!(r.unsupported, None);
    assert!(
        !r.ambiguous_branch,
        "a branch to its own successor: its direction is not in the stream"
    );
    let printed = parse(&out);
    assert_eq!(printed.depth, r.depth, "the depth the profiler used");

    let mut want = Histogram::new();
    for stack in &r.snapshots {
        for e in stack {
            *want.entry((e.source, e.target)).or_default() += 1;
        }
    }
    assert!(
        r.snapshots.len() >= 100 && want.len() >= 10,
        "too little to compare: {} samples, {} edges",
        r.snapshots.len(),
        want.len()
    );
    assert_eq!(printed.samples, r.snapshots.len() as u64, "samples");
    assert_eq!(
        printed.records,
        r.snapshots.iter().map(|s| s.len() as u64).sum::<u64>(),
        "records read"
    );
    let mut diffs = Vec::new();
    for key in want.keys().chain(printed.hist.keys()) {
        let (w, g) = (want.get(key), printed.hist.get(key));
        if w != g && !diffs.iter().any(|(k, _, _)| k == key) {
            diffs.push((*key, w.copied(), g.copied()));
        }
    }
    assert!(
        diffs.is_empty(),
        "histogram differs from the stream's branch stacks, (source, target): expected, \
         printed: {diffs:x?}"
    );
}

/// The untraced hart (runs chained in blocks, records deferred) samples at the same points
/// and records the same branches as the traced one: the same histogram.
#[test]
fn profile_is_the_same_untraced() {
    let (traced, _) = run_profile(&mut RefSink(&mut CtrRef::new(true)));
    let (fast, stop) = run_profile(&mut NoSink);
    assert_eq!(stop, Stop::Exit(0), "{fast}");
    assert_eq!(fast, traced);
}

/// `--ctr-report=FILE.json`: the array at exit from logical entry 0, each entry symbolised.
#[test]
fn ctr_report_json_symbolises_the_entries() {
    let dir = common::TempDir::new("ctr-report");
    let json = dir.path().join("ctr.json");
    let out = common::run_with_timeout(
        hartscope()
            .args(["run", "-q"])
            .args(common::program_options("ctr_profile"))
            .arg(format!("--ctr-report={}", json.display()))
            .arg(common::program("ctr_profile")),
        "hartscope run ctr_profile --ctr-report",
        std::time::Duration::from_secs(60),
    );
    assert_eq!(out.code(), Some(0), "{}", out.stderr_str());
    let text = std::fs::read_to_string(&json).expect("the report");
    let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let entries = v.as_array().expect("an array of entries");
    assert_eq!(entries.len(), 32, "the profiler's depth");
    let valid: Vec<_> = entries.iter().filter(|e| e["valid"] == true).collect();
    assert!(!valid.is_empty());
    for (i, e) in entries.iter().enumerate() {
        assert_eq!(e["index"], i);
    }
    for e in valid {
        for k in ["source_symbol", "target_symbol"] {
            let s = e[k]
                .as_str()
                .unwrap_or_else(|| panic!("{k} missing in {e}"));
            assert!(!s.is_empty(), "{e}");
        }
        assert!(e["type"].is_string(), "{e}");
        assert!(e["cycles"].is_u64() || e["cycles"].is_null(), "{e}");
    }
}
