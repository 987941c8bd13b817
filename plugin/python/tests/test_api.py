"""The Python API: settings, memory, registers, retirements, errors, the GIL, devices,
snapshots, recording and Spike logs."""

import json
import subprocess
import threading
import time

import pytest

import hartscope
from conftest import elf

RAM = 0x8000_0000


def words(*ws):
    return b"".join(w.to_bytes(4, "little") for w in ws)


def tiny(code, **cfg):
    """A hart with `code` at RAM's start, reset there."""
    h = hartscope.Hart(console="none", **cfg)
    h.load_image(RAM, code)
    h.reset(RAM)
    return h


# addi a0, zero, 5 ; addi a1, a0, 1 ; sd a1, 64(zero + t0=RAM) ... built below
ADDI_A0_5 = 0x00500513


def test_settings_as_keywords_dict_or_json():
    assert hartscope.Hart().config["isa"] == "rv64gc_zicntr_zihpm"
    h = hartscope.Hart(ram_size=1 << 20, reports={"csr": True, "fpr": False})
    assert h.config["ram_size"] == 1 << 20
    assert h.config["reports"] == {"csr": True, "fpr": False}
    h = hartscope.Hart(config={"misaligned": "emulate", "ram_size": 1 << 21})
    assert h.config["misaligned"] == "emulate"
    h = hartscope.Hart(config=json.dumps({"misaligned": "emulate"}), misaligned="trap")
    assert h.config["misaligned"] == "trap"  # keywords win


@pytest.mark.parametrize(
    "settings, words_in_message",
    [
        (dict(ram_sise=1), ["ram_sise"]),
        (dict(isa="rv32i"), ["RV64"]),
        (dict(misaligned="maybe"), ["misaligned", "maybe"]),
        (dict(console="printer"), ["console"]),
        (dict(config="{not json"), ["settings"]),
        (dict(config=[1, 2]), ["config"]),
        (dict(ram_size="big"), ["ram_size"]),
        (dict(devices=[{"base": RAM + 0x1000, "size": 16}]), ["overlaps RAM"]),
    ],
)
def test_bad_settings_raise_error_naming_them(settings, words_in_message):
    with pytest.raises(hartscope.Error) as e:
        hartscope.Hart(**settings)
    for w in words_in_message:
        assert w in str(e.value)


def test_bad_files_and_addresses_raise_error_naming_them(tmp_path):
    h = hartscope.Hart(console="none")
    with pytest.raises(hartscope.Error, match="/nonexistent.elf"):
        h.load_elf("/nonexistent.elf")
    junk = tmp_path / "junk.elf"
    junk.write_bytes(b"\x7fELF" + b"\0" * 10)
    with pytest.raises(hartscope.Error, match="junk.elf"):
        h.load_elf(junk)
    with pytest.raises(hartscope.Error, match="0x10"):
        h.write_mem(0x10, b"\1")
    with pytest.raises(hartscope.Error, match="0x10"):
        h.read_mem(0x10, 4)
    with pytest.raises(hartscope.Error, match="larger than RAM"):
        h.read_mem(RAM, 1 << 62)
    with pytest.raises(hartscope.Error, match="no such register"):
        h.reg("q7")
    with pytest.raises(hartscope.Error, match="no such CSR"):
        h.csr("mstatuz")
    with pytest.raises(hartscope.Error, match="0x7ff"):
        h.csr(0x7FF)
    with pytest.raises(hartscope.Error):
        h.set_csr(0x7FF, 1)
    with pytest.raises(hartscope.Error, match="no such register"):
        h.x["fa0"]
    with pytest.raises(IndexError):
        h.x[32]


def test_memory_and_registers():
    h = tiny(words(ADDI_A0_5))
    h.write_mem(RAM + 0x100, b"\x01\x02\x03")
    assert h.read_mem(RAM + 0x100, 3) == b"\x01\x02\x03"
    h.write_mem(RAM + 0x104, bytearray(b"\xff"))
    assert h.read_mem(RAM + 0x103, 2) == b"\x00\xff"
    assert h.pc == RAM
    r = h.step()
    assert r.x_write(10) == 5
    assert h.x[10] == h.x["a0"] == h.x[-22] == h.reg("a0") == h.reg("x10") == 5
    h.x["a1"] = 7
    h.x[0] = 9  # x0 stays 0
    assert h.x[0:3] == [0, 0, 0] and h.x[11] == 7 and len(h.x) == 32
    assert list(h.x)[10:12] == [5, 7]
    h.f["fa0"] = 0xFFFFFFFF3F800000
    assert h.f[10] == h.reg("fa0") == 0xFFFFFFFF3F800000
    assert "a0=0x5" in repr(h.x)
    h.set_csr("mscratch", 0x1234)
    assert h.csr("mscratch") == h.csr(0x340) == h.reg("mscratch") == 0x1234
    assert h.privilege == 3
    h.pc = RAM
    assert h.pc == RAM


def test_a_retirement_from_keywords():
    r = hartscope.Retirement(order=3, pc=RAM, insn=ADDI_A0_5, next_pc=RAM + 4,
                             writes=[("a0", 5)])
    assert r.len == 4 and r.trap == hartscope.TRAP_NONE
    assert r.valid == hartscope.VALID_PC | hartscope.VALID_NEXT_PC
    assert r.writes == [hartscope.RegWrite("x", 10, 5)]
    assert r.disasm == "li a0,5"
    assert "li a0,5" in repr(r) and "a0=0x5" in repr(r)
    c = hartscope.Retirement(pc=RAM, insn=0x4501)  # c.li a0, 0
    assert c.len == 2
    i = hartscope.Retirement(trap="interrupt", cause=7, next_pc=RAM)
    assert i.is_interrupt and i.len == 0 and i.cause_name
    s = hartscope.Retirement(pc=RAM, insn=0x00B53023, mem=[("store", 8, RAM + 64, None, 0, 7)])
    assert s.mem[0].kind == "store" and s.mem[0].paddr is None and s.mem[0].wdata == 7
    d = hartscope.Retirement(pc=RAM, insn=0x00B53023,
                             mem=[{"kind": "store", "size": 8, "addr": RAM, "data": 7}])
    assert d.mem == [hartscope.MemAccess("store", 8, RAM, None, 0, 7)]
    assert s.copy() == s and s.copy() is not s
    t = s.copy()
    t.next_pc = 4
    assert t != s and t.valid & hartscope.VALID_NEXT_PC


@pytest.mark.parametrize(
    "kw, message",
    [
        (dict(trap=5), "trap 5"),
        (dict(trap="sometimes"), "trap"),
        (dict(prv=2), "prv 2"),
        (dict(pc=-1), "pc"),
        (dict(pc="0x10"), "pc"),
        (dict(insn=1 << 32), "insn"),
        (dict(writes=[("x", 40, 0)]), "register number 40"),
        (dict(writes=[("q", 1, 0)]), "register file"),
        (dict(writes=[("zz", 1)]), "no such register"),
        (dict(writes=[(1, 2, 3, 4)]), "writes[0]"),
        (dict(writes=[("a0", 1)] * 13), "at most 12"),
        (dict(mem=[("load", 3, 0)]), "size 3"),
        (dict(mem=[("fetch", 4, 0)]), "kind"),
        (dict(mem=[{"kind": "load", "size": 4, "adress": 0}]), "adress"),
        (dict(mem=[("load", 4, 0)] * 3), "at most 2"),
    ],
)
def test_bad_retirements_raise_error_naming_the_field(kw, message):
    with pytest.raises(hartscope.Error) as e:
        hartscope.Retirement(**kw)
    assert message in str(e.value)


def test_checking_bad_input_raises_error():
    h = tiny(words(ADDI_A0_5))
    with pytest.raises(hartscope.Error, match="length 3"):
        h.check(hartscope.Retirement(pc=RAM, insn=ADDI_A0_5, len=3))
    with pytest.raises(hartscope.Error, match="neither a Retirement nor a dict"):
        h.check(42)
    with pytest.raises(hartscope.Error, match="rvfi_pc_rdat"):
        h.check_rvfi({"rvfi_valid": 1, "rvfi_pc_rdat": RAM})
    with pytest.raises(hartscope.Error, match="rvfi_mode"):
        h.check_rvfi({"rvfi_mode": 7})
    with pytest.raises(hartscope.Error, match="ixl"):
        h.check_rvfi({"insn": ADDI_A0_5, "pc_rdata": RAM, "ixl": 1})

    class Undefined:
        def __int__(self):
            raise ValueError("X or Z bits")

        def __repr__(self):
            return "LogicArray('XXXX')"

    with pytest.raises(hartscope.Error, match=r"rvfi_rd_wdata: LogicArray\('XXXX'\).*X or Z"):
        h.check_rvfi({"rvfi_rd_wdata": Undefined()})
    with pytest.raises(hartscope.Error, match="mem_wmask 0x05"):
        h.check_rvfi({"insn": ADDI_A0_5, "pc_rdata": RAM, "mem_wmask": 5})
    with pytest.raises(hartscope.Error, match="csr_mstatus_wmask"):
        h.check_rvfi({"insn": ADDI_A0_5, "pc_rdata": RAM, "csr_mstatus_wmask": 1})
    # Nothing was checked: bad input changes nothing.
    assert h.checked == 0
    # A record with valid 0 checks nothing.
    assert h.check_rvfi({"valid": 0}) == [] and h.checked == 0


def test_rvfi_signals_from_a_dict_check_and_report():
    h = tiny(words(ADDI_A0_5, 0x00150593))  # li a0,5 ; addi a1,a0,1
    ok = {"rvfi_valid": 1, "rvfi_order": 0, "rvfi_insn": ADDI_A0_5, "rvfi_mode": 3,
          "rvfi_ixl": 2, "rvfi_rd_addr": 10, "rvfi_rd_wdata": 5, "rvfi_pc_rdata": RAM,
          "rvfi_pc_wdata": RAM + 4}
    assert h.check_rvfi(ok) == []
    bad = dict(ok, rvfi_order=1, rvfi_insn=0x00150593, rvfi_rd_addr=11, rvfi_rd_wdata=9,
               rvfi_pc_rdata=RAM + 4, rvfi_pc_wdata=RAM + 8)
    (m,) = h.check(bad)
    assert m.order == 1 and m.pc == RAM + 4 and m.disasm == "addi a1,a0,1"
    assert m.diffs == [hartscope.Diff("x11/a1", "0x0000000000000006", "0x0000000000000009")]
    assert m.elements() == {"x11/a1": ("0x0000000000000006", "0x0000000000000009")}
    text = str(m)
    assert "mismatch at retirement 1" in text and "addi a1,a0,1" in text
    assert "expected 0x0000000000000006" in text and "core 0x0000000000000009" in text
    assert m.to_dict()["diffs"][0]["actual"] == "0x0000000000000009"
    assert h.errors == 1 and h.checked == 2 and len(h.mismatches) == 1


def test_csr_writes_in_rvfi_in_both_forms():
    csrw = 0x34051073  # csrw mscratch, a0
    h = tiny(words(csrw, csrw))
    h.x["a0"] = 0x55
    base = {"insn": csrw, "mode": 3, "pc_rdata": RAM, "pc_wdata": RAM + 4}
    assert h.check_rvfi(dict(base, csr=[("mscratch", (1 << 64) - 1, 0x55)])) == []
    base.update(order=1, pc_rdata=RAM + 4, pc_wdata=RAM + 8)
    (m,) = h.check_rvfi(dict(base, rvfi_csr_mscratch_wmask=(1 << 64) - 1,
                             rvfi_csr_mscratch_wdata=0x56, rvfi_csr_mscratch_rmask=0,
                             rvfi_csr_mscratch_rdata=0))
    assert m.diffs[0].element == "mscratch"


def test_run_releases_the_gil():
    """A second Python thread counts while run() executes: without the GIL released it
    could not count at all."""
    h = hartscope.Hart(console="none")
    h.load_elf(elf("bench"))
    count = 0
    stop = threading.Event()

    def counter():
        nonlocal count
        while not stop.is_set():
            count += 1

    t = threading.Thread(target=counter)
    t.start()
    try:
        # Let the counter thread start, then measure what it does during run() alone.
        time.sleep(0.05)
        before = count
        start = time.perf_counter()
        # One call, long enough to measure on a fast hart (about 0.5 s at 650 MIPS): several
        # shorter calls would let the counter run between them even with the GIL held.
        steps, reason = h.run(300_000_000)
        during = count - before
        seconds = time.perf_counter() - start
    finally:
        stop.set()
        t.join()
    assert (steps, reason) == (300_000_000, "limit")
    # The counter runs ~10 M/s alone; with the GIL held it would not move at all.
    assert seconds > 0.05, seconds
    assert during > 10_000, f"the counter moved {during} times in {seconds:.2f} s"


def test_run_stops_at_the_end_of_the_program_or_a_pc():
    h = hartscope.Hart(console="capture")
    entry = h.load_elf(elf("hello"))
    assert entry == h.pc
    steps, reason = h.run(100, until_pc=entry + 8)
    assert reason == "until_pc" and h.pc == entry + 8 and steps == h.order
    steps, reason = h.run(10_000_000)
    assert reason == "exit" and h.exit_code == 0 and h.done
    assert b"Hello from hartscope!" in h.console_output()
    # Stepped to its end, the program retires as many steps as a run of it does.
    r = hartscope.Hart(console="none")
    r.load_elf(elf("hello"))
    steps, reason = r.run(10_000_000)
    assert reason == "exit" and r.order == steps
    s = hartscope.Hart(console="none")
    s.load_elf(elf("hello"))
    while not s.done:
        s.step()
    assert s.exit_code == 0 and s.order == steps


def test_snapshots_go_back_exactly_and_refuse_what_they_cannot():
    h = hartscope.Hart(console="none")
    h.load_elf(elf("rv64a"))
    for _ in range(300):
        h.step()
    snap = h.snapshot()
    first = [h.step() for _ in range(2000)]
    later = h.snapshot()
    h.restore(snap)
    assert [h.step() for _ in range(2000)] == first
    with pytest.raises(hartscope.Error, match="restored since"):
        h.restore(later)
    h.restore(snap)  # the older one still works
    other = hartscope.Hart(console="none")
    with pytest.raises(hartscope.Error, match="another hart"):
        other.restore(snap)
    h.drop_snapshots()
    with pytest.raises(hartscope.Error):
        h.restore(snap)


# lui t0, 0x20000 ; lw a0, 0(t0) ; sw a0, 8(t0)
DEVICE_CODE = words(0x200002B7, 0x0002A503, 0x00A2A423)
DEVICE = dict(devices=[{"base": 0x2000_0000, "size": 0x1000}])


def test_device_models_in_python_answer_the_hart():
    seen = []

    def read(offset, size):
        seen.append((offset, size, None))
        return 0x12345678

    def write(offset, size, value):
        seen.append((offset, size, value))

    core = tiny(DEVICE_CODE)
    core.add_mmio(0x2000_0000, 0x1000, read, write)
    rs = [core.step() for _ in range(3)]
    assert rs[1].x_write(10) == 0x12345678
    assert seen == [(0, 4, None), (8, 4, 0x12345678)]
    # The checker has the region and no model: the core's load value is its own.
    checker = tiny(DEVICE_CODE, **DEVICE)
    for r in rs:
        assert checker.check(r) == []
    # Models are called from run() too, which released the GIL.
    again = tiny(DEVICE_CODE)
    again.add_mmio(0x2000_0000, 0x1000, read, write)
    assert again.run(3) == (3, "limit")
    assert again.x["a0"] == 0x12345678


def test_a_device_models_exception_is_raised_from_the_step():
    def read(offset, size):
        raise KeyError("no register there")

    h = tiny(DEVICE_CODE)
    h.add_mmio(0x2000_0000, 0x1000, read)
    h.step()
    with pytest.raises(KeyError, match="no register there"):
        h.step()
    # The model's value must fit the access.
    h = tiny(DEVICE_CODE)
    h.add_mmio(0x2000_0000, 0x1000, lambda o, s: 1 << 40)
    h.step()
    with pytest.raises(hartscope.Error, match="read at 0x20000000"):
        h.step()


def test_a_recorded_session_replays_with_tandem_verify(tmp_path, cli):
    for fault in (False, True):
        core = hartscope.Hart(console="none")
        core.load_elf(elf("traps"))
        checker = hartscope.Hart(console="none")
        checker.load_elf(elf("traps"))
        file = tmp_path / ("bad.tandem" if fault else "good.tandem")
        checker.record(file)
        offset = None
        while not core.done:
            r = core.step()
            if fault and r.order == 3000 and r.writes:
                f, n, v = r.writes[0]
                r.writes = [(f, n, v ^ 1)] + r.writes[1:]
            bad = checker.check(r)
            if bad and offset is None:
                offset = bad[0].offset
        checker.finish_recording()
        out = subprocess.run([cli, "tandem", "verify", "--nondet", "+htif", str(file)],
                             capture_output=True, text=True, timeout=300)
        if fault:
            assert offset is not None
            assert out.returncode == 1, out.stdout + out.stderr
            assert f"(byte offset {offset})" in out.stdout
        else:
            assert checker.errors == 0
            assert out.returncode == 0, out.stdout + out.stderr
            assert "MATCH" in out.stdout


def test_a_commit_log_read_as_retirements_checks_clean(tmp_path, cli):
    log = tmp_path / "rv64m.log"
    subprocess.run([cli, "run", str(elf("rv64m")), "--quiet", "--log-commits", str(log)],
                   check=True, timeout=300)
    checker = hartscope.Hart(console="none")
    entry = checker.load_elf(elf("rv64m"))
    n = 0
    for r in hartscope.SpikeLog(log, start_pc=entry):
        assert checker.check(r) == [], str(checker.mismatches[0])
        n += 1
    assert n > 1000 and checker.checked == n
    with pytest.raises(hartscope.Error, match="nowhere.log"):
        hartscope.SpikeLog(tmp_path / "nowhere.log")
    bad = tmp_path / "bad.log"
    bad.write_text("core   0: 3 0xzz (0x00000013)\n")
    with pytest.raises(hartscope.Error, match="line 1"):
        list(hartscope.SpikeLog(bad))


def test_disasm_and_constants():
    assert hartscope.disasm(ADDI_A0_5) == "li a0,5"
    assert hartscope.disasm(0x4501) == "li a0,0"
    with pytest.raises(hartscope.Error, match="length 3"):
        hartscope.disasm(0, len=3)
    assert hartscope.API_VERSION >= 10000
    assert issubclass(hartscope.Error, Exception)


def test_an_implementations_csr_choices():
    h = hartscope.Hart(console="none", csr_reset={"mscratch": 0x55, "0x7c0": 1},
                       csr_masks={"mstatus": 0xFF})
    h.load_elf(elf("rv64i"))
    assert h.csr("mscratch") == 0x55
    assert h.config["csr_masks"] == {"mstatus": 0xFF}
    with pytest.raises(hartscope.Error, match="csr_reset: `nosuch` is not a CSR"):
        hartscope.Hart(csr_reset={"nosuch": 1})


def test_raised_traps_and_the_implementations_tval_and_pmp():
    h = tiny(words(ADDI_A0_5, ADDI_A0_5))
    h.raise_trap(5, tval=0x1234)
    r = h.step()
    assert (r.trap, r.cause, r.tval) == (hartscope.TRAP_EXCEPTION, 5, 0x1234)
    h.raise_trap(11, interrupt=True)
    r = h.step()
    assert (r.trap, r.cause) == (hartscope.TRAP_INTERRUPT, 11)
    with pytest.raises(hartscope.Error, match="exception code 10 does not exist"):
        h.raise_trap(10)
    # ebreak with tval written 0; no PMP: pmpaddr0 does not exist.
    h = tiny(words(0x00100073, 0x3B002573), tval_zero=["breakpoint"], pmp_regions=0)
    r = h.step()
    assert (r.cause, r.tval) == (3, 0)
    h.pc = RAM + 4
    r = h.step()
    assert (r.trap, r.cause) == (hartscope.TRAP_EXCEPTION, 2)
    with pytest.raises(hartscope.Error, match="65 entries: at most 64"):
        hartscope.Hart(pmp_regions=65)
