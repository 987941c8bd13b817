//! The live front door of the tandem verifier: a core's retirement becomes the group a tandem
//! stream would carry for it (built through the stream parser's own item folding, so it
//! means exactly what the stream would), the verifier checks it, and what the stream form
//! cannot say is checked here: where the instruction was, the privilege it ran in, whether it
//! trapped and why, and (with interrupt pins) whether an interrupt was due.

use crate::record::Recorder;
use crate::retire::*;
use crate::{Config, Error, PIN_BITS};
use arch::{Cause, Priv};
use iss::csr::{MCAUSE, SCAUSE};
use iss::mmu::Access;
use tandem::group::{Group, RawInsn};
use tandem::item::{Addl, Item, MemReq, MemRsp};
use tandem::names::priv_name;
use tandem::opcode::{MemOp, MemResult, MemSize, FPR_ADDR, GPR_ADDR};
use tandem::verify::{Diff, Mismatch, Plain, PlainAccess, PlainStep, Verifier};

/// Counters a snapshot keeps.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct State {
    checked: u64,
    mismatching: u64,
}

pub(crate) struct Checker {
    pub checked: u64,
    pub mismatching: u64,
    pub kept: Vec<Mismatch>,
    max_kept: usize,
    pins: bool,
    full_compare_every: u64,
    since_full: u64,
    /// This call's mismatches.
    last: Vec<Mismatch>,
    extra: Vec<Diff>,
    items: Vec<Item>,
    group: Group,
    /// Whether ordinary retirements go the verifier's short way (`Verifier::check_plain`);
    /// off only to hold the two ways equal in tests.
    pub short_way: bool,
    plain_regs: [(u16, u64); MAX_WRITES],
}

impl Checker {
    pub fn new(cfg: &Config) -> Checker {
        Checker {
            checked: 0,
            mismatching: 0,
            kept: Vec::new(),
            max_kept: cfg.max_kept,
            pins: cfg.interrupt_pins,
            full_compare_every: cfg.full_compare_every,
            since_full: 0,
            last: Vec::new(),
            extra: Vec::new(),
            items: Vec::with_capacity(32),
            group: Group::default(),
            short_way: true,
            plain_regs: [(0, 0); MAX_WRITES],
        }
    }

    pub fn state(&self) -> State {
        State {
            checked: self.checked,
            mismatching: self.mismatching,
        }
    }

    pub fn set_state(&mut self, s: &State) {
        self.checked = s.checked;
        self.mismatching = s.mismatching;
    }

    pub fn step_check(
        &mut self,
        v: &mut Verifier,
        dut: &Retirement,
        order: u64,
        pins: u64,
        recorder: Option<&mut Recorder>,
    ) -> Result<(), Error> {
        self.last.clear();
        self.extra.clear();
        validate(dut, order)?;
        self.check_before(v, dut, pins);
        // Where a load's data is checked, as its address translates before the step.
        let load_pas = load_addrs(v, dut);
        let g = &mut self.group;
        g.clear();
        g.index = order;
        g.grouped = true;
        let bad = |k: tandem::parser::ErrorKind| Error::Retirement {
            order,
            problem: k.to_string(),
        };
        // An ordinary retirement goes the verifier's short way, unless a recording needs
        // its group or a full compare is due (which reports the group's instruction).
        let full_due =
            self.full_compare_every != 0 && self.since_full + 1 >= self.full_compare_every;
        let plain = match (&recorder, full_due || !self.short_way) {
            (None, false) => plain_step(dut, &load_pas, &mut self.plain_regs)
                .map_or(Plain::NotPlain, |p| v.check_plain(&p)),
            _ => Plain::NotPlain,
        };
        match plain {
            Plain::Matched => {}
            Plain::Undecided => {
                fill_group(g, v, dut, &load_pas).map_err(bad)?;
                tandem::parser::check(g).map_err(bad)?;
                v.finish_group(g);
            }
            Plain::NotPlain => {
                fill_group(g, v, dut, &load_pas).map_err(bad)?;
                tandem::parser::check(g).map_err(bad)?;
                if let Some(r) = recorder {
                    build_items(&mut self.items, v, dut, &load_pas);
                    g.offset = r.offset();
                    r.write(&self.items)?;
                    g.end = r.offset();
                }
                v.group(g).map_err(Error::Group)?;
            }
        }
        self.check_trap(v, dut);
        self.checked += 1;
        self.collect(v, dut, order);
        self.since_full += 1;
        if self.full_compare_every != 0 && self.since_full >= self.full_compare_every {
            self.since_full = 0;
            v.compare_all(&self.group);
            self.collect(v, dut, order);
        }
        Ok(())
    }

    /// The last call's mismatches.
    pub fn last(&self) -> &[Mismatch] {
        &self.last
    }

    pub fn compare_all(&mut self, v: &mut Verifier, order: u64) -> &[Mismatch] {
        self.last.clear();
        self.extra.clear();
        self.group.index = order;
        v.compare_all(&self.group);
        self.last.append(&mut v.report.mismatches);
        self.mismatching += self.last.len() as u64;
        self.keep();
        &self.last
    }

    /// Where the instruction is, the privilege it runs in, and whether an interrupt is due.
    fn check_before(&mut self, v: &mut Verifier, dut: &Retirement, pins: u64) {
        let mut adopt = false;
        let m = &mut v.m;
        if dut.valid & VALID_PC != 0 && dut.pc != m.hart.pc {
            self.extra.push(Diff {
                element: "pc".into(),
                expected: hex(m.hart.pc),
                actual: hex(dut.pc),
            });
            m.set_pc(dut.pc);
            adopt = true;
        }
        if dut.valid & VALID_PRV != 0 && dut.prv != m.hart.prv as u8 {
            self.extra.push(Diff {
                element: "priv".into(),
                expected: priv_name(m.hart.prv as u8).into_owned(),
                actual: priv_name(dut.prv).into_owned(),
            });
            if let Some(p) = Priv::from_u8(dut.prv) {
                m.set_priv_level(p);
            }
            adopt = true;
        }
        if self.pins {
            m.hart.csr.mip = (m.hart.csr.mip & !PIN_BITS) | pins;
        }
        // An interrupt the testbench raised is taken whatever the pins say.
        if self.pins && !matches!(m.forced_trap(), Some((Cause::Interrupt(_), _))) {
            let due = m.pending_interrupt();
            let taken = dut.is_interrupt();
            let taken_cause = (dut.valid & VALID_CAUSE != 0).then_some(dut.cause);
            let diff = match (taken, due) {
                (false, Some(i)) => Some((
                    format!("{} (pending and enabled)", i.name()),
                    "not taken".to_string(),
                )),
                (true, None) => Some((
                    "none (no interrupt pending and enabled)".to_string(),
                    taken_cause.map_or("an interrupt".into(), interrupt_name),
                )),
                (true, Some(i)) if taken_cause.is_some_and(|c| c != i.code()) => Some((
                    i.name().to_string(),
                    taken_cause.map_or(String::new(), interrupt_name),
                )),
                _ => None,
            };
            if let Some((expected, actual)) = diff {
                self.extra.push(Diff {
                    element: "interrupt".into(),
                    expected,
                    actual,
                });
            }
        }
        if adopt {
            v.adopt_reference();
        }
    }

    /// Whether the instruction trapped, and why (the stream form says it only through the
    /// trap CSRs, which a core without CSR reporting leaves out).
    fn check_trap(&mut self, v: &Verifier, dut: &Retirement) {
        let (_, trap) = v.last_step();
        let ref_exc = trap.map(|t| t.cause).filter(|c| !c.is_interrupt());
        let dut_cause = dut.cause();
        match dut.trap {
            TRAP_NONE => {
                if let Some(c) = ref_exc {
                    self.extra.push(Diff {
                        element: "trap".into(),
                        expected: cause_text(c),
                        actual: "none (retired)".into(),
                    });
                }
            }
            TRAP_EXCEPTION => match ref_exc {
                None if trap.is_none() => self.extra.push(Diff {
                    element: "trap".into(),
                    expected: "none (retired)".into(),
                    actual: dut_cause.map_or("an exception".into(), cause_text),
                }),
                None => {}
                Some(c) => {
                    if dut_cause.is_some_and(|d| d != c)
                        || (dut.valid & VALID_CAUSE != 0 && dut_cause.is_none())
                    {
                        self.extra.push(Diff {
                            element: "cause".into(),
                            expected: cause_text(c),
                            actual: dut_cause.map_or(format!("{}", dut.cause), cause_text),
                        });
                    }
                    let tval = trap.map_or(0, |t| t.tval);
                    if dut.valid & VALID_TVAL != 0 && dut.tval != tval {
                        self.extra.push(Diff {
                            element: "tval".into(),
                            expected: hex(tval),
                            actual: hex(dut.tval),
                        });
                    }
                }
            },
            _ => {}
        }
    }

    /// This call's mismatches: the verifier's, with what was found here in front.
    fn collect(&mut self, v: &mut Verifier, dut: &Retirement, order: u64) {
        if v.report.mismatching_groups == 0 && self.extra.is_empty() {
            return;
        }
        let start = self.last.len();
        self.last.append(&mut v.report.mismatches);
        v.report.mismatching_groups = 0;
        v.report.mismatching_elements = 0;
        if !self.extra.is_empty() {
            let mut extra = std::mem::take(&mut self.extra);
            if let Some(first) = self.last.get_mut(start) {
                extra.append(&mut first.diffs);
                first.diffs = extra;
            } else {
                let kind = match dut.trap {
                    TRAP_EXCEPTION => "exception",
                    TRAP_INTERRUPT => "interrupt",
                    _ => "instruction",
                };
                let has_insn = dut.len != 0 && !dut.is_interrupt();
                self.last.push(Mismatch {
                    group: order,
                    offset: self.group.offset,
                    pc: dut.pc,
                    kind: kind.into(),
                    insn: has_insn.then(|| insn_hex(dut.insn, dut.len)),
                    disasm: has_insn.then(|| dut.disasm()),
                    ref_insn: None,
                    diffs: extra,
                });
            }
        }
        if self.last.len() > start {
            self.mismatching += 1;
        }
        self.keep_from(start);
    }

    fn keep(&mut self) {
        self.keep_from(0);
    }

    fn keep_from(&mut self, start: usize) {
        for m in &self.last[start..] {
            if self.kept.len() < self.max_kept {
                self.kept.push(m.clone());
            }
        }
    }
}

fn validate(dut: &Retirement, order: u64) -> Result<(), Error> {
    let bad = |problem: String| Err(Error::Retirement { order, problem });
    if dut.trap > TRAP_INTERRUPT {
        return bad(format!(
            "trap {} (0 none, 1 exception, 2 interrupt)",
            dut.trap
        ));
    }
    if dut.is_interrupt() {
        if dut.len != 0 {
            return bad("an interrupt has no instruction (len must be 0)".into());
        }
    } else if dut.len != 2 && dut.len != 4 && !(dut.len == 0 && dut.trap == TRAP_EXCEPTION) {
        // Length 0: an exception raised by the fetch, with no instruction.
        return bad(format!("instruction length {} (2 or 4)", dut.len));
    }
    if dut.n_writes as usize > MAX_WRITES {
        return bad(format!(
            "{} register writes (at most {MAX_WRITES})",
            dut.n_writes
        ));
    }
    if dut.n_mem as usize > MAX_MEM {
        return bad(format!("{} memory accesses (at most {MAX_MEM})", dut.n_mem));
    }
    for w in dut.writes() {
        let ok = match w.file {
            REG_X | REG_F => w.num < 32,
            REG_CSR => w.num < 0x1000,
            _ => false,
        };
        if !ok {
            return bad(format!(
                "no such register: file {}, number {}",
                w.file, w.num
            ));
        }
    }
    for a in dut.mem() {
        if !matches!(
            a.kind & !crate::spike_log::MEM_DATA_UNKNOWN,
            MEM_LOAD | MEM_STORE
        ) || MemSize::from_bytes(a.size).is_none()
        {
            return bad(format!(
                "memory access of kind {} and size {} (kind 1 load or 2 store; size 1, 2, 4 or 8)",
                a.kind, a.size
            ));
        }
    }
    Ok(())
}

/// The items a tandem stream carries for this retirement.
/// The group [`build_items`]' items fold into (`tandem::parser::add`), built directly: the
/// items are only written out when a session is recorded. A property test holds the two
/// equal, errors included (`fill_group_is_the_folded_items`).
fn fill_group(
    g: &mut Group,
    v: &mut Verifier,
    dut: &Retirement,
    load_pas: &[Option<u64>; MAX_MEM],
) -> Result<(), tandem::parser::ErrorKind> {
    use tandem::group::{MemTxn, RawInsn, RegOp, RegUpdate};
    use tandem::parser::ErrorKind;
    if dut.len != 0 && !dut.is_interrupt() {
        g.insn = Some(if dut.len == 2 {
            RawInsn {
                bits: dut.insn & 0xffff,
                len: 2,
            }
        } else {
            RawInsn {
                bits: dut.insn,
                len: 4,
            }
        });
    }
    fn full(g: &mut Group, addr: u16, value: u64) -> Result<(), ErrorKind> {
        let op = RegOp::Full(value);
        match g.regs.iter().find(|r| r.addr == addr) {
            Some(r) if r.op != op => Err(ErrorKind::Ambiguous(format!("register 0x{addr:04x}"))),
            Some(_) => Ok(()),
            None => {
                g.regs.push(RegUpdate { addr, op });
                Ok(())
            }
        }
    }
    for w in dut.writes() {
        let addr = match w.file {
            REG_X if w.num == 0 => continue,
            REG_X => GPR_ADDR + w.num,
            REG_F => FPR_ADDR + w.num,
            _ => w.num,
        };
        full(g, addr, w.value)?;
    }
    if let Some((addr, value)) = trap_cause_write(v, dut) {
        full(g, addr, value)?;
    }
    if dut.valid & VALID_NEXT_PC != 0 {
        g.pc = Some(dut.next_pc);
    }
    if dut.valid & VALID_NEXT_PRV != 0 {
        g.prv = Some(dut.next_prv);
    }
    if let Some(first) = dut.mem().first() {
        g.eaddr = Some(first.vaddr);
        if first.paddr != PADDR_UNKNOWN {
            g.paddr = Some(first.paddr);
        }
    }
    for (a, &pa) in dut.mem().iter().zip(load_pas) {
        let size = MemSize::from_bytes(a.size).unwrap_or(MemSize::B64);
        match a.kind {
            MEM_STORE => {
                let d = (size, a.wdata & size.mask());
                match g.store_data {
                    Some(old) if old != d => {
                        return Err(ErrorKind::Ambiguous("store data".into()));
                    }
                    _ => g.store_data = Some(d),
                }
            }
            MEM_LOAD => {
                let Some((req, rsp)) = load_txn(pa, a, size) else {
                    continue;
                };
                g.mem.push(MemTxn {
                    req,
                    rsp: Some(rsp),
                });
            }
            _ => {}
        }
    }
    Ok(())
}

/// The retirement as the verifier's short way takes it: an instruction that retired, writing
/// GPRs and FPRs only, with at most one plain load or store. `None` for anything else (the
/// short way then decides nothing).
fn plain_step<'a>(
    dut: &Retirement,
    load_pas: &[Option<u64>; MAX_MEM],
    regs: &'a mut [(u16, u64); MAX_WRITES],
) -> Option<PlainStep<'a>> {
    if dut.trap != TRAP_NONE || dut.len == 0 || dut.n_mem > 1 {
        return None;
    }
    let mut n = 0;
    for w in dut.writes() {
        regs[n] = match w.file {
            REG_X if w.num == 0 => continue,
            REG_X => (GPR_ADDR + w.num, w.value),
            REG_F => (FPR_ADDR + w.num, w.value),
            _ => return None,
        };
        n += 1;
    }
    let access = match dut.mem().first() {
        None => None,
        Some(a) if a.kind == MEM_LOAD || a.kind == MEM_STORE => Some(PlainAccess {
            store: a.kind == MEM_STORE,
            vaddr: a.vaddr,
            paddr: (a.paddr != PADDR_UNKNOWN).then_some(a.paddr),
            data_pa: load_pas[0],
            size: MemSize::from_bytes(a.size)?,
            data: if a.kind == MEM_STORE {
                a.wdata
            } else {
                a.rdata
            },
        }),
        Some(_) => return None,
    };
    let insn = if dut.len == 2 {
        RawInsn {
            bits: dut.insn & 0xffff,
            len: 2,
        }
    } else {
        RawInsn {
            bits: dut.insn,
            len: 4,
        }
    };
    Some(PlainStep {
        insn,
        next_pc: (dut.valid & VALID_NEXT_PC != 0).then_some(dut.next_pc),
        next_prv: (dut.valid & VALID_NEXT_PRV != 0).then_some(dut.next_prv),
        regs: &regs[..n],
        access,
    })
}

/// For a trap with no instruction (an interrupt, a fetch fault), and an instruction's
/// exception: the stream form says what it is by its cause, written where the trap goes,
/// unless the retirement lists that write (so an SC that trapped, on a debug trigger, is not
/// taken for one that failed).
fn trap_cause_write(v: &Verifier, dut: &Retirement) -> Option<(u16, u64)> {
    if dut.trap == TRAP_NONE || dut.valid & VALID_CAUSE == 0 {
        return None;
    }
    let m = &v.m;
    let (deleg, bit) = match dut.trap {
        TRAP_INTERRUPT => (m.hart.csr.mideleg, 1 << 63),
        _ => (m.hart.csr.medeleg, 0),
    };
    let to_s = m.hart.prv != Priv::M && (deleg >> (dut.cause & 63)) & 1 != 0;
    let addr = if to_s { SCAUSE } else { MCAUSE };
    dut.csr_write(addr)
        .is_none()
        .then_some((addr, bit | dut.cause))
}

/// Where each load's data is checked: its physical address, or its effective address as it
/// translates before the step; `None` when it does not translate (and for stores).
fn load_addrs(v: &mut Verifier, dut: &Retirement) -> [Option<u64>; MAX_MEM] {
    let mut out = [None; MAX_MEM];
    for (a, pa) in dut.mem().iter().zip(&mut out) {
        *pa = match (a.kind, a.paddr) {
            (MEM_LOAD, PADDR_UNKNOWN) => v.m.translate(a.vaddr, Access::Load).ok(),
            (MEM_LOAD, pa) => Some(pa),
            _ => None,
        };
    }
    out
}

/// A load's request and response at `pa` (from [`load_addrs`]): its data checked against
/// memory as it was (device loads are the core's own: the verifier takes them). None when its
/// address does not translate.
fn load_txn(pa: Option<u64>, a: &MemAccess, size: MemSize) -> Option<(MemReq, MemRsp)> {
    let pa = pa?;
    Some((
        MemReq {
            addr: pa,
            op: MemOp::Load,
            size,
            data: None,
        },
        MemRsp {
            size,
            result: MemResult::Success,
            data: Some(a.rdata & size.mask()),
        },
    ))
}

fn build_items(
    items: &mut Vec<Item>,
    v: &mut Verifier,
    dut: &Retirement,
    load_pas: &[Option<u64>; MAX_MEM],
) {
    items.clear();
    items.push(Item::BeginGroup);
    if dut.len != 0 && !dut.is_interrupt() {
        items.push(if dut.len == 2 {
            Item::Insn16(dut.insn as u16)
        } else {
            Item::Insn32(dut.insn)
        });
    }
    for w in dut.writes() {
        let addr = match w.file {
            REG_X if w.num == 0 => continue,
            REG_X => GPR_ADDR + w.num,
            REG_F => FPR_ADDR + w.num,
            _ => w.num,
        };
        items.push(Item::FullReg {
            addr,
            value: w.value,
        });
    }
    if let Some((addr, value)) = trap_cause_write(v, dut) {
        items.push(Item::FullReg { addr, value });
    }
    if dut.valid & VALID_NEXT_PC != 0 {
        items.push(Item::Addl(Addl::Pc(dut.next_pc)));
    }
    if dut.valid & VALID_NEXT_PRV != 0 {
        items.push(Item::Addl(Addl::Priv(dut.next_prv)));
    }
    if let Some(first) = dut.mem().first() {
        items.push(Item::Addl(Addl::Eaddr(first.vaddr)));
        if first.paddr != PADDR_UNKNOWN {
            items.push(Item::Addl(Addl::Paddr(first.paddr)));
        }
    }
    for (a, &pa) in dut.mem().iter().zip(load_pas) {
        let size = MemSize::from_bytes(a.size).unwrap_or(MemSize::B64);
        match a.kind {
            MEM_STORE => items.push(Item::Addl(Addl::StoreData(size, a.wdata & size.mask()))),
            MEM_LOAD => {
                if let Some((req, rsp)) = load_txn(pa, a, size) {
                    items.push(Item::MemReq(req));
                    items.push(Item::MemRsp(rsp));
                }
            }
            _ => {}
        }
    }
    items.push(Item::EndGroup);
}

/// A register's index in the verifier's space, by name.
pub(crate) fn reg_index(name: &str) -> Option<usize> {
    use tandem::names::{FPR_ABI, GPR_ABI};
    use tandem::refhart::{FPR0, GPR0};
    let n = name.trim().to_ascii_lowercase();
    if let Some(i) = GPR_ABI.iter().position(|a| *a == n) {
        return Some(GPR0 + i);
    }
    if n == "fp" {
        return Some(GPR0 + 8);
    }
    if let Some(i) = FPR_ABI.iter().position(|a| *a == n) {
        return Some(FPR0 + i);
    }
    let num = |s: &str| s.parse::<usize>().ok().filter(|&i| i < 32);
    if let Some(i) = n.strip_prefix('x').and_then(num) {
        return Some(GPR0 + i);
    }
    if let Some(i) = n.strip_prefix('f').and_then(num) {
        return Some(FPR0 + i);
    }
    if let Some(h) = n.strip_prefix("0x") {
        return u16::from_str_radix(h, 16)
            .ok()
            .filter(|&a| a < 0x1000)
            .map(usize::from);
    }
    (0..0x1000u16)
        .find(|&a| iss::csr::csr_name(a).is_some_and(|c| c == n))
        .map(usize::from)
}

fn cause_text(c: Cause) -> String {
    format!("{} ({})", c.name(), c.code())
}

fn interrupt_name(code: u64) -> String {
    match arch::Interrupt::from_code(code) {
        Some(i) => format!("{} ({code})", i.name()),
        None => format!("interrupt {code}"),
    }
}

fn hex(v: u64) -> String {
    format!("0x{v:016x}")
}

fn insn_hex(bits: u32, len: u8) -> String {
    if len == 2 {
        format!("{:04x}", bits & 0xffff)
    } else {
        format!("{bits:08x}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The case count: `HARTSCOPE_FUZZ_CASES` when set (nightly), else `default`.
    fn fuzz_cases(default: u32) -> u32 {
        std::env::var("HARTSCOPE_FUZZ_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    }

    fn folded(v: &mut Verifier, dut: &Retirement) -> Result<Group, tandem::parser::ErrorKind> {
        let mut items = Vec::new();
        let pas = load_addrs(v, dut);
        build_items(&mut items, v, dut, &pas);
        let mut g = Group::default();
        for it in items {
            tandem::parser::add(&mut g, it)?;
        }
        Ok(g)
    }

    fn filled(v: &mut Verifier, dut: &Retirement) -> Result<Group, tandem::parser::ErrorKind> {
        let mut g = Group::default();
        let pas = load_addrs(v, dut);
        fill_group(&mut g, v, dut, &pas)?;
        Ok(g)
    }

    fn retirement() -> impl Strategy<Value = Retirement> {
        // Few register numbers and values, so that duplicates (agreeing and not) are common.
        let write = (0u8..3, 0u16..4, 0u64..3).prop_map(|(file, n, value)| RegWrite {
            file,
            num: if file == REG_CSR {
                [MCAUSE, SCAUSE, 0x341, 0x300][n as usize]
            } else {
                n
            },
            value,
        });
        let mem = (1u8..3, 0u8..4, 0u64..2, any::<bool>(), 0u64..3).prop_map(
            |(kind, sz, va, known, data)| MemAccess {
                kind,
                size: 1 << sz,
                vaddr: 0x8000_0000 + va * 8,
                paddr: if known {
                    0x8000_0000 + va * 8
                } else {
                    PADDR_UNKNOWN
                },
                rdata: data,
                wdata: data | 0x100,
            },
        );
        (
            prop::collection::vec(write, 0..=MAX_WRITES),
            prop::collection::vec(mem, 0..=MAX_MEM),
            prop::sample::select(vec![0u8, 2, 4]),
            0u8..3,
            0u32..64,
            any::<u32>(),
            0u64..12,
        )
            .prop_map(|(writes, mem, len, trap, valid, insn, cause)| {
                let mut r = Retirement {
                    len,
                    trap,
                    valid,
                    insn,
                    cause,
                    next_pc: 0x8000_0100,
                    next_prv: 1,
                    ..Retirement::default()
                };
                for w in writes {
                    r.push_write(w.file, w.num, w.value).unwrap();
                }
                for a in mem {
                    r.push_mem(a).unwrap();
                }
                r
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(fuzz_cases(512)))]
        /// The directly built group is the one the stream parser folds from the items,
        /// field for field, and the same retirements are refused with the same message.
        #[test]
        fn fill_group_is_the_folded_items(dut in retirement()) {
            let mut h = crate::Hart::new(&crate::Config::default()).unwrap();
            let v = &mut h.v;
            let a = folded(v, &dut).map(|g| format!("{g:?}"));
            let b = filled(v, &dut).map(|g| format!("{g:?}"));
            prop_assert_eq!(a, b);
        }
    }
}
