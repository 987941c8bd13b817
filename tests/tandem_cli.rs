//! The tandem trace on the command line, through the real binary: `hartscope run --tandem`,
//! `hartscope tandem dump` and `hartscope tandem verify` on clean, corrupted, truncated and
//! garbage streams, the JSON report, and the exit statuses a regression script relies on
//! (0 the stream matches, 1 a mismatch, 2 unusable input).

mod common;

use common::{assert_no_panic, hartscope, program, run_with_timeout, Outcome, TempDir};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tandem::item::Item;
use tandem::parser::parse_groups;
use tandem::ParserOptions;

const TIMEOUT: Duration = Duration::from_secs(120);

/// Run `hartscope ARGS`, check that it did not panic, and return what it did.
fn hs<S: AsRef<OsStr>>(args: &[S]) -> Outcome {
    let shown: Vec<String> = args
        .iter()
        .map(|a| a.as_ref().to_string_lossy().into_owned())
        .collect();
    let what = format!("hartscope {}", shown.join(" "));
    let out = run_with_timeout(hartscope().args(args), &what, TIMEOUT);
    assert_no_panic(&what, &out.stderr_str());
    out
}

fn expect_code(out: &Outcome, code: i32, what: &str) {
    assert_eq!(
        out.code(),
        Some(code),
        "{what}: expected exit status {code}, got {}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        tail(&out.stdout_str()),
        out.stderr_str()
    );
}

fn tail(s: &str) -> String {
    let lines: Vec<&str> = s.lines().collect();
    lines[lines.len().saturating_sub(30)..].join("\n")
}

/// `hartscope run PROGRAM --tandem DIR/NAME.trace EXTRA...`; returns the trace's path.
fn record(tmp: &TempDir, prog: &str, extra: &[&str]) -> PathBuf {
    let trace = tmp.join(&format!("{prog}.trace"));
    let mut args: Vec<String> = vec![
        "run".into(),
        program(prog).display().to_string(),
        "--max-insns".into(),
        "5000000".into(),
        "--tandem".into(),
        trace.display().to_string(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let out = hs(&args);
    expect_code(&out, 0, &format!("run {prog} --tandem"));
    assert!(trace.is_file(), "{} was not written", trace.display());
    trace
}

fn read_json(p: &Path) -> serde_json::Value {
    let text =
        std::fs::read_to_string(p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", p.display()))
}

fn s(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

#[test]
fn run_writes_a_stream_and_its_settings_that_dump_and_verify_read() {
    let tmp = TempDir::new("tandem-clean");
    let trace = record(&tmp, "cprog", &[]);
    // The settings file: parameters and the writer's configuration, the program.
    let side = read_json(&tmp.join("cprog.trace.json"));
    assert_eq!(side["writer"]["params"]["xlen"], 64);
    assert_eq!(side["writer"]["style"], "flute");
    assert!(side["program"].as_str().unwrap().ends_with("cprog.elf"));
    // Flute's layout: the first group is the hart reset `01 0a 02`, the next one an
    // instruction with its next pc first (`01 07 0a <pc>`).
    let bytes = std::fs::read(&trace).unwrap();
    assert_eq!(&bytes[..3], &[0x01, 0x0a, 0x02]);
    assert_eq!(&bytes[3..5], &[0x01, 0x07]);
    assert_eq!(bytes[5], 0x0a);

    let out = hs(&["tandem", "dump", s(&trace)]);
    expect_code(&out, 0, "tandem dump");
    let dump = out.stdout_str();
    let lines: Vec<&str> = dump.lines().collect();
    assert!(
        lines[0].starts_with("#0 ") && lines[0].contains("reset"),
        "{}",
        lines[0]
    );
    // One line per group, with disassembly and register names.
    assert!(lines.len() > 300_000, "{} lines", lines.len());
    assert!(dump.contains("auipc t0,0x0"), "no disassembly");
    assert!(dump.contains("x3/gp="), "no x3/gp");
    assert!(dump.contains("mtvec="), "no CSR name");
    assert!(dump.contains("x2/sp="), "no x2/sp");

    let report = tmp.join("clean.json");
    let out = hs(&[
        "tandem",
        "verify",
        s(&trace),
        "--elf",
        s(&program("cprog")),
        "--report",
        s(&report),
    ]);
    expect_code(&out, 0, "tandem verify (clean)");
    let text = out.stdout_str();
    assert!(text.contains("MATCH: "), "{}", tail(&text));
    assert!(text.contains("0 mismatching groups"), "{}", tail(&text));
    let r = read_json(&report);
    assert_eq!(r["status"], "match");
    assert_eq!(r["mismatching_groups"], 0);
    assert!(r["instructions"].as_u64().unwrap() > 300_000);
    assert_eq!(r["resets"], 1);
    assert!(r["mismatches"].as_array().unwrap().is_empty());
    assert!(r["error"].is_null());

    // Without --elf, the program named in the settings file.
    let out = hs(&["tandem", "verify", s(&trace), "--quiet"]);
    expect_code(&out, 0, "tandem verify without --elf");
    // From standard input (`run_with_timeout` gives children /dev/null: spawn it here).
    let out = hartscope()
        .args(["tandem", "verify", "-", "--elf", s(&program("cprog")), "-q"])
        .stdin(std::fs::File::open(&trace).unwrap())
        .output()
        .expect("run hartscope");
    let out = Outcome {
        status: out.status,
        stdout: out.stdout,
        stderr: out.stderr,
        elapsed: Duration::ZERO,
    };
    expect_code(&out, 0, "tandem verify - < trace");
}

#[test]
fn writer_configurations_and_partial_traces_verify() {
    let tmp = TempDir::new("tandem-configs");
    for extra in [
        &["--tandem-style", "spec"][..],
        &["--tandem-with", "all"],
        &["--tandem-omit", "fpr,csr,store-data"],
    ] {
        let trace = record(&tmp, "interrupts", extra);
        // The settings file tells verify what a partial trace leaves out.
        let out = hs(&["tandem", "verify", s(&trace), "-q"]);
        expect_code(&out, 0, &format!("verify {extra:?}"));
        assert!(out.stdout_str().contains("MATCH"), "{extra:?}");
        let out = hs(&["tandem", "dump", s(&trace)]);
        expect_code(&out, 0, &format!("dump {extra:?}"));
        assert!(out.stdout_str().contains("interrupt"), "{extra:?}");
    }
}

/// The offset of the value of the first full-register write of `addr` in the stream, and
/// the group it is in.
fn first_full_write(bytes: &[u8], addr: u16) -> (u64, usize) {
    let groups = parse_groups(bytes, ParserOptions::default()).expect("a clean stream parses");
    for g in &groups {
        for (off, it) in &g.items {
            if matches!(it, Item::FullReg { addr: a, .. } if *a == addr) {
                return (g.index, *off as usize + 3);
            }
        }
    }
    panic!("no full write of register {addr:#x}");
}

#[test]
fn a_corrupted_register_value_is_a_mismatch_named_with_its_group() {
    let tmp = TempDir::new("tandem-corrupt");
    let trace = record(&tmp, "cprog", &[]);
    let mut bytes = std::fs::read(&trace).unwrap();
    // crt0 clears gp (`li gp,0`), then sets it (`la gp, __global_pointer$`) before reading
    // it: a wrong value in the first write is one mismatch, and after the verifier copies
    // the trace's value to the reference hart nothing else differs.
    let (group, at) = first_full_write(&bytes, 0x1003);
    bytes[at] ^= 0x10;
    let bad = tmp.write("bad.trace", &bytes);
    let report = tmp.join("bad.json");
    let elf = program("cprog");
    let out = hs(&[
        "tandem",
        "verify",
        s(&bad),
        "--elf",
        s(&elf),
        "--report",
        s(&report),
    ]);
    expect_code(&out, 1, "verify of a corrupted stream");
    let text = out.stdout_str();
    assert!(
        text.contains(&format!("mismatch at group {group} ")),
        "group {group} not named:\n{}",
        tail(&text)
    );
    assert!(text.contains("x3/gp"), "{}", tail(&text));
    assert!(text.contains("MISMATCH: "), "{}", tail(&text));
    let r = read_json(&report);
    assert_eq!(r["status"], "mismatch");
    assert_eq!(r["mismatching_groups"], 1, "{}", tail(&text));
    let m = &r["mismatches"][0];
    assert_eq!(m["group"], group);
    assert_eq!(m["kind"], "instruction");
    assert!(m["offset"].as_u64().unwrap() < at as u64);
    assert!(m["disasm"].as_str().unwrap().contains("gp"), "{m}");
    let d = &m["diffs"][0];
    assert_eq!(d["element"], "x3/gp");
    assert_eq!(d["expected"], "0x0000000000000000");
    assert_eq!(d["actual"], "0x0000000000000010");
}

#[test]
fn max_mismatches_stops_the_check() {
    let tmp = TempDir::new("tandem-max");
    let trace = record(&tmp, "hello", &[]);
    let mut bytes = std::fs::read(&trace).unwrap();
    // Flip a bit of the instruction word of every 100th instruction group.
    let groups = parse_groups(&bytes, ParserOptions::default()).unwrap();
    let mut flipped = 0;
    for g in groups.iter().filter(|g| g.insn.is_some()).step_by(100) {
        let (off, _) = g
            .items
            .iter()
            .find(|(_, it)| matches!(it, Item::Insn32(_) | Item::Insn16(_)))
            .unwrap();
        bytes[*off as usize + 1] ^= 0x80;
        flipped += 1;
    }
    assert!(flipped > 10);
    let bad = tmp.write("bad.trace", &bytes);
    let report = tmp.join("r.json");
    let args = |n: &str| {
        vec![
            "tandem".to_string(),
            "verify".into(),
            s(&bad).into(),
            "--elf".into(),
            s(&program("hello")).into(),
            "--max-mismatches".into(),
            n.into(),
            "--report".into(),
            s(&report).into(),
        ]
    };
    let out = hs(&args("3"));
    expect_code(&out, 1, "--max-mismatches 3");
    let r = read_json(&report);
    assert_eq!(r["mismatching_groups"], 3);
    assert_eq!(r["stopped_early"], true);
    assert!(out.stdout_str().contains("stopped at --max-mismatches"));
    for m in r["mismatches"].as_array().unwrap() {
        assert_eq!(m["diffs"][0]["element"], "insn", "{m}");
        assert!(m["ref_insn"].is_string(), "{m}");
    }
    let out = hs(&args("0"));
    expect_code(&out, 1, "--max-mismatches 0");
    let r = read_json(&report);
    assert_eq!(r["stopped_early"], false);
    assert!(r["mismatching_groups"].as_u64().unwrap() >= flipped);
}

/// Exit status 2 and a message on standard error naming the problem (and, for a malformed
/// stream, its byte offset and group), never a panic.
fn expect_unusable(args: &[&str], needles: &[&str]) {
    let out = hs(args);
    let what = args.join(" ");
    expect_code(&out, 2, &what);
    let err = out.stderr_str();
    for n in needles {
        assert!(
            err.contains(n),
            "{what}: stderr does not mention {n:?}:\n{err}"
        );
    }
}

#[test]
fn unusable_input_is_exit_status_2() {
    let tmp = TempDir::new("tandem-bad");
    let trace = record(&tmp, "hello", &[]);
    let elf = program("hello");
    let bytes = std::fs::read(&trace).unwrap();

    // Truncated inside an item.
    let (group, at) = first_full_write(&bytes, 0x1003);
    let cut = tmp.write("cut.trace", &bytes[..at + 2]);
    for cmd in ["dump", "verify"] {
        let mut args = vec!["tandem", cmd, s(&cut)];
        if cmd == "verify" {
            args.extend(["--elf", s(&elf)]);
        }
        expect_unusable(
            &args,
            &[
                "truncated payload",
                &format!("group {group}"),
                &format!("byte offset {}", at - 3),
            ],
        );
    }
    // Garbage.
    let garbage = common::noise(0x9e37_79b9_7f4a_7c15, 4096);
    let g = tmp.write("garbage.trace", &garbage);
    expect_unusable(
        &["tandem", "dump", s(&g)],
        &["malformed stream", "byte offset"],
    );
    expect_unusable(
        &["tandem", "verify", s(&g), "--elf", s(&elf)],
        &["malformed stream", "byte offset"],
    );
    // An end group outside a group; a nested begin group; an unknown additional state.
    let orphan = tmp.write("orphan.trace", &[0x01, 0x0a, 0x02, 0x02]);
    expect_unusable(
        &["tandem", "dump", s(&orphan)],
        &["end group outside a group", "byte offset 3", "group 1"],
    );
    let nested = tmp.write("nested.trace", &[0x01, 0x01]);
    expect_unusable(&["tandem", "dump", s(&nested)], &["nested begin group"]);
    let addl = tmp.write("addl.trace", &[0x01, 0x07, 0x2a, 0x02]);
    expect_unusable(
        &["tandem", "dump", s(&addl)],
        &["unknown additional-state identifier 0x2a", "byte offset 1"],
    );
    // An empty stream has nothing to verify.
    let empty = tmp.write("empty.trace", &[]);
    expect_unusable(
        &["tandem", "verify", s(&empty), "--elf", s(&elf)],
        &["empty"],
    );
    // A missing or unreadable program, a missing trace, a bad report path.
    let nothere = tmp.join("no-such.elf");
    expect_unusable(
        &["tandem", "verify", s(&trace), "--elf", s(&nothere)],
        &["no-such.elf", "No such file"],
    );
    expect_unusable(
        &["tandem", "verify", s(&trace), "--elf", s(&g)],
        &["not an ELF"],
    );
    expect_unusable(
        &[
            "tandem",
            "verify",
            s(&tmp.join("none.trace")),
            "--elf",
            s(&elf),
        ],
        &["none.trace"],
    );
    expect_unusable(
        &["tandem", "dump", s(&tmp.join("none.trace"))],
        &["none.trace"],
    );
    // No program at all: a copy without its settings file and no --elf.
    let alone = tmp.write("alone.trace", &bytes);
    expect_unusable(
        &["tandem", "verify", s(&alone)],
        &["no program", "give the ELF"],
    );
    // Bad options.
    expect_unusable(
        &["tandem", "verify", s(&trace), "--max-mismatches", "many"],
        &["--max-mismatches"],
    );
    expect_unusable(
        &["tandem", "verify", s(&trace), "--absent", "bogus"],
        &["--absent", "bogus"],
    );
    expect_unusable(&["tandem", "verify", s(&trace), "--mem", "1K"], &["--mem"]);
    expect_unusable(
        &[
            "run",
            s(&elf),
            "--tandem",
            s(&tmp.join("x.trace")),
            "--tandem-with",
            "nope",
        ],
        &["--tandem-with", "nope"],
    );
    expect_unusable(
        &["run", s(&elf), "--tandem", s(&tmp.join("no-dir/x.trace"))],
        &["no-dir"],
    );
}
