/* rv64m - multiply/divide: every M instruction over edge values: division by
 * zero (quotient all ones, remainder = dividend), signed overflow
 * (MIN / -1 = MIN, MIN % -1 = 0) for 64- and 32-bit forms, high-half products
 * for all sign combinations, W forms using only the low 32 bits of their
 * operands and sign-extending the result, register aliasing and x0. */
#include "test_macros.h"

    .option norvc
    .text
    .globl main
main:
    /* mul */
    TEST_RR 1, mul, 0x15, 0x7, 0x3
    TEST_RR 2, mul, 0xffffffffffffffeb, 0xfffffffffffffff9, 0x3
    TEST_RR 3, mul, 0xffffffffffffffeb, 0x7, 0xfffffffffffffffd
    TEST_RR 4, mul, 0x15, 0xfffffffffffffff9, 0xfffffffffffffffd
    TEST_RR 5, mul, 0x0, 0x0, 0x5
    TEST_RR 6, mul, 0x0, 0x5, 0x0
    TEST_RR 7, mul, 0x0, 0x0, 0x0
    TEST_RR 8, mul, 0x0, 0xffffffffffffffff, 0x0
    TEST_RR 9, mul, 0x0, 0x8000000000000000, 0x0
    TEST_RR 10, mul, 0x8000000000000000, 0x8000000000000000, 0xffffffffffffffff
    TEST_RR 11, mul, 0x8000000000000000, 0x8000000000000000, 0x1
    TEST_RR 12, mul, 0x8000000000000001, 0x7fffffffffffffff, 0xffffffffffffffff
    TEST_RR 13, mul, 0x1, 0x7fffffffffffffff, 0x7fffffffffffffff
    TEST_RR 14, mul, 0x0, 0x8000000000000000, 0x8000000000000000
    TEST_RR 15, mul, 0x8000000000000000, 0x7fffffffffffffff, 0x8000000000000000
    TEST_RR 16, mul, 0x1, 0xffffffffffffffff, 0xffffffffffffffff
    TEST_RR 17, mul, 0xffffffffffffffff, 0x1, 0xffffffffffffffff
    TEST_RR 18, mul, 0x2236d88fe5618cf0, 0x123456789abcdef, 0xfedcba9876543210
    TEST_RR 19, mul, 0xffffffff80000000, 0x80000000, 0xffffffffffffffff
    TEST_RR 20, mul, 0x80000000, 0xffffffff80000000, 0xffffffffffffffff
    TEST_RR 21, mul, 0x8000000080000000, 0xffffffff80000000, 0xffffffff
    TEST_RR 22, mul, 0x3fffffff00000001, 0x7fffffff, 0x7fffffff
    TEST_RR 23, mul, 0x0, 0x100000000, 0x100000000
    TEST_RR 24, mul, 0xa00000015, 0x100000007, 0x100000003
    TEST_RR 25, mul, 0x1fffffffe, 0xffffffff, 0x2
    TEST_RR 26, mul, 0x12345678000, 0x12345678, 0x1000
    TEST_RR 27, mul, 0xfffffedcba988000, 0xffffffffedcba988, 0x1000
    TEST_RR 28, mul, 0x76f233bf9acc5872, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR 29, mul, 0x8000000000000000, 0x3, 0x8000000000000000
    TEST_RR 30, mul, 0x0, 0x8000000000000000, 0x2
    TEST_RR_SRC1_EQ_DEST 31, mul, 0x76f233bf9acc5872, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR_SRC2_EQ_DEST 32, mul, 0x76f233bf9acc5872, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR_SRC12_EQ_DEST 33, mul, 0xb295b2eef140a504, 0xdeadbeefcafebabe
    TEST_RR_ZEROSRC1 34, mul, 0x0, 0x1234567
    TEST_RR_ZEROSRC2 35, mul, 0x0, 0xdeadbeefcafebabe
    TEST_RR_ZERODEST 36, mul, 0xdeadbeefcafebabe, 0x1234567
    /* mulh */
    TEST_RR 37, mulh, 0x0, 0x7, 0x3
    TEST_RR 38, mulh, 0xffffffffffffffff, 0xfffffffffffffff9, 0x3
    TEST_RR 39, mulh, 0xffffffffffffffff, 0x7, 0xfffffffffffffffd
    TEST_RR 40, mulh, 0x0, 0xfffffffffffffff9, 0xfffffffffffffffd
    TEST_RR 41, mulh, 0x0, 0x0, 0x5
    TEST_RR 42, mulh, 0x0, 0x5, 0x0
    TEST_RR 43, mulh, 0x0, 0x0, 0x0
    TEST_RR 44, mulh, 0x0, 0xffffffffffffffff, 0x0
    TEST_RR 45, mulh, 0x0, 0x8000000000000000, 0x0
    TEST_RR 46, mulh, 0x0, 0x8000000000000000, 0xffffffffffffffff
    TEST_RR 47, mulh, 0xffffffffffffffff, 0x8000000000000000, 0x1
    TEST_RR 48, mulh, 0xffffffffffffffff, 0x7fffffffffffffff, 0xffffffffffffffff
    TEST_RR 49, mulh, 0x3fffffffffffffff, 0x7fffffffffffffff, 0x7fffffffffffffff
    TEST_RR 50, mulh, 0x4000000000000000, 0x8000000000000000, 0x8000000000000000
    TEST_RR 51, mulh, 0xc000000000000000, 0x7fffffffffffffff, 0x8000000000000000
    TEST_RR 52, mulh, 0x0, 0xffffffffffffffff, 0xffffffffffffffff
    TEST_RR 53, mulh, 0xffffffffffffffff, 0x1, 0xffffffffffffffff
    TEST_RR 54, mulh, 0xfffeb49923cc0953, 0x123456789abcdef, 0xfedcba9876543210
    TEST_RR 55, mulh, 0xffffffffffffffff, 0x80000000, 0xffffffffffffffff
    TEST_RR 56, mulh, 0x0, 0xffffffff80000000, 0xffffffffffffffff
    TEST_RR 57, mulh, 0xffffffffffffffff, 0xffffffff80000000, 0xffffffff
    TEST_RR 58, mulh, 0x0, 0x7fffffff, 0x7fffffff
    TEST_RR 59, mulh, 0x1, 0x100000000, 0x100000000
    TEST_RR 60, mulh, 0x1, 0x100000007, 0x100000003
    TEST_RR 61, mulh, 0x0, 0xffffffff, 0x2
    TEST_RR 62, mulh, 0x0, 0x12345678, 0x1000
    TEST_RR 63, mulh, 0xffffffffffffffff, 0xffffffffedcba988, 0x1000
    TEST_RR 64, mulh, 0xffffffffffda1677, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR 65, mulh, 0xfffffffffffffffe, 0x3, 0x8000000000000000
    TEST_RR 66, mulh, 0xffffffffffffffff, 0x8000000000000000, 0x2
    TEST_RR_SRC1_EQ_DEST 67, mulh, 0xffffffffffda1677, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR_SRC2_EQ_DEST 68, mulh, 0xffffffffffda1677, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR_SRC12_EQ_DEST 69, mulh, 0x4564f33ec95849c, 0xdeadbeefcafebabe
    TEST_RR_ZEROSRC1 70, mulh, 0x0, 0x1234567
    TEST_RR_ZEROSRC2 71, mulh, 0x0, 0xdeadbeefcafebabe
    TEST_RR_ZERODEST 72, mulh, 0xdeadbeefcafebabe, 0x1234567
    /* mulhsu */
    TEST_RR 73, mulhsu, 0x0, 0x7, 0x3
    TEST_RR 74, mulhsu, 0xffffffffffffffff, 0xfffffffffffffff9, 0x3
    TEST_RR 75, mulhsu, 0x6, 0x7, 0xfffffffffffffffd
    TEST_RR 76, mulhsu, 0xfffffffffffffff9, 0xfffffffffffffff9, 0xfffffffffffffffd
    TEST_RR 77, mulhsu, 0x0, 0x0, 0x5
    TEST_RR 78, mulhsu, 0x0, 0x5, 0x0
    TEST_RR 79, mulhsu, 0x0, 0x0, 0x0
    TEST_RR 80, mulhsu, 0x0, 0xffffffffffffffff, 0x0
    TEST_RR 81, mulhsu, 0x0, 0x8000000000000000, 0x0
    TEST_RR 82, mulhsu, 0x8000000000000000, 0x8000000000000000, 0xffffffffffffffff
    TEST_RR 83, mulhsu, 0xffffffffffffffff, 0x8000000000000000, 0x1
    TEST_RR 84, mulhsu, 0x7ffffffffffffffe, 0x7fffffffffffffff, 0xffffffffffffffff
    TEST_RR 85, mulhsu, 0x3fffffffffffffff, 0x7fffffffffffffff, 0x7fffffffffffffff
    TEST_RR 86, mulhsu, 0xc000000000000000, 0x8000000000000000, 0x8000000000000000
    TEST_RR 87, mulhsu, 0x3fffffffffffffff, 0x7fffffffffffffff, 0x8000000000000000
    TEST_RR 88, mulhsu, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff
    TEST_RR 89, mulhsu, 0x0, 0x1, 0xffffffffffffffff
    TEST_RR 90, mulhsu, 0x121fa00ad77d742, 0x123456789abcdef, 0xfedcba9876543210
    TEST_RR 91, mulhsu, 0x7fffffff, 0x80000000, 0xffffffffffffffff
    TEST_RR 92, mulhsu, 0xffffffff80000000, 0xffffffff80000000, 0xffffffffffffffff
    TEST_RR 93, mulhsu, 0xffffffffffffffff, 0xffffffff80000000, 0xffffffff
    TEST_RR 94, mulhsu, 0x0, 0x7fffffff, 0x7fffffff
    TEST_RR 95, mulhsu, 0x1, 0x100000000, 0x100000000
    TEST_RR 96, mulhsu, 0x1, 0x100000007, 0x100000003
    TEST_RR 97, mulhsu, 0x0, 0xffffffff, 0x2
    TEST_RR 98, mulhsu, 0x0, 0x12345678, 0x1000
    TEST_RR 99, mulhsu, 0xffffffffffffffff, 0xffffffffedcba988, 0x1000
    TEST_RR 100, mulhsu, 0xffffffffffda1677, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR 101, mulhsu, 0x1, 0x3, 0x8000000000000000
    TEST_RR 102, mulhsu, 0xffffffffffffffff, 0x8000000000000000, 0x2
    TEST_RR_SRC1_EQ_DEST 103, mulhsu, 0xffffffffffda1677, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR_SRC2_EQ_DEST 104, mulhsu, 0xffffffffffda1677, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR_SRC12_EQ_DEST 105, mulhsu, 0xe3040e23b7943f5a, 0xdeadbeefcafebabe
    TEST_RR_ZEROSRC1 106, mulhsu, 0x0, 0x1234567
    TEST_RR_ZEROSRC2 107, mulhsu, 0x0, 0xdeadbeefcafebabe
    TEST_RR_ZERODEST 108, mulhsu, 0xdeadbeefcafebabe, 0x1234567
    /* mulhu */
    TEST_RR 109, mulhu, 0x0, 0x7, 0x3
    TEST_RR 110, mulhu, 0x2, 0xfffffffffffffff9, 0x3
    TEST_RR 111, mulhu, 0x6, 0x7, 0xfffffffffffffffd
    TEST_RR 112, mulhu, 0xfffffffffffffff6, 0xfffffffffffffff9, 0xfffffffffffffffd
    TEST_RR 113, mulhu, 0x0, 0x0, 0x5
    TEST_RR 114, mulhu, 0x0, 0x5, 0x0
    TEST_RR 115, mulhu, 0x0, 0x0, 0x0
    TEST_RR 116, mulhu, 0x0, 0xffffffffffffffff, 0x0
    TEST_RR 117, mulhu, 0x0, 0x8000000000000000, 0x0
    TEST_RR 118, mulhu, 0x7fffffffffffffff, 0x8000000000000000, 0xffffffffffffffff
    TEST_RR 119, mulhu, 0x0, 0x8000000000000000, 0x1
    TEST_RR 120, mulhu, 0x7ffffffffffffffe, 0x7fffffffffffffff, 0xffffffffffffffff
    TEST_RR 121, mulhu, 0x3fffffffffffffff, 0x7fffffffffffffff, 0x7fffffffffffffff
    TEST_RR 122, mulhu, 0x4000000000000000, 0x8000000000000000, 0x8000000000000000
    TEST_RR 123, mulhu, 0x3fffffffffffffff, 0x7fffffffffffffff, 0x8000000000000000
    TEST_RR 124, mulhu, 0xfffffffffffffffe, 0xffffffffffffffff, 0xffffffffffffffff
    TEST_RR 125, mulhu, 0x0, 0x1, 0xffffffffffffffff
    TEST_RR 126, mulhu, 0x121fa00ad77d742, 0x123456789abcdef, 0xfedcba9876543210
    TEST_RR 127, mulhu, 0x7fffffff, 0x80000000, 0xffffffffffffffff
    TEST_RR 128, mulhu, 0xffffffff7fffffff, 0xffffffff80000000, 0xffffffffffffffff
    TEST_RR 129, mulhu, 0xfffffffe, 0xffffffff80000000, 0xffffffff
    TEST_RR 130, mulhu, 0x0, 0x7fffffff, 0x7fffffff
    TEST_RR 131, mulhu, 0x1, 0x100000000, 0x100000000
    TEST_RR 132, mulhu, 0x1, 0x100000007, 0x100000003
    TEST_RR 133, mulhu, 0x0, 0xffffffff, 0x2
    TEST_RR 134, mulhu, 0x0, 0x12345678, 0x1000
    TEST_RR 135, mulhu, 0xfff, 0xffffffffedcba988, 0x1000
    TEST_RR 136, mulhu, 0xfd5bde, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR 137, mulhu, 0x1, 0x3, 0x8000000000000000
    TEST_RR 138, mulhu, 0x1, 0x8000000000000000, 0x2
    TEST_RR_SRC1_EQ_DEST 139, mulhu, 0xfd5bde, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR_SRC2_EQ_DEST 140, mulhu, 0xfd5bde, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR_SRC12_EQ_DEST 141, mulhu, 0xc1b1cd138292fa18, 0xdeadbeefcafebabe
    TEST_RR_ZEROSRC1 142, mulhu, 0x0, 0x1234567
    TEST_RR_ZEROSRC2 143, mulhu, 0x0, 0xdeadbeefcafebabe
    TEST_RR_ZERODEST 144, mulhu, 0xdeadbeefcafebabe, 0x1234567
    /* mulw */
    TEST_RR 145, mulw, 0x15, 0x7, 0x3
    TEST_RR 146, mulw, 0xffffffffffffffeb, 0xfffffffffffffff9, 0x3
    TEST_RR 147, mulw, 0xffffffffffffffeb, 0x7, 0xfffffffffffffffd
    TEST_RR 148, mulw, 0x15, 0xfffffffffffffff9, 0xfffffffffffffffd
    TEST_RR 149, mulw, 0x0, 0x0, 0x5
    TEST_RR 150, mulw, 0x0, 0x5, 0x0
    TEST_RR 151, mulw, 0x0, 0x0, 0x0
    TEST_RR 152, mulw, 0x0, 0xffffffffffffffff, 0x0
    TEST_RR 153, mulw, 0x0, 0x8000000000000000, 0x0
    TEST_RR 154, mulw, 0x0, 0x8000000000000000, 0xffffffffffffffff
    TEST_RR 155, mulw, 0x0, 0x8000000000000000, 0x1
    TEST_RR 156, mulw, 0x1, 0x7fffffffffffffff, 0xffffffffffffffff
    TEST_RR 157, mulw, 0x1, 0x7fffffffffffffff, 0x7fffffffffffffff
    TEST_RR 158, mulw, 0x0, 0x8000000000000000, 0x8000000000000000
    TEST_RR 159, mulw, 0x0, 0x7fffffffffffffff, 0x8000000000000000
    TEST_RR 160, mulw, 0x1, 0xffffffffffffffff, 0xffffffffffffffff
    TEST_RR 161, mulw, 0xffffffffffffffff, 0x1, 0xffffffffffffffff
    TEST_RR 162, mulw, 0xffffffffe5618cf0, 0x123456789abcdef, 0xfedcba9876543210
    TEST_RR 163, mulw, 0xffffffff80000000, 0x80000000, 0xffffffffffffffff
    TEST_RR 164, mulw, 0xffffffff80000000, 0xffffffff80000000, 0xffffffffffffffff
    TEST_RR 165, mulw, 0xffffffff80000000, 0xffffffff80000000, 0xffffffff
    TEST_RR 166, mulw, 0x1, 0x7fffffff, 0x7fffffff
    TEST_RR 167, mulw, 0x0, 0x100000000, 0x100000000
    TEST_RR 168, mulw, 0x15, 0x100000007, 0x100000003
    TEST_RR 169, mulw, 0xfffffffffffffffe, 0xffffffff, 0x2
    TEST_RR 170, mulw, 0x45678000, 0x12345678, 0x1000
    TEST_RR 171, mulw, 0xffffffffba988000, 0xffffffffedcba988, 0x1000
    TEST_RR 172, mulw, 0xffffffff9acc5872, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR 173, mulw, 0x0, 0x3, 0x8000000000000000
    TEST_RR 174, mulw, 0x0, 0x8000000000000000, 0x2
    TEST_RR_SRC1_EQ_DEST 175, mulw, 0xffffffff9acc5872, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR_SRC2_EQ_DEST 176, mulw, 0xffffffff9acc5872, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR_SRC12_EQ_DEST 177, mulw, 0xfffffffff140a504, 0xdeadbeefcafebabe
    TEST_RR_ZEROSRC1 178, mulw, 0x0, 0x1234567
    TEST_RR_ZEROSRC2 179, mulw, 0x0, 0xdeadbeefcafebabe
    TEST_RR_ZERODEST 180, mulw, 0xdeadbeefcafebabe, 0x1234567
    /* div */
    TEST_RR 181, div, 0x2, 0x7, 0x3
    TEST_RR 182, div, 0xfffffffffffffffe, 0xfffffffffffffff9, 0x3
    TEST_RR 183, div, 0xfffffffffffffffe, 0x7, 0xfffffffffffffffd
    TEST_RR 184, div, 0x2, 0xfffffffffffffff9, 0xfffffffffffffffd
    TEST_RR 185, div, 0x0, 0x0, 0x5
    TEST_RR 186, div, 0xffffffffffffffff, 0x5, 0x0
    TEST_RR 187, div, 0xffffffffffffffff, 0x0, 0x0
    TEST_RR 188, div, 0xffffffffffffffff, 0xffffffffffffffff, 0x0
    TEST_RR 189, div, 0xffffffffffffffff, 0x8000000000000000, 0x0
    TEST_RR 190, div, 0x8000000000000000, 0x8000000000000000, 0xffffffffffffffff
    TEST_RR 191, div, 0x8000000000000000, 0x8000000000000000, 0x1
    TEST_RR 192, div, 0x8000000000000001, 0x7fffffffffffffff, 0xffffffffffffffff
    TEST_RR 193, div, 0x1, 0x7fffffffffffffff, 0x7fffffffffffffff
    TEST_RR 194, div, 0x1, 0x8000000000000000, 0x8000000000000000
    TEST_RR 195, div, 0x0, 0x7fffffffffffffff, 0x8000000000000000
    TEST_RR 196, div, 0x1, 0xffffffffffffffff, 0xffffffffffffffff
    TEST_RR 197, div, 0xffffffffffffffff, 0x1, 0xffffffffffffffff
    TEST_RR 198, div, 0x0, 0x123456789abcdef, 0xfedcba9876543210
    TEST_RR 199, div, 0xffffffff80000000, 0x80000000, 0xffffffffffffffff
    TEST_RR 200, div, 0x80000000, 0xffffffff80000000, 0xffffffffffffffff
    TEST_RR 201, div, 0x0, 0xffffffff80000000, 0xffffffff
    TEST_RR 202, div, 0x1, 0x7fffffff, 0x7fffffff
    TEST_RR 203, div, 0x1, 0x100000000, 0x100000000
    TEST_RR 204, div, 0x1, 0x100000007, 0x100000003
    TEST_RR 205, div, 0x7fffffff, 0xffffffff, 0x2
    TEST_RR 206, div, 0x12345, 0x12345678, 0x1000
    TEST_RR 207, div, 0xfffffffffffedcbb, 0xffffffffedcba988, 0x1000
    TEST_RR 208, div, 0xffffffe2b6b4c2ea, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR 209, div, 0x0, 0x3, 0x8000000000000000
    TEST_RR 210, div, 0xc000000000000000, 0x8000000000000000, 0x2
    TEST_RR_SRC1_EQ_DEST 211, div, 0xffffffe2b6b4c2ea, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR_SRC2_EQ_DEST 212, div, 0xffffffe2b6b4c2ea, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR_SRC12_EQ_DEST 213, div, 0x1, 0xdeadbeefcafebabe
    TEST_RR_ZEROSRC1 214, div, 0x0, 0x1234567
    TEST_RR_ZEROSRC2 215, div, 0xffffffffffffffff, 0xdeadbeefcafebabe
    TEST_RR_ZERODEST 216, div, 0xdeadbeefcafebabe, 0x1234567
    /* divu */
    TEST_RR 217, divu, 0x2, 0x7, 0x3
    TEST_RR 218, divu, 0x5555555555555553, 0xfffffffffffffff9, 0x3
    TEST_RR 219, divu, 0x0, 0x7, 0xfffffffffffffffd
    TEST_RR 220, divu, 0x0, 0xfffffffffffffff9, 0xfffffffffffffffd
    TEST_RR 221, divu, 0x0, 0x0, 0x5
    TEST_RR 222, divu, 0xffffffffffffffff, 0x5, 0x0
    TEST_RR 223, divu, 0xffffffffffffffff, 0x0, 0x0
    TEST_RR 224, divu, 0xffffffffffffffff, 0xffffffffffffffff, 0x0
    TEST_RR 225, divu, 0xffffffffffffffff, 0x8000000000000000, 0x0
    TEST_RR 226, divu, 0x0, 0x8000000000000000, 0xffffffffffffffff
    TEST_RR 227, divu, 0x8000000000000000, 0x8000000000000000, 0x1
    TEST_RR 228, divu, 0x0, 0x7fffffffffffffff, 0xffffffffffffffff
    TEST_RR 229, divu, 0x1, 0x7fffffffffffffff, 0x7fffffffffffffff
    TEST_RR 230, divu, 0x1, 0x8000000000000000, 0x8000000000000000
    TEST_RR 231, divu, 0x0, 0x7fffffffffffffff, 0x8000000000000000
    TEST_RR 232, divu, 0x1, 0xffffffffffffffff, 0xffffffffffffffff
    TEST_RR 233, divu, 0x0, 0x1, 0xffffffffffffffff
    TEST_RR 234, divu, 0x0, 0x123456789abcdef, 0xfedcba9876543210
    TEST_RR 235, divu, 0x0, 0x80000000, 0xffffffffffffffff
    TEST_RR 236, divu, 0x0, 0xffffffff80000000, 0xffffffffffffffff
    TEST_RR 237, divu, 0x100000000, 0xffffffff80000000, 0xffffffff
    TEST_RR 238, divu, 0x1, 0x7fffffff, 0x7fffffff
    TEST_RR 239, divu, 0x1, 0x100000000, 0x100000000
    TEST_RR 240, divu, 0x1, 0x100000007, 0x100000003
    TEST_RR 241, divu, 0x7fffffff, 0xffffffff, 0x2
    TEST_RR 242, divu, 0x12345, 0x12345678, 0x1000
    TEST_RR 243, divu, 0xffffffffedcba, 0xffffffffedcba988, 0x1000
    TEST_RR 244, divu, 0xc3b6b52d42, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR 245, divu, 0x0, 0x3, 0x8000000000000000
    TEST_RR 246, divu, 0x4000000000000000, 0x8000000000000000, 0x2
    TEST_RR_SRC1_EQ_DEST 247, divu, 0xc3b6b52d42, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR_SRC2_EQ_DEST 248, divu, 0xc3b6b52d42, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR_SRC12_EQ_DEST 249, divu, 0x1, 0xdeadbeefcafebabe
    TEST_RR_ZEROSRC1 250, divu, 0x0, 0x1234567
    TEST_RR_ZEROSRC2 251, divu, 0xffffffffffffffff, 0xdeadbeefcafebabe
    TEST_RR_ZERODEST 252, divu, 0xdeadbeefcafebabe, 0x1234567
    /* rem */
    TEST_RR 253, rem, 0x1, 0x7, 0x3
    TEST_RR 254, rem, 0xffffffffffffffff, 0xfffffffffffffff9, 0x3
    TEST_RR 257, rem, 0x1, 0x7, 0xfffffffffffffffd
    TEST_RR 258, rem, 0xffffffffffffffff, 0xfffffffffffffff9, 0xfffffffffffffffd
    TEST_RR 259, rem, 0x0, 0x0, 0x5
    TEST_RR 260, rem, 0x5, 0x5, 0x0
    TEST_RR 261, rem, 0x0, 0x0, 0x0
    TEST_RR 262, rem, 0xffffffffffffffff, 0xffffffffffffffff, 0x0
    TEST_RR 263, rem, 0x8000000000000000, 0x8000000000000000, 0x0
    TEST_RR 264, rem, 0x0, 0x8000000000000000, 0xffffffffffffffff
    TEST_RR 265, rem, 0x0, 0x8000000000000000, 0x1
    TEST_RR 266, rem, 0x0, 0x7fffffffffffffff, 0xffffffffffffffff
    TEST_RR 267, rem, 0x0, 0x7fffffffffffffff, 0x7fffffffffffffff
    TEST_RR 268, rem, 0x0, 0x8000000000000000, 0x8000000000000000
    TEST_RR 269, rem, 0x7fffffffffffffff, 0x7fffffffffffffff, 0x8000000000000000
    TEST_RR 270, rem, 0x0, 0xffffffffffffffff, 0xffffffffffffffff
    TEST_RR 271, rem, 0x0, 0x1, 0xffffffffffffffff
    TEST_RR 272, rem, 0x123456789abcdef, 0x123456789abcdef, 0xfedcba9876543210
    TEST_RR 273, rem, 0x0, 0x80000000, 0xffffffffffffffff
    TEST_RR 274, rem, 0x0, 0xffffffff80000000, 0xffffffffffffffff
    TEST_RR 275, rem, 0xffffffff80000000, 0xffffffff80000000, 0xffffffff
    TEST_RR 276, rem, 0x0, 0x7fffffff, 0x7fffffff
    TEST_RR 277, rem, 0x0, 0x100000000, 0x100000000
    TEST_RR 278, rem, 0x4, 0x100000007, 0x100000003
    TEST_RR 279, rem, 0x1, 0xffffffff, 0x2
    TEST_RR 280, rem, 0x678, 0x12345678, 0x1000
    TEST_RR 281, rem, 0xfffffffffffff988, 0xffffffffedcba988, 0x1000
    TEST_RR 282, rem, 0xffffffffffbd3c98, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR 283, rem, 0x3, 0x3, 0x8000000000000000
    TEST_RR 284, rem, 0x0, 0x8000000000000000, 0x2
    TEST_RR_SRC1_EQ_DEST 285, rem, 0xffffffffffbd3c98, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR_SRC2_EQ_DEST 286, rem, 0xffffffffffbd3c98, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR_SRC12_EQ_DEST 287, rem, 0x0, 0xdeadbeefcafebabe
    TEST_RR_ZEROSRC1 288, rem, 0x0, 0x1234567
    TEST_RR_ZEROSRC2 289, rem, 0xdeadbeefcafebabe, 0xdeadbeefcafebabe
    TEST_RR_ZERODEST 290, rem, 0xdeadbeefcafebabe, 0x1234567
    /* remu */
    TEST_RR 291, remu, 0x1, 0x7, 0x3
    TEST_RR 292, remu, 0x0, 0xfffffffffffffff9, 0x3
    TEST_RR 293, remu, 0x7, 0x7, 0xfffffffffffffffd
    TEST_RR 294, remu, 0xfffffffffffffff9, 0xfffffffffffffff9, 0xfffffffffffffffd
    TEST_RR 295, remu, 0x0, 0x0, 0x5
    TEST_RR 296, remu, 0x5, 0x5, 0x0
    TEST_RR 297, remu, 0x0, 0x0, 0x0
    TEST_RR 298, remu, 0xffffffffffffffff, 0xffffffffffffffff, 0x0
    TEST_RR 299, remu, 0x8000000000000000, 0x8000000000000000, 0x0
    TEST_RR 300, remu, 0x8000000000000000, 0x8000000000000000, 0xffffffffffffffff
    TEST_RR 301, remu, 0x0, 0x8000000000000000, 0x1
    TEST_RR 302, remu, 0x7fffffffffffffff, 0x7fffffffffffffff, 0xffffffffffffffff
    TEST_RR 303, remu, 0x0, 0x7fffffffffffffff, 0x7fffffffffffffff
    TEST_RR 304, remu, 0x0, 0x8000000000000000, 0x8000000000000000
    TEST_RR 305, remu, 0x7fffffffffffffff, 0x7fffffffffffffff, 0x8000000000000000
    TEST_RR 306, remu, 0x0, 0xffffffffffffffff, 0xffffffffffffffff
    TEST_RR 307, remu, 0x1, 0x1, 0xffffffffffffffff
    TEST_RR 308, remu, 0x123456789abcdef, 0x123456789abcdef, 0xfedcba9876543210
    TEST_RR 309, remu, 0x80000000, 0x80000000, 0xffffffffffffffff
    TEST_RR 310, remu, 0xffffffff80000000, 0xffffffff80000000, 0xffffffffffffffff
    TEST_RR 311, remu, 0x80000000, 0xffffffff80000000, 0xffffffff
    TEST_RR 312, remu, 0x0, 0x7fffffff, 0x7fffffff
    TEST_RR 313, remu, 0x0, 0x100000000, 0x100000000
    TEST_RR 314, remu, 0x4, 0x100000007, 0x100000003
    TEST_RR 315, remu, 0x1, 0xffffffff, 0x2
    TEST_RR 316, remu, 0x678, 0x12345678, 0x1000
    TEST_RR 317, remu, 0x988, 0xffffffffedcba988, 0x1000
    TEST_RR 318, remu, 0xe0bb30, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR 319, remu, 0x3, 0x3, 0x8000000000000000
    TEST_RR 320, remu, 0x0, 0x8000000000000000, 0x2
    TEST_RR_SRC1_EQ_DEST 321, remu, 0xe0bb30, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR_SRC2_EQ_DEST 322, remu, 0xe0bb30, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR_SRC12_EQ_DEST 323, remu, 0x0, 0xdeadbeefcafebabe
    TEST_RR_ZEROSRC1 324, remu, 0x0, 0x1234567
    TEST_RR_ZEROSRC2 325, remu, 0xdeadbeefcafebabe, 0xdeadbeefcafebabe
    TEST_RR_ZERODEST 326, remu, 0xdeadbeefcafebabe, 0x1234567
    /* divw */
    TEST_RR 327, divw, 0x2, 0x7, 0x3
    TEST_RR 328, divw, 0xfffffffffffffffe, 0xfffffffffffffff9, 0x3
    TEST_RR 329, divw, 0xfffffffffffffffe, 0x7, 0xfffffffffffffffd
    TEST_RR 330, divw, 0x2, 0xfffffffffffffff9, 0xfffffffffffffffd
    TEST_RR 331, divw, 0x0, 0x0, 0x5
    TEST_RR 332, divw, 0xffffffffffffffff, 0x5, 0x0
    TEST_RR 333, divw, 0xffffffffffffffff, 0x0, 0x0
    TEST_RR 334, divw, 0xffffffffffffffff, 0xffffffffffffffff, 0x0
    TEST_RR 335, divw, 0xffffffffffffffff, 0x8000000000000000, 0x0
    TEST_RR 336, divw, 0x0, 0x8000000000000000, 0xffffffffffffffff
    TEST_RR 337, divw, 0x0, 0x8000000000000000, 0x1
    TEST_RR 338, divw, 0x1, 0x7fffffffffffffff, 0xffffffffffffffff
    TEST_RR 339, divw, 0x1, 0x7fffffffffffffff, 0x7fffffffffffffff
    TEST_RR 340, divw, 0xffffffffffffffff, 0x8000000000000000, 0x8000000000000000
    TEST_RR 341, divw, 0xffffffffffffffff, 0x7fffffffffffffff, 0x8000000000000000
    TEST_RR 342, divw, 0x1, 0xffffffffffffffff, 0xffffffffffffffff
    TEST_RR 343, divw, 0xffffffffffffffff, 0x1, 0xffffffffffffffff
    TEST_RR 344, divw, 0xffffffffffffffff, 0x123456789abcdef, 0xfedcba9876543210
    TEST_RR 345, divw, 0xffffffff80000000, 0x80000000, 0xffffffffffffffff
    TEST_RR 346, divw, 0xffffffff80000000, 0xffffffff80000000, 0xffffffffffffffff
    TEST_RR 347, divw, 0xffffffff80000000, 0xffffffff80000000, 0xffffffff
    TEST_RR 348, divw, 0x1, 0x7fffffff, 0x7fffffff
    TEST_RR 349, divw, 0xffffffffffffffff, 0x100000000, 0x100000000
    TEST_RR 350, divw, 0x2, 0x100000007, 0x100000003
    TEST_RR 351, divw, 0x0, 0xffffffff, 0x2
    TEST_RR 352, divw, 0x12345, 0x12345678, 0x1000
    TEST_RR 353, divw, 0xfffffffffffedcbb, 0xffffffffedcba988, 0x1000
    TEST_RR 354, divw, 0xffffffffffffffd2, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR 355, divw, 0xffffffffffffffff, 0x3, 0x8000000000000000
    TEST_RR 356, divw, 0x0, 0x8000000000000000, 0x2
    TEST_RR_SRC1_EQ_DEST 357, divw, 0xffffffffffffffd2, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR_SRC2_EQ_DEST 358, divw, 0xffffffffffffffd2, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR_SRC12_EQ_DEST 359, divw, 0x1, 0xdeadbeefcafebabe
    TEST_RR_ZEROSRC1 360, divw, 0x0, 0x1234567
    TEST_RR_ZEROSRC2 361, divw, 0xffffffffffffffff, 0xdeadbeefcafebabe
    TEST_RR_ZERODEST 362, divw, 0xdeadbeefcafebabe, 0x1234567
    /* divuw */
    TEST_RR 363, divuw, 0x2, 0x7, 0x3
    TEST_RR 364, divuw, 0x55555553, 0xfffffffffffffff9, 0x3
    TEST_RR 365, divuw, 0x0, 0x7, 0xfffffffffffffffd
    TEST_RR 366, divuw, 0x0, 0xfffffffffffffff9, 0xfffffffffffffffd
    TEST_RR 367, divuw, 0x0, 0x0, 0x5
    TEST_RR 368, divuw, 0xffffffffffffffff, 0x5, 0x0
    TEST_RR 369, divuw, 0xffffffffffffffff, 0x0, 0x0
    TEST_RR 370, divuw, 0xffffffffffffffff, 0xffffffffffffffff, 0x0
    TEST_RR 371, divuw, 0xffffffffffffffff, 0x8000000000000000, 0x0
    TEST_RR 372, divuw, 0x0, 0x8000000000000000, 0xffffffffffffffff
    TEST_RR 373, divuw, 0x0, 0x8000000000000000, 0x1
    TEST_RR 374, divuw, 0x1, 0x7fffffffffffffff, 0xffffffffffffffff
    TEST_RR 375, divuw, 0x1, 0x7fffffffffffffff, 0x7fffffffffffffff
    TEST_RR 376, divuw, 0xffffffffffffffff, 0x8000000000000000, 0x8000000000000000
    TEST_RR 377, divuw, 0xffffffffffffffff, 0x7fffffffffffffff, 0x8000000000000000
    TEST_RR 378, divuw, 0x1, 0xffffffffffffffff, 0xffffffffffffffff
    TEST_RR 379, divuw, 0x0, 0x1, 0xffffffffffffffff
    TEST_RR 380, divuw, 0x1, 0x123456789abcdef, 0xfedcba9876543210
    TEST_RR 381, divuw, 0x0, 0x80000000, 0xffffffffffffffff
    TEST_RR 382, divuw, 0x0, 0xffffffff80000000, 0xffffffffffffffff
    TEST_RR 383, divuw, 0x0, 0xffffffff80000000, 0xffffffff
    TEST_RR 384, divuw, 0x1, 0x7fffffff, 0x7fffffff
    TEST_RR 385, divuw, 0xffffffffffffffff, 0x100000000, 0x100000000
    TEST_RR 386, divuw, 0x2, 0x100000007, 0x100000003
    TEST_RR 387, divuw, 0x7fffffff, 0xffffffff, 0x2
    TEST_RR 388, divuw, 0x12345, 0x12345678, 0x1000
    TEST_RR 389, divuw, 0xedcba, 0xffffffffedcba988, 0x1000
    TEST_RR 390, divuw, 0xb2, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR 391, divuw, 0xffffffffffffffff, 0x3, 0x8000000000000000
    TEST_RR 392, divuw, 0x0, 0x8000000000000000, 0x2
    TEST_RR_SRC1_EQ_DEST 393, divuw, 0xb2, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR_SRC2_EQ_DEST 394, divuw, 0xb2, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR_SRC12_EQ_DEST 395, divuw, 0x1, 0xdeadbeefcafebabe
    TEST_RR_ZEROSRC1 396, divuw, 0x0, 0x1234567
    TEST_RR_ZEROSRC2 397, divuw, 0xffffffffffffffff, 0xdeadbeefcafebabe
    TEST_RR_ZERODEST 398, divuw, 0xdeadbeefcafebabe, 0x1234567
    /* remw */
    TEST_RR 399, remw, 0x1, 0x7, 0x3
    TEST_RR 400, remw, 0xffffffffffffffff, 0xfffffffffffffff9, 0x3
    TEST_RR 401, remw, 0x1, 0x7, 0xfffffffffffffffd
    TEST_RR 402, remw, 0xffffffffffffffff, 0xfffffffffffffff9, 0xfffffffffffffffd
    TEST_RR 403, remw, 0x0, 0x0, 0x5
    TEST_RR 404, remw, 0x5, 0x5, 0x0
    TEST_RR 405, remw, 0x0, 0x0, 0x0
    TEST_RR 406, remw, 0xffffffffffffffff, 0xffffffffffffffff, 0x0
    TEST_RR 407, remw, 0x0, 0x8000000000000000, 0x0
    TEST_RR 408, remw, 0x0, 0x8000000000000000, 0xffffffffffffffff
    TEST_RR 409, remw, 0x0, 0x8000000000000000, 0x1
    TEST_RR 410, remw, 0x0, 0x7fffffffffffffff, 0xffffffffffffffff
    TEST_RR 411, remw, 0x0, 0x7fffffffffffffff, 0x7fffffffffffffff
    TEST_RR 412, remw, 0x0, 0x8000000000000000, 0x8000000000000000
    TEST_RR 413, remw, 0xffffffffffffffff, 0x7fffffffffffffff, 0x8000000000000000
    TEST_RR 414, remw, 0x0, 0xffffffffffffffff, 0xffffffffffffffff
    TEST_RR 415, remw, 0x0, 0x1, 0xffffffffffffffff
    TEST_RR 416, remw, 0xffffffffffffffff, 0x123456789abcdef, 0xfedcba9876543210
    TEST_RR 417, remw, 0x0, 0x80000000, 0xffffffffffffffff
    TEST_RR 418, remw, 0x0, 0xffffffff80000000, 0xffffffffffffffff
    TEST_RR 419, remw, 0x0, 0xffffffff80000000, 0xffffffff
    TEST_RR 420, remw, 0x0, 0x7fffffff, 0x7fffffff
    TEST_RR 421, remw, 0x0, 0x100000000, 0x100000000
    TEST_RR 422, remw, 0x1, 0x100000007, 0x100000003
    TEST_RR 423, remw, 0xffffffffffffffff, 0xffffffff, 0x2
    TEST_RR 424, remw, 0x678, 0x12345678, 0x1000
    TEST_RR 425, remw, 0xfffffffffffff988, 0xffffffffedcba988, 0x1000
    TEST_RR 426, remw, 0xffffffffff553340, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR 427, remw, 0x3, 0x3, 0x8000000000000000
    TEST_RR 428, remw, 0x0, 0x8000000000000000, 0x2
    TEST_RR_SRC1_EQ_DEST 429, remw, 0xffffffffff553340, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR_SRC2_EQ_DEST 430, remw, 0xffffffffff553340, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR_SRC12_EQ_DEST 431, remw, 0x0, 0xdeadbeefcafebabe
    TEST_RR_ZEROSRC1 432, remw, 0x0, 0x1234567
    TEST_RR_ZEROSRC2 433, remw, 0xffffffffcafebabe, 0xdeadbeefcafebabe
    TEST_RR_ZERODEST 434, remw, 0xdeadbeefcafebabe, 0x1234567
    /* remuw */
    TEST_RR 435, remuw, 0x1, 0x7, 0x3
    TEST_RR 436, remuw, 0x0, 0xfffffffffffffff9, 0x3
    TEST_RR 437, remuw, 0x7, 0x7, 0xfffffffffffffffd
    TEST_RR 438, remuw, 0xfffffffffffffff9, 0xfffffffffffffff9, 0xfffffffffffffffd
    TEST_RR 439, remuw, 0x0, 0x0, 0x5
    TEST_RR 440, remuw, 0x5, 0x5, 0x0
    TEST_RR 441, remuw, 0x0, 0x0, 0x0
    TEST_RR 442, remuw, 0xffffffffffffffff, 0xffffffffffffffff, 0x0
    TEST_RR 443, remuw, 0x0, 0x8000000000000000, 0x0
    TEST_RR 444, remuw, 0x0, 0x8000000000000000, 0xffffffffffffffff
    TEST_RR 445, remuw, 0x0, 0x8000000000000000, 0x1
    TEST_RR 446, remuw, 0x0, 0x7fffffffffffffff, 0xffffffffffffffff
    TEST_RR 447, remuw, 0x0, 0x7fffffffffffffff, 0x7fffffffffffffff
    TEST_RR 448, remuw, 0x0, 0x8000000000000000, 0x8000000000000000
    TEST_RR 449, remuw, 0xffffffffffffffff, 0x7fffffffffffffff, 0x8000000000000000
    TEST_RR 450, remuw, 0x0, 0xffffffffffffffff, 0xffffffffffffffff
    TEST_RR 451, remuw, 0x1, 0x1, 0xffffffffffffffff
    TEST_RR 452, remuw, 0x13579bdf, 0x123456789abcdef, 0xfedcba9876543210
    TEST_RR 453, remuw, 0xffffffff80000000, 0x80000000, 0xffffffffffffffff
    TEST_RR 454, remuw, 0xffffffff80000000, 0xffffffff80000000, 0xffffffffffffffff
    TEST_RR 455, remuw, 0xffffffff80000000, 0xffffffff80000000, 0xffffffff
    TEST_RR 456, remuw, 0x0, 0x7fffffff, 0x7fffffff
    TEST_RR 457, remuw, 0x0, 0x100000000, 0x100000000
    TEST_RR 458, remuw, 0x1, 0x100000007, 0x100000003
    TEST_RR 459, remuw, 0x1, 0xffffffff, 0x2
    TEST_RR 460, remuw, 0x678, 0x12345678, 0x1000
    TEST_RR 461, remuw, 0x988, 0xffffffffedcba988, 0x1000
    TEST_RR 462, remuw, 0x787920, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR 463, remuw, 0x3, 0x3, 0x8000000000000000
    TEST_RR 464, remuw, 0x0, 0x8000000000000000, 0x2
    TEST_RR_SRC1_EQ_DEST 465, remuw, 0x787920, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR_SRC2_EQ_DEST 466, remuw, 0x787920, 0xdeadbeefcafebabe, 0x1234567
    TEST_RR_SRC12_EQ_DEST 467, remuw, 0x0, 0xdeadbeefcafebabe
    TEST_RR_ZEROSRC1 468, remuw, 0x0, 0x1234567
    TEST_RR_ZEROSRC2 469, remuw, 0xffffffffcafebabe, 0xdeadbeefcafebabe
    TEST_RR_ZERODEST 470, remuw, 0xdeadbeefcafebabe, 0x1234567
    /* W forms ignore the upper 32 bits of the operands */
    TEST_RR 471, mulw, 0x2bc, 0xabcdef0100000064, 0x1234567800000007
    TEST_RR 472, mulw, 0xfffffffffffffff2, 0x1fffffff9, 0xffffffff00000002
    TEST_RR 473, divw, 0xe, 0xabcdef0100000064, 0x1234567800000007
    TEST_RR 474, divw, 0xfffffffffffffffd, 0x1fffffff9, 0xffffffff00000002
    TEST_RR 475, divuw, 0xe, 0xabcdef0100000064, 0x1234567800000007
    TEST_RR 476, divuw, 0x7ffffffc, 0x1fffffff9, 0xffffffff00000002
    TEST_RR 477, remw, 0x2, 0xabcdef0100000064, 0x1234567800000007
    TEST_RR 478, remw, 0xffffffffffffffff, 0x1fffffff9, 0xffffffff00000002
    TEST_RR 479, remuw, 0x2, 0xabcdef0100000064, 0x1234567800000007
    TEST_RR 480, remuw, 0x1, 0x1fffffff9, 0xffffffff00000002
    /* mulh + mul give the full 128-bit product */
    li a1, 0xfedcba9876543210
    li a2, 0x123456789abcdef
    mulhu a3, a1, a2
    mul a4, a1, a2
    CHECK_EQ 481, a3, 0x121fa00ad77d742
    CHECK_EQ 482, a4, 0x2236d88fe5618cf0
    /* division identity: (a / b) * b + (a % b) == a */
    li a1, 0x7654321012345678
    li a2, 0xffffffffffffcfc7
    div a3, a1, a2
    rem a4, a1, a2
    mul a5, a3, a2
    add a5, a5, a4
    CHECK_EQR 483, a5, a1
    li a1, 0x89abcdefedcba988
    li a2, 0x3e7
    div a3, a1, a2
    rem a4, a1, a2
    mul a5, a3, a2
    add a5, a5, a4
    CHECK_EQR 484, a5, a1
    li a1, 0x8000000000000000
    li a2, 0x3
    div a3, a1, a2
    rem a4, a1, a2
    mul a5, a3, a2
    add a5, a5, a4
    CHECK_EQR 485, a5, a1
    TEST_PASS
