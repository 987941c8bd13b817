//! Every opcode, additional-state identifier and memory-transaction code of the trace format
//! (spec chapter 2), registered in one place. The parser dispatches through [`opcode`] and
//! [`addl_state`], the dump prints their names, and the writer uses the constants.
//!
//! Errata applied (shared/specs/README.md): identifiers are bytes (pc is 0x0a); a memory
//! request packs op in the low nibble and size in the high nibble of its byte; a memory
//! response packs size low and result high.

/// How long an opcode's payload is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Payload {
    /// No payload.
    None,
    /// 16-bit register address, then XLEN (FLEN for an FPR) bits of data.
    FullReg,
    /// 16-bit register address, then one byte (signed offset or OR mask).
    IncrReg,
    /// 8-bit identifier, then the identifier's data (see [`ADDL_STATES`]).
    AddlState,
    /// MLEN address, op/size byte, store or AMO data.
    MemReq,
    /// size/result byte, load or AMO data (data depends on the request it answers).
    MemRsp,
    /// 16 bits of instruction.
    Insn16,
    /// 32 bits of instruction.
    Insn32,
}

pub const BEGIN_GROUP: u8 = 1;
pub const END_GROUP: u8 = 2;
pub const INCR_PC: u8 = 3;
pub const FULL_REG: u8 = 4;
pub const INCR_REG_ADD: u8 = 5;
pub const INCR_REG_OR: u8 = 6;
pub const ADDL_STATE: u8 = 7;
pub const MEM_REQ: u8 = 8;
pub const MEM_RSP: u8 = 9;
pub const HART_RESET: u8 = 10;
pub const STATE_INIT: u8 = 11;
pub const INSN16: u8 = 16;
pub const INSN32: u8 = 17;

/// The debug-spec register address of x0 (x1..x31 follow), as register writes carry it.
pub const GPR_ADDR: u16 = 0x1000;
/// The debug-spec register address of f0 (f1..f31 follow).
pub const FPR_ADDR: u16 = 0x1020;
// (The writer's runs find an FPR's address as a GPR's plus 32.)
const _: () = assert!(FPR_ADDR == GPR_ADDR + 32);

/// One opcode of the trace format.
#[derive(Clone, Copy, Debug)]
pub struct OpcodeInfo {
    pub code: u8,
    /// Short name, used by the dump.
    pub name: &'static str,
    pub payload: Payload,
    /// The spec's description.
    pub meaning: &'static str,
}

/// The opcodes of spec chapter 2, in order.
pub const OPCODES: &[OpcodeInfo] = &[
    OpcodeInfo {
        code: BEGIN_GROUP,
        name: "begin",
        payload: Payload::None,
        meaning: "begin group (atomic state update)",
    },
    OpcodeInfo {
        code: END_GROUP,
        name: "end",
        payload: Payload::None,
        meaning: "end group",
    },
    OpcodeInfo {
        code: INCR_PC,
        name: "incr-pc",
        payload: Payload::None,
        meaning: "increment pc by instruction length",
    },
    OpcodeInfo {
        code: FULL_REG,
        name: "reg",
        payload: Payload::FullReg,
        meaning: "full register (16-bit address, XLEN or FLEN data)",
    },
    OpcodeInfo {
        code: INCR_REG_ADD,
        name: "reg+=",
        payload: Payload::IncrReg,
        meaning: "incremental register (16-bit address, 8-bit signed offset)",
    },
    OpcodeInfo {
        code: INCR_REG_OR,
        name: "reg|=",
        payload: Payload::IncrReg,
        meaning: "incremental register (16-bit address, 8-bit OR mask)",
    },
    OpcodeInfo {
        code: ADDL_STATE,
        name: "addl",
        payload: Payload::AddlState,
        meaning: "additional state (8-bit identifier, type dependent data)",
    },
    OpcodeInfo {
        code: MEM_REQ,
        name: "mem-req",
        payload: Payload::MemReq,
        meaning: "memory request: addr (MLEN), op (4 bits), size (4 bits), data",
    },
    OpcodeInfo {
        code: MEM_RSP,
        name: "mem-rsp",
        payload: Payload::MemRsp,
        meaning: "memory response: size (4 bits), result (4 bits), data",
    },
    OpcodeInfo {
        code: HART_RESET,
        name: "reset",
        payload: Payload::None,
        meaning: "hart reset",
    },
    OpcodeInfo {
        code: STATE_INIT,
        name: "state-init",
        payload: Payload::None,
        meaning: "state initialization",
    },
    OpcodeInfo {
        code: INSN16,
        name: "insn16",
        payload: Payload::Insn16,
        meaning: "16-bit instruction",
    },
    OpcodeInfo {
        code: INSN32,
        name: "insn32",
        payload: Payload::Insn32,
        meaning: "32-bit instruction",
    },
];

/// The registry entry of an opcode byte.
#[inline]
pub fn opcode(code: u8) -> Option<&'static OpcodeInfo> {
    // Codes 1-11 are entries 0-10; 16 and 17 are 11 and 12.
    let i = match code {
        1..=11 => code as usize - 1,
        16 | 17 => code as usize - 5,
        _ => return None,
    };
    Some(&OPCODES[i])
}

/// How long an additional-state item's data is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddlLen {
    /// A fixed number of bytes.
    Bytes(u8),
    /// MLEN rounded up to bytes.
    Mlen,
    /// XLEN.
    Xlen,
}

pub const ADDL_PRIV: u8 = 1;
pub const ADDL_PADDR: u8 = 2;
pub const ADDL_EADDR: u8 = 3;
pub const ADDL_DATA8: u8 = 4;
pub const ADDL_DATA16: u8 = 5;
pub const ADDL_DATA32: u8 = 6;
pub const ADDL_DATA64: u8 = 7;
pub const ADDL_MTIME: u8 = 8;
pub const ADDL_PC_PADDR: u8 = 9;
/// The pc: 0x0a (the spec's tables print "10" in a hex column).
pub const ADDL_PC: u8 = 10;

/// One additional-state identifier (opcode 7).
#[derive(Clone, Copy, Debug)]
pub struct AddlInfo {
    pub id: u8,
    pub name: &'static str,
    pub len: AddlLen,
    pub meaning: &'static str,
}

/// The additional-state identifiers of spec chapter 2, in order.
pub const ADDL_STATES: &[AddlInfo] = &[
    AddlInfo {
        id: ADDL_PRIV,
        name: "priv",
        len: AddlLen::Bytes(1),
        meaning: "privilege mode (PRIVLEN, zero extended)",
    },
    AddlInfo {
        id: ADDL_PADDR,
        name: "paddr",
        len: AddlLen::Mlen,
        meaning: "physical address",
    },
    AddlInfo {
        id: ADDL_EADDR,
        name: "eaddr",
        len: AddlLen::Mlen,
        meaning: "effective address",
    },
    AddlInfo {
        id: ADDL_DATA8,
        name: "data8",
        len: AddlLen::Bytes(1),
        meaning: "memory store data (8 bits)",
    },
    AddlInfo {
        id: ADDL_DATA16,
        name: "data16",
        len: AddlLen::Bytes(2),
        meaning: "memory store data (16 bits)",
    },
    AddlInfo {
        id: ADDL_DATA32,
        name: "data32",
        len: AddlLen::Bytes(4),
        meaning: "memory store data (32 bits)",
    },
    AddlInfo {
        id: ADDL_DATA64,
        name: "data64",
        len: AddlLen::Bytes(8),
        meaning: "memory store data (64 bits)",
    },
    AddlInfo {
        id: ADDL_MTIME,
        name: "mtime",
        len: AddlLen::Bytes(8),
        meaning: "mtime",
    },
    AddlInfo {
        id: ADDL_PC_PADDR,
        name: "pc-paddr",
        len: AddlLen::Mlen,
        meaning: "pc physical address",
    },
    AddlInfo {
        id: ADDL_PC,
        name: "pc",
        len: AddlLen::Xlen,
        meaning: "program counter (the next pc)",
    },
];

/// The registry entry of an additional-state identifier.
#[inline]
pub fn addl_state(id: u8) -> Option<&'static AddlInfo> {
    match id {
        1..=10 => Some(&ADDL_STATES[id as usize - 1]),
        _ => None,
    }
}

/// Memory request size: the access is `1 << size` bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum MemSize {
    B8 = 0,
    B16 = 1,
    B32 = 2,
    B64 = 3,
}

impl MemSize {
    pub fn from_code(c: u8) -> Option<MemSize> {
        Some(match c {
            0 => MemSize::B8,
            1 => MemSize::B16,
            2 => MemSize::B32,
            3 => MemSize::B64,
            _ => return None,
        })
    }

    /// From a size in bytes (1, 2, 4 or 8).
    pub fn from_bytes(n: u8) -> Option<MemSize> {
        Some(match n {
            1 => MemSize::B8,
            2 => MemSize::B16,
            4 => MemSize::B32,
            8 => MemSize::B64,
            _ => return None,
        })
    }

    #[inline]
    pub fn bytes(self) -> u8 {
        1 << self as u8
    }

    /// All-ones mask of the size's width.
    #[inline]
    pub fn mask(self) -> u64 {
        match self {
            MemSize::B64 => u64::MAX,
            s => (1u64 << (8 * s.bytes() as u32)) - 1,
        }
    }

    /// The store-data additional-state identifier (4-7) of this size.
    #[inline]
    pub fn store_data_id(self) -> u8 {
        ADDL_DATA8 + self as u8
    }
}

/// Memory request opcode (the low nibble of the op/size byte).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MemOp {
    Load = 0,
    Store = 1,
    LoadReserved = 2,
    StoreConditional = 3,
    AmoSwap = 4,
    AmoAdd = 5,
    AmoXor = 6,
    AmoAnd = 7,
    AmoOr = 8,
    AmoMin = 9,
    AmoMax = 10,
    AmoMinu = 11,
    AmoMaxu = 12,
    Fetch = 13,
}

/// Names of the memory request opcodes, by code.
pub const MEM_OP_NAMES: [&str; 14] = [
    "load", "store", "lr", "sc", "amoswap", "amoadd", "amoxor", "amoand", "amoor", "amomin",
    "amomax", "amominu", "amomaxu", "fetch",
];

impl MemOp {
    pub fn from_code(c: u8) -> Option<MemOp> {
        use MemOp::*;
        Some(match c {
            0 => Load,
            1 => Store,
            2 => LoadReserved,
            3 => StoreConditional,
            4 => AmoSwap,
            5 => AmoAdd,
            6 => AmoXor,
            7 => AmoAnd,
            8 => AmoOr,
            9 => AmoMin,
            10 => AmoMax,
            11 => AmoMinu,
            12 => AmoMaxu,
            13 => Fetch,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        MEM_OP_NAMES[self as usize]
    }

    /// Whether the request carries data (stores, store-conditionals and AMOs).
    #[inline]
    pub fn request_has_data(self) -> bool {
        !matches!(self, MemOp::Load | MemOp::LoadReserved | MemOp::Fetch)
    }

    /// Whether the response carries data (loads, load-reserved, fetches and AMOs).
    #[inline]
    pub fn response_has_data(self) -> bool {
        !matches!(self, MemOp::Store | MemOp::StoreConditional)
    }

    /// Whether the transaction writes memory.
    #[inline]
    pub fn writes(self) -> bool {
        self.request_has_data()
    }

    #[inline]
    pub fn is_amo(self) -> bool {
        (4..=12).contains(&(self as u8))
    }

    /// The memory value an AMO leaves, from the old value and the operand (both `size`
    /// wide; the signed forms compare `size`-wide signed values).
    pub fn amo_result(self, old: u64, operand: u64, size: MemSize) -> u64 {
        let m = size.mask();
        let sext = |v: u64| -> i64 {
            match size {
                MemSize::B32 => v as u32 as i32 as i64,
                MemSize::B16 => v as u16 as i16 as i64,
                MemSize::B8 => v as u8 as i8 as i64,
                MemSize::B64 => v as i64,
            }
        };
        let (a, b) = (old & m, operand & m);
        let r = match self {
            MemOp::AmoSwap => b,
            MemOp::AmoAdd => a.wrapping_add(b),
            MemOp::AmoXor => a ^ b,
            MemOp::AmoAnd => a & b,
            MemOp::AmoOr => a | b,
            MemOp::AmoMin => sext(a).min(sext(b)) as u64,
            MemOp::AmoMax => sext(a).max(sext(b)) as u64,
            MemOp::AmoMinu => a.min(b),
            MemOp::AmoMaxu => a.max(b),
            _ => b,
        };
        r & m
    }
}

/// Memory response result (the high nibble of the size/result byte).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MemResult {
    Success = 0,
    Failure = 1,
}

impl MemResult {
    pub fn from_code(c: u8) -> Option<MemResult> {
        match c {
            0 => Some(MemResult::Success),
            1 => Some(MemResult::Failure),
            _ => None,
        }
    }
}

/// The op/size byte of a memory request: op low, size high.
#[inline]
pub fn req_byte(op: MemOp, size: MemSize) -> u8 {
    (op as u8) | ((size as u8) << 4)
}

/// The size/result byte of a memory response: size low, result high.
#[inline]
pub fn rsp_byte(size: MemSize, result: MemResult) -> u8 {
    (size as u8) | ((result as u8) << 4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_is_indexed_by_code() {
        for o in OPCODES {
            assert_eq!(opcode(o.code).map(|i| i.code), Some(o.code));
        }
        for c in [0u8, 12, 13, 14, 15, 18, 0x7f, 255] {
            assert!(opcode(c).is_none(), "{c}");
        }
        for a in ADDL_STATES {
            assert_eq!(addl_state(a.id).map(|i| i.id), Some(a.id));
        }
        assert!(addl_state(0).is_none() && addl_state(11).is_none());
        assert_eq!(addl_state(0x0a).map(|a| a.name), Some("pc"));
    }

    /// `from_code` is the inverse of the enums' discriminants.
    #[test]
    fn codes_round_trip() {
        let (mut ops, mut sizes, mut results) = (0, 0, 0);
        for c in 0..=255u8 {
            if let Some(o) = MemOp::from_code(c) {
                assert_eq!(o as u8, c);
                ops += 1;
            }
            if let Some(s) = MemSize::from_code(c) {
                assert_eq!(s as u8, c);
                assert_eq!(MemSize::from_bytes(s.bytes()), Some(s));
                sizes += 1;
            }
            if let Some(r) = MemResult::from_code(c) {
                assert_eq!(r as u8, c);
                results += 1;
            }
        }
        assert_eq!((ops, sizes, results), (MEM_OP_NAMES.len(), 4, 2));
    }

    #[test]
    fn packing() {
        // Flute's state-init store of a word: {2'b0, size, op} = 0x21.
        assert_eq!(req_byte(MemOp::Store, MemSize::B32), 0x21);
        assert_eq!(rsp_byte(MemSize::B64, MemResult::Failure), 0x13);
        assert_eq!(MemSize::B16.store_data_id(), ADDL_DATA16);
        assert_eq!(
            MemOp::AmoMin.amo_result(0xffff_fff0, 3, MemSize::B32),
            0xffff_fff0
        );
        assert_eq!(MemOp::AmoMinu.amo_result(0xffff_fff0, 3, MemSize::B32), 3);
        assert_eq!(MemOp::AmoAdd.amo_result(0xffff_ffff, 1, MemSize::B32), 0);
    }
}
