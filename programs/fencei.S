/* fencei - self-modifying code made visible with fence.i: copy a function into
 * a data buffer and run it; rewrite one instruction of it and run again;
 * patch the body of a loop between runs; patch 16-bit (compressed)
 * instructions with sh; patch an instruction in the currently executing
 * function just ahead of the pc; store then fence.i then execute repeatedly.
 * (Behaviour without fence.i is not tested: it is not specified.) */
#include "test_macros.h"

/* copy [from, to) into the code buffer at a0 (word-aligned sizes) */
.macro COPY_CODE dst, from, to
  la a0, \dst
  la a1, \from
  la a2, \to
1:
  lwu t0, 0(a1)
  sw t0, 0(a0)
  addi a0, a0, 4
  addi a1, a1, 4
  bltu a1, a2, 1b
.endm

    .text
    .globl main
main:
    /* 1. run a copied function, then rewrite its first instruction */
    COPY_CODE codebuf, tmpl_ret42, tmpl_ret42_end
    fence.i
    li      a0, 0
    la      t1, codebuf
    jalr    ra, 0(t1)
    CHECK_EQ 1, a0, 42
    la      t1, tmpl_li43
    lwu     t0, 0(t1)
    la      t1, codebuf
    sw      t0, 0(t1)
    fence.i
    li      a0, 0
    jalr    ra, 0(t1)
    CHECK_EQ 2, a0, 43
    /* again, back to 42, several times */
    li      s1, 5
2:  la      t1, tmpl_ret42
    lwu     t0, 0(t1)
    la      t1, codebuf
    sw      t0, 0(t1)
    fence.i
    li      a0, 0
    jalr    ra, 0(t1)
    CHECK_EQ 3, a0, 42
    la      t1, tmpl_li43
    lwu     t0, 0(t1)
    la      t1, codebuf
    sw      t0, 0(t1)
    fence.i
    jalr    ra, 0(t1)
    CHECK_EQ 4, a0, 43
    addi    s1, s1, -1
    bnez    s1, 2b

    /* 2. patch a loop body */
    COPY_CODE codebuf, tmpl_loop, tmpl_loop_end
    fence.i
    li      a0, 0
    li      a1, 10
    la      t1, codebuf
    jalr    ra, 0(t1)
    CHECK_EQ 5, a0, 10
    la      t1, tmpl_add3
    lwu     t0, 0(t1)
    la      t1, codebuf
    sw      t0, 0(t1)                    /* addi a0, a0, 1 -> addi a0, a0, 3 */
    fence.i
    li      a0, 0
    li      a1, 10
    jalr    ra, 0(t1)
    CHECK_EQ 6, a0, 30
    /* patch the loop's branch into a nop: the body runs once */
    la      t1, tmpl_nop
    lwu     t0, 0(t1)
    la      t1, codebuf
    sw      t0, 8(t1)
    fence.i
    li      a0, 0
    li      a1, 10
    jalr    ra, 0(t1)
    CHECK_EQ 7, a0, 3

    /* 3. compressed instructions patched with 16-bit stores */
    COPY_CODE codebuf, tmpl_c, tmpl_c_end
    fence.i
    li      a0, 0
    la      t1, codebuf
    jalr    ra, 0(t1)
    CHECK_EQ 8, a0, 7
    la      t1, tmpl_c_li9
    lhu     t0, 0(t1)
    la      t1, codebuf
    sh      t0, 0(t1)                    /* c.li a0, 5 -> c.li a0, 9 */
    fence.i
    li      a0, 0
    jalr    ra, 0(t1)
    CHECK_EQ 9, a0, 11
    la      t1, tmpl_c_addi5
    lhu     t0, 0(t1)
    la      t1, codebuf
    sh      t0, 2(t1)                    /* c.addi a0, 2 -> c.addi a0, 5 */
    fence.i
    jalr    ra, 0(t1)
    CHECK_EQ 10, a0, 14

    /* 4. patch the code that is executing, just ahead of the pc */
    COPY_CODE codebuf, tmpl_self, tmpl_self_end
    fence.i
    li      a0, 0
    la      t1, codebuf
    jalr    ra, 0(t1)
    CHECK_EQ 11, a0, 100                 /* the patched instruction ran */
    /* the buffer now holds the patched version: running again gives 100 too */
    li      a0, 0
    la      t1, codebuf
    jalr    ra, 0(t1)
    CHECK_EQ 12, a0, 100

    /* 5. generate 64 different functions in turn */
    li      s1, 0
3:  la      t1, tmpl_ret42
    lwu     t0, 0(t1)
    /* replace the 12-bit immediate (bits 31:20) with s1 */
    slli    t0, t0, 44
    srli    t0, t0, 44
    slli    t2, s1, 20
    or      t0, t0, t2
    la      t1, codebuf
    sw      t0, 0(t1)
    la      t2, tmpl_ret42 + 4
    lwu     t2, 0(t2)
    sw      t2, 4(t1)
    fence.i
    li      a0, -1
    jalr    ra, 0(t1)
    CHECK_EQR 13, a0, s1
    addi    s1, s1, 1
    li      t0, 64
    bne     s1, t0, 3b

    TEST_PASS

/* ---------------- templates (copied, never run in place) ---------------- */
    .balign 4
    .option push
    .option norvc
tmpl_ret42:
    addi    a0, zero, 42
    jalr    zero, 0(ra)
tmpl_ret42_end:
tmpl_li43:
    addi    a0, zero, 43
tmpl_add3:
    addi    a0, a0, 3
tmpl_nop:
    addi    zero, zero, 0
tmpl_loop:
    addi    a0, a0, 1            /* +0 */
    addi    a1, a1, -1           /* +4 */
    bnez    a1, tmpl_loop        /* +8 (pc-relative: position independent) */
    jalr    zero, 0(ra)          /* +12 */
tmpl_loop_end:
    .option pop
    .balign 4
tmpl_c:
    c.li    a0, 5
    c.addi  a0, 2
    c.jr    ra
    c.nop
tmpl_c_end:
tmpl_c_li9:
    c.li    a0, 9
tmpl_c_addi5:
    c.addi  a0, 5
    c.nop
    .balign 4
    .option push
    .option norvc
/* self-patching: overwrite the instruction at "target" with "addi a0, zero, 100" */
tmpl_self:
    auipc   t2, 0
    lwu     t3, 24(t2)                   /* tmpl_self_new */
    sw      t3, 16(t2)                   /* tmpl_self_target */
    fence.i
tmpl_self_target:
    addi    a0, zero, 1
    jalr    zero, 0(ra)
tmpl_self_new:
    addi    a0, zero, 100
tmpl_self_end:
    .option pop

    .data
    .balign 64
codebuf:
    .space  256
