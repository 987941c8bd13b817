//! Property tests of the N-Trace readers against hostile input: arbitrary byte streams, and
//! real encoded streams (shipped programs traced under several encoder settings) mutated by
//! bit flips, byte edits, truncations and splices, go into the decoder and the dump. Neither
//! may panic; the output per input byte is bounded (the decoder's work limit); every decode
//! error carries an offset inside the stream; the dump's lines start with their offset. The
//! decoder of every source at once (`SourcesDecoder`) gets the same streams, and real streams
//! of two sources interleaved at random decode, per source, exactly as each alone.
//!
//! Cases: `fuzz_cases()` (a few seconds in `cargo test`; `HARTSCOPE_FUZZ_CASES=N` for long
//! runs).

mod common;

use common::{fuzz_cases, Case, Drive, Expectation};
use encoder::decoder::{Decoder, DecoderConfig, Event, FlowSink, SourcesDecoder};
use encoder::dump::Dumper;
use encoder::encoder::{EncoderConfig, TraceControl, BTM};
use encoder::image::Image;
use iss::ingress::{IngressConfig, Retirement};
use iss::{Config, Machine};
use proptest::prelude::*;
use std::path::Path;
use std::sync::OnceLock;

/// The decoder's work limit in these tests (half-words per message).
const WORK: u64 = 1 << 12;

fn elf(name: &str) -> Vec<u8> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../programs/bin/{name}.elf"));
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The encoder settings the corpus is traced with.
fn settings() -> Vec<EncoderConfig> {
    let btm = EncoderConfig {
        control: TraceControl {
            tr_te_inst_mode: BTM,
            ..TraceControl::default()
        },
        ..EncoderConfig::default()
    };
    vec![
        EncoderConfig::default(),
        EncoderConfig {
            control: TraceControl {
                tr_te_inst_en_repeat_branch: true,
                tr_te_inst_sync_mode: 1,
                tr_te_inst_sync_max: 2,
                ..btm.clone().control
            },
            ..btm.clone()
        },
        EncoderConfig {
            control: TraceControl {
                tr_te_inst_en_repeated_history: true,
                tr_te_inst_implicit_return_mode: 3,
                tr_ts_enable: true,
                tr_te_context: true,
                ..TraceControl::default()
            },
            ..EncoderConfig::default()
        },
        EncoderConfig {
            control: TraceControl {
                tr_te_src_bits: 3,
                tr_te_src_id: 5,
                tr_te_inst_extend_addr_msb: true,
                tr_te_inst_en_all_jumps: true,
                ..btm.control
            },
            icnt_bits: 8,
            ..btm
        },
    ]
}

struct Sample {
    cfg: EncoderConfig,
    program: &'static str,
    bytes: Vec<u8>,
}

/// Real streams: shipped programs traced under each setting (computed once).
fn corpus() -> &'static [Sample] {
    static C: OnceLock<Vec<Sample>> = OnceLock::new();
    C.get_or_init(|| {
        let mut v = Vec::new();
        for program in ["rv64i", "rvc", "traps"] {
            let bytes = elf(program);
            for (i, cfg) in settings().into_iter().enumerate() {
                let mut m = Machine::new(Config::default());
                m.bus.console = iss::bus::Console::Null;
                let prog = iss::elf::load(&mut m, &bytes, program).unwrap();
                m.boot(prog.entry);
                let case = Case {
                    name: "fuzz",
                    cfg: cfg.clone(),
                    icfg: IngressConfig {
                        retirement: if i % 2 == 0 {
                            Retirement::Single
                        } else {
                            IngressConfig::default().retirement
                        },
                        control: cfg.control.port(),
                        ..IngressConfig::default()
                    },
                    drive: Drive::Capture,
                    expect: Expectation::Exact,
                };
                let (_, stream) = common::trace(&mut m, &case, 30_000);
                assert!(stream.len() > 32, "{program}: a real stream");
                v.push(Sample {
                    cfg,
                    program,
                    bytes: stream,
                });
            }
        }
        v
    })
}

fn images() -> &'static [(&'static str, Image)] {
    static I: OnceLock<Vec<(&'static str, Image)>> = OnceLock::new();
    I.get_or_init(|| {
        ["rv64i", "rvc", "traps"]
            .into_iter()
            .map(|p| (p, Image::from_elf(&elf(p), p).unwrap()))
            .collect()
    })
}

fn image(program: &str) -> Image {
    images()
        .iter()
        .find(|(p, _)| *p == program)
        .map(|(_, i)| i.clone())
        .unwrap()
}

/// Counts what the decoder produces, and checks error offsets.
struct Count {
    pcs: u64,
    events: u64,
    len: u64,
    bad_offset: Option<(u64, String)>,
}

impl FlowSink for Count {
    fn pc(&mut self, _: u64) {
        self.pcs += 1;
    }
    fn event(&mut self, e: &Event) {
        self.events += 1;
        if let Event::Error { offset, message } = e {
            if *offset >= self.len.max(1) {
                self.bad_offset.get_or_insert((*offset, message.clone()));
            }
        }
    }
}

/// Decodes `bytes` in chunks of `chunk` and dumps them (both kinds); checks the bounds.
fn check(cfg: &EncoderConfig, img: Image, bytes: &[u8], chunk: usize) -> Result<(), TestCaseError> {
    let img_all = img.clone();
    let mut d = Decoder::new(DecoderConfig::for_encoder(cfg), img).unwrap();
    d.set_work_limit(WORK);
    let len = bytes.len() as u64;
    let mut c = Count {
        pcs: 0,
        events: 0,
        len,
        bad_offset: None,
    };
    for part in bytes.chunks(chunk.max(1)) {
        d.feed(part, &mut c);
    }
    d.finish(&mut c);
    prop_assert_eq!(c.bad_offset, None, "an error offset outside the stream");
    // Every message has at least two bytes and may walk WORK half-words (each repetition
    // at least one), with a few events besides.
    let bound = (len / 2 + 1) * (WORK + 8);
    prop_assert!(
        c.pcs + c.events <= bound,
        "{} pcs and {} events from {len} bytes",
        c.pcs,
        c.events
    );
    if cfg.format().src_bits > 0 {
        // Every source at once: the same bounds (a message goes to one source).
        let mut d = SourcesDecoder::new(DecoderConfig::for_encoder(cfg), img_all).unwrap();
        d.set_work_limit(WORK);
        let mut c = Count {
            pcs: 0,
            events: 0,
            len,
            bad_offset: None,
        };
        for part in bytes.chunks(chunk.max(1)) {
            d.feed(part, &mut c);
        }
        d.finish(&mut c);
        prop_assert_eq!(
            c.bad_offset,
            None,
            "an error offset outside the stream (all)"
        );
        prop_assert!(
            c.pcs + c.events <= bound,
            "{} pcs and {} events from {len} bytes (all sources)",
            c.pcs,
            c.events
        );
        prop_assert!(d.sources().len() as u64 <= len / 2 + 1);
    }
    for raw in [false, true] {
        let mut dumper = Dumper::new(cfg.format(), raw);
        let mut out = Vec::new();
        for part in bytes.chunks(chunk.max(1)) {
            dumper.feed(part, &mut out).unwrap();
        }
        dumper.finish(&mut out).unwrap();
        prop_assert!(
            out.len() as u64 <= 600 * (len + 1),
            "{} bytes of dump (raw {raw}) from {len}",
            out.len()
        );
        let text = String::from_utf8(out).unwrap();
        if !raw {
            for l in text.lines() {
                prop_assert!(l.starts_with("0x"), "a dump line without its offset: {l}");
            }
        }
    }
    Ok(())
}

#[derive(Clone, Debug)]
enum Edit {
    Flip(usize, u8),
    Set(usize, u8),
    Insert(usize, u8),
    Remove(usize),
    Truncate(usize),
    /// The first part of this stream, then the rest of another from a point.
    Splice(usize, usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let at = any::<usize>();
    prop_oneof![
        (at, 0u8..8).prop_map(|(a, b)| Edit::Flip(a, b)),
        (at, any::<u8>()).prop_map(|(a, v)| Edit::Set(a, v)),
        (at, any::<u8>()).prop_map(|(a, v)| Edit::Insert(a, v)),
        at.prop_map(Edit::Remove),
        at.prop_map(Edit::Truncate),
        (any::<usize>(), at, at).prop_map(|(o, a, b)| Edit::Splice(o, a, b)),
    ]
}

fn apply(bytes: &mut Vec<u8>, e: &Edit) {
    let n = bytes.len();
    match *e {
        Edit::Flip(a, b) if n > 0 => bytes[a % n] ^= 1 << b,
        Edit::Set(a, v) if n > 0 => bytes[a % n] = v,
        Edit::Insert(a, v) => bytes.insert(a % (n + 1), v),
        Edit::Remove(a) if n > 0 => {
            bytes.remove(a % n);
        }
        Edit::Truncate(a) => bytes.truncate(a % (n + 1)),
        Edit::Splice(other, a, b) => {
            let c = corpus();
            let o = &c[other % c.len()].bytes;
            bytes.truncate(a % (n + 1));
            bytes.extend_from_slice(&o[b % o.len()..]);
        }
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(fuzz_cases()))]

    #[test]
    fn mutated_real_streams(
        which in any::<usize>(),
        edits in proptest::collection::vec(edit(), 1..8),
        chunk in 1usize..300,
    ) {
        let c = corpus();
        let s = &c[which % c.len()];
        let mut bytes = s.bytes.clone();
        for e in &edits {
            apply(&mut bytes, e);
        }
        check(&s.cfg, image(s.program), &bytes, chunk)?;
    }

    #[test]
    fn arbitrary_streams(
        bytes in proptest::collection::vec(any::<u8>(), 0..2000),
        which in any::<usize>(),
        chunk in 1usize..300,
    ) {
        let c = corpus();
        let s = &c[which % c.len()];
        check(&s.cfg, image(s.program), &bytes, chunk)?;
    }
}

/// Each source's pcs (by the SRC the decoder names), and the errors.
#[derive(Default)]
struct BySource {
    src: Option<u16>,
    pcs: std::collections::BTreeMap<Option<u16>, Vec<u64>>,
    errors: Vec<String>,
}

impl FlowSink for BySource {
    fn pc(&mut self, pc: u64) {
        self.pcs.entry(self.src).or_default().push(pc);
    }
    fn event(&mut self, e: &Event) {
        if let Event::Error { offset, message } = e {
            self.errors
                .push(format!("{:?} at {offset}: {message}", self.src));
        }
    }
    fn source(&mut self, src: Option<u16>) {
        self.src = src;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(fuzz_cases()))]

    /// A real stream's messages given two SRCs (2 and 5, in 3 bits) and interleaved at
    /// random, as a funnel interleaves two harts' whole messages, fed in chunks of any size:
    /// `SourcesDecoder` decodes each source exactly as the stream alone decodes, with no
    /// error, and names no other source.
    #[test]
    fn interleaved_sources_decode_as_alone(
        which in any::<usize>(),
        picks in proptest::collection::vec(any::<bool>(), 1..64),
        chunk in 1usize..300,
    ) {
        let c = corpus();
        let s = &c[which % c.len()];
        let mut alone = Vec::new();
        Decoder::new(DecoderConfig::for_encoder(&s.cfg), image(s.program))
            .unwrap()
            .decode_all(&s.bytes, &mut alone);
        let want: Vec<u64> = alone
            .iter()
            .filter_map(|f| match f {
                encoder::decoder::Flow::Pc(pc) => Some(*pc),
                _ => None,
            })
            .collect();
        let mut cfg = s.cfg.clone();
        cfg.control.tr_te_src_bits = 3;
        cfg.control.tr_te_inhibit_src = false;
        let f = cfg.format();
        let msgs = common::messages(&s.bytes, &s.cfg.format());
        let (mut a, mut b) = (0, 0);
        let mut bytes = Vec::new();
        let mut k = 0;
        while a < msgs.len() || b < msgs.len() {
            let take_a = b == msgs.len() || (a < msgs.len() && picks[k % picks.len()]);
            k += 1;
            let (src, i) = if take_a { (2, &mut a) } else { (5, &mut b) };
            let mut m = msgs[*i].1.clone();
            m.src = src;
            bytes.extend(encoder::msg::to_bytes(&m, &f));
            *i += 1;
        }
        let mut d = SourcesDecoder::new(DecoderConfig::for_encoder(&cfg), image(s.program))
            .unwrap();
        let mut out = BySource::default();
        for part in bytes.chunks(chunk) {
            d.feed(part, &mut out);
        }
        d.finish(&mut out);
        prop_assert!(out.errors.is_empty(), "{:?}", out.errors);
        let srcs: Vec<Option<u16>> = out.pcs.keys().copied().collect();
        prop_assert_eq!(srcs, vec![Some(2), Some(5)]);
        prop_assert_eq!(&out.pcs[&Some(2)], &want, "source 2");
        prop_assert_eq!(&out.pcs[&Some(5)], &want, "source 5");
    }
}

/// The unmutated corpus decodes without errors (the mutations start from real streams).
#[test]
fn corpus_decodes_cleanly() {
    for s in corpus() {
        let mut d = Decoder::new(DecoderConfig::for_encoder(&s.cfg), image(s.program)).unwrap();
        let mut out = Vec::new();
        d.decode_all(&s.bytes, &mut out);
        let errors: Vec<_> = out
            .iter()
            .filter(|f| matches!(f, encoder::decoder::Flow::Event(Event::Error { .. })))
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", s.program);
    }
}
