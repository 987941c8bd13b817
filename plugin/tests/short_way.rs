//! The verifier's short way (`Verifier::check_plain`, which `Hart::step_check` takes for
//! ordinary retirements) gives exactly the verdicts of the group form: two checking harts,
//! one each way, are fed the same retirements of real programs with faults put in, and every
//! call's result (mismatches, error), the counts and a final full compare are the same.

use plugin::*;
use proptest::prelude::*;
use std::path::PathBuf;
use std::sync::OnceLock;

fn program(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../programs/bin")
        .join(name)
}

/// The case count: `HARTSCOPE_FUZZ_CASES` when set (nightly), else `default`.
fn fuzz_cases(default: u32) -> u32 {
    std::env::var("HARTSCOPE_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Loads and stores, FP, paging in S and U mode, traps, compressed code.
const PROGRAMS: [&str; 6] = [
    "rv64i.elf",
    "rv64f.elf",
    "rvc.elf",
    "sv39.elf",
    "umode.elf",
    "hello.elf",
];

/// Retirements each program contributes (its start-up and some of its body).
const STEPS: usize = 6_000;

fn config() -> Config {
    Config {
        reports: Reports {
            csr: true,
            fpr: true,
        },
        console: "none".into(),
        ..Config::default()
    }
}

fn traces() -> &'static Vec<Vec<Retirement>> {
    static T: OnceLock<Vec<Vec<Retirement>>> = OnceLock::new();
    T.get_or_init(|| {
        PROGRAMS
            .iter()
            .map(|p| {
                let mut h = Hart::new(&config()).unwrap();
                h.load_elf(program(p)).unwrap();
                let mut out = Vec::new();
                while out.len() < STEPS && h.exit().is_none() {
                    out.push(h.step());
                }
                out
            })
            .collect()
    })
}

/// One fault: which field it changes and by what.
#[derive(Clone, Copy, Debug)]
enum Fault {
    WriteValue(u64),
    DropWrite,
    ExtraWrite(u8, u16, u64),
    NextPc(u64),
    NextPrv(u8),
    InsnBit(u8),
    Vaddr(u64),
    Paddr(Option<u64>),
    Size(u8),
    Data(u64),
    Kind,
    DropAccess,
    ExtraLoad(u64),
    Valid(u32),
    Trap(u8, u64),
}

fn fault() -> impl Strategy<Value = Fault> {
    prop_oneof![
        any::<u64>().prop_map(Fault::WriteValue),
        Just(Fault::DropWrite),
        (0u8..3, 0u16..40, 0u64..4).prop_map(|(f, n, v)| Fault::ExtraWrite(f, n, v)),
        prop::sample::select(vec![2u64, 4, 8, 0x1000]).prop_map(Fault::NextPc),
        (0u8..4).prop_map(Fault::NextPrv),
        (0u8..32).prop_map(Fault::InsnBit),
        prop::sample::select(vec![1u64, 8, 0x1000]).prop_map(Fault::Vaddr),
        prop::option::of(prop::sample::select(vec![8u64, 0x1000])).prop_map(Fault::Paddr),
        (0u8..4).prop_map(|s| Fault::Size(1 << s)),
        any::<u64>().prop_map(Fault::Data),
        Just(Fault::Kind),
        Just(Fault::DropAccess),
        (0u64..64).prop_map(Fault::ExtraLoad),
        (0u32..64).prop_map(Fault::Valid),
        ((1u8..3), 0u64..16).prop_map(|(t, c)| Fault::Trap(t, c)),
    ]
}

/// Whether `f` changes something in `r`.
fn applies(r: &Retirement, f: Fault) -> bool {
    match f {
        Fault::WriteValue(_) | Fault::DropWrite => r.n_writes > 0,
        Fault::Vaddr(_)
        | Fault::Paddr(_)
        | Fault::Size(_)
        | Fault::Data(_)
        | Fault::Kind
        | Fault::DropAccess => r.n_mem > 0,
        _ => true,
    }
}

fn apply(r: &mut Retirement, f: Fault) {
    let nw = r.n_writes as usize;
    let nm = r.n_mem as usize;
    match f {
        Fault::WriteValue(v) if nw > 0 => r.writes[0].value ^= v | 1,
        Fault::DropWrite if nw > 0 => {
            r.writes.copy_within(1..nw, 0);
            r.n_writes -= 1;
        }
        Fault::ExtraWrite(file, num, value) => {
            let num = if file == REG_CSR {
                0x340 + num
            } else {
                num % 32
            };
            let _ = r.push_write(file, num, value);
        }
        Fault::NextPc(d) => r.next_pc = r.next_pc.wrapping_add(d),
        Fault::NextPrv(p) => r.next_prv = p,
        Fault::InsnBit(b) => r.insn ^= 1 << (b % (8 * r.len.max(2))),
        Fault::Vaddr(d) if nm > 0 => r.mem[0].vaddr = r.mem[0].vaddr.wrapping_add(d),
        Fault::Paddr(Some(d)) if nm > 0 => r.mem[0].paddr = r.mem[0].paddr.wrapping_add(d),
        Fault::Paddr(None) if nm > 0 => r.mem[0].paddr = PADDR_UNKNOWN,
        Fault::Size(s) if nm > 0 => r.mem[0].size = s,
        Fault::Data(d) if nm > 0 => {
            r.mem[0].rdata ^= d;
            r.mem[0].wdata ^= d;
        }
        Fault::Kind if nm > 0 => r.mem[0].kind = 3 - r.mem[0].kind,
        Fault::DropAccess if nm > 0 => r.n_mem -= 1,
        Fault::ExtraLoad(a) => {
            let _ = r.push_mem(MemAccess {
                kind: MEM_LOAD,
                size: 8,
                vaddr: 0x8000_0000 + 8 * a,
                paddr: PADDR_UNKNOWN,
                rdata: a,
                wdata: 0,
            });
        }
        Fault::Valid(v) => r.valid = v,
        Fault::Trap(t, c) => {
            r.trap = t;
            r.cause = c;
            if t == TRAP_INTERRUPT {
                r.len = 0;
                r.insn = 0;
            }
        }
        _ => {}
    }
}

fn checker(name: &str, short: bool) -> Hart {
    let mut h = Hart::new(&config()).unwrap();
    h.load_elf(program(name)).unwrap();
    h.set_short_way(short);
    h
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(fuzz_cases(48)))]
    #[test]
    fn the_short_way_gives_the_group_forms_verdicts(
        prog in 0..PROGRAMS.len(),
        faults in prop::collection::vec((0..STEPS, fault()), 0..12),
    ) {
        let trace = &traces()[prog];
        // Each fault goes into the first retirement from its position on that it changes.
        let placed: Vec<(usize, Fault)> = faults
            .iter()
            .filter_map(|&(at, f)| {
                (at..trace.len()).find(|&i| applies(&trace[i], f)).map(|i| (i, f))
            })
            .collect();
        let mut short = checker(PROGRAMS[prog], true);
        let mut long = checker(PROGRAMS[prog], false);
        for (i, r) in trace.iter().enumerate() {
            let mut r = *r;
            for &(_, f) in placed.iter().filter(|(at, _)| *at == i) {
                apply(&mut r, f);
            }
            let a = short.step_check(&r).map(<[_]>::to_vec).map_err(|e| e.to_string());
            let b = long.step_check(&r).map(<[_]>::to_vec).map_err(|e| e.to_string());
            prop_assert_eq!(a, b, "{} retirement {}", PROGRAMS[prog], i);
        }
        prop_assert_eq!(short.checked(), long.checked());
        prop_assert_eq!(short.errors(), long.errors());
        let a = short.compare_all().to_vec();
        let b = long.compare_all().to_vec();
        prop_assert_eq!(a, b);
    }
}

/// The faults above do reach the short way's every decision: without any, every program
/// checks clean both ways.
#[test]
fn clean_traces_check_clean_both_ways() {
    for (prog, trace) in traces().iter().enumerate() {
        for short in [true, false] {
            let mut h = checker(PROGRAMS[prog], short);
            for r in trace {
                let bad = h.step_check(r).unwrap();
                assert!(bad.is_empty(), "{}: {bad:#?}", PROGRAMS[prog]);
            }
            assert_eq!(h.errors(), 0);
        }
    }
}
