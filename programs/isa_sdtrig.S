/* isa_sdtrig - Sdtrig: the debug triggers, as Spike has them (4 triggers; mcontrol,
 * icount, itrigger, etrigger, mcontrol6). It always exits 0: the tests diff its commit log
 * against Spike's.
 *
 * What it looks at, in order:
 *  - the CSRs: tselect (a value past the last trigger is ignored), tinfo, tdata1 of each type
 *    written with all ones (what sticks: dmode stays 0, action 1 and match values Spike does
 *    not know become 0, mcontrol's NAPOT becomes equal), tdata2, tdata3 (textra), mcontext
 *    and scontext;
 *  - execute triggers in M-mode: none fires with mstatus.MIE clear, one fires with it set
 *    (equal, NAPOT, a >= / < chain, a match on an instruction's 16-bit parcel (select), and
 *    mcontrol6 with textra's mhselect comparing mcontext);
 *  - load triggers: on the address (before: the load does not happen), on the value (after:
 *    the breakpoint comes at the next instruction), a chain of address and value;
 *  - store triggers: on the address and on the value (before), and mcontrol with timing after;
 *  - an AMO and LR/SC under load and store triggers;
 *  - U-mode: an execute trigger with u = 1, a store trigger with s = 0 that does not fire;
 *  - icount in U-mode (count 3) and in M-mode (count 2);
 *  - etrigger on an ecall from U delegated to S: the breakpoint comes at S's handler.
 *
 * The M-mode handler reads every trigger's tdata1 (the hit bits) on a breakpoint, disables
 * them all, and returns to where it came from (mepc: the instruction again when the trigger
 * fired before it, the next one after). Its own start-up (no crt0); no compressed code.
 * a7 = 99 on an illegal instruction (`unimp`) asks to go on in M-mode.
 */
#include "encoding.h"

    .option norvc
    .option norelax

#define TSELECT  0x7a0
#define TDATA1   0x7a1
#define TDATA2   0x7a2
#define TDATA3   0x7a3
#define TINFO    0x7a4
#define MCONTEXT 0x7a8
#define SCONTEXT 0x5a8

/* t0 = type << 60 | low (low fits 32 bits) */
.macro TDATA1_SET type, low
    li      t0, \type
    slli    t0, t0, 60
    li      t1, \low
    or      t0, t0, t1
    csrw    TDATA1, t0
.endm

/* mcontrol6 bits */
#define M6_LOAD   (1 << 0)
#define M6_STORE  (1 << 1)
#define M6_EXEC   (1 << 2)
#define M6_U      (1 << 3)
#define M6_S      (1 << 4)
#define M6_M      (1 << 6)
#define M6_MATCH(n) ((n) << 7)
#define M6_CHAIN  (1 << 11)
#define M6_SELECT (1 << 21)
/* mcontrol: the same low bits, select at 19, timing at 18 */
#define MC_SELECT (1 << 19)
#define MC_TIMING (1 << 18)

.macro SEL n
    li      t0, \n
    csrw    TSELECT, t0
.endm

.macro MIE_ON
    csrsi   mstatus, MSTATUS_MIE
.endm

/* Go to mode `mpp` at label `to` (MIE stays as it is). */
.macro ENTER mpp, to
    li      t0, MSTATUS_MPP
    csrc    mstatus, t0
    li      t0, \mpp
    csrs    mstatus, t0
    la      t0, \to
    csrw    mepc, t0
    mret
.endm

/* From S or U: back to M-mode after this. */
.macro BACK_TO_M
    li      a7, 99
    unimp
.endm

    .section .text.init, "ax", @progbits
    .globl _start
_start:
    la      t0, trap
    csrw    mtvec, t0
    la      t0, strap
    csrw    stvec, t0
    li      t0, -1
    csrw    pmpaddr0, t0
    li      t0, PMP_NAPOT | PMP_R | PMP_W | PMP_X
    csrw    pmpcfg0, t0
    li      a7, 0

    /* ---- the CSRs ---- */
    csrr    a0, TSELECT
    li      t0, 7
    csrw    TSELECT, t0                 /* ignored: there are 4 */
    csrr    a0, TSELECT
    SEL     3
    csrr    a0, TSELECT
    csrr    a0, TINFO
    csrw    TINFO, zero
    csrr    a0, TDATA1
    SEL     0
    csrr    a0, TINFO
    csrr    a0, TDATA1
    csrr    a0, TDATA2
    csrr    a0, TDATA3
    li      s0, -1
    srli    s1, s0, 4                   /* all ones below the type */
    .irp ty, 2, 3, 4, 5, 6, 7, 15
    li      t0, \ty
    slli    t0, t0, 60
    or      t0, t0, s1
    csrw    TDATA1, t0
    csrr    a0, TDATA1
    .endr
    /* mcontrol NAPOT becomes equal; mcontrol6 keeps it; match 7, 8 become 0 */
    TDATA1_SET 2, M6_M | M6_MATCH(1)
    csrr    a0, TDATA1
    TDATA1_SET 6, M6_M | M6_MATCH(1)
    csrr    a0, TDATA1
    TDATA1_SET 6, M6_M | M6_MATCH(7)
    csrr    a0, TDATA1
    TDATA1_SET 6, M6_M | M6_MATCH(8)
    csrr    a0, TDATA1
    /* action 1 (Debug Mode) and 5 become 0; 2-4 stay */
    TDATA1_SET 6, M6_M | (1 << 12)
    csrr    a0, TDATA1
    TDATA1_SET 6, M6_M | (3 << 12)
    csrr    a0, TDATA1
    TDATA1_SET 6, M6_M | (5 << 12)
    csrr    a0, TDATA1
    /* mcontrol timing: kept, but after for a load value, before for execute */
    TDATA1_SET 2, M6_STORE | MC_TIMING
    csrr    a0, TDATA1
    TDATA1_SET 2, M6_EXEC | MC_TIMING
    csrr    a0, TDATA1
    TDATA1_SET 2, M6_LOAD | MC_SELECT
    csrr    a0, TDATA1
    csrw    TDATA2, s0
    csrr    a0, TDATA2
    csrw    TDATA3, s0
    csrr    a0, TDATA3
    li      t0, 0x0001000300000002      /* mhselect 1 -> 0, sselect 2 */
    csrw    TDATA3, t0
    csrr    a0, TDATA3
    li      t0, 0x0006000000000003      /* mhselect 6 -> 4, sselect 3 -> 0 */
    csrw    TDATA3, t0
    csrr    a0, TDATA3
    csrw    TDATA3, zero
    csrw    MCONTEXT, s0
    csrr    a0, MCONTEXT
    csrw    SCONTEXT, s0
    csrr    a0, SCONTEXT
    csrw    MCONTEXT, zero
    csrw    SCONTEXT, zero
    csrw    TDATA1, zero
    csrr    a0, TDATA1

    /* ---- execute, M-mode ---- */
    SEL     0
    la      t1, x1
    csrw    TDATA2, t1
    TDATA1_SET 6, M6_M | M6_EXEC
    nop
x1: addi    a1, a1, 1                   /* MIE clear: nothing */
    SEL     0
    csrr    a0, TDATA1
    la      t1, x2
    csrw    TDATA2, t1
    MIE_ON
    nop
x2: addi    a1, a1, 2                   /* fires before */
    /* NAPOT over 16 bytes at x3 (mcontrol6) */
    SEL     1
    la      t1, x3
    addi    t1, t1, 7
    csrw    TDATA2, t1
    TDATA1_SET 6, M6_M | M6_EXEC | M6_MATCH(1)
    MIE_ON
    nop
    .balign 16
x3: addi    a1, a1, 3
    /* a chain: >= x4 and < x4 + 8 (mcontrol) */
    SEL     2
    la      t1, x4
    csrw    TDATA2, t1
    TDATA1_SET 2, M6_M | M6_EXEC | M6_MATCH(2) | M6_CHAIN
    SEL     3
    la      t1, x4
    addi    t1, t1, 8
    csrw    TDATA2, t1
    TDATA1_SET 2, M6_M | M6_EXEC | M6_MATCH(3)
    MIE_ON
    nop
    addi    a1, a1, 4
x4: addi    a1, a1, 5
    /* select: the low parcel of `xori s9, s9, 0x5a5` */
    SEL     0
    la      t1, x5
    lwu     t1, 0(t1)
    li      t2, 0xffff
    and     t1, t1, t2
    csrw    TDATA2, t1
    TDATA1_SET 6, M6_M | M6_EXEC | M6_SELECT
    MIE_ON
    nop
x5: xori    s9, s9, 0x5a5
    /* textra: mhselect 4 compares mcontext with mhvalue 5 */
    SEL     1
    la      t1, x6
    csrw    TDATA2, t1
    li      t0, (5 << 19) | (4 << 16)
    slli    t0, t0, 32
    csrw    TDATA3, t0
    TDATA1_SET 6, M6_M | M6_EXEC
    MIE_ON
    nop
x6: addi    a1, a1, 6                   /* mcontext 0: nothing */
    li      t0, 5
    csrw    MCONTEXT, t0
    SEL     1
    la      t1, x7
    csrw    TDATA2, t1
    TDATA1_SET 6, M6_M | M6_EXEC
    MIE_ON
    nop
x7: addi    a1, a1, 7                   /* fires */
    csrw    MCONTEXT, zero
    SEL     1
    csrw    TDATA3, zero

    /* ---- loads ---- */
    la      s2, data
    SEL     0
    addi    t1, s2, 8
    csrw    TDATA2, t1
    TDATA1_SET 6, M6_M | M6_LOAD
    MIE_ON
    ld      a2, 0(s2)                   /* another address */
    ld      a2, 8(s2)                   /* fires before */
    addi    a1, a1, 8
    /* the value (after) */
    SEL     0
    li      t1, 0x1234
    csrw    TDATA2, t1
    TDATA1_SET 6, M6_M | M6_LOAD | M6_SELECT
    csrr    a0, TDATA1
    MIE_ON
    lw      a2, 16(s2)                  /* 0x1234: fires after */
    addi    a1, a1, 9
    /* a chain: address data+24 and value 0x77 */
    SEL     0
    addi    t1, s2, 24
    csrw    TDATA2, t1
    TDATA1_SET 6, M6_M | M6_LOAD | M6_CHAIN
    SEL     1
    li      t1, 0x77
    csrw    TDATA2, t1
    TDATA1_SET 6, M6_M | M6_LOAD | M6_SELECT
    MIE_ON
    lbu     a2, 16(s2)                  /* value 0x34: nothing */
    lbu     a2, 24(s2)                  /* 0x77 at data+24: fires after */
    addi    a1, a1, 10
    csrr    a0, TDATA1

    /* ---- stores ---- */
    SEL     2
    addi    t1, s2, 32
    csrw    TDATA2, t1
    TDATA1_SET 6, M6_M | M6_STORE
    MIE_ON
    sd      a1, 40(s2)
    sw      a1, 32(s2)                  /* fires before: not stored */
    ld      a2, 32(s2)
    SEL     2
    li      t1, 0xabc
    csrw    TDATA2, t1
    TDATA1_SET 6, M6_M | M6_STORE | M6_SELECT
    MIE_ON
    li      t1, 0xabc
    sh      t1, 48(s2)                  /* the value: fires before */
    ld      a2, 48(s2)
    SEL     2
    addi    t1, s2, 56
    csrw    TDATA2, t1
    TDATA1_SET 2, M6_M | M6_STORE | MC_TIMING
    MIE_ON
    sd      s0, 56(s2)                  /* mcontrol, after: stored, then the breakpoint */
    addi    a1, a1, 11
    ld      a2, 56(s2)

    /* ---- atomics ---- */
    SEL     0
    addi    t1, s2, 64
    csrw    TDATA2, t1
    TDATA1_SET 6, M6_M | M6_STORE
    MIE_ON
    addi    t2, s2, 64
    li      t1, 5
    amoadd.d a3, t1, (t2)               /* the store side fires */
    ld      a2, 64(s2)
    SEL     0
    TDATA1_SET 6, M6_M | M6_LOAD
    MIE_ON
    lr.d    a3, (t2)                    /* fires before */
    SEL     0
    TDATA1_SET 6, M6_M | M6_STORE
    lr.d    a3, (t2)
    MIE_ON
    sc.d    a4, t1, (t2)                /* fires before */
    ld      a2, 64(s2)

    /* ---- U-mode ---- */
    csrci   mstatus, MSTATUS_MIE
    SEL     0
    la      t1, u1
    csrw    TDATA2, t1
    TDATA1_SET 6, M6_U | M6_EXEC
    SEL     1
    addi    t1, s2, 72
    csrw    TDATA2, t1
    TDATA1_SET 6, M6_M | M6_S | M6_STORE  /* not in U */
    ENTER   MSTATUS_MPP_U, user1
user1:
    sd      a1, 72(s2)
    addi    a1, a1, 12
u1: addi    a1, a1, 13                  /* fires before */
    BACK_TO_M
    /* icount 3 in U */
    SEL     3
    TDATA1_SET 3, (3 << 10) | (1 << 6)
    csrr    a0, TDATA1
    ENTER   MSTATUS_MPP_U, user2
user2:
    addi    a1, a1, 14
    addi    a1, a1, 15
    addi    a1, a1, 16
    addi    a1, a1, 17                  /* fires before this */
    addi    a1, a1, 18
    BACK_TO_M
    /* icount 2 in M */
    SEL     3
    MIE_ON
    TDATA1_SET 3, (2 << 10) | (1 << 9)
    csrr    a0, TDATA1
    addi    a1, a1, 19
    addi    a1, a1, 20                  /* fires before this */
    addi    a1, a1, 21

    /* ---- etrigger: ecall from U, delegated to S ---- */
    csrci   mstatus, MSTATUS_MIE
    li      t0, 1 << 8
    csrs    medeleg, t0
    SEL     2
    li      t1, 1 << 8
    csrw    TDATA2, t1
    TDATA1_SET 5, (1 << 6)
    csrr    a0, TDATA1
    ENTER   MSTATUS_MPP_U, user3
user3:
    ecall                               /* to S; then the breakpoint at strap */
    addi    a1, a1, 22
    BACK_TO_M
    li      t0, 1 << 8
    csrc    medeleg, t0

    /* the end */
    li      t0, 1
    la      t1, tohost
1:  sd      t0, 0(t1)
    j       1b

    .balign 4
trap:
    csrr    t5, mcause
    csrr    t6, mtval
    li      t4, 3
    bne     t5, t4, 2f
    /* a breakpoint: every trigger's tdata1, then all off */
    csrr    t3, TSELECT
    .irp n, 0, 1, 2, 3
    li      t4, \n
    csrw    TSELECT, t4
    csrr    t4, TDATA1
    csrw    TDATA1, zero
    .endr
    csrw    TSELECT, t3
    mret
2:  li      t4, 99
    bne     a7, t4, 3f
    /* back to M after the instruction */
    li      a7, 0
    li      t4, MSTATUS_MPP
    csrs    mstatus, t4
3:  csrr    t4, mepc
    addi    t4, t4, 4
    csrw    mepc, t4
    mret

    .balign 4
strap:
    csrr    t5, scause
    csrr    t4, sepc
    addi    t4, t4, 4
    csrw    sepc, t4
    sret

    .data
    .balign 64
data:
    .dword 0x1111, 0x2222, 0x1234, 0x77, 0, 0, 0, 0, 0, 0
    .section .tohost, "aw", @progbits
    .align 6
    .globl tohost
tohost:   .dword 0
    .align 6
    .globl fromhost
fromhost: .dword 0
