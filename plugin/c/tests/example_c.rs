//! The C example (`examples/c`) builds against the static library with the system's C
//! compiler and checks a program clean, and reports a fault put into it.
//!
//! Needs a C compiler (`cc`, or `$CC`): without one the test is skipped with a message,
//! unless `HARTSCOPE_REQUIRE_TOOLS=1` (CI), where it fails.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn have(tool: &str) -> bool {
    Command::new(tool).arg("--version").output().is_ok()
}

/// The static library, built now (cargo test builds only the rlib for the tests).
fn static_lib() -> PathBuf {
    let out = Command::new(env!("CARGO"))
        .args([
            "build",
            "-p",
            "hartscope-c",
            "--lib",
            "--message-format=json",
        ])
        .current_dir(root())
        .output()
        .expect("run cargo");
    assert!(
        out.status.success(),
        "cargo build -p hartscope-c: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-artifact")
        .flat_map(|m| {
            m["filenames"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .filter_map(|f| f.as_str().map(PathBuf::from))
        })
        .find(|f| f.extension().is_some_and(|e| e == "a"))
        .expect("cargo built no libhartscope.a")
}

/// The system libraries the Makefile links (one list for both).
fn makefile_libs(dir: &Path) -> Vec<String> {
    let mk = std::fs::read_to_string(dir.join("Makefile")).expect("examples/c/Makefile");
    mk.lines()
        .find_map(|l| l.strip_prefix("LIBS ?="))
        .expect("LIBS in the Makefile")
        .split_whitespace()
        .map(String::from)
        .collect()
}

#[test]
fn the_c_example_checks_hello_clean_and_reports_a_fault() {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    if !have(&cc) {
        let msg = format!("the C example needs a C compiler ({cc}): none found");
        if std::env::var("HARTSCOPE_REQUIRE_TOOLS").is_ok_and(|v| v == "1") {
            panic!("{msg} (HARTSCOPE_REQUIRE_TOOLS=1)");
        }
        eprintln!("skipped: {msg}");
        return;
    }
    let dir = root().join("examples/c");
    let lib = static_lib();
    let tmp = std::env::temp_dir().join(format!("hs-c-example-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let exe = tmp.join("lockstep");
    let out = Command::new(&cc)
        .args(["-O2", "-Wall", "-Wextra", "-Werror", "-std=c11", "-I"])
        .arg(root().join("plugin/c/include"))
        .arg("-o")
        .arg(&exe)
        .arg(dir.join("lockstep.c"))
        .arg(&lib)
        .args(makefile_libs(&dir))
        .output()
        .expect("run the C compiler");
    assert!(
        out.status.success(),
        "{cc} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let hello = root().join("programs/bin/hello.elf");

    let out = Command::new(&exe).arg(&hello).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("Hello from hartscope!"), "{text}");
    assert!(
        text.contains("retirements checked, 0 mismatching; the program exited with 0"),
        "{text}"
    );

    let out = Command::new(&exe)
        .args(["--fault", "100"])
        .arg(&hello)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let fault = text
        .lines()
        .find(|l| l.starts_with("lockstep: fault put into retirement"))
        .unwrap_or_else(|| panic!("no fault line: {text}"));
    let order: u64 = fault
        .split_whitespace()
        .nth(5)
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("{fault}"));
    assert!(order >= 100, "{fault}");
    assert!(
        text.contains(&format!(
            "mismatch at retirement {order}, instruction at pc 0x"
        )),
        "{text}"
    );
    assert!(text.contains("expected 0x"), "{text}");
    assert!(text.contains("1 mismatching"), "{text}");

    let out = Command::new(&exe)
        .arg(tmp.join("missing.elf"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("hs_load_elf: ") && err.contains("missing.elf"),
        "{err}"
    );
    std::fs::remove_dir_all(&tmp).unwrap();
}
