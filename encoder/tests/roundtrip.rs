//! N-Trace round trips: every program in `programs/bin/`, under many encoder configurations
//! and through every way the ingress port can be driven.
//!
//! The hart runs the program twice (it is deterministic): once collecting the instructions it
//! retires from its full retirement records (independently of the ingress port: retired
//! instructions, plus ecall and ebreak, which trace counts as retired), once feeding the ingress
//! port and the encoder. The decoder, given the stream and the program image, must give back
//! exactly the first sequence, with no error. Where the trace loses messages (a full FIFO) or
//! is switched off (filters, triggers), each stretch the decoder reconstructs between two
//! reported gaps must be exactly a stretch of the retired sequence, in order.
//!
//! The image is the ELF, with aliases for the virtual pages the program ran from (Sv39/Sv48),
//! and for a program that writes code before running it, the code as it is in memory (the
//! ELF cannot know it). A program that runs code it later rewrites (`fencei`) cannot be decoded
//! from any one image: it is traced, and its flow checked up to its first rewrite.

mod common;

use common::{verify, Case, Drive, Expect, Expectation, Outcome};
use encoder::encoder::{EncoderConfig, Filter, TraceControl, BTM};
use encoder::image::Image;
use iss::ingress::{IngressConfig, Retirement};
use iss::{Config, Machine, Stop};
use std::cell::Cell;
use std::collections::BTreeSet;
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
const BENCH_LIMIT: u64 = 2_000_000;
/// Instructions any other program may run.
const LIMIT: u64 = 50_000_000;
const PAGE: u64 = 4096;

fn limit_for(p: &Path) -> u64 {
    if p.file_stem().is_some_and(|s| s == "bench") {
        BENCH_LIMIT
    } else {
        LIMIT
    }
}

/// The value of the `hartscope-options:` line in a program's source header: the options
/// `hartscope run` needs for it (an ISA extension, the built-in SBI...).
fn program_options(p: &Path) -> Vec<String> {
    let name = p.file_stem().unwrap().to_string_lossy();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../programs");
    let src = ["S", "c"]
        .iter()
        .find_map(|ext| std::fs::read_to_string(dir.join(format!("{name}.{ext}"))).ok())
        .unwrap_or_default();
    let key = "hartscope-options:";
    src.lines()
        .find_map(|l| {
            Some(
                l[l.find(key)? + key.len()..]
                    .trim()
                    .trim_end_matches("*/")
                    .to_string(),
            )
        })
        .map(|v| v.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

/// The hart's options of a program, and the bytes of its `--uart-input FILE` (a run option,
/// not the hart's), if it has one.
fn hart_options(p: &Path) -> (Vec<String>, Option<Vec<u8>>) {
    let mut args = program_options(p);
    let input = args.iter().position(|a| a == "--uart-input").map(|i| {
        let f = args.get(i + 1).cloned().unwrap_or_default();
        args.drain(i..(i + 2).min(args.len()));
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(&f))
            .unwrap_or_else(|e| panic!("{}: --uart-input {f}: {e}", p.display()))
    });
    (args, input)
}

thread_local! {
    /// An ISA string the current test runs its programs with instead of their own (the
    /// extension programs run once as they are, with their extension off, and once with it on).
    static ISA: std::cell::RefCell<Option<&'static str>> = const { std::cell::RefCell::new(None) };
}

/// The machine configuration those options describe, as `hartscope run` builds it.
fn config_for(p: &Path) -> Config {
    let mut args = hart_options(p).0;
    if let Some(isa) = ISA.with(|i| *i.borrow()) {
        args.extend(["--isa".to_string(), isa.to_string()]);
    }
    iss::options::HartOptions::from_args(&args)
        .and_then(|o| o.config(Config::default()))
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The extension programs with their extensions on: their new instructions execute (none of
/// them is a transfer), and the trace decodes to the same pc flow.
#[rstest::rstest]
#[case("isa_zcb", "rv64gcb_zcb")]
#[case("isa_hints", "rv64gc_zicbop_zihintntl_zihintpause")]
#[case("isa_cbo", "rv64gc_zicbom_zicboz")]
#[case("isa_cbo_sv39", "rv64gc_zicbom_zicboz")]
#[case("isa_zfa", "rv64gc_zfa")]
fn extension_programs_with_their_extensions(#[case] name: &str, #[case] isa: &'static str) {
    ISA.with(|i| *i.borrow_mut() = Some(isa));
    let p = program(name);
    for c in cases(main_of(&p)) {
        check(&p, &c);
    }
}

fn machine(p: &Path) -> (Machine, Vec<u8>) {
    let bytes = std::fs::read(p).unwrap();
    let mut m = Machine::new(config_for(p));
    m.bus.console = iss::bus::Console::Null;
    if let Some(bytes) = hart_options(p).1 {
        m.bus.uart.input.extend(&bytes);
    }
    let prog = iss::elf::load(&mut m, &bytes, &p.display().to_string()).unwrap();
    m.boot(prog.entry);
    (m, bytes)
}

/// The image a decoder needs for the run: the ELF, aliases for the virtual pages the program
/// ran from, and, if the program wrote code before running it, the code as it was in memory.
/// Returns the image and whether the code the program ran is the ELF's.
fn image_for(p: &Path, elf: &[u8], exp: &Expect, m: &Machine) -> (Image, bool) {
    let (fresh, _) = machine(p);
    let phys: BTreeSet<u64> = exp.pages.values().copied().collect();
    let page = |m: &Machine, pa: u64| {
        let mut b = vec![0u8; PAGE as usize];
        m.bus.read_phys(pa, &mut b).then_some(b)
    };
    let bytes = |m: &Machine, pa: u64, len: u8| {
        let mut b = vec![0u8; len as usize];
        m.bus.read_phys(pa, &mut b).then_some(b)
    };
    let same = exp
        .code
        .iter()
        .all(|&(pa, len)| bytes(&fresh, pa, len) == bytes(m, pa, len));
    let mut img = if same {
        Image::from_elf(elf, &p.display().to_string()).unwrap()
    } else {
        // Contiguous pages make one segment (an instruction may straddle two pages).
        let mut img = Image::new();
        let mut run: Option<(u64, Vec<u8>)> = None;
        for &pa in &phys {
            let bytes = page(m, pa).expect("code in RAM");
            run = match run {
                Some((start, mut v)) if start + v.len() as u64 == pa => {
                    v.extend(bytes);
                    Some((start, v))
                }
                Some((start, v)) => {
                    img.add_raw(start, v).unwrap();
                    Some((pa, bytes))
                }
                None => Some((pa, bytes)),
            };
        }
        if let Some((start, v)) = run {
            img.add_raw(start, v).unwrap();
        }
        img
    };
    for (&va, &pa) in &exp.pages {
        if va != pa {
            img.alias(va, pa, PAGE).unwrap();
        }
    }
    (img, same)
}

/// Trace `p` as `case` says and decode; also says whether the code the program ran is the
/// ELF's.
fn round_trip(p: &Path, case: &Case) -> (Outcome, bool) {
    let elf = std::fs::read(p).unwrap();
    let from_elf = Cell::new(true);
    let o = common::round_trip(
        &|| machine(p).0,
        |exp, m| {
            let (img, same) = image_for(p, &elf, exp, m);
            from_elf.set(same);
            img
        },
        case,
        limit_for(p),
    );
    (o, from_elf.get())
}

fn check(p: &Path, case: &Case) {
    let (o, code_from_elf) = round_trip(p, case);
    let prog = p.file_stem().unwrap().to_string_lossy().to_string();
    // With the built-in SBI nothing runs in M-mode: an M-only filter traces nothing.
    let require_some = !(config_for(p).sbi && case.name.contains("m-only"));
    if let Err(e) = verify(&prog, case, &o, require_some) {
        panic!("{e}");
    }
    if common::implicit_return_cut(&case.cfg, &o.expect).is_some() {
        return;
    }
    // These copy code into pages (and run it there) before running it; sbi_ext patches an
    // instruction (made visible by remote_fence_i) that does not change the control flow.
    let writes_code = ["pmp", "sv39", "sv48", "sbi_ext"].contains(&prog.as_str());
    assert_eq!(
        !code_from_elf, writes_code,
        "{prog}: whether it ran code the ELF does not hold"
    );
}

fn htm() -> EncoderConfig {
    EncoderConfig::default()
}

fn btm() -> EncoderConfig {
    EncoderConfig {
        control: TraceControl {
            tr_te_inst_mode: BTM,
            ..TraceControl::default()
        },
        ..EncoderConfig::default()
    }
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

fn case(name: &'static str, cfg: EncoderConfig, icfg: IngressConfig) -> Case {
    Case {
        name,
        cfg,
        icfg,
        drive: Drive::Capture,
        expect: Expectation::Exact,
    }
}

/// The configurations every program is traced under. `main` is the program's `main`.
fn cases(main: u64) -> Vec<Case> {
    let mut v = vec![
        case("htm", htm(), block()),
        case("btm", btm(), block()),
        Case {
            drive: Drive::Runs,
            ..case("htm-runs", htm(), block())
        },
        Case {
            drive: Drive::Records,
            ..case("btm-records", btm(), block())
        },
        case("htm-single", htm(), single()),
        Case {
            drive: Drive::Records,
            ..case("btm-single-records", btm(), single())
        },
    ];
    for mode in 1..=3u8 {
        v.push(case(
            ["", "htm-ir1", "htm-ir2", "htm-ir3"][mode as usize],
            EncoderConfig {
                control: TraceControl {
                    tr_te_inst_implicit_return_mode: mode,
                    ..htm().control
                },
                ..htm()
            },
            block(),
        ));
        v.push(case(
            ["", "btm-ir1-depth4", "btm-ir2-depth4", "btm-ir3-depth4"][mode as usize],
            EncoderConfig {
                control: TraceControl {
                    tr_te_inst_implicit_return_mode: mode,
                    ..btm().control
                },
                implicit_return_depth: 4,
                ..btm()
            },
            block(),
        ));
    }
    v.push(case(
        "htm-ir2-partial3",
        EncoderConfig {
            control: TraceControl {
                tr_te_inst_implicit_return_mode: 2,
                ..htm().control
            },
            partial_bits: 3,
            ..htm()
        },
        block(),
    ));
    v.push(case(
        "htm-ir3-rh-seq",
        EncoderConfig {
            control: TraceControl {
                tr_te_inst_implicit_return_mode: 3,
                tr_te_inst_en_repeated_history: true,
                tr_te_inst_en_sequential_jump: true,
                ..htm().control
            },
            ..htm()
        },
        block(),
    ));
    v.push(case(
        "htm-rh-small-blocks",
        EncoderConfig {
            control: TraceControl {
                tr_te_inst_en_repeated_history: true,
                ..htm().control
            },
            hist_bits: 8,
            icnt_bits: 8,
            ..htm()
        },
        IngressConfig {
            retirement: Retirement::Block { max_halfwords: 16 },
            ..block()
        },
    ));
    v.push(case(
        "btm-repeat-seq",
        EncoderConfig {
            control: TraceControl {
                tr_te_inst_en_repeat_branch: true,
                tr_te_inst_en_sequential_jump: true,
                ..btm().control
            },
            ..btm()
        },
        single(),
    ));
    v.push(case(
        "htm-sync-msgs",
        EncoderConfig {
            control: TraceControl {
                tr_te_inst_sync_mode: 1,
                tr_te_inst_sync_max: 0,
                ..htm().control
            },
            ..htm()
        },
        block(),
    ));
    v.push(case(
        "btm-sync-hw",
        EncoderConfig {
            control: TraceControl {
                tr_te_inst_sync_mode: 3,
                tr_te_inst_sync_max: 2,
                ..btm().control
            },
            ..btm()
        },
        block(),
    ));
    v.push(case(
        "htm-overflows",
        EncoderConfig {
            icnt_bits: 5,
            hist_bits: 4,
            ..htm()
        },
        single(),
    ));
    v.push(case(
        "btm-overflows",
        EncoderConfig {
            icnt_bits: 5,
            ..btm()
        },
        single(),
    ));
    v.push(case(
        "htm-ts-src-ext-ctx",
        EncoderConfig {
            control: TraceControl {
                tr_ts_enable: true,
                tr_te_src_bits: 6,
                tr_te_src_id: 37,
                tr_te_inst_extend_addr_msb: true,
                tr_te_context: true,
                ..htm().control
            },
            ..htm()
        },
        block(),
    ));
    v.push(Case {
        drive: Drive::Runs,
        ..case(
            "btm-ts-src-ext-ctx",
            EncoderConfig {
                control: TraceControl {
                    tr_ts_enable: true,
                    tr_te_src_bits: 3,
                    tr_te_src_id: 5,
                    tr_te_inst_extend_addr_msb: true,
                    tr_te_context: true,
                    ..btm().control
                },
                ..btm()
            },
            single(),
        )
    });
    v.push(case(
        "htm-alljumps-3bit",
        EncoderConfig {
            control: TraceControl {
                tr_te_inst_en_all_jumps: true,
                ..htm().control
            },
            ..htm()
        },
        IngressConfig {
            control: iss::trace_control::PortControl {
                tr_te_inst_en_all_jumps: true,
            },
            itype_width: 3,
            ..block()
        },
    ));
    v.push(Case {
        drive: Drive::Runs,
        ..case(
            "btm-alljumps-3bit-single",
            EncoderConfig {
                control: TraceControl {
                    tr_te_inst_en_all_jumps: true,
                    ..btm().control
                },
                ..btm()
            },
            IngressConfig {
                control: iss::trace_control::PortControl {
                    tr_te_inst_en_all_jumps: true,
                },
                itype_width: 3,
                ..single()
            },
        )
    });
    // Loss and trace control: exact between the gaps the stream reports.
    v.push(Case {
        expect: Expectation::Stretches,
        ..case(
            "htm-fifo-drops",
            EncoderConfig {
                control: TraceControl {
                    tr_te_inst_stall_ena: false,
                    ..htm().control
                },
                fifo_bytes: 64,
                drain_per_khw: 40,
                ..htm()
            },
            block(),
        )
    });
    v.push(Case {
        expect: Expectation::Stretches,
        ..case(
            "btm-fifo-drops-ts",
            EncoderConfig {
                control: TraceControl {
                    tr_te_inst_stall_ena: false,
                    tr_ts_enable: true,
                    ..btm().control
                },
                fifo_bytes: 96,
                drain_per_khw: 200,
                ..btm()
            },
            single(),
        )
    });
    v.push(Case {
        expect: Expectation::Stretches,
        ..case(
            "htm-filter-from-main",
            EncoderConfig {
                control: TraceControl {
                    filter: Some(Filter {
                        start: main,
                        end: u64::MAX,
                        privs: 0b1011,
                    }),
                    ..htm().control
                },
                ..htm()
            },
            block(),
        )
    });
    v.push(Case {
        expect: Expectation::Stretches,
        ..case(
            "btm-filter-m-only-ir3",
            EncoderConfig {
                control: TraceControl {
                    filter: Some(Filter {
                        start: 0,
                        end: u64::MAX,
                        privs: 0b1000,
                    }),
                    tr_te_inst_implicit_return_mode: 3,
                    ..btm().control
                },
                ..btm()
            },
            block(),
        )
    });
    v.push(Case {
        expect: Expectation::Stretches,
        ..case(
            "htm-trigger-on-main",
            EncoderConfig {
                control: TraceControl {
                    trace_on: Some(main),
                    ..htm().control
                },
                ..htm()
            },
            single(),
        )
    });
    v
}

fn main_of(p: &Path) -> u64 {
    let bytes = std::fs::read(p).unwrap();
    let prog = iss::elf::parse_symbols(&bytes, &p.display().to_string()).unwrap();
    prog.symbols
        .values()
        .flatten()
        .find(|s| s.name == "main")
        .map(|s| s.addr)
        .unwrap_or(prog.entry)
}

fn program(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../programs/bin/{name}.elf"))
}

macro_rules! program_tests {
    ($($name:ident),* $(,)?) => {$(
        #[test]
        fn $name() {
            let p = program(stringify!($name));
            for c in cases(main_of(&p)) {
                check(&p, &c);
            }
        }
    )*};
}

program_tests!(
    bench,
    cprog,
    csr,
    deleg,
    finisher,
    hello,
    htif_write,
    interrupts,
    pmp,
    pmp_impl,
    rv64a,
    rv64d,
    rv64f,
    rv64i,
    rv64m,
    rvc,
    smode,
    sv39,
    sv48,
    traps,
    umode,
    ctr_m,
    ctr_m10,
    ctr_s,
    ctr_s10,
    ctr_profile,
    pmu_counts,
    pmu_ovf,
    sbi_ext,
    sbi_pmu,
    fw_payload,
    kernel_boot,
    uart_irq,
    uart_irq_s,
    isa_probe,
    isa_zb,
    isa_zcb,
    isa_hints,
    isa_cbo,
    isa_zfa,
    isa_sstc,
    isa_svpte,
    isa_svinval,
    isa_sdtrig,
    breakpoint,
    ctr_trigger,
    isa_cbo_sv39,
);

fn symbol(p: &Path, name: &str) -> u64 {
    let bytes = std::fs::read(p).unwrap();
    let prog = iss::elf::parse_symbols(&bytes, &p.display().to_string()).unwrap();
    prog.symbols
        .values()
        .flatten()
        .find(|s| s.name == name)
        .map(|s| s.addr)
        .unwrap_or_else(|| panic!("{}: no symbol {name}", p.display()))
}

/// `isa_trace_trig`: debug triggers with trace actions drive the ingress port's `trigger`
/// sideband. Trace-off at `off_here` stops the trace after that instruction, trace-on at
/// `on_here` starts it again there (SYNC 5), and each store to and load from the watched
/// words in the traced loop is marked by a ProgTraceSync SYNC 6 (Trace Event) at its
/// address, with the flow going on through it. In every configuration the decoded flow is
/// exactly what the hart retired outside the off/on stretches (where the trace loses nothing);
/// in the lossy ones each decoded stretch is a stretch of it.
#[test]
fn isa_trace_trig() {
    let p = program("isa_trace_trig");
    let (off, on) = (symbol(&p, "off_here"), symbol(&p, "on_here"));
    for c in cases(main_of(&p)) {
        let lossless = c.expect == Expectation::Exact;
        let c = Case {
            expect: Expectation::Stretches,
            ..c
        };
        let (o, _) = round_trip(&p, &c);
        if let Err(e) = verify("isa_trace_trig", &c, &o, true) {
            panic!("{e}");
        }
        if !lossless {
            continue;
        }
        // The retired flow without what follows off_here up to on_here.
        let mut traced = Vec::new();
        let mut on_now = true;
        for &pc in &o.expect.pcs {
            if pc == on {
                on_now = true;
            }
            if on_now {
                traced.push(pc);
            }
            if pc == off {
                on_now = false;
            }
        }
        let rounds = o.expect.pcs.iter().filter(|&&pc| pc == off).count();
        assert_eq!(rounds, 3);
        let got = o.got.all();
        assert!(
            traced.len() + 3 * 20 < o.expect.pcs.len(),
            "the region is untraced"
        );
        if let Some(i) = common::first_difference(&traced, &got) {
            panic!(
                "isa_trace_trig [{}]: decoded flow differs from the traced flow at {i}: \
                 expected {:x?}, got {:x?}",
                c.name,
                common::around(&traced, i),
                common::around(&got, i)
            );
        }
        assert_eq!(
            o.got.gaps,
            1 + rounds,
            "[{}] a gap per round, and the end",
            c.name
        );
        let code = |n: u8| -> Vec<u64> {
            o.got
                .syncs
                .iter()
                .filter(|s| s.0 == n)
                .map(|s| s.1)
                .collect()
        };
        assert_eq!(code(5), vec![on; rounds], "[{}] SYNC 5 at on_here", c.name);
        // A notify per store to `watched` and per load from `watched + 8` in the traced
        // loop (4 of each a round); the store in the untraced stretch reports nothing.
        let notify = code(6);
        assert_eq!(notify.len(), 8 * rounds, "[{}] SYNC 6: {notify:x?}", c.name);
        let (st, ld) = (notify[0], notify[1]);
        assert_eq!(ld, st + 4, "[{}] the load follows the store", c.name);
        assert!(
            notify.chunks(2).all(|w| w == [st, ld]),
            "[{}] {notify:x?}",
            c.name
        );
    }
}

/// `fencei` runs code, rewrites it, and runs it again: no single image describes it. Its
/// trace must decode exactly up to the first instruction fetched from rewritten code (the
/// decoder, given the code as the ELF has it, then reads other instructions than the hart
/// ran, which it may or may not notice).
#[test]
fn fencei() {
    let p = program("fencei");
    let (mut m, elf) = machine(&p);
    let mut expect = Expect::default();
    m.run(&mut expect, Some(LIMIT));
    // The first pc outside the ELF's bytes or in a page the program wrote.
    let image = Image::from_elf(&elf, &p.display().to_string()).unwrap();
    let (fresh, _) = machine(&p);
    let written = |pc: u64| {
        let mut a = [0u8; 4];
        let mut b = [0u8; 4];
        fresh.bus.read_phys(pc, &mut a);
        m.bus.read_phys(pc, &mut b);
        a != b
    };
    let cut = expect
        .pcs
        .iter()
        .position(|&pc| !image.contains(pc) || written(pc))
        .expect("fencei runs code it wrote");
    assert!(
        cut > 100,
        "fencei: too little runs before its first rewritten code"
    );
    for c in cases(main_of(&p))
        .iter()
        .filter(|c| c.expect == Expectation::Exact)
    {
        let (o, _) = round_trip(&p, c);
        let got = o.got.all();
        assert_eq!(
            &got[..cut.min(got.len())],
            &o.expect.pcs[..cut],
            "fencei [{}]: differs before the first rewritten code",
            c.name
        );
    }
}

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
        "pmp_impl",
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
        "ctr_m",
        "ctr_m10",
        "ctr_s",
        "ctr_s10",
        "ctr_profile",
        "pmu_counts",
        "pmu_ovf",
        "sbi_ext",
        "sbi_pmu",
        "fencei",
        // Runs three instructions of the boot ROM, which is not in its ELF: decoding needs
        // the ROM's image too (`ntrace decode --raw 0x1000:FILE`); not a case for this table.
        "bootrom",
        "fw_payload",
        "kernel_boot",
        "uart_irq",
        "uart_irq_s",
        "isa_probe",
        "isa_zb",
        "isa_zcb",
        "isa_hints",
        "isa_cbo",
        "isa_zfa",
        "isa_sstc",
        "isa_svpte",
        "isa_svinval",
        "isa_sdtrig",
        "breakpoint",
        "ctr_trigger",
        "isa_trace_trig",
        "isa_cbo_sv39",
        // Several harts: tests/ntrace_cli.rs's `trace_hart_follows_one_hart` round-trips
        // each hart of `smp` alone (`--trace-hart H`), and `several_harts_in_one_stream`
        // every hart of `smp` and `sbi_smp` in one stream (`--trace-hart all`, SRC).
        "smp",
        "sbi_smp",
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

/// The cases that only promise stretches really do lose or filter part of the flow (on
/// programs that show it), so the stretch checks above are not vacuous.
#[test]
fn stretch_cases_lose_or_filter() {
    let pairs = [
        ("bench", "htm-fifo-drops"),
        ("cprog", "btm-fifo-drops-ts"),
        ("bench", "htm-filter-from-main"),
        ("umode", "btm-filter-m-only-ir3"),
        ("smode", "btm-filter-m-only-ir3"),
        ("cprog", "htm-trigger-on-main"),
    ];
    for (name, case_name) in pairs {
        let p = program(name);
        let cases = cases(main_of(&p));
        let c = cases.iter().find(|c| c.name == case_name).unwrap();
        let (o, _) = round_trip(&p, c);
        let decoded = o.got.all().len();
        assert!(
            o.got.gaps >= 2 && decoded < o.expect.pcs.len() && decoded > 0,
            "{name} [{case_name}]: {} gaps, {decoded} of {} instructions decoded",
            o.got.gaps,
            o.expect.pcs.len()
        );
    }
}
