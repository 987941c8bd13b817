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

/// Dumps `bytes` (a whole stream), one line per message.
pub fn dump(bytes: &[u8], f: &Format, out: &mut impl Write) -> io::Result<DumpStats> {
    let mut d = Dumper::new(*f, false);
    d.feed(bytes, out)?;
    d.finish(out)
}

/// Dumps `bytes` one byte per line, as the reference dump tool does: `0xNN mmmmmm_ss:` and
/// the fields that end in that byte; a blank line between messages; `IDLE` for a run of idle
/// bytes.
pub fn dump_raw(bytes: &[u8], f: &Format, out: &mut impl Write) -> io::Result<DumpStats> {
    let mut d = Dumper::new(*f, true);
    d.feed(bytes, out)?;
    d.finish(out)
}

/// One framed item, owned (a message is at most [`crate::decoder::MAX_MESSAGE`] bytes).
enum Item {
    Message { offset: u64, bytes: Vec<u8> },
    Error { offset: u64, message: String },
}

/// The dump of a stream fed in chunks of any size ([`dump`] or, `raw`, [`dump_raw`]): its
/// memory is bounded (a chunk's frames and at most one partial message), and its output is
/// the same whatever the chunks.
pub struct Dumper {
    f: Format,
    raw: bool,
    framer: Framer,
    st: DumpStats,
    /// The address reference of each SRC, once an F-ADDR has set it.
    refs: HashMap<u16, u64>,
    /// Raw: the offset of the first byte not printed yet.
    at: u64,
    /// Raw: the bytes from `carry_at` to the end of the chunks fed so far that are not printed
    /// yet (the start of a message still being framed).
    carry: Vec<u8>,
    carry_at: u64,
    /// Raw: the last line printed was `IDLE` and idle bytes continue it.
    idle: bool,
}

impl Dumper {
    pub fn new(f: Format, raw: bool) -> Dumper {
        Dumper {
            f,
            raw,
            framer: Framer::new(),
            st: DumpStats::default(),
            refs: HashMap::new(),
            at: 0,
            carry: Vec::new(),
            carry_at: 0,
            idle: false,
        }
    }

    /// Dumps the next bytes of the stream.
    pub fn feed(&mut self, chunk: &[u8], out: &mut impl Write) -> io::Result<()> {
        let base = self.framer.pos();
        let mut items = Vec::new();
        self.framer.push(chunk, |fr| items.push(own(fr)));
        // The bytes not printed yet, from `carry_at`: the carry, then this chunk.
        let mut window = std::mem::take(&mut self.carry);
        if self.raw {
            debug_assert_eq!(self.carry_at + window.len() as u64, base);
            window.extend_from_slice(chunk);
        }
        for it in items {
            self.item(it, &window, out)?;
        }
        if self.raw {
            let end = base + chunk.len() as u64;
            let upto = self.framer.partial_start().unwrap_or(end).max(self.at);
            self.gap(&window, upto, out)?;
            let keep = (self.at - self.carry_at) as usize;
            self.carry = window.get(keep..).unwrap_or_default().to_vec();
            self.carry_at = self.at;
        }
        Ok(())
    }

    /// The end of the stream: a partial message is an error. Returns what the dump saw.
    pub fn finish(mut self, out: &mut impl Write) -> io::Result<DumpStats> {
        let mut items = Vec::new();
        self.framer.finish(|fr| items.push(own(fr)));
        let window = std::mem::take(&mut self.carry);
        for it in items {
            self.item(it, &window, out)?;
        }
        if self.raw {
            let end = self.carry_at + window.len() as u64;
            self.gap(&window, end, out)?;
        }
        Ok(self.st)
    }

    /// Raw: prints the bytes from `at` to `to` that are no message (idle or skipped);
    /// `window` holds the bytes from `carry_at`.
    fn gap(&mut self, window: &[u8], to: u64, out: &mut impl Write) -> io::Result<()> {
        while self.at < to {
            let b = window
                .get((self.at - self.carry_at) as usize)
                .copied()
                .unwrap_or(0xff);
            if b == 0xff {
                if !self.idle {
                    writeln!(out, "{} IDLE", raw_byte(0xff))?;
                    self.idle = true;
                }
            } else {
                writeln!(out, "{} (skipped)", raw_byte(b))?;
                self.idle = false;
            }
            self.at += 1;
        }
        Ok(())
    }

    fn item(&mut self, it: Item, window: &[u8], out: &mut impl Write) -> io::Result<()> {
        if self.raw {
            self.item_raw(it, window, out)
        } else {
            self.item_text(it, out)
        }
    }

    fn item_text(&mut self, it: Item, out: &mut impl Write) -> io::Result<()> {
        let f = &self.f;
        let st = &mut self.st;
        let refs = &mut self.refs;
        match it {
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
                        return Ok(());
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
        Ok(())
    }

    fn item_raw(&mut self, it: Item, window: &[u8], out: &mut impl Write) -> io::Result<()> {
        match it {
            Item::Error { offset, message } => {
                self.st.errors += 1;
                if offset >= self.at {
                    self.gap(window, offset, out)?;
                }
                self.idle = false;
                writeln!(out, "ERROR at offset {offset:#x}: {message}")?;
            }
            Item::Message { offset, bytes: mb } => {
                if offset > self.at {
                    self.gap(window, offset, out)?;
                }
                self.idle = false;
                self.at = offset + mb.len() as u64;
                let f = self.f;
                let parsed = msg::parse(&mb, &f);
                let notes = match &parsed {
                    Ok(m) => annotate(&mb, &f, m, self.st.messages),
                    Err(_) => vec![Vec::new(); mb.len()],
                };
                self.st.messages += 1;
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
                        self.st.errors += 1;
                        writeln!(out, "ERROR at offset {offset:#x}: {e}")?;
                    }
                    Ok(m) if matches!(m.body, Body::Other { .. }) => {
                        self.st.errors += 1;
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
        Ok(())
    }
}

fn own(f: Frame<'_>) -> Item {
    match f {
        Frame::Message { offset, bytes } => Item::Message {
            offset,
            bytes: bytes.to_vec(),
        },
        Frame::Error { offset, message } => Item::Error { offset, message },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::msg::{btype, sync, to_bytes};

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

    /// Fed in chunks of any size, the dump is the same as of the whole stream (both kinds),
    /// with idle runs, stray bytes, broken and partial messages crossing chunk boundaries.
    #[test]
    fn chunked_dumps_are_the_same() {
        let mut noisy = T1[..700].to_vec();
        noisy.extend([0xff; 5]);
        noisy.extend([0x01, 0x02, 0x07, 0xff, 0x10, 0x22, 0x33]);
        noisy.extend(&T1[700..900]);
        noisy.extend(std::iter::repeat_n(0x04, 200));
        noisy.extend([0x07, 0xff, 0xff, 0x24]);
        for bytes in [T1, &noisy[..]] {
            for raw in [false, true] {
                let mut whole = Vec::new();
                let st = if raw {
                    dump_raw(bytes, &Format::default(), &mut whole).unwrap()
                } else {
                    dump(bytes, &Format::default(), &mut whole).unwrap()
                };
                for chunk in [1, 2, 3, 7, 64, 1000] {
                    let mut d = Dumper::new(Format::default(), raw);
                    let mut got = Vec::new();
                    for c in bytes.chunks(chunk) {
                        d.feed(c, &mut got).unwrap();
                    }
                    assert_eq!(d.finish(&mut got).unwrap(), st);
                    assert!(
                        got == whole,
                        "raw {raw}, chunks of {chunk}: differs at byte {:?}",
                        got.iter().zip(&whole).position(|(a, b)| a != b)
                    );
                }
            }
        }
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
                    sync: sync::PERIODIC,
                    btype: btype::EXCEPTION,
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
                    btype: btype::INDIRECT,
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
