//! N-Trace round trips over random programs and random encoder configurations (proptest).
//!
//! A program is random but always terminates (or is cut by the instruction limit): straight
//! ALU code mixing 16- and 32-bit instructions, forward conditional branches (if/else),
//! bounded loops (backward branches), direct and indirect calls with both link registers
//! (x1, x5) to functions that only call later functions, every return form, returns to
//! somewhere else than the call site (to `ra + 4`, as a longjmp would), co-routine swaps
//! (`jalr x1, x5` / `jalr x5, x1` / `c.jalr t0`), other direct and indirect jumps, jumps
//! whose target an `auipc` right before gives (sequentially inferable), exceptions (ecall,
//! ebreak, c.ebreak, illegal 16- and 32-bit instructions, misaligned loads and stores, access
//! faults) that a handler skips (mepc += length), timer interrupts that land in the middle of
//! code, `wfi`, CSR accesses and satp.ASID changes (context), in M-, S- or U-mode.
//!
//! The configuration is random over every option of the encoder (`EncoderConfig::legalize`
//! applies the real constraints) and of the ingress port, and the port is driven all three
//! ways. The decoded flow must equal the retired pcs exactly (with implicit return modes 1
//! and 2, up to the first return they cannot follow), or stretch by stretch between the gaps
//! the stream reports when the configuration loses or filters trace, with no decoding error.
//! Besides, the decoded timestamps never go back, and with SRC the stream interleaved with
//! another source's messages decodes the same.
//!
//! Configurations the encoder cannot implement with the port they get are not drawn: implicit
//! return with a 3-bit itype (which tells no calls and returns apart), sequential jumps from a
//! hart that does not report sijump.

mod common;

use common::asm::{self, cond, op, Asm, Code, Label, Lo, RA, SP, T0};
use common::{round_trip, verify, Case, Drive, Expectation, Outcome};
use encoder::decoder::{Decoder, DecoderConfig, Warning};
use encoder::encoder::{EncoderConfig, Filter, TraceControl, BTM, HTM};
use encoder::image::Image;
use encoder::msg;
use iss::csr::{CYCLE, INSTRET, MCOUNTEREN, MEPC, MIE, MSCRATCH, MSTATUS, MTVEC, PMPADDR0};
use iss::csr::{MCAUSE, PMPCFG0, SATP};
use iss::ingress::{ContextSource, IngressConfig, Retirement};
use iss::Detail;
use iss::Machine;
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;

const BASE: u64 = 0x8000_0000;
/// Instructions a random program may run.
const LIMIT: u64 = 30_000;

/// Registers the random ALU code reads and writes.
const DATA: [u8; 14] = [10, 11, 12, 13, 14, 15, 16, 17, 19, 20, 21, 22, 23, 24];
/// The data registers a compressed instruction with a 3-bit register field can name.
const CDATA: [u8; 6] = [10, 11, 12, 13, 14, 15];
/// Registers that hold jump targets (never links).
const TEMPS: [u8; 4] = [3, 4, 6, 7];
/// Loop counters by nesting depth (functions save them).
const COUNTERS: [u8; 3] = [8, 9, 18];
/// Holds the CLINT's mtimecmp address.
const TIMECMP: u8 = 27;
/// Holds how far the timer handler pushes mtimecmp.
const DELTA: u8 = 31;
// x28..x30: the trap handler's.

// ---------------------------------------------------------------------------------------------
// Programs
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
enum Item {
    /// Straight-line instructions, each chosen by its seed.
    Alu(Vec<u32>),
    /// A forward conditional branch over `then` (and a jump over `els`).
    If {
        cond: u32,
        then: Vec<Item>,
        els: Option<Vec<Item>>,
    },
    /// A loop run `count` times (a backward branch on a counter).
    Loop {
        count: u8,
        body: Vec<Item>,
    },
    /// A call, direct or indirect, to a function.
    Call {
        func: usize,
        form: u8,
    },
    /// A forward jump, direct or indirect, over instructions never run.
    Jump {
        form: u8,
        junk: Vec<u32>,
    },
    /// An instruction that raises an exception.
    Trap(u8),
    /// Make the timer interrupt pending now.
    Timer(u8),
    Csr(u32),
    /// A co-routine entered by a call, swapped with twice, and returned from; the parts run
    /// in order c1, main, c2.
    Coroutine {
        form: u8,
        c1: Vec<Item>,
        main: Vec<Item>,
        c2: Vec<Item>,
    },
    /// Write satp with this ASID (a context change; illegal in U-mode).
    SetAsid(u16),
    Wfi,
}

#[derive(Clone, Debug)]
struct Func {
    /// Bit 0: link register x5 (else x1); bits 2:1: return form; bits 7:5 == 0: return to
    /// `link + 4`, past a jump its call sites reserve for it.
    flags: u8,
    body: Vec<Item>,
}

impl Func {
    fn link(&self) -> u8 {
        if self.flags & 1 != 0 {
            T0
        } else {
            RA
        }
    }

    fn odd(&self) -> bool {
        self.flags >> 5 == 0
    }
}

#[derive(Clone, Debug)]
struct Program {
    /// The privilege the body runs in: 3 M, 1 S, 0 U (traps go to M and come back).
    prv: u8,
    /// Initial values of the data registers.
    regs: Vec<u32>,
    /// Initial mtimecmp (small: an interrupt soon) and the handler's push (index).
    timer0: u8,
    delta: u8,
    main: Vec<Item>,
    funcs: Vec<Func>,
    /// A long loop (where in `main`, how many times, its body): it runs past the end of the
    /// hart's time quantum, so that a timer interrupt lands anywhere in it.
    spin: Option<(u8, u16, Vec<Item>)>,
}

impl Program {
    /// Whether a return may go elsewhere than its call's return address (conservatively).
    fn has_odd_returns(&self) -> bool {
        fn jumps_through_links(items: &[Item]) -> bool {
            items.iter().any(|i| match i {
                Item::Jump { form, .. } => form % 8 >= 6,
                Item::If { then, els, .. } => {
                    jumps_through_links(then) || els.as_deref().is_some_and(jumps_through_links)
                }
                Item::Loop { body, .. } => jumps_through_links(body),
                _ => false,
            })
        }
        self.funcs.iter().any(|f| f.odd())
            || jumps_through_links(&self.main)
            || self
                .spin
                .as_ref()
                .is_some_and(|s| jumps_through_links(&s.2))
    }
}

fn leaf() -> impl Strategy<Value = Item> {
    prop_oneof![
        8 => vec(any::<u32>(), 1..6).prop_map(Item::Alu),
        2 => (any::<u8>(), vec(any::<u32>(), 0..3))
            .prop_map(|(form, junk)| Item::Jump { form, junk }),
        2 => any::<u8>().prop_map(Item::Trap),
        1 => any::<u8>().prop_map(Item::Timer),
        1 => any::<u32>().prop_map(Item::Csr),
        1 => any::<u16>().prop_map(Item::SetAsid),
        1 => Just(Item::Wfi),
    ]
}

/// Items without calls, loops or co-routines (for co-routine bodies).
fn simple() -> impl Strategy<Value = Item> {
    prop_oneof![
        4 => leaf(),
        1 => (any::<u32>(), vec(leaf(), 1..3), option::of(vec(leaf(), 1..3)))
            .prop_map(|(cond, then, els)| Item::If { cond, then, els }),
    ]
}

fn item() -> impl Strategy<Value = Item> {
    let leaf = prop_oneof![
        4 => leaf(),
        2 => (any::<usize>(), any::<u8>()).prop_map(|(func, form)| Item::Call { func, form }),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            3 => (
                any::<u32>(),
                vec(inner.clone(), 1..4),
                option::of(vec(inner.clone(), 1..3))
            )
                .prop_map(|(cond, then, els)| Item::If { cond, then, els }),
            2 => (1u8..=4, vec(inner, 1..4)).prop_map(|(count, body)| Item::Loop { count, body }),
            1 => (
                any::<u8>(),
                vec(simple(), 0..3),
                vec(simple(), 0..3),
                vec(simple(), 0..3)
            )
                .prop_map(|(form, c1, main, c2)| Item::Coroutine { form, c1, main, c2 }),
        ]
    })
}

fn program() -> impl Strategy<Value = Program> {
    (
        prop_oneof![2 => Just(3u8), 1 => Just(1u8), 1 => Just(0u8)],
        vec(any::<u32>(), DATA.len()),
        any::<u8>(),
        any::<u8>(),
        vec(item(), 1..10),
        vec(
            (any::<u8>(), vec(item(), 1..5)).prop_map(|(flags, body)| Func { flags, body }),
            0..5,
        ),
        prop_oneof![
            4 => Just(None),
            1 => (any::<u8>(), 300u16..700, vec(simple(), 1..4)).prop_map(Some),
        ],
    )
        .prop_map(|(prv, regs, timer0, delta, main, funcs, spin)| Program {
            prv,
            regs,
            timer0,
            delta,
            main,
            funcs,
            spin,
        })
}

// ---------------------------------------------------------------------------------------------
// Assembly
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy)]
struct Ctx {
    /// Loop nesting depth.
    depth: usize,
    /// x1 and x5 hold nothing live (the main program, outside co-routines).
    links_free: bool,
    /// The function being emitted (it may only call later ones).
    func: Option<usize>,
}

struct Gen<'a> {
    a: Asm,
    p: &'a Program,
    funcs: Vec<Label>,
    /// Co-routine bodies to emit after the functions: entry, form, c1, c2.
    deferred: Vec<(Label, u8, Vec<Item>, Vec<Item>)>,
}

fn pick<T: Copy>(v: &[T], seed: u32) -> T {
    v[seed as usize % v.len()]
}

fn contains_frame_needs(items: &[Item]) -> bool {
    items.iter().any(|i| match i {
        Item::Loop { .. } | Item::Call { .. } | Item::Coroutine { .. } => true,
        Item::If { then, els, .. } => {
            contains_frame_needs(then) || els.as_deref().is_some_and(contains_frame_needs)
        }
        _ => false,
    })
}

impl Gen<'_> {
    fn alu(&mut self, seed: u32) {
        let a = &mut self.a;
        let rd = pick(&DATA, seed >> 5);
        let rs1 = pick(&DATA, seed >> 9);
        let rs2 = pick(&DATA, seed >> 13);
        let crd = pick(&CDATA, seed >> 5);
        let crs2 = pick(&CDATA, seed >> 9);
        let imm12 = ((seed >> 17) & 0xfff) as i32 - 2048;
        let imm6 = ((seed >> 17) & 0x3f) as i32 - 32;
        let nz6 = if imm6 == 0 { 1 } else { imm6 };
        let sh = (seed >> 17) % 63 + 1;
        let r = |f3, f7| asm::r_type(op::OP, f3, f7, rd, rs1, rs2);
        match seed % 30 {
            0 => a.w(r(0, 0)),
            1 => a.w(r(0, 0x20)),
            2 => a.w(r(4, 0)),
            3 => a.w(r(6, 0)),
            4 => a.w(r(7, 0)),
            5 => a.w(r(1, 0)),
            6 => a.w(r(5, 0)),
            7 => a.w(r(5, 0x20)),
            8 => a.w(r(2, 0)),
            9 => a.w(r(3, 0)),
            10 => a.w(asm::r_type(op::OP_32, 0, 0, rd, rs1, rs2)),
            11 => a.w(asm::r_type(op::OP_32, 0, 0x20, rd, rs1, rs2)),
            12 => a.w(r(0, 1)),
            13 => a.w(asm::addi(rd, rs1, imm12)),
            14 => a.w(asm::i_type(op::OP_IMM, 4, rd, rs1, imm12)),
            15 => a.w(asm::i_type(op::OP_IMM, 7, rd, rs1, imm12)),
            16 => a.w(asm::i_type(op::OP_IMM, 1, rd, rs1, sh as i32)),
            17 => a.w(asm::i_type(op::OP_IMM, 5, rd, rs1, sh as i32 | 0x400)),
            18 => a.w(asm::i_type(op::OP_IMM_32, 0, rd, rs1, imm12)),
            19 => {
                if seed & (1 << 31) != 0 {
                    a.w(asm::lui(rd, seed >> 12))
                } else {
                    a.w(asm::auipc(rd, seed >> 12))
                }
            }
            20 => a.w(asm::ld(rd, SP, (((seed >> 17) % 32) * 8) as i32)),
            21 => a.w(asm::sd(rs2, SP, -8 * (1 + ((seed >> 17) % 32) as i32))),
            22 => a.h(asm::c_addi(rd, nz6)),
            23 => a.h(asm::c_li(rd, imm6)),
            24 => a.h(asm::c_lui(rd, nz6)),
            25 => a.h(asm::c_mv(rd, rs2)),
            26 => a.h(asm::c_add(rd, rs2)),
            27 => {
                let (w, f) = pick(
                    &[(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1)],
                    seed >> 20,
                );
                a.h(asm::c_arith(w, f, crd, crs2))
            }
            28 => match (seed >> 25) % 4 {
                0 => a.h(asm::c_slli(rd, sh)),
                1 => a.h(asm::c_srli(crd, sh)),
                2 => a.h(asm::c_srai(crd, sh)),
                _ => a.h(asm::c_andi(crd, imm6)),
            },
            _ => match (seed >> 25) % 4 {
                0 => a.h(asm::c_addiw(rd, imm6)),
                1 => a.h(asm::c_ldsp(rd, ((seed >> 17) % 32) * 8)),
                2 => a.h(asm::c_mv(crd, rs2)),
                _ => a.h(asm::C_NOP),
            },
        }
    }

    /// A conditional branch to `to` (compressed for some seeds).
    fn branch(&mut self, seed: u32, to: Label) {
        let f3 = pick(
            &[cond::EQ, cond::NE, cond::LT, cond::GE, cond::LTU, cond::GEU],
            seed,
        );
        if seed & (1 << 20) != 0 {
            let rs1 = pick(&CDATA, seed >> 3);
            self.a.branch(f3 & 1, rs1, 0, to, true);
        } else {
            let zero = |s: u32| s & 3 == 0;
            let rs1 = if zero(seed >> 6) {
                0
            } else {
                pick(&DATA, seed >> 8)
            };
            let rs2 = if zero(seed >> 12) {
                0
            } else {
                pick(&DATA, seed >> 14)
            };
            self.a.branch(f3, rs1, rs2, to, false);
        }
    }

    fn items(&mut self, items: &[Item], ctx: Ctx) {
        for i in items {
            self.item(i, ctx);
        }
    }

    fn item(&mut self, item: &Item, ctx: Ctx) {
        match item {
            Item::Alu(seeds) => {
                for &s in seeds {
                    self.alu(s);
                }
            }
            Item::If { cond, then, els } => {
                let else_l = self.a.label();
                self.branch(*cond, else_l);
                self.items(then, ctx);
                match els {
                    Some(els) => {
                        let end = self.a.label();
                        self.a.jal(0, end, cond & (1 << 21) != 0);
                        self.a.bind(else_l);
                        self.items(els, ctx);
                        self.a.bind(end);
                    }
                    None => self.a.bind(else_l),
                }
            }
            Item::Loop { count, body } => {
                if ctx.depth >= COUNTERS.len() {
                    self.items(body, ctx);
                    return;
                }
                let ctr = COUNTERS[ctx.depth];
                if (8..16).contains(&ctr) {
                    self.a.h(asm::c_li(ctr, *count as i32));
                } else {
                    self.a.w(asm::addi(ctr, 0, *count as i32));
                }
                let top = self.a.here();
                self.items(
                    body,
                    Ctx {
                        depth: ctx.depth + 1,
                        ..ctx
                    },
                );
                if count % 2 == 0 {
                    self.a.h(asm::c_addi(ctr, -1));
                } else {
                    self.a.w(asm::addi(ctr, ctr, -1));
                }
                self.a.branch(cond::NE, ctr, 0, top, true);
            }
            Item::Call { func, form } => {
                let n = self.p.funcs.len();
                let first = ctx.func.map_or(0, |k| k + 1);
                if first >= n {
                    return;
                }
                let k = first + func % (n - first);
                let f = &self.p.funcs[k];
                let (to, link, odd) = (self.funcs[k], f.link(), f.odd());
                let rt = pick(&TEMPS, *form as u32 >> 3);
                match form % 5 {
                    0 => self.a.jal(link, to, false),
                    1 => {
                        self.a.pcrel(rt, to, Lo::Addi);
                        self.a.w(asm::jalr(link, rt, 0));
                    }
                    2 => {
                        self.a.pcrel(rt, to, Lo::Addi);
                        if link == RA {
                            self.a.h(asm::c_jalr(rt));
                        } else {
                            self.a.w(asm::jalr(link, rt, 0));
                        }
                    }
                    3 => self.a.pcrel(rt, to, Lo::Jalr(link)),
                    _ => self.a.pcrel(link, to, Lo::Jalr(link)),
                }
                if odd {
                    // The function returns past this jump.
                    let cont = self.a.label();
                    self.a.jal(0, cont, false);
                    self.a.bind(cont);
                }
            }
            Item::Jump { form, junk } => {
                let to = self.a.label();
                let rt = pick(&TEMPS, *form as u32 >> 3);
                let rd = pick(&DATA, *form as u32 >> 5);
                let link = if form & 8 != 0 { T0 } else { RA };
                let other = if link == RA { T0 } else { RA };
                match form % 8 {
                    // Through a link register, with the target from the auipc before: a
                    // return, or a co-routine swap, to somewhere no call returns to.
                    6 if ctx.links_free => self.a.pcrel(link, to, Lo::Jalr(0)),
                    7 if ctx.links_free => self.a.pcrel(link, to, Lo::Jalr(other)),
                    0 => self.a.jal(0, to, form & 0x80 != 0),
                    1 => self.a.jal(rd, to, false),
                    2 => {
                        self.a.pcrel(rt, to, Lo::Addi);
                        self.a.w(asm::jalr(0, rt, 0));
                    }
                    3 => {
                        self.a.pcrel(rt, to, Lo::Addi);
                        self.a.h(asm::c_jr(rt));
                    }
                    4 => self.a.pcrel(rt, to, Lo::Jalr(0)),
                    _ => {
                        self.a.pcrel(rt, to, Lo::Addi);
                        self.a.w(asm::jalr(rd, rt, 0));
                    }
                }
                for &j in junk {
                    // Never run: anything, even an illegal encoding.
                    self.a.raw(if j & 1 == 0 { j & 0xfffc } else { j | 3 });
                }
                self.a.bind(to);
            }
            Item::Trap(t) => {
                let rd = pick(&DATA, *t as u32 >> 3);
                match t % 8 {
                    0 => self.a.w(asm::ECALL),
                    1 => self.a.w(asm::EBREAK),
                    2 => self.a.h(asm::C_EBREAK),
                    3 => self.a.h(asm::ILLEGAL16),
                    4 => self.a.w(asm::ILLEGAL32),
                    5 => {
                        let (f3, off) = pick(&[(3, -15), (2, -14), (1, -13)], *t as u32 >> 6);
                        self.a.w(asm::load(f3, rd, SP, off))
                    }
                    6 => self.a.w(asm::s_type(3, SP, rd, -13)),
                    // Access faults: x8 and x9 hold loop counts (small), x0 is 0.
                    _ if t & 0x40 != 0 => self.a.h(asm::c_ld(pick(&CDATA, *t as u32), 8, 0)),
                    _ => self.a.w(asm::ld(rd, 0, 0)),
                }
            }
            Item::Timer(t) => {
                self.a.w(asm::sd(0, TIMECMP, 0));
                match t % 3 {
                    0 => {}
                    1 => {
                        let c = if self.p.prv == 3 { MSCRATCH } else { CYCLE };
                        self.a.w(asm::csrr(pick(&DATA, *t as u32), c));
                    }
                    _ => self.a.w(asm::WFI),
                }
            }
            Item::Csr(s) => {
                let rd = pick(&DATA, s >> 3);
                match s % 4 {
                    0 => self.a.w(asm::csrr(rd, MSCRATCH)),
                    1 => self.a.w(asm::csrw(MSCRATCH, rd)),
                    2 => self.a.w(asm::csrr(rd, CYCLE)),
                    _ => self.a.w(asm::csrr(rd, INSTRET)),
                }
            }
            Item::SetAsid(v) => {
                self.a.w(asm::addi(6, 0, (v & 0x7ff) as i32));
                self.a.w(asm::i_type(op::OP_IMM, 1, 6, 6, 44));
                self.a.w(asm::csrw(SATP, 6));
            }
            Item::Wfi => self.a.w(asm::WFI),
            Item::Coroutine { form, c1, main, c2 } => {
                let (a, b) = if form & 1 != 0 { (T0, RA) } else { (RA, T0) };
                let entry = self.a.label();
                if form & 4 != 0 {
                    let rt = pick(&TEMPS, *form as u32 >> 3);
                    self.a.pcrel(rt, entry, Lo::Addi);
                    self.a.w(asm::jalr(a, rt, 0));
                } else {
                    self.a.jal(a, entry, false);
                }
                self.items(
                    main,
                    Ctx {
                        links_free: false,
                        ..ctx
                    },
                );
                // Swap back into the co-routine (jalr a, 0(b)).
                if form & 2 != 0 && a == RA && b == T0 {
                    self.a.h(asm::c_jalr(T0));
                } else {
                    self.a.w(asm::jalr(a, b, 0));
                }
                self.deferred.push((entry, *form, c1.clone(), c2.clone()));
            }
        }
    }

    /// A loop of `count` iterations (counter x8, at the top level).
    fn spin(&mut self, (_, count, body): &(u8, u16, Vec<Item>)) {
        let ctr = COUNTERS[0];
        self.a.li32(ctr, *count as i32);
        let top = self.a.here();
        self.items(
            body,
            Ctx {
                depth: 1,
                links_free: true,
                func: None,
            },
        );
        self.a.h(asm::c_addi(ctr, -1));
        self.a.branch(cond::NE, ctr, 0, top, true);
    }

    fn coroutine_body(&mut self, entry: Label, form: u8, c1: &[Item], c2: &[Item]) {
        let (a, b) = if form & 1 != 0 { (T0, RA) } else { (RA, T0) };
        // Its parts are simple items: no loops, calls or co-routines.
        let ctx = Ctx {
            depth: 0,
            links_free: false,
            func: None,
        };
        self.a.bind(entry);
        self.items(c1, ctx);
        // Swap to the caller (jalr b, 0(a)).
        if form & 2 != 0 && b == RA && a == T0 {
            self.a.h(asm::c_jalr(T0));
        } else {
            self.a.w(asm::jalr(b, a, 0));
        }
        self.items(c2, ctx);
        if form & 8 != 0 {
            self.a.h(asm::c_jr(a));
        } else {
            self.a.w(asm::jalr(0, a, 0));
        }
    }

    fn func(&mut self, k: usize) {
        let f = &self.p.funcs[k];
        let link = f.link();
        self.a.bind(self.funcs[k]);
        let frame = contains_frame_needs(&f.body) || f.flags & 0x10 != 0;
        let saved = [RA, T0, COUNTERS[0], COUNTERS[1], COUNTERS[2]];
        if frame {
            self.a.w(asm::addi(SP, SP, -48));
            for (i, &r) in saved.iter().enumerate() {
                self.a.w(asm::sd(r, SP, 8 * i as i32));
            }
        }
        self.items(
            &f.body,
            Ctx {
                depth: 0,
                links_free: false,
                func: Some(k),
            },
        );
        if frame {
            for (i, &r) in saved.iter().enumerate() {
                self.a.w(asm::ld(r, SP, 8 * i as i32));
            }
            self.a.w(asm::addi(SP, SP, 48));
        }
        if f.odd() {
            self.a.w(asm::addi(link, link, 4));
        }
        match (f.flags >> 1) % 3 {
            0 => self.a.w(asm::jalr(0, link, 0)),
            1 => self.a.h(asm::c_jr(link)),
            // jalr a7, 0(link): still a return (rd is not a link register).
            _ => self.a.w(asm::jalr(17, link, 0)),
        }
    }
}

/// mtimecmp pushes the timer handler may use.
const DELTAS: [i64; 4] = [1, 40, 120, 1 << 40];

fn assemble(p: &Program) -> Code {
    let mut g = Gen {
        a: Asm::new(BASE),
        p,
        funcs: Vec::new(),
        deferred: Vec::new(),
    };
    g.funcs = (0..p.funcs.len()).map(|_| g.a.label()).collect();
    let handler = g.a.label();
    let body = g.a.label();
    let a = &mut g.a;
    // Setup, in M-mode.
    a.w(asm::auipc(SP, 0x20));
    a.pcrel(28, handler, Lo::Addi);
    a.w(asm::csrw(MTVEC, 28));
    a.w(asm::lui(TIMECMP, 0x2004));
    let delta = DELTAS[p.delta as usize % DELTAS.len()];
    if delta >= 1 << 11 {
        a.w(asm::addi(DELTA, 0, 1));
        a.w(asm::i_type(
            op::OP_IMM,
            1,
            DELTA,
            DELTA,
            delta.trailing_zeros() as i32,
        ));
    } else {
        a.w(asm::addi(DELTA, 0, delta as i32));
    }
    // The first interrupt: at once, soon, or when mtime reaches the handler's push.
    match p.timer0 % 4 {
        0 => a.w(asm::sd(0, TIMECMP, 0)),
        1 => {
            a.w(asm::addi(28, 0, p.timer0 as i32 * 2));
            a.w(asm::sd(28, TIMECMP, 0));
        }
        _ => a.w(asm::sd(DELTA, TIMECMP, 0)),
    }
    a.w(asm::addi(28, 0, 0x80));
    a.w(asm::csrw(MIE, 28));
    for (i, &r) in DATA.iter().enumerate() {
        let v = p.regs.get(i).copied().unwrap_or(0);
        // Small values make branches go both ways.
        let v = if v & 1 != 0 {
            (v >> 1) as i32 % 8
        } else {
            v as i32
        };
        a.li32(r, v);
    }
    if p.prv != 3 {
        a.w(asm::addi(28, 0, -1));
        a.w(asm::csrw(PMPADDR0, 28));
        a.w(asm::addi(28, 0, 0x1f));
        a.w(asm::csrw(PMPCFG0, 28));
        a.w(asm::addi(28, 0, 7));
        a.w(asm::csrw(MCOUNTEREN, 28));
        a.pcrel(28, body, Lo::Addi);
        a.w(asm::csrw(MEPC, 28));
        a.li32(28, 0x1800);
        a.w(asm::csr(3, 0, MSTATUS, 28));
        a.li32(28, (p.prv as i32) << 11);
        a.w(asm::csr(2, 0, MSTATUS, 28));
        a.w(asm::MRET);
    } else {
        // csrsi mstatus, MIE
        a.w(asm::csr(6, 0, MSTATUS, 8));
    }
    a.bind(body);
    let top = Ctx {
        depth: 0,
        links_free: true,
        func: None,
    };
    let at = p
        .spin
        .as_ref()
        .map_or(usize::MAX, |s| s.0 as usize % (p.main.len() + 1));
    for (i, item) in p.main.iter().enumerate() {
        if i == at {
            g.spin(p.spin.as_ref().unwrap());
        }
        g.item(item, top);
    }
    if at == p.main.len() {
        g.spin(p.spin.as_ref().unwrap());
    }
    // Exit through the test finisher.
    let a = &mut g.a;
    a.w(asm::lui(10, 0x100));
    a.li32(11, 0x5555);
    a.w(asm::sw(11, 10, 0));
    // The store asks the run to stop; a CSR instruction ends the hart's chunk there.
    a.w(asm::csrr(10, CYCLE));
    let end = a.here();
    a.jal(0, end, false);
    for k in 0..p.funcs.len() {
        g.func(k);
    }
    while let Some((entry, form, c1, c2)) = g.deferred.pop() {
        g.coroutine_body(entry, form, &c1, &c2);
    }
    // The trap handler: skip the excepting instruction, or push the timer forward.
    let a = &mut g.a;
    a.align4();
    a.bind(handler);
    let irq = a.label();
    let skip = a.label();
    a.w(asm::csrr(28, MCAUSE));
    a.branch(cond::LT, 28, 0, irq, false);
    a.w(asm::csrr(28, MEPC));
    a.w(asm::load(5, 29, 28, 0)); // lhu
    a.w(asm::i_type(op::OP_IMM, 7, 29, 29, 3));
    a.w(asm::addi(30, 0, 3));
    a.w(asm::addi(28, 28, 2));
    a.branch(cond::NE, 29, 30, skip, false);
    a.w(asm::addi(28, 28, 2));
    a.bind(skip);
    a.w(asm::csrw(MEPC, 28));
    a.w(asm::MRET);
    a.bind(irq);
    a.w(asm::lui(29, 0x200c));
    a.w(asm::ld(30, 29, -8)); // mtime
    a.w(asm::r_type(op::OP, 0, 0, 30, 30, DELTA));
    a.w(asm::sd(30, TIMECMP, 0));
    a.w(asm::MRET);
    g.a.finish()
}

fn machine(code: &Code) -> Machine {
    let mut m = code.machine();
    m.boot(code.base);
    m
}

fn image(code: &Code) -> Image {
    let mut img = Image::new();
    img.add_raw(code.base, code.bytes.clone()).unwrap();
    img
}

// ---------------------------------------------------------------------------------------------
// Configurations
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct Knobs {
    btm: bool,
    /// Implicit return mode, depth, partial bits.
    ir: (u8, u8, u8),
    repeated_history: bool,
    repeat_branch: bool,
    sequential_jump: bool,
    sync: (u8, u8),
    /// I-CNT and HIST widths.
    widths: (u8, u8),
    timestamps: bool,
    /// SRC bits, id, inhibit.
    src: (u8, u16, bool),
    extend_msb: bool,
    /// Ownership, context from satp.ASID, ctype.
    context: (bool, bool, u8),
    retirement: Retirement,
    /// All jumps (port and encoder), 3-bit itype, sijump detection.
    port: (bool, bool, bool),
    drive: Drive,
    /// A FIFO that drops: bytes, drain rate.
    fifo: Option<(u32, u32)>,
    /// A filter: start and length (fractions of the code), privileges.
    filter: Option<(u16, u16, u8)>,
    /// Trace-on and trace-off triggers (fractions of the instructions).
    triggers: (Option<u16>, Option<u16>),
}

fn knobs() -> impl Strategy<Value = Knobs> {
    let opt = (
        any::<bool>(),
        prop_oneof![2 => Just(0u8), 1 => Just(1), 1 => Just(2), 2 => Just(3)],
        prop_oneof![1u8..=4, 1u8..=32],
        prop_oneof![1u8..=4, 5u8..=24],
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        prop_oneof![
            2 => Just(0u8),
            1 => Just(1),
            1 => Just(2),
            2 => Just(3)
        ],
        prop_oneof![0u8..=3, Just(15)],
        prop_oneof![4u8..=8, 9u8..=22],
        prop_oneof![3u8..=6, 7u8..=32],
    );
    let fmt = (
        any::<bool>(),
        prop_oneof![2 => Just(0u8), 1 => 1u8..=12],
        any::<u16>(),
        prop_oneof![3 => Just(false), 1 => Just(true)],
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        1u8..=3,
    );
    let port = (
        prop_oneof![
            1 => Just(Retirement::Single),
            1 => (2u32..=64).prop_map(|m| Retirement::Block { max_halfwords: m }),
            2 => Just(Retirement::Block { max_halfwords: 1 << 16 }),
        ],
        prop_oneof![3 => Just(false), 1 => Just(true)],
        prop_oneof![3 => Just(false), 1 => Just(true)],
        prop_oneof![1 => Just(false), 3 => Just(true)],
        prop_oneof![
            Just(Drive::Capture),
            Just(Drive::Runs),
            Just(Drive::Records)
        ],
    );
    let loss = (
        prop_oneof![5 => Just(None), 1 => (16u32..=160, 10u32..=400).prop_map(Some)],
        prop_oneof![
            6 => Just(None),
            1 => (any::<u16>(), any::<u16>(), 0u8..4).prop_map(Some)
        ],
        prop_oneof![6 => Just(None), 1 => any::<u16>().prop_map(Some)],
        prop_oneof![6 => Just(None), 1 => any::<u16>().prop_map(Some)],
    );
    (opt, fmt, port, loss).prop_map(
        |(
            (btm, irm, depth, pbits, rh, rb, seq, smode, smax, icnt, hist),
            (ts, sbits, sid, inhibit, ext, own, asid, ctype),
            (retirement, all_jumps, itype3, sijump, drive),
            (fifo, filter, on, off),
        )| Knobs {
            btm,
            ir: (irm, depth, pbits),
            repeated_history: rh,
            repeat_branch: rb,
            sequential_jump: seq,
            sync: (smode, smax),
            widths: (icnt, hist),
            timestamps: ts,
            src: (sbits, sid, inhibit),
            extend_msb: ext,
            context: (own, asid, ctype),
            retirement,
            port: (all_jumps, itype3, sijump),
            drive,
            fifo,
            filter,
            triggers: (on, off),
        },
    )
}

/// The case the knobs give for this program.
fn resolve(k: &Knobs, p: &Program, code: &Code) -> Case {
    let btm = k.btm;
    let (all_jumps, itype3, sijump) = k.port;
    let lossy =
        k.fifo.is_some() || k.filter.is_some() || k.triggers.0.is_some() || k.triggers.1.is_some();
    let mut irm = k.ir.0;
    if itype3 {
        // A 3-bit itype tells no calls and returns apart: implicit return cannot work.
        irm = 0;
    }
    if lossy && (irm == 1 || irm == 2) && (p.has_odd_returns() || all_jumps) {
        // Modes 1 and 2 cannot follow returns elsewhere than the call site (nor, when `jal`
        // calls are reported as taken branches, returns from them); only exact runs are
        // compared up to the first such return.
        irm = 3;
    }
    let insn_at = |f: u16| code.insns[f as usize * code.insns.len() / 65536].0;
    let len = code.bytes.len() as u64;
    let mut cfg = EncoderConfig {
        control: TraceControl {
            tr_te_inst_mode: if btm { BTM } else { HTM },
            tr_te_context: k.context.0,
            tr_te_inhibit_src: k.src.2,
            tr_te_src_id: if k.src.0 == 0 {
                0
            } else {
                k.src.1 % (1 << k.src.0)
            },
            tr_te_src_bits: k.src.0,
            tr_te_inst_sync_mode: k.sync.0,
            tr_te_inst_sync_max: k.sync.1,
            tr_te_inst_en_all_jumps: all_jumps,
            tr_te_inst_implicit_return_mode: irm,
            tr_te_inst_en_repeated_history: !btm && k.repeated_history,
            tr_te_inst_en_repeat_branch: btm && k.repeat_branch,
            tr_te_inst_extend_addr_msb: k.extend_msb,
            tr_ts_enable: k.timestamps,
            tr_te_inst_stall_ena: k.fifo.is_none(),
            filter: k.filter.map(|(s, l, privs)| {
                let start = (BASE + (s as u64 * len / 65536)) & !1;
                Filter {
                    start,
                    end: start + 2 + (l as u64 * len / 65536),
                    privs: [0b1011, 0b1000, 0b0001, 0b1001][privs as usize],
                }
            }),
            trace_on: k.triggers.0.map(insn_at),
            trace_off: k.triggers.1.map(insn_at),
            // Without sijump from the hart the encoder cannot apply the optimization (its
            // trTeInstEnSequentialJump reads 0).
            tr_te_inst_en_sequential_jump: k.sequential_jump && sijump,
        },
        implicit_return_depth: k.ir.1,
        partial_bits: k.ir.2,
        icnt_bits: k.widths.0,
        hist_bits: k.widths.1,
        ..EncoderConfig::default()
    };
    if let Some((bytes, drain)) = k.fifo {
        cfg.fifo_bytes = bytes;
        cfg.drain_per_khw = drain;
    }
    cfg.retirement = k.retirement;
    cfg.legalize().expect("a legal configuration");
    let icfg = IngressConfig {
        retirement: cfg.retirement,
        itype_width: if itype3 { 3 } else { 4 },
        control: cfg.control.port(),
        context: if k.context.1 {
            ContextSource::Asid
        } else {
            ContextSource::None
        },
        ctype: k.context.2,
        sijump,
        data: false,
    };
    Case {
        name: "random",
        cfg,
        icfg,
        drive: k.drive,
        expect: if lossy {
            Expectation::Stretches
        } else {
            Expectation::Exact
        },
    }
}

fn run_case(p: &Program, k: &Knobs) -> (Code, Case, Outcome) {
    let code = assemble(p);
    let case = resolve(k, p, &code);
    let o = round_trip(&|| machine(&code), |_, _| image(&code), &case, LIMIT);
    (code, case, o)
}

/// Messages report the time of their events, which only goes forward: so must the decoded
/// times (relative timestamps are relative to the last one reported, N-Trace 8.7).
fn check_times(o: &Outcome) -> Result<(), String> {
    match o.got.times.windows(2).position(|w| w[1] < w[0]) {
        Some(i) => Err(format!(
            "decoded time goes back from {} to {} (message {} with a timestamp)",
            o.got.times[i],
            o.got.times[i + 1],
            i + 1
        )),
        None => Ok(()),
    }
}

/// With SRC, the stream interleaved with another source's messages (those of the same
/// stream, shifted, under another SRC) decodes to the same flow when the decoder follows
/// this source (N-Trace 11.2).
fn check_other_source(case: &Case, code: &Code, o: &Outcome) -> Result<(), String> {
    let f = case.cfg.format();
    if f.src_bits == 0 {
        return Ok(());
    }
    let id = case.cfg.control.tr_te_src_id;
    let other = (id + 1) % (1 << f.src_bits);
    let msgs = common::messages(&o.bytes, &f);
    let mut mixed = Vec::new();
    for (i, (_, m)) in msgs.iter().enumerate() {
        let mut x = msgs[(i + 1) % msgs.len()].1.clone();
        x.src = other;
        msg::encode(&x, &f, &mut mixed);
        msg::encode(m, &f, &mut mixed);
    }
    let dcfg = DecoderConfig {
        src_filter: Some(id),
        ..DecoderConfig::for_encoder(&case.cfg)
    };
    let mut dec = Decoder::new(dcfg, image(code)).unwrap();
    let mut got = common::Collect::default();
    dec.decode_all(&mixed, &mut got);
    if (&got.stretches, got.gaps, &got.times, got.errors.len())
        != (
            &o.got.stretches,
            o.got.gaps,
            &o.got.times,
            o.got.errors.len(),
        )
    {
        return Err(format!(
            "with another source's messages interleaved, SRC {id} decodes differently: {} \
             instructions, {} gaps, errors {:?}",
            got.all().len(),
            got.gaps,
            got.errors
        ));
    }
    Ok(())
}

/// An encoder whose return stack is shallower than the decoder's (N-Trace 9.2: the decoder
/// need not know the encoder's depth and assumes the maximum): the stream decoded without
/// the depth (32 assumed) gives the same flow, gaps and errors as with it, and at most one
/// warning, that of a shallower stack (only when the encoder's depth is below 32).
fn check_assumed_depth(case: &Case, code: &Code, o: &Outcome) -> Result<(), String> {
    let cfg = &case.cfg;
    if cfg.control.tr_te_inst_implicit_return_mode == 0 {
        return Ok(());
    }
    let dcfg = DecoderConfig {
        implicit_return_depth: 32,
        implicit_return_depth_known: false,
        ..DecoderConfig::for_encoder(cfg)
    };
    let mut dec = Decoder::new(dcfg, image(code)).unwrap();
    let mut got = common::Collect::default();
    dec.decode_all(&o.bytes, &mut got);
    let depth = cfg.implicit_return_depth;
    let bad_warning = got.warnings.len() > 1
        || got
            .warnings
            .iter()
            .any(|(k, _)| *k != Warning::ShallowReturnStack || depth == 32);
    // Under modes 1 and 2 the flow is only promised up to the first return they cannot follow.
    let same = match common::implicit_return_cut(cfg, &o.expect) {
        Some(cut) => {
            let (a, b) = (got.all(), o.got.all());
            a[..cut.min(a.len())] == b[..cut.min(b.len())]
        }
        None => {
            (&got.stretches, got.gaps, &got.errors) == (&o.got.stretches, o.got.gaps, &o.got.errors)
        }
    };
    if !same || bad_warning {
        return Err(format!(
            "encoder depth {depth}, decoder assuming 32: {} instructions (not {}), {} gaps (not \
             {}), errors {:?} (not {:?}), warnings {:?}",
            got.all().len(),
            o.got.all().len(),
            got.gaps,
            o.got.gaps,
            got.errors,
            o.got.errors,
            got.warnings
        ));
    }
    Ok(())
}

fn check_case(p: &Program, k: &Knobs) -> Result<(), TestCaseError> {
    let (code, case, o) = run_case(p, k);
    verify("random", &case, &o, false)
        .and_then(|()| check_times(&o))
        .and_then(|()| check_other_source(&case, &code, &o))
        .and_then(|()| check_assumed_depth(&case, &code, &o))
        .map_err(|e| {
            TestCaseError::fail(format!(
                "{e}\nstop: {:?}, {} instructions retired\nconfig: {:#?}\nport: {:?}, {:?}\n\
             program:\n{}",
                o.stop,
                o.expect.pcs.len(),
                case.cfg,
                case.icfg,
                case.drive,
                code.listing()
            ))
        })
}

proptest! {
    #![proptest_config(ProptestConfig {
        // 1024 (about 3 s) unless HARTSCOPE_FUZZ_CASES asks for a long run.
        cases: std::env::var_os("HARTSCOPE_FUZZ_CASES").map_or(1024, |_| common::fuzz_cases()),
        max_shrink_iters: 2000,
        ..ProptestConfig::default()
    })]

    /// Random programs under random configurations decode back to what the hart retired.
    #[test]
    fn random_round_trip(p in program(), k in knobs()) {
        check_case(&p, &k)?;
    }
}

// ---------------------------------------------------------------------------------------------
// The generator's own checks
// ---------------------------------------------------------------------------------------------

mod encodings {
    use super::*;
    use iss::decode::decode;
    use iss::insn::Op;
    use proptest::strategy::ValueTree;

    fn dec(bits: u32) -> iss::insn::Insn {
        decode(bits)
    }

    #[test]
    fn base_formats() {
        for rd in [0u8, 1, 5, 10, 31] {
            for rs1 in [0u8, 2, 7, 17] {
                for imm in [-2048, -1, 0, 1, 0x5a5, 2047] {
                    let d = dec(asm::addi(rd, rs1, imm));
                    assert_eq!(
                        (d.op, d.rd, d.rs1, d.imm, d.len),
                        (Op::Addi, rd, rs1, imm, 4)
                    );
                    let d = dec(asm::jalr(rd, rs1, imm));
                    assert_eq!((d.op, d.rd, d.rs1, d.imm), (Op::Jalr, rd, rs1, imm));
                    let d = dec(asm::ld(rd, rs1, imm));
                    assert_eq!((d.op, d.rd, d.rs1, d.imm), (Op::Ld, rd, rs1, imm));
                    let d = dec(asm::sd(rd, rs1, imm));
                    assert_eq!((d.op, d.rs2, d.rs1, d.imm), (Op::Sd, rd, rs1, imm));
                    let d = dec(asm::sw(rd, rs1, imm));
                    assert_eq!((d.op, d.rs2, d.rs1, d.imm), (Op::Sw, rd, rs1, imm));
                }
                let d = dec(asm::r_type(op::OP, 0, 0x20, rd, rs1, 9));
                assert_eq!((d.op, d.rd, d.rs1, d.rs2), (Op::Sub, rd, rs1, 9));
                let d = dec(asm::r_type(op::OP, 0, 1, rd, rs1, 9));
                assert_eq!((d.op, d.rd, d.rs1, d.rs2), (Op::Mul, rd, rs1, 9));
                let d = dec(asm::r_type(op::OP_32, 0, 0, rd, rs1, 9));
                assert_eq!(d.op, Op::Addw);
            }
            for imm20 in [0u32, 1, 0x80000, 0xfffff, 0x12345] {
                let d = dec(asm::lui(rd, imm20));
                assert_eq!((d.op, d.rd, d.imm), (Op::Lui, rd, (imm20 << 12) as i32));
                let d = dec(asm::auipc(rd, imm20));
                assert_eq!((d.op, d.rd, d.imm), (Op::Auipc, rd, (imm20 << 12) as i32));
            }
        }
        for off in [-4096i64, -2, 2, 8, 0x7fe, 4094] {
            for (f3, op) in [
                (cond::EQ, Op::Beq),
                (cond::NE, Op::Bne),
                (cond::LT, Op::Blt),
                (cond::GE, Op::Bge),
                (cond::LTU, Op::Bltu),
                (cond::GEU, Op::Bgeu),
            ] {
                let d = dec(asm::b_type(f3, 10, 21, off));
                assert_eq!((d.op, d.rs1, d.rs2, d.imm as i64), (op, 10, 21, off));
            }
        }
        for off in [-(1i64 << 20), -2, 2, 0x800, 0xffffe, (1 << 20) - 2] {
            let d = dec(asm::jal(5, off));
            assert_eq!((d.op, d.rd, d.imm as i64), (Op::Jal, 5, off));
        }
        let d = dec(asm::csrr(10, MSCRATCH));
        assert_eq!((d.op, d.rd, d.rs1, d.csr()), (Op::Csrrs, 10, 0, MSCRATCH));
        let d = dec(asm::csrw(SATP, 6));
        assert_eq!((d.op, d.rd, d.rs1, d.csr()), (Op::Csrrw, 0, 6, SATP));
        let d = dec(asm::csr(6, 0, MSTATUS, 8));
        assert_eq!((d.op, d.rs1, d.csr()), (Op::Csrrsi, 8, MSTATUS));
        assert_eq!(dec(asm::ECALL).op, Op::Ecall);
        assert_eq!(dec(asm::EBREAK).op, Op::Ebreak);
        assert_eq!(dec(asm::MRET).op, Op::Mret);
        assert_eq!(dec(asm::WFI).op, Op::Wfi);
        assert_eq!(
            (dec(asm::ILLEGAL32).op, dec(asm::ILLEGAL32).len),
            (Op::Illegal, 4)
        );
        let d = dec(asm::ILLEGAL16 as u32);
        assert_eq!((d.op, d.len), (Op::Illegal, 2));
        let d = dec(asm::C_EBREAK as u32);
        assert_eq!((d.op, d.len), (Op::Ebreak, 2));
    }

    #[test]
    fn compressed_formats() {
        let c = |h: u16| {
            let d = dec(h as u32);
            assert_eq!(d.len, 2, "{h:#x}");
            d
        };
        for rd in [1u8, 5, 10, 17, 31] {
            for imm in [-32, -1, 1, 31] {
                let d = c(asm::c_addi(rd, imm));
                assert_eq!((d.op, d.rd, d.rs1, d.imm), (Op::Addi, rd, rd, imm));
                let d = c(asm::c_addiw(rd, imm));
                assert_eq!((d.op, d.rd, d.rs1, d.imm), (Op::Addiw, rd, rd, imm));
                let d = c(asm::c_li(rd, imm));
                assert_eq!((d.op, d.rd, d.rs1, d.imm), (Op::Addi, rd, 0, imm));
                let d = c(asm::c_lui(rd, imm));
                assert_eq!((d.op, d.rd, d.imm), (Op::Lui, rd, imm << 12));
            }
            for sh in [1u32, 31, 32, 63] {
                let d = c(asm::c_slli(rd, sh));
                assert_eq!((d.op, d.rd, d.rs1, d.imm), (Op::Slli, rd, rd, sh as i32));
            }
            let d = c(asm::c_mv(rd, 12));
            assert_eq!((d.op, d.rd, d.rs2), (Op::Add, rd, 12));
            let d = c(asm::c_add(rd, 12));
            assert_eq!((d.op, d.rd, d.rs1, d.rs2), (Op::Add, rd, rd, 12));
            let d = c(asm::c_jr(rd));
            assert_eq!((d.op, d.rd, d.rs1, d.imm), (Op::Jalr, 0, rd, 0));
            let d = c(asm::c_jalr(rd));
            assert_eq!((d.op, d.rd, d.rs1, d.imm), (Op::Jalr, 1, rd, 0));
            for off in [0u32, 8, 256, 504] {
                let d = c(asm::c_ldsp(rd, off));
                assert_eq!((d.op, d.rd, d.rs1, d.imm), (Op::Ld, rd, 2, off as i32));
            }
        }
        for rd in 8u8..16 {
            for sh in [1u32, 31, 32, 63] {
                let d = c(asm::c_srli(rd, sh));
                assert_eq!((d.op, d.rd, d.rs1, d.imm), (Op::Srli, rd, rd, sh as i32));
                let d = c(asm::c_srai(rd, sh));
                assert_eq!((d.op, d.rd, d.rs1, d.imm), (Op::Srai, rd, rd, sh as i32));
            }
            for imm in [-32, -1, 0, 31] {
                let d = c(asm::c_andi(rd, imm));
                assert_eq!((d.op, d.rd, d.rs1, d.imm), (Op::Andi, rd, rd, imm));
            }
            for (w, f, op) in [
                (0, 0, Op::Sub),
                (0, 1, Op::Xor),
                (0, 2, Op::Or),
                (0, 3, Op::And),
                (1, 0, Op::Subw),
                (1, 1, Op::Addw),
            ] {
                let d = c(asm::c_arith(w, f, rd, 23 - rd));
                assert_eq!((d.op, d.rd, d.rs1, d.rs2), (op, rd, rd, 23 - rd));
            }
            for off in [0u32, 8, 128, 248] {
                let d = c(asm::c_ld(rd, 23 - rd, off));
                assert_eq!(
                    (d.op, d.rd, d.rs1, d.imm),
                    (Op::Ld, rd, 23 - rd, off as i32)
                );
            }
            for off in [-256i64, -2, 2, 0x3e, 0x40, 254] {
                let d = c(asm::c_bz(false, rd, off));
                assert_eq!((d.op, d.rs1, d.rs2, d.imm as i64), (Op::Beq, rd, 0, off));
                let d = c(asm::c_bz(true, rd, off));
                assert_eq!((d.op, d.rs1, d.rs2, d.imm as i64), (Op::Bne, rd, 0, off));
            }
        }
        for off in [-2048i64, -2, 2, 0x2a, 0x554, 2046] {
            let d = c(asm::c_j(off));
            assert_eq!((d.op, d.rd, d.imm as i64), (Op::Jal, 0, off));
        }
        let d = c(asm::C_NOP);
        assert_eq!((d.op, d.rd), (Op::Addi, 0));
    }

    /// Every instruction the generator can emit decodes as a real instruction (or, for the
    /// junk after a jump, anything), and the layout puts labels where the code says.
    #[test]
    fn generated_code_decodes() {
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        for _ in 0..64 {
            let p = program().new_tree(&mut runner).unwrap().current();
            let code = assemble(&p);
            assert!(code.bytes.len() < 0x10000, "the program overlaps its stack");
            let mut m = machine(&code);
            let mut sink = common::Expect::default();
            m.run(&mut sink, Some(LIMIT));
            for pc in &sink.pcs {
                let off = (pc - code.base) as usize;
                let lo = u16::from_le_bytes([code.bytes[off], code.bytes[off + 1]]);
                assert!(
                    code.insns.iter().any(|&(a, _)| a == *pc),
                    "{pc:#x} ({lo:#x}) is not an instruction the assembler laid out"
                );
            }
        }
    }

    /// Counts the beats' itypes, privileges and context changes.
    #[derive(Default)]
    struct Census {
        itypes: [u64; 16],
        sijumps: u64,
        user: u64,
        supervisor: u64,
        context_changes: u64,
    }

    impl iss::ingress::BeatSink for Census {
        fn beats(&mut self, beats: &[iss::ingress::Beat], _: &[iss::ingress::DataBeat]) {
            for b in beats {
                self.itypes[b.itype as usize] += 1;
                self.sijumps += b.sijump as u64;
                self.user += (b.prv == 0) as u64;
                self.supervisor += (b.prv == 1) as u64;
                self.context_changes += (b.ctype != 0) as u64;
            }
        }
        fn finish(&mut self, _: u64, _: u8) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// Counts interrupts taken where nothing serializing came before (a CSR instruction, a
    /// trap return, wfi): at the end of the hart's time quantum, anywhere in the code.
    #[derive(Default)]
    struct Anywhere {
        last: Option<Op>,
        interrupts: u64,
        anywhere: u64,
    }

    impl iss::Sink for Anywhere {
        const DETAIL: Detail = Detail::Records;
        fn retire(&mut self, r: &iss::Retired) {
            self.last = Some(r.insn.op);
        }
        fn trap(&mut self, t: &iss::TrapRecord) {
            if t.cause.is_interrupt() {
                self.interrupts += 1;
                let serializing = self.last.is_none_or(|op| {
                    matches!(
                        op,
                        Op::Mret
                            | Op::Wfi
                            | Op::Csrrw
                            | Op::Csrrs
                            | Op::Csrrc
                            | Op::Csrrwi
                            | Op::Csrrsi
                            | Op::Csrrci
                    )
                });
                self.anywhere += !serializing as u64;
            }
            self.last = None;
        }
    }

    /// The programs the generator makes end (mostly by exiting, within the limit), are small,
    /// and between them produce every itype of N-Trace table 2 that a hart reports (all but
    /// the tail calls, which it cannot tell apart), sequentially inferable jumps, U-mode and
    /// context changes.
    #[test]
    fn generator_covers_table_2() {
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let mut census = Census::default();
        let (mut exits, mut insns) = (0, 0);
        let mut anywhere = Anywhere::default();
        let n = 100;
        for _ in 0..n {
            let p = program().new_tree(&mut runner).unwrap().current();
            let code = assemble(&p);
            let mut m = machine(&code);
            let icfg = IngressConfig {
                retirement: Retirement::Single,
                ..IngressConfig::default()
            };
            let mut port: iss::ingress::IngressPort<Census, false> =
                iss::ingress::IngressPort::new(icfg, std::mem::take(&mut census), &m.hart.csr);
            let stop = m.run(&mut port, Some(LIMIT));
            exits += (stop == iss::Stop::Exit(0)) as u32;
            assert!(
                matches!(stop, iss::Stop::Exit(0) | iss::Stop::InstructionLimit),
                "{stop:?}"
            );
            insns += m.retired();
            census = port.finish().unwrap();
            let mut m = machine(&code);
            m.run(&mut anywhere, Some(LIMIT));
        }
        eprintln!(
            "{exits} of {n} programs exit, {} instructions on average; itypes {:?}, {} \
             sijumps, {} U-mode beats, {} context changes, {} interrupts ({} in the middle of \
             code)",
            insns / n as u64,
            census.itypes,
            census.sijumps,
            census.user,
            census.context_changes,
            anywhere.interrupts,
            anywhere.anywhere,
        );
        assert!(exits >= n * 9 / 10, "{exits} of {n} programs exit");
        assert!(
            insns / (n as u64) < 6000,
            "programs run {} instructions on average",
            insns / n as u64
        );
        for it in [1, 2, 3, 4, 5, 8, 9, 12, 13, 14, 15] {
            assert!(
                census.itypes[it] > 0,
                "no beat with itype {it}: {:?}",
                census.itypes
            );
        }
        assert!(census.sijumps > 0 && census.context_changes > 0);
        assert!(census.user > 0 && census.supervisor > 0);
        assert!(
            anywhere.anywhere >= 10,
            "{} interrupts in the middle of code",
            anywhere.anywhere
        );
    }
}

/// The random cases are not vacuous: between them they produce every message the encoder
/// can send (every SYNC, RCODE, B-TYPE and EVCODE it uses), most are compared exactly and
/// whole, and those that lose or filter trace do lose or filter some.
#[test]
fn random_cases_exercise_every_message() {
    use encoder::msg::Body;
    use proptest::strategy::ValueTree;
    use std::collections::BTreeSet;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut seen = BTreeSet::new();
    let (mut exact, mut whole, mut lossy, mut lost) = (0, 0, 0, 0);
    let n = 300;
    for _ in 0..n {
        let p = program().new_tree(&mut runner).unwrap().current();
        let k = knobs().new_tree(&mut runner).unwrap().current();
        let (_, case, o) = run_case(&p, &k);
        for (_, m) in common::messages(&o.bytes, &case.cfg.format()) {
            let tag = match m.body {
                Body::ResourceFull { rcode, .. } => format!("RCODE {rcode}"),
                Body::ProgTraceCorrelation { evcode, .. } => format!("EVCODE {evcode}"),
                Body::IndirectBranch { btype, .. } | Body::IndirectBranchHist { btype, .. } => {
                    format!("B-TYPE {btype}")
                }
                ref b => match b.sync() {
                    Some(s) => format!("{} SYNC {s}", b.name()),
                    None => b.name().to_string(),
                },
            };
            seen.insert(tag);
        }
        match case.expect {
            Expectation::Exact => {
                exact += 1;
                whole += common::implicit_return_cut(&case.cfg, &o.expect).is_none() as u32;
            }
            Expectation::Stretches => {
                lossy += 1;
                lost += (o.got.all().len() < o.expect.pcs.len()) as u32;
            }
        }
    }
    eprintln!("{exact} exact ({whole} whole), {lossy} lossy ({lost} lost some): {seen:?}");
    for tag in [
        "Ownership",
        "DirectBranch",
        "B-TYPE 0",
        "B-TYPE 2",
        "B-TYPE 3",
        "Error",
        "ProgTraceSync SYNC 0",
        "ProgTraceSync SYNC 2",
        "ProgTraceSync SYNC 3",
        "ProgTraceSync SYNC 5",
        "ProgTraceSync SYNC 7",
        "DirectBranchSync SYNC 2",
        "IndirectBranchSync SYNC 2",
        "IndirectBranchHistSync SYNC 2",
        "IndirectBranchHistSync SYNC 4",
        "RCODE 0",
        "RCODE 1",
        "RCODE 2",
        "RepeatBranch",
        "EVCODE 0",
        "EVCODE 4",
    ] {
        assert!(seen.contains(tag), "no {tag} in {n} random cases: {seen:?}");
    }
    assert!(exact >= n / 2 && whole >= exact * 3 / 4 && lost >= lossy / 2);
}

/// A longer run of the property, without shrinking, that sums up failures by kind:
/// `N=100000 cargo test -p encoder --test random_programs -- --ignored long_random_run`
/// (`SEED=s` draws other cases; `CASE=i` also prints case `i` in full: program, knobs,
/// messages, retired pcs).
#[test]
#[ignore]
fn long_random_run() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{RngAlgorithm, TestRng, TestRunner};
    let n: usize = std::env::var("N").map_or(20_000, |v| v.parse().unwrap());
    let show: Option<usize> = std::env::var("CASE").ok().map(|c| c.parse().unwrap());
    let mut runner = match std::env::var("SEED") {
        Ok(s) => {
            let mut seed = [0u8; 32];
            seed[..8].copy_from_slice(&s.parse::<u64>().unwrap().to_le_bytes());
            TestRunner::new_with_rng(
                ProptestConfig::default(),
                TestRng::from_seed(RngAlgorithm::ChaCha, &seed),
            )
        }
        Err(_) => TestRunner::deterministic(),
    };
    let mut fails = std::collections::BTreeMap::<String, (usize, usize)>::new();
    for i in 0..n {
        let p = program().new_tree(&mut runner).unwrap().current();
        let k = knobs().new_tree(&mut runner).unwrap().current();
        if show == Some(i) {
            let (_, case, o) = run_case(&p, &k);
            eprintln!(
                "{p:#?}\n{k:#?}\n{}",
                common::dump(&o.bytes, &case.cfg.format())
            );
            let pcs: Vec<String> = o.expect.pcs.iter().map(|p| format!("{p:x}")).collect();
            eprintln!("retired: {}", pcs.join(" "));
        }
        let msg = match std::panic::catch_unwind(|| check_case(&p, &k)) {
            Ok(Ok(())) => continue,
            Ok(Err(e)) => e.to_string(),
            Err(e) => e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default(),
        };
        if show == Some(i) {
            eprintln!("{msg}");
        }
        // The kind: the first line without numbers and addresses.
        let kind: String = msg
            .lines()
            .next()
            .unwrap_or("")
            .split(' ')
            .map(|w| {
                if w.chars().any(|c| c.is_ascii_digit()) {
                    "#"
                } else {
                    w
                }
            })
            .collect::<Vec<_>>()
            .join(" ");
        fails.entry(kind).or_insert((0, i)).0 += 1;
    }
    for (kind, (count, first)) in &fails {
        eprintln!("{count:6} (first: case {first}): {kind}");
    }
    assert!(
        fails.is_empty(),
        "{} kinds of failure in {n} cases",
        fails.len()
    );
}
