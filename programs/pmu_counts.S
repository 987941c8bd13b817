/* pmu_counts.S - the hpm counters checked directly from M-mode (no SBI), with Sscofpmf:
 *
 *   1-39    each instruction-class event counts exactly what a known block does (BLOCK:
 *           34 instructions: 5 loads (FP loads included), 3 stores, 3 atomics (LR, SC, AMO),
 *           3 taken and 2 not-taken conditional branches, 2 calls, 2 returns, 2 jumps, 4 FP
 *           operations), then exceptions, interrupts and misaligned accesses
 *   40-59   mode inhibits: MINH, SINH, UINH and no inhibit on four counters over code in M,
 *           S and U (each instruction counted by exactly two of the three inhibited ones;
 *           the S and U parts exact), and a counter held by mcountinhibit
 *   60-89   mcounteren / scounteren: counter reads from S and U trap (illegal instruction)
 *           unless both allow them; writes to the read-only views trap; M-mode counters
 *           from S trap
 *   90-99   scountovf: every OF bit in M-mode, only those mcounteren allows in S-mode,
 *           illegal in U-mode
 *
 * Test numbers are the exit codes. Without Sscofpmf and hpm counters (run without its
 * options) it prints "SKIP" and exits 0.
 *
 * hartscope-only: hartscope's PMU events (Spike's hpm counters count nothing)
 * hartscope-options: --isa rv64gc_zicntr_zihpm_sscofpmf
 */
#include "test_macros.h"

#define OF    (1 << 63)
#define MINH  (1 << 62)
#define SINH  (1 << 61)
#define UINH  (1 << 60)
#define CSR_SCOUNTOVF 0xda0
#define MIP_LCOFIP (1 << 13)

/* count event sel on counter 3 from the next instruction on */
.macro MEASURE sel
  li t0, \sel
  csrw mhpmevent3, t0
  csrw mhpmcounter3, zero
.endm

/* counter 3 (read by the csrr: everything before it) must be val */
.macro RESULT n, val
  csrr a0, mhpmcounter3
  CHECK_EQ \n, a0, \val
.endm

/* 34 instructions of known classes (s1: 64-byte data area, s2: a word for the AMO) */
.macro BLOCK
  ld t1, 0(s1)
  lw t2, 8(s1)
  lbu t3, 9(s1)
  fld ft0, 16(s1)
  flw ft1, 24(s1)
  sd t1, 32(s1)
  sh t2, 40(s1)
  fsd ft0, 48(s1)
  lr.d t4, (s1)
  sc.d t5, t4, (s1)
  amoswap.w t4, t4, (s2)
  beq x0, x0, 1f
1:bne x0, x0, 1b
  li t4, 3
2:addi t4, t4, -1
  bnez t4, 2b
  jal ra, blk_fn
  la t5, blk_fn
  jalr ra, t5
  j 3f
3:la t5, 4f
  jr t5
4:fadd.d ft2, ft0, ft0
  fmul.d ft2, ft2, ft0
  fcvt.d.l ft3, t1
  fmv.x.d t6, ft2
.endm

.macro NOPS n
  .rept \n
  nop
  .endr
.endm

    .option norvc
    .text
    .globl main
main:
    /* the hart must have Sscofpmf and hpm counters */
    li      t0, MINH | 2
    csrw    mhpmevent3, t0
    csrr    t1, mhpmevent3
    beq     t0, t1, 1f
    la      a0, msg_skip
    call    htif_puts
    j       test_pass
1:  la      s1, data
    addi    s2, s1, 64
    csrw    mcountinhibit, zero

    /* ---------------- event classes on BLOCK ---------------- */
    MEASURE 0x2
    BLOCK
    RESULT 1, 34
    MEASURE 0x20001         /* LOADS */
    BLOCK
    RESULT 2, 5
    MEASURE 0x20002         /* STORES */
    BLOCK
    RESULT 3, 3
    MEASURE 0x20003         /* ATOMICS */
    BLOCK
    RESULT 4, 3
    MEASURE 0x20004         /* BRANCHES_TAKEN */
    BLOCK
    RESULT 5, 3
    MEASURE 0x20005         /* BRANCHES_NOT_TAKEN */
    BLOCK
    RESULT 6, 2
    MEASURE 0x20006         /* JUMPS */
    BLOCK
    RESULT 7, 2
    MEASURE 0x20007         /* CALLS */
    BLOCK
    RESULT 8, 2
    MEASURE 0x20008         /* RETURNS */
    BLOCK
    RESULT 9, 2
    MEASURE 0x20009         /* FP_OPS */
    BLOCK
    RESULT 10, 4
    MEASURE 0x2000d         /* CONDITIONAL_BRANCHES */
    BLOCK
    RESULT 11, 5
    MEASURE 0x5             /* BRANCH_INSTRUCTIONS: conditional, jumps, calls, returns */
    BLOCK
    RESULT 12, 11
    MEASURE 0x1             /* CPU_CYCLES: no models, one per instruction */
    BLOCK
    RESULT 13, 34
    MEASURE 0xa             /* REF_CPU_CYCLES */
    BLOCK
    RESULT 14, 34
    MEASURE 0x2000a         /* EXCEPTIONS: none in BLOCK */
    BLOCK
    RESULT 15, 0
    MEASURE 0x2000c         /* MISALIGNED: none in BLOCK */
    BLOCK
    RESULT 16, 0
    MEASURE 0x0             /* no event */
    BLOCK
    RESULT 17, 0

    /* exceptions: ebreak and ecall taken (the handler raises none) */
    MEASURE 0x2000a
    ARM_M   2f
    ebreak
    FAIL    20
2:  li      a7, 0
    ARM_M   3f
    ecall
    FAIL    21
3:  RESULT  22, 2
    /* misaligned load and AMO: each counts once (and traps) */
    MEASURE 0x2000c
    ARM_M   2f
    ld      t0, 1(s1)
    FAIL    23
2:  addi    t1, s1, 2
    ARM_M   3f
    amoadd.w t0, t0, (t1)
    FAIL    24
3:  RESULT  25, 2
    /* an interrupt: MSI through the CLINT */
    MEASURE 0x2000b
    li      t0, MIP_MSIP
    csrs    mie, t0
    ARM_M   2f
    li      t1, CLINT_MSIP
    li      t0, 1
    sw      t0, 0(t1)
    csrsi   mstatus, MSTATUS_MIE
    FAIL    26
2:  RESULT  27, 1
    li      t1, CLINT_MSIP
    sw      zero, 0(t1)
    li      t0, MIP_MSIP
    csrc    mie, t0

    /* ---------------- mode inhibits ---------------- */
    li      t0, -1
    csrw    mcountinhibit, t0
    li      t0, MINH | 2
    csrw    mhpmevent3, t0
    li      t0, SINH | 2
    csrw    mhpmevent4, t0
    li      t0, UINH | 2
    csrw    mhpmevent5, t0
    li      t0, 2
    csrw    mhpmevent6, t0
    csrw    mhpmevent7, t0
    csrw    mhpmcounter3, zero
    csrw    mhpmcounter4, zero
    csrw    mhpmcounter5, zero
    csrw    mhpmcounter6, zero
    csrw    mhpmcounter7, zero
    li      t0, ~0x78           /* counters 3-6 count; 7 (and cycle, instret) held */
    csrw    mcountinhibit, t0
    NOPS    100
    ENTER_S
    NOPS    200                 /* S: 200 + S_ENTER_U's 6 */
    S_ENTER_U
    NOPS    300                 /* U: 300 + the 2 of li a7 */
    ENTER_M
    li      t0, -1
    csrw    mcountinhibit, t0
    csrr    s3, mhpmcounter3    /* S + U */
    csrr    s4, mhpmcounter4    /* M + U */
    csrr    s5, mhpmcounter5    /* M + S */
    csrr    s6, mhpmcounter6    /* all */
    csrr    s7, mhpmcounter7
    csrw    mcountinhibit, zero
    CHECK_EQ 40, s7, 0
    add     t0, s3, s4
    add     t0, t0, s5
    slli    t1, s6, 1
    CHECK_EQR 41, t0, t1
    sub     t0, s6, s4          /* S */
    CHECK_EQ 42, t0, 206
    sub     t0, s6, s5          /* U */
    CHECK_EQ 43, t0, 302
    sub     t0, s6, s3          /* M: 100 and the mode changes' M-mode part */
    li      t1, 100
    bgeu    t0, t1, 1f
    FAIL    44
1:  li      t1, 400
    bltu    t0, t1, 1f
    FAIL    45
1:

    /* ---------------- mcounteren / scounteren ---------------- */
    csrw    mcounteren, zero
    csrw    scounteren, zero
    ENTER_S
    TEST_TRAP_M 60, CAUSE_ILLEGAL_INSTRUCTION, csrr t0, cycle
    TEST_TRAP_M 61, CAUSE_ILLEGAL_INSTRUCTION, csrr t0, time
    TEST_TRAP_M 62, CAUSE_ILLEGAL_INSTRUCTION, csrr t0, instret
    TEST_TRAP_M 63, CAUSE_ILLEGAL_INSTRUCTION, csrr t0, hpmcounter3
    TEST_TRAP_M 64, CAUSE_ILLEGAL_INSTRUCTION, csrr t0, hpmcounter31
    TEST_TRAP_M 65, CAUSE_ILLEGAL_INSTRUCTION, csrr t0, mhpmcounter3
    TEST_TRAP_M 66, CAUSE_ILLEGAL_INSTRUCTION, csrr t0, mcountinhibit
    ENTER_M
    li      t0, (1 << 0) | (1 << 3)
    csrw    mcounteren, t0
    ENTER_S
    csrr    t0, cycle           /* allowed */
    csrr    t0, hpmcounter3     /* allowed */
    TEST_TRAP_M 67, CAUSE_ILLEGAL_INSTRUCTION, csrr t0, instret
    TEST_TRAP_M 68, CAUSE_ILLEGAL_INSTRUCTION, csrr t0, hpmcounter4
    TEST_TRAP_M 69, CAUSE_ILLEGAL_INSTRUCTION, csrw hpmcounter3, zero
    S_ENTER_U
    TEST_TRAP_M 70, CAUSE_ILLEGAL_INSTRUCTION, csrr t0, cycle    /* scounteren 0 */
    TEST_TRAP_M 71, CAUSE_ILLEGAL_INSTRUCTION, csrr t0, hpmcounter3
    ENTER_M
    li      t0, (1 << 0) | (1 << 2)
    csrw    scounteren, t0
    ENTER_U
    csrr    t0, cycle           /* both allow it */
    TEST_TRAP_M 72, CAUSE_ILLEGAL_INSTRUCTION, csrr t0, instret  /* mcounteren does not */
    TEST_TRAP_M 73, CAUSE_ILLEGAL_INSTRUCTION, csrr t0, hpmcounter3  /* scounteren does not */
    ENTER_M
    li      t0, -1
    csrw    mcounteren, t0
    csrw    scounteren, t0
    ENTER_U
    csrr    t0, hpmcounter31
    csrr    t0, time
    ENTER_M
    TEST_TRAP_M 74, CAUSE_ILLEGAL_INSTRUCTION, csrw cycle, zero
    TEST_TRAP_M 75, CAUSE_ILLEGAL_INSTRUCTION, csrw hpmcounter5, zero
    TEST_TRAP_M 76, CAUSE_ILLEGAL_INSTRUCTION, csrw CSR_SCOUNTOVF, zero
    csrw    mcounteren, zero
    csrw    scounteren, zero

    /* ---------------- scountovf ---------------- */
    /* every mhpmevent used so far without OF */
    csrw    mhpmevent3, zero
    csrw    mhpmevent4, zero
    csrw    mhpmevent5, zero
    csrw    mhpmevent6, zero
    csrw    mhpmevent7, zero
    li      t0, OF | 2
    csrw    mhpmevent3, t0
    csrw    mhpmevent5, t0
    li      t0, 2
    csrw    mhpmevent4, t0
    csrr    t0, CSR_SCOUNTOVF
    CHECK_EQ 90, t0, (1 << 3) | (1 << 5)
    li      t0, 1 << 3
    csrw    mcounteren, t0
    ENTER_S
    csrr    t0, CSR_SCOUNTOVF
    CHECK_EQ 91, t0, 1 << 3
    ENTER_M
    li      t0, -1
    csrw    mcounteren, t0
    ENTER_S
    csrr    t0, CSR_SCOUNTOVF
    CHECK_EQ 92, t0, (1 << 3) | (1 << 5)
    S_ENTER_U
    TEST_TRAP_M 93, CAUSE_ILLEGAL_INSTRUCTION, csrr t0, CSR_SCOUNTOVF
    ENTER_M
    csrw    mcounteren, zero
    csrw    mhpmevent3, zero
    csrw    mhpmevent5, zero

    la      a0, msg_pass
    call    htif_puts
    TEST_PASS

blk_fn:
    ret

    .section .rodata
msg_skip: .asciz "pmu_counts: SKIP: needs --isa rv64gc_zicntr_zihpm_sscofpmf\n"
msg_pass: .asciz "pmu_counts: all checks passed\n"

    .data
    .align 6
data:
    .dword 0x1122334455667788, 0x0102030405060708, 0x3ff0000000000000, 0x3f800000
    .dword 0, 0, 0, 0
    .dword 0, 0
