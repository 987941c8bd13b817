//! The corner cases of N-Trace chapter 8.6 (Table 26, "Corner Cases"), each as a tiny program
//! run on the hart and traced through the ingress port: the exact messages the encoder emits
//! (TCODE, SYNC, B-TYPE, I-CNT, addresses, EVCODE) and the exact flow the decoder gives back.
//!
//! Every case is traced in BTM and HTM, with single and multiple retirement, and with the
//! port driven from captured runs and from full records: all give the same messages.
//! B-TYPE is 2 for exceptions and 3 for interrupts (the table allows those or 1).

mod common;

use common::asm::{self, cond, op, Asm, Code, Label, Lo, RA, T0};
use common::{round_trip, Case, Drive, Expectation, Outcome};
use encoder::decoder::{Decoder, DecoderConfig, Event, Flow, TrapKind};
use encoder::encoder::{EncoderConfig, Filter, TraceControl, BTM, HTM};
use encoder::image::Image;
use encoder::msg::process::{FORMAT_PRIVILEGE, FORMAT_SCONTEXT};
use encoder::msg::{btype, evcode, sync, Body};
use iss::csr::{
    CYCLE, MEDELEG, MEPC, MIE, MIP_MTIP, MSTATUS, MSTATUS_MIE, MTVEC, PMPADDR0, PMPCFG0, STVEC,
};
use iss::ingress::{IngressConfig, Retirement};
use iss::Machine;
use rstest::rstest;

const BASE: u64 = 0x8000_0000;
const LIMIT: u64 = 10_000;
const A0: u8 = 10;
const S0: u8 = 8;
const T1: u8 = 6;
const T2: u8 = 7;

/// Exit through the test finisher: the run ends at the store, the fourth 32-bit instruction
/// ([`EXIT_HW`] half-words retired); the CSR read and the loop after it (24 bytes in all) are
/// never reached.
fn exit(a: &mut Asm) {
    a.w(asm::lui(10, 0x100));
    a.w(asm::lui(11, 5));
    a.w(asm::i_type(op::OP_IMM_32, 0, 11, 11, 0x555));
    a.w(asm::sw(11, 10, 0));
    a.w(asm::csrr(10, CYCLE));
    let l = a.here();
    a.jal(0, l, false);
}
const EXIT_HW: u64 = 8;

/// The messages a case expects, built as the encoder's address reference moves.
struct Expected {
    htm: bool,
    r: u64,
    v: Vec<Body>,
}

impl Expected {
    fn new(mode: u8) -> Expected {
        Expected {
            htm: mode == HTM,
            r: 0,
            v: Vec::new(),
        }
    }

    fn sync(&mut self, sync: u8, icnt: u64, at: u64) -> &mut Self {
        self.r = at;
        self.v.push(Body::ProgTraceSync {
            sync,
            icnt,
            faddr: at >> 1,
        });
        self
    }

    /// An indirect-branch message: IndirectBranch, or IndirectBranchHist in HTM with a
    /// non-empty HIST.
    fn jump(&mut self, btype: u8, icnt: u64, target: u64, hist: u64) -> &mut Self {
        let uaddr = (target ^ self.r) >> 1;
        self.r = target;
        self.v.push(if self.htm && hist != 1 {
            Body::IndirectBranchHist {
                btype,
                icnt,
                uaddr,
                hist,
            }
        } else {
            Body::IndirectBranch { btype, icnt, uaddr }
        });
        self
    }

    fn direct(&mut self, icnt: u64) -> &mut Self {
        self.v.push(Body::DirectBranch { icnt });
        self
    }

    /// ProgTraceCorrelation: CDF 0 in BTM, CDF 1 with HIST in HTM.
    fn off(&mut self, evcode: u8, icnt: u64, hist: u64) -> &mut Self {
        self.v.push(Body::ProgTraceCorrelation {
            evcode,
            cdf: self.htm as u8,
            icnt,
            hist: self.htm.then_some(hist),
        });
        self
    }

    fn ownership(&mut self, process: u64) -> &mut Self {
        self.v.push(Body::Ownership { process });
        self
    }
}

fn image(code: &Code) -> Image {
    let mut img = Image::new();
    img.add_raw(code.base, code.bytes.clone()).unwrap();
    img
}

/// What a traced case gave: the messages and the round trip.
struct Traced {
    bodies: Vec<Body>,
    o: Outcome,
    events: Vec<Event>,
}

/// Run `code` (after `prepare` set up the hart, before it boots) traced with `cfg`, with
/// every retirement and two ways of driving the port; all must give the same messages and
/// the same decoded flow, without decoding errors.
fn trace(code: &Code, prepare: &dyn Fn(&mut Machine), cfg: &EncoderConfig) -> Traced {
    let fresh = || {
        let mut m = code.machine();
        prepare(&mut m);
        m.boot(code.base);
        m
    };
    let mut first: Option<Traced> = None;
    for retirement in [
        Retirement::Single,
        Retirement::Block {
            max_halfwords: 1 << 16,
        },
    ] {
        for drive in [Drive::Capture, Drive::Records] {
            let case = Case {
                name: "corner",
                cfg: cfg.clone(),
                icfg: IngressConfig {
                    retirement,
                    control: cfg.control.port(),
                    ..IngressConfig::default()
                },
                drive,
                expect: Expectation::Exact,
            };
            let o = round_trip(&fresh, |_, _| image(code), &case, LIMIT);
            assert_eq!(o.stop, iss::Stop::Exit(0), "the program does not exit");
            assert!(
                o.got.errors.is_empty(),
                "{retirement:?} {drive:?}: decoding errors {:?}\n{}",
                o.got.errors,
                common::dump(&o.bytes, &cfg.format())
            );
            let bodies: Vec<Body> = common::messages(&o.bytes, &cfg.format())
                .into_iter()
                .map(|(_, m)| m.body)
                .collect();
            let mut dec = Decoder::new(DecoderConfig::for_encoder(cfg), image(code)).unwrap();
            let mut flow: Vec<Flow> = Vec::new();
            dec.decode_all(&o.bytes, &mut flow);
            let events = flow
                .into_iter()
                .filter_map(|f| match f {
                    Flow::Event(e) => Some(e),
                    Flow::Pc(_) => None,
                })
                .collect();
            let t = Traced { bodies, o, events };
            match &first {
                None => first = Some(t),
                Some(f) => {
                    assert_eq!(
                        t.bodies, f.bodies,
                        "{retirement:?} {drive:?} gives other messages"
                    );
                    assert_eq!(t.o.got.stretches, f.o.got.stretches);
                    assert_eq!(t.o.expect.pcs, f.o.expect.pcs);
                }
            }
        }
    }
    first.unwrap()
}

fn config(mode: u8) -> EncoderConfig {
    EncoderConfig {
        control: TraceControl {
            tr_te_inst_mode: mode,
            ..TraceControl::default()
        },
        ..EncoderConfig::default()
    }
}

fn no_prep(_: &mut Machine) {}

/// The decoded flow is the retired flow, whole.
fn exact(t: &Traced) {
    assert_eq!(t.o.got.gaps, 1, "gaps besides the end");
    assert_eq!(t.o.got.all(), t.o.expect.pcs);
}

/// The traps the decoder reported: kind and handler.
fn traps(t: &Traced) -> Vec<(TrapKind, u64)> {
    t.events
        .iter()
        .filter_map(|e| match e {
            Event::Trap { kind, handler, .. } => Some((*kind, *handler)),
            _ => None,
        })
        .collect()
}

fn half_words(from: u64, to: u64) -> u64 {
    (to - from) / 2
}

// ---------------------------------------------------------------------------------------------
// Table 26, "Back to back return": the second message has I-CNT 1 or 2, the size of the
// second return.
// ---------------------------------------------------------------------------------------------

/// main: jal ra, f1; exit. f1: jal t0, f2; ret (32- or 16-bit). f2: c.addi; jr t0.
#[rstest]
#[case::ret_32_bit(false, 2)]
#[case::c_ret_16_bit(true, 1)]
fn table_26_back_to_back_returns(
    #[case] c_ret: bool,
    #[case] second_icnt: u64,
    #[values(BTM, HTM)] mode: u8,
) {
    let mut a = Asm::new(BASE);
    let (f1, f2) = (a.label(), a.label());
    a.jal(RA, f1, false);
    let back = a.here();
    exit(&mut a);
    a.bind(f1);
    a.jal(T0, f2, false);
    let second = a.here();
    if c_ret {
        a.h(asm::c_jr(RA));
    } else {
        a.w(asm::jalr(0, RA, 0));
    }
    a.bind(f2);
    a.h(asm::c_addi(A0, 1));
    a.w(asm::jalr(0, T0, 0));
    let code = a.finish();
    let t = trace(&code, &no_prep, &config(mode));
    let mut e = Expected::new(mode);
    e.sync(sync::EXIT_DEBUG, 0, BASE)
        // jal, jal, c.addi, jr t0: the first return, to the second.
        .jump(btype::INDIRECT, 2 + 2 + 1 + 2, code.addr(second), 1)
        .jump(btype::INDIRECT, second_icnt, code.addr(back), 1)
        .off(evcode::ENTER_DEBUG, EXIT_HW, 1);
    assert_eq!(t.bodies, e.v);
    exact(&t);
}

// ---------------------------------------------------------------------------------------------
// Table 26, "Other back to back jumps or branches": the same, the second message's I-CNT is
// the size of the second instruction. In HTM branches go into HIST instead.
// ---------------------------------------------------------------------------------------------

/// A taken branch (or c.beqz) at `at` to `to`: `beq x0, x0` or `c.beqz s0` (s0 is 0).
fn taken(a: &mut Asm, compressed: bool, to: Label) {
    if compressed {
        a.branch(cond::EQ, S0, 0, to, true);
    } else {
        a.branch(cond::EQ, 0, 0, to, false);
    }
}

/// An indirect jump through `rt`: `jalr x0, 0(rt)` or `c.jr rt`.
fn jr(a: &mut Asm, compressed: bool, rt: u8) {
    if compressed {
        a.h(asm::c_jr(rt));
    } else {
        a.w(asm::jalr(0, rt, 0));
    }
}

#[rstest]
#[case::branch_32(false, 2)]
#[case::branch_16(true, 1)]
fn table_26_back_to_back_taken_branches(
    #[case] c: bool,
    #[case] second_icnt: u64,
    #[values(BTM, HTM)] mode: u8,
) {
    let mut a = Asm::new(BASE);
    let (l1, l2) = (a.label(), a.label());
    taken(&mut a, false, l1);
    a.h(asm::C_NOP);
    a.bind(l1);
    taken(&mut a, c, l2);
    a.h(asm::C_NOP);
    a.bind(l2);
    exit(&mut a);
    let code = a.finish();
    let t = trace(&code, &no_prep, &config(mode));
    let mut e = Expected::new(mode);
    e.sync(sync::EXIT_DEBUG, 0, BASE);
    if mode == BTM {
        e.direct(2)
            .direct(second_icnt)
            .off(evcode::ENTER_DEBUG, EXIT_HW, 1);
    } else {
        e.off(evcode::ENTER_DEBUG, 2 + second_icnt + EXIT_HW, 0b111);
    }
    assert_eq!(t.bodies, e.v);
    exact(&t);
}

#[rstest]
#[case::jump_32(false, 2)]
#[case::jump_16(true, 1)]
fn table_26_back_to_back_indirect_jumps(
    #[case] c: bool,
    #[case] second_icnt: u64,
    #[values(BTM, HTM)] mode: u8,
) {
    let mut a = Asm::new(BASE);
    let (l1, l2) = (a.label(), a.label());
    a.pcrel(T1, l1, Lo::Addi);
    a.pcrel(T2, l2, Lo::Addi);
    jr(&mut a, false, T1);
    a.h(asm::C_NOP);
    a.bind(l1);
    jr(&mut a, c, T2);
    a.h(asm::C_NOP);
    a.bind(l2);
    exit(&mut a);
    let code = a.finish();
    let t = trace(&code, &no_prep, &config(mode));
    let mut e = Expected::new(mode);
    e.sync(sync::EXIT_DEBUG, 0, BASE)
        .jump(btype::INDIRECT, 4 + 4 + 2, code.addr(l1), 1)
        .jump(btype::INDIRECT, second_icnt, code.addr(l2), 1)
        .off(evcode::ENTER_DEBUG, EXIT_HW, 1);
    assert_eq!(t.bodies, e.v);
    exact(&t);
}

#[rstest]
#[case::jump_32(false, 2)]
#[case::jump_16(true, 1)]
fn table_26_branch_then_jump(
    #[case] c: bool,
    #[case] second_icnt: u64,
    #[values(BTM, HTM)] mode: u8,
) {
    let mut a = Asm::new(BASE);
    let (l1, l2) = (a.label(), a.label());
    a.pcrel(T2, l2, Lo::Addi);
    taken(&mut a, false, l1);
    a.h(asm::C_NOP);
    a.bind(l1);
    jr(&mut a, c, T2);
    a.h(asm::C_NOP);
    a.bind(l2);
    exit(&mut a);
    let code = a.finish();
    let t = trace(&code, &no_prep, &config(mode));
    let mut e = Expected::new(mode);
    e.sync(sync::EXIT_DEBUG, 0, BASE);
    if mode == BTM {
        e.direct(4 + 2)
            .jump(btype::INDIRECT, second_icnt, code.addr(l2), 1);
    } else {
        e.jump(btype::INDIRECT, 4 + 2 + second_icnt, code.addr(l2), 0b11);
    }
    e.off(evcode::ENTER_DEBUG, EXIT_HW, 1);
    assert_eq!(t.bodies, e.v);
    exact(&t);
}

#[rstest]
#[case::branch_32(false, 2)]
#[case::branch_16(true, 1)]
fn table_26_jump_then_branch(
    #[case] c: bool,
    #[case] second_icnt: u64,
    #[values(BTM, HTM)] mode: u8,
) {
    let mut a = Asm::new(BASE);
    let (l1, l2) = (a.label(), a.label());
    a.pcrel(T1, l1, Lo::Addi);
    jr(&mut a, false, T1);
    a.h(asm::C_NOP);
    a.bind(l1);
    taken(&mut a, c, l2);
    a.h(asm::C_NOP);
    a.bind(l2);
    exit(&mut a);
    let code = a.finish();
    let t = trace(&code, &no_prep, &config(mode));
    let mut e = Expected::new(mode);
    e.sync(sync::EXIT_DEBUG, 0, BASE)
        .jump(btype::INDIRECT, 4 + 2, code.addr(l1), 1);
    if mode == BTM {
        e.direct(second_icnt).off(evcode::ENTER_DEBUG, EXIT_HW, 1);
    } else {
        e.off(evcode::ENTER_DEBUG, second_icnt + EXIT_HW, 0b11);
    }
    assert_eq!(t.bodies, e.v);
    exact(&t);
}

// ---------------------------------------------------------------------------------------------
// Table 26, "Back to back exceptions": the second message has B-TYPE 2 and I-CNT 0.
// ---------------------------------------------------------------------------------------------

/// U-mode runs an illegal instruction (delegated to S); the S handler's first instruction is a
/// misaligned load (not delegated: to M); the M handler exits. With `trTeContext`, each trap
/// message is followed by Ownership with the new privilege.
#[rstest]
fn table_26_back_to_back_exceptions(
    #[values(BTM, HTM)] mode: u8,
    #[values(false, true)] context: bool,
) {
    let mut a = Asm::new(BASE);
    let (user, shandler, mhandler) = (a.label(), a.label(), a.label());
    a.pcrel(T0, mhandler, Lo::Addi);
    a.w(asm::csrw(MTVEC, T0));
    a.pcrel(T0, shandler, Lo::Addi);
    a.w(asm::csrw(STVEC, T0));
    a.w(asm::addi(T0, 0, 1 << 2)); // illegal instruction
    a.w(asm::csrw(MEDELEG, T0));
    a.w(asm::addi(T0, 0, -1));
    a.w(asm::csrw(PMPADDR0, T0));
    a.w(asm::addi(T0, 0, 0x1f));
    a.w(asm::csrw(PMPCFG0, T0));
    a.pcrel(T0, user, Lo::Addi);
    a.w(asm::csrw(MEPC, T0));
    a.li32(T0, 0x1800);
    a.w(asm::csr(3, 0, MSTATUS, T0)); // MPP = U
    a.w(asm::MRET);
    let setup_end = a.here();
    a.bind(user);
    a.h(asm::c_addi(A0, 1));
    a.h(asm::ILLEGAL16);
    a.align4();
    a.bind(shandler);
    a.w(asm::ld(A0, 0, 1)); // misaligned
    a.align4();
    a.bind(mhandler);
    exit(&mut a);
    let code = a.finish();
    let cfg = EncoderConfig {
        control: TraceControl {
            tr_te_context: context,
            ..config(mode).control
        },
        ..config(mode)
    };
    let t = trace(&code, &no_prep, &cfg);
    let mut e = Expected::new(mode);
    e.sync(sync::EXIT_DEBUG, 0, BASE);
    if context {
        e.ownership((3 << 2) | FORMAT_SCONTEXT as u64); // PRV M, CONTEXT 0
    }
    e.jump(
        btype::INDIRECT,
        half_words(BASE, code.addr(setup_end)),
        code.addr(user),
        1,
    );
    if context {
        e.ownership(FORMAT_PRIVILEGE as u64); // PRV U
    }
    e.jump(btype::EXCEPTION, 1, code.addr(shandler), 1);
    if context {
        e.ownership(1 << 2); // PRV S
    }
    // The second exception: nothing ran in between.
    e.jump(btype::EXCEPTION, 0, code.addr(mhandler), 1);
    if context {
        e.ownership(3 << 2); // PRV M
    }
    e.off(evcode::ENTER_DEBUG, EXIT_HW, 1);
    assert_eq!(t.bodies, e.v);
    exact(&t);
    assert_eq!(
        traps(&t),
        [
            (TrapKind::Exception, code.addr(shandler)),
            (TrapKind::Exception, code.addr(mhandler))
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// Table 26, "Exception at interrupt destination": as above, B-TYPE 2 and I-CNT 0 after the
// interrupt's message (B-TYPE 3).
// ---------------------------------------------------------------------------------------------

/// mtvec is vectored; the timer interrupt (pending from reset: mtimecmp is 0) is taken right
/// after `csrsi mstatus, MIE`, and its vector (base + 4 * 7) holds an illegal instruction,
/// whose exception goes to the base, which exits.
#[rstest]
fn table_26_exception_at_interrupt_destination(
    #[values(BTM, HTM)] mode: u8,
    #[values(false, true)] illegal32: bool,
) {
    let mut a = Asm::new(BASE);
    let vec = a.label();
    a.pcrel(T0, vec, Lo::Addi);
    a.w(asm::i_type(op::OP_IMM, 6, T0, T0, 1)); // vectored
    a.w(asm::csrw(MTVEC, T0));
    a.w(asm::addi(T0, 0, MIP_MTIP as i32));
    a.w(asm::csrw(MIE, T0));
    a.h(asm::c_addi(A0, 1));
    a.w(asm::csr(6, 0, MSTATUS, 8)); // csrsi mstatus, MIE: the interrupt comes after it
    let interrupted = a.here();
    a.h(asm::c_addi(A0, 1));
    a.align4();
    a.bind(vec);
    exit(&mut a); // 24 bytes
    a.h(asm::C_NOP);
    a.h(asm::C_NOP);
    let mti = a.here();
    if illegal32 {
        a.w(asm::ILLEGAL32);
    } else {
        a.h(asm::ILLEGAL16);
    }
    let code = a.finish();
    assert_eq!(code.addr(mti), code.addr(vec) + 4 * 7);
    let t = trace(&code, &no_prep, &config(mode));
    let mut e = Expected::new(mode);
    e.sync(sync::EXIT_DEBUG, 0, BASE)
        .jump(
            btype::INTERRUPT,
            half_words(BASE, code.addr(interrupted)),
            code.addr(mti),
            1,
        )
        .jump(btype::EXCEPTION, 0, code.addr(vec), 1)
        .off(evcode::ENTER_DEBUG, EXIT_HW, 1);
    assert_eq!(t.bodies, e.v);
    exact(&t);
    assert_eq!(
        traps(&t),
        [
            (TrapKind::Interrupt, code.addr(mti)),
            (TrapKind::Exception, code.addr(vec))
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// Table 26, "Pending interrupt at start of hart": ProgTraceSync SYNC 3, then B-TYPE 3.
// ---------------------------------------------------------------------------------------------

#[rstest]
fn table_26_pending_interrupt_at_start_of_hart(#[values(BTM, HTM)] mode: u8) {
    let mut a = Asm::new(BASE);
    a.h(asm::c_addi(A0, 1));
    a.align4();
    let handler = a.here();
    exit(&mut a);
    let code = a.finish();
    let h = code.addr(handler);
    // The timer interrupt is enabled and pending (mtimecmp is 0) when the hart starts.
    let prepare = move |m: &mut Machine| {
        m.hart.csr.mtvec = h;
        m.hart.csr.mie = MIP_MTIP;
        m.hart.csr.mstatus |= MSTATUS_MIE;
    };
    let t = trace(&code, &prepare, &config(mode));
    let mut e = Expected::new(mode);
    e.sync(sync::EXIT_DEBUG, 0, BASE)
        .jump(btype::INTERRUPT, 0, h, 1)
        .off(evcode::ENTER_DEBUG, EXIT_HW, 1);
    assert_eq!(t.bodies, e.v);
    exact(&t);
    assert_eq!(t.o.expect.pcs[0], h, "the first instruction never retired");
    assert_eq!(traps(&t), [(TrapKind::Interrupt, h)]);
}

// ---------------------------------------------------------------------------------------------
// Table 26, "Exception at first instruction traced": ProgTraceSync SYNC 3, then B-TYPE 2.
// ---------------------------------------------------------------------------------------------

/// The first instruction raises an exception. Those that do not retire give I-CNT 0; ecall
/// and ebreak retire (errata) and are counted.
#[rstest]
#[case::illegal_16_bit(asm::ILLEGAL16 as u32, 0)]
#[case::illegal_32_bit(asm::ILLEGAL32, 0)]
#[case::misaligned_load(asm::ld(A0, 0, 1), 0)]
#[case::load_access_fault(asm::ld(A0, 0, 0), 0)]
#[case::ecall(asm::ECALL, 2)]
#[case::c_ebreak(asm::C_EBREAK as u32, 1)]
fn table_26_exception_at_first_instruction_traced(
    #[case] first: u32,
    #[case] icnt: u64,
    #[values(BTM, HTM)] mode: u8,
) {
    let mut a = Asm::new(BASE);
    a.raw(first);
    a.align4();
    let handler = a.here();
    exit(&mut a);
    let code = a.finish();
    let h = code.addr(handler);
    let prepare = move |m: &mut Machine| m.hart.csr.mtvec = h;
    let t = trace(&code, &prepare, &config(mode));
    let mut e = Expected::new(mode);
    e.sync(sync::EXIT_DEBUG, 0, BASE)
        .jump(btype::EXCEPTION, icnt, h, 1)
        .off(evcode::ENTER_DEBUG, EXIT_HW, 1);
    assert_eq!(t.bodies, e.v);
    exact(&t);
    assert_eq!(traps(&t), [(TrapKind::Exception, h)]);
}

/// The same when trace starts (SYNC 5) at an instruction that raises an exception: a
/// trace-on trigger on it.
#[rstest]
fn table_26_exception_at_first_instruction_traced_after_trace_on(#[values(BTM, HTM)] mode: u8) {
    let mut a = Asm::new(BASE);
    let first = a.label();
    a.jal(0, first, false);
    a.h(asm::C_NOP);
    a.bind(first);
    a.w(asm::ILLEGAL32);
    a.align4();
    let handler = a.here();
    exit(&mut a);
    let code = a.finish();
    let h = code.addr(handler);
    let prepare = move |m: &mut Machine| m.hart.csr.mtvec = h;
    let cfg = EncoderConfig {
        control: TraceControl {
            trace_on: Some(code.addr(first)),
            ..config(mode).control
        },
        ..config(mode)
    };
    let t = trace(&code, &prepare, &cfg);
    let mut e = Expected::new(mode);
    e.off(evcode::TRACE_DISABLED, 0, 1)
        .sync(sync::TRACE_ENABLE, 0, code.addr(first))
        .jump(btype::EXCEPTION, 0, h, 1)
        .off(evcode::ENTER_DEBUG, EXIT_HW, 1);
    assert_eq!(t.bodies, e.v);
    // Everything but the jump before trace started.
    assert_eq!(t.o.got.all(), t.o.expect.pcs[1..]);
    assert_eq!(traps(&t), [(TrapKind::Exception, h)]);
}

// ---------------------------------------------------------------------------------------------
// Table 26, "Trace starts disabled": ProgTraceCorrelation EVCODE 4, then SYNC 5 when trace is
// enabled.
// ---------------------------------------------------------------------------------------------

/// Two instructions and a jump run untraced; trace starts at the jump's target, by a trace-on
/// trigger or by a filter on the addresses from there.
#[rstest]
fn table_26_trace_starts_disabled(
    #[values(BTM, HTM)] mode: u8,
    #[values(false, true)] filter: bool,
) {
    let mut a = Asm::new(BASE);
    let on = a.label();
    a.h(asm::c_addi(A0, 1));
    a.h(asm::c_addi(A0, 1));
    a.jal(0, on, false);
    a.h(asm::C_NOP);
    a.bind(on);
    a.h(asm::c_addi(A0, 1));
    a.h(asm::c_addi(A0, 1));
    exit(&mut a);
    let code = a.finish();
    let start = code.addr(on);
    let cfg = if filter {
        EncoderConfig {
            control: TraceControl {
                filter: Some(Filter {
                    start,
                    end: code.end(),
                    privs: 1 << 3,
                }),
                ..config(mode).control
            },
            ..config(mode)
        }
    } else {
        EncoderConfig {
            control: TraceControl {
                trace_on: Some(start),
                ..config(mode).control
            },
            ..config(mode)
        }
    };
    let t = trace(&code, &no_prep, &cfg);
    let mut e = Expected::new(mode);
    e.off(evcode::TRACE_DISABLED, 0, 1)
        .sync(sync::TRACE_ENABLE, 0, start)
        .off(evcode::ENTER_DEBUG, 2 + EXIT_HW, 1);
    assert_eq!(t.bodies, e.v);
    assert_eq!(t.o.got.all(), t.o.expect.pcs[3..]);
    assert_eq!(t.o.expect.pcs[3], start);
}

// ---------------------------------------------------------------------------------------------
// Table 26, "Hart stops with trace disabled": ProgTraceCorrelation EVCODE 0 with I-CNT 0.
// ---------------------------------------------------------------------------------------------

/// The settings that stop trace at the jump at `jump`: a filter that ends at its target
/// `after` (`filter`), or a trace-off trigger on the jump.
fn stop_at(mode: u8, filter: bool, jump: u64, after: u64) -> EncoderConfig {
    let control = if filter {
        TraceControl {
            filter: Some(Filter {
                start: BASE,
                end: after,
                privs: 1 << 3,
            }),
            ..config(mode).control
        }
    } else {
        TraceControl {
            trace_off: Some(jump),
            ..config(mode).control
        }
    };
    EncoderConfig {
        control,
        ..config(mode)
    }
}

/// Trace stops after a direct jump (a trace-off trigger on it, or a filter that ends there),
/// and the program runs to its end untraced.
#[rstest]
fn table_26_hart_stops_with_trace_disabled(
    #[values(BTM, HTM)] mode: u8,
    #[values(false, true)] filter: bool,
) {
    let mut a = Asm::new(BASE);
    let after = a.label();
    a.h(asm::c_addi(A0, 1));
    let jump = a.here();
    a.jal(0, after, false);
    a.h(asm::C_NOP);
    a.bind(after);
    a.h(asm::c_addi(A0, 1));
    exit(&mut a);
    let code = a.finish();
    let cfg = stop_at(mode, filter, code.addr(jump), code.addr(after));
    let t = trace(&code, &no_prep, &cfg);
    let mut e = Expected::new(mode);
    e.sync(sync::EXIT_DEBUG, 0, BASE)
        .off(evcode::TRACE_DISABLED, 1 + 2, 1)
        .off(evcode::ENTER_DEBUG, 0, 1);
    assert_eq!(t.bodies, e.v);
    assert_eq!(t.o.got.all(), t.o.expect.pcs[..2]);
    assert_eq!(
        t.events
            .iter()
            .filter_map(|e| match e {
                Event::TraceOff { evcode, .. } => Some(*evcode),
                _ => None,
            })
            .collect::<Vec<_>>(),
        [evcode::TRACE_DISABLED, evcode::ENTER_DEBUG]
    );
}

/// Trace stops right after an uninferable jump. A trace-off trigger on it stops trace after
/// its beat: the jump is counted in ProgTraceCorrelation's I-CNT and its target, which is not
/// traced, is not reported. A filter that ends there stops trace at the next beat, which
/// reports the jump first. The decoder takes both (it used to reject the first).
#[rstest]
fn table_26_trace_disabled_after_an_uninferable_jump(
    #[values(BTM, HTM)] mode: u8,
    #[values(false, true)] filter: bool,
) {
    let mut a = Asm::new(BASE);
    let after = a.label();
    a.h(asm::c_addi(A0, 1));
    a.pcrel(T1, after, Lo::Addi);
    let jump = a.here();
    a.w(asm::jalr(0, T1, 0));
    a.h(asm::C_NOP);
    a.bind(after);
    a.h(asm::c_addi(A0, 1));
    exit(&mut a);
    let code = a.finish();
    let cfg = stop_at(mode, filter, code.addr(jump), code.addr(after));
    let t = trace(&code, &no_prep, &cfg);
    let mut e = Expected::new(mode);
    e.sync(sync::EXIT_DEBUG, 0, BASE);
    if filter {
        e.jump(btype::INDIRECT, 1 + 4 + 2, code.addr(after), 1)
            .off(evcode::TRACE_DISABLED, 0, 1);
    } else {
        e.off(evcode::TRACE_DISABLED, 1 + 4 + 2, 1);
    }
    e.off(evcode::ENTER_DEBUG, 0, 1);
    assert_eq!(t.bodies, e.v);
    assert_eq!(t.o.got.all(), t.o.expect.pcs[..4]);
}

/// The same after a direct jump reported as a taken branch (`trTeInstEnAllJumps`) just as a
/// periodic sync falls due: in BTM its message would have been DirectBranchSync, sent with
/// the next beat, so ProgTraceCorrelation counts it; in HTM it is a HIST bit. (The decoder
/// used to reject the BTM stream.)
#[rstest]
fn table_26_trace_disabled_after_a_direct_jump_with_all_jumps(#[values(BTM, HTM)] mode: u8) {
    let mut a = Asm::new(BASE);
    let after = a.label();
    for _ in 0..7 {
        a.w(asm::addi(A0, A0, 1));
    }
    let jump = a.here();
    a.jal(0, after, false);
    a.h(asm::C_NOP);
    a.bind(after);
    exit(&mut a);
    let code = a.finish();
    let cfg = EncoderConfig {
        control: TraceControl {
            tr_te_inst_en_all_jumps: true,
            // A periodic sync every 16 half-words: due at the jump.
            tr_te_inst_sync_mode: 3,
            tr_te_inst_sync_max: 0,
            trace_off: Some(code.addr(jump)),
            ..config(mode).control
        },
        ..config(mode)
    };
    let t = trace(&code, &no_prep, &cfg);
    let mut e = Expected::new(mode);
    e.sync(sync::EXIT_DEBUG, 0, BASE)
        .off(evcode::TRACE_DISABLED, 16, 0b11)
        .off(evcode::ENTER_DEBUG, 0, 1);
    assert_eq!(t.bodies, e.v);
    assert_eq!(t.o.got.all(), t.o.expect.pcs[..8]);
}
