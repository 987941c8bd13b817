//! Writers of ingress-port beats for other tools: [`JsonlWriter`] (one JSON object per line),
//! [`VcdWriter`] (a waveform of the port's signals) and [`CsvWriter`] (the input of the E-Trace
//! reference encoder model). [`open_writer`] picks one by the file's extension.
//!
//! Each is a [`BeatSink`] over any [`Write`], buffered internally. A sink cannot fail while it
//! takes beats: the first error is kept, output stops at an I/O error, and
//! [`BeatSink::finish`] flushes and returns that first error. Nothing here panics on bad
//! output or bad input.

use iss::ingress::{Beat, BeatSink, DataBeat};
use serde::{Serialize, Serializer};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};
use vcd::{IdCode, SimulationCommand, TimescaleUnit, Value};

/// Buffer size of the writers.
const BUF: usize = 1 << 16;

/// The interrupt bit of xcause.
const CAUSE_INTERRUPT: u64 = arch::CAUSE_INTERRUPT;

/// Open `path` for beats, the format chosen by its extension: `.jsonl` or `.json`
/// ([`JsonlWriter`]), `.vcd` ([`VcdWriter`]), `.csv` ([`CsvWriter`]). `single`: the beats use
/// single retirement (`iretire` counts instructions), else blocks (`iretire` counts half-words).
///
/// The CSV needs single retirement: the E-Trace reference encoder model takes each row for one
/// instruction. `csv` is its [`CsvFlavour`] (ignored for the other formats).
pub fn open_writer(
    path: &Path,
    single: bool,
    csv: CsvFlavour,
) -> io::Result<Box<dyn BeatSink + Send>> {
    enum Format {
        Jsonl,
        Vcd,
        Csv,
    }
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase());
    let format = match ext.as_deref() {
        Some("jsonl") | Some("json") => Format::Jsonl,
        Some("vcd") => Format::Vcd,
        Some("csv") => Format::Csv,
        _ => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{}: unknown ingress beat format: the file name must end in .jsonl (or \
                     .json), .vcd or .csv",
                    path.display()
                ),
            ))
        }
    };
    if matches!(format, Format::Csv) && !single {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{}: the E-Trace reference encoder model's CSV takes one instruction per row: \
                 it needs single retirement (retires_p = 1), not blocks",
                path.display()
            ),
        ));
    }
    let f = File::create(path)
        .map_err(|e| io::Error::new(e.kind(), format!("cannot create {}: {e}", path.display())))?;
    Ok(match format {
        Format::Jsonl => Box::new(JsonlWriter::new(f)),
        Format::Vcd => Box::new(VcdWriter::new(f, single)),
        Format::Csv => Box::new(CsvWriter::with_flavour(f, csv)),
    })
}

/// The beats of a batch, each with the data accesses it owns. A beat that claims more data
/// accesses than the batch has left gets the ones there are.
fn split<'a>(
    beats: &'a [Beat],
    data: &'a [DataBeat],
) -> impl Iterator<Item = (&'a Beat, &'a [DataBeat])> + 'a {
    let mut pos = 0usize;
    beats.iter().map(move |b| {
        let start = pos.min(data.len());
        let end = (start + b.ndata as usize).min(data.len());
        pos = start + b.ndata as usize;
        (b, &data[start..end])
    })
}

fn short_batch(index: u64, b: &Beat, got: usize) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "beat {index} owns {} data accesses but the batch has only {got} left",
            b.ndata
        ),
    )
}

/// The first error a writer met. An I/O error stops the output; an error in the beats does not.
#[derive(Default)]
struct Errors {
    first: Option<io::Error>,
    io_failed: bool,
}

impl Errors {
    fn io(&mut self, r: io::Result<()>) {
        if let Err(e) = r {
            self.io_failed = true;
            self.first.get_or_insert(e);
        }
    }

    fn input(&mut self, e: io::Error) {
        self.first.get_or_insert(e);
    }

    /// Flush (unless the output already failed) and return the first error.
    fn finish(&mut self, flush: impl FnOnce() -> io::Result<()>) -> io::Result<()> {
        if !self.io_failed {
            let r = flush();
            self.io(r);
        }
        match self.first.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// What [`JsonlWriter`] and [`CsvWriter`] share: the output, the first error, and the index of
/// the next beat. Each writes a beat's line(s) in turn.
struct Lines<W: Write> {
    out: BufWriter<W>,
    errors: Errors,
    index: u64,
}

impl<W: Write> Lines<W> {
    fn new(out: W) -> Self {
        Lines {
            out: BufWriter::with_capacity(BUF, out),
            errors: Errors::default(),
            index: 0,
        }
    }

    /// Write each beat of a batch with `write` (unless the output already failed), and note a
    /// beat that owns more data accesses than the batch has left.
    fn beats(
        &mut self,
        beats: &[Beat],
        data: &[DataBeat],
        write: impl FnMut(&mut BufWriter<W>, &Beat, &[DataBeat]) -> io::Result<()>,
    ) {
        if !self.errors.io_failed {
            let r = self.batch(beats, data, write);
            self.errors.io(r);
        }
    }

    fn batch(
        &mut self,
        beats: &[Beat],
        data: &[DataBeat],
        mut write: impl FnMut(&mut BufWriter<W>, &Beat, &[DataBeat]) -> io::Result<()>,
    ) -> io::Result<()> {
        for (b, d) in split(beats, data) {
            write(&mut self.out, b, d)?;
            if d.len() != b.ndata as usize {
                self.errors.input(short_batch(self.index, b, d.len()));
            }
            self.index += 1;
        }
        Ok(())
    }

    fn finish(&mut self) -> io::Result<()> {
        let out = &mut self.out;
        self.errors.finish(|| out.flush())
    }
}

// ---------------------------------------------------------------------------------------------
// JSON lines

/// One JSON object per line: each beat as a `"kind": "inst"` line with the instruction trace
/// signals, followed by one `"kind": "data"` line per data access it owns (`dretire` is implied
/// by the line; `data` is a hex string, `"0x..."`, since it is 128 bits wide).
///
/// ```text
/// {"kind":"inst","itype":0,"cause":0,"tval":0,"priv":3,"iaddr":2147483648,"iretire":1,"ilastsize":1,"context":0,"ctype":0,"time":0,"sijump":false}
/// {"kind":"data","dtype":0,"daddr":2147491840,"dsize":3,"data":"0x2a"}
/// ```
///
/// `cause` is the whole xcause value (bit 63 set for interrupts). Numbers are JSON integers up
/// to 2^64-1, written exactly. A beat that pulses the `trigger` sideband (debug triggers'
/// trace actions: bit 0 trace-on, 1 trace-off, 2 trace-notify) adds `"trigger":N`.
pub struct JsonlWriter<W: Write>(Lines<W>);

#[derive(Serialize)]
struct InstLine {
    kind: &'static str,
    itype: u8,
    cause: u64,
    tval: u64,
    #[serde(rename = "priv")]
    prv: u8,
    iaddr: u64,
    iretire: u32,
    ilastsize: u8,
    context: u64,
    ctype: u8,
    time: u64,
    sijump: bool,
    /// The trigger sideband (bit 0 trace-on, 1 trace-off, 2 trace-notify); left out when 0.
    #[serde(skip_serializing_if = "is_zero")]
    trigger: u8,
}

fn is_zero(v: &u8) -> bool {
    *v == 0
}

#[derive(Serialize)]
struct DataLine {
    kind: &'static str,
    dtype: u8,
    daddr: u64,
    dsize: u8,
    data: Hex128,
}

/// A 128-bit value as a `"0x..."` string.
struct Hex128(u128);

impl Serialize for Hex128 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&format_args!("{:#x}", self.0))
    }
}

impl<W: Write> JsonlWriter<W> {
    pub fn new(out: W) -> Self {
        JsonlWriter(Lines::new(out))
    }
}

fn json_line<W: Write, T: Serialize>(out: &mut BufWriter<W>, v: &T) -> io::Result<()> {
    serde_json::to_writer(&mut *out, v)?;
    out.write_all(b"\n")
}

/// A beat's `"inst"` line and the `"data"` lines of the data accesses it owns.
fn jsonl_beat<W: Write>(out: &mut BufWriter<W>, b: &Beat, d: &[DataBeat]) -> io::Result<()> {
    json_line(
        out,
        &InstLine {
            kind: "inst",
            itype: b.itype,
            cause: b.cause,
            tval: b.tval,
            prv: b.prv,
            iaddr: b.iaddr,
            iretire: b.iretire,
            ilastsize: b.ilastsize,
            context: b.context,
            ctype: b.ctype,
            time: b.time,
            sijump: b.sijump,
            trigger: b.trigger,
        },
    )?;
    for a in d {
        json_line(
            out,
            &DataLine {
                kind: "data",
                dtype: a.dtype,
                daddr: a.daddr,
                dsize: a.dsize,
                data: Hex128(a.data),
            },
        )?;
    }
    Ok(())
}

impl<W: Write> BeatSink for JsonlWriter<W> {
    fn beats(&mut self, beats: &[Beat], data: &[DataBeat]) {
        self.0.beats(beats, data, jsonl_beat);
    }

    fn finish(&mut self, _next_pc: u64, _prv: u8) -> io::Result<()> {
        self.0.finish()
    }
}

// ---------------------------------------------------------------------------------------------
// CSV for the E-Trace reference encoder model

/// The header of [`CsvWriter`]'s output: the encoder model's required columns, with context
/// and ctype (the reference flow's `post-iss` with `nocontext_p=0`, `notime_p=1`, `sijump_p=0`,
/// `retires_p=1`).
pub const CSV_HEADER: &str = "itype_0,cause,tval,priv,iaddr_0,context,ctype,iretire_0,ilastsize_0";

/// What the rows of [`CsvWriter`] say where the ingress-port spec and the E-Trace reference
/// flow's encoder model read the port differently.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CsvFlavour {
    /// The beats as the ingress-port spec defines them (`etrace-ingress-port.tex`): an xRET is
    /// itype 3, and every beat carries the privilege the port reported for it.
    #[default]
    Spec,
    /// What the reference flow's encoder model (`referenceFlow/scripts/encoder_model.py`)
    /// needs to encode the beats as its own `post-iss` front end writes them:
    ///
    /// - an xRET (itype 3) is written as the uninferable jump its `post-iss` makes of it: 14
    ///   ("other uninferable jump") with a 4-bit itype, 6 with a 3-bit one (`itype_width`).
    ///   The model treats only 6, 8, 10 and 14 (and 12 and 13 without implicit return) as
    ///   uninferable discontinuities; an itype 3 gets no packet and its decoder loses the
    ///   flow at the xRET.
    /// - a beat with `iretire` 0 (an exception or interrupt before anything retired) right
    ///   after an xRET is written with the xRET's privilege instead of the one the xRET
    ///   entered. The model takes a privilege change on a row for an instruction retired at
    ///   its address (a `te_inst` sync start), which an `iretire` 0 row is not; with the
    ///   xRET's privilege it takes the spec's path for an exception right after an uninferable
    ///   jump (a trap sync with `thaddr` 0 at the xRET's target, then a sync start at the
    ///   handler, which carries the handler's privilege).
    ReferenceModel {
        /// 3 or 4: the port's itype width.
        itype_width: u8,
    },
}

/// The CSV the E-Trace reference encoder model (riscv-non-isa/riscv-trace-spec,
/// `referenceFlow/scripts/encoder_model.py`) reads, as the reference flow's `post-iss`
/// (`referenceFlow/post-iss/src/post_inst_set_sim.c`, `write_encoder_input_line`) writes it:
/// the header [`CSV_HEADER`], then one row per instruction beat, `\n`-terminated; `tval` and
/// `iaddr_0` in hex without `0x` (`%lx`), the other columns in decimal (`%d`). `cause` is the
/// exception or interrupt code without xcause's interrupt bit (itype 2 tells an interrupt), as
/// the model sends it in `ecause_width_p` bits beside a separate interrupt bit. The columns
/// follow the beats as the spec defines them unless a [`CsvFlavour`] says otherwise.
///
/// Data beats are not part of it. The model takes each row for one instruction: feed it single
/// retirement beats.
pub struct CsvWriter<W: Write> {
    lines: Lines<W>,
    flavour: CsvFlavour,
    /// The privilege of the last beat written, when that beat was an xRET.
    after_xret: Option<u8>,
}

impl<W: Write> CsvWriter<W> {
    /// The header goes out first (even if no beat follows).
    pub fn new(out: W) -> Self {
        Self::with_flavour(out, CsvFlavour::Spec)
    }

    /// A writer of the given flavour.
    pub fn with_flavour(out: W, flavour: CsvFlavour) -> Self {
        let mut l = Lines::new(out);
        let r = writeln!(l.out, "{CSV_HEADER}");
        l.errors.io(r);
        CsvWriter {
            lines: l,
            flavour,
            after_xret: None,
        }
    }
}

/// The itype of an xRET in the ingress port's encoding.
const ITYPE_XRET: u8 = 3;

/// A beat's row, with the itype and privilege to write.
fn csv_row<W: Write>(out: &mut BufWriter<W>, b: &Beat, itype: u8, prv: u8) -> io::Result<()> {
    writeln!(
        out,
        "{},{},{:x},{},{:x},{},{},{},{}",
        itype,
        b.cause & !CAUSE_INTERRUPT,
        b.tval,
        prv,
        b.iaddr,
        b.context,
        b.ctype,
        b.iretire,
        b.ilastsize
    )
}

impl<W: Write> BeatSink for CsvWriter<W> {
    fn beats(&mut self, beats: &[Beat], data: &[DataBeat]) {
        let flavour = self.flavour;
        let after_xret = &mut self.after_xret;
        self.lines.beats(beats, data, |out, b, _| match flavour {
            CsvFlavour::Spec => csv_row(out, b, b.itype, b.prv),
            CsvFlavour::ReferenceModel { itype_width } => {
                let itype = match b.itype {
                    ITYPE_XRET if itype_width == 3 => 6,
                    ITYPE_XRET => 14,
                    t => t,
                };
                let prv = match *after_xret {
                    Some(p) if b.iretire == 0 => p,
                    _ => b.prv,
                };
                *after_xret = (b.itype == ITYPE_XRET).then_some(b.prv);
                csv_row(out, b, itype, prv)
            }
        });
    }

    fn finish(&mut self, _next_pc: u64, _prv: u8) -> io::Result<()> {
        self.lines.finish()
    }
}

// ---------------------------------------------------------------------------------------------
// VCD

// Widths of the VCD's signals, named as the E-Trace parameters.
/// itype: 4 bits (3-bit itypes fit).
pub const ITYPE_WIDTH_P: u32 = 4;
/// cause carries the whole xcause (the interrupt bit included).
pub const ECAUSE_WIDTH_P: u32 = 64;
/// iaddr and tval.
pub const IADDRESS_WIDTH_P: u32 = 64;
pub const PRIVILEGE_WIDTH_P: u32 = 3;
/// iretire with block retirement (half-words); with single retirement it is 1 bit.
pub const IRETIRE_WIDTH_P_BLOCK: u32 = 32;
/// ilastsize: 0 or 1 (RV64GC instructions are 2 or 4 bytes long).
pub const ILASTSIZE_WIDTH_P: u32 = 1;
pub const CONTEXT_WIDTH_P: u32 = 64;
pub const TIME_WIDTH_P: u32 = 64;
pub const CTYPE_WIDTH_P: u32 = 2;
pub const DTYPE_WIDTH_P: u32 = 4;
pub const DADDRESS_WIDTH_P: u32 = 64;
/// dsize: up to 2^7 = 128 bytes: a cache-block operation (cbo.zero writes a 64-byte block,
/// dsize 6) is one access.
pub const DSIZE_WIDTH_P: u32 = 3;
/// The trigger sideband: bit 0 trace-on, bit 1 trace-off, bit 2 trace-notify (one notify bit:
/// a beat is one block).
pub const TRIGGER_WIDTH_P: u32 = 3;
/// data: store data in the low 64 bits, load data or old CSR value in the high 64.
pub const DATA_WIDTH_P: u32 = 128;
/// Data trace signal groups (the most data accesses a beat of the ingress port has: an
/// instruction's memory accesses).
pub const DATA_GROUPS: usize = iss::record::MAX_MEM;

/// Instruction signals, then DATA_GROUPS groups of data signals.
const INST_SIGNALS: usize = 12;
const DATA_SIGNALS: usize = 5;
const NSIG: usize = INST_SIGNALS + DATA_SIGNALS * DATA_GROUPS;

struct Signal {
    id: IdCode,
    width: u32,
    name: String,
}

/// A VCD waveform of the ingress port: `$scope module ingress_port` with one `$var wire` per
/// signal (itype, cause, tval, priv, iaddr, iretire, ilastsize, context, ctype, time, sijump,
/// trigger, then `DATA_GROUPS` replicated data groups dretire_N, dtype_N, daddr_N, dsize_N, data_N; the
/// widths are the `*_WIDTH_P` constants). One time step per beat: the timestamp is the beat's
/// index (from 0), the first beat's values are the `$dumpvars`, later ones are written only
/// when they change; a final timestamp (the number of beats) ends the last beat. Data signals
/// keep their values while `dretire` is low.
///
/// A value wider than its signal is written truncated and reported by `finish` (InvalidData),
/// and so is a beat with more data accesses than there are data groups (the extra ones are
/// left out).
pub struct VcdWriter<W: Write> {
    vcd: vcd::Writer<BufWriter<W>>,
    signals: Vec<Signal>,
    last: [u128; NSIG],
    started: bool,
    index: u64,
    /// The last timestamp written.
    stamp: Option<u64>,
    errors: Errors,
}

impl<W: Write> VcdWriter<W> {
    /// `single`: single retirement (`iretire` is 1 bit), else blocks (`iretire` counts
    /// half-words). The header's `$date` is the current UTC time.
    pub fn new(out: W, single: bool) -> Self {
        Self::with_date(out, single, &utc_now())
    }

    /// With a given `$date` (reproducible output).
    pub fn with_date(out: W, single: bool, date: &str) -> Self {
        let mut w = VcdWriter {
            vcd: vcd::Writer::new(BufWriter::with_capacity(BUF, out)),
            signals: Vec::with_capacity(NSIG),
            last: [0; NSIG],
            started: false,
            index: 0,
            stamp: None,
            errors: Errors::default(),
        };
        let r = w.header(single, date);
        w.errors.io(r);
        w
    }

    fn header(&mut self, single: bool, date: &str) -> io::Result<()> {
        let v = &mut self.vcd;
        v.date(date)?;
        v.version(&format!(
            "hartscope {} ingress port (E-Trace hart to encoder interface)",
            env!("CARGO_PKG_VERSION")
        ))?;
        v.comment(if single {
            "one time step per beat (the timestamp is the beat index); single retirement: \
             iretire counts instructions"
        } else {
            "one time step per beat (the timestamp is the beat index); block retirement: \
             iretire counts half-words"
        })?;
        v.timescale(1, TimescaleUnit::NS)?;
        v.add_module("ingress_port")?;
        let iretire = if single { 1 } else { IRETIRE_WIDTH_P_BLOCK };
        let mut decl: Vec<(String, u32)> = [
            ("itype", ITYPE_WIDTH_P),
            ("cause", ECAUSE_WIDTH_P),
            ("tval", IADDRESS_WIDTH_P),
            ("priv", PRIVILEGE_WIDTH_P),
            ("iaddr", IADDRESS_WIDTH_P),
            ("iretire", iretire),
            ("ilastsize", ILASTSIZE_WIDTH_P),
            ("context", CONTEXT_WIDTH_P),
            ("ctype", CTYPE_WIDTH_P),
            ("time", TIME_WIDTH_P),
            ("sijump", 1),
            ("trigger", TRIGGER_WIDTH_P),
        ]
        .iter()
        .map(|&(n, w)| (n.to_string(), w))
        .collect();
        for g in 0..DATA_GROUPS {
            decl.push((format!("dretire_{g}"), 1));
            decl.push((format!("dtype_{g}"), DTYPE_WIDTH_P));
            decl.push((format!("daddr_{g}"), DADDRESS_WIDTH_P));
            decl.push((format!("dsize_{g}"), DSIZE_WIDTH_P));
            decl.push((format!("data_{g}"), DATA_WIDTH_P));
        }
        debug_assert_eq!(decl.len(), NSIG);
        for (name, width) in decl {
            let id = v.add_wire(width, &name)?;
            self.signals.push(Signal { id, width, name });
        }
        v.upscope()?;
        v.enddefinitions()
    }

    /// The signal values of beat `b` with its data accesses `d` (data groups without an access
    /// keep their values, dretire low).
    fn values(&self, b: &Beat, d: &[DataBeat]) -> [u128; NSIG] {
        let mut v = self.last;
        v[..INST_SIGNALS].copy_from_slice(&[
            b.itype as u128,
            b.cause as u128,
            b.tval as u128,
            b.prv as u128,
            b.iaddr as u128,
            b.iretire as u128,
            b.ilastsize as u128,
            b.context as u128,
            b.ctype as u128,
            b.time as u128,
            b.sijump as u128,
            b.trigger as u128,
        ]);
        for g in 0..DATA_GROUPS {
            let s = INST_SIGNALS + DATA_SIGNALS * g;
            match d.get(g) {
                Some(a) => v[s..s + DATA_SIGNALS].copy_from_slice(&[
                    1,
                    a.dtype as u128,
                    a.daddr as u128,
                    a.dsize as u128,
                    a.data,
                ]),
                None => v[s] = 0,
            }
        }
        v
    }

    fn change(&mut self, k: usize, value: u128) -> io::Result<()> {
        let s = &self.signals[k];
        if s.width == 1 {
            self.vcd.change_scalar(s.id, value & 1 != 0)
        } else {
            // Leading zeros left out (a VCD vector is zero-extended on the left).
            let n = (128 - value.leading_zeros()).max(1);
            self.vcd.change_vector(
                s.id,
                (0..n).rev().map(|i| Value::from((value >> i) & 1 != 0)),
            )
        }
    }

    fn beat(&mut self, b: &Beat, d: &[DataBeat]) -> io::Result<()> {
        let index = self.index;
        self.index += 1;
        if d.len() != b.ndata as usize {
            self.errors.input(short_batch(index, b, d.len()));
        }
        if d.len() > DATA_GROUPS {
            self.errors.input(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "beat {index} has {} data accesses, more than the VCD's {DATA_GROUPS} data \
                     groups",
                    d.len()
                ),
            ));
        }
        let mut v = self.values(b, d);
        for (k, s) in self.signals.iter().enumerate() {
            if s.width < 128 && v[k] >> s.width != 0 {
                self.errors.input(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "beat {index}: {} = {:#x} does not fit its {} bits",
                        s.name, v[k], s.width
                    ),
                ));
                v[k] &= (1u128 << s.width) - 1;
            }
        }
        if !self.started {
            self.started = true;
            self.vcd.timestamp(index)?;
            self.stamp = Some(index);
            self.vcd.begin(SimulationCommand::Dumpvars)?;
            for (k, &x) in v.iter().enumerate() {
                self.change(k, x)?;
            }
            self.vcd.end()?;
        } else {
            for (k, &x) in v.iter().enumerate() {
                if x != self.last[k] {
                    if self.stamp != Some(index) {
                        self.vcd.timestamp(index)?;
                        self.stamp = Some(index);
                    }
                    self.change(k, x)?;
                }
            }
        }
        self.last = v;
        Ok(())
    }
}

impl<W: Write> BeatSink for VcdWriter<W> {
    fn beats(&mut self, beats: &[Beat], data: &[DataBeat]) {
        for (b, d) in split(beats, data) {
            if self.errors.io_failed {
                return;
            }
            let r = self.beat(b, d);
            self.errors.io(r);
        }
    }

    fn finish(&mut self, _next_pc: u64, _prv: u8) -> io::Result<()> {
        let (index, stamp) = (self.index, self.stamp);
        let vcd = &mut self.vcd;
        self.errors.finish(|| {
            if index > 0 && stamp != Some(index) {
                vcd.timestamp(index)?;
            }
            vcd.flush()
        })?;
        self.stamp = Some(index);
        Ok(())
    }
}

/// The current UTC time, `YYYY-MM-DD hh:mm:ss UTC`.
fn utc_now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    let s = secs % 86_400;
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02} UTC",
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

/// The proleptic Gregorian date of a day counted from 1970-01-01 (H. Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + (m <= 2) as i64;
    (y, m as u32, d as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn inst(itype: u8, iaddr: u64, iretire: u32) -> Beat {
        Beat {
            itype,
            prv: 3,
            iaddr,
            iretire,
            ilastsize: 1,
            ..Beat::default()
        }
    }

    fn load(daddr: u64, data: u128) -> DataBeat {
        DataBeat {
            dtype: 0,
            daddr,
            dsize: 3,
            data,
        }
    }

    /// Three beats: a plain one, one with a load, an exception (`mcause` 2, tval an opcode).
    fn sample() -> (Vec<Beat>, Vec<DataBeat>) {
        let beats = vec![
            inst(0, 0x8000_0000, 1),
            Beat {
                ndata: 1,
                ..inst(5, 0x8000_0004, 1)
            },
            Beat {
                cause: 2,
                tval: 0xdead_beef,
                ilastsize: 0,
                ..inst(1, 0x8000_0100, 0)
            },
        ];
        (beats, vec![load(0x8000_2000, 42)])
    }

    /// Feed `batches` to `sink`, finish it.
    fn run<S: BeatSink>(sink: &mut S, batches: &[(Vec<Beat>, Vec<DataBeat>)]) -> io::Result<()> {
        for (b, d) in batches {
            sink.beats(b, d);
        }
        sink.finish(0x8000_0000, 3)
    }

    fn jsonl(batches: &[(Vec<Beat>, Vec<DataBeat>)]) -> String {
        let mut out = Vec::new();
        run(&mut JsonlWriter::new(&mut out), batches).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn csv(batches: &[(Vec<Beat>, Vec<DataBeat>)]) -> String {
        let mut out = Vec::new();
        run(&mut CsvWriter::new(&mut out), batches).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn vcd(single: bool, batches: &[(Vec<Beat>, Vec<DataBeat>)]) -> String {
        let mut out = Vec::new();
        run(
            &mut VcdWriter::with_date(&mut out, single, "today"),
            batches,
        )
        .unwrap();
        String::from_utf8(out).unwrap()
    }

    const INST0: &str = r#"{"kind":"inst","itype":0,"cause":0,"tval":0,"priv":3,"iaddr":2147483648,"iretire":1,"ilastsize":1,"context":0,"ctype":0,"time":0,"sijump":false}"#;
    const INST1: &str = r#"{"kind":"inst","itype":5,"cause":0,"tval":0,"priv":3,"iaddr":2147483652,"iretire":1,"ilastsize":1,"context":0,"ctype":0,"time":0,"sijump":false}"#;
    const DATA1: &str = r#"{"kind":"data","dtype":0,"daddr":2147491840,"dsize":3,"data":"0x2a"}"#;
    const INST2: &str = r#"{"kind":"inst","itype":1,"cause":2,"tval":3735928559,"priv":3,"iaddr":2147483904,"iretire":0,"ilastsize":0,"context":0,"ctype":0,"time":0,"sijump":false}"#;

    #[rstest]
    #[case::empty(vec![], vec![])]
    #[case::no_data(
        vec![(vec![inst(0, 0x8000_0000, 1)], vec![])],
        vec![INST0]
    )]
    #[case::with_data(vec![sample()], vec![INST0, INST1, DATA1, INST2])]
    #[case::two_batches(
        vec![(sample().0[..2].to_vec(), sample().1), (sample().0[2..].to_vec(), vec![])],
        vec![INST0, INST1, DATA1, INST2]
    )]
    #[case::all_fields(
        vec![(
            vec![Beat {
                itype: 8,
                cause: 0x8000_0000_0000_0007,
                tval: u64::MAX,
                prv: 1,
                iaddr: 0xffff_ffff_8000_0000,
                iretire: 40,
                ilastsize: 0,
                context: 7,
                ctype: 2,
                time: 123,
                sijump: true,
                trigger: 5,
                ndata: 2,
            }],
            vec![
                DataBeat { dtype: 4, daddr: 0x300, dsize: 3, data: (5u128 << 64) | 8 },
                DataBeat { dtype: 15, daddr: 8, dsize: 2, data: 0 },
            ],
        )],
        vec![
            r#"{"kind":"inst","itype":8,"cause":9223372036854775815,"tval":18446744073709551615,"priv":1,"iaddr":18446744071562067968,"iretire":40,"ilastsize":0,"context":7,"ctype":2,"time":123,"sijump":true,"trigger":5}"#,
            r#"{"kind":"data","dtype":4,"daddr":768,"dsize":3,"data":"0x50000000000000008"}"#,
            r#"{"kind":"data","dtype":15,"daddr":8,"dsize":2,"data":"0x0"}"#,
        ]
    )]
    fn jsonl_lines(#[case] batches: Vec<(Vec<Beat>, Vec<DataBeat>)>, #[case] lines: Vec<&str>) {
        let text = jsonl(&batches);
        let want: String = lines.iter().map(|l| format!("{l}\n")).collect();
        assert_eq!(text, want);
        // Each line is a JSON object that reads back.
        for l in text.lines() {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            assert!(v.is_object());
        }
    }

    #[rstest]
    #[case::empty(vec![], vec![])]
    #[case::data_left_out(vec![sample()], vec![
        "0,0,0,3,80000000,0,0,1,1",
        "5,0,0,3,80000004,0,0,1,1",
        "1,2,deadbeef,3,80000100,0,0,0,0",
    ])]
    #[case::interrupt_code(
        vec![(vec![Beat { cause: 0x8000_0000_0000_0007, ..inst(2, 0x8000_0010, 1) }], vec![])],
        vec!["2,7,0,3,80000010,0,0,1,1"]
    )]
    #[case::decimal_and_hex(
        vec![(vec![Beat {
            itype: 13,
            cause: 0,
            tval: 0xffff_ffff_ffff_fff0,
            prv: 0,
            iaddr: 0xffff_ffff_8000_00ae,
            iretire: 1,
            ilastsize: 0,
            context: 300,
            ctype: 2,
            time: 5,
            sijump: true,
            trigger: 0,
            ndata: 0,
        }], vec![])],
        vec!["13,0,fffffffffffffff0,0,ffffffff800000ae,300,2,1,0"]
    )]
    fn csv_rows(#[case] batches: Vec<(Vec<Beat>, Vec<DataBeat>)>, #[case] rows: Vec<&str>) {
        let want: String = std::iter::once(CSV_HEADER)
            .chain(rows)
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(csv(&batches), want);
    }

    /// A program's beats with an mret (M to U) whose target takes an interrupt before anything
    /// retired there, an sret (S to S), a non-retiring exception at an mret's target, and an
    /// mret whose target retires.
    fn xret_beats() -> Vec<Beat> {
        let at = |itype: u8, prv: u8, iaddr: u64, iretire: u32| Beat {
            prv,
            ..inst(itype, iaddr, iretire)
        };
        vec![
            at(0, 3, 0x8000_0000, 1),
            // mret to U at 0x8000_2000, interrupted there (code 7) before it retires
            at(3, 3, 0x8000_0004, 1),
            Beat {
                cause: 0x8000_0000_0000_0007,
                ilastsize: 0,
                ..at(2, 0, 0x8000_2000, 0)
            },
            at(0, 3, 0x8000_0100, 1),
            // sret, S to S, whose target retires
            at(3, 1, 0x8000_0200, 1),
            at(0, 1, 0x8000_3000, 1),
            // mret to S at 0x8000_4000, whose first instruction is illegal
            at(3, 3, 0x8000_0300, 1),
            Beat {
                cause: 2,
                tval: 0xffff,
                ilastsize: 0,
                ..at(1, 1, 0x8000_4000, 0)
            },
            at(0, 3, 0x8000_0100, 1),
            // an interrupt not after an xRET keeps its privilege
            at(5, 1, 0x8000_4004, 1),
            Beat {
                cause: 0x8000_0000_0000_0005,
                ilastsize: 0,
                ..at(2, 1, 0x8000_5000, 0)
            },
        ]
    }

    fn csv_flavoured(flavour: CsvFlavour, batches: &[(Vec<Beat>, Vec<DataBeat>)]) -> String {
        let mut out = Vec::new();
        run(&mut CsvWriter::with_flavour(&mut out, flavour), batches).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// The spec's rows (the default), and the reference model's: xRET as itype 14 (6 with a
    /// 3-bit itype), an iretire 0 row right after an xRET with the xRET's privilege.
    #[rstest]
    #[case::spec(CsvFlavour::Spec, [3, 3, 3], [0, 1])]
    #[case::reference_model_4(CsvFlavour::ReferenceModel { itype_width: 4 }, [14, 14, 14], [3, 3])]
    #[case::reference_model_3(CsvFlavour::ReferenceModel { itype_width: 3 }, [6, 6, 6], [3, 3])]
    fn csv_xret_rows(
        #[case] flavour: CsvFlavour,
        #[case] xret: [u8; 3],
        #[case] after_xret_prv: [u8; 2],
        #[values(false, true)] split_batches: bool,
    ) {
        let beats = xret_beats();
        let batches: Vec<(Vec<Beat>, Vec<DataBeat>)> = if split_batches {
            // A batch boundary between each xRET and the beat after it.
            vec![
                (beats[..2].to_vec(), vec![]),
                (beats[2..7].to_vec(), vec![]),
                (beats[7..].to_vec(), vec![]),
            ]
        } else {
            vec![(beats, vec![])]
        };
        let [m1, s1, m2] = xret;
        let [p1, p2] = after_xret_prv;
        let rows = [
            "0,0,0,3,80000000,0,0,1,1".to_string(),
            format!("{m1},0,0,3,80000004,0,0,1,1"),
            format!("2,7,0,{p1},80002000,0,0,0,0"),
            "0,0,0,3,80000100,0,0,1,1".into(),
            format!("{s1},0,0,1,80000200,0,0,1,1"),
            "0,0,0,1,80003000,0,0,1,1".into(),
            format!("{m2},0,0,3,80000300,0,0,1,1"),
            format!("1,2,ffff,{p2},80004000,0,0,0,0"),
            "0,0,0,3,80000100,0,0,1,1".into(),
            "5,0,0,1,80004004,0,0,1,1".into(),
            "2,5,0,1,80005000,0,0,0,0".into(),
        ];
        let want: String = std::iter::once(CSV_HEADER.to_string())
            .chain(rows)
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(csv_flavoured(flavour, &batches), want);
    }

    /// The VCD header with a given iretire width.
    fn vcd_header(single: bool) -> String {
        let (comment, iretire) = if single {
            ("single retirement: iretire counts instructions", 1)
        } else {
            ("block retirement: iretire counts half-words", 32)
        };
        format!(
            "$date\n    today\n$end\n\
             $version\n    hartscope {} ingress port (E-Trace hart to encoder interface)\n$end\n\
             $comment\n    one time step per beat (the timestamp is the beat index); {comment}\n$end\n\
             $timescale 1 ns $end\n\
             $scope module ingress_port $end\n\
             $var wire 4 ! itype $end\n\
             $var wire 64 \" cause $end\n\
             $var wire 64 # tval $end\n\
             $var wire 3 $ priv $end\n\
             $var wire 64 % iaddr $end\n\
             $var wire {iretire} & iretire $end\n\
             $var wire 1 ' ilastsize $end\n\
             $var wire 64 ( context $end\n\
             $var wire 2 ) ctype $end\n\
             $var wire 64 * time $end\n\
             $var wire 1 + sijump $end\n\
             $var wire 3 , trigger $end\n\
             $var wire 1 - dretire_0 $end\n\
             $var wire 4 . dtype_0 $end\n\
             $var wire 64 / daddr_0 $end\n\
             $var wire 3 0 dsize_0 $end\n\
             $var wire 128 1 data_0 $end\n\
             $var wire 1 2 dretire_1 $end\n\
             $var wire 4 3 dtype_1 $end\n\
             $var wire 64 4 daddr_1 $end\n\
             $var wire 3 5 dsize_1 $end\n\
             $var wire 128 6 data_1 $end\n\
             $upscope $end\n\
             $enddefinitions $end\n",
            env!("CARGO_PKG_VERSION")
        )
    }

    /// `$dumpvars` of the first sample beat.
    const DUMP0: &str = "#0\n$dumpvars\nb0 !\nb0 \"\nb0 #\nb11 $\nb10000000000000000000000000000000 %\n\
        1&\n1'\nb0 (\nb0 )\nb0 *\n0+\nb0 ,\n0-\nb0 .\nb0 /\nb0 0\nb0 1\n02\nb0 3\nb0 4\nb0 5\nb0 6\n$end\n";

    #[rstest]
    #[case::empty(true, vec![], "")]
    #[case::single(true, vec![sample()], concat!(
        "#0\n$dumpvars\nb0 !\nb0 \"\nb0 #\nb11 $\nb10000000000000000000000000000000 %\n",
        "1&\n1'\nb0 (\nb0 )\nb0 *\n0+\nb0 ,\n0-\nb0 .\nb0 /\nb0 0\nb0 1\n02\nb0 3\nb0 4\nb0 5\nb0 6\n$end\n",
        // beat 1: itype 5, iaddr +4, a load in data group 0
        "#1\nb101 !\nb10000000000000000000000000000100 %\n1-\nb10000000000000000010000000000000 /\nb11 0\nb101010 1\n",
        // beat 2: exception, no data: dretire drops, the data values stay
        "#2\nb1 !\nb10 \"\nb11011110101011011011111011101111 #\nb10000000000000000000000100000000 %\n0&\n0'\n0-\n",
        "#3\n",
    ))]
    #[case::block_unchanged_beat(false, vec![(vec![inst(0, 0x8000_0000, 1), inst(0, 0x8000_0000, 1), inst(0, 0x8000_0000, 6)], vec![])], concat!(
        "#0\n$dumpvars\nb0 !\nb0 \"\nb0 #\nb11 $\nb10000000000000000000000000000000 %\n",
        "b1 &\n1'\nb0 (\nb0 )\nb0 *\n0+\nb0 ,\n0-\nb0 .\nb0 /\nb0 0\nb0 1\n02\nb0 3\nb0 4\nb0 5\nb0 6\n$end\n",
        // beat 1 changes nothing: no timestamp
        "#2\nb110 &\n",
        "#3\n",
    ))]
    fn vcd_text(
        #[case] single: bool,
        #[case] batches: Vec<(Vec<Beat>, Vec<DataBeat>)>,
        #[case] changes: &str,
    ) {
        assert_eq!(vcd(single, &batches), vcd_header(single) + changes);
    }

    #[test]
    fn vcd_first_beat_is_dumpvars() {
        let text = vcd(true, &[(vec![inst(0, 0x8000_0000, 1)], vec![])]);
        assert_eq!(text, vcd_header(true) + DUMP0 + "#1\n");
    }

    #[test]
    fn vcd_parses_back() {
        let text = vcd(false, &[sample()]);
        let mut p = vcd::Parser::new(text.as_bytes());
        let h = p.parse_header().unwrap();
        let iaddr = h.find_var(&["ingress_port", "iaddr"]).unwrap();
        assert_eq!(iaddr.size, 64);
        let n = p.count();
        assert!(n > 20, "{n} commands");
    }

    /// The final value of every signal at each time step of a VCD, by name.
    fn vcd_steps(text: &str) -> Vec<std::collections::BTreeMap<String, u128>> {
        use std::collections::BTreeMap;
        let mut p = vcd::Parser::new(text.as_bytes());
        let h = p.parse_header().unwrap();
        let mut names = BTreeMap::new();
        for item in h.items.iter() {
            if let vcd::ScopeItem::Scope(sc) = item {
                for v in sc.items.iter() {
                    if let vcd::ScopeItem::Var(v) = v {
                        names.insert(v.code, v.reference.clone());
                    }
                }
            }
        }
        let mut now: BTreeMap<String, u128> = BTreeMap::new();
        let mut steps = Vec::new();
        for c in p {
            match c.unwrap() {
                vcd::Command::Timestamp(t) if t > 0 => steps.push(now.clone()),
                vcd::Command::ChangeScalar(id, v) => {
                    now.insert(names[&id].clone(), (v == vcd::Value::V1) as u128);
                }
                vcd::Command::ChangeVector(id, v) => {
                    let x = v
                        .iter()
                        .fold(0u128, |a, b| (a << 1) | (b == vcd::Value::V1) as u128);
                    now.insert(names[&id].clone(), x);
                }
                _ => {}
            }
        }
        steps
    }

    /// cbo.zero's data beat (a 64-byte store of zeros, dsize 6) and a trigger sideband pulse
    /// go into the VCD without an error and read back as written (dsize was 2 bits wide: the
    /// writer refused 6).
    #[test]
    fn vcd_carries_cbo_zero_and_trigger() {
        let cbo = DataBeat {
            dtype: 1,
            daddr: 0x8000_3040,
            dsize: 6,
            data: 0,
        };
        let beats = vec![
            Beat {
                ndata: 1,
                ..inst(0, 0x8000_0000, 1)
            },
            Beat {
                trigger: 4,
                ..inst(0, 0x8000_0004, 1)
            },
            Beat {
                trigger: 3,
                ..inst(0, 0x8000_0008, 1)
            },
        ];
        let mut out = Vec::new();
        run(
            &mut VcdWriter::with_date(&mut out, true, "today"),
            &[(beats, vec![cbo])],
        )
        .unwrap();
        let steps = vcd_steps(&String::from_utf8(out).unwrap());
        assert_eq!(steps.len(), 3);
        let at = |i: usize, n: &str| steps[i][n];
        assert_eq!(
            (at(0, "dretire_0"), at(0, "dtype_0"), at(0, "dsize_0")),
            (1, 1, 6)
        );
        assert_eq!((at(0, "daddr_0"), at(0, "data_0")), (0x8000_3040, 0));
        assert_eq!(
            [at(0, "trigger"), at(1, "trigger"), at(2, "trigger")],
            [0, 4, 3]
        );
        assert_eq!(at(1, "dretire_0"), 0);
        // And in JSON lines.
        let text = jsonl(&[(
            vec![Beat {
                ndata: 1,
                trigger: 4,
                ..inst(0, 0x8000_0000, 1)
            }],
            vec![cbo],
        )]);
        assert!(text.contains(r#""sijump":false,"trigger":4}"#), "{text}");
        assert!(
            text.contains(r#"{"kind":"data","dtype":1,"daddr":2147496000,"dsize":6,"data":"0x0"}"#),
            "{text}"
        );
    }

    #[test]
    fn vcd_value_too_wide() {
        // Single retirement: iretire is 1 bit.
        let mut out = Vec::new();
        let e = run(
            &mut VcdWriter::with_date(&mut out, true, "today"),
            &[(vec![inst(0, 0x8000_0000, 3)], vec![])],
        )
        .unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert_eq!(
            e.to_string(),
            "beat 0: iretire = 0x3 does not fit its 1 bits"
        );
        // Written truncated all the same.
        assert!(String::from_utf8(out).unwrap().contains("\n1&\n"));
    }

    #[test]
    fn vcd_too_many_data_accesses() {
        let mut out = Vec::new();
        let b = Beat {
            ndata: 3,
            ..inst(0, 0x8000_0000, 1)
        };
        let d = vec![load(8, 1), load(16, 2), load(24, 3)];
        let e = run(
            &mut VcdWriter::with_date(&mut out, true, "today"),
            &[(vec![b], d)],
        )
        .unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
    }

    /// A writer that fails every write and flush after `ok` bytes, numbering its errors.
    struct Failing {
        ok: usize,
        failures: usize,
    }

    impl Write for Failing {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.ok >= buf.len() {
                self.ok -= buf.len();
                return Ok(buf.len());
            }
            self.failures += 1;
            Err(io::Error::other(format!("failure {}", self.failures)))
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn sink(kind: &str, w: Failing) -> Box<dyn BeatSink + Send> {
        match kind {
            "jsonl" => Box::new(JsonlWriter::new(w)),
            "csv" => Box::new(CsvWriter::new(w)),
            _ => Box::new(VcdWriter::new(w, true)),
        }
    }

    /// Fails at the first write (`ok` 0), in `finish`'s flush (a small output), or in `beats`
    /// (a large one).
    #[rstest]
    #[case::at_once(0, 1)]
    #[case::in_finish(50, 1)]
    #[case::in_beats(0, 20_000)]
    #[case::in_beats_later(100_000, 20_000)]
    fn io_error_reported_by_finish(
        #[values("jsonl", "csv", "vcd")] kind: &str,
        #[case] ok: usize,
        #[case] nbeats: usize,
    ) {
        let mut s = sink(kind, Failing { ok, failures: 0 });
        let beats: Vec<Beat> = (0..nbeats as u64)
            .map(|i| inst((i % 6) as u8, 0x8000_0000 + 4 * i, 1))
            .collect();
        for _ in 0..3 {
            s.beats(&beats, &[]);
        }
        let e = s.finish(0, 3).unwrap_err();
        assert_eq!(e.to_string(), "failure 1");
    }

    #[rstest]
    fn short_batch_reported(#[values("jsonl", "csv", "vcd")] kind: &str) {
        let mut s = sink(
            kind,
            Failing {
                ok: usize::MAX,
                failures: 0,
            },
        );
        let (beats, _) = sample();
        s.beats(&beats, &[]);
        let e = s.finish(0, 3).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert_eq!(
            e.to_string(),
            "beat 1 owns 1 data accesses but the batch has only 0 left"
        );
    }

    fn temp(name: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("hartscope-writers-{}-{name}", std::process::id()))
    }

    #[rstest]
    #[case::jsonl("b.jsonl", true, "{\"kind\":\"inst\"")]
    #[case::json("b.json", false, "{\"kind\":\"inst\"")]
    #[case::vcd("b.vcd", false, "$date\n")]
    #[case::vcd_upper("b.VCD", true, "$date\n")]
    #[case::csv("b.csv", true, "itype_0,cause,")]
    fn open_writer_by_extension(#[case] name: &str, #[case] single: bool, #[case] start: &str) {
        let p = temp(name);
        let mut w = open_writer(&p, single, CsvFlavour::Spec).unwrap();
        let (beats, data) = sample();
        w.beats(&beats, &data);
        w.finish(0, 3).unwrap();
        let text = std::fs::read_to_string(&p).unwrap();
        std::fs::remove_file(&p).unwrap();
        assert!(text.starts_with(start), "{text}");
    }

    #[rstest]
    #[case::unknown("b.txt", true, "unknown ingress beat format")]
    #[case::none("beats", true, "unknown ingress beat format")]
    #[case::csv_blocks("c.csv", false, "needs single retirement")]
    fn open_writer_refuses(#[case] name: &str, #[case] single: bool, #[case] msg: &str) {
        let p = temp(name);
        let e = open_writer(&p, single, CsvFlavour::Spec).err().unwrap();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert!(e.to_string().contains(msg), "{e}");
        assert!(!p.exists(), "no file is created");
    }

    #[rstest]
    #[case(0, (1970, 1, 1))]
    #[case(11_016, (2000, 2, 29))]
    #[case(11_017, (2000, 3, 1))]
    #[case(19_723, (2024, 1, 1))]
    #[case(-1, (1969, 12, 31))]
    fn civil_dates(#[case] days: i64, #[case] ymd: (i64, u32, u32)) {
        assert_eq!(civil_from_days(days), ymd);
    }
}
