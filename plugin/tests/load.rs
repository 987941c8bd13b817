//! Loading: a file that cannot be read is an I/O error naming the file.

use plugin::{Config, Error, Hart};

#[test]
fn a_missing_elf_is_an_io_error_naming_the_file() {
    let mut h = Hart::new(&Config::default()).unwrap();
    let e = h.load_elf("/nonexistent/prog.elf").unwrap_err();
    assert!(matches!(e, Error::Io { .. }), "{e:?}");
    let msg = e.to_string();
    assert!(msg.starts_with("/nonexistent/prog.elf: "), "{msg}");
}
