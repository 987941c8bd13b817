//! The strict Flute style (`--tandem-style flute-strict`): the groups Flute's encoder
//! (`mkTV_Encode`, bluespec/Flute commit 35c72be) writes for each record kind, byte for byte
//! as docs/tandem.md's table gives them; mip's changes outside any group at the right places
//! in a program with timer and software interrupts; every shipped program's strict stream
//! verifies, and a wrong mip is reported.

mod common;

use common::*;
use iss::csr::{FFLAGS, MCAUSE, MEPC, MIP, MSCRATCH, MSTATUS, MTVAL, SCAUSE, SEPC, STVAL};
use iss::record::{At, MemAccess, MemKind, Reg, RegWrite, Retired, Sink, TrapRecord};
use iss::{Cause, Exception, Interrupt, Machine, Priv};
use tandem::config::WriterConfig;
use tandem::group::Group;
use tandem::parser::{parse_groups, ParserOptions};
use tandem::verify::Status;
use tandem::writer::{InitialState, TandemWriter};

const PC: u64 = 0x8000_0000;
const HANDLER: u64 = 0x8000_0400;
/// mstatus in the hart the records come from: FS Dirty (so SD), MPP = M.
const MSTATUS_V: u64 = 0x8000_000a_0000_7800;
const FFLAGS_V: u64 = 0x01;

// The elements, as docs/tandem.md writes them.
fn pc(v: u64) -> Vec<u8> {
    let mut b = vec![0x07, 0x0a];
    b.extend(v.to_le_bytes());
    b
}
fn insn(bits: u32) -> Vec<u8> {
    let mut b = vec![0x11];
    b.extend(bits.to_le_bytes());
    b
}
fn reg(addr: u16, v: u64) -> Vec<u8> {
    let mut b = vec![0x04];
    b.extend(addr.to_le_bytes());
    b.extend(v.to_le_bytes());
    b
}
fn x(n: u16, v: u64) -> Vec<u8> {
    reg(0x1000 + n, v)
}
fn f(n: u16, v: u64) -> Vec<u8> {
    reg(0x1020 + n, v)
}
fn eaddr(v: u64) -> Vec<u8> {
    let mut b = vec![0x07, 0x03];
    b.extend(v.to_le_bytes());
    b
}
fn data(size: usize, v: u64) -> Vec<u8> {
    let mut b = vec![0x07, 4 + size.trailing_zeros() as u8];
    b.extend(&v.to_le_bytes()[..size]);
    b
}
fn prv(p: u8) -> Vec<u8> {
    vec![0x07, 0x01, p]
}
fn group(parts: &[Vec<u8>]) -> Vec<u8> {
    let mut b = vec![0x01];
    for p in parts {
        b.extend(p);
    }
    b.push(0x02);
    b
}

/// A hart in the state the records below come from.
fn hart() -> Machine {
    let mut m = Machine::try_new(iss::Config::default()).unwrap();
    m.hart.csr.mstatus = MSTATUS_V & !(1 << 63);
    m.hart.csr.fflags = FFLAGS_V as u8;
    m.hart.csr.mip = 0;
    m.set_x(11, 0x1234_5678_9abc_def0); // a1: rs2 of the atomics
    m.set_x(12, 0x8000_2000); // a2
    assert_eq!(m.hart.csr.mstatus_read(), MSTATUS_V);
    m
}

fn rec(bits: u32, writes: &[(Reg, u64)]) -> Retired {
    let d = iss::decode::decode(bits);
    let mut r = Retired {
        pc: PC,
        insn: d,
        prv: Priv::M,
        next_pc: PC + d.len as u64,
        fetch_pa: Some(PC),
        ..Default::default()
    };
    for (i, &(reg, value)) in writes.iter().enumerate() {
        r.writes[i] = RegWrite { reg, value };
    }
    r.n_writes = writes.len() as u8;
    r
}

fn with_mem(mut r: Retired, acc: &[(MemKind, u64, u8, u64)]) -> Retired {
    for (i, &(kind, vaddr, size, value)) in acc.iter().enumerate() {
        r.mem[i] = MemAccess {
            kind,
            vaddr,
            paddr: vaddr,
            size,
            value,
        };
    }
    r.n_mem = acc.len() as u8;
    r
}

fn trap_rec(cause: Cause, to: Priv, tval: u64, insn: Option<u32>) -> TrapRecord {
    let (epc_c, cause_c, tval_c) = if to == Priv::S {
        (SEPC, SCAUSE, STVAL)
    } else {
        (MEPC, MCAUSE, MTVAL)
    };
    let w = |c: u16, v: u64| RegWrite {
        reg: Reg::Csr(c),
        value: v,
    };
    TrapRecord {
        cause,
        tval,
        epc: PC,
        from: Priv::M,
        to,
        handler: HANDLER,
        writes: [
            w(epc_c, PC),
            w(cause_c, cause.xcause()),
            w(tval_c, tval),
            w(MSTATUS, 0x8000_000a_0000_7880),
        ],
        insn: insn.map(iss::decode::decode),
        time: 0,
        trigger: false,
    }
}

enum Ev {
    /// An instruction that retired; then the hart as it is after it (what the next watch
    /// sees: a CSR's new value).
    Insn(Retired, Option<(u16, u64)>),
    /// An instruction that raised an exception, and its trap.
    Exc(Retired, TrapRecord),
    Intr(TrapRecord),
    /// mip changed in the hart before the next instruction.
    Mip(u64),
}

/// The strict stream's bytes for the events, after the reset group; `end`: the privilege at
/// the end.
fn strict(events: Vec<Ev>, end: Priv) -> Vec<u8> {
    let mut m = hart();
    let cfg = WriterConfig {
        start_state: false,
        ..WriterConfig::flute_strict()
    };
    let init = InitialState::capture(&m, None, false);
    let mut w = TandemWriter::new(cfg, Vec::new(), &init).unwrap();
    assert!(w.wants_watch(), "the strict style sees the hart");
    for e in events {
        match e {
            Ev::Insn(r, after) => {
                w.watch(&m, At::Insn(&r.insn));
                w.retire(&r);
                if let Some((c, v)) = after {
                    assert!(m.set_reg(c, v));
                }
            }
            Ev::Exc(r, t) => {
                w.watch(&m, At::Insn(&r.insn));
                w.retire(&r);
                w.watch(&m, At::Trap);
                w.trap(&t);
            }
            Ev::Intr(t) => {
                w.watch(&m, At::Trap);
                w.trap(&t);
            }
            Ev::Mip(v) => m.hart.csr.mip = v,
        }
    }
    w.watch(&m, At::End);
    let (bytes, _) = w.finish(Some(end)).unwrap();
    assert_eq!(&bytes[..3], &[0x01, 0x0a, 0x02], "the reset group first");
    bytes[3..].to_vec()
}

fn one(r: Retired) -> Vec<u8> {
    strict(vec![Ev::Insn(r, None)], Priv::M)
}

/// `I_RD`: ALU, lui/auipc, jal/jalr: `01 pc insn R(rd) 02`.
#[test]
fn i_rd() {
    let r = rec(0x0050_0193, &[(Reg::X(3), 5)]); // addi gp,zero,5
    assert_eq!(one(r), group(&[pc(PC + 4), insn(0x0050_0193), x(3, 5)]));
}

/// `OTHER`: a branch: `01 pc insn 02`.
#[test]
fn other() {
    let mut r = rec(0x0000_0463, &[]); // beq zero,zero,+8
    r.next_pc = PC + 8;
    assert_eq!(one(r), group(&[pc(PC + 8), insn(0x0000_0463)]));
}

/// `I_LOAD`: `01 pc insn R(rd) 07 03 <eaddr> 02`.
#[test]
fn i_load() {
    let r = with_mem(
        rec(0x0082_b203, &[(Reg::X(4), 0x77)]), // ld tp,8(t0)
        &[(MemKind::Load, 0x8000_1008, 8, 0x77)],
    );
    assert_eq!(
        one(r),
        group(&[
            pc(PC + 4),
            insn(0x0082_b203),
            x(4, 0x77),
            eaddr(0x8000_1008)
        ])
    );
}

/// `F_LOAD` (35c72be): `01 pc insn R(fd) 07 03 <eaddr> R(mstatus) 02`, mstatus though FS
/// was Dirty already (the record has no mstatus write).
#[test]
fn f_load() {
    let r = with_mem(
        rec(0x0082_b387, &[(Reg::F(7), 0x4000)]), // fld ft7,8(t0)
        &[(MemKind::Load, 0x8000_1008, 8, 0x4000)],
    );
    assert_eq!(
        one(r),
        group(&[
            pc(PC + 4),
            insn(0x0082_b387),
            f(7, 0x4000),
            eaddr(0x8000_1008),
            reg(MSTATUS, MSTATUS_V)
        ])
    );
}

/// `I_STORE`, `F_STORE`: `01 pc insn 07 04..07 <data> 07 03 <eaddr> 02`.
#[test]
fn stores() {
    let r = with_mem(
        rec(0x0062_b823, &[]), // sd t1,16(t0)
        &[(MemKind::Store, 0x8000_1010, 8, 0xabcd)],
    );
    assert_eq!(
        one(r),
        group(&[
            pc(PC + 4),
            insn(0x0062_b823),
            data(8, 0xabcd),
            eaddr(0x8000_1010)
        ])
    );
    let r = with_mem(
        rec(0x0072_b827, &[]), // fsd ft7,16(t0)
        &[(MemKind::Store, 0x8000_1010, 8, 0x4000)],
    );
    assert_eq!(
        one(r),
        group(&[
            pc(PC + 4),
            insn(0x0072_b827),
            data(8, 0x4000),
            eaddr(0x8000_1010)
        ])
    );
}

/// `AMO`: `01 pc insn R(rd) 07 04..07 <rs2's value> 07 03 <eaddr> 02`: for an AMO the
/// operand (not what it stored), for LR 0, for SC rs2 whether or not it stored, rd the flag.
#[test]
fn amo_lr_sc() {
    let a1: u64 = 0x1234_5678_9abc_def0;
    let ea = 0x8000_2000;
    // amoadd.d a0,a1,(a2): loaded 5, stored 5 + a1.
    let r = with_mem(
        rec(0x00b6_352f, &[(Reg::X(10), 5)]),
        &[
            (MemKind::Load, ea, 8, 5),
            (MemKind::Store, ea, 8, a1.wrapping_add(5)),
        ],
    );
    assert_eq!(
        one(r),
        group(&[
            pc(PC + 4),
            insn(0x00b6_352f),
            x(10, 5),
            data(8, a1),
            eaddr(ea)
        ])
    );
    // lr.d a0,(a2)
    let r = with_mem(
        rec(0x1006_352f, &[(Reg::X(10), 9)]),
        &[(MemKind::Load, ea, 8, 9)],
    );
    assert_eq!(
        one(r),
        group(&[
            pc(PC + 4),
            insn(0x1006_352f),
            x(10, 9),
            data(8, 0),
            eaddr(ea)
        ])
    );
    // sc.d a0,a1,(a2) that stored: rd 0.
    let r = with_mem(
        rec(0x18b6_352f, &[(Reg::X(10), 0)]),
        &[(MemKind::Store, ea, 8, a1)],
    );
    let ok = group(&[
        pc(PC + 4),
        insn(0x18b6_352f),
        x(10, 0),
        data(8, a1),
        eaddr(ea),
    ]);
    assert_eq!(one(r), ok);
    // The same SC failing: rd 1, the same data and address.
    let mut r = rec(0x18b6_352f, &[(Reg::X(10), 1)]);
    r.sc_failed = true;
    r.sc_addr = ea;
    assert_eq!(
        one(r),
        group(&[
            pc(PC + 4),
            insn(0x18b6_352f),
            x(10, 1),
            data(8, a1),
            eaddr(ea)
        ])
    );
}

/// `CSRRX`: `01 pc insn R(rd) R(csr) 02`, the CSR only if written, with the value it holds
/// after the instruction; nothing else it changed (sstatus as sstatus, not mstatus).
#[test]
fn csrrx() {
    // csrrw a0,mscratch,a1: mscratch was 3, is a1's value after.
    let r = rec(0x3405_9573, &[(Reg::X(10), 3), (Reg::Csr(MSCRATCH), 0x42)]);
    assert_eq!(
        strict(vec![Ev::Insn(r, Some((MSCRATCH, 0x42)))], Priv::M),
        group(&[pc(PC + 4), insn(0x3405_9573), x(10, 3), reg(MSCRATCH, 0x42)])
    );
    // csrr a0,mstatus (csrrs with rs1 = x0): no CSR written.
    let r = rec(0x3000_2573, &[(Reg::X(10), MSTATUS_V)]);
    assert_eq!(
        one(r),
        group(&[pc(PC + 4), insn(0x3000_2573), x(10, MSTATUS_V)])
    );
    // csrw sstatus,a1: the record (Spike's view) has mstatus; Flute writes sstatus.
    let r = rec(0x1005_9073, &[(Reg::Csr(MSTATUS), MSTATUS_V | 2)]);
    let mut m = hart();
    m.hart.csr.mstatus |= 2;
    let sstatus = m.csr_read(iss::csr::SSTATUS).unwrap();
    assert_eq!(
        strict(vec![Ev::Insn(r, Some((MSTATUS, MSTATUS_V | 2)))], Priv::M),
        group(&[pc(PC + 4), insn(0x1005_9073), reg(0x100, sstatus)])
    );
}

/// A CSR instruction's element comes after its group was written (when the hart is seen
/// next): the group may have ended past the writer's 1 MiB buffer, the element still follows
/// it (it once panicked there).
#[test]
fn csr_elements_across_buffers() {
    // csrrw a0,mscratch,a1, 39 bytes a group: groups end past each MiB boundary.
    let n = 60_000;
    let events = (0..n)
        .map(|i| {
            let r = rec(0x3405_9573, &[(Reg::X(10), i), (Reg::Csr(MSCRATCH), i + 1)]);
            Ev::Insn(r, Some((MSCRATCH, i + 1)))
        })
        .collect();
    let mut want = Vec::new();
    for i in 0..n {
        want.extend(group(&[
            pc(PC + 4),
            insn(0x3405_9573),
            x(10, i),
            reg(MSCRATCH, i + 1),
        ]));
    }
    let got = strict(events, Priv::M);
    assert!(got.len() > 2 << 20);
    assert!(got == want, "the streams differ");
}

/// `F_FRD` and `F_GRD` (35c72be): rd, then fflags (the whole value) and mstatus, always,
/// though neither changed; x0 as rd is left out.
#[test]
fn fp_ops() {
    // fadd.d ft1,ft2,ft3 raising nothing new.
    let r = rec(0x0231_70d3, &[(Reg::F(1), 0x4008)]);
    assert_eq!(
        one(r),
        group(&[
            pc(PC + 4),
            insn(0x0231_70d3),
            f(1, 0x4008),
            reg(FFLAGS, FFLAGS_V),
            reg(MSTATUS, MSTATUS_V)
        ])
    );
    // feq.d a0,ft1,ft2 raising NV: fflags accumulated (1 | 0x10).
    let r = rec(0xa220_a553, &[(Reg::X(10), 0), (Reg::Csr(FFLAGS), 0x11)]);
    assert_eq!(
        one(r),
        group(&[
            pc(PC + 4),
            insn(0xa220_a553),
            x(10, 0),
            reg(FFLAGS, 0x11),
            reg(MSTATUS, MSTATUS_V)
        ])
    );
    // feq.d zero,ft1,ft2
    let r = rec(0xa220_a053, &[]);
    assert_eq!(
        one(r),
        group(&[
            pc(PC + 4),
            insn(0xa220_a053),
            reg(FFLAGS, FFLAGS_V),
            reg(MSTATUS, MSTATUS_V)
        ])
    );
}

/// `RET`: `01 pc insn 07 01 <new priv> R(mstatus) 02`, the privilege before mstatus.
#[test]
fn ret() {
    let mut r = rec(0x3020_0073, &[(Reg::Csr(MSTATUS), 0x8000_000a_0000_6080)]);
    r.next_pc = 0x8000_1000;
    assert_eq!(
        strict(vec![Ev::Insn(r, None)], Priv::S),
        group(&[
            pc(0x8000_1000),
            insn(0x3020_0073),
            prv(1),
            reg(MSTATUS, 0x8000_000a_0000_6080)
        ])
    );
}

/// `TRAP`: `01 pc insn 07 01 <priv> R(xstatus) R(xcause) R(xepc) R(xtval) 02` by the new
/// privilege; no instruction for an instruction access or page fault; `INTR` without it.
#[test]
fn traps() {
    let ecall = Cause::Exception(Exception::EcallFromM);
    let r = Retired {
        exception: Some((ecall, 0)),
        next_pc: HANDLER,
        ..rec(0x0000_0073, &[])
    };
    let t = trap_rec(ecall, Priv::M, 0, Some(0x0000_0073));
    assert_eq!(
        strict(vec![Ev::Exc(r, t)], Priv::M),
        group(&[
            pc(HANDLER),
            insn(0x0000_0073),
            prv(3),
            reg(MSTATUS, 0x8000_000a_0000_7880),
            reg(MCAUSE, 11),
            reg(MEPC, PC),
            reg(MTVAL, 0)
        ])
    );
    // An illegal instruction trapping to S: sstatus (S's view), scause, sepc, stval.
    let ill = Cause::Exception(Exception::IllegalInstruction);
    let r = Retired {
        exception: Some((ill, 0xffff_ffff)),
        next_pc: HANDLER,
        ..rec(0xffff_ffff, &[])
    };
    let t = trap_rec(ill, Priv::S, 0xffff_ffff, Some(0xffff_ffff));
    let sstatus = 0x8000_000a_0000_7880 & iss::csr::SSTATUS_MASK;
    assert_eq!(
        strict(vec![Ev::Exc(r, t)], Priv::S),
        group(&[
            pc(HANDLER),
            insn(0xffff_ffff),
            prv(1),
            reg(0x100, sstatus),
            reg(SCAUSE, 2),
            reg(SEPC, PC),
            reg(STVAL, 0xffff_ffff)
        ])
    );
    // An instruction page fault: no instruction.
    let pf = Cause::Exception(Exception::InstructionPageFault);
    let r = Retired {
        pc: PC,
        insn: iss::insn::Insn::NOT_DECODED,
        exception: Some((pf, PC)),
        next_pc: HANDLER,
        ..Default::default()
    };
    let t = trap_rec(pf, Priv::M, PC, None);
    assert_eq!(
        strict(vec![Ev::Exc(r, t)], Priv::M),
        group(&[
            pc(HANDLER),
            prv(3),
            reg(MSTATUS, 0x8000_000a_0000_7880),
            reg(MCAUSE, 12),
            reg(MEPC, PC),
            reg(MTVAL, PC)
        ])
    );
    // A timer interrupt: no instruction; mip changed first, outside any group.
    let irq = Cause::Interrupt(Interrupt::MachineTimer);
    let t = trap_rec(irq, Priv::M, 0, None);
    let mut want = reg(MIP, 0x80);
    want.extend(group(&[
        pc(HANDLER),
        prv(3),
        reg(MSTATUS, 0x8000_000a_0000_7880),
        reg(MCAUSE, irq.xcause()),
        reg(MEPC, PC),
        reg(MTVAL, 0),
    ]));
    assert_eq!(strict(vec![Ev::Mip(0x80), Ev::Intr(t)], Priv::M), want);
}

/// mip: `04 44 03 <mip>` outside any group whenever it changes, before the group of the
/// first instruction that sees the new value; nothing while it stays.
#[test]
fn mip_changes_outside_groups() {
    let addi = || rec(0x0050_0193, &[(Reg::X(3), 5)]);
    let g = group(&[pc(PC + 4), insn(0x0050_0193), x(3, 5)]);
    let bytes = strict(
        vec![
            Ev::Insn(addi(), None),
            Ev::Mip(0x8),
            Ev::Insn(addi(), None),
            Ev::Insn(addi(), None),
            Ev::Mip(0x0),
            Ev::Insn(addi(), None),
        ],
        Priv::M,
    );
    let want = [
        g.clone(),
        reg(MIP, 0x8),
        g.clone(),
        g.clone(),
        reg(MIP, 0),
        g,
    ]
    .concat();
    assert_eq!(bytes, want);
}

/// Units of a stream: the last mip given outside a group before each group.
fn with_last_mip(groups: &[Group]) -> Vec<(Option<u64>, &Group)> {
    let mut last = None;
    let mut out = Vec::new();
    for g in groups {
        if !g.grouped {
            if let Some(v) = g.full_reg(MIP) {
                last = Some(v);
            }
            continue;
        }
        out.push((last, g));
    }
    out
}

/// interrupts.elf (timer and software interrupts): the strict stream carries mip's changes
/// at the right places: every read of mip (`csrr a0,mip`) finds the value the stream gave
/// last, every interrupt taken is pending in it, and MSIP and MTIP are both seen raised and
/// cleared. The stream verifies.
#[test]
fn interrupts_program_carries_mip_changes() {
    let elf = program("interrupts");
    let cfg = WriterConfig::flute_strict();
    let bytes = stream("interrupts", &elf, &cfg, None);
    let groups = parse_groups(&bytes, ParserOptions::default()).unwrap();
    let units = with_last_mip(&groups);
    let mut reads = 0;
    let mut irqs = 0;
    for (last, g) in &units {
        // csrr a0,mip
        if g.insn.is_some_and(|i| i.bits == 0x3440_2573) {
            let a0 = g.full_reg(0x100a).expect("a0 written");
            assert_eq!(Some(a0), *last, "group {}: mip read", g.index);
            reads += 1;
        }
        if g.insn.is_none() {
            if let Some(c) = g.full_reg(MCAUSE).filter(|c| c >> 63 == 1) {
                let bit = 1 << (c & 63);
                assert!(
                    last.is_some_and(|m| m & bit != 0),
                    "group {}: interrupt {c:#x} taken with mip {last:?}",
                    g.index
                );
                irqs += 1;
            }
        }
    }
    assert!(reads >= 5 && irqs >= 5, "{reads} reads, {irqs} interrupts");
    let mips: Vec<u64> = groups
        .iter()
        .filter(|g| !g.grouped)
        .filter_map(|g| g.full_reg(MIP))
        .collect();
    for bit in [0x8, 0x80] {
        assert!(mips.iter().any(|m| m & bit != 0), "{bit:#x} raised");
        assert!(
            mips.windows(2).any(|w| w[0] & bit != 0 && w[1] & bit == 0),
            "{bit:#x} cleared"
        );
    }
    let rep = check("interrupts", &elf, &bytes, &cfg);
    assert_eq!(rep.status, Status::Match, "{}", show(&rep));
}

/// Every shipped program's strict stream verifies to MATCH.
#[test]
fn every_program_verifies() {
    let cfg = WriterConfig::flute_strict();
    for (name, elf) in programs() {
        let bytes = stream(&name, &elf, &cfg, Some(200_000));
        let rep = check(&name, &elf, &bytes, &cfg);
        assert_eq!(rep.status, Status::Match, "{name}: {}", show(&rep));
    }
}

/// A mip the reference hart disagrees with (a software-writable bit, SSIP) is a mismatch
/// named `mip`; so is an interrupt the stream's last mip does not have pending.
#[test]
fn a_wrong_mip_is_reported() {
    let elf = program("interrupts");
    let cfg = WriterConfig::flute_strict();
    let bytes = stream("interrupts", &elf, &cfg, None);
    let groups = parse_groups(&bytes, ParserOptions::default()).unwrap();
    // The first mip element: set SSIP (bit 1) in it.
    let g = groups
        .iter()
        .find(|g| !g.grouped && g.full_reg(MIP).is_some())
        .expect("a mip change");
    let mut bad = bytes.clone();
    let at = g.offset as usize + 3;
    bad[at] ^= 0x2;
    let rep = check("interrupts", &elf, &bad, &cfg);
    assert_eq!(rep.status, Status::Mismatch, "{}", show(&rep));
    let m = &rep.mismatches[0];
    assert_eq!(m.group, g.index);
    assert_eq!(m.diffs[0].element, "mip");
    // The mip element before the first interrupt: its bit cleared.
    let units = with_last_mip(&groups);
    let (i, _) = units
        .iter()
        .enumerate()
        .find(|(_, (_, g))| g.insn.is_none() && g.full_reg(MCAUSE).is_some_and(|c| c >> 63 == 1))
        .expect("an interrupt");
    let irq = units[i].1;
    let cause = irq.full_reg(MCAUSE).unwrap() & 63;
    let before = groups[..irq.index as usize]
        .iter()
        .rev()
        .find(|g| !g.grouped && g.full_reg(MIP).is_some())
        .unwrap();
    let mut bad = bytes.clone();
    bad[before.offset as usize + 3 + (cause as usize / 8)] &= !(1 << (cause % 8));
    let rep = check("interrupts", &elf, &bad, &cfg);
    assert_eq!(rep.status, Status::Mismatch, "{}", show(&rep));
    assert!(
        rep.mismatches
            .iter()
            .any(|m| m.group == irq.index && m.diffs.iter().any(|d| d.element == "mip")),
        "{}",
        show(&rep)
    );
}
