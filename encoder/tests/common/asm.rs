//! A small RV64GC assembler for the tests that build their programs as machine code: the
//! encodings of the instructions they use (checked against `iss::decode` in
//! `random_programs.rs`), and a two-pass layout with labels, pc-relative pairs and
//! relaxation (a compressed branch or jump whose target is out of reach becomes the 32-bit
//! form; a conditional branch out of reach becomes the inverse branch over a `jal`).

// Registers by ABI name.
pub const ZERO: u8 = 0;
pub const RA: u8 = 1;
pub const SP: u8 = 2;
pub const T0: u8 = 5;

pub mod op {
    pub const LUI: u32 = 0x37;
    pub const AUIPC: u32 = 0x17;
    pub const JAL: u32 = 0x6f;
    pub const JALR: u32 = 0x67;
    pub const BRANCH: u32 = 0x63;
    pub const LOAD: u32 = 0x03;
    pub const STORE: u32 = 0x23;
    pub const OP_IMM: u32 = 0x13;
    pub const OP: u32 = 0x33;
    pub const OP_IMM_32: u32 = 0x1b;
    pub const OP_32: u32 = 0x3b;
    pub const SYSTEM: u32 = 0x73;
}

/// Branch conditions (funct3).
pub mod cond {
    pub const EQ: u32 = 0;
    pub const NE: u32 = 1;
    pub const LT: u32 = 4;
    pub const GE: u32 = 5;
    pub const LTU: u32 = 6;
    pub const GEU: u32 = 7;
}

fn r5(r: u8) -> u32 {
    assert!(r < 32, "register x{r}");
    r as u32
}

fn fits(v: i64, bits: u32) -> bool {
    let lim = 1i64 << (bits - 1);
    (-lim..lim).contains(&v)
}

// ---------------------------------------------------------------------------------------------
// 32-bit formats
// ---------------------------------------------------------------------------------------------

pub fn r_type(opc: u32, f3: u32, f7: u32, rd: u8, rs1: u8, rs2: u8) -> u32 {
    (f7 << 25) | (r5(rs2) << 20) | (r5(rs1) << 15) | (f3 << 12) | (r5(rd) << 7) | opc
}

pub fn i_type(opc: u32, f3: u32, rd: u8, rs1: u8, imm: i32) -> u32 {
    assert!(fits(imm as i64, 12), "I immediate {imm}");
    (((imm as u32) & 0xfff) << 20) | (r5(rs1) << 15) | (f3 << 12) | (r5(rd) << 7) | opc
}

pub fn s_type(f3: u32, rs1: u8, rs2: u8, imm: i32) -> u32 {
    assert!(fits(imm as i64, 12), "S immediate {imm}");
    let imm = imm as u32;
    (((imm >> 5) & 0x7f) << 25)
        | (r5(rs2) << 20)
        | (r5(rs1) << 15)
        | (f3 << 12)
        | ((imm & 0x1f) << 7)
        | op::STORE
}

pub fn b_type(f3: u32, rs1: u8, rs2: u8, off: i64) -> u32 {
    assert!(fits(off, 13) && off & 1 == 0, "branch offset {off}");
    let o = off as u32;
    (((o >> 12) & 1) << 31)
        | (((o >> 5) & 0x3f) << 25)
        | (r5(rs2) << 20)
        | (r5(rs1) << 15)
        | (f3 << 12)
        | (((o >> 1) & 0xf) << 8)
        | (((o >> 11) & 1) << 7)
        | op::BRANCH
}

pub fn u_type(opc: u32, rd: u8, imm20: u32) -> u32 {
    ((imm20 & 0xfffff) << 12) | (r5(rd) << 7) | opc
}

pub fn jal(rd: u8, off: i64) -> u32 {
    assert!(fits(off, 21) && off & 1 == 0, "jal offset {off}");
    let o = off as u32;
    (((o >> 20) & 1) << 31)
        | (((o >> 1) & 0x3ff) << 21)
        | (((o >> 11) & 1) << 20)
        | (((o >> 12) & 0xff) << 12)
        | (r5(rd) << 7)
        | op::JAL
}

pub fn jalr(rd: u8, rs1: u8, imm: i32) -> u32 {
    i_type(op::JALR, 0, rd, rs1, imm)
}

pub fn addi(rd: u8, rs1: u8, imm: i32) -> u32 {
    i_type(op::OP_IMM, 0, rd, rs1, imm)
}

pub fn lui(rd: u8, imm20: u32) -> u32 {
    u_type(op::LUI, rd, imm20)
}

pub fn auipc(rd: u8, imm20: u32) -> u32 {
    u_type(op::AUIPC, rd, imm20)
}

pub fn load(f3: u32, rd: u8, rs1: u8, imm: i32) -> u32 {
    i_type(op::LOAD, f3, rd, rs1, imm)
}

pub fn ld(rd: u8, rs1: u8, imm: i32) -> u32 {
    load(3, rd, rs1, imm)
}

pub fn sd(rs2: u8, rs1: u8, imm: i32) -> u32 {
    s_type(3, rs1, rs2, imm)
}

pub fn sw(rs2: u8, rs1: u8, imm: i32) -> u32 {
    s_type(2, rs1, rs2, imm)
}

/// A CSR instruction: funct3 1 csrrw, 2 csrrs, 3 csrrc, 5..7 the immediate forms.
pub fn csr(f3: u32, rd: u8, csr: u16, rs1: u8) -> u32 {
    ((csr as u32) << 20) | (r5(rs1) << 15) | (f3 << 12) | (r5(rd) << 7) | op::SYSTEM
}

pub fn csrr(rd: u8, c: u16) -> u32 {
    csr(2, rd, c, 0)
}

pub fn csrw(c: u16, rs1: u8) -> u32 {
    csr(1, 0, c, rs1)
}

pub const ECALL: u32 = 0x0000_0073;
pub const EBREAK: u32 = 0x0010_0073;
pub const MRET: u32 = 0x3020_0073;
pub const WFI: u32 = 0x1050_0073;
/// A reserved 32-bit encoding (custom-0 opcode): illegal on this hart.
pub const ILLEGAL32: u32 = 0x0000_000b;
/// The all-zero half-word: a reserved 16-bit encoding, illegal.
pub const ILLEGAL16: u16 = 0x0000;
pub const C_EBREAK: u16 = 0x9002;
pub const C_NOP: u16 = 0x0001;

// ---------------------------------------------------------------------------------------------
// 16-bit formats
// ---------------------------------------------------------------------------------------------

fn rp(r: u8) -> u16 {
    assert!((8..16).contains(&r), "x{r} is not a compressed register");
    (r - 8) as u16
}

/// CI format: funct3, imm[5] at 12, rd at 11:7, imm[4:0] at 6:2, quadrant.
fn ci(f3: u16, rd: u8, imm6: u16, q: u16) -> u16 {
    (f3 << 13) | (((imm6 >> 5) & 1) << 12) | ((r5(rd) as u16) << 7) | ((imm6 & 0x1f) << 2) | q
}

pub fn c_addi(rd: u8, imm: i32) -> u16 {
    assert!(rd != 0 && imm != 0 && fits(imm as i64, 6));
    ci(0, rd, imm as u16 & 0x3f, 1)
}

pub fn c_addiw(rd: u8, imm: i32) -> u16 {
    assert!(rd != 0 && fits(imm as i64, 6));
    ci(1, rd, imm as u16 & 0x3f, 1)
}

pub fn c_li(rd: u8, imm: i32) -> u16 {
    assert!(rd != 0 && fits(imm as i64, 6));
    ci(2, rd, imm as u16 & 0x3f, 1)
}

/// c.lui rd, nzimm[17:12] (as the 6-bit value of bits 17:12, sign-extended by the hart).
pub fn c_lui(rd: u8, imm6: i32) -> u16 {
    assert!(rd != 0 && rd != 2 && imm6 != 0 && fits(imm6 as i64, 6));
    ci(3, rd, imm6 as u16 & 0x3f, 1)
}

pub fn c_slli(rd: u8, sh: u32) -> u16 {
    assert!(rd != 0 && (1..64).contains(&sh));
    ci(0, rd, sh as u16, 2)
}

/// c.srli (kind 0), c.srai (1), c.andi (2).
fn cb_alu(kind: u16, rd: u8, imm6: u16) -> u16 {
    (4 << 13) | (((imm6 >> 5) & 1) << 12) | (kind << 10) | (rp(rd) << 7) | ((imm6 & 0x1f) << 2) | 1
}

pub fn c_srli(rd: u8, sh: u32) -> u16 {
    assert!((1..64).contains(&sh));
    cb_alu(0, rd, sh as u16)
}

pub fn c_srai(rd: u8, sh: u32) -> u16 {
    assert!((1..64).contains(&sh));
    cb_alu(1, rd, sh as u16)
}

pub fn c_andi(rd: u8, imm: i32) -> u16 {
    assert!(fits(imm as i64, 6));
    cb_alu(2, rd, imm as u16 & 0x3f)
}

/// CA format: c.sub (w 0, f 0), c.xor (0, 1), c.or (0, 2), c.and (0, 3), c.subw (1, 0),
/// c.addw (1, 1).
pub fn c_arith(w: u16, f: u16, rd: u8, rs2: u8) -> u16 {
    (4 << 13) | (w << 12) | (3 << 10) | (rp(rd) << 7) | (f << 5) | (rp(rs2) << 2) | 1
}

pub fn c_mv(rd: u8, rs2: u8) -> u16 {
    assert!(rd != 0 && rs2 != 0);
    (4 << 13) | ((rd as u16) << 7) | ((rs2 as u16) << 2) | 2
}

pub fn c_add(rd: u8, rs2: u8) -> u16 {
    assert!(rd != 0 && rs2 != 0);
    (4 << 13) | (1 << 12) | ((rd as u16) << 7) | ((rs2 as u16) << 2) | 2
}

pub fn c_jr(rs1: u8) -> u16 {
    assert!(rs1 != 0);
    (4 << 13) | ((rs1 as u16) << 7) | 2
}

pub fn c_jalr(rs1: u8) -> u16 {
    assert!(rs1 != 0);
    (4 << 13) | (1 << 12) | ((rs1 as u16) << 7) | 2
}

/// c.ldsp rd, uimm(sp) (uimm a multiple of 8 below 512).
pub fn c_ldsp(rd: u8, uimm: u32) -> u16 {
    assert!(rd != 0 && uimm & 7 == 0 && uimm < 512);
    let u = uimm as u16;
    (3 << 13)
        | (((u >> 5) & 1) << 12)
        | ((rd as u16) << 7)
        | (((u >> 3) & 3) << 5)
        | (((u >> 6) & 7) << 2)
        | 2
}

/// c.ld rd', uimm(rs1') (uimm a multiple of 8 below 256).
pub fn c_ld(rd: u8, rs1: u8, uimm: u32) -> u16 {
    assert!(uimm & 7 == 0 && uimm < 256);
    let u = uimm as u16;
    (3 << 13) | (((u >> 3) & 7) << 10) | (rp(rs1) << 7) | (((u >> 6) & 3) << 5) | (rp(rd) << 2)
}

pub fn c_j(off: i64) -> u16 {
    assert!(fits(off, 12) && off & 1 == 0, "c.j offset {off}");
    let o = off as u16;
    let b = |i: u16| (o >> i) & 1;
    let imm = (b(11) << 10)
        | (b(4) << 9)
        | (((o >> 8) & 3) << 7)
        | (b(10) << 6)
        | (b(6) << 5)
        | (b(7) << 4)
        | (((o >> 1) & 7) << 1)
        | b(5);
    (5 << 13) | (imm << 2) | 1
}

/// c.beqz (ne false) or c.bnez (ne true).
pub fn c_bz(ne: bool, rs1: u8, off: i64) -> u16 {
    assert!(fits(off, 9) && off & 1 == 0, "c.beqz offset {off}");
    let o = off as u16;
    let b = |i: u16| (o >> i) & 1;
    let hi = (b(8) << 2) | ((o >> 3) & 3);
    let lo = (((o >> 6) & 3) << 3) | (((o >> 1) & 3) << 1) | b(5);
    ((6 + ne as u16) << 13) | (hi << 10) | (rp(rs1) << 7) | (lo << 2) | 1
}

fn put32(bytes: &mut Vec<u8>, insns: &mut Vec<(u64, u8)>, at: u64, w: u32) {
    insns.push((at, 4));
    bytes.extend_from_slice(&w.to_le_bytes());
}

fn put16(bytes: &mut Vec<u8>, insns: &mut Vec<(u64, u8)>, at: u64, h: u16) {
    insns.push((at, 2));
    bytes.extend_from_slice(&h.to_le_bytes());
}

// ---------------------------------------------------------------------------------------------
// Layout
// ---------------------------------------------------------------------------------------------

/// A label: an index into the assembler's label table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Label(pub usize);

/// What follows an `auipc rt, %hi(label)`.
#[derive(Clone, Copy, Debug)]
pub enum Lo {
    /// `addi rt, rt, %lo(label)`: rt holds the label's address.
    Addi,
    /// `jalr rd, %lo(label)(rt)`: a jump there (sequentially inferable).
    Jalr(u8),
}

#[derive(Clone, Debug)]
enum Item {
    W(u32),
    H(u16),
    Label(Label),
    /// A conditional branch; `c`: c.beqz/c.bnez when in reach (rs2 = x0, rs1 in x8..x15).
    Branch {
        f3: u32,
        rs1: u8,
        rs2: u8,
        to: Label,
        c: bool,
        far: bool,
    },
    /// `jal rd, label`; `c`: c.j when rd is x0 and it is in reach.
    Jal {
        rd: u8,
        to: Label,
        c: bool,
    },
    Pcrel {
        rt: u8,
        to: Label,
        lo: Lo,
    },
    /// Pad with c.nop to a multiple of 4.
    Align4,
}

/// An assembler: instructions and labels in order, laid out at `base` by [`Asm::finish`].
#[derive(Clone, Debug)]
pub struct Asm {
    pub base: u64,
    items: Vec<Item>,
    nlabels: usize,
}

/// Assembled code.
#[derive(Clone, Debug)]
pub struct Code {
    pub base: u64,
    pub bytes: Vec<u8>,
    /// The address of every label.
    pub labels: Vec<u64>,
    /// The address and length of every instruction.
    pub insns: Vec<(u64, u8)>,
}

impl Code {
    /// A machine at reset (console silenced) with this code in RAM at its base, not booted.
    pub fn machine(&self) -> iss::Machine {
        let mut m = iss::Machine::new(iss::Config::default());
        m.bus.console = iss::bus::Console::Null;
        let off = m
            .bus
            .ram
            .offset(self.base, self.bytes.len() as u64)
            .expect("the code lies in RAM");
        m.bus
            .ram
            .bytes_mut(off, self.bytes.len())
            .copy_from_slice(&self.bytes);
        m
    }

    pub fn addr(&self, l: Label) -> u64 {
        self.labels[l.0]
    }

    pub fn end(&self) -> u64 {
        self.base + self.bytes.len() as u64
    }

    /// One line per instruction: address, bits and disassembly (the hart's decoding).
    pub fn listing(&self) -> String {
        let mut s = String::new();
        for &(a, len) in &self.insns {
            let off = (a - self.base) as usize;
            let bits = if len == 2 {
                u16::from_le_bytes([self.bytes[off], self.bytes[off + 1]]) as u32
            } else {
                u32::from_le_bytes(self.bytes[off..off + 4].try_into().unwrap())
            };
            let d = iss::decode::decode(bits);
            let labels: Vec<String> = (0..self.labels.len())
                .filter(|&i| self.labels[i] == a)
                .map(|i| format!("L{i}:"))
                .collect();
            s += &format!(
                "{a:#x}: {:>8} {:<10} {:?} rd=x{} rs1=x{} rs2=x{} imm={}\n",
                if len == 2 {
                    format!("{bits:04x}")
                } else {
                    format!("{bits:08x}")
                },
                labels.join(""),
                d.op,
                d.rd,
                d.rs1,
                d.rs2,
                d.imm
            );
        }
        s
    }
}

impl Asm {
    pub fn new(base: u64) -> Asm {
        Asm {
            base,
            items: Vec::new(),
            nlabels: 0,
        }
    }

    pub fn label(&mut self) -> Label {
        self.nlabels += 1;
        Label(self.nlabels - 1)
    }

    /// Place a label here.
    pub fn bind(&mut self, l: Label) {
        self.items.push(Item::Label(l));
    }

    /// A new label placed here.
    pub fn here(&mut self) -> Label {
        let l = self.label();
        self.bind(l);
        l
    }

    pub fn w(&mut self, bits: u32) {
        assert_eq!(bits & 3, 3, "{bits:#x} is not a 32-bit instruction");
        self.items.push(Item::W(bits));
    }

    pub fn h(&mut self, bits: u16) {
        assert_ne!(bits & 3, 3, "{bits:#x} is not a 16-bit instruction");
        self.items.push(Item::H(bits));
    }

    /// A 16-bit or 32-bit instruction given by its bits.
    pub fn raw(&mut self, bits: u32) {
        if bits & 3 == 3 {
            self.items.push(Item::W(bits));
        } else {
            self.items.push(Item::H(bits as u16));
        }
    }

    /// `b<cond> rs1, rs2, to`; compressed when `c` and possible.
    pub fn branch(&mut self, f3: u32, rs1: u8, rs2: u8, to: Label, c: bool) {
        let c = c && rs2 == 0 && (8..16).contains(&rs1) && (f3 == cond::EQ || f3 == cond::NE);
        self.items.push(Item::Branch {
            f3,
            rs1,
            rs2,
            to,
            c,
            far: false,
        });
    }

    /// `jal rd, to`; `c.j` when `c`, rd is x0 and it is in reach.
    pub fn jal(&mut self, rd: u8, to: Label, c: bool) {
        self.items.push(Item::Jal {
            rd,
            to,
            c: c && rd == 0,
        });
    }

    /// `auipc rt, %hi(to)` and what `lo` says.
    pub fn pcrel(&mut self, rt: u8, to: Label, lo: Lo) {
        self.items.push(Item::Pcrel { rt, to, lo });
    }

    pub fn align4(&mut self) {
        self.items.push(Item::Align4);
    }

    /// Load a 32-bit signed constant (`lui` + `addiw`, or `addi` when it fits).
    pub fn li32(&mut self, rd: u8, v: i32) {
        if fits(v as i64, 12) {
            self.w(addi(rd, 0, v));
        } else {
            let hi = ((v as i64 + 0x800) >> 12) as u32;
            let lo = v.wrapping_sub((hi << 12) as i32);
            self.w(lui(rd, hi));
            if lo != 0 {
                self.w(i_type(op::OP_IMM_32, 0, rd, rd, lo));
            }
        }
    }

    fn size(it: &Item, at: u64) -> u64 {
        match it {
            Item::W(_) => 4,
            Item::H(_) => 2,
            Item::Label(_) => 0,
            Item::Branch { c: true, .. } => 2,
            Item::Branch { far: true, .. } => 8,
            Item::Branch { .. } => 4,
            Item::Jal { c, .. } => {
                if *c {
                    2
                } else {
                    4
                }
            }
            Item::Pcrel { .. } => 8,
            Item::Align4 => at % 4,
        }
    }

    fn layout(&self) -> (Vec<u64>, Vec<u64>) {
        let mut labels = vec![u64::MAX; self.nlabels];
        let mut at = self.base;
        let mut addrs = Vec::with_capacity(self.items.len());
        for it in &self.items {
            addrs.push(at);
            if let Item::Label(l) = it {
                labels[l.0] = at;
            }
            at += Asm::size(it, at);
        }
        (addrs, labels)
    }

    /// Lay out and encode.
    pub fn finish(mut self) -> Code {
        // Relax until every form is in reach.
        let (addrs, labels) = loop {
            let (addrs, labels) = self.layout();
            let mut changed = false;
            for (i, it) in self.items.iter_mut().enumerate() {
                let at = addrs[i] as i64;
                match it {
                    Item::Branch { to, c, far, .. } => {
                        let off = labels[to.0] as i64 - at;
                        if *c && !fits(off, 9) {
                            *c = false;
                            changed = true;
                        } else if !*c && !*far && !fits(off, 13) {
                            *far = true;
                            changed = true;
                        }
                    }
                    Item::Jal { to, c, .. } => {
                        let off = labels[to.0] as i64 - at;
                        if *c && !fits(off, 12) {
                            *c = false;
                            changed = true;
                        }
                    }
                    _ => {}
                }
            }
            if !changed {
                break (addrs, labels);
            }
        };
        assert!(
            labels.iter().all(|&a| a != u64::MAX),
            "a label is not placed"
        );
        let mut bytes = Vec::new();
        let mut insns = Vec::new();
        for (i, it) in self.items.iter().enumerate() {
            let at = addrs[i];
            assert_eq!(self.base + bytes.len() as u64, at);
            match *it {
                Item::W(w) => put32(&mut bytes, &mut insns, at, w),
                Item::H(h) => put16(&mut bytes, &mut insns, at, h),
                Item::Label(_) => {}
                Item::Branch {
                    f3,
                    rs1,
                    rs2,
                    to,
                    c,
                    far,
                } => {
                    let off = labels[to.0] as i64 - at as i64;
                    if c {
                        put16(&mut bytes, &mut insns, at, c_bz(f3 == cond::NE, rs1, off));
                    } else if far {
                        // The inverse condition over a jal.
                        put32(&mut bytes, &mut insns, at, b_type(f3 ^ 1, rs1, rs2, 8));
                        put32(&mut bytes, &mut insns, at + 4, jal(0, off - 4));
                    } else {
                        put32(&mut bytes, &mut insns, at, b_type(f3, rs1, rs2, off));
                    }
                }
                Item::Jal { rd, to, c } => {
                    let off = labels[to.0] as i64 - at as i64;
                    if c {
                        put16(&mut bytes, &mut insns, at, c_j(off));
                    } else {
                        put32(&mut bytes, &mut insns, at, jal(rd, off));
                    }
                }
                Item::Pcrel { rt, to, lo } => {
                    let off = labels[to.0] as i64 - at as i64;
                    let hi = (off + 0x800) >> 12;
                    let low = (off - (hi << 12)) as i32;
                    put32(&mut bytes, &mut insns, at, auipc(rt, hi as u32));
                    let second = match lo {
                        Lo::Addi => addi(rt, rt, low),
                        Lo::Jalr(rd) => jalr(rd, rt, low),
                    };
                    put32(&mut bytes, &mut insns, at + 4, second);
                }
                Item::Align4 => {
                    if at % 4 != 0 {
                        put16(&mut bytes, &mut insns, at, C_NOP);
                    }
                }
            }
        }
        Code {
            base: self.base,
            bytes,
            labels,
            insns,
        }
    }
}
