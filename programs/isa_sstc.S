/* isa_sstc - Sstc: stimecmp, menvcfg.STCE, STIP driven by time >= stimecmp, and the timer
 * interrupt it raises, in M-mode and delegated to S, under trap handlers that skip what traps
 * (so the same ELF runs with Sstc off: stimecmp is then an illegal CSR, menvcfg.STCE reads 0,
 * and no timer interrupt ever comes). It always exits 0: the tests diff its commit log against
 * Spike's with the same ISA string.
 *
 * What it looks at, in order:
 *  - menvcfg written with all ones (which bits are WARL-writable);
 *  - STCE = 0: mip.STIP is writable, a stimecmp write leaves STIP alone;
 *  - STCE = 1: STIP follows stimecmp when it is written, mip writes leave it alone, and it is
 *    recomputed by a CLINT load (Spike synchronises its time with the CLINT then);
 *  - an M-mode timer interrupt from stimecmp a few ticks ahead, taken in a counting loop at
 *    the retirement Spike takes it (time advances once a quantum: the loop spans one);
 *  - WFI woken by stimecmp (only when Sstc is there: without it nothing would wake it);
 *  - S-mode: stimecmp illegal with mcounteren.TM = 0 and with STCE = 0, legal with both, and
 *    a supervisor timer interrupt delegated through mideleg, taken in S.
 *
 * Its own start-up (no crt0). S-mode asks M for changes with ecall, a7 = what to do.
 */
#include "encoding.h"

    .option norvc
    .option norelax

#define STCE_HI   0x8000          /* menvcfg.STCE = 1 << 63 = STCE_HI << 48 */

.macro STCE_ON
    li      t0, STCE_HI
    slli    t0, t0, 48
    csrs    menvcfg, t0
.endm
.macro STCE_OFF
    li      t0, STCE_HI
    slli    t0, t0, 48
    csrc    menvcfg, t0
.endm

/* Count down a4 from n: the interrupt comes somewhere in here (or never). */
.macro SPIN n
    li      a4, \n
1:  addi    a4, a4, -1
    bnez    a4, 1b
.endm

    .section .text.init, "ax", @progbits
    .globl _start
_start:
    la      t0, trap
    csrw    mtvec, t0
    /* S and U may access all memory */
    li      t0, -1
    csrw    pmpaddr0, t0
    li      t0, PMP_NAPOT | PMP_R | PMP_W | PMP_X
    csrw    pmpcfg0, t0

    /* Does stimecmp exist? s11 = 1 after an exception. */
    li      s11, 0
    csrr    a0, stimecmp
    mv      s10, s11                   /* s10 = 1: no Sstc */

    /* menvcfg's writable bits */
    li      a1, -1
    csrw    menvcfg, a1
    csrr    a0, menvcfg
    csrw    menvcfg, zero

    /* STCE = 0: mip.STIP is software's; stimecmp writes do not touch it */
    li      a1, MIP_STIP
    csrs    mip, a1
    csrr    a0, mip
    csrw    stimecmp, zero
    csrr    a0, mip
    csrc    mip, a1
    csrr    a0, mip
    csrw    stimecmp, zero
    csrr    a0, mip

    /* STCE = 1: STIP is time >= stimecmp, recomputed on a stimecmp write */
    STCE_ON
    csrr    a0, mip                    /* not recomputed by the menvcfg write */
    li      a1, -1
    csrw    stimecmp, a1
    csrr    a0, mip
    csrw    stimecmp, zero
    csrr    a0, mip
    li      a1, MIP_STIP
    csrc    mip, a1                    /* ignored */
    csrr    a0, mip
    li      a1, -1
    csrw    stimecmp, a1
    csrr    a0, mip
    li      a1, MIP_STIP
    csrs    mip, a1                    /* ignored */
    csrr    a0, mip

    /* a CLINT load recomputes STIP */
    STCE_OFF
    li      a1, MIP_STIP
    csrs    mip, a1
    STCE_ON
    csrr    a0, mip
    li      t1, 0x200bff8
    ld      a0, 0(t1)
    csrr    a0, mip
    csrc    mip, a1                    /* without Sstc, STIP is still set */
    csrr    a0, mip

    /* an M-mode interrupt from stimecmp three ticks ahead */
    csrr    a2, time
    addi    a2, a2, 3
    csrw    stimecmp, a2
    li      a1, MIP_STIP
    csrs    mie, a1
    csrsi   mstatus, MSTATUS_MIE
    SPIN    3000
    csrci   mstatus, MSTATUS_MIE
    csrr    a0, mip
    csrr    a0, time

    /* and one a quantum boundary away: polled with interrupts off */
    csrr    a2, time
    addi    a2, a2, 60
    csrw    stimecmp, a2
    li      a4, 3000
2:  csrr    a0, mip
    andi    a0, a0, MIP_STIP
    bnez    a0, 3f
    addi    a4, a4, -1
    bnez    a4, 2b
3:  csrr    a0, time

    /* WFI woken by stimecmp (with Sstc only) */
    bnez    s10, 4f
    csrr    a2, time
    addi    a2, a2, 170
    csrw    stimecmp, a2
    li      a1, MIP_STIP
    csrs    mie, a1
    wfi
    csrr    a0, mip
    csrr    a0, time
4:  li      a1, MIP_STIP
    csrc    mie, a1
    li      a1, -1
    csrw    stimecmp, a1

    /* to S-mode, with the supervisor timer delegated */
    csrw    mcounteren, zero
    li      a1, MIP_STIP
    csrs    mideleg, a1
    la      t0, strap
    csrw    stvec, t0
    li      t0, MSTATUS_MPP
    csrc    mstatus, t0
    li      t0, MSTATUS_MPP_S
    csrs    mstatus, t0
    la      t0, smode
    csrw    mepc, t0
    mret

smode:
    csrr    a0, stimecmp               /* illegal: mcounteren.TM = 0 */
    li      a7, 1                      /* mcounteren.TM = 1 */
    ecall
    csrr    a0, stimecmp
    csrr    a0, time
    li      a7, 2                      /* STCE = 0 */
    ecall
    csrr    a0, stimecmp               /* illegal: STCE = 0 */
    csrw    stimecmp, zero             /* illegal */
    li      a7, 3                      /* STCE = 1 */
    ecall
    csrr    a2, time
    addi    a2, a2, 4
    csrw    stimecmp, a2
    csrr    a0, sip
    li      a1, MIP_STIP
    csrs    sie, a1
    csrsi   sstatus, MSTATUS_SIE
    SPIN    3000
    csrci   sstatus, MSTATUS_SIE
    csrr    a0, sip
    li      a7, 4                      /* exit */
    ecall

/* M-mode: interrupts turn their enable off; ecalls from S do what a7 says; other exceptions
 * are skipped (every instruction is 4 bytes) with s11 = 1. */
    .balign 4
trap:
    csrr    t6, mcause
    bltz    t6, mirq
    li      t5, 9
    beq     t6, t5, mecall
    li      s11, 1
    csrr    t6, mtval
skip:
    csrr    t6, mepc
    addi    t6, t6, 4
    csrw    mepc, t6
    mret
mirq:
    csrr    t6, mip
    li      t6, MIP_STIP
    csrc    mie, t6
    mret
mecall:
    li      t5, 1
    bne     a7, t5, 1f
    csrsi   mcounteren, 2
    j       skip
1:  li      t5, 2
    bne     a7, t5, 2f
    STCE_OFF
    j       skip
2:  li      t5, 3
    bne     a7, t5, 3f
    STCE_ON
    j       skip
3:  li      t0, 1
    la      t1, tohost
4:  sd      t0, 0(t1)
    j       4b

/* S-mode: the timer interrupt turns sie.STIE off. */
    .balign 4
strap:
    csrr    t6, scause
    csrr    t6, sip
    li      t6, MIP_STIP
    csrc    sie, t6
    sret

    .section .tohost, "aw", @progbits
    .align 6
    .globl tohost
tohost:   .dword 0
    .align 6
    .globl fromhost
fromhost: .dword 0
