//! Differential sweep of `iss::decode` against the `disc-v` disassembler (RV64GC).
//!
//! disc-v knows RV64GC only: the decoder's answer is taken as an RV64GC hart executes it
//! ([`Isa::RV64GC`]'s filter, which turns Zba/Zbb/Zbs/Zicond and the 16-bit Zcb encodings into
//! illegal instructions).
//!
//! Checks every 16-bit value (as a compressed instruction), 2^20 structured 32-bit encodings
//! (every major opcode x funct3 x funct7 x rs2 field, the other bits from a PRNG) and a batch
//! of fully random words. For each encoding both decoders must agree on legality, on the
//! operation (for compressed instructions, the one disc-v expands to), and on the operands the
//! operation uses.
//!
//! Where disc-v disagrees with the RISC-V specification we follow the specification; each such
//! disagreement class is an [`Exception`] below with the spec rule it rests on, is recognised
//! by an exact predicate (and, where the class is "disc-v misses a reserved field", the same
//! encoding with that field made legal must then agree fully), and is counted. Any other
//! disagreement fails the test.
//!
//! disc-v's `Instruction` keeps its operand values crate-private; its public API gives the
//! mnemonic, the mnemonic as encoded (`without_aliases`), legality, length, and the `Debug`
//! output, which lists every field (`rd: 10, rs1: 11, ... imm: -4, ...`). The operand values
//! are read from that `Debug` text (the crate version is pinned in Cargo.lock); the objdump-style
//! `Display` text would need CSR names and aliases reversed.

use std::collections::BTreeMap;
use std::fmt::{self, Write};
use std::time::Instant;

use disc_v::{Decoder, Instruction};
use iss::decode::{decode, decode16, insn_len};
use iss::insn::{Insn, Op};
use iss::Isa;

/// The decoder as an RV64GC hart has it (what disc-v knows).
fn decode32(bits: u32) -> Insn {
    Isa::RV64GC.filter(iss::decode::decode32(bits))
}

// ---------------------------------------------------------------------------------------------
// Reading disc-v's answer
// ---------------------------------------------------------------------------------------------

/// A fixed buffer that `Debug` output is written into, without allocating.
struct Buf {
    b: [u8; 512],
    n: usize,
}

impl Write for Buf {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.n + s.len();
        if end > self.b.len() {
            return Err(fmt::Error);
        }
        self.b[self.n..end].copy_from_slice(s.as_bytes());
        self.n = end;
        Ok(())
    }
}

/// disc-v's decoding of one encoding.
#[derive(Clone, Copy, Debug)]
struct Ref {
    illegal: bool,
    /// The mnemonic shown (compressed instructions expanded, aliases applied).
    shown: &'static str,
    /// The mnemonic as encoded (`c.addi`, `addi`).
    encoded: &'static str,
    rd: u8,
    rs1: u8,
    rs2: u8,
    rs3: u8,
    rm: u8,
    aq: bool,
    rl: bool,
    imm: i32,
}

fn reference(dec: &Decoder, bits: u64) -> Ref {
    let ins: Instruction = dec.decode(0, bits);
    let mut buf = Buf { b: [0; 512], n: 0 };
    write!(buf, "{ins:?}").expect("disc-v Debug output fits the buffer");
    let text = std::str::from_utf8(&buf.b[..buf.n]).unwrap();
    let body = text
        .strip_prefix("Instruction { ")
        .and_then(|t| t.strip_suffix(" }"))
        .unwrap_or_else(|| panic!("unexpected disc-v Debug output: {text}"));
    let mut r = Ref {
        illegal: ins.is_illegal(),
        shown: ins.mnemonic(),
        encoded: ins.without_aliases().mnemonic(),
        rd: 0,
        rs1: 0,
        rs2: 0,
        rs3: 0,
        rm: 0,
        aq: false,
        rl: false,
        imm: 0,
    };
    let mut seen = 0;
    for field in body.split(", ") {
        let Some((key, value)) = field.split_once(": ") else {
            continue;
        };
        let num = || {
            value
                .parse::<i64>()
                .unwrap_or_else(|_| panic!("{key}: {value} in {text}"))
        };
        match key {
            "rd" => r.rd = num() as u8,
            "rs1" => r.rs1 = num() as u8,
            "rs2" => r.rs2 = num() as u8,
            "rs3" => r.rs3 = num() as u8,
            "rm" => r.rm = num() as u8,
            "imm" => r.imm = num() as i32,
            "aq" => r.aq = value == "true",
            "rl" => r.rl = value == "true",
            _ => continue,
        }
        seen += 1;
    }
    assert_eq!(seen, 8, "disc-v Debug output changed shape: {text}");
    r
}

/// Our `Op` for a disc-v mnemonic: the RV64GC instructions, and the aliases disc-v shows for the
/// expansions of compressed instructions. `None` for anything else.
fn base_op(name: &str) -> Option<Op> {
    use Op::*;
    Some(match name {
        "lui" => Lui,
        "auipc" => Auipc,
        "jal" | "j" => Jal,
        "jalr" | "jr" | "ret" => Jalr,
        "beq" | "beqz" => Beq,
        "bne" | "bnez" => Bne,
        "blt" => Blt,
        "bge" => Bge,
        "bltu" => Bltu,
        "bgeu" => Bgeu,
        "lb" => Lb,
        "lh" => Lh,
        "lw" => Lw,
        "ld" => Ld,
        "lbu" => Lbu,
        "lhu" => Lhu,
        "lwu" => Lwu,
        "sb" => Sb,
        "sh" => Sh,
        "sw" => Sw,
        "sd" => Sd,
        "addi" | "li" | "mv" | "nop" => Addi,
        "slti" => Slti,
        "sltiu" => Sltiu,
        "xori" => Xori,
        "ori" => Ori,
        "andi" => Andi,
        "slli" => Slli,
        "srli" => Srli,
        "srai" => Srai,
        "add" => Add,
        "sub" | "neg" => Sub,
        "sll" => Sll,
        "slt" => Slt,
        "sltu" => Sltu,
        "xor" => Xor,
        "srl" => Srl,
        "sra" => Sra,
        "or" => Or,
        "and" => And,
        "addiw" | "sext.w" => Addiw,
        "slliw" => Slliw,
        "srliw" => Srliw,
        "sraiw" => Sraiw,
        "addw" => Addw,
        "subw" | "negw" => Subw,
        "sllw" => Sllw,
        "srlw" => Srlw,
        "sraw" => Sraw,
        "fence" | "fence.tso" => Fence,
        "ecall" => Ecall,
        "ebreak" => Ebreak,
        "fence.i" => FenceI,
        "csrrw" => Csrrw,
        "csrrs" => Csrrs,
        "csrrc" => Csrrc,
        "csrrwi" => Csrrwi,
        "csrrsi" => Csrrsi,
        "csrrci" => Csrrci,
        "mul" => Mul,
        "mulh" => Mulh,
        "mulhsu" => Mulhsu,
        "mulhu" => Mulhu,
        "div" => Div,
        "divu" => Divu,
        "rem" => Rem,
        "remu" => Remu,
        "mulw" => Mulw,
        "divw" => Divw,
        "divuw" => Divuw,
        "remw" => Remw,
        "remuw" => Remuw,
        "lr.w" => LrW,
        "sc.w" => ScW,
        "amoswap.w" => AmoswapW,
        "amoadd.w" => AmoaddW,
        "amoxor.w" => AmoxorW,
        "amoand.w" => AmoandW,
        "amoor.w" => AmoorW,
        "amomin.w" => AmominW,
        "amomax.w" => AmomaxW,
        "amominu.w" => AmominuW,
        "amomaxu.w" => AmomaxuW,
        "lr.d" => LrD,
        "sc.d" => ScD,
        "amoswap.d" => AmoswapD,
        "amoadd.d" => AmoaddD,
        "amoxor.d" => AmoxorD,
        "amoand.d" => AmoandD,
        "amoor.d" => AmoorD,
        "amomin.d" => AmominD,
        "amomax.d" => AmomaxD,
        "amominu.d" => AmominuD,
        "amomaxu.d" => AmomaxuD,
        "flw" => Flw,
        "fsw" => Fsw,
        "fmadd.s" => FmaddS,
        "fmsub.s" => FmsubS,
        "fnmsub.s" => FnmsubS,
        "fnmadd.s" => FnmaddS,
        "fadd.s" => FaddS,
        "fsub.s" => FsubS,
        "fmul.s" => FmulS,
        "fdiv.s" => FdivS,
        "fsqrt.s" => FsqrtS,
        "fsgnj.s" => FsgnjS,
        "fsgnjn.s" => FsgnjnS,
        "fsgnjx.s" => FsgnjxS,
        "fmin.s" => FminS,
        "fmax.s" => FmaxS,
        "fcvt.w.s" => FcvtWS,
        "fcvt.wu.s" => FcvtWuS,
        "fcvt.l.s" => FcvtLS,
        "fcvt.lu.s" => FcvtLuS,
        "fmv.x.w" => FmvXW,
        "feq.s" => FeqS,
        "flt.s" => FltS,
        "fle.s" => FleS,
        "fclass.s" => FclassS,
        "fcvt.s.w" => FcvtSW,
        "fcvt.s.wu" => FcvtSWu,
        "fcvt.s.l" => FcvtSL,
        "fcvt.s.lu" => FcvtSLu,
        "fmv.w.x" => FmvWX,
        "fld" => Fld,
        "fsd" => Fsd,
        "fmadd.d" => FmaddD,
        "fmsub.d" => FmsubD,
        "fnmsub.d" => FnmsubD,
        "fnmadd.d" => FnmaddD,
        "fadd.d" => FaddD,
        "fsub.d" => FsubD,
        "fmul.d" => FmulD,
        "fdiv.d" => FdivD,
        "fsqrt.d" => FsqrtD,
        "fsgnj.d" => FsgnjD,
        "fsgnjn.d" => FsgnjnD,
        "fsgnjx.d" => FsgnjxD,
        "fmin.d" => FminD,
        "fmax.d" => FmaxD,
        "fcvt.s.d" => FcvtSD,
        "fcvt.d.s" => FcvtDS,
        "feq.d" => FeqD,
        "flt.d" => FltD,
        "fle.d" => FleD,
        "fclass.d" => FclassD,
        "fcvt.w.d" => FcvtWD,
        "fcvt.wu.d" => FcvtWuD,
        "fcvt.l.d" => FcvtLD,
        "fcvt.lu.d" => FcvtLuD,
        "fmv.x.d" => FmvXD,
        "fcvt.d.w" => FcvtDW,
        "fcvt.d.wu" => FcvtDWu,
        "fcvt.d.l" => FcvtDL,
        "fcvt.d.lu" => FcvtDLu,
        "fmv.d.x" => FmvDX,
        "mret" => Mret,
        "sret" => Sret,
        "wfi" => Wfi,
        "sfence.vma" => SfenceVma,
        _ => return None,
    })
}

/// The operation a compressed instruction expands to in RV64C, following disc-v's own
/// expansion tables (`decompress` in its `opcodes/c.rs`). Used for HINTs, which disc-v shows
/// as encoded rather than expanded, and to cross-check the expanded mnemonics it shows.
fn c_expansion(name: &str) -> Option<Op> {
    use Op::*;
    Some(match name {
        "c.addi4spn" | "c.nop" | "c.addi" | "c.li" | "c.addi16sp" | "c.mv" => Addi,
        "c.fld" | "c.fldsp" => Fld,
        "c.lw" | "c.lwsp" => Lw,
        "c.ld" | "c.ldsp" => Ld,
        "c.fsd" | "c.fsdsp" => Fsd,
        "c.sw" | "c.swsp" => Sw,
        "c.sd" | "c.sdsp" => Sd,
        "c.addiw" => Addiw,
        "c.lui" => Lui,
        "c.srli" => Srli,
        "c.srai" => Srai,
        "c.andi" => Andi,
        "c.sub" => Sub,
        "c.xor" => Xor,
        "c.or" => Or,
        "c.and" => And,
        "c.subw" => Subw,
        "c.addw" => Addw,
        "c.j" => Jal,
        "c.beqz" => Beq,
        "c.bnez" => Bne,
        "c.slli" => Slli,
        "c.jr" | "c.jalr" => Jalr,
        "c.ebreak" => Ebreak,
        "c.add" => Add,
        _ => return None,
    })
}

// ---------------------------------------------------------------------------------------------
// Which operands an operation has
// ---------------------------------------------------------------------------------------------

const RD: u8 = 1;
const RS1: u8 = 2;
const RS2: u8 = 4;
const RS3: u8 = 8;
const IMM: u8 = 16;
const RM: u8 = 32;

/// The operand fields of `op` that carry information; the others must be 0 in our `Insn`.
fn fields(op: Op) -> u8 {
    use Op::*;
    match op {
        NotDecoded | Illegal => 0,
        Fence | FenceI | Ecall | Ebreak | Mret | Sret | Wfi | Sctrclr => 0,
        Lui | Auipc | Jal => RD | IMM,
        Jalr | Lb | Lh | Lw | Ld | Lbu | Lhu | Lwu | Flw | Fld => RD | RS1 | IMM,
        Addi | Slti | Sltiu | Xori | Ori | Andi | Slli | Srli | Srai => RD | RS1 | IMM,
        Addiw | Slliw | Srliw | Sraiw => RD | RS1 | IMM,
        Csrrw | Csrrs | Csrrc | Csrrwi | Csrrsi | Csrrci => RD | RS1 | IMM,
        Beq | Bne | Blt | Bge | Bltu | Bgeu => RS1 | RS2 | IMM,
        Sb | Sh | Sw | Sd | Fsw | Fsd => RS1 | RS2 | IMM,
        Add | Sub | Sll | Slt | Sltu | Xor | Srl | Sra | Or | And => RD | RS1 | RS2,
        Addw | Subw | Sllw | Srlw | Sraw => RD | RS1 | RS2,
        Mul | Mulh | Mulhsu | Mulhu | Div | Divu | Rem | Remu => RD | RS1 | RS2,
        Mulw | Divw | Divuw | Remw | Remuw => RD | RS1 | RS2,
        LrW | LrD => RD | RS1 | RM,
        ScW | AmoswapW | AmoaddW | AmoxorW | AmoandW | AmoorW | AmominW | AmomaxW | AmominuW
        | AmomaxuW | ScD | AmoswapD | AmoaddD | AmoxorD | AmoandD | AmoorD | AmominD | AmomaxD
        | AmominuD | AmomaxuD => RD | RS1 | RS2 | RM,
        FmaddS | FmsubS | FnmsubS | FnmaddS | FmaddD | FmsubD | FnmsubD | FnmaddD => {
            RD | RS1 | RS2 | RS3 | RM
        }
        FaddS | FsubS | FmulS | FdivS | FaddD | FsubD | FmulD | FdivD => RD | RS1 | RS2 | RM,
        FsqrtS | FsqrtD | FcvtWS | FcvtWuS | FcvtLS | FcvtLuS | FcvtSW | FcvtSWu | FcvtSL
        | FcvtSLu | FcvtSD | FcvtDS | FcvtWD | FcvtWuD | FcvtLD | FcvtLuD | FcvtDW | FcvtDWu
        | FcvtDL | FcvtDLu => RD | RS1 | RM,
        FsgnjS | FsgnjnS | FsgnjxS | FminS | FmaxS | FeqS | FltS | FleS => RD | RS1 | RS2,
        FsgnjD | FsgnjnD | FsgnjxD | FminD | FmaxD | FeqD | FltD | FleD => RD | RS1 | RS2,
        FmvXW | FclassS | FmvWX | FmvXD | FclassD | FmvDX => RD | RS1,
        SfenceVma | SinvalVma => RS1 | RS2,
        SfenceWInval | SfenceInvalIr => 0,
        AddUw | Sh1add | Sh2add | Sh3add | Sh1addUw | Sh2addUw | Sh3addUw | Andn | Orn | Xnor
        | Max | Maxu | Min | Minu | Rol | Ror | Rolw | Rorw | Bclr | Bext | Binv | Bset
        | CzeroEqz | CzeroNez => RD | RS1 | RS2,
        Clz | Clzw | Ctz | Ctzw | Cpop | Cpopw | SextB | SextH | ZextH | OrcB | Rev8 => RD | RS1,
        SlliUw | Rori | Roriw | Bclri | Bexti | Binvi | Bseti => RD | RS1 | IMM,
        CboClean | CboFlush | CboInval | CboZero => RS1,
        FliS | FliD | FroundS | FroundnxS | FroundD | FroundnxD | FcvtmodWD => RD | RS1,
        FminmS | FmaxmS | FminmD | FmaxmD | FleqS | FltqS | FleqD | FltqD => RD | RS1 | RS2,
    }
}

/// Whether `op` is an F/D instruction with a rounding-mode field.
fn has_rm_field(op: Op) -> bool {
    fields(op) & RM != 0 && !is_atomic(op)
}

fn is_atomic(op: Op) -> bool {
    (Op::LrW..=Op::AmomaxuD).contains(&op)
}

// ---------------------------------------------------------------------------------------------
// Comparing
// ---------------------------------------------------------------------------------------------

/// The instruction disc-v says `bits` is, in our terms: `None` if illegal.
fn expected(r: &Ref, compressed: bool) -> Result<Option<Insn>, String> {
    if r.illegal {
        return Ok(None);
    }
    let op = if compressed {
        let exp = c_expansion(r.encoded)
            .ok_or_else(|| format!("unknown compressed mnemonic {}", r.encoded))?;
        // disc-v shows a compressed instruction expanded (possibly as an alias), except HINTs,
        // which it shows as encoded. The expansion must agree with its table.
        if !r.shown.starts_with("c.") && base_op(r.shown) != Some(exp) {
            return Err(format!(
                "test tables: {} shown as {} but c_expansion says {exp:?}",
                r.encoded, r.shown
            ));
        }
        exp
    } else {
        base_op(r.encoded).ok_or_else(|| format!("unknown mnemonic {}", r.encoded))?
    };
    let rm = if is_atomic(op) {
        (r.aq as u8) << 1 | r.rl as u8
    } else {
        r.rm
    };
    Ok(Some(Insn {
        op,
        rd: r.rd,
        rs1: r.rs1,
        rs2: r.rs2,
        // `Insn` keeps an R4 operation's rs3 in its bits; the expected instruction carries
        // disc-v's in `off` (which decoding leaves 0), compared in `agrees`.
        off: r.rs3,
        rm,
        len: if compressed { 2 } else { 4 },
        wd: if r.rd == 0 { 32 } else { r.rd },
        imm: r.imm,
        bits: 0,
    }))
}

/// Checks our decoding against our own invariants: length, raw bits, `wd`, and zeros in the
/// fields the operation does not use.
fn self_check(ours: &Insn, bits: u32, len: u8) -> Result<(), String> {
    let f = fields(ours.op);
    let ok = ours.len == len
        && ours.bits == bits
        && ours.wd == if ours.rd == 0 { 32 } else { ours.rd }
        && (f & RD != 0 || ours.rd == 0)
        && (f & RS1 != 0 || ours.rs1 == 0)
        && (f & RS2 != 0 || ours.rs2 == 0)
        && ours.off == 0
        && (f & IMM != 0 || ours.imm == 0)
        && (f & RM != 0 || ours.rm == 0)
        && ours.op != Op::NotDecoded;
    if ok {
        Ok(())
    } else {
        Err(format!("self-check failed: {ours:?}"))
    }
}

/// Whether our decoding matches disc-v's exactly (legality, operation, used operands).
fn agrees(ours: &Insn, exp: &Option<Insn>) -> bool {
    match exp {
        // disc-v predates Smctr 1.0's SCTRCLR.
        None => ours.op == Op::Illegal || ours.op == Op::Sctrclr,
        Some(e) => {
            let f = fields(e.op);
            ours.op == e.op
                && (f & RD == 0 || ours.rd == e.rd)
                && (f & RS1 == 0 || ours.rs1 == e.rs1)
                && (f & RS2 == 0 || ours.rs2 == e.rs2)
                && (f & RS3 == 0 || (ours.bits >> 27) as u8 == e.off)
                && (f & IMM == 0 || ours.imm == e.imm)
                && (f & RM == 0 || ours.rm == e.rm)
        }
    }
}

/// A class of encodings where disc-v departs from the RISC-V specification and we follow the
/// specification.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Exception {
    /// An F/D instruction with a rounding-mode field whose static rm is 101 or 110. Unprivileged
    /// spec, F extension, "Floating-Point Control and Status Register": rounding-mode
    /// encodings 101 and 110 are reserved; D extension, "Double-Precision Floating-Point
    /// Conversion": instructions whose rm field does not affect the result (fcvt.d.s,
    /// fcvt.d.w[u]) must still "treat the rm field as usual (in particular, with regard to
    /// decoding legal vs. reserved encodings)". A reserved encoding is not an instruction, so
    /// we decode it as illegal; disc-v decodes it (and prints rm as "unknown").
    FpReservedRm,
    /// `c.mv rd, rs2`. Unprivileged spec, C extension, "Integer Register-Register Operations":
    /// "C.MV expands into add rd, x0, rs2" (the commentary notes this differs from the MV
    /// pseudoinstruction, which is addi). disc-v expands it to `addi rd, rs2, 0` (shown as
    /// `mv`); we expand it to `add rd, x0, rs2`, as the spec says. Same result either way.
    CMvIsAdd,
}

/// Explains a disagreement between our decoding (`ours`) and disc-v's (`exp`, from `r`), or
/// returns `None` if it is not one of the known exception classes.
fn explain(dec: &Decoder, bits: u32, compressed: bool, ours: &Insn, r: &Ref) -> Option<Exception> {
    let exp = expected(r, compressed).ok()?;
    let e = exp?;
    if compressed {
        // c.mv: disc-v gives addi rd, rs1 = the rs2 field, imm 0.
        if r.encoded == "c.mv"
            && e.op == Op::Addi
            && e.imm == 0
            && ours.op == Op::Add
            && ours.rd == e.rd
            && ours.rs1 == 0
            && ours.rs2 == e.rs1
            && e.rs1 == ((bits >> 2) & 31) as u8
        {
            return Some(Exception::CMvIsAdd);
        }
        return None;
    }
    if has_rm_field(e.op) && (e.rm == 5 || e.rm == 6) && ours.op == Op::Illegal {
        // With the rm field set to RNE the two decoders must then agree completely.
        let fixed = bits & !(7 << 12);
        let r2 = reference(dec, fixed as u64);
        let ours2 = decode32(fixed);
        if matches!(expected(&r2, false), Ok(ref x) if agrees(&ours2, x)) {
            return Some(Exception::FpReservedRm);
        }
    }
    None
}

// ---------------------------------------------------------------------------------------------
// The sweep
// ---------------------------------------------------------------------------------------------

/// xorshift64*: deterministic and dependency-free.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as u32
    }
}

#[derive(Default)]
struct Stats {
    checked: u64,
    legal: u64,
    illegal: u64,
    exceptions: BTreeMap<Exception, (u64, u32)>,
    failures: Vec<String>,
    failure_count: u64,
}

impl Stats {
    fn check(&mut self, dec: &Decoder, bits: u32, compressed: bool) {
        self.checked += 1;
        let (ours, len) = if compressed {
            (Isa::RV64GC.filter(decode16(bits as u16)), 2)
        } else {
            (decode32(bits), 4)
        };
        let r = reference(dec, bits as u64);
        let result = self_check(&ours, bits, len).and_then(|()| {
            let exp = expected(&r, compressed)?;
            if agrees(&ours, &exp) {
                Ok(())
            } else if let Some(x) = explain(dec, bits, compressed, &ours, &r) {
                self.exceptions.entry(x).or_insert((0, bits)).0 += 1;
                Ok(())
            } else {
                Err(format!("disagreement: disc-v {exp:?}"))
            }
        });
        if ours.op == Op::Illegal {
            self.illegal += 1;
        } else {
            self.legal += 1;
        }
        if let Err(msg) = result {
            self.failure_count += 1;
            if self.failures.len() < 40 {
                self.failures.push(format!(
                    "{bits:#010x} ({}; disc-v shows {:?} / {:?}, illegal={}): ours {ours:?}: {msg}",
                    if compressed { "16-bit" } else { "32-bit" },
                    r.shown,
                    r.encoded,
                    r.illegal,
                ));
            }
        }
    }
}

#[test]
fn sweep_against_disc_v() {
    let start = Instant::now();
    let dec = Decoder::RV64GC;
    let mut s16 = Stats::default();
    let mut s32 = Stats::default();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);

    // Every 16-bit value that is a compressed instruction; also check the dispatch in `decode`
    // (with arbitrary upper halfword) and `insn_len`.
    for h in 0..=u16::MAX {
        if h & 3 == 3 {
            assert_eq!(insn_len(h), 4);
            continue;
        }
        assert_eq!(insn_len(h), 2);
        let word = (rng.next() << 16) | h as u32;
        assert_eq!(decode(word), decode16(h), "decode({word:#010x})");
        s16.check(&dec, h as u32, true);
    }

    // Every major opcode (bits 6:0 ending in 11) x funct3 x funct7 x rs2 field, with rd and rs1
    // random but often zero (fixed-zero fields and exact encodings like ecall need zeros).
    for opcode in (0..32u32).map(|o| (o << 2) | 3) {
        for funct3 in 0..8u32 {
            for funct7 in 0..128u32 {
                for rs2 in 0..32u32 {
                    let x = rng.next();
                    let rd = if x & 3 == 0 { 0 } else { (x >> 2) & 31 };
                    let rs1 = if x & 0x180 == 0 { 0 } else { (x >> 9) & 31 };
                    let bits =
                        opcode | rd << 7 | funct3 << 12 | rs1 << 15 | rs2 << 20 | funct7 << 25;
                    s32.check(&dec, bits, false);
                }
            }
        }
    }
    // Fully random words, forced to the 32-bit space.
    for _ in 0..16384 {
        let bits = rng.next() | 3;
        assert_eq!(Isa::RV64GC.filter(decode(bits)), decode32(bits));
        s32.check(&dec, bits, false);
    }

    let elapsed = start.elapsed();
    println!("decode sweep against disc-v (RV64GC), {elapsed:.2?}:");
    for (name, s) in [("16-bit", &s16), ("32-bit", &s32)] {
        println!(
            "  {name}: {} checked ({} legal, {} illegal), {} unexplained disagreements",
            s.checked, s.legal, s.illegal, s.failure_count
        );
        for (x, (n, example)) in &s.exceptions {
            println!("    exception {x:?}: {n} (e.g. {example:#010x})");
        }
    }
    let failures: Vec<_> = s16.failures.iter().chain(&s32.failures).collect();
    assert!(
        failures.is_empty(),
        "{} unexplained disagreements with disc-v, first ones:\n{}",
        s16.failure_count + s32.failure_count,
        failures
            .iter()
            .map(|f| f.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(s32.checked >= 1_000_000);
    assert_eq!(s16.checked, 49152);
}

// ---------------------------------------------------------------------------------------------
// Zba, Zbb, Zbs against binutils
// ---------------------------------------------------------------------------------------------

/// The operation a Zba/Zbb/Zbs mnemonic (as `objdump -M no-aliases` prints it) names.
fn zb_op(m: &str) -> Option<Op> {
    use Op::*;
    Some(match m {
        "add.uw" => AddUw,
        "sh1add" => Sh1add,
        "sh2add" => Sh2add,
        "sh3add" => Sh3add,
        "sh1add.uw" => Sh1addUw,
        "sh2add.uw" => Sh2addUw,
        "sh3add.uw" => Sh3addUw,
        "slli.uw" => SlliUw,
        "andn" => Andn,
        "orn" => Orn,
        "xnor" => Xnor,
        "clz" => Clz,
        "clzw" => Clzw,
        "ctz" => Ctz,
        "ctzw" => Ctzw,
        "cpop" => Cpop,
        "cpopw" => Cpopw,
        "max" => Max,
        "maxu" => Maxu,
        "min" => Min,
        "minu" => Minu,
        "sext.b" => SextB,
        "sext.h" => SextH,
        "zext.h" => ZextH,
        "rol" => Rol,
        "ror" => Ror,
        "rolw" => Rolw,
        "rorw" => Rorw,
        "rori" => Rori,
        "roriw" => Roriw,
        "orc.b" => OrcB,
        "rev8" => Rev8,
        "bclr" => Bclr,
        "bext" => Bext,
        "binv" => Binv,
        "bset" => Bset,
        "bclri" => Bclri,
        "bexti" => Bexti,
        "binvi" => Binvi,
        "bseti" => Bseti,
        _ => return None,
    })
}

/// An operand as objdump prints it: an ABI register name, or a number (decimal or 0x hex).
fn objdump_operand(s: &str) -> Option<i64> {
    use arch::GPR_ABI as ABI;
    if let Some(i) = ABI.iter().position(|r| *r == s) {
        return Some(i as i64);
    }
    match s.strip_prefix("0x") {
        Some(h) => i64::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

/// Every encoding of the opcode spaces Zba, Zbb and Zbs live in (OP, OP-32, OP-IMM and
/// OP-IMM-32: each funct3 x funct7 x rs2 field, rd = a0, rs1 = a1), assembled with `.insn`
/// under `.option arch, +zba, +zbb, +zbs` and disassembled by `riscv64-unknown-elf-objdump -M
/// no-aliases` (binutils 2.40 knows the three): where it prints a Zba/Zbb/Zbs mnemonic the
/// decoder must decode that operation with those operands (and an RV64GC hart must call it
/// illegal), and where the decoder decodes one of them objdump must agree. Skipped (saying so)
/// when the cross tools are missing, unless `HARTSCOPE_REQUIRE_TOOLS=1`.
#[test]
fn zb_sweep_against_objdump() {
    let test = "zb_sweep_against_objdump";
    let mut words = Vec::new();
    for opcode in [0x13u32, 0x1b, 0x33, 0x3b] {
        for funct3 in 0..8u32 {
            if opcode & 0x10 == 0 && !matches!(funct3, 1 | 5) {
                continue; // OP-IMM(-32) with another funct3: addi, slti, ... (no Zb)
            }
            for funct7 in 0..128u32 {
                for rs2 in 0..32u32 {
                    words.push(
                        opcode | 10 << 7 | funct3 << 12 | 11 << 15 | rs2 << 20 | funct7 << 25,
                    );
                }
            }
        }
    }
    let Some(listing) = objdump_words(test, "+zba, +zbb, +zbs", &words) else {
        return;
    };
    let theirs: BTreeMap<u32, (String, Vec<i64>)> = listing
        .into_iter()
        .map(|(w, (mn, ops))| {
            let ops = ops
                .split(',')
                .filter(|s| !s.is_empty())
                .map(|s| objdump_operand(s.trim()).unwrap_or(i64::MIN))
                .collect();
            (w, (mn, ops))
        })
        .collect();
    let (mut zb, mut problems) = (0, Vec::new());
    for &w in &words {
        let ours = iss::decode::decode32(w);
        let (mn, ops) = &theirs[&w];
        let want = zb_op(mn);
        let ours_zb = (Op::AddUw..=Op::Bseti).contains(&ours.op);
        if want.is_none() && !ours_zb {
            continue;
        }
        zb += 1;
        if want != Some(ours.op) {
            problems.push(format!(
                "{w:#010x}: objdump {mn} {ops:?}, ours {:?}",
                ours.op
            ));
            continue;
        }
        let f = fields(ours.op);
        let mut mine = vec![ours.rd as i64, ours.rs1 as i64];
        if f & RS2 != 0 {
            mine.push(ours.rs2 as i64);
        }
        if f & IMM != 0 {
            mine.push(ours.imm as i64);
        }
        if &mine != ops {
            problems.push(format!("{w:#010x}: {mn}: objdump {ops:?}, ours {mine:?}"));
        }
        if Isa::RV64GC.filter(ours).op != Op::Illegal {
            problems.push(format!("{w:#010x}: {mn} is not illegal on an RV64GC hart"));
        }
    }
    eprintln!("{test}: {} words, {zb} Zba/Zbb/Zbs", words.len());
    assert!(zb > 1000, "only {zb} Zb encodings seen");
    assert!(
        problems.is_empty(),
        "{} differences:\n{}",
        problems.len(),
        problems[..problems.len().min(40)].join("\n")
    );
}

/// `riscv64-unknown-elf-objdump -d -M no-aliases` of `words` (each assembled with `.insn`
/// under `.option arch, {arch}`): each word's mnemonic and operand text. `None` (after saying
/// so) when the cross tools are missing, unless `HARTSCOPE_REQUIRE_TOOLS=1`.
fn objdump_words(test: &str, arch: &str, words: &[u32]) -> Option<BTreeMap<u32, (String, String)>> {
    let gcc = "riscv64-unknown-elf-gcc";
    let objdump = "riscv64-unknown-elf-objdump";
    let have = |t: &str| {
        std::process::Command::new(t)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !have(gcc) || !have(objdump) {
        assert!(
            std::env::var_os("HARTSCOPE_REQUIRE_TOOLS").is_none(),
            "{gcc} and {objdump} are needed (Debian: gcc-riscv64-unknown-elf)"
        );
        eprintln!("{test}: SKIPPED: no {gcc}/{objdump} on PATH");
        return None;
    }
    let dir = std::env::temp_dir().join(format!("hartscope-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let (src, obj) = (dir.join("w.S"), dir.join("w.o"));
    let mut text = format!(".option arch, {arch}\n");
    for w in words {
        writeln!(text, ".insn {w:#010x}").expect("a String");
    }
    std::fs::write(&src, text).expect("write the source");
    let st = std::process::Command::new(gcc)
        .args(["-march=rv64gc", "-mabi=lp64d", "-c", "-o"])
        .arg(&obj)
        .arg(&src)
        .status()
        .expect("run the assembler");
    assert!(st.success(), "{gcc} failed on {}", src.display());
    let out = std::process::Command::new(objdump)
        .args(["-d", "-M", "no-aliases"])
        .arg(&obj)
        .output()
        .expect("run objdump");
    assert!(out.status.success(), "{objdump} failed");
    let _ = std::fs::remove_dir_all(&dir);
    let mut theirs = BTreeMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let mut cols = line.split('\t');
        let (Some(addr), Some(hex), Some(mn)) = (cols.next(), cols.next(), cols.next()) else {
            continue;
        };
        if !addr.trim_end().ends_with(':') {
            continue;
        }
        let Ok(bits) = u32::from_str_radix(hex.trim(), 16) else {
            continue;
        };
        let ops = cols.next().unwrap_or("").to_string();
        theirs.insert(bits, (mn.trim().to_string(), ops));
    }
    assert_eq!(theirs.len(), words.len(), "objdump listed every word");
    Some(theirs)
}

/// Zicbom, Zicboz, Zihintpause and Zicbop against binutils 2.40, which knows them: every
/// MISC-MEM word with rs1 = a1, rd = x0 or a0 (each funct3 x imm[11:0]), every FENCE with
/// rs1 = rd = x0, and every OP-IMM
/// `ori` to x0 from a1 (each immediate). Where objdump prints `cbo.*` the decoder decodes that
/// operation of rs1 (and the hart with Zicbom and Zicboz executes it, an RV64GC hart calls it
/// illegal), and the other way round; the rest of funct3 010 is illegal for both; `pause`
/// and `prefetch.*` are printed by our disassembler exactly where objdump prints them (with
/// the offset), and decode as the FENCE and ORI they are.
#[test]
fn cbo_and_hint_sweep_against_objdump() {
    let test = "cbo_and_hint_sweep_against_objdump";
    let mut words = Vec::new();
    for funct3 in 0..8u32 {
        for imm in 0..4096u32 {
            for rd in [0u32, 10] {
                words.push(0x0f | rd << 7 | funct3 << 12 | 11 << 15 | imm << 20);
            }
        }
    }
    // FENCE with rs1 = rd = x0 (where `pause` is).
    for imm in 0..4096u32 {
        words.push(0x0f | imm << 20);
    }
    for imm in 0..4096u32 {
        words.push(0x13 | 6 << 12 | 11 << 15 | imm << 20);
    }
    let arch = "+zicbom, +zicboz, +zicbop, +zihintpause";
    let Some(theirs) = objdump_words(test, arch, &words) else {
        return;
    };
    let cbo = Isa::parse("rv64gc_zicbom_zicboz").expect("an ISA");
    let (mut seen, mut problems) = ([0usize; 3], Vec::new());
    for &w in &words {
        let (mn, ops) = &theirs[&w];
        let d = iss::decode::decode32(w);
        let want = match mn.as_str() {
            "cbo.clean" => Some(Op::CboClean),
            "cbo.flush" => Some(Op::CboFlush),
            "cbo.inval" => Some(Op::CboInval),
            "cbo.zero" => Some(Op::CboZero),
            _ => None,
        };
        let ours_cbo = matches!(
            d.op,
            Op::CboClean | Op::CboFlush | Op::CboInval | Op::CboZero
        );
        if want.is_some() || ours_cbo {
            seen[0] += 1;
            if want != Some(d.op) || ops != "(a1)" || d.rs1 != 11 {
                problems.push(format!("{w:#010x}: objdump {mn} {ops}, ours {d:?}"));
            }
            if cbo.filter(d) != d || Isa::RV64GC.filter(d).op != Op::Illegal {
                problems.push(format!("{w:#010x}: {mn}: not filtered by Zicbom/Zicboz"));
            }
        } else if w & 0x707f == 0x200f && (d.op != Op::Illegal || !mn.starts_with('.')) {
            problems.push(format!("{w:#010x}: objdump {mn} {ops}, ours {:?}", d.op));
        }
        let text = iss::disasm::disasm(w);
        if mn == "pause" || text == "pause" {
            seen[1] += 1;
            if mn != "pause" || text != "pause" || d.op != Op::Fence {
                problems.push(format!("{w:#010x}: objdump {mn}, ours {text} ({:?})", d.op));
            }
        }
        if mn.starts_with("prefetch.") || text.starts_with("prefetch.") {
            seen[2] += 1;
            let theirs = format!("{mn} {ops}");
            let ours: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
            if ours != theirs || d.op != Op::Ori {
                problems.push(format!(
                    "{w:#010x}: objdump {theirs}, ours {ours} ({:?})",
                    d.op
                ));
            }
        }
    }
    eprintln!(
        "{test}: {} words, {} cbo.*, {} pause, {} prefetch",
        words.len(),
        seen[0],
        seen[1],
        seen[2]
    );
    assert_eq!(seen, [4, 1, 3 * 128], "cbo.*, pause, prefetch.* seen");
    assert!(
        problems.is_empty(),
        "{} differences:\n{}",
        problems.len(),
        problems[..problems.len().min(40)].join("\n")
    );
}

/// Svinval against binutils 2.40, which knows it: every SYSTEM word with funct3 0 (each funct7
/// x rs2 field, rs1 = x0 or a1, rd = x0 or a0). Where objdump prints `sinval.vma`,
/// `sfence.w.inval` or `sfence.inval.ir` the decoder decodes that operation with those operands
/// (a hart with Svinval executes it, an RV64GC hart calls it illegal), and the other way
/// round; `hinval.vvma`/`hinval.gvma` (H, which hartscope does not have, nor Spike without H)
/// are illegal.
#[test]
fn svinval_sweep_against_objdump() {
    let test = "svinval_sweep_against_objdump";
    let mut words = Vec::new();
    for funct7 in 0..128u32 {
        for rs2 in 0..32u32 {
            for rs1 in [0u32, 11] {
                for rd in [0u32, 10] {
                    words.push(0x73 | rd << 7 | rs1 << 15 | rs2 << 20 | funct7 << 25);
                }
            }
        }
    }
    let Some(theirs) = objdump_words(test, "+svinval", &words) else {
        return;
    };
    let svinval = Isa::parse("rv64gc_svinval").expect("an ISA");
    let (mut seen, mut problems) = ([0usize; 2], Vec::new());
    for &w in &words {
        let (mn, ops) = &theirs[&w];
        let d = iss::decode::decode32(w);
        let want = match mn.as_str() {
            "sinval.vma" => Some(Op::SinvalVma),
            "sfence.w.inval" => Some(Op::SfenceWInval),
            "sfence.inval.ir" => Some(Op::SfenceInvalIr),
            _ => None,
        };
        let ours = matches!(d.op, Op::SinvalVma | Op::SfenceWInval | Op::SfenceInvalIr);
        if want.is_some() || ours {
            seen[0] += 1;
            let mine = if d.op == Op::SinvalVma {
                format!(
                    "{},{}",
                    arch::GPR_ABI[d.rs1 as usize],
                    arch::GPR_ABI[d.rs2 as usize]
                )
            } else {
                String::new()
            };
            if want != Some(d.op) || *ops != mine {
                problems.push(format!(
                    "{w:#010x}: objdump {mn} {ops}, ours {:?} {mine}",
                    d.op
                ));
            }
            if svinval.filter(d) != d || Isa::RV64GC.filter(d).op != Op::Illegal {
                problems.push(format!("{w:#010x}: {mn}: not filtered by Svinval"));
            }
        }
        if mn.starts_with("hinval.") {
            seen[1] += 1;
            if d.op != Op::Illegal {
                problems.push(format!("{w:#010x}: objdump {mn} (H), ours {:?}", d.op));
            }
        }
    }
    eprintln!(
        "{test}: {} words, {} Svinval, {} hinval",
        words.len(),
        seen[0],
        seen[1]
    );
    // sinval.vma: rd = 0, rs1 in {x0, a1}, any rs2; the other two: one word each.
    assert_eq!(seen[0], 2 * 32 + 2, "Svinval encodings seen");
    // hinval.vvma, hinval.gvma: rd = 0, rs1 in {x0, a1}, any rs2.
    assert_eq!(seen[1], 2 * 2 * 32, "hinval encodings seen");
    assert!(
        problems.is_empty(),
        "{} differences:\n{}",
        problems.len(),
        problems[..problems.len().min(40)].join("\n")
    );
}
