//! Property tests of what `run --dtb`, `--bootargs` and `--kernel` read: device tree blobs
//! (the generated tree mutated with big-endian words that break offset and size arithmetic,
//! random bytes, truncations) and Linux Image headers. Nothing may panic: a bad blob is an
//! `FdtError`; a blob that is read writes back (with /chosen set) to a blob that reads as
//! the same tree.
//!
//! Case counts: a few seconds each by default; `HARTSCOPE_FUZZ_CASES=N` for long runs.

mod common;

use common::fuzz_cases;
use iss::fdt::{self, Chosen};
use proptest::prelude::*;
use proptest::sample::Index;
use std::sync::OnceLock;

/// The generated tree of the default machine.
fn generated() -> &'static [u8] {
    static B: OnceLock<Vec<u8>> = OnceLock::new();
    B.get_or_init(|| {
        let cfg = iss::Config::default();
        let pmu = pmu::Pmu::new(cfg.pmu.clone()).expect("the default PMU");
        iss::dtb::build(&cfg, &pmu.dt_tables()).expect("the generated tree")
    })
}

/// 32-bit values that break offset and size arithmetic.
const EDGES: [u32; 9] = [
    0,
    1,
    3,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_fff0,
    u32::MAX,
    0x28,
    0x10,
];

#[derive(Clone, Debug)]
enum Mutation {
    Byte(Index, u8),
    /// An edge value into an aligned word (header words among them).
    Word(Index, usize),
    Truncate(Index),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<Index>(), any::<u8>()).prop_map(|(i, b)| Mutation::Byte(i, b)),
        (any::<Index>(), 0..EDGES.len()).prop_map(|(i, e)| Mutation::Word(i, e)),
        any::<Index>().prop_map(Mutation::Truncate),
    ]
}

fn apply(b: &mut Vec<u8>, m: &Mutation) {
    let n = b.len();
    if n < 4 {
        return;
    }
    match m {
        Mutation::Byte(i, v) => b[i.index(n)] = *v,
        Mutation::Word(i, e) => {
            let at = 4 * i.index(n / 4);
            b[at..at + 4].copy_from_slice(&EDGES[*e].to_be_bytes());
        }
        Mutation::Truncate(i) => b.truncate(i.index(n)),
    }
}

/// Read `blob`; when it reads, set /chosen and check the rewritten blob reads as the tree
/// with those properties.
fn check(blob: &[u8]) {
    let Ok(tree) = fdt::parse(blob) else {
        return;
    };
    let _ = iss::dtb::to_dts(blob);
    assert_eq!(fdt::parse(&tree.to_blob()).as_ref(), Ok(&tree));
    let c = Chosen {
        bootargs: Some("console=ttyS0".into()),
        initrd: Some((0x8820_0000, 0x8830_0000)),
    };
    let out = fdt::patch_chosen(blob, &c).expect("a tree that reads takes /chosen");
    let t = fdt::parse(&out).expect("the rewritten blob reads");
    let chosen = t.root.child("chosen").expect("/chosen");
    assert_eq!(chosen.prop("bootargs"), Some(&b"console=ttyS0\0"[..]));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(fuzz_cases(2000)))]

    #[test]
    fn mutated_trees(ms in proptest::collection::vec(mutation(), 1..6)) {
        let mut b = generated().to_vec();
        for m in &ms {
            apply(&mut b, m);
        }
        check(&b);
    }

    #[test]
    fn arbitrary_bytes(mut b in proptest::collection::vec(any::<u8>(), 0..200), header in any::<bool>()) {
        if header && b.len() >= 40 {
            // A plausible header over random contents.
            let n = b.len() as u32;
            for (i, w) in [0xd00d_feed, n, 40, n / 2, 40, 17, 16, 0, n / 4, n / 4].iter().enumerate() {
                b[4 * i..4 * i + 4].copy_from_slice(&u32::to_be_bytes(*w));
            }
        }
        check(&b);
    }

    #[test]
    fn image_headers(mut b in proptest::collection::vec(any::<u8>(), 0..80), magic in any::<bool>()) {
        if magic && b.len() >= 60 {
            b[56..60].copy_from_slice(&iss::image::MAGIC2);
        }
        match iss::image::parse(&b) {
            Ok(h) => prop_assert!(b.len() >= 64 && h.flags & 1 == 0),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}
