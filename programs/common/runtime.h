/* runtime.h - interface of the shared runtime (crt0.S, htif.S) for C and assembly.
 *
 * Trap handling (crt0.S):
 *   mtvec = trap_vector_m (direct), mscratch = &trap_frame_m
 *   stvec = trap_vector_s (direct), sscratch = &trap_frame_s
 * Both handlers save all integer registers into their frame (below), then:
 *   1. an ECALL (from U/S/M for the M handler, from U/S for the S handler) with
 *      a7 == ECALL_MAGIC returns to the instruction after the ecall in the
 *      handler's own privilege (M or S): "switch to M/S" for tests; with
 *      a7 == ECALL_MAGIC_GOTO the M handler continues in M at the address
 *      in a6 instead (to leave a virtual alias that is not valid in M);
 *   2. if trap_hook_m / trap_hook_s (a function pointer, C ABI) is non-zero it
 *      is called with a0 = frame pointer, on a private stack; if it returns
 *      non-zero the trap is considered handled and the handler returns with
 *      xepc and xstatus taken from the (possibly modified) frame;
 *   3. else if trap_resume_m / trap_resume_s is non-zero (a test "armed" it)
 *      the trap is recorded (trap_cause_x, trap_epc_x, trap_tval_x, trap_prv_x =
 *      the privilege the trap came from, trap_count_x++), trap_resume_x is
 *      cleared, and execution resumes at the armed address in the privilege
 *      the trap came from (for interrupts, xPIE is cleared so the resumed code
 *      runs with xIE = 0);
 *   4. else the trap is unexpected: a message is printed through HTIF and the
 *      program exits with code EXIT_UNEXPECTED_TRAP (255). A trap taken while
 *      a hook runs is treated the same way.
 * Hooks must not use floating point (FP registers are not saved).
 */
#ifndef HARTSCOPE_RUNTIME_H
#define HARTSCOPE_RUNTIME_H

#define ECALL_MAGIC           0x5ca1ab1e
#define ECALL_MAGIC_GOTO      0x5ca1ab1f   /* M handler only: continue in M at address a6 */
#define EXIT_UNEXPECTED_TRAP  255

/* trap frame layout (byte offsets) */
#define FRAME_REG(n)   ((n) * 8)     /* x1..x31 */
#define FRAME_CAUSE    (32 * 8)
#define FRAME_EPC      (33 * 8)
#define FRAME_TVAL     (34 * 8)
#define FRAME_STATUS   (35 * 8)
#define FRAME_SIZE     (36 * 8)

#ifndef __ASSEMBLER__
#include <stdint.h>
#include <stddef.h>

struct trap_frame {
    uint64_t x[32];      /* x[0] unused */
    uint64_t cause;
    uint64_t epc;
    uint64_t tval;
    uint64_t status;
};

typedef long (*trap_hook_t)(struct trap_frame *f);

extern volatile trap_hook_t trap_hook_m, trap_hook_s;
extern volatile uint64_t trap_resume_m, trap_cause_m, trap_epc_m, trap_tval_m, trap_prv_m, trap_count_m;
extern volatile uint64_t trap_resume_s, trap_cause_s, trap_epc_s, trap_tval_s, trap_prv_s, trap_count_s;

/* htif.S */
extern volatile uint64_t tohost, fromhost;
void htif_exit(long code) __attribute__((noreturn));
long htif_syscall(long which, long a0, long a1, long a2);
long htif_write(const void *buf, size_t len);
long htif_puts(const char *s);    /* writes the string (no newline added) */

/* crt0.S */
void test_fail(long code) __attribute__((noreturn));   /* switch to M and exit(code) */
#endif

#endif
