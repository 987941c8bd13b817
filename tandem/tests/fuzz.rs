//! The reader never panics: random bytes, streams with random bytes changed, inserted or
//! cut, and random item sequences (which must round-trip). Every error names a byte offset
//! inside the input.

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
    #![proptest_config(ProptestConfig::with_cases(2000))]

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
