//! The block compiler: native x86-64 code for the straight-line part of hot blocks.
//!
//! The threaded handlers (`exec`) pay, for every instruction, an indirect jump to the next
//! instruction's handler and a round trip through memory for every register operand: a value
//! one instruction writes, the next reads back from the register file. On code whose hot
//! part is small (coremark, an interpreter's loop) those two costs bound the speed. This
//! module compiles the run of instructions at the start of a block that it knows (RV64I's and
//! M's integer operations but `mulh*`, division and remainder; `lui`, `auipc`, loads and
//! stores; the block's conditional branch) into host code that keeps the guest registers it
//! touches in host registers, from the first use to the end of the run.
//!
//! The compiled code only ever does what the handlers' fast paths do, and gives every other
//! case back to them:
//! - A load or store checks alignment and the load or store TLB as `Machine::load_fast` and
//!   `Machine::store_fast` do (a store also the page's code mark). Where they would take the
//!   slow path, the code writes the registers it changed back and returns the instruction's
//!   index in the block: the run goes on in that instruction's handler, which makes the
//!   access (or raises its exception, or sees the code it overwrites) as without the
//!   compiler.
//! - The run ends before the first instruction it does not compile, which is at the latest
//!   the block's jump, branch or end marker. The code returns that instruction's index, and
//!   its handler goes on: chaining, CTR, the budget (`exec::Lim`, which counts by place in
//!   the block, not by instruction) are the handlers' as before.
//! - A conditional branch that ends the block, when the run reaches it, is compared in the
//!   compiled code, whose host branch on the result is the guest branch's own (the host
//!   predicts it by its address, as it would a native program's). The code returns the
//!   branch's index with whether it is taken ([`BRANCH`], [`TAKEN`]), and the branch's
//!   chaining goes on from there (`exec::branch_chain`), not evaluating it again.
//!
//! So nothing the run loop or a sink sees changes: the code retires the instructions it runs
//! in order, writes the registers and memory their handlers would, and stops where a handler
//! would have stopped the chain (a trap) or gone back to the run loop (a store to code).
//! Chains run compiled code (`exec::start_block`, from `exec::enter` and the run loop):
//! untraced ones, with CTR or not, those that leave a trail (the PMU counting instruction
//! classes, N-Trace capture), and simple runs (the commit log, the tandem writer), whose code
//! also writes each instruction's effect as the handlers' `Machine::wxe` and
//! `Machine::fx_access` do. Instructions run one at a time (full records) never do.
//!
//! A block is compiled when entered for the [`HOT`]th time; the code lives until the decode
//! cache's arena is reset, as its blocks do. A block whose run would be shorter than two
//! instructions is marked and never tried again. Code memory is mapped readable, writable and executable
//! ([`CodeMem`]); where the host refuses such a mapping the compiler is off.

use crate::insn::{Insn, Op};

/// In what compiled code returns: the instruction it stopped at is the block's conditional
/// branch, which it evaluated ([`TAKEN`] when taken); the index is in the low 32 bits.
pub(crate) const BRANCH: u64 = 1 << 32;
/// With [`BRANCH`]: the branch is taken.
pub(crate) const TAKEN: u64 = 1 << 33;

/// Entries of a block before it is compiled.
pub(crate) const HOT: usize = 16;
/// A block's native word ([`crate::dcache::DecodeCache::native`]) at or above this is its
/// code's address; below, the number of entries so far, or [`NEVER`].
pub(crate) const NATIVE_MIN: usize = 1 << 16;
/// A block that is not compiled: the run the compiler knows at its start is shorter than
/// two instructions (or the compiler is off).
pub(crate) const NEVER: usize = HOT;

/// Compiled code: `(x, tlb, bpc, effects, paddr) -> n`, given the hart's registers
/// (`HartState::x`), its TLB and the block's pc; for code compiled for simple runs (`fx`),
/// also where the effect of the block's first instruction goes (`Machine::effect`, the
/// next ones following it) and what makes a host address in RAM its physical address
/// (added); returns the index in the block of the first instruction it did not retire,
/// where the handlers go on.
pub(crate) type Native =
    unsafe extern "sysv64" fn(*mut u64, *const u8, u64, *mut crate::record::Effect, u64) -> u64;

/// The offsets in [`crate::mmu::Tlb`] the compiled fast paths read, as `Machine::load_fast`
/// and `Machine::store_fast` read them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TlbLayout {
    /// The generation (already in tag position).
    pub gen: i32,
    pub load_tag: i32,
    pub load_host: i32,
    pub store_tag: i32,
    pub store_host: i32,
    pub store_code: i32,
    /// Slots per table (a power of two).
    pub entries: u32,
}

// ---------------------------------------------------------------------------------------
// Code memory.

/// Executable memory for compiled code: chunks mapped once, filled in order.
pub(crate) struct CodeMem {
    /// Each [`CHUNK`] bytes long.
    chunks: Vec<*mut u8>,
    /// Bytes used in the last chunk.
    used: usize,
    /// A mapping was refused: compile nothing.
    broken: bool,
    /// Blocks compiled into it since it was made (resets included).
    blocks: u64,
}

// SAFETY: the chunks are private mappings this value owns; nothing else points into them
// but the decode cache's native words, which the machine owning both drops or resets with
// them.
unsafe impl Send for CodeMem {}

const CHUNK: usize = 1 << 20;

impl CodeMem {
    pub(crate) fn new() -> CodeMem {
        CodeMem {
            chunks: Vec::new(),
            used: CHUNK,
            broken: false,
            blocks: 0,
        }
    }

    /// Blocks compiled since it was made (resets included).
    pub(crate) fn blocks(&self) -> u64 {
        self.blocks
    }

    /// Copy `code` into executable memory; its address, or `None` when no memory could be
    /// mapped.
    fn put(&mut self, code: &[u8]) -> Option<usize> {
        if self.broken || code.len() > CHUNK {
            return None;
        }
        if self.used + code.len() > CHUNK {
            // SAFETY: an anonymous private mapping, owned by `self` until `reset` or drop.
            let p = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    CHUNK,
                    libc::PROT_READ | libc::PROT_WRITE | libc::PROT_EXEC,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                    -1,
                    0,
                )
            };
            if p == libc::MAP_FAILED {
                tracing::warn!("the block compiler is off: executable memory was refused");
                self.broken = true;
                return None;
            }
            self.chunks.push(p as *mut u8);
            self.used = 0;
        }
        let base = *self.chunks.last().expect("a chunk was mapped");
        // SAFETY: the chunk has `CHUNK - used >= code.len()` bytes left, writable.
        let at = unsafe { base.add(self.used) };
        unsafe { std::ptr::copy_nonoverlapping(code.as_ptr(), at, code.len()) };
        // Keep entries 16-byte aligned.
        self.used += code.len().next_multiple_of(16);
        self.blocks += 1;
        Some(at as usize)
    }

    /// Drop all code (the arena was reset: no native word points here any more).
    pub(crate) fn reset(&mut self) {
        for &p in &self.chunks {
            // SAFETY: mapped by `put`, unmapped once.
            unsafe { libc::munmap(p as *mut libc::c_void, CHUNK) };
        }
        self.chunks.clear();
        self.used = CHUNK;
    }
}

impl Drop for CodeMem {
    fn drop(&mut self) {
        self.reset();
    }
}

// ---------------------------------------------------------------------------------------
// An x86-64 encoder for the few instructions the compiler emits.

type R = u8;
const RAX: R = 0;
const RCX: R = 1;
/// The block's pc (the third argument).
const RDX: R = 2;
/// The fourth argument, the effects (moved to [`EFFECTS`]).
const RCX_ARG: R = 1;
const RBX: R = 3;
const RBP: R = 5;
/// The TLB (the second argument).
const RSI: R = 6;
/// The register file (the first argument).
const RDI: R = 7;
/// With `fx`: the fifth argument, what makes a host address physical.
const R8: R = 8;
/// With `fx`: the effect of the block's first instruction.
const EFFECTS: R = 11;

/// Guest values live in these, caller-saved first (a short block saves none).
const POOL: [R; 10] = [R8, R8 + 1, R8 + 2, R8 + 3, RBX, RBP, 12, 13, 14, 15];
/// With `fx`: [`POOL`] less r8 and [`EFFECTS`].
const FX_POOL: [R; 8] = [R8 + 1, R8 + 2, RBX, RBP, 12, 13, 14, 15];

fn callee_saved(r: R) -> bool {
    matches!(r, RBX | RBP | 12..=15)
}

// Condition codes.
const CC_B: u8 = 0x2;
const CC_AE: u8 = 0x3;
const CC_E: u8 = 0x4;
const CC_NE: u8 = 0x5;
const CC_L: u8 = 0xc;
const CC_GE: u8 = 0xd;

// Group-1 operations (`op r/m, r` opcodes; the `/digit` of 0x81 and 0x83 is `opcode >> 3`).
const ADD: u8 = 0x01;
const OR: u8 = 0x09;
const AND: u8 = 0x21;
const SUB: u8 = 0x29;
const XOR: u8 = 0x31;
const CMP: u8 = 0x39;

// Shifts (`/digit` of 0xc1 and 0xd3).
const SHL: u8 = 4;
const SHR: u8 = 5;
const SAR: u8 = 7;

#[derive(Default)]
struct Asm {
    b: Vec<u8>,
}

impl Asm {
    fn byte(&mut self, v: u8) {
        self.b.push(v);
    }

    fn i32(&mut self, v: i32) {
        self.b.extend_from_slice(&v.to_le_bytes());
    }

    /// A REX prefix for operand size `w` (64-bit), ModRM.reg `r`, SIB.index `x`, ModRM.rm or
    /// SIB.base `b`; left out when it would say nothing, unless `force` (byte registers
    /// sil, dil, bpl, spl).
    fn rex(&mut self, w: bool, r: R, x: R, b: R, force: bool) {
        let v = 0x40 | (w as u8) << 3 | (r >> 3) << 2 | (x >> 3) << 1 | (b >> 3);
        if v != 0x40 || force {
            self.byte(v);
        }
    }

    fn modrm(&mut self, md: u8, reg: R, rm: R) {
        self.byte(md << 6 | (reg & 7) << 3 | (rm & 7));
    }

    /// ModRM (and SIB, displacement) for `[base + disp]`.
    fn mem(&mut self, reg: R, base: R, disp: i32) {
        let (md, d8) = if disp == 0 && base & 7 != 5 {
            (0, None)
        } else if let Ok(d) = i8::try_from(disp) {
            (1, Some(d))
        } else {
            (2, None)
        };
        self.modrm(md, reg, base);
        if base & 7 == 4 {
            self.byte(0x24);
        }
        match (md, d8) {
            (1, Some(d)) => self.byte(d as u8),
            (2, _) => self.i32(disp),
            _ => {}
        }
    }

    /// ModRM and SIB for `[base + index * 8 + disp32]`.
    fn mem_idx8(&mut self, reg: R, base: R, index: R, disp: i32) {
        self.modrm(2, reg, 4);
        self.byte(3 << 6 | (index & 7) << 3 | (base & 7));
        self.i32(disp);
    }

    /// `op dst, src` (`op r/m, r` form), 64-bit or 32-bit.
    fn op_rr(&mut self, op: u8, w: bool, dst: R, src: R) {
        self.rex(w, src, 0, dst, false);
        self.byte(op);
        self.modrm(3, src, dst);
    }

    fn mov(&mut self, dst: R, src: R) {
        if dst != src {
            self.op_rr(0x89, true, dst, src);
        }
    }

    /// `op dst, imm` (group 1), 64-bit or 32-bit, the immediate sign-extended.
    fn op_ri(&mut self, op: u8, w: bool, dst: R, imm: i32) {
        self.rex(w, 0, 0, dst, false);
        if let Ok(i) = i8::try_from(imm) {
            self.byte(0x83);
            self.modrm(3, op >> 3, dst);
            self.byte(i as u8);
        } else {
            self.byte(0x81);
            self.modrm(3, op >> 3, dst);
            self.i32(imm);
        }
    }

    /// `mov dst, imm` sign-extended to 64 bits.
    fn mov_ri(&mut self, dst: R, imm: i32) {
        if imm == 0 {
            // xor r32, r32 (zero-extends).
            self.op_rr(XOR, false, dst, dst);
            return;
        }
        self.rex(true, 0, 0, dst, false);
        self.byte(0xc7);
        self.modrm(3, 0, dst);
        self.i32(imm);
    }

    /// `mov dst, [base + disp]`, 64-bit.
    fn load(&mut self, dst: R, base: R, disp: i32) {
        self.rex(true, dst, 0, base, false);
        self.byte(0x8b);
        self.mem(dst, base, disp);
    }

    /// `mov [base + disp], src`, 64-bit.
    fn store(&mut self, base: R, disp: i32, src: R) {
        self.rex(true, src, 0, base, false);
        self.byte(0x89);
        self.mem(src, base, disp);
    }

    /// `lea dst, [base + disp]`.
    fn lea(&mut self, dst: R, base: R, disp: i32) {
        self.rex(true, dst, 0, base, false);
        self.byte(0x8d);
        self.mem(dst, base, disp);
    }

    /// `shift dst, imm`, 64-bit or 32-bit.
    fn shift_ri(&mut self, sh: u8, w: bool, dst: R, imm: u8) {
        self.rex(w, 0, 0, dst, false);
        self.byte(0xc1);
        self.modrm(3, sh, dst);
        self.byte(imm);
    }

    /// `shift dst, cl`, 64-bit or 32-bit.
    fn shift_cl(&mut self, sh: u8, w: bool, dst: R) {
        self.rex(w, 0, 0, dst, false);
        self.byte(0xd3);
        self.modrm(3, sh, dst);
    }

    /// `imul dst, src`, 64-bit.
    fn imul(&mut self, dst: R, src: R) {
        self.rex(true, dst, 0, src, false);
        self.b.extend_from_slice(&[0x0f, 0xaf]);
        self.modrm(3, dst, src);
    }

    /// `movsxd dst, src32`.
    fn movsxd(&mut self, dst: R, src: R) {
        self.rex(true, dst, 0, src, false);
        self.byte(0x63);
        self.modrm(3, dst, src);
    }

    /// `setcc al; movzx eax, al`, the flags' condition `cc` as 0 or 1 in rax.
    fn setcc_rax(&mut self, cc: u8) {
        self.b
            .extend_from_slice(&[0x0f, 0x90 | cc, 0xc0, 0x0f, 0xb6, 0xc0]);
    }

    /// `test al, imm8`.
    fn test_al(&mut self, imm: u8) {
        self.b.extend_from_slice(&[0xa8, imm]);
    }

    /// `jcc rel32` to be patched: returns the place of its displacement.
    fn jcc(&mut self, cc: u8) -> usize {
        self.b.extend_from_slice(&[0x0f, 0x80 | cc]);
        self.i32(0);
        self.b.len() - 4
    }

    /// Point the jump whose displacement is at `at` here.
    fn patch_here(&mut self, at: usize) {
        let rel = (self.b.len() - (at + 4)) as i32;
        self.b[at..at + 4].copy_from_slice(&rel.to_le_bytes());
    }

    fn push(&mut self, r: R) {
        self.rex(false, 0, 0, r, false);
        self.byte(0x50 | (r & 7));
    }

    fn pop(&mut self, r: R) {
        self.rex(false, 0, 0, r, false);
        self.byte(0x58 | (r & 7));
    }
}

// ---------------------------------------------------------------------------------------
// The compiler.

/// How an operation compiles.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// `x[rd] = x[rs1] op x[rs2]` (`w`: on the low 32 bits, the result sign-extended).
    Rr(Alu, bool),
    /// `x[rd] = x[rs1] op imm`.
    Ri(Alu, bool),
    Lui,
    Auipc,
    /// A load of `size` bytes, sign-extended or not.
    Load(u8, bool),
    /// A store of `size` bytes.
    Store(u8),
    /// The block's conditional branch, taken when the comparison of `x[rs1]` with `x[rs2]`
    /// gives this condition code: the code returns with [`BRANCH`], and [`TAKEN`] or not.
    Branch(u8),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Alu {
    Add,
    Sub,
    And,
    Or,
    Xor,
    Sll,
    Srl,
    Sra,
    Slt,
    Sltu,
    Mul,
}

fn kind(op: Op) -> Option<Kind> {
    use Alu::*;
    use Kind::*;
    Some(match op {
        Op::Add => Rr(Add, false),
        Op::Sub => Rr(Sub, false),
        Op::And => Rr(And, false),
        Op::Or => Rr(Or, false),
        Op::Xor => Rr(Xor, false),
        Op::Sll => Rr(Sll, false),
        Op::Srl => Rr(Srl, false),
        Op::Sra => Rr(Sra, false),
        Op::Slt => Rr(Slt, false),
        Op::Sltu => Rr(Sltu, false),
        Op::Mul => Rr(Mul, false),
        Op::Addw => Rr(Add, true),
        Op::Subw => Rr(Sub, true),
        Op::Sllw => Rr(Sll, true),
        Op::Srlw => Rr(Srl, true),
        Op::Sraw => Rr(Sra, true),
        Op::Mulw => Rr(Mul, true),
        Op::Addi => Ri(Add, false),
        Op::Andi => Ri(And, false),
        Op::Ori => Ri(Or, false),
        Op::Xori => Ri(Xor, false),
        Op::Slli => Ri(Sll, false),
        Op::Srli => Ri(Srl, false),
        Op::Srai => Ri(Sra, false),
        Op::Slti => Ri(Slt, false),
        Op::Sltiu => Ri(Sltu, false),
        Op::Addiw => Ri(Add, true),
        Op::Slliw => Ri(Sll, true),
        Op::Srliw => Ri(Srl, true),
        Op::Sraiw => Ri(Sra, true),
        Op::Lui => Lui,
        Op::Auipc => Auipc,
        Op::Lb => Load(1, true),
        Op::Lh => Load(2, true),
        Op::Lw => Load(4, true),
        Op::Ld => Load(8, false),
        Op::Lbu => Load(1, false),
        Op::Lhu => Load(2, false),
        Op::Lwu => Load(4, false),
        Op::Sb => Store(1),
        Op::Sh => Store(2),
        Op::Sw => Store(4),
        Op::Sd => Store(8),
        _ => return None,
    })
}

/// The guest registers an instruction of kind `k` reads.
fn reads(k: Kind, d: &Insn) -> [Option<u8>; 2] {
    match k {
        Kind::Rr(..) | Kind::Store(_) => [Some(d.rs1), Some(d.rs2)],
        Kind::Ri(..) | Kind::Load(..) => [Some(d.rs1), None],
        Kind::Lui | Kind::Auipc => [None, None],
        Kind::Branch(_) => [Some(d.rs1), Some(d.rs2)],
    }
}

/// Which guest register each host register of the pool holds, and whether it was written.
struct Regs {
    /// Per guest register: its host register.
    host: [Option<R>; 32],
    /// Per host register: its guest register.
    guest: [Option<u8>; 16],
    dirty: [bool; 32],
    /// Host registers the code used (the callee-saved ones are saved and restored).
    used: u16,
}

/// A place the code leaves the block early: the jump there, and the guest registers to
/// write back (those written so far, with their host registers).
struct Exit {
    jump: usize,
    index: u32,
    writeback: Vec<(u8, R)>,
}

struct Compiler<'a> {
    asm: Asm,
    regs: Regs,
    exits: Vec<Exit>,
    run: &'a [(Insn, Kind)],
    tlb: TlbLayout,
    /// For simple runs: leave each instruction's effect.
    fx: bool,
    /// The host registers guest values live in.
    pool: &'static [R],
}

impl Compiler<'_> {
    /// The host register holding guest register `g` at instruction `i`, loaded if needed;
    /// `keep` may not be evicted.
    fn get(&mut self, g: u8, i: usize, keep: &[R]) -> R {
        if let Some(h) = self.regs.host[g as usize] {
            return h;
        }
        let h = self.free(i, keep);
        self.asm.load(h, RDI, 8 * g as i32);
        self.bind(g, h);
        h
    }

    /// The host register guest register `g` is written to at instruction `i` (its value
    /// after it, not loaded: the instruction's operands are no longer needed), marked
    /// written.
    fn def(&mut self, g: u8, i: usize) -> R {
        let h = match self.regs.host[g as usize] {
            Some(h) => h,
            None => {
                let h = self.free(i, &[]);
                self.bind(g, h);
                h
            }
        };
        self.regs.dirty[g as usize] = true;
        h
    }

    fn bind(&mut self, g: u8, h: R) {
        self.regs.host[g as usize] = Some(h);
        self.regs.guest[h as usize] = Some(g);
        self.regs.used |= 1 << h;
    }

    /// A host register of the pool with nothing in it: an unused one, or the one whose guest
    /// register is read again last (or never) after instruction `i`, written back if needed.
    fn free(&mut self, i: usize, keep: &[R]) -> R {
        if let Some(&h) = self
            .pool
            .iter()
            .find(|&&h| self.regs.guest[h as usize].is_none())
        {
            return h;
        }
        let next_use = |g: u8| {
            self.run[i..]
                .iter()
                .position(|(d, k)| reads(*k, d).contains(&Some(g)))
                .unwrap_or(usize::MAX)
        };
        let h = *self
            .pool
            .iter()
            .filter(|h| !keep.contains(h))
            .max_by_key(|&&h| next_use(self.regs.guest[h as usize].expect("bound")))
            .expect("the pool outnumbers an instruction's operands");
        let g = self.regs.guest[h as usize].take().expect("bound");
        if std::mem::take(&mut self.regs.dirty[g as usize]) {
            self.asm.store(RDI, 8 * g as i32, h);
        }
        self.regs.host[g as usize] = None;
        h
    }

    /// The guest registers written so far, with their host registers.
    fn written(&self) -> Vec<(u8, R)> {
        (0..32u8)
            .filter(|&g| self.regs.dirty[g as usize])
            .map(|g| {
                (
                    g,
                    self.regs.host[g as usize].expect("a written register is bound"),
                )
            })
            .collect()
    }

    /// Leave the block before instruction `i` when the flags say `cc`.
    fn exit_if(&mut self, cc: u8, i: usize) {
        let jump = self.asm.jcc(cc);
        self.exits.push(Exit {
            jump,
            index: i as u32,
            writeback: self.written(),
        });
    }

    /// Compute in rax the host address of a `size`-byte access of instruction `i` at
    /// `x[rs1] + imm` (`base` holds `x[rs1]`) through the load TLB, or the store TLB for a
    /// `store` (whose page must hold no decoded code too), or leave the block there.
    fn access(&mut self, i: usize, base: R, imm: i32, size: u8, store: bool) {
        let t = self.tlb;
        let (tag, host) = if store {
            (t.store_tag, t.store_host)
        } else {
            (t.load_tag, t.load_host)
        };
        let a = &mut self.asm;
        if size > 1 {
            a.lea(RAX, base, imm);
            a.test_al(size - 1);
            self.exit_if(CC_NE, i);
        }
        let a = &mut self.asm;
        // rax = va >> 12; rcx = its slot; rax = the tag (with the generation).
        a.lea(RAX, base, imm);
        a.shift_ri(SHR, true, RAX, 12);
        a.op_rr(0x89, false, RCX, RAX); // mov ecx, eax
        a.op_ri(AND, false, RCX, (self.tlb.entries - 1) as i32);
        a.rex(true, RAX, 0, RSI, false);
        a.byte(0x0b); // or rax, [rsi + gen]
        a.mem(RAX, RSI, self.tlb.gen);
        a.rex(true, RAX, RCX, RSI, false);
        a.byte(0x3b); // cmp rax, [rsi + rcx * 8 + tag]
        a.mem_idx8(RAX, RSI, RCX, tag);
        self.exit_if(CC_NE, i);
        let a = &mut self.asm;
        if store {
            a.rex(true, 0, RCX, RSI, false);
            a.byte(0x83); // cmp qword [rsi + rcx * 8 + store_code], 0
            a.mem_idx8(7, RSI, RCX, self.tlb.store_code);
            a.byte(0);
            self.exit_if(CC_NE, i);
        }
        let a = &mut self.asm;
        a.lea(RAX, base, imm);
        a.rex(true, RAX, RCX, RSI, false);
        a.byte(0x03); // add rax, [rsi + rcx * 8 + host]
        a.mem_idx8(RAX, RSI, RCX, host);
    }

    /// With `fx`: store `r` as field `field` (a byte offset) of instruction `i`'s effect.
    fn effect(&mut self, i: usize, field: usize, r: R) {
        if self.fx {
            let off = i * std::mem::size_of::<crate::record::Effect>() + field;
            self.asm.store(EFFECTS, off as i32, r);
        }
    }

    /// Compile instruction `i`.
    fn insn(&mut self, i: usize) {
        use crate::record::Effect;
        use std::mem::offset_of;
        let (d, k) = self.run[i];
        // Whether rd is written (not x0). With `fx` the value goes to the effect whatever
        // rd is, as the handlers' `wxe` leaves it.
        let w = d.wd != 32;
        let value = offset_of!(Effect, value);
        match k {
            Kind::Rr(op, w32) => {
                if !w && !self.fx {
                    return;
                }
                let a = self.get(d.rs1, i, &[]);
                let b = self.get(d.rs2, i, &[a]);
                let s = &mut self.asm;
                match op {
                    Alu::Slt | Alu::Sltu => {
                        s.op_rr(XOR, false, RAX, RAX);
                        s.op_rr(CMP, true, a, b);
                        s.setcc_rax(if op == Alu::Slt { CC_L } else { CC_B });
                    }
                    Alu::Sll | Alu::Srl | Alu::Sra => {
                        s.mov(RAX, a);
                        s.mov(RCX, b);
                        let sh = [SHL, SHR, SAR][(op as usize) - (Alu::Sll as usize)];
                        s.shift_cl(sh, !w32, RAX);
                    }
                    Alu::Mul => {
                        s.mov(RAX, a);
                        s.imul(RAX, b);
                    }
                    _ => {
                        s.mov(RAX, a);
                        s.op_rr(group1(op), true, RAX, b);
                    }
                }
                if w32 {
                    s.movsxd(RAX, RAX);
                }
                self.result(i, d, RAX);
            }
            Kind::Ri(op, w32) => {
                if !w && !self.fx {
                    return;
                }
                let a = self.get(d.rs1, i, &[]);
                let s = &mut self.asm;
                match op {
                    Alu::Slt | Alu::Sltu => {
                        s.op_rr(XOR, false, RAX, RAX);
                        s.op_ri(CMP, true, a, d.imm);
                        s.setcc_rax(if op == Alu::Slt { CC_L } else { CC_B });
                    }
                    Alu::Sll | Alu::Srl | Alu::Sra => {
                        s.mov(RAX, a);
                        let sh = [SHL, SHR, SAR][(op as usize) - (Alu::Sll as usize)];
                        let mask = if w32 { 31 } else { 63 };
                        s.shift_ri(sh, !w32, RAX, (d.imm & mask) as u8);
                    }
                    Alu::Add => s.lea(RAX, a, d.imm),
                    _ => {
                        s.mov(RAX, a);
                        s.op_ri(group1(op), true, RAX, d.imm);
                    }
                }
                if w32 {
                    s.movsxd(RAX, RAX);
                }
                self.result(i, d, RAX);
            }
            Kind::Lui => {
                self.asm.mov_ri(RAX, d.imm);
                self.result(i, d, RAX);
            }
            Kind::Auipc => {
                // The pc is the block's plus the instruction's offset in it (at most 126
                // bytes: no overflow of the 32-bit displacement).
                let disp = d.imm.wrapping_add(d.insn_off() as i32);
                self.asm.lea(RAX, RDX, disp);
                self.result(i, d, RAX);
            }
            Kind::Load(size, signed) => {
                let base = self.get(d.rs1, i, &[]);
                self.access(i, base, d.imm, size, false);
                self.access_effect(i, base, d.imm);
                // The value goes to rd's host register, or to rcx for x0.
                let h = if w { self.def(d.wd, i) } else { RCX };
                let s = &mut self.asm;
                if self.fx {
                    // The value loaded, zero-extended, for the effect; then extended into h.
                    load_from_rax(s, RCX, size, false);
                    let off = i * std::mem::size_of::<Effect>() + offset_of!(Effect, mem_value);
                    s.store(EFFECTS, off as i32, RCX);
                    extend(s, h, RCX, size, signed);
                    self.effect(i, value, h);
                } else {
                    load_from_rax(s, h, size, signed);
                }
            }
            Kind::Store(size) => {
                let base = self.get(d.rs1, i, &[]);
                let v = self.get(d.rs2, i, &[base]);
                self.access(i, base, d.imm, size, true);
                self.access_effect(i, base, d.imm);
                if self.fx {
                    // The bytes stored, zero-extended.
                    extend(&mut self.asm, RCX, v, size, false);
                    self.effect(i, offset_of!(Effect, mem_value), RCX);
                }
                let s = &mut self.asm;
                if size == 2 {
                    s.byte(0x66);
                }
                s.rex(size == 8, v, 0, RAX, size == 1);
                s.byte(if size == 1 { 0x88 } else { 0x89 });
                s.mem(v, RAX, 0);
            }
            Kind::Branch(_) => {
                // The last of the run: compare; the end (`compile`) branches on the flags,
                // which writing the registers back and restoring the saved ones keep.
                let a = self.get(d.rs1, i, &[]);
                let b = self.get(d.rs2, i, &[a]);
                self.asm.op_rr(CMP, true, a, b);
            }
        }
    }

    /// Instruction `i` (`d`) produced `r` (not a pool register): write it to rd (unless x0)
    /// and, with `fx`, to its effect.
    fn result(&mut self, i: usize, d: Insn, r: R) {
        self.effect(i, std::mem::offset_of!(crate::record::Effect, value), r);
        if d.wd != 32 {
            let h = self.def(d.wd, i);
            self.asm.mov(h, r);
        }
    }

    /// With `fx`, for the access of instruction `i` at `x[rs1] + imm` (`base` holds
    /// `x[rs1]`) whose host address is in rax: its virtual and physical addresses into its
    /// effect (rcx is used).
    fn access_effect(&mut self, i: usize, base: R, imm: i32) {
        use crate::record::Effect;
        use std::mem::offset_of;
        if !self.fx {
            return;
        }
        self.asm.lea(RCX, base, imm);
        self.effect(i, offset_of!(Effect, vaddr), RCX);
        // lea rcx, [rax + r8]
        let a = &mut self.asm;
        a.rex(true, RCX, R8, RAX, false);
        a.byte(0x8d);
        a.modrm(0, RCX, 4);
        a.byte((R8 & 7) << 3 | RAX);
        self.effect(i, offset_of!(Effect, paddr), RCX);
    }

    /// Write every written register back.
    fn write_back(asm: &mut Asm, regs: &[(u8, R)]) {
        for &(g, h) in regs {
            asm.store(RDI, 8 * g as i32, h);
        }
    }

    /// Leave the code: write `regs` back, restore the `saved` registers and return `n`,
    /// leaving the flags alone until the return.
    fn leave(asm: &mut Asm, regs: &[(u8, R)], saved: &[R], n: u64) {
        Compiler::write_back(asm, regs);
        for &r in saved.iter().rev() {
            asm.pop(r);
        }
        if let Ok(n) = u32::try_from(n) {
            asm.byte(0xb8); // mov eax, imm32 (zero-extends)
            asm.i32(n as i32);
        } else {
            asm.rex(true, 0, 0, RAX, false);
            asm.byte(0xb8); // mov rax, imm64
            asm.b.extend_from_slice(&n.to_le_bytes());
        }
        asm.byte(0xc3);
    }
}

/// `dst = [rax]`, `size` bytes, sign- or zero-extended to 64 bits.
fn load_from_rax(s: &mut Asm, dst: R, size: u8, signed: bool) {
    match (size, signed) {
        (8, _) => s.load(dst, RAX, 0),
        (4, true) => {
            s.rex(true, dst, 0, RAX, false);
            s.byte(0x63); // movsxd dst, dword [rax]
            s.mem(dst, RAX, 0);
        }
        (4, false) => {
            s.rex(false, dst, 0, RAX, false);
            s.byte(0x8b); // mov dst32, [rax]
            s.mem(dst, RAX, 0);
        }
        (2 | 1, _) => {
            s.rex(signed, dst, 0, RAX, false);
            s.b.extend_from_slice(&[0x0f, movx(size, signed)]);
            s.mem(dst, RAX, 0);
        }
        _ => unreachable!("an access of {size} bytes"),
    }
}

/// `dst = src`'s low `size` bytes, sign- or zero-extended to 64 bits.
fn extend(s: &mut Asm, dst: R, src: R, size: u8, signed: bool) {
    match (size, signed) {
        (8, _) => s.mov(dst, src),
        (4, true) => s.movsxd(dst, src),
        (4, false) => s.op_rr(0x89, false, dst, src), // mov dst32, src32
        (2 | 1, _) => {
            // movsx/movzx dst, src16 or src8 (a REX for sil, dil, bpl)
            s.rex(signed, dst, 0, src, size == 1);
            s.b.extend_from_slice(&[0x0f, movx(size, signed)]);
            s.modrm(3, dst, src);
        }
        _ => unreachable!("an access of {size} bytes"),
    }
}

/// The second opcode byte of movsx/movzx from a word or a byte.
fn movx(size: u8, signed: bool) -> u8 {
    match (size, signed) {
        (2, true) => 0xbf,
        (2, false) => 0xb7,
        (_, true) => 0xbe,
        _ => 0xb6,
    }
}

fn group1(op: Alu) -> u8 {
    match op {
        Alu::Add => ADD,
        Alu::Sub => SUB,
        Alu::And => AND,
        Alu::Or => OR,
        Alu::Xor => XOR,
        _ => unreachable!("{op:?} is not a group-1 operation"),
    }
}

/// The instructions at the start of `block` (up to its end marker) that the compiler knows,
/// with how each compiles.
fn compiled_run(block: &[Insn]) -> Vec<(Insn, Kind)> {
    let mut run: Vec<_> = block
        .iter()
        .map_while(|d| kind(d.op).map(|k| (*d, k)))
        .collect();
    // The block's branch, when the run reaches it.
    if let Some(cc) = block.get(run.len()).and_then(|d| branch_cc(d.op)) {
        run.push((block[run.len()], Kind::Branch(cc)));
    }
    run
}

/// The condition code under which a conditional branch `op` is taken, after
/// `cmp x[rs1], x[rs2]`.
fn branch_cc(op: Op) -> Option<u8> {
    Some(match op {
        Op::Beq => CC_E,
        Op::Bne => CC_NE,
        Op::Blt => CC_L,
        Op::Bge => CC_GE,
        Op::Bltu => CC_B,
        Op::Bgeu => CC_AE,
        _ => return None,
    })
}

/// Compile the run at the start of `block` (its instructions up to the end marker, or more),
/// `fx`: leaving each instruction's effect (for simple runs): the machine code; `None` when
/// it would cover fewer than two instructions.
pub(crate) fn compile(block: &[Insn], tlb: TlbLayout, fx: bool) -> Option<Vec<u8>> {
    let run = compiled_run(block);
    if run.len() < 2 {
        return None;
    }
    let mut c = Compiler {
        asm: Asm::default(),
        regs: Regs {
            host: [None; 32],
            guest: [None; 16],
            dirty: [false; 32],
            used: 0,
        },
        exits: Vec::new(),
        run: &run,
        tlb,
        fx,
        pool: if fx { &FX_POOL } else { &POOL },
    };
    for i in 0..run.len() {
        c.insn(i);
    }
    let saved: Vec<R> = POOL
        .iter()
        .copied()
        .filter(|&r| callee_saved(r) && c.regs.used & 1 << r != 0)
        .collect();
    let end = c.written();
    match run.last() {
        Some(&(_, Kind::Branch(cc))) => {
            // The flags are the branch's comparison (`Compiler::insn`): a host branch of its
            // own for each guest branch, so that the host predicts each one by its address.
            let n = (run.len() - 1) as u64 | BRANCH;
            let taken = c.asm.jcc(cc);
            Compiler::leave(&mut c.asm, &end, &saved, n);
            c.asm.patch_here(taken);
            Compiler::leave(&mut c.asm, &end, &saved, n | TAKEN);
        }
        _ => Compiler::leave(&mut c.asm, &end, &saved, run.len() as u64),
    }
    for e in std::mem::take(&mut c.exits) {
        c.asm.patch_here(e.jump);
        Compiler::leave(&mut c.asm, &e.writeback, &saved, e.index as u64);
    }
    let mut code = Asm::default();
    for &r in &saved {
        code.push(r);
    }
    if fx {
        code.mov(EFFECTS, RCX_ARG);
    }
    code.b.extend_from_slice(&c.asm.b);
    Some(code.b)
}

/// Compile `block` into `mem` (`fx`: for simple runs): the code's address, or [`NEVER`].
pub(crate) fn install(mem: &mut CodeMem, block: &[Insn], tlb: TlbLayout, fx: bool) -> usize {
    if !cfg!(target_arch = "x86_64") {
        return NEVER;
    }
    match compile(block, tlb, fx) {
        Some(code) => mem.put(&code).unwrap_or(NEVER),
        None => NEVER,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings_match_the_manual() {
        let mut a = Asm::default();
        a.load(R8, RDI, 8 * 10); // mov r8, [rdi + 80]
        assert_eq!(a.b, [0x4c, 0x8b, 0x47, 0x50]);
        let mut a = Asm::default();
        a.store(RDI, 8 * 31, 15); // mov [rdi + 248], r15
        assert_eq!(a.b, [0x4c, 0x89, 0xbf, 0xf8, 0, 0, 0]);
        let mut a = Asm::default();
        a.op_rr(ADD, true, RAX, 12); // add rax, r12
        assert_eq!(a.b, [0x4c, 0x01, 0xe0]);
        let mut a = Asm::default();
        a.lea(RAX, RBP, -1); // lea rax, [rbp - 1]
        assert_eq!(a.b, [0x48, 0x8d, 0x45, 0xff]);
        let mut a = Asm::default();
        a.lea(RAX, 13, 0); // lea rax, [r13 + 0]
        assert_eq!(a.b, [0x49, 0x8d, 0x45, 0x00]);
        let mut a = Asm::default();
        a.lea(RAX, 12, 0); // lea rax, [r12]
        assert_eq!(a.b, [0x49, 0x8d, 0x04, 0x24]);
        let mut a = Asm::default();
        a.shift_cl(SAR, false, RAX); // sar eax, cl
        assert_eq!(a.b, [0xd3, 0xf8]);
        let mut a = Asm::default();
        a.imul(RAX, R8 + 1); // imul rax, r9
        assert_eq!(a.b, [0x49, 0x0f, 0xaf, 0xc1]);
        let mut a = Asm::default();
        a.push(12);
        a.pop(RBX);
        assert_eq!(a.b, [0x41, 0x54, 0x5b]);
        let mut a = Asm::default();
        a.op_ri(AND, false, RCX, 255); // and ecx, 255
        assert_eq!(a.b, [0x81, 0xe1, 0xff, 0, 0, 0]);
        let mut a = Asm::default();
        a.mov_ri(R8, -5); // mov r8, -5
        assert_eq!(a.b, [0x49, 0xc7, 0xc0, 0xfb, 0xff, 0xff, 0xff]);
    }
}
