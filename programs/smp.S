/* smp - several harts (`hartscope run --harts N`, Spike's -pN), bare metal in M-mode.
 *
 * Every hart starts here (the boot ROM's a0 = mhartid). Hart 0 finds how many harts there are
 * by setting msip of hart 1, 2... and reading it back, until it reads 0 (Spike's CLINT
 * ignores the registers of harts that do not exist; a fault would do too), which also wakes
 * them: harts 1..N-1 wait in WFI for their msip. Then
 * every hart: clears its msip; sums 1..(100 * (h + 1)) (its own work); adds 1 to a shared
 * counter 40 times under a spinlock taken with LR/SC, and 40 times more with an LR/SC
 * increment; takes two timer interrupts from its own mtimecmp (waiting in WFI); and counts
 * itself done (AMO). Hart 0 waits for all, checks the counter (80 per hart), each hart's sum
 * and ticks, and exits through HTIF: 0 when all is right, else the number of the failed
 * check (one hart passes too). Harts other than 0 end in WFI with nothing enabled.
 *
 * Its own start-up (every hart runs it), as the isa_ programs': crt0 is single-hart. Its
 * commit log with --harts 2 and 4 is diffed against Spike's -p2 and -p4 (tests/spike_diff.rs).
 */
#include "encoding.h"

#define MAX_HARTS   8
#define LOCKED_ADDS 40
#define LRSC_ADDS   40
#define TICKS       2

    .option norvc
    .option norelax

    .section .text.init, "ax", @progbits
    .globl _start
_start:
    csrr    s0, mhartid
    la      t0, trap
    csrw    mtvec, t0
    csrw    mie, zero
    li      s11, 0                      /* set by the trap handler on a store fault */
    /* sp = stacks + 1 KiB * (h + 1) */
    la      sp, stacks
    addi    t0, s0, 1
    slli    t0, t0, 10
    add     sp, sp, t0
    bnez    s0, secondary

    /* hart 0: wake harts 1.. until the CLINT has no msip for the next one */
    li      s1, 1                       /* harts found */
    li      t1, CLINT_MSIP
    li      t2, 1
1:  li      t0, MAX_HARTS
    beq     s1, t0, 2f
    slli    t0, s1, 2
    add     t0, t0, t1
    sw      t2, 0(t0)                   /* ignored when hart s1 does not exist */
    lw      t3, 0(t0)                   /* which reads 0 then (or faults) */
    bnez    s11, 2f
    beqz    t3, 2f
    addi    s1, s1, 1
    j       1b
2:  sd      s1, nharts, t0
    j       work

secondary:
    li      t0, MIP_MSIP
    csrw    mie, t0                     /* WFI wakes on MSIP; MIE stays 0: no trap */
3:  wfi
    csrr    t0, mip
    andi    t0, t0, MIP_MSIP
    beqz    t0, 3b
    csrw    mie, zero

work:
    /* msip[h] = 0 */
    li      t0, CLINT_MSIP
    slli    t1, s0, 2
    add     t0, t0, t1
    sw      zero, 0(t0)

    /* sum 1..100*(h+1) into sums[h] */
    addi    t0, s0, 1
    li      t1, 100
    mul     t0, t0, t1
    li      t1, 0
4:  add     t1, t1, t0
    addi    t0, t0, -1
    bnez    t0, 4b
    la      t0, sums
    slli    t2, s0, 3
    add     t0, t0, t2
    sd      t1, 0(t0)

    /* the counter under a spinlock taken with LR/SC */
    li      s2, LOCKED_ADDS
    la      s3, lock
    la      s4, counter
5:  lr.w    t0, (s3)
    bnez    t0, 5b
    li      t1, 1
    sc.w    t0, t1, (s3)
    bnez    t0, 5b
    fence   rw, rw
    ld      t1, 0(s4)
    addi    t1, t1, 1
    sd      t1, 0(s4)
    fence   rw, rw
    sw      zero, 0(s3)                 /* release */
    addi    s2, s2, -1
    bnez    s2, 5b

    /* the counter with an LR/SC increment */
    li      s2, LRSC_ADDS
6:  lr.d    t0, (s4)
    addi    t0, t0, 1
    sc.d    t1, t0, (s4)
    bnez    t1, 6b
    addi    s2, s2, -1
    bnez    s2, 6b

    /* two timer interrupts from this hart's mtimecmp, waited for in WFI */
    li      t0, MIP_MTIP
    csrw    mie, t0
    csrsi   mstatus, MSTATUS_MIE
    li      s2, 0                       /* ticks seen (the handler counts in s5) */
    li      s5, 0
7:  li      t0, CLINT_MTIME
    ld      t1, 0(t0)
    addi    t1, t1, 30
    slli    t2, s0, 4
    add     t1, t1, t2                  /* mtime + 30 + 16 * h */
    li      t0, CLINT_MTIMECMP
    slli    t2, s0, 3
    add     t0, t0, t2
    sd      t1, 0(t0)
8:  wfi
    beq     s5, s2, 8b
    addi    s2, s2, 1
    li      t0, TICKS
    bne     s2, t0, 7b
    csrci   mstatus, MSTATUS_MIE
    csrw    mie, zero
    la      t0, ticks
    slli    t2, s0, 3
    add     t0, t0, t2
    sd      s5, 0(t0)

    /* done */
    la      t0, done
    li      t1, 1
    amoadd.d zero, t1, (t0)
    bnez    s0, park

    /* hart 0: wait for all, then check */
    ld      s1, nharts
9:  ld      t1, done
    bne     t1, s1, 9b
    fence   rw, rw
    li      a0, 2
    ld      t1, counter
    li      t0, LOCKED_ADDS + LRSC_ADDS
    mul     t0, t0, s1
    bne     t1, t0, fail
    li      s2, 0
10: li      a0, 3
    la      t0, sums
    slli    t2, s2, 3
    add     t0, t0, t2
    ld      t1, 0(t0)
    addi    t3, s2, 1
    li      t4, 100
    mul     t3, t3, t4                  /* n = 100 (h + 1); sum = n (n + 1) / 2 */
    addi    t4, t3, 1
    mul     t3, t3, t4
    srli    t3, t3, 1
    bne     t1, t3, fail
    li      a0, 4
    la      t0, ticks
    slli    t2, s2, 3
    add     t0, t0, t2
    ld      t1, 0(t0)
    li      t3, TICKS
    bne     t1, t3, fail
    addi    s2, s2, 1
    bne     s2, s1, 10b
    li      a0, 0
fail:
    slli    a0, a0, 1
    ori     a0, a0, 1
    la      t0, tohost
    sd      a0, 0(t0)
11: j       11b

park:
    wfi
    j       park

/* timer interrupt: mtimecmp[h] = -1 and s5 += 1; load or store access fault (the probe):
 * s11 = 1 and skip the access; anything else: exit 5 */
    .align 4
trap:
    csrr    t5, mcause
    bgez    t5, 12f
    li      t6, CLINT_MTIMECMP
    slli    t5, s0, 3
    add     t6, t6, t5
    li      t5, -1
    sd      t5, 0(t6)
    addi    s5, s5, 1
    mret
12: li      t6, 7
    beq     t5, t6, 14f
    li      t6, 5
    bne     t5, t6, 13f
14:
    li      s11, 1
    csrr    t5, mepc
    addi    t5, t5, 4
    csrw    mepc, t5
    mret
13: li      a0, 5
    j       fail

    .data
    .balign 8
nharts:  .dword 0
counter: .dword 0
done:    .dword 0
lock:    .dword 0
sums:    .zero 8 * MAX_HARTS
ticks:   .zero 8 * MAX_HARTS

    .bss
    .balign 16
stacks:  .zero 1024 * MAX_HARTS

    .section .tohost, "aw", @progbits
    .align 6
    .globl tohost
tohost:   .dword 0
    .align 6
    .globl fromhost
fromhost: .dword 0
