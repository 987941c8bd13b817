//! The hart checks its own retirements: every shipped program stepped on one hart and
//! checked on another gives no mismatch; faults put into them are reported where they are.

use plugin::*;
use std::path::PathBuf;

fn program(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../programs/bin")
        .join(name)
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
        nondet: "htif".into(),
        console: "none".into(),
        ..Config::default()
    };
    for entry in std::fs::read_dir(program("")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if !name.ends_with(".elf") || name.starts_with("sbi") || name == "bench.elf" {
            continue;
        }
        let t = trace(&name, &cfg, 200_000);
        let mut h = Hart::new(&cfg).unwrap();
        h.load_elf(&path).unwrap();
        for r in &t {
            let bad = h.step_check(r).unwrap();
            assert!(bad.is_empty(), "{name}: retirement {}: {bad:#?}", r.order);
        }
        assert_eq!(h.checked(), t.len() as u64);
        assert_eq!(h.errors(), 0, "{name}");
    }
}
