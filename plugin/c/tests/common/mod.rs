//! A thin safe wrapper over the C ABI for the tests: every call goes through the
//! `extern "C"` functions exactly as a C program calls them.

#![allow(dead_code)]

use hartscope::*;
use std::ffi::{c_char, CStr, CString};
use std::path::PathBuf;

pub fn program(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../programs/bin")
        .join(name)
}

/// The shipped programs a hart checks against itself (not the SBI ones, which need a
/// firmware, nor the long benchmark).
pub fn programs() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(program(""))
        .expect("programs/bin")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".elf") && !n.starts_with("sbi_") && n != "bench.elf")
        .collect();
    names.sort();
    assert!(names.len() > 20, "{names:?}");
    names
}

pub fn c(s: &str) -> CString {
    CString::new(s).unwrap()
}

pub fn last_error() -> String {
    // SAFETY: hs_last_error returns a NUL-terminated string.
    unsafe { CStr::from_ptr(hs_last_error()) }
        .to_string_lossy()
        .into_owned()
}

pub fn text(p: *const c_char) -> String {
    assert!(!p.is_null());
    // SAFETY: a NUL-terminated string from the library.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

/// The settings the self-checks use: the core reports every CSR and FP write; the console
/// is quiet.
pub const FULL: &str = r#"{"reports": {"csr": true, "fpr": true}, "console": "none"}"#;

/// [`FULL`] with the hart `prog` asks for (the `hartscope-options:` line of its source), as
/// JSON.
pub fn settings(prog: &str) -> String {
    let stem = prog.trim_end_matches(".elf");
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../programs");
    let src = ["S", "c"]
        .iter()
        .find_map(|ext| std::fs::read_to_string(dir.join(format!("{stem}.{ext}"))).ok())
        .unwrap_or_default();
    let line = src
        .lines()
        .find_map(|l| l.split_once("hartscope-options:").map(|x| x.1))
        .unwrap_or("");
    // A file an option names is the repository's.
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut words: Vec<String> = line.split_whitespace().map(str::to_string).collect();
    if let Some(i) = words.iter().position(|w| w == "--uart-input") {
        if let Some(f) = words.get_mut(i + 1) {
            *f = root.join(&*f).display().to_string();
        }
    }
    let c = plugin::Config::from_json(FULL)
        .unwrap()
        .with_hart_options(&words)
        .unwrap_or_else(|e| panic!("{prog}: {e}"));
    serde_json::to_string(&c).unwrap()
}

pub struct H(pub *mut HsHart);

impl H {
    pub fn new(json: &str) -> H {
        let mut h = std::ptr::null_mut();
        // SAFETY: valid arguments.
        let st = unsafe { hs_new(c(json).as_ptr(), &mut h) };
        assert_eq!(st, HS_OK, "{}", last_error());
        H(h)
    }

    pub fn load(json: &str, prog: &str) -> H {
        let h = H::new(json);
        let path = c(program(prog).to_str().unwrap());
        let mut entry = 0;
        // SAFETY: valid arguments.
        let st = unsafe { hs_load_elf(h.0, path.as_ptr(), &mut entry) };
        assert_eq!(st, HS_OK, "{prog}: {}", last_error());
        assert_ne!(entry, 0);
        h
    }

    pub fn step(&self) -> Retirement {
        let mut r = Retirement::default();
        // SAFETY: valid arguments.
        assert_eq!(
            unsafe { hs_step(self.0, &mut r) },
            HS_OK,
            "{}",
            last_error()
        );
        r
    }

    pub fn step_rvfi(&self) -> Rvfi {
        let mut r = Rvfi::default();
        // SAFETY: valid arguments.
        assert_eq!(
            unsafe { hs_step_rvfi(self.0, &mut r) },
            HS_OK,
            "{}",
            last_error()
        );
        r
    }

    pub fn exited(&self) -> bool {
        let mut code = 0;
        // SAFETY: valid arguments.
        let st = unsafe { hs_poll_exit(self.0, &mut code) };
        assert!(st >= 0, "{}", last_error());
        st == 1
    }

    /// Up to `limit` retirements until the program ends.
    pub fn trace(&self, limit: usize) -> Vec<Retirement> {
        let mut out = Vec::new();
        while out.len() < limit && !self.exited() {
            out.push(self.step());
        }
        out
    }

    pub fn check(&self, r: &Retirement) -> i32 {
        // SAFETY: valid arguments.
        unsafe { hs_step_check(self.0, r) }
    }

    pub fn check_rvfi(&self, r: &Rvfi) -> i32 {
        // SAFETY: valid arguments.
        unsafe { hs_step_check_rvfi(self.0, r) }
    }

    pub fn mismatches_text(&self) -> String {
        let mut p = std::ptr::null();
        // SAFETY: valid arguments.
        assert_eq!(unsafe { hs_mismatches_text(self.0, &mut p) }, HS_OK);
        text(p)
    }

    pub fn mismatches_json(&self) -> serde_json::Value {
        let mut p = std::ptr::null();
        // SAFETY: valid arguments.
        assert_eq!(unsafe { hs_mismatches_json(self.0, &mut p) }, HS_OK);
        serde_json::from_str(&text(p)).unwrap()
    }

    pub fn errors(&self) -> u64 {
        let mut v = 0;
        // SAFETY: valid arguments.
        assert_eq!(unsafe { hs_errors(self.0, &mut v) }, HS_OK);
        v
    }

    pub fn checked(&self) -> u64 {
        let mut v = 0;
        // SAFETY: valid arguments.
        assert_eq!(unsafe { hs_checked(self.0, &mut v) }, HS_OK);
        v
    }

    pub fn pc(&self) -> u64 {
        let mut v = 0;
        // SAFETY: valid arguments.
        assert_eq!(unsafe { hs_get_pc(self.0, &mut v) }, HS_OK);
        v
    }

    pub fn x(&self, n: u32) -> u64 {
        let mut v = 0;
        // SAFETY: valid arguments.
        assert_eq!(unsafe { hs_get_x(self.0, n, &mut v) }, HS_OK);
        v
    }
}

impl Drop for H {
    fn drop(&mut self) {
        // SAFETY: a live handle.
        assert_eq!(unsafe { hs_free(self.0) }, HS_OK);
    }
}
