#!/usr/bin/env python3
"""The Python module's speed (issue 15's targets: `.run()` within 10% of the CLI's untraced
speed, `.step()` at least 1 million per second). A measurement, never a test: the machine
may be shared, so each figure is given as the range over --repeat runs.

    python3 plugin/python/bench.py [--cli target/release/hartscope] [--repeat 5]

- run: `Hart.run()` on programs/bin/bench.elf to its end (about 1e9 instructions), the load
  excluded, against `hartscope run` of the same ELF (its own "N instructions in S s" line:
  the run, the load excluded), alternating the two. Build both with --release.
- step: `Hart.step()` in a Python loop (--steps of them), each returning a Retirement.
- step+check: a core Hart's `step()` handed to a checker Hart's `check()`.
"""

import argparse
import re
import subprocess
import time
from pathlib import Path

import hartscope

REPO = Path(__file__).resolve().parents[2]
BENCH = REPO / "programs" / "bin" / "bench.elf"


def python_run(elf):
    h = hartscope.Hart(console="none")
    h.load_elf(elf)
    start = time.perf_counter()
    steps, reason = h.run(1 << 62)
    secs = time.perf_counter() - start
    assert reason == "exit" and h.exit_code == 0, (reason, h.exit_code, h.stop_message)
    return steps, secs


def cli_run(cli, elf):
    out = subprocess.run([cli, "run", str(elf)], capture_output=True, text=True, check=True)
    m = re.search(r"hartscope: (\d+) instructions in ([\d.]+) s", out.stderr)
    assert m, out.stderr
    return int(m.group(1)), float(m.group(2))


def step_rate(elf, n):
    h = hartscope.Hart(console="none")
    h.load_elf(elf)
    step = h.step
    start = time.perf_counter()
    for _ in range(n):
        step()
    return n / (time.perf_counter() - start)


def step_check_rate(elf, n):
    core = hartscope.Hart(console="none")
    core.load_elf(elf)
    checker = hartscope.Hart(console="none")
    checker.load_elf(elf)
    step, check = core.step, checker.check
    start = time.perf_counter()
    for _ in range(n):
        check(step())
    rate = n / (time.perf_counter() - start)
    assert checker.errors == 0
    return rate


def span(values, unit, scale=1.0):
    lo, hi = min(values) / scale, max(values) / scale
    return f"{lo:.2f}-{hi:.2f} {unit} (best {hi:.2f})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--elf", default=str(BENCH))
    ap.add_argument("--cli", help="the hartscope CLI (a --release build) to compare with")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--steps", type=int, default=3_000_000)
    ap.add_argument("--no-run", action="store_true", help="skip the full runs")
    args = ap.parse_args()

    if not args.no_run:
        py, cli, ratios = [], [], []
        for i in range(args.repeat):
            n, s = python_run(args.elf)
            py.append(n / s)
            line = f"run {i + 1}: Python .run() {n} steps in {s:.3f} s ({n / s / 1e6:.1f} MIPS)"
            if args.cli:
                cn, cs = cli_run(args.cli, args.elf)
                cli.append(cn / cs)
                ratios.append((n / s) / (cn / cs))
                line += f"; CLI {cn} in {cs:.3f} s ({cn / cs / 1e6:.1f} MIPS)"
            print(line, flush=True)
        print(f"Python .run(): {span(py, 'MIPS', 1e6)}")
        if args.cli:
            print(f"CLI run:       {span(cli, 'MIPS', 1e6)}")
            print(f"Python / CLI:  {min(ratios):.3f}-{max(ratios):.3f} (each pair run back to back)")
    steps = [step_rate(args.elf, args.steps) for _ in range(args.repeat)]
    print(f"Python .step(): {span(steps, 'M steps/s', 1e6)}", flush=True)
    checks = [step_check_rate(args.elf, args.steps) for _ in range(args.repeat)]
    print(f"Python .step() + .check(): {span(checks, 'M retirements/s', 1e6)}")


if __name__ == "__main__":
    main()
