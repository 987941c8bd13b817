//! M-mode firmware starts unchanged, as on Spike: the boot ROM at 0x1000 holds the reset
//! vector and the device tree that a1 (0x1020) points at. OpenSBI's generic `fw_jump`
//! (Debian's `opensbi` package) reads that tree, prints its banner through the UART, jumps to
//! `programs/bin/fw_payload.elf` at 0x8020_0000 in S-mode (given with `--payload`), and powers
//! off through the test finisher when the payload asks SRST for a shutdown.
//!
//! Without the `opensbi` files the OpenSBI test is skipped with a message on standard error;
//! `HARTSCOPE_REQUIRE_TOOLS=1` (CI) makes that a failure.

mod common;

use common::{assert_no_panic, fw_jump_or_skip, hartscope, program, run_with_timeout};
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(120);

/// The payload's line (programs/fw_payload.S), as OpenSBI's console writes it (`\n` as
/// `\r\n`).
const PAYLOAD_LINE: &str = "fw_payload: hello from S-mode through the SBI\r\n";

/// Boot OpenSBI's fw_jump with `fw_payload` on `harts` harts: it powers off with status 0,
/// without a panic, and the payload's line ends the output. Returns OpenSBI's and the
/// payload's output; `None` when fw_jump is missing (skipped).
fn boot_payload(test: &str, harts: u32) -> Option<String> {
    let fw = fw_jump_or_skip(test)?;
    let payload = program("fw_payload");
    let n = harts.to_string();
    let out = run_with_timeout(
        hartscope()
            .args(["run", "-q", "--harts", &n])
            .arg(&fw)
            .arg("--payload")
            .arg(&payload),
        &format!("hartscope run --harts {harts} fw_jump.elf --payload fw_payload.elf"),
        TIMEOUT,
    );
    let (stdout, stderr) = (out.stdout_str(), out.stderr_str());
    assert_no_panic(test, &stderr);
    assert_eq!(
        out.code(),
        Some(0),
        "OpenSBI did not power off cleanly\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(
        stdout.ends_with(PAYLOAD_LINE),
        "the payload's line does not end the output:\n{stdout}"
    );
    Some(stdout)
}

/// OpenSBI boots from the boot ROM's state, finds the platform in the device tree at a1,
/// starts the payload in S-mode, and powers off with status 0.
#[test]
fn opensbi_fw_jump_boots_a_payload() {
    let Some(stdout) = boot_payload("opensbi_fw_jump_boots_a_payload", 1) else {
        return;
    };
    // The banner, and the platform it read from our device tree.
    assert!(stdout.contains("OpenSBI v"), "no OpenSBI banner:\n{stdout}");
    for line in [
        "Platform Name             : hartscope",
        "Platform Console Device   : uart8250",
        "Platform Shutdown Device  : sifive_test",
        "Domain0 Next Address      : 0x0000000080200000",
        "Domain0 Next Mode         : S-mode",
    ] {
        assert!(stdout.contains(line), "no `{line}` in:\n{stdout}");
    }
}

/// With four harts (`--harts 4`) OpenSBI finds them all in the device tree (four cpus, the
/// CLINT's and the PLIC's `interrupts-extended` listing each), hart 0 boots the payload while
/// the others wait in OpenSBI's own HSM loop (woken by nothing), and the machine powers off
/// with status 0 when the payload asks.
#[test]
fn opensbi_fw_jump_with_four_harts() {
    let Some(stdout) = boot_payload("opensbi_fw_jump_with_four_harts", 4) else {
        return;
    };
    for line in [
        "Platform HART Count       : 4",
        "Domain0 HARTs             : 0*,1*,2*,3*",
        "Boot HART ID              : 0",
    ] {
        assert!(stdout.contains(line), "no `{line}` in:\n{stdout}");
    }
}

/// A payload segment over one of the firmware's is refused before anything runs, naming
/// both files and both ranges.
#[test]
fn payload_overlapping_the_program_is_refused() {
    let hello = program("hello");
    let out = run_with_timeout(
        hartscope()
            .args(["run", "-q"])
            .arg(&hello)
            .arg("--payload")
            .arg(&hello),
        "hartscope run hello.elf --payload hello.elf",
        TIMEOUT,
    );
    let stderr = out.stderr_str();
    assert_eq!(out.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--payload ")
            && stderr.contains("hello.elf: segment 1 at 0x80000000..")
            && stderr.contains("overlaps segment 0 of"),
        "{stderr}"
    );
    assert_eq!(out.stdout_str(), "", "nothing ran");
}

/// A payload that is not an ELF, or missing, is a host-side error naming it.
#[test]
fn bad_payloads_are_errors() {
    let tmp = common::TempDir::new("bad_payload");
    let junk = tmp.write("junk.bin", b"not an elf at all");
    let hello = program("hello");
    for (payload, want) in [
        (junk.clone(), "junk.bin"),
        (tmp.join("missing.elf"), "missing.elf"),
    ] {
        let out = run_with_timeout(
            hartscope()
                .args(["run", "-q"])
                .arg(&hello)
                .arg("--payload")
                .arg(&payload),
            "hartscope run --payload BAD",
            TIMEOUT,
        );
        let stderr = out.stderr_str();
        assert_no_panic("bad payload", &stderr);
        assert_eq!(out.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("--payload") && stderr.contains(want),
            "{stderr}"
        );
    }
    // The built-in SBI runs the S-mode program itself.
    let out = run_with_timeout(
        hartscope()
            .args(["run", "-q", "--sbi", "builtin"])
            .arg(&hello)
            .arg("--payload")
            .arg(program("fw_payload")),
        "hartscope run --sbi builtin --payload",
        TIMEOUT,
    );
    assert_eq!(out.code(), Some(2));
    assert!(
        out.stderr_str().contains("--payload"),
        "{}",
        out.stderr_str()
    );
}
