//! The mutation test: streams of runs on a hart that breaks in the ways a broken core does
//! (see `tandem::mutate`), verified against the same ELF. Every fault that gives the hart a
//! state the architecture does not allow must be reported at the group where it was made,
//! and nothing else may be reported (the verifier resynchronises after each fault). The
//! detection rate per kind is printed (`cargo test -- --nocapture`).

mod common;

use common::*;
use tandem::config::WriterConfig;
use tandem::mutate::{run_kind, Kind, KINDS};

/// Faults per kind (spread over the programs and seeds): 1000 in an optimised build, 300 in
/// a debug build (`cargo test --release -p tandem --test mutation` for the full count), or
/// `TANDEM_MUTATIONS`.
fn target() -> u64 {
    std::env::var("TANDEM_MUTATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 300 } else { 1000 })
}

#[test]
fn every_state_changing_fault_is_reported_where_it_was_made() {
    let programs: Vec<(String, Vec<u8>)> = programs()
        .into_iter()
        .filter(|(n, _)| n != "bench" && n != "finisher")
        .collect();
    let cfg = WriterConfig::flute();
    let mut failures = Vec::new();
    println!(
        "{:<24} {:>9} {:>9} {:>9} {:>9} {:>8} {:>7}",
        "kind", "faults", "changing", "detected", "allowed", "false", "rate"
    );
    for kind in KINDS {
        let start = std::time::Instant::now();
        let t = run_kind(kind, &programs, &cfg, &verify_config(&cfg), target())
            .unwrap_or_else(|e| panic!("{}: {e}", kind.name()));
        println!(
            "{:<24} {:>9} {:>9} {:>9} {:>9} {:>8} {:>6.1}% {:>6.1}s",
            kind.name(),
            t.mutations,
            t.state_changing,
            t.detected,
            t.allowed_silent,
            t.false_reports,
            100.0 * t.rate(),
            start.elapsed().as_secs_f64()
        );
        if t.detected != t.state_changing || t.false_reports != 0 || t.mutations == 0 {
            failures.push(format!(
                "{}: missed {:?}\nstray {:#?}",
                kind.name(),
                t.missed,
                t.stray
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// With increment pc (opcode 3) instead of full next pcs, the stream never says where a
/// core went after skipping an instruction: the verifier finds it from the instruction word
/// and resynchronises, so a dropped group is one report, not a report per group after it.
#[test]
fn dropped_groups_in_increment_pc_streams_are_reported_once() {
    let programs: Vec<(String, Vec<u8>)> = programs()
        .into_iter()
        .filter(|(n, _)| n != "bench" && n != "finisher")
        .collect();
    let cfg = WriterConfig {
        pc: tandem::config::PcMode::Increment,
        ..WriterConfig::flute()
    };
    let t = run_kind(
        Kind::DroppedGroup,
        &programs,
        &cfg,
        &verify_config(&cfg),
        target(),
    )
    .expect("dropped groups");
    println!(
        "increment pc, {}: {} faults, {} detected, {} false",
        Kind::DroppedGroup.name(),
        t.mutations,
        t.detected,
        t.false_reports
    );
    assert!(t.mutations > 0);
    assert_eq!(t.detected, t.state_changing, "missed {:?}", t.missed);
    assert_eq!(t.false_reports, 0, "stray {:#?}", t.stray);
}

/// The same faults in strict Flute streams (`Style::FluteStrict`). Every kind is reported at
/// its group, except what Flute's rules do not carry: a CSR instruction's side effects (the
/// CSRRX rule writes rd and the CSR named: mstatus.FS changed by `fscsr` shows at the next
/// group that carries mstatus). Those few must still be reported, at a later group. (What
/// an AMO or SC stored is not carried either, its data element being rs2's value, but the
/// oracle puts a wrong stored value where it shows: at the next load of it.) 100 faults per
/// kind in a debug build (`TANDEM_MUTATIONS` for more).
#[test]
fn strict_flute_streams_report_their_faults() {
    let programs: Vec<(String, Vec<u8>)> = programs()
        .into_iter()
        .filter(|(n, _)| n != "bench" && n != "finisher")
        .collect();
    let cfg = WriterConfig::flute_strict();
    let n = std::env::var("TANDEM_MUTATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 100 } else { 1000 });
    let mut failures = Vec::new();
    for kind in KINDS {
        let t = run_kind(kind, &programs, &cfg, &verify_config(&cfg), n)
            .unwrap_or_else(|e| panic!("{}: {e}", kind.name()));
        println!(
            "{:<24} {:>9} {:>9} {:>9} {:>9} {:>8} {:>6.1}%",
            kind.name(),
            t.mutations,
            t.state_changing,
            t.detected,
            t.allowed_silent,
            t.false_reports,
            100.0 * t.rate()
        );
        let later = kind == Kind::CsrValue;
        let ok = if later {
            // Each one missed at its group is reported at a later one, and rarely.
            t.mutations > 0
                && t.false_reports as usize >= t.missed.len()
                && t.false_reports as usize <= t.missed.len() * 2
                && t.rate() >= 0.95
        } else {
            t.mutations > 0 && t.detected == t.state_changing && t.false_reports == 0
        };
        if !ok {
            failures.push(format!(
                "{}: missed {:?}\nstray {:#?}",
                kind.name(),
                t.missed,
                t.stray
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
