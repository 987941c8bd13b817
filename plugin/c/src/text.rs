//! Mismatches as text for people: a block per mismatch (`hs_mismatches_text`) or one line
//! (the SystemVerilog monitor's `$error`).

use plugin::{Mismatch, Retirement};
use std::fmt::Write;

/// The disassembly of `insn` at `pc` (its length from its low bits).
pub(crate) fn disasm(pc: u64, insn: u32) -> String {
    let len = if insn & 3 == 3 { 4 } else { 2 };
    Retirement {
        pc,
        insn: if len == 2 { insn & 0xffff } else { insn },
        len,
        ..Retirement::default()
    }
    .disasm()
}

/// `12, instruction at pc 0x0000000080000010: 00150513  addi a0,a0,1`
fn place(m: &Mismatch) -> String {
    let mut s = format!("retirement {}, {} at pc 0x{:016x}", m.group, m.kind, m.pc);
    match (&m.insn, &m.disasm) {
        (Some(i), Some(d)) => {
            let _ = write!(s, ": {i}  {d}");
        }
        (Some(i), None) => {
            let _ = write!(s, ": {i}");
        }
        _ => {}
    }
    s
}

/// ```text
/// mismatch at retirement 12, instruction at pc 0x0000000080000010: 00150513  addi a0,a0,1
///     x10/a0         expected 0x0000000000000005   actual 0x0000000000000006
/// ```
pub(crate) fn blocks(ms: &[Mismatch]) -> String {
    let mut s = String::new();
    for m in ms {
        let _ = writeln!(s, "mismatch at {}", place(m));
        if let Some(r) = &m.ref_insn {
            let _ = writeln!(s, "    the reference hart executed {r}");
        }
        for d in &m.diffs {
            let _ = writeln!(
                s,
                "    {:<14} expected {:<20} actual {}",
                d.element, d.expected, d.actual
            );
        }
    }
    s
}

/// One line: `retirement 12, instruction at pc 0x...: 00150513  addi a0,a0,1: x10/a0
/// expected 0x...5, actual 0x...6; ...`
pub(crate) fn line(m: &Mismatch) -> String {
    let mut s = place(m);
    if let Some(r) = &m.ref_insn {
        let _ = write!(s, " (the reference hart executed {r})");
    }
    for (i, d) in m.diffs.iter().enumerate() {
        let sep = if i == 0 { ": " } else { "; " };
        let _ = write!(
            s,
            "{sep}{} expected {}, actual {}",
            d.element, d.expected, d.actual
        );
    }
    s
}
