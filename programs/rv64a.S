/* rv64a - atomics: every AMO in W and D forms (returned old value, W results
 * sign-extended, memory result, neighbouring bytes untouched, signed/unsigned
 * min/max), aq/rl variants, rd = x0 and rd = rs2; LR/SC: success, SC without
 * a reservation fails and writes nothing, SC to another address fails, any SC
 * ends the reservation, LR.W sign-extends, LR/SC increment loop; misaligned
 * AMO/SC -> store/AMO address misaligned (6), misaligned LR -> load address
 * misaligned (4), AMO/LR to a non-existent address -> access fault (7 / 5),
 * all with tval = address. Reservation loss on traps/xRET is NOT tested (the
 * spec allows but does not require it). */
#include "test_macros.h"

    .option norvc
    .text
    .globl main
main:
    /* SC with no reservation ever taken: fails, memory unchanged */
    la a1, amo_d
    li a2, 0x1111
    sd a2, 0(a1)
    li a3, 0x2222
    sc.d a0, a3, (a1)
    CHECK_NER 1, a0, zero
    ld a4, 0(a1)
    CHECK_EQ 2, a4, 0x1111
    sc.w a0, a3, (a1)
    CHECK_NER 3, a0, zero
    ld a4, 0(a1)
    CHECK_EQ 4, a4, 0x1111
    /* amoswap.d */
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x0
    sd a2, 0(a1)
    li a3, 0x0
    amoswap.d a0, a3, (a1)
    CHECK_EQ 5, a0, 0x0
    ld a4, 0(a1)
    CHECK_EQ 6, a4, 0x0
    ld a4, 8(a1)
    CHECK_EQ 7, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x1
    sd a2, 0(a1)
    li a3, 0xffffffffffffffff
    amoswap.d a0, a3, (a1)
    CHECK_EQ 8, a0, 0x1
    ld a4, 0(a1)
    CHECK_EQ 9, a4, 0xffffffffffffffff
    ld a4, 8(a1)
    CHECK_EQ 10, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffffffffffff
    sd a2, 0(a1)
    li a3, 0x1
    amoswap.d a0, a3, (a1)
    CHECK_EQ 11, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 12, a4, 0x1
    ld a4, 8(a1)
    CHECK_EQ 13, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x7fffffffffffffff
    sd a2, 0(a1)
    li a3, 0x8000000000000000
    amoswap.d a0, a3, (a1)
    CHECK_EQ 14, a0, 0x7fffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 15, a4, 0x8000000000000000
    ld a4, 8(a1)
    CHECK_EQ 16, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x8000000000000000
    sd a2, 0(a1)
    li a3, 0x1
    amoswap.d a0, a3, (a1)
    CHECK_EQ 17, a0, 0x8000000000000000
    ld a4, 0(a1)
    CHECK_EQ 18, a4, 0x1
    ld a4, 8(a1)
    CHECK_EQ 19, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sd a2, 0(a1)
    li a3, 0x80000000
    amoswap.d a0, a3, (a1)
    CHECK_EQ 20, a0, 0xffffffff
    ld a4, 0(a1)
    CHECK_EQ 21, a4, 0x80000000
    ld a4, 8(a1)
    CHECK_EQ 22, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x123456789abcdef
    sd a2, 0(a1)
    li a3, 0xfedcba9876543210
    amoswap.d a0, a3, (a1)
    CHECK_EQ 23, a0, 0x123456789abcdef
    ld a4, 0(a1)
    CHECK_EQ 24, a4, 0xfedcba9876543210
    ld a4, 8(a1)
    CHECK_EQ 25, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x7fffffff
    sd a2, 0(a1)
    li a3, 0x1
    amoswap.d a0, a3, (a1)
    CHECK_EQ 26, a0, 0x7fffffff
    ld a4, 0(a1)
    CHECK_EQ 27, a4, 0x1
    ld a4, 8(a1)
    CHECK_EQ 28, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff80000000
    sd a2, 0(a1)
    li a3, 0x7fffffff
    amoswap.d a0, a3, (a1)
    CHECK_EQ 29, a0, 0xffffffff80000000
    ld a4, 0(a1)
    CHECK_EQ 30, a4, 0x7fffffff
    ld a4, 8(a1)
    CHECK_EQ 31, a4, 0x5a5a5a5a5a5a5a5a
    /* amoadd.d */
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x0
    sd a2, 0(a1)
    li a3, 0x0
    amoadd.d a0, a3, (a1)
    CHECK_EQ 32, a0, 0x0
    ld a4, 0(a1)
    CHECK_EQ 33, a4, 0x0
    ld a4, 8(a1)
    CHECK_EQ 34, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x1
    sd a2, 0(a1)
    li a3, 0xffffffffffffffff
    amoadd.d a0, a3, (a1)
    CHECK_EQ 35, a0, 0x1
    ld a4, 0(a1)
    CHECK_EQ 36, a4, 0x0
    ld a4, 8(a1)
    CHECK_EQ 37, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffffffffffff
    sd a2, 0(a1)
    li a3, 0x1
    amoadd.d a0, a3, (a1)
    CHECK_EQ 38, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 39, a4, 0x0
    ld a4, 8(a1)
    CHECK_EQ 40, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x7fffffffffffffff
    sd a2, 0(a1)
    li a3, 0x8000000000000000
    amoadd.d a0, a3, (a1)
    CHECK_EQ 41, a0, 0x7fffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 42, a4, 0xffffffffffffffff
    ld a4, 8(a1)
    CHECK_EQ 43, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x8000000000000000
    sd a2, 0(a1)
    li a3, 0x1
    amoadd.d a0, a3, (a1)
    CHECK_EQ 44, a0, 0x8000000000000000
    ld a4, 0(a1)
    CHECK_EQ 45, a4, 0x8000000000000001
    ld a4, 8(a1)
    CHECK_EQ 46, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sd a2, 0(a1)
    li a3, 0x80000000
    amoadd.d a0, a3, (a1)
    CHECK_EQ 47, a0, 0xffffffff
    ld a4, 0(a1)
    CHECK_EQ 48, a4, 0x17fffffff
    ld a4, 8(a1)
    CHECK_EQ 49, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x123456789abcdef
    sd a2, 0(a1)
    li a3, 0xfedcba9876543210
    amoadd.d a0, a3, (a1)
    CHECK_EQ 50, a0, 0x123456789abcdef
    ld a4, 0(a1)
    CHECK_EQ 51, a4, 0xffffffffffffffff
    ld a4, 8(a1)
    CHECK_EQ 52, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x7fffffff
    sd a2, 0(a1)
    li a3, 0x1
    amoadd.d a0, a3, (a1)
    CHECK_EQ 53, a0, 0x7fffffff
    ld a4, 0(a1)
    CHECK_EQ 54, a4, 0x80000000
    ld a4, 8(a1)
    CHECK_EQ 55, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff80000000
    sd a2, 0(a1)
    li a3, 0x7fffffff
    amoadd.d a0, a3, (a1)
    CHECK_EQ 56, a0, 0xffffffff80000000
    ld a4, 0(a1)
    CHECK_EQ 57, a4, 0xffffffffffffffff
    ld a4, 8(a1)
    CHECK_EQ 58, a4, 0x5a5a5a5a5a5a5a5a
    /* amoxor.d */
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x0
    sd a2, 0(a1)
    li a3, 0x0
    amoxor.d a0, a3, (a1)
    CHECK_EQ 59, a0, 0x0
    ld a4, 0(a1)
    CHECK_EQ 60, a4, 0x0
    ld a4, 8(a1)
    CHECK_EQ 61, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x1
    sd a2, 0(a1)
    li a3, 0xffffffffffffffff
    amoxor.d a0, a3, (a1)
    CHECK_EQ 62, a0, 0x1
    ld a4, 0(a1)
    CHECK_EQ 63, a4, 0xfffffffffffffffe
    ld a4, 8(a1)
    CHECK_EQ 64, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffffffffffff
    sd a2, 0(a1)
    li a3, 0x1
    amoxor.d a0, a3, (a1)
    CHECK_EQ 65, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 66, a4, 0xfffffffffffffffe
    ld a4, 8(a1)
    CHECK_EQ 67, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x7fffffffffffffff
    sd a2, 0(a1)
    li a3, 0x8000000000000000
    amoxor.d a0, a3, (a1)
    CHECK_EQ 68, a0, 0x7fffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 69, a4, 0xffffffffffffffff
    ld a4, 8(a1)
    CHECK_EQ 70, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x8000000000000000
    sd a2, 0(a1)
    li a3, 0x1
    amoxor.d a0, a3, (a1)
    CHECK_EQ 71, a0, 0x8000000000000000
    ld a4, 0(a1)
    CHECK_EQ 72, a4, 0x8000000000000001
    ld a4, 8(a1)
    CHECK_EQ 73, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sd a2, 0(a1)
    li a3, 0x80000000
    amoxor.d a0, a3, (a1)
    CHECK_EQ 74, a0, 0xffffffff
    ld a4, 0(a1)
    CHECK_EQ 75, a4, 0x7fffffff
    ld a4, 8(a1)
    CHECK_EQ 76, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x123456789abcdef
    sd a2, 0(a1)
    li a3, 0xfedcba9876543210
    amoxor.d a0, a3, (a1)
    CHECK_EQ 77, a0, 0x123456789abcdef
    ld a4, 0(a1)
    CHECK_EQ 78, a4, 0xffffffffffffffff
    ld a4, 8(a1)
    CHECK_EQ 79, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x7fffffff
    sd a2, 0(a1)
    li a3, 0x1
    amoxor.d a0, a3, (a1)
    CHECK_EQ 80, a0, 0x7fffffff
    ld a4, 0(a1)
    CHECK_EQ 81, a4, 0x7ffffffe
    ld a4, 8(a1)
    CHECK_EQ 82, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff80000000
    sd a2, 0(a1)
    li a3, 0x7fffffff
    amoxor.d a0, a3, (a1)
    CHECK_EQ 83, a0, 0xffffffff80000000
    ld a4, 0(a1)
    CHECK_EQ 84, a4, 0xffffffffffffffff
    ld a4, 8(a1)
    CHECK_EQ 85, a4, 0x5a5a5a5a5a5a5a5a
    /* amoand.d */
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x0
    sd a2, 0(a1)
    li a3, 0x0
    amoand.d a0, a3, (a1)
    CHECK_EQ 86, a0, 0x0
    ld a4, 0(a1)
    CHECK_EQ 87, a4, 0x0
    ld a4, 8(a1)
    CHECK_EQ 88, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x1
    sd a2, 0(a1)
    li a3, 0xffffffffffffffff
    amoand.d a0, a3, (a1)
    CHECK_EQ 89, a0, 0x1
    ld a4, 0(a1)
    CHECK_EQ 90, a4, 0x1
    ld a4, 8(a1)
    CHECK_EQ 91, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffffffffffff
    sd a2, 0(a1)
    li a3, 0x1
    amoand.d a0, a3, (a1)
    CHECK_EQ 92, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 93, a4, 0x1
    ld a4, 8(a1)
    CHECK_EQ 94, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x7fffffffffffffff
    sd a2, 0(a1)
    li a3, 0x8000000000000000
    amoand.d a0, a3, (a1)
    CHECK_EQ 95, a0, 0x7fffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 96, a4, 0x0
    ld a4, 8(a1)
    CHECK_EQ 97, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x8000000000000000
    sd a2, 0(a1)
    li a3, 0x1
    amoand.d a0, a3, (a1)
    CHECK_EQ 98, a0, 0x8000000000000000
    ld a4, 0(a1)
    CHECK_EQ 99, a4, 0x0
    ld a4, 8(a1)
    CHECK_EQ 100, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sd a2, 0(a1)
    li a3, 0x80000000
    amoand.d a0, a3, (a1)
    CHECK_EQ 101, a0, 0xffffffff
    ld a4, 0(a1)
    CHECK_EQ 102, a4, 0x80000000
    ld a4, 8(a1)
    CHECK_EQ 103, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x123456789abcdef
    sd a2, 0(a1)
    li a3, 0xfedcba9876543210
    amoand.d a0, a3, (a1)
    CHECK_EQ 104, a0, 0x123456789abcdef
    ld a4, 0(a1)
    CHECK_EQ 105, a4, 0x0
    ld a4, 8(a1)
    CHECK_EQ 106, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x7fffffff
    sd a2, 0(a1)
    li a3, 0x1
    amoand.d a0, a3, (a1)
    CHECK_EQ 107, a0, 0x7fffffff
    ld a4, 0(a1)
    CHECK_EQ 108, a4, 0x1
    ld a4, 8(a1)
    CHECK_EQ 109, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff80000000
    sd a2, 0(a1)
    li a3, 0x7fffffff
    amoand.d a0, a3, (a1)
    CHECK_EQ 110, a0, 0xffffffff80000000
    ld a4, 0(a1)
    CHECK_EQ 111, a4, 0x0
    ld a4, 8(a1)
    CHECK_EQ 112, a4, 0x5a5a5a5a5a5a5a5a
    /* amoor.d */
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x0
    sd a2, 0(a1)
    li a3, 0x0
    amoor.d a0, a3, (a1)
    CHECK_EQ 113, a0, 0x0
    ld a4, 0(a1)
    CHECK_EQ 114, a4, 0x0
    ld a4, 8(a1)
    CHECK_EQ 115, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x1
    sd a2, 0(a1)
    li a3, 0xffffffffffffffff
    amoor.d a0, a3, (a1)
    CHECK_EQ 116, a0, 0x1
    ld a4, 0(a1)
    CHECK_EQ 117, a4, 0xffffffffffffffff
    ld a4, 8(a1)
    CHECK_EQ 118, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffffffffffff
    sd a2, 0(a1)
    li a3, 0x1
    amoor.d a0, a3, (a1)
    CHECK_EQ 119, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 120, a4, 0xffffffffffffffff
    ld a4, 8(a1)
    CHECK_EQ 121, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x7fffffffffffffff
    sd a2, 0(a1)
    li a3, 0x8000000000000000
    amoor.d a0, a3, (a1)
    CHECK_EQ 122, a0, 0x7fffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 123, a4, 0xffffffffffffffff
    ld a4, 8(a1)
    CHECK_EQ 124, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x8000000000000000
    sd a2, 0(a1)
    li a3, 0x1
    amoor.d a0, a3, (a1)
    CHECK_EQ 125, a0, 0x8000000000000000
    ld a4, 0(a1)
    CHECK_EQ 126, a4, 0x8000000000000001
    ld a4, 8(a1)
    CHECK_EQ 127, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sd a2, 0(a1)
    li a3, 0x80000000
    amoor.d a0, a3, (a1)
    CHECK_EQ 128, a0, 0xffffffff
    ld a4, 0(a1)
    CHECK_EQ 129, a4, 0xffffffff
    ld a4, 8(a1)
    CHECK_EQ 130, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x123456789abcdef
    sd a2, 0(a1)
    li a3, 0xfedcba9876543210
    amoor.d a0, a3, (a1)
    CHECK_EQ 131, a0, 0x123456789abcdef
    ld a4, 0(a1)
    CHECK_EQ 132, a4, 0xffffffffffffffff
    ld a4, 8(a1)
    CHECK_EQ 133, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x7fffffff
    sd a2, 0(a1)
    li a3, 0x1
    amoor.d a0, a3, (a1)
    CHECK_EQ 134, a0, 0x7fffffff
    ld a4, 0(a1)
    CHECK_EQ 135, a4, 0x7fffffff
    ld a4, 8(a1)
    CHECK_EQ 136, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff80000000
    sd a2, 0(a1)
    li a3, 0x7fffffff
    amoor.d a0, a3, (a1)
    CHECK_EQ 137, a0, 0xffffffff80000000
    ld a4, 0(a1)
    CHECK_EQ 138, a4, 0xffffffffffffffff
    ld a4, 8(a1)
    CHECK_EQ 139, a4, 0x5a5a5a5a5a5a5a5a
    /* amomin.d */
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x0
    sd a2, 0(a1)
    li a3, 0x0
    amomin.d a0, a3, (a1)
    CHECK_EQ 140, a0, 0x0
    ld a4, 0(a1)
    CHECK_EQ 141, a4, 0x0
    ld a4, 8(a1)
    CHECK_EQ 142, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x1
    sd a2, 0(a1)
    li a3, 0xffffffffffffffff
    amomin.d a0, a3, (a1)
    CHECK_EQ 143, a0, 0x1
    ld a4, 0(a1)
    CHECK_EQ 144, a4, 0xffffffffffffffff
    ld a4, 8(a1)
    CHECK_EQ 145, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffffffffffff
    sd a2, 0(a1)
    li a3, 0x1
    amomin.d a0, a3, (a1)
    CHECK_EQ 146, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 147, a4, 0xffffffffffffffff
    ld a4, 8(a1)
    CHECK_EQ 148, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x7fffffffffffffff
    sd a2, 0(a1)
    li a3, 0x8000000000000000
    amomin.d a0, a3, (a1)
    CHECK_EQ 149, a0, 0x7fffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 150, a4, 0x8000000000000000
    ld a4, 8(a1)
    CHECK_EQ 151, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x8000000000000000
    sd a2, 0(a1)
    li a3, 0x1
    amomin.d a0, a3, (a1)
    CHECK_EQ 152, a0, 0x8000000000000000
    ld a4, 0(a1)
    CHECK_EQ 153, a4, 0x8000000000000000
    ld a4, 8(a1)
    CHECK_EQ 154, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sd a2, 0(a1)
    li a3, 0x80000000
    amomin.d a0, a3, (a1)
    CHECK_EQ 155, a0, 0xffffffff
    ld a4, 0(a1)
    CHECK_EQ 156, a4, 0x80000000
    ld a4, 8(a1)
    CHECK_EQ 157, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x123456789abcdef
    sd a2, 0(a1)
    li a3, 0xfedcba9876543210
    amomin.d a0, a3, (a1)
    CHECK_EQ 158, a0, 0x123456789abcdef
    ld a4, 0(a1)
    CHECK_EQ 159, a4, 0xfedcba9876543210
    ld a4, 8(a1)
    CHECK_EQ 160, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x7fffffff
    sd a2, 0(a1)
    li a3, 0x1
    amomin.d a0, a3, (a1)
    CHECK_EQ 161, a0, 0x7fffffff
    ld a4, 0(a1)
    CHECK_EQ 162, a4, 0x1
    ld a4, 8(a1)
    CHECK_EQ 163, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff80000000
    sd a2, 0(a1)
    li a3, 0x7fffffff
    amomin.d a0, a3, (a1)
    CHECK_EQ 164, a0, 0xffffffff80000000
    ld a4, 0(a1)
    CHECK_EQ 165, a4, 0xffffffff80000000
    ld a4, 8(a1)
    CHECK_EQ 166, a4, 0x5a5a5a5a5a5a5a5a
    /* amomax.d */
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x0
    sd a2, 0(a1)
    li a3, 0x0
    amomax.d a0, a3, (a1)
    CHECK_EQ 167, a0, 0x0
    ld a4, 0(a1)
    CHECK_EQ 168, a4, 0x0
    ld a4, 8(a1)
    CHECK_EQ 169, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x1
    sd a2, 0(a1)
    li a3, 0xffffffffffffffff
    amomax.d a0, a3, (a1)
    CHECK_EQ 170, a0, 0x1
    ld a4, 0(a1)
    CHECK_EQ 171, a4, 0x1
    ld a4, 8(a1)
    CHECK_EQ 172, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffffffffffff
    sd a2, 0(a1)
    li a3, 0x1
    amomax.d a0, a3, (a1)
    CHECK_EQ 173, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 174, a4, 0x1
    ld a4, 8(a1)
    CHECK_EQ 175, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x7fffffffffffffff
    sd a2, 0(a1)
    li a3, 0x8000000000000000
    amomax.d a0, a3, (a1)
    CHECK_EQ 176, a0, 0x7fffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 177, a4, 0x7fffffffffffffff
    ld a4, 8(a1)
    CHECK_EQ 178, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x8000000000000000
    sd a2, 0(a1)
    li a3, 0x1
    amomax.d a0, a3, (a1)
    CHECK_EQ 179, a0, 0x8000000000000000
    ld a4, 0(a1)
    CHECK_EQ 180, a4, 0x1
    ld a4, 8(a1)
    CHECK_EQ 181, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sd a2, 0(a1)
    li a3, 0x80000000
    amomax.d a0, a3, (a1)
    CHECK_EQ 182, a0, 0xffffffff
    ld a4, 0(a1)
    CHECK_EQ 183, a4, 0xffffffff
    ld a4, 8(a1)
    CHECK_EQ 184, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x123456789abcdef
    sd a2, 0(a1)
    li a3, 0xfedcba9876543210
    amomax.d a0, a3, (a1)
    CHECK_EQ 185, a0, 0x123456789abcdef
    ld a4, 0(a1)
    CHECK_EQ 186, a4, 0x123456789abcdef
    ld a4, 8(a1)
    CHECK_EQ 187, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x7fffffff
    sd a2, 0(a1)
    li a3, 0x1
    amomax.d a0, a3, (a1)
    CHECK_EQ 188, a0, 0x7fffffff
    ld a4, 0(a1)
    CHECK_EQ 189, a4, 0x7fffffff
    ld a4, 8(a1)
    CHECK_EQ 190, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff80000000
    sd a2, 0(a1)
    li a3, 0x7fffffff
    amomax.d a0, a3, (a1)
    CHECK_EQ 191, a0, 0xffffffff80000000
    ld a4, 0(a1)
    CHECK_EQ 192, a4, 0x7fffffff
    ld a4, 8(a1)
    CHECK_EQ 193, a4, 0x5a5a5a5a5a5a5a5a
    /* amominu.d */
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x0
    sd a2, 0(a1)
    li a3, 0x0
    amominu.d a0, a3, (a1)
    CHECK_EQ 194, a0, 0x0
    ld a4, 0(a1)
    CHECK_EQ 195, a4, 0x0
    ld a4, 8(a1)
    CHECK_EQ 196, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x1
    sd a2, 0(a1)
    li a3, 0xffffffffffffffff
    amominu.d a0, a3, (a1)
    CHECK_EQ 197, a0, 0x1
    ld a4, 0(a1)
    CHECK_EQ 198, a4, 0x1
    ld a4, 8(a1)
    CHECK_EQ 199, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffffffffffff
    sd a2, 0(a1)
    li a3, 0x1
    amominu.d a0, a3, (a1)
    CHECK_EQ 200, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 201, a4, 0x1
    ld a4, 8(a1)
    CHECK_EQ 202, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x7fffffffffffffff
    sd a2, 0(a1)
    li a3, 0x8000000000000000
    amominu.d a0, a3, (a1)
    CHECK_EQ 203, a0, 0x7fffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 204, a4, 0x7fffffffffffffff
    ld a4, 8(a1)
    CHECK_EQ 205, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x8000000000000000
    sd a2, 0(a1)
    li a3, 0x1
    amominu.d a0, a3, (a1)
    CHECK_EQ 206, a0, 0x8000000000000000
    ld a4, 0(a1)
    CHECK_EQ 207, a4, 0x1
    ld a4, 8(a1)
    CHECK_EQ 208, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sd a2, 0(a1)
    li a3, 0x80000000
    amominu.d a0, a3, (a1)
    CHECK_EQ 209, a0, 0xffffffff
    ld a4, 0(a1)
    CHECK_EQ 210, a4, 0x80000000
    ld a4, 8(a1)
    CHECK_EQ 211, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x123456789abcdef
    sd a2, 0(a1)
    li a3, 0xfedcba9876543210
    amominu.d a0, a3, (a1)
    CHECK_EQ 212, a0, 0x123456789abcdef
    ld a4, 0(a1)
    CHECK_EQ 213, a4, 0x123456789abcdef
    ld a4, 8(a1)
    CHECK_EQ 214, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x7fffffff
    sd a2, 0(a1)
    li a3, 0x1
    amominu.d a0, a3, (a1)
    CHECK_EQ 215, a0, 0x7fffffff
    ld a4, 0(a1)
    CHECK_EQ 216, a4, 0x1
    ld a4, 8(a1)
    CHECK_EQ 217, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff80000000
    sd a2, 0(a1)
    li a3, 0x7fffffff
    amominu.d a0, a3, (a1)
    CHECK_EQ 218, a0, 0xffffffff80000000
    ld a4, 0(a1)
    CHECK_EQ 219, a4, 0x7fffffff
    ld a4, 8(a1)
    CHECK_EQ 220, a4, 0x5a5a5a5a5a5a5a5a
    /* amomaxu.d */
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x0
    sd a2, 0(a1)
    li a3, 0x0
    amomaxu.d a0, a3, (a1)
    CHECK_EQ 221, a0, 0x0
    ld a4, 0(a1)
    CHECK_EQ 222, a4, 0x0
    ld a4, 8(a1)
    CHECK_EQ 223, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x1
    sd a2, 0(a1)
    li a3, 0xffffffffffffffff
    amomaxu.d a0, a3, (a1)
    CHECK_EQ 224, a0, 0x1
    ld a4, 0(a1)
    CHECK_EQ 225, a4, 0xffffffffffffffff
    ld a4, 8(a1)
    CHECK_EQ 226, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffffffffffff
    sd a2, 0(a1)
    li a3, 0x1
    amomaxu.d a0, a3, (a1)
    CHECK_EQ 227, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 228, a4, 0xffffffffffffffff
    ld a4, 8(a1)
    CHECK_EQ 229, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x7fffffffffffffff
    sd a2, 0(a1)
    li a3, 0x8000000000000000
    amomaxu.d a0, a3, (a1)
    CHECK_EQ 230, a0, 0x7fffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 231, a4, 0x8000000000000000
    ld a4, 8(a1)
    CHECK_EQ 232, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x8000000000000000
    sd a2, 0(a1)
    li a3, 0x1
    amomaxu.d a0, a3, (a1)
    CHECK_EQ 233, a0, 0x8000000000000000
    ld a4, 0(a1)
    CHECK_EQ 234, a4, 0x8000000000000000
    ld a4, 8(a1)
    CHECK_EQ 235, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sd a2, 0(a1)
    li a3, 0x80000000
    amomaxu.d a0, a3, (a1)
    CHECK_EQ 236, a0, 0xffffffff
    ld a4, 0(a1)
    CHECK_EQ 237, a4, 0xffffffff
    ld a4, 8(a1)
    CHECK_EQ 238, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x123456789abcdef
    sd a2, 0(a1)
    li a3, 0xfedcba9876543210
    amomaxu.d a0, a3, (a1)
    CHECK_EQ 239, a0, 0x123456789abcdef
    ld a4, 0(a1)
    CHECK_EQ 240, a4, 0xfedcba9876543210
    ld a4, 8(a1)
    CHECK_EQ 241, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x7fffffff
    sd a2, 0(a1)
    li a3, 0x1
    amomaxu.d a0, a3, (a1)
    CHECK_EQ 242, a0, 0x7fffffff
    ld a4, 0(a1)
    CHECK_EQ 243, a4, 0x7fffffff
    ld a4, 8(a1)
    CHECK_EQ 244, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff80000000
    sd a2, 0(a1)
    li a3, 0x7fffffff
    amomaxu.d a0, a3, (a1)
    CHECK_EQ 245, a0, 0xffffffff80000000
    ld a4, 0(a1)
    CHECK_EQ 246, a4, 0xffffffff80000000
    ld a4, 8(a1)
    CHECK_EQ 247, a4, 0x5a5a5a5a5a5a5a5a
    /* amoadd.d at offset 4 / 8, aq/rl variants */
    la a1, amo_d
    li a2, 0x7fffffff00000005
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 8
    li a3, 1
    amoadd.d.aq a0, a3, (a5)
    CHECK_EQ 248, a0, 0x7fffffff00000005
    amoadd.d.rl a0, a3, (a5)
    CHECK_EQ 249, a0, 0x7fffffff00000006
    amoadd.d.aqrl a0, a3, (a5)
    CHECK_EQ 250, a0, 0x7fffffff00000007
    ld a4, 8(a1)
    CHECK_EQ 251, a4, 0x7fffffff00000008
    /* rd = x0 still updates memory; rd = rs2 */
    la a1, amo_d
    li a2, 100
    sd a2, 0(a1)
    li a3, 23
    amoadd.d x0, a3, (a1)
    CHECK_EQ 252, x0, 0
    ld a4, 0(a1)
    CHECK_EQ 253, a4, 123
    amoswap.d a3, a3, (a1)
    CHECK_EQ 254, a3, 123
    ld a4, 0(a1)
    CHECK_EQ 257, a4, 23
    /* amoswap.w */
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x0
    sw a2, 0(a1)
    li a3, 0x0
    amoswap.w a0, a3, (a1)
    CHECK_EQ 258, a0, 0x0
    ld a4, 0(a1)
    CHECK_EQ 259, a4, 0x5a5a5a5a00000000
    ld a4, 8(a1)
    CHECK_EQ 260, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x1
    sw a2, 0(a1)
    li a3, 0xffffffffffffffff
    amoswap.w a0, a3, (a1)
    CHECK_EQ 261, a0, 0x1
    ld a4, 0(a1)
    CHECK_EQ 262, a4, 0x5a5a5a5affffffff
    ld a4, 8(a1)
    CHECK_EQ 263, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sw a2, 0(a1)
    li a3, 0x1
    amoswap.w a0, a3, (a1)
    CHECK_EQ 264, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 265, a4, 0x5a5a5a5a00000001
    ld a4, 8(a1)
    CHECK_EQ 266, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sw a2, 0(a1)
    li a3, 0x8000000000000000
    amoswap.w a0, a3, (a1)
    CHECK_EQ 267, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 268, a4, 0x5a5a5a5a00000000
    ld a4, 8(a1)
    CHECK_EQ 269, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x0
    sw a2, 0(a1)
    li a3, 0x1
    amoswap.w a0, a3, (a1)
    CHECK_EQ 270, a0, 0x0
    ld a4, 0(a1)
    CHECK_EQ 271, a4, 0x5a5a5a5a00000001
    ld a4, 8(a1)
    CHECK_EQ 272, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sw a2, 0(a1)
    li a3, 0x80000000
    amoswap.w a0, a3, (a1)
    CHECK_EQ 273, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 274, a4, 0x5a5a5a5a80000000
    ld a4, 8(a1)
    CHECK_EQ 275, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x89abcdef
    sw a2, 0(a1)
    li a3, 0xfedcba9876543210
    amoswap.w a0, a3, (a1)
    CHECK_EQ 276, a0, 0xffffffff89abcdef
    ld a4, 0(a1)
    CHECK_EQ 277, a4, 0x5a5a5a5a76543210
    ld a4, 8(a1)
    CHECK_EQ 278, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x7fffffff
    sw a2, 0(a1)
    li a3, 0x1
    amoswap.w a0, a3, (a1)
    CHECK_EQ 279, a0, 0x7fffffff
    ld a4, 0(a1)
    CHECK_EQ 280, a4, 0x5a5a5a5a00000001
    ld a4, 8(a1)
    CHECK_EQ 281, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x80000000
    sw a2, 0(a1)
    li a3, 0x7fffffff
    amoswap.w a0, a3, (a1)
    CHECK_EQ 282, a0, 0xffffffff80000000
    ld a4, 0(a1)
    CHECK_EQ 283, a4, 0x5a5a5a5a7fffffff
    ld a4, 8(a1)
    CHECK_EQ 284, a4, 0x5a5a5a5a5a5a5a5a
    /* amoadd.w */
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x0
    sw a2, 0(a1)
    li a3, 0x0
    amoadd.w a0, a3, (a1)
    CHECK_EQ 285, a0, 0x0
    ld a4, 0(a1)
    CHECK_EQ 286, a4, 0x5a5a5a5a00000000
    ld a4, 8(a1)
    CHECK_EQ 287, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x1
    sw a2, 0(a1)
    li a3, 0xffffffffffffffff
    amoadd.w a0, a3, (a1)
    CHECK_EQ 288, a0, 0x1
    ld a4, 0(a1)
    CHECK_EQ 289, a4, 0x5a5a5a5a00000000
    ld a4, 8(a1)
    CHECK_EQ 290, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sw a2, 0(a1)
    li a3, 0x1
    amoadd.w a0, a3, (a1)
    CHECK_EQ 291, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 292, a4, 0x5a5a5a5a00000000
    ld a4, 8(a1)
    CHECK_EQ 293, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sw a2, 0(a1)
    li a3, 0x8000000000000000
    amoadd.w a0, a3, (a1)
    CHECK_EQ 294, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 295, a4, 0x5a5a5a5affffffff
    ld a4, 8(a1)
    CHECK_EQ 296, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x0
    sw a2, 0(a1)
    li a3, 0x1
    amoadd.w a0, a3, (a1)
    CHECK_EQ 297, a0, 0x0
    ld a4, 0(a1)
    CHECK_EQ 298, a4, 0x5a5a5a5a00000001
    ld a4, 8(a1)
    CHECK_EQ 299, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sw a2, 0(a1)
    li a3, 0x80000000
    amoadd.w a0, a3, (a1)
    CHECK_EQ 300, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 301, a4, 0x5a5a5a5a7fffffff
    ld a4, 8(a1)
    CHECK_EQ 302, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x89abcdef
    sw a2, 0(a1)
    li a3, 0xfedcba9876543210
    amoadd.w a0, a3, (a1)
    CHECK_EQ 303, a0, 0xffffffff89abcdef
    ld a4, 0(a1)
    CHECK_EQ 304, a4, 0x5a5a5a5affffffff
    ld a4, 8(a1)
    CHECK_EQ 305, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x7fffffff
    sw a2, 0(a1)
    li a3, 0x1
    amoadd.w a0, a3, (a1)
    CHECK_EQ 306, a0, 0x7fffffff
    ld a4, 0(a1)
    CHECK_EQ 307, a4, 0x5a5a5a5a80000000
    ld a4, 8(a1)
    CHECK_EQ 308, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x80000000
    sw a2, 0(a1)
    li a3, 0x7fffffff
    amoadd.w a0, a3, (a1)
    CHECK_EQ 309, a0, 0xffffffff80000000
    ld a4, 0(a1)
    CHECK_EQ 310, a4, 0x5a5a5a5affffffff
    ld a4, 8(a1)
    CHECK_EQ 311, a4, 0x5a5a5a5a5a5a5a5a
    /* amoxor.w */
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x0
    sw a2, 0(a1)
    li a3, 0x0
    amoxor.w a0, a3, (a1)
    CHECK_EQ 312, a0, 0x0
    ld a4, 0(a1)
    CHECK_EQ 313, a4, 0x5a5a5a5a00000000
    ld a4, 8(a1)
    CHECK_EQ 314, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x1
    sw a2, 0(a1)
    li a3, 0xffffffffffffffff
    amoxor.w a0, a3, (a1)
    CHECK_EQ 315, a0, 0x1
    ld a4, 0(a1)
    CHECK_EQ 316, a4, 0x5a5a5a5afffffffe
    ld a4, 8(a1)
    CHECK_EQ 317, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sw a2, 0(a1)
    li a3, 0x1
    amoxor.w a0, a3, (a1)
    CHECK_EQ 318, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 319, a4, 0x5a5a5a5afffffffe
    ld a4, 8(a1)
    CHECK_EQ 320, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sw a2, 0(a1)
    li a3, 0x8000000000000000
    amoxor.w a0, a3, (a1)
    CHECK_EQ 321, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 322, a4, 0x5a5a5a5affffffff
    ld a4, 8(a1)
    CHECK_EQ 323, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x0
    sw a2, 0(a1)
    li a3, 0x1
    amoxor.w a0, a3, (a1)
    CHECK_EQ 324, a0, 0x0
    ld a4, 0(a1)
    CHECK_EQ 325, a4, 0x5a5a5a5a00000001
    ld a4, 8(a1)
    CHECK_EQ 326, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sw a2, 0(a1)
    li a3, 0x80000000
    amoxor.w a0, a3, (a1)
    CHECK_EQ 327, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 328, a4, 0x5a5a5a5a7fffffff
    ld a4, 8(a1)
    CHECK_EQ 329, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x89abcdef
    sw a2, 0(a1)
    li a3, 0xfedcba9876543210
    amoxor.w a0, a3, (a1)
    CHECK_EQ 330, a0, 0xffffffff89abcdef
    ld a4, 0(a1)
    CHECK_EQ 331, a4, 0x5a5a5a5affffffff
    ld a4, 8(a1)
    CHECK_EQ 332, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x7fffffff
    sw a2, 0(a1)
    li a3, 0x1
    amoxor.w a0, a3, (a1)
    CHECK_EQ 333, a0, 0x7fffffff
    ld a4, 0(a1)
    CHECK_EQ 334, a4, 0x5a5a5a5a7ffffffe
    ld a4, 8(a1)
    CHECK_EQ 335, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x80000000
    sw a2, 0(a1)
    li a3, 0x7fffffff
    amoxor.w a0, a3, (a1)
    CHECK_EQ 336, a0, 0xffffffff80000000
    ld a4, 0(a1)
    CHECK_EQ 337, a4, 0x5a5a5a5affffffff
    ld a4, 8(a1)
    CHECK_EQ 338, a4, 0x5a5a5a5a5a5a5a5a
    /* amoand.w */
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x0
    sw a2, 0(a1)
    li a3, 0x0
    amoand.w a0, a3, (a1)
    CHECK_EQ 339, a0, 0x0
    ld a4, 0(a1)
    CHECK_EQ 340, a4, 0x5a5a5a5a00000000
    ld a4, 8(a1)
    CHECK_EQ 341, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x1
    sw a2, 0(a1)
    li a3, 0xffffffffffffffff
    amoand.w a0, a3, (a1)
    CHECK_EQ 342, a0, 0x1
    ld a4, 0(a1)
    CHECK_EQ 343, a4, 0x5a5a5a5a00000001
    ld a4, 8(a1)
    CHECK_EQ 344, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sw a2, 0(a1)
    li a3, 0x1
    amoand.w a0, a3, (a1)
    CHECK_EQ 345, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 346, a4, 0x5a5a5a5a00000001
    ld a4, 8(a1)
    CHECK_EQ 347, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sw a2, 0(a1)
    li a3, 0x8000000000000000
    amoand.w a0, a3, (a1)
    CHECK_EQ 348, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 349, a4, 0x5a5a5a5a00000000
    ld a4, 8(a1)
    CHECK_EQ 350, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x0
    sw a2, 0(a1)
    li a3, 0x1
    amoand.w a0, a3, (a1)
    CHECK_EQ 351, a0, 0x0
    ld a4, 0(a1)
    CHECK_EQ 352, a4, 0x5a5a5a5a00000000
    ld a4, 8(a1)
    CHECK_EQ 353, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sw a2, 0(a1)
    li a3, 0x80000000
    amoand.w a0, a3, (a1)
    CHECK_EQ 354, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 355, a4, 0x5a5a5a5a80000000
    ld a4, 8(a1)
    CHECK_EQ 356, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x89abcdef
    sw a2, 0(a1)
    li a3, 0xfedcba9876543210
    amoand.w a0, a3, (a1)
    CHECK_EQ 357, a0, 0xffffffff89abcdef
    ld a4, 0(a1)
    CHECK_EQ 358, a4, 0x5a5a5a5a00000000
    ld a4, 8(a1)
    CHECK_EQ 359, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x7fffffff
    sw a2, 0(a1)
    li a3, 0x1
    amoand.w a0, a3, (a1)
    CHECK_EQ 360, a0, 0x7fffffff
    ld a4, 0(a1)
    CHECK_EQ 361, a4, 0x5a5a5a5a00000001
    ld a4, 8(a1)
    CHECK_EQ 362, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x80000000
    sw a2, 0(a1)
    li a3, 0x7fffffff
    amoand.w a0, a3, (a1)
    CHECK_EQ 363, a0, 0xffffffff80000000
    ld a4, 0(a1)
    CHECK_EQ 364, a4, 0x5a5a5a5a00000000
    ld a4, 8(a1)
    CHECK_EQ 365, a4, 0x5a5a5a5a5a5a5a5a
    /* amoor.w */
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x0
    sw a2, 0(a1)
    li a3, 0x0
    amoor.w a0, a3, (a1)
    CHECK_EQ 366, a0, 0x0
    ld a4, 0(a1)
    CHECK_EQ 367, a4, 0x5a5a5a5a00000000
    ld a4, 8(a1)
    CHECK_EQ 368, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x1
    sw a2, 0(a1)
    li a3, 0xffffffffffffffff
    amoor.w a0, a3, (a1)
    CHECK_EQ 369, a0, 0x1
    ld a4, 0(a1)
    CHECK_EQ 370, a4, 0x5a5a5a5affffffff
    ld a4, 8(a1)
    CHECK_EQ 371, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sw a2, 0(a1)
    li a3, 0x1
    amoor.w a0, a3, (a1)
    CHECK_EQ 372, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 373, a4, 0x5a5a5a5affffffff
    ld a4, 8(a1)
    CHECK_EQ 374, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sw a2, 0(a1)
    li a3, 0x8000000000000000
    amoor.w a0, a3, (a1)
    CHECK_EQ 375, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 376, a4, 0x5a5a5a5affffffff
    ld a4, 8(a1)
    CHECK_EQ 377, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x0
    sw a2, 0(a1)
    li a3, 0x1
    amoor.w a0, a3, (a1)
    CHECK_EQ 378, a0, 0x0
    ld a4, 0(a1)
    CHECK_EQ 379, a4, 0x5a5a5a5a00000001
    ld a4, 8(a1)
    CHECK_EQ 380, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sw a2, 0(a1)
    li a3, 0x80000000
    amoor.w a0, a3, (a1)
    CHECK_EQ 381, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 382, a4, 0x5a5a5a5affffffff
    ld a4, 8(a1)
    CHECK_EQ 383, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x89abcdef
    sw a2, 0(a1)
    li a3, 0xfedcba9876543210
    amoor.w a0, a3, (a1)
    CHECK_EQ 384, a0, 0xffffffff89abcdef
    ld a4, 0(a1)
    CHECK_EQ 385, a4, 0x5a5a5a5affffffff
    ld a4, 8(a1)
    CHECK_EQ 386, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x7fffffff
    sw a2, 0(a1)
    li a3, 0x1
    amoor.w a0, a3, (a1)
    CHECK_EQ 387, a0, 0x7fffffff
    ld a4, 0(a1)
    CHECK_EQ 388, a4, 0x5a5a5a5a7fffffff
    ld a4, 8(a1)
    CHECK_EQ 389, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x80000000
    sw a2, 0(a1)
    li a3, 0x7fffffff
    amoor.w a0, a3, (a1)
    CHECK_EQ 390, a0, 0xffffffff80000000
    ld a4, 0(a1)
    CHECK_EQ 391, a4, 0x5a5a5a5affffffff
    ld a4, 8(a1)
    CHECK_EQ 392, a4, 0x5a5a5a5a5a5a5a5a
    /* amomin.w */
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x0
    sw a2, 0(a1)
    li a3, 0x0
    amomin.w a0, a3, (a1)
    CHECK_EQ 393, a0, 0x0
    ld a4, 0(a1)
    CHECK_EQ 394, a4, 0x5a5a5a5a00000000
    ld a4, 8(a1)
    CHECK_EQ 395, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x1
    sw a2, 0(a1)
    li a3, 0xffffffffffffffff
    amomin.w a0, a3, (a1)
    CHECK_EQ 396, a0, 0x1
    ld a4, 0(a1)
    CHECK_EQ 397, a4, 0x5a5a5a5affffffff
    ld a4, 8(a1)
    CHECK_EQ 398, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sw a2, 0(a1)
    li a3, 0x1
    amomin.w a0, a3, (a1)
    CHECK_EQ 399, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 400, a4, 0x5a5a5a5affffffff
    ld a4, 8(a1)
    CHECK_EQ 401, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sw a2, 0(a1)
    li a3, 0x8000000000000000
    amomin.w a0, a3, (a1)
    CHECK_EQ 402, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 403, a4, 0x5a5a5a5affffffff
    ld a4, 8(a1)
    CHECK_EQ 404, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x0
    sw a2, 0(a1)
    li a3, 0x1
    amomin.w a0, a3, (a1)
    CHECK_EQ 405, a0, 0x0
    ld a4, 0(a1)
    CHECK_EQ 406, a4, 0x5a5a5a5a00000000
    ld a4, 8(a1)
    CHECK_EQ 407, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sw a2, 0(a1)
    li a3, 0x80000000
    amomin.w a0, a3, (a1)
    CHECK_EQ 408, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 409, a4, 0x5a5a5a5a80000000
    ld a4, 8(a1)
    CHECK_EQ 410, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x89abcdef
    sw a2, 0(a1)
    li a3, 0xfedcba9876543210
    amomin.w a0, a3, (a1)
    CHECK_EQ 411, a0, 0xffffffff89abcdef
    ld a4, 0(a1)
    CHECK_EQ 412, a4, 0x5a5a5a5a89abcdef
    ld a4, 8(a1)
    CHECK_EQ 413, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x7fffffff
    sw a2, 0(a1)
    li a3, 0x1
    amomin.w a0, a3, (a1)
    CHECK_EQ 414, a0, 0x7fffffff
    ld a4, 0(a1)
    CHECK_EQ 415, a4, 0x5a5a5a5a00000001
    ld a4, 8(a1)
    CHECK_EQ 416, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x80000000
    sw a2, 0(a1)
    li a3, 0x7fffffff
    amomin.w a0, a3, (a1)
    CHECK_EQ 417, a0, 0xffffffff80000000
    ld a4, 0(a1)
    CHECK_EQ 418, a4, 0x5a5a5a5a80000000
    ld a4, 8(a1)
    CHECK_EQ 419, a4, 0x5a5a5a5a5a5a5a5a
    /* amomax.w */
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x0
    sw a2, 0(a1)
    li a3, 0x0
    amomax.w a0, a3, (a1)
    CHECK_EQ 420, a0, 0x0
    ld a4, 0(a1)
    CHECK_EQ 421, a4, 0x5a5a5a5a00000000
    ld a4, 8(a1)
    CHECK_EQ 422, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x1
    sw a2, 0(a1)
    li a3, 0xffffffffffffffff
    amomax.w a0, a3, (a1)
    CHECK_EQ 423, a0, 0x1
    ld a4, 0(a1)
    CHECK_EQ 424, a4, 0x5a5a5a5a00000001
    ld a4, 8(a1)
    CHECK_EQ 425, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sw a2, 0(a1)
    li a3, 0x1
    amomax.w a0, a3, (a1)
    CHECK_EQ 426, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 427, a4, 0x5a5a5a5a00000001
    ld a4, 8(a1)
    CHECK_EQ 428, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sw a2, 0(a1)
    li a3, 0x8000000000000000
    amomax.w a0, a3, (a1)
    CHECK_EQ 429, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 430, a4, 0x5a5a5a5a00000000
    ld a4, 8(a1)
    CHECK_EQ 431, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x0
    sw a2, 0(a1)
    li a3, 0x1
    amomax.w a0, a3, (a1)
    CHECK_EQ 432, a0, 0x0
    ld a4, 0(a1)
    CHECK_EQ 433, a4, 0x5a5a5a5a00000001
    ld a4, 8(a1)
    CHECK_EQ 434, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sw a2, 0(a1)
    li a3, 0x80000000
    amomax.w a0, a3, (a1)
    CHECK_EQ 435, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 436, a4, 0x5a5a5a5affffffff
    ld a4, 8(a1)
    CHECK_EQ 437, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x89abcdef
    sw a2, 0(a1)
    li a3, 0xfedcba9876543210
    amomax.w a0, a3, (a1)
    CHECK_EQ 438, a0, 0xffffffff89abcdef
    ld a4, 0(a1)
    CHECK_EQ 439, a4, 0x5a5a5a5a76543210
    ld a4, 8(a1)
    CHECK_EQ 440, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x7fffffff
    sw a2, 0(a1)
    li a3, 0x1
    amomax.w a0, a3, (a1)
    CHECK_EQ 441, a0, 0x7fffffff
    ld a4, 0(a1)
    CHECK_EQ 442, a4, 0x5a5a5a5a7fffffff
    ld a4, 8(a1)
    CHECK_EQ 443, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x80000000
    sw a2, 0(a1)
    li a3, 0x7fffffff
    amomax.w a0, a3, (a1)
    CHECK_EQ 444, a0, 0xffffffff80000000
    ld a4, 0(a1)
    CHECK_EQ 445, a4, 0x5a5a5a5a7fffffff
    ld a4, 8(a1)
    CHECK_EQ 446, a4, 0x5a5a5a5a5a5a5a5a
    /* amominu.w */
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x0
    sw a2, 0(a1)
    li a3, 0x0
    amominu.w a0, a3, (a1)
    CHECK_EQ 447, a0, 0x0
    ld a4, 0(a1)
    CHECK_EQ 448, a4, 0x5a5a5a5a00000000
    ld a4, 8(a1)
    CHECK_EQ 449, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x1
    sw a2, 0(a1)
    li a3, 0xffffffffffffffff
    amominu.w a0, a3, (a1)
    CHECK_EQ 450, a0, 0x1
    ld a4, 0(a1)
    CHECK_EQ 451, a4, 0x5a5a5a5a00000001
    ld a4, 8(a1)
    CHECK_EQ 452, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sw a2, 0(a1)
    li a3, 0x1
    amominu.w a0, a3, (a1)
    CHECK_EQ 453, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 454, a4, 0x5a5a5a5a00000001
    ld a4, 8(a1)
    CHECK_EQ 455, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sw a2, 0(a1)
    li a3, 0x8000000000000000
    amominu.w a0, a3, (a1)
    CHECK_EQ 456, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 457, a4, 0x5a5a5a5a00000000
    ld a4, 8(a1)
    CHECK_EQ 458, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x0
    sw a2, 0(a1)
    li a3, 0x1
    amominu.w a0, a3, (a1)
    CHECK_EQ 459, a0, 0x0
    ld a4, 0(a1)
    CHECK_EQ 460, a4, 0x5a5a5a5a00000000
    ld a4, 8(a1)
    CHECK_EQ 461, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sw a2, 0(a1)
    li a3, 0x80000000
    amominu.w a0, a3, (a1)
    CHECK_EQ 462, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 463, a4, 0x5a5a5a5a80000000
    ld a4, 8(a1)
    CHECK_EQ 464, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x89abcdef
    sw a2, 0(a1)
    li a3, 0xfedcba9876543210
    amominu.w a0, a3, (a1)
    CHECK_EQ 465, a0, 0xffffffff89abcdef
    ld a4, 0(a1)
    CHECK_EQ 466, a4, 0x5a5a5a5a76543210
    ld a4, 8(a1)
    CHECK_EQ 467, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x7fffffff
    sw a2, 0(a1)
    li a3, 0x1
    amominu.w a0, a3, (a1)
    CHECK_EQ 468, a0, 0x7fffffff
    ld a4, 0(a1)
    CHECK_EQ 469, a4, 0x5a5a5a5a00000001
    ld a4, 8(a1)
    CHECK_EQ 470, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x80000000
    sw a2, 0(a1)
    li a3, 0x7fffffff
    amominu.w a0, a3, (a1)
    CHECK_EQ 471, a0, 0xffffffff80000000
    ld a4, 0(a1)
    CHECK_EQ 472, a4, 0x5a5a5a5a7fffffff
    ld a4, 8(a1)
    CHECK_EQ 473, a4, 0x5a5a5a5a5a5a5a5a
    /* amomaxu.w */
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x0
    sw a2, 0(a1)
    li a3, 0x0
    amomaxu.w a0, a3, (a1)
    CHECK_EQ 474, a0, 0x0
    ld a4, 0(a1)
    CHECK_EQ 475, a4, 0x5a5a5a5a00000000
    ld a4, 8(a1)
    CHECK_EQ 476, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x1
    sw a2, 0(a1)
    li a3, 0xffffffffffffffff
    amomaxu.w a0, a3, (a1)
    CHECK_EQ 477, a0, 0x1
    ld a4, 0(a1)
    CHECK_EQ 478, a4, 0x5a5a5a5affffffff
    ld a4, 8(a1)
    CHECK_EQ 479, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sw a2, 0(a1)
    li a3, 0x1
    amomaxu.w a0, a3, (a1)
    CHECK_EQ 480, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 481, a4, 0x5a5a5a5affffffff
    ld a4, 8(a1)
    CHECK_EQ 482, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sw a2, 0(a1)
    li a3, 0x8000000000000000
    amomaxu.w a0, a3, (a1)
    CHECK_EQ 483, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 484, a4, 0x5a5a5a5affffffff
    ld a4, 8(a1)
    CHECK_EQ 485, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x0
    sw a2, 0(a1)
    li a3, 0x1
    amomaxu.w a0, a3, (a1)
    CHECK_EQ 486, a0, 0x0
    ld a4, 0(a1)
    CHECK_EQ 487, a4, 0x5a5a5a5a00000001
    ld a4, 8(a1)
    CHECK_EQ 488, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0xffffffff
    sw a2, 0(a1)
    li a3, 0x80000000
    amomaxu.w a0, a3, (a1)
    CHECK_EQ 489, a0, 0xffffffffffffffff
    ld a4, 0(a1)
    CHECK_EQ 490, a4, 0x5a5a5a5affffffff
    ld a4, 8(a1)
    CHECK_EQ 491, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x89abcdef
    sw a2, 0(a1)
    li a3, 0xfedcba9876543210
    amomaxu.w a0, a3, (a1)
    CHECK_EQ 492, a0, 0xffffffff89abcdef
    ld a4, 0(a1)
    CHECK_EQ 493, a4, 0x5a5a5a5a89abcdef
    ld a4, 8(a1)
    CHECK_EQ 494, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x7fffffff
    sw a2, 0(a1)
    li a3, 0x1
    amomaxu.w a0, a3, (a1)
    CHECK_EQ 495, a0, 0x7fffffff
    ld a4, 0(a1)
    CHECK_EQ 496, a4, 0x5a5a5a5a7fffffff
    ld a4, 8(a1)
    CHECK_EQ 497, a4, 0x5a5a5a5a5a5a5a5a
    la a1, amo_d
    li a2, 0x5a5a5a5a5a5a5a5a
    sd a2, 8(a1)
    sd a2, 0(a1)
    li a2, 0x80000000
    sw a2, 0(a1)
    li a3, 0x7fffffff
    amomaxu.w a0, a3, (a1)
    CHECK_EQ 498, a0, 0xffffffff80000000
    ld a4, 0(a1)
    CHECK_EQ 499, a4, 0x5a5a5a5a80000000
    ld a4, 8(a1)
    CHECK_EQ 500, a4, 0x5a5a5a5a5a5a5a5a
    /* amoadd.w at offset 4 / 8, aq/rl variants */
    la a1, amo_d
    li a2, 0x7fffffff00000005
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 4
    li a3, 1
    amoadd.w.aq a0, a3, (a5)
    CHECK_EQ 501, a0, 0x7fffffff
    ld a4, 0(a1)
    CHECK_EQ 502, a4, 0x8000000000000005
    amoadd.w.rl a0, a3, (a5)
    CHECK_EQ 503, a0, 0xffffffff80000000
    amoadd.w.aqrl a0, a3, (a1)
    CHECK_EQ 504, a0, 5
    ld a4, 0(a1)
    CHECK_EQ 505, a4, 0x8000000100000006
    /* rd = x0 still updates memory; rd = rs2 */
    la a1, amo_d
    li a2, 100
    sw a2, 0(a1)
    li a3, 23
    amoadd.w x0, a3, (a1)
    CHECK_EQ 506, x0, 0
    lw a4, 0(a1)
    CHECK_EQ 507, a4, 123
    amoswap.w a3, a3, (a1)
    CHECK_EQ 508, a3, 123
    lw a4, 0(a1)
    CHECK_EQ 509, a4, 23

/* ---------------- LR / SC ---------------- */
    /* lr.d / sc.d success */
    la a1, amo_d
    li a2, -1
    sd a2, 0(a1)
    lr.d a0, (a1)
    CHECK_EQ 510, a0, -1
    li a3, 0x0123456789abcdef
    sc.d a4, a3, (a1)
    CHECK_EQ 513, a4, 0
    ld a5, 0(a1)
    CHECK_EQ 514, a5, 0x0123456789abcdef
    /* a second SC without a new LR fails and writes nothing */
    li a3, 0x77
    sc.d a4, a3, (a1)
    CHECK_NER 515, a4, zero
    ld a5, 0(a1)
    CHECK_EQ 516, a5, 0x0123456789abcdef
    /* SC to an address outside the reservation set (4 KiB away) fails; the
       failed SC also ends the reservation, so an SC to the LR address fails too */
    la a1, amo_d
    la a2, amo_far
    li a3, 0x55
    sd a3, 0(a1)
    sd a3, 0(a2)
    lr.d a0, (a1)
    li a3, 0x66
    sc.d a4, a3, (a2)
    CHECK_NER 517, a4, zero
    ld a5, 0(a2)
    CHECK_EQ 518, a5, 0x55
    sc.d a4, a3, (a1)
    CHECK_NER 519, a4, zero
    ld a5, 0(a1)
    CHECK_EQ 520, a5, 0x55
    /* lr/sc with aq/rl bits */
    lr.d.aq a0, (a1)
    sc.d.rl a4, a3, (a1)
    CHECK_EQ 521, a4, 0
    lr.d.aqrl a0, (a1)
    CHECK_EQ 522, a0, 0x66
    sc.d.aqrl a4, a0, (a1)
    CHECK_EQ 523, a4, 0
    /* lr.w / sc.w success */
    la a1, amo_d
    li a2, -1
    sd a2, 0(a1)
    lr.w a0, (a1)
    CHECK_EQ 524, a0, -1
    li a3, 0x0123456789abcdef
    sc.w a4, a3, (a1)
    CHECK_EQ 525, a4, 0
    ld a5, 0(a1)
    CHECK_EQ 526, a5, 0xffffffff89abcdef
    /* a second SC without a new LR fails and writes nothing */
    li a3, 0x77
    sc.w a4, a3, (a1)
    CHECK_NER 527, a4, zero
    ld a5, 0(a1)
    CHECK_EQ 528, a5, 0xffffffff89abcdef
    /* SC to an address outside the reservation set (4 KiB away) fails; the
       failed SC also ends the reservation, so an SC to the LR address fails too */
    la a1, amo_d
    la a2, amo_far
    li a3, 0x55
    sd a3, 0(a1)
    sd a3, 0(a2)
    lr.w a0, (a1)
    li a3, 0x66
    sc.w a4, a3, (a2)
    CHECK_NER 529, a4, zero
    ld a5, 0(a2)
    CHECK_EQ 530, a5, 0x55
    sc.w a4, a3, (a1)
    CHECK_NER 531, a4, zero
    ld a5, 0(a1)
    CHECK_EQ 532, a5, 0x55
    /* lr/sc with aq/rl bits */
    lr.w.aq a0, (a1)
    sc.w.rl a4, a3, (a1)
    CHECK_EQ 533, a4, 0
    lr.w.aqrl a0, (a1)
    CHECK_EQ 534, a0, 0x66
    sc.w.aqrl a4, a0, (a1)
    CHECK_EQ 535, a4, 0
    /* lr.w sign-extends; sc.w writes only 32 bits */
    la a1, amo_d
    li a2, 0x1234567880000000
    sd a2, 0(a1)
    lr.w a0, (a1)
    CHECK_EQ 536, a0, 0xffffffff80000000
    li a3, -1
    sc.w a4, a3, (a1)
    CHECK_EQ 537, a4, 0
    ld a5, 0(a1)
    CHECK_EQ 538, a5, 0x12345678ffffffff
    /* lr.w on the upper word */
    addi a6, a1, 4
    lr.w a0, (a6)
    CHECK_EQ 539, a0, 0x12345678
    sc.w a4, zero, (a6)
    CHECK_EQ 540, a4, 0
    ld a5, 0(a1)
    CHECK_EQ 541, a5, 0x00000000ffffffff
    /* LR/SC retry loop: atomic increment 100 times */
    la a1, amo_d
    sd zero, 0(a1)
    li a2, 100
1:  lr.d a0, (a1)
    addi a0, a0, 3
    sc.d a4, a0, (a1)
    bnez a4, 1b
    addi a2, a2, -1
    bnez a2, 1b
    ld a0, 0(a1)
    CHECK_EQ 542, a0, 300
    /* sc rd = x0 */
    lr.d a0, (a1)
    li a3, 9
    sc.d x0, a3, (a1)
    ld a0, 0(a1)
    CHECK_EQ 543, a0, 9
    CHECK_EQ 544, x0, 0

/* ---------------- faults ---------------- */
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 1
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 545, CAUSE_MISALIGNED_STORE, amoswap.w a0, a3, (a5)
    CHECK_TVAL_M 545, a5
    CHECK_EQ 545, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 545, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 545, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 2
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 546, CAUSE_MISALIGNED_STORE, amoswap.w a0, a3, (a5)
    CHECK_TVAL_M 546, a5
    CHECK_EQ 546, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 546, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 546, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 4
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 547, CAUSE_MISALIGNED_STORE, amoswap.d a0, a3, (a5)
    CHECK_TVAL_M 547, a5
    CHECK_EQ 547, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 547, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 547, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 1
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 548, CAUSE_MISALIGNED_STORE, amoswap.d a0, a3, (a5)
    CHECK_TVAL_M 548, a5
    CHECK_EQ 548, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 548, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 548, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 1
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 549, CAUSE_MISALIGNED_STORE, amoadd.w a0, a3, (a5)
    CHECK_TVAL_M 549, a5
    CHECK_EQ 549, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 549, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 549, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 2
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 550, CAUSE_MISALIGNED_STORE, amoadd.w a0, a3, (a5)
    CHECK_TVAL_M 550, a5
    CHECK_EQ 550, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 550, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 550, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 4
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 551, CAUSE_MISALIGNED_STORE, amoadd.d a0, a3, (a5)
    CHECK_TVAL_M 551, a5
    CHECK_EQ 551, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 551, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 551, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 1
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 552, CAUSE_MISALIGNED_STORE, amoadd.d a0, a3, (a5)
    CHECK_TVAL_M 552, a5
    CHECK_EQ 552, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 552, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 552, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 1
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 553, CAUSE_MISALIGNED_STORE, amoxor.w a0, a3, (a5)
    CHECK_TVAL_M 553, a5
    CHECK_EQ 553, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 553, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 553, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 2
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 554, CAUSE_MISALIGNED_STORE, amoxor.w a0, a3, (a5)
    CHECK_TVAL_M 554, a5
    CHECK_EQ 554, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 554, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 554, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 4
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 555, CAUSE_MISALIGNED_STORE, amoxor.d a0, a3, (a5)
    CHECK_TVAL_M 555, a5
    CHECK_EQ 555, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 555, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 555, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 1
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 556, CAUSE_MISALIGNED_STORE, amoxor.d a0, a3, (a5)
    CHECK_TVAL_M 556, a5
    CHECK_EQ 556, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 556, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 556, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 1
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 557, CAUSE_MISALIGNED_STORE, amoand.w a0, a3, (a5)
    CHECK_TVAL_M 557, a5
    CHECK_EQ 557, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 557, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 557, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 2
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 558, CAUSE_MISALIGNED_STORE, amoand.w a0, a3, (a5)
    CHECK_TVAL_M 558, a5
    CHECK_EQ 558, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 558, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 558, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 4
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 559, CAUSE_MISALIGNED_STORE, amoand.d a0, a3, (a5)
    CHECK_TVAL_M 559, a5
    CHECK_EQ 559, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 559, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 559, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 1
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 560, CAUSE_MISALIGNED_STORE, amoand.d a0, a3, (a5)
    CHECK_TVAL_M 560, a5
    CHECK_EQ 560, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 560, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 560, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 1
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 561, CAUSE_MISALIGNED_STORE, amoor.w a0, a3, (a5)
    CHECK_TVAL_M 561, a5
    CHECK_EQ 561, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 561, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 561, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 2
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 562, CAUSE_MISALIGNED_STORE, amoor.w a0, a3, (a5)
    CHECK_TVAL_M 562, a5
    CHECK_EQ 562, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 562, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 562, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 4
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 563, CAUSE_MISALIGNED_STORE, amoor.d a0, a3, (a5)
    CHECK_TVAL_M 563, a5
    CHECK_EQ 563, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 563, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 563, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 1
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 564, CAUSE_MISALIGNED_STORE, amoor.d a0, a3, (a5)
    CHECK_TVAL_M 564, a5
    CHECK_EQ 564, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 564, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 564, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 1
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 565, CAUSE_MISALIGNED_STORE, amomin.w a0, a3, (a5)
    CHECK_TVAL_M 565, a5
    CHECK_EQ 565, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 565, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 565, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 2
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 566, CAUSE_MISALIGNED_STORE, amomin.w a0, a3, (a5)
    CHECK_TVAL_M 566, a5
    CHECK_EQ 566, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 566, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 566, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 4
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 567, CAUSE_MISALIGNED_STORE, amomin.d a0, a3, (a5)
    CHECK_TVAL_M 567, a5
    CHECK_EQ 567, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 567, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 567, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 1
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 568, CAUSE_MISALIGNED_STORE, amomin.d a0, a3, (a5)
    CHECK_TVAL_M 568, a5
    CHECK_EQ 568, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 568, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 568, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 1
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 569, CAUSE_MISALIGNED_STORE, amomax.w a0, a3, (a5)
    CHECK_TVAL_M 569, a5
    CHECK_EQ 569, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 569, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 569, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 2
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 570, CAUSE_MISALIGNED_STORE, amomax.w a0, a3, (a5)
    CHECK_TVAL_M 570, a5
    CHECK_EQ 570, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 570, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 570, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 4
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 571, CAUSE_MISALIGNED_STORE, amomax.d a0, a3, (a5)
    CHECK_TVAL_M 571, a5
    CHECK_EQ 571, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 571, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 571, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 1
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 572, CAUSE_MISALIGNED_STORE, amomax.d a0, a3, (a5)
    CHECK_TVAL_M 572, a5
    CHECK_EQ 572, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 572, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 572, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 1
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 573, CAUSE_MISALIGNED_STORE, amominu.w a0, a3, (a5)
    CHECK_TVAL_M 573, a5
    CHECK_EQ 573, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 573, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 573, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 2
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 574, CAUSE_MISALIGNED_STORE, amominu.w a0, a3, (a5)
    CHECK_TVAL_M 574, a5
    CHECK_EQ 574, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 574, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 574, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 4
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 575, CAUSE_MISALIGNED_STORE, amominu.d a0, a3, (a5)
    CHECK_TVAL_M 575, a5
    CHECK_EQ 575, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 575, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 575, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 1
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 576, CAUSE_MISALIGNED_STORE, amominu.d a0, a3, (a5)
    CHECK_TVAL_M 576, a5
    CHECK_EQ 576, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 576, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 576, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 1
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 577, CAUSE_MISALIGNED_STORE, amomaxu.w a0, a3, (a5)
    CHECK_TVAL_M 577, a5
    CHECK_EQ 577, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 577, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 577, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 2
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 578, CAUSE_MISALIGNED_STORE, amomaxu.w a0, a3, (a5)
    CHECK_TVAL_M 578, a5
    CHECK_EQ 578, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 578, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 578, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 4
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 579, CAUSE_MISALIGNED_STORE, amomaxu.d a0, a3, (a5)
    CHECK_TVAL_M 579, a5
    CHECK_EQ 579, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 579, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 579, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 1
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 580, CAUSE_MISALIGNED_STORE, amomaxu.d a0, a3, (a5)
    CHECK_TVAL_M 580, a5
    CHECK_EQ 580, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 580, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 580, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 2
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 581, CAUSE_MISALIGNED_LOAD, lr.w a0, (a5)
    CHECK_TVAL_M 581, a5
    CHECK_EQ 581, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 581, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 581, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 2
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 582, CAUSE_MISALIGNED_STORE, sc.w a0, a3, (a5)
    CHECK_TVAL_M 582, a5
    CHECK_EQ 582, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 582, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 582, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 1
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 583, CAUSE_MISALIGNED_LOAD, lr.w a0, (a5)
    CHECK_TVAL_M 583, a5
    CHECK_EQ 583, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 583, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 583, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 1
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 584, CAUSE_MISALIGNED_STORE, sc.w a0, a3, (a5)
    CHECK_TVAL_M 584, a5
    CHECK_EQ 584, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 584, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 584, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 4
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 585, CAUSE_MISALIGNED_LOAD, lr.d a0, (a5)
    CHECK_TVAL_M 585, a5
    CHECK_EQ 585, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 585, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 585, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 4
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 586, CAUSE_MISALIGNED_STORE, sc.d a0, a3, (a5)
    CHECK_TVAL_M 586, a5
    CHECK_EQ 586, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 586, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 586, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 6
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 587, CAUSE_MISALIGNED_LOAD, lr.d a0, (a5)
    CHECK_TVAL_M 587, a5
    CHECK_EQ 587, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 587, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 587, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    addi a5, a1, 6
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 588, CAUSE_MISALIGNED_STORE, sc.d a0, a3, (a5)
    CHECK_TVAL_M 588, a5
    CHECK_EQ 588, a0, 0x1234     /* rd not written */
    ld a4, 0(a1)
    CHECK_EQ 588, a4, 0x0706050403020100
    ld a4, 8(a1)
    CHECK_EQ 588, a4, 0x0706050403020100
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    li a5, UNMAPPED_ADDR
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 589, CAUSE_STORE_ACCESS, amoadd.w a0, a3, (a5)
    CHECK_TVAL_M 589, a5
    CHECK_EQ 589, a0, 0x1234     /* rd not written */
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    li a5, UNMAPPED_ADDR + 8
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 590, CAUSE_STORE_ACCESS, amoswap.w a0, a3, (a5)
    CHECK_TVAL_M 590, a5
    CHECK_EQ 590, a0, 0x1234     /* rd not written */
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    li a5, UNMAPPED_ADDR
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 591, CAUSE_LOAD_ACCESS, lr.w a0, (a5)
    CHECK_TVAL_M 591, a5
    CHECK_EQ 591, a0, 0x1234     /* rd not written */
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    li a5, UNMAPPED_ADDR
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 592, CAUSE_STORE_ACCESS, amoadd.d a0, a3, (a5)
    CHECK_TVAL_M 592, a5
    CHECK_EQ 592, a0, 0x1234     /* rd not written */
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    li a5, UNMAPPED_ADDR + 8
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 593, CAUSE_STORE_ACCESS, amoswap.d a0, a3, (a5)
    CHECK_TVAL_M 593, a5
    CHECK_EQ 593, a0, 0x1234     /* rd not written */
    la a1, amo_d
    li a2, 0x0706050403020100
    sd a2, 0(a1)
    sd a2, 8(a1)
    li a5, UNMAPPED_ADDR
    li a3, -1
    li a0, 0x1234
    TEST_TRAP_M 594, CAUSE_LOAD_ACCESS, lr.d a0, (a5)
    CHECK_TVAL_M 594, a5
    CHECK_EQ 594, a0, 0x1234     /* rd not written */
    TEST_PASS

    .data
    .align 12
amo_d:   .space 64
    .align 12
amo_far: .space 64
