//! The lazy counters against a naive model that adds every event to every counter that
//! counts it, at once, under random interleavings of total bumps in any privilege, counter
//! writes, mhpmevent writes (with random inhibit and OF bits, supported or not), mcountinhibit
//! writes and overflow checks. Values, mhpmevent (OF included), scountovf and the LCOFI
//! reports must agree after every step.

use arch::Priv;
use pmu::event::{self, INH_BY_PRV, MHPMEVENT_OF, SELECTOR_MASK};
use pmu::{Class, Pmu, PmuConfig, HPM_FIRST, NCLASS};
use proptest::prelude::*;

const HPM: usize = 4;

#[derive(Clone, Debug)]
enum Op {
    Bump(u8, usize, u64),
    WriteCounter(usize, u64),
    WriteEvent(usize, u64),
    WriteInhibit(u32),
    Check,
}

fn selector() -> impl Strategy<Value = u64> {
    prop_oneof![
        Just(0u64),
        Just(0x1),
        Just(0x2),
        Just(0x5),
        Just(0x8),
        Just(0x20001),
        Just(0x2000d),
        Just(0x10001),
        Just(0x7),
        any::<u64>(),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    let counter = 0usize..HPM_FIRST + HPM + 1;
    prop_oneof![
        6 => (0u8..3, 0..NCLASS, prop_oneof![1u64..4, 1u64..300, 1u64..100_000]).prop_map(|(p, c, n)| Op::Bump(p, c, n)),
        1 => (counter.clone(), prop_oneof![any::<u64>(), Just(u64::MAX - 5), Just(250u64), Just(0xfff0u64)]).prop_map(|(i, v)| Op::WriteCounter(i, v)),
        2 => (counter, selector(), any::<u8>()).prop_map(|(i, s, f)| Op::WriteEvent(i, (f as u64) << 56 | s)),
        1 => any::<u32>().prop_map(Op::WriteInhibit),
        2 => Just(Op::Check),
    ]
}

/// The naive model.
#[derive(Clone)]
struct Naive {
    cfg: PmuConfig,
    value: [u64; 32],
    mhpmevent: [u64; 32],
    inhibit: u32,
    pending: bool,
}

impl Naive {
    fn implemented(&self, i: usize) -> bool {
        i == 0 || i == 2 || (HPM_FIRST..HPM_FIRST + self.cfg.hpm_counters as usize).contains(&i)
    }

    fn mask(&self, i: usize) -> u64 {
        if i < HPM_FIRST {
            u64::MAX
        } else {
            self.cfg.hpm_mask()
        }
    }

    fn counts(&self, i: usize, prv: usize, class: Class) -> bool {
        if !self.implemented(i) || self.inhibit & (1 << i) != 0 {
            return false;
        }
        let classes: &[Class] = match i {
            0 => &[
                Class::Instructions,
                Class::StallFrontend,
                Class::StallBackend,
            ],
            2 => &[Class::Instructions],
            _ => {
                let e = self.mhpmevent[i];
                if e & INH_BY_PRV[prv] != 0 {
                    return false;
                }
                event::lookup(e & SELECTOR_MASK).map_or(&[], |d| d.classes)
            }
        };
        classes.contains(&class)
    }

    fn bump(&mut self, prv: usize, class: Class, n: u64) {
        for i in 0..32 {
            if self.counts(i, prv, class) {
                let old = self.value[i] as u128;
                let span = self.mask(i) as u128 + 1;
                if i >= HPM_FIRST
                    && self.mhpmevent[i] & MHPMEVENT_OF == 0
                    && old + n as u128 >= span
                {
                    self.mhpmevent[i] |= MHPMEVENT_OF;
                    self.pending = true;
                }
                self.value[i] = ((old + n as u128) % span) as u64;
            }
        }
    }

    fn scountovf(&self) -> u32 {
        (HPM_FIRST..32)
            .filter(|&i| self.mhpmevent[i] & MHPMEVENT_OF != 0)
            .fold(0, |m, i| m | 1 << i)
    }
}

fn prv(p: u8) -> Priv {
    [Priv::U, Priv::S, Priv::M][p as usize]
}

/// Apply `op` to the lazy counters and to the model, and compare them after it (`live`: also
/// that every class some counter counts is live, which costs more).
fn step(p: &mut Pmu, n: &mut Naive, op: &Op, live: bool) -> Result<(), TestCaseError> {
    match *op {
        Op::Bump(pr, c, k) => {
            p.count(prv(pr), Class::ALL[c], k);
            n.bump(pr as usize, Class::ALL[c], k);
        }
        Op::WriteCounter(i, v) => {
            p.write_counter(i, v);
            if n.implemented(i) {
                n.value[i] = v & n.mask(i);
            }
        }
        Op::WriteEvent(i, v) => {
            p.write_mhpmevent(i, v);
            if i >= HPM_FIRST && n.implemented(i) {
                n.mhpmevent[i] = event::legalize(v, &n.cfg);
            }
        }
        Op::WriteInhibit(v) => {
            p.write_mcountinhibit(v);
            n.inhibit = v & p.counter_mask();
        }
        Op::Check => {
            let raised = p.check_overflow();
            prop_assert_eq!(raised, n.pending);
            n.pending = false;
            prop_assert!(!p.armed() || p.overflow_horizon() >= 1);
        }
    }
    for i in 0..32 {
        prop_assert_eq!(
            p.counter(i),
            if n.implemented(i) { n.value[i] } else { 0 },
            "counter {}",
            i
        );
        if i >= HPM_FIRST {
            prop_assert_eq!(
                p.mhpmevent(i),
                if n.implemented(i) { n.mhpmevent[i] } else { 0 },
                "mhpmevent {}",
                i
            );
        }
    }
    prop_assert_eq!(p.scountovf(), n.scountovf());
    prop_assert_eq!(p.mcountinhibit(), n.inhibit);
    if live {
        // Anything a counter counts is live.
        for (c, cl) in Class::ALL.iter().enumerate() {
            let counted = (0..32).any(|i| (0..3).any(|pr| n.counts(i, pr, *cl)));
            if counted {
                prop_assert!(p.live_classes() & (1 << c) != 0, "class {:?}", cl);
            }
        }
    }
    Ok(())
}

/// Every sequence of up to five operations from a small set chosen around one 8-bit counter's
/// overflow, from the counter counting its first event: bumps that do and do not overflow it
/// in U and M, of the classes its two events count; a counter write; event writes (with OF
/// set, with MINH, none); inhibiting it and not; checks. The property test draws long random
/// sequences; this one leaves no short one out (the double LCOFI report CI once found is five
/// operations long from here).
#[test]
fn lazy_counters_match_naive_accumulation_on_every_short_sequence() {
    let cfg = PmuConfig {
        hpm_counters: 1,
        hpm_width: 8,
        ..PmuConfig::default()
    };
    let (a, b) = (0x20001u64, 0x2000du64);
    let class_of = |sel: u64| {
        let c = event::lookup(sel).expect("a defined event").classes[0];
        Class::ALL.iter().position(|&x| x == c).unwrap()
    };
    let (ca, cb) = (class_of(a), class_of(b));
    let ops = [
        Op::Bump(0, ca, 1),
        Op::Bump(0, ca, 256),
        Op::Bump(2, cb, 255),
        Op::Bump(0, cb, 256),
        Op::WriteCounter(3, 255),
        Op::WriteEvent(3, a),
        Op::WriteEvent(3, b | MHPMEVENT_OF),
        Op::WriteEvent(3, a | event::MHPMEVENT_MINH),
        Op::WriteEvent(3, 0),
        Op::WriteInhibit(0),
        Op::WriteInhibit(1 << 3),
        Op::Check,
    ];
    fn walk(p: &Pmu, n: &Naive, ops: &[Op], path: &mut Vec<Op>, depth: usize, seen: &mut u64) {
        for op in ops {
            let (mut p, mut n) = (p.clone(), n.clone());
            path.push(op.clone());
            *seen += 1;
            if let Err(e) = step(&mut p, &mut n, op, false) {
                panic!("{e} after {path:?}");
            }
            if depth > 1 {
                walk(&p, &n, ops, path, depth - 1, seen);
            }
            path.pop();
        }
    }
    let mut p = Pmu::new(cfg.clone()).unwrap();
    let mut n = Naive {
        cfg,
        value: [0; 32],
        mhpmevent: [0; 32],
        inhibit: 0,
        pending: false,
    };
    step(&mut p, &mut n, &Op::WriteEvent(3, a), true).unwrap();
    let mut seen = 0;
    walk(&p, &n, &ops, &mut vec![], 5, &mut seen);
    assert_eq!(
        seen,
        (1..=5).map(|d| (ops.len() as u64).pow(d)).sum::<u64>()
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn lazy_counters_match_naive_accumulation(
        width in prop_oneof![Just(8u8), Just(16u8), Just(40u8), Just(64u8)],
        models in any::<bool>(),
        ops in proptest::collection::vec(op(), 1..120),
    ) {
        let mut cfg = PmuConfig { hpm_counters: HPM as u8, hpm_width: width, ..PmuConfig::default() };
        if models {
            cfg = cfg.with_all_models();
        }
        let mut p = Pmu::new(cfg.clone()).unwrap();
        let mut n = Naive { cfg: cfg.clone(), value: [0; 32], mhpmevent: [0; 32], inhibit: 0, pending: false };
        for op in &ops {
            step(&mut p, &mut n, op, true)?;
        }
    }

    /// The overflow horizon is a lower bound: when it says at least two more instructions
    /// can retire, the next instruction (with the most its fetch, data access and branch can
    /// add through the models) never overflows a counter.
    #[test]
    fn horizon_is_a_lower_bound(
        start in 0u64..256,
        sel in prop_oneof![Just(0x1u64), Just(0x2u64), Just(0x2000du64), Just(0x9u64), Just(0x10000u64), Just(0x10011u64)],
        steps in proptest::collection::vec((0u8..3, any::<u64>(), 0u8..4, any::<bool>()), 1..300),
    ) {
        let cfg = PmuConfig { hpm_counters: 1, hpm_width: 8, ..PmuConfig::default() }.with_all_models();
        let mut p = Pmu::new(cfg).unwrap();
        p.write_mhpmevent(3, sel);
        p.write_counter(3, start);
        for (pr, addr, what, translated) in steps {
            let h = p.overflow_horizon();
            let (pv, asid) = (prv(pr), translated.then_some(1u16));
            // One instruction: its fetch (maybe across a line), a data access (maybe across a
            // line), a branch, retirement.
            let pc = addr & 0xffff_fffe;
            p.fetch(pv, pc, pc, 4 - (pc & 2), asid);
            match what {
                0 => p.data_access(pv, addr, addr, pmu::AccessKind::Read, 8, asid),
                1 => p.data_access(pv, addr, addr, pmu::AccessKind::Atomic, 8, asid),
                2 => {
                    let it = if addr & 1 != 0 { arch::Itype::TakenBranch } else { arch::Itype::Return };
                    p.branch(pv, pc, 4, addr, it);
                    p.count(pv, Class::of_itype(it).unwrap(), 1);
                }
                _ => p.count(pv, Class::Loads, 1),
            }
            p.retire(pv, 1);
            if p.check_overflow() {
                prop_assert_eq!(h, 1, "overflowed although the horizon was {}", h);
                break;
            }
        }
    }
}

/// One instruction of a run: its fetch, one data access or branch or class, maybe a trap.
#[derive(Clone, Debug)]
struct Insn {
    prv: u8,
    addr: u64,
    what: u8,
    translated: bool,
}

fn insn() -> impl Strategy<Value = Insn> {
    (0u8..3, any::<u64>(), 0u8..8, any::<bool>()).prop_map(|(prv, addr, what, translated)| Insn {
        prv,
        addr,
        what,
        translated,
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// after_run's count down reports every overflow in the same run as checking after
    /// every run does, with several sampling counters on different events.
    #[test]
    fn after_run_matches_checking_every_run(
        width in prop_oneof![Just(6u8), Just(10u8)],
        models in any::<bool>(),
        events in proptest::collection::vec(
            (prop_oneof![Just(0x1u64), Just(0x2u64), Just(0x2000du64), Just(0x2000au64), Just(0x20001u64), Just(0x9u64), Just(0x10000u64), Just(0x10029u64)], any::<u64>(), 0u64..8),
            1..6),
        runs in proptest::collection::vec(proptest::collection::vec(insn(), 0..12), 1..80),
    ) {
        let mut cfg = PmuConfig { hpm_counters: 6, hpm_width: width, ..PmuConfig::default() };
        if models {
            cfg = cfg.with_all_models();
        }
        let mut p = Pmu::new(cfg).unwrap();
        for (k, &(sel, start, inh)) in events.iter().enumerate() {
            p.write_mhpmevent(HPM_FIRST + k, sel | (inh << 60));
            p.write_counter(HPM_FIRST + k, start);
        }
        let mut oracle = p.clone();
        for run in runs {
            let mut n = 0;
            let mut trap = None;
            for i in &run {
                let (pv, asid) = (prv(i.prv), i.translated.then_some(3u16));
                for q in [&mut p, &mut oracle] {
                    let pc = i.addr & 0xffff_fffe;
                    q.fetch(pv, pc, pc, 4 - (pc & 2), asid);
                    match i.what {
                        0 => q.data_access(pv, i.addr, i.addr, pmu::AccessKind::Read, 8, asid),
                        1 => q.data_access(pv, i.addr, i.addr, pmu::AccessKind::Write, 4, asid),
                        2 => {
                            let it = if i.addr & 1 != 0 { arch::Itype::TakenBranch } else { arch::Itype::NontakenBranch };
                            q.branch(pv, pc, 4, i.addr, it);
                            q.count(pv, Class::of_itype(it).unwrap(), 1);
                        }
                        3 => q.count(pv, Class::Loads, 1),
                        _ => {}
                    }
                }
                if i.what == 7 {
                    // An exception ends the run; the instruction does not retire.
                    trap = Some(pv);
                    break;
                }
                p.retire(pv, 1);
                oracle.retire(pv, 1);
                n += 1;
            }
            if let Some(pv) = trap {
                p.trap_taken(pv, false);
                oracle.trap_taken(pv, false);
            }
            prop_assert_eq!(p.after_run(n), oracle.check_overflow());
            prop_assert_eq!(p.scountovf(), oracle.scountovf());
        }
    }
}
