/* interrupts - CLINT timer (MTI) and software (MSI) interrupts with mtvec in
 * vectored mode (entry = base + 4 * cause), S-level SSI/STI/SEI raised through
 * mip by M-mode, taken in M when not delegated and in S when delegated
 * (stvec), priority MSI > MTI > SEI > SSI > STI when several are pending
 * (M-level and S-level), mstatus.MIE / SIE and mie gating, M interrupts always
 * enabled in U/S, delegated interrupts never taken in M, S interrupts always
 * enabled in U, WFI wake-up with MIE = 0 and with MIE = 1, read-only mip
 * bits, sie/sip masked by mideleg, mtime/mtimecmp access.
 * Timing: waits are bounded loops that only need mtime to advance. */
#include "test_macros.h"

#define SPIN_LIMIT 400000

/* spin until an interrupt has been logged (irq_count > old), or fail n */
.macro WAIT_IRQ n, oldcount_reg
  li t3, SPIN_LIMIT
.Lw\@:
  ld t4, irq_count
  bne t4, \oldcount_reg, .Ld\@
  addi t3, t3, -1
  bnez t3, .Lw\@
  FAIL \n
.Ld\@:
.endm

.macro SET_MTIMECMP reg
  li t4, CLINT_MTIMECMP
  sd \reg, 0(t4)
.endm

.macro TIMER_OFF
  li t3, -1
  SET_MTIMECMP t3
.endm

/* mtimecmp = mtime + delta */
.macro TIMER_IN delta
  li t4, CLINT_MTIME
  ld t3, 0(t4)
  addi t3, t3, \delta
  SET_MTIMECMP t3
.endm

    .option norvc
    .text
    .globl main
main:
    TIMER_OFF
    csrw    mie, zero
    li      t0, CLINT_MSIP
    sw      zero, 0(t0)

    /* ---------------- CLINT registers ---------------- */
    li      t0, CLINT_MTIMECMP
    li      t1, 0x123456789abc
    sd      t1, 0(t0)
    ld      a0, 0(t0)
    CHECK_EQR 1, a0, t1
    lw      a0, 4(t0)                    /* 32-bit access to the upper half */
    CHECK_EQ 2, a0, 0x1234
    TIMER_OFF
    li      t0, CLINT_MTIME
    ld      a1, 0(t0)
    li      t1, 20000
1:  addi    t1, t1, -1
    bnez    t1, 1b
    ld      a2, 0(t0)
    bgtu    a2, a1, 1f
    FAIL    3                            /* mtime advances */
1:  /* read-only mip bits: MTIP and MSIP cannot be set through mip */
    li      t0, MIP_MTIP | MIP_MSIP
    csrs    mip, t0
    csrr    a0, mip
    and     a0, a0, t0
    CHECK_EQ 4, a0, 0
    /* msip sets mip.MSIP, clearing it clears mip.MSIP */
    li      t0, CLINT_MSIP
    li      t1, 1
    sw      t1, 0(t0)
    lw      a0, 0(t0)
    CHECK_EQ 5, a0, 1
    csrr    a0, mip
    andi    a0, a0, MIP_MSIP
    CHECK_EQ 6, a0, MIP_MSIP
    sw      zero, 0(t0)
    csrr    a0, mip
    andi    a0, a0, MIP_MSIP
    CHECK_EQ 7, a0, 0
    /* mtimecmp <= mtime sets MTIP; mtimecmp = -1 clears it */
    li      t3, 0
    SET_MTIMECMP t3
    csrr    a0, mip
    andi    a0, a0, MIP_MTIP
    CHECK_EQ 8, a0, MIP_MTIP
    TIMER_OFF
    csrr    a0, mip
    andi    a0, a0, MIP_MTIP
    CHECK_EQ 9, a0, 0
    /* SSIP, STIP, SEIP are writable by M */
    li      t0, MIP_SSIP | MIP_STIP | MIP_SEIP
    csrs    mip, t0
    csrr    a0, mip
    and     a0, a0, t0
    CHECK_EQR 10, a0, t0
    csrc    mip, t0
    csrr    a0, mip
    and     a0, a0, t0
    CHECK_EQ 11, a0, 0
    /* sie/sip: read-only zero for bits not delegated in mideleg */
    csrw    mideleg, zero
    csrw    mie, zero
    li      t0, MIP_SSIP | MIP_STIP | MIP_SEIP
    csrs    sie, t0
    csrr    a0, sie
    CHECK_EQ 12, a0, 0
    csrr    a0, mie
    CHECK_EQ 13, a0, 0
    li      t1, MIP_SSIP
    csrw    mideleg, t1
    csrs    sie, t0
    csrr    a0, mie
    CHECK_EQ 14, a0, MIP_SSIP            /* only the delegated bit was written */
    csrs    mip, t1
    csrr    a0, sip
    CHECK_EQ 15, a0, MIP_SSIP
    csrc    sip, t1                      /* S may clear SSIP */
    csrr    a0, mip
    andi    a0, a0, MIP_SSIP
    CHECK_EQ 16, a0, 0
    csrw    mie, zero
    csrw    mideleg, zero

    /* ---------------- vectored mtvec, install the interrupt hook ---------------- */
    la      t0, m_vec_table
    ori     t0, t0, 1
    csrw    mtvec, t0
    csrr    a0, mtvec
    CHECK_EQR 17, a0, t0
    la      t0, m_irq_hook
    sd      t0, trap_hook_m, t1

    /* ---------------- MTI ---------------- */
    ld      s1, irq_count
    li      t0, MIP_MTIP
    csrw    mie, t0
    TIMER_IN 2
    csrsi   mstatus, MSTATUS_MIE
    WAIT_IRQ 18, s1
    csrci   mstatus, MSTATUS_MIE
    ld      a0, last_cause
    CHECK_EQ 19, a0, CAUSE_INTR | IRQ_M_TIMER
    ld      a0, last_vec
    CHECK_EQ 20, a0, IRQ_M_TIMER
    ld      a0, last_prv
    CHECK_EQ 21, a0, PRV_M
    csrr    a0, mip
    andi    a0, a0, MIP_MTIP
    CHECK_EQ 22, a0, 0                   /* the hook moved mtimecmp away */

    /* ---------------- MSI ---------------- */
    ld      s1, irq_count
    li      t0, MIP_MSIP
    csrw    mie, t0
    csrsi   mstatus, MSTATUS_MIE
    li      t0, CLINT_MSIP
    li      t1, 1
    sw      t1, 0(t0)
    WAIT_IRQ 23, s1
    csrci   mstatus, MSTATUS_MIE
    ld      a0, last_cause
    CHECK_EQ 24, a0, CAUSE_INTR | IRQ_M_SOFT
    ld      a0, last_vec
    CHECK_EQ 25, a0, IRQ_M_SOFT

    /* ---------------- SSI / STI / SEI not delegated: taken in M ---------------- */
    ld      s1, irq_count
    li      t0, MIP_SSIP
    csrw    mie, t0
    csrsi   mstatus, MSTATUS_MIE
    csrsi   mip, MIP_SSIP
    WAIT_IRQ 26, s1
    csrci   mstatus, MSTATUS_MIE
    ld      a0, last_cause
    CHECK_EQ 27, a0, CAUSE_INTR | IRQ_S_SOFT
    ld      a0, last_vec
    CHECK_EQ 28, a0, IRQ_S_SOFT
    ld      s1, irq_count
    li      t0, MIP_STIP
    csrw    mie, t0
    csrsi   mstatus, MSTATUS_MIE
    csrs    mip, t0
    WAIT_IRQ 29, s1
    csrci   mstatus, MSTATUS_MIE
    ld      a0, last_cause
    CHECK_EQ 30, a0, CAUSE_INTR | IRQ_S_TIMER
    ld      a0, last_vec
    CHECK_EQ 31, a0, IRQ_S_TIMER
    ld      s1, irq_count
    li      t0, MIP_SEIP
    csrw    mie, t0
    csrsi   mstatus, MSTATUS_MIE
    csrs    mip, t0
    WAIT_IRQ 32, s1
    csrci   mstatus, MSTATUS_MIE
    ld      a0, last_cause
    CHECK_EQ 33, a0, CAUSE_INTR | IRQ_S_EXT
    ld      a0, last_vec
    CHECK_EQ 34, a0, IRQ_S_EXT

    /* ---------------- gating ---------------- */
    /* pending + enabled in mie but MIE = 0: not taken in M */
    ld      s1, irq_count
    li      t0, MIP_SSIP
    csrw    mie, t0
    csrs    mip, t0
    li      t1, 1000
1:  addi    t1, t1, -1
    bnez    t1, 1b
    ld      a0, irq_count
    CHECK_EQR 35, a0, s1
    /* MIE = 1 but the mie bit clear: not taken */
    csrw    mie, zero
    csrsi   mstatus, MSTATUS_MIE
    li      t1, 1000
1:  addi    t1, t1, -1
    bnez    t1, 1b
    ld      a0, irq_count
    CHECK_EQR 36, a0, s1
    /* enabling mie takes it at once */
    li      t0, MIP_SSIP
    csrw    mie, t0
    WAIT_IRQ 37, s1
    csrci   mstatus, MSTATUS_MIE
    ld      a0, last_cause
    CHECK_EQ 38, a0, CAUSE_INTR | IRQ_S_SOFT
    /* the trap clears MIE and sets MPIE; mret restores MIE */
    ld      a0, last_status
    andi    a1, a0, MSTATUS_MIE
    CHECK_EQ 39, a1, 0
    andi    a1, a0, MSTATUS_MPIE
    CHECK_EQ 40, a1, MSTATUS_MPIE

    /* ---------------- priority: all pending at once ---------------- */
    sd      zero, irq_log_n, t0
    li      t0, MIP_MSIP | MIP_MTIP | MIP_SSIP | MIP_STIP | MIP_SEIP
    csrw    mie, t0
    li      t0, MIP_SSIP | MIP_STIP | MIP_SEIP
    csrs    mip, t0
    li      t0, CLINT_MSIP
    li      t1, 1
    sw      t1, 0(t0)
    li      t3, 0
    SET_MTIMECMP t3
    ld      s1, irq_count
    csrsi   mstatus, MSTATUS_MIE         /* five interrupts are taken here, in order */
    nop
    csrci   mstatus, MSTATUS_MIE
    ld      a0, irq_log_n
    CHECK_EQ 41, a0, 5
    la      a1, irq_log
    ld      a0, 0(a1)
    CHECK_EQ 42, a0, IRQ_M_SOFT
    ld      a0, 8(a1)
    CHECK_EQ 43, a0, IRQ_M_TIMER
    ld      a0, 16(a1)
    CHECK_EQ 44, a0, IRQ_S_EXT
    ld      a0, 24(a1)
    CHECK_EQ 45, a0, IRQ_S_SOFT
    ld      a0, 32(a1)
    CHECK_EQ 46, a0, IRQ_S_TIMER

    /* ---------------- M interrupts are always enabled in S and U ---------------- */
    csrci   mstatus, MSTATUS_MIE
    li      t0, MIP_MTIP
    csrw    mie, t0
    ld      s1, irq_count
    li      t3, 0
    SET_MTIMECMP t3                      /* pending now */
    ENTER_U                              /* MIE does not matter in U */
    WAIT_IRQ 47, s1
    ENTER_M
    ld      a0, last_cause
    CHECK_EQ 48, a0, CAUSE_INTR | IRQ_M_TIMER
    ld      a0, last_prv
    CHECK_EQ 49, a0, PRV_U
    csrci   mstatus, MSTATUS_MIE         /* (the ecall/mret pair may have set it) */
    ld      s1, irq_count
    li      t3, 0
    SET_MTIMECMP t3
    ENTER_S
    WAIT_IRQ 50, s1
    ENTER_M
    ld      a0, last_cause
    CHECK_EQ 51, a0, CAUSE_INTR | IRQ_M_TIMER
    ld      a0, last_prv
    CHECK_EQ 52, a0, PRV_S

    /* ---------------- delegated S interrupts ---------------- */
    la      t0, s_irq_hook
    sd      t0, trap_hook_s, t1
    li      t0, MIP_SSIP | MIP_STIP | MIP_SEIP
    csrw    mideleg, t0
    csrw    mie, t0
    /* delegated interrupts are not taken in M, even with MIE = 1 */
    ld      s1, irq_count
    ld      s2, s_irq_count
    csrs    mip, t0                      /* SSIP, STIP, SEIP pending */
    csrsi   mstatus, MSTATUS_MIE
    li      t1, 1000
1:  addi    t1, t1, -1
    bnez    t1, 1b
    csrci   mstatus, MSTATUS_MIE
    ld      a0, irq_count
    CHECK_EQR 53, a0, s1
    ld      a0, s_irq_count
    CHECK_EQR 54, a0, s2
    /* in S with SIE = 0: not taken */
    csrci   sstatus, MSTATUS_SIE
    ENTER_S
    li      t1, 1000
1:  addi    t1, t1, -1
    bnez    t1, 1b
    ld      a0, s_irq_count
    CHECK_EQR 55, a0, s2
    /* SIE = 1: taken in S, in priority order SEI > SSI > STI */
    sd      zero, s_irq_log_n, t0
    csrsi   sstatus, MSTATUS_SIE
    nop
    csrci   sstatus, MSTATUS_SIE
    ld      a0, s_irq_log_n
    CHECK_EQ 56, a0, 3
    la      a1, s_irq_log
    ld      a0, 0(a1)
    CHECK_EQ 57, a0, IRQ_S_EXT
    ld      a0, 8(a1)
    CHECK_EQ 58, a0, IRQ_S_SOFT
    ld      a0, 16(a1)
    CHECK_EQ 59, a0, IRQ_S_TIMER
    ld      a0, s_last_prv
    CHECK_EQ 60, a0, PRV_S
    ENTER_M
    li      t0, MIP_STIP | MIP_SEIP
    csrc    mip, t0                      /* S could only mask them */
    /* S interrupts are always enabled in U (SIE = 0) */
    li      t0, MIP_SSIP
    csrw    mie, t0
    csrs    mip, t0
    ld      s2, s_irq_count
    csrci   sstatus, MSTATUS_SIE
    ENTER_U
    nop
    ENTER_M
    ld      a0, s_irq_count
    addi    s2, s2, 1
    CHECK_EQR 61, a0, s2
    ld      a0, s_last_cause
    CHECK_EQ 62, a0, CAUSE_INTR | IRQ_S_SOFT
    ld      a0, s_last_prv
    CHECK_EQ 63, a0, PRV_U
    csrw    mideleg, zero
    csrw    mie, zero
    sd      zero, trap_hook_s, t0

    /* ---------------- WFI ---------------- */
    /* MIE = 0: WFI wakes up when MTIP becomes pending; no trap */
    csrci   mstatus, MSTATUS_MIE
    li      t0, MIP_MTIP
    csrw    mie, t0
    ld      s1, irq_count
    TIMER_IN 3
    li      t1, SPIN_LIMIT
1:  wfi
    csrr    a0, mip
    andi    a0, a0, MIP_MTIP
    bnez    a0, 2f
    addi    t1, t1, -1
    bnez    t1, 1b
    FAIL    64
2:  ld      a0, irq_count
    CHECK_EQR 65, a0, s1
    TIMER_OFF
    /* MIE = 1: the interrupt is taken, mepc = the WFI or the instruction after it */
    TIMER_IN 3
    csrsi   mstatus, MSTATUS_MIE
    li      t1, SPIN_LIMIT
1:  ld      a0, irq_count
    bne     a0, s1, 2f
3:  wfi
4:  addi    t1, t1, -1
    bnez    t1, 1b
    FAIL    66
2:  csrci   mstatus, MSTATUS_MIE
    ld      a0, last_cause
    CHECK_EQ 67, a0, CAUSE_INTR | IRQ_M_TIMER
    ld      a0, last_epc
    la      a1, 3b
    la      a2, 4b
    beq     a0, a1, 5f
    beq     a0, a2, 5f
    /* the interrupt may also arrive before the WFI: anywhere in the loop */
    la      a1, 1b
    bltu    a0, a1, 6f
    bgtu    a0, a2, 6f
    j       5f
6:  FAIL    68
5:  /* WFI in U-mode with TW = 0 and a pending M interrupt also wakes up:
       covered in umode (TW). */
    csrw    mie, zero
    TIMER_OFF

    sd      zero, trap_hook_m, t0
    la      t0, trap_vector_m
    csrw    mtvec, t0
    TEST_PASS

/* ------------------------------------------------------------------ */
/* m_irq_hook(a0 = frame): log interrupts, clear their source */
m_irq_hook:
    ld      t0, FRAME_CAUSE(a0)
    bltz    t0, 1f
    li      a0, 0                        /* exceptions: not handled here */
    ret
1:  sd      t0, last_cause, t1
    ld      t1, FRAME_EPC(a0)
    sd      t1, last_epc, t2
    ld      t1, FRAME_STATUS(a0)
    sd      t1, last_status, t2
    srli    t1, t1, 11
    andi    t1, t1, 3
    sd      t1, last_prv, t2
    ld      t1, irq_count
    addi    t1, t1, 1
    sd      t1, irq_count, t2
    andi    t0, t0, 0x3f
    ld      t1, irq_log_n
    li      t2, 8
    bgeu    t1, t2, 2f
    la      t2, irq_log
    slli    t3, t1, 3
    add     t2, t2, t3
    sd      t0, 0(t2)
    addi    t1, t1, 1
    sd      t1, irq_log_n, t2
2:  li      t1, IRQ_M_SOFT
    bne     t0, t1, 3f
    li      t2, CLINT_MSIP
    sw      zero, 0(t2)
    j       9f
3:  li      t1, IRQ_M_TIMER
    bne     t0, t1, 3f
    li      t2, CLINT_MTIMECMP
    li      t3, -1
    sd      t3, 0(t2)
    j       9f
3:  li      t1, IRQ_S_SOFT
    bne     t0, t1, 3f
    csrci   mip, MIP_SSIP
    j       9f
3:  li      t1, IRQ_S_TIMER
    bne     t0, t1, 3f
    li      t2, MIP_STIP
    csrc    mip, t2
    j       9f
3:  li      t1, IRQ_S_EXT
    bne     t0, t1, 3f
    li      t2, MIP_SEIP
    csrc    mip, t2
    j       9f
3:  li      a0, 0                        /* unknown: unexpected */
    ret
9:  li      a0, 1
    ret

/* s_irq_hook(a0 = frame): log delegated interrupts; clear SSIP, mask STI/SEI */
s_irq_hook:
    ld      t0, FRAME_CAUSE(a0)
    bltz    t0, 1f
    li      a0, 0
    ret
1:  sd      t0, s_last_cause, t1
    ld      t1, FRAME_STATUS(a0)
    srli    t1, t1, 8
    andi    t1, t1, 1
    sd      t1, s_last_prv, t2
    ld      t1, s_irq_count
    addi    t1, t1, 1
    sd      t1, s_irq_count, t2
    andi    t0, t0, 0x3f
    ld      t1, s_irq_log_n
    li      t2, 8
    bgeu    t1, t2, 2f
    la      t2, s_irq_log
    slli    t3, t1, 3
    add     t2, t2, t3
    sd      t0, 0(t2)
    addi    t1, t1, 1
    sd      t1, s_irq_log_n, t2
2:  li      t1, IRQ_S_SOFT
    bne     t0, t1, 3f
    csrci   sip, MIP_SSIP
    j       9f
3:  li      t1, IRQ_S_TIMER
    bne     t0, t1, 3f
    li      t2, MIP_STIP
    csrc    sie, t2
    j       9f
3:  li      t1, IRQ_S_EXT
    bne     t0, t1, 3f
    li      t2, MIP_SEIP
    csrc    sie, t2
    j       9f
3:  li      a0, 0
    ret
9:  li      a0, 1
    ret

/* ------------------------------------------------------------------ */
/* vectored mtvec table: entry i records i in last_vec, then joins the runtime */
.macro VEC_ENTRY i
  j m_vec_\i
.endm
.macro VEC_STUB i
m_vec_\i:
  csrrw t0, mscratch, t0
  sd t1, FRAME_REG(6)(t0)
  sd t2, FRAME_REG(7)(t0)
  la t1, last_vec
  li t2, \i
  sd t2, 0(t1)
  ld t1, FRAME_REG(6)(t0)
  ld t2, FRAME_REG(7)(t0)
  csrrw t0, mscratch, t0
  j trap_vector_m
.endm
    CODE_ALIGN 6
m_vec_table:
    j       trap_vector_m                /* 0: exceptions */
    VEC_ENTRY 1
    VEC_ENTRY 2
    VEC_ENTRY 3
    VEC_ENTRY 4
    VEC_ENTRY 5
    VEC_ENTRY 6
    VEC_ENTRY 7
    VEC_ENTRY 8
    VEC_ENTRY 9
    VEC_ENTRY 10
    VEC_ENTRY 11
    VEC_STUB 1
    VEC_STUB 2
    VEC_STUB 3
    VEC_STUB 4
    VEC_STUB 5
    VEC_STUB 6
    VEC_STUB 7
    VEC_STUB 8
    VEC_STUB 9
    VEC_STUB 10
    VEC_STUB 11

    .data
    .balign 8
irq_count:    .dword 0
last_cause:   .dword 0
last_epc:     .dword 0
last_status:  .dword 0
last_prv:     .dword 0
last_vec:     .dword -1
irq_log_n:    .dword 0
irq_log:      .space 64
s_irq_count:  .dword 0
s_last_cause: .dword 0
s_last_prv:   .dword 0
s_irq_log_n:  .dword 0
s_irq_log:    .space 64
