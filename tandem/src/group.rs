//! A group: the state changes of one begin/end group (one instruction, trap, reset or state
//! initialisation), as the parser assembles it, in a form the dump and the verifier read
//! without looking at items again.
//!
//! Items outside any group are returned as units of their own (`grouped == false`): the
//! spec lets state change outside groups, ordered only relative to the groups around them.

use crate::item::{Item, MemReq, MemRsp};
use crate::opcode::MemSize;

/// An instruction field (opcode 16 or 17).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawInsn {
    pub bits: u32,
    /// 2 or 4 bytes.
    pub len: u8,
}

/// How a register changes (opcodes 4, 5, 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegOp {
    Full(u64),
    /// Add a signed 8-bit offset.
    Add(i8),
    /// OR an 8-bit mask.
    Or(u8),
}

impl RegOp {
    /// The register's value after this change, from its value before.
    #[inline]
    pub fn apply(self, old: u64) -> u64 {
        match self {
            RegOp::Full(v) => v,
            RegOp::Add(d) => old.wrapping_add(d as i64 as u64),
            RegOp::Or(m) => old | m as u64,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegUpdate {
    pub addr: u16,
    pub op: RegOp,
}

/// A memory request and the response that followed it, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemTxn {
    pub req: MemReq,
    pub rsp: Option<MemRsp>,
}

/// One group (or one item outside any group).
#[derive(Clone, Debug, Default)]
pub struct Group {
    /// Position in the stream: 0 for the first unit.
    pub index: u64,
    /// Byte offset of the group's first byte.
    pub offset: u64,
    /// Byte offset just past the group.
    pub end: u64,
    /// False for an item outside any group.
    pub grouped: bool,
    /// Hart reset (opcode 10).
    pub reset: bool,
    /// State initialisation (opcode 11).
    pub state_init: bool,
    pub insn: Option<RawInsn>,
    /// Increment pc (opcode 3).
    pub incr_pc: bool,
    /// The next pc (additional state 10).
    pub pc: Option<u64>,
    pub pc_paddr: Option<u64>,
    pub prv: Option<u8>,
    pub paddr: Option<u64>,
    pub eaddr: Option<u64>,
    pub store_data: Option<(MemSize, u64)>,
    pub mtime: Option<u64>,
    /// Register changes in stream order.
    pub regs: Vec<RegUpdate>,
    pub mem: Vec<MemTxn>,
    /// Every item with its byte offset, when the reader was asked to keep them (the dump).
    pub items: Vec<(u64, Item)>,
}

impl Group {
    /// Forget everything (keeps the allocations).
    pub fn clear(&mut self) {
        self.index = 0;
        self.offset = 0;
        self.end = 0;
        self.grouped = false;
        self.reset = false;
        self.state_init = false;
        self.insn = None;
        self.incr_pc = false;
        self.pc = None;
        self.pc_paddr = None;
        self.prv = None;
        self.paddr = None;
        self.eaddr = None;
        self.store_data = None;
        self.mtime = None;
        self.regs.clear();
        self.mem.clear();
        self.items.clear();
    }

    /// Whether the group reports nothing at all.
    pub fn is_empty(&self) -> bool {
        !self.reset
            && !self.state_init
            && self.insn.is_none()
            && !self.incr_pc
            && self.pc.is_none()
            && self.pc_paddr.is_none()
            && self.prv.is_none()
            && self.paddr.is_none()
            && self.eaddr.is_none()
            && self.store_data.is_none()
            && self.mtime.is_none()
            && self.regs.is_empty()
            && self.mem.is_empty()
    }

    /// The value a full write in this group gives register `addr`, if any.
    pub fn full_reg(&self, addr: u16) -> Option<u64> {
        self.regs.iter().rev().find_map(|r| match r.op {
            RegOp::Full(v) if r.addr == addr => Some(v),
            _ => None,
        })
    }
}
