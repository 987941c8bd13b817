//! Trace capture options of `hartscope run`: the ingress port, the N-Trace encoder (its
//! settings named as the trace-control fields, from flags or a TOML/JSON file), beat writers.

use anyhow::{bail, Context, Result};
use clap::Args;
use encoder::encoder::{EncoderConfig, Filter, BTM, HTM};
use encoder::writers::CsvFlavour;
use iss::ingress::{ContextSource, IngressConfig, Retirement};
use std::path::PathBuf;

#[derive(Args, Debug, Default)]
pub struct TraceArgs {
    /// Capture N-Trace: write the encoder's MSEO/MDO byte stream to FILE (and its settings to
    /// FILE.json, which `ntrace dump` and `ntrace decode` read). `-`: standard output (the
    /// guest's console output then goes to standard error, and --ntrace-sidecar is needed).
    #[arg(long, value_name = "FILE", help_heading = "Trace capture")]
    pub ntrace: Option<PathBuf>,
    /// Write the encoder's settings to FILE instead of beside the trace (FILE.json). Needed when
    /// the trace goes to standard output or to something that is not a regular file (a device,
    /// a pipe).
    #[arg(long, value_name = "FILE", help_heading = "Trace capture")]
    pub ntrace_sidecar: Option<PathBuf>,
    /// Write the ingress port's beats to FILE: .jsonl, .vcd or .csv (the E-Trace reference
    /// encoder model's input).
    #[arg(long, value_name = "FILE", help_heading = "Trace capture")]
    pub ingress: Option<PathBuf>,
    /// What the .csv --ingress file is written for: `spec` (default: the beats as the
    /// ingress-port spec defines them) or `reference-model` (what the E-Trace reference flow's
    /// encoder model needs: an xRET as the uninferable jump its post-iss makes of it, itype 14,
    /// or 6 with --itype-width 3; an iretire = 0 beat right after an xRET with the xRET's
    /// privilege).
    #[arg(long, value_name = "FLAVOUR", help_heading = "Trace capture")]
    pub ingress_csv_flavour: Option<String>,
    /// Include the data trace interface in the beats (loads, stores, CSRs, atomics).
    #[arg(long, help_heading = "Trace capture")]
    pub ingress_data: bool,
    /// Print encoder statistics at the end: messages by type, bytes, bits per instruction.
    #[arg(long, help_heading = "Trace capture")]
    pub stats: bool,
    /// Encoder settings from a TOML or JSON file (field names as in `EncoderConfig`:
    /// tr_te_inst_mode, tr_te_context, ...); flags below override it.
    #[arg(long, value_name = "FILE", help_heading = "N-Trace encoder")]
    pub ntrace_config: Option<PathBuf>,
    /// trTeInstMode: 3 (BTM) or 6 (HTM); also `btm`, `htm`.
    #[arg(long, value_name = "MODE", help_heading = "N-Trace encoder")]
    pub tr_te_inst_mode: Option<String>,
    /// trTeContext: Ownership messages (privilege and context).
    #[arg(long, help_heading = "N-Trace encoder")]
    pub tr_te_context: bool,
    /// trTeSrcBits: width of the SRC field (0..=12).
    #[arg(long, value_name = "N", help_heading = "N-Trace encoder")]
    pub tr_te_src_bits: Option<u8>,
    /// trTeSrcID: this encoder's SRC value.
    #[arg(long, value_name = "ID", help_heading = "N-Trace encoder")]
    pub tr_te_src_id: Option<u16>,
    /// trTeInhibitSrc: no SRC field.
    #[arg(long, help_heading = "N-Trace encoder")]
    pub tr_te_inhibit_src: bool,
    /// trTeInstSyncMode: 0 off, 1 messages, 3 I-CNT half-words.
    #[arg(long, value_name = "N", help_heading = "N-Trace encoder")]
    pub tr_te_inst_sync_mode: Option<u8>,
    /// trTeInstSyncMax: periodic sync every 2^(N+4) units.
    #[arg(long, value_name = "N", help_heading = "N-Trace encoder")]
    pub tr_te_inst_sync_max: Option<u8>,
    /// trTeInstEnAllJumps: direct jumps are reported like taken branches.
    #[arg(long, help_heading = "N-Trace encoder")]
    pub tr_te_inst_en_all_jumps: bool,
    /// trTeInstEnSequentialJump: sequentially inferable jumps are not reported.
    #[arg(long, help_heading = "N-Trace encoder")]
    pub tr_te_inst_en_sequential_jump: bool,
    /// trTeInstImplicitReturnMode: 0 off, 1 counter, 2 partial addresses, 3 full addresses.
    #[arg(long, value_name = "N", help_heading = "N-Trace encoder")]
    pub tr_te_inst_implicit_return_mode: Option<u8>,
    /// Depth of the implicit-return stack (1..=32).
    #[arg(long, value_name = "N", help_heading = "N-Trace encoder")]
    pub implicit_return_depth: Option<u8>,
    /// trTeInstEnRepeatedHistory: repeated HIST patterns (ResourceFull RCODE 2).
    #[arg(long, help_heading = "N-Trace encoder")]
    pub tr_te_inst_en_repeated_history: bool,
    /// trTeInstEnRepeatBranch: RepeatBranch messages (BTM).
    #[arg(long, help_heading = "N-Trace encoder")]
    pub tr_te_inst_en_repeat_branch: bool,
    /// trTeInstExtendAddrMSB: address fields with their MSB extended.
    #[arg(long, help_heading = "N-Trace encoder")]
    pub tr_te_inst_extend_addr_msb: bool,
    /// trTsEnable: timestamps (from mtime).
    #[arg(long, help_heading = "N-Trace encoder")]
    pub tr_ts_enable: bool,
    /// trTeInstStallEna: the hart waits for the encoder; no trace is lost (the default unless
    /// --trace-fifo is given).
    #[arg(long, help_heading = "N-Trace encoder")]
    pub trace_stall: bool,
    /// Output FIFO of BYTES: messages that do not fit are lost (Error + SYNC 7).
    #[arg(long, value_name = "BYTES", help_heading = "N-Trace encoder")]
    pub trace_fifo: Option<u32>,
    /// Trace port bandwidth for the FIFO: bytes drained per 1000 half-words retired.
    #[arg(long, value_name = "N", help_heading = "N-Trace encoder")]
    pub trace_drain: Option<u32>,
    /// I-CNT counter width, with its overflow bit (4..=22).
    #[arg(long, value_name = "BITS", help_heading = "N-Trace encoder")]
    pub icnt_bits: Option<u8>,
    /// HIST width, with its stop bit (3..=32).
    #[arg(long, value_name = "BITS", help_heading = "N-Trace encoder")]
    pub hist_bits: Option<u8>,
    /// trTeInstFilters: trace only blocks starting in [START, END) (hex).
    #[arg(long, value_name = "START:END", help_heading = "N-Trace encoder")]
    pub trace_filter: Option<String>,
    /// trTeInstFilters: trace only these privileges (e.g. `M,S`).
    #[arg(long, value_name = "LIST", help_heading = "N-Trace encoder")]
    pub trace_privs: Option<String>,
    /// Trace-on trigger: start tracing at this address (hex).
    #[arg(long, value_name = "ADDR", help_heading = "N-Trace encoder")]
    pub trace_on: Option<String>,
    /// Trace-off trigger: stop tracing after this address (hex).
    #[arg(long, value_name = "ADDR", help_heading = "N-Trace encoder")]
    pub trace_off: Option<String>,
    /// Ingress port retirement: `single` (retires_p = 1) or `block` (default), `block:N` for
    /// blocks of at most N half-words.
    #[arg(long, value_name = "MODE", help_heading = "Ingress port")]
    pub retirement: Option<String>,
    /// itype width: 4 (default) or 3 (all uninferable jumps are 6).
    #[arg(long, value_name = "BITS", help_heading = "Ingress port")]
    pub itype_width: Option<u8>,
    /// What `context` carries: `asid` (satp.ASID, default) or `none`.
    #[arg(long, value_name = "SRC", help_heading = "Ingress port")]
    pub ingress_context: Option<String>,
    /// ctype on a context change: 1 imprecise or 2 precise (default).
    #[arg(long, value_name = "N", help_heading = "Ingress port")]
    pub ingress_ctype: Option<u8>,
}

/// Parse an address: always hexadecimal, with or without `0x` (`80000000` is 0x8000_0000),
/// `_` allowed between digits.
pub fn parse_addr(s: &str) -> Result<u64> {
    let t = s.trim();
    let r = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u64::from_str_radix(&h.replace('_', ""), 16)
    } else {
        u64::from_str_radix(&t.replace('_', ""), 16)
    };
    r.with_context(|| {
        format!("'{s}' is not an address (hexadecimal, with or without 0x: 0x80000000)")
    })
}

impl TraceArgs {
    pub fn wanted(&self) -> bool {
        self.ntrace.is_some() || self.ingress.is_some()
    }

    /// The encoder settings: the file, then the flags.
    pub fn encoder_config(&self) -> Result<EncoderConfig> {
        let mut c = match &self.ntrace_config {
            Some(p) => crate::files::load_encoder_config(p)?,
            None => EncoderConfig::default(),
        };
        if let Some(m) = &self.tr_te_inst_mode {
            c.control.tr_te_inst_mode = match m.to_ascii_lowercase().as_str() {
                "3" | "btm" => BTM,
                "6" | "htm" => HTM,
                other => bail!("--tr-te-inst-mode {other}: 3 (btm) or 6 (htm)"),
            };
        }
        macro_rules! flag {
            ($f:ident) => {
                if self.$f {
                    c.control.$f = true;
                }
            };
        }
        flag!(tr_te_context);
        flag!(tr_te_inhibit_src);
        flag!(tr_te_inst_en_all_jumps);
        flag!(tr_te_inst_en_sequential_jump);
        flag!(tr_te_inst_en_repeated_history);
        flag!(tr_te_inst_en_repeat_branch);
        flag!(tr_te_inst_extend_addr_msb);
        flag!(tr_ts_enable);
        macro_rules! opt {
            ($a:ident, $($f:ident).+) => {
                if let Some(v) = self.$a {
                    c.$($f).+ = v;
                }
            };
        }
        opt!(tr_te_src_bits, control.tr_te_src_bits);
        opt!(tr_te_src_id, control.tr_te_src_id);
        opt!(tr_te_inst_sync_mode, control.tr_te_inst_sync_mode);
        opt!(tr_te_inst_sync_max, control.tr_te_inst_sync_max);
        opt!(
            tr_te_inst_implicit_return_mode,
            control.tr_te_inst_implicit_return_mode
        );
        opt!(implicit_return_depth, implicit_return_depth);
        opt!(icnt_bits, icnt_bits);
        opt!(hist_bits, hist_bits);
        opt!(trace_drain, drain_per_khw);
        if let Some(b) = self.trace_fifo {
            c.fifo_bytes = b;
            c.control.tr_te_inst_stall_ena = false;
        }
        if self.trace_stall {
            c.control.tr_te_inst_stall_ena = true;
        }
        if self.trace_filter.is_some() || self.trace_privs.is_some() {
            let (start, end) = match &self.trace_filter {
                Some(r) => {
                    let (a, b) = r
                        .split_once(':')
                        .with_context(|| format!("--trace-filter {r}: expected START:END"))?;
                    (parse_addr(a)?, parse_addr(b)?)
                }
                None => (0, u64::MAX),
            };
            let privs = match &self.trace_privs {
                Some(l) => {
                    let mut m = 0u8;
                    for p in l.split(',') {
                        m |= match p.trim().to_ascii_uppercase().as_str() {
                            "U" => 1,
                            "S" => 2,
                            "M" => 8,
                            other => bail!("--trace-privs: unknown privilege '{other}' (U, S, M)"),
                        };
                    }
                    m
                }
                None => 0xb,
            };
            c.control.filter = Some(Filter { start, end, privs });
        }
        if let Some(a) = &self.trace_on {
            c.control.trace_on = Some(parse_addr(a)?);
        }
        if let Some(a) = &self.trace_off {
            c.control.trace_off = Some(parse_addr(a)?);
        }
        if let Some(r) = &self.retirement {
            c.retirement = parse_retirement(r)?;
        } else if self
            .ingress
            .as_ref()
            .and_then(|p| p.extension())
            .is_some_and(|e| e.eq_ignore_ascii_case("csv"))
        {
            // The E-Trace reference encoder model reads single retirement only.
            c.retirement = Retirement::Single;
        }
        c.legalize()
            .map_err(|e| anyhow::anyhow!("N-Trace encoder: {e}"))?;
        Ok(c)
    }

    /// The ingress port's settings (consistent with the encoder's).
    pub fn ingress_config(&self, enc: &EncoderConfig) -> Result<IngressConfig> {
        let mut c = IngressConfig {
            retirement: enc.retirement,
            control: enc.control.port(),
            data: self.ingress_data,
            ..IngressConfig::default()
        };
        if let Some(w) = self.itype_width {
            if w != 3 && w != 4 {
                bail!("--itype-width {w}: 3 or 4");
            }
            if w == 3 && enc.control.tr_te_inst_implicit_return_mode != 0 {
                bail!(
                    "implicit return needs the 4-bit itype (calls and returns must be told apart)"
                );
            }
            c.itype_width = w;
        }
        if let Some(s) = &self.ingress_context {
            c.context = match s.as_str() {
                "asid" => ContextSource::Asid,
                "none" => ContextSource::None,
                other => bail!("--ingress-context {other}: asid or none"),
            };
        }
        if let Some(t) = self.ingress_ctype {
            if t != 1 && t != 2 {
                bail!("--ingress-ctype {t}: 1 (imprecise) or 2 (precise)");
            }
            c.ctype = t;
        }
        Ok(c)
    }
}

impl TraceArgs {
    /// The CSV writer's flavour (`--ingress-csv-flavour`), for the port's settings `icfg`.
    /// Refused for an --ingress file that is not a .csv.
    pub fn csv_flavour(&self, icfg: &IngressConfig) -> Result<CsvFlavour> {
        let Some(f) = &self.ingress_csv_flavour else {
            return Ok(CsvFlavour::Spec);
        };
        let csv = self
            .ingress
            .as_ref()
            .and_then(|p| p.extension())
            .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
        if !csv {
            bail!(
                "--ingress-csv-flavour {f}: it applies to an --ingress file ending in .csv, \
                 and there is none"
            );
        }
        Ok(match f.as_str() {
            "spec" => CsvFlavour::Spec,
            "reference-model" => CsvFlavour::ReferenceModel {
                itype_width: icfg.itype_width,
            },
            other => bail!("--ingress-csv-flavour {other}: spec or reference-model"),
        })
    }
}

pub fn parse_retirement(r: &str) -> Result<Retirement> {
    Ok(match r {
        "single" => Retirement::Single,
        "block" => Retirement::Block {
            max_halfwords: 1 << 16,
        },
        other => match other.strip_prefix("block:") {
            Some(n) => Retirement::Block {
                max_halfwords: n
                    .parse()
                    .with_context(|| format!("--retirement {other}: block:N with N half-words"))?,
            },
            None => bail!("--retirement {other}: single, block or block:N"),
        },
    })
}
