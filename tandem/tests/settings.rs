//! The settings file beside a trace (the sidecar) as input: every size and field checked,
//! errors naming the file, the field and the problem in words; reads capped; the writer and
//! the verifier agreeing on the parameters; huge RAM sizes refused cleanly, never aborting.
//! Property tests feed the loader arbitrary JSON, mutated real settings and arbitrary bytes.

mod common;

use common::*;
use iss::files::SETTINGS_CAP;
use proptest::prelude::*;
use serde_json::{json, Value};
use std::path::Path;
use tandem::config::WriterConfig;
use tandem::limits::MAX_RAM_SIZE;
use tandem::params::Params;
use tandem::sidecar::{HartInfo, Sidecar, SidecarError, FORMAT};
use tandem::verify::{Verifier, VerifyConfig};

const FILE: &str = "dir/x.trace.json";

/// What `hartscope run --tandem` writes.
fn real() -> Sidecar {
    Sidecar {
        format: FORMAT.into(),
        writer: WriterConfig::everything(),
        hart: HartInfo {
            ram_size: 256 << 20,
            misaligned: "trap".into(),
            machine: Some(json!({
                "sscofpmf": true,
                "pmu": serde_json::to_value(iss::Config::default().pmu).unwrap(),
                "ctr": null,
                "sbi": false,
            })),
        },
        program: Some("/p/cprog.elf".into()),
        entry: 0x8000_0000,
    }
}

fn real_json() -> Value {
    serde_json::to_value(real()).unwrap()
}

fn parse(v: &Value) -> Result<Sidecar, SidecarError> {
    Sidecar::parse(v.to_string().as_bytes(), Path::new(FILE))
}

/// The field error of `v`: (field, problem).
fn field_error(v: &Value) -> (String, String) {
    match parse(v) {
        Err(SidecarError::Field {
            file,
            field,
            problem,
        }) => {
            assert_eq!(file, Path::new(FILE));
            let shown = format!("{}", parse(v).unwrap_err());
            assert_eq!(shown, format!("{FILE}: {field}: {problem}"));
            (field, problem)
        }
        other => panic!("expected a field error, got {other:?}"),
    }
}

fn with(path: &[&str], value: Value) -> Value {
    let mut v = real_json();
    let mut at = &mut v;
    for k in &path[..path.len() - 1] {
        at = &mut at[*k];
    }
    at[path[path.len() - 1]] = value;
    v
}

#[test]
fn written_settings_read_back() {
    assert_eq!(parse(&real_json()).unwrap(), real());
}

/// Finding 1: `"ram_size": 18446744073709551615` panicked the verifier (capacity overflow).
#[test]
fn ram_sizes_out_of_range_are_named() {
    for (bad, says) in [
        (json!(u64::MAX), "more than the limit of 1 TiB"),
        (json!(MAX_RAM_SIZE + 4096), "more than the limit of 1 TiB"),
        (json!(0), "not a non-zero multiple of 4 KiB"),
        (json!(4097), "not a non-zero multiple of 4 KiB"),
        (json!(-4096), "expected a whole number"),
        (json!(1e99), "expected a whole number"),
        (json!("256M"), "expected a whole number"),
    ] {
        let (field, problem) = field_error(&with(&["hart", "ram_size"], bad.clone()));
        assert_eq!(field, "hart.ram_size", "{bad}");
        assert!(problem.contains(says), "{bad}: {problem}");
    }
    let mut v = real_json();
    v["hart"].as_object_mut().unwrap().remove("ram_size");
    assert_eq!(field_error(&v), ("hart.ram_size".into(), "missing".into()));
}

/// Finding 1: 32 GiB aborted the process (allocation failure). A size within the rules is
/// read; the reference hart either gets it or says the host refused it.
#[test]
fn huge_valid_ram_sizes_never_abort_the_verifier() {
    for size in [32u64 << 30, MAX_RAM_SIZE] {
        let s = parse(&with(&["hart", "ram_size"], json!(size))).unwrap();
        assert_eq!(s.hart.ram_size, size);
        let cfg = VerifyConfig {
            ram_size: size,
            ..Default::default()
        };
        match Verifier::new(cfg, None) {
            Ok(_) => {}
            Err(e) => assert!(e.to_string().contains("cannot reserve"), "{e}"),
        }
    }
    // Sizes a library caller gives are checked as well.
    for size in [0, 4097, u64::MAX] {
        let cfg = VerifyConfig {
            ram_size: size,
            ..Default::default()
        };
        let e = Verifier::new(cfg, None).err().expect("refused");
        assert!(e.to_string().starts_with("RAM size"), "{e}");
        let hart = tandem::session::HartConfig {
            ram_size: size,
            ..Default::default()
        };
        let e = tandem::session::machine(&program("hello"), "hello", hart).err();
        assert!(e.expect("refused").to_string().starts_with("RAM size"));
    }
}

/// Finding 5: messages said what serde_json said ("invalid type: ..., expected u64 at line
/// 35 column 20"), without the field.
#[test]
fn bad_fields_are_named_in_words() {
    let cases: Vec<(Value, &str, &str)> = vec![
        (
            with(&["format"], json!("other")),
            "format",
            "expected \"bluespec-tandem-trace",
        ),
        (
            with(&["writer", "style"], json!(3)),
            "writer.style",
            "expected one of flute, spec, flute-strict, got the number 3",
        ),
        (
            with(&["writer", "style"], json!("flute-loose")),
            "writer.style",
            "expected one of flute, spec, flute-strict, got the string \"flute-loose\"",
        ),
        (
            with(&["writer", "pc"], json!("sideways")),
            "writer.pc",
            "expected one of full, increment, got the string \"sideways\"",
        ),
        (
            with(&["writer", "image"], json!("yes")),
            "writer.image",
            "expected true or false",
        ),
        (
            with(&["writer", "params", "xlen"], json!(300)),
            "writer.params.xlen",
            "expected a number of bits",
        ),
        (
            with(&["writer", "params", "mlen"], json!(70)),
            "writer.params",
            "MLEN must be between 32 and 64",
        ),
        (
            with(&["writer", "omit", "csrs"], json!([0x343, 5000])),
            "writer.omit.csrs[1]",
            "expected a CSR number 0..=4095, got the number 5000",
        ),
        (
            with(&["hart", "misaligned"], json!("maybe")),
            "hart.misaligned",
            "expected one of trap, emulate",
        ),
        (
            with(&["hart", "machine", "sbi"], json!(1)),
            "hart.machine.sbi",
            "expected true or false",
        ),
        (
            with(
                &["hart", "machine", "pmu", "caches"],
                json!({"l1i": {"size": 32768u64, "ways": 4, "line": "long"}}),
            ),
            "hart.machine.pmu.caches.l1i.line",
            "invalid type: string \"long\", expected u32",
        ),
        (
            with(&["hart", "machine", "pmu"], json!({"hpm_counters": "many"})),
            "hart.machine.pmu.hpm_counters",
            "invalid type: string \"many\", expected u8",
        ),
        (
            with(
                &["hart", "machine", "pmu", "caches"],
                json!({"l1i": {"size": 32768u64, "ways": 4, "line": 64},
                       "l1d": {"size": 1u64 << 62, "ways": 4, "line": 64}}),
            ),
            "hart.machine.pmu",
            "l1d: 4611686018427387904 bytes of 64-byte lines is more than 16777216 lines",
        ),
        (
            with(&["entry"], json!(-1)),
            "entry",
            "expected a whole number",
        ),
        (with(&["program"], json!(7)), "program", "expected a string"),
        (
            with(&["hart"], json!([])),
            "hart",
            "expected an object, got an array of 0 elements",
        ),
        (json!(5), "(top level)", "expected an object"),
    ];
    for (v, field, says) in cases {
        let (f, problem) = field_error(&v);
        assert_eq!(f, field);
        assert!(problem.contains(says), "{field}: {problem}");
    }
    // Not JSON: the position, and the problem without the parser's own position text.
    let e = Sidecar::parse(b"{\n  \"format\": ,\n}", Path::new(FILE)).unwrap_err();
    let shown = e.to_string();
    assert!(
        shown.starts_with(&format!(
            "{FILE}: not a tandem settings file: not JSON at line 2, column"
        )),
        "{shown}"
    );
    assert!(!shown.contains(" at line 2 column"), "{shown}");
    let e = Sidecar::parse(b"{\"format\": \"bl", Path::new(FILE)).unwrap_err();
    assert!(e.to_string().ends_with("the text ends early"), "{e}");
}

/// Finding 7: the settings file was read whole, whatever its size.
#[test]
fn settings_reads_are_capped() {
    let e = Sidecar::load(Path::new("/dev/zero")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "/dev/zero: larger than the 1 MiB a settings file may hold"
    );
    let dir = std::env::temp_dir().join(format!("hartscope-settings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let big = dir.join("big.json");
    let mut text = real_json().to_string();
    text.push_str(&" ".repeat(SETTINGS_CAP as usize));
    std::fs::write(&big, &text).unwrap();
    assert!(Sidecar::load(&big)
        .unwrap_err()
        .to_string()
        .contains("1 MiB"));
    // Exactly the cap is fine.
    text.truncate(SETTINGS_CAP as usize);
    std::fs::write(&big, &text).unwrap();
    assert_eq!(Sidecar::load(&big).unwrap(), real());
    // A directory is said to be one; no file beside the trace is no settings.
    let e = Sidecar::load(&dir).unwrap_err();
    assert!(
        e.to_string()
            .ends_with("is a directory, not a settings file"),
        "{e}"
    );
    assert!(Sidecar::read(&dir.join("none.trace")).unwrap().is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Finding 2: the writer wrote streams with XLEN or FLEN 32 or MLEN below 57, which its
/// verifier refused (XLEN) or mis-verified. Both now take exactly `Params::check_hart`.
#[test]
fn the_writer_and_the_verifier_accept_the_same_params() {
    let elf = program("rv64d");
    for x in [32u8, 64] {
        for f in [32u8, 64] {
            for m in 32u8..=64 {
                let p = Params::new(x, f, m).unwrap();
                let cfg = WriterConfig {
                    params: p,
                    ..WriterConfig::flute()
                };
                let wrote = tandem::session::record(
                    &elf,
                    "rv64d",
                    Default::default(),
                    &cfg,
                    Some(10),
                    Vec::new(),
                );
                let verifies = Verifier::new(
                    VerifyConfig {
                        params: p,
                        ..Default::default()
                    },
                    Some((&elf, "rv64d")),
                );
                assert_eq!(wrote.is_ok(), verifies.is_ok(), "{p:?}");
                assert_eq!(wrote.is_ok(), p.check_hart().is_ok(), "{p:?}");
                if let Err(e) = wrote {
                    assert!(e.to_string().contains("must be"), "{p:?}: {e}");
                }
            }
        }
    }
}

/// Finding 2: every value accepted is verified as matching, on programs whose FP registers
/// (rv64d) and high virtual addresses (sv39) a narrower field would cut.
#[test]
fn every_accepted_params_value_verifies_as_matching() {
    for name in ["rv64d", "sv39"] {
        let elf = program(name);
        for p in Params::hart_values() {
            let cfg = WriterConfig {
                params: p,
                ..WriterConfig::everything()
            };
            let b = stream(name, &elf, &cfg, None);
            let r = check(name, &elf, &b, &cfg);
            assert_eq!(r.exit_code(), 0, "{name} {p:?}:\n{}", show(&r));
        }
    }
}

/// Arbitrary JSON, with keys and values biased towards the settings' own.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<u64>().prop_map(|n| json!(n)),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_filter("JSON numbers are finite", |f| f.is_finite())
            .prop_map(|f| json!(f)),
        prop_oneof![
            Just(0u64),
            Just(4096),
            Just(256 << 20),
            Just(MAX_RAM_SIZE),
            Just(u64::MAX)
        ]
        .prop_map(|n| json!(n)),
        ".{0,12}".prop_map(Value::String),
        proptest::sample::select(vec![
            "flute",
            "spec",
            "trap",
            "emulate",
            "full",
            "increment",
            FORMAT
        ])
        .prop_map(|s| json!(s)),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::vec((key(), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        proptest::sample::select(vec![
            "format",
            "writer",
            "hart",
            "program",
            "entry",
            "params",
            "xlen",
            "flen",
            "mlen",
            "style",
            "pc",
            "omit",
            "csrs",
            "ram_size",
            "misaligned",
            "machine",
            "pmu",
            "ctr",
            "sbi",
            "sscofpmf",
            "image",
        ])
        .prop_map(String::from),
        "[a-z_]{0,8}",
    ]
}

/// What every loader result must be: settings within the rules, or an error naming the file.
fn check_loaded(r: Result<Sidecar, SidecarError>) {
    match r {
        Ok(s) => {
            s.writer.params.check().unwrap();
            tandem::limits::check_ram_size(s.hart.ram_size).unwrap();
            assert!(["trap", "emulate"].contains(&s.hart.misaligned.as_str()));
            assert!(s.writer.omit.csrs.iter().all(|c| *c < 0x1000));
        }
        Err(e) => {
            let shown = e.to_string();
            assert!(shown.starts_with(&format!("{FILE}: ")), "{shown}");
            if let SidecarError::Field { field, .. } = &e {
                assert!(!field.is_empty());
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(fuzz_cases(256)))]

    #[test]
    fn arbitrary_json_is_loaded_or_refused_cleanly(v in json_value()) {
        check_loaded(parse(&v));
    }

    /// Real settings with fields replaced by arbitrary values, or removed.
    #[test]
    fn mutated_settings_are_loaded_or_refused_cleanly(
        changes in proptest::collection::vec(
            (proptest::sample::select(vec!["", "writer", "writer.params", "writer.omit", "hart", "hart.machine"]),
             key(),
             proptest::option::of(json_value())),
            1..4,
        ),
    ) {
        let mut v = real_json();
        for (obj, k, new) in changes {
            let mut at = Some(&mut v);
            for p in obj.split('.').filter(|p| !p.is_empty()) {
                at = at.and_then(|a| a.get_mut(p));
            }
            if let Some(Value::Object(m)) = at {
                match new {
                    Some(n) => { m.insert(k, n); }
                    None => { m.remove(&k); }
                }
            }
        }
        check_loaded(parse(&v));
    }

    #[test]
    fn arbitrary_bytes_are_refused_cleanly(b in proptest::collection::vec(any::<u8>(), 0..300)) {
        check_loaded(Sidecar::parse(&b, Path::new(FILE)));
    }
}
