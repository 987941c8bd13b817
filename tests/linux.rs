//! Linux boots on hartscope and proves the PMU through its own perf driver.
//!
//! `programs/linux/Image` is a Linux 6.1 kernel (Debian's `linux-source-6.1`) with a
//! built-in initramfs whose /init is `programs/linux/init.c`, built by `scripts/build-linux`
//! (its `--check` holds the committed image to its sources). Every test boots it, asserts the
//! console output of user space in full and the exit status 0:
//! - with the built-in SBI and Sscofpmf, with and without `--pmu-models all`: the init's
//!   perf counts equal what `--pmu-report` says the counters counted, the samples' number
//!   follows from the count and the period, and every sample's IP is in the loop;
//! - with OpenSBI's fw_jump (Debian's `opensbi`) as the M-mode firmware;
//! - typed into, with `--uart-input FILE` and in a terminal (tmux, `--uart-input -`);
//! - on four harts, and traced on all four into one N-Trace stream, each hart's decoded flow
//!   its lines of the commit log (over the first 10 M instructions).
//!
//! Without the image the tests are skipped with a message; without opensbi or tmux, the
//! tests that need them are. `HARTSCOPE_REQUIRE_TOOLS=1` (CI) makes any of these a failure.

mod common;

use common::{assert_no_panic, fw_jump_or_skip, hartscope, run_with_timeout, TempDir};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(300);

/// pmu_loop(n) retires 4 n + 1 instructions (programs/linux/init.c).
const LOOP_N: u64 = 350_000;
const PERIOD: u64 = 10_000;

/// The line the tests type.
const LINE: &str = "hello from the test";

/// What `--uart-input FILE` gives: blank lines first, since Linux's 8250 driver reads (and
/// drops) two bytes when it opens the port; the init skips empty lines.
fn script() -> String {
    format!("\n\n\n{LINE}\n")
}

/// The ISA the tests give, and what Linux 6.1's /proc/cpuinfo shows of it.
const ISA: &str = "rv64gc_zicntr_zihpm_sscofpmf";
const CPUINFO_ISA: &str = "rv64imafdc_sscofpmf";

/// The init's output with the built-in SBI, from its banner to power-off: `{cycles...}` are
/// what differs with the models.
const USER_SPACE: &str = "\
hartscope init: Linux's perf on the hartscope PMU
{cpuinfo}\
pmu_loop: 1400001 instructions at [0x1051e, 0x10532)
sample instructions: period 10000, 140 samples, 140 in pmu_loop, 0 throttled, 0 lost, 0 other
sample cycles: period 10000, 140 samples, 140 in pmu_loop, 0 throttled, 0 lost, 0 other
raw r10001: {raw}
count pmu_loop(1): instructions 11, cycles {cycles1}, r20004 0
count pmu_loop(350000): instructions 1400007, cycles {cycles}, r20004 349999
type a line:
echo: hello from the test
hartscope init: powering off
reboot: Power down
";

fn require_tools() -> bool {
    std::env::var("HARTSCOPE_REQUIRE_TOOLS").is_ok_and(|v| v == "1")
}

fn skip(test: &str, msg: &str) {
    if require_tools() {
        panic!("{test}: {msg}; HARTSCOPE_REQUIRE_TOOLS=1 makes this a failure");
    }
    eprintln!("{test}: SKIPPED: {msg}");
}

/// The committed kernel, or `None` (after saying so) when it is absent.
fn image_or_skip(test: &str) -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("programs/linux/Image");
    if p.is_file() {
        return Some(p);
    }
    skip(
        test,
        &format!("{} is missing (scripts/build-linux builds it)", p.display()),
    );
    None
}

/// The console with `\r\n` as `\n`.
fn console(stdout: &[u8]) -> String {
    String::from_utf8_lossy(stdout).replace("\r\n", "\n")
}

/// What user space printed: from the init's banner on.
fn user_space(console: &str) -> &str {
    let at = console
        .find("hartscope init: ")
        .unwrap_or_else(|| panic!("the init's banner is missing:\n{console}"));
    &console[at..]
}

/// The numbers of a line that starts with `prefix` (each maximal run of digits after it).
fn numbers(text: &str, prefix: &str) -> Vec<u64> {
    let line = text
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line `{prefix}...` in:\n{text}"));
    line[prefix.len()..]
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().expect("a number"))
        .collect()
}

/// Boot with `cmd` (`what` names it): the run ends with status 0, without a kernel panic,
/// within [`TIMEOUT`], and the console has every one of `lines`. Returns the console.
fn boot(test: &str, cmd: &mut Command, what: &str, lines: &[&str]) -> String {
    let start = Instant::now();
    let out = run_with_timeout(cmd, what, TIMEOUT);
    eprintln!(
        "{test}, {what}: the boot took {:.1} s",
        start.elapsed().as_secs_f64()
    );
    let (con, stderr) = (console(&out.stdout), out.stderr_str());
    assert_no_panic(test, &stderr);
    assert_eq!(
        out.code(),
        Some(0),
        "{what}: status\nconsole:\n{con}\nstderr:\n{stderr}"
    );
    for line in lines {
        assert!(con.contains(line), "{what}: no `{line}` in:\n{con}");
    }
    con
}

/// /proc/cpuinfo as Linux 6.1 prints it for hartscope's one hart.
fn cpuinfo() -> String {
    cpuinfo_harts(1)
}

/// /proc/cpuinfo as Linux 6.1 prints it for `n` harts.
fn cpuinfo_harts(n: u32) -> String {
    (0..n)
        .map(|h| {
            format!(
                "processor\t: {h}\nhart\t\t: {h}\nisa\t\t: {CPUINFO_ISA}\nmmu\t\t: sv48\n\
                 mvendorid\t: 0x0\nmarchid\t\t: 0x0\nmimpid\t\t: 0x0\n\n"
            )
        })
        .collect()
}

/// What the init's counting printed for one measurement.
#[derive(Debug, Default)]
struct Counted {
    instructions: u64,
    cycles: u64,
    branches_taken: u64,
}

/// The count the report's counters hold for the last use of `(event_idx, event_data)`: the
/// counter the last `counter_config_matching` of that event chose, its final value less the
/// initial value of the last `counter_start` of that counter (the perf driver stops the
/// counter on disable and nothing reuses it before power-off).
fn reported(report: &Value, event_idx: u64, event_data: u64) -> u64 {
    let calls = report["sbi_calls"].as_array().expect("sbi_calls");
    assert_eq!(
        report["sbi_calls_not_listed"].as_u64(),
        Some(0),
        "the report's SBI log is cut short"
    );
    let args = |c: &Value| -> Vec<u64> {
        c["args"]
            .as_array()
            .expect("args")
            .iter()
            .map(|a| a.as_u64().expect("an argument"))
            .collect()
    };
    let is = |c: &Value, f: &str| c["extension"] == "pmu" && c["function"] == f && c["error"] == 0;
    let cfg = calls
        .iter()
        .rev()
        .find(|c| {
            let a = args(c);
            is(c, "counter_config_matching") && a[3] == event_idx && a[4] == event_data
        })
        .unwrap_or_else(|| panic!("no config_matching of event {event_idx:#x}/{event_data:#x}"));
    let idx = cfg["value"].as_u64().expect("a counter index");
    let start = calls
        .iter()
        .rev()
        .find(|c| {
            let a = args(c);
            is(c, "counter_start") && a[0] == idx && a[1] == 1
        })
        .unwrap_or_else(|| panic!("no counter_start of counter {idx}"));
    let a = args(start);
    assert_eq!(a[2] & 1, 1, "counter_start without SET_INIT_VALUE: {start}");
    let counter = report["counters"]
        .as_array()
        .expect("counters")
        .iter()
        .find(|c| c["index"].as_u64() == Some(idx))
        .unwrap_or_else(|| panic!("no counter {idx} in the report"));
    // The driver released it (stop with RESET): no event, stopped, its value kept.
    assert_eq!(counter["kind"], "hardware", "{counter}");
    assert_eq!(counter["running"], false, "stopped at disable: {counter}");
    // exclude_kernel: the driver asked for SET_SINH (and the PMU adds MINH), so the counter
    // counted in U only.
    assert_ne!(args(cfg)[2] & (1 << 6), 0, "no SET_SINH: {cfg}");
    counter["value"]
        .as_u64()
        .expect("a value")
        .wrapping_sub(a[3])
}

/// Boots the kernel with the built-in SBI and Sscofpmf, types `LINE` through
/// `--uart-input FILE`, and checks the init's perf results against the report and the loop.
fn perf_boot(test: &str, models: bool) {
    let Some(image) = image_or_skip(test) else {
        return;
    };
    let dir = TempDir::new(test);
    let input = dir.write("input.txt", script().as_bytes());
    let report = dir.join("report.json");
    let mut cmd = hartscope();
    cmd.args(["run", "-q", "--sbi", "builtin", "--isa", ISA, "--kernel"])
        .arg(&image)
        .arg("--uart-input")
        .arg(&input)
        .arg(format!("--pmu-report={}", report.display()));
    if models {
        cmd.args(["--pmu-models", "all"]);
    }
    let con = boot(
        test,
        &mut cmd,
        "hartscope run --sbi builtin --kernel Image",
        &[
            "Linux version 6.1.",
            "riscv-pmu-sbi: SBI PMU extension is available",
            "Run /init as init process",
        ],
    );
    let user = user_space(&con);
    let report: Value =
        serde_json::from_slice(&std::fs::read(&report).expect("the report")).expect("JSON");

    // Counting: the two measurements differ by the loop's instructions and taken branches
    // exactly (the same code path around it), and each count is what the counter counted.
    let measured = |what: &str| {
        let v = numbers(user, &format!("count {what}: "));
        Counted {
            instructions: v[0],
            cycles: v[1],
            branches_taken: v[3],
        }
    };
    let base = measured("pmu_loop(1)");
    let full = measured(&format!("pmu_loop({LOOP_N})"));
    assert_eq!(
        full.instructions - base.instructions,
        4 * (LOOP_N - 1),
        "{user}"
    );
    assert_eq!(
        full.branches_taken - base.branches_taken,
        LOOP_N - 1,
        "{user}"
    );
    assert_eq!(full.instructions, reported(&report, 0x2, 0), "INSTRUCTIONS");
    assert_eq!(full.cycles, reported(&report, 0x1, 0), "CPU_CYCLES");
    assert_eq!(
        full.branches_taken,
        reported(&report, 0x20000, 0x20004),
        "r20004"
    );
    let (raw, cycles1, cycles) = if models {
        assert!(
            full.cycles > full.instructions,
            "stall cycles with the models: {user}"
        );
        // r10001 (L1D read misses) is taken: the loop has no loads.
        ("0", 40, 1_400_039)
    } else {
        // One cycle per instruction without a model; r10001 needs the cache model.
        assert_eq!(full.cycles, full.instructions, "{user}");
        assert_eq!(base.cycles, base.instructions, "{user}");
        ("not counted (the PMU refused it)", 11, 1_400_007)
    };
    let want = USER_SPACE
        .replace("{cpuinfo}", &cpuinfo())
        .replace("{raw}", raw)
        .replace("{cycles1}", &cycles1.to_string())
        .replace("{cycles}", &cycles.to_string());
    assert_eq!(user, want, "the console from the init's banner on");

    // Sampling: one sample each PERIOD events of the same measured code path, the IP of
    // each in the loop, nothing throttled or lost.
    for (event, total) in [("instructions", full.instructions), ("cycles", full.cycles)] {
        let v = numbers(user, &format!("sample {event}: "));
        let (period, samples, in_loop, throttled, lost, other) =
            (v[0], v[1], v[2], v[3], v[4], v[5]);
        assert_eq!(period, PERIOD, "{user}");
        assert_eq!((throttled, lost, other), (0, 0, 0), "{user}");
        if event == "instructions" || !models {
            assert_eq!(samples, total / PERIOD, "{event}: {user}");
        } else {
            // The sampling run's caches start from another state than the counting run's.
            assert!(samples >= full.instructions / PERIOD, "{event}: {user}");
        }
        assert_eq!(in_loop, samples, "{event}: an IP outside the loop: {user}");
    }
}

/// The built-in SBI with Sscofpmf: perf counts, samples and a raw event, the line typed
/// through `--uart-input FILE` echoed, and power-off through SBI SRST with status 0.
#[test]
fn builtin_sbi_perf_counts_and_samples_exactly() {
    perf_boot("builtin_sbi_perf_counts_and_samples_exactly", false);
}

/// The same with the cache, TLB and branch-predictor models: cycles now exceed instructions
/// (time follows the modelled cycles, so perf does not throttle), and raw r10001 (L1D read
/// misses) is accepted and counts what the report says.
#[test]
fn builtin_sbi_perf_with_pmu_models() {
    perf_boot("builtin_sbi_perf_with_pmu_models", true);
}

/// OpenSBI's generic fw_jump (Debian's `opensbi`) as the M-mode firmware, started by the
/// boot ROM, jumps to the kernel at 0x8020_0000: Linux reaches its init, which prints
/// everything, echoes the typed line and powers off (SBI SRST, OpenSBI's test finisher
/// write) with status 0.
#[test]
fn opensbi_fw_jump_boots_linux() {
    let test = "opensbi_fw_jump_boots_linux";
    let Some(image) = image_or_skip(test) else {
        return;
    };
    let Some(fw) = fw_jump_or_skip(test) else {
        return;
    };
    let dir = TempDir::new(test);
    let input = dir.write("input.txt", script().as_bytes());
    let con = boot(
        test,
        hartscope()
            .args(["run", "-q", "--isa", ISA])
            .arg(&fw)
            .arg("--kernel")
            .arg(&image)
            .arg("--uart-input")
            .arg(&input),
        "hartscope run fw_jump.elf --kernel Image",
        &[
            "OpenSBI v1.",
            "Platform Name             : hartscope",
            "Domain0 Next Address      : 0x0000000080200000",
            "Linux version 6.1.",
            "Run /init as init process",
        ],
    );
    let user = user_space(&con);
    assert!(user.contains(&cpuinfo()), "{user}");
    assert!(user.contains(&format!("\necho: {LINE}\n")), "{user}");
    assert!(
        user.ends_with("hartscope init: powering off\nreboot: Power down\n"),
        "{user}"
    );
}

/// Interactive: hartscope runs in a terminal (tmux) with `--uart-input -`; a line typed
/// with `tmux send-keys` reaches the init through the UART, which echoes it, and the run
/// powers off with status 0.
#[test]
fn a_line_typed_in_a_terminal_reaches_init() {
    let test = "a_line_typed_in_a_terminal_reaches_init";
    let Some(image) = image_or_skip(test) else {
        return;
    };
    if Command::new("tmux").arg("-V").output().is_err() {
        skip(test, "needs tmux (Debian: apt-get install tmux)");
        return;
    }
    let dir = TempDir::new(test);
    // A server of our own (its socket in the temporary directory), so no other tmux is touched.
    let socket = dir.join("tmux.sock");
    let tmux = |args: &[&str]| {
        Command::new("tmux")
            .arg("-S")
            .arg(&socket)
            .args(args)
            .output()
            .expect("tmux runs")
    };
    let status = dir.join("status");
    let script = format!(
        "'{}' run -q --sbi builtin --kernel '{}' --uart-input -; echo $? > '{}'; sleep 600",
        env!("CARGO_BIN_EXE_hartscope"),
        image.display(),
        status.display()
    );
    let out = tmux(&[
        "new-session",
        "-d",
        "-x",
        "200",
        "-y",
        "50",
        "sh",
        "-c",
        &script,
    ]);
    assert!(out.status.success(), "tmux new-session: {out:?}");
    let pane =
        || String::from_utf8_lossy(&tmux(&["capture-pane", "-p", "-S", "-"]).stdout).to_string();
    let wait_for = |what: &str| {
        let start = Instant::now();
        loop {
            let p = pane();
            if p.contains(what) {
                return p;
            }
            if start.elapsed() > TIMEOUT {
                tmux(&["kill-server"]);
                panic!("{test}: no `{what}` in the pane after {TIMEOUT:?}:\n{p}");
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    };
    wait_for("type a line:");
    let typed = "typed in tmux";
    let out = tmux(&["send-keys", typed, "Enter"]);
    assert!(out.status.success(), "tmux send-keys: {out:?}");
    let p = wait_for("hartscope init: powering off");
    // The shell creates the file before it writes the status into it: wait for the line.
    let written = || std::fs::read_to_string(&status).is_ok_and(|s| s.ends_with('\n'));
    let start = Instant::now();
    while !written() && start.elapsed() < TIMEOUT {
        std::thread::sleep(Duration::from_millis(100));
    }
    tmux(&["kill-server"]);
    assert!(
        p.contains(&format!("echo: {typed}")),
        "the init did not echo the line:\n{p}"
    );
    let code = std::fs::read_to_string(&status).expect("the run's status");
    assert_eq!(code.trim(), "0", "the run's status:\n{p}");
}

/// SMP: the same Image (built with NR_CPUS=8) on `--harts 4`, with the built-in SBI (HSM
/// starts the secondary harts, IPIs and remote fences go through it) and with OpenSBI
/// (every hart starts from the boot ROM; OpenSBI picks the boot hart): Linux brings up 4
/// CPUs, /proc/cpuinfo lists harts 0 to 3, the init's output comes in full (the line given
/// through the UART echoed), and the run powers off with status 0.
#[test]
fn four_harts_boot_linux() {
    let test = "four_harts_boot_linux";
    let Some(image) = image_or_skip(test) else {
        return;
    };
    let Some(fw) = fw_jump_or_skip(test) else {
        return;
    };
    let dir = TempDir::new(test);
    let input = dir.write("input.txt", script().as_bytes());
    for (way, firmware) in [("--sbi builtin", None), ("OpenSBI fw_jump", Some(&fw))] {
        let mut cmd = hartscope();
        cmd.args(["run", "-q", "--isa", ISA, "--harts", "4"]);
        match firmware {
            Some(fw) => cmd.arg(fw),
            None => cmd.args(["--sbi", "builtin"]),
        };
        cmd.arg("--kernel")
            .arg(&image)
            .arg("--uart-input")
            .arg(&input);
        let con = boot(
            test,
            &mut cmd,
            &format!("hartscope run --harts 4 ({way}) --kernel Image"),
            &[
                "Linux version 6.1.",
                "smp: Bringing up secondary CPUs ...",
                "smp: Brought up 1 node, 4 CPUs",
                "Run /init as init process",
            ],
        );
        if firmware.is_some() {
            assert!(
                con.contains("Platform HART Count       : 4"),
                "{way}: OpenSBI's banner:\n{con}"
            );
        }
        let user = user_space(&con);
        assert!(user.contains(&cpuinfo_harts(4)), "{way}:\n{user}");
        assert!(
            user.contains(&format!("\necho: {LINE}\n")),
            "{way}:\n{user}"
        );
        assert!(
            user.ends_with("hartscope init: powering off\nreboot: Power down\n"),
            "{way}:\n{user}"
        );
    }
}

/// Each hart's count of pcs and a hash of them in order (FNV-1a over the pcs' bytes): what
/// the commit log and the decoded flow are compared by, without holding millions of pcs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Flow {
    count: u64,
    hash: u64,
}

impl Flow {
    fn add(&mut self, pc: u64) {
        if self.count == 0 {
            self.hash = 0xcbf2_9ce4_8422_2325;
        }
        self.count += 1;
        for b in pc.to_le_bytes() {
            self.hash = (self.hash ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
}

/// The hex number at the start of `b` (up to the first non-hex byte).
fn hex(b: &[u8]) -> u64 {
    b.iter()
        .map_while(|&c| (c as char).to_digit(16))
        .fold(0, |v, d| v << 4 | u64::from(d))
}

/// Every line of a file, as bytes, in large reads.
fn each_line(p: &Path, mut f: impl FnMut(&[u8])) {
    use std::io::BufRead;
    let file = std::fs::File::open(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let mut r = std::io::BufReader::with_capacity(1 << 20, file);
    let mut line = Vec::with_capacity(256);
    loop {
        line.clear();
        if r.read_until(b'\n', &mut line).expect("reading") == 0 {
            return;
        }
        f(&line);
    }
}

/// SMP Linux traced on all four harts into one N-Trace stream (`--trace-hart all`, a SRC
/// per hart): over the first 10 M instructions (the secondary harts start at about 8.7 M),
/// `ntrace decode --src all` decodes every hart's flow without an error, and each is exactly
/// that hart's lines of the commit log (count and order). The kernel runs at its virtual
/// addresses: the decoder gets the Image at its load address and aliased there.
#[test]
fn four_harts_traced_in_one_stream() {
    let test = "four_harts_traced_in_one_stream";
    let Some(image) = image_or_skip(test) else {
        return;
    };
    let dir = TempDir::new(test);
    let (ntr, log, pcs) = (
        dir.join("smp.ntr"),
        dir.join("smp.log"),
        dir.join("pcs.txt"),
    );
    let start = Instant::now();
    let mut cmd = hartscope();
    cmd.args([
        "run", "-q", "--isa", ISA, "--harts", "4", "--sbi", "builtin",
    ])
    .arg("--kernel")
    .arg(&image)
    .args(["--max-insns", "10000000", "--trace-hart", "all", "--ntrace"])
    .arg(&ntr)
    .arg("--log-commits")
    .arg(&log);
    let out = run_with_timeout(&mut cmd, "hartscope run --trace-hart all", TIMEOUT);
    assert_eq!(out.code(), Some(124), "{}", out.stderr_str());
    let size = std::fs::metadata(&image).unwrap().len();
    let mut cmd = hartscope();
    cmd.args(["ntrace", "decode"])
        .arg(&ntr)
        .arg("--raw")
        .arg(format!("0x80200000:{}", image.display()))
        .arg("--alias")
        .arg(format!("0xffffffff80000000:0x80200000:{size:#x}"))
        .args(["--src", "all", "--pcs"])
        .arg(&pcs);
    let out = run_with_timeout(&mut cmd, "ntrace decode --src all", TIMEOUT);
    assert_eq!(out.code(), Some(0), "{}", out.stderr_str());
    let mut want = [Flow::default(); 4];
    each_line(&log, |l| {
        // `core   N: P 0x<16 hex> ...`
        if l.len() > 30 && l.starts_with(b"core") {
            want[(l[7] - b'0') as usize].add(hex(&l[14..30]));
        }
    });
    let mut got = [Flow::default(); 4];
    each_line(&pcs, |l| {
        // `SRC PC`
        got[(l[0] - b'0') as usize].add(hex(&l[2..]));
    });
    eprintln!(
        "{test}: {:.1} s; instructions by hart: {:?}",
        start.elapsed().as_secs_f64(),
        want.map(|f| f.count)
    );
    for h in 0..4 {
        assert!(want[h].count > 10_000, "hart {h} ran: {:?}", want[h]);
        assert_eq!(
            got[h], want[h],
            "hart {h}: the decoded flow is its commit log's"
        );
    }
}
