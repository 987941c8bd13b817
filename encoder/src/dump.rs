//! The N-Trace dump: a byte stream as text, one line per message ([`dump`]), or one line per
//! byte as the reference dump tool prints it ([`dump_raw`]).
//!
//! A message line holds the byte offset of the message, its TCODE number and name, SRC if the
//! format has it, every field in hex (address fields also as the address, field << 1; for
//! U-ADDR the target too when an F-ADDR of the same SRC came before), then TSTAMP. Idle bytes
//! are skipped. A malformed message (or stray bytes) gives a line with its offset and the
//! error, and the dump goes on with the next message.

use crate::decoder::{peek_src, Frame, Framer};
use crate::msg::{self, Body, Format, Kind, Message};
use std::collections::HashMap;
use std::io::{self, Write};

/// What a dump saw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DumpStats {
    /// Messages (well-formed or not).
    pub messages: u64,
    /// Malformed messages, unknown TCODEs and stray bytes.
    pub errors: u64,
}

/// The frames of a whole stream, in order, owned.
enum Item {
    Message { offset: u64, bytes: Vec<u8> },
    Error { offset: u64, message: String },
}

fn frames(bytes: &[u8]) -> Vec<Item> {
    let mut v = Vec::new();
    let mut fr = Framer::new();
    let mut take = |f: Frame<'_>| match f {
        Frame::Message { offset, bytes } => v.push(Item::Message {
            offset,
            bytes: bytes.to_vec(),
        }),
        Frame::Error { offset, message } => v.push(Item::Error { offset, message }),
    };
    fr.push(bytes, &mut take);
    fr.finish(&mut take);
    v
}

/// The fields of a parsed message in layout order: name, kind, value (conditional fields only
/// when present).
fn fields(m: &Message) -> Vec<(&'static str, Kind, u64)> {
    let values = m.body.values();
    match msg::layout(m.body.tcode()) {
        Some(l) => {
            let mut v = Vec::with_capacity(values.len());
            let mut vi = 0;
            for (i, (name, kind)) in l.fields.iter().enumerate() {
                if !msg::conditional(l.tcode, i, &values) {
                    continue;
                }
                if let Some(&x) = values.get(vi) {
                    v.push((*name, *kind, x));
                }
                vi += 1;
            }
            v
        }
        None => values.into_iter().map(|x| ("DATA", Kind::Var, x)).collect(),
    }
}

/// Dumps `bytes` (a whole stream), one line per message.
pub fn dump(bytes: &[u8], f: &Format, out: &mut impl Write) -> io::Result<DumpStats> {
    let mut st = DumpStats::default();
    // The address reference of each SRC, once an F-ADDR has set it.
    let mut refs: HashMap<u16, u64> = HashMap::new();
    for item in frames(bytes) {
        match item {
            Item::Error { offset, message } => {
                st.errors += 1;
                writeln!(out, "{offset:#010x}    ERROR: {message}")?;
            }
            Item::Message { offset, bytes } => {
                st.messages += 1;
                let m = match msg::parse(&bytes, f) {
                    Ok(m) => m,
                    Err(e) => {
                        st.errors += 1;
                        let tcode = bytes[0] >> 2;
                        let name = msg::layout(tcode).map_or("Unknown", |l| l.name);
                        writeln!(
                            out,
                            "{offset:#010x} {tcode:2} {name:<22} ERROR: {e} (bytes {})",
                            hex_bytes(&bytes)
                        )?;
                        if f.src_bits > 0 {
                            if let Some(src) = peek_src(&bytes, f.src_bits) {
                                refs.remove(&src);
                            }
                        }
                        continue;
                    }
                };
                let tcode = m.body.tcode();
                let mut line = format!("{offset:#010x} {tcode:2} {:<22}", m.body.name());
                if f.src_bits > 0 {
                    line += &format!(" SRC={:#x}", m.src);
                }
                for (name, kind, v) in fields(&m) {
                    line += &format!(" {name}={v:#x}");
                    if kind == Kind::Addr {
                        let a = v << 1;
                        if name == "FADDR" {
                            line += &format!(" ({a:#x})");
                            refs.insert(m.src, a);
                        } else if let Some(r) = refs.get_mut(&m.src) {
                            *r ^= a;
                            line += &format!(" (^{a:#x} = {:#x})", *r);
                        } else {
                            line += &format!(" (^{a:#x})");
                        }
                    }
                }
                if let Some(t) = m.tstamp {
                    line += &format!(" TSTAMP={t:#x}");
                }
                if let Body::Other { .. } = m.body {
                    st.errors += 1;
                    line += "  ERROR: not an N-Trace instruction trace message";
                }
                writeln!(out, "{line}")?;
            }
        }
    }
    Ok(st)
}

fn hex_bytes(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `0xNN mmmmmm_ss:` as the reference tool prints a byte.
fn raw_byte(b: u8) -> String {
    format!("{b:#04X} {:06b}_{:02b}:", b >> 2, b & 3).replace("0X", "0x")
}

/// For each byte of a well-formed message, the fields that end in it (`NAME[bits]=0xV`).
fn annotate(bytes: &[u8], f: &Format, m: &Message, index: u64) -> Vec<Vec<String>> {
    let mut notes = vec![Vec::new(); bytes.len()];
    let mut note = |i: usize, s: String| {
        if let Some(n) = notes.get_mut(i) {
            n.push(s);
        }
    };
    note(
        0,
        format!(
            "TCODE[6]={} (MSG #{index}) - {}",
            m.body.tcode(),
            m.body.name()
        ),
    );
    // The next bit: byte i, MDO bit `bit`.
    let (mut i, mut bit) = (1usize, 0u32);
    let mut fixed = |i: &mut usize, bit: &mut u32, name: &str, n: u32, v: u64| {
        let last = *i + ((*bit + n - 1) / 6) as usize;
        note(last, format!("{name}[{n}]={v:#X}").replace("0X", "0x"));
        let total = *bit + n;
        *i += (total / 6) as usize;
        *bit = total % 6;
    };
    let mut vars: Vec<(usize, String)> = Vec::new();
    let mut var = |i: &mut usize, bit: &mut u32, name: &str, v: u64| {
        let mut nbits = 6 - *bit;
        let mut j = *i;
        while j < bytes.len() && bytes[j] & 3 == 0 {
            j += 1;
            nbits += 6;
        }
        vars.push((j, format!("{name}[{nbits}]={v:#X}").replace("0X", "0x")));
        *i = j + 1;
        *bit = 0;
    };
    if f.src_bits > 0 {
        fixed(&mut i, &mut bit, "SRC", f.src_bits as u32, m.src as u64);
    }
    for (name, kind, v) in fields(m) {
        match kind {
            Kind::Fixed(n) => fixed(&mut i, &mut bit, name, n as u32, v),
            Kind::Var | Kind::Addr => var(&mut i, &mut bit, name, v),
        }
    }
    if let Some(t) = m.tstamp {
        var(&mut i, &mut bit, "TSTAMP", t);
    }
    for (j, s) in vars {
        if let Some(n) = notes.get_mut(j) {
            n.push(s);
        }
    }
    notes
}

/// Dumps `bytes` one byte per line, as the reference dump tool does: `0xNN mmmmmm_ss:` and
/// the fields that end in that byte; a blank line between messages; `IDLE` for a run of idle
/// bytes.
pub fn dump_raw(bytes: &[u8], f: &Format, out: &mut impl Write) -> io::Result<DumpStats> {
    let mut st = DumpStats::default();
    let mut at = 0usize;
    let gap = |out: &mut dyn Write, from: usize, to: usize| -> io::Result<()> {
        let mut k = from;
        while k < to {
            if bytes[k] == 0xff {
                writeln!(out, "{} IDLE", raw_byte(0xff))?;
                while k < to && bytes[k] == 0xff {
                    k += 1;
                }
            } else {
                writeln!(out, "{} (skipped)", raw_byte(bytes[k]))?;
                k += 1;
            }
        }
        Ok(())
    };
    for item in frames(bytes) {
        match item {
            Item::Error { offset, message } => {
                st.errors += 1;
                let o = (offset as usize).min(bytes.len());
                if o >= at {
                    gap(out, at, o)?;
                    at = o;
                }
                writeln!(out, "ERROR at offset {offset:#x}: {message}")?;
            }
            Item::Message { offset, bytes: mb } => {
                let o = offset as usize;
                if o > at {
                    gap(out, at, o)?;
                }
                at = o + mb.len();
                let parsed = msg::parse(&mb, f);
                let notes = match &parsed {
                    Ok(m) => annotate(&mb, f, m, st.messages),
                    Err(_) => vec![Vec::new(); mb.len()],
                };
                st.messages += 1;
                for (k, b) in mb.iter().enumerate() {
                    let mut line = raw_byte(*b);
                    for n in &notes[k] {
                        line.push(' ');
                        line += n;
                    }
                    writeln!(out, "{line}")?;
                }
                match parsed {
                    Err(e) => {
                        st.errors += 1;
                        writeln!(out, "ERROR at offset {offset:#x}: {e}")?;
                    }
                    Ok(m) if matches!(m.body, Body::Other { .. }) => {
                        st.errors += 1;
                        writeln!(
                            out,
                            "ERROR at offset {offset:#x}: TCODE {} is not an N-Trace \
                             instruction trace message",
                            m.body.tcode()
                        )?;
                    }
                    Ok(_) => {}
                }
                writeln!(out)?;
            }
        }
    }
    if at < bytes.len() {
        gap(out, at, bytes.len())?;
    }
    Ok(st)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::msg::to_bytes;

    /// The reference code's example trace (`refcode/c/examples/t1/output/test-NEX.bin` of the
    /// N-Trace task group's repository), rebuilt byte for byte from its `test-DUMP.txt`: HTM,
    /// no SRC, no timestamps; 485 messages in 4906 bytes. Its HIST fields use the polarity
    /// from before the errata, so only its framing and field values are checked here.
    const T1: &[u8] = include_bytes!("../testdata/t1-NEX.bin");

    fn text(f: impl FnOnce(&mut Vec<u8>) -> io::Result<DumpStats>) -> (String, DumpStats) {
        let mut v = Vec::new();
        let st = f(&mut v).unwrap();
        (String::from_utf8(v).unwrap(), st)
    }

    #[test]
    fn reference_example_dumps_without_errors() {
        let (t, st) = text(|o| dump(T1, &Format::default(), o));
        assert_eq!(
            st,
            DumpStats {
                messages: 485,
                errors: 0
            }
        );
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), 485);
        assert_eq!(
            lines[0],
            "0x00000000  9 ProgTraceSync          SYNC=0x1 ICNT=0x0 FADDR=0x10008291 (0x20010522)"
        );
        assert_eq!(
            lines[1],
            "0x00000007 28 IndirectBranchHist     BTYPE=0x0 ICNT=0x258 UADDR=0x3cf (^0x79e = \
             0x200102bc) HIST=0xd5528000"
        );
        assert!(
            lines[338].contains("30 RepeatBranch           BCNT=0x1"),
            "{}",
            lines[338]
        );
        assert!(
            lines[335].contains("BTYPE=0x0 ICNT=0xf UADDR=0x309"),
            "{}",
            lines[335]
        );
        assert!(
            lines[484]
                .starts_with("0x00001324 28 IndirectBranchHist     BTYPE=0x0 ICNT=0x11 UADDR=0x72"),
            "{}",
            lines[484]
        );
        assert!(lines[484].ends_with("HIST=0x3"), "{}", lines[484]);
        // Every message parses in any chunking of the decoder's framer too.
        let mut fr = Framer::new();
        let mut n = 0;
        for c in T1.chunks(7) {
            fr.push(c, |f| {
                assert!(matches!(f, Frame::Message { .. }));
                n += 1;
            });
        }
        assert_eq!(n, 485);
    }

    #[test]
    fn reference_example_raw_dump_matches_the_reference_tool() {
        let (t, st) = text(|o| dump_raw(T1, &Format::default(), o));
        assert_eq!(st.errors, 0);
        let want = "\
0x24 001001_00: TCODE[6]=9 (MSG #0) - ProgTraceSync
0x05 000001_01: SYNC[4]=0x1 ICNT[2]=0x0
0x44 010001_00:
0x28 001010_00:
0x20 001000_00:
0x00 000000_00:
0x43 010000_11: FADDR[30]=0x10008291

0x70 011100_00: TCODE[6]=28 (MSG #1) - IndirectBranchHist
0x80 100000_00: BTYPE[2]=0x0
0x95 100101_01: ICNT[10]=0x258
0x3C 001111_00:
0x3D 001111_01: UADDR[12]=0x3CF
0x00 000000_00:
0x00 000000_00:
0xA0 101000_00:
0x50 010100_00:
0x54 010101_00:
0x0F 000011_11: HIST[36]=0xD5528000
";
        assert!(t.starts_with(want), "{}", &t[..want.len() + 200]);
        assert!(t.contains(
            "0x70 011100_00: TCODE[6]=28 (MSG #335) - IndirectBranchHist\n\
             0xF1 111100_01: BTYPE[2]=0x0 ICNT[4]=0xF\n\
             0x24 001001_00:\n\
             0x31 001100_01: UADDR[12]=0x309\n\
             0x07 000001_11: HIST[6]=0x1\n"
        ));
        assert!(t.contains(
            "0x78 011110_00: TCODE[6]=30 (MSG #338) - RepeatBranch\n0x07 000001_11: BCNT[6]=0x1\n"
        ));
        assert!(t.ends_with("0x0F 000011_11: HIST[6]=0x3\n\n"));
    }

    fn m(src: u16, body: Body, tstamp: Option<u64>) -> Message {
        Message { src, body, tstamp }
    }

    #[test]
    fn src_timestamps_addresses_and_errors() {
        let f = Format {
            src_bits: 4,
            timestamps: true,
            extend_addr_msb: true,
        };
        let mut b = vec![0xff, 0xff];
        b.extend(to_bytes(
            &m(
                3,
                Body::IndirectBranchHistSync {
                    sync: 2,
                    btype: 2,
                    icnt: 5,
                    faddr: 0x7fff_ffff_c000_0000,
                    hist: 0b101,
                },
                Some(0x1234),
            ),
            &f,
        ));
        b.extend(to_bytes(
            &m(
                3,
                Body::IndirectBranch {
                    btype: 0,
                    icnt: 3,
                    uaddr: 0x8,
                },
                Some(5),
            ),
            &f,
        ));
        let bad = b.len();
        b.extend([60 << 2, 0x07]); // an unknown TCODE
        let bad2 = b.len();
        b.extend([0x0c, 0x02, 0x03]); // MSEO 10 inside a DirectBranch
        let cut = b.len();
        b.extend([0x70, 0x03]); // IndirectBranchHist cut short
        b.extend(to_bytes(
            &m(
                1,
                Body::Ownership {
                    process: (5 << 5) | (1 << 2) | 2,
                },
                Some(1),
            ),
            &f,
        ));
        let (t, st) = text(|o| dump(&b, &f, o));
        assert_eq!(
            st,
            DumpStats {
                messages: 5,
                errors: 3
            }
        );
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(
            lines[0],
            "0x00000002 29 IndirectBranchHistSync SRC=0x3 SYNC=0x2 BTYPE=0x2 ICNT=0x5 \
             FADDR=0x7fffffffc0000000 (0xffffffff80000000) HIST=0x5 TSTAMP=0x1234"
        );
        assert!(lines[1].ends_with(
            "4 IndirectBranch         SRC=0x3 BTYPE=0x0 ICNT=0x3 UADDR=0x8 (^0x10 = \
             0xffffffff80000010) TSTAMP=0x5"
        ));
        assert_eq!(
            lines[2],
            format!(
                "{bad:#010x} 60 Unknown                SRC=0x1 DATA=0x0  ERROR: not an N-Trace \
                 instruction trace message"
            )
        );
        assert!(
            lines[3].starts_with(&format!("{bad2:#010x}    ERROR:")),
            "{}",
            lines[3]
        );
        assert!(lines[3].contains("reserved MSEO 10"));
        assert!(
            lines[4].starts_with(&format!("{cut:#010x} 28 IndirectBranchHist     ERROR:")),
            "{}",
            lines[4]
        );
        assert!(lines[5].contains("2 Ownership              SRC=0x1 PROCESS=0xa6 TSTAMP=0x1"));
        // Raw: idle bytes once, then the fields, the errors after their bytes.
        let (r, st) = text(|o| dump_raw(&b, &f, o));
        assert_eq!(st.errors, 3);
        assert!(r.starts_with("0xFF 111111_11: IDLE\n0x74 011101_00: TCODE[6]=29 (MSG #0) - IndirectBranchHistSync\n"), "{r}");
        assert!(r.contains("SRC[4]=0x3"), "{r}");
        assert!(
            r.contains(&format!("ERROR at offset {bad:#x}: TCODE 60")),
            "{r}"
        );
        assert!(r.contains("TSTAMP[18]=0x1234"), "{r}");
    }

    #[test]
    fn garbage_never_panics() {
        let mut x = 0x1234_5678_9abc_def0u64;
        let mut b = Vec::new();
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            b.push(x as u8);
        }
        for f in [
            Format::default(),
            Format {
                src_bits: 7,
                timestamps: true,
                extend_addr_msb: true,
            },
        ] {
            let (t, st) = text(|o| dump(&b, &f, o));
            assert!(st.errors > 0 && !t.is_empty());
            let (_, st) = text(|o| dump_raw(&b, &f, o));
            assert!(st.errors > 0);
        }
    }
}
