#!/usr/bin/env bash
# The C ABI's SystemVerilog front end end to end: build the library, build the Verilator
# example (examples/sv: RVFI driven by a second hart, checked by hartscope_rvfi_monitor),
# run it clean on a few programs and with each kind of fault, and check the exit status and
# the monitor's lines. The C ABI's own tests (and the C example) run under `cargo test -p
# hartscope-c`.
#
# Needs Verilator. When `verilator` is missing and this runs as root, it installs it:
#   apt-get update && apt-get install -y verilator
# otherwise it skips (status 0, a message on stderr), or fails when HARTSCOPE_REQUIRE_TOOLS=1.
#
# Environment: CARGO_TARGET_DIR (where cargo builds; default target/ in the checkout),
# HARTSCOPE_C_PROFILE (debug, the default, or release).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
profile=${HARTSCOPE_C_PROFILE:-debug}

if ! command -v verilator >/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "plugin/c/test.sh: installing verilator (apt-get install -y verilator)"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq verilator >/dev/null
    elif [ "${HARTSCOPE_REQUIRE_TOOLS:-}" = 1 ]; then
        echo "plugin/c/test.sh: verilator is missing (HARTSCOPE_REQUIRE_TOOLS=1)" >&2
        exit 1
    else
        echo "plugin/c/test.sh: skipped: verilator is missing (apt-get install verilator)" >&2
        exit 0
    fi
fi

cd "$root"
release=()
[ "$profile" = release ] && release=(--release)
cargo build -p hartscope-c --lib "${release[@]}"
lib="$target/$profile/libhartscope.a"
obj="$target/sv-example"
make -s -C examples/sv OBJ="$obj" LIB="$lib" >"$target/sv-example.log" 2>&1 || {
    cat "$target/sv-example.log" >&2
    echo "plugin/c/test.sh: the Verilator example did not build" >&2
    exit 1
}
sim="$obj/Vtb_top"

passed=0
failed=0
fail() {
    echo "FAILED: $*" >&2
    failed=$((failed + 1))
}

# A clean run: status 0 and the monitor's summary with no mismatch.
for prog in hello interrupts traps rv64f; do
    out=$("$sim" +hartscope_elf="programs/bin/$prog.elf" 2>&1) && st=0 || st=$?
    if [ "$st" = 0 ] && grep -Eq '^hartscope: [1-9][0-9]* retirements checked, 0 mismatching$' <<<"$out" \
        && ! grep -q '%Error' <<<"$out"; then
        passed=$((passed + 1))
        echo "ok: $prog clean: $(grep 'retirements checked' <<<"$out")"
    else
        fail "$prog clean (status $st):"$'\n'"$out"
    fi
done

# A fault: status 1, and the monitor's $error names the retirement the fault was put into.
for kind in rd store load_addr pc csr trap; do
    out=$("$sim" +hartscope_elf=programs/bin/hello.elf +fault_order=100 +fault="$kind" 2>&1) && st=0 || st=$?
    order=$(sed -n "s/^tb_top: fault $kind put into retirement \([0-9]*\) .*/\1/p" <<<"$out")
    if [ "$st" = 1 ] && [ -n "$order" ] && [ "$order" -ge 100 ] \
        && grep -q "%Error: .*hartscope: retirement $order, .* at pc 0x.*expected .*, actual " <<<"$out" \
        && grep -q '^hartscope: .* retirements checked, 1 mismatching$' <<<"$out"; then
        passed=$((passed + 1))
        echo "ok: fault $kind reported at retirement $order"
    else
        fail "fault $kind (status $st):"$'\n'"$out"
    fi
done

# Bad input: a missing program is a $fatal naming it, not a crash.
out=$("$sim" +hartscope_elf=programs/bin/missing.elf 2>&1) && st=0 || st=$?
if [ "$st" != 0 ] && grep -q 'missing.elf: No such file' <<<"$out"; then
    passed=$((passed + 1))
    echo "ok: a missing program is reported"
else
    fail "missing program (status $st):"$'\n'"$out"
fi

echo "plugin/c/test.sh: $passed passed, $failed failed"
[ "$failed" = 0 ]
