/* umode - U-mode: mret to U, privilege checks (M/S CSRs, mret, sret,
 * sfence.vma, wfi with mstatus.TW = 1 -> illegal instruction), ecall from U
 * (cause 8) and ebreak from U, FP in U with FS = Initial and Off, PMP-denied
 * data in U (access faults with mtval), MPRV: M-mode loads/stores with
 * MPRV = 1 use the privilege in MPP (U and S denied, M allowed), MPRV does
 * not affect instruction fetch, and mret to U clears MPRV.
 * (WFI in U with TW = 0 is not tested: the spec allows it to complete or to
 * trap; Spike traps.) */
#include "test_macros.h"

.macro U_ILLEGAL n, insn:vararg
  ARM_M .Lr\@
.Li\@:
  \insn
  FAIL \n
.Lr\@:
  CHECK_CAUSE_M \n, CAUSE_ILLEGAL_INSTRUCTION
  CHECK_PRV_M \n, PRV_U
  CHECK_EPC_M \n, .Li\@
.endm

    .option norvc
    .text
    .globl main
main:
    /* ---------------- mret to U ---------------- */
    ENTER_U
    U_ILLEGAL 1, csrr a0, mstatus
    U_ILLEGAL 2, csrr a0, sstatus
    U_ILLEGAL 3, csrw stvec, zero
    U_ILLEGAL 4, csrr a0, mhartid
    U_ILLEGAL 5, mret
    U_ILLEGAL 6, sret
    U_ILLEGAL 7, sfence.vma
    U_ILLEGAL 8, sfence.vma a0, a1
    U_ILLEGAL 9, csrr a0, satp
    /* ecall from U */
    li      a7, 0
    ARM_M   1f
2:  ecall
    FAIL    10
1:  CHECK_CAUSE_M 10, CAUSE_USER_ECALL
    CHECK_EPC_M 11, 2b
    CHECK_TVAL_M_IMM 12, 0
    CHECK_PRV_M 13, PRV_U
    /* ebreak from U */
    ARM_M   1f
2:  ebreak
    FAIL    14
1:  CHECK_CAUSE_M 14, CAUSE_BREAKPOINT
    CHECK_PRV_M 15, PRV_U
    /* FP works in U (FS = Initial) */
    li      a0, 0x3ff0000000000000
    fmv.d.x fa0, a0
    fadd.d  fa1, fa0, fa0
    fmv.x.d a1, fa1
    CHECK_EQ 16, a1, 0x4000000000000000
    ENTER_M
    /* FS = Off: FP is illegal in U too */
    li      t0, MSTATUS_FS
    csrc    mstatus, t0
    ENTER_U
    U_ILLEGAL 17, fadd.d fa1, fa0, fa0
    U_ILLEGAL 18, csrr a0, fcsr
    ENTER_M
    li      t0, MSTATUS_FS_INITIAL
    csrs    mstatus, t0
    /* mstatus.TW = 1: wfi in U is illegal */
    li      t0, MSTATUS_TW
    csrs    mstatus, t0
    ENTER_U
    U_ILLEGAL 19, wfi
    ENTER_M
    li      t0, MSTATUS_TW
    csrc    mstatus, t0

    /* ---------------- PMP-denied page: U faults, M does not ---------------- */
    /* entry 0: NAPOT 4 KiB deny_page, no permissions; entry 1: everything RWX */
    la      t0, deny_page
    srli    t0, t0, 2
    ori     t0, t0, 0x1ff
    csrw    pmpaddr0, t0
    li      t0, -1
    csrw    pmpaddr1, t0
    li      t0, ((PMP_NAPOT | PMP_R | PMP_W | PMP_X) << 8) | PMP_NAPOT
    csrw    pmpcfg0, t0
    la      a1, deny_page
    li      t0, 0x1234
    sd      t0, 8(a1)                    /* M may access it */
    ld      a0, 8(a1)
    CHECK_EQ 20, a0, 0x1234
    ENTER_U
    la      a1, deny_page + 8
    ARM_M   1f
    ld      a0, 0(a1)
    FAIL    21
1:  CHECK_CAUSE_M 21, CAUSE_LOAD_ACCESS
    CHECK_TVAL_M 22, a1
    CHECK_PRV_M 23, PRV_U
    ARM_M   1f
    sw      a0, 0(a1)
    FAIL    24
1:  CHECK_CAUSE_M 24, CAUSE_STORE_ACCESS
    CHECK_TVAL_M 25, a1
    ARM_M   1f
    amoadd.d a0, a0, (a1)
    FAIL    26
1:  CHECK_CAUSE_M 26, CAUSE_STORE_ACCESS
    /* neighbouring memory outside the page is accessible */
    la      a1, deny_page + 4096
    ld      a0, 0(a1)
    ENTER_M

    /* ---------------- MPRV ---------------- */
    la      a1, deny_page + 8
    /* MPRV = 1, MPP = U: loads and stores are checked as U */
    li      t0, MSTATUS_MPP
    csrc    mstatus, t0
    li      t0, MSTATUS_MPRV
    csrs    mstatus, t0
    ARM_M   1f
    ld      a0, 0(a1)
    FAIL    27
1:  CHECK_CAUSE_M 27, CAUSE_LOAD_ACCESS
    CHECK_TVAL_M 28, a1
    CHECK_PRV_M 29, PRV_M                /* the trap came from M */
    /* (the trap's mret set MPP = U again; MPRV is still 1) */
    li      t0, MSTATUS_MPP
    csrc    mstatus, t0
    ARM_M   1f
    sd      a0, 0(a1)
    FAIL    30
1:  CHECK_CAUSE_M 30, CAUSE_STORE_ACCESS
    CHECK_TVAL_M 31, a1
    /* MPRV = 1, MPP = S: also denied */
    li      t0, MSTATUS_MPP
    csrc    mstatus, t0
    li      t0, MSTATUS_MPP_S
    csrs    mstatus, t0
    ARM_M   1f
    lw      a0, 0(a1)
    FAIL    32
1:  CHECK_CAUSE_M 32, CAUSE_LOAD_ACCESS
    /* MPRV = 1, MPP = M: allowed */
    li      t0, MSTATUS_MPP
    csrs    mstatus, t0
    ld      a0, 0(a1)
    CHECK_EQ 33, a0, 0x1234
    /* MPRV = 1, MPP = U: instruction fetch is still M (we keep running) and
       accesses outside the denied page work */
    li      t0, MSTATUS_MPP
    csrc    mstatus, t0
    la      a2, scratch
    li      t0, 77
    sd      t0, 0(a2)
    ld      a0, 0(a2)
    CHECK_EQ 34, a0, 77
    /* MPRV = 0: M accesses the page again even with MPP = U */
    li      t0, MSTATUS_MPRV
    csrc    mstatus, t0
    ld      a0, 0(a1)
    CHECK_EQ 35, a0, 0x1234
    /* mret to U clears MPRV */
    li      t0, MSTATUS_MPRV
    csrs    mstatus, t0
    ENTER_U
    ENTER_M
    csrr    a0, mstatus
    li      t0, MSTATUS_MPRV
    and     a0, a0, t0
    CHECK_EQ 36, a0, 0
    /* mret to M keeps MPRV */
    li      t0, MSTATUS_MPRV
    csrs    mstatus, t0
    li      t0, MSTATUS_MPP
    csrs    mstatus, t0
    la      t0, 1f
    csrw    mepc, t0
    mret
1:  csrr    a0, mstatus
    li      t0, MSTATUS_MPRV
    and     a0, a0, t0
    CHECK_EQR 37, a0, t0
    csrc    mstatus, t0

    /* restore PMP: entry 0 = everything */
    li      t0, -1
    csrw    pmpaddr0, t0
    li      t0, PMP_NAPOT | PMP_R | PMP_W | PMP_X
    csrw    pmpcfg0, t0
    ENTER_U
    la      a1, deny_page
    ld      a0, 8(a1)
    CHECK_EQ 38, a0, 0x1234
    ENTER_M
    TEST_PASS

    .data
    .balign 4096
deny_page:
    .space  4096
scratch:
    .space  64
