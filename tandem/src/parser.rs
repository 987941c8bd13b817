//! Streaming parser: bytes to [`Item`]s ([`ItemReader`]) and items to [`Group`]s
//! ([`GroupReader`]), over any `Read`, in bounded memory (a 1 MiB window and one group).
//!
//! It accepts everything the spec allows: an end group implied by the next begin group,
//! items in any order inside a group, any field left out (partial trace), state changes
//! outside groups, memory responses left out. It reports, with the byte offset and the group
//! number, everything it does not allow:
//!
//! - an opcode or additional-state identifier the spec does not define, a memory request op
//!   or size, or a response result, outside the tables; a privilege above 3;
//! - a payload cut short by the end of the stream, and a group still open at the end;
//! - a begin group inside a group that has nothing in it yet (a nested begin group; with
//!   [`ParserOptions::strict_groups`], any begin group inside a group), an end group outside
//!   a group;
//! - a memory response that does not immediately follow a request;
//! - increment pc in a group without an instruction, state initialisation combined with an
//!   instruction or a reset, two instructions in one group (spec chapter 3);
//! - two different values for the same register or additional state in one group ("only
//!   unambiguous state changes are allowed").
//!
//! It never panics, whatever the input (the fuzz tests feed it random and mutated streams).

use crate::group::{Group, MemTxn, RawInsn, RegOp, RegUpdate};
use crate::item::{Addl, Item, MemReq, MemRsp};
use crate::opcode::*;
use crate::params::Params;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::io::Read;
use thiserror::Error;

/// What is wrong with the input.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ErrorKind {
    UnknownOpcode(u8),
    UnknownAddlState(u8),
    /// The stream ends inside an item: `needed` bytes, `available` left.
    Truncated {
        opcode: u8,
        needed: usize,
        available: usize,
    },
    NestedBeginGroup,
    EndOutsideGroup,
    InvalidPriv(u8),
    InvalidMemOp(u8),
    InvalidMemSize(u8),
    InvalidMemResult(u8),
    ResponseWithoutRequest,
    IncrPcWithoutInsn,
    StateInitCombined,
    TwoInstructions,
    /// Two different values for the same element in one group.
    Ambiguous(String),
    /// The stream ends while a group is open.
    UnterminatedGroup,
    /// More items in one group than the reader keeps.
    GroupTooLarge(usize),
    Io(String),
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ErrorKind::*;
        match self {
            UnknownOpcode(o) => write!(f, "unknown opcode 0x{o:02x}"),
            UnknownAddlState(i) => write!(f, "unknown additional-state identifier 0x{i:02x}"),
            Truncated {
                opcode,
                needed,
                available,
            } => write!(
                f,
                "truncated payload: opcode 0x{opcode:02x} needs {needed} bytes, the stream has {available}"
            ),
            NestedBeginGroup => write!(f, "nested begin group (a begin group inside an empty group)"),
            EndOutsideGroup => write!(f, "end group outside a group"),
            InvalidPriv(p) => write!(f, "invalid privilege {p} (0, 1 or 3)"),
            InvalidMemOp(o) => write!(f, "invalid memory request op {o}"),
            InvalidMemSize(s) => write!(f, "invalid memory size {s}"),
            InvalidMemResult(r) => write!(f, "invalid memory response result {r}"),
            ResponseWithoutRequest => {
                write!(f, "memory response that does not follow a memory request")
            }
            IncrPcWithoutInsn => write!(f, "increment pc in a group without an instruction"),
            StateInitCombined => write!(
                f,
                "state initialisation combined with an instruction or a hart reset"
            ),
            TwoInstructions => write!(f, "two instructions in one group"),
            Ambiguous(what) => write!(f, "ambiguous: two different values for {what} in one group"),
            UnterminatedGroup => write!(f, "the stream ends inside a group"),
            GroupTooLarge(n) => write!(f, "group has more than {n} items"),
            Io(e) => write!(f, "read error: {e}"),
        }
    }
}

/// A malformed stream: what, where (byte offset) and in which group (its index).
#[derive(Clone, Debug, Error, PartialEq, Eq, Serialize, Deserialize)]
#[error("byte offset {offset} (0x{offset:x}), group {group}: {kind}")]
pub struct ParseError {
    pub offset: u64,
    pub group: u64,
    pub kind: ErrorKind,
}

impl ParseError {
    /// Whether the input could not be read (an I/O error), rather than being malformed.
    pub fn is_read_error(&self) -> bool {
        matches!(self.kind, ErrorKind::Io(_))
    }

    /// What went wrong, for a message: "malformed stream: ..." or "cannot read the stream:
    /// ...", with the byte offset and the group.
    pub fn describe(&self) -> String {
        if self.is_read_error() {
            format!("cannot read the stream: {self}")
        } else {
            format!("malformed stream: {self}")
        }
    }
}

/// How the reader reads.
#[derive(Clone, Copy, Debug)]
pub struct ParserOptions {
    pub params: Params,
    /// Report any begin group inside a group as nested (by default a begin group ends a
    /// non-empty open group, as the spec allows).
    pub strict_groups: bool,
    /// The most items one group may have.
    pub max_group_items: usize,
}

impl Default for ParserOptions {
    fn default() -> Self {
        ParserOptions {
            params: Params::RV64GC,
            strict_groups: false,
            max_group_items: 1024,
        }
    }
}

impl ParserOptions {
    pub fn with_params(params: Params) -> Self {
        ParserOptions {
            params,
            ..Default::default()
        }
    }
}

const WINDOW: usize = 1 << 20;
/// Bytes guaranteed available before an item is parsed (the longest item is 18 bytes).
const LOOKAHEAD: usize = 32;
/// Bytes the fast path wants in the window to read a group in one go.
const FAST_WINDOW: usize = 4096;

/// Bytes to items.
pub struct ItemReader<R: Read> {
    r: R,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    eof: bool,
    /// Stream offset of `buf[start]`.
    offset: u64,
    params: Params,
    /// The op of the memory request just read (a response may follow it).
    pending_req: Option<(MemOp, MemSize)>,
}

impl<R: Read> ItemReader<R> {
    pub fn new(r: R, params: Params) -> Self {
        ItemReader {
            r,
            buf: vec![0; WINDOW],
            start: 0,
            end: 0,
            eof: false,
            offset: 0,
            params,
            pending_req: None,
        }
    }

    /// The byte offset of the next item.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    #[cold]
    fn fill(&mut self) -> Result<(), ErrorKind> {
        self.fill_to(LOOKAHEAD)
    }

    /// Read until `want` bytes are buffered (or the stream ends).
    #[cold]
    fn fill_to(&mut self, want: usize) -> Result<(), ErrorKind> {
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        while !self.eof && self.end < want {
            match self.r.read(&mut self.buf[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(n) => self.end += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(ErrorKind::Io(e.to_string())),
            }
        }
        Ok(())
    }

    /// The next item and its byte offset, `None` at the end of the stream. On an error the
    /// reader stays where the bad item starts.
    #[inline(always)]
    pub fn next_item(&mut self) -> Result<Option<(u64, Item)>, (u64, ErrorKind)> {
        if self.end - self.start < LOOKAHEAD && !self.eof {
            self.fill().map_err(|e| (self.offset, e))?;
        }
        if self.start == self.end {
            return Ok(None);
        }
        let off = self.offset;
        let b = &self.buf[self.start..self.end];
        let (item, len) = parse_item(b, &self.params, self.pending_req).map_err(|e| (off, e))?;
        self.pending_req = match item {
            Item::MemReq(r) => Some((r.op, r.size)),
            _ => None,
        };
        self.start += len;
        self.offset += len as u64;
        Ok(Some((off, item)))
    }
}

/// The little-endian value of the first `n` (1..=8) bytes of `b`.
#[inline(always)]
fn le(b: &[u8], n: usize) -> u64 {
    if let Some(w) = b.first_chunk::<8>() {
        let v = u64::from_le_bytes(*w);
        if n >= 8 {
            v
        } else {
            v & ((1u64 << (8 * n)) - 1)
        }
    } else {
        let mut v = [0u8; 8];
        v[..n].copy_from_slice(&b[..n]);
        u64::from_le_bytes(v)
    }
}

/// Parse the item at the start of `b`: the item and its length.
#[inline(always)]
fn parse_item(
    b: &[u8],
    p: &Params,
    pending_req: Option<(MemOp, MemSize)>,
) -> Result<(Item, usize), ErrorKind> {
    let op = b[0];
    let need = |n: usize| -> Result<(), ErrorKind> {
        if b.len() < n {
            Err(ErrorKind::Truncated {
                opcode: op,
                needed: n,
                available: b.len(),
            })
        } else {
            Ok(())
        }
    };
    // The payload after a memory request's or response's first `len` bytes, when `has` it.
    let data = |has: bool, size: MemSize, len: &mut usize| -> Result<Option<u64>, ErrorKind> {
        if !has {
            return Ok(None);
        }
        let n = size.bytes() as usize;
        need(*len + n)?;
        let d = le(&b[*len..], n);
        *len += n;
        Ok(Some(d))
    };
    // Dispatch on the byte itself (the registry in `opcode` describes the same codes; a test
    // checks the two agree): one jump instead of a table look-up and a jump.
    Ok(match op {
        BEGIN_GROUP => (Item::BeginGroup, 1),
        END_GROUP => (Item::EndGroup, 1),
        INCR_PC => (Item::IncrPc, 1),
        HART_RESET => (Item::HartReset, 1),
        STATE_INIT => (Item::StateInit, 1),
        FULL_REG => {
            need(3)?;
            let addr = le(&b[1..], 2) as u16;
            let n = p.reg_bytes(addr);
            need(3 + n)?;
            (
                Item::FullReg {
                    addr,
                    value: le(&b[3..], n),
                },
                3 + n,
            )
        }
        INCR_REG_ADD | INCR_REG_OR => {
            need(4)?;
            let addr = le(&b[1..], 2) as u16;
            let item = if op == INCR_REG_ADD {
                Item::IncrRegAdd {
                    addr,
                    delta: b[3] as i8,
                }
            } else {
                Item::IncrRegOr { addr, mask: b[3] }
            };
            (item, 4)
        }
        ADDL_STATE => {
            need(2)?;
            let id = b[1];
            let a = addl_state(id).ok_or(ErrorKind::UnknownAddlState(id))?;
            let n = match a.len {
                AddlLen::Bytes(n) => n as usize,
                AddlLen::Mlen => p.mbytes(),
                AddlLen::Xlen => p.xbytes(),
            };
            need(2 + n)?;
            let v = le(&b[2..], n);
            let addl = match id {
                ADDL_PRIV => {
                    if v > 3 || v == 2 {
                        return Err(ErrorKind::InvalidPriv(v as u8));
                    }
                    Addl::Priv(v as u8)
                }
                ADDL_PADDR => Addl::Paddr(v),
                ADDL_EADDR => Addl::Eaddr(v),
                ADDL_DATA8..=ADDL_DATA64 => Addl::StoreData(
                    MemSize::from_code(id - ADDL_DATA8).unwrap_or(MemSize::B64),
                    v,
                ),
                ADDL_MTIME => Addl::Mtime(v),
                ADDL_PC_PADDR => Addl::PcPaddr(v),
                _ => Addl::Pc(v),
            };
            (Item::Addl(addl), 2 + n)
        }
        MEM_REQ => {
            let m = p.mbytes();
            need(2 + m)?;
            let addr = le(&b[1..], m);
            let x = b[1 + m];
            let mop = MemOp::from_code(x & 15).ok_or(ErrorKind::InvalidMemOp(x & 15))?;
            let size = MemSize::from_code(x >> 4).ok_or(ErrorKind::InvalidMemSize(x >> 4))?;
            let mut len = 2 + m;
            let data = data(mop.request_has_data(), size, &mut len)?;
            (
                Item::MemReq(MemReq {
                    addr,
                    op: mop,
                    size,
                    data,
                }),
                len,
            )
        }
        MEM_RSP => {
            let (req_op, _) = pending_req.ok_or(ErrorKind::ResponseWithoutRequest)?;
            need(2)?;
            let x = b[1];
            let size = MemSize::from_code(x & 15).ok_or(ErrorKind::InvalidMemSize(x & 15))?;
            let result = MemResult::from_code(x >> 4).ok_or(ErrorKind::InvalidMemResult(x >> 4))?;
            let mut len = 2;
            let data = data(req_op.response_has_data(), size, &mut len)?;
            (Item::MemRsp(MemRsp { size, result, data }), len)
        }
        INSN16 => {
            need(3)?;
            (Item::Insn16(le(&b[1..], 2) as u16), 3)
        }
        INSN32 => {
            need(5)?;
            (Item::Insn32(le(&b[1..], 4) as u32), 5)
        }
        _ => return Err(ErrorKind::UnknownOpcode(op)),
    })
}

/// Items to groups.
pub struct GroupReader<R: Read> {
    items: ItemReader<R>,
    opts: ParserOptions,
    /// An item read ahead and not yet used.
    peeked: Option<(u64, Item)>,
    /// Index of the next unit.
    next_index: u64,
    /// Keep every item in `Group::items`.
    pub keep_items: bool,
    /// A begin group was read that opens the next group (implied end of the previous one).
    begin_pending: Option<u64>,
    failed: bool,
}

impl<R: Read> GroupReader<R> {
    pub fn new(r: R, opts: ParserOptions) -> Self {
        GroupReader {
            items: ItemReader::new(r, opts.params),
            opts,
            peeked: None,
            next_index: 0,
            keep_items: false,
            begin_pending: None,
            failed: false,
        }
    }

    /// Bytes consumed so far.
    pub fn offset(&self) -> u64 {
        self.items.offset()
    }

    #[inline(always)]
    fn next_raw(&mut self) -> Result<Option<(u64, Item)>, (u64, ErrorKind)> {
        if let Some(p) = self.peeked.take() {
            return Ok(Some(p));
        }
        self.items.next_item()
    }

    /// Read the next unit into `g`. `Ok(false)` at the end of the stream. After an error the
    /// reader returns the same error again.
    pub fn next_group(&mut self, g: &mut Group) -> Result<bool, ParseError> {
        if self.failed {
            return Err(ParseError {
                offset: self.items.offset(),
                group: self.next_index,
                kind: ErrorKind::Io("the stream is unusable after the previous error".into()),
            });
        }
        let r = self.read_unit(g);
        if r.is_err() {
            self.failed = true;
        }
        r
    }

    fn fail(&self, offset: u64, kind: ErrorKind) -> ParseError {
        ParseError {
            offset,
            group: self.next_index,
            kind,
        }
    }

    /// The common case, fast: a whole group in the window, well formed. `None` when the
    /// careful item-by-item path must decide (errors, items outside groups, a group that
    /// does not fit, an end group implied earlier).
    #[inline(always)]
    fn fast_group(&mut self, g: &mut Group) -> Option<bool> {
        if self.keep_items || self.peeked.is_some() || self.begin_pending.is_some() {
            return None;
        }
        let it = &mut self.items;
        if it.end - it.start < FAST_WINDOW && !it.eof {
            it.fill_to(FAST_WINDOW).ok()?;
        }
        let b = &it.buf[it.start..it.end];
        if b.first() != Some(&BEGIN_GROUP) {
            return None;
        }
        let params = it.params;
        let mut i = 1;
        let mut n = 0;
        let mut pending = None;
        loop {
            if i + 18 > b.len() && !it.eof {
                return None;
            }
            match b.get(i) {
                Some(&END_GROUP) => {
                    i += 1;
                    break;
                }
                Some(&BEGIN_GROUP) => {
                    if n == 0 || self.opts.strict_groups {
                        return None;
                    }
                    break;
                }
                None => return None,
                _ => {}
            }
            n += 1;
            if n > self.opts.max_group_items {
                return None;
            }
            // The common items are folded straight into the group (one dispatch per
            // item); the rest go through `parse_item` and `add`.
            let x = &b[i..];
            let op = x[0];
            match op {
                FULL_REG if x.len() >= 11 => {
                    let addr = u16::from_le_bytes([x[1], x[2]]);
                    let k = params.reg_bytes(addr);
                    let value = le(&x[3..], k);
                    if g.regs.iter().any(|r| r.addr == addr) {
                        add(g, Item::FullReg { addr, value }).ok()?;
                    } else {
                        g.regs.push(RegUpdate {
                            addr,
                            op: RegOp::Full(value),
                        });
                    }
                    i += 3 + k;
                    pending = None;
                    continue;
                }
                op @ (INSN32 | INSN16) if g.insn.is_none() => {
                    let len = if op == INSN32 { 4 } else { 2 };
                    if x.len() > len {
                        g.insn = Some(RawInsn {
                            bits: le(&x[1..], len) as u32,
                            len: len as u8,
                        });
                        i += 1 + len;
                        pending = None;
                        continue;
                    }
                }
                ADDL_STATE if x.len() >= 10 => {
                    let id = x[1];
                    let field = match id {
                        ADDL_PC => &mut g.pc,
                        ADDL_EADDR => &mut g.eaddr,
                        _ => &mut None,
                    };
                    let k = if id == ADDL_PC {
                        params.xbytes()
                    } else {
                        params.mbytes()
                    };
                    if field.is_none() && (id == ADDL_PC || id == ADDL_EADDR) {
                        *field = Some(le(&x[2..], k));
                        i += 2 + k;
                        pending = None;
                        continue;
                    }
                }
                INCR_PC => {
                    g.incr_pc = true;
                    i += 1;
                    pending = None;
                    continue;
                }
                _ => {}
            }
            let (item, len) = parse_item(x, &params, pending).ok()?;
            pending = match item {
                Item::MemReq(r) => Some((r.op, r.size)),
                _ => None,
            };
            add(g, item).ok()?;
            i += len;
        }
        if check(g).is_err() {
            return None;
        }
        g.grouped = true;
        g.offset = it.offset;
        g.end = it.offset + i as u64;
        it.start += i;
        it.offset += i as u64;
        it.pending_req = None;
        self.next_index += 1;
        Some(true)
    }

    fn read_unit(&mut self, g: &mut Group) -> Result<bool, ParseError> {
        g.clear();
        g.index = self.next_index;
        if let Some(r) = self.fast_group(g) {
            return Ok(r);
        }
        g.clear();
        g.index = self.next_index;
        // The first item: a begin group, or a lone item.
        let first = match self.begin_pending.take() {
            Some(off) => Some((off, Item::BeginGroup)),
            None => self.next_raw().map_err(|(o, k)| self.fail(o, k))?,
        };
        let Some((off, item)) = first else {
            return Ok(false);
        };
        g.offset = off;
        if self.keep_items {
            g.items.push((off, item));
        }
        match item {
            Item::BeginGroup => {
                g.grouped = true;
                let mut n = 0usize;
                loop {
                    let Some((o, it)) = self.next_raw().map_err(|(o, k)| self.fail(o, k))? else {
                        return Err(self.fail(self.items.offset(), ErrorKind::UnterminatedGroup));
                    };
                    match it {
                        Item::EndGroup => {
                            if self.keep_items {
                                g.items.push((o, it));
                            }
                            g.end = o + 1;
                            break;
                        }
                        Item::BeginGroup => {
                            if n == 0 || self.opts.strict_groups {
                                return Err(self.fail(o, ErrorKind::NestedBeginGroup));
                            }
                            // An end group implied by this begin group.
                            self.begin_pending = Some(o);
                            g.end = o;
                            break;
                        }
                        _ => {
                            n += 1;
                            if n > self.opts.max_group_items {
                                return Err(self
                                    .fail(o, ErrorKind::GroupTooLarge(self.opts.max_group_items)));
                            }
                            if self.keep_items {
                                g.items.push((o, it));
                            }
                            add(g, it).map_err(|k| self.fail(o, k))?;
                        }
                    }
                }
            }
            Item::EndGroup => return Err(self.fail(off, ErrorKind::EndOutsideGroup)),
            _ => {
                // An item outside any group; a request takes its response with it.
                add(g, item).map_err(|k| self.fail(off, k))?;
                g.end = self.items.offset();
                if let Item::MemReq(_) = item {
                    match self.next_raw().map_err(|(o, k)| self.fail(o, k))? {
                        Some((o, rsp @ Item::MemRsp(_))) => {
                            if self.keep_items {
                                g.items.push((o, rsp));
                            }
                            add(g, rsp).map_err(|k| self.fail(o, k))?;
                            g.end = self.items.offset();
                        }
                        other => self.peeked = other,
                    }
                }
            }
        }
        check(g).map_err(|k| self.fail(g.offset, k))?;
        self.next_index += 1;
        Ok(true)
    }
}

/// Fold one item into the group, as the parser does: a live front door (the plugin's
/// `step_check`) builds its groups through this, so they mean what a stream's would.
#[inline(always)]
pub fn add(g: &mut Group, item: Item) -> Result<(), ErrorKind> {
    fn set<T: PartialEq + Copy>(f: &mut Option<T>, v: T, what: &str) -> Result<(), ErrorKind> {
        match f {
            Some(old) if *old != v => Err(ErrorKind::Ambiguous(what.into())),
            _ => {
                *f = Some(v);
                Ok(())
            }
        }
    }
    match item {
        Item::BeginGroup | Item::EndGroup => {}
        Item::IncrPc => g.incr_pc = true,
        Item::FullReg { addr, value } => {
            for r in &g.regs {
                if r.addr == addr && r.op != RegOp::Full(value) {
                    return Err(ErrorKind::Ambiguous(format!("register 0x{addr:04x}")));
                }
            }
            if g.regs.iter().all(|r| r.addr != addr) {
                g.regs.push(RegUpdate {
                    addr,
                    op: RegOp::Full(value),
                });
            }
        }
        Item::IncrRegAdd { addr, delta } => push_incr(g, addr, RegOp::Add(delta))?,
        Item::IncrRegOr { addr, mask } => push_incr(g, addr, RegOp::Or(mask))?,
        Item::Addl(a) => match a {
            Addl::Priv(v) => set(&mut g.prv, v, "privilege")?,
            Addl::Paddr(v) => set(&mut g.paddr, v, "physical address")?,
            Addl::Eaddr(v) => set(&mut g.eaddr, v, "effective address")?,
            Addl::StoreData(s, v) => set(&mut g.store_data, (s, v), "store data")?,
            Addl::Mtime(v) => set(&mut g.mtime, v, "mtime")?,
            Addl::PcPaddr(v) => set(&mut g.pc_paddr, v, "pc physical address")?,
            Addl::Pc(v) => set(&mut g.pc, v, "pc")?,
        },
        Item::MemReq(req) => g.mem.push(MemTxn { req, rsp: None }),
        Item::MemRsp(rsp) => match g.mem.last_mut() {
            Some(t) if t.rsp.is_none() => t.rsp = Some(rsp),
            _ => return Err(ErrorKind::ResponseWithoutRequest),
        },
        Item::HartReset => g.reset = true,
        Item::StateInit => g.state_init = true,
        Item::Insn16(b) => {
            if g.insn.is_some() {
                return Err(ErrorKind::TwoInstructions);
            }
            g.insn = Some(RawInsn {
                bits: b as u32,
                len: 2,
            });
        }
        Item::Insn32(b) => {
            if g.insn.is_some() {
                return Err(ErrorKind::TwoInstructions);
            }
            g.insn = Some(RawInsn { bits: b, len: 4 });
        }
    }
    Ok(())
}

fn push_incr(g: &mut Group, addr: u16, op: RegOp) -> Result<(), ErrorKind> {
    if g.regs
        .iter()
        .any(|r| r.addr == addr && matches!(r.op, RegOp::Full(_)))
    {
        return Err(ErrorKind::Ambiguous(format!("register 0x{addr:04x}")));
    }
    g.regs.push(RegUpdate { addr, op });
    Ok(())
}

/// The rules that need the whole group.
pub fn check(g: &Group) -> Result<(), ErrorKind> {
    if g.incr_pc && g.insn.is_none() {
        return Err(ErrorKind::IncrPcWithoutInsn);
    }
    if g.state_init && (g.insn.is_some() || g.reset) {
        return Err(ErrorKind::StateInitCombined);
    }
    Ok(())
}

/// Parse a whole byte slice into items (tests, small inputs).
pub fn parse_items(bytes: &[u8], params: Params) -> Result<Vec<(u64, Item)>, ParseError> {
    let mut r = ItemReader::new(bytes, params);
    let mut out = Vec::new();
    loop {
        match r.next_item() {
            Ok(Some(i)) => out.push(i),
            Ok(None) => return Ok(out),
            Err((offset, kind)) => {
                return Err(ParseError {
                    offset,
                    group: 0,
                    kind,
                })
            }
        }
    }
}

/// Parse a whole byte slice into groups (tests, small inputs).
pub fn parse_groups(bytes: &[u8], opts: ParserOptions) -> Result<Vec<Group>, ParseError> {
    let mut r = GroupReader::new(bytes, opts);
    r.keep_items = true;
    let mut out = Vec::new();
    loop {
        let mut g = Group::default();
        if !r.next_group(&mut g)? {
            return Ok(out);
        }
        out.push(g);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn groups(b: &[u8]) -> Result<Vec<Group>, ParseError> {
        parse_groups(b, ParserOptions::default())
    }

    fn err(b: &[u8]) -> ParseError {
        groups(b).expect_err("malformed")
    }

    #[test]
    fn implicit_end_group() {
        // 01 03 10 <c.nop> 01 07 0a <pc> 10 <c.nop> 02
        let mut b = vec![1, 3, 0x10, 1, 0];
        b.extend([1, 7, 0x0a, 8, 0, 0, 0x80, 0, 0, 0, 0, 0x10, 1, 0, 2]);
        let g = groups(&b).unwrap();
        assert_eq!(g.len(), 2);
        assert!(g[0].incr_pc && g[0].insn == Some(RawInsn { bits: 1, len: 2 }));
        assert_eq!((g[0].offset, g[0].end), (0, 5));
        assert_eq!(g[1].pc, Some(0x8000_0008));
        assert_eq!((g[1].index, g[1].offset, g[1].end), (1, 5, 20));
    }

    #[test]
    fn items_outside_groups() {
        // A register write, then a request with its response, then a group.
        let mut b = vec![4, 0x05, 0x10, 1, 0, 0, 0, 0, 0, 0, 0];
        b.extend([8, 0, 0x10, 0, 0x80, 0, 0, 0, 0, 0x20]); // load word
        b.extend([9, 0x02, 0xef, 0xbe, 0xad, 0xde]);
        b.extend([1, 10, 2]);
        let g = groups(&b).unwrap();
        assert_eq!(g.len(), 3);
        assert!(!g[0].grouped && g[0].regs.len() == 1);
        assert_eq!(g[1].mem.len(), 1);
        assert_eq!(g[1].mem[0].rsp.and_then(|r| r.data), Some(0xdead_beef));
        assert!(g[2].grouped && g[2].reset);
    }

    #[test]
    fn malformed() {
        use ErrorKind::*;
        let e = err(&[1, 2, 0x13]);
        assert_eq!((e.offset, e.group, e.kind), (2, 1, UnknownOpcode(0x13)));
        assert_eq!(err(&[1, 7, 11, 0, 2]).kind, UnknownAddlState(11));
        assert_eq!(
            err(&[1, 4, 0x01, 0x10, 1, 2]).kind,
            Truncated {
                opcode: 4,
                needed: 11,
                available: 5
            }
        );
        assert_eq!(err(&[1, 1]).kind, NestedBeginGroup);
        assert_eq!(err(&[1, 2, 2]).kind, EndOutsideGroup);
        assert_eq!(err(&[1, 3, 2]).kind, IncrPcWithoutInsn);
        assert_eq!(err(&[1, 11, 0x10, 1, 0, 2]).kind, StateInitCombined);
        assert_eq!(err(&[1, 0x10, 1, 0, 0x10, 1, 0, 2]).kind, TwoInstructions);
        assert_eq!(err(&[1, 7, 1, 2, 2]).kind, InvalidPriv(2));
        assert_eq!(err(&[1, 9, 0, 2]).kind, ResponseWithoutRequest);
        assert_eq!(
            err(&[1, 7, 1, 3, 7, 1, 0, 2]).kind,
            Ambiguous("privilege".into())
        );
        assert_eq!(err(&[1, 0x10, 1, 0]).kind, UnterminatedGroup);
        let mut req = vec![1, 8];
        req.extend([0; 8]);
        req.push(0x4e);
        assert_eq!(err(&req).kind, InvalidMemOp(14));
        // Strict: any begin inside a group is nested.
        let opts = ParserOptions {
            strict_groups: true,
            ..Default::default()
        };
        let e = parse_groups(&[1, 0x10, 1, 0, 1, 2], opts).unwrap_err();
        assert_eq!((e.offset, e.kind), (4, NestedBeginGroup));
    }

    #[test]
    fn dispatch_agrees_with_the_registry() {
        for op in 0..=255u8 {
            let mut b = vec![op];
            b.extend([0u8; 40]);
            let r = parse_item(&b, &Params::RV64GC, Some((MemOp::Load, MemSize::B8)));
            let unknown = matches!(r, Err(ErrorKind::UnknownOpcode(_)));
            assert_eq!(unknown, opcode(op).is_none(), "opcode {op}");
            if let Ok((item, len)) = r {
                assert_eq!(item.opcode(), op);
                let expect = match opcode(op).unwrap().payload {
                    Payload::None => 1,
                    Payload::FullReg => 11,
                    Payload::IncrReg => 4,
                    Payload::AddlState => len, // identifier 0 is unknown: not reached
                    Payload::MemReq => 10,
                    Payload::MemRsp => 3,
                    Payload::Insn16 => 3,
                    Payload::Insn32 => 5,
                };
                assert_eq!(len, expect, "opcode {op}");
            }
        }
    }

    #[test]
    fn same_value_twice_is_not_ambiguous() {
        let w = [4u8, 3, 0x10, 1, 0, 0, 0, 0, 0, 0, 0];
        let mut b = vec![1];
        b.extend(w);
        b.extend(w);
        b.push(2);
        let g = groups(&b).unwrap();
        assert_eq!(g[0].regs.len(), 1);
    }
}
