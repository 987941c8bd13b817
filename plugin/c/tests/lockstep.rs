//! Through the C ABI, every shipped program stepped on one handle and checked on another
//! gives no mismatch: as `hs_retirement`s (`hs_step` into `hs_step_check`) and as RVFI
//! (`hs_step_rvfi` into `hs_step_check_rvfi`, the SystemVerilog monitor's path).

mod common;
use common::*;

const LIMIT: usize = 2_000_000;

/// Each program's first failure, so that one run shows every program that fails.
fn each_program(f: impl Fn(&str) -> Result<(), String>) {
    let mut failed = Vec::new();
    for name in programs() {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(&name)));
        match r {
            Ok(Ok(())) => {}
            Ok(Err(e)) => failed.push(e),
            Err(p) => failed.push(format!(
                "{name}: {}",
                p.downcast_ref::<String>().cloned().unwrap_or_default()
            )),
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn every_program_checks_clean_as_retirements() {
    each_program(|name| {
        let stepper = H::load(&settings(name), name);
        let checker = H::load(&settings(name), name);
        let t = stepper.trace(LIMIT);
        assert!(t.len() > 10, "{name}: {} steps", t.len());
        for r in &t {
            let n = checker.check(r);
            if n != 0 {
                return Err(format!(
                    "{name}: retirement {}: {}{}",
                    r.order,
                    checker.mismatches_text(),
                    last_error()
                ));
            }
        }
        assert_eq!(checker.checked(), t.len() as u64, "{name}");
        assert_eq!(checker.errors(), 0, "{name}");
        assert_eq!(checker.mismatches_text(), "");
        assert_eq!(checker.mismatches_json(), serde_json::json!([]));
        Ok(())
    });
}

#[test]
fn every_program_checks_clean_as_rvfi() {
    each_program(|name| {
        let stepper = H::load(&settings(name), name);
        let checker = H::load(&settings(name), name);
        let mut n = 0;
        let mut intr = 0;
        while n < LIMIT && !stepper.exited() {
            let r = stepper.step_rvfi();
            assert_eq!(r.valid, 1);
            intr += r.intr as u64;
            let bad = checker.check_rvfi(&r);
            if bad != 0 {
                return Err(format!(
                    "{name}: RVFI retirement {n} (order {}): {}{}",
                    r.order,
                    checker.mismatches_text(),
                    last_error()
                ));
            }
            n += 1;
        }
        assert!(n > 10, "{name}: {n} retirements");
        assert_eq!(checker.errors(), 0, "{name}");
        if name == "interrupts.elf" {
            assert!(intr > 0, "{name}: no interrupt seen");
        }
        Ok(())
    });
}
