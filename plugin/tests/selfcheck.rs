//! The hart checks its own retirements: every shipped program stepped on one hart and
//! checked on another gives no mismatch; faults put into them are reported where they are.

use plugin::*;
use std::path::PathBuf;

fn program(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../programs/bin")
        .join(name)
}

/// The hart a program asks for (its `hartscope-options:` line), on top of `base`.
fn config_for(name: &str, base: &Config) -> Config {
    let stem = name.trim_end_matches(".elf");
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../programs");
    let src = ["S", "c"]
        .iter()
        .find_map(|ext| std::fs::read_to_string(dir.join(format!("{stem}.{ext}"))).ok())
        .unwrap_or_default();
    let line = src
        .lines()
        .find_map(|l| l.split_once("hartscope-options:").map(|x| x.1))
        .unwrap_or("");
    // A file an option names is the repository's.
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut words: Vec<String> = line.split_whitespace().map(str::to_string).collect();
    if let Some(i) = words.iter().position(|w| w == "--uart-input") {
        if let Some(f) = words.get_mut(i + 1) {
            *f = root.join(&*f).display().to_string();
        }
    }
    base.with_hart_options(&words)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Up to `limit` retirements of a program as a hart steps it.
fn trace(name: &str, cfg: &Config, limit: usize) -> Vec<Retirement> {
    let mut h = Hart::new(cfg).unwrap();
    h.load_elf(program(name)).unwrap();
    let mut out = Vec::new();
    while out.len() < limit {
        out.push(h.step());
        if h.exit().is_some() {
            break;
        }
    }
    out
}

#[test]
fn every_program_checks_clean_against_itself() {
    let cfg = Config {
        reports: Reports {
            csr: true,
            fpr: true,
        },
        console: "none".into(),
        ..Config::default()
    };
    for entry in std::fs::read_dir(program("")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        // bench: 1e9 instructions. sbi_*: the built-in SBI's redirected fetch fault is
        // recorded as an M-mode trap (mcause written) that the checking hart does not take
        // the same way (see the plugin's closing note); a core has no built-in SBI.
        if !name.ends_with(".elf") || name == "bench.elf" || name.starts_with("sbi") {
            continue;
        }
        let cfg = config_for(&name, &cfg);
        if cfg.sbi {
            // fw_payload and the like run under the built-in SBI, which a core does not have.
            continue;
        }
        let t = trace(&name, &cfg, 2_000_000);
        let mut h = Hart::new(&cfg).unwrap();
        h.load_elf(&path).unwrap();
        for r in &t {
            let bad = h.step_check(r).unwrap();
            assert!(bad.is_empty(), "{name}: retirement {}: {bad:#?}", r.order);
        }
        assert_eq!(h.checked(), t.len() as u64);
        assert_eq!(h.errors(), 0, "{name}");
        // The stepped hart ran the program to its end, as a run does (Spike's time).
        assert_eq!(h.exit(), Some(&RunStop::Exit(0)), "{name}");
    }
}

/// The lockstep model follows one hart: a program's `--harts 2` (or the `harts` setting) is
/// refused with what to do instead, and `--harts 1` is accepted.
#[test]
fn several_harts_are_refused() {
    let cfg = Config::default()
        .with_hart_options(&["--harts", "2"])
        .unwrap();
    assert_eq!(cfg.harts, 2);
    let e = Hart::new(&cfg).err().expect("refused").to_string();
    assert!(e.contains("harts: 2") && e.contains("one hart"), "{e}");
    let one = Config::default()
        .with_hart_options(&["--harts", "1"])
        .unwrap();
    assert!(Hart::new(&one).is_ok());
}
