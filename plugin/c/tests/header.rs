//! The committed header `include/hartscope.h` is what cbindgen makes from the crate now.
//! Regenerate it with `HARTSCOPE_BLESS=1 cargo test -p hartscope-c --test header`.

use std::path::PathBuf;

#[test]
fn the_committed_header_is_current() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let cfg = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let mut made = Vec::new();
    cbindgen::Builder::new()
        .with_crate(&dir)
        .with_config(cfg)
        .generate()
        .expect("cbindgen could not read the crate")
        .write(&mut made);
    let made = String::from_utf8(made).expect("cbindgen writes UTF-8");
    let path = dir.join("include/hartscope.h");
    if std::env::var_os("HARTSCOPE_BLESS").is_some() {
        std::fs::write(&path, &made).expect("write include/hartscope.h");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != made {
        let first = committed
            .lines()
            .zip(made.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(committed.lines().count().min(made.lines().count()));
        panic!(
            "plugin/c/include/hartscope.h is not what cbindgen makes from plugin/c/src now \
             (first difference at line {}: committed {:?}, generated {:?}).\n\
             Regenerate it with:\n    HARTSCOPE_BLESS=1 cargo test -p hartscope-c --test header\n\
             and commit it.",
            first + 1,
            committed.lines().nth(first).unwrap_or("(end of file)"),
            made.lines().nth(first).unwrap_or("(end of file)"),
        );
    }
}
