//! The reader never panics: random bytes, streams with random bytes changed, inserted or
//! cut, and random item sequences (which must round-trip). Every error names a byte offset
//! inside the input.
//!
//! The property tests below feed the parser, the dump and the verifier arbitrary bytes and
//! real written streams with bits flipped, cut short and spliced with pieces of other
//! streams: none of them may panic or hang, and every parse error carries the byte offset
//! (inside the input) and the number of the group it is in. Their case counts are small in
//! a normal run; `HARTSCOPE_FUZZ_CASES=N` runs N cases each.

mod common;

use common::*;
use proptest::prelude::*;
use tandem::config::WriterConfig;
use tandem::item::{encode_all, Addl, Item, MemReq, MemRsp};
use tandem::mutate::Rng;
use tandem::opcode::{MemOp, MemResult, MemSize};
use tandem::params::Params;
use tandem::parser::{parse_groups, parse_items, ParserOptions};
use tandem::verify::{verify, VerifyConfig};

fn read_all(bytes: &[u8], params: Params, strict: bool) {
    let opts = ParserOptions {
        params,
        strict_groups: strict,
        ..Default::default()
    };
    match parse_groups(bytes, opts) {
        Ok(_) => {}
        Err(e) => assert!(e.offset <= bytes.len() as u64, "{e}"),
    }
    if let Err(e) = parse_items(bytes, params) {
        assert!(e.offset <= bytes.len() as u64, "{e}");
    }
}

#[test]
fn random_bytes() {
    let mut rng = Rng::new(7);
    let params = [
        Params::RV64GC,
        Params::new(32, 32, 34).unwrap(),
        Params::new(32, 64, 32).unwrap(),
    ];
    for i in 0..10_000 {
        let n = rng.range(0, 200) as usize;
        // Bias towards valid opcodes so that parsing goes deep.
        let b: Vec<u8> = (0..n)
            .map(|_| {
                let v = rng.next_u64();
                if v & 3 == 0 {
                    v as u8
                } else {
                    [1u8, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 16, 17][(v >> 8) as usize % 13]
                }
            })
            .collect();
        read_all(&b, params[i % 3], i % 2 == 0);
    }
}

#[test]
fn mutated_streams() {
    let elf = program("rv64a");
    for (ci, cfg) in [WriterConfig::flute(), WriterConfig::everything()]
        .iter()
        .enumerate()
    {
        let clean = stream("rv64a", &elf, cfg, Some(1500));
        let mut rng = Rng::new(11 + ci as u64);
        for _ in 0..1000 {
            let mut b = clean.clone();
            for _ in 0..rng.range(1, 6) {
                let at = rng.range(0, b.len() as u64) as usize;
                match rng.range(0, 4) {
                    0 => b[at] = rng.next_u64() as u8,
                    1 => b[at] ^= 1 << rng.range(0, 8),
                    2 => b.insert(at, rng.next_u64() as u8),
                    _ => b.truncate(at),
                }
                if b.is_empty() {
                    break;
                }
            }
            read_all(&b, cfg.params, false);
        }
        // The verifier survives them too (and says so in its status).
        for _ in 0..30 {
            let mut b = clean.clone();
            let at = rng.range(0, b.len() as u64) as usize;
            b[at] ^= 1 << rng.range(0, 8);
            let r = verify(VerifyConfig::default(), Some((&elf, "rv64a")), &b[..]);
            assert!(r.exit_code() <= 2);
        }
    }
}

fn item() -> impl Strategy<Value = Item> {
    let size = prop_oneof![
        Just(MemSize::B8),
        Just(MemSize::B16),
        Just(MemSize::B32),
        Just(MemSize::B64)
    ];
    prop_oneof![
        Just(Item::IncrPc),
        (0x1000u16..0x1040, any::<u64>()).prop_map(|(addr, value)| Item::FullReg { addr, value }),
        (0u16..0x1000, any::<u64>()).prop_map(|(addr, value)| Item::FullReg { addr, value }),
        (any::<u16>(), any::<i8>()).prop_map(|(addr, delta)| Item::IncrRegAdd { addr, delta }),
        (any::<u16>(), any::<u8>()).prop_map(|(addr, mask)| Item::IncrRegOr { addr, mask }),
        prop_oneof![Just(0u8), Just(1), Just(3)].prop_map(|p| Item::Addl(Addl::Priv(p))),
        any::<u64>().prop_map(|v| Item::Addl(Addl::Eaddr(v))),
        any::<u64>().prop_map(|v| Item::Addl(Addl::Paddr(v))),
        any::<u64>().prop_map(|v| Item::Addl(Addl::Pc(v))),
        any::<u64>().prop_map(|v| Item::Addl(Addl::Mtime(v))),
        any::<u64>().prop_map(|v| Item::Addl(Addl::PcPaddr(v))),
        (size.clone(), any::<u64>())
            .prop_map(|(s, v)| Item::Addl(Addl::StoreData(s, v & s.mask()))),
        any::<u16>().prop_map(Item::Insn16),
        any::<u32>().prop_map(Item::Insn32),
        Just(Item::HartReset),
        (any::<u64>(), 0u8..14, size, any::<u64>()).prop_map(|(addr, op, size, d)| {
            let op = MemOp::from_code(op).unwrap();
            Item::MemReq(MemReq {
                addr,
                op,
                size,
                data: op.request_has_data().then_some(d & size.mask()),
            })
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(fuzz_cases(2000)))]

    /// Items encode and parse back to themselves (a response follows each request).
    #[test]
    fn items_round_trip(items in proptest::collection::vec(item(), 0..40)) {
        let mut seq = Vec::new();
        for it in items {
            seq.push(it);
            if let Item::MemReq(r) = it {
                seq.push(Item::MemRsp(MemRsp {
                    size: r.size,
                    result: MemResult::Failure,
                    data: r.op.response_has_data().then_some(r.size.mask()),
                }));
            }
        }
        let bytes = encode_all(&Params::RV64GC, &seq);
        let back: Vec<Item> = parse_items(&bytes, Params::RV64GC).unwrap().into_iter().map(|(_, i)| i).collect();
        prop_assert_eq!(back, seq);
    }
}

/// A real stream to mutate, with how it was written and the program.
struct Clean {
    cfg: WriterConfig,
    elf: Vec<u8>,
    bytes: Vec<u8>,
}

/// Real streams to mutate: rv64a's first 1500 instructions, written plainly and with every
/// extra (memory requests, image, counters, increment pc...).
fn clean_streams() -> &'static [Clean] {
    static S: std::sync::OnceLock<Vec<Clean>> = std::sync::OnceLock::new();
    S.get_or_init(|| {
        let elf = program("rv64a");
        [WriterConfig::flute(), WriterConfig::everything()]
            .into_iter()
            .map(|cfg| Clean {
                bytes: stream("rv64a", &elf, &cfg, Some(1500)),
                cfg,
                elf: elf.clone(),
            })
            .collect()
    })
}

/// One change to a stream; positions are fractions of its length (in 1/2^16).
#[derive(Clone, Debug)]
enum Mutation {
    FlipBit {
        at: u16,
        bit: u8,
    },
    Overwrite {
        at: u16,
        byte: u8,
    },
    Truncate {
        at: u16,
    },
    /// Copy `len` bytes from position `from` of stream `src` to `at` (inserted).
    Splice {
        src: usize,
        from: u16,
        len: u16,
        at: u16,
    },
    /// Drop `len` bytes at `at`.
    Cut {
        at: u16,
        len: u16,
    },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<u16>(), 0u8..8).prop_map(|(at, bit)| Mutation::FlipBit { at, bit }),
        (any::<u16>(), any::<u8>()).prop_map(|(at, byte)| Mutation::Overwrite { at, byte }),
        any::<u16>().prop_map(|at| Mutation::Truncate { at }),
        (0usize..2, any::<u16>(), 1u16..600, any::<u16>())
            .prop_map(|(src, from, len, at)| Mutation::Splice { src, from, len, at }),
        (any::<u16>(), 1u16..300).prop_map(|(at, len)| Mutation::Cut { at, len }),
    ]
}

fn pos(frac: u16, len: usize) -> usize {
    (frac as usize * len) >> 16
}

fn apply(b: &mut Vec<u8>, m: &Mutation) {
    let n = b.len();
    match *m {
        Mutation::FlipBit { at, bit } if n > 0 => b[pos(at, n)] ^= 1 << bit,
        Mutation::Overwrite { at, byte } if n > 0 => b[pos(at, n)] = byte,
        Mutation::Truncate { at } => b.truncate(pos(at, n)),
        Mutation::Splice { src, from, len, at } => {
            let s = &clean_streams()[src].bytes;
            let f = pos(from, s.len());
            let piece = s[f..(f + len as usize).min(s.len())].to_vec();
            let at = pos(at, n);
            b.splice(at..at, piece);
        }
        Mutation::Cut { at, len } => {
            let at = pos(at, n);
            b.drain(at..(at + len as usize).min(n));
        }
        _ => {}
    }
}

/// Parse, dump and verify `bytes` (on a thread with a deadline): no panic, no hang, and
/// every parse error inside the input and in the group the reader had reached.
fn read_dump_verify(bytes: Vec<u8>, cfg: WriterConfig, elf: Option<Vec<u8>>) {
    use tandem::dump::{dump, DumpError, DumpOptions};
    use tandem::parser::GroupReader;
    within(60, "parse, dump and verify a mutated stream", move || {
        let len = bytes.len() as u64;
        let opts = ParserOptions::with_params(cfg.params);
        // Streaming: the error's group is the number of units read before it.
        let mut r = GroupReader::new(&bytes[..], opts);
        let mut g = tandem::Group::default();
        let mut n = 0u64;
        let first_error = loop {
            match r.next_group(&mut g) {
                Ok(true) => n += 1,
                Ok(false) => break None,
                Err(e) => break Some(e),
            }
        };
        if let Some(e) = &first_error {
            assert!(e.offset <= len, "offset past the input: {e}");
            assert_eq!(e.group, n, "{e}");
            let shown = e.to_string();
            assert!(
                shown.contains(&format!("byte offset {}", e.offset))
                    && shown.contains(&format!("group {}", e.group)),
                "{shown}"
            );
            assert!(!e.is_read_error(), "a slice cannot fail to read: {e}");
        }
        // The dump stops at the same error, having written the groups before it.
        let mut out = Vec::new();
        let d = dump(
            &bytes[..],
            &mut out,
            DumpOptions {
                parser: opts,
                start_pc: Some(0x8000_0000),
            },
        );
        match (&d, &first_error) {
            (Ok(groups), None) => assert_eq!(*groups, n),
            (Err(DumpError::Parse(e)), Some(f)) => {
                assert_eq!(e, f);
                assert!(d
                    .as_ref()
                    .unwrap_err()
                    .to_string()
                    .starts_with("malformed stream: byte offset"));
            }
            _ => panic!("dump {d:?} disagrees with the reader {first_error:?}"),
        }
        assert_eq!(String::from_utf8_lossy(&out).lines().count() as u64, n);
        let mut vcfg = VerifyConfig {
            params: cfg.params,
            max_mismatches: 5,
            ..Default::default()
        };
        vcfg.absent = cfg.omit.clone();
        let rep = verify(vcfg, elf.as_deref().map(|e| (e, "rv64a")), &bytes[..]);
        assert!(rep.exit_code() <= 2, "{:?}", rep.error);
        if let Some(e) = &rep.parse_error {
            assert!(e.offset <= len && e.group <= n, "{e}");
            assert!(rep.error.as_deref().unwrap_or("").contains("byte offset"));
        }
    });
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(fuzz_cases(48)))]

    /// Real streams with a few bit flips, overwrites, cuts, truncations and splices.
    #[test]
    fn mutated_streams_never_panic_or_hang(
        which in 0usize..2,
        muts in proptest::collection::vec(mutation(), 1..6),
    ) {
        let c = &clean_streams()[which];
        let mut b = c.bytes.clone();
        for m in &muts {
            apply(&mut b, m);
        }
        read_dump_verify(b, c.cfg.clone(), Some(c.elf.clone()));
    }

    /// Arbitrary bytes, biased to the protocol's opcodes so that parsing goes deep; the
    /// verifier without a program (its reference hart takes the program from the stream).
    #[test]
    fn arbitrary_bytes_never_panic_or_hang(
        bytes in proptest::collection::vec(
            prop_oneof![any::<u8>(), proptest::sample::select(vec![1u8, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 16, 17])],
            0..400,
        ),
        everything in any::<bool>(),
    ) {
        let cfg = if everything { WriterConfig::everything() } else { WriterConfig::flute() };
        read_dump_verify(bytes, cfg, None);
    }
}
