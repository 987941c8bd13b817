//! `hartscope ntrace dump` and `hartscope ntrace decode`.

use crate::files::{load_encoder_settings, read_capped, ELF_CAP, RAW_CAP};
use crate::progress::{Progress, Unit};
use crate::trace::parse_addr;
use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use encoder::decoder::{Decoder, DecoderConfig, Event, FlowSink, TrapKind};
use encoder::encoder::EncoderConfig;
use encoder::image::Image;
use encoder::msg::Format;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

#[derive(Subcommand, Debug)]
pub enum NtraceCommand {
    /// Print every message of an N-Trace byte stream with its fields, one per line.
    Dump(DumpArgs),
    /// Reconstruct the executed pc flow from an N-Trace byte stream and the program.
    Decode(DecodeArgs),
}

/// The trace's byte format and decoder settings: from `--config`, else the settings
/// `hartscope run --ntrace FILE` saved as FILE.json, else the defaults with the flags.
#[derive(Args, Debug)]
pub struct FormatArgs {
    /// The encoder's settings (JSON or TOML, as `hartscope run --ntrace` writes them).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Width of the SRC field (trTeSrcBits) when there is no settings file.
    #[arg(long, value_name = "N")]
    pub src_bits: Option<u8>,
    /// Messages carry TSTAMP (trTsEnable) when there is no settings file.
    #[arg(long)]
    pub timestamps: bool,
    /// Address fields are MSB-extended (trTeInstExtendAddrMSB) when there is no settings file.
    #[arg(long)]
    pub extend_addr_msb: bool,
}

#[derive(Args, Debug)]
pub struct DumpArgs {
    /// The N-Trace byte stream.
    pub input: PathBuf,
    /// Print every byte with its MSEO/MDO bits and the fields it ends, as the reference dump
    /// tool does.
    #[arg(long)]
    pub raw: bool,
    #[command(flatten)]
    pub format: FormatArgs,
}

#[derive(Args, Debug)]
pub struct DecodeArgs {
    /// The N-Trace byte stream.
    pub input: PathBuf,
    /// The program the trace was captured from.
    #[arg(long, value_name = "FILE")]
    pub elf: Option<PathBuf>,
    /// A raw binary image at an address (repeatable): ADDR:FILE.
    #[arg(long, value_name = "ADDR:FILE")]
    pub raw: Vec<String>,
    /// Code executed at a virtual address found in the image elsewhere (repeatable):
    /// VADDR:ADDR:LEN.
    #[arg(long, value_name = "VADDR:ADDR:LEN")]
    pub alias: Vec<String>,
    /// Write the pc flow (one hex pc per line) to FILE instead of standard output (`-`:
    /// standard output).
    #[arg(long, value_name = "FILE")]
    pub pcs: Option<PathBuf>,
    /// Symbolised output with disassembly and the events (traps, syncs, ...).
    #[arg(long)]
    pub disasm: bool,
    /// Follow only the messages of this trace source (SRC; `hartscope run --trace-hart`
    /// gives each hart's encoder its index), or `all`: decode every source of the stream,
    /// each line of the pc flow then `SRC PC` (SRC in decimal, the pc in hex as always:
    /// `1 80000004`), in the order of the stream's messages; with --disasm each line starts
    /// `[SRC] `.
    #[arg(long, value_name = "ID|all", value_parser = parse_src)]
    pub src: Option<SrcArg>,
    /// The most half-words of code one message may make the decoder walk, its repetitions
    /// (RepeatBranch B-CNT, ResourceFull HREPEAT) included. A message asking for more is
    /// reported as implausible (a decode error at its byte offset) and decoding resumes at
    /// the next sync; raise the limit for a trace of long-repeated loops. `none`: no limit.
    #[arg(long, value_name = "HALFWORDS", default_value = "16777216", value_parser = parse_limit)]
    pub work_limit: u64,
    /// The depth of the encoder's implicit-return stack (its `implicit_return_depth`, 1..=32),
    /// overriding the settings file. Without it and without a settings file, the decoder
    /// assumes the maximum (32, N-Trace 9.2) and decodes a return reported by a shallower
    /// encoder with a warning; with it (or the settings), such a return is an error.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=32))]
    pub return_stack_depth: Option<u8>,
    #[command(flatten)]
    pub format: FormatArgs,
}

/// `--src`: one source, or all of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SrcArg {
    One(u16),
    All,
}

fn parse_src(s: &str) -> Result<SrcArg, String> {
    if s.trim().eq_ignore_ascii_case("all") {
        return Ok(SrcArg::All);
    }
    s.trim()
        .parse()
        .map(SrcArg::One)
        .map_err(|_| format!("'{s}' is not a SRC value (0..=4095) or `all`"))
}

/// The encoder settings for a trace: explicit file, sidecar, or none; with whether they give
/// the encoder's return-stack depth (`implicit_return_depth`: the sidecar always does, a
/// hand-written file may leave it out).
fn settings(input: &Path, f: &FormatArgs) -> Result<Option<(EncoderConfig, bool)>> {
    let depth_given = |(c, fields): (EncoderConfig, Vec<String>)| {
        let known = fields.iter().any(|f| f == "implicit_return_depth");
        (c, known)
    };
    if let Some(p) = &f.config {
        return Ok(Some(depth_given(load_encoder_settings(p)?)));
    }
    let side = iss::files::sidecar_path(input);
    if side.is_file() {
        return Ok(Some(depth_given(load_encoder_settings(&side)?)));
    }
    Ok(None)
}

fn format_of(input: &Path, f: &FormatArgs) -> Result<Format> {
    Ok(match settings(input, f)? {
        Some((c, _)) => c.format(),
        None => Format {
            src_bits: f.src_bits.unwrap_or(0),
            timestamps: f.timestamps,
            extend_addr_msb: f.extend_addr_msb,
        },
    })
}

/// `hartscope ntrace`: dump or decode a stream.
pub fn run(cmd: NtraceCommand) -> Result<ExitCode> {
    match cmd {
        NtraceCommand::Dump(a) => dump(a),
        NtraceCommand::Decode(a) => decode(a),
    }
}

/// Reads a trace in chunks, calling `f` with each; `f` returns false to stop.
fn for_chunks(p: &Path, mut f: impl FnMut(&[u8]) -> bool) -> Result<()> {
    let mut file =
        std::fs::File::open(p).with_context(|| format!("cannot read {}", p.display()))?;
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = match file.read(&mut buf) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e).with_context(|| format!("reading {}", p.display())),
        };
        if n == 0 || !f(&buf[..n]) {
            return Ok(());
        }
    }
}

/// An output failure: a closed pipe (e.g. `| head`) ends the output quietly (`Ok(true)`);
/// anything else is an error naming the output.
fn output_failed(e: std::io::Error, what: &str, to: &str) -> Result<bool> {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return Ok(true);
    }
    Err(e).with_context(|| format!("writing {what} to {to}"))
}

fn dump(a: DumpArgs) -> Result<ExitCode> {
    let f = format_of(&a.input, &a.format)?;
    let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let mut d = encoder::dump::Dumper::new(f, a.raw);
    let mut failed = None;
    for_chunks(&a.input, |c| match d.feed(c, &mut out) {
        Ok(()) => true,
        Err(e) => {
            failed = Some(e);
            false
        }
    })?;
    let result = match failed {
        Some(e) => Err(e),
        None => d.finish(&mut out).and_then(|s| out.flush().map(|()| s)),
    };
    match result {
        Ok(s) => Ok(if s.errors > 0 {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        }),
        Err(e) => output_failed(e, "the dump", "standard output").map(|_| ExitCode::SUCCESS),
    }
}

/// The pc flow as hex lines, or symbolised with disassembly and events.
struct Printer<W: Write> {
    out: W,
    disasm: bool,
    /// The image's code (with --disasm), for the instructions' bits.
    code: encoder::image::Code,
    symbols: Option<iss::elf::Program>,
    errors: u64,
    line: String,
    /// The first write error: the output stops there.
    failed: Option<std::io::Error>,
    /// Decoding every source (`--src all`): each line says whose it is.
    all: bool,
    /// The source whose pcs and events come now (`--src all`).
    src: Option<u16>,
}

impl<W: Write> Printer<W> {
    fn put(&mut self, text: &[u8]) {
        if self.failed.is_none() {
            if let Err(e) = self.out.write_all(text) {
                self.failed = Some(e);
            }
        }
    }
}

impl<W: Write> FlowSink for Printer<W> {
    fn pc(&mut self, pc: u64) {
        use std::fmt::Write as _;
        self.line.clear();
        if self.all {
            match (self.src, self.disasm) {
                (Some(src), false) => {
                    let _ = write!(self.line, "{src} ");
                }
                (Some(src), true) => {
                    let _ = write!(self.line, "[{src}] ");
                }
                (None, _) => {}
            }
        }
        if self.disasm {
            let sym = self
                .symbols
                .as_ref()
                .and_then(|p| p.symbolize(pc))
                .unwrap_or_default();
            let ins = self
                .code
                .bits(pc)
                .map(|b| disc_v::decode(disc_v::Isa::Rv64, pc, u64::from(b)).to_string())
                .unwrap_or_else(|| "?".into());
            let _ = writeln!(self.line, "{pc:016x}  {sym:<28} {ins}");
        } else {
            let _ = writeln!(self.line, "{pc:x}");
        }
        let line = std::mem::take(&mut self.line);
        self.put(line.as_bytes());
        self.line = line;
    }

    fn source(&mut self, src: Option<u16>) {
        self.src = src;
    }

    fn event(&mut self, e: &Event) {
        let whose = match (self.all, self.src) {
            (true, Some(s)) => format!("SRC {s}: "),
            _ => String::new(),
        };
        if let Event::Error { offset, message } = e {
            self.errors += 1;
            eprintln!("hartscope: ntrace decode: byte {offset:#x}: {whose}{message}");
        }
        if let Event::Warning {
            offset, message, ..
        } = e
        {
            // A deviation decoded anyway: standard error, and not a failure.
            eprintln!("hartscope: ntrace decode: byte {offset:#x}: {whose}warning: {message}");
        }
        if !self.disasm {
            return;
        }
        if self.all {
            if let Some(s) = self.src {
                self.put(format!("[{s}] ").as_bytes());
            }
        }
        let text = match e {
            Event::Sync { sync, pc, .. } => format!(
                "-- sync (SYNC {sync}){} at {pc:#x}",
                if *sync == encoder::encoder::sync::TRACE_EVENT {
                    " trace event"
                } else {
                    ""
                }
            ),
            Event::Trap { kind, handler, .. } => format!(
                "-- {} -> {handler:#x}",
                match kind {
                    TrapKind::Exception => "exception",
                    TrapKind::Interrupt => "interrupt",
                    TrapKind::ExceptionOrInterrupt => "exception or interrupt (B-TYPE 1)",
                }
            ),
            Event::Ownership { prv, context, .. } => match context {
                Some(c) => format!("-- privilege {prv}, context {c:#x}"),
                None => format!("-- privilege {prv}"),
            },
            Event::Timestamp { time, .. } => format!("-- time {time}"),
            Event::TraceOff { evcode, .. } => format!("-- trace off (EVCODE {evcode})"),
            Event::Lost { offset, .. } => {
                format!("-- trace lost (Error message at byte {offset:#x})")
            }
            Event::Error { offset, message } => format!("-- error at byte {offset:#x}: {message}"),
            Event::Warning {
                offset, message, ..
            } => format!("-- warning at byte {offset:#x}: {message}"),
        };
        self.put(format!("{text}\n").as_bytes());
    }
}

fn decode(a: DecodeArgs) -> Result<ExitCode> {
    let mut cfg = match settings(&a.input, &a.format)? {
        Some((e, depth_known)) => DecoderConfig::for_settings(&e, depth_known),
        None => {
            let mut c = DecoderConfig::default();
            c.set_format(format_of(&a.input, &a.format)?);
            c
        }
    };
    if let Some(src) = a.src {
        let shown = match src {
            SrcArg::One(n) => n.to_string(),
            SrcArg::All => "all".into(),
        };
        let bits = cfg.format().src_bits;
        if bits == 0 {
            bail!(
                "--src {shown}: the stream's messages carry no SRC field (trTeSrcBits is 0 in \
                 {}): it has one source; decode it without --src",
                settings_name(&a.input, &a.format)
            );
        }
        if let SrcArg::One(n) = src {
            if u32::from(n) >> bits != 0 {
                bail!(
                    "--src {n}: the stream's SRC field has {bits} bit{} ({}), so SRC is \
                     0..={}",
                    if bits == 1 { "" } else { "s" },
                    settings_name(&a.input, &a.format),
                    (1u32 << bits) - 1
                );
            }
            cfg.src_filter = Some(n);
        }
    }
    if let Some(d) = a.return_stack_depth {
        cfg.implicit_return_depth = d;
        cfg.implicit_return_depth_known = true;
    }
    let mut image = Image::new();
    let mut symbols = None;
    if let Some(p) = &a.elf {
        let b = read_capped(p, ELF_CAP, "an ELF program")?;
        let shown = p.display().to_string();
        image = Image::from_elf(&b, &shown)?;
        symbols = iss::elf::parse_symbols(&b, &shown).ok();
    }
    for r in &a.raw {
        let (addr, file) = r
            .split_once(':')
            .with_context(|| format!("--raw {r}: expected ADDR:FILE"))?;
        let addr = parse_addr(addr)?;
        // The image cannot go past the end of the address space it is mapped into.
        let room = (u64::MAX - addr).saturating_add(1);
        let bytes = read_capped(Path::new(file), RAW_CAP.min(room), "a raw image")
            .with_context(|| format!("--raw {r}"))?;
        image
            .add_raw(addr, bytes)
            .map_err(|e| anyhow::anyhow!("--raw {r}: {e}"))?;
    }
    for al in &a.alias {
        let parts: Vec<&str> = al.split(':').collect();
        if parts.len() != 3 {
            bail!("--alias {al}: expected VADDR:ADDR:LEN");
        }
        image
            .alias(
                parse_addr(parts[0])?,
                parse_addr(parts[1])?,
                parse_addr(parts[2])?,
            )
            .map_err(|e| anyhow::anyhow!("--alias {al}: {e}"))?;
    }
    if a.elf.is_none() && a.raw.is_empty() {
        bail!("ntrace decode needs the program: --elf FILE (or --raw ADDR:FILE)");
    }
    let (out, to): (Box<dyn Write>, String) = match &a.pcs {
        Some(p) if p.as_os_str() != "-" => (
            Box::new(
                std::fs::File::create(p)
                    .with_context(|| format!("cannot create {}", p.display()))?,
            ),
            p.display().to_string(),
        ),
        _ => (
            Box::new(std::io::stdout().lock()),
            "standard output".to_string(),
        ),
    };
    let mut printer = Printer {
        out: BufWriter::with_capacity(1 << 20, out),
        disasm: a.disasm,
        code: if a.disasm {
            image.code()
        } else {
            Default::default()
        },
        symbols,
        errors: 0,
        line: String::new(),
        failed: None,
        all: a.src == Some(SrcArg::All),
        src: None,
    };
    if a.src == Some(SrcArg::All) {
        return decode_all_sources(&a, cfg, image, printer, &to);
    }
    let mut dec = Decoder::new(cfg, image).map_err(|e| anyhow::anyhow!("ntrace decode: {e}"))?;
    dec.set_work_limit(a.work_limit);
    let read = Arc::new(AtomicU64::new(0));
    let progress = Progress::start(
        crate::progress::wanted(false, to == "standard output"),
        "hartscope ntrace decode",
        Unit::Bytes,
        read.clone(),
        crate::progress::file_size(&a.input),
    );
    for_chunks(&a.input, |c| {
        dec.feed(c, &mut printer);
        read.fetch_add(c.len() as u64, Ordering::Relaxed);
        printer.failed.is_none()
    })?;
    progress.finish();
    if let Some(e) = printer.failed.take() {
        output_failed(e, "the pc flow", &to)?;
        return Ok(ExitCode::SUCCESS);
    }
    dec.finish(&mut printer);
    if let Some(SrcArg::One(n)) = a.src {
        if dec.followed() == 0 {
            let seen = dec.sources();
            let _ = printer.out.flush();
            bail!(
                "--src {n}: no message of SRC {n} in {} ({})",
                a.input.display(),
                if seen.is_empty() {
                    "it has no messages".to_string()
                } else {
                    format!("its sources: {}", list(&seen))
                }
            );
        }
    }
    if dec.pc().is_some() {
        // Trace is still on: no ProgTraceCorrelation (EVCODE 0, end of trace) closed it, so
        // the capture was cut short and what ran after the last message is unknown.
        eprintln!(
            "hartscope: ntrace decode: byte {:#x}: the stream ends while trace is on (no \
             ProgTraceCorrelation ends it): it was cut short, and the instructions after its \
             last message are not in the flow",
            dec.stats().bytes
        );
        printer.errors += 1;
    }
    if let Some(e) = printer.failed.take() {
        output_failed(e, "the pc flow", &to)?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Err(e) = printer.out.flush() {
        output_failed(e, "the pc flow", &to)?;
    }
    Ok(if printer.errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `a, b, c`.
fn list(v: &[u16]) -> String {
    v.iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Where the stream's format came from, for messages: the settings file, or the flags.
fn settings_name(input: &Path, f: &FormatArgs) -> String {
    if let Some(p) = &f.config {
        return format!("its settings {}", p.display());
    }
    let side = iss::files::sidecar_path(input);
    if side.is_file() {
        return format!("its settings {}", side.display());
    }
    "the format flags: no settings file, --src-bits not given".into()
}

/// `ntrace decode --src all`: every source of the stream, each with its own decoding state,
/// the pcs interleaved as the stream's messages are, each line naming its source.
fn decode_all_sources<W: Write>(
    a: &DecodeArgs,
    cfg: DecoderConfig,
    image: Image,
    mut printer: Printer<W>,
    to: &str,
) -> Result<ExitCode> {
    let mut dec = encoder::decoder::SourcesDecoder::new(cfg, image)
        .map_err(|e| anyhow::anyhow!("ntrace decode: {e}"))?;
    dec.set_work_limit(a.work_limit);
    for_chunks(&a.input, |c| {
        dec.feed(c, &mut printer);
        printer.failed.is_none()
    })?;
    if let Some(e) = printer.failed.take() {
        output_failed(e, "the pc flow", to)?;
        return Ok(ExitCode::SUCCESS);
    }
    dec.finish(&mut printer);
    let sources = dec.sources();
    if sources.is_empty() {
        eprintln!(
            "hartscope: ntrace decode: {}: the stream has no messages of any source",
            a.input.display()
        );
        printer.errors += 1;
    }
    for (src, _, pc) in &sources {
        if pc.is_some() {
            eprintln!(
                "hartscope: ntrace decode: byte {:#x}: SRC {src}: the stream ends while its \
                 trace is on (no ProgTraceCorrelation ends it): it was cut short, and its \
                 instructions after its last message are not in the flow",
                dec.bytes()
            );
            printer.errors += 1;
        }
    }
    if let Some(e) = printer.failed.take() {
        output_failed(e, "the pc flow", to)?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Err(e) = printer.out.flush() {
        output_failed(e, "the pc flow", to)?;
    }
    Ok(if printer.errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `--work-limit`: a count of half-words (decimal or 0x hex), or `none`.
fn parse_limit(s: &str) -> Result<u64, String> {
    if s.eq_ignore_ascii_case("none") {
        return Ok(u64::MAX);
    }
    let t = s.trim().replace('_', "");
    let v = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16),
        None => t.parse(),
    }
    .map_err(|_| format!("'{s}' is not a count of half-words (or `none`)"))?;
    if v == 0 {
        return Err("the work limit must be at least 1 half-word".into());
    }
    Ok(v)
}
