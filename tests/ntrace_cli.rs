//! The N-Trace commands end to end, through the real binary: `hartscope run --ntrace` (flags,
//! settings files, `--stats`, `--ingress` outputs), `hartscope ntrace dump` and
//! `hartscope ntrace decode`, against an independent record of the same run: the commit log
//! (`--log-commits`, Spike's format) lists every instruction the hart retired.
//!
//! Trace counts `ecall` and `ebreak` as retired (they carry itype 1, errata), the commit log,
//! like Spike's, does not list an instruction that raised an exception: those are the only
//! instructions the decoded flow may have beyond the log's.

mod common;

use common::{expect_status, hartscope, noise, program, Outcome, TempDir};
use rstest::rstest;
use std::path::Path;
use std::process::Command;

fn ok(cmd: &mut Command) -> Outcome {
    expect_status(cmd, 0, &[])
}

/// `hartscope run ELF --ntrace NTR [extra] --quiet`, which must succeed.
fn capture(
    elf: impl AsRef<std::ffi::OsStr>,
    ntr: impl AsRef<std::ffi::OsStr>,
    extra: &[&str],
) -> Outcome {
    ok(hartscope()
        .arg("run")
        .arg(elf)
        .arg("--ntrace")
        .arg(ntr)
        .args(extra)
        .arg("--quiet"))
}

/// The pcs of a commit log, as lowercase hex without leading zeros.
fn log_pcs(log: &Path) -> Vec<String> {
    let pcs: Vec<u64> = std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("core"))
        .map(|l| {
            let pc = l.split_whitespace().nth(3).expect("a pc in the commit log");
            u64::from_str_radix(pc.trim_start_matches("0x"), 16).unwrap()
        })
        .collect();
    // The log starts with the boot ROM's reset sequence (0x1000-0x1010), whose effects the
    // hart applies at reset: nothing the encoder traced.
    let boot = pcs
        .iter()
        .take_while(|&&pc| (0x1000..0x1014).contains(&pc))
        .count();
    assert!(boot == 5 || boot == 0, "{boot} boot-ROM lines");
    pcs[boot..].iter().map(|pc| format!("{pc:x}")).collect()
}

fn lines(p: &Path) -> Vec<String> {
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Runs `name` with trace capture and `flags`, decodes the stream, and checks the flow against
/// the run's commit log. Returns the trace's path.
fn round_trip(dir: &TempDir, name: &str, flags: &[&str]) -> std::path::PathBuf {
    let elf = program(name);
    let ntr = dir.join(&format!("{name}.ntr"));
    let log = dir.join(&format!("{name}.log"));
    let pcs = dir.join(&format!("{name}.pcs"));
    // A run cut by --max-insns ends with status 124 and says so.
    let limited = flags.contains(&"--max-insns");
    let (code, says): (i32, &[&str]) = if limited {
        (124, &["instruction limit"])
    } else {
        (0, &[])
    };
    expect_status(
        hartscope()
            .arg("run")
            .arg(&elf)
            .arg("--ntrace")
            .arg(&ntr)
            .arg("--log-commits")
            .arg(&log)
            .args(flags)
            .arg("--quiet"),
        code,
        says,
    );
    assert!(
        dir.join(&format!("{name}.ntr.json")).is_file(),
        "the settings file beside the trace"
    );
    ok(hartscope()
        .args(["ntrace", "decode"])
        .arg(&ntr)
        .arg("--elf")
        .arg(&elf)
        .arg("--pcs")
        .arg(&pcs));
    let decoded = lines(&pcs);
    let logged = log_pcs(&log);
    // The decoded flow must be the log, except for ecall/ebreak that trapped (the log does not
    // list those); find them through the decoder's own disassembly. (An ecall the built-in
    // SBI serves does not trap: the log lists it, with the registers the call wrote.)
    let dis = ok(hartscope()
        .args(["ntrace", "decode", "--disasm"])
        .arg(&ntr)
        .arg("--elf")
        .arg(&elf))
    .stdout_str();
    let insns: Vec<&str> = dis.lines().filter(|l| !l.starts_with("--")).collect();
    assert_eq!(
        insns.len(),
        decoded.len(),
        "{name}: --disasm and --pcs agree"
    );
    let mut j = 0;
    for (i, pc) in decoded.iter().enumerate() {
        if logged.get(j) == Some(pc) {
            j += 1;
            continue;
        }
        let m = insns[i].split_whitespace().nth(2).unwrap_or("");
        assert!(
            matches!(m, "ecall" | "ebreak" | "c.ebreak"),
            "{name} {flags:?}: decoded instruction {i} at {pc} ({}) is not the log's next \
             instruction {j} ({:?})",
            insns[i],
            logged.get(j)
        );
    }
    assert_eq!(
        j,
        logged.len(),
        "{name} {flags:?}: the decoded flow ends early"
    );
    ntr
}

#[rstest]
#[case::htm("cprog", &[])]
#[case::btm("cprog", &["--tr-te-inst-mode", "btm"])]
#[case::btm_repeat_branch("rv64i", &["--tr-te-inst-mode", "3", "--tr-te-inst-en-repeat-branch"])]
#[case::implicit_return_3_repeated_history("cprog", &[
    "--tr-te-inst-implicit-return-mode", "3", "--tr-te-inst-en-repeated-history"])]
#[case::implicit_return_2("cprog", &["--tr-te-inst-implicit-return-mode", "2"])]
#[case::timestamps_context("traps", &["--tr-ts-enable", "--tr-te-context"])]
#[case::small_counters("rvc", &["--icnt-bits", "6", "--hist-bits", "5"])]
#[case::periodic_sync("interrupts", &["--tr-te-inst-sync-mode", "3", "--tr-te-inst-sync-max", "2"])]
#[case::src_msb("umode", &[
    "--tr-te-src-bits", "4", "--tr-te-src-id", "9", "--tr-te-inst-extend-addr-msb"])]
#[case::sequential_jump_all_jumps("rv64d", &[
    "--tr-te-inst-en-sequential-jump", "--tr-te-inst-en-all-jumps"])]
#[case::sbi("sbi_ext", &["--sbi", "builtin"])]
#[case::bench_limit("bench", &["--max-insns", "300000"])]
fn decoded_flow_is_the_commit_log(#[case] name: &str, #[case] flags: &[&str]) {
    let dir = TempDir::new("ntrace-cli");
    round_trip(&dir, name, flags);
}

/// Every ecall/ebreak the decoder's disassembly names really is one (so the filter above
/// removes nothing else): `traps` runs them.
#[test]
fn ecalls_are_the_only_extra_instructions() {
    let dir = TempDir::new("ntrace-cli");
    let ntr = round_trip(&dir, "traps", &[]);
    let dis = ok(hartscope()
        .args(["ntrace", "decode", "--disasm"])
        .arg(&ntr)
        .arg("--elf")
        .arg(program("traps")))
    .stdout_str();
    let n = dis
        .lines()
        .filter(|l| matches!(l.split_whitespace().nth(2), Some("ecall" | "ebreak")))
        .count();
    assert!(n > 0, "traps runs ecall and ebreak");
}

/// The same settings from flags, a TOML file and a JSON file give the same bytes.
#[test]
fn settings_files_match_flags() {
    let dir = TempDir::new("ntrace-cli");
    let elf = program("cprog");
    let stream = |out: &str, extra: &[&str]| {
        let p = dir.join(out);
        capture(&elf, &p, extra);
        std::fs::read(p).unwrap()
    };
    let flags = stream(
        "flags.ntr",
        &[
            "--tr-te-inst-mode",
            "3",
            "--tr-te-inst-implicit-return-mode",
            "2",
            "--tr-ts-enable",
        ],
    );
    let toml = dir.write(
        "cfg.toml",
        b"tr_te_inst_mode = 3\ntr_te_inst_implicit_return_mode = 2\ntr_ts_enable = true\n",
    );
    let from_toml = stream("toml.ntr", &["--ntrace-config", toml.to_str().unwrap()]);
    assert_eq!(flags, from_toml, "TOML settings");
    // The settings file `run` writes beside the trace is itself a valid --ntrace-config.
    let json = dir.join("flags.ntr.json");
    let from_json = stream("json.ntr", &["--ntrace-config", json.to_str().unwrap()]);
    assert_eq!(flags, from_json, "JSON settings");
    // A flag overrides the file.
    let htm = stream(
        "htm.ntr",
        &[
            "--ntrace-config",
            toml.to_str().unwrap(),
            "--tr-te-inst-mode",
            "6",
        ],
    );
    assert_ne!(flags, htm);
}

#[test]
fn stats_dump_and_disassembly() {
    let dir = TempDir::new("ntrace-cli");
    let elf = program("cprog");
    let ntr = dir.join("c.ntr");
    let o = ok(hartscope()
        .arg("run")
        .arg(&elf)
        .arg("--ntrace")
        .arg(&ntr)
        .arg("--stats"));
    let err = o.stderr_str();
    assert!(err.contains("bits per instruction"), "{err}");
    let messages: u64 = err
        .lines()
        .find_map(|l| l.strip_prefix("N-Trace: "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("the message count in --stats");
    let dump = ok(hartscope().args(["ntrace", "dump"]).arg(&ntr)).stdout_str();
    let rows: Vec<&str> = dump.lines().collect();
    assert_eq!(rows.len() as u64, messages, "one dump line per message");
    assert!(rows[0].contains("ProgTraceSync") && rows[0].starts_with("0x00000000"));
    assert!(rows.last().unwrap().contains("ProgTraceCorrelation"));
    for name in ["IndirectBranch", "ResourceFull", "IndirectBranchHist"] {
        let n = rows
            .iter()
            .filter(|r| r.split_whitespace().nth(2) == Some(name))
            .count();
        let line = err
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("{name} in --stats"));
        let want: usize = line.split_whitespace().last().unwrap().parse().unwrap();
        assert_eq!(n, want, "{name}: dump and --stats agree");
    }
    let raw = ok(hartscope().args(["ntrace", "dump", "--raw"]).arg(&ntr)).stdout_str();
    assert!(raw.lines().count() > rows.len(), "--raw shows every byte");
    let dis = ok(hartscope()
        .args(["ntrace", "decode", "--disasm"])
        .arg(&ntr)
        .arg("--elf")
        .arg(&elf))
    .stdout_str();
    assert!(
        dis.contains("-- sync (SYNC 3) at 0x80000000"),
        "the start sync"
    );
    assert!(dis
        .lines()
        .any(|l| l.contains("_start") && l.contains("auipc")));
    assert!(dis.lines().any(|l| l.contains("main")));
}

#[test]
fn ingress_outputs() {
    let dir = TempDir::new("ntrace-cli");
    let elf = program("rvc");
    let beats_of = |o: &Outcome| -> usize {
        o.stderr_str()
            .lines()
            .find_map(|l| l.trim().strip_prefix("from "))
            .and_then(|l| l.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .expect("the beat count in --stats")
    };
    let csv = dir.join("b.csv");
    let o = ok(hartscope()
        .arg("run")
        .arg(&elf)
        .arg("--ntrace")
        .arg(dir.join("b.ntr"))
        .arg("--ingress")
        .arg(&csv)
        .arg("--stats"));
    let rows = lines(&csv);
    assert_eq!(
        rows[0],
        "itype_0,cause,tval,priv,iaddr_0,context,ctype,iretire_0,ilastsize_0"
    );
    assert_eq!(rows.len() - 1, beats_of(&o), "one row per beat");
    assert!(rows[1..].iter().all(|r| r.split(',').count() == 9));
    let jsonl = dir.join("b.jsonl");
    ok(hartscope()
        .arg("run")
        .arg(&elf)
        .arg("--ingress")
        .arg(&jsonl)
        .args(["--retirement", "single", "--quiet"]));
    let beats = lines(&jsonl);
    // The CSV is single retirement (what the reference encoder model reads).
    assert_eq!(beats.len(), rows.len() - 1, "the same beats as the CSV");
    for (b, r) in beats.iter().zip(&rows[1..]) {
        let v: serde_json::Value = serde_json::from_str(b).expect("a JSON beat");
        let addr = v["iaddr"].as_u64().unwrap();
        let csv_addr = u64::from_str_radix(r.split(',').nth(4).unwrap(), 16).unwrap();
        assert_eq!(addr, csv_addr);
        assert_eq!(
            v["iretire"].as_u64().unwrap().to_string(),
            r.split(',').nth(7).unwrap()
        );
    }
    let vcd = dir.join("b.vcd");
    ok(hartscope()
        .arg("run")
        .arg(&elf)
        .arg("--ingress")
        .arg(&vcd)
        .arg("--quiet"));
    let text = std::fs::read_to_string(&vcd).unwrap();
    assert!(text.contains("$enddefinitions"));
    for sig in [
        "itype",
        "cause",
        "tval",
        "priv",
        "iaddr",
        "iretire",
        "ilastsize",
    ] {
        assert!(
            text.lines()
                .any(|l| l.starts_with("$var") && l.split_whitespace().any(|w| w == sig)),
            "VCD signal {sig}"
        );
    }
}

#[test]
fn corrupt_and_truncated_streams() {
    let dir = TempDir::new("ntrace-cli");
    let elf = program("cprog");
    let ntr = dir.join("c.ntr");
    capture(&elf, &ntr, &[]);
    let bytes = std::fs::read(&ntr).unwrap();
    let cfg = dir.join("c.ntr.json");
    let decode = |name: &str, data: &[u8]| {
        let p = dir.write(name, data);
        let mut c = hartscope();
        c.args(["ntrace", "decode"])
            .arg(p)
            .arg("--elf")
            .arg(&elf)
            .arg("--config")
            .arg(&cfg);
        c
    };
    // Cut inside a message: named, at its offset; the flow before it is kept.
    let ends = (1..bytes.len() - 1)
        .filter(|&i| bytes[i] & 3 == 3)
        .nth(100)
        .unwrap();
    let o = expect_status(
        &mut decode("mid.ntr", &bytes[..ends]),
        1,
        &["the stream ends inside a message"],
    );
    assert!(
        o.stdout_str().lines().count() > 100,
        "the flow before the cut"
    );
    // Cut between messages: no end of trace.
    expect_status(
        &mut decode("cut.ntr", &bytes[..=ends]),
        1,
        &[&format!(
            "byte {:#x}: the stream ends while trace is on",
            ends + 1
        )],
    );
    // A corrupted byte in the middle: reported, and decoding resumes at the next sync.
    let mut bad = bytes.clone();
    bad[bytes.len() / 2] ^= 0x02;
    expect_status(
        &mut decode("flip.ntr", &bad),
        1,
        &["ntrace decode: byte 0x"],
    );
    // Garbage: errors, no panic, both commands.
    let garbage = noise(0x2545_f491_4f6c_dd1d, 4096);
    expect_status(
        &mut decode("garbage.ntr", &garbage),
        1,
        &["ntrace decode: byte 0x"],
    );
    let g = dir.join("garbage.ntr");
    expect_status(hartscope().args(["ntrace", "dump"]).arg(&g), 1, &[]);
    // Empty stream: nothing to decode, nothing wrong.
    let o = expect_status(&mut decode("empty.ntr", &[]), 0, &[]);
    assert_eq!(o.stdout_str(), "");
}

#[test]
fn bad_options() {
    let dir = TempDir::new("ntrace-cli");
    let elf = program("cprog");
    let out = dir.join("x.ntr");
    let run = |flags: &[&str]| {
        let mut c = hartscope();
        c.arg("run").arg(&elf).arg("--ntrace").arg(&out).args(flags);
        c
    };
    expect_status(
        &mut run(&["--tr-te-inst-mode", "4"]),
        2,
        &["--tr-te-inst-mode 4"],
    );
    expect_status(&mut run(&["--icnt-bits", "99"]), 2, &["icnt_bits"]);
    expect_status(&mut run(&["--hist-bits", "1"]), 2, &["hist_bits"]);
    expect_status(
        &mut run(&["--tr-te-inst-implicit-return-mode", "7"]),
        2,
        &["trTeInstImplicitReturnMode"],
    );
    expect_status(
        &mut run(&["--trace-filter", "nonsense"]),
        2,
        &["--trace-filter"],
    );
    let bad_toml = dir.write("bad.toml", b"tr_te_inst_mode = \"sideways\"\n");
    expect_status(
        &mut run(&["--ntrace-config", bad_toml.to_str().unwrap()]),
        2,
        &["bad.toml"],
    );
    ok(&mut run(&["--quiet"]));
    expect_status(
        hartscope().args(["ntrace", "decode"]).arg(&out),
        2,
        &["--elf"],
    );
    expect_status(
        hartscope()
            .args(["ntrace", "decode"])
            .arg(dir.join("missing.ntr"))
            .arg("--elf")
            .arg(&elf),
        2,
        &["missing.ntr"],
    );
    expect_status(
        hartscope()
            .args(["ntrace", "decode"])
            .arg(&out)
            .arg("--elf")
            .arg(dir.join("missing.elf")),
        2,
        &["missing.elf"],
    );
}

/// A small output FIFO loses messages; the stream says so (Error, then SYNC 7), and every
/// stretch decoded between losses is a stretch of the commit log.
#[test]
fn fifo_drops_are_reported() {
    let dir = TempDir::new("ntrace-cli");
    let elf = program("cprog");
    let ntr = dir.join("f.ntr");
    let log = dir.join("f.log");
    ok(hartscope()
        .arg("run")
        .arg(&elf)
        .arg("--ntrace")
        .arg(&ntr)
        .args(["--trace-fifo", "64", "--trace-drain", "200", "--quiet"])
        .arg("--log-commits")
        .arg(&log));
    let dump = ok(hartscope().args(["ntrace", "dump"]).arg(&ntr)).stdout_str();
    assert!(
        dump.lines().any(|l| l.contains(" Error ")),
        "Error messages"
    );
    let dis = ok(hartscope()
        .args(["ntrace", "decode", "--disasm"])
        .arg(&ntr)
        .arg("--elf")
        .arg(&elf))
    .stdout_str();
    let logged = log_pcs(&log);
    let mut stretches: Vec<Vec<String>> = vec![vec![]];
    for l in dis.lines() {
        if l.starts_with("--") {
            if l.contains("SYNC 7") {
                stretches.push(vec![]);
            }
            continue;
        }
        let pc = u64::from_str_radix(l.split_whitespace().next().unwrap(), 16).unwrap();
        stretches.last_mut().unwrap().push(format!("{pc:x}"));
    }
    assert!(stretches.len() > 10, "several losses");
    let mut pos = 0;
    for s in stretches.iter().filter(|s| !s.is_empty()) {
        let at = (pos..logged.len())
            .find(|&i| logged[i..].starts_with(s))
            .expect("each decoded stretch is a stretch of the log, in order");
        pos = at + s.len();
    }
}

/// The data accesses in an `--ingress` JSON Lines file (its `"kind":"data"` lines).
fn data_lines(p: &Path) -> usize {
    lines(p)
        .iter()
        .filter(|l| l.contains("\"kind\":\"data\""))
        .count()
}

/// Data trace with every retirement mode, on every shipped program: a beat's data accesses
/// always travel in the same batch as the beat. (A retirement recorded its accesses before its
/// beat closed the one before, which could fill the batch: the accesses went out with the
/// batch before and the writers failed with "beat N owns 1 data accesses but the batch has
/// only 0 left", single retirement on 10 of 11 programs.) Every mode sees the same accesses.
#[rstest]
fn data_trace_in_every_retirement_mode(#[files("programs/bin/*.elf")] elf: std::path::PathBuf) {
    let name = common::program_name(&elf);
    let opts = common::program_options(&name);
    let dir = TempDir::new("ntrace-data");
    // Enough for dozens of 4096-beat batches; bench runs much longer.
    let limit = ["--max-insns", "200000"];
    let plain = common::run_with_timeout(
        hartscope()
            .arg("run")
            .arg(&elf)
            .args(&opts)
            .args(limit)
            .arg("-q"),
        &name,
        std::time::Duration::from_secs(120),
    );
    let mut counts = Vec::new();
    for mode in ["single", "block", "block:7"] {
        let jsonl = dir.join("f.jsonl");
        let o = expect_status(
            hartscope()
                .arg("run")
                .arg(&elf)
                .args(&opts)
                .args(limit)
                .arg("-q")
                .arg("--ntrace")
                .arg(dir.join("f.ntr"))
                .arg("--ingress")
                .arg(&jsonl)
                .args(["--ingress-data", "--retirement", mode]),
            plain.code().expect("an exit status"),
            &[],
        );
        assert!(
            !o.stderr_str().contains("error"),
            "{name} --retirement {mode}:\n{}",
            o.stderr_str()
        );
        counts.push(data_lines(&jsonl));
        if mode == "single" {
            // The reference encoder model's CSV, single retirement only.
            let csv = dir.join("f.csv");
            expect_status(
                hartscope()
                    .arg("run")
                    .arg(&elf)
                    .args(&opts)
                    .args(limit)
                    .arg("-q")
                    .arg("--ingress")
                    .arg(&csv)
                    .arg("--ingress-data"),
                plain.code().expect("an exit status"),
                &[],
            );
        }
    }
    assert!(counts[0] > 0, "{name}: data accesses traced");
    assert!(
        counts.iter().all(|&c| c == counts[0]),
        "{name}: the same data accesses in every retirement mode: {counts:?}"
    );
}

#[test]
fn every_program_has_a_data_trace_case() {
    common::assert_every_program_has_a_case("data_trace_in_every_retirement_mode", &[]);
}

/// The messages of a stream (cut at the bytes with MSEO 11), with their offsets.
fn split_messages(bytes: &[u8]) -> Vec<(usize, Vec<u8>)> {
    let mut v = Vec::new();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b == 0xff && start == i {
            start = i + 1;
        } else if b & 3 == 3 {
            v.push((start, bytes[start..=i].to_vec()));
            start = i + 1;
        }
    }
    v
}

/// A RepeatBranch whose B-CNT was corrupted to 0x3fffffdd made `ntrace decode` write two
/// billion pcs. Now it is a decode error at the message's offset (exit status 1) that names
/// the limit and the option raising it, and decoding resumes at the next sync; the work a
/// message may cause is bounded by `--work-limit`.
#[test]
fn implausible_repeat_counts_are_decode_errors() {
    use encoder::msg::{self, Body, Format, Message};
    let dir = TempDir::new("ntrace-work");
    let elf = program("rv64i");
    let ntr = dir.join("r.ntr");
    capture(
        &elf,
        &ntr,
        &["--tr-te-inst-mode", "btm", "--tr-te-inst-en-repeat-branch"],
    );
    let bytes = std::fs::read(&ntr).unwrap();
    let f = Format::default();
    let (at, old) = split_messages(&bytes)
        .into_iter()
        .find(|(_, m)| {
            matches!(
                msg::parse(m, &f),
                Ok(Message {
                    body: Body::RepeatBranch { .. },
                    ..
                })
            )
        })
        .expect("rv64i repeats a branch");
    let mut m = msg::parse(&old, &f).unwrap();
    m.body = Body::RepeatBranch { bcnt: 0x3fff_ffdd };
    let mut bad = bytes[..at].to_vec();
    bad.extend(msg::to_bytes(&m, &f));
    bad.extend(&bytes[at + old.len()..]);
    let bad_ntr = dir.write("bad.ntr", &bad);
    std::fs::copy(dir.join("r.ntr.json"), dir.join("bad.ntr.json")).unwrap();
    let o = expect_status(
        hartscope()
            .args(["ntrace", "decode"])
            .arg(&bad_ntr)
            .arg("--elf")
            .arg(&elf),
        1,
        &[
            &format!("byte {at:#x}: RepeatBranch: B-CNT 1073741789 repetitions"),
            "work limit of 16777216 half-words",
            "--work-limit",
        ],
    );
    let good = ok(hartscope()
        .args(["ntrace", "decode"])
        .arg(&ntr)
        .arg("--elf")
        .arg(&elf))
    .stdout_str();
    let n = o.stdout_str().lines().count();
    assert!(
        n > 100 && n <= good.lines().count(),
        "{n} pcs, the good stream {}",
        good.lines().count()
    );
    // A low limit refuses the real stream's repeats; the default and `none` decode it.
    expect_status(
        hartscope()
            .args(["ntrace", "decode", "--work-limit", "8"])
            .arg(&ntr)
            .arg("--elf")
            .arg(&elf),
        1,
        &["work limit of 8 half-words"],
    );
    let none = ok(hartscope()
        .args(["ntrace", "decode", "--work-limit", "none"])
        .arg(&ntr)
        .arg("--elf")
        .arg(&elf))
    .stdout_str();
    assert_eq!(none, good);
    expect_status(
        hartscope()
            .args(["ntrace", "decode", "--work-limit", "0"])
            .arg(&ntr),
        2,
        &["--work-limit", "at least 1"],
    );
}

/// A lossy FIFO that is still dropping when the run ends: the encoder waits for the FIFO at
/// the end, so the stream reports the loss (Error, SYNC 7) and closes with
/// ProgTraceCorrelation; the decoder reports the loss, not a stream cut short.
#[test]
fn loss_at_the_end_of_a_run_is_reported() {
    let dir = TempDir::new("ntrace-fifo-end");
    let elf = program("rv64i");
    let ntr = dir.join("l.ntr");
    let run = capture(
        &elf,
        &ntr,
        &["--trace-fifo", "32", "--trace-drain", "1", "--stats"],
    );
    assert!(
        run.stderr_str().contains("dropped (FIFO full)"),
        "{}",
        run.stderr_str()
    );
    let dump = ok(hartscope().args(["ntrace", "dump"]).arg(&ntr)).stdout_str();
    let last: Vec<&str> = dump.lines().rev().take(3).collect();
    assert!(
        last[0].contains("ProgTraceCorrelation") && last[0].contains("EVCODE=0x0"),
        "{dump}"
    );
    assert!(
        last[1].contains("ProgTraceSync") && last[1].contains("SYNC=0x7"),
        "{dump}"
    );
    assert!(last[2].contains(" Error "), "{dump}");
    let o = ok(hartscope()
        .args(["ntrace", "decode", "--disasm"])
        .arg(&ntr)
        .arg("--elf")
        .arg(&elf));
    assert!(!o.stderr_str().contains("cut short"), "{}", o.stderr_str());
    let out = o.stdout_str();
    let tail: Vec<&str> = out.lines().rev().take(3).collect();
    assert!(tail[2].starts_with("-- trace lost"), "{out}");
    assert!(tail[1].starts_with("-- sync (SYNC 7)"), "{out}");
    assert_eq!(tail[0], "-- trace off (EVCODE 0)");
}

/// Inputs are read with a cap: a raw image cannot exceed the address space above its address
/// (nor 256 MiB), a settings file 1 MiB; `/dev/zero` is refused, naming the file and the cap,
/// instead of filling the memory.
#[test]
fn unbounded_inputs_are_refused() {
    let dir = TempDir::new("ntrace-caps");
    let elf = program("rv64i");
    let ntr = dir.join("r.ntr");
    capture(&elf, &ntr, &[]);
    let decode = |extra: &[&str]| {
        let mut c = hartscope();
        c.args(["ntrace", "decode"]).arg(&ntr).args(extra);
        c
    };
    expect_status(
        &mut decode(&["--raw", "0xfffffffffffff000:/dev/zero"]),
        2,
        &["--raw 0xfffffffffffff000:/dev/zero: /dev/zero: larger than the 4 KiB a raw image may hold"],
    );
    expect_status(
        &mut decode(&["--raw", "0x80000000:/dev/zero"]),
        2,
        &["/dev/zero: larger than the 256 MiB a raw image may hold"],
    );
    let settings_cap = "/dev/zero: larger than the 1 MiB a settings file may hold";
    expect_status(
        &mut decode(&["--config", "/dev/zero", "--elf", elf.to_str().unwrap()]),
        2,
        &[settings_cap],
    );
    expect_status(
        hartscope()
            .arg("run")
            .arg(&elf)
            .args(["--ntrace", "x.ntr", "--ntrace-config", "/dev/zero"])
            .current_dir(dir.path()),
        2,
        &[settings_cap],
    );
    expect_status(
        &mut decode(&["--elf", "/dev/zero"]),
        2,
        &["/dev/zero: larger than the 1 GiB an ELF program may hold"],
    );
}

/// `--ntrace -` is standard output (with the settings where --ntrace-sidecar says, which it
/// needs; the guest's console goes to standard error); no settings file is made beside a
/// device (`/dev/null.json`); write failures name the file.
#[test]
fn trace_output_names() {
    let dir = TempDir::new("ntrace-names");
    let elf = program("hello");
    let run = |args: &[&str]| {
        let mut c = hartscope();
        c.arg("run")
            .arg(&elf)
            .arg("-q")
            .args(args)
            .current_dir(dir.path());
        c
    };
    expect_status(
        &mut run(&["--ntrace", "-"]),
        2,
        &[
            "--ntrace -: the trace goes to standard output",
            "--ntrace-sidecar FILE",
        ],
    );
    assert!(!dir.join("-").exists(), "no file named -");
    let o = ok(&mut run(&["--ntrace", "-", "--ntrace-sidecar", "s.json"]));
    assert!(
        o.stderr_str().contains("Hello from hartscope!"),
        "console on stderr"
    );
    let ntr = dir.write("s.ntr", &o.stdout);
    let file = ok(&mut run(&["--ntrace", "f.ntr"]));
    assert!(file.stdout_str().contains("Hello from hartscope!"));
    assert_eq!(
        std::fs::read(dir.join("f.ntr")).unwrap(),
        o.stdout,
        "the same stream"
    );
    let decoded = ok(hartscope()
        .args(["ntrace", "decode"])
        .arg(&ntr)
        .arg("--elf")
        .arg(&elf)
        .arg("--config")
        .arg(dir.join("s.json")));
    assert!(decoded.stdout_str().lines().count() > 100);
    expect_status(
        &mut run(&[
            "--ntrace",
            "-",
            "--ntrace-sidecar",
            "s.json",
            "--log-commits",
            "-",
        ]),
        2,
        &["--log-commits - and --ntrace - would all write to standard output"],
    );
    expect_status(
        &mut run(&[
            "--ntrace",
            "-",
            "--ntrace-sidecar",
            "s.json",
            "--tandem",
            "-",
            "--tandem-sidecar",
            "t.json",
        ]),
        2,
        &["--ntrace - and --tandem - would all write to standard output"],
    );
    // A device: no sidecar beside it, unless given.
    expect_status(
        &mut run(&["--ntrace", "/dev/null"]),
        2,
        &[
            "--ntrace /dev/null: not a regular file",
            "/dev/null.json",
            "--ntrace-sidecar",
        ],
    );
    ok(&mut run(&[
        "--ntrace",
        "/dev/null",
        "--ntrace-sidecar",
        "n.json",
    ]));
    assert!(dir.join("n.json").is_file());
    // Write failures name the file.
    expect_status(
        &mut run(&["--ntrace", "/dev/full", "--ntrace-sidecar", "n.json"]),
        2,
        &["writing /dev/full: No space left on device"],
    );
    std::os::unix::fs::symlink("/dev/full", dir.join("full.jsonl")).unwrap();
    expect_status(
        &mut run(&["--ingress", "full.jsonl"]),
        2,
        &["writing full.jsonl: No space left on device"],
    );
    expect_status(
        &mut run(&["--ntrace", "missing/o.ntr"]),
        2,
        &["cannot create missing/o.ntr: No such file or directory"],
    );
}

/// `ntrace dump` streams (a stream larger than its 64 KiB reads dumps the same as the
/// library's dump of the whole), and output failures name standard output (exit status 2)
/// for the dump and the decoded flow; a closed pipe is not an error.
#[test]
fn dump_streams_and_output_failures_are_reported() {
    let dir = TempDir::new("ntrace-dump");
    let elf = program("cprog");
    let ntr = dir.join("c.ntr");
    capture(&elf, &ntr, &["--tr-te-inst-mode", "btm"]);
    let bytes = std::fs::read(&ntr).unwrap();
    assert!(
        bytes.len() > 1 << 16,
        "{} bytes: more than one read",
        bytes.len()
    );
    for raw in [false, true] {
        let mut expected = Vec::new();
        let f = encoder::msg::Format::default();
        if raw {
            encoder::dump::dump_raw(&bytes, &f, &mut expected).unwrap();
        } else {
            encoder::dump::dump(&bytes, &f, &mut expected).unwrap();
        }
        let mut c = hartscope();
        c.args(["ntrace", "dump"]).arg(&ntr);
        if raw {
            c.arg("--raw");
        }
        let o = ok(&mut c);
        assert!(
            o.stdout == expected,
            "the streamed dump (raw {raw}) is the whole one"
        );
    }
    let full = || std::fs::File::create("/dev/full").unwrap();
    for args in [
        vec!["dump"],
        vec!["decode", "--elf", elf.to_str().unwrap()],
        vec!["decode", "--pcs", "-", "--elf", elf.to_str().unwrap()],
    ] {
        let mut c = hartscope();
        c.arg("ntrace").args(&args[..1]).arg(&ntr).args(&args[1..]);
        let what = format!("{c:?}");
        c.stdout(full()).stderr(std::process::Stdio::piped());
        let o = c.output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{what}: {err}");
        assert!(
            err.contains("to standard output: No space left on device"),
            "{what}: {err}"
        );
    }
    assert!(
        !dir.join("-").exists(),
        "--pcs - is standard output, not a file"
    );
}

/// Settings errors name the file, the field and what is wrong, for --ntrace-config and for
/// the settings beside a trace that dump and decode read.
#[test]
fn settings_errors_name_file_and_field() {
    let dir = TempDir::new("ntrace-settings");
    let elf = program("rv64i");
    let ntr = dir.join("r.ntr");
    capture(&elf, &ntr, &[]);
    let cfg = dir.write(
        "c.toml",
        b"tr_te_inst_mode = 3\nicnt_bits = 99999999999999999999999\n",
    );
    expect_status(
        hartscope()
            .arg("run")
            .arg(&elf)
            .args(["--ntrace", "x.ntr", "--ntrace-config"])
            .arg(&cfg)
            .current_dir(dir.path()),
        2,
        &[
            "c.toml: not valid TOML: line 2, column 13: ",
            "99999999999999999999999",
        ],
    );
    let cfg = dir.write("c.json", br#"{"tr_te_inst_mode": 3, "hist_bits": 256}"#);
    expect_status(
        hartscope()
            .arg("run")
            .arg(&elf)
            .args(["--ntrace", "x.ntr", "--ntrace-config"])
            .arg(&cfg)
            .current_dir(dir.path()),
        2,
        &["c.json: field `hist_bits`: invalid value: integer `256`, expected u8"],
    );
    // The sidecar, corrupted.
    std::fs::write(dir.join("r.ntr.json"), b"{\"tr_te_inst_mode\": \"btm\"}").unwrap();
    for cmd in ["dump", "decode"] {
        let mut c = hartscope();
        c.args(["ntrace", cmd]).arg(&ntr);
        if cmd == "decode" {
            c.arg("--elf").arg(&elf);
        }
        expect_status(
            &mut c,
            2,
            &["r.ntr.json: field `tr_te_inst_mode`: invalid type: string \"btm\", expected u8"],
        );
    }
}

/// A stream from an encoder whose return stack is shallower than the decoder assumes (depth 1
/// here; NexRv `-cs 8` in the field): with the settings sidecar (the depth known) it decodes
/// without a word; with a settings file that does not give the depth, the decoder assumes 32
/// (N-Trace 9.2) and decodes the same flow with one warning on standard error, naming the
/// byte offset, and exit status 0. `--return-stack-depth N` gives the depth: the right one
/// decodes silently, a wrong one (deeper) is an error.
#[test]
fn shallower_encoder_return_stack_is_a_warning() {
    let dir = TempDir::new("ntrace-cli");
    let ntr = round_trip(
        &dir,
        "cprog",
        &[
            "--tr-te-inst-implicit-return-mode",
            "3",
            "--implicit-return-depth",
            "1",
        ],
    );
    let elf = program("cprog");
    let decode = |extra: &[&str], code: i32, says: &[&str]| {
        let pcs = dir.join("flow.pcs");
        let o = expect_status(
            hartscope()
                .args(["ntrace", "decode"])
                .arg(&ntr)
                .arg("--elf")
                .arg(&elf)
                .arg("--pcs")
                .arg(&pcs)
                .args(extra),
            code,
            says,
        );
        (o.stderr_str(), lines(&pcs))
    };
    let (err, flow) = decode(&[], 0, &[]);
    assert!(!err.contains("warning"), "{err}");
    assert!(flow.len() > 100);
    let cfg = dir.write(
        "no-depth.json",
        br#"{"tr_te_inst_implicit_return_mode": 3}"#,
    );
    let cfg = cfg.to_str().unwrap();
    let (err, got) = decode(
        &["--config", cfg],
        0,
        &[
            "warning: the return at",
            "the encoder's return stack is shallower",
        ],
    );
    assert_eq!(got, flow, "the same flow");
    assert_eq!(err.matches("warning").count(), 1, "once per stream: {err}");
    assert!(
        err.starts_with("hartscope: ntrace decode: byte 0x"),
        "the byte offset: {err}"
    );
    let (err, got) = decode(&["--config", cfg, "--return-stack-depth", "1"], 0, &[]);
    assert!(!err.contains("warning"), "{err}");
    assert_eq!(got, flow);
    decode(
        &["--config", cfg, "--return-stack-depth", "32"],
        1,
        &["the return stack (depth 32, the encoder's) predicts it"],
    );
    expect_status(
        hartscope()
            .args(["ntrace", "decode"])
            .arg(&ntr)
            .arg("--elf")
            .arg(&elf)
            .args(["--return-stack-depth", "33"]),
        2,
        &["--return-stack-depth"],
    );
}

/// `--ingress-csv-flavour`: the default CSV is the spec's encoding of the port's beats (every
/// column from the beat, as the JSON lines say it), `spec` is the same bytes, and
/// `reference-model` changes exactly the xRET rows (itype 14, or 6 with a 3-bit itype) and the
/// privilege of an `iretire` 0 row right after an xRET (the xRET's). `interrupts` has mret and
/// sret, and interrupts taken at an mret's target before anything retired there, one of them
/// after an mret from M to U.
#[rstest]
#[case::itype4("4", "14")]
#[case::itype3("3", "6")]
fn ingress_csv_flavours(#[case] width: &str, #[case] xret: &str) {
    let dir = TempDir::new("ntrace-cli");
    let elf = program("interrupts");
    let csv = |name: &str, extra: &[&str]| -> Vec<String> {
        let p = dir.join(name);
        ok(hartscope()
            .arg("run")
            .arg(&elf)
            .arg("--ingress")
            .arg(&p)
            .args(["--itype-width", width])
            .args(extra)
            .arg("--quiet"));
        lines(&p)
    };
    let default = csv("default.csv", &[]);
    assert_eq!(default, csv("spec.csv", &["--ingress-csv-flavour", "spec"]));
    // The default: every column is the beat's (single retirement, as the CSV runs).
    let jsonl = dir.join("b.jsonl");
    ok(hartscope()
        .arg("run")
        .arg(&elf)
        .arg("--ingress")
        .arg(&jsonl)
        .args(["--itype-width", width, "--retirement", "single", "--quiet"]));
    let beats = lines(&jsonl);
    assert_eq!(beats.len(), default.len() - 1);
    for (b, r) in beats.iter().zip(&default[1..]) {
        let v: serde_json::Value = serde_json::from_str(b).expect("a JSON beat");
        let n = |k: &str| v[k].as_u64().unwrap();
        let want = format!(
            "{},{},{:x},{},{:x},{},{},{},{}",
            n("itype"),
            n("cause") & !(1 << 63),
            n("tval"),
            n("priv"),
            n("iaddr"),
            n("context"),
            n("ctype"),
            n("iretire"),
            n("ilastsize")
        );
        assert_eq!(r, &want);
    }

    let model = csv("model.csv", &["--ingress-csv-flavour", "reference-model"]);
    assert_eq!(model[0], default[0]);
    assert_eq!(model.len(), default.len());
    let cols = |r: &str| -> Vec<String> { r.split(',').map(str::to_string).collect() };
    let (mut xrets, mut privs, mut from_m_to_u) = (0, 0, 0);
    for i in 1..default.len() {
        let (d, m) = (cols(&default[i]), cols(&model[i]));
        let mut want = d.clone();
        if d[0] == "3" {
            want[0] = xret.to_string();
            xrets += 1;
        }
        let prev = cols(&default[i - 1]);
        if i > 1 && prev[0] == "3" && d[7] == "0" {
            if want[3] != prev[3] {
                privs += 1;
                from_m_to_u += (prev[3] == "3" && d[3] == "0") as usize;
            }
            want[3] = prev[3].clone();
        }
        assert_eq!(m, want, "row {i}: default {}", default[i]);
    }
    assert!(xrets >= 20, "{xrets} xRETs");
    assert!(
        privs >= 2 && from_m_to_u >= 1,
        "{privs} privileges rewritten"
    );
    // Both mret (from M) and sret (from S) are there.
    let xret_privs: std::collections::BTreeSet<&str> = default[1..]
        .iter()
        .filter(|r| r.starts_with("3,"))
        .map(|r| r.split(',').nth(3).unwrap())
        .collect();
    assert!(
        xret_privs.contains("3") && xret_privs.contains("1"),
        "{xret_privs:?}"
    );
}

#[rstest]
#[case::not_csv(
    "b.jsonl",
    "reference-model",
    "applies to an --ingress file ending in .csv"
)]
#[case::no_ingress("", "spec", "applies to an --ingress file ending in .csv")]
#[case::unknown(
    "b.csv",
    "model",
    "--ingress-csv-flavour model: spec or reference-model"
)]
fn ingress_csv_flavour_refused(#[case] file: &str, #[case] flavour: &str, #[case] msg: &str) {
    let dir = TempDir::new("ntrace-cli");
    let mut cmd = hartscope();
    cmd.arg("run").arg(program("rvc"));
    if !file.is_empty() {
        cmd.arg("--ingress").arg(dir.join(file));
    }
    cmd.args(["--ingress-csv-flavour", flavour, "--quiet"]);
    expect_status(&mut cmd, 2, &[msg]);
    if !file.is_empty() {
        assert!(!dir.join(file).exists(), "nothing written");
    }
}

/// Trigger and filter addresses (`--trace-on`, `--trace-off`, `--trace-filter`) are always
/// hexadecimal, with or without `0x` (as Spike's `--pc`), `_` allowed: every spelling gives the
/// same trace, a decimal-looking address is hex, and anything else is refused naming the value.
#[test]
fn trace_addresses_are_hexadecimal_with_or_without_0x() {
    let dir = TempDir::new("ntrace-addr");
    let elf = program("cprog");
    let trace = |name: &str, flags: &[&str]| {
        let out = dir.join(name);
        capture(&elf, &out, flags);
        std::fs::read(out).unwrap()
    };
    let prefixed = trace(
        "prefixed.ntr",
        &[
            "--trace-on",
            "0x80000000",
            "--trace-filter",
            "0x80000000:0x80000400",
        ],
    );
    let bare = trace(
        "bare.ntr",
        &[
            "--trace-on",
            "80000000",
            "--trace-filter",
            "8000_0000:8000_0400",
        ],
    );
    assert_eq!(prefixed, bare);
    // "10:20" is 0x10..0x20 (nothing of the program), not decimal 10..20.
    let low_hex = trace("low-hex.ntr", &["--trace-filter", "0x10:0x20"]);
    let low_bare = trace("low-bare.ntr", &["--trace-filter", "10:20"]);
    assert_eq!(low_hex, low_bare);
    assert_ne!(low_hex, prefixed);
    let out = dir.join("x.ntr");
    expect_status(
        hartscope()
            .arg("run")
            .arg(&elf)
            .arg("--ntrace")
            .arg(&out)
            .args(["--trace-on", "0xzz"]),
        2,
        &["'0xzz' is not an address (hexadecimal, with or without 0x: 0x80000000)"],
    );
}

/// With several harts (`smp`, `--harts 2`) the trace follows one hart (`--trace-hart`): the
/// decoded pc flow is exactly that hart's lines of the commit log (after its reset sequence,
/// which the log alone shows); a hart the machine lacks is refused by name.
#[test]
fn trace_hart_follows_one_hart() {
    let tmp = TempDir::new("trace-hart");
    let elf = program("smp");
    for h in ["0", "1"] {
        let (ntr, log, pcs) = (
            tmp.join(&format!("t{h}.ntr")),
            tmp.join(&format!("l{h}.log")),
            tmp.join(&format!("p{h}.txt")),
        );
        let log_s = log.to_str().unwrap();
        capture(
            &elf,
            &ntr,
            &["--harts", "2", "--trace-hart", h, "--log-commits", log_s],
        );
        ok(hartscope()
            .args(["ntrace", "decode"])
            .arg(&ntr)
            .arg("--elf")
            .arg(&elf)
            .arg("--pcs")
            .arg(&pcs));
        let prefix = format!("core   {h}: 3 0x00000000800");
        let want: Vec<String> = std::fs::read_to_string(&log)
            .unwrap()
            .lines()
            .filter(|l| l.starts_with(&prefix))
            .map(|l| {
                let pc = l.split_whitespace().nth(3).unwrap();
                format!("{:x}", u64::from_str_radix(&pc[2..], 16).unwrap())
            })
            .collect();
        let got: Vec<String> = std::fs::read_to_string(&pcs)
            .unwrap()
            .lines()
            .map(|l| {
                format!(
                    "{:x}",
                    u64::from_str_radix(l.trim_start_matches("0x"), 16).unwrap()
                )
            })
            .collect();
        assert!(want.len() > 1000, "hart {h}: {} lines", want.len());
        assert_eq!(got, want, "hart {h}");
    }
    expect_status(
        hartscope()
            .args(["run", "--harts", "2", "--trace-hart", "2", "--ntrace"])
            .arg(tmp.join("x.ntr"))
            .arg(&elf),
        2,
        &["--trace-hart 2: the machine has 2 harts (0..=1)"],
    );
}

/// Each hart's pcs in a commit log of several harts (`core   N:` lines), the boot ROM's reset
/// sequence (0x1000-0x1010, which the trace does not show) left out; hex without leading
/// zeros, by hart.
fn log_pcs_by_hart(log: &Path, harts: usize) -> Vec<Vec<String>> {
    let mut by = vec![Vec::new(); harts];
    for l in std::fs::read_to_string(log).unwrap().lines() {
        let Some(rest) = l.strip_prefix("core") else {
            continue;
        };
        let mut f = rest.split_whitespace();
        let h: usize = f.next().unwrap().trim_end_matches(':').parse().unwrap();
        let pc = u64::from_str_radix(f.nth(1).unwrap().trim_start_matches("0x"), 16).unwrap();
        if !(0x1000..0x1020).contains(&pc) {
            by[h].push(format!("{pc:x}"));
        }
    }
    by
}

/// Several harts in one N-Trace stream (`--trace-hart all`, and a list): each hart's encoder
/// sends SRC = its index, the sidecar gives the SRC width the harts need, and the decoded
/// flow of every hart, one at a time (`--src N`) and all at once (`--src all`, lines
/// `SRC PC`), is exactly that hart's lines of the commit log; `--src all` keeps the stream's
/// order, so the harts' flows interleave in it.
#[rstest]
#[case::smp("smp", &["--harts", "2"], 2, "all")]
#[case::sbi_smp("sbi_smp", &["--sbi", "builtin", "--harts", "4"], 4, "all")]
#[case::sbi_smp_list("sbi_smp", &["--sbi", "builtin", "--harts", "4"], 4, "3,1")]
// One hart (92,449 beats: handed to the encoder in pieces, with no turns to end).
#[case::one_hart("cprog", &[], 1, "all")]
fn several_harts_in_one_stream(
    #[case] name: &str,
    #[case] flags: &[&str],
    #[case] harts: usize,
    #[case] traced: &str,
) {
    let tmp = TempDir::new("trace-harts");
    let elf = program(name);
    let (ntr, log) = (tmp.join("all.ntr"), tmp.join("all.log"));
    let mut extra = flags.to_vec();
    extra.extend([
        "--trace-hart",
        traced,
        "--log-commits",
        log.to_str().unwrap(),
    ]);
    capture(&elf, &ntr, &extra);
    let side: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.join("all.ntr.json")).unwrap()).unwrap();
    let bits = if harts <= 2 { 1 } else { 2 };
    assert_eq!(side["tr_te_src_bits"], bits, "{side}");
    let want = log_pcs_by_hart(&log, harts);
    let hs: Vec<usize> = if traced == "all" {
        (0..harts).collect()
    } else {
        traced.split(',').map(|h| h.parse().unwrap()).collect()
    };
    for &h in &hs {
        let pcs = tmp.join(&format!("p{h}.txt"));
        ok(hartscope()
            .args(["ntrace", "decode"])
            .arg(&ntr)
            .arg("--elf")
            .arg(&elf)
            .args(["--src", &h.to_string()])
            .arg("--pcs")
            .arg(&pcs));
        assert!(want[h].len() > 100, "hart {h}: {} lines", want[h].len());
        assert_eq!(lines(&pcs), want[h], "{name}: hart {h} (--src {h})");
    }
    let all = tmp.join("all.txt");
    ok(hartscope()
        .args(["ntrace", "decode"])
        .arg(&ntr)
        .arg("--elf")
        .arg(&elf)
        .args(["--src", "all", "--pcs"])
        .arg(&all));
    let text = std::fs::read_to_string(&all).unwrap();
    let mut got = vec![Vec::new(); harts];
    let mut order = Vec::new();
    for l in text.lines() {
        let (src, pc) = l.split_once(' ').expect("a line `SRC PC`");
        let src: usize = src.parse().unwrap();
        got[src].push(pc.to_string());
        if order.last() != Some(&src) {
            order.push(src);
        }
    }
    for h in 0..harts {
        if hs.contains(&h) {
            assert_eq!(got[h], want[h], "{name}: hart {h} (--src all)");
        } else {
            assert!(got[h].is_empty(), "hart {h} is not traced");
        }
    }
    if hs.len() > 1 {
        assert!(
            order.len() > hs.len(),
            "the harts' flows interleave in the stream's order: {order:?}"
        );
    }
}

/// The SRC options' errors: a hart the machine lacks, a hart listed twice, several harts for
/// a trace that follows one (--tandem, --ingress, --ctr-report) or without --ntrace, a SRC
/// width too small for the harts or a fixed SRC ID; at decode, a SRC the stream does not have
/// (naming those it has), one wider than its field, and --src on a stream without SRC.
#[test]
fn several_harts_errors() {
    let tmp = TempDir::new("trace-harts-errors");
    let elf = program("smp");
    let ntr = tmp.join("x.ntr");
    let run = |extra: &[&str], msg: &str| {
        expect_status(
            hartscope()
                .args(["run", "--harts", "2", "--quiet"])
                .arg(&elf)
                .args(extra),
            2,
            &[msg],
        );
    };
    let n = ntr.to_str().unwrap();
    run(
        &["--ntrace", n, "--trace-hart", "0,2"],
        "--trace-hart 2: the machine has 2 harts (0..=1)",
    );
    run(
        &["--ntrace", n, "--trace-hart", "1,1"],
        "hart 1 is listed twice",
    );
    run(
        &["--ntrace", n, "--trace-hart", "x"],
        "'x' is not a hart index (give H, a list H,H,... or `all`)",
    );
    let tandem = tmp.join("t.tdm");
    run(
        &[
            "--ntrace",
            n,
            "--trace-hart",
            "all",
            "--tandem",
            tandem.to_str().unwrap(),
        ],
        "--trace-hart all: --tandem follows one hart (give --trace-hart H)",
    );
    let ing = tmp.join("b.jsonl");
    run(
        &[
            "--ntrace",
            n,
            "--trace-hart",
            "0,1",
            "--ingress",
            ing.to_str().unwrap(),
        ],
        "--trace-hart 0,1: --ingress follows one hart",
    );
    run(
        &["--trace-hart", "all"],
        "--trace-hart all: several harts are for --ntrace",
    );
    run(
        &["--ntrace", n, "--trace-hart", "all", "--tr-te-src-id", "1"],
        "--tr-te-src-id: with several traced harts",
    );
    expect_status(
        hartscope()
            .args(["run", "--sbi", "builtin", "--harts", "4", "--quiet"])
            .arg(program("sbi_smp"))
            .args([
                "--ntrace",
                n,
                "--trace-hart",
                "all",
                "--tr-te-src-bits",
                "1",
            ]),
        2,
        &[
            "trTeSrcBits 1 (--tr-te-src-bits or the settings file) cannot hold hart 3: \
           --trace-hart 0,1,2,3 needs at least 2",
        ],
    );

    // Decoding: the stream of smp's two harts has SRC 0 and 1 (1 bit).
    capture(&elf, &ntr, &["--harts", "2", "--trace-hart", "all"]);
    let decode = |src: &str| {
        let mut c = hartscope();
        c.args(["ntrace", "decode"])
            .arg(&ntr)
            .arg("--elf")
            .arg(&elf)
            .args(["--src", src]);
        c
    };
    expect_status(
        &mut decode("2"),
        2,
        &[
            "--src 2: the stream's SRC field has 1 bit",
            "so SRC is 0..=1",
        ],
    );
    // Without --src, the second source is an error that says how to follow them.
    expect_status(
        hartscope()
            .args(["ntrace", "decode"])
            .arg(&ntr)
            .arg("--elf")
            .arg(&elf)
            .args(["--pcs", tmp.join("none.txt").to_str().unwrap()]),
        1,
        &[
            "unexpected SRC 1",
            "it interleaves several sources; follow one (src_filter, \
           `ntrace decode --src N`) or all (`--src all`)",
        ],
    );
    // One hart, with a SRC field: SRC 1 only.
    let one = tmp.join("one.ntr");
    capture(
        &elf,
        &one,
        &[
            "--harts",
            "2",
            "--trace-hart",
            "1",
            "--tr-te-src-bits",
            "2",
            "--tr-te-src-id",
            "1",
        ],
    );
    expect_status(
        hartscope()
            .args(["ntrace", "decode"])
            .arg(&one)
            .arg("--elf")
            .arg(&elf)
            .args(["--src", "2"]),
        2,
        &["--src 2: no message of SRC 2 in", "(its sources: 1)"],
    );
    // A stream without SRC (one hart followed, the default).
    capture(&elf, &ntr, &["--harts", "2", "--trace-hart", "0"]);
    expect_status(
        &mut decode("0"),
        2,
        &[
            "--src 0: the stream's messages carry no SRC field (trTeSrcBits is 0 in its \
           settings",
            "decode it without --src",
        ],
    );
    expect_status(
        &mut decode("all"),
        2,
        &["--src all: the stream's messages carry no SRC field"],
    );
    expect_status(
        &mut decode("many"),
        2,
        &["'many' is not a SRC value (0..=4095) or `all`"],
    );
}

/// cbo.zero's data access (a 64-byte block of zeros: dsize 6) goes into the ingress `.vcd`
/// with the data trace and reads back: the VCD's dsize was 2 bits wide, and the writer
/// refused the beat ("dsize_0 = 0x6 does not fit its 2 bits", the run failing).
#[test]
fn ingress_vcd_carries_cbo_zero() {
    let dir = TempDir::new("ntrace-cbo-vcd");
    let elf = program("isa_cbo");
    let vcd = dir.join("c.vcd");
    let o = ok(hartscope()
        .arg("run")
        .arg(&elf)
        .args([
            "--isa",
            "rv64gc_zicbom_zicboz",
            "-q",
            "--ingress-data",
            "--ingress",
        ])
        .arg(&vcd));
    assert!(!o.stderr_str().contains("error"), "{}", o.stderr_str());
    let text = std::fs::read_to_string(&vcd).unwrap();
    let id = |name: &str| {
        text.lines()
            .find_map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                (w.len() == 6 && w[0] == "$var" && w[4] == name)
                    .then(|| (w[2].to_string(), w[3].to_string()))
            })
            .unwrap_or_else(|| panic!("no {name} in the VCD"))
    };
    let (width, dsize) = id("dsize_0");
    assert_eq!(width, "3");
    // A change of dsize_0 to 6 (0b110): a 64-byte cache-block access.
    assert!(
        text.lines().any(|l| l == format!("b110 {dsize}")),
        "no 64-byte data access in the VCD"
    );
    assert_eq!(id("trigger").0, "3");
}

/// Debug triggers with trace actions (`isa_trace_trig`): the ingress beats carry the
/// `trigger` sideband (2 trace-off at `off_here`, 1 trace-on at `on_here`, 4 notify at the
/// watched store and load); `ntrace dump` shows the notifies as ProgTraceSync SYNC=0x6 and
/// the restarts as SYNC=0x5 after a ProgTraceCorrelation EVCODE 4; `ntrace decode` names the
/// trace events before the instructions that caused them.
#[test]
fn trace_action_triggers_in_dump_and_decode() {
    let dir = TempDir::new("ntrace-trace-trig");
    let elf = program("isa_trace_trig");
    let ntr = dir.join("t.ntr");
    let jsonl = dir.join("t.jsonl");
    capture(
        &elf,
        &ntr,
        &[
            "--ingress",
            jsonl.to_str().unwrap(),
            "--retirement",
            "single",
        ],
    );
    let beats = lines(&jsonl);
    let pulses: Vec<u64> = beats
        .iter()
        .filter_map(|b| {
            let v: serde_json::Value = serde_json::from_str(b).unwrap();
            v.get("trigger").map(|t| t.as_u64().unwrap())
        })
        .collect();
    // Three rounds: 4 stores and 4 loads notify, trace-off, a store while off, trace-on.
    assert_eq!(pulses.len(), 3 * 11, "{pulses:?}");
    assert_eq!(&pulses[..11], &[4, 4, 4, 4, 4, 4, 4, 4, 2, 4, 1]);
    let dump = ok(hartscope().args(["ntrace", "dump"]).arg(&ntr)).stdout_str();
    let count = |s: &str| dump.lines().filter(|l| l.contains(s)).count();
    assert_eq!(count("SYNC=0x6 "), 3 * 8, "{dump}");
    assert_eq!(count("SYNC=0x5 "), 3, "{dump}");
    assert_eq!(count("EVCODE=0x4"), 3, "{dump}");
    let dis = ok(hartscope()
        .args(["ntrace", "decode", "--disasm"])
        .arg(&ntr)
        .arg("--elf")
        .arg(&elf))
    .stdout_str();
    let rows: Vec<&str> = dis.lines().collect();
    let i = rows
        .iter()
        .position(|l| l.starts_with("-- sync (SYNC 6) trace event at 0x"))
        .expect("a trace event");
    assert!(
        rows[i + 1].contains("sd"),
        "the watched store follows: {}",
        rows[i + 1]
    );
    let i = rows
        .iter()
        .position(|l| l.starts_with("-- sync (SYNC 5) at 0x"))
        .expect("trace enabled again");
    assert!(rows[i - 1].contains("trace off"), "{}", rows[i - 1]);
    assert!(rows[i + 1].contains("on_here"), "{}", rows[i + 1]);
}
