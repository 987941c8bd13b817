//! `--isa` means what it says: a string hartscope cannot honour is refused before anything runs.

mod common;

use common::{hartscope, program};

/// `--isa rv64i` used to run rv64m.elf as RV64GC and exit 0; it is refused, naming what the
/// hart cannot leave out.
#[test]
fn a_subset_of_rv64gc_is_refused() {
    let out = hartscope()
        .args(["run", "--isa", "rv64i"])
        .arg(program("rv64m"))
        .output()
        .expect("hartscope runs");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--isa rv64i: hartscope cannot leave out m, a, f, d, c"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "nothing ran: {out:?}");
}
