/* bootrom - the boot ROM at 0x1000, as Spike's: the reset vector (auipc t0, 0;
 * addi a1, t0, 32; csrr a0, mhartid; ld t0, 24(t0); jr t0; 0), the entry point
 * as a doubleword at 0x1018 and the device tree blob at 0x1020. Loads of every
 * width read it, stores to it are access faults (cause 7), and its instructions
 * are fetched and run: the program jumps to 0x1008 with t0 pointing 24 bytes
 * before a slot holding the way back (so the ROM's `ld t0, 24(t0); jr t0`
 * returns), and to 0x1014, whose zero word is an illegal instruction (cause 2,
 * not a fetch access fault).
 * Expected result: exit code 0; else the number of the first failed check. */
#include "test_macros.h"

/* TRAP_INSN n, cause, tval, insn: insn must trap to M with mtval == tval */
.macro TRAP_INSN n, cause, tval, insn:vararg
  ARM_M .Lr\@
.Li\@:
  \insn
  FAIL \n
.Lr\@:
  CHECK_CAUSE_M \n, \cause
  CHECK_TVAL_M_IMM \n, \tval
  CHECK_EPC_M \n, .Li\@
.endm

    .data
    .align 3
back_slot:
    .dword 0

    .text
    .globl main
main:
    li      s0, 0x1000
    /* 2-7: the reset vector's words */
    lwu     t0, 0(s0)
    CHECK_EQ 2, t0, 0x00000297
    lwu     t0, 4(s0)
    CHECK_EQ 3, t0, 0x02028593
    lwu     t0, 8(s0)
    CHECK_EQ 4, t0, 0xf1402573
    lwu     t0, 12(s0)
    CHECK_EQ 5, t0, 0x0182b283
    lwu     t0, 16(s0)
    CHECK_EQ 6, t0, 0x00028067
    lwu     t0, 20(s0)
    CHECK_EQ 7, t0, 0
    /* 8: the entry point at 0x1018 */
    ld      t0, 24(s0)
    la      t1, _start
    CHECK_EQR 8, t0, t1
    /* 9-11: the device tree at 0x1020 (magic 0xd00dfeed, big-endian) */
    lbu     t0, 32(s0)
    CHECK_EQ 9, t0, 0xd0
    lhu     t0, 34(s0)
    CHECK_EQ 10, t0, 0xedfe
    lwu     t0, 32(s0)
    CHECK_EQ 11, t0, 0xedfe0dd0
    /* 12-13: stores fault, mtval = the address */
    TRAP_INSN 12, CAUSE_STORE_ACCESS, 0x1000, sw zero, 0(s0)
    TRAP_INSN 13, CAUSE_STORE_ACCESS, 0x1021, sb zero, 33(s0)
    /* 14-15: the ROM's instructions run: csrr a0, mhartid; ld t0, 24(t0); jr t0 */
    la      t0, rom_back
    la      t1, back_slot
    sd      t0, 0(t1)
    addi    t0, t1, -24
    li      a0, -1
    li      t2, 0x1008
    jr      t2
rom_back:
    CHECK_EQ 14, a0, 0
    la      t1, rom_back
    CHECK_EQR 15, t0, t1
    /* 16-17: the zero word at 0x1014 is fetched and is illegal */
    ARM_M   1f
    li      t2, 0x1014
    jr      t2
    FAIL    16
1:
    CHECK_CAUSE_M 16, CAUSE_ILLEGAL_INSTRUCTION
    CHECK_MEM 17, trap_epc_m, 0x1014
    TEST_PASS
