/*
 * Lockstep checking through hartscope's C ABI: the smallest testbench to start from.
 *
 * One hart plays the core under test: it steps the program and hands each retirement over
 * (in a real testbench these come from the RTL, e.g. its RVFI port). A second hart, the
 * reference, checks each one with hs_step_check and explains any mismatch.
 *
 *   lockstep [--fault ORDER] [--max N] PROGRAM.elf
 *
 * --fault ORDER flips a bit of the register value the "core" writes at retirement ORDER
 * (or the first one after it that writes a register), so that the reference reports it.
 * Exit status: 0 all retirements matched, 1 mismatches were found, 2 an error.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hartscope.h"

/* Report a failed call and leave. */
static void check(int status, const char *what)
{
    if (status < 0) {
        fprintf(stderr, "lockstep: %s failed (%d): %s\n", what, status, hs_last_error());
        exit(2);
    }
}

int main(int argc, char **argv)
{
    /* The library writes the program's console output itself: keep ours in step with it. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *elf = NULL;
    int64_t fault_at = -1;
    uint64_t max = 10000000;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--fault") == 0 && i + 1 < argc) {
            fault_at = strtoll(argv[++i], NULL, 0);
        } else if (strcmp(argv[i], "--max") == 0 && i + 1 < argc) {
            max = strtoull(argv[++i], NULL, 0);
        } else if (argv[i][0] != '-' && elf == NULL) {
            elf = argv[i];
        } else {
            fprintf(stderr, "usage: lockstep [--fault ORDER] [--max N] PROGRAM.elf\n");
            return 2;
        }
    }
    if (elf == NULL) {
        fprintf(stderr, "usage: lockstep [--fault ORDER] [--max N] PROGRAM.elf\n");
        return 2;
    }
    if (hs_api_version() / 10000 != HS_API_VERSION / 10000) {
        fprintf(stderr, "lockstep: library ABI %u, header %u\n", hs_api_version(),
                HS_API_VERSION);
        return 2;
    }

    /* The settings are JSON; every field has a default (plugin/c/README.md lists them).
     * The "core" prints the program's console output; the reference stays quiet. */
    const char *core_settings = "{\"reports\": {\"csr\": true}}";
    const char *ref_settings = "{\"reports\": {\"csr\": true}, \"console\": \"none\"}";
    hs_hart *core = NULL, *ref = NULL;
    check(hs_new(core_settings, &core), "hs_new (core)");
    check(hs_new(ref_settings, &ref), "hs_new (reference)");
    uint64_t entry = 0;
    check(hs_load_elf(core, elf, &entry), "hs_load_elf (core)");
    check(hs_load_elf(ref, elf, NULL), "hs_load_elf (reference)");
    printf("lockstep: %s, entry 0x%" PRIx64 "\n", elf, entry);

    int32_t exit_code = 0;
    uint64_t n = 0;
    int faulted = 0;
    while (n < max && hs_poll_exit(core, &exit_code) == 0) {
        hs_retirement r;
        check(hs_step(core, &r), "hs_step");
        if (fault_at >= 0 && !faulted && r.order >= (uint64_t)fault_at && r.n_writes > 0
            && r.trap == HS_TRAP_NONE) {
            char dis[64];
            hs_disassemble(r.pc, r.insn, dis, sizeof dis);
            printf("lockstep: fault put into retirement %" PRIu64 " (%s): %s value ^= 1\n",
                   r.order, dis, r.writes[0].file == HS_REG_CSR ? "CSR" : "register");
            r.writes[0].value ^= 1;
            faulted = 1;
        }
        int bad = hs_step_check(ref, &r);
        check(bad, "hs_step_check");
        if (bad > 0) {
            const char *text = NULL;
            check(hs_mismatches_text(ref, &text), "hs_mismatches_text");
            fputs(text, stdout);
            if (faulted) {
                /* After the fault the core's state is not the program's any more. */
                break;
            }
        }
        n++;
    }

    uint64_t checked = 0, errors = 0;
    check(hs_checked(ref, &checked), "hs_checked");
    check(hs_errors(ref, &errors), "hs_errors");
    printf("lockstep: %" PRIu64 " retirements checked, %" PRIu64 " mismatching", checked, errors);
    if (hs_poll_exit(core, &exit_code) == 1) {
        printf("; the program exited with %d", exit_code);
    }
    printf("\n");
    hs_free(core);
    hs_free(ref);
    return errors == 0 ? 0 : 1;
}
