//! `hartscope run --sbi builtin ... --pmu-report`: at exit, every counter with its event and
//! value, and every SBI call the program made (all extensions, not only the PMU's) with its
//! result, as JSON (`--pmu-report=FILE`) and as a table (`--pmu-report`, on stderr).

mod common;

use common::{assert_no_panic, hartscope, program, run_with_timeout, TempDir};
use serde_json::Value;
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(60);

fn run(args: &[&str]) -> common::Outcome {
    let mut cmd = hartscope();
    cmd.arg("run").args(args);
    let out = run_with_timeout(
        &mut cmd,
        &format!("hartscope run {}", args.join(" ")),
        TIMEOUT,
    );
    assert_no_panic("hartscope run", &out.stderr_str());
    assert_eq!(out.code(), Some(0), "stderr:\n{}", out.stderr_str());
    out
}

/// The calls of `ext`.`function` in the JSON log.
fn calls<'a>(log: &'a [Value], ext: &str, function: &str) -> Vec<&'a Value> {
    log.iter()
        .filter(|c| c["extension"] == ext && c["function"] == function)
        .collect()
}

#[test]
fn json_report_lists_every_sbi_call_with_its_result() {
    let dir = TempDir::new("sbi_report");
    let json = dir.join("report.json");
    let elf = program("sbi_ext");
    let report_arg = format!("--pmu-report={}", json.display());
    run(&["-q", "--sbi", "builtin", &report_arg, elf.to_str().unwrap()]);
    let r: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let log = r["sbi_calls"].as_array().expect("sbi_calls");
    assert_eq!(r["sbi_calls_not_listed"], 0);
    // In order, numbered from 0, nothing missing.
    for (i, c) in log.iter().enumerate() {
        assert_eq!(c["seq"], i as u64, "{c}");
    }
    // Every extension the program uses is there, with the spec's results.
    let v = calls(log, "base", "get_spec_version");
    assert_eq!(v.len(), 1);
    assert_eq!(
        (v[0]["error"].as_i64(), v[0]["value"].as_u64()),
        (Some(0), Some(0x0300_0000))
    );
    let probes = calls(log, "base", "probe_extension");
    let pmu_probe = probes
        .iter()
        .find(|c| c["args"][0] == 0x504D55)
        .expect("probe of the PMU extension");
    assert_eq!(pmu_probe["value"], 1);
    assert_eq!(pmu_probe["eid"], 0x10);
    assert_eq!(pmu_probe["fid"], 3);
    for (ext, f) in [
        ("time", "set_timer"),
        ("ipi", "send_ipi"),
        ("rfence", "remote_fence_i"),
        ("hsm", "hart_get_status"),
        ("dbcn", "console_write"),
        ("legacy", "console_putchar"),
        ("pmu", "counter_config_matching"),
    ] {
        assert!(!calls(log, ext, f).is_empty(), "no {ext}.{f} in the log");
    }
    // An EID the SBI does not implement.
    let unknown: Vec<_> = log.iter().filter(|c| c["extension"] == "unknown").collect();
    assert!(!unknown.is_empty());
    assert!(unknown
        .iter()
        .all(|c| c["error"] == -2 && c["error_name"] == "ERR_NOT_SUPPORTED"));
    // The arguments the function takes, no more: set_timer has one.
    assert_eq!(
        calls(log, "time", "set_timer")[0]["args"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    // The run ended with a successful shutdown.
    let last = log.last().unwrap();
    assert_eq!(
        (&last["extension"], &last["function"], &last["error"]),
        (
            &Value::from("srst"),
            &Value::from("system_reset"),
            &Value::from(0)
        )
    );
    // The summary counts the same calls by (extension, function, result).
    let summary = r["sbi_summary"].as_array().unwrap();
    let total: u64 = summary.iter().map(|s| s["calls"].as_u64().unwrap()).sum();
    assert_eq!(total, log.len() as u64);
    for s in summary {
        let n = log
            .iter()
            .filter(|c| c["eid"] == s["eid"] && c["fid"] == s["fid"] && c["error"] == s["error"])
            .count();
        assert_eq!(s["calls"], n as u64, "{s}");
    }
    // Counters: the firmware counters sbi_ext configured, with what they counted.
    let counters = r["counters"].as_array().unwrap();
    let fw = |event: &str| {
        counters
            .iter()
            .find(|c| c["kind"] == "firmware" && c["event"] == event)
            .unwrap_or_else(|| panic!("no firmware counter for {event}"))["value"]
            .as_u64()
            .unwrap()
    };
    let set_timer_ok = calls(log, "time", "set_timer")
        .iter()
        .filter(|c| c["error"] == 0)
        .count() as u64;
    assert_eq!(fw("FW_SET_TIMER"), set_timer_ok);
    let mcycle = counters.iter().find(|c| c["name"] == "mcycle").unwrap();
    assert!(mcycle["value"].as_u64().unwrap() > 0);
}

#[test]
fn table_report_shows_the_calls() {
    let elf = program("sbi_pmu");
    let out = run(&[
        "-q",
        "--sbi",
        "builtin",
        "--pmu-models",
        "all",
        elf.to_str().unwrap(),
        "--pmu-report",
    ]);
    let table = out.stderr_str();
    assert!(table.contains("SBI calls:"), "{table}");
    for want in [
        "base.probe_extension(0x504d55) -> SUCCESS 0x1",
        "pmu.num_counters() -> SUCCESS 0x30",
        "pmu.counter_get_info(0x1) -> ERR_INVALID_PARAM",
        "srst.system_reset(0x0, 0x0) -> SUCCESS 0x0",
    ] {
        assert!(table.contains(want), "no `{want}` in\n{table}");
    }
    // counters with their events, as sbi_pmu left them
    assert!(
        table.lines().any(|l| l.starts_with("0     mcycle")),
        "{table}"
    );
}

#[test]
fn trace_sbi_logs_each_call_and_return() {
    let elf = program("sbi_ext");
    let out = run(&[
        "-q",
        "--sbi",
        "builtin",
        "--trace-sbi",
        elf.to_str().unwrap(),
    ]);
    let err = out.stderr_str();
    let calls: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("hartscope::sbi: call "))
        .collect();
    let returns: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("hartscope::sbi: return "))
        .collect();
    assert!(calls.len() > 100, "{err}");
    assert_eq!(calls.len(), returns.len());
    assert!(
        calls[0].ends_with(
            "call pmu.num_counters eid 0x504d55 fid 0 args [0x0, 0x0, 0x0, 0x0, 0x0, 0x0]"
        ),
        "{}",
        calls[0]
    );
    assert!(err.contains("return base.get_spec_version error 0 (SUCCESS) value 0x3000000"));
    assert!(err.contains("return dbcn.console_write error -3 (ERR_INVALID_PARAM)"));
    assert!(returns
        .last()
        .unwrap()
        .ends_with("return srst.system_reset error 0 (SUCCESS) value 0x0, run ends"));
}
