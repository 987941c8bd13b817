//! `hartscope run --gdb PORT`: GDB (Debian's `gdb-multiarch`) drives the stub on shipped
//! programs, and a raw Remote Serial Protocol client checks what GDB's batch mode cannot
//! (Ctrl-C, kill, a malformed packet, a connection that drops, a port in use).
//!
//! Without `gdb-multiarch` the GDB tests are skipped with a message, and fail when
//! `HARTSCOPE_REQUIRE_TOOLS=1` (CI). Every run uses `--gdb 0` and reads the port hartscope
//! chose from its "waiting for gdb on 127.0.0.1:PORT" line.

mod common;

use common::{hartscope, minimal_elf, program, TempDir};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(120);

/// `gdb-multiarch`, or `None` after saying the test is skipped (a failure under
/// `HARTSCOPE_REQUIRE_TOOLS=1`).
fn gdb_or_skip(test: &str) -> Option<&'static str> {
    let found = Command::new("gdb-multiarch")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if found {
        return Some("gdb-multiarch");
    }
    let msg = format!("{test}: needs gdb-multiarch (Debian: apt-get install gdb-multiarch)");
    if std::env::var("HARTSCOPE_REQUIRE_TOOLS").is_ok_and(|v| v == "1") {
        panic!("{msg}; HARTSCOPE_REQUIRE_TOOLS=1 makes a missing tool a failure");
    }
    eprintln!("skipped: {msg}");
    None
}

/// A `hartscope run --gdb 0` waiting for its debugger.
struct Stub {
    child: Child,
    port: u16,
    stdout: JoinHandle<Vec<u8>>,
    stderr: JoinHandle<String>,
}

struct Ended {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Stub {
    fn start(elf: &Path, extra: &[&str]) -> Stub {
        let mut child = hartscope()
            .arg("run")
            .arg(elf)
            .args(["--gdb", "0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("hartscope starts");
        let out = child.stdout.take().expect("stdout");
        let stdout = thread::spawn(move || {
            let mut v = Vec::new();
            let _ = BufReader::new(out).read_to_end(&mut v);
            v
        });
        let mut err = BufReader::new(child.stderr.take().expect("stderr"));
        let (tx, rx) = mpsc::channel();
        let stderr = thread::spawn(move || {
            let mut all = String::new();
            let mut line = String::new();
            let mut sent = false;
            while err.read_line(&mut line).unwrap_or(0) > 0 {
                if !sent {
                    if let Some(p) = line
                        .trim()
                        .strip_prefix("hartscope: waiting for gdb on 127.0.0.1:")
                    {
                        let _ = tx.send(p.parse::<u16>().ok());
                        sent = true;
                    }
                }
                all.push_str(&line);
                line.clear();
            }
            if !sent {
                let _ = tx.send(None);
            }
            all
        });
        let port = match rx.recv_timeout(Duration::from_secs(30)) {
            Ok(Some(p)) => p,
            other => {
                let _ = child.kill();
                let _ = child.wait();
                let e = stderr.join().unwrap_or_default();
                panic!("no 'waiting for gdb' line ({other:?}); stderr:\n{e}");
            }
        };
        assert_ne!(port, 0, "the port chosen is printed, not 0");
        Stub {
            child,
            port,
            stdout,
            stderr,
        }
    }

    /// Wait for hartscope to end (killing it after the time limit).
    fn end(mut self) -> Ended {
        let start = Instant::now();
        let status = loop {
            if let Some(s) = self.child.try_wait().expect("wait") {
                break s;
            }
            if start.elapsed() > TIMEOUT {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!("hartscope did not end within {TIMEOUT:?}");
            }
            thread::sleep(Duration::from_millis(20));
        };
        let ended = Ended {
            code: status.code(),
            stdout: String::from_utf8_lossy(&self.stdout.join().unwrap_or_default()).into(),
            stderr: self.stderr.join().unwrap_or_default(),
        };
        assert!(
            !ended.stderr.contains("panicked"),
            "hartscope panicked:\n{}",
            ended.stderr
        );
        ended
    }
}

/// Run `gdb-multiarch -batch` on `elf` against the stub with these commands; its output
/// (standard output and error together).
fn gdb(gdb: &str, port: u16, elf: &Path, cmds: &[&str]) -> String {
    let mut c = Command::new(gdb);
    c.args([
        "-nx",
        "-batch",
        "-ex",
        "set pagination off",
        "-ex",
        "set confirm off",
    ])
    .args(["-ex", &format!("target remote 127.0.0.1:{port}")]);
    for cmd in cmds {
        c.args(["-ex", cmd]);
    }
    c.arg(elf).stdin(Stdio::null());
    let out = common::run_with_timeout(&mut c, "gdb-multiarch", TIMEOUT);
    format!("{}{}", out.stdout_str(), out.stderr_str())
}

fn assert_has(text: &str, needles: &[&str]) {
    for n in needles {
        assert!(text.contains(n), "missing {n:?} in:\n{text}");
    }
}

#[test]
fn gdb_breaks_steps_and_reads_and_writes_registers_and_memory() {
    let Some(g) = gdb_or_skip("gdb_breaks_steps_and_reads_and_writes_registers_and_memory") else {
        return;
    };
    let elf = program("hello");
    let stub = Stub::start(&elf, &[]);
    let out = gdb(
        g,
        stub.port,
        &elf,
        &[
            "info registers pc",
            "p $priv",
            "p/x $misa",
            "break main",
            "continue",
            "info registers",
            "stepi",
            "p/x $pc",
            "step",
            "p $fa0",
            "p/x $fcsr",
            "set $a0 = 0x1234",
            "p/x $a0",
            "set $mscratch = 0xabcd",
            "p/x $mscratch",
            "x/2xw main",
            "set {int}($sp - 64) = 0x5a5a1234",
            "x/1xw $sp - 64",
            "x/1xw 0",
            "delete",
            // The exit code GDB sees is the guest's (here made 42).
            "break htif_exit",
            "continue",
            "set $a0 = 42",
            "continue",
        ],
    );
    assert_has(
        &out,
        &[
            "pc             0x80000000\t0x80000000 <_start>",
            // M-mode at the entry point.
            "$1 = 3",
            // RV64 (MXL 2) with A, C, D, F, I, M, S, U.
            "$2 = 0x800000000014112d",
            "Breakpoint 1, 0x000000008000200c in main ()",
            "ra             0x",
            "t6             0x",
            // stepi from main's breakpoint: the call, into uart_puts.
            "$3 = 0x800027f4",
            "$4 = {float = 0, double = 0}",
            "$5 = 0x0",
            "$6 = 0x1234",
            "$7 = 0xabcd",
            "<main>:\t0x",
            ":\t0x5a5a1234",
            "Cannot access memory at address 0x0",
            "[Inferior 1 (process 1) exited with code 052]",
        ],
    );
    let end = stub.end();
    assert_eq!(end.code, Some(42), "stderr:\n{}", end.stderr);
    assert_eq!(end.stdout, "Hello from hartscope!\n");
}

#[test]
fn gdb_watchpoints_fire_on_the_access_and_the_exit_code_reaches_gdb() {
    let Some(g) = gdb_or_skip("gdb_watchpoints_fire_on_the_access_and_the_exit_code_reaches_gdb")
    else {
        return;
    };
    let elf = program("hello");
    let stub = Stub::start(&elf, &[]);
    let out = gdb(
        g,
        stub.port,
        &elf,
        &[
            "break uart_puts",
            "continue",
            // The first bytes of the string uart_puts prints.
            "set $s = $a0",
            "rwatch *(char *)$s",
            "continue",
            "p/x $pc",
            "delete",
            "awatch *(char *)($s + 1)",
            "continue",
            "delete",
            "watch *(long *)&tohost",
            "continue",
            "x/2i $pc - 4",
            "delete",
            "continue",
        ],
    );
    assert_has(
        &out,
        &[
            "Hardware read watchpoint 2: *(char *)$s",
            "Value = 72 'H'",
            "Hardware access (read/write) watchpoint 3: *(char *)($s + 1)",
            "Value = 101 'e'",
            "Hardware watchpoint 4: *(long *)&tohost",
            "Old value = 0",
            "New value = 1",
            // Reported after GDB stepped over the store: the instruction after it.
            "0x8000274e <htif_exit+14>:\tsd\ta0,0(t0)",
            "[Inferior 1 (process 1) exited normally]",
        ],
    );
    let end = stub.end();
    assert_eq!(end.code, Some(0), "stderr:\n{}", end.stderr);
    assert_eq!(end.stdout, "Hello from hartscope!\n");
}

/// The commit log (and the N-Trace stream) of a run under GDB equal the plain run's: when
/// GDB only continues, and with breakpoints, steps and a watchpoint in between.
#[test]
fn gdb_runs_write_the_same_trace_as_plain_runs() {
    let Some(g) = gdb_or_skip("gdb_runs_write_the_same_trace_as_plain_runs") else {
        return;
    };
    let tmp = TempDir::new("gdb-trace");
    let elf = program("cprog");
    let outputs = |tag: &str| {
        let log = tmp.join(&format!("{tag}.log"));
        let ntr = tmp.join(&format!("{tag}.ntr"));
        (log, ntr)
    };
    let args = |log: &Path, ntr: &Path| -> Vec<String> {
        vec![
            "--log-commits".into(),
            log.display().to_string(),
            "--ntrace".into(),
            ntr.display().to_string(),
        ]
    };
    let (plain_log, plain_ntr) = outputs("plain");
    let plain = common::run_with_timeout(
        hartscope()
            .arg("run")
            .arg(&elf)
            .args(args(&plain_log, &plain_ntr)),
        "the plain run",
        TIMEOUT,
    );
    let plain_code = plain.code();
    let want_log = std::fs::read(&plain_log).expect("the plain log");
    let want_ntr = std::fs::read(&plain_ntr).expect("the plain trace");
    assert!(want_log.len() > 10_000, "cprog's log is substantial");

    let sessions: [(&str, &[&str]); 2] = [
        ("continue", &["continue"]),
        (
            "stepped",
            &[
                "break main",
                "continue",
                "stepi",
                "stepi",
                "next",
                "hbreak cmp_int",
                "continue",
                "stepi",
                "watch *(long *)&tohost",
                "delete 1 2",
                "continue",
                "delete",
                "continue",
            ],
        ),
    ];
    for (tag, cmds) in sessions {
        let (log, ntr) = outputs(tag);
        let a = args(&log, &ntr);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let stub = Stub::start(&elf, &a);
        let out = gdb(g, stub.port, &elf, cmds);
        assert!(
            out.contains("[Inferior 1 (process 1) exited"),
            "{tag}: {out}"
        );
        let end = stub.end();
        assert_eq!(end.code, plain_code, "{tag}: stderr:\n{}", end.stderr);
        let got = std::fs::read(&log).expect("the log under gdb");
        if got != want_log {
            let first = got
                .split(|&b| b == b'\n')
                .zip(want_log.split(|&b| b == b'\n'))
                .position(|(a, b)| a != b);
            panic!(
                "{tag}: the commit log under gdb differs from the plain run's (first at line \
                 {first:?}; {} vs {} bytes)\ngdb said:\n{out}",
                got.len(),
                want_log.len()
            );
        }
        assert!(
            std::fs::read(&ntr).expect("the trace under gdb") == want_ntr,
            "{tag}: the N-Trace stream under gdb differs from the plain run's"
        );
    }
}

#[test]
fn gdb_detach_lets_the_run_finish() {
    let Some(g) = gdb_or_skip("gdb_detach_lets_the_run_finish") else {
        return;
    };
    let elf = program("hello");
    let stub = Stub::start(&elf, &[]);
    let out = gdb(g, stub.port, &elf, &["break main", "continue", "detach"]);
    assert_has(
        &out,
        &["Breakpoint 1, ", "[Inferior 1 (process 1) detached]"],
    );
    let end = stub.end();
    assert_eq!(end.code, Some(0), "stderr:\n{}", end.stderr);
    assert_eq!(end.stdout, "Hello from hartscope!\n");
}

// ---------------------------------------------------------------------------------------------
// A raw Remote Serial Protocol client: no gdb needed.
// ---------------------------------------------------------------------------------------------

struct Rsp {
    s: TcpStream,
}

impl Rsp {
    fn connect(port: u16) -> Rsp {
        let s = TcpStream::connect(("127.0.0.1", port)).expect("connect to the stub");
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        Rsp { s }
    }

    fn send_raw(&mut self, b: &[u8]) {
        self.s.write_all(b).expect("send");
    }

    fn send(&mut self, body: &str) {
        let sum = body.bytes().fold(0u8, |a, b| a.wrapping_add(b));
        self.send_raw(format!("${body}#{sum:02x}").as_bytes());
    }

    /// The next packet's body (acks before it skipped; the packet acknowledged).
    fn recv(&mut self) -> String {
        let mut b = [0u8];
        loop {
            self.s.read_exact(&mut b).expect("a reply from the stub");
            if b[0] == b'$' {
                break;
            }
        }
        let mut body = Vec::new();
        loop {
            self.s.read_exact(&mut b).expect("the packet");
            if b[0] == b'#' {
                break;
            }
            body.push(b[0]);
        }
        let mut sum = [0u8; 2];
        self.s.read_exact(&mut sum).expect("the checksum");
        self.send_raw(b"+");
        // Run-length encoding: `X*N` is X and N - 29 more of it.
        let mut out = Vec::new();
        let mut i = 0;
        while i < body.len() {
            if body[i] == b'*' && i + 1 < body.len() {
                let last = *out.last().expect("a repeated character");
                out.extend(std::iter::repeat_n(last, body[i + 1] as usize - 29));
                i += 2;
            } else {
                out.push(body[i]);
                i += 1;
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    }

    fn ask(&mut self, body: &str) -> String {
        self.send(body);
        self.recv()
    }
}

/// An endless loop (`j .`) at 0x8000_0000.
fn endless_elf(tmp: &TempDir) -> std::path::PathBuf {
    tmp.write("loop.elf", &minimal_elf(&[0x0000_006f]))
}

#[test]
fn ctrl_c_interrupts_a_continue_and_kill_ends_the_run() {
    let tmp = TempDir::new("gdb-ctrl-c");
    let elf = endless_elf(&tmp);
    let stub = Stub::start(&elf, &[]);
    let mut c = Rsp::connect(stub.port);
    let first = c.ask("?");
    assert!(
        first.starts_with("T05") || first.starts_with("S05"),
        "{first}"
    );
    // Continue, then interrupt it.
    c.send("c");
    thread::sleep(Duration::from_millis(300));
    c.send_raw(&[0x03]);
    let stop = c.recv();
    assert!(
        stop.starts_with("S02") || stop.starts_with("T02"),
        "stop: {stop}"
    );
    // The hart is where the loop is, and ran meanwhile.
    let pc = c.ask("p20");
    assert_eq!(pc, "0000008000000000");
    // The CSRs by GDB's numbers: minstret (65 + 0xb02) counted the loop.
    let minstret = c.ask(&format!("p{:x}", 65 + 0xb02));
    let v = u64::from_str_radix(&minstret, 16).map(u64::swap_bytes);
    assert!(v.is_ok_and(|v| v > 1000), "minstret {minstret}");
    // Unmapped memory is an error reply, never a crash.
    assert!(c.ask("m0,8").starts_with('E'));
    assert!(c.ask("mffffffffffffff00,100").starts_with('E'));
    c.send("k");
    let end = stub.end();
    assert_eq!(end.code, Some(137), "stderr:\n{}", end.stderr);
    assert!(end.stderr.contains("killed by gdb"), "{}", end.stderr);
}

#[test]
fn a_malformed_packet_is_refused_and_a_dropped_connection_is_an_error() {
    let tmp = TempDir::new("gdb-malformed");
    let elf = endless_elf(&tmp);
    let stub = Stub::start(&elf, &[]);
    let mut c = Rsp::connect(stub.port);
    // A packet of garbage gets an empty (unsupported) reply; the session goes on.
    assert_eq!(c.ask("\u{1}\u{2}zz~~"), "");
    assert_eq!(c.ask("p20"), "0000008000000000");
    // Continue, then go away without a word.
    c.send("c");
    thread::sleep(Duration::from_millis(200));
    drop(c);
    let end = stub.end();
    assert_eq!(end.code, Some(2), "stderr:\n{}", end.stderr);
    assert!(
        end.stderr
            .contains("hartscope: error: --gdb: the connection to gdb was lost"),
        "{}",
        end.stderr
    );
}

#[test]
fn a_port_in_use_is_a_clear_error() {
    let busy = TcpListener::bind("127.0.0.1:0").expect("a port");
    let port = busy.local_addr().unwrap().port();
    let out = common::run_with_timeout(
        hartscope()
            .arg("run")
            .arg(program("hello"))
            .args(["--gdb", &port.to_string()]),
        "hartscope with a busy port",
        TIMEOUT,
    );
    assert_eq!(out.code(), Some(2), "{}", out.stderr_str());
    let e = out.stderr_str();
    assert!(
        e.contains(&format!("--gdb {port}: cannot listen on 127.0.0.1:{port}")),
        "{e}"
    );
    assert!(!e.contains("panicked"), "{e}");
}

#[test]
fn a_packet_with_a_bad_checksum_ends_the_session_with_an_error() {
    let tmp = TempDir::new("gdb-checksum");
    let elf = endless_elf(&tmp);
    let stub = Stub::start(&elf, &[]);
    let mut c = Rsp::connect(stub.port);
    assert_eq!(c.ask("p20"), "0000008000000000");
    c.send_raw(b"$g#00");
    let end = stub.end();
    assert_eq!(end.code, Some(2), "stderr:\n{}", end.stderr);
    assert!(
        end.stderr.contains("hartscope: error: --gdb: ") && end.stderr.contains("checksum"),
        "{}",
        end.stderr
    );
}
