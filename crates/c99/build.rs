//! Sizes the C99 `<stdint.h>` types with the target's C compiler and writes them as Rust
//! type aliases to `$OUT_DIR/types.rs`.
//!
//! crates.io's `c99` (which `softfloat-sys` uses for `uint_fast8_t` and friends) does the same
//! through CMake, so building hartscope needed CMake. This crate replaces it through
//! `[patch.crates-io]` and needs only the C compiler that SoftFloat's own build uses anyway.
//! The types are measured, not assumed: `uint_fast32_t` is 64 bits with glibc on x86_64 and
//! 32 bits with musl, and an FFI signature that guesses wrong corrupts arguments silently.

use std::env;
use std::fs;
use std::path::PathBuf;
use std::process::Command;

const TYPES: &[(&str, char)] = &[
    ("int_fast8_t", 'i'),
    ("int_fast16_t", 'i'),
    ("int_fast32_t", 'i'),
    ("int_fast64_t", 'i'),
    ("int_least8_t", 'i'),
    ("int_least16_t", 'i'),
    ("int_least32_t", 'i'),
    ("int_least64_t", 'i'),
    ("intmax_t", 'i'),
    ("intptr_t", 'i'),
    ("uint_fast8_t", 'u'),
    ("uint_fast16_t", 'u'),
    ("uint_fast32_t", 'u'),
    ("uint_fast64_t", 'u'),
    ("uint_least8_t", 'u'),
    ("uint_least16_t", 'u'),
    ("uint_least32_t", 'u'),
    ("uint_least64_t", 'u'),
    ("uintmax_t", 'u'),
    ("uintptr_t", 'u'),
];

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let mut c = String::from(
        "#include <stdio.h>\n#include <stdint.h>\n#include <limits.h>\nint main(void) {\n",
    );
    for (name, sign) in TYPES {
        c.push_str(&format!(
            "  printf(\"pub type {name} = {sign}%u;\\n\", (unsigned)(sizeof({name}) * CHAR_BIT));\n"
        ));
    }
    c.push_str("  return 0;\n}\n");
    let src = out.join("c99_sizes.c");
    let exe = out.join("c99_sizes");
    fs::write(&src, c).expect("write c99_sizes.c");

    let compiler = cc::Build::new().cargo_metadata(false).get_compiler();
    let status = compiler
        .to_command()
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .status()
        .unwrap_or_else(|e| panic!("cannot run the C compiler {:?}: {e}", compiler.path()));
    assert!(
        status.success(),
        "the C compiler failed on {}",
        src.display()
    );
    let output = Command::new(&exe)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", exe.display()));
    assert!(output.status.success(), "{} failed", exe.display());
    fs::write(out.join("types.rs"), output.stdout).expect("write types.rs");
    println!("cargo:rerun-if-changed=build.rs");
}
