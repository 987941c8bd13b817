/* rv64i - every RV64I instruction: ALU edge values, register aliasing,
 * x0 as source and destination, shifts with out-of-range amounts, lui/auipc,
 * branches (taken/not taken, signed/unsigned), jal/jalr link values and
 * target LSB clearing, all load/store widths with sign/zero extension,
 * all 31 registers, fence/fence.i/pause and HINT encodings as no-ops.
 * Generated-style tables of explicit vectors; expected values from the spec. */
#include "test_macros.h"

    .option norvc      /* test the 32-bit encodings */
    .text
    .globl main
main:

/* ---------------- register-register ALU ---------------- */
    /* add */
    TEST_RR 1, add, 0x0, 0x0, 0x0
    TEST_RR 2, add, 0x2, 0x1, 0x1
    TEST_RR 3, add, 0xa, 0x3, 0x7
    TEST_RR 4, add, 0x0, 0xffffffffffffffff, 0x1
    TEST_RR 5, add, 0xfffffffffffffffe, 0xffffffffffffffff, 0xffffffffffffffff
    TEST_RR 6, add, 0x8000000000000000, 0x7fffffffffffffff, 0x1
    TEST_RR 7, add, 0x7fffffffffffffff, 0x8000000000000000, 0xffffffffffffffff
    TEST_RR 8, add, 0x0, 0x8000000000000000, 0x8000000000000000
    TEST_RR 9, add, 0x80000000, 0x7fffffff, 0x1
    TEST_RR 10, add, 0x17fffffff, 0x80000000, 0xffffffff
    TEST_RR 11, add, 0x0, 0xffffffff80000000, 0x80000000
    TEST_RR 12, add, 0xffffffffffffffff, 0x123456789abcdef, 0xfedcba9876543210
    TEST_RR 13, add, 0xffffffff, 0xffff8000, 0x7fff
    TEST_RR 14, add, 0x8000000000000000, 0x0, 0x8000000000000000
    TEST_RR 15, add, 0xfffffffffffffffe, 0xfffffffffffffffb, 0x3
    TEST_RR 16, add, 0x2, 0x5, 0xfffffffffffffffd
    TEST_RR_SRC1_EQ_DEST 17, add, 0x8000000000000000, 0x0, 0x8000000000000000
    TEST_RR_SRC2_EQ_DEST 18, add, 0x8000000000000000, 0x0, 0x8000000000000000
    TEST_RR_SRC12_EQ_DEST 19, add, 0x0, 0x0
    TEST_RR_ZEROSRC1 20, add, 0x8000000000000000, 0x8000000000000000
    TEST_RR_ZEROSRC2 21, add, 0x0, 0x0
    TEST_RR_ZERODEST 22, add, 0x0, 0x8000000000000000
    /* sub */
    TEST_RR 23, sub, 0x0, 0x0, 0x0
    TEST_RR 24, sub, 0x0, 0x1, 0x1
    TEST_RR 25, sub, 0xfffffffffffffffc, 0x3, 0x7
    TEST_RR 26, sub, 0xfffffffffffffffe, 0xffffffffffffffff, 0x1
    TEST_RR 27, sub, 0x0, 0xffffffffffffffff, 0xffffffffffffffff
    TEST_RR 28, sub, 0x7ffffffffffffffe, 0x7fffffffffffffff, 0x1
    TEST_RR 29, sub, 0x8000000000000001, 0x8000000000000000, 0xffffffffffffffff
    TEST_RR 30, sub, 0x0, 0x8000000000000000, 0x8000000000000000
    TEST_RR 31, sub, 0x7ffffffe, 0x7fffffff, 0x1
    TEST_RR 32, sub, 0xffffffff80000001, 0x80000000, 0xffffffff
    TEST_RR 33, sub, 0xffffffff00000000, 0xffffffff80000000, 0x80000000
    TEST_RR 34, sub, 0x2468acf13579bdf, 0x123456789abcdef, 0xfedcba9876543210
    TEST_RR 35, sub, 0xffff0001, 0xffff8000, 0x7fff
    TEST_RR 36, sub, 0x8000000000000000, 0x0, 0x8000000000000000
    TEST_RR 37, sub, 0xfffffffffffffff8, 0xfffffffffffffffb, 0x3
    TEST_RR 38, sub, 0x8, 0x5, 0xfffffffffffffffd
    TEST_RR_SRC1_EQ_DEST 39, sub, 0x8000000000000000, 0x0, 0x8000000000000000
    TEST_RR_SRC2_EQ_DEST 40, sub, 0x8000000000000000, 0x0, 0x8000000000000000
    TEST_RR_SRC12_EQ_DEST 41, sub, 0x0, 0x0
    TEST_RR_ZEROSRC1 42, sub, 0x8000000000000000, 0x8000000000000000
    TEST_RR_ZEROSRC2 43, sub, 0x0, 0x0
    TEST_RR_ZERODEST 44, sub, 0x0, 0x8000000000000000
    /* sll */
    TEST_RR 45, sll, 0x1, 0x1, 0x0
    TEST_RR 46, sll, 0x2, 0x1, 0x1
    TEST_RR 47, sll, 0x80000000, 0x1, 0x1f
    TEST_RR 48, sll, 0x100000000, 0x1, 0x20
    TEST_RR 49, sll, 0x8000000000000000, 0x1, 0x3f
    TEST_RR 50, sll, 0xffffffffffffffff, 0xffffffffffffffff, 0x0
    TEST_RR 51, sll, 0xfffffffffffffffe, 0xffffffffffffffff, 0x1
    TEST_RR 52, sll, 0xffffffff80000000, 0xffffffffffffffff, 0x1f
    TEST_RR 53, sll, 0xffffffff00000000, 0xffffffffffffffff, 0x20
    TEST_RR 54, sll, 0x8000000000000000, 0xffffffffffffffff, 0x3f
    TEST_RR 55, sll, 0x0, 0x8000000000000000, 0x3f
    TEST_RR 56, sll, 0x0, 0x8000000000000000, 0x1
    TEST_RR 57, sll, 0x123456789abcdef0, 0x123456789abcdef, 0x4
    TEST_RR 58, sll, 0x9abcdef000000000, 0x123456789abcdef, 0x24
    TEST_RR 59, sll, 0x100000000, 0x80000000, 0x1
    TEST_RR 60, sll, 0x4000000000000000, 0x80000000, 0x1f
    TEST_RR 61, sll, 0xf6e5d4c3b2a19080, 0xfedcba9876543210, 0x43
    TEST_RR 62, sll, 0xeca8642000000000, 0xfedcba9876543210, 0xffffffffffffffe1
    TEST_RR 63, sll, 0xfffffffe00000000, 0x7fffffff, 0x21
    TEST_RR 64, sll, 0x5678ffffffff0000, 0x12345678ffffffff, 0x10
    TEST_RR_SRC1_EQ_DEST 65, sll, 0xeca8642000000000, 0xfedcba9876543210, 0xffffffffffffffe1
    TEST_RR_SRC2_EQ_DEST 66, sll, 0xeca8642000000000, 0xfedcba9876543210, 0xffffffffffffffe1
    TEST_RR_SRC12_EQ_DEST 67, sll, 0xba98765432100000, 0xfedcba9876543210
    TEST_RR_ZEROSRC1 68, sll, 0x0, 0xffffffffffffffe1
    TEST_RR_ZEROSRC2 69, sll, 0xfedcba9876543210, 0xfedcba9876543210
    TEST_RR_ZERODEST 70, sll, 0xfedcba9876543210, 0xffffffffffffffe1
    /* slt */
    TEST_RR 71, slt, 0x0, 0x0, 0x0
    TEST_RR 72, slt, 0x1, 0x0, 0x1
    TEST_RR 73, slt, 0x0, 0x1, 0x0
    TEST_RR 74, slt, 0x1, 0xffffffffffffffff, 0x0
    TEST_RR 75, slt, 0x0, 0x0, 0xffffffffffffffff
    TEST_RR 76, slt, 0x0, 0xffffffffffffffff, 0xffffffffffffffff
    TEST_RR 77, slt, 0x0, 0x7fffffffffffffff, 0x8000000000000000
    TEST_RR 78, slt, 0x1, 0x8000000000000000, 0x7fffffffffffffff
    TEST_RR 79, slt, 0x1, 0xfffffffffffffffe, 0xffffffffffffffff
    TEST_RR 80, slt, 0x0, 0xffffffffffffffff, 0xfffffffffffffffe
    TEST_RR 81, slt, 0x0, 0x80000000, 0x7fffffff
    TEST_RR 82, slt, 0x0, 0x1, 0xffffffffffffffff
    TEST_RR 83, slt, 0x1, 0xffffffff, 0x100000000
    TEST_RR_SRC1_EQ_DEST 84, slt, 0x0, 0x80000000, 0x7fffffff
    TEST_RR_SRC2_EQ_DEST 85, slt, 0x0, 0x80000000, 0x7fffffff
    TEST_RR_SRC12_EQ_DEST 86, slt, 0x0, 0x80000000
    TEST_RR_ZEROSRC1 87, slt, 0x1, 0x7fffffff
    TEST_RR_ZEROSRC2 88, slt, 0x0, 0x80000000
    TEST_RR_ZERODEST 89, slt, 0x80000000, 0x7fffffff
    /* sltu */
    TEST_RR 90, sltu, 0x0, 0x0, 0x0
    TEST_RR 91, sltu, 0x1, 0x0, 0x1
    TEST_RR 92, sltu, 0x0, 0x1, 0x0
    TEST_RR 93, sltu, 0x0, 0xffffffffffffffff, 0x0
    TEST_RR 94, sltu, 0x1, 0x0, 0xffffffffffffffff
    TEST_RR 95, sltu, 0x0, 0xffffffffffffffff, 0xffffffffffffffff
    TEST_RR 96, sltu, 0x1, 0x7fffffffffffffff, 0x8000000000000000
    TEST_RR 97, sltu, 0x0, 0x8000000000000000, 0x7fffffffffffffff
    TEST_RR 98, sltu, 0x1, 0xfffffffffffffffe, 0xffffffffffffffff
    TEST_RR 99, sltu, 0x0, 0xffffffffffffffff, 0xfffffffffffffffe
    TEST_RR 100, sltu, 0x0, 0x80000000, 0x7fffffff
    TEST_RR 101, sltu, 0x1, 0x1, 0xffffffffffffffff
    TEST_RR 102, sltu, 0x1, 0xffffffff, 0x100000000
    TEST_RR_SRC1_EQ_DEST 103, sltu, 0x0, 0x80000000, 0x7fffffff
    TEST_RR_SRC2_EQ_DEST 104, sltu, 0x0, 0x80000000, 0x7fffffff
    TEST_RR_SRC12_EQ_DEST 105, sltu, 0x0, 0x80000000
    TEST_RR_ZEROSRC1 106, sltu, 0x1, 0x7fffffff
    TEST_RR_ZEROSRC2 107, sltu, 0x0, 0x80000000
    TEST_RR_ZERODEST 108, sltu, 0x80000000, 0x7fffffff
    /* xor */
    TEST_RR 109, xor, 0x0, 0x0, 0x0
    TEST_RR 110, xor, 0xffffffffffffffff, 0xffffffffffffffff, 0x0
    TEST_RR 111, xor, 0x0, 0xffffffffffffffff, 0xffffffffffffffff
    TEST_RR 112, xor, 0xf00ff00ff00ff00f, 0xff00ff00ff00ff00, 0xf0f0f0f0f0f0f0f
    TEST_RR 113, xor, 0xffffffffffffffff, 0x5555555555555555, 0xaaaaaaaaaaaaaaaa
    TEST_RR 114, xor, 0xffffffffffffffff, 0x123456789abcdef, 0xfedcba9876543210
    TEST_RR 115, xor, 0x8000000000000001, 0x8000000000000000, 0x1
    TEST_RR 116, xor, 0xffffffffffffffff, 0xffffffff, 0xffffffff00000000
    TEST_RR 117, xor, 0xffffffffffffffff, 0x8000000000000000, 0x7fffffffffffffff
    TEST_RR_SRC1_EQ_DEST 118, xor, 0x8000000000000001, 0x8000000000000000, 0x1
    TEST_RR_SRC2_EQ_DEST 119, xor, 0x8000000000000001, 0x8000000000000000, 0x1
    TEST_RR_SRC12_EQ_DEST 120, xor, 0x0, 0x8000000000000000
    TEST_RR_ZEROSRC1 121, xor, 0x1, 0x1
    TEST_RR_ZEROSRC2 122, xor, 0x8000000000000000, 0x8000000000000000
    TEST_RR_ZERODEST 123, xor, 0x8000000000000000, 0x1
    /* srl */
    TEST_RR 124, srl, 0x1, 0x1, 0x0
    TEST_RR 125, srl, 0x0, 0x1, 0x1
    TEST_RR 126, srl, 0x0, 0x1, 0x1f
    TEST_RR 127, srl, 0x0, 0x1, 0x20
    TEST_RR 128, srl, 0x0, 0x1, 0x3f
    TEST_RR 129, srl, 0xffffffffffffffff, 0xffffffffffffffff, 0x0
    TEST_RR 130, srl, 0x7fffffffffffffff, 0xffffffffffffffff, 0x1
    TEST_RR 131, srl, 0x1ffffffff, 0xffffffffffffffff, 0x1f
    TEST_RR 132, srl, 0xffffffff, 0xffffffffffffffff, 0x20
    TEST_RR 133, srl, 0x1, 0xffffffffffffffff, 0x3f
    TEST_RR 134, srl, 0x1, 0x8000000000000000, 0x3f
    TEST_RR 135, srl, 0x4000000000000000, 0x8000000000000000, 0x1
    TEST_RR 136, srl, 0x123456789abcde, 0x123456789abcdef, 0x4
    TEST_RR 137, srl, 0x123456, 0x123456789abcdef, 0x24
    TEST_RR 138, srl, 0x40000000, 0x80000000, 0x1
    TEST_RR 139, srl, 0x1, 0x80000000, 0x1f
    TEST_RR 140, srl, 0x1fdb97530eca8642, 0xfedcba9876543210, 0x43
    TEST_RR 141, srl, 0x7f6e5d4c, 0xfedcba9876543210, 0xffffffffffffffe1
    TEST_RR 142, srl, 0x0, 0x7fffffff, 0x21
    TEST_RR 143, srl, 0x12345678ffff, 0x12345678ffffffff, 0x10
    TEST_RR_SRC1_EQ_DEST 144, srl, 0x7f6e5d4c, 0xfedcba9876543210, 0xffffffffffffffe1
    TEST_RR_SRC2_EQ_DEST 145, srl, 0x7f6e5d4c, 0xfedcba9876543210, 0xffffffffffffffe1
    TEST_RR_SRC12_EQ_DEST 146, srl, 0xfedcba987654, 0xfedcba9876543210
    TEST_RR_ZEROSRC1 147, srl, 0x0, 0xffffffffffffffe1
    TEST_RR_ZEROSRC2 148, srl, 0xfedcba9876543210, 0xfedcba9876543210
    TEST_RR_ZERODEST 149, srl, 0xfedcba9876543210, 0xffffffffffffffe1
    /* sra */
    TEST_RR 150, sra, 0x1, 0x1, 0x0
    TEST_RR 151, sra, 0x0, 0x1, 0x1
    TEST_RR 152, sra, 0x0, 0x1, 0x1f
    TEST_RR 153, sra, 0x0, 0x1, 0x20
    TEST_RR 154, sra, 0x0, 0x1, 0x3f
    TEST_RR 155, sra, 0xffffffffffffffff, 0xffffffffffffffff, 0x0
    TEST_RR 156, sra, 0xffffffffffffffff, 0xffffffffffffffff, 0x1
    TEST_RR 157, sra, 0xffffffffffffffff, 0xffffffffffffffff, 0x1f
    TEST_RR 158, sra, 0xffffffffffffffff, 0xffffffffffffffff, 0x20
    TEST_RR 159, sra, 0xffffffffffffffff, 0xffffffffffffffff, 0x3f
    TEST_RR 160, sra, 0xffffffffffffffff, 0x8000000000000000, 0x3f
    TEST_RR 161, sra, 0xc000000000000000, 0x8000000000000000, 0x1
    TEST_RR 162, sra, 0x123456789abcde, 0x123456789abcdef, 0x4
    TEST_RR 163, sra, 0x123456, 0x123456789abcdef, 0x24
    TEST_RR 164, sra, 0x40000000, 0x80000000, 0x1
    TEST_RR 165, sra, 0x1, 0x80000000, 0x1f
    TEST_RR 166, sra, 0xffdb97530eca8642, 0xfedcba9876543210, 0x43
    TEST_RR 167, sra, 0xffffffffff6e5d4c, 0xfedcba9876543210, 0xffffffffffffffe1
    TEST_RR 168, sra, 0x0, 0x7fffffff, 0x21
    TEST_RR 169, sra, 0x12345678ffff, 0x12345678ffffffff, 0x10
    TEST_RR_SRC1_EQ_DEST 170, sra, 0xffffffffff6e5d4c, 0xfedcba9876543210, 0xffffffffffffffe1
    TEST_RR_SRC2_EQ_DEST 171, sra, 0xffffffffff6e5d4c, 0xfedcba9876543210, 0xffffffffffffffe1
    TEST_RR_SRC12_EQ_DEST 172, sra, 0xfffffedcba987654, 0xfedcba9876543210
    TEST_RR_ZEROSRC1 173, sra, 0x0, 0xffffffffffffffe1
    TEST_RR_ZEROSRC2 174, sra, 0xfedcba9876543210, 0xfedcba9876543210
    TEST_RR_ZERODEST 175, sra, 0xfedcba9876543210, 0xffffffffffffffe1
    /* or */
    TEST_RR 176, or, 0x0, 0x0, 0x0
    TEST_RR 177, or, 0xffffffffffffffff, 0xffffffffffffffff, 0x0
    TEST_RR 178, or, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff
    TEST_RR 179, or, 0xff0fff0fff0fff0f, 0xff00ff00ff00ff00, 0xf0f0f0f0f0f0f0f
    TEST_RR 180, or, 0xffffffffffffffff, 0x5555555555555555, 0xaaaaaaaaaaaaaaaa
    TEST_RR 181, or, 0xffffffffffffffff, 0x123456789abcdef, 0xfedcba9876543210
    TEST_RR 182, or, 0x8000000000000001, 0x8000000000000000, 0x1
    TEST_RR 183, or, 0xffffffffffffffff, 0xffffffff, 0xffffffff00000000
    TEST_RR 184, or, 0xffffffffffffffff, 0x8000000000000000, 0x7fffffffffffffff
    TEST_RR_SRC1_EQ_DEST 185, or, 0x8000000000000001, 0x8000000000000000, 0x1
    TEST_RR_SRC2_EQ_DEST 186, or, 0x8000000000000001, 0x8000000000000000, 0x1
    TEST_RR_SRC12_EQ_DEST 187, or, 0x8000000000000000, 0x8000000000000000
    TEST_RR_ZEROSRC1 188, or, 0x1, 0x1
    TEST_RR_ZEROSRC2 189, or, 0x8000000000000000, 0x8000000000000000
    TEST_RR_ZERODEST 190, or, 0x8000000000000000, 0x1
    /* and */
    TEST_RR 191, and, 0x0, 0x0, 0x0
    TEST_RR 192, and, 0x0, 0xffffffffffffffff, 0x0
    TEST_RR 193, and, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff
    TEST_RR 194, and, 0xf000f000f000f00, 0xff00ff00ff00ff00, 0xf0f0f0f0f0f0f0f
    TEST_RR 195, and, 0x0, 0x5555555555555555, 0xaaaaaaaaaaaaaaaa
    TEST_RR 196, and, 0x0, 0x123456789abcdef, 0xfedcba9876543210
    TEST_RR 197, and, 0x0, 0x8000000000000000, 0x1
    TEST_RR 198, and, 0x0, 0xffffffff, 0xffffffff00000000
    TEST_RR 199, and, 0x0, 0x8000000000000000, 0x7fffffffffffffff
    TEST_RR_SRC1_EQ_DEST 200, and, 0x0, 0x8000000000000000, 0x1
    TEST_RR_SRC2_EQ_DEST 201, and, 0x0, 0x8000000000000000, 0x1
    TEST_RR_SRC12_EQ_DEST 202, and, 0x8000000000000000, 0x8000000000000000
    TEST_RR_ZEROSRC1 203, and, 0x0, 0x1
    TEST_RR_ZEROSRC2 204, and, 0x0, 0x8000000000000000
    TEST_RR_ZERODEST 205, and, 0x8000000000000000, 0x1
    /* addw */
    TEST_RR 206, addw, 0x0, 0x0, 0x0
    TEST_RR 207, addw, 0x2, 0x1, 0x1
    TEST_RR 208, addw, 0xa, 0x3, 0x7
    TEST_RR 209, addw, 0x0, 0xffffffffffffffff, 0x1
    TEST_RR 210, addw, 0xfffffffffffffffe, 0xffffffffffffffff, 0xffffffffffffffff
    TEST_RR 211, addw, 0x0, 0x7fffffffffffffff, 0x1
    TEST_RR 212, addw, 0xffffffffffffffff, 0x8000000000000000, 0xffffffffffffffff
    TEST_RR 213, addw, 0x0, 0x8000000000000000, 0x8000000000000000
    TEST_RR 214, addw, 0xffffffff80000000, 0x7fffffff, 0x1
    TEST_RR 215, addw, 0x7fffffff, 0x80000000, 0xffffffff
    TEST_RR 216, addw, 0x0, 0xffffffff80000000, 0x80000000
    TEST_RR 217, addw, 0xffffffffffffffff, 0x123456789abcdef, 0xfedcba9876543210
    TEST_RR 218, addw, 0xffffffffffffffff, 0xffff8000, 0x7fff
    TEST_RR 219, addw, 0x0, 0x0, 0x8000000000000000
    TEST_RR 220, addw, 0xfffffffffffffffe, 0xfffffffffffffffb, 0x3
    TEST_RR 221, addw, 0x2, 0x5, 0xfffffffffffffffd
    TEST_RR_SRC1_EQ_DEST 222, addw, 0x0, 0x0, 0x8000000000000000
    TEST_RR_SRC2_EQ_DEST 223, addw, 0x0, 0x0, 0x8000000000000000
    TEST_RR_SRC12_EQ_DEST 224, addw, 0x0, 0x0
    TEST_RR_ZEROSRC1 225, addw, 0x0, 0x8000000000000000
    TEST_RR_ZEROSRC2 226, addw, 0x0, 0x0
    TEST_RR_ZERODEST 227, addw, 0x0, 0x8000000000000000
    /* subw */
    TEST_RR 228, subw, 0x0, 0x0, 0x0
    TEST_RR 229, subw, 0x0, 0x1, 0x1
    TEST_RR 230, subw, 0xfffffffffffffffc, 0x3, 0x7
    TEST_RR 231, subw, 0xfffffffffffffffe, 0xffffffffffffffff, 0x1
    TEST_RR 232, subw, 0x0, 0xffffffffffffffff, 0xffffffffffffffff
    TEST_RR 233, subw, 0xfffffffffffffffe, 0x7fffffffffffffff, 0x1
    TEST_RR 234, subw, 0x1, 0x8000000000000000, 0xffffffffffffffff
    TEST_RR 235, subw, 0x0, 0x8000000000000000, 0x8000000000000000
    TEST_RR 236, subw, 0x7ffffffe, 0x7fffffff, 0x1
    TEST_RR 237, subw, 0xffffffff80000001, 0x80000000, 0xffffffff
    TEST_RR 238, subw, 0x0, 0xffffffff80000000, 0x80000000
    TEST_RR 239, subw, 0x13579bdf, 0x123456789abcdef, 0xfedcba9876543210
    TEST_RR 240, subw, 0xffffffffffff0001, 0xffff8000, 0x7fff
    TEST_RR 241, subw, 0x0, 0x0, 0x8000000000000000
    TEST_RR 242, subw, 0xfffffffffffffff8, 0xfffffffffffffffb, 0x3
    TEST_RR 243, subw, 0x8, 0x5, 0xfffffffffffffffd
    TEST_RR_SRC1_EQ_DEST 244, subw, 0x0, 0x0, 0x8000000000000000
    TEST_RR_SRC2_EQ_DEST 245, subw, 0x0, 0x0, 0x8000000000000000
    TEST_RR_SRC12_EQ_DEST 246, subw, 0x0, 0x0
    TEST_RR_ZEROSRC1 247, subw, 0x0, 0x8000000000000000
    TEST_RR_ZEROSRC2 248, subw, 0x0, 0x0
    TEST_RR_ZERODEST 249, subw, 0x0, 0x8000000000000000
    /* sllw */
    TEST_RR 250, sllw, 0x1, 0x1, 0x0
    TEST_RR 251, sllw, 0x2, 0x1, 0x1
    TEST_RR 252, sllw, 0xffffffff80000000, 0x1, 0x1f
    TEST_RR 253, sllw, 0x1, 0x1, 0x20
    TEST_RR 254, sllw, 0xffffffff80000000, 0x1, 0x3f
    TEST_RR 257, sllw, 0xffffffffffffffff, 0xffffffffffffffff, 0x0
    TEST_RR 258, sllw, 0xfffffffffffffffe, 0xffffffffffffffff, 0x1
    TEST_RR 259, sllw, 0xffffffff80000000, 0xffffffffffffffff, 0x1f
    TEST_RR 260, sllw, 0xffffffffffffffff, 0xffffffffffffffff, 0x20
    TEST_RR 261, sllw, 0xffffffff80000000, 0xffffffffffffffff, 0x3f
    TEST_RR 262, sllw, 0x0, 0x8000000000000000, 0x3f
    TEST_RR 263, sllw, 0x0, 0x8000000000000000, 0x1
    TEST_RR 264, sllw, 0xffffffff9abcdef0, 0x123456789abcdef, 0x4
    TEST_RR 265, sllw, 0xffffffff9abcdef0, 0x123456789abcdef, 0x24
    TEST_RR 266, sllw, 0x0, 0x80000000, 0x1
    TEST_RR 267, sllw, 0x0, 0x80000000, 0x1f
    TEST_RR 268, sllw, 0xffffffffb2a19080, 0xfedcba9876543210, 0x43
    TEST_RR 269, sllw, 0xffffffffeca86420, 0xfedcba9876543210, 0xffffffffffffffe1
    TEST_RR 270, sllw, 0xfffffffffffffffe, 0x7fffffff, 0x21
    TEST_RR 271, sllw, 0xffffffffffff0000, 0x12345678ffffffff, 0x10
    TEST_RR_SRC1_EQ_DEST 272, sllw, 0xffffffffeca86420, 0xfedcba9876543210, 0xffffffffffffffe1
    TEST_RR_SRC2_EQ_DEST 273, sllw, 0xffffffffeca86420, 0xfedcba9876543210, 0xffffffffffffffe1
    TEST_RR_SRC12_EQ_DEST 274, sllw, 0x32100000, 0xfedcba9876543210
    TEST_RR_ZEROSRC1 275, sllw, 0x0, 0xffffffffffffffe1
    TEST_RR_ZEROSRC2 276, sllw, 0x76543210, 0xfedcba9876543210
    TEST_RR_ZERODEST 277, sllw, 0xfedcba9876543210, 0xffffffffffffffe1
    /* srlw */
    TEST_RR 278, srlw, 0x1, 0x1, 0x0
    TEST_RR 279, srlw, 0x0, 0x1, 0x1
    TEST_RR 280, srlw, 0x0, 0x1, 0x1f
    TEST_RR 281, srlw, 0x1, 0x1, 0x20
    TEST_RR 282, srlw, 0x0, 0x1, 0x3f
    TEST_RR 283, srlw, 0xffffffffffffffff, 0xffffffffffffffff, 0x0
    TEST_RR 284, srlw, 0x7fffffff, 0xffffffffffffffff, 0x1
    TEST_RR 285, srlw, 0x1, 0xffffffffffffffff, 0x1f
    TEST_RR 286, srlw, 0xffffffffffffffff, 0xffffffffffffffff, 0x20
    TEST_RR 287, srlw, 0x1, 0xffffffffffffffff, 0x3f
    TEST_RR 288, srlw, 0x0, 0x8000000000000000, 0x3f
    TEST_RR 289, srlw, 0x0, 0x8000000000000000, 0x1
    TEST_RR 290, srlw, 0x89abcde, 0x123456789abcdef, 0x4
    TEST_RR 291, srlw, 0x89abcde, 0x123456789abcdef, 0x24
    TEST_RR 292, srlw, 0x40000000, 0x80000000, 0x1
    TEST_RR 293, srlw, 0x1, 0x80000000, 0x1f
    TEST_RR 294, srlw, 0xeca8642, 0xfedcba9876543210, 0x43
    TEST_RR 295, srlw, 0x3b2a1908, 0xfedcba9876543210, 0xffffffffffffffe1
    TEST_RR 296, srlw, 0x3fffffff, 0x7fffffff, 0x21
    TEST_RR 297, srlw, 0xffff, 0x12345678ffffffff, 0x10
    TEST_RR_SRC1_EQ_DEST 298, srlw, 0x3b2a1908, 0xfedcba9876543210, 0xffffffffffffffe1
    TEST_RR_SRC2_EQ_DEST 299, srlw, 0x3b2a1908, 0xfedcba9876543210, 0xffffffffffffffe1
    TEST_RR_SRC12_EQ_DEST 300, srlw, 0x7654, 0xfedcba9876543210
    TEST_RR_ZEROSRC1 301, srlw, 0x0, 0xffffffffffffffe1
    TEST_RR_ZEROSRC2 302, srlw, 0x76543210, 0xfedcba9876543210
    TEST_RR_ZERODEST 303, srlw, 0xfedcba9876543210, 0xffffffffffffffe1
    /* sraw */
    TEST_RR 304, sraw, 0x1, 0x1, 0x0
    TEST_RR 305, sraw, 0x0, 0x1, 0x1
    TEST_RR 306, sraw, 0x0, 0x1, 0x1f
    TEST_RR 307, sraw, 0x1, 0x1, 0x20
    TEST_RR 308, sraw, 0x0, 0x1, 0x3f
    TEST_RR 309, sraw, 0xffffffffffffffff, 0xffffffffffffffff, 0x0
    TEST_RR 310, sraw, 0xffffffffffffffff, 0xffffffffffffffff, 0x1
    TEST_RR 311, sraw, 0xffffffffffffffff, 0xffffffffffffffff, 0x1f
    TEST_RR 312, sraw, 0xffffffffffffffff, 0xffffffffffffffff, 0x20
    TEST_RR 313, sraw, 0xffffffffffffffff, 0xffffffffffffffff, 0x3f
    TEST_RR 314, sraw, 0x0, 0x8000000000000000, 0x3f
    TEST_RR 315, sraw, 0x0, 0x8000000000000000, 0x1
    TEST_RR 316, sraw, 0xfffffffff89abcde, 0x123456789abcdef, 0x4
    TEST_RR 317, sraw, 0xfffffffff89abcde, 0x123456789abcdef, 0x24
    TEST_RR 318, sraw, 0xffffffffc0000000, 0x80000000, 0x1
    TEST_RR 319, sraw, 0xffffffffffffffff, 0x80000000, 0x1f
    TEST_RR 320, sraw, 0xeca8642, 0xfedcba9876543210, 0x43
    TEST_RR 321, sraw, 0x3b2a1908, 0xfedcba9876543210, 0xffffffffffffffe1
    TEST_RR 322, sraw, 0x3fffffff, 0x7fffffff, 0x21
    TEST_RR 323, sraw, 0xffffffffffffffff, 0x12345678ffffffff, 0x10
    TEST_RR_SRC1_EQ_DEST 324, sraw, 0x3b2a1908, 0xfedcba9876543210, 0xffffffffffffffe1
    TEST_RR_SRC2_EQ_DEST 325, sraw, 0x3b2a1908, 0xfedcba9876543210, 0xffffffffffffffe1
    TEST_RR_SRC12_EQ_DEST 326, sraw, 0x7654, 0xfedcba9876543210
    TEST_RR_ZEROSRC1 327, sraw, 0x0, 0xffffffffffffffe1
    TEST_RR_ZEROSRC2 328, sraw, 0x76543210, 0xfedcba9876543210
    TEST_RR_ZERODEST 329, sraw, 0xfedcba9876543210, 0xffffffffffffffe1

/* ---------------- register-immediate ALU ---------------- */
    /* addi */
    TEST_RI 330, addi, 0x0, 0x0, 0
    TEST_RI 331, addi, 0x800, 0x1, 2047
    TEST_RI 332, addi, 0xfffffffffffffaa9, 0xffffffffffffffff, -1366
    TEST_RI 333, addi, 0x7ffffffffffffffe, 0x7fffffffffffffff, -1
    TEST_RI 334, addi, 0x8000000000000555, 0x8000000000000000, 1365
    TEST_RI 335, addi, 0x80000000, 0x7fffffff, 1
    TEST_RI 336, addi, 0x7ffff800, 0x80000000, -2048
    TEST_RI 337, addi, 0x123456789abcdef, 0x123456789abcdef, 0
    TEST_RI 338, addi, 0xffffffffffffffff, 0xfffffffffffff800, 2047
    TEST_RI 339, addi, 0x2a9, 0x7ff, -1366
    TEST_RI 340, addi, 0xffffffffffffffff, 0x0, -1
    TEST_RI 341, addi, 0x556, 0x1, 1365
    TEST_RI 342, addi, 0x0, 0xffffffffffffffff, 1
    TEST_RI 343, addi, 0x7ffffffffffff7ff, 0x7fffffffffffffff, -2048
    TEST_RI_SRC1_EQ_DEST 344, addi, 0x7ffffffffffffffe, 0x7fffffffffffffff, -1
    TEST_RI_ZEROSRC1 345, addi, 0xffffffffffffffff, -1
    TEST_RI_ZERODEST 346, addi, 0x7fffffffffffffff, -1
    /* slti */
    TEST_RI 347, slti, 0x0, 0x0, 0
    TEST_RI 348, slti, 0x1, 0x0, 1
    TEST_RI 349, slti, 0x0, 0x0, -1
    TEST_RI 350, slti, 0x1, 0x0, 2047
    TEST_RI 351, slti, 0x0, 0x0, -2048
    TEST_RI 352, slti, 0x0, 0x1, 0
    TEST_RI 353, slti, 0x0, 0x1, 1
    TEST_RI 354, slti, 0x0, 0x1, -1
    TEST_RI 355, slti, 0x1, 0x1, 2047
    TEST_RI 356, slti, 0x0, 0x1, -2048
    TEST_RI 357, slti, 0x1, 0xffffffffffffffff, 0
    TEST_RI 358, slti, 0x1, 0xffffffffffffffff, 1
    TEST_RI 359, slti, 0x0, 0xffffffffffffffff, -1
    TEST_RI 360, slti, 0x1, 0xffffffffffffffff, 2047
    TEST_RI 361, slti, 0x0, 0xffffffffffffffff, -2048
    TEST_RI 362, slti, 0x0, 0x7fffffffffffffff, 0
    TEST_RI 363, slti, 0x0, 0x7fffffffffffffff, 1
    TEST_RI 364, slti, 0x0, 0x7fffffffffffffff, -1
    TEST_RI 365, slti, 0x0, 0x7fffffffffffffff, 2047
    TEST_RI 366, slti, 0x0, 0x7fffffffffffffff, -2048
    TEST_RI 367, slti, 0x1, 0x8000000000000000, 0
    TEST_RI 368, slti, 0x1, 0x8000000000000000, 1
    TEST_RI 369, slti, 0x1, 0x8000000000000000, -1
    TEST_RI 370, slti, 0x1, 0x8000000000000000, 2047
    TEST_RI 371, slti, 0x1, 0x8000000000000000, -2048
    TEST_RI 372, slti, 0x0, 0x7ff, 0
    TEST_RI 373, slti, 0x0, 0x7ff, 1
    TEST_RI 374, slti, 0x0, 0x7ff, -1
    TEST_RI 375, slti, 0x0, 0x7ff, 2047
    TEST_RI 376, slti, 0x0, 0x7ff, -2048
    TEST_RI 377, slti, 0x1, 0xfffffffffffff800, 0
    TEST_RI 378, slti, 0x1, 0xfffffffffffff800, 1
    TEST_RI 379, slti, 0x1, 0xfffffffffffff800, -1
    TEST_RI 380, slti, 0x1, 0xfffffffffffff800, 2047
    TEST_RI 381, slti, 0x0, 0xfffffffffffff800, -2048
    TEST_RI 382, slti, 0x1, 0xfffffffffffff800, 0
    TEST_RI 383, slti, 0x1, 0xfffffffffffff800, 1
    TEST_RI 384, slti, 0x1, 0xfffffffffffff800, -1
    TEST_RI 385, slti, 0x1, 0xfffffffffffff800, 2047
    TEST_RI 386, slti, 0x0, 0xfffffffffffff800, -2048
    TEST_RI_SRC1_EQ_DEST 387, slti, 0x1, 0x0, 2047
    TEST_RI_ZEROSRC1 388, slti, 0x1, 2047
    TEST_RI_ZERODEST 389, slti, 0x0, 2047
    /* sltiu */
    TEST_RI 390, sltiu, 0x0, 0x0, 0
    TEST_RI 391, sltiu, 0x1, 0x0, 1
    TEST_RI 392, sltiu, 0x1, 0x0, -1
    TEST_RI 393, sltiu, 0x1, 0x0, 2047
    TEST_RI 394, sltiu, 0x1, 0x0, -2048
    TEST_RI 395, sltiu, 0x0, 0x1, 0
    TEST_RI 396, sltiu, 0x0, 0x1, 1
    TEST_RI 397, sltiu, 0x1, 0x1, -1
    TEST_RI 398, sltiu, 0x1, 0x1, 2047
    TEST_RI 399, sltiu, 0x1, 0x1, -2048
    TEST_RI 400, sltiu, 0x0, 0xffffffffffffffff, 0
    TEST_RI 401, sltiu, 0x0, 0xffffffffffffffff, 1
    TEST_RI 402, sltiu, 0x0, 0xffffffffffffffff, -1
    TEST_RI 403, sltiu, 0x0, 0xffffffffffffffff, 2047
    TEST_RI 404, sltiu, 0x0, 0xffffffffffffffff, -2048
    TEST_RI 405, sltiu, 0x0, 0x7fffffffffffffff, 0
    TEST_RI 406, sltiu, 0x0, 0x7fffffffffffffff, 1
    TEST_RI 407, sltiu, 0x1, 0x7fffffffffffffff, -1
    TEST_RI 408, sltiu, 0x0, 0x7fffffffffffffff, 2047
    TEST_RI 409, sltiu, 0x1, 0x7fffffffffffffff, -2048
    TEST_RI 410, sltiu, 0x0, 0x8000000000000000, 0
    TEST_RI 411, sltiu, 0x0, 0x8000000000000000, 1
    TEST_RI 412, sltiu, 0x1, 0x8000000000000000, -1
    TEST_RI 413, sltiu, 0x0, 0x8000000000000000, 2047
    TEST_RI 414, sltiu, 0x1, 0x8000000000000000, -2048
    TEST_RI 415, sltiu, 0x0, 0x7ff, 0
    TEST_RI 416, sltiu, 0x0, 0x7ff, 1
    TEST_RI 417, sltiu, 0x1, 0x7ff, -1
    TEST_RI 418, sltiu, 0x0, 0x7ff, 2047
    TEST_RI 419, sltiu, 0x1, 0x7ff, -2048
    TEST_RI 420, sltiu, 0x0, 0xfffffffffffff800, 0
    TEST_RI 421, sltiu, 0x0, 0xfffffffffffff800, 1
    TEST_RI 422, sltiu, 0x1, 0xfffffffffffff800, -1
    TEST_RI 423, sltiu, 0x0, 0xfffffffffffff800, 2047
    TEST_RI 424, sltiu, 0x0, 0xfffffffffffff800, -2048
    TEST_RI 425, sltiu, 0x0, 0xfffffffffffff800, 0
    TEST_RI 426, sltiu, 0x0, 0xfffffffffffff800, 1
    TEST_RI 427, sltiu, 0x1, 0xfffffffffffff800, -1
    TEST_RI 428, sltiu, 0x0, 0xfffffffffffff800, 2047
    TEST_RI 429, sltiu, 0x0, 0xfffffffffffff800, -2048
    TEST_RI_SRC1_EQ_DEST 430, sltiu, 0x1, 0x0, 2047
    TEST_RI_ZEROSRC1 431, sltiu, 0x1, 2047
    TEST_RI_ZERODEST 432, sltiu, 0x0, 2047
    /* xori */
    TEST_RI 433, xori, 0x0, 0x0, 0
    TEST_RI 434, xori, 0x7fe, 0x1, 2047
    TEST_RI 435, xori, 0x555, 0xffffffffffffffff, -1366
    TEST_RI 436, xori, 0x8000000000000000, 0x7fffffffffffffff, -1
    TEST_RI 437, xori, 0x8000000000000555, 0x8000000000000000, 1365
    TEST_RI 438, xori, 0x7ffffffe, 0x7fffffff, 1
    TEST_RI 439, xori, 0xffffffff7ffff800, 0x80000000, -2048
    TEST_RI 440, xori, 0x123456789abcdef, 0x123456789abcdef, 0
    TEST_RI 441, xori, 0xffffffffffffffff, 0xfffffffffffff800, 2047
    TEST_RI 442, xori, 0xfffffffffffffd55, 0x7ff, -1366
    TEST_RI 443, xori, 0xffffffffffffffff, 0x0, -1
    TEST_RI 444, xori, 0x554, 0x1, 1365
    TEST_RI 445, xori, 0xfffffffffffffffe, 0xffffffffffffffff, 1
    TEST_RI 446, xori, 0x80000000000007ff, 0x7fffffffffffffff, -2048
    TEST_RI_SRC1_EQ_DEST 447, xori, 0x8000000000000000, 0x7fffffffffffffff, -1
    TEST_RI_ZEROSRC1 448, xori, 0xffffffffffffffff, -1
    TEST_RI_ZERODEST 449, xori, 0x7fffffffffffffff, -1
    /* ori */
    TEST_RI 450, ori, 0x0, 0x0, 0
    TEST_RI 451, ori, 0x7ff, 0x1, 2047
    TEST_RI 452, ori, 0xffffffffffffffff, 0xffffffffffffffff, -1366
    TEST_RI 453, ori, 0xffffffffffffffff, 0x7fffffffffffffff, -1
    TEST_RI 454, ori, 0x8000000000000555, 0x8000000000000000, 1365
    TEST_RI 455, ori, 0x7fffffff, 0x7fffffff, 1
    TEST_RI 456, ori, 0xfffffffffffff800, 0x80000000, -2048
    TEST_RI 457, ori, 0x123456789abcdef, 0x123456789abcdef, 0
    TEST_RI 458, ori, 0xffffffffffffffff, 0xfffffffffffff800, 2047
    TEST_RI 459, ori, 0xffffffffffffffff, 0x7ff, -1366
    TEST_RI 460, ori, 0xffffffffffffffff, 0x0, -1
    TEST_RI 461, ori, 0x555, 0x1, 1365
    TEST_RI 462, ori, 0xffffffffffffffff, 0xffffffffffffffff, 1
    TEST_RI 463, ori, 0xffffffffffffffff, 0x7fffffffffffffff, -2048
    TEST_RI_SRC1_EQ_DEST 464, ori, 0xffffffffffffffff, 0x7fffffffffffffff, -1
    TEST_RI_ZEROSRC1 465, ori, 0xffffffffffffffff, -1
    TEST_RI_ZERODEST 466, ori, 0x7fffffffffffffff, -1
    /* andi */
    TEST_RI 467, andi, 0x0, 0x0, 0
    TEST_RI 468, andi, 0x1, 0x1, 2047
    TEST_RI 469, andi, 0xfffffffffffffaaa, 0xffffffffffffffff, -1366
    TEST_RI 470, andi, 0x7fffffffffffffff, 0x7fffffffffffffff, -1
    TEST_RI 471, andi, 0x0, 0x8000000000000000, 1365
    TEST_RI 472, andi, 0x1, 0x7fffffff, 1
    TEST_RI 473, andi, 0x80000000, 0x80000000, -2048
    TEST_RI 474, andi, 0x0, 0x123456789abcdef, 0
    TEST_RI 475, andi, 0x0, 0xfffffffffffff800, 2047
    TEST_RI 476, andi, 0x2aa, 0x7ff, -1366
    TEST_RI 477, andi, 0x0, 0x0, -1
    TEST_RI 478, andi, 0x1, 0x1, 1365
    TEST_RI 479, andi, 0x1, 0xffffffffffffffff, 1
    TEST_RI 480, andi, 0x7ffffffffffff800, 0x7fffffffffffffff, -2048
    TEST_RI_SRC1_EQ_DEST 481, andi, 0x7fffffffffffffff, 0x7fffffffffffffff, -1
    TEST_RI_ZEROSRC1 482, andi, 0x0, -1
    TEST_RI_ZERODEST 483, andi, 0x7fffffffffffffff, -1
    /* slli */
    TEST_RI 484, slli, 0x1, 0x1, 0
    TEST_RI 485, slli, 0x2, 0x1, 1
    TEST_RI 486, slli, 0x80000000, 0x1, 31
    TEST_RI 487, slli, 0x100000000, 0x1, 32
    TEST_RI 488, slli, 0x8000000000000000, 0x1, 63
    TEST_RI 489, slli, 0xffffffffffffffff, 0xffffffffffffffff, 0
    TEST_RI 490, slli, 0xfffffffffffffffe, 0xffffffffffffffff, 1
    TEST_RI 491, slli, 0xffffffff80000000, 0xffffffffffffffff, 31
    TEST_RI 492, slli, 0xffffffff00000000, 0xffffffffffffffff, 32
    TEST_RI 493, slli, 0x8000000000000000, 0xffffffffffffffff, 63
    TEST_RI 494, slli, 0x8000000000000000, 0x8000000000000000, 0
    TEST_RI 495, slli, 0x0, 0x8000000000000000, 1
    TEST_RI 496, slli, 0x0, 0x8000000000000000, 31
    TEST_RI 497, slli, 0x0, 0x8000000000000000, 32
    TEST_RI 498, slli, 0x0, 0x8000000000000000, 63
    TEST_RI 499, slli, 0x123456789abcdef, 0x123456789abcdef, 0
    TEST_RI 500, slli, 0x2468acf13579bde, 0x123456789abcdef, 1
    TEST_RI 501, slli, 0xc4d5e6f780000000, 0x123456789abcdef, 31
    TEST_RI 502, slli, 0x89abcdef00000000, 0x123456789abcdef, 32
    TEST_RI 503, slli, 0x8000000000000000, 0x123456789abcdef, 63
    TEST_RI 504, slli, 0x80000000, 0x80000000, 0
    TEST_RI 505, slli, 0x100000000, 0x80000000, 1
    TEST_RI 506, slli, 0x4000000000000000, 0x80000000, 31
    TEST_RI 507, slli, 0x8000000000000000, 0x80000000, 32
    TEST_RI 508, slli, 0x0, 0x80000000, 63
    TEST_RI_SRC1_EQ_DEST 509, slli, 0x100000000, 0x1, 32
    TEST_RI_ZEROSRC1 510, slli, 0x0, 32
    TEST_RI_ZERODEST 513, slli, 0x1, 32
    /* srli */
    TEST_RI 514, srli, 0x1, 0x1, 0
    TEST_RI 515, srli, 0x0, 0x1, 1
    TEST_RI 516, srli, 0x0, 0x1, 31
    TEST_RI 517, srli, 0x0, 0x1, 32
    TEST_RI 518, srli, 0x0, 0x1, 63
    TEST_RI 519, srli, 0xffffffffffffffff, 0xffffffffffffffff, 0
    TEST_RI 520, srli, 0x7fffffffffffffff, 0xffffffffffffffff, 1
    TEST_RI 521, srli, 0x1ffffffff, 0xffffffffffffffff, 31
    TEST_RI 522, srli, 0xffffffff, 0xffffffffffffffff, 32
    TEST_RI 523, srli, 0x1, 0xffffffffffffffff, 63
    TEST_RI 524, srli, 0x8000000000000000, 0x8000000000000000, 0
    TEST_RI 525, srli, 0x4000000000000000, 0x8000000000000000, 1
    TEST_RI 526, srli, 0x100000000, 0x8000000000000000, 31
    TEST_RI 527, srli, 0x80000000, 0x8000000000000000, 32
    TEST_RI 528, srli, 0x1, 0x8000000000000000, 63
    TEST_RI 529, srli, 0x123456789abcdef, 0x123456789abcdef, 0
    TEST_RI 530, srli, 0x91a2b3c4d5e6f7, 0x123456789abcdef, 1
    TEST_RI 531, srli, 0x2468acf, 0x123456789abcdef, 31
    TEST_RI 532, srli, 0x1234567, 0x123456789abcdef, 32
    TEST_RI 533, srli, 0x0, 0x123456789abcdef, 63
    TEST_RI 534, srli, 0x80000000, 0x80000000, 0
    TEST_RI 535, srli, 0x40000000, 0x80000000, 1
    TEST_RI 536, srli, 0x1, 0x80000000, 31
    TEST_RI 537, srli, 0x0, 0x80000000, 32
    TEST_RI 538, srli, 0x0, 0x80000000, 63
    TEST_RI_SRC1_EQ_DEST 539, srli, 0x0, 0x1, 32
    TEST_RI_ZEROSRC1 540, srli, 0x0, 32
    TEST_RI_ZERODEST 541, srli, 0x1, 32
    /* srai */
    TEST_RI 542, srai, 0x1, 0x1, 0
    TEST_RI 543, srai, 0x0, 0x1, 1
    TEST_RI 544, srai, 0x0, 0x1, 31
    TEST_RI 545, srai, 0x0, 0x1, 32
    TEST_RI 546, srai, 0x0, 0x1, 63
    TEST_RI 547, srai, 0xffffffffffffffff, 0xffffffffffffffff, 0
    TEST_RI 548, srai, 0xffffffffffffffff, 0xffffffffffffffff, 1
    TEST_RI 549, srai, 0xffffffffffffffff, 0xffffffffffffffff, 31
    TEST_RI 550, srai, 0xffffffffffffffff, 0xffffffffffffffff, 32
    TEST_RI 551, srai, 0xffffffffffffffff, 0xffffffffffffffff, 63
    TEST_RI 552, srai, 0x8000000000000000, 0x8000000000000000, 0
    TEST_RI 553, srai, 0xc000000000000000, 0x8000000000000000, 1
    TEST_RI 554, srai, 0xffffffff00000000, 0x8000000000000000, 31
    TEST_RI 555, srai, 0xffffffff80000000, 0x8000000000000000, 32
    TEST_RI 556, srai, 0xffffffffffffffff, 0x8000000000000000, 63
    TEST_RI 557, srai, 0x123456789abcdef, 0x123456789abcdef, 0
    TEST_RI 558, srai, 0x91a2b3c4d5e6f7, 0x123456789abcdef, 1
    TEST_RI 559, srai, 0x2468acf, 0x123456789abcdef, 31
    TEST_RI 560, srai, 0x1234567, 0x123456789abcdef, 32
    TEST_RI 561, srai, 0x0, 0x123456789abcdef, 63
    TEST_RI 562, srai, 0x80000000, 0x80000000, 0
    TEST_RI 563, srai, 0x40000000, 0x80000000, 1
    TEST_RI 564, srai, 0x1, 0x80000000, 31
    TEST_RI 565, srai, 0x0, 0x80000000, 32
    TEST_RI 566, srai, 0x0, 0x80000000, 63
    TEST_RI_SRC1_EQ_DEST 567, srai, 0x0, 0x1, 32
    TEST_RI_ZEROSRC1 568, srai, 0x0, 32
    TEST_RI_ZERODEST 569, srai, 0x1, 32
    /* addiw */
    TEST_RI 570, addiw, 0x0, 0x0, 0
    TEST_RI 571, addiw, 0x800, 0x1, 2047
    TEST_RI 572, addiw, 0xfffffffffffffaa9, 0xffffffffffffffff, -1366
    TEST_RI 573, addiw, 0xfffffffffffffffe, 0x7fffffffffffffff, -1
    TEST_RI 574, addiw, 0x555, 0x8000000000000000, 1365
    TEST_RI 575, addiw, 0xffffffff80000000, 0x7fffffff, 1
    TEST_RI 576, addiw, 0x7ffff800, 0x80000000, -2048
    TEST_RI 577, addiw, 0xffffffff89abcdef, 0x123456789abcdef, 0
    TEST_RI 578, addiw, 0xffffffffffffffff, 0xfffffffffffff800, 2047
    TEST_RI 579, addiw, 0x2a9, 0x7ff, -1366
    TEST_RI 580, addiw, 0xffffffffffffffff, 0x0, -1
    TEST_RI 581, addiw, 0x556, 0x1, 1365
    TEST_RI 582, addiw, 0x0, 0xffffffffffffffff, 1
    TEST_RI 583, addiw, 0xfffffffffffff7ff, 0x7fffffffffffffff, -2048
    TEST_RI_SRC1_EQ_DEST 584, addiw, 0xfffffffffffffffe, 0x7fffffffffffffff, -1
    TEST_RI_ZEROSRC1 585, addiw, 0xffffffffffffffff, -1
    TEST_RI_ZERODEST 586, addiw, 0x7fffffffffffffff, -1
    /* slliw */
    TEST_RI 587, slliw, 0x1, 0x1, 0
    TEST_RI 588, slliw, 0x2, 0x1, 1
    TEST_RI 589, slliw, 0x8000, 0x1, 15
    TEST_RI 590, slliw, 0xffffffff80000000, 0x1, 31
    TEST_RI 591, slliw, 0xffffffffffffffff, 0xffffffffffffffff, 0
    TEST_RI 592, slliw, 0xfffffffffffffffe, 0xffffffffffffffff, 1
    TEST_RI 593, slliw, 0xffffffffffff8000, 0xffffffffffffffff, 15
    TEST_RI 594, slliw, 0xffffffff80000000, 0xffffffffffffffff, 31
    TEST_RI 595, slliw, 0xffffffff80000000, 0x80000000, 0
    TEST_RI 596, slliw, 0x0, 0x80000000, 1
    TEST_RI 597, slliw, 0x0, 0x80000000, 15
    TEST_RI 598, slliw, 0x0, 0x80000000, 31
    TEST_RI 599, slliw, 0xffffffff89abcdef, 0x123456789abcdef, 0
    TEST_RI 600, slliw, 0x13579bde, 0x123456789abcdef, 1
    TEST_RI 601, slliw, 0xffffffffe6f78000, 0x123456789abcdef, 15
    TEST_RI 602, slliw, 0xffffffff80000000, 0x123456789abcdef, 31
    TEST_RI 603, slliw, 0x7fffffff, 0x7fffffff, 0
    TEST_RI 604, slliw, 0xfffffffffffffffe, 0x7fffffff, 1
    TEST_RI 605, slliw, 0xffffffffffff8000, 0x7fffffff, 15
    TEST_RI 606, slliw, 0xffffffff80000000, 0x7fffffff, 31
    TEST_RI 607, slliw, 0x0, 0xffffffff00000000, 0
    TEST_RI 608, slliw, 0x0, 0xffffffff00000000, 1
    TEST_RI 609, slliw, 0x0, 0xffffffff00000000, 15
    TEST_RI 610, slliw, 0x0, 0xffffffff00000000, 31
    TEST_RI_SRC1_EQ_DEST 611, slliw, 0xffffffff80000000, 0x1, 31
    TEST_RI_ZEROSRC1 612, slliw, 0x0, 31
    TEST_RI_ZERODEST 613, slliw, 0x1, 31
    /* srliw */
    TEST_RI 614, srliw, 0x1, 0x1, 0
    TEST_RI 615, srliw, 0x0, 0x1, 1
    TEST_RI 616, srliw, 0x0, 0x1, 15
    TEST_RI 617, srliw, 0x0, 0x1, 31
    TEST_RI 618, srliw, 0xffffffffffffffff, 0xffffffffffffffff, 0
    TEST_RI 619, srliw, 0x7fffffff, 0xffffffffffffffff, 1
    TEST_RI 620, srliw, 0x1ffff, 0xffffffffffffffff, 15
    TEST_RI 621, srliw, 0x1, 0xffffffffffffffff, 31
    TEST_RI 622, srliw, 0xffffffff80000000, 0x80000000, 0
    TEST_RI 623, srliw, 0x40000000, 0x80000000, 1
    TEST_RI 624, srliw, 0x10000, 0x80000000, 15
    TEST_RI 625, srliw, 0x1, 0x80000000, 31
    TEST_RI 626, srliw, 0xffffffff89abcdef, 0x123456789abcdef, 0
    TEST_RI 627, srliw, 0x44d5e6f7, 0x123456789abcdef, 1
    TEST_RI 628, srliw, 0x11357, 0x123456789abcdef, 15
    TEST_RI 629, srliw, 0x1, 0x123456789abcdef, 31
    TEST_RI 630, srliw, 0x7fffffff, 0x7fffffff, 0
    TEST_RI 631, srliw, 0x3fffffff, 0x7fffffff, 1
    TEST_RI 632, srliw, 0xffff, 0x7fffffff, 15
    TEST_RI 633, srliw, 0x0, 0x7fffffff, 31
    TEST_RI 634, srliw, 0x0, 0xffffffff00000000, 0
    TEST_RI 635, srliw, 0x0, 0xffffffff00000000, 1
    TEST_RI 636, srliw, 0x0, 0xffffffff00000000, 15
    TEST_RI 637, srliw, 0x0, 0xffffffff00000000, 31
    TEST_RI_SRC1_EQ_DEST 638, srliw, 0x0, 0x1, 31
    TEST_RI_ZEROSRC1 639, srliw, 0x0, 31
    TEST_RI_ZERODEST 640, srliw, 0x1, 31
    /* sraiw */
    TEST_RI 641, sraiw, 0x1, 0x1, 0
    TEST_RI 642, sraiw, 0x0, 0x1, 1
    TEST_RI 643, sraiw, 0x0, 0x1, 15
    TEST_RI 644, sraiw, 0x0, 0x1, 31
    TEST_RI 645, sraiw, 0xffffffffffffffff, 0xffffffffffffffff, 0
    TEST_RI 646, sraiw, 0xffffffffffffffff, 0xffffffffffffffff, 1
    TEST_RI 647, sraiw, 0xffffffffffffffff, 0xffffffffffffffff, 15
    TEST_RI 648, sraiw, 0xffffffffffffffff, 0xffffffffffffffff, 31
    TEST_RI 649, sraiw, 0xffffffff80000000, 0x80000000, 0
    TEST_RI 650, sraiw, 0xffffffffc0000000, 0x80000000, 1
    TEST_RI 651, sraiw, 0xffffffffffff0000, 0x80000000, 15
    TEST_RI 652, sraiw, 0xffffffffffffffff, 0x80000000, 31
    TEST_RI 653, sraiw, 0xffffffff89abcdef, 0x123456789abcdef, 0
    TEST_RI 654, sraiw, 0xffffffffc4d5e6f7, 0x123456789abcdef, 1
    TEST_RI 655, sraiw, 0xffffffffffff1357, 0x123456789abcdef, 15
    TEST_RI 656, sraiw, 0xffffffffffffffff, 0x123456789abcdef, 31
    TEST_RI 657, sraiw, 0x7fffffff, 0x7fffffff, 0
    TEST_RI 658, sraiw, 0x3fffffff, 0x7fffffff, 1
    TEST_RI 659, sraiw, 0xffff, 0x7fffffff, 15
    TEST_RI 660, sraiw, 0x0, 0x7fffffff, 31
    TEST_RI 661, sraiw, 0x0, 0xffffffff00000000, 0
    TEST_RI 662, sraiw, 0x0, 0xffffffff00000000, 1
    TEST_RI 663, sraiw, 0x0, 0xffffffff00000000, 15
    TEST_RI 664, sraiw, 0x0, 0xffffffff00000000, 31
    TEST_RI_SRC1_EQ_DEST 665, sraiw, 0x0, 0x1, 31
    TEST_RI_ZEROSRC1 666, sraiw, 0x0, 31
    TEST_RI_ZERODEST 667, sraiw, 0x1, 31

/* ---------------- lui / auipc ---------------- */
    lui a0, 0x0
    CHECK_EQ 668, a0, 0x0
    lui a0, 0x1
    CHECK_EQ 669, a0, 0x1000
    lui a0, 0x7ffff
    CHECK_EQ 670, a0, 0x7ffff000
    lui a0, 0x80000
    CHECK_EQ 671, a0, 0xffffffff80000000
    lui a0, 0xfffff
    CHECK_EQ 672, a0, 0xfffffffffffff000
    lui a0, 0x12345
    CHECK_EQ 673, a0, 0x12345000
    lui x0, 0x12345
    CHECK_EQ 674, x0, 0
1:  auipc a0, 0x0
    la a1, 1b
    li a2, 0x0
    add a1, a1, a2
    CHECK_EQR 675, a0, a1
1:  auipc a0, 0x1
    la a1, 1b
    li a2, 0x1000
    add a1, a1, a2
    CHECK_EQR 676, a0, a1
1:  auipc a0, 0x7ffff
    la a1, 1b
    li a2, 0x7ffff000
    add a1, a1, a2
    CHECK_EQR 677, a0, a1
1:  auipc a0, 0x80000
    la a1, 1b
    li a2, 0xffffffff80000000
    add a1, a1, a2
    CHECK_EQR 678, a0, a1
1:  auipc a0, 0xfffff
    la a1, 1b
    li a2, 0xfffffffffffff000
    add a1, a1, a2
    CHECK_EQR 679, a0, a1

/* ---------------- branches ---------------- */
    /* beq */
    TEST_BR_TAKEN 680, beq, 0x0, 0x0
    TEST_BR_TAKEN 681, beq, 0x1, 0x1
    TEST_BR_TAKEN 682, beq, 0xffffffffffffffff, 0xffffffffffffffff
    TEST_BR_NOTTAKEN 683, beq, 0x0, 0x1
    TEST_BR_NOTTAKEN 684, beq, 0x1, 0x0
    TEST_BR_NOTTAKEN 685, beq, 0xffffffffffffffff, 0x0
    TEST_BR_NOTTAKEN 686, beq, 0x0, 0xffffffffffffffff
    TEST_BR_NOTTAKEN 687, beq, 0xffffffffffffffff, 0x1
    TEST_BR_NOTTAKEN 688, beq, 0x1, 0xffffffffffffffff
    TEST_BR_NOTTAKEN 689, beq, 0x7fffffffffffffff, 0x8000000000000000
    TEST_BR_NOTTAKEN 690, beq, 0x8000000000000000, 0x7fffffffffffffff
    TEST_BR_TAKEN 691, beq, 0x8000000000000000, 0x8000000000000000
    TEST_BR_NOTTAKEN 692, beq, 0x100000000, 0x0
    TEST_BR_NOTTAKEN 693, beq, 0xffffffff, 0xffffffff00000000
    TEST_BR_TAKEN 694, beq, 0, 0
    /* bne */
    TEST_BR_NOTTAKEN 695, bne, 0x0, 0x0
    TEST_BR_NOTTAKEN 696, bne, 0x1, 0x1
    TEST_BR_NOTTAKEN 697, bne, 0xffffffffffffffff, 0xffffffffffffffff
    TEST_BR_TAKEN 698, bne, 0x0, 0x1
    TEST_BR_TAKEN 699, bne, 0x1, 0x0
    TEST_BR_TAKEN 700, bne, 0xffffffffffffffff, 0x0
    TEST_BR_TAKEN 701, bne, 0x0, 0xffffffffffffffff
    TEST_BR_TAKEN 702, bne, 0xffffffffffffffff, 0x1
    TEST_BR_TAKEN 703, bne, 0x1, 0xffffffffffffffff
    TEST_BR_TAKEN 704, bne, 0x7fffffffffffffff, 0x8000000000000000
    TEST_BR_TAKEN 705, bne, 0x8000000000000000, 0x7fffffffffffffff
    TEST_BR_NOTTAKEN 706, bne, 0x8000000000000000, 0x8000000000000000
    TEST_BR_TAKEN 707, bne, 0x100000000, 0x0
    TEST_BR_TAKEN 708, bne, 0xffffffff, 0xffffffff00000000
    TEST_BR_NOTTAKEN 709, bne, 0, 0
    /* blt */
    TEST_BR_NOTTAKEN 710, blt, 0x0, 0x0
    TEST_BR_NOTTAKEN 711, blt, 0x1, 0x1
    TEST_BR_NOTTAKEN 712, blt, 0xffffffffffffffff, 0xffffffffffffffff
    TEST_BR_TAKEN 713, blt, 0x0, 0x1
    TEST_BR_NOTTAKEN 714, blt, 0x1, 0x0
    TEST_BR_TAKEN 715, blt, 0xffffffffffffffff, 0x0
    TEST_BR_NOTTAKEN 716, blt, 0x0, 0xffffffffffffffff
    TEST_BR_TAKEN 717, blt, 0xffffffffffffffff, 0x1
    TEST_BR_NOTTAKEN 718, blt, 0x1, 0xffffffffffffffff
    TEST_BR_NOTTAKEN 719, blt, 0x7fffffffffffffff, 0x8000000000000000
    TEST_BR_TAKEN 720, blt, 0x8000000000000000, 0x7fffffffffffffff
    TEST_BR_NOTTAKEN 721, blt, 0x8000000000000000, 0x8000000000000000
    TEST_BR_NOTTAKEN 722, blt, 0x100000000, 0x0
    TEST_BR_NOTTAKEN 723, blt, 0xffffffff, 0xffffffff00000000
    TEST_BR_NOTTAKEN 724, blt, 0, 0
    /* bge */
    TEST_BR_TAKEN 725, bge, 0x0, 0x0
    TEST_BR_TAKEN 726, bge, 0x1, 0x1
    TEST_BR_TAKEN 727, bge, 0xffffffffffffffff, 0xffffffffffffffff
    TEST_BR_NOTTAKEN 728, bge, 0x0, 0x1
    TEST_BR_TAKEN 729, bge, 0x1, 0x0
    TEST_BR_NOTTAKEN 730, bge, 0xffffffffffffffff, 0x0
    TEST_BR_TAKEN 731, bge, 0x0, 0xffffffffffffffff
    TEST_BR_NOTTAKEN 732, bge, 0xffffffffffffffff, 0x1
    TEST_BR_TAKEN 733, bge, 0x1, 0xffffffffffffffff
    TEST_BR_TAKEN 734, bge, 0x7fffffffffffffff, 0x8000000000000000
    TEST_BR_NOTTAKEN 735, bge, 0x8000000000000000, 0x7fffffffffffffff
    TEST_BR_TAKEN 736, bge, 0x8000000000000000, 0x8000000000000000
    TEST_BR_TAKEN 737, bge, 0x100000000, 0x0
    TEST_BR_TAKEN 738, bge, 0xffffffff, 0xffffffff00000000
    TEST_BR_TAKEN 739, bge, 0, 0
    /* bltu */
    TEST_BR_NOTTAKEN 740, bltu, 0x0, 0x0
    TEST_BR_NOTTAKEN 741, bltu, 0x1, 0x1
    TEST_BR_NOTTAKEN 742, bltu, 0xffffffffffffffff, 0xffffffffffffffff
    TEST_BR_TAKEN 743, bltu, 0x0, 0x1
    TEST_BR_NOTTAKEN 744, bltu, 0x1, 0x0
    TEST_BR_NOTTAKEN 745, bltu, 0xffffffffffffffff, 0x0
    TEST_BR_TAKEN 746, bltu, 0x0, 0xffffffffffffffff
    TEST_BR_NOTTAKEN 747, bltu, 0xffffffffffffffff, 0x1
    TEST_BR_TAKEN 748, bltu, 0x1, 0xffffffffffffffff
    TEST_BR_TAKEN 749, bltu, 0x7fffffffffffffff, 0x8000000000000000
    TEST_BR_NOTTAKEN 750, bltu, 0x8000000000000000, 0x7fffffffffffffff
    TEST_BR_NOTTAKEN 751, bltu, 0x8000000000000000, 0x8000000000000000
    TEST_BR_NOTTAKEN 752, bltu, 0x100000000, 0x0
    TEST_BR_TAKEN 753, bltu, 0xffffffff, 0xffffffff00000000
    TEST_BR_NOTTAKEN 754, bltu, 0, 0
    /* bgeu */
    TEST_BR_TAKEN 755, bgeu, 0x0, 0x0
    TEST_BR_TAKEN 756, bgeu, 0x1, 0x1
    TEST_BR_TAKEN 757, bgeu, 0xffffffffffffffff, 0xffffffffffffffff
    TEST_BR_NOTTAKEN 758, bgeu, 0x0, 0x1
    TEST_BR_TAKEN 759, bgeu, 0x1, 0x0
    TEST_BR_TAKEN 760, bgeu, 0xffffffffffffffff, 0x0
    TEST_BR_NOTTAKEN 761, bgeu, 0x0, 0xffffffffffffffff
    TEST_BR_TAKEN 762, bgeu, 0xffffffffffffffff, 0x1
    TEST_BR_NOTTAKEN 763, bgeu, 0x1, 0xffffffffffffffff
    TEST_BR_NOTTAKEN 764, bgeu, 0x7fffffffffffffff, 0x8000000000000000
    TEST_BR_TAKEN 765, bgeu, 0x8000000000000000, 0x7fffffffffffffff
    TEST_BR_TAKEN 766, bgeu, 0x8000000000000000, 0x8000000000000000
    TEST_BR_TAKEN 769, bgeu, 0x100000000, 0x0
    TEST_BR_NOTTAKEN 770, bgeu, 0xffffffff, 0xffffffff00000000
    TEST_BR_TAKEN 771, bgeu, 0, 0
    /* backward taken branch: loop 10 times */
    li a0, 0
    li a1, 10
1:  addi a0, a0, 1
    bne a0, a1, 1b
    CHECK_EQ 772, a0, 10
    /* branch with rs1 == rs2 register */
    li a1, 5
    beq a1, a1, 1f
    FAIL 773
1:  bne a1, a1, 2f
    j 3f
2:  FAIL 773
3:
    bltu x0, x0, 2b
    blt x0, x0, 2b
    bgeu x0, x0, 4f
    FAIL 773
4:

/* ---------------- jal / jalr ---------------- */
    jal a0, 1f
2:  nop
    FAIL 774
1:  la a1, 2b
    CHECK_EQR 774, a0, a1
    /* jal x0 (j) does not write */
    jal x0, 1f
    FAIL 775
1:  CHECK_EQ 775, x0, 0
    /* jal backwards */
    j 2f
1:  la a1, 3f
    CHECK_EQR 776, ra, a1
    j 4f
2:  jal ra, 1b
3:  nop
    FAIL 776
4:
    /* jalr with offset, link = pc+4 */
    la a1, 1f
    addi a1, a1, -16
    jalr a0, 16(a1)
2:  nop
    FAIL 777
1:  la a2, 2b
    CHECK_EQR 777, a0, a2
    /* jalr clears bit 0 of the target */
    la a1, 1f
    addi a1, a1, 1
    jalr a0, 0(a1)
    FAIL 778
1:  nop
    /* jalr target (base+offset) with bit 0 set from the offset */
    la a1, 5f
    addi a1, a1, -3
    jalr a0, 3(a1)
    FAIL 779
5:  nop
    /* jalr rd == rs1: target uses the old value */
    la a1, 1f
    jalr a1, 0(a1)
2:  nop
    FAIL 780
1:  la a2, 2b
    CHECK_EQR 780, a1, a2
    /* jalr x0, ra (ret) does not write */
    la ra, 1f
    jalr x0, 0(ra)
    FAIL 781
1:  CHECK_EQ 781, x0, 0
    /* call/ret pair */
    li a0, 0
    call rv64i_sub
    CHECK_EQ 782, a0, 42

/* ---------------- loads ---------------- */
    /* lb */
    TEST_LD 783, lb, 0x0, 0, ldata
    TEST_LD 784, lb, 0xffffffffffffff80, 1, ldata
    TEST_LD 785, lb, 0xffffffffffffffff, 2, ldata
    TEST_LD 786, lb, 0x7f, 3, ldata
    TEST_LD 787, lb, 0x34, 6, ldata
    TEST_LD 788, lb, 0x56, 9, ldata
    TEST_LD 789, lb, 0xfffffffffffffff0, 12, ldata
    TEST_LD 790, lb, 0xffffffffffffff9a, 15, ldata
    TEST_LD 791, lb, 0xffffffffffffffff, 18, ldata
    TEST_LD 792, lb, 0xffffffffffffffff, 21, ldata
    TEST_LD 793, lb, 0x0, 24, ldata
    TEST_LD 794, lb, 0xffffffffffffff80, 27, ldata
    TEST_LD 795, lb, 0x0, 30, ldata
    la a1, ldata_end
    lb a0, -1(a1)
    CHECK_EQ 796, a0, 0xffffffffffffff80
    la a0, ldata
    lb a0, 1(a0)
    CHECK_EQ 797, a0, 0xffffffffffffff80
    la a1, ldata
    lb x0, 0(a1)
    CHECK_EQ 798, x0, 0
    /* lbu */
    TEST_LD 799, lbu, 0x0, 0, ldata
    TEST_LD 800, lbu, 0x80, 1, ldata
    TEST_LD 801, lbu, 0xff, 2, ldata
    TEST_LD 802, lbu, 0x7f, 3, ldata
    TEST_LD 803, lbu, 0x34, 6, ldata
    TEST_LD 804, lbu, 0x56, 9, ldata
    TEST_LD 805, lbu, 0xf0, 12, ldata
    TEST_LD 806, lbu, 0x9a, 15, ldata
    TEST_LD 807, lbu, 0xff, 18, ldata
    TEST_LD 808, lbu, 0xff, 21, ldata
    TEST_LD 809, lbu, 0x0, 24, ldata
    TEST_LD 810, lbu, 0x80, 27, ldata
    TEST_LD 811, lbu, 0x0, 30, ldata
    la a1, ldata_end
    lbu a0, -1(a1)
    CHECK_EQ 812, a0, 0x80
    la a0, ldata
    lbu a0, 1(a0)
    CHECK_EQ 813, a0, 0x80
    la a1, ldata
    lbu x0, 0(a1)
    CHECK_EQ 814, x0, 0
    /* lh */
    TEST_LD 815, lh, 0xffffffffffff8000, 0, ldata
    TEST_LD 816, lh, 0x7fff, 2, ldata
    TEST_LD 817, lh, 0xfffffffffffffe01, 4, ldata
    TEST_LD 818, lh, 0x1234, 6, ldata
    TEST_LD 819, lh, 0x5678, 8, ldata
    TEST_LD 820, lh, 0x1234, 10, ldata
    TEST_LD 821, lh, 0xffffffffffffdef0, 12, ldata
    TEST_LD 822, lh, 0xffffffffffff9abc, 14, ldata
    TEST_LD 823, lh, 0xffffffffffffffff, 16, ldata
    TEST_LD 824, lh, 0xffffffffffffffff, 18, ldata
    TEST_LD 825, lh, 0xffffffffffffffff, 20, ldata
    TEST_LD 826, lh, 0xffffffffffffffff, 22, ldata
    TEST_LD 827, lh, 0x0, 24, ldata
    TEST_LD 828, lh, 0xffffffffffff8000, 26, ldata
    TEST_LD 829, lh, 0x0, 28, ldata
    TEST_LD 830, lh, 0xffffffffffff8000, 30, ldata
    la a1, ldata_end
    lh a0, -2(a1)
    CHECK_EQ 831, a0, 0xffffffffffff8000
    la a0, ldata
    lh a0, 2(a0)
    CHECK_EQ 832, a0, 0x7fff
    la a1, ldata
    lh x0, 0(a1)
    CHECK_EQ 833, x0, 0
    /* lhu */
    TEST_LD 834, lhu, 0x8000, 0, ldata
    TEST_LD 835, lhu, 0x7fff, 2, ldata
    TEST_LD 836, lhu, 0xfe01, 4, ldata
    TEST_LD 837, lhu, 0x1234, 6, ldata
    TEST_LD 838, lhu, 0x5678, 8, ldata
    TEST_LD 839, lhu, 0x1234, 10, ldata
    TEST_LD 840, lhu, 0xdef0, 12, ldata
    TEST_LD 841, lhu, 0x9abc, 14, ldata
    TEST_LD 842, lhu, 0xffff, 16, ldata
    TEST_LD 843, lhu, 0xffff, 18, ldata
    TEST_LD 844, lhu, 0xffff, 20, ldata
    TEST_LD 845, lhu, 0xffff, 22, ldata
    TEST_LD 846, lhu, 0x0, 24, ldata
    TEST_LD 847, lhu, 0x8000, 26, ldata
    TEST_LD 848, lhu, 0x0, 28, ldata
    TEST_LD 849, lhu, 0x8000, 30, ldata
    la a1, ldata_end
    lhu a0, -2(a1)
    CHECK_EQ 850, a0, 0x8000
    la a0, ldata
    lhu a0, 2(a0)
    CHECK_EQ 851, a0, 0x7fff
    la a1, ldata
    lhu x0, 0(a1)
    CHECK_EQ 852, x0, 0
    /* lw */
    TEST_LD 853, lw, 0x7fff8000, 0, ldata
    TEST_LD 854, lw, 0x1234fe01, 4, ldata
    TEST_LD 855, lw, 0x12345678, 8, ldata
    TEST_LD 856, lw, 0xffffffff9abcdef0, 12, ldata
    TEST_LD 857, lw, 0xffffffffffffffff, 16, ldata
    TEST_LD 858, lw, 0xffffffffffffffff, 20, ldata
    TEST_LD 859, lw, 0xffffffff80000000, 24, ldata
    TEST_LD 860, lw, 0xffffffff80000000, 28, ldata
    la a1, ldata_end
    lw a0, -4(a1)
    CHECK_EQ 861, a0, 0xffffffff80000000
    la a0, ldata
    lw a0, 4(a0)
    CHECK_EQ 862, a0, 0x1234fe01
    la a1, ldata
    lw x0, 0(a1)
    CHECK_EQ 863, x0, 0
    /* lwu */
    TEST_LD 864, lwu, 0x7fff8000, 0, ldata
    TEST_LD 865, lwu, 0x1234fe01, 4, ldata
    TEST_LD 866, lwu, 0x12345678, 8, ldata
    TEST_LD 867, lwu, 0x9abcdef0, 12, ldata
    TEST_LD 868, lwu, 0xffffffff, 16, ldata
    TEST_LD 869, lwu, 0xffffffff, 20, ldata
    TEST_LD 870, lwu, 0x80000000, 24, ldata
    TEST_LD 871, lwu, 0x80000000, 28, ldata
    la a1, ldata_end
    lwu a0, -4(a1)
    CHECK_EQ 872, a0, 0x80000000
    la a0, ldata
    lwu a0, 4(a0)
    CHECK_EQ 873, a0, 0x1234fe01
    la a1, ldata
    lwu x0, 0(a1)
    CHECK_EQ 874, x0, 0
    /* ld */
    TEST_LD 875, ld, 0x1234fe017fff8000, 0, ldata
    TEST_LD 876, ld, 0x9abcdef012345678, 8, ldata
    TEST_LD 877, ld, 0xffffffffffffffff, 16, ldata
    TEST_LD 878, ld, 0x8000000080000000, 24, ldata
    la a1, ldata_end
    ld a0, -8(a1)
    CHECK_EQ 879, a0, 0x8000000080000000
    la a0, ldata
    ld a0, 8(a0)
    CHECK_EQ 880, a0, 0x9abcdef012345678
    la a1, ldata
    ld x0, 0(a1)
    CHECK_EQ 881, x0, 0
    /* offsets +2047 / -2048 */
    la a1, bigdata
    li a2, 0x1122334455667788
    sd a2, 2040(a1)
    addi a3, a1, 2047
    addi a3, a3, 1
    ld a0, -8(a3)
    CHECK_EQR 882, a0, a2
    addi a3, a1, 2047
    addi a3, a3, 2047
    addi a3, a3, 2
    sd a2, -2048(a3)
    addi a4, a1, 1
    ld a0, 2047(a4)
    CHECK_EQR 883, a0, a2
    lbu a0, 2047(a1)
    CHECK_EQ 884, a0, 0x11

/* ---------------- stores ---------------- */
    /* sb */
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x0
    sb a3, 8(a1)
    lbu a0, 8(a1)
    CHECK_EQ 885, a0, 0x0
    ld a0, 8(a1)
    CHECK_EQ 886, a0, 0xaaaaaaaaaaaaaa00
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x0
    sb a3, 9(a1)
    lbu a0, 9(a1)
    CHECK_EQ 887, a0, 0x0
    ld a0, 8(a1)
    CHECK_EQ 888, a0, 0xaaaaaaaaaaaa00aa
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x0
    sb a3, 15(a1)
    lbu a0, 15(a1)
    CHECK_EQ 889, a0, 0x0
    ld a0, 8(a1)
    CHECK_EQ 890, a0, 0xaaaaaaaaaaaaaa
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0xffffffffffffffff
    sb a3, 8(a1)
    lbu a0, 8(a1)
    CHECK_EQ 891, a0, 0xff
    ld a0, 8(a1)
    CHECK_EQ 892, a0, 0xaaaaaaaaaaaaaaff
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0xffffffffffffffff
    sb a3, 9(a1)
    lbu a0, 9(a1)
    CHECK_EQ 893, a0, 0xff
    ld a0, 8(a1)
    CHECK_EQ 894, a0, 0xaaaaaaaaaaaaffaa
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0xffffffffffffffff
    sb a3, 15(a1)
    lbu a0, 15(a1)
    CHECK_EQ 895, a0, 0xff
    ld a0, 8(a1)
    CHECK_EQ 896, a0, 0xffaaaaaaaaaaaaaa
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x8000000000000081
    sb a3, 8(a1)
    lbu a0, 8(a1)
    CHECK_EQ 897, a0, 0x81
    ld a0, 8(a1)
    CHECK_EQ 898, a0, 0xaaaaaaaaaaaaaa81
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x8000000000000081
    sb a3, 9(a1)
    lbu a0, 9(a1)
    CHECK_EQ 899, a0, 0x81
    ld a0, 8(a1)
    CHECK_EQ 900, a0, 0xaaaaaaaaaaaa81aa
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x8000000000000081
    sb a3, 15(a1)
    lbu a0, 15(a1)
    CHECK_EQ 901, a0, 0x81
    ld a0, 8(a1)
    CHECK_EQ 902, a0, 0x81aaaaaaaaaaaaaa
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x123456789abcdef
    sb a3, 8(a1)
    lbu a0, 8(a1)
    CHECK_EQ 903, a0, 0xef
    ld a0, 8(a1)
    CHECK_EQ 904, a0, 0xaaaaaaaaaaaaaaef
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x123456789abcdef
    sb a3, 9(a1)
    lbu a0, 9(a1)
    CHECK_EQ 905, a0, 0xef
    ld a0, 8(a1)
    CHECK_EQ 906, a0, 0xaaaaaaaaaaaaefaa
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x123456789abcdef
    sb a3, 15(a1)
    lbu a0, 15(a1)
    CHECK_EQ 907, a0, 0xef
    ld a0, 8(a1)
    CHECK_EQ 908, a0, 0xefaaaaaaaaaaaaaa
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x7f
    sb a3, 8(a1)
    lbu a0, 8(a1)
    CHECK_EQ 909, a0, 0x7f
    ld a0, 8(a1)
    CHECK_EQ 910, a0, 0xaaaaaaaaaaaaaa7f
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x7f
    sb a3, 9(a1)
    lbu a0, 9(a1)
    CHECK_EQ 911, a0, 0x7f
    ld a0, 8(a1)
    CHECK_EQ 912, a0, 0xaaaaaaaaaaaa7faa
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x7f
    sb a3, 15(a1)
    lbu a0, 15(a1)
    CHECK_EQ 913, a0, 0x7f
    ld a0, 8(a1)
    CHECK_EQ 914, a0, 0x7faaaaaaaaaaaaaa
    la a1, sdata_end
    li a3, 0x5a5a5a5a5a5a5a5a
    sb a3, -1(a1)
    lbu a0, -1(a1)
    CHECK_EQ 915, a0, 0x5a
    la a1, sdata
    li a3, -1
    sd a3, 16(a1)
    sb x0, 16(a1)
    ld a0, 16(a1)
    CHECK_EQ 916, a0, 0xffffffffffffff00
    /* sh */
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x0
    sh a3, 8(a1)
    lhu a0, 8(a1)
    CHECK_EQ 917, a0, 0x0
    ld a0, 8(a1)
    CHECK_EQ 918, a0, 0xaaaaaaaaaaaa0000
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x0
    sh a3, 10(a1)
    lhu a0, 10(a1)
    CHECK_EQ 919, a0, 0x0
    ld a0, 8(a1)
    CHECK_EQ 920, a0, 0xaaaaaaaa0000aaaa
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x0
    sh a3, 14(a1)
    lhu a0, 14(a1)
    CHECK_EQ 921, a0, 0x0
    ld a0, 8(a1)
    CHECK_EQ 922, a0, 0xaaaaaaaaaaaa
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0xffffffffffffffff
    sh a3, 8(a1)
    lhu a0, 8(a1)
    CHECK_EQ 923, a0, 0xffff
    ld a0, 8(a1)
    CHECK_EQ 924, a0, 0xaaaaaaaaaaaaffff
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0xffffffffffffffff
    sh a3, 10(a1)
    lhu a0, 10(a1)
    CHECK_EQ 925, a0, 0xffff
    ld a0, 8(a1)
    CHECK_EQ 926, a0, 0xaaaaaaaaffffaaaa
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0xffffffffffffffff
    sh a3, 14(a1)
    lhu a0, 14(a1)
    CHECK_EQ 927, a0, 0xffff
    ld a0, 8(a1)
    CHECK_EQ 928, a0, 0xffffaaaaaaaaaaaa
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x8000000000000081
    sh a3, 8(a1)
    lhu a0, 8(a1)
    CHECK_EQ 929, a0, 0x81
    ld a0, 8(a1)
    CHECK_EQ 930, a0, 0xaaaaaaaaaaaa0081
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x8000000000000081
    sh a3, 10(a1)
    lhu a0, 10(a1)
    CHECK_EQ 931, a0, 0x81
    ld a0, 8(a1)
    CHECK_EQ 932, a0, 0xaaaaaaaa0081aaaa
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x8000000000000081
    sh a3, 14(a1)
    lhu a0, 14(a1)
    CHECK_EQ 933, a0, 0x81
    ld a0, 8(a1)
    CHECK_EQ 934, a0, 0x81aaaaaaaaaaaa
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x123456789abcdef
    sh a3, 8(a1)
    lhu a0, 8(a1)
    CHECK_EQ 935, a0, 0xcdef
    ld a0, 8(a1)
    CHECK_EQ 936, a0, 0xaaaaaaaaaaaacdef
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x123456789abcdef
    sh a3, 10(a1)
    lhu a0, 10(a1)
    CHECK_EQ 937, a0, 0xcdef
    ld a0, 8(a1)
    CHECK_EQ 938, a0, 0xaaaaaaaacdefaaaa
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x123456789abcdef
    sh a3, 14(a1)
    lhu a0, 14(a1)
    CHECK_EQ 939, a0, 0xcdef
    ld a0, 8(a1)
    CHECK_EQ 940, a0, 0xcdefaaaaaaaaaaaa
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x7f
    sh a3, 8(a1)
    lhu a0, 8(a1)
    CHECK_EQ 941, a0, 0x7f
    ld a0, 8(a1)
    CHECK_EQ 942, a0, 0xaaaaaaaaaaaa007f
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x7f
    sh a3, 10(a1)
    lhu a0, 10(a1)
    CHECK_EQ 943, a0, 0x7f
    ld a0, 8(a1)
    CHECK_EQ 944, a0, 0xaaaaaaaa007faaaa
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x7f
    sh a3, 14(a1)
    lhu a0, 14(a1)
    CHECK_EQ 945, a0, 0x7f
    ld a0, 8(a1)
    CHECK_EQ 946, a0, 0x7faaaaaaaaaaaa
    la a1, sdata_end
    li a3, 0x5a5a5a5a5a5a5a5a
    sh a3, -2(a1)
    lhu a0, -2(a1)
    CHECK_EQ 947, a0, 0x5a5a
    la a1, sdata
    li a3, -1
    sd a3, 16(a1)
    sh x0, 16(a1)
    ld a0, 16(a1)
    CHECK_EQ 948, a0, 0xffffffffffff0000
    /* sw */
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x0
    sw a3, 8(a1)
    lwu a0, 8(a1)
    CHECK_EQ 949, a0, 0x0
    ld a0, 8(a1)
    CHECK_EQ 950, a0, 0xaaaaaaaa00000000
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x0
    sw a3, 12(a1)
    lwu a0, 12(a1)
    CHECK_EQ 951, a0, 0x0
    ld a0, 8(a1)
    CHECK_EQ 952, a0, 0xaaaaaaaa
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x0
    sw a3, 12(a1)
    lwu a0, 12(a1)
    CHECK_EQ 953, a0, 0x0
    ld a0, 8(a1)
    CHECK_EQ 954, a0, 0xaaaaaaaa
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0xffffffffffffffff
    sw a3, 8(a1)
    lwu a0, 8(a1)
    CHECK_EQ 955, a0, 0xffffffff
    ld a0, 8(a1)
    CHECK_EQ 956, a0, 0xaaaaaaaaffffffff
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0xffffffffffffffff
    sw a3, 12(a1)
    lwu a0, 12(a1)
    CHECK_EQ 957, a0, 0xffffffff
    ld a0, 8(a1)
    CHECK_EQ 958, a0, 0xffffffffaaaaaaaa
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0xffffffffffffffff
    sw a3, 12(a1)
    lwu a0, 12(a1)
    CHECK_EQ 959, a0, 0xffffffff
    ld a0, 8(a1)
    CHECK_EQ 960, a0, 0xffffffffaaaaaaaa
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x8000000000000081
    sw a3, 8(a1)
    lwu a0, 8(a1)
    CHECK_EQ 961, a0, 0x81
    ld a0, 8(a1)
    CHECK_EQ 962, a0, 0xaaaaaaaa00000081
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x8000000000000081
    sw a3, 12(a1)
    lwu a0, 12(a1)
    CHECK_EQ 963, a0, 0x81
    ld a0, 8(a1)
    CHECK_EQ 964, a0, 0x81aaaaaaaa
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x8000000000000081
    sw a3, 12(a1)
    lwu a0, 12(a1)
    CHECK_EQ 965, a0, 0x81
    ld a0, 8(a1)
    CHECK_EQ 966, a0, 0x81aaaaaaaa
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x123456789abcdef
    sw a3, 8(a1)
    lwu a0, 8(a1)
    CHECK_EQ 967, a0, 0x89abcdef
    ld a0, 8(a1)
    CHECK_EQ 968, a0, 0xaaaaaaaa89abcdef
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x123456789abcdef
    sw a3, 12(a1)
    lwu a0, 12(a1)
    CHECK_EQ 969, a0, 0x89abcdef
    ld a0, 8(a1)
    CHECK_EQ 970, a0, 0x89abcdefaaaaaaaa
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x123456789abcdef
    sw a3, 12(a1)
    lwu a0, 12(a1)
    CHECK_EQ 971, a0, 0x89abcdef
    ld a0, 8(a1)
    CHECK_EQ 972, a0, 0x89abcdefaaaaaaaa
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x7f
    sw a3, 8(a1)
    lwu a0, 8(a1)
    CHECK_EQ 973, a0, 0x7f
    ld a0, 8(a1)
    CHECK_EQ 974, a0, 0xaaaaaaaa0000007f
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x7f
    sw a3, 12(a1)
    lwu a0, 12(a1)
    CHECK_EQ 975, a0, 0x7f
    ld a0, 8(a1)
    CHECK_EQ 976, a0, 0x7faaaaaaaa
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x7f
    sw a3, 12(a1)
    lwu a0, 12(a1)
    CHECK_EQ 977, a0, 0x7f
    ld a0, 8(a1)
    CHECK_EQ 978, a0, 0x7faaaaaaaa
    la a1, sdata_end
    li a3, 0x5a5a5a5a5a5a5a5a
    sw a3, -4(a1)
    lwu a0, -4(a1)
    CHECK_EQ 979, a0, 0x5a5a5a5a
    la a1, sdata
    li a3, -1
    sd a3, 16(a1)
    sw x0, 16(a1)
    ld a0, 16(a1)
    CHECK_EQ 980, a0, 0xffffffff00000000
    /* sd */
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x0
    sd a3, 8(a1)
    ld a0, 8(a1)
    CHECK_EQ 981, a0, 0x0
    ld a0, 8(a1)
    CHECK_EQ 982, a0, 0x0
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x0
    sd a3, 8(a1)
    ld a0, 8(a1)
    CHECK_EQ 983, a0, 0x0
    ld a0, 8(a1)
    CHECK_EQ 984, a0, 0x0
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0xffffffffffffffff
    sd a3, 8(a1)
    ld a0, 8(a1)
    CHECK_EQ 985, a0, 0xffffffffffffffff
    ld a0, 8(a1)
    CHECK_EQ 986, a0, 0xffffffffffffffff
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0xffffffffffffffff
    sd a3, 8(a1)
    ld a0, 8(a1)
    CHECK_EQ 987, a0, 0xffffffffffffffff
    ld a0, 8(a1)
    CHECK_EQ 988, a0, 0xffffffffffffffff
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x8000000000000081
    sd a3, 8(a1)
    ld a0, 8(a1)
    CHECK_EQ 989, a0, 0x8000000000000081
    ld a0, 8(a1)
    CHECK_EQ 990, a0, 0x8000000000000081
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x8000000000000081
    sd a3, 8(a1)
    ld a0, 8(a1)
    CHECK_EQ 991, a0, 0x8000000000000081
    ld a0, 8(a1)
    CHECK_EQ 992, a0, 0x8000000000000081
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x123456789abcdef
    sd a3, 8(a1)
    ld a0, 8(a1)
    CHECK_EQ 993, a0, 0x123456789abcdef
    ld a0, 8(a1)
    CHECK_EQ 994, a0, 0x123456789abcdef
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x123456789abcdef
    sd a3, 8(a1)
    ld a0, 8(a1)
    CHECK_EQ 995, a0, 0x123456789abcdef
    ld a0, 8(a1)
    CHECK_EQ 996, a0, 0x123456789abcdef
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x7f
    sd a3, 8(a1)
    ld a0, 8(a1)
    CHECK_EQ 997, a0, 0x7f
    ld a0, 8(a1)
    CHECK_EQ 998, a0, 0x7f
    la a1, sdata
    li a2, 0xaaaaaaaaaaaaaaaa
    sd a2, 8(a1)
    li a3, 0x7f
    sd a3, 8(a1)
    ld a0, 8(a1)
    CHECK_EQ 999, a0, 0x7f
    ld a0, 8(a1)
    CHECK_EQ 1000, a0, 0x7f
    la a1, sdata_end
    li a3, 0x5a5a5a5a5a5a5a5a
    sd a3, -8(a1)
    ld a0, -8(a1)
    CHECK_EQ 1001, a0, 0x5a5a5a5a5a5a5a5a
    la a1, sdata
    li a3, -1
    sd a3, 16(a1)
    sd x0, 16(a1)
    ld a0, 16(a1)
    CHECK_EQ 1002, a0, 0x0
    la a1, sdata
    sd a1, 24(a1)
    ld a0, 24(a1)
    CHECK_EQR 1003, a0, a1
    la a1, sdata
    li a2, 0x1122334455667788
    sd a2, 0(a1)
    lbu a0, 0(a1)
    CHECK_EQ 1004, a0, 0x88
    lbu a0, 7(a1)
    CHECK_EQ 1005, a0, 0x11
    lhu a0, 2(a1)
    CHECK_EQ 1006, a0, 0x5566
    lwu a0, 4(a1)
    CHECK_EQ 1007, a0, 0x11223344
    lh a0, 6(a1)
    CHECK_EQ 1008, a0, 0x1122

/* ---------------- all registers ---------------- */
    /* write a distinct value to each of x1..x31, then check them all */
    li x1, 0x1010101010101
    li x2, 0x2020202020202
    li x3, 0x3030303030303
    li x4, 0x4040404040404
    li x5, 0x5050505050505
    li x6, 0x6060606060606
    li x7, 0x7070707070707
    li x8, 0x8080808080808
    li x9, 0x9090909090909
    li x10, 0xa0a0a0a0a0a0a
    li x11, 0xb0b0b0b0b0b0b
    li x12, 0xc0c0c0c0c0c0c
    li x13, 0xd0d0d0d0d0d0d
    li x14, 0xe0e0e0e0e0e0e
    li x15, 0xf0f0f0f0f0f0f
    li x16, 0x10101010101010
    li x17, 0x11111111111111
    li x18, 0x12121212121212
    li x19, 0x13131313131313
    li x20, 0x14141414141414
    li x21, 0x15151515151515
    li x22, 0x16161616161616
    li x23, 0x17171717171717
    li x24, 0x18181818181818
    li x25, 0x19191919191919
    li x26, 0x1a1a1a1a1a1a1a
    li x27, 0x1b1b1b1b1b1b1b
    li x28, 0x1c1c1c1c1c1c1c
    li x29, 0x1d1d1d1d1d1d1d
    li x30, 0x1e1e1e1e1e1e1e
    li x31, 0x1f1f1f1f1f1f1f
    /* check x31 (t6) by hand */
    addi x30, x31, 0
    li x31, 0x1f1f1f1f1f1f1f
    beq x30, x31, 1f
    FAIL 1009
1:
    li x30, 0x1e1e1e1e1e1e1e
    CHECK_EQ 1010, x1, 0x1010101010101
    CHECK_EQ 1011, x2, 0x2020202020202
    CHECK_EQ 1012, x3, 0x3030303030303
    CHECK_EQ 1013, x4, 0x4040404040404
    CHECK_EQ 1014, x5, 0x5050505050505
    CHECK_EQ 1015, x6, 0x6060606060606
    CHECK_EQ 1016, x7, 0x7070707070707
    CHECK_EQ 1017, x8, 0x8080808080808
    CHECK_EQ 1018, x9, 0x9090909090909
    CHECK_EQ 1019, x10, 0xa0a0a0a0a0a0a
    CHECK_EQ 1020, x11, 0xb0b0b0b0b0b0b
    CHECK_EQ 1021, x12, 0xc0c0c0c0c0c0c
    CHECK_EQ 1022, x13, 0xd0d0d0d0d0d0d
    CHECK_EQ 1025, x14, 0xe0e0e0e0e0e0e
    CHECK_EQ 1026, x15, 0xf0f0f0f0f0f0f
    CHECK_EQ 1027, x16, 0x10101010101010
    CHECK_EQ 1028, x17, 0x11111111111111
    CHECK_EQ 1029, x18, 0x12121212121212
    CHECK_EQ 1030, x19, 0x13131313131313
    CHECK_EQ 1031, x20, 0x14141414141414
    CHECK_EQ 1032, x21, 0x15151515151515
    CHECK_EQ 1033, x22, 0x16161616161616
    CHECK_EQ 1034, x23, 0x17171717171717
    CHECK_EQ 1035, x24, 0x18181818181818
    CHECK_EQ 1036, x25, 0x19191919191919
    CHECK_EQ 1037, x26, 0x1a1a1a1a1a1a1a
    CHECK_EQ 1038, x27, 0x1b1b1b1b1b1b1b
    CHECK_EQ 1039, x28, 0x1c1c1c1c1c1c1c
    CHECK_EQ 1040, x29, 0x1d1d1d1d1d1d1d
    CHECK_EQ 1041, x30, 0x1e1e1e1e1e1e1e
    /* x0 ignores writes */
    addi x0, x0, 5
    CHECK_EQ 1042, x0, 0
    li x0, 0x1234
    CHECK_EQ 1043, x0, 0
    add x0, x1, x2
    CHECK_EQ 1044, x0, 0

/* ---------------- fences and HINTs ---------------- */
    li a1, 7
    li a2, 9
    fence
    fence rw, rw
    fence r, w
    fence iorw, iorw
    fence.tso
    .word 0x0100000f   /* pause (fence w, 0) */
    fence.i
    /* HINTs: rd = x0 forms of OP-IMM / OP / LUI / AUIPC */
    addi x0, a1, 3
    slti x0, a1, 3
    slli x0, a1, 3
    add x0, a1, a2
    sll x0, a1, a2
    auipc x0, 0x12
    nop
    CHECK_EQ 1045, a1, 7
    CHECK_EQ 1046, a2, 9
    CHECK_EQ 1047, x0, 0

    TEST_PASS

rv64i_sub:
    addi a0, a0, 42
    ret

    .data
    .align 4
ldata:
    .byte 0x00, 0x80, 0xff, 0x7f, 0x01, 0xfe, 0x34, 0x12
    .byte 0x78, 0x56, 0x34, 0x12, 0xf0, 0xde, 0xbc, 0x9a
    .byte 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff
    .byte 0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00, 0x80
ldata_end:
    .align 4
sdata:   .space 64
sdata_end:
    .align 4
bigdata: .space 4112
