//! `--isa` means what it says: an extension that is off traps as illegal (and, without C,
//! jumps to 2-byte aligned targets trap as misaligned), misa reads what was asked, and a
//! string hartscope cannot honour is refused before anything runs, naming the extension.
//! (The commit logs of each ISA string are compared with Spike's in `spike_diff.rs`.)

mod common;

use common::{hartscope, program, run_with_timeout, TempDir};
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(60);

/// The commit log (`-l`, with traps) of `program` run with `args`, and its exit code.
fn log_of(program_name: &str, args: &[&str]) -> (Option<i32>, String) {
    let tmp = TempDir::new("isa-log");
    let log = tmp.join("log");
    let mut cmd = hartscope();
    cmd.args(["run", "-q", "-l", "--log-commits"])
        .arg(&log)
        .args(args)
        .arg(program(program_name));
    let out = run_with_timeout(&mut cmd, program_name, TIMEOUT);
    common::assert_no_panic(program_name, &out.stderr_str());
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    (out.code(), text)
}

/// `--isa rv64i` used to run rv64m.elf as RV64GC and exit 0 (and was later refused). Now the
/// hart has no C: crt0's first compressed instruction (`c.li ra, 0`, after `csrw mtvec`)
/// raises an illegal-instruction exception with its bits in mtval, and the early-trap
/// handler, compressed too, traps for ever, as on Spike: the run ends at the limit.
#[test]
fn rv64m_on_rv64i_traps_at_the_first_compressed_instruction() {
    let (code, log) = log_of("rv64m", &["--isa", "rv64i", "--max-insns", "100"]);
    assert_eq!(code, Some(124), "{log}");
    let trap = log
        .find("exception trap_illegal_instruction, epc 0x000000008000000c")
        .unwrap_or_else(|| panic!("no illegal-instruction trap at the c.li:\n{log}"));
    assert!(
        log[trap..].contains("tval 0x0000000000004081"),
        "mtval is not the c.li's bits:\n{log}"
    );
    // The same program runs to the end on the default hart.
    let (code, _) = log_of("rv64m", &[]);
    assert_eq!(code, Some(0));
}

/// misa reads what was asked: `isa_probe` reads it first (into a0).
#[test]
fn misa_reads_what_was_asked() {
    for (isa, misa) in [
        ("rv64i", 0x8000000000140100u64),
        ("rv64im", 0x8000000000141100),
        ("rv64imac", 0x8000000000141105),
        ("rv64imafd", 0x8000000000141129),
        ("rv64gc", 0x800000000014112d),
        ("RV64IMAFDC_Zicsr2p0_Zifencei", 0x800000000014112d),
    ] {
        let (code, log) = log_of("isa_probe", &["--isa", isa]);
        assert_eq!(code, Some(0), "--isa {isa}:\n{log}");
        let want = format!("(0x30102573) x10 {misa:#018x}");
        assert!(log.contains(&want), "--isa {isa}: no `{want}` in:\n{log}");
    }
}

/// Off means illegal: under rv64i, `mul` (0x02c58533) traps with its bits in mtval, and so
/// does an FP CSR read (`csrr a0, fflags`, 0x00102573); a jump to a 2-byte aligned target
/// raises instruction-address-misaligned with the target in mtval.
#[test]
fn extensions_that_are_off_trap() {
    let (code, log) = log_of("isa_probe", &["--isa", "rv64i"]);
    assert_eq!(code, Some(0), "{log}");
    for needle in [
        "(0x02c58533) mul     a0, a1, a2\ncore   0: exception trap_illegal_instruction",
        "tval 0x0000000002c58533",
        "tval 0x0000000000102573",
        "exception trap_instruction_address_misaligned",
    ] {
        assert!(log.contains(needle), "no `{needle}` in:\n{log}");
    }
    // With everything on, none of that traps.
    let (code, log) = log_of("isa_probe", &["--isa", "rv64gc_zicntr_zihpm"]);
    assert_eq!(code, Some(0), "{log}");
    assert!(!log.contains("trap_illegal_instruction"), "{log}");
    assert!(
        !log.contains("trap_instruction_address_misaligned"),
        "{log}"
    );
}

/// What hartscope cannot do is refused by name, with status 2, before anything runs.
#[test]
fn what_cannot_be_done_is_refused_by_name() {
    for (isa, needles) in [
        (
            "rv64id",
            &["--isa rv64id", "extension 'd' requires 'f'"][..],
        ),
        ("rv64gcv", &["extension 'v' is not implemented"][..]),
        ("rv64gc_zbc", &["extension 'zbc' is not implemented"][..]),
        ("rv64ica", &["extension 'a' is out of canonical order"][..]),
        ("rv64e", &["the E base is not implemented"][..]),
        ("rv32i", &["rv64"][..]),
        ("rv64gc_sstc", &["extension 'sstc' requires 'zicntr"][..]),
    ] {
        let out = run_with_timeout(
            hartscope()
                .args(["run", "--isa", isa])
                .arg(program("rv64m")),
            isa,
            TIMEOUT,
        );
        assert_eq!(out.code(), Some(2), "--isa {isa}: {}", out.stderr_str());
        let err = out.stderr_str();
        for n in needles {
            assert!(err.contains(n), "--isa {isa}: no `{n}` in {err}");
        }
        assert!(out.stdout.is_empty(), "nothing ran: {}", out.stdout_str());
    }
}

/// Sstc: `isa_sstc` writes all ones to menvcfg (STCE is the one bit that sticks), takes a
/// machine timer interrupt from stimecmp and, delegated, a supervisor one in S-mode, where
/// stimecmp is illegal until mcounteren.TM is set and again while STCE is clear. Without
/// Sstc stimecmp is illegal everywhere, menvcfg reads 0 and no timer interrupt comes.
#[test]
fn sstc_drives_the_supervisor_timer() {
    let (code, log) = log_of("isa_sstc", &["--isa", "rv64gc_zicntr_sstc"]);
    assert_eq!(code, Some(0), "{log}");
    for needle in [
        "c778_menvcfg 0x8000000000000000",
        "c333_stimecmp 0x0000000000000003",
        // The interrupt is taken in M-mode (mideleg clear), then in S-mode.
        "core   0: exception interrupt #5, epc",
        "core   0: exception trap_illegal_instruction, epc",
    ] {
        assert!(log.contains(needle), "no `{needle}` in the log");
    }
    assert_eq!(log.matches("exception interrupt #5").count(), 2);
    // Three illegal stimecmp accesses in S-mode (TM = 0, then STCE = 0 twice).
    assert_eq!(
        log.matches("tval 0x0000000014d02573").count()
            + log.matches("tval 0x0000000014d01073").count(),
        3,
        "the S-mode stimecmp accesses that trap"
    );
    let (code, log) = log_of("isa_sstc", &["--isa", "rv64gc_zicntr"]);
    assert_eq!(code, Some(0), "{log}");
    assert!(log.contains("c778_menvcfg 0x0000000000000000"), "menvcfg");
    assert!(
        !log.contains("interrupt #5"),
        "no timer interrupt without Sstc"
    );
    assert!(!log.contains("c333_stimecmp"), "stimecmp is never written");
}

/// Svpbmt, Svnapot, Svadu (`isa_svpte`): with all three, a 64 KiB NAPOT leaf maps
/// 0x4000_9000 to page 9 of the region (marker 0x6409), menvcfg keeps PBMTE and ADUE, the
/// second round's fetch through a PTE with A clear succeeds (A is set by the hart), and an A
/// update that PMP forbids is a load access fault. With none, N and PBMT fault, menvcfg reads
/// 0, and A/D clear fault as before.
#[test]
fn page_table_extensions() {
    let (code, log) = log_of("isa_svpte", &["--isa", "rv64gc_svpbmt_svnapot_svadu"]);
    assert_eq!(code, Some(0), "{log}");
    for needle in [
        "x10 0x0000000000006409 mem 0x0000000040009000",
        "c778_menvcfg 0x6000000000000000",
        "exception trap_load_access_fault",
    ] {
        assert!(log.contains(needle), "no `{needle}` in the log");
    }
    assert_eq!(log.matches("trap_instruction_page_fault").count(), 1);
    let (code, log) = log_of("isa_svpte", &["--isa", "rv64gc"]);
    assert_eq!(code, Some(0), "{log}");
    assert!(log.contains("c778_menvcfg 0x0000000000000000"), "menvcfg");
    assert!(
        !log.contains("mem 0x0000000040009000"),
        "the NAPOT leaf faults"
    );
    assert!(!log.contains("trap_load_access_fault"), "no A/D update");
    assert_eq!(log.matches("trap_instruction_page_fault").count(), 2);
}

/// Svinval (`isa_svinval`): the three instructions disassemble as Spike spells them; with
/// Svinval they trap only where Spike's rules say (sinval.vma under TVM in S-mode, all three in
/// U-mode: 3 + 4 illegal instructions, counting the sfence.vma under TVM), and the remapped
/// page is seen after sinval.vma; without it, each of them is illegal everywhere.
#[test]
fn svinval() {
    let (code, log) = log_of("isa_svinval", &["--isa", "rv64gc_svinval"]);
    assert_eq!(code, Some(0), "{log}");
    for needle in [
        "(0x16b50073) sinval.vma a0, a1",
        "(0x18000073) sfence.w.inval",
        "(0x18100073) sfence.inval.ir",
    ] {
        assert!(log.contains(needle), "no `{needle}` in the log");
    }
    assert_eq!(log.matches("trap_illegal_instruction").count(), 7);
    assert_eq!(log.matches("x12 0x000000000000bbbb").count(), 2);
    let (code, log) = log_of("isa_svinval", &["--isa", "rv64gc"]);
    assert_eq!(code, Some(0), "{log}");
    // 4 in M; 4, the 3 of the remapping and 4 in S (and the sfence.vma under TVM); 4 in U.
    assert_eq!(log.matches("trap_illegal_instruction").count(), 20);
    // The remapped page is seen all the same: the illegal-instruction traps change privilege,
    // which drops every cached translation (on Spike as here).
    assert_eq!(log.matches("x12 0x000000000000bbbb").count(), 2);
}
