//! The default stream is self-contained: hartscope starts a program in the state Spike's boot
//! ROM leaves (t0 the entry, a0 the hart id, a1 the device tree at 0x1020, minstret = mcycle =
//! 5) without tracing the boot ROM, so the stream says that state in a state-initialisation
//! group right after the reset group; a checker that applies such groups starts where
//! hartscope started. Streams without it (`-start-state`, hartscope's before) still verify.

mod common;

use common::*;
use iss::csr::{MCYCLE, MINSTRET};
use tandem::config::WriterConfig;
use tandem::parser::{parse_groups, ParserOptions};
use tandem::session::{machine, HartConfig};
use tandem::verify::Status;

/// The ELF's entry point (ELF64 `e_entry`).
fn entry(elf: &[u8]) -> u64 {
    u64::from_le_bytes(elf[24..32].try_into().unwrap())
}

fn reg(addr: u16, v: u64) -> Vec<u8> {
    let mut b = vec![0x04];
    b.extend(addr.to_le_bytes());
    b.extend(v.to_le_bytes());
    b
}

/// The bytes: reset, then `01 0b`, pc, priv M, t0, a0, a1, minstret, mcycle, `02`.
#[test]
fn default_stream_starts_with_the_boot_roms_state() {
    let elf = program("hello");
    let e = entry(&elf);
    let bytes = stream("hello", &elf, &WriterConfig::flute(), Some(10));
    let mut want = vec![0x01, 0x0a, 0x02, 0x01, 0x0b, 0x07, 0x0a];
    want.extend(e.to_le_bytes());
    want.extend([0x07, 0x01, 0x03]);
    want.extend(reg(0x1005, e)); // t0
    want.extend(reg(0x100a, 0)); // a0: hart 0
    want.extend(reg(0x100b, 0x1020)); // a1: the device tree
    want.extend(reg(0xb02, 5)); // minstret
    want.extend(reg(0xb00, 5)); // mcycle
    want.push(0x02);
    assert_eq!(&bytes[..want.len()], &want[..]);
    // The first instruction's group follows.
    assert_eq!(&bytes[want.len()..want.len() + 3], &[0x01, 0x07, 0x0a]);
}

/// What an independent checker holds after applying the stream's groups up to the first
/// instruction, starting from a reset hart (registers 0): hartscope's state at the entry.
#[test]
fn a_checker_starts_where_hartscope_starts() {
    for (name, cfg) in [
        ("flute", WriterConfig::flute()),
        ("spec", WriterConfig::spec()),
        ("everything", WriterConfig::everything()),
    ] {
        for prog in ["hello", "interrupts"] {
            let elf = program(prog);
            let bytes = stream(prog, &elf, &cfg, Some(10));
            let groups = parse_groups(&bytes, ParserOptions::default()).unwrap();
            let mut regs = std::collections::HashMap::<u16, u64>::new();
            let (mut pc, mut prv) = (None, None);
            for g in groups.iter().take_while(|g| g.insn.is_none()) {
                if g.state_init {
                    for r in &g.regs {
                        let old = regs.get(&r.addr).copied().unwrap_or(0);
                        regs.insert(r.addr, r.op.apply(old));
                    }
                    pc = g.pc.or(pc);
                    prv = g.prv.or(prv);
                }
            }
            let (m, _) = machine(&elf, prog, HartConfig::default()).unwrap();
            let what = format!("{prog} [{name}]");
            assert_eq!(pc, Some(m.hart.pc), "{what}: pc");
            assert_eq!(prv, Some(m.hart.prv as u8), "{what}: privilege");
            for i in 1..32u16 {
                let got = regs.get(&(0x1000 + i)).copied().unwrap_or(0);
                assert_eq!(got, m.x(i as u8), "{what}: x{i}");
            }
            assert_eq!(m.x(11), 0x1020, "{what}: a1 is the boot ROM's");
            for c in [MINSTRET, MCYCLE] {
                assert_eq!(regs.get(&c).copied(), m.get_reg(c), "{what}: csr {c:#x}");
                assert_eq!(m.get_reg(c), Some(5), "{what}: the boot ROM's 5 steps");
            }
        }
    }
}

/// `-start-state` writes the streams of before (no state initialisation without `image`);
/// both verify, and the new one has exactly one state initialisation.
#[test]
fn streams_with_and_without_the_start_state_verify() {
    let mut old = WriterConfig::flute();
    old.apply_extras("-start-state").unwrap();
    for prog in ["hello", "interrupts", "rv64a", "smode"] {
        let elf = program(prog);
        let new_bytes = stream(prog, &elf, &WriterConfig::flute(), None);
        let old_bytes = stream(prog, &elf, &old, None);
        assert_eq!(&old_bytes[..3], &[0x01, 0x0a, 0x02]);
        assert_eq!(
            &old_bytes[3..6],
            &[0x01, 0x07, 0x0a],
            "{prog}: no state init"
        );
        let new_r = check(prog, &elf, &new_bytes, &WriterConfig::flute());
        let old_r = check(prog, &elf, &old_bytes, &old);
        assert_eq!(new_r.status, Status::Match, "{prog}: {}", show(&new_r));
        assert_eq!(old_r.status, Status::Match, "{prog}: {}", show(&old_r));
        assert_eq!(new_r.state_inits, 1, "{prog}");
        assert_eq!(old_r.state_inits, 0, "{prog}");
        assert_eq!(new_r.instructions, old_r.instructions, "{prog}");
    }
}

/// The start state is registers, not a program: without the ELF (and without `image`) the
/// verifier still says it has no program, at the first instruction's group, rather than
/// running one from empty memory.
#[test]
fn the_start_state_is_no_program() {
    let elf = program("hello");
    let cfg = WriterConfig::flute();
    let bytes = stream("hello", &elf, &cfg, Some(10));
    let r = tandem::verify::verify(verify_config(&cfg), None, &bytes[..]);
    assert_eq!(r.status, Status::Error, "{}", show(&r));
    let e = r.error.clone().unwrap_or_default();
    assert!(
        e.contains("group 2 (byte offset 74) executes, but the reference hart has no program"),
        "{e}"
    );
    // The verifier's error is a type carrying the group and its byte offset.
    let mut v = tandem::verify::Verifier::new(verify_config(&cfg), None).unwrap();
    let mut reader = tandem::parser::GroupReader::new(
        &bytes[..],
        tandem::parser::ParserOptions::with_params(cfg.params),
    );
    let mut g = tandem::group::Group::default();
    let e = loop {
        assert!(reader.next_group(&mut g).unwrap(), "the stream ended");
        if let Err(e) = v.group(&g) {
            break e;
        }
    };
    assert_eq!(
        e,
        tandem::verify::GroupError::NoProgram {
            group: 2,
            offset: 74
        }
    );
    // With the image it verifies without the ELF.
    let mut img = WriterConfig::flute();
    img.image = true;
    let bytes = stream("hello", &elf, &img, None);
    let r = tandem::verify::verify(verify_config(&img), None, &bytes[..]);
    assert_eq!(r.status, Status::Match, "{}", show(&r));
}
