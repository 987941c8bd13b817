/* isa_zfa - every Zfa instruction of RV64 with F and D (fli.s/d of all 32 constants, fminm,
 * fmaxm, fround and froundnx in every rounding mode, fcvtmod.w.d, fleq, fltq) over a table
 * of values (zeros, halves, integers at the 32-bit limits, huge and tiny values, denormals,
 * infinities, quiet and signalling NaNs), fflags cleared before each pair so every flag
 * shows. Under a handler that skips what traps (with Zfa off each is illegal; without D the
 * double forms). It always exits 0: the tests diff its commit log against Spike's with the
 * same ISA string.
 *
 * Its own start-up, as isa_probe's. Zfa is newer than the assembler: spelled with .word.
 */
#include "encoding.h"

    .option norvc
    .option norelax

/* OP-FP words: funct7, rs2, rs1, funct3, rd (register numbers) */
#define FP(f7, rs2, rs1, f3, rd) .word ((f7) << 25 | (rs2) << 20 | (rs1) << 15 | (f3) << 12 | (rd) << 7 | 0x53)

.macro FLI_ALL
    .irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    FP(0x78, 1, \i, 0, 10)          /* fli.s fa0, \i */
    FP(0x79, 1, \i, 0, 10)          /* fli.d fa0, \i */
    .endr
.endm

/* fa1, fa2 loaded: every two-operand and rounding operation of one format (s: 0, d: 1) */
.macro OPS fmt
    csrw    fflags, zero
    FP(0x14 | \fmt, 12, 11, 2, 10)  /* fminm */
    FP(0x14 | \fmt, 12, 11, 3, 10)  /* fmaxm */
    FP(0x14 | \fmt, 11, 12, 2, 10)  /* fminm, swapped */
    FP(0x14 | \fmt, 11, 12, 3, 10)  /* fmaxm, swapped */
    FP(0x50 | \fmt, 12, 11, 4, 10)  /* fleq a0 */
    FP(0x50 | \fmt, 12, 11, 5, 10)  /* fltq a0 */
    FP(0x50 | \fmt, 11, 12, 4, 10)
    FP(0x50 | \fmt, 11, 12, 5, 10)
    .irp rm, 0,1,2,3,4,7
    csrw    fflags, zero
    FP(0x20 | \fmt, 4, 11, \rm, 10) /* fround */
    FP(0x20 | \fmt, 5, 11, \rm, 10) /* froundnx */
    .endr
.endm

    .section .text.init, "ax", @progbits
    .globl _start
_start:
    la      t0, trap
    csrw    mtvec, t0
    li      t0, MSTATUS_FS
    csrs    mstatus, t0
    csrr    a0, misa

    FLI_ALL
    li      t0, 2
    csrw    frm, t0         /* dynamic = RDN */

    la      s0, doubles
    la      s2, doubles_end
1:  fld     fa1, 0(s0)
    fld     fa2, 8(s0)
    OPS     1
    csrw    fflags, zero
    FP(0x61, 8, 11, 1, 10)          /* fcvtmod.w.d a0, fa1, rtz */
    FP(0x61, 8, 12, 1, 10)          /* fcvtmod.w.d a0, fa2, rtz */
    addi    s0, s0, 8
    bltu    s0, s2, 1b

    la      s0, singles
    la      s2, singles_end
2:  flw     fa1, 0(s0)
    flw     fa2, 4(s0)
    OPS     0
    addi    s0, s0, 4
    bltu    s0, s2, 2b

    /* an unboxed single is the canonical NaN */
    fld     fa1, 0(s2)
    OPS     0
    FP(0x61, 8, 11, 0, 10)          /* fcvtmod.w.d with rm 000: reserved */

    /* exit 0 through HTIF */
    li      t0, 1
    la      t1, tohost
3:  sd      t0, 0(t1)
    j       3b

/* Skip the instruction that trapped (every one is 4 bytes here). */
    .balign 4
trap:
    csrr    t6, mcause
    csrr    t6, mtval
    csrr    t6, mepc
    addi    t6, t6, 4
    csrw    mepc, t6
    mret

    .data
    .balign 8
doubles:
    .double 0.0, -0.0, 1.5, -1.5, 2.5, -2.5, 0.5, -0.5, 3.7, -3.7, 1e10, -1e10
    .double 2147483647.5, -2147483648.0, -2147483648.75, 2147483648.0, 4294967299.75
    .double -4294967299.75, 1e300, 9.2233720368547758e18, 1e-300, -7.0
    .dword  0x0000000000000001, 0x800fffffffffffff       /* denormals */
    .dword  0x7ff0000000000000, 0xfff0000000000000       /* infinities */
    .dword  0x7ff8000000000000, 0x7ff0000000000001       /* quiet, signalling NaN */
    .dword  0xfff8000000000123
doubles_end:
    .dword  0x0000000000000000
singles:
    .float  0.0, -0.0, 1.5, -1.5, 2.5, -2.5, 0.5, -0.5, 3.7, -3.7, 1e10, -1e10
    .float  8388607.5, -8388608.5, 16777217.0, 1e-30, -7.0
    .word   0x00000001, 0x807fffff, 0x7f800000, 0xff800000
    .word   0x7fc00000, 0x7f800001, 0xffc00123
singles_end:
    .dword  0x3ff0000000000000      /* read as a double: not a boxed single */

    .section .tohost, "aw", @progbits
    .align 6
    .globl tohost
tohost:   .dword 0
    .align 6
    .globl fromhost
fromhost: .dword 0
