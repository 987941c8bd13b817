"""The examples a user copies (examples/python) run and say what they should: the
step/check script, and the cocotb testbench on Icarus Verilog (clean, and with a fault
reported at its retirement)."""

import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from conftest import EXAMPLES, need_tool


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, timeout=600, **kw)


def test_step_check_example_clean_and_with_a_fault():
    script = EXAMPLES / "step_check.py"
    out = run([sys.executable, str(script)])
    assert out.returncode == 0, out.stdout + out.stderr
    assert re.search(r"\d+ retirements checked, 0 mismatching", out.stdout), out.stdout
    out = run([sys.executable, str(script), "--fault", "1000"])
    assert out.returncode == 1, out.stdout + out.stderr
    order = int(re.search(r"fault put in at retirement (\d+)", out.stdout).group(1))
    assert order >= 1000
    first = re.search(r"mismatch at retirement (\d+)", out.stdout)
    assert first and int(first.group(1)) == order, out.stdout


def test_cocotb_example_on_icarus(tmp_path):
    """examples/python/cocotb: `make` runs test_rvfi_clean and test_rvfi_fault."""
    need_tool("Icarus Verilog (iverilog)", shutil.which("iverilog") and shutil.which("vvp"))
    bindir = Path(sys.executable).parent
    cocotb_config = shutil.which("cocotb-config", path=f"{bindir}{os.pathsep}{os.environ['PATH']}")
    need_tool("cocotb (pip install cocotb)", cocotb_config)
    results = tmp_path / "results.xml"
    env = dict(os.environ)
    # The cocotb of this Python (a virtual environment's bin first).
    env["PATH"] = f"{bindir}{os.pathsep}{env['PATH']}"
    env["FAULT_ORDER"] = "1500"
    out = run(["make", "-C", str(EXAMPLES / "cocotb"), f"SIM_BUILD={tmp_path / 'sim_build'}",
               f"COCOTB_RESULTS_FILE={results}"], env=env)
    log = out.stdout + out.stderr
    assert results.exists(), log[-4000:]
    cases = ET.parse(results).getroot().iter("testcase")
    verdict = {c.get("name"): [e.tag for e in c if e.tag in ("failure", "error", "skipped")]
               for c in cases}
    assert verdict == {"test_rvfi_clean": [], "test_rvfi_fault": []}, log[-4000:]
    assert out.returncode == 0, log[-4000:]
    assert "mismatch at retirement 1500" in log, log[-4000:]
