#!/usr/bin/env bash
# The Python module's tests (issue 15): everything they need, installed, then run.
#
#   plugin/python/test.sh [pytest arguments]
#
# 1. Python packages, from PyPI: maturin, pytest and cocotb, into a virtual environment
#    ($HARTSCOPE_PYENV, default $CARGO_TARGET_DIR/pyenv or target/pyenv). Where no virtual
#    environment can be made (Debian without python3-venv, not root), they go into
#    target/pydeps with `pip install --target` and PYTHONPATH.
# 2. Debian packages when missing and running as root: python3-venv (for 1), iverilog (the
#    cocotb test's simulator), make.
# 3. Checks the crate (outside the workspace: see README.md) with rustfmt and clippy.
# 4. Builds the module with `maturin build --release` and installs the wheel; builds the
#    hartscope CLI (debug) for the replay tests.
# 5. Runs pytest on plugin/python/tests: the API, lockstep on every shipped program with
#    faults, the examples under examples/python including the cocotb testbench on Icarus.
#
# Exits non-zero on any failure. With HARTSCOPE_REQUIRE_TOOLS=1 (CI), a missing tool fails
# its test instead of skipping it.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
target=${CARGO_TARGET_DIR:-$repo/target}
export CARGO_TARGET_DIR=$target
pyenv=${HARTSCOPE_PYENV:-$target/pyenv}
python=${PYTHON:-python3}
packages=("maturin>=1.9,<2" "pytest>=7" "cocotb>=2.0,<3")

say() { echo "plugin/python/test.sh: $*" >&2; }

is_root() { [ "$(id -u)" = 0 ]; }

apt_install() {
    # Waits for another apt (a parallel job) instead of failing on its lock.
    apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "$@" >/dev/null ||
        { apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null &&
          apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "$@" >/dev/null; }
}

command -v "$python" >/dev/null || { say "no $python: install Python 3"; exit 1; }

# --- Python packages -------------------------------------------------------------------
if [ ! -x "$pyenv/bin/python" ]; then
    if ! "$python" -m venv "$pyenv" 2>/dev/null; then
        rm -rf "$pyenv"
        if is_root && command -v apt-get >/dev/null; then
            say "installing python3-venv (Debian)"
            apt_install python3-venv python3-pip || true
            "$python" -m venv "$pyenv" 2>/dev/null || rm -rf "$pyenv"
        fi
    fi
fi
if [ -x "$pyenv/bin/python" ]; then
    py="$pyenv/bin/python"
    pip=("$py" -m pip install --quiet --disable-pip-version-check)
    export PATH="$pyenv/bin:$PATH"
    export VIRTUAL_ENV="$pyenv"
    site=""
else
    # No virtual environment: a directory of packages on PYTHONPATH.
    site="$target/pydeps"
    say "no virtual environment; installing into $site"
    py=$python
    mkdir -p "$site"
    pip=("$py" -m pip install --quiet --disable-pip-version-check --target "$site" --upgrade)
    # Debian's pip refuses to install next to its packages (PEP 668); --target is not that.
    if "$py" -m pip install --help 2>/dev/null | grep -q -- --break-system-packages; then
        pip+=(--break-system-packages)
    fi
    export PYTHONPATH="$site${PYTHONPATH:+:$PYTHONPATH}"
    export PATH="$site/bin:$PATH"
fi
if ! "$py" -c "import maturin, pytest, cocotb" 2>/dev/null; then
    say "installing ${packages[*]} from PyPI"
    "${pip[@]}" "${packages[@]}"
fi

# --- Debian packages -------------------------------------------------------------------
missing=()
command -v iverilog >/dev/null || missing+=(iverilog)
command -v make >/dev/null || missing+=(make)
if [ ${#missing[@]} -gt 0 ]; then
    if is_root && command -v apt-get >/dev/null; then
        say "installing ${missing[*]} (Debian)"
        apt_install "${missing[@]}" || say "could not install ${missing[*]}"
    else
        say "missing ${missing[*]} (apt-get install ${missing[*]}): the cocotb test skips" \
            "(fails with HARTSCOPE_REQUIRE_TOOLS=1)"
    fi
fi

# --- The crate: format, lints, build ---------------------------------------------------
manifest="$here/Cargo.toml"
export PYO3_PYTHON="$py"
# From the repository's root, as the workspace's own checks run (the same C flags).
(cd "$repo" && cargo fmt --manifest-path "$manifest" -- --check)
(cd "$repo" && cargo clippy --quiet --manifest-path "$manifest" --all-targets -- -D warnings)
# From here: .cargo/config.toml's C flags are the module's (see there).
wheels="$target/wheels"
rm -rf "$wheels"
(cd "$here" && maturin build --quiet --release --interpreter "$py" --out "$wheels")
"${pip[@]}" --no-deps --force-reinstall "$wheels"/hartscope-*.whl
# The CLI replays recordings and writes commit logs for two tests.
(cd "$repo" && cargo build --quiet --bin hartscope)
export HARTSCOPE_BIN="$target/debug/hartscope"

# --- Tests -----------------------------------------------------------------------------
cd "$here"
"$py" -m pytest -q -p no:cacheprovider tests "$@"
