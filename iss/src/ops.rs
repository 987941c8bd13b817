//! The instruction table: every operation the hart implements, in one list (`ops!`), with
//! everything the hart and its consumers know about it, as Spike's encoding table is the one
//! source of its instructions.
//!
//! Each row names the [`Op`] variant, its handler (a function of `exec`, bound into every
//! handler table), and its [`Facts`]:
//!
//! - the extension it belongs to ([`Ext`]), which the decode-time ISA filter reads
//!   ([`crate::isa::Isa::filter`]);
//! - the shape of its retirement record ([`Shape`]), which decides whether it runs chained in
//!   runs of simple instructions ([`crate::record::SHAPES`]);
//! - what it means for control flow and trace ([`Flow`]): the ingress port, the N-Trace
//!   decoder, CTR and the PMU classify transfers through [`crate::classify`], which applies
//!   the flow's rule to the operands (a jump's link registers);
//! - its PMU instruction class ([`PmuClass`]);
//! - where it sits in a decoded block ([`Block`]: the decoded-instruction cache ends a block
//!   after a transfer or an instruction that changes what the run loop looks at);
//! - for the atomics, what they do to memory ([`Atomic`]: the executor, the debugger's
//!   watchpoint look-ahead and the ingress port's data trace read it).
//!
//! Adding an instruction is one row here, its handler, its decoder pattern (`decode.rs`) and
//! its tests; `tests/ops_table.rs` checks that the columns agree with each other and with the
//! decoder.
//!
//! The facts are `const`: the hot paths read them through arrays built at compile time
//! (the handler tables, [`crate::record::SHAPES`]), never through a search.

use crate::exec::Handler;
use crate::isa::Ext;
use crate::record::Shape;

/// What an operation means for control flow (and so for every trace of it). The itype a
/// transfer gets from its operands is [`crate::classify::itype`]'s business, by N-Trace table
/// 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flow {
    /// Goes on to the next instruction, and means nothing else to a trace.
    Straight,
    /// `lui`: writes a constant to rd (a `jalr` through rd right after it is sequentially
    /// inferable).
    Constant,
    /// `auipc`: writes a pc-relative constant to rd (the same).
    PcRelative,
    /// A conditional branch: taken or not taken.
    Branch,
    /// `jal`: a direct jump, a call when rd is a link register.
    DirectJump,
    /// `jalr`: a jump through a register, classified by rd and rs1 being link registers.
    IndirectJump,
    /// `mret`, `sret`: a trap return.
    TrapReturn,
    /// `ecall`, `ebreak`: always raise an exception (ecall may be a firmware call the hart
    /// serves itself, which then retires).
    Trap,
    /// Not an operation the model implements (or the decode cache's empty slot): it raises
    /// illegal-instruction and cannot retire.
    Illegal,
}

impl Flow {
    /// Whether the operation can transfer control anywhere but its sequential successor, and
    /// so ends a run of straight-line instructions (traps aside).
    #[inline]
    pub const fn is_transfer(self) -> bool {
        matches!(
            self,
            Flow::Branch | Flow::DirectJump | Flow::IndirectJump | Flow::TrapReturn
        )
    }

    /// Whether the transfer's itype depends on the operands (jumps: their link registers).
    #[inline]
    pub const fn is_jump(self) -> bool {
        matches!(self, Flow::DirectJump | Flow::IndirectJump)
    }

    /// Whether the operation sets rd to a constant (`lui`, `auipc`).
    #[inline]
    pub const fn sets_constant(self) -> bool {
        matches!(self, Flow::Constant | Flow::PcRelative)
    }
}

/// An operation's PMU instruction class, the per-run classes counted from the decoded block
/// (docs/pmu.md). The discriminant is the class's index in `events.rs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum PmuClass {
    None = 0,
    /// Loads (integer and FP).
    Load = 1,
    /// Stores (integer and FP).
    Store = 2,
    /// LR, SC and the AMOs.
    Atomic = 3,
    /// FP operations other than loads and stores.
    Fp = 4,
}

/// Where an operation sits in the decoded-instruction cache's blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Block {
    /// Anywhere in a block.
    Inside,
    /// Ends its block: it may go anywhere but the next instruction, or it changes something
    /// the run loop must look at again (translation, the decode cache, WFI, privilege).
    Ends,
    /// Starts a block of its own and ends it: a CSR access, so that everything before it has
    /// been accounted for when it reads a counter (see `events.rs`).
    Alone,
    /// Starts a block of its own: SCTRCLR, which restarts CTR's cycle count.
    Starts,
}

impl Block {
    #[inline]
    pub const fn ends(self) -> bool {
        matches!(self, Block::Ends | Block::Alone)
    }

    #[inline]
    pub const fn starts(self) -> bool {
        matches!(self, Block::Alone | Block::Starts)
    }
}

/// What an atomic operation (the A extension) does to memory, and its access size in bytes
/// (4 for the `.w` forms, 8 for the `.d` ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Atomic {
    /// Not an atomic operation.
    No,
    /// Load-reserved.
    Lr(u8),
    /// Store-conditional.
    Sc(u8),
    /// A read-modify-write.
    Amo(u8, AmoOp),
}

impl Atomic {
    /// The access size in bytes (0 for `No`).
    #[inline]
    pub const fn size(self) -> u8 {
        match self {
            Atomic::No => 0,
            Atomic::Lr(n) | Atomic::Sc(n) | Atomic::Amo(n, _) => n,
        }
    }
}

/// The operation of an AMO.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AmoOp {
    Swap,
    Add,
    Xor,
    And,
    Or,
    Min,
    Max,
    Minu,
    Maxu,
}

/// Everything the hart knows about an operation beside its semantics (its handler) and its
/// encoding (the decoder).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    /// The operation's name in the table (the `Op` variant's).
    pub name: &'static str,
    pub ext: Ext,
    pub shape: Shape,
    pub flow: Flow,
    pub pmu: PmuClass,
    pub block: Block,
    /// What an atomic operation does (`Atomic::No` for the others).
    pub atomic: Atomic,
}

/// The one list of operations. Each row:
///
/// `Op => handler, extension, record shape, flow, PMU class, block[, atomic];`
///
/// (the atomic column only in the rows of atomic operations: `Lr(size)`, `Sc(size)`,
/// `Amo(size, operation)`).
///
/// and generates [`Op`], [`Op::ALL`], [`FACTS`] and the handler binding used by every handler
/// table (`exec`).
macro_rules! ops {
    (@atomic) => { Atomic::No };
    (@atomic Amo($n:literal, $o:ident)) => { Atomic::Amo($n, AmoOp::$o) };
    (@atomic $k:ident($n:literal)) => { Atomic::$k($n) };
    ($(
        $(#[$attr:meta])*
        $op:ident => $h:ident, $ext:ident, $shape:ident $(($n:literal))?, $flow:ident, $pmu:ident, $block:ident $(, $atomic:ident($($a:tt)*))?;
    )*) => {
        /// One operation of the hart. Compressed forms map onto these; `Illegal` is any
        /// encoding the model does not implement, which raises an illegal-instruction
        /// exception with `bits` in xtval.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Op {
            $( $(#[$attr])* $op, )*
        }

        impl Op {
            /// How many operations there are.
            pub const COUNT: usize = [$( stringify!($op), )*].len();
            /// Every operation, by discriminant.
            pub const ALL: [Op; Op::COUNT] = [$( Op::$op, )*];
        }

        /// Every operation's facts, by discriminant.
        pub const FACTS: [Facts; Op::COUNT] = [$(
            Facts {
                name: stringify!($op),
                ext: Ext::$ext,
                shape: Shape::$shape $(($n))?,
                flow: Flow::$flow,
                pmu: PmuClass::$pmu,
                block: Block::$block,
                atomic: ops!(@atomic $($atomic($($a)*))?),
            },
        )*];

        impl Op {
            /// The operation's [`Flow`] (its [`Facts::flow`], as a `match` the compiler
            /// can merge with the caller's own match on the flow: one jump on the operation,
            /// for the loops that classify every instruction, as the N-Trace decoder's walk
            /// does).
            #[inline(always)]
            pub const fn flow(self) -> Flow {
                match self {
                    $( Op::$op => Flow::$flow, )*
                }
            }
        }

        /// Put every operation's handler into a handler table of one mode.
        pub(crate) const fn bind_handlers<
            const REC: bool,
            const CTR: bool,
            const FX: bool,
            const I32: bool,
            const TR: bool,
        >(t: &mut [Handler; 256]) {
            $( t[Op::$op as usize] = crate::exec::$h::<REC, CTR, FX, I32, TR>; )*
        }
    };
}

ops! {
    /// Not a real operation: the decoded-instruction cache's "not decoded yet" marker (and
    /// a block's end marker).
    NotDecoded => end_of_block, I, Built, Illegal, None, Ends;
    Illegal => illegal, I, Built, Illegal, None, Ends;

    // RV64I
    Lui => lui, I, Rd, Constant, None, Inside;
    Auipc => auipc, I, Rd, PcRelative, None, Inside;
    Jal => jal, I, Rd, DirectJump, None, Ends;
    Jalr => jalr, I, Rd, IndirectJump, None, Ends;
    Beq => beq, I, Nothing, Branch, None, Ends;
    Bne => bne, I, Nothing, Branch, None, Ends;
    Blt => blt, I, Nothing, Branch, None, Ends;
    Bge => bge, I, Nothing, Branch, None, Ends;
    Bltu => bltu, I, Nothing, Branch, None, Ends;
    Bgeu => bgeu, I, Nothing, Branch, None, Ends;
    Lb => lb, I, Load(1), Straight, Load, Inside;
    Lh => lh, I, Load(2), Straight, Load, Inside;
    Lw => lw, I, Load(4), Straight, Load, Inside;
    Ld => ld, I, Load(8), Straight, Load, Inside;
    Lbu => lbu, I, Load(1), Straight, Load, Inside;
    Lhu => lhu, I, Load(2), Straight, Load, Inside;
    Lwu => lwu, I, Load(4), Straight, Load, Inside;
    Sb => sb, I, Store(1), Straight, Store, Inside;
    Sh => sh, I, Store(2), Straight, Store, Inside;
    Sw => sw, I, Store(4), Straight, Store, Inside;
    Sd => sd, I, Store(8), Straight, Store, Inside;
    Addi => addi, I, Rd, Straight, None, Inside;
    Slti => slti, I, Rd, Straight, None, Inside;
    Sltiu => sltiu, I, Rd, Straight, None, Inside;
    Xori => xori, I, Rd, Straight, None, Inside;
    Ori => ori, I, Rd, Straight, None, Inside;
    Andi => andi, I, Rd, Straight, None, Inside;
    Slli => slli, I, Rd, Straight, None, Inside;
    Srli => srli, I, Rd, Straight, None, Inside;
    Srai => srai, I, Rd, Straight, None, Inside;
    Add => add, I, Rd, Straight, None, Inside;
    Sub => sub, I, Rd, Straight, None, Inside;
    Sll => sll, I, Rd, Straight, None, Inside;
    Slt => slt, I, Rd, Straight, None, Inside;
    Sltu => sltu, I, Rd, Straight, None, Inside;
    Xor => xor, I, Rd, Straight, None, Inside;
    Srl => srl, I, Rd, Straight, None, Inside;
    Sra => sra, I, Rd, Straight, None, Inside;
    Or => or, I, Rd, Straight, None, Inside;
    And => and, I, Rd, Straight, None, Inside;
    Addiw => addiw, I, Rd, Straight, None, Inside;
    Slliw => slliw, I, Rd, Straight, None, Inside;
    Srliw => srliw, I, Rd, Straight, None, Inside;
    Sraiw => sraiw, I, Rd, Straight, None, Inside;
    Addw => addw, I, Rd, Straight, None, Inside;
    Subw => subw, I, Rd, Straight, None, Inside;
    Sllw => sllw, I, Rd, Straight, None, Inside;
    Srlw => srlw, I, Rd, Straight, None, Inside;
    Sraw => sraw, I, Rd, Straight, None, Inside;
    /// `fence` (including `fence.tso` and the `pause` hint; pred/succ/fm are in `bits`).
    Fence => fence, I, Nothing, Straight, None, Inside;
    Ecall => ecall, I, Built, Trap, None, Ends;
    Ebreak => ebreak, I, Built, Trap, None, Ends;

    // Zifencei
    FenceI => fence_i, Zifencei, Built, Straight, None, Ends;

    // Zicsr: the CSR number is in `imm` (0..4095); for the immediate forms the 5-bit uimm is
    // in `rs1`.
    Csrrw => csr, Zicsr, Built, Straight, None, Alone;
    Csrrs => csr, Zicsr, Built, Straight, None, Alone;
    Csrrc => csr, Zicsr, Built, Straight, None, Alone;
    Csrrwi => csr, Zicsr, Built, Straight, None, Alone;
    Csrrsi => csr, Zicsr, Built, Straight, None, Alone;
    Csrrci => csr, Zicsr, Built, Straight, None, Alone;

    // M
    Mul => mul, M, Rd, Straight, None, Inside;
    Mulh => mulh, M, Rd, Straight, None, Inside;
    Mulhsu => mulhsu, M, Rd, Straight, None, Inside;
    Mulhu => mulhu, M, Rd, Straight, None, Inside;
    Div => div_, M, Rd, Straight, None, Inside;
    Divu => divu, M, Rd, Straight, None, Inside;
    Rem => rem_, M, Rd, Straight, None, Inside;
    Remu => remu, M, Rd, Straight, None, Inside;
    Mulw => mulw, M, Rd, Straight, None, Inside;
    Divw => divw, M, Rd, Straight, None, Inside;
    Divuw => divuw, M, Rd, Straight, None, Inside;
    Remw => remw, M, Rd, Straight, None, Inside;
    Remuw => remuw, M, Rd, Straight, None, Inside;

    // A (aq/rl are in `rm`: bit 1 aq, bit 0 rl)
    LrW => atomic, A, Built, Straight, Atomic, Inside, Lr(4);
    ScW => atomic, A, Built, Straight, Atomic, Inside, Sc(4);
    AmoswapW => atomic, A, Built, Straight, Atomic, Inside, Amo(4, Swap);
    AmoaddW => atomic, A, Built, Straight, Atomic, Inside, Amo(4, Add);
    AmoxorW => atomic, A, Built, Straight, Atomic, Inside, Amo(4, Xor);
    AmoandW => atomic, A, Built, Straight, Atomic, Inside, Amo(4, And);
    AmoorW => atomic, A, Built, Straight, Atomic, Inside, Amo(4, Or);
    AmominW => atomic, A, Built, Straight, Atomic, Inside, Amo(4, Min);
    AmomaxW => atomic, A, Built, Straight, Atomic, Inside, Amo(4, Max);
    AmominuW => atomic, A, Built, Straight, Atomic, Inside, Amo(4, Minu);
    AmomaxuW => atomic, A, Built, Straight, Atomic, Inside, Amo(4, Maxu);
    LrD => atomic, A, Built, Straight, Atomic, Inside, Lr(8);
    ScD => atomic, A, Built, Straight, Atomic, Inside, Sc(8);
    AmoswapD => atomic, A, Built, Straight, Atomic, Inside, Amo(8, Swap);
    AmoaddD => atomic, A, Built, Straight, Atomic, Inside, Amo(8, Add);
    AmoxorD => atomic, A, Built, Straight, Atomic, Inside, Amo(8, Xor);
    AmoandD => atomic, A, Built, Straight, Atomic, Inside, Amo(8, And);
    AmoorD => atomic, A, Built, Straight, Atomic, Inside, Amo(8, Or);
    AmominD => atomic, A, Built, Straight, Atomic, Inside, Amo(8, Min);
    AmomaxD => atomic, A, Built, Straight, Atomic, Inside, Amo(8, Max);
    AmominuD => atomic, A, Built, Straight, Atomic, Inside, Amo(8, Minu);
    AmomaxuD => atomic, A, Built, Straight, Atomic, Inside, Amo(8, Maxu);

    // F (the rounding-mode field, where the instruction has one, is in `rm`)
    Flw => flw, F, FLoad(4), Straight, Load, Inside;
    Fsw => fsw, F, FStore(4), Straight, Store, Inside;
    FmaddS => fmadd_s, F, FpToF, Straight, Fp, Inside;
    FmsubS => fmsub_s, F, FpToF, Straight, Fp, Inside;
    FnmsubS => fnmsub_s, F, FpToF, Straight, Fp, Inside;
    FnmaddS => fnmadd_s, F, FpToF, Straight, Fp, Inside;
    FaddS => fadd_s, F, FpToF, Straight, Fp, Inside;
    FsubS => fsub_s, F, FpToF, Straight, Fp, Inside;
    FmulS => fmul_s, F, FpToF, Straight, Fp, Inside;
    FdivS => fdiv_s, F, FpToF, Straight, Fp, Inside;
    FsqrtS => fsqrt_s, F, FpToF, Straight, Fp, Inside;
    FsgnjS => fsgnj_s, F, FpToF, Straight, Fp, Inside;
    FsgnjnS => fsgnjn_s, F, FpToF, Straight, Fp, Inside;
    FsgnjxS => fsgnjx_s, F, FpToF, Straight, Fp, Inside;
    FminS => fmin_s, F, FpToF, Straight, Fp, Inside;
    FmaxS => fmax_s, F, FpToF, Straight, Fp, Inside;
    FcvtWS => fcvt_w_s, F, FpToX, Straight, Fp, Inside;
    FcvtWuS => fcvt_wu_s, F, FpToX, Straight, Fp, Inside;
    FcvtLS => fcvt_l_s, F, FpToX, Straight, Fp, Inside;
    FcvtLuS => fcvt_lu_s, F, FpToX, Straight, Fp, Inside;
    FmvXW => fmv_x_w, F, FpToX, Straight, Fp, Inside;
    FeqS => feq_s, F, FpToX, Straight, Fp, Inside;
    FltS => flt_s, F, FpToX, Straight, Fp, Inside;
    FleS => fle_s, F, FpToX, Straight, Fp, Inside;
    FclassS => fclass_s, F, FpToX, Straight, Fp, Inside;
    FcvtSW => fcvt_s_w, F, FpToF, Straight, Fp, Inside;
    FcvtSWu => fcvt_s_wu, F, FpToF, Straight, Fp, Inside;
    FcvtSL => fcvt_s_l, F, FpToF, Straight, Fp, Inside;
    FcvtSLu => fcvt_s_lu, F, FpToF, Straight, Fp, Inside;
    FmvWX => fmv_w_x, F, FpToF, Straight, Fp, Inside;

    // D
    Fld => fld, D, FLoad(8), Straight, Load, Inside;
    Fsd => fsd, D, FStore(8), Straight, Store, Inside;
    FmaddD => fmadd_d, D, FpToF, Straight, Fp, Inside;
    FmsubD => fmsub_d, D, FpToF, Straight, Fp, Inside;
    FnmsubD => fnmsub_d, D, FpToF, Straight, Fp, Inside;
    FnmaddD => fnmadd_d, D, FpToF, Straight, Fp, Inside;
    FaddD => fadd_d, D, FpToF, Straight, Fp, Inside;
    FsubD => fsub_d, D, FpToF, Straight, Fp, Inside;
    FmulD => fmul_d, D, FpToF, Straight, Fp, Inside;
    FdivD => fdiv_d, D, FpToF, Straight, Fp, Inside;
    FsqrtD => fsqrt_d, D, FpToF, Straight, Fp, Inside;
    FsgnjD => fsgnj_d, D, FpToF, Straight, Fp, Inside;
    FsgnjnD => fsgnjn_d, D, FpToF, Straight, Fp, Inside;
    FsgnjxD => fsgnjx_d, D, FpToF, Straight, Fp, Inside;
    FminD => fmin_d, D, FpToF, Straight, Fp, Inside;
    FmaxD => fmax_d, D, FpToF, Straight, Fp, Inside;
    FcvtSD => fcvt_s_d, D, FpToF, Straight, Fp, Inside;
    FcvtDS => fcvt_d_s, D, FpToF, Straight, Fp, Inside;
    FeqD => feq_d, D, FpToX, Straight, Fp, Inside;
    FltD => flt_d, D, FpToX, Straight, Fp, Inside;
    FleD => fle_d, D, FpToX, Straight, Fp, Inside;
    FclassD => fclass_d, D, FpToX, Straight, Fp, Inside;
    FcvtWD => fcvt_w_d, D, FpToX, Straight, Fp, Inside;
    FcvtWuD => fcvt_wu_d, D, FpToX, Straight, Fp, Inside;
    FcvtLD => fcvt_l_d, D, FpToX, Straight, Fp, Inside;
    FcvtLuD => fcvt_lu_d, D, FpToX, Straight, Fp, Inside;
    FmvXD => fmv_x_d, D, FpToX, Straight, Fp, Inside;
    FcvtDW => fcvt_d_w, D, FpToF, Straight, Fp, Inside;
    FcvtDWu => fcvt_d_wu, D, FpToF, Straight, Fp, Inside;
    FcvtDL => fcvt_d_l, D, FpToF, Straight, Fp, Inside;
    FcvtDLu => fcvt_d_lu, D, FpToF, Straight, Fp, Inside;
    FmvDX => fmv_d_x, D, FpToF, Straight, Fp, Inside;

    // Privileged
    Mret => mret, Priv, Built, TrapReturn, None, Ends;
    Sret => sret, Priv, Built, TrapReturn, None, Ends;
    Wfi => wfi, Priv, Built, Straight, None, Ends;
    SfenceVma => sfence_vma, Priv, Built, Straight, None, Ends;
    /// Smctr 1.0: clear the control transfer records (illegal without CTR 1.0).
    Sctrclr => sctrclr, Smctr, Built, Straight, None, Starts;

    // Zba (the shift amount of `slli.uw` is in `imm`)
    AddUw => add_uw, Zba, Rd, Straight, None, Inside;
    Sh1add => sh1add, Zba, Rd, Straight, None, Inside;
    Sh2add => sh2add, Zba, Rd, Straight, None, Inside;
    Sh3add => sh3add, Zba, Rd, Straight, None, Inside;
    Sh1addUw => sh1add_uw, Zba, Rd, Straight, None, Inside;
    Sh2addUw => sh2add_uw, Zba, Rd, Straight, None, Inside;
    Sh3addUw => sh3add_uw, Zba, Rd, Straight, None, Inside;
    SlliUw => slli_uw, Zba, Rd, Straight, None, Inside;

    // Zbb (unary operations read rs1 only; `rori`/`roriw` have the amount in `imm`)
    Andn => andn, Zbb, Rd, Straight, None, Inside;
    Orn => orn, Zbb, Rd, Straight, None, Inside;
    Xnor => xnor, Zbb, Rd, Straight, None, Inside;
    Clz => clz, Zbb, Rd, Straight, None, Inside;
    Clzw => clzw, Zbb, Rd, Straight, None, Inside;
    Ctz => ctz, Zbb, Rd, Straight, None, Inside;
    Ctzw => ctzw, Zbb, Rd, Straight, None, Inside;
    Cpop => cpop, Zbb, Rd, Straight, None, Inside;
    Cpopw => cpopw, Zbb, Rd, Straight, None, Inside;
    Max => max, Zbb, Rd, Straight, None, Inside;
    Maxu => maxu, Zbb, Rd, Straight, None, Inside;
    Min => min, Zbb, Rd, Straight, None, Inside;
    Minu => minu, Zbb, Rd, Straight, None, Inside;
    SextB => sext_b, Zbb, Rd, Straight, None, Inside;
    SextH => sext_h, Zbb, Rd, Straight, None, Inside;
    ZextH => zext_h, Zbb, Rd, Straight, None, Inside;
    Rol => rol, Zbb, Rd, Straight, None, Inside;
    Ror => ror, Zbb, Rd, Straight, None, Inside;
    Rolw => rolw, Zbb, Rd, Straight, None, Inside;
    Rorw => rorw, Zbb, Rd, Straight, None, Inside;
    Rori => rori, Zbb, Rd, Straight, None, Inside;
    Roriw => roriw, Zbb, Rd, Straight, None, Inside;
    OrcB => orc_b, Zbb, Rd, Straight, None, Inside;
    Rev8 => rev8, Zbb, Rd, Straight, None, Inside;

    // Zbs (the immediate forms have the bit number in `imm`)
    Bclr => bclr, Zbs, Rd, Straight, None, Inside;
    Bext => bext, Zbs, Rd, Straight, None, Inside;
    Binv => binv, Zbs, Rd, Straight, None, Inside;
    Bset => bset, Zbs, Rd, Straight, None, Inside;
    Bclri => bclri, Zbs, Rd, Straight, None, Inside;
    Bexti => bexti, Zbs, Rd, Straight, None, Inside;
    Binvi => binvi, Zbs, Rd, Straight, None, Inside;
    Bseti => bseti, Zbs, Rd, Straight, None, Inside;

    // Zicond
    CzeroEqz => czero_eqz, Zicond, Rd, Straight, None, Inside;
    CzeroNez => czero_nez, Zicond, Rd, Straight, None, Inside;

    // Zicbom, Zicboz (rs1 holds the address; see `exec::cbo`)
    CboClean => cbo_manage, Zicbom, Built, Straight, None, Inside;
    CboFlush => cbo_manage, Zicbom, Built, Straight, None, Inside;
    CboInval => cbo_manage, Zicbom, Built, Straight, None, Inside;
    CboZero => cbo_zero, Zicboz, Built, Straight, Store, Inside;

    // Zfa (F and D forms; `fli`'s index is in `rs1`)
    FliS => fli_s, Zfa, FpToF, Straight, Fp, Inside;
    FminmS => fminm_s, Zfa, FpToF, Straight, Fp, Inside;
    FmaxmS => fmaxm_s, Zfa, FpToF, Straight, Fp, Inside;
    FroundS => fround_s, Zfa, FpToF, Straight, Fp, Inside;
    FroundnxS => froundnx_s, Zfa, FpToF, Straight, Fp, Inside;
    FleqS => fleq_s, Zfa, FpToX, Straight, Fp, Inside;
    FltqS => fltq_s, Zfa, FpToX, Straight, Fp, Inside;
    FliD => fli_d, ZfaD, FpToF, Straight, Fp, Inside;
    FminmD => fminm_d, ZfaD, FpToF, Straight, Fp, Inside;
    FmaxmD => fmaxm_d, ZfaD, FpToF, Straight, Fp, Inside;
    FroundD => fround_d, ZfaD, FpToF, Straight, Fp, Inside;
    FroundnxD => froundnx_d, ZfaD, FpToF, Straight, Fp, Inside;
    FcvtmodWD => fcvtmod_w_d, ZfaD, FpToX, Straight, Fp, Inside;
    FleqD => fleq_d, ZfaD, FpToX, Straight, Fp, Inside;
    FltqD => fltq_d, ZfaD, FpToX, Straight, Fp, Inside;

    // Svinval: `sinval.vma` is SFENCE.VMA's invalidation (and its traps); the two fences
    // order it with the hart's memory accesses, which need nothing here (no privilege
    // trap in S and M).
    SinvalVma => sfence_vma, Svinval, Built, Straight, None, Ends;
    SfenceWInval => sfence_inval, Svinval, Built, Straight, None, Ends;
    SfenceInvalIr => sfence_inval, Svinval, Built, Straight, None, Ends;
}

impl Op {
    /// The last operation: discriminants run from 0 (`NotDecoded`) to this one.
    pub const LAST: Op = Op::ALL[Op::COUNT - 1];

    /// The operation with discriminant `v`, if there is one.
    #[inline]
    pub const fn from_u8(v: u8) -> Option<Op> {
        if (v as usize) < Op::COUNT {
            // SAFETY: `Op` is `repr(u8)` with implicit discriminants, so every value below
            // `COUNT` is a variant (asserted below: `ALL[i]` is `i`).
            Some(unsafe { core::mem::transmute::<u8, Op>(v) })
        } else {
            None
        }
    }

    /// The operation's facts (a look-up in [`FACTS`]).
    #[inline(always)]
    pub const fn facts(self) -> &'static Facts {
        const T: &[Facts; Op::COUNT] = &FACTS;
        &T[self as usize]
    }
}

// Every variant is in `ALL` at its discriminant, and there is room in the 256-entry handler
// tables.
const _: () = {
    assert!(Op::COUNT <= 256);
    let mut i = 0;
    while i < Op::COUNT {
        assert!(Op::ALL[i] as usize == i);
        i += 1;
    }
};
