//! Every guest program in `programs/bin/` runs to a clean exit under `hartscope run -q`.
//!
//! The programs are self-checking: they exit 0 through HTIF (or, for `finisher`, the SiFive test
//! finisher) only if all their checks pass, and otherwise with the number of the first failed
//! check. Programs that print something must print exactly the expected text.

mod common;

use common::{assert_every_program_has_a_case, assert_no_panic, hartscope, program_name};
use rstest::rstest;
use std::path::PathBuf;
use std::time::Duration;

/// Every program must finish within this time.
///
/// `bench` (about 1.0e9 instructions) is run in full in every build: even in the dev profile the
/// simulator core (the `iss` crate) is compiled with `opt-level = 2` (see the root Cargo.toml), so
/// the debug binary runs it in about 4.5 s (about 3 s in release). If that optimisation were
/// dropped, this test would report the timeout for `bench`.
const TIMEOUT: Duration = Duration::from_secs(60);

/// What a program must print on standard output (all of it), if anything.
fn expected_stdout(name: &str) -> Option<&'static str> {
    Some(match name {
        "hello" => "Hello from hartscope!\n",
        "htif_write" => "Hello from hartscope through HTIF!\n",
        "cprog" => concat!(
            "cprog: printf through HTIF, 2 + 3 = 5\n",
            "cprog: printf through the UART\n",
            "cprog: all checks passed\n",
        ),
        "finisher" => "finisher: writing 0x5555 to the test finisher\n",
        // programs/uart_irq.in echoed, one interrupt per byte.
        "uart_irq" => "hartscope\nuart_irq: 10 bytes, each by an interrupt\n",
        "uart_irq_s" => "hartscope\nuart_irq_s: 10 bytes, each by an interrupt\n",
        "fw_payload" => "fw_payload: hello from S-mode through the SBI\n",
        _ => return None,
    })
}

#[rstest]
fn program_exits_0(#[files("programs/bin/*.elf")] program: PathBuf) {
    let name = program_name(&program);
    let opts = common::program_options(&name);
    let out = common::run_with_timeout(
        hartscope().arg("run").arg("-q").args(&opts).arg(&program),
        &format!("hartscope run -q {} {}", opts.join(" "), program.display()),
        TIMEOUT,
    );
    let (stdout, stderr) = (out.stdout_str(), out.stderr_str());
    assert_no_panic(&name, &stderr);
    assert_eq!(
        out.code(),
        Some(0),
        "{name}: `hartscope run -q {} {}` exited with {} (a self-checking program exits with \
         the number of its first failed check)\nstdout:\n{stdout}\nstderr:\n{stderr}",
        opts.join(" "),
        program.display(),
        out.status,
    );
    assert_eq!(stderr, "", "{name}: -q run printed on stderr");
    match (name.as_str(), expected_stdout(&name)) {
        (_, Some(expected)) => assert_eq!(stdout, expected, "{name}: wrong output"),
        // The benchmark prints its checksum and instruction count, then verdict "bench: OK".
        ("bench", None) => assert!(
            stdout.lines().any(|l| l.starts_with("bench: iterations"))
                && stdout.ends_with("bench: OK\n"),
            "bench: output does not end with `bench: OK`:\n{stdout}"
        ),
        (_, None) => assert!(
            !stdout.contains("FAIL"),
            "{name}: reports a failure:\n{stdout}"
        ),
    }
    eprintln!("{name}: exit 0 in {:.2?}", out.elapsed);
}

/// A program added to `programs/bin/` after this test binary was compiled has no
/// `program_exits_0` case: fail instead of silently not running it.
#[test]
fn every_program_has_a_test_case() {
    assert_every_program_has_a_case("program_exits_0", &[]);
}

/// The programs named in this file exist (so a rename does not silently drop a check).
#[test]
fn programs_with_expected_output_exist() {
    for name in [
        "hello",
        "htif_write",
        "cprog",
        "finisher",
        "bench",
        "uart_irq",
        "uart_irq_s",
        "fw_payload",
    ] {
        common::program(name);
    }
}
