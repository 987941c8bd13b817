//! Faults put into a clean stream of retirements are reported through the C ABI at the
//! retirement that has them, with the element, the reference's and the core's values and the
//! disassembly; the retirements before it match.

mod common;
use common::*;
use hartscope::*;

/// Where to look for the fault's victim: not in the start-up code.
const FROM: usize = 100;
const LIMIT: usize = 100_000;

struct Found {
    order: u64,
    text: String,
    json: serde_json::Value,
}

/// Step `prog`, put `fault` into the first retirement from `FROM` on that `pick` accepts, and
/// check the stream on another handle up to it.
fn fault(prog: &str, pick: impl Fn(&Retirement) -> bool, fault: impl Fn(&mut Retirement)) -> Found {
    let t = H::load(&settings(prog), prog).trace(LIMIT);
    let at = (FROM..t.len())
        .find(|&i| pick(&t[i]))
        .unwrap_or_else(|| panic!("{prog}: no retirement to put the fault into"));
    let checker = H::load(&settings(prog), prog);
    for r in &t[..at] {
        assert_eq!(
            checker.check(r),
            0,
            "{prog}: retirement {} before the fault: {}",
            r.order,
            checker.mismatches_text()
        );
    }
    let mut bad = t[at];
    fault(&mut bad);
    assert_ne!(bad, t[at], "the fault changed nothing");
    let n = checker.check(&bad);
    assert!(
        n > 0,
        "{prog}: the fault at {at} was not reported ({n}): {bad:?}"
    );
    assert_eq!(checker.errors(), 1);
    assert_eq!(checker.checked(), at as u64 + 1);
    let json = checker.mismatches_json();
    assert_eq!(json[0]["group"], at as u64, "{json}");
    assert_eq!(json[0]["pc"], t[at].pc, "{json}");
    Found {
        order: t[at].order,
        text: checker.mismatches_text(),
        json,
    }
}

fn has_diff(f: &Found, element: &str) -> serde_json::Value {
    let diffs = f.json[0]["diffs"].as_array().expect("diffs");
    diffs
        .iter()
        .find(|d| d["element"] == element)
        .unwrap_or_else(|| panic!("no `{element}` in {}", f.text))
        .clone()
}

fn hex(v: u64) -> String {
    format!("0x{v:016x}")
}

#[test]
fn a_wrong_rd_value_is_reported_at_its_retirement() {
    let f = fault(
        "rv64i.elf",
        |r| r.trap == HS_TRAP_NONE && r.writes().iter().any(|w| w.file == HS_REG_X && w.num == 10),
        |r| {
            let w = r.writes[..r.n_writes as usize]
                .iter_mut()
                .find(|w| w.file == HS_REG_X && w.num == 10)
                .unwrap();
            w.value ^= 0x100;
        },
    );
    let d = has_diff(&f, "x10/a0");
    assert_ne!(d["expected"], d["actual"]);
    assert!(
        f.text.starts_with(&format!(
            "mismatch at retirement {}, instruction at pc 0x",
            f.order
        )),
        "{}",
        f.text
    );
    assert!(f.text.contains("x10/a0"), "{}", f.text);
    assert!(f.text.contains("expected 0x"), "{}", f.text);
    assert!(f.text.contains("actual 0x"), "{}", f.text);
    // The disassembly names the register written.
    assert!(
        f.json[0]["disasm"].as_str().unwrap().contains("a0"),
        "{}",
        f.text
    );
}

#[test]
fn wrong_store_data_is_reported_at_its_retirement() {
    let f = fault(
        "rv64i.elf",
        |r| {
            r.mem()
                .iter()
                .any(|a| a.kind == HS_MEM_STORE && a.size == 8)
        },
        |r| r.mem[0].wdata ^= 0xff00,
    );
    let d = has_diff(&f, "store-data");
    assert_ne!(d["expected"], d["actual"]);
    assert!(
        f.json[0]["disasm"].as_str().unwrap().starts_with("sd"),
        "{}",
        f.text
    );
}

#[test]
fn a_wrong_load_address_is_reported_at_its_retirement() {
    let f = fault(
        "rv64i.elf",
        |r| r.mem().iter().any(|a| a.kind == HS_MEM_LOAD && a.size == 8),
        |r| {
            r.mem[0].vaddr += 8;
            r.mem[0].paddr += 8;
        },
    );
    let d = has_diff(&f, "eaddr");
    assert_ne!(d["expected"], d["actual"]);
    assert!(
        f.json[0]["disasm"].as_str().unwrap().starts_with("ld"),
        "{}",
        f.text
    );
}

#[test]
fn a_wrong_csr_write_is_reported_at_its_retirement() {
    let f = fault(
        "csr.elf",
        |r| {
            r.trap == HS_TRAP_NONE
                && r.writes()
                    .iter()
                    .any(|w| w.file == HS_REG_CSR && w.num == 0x340)
        },
        |r| {
            let w = r.writes[..r.n_writes as usize]
                .iter_mut()
                .find(|w| w.file == HS_REG_CSR && w.num == 0x340)
                .unwrap();
            w.value ^= 0x8;
        },
    );
    let d = has_diff(&f, "mscratch");
    assert_ne!(d["expected"], d["actual"]);
}

#[test]
fn a_wrong_next_pc_is_reported_at_its_retirement() {
    let f = fault(
        "rv64i.elf",
        |r| r.trap == HS_TRAP_NONE && r.len == 4,
        |r| r.next_pc += 4,
    );
    let d = has_diff(&f, "pc");
    assert_ne!(d["expected"], d["actual"]);
}

#[test]
fn a_trap_the_core_did_not_take_is_reported_at_its_retirement() {
    // The core says the instruction retired where the architecture says it traps.
    let f = fault(
        "traps.elf",
        |r| r.trap == HS_TRAP_EXCEPTION && r.len != 0,
        |r| {
            r.trap = HS_TRAP_NONE;
            r.next_pc = r.pc + r.len as u64;
            r.n_writes = 0;
        },
    );
    let d = has_diff(&f, "trap");
    assert_eq!(d["actual"], "none (retired)", "{}", f.text);
}

#[test]
fn a_trap_the_core_took_wrongly_is_reported_at_its_retirement() {
    // The core says an ordinary instruction raised an illegal-instruction exception.
    let f = fault(
        "rv64i.elf",
        |r| r.trap == HS_TRAP_NONE && r.mem().is_empty() && r.len == 4,
        |r| {
            r.trap = HS_TRAP_EXCEPTION;
            r.cause = 2;
            r.valid |= HS_VALID_CAUSE;
        },
    );
    let d = has_diff(&f, "trap");
    assert_eq!(d["expected"], "none (retired)", "{}", f.text);
}

#[test]
fn a_wrong_rd_value_in_rvfi_is_reported_at_its_order() {
    let prog = "rv64i.elf";
    let stepper = H::load(&settings(prog), prog);
    let checker = H::load(&settings(prog), prog);
    let mut faulty = None;
    for i in 0..LIMIT {
        let mut r = stepper.step_rvfi();
        if faulty.is_none() && i >= FROM && r.rd_addr != 0 && r.trap == 0 {
            r.rd_wdata ^= 1;
            faulty = Some(r);
            let n = checker.check_rvfi(&r);
            assert!(n > 0, "not reported");
            let json = checker.mismatches_json();
            assert_eq!(json[0]["group"], r.order);
            assert_eq!(json[0]["pc"], r.pc_rdata);
            let d = &json[0]["diffs"][0];
            assert_eq!(d["actual"], hex(r.rd_wdata), "{json}");
            assert_eq!(d["expected"], hex(r.rd_wdata ^ 1), "{json}");
            break;
        }
        assert_eq!(checker.check_rvfi(&r), 0, "{}", checker.mismatches_text());
    }
    assert!(faulty.is_some());
    assert_eq!(checker.errors(), 1);
}
