/* rvc - every RV64C instruction in its 16-bit encoding: c.addi4spn, c.fld,
 * c.lw, c.ld, c.fsd, c.sw, c.sd, c.nop, c.addi, c.addiw, c.li, c.addi16sp,
 * c.lui, c.srli, c.srai, c.andi, c.sub, c.xor, c.or, c.and, c.subw, c.addw,
 * c.j, c.beqz, c.bnez, c.slli, c.fldsp, c.lwsp, c.ldsp, c.jr, c.mv,
 * c.ebreak, c.jalr, c.add, c.fsdsp, c.swsp, c.sdsp; immediate edge values
 * and sign extension; 32-bit instructions at 2-byte-aligned addresses;
 * HINT encodings (rd = x0 forms, c.addi with 0, shifts by 0) executing as no-ops. */
#include "test_macros.h"

    .option rvc
    .text
    .globl main
main:
    /* ---------------- c.li / c.lui ---------------- */
    c.li    a0, 0
    CHECK_EQ 1, a0, 0
    c.li    a0, 31
    CHECK_EQ 2, a0, 31
    c.li    a0, -32
    CHECK_EQ 3, a0, -32
    c.li    s1, -1
    CHECK_EQ 4, s1, -1
    c.li    t3, 17                  /* any rd != 0 */
    CHECK_EQ 5, t3, 17
    c.lui   a0, 1
    CHECK_EQ 6, a0, 0x1000
    c.lui   a0, 31
    CHECK_EQ 7, a0, 0x1f000
    c.lui   a0, 0xfffe0             /* nzimm = -32 << 12 */
    CHECK_EQ 8, a0, 0xfffffffffffe0000
    c.lui   a5, 0xfffff
    CHECK_EQ 9, a5, 0xfffffffffffff000
    c.lui   ra, 2
    CHECK_EQ 10, ra, 0x2000

    /* ---------------- c.addi / c.addiw / c.addi16sp / c.addi4spn ---------------- */
    li      a0, 100
    c.addi  a0, 31
    CHECK_EQ 11, a0, 131
    c.addi  a0, -32
    CHECK_EQ 12, a0, 99
    li      a0, 0x7fffffffffffffff
    c.addi  a0, 1
    CHECK_EQ 13, a0, 0x8000000000000000
    li      t4, -1
    c.addi  t4, 1
    CHECK_EQ 14, t4, 0
    li      a0, 0x7fffffff
    c.addiw a0, 1
    CHECK_EQ 15, a0, 0xffffffff80000000
    li      a0, 0x1234567800000005
    c.addiw a0, -6
    CHECK_EQ 16, a0, -1
    li      a0, 0xffffffff
    c.addiw a0, 0                   /* sext.w */
    CHECK_EQ 17, a0, -1
    li      s2, 0x100000001
    c.addiw s2, 1
    CHECK_EQ 18, s2, 2

    la      sp, stack_area + 1024
    mv      a1, sp
    c.addi16sp sp, 496
    addi    a2, a1, 496
    CHECK_EQR 19, sp, a2
    c.addi16sp sp, -512
    addi    a2, a1, -16
    CHECK_EQR 20, sp, a2
    c.addi16sp sp, 16
    CHECK_EQR 21, sp, a1
    c.addi4spn a0, sp, 4
    addi    a2, a1, 4
    CHECK_EQR 22, a0, a2
    c.addi4spn s1, sp, 1020
    addi    a2, a1, 1020
    CHECK_EQR 23, s1, a2
    c.addi4spn a5, sp, 64
    addi    a2, a1, 64
    CHECK_EQR 24, a5, a2

    /* ---------------- c.mv / c.add ---------------- */
    li      a1, 0x0123456789abcdef
    c.mv    a0, a1
    CHECK_EQ 25, a0, 0x0123456789abcdef
    c.mv    t5, a1
    CHECK_EQ 26, t5, 0x0123456789abcdef
    li      a0, 5
    li      a1, -7
    c.add   a0, a1
    CHECK_EQ 27, a0, -2
    li      s3, 0x7fffffffffffffff
    li      a1, 1
    c.add   s3, a1
    CHECK_EQ 28, s3, 0x8000000000000000
    li      a0, 3
    c.add   a0, a0
    CHECK_EQ 29, a0, 6

    /* ---------------- c.sub / c.xor / c.or / c.and / c.subw / c.addw ---------------- */
    li      a0, 10
    li      a1, 15
    c.sub   a0, a1
    CHECK_EQ 30, a0, -5
    li      s0, 0x8000000000000000
    li      a1, 1
    c.sub   s0, a1
    CHECK_EQ 31, s0, 0x7fffffffffffffff
    li      a0, 0xff00ff00ff00ff00
    li      a1, 0x0ff00ff00ff00ff0
    c.xor   a0, a1
    CHECK_EQ 32, a0, 0xf0f0f0f0f0f0f0f0
    li      a0, 0xff00ff00ff00ff00
    c.or    a0, a1
    CHECK_EQ 33, a0, 0xfff0fff0fff0fff0
    li      a0, 0xff00ff00ff00ff00
    c.and   a0, a1
    CHECK_EQ 34, a0, 0x0f000f000f000f00
    li      a0, 0x80000000
    li      a1, 1
    c.subw  a0, a1
    CHECK_EQ 35, a0, 0x7fffffff
    li      a0, 0x1234567800000000
    li      a1, 1
    c.subw  a0, a1
    CHECK_EQ 36, a0, -1
    li      a0, 0x7fffffff
    li      a1, 1
    c.addw  a0, a1
    CHECK_EQ 37, a0, 0xffffffff80000000
    li      a5, 0xffffffff00000003
    li      a4, 0x00000001fffffffe
    c.addw  a5, a4
    CHECK_EQ 38, a5, 1

    /* ---------------- c.andi / shifts ---------------- */
    li      a0, -1
    c.andi  a0, 31
    CHECK_EQ 39, a0, 31
    li      a0, -1
    c.andi  a0, -32
    CHECK_EQ 40, a0, -32
    li      a0, 0x0123456789abcdef
    c.andi  a0, 0
    CHECK_EQ 41, a0, 0
    li      a0, 1
    c.slli  a0, 63
    CHECK_EQ 42, a0, 0x8000000000000000
    li      t0, 0x0123456789abcdef
    c.slli  t0, 4
    CHECK_EQ 43, t0, 0x123456789abcdef0
    li      a0, 1
    c.slli  a0, 32
    CHECK_EQ 44, a0, 0x100000000
    li      a0, 0x8000000000000000
    c.srli  a0, 63
    CHECK_EQ 45, a0, 1
    li      a0, -1
    c.srli  a0, 32
    CHECK_EQ 46, a0, 0xffffffff
    li      a0, 0x8000000000000000
    c.srai  a0, 63
    CHECK_EQ 47, a0, -1
    li      a0, 0x8000000000000000
    c.srai  a0, 1
    CHECK_EQ 48, a0, 0xc000000000000000
    li      s1, 0x7000000000000000
    c.srai  s1, 60
    CHECK_EQ 49, s1, 7

    /* ---------------- loads and stores (register based) ---------------- */
    la      a1, cdata
    c.lw    a0, 0(a1)
    CHECK_EQ 50, a0, 0xffffffff80000001
    c.lw    a0, 4(a1)
    CHECK_EQ 51, a0, 0x7fffffff
    c.ld    a0, 8(a1)
    CHECK_EQ 52, a0, 0x8877665544332211
    c.ld    a0, 0(a1)
    CHECK_EQ 53, a0, 0x7fffffff80000001
    c.lw    a0, 124(a1)
    CHECK_EQ 54, a0, 0x12345678
    c.ld    a0, 248(a1)
    CHECK_EQ 55, a0, 0xfedcba9876543210
    la      a1, wdata
    li      a2, 0xaaaaaaaaaaaaaaaa
    sd      a2, 0(a1)
    sd      a2, 8(a1)
    li      a3, 0x1122334455667788
    c.sw    a3, 4(a1)
    ld      a0, 0(a1)
    CHECK_EQ 56, a0, 0x55667788aaaaaaaa
    c.sd    a3, 8(a1)
    ld      a0, 8(a1)
    CHECK_EQ 57, a0, 0x1122334455667788
    c.sw    a3, 124(a1)
    lwu     a0, 124(a1)
    CHECK_EQ 58, a0, 0x55667788
    c.sd    a3, 248(a1)
    ld      a0, 248(a1)
    CHECK_EQ 59, a0, 0x1122334455667788
    /* base register == destination */
    la      a0, cdata
    c.ld    a0, 8(a0)
    CHECK_EQ 60, a0, 0x8877665544332211

    /* ---------------- FP loads and stores ---------------- */
    la      a1, cdata
    c.fld   fa0, 8(a1)
    fmv.x.d a0, fa0
    CHECK_EQ 61, a0, 0x8877665544332211
    c.fld   fs1, 248(a1)
    fmv.x.d a0, fs1
    CHECK_EQ 62, a0, 0xfedcba9876543210
    la      a1, wdata
    li      a2, 0x3ff0000000000000
    fmv.d.x fa5, a2
    c.fsd   fa5, 16(a1)
    ld      a0, 16(a1)
    CHECK_EQ 63, a0, 0x3ff0000000000000
    c.fsd   fa5, 240(a1)
    ld      a0, 240(a1)
    CHECK_EQ 64, a0, 0x3ff0000000000000

    /* ---------------- SP-relative loads and stores ---------------- */
    la      sp, stack_area
    li      a2, 0xcafef00d12345678
    sd      a2, 0(sp)
    li      a2, 0x00000000fffffff0
    sd      a2, 8(sp)
    li      a2, 0x0102030405060708
    sd      a2, 504(sp)
    li      a2, 0x80000000
    sw      a2, 252(sp)
    c.lwsp  a0, 0(sp)
    CHECK_EQ 65, a0, 0x12345678
    c.lwsp  a0, 4(sp)
    CHECK_EQ 66, a0, 0xffffffffcafef00d
    c.lwsp  t1, 8(sp)
    CHECK_EQ 67, t1, -16
    c.lwsp  a0, 252(sp)
    CHECK_EQ 68, a0, 0xffffffff80000000
    c.ldsp  a0, 0(sp)
    CHECK_EQ 69, a0, 0xcafef00d12345678
    c.ldsp  ra, 504(sp)
    CHECK_EQ 70, ra, 0x0102030405060708
    li      a3, 0x1111222233334444
    c.swsp  a3, 16(sp)
    c.sdsp  a3, 24(sp)
    c.swsp  a3, 252(sp)
    c.sdsp  a3, 496(sp)
    ld      a0, 16(sp)
    li      t2, 0x33334444
    lwu     a0, 16(sp)
    CHECK_EQR 71, a0, t2
    ld      a0, 24(sp)
    CHECK_EQ 72, a0, 0x1111222233334444
    lw      a0, 252(sp)
    CHECK_EQ 73, a0, 0x33334444
    ld      a0, 496(sp)
    CHECK_EQ 74, a0, 0x1111222233334444
    /* FP SP-relative */
    li      a2, 0xc000000000000000
    fmv.d.x ft3, a2
    c.fsdsp ft3, 32(sp)
    ld      a0, 32(sp)
    CHECK_EQ 75, a0, 0xc000000000000000
    c.fsdsp ft3, 504(sp)
    ld      a0, 504(sp)
    CHECK_EQ 76, a0, 0xc000000000000000
    c.fldsp ft4, 0(sp)
    fmv.x.d a0, ft4
    CHECK_EQ 77, a0, 0xcafef00d12345678
    c.fldsp fs11, 496(sp)
    fmv.x.d a0, fs11
    CHECK_EQ 78, a0, 0x1111222233334444

    /* ---------------- control transfer ---------------- */
    /* c.j forward and backward */
    c.j     1f
    FAIL    79
2:  c.j     3f
    FAIL    79
1:  c.j     2b
    FAIL    79
3:
    /* c.beqz / c.bnez */
    li      a0, 0
    c.beqz  a0, 1f
    FAIL    80
1:  c.bnez  a0, 2f
    j       3f
2:  FAIL    81
3:  li      a0, 0x8000000000000000      /* only bit 63 set: not zero */
    c.bnez  a0, 1f
    FAIL    82
1:  c.beqz  a0, 2f
    j       3f
2:  FAIL    83
3:  li      s1, 1
    li      a2, 0
1:  addi    a2, a2, 1
    c.addi  s1, 1
    li      t0, 6
    bne     s1, t0, 1b
    CHECK_EQ 84, a2, 5
    /* c.jr */
    la      a1, 1f
    c.jr    a1
    FAIL    85
1:
    /* c.jalr: link = pc + 2 */
    la      t1, 1f
    c.jalr  t1
2:  FAIL    86
1:  la      a2, 2b
    CHECK_EQR 87, ra, a2
    /* c.jalr with rs1 = ra: target uses the old ra */
    la      ra, 1f
    c.jalr  ra
2:  FAIL    88
1:  la      a2, 2b
    CHECK_EQR 89, ra, a2
    /* c.jr / c.jalr clear bit 0?  (c.jr takes rs1 directly: target must be
       even; use an even target only, bit 0 clearing is tested in rv64i) */

    /* ---------------- 32-bit instructions at 2-byte-aligned addresses ---------------- */
    .balign 4
    c.nop
    li      a0, 0                       /* 32-bit? assembled as c.li, force below */
    .option push
    .option norvc
    addi    a0, zero, 0x123             /* at pc % 4 == 2 (after c.nop + c.li) */
    .option pop
    CHECK_EQ 90, a0, 0x123
    .balign 4
    c.nop
    .option push
    .option norvc
    lui     a1, 0x12345                 /* at pc % 4 == 2 */
    addi    a1, a1, 0x678               /* at pc % 4 == 2 */
    jal     a2, 1f                      /* at pc % 4 == 2, target at pc % 4 == 2 */
    .option pop
    FAIL    91
1:  CHECK_EQ 91, a1, 0x12345678

    /* ---------------- c.ebreak ---------------- */
    ARM_M   1f
2:  c.ebreak
    FAIL    92
1:  CHECK_CAUSE_M 93, CAUSE_BREAKPOINT
    CHECK_EPC_M 94, 2b
    la      a1, 2b
    CHECK_TVAL_M 95, a1

    /* ---------------- c.nop and HINTs ---------------- */
    li      a0, 0x55
    li      a1, 0x66
    c.nop
    .half   0x0005                      /* c.nop with nzimm = 1 (HINT) */
    .half   0x0501                      /* c.addi a0, 0 (HINT) */
    .half   0x4015                      /* c.li x0, 5 (HINT) */
    .half   0x6005                      /* c.lui x0, 1 (HINT) */
    .half   0x802a                      /* c.mv x0, a0 (HINT) */
    .half   0x902a                      /* c.add x0, a0 (HINT) */
    .half   0x0006                      /* c.slli x0, 1 (HINT) */
    .half   0x0502                      /* c.slli a0, 0 (HINT on RV64) */
    .half   0x8101                      /* c.srli a0, 0 (HINT on RV64) */
    .half   0x8501                      /* c.srai a0, 0 (HINT on RV64) */
    CHECK_EQ 96, a0, 0x55
    CHECK_EQ 97, a1, 0x66
    CHECK_EQ 98, x0, 0

    TEST_PASS

    .data
    .align 4
cdata:
    .word   0x80000001, 0x7fffffff
    .dword  0x8877665544332211
    .space  124 - 16
    .word   0x12345678
    .space  248 - 128
    .dword  0xfedcba9876543210
    .align 4
wdata:
    .space  256
    .align 4
stack_area:
    .space  2048
