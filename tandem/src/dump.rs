//! `tandem dump`: one line per group, in stream order.
//!
//! ```text
//! #5      @0x00000060  0000000080000004  00004197  auipc gp,0x4        x3/gp=0x0000000080004000 pc=0x0000000080000008
//! ```
//!
//! The group's number and byte offset, the pc of its instruction (the next pc of the group
//! before, when the stream has said it), the instruction and its disassembly, then every
//! state change in stream order with register names (`x3/gp`, `f7/ft7`, `mstatus`).
//! Groups without an instruction are labelled (`reset`, `state-init`, `interrupt`,
//! `exception`, `update`); items outside groups are marked `(outside group)`.

use crate::group::Group;
use crate::item::{Addl, Item};
use crate::names::{disasm, priv_name, reg_name};
use crate::parser::{GroupReader, ParseError, ParserOptions};
use std::fmt::Write as _;
use std::io::{self, Read, Write};

/// How to dump.
#[derive(Clone, Copy, Debug, Default)]
pub struct DumpOptions {
    pub parser: ParserOptions,
    /// The pc before the first group (the program's entry), when known.
    pub start_pc: Option<u64>,
}

/// Why a dump stopped early: the input (malformed, or unreadable: [`ParseError`] says which,
/// with the byte offset and the group), or the output.
#[derive(Debug, thiserror::Error)]
pub enum DumpError {
    #[error("{}", .0.describe())]
    Parse(ParseError),
    #[error("cannot write the dump: {0}")]
    Output(io::Error),
}

/// Dump a whole stream. Returns the number of groups.
pub fn dump<R: Read, W: Write>(input: R, out: &mut W, opts: DumpOptions) -> Result<u64, DumpError> {
    let mut r = GroupReader::new(input, opts.parser);
    r.keep_items = true;
    let mut g = Group::default();
    let mut pc = opts.start_pc;
    let mut line = String::new();
    let mut n = 0;
    loop {
        match r.next_group(&mut g) {
            Ok(true) => {}
            Ok(false) => return Ok(n),
            Err(e) => {
                out.flush().map_err(DumpError::Output)?;
                return Err(DumpError::Parse(e));
            }
        }
        line.clear();
        pc = format_group(&g, pc, &mut line);
        line.push('\n');
        out.write_all(line.as_bytes()).map_err(DumpError::Output)?;
        n += 1;
    }
}

/// Format one group (no newline). Returns the pc after it, when known.
pub fn format_group(g: &Group, pc: Option<u64>, line: &mut String) -> Option<u64> {
    let _ = write!(line, "#{:<7} @0x{:08x}  ", g.index, g.offset);
    let label = if g.reset {
        Some("reset")
    } else if g.state_init {
        Some("state-init")
    } else if g.insn.is_some() {
        None
    } else if let Some(c) = g.full_reg(0x342).or_else(|| g.full_reg(0x142)) {
        Some(if c >> 63 != 0 {
            "interrupt"
        } else {
            "exception"
        })
    } else if g.is_empty() {
        Some("empty")
    } else {
        Some("update")
    };
    match pc {
        Some(p) => {
            let _ = write!(line, "{p:016x}  ");
        }
        None => line.push_str("               ?  "),
    }
    match (g.insn, label) {
        (Some(i), _) => {
            let bits = if i.len == 2 {
                format!("{:04x}    ", i.bits & 0xffff)
            } else {
                format!("{:08x}", i.bits)
            };
            let d = disasm(pc.unwrap_or(0), i.bits, i.len);
            let _ = write!(line, "{bits}  {d:<28}");
        }
        (None, Some(l)) => {
            let _ = write!(line, "{:<8}  {:<28}", "", l);
        }
        (None, None) => {}
    }
    if !g.grouped {
        line.push_str(" (outside group)");
    }
    let mut next = match (g.pc, g.incr_pc, g.insn) {
        (Some(p), _, _) => Some(p),
        (None, true, Some(i)) => pc.map(|p| p.wrapping_add(i.len as u64)),
        (None, _, Some(_)) => None,
        _ => pc,
    };
    for (_, it) in &g.items {
        match *it {
            Item::BeginGroup | Item::EndGroup | Item::HartReset | Item::StateInit => {}
            Item::Insn16(_) | Item::Insn32(_) => {}
            Item::IncrPc => line.push_str(" pc+=len"),
            Item::FullReg { addr, value } => {
                let _ = write!(line, " {}=0x{value:016x}", reg_name(addr));
            }
            Item::IncrRegAdd { addr, delta } => {
                let _ = write!(line, " {}+={delta}", reg_name(addr));
            }
            Item::IncrRegOr { addr, mask } => {
                let _ = write!(line, " {}|=0x{mask:02x}", reg_name(addr));
            }
            Item::Addl(a) => {
                let _ = match a {
                    Addl::Priv(p) => write!(line, " priv={}", priv_name(p)),
                    Addl::Paddr(v) => write!(line, " paddr=0x{v:x}"),
                    Addl::Eaddr(v) => write!(line, " eaddr=0x{v:x}"),
                    Addl::StoreData(s, v) => {
                        let d = 2 * s.bytes() as usize;
                        write!(line, " store{}=0x{v:0d$x}", 8 * s.bytes() as u32)
                    }
                    Addl::Mtime(v) => write!(line, " mtime={v}"),
                    Addl::PcPaddr(v) => write!(line, " pc-paddr=0x{v:x}"),
                    Addl::Pc(v) => write!(line, " pc=0x{v:016x}"),
                };
            }
            Item::MemReq(r) => {
                let _ = write!(
                    line,
                    " mem-req({} {}B @0x{:x}",
                    r.op.name(),
                    r.size.bytes(),
                    r.addr
                );
                if let Some(d) = r.data {
                    let _ = write!(line, " data=0x{d:x}");
                }
                line.push(')');
            }
            Item::MemRsp(r) => {
                let res = if r.result == crate::opcode::MemResult::Success {
                    "ok"
                } else {
                    "fail"
                };
                let _ = write!(line, " mem-rsp({res} {}B", r.size.bytes());
                if let Some(d) = r.data {
                    let _ = write!(line, " data=0x{d:x}");
                }
                line.push(')');
            }
        }
    }
    if g.state_init && g.pc.is_some() {
        next = g.pc;
    }
    let trimmed = line.trim_end().len();
    line.truncate(trimmed);
    next
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_per_group() {
        // Table C.1 (add gp, t0, t1), then C.2 (jr 256(sp)) with pc id 0x0a.
        let mut b = vec![1, 3, 0x11, 0xb3, 0x81, 0x62, 0x00, 4, 0x03, 0x10];
        b.extend(0x1234u64.to_le_bytes());
        b.push(2);
        b.extend([1, 7, 0x0a]);
        b.extend(0x0c00_0100u64.to_le_bytes());
        b.extend([0x11, 0x67, 0x00, 0x01, 0x10, 2]);
        let mut out = Vec::new();
        let opts = DumpOptions {
            start_pc: Some(0x8000_0000),
            ..Default::default()
        };
        assert_eq!(dump(&b[..], &mut out, opts).unwrap(), 2);
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[0].starts_with("#0       @0x00000000  0000000080000000  006281b3  add gp,t0,t1")
        );
        assert!(
            lines[0].ends_with("pc+=len x3/gp=0x0000000000001234"),
            "{}",
            lines[0]
        );
        assert!(
            lines[1].contains("0000000080000004  10010067  jr 256(sp)"),
            "{}",
            lines[1]
        );
        assert!(lines[1].ends_with("pc=0x000000000c000100"), "{}", lines[1]);
    }
}
