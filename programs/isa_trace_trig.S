/* isa_trace_trig - Sdtrig's trace actions: mcontrol/mcontrol6 action 2 (trace-on), 3
 * (trace-off) and 4 (trace-notify), which the ingress spec ("Using trigger outputs from the
 * Debug Module") connects to the encoder's `trigger` sideband. The hart does not trap on
 * them: each pulses the ingress port's trigger input on the beat of the instruction that
 * caused it, and the N-Trace encoder stops tracing after a trace-off, starts again (SYNC 5)
 * at a trace-on, and marks a notify with ProgTraceSync SYNC 6 (Trace Event).
 *
 * hartscope-only: Spike aborts on trace actions ("trace actions are not implemented"): no
 * commit log to diff.
 *
 * What it does, in M-mode:
 *  - writes tdata1 with actions 0..5 and reads them back (WARL: 0, 2, 3, 4 stick; 1, Debug
 *    Mode without a debugger, and 5 read 0);
 *  - arms trigger 0 (mcontrol6, execute, action 3) on `off_here`, trigger 1 (mcontrol6,
 *    execute, action 2) on `on_here`, trigger 2 (mcontrol6, store, action 4) on `watched`,
 *    trigger 3 (mcontrol, load address, action 4) on `watched + 8`;
 *  - runs a loop with calls and branches three times through the region between off_here and
 *    on_here (untraced), and a traced loop that stores to and loads from the watched words;
 *  - checks that nothing trapped (mcause stays 0: a trap handler exits with code 2).
 * Exits 0 on success, else with the number of the first failed check. Its own start-up (no
 * crt0); no compressed code.
 */
#include "encoding.h"

    .option norvc
    .option norelax

#define TSELECT  0x7a0
#define TDATA1   0x7a1
#define TDATA2   0x7a2

#define M6_LOAD   (1 << 0)
#define M6_STORE  (1 << 1)
#define M6_EXEC   (1 << 2)
#define M6_M      (1 << 6)
#define ACTION(n) ((n) << 12)

/* tdata1 = type << 60 | low */
.macro TDATA1_SET type, low
    li      t0, \type
    slli    t0, t0, 60
    li      t1, \low
    or      t0, t0, t1
    csrw    TDATA1, t0
.endm

.macro SEL n
    li      t0, \n
    csrw    TSELECT, t0
.endm

/* Fail with check number n unless a0 == t0 << 60 | low. */
.macro EXPECT n, type, low
    li      t0, \type
    slli    t0, t0, 60
    li      t1, \low
    or      t0, t0, t1
    li      a1, \n
    bne     a0, t0, fail
.endm

    .section .text.init, "ax", @progbits
    .globl _start
_start:
    la      t0, trap
    csrw    mtvec, t0
    li      t0, -1
    csrw    pmpaddr0, t0
    li      t0, PMP_NAPOT | PMP_R | PMP_W | PMP_X
    csrw    pmpcfg0, t0
    la      sp, stack_top

    /* ---- the action field reads back (WARL) ---- */
    SEL     0
    .irp a, 0, 1, 2, 3, 4, 5
    TDATA1_SET 6, ACTION(\a) | M6_M
    csrr    a0, TDATA1
    .if \a == 1 || \a == 5
    EXPECT  (10 + \a), 6, M6_M
    .else
    EXPECT  (10 + \a), 6, ACTION(\a) | M6_M
    .endif
    .endr
    TDATA1_SET 2, ACTION(4) | M6_M | M6_LOAD
    csrr    a0, TDATA1
    EXPECT  16, 2, ACTION(4) | M6_M | M6_LOAD
    csrw    TDATA1, zero

    /* ---- arm the triggers ---- */
    SEL     0
    la      t0, off_here
    csrw    TDATA2, t0
    TDATA1_SET 6, ACTION(3) | M6_M | M6_EXEC
    SEL     1
    la      t0, on_here
    csrw    TDATA2, t0
    TDATA1_SET 6, ACTION(2) | M6_M | M6_EXEC
    SEL     2
    la      t0, watched
    csrw    TDATA2, t0
    TDATA1_SET 6, ACTION(4) | M6_M | M6_STORE
    SEL     3
    la      t0, watched + 8
    csrw    TDATA2, t0
    TDATA1_SET 2, ACTION(4) | M6_M | M6_LOAD

    li      s0, 3                       /* rounds */
    li      s1, 0                       /* sum */
round:
    /* traced: stores to the watched word (notify), loads the other (notify) */
    la      s2, watched
    li      s3, 4
1:  sd      s3, 0(s2)                   /* notify (store) */
    ld      t2, 8(s2)                   /* notify (load) */
    add     s1, s1, t2
    addi    s3, s3, -1
    bnez    s3, 1b
    nop
off_here:
    nop                                 /* trace-off: traced, then nothing */
    li      s3, 5
2:  call    work
    andi    t0, s3, 1
    beqz    t0, 3f
    addi    s1, s1, 1
3:  addi    s3, s3, -1
    bnez    s3, 2b
    sd      s3, 0(s2)                   /* notify while trace is off: nothing */
on_here:
    addi    s1, s1, 2                   /* trace-on: traced from here */
    call    work
    addi    s0, s0, -1
    bnez    s0, round

    /* ---- nothing trapped; the sum is what the loops make ---- */
    csrr    a0, mcause
    li      a1, 20
    bnez    a0, fail
    /* each round: 4 loads of 7, 3 odd counts, 2; work adds 3 six times */
    li      t0, 3 * (4 * 7 + 3 + 2 + 6 * 3)
    li      a1, 21
    bne     s1, t0, fail

    /* all triggers off */
    .irp n, 0, 1, 2, 3
    SEL     \n
    csrw    TDATA1, zero
    .endr
    li      t0, 1
    j       exit

work:
    addi    s1, s1, 3
    ret

fail:
    slli    t0, a1, 1
    ori     t0, t0, 1
exit:
    la      t1, tohost
1:  sd      t0, 0(t1)
    j       1b

    .balign 4
trap:
    li      a1, 2
    j       fail

    .data
    .balign 64
watched:
    .dword 0, 7, 0, 0
    .balign 16
stack:
    .skip 256
stack_top:
    .section .tohost, "aw", @progbits
    .align 6
    .globl tohost
tohost:   .dword 0
    .align 6
