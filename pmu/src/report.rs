//! The `--pmu-report`: every counter with its event and value, and the SBI calls the program
//! made with their results; serializable (JSON) and printable as a table.

use crate::class::{prv_of_index, NPRV};
use crate::counters::{Pmu, MCYCLE_IDX, MINSTRET_IDX};
use crate::csr::counter_name;
use crate::event::{self, MHPMEVENT_OF};
use crate::sbi::{error_name, fid_name, FwEvent, SbiCallRecord, FW_COUNTERS};
use serde::Serialize;
use std::fmt::Write;

/// One counter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CounterReport {
    /// SBI logical counter index (hardware counters: their CSR offset).
    pub index: u64,
    /// mcycle, minstret, mhpmcounterN, or fwN.
    pub name: String,
    /// "hardware" or "firmware".
    pub kind: &'static str,
    /// The event it counts ("none" when none).
    pub event: String,
    /// mhpmevent (hpm counters only).
    pub mhpmevent: Option<u64>,
    pub value: u64,
    /// Counting (mcountinhibit bit clear; for firmware counters, started).
    pub running: bool,
    /// The privileges it counts in (hardware counters), e.g. "US".
    pub modes: String,
    /// mhpmevent.OF.
    pub overflow: bool,
}

/// Calls of one SBI function that returned one error code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SbiSummaryRow {
    pub eid: u64,
    pub extension: &'static str,
    pub fid: u64,
    pub function: &'static str,
    pub error: i64,
    pub error_name: &'static str,
    pub calls: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PmuReport {
    pub counters: Vec<CounterReport>,
    /// Total cycles of the cost model (all privileges, whatever the counters do).
    pub cycles: u64,
    /// The SBI calls, in order: the PMU extension's (this crate's log), or with the hart's
    /// built-in SBI every call of every extension ([`PmuReport::with_sbi_log`]).
    pub sbi_calls: Vec<SbiCallRecord>,
    /// Calls made but not listed in `sbi_calls` (past the log limit).
    pub sbi_calls_not_listed: u64,
    pub sbi_summary: Vec<SbiSummaryRow>,
}

impl Pmu {
    pub fn report(&self) -> PmuReport {
        let mut counters = Vec::new();
        for i in 0..32 {
            if !self.implemented(i) {
                continue;
            }
            let prvs = self.counting_privileges(i);
            let modes: String = (0..NPRV)
                .rev()
                .filter(|p| prvs & (1 << p) != 0)
                .map(|p| prv_of_index(p).letter())
                .collect();
            let (ev, mhpmevent, of) = match i {
                MCYCLE_IDX => ("CPU_CYCLES".to_string(), None, false),
                MINSTRET_IDX => ("INSTRUCTIONS".to_string(), None, false),
                _ => {
                    let e = self.mhpmevent(i);
                    (event::selector_name(e), Some(e), e & MHPMEVENT_OF != 0)
                }
            };
            counters.push(CounterReport {
                index: i as u64,
                name: counter_name(i),
                kind: "hardware",
                event: ev,
                mhpmevent,
                value: self.counter(i),
                running: self.mcountinhibit() & (1 << i) == 0,
                modes,
                overflow: of,
            });
        }
        let hw = self.sbi_num_hw();
        for j in 0..FW_COUNTERS {
            let f = &self.sbi.fw[j];
            counters.push(CounterReport {
                index: hw + j as u64,
                name: format!("fw{j}"),
                kind: "firmware",
                event: f
                    .event
                    .and_then(FwEvent::from_code)
                    .map_or("none".to_string(), |e| e.name().to_string()),
                mhpmevent: None,
                value: f.value,
                running: f.started,
                modes: String::new(),
                overflow: false,
            });
        }
        let log = self.sbi.log();
        PmuReport {
            counters,
            cycles: self.cycle_total(),
            sbi_calls: log.to_vec(),
            sbi_calls_not_listed: self.sbi.calls() - log.len() as u64,
            sbi_summary: self
                .sbi
                .summary()
                .iter()
                .map(|(&(f, e), &n)| SbiSummaryRow {
                    eid: crate::sbi::EID_PMU,
                    extension: "pmu",
                    fid: f,
                    function: fid_name(f),
                    error: e,
                    error_name: error_name(e),
                    calls: n,
                })
                .collect(),
        }
    }
}

impl PmuReport {
    /// The report with another SBI call log in place of the PMU extension's: `log` lists the
    /// first calls in order, `calls` is how many were made, and `summary` counts them by
    /// (EID, FID, error).
    pub fn with_sbi_log(
        mut self,
        log: &[SbiCallRecord],
        calls: u64,
        summary: Vec<SbiSummaryRow>,
    ) -> PmuReport {
        self.sbi_calls = log.to_vec();
        self.sbi_calls_not_listed = calls - log.len() as u64;
        self.sbi_summary = summary;
        self
    }

    /// The report as text tables: counters (hardware ones, and firmware ones that have an
    /// event), the SBI call summary, then every listed SBI call.
    pub fn to_table(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{:<5} {:<14} {:<28} {:>20} {:<7} {:<5} {:<3} {:>18}",
            "idx", "counter", "event", "value", "state", "modes", "OF", "mhpmevent"
        );
        for c in &self.counters {
            if c.kind == "firmware" && c.event == "none" {
                continue;
            }
            let _ = writeln!(
                s,
                "{:<5} {:<14} {:<28} {:>20} {:<7} {:<5} {:<3} {:>18}",
                c.index,
                c.name,
                c.event,
                c.value,
                if c.running { "running" } else { "stopped" },
                c.modes,
                if c.overflow { "yes" } else { "" },
                c.mhpmevent.map_or(String::new(), |v| format!("{v:#x}")),
            );
        }
        let _ = writeln!(s, "cost-model cycles: {}", self.cycles);
        if !self.sbi_summary.is_empty() {
            let _ = writeln!(s, "\nSBI calls:");
            let _ = writeln!(
                s,
                "{:<10} {:<26} {:<22} {:>8}",
                "extension", "function", "result", "calls"
            );
            for r in &self.sbi_summary {
                let _ = writeln!(
                    s,
                    "{:<10} {:<26} {:<22} {:>8}",
                    r.extension, r.function, r.error_name, r.calls
                );
            }
            let _ = writeln!(s);
            for c in &self.sbi_calls {
                let args: Vec<String> = c.args.iter().map(|a| format!("{a:#x}")).collect();
                let _ = writeln!(
                    s,
                    "#{:<6} {}.{}({}) -> {} {:#x}",
                    c.seq,
                    c.extension,
                    c.function,
                    args.join(", "),
                    c.error_name,
                    c.value
                );
            }
            if self.sbi_calls_not_listed > 0 {
                let _ = writeln!(s, "... {} more calls not listed", self.sbi_calls_not_listed);
            }
        }
        s
    }
}
