//! Streams as other encoders in the field write them (issue 17): each test runs a small
//! program on the hart, traces it with hartscope's encoder, and turns the stream into the form
//! another encoder writes, with the encoder's own message writer (`msg::encode`), making the
//! other encoder's choice where the two differ. The decoder must give back exactly what the
//! hart retired, with one warning of the right kind at the right byte offset, no error.
//!
//! - NexRv `-cs 8`: a return stack shallower than the decoder's (N-Trace 9.2);
//! - NexRv `-rpt 1`: RepeatBranch after IndirectBranchHist in HTM (7.11);
//! - NexRv with an empty HIST at the end: ProgTraceCorrelation CDF 0 in HTM (errata: CDF 1).

mod common;

use common::asm::{self, cond, Asm, Code, RA};
use common::{round_trip, Case, Collect, Drive, Expectation, Outcome};
use encoder::decoder::{Decoder, DecoderConfig, Warning};
use encoder::encoder::{EncoderConfig, TraceControl, BTM, HTM};
use encoder::image::Image;
use encoder::msg::{self, btype, evcode, Body, Message};
use iss::ingress::IngressConfig;
use rstest::rstest;

const BASE: u64 = 0x8000_0000;
const LIMIT: u64 = 10_000;
const T1: u8 = 6;

/// Exit through the test finisher (as in `corner_cases.rs`).
fn exit(a: &mut Asm) {
    a.w(asm::lui(10, 0x100));
    a.w(asm::lui(11, 5));
    a.w(asm::i_type(asm::op::OP_IMM_32, 0, 11, 11, 0x555));
    a.w(asm::sw(11, 10, 0));
    let l = a.here();
    a.jal(0, l, false);
}

fn image(code: &Code) -> Image {
    let mut img = Image::new();
    img.add_raw(code.base, code.bytes.clone()).unwrap();
    img
}

/// Runs `code` traced with `cfg`; the decoder given the encoder's settings must decode it.
fn trace(code: &Code, cfg: &EncoderConfig) -> Outcome {
    let fresh = || {
        let mut m = code.machine();
        m.boot(code.base);
        m
    };
    let case = Case {
        name: "interop",
        cfg: cfg.clone(),
        icfg: IngressConfig::default(),
        drive: Drive::Capture,
        expect: Expectation::Exact,
    };
    let o = round_trip(&fresh, |_, _| image(code), &case, LIMIT);
    assert_eq!(o.stop, iss::Stop::Exit(0), "the program does not exit");
    assert!(o.got.errors.is_empty(), "{:?}", o.got.errors);
    assert!(o.got.warnings.is_empty(), "{:?}", o.got.warnings);
    assert_eq!(o.got.all(), o.expect.pcs);
    o
}

/// The messages of a stream, written again with the encoder's message writer; `offsets` gets
/// each message's byte offset.
fn write(msgs: &[Message], cfg: &EncoderConfig, offsets: &mut Vec<u64>) -> Vec<u8> {
    let mut out = Vec::new();
    for m in msgs {
        offsets.push(out.len() as u64);
        msg::encode(m, &cfg.format(), &mut out);
    }
    out
}

fn decode(dcfg: DecoderConfig, code: &Code, bytes: &[u8]) -> Collect {
    let mut dec = Decoder::new(dcfg, image(code)).unwrap();
    let mut got = Collect::default();
    dec.decode_all(bytes, &mut got);
    assert_eq!(
        dec.stats().warnings as usize,
        got.warnings.len(),
        "Stats counts the warnings"
    );
    got
}

fn kinds(got: &Collect) -> Vec<(Warning, u64)> {
    got.warnings
        .iter()
        .map(|(k, m)| {
            let at = m[1..m.find(':').unwrap()].parse().unwrap();
            (*k, at)
        })
        .collect()
}

/// `main` calls f1 twice; f1 calls f2 ... f5, each keeping its return address in a saved
/// register (`mv s_k, ra; jal f_k+1; mv ra, s_k; ret`): calls five deep.
fn call_chain() -> Code {
    let mut a = Asm::new(BASE);
    let saved = [9u8, 18, 19, 20, 21];
    let f: Vec<_> = (0..5).map(|_| a.label()).collect();
    a.w(asm::addi(8, 0, 2));
    let again = a.here();
    a.jal(RA, f[0], false);
    a.w(asm::addi(8, 8, -1));
    a.branch(cond::NE, 8, 0, again, false);
    exit(&mut a);
    for k in 0..5 {
        a.bind(f[k]);
        if k == 4 {
            a.w(asm::addi(10, 10, 1));
        } else {
            a.w(asm::addi(saved[k], RA, 0));
            a.jal(RA, f[k + 1], false);
            a.w(asm::addi(RA, saved[k], 0));
        }
        a.w(asm::jalr(0, RA, 0));
    }
    a.finish()
}

/// (1) An encoder with a return stack of depth 2 (NexRv `-cs 2`; its own settings sidecar
/// would say so) decoded by a decoder that does not know the depth and assumes the maximum,
/// 32 (N-Trace 9.2): the return from f3 to f2 is reported, but the decoder's deeper stack
/// predicts it. The reported target is followed, the decoder's stack emptied (the encoder's
/// was), and one warning names the first such message; the next reported returns (f2 to f1,
/// f1 to main, and the second call chain's) need no warning. Told the depth (as from the
/// sidecar), the decoder decodes it without a warning; told a wrong one, it refuses it.
#[rstest]
fn shallower_return_stack_is_decoded_with_a_warning(
    #[values(BTM, HTM)] mode: u8,
    #[values(1, 2, 3)] irm: u8,
) {
    let code = call_chain();
    let cfg = EncoderConfig {
        control: TraceControl {
            tr_te_inst_mode: mode,
            tr_te_inst_implicit_return_mode: irm,
            ..TraceControl::default()
        },
        implicit_return_depth: 2,
        ..EncoderConfig::default()
    };
    let o = trace(&code, &cfg);
    let msgs: Vec<Message> = common::messages(&o.bytes, &cfg.format())
        .into_iter()
        .map(|(_, m)| m)
        .collect();
    let mut offsets = Vec::new();
    let bytes = write(&msgs, &cfg, &mut offsets);
    assert_eq!(
        bytes, o.bytes,
        "the message writer gives the encoder's bytes"
    );
    // The first reported return is the first indirect-branch message.
    let first = msgs
        .iter()
        .position(|m| {
            matches!(
                m.body,
                Body::IndirectBranch {
                    btype: btype::INDIRECT,
                    ..
                } | Body::IndirectBranchHist {
                    btype: btype::INDIRECT,
                    ..
                }
            )
        })
        .expect("a reported return");
    let assumed = DecoderConfig {
        implicit_return_depth: 32,
        implicit_return_depth_known: false,
        ..DecoderConfig::for_encoder(&cfg)
    };
    let got = decode(assumed, &code, &bytes);
    assert!(got.errors.is_empty(), "{:?}", got.errors);
    assert_eq!(got.all(), o.expect.pcs, "the flow");
    assert_eq!(
        kinds(&got),
        vec![(Warning::ShallowReturnStack, offsets[first])]
    );
    assert!(
        got.warnings[0].1.contains("shallower"),
        "{:?}",
        got.warnings
    );
    // Known, right and wrong.
    let got = decode(DecoderConfig::for_encoder(&cfg), &code, &bytes);
    assert!(got.errors.is_empty() && got.warnings.is_empty());
    let wrong = DecoderConfig {
        implicit_return_depth: 32,
        ..DecoderConfig::for_encoder(&cfg)
    };
    let got = decode(wrong, &code, &bytes);
    // (Then it waits for a sync, which this short stream does not have.)
    assert_eq!(got.errors.len(), 1, "{:?}", got.errors);
    assert!(
        got.errors[0].starts_with(&format!("@{}:", offsets[first]))
            && got.errors[0].contains("the encoder's) predicts it"),
        "{:?}",
        got.errors
    );
}

/// [`jump_loop`] traced in HTM: the code, the settings, the outcome and its messages.
fn jump_loop_in_htm() -> (Code, EncoderConfig, Outcome, Vec<Message>) {
    let code = jump_loop();
    let cfg = EncoderConfig {
        control: TraceControl {
            tr_te_inst_mode: HTM,
            ..TraceControl::default()
        },
        ..EncoderConfig::default()
    };
    let o = trace(&code, &cfg);
    let msgs = common::messages(&o.bytes, &cfg.format())
        .into_iter()
        .map(|(_, m)| m)
        .collect();
    (code, cfg, o, msgs)
}

/// A loop whose every iteration ends with `jr t1` back to its start after a not-taken branch:
/// in HTM, IndirectBranchHist I-CNT 6, HIST 0b10, to the same target, so U-ADDR 0 from the
/// second iteration on. Then `jr` to the exit, so the run ends with an empty HIST.
fn jump_loop() -> Code {
    let mut a = Asm::new(BASE);
    let top = a.label();
    let done = a.label();
    let tail = a.label();
    a.w(asm::addi(8, 0, 6));
    a.pcrel(T1, top, asm::Lo::Addi);
    a.bind(top);
    a.w(asm::addi(8, 8, -1));
    a.branch(cond::EQ, 8, 0, done, false);
    a.w(asm::jalr(0, T1, 0));
    a.bind(done);
    a.pcrel(T1, tail, asm::Lo::Addi);
    a.w(asm::jalr(0, T1, 0));
    a.bind(tail);
    exit(&mut a);
    a.finish()
}

/// (2) NexRv `-rpt 1` in HTM: the identical IndirectBranchHist messages (same I-CNT, HIST and
/// target, U-ADDR 0) after the first are sent as one RepeatBranch. N-Trace 7.11 allows it
/// ("generated if I-CNT, HIST and target address is the same"): decoded, no warning, with
/// or without trTeInstEnRepeatBranch (a BTM setting of hartscope's encoder).
#[test]
fn repeat_branch_after_indirect_branch_hist_in_htm() {
    let (code, cfg, o, msgs) = jump_loop_in_htm();
    let repeated = msgs
        .iter()
        .filter(|m| matches!(m.body, Body::IndirectBranchHist { uaddr: 0, .. }))
        .count();
    assert_eq!(repeated, 4, "five jumps, four to the same target again");
    let mut rewritten: Vec<Message> = Vec::new();
    let mut n = 0;
    for m in &msgs {
        let same = matches!(m.body, Body::IndirectBranchHist { uaddr: 0, .. })
            && rewritten.last().map(|l| &l.body) == Some(&m.body);
        if same {
            n += 1;
            continue;
        }
        if n > 0 {
            rewritten.push(Message {
                src: 0,
                body: Body::RepeatBranch { bcnt: n },
                tstamp: None,
            });
            n = 0;
        }
        rewritten.push(m.clone());
    }
    assert!(
        rewritten
            .iter()
            .any(|m| m.body == Body::RepeatBranch { bcnt: 3 }),
        "{rewritten:?}"
    );
    let bytes = write(&rewritten, &cfg, &mut Vec::new());
    assert!(bytes.len() < o.bytes.len());
    let got = decode(DecoderConfig::for_encoder(&cfg), &code, &bytes);
    assert!(got.errors.is_empty(), "{:?}", got.errors);
    assert!(got.warnings.is_empty(), "{:?}", got.warnings);
    assert_eq!(got.all(), o.expect.pcs, "the flow");
}

/// (3) NexRv ends an HTM trace whose HIST is empty with ProgTraceCorrelation CDF 0 and no
/// HIST field (the errata: CDF 1, HIST 1). Its I-CNT (the exit sequence, the tail of the
/// flow) is kept, with a warning at its offset.
#[test]
fn htm_correlation_with_cdf_0_keeps_the_tail() {
    let (code, cfg, o, mut msgs) = jump_loop_in_htm();
    let last = msgs.last_mut().unwrap();
    let Body::ProgTraceCorrelation {
        evcode: evcode::ENTER_DEBUG,
        cdf: 1,
        icnt,
        hist: Some(1),
    } = last.body
    else {
        panic!("the trace does not end with an empty HIST: {:?}", last.body);
    };
    assert!(icnt > 0, "a tail to keep");
    last.body = Body::ProgTraceCorrelation {
        evcode: evcode::ENTER_DEBUG,
        cdf: 0,
        icnt,
        hist: None,
    };
    let mut offsets = Vec::new();
    let bytes = write(&msgs, &cfg, &mut offsets);
    let got = decode(DecoderConfig::for_encoder(&cfg), &code, &bytes);
    assert!(got.errors.is_empty(), "{:?}", got.errors);
    assert_eq!(got.all(), o.expect.pcs, "the flow, its tail included");
    assert_eq!(
        kinds(&got),
        vec![(Warning::HtmCorrelationWithoutHist, *offsets.last().unwrap())]
    );
    assert_eq!(got.gaps, 1, "the end of trace");
}
