//! Property tests of `hartscope run` as a user can drive it: damaged ELF files, random guest
//! code, and nonsense values for every option. The process must never panic (exit 101) or die
//! of a signal; it ends with one of the documented statuses (README: the guest's code, 2 for
//! a host-side error, 124 the instruction limit, 125 a stuck guest, 126 a reset request), and a
//! status 2 comes with a message naming what was wrong (the file, the option).
//!
//! Each case is a process, so the default case counts are small (a few seconds per test);
//! `HARTSCOPE_FUZZ_CASES=N` for long runs. The loader and the hart themselves are fuzzed in
//! process, with many more cases, by `iss/tests/fuzz.rs`.

mod common;

use common::{
    assert_no_panic, fuzz_cases, hartscope, minimal_elf, program, run_with_timeout, TempDir,
};
use proptest::prelude::*;
use proptest::sample::Index;
use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(120);

/// Run `hartscope run ARGS` in `dir`; require a documented ending. Returns (status, stderr).
fn run_in(dir: &Path, args: &[OsString]) -> (i32, String) {
    let what = format!("hartscope run {args:?}");
    let o = run_with_timeout(
        hartscope().current_dir(dir).arg("run").args(args),
        &what,
        TIMEOUT,
    );
    let err = o.stderr_str();
    assert_no_panic(&what, &err);
    let code = o
        .code()
        .unwrap_or_else(|| panic!("{what}: killed by a signal ({}):\n{err}", o.status));
    (code, err)
}

/// The shipped programs.
fn shipped() -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = common::programs_on_disk()
        .iter()
        .map(|n| program(n))
        .collect();
    v.sort();
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(fuzz_cases(32)))]

    /// Damaged copies of the shipped programs (bytes changed, words of the headers set to edge
    /// values, truncated): status 2 naming the file, or a documented end of the run.
    #[test]
    fn damaged_programs(
        which in any::<Index>(),
        bytes in prop::collection::vec((any::<Index>(), any::<u8>()), 0..6),
        words in prop::collection::vec((any::<Index>(), prop::sample::select(vec![0u64, 1, 0x8000_0000, u64::MAX, 1 << 63, 0xffff_ffff])), 0..3),
        cut in prop::option::of(any::<Index>()),
    ) {
        let tmp = TempDir::new("damaged");
        let progs = shipped();
        let mut b = std::fs::read(&progs[which.index(progs.len())]).expect("read a program");
        for (i, v) in &bytes {
            let n = b.len();
            b[i.index(n)] = *v;
        }
        for (i, v) in &words {
            // The ELF header and the program headers.
            let at = 8 * i.index(0x100 / 8);
            b[at..at + 8].copy_from_slice(&v.to_le_bytes());
        }
        if let Some(c) = cut {
            let n = b.len();
            b.truncate(c.index(n + 1));
        }
        let p = tmp.write("damaged.elf", &b);
        let (code, err) = run_in(tmp.path(), &["-q".into(), "--max-insns".into(), "200000".into(), p.clone().into()]);
        if code == 2 {
            prop_assert!(err.contains(p.to_str().unwrap()), "status 2 without the file named:\n{}", err);
        }
    }

    /// Random instruction words as a program, bounded by --max-insns: a documented status.
    #[test]
    fn random_code(words in prop::collection::vec(any::<u32>(), 1..64), emulate in any::<bool>()) {
        let tmp = TempDir::new("random_code");
        let p = tmp.write("random.elf", &minimal_elf(&words));
        let mut args: Vec<OsString> = vec!["-q".into(), "--max-insns".into(), "50000".into()];
        if emulate {
            args.extend(["--misaligned".into(), "emulate".into()]);
        }
        args.push(p.into());
        let (code, err) = run_in(tmp.path(), &args);
        // The guest may exit with any code through the test finisher; the host-side statuses
        // come with their message.
        match code {
            124 => prop_assert!(err.contains("instruction limit"), "{}", err),
            125 => prop_assert!(err.contains("stuck") || err.contains("WFI") || err.contains("SBI"), "{}", err),
            126 => prop_assert!(err.contains("reset"), "{}", err),
            _ => prop_assert!(code != 2 || !err.contains("error:") || err.contains("standard output"), "{}", err),
        }
    }
}

/// How a value of an option is used.
#[derive(Clone, Copy, Debug)]
enum Kind {
    /// An option of the hart or of `run` itself: a refused value is status 2 naming it.
    Checked,
    /// An N-Trace or tandem option: only "no panic, no signal, documented status" is required
    /// here (those commands' own tests check their messages).
    Other,
}

/// Every `hartscope run` option that takes a value (`--opt=VALUE`), and how it is checked.
const OPTIONS: &[(&str, Kind)] = &[
    ("--mem", Kind::Checked),
    ("--max-insns", Kind::Checked),
    ("--log-commits", Kind::Checked),
    ("--signature", Kind::Checked),
    ("--uart-input", Kind::Checked),
    ("--misaligned", Kind::Checked),
    ("--isa", Kind::Checked),
    ("--sbi", Kind::Checked),
    ("--hpm-counters", Kind::Checked),
    ("--hpm-width", Kind::Checked),
    ("--pmu-models", Kind::Checked),
    ("--pmu-config", Kind::Checked),
    ("--pmu-report", Kind::Checked),
    ("--ctr", Kind::Checked),
    ("--ctr-config", Kind::Checked),
    ("--ctr-report", Kind::Checked),
    ("--ntrace", Kind::Other),
    ("--ingress", Kind::Other),
    ("--ntrace-config", Kind::Other),
    ("--tr-te-inst-mode", Kind::Other),
    ("--tr-te-src-bits", Kind::Other),
    ("--tr-te-src-id", Kind::Other),
    ("--tr-te-inst-sync-mode", Kind::Other),
    ("--tr-te-inst-sync-max", Kind::Other),
    ("--tr-te-inst-implicit-return-mode", Kind::Other),
    ("--implicit-return-depth", Kind::Other),
    ("--trace-fifo", Kind::Other),
    ("--trace-drain", Kind::Other),
    ("--icnt-bits", Kind::Other),
    ("--hist-bits", Kind::Other),
    ("--trace-filter", Kind::Other),
    ("--trace-privs", Kind::Other),
    ("--trace-on", Kind::Other),
    ("--trace-off", Kind::Other),
    ("--retirement", Kind::Other),
    ("--itype-width", Kind::Other),
    ("--ingress-context", Kind::Other),
    ("--ingress-ctype", Kind::Other),
    ("--tandem", Kind::Other),
    ("--tandem-style", Kind::Other),
    ("--tandem-with", Kind::Other),
    ("--tandem-omit", Kind::Other),
    ("--tandem-params", Kind::Other),
];

/// Nonsense (and some edge) values: negative, huge, garbage, missing files, devices.
fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "-1",
            "-0",
            "0",
            "1",
            "29",
            "30",
            "64",
            "65",
            "255",
            "256",
            "4095",
            "4096",
            "1G",
            "1024G",
            "1025G",
            "16E",
            "18446744073709551615",
            "18446744073709551616",
            "99999999999999999999999999",
            "0x80000000",
            "1e9",
            "NaN",
            "",
            " ",
            "-",
            "--",
            "/",
            ".",
            "/dev/zero",
            "/dev/null",
            "/nonexistent/dir/file",
            "0:0",
            "ffffffffffffffff:0",
            "M,S,U,X",
            ",,",
            "all,none",
            "rv64gc_",
            "rv32i",
            "rv64gc_smctr_sscofpmf",
            "1.0",
            "0.1.4",
            "builtin",
            "emulate",
            "trap",
        ])
        .prop_map(str::to_string),
        "[ -~]{0,24}",
        "\\PC{0,12}",
        any::<i64>().prop_map(|v| v.to_string()),
        any::<u128>().prop_map(|v| v.to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(fuzz_cases(64)))]

    /// Random values for random options (one to three at a time) on a real program: never a
    /// panic or a signal; a status 2 names one of the options given (the run/hart options).
    #[test]
    fn option_values(opts in prop::collection::vec((0..OPTIONS.len(), value()), 1..4)) {
        let tmp = TempDir::new("options");
        let hello = program("hello");
        let mut args: Vec<OsString> = vec!["-q".into()];
        if !opts.iter().any(|(o, _)| OPTIONS[*o].0 == "--max-insns") {
            args.extend(["--max-insns".into(), "200000".into()]);
        }
        for (o, v) in &opts {
            args.push(format!("{}={v}", OPTIONS[*o].0).into());
        }
        args.push(hello.into());
        let (code, err) = run_in(tmp.path(), &args);
        prop_assert!(
            matches!(code, 0 | 2 | 124 | 125),
            "status {} for {:?}:\n{}", code, args, err
        );
        let all_checked = opts.iter().all(|(o, _)| matches!(OPTIONS[*o].1, Kind::Checked));
        if code == 2 && all_checked {
            let named = opts.iter().any(|(o, _)| err.contains(OPTIONS[*o].0));
            prop_assert!(named, "status 2 naming none of the options {:?}:\n{}", args, err);
        }
    }
}

/// Values that are wrong for each run/hart option: status 2 and the option named.
#[test]
fn refused_values_name_the_option() {
    let tmp = TempDir::new("refused");
    let hello = program("hello");
    let dir = tmp.path();
    let cases: &[(&str, &[&str])] = &[
        (
            "--mem",
            &[
                "-1",
                "0",
                "5000",
                "2048G",
                "1T",
                "18446744073709551616",
                "x",
                "",
            ],
        ),
        ("--max-insns", &["-1", "18446744073709551616", "ten", ""]),
        ("--log-commits", &["", "/nonexistent/dir/log", "/"]),
        ("--signature", &["/nonexistent/dir/sig", ""]),
        ("--uart-input", &["", "/nonexistent/in"]),
        ("--misaligned", &["", "maybe", "-1"]),
        (
            "--isa",
            &["", "rv32i", "rv64gcv", "rv64gc_", "rv64gc_smcsrind"],
        ),
        ("--sbi", &["", "opensbi"]),
        ("--hpm-counters", &["-1", "30", "256", "x"]),
        ("--hpm-width", &["-1", "0", "65", "256"]),
        ("--pmu-models", &["", ",", "l3"]),
        (
            "--pmu-config",
            &["", "/nonexistent/p.toml", "/dev/zero", "/"],
        ),
        ("--pmu-report", &["", "/nonexistent/dir/r.json"]),
        ("--ctr", &["", "2.0", "-1"]),
        (
            "--ctr-config",
            &["", "/nonexistent/c.toml", "/dev/zero", "/"],
        ),
        ("--ctr-report", &["/nonexistent/dir/r.json"]),
    ];
    for (opt, values) in cases {
        for v in *values {
            let mut args: Vec<OsString> = vec!["-q".into(), format!("{opt}={v}").into()];
            if *opt == "--ctr-report" || *opt == "--pmu-report" {
                args.extend(["--ctr".into(), "1.0".into()]);
            }
            args.push(hello.clone().into());
            let (code, err) = run_in(dir, &args);
            assert_eq!(code, 2, "{opt}={v}: status {code}:\n{err}");
            assert!(
                err.contains(opt),
                "{opt}={v}: the message does not name {opt}:\n{err}"
            );
        }
    }
}
