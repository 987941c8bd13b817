//! The instruction table (`iss::ops`) agrees with itself, with the ISA filter, and with the
//! specification's classification of control transfers over a sweep of encodings.
//!
//! The table is the one source of what the hart knows about an operation: the executor's
//! handlers, record shapes, decode-cache blocks, PMU classes, the ISA filter, and the
//! transfer classification that the ingress port, the N-Trace decoder, CTR and the PMU share
//! (`iss::classify`). These tests check the columns against each other and, for control flow,
//! against an oracle that reads the encodings straight from the unprivileged spec (chapter 2
//! for the 32-bit jumps and branches, chapter 16 for the compressed ones) and N-Trace table 2.

use arch::Itype;
use iss::classify;
use iss::decode::{decode16, decode32};
use iss::insn::Op;
use iss::isa::Ext;
use iss::ops::{Atomic, Block, Flow, PmuClass, FACTS};
use iss::record::Shape;
use iss::Isa;

#[test]
fn every_operation_has_its_facts() {
    assert_eq!(Op::ALL.len(), Op::COUNT);
    assert_eq!(FACTS.len(), Op::COUNT);
    assert_eq!(Op::LAST as usize, Op::COUNT - 1);
    for (i, op) in Op::ALL.iter().enumerate() {
        assert_eq!(*op as usize, i, "{op:?}");
        assert_eq!(Op::from_u8(i as u8), Some(*op));
        assert_eq!(op.facts().name, format!("{op:?}"), "the row of {op:?}");
        assert_eq!(op.facts(), &FACTS[i]);
        assert_eq!(op.flow(), op.facts().flow, "{op:?}");
        assert_eq!(iss::record::SHAPES[i], op.facts().shape);
    }
    for v in Op::COUNT..=255 {
        assert_eq!(Op::from_u8(v as u8), None);
        assert_eq!(iss::record::SHAPES[v], Shape::Built);
    }
}

/// Whether an extension's instructions are system ones: they change state the run loop
/// depends on (CSRs, translation, the decode cache, WFI, CTR).
fn system(ext: Ext) -> bool {
    matches!(
        ext,
        Ext::Zicsr | Ext::Zifencei | Ext::Priv | Ext::Smctr | Ext::Svinval
    )
}

#[test]
fn blocks_end_at_transfers_and_serialising_operations() {
    for op in Op::ALL {
        let f = op.facts();
        let flow = f.flow;
        if f.block.ends() {
            assert!(
                flow.is_transfer() || matches!(flow, Flow::Trap | Flow::Illegal) || system(f.ext),
                "{op:?} ends its block but neither transfers control nor serialises"
            );
        }
        if flow.is_transfer() || matches!(flow, Flow::Trap | Flow::Illegal) {
            assert!(f.block.ends(), "{op:?} transfers control inside a block");
        }
        if f.block.starts() {
            assert!(
                matches!(f.ext, Ext::Zicsr | Ext::Smctr),
                "{op:?} starts a block but reads no counter"
            );
        }
        if f.ext == Ext::Zicsr {
            assert_eq!(
                f.block,
                Block::Alone,
                "{op:?}: CSR accesses are blocks alone"
            );
        }
    }
}

#[test]
fn shapes_agree_with_pmu_classes_and_flows() {
    for op in Op::ALL {
        let f = op.facts();
        let fp = matches!(f.ext, Ext::F | Ext::D | Ext::Zfa | Ext::ZfaD);
        match f.shape {
            Shape::Load(_) => assert!(f.pmu == PmuClass::Load && f.ext == Ext::I, "{op:?}"),
            Shape::Store(_) => assert!(f.pmu == PmuClass::Store && f.ext == Ext::I, "{op:?}"),
            Shape::FLoad(_) => assert!(f.pmu == PmuClass::Load && fp, "{op:?}"),
            Shape::FStore(_) => assert!(f.pmu == PmuClass::Store && fp, "{op:?}"),
            Shape::FpToF | Shape::FpToX => assert!(f.pmu == PmuClass::Fp && fp, "{op:?}"),
            // cbo.zero stores a whole cache block: a store for the PMU, with a record it
            // builds.
            Shape::Built if op == Op::CboZero => assert_eq!(f.pmu, PmuClass::Store),
            Shape::Rd | Shape::Nothing | Shape::Built => {
                assert!(
                    matches!(f.pmu, PmuClass::None | PmuClass::Atomic),
                    "{op:?}: a {:?} with no fixed access shape",
                    f.pmu
                )
            }
        }
        if f.pmu == PmuClass::Atomic {
            assert!(f.ext == Ext::A && f.shape == Shape::Built, "{op:?}");
        }
        // The atomic column: every A operation has one, of its size (`.w` 4, `.d` 8).
        assert_eq!(f.atomic != Atomic::No, f.pmu == PmuClass::Atomic, "{op:?}");
        if f.atomic != Atomic::No {
            let size = if f.name.ends_with('W') { 4 } else { 8 };
            assert_eq!(f.atomic.size(), size, "{op:?}");
            let kind = match f.atomic {
                Atomic::Lr(_) => "Lr".to_string(),
                Atomic::Sc(_) => "Sc".to_string(),
                Atomic::Amo(_, o) => format!("Amo{o:?}").to_lowercase(),
                Atomic::No => unreachable!(),
            };
            assert_eq!(
                kind.to_lowercase(),
                f.name[..f.name.len() - 1].to_lowercase(),
                "{op:?}"
            );
        }
        if fp {
            assert!(
                f.pmu != PmuClass::None,
                "{op:?}: every F/D operation has a class"
            );
        }
        // Records of fixed shape say nothing of privilege or traps: only straight-line
        // operations, branches and jumps have them.
        if f.shape != Shape::Built {
            assert!(
                matches!(
                    f.flow,
                    Flow::Straight
                        | Flow::Constant
                        | Flow::PcRelative
                        | Flow::Branch
                        | Flow::DirectJump
                        | Flow::IndirectJump
                ),
                "{op:?}"
            );
        }
        if matches!(f.flow, Flow::Trap | Flow::TrapReturn | Flow::Illegal) {
            assert_eq!(f.shape, Shape::Built, "{op:?}");
        }
    }
}

/// The ISA with extension `ext` off (the others of rv64gc with every Z extension on).
fn without(ext: Ext) -> Isa {
    let mut i = Isa::parse("rv64gcb_zicond_zicbom_zicboz_zfa_svinval").unwrap();
    match ext {
        Ext::M => i.m = false,
        Ext::A => i.a = false,
        Ext::F => {
            i.f = false;
            i.d = false;
        }
        Ext::D => i.d = false,
        Ext::Zba => i.zba = false,
        Ext::Zbb => i.zbb = false,
        Ext::Zbs => i.zbs = false,
        Ext::Zicond => i.zicond = false,
        Ext::Zicbom => i.zicbom = false,
        Ext::Zicboz => i.zicboz = false,
        Ext::Zfa | Ext::ZfaD => i.zfa = false,
        Ext::Svinval => i.svinval = false,
        // Always there.
        Ext::I | Ext::Zicsr | Ext::Zifencei | Ext::Priv | Ext::Smctr => {}
    }
    i
}

#[test]
fn the_isa_filter_reads_the_extension_column() {
    let exts = [
        Ext::I,
        Ext::M,
        Ext::A,
        Ext::F,
        Ext::D,
        Ext::Zicsr,
        Ext::Zifencei,
        Ext::Zba,
        Ext::Zbb,
        Ext::Zbs,
        Ext::Zicond,
        Ext::Zicbom,
        Ext::Zicboz,
        Ext::Zfa,
        Ext::ZfaD,
        Ext::Priv,
        Ext::Smctr,
        Ext::Svinval,
    ];
    for off in exts {
        let isa = without(off);
        for op in Op::ALL {
            let ext = op.facts().ext;
            let gone = ext == off
                || (off == Ext::F && matches!(ext, Ext::D | Ext::Zfa | Ext::ZfaD))
                || (off == Ext::D && ext == Ext::ZfaD)
                || (matches!(off, Ext::Zfa | Ext::ZfaD) && matches!(ext, Ext::Zfa | Ext::ZfaD));
            let always = matches!(
                off,
                Ext::I | Ext::Zicsr | Ext::Zifencei | Ext::Priv | Ext::Smctr
            );
            assert_eq!(isa.allows(op, 4), !gone || always, "{op:?} without {off:?}");
            assert_eq!(isa.decodes(ext), !gone || always, "{op:?} without {off:?}");
        }
    }
    let mut no_c = Isa::parse("rv64g").unwrap();
    assert!(!no_c.allows(Op::Addi, 2) && no_c.allows(Op::Addi, 4));
    no_c.c = true;
    assert!(no_c.allows(Op::Addi, 2));
}

/// N-Trace table 2 for jumps, from the link registers (x1, x5).
fn jump_itype(direct: bool, rd: u32, rs1: u32) -> Itype {
    let link = |r: u32| r == 1 || r == 5;
    if direct {
        return if link(rd) {
            Itype::InferableCall
        } else {
            Itype::OtherInferableJump
        };
    }
    match (link(rd), link(rs1)) {
        (true, false) => Itype::UninferableCall,
        (true, true) if rd != rs1 => Itype::CoroutineSwap,
        (true, true) => Itype::UninferableCall,
        (false, true) => Itype::Return,
        (false, false) => Itype::OtherUninferableJump,
    }
}

/// The oracle: the itype of a legal 32-bit encoding, straight from its bits, as
/// (not taken, taken); `None` when it is no transfer.
fn itype32(bits: u32) -> Option<(Itype, Itype)> {
    let opcode = bits & 0x7f;
    let funct3 = (bits >> 12) & 7;
    let rd = (bits >> 7) & 31;
    let rs1 = (bits >> 15) & 31;
    match opcode {
        0x63 if !matches!(funct3, 2 | 3) => Some((Itype::NontakenBranch, Itype::TakenBranch)),
        0x6f => Some((jump_itype(true, rd, rs1), jump_itype(true, rd, rs1))),
        0x67 if funct3 == 0 => Some((jump_itype(false, rd, rs1), jump_itype(false, rd, rs1))),
        0x73 if bits == 0x3020_0073 || bits == 0x1020_0073 => {
            Some((Itype::TrapReturn, Itype::TrapReturn))
        }
        _ => None,
    }
}

/// The oracle for a 16-bit encoding (RV64C: no c.jal).
fn itype16(h: u16) -> Option<(Itype, Itype)> {
    let h = h as u32;
    let funct3 = h >> 13;
    let rs1 = (h >> 7) & 31;
    let rs2 = (h >> 2) & 31;
    match (h & 3, funct3) {
        (1, 5) => Some((jump_itype(true, 0, 0), jump_itype(true, 0, 0))), // c.j
        (1, 6) | (1, 7) => Some((Itype::NontakenBranch, Itype::TakenBranch)), // c.beqz, c.bnez
        (2, 4) if rs2 == 0 && rs1 != 0 => {
            // c.jr (jalr x0, rs1) and c.jalr (jalr x1, rs1)
            let rd = (h >> 12) & 1;
            Some((jump_itype(false, rd, rs1), jump_itype(false, rd, rs1)))
        }
        _ => None,
    }
}

/// The hart's classification of a decoded instruction (which the ingress port, the N-Trace
/// decoder and CTR share) agrees with the oracle, for legal encodings.
fn check(
    d: iss::insn::Insn,
    oracle: Option<(Itype, Itype)>,
    bits: u32,
    failures: &mut Vec<String>,
) {
    if d.op == Op::Illegal {
        return;
    }
    let ours = (classify::itype(&d, false), classify::itype(&d, true));
    let want = oracle.unwrap_or((Itype::None, Itype::None));
    let flow = d.op.flow();
    // Non-transfers are not taken (they go to their successor); a transfer other than a
    // branch always is.
    let ours = if flow.is_transfer() && flow != Flow::Branch {
        (ours.1, ours.1)
    } else if !flow.is_transfer() {
        (ours.0, ours.0)
    } else {
        ours
    };
    if ours != want || flow.is_transfer() != oracle.is_some() {
        failures.push(format!(
            "{bits:#010x} ({:?}): ours {ours:?}, the spec's {want:?}",
            d.op
        ));
    }
    // CTR's type is the same but for the jumps that link nothing.
    let ctr = classify::ctr_type(&d, true);
    let expected_ctr = match ours.1 {
        Itype::OtherInferableJump if d.rd == 0 => Itype::InferableTailCall,
        Itype::OtherUninferableJump if d.rd == 0 => Itype::UninferableTailCall,
        it => it,
    };
    if ctr != expected_ctr {
        failures.push(format!(
            "{bits:#010x}: CTR type {ctr:?}, want {expected_ctr:?}"
        ));
    }
    // The table's flow and the register-setting rule the ingress port's sijump uses.
    let sets = matches!(d.op, Op::Lui | Op::Auipc) && d.rd != 0;
    if classify::sets_constant(&d).is_some() != sets {
        failures.push(format!("{bits:#010x}: sets_constant disagrees"));
    }
}

#[test]
fn transfer_classification_agrees_with_the_spec_over_a_sweep() {
    let mut failures = Vec::new();
    let mut transfers = 0u32;
    for h in 0..=u16::MAX {
        if h & 3 == 3 {
            continue;
        }
        let d = decode16(h);
        transfers += d.op.flow().is_transfer() as u32;
        check(d, itype16(h), h as u32, &mut failures);
    }
    // Every major opcode x funct3 x funct7, with link and other registers in rd and rs1 and
    // a few rs2 values (mret and sret need rs2 = 2 and 5 with rd = rs1 = 0).
    let regs = [0u32, 1, 5, 10, 31];
    for opcode in (0..32u32).map(|o| o << 2 | 3) {
        for funct3 in 0..8u32 {
            for funct7 in 0..128u32 {
                for rd in regs {
                    for rs1 in regs {
                        for rs2 in [0u32, 2, 5] {
                            let bits = funct7 << 25
                                | rs2 << 20
                                | rs1 << 15
                                | funct3 << 12
                                | rd << 7
                                | opcode;
                            let d = decode32(bits);
                            transfers += d.op.flow().is_transfer() as u32;
                            check(d, itype32(bits), bits, &mut failures);
                        }
                    }
                }
            }
        }
    }
    assert!(
        transfers > 10_000,
        "the sweep meets transfers ({transfers})"
    );
    assert!(
        failures.is_empty(),
        "{} disagreements, the first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(20)]
    );
}

/// The filter applied over the same sweep: an instruction decodes on a hart without its
/// extension as illegal, by the table's column.
#[test]
fn filtered_decoding_follows_the_extension_column() {
    let i = Isa::parse("rv64i").unwrap();
    for h in (0..=u16::MAX).filter(|h| h & 3 != 3) {
        let d = decode16(h);
        assert_eq!(i.filter(d).op, Op::Illegal, "{h:#06x}: rv64i has no C");
    }
    for opcode in (0..32u32).map(|o| o << 2 | 3) {
        for funct3 in 0..8u32 {
            for funct7 in 0..128u32 {
                let bits = funct7 << 25 | 10 << 20 | 11 << 15 | funct3 << 12 | 12 << 7 | opcode;
                let d = decode32(bits);
                let kept = matches!(d.op.facts().ext, Ext::I | Ext::Zicsr | Ext::Zifencei)
                    || matches!(d.op.facts().ext, Ext::Priv | Ext::Smctr);
                let f = i.filter(d);
                if kept {
                    assert_eq!(f, d, "{bits:#010x} ({:?})", d.op);
                } else {
                    assert_eq!(f.op, Op::Illegal, "{bits:#010x} ({:?})", d.op);
                }
            }
        }
    }
}
