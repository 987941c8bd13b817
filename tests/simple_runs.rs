//! Runs of simple instructions (`Detail::SimpleRuns`): for a sink that takes them, the hart runs
//! the instructions of fixed record shapes chained, as untraced, and keeps only each one's
//! effect; `SimpleRun` makes their records again. Here, for every guest program and in every
//! configuration that changes how the hart runs (the PMU's per-run accounting and its models,
//! CTR from handlers or from the run loop, emulated misaligned accesses), the records and
//! traps a sink sees that way must be exactly those the hart builds one instruction at a time.
//!
//! Likewise for sinks that take runs (`Detail::Runs`): the instructions in the runs are those
//! that retire, in order, and a sink that takes a chain's blocks at once (`Sink::blocks`, as
//! the N-Trace capture does) hears what it would hear one run at a time. So does a sink that
//! takes a chain's simple runs at once (`Sink::simple_chain`, as the tandem writer does).

mod common;

use common::{assert_every_program_has_a_case, program_name, program_options};
use iss::ingress::{Capture, EventSink, IngressConfig, PortBatch, PortEvent};
use iss::record::{Blocks, MemAccess, RegWrite, Retired, Run, SimpleChain, Sink, TrapRecord};
use iss::Detail;
use iss::{Config, Machine, Misaligned};
use rstest::rstest;
use std::path::{Path, PathBuf};

/// Instructions each program may run (bench runs for about 1e9).
const LIMIT: u64 = 3_000_000;

/// What a sink saw, with only the meaningful part of each record.
#[derive(Debug, PartialEq)]
enum Seen {
    Retired {
        pc: u64,
        bits: u32,
        op: iss::insn::Op,
        prv: iss::Priv,
        next_pc: u64,
        exception: Option<(iss::Cause, u64)>,
        writes: Vec<RegWrite>,
        mem: Vec<MemAccess>,
        sc: Option<u64>,
        time: u64,
        fetch_pa: Option<u64>,
    },
    Trap(String),
}

fn seen(r: &Retired) -> Seen {
    Seen::Retired {
        pc: r.pc,
        bits: r.insn.bits,
        op: r.insn.op,
        prv: r.prv,
        next_pc: r.next_pc,
        exception: r.exception,
        writes: r.writes().to_vec(),
        mem: r.mem().to_vec(),
        sc: r.sc_failed.then_some(r.sc_addr),
        time: r.time,
        fetch_pa: r.fetch_pa,
    }
}

/// Everything a sink is told; `SIMPLE`: it takes runs of simple instructions (through the
/// default `simple_run`, which hands each one's record to `retire`).
struct Log<const SIMPLE: bool> {
    seen: Vec<Seen>,
    runs: u64,
}

impl<const SIMPLE: bool> Sink for Log<SIMPLE> {
    const DETAIL: Detail = if SIMPLE {
        Detail::SimpleRuns
    } else {
        Detail::Records
    };
    fn retire(&mut self, r: &Retired) {
        self.seen.push(seen(r));
    }
    fn simple_run(&mut self, r: &iss::record::SimpleRun) {
        assert_eq!(r.insns.len(), r.effects.len());
        assert!(!r.insns.is_empty(), "an empty run");
        self.runs += 1;
        r.for_each_record(|rec| self.retire(rec));
    }
    fn trap(&mut self, t: &TrapRecord) {
        self.seen.push(Seen::Trap(format!("{t:?}")));
    }
}

#[derive(Clone, Copy, Debug)]
enum Variant {
    /// The options the program's source names.
    AsShipped,
    /// Plus every PMU model: memory accesses take the slow path; runs are accounted one by one.
    Models,
    /// Plus 29 hpm counters counting instruction classes (per-run accounting without models).
    Counters,
    /// Plus CTR (from handlers; with the models, from the run loop).
    Ctr,
    /// Misaligned accesses emulated, not trapped.
    Misaligned,
}

fn machine(p: &PathBuf, v: Variant) -> Machine {
    let name = program_name(p);
    let bytes = std::fs::read(p).unwrap();
    machine_of(&name, program_options(&name), &bytes, v)
}

/// A machine of variant `v` with the options `args`, booted into the ELF `bytes` (of `name`).
fn machine_of(name: &str, mut args: Vec<String>, bytes: &[u8], v: Variant) -> Machine {
    // `--uart-input FILE` is the run's, not the hart's: the bytes go to the UART here.
    let input = args.iter().position(|a| a == "--uart-input").map(|i| {
        let f = args.get(i + 1).cloned().unwrap_or_default();
        args.drain(i..(i + 2).min(args.len()));
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(&f))
            .unwrap_or_else(|e| panic!("{name}: --uart-input {f}: {e}"))
    });
    match v {
        Variant::AsShipped | Variant::Misaligned => {}
        Variant::Models => args.extend(["--pmu-models".into(), "all".into()]),
        Variant::Counters => args.extend(["--hpm-counters".into(), "29".into()]),
        Variant::Ctr => {
            if !args.iter().any(|a| a == "--ctr" || a.contains("smctr")) {
                args.extend(["--isa".into(), "rv64gc_zicntr_zihpm_smctr_ssctr".into()]);
            }
        }
    }
    let base = Config {
        misaligned: match v {
            Variant::Misaligned => Misaligned::Emulate,
            _ => Misaligned::Trap,
        },
        ..Config::default()
    };
    let cfg = iss::options::HartOptions::from_args(&args)
        .and_then(|o| o.config(base))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut m = Machine::new(cfg);
    m.bus.console = iss::bus::Console::Null;
    if let Some(bytes) = &input {
        m.bus.uart.input.extend(bytes);
    }
    let prog = iss::elf::load(&mut m, bytes, name).unwrap();
    m.boot(prog.entry);
    m
}

fn run<const SIMPLE: bool>(p: &PathBuf, v: Variant) -> (Log<SIMPLE>, String) {
    let mut m = machine(p, v);
    let mut log = Log::<SIMPLE> {
        seen: Vec::new(),
        runs: 0,
    };
    let stop = m.run(&mut log, Some(LIMIT));
    (log, end_state(&m, stop))
}

/// How a run ended and the machine's state then.
fn end_state(m: &Machine, stop: iss::Stop) -> String {
    format!(
        "{stop:?} retired {} pc {:#x} x {:?} minstret {:?} mcycle {:?}",
        m.retired(),
        m.hart.pc,
        m.hart.x,
        m.csr_read(iss::csr::MINSTRET),
        m.csr_read(iss::csr::MCYCLE),
    )
}

#[rstest]
fn simple_runs_give_the_records_the_hart_builds(
    #[files("programs/bin/*.elf")] path: PathBuf,
    #[values(
        Variant::AsShipped,
        Variant::Models,
        Variant::Counters,
        Variant::Ctr,
        Variant::Misaligned
    )]
    v: Variant,
) {
    let name = program_name(&path);
    let (built, built_end) = run::<false>(&path, v);
    let (simple, simple_end) = run::<true>(&path, v);
    assert_eq!(built.runs, 0);
    let mut m = machine(&path, v);
    let stop = m.run(&mut iss::NoSink, Some(LIMIT));
    let untraced_end = end_state(&m, stop);
    assert_eq!(
        built_end, untraced_end,
        "{name} {v:?}: untraced ended apart"
    );
    same_events(&format!("{name} {v:?}"), &built.seen, &simple.seen);
    assert_eq!(
        built_end, simple_end,
        "{name} {v:?}: the machine ended apart"
    );

    // The runs must carry most instructions (else this tests the fallback only).
    assert!(
        simple.runs > 0 && built.seen.len() > 100,
        "{name} {v:?}: {} runs for {} events",
        simple.runs,
        built.seen.len()
    );
}

#[test]
fn every_program_has_a_case() {
    assert_every_program_has_a_case("simple_runs_give_the_records_the_hart_builds", &[]);
}

/// Passes of [`counted_loop`].
const PASSES: usize = 200;

/// A counted loop of [`PASSES`] passes over three blocks (one of them skipped every other
/// pass), each pass adding 3 to t1, storing it and loading it back; then a jump to itself.
/// `ctr`: CTR records M-mode transfers from the start (mctrctl.M).
fn counted_loop(ctr: bool) -> Vec<u8> {
    counted_loop_of(ctr, common::rv::addi(common::rv::T0, 0, PASSES as i32))
}

/// [`counted_loop`] with `count` setting t0 to the number of passes.
fn counted_loop_of(ctr: bool, count: u32) -> Vec<u8> {
    use common::rv::{addi, andi, auipc, beq, bne, jal, ld, sd, T0, T1, T2};
    let (t3, t4, t5) = (28, 29, 30);
    let mut code = Vec::new();
    if ctr {
        // csrrw zero, mctrctl, t6 with t6 = M.
        code.extend([
            addi(31, 0, 4),
            (0x34e << 20) | (31 << 15) | (1 << 12) | 0x73,
        ]);
    }
    code.extend([
        count,            // 0
        addi(T1, 0, 0),   // 4
        auipc(T2, 0x10),  // 8: t2 = 0x8001_0008, data
        addi(T1, T1, 3),  // 12: loop
        andi(t3, T1, 1),  // 16
        beq(t3, 0, 8),    // 20: to 28
        addi(t4, t4, 1),  // 24
        sd(T1, 0, T2),    // 28
        ld(t5, 0, T2),    // 32
        addi(T2, T2, 8),  // 36
        addi(T0, T0, -1), // 40
        bne(T0, 0, -32),  // 44: to 12
        jal(0, 0),        // 48
    ]);
    common::minimal_elf(&code)
}

/// A chain of simple runs that enters the same blocks again and again (a counted loop) keeps
/// each pass's effects apart: the records made from them are those the hart builds one
/// instruction at a time. Kept by the instruction's place in the decode cache instead, each
/// block's effects would be those of its last pass in the chain.
#[rstest]
fn a_chain_through_a_loop_keeps_each_pass(
    #[values(Variant::AsShipped, Variant::Counters, Variant::Ctr, Variant::Models)] v: Variant,
) {
    let elf = counted_loop(matches!(v, Variant::Ctr));
    let limit = 3000;
    let run = |simple: bool| {
        let args = match v {
            Variant::Ctr => ["--isa", "rv64gc_zicntr_zihpm_smctr", "--ctr", "1.0"]
                .map(String::from)
                .to_vec(),
            _ => Vec::new(),
        };
        let mut m = machine_of("loop", args, &elf, v);
        let mut log = Log::<true> {
            seen: Vec::new(),
            runs: 0,
        };
        let stop = if simple {
            m.run(&mut log, Some(limit))
        } else {
            m.run(&mut iss::record::OneByOne(&mut log), Some(limit))
        };
        (log, end_state(&m, stop))
    };
    let (built, built_end) = run(false);
    let (simple, simple_end) = run(true);
    assert_eq!(built.runs, 0);
    assert!(simple.runs > PASSES as u64, "{v:?}: {} runs", simple.runs);
    // The program did what it says: a store of each pass's own sum.
    let stored: std::collections::BTreeSet<u64> = built
        .seen
        .iter()
        .filter_map(|s| match s {
            Seen::Retired { mem, .. }
                if mem.len() == 1 && mem[0].kind == iss::record::MemKind::Store =>
            {
                Some(mem[0].value)
            }
            _ => None,
        })
        .collect();
    assert_eq!(stored.len(), PASSES, "{v:?}");
    same_events(&format!("{v:?}"), &built.seen, &simple.seen);
    assert_eq!(built_end, simple_end, "{v:?}");
}

/// A sink that takes each chain of simple runs at once ([`Sink::simple_chain`]), checks that
/// its runs follow one another, and hands each to a [`Log`] (as the trait's default does);
/// it counts the chains of several runs, and those that enter a block again.
struct ChainLog {
    log: Log<true>,
    several: u64,
    loops: u64,
}

impl Sink for ChainLog {
    const DETAIL: Detail = Detail::SimpleRuns;
    fn retire(&mut self, r: &Retired) {
        self.log.retire(r);
    }
    fn simple_chain(&mut self, c: &SimpleChain) {
        assert!(c.runs() != 0, "a chain of no runs");
        let (mut pcs, mut insns, mut next) = (Vec::new(), 0, None);
        for r in c.iter() {
            if let Some(pc) = next {
                assert_eq!(r.pc, pc, "a run starts where the one before went");
            }
            assert_eq!((r.prv, r.time, r.fetch_page), (c.prv, c.time, c.fetch_page));
            next = Some(r.next_pc);
            insns += r.insns.len();
            pcs.push(r.pc);
            self.log.simple_run(&r);
        }
        assert_eq!((pcs.len(), insns), (c.runs(), c.insns()));
        self.several += (c.runs() > 2) as u64;
        pcs.sort_unstable();
        self.loops += pcs.windows(2).any(|w| w[0] == w[1]) as u64;
    }
    fn trap(&mut self, t: &TrapRecord) {
        self.log.trap(t);
    }
}

/// The chains of simple runs a sink is handed ([`Sink::simple_chain`]) hold the runs it
/// hears one at a time through the trait's default (each to `simple_run`), whose records
/// are those the hart builds one instruction at a time: through a counted loop, whose
/// chains have several blocks and enter the same ones again, in every configuration that
/// changes how the hart runs.
#[rstest]
fn a_chain_holds_the_runs_of_its_blocks(
    #[values(
        Variant::AsShipped,
        Variant::Counters,
        Variant::Ctr,
        Variant::Misaligned
    )]
    v: Variant,
) {
    let elf = counted_loop(matches!(v, Variant::Ctr));
    let args = || match v {
        Variant::Ctr => ["--isa", "rv64gc_zicntr_zihpm_smctr", "--ctr", "1.0"]
            .map(String::from)
            .to_vec(),
        _ => Vec::new(),
    };
    let log = || Log::<true> {
        seen: Vec::new(),
        runs: 0,
    };
    let limit = Some(3000);
    let mut built = log();
    machine_of("loop", args(), &elf, v).run(&mut iss::record::OneByOne(&mut built), limit);
    let mut by_runs = log();
    machine_of("loop", args(), &elf, v).run(&mut by_runs, limit);
    let mut chains = ChainLog {
        log: log(),
        several: 0,
        loops: 0,
    };
    machine_of("loop", args(), &elf, v).run(&mut chains, limit);
    assert!(by_runs.runs > PASSES as u64, "{v:?}: {} runs", by_runs.runs);
    assert_eq!(chains.log.runs, by_runs.runs, "{v:?}");
    assert!(chains.several > 0 && chains.loops > 0, "{v:?}");
    same_events(&format!("{v:?} by runs"), &built.seen, &by_runs.seen);
    same_events(&format!("{v:?} chains"), &built.seen, &chains.log.seen);
    assert_eq!(built.seen.len(), chains.log.seen.len(), "{v:?}");
}

/// The tandem writer through the trait's default [`Sink::simple_chain`]: each run of a
/// chain to its `simple_run`.
struct ByRuns<'a, W: std::io::Write + Send + 'static>(&'a mut tandem::TandemWriter<W>);

impl<W: std::io::Write + Send + 'static> Sink for ByRuns<'_, W> {
    const DETAIL: Detail = Detail::SimpleRuns;
    fn retire(&mut self, r: &Retired) {
        self.0.retire(r);
    }
    fn simple_run(&mut self, r: &iss::record::SimpleRun) {
        self.0.simple_run(r);
    }
    fn trap(&mut self, t: &TrapRecord) {
        self.0.trap(t);
    }
}

/// The tandem writer's own loop over a chain's runs ([`Sink::simple_chain`]) writes the
/// stream it writes run by run and record by record, through a counted loop (chains of
/// several blocks, entering the same ones again) long enough that its buffers fill and go
/// to the writer thread many times, in the layouts of its plain path.
#[rstest]
fn the_tandem_writer_writes_a_chain_as_its_runs_and_records(
    #[values(
        tandem::WriterConfig::flute(),
        tandem::WriterConfig::spec(),
        tandem::WriterConfig { paddr: true, store_data: false, ..tandem::WriterConfig::flute() }
    )]
    cfg: tandem::WriterConfig,
) {
    // 32768 passes (t0 = 8 << 12).
    let elf = counted_loop_of(false, common::rv::lui(common::rv::T0, 8));
    let limit = Some(250_000);
    let stream = |how: u8| {
        let (mut m, prog) =
            tandem::session::machine(&elf, "loop", tandem::session::HartConfig::default()).unwrap();
        let mut w = tandem::session::writer(&m, &prog, &cfg, Vec::new()).unwrap();
        let mut chains = ChainLog {
            log: Log {
                seen: Vec::new(),
                runs: 0,
            },
            several: 0,
            loops: 0,
        };
        match how {
            0 => m.run(&mut (&mut chains, &mut w), limit),
            1 => m.run(&mut ByRuns(&mut w), limit),
            _ => m.run(&mut iss::record::OneByOne(&mut w), limit),
        };
        if how == 0 {
            assert!(chains.several > 0 && chains.loops > 0);
        }
        assert_eq!(m.retired(), 250_000);
        w.finish(Some(m.hart.prv)).unwrap().0
    };
    let (chains, runs, records) = (stream(0), stream(1), stream(2));
    assert!(records.len() > 3 << 20, "{} bytes", records.len());
    for (how, s) in [("chains", &chains), ("runs", &runs)] {
        if let Some(i) = s.iter().zip(&records).position(|(a, b)| a != b) {
            panic!("{cfg:?}: by {how}, the stream differs from byte {i}");
        }
        assert_eq!(s.len(), records.len(), "{cfg:?}: by {how}");
    }
}

/// A chain of simple runs that starts at a block's end marker, after an atomic (whose record
/// is built) that ended its block (the CSR instruction after it starts a block of its own),
/// reports no empty run for that block; the records are those built one at a time.
#[test]
fn a_chain_from_an_end_marker_reports_no_empty_run() {
    use common::rv::{addi, auipc, bne, csrrs, jal, MSCRATCH, T0, T1, T2};
    let t3 = 28;
    // amoadd.w t2, t1, (t3)
    let amoadd = (T1 << 20) | (t3 << 15) | (2 << 12) | (T2 << 7) | 0x2f;
    let elf = common::minimal_elf(&[
        addi(T0, 0, 100),       // 0
        auipc(t3, 0x10),        // 4: t3 = 0x8001_0004, data
        amoadd,                 // 8: loop
        csrrs(T1, MSCRATCH, 0), // 12
        addi(T1, T1, 1),        // 16
        addi(T0, T0, -1),       // 20
        bne(T0, 0, -16),        // 24: to 8
        jal(0, 0),              // 28
    ]);
    let run = |simple: bool| {
        let mut m = machine_of("csr_loop", Vec::new(), &elf, Variant::AsShipped);
        let mut log = Log::<true> {
            seen: Vec::new(),
            runs: 0,
        };
        if simple {
            m.run(&mut log, Some(1000));
        } else {
            m.run(&mut iss::record::OneByOne(&mut log), Some(1000));
        }
        log
    };
    let (built, simple) = (run(false), run(true));
    assert!(simple.runs > 100, "{} runs", simple.runs);
    assert_eq!(built.seen, simple.seen);
}

/// A sink of runs: the pc and next pc of each instruction they hold, and each trap's pc and
/// handler, in order.
#[derive(Default)]
struct Flow {
    seen: Vec<(u64, u64)>,
    /// Runs that came in `blocks`.
    in_blocks: u64,
}

impl Sink for Flow {
    const DETAIL: Detail = Detail::Runs;
    fn retire(&mut self, _: &Retired) {
        unreachable!("a runs sink gets no records")
    }
    fn run(&mut self, r: &Run) {
        assert!(!r.insns.is_empty(), "an empty run at {:#x}", r.pc);
        let mut pc = r.pc;
        for (i, d) in r.insns.iter().enumerate() {
            let next = if i + 1 == r.insns.len() {
                r.next_pc
            } else {
                pc + d.len as u64
            };
            self.seen.push((pc, next));
            pc = next;
        }
    }
    fn blocks(&mut self, b: &Blocks) {
        self.in_blocks += b.len() as u64;
        b.for_each_run(|r| self.run(r));
    }
    fn trap(&mut self, t: &TrapRecord) {
        self.seen.push((t.epc, t.handler));
    }
}

/// Only what a sink of single runs has: the default `blocks`, which hands each run to `run`.
struct RunByRun<S>(S);

impl<S: Sink> Sink for RunByRun<S> {
    const DETAIL: Detail = S::DETAIL;
    fn retire(&mut self, r: &Retired) {
        self.0.retire(r)
    }
    fn run(&mut self, r: &Run) {
        self.0.run(r)
    }
    fn trap(&mut self, t: &TrapRecord) {
        self.0.trap(t)
    }
    fn trigger(&mut self, bits: u8) {
        self.0.trigger(bits)
    }
}

/// The events of a capture, batch after batch.
#[derive(Default)]
struct Events(Vec<PortEvent>);

impl EventSink for Events {
    fn events(&mut self, batch: &mut PortBatch) {
        self.0.extend_from_slice(batch.events());
        batch.clear();
    }
}

fn capture<S: Sink>(p: &PathBuf, v: Variant, wrap: impl FnOnce(Capture<Events>) -> S) -> S {
    let mut m = machine(p, v);
    let cfg = IngressConfig::default();
    let mut sink = wrap(Capture::new(&cfg, Events::default(), &m.hart.csr));
    m.run(&mut sink, Some(LIMIT));
    sink
}

#[rstest]
fn runs_give_the_instructions_that_retire(
    #[files("programs/bin/*.elf")] path: PathBuf,
    #[values(Variant::AsShipped, Variant::Counters, Variant::Ctr)] v: Variant,
) {
    let name = program_name(&path);
    let (built, _) = run::<false>(&path, v);
    let want: Vec<(u64, u64)> = built
        .seen
        .iter()
        .filter_map(|s| match s {
            Seen::Retired {
                pc,
                next_pc,
                exception: None,
                ..
            } => Some((*pc, *next_pc)),
            Seen::Retired { .. } => None,
            Seen::Trap(_) => Some((0, 0)),
        })
        .collect();
    let mut m = machine(&path, v);
    let mut flow = Flow::default();
    m.run(&mut flow, Some(LIMIT));
    // Traps: only where they fall (their records are compared by the other tests).
    let got: Vec<(u64, u64)> = flow
        .seen
        .iter()
        .zip(&want)
        .map(|(g, w)| if *w == (0, 0) { (0, 0) } else { *g })
        .collect();
    if let Some(i) = got.iter().zip(&want).position(|(a, b)| a != b) {
        panic!(
            "{name} {v:?}: instruction {i}: runs {:x?}, records {:x?}",
            got[i], want[i]
        );
    }
    assert_eq!(flow.seen.len(), want.len(), "{name} {v:?}");
    // A program that runs long enough runs chains of blocks (else this tests single runs only).
    if want.len() > 100_000 {
        assert!(flow.in_blocks > 0, "{name} {v:?}: no chain of blocks");
    }

    // The N-Trace capture's events, from chains' blocks at once or run by run.
    let whole = capture(&path, v, |c| c).finish().0;
    let single = capture(&path, v, RunByRun).0.finish().0;
    if let Some(i) = whole.iter().zip(&single).position(|(a, b)| a != b) {
        panic!(
            "{name} {v:?}: capture event {i}: {:?} in blocks, {:?} run by run",
            whole[i], single[i]
        );
    }
    assert_eq!(whole.len(), single.len(), "{name} {v:?}");
    assert!(!whole.is_empty(), "{name} {v:?}");
}

#[test]
fn every_program_has_a_runs_case() {
    assert_every_program_has_a_case("runs_give_the_instructions_that_retire", &[]);
}

/// A loop whose first block is a branch to its own fall-through, taken every other pass:
/// the next pc does not tell its direction, which the PMU's class counts must have from the
/// registers as the branch saw them. Counted untraced, in simple runs and one instruction at
/// a time, the branches taken and not taken are the same.
#[test]
fn a_branch_to_its_own_fall_through_counts_its_direction() {
    use common::rv::{addi, beq, bne, jal, xori, T0};
    let t3 = 28;
    let elf = common::minimal_elf(&[
        addi(T0, 0, 0),   // 0
        addi(t3, 0, 300), // 4
        beq(T0, 0, 4),    // 8: to 12, its own fall-through
        xori(T0, T0, 1),  // 12
        addi(t3, t3, -1), // 16
        bne(t3, 0, -12),  // 20: to 8
        jal(0, 0),        // 24
    ]);
    let counts = |how: usize| {
        let mut m = machine_of("own_fall", Vec::new(), &elf, Variant::Counters);
        for (i, ev) in [(3, 0x20004), (4, 0x20005)] {
            assert!(m.set_reg(iss::csr::MHPMEVENT3 + i - 3, ev));
            assert!(m.set_reg(iss::csr::MHPMCOUNTER3 + i - 3, 0));
        }
        assert!(m.set_reg(iss::csr::MCOUNTINHIBIT, 0));
        let mut log = Log::<true> {
            seen: Vec::new(),
            runs: 0,
        };
        let limit = Some(2000);
        match how {
            0 => m.run(&mut iss::NoSink, limit),
            1 => m.run(&mut log, limit),
            _ => m.run(&mut iss::record::OneByOne(&mut log), limit),
        };
        (m.hart.pmu.counter(3), m.hart.pmu.counter(4))
    };
    let built = counts(2);
    // 300 beq (150 each way), 299 bne taken and one not.
    assert_eq!(built, (150 + 299, 150 + 1));
    assert_eq!(counts(1), built, "simple runs");
    assert_eq!(counts(0), built, "untraced");
}

/// The events the records gave (`built`) and the simple runs gave (`simple`) are the same:
/// else name the first that differs, in `what`.
fn same_events(what: &str, built: &[Seen], simple: &[Seen]) {
    if let Some(i) = built.iter().zip(simple).position(|(a, b)| a != b) {
        panic!(
            "{what}: event {i} differs\n  built:  {:?}\n  simple: {:?}",
            built[i], simple[i]
        );
    }
    assert_eq!(built.len(), simple.len(), "{what}");
}
