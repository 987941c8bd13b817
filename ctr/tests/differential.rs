//! Differential check: random sequences of transfers, traps, trap returns and unfreezes under
//! random configurations, against a deliberately simple reference written straight from the
//! spec's rules (chapter 5 qualification, the 5.1 table, 5.2.1 external traps, 5.5 freeze,
//! 5.3 cycle counting): a Vec of qualified records whose last `depth` must equal the array,
//! logical entry 0 first. A second property does the same for RAS emulation (5.4) against a
//! bounded stack.

mod common;
use arch::{Cause, Exception, Interrupt, Itype, Priv};
use common::*;
use ctr::{Ctr, CtrConfig, Layout};
use proptest::prelude::*;

const TYPES: [Itype; 10] = [
    Itype::NontakenBranch,
    Itype::TakenBranch,
    Itype::UninferableCall,
    Itype::InferableCall,
    Itype::UninferableTailCall,
    Itype::InferableTailCall,
    Itype::CoroutineSwap,
    Itype::Return,
    Itype::OtherUninferableJump,
    Itype::OtherInferableJump,
];

const CAUSES: [Cause; 7] = [
    Cause::Exception(Exception::IllegalInstruction),
    Cause::Exception(Exception::EcallFromU),
    Cause::Exception(Exception::LoadPageFault),
    Cause::Exception(Exception::Breakpoint),
    Cause::Interrupt(Interrupt::SupervisorTimer),
    Cause::Interrupt(Interrupt::MachineExternal),
    Cause::Interrupt(Interrupt::CounterOverflow),
];

#[derive(Clone, Debug)]
enum Ev {
    /// An instruction transfer of TYPES\[i\] in the current mode.
    Transfer(usize, u64, u64),
    /// A trap to the `sel`-th mode at or above the current one.
    Trap(u8, usize, u64, u64),
    /// A trap return to the `sel`-th mode at or below the current one.
    Xret(u8, u64, u64),
    /// Software in the current mode (if S or M) clears FROZEN.
    Unfreeze,
}

#[derive(Clone, Debug)]
struct Setup {
    layout: Layout,
    /// Enabled U, S, M.
    en: [bool; 3],
    /// Filter bits 47:32 (standard positions only).
    filters: u16,
    eten: bool,
    mte: bool,
    ste: bool,
    bpfrz: bool,
    lcofifrz: bool,
    depth_log: u8,
    cce_bits: u8,
}

fn setup() -> impl Strategy<Value = Setup> {
    (
        prop_oneof![Just(Layout::Draft014), Just(Layout::Ratified10)],
        any::<[bool; 3]>(),
        any::<u16>(),
        any::<[bool; 5]>(),
        0u8..3,
        0u8..=4,
    )
        .prop_map(|(layout, en, f, t, depth_log, cce_bits)| Setup {
            layout,
            en,
            // Sparse filters, so that most types are recorded most of the time.
            filters: f & (f >> 3) & 0xFF3E,
            eten: t[0],
            mte: t[1],
            ste: t[2],
            bpfrz: t[3],
            lcofifrz: t[4],
            depth_log,
            cce_bits,
        })
}

fn pc() -> impl Strategy<Value = u64> {
    any::<u64>().prop_map(|v| v & !1)
}

fn dt() -> impl Strategy<Value = u64> {
    prop_oneof![8 => 0u64..3000, 1 => 0u64..(1 << 30)]
}

fn event() -> impl Strategy<Value = (Ev, u64)> {
    (
        prop_oneof![
            6 => (0..TYPES.len(), pc(), pc()).prop_map(|(i, s, t)| Ev::Transfer(i, s, t)),
            2 => (any::<u8>(), 0..CAUSES.len(), pc(), pc()).prop_map(|(m, c, s, t)| Ev::Trap(m, c, s, t)),
            2 => (any::<u8>(), pc(), pc()).prop_map(|(m, s, t)| Ev::Xret(m, s, t)),
            1 => Just(Ev::Unfreeze),
        ],
        dt(),
    )
}

fn mostly_transfers() -> impl Strategy<Value = (Ev, u64)> {
    (
        prop_oneof![
            200 => (0..TYPES.len(), pc(), pc()).prop_map(|(i, s, t)| Ev::Transfer(i, s, t)),
            1 => (any::<u8>(), 0..CAUSES.len(), pc(), pc()).prop_map(|(m, c, s, t)| Ev::Trap(m, c, s, t)),
            1 => (any::<u8>(), pc(), pc()).prop_map(|(m, s, t)| Ev::Xret(m, s, t)),
            1 => Just(Ev::Unfreeze),
        ],
        dt(),
    )
}

const MODES: [Priv; 3] = [Priv::U, Priv::S, Priv::M];

fn idx(p: Priv) -> usize {
    match p {
        Priv::U => 0,
        Priv::S => 1,
        _ => 2,
    }
}

/// The CTR control value for a setup.
fn control(s: &Setup) -> u64 {
    let b = bits(s.layout);
    let mut v = u64::from(s.filters) << 32;
    for (i, p) in MODES.into_iter().enumerate() {
        if s.en[i] {
            v |= b.mode(p);
        }
    }
    for (on, bit) in [
        (s.eten, b.eten),
        (s.mte, b.mte),
        (s.ste, b.ste),
        (s.bpfrz, b.bpfrz),
        (s.lcofifrz, b.lcofifrz),
    ] {
        if on {
            v |= bit;
        }
    }
    if s.layout == Layout::Draft014 {
        v |= ((1u64 << s.depth_log) - 1) << 16;
    }
    v
}

fn build(s: &Setup) -> Ctr {
    let mut c = with(CtrConfig {
        cce_bits: s.cce_bits,
        ..CtrConfig::with_layout(s.layout)
    });
    if s.layout == Layout::Ratified10 {
        c.csr_write(r10::SCTRDEPTH, u64::from(s.depth_log), Priv::M, &ctx())
            .unwrap()
            .unwrap();
    }
    set_ctl_at(&mut c, control(s), 0);
    assert_eq!(c.depth(), 16 << s.depth_log);
    c
}

/// The elapsed count a CC field can stand for: the count truncated to its 13 most significant
/// bits (12 below the top one), capped at the largest value the CCE width can express.
fn ref_cycles(count: u64, cce_bits: u8) -> u64 {
    let cap = match cce_bits {
        0 => 4095,
        1 => 8191,
        2 => 32764,
        3 => 524_224,
        _ => 134_201_344,
    };
    if count >= cap {
        return cap;
    }
    if count < 8192 {
        return count;
    }
    let shift = 63 - count.leading_zeros() - 12;
    (count >> shift) << shift
}

/// A qualified record in the reference: (source, target, TYPE, CCV, elapsed qualified cycles).
type Rec = (u64, u64, u64, bool, u64);

/// The reference: the spec's rules, one by one, over plain values.
struct Reference {
    s: Setup,
    cur: Priv,
    frozen: bool,
    counted: u64,
    ccv_next: bool,
    recs: Vec<Rec>,
}

impl Reference {
    fn en(&self, p: Priv) -> bool {
        self.s.en[idx(p)]
    }
    fn inh(&self, code: u64) -> bool {
        self.s.filters >> code & 1 == 1
    }
    fn record(&mut self, src: u64, tgt: u64, ty: u64) {
        self.recs.push((src, tgt, ty, self.ccv_next, self.counted));
        self.counted = 0;
        self.ccv_next = true;
    }
    /// Time passes in the current mode before each event.
    fn tick(&mut self, dt: u64) {
        if self.en(self.cur) && !self.frozen {
            self.counted += dt;
        }
    }
    fn transfer(&mut self, ty: Itype, src: u64, tgt: u64) {
        let code = u64::from(ty.code());
        let wanted = if ty == Itype::NontakenBranch {
            self.inh(4) // NTBREN: same bit position, opposite polarity
        } else {
            !self.inh(code)
        };
        if self.en(self.cur) && !self.frozen && wanted {
            self.record(src, tgt, code);
        }
    }
    fn trap(&mut self, to: Priv, cause: Cause, src: u64, tgt: u64) {
        let from = self.cur;
        self.cur = to;
        let lcofi = cause == Cause::Interrupt(Interrupt::CounterOverflow);
        let bp = cause == Cause::Exception(Exception::Breakpoint);
        if (lcofi && self.s.lcofifrz) || (bp && self.s.bpfrz) {
            self.frozen = true;
            return;
        }
        if self.frozen {
            return;
        }
        let ty = if cause.is_interrupt() { 2 } else { 1 };
        let external_ok = match self.s.layout {
            Layout::Draft014 => {
                self.s.eten
                    && if to == Priv::M {
                        self.s.mte
                    } else {
                        self.s.ste
                    }
            }
            Layout::Ratified10 => match (from, to) {
                (Priv::U, Priv::S) => self.s.ste,
                (Priv::U, Priv::M) => self.s.ste && self.s.mte,
                (Priv::S, Priv::M) => self.s.mte,
                _ => false,
            },
        };
        match (self.en(from), self.en(to)) {
            (true, true) if !self.inh(ty) => self.record(src, tgt, ty),
            (false, true) if !self.inh(ty) => self.record(0, tgt, ty),
            (true, false) if external_ok => self.record(src, 0, ty),
            _ => {}
        }
    }
    fn xret(&mut self, to: Priv, src: u64, tgt: u64) {
        let from = self.cur;
        self.cur = to;
        if !self.frozen && !self.inh(3) && self.en(from) {
            let t = if self.en(to) { tgt } else { 0 };
            self.record(src, t, 3);
        }
    }
}

/// Trap targets from `cur` (up: S or M, never below `cur`) or trap-return targets (down: at
/// or below `cur`; none from U, which cannot execute MRET/SRET).
fn modes_from(cur: Priv, up: bool) -> Vec<Priv> {
    MODES
        .into_iter()
        .filter(|&m| {
            if up {
                m >= cur && m != Priv::U
            } else {
                m <= cur && cur != Priv::U
            }
        })
        .collect()
}

fn check_last_depth(
    s: Setup,
    events: Vec<(Ev, u64)>,
    deferred: bool,
    flush_every: usize,
) -> Result<(), TestCaseError> {
    let mut c = build(&s);
    // Deferred records (what the hart uses) must leave the same state at every flush.
    c.set_deferred(deferred);
    let mut r = Reference {
        s: s.clone(),
        cur: Priv::M,
        frozen: false,
        counted: 0,
        ccv_next: false,
        recs: Vec::new(),
    };
    let mut now = 0u64;
    for (step, (ev, d)) in events.into_iter().enumerate() {
        now += d;
        r.tick(d);
        match ev {
            Ev::Transfer(i, src, tgt) => {
                c.transfer(src, tgt, TYPES[i], r.cur, false, now);
                r.transfer(TYPES[i], src, tgt);
            }
            Ev::Trap(sel, ci, src, tgt) => {
                let ups = modes_from(r.cur, true);
                let to = ups[usize::from(sel) % ups.len()];
                c.trap(src, tgt, r.cur, to, CAUSES[ci], now);
                r.trap(to, CAUSES[ci], src, tgt);
            }
            Ev::Xret(sel, src, tgt) => {
                let downs = modes_from(r.cur, false);
                if downs.is_empty() {
                    continue;
                }
                let to = downs[usize::from(sel) % downs.len()];
                c.xret(src, tgt, r.cur, to, now);
                r.xret(to, src, tgt);
            }
            Ev::Unfreeze => {
                if r.cur != Priv::U {
                    let b = bits(s.layout);
                    c.flush();
                    let st = c.csr_read(b.sstatus, r.cur, &ctx_at(now)).unwrap().unwrap();
                    c.csr_write(b.sstatus, st & !b.frozen, r.cur, &ctx_at(now))
                        .unwrap()
                        .unwrap();
                    r.frozen = false;
                }
            }
        }
        if deferred && step % flush_every != 0 {
            continue;
        }
        c.flush();
        let depth = c.depth();
        prop_assert_eq!(c.wrptr(), r.recs.len() % depth);
        prop_assert_eq!(c.frozen(), r.frozen);
    }
    c.flush();
    let depth = c.depth();
    let want: Vec<&Rec> = r.recs.iter().rev().take(depth).collect();
    for x in 0..depth {
        let e = c.entry(x).unwrap();
        match want.get(x) {
            Some(&&(src, tgt, ty, ccv, count)) => {
                prop_assert!(e.valid, "entry {} should be valid", x);
                prop_assert_eq!(
                    (e.source, e.target, u64::from(e.ty.code())),
                    (src, tgt, ty),
                    "entry {}",
                    x
                );
                prop_assert_eq!(e.ccv, ccv, "CCV of entry {}", x);
                prop_assert_eq!(
                    ctr::cycles::decode(e.cc),
                    ref_cycles(count, s.cce_bits),
                    "CC of entry {} (count {})",
                    x,
                    count
                );
            }
            None => prop_assert_eq!((e.valid, e.source, e.target), (false, 0, 0), "entry {}", x),
        }
    }
    if s.layout == Layout::Draft014 {
        prop_assert_eq!(status(&c) & d014::WRAP != 0, r.recs.len() >= depth);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn array_holds_the_last_depth_qualified_records(
        s in setup(),
        events in prop::collection::vec(event(), 0..160),
        deferred in any::<bool>(),
        flush_every in 1usize..60,
    ) {
        check_last_depth(s, events, deferred, flush_every)?;
    }

    #[test]
    fn ras_emulation_is_a_bounded_stack(
        layout in prop_oneof![Just(Layout::Draft014), Just(Layout::Ratified10)],
        en in any::<[bool; 3]>(),
        filters in any::<u16>(),
        events in prop::collection::vec(event(), 0..200),
    ) {
        let b = bits(layout);
        let mut c = new(layout);
        let mut v = b.rasemu | (u64::from(filters & 0xFF3E) << 32) | b.ste | b.mte | b.eten;
        for (i, p) in MODES.into_iter().enumerate() {
            if en[i] {
                v |= b.mode(p);
            }
        }
        set_ctl(&mut c, v);
        let depth = c.depth();
        // The reference: calls push (dropping the oldest beyond depth), returns pop, swaps
        // replace the top (or push onto an empty stack); only in enabled modes.
        let mut stack: Vec<(u64, u64, u64)> = Vec::new();
        let mut wrptr = 0usize;
        let mut cur = Priv::M;
        for (ev, _) in events {
            match ev {
                Ev::Transfer(i, src, tgt) => {
                    let ty = TYPES[i];
                    c.transfer(src, tgt, ty, cur, false, 0);
                    if en[idx(cur)] {
                        match ty {
                            Itype::InferableCall | Itype::UninferableCall => {
                                stack.push((src, tgt, u64::from(ty.code())));
                                if stack.len() > depth {
                                    stack.remove(0);
                                }
                                wrptr = (wrptr + 1) % depth;
                            }
                            Itype::Return => {
                                stack.pop();
                                wrptr = (wrptr + depth - 1) % depth;
                            }
                            Itype::CoroutineSwap => {
                                stack.pop();
                                stack.push((src, tgt, 12));
                            }
                            _ => {}
                        }
                    }
                }
                // Traps and trap returns are inhibited (but change the mode). Causes that
                // could freeze are harmless: no freeze bit is set.
                Ev::Trap(sel, ci, src, tgt) => {
                    let ups = modes_from(cur, true);
                    let to = ups[usize::from(sel) % ups.len()];
                    c.trap(src, tgt, cur, to, CAUSES[ci], 0);
                    cur = to;
                }
                Ev::Xret(sel, src, tgt) => {
                    let downs = modes_from(cur, false);
                    if downs.is_empty() {
                        continue;
                    }
                    let to = downs[usize::from(sel) % downs.len()];
                    c.xret(src, tgt, cur, to, 0);
                    cur = to;
                }
                Ev::Unfreeze => {}
            }
            prop_assert_eq!(c.wrptr(), wrptr);
        }
        for x in 0..depth {
            let e = c.entry(x).unwrap();
            match stack.iter().rev().nth(x) {
                Some(&(s, t, ty)) => {
                    prop_assert!(e.valid, "entry {}", x);
                    prop_assert_eq!((e.source, e.target, u64::from(e.ty.code())), (s, t, ty));
                }
                None => prop_assert!(!e.valid, "entry {} should be invalid", x),
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// Long runs of transfers in one mode: many deferred records between flushes (more than
    /// the depth), as the hart makes them.
    #[test]
    fn long_runs_of_deferred_records(
        s in setup(),
        events in prop::collection::vec(mostly_transfers(), 0..1200),
        flush_every in 1usize..1000,
    ) {
        check_last_depth(s, events, true, flush_every)?;
    }
}
