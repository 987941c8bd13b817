/* pmu_ovf.S - Sscofpmf counter overflow from M-mode, with 16-bit hpm counters:
 *
 *   1-19    width: hpm counters keep 16 bits (writes and reads masked), mcycle 64; a write
 *           never overflows a counter (OF stays clear)
 *   20-39   overflow: a counter at -10 counting instructions sets OF and raises LCOFI (13)
 *           after exactly the 10th instruction (the interrupt's mepc is the 11th); the count
 *           wraps to 0 and goes on
 *   40-59   OF set: the counter wraps again silently, no LCOFI; clearing OF arms it again
 *   60-79   an event other than instructions: the third taken branch raises it (mepc is that
 *           branch's target, the loop register shows the iteration)
 *   80-99   LCOFI delegated to S-mode (mideleg bit 13): taken by the S handler, visible in sip,
 *           scountovf in S shows the counter's OF
 *
 * Without Sscofpmf and hpm counters (run without its options) it prints "SKIP" and exits 0.
 *
 * hartscope-only: hartscope's PMU events and Sscofpmf (Spike's hpm counters count nothing)
 * hartscope-options: --isa rv64gc_zicntr_zihpm_sscofpmf --hpm-width 16
 */
#include "test_macros.h"

#define OF    (1 << 63)
#define MINH  (1 << 62)
#define CSR_SCOUNTOVF 0xda0
#define IRQ_LCOF 13
#define MIP_LCOFIP (1 << IRQ_LCOF)
#define CAUSE_LCOFI (CAUSE_INTR | IRQ_LCOF)

.macro NOPS n
  .rept \n
  nop
  .endr
.endm

    .option norvc
    .text
    .globl main
main:
    li      t0, MINH | 2
    csrw    mhpmevent3, t0
    csrr    t1, mhpmevent3
    beq     t0, t1, 1f
    la      a0, msg_skip
    call    htif_puts
    j       test_pass
1:  csrw    mcountinhibit, zero

    /* ---------------- width ---------------- */
    csrw    mhpmevent3, zero            /* no event: the counter holds its value */
    li      t0, 0x12345
    csrw    mhpmcounter3, t0
    csrr    t1, mhpmcounter3
    CHECK_EQ 1, t1, 0x2345
    li      t0, -1
    csrw    mhpmcounter3, t0
    csrr    t1, mhpmcounter3
    CHECK_EQ 2, t1, 0xffff
    csrr    t1, hpmcounter3
    CHECK_EQ 3, t1, 0xffff
    csrw    mhpmcounter3, zero          /* a write does not overflow */
    csrr    t1, mhpmevent3
    CHECK_EQ 4, t1, 0
    li      t0, 0x123456789
    csrw    mcycle, t0
    csrr    t1, mcycle
    li      t2, 0x123456789
    bgeu    t1, t2, 1f
    FAIL    5
1:  li      t2, MIP_LCOFIP
    csrr    t1, mip
    and     t1, t1, t2
    CHECK_EQ 6, t1, 0

    /* ---------------- overflow at the 10th instruction ---------------- */
    li      t0, MIP_LCOFIP
    csrs    mie, t0
    li      t0, 2                       /* INSTRUCTIONS, OF clear */
    csrw    mhpmevent3, t0
    li      t0, 0xfff6                  /* -10 in 16 bits */
    ARM_M   2f
    csrw    mhpmcounter3, t0            /* the write itself does not count */
    csrsi   mstatus, MSTATUS_MIE        /* 1 */
sled:
    NOPS    20                          /* 2..10 here, then the interrupt */
    FAIL    20
2:  CHECK_CAUSE_M 21, CAUSE_LCOFI
    ld      t1, trap_epc_m
    la      t2, sled + 9 * 4
    CHECK_EQR 22, t1, t2
    csrr    t1, mhpmevent3
    CHECK_EQ 23, t1, OF | 2
    csrr    t1, mip
    li      t2, MIP_LCOFIP
    and     t1, t1, t2
    CHECK_EQ 24, t1, MIP_LCOFIP
    csrr    t1, CSR_SCOUNTOVF
    CHECK_EQ 25, t1, 1 << 3
    csrr    t1, mhpmcounter3            /* wrapped: 0 at the 10th, then the handler */
    li      t2, 400
    bltu    t1, t2, 1f
    FAIL    26
1:  li      t0, MIP_LCOFIP
    csrc    mip, t0
    csrr    t1, mip
    and     t1, t1, t0
    CHECK_EQ 27, t1, 0

    /* ---------------- OF set: wraps silently ---------------- */
    li      t0, 0xfff6
    csrw    mhpmcounter3, t0
    csrsi   mstatus, MSTATUS_MIE
    NOPS    20
    csrci   mstatus, MSTATUS_MIE
    csrr    t1, mhpmcounter3
    CHECK_EQ 40, t1, 12                 /* csrsi, 20 nops, csrci from 0xfff6 */
    csrr    t1, mip
    li      t2, MIP_LCOFIP
    and     t1, t1, t2
    CHECK_EQ 41, t1, 0
    ld      t1, trap_count_m
    CHECK_EQ 42, t1, 1
    /* clear OF (a write of mhpmevent): armed again */
    li      t0, 2
    csrw    mhpmevent3, t0
    li      t0, 0xfffe                  /* -2 */
    ARM_M   2f
    csrw    mhpmcounter3, t0
    csrsi   mstatus, MSTATUS_MIE        /* 1 */
sled2:
    NOPS    10                          /* 2, then the interrupt */
    FAIL    43
2:  CHECK_CAUSE_M 44, CAUSE_LCOFI
    ld      t1, trap_epc_m
    la      t2, sled2 + 4
    CHECK_EQR 45, t1, t2
    li      t0, MIP_LCOFIP
    csrc    mip, t0

    /* ---------------- the third taken branch ---------------- */
    li      t0, 0x20004                 /* BRANCHES_TAKEN */
    csrw    mhpmevent3, t0
    li      t0, 0xfffd                  /* -3 */
    li      a1, 10
    ARM_M   2f
    csrw    mhpmcounter3, t0
    csrsi   mstatus, MSTATUS_MIE
loop:
    addi    a1, a1, -1
    bnez    a1, loop
    FAIL    60
2:  CHECK_CAUSE_M 61, CAUSE_LCOFI
    ld      t1, trap_epc_m
    la      t2, loop
    CHECK_EQR 62, t1, t2
    CHECK_EQ 63, a1, 7
    li      t0, MIP_LCOFIP
    csrc    mip, t0

    /* ---------------- delegated to S-mode ---------------- */
    li      t0, MIP_LCOFIP
    csrs    mideleg, t0
    li      t0, -1
    csrw    mcounteren, t0
    li      t0, 2                       /* OF clear again, counting in every mode */
    csrw    mhpmevent3, t0
    ENTER_S
    li      t0, MIP_LCOFIP
    csrs    sie, t0
    ENTER_M
    li      t0, 0xffff - 30
    csrw    mhpmcounter3, t0
    ENTER_S
    ARM_S   2f
    csrsi   sstatus, MSTATUS_SIE
    NOPS    100
    FAIL    80
2:  CHECK_CAUSE_S 81, CAUSE_LCOFI
    csrr    t1, sip
    li      t2, MIP_LCOFIP
    and     t1, t1, t2
    CHECK_EQ 82, t1, MIP_LCOFIP
    csrr    t1, CSR_SCOUNTOVF
    CHECK_EQ 83, t1, 1 << 3
    li      t0, MIP_LCOFIP
    csrc    sip, t0                     /* LCOFIP is writable through sip when delegated */
    csrr    t1, sip
    and     t1, t1, t0
    CHECK_EQ 84, t1, 0
    ENTER_M
    ld      t1, trap_count_m            /* the M handler saw no LCOFI */
    CHECK_EQ 85, t1, 3
    csrw    mideleg, zero
    csrw    mie, zero

    la      a0, msg_pass
    call    htif_puts
    TEST_PASS

    .section .rodata
msg_skip: .asciz "pmu_ovf: SKIP: needs --isa rv64gc_zicntr_zihpm_sscofpmf --hpm-width 16\n"
msg_pass: .asciz "pmu_ovf: all checks passed\n"
