//! N-Trace round trips: every program in `programs/bin/`, under many encoder configurations.
//! The hart runs the program twice (it is deterministic): once collecting the instructions it
//! retires from its full retirement records (independently of the ingress port: retired
//! instructions, plus ecall and ebreak, which trace counts as retired), once feeding the ingress
//! port and the encoder. The decoder, given the stream and the ELF, must give back exactly the
//! first sequence, with no error.

use encoder::decoder::{Decoder, DecoderConfig, Event, FlowSink};
use encoder::encoder::{Encoder, EncoderConfig, BTM, HTM};
use encoder::image::Image;
use iss::ingress::{Beat, BeatSink, DataBeat, IngressConfig, IngressPort, Retirement};
use iss::{Config, Exception, Machine, Retired, Sink, Stop, TrapRecord};
use std::path::{Path, PathBuf};

fn programs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../programs/bin");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("programs/bin")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "elf"))
        .collect();
    v.sort();
    v
}

/// Instructions the bench program may run in these tests.
const BENCH_LIMIT: u64 = 3_000_000;
/// Instructions any other program may run.
const LIMIT: u64 = 50_000_000;

fn limit_for(p: &Path) -> u64 {
    if p.file_stem().is_some_and(|s| s == "bench") {
        BENCH_LIMIT
    } else {
        LIMIT
    }
}

fn machine(p: &Path) -> (Machine, Vec<u8>) {
    let bytes = std::fs::read(p).unwrap();
    let mut m = Machine::new(Config::default());
    m.bus.console = iss::bus::Console::Null;
    let prog = iss::elf::load(&mut m, &bytes, &p.display().to_string()).unwrap();
    m.boot(prog.entry);
    (m, bytes)
}

/// The retired pcs, from full records.
#[derive(Default)]
struct Expect(Vec<u64>);

impl Sink for Expect {
    const ENABLED: bool = true;
    fn retire(&mut self, r: &Retired) {
        let traced = match r.exception {
            None => true,
            Some((c, _)) => matches!(
                c,
                iss::Cause::Exception(
                    Exception::EcallFromU
                        | Exception::EcallFromS
                        | Exception::EcallFromM
                        | Exception::Breakpoint
                )
            ),
        };
        if traced {
            self.0.push(r.pc);
        }
    }
    fn trap(&mut self, _: &TrapRecord) {}
}

/// Feeds beats straight to an encoder writing into memory.
struct Direct(Option<Encoder<Vec<u8>>>, Vec<u8>);

impl BeatSink for Direct {
    fn beats(&mut self, beats: &[Beat], _: &[DataBeat]) {
        let e = self.0.as_mut().unwrap();
        for b in beats {
            e.beat(b);
        }
    }
    fn finish(&mut self, next_pc: u64, prv: u8) -> std::io::Result<()> {
        let (bytes, _) = self.0.take().unwrap().finish(next_pc, prv)?;
        self.1 = bytes;
        Ok(())
    }
}

#[derive(Default)]
struct Collect {
    pcs: Vec<u64>,
    errors: Vec<String>,
    lost: usize,
}

impl FlowSink for Collect {
    fn pc(&mut self, pc: u64) {
        self.pcs.push(pc);
    }
    fn event(&mut self, e: &Event) {
        match e {
            Event::Error { offset, message } => self.errors.push(format!("@{offset}: {message}")),
            Event::Lost { .. } => self.lost += 1,
            _ => {}
        }
    }
}

fn decoder_config(e: &EncoderConfig) -> DecoderConfig {
    DecoderConfig {
        tr_te_inst_mode: e.tr_te_inst_mode,
        format: e.format(),
        implicit_return_mode: e.tr_te_inst_implicit_return_mode,
        implicit_return_depth: e.implicit_return_depth,
        partial_bits: e.partial_bits,
        sequential_jump: e.tr_te_inst_en_sequential_jump,
        all_jumps: e.tr_te_inst_en_all_jumps,
        repeat_branch: e.tr_te_inst_en_repeat_branch,
        repeated_history: e.tr_te_inst_en_repeated_history,
        src_filter: None,
    }
}

/// Trace `p` under `cfg` and decode; returns (expected, decoded).
fn round_trip(
    p: &Path,
    mut cfg: EncoderConfig,
    icfg: IngressConfig,
) -> (Vec<u64>, Collect, Vec<u8>) {
    let limit = limit_for(p);
    let (mut m, elf) = machine(p);
    let mut expect = Expect::default();
    let stop1 = m.run(&mut expect, Some(limit));

    cfg.retirement = icfg.retirement;
    let (mut m, _) = machine(p);
    let enc = Encoder::new(cfg.clone(), Vec::new()).unwrap();
    let mut port: IngressPort<Direct, false> =
        IngressPort::new(icfg, Direct(Some(enc), Vec::new()), &m.hart.csr);
    let stop2 = m.run(&mut port, Some(limit));
    assert_eq!(stop1, stop2, "{}: the two runs differ", p.display());
    let bytes = port.finish().unwrap().1;

    let image = Image::from_elf(&elf, &p.display().to_string()).unwrap();
    let mut dec = Decoder::new(decoder_config(&cfg), image).unwrap();
    let mut got = Collect::default();
    dec.decode_all(&bytes, &mut got);
    (expect.0, got, bytes)
}

fn first_difference(a: &[u64], b: &[u64]) -> Option<usize> {
    (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i))
}

fn check(name: &str, p: &Path, cfg: EncoderConfig, icfg: IngressConfig) {
    let (expect, got, bytes) = round_trip(p, cfg, icfg);
    let prog = p.file_stem().unwrap().to_string_lossy();
    assert!(
        got.errors.is_empty(),
        "{prog} [{name}]: decoding errors ({} bytes): {:?}",
        bytes.len(),
        &got.errors[..got.errors.len().min(5)]
    );
    if let Some(i) = first_difference(&expect, &got.pcs) {
        panic!(
            "{prog} [{name}]: decoded flow differs at instruction {i} of {} (decoded {}): expected {:x?}, got {:x?}",
            expect.len(),
            got.pcs.len(),
            &expect[i.saturating_sub(3)..(i + 3).min(expect.len())],
            &got.pcs[i.saturating_sub(3)..(i + 3).min(got.pcs.len())],
        );
    }
}

fn base() -> EncoderConfig {
    EncoderConfig::default()
}

fn block() -> IngressConfig {
    IngressConfig::default()
}

fn single() -> IngressConfig {
    IngressConfig {
        retirement: Retirement::Single,
        ..IngressConfig::default()
    }
}

/// The configurations every program is traced under.
fn configs() -> Vec<(&'static str, EncoderConfig, IngressConfig)> {
    let htm = base();
    let btm = EncoderConfig {
        tr_te_inst_mode: BTM,
        ..base()
    };
    let mut v = vec![
        ("htm", htm.clone(), block()),
        ("btm", btm.clone(), block()),
        ("htm-single", htm.clone(), single()),
        ("btm-single", btm.clone(), single()),
    ];
    for mode in 1..=3 {
        v.push((
            ["", "htm-ir1", "htm-ir2", "htm-ir3"][mode as usize],
            EncoderConfig {
                tr_te_inst_implicit_return_mode: mode,
                ..htm.clone()
            },
            block(),
        ));
        v.push((
            ["", "btm-ir1", "btm-ir2", "btm-ir3"][mode as usize],
            EncoderConfig {
                tr_te_inst_implicit_return_mode: mode,
                implicit_return_depth: 4,
                ..btm.clone()
            },
            block(),
        ));
    }
    v.push((
        "htm-ir3-rh-seq",
        EncoderConfig {
            tr_te_inst_implicit_return_mode: 3,
            tr_te_inst_en_repeated_history: true,
            tr_te_inst_en_sequential_jump: true,
            ..htm.clone()
        },
        block(),
    ));
    v.push((
        "htm-rh-small",
        EncoderConfig {
            tr_te_inst_en_repeated_history: true,
            hist_bits: 8,
            icnt_bits: 8,
            ..htm.clone()
        },
        IngressConfig {
            retirement: Retirement::Block { max_halfwords: 16 },
            ..block()
        },
    ));
    v.push((
        "btm-repeat-seq",
        EncoderConfig {
            tr_te_inst_en_repeat_branch: true,
            tr_te_inst_en_sequential_jump: true,
            ..btm.clone()
        },
        single(),
    ));
    v.push((
        "htm-sync-msgs",
        EncoderConfig {
            tr_te_inst_sync_mode: 1,
            tr_te_inst_sync_max: 0,
            ..htm.clone()
        },
        block(),
    ));
    v.push((
        "btm-sync-hw",
        EncoderConfig {
            tr_te_inst_sync_mode: 3,
            tr_te_inst_sync_max: 2,
            ..btm.clone()
        },
        block(),
    ));
    v.push((
        "htm-overflows",
        EncoderConfig {
            icnt_bits: 5,
            hist_bits: 4,
            ..htm.clone()
        },
        single(),
    ));
    v.push((
        "btm-overflows",
        EncoderConfig {
            icnt_bits: 5,
            ..btm.clone()
        },
        single(),
    ));
    v.push((
        "htm-ts-src-ext-ctx",
        EncoderConfig {
            tr_ts_enable: true,
            tr_te_src_bits: 6,
            tr_te_src_id: 37,
            tr_te_inst_extend_addr_msb: true,
            tr_te_context: true,
            ..htm.clone()
        },
        block(),
    ));
    v.push((
        "btm-ts-src-ext-ctx",
        EncoderConfig {
            tr_ts_enable: true,
            tr_te_src_bits: 3,
            tr_te_src_id: 5,
            tr_te_inst_extend_addr_msb: true,
            tr_te_context: true,
            ..btm.clone()
        },
        single(),
    ));
    v.push((
        "htm-alljumps-3bit",
        EncoderConfig {
            tr_te_inst_en_all_jumps: true,
            ..htm.clone()
        },
        IngressConfig {
            all_jumps: true,
            itype_width: 3,
            ..single()
        },
    ));
    v
}

macro_rules! program_tests {
    ($($name:ident),* $(,)?) => {$(
        #[test]
        fn $name() {
            let p = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(concat!("../programs/bin/", stringify!($name), ".elf"));
            for (cname, cfg, icfg) in configs() {
                check(cname, &p, cfg, icfg);
            }
        }
    )*};
}

program_tests!(
    bench, cprog, csr, deleg, finisher, hello, htif_write, interrupts, pmp, rv64a, rv64d, rv64f,
    rv64i, rv64m, rvc, smode, sv39, sv48, traps, umode,
);

#[test]
fn every_program_is_covered() {
    let covered = [
        "bench",
        "cprog",
        "csr",
        "deleg",
        "finisher",
        "hello",
        "htif_write",
        "interrupts",
        "pmp",
        "rv64a",
        "rv64d",
        "rv64f",
        "rv64i",
        "rv64m",
        "rvc",
        "smode",
        "sv39",
        "sv48",
        "traps",
        "umode",
        "fencei",
    ];
    for p in programs() {
        let n = p.file_stem().unwrap().to_string_lossy().to_string();
        assert!(
            covered.contains(&n.as_str()),
            "programs/bin/{n}.elf has no round-trip test"
        );
    }
}

#[test]
fn stop_reasons_are_exits() {
    // The programs finish (the round trips above cover whole runs).
    for p in programs() {
        if p.file_stem().is_some_and(|s| s == "bench") {
            continue;
        }
        let (mut m, _) = machine(&p);
        let stop = m.run(&mut iss::NoSink, Some(LIMIT));
        assert!(matches!(stop, Stop::Exit(0)), "{}: {stop:?}", p.display());
    }
}
