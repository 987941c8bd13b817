/* isa_zcb - every Zcb instruction (c.lbu, c.lhu, c.lh, c.sb, c.sh, c.zext.b, c.sext.b,
 * c.zext.h, c.sext.h, c.zext.w, c.not, c.mul) over a few operands, under a trap handler that
 * skips what traps (2 or 4 bytes, by mtval's low bits), so the same ELF runs with Zcb off
 * (each then raises illegal instruction with its bits in mtval) and with Zcb on but M, Zba
 * or Zbb off (c.mul, c.zext.w, c.sext.b/c.zext.h/c.sext.h then trap). It always exits 0: the
 * tests diff its commit log against Spike's with the same ISA string. Needs C (Zcb does).
 *
 * Its own start-up, as isa_probe's. Zcb is newer than the assembler: spelled with .hword.
 * Everything else is 32-bit (.option norvc), so only the Zcb instructions are compressed.
 */
#include "encoding.h"

    .option norvc
    .option norelax

/* Registers are x8..x15 given as numbers (rd', rs1', rs2'). */
#define R(x) ((x) - 8)

/* c.lbu rd', uimm(rs1'): 100 000 rs1' uimm[0] uimm[1] rd' 00 */
.macro C_LBU rd, uimm, rs1
    .hword 0x8000 | (R(\rs1) << 7) | ((\uimm & 1) << 6) | (((\uimm >> 1) & 1) << 5) | (R(\rd) << 2)
.endm
/* c.lhu rd', uimm(rs1'): 100 001 rs1' 0 uimm[1] rd' 00 */
.macro C_LHU rd, uimm, rs1
    .hword 0x8400 | (R(\rs1) << 7) | (((\uimm >> 1) & 1) << 5) | (R(\rd) << 2)
.endm
/* c.lh rd', uimm(rs1'): 100 001 rs1' 1 uimm[1] rd' 00 */
.macro C_LH rd, uimm, rs1
    .hword 0x8440 | (R(\rs1) << 7) | (((\uimm >> 1) & 1) << 5) | (R(\rd) << 2)
.endm
/* c.sb rs2', uimm(rs1'): 100 010 rs1' uimm[0] uimm[1] rs2' 00 */
.macro C_SB rs2, uimm, rs1
    .hword 0x8800 | (R(\rs1) << 7) | ((\uimm & 1) << 6) | (((\uimm >> 1) & 1) << 5) | (R(\rs2) << 2)
.endm
/* c.sh rs2', uimm(rs1'): 100 011 rs1' 0 uimm[1] rs2' 00 */
.macro C_SH rs2, uimm, rs1
    .hword 0x8c00 | (R(\rs1) << 7) | (((\uimm >> 1) & 1) << 5) | (R(\rs2) << 2)
.endm
/* The unary ones: 100 111 rd' 11 funct 01 */
.macro C_UNARY funct, rd
    .hword 0x9c61 | (R(\rd) << 7) | (\funct << 2)
.endm
/* c.mul rd', rs2': 100 111 rd' 10 rs2' 01 */
.macro C_MUL rd, rs2
    .hword 0x9c41 | (R(\rd) << 7) | (R(\rs2) << 2)
.endm

/* Every unary operation on a copy of a1 in a0, and c.mul of a0 by a2 (a0 = x10). */
.macro ARITH
    mv      a0, a1
    C_UNARY 0, 10           /* c.zext.b a0 */
    mv      a0, a1
    C_UNARY 1, 10           /* c.sext.b a0 */
    mv      a0, a1
    C_UNARY 2, 10           /* c.zext.h a0 */
    mv      a0, a1
    C_UNARY 3, 10           /* c.sext.h a0 */
    mv      a0, a1
    C_UNARY 4, 10           /* c.zext.w a0 */
    mv      a0, a1
    C_UNARY 5, 10           /* c.not a0 */
    mv      a0, a1
    C_MUL   10, 12          /* c.mul a0, a2 */
    mv      s0, a1
    C_UNARY 0, 8            /* c.zext.b s0 */
    C_UNARY 5, 15           /* c.not a5 */
    C_MUL   15, 8           /* c.mul a5, s0 */
.endm

    .section .text.init, "ax", @progbits
    .globl _start
_start:
    la      t0, trap
    csrw    mtvec, t0
    csrr    a0, misa

    /* loads: every offset, of bytes and halfwords with the sign bit set and clear */
    la      a1, data
    C_LBU   10, 0, 11
    C_LBU   10, 1, 11
    C_LBU   10, 2, 11
    C_LBU   10, 3, 11
    C_LHU   10, 0, 11
    C_LHU   10, 2, 11
    C_LH    10, 0, 11
    C_LH    10, 2, 11
    addi    s1, a1, 4
    C_LBU   8, 0, 9
    C_LBU   15, 3, 9
    C_LH    12, 2, 9
    C_LHU   13, 0, 9

    /* stores: every offset, then read back */
    la      a1, scratch
    li      a2, 0x1234567890abcdef
    C_SB    12, 0, 11
    C_SB    12, 1, 11
    C_SB    12, 2, 11
    C_SB    12, 3, 11
    C_SH    12, 0, 11
    C_SH    12, 2, 11
    C_SB    15, 3, 11
    C_SH    8, 2, 11
    ld      a0, 0(a1)

    li      a1, 0x80000000ffff0f81
    li      a2, 0x43
    ARITH
    li      a1, 0
    li      a2, -1
    ARITH
    li      a1, 0x00000000f0008000
    li      a2, 0x7fffffff80008000
    ARITH
    li      a1, -2
    li      a2, 3
    ARITH

    /* exit 0 through HTIF */
    li      t0, 1
    la      t1, tohost
2:  sd      t0, 0(t1)
    j       2b

/* Skip the instruction that trapped: 2 bytes when mtval's low bits are not 11. */
    .balign 4
trap:
    csrr    t6, mcause
    csrr    t5, mtval
    csrr    t6, mepc
    andi    t5, t5, 3
    addi    t6, t6, 2
    li      t4, 3
    bne     t5, t4, 1f
    addi    t6, t6, 2
1:  csrw    mepc, t6
    mret

    .data
    .balign 8
data:
    .byte   0x81, 0x7f, 0x00, 0xff, 0xfe, 0x80, 0x34, 0x12
scratch:
    .dword  0

    .section .tohost, "aw", @progbits
    .align 6
    .globl tohost
tohost:   .dword 0
    .align 6
    .globl fromhost
fromhost: .dword 0
