//! RISC-V architectural vocabulary, defined once for every hartscope crate.
//!
//! Privilege levels and trap causes follow the RISC-V privileged specification 1.12 (mcause
//! encodings, table 3.6). The ingress port additionally uses privilege 4 for Debug mode (E-Trace
//! `priv` field), which is why [`Priv::Debug`] exists here although the hart never runs in it.

use std::fmt;

/// A privilege level, with the E-Trace / mstatus.MPP encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Priv {
    U = 0,
    S = 1,
    M = 3,
    /// Debug mode: only ever reported on the ingress port (`priv` = 4).
    Debug = 4,
}

impl Priv {
    /// Decode a 2-bit privilege field (mstatus.MPP, ...). The reserved value 2 maps to `None`.
    #[inline]
    pub fn from_bits(v: u64) -> Option<Priv> {
        match v {
            0 => Some(Priv::U),
            1 => Some(Priv::S),
            3 => Some(Priv::M),
            _ => None,
        }
    }

    /// Decode the E-Trace encoding (0 U, 1 S, 3 M, 4 D).
    #[inline]
    pub fn from_u8(v: u8) -> Option<Priv> {
        // By code (a table: trace replay decodes one per event).
        const BY_CODE: [Option<Priv>; 5] = [
            Some(Priv::U),
            Some(Priv::S),
            None,
            Some(Priv::M),
            Some(Priv::Debug),
        ];
        BY_CODE.get(v as usize).copied().flatten()
    }

    /// The encoding (0 U, 1 S, 3 M, 4 D).
    #[inline]
    pub fn bits(self) -> u64 {
        self as u64
    }

    /// Single-letter name as used in logs.
    pub fn letter(self) -> char {
        match self {
            Priv::U => 'U',
            Priv::S => 'S',
            Priv::M => 'M',
            Priv::Debug => 'D',
        }
    }
}

impl fmt::Display for Priv {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A synchronous exception, by its mcause exception code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Exception {
    InstructionAddressMisaligned = 0,
    InstructionAccessFault = 1,
    IllegalInstruction = 2,
    Breakpoint = 3,
    LoadAddressMisaligned = 4,
    LoadAccessFault = 5,
    StoreAddressMisaligned = 6,
    StoreAccessFault = 7,
    EcallFromU = 8,
    EcallFromS = 9,
    EcallFromM = 11,
    InstructionPageFault = 12,
    LoadPageFault = 13,
    StorePageFault = 15,
}

impl Exception {
    /// The exception code (mcause without the interrupt bit).
    #[inline]
    pub fn code(self) -> u64 {
        self as u64
    }

    /// Decode an exception code.
    pub fn from_code(code: u64) -> Option<Exception> {
        use Exception::*;
        Some(match code {
            0 => InstructionAddressMisaligned,
            1 => InstructionAccessFault,
            2 => IllegalInstruction,
            3 => Breakpoint,
            4 => LoadAddressMisaligned,
            5 => LoadAccessFault,
            6 => StoreAddressMisaligned,
            7 => StoreAccessFault,
            8 => EcallFromU,
            9 => EcallFromS,
            11 => EcallFromM,
            12 => InstructionPageFault,
            13 => LoadPageFault,
            15 => StorePageFault,
            _ => return None,
        })
    }

    /// The ecall exception for a privilege level.
    pub fn ecall_from(p: Priv) -> Exception {
        match p {
            Priv::U => Exception::EcallFromU,
            Priv::S => Exception::EcallFromS,
            _ => Exception::EcallFromM,
        }
    }

    pub fn name(self) -> &'static str {
        use Exception::*;
        match self {
            InstructionAddressMisaligned => "instruction address misaligned",
            InstructionAccessFault => "instruction access fault",
            IllegalInstruction => "illegal instruction",
            Breakpoint => "breakpoint",
            LoadAddressMisaligned => "load address misaligned",
            LoadAccessFault => "load access fault",
            StoreAddressMisaligned => "store/AMO address misaligned",
            StoreAccessFault => "store/AMO access fault",
            EcallFromU => "environment call from U-mode",
            EcallFromS => "environment call from S-mode",
            EcallFromM => "environment call from M-mode",
            InstructionPageFault => "instruction page fault",
            LoadPageFault => "load page fault",
            StorePageFault => "store/AMO page fault",
        }
    }
}

/// An interrupt, by its mcause interrupt code (= its bit in mip/mie).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Interrupt {
    SupervisorSoftware = 1,
    MachineSoftware = 3,
    SupervisorTimer = 5,
    MachineTimer = 7,
    SupervisorExternal = 9,
    MachineExternal = 11,
    /// Local counter-overflow interrupt (Sscofpmf).
    CounterOverflow = 13,
}

impl Interrupt {
    /// Decreasing priority, privileged spec 1.12 section 3.1.9: MEI, MSI, MTI, SEI, SSI, STI, LCOFI.
    pub const PRIORITY: [Interrupt; 7] = [
        Interrupt::MachineExternal,
        Interrupt::MachineSoftware,
        Interrupt::MachineTimer,
        Interrupt::SupervisorExternal,
        Interrupt::SupervisorSoftware,
        Interrupt::SupervisorTimer,
        Interrupt::CounterOverflow,
    ];

    #[inline]
    pub fn code(self) -> u64 {
        self as u64
    }

    #[inline]
    pub fn mask(self) -> u64 {
        1 << (self as u64)
    }

    pub fn from_code(code: u64) -> Option<Interrupt> {
        use Interrupt::*;
        Some(match code {
            1 => SupervisorSoftware,
            3 => MachineSoftware,
            5 => SupervisorTimer,
            7 => MachineTimer,
            9 => SupervisorExternal,
            11 => MachineExternal,
            13 => CounterOverflow,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        use Interrupt::*;
        match self {
            SupervisorSoftware => "supervisor software interrupt",
            MachineSoftware => "machine software interrupt",
            SupervisorTimer => "supervisor timer interrupt",
            MachineTimer => "machine timer interrupt",
            SupervisorExternal => "supervisor external interrupt",
            MachineExternal => "machine external interrupt",
            CounterOverflow => "local counter overflow interrupt",
        }
    }
}

/// The integer registers' ABI names, x0 to x31 (`s0` for x8, as Spike and objdump print it).
pub const GPR_ABI: [&str; 32] = [
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4",
    "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4",
    "t5", "t6",
];

/// The FP registers' ABI names, f0 to f31.
pub const FPR_ABI: [&str; 32] = [
    "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0", "fa1", "fa2",
    "fa3", "fa4", "fa5", "fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7", "fs8", "fs9",
    "fs10", "fs11", "ft8", "ft9", "ft10", "ft11",
];

/// Whether register `r` is a link register: x1 (`ra`) or x5 (`t0`), the registers the
/// unprivileged spec's return-address stack hints and N-Trace table 2 (and so CTR and the
/// PMU) classify jumps by.
#[inline(always)]
pub const fn is_link(r: u8) -> bool {
    r == 1 || r == 5
}

/// The value of xcause for an interrupt or exception.
pub const CAUSE_INTERRUPT: u64 = 1 << 63;

/// A trap cause: what xcause holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cause {
    Exception(Exception),
    Interrupt(Interrupt),
}

impl Cause {
    /// The xcause value (interrupt bit 63 set for interrupts).
    #[inline]
    pub fn xcause(self) -> u64 {
        match self {
            Cause::Exception(e) => e.code(),
            Cause::Interrupt(i) => CAUSE_INTERRUPT | i.code(),
        }
    }

    /// The exception or interrupt code without the interrupt bit.
    #[inline]
    pub fn code(self) -> u64 {
        match self {
            Cause::Exception(e) => e.code(),
            Cause::Interrupt(i) => i.code(),
        }
    }

    pub fn is_interrupt(self) -> bool {
        matches!(self, Cause::Interrupt(_))
    }

    /// Decode an xcause value.
    pub fn from_xcause(v: u64) -> Option<Cause> {
        if v & CAUSE_INTERRUPT != 0 {
            Interrupt::from_code(v & !CAUSE_INTERRUPT).map(Cause::Interrupt)
        } else {
            Exception::from_code(v).map(Cause::Exception)
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Cause::Exception(e) => e.name(),
            Cause::Interrupt(i) => i.name(),
        }
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn causes_round_trip() {
        for code in 0..16 {
            if let Some(e) = Exception::from_code(code) {
                assert_eq!(e.code(), code);
                assert_eq!(Cause::from_xcause(code), Some(Cause::Exception(e)));
            }
        }
        for i in Interrupt::PRIORITY {
            let c = Cause::Interrupt(i);
            assert_eq!(Cause::from_xcause(c.xcause()), Some(c));
        }
        assert_eq!(Priv::from_bits(2), None);
    }

    #[test]
    fn priv_codes_round_trip() {
        for p in [Priv::U, Priv::S, Priv::M, Priv::Debug] {
            assert_eq!(Priv::from_u8(p as u8), Some(p));
        }
        let valid = (0..=255u8).filter(|&v| Priv::from_u8(v).is_some()).count();
        assert_eq!(valid, 4);
    }

    #[test]
    fn itype_codes_round_trip() {
        let mut n = 0;
        for c in 0..=255u8 {
            if let Some(t) = Itype::from_code(c) {
                assert_eq!(t.code(), c);
                n += 1;
            }
        }
        assert_eq!(n, 16);
    }
}

/// The type of a retired instruction block's last instruction, as the ingress port reports it
/// (E-Trace "Instruction Type" `itype` encoding; N-Trace table 2). Control Transfer Records
/// use the same codes for their TYPE field.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Itype {
    /// None of the others.
    #[default]
    None = 0,
    Exception = 1,
    Interrupt = 2,
    /// Exception or interrupt return (MRET, SRET).
    TrapReturn = 3,
    NontakenBranch = 4,
    TakenBranch = 5,
    /// Any uninferable jump, in the 3-bit encoding.
    UninferableJump = 6,
    Reserved7 = 7,
    UninferableCall = 8,
    InferableCall = 9,
    UninferableTailCall = 10,
    InferableTailCall = 11,
    CoroutineSwap = 12,
    Return = 13,
    OtherUninferableJump = 14,
    OtherInferableJump = 15,
}

impl Itype {
    /// The itype with a given code (0..=15).
    #[inline]
    pub fn from_code(v: u8) -> Option<Itype> {
        use Itype::*;
        // By code (a table: the encoder looks up one per beat).
        const ALL: [Itype; 16] = [
            None,
            Exception,
            Interrupt,
            TrapReturn,
            NontakenBranch,
            TakenBranch,
            UninferableJump,
            Reserved7,
            UninferableCall,
            InferableCall,
            UninferableTailCall,
            InferableTailCall,
            CoroutineSwap,
            Return,
            OtherUninferableJump,
            OtherInferableJump,
        ];
        ALL.get(v as usize).copied()
    }

    #[inline]
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The 3-bit itype for this 4-bit one: every uninferable jump becomes 6, every inferable
    /// jump 0.
    pub fn to_3bit(self) -> Itype {
        use Itype::*;
        match self {
            UninferableCall | UninferableTailCall | CoroutineSwap | Return
            | OtherUninferableJump => UninferableJump,
            InferableCall | InferableTailCall | OtherInferableJump => None,
            other => other,
        }
    }

    /// Whether the target cannot be inferred from the program (it must be traced).
    pub fn is_uninferable_jump(self) -> bool {
        use Itype::*;
        matches!(
            self,
            UninferableJump
                | UninferableCall
                | UninferableTailCall
                | CoroutineSwap
                | Return
                | OtherUninferableJump
        )
    }

    /// Whether this is a call (pushes a return address).
    pub fn is_call(self) -> bool {
        matches!(self, Itype::UninferableCall | Itype::InferableCall)
    }

    pub fn name(self) -> &'static str {
        use Itype::*;
        match self {
            None => "none",
            Exception => "exception",
            Interrupt => "interrupt",
            TrapReturn => "trap return",
            NontakenBranch => "nontaken branch",
            TakenBranch => "taken branch",
            UninferableJump => "uninferable jump",
            Reserved7 => "reserved",
            UninferableCall => "uninferable call",
            InferableCall => "inferable call",
            UninferableTailCall => "uninferable tail-call",
            InferableTailCall => "inferable tail-call",
            CoroutineSwap => "co-routine swap",
            Return => "return",
            OtherUninferableJump => "other uninferable jump",
            OtherInferableJump => "other inferable jump",
        }
    }
}
