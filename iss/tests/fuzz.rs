//! Property tests of the hart's robustness against what a user can give it: ELF files
//! (mutated and truncated versions of the shipped programs, arbitrary bytes) and guest code
//! (random instruction words). Nothing may panic or hang: a bad file is an `ElfError` naming
//! the file; a program runs until a bounded instruction limit or one of the documented stops.
//! And the traced executor (with the commit log) must end exactly where the untraced one
//! does.
//!
//! Case counts: a few seconds each by default; `HARTSCOPE_FUZZ_CASES=N` for long runs.

mod common;

use common::{fuzz_cases, step_over_handler};
use iss::bus::RAM_BASE;
use iss::commitlog::CommitLog;
use iss::{Config, Machine, Misaligned, NoSink, Stop};
use proptest::prelude::*;
use proptest::sample::Index;
use std::sync::OnceLock;

/// The shipped programs (`programs/bin/*.elf`), read once.
fn shipped() -> &'static [(String, Vec<u8>)] {
    static P: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    P.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../programs/bin");
        let mut v: Vec<_> = std::fs::read_dir(&dir)
            .expect("programs/bin")
            .map(|e| e.expect("a directory entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "elf"))
            .map(|p| {
                let b = std::fs::read(&p).expect("read a program");
                (p.display().to_string(), b)
            })
            .collect();
        v.sort();
        assert!(v.len() > 20, "programs/bin has only {} programs", v.len());
        v
    })
}

/// Values that break size and offset arithmetic.
const EDGES: [u64; 10] = [
    0,
    1,
    0x7f,
    0xffff,
    0x8000_0000,
    0x8000_0000_0000_0000,
    u64::MAX,
    u64::MAX - 7,
    1 << 40,
    0xffff_ffff,
];

#[derive(Clone, Debug)]
enum Mutation {
    /// Set a byte anywhere.
    Byte(Index, u8),
    /// Set a byte of the headers (the first 0x200 bytes: ELF and program headers).
    HeaderByte(Index, u8),
    /// An edge value into an aligned word of the headers or of the section header table at
    /// the end of the file.
    Word(bool, Index, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<Index>(), any::<u8>()).prop_map(|(i, b)| Mutation::Byte(i, b)),
        (any::<Index>(), any::<u8>()).prop_map(|(i, b)| Mutation::HeaderByte(i, b)),
        (any::<bool>(), any::<Index>(), 0..EDGES.len())
            .prop_map(|(t, i, e)| Mutation::Word(t, i, e)),
    ]
}

fn apply(bytes: &mut [u8], m: &Mutation) {
    let n = bytes.len();
    if n == 0 {
        return;
    }
    match m {
        Mutation::Byte(i, b) => bytes[i.index(n)] = *b,
        Mutation::HeaderByte(i, b) => bytes[i.index(n.min(0x200))] = *b,
        Mutation::Word(tail, i, e) => {
            if n < 8 {
                return;
            }
            let words = (n.min(0x200) - 8) / 8 + 1;
            let at = if *tail {
                // The section header table is at the end of the shipped files.
                n - 8 - 8 * i.index(words.min(n / 8))
            } else {
                8 * i.index(words)
            };
            bytes[at..at + 8].copy_from_slice(&EDGES[*e].to_le_bytes());
        }
    }
}

/// Load `bytes` as "fuzz.elf"; if it loads, run it a little. Returns the error text, if any.
fn load_and_run(bytes: &[u8]) -> Option<String> {
    let mut m = Machine::new(Config::default());
    m.bus.console = iss::bus::Console::Null;
    match iss::elf::load(&mut m, bytes, "fuzz.elf") {
        Ok(prog) => {
            m.boot(prog.entry);
            let _ = m.run(&mut NoSink, Some(20_000));
            None
        }
        Err(e) => Some(e.to_string()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(fuzz_cases(48)))]

    /// Mutated and truncated shipped programs: an error names the file, or the program runs.
    #[test]
    fn mutated_programs(
        which in any::<Index>(),
        muts in prop::collection::vec(mutation(), 0..8),
        cut in prop::option::of(any::<Index>()),
    ) {
        let all = shipped();
        let (_, orig) = &all[which.index(all.len())];
        let mut bytes = orig.clone();
        for m in &muts {
            apply(&mut bytes, m);
        }
        if let Some(c) = cut {
            bytes.truncate(c.index(bytes.len() + 1));
        }
        if let Some(e) = load_and_run(&bytes) {
            prop_assert!(e.starts_with("fuzz.elf: "), "{}", e);
        }
    }

    /// Arbitrary bytes, with or without a valid ELF64 identification in front.
    #[test]
    fn arbitrary_bytes(
        ident in any::<bool>(),
        body in prop::collection::vec(any::<u8>(), 0..600),
    ) {
        let mut bytes = Vec::new();
        if ident {
            bytes.extend_from_slice(b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x02\0\xf3\0");
        }
        bytes.extend_from_slice(&body);
        if let Some(e) = load_and_run(&bytes) {
            prop_assert!(e.starts_with("fuzz.elf: "), "{}", e);
        }
    }
}

/// A random instruction word: a major opcode the hart implements with random fields, a pair
/// of random compressed instructions, or any 32 bits.
fn insn_word() -> impl Strategy<Value = u32> {
    const OPCODES: [u32; 20] = [
        0x03, 0x07, 0x0f, 0x13, 0x17, 0x1b, 0x23, 0x27, 0x2f, 0x33, 0x37, 0x3b, 0x43, 0x47, 0x4b,
        0x4f, 0x53, 0x63, 0x67, 0x6f,
    ];
    prop_oneof![
        4 => (0..OPCODES.len(), any::<u32>()).prop_map(|(o, r)| (r & !0x7f) | OPCODES[o]),
        1 => (any::<u32>()).prop_map(|r| (r & !0x7f) | 0x73), // SYSTEM: CSRs, xRET, WFI...
        2 => any::<u32>().prop_map(|r| r & !0x0003_0003 | 0x0001_0002), // two 16-bit ones
        1 => any::<u32>(),
    ]
}

/// Where [`run_words`] puts its trap handler (an offset in RAM).
const HANDLER: usize = 0x8000;

fn run_words(words: &[u32], cfg: &Config, traced: bool) -> (Stop, u64, u64) {
    let mut m = Machine::new(cfg.clone());
    m.bus.console = iss::bus::Console::Null;
    let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    m.bus.ram.bytes_mut(0, code.len()).copy_from_slice(&code);
    let handler = step_over_handler(31);
    m.bus
        .ram
        .bytes_mut(HANDLER, handler.len())
        .copy_from_slice(&handler);
    m.boot(RAM_BASE);
    if !cfg.sbi {
        m.hart.csr.mtvec = RAM_BASE + HANDLER as u64;
    }
    let stop = if traced {
        let mut log = CommitLog::new(std::io::sink());
        let s = m.run(&mut log, Some(20_000));
        log.finish().expect("the commit log to io::sink");
        s
    } else {
        m.run(&mut NoSink, Some(20_000))
    };
    (stop, m.retired(), m.hart.pc)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(fuzz_cases(64)))]

    /// Random code runs to the instruction limit or a documented stop, never panics, and ends
    /// in the same place traced (commit log) and untraced.
    #[test]
    fn random_code(
        words in prop::collection::vec(insn_word(), 1..200),
        emulate in any::<bool>(),
        sbi in any::<bool>(),
    ) {
        let cfg = Config {
            misaligned: if emulate { Misaligned::Emulate } else { Misaligned::Trap },
            sbi,
            ram_size: 1 << 20,
            ..Config::default()
        };
        let plain = run_words(&words, &cfg, false);
        prop_assert!(plain.1 <= 20_000 + iss::machine::BOOT_STEPS);
        let traced = run_words(&words, &cfg, true);
        prop_assert_eq!(plain, traced);
    }
}
