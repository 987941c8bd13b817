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
    // Flute's layout: the first group is the hart reset `01 0a 02`, then the start state
    // (`01 0b 07 0a <entry>`, ending with mcycle = 5), then an instruction with its next pc
    // first (`01 07 0a <pc>`).
    let bytes = std::fs::read(&trace).unwrap();
    assert_eq!(&bytes[..3], &[0x01, 0x0a, 0x02]);
    assert_eq!(&bytes[3..7], &[0x01, 0x0b, 0x07, 0x0a]);
    let first = 3 + 4 + 8 + 3 + 5 * 11 + 1;
    assert_eq!(
        &bytes[first - 12..first],
        &[0x04, 0x00, 0x0b, 5, 0, 0, 0, 0, 0, 0, 0, 0x02]
    );
    assert_eq!(&bytes[first..first + 3], &[0x01, 0x07, 0x0a]);

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
    assert!(
        r["state_inits"].as_u64().unwrap() >= 1,
        "the start state and HTIF writes"
    );
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

/// What the settings file beside `trace` becomes with `edit` applied.
fn edit_sidecar(trace: &Path, edit: impl FnOnce(&mut serde_json::Value)) -> PathBuf {
    let p = tandem::sidecar::path_for(trace);
    let mut v = read_json(&p);
    edit(&mut v);
    std::fs::write(&p, v.to_string()).unwrap();
    p
}

/// Finding 1 of issue 13: a settings file's RAM size went straight into the reference
/// hart's allocation (u64::MAX: a panic, capacity overflow; 32 GiB: an abort).
#[test]
fn settings_ram_sizes_are_checked_and_huge_ones_never_abort() {
    let tmp = TempDir::new("tandem-ram");
    let trace = record(&tmp, "hello", &[]);
    for bad in [u64::MAX, 4097, 0] {
        edit_sidecar(&trace, |v| v["hart"]["ram_size"] = bad.into());
        expect_unusable(
            &["tandem", "verify", s(&trace), "-q"],
            &[
                "hello.trace.json: hart.ram_size: RAM size",
                &bad.to_string(),
            ],
        );
    }
    // Within `run --mem`'s rules: the reference hart gets it, or the host's refusal is an
    // error naming where the size came from. Never a signal.
    for size in [32u64 << 30, 1 << 40] {
        edit_sidecar(&trace, |v| v["hart"]["ram_size"] = size.into());
        let out = hs(&["tandem", "verify", s(&trace), "-q"]);
        match out.code() {
            Some(0) => assert!(out.stdout_str().contains("MATCH")),
            Some(2) => assert!(
                out.stderr_str()
                    .contains("hello.trace.json (hart.ram_size): cannot reserve"),
                "{}",
                out.stderr_str()
            ),
            other => panic!(
                "{size}: exit {other:?} ({})\n{}",
                out.status,
                out.stderr_str()
            ),
        }
    }
    let out = hs(&["tandem", "verify", s(&trace), "-q", "--mem", "1024G"]);
    assert!(
        matches!(out.code(), Some(0) | Some(2)),
        "{}: {}",
        out.status,
        out.stderr_str()
    );
}

/// Finding 2: the writer took `--tandem-params` its own verifier refused (32,64,32) or
/// mis-verified (64,32,64; MLEN below 57 on sv39). Every value the option takes now
/// verifies as matching; the others are refused when the options are read.
#[test]
fn every_tandem_params_value_the_writer_takes_verifies_as_matching() {
    let tmp = TempDir::new("tandem-params");
    for p in tandem::params::Params::hart_values() {
        let arg = format!("{},{},{}", p.xlen, p.flen, p.mlen);
        let trace = record(&tmp, "sv39", &["--tandem-params", &arg]);
        let side = read_json(&tandem::sidecar::path_for(&trace));
        assert_eq!(side["writer"]["params"]["mlen"], p.mlen);
        let out = hs(&["tandem", "verify", s(&trace), "-q"]);
        expect_code(&out, 0, &format!("verify of --tandem-params {arg}"));
        assert!(out.stdout_str().contains("MATCH: "), "{arg}");
    }
    for (arg, says) in [
        ("32,64,32", "XLEN must be 64"),
        ("64,32,64", "FLEN must be 64"),
        ("64,64,56", "MLEN must be 57..64"),
        ("64,64,70", "MLEN must be between 32 and 64"),
        ("64,64", "expected three numbers"),
    ] {
        let trace = tmp.join("refused.trace");
        expect_unusable(
            &[
                "run",
                s(&program("sv39")),
                "--tandem",
                s(&trace),
                "--tandem-params",
                arg,
            ],
            &["--tandem-params", says],
        );
        assert!(!trace.exists(), "{arg}: a stream was written");
    }
    // The verifier says the same of a stream another tool wrote with such params.
    let trace = record(&tmp, "hello", &[]);
    expect_unusable(
        &["tandem", "verify", s(&trace), "--params", "64,32,64"],
        &["--params: the stream cannot be verified", "FLEN must be 64"],
    );
}

/// Finding 3: `--tandem -` wrote a file named '-' (and '-.json').
#[test]
fn tandem_dash_is_standard_output_and_sidecars_need_a_regular_file() {
    let tmp = TempDir::new("tandem-stdout");
    let hello = program("hello");
    let side = tmp.join("s.json");
    let what = "run hello --tandem -";
    let out = run_with_timeout(
        hartscope().current_dir(tmp.path()).args([
            "run",
            s(&hello),
            "-q",
            "--tandem",
            "-",
            "--tandem-sidecar",
            s(&side),
        ]),
        what,
        TIMEOUT,
    );
    assert_no_panic(what, &out.stderr_str());
    expect_code(&out, 0, what);
    assert!(!tmp.join("-").exists() && !tmp.join("-.json").exists());
    // Standard output is the stream alone; the guest's console went to standard error.
    let groups = parse_groups(&out.stdout, ParserOptions::default()).expect("a stream");
    assert!(groups.len() > 1000, "{}", groups.len());
    assert!(out.stderr_str().contains("Hello"), "{}", out.stderr_str());
    let trace = tmp.write("from-stdout.trace", &out.stdout);
    let v = hs(&["tandem", "verify", s(&trace), "--sidecar", s(&side), "-q"]);
    expect_code(&v, 0, "verify with --sidecar");
    assert_eq!(read_json(&side)["hart"]["ram_size"], 256 << 20);

    // No place for the settings: refused, unless said.
    let run = |target: &str, extra: &[&str]| {
        let mut a = vec!["run", s(&hello), "-q", "--tandem", target];
        a.extend_from_slice(extra);
        a.iter().map(|x| x.to_string()).collect::<Vec<_>>()
    };
    for target in ["-", "/dev/null"] {
        let a = run(target, &[]);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        expect_unusable(
            &a,
            &[&format!("--tandem {target}"), "--tandem-sidecar FILE"],
        );
    }
    assert!(!Path::new("/dev/null.json").exists());
    // A named pipe: refused before it is opened (opening it would wait for a reader).
    let fifo = tmp.join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let a = run(s(&fifo), &[]);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        expect_unusable(&a, &["not a regular file (a device or a pipe)"]);
        assert!(!tandem::sidecar::path_for(&fifo).exists());
    }
    let out = hs(&run("/dev/null", &["--no-tandem-sidecar"]));
    expect_code(&out, 0, "--tandem /dev/null --no-tandem-sidecar");
    // A failing output names itself.
    let a = run("/dev/full", &["--no-tandem-sidecar"]);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    expect_unusable(
        &a,
        &["writing the tandem trace to /dev/full", "No space left"],
    );
    let a = run(
        s(&tmp.join("t.trace")),
        &["--tandem-sidecar", "/nonexistent/s.json"],
    );
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    expect_unusable(&a, &["cannot write the settings file /nonexistent/s.json"]);
}

/// Run `hartscope ARGS` with standard output going to /dev/full.
fn hs_to_full(args: &[&str]) -> (Option<i32>, String) {
    let what = format!("hartscope {} > /dev/full", args.join(" "));
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let mut cmd = hartscope();
    cmd.args(args)
        .stdout(std::process::Stdio::from(full))
        .stderr(std::process::Stdio::piped());
    let mut w = common::Watched::spawn(&mut cmd, &what, TIMEOUT);
    let mut err = String::new();
    std::io::Read::read_to_string(&mut w.stderr.take().unwrap(), &mut err).unwrap();
    let status = w.wait();
    assert_no_panic(&what, &err);
    (status.code(), err)
}

/// Finding 4: a full standard output was blamed on the input ("malformed stream", or the
/// input's name before the error), and a directory was called a malformed stream.
#[test]
fn output_failures_blame_the_output_and_directories_are_named() {
    let tmp = TempDir::new("tandem-full");
    let small = record(&tmp, "hello", &[]);
    let big = record(&tmp, "rv64d", &[]);
    for trace in [&small, &big] {
        let (code, err) = hs_to_full(&["tandem", "dump", s(trace)]);
        assert_eq!(code, Some(2), "{err}");
        assert!(
            err.contains("cannot write to standard output: No space left"),
            "{err}"
        );
        assert!(
            !err.contains("malformed") && !err.contains(s(trace)),
            "{err}"
        );
    }
    let (code, err) = hs_to_full(&["tandem", "verify", s(&small)]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("cannot write the report to standard output"),
        "{err}"
    );
    // The JSON report to a full file.
    let (code, err) = hs_to_full(&["tandem", "verify", s(&small), "--report", "/dev/full"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--report: cannot write the report to /dev/full"),
        "{err}"
    );
    for cmd in ["dump", "verify"] {
        let out = hs(&["tandem", cmd, s(tmp.path())]);
        expect_code(&out, 2, cmd);
        let err = out.stderr_str();
        assert!(err.contains("is a directory, not a tandem trace"), "{err}");
        assert!(!err.contains("malformed"), "{err}");
    }
}

/// Findings 5 and 7: the settings file's problems were serde_json's text ("invalid type:
/// ..., expected u64 at line 35 column 20"), and it was read whole, whatever its size.
#[test]
fn settings_file_problems_are_named_and_reads_are_capped() {
    let tmp = TempDir::new("tandem-side");
    let trace = record(&tmp, "hello", &[]);
    let side = edit_sidecar(&trace, |v| v["writer"]["style"] = 3.into());
    for cmd in ["dump", "verify"] {
        expect_unusable(
            &["tandem", cmd, s(&trace)],
            &[
                "hello.trace.json: writer.style: expected one of flute, spec, flute-strict, got the number 3",
                "--no-sidecar",
            ],
        );
    }
    std::fs::write(&side, "{\"format\": 1e400}").unwrap();
    expect_unusable(
        &["tandem", "dump", s(&trace)],
        &["hello.trace.json: not a tandem settings file: not JSON at line 1, column"],
    );
    // A settings file that never ends.
    std::fs::remove_file(&side).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &side).unwrap();
    expect_unusable(
        &["tandem", "verify", s(&trace)],
        &["hello.trace.json: larger than the 1 MiB a settings file may hold"],
    );
    expect_unusable(
        &["tandem", "dump", s(&trace), "--sidecar", "/dev/zero"],
        &["/dev/zero: larger than the 1 MiB"],
    );
    let out = hs(&["tandem", "dump", s(&trace), "--no-sidecar"]);
    expect_code(&out, 0, "dump --no-sidecar");
}

/// Findings 5 and 7 for the hart's settings files that `run --tandem` reads
/// (`--pmu-config`, `--ctr-config`): read with a cap, errors with the position or the field.
#[test]
fn hart_settings_files_are_capped_and_their_fields_named() {
    let tmp = TempDir::new("tandem-hart-settings");
    let hello = program("hello");
    let trace = tmp.join("h.trace");
    let run = |opt: &str, file: &Path, needles: &[&str]| {
        expect_unusable(
            &["run", s(&hello), "--tandem", s(&trace), opt, s(file)],
            needles,
        );
    };
    let f = tmp.write(
        "p.toml",
        b"hpm_counters = 5\n[caches.l1i]\nsize = \"big\"\n",
    );
    run(
        "--pmu-config",
        &f,
        &[
            "--pmu-config: ",
            "p.toml: field `caches.l1i.size`: invalid type: string \"big\"",
        ],
    );
    let f = tmp.write("p.toml", b"hpm_counters = 5\nhpm_width = \n");
    run(
        "--pmu-config",
        &f,
        &["p.toml: not valid TOML: line 2, column 13"],
    );
    let f = tmp.write(
        "p.json",
        b"{\"hpm_counters\": 5, \"bp\": {\"table_bits\": -1}}",
    );
    run(
        "--pmu-config",
        &f,
        &["p.json: field `bp.table_bits`: invalid value: integer `-1`"],
    );
    let f = tmp.write("p.json", b"{\"hpm_counters\": 5,");
    run(
        "--pmu-config",
        &f,
        &["p.json: not valid JSON: line 1, column 19"],
    );
    let f = tmp.write("c.json", b"{\"layout\": \"sideways\"}");
    run(
        "--ctr-config",
        &f,
        &["c.json: field `layout`: unknown variant `sideways`"],
    );
    run(
        "--ctr-config",
        Path::new("/dev/zero"),
        &["/dev/zero: larger than the 1 MiB"],
    );
    run(
        "--pmu-config",
        tmp.path(),
        &["is a directory, not a settings file"],
    );
    // A cache too large to model is refused, not an abort.
    let f = tmp.write(
        "big.toml",
        b"[caches.l1i]\nsize = 4611686018427387904\nways = 4\nline = 64\n\
          [caches.l1d]\nsize = 32768\nways = 4\nline = 64\n",
    );
    run("--pmu-config", &f, &["l1i", "more than 16777216 lines"]);
}

/// `--tandem-style flute-strict`: the help names it, the settings file records it, `dump`
/// shows the mip changes outside groups and the FP groups' fflags and mstatus, `verify`
/// matches (exit 0); an unknown style is refused naming it, on the command line and in a
/// settings file.
#[test]
fn flute_strict_style_on_the_command_line() {
    let help = hs(&["run", "--help"]);
    expect_code(&help, 0, "run --help");
    let text = help.stdout_str();
    assert!(
        text.contains("flute-strict") && text.contains("mip outside groups"),
        "run --help does not describe flute-strict:\n{text}"
    );
    let tmp = TempDir::new("tandem-strict");
    let trace = record(&tmp, "interrupts", &["--tandem-style", "flute-strict"]);
    let side = read_json(&tandem::sidecar::path_for(&trace));
    assert_eq!(side["writer"]["style"], "flute-strict");
    let dump = hs(&["tandem", "dump", s(&trace)]);
    expect_code(&dump, 0, "tandem dump");
    let text = dump.stdout_str();
    assert!(
        text.lines()
            .any(|l| l.contains("(outside group)") && l.contains("mip=0x0000000000000080")),
        "no mip change in the dump:\n{}",
        tail(&text)
    );
    let v = hs(&["tandem", "verify", s(&trace), "-q"]);
    expect_code(&v, 0, "tandem verify (flute-strict)");
    // Beside a commit log and an N-Trace port (the run on full records, watched): the same
    // bytes as alone.
    let alone = std::fs::read(&trace).unwrap();
    let log = tmp.join("interrupts.log");
    let nt = tmp.join("interrupts.nt");
    let beside = record(
        &tmp,
        "interrupts",
        &[
            "--tandem-style",
            "flute-strict",
            "--log-commits",
            s(&log),
            "--ntrace",
            s(&nt),
        ],
    );
    assert!(
        std::fs::read(&beside).unwrap() == alone,
        "the strict stream beside other sinks differs from the one written alone"
    );
    let trace = record(&tmp, "rv64d", &["--tandem-style", "flute-strict"]);
    let dump = hs(&["tandem", "dump", s(&trace)]);
    let text = dump.stdout_str();
    assert!(
        text.lines()
            .any(|l| l.contains("fadd.d") && l.contains("fflags=") && l.contains("mstatus=")),
        "no FP group with fflags and mstatus:\n{}",
        tail(&text)
    );
    expect_code(
        &hs(&["tandem", "verify", s(&trace), "-q"]),
        0,
        "verify rv64d",
    );
    // An unknown style: refused, named.
    let p = program("hello");
    expect_unusable(
        &[
            "run",
            s(&p),
            "--tandem",
            s(&tmp.join("x.trace")),
            "--tandem-style",
            "flute-loose",
        ],
        &["flute-loose", "flute-strict"],
    );
    edit_sidecar(&trace, |v| v["writer"]["style"] = "flute-loose".into());
    expect_unusable(
        &["tandem", "verify", s(&trace)],
        &["writer.style", "flute-loose", "flute-strict"],
    );
}

/// cbo.zero's record is one 64-byte store of zeros: the writer gives its address (no
/// store-data item has that size) and, in the memory trace, eight 8-byte stores of zero
/// covering the block; the stream parses and dumps whole.
#[test]
fn cbo_zero_writes_its_block_as_doubleword_stores() {
    let tmp = TempDir::new("tandem-cbo");
    let trace = record(
        &tmp,
        "isa_cbo",
        &["--isa", "rv64gc_zicbom_zicboz", "--tandem-with", "all"],
    );
    let out = hs(&["tandem", "dump", s(&trace)]);
    expect_code(&out, 0, "tandem dump of isa_cbo");
    let text = out.stdout_str();
    let line = text
        .lines()
        .find(|l| l.contains("cbo.zero") && l.contains("eaddr=0x80002080"))
        .unwrap_or_else(|| panic!("no cbo.zero of 0x80002080 in:\n{}", tail(&text)));
    for k in 0..8u64 {
        let req = format!("mem-req(store 8B @{:#x} data=0x0)", 0x8000_2080u64 + 8 * k);
        assert!(line.contains(&req), "{req} missing: {line}");
    }
    assert!(!line.contains(" store"), "no store-data item: {line}");
}

/// The settings file carries the hart's ISA (`hart.machine.isa`, canonical), so a stream of a
/// run with extensions verifies on a reference hart that has them; without it, the Zcb and
/// Zfa instructions the stream reports would be illegal there. An ISA the file gives that
/// hartscope cannot do is named.
#[test]
fn the_settings_carry_the_isa() {
    let tmp = TempDir::new("tandem-isa");
    for (prog, isa) in [("isa_zcb", "rv64gc_zcb"), ("isa_zfa", "rv64gc_zfa")] {
        let trace = record(&tmp, prog, &["--isa", isa]);
        let side = read_json(&tandem::sidecar::path_for(&trace));
        assert_eq!(
            side["hart"]["machine"]["isa"],
            format!("rv64imafdc_zicsr_zifencei_{}", &isa[7..]),
            "{prog}"
        );
        let v = hs(&["tandem", "verify", s(&trace), "-q"]);
        expect_code(&v, 0, &format!("tandem verify ({prog} with --isa {isa})"));
    }
    // Sstc's timer interrupts (STIP follows time, as MTIP does) and cbo.zero's block (the
    // stream carries no 64-byte data; without `mem` the reference's zeros stand for it, with
    // it the eight doubleword stores are compared).
    for (prog, isa, extra) in [
        ("isa_sstc", "rv64imafdc_zicntr_zihpm_sstc", None),
        (
            "isa_sstc",
            "rv64imafdc_zicntr_zihpm_sstc",
            Some("flute-strict"),
        ),
        ("isa_cbo", "rv64gc_zicbom_zicboz", None),
        ("isa_cbo", "rv64gc_zicbom_zicboz", Some("mem")),
        (
            "isa_svpte",
            "rv64imafdc_zicntr_zihpm_svadu_svnapot_svpbmt",
            None,
        ),
    ] {
        let mut args = vec!["--isa", isa];
        match extra {
            Some("mem") => args.extend(["--tandem-with", "mem"]),
            Some(style) => args.extend(["--tandem-style", style]),
            None => {}
        }
        let trace = record(&tmp, prog, &args);
        let v = hs(&["tandem", "verify", s(&trace), "-q"]);
        expect_code(&v, 0, &format!("tandem verify ({prog} {args:?})"));
    }
    let trace = record(&tmp, "isa_zcb", &["--isa", "rv64gc_zcb"]);
    edit_sidecar(&trace, |v| v["hart"]["machine"]["isa"] = "rv64gcv".into());
    expect_unusable(&["tandem", "verify", s(&trace)], &["ISA", "'v'"]);
}

/// With F and without D (`--isa rv64imafc`) the FP registers are 32 bits: the stream's FLEN
/// is 32 (the sidecar says so), each FPR write carries 4 bytes (the single's bits, not the
/// NaN-boxed 64-bit value), and the verifier, NaN-boxing them as the hart holds them, finds
/// the stream clean; a corrupted FPR byte is a mismatch. A FLEN that is not the hart's is
/// refused with a message naming both.
#[test]
fn flen_32_without_d() {
    let tmp = TempDir::new("tandem-flen32");
    let trace = record(&tmp, "isa_probe", &["--isa", "rv64imafc"]);
    let side = read_json(&tmp.join("isa_probe.trace.json"));
    assert_eq!(side["writer"]["params"]["flen"], 32, "{side}");
    let bytes = std::fs::read(&trace).unwrap();
    let opts = ParserOptions::with_params(tandem::params::Params::new(64, 32, 64).unwrap());
    let groups = parse_groups(&bytes, opts).expect("the stream parses with FLEN 32");
    // fmv.w.x fa0, a1 with a1 = 7: fa0's 4 bytes.
    let (fa0, at) = groups
        .iter()
        .flat_map(|g| g.items.iter())
        .find_map(|(off, it)| match it {
            Item::FullReg { addr: 0x102a, .. } => Some((*it, *off as usize + 3)),
            _ => None,
        })
        .expect("a write of fa0");
    assert!(format!("{fa0:?}").contains("value: 7"), "{fa0:?}");
    assert_eq!(&bytes[at..at + 4], &[7, 0, 0, 0]);
    let elf = program("isa_probe");
    let out = hs(&["tandem", "verify", s(&trace), "--elf", s(&elf)]);
    expect_code(&out, 0, "verify of a FLEN 32 stream");
    assert!(
        out.stdout_str().contains("MATCH: "),
        "{}",
        tail(&out.stdout_str())
    );
    let mut bad = bytes.clone();
    bad[at] ^= 0x10;
    let bad = tmp.write("bad.trace", &bad);
    std::fs::copy(tmp.join("isa_probe.trace.json"), tmp.join("bad.trace.json")).unwrap();
    let out = hs(&["tandem", "verify", s(&bad), "--elf", s(&elf)]);
    expect_code(&out, 1, "verify of a corrupted FLEN 32 stream");
    // Shown as the hart holds it: NaN-boxed.
    let text = out.stdout_str();
    assert!(
        text.contains("f10/fa0        expected 0xffffffff00000007   trace 0xffffffff00000017"),
        "{}",
        tail(&text)
    );
    // FLEN 64 on this hart, FLEN 32 on RV64GC: refused.
    let out = hs(&[
        "run",
        s(&elf),
        "--isa",
        "rv64imafc",
        "--tandem",
        s(&tmp.join("x.trace")),
        "--tandem-params",
        "64,64,64",
    ]);
    expect_code(&out, 2, "FLEN 64 without D");
    assert!(
        out.stderr_str().contains("FLEN must be 32"),
        "{}",
        out.stderr_str()
    );
    let out = hs(&[
        "run",
        s(&elf),
        "--tandem",
        s(&tmp.join("y.trace")),
        "--tandem-params",
        "64,32,64",
    ]);
    expect_code(&out, 2, "FLEN 32 with D");
    assert!(
        out.stderr_str().contains("FLEN must be 64"),
        "{}",
        out.stderr_str()
    );
}
