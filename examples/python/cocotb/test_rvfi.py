"""cocotb: hartscope checks a core's RVFI port in lockstep.

The "core" is rvfi_core.v, whose RVFI outputs this test drives from a hartscope Hart
stepping a program (in your testbench, the real core produces them). The scoreboard is a
second Hart: a monitor coroutine samples the RVFI ports at every clock and hands each valid
retirement to `check_rvfi()`, which steps the reference and compares.
"""

import os
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge

import hartscope

HERE = Path(__file__).resolve().parent
ELF = os.environ.get("HARTSCOPE_ELF") or str(HERE.parents[2] / "programs" / "bin" / "rv64i.elf")
FAULT_ORDER = int(os.environ.get("FAULT_ORDER", "1500"))

# The RVFI signals of rvfi_core.v, and the CSRs of its CSR-extension ports.
SIGNALS = ("valid", "order", "insn", "trap", "halt", "intr", "mode", "ixl", "rd_addr",
           "rd_wdata", "pc_rdata", "pc_wdata", "mem_addr", "mem_rmask", "mem_wmask",
           "mem_rdata", "mem_wdata", "frd_wen", "frd_addr", "frd_wdata")
CSRS = ("mstatus", "mtvec", "mepc", "mcause", "mtval", "mscratch")
CSR_ADDR = {"mstatus": 0x300, "mtvec": 0x305, "mepc": 0x341, "mcause": 0x342,
            "mtval": 0x343, "mscratch": 0x340}


class RvfiScoreboard:
    """Samples the RVFI port every clock and checks each valid retirement."""

    def __init__(self, dut, elf):
        self.dut = dut
        self.hart = hartscope.Hart(console="none")
        self.hart.load_elf(elf)
        self.mismatches = []

    async def monitor(self):
        dut = self.dut
        while True:
            await RisingEdge(dut.clk)
            await ReadOnly()
            if not dut.rvfi_valid.value:
                continue
            # The signals' values go in as they are (int() of each is taken).
            rvfi = {f"rvfi_{s}": getattr(dut, f"rvfi_{s}").value for s in SIGNALS}
            for c in CSRS:
                for part in ("wmask", "wdata"):
                    rvfi[f"rvfi_csr_{c}_{part}"] = getattr(dut, f"rvfi_csr_{c}_{part}").value
            for m in self.hart.check_rvfi(rvfi):
                dut._log.error("%s", m)
                self.mismatches.append(m)


async def drive_core(dut, elf, fault_order=None):
    """The stand-in core: a Hart steps the program and each retirement is put on
    rvfi_core's inputs for one clock. With fault_order, the first retirement at or after it
    that writes a register gets a wrong value. Returns (retirements, the order faulted)."""
    core = hartscope.Hart(console="none")
    core.load_elf(elf)
    pending, n, faulted = None, 0, None
    while not core.done:
        r = core.step()
        if r.is_interrupt:
            pending = r  # RVFI shows it as rvfi_intr on the handler's first instruction
            continue
        v = r.to_rvfi(interrupt=pending)
        pending = None
        if fault_order is not None and faulted is None and r.order >= fault_order \
                and v["rd_addr"] != 0:
            v["rd_wdata"] ^= 1
            faulted = r.order
        csrs = {a: (m, d) for a, m, d in v["csr"]}
        await RisingEdge(dut.clk)
        for s in SIGNALS:
            getattr(dut, f"in_{s}").value = v[s]
        for c in CSRS:
            mask, data = csrs.get(CSR_ADDR[c], (0, 0))
            getattr(dut, f"in_csr_{c}_wmask").value = mask
            getattr(dut, f"in_csr_{c}_wdata").value = data
        n += 1
    await RisingEdge(dut.clk)
    dut.in_valid.value = 0
    assert core.exit_code == 0, core.stop_message
    return n, faulted


async def lockstep(dut, fault_order=None):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.in_valid.value = 0
    dut.rst.value = 1
    await ClockCycles(dut.clk, 2)
    dut.rst.value = 0
    board = RvfiScoreboard(dut, ELF)
    cocotb.start_soon(board.monitor())
    n, faulted = await drive_core(dut, ELF, fault_order)
    await ClockCycles(dut.clk, 3)  # the last retirement through the register stage
    dut._log.info("%d retirements driven, %d checked, %d mismatching", n,
                  board.hart.checked, board.hart.errors)
    assert board.hart.checked == n
    return board, faulted


@cocotb.test()
async def test_rvfi_clean(dut):
    """A core that does what the architecture says: no mismatch."""
    board, _ = await lockstep(dut)
    assert board.mismatches == [], str(board.mismatches[0])


@cocotb.test()
async def test_rvfi_fault(dut):
    """A core that writes a wrong value: reported at that retirement."""
    board, faulted = await lockstep(dut, FAULT_ORDER)
    assert faulted is not None
    assert board.mismatches, "the fault was not found"
    first = board.mismatches[0]
    assert first.order == faulted, str(first)
    assert first.diffs[0].element.startswith("x"), str(first)
    dut._log.info("found as expected: %s", first)
