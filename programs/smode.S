/* smode - S-mode privilege controls: mstatus.TSR (sret in S -> illegal,
 * sret in M unaffected), mstatus.TW (wfi in S -> illegal, wfi in M
 * unaffected; with TW = 0 wfi in S completes when an enabled interrupt is
 * pending), mstatus.TVM (satp read/write and sfence.vma in S -> illegal, M
 * unaffected), S-mode CSR access (S CSRs allowed, M CSRs illegal), ecall from
 * S (cause 9), sret from S to U and to S, MPRV with MPP = S. */
#include "test_macros.h"

.macro S_ILLEGAL n, insn:vararg
  ARM_M .Lr\@
.Li\@:
  \insn
  FAIL \n
.Lr\@:
  CHECK_CAUSE_M \n, CAUSE_ILLEGAL_INSTRUCTION
  CHECK_PRV_M \n, PRV_S
  CHECK_EPC_M \n, .Li\@
  la t4, .Li\@
  lwu t4, 0(t4)
  CHECK_TVAL_M \n, t4
.endm

    .option norvc
    .text
    .globl main
main:
    /* ---------------- S-mode CSR access ---------------- */
    ENTER_S
    csrr    a0, sstatus
    csrr    a0, sie
    csrr    a0, stvec
    csrr    a0, sscratch
    csrr    a0, sepc
    csrr    a0, scause
    csrr    a0, stval
    csrr    a0, sip
    csrr    a0, satp
    csrr    a0, scounteren
    csrr    s1, sscratch
    li      t0, 0x5555aaaa5555aaaa
    csrw    sscratch, t0
    csrr    a0, sscratch
    CHECK_EQR 1, a0, t0
    csrw    sscratch, s1
    S_ILLEGAL 2, csrr a0, mstatus
    S_ILLEGAL 3, csrw mtvec, zero
    S_ILLEGAL 4, csrr a0, mepc
    S_ILLEGAL 5, csrr a0, mip
    S_ILLEGAL 6, csrw mideleg, zero
    S_ILLEGAL 7, mret
    /* ecall from S */
    li      a7, 0
    ARM_M   1f
2:  ecall
    FAIL    8
1:  CHECK_CAUSE_M 8, CAUSE_SUPERVISOR_ECALL
    CHECK_EPC_M 9, 2b
    CHECK_PRV_M 10, PRV_S
    CHECK_TVAL_M_IMM 11, 0
    ENTER_M

    /* ---------------- TSR ---------------- */
    li      t0, MSTATUS_TSR
    csrs    mstatus, t0
    ENTER_S
    S_ILLEGAL 12, sret
    ENTER_M
    /* sret in M is not affected by TSR: go to S through sret */
    li      t0, MSTATUS_SPP
    csrs    mstatus, t0
    la      t0, 1f
    csrw    sepc, t0
    sret
1:  S_ILLEGAL 13, csrr a0, mscratch      /* really in S */
    ENTER_M
    li      t0, MSTATUS_TSR
    csrc    mstatus, t0
    /* TSR = 0: sret in S works (S -> S and S -> U) */
    ENTER_S
    li      t0, MSTATUS_SPP
    csrs    sstatus, t0
    la      t0, 1f
    csrw    sepc, t0
    sret
1:  S_ILLEGAL 14, csrr a0, mscratch
    li      t0, MSTATUS_SPP
    csrc    sstatus, t0
    la      t0, 1f
    csrw    sepc, t0
    sret
1:  ARM_M   2f
    csrr    a0, sstatus                  /* U: illegal */
    FAIL    15
2:  CHECK_CAUSE_M 15, CAUSE_ILLEGAL_INSTRUCTION
    CHECK_PRV_M 16, PRV_U
    ENTER_M

    /* ---------------- TW ---------------- */
    li      t0, MSTATUS_TW
    csrs    mstatus, t0
    ENTER_S
    S_ILLEGAL 17, wfi
    ENTER_M
    /* M-mode wfi is not affected by TW: wakes on a pending MSI (MIE = 0) */
    csrci   mstatus, MSTATUS_MIE
    li      t0, MIP_MSIP
    csrw    mie, t0
    li      t1, CLINT_MSIP
    li      t2, 1
    sw      t2, 0(t1)
    wfi
    sw      zero, 0(t1)
    csrw    mie, zero
    li      t0, MSTATUS_TW
    csrc    mstatus, t0
    /* TW = 0: wfi in S completes (a delegated SSI is pending and enabled in
       sie, but SIE = 0 so it is not taken) */
    li      t0, MIP_SSIP
    csrw    mideleg, t0
    csrw    mie, t0
    csrs    mip, t0
    csrci   sstatus, MSTATUS_SIE
    ENTER_S
    wfi
    csrci   sip, MIP_SSIP
    ENTER_M
    csrw    mie, zero
    csrw    mideleg, zero

    /* ---------------- TVM ---------------- */
    csrw    satp, zero
    li      t0, MSTATUS_TVM
    csrs    mstatus, t0
    ENTER_S
    S_ILLEGAL 18, csrr a0, satp
    S_ILLEGAL 19, csrw satp, zero
    S_ILLEGAL 20, csrrs a0, satp, zero
    S_ILLEGAL 21, sfence.vma
    S_ILLEGAL 22, sfence.vma a0
    S_ILLEGAL 23, sfence.vma a0, a1
    ENTER_M
    /* M is not affected by TVM */
    csrr    a0, satp
    csrw    satp, zero
    sfence.vma
    li      t0, MSTATUS_TVM
    csrc    mstatus, t0
    /* TVM = 0: allowed in S */
    ENTER_S
    csrr    a0, satp
    CHECK_EQ 24, a0, 0
    csrw    satp, zero
    sfence.vma
    sfence.vma a0
    sfence.vma zero, a1
    ENTER_M

    /* ---------------- MPRV with MPP = S: S-mode PMP checks ---------------- */
    la      t0, deny_page
    srli    t0, t0, 2
    ori     t0, t0, 0x1ff
    csrw    pmpaddr0, t0
    li      t0, -1
    csrw    pmpaddr1, t0
    li      t0, ((PMP_NAPOT | PMP_R | PMP_W | PMP_X) << 8) | PMP_NAPOT | PMP_R
    csrw    pmpcfg0, t0                  /* page: read-only for S/U */
    la      a1, deny_page
    li      t0, 0x4321
    sd      t0, 0(a1)
    li      t0, MSTATUS_MPP
    csrc    mstatus, t0
    li      t0, MSTATUS_MPP_S | MSTATUS_MPRV
    csrs    mstatus, t0
    ld      a0, 0(a1)                    /* read allowed */
    CHECK_EQ 25, a0, 0x4321
    ARM_M   1f
    sd      a0, 0(a1)                    /* write denied */
    FAIL    26
1:  CHECK_CAUSE_M 26, CAUSE_STORE_ACCESS
    CHECK_TVAL_M 27, a1
    li      t0, MSTATUS_MPRV
    csrc    mstatus, t0
    sd      a0, 0(a1)                    /* M itself may write */
    /* and directly in S */
    ENTER_S
    la      a1, deny_page
    ld      a0, 0(a1)
    CHECK_EQ 28, a0, 0x4321
    ARM_M   1f
    sb      a0, 3(a1)
    FAIL    29
1:  CHECK_CAUSE_M 29, CAUSE_STORE_ACCESS
    addi    a1, a1, 3
    CHECK_TVAL_M 30, a1
    CHECK_PRV_M 31, PRV_S
    ENTER_M
    li      t0, -1
    csrw    pmpaddr0, t0
    li      t0, PMP_NAPOT | PMP_R | PMP_W | PMP_X
    csrw    pmpcfg0, t0
    TEST_PASS

    .data
    .balign 4096
deny_page:
    .space  4096
