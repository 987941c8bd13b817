#!/usr/bin/env python3
"""Check a core's retirements against hartscope in lockstep: the smallest testbench.

The "core" here is a second hartscope Hart, so that the script runs anywhere; in yours, the
retirements come from your core (its RVFI port, its trace, its model). Each is handed to the
reference hart's check(), which executes the same step and says what differs.

    python3 step_check.py [PROGRAM.elf] [--fault ORDER]

--fault makes the core write a wrong value at the first retirement at or after ORDER that
writes a register. Exits 1 when anything mismatched.
"""

import argparse
from pathlib import Path

import hartscope

PROGRAM = Path(__file__).resolve().parents[2] / "programs" / "bin" / "rv64i.elf"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("elf", nargs="?", default=str(PROGRAM))
    ap.add_argument("--fault", type=int, metavar="ORDER")
    args = ap.parse_args()

    core = hartscope.Hart(console="none")
    core.load_elf(args.elf)
    checker = hartscope.Hart(console="none")  # the reference: same settings as the core
    checker.load_elf(args.elf)

    faulted = None
    while not core.done:
        r = core.step()
        writes = [(w.file, w.num, w.value) for w in r.writes]
        if args.fault is not None and faulted is None and r.order >= args.fault and writes:
            file, num, value = writes[0]
            writes[0] = (file, num, value ^ 1)
            faulted = r.order
            print(f"fault put in at retirement {faulted}: {r.disasm}")
        # What a monitor builds from the core's signals; a field left out is not compared.
        dut = hartscope.Retirement(order=r.order, pc=r.pc, insn=r.insn, len=r.len,
                                   next_pc=r.next_pc, prv=r.prv, trap=r.trap, cause=r.cause,
                                   writes=writes, mem=r.mem)
        for m in checker.check(dut):
            print(m)

    print(f"{checker.checked} retirements checked, {checker.errors} mismatching; "
          f"the program's exit code: {core.exit_code}")
    return 1 if checker.errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
