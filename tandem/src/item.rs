//! One element of the stream (an opcode and its payload), and its encoding.
//!
//! The parser produces [`Item`]s; [`encode`] writes them back. The writer has its own fast
//! path, checked against [`encode`] by the tests.

use crate::opcode::*;
use crate::params::Params;

/// Additional state (opcode 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Addl {
    /// Privilege mode (0 U, 1 S, 3 M).
    Priv(u8),
    /// Physical address of the instruction's data access.
    Paddr(u64),
    /// Effective (virtual) address of the instruction's data access.
    Eaddr(u64),
    /// Memory store data, as wide as the store (identifiers 4-7).
    StoreData(MemSize, u64),
    Mtime(u64),
    /// Physical address of the pc.
    PcPaddr(u64),
    /// The next pc.
    Pc(u64),
}

impl Addl {
    pub fn id(&self) -> u8 {
        match self {
            Addl::Priv(_) => ADDL_PRIV,
            Addl::Paddr(_) => ADDL_PADDR,
            Addl::Eaddr(_) => ADDL_EADDR,
            Addl::StoreData(s, _) => s.store_data_id(),
            Addl::Mtime(_) => ADDL_MTIME,
            Addl::PcPaddr(_) => ADDL_PC_PADDR,
            Addl::Pc(_) => ADDL_PC,
        }
    }
}

/// A memory request (opcode 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemReq {
    pub addr: u64,
    pub op: MemOp,
    pub size: MemSize,
    /// Present for stores, store-conditionals and AMOs.
    pub data: Option<u64>,
}

/// A memory response (opcode 9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemRsp {
    pub size: MemSize,
    pub result: MemResult,
    /// Present for loads, load-reserved, fetches and AMOs.
    pub data: Option<u64>,
}

/// One opcode and its payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    BeginGroup,
    EndGroup,
    IncrPc,
    FullReg { addr: u16, value: u64 },
    IncrRegAdd { addr: u16, delta: i8 },
    IncrRegOr { addr: u16, mask: u8 },
    Addl(Addl),
    MemReq(MemReq),
    MemRsp(MemRsp),
    HartReset,
    StateInit,
    Insn16(u16),
    Insn32(u32),
}

impl Item {
    pub fn opcode(&self) -> u8 {
        match self {
            Item::BeginGroup => BEGIN_GROUP,
            Item::EndGroup => END_GROUP,
            Item::IncrPc => INCR_PC,
            Item::FullReg { .. } => FULL_REG,
            Item::IncrRegAdd { .. } => INCR_REG_ADD,
            Item::IncrRegOr { .. } => INCR_REG_OR,
            Item::Addl(_) => ADDL_STATE,
            Item::MemReq(_) => MEM_REQ,
            Item::MemRsp(_) => MEM_RSP,
            Item::HartReset => HART_RESET,
            Item::StateInit => STATE_INIT,
            Item::Insn16(_) => INSN16,
            Item::Insn32(_) => INSN32,
        }
    }
}

/// Append the low `n` bytes of `v`, little-endian.
#[inline]
pub fn put_le(out: &mut Vec<u8>, v: u64, n: usize) {
    out.extend_from_slice(&v.to_le_bytes()[..n]);
}

/// Append the encoding of `item`.
pub fn encode(p: &Params, item: &Item, out: &mut Vec<u8>) {
    out.push(item.opcode());
    match *item {
        Item::BeginGroup | Item::EndGroup | Item::IncrPc | Item::HartReset | Item::StateInit => {}
        Item::FullReg { addr, value } => {
            put_le(out, addr as u64, 2);
            put_le(out, value, p.reg_bytes(addr));
        }
        Item::IncrRegAdd { addr, delta } => {
            put_le(out, addr as u64, 2);
            out.push(delta as u8);
        }
        Item::IncrRegOr { addr, mask } => {
            put_le(out, addr as u64, 2);
            out.push(mask);
        }
        Item::Addl(a) => {
            out.push(a.id());
            match a {
                Addl::Priv(v) => out.push(v),
                Addl::Paddr(v) | Addl::Eaddr(v) | Addl::PcPaddr(v) => put_le(out, v, p.mbytes()),
                Addl::StoreData(s, v) => put_le(out, v, s.bytes() as usize),
                Addl::Mtime(v) => put_le(out, v, 8),
                Addl::Pc(v) => put_le(out, v, p.xbytes()),
            }
        }
        Item::MemReq(r) => {
            put_le(out, r.addr, p.mbytes());
            out.push(req_byte(r.op, r.size));
            if r.op.request_has_data() {
                put_le(out, r.data.unwrap_or(0), r.size.bytes() as usize);
            }
        }
        Item::MemRsp(r) => {
            out.push(rsp_byte(r.size, r.result));
            if let Some(d) = r.data {
                put_le(out, d, r.size.bytes() as usize);
            }
        }
        Item::Insn16(b) => put_le(out, b as u64, 2),
        Item::Insn32(b) => put_le(out, b as u64, 4),
    }
}

/// Encode a sequence of items.
pub fn encode_all(p: &Params, items: &[Item]) -> Vec<u8> {
    let mut out = Vec::new();
    for i in items {
        encode(p, i, &mut out);
    }
    out
}
