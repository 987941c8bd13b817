/* isa_zb - every instruction of Zba, Zbb, Zbs and Zicond over a few operand pairs, under a
 * trap handler that skips what traps (so the same ELF runs with any of them off: each then
 * raises illegal instruction with its bits in mtval). It always exits 0: the tests diff its
 * commit log against Spike's with the same ISA string.
 *
 * Its own start-up, as isa_probe's. Zicond is newer than the assembler: spelled with .insn.
 */
#include "encoding.h"

    .option norvc
    .option norelax
    .option arch, +zba, +zbb, +zbs

/* czero.eqz/czero.nez rd, rs1, rs2: OP, funct7 0000111, funct3 101/111 */
.macro CZERO_EQZ rd, rs1, rs2
    .insn r 0x33, 5, 7, \rd, \rs1, \rs2
.endm
.macro CZERO_NEZ rd, rs1, rs2
    .insn r 0x33, 7, 7, \rd, \rs1, \rs2
.endm

.macro ALL
    /* Zba */
    add.uw  a0, a1, a2
    sh1add  a0, a1, a2
    sh2add  a0, a1, a2
    sh3add  a0, a1, a2
    sh1add.uw a0, a1, a2
    sh2add.uw a0, a1, a2
    sh3add.uw a0, a1, a2
    slli.uw a0, a1, 0
    slli.uw a0, a1, 5
    slli.uw a0, a1, 63
    /* Zbb */
    andn    a0, a1, a2
    orn     a0, a1, a2
    xnor    a0, a1, a2
    clz     a0, a1
    clzw    a0, a1
    ctz     a0, a1
    ctzw    a0, a1
    cpop    a0, a1
    cpopw   a0, a1
    max     a0, a1, a2
    maxu    a0, a1, a2
    min     a0, a1, a2
    minu    a0, a1, a2
    sext.b  a0, a1
    sext.h  a0, a1
    zext.h  a0, a1
    rol     a0, a1, a2
    ror     a0, a1, a2
    rolw    a0, a1, a2
    rorw    a0, a1, a2
    rori    a0, a1, 0
    rori    a0, a1, 13
    rori    a0, a1, 63
    roriw   a0, a1, 0
    roriw   a0, a1, 7
    roriw   a0, a1, 31
    orc.b   a0, a1
    rev8    a0, a1
    /* Zbs */
    bclr    a0, a1, a2
    bext    a0, a1, a2
    binv    a0, a1, a2
    bset    a0, a1, a2
    bclri   a0, a1, 0
    bclri   a0, a1, 63
    bexti   a0, a1, 31
    bexti   a0, a1, 40
    binvi   a0, a1, 1
    binvi   a0, a1, 62
    bseti   a0, a1, 7
    bseti   a0, a1, 33
    /* Zicond */
    CZERO_EQZ a0, a1, a2
    CZERO_NEZ a0, a1, a2
    CZERO_EQZ a0, a1, zero
    CZERO_NEZ a0, a1, zero
.endm

    .section .text.init, "ax", @progbits
    .globl _start
_start:
    la      t0, trap
    csrw    mtvec, t0
    csrr    a0, misa

    li      a1, 0x80000000ffff0f01
    li      a2, 0x43
    ALL
    li      a1, 0
    li      a2, -1
    ALL
    li      a1, 0x00000000f0000080
    li      a2, 0x7fffffff80008000
    ALL
    li      a1, -2
    li      a2, 1
    ALL

    /* rd = x0: nothing written */
    clz     zero, a1
    sh1add  zero, a1, a2

    /* exit 0 through HTIF */
    li      t0, 1
    la      t1, tohost
2:  sd      t0, 0(t1)
    j       2b

/* Skip the instruction that trapped (every one is 4 bytes here). */
    .balign 4
trap:
    csrr    t6, mcause
    csrr    t6, mtval
    csrr    t6, mepc
    addi    t6, t6, 4
    csrw    mepc, t6
    mret

    .section .tohost, "aw", @progbits
    .align 6
    .globl tohost
tohost:   .dword 0
    .align 6
    .globl fromhost
fromhost: .dword 0
