/* isa_probe - one instruction or CSR access of every extension hartscope implements, under a
 * trap handler that skips whatever traps, so the same ELF runs on any ISA string from rv64i
 * to rv64gc_zicntr_zihpm: what an extension that is off does (illegal instruction, mtval =
 * the bits; with C off, instruction-address-misaligned for jumps and taken branches to
 * addresses that are not 4-byte aligned, and bit 1 of mepc/sepc reading 0) shows in the commit
 * log, which the tests diff against Spike's with the same ISA string.
 *
 * It has its own start-up (crt0 needs C, F and D) and uses only RV64I and Zicsr outside the
 * probes: 32-bit encodings throughout (.option norvc); compressed probes are spelled as .half
 * pairs, so that a hart without C skips a whole 4-byte pair. t5 and t6 belong to the handler.
 * It always exits 0: the commit-log diff is the check.
 */
#include "encoding.h"

    .option norvc
    .option norelax

    .section .text.init, "ax", @progbits
    .globl _start
_start:
    la      t0, trap
    csrw    mtvec, t0
    csrr    a0, misa
    la      sp, data
    li      t0, MSTATUS_FS & (MSTATUS_FS >> 1)     /* FS = Initial */
    csrs    mstatus, t0
    li      a1, 7
    li      a2, -3

    /* M */
    mul     a0, a1, a2
    mulh    a0, a1, a2
    mulhsu  a0, a1, a2
    mulhu   a0, a1, a2
    div     a0, a1, a2
    divu    a0, a1, a2
    rem     a0, a1, a2
    remu    a0, a1, a2
    mulw    a0, a1, a2
    divw    a0, a1, a2
    divuw   a0, a1, a2
    remw    a0, a1, a2
    remuw   a0, a1, a2

    /* A */
    lr.d    a0, (sp)
    sc.d    a3, a1, (sp)
    lr.w    a0, (sp)
    sc.w    a3, a2, (sp)
    amoadd.w a0, a1, (sp)
    amoswap.d a0, a2, (sp)
    amomaxu.d.aqrl a0, a1, (sp)
    ld      a0, 0(sp)

    /* F */
    fmv.w.x fa0, a1
    fcvt.s.w fa1, a2
    fadd.s  fa2, fa0, fa1
    fmadd.s fa3, fa0, fa1, fa2
    fsw     fa3, 8(sp)
    flw     fa4, 8(sp)
    fmv.x.w a0, fa4
    fclass.s a0, fa4
    feq.s   a0, fa4, fa3
    fcvt.l.s a0, fa4
    csrr    a0, fflags
    csrr    a0, frm
    csrr    a0, fcsr
    csrwi   frm, 1
    csrw    fcsr, zero

    /* D */
    fcvt.d.w fa0, a1
    fcvt.d.l fa1, a2
    fdiv.d  fa2, fa0, fa1
    fmadd.d fa3, fa0, fa1, fa2
    fsd     fa3, 16(sp)
    fld     fa4, 16(sp)
    fmv.x.d a0, fa4
    fcvt.s.d fa5, fa4
    fcvt.d.s fa5, fa5
    fsqrt.d fa5, fa0
    csrr    a0, mstatus

    /* C, in 4-byte pairs */
    .half   0x4505          /* c.li a0, 1 */
    .half   0x0505          /* c.addi a0, 1 */
    .half   0x85aa          /* c.mv a1, a0 */
    .half   0x95aa          /* c.add a1, a0 */
    .half   0x6502          /* c.ldsp a0, 0(sp) */
    .half   0xe42a          /* c.sdsp a0, 8(sp) */
    .half   0x2782          /* c.fldsp fa5, 0(sp) */
    .half   0xa03e          /* c.fsdsp fa5, 0(sp) */
    .half   0x0001          /* c.nop */
    .half   0x0001          /* c.nop */

    /* IALIGN: jumps and branches to an address that is 4-byte aligned + 2 (without C:
     * instruction-address-misaligned, mtval = the target, nothing written) */
    jal     ra, half_aligned + 2
    la      ra, 1f
    beq     zero, zero, half_aligned + 2
1:  bne     zero, zero, half_aligned + 2
    la      t1, half_aligned + 2
    jalr    ra, 0(t1)
    la      t1, half_aligned + 3            /* jalr clears bit 0: the same target */
    jalr    ra, 0(t1)
    li      t0, 0x80001236
    csrw    mepc, t0
    csrr    a0, mepc
    csrw    sepc, t0
    csrr    a0, sepc

    /* Zifencei */
    fence.i

    /* Zicntr, Zihpm, and the counter-enable masks */
    csrr    a0, cycle
    csrr    a0, instret
    csrr    a0, hpmcounter3
    csrr    a0, hpmcounter31
    csrr    a0, mcycle
    li      t0, -1
    csrw    mcounteren, t0
    csrr    a0, mcounteren
    csrw    mcounteren, zero
    csrw    scounteren, t0
    csrr    a0, scounteren
    csrw    scounteren, zero
    csrw    mcountinhibit, t0
    csrr    a0, mcountinhibit
    csrw    mcountinhibit, zero
    csrw    medeleg, t0
    csrr    a0, medeleg
    csrw    medeleg, zero
    csrr    a0, misa

    /* exit 0 through HTIF */
    li      t0, 1
    la      t1, tohost
2:  sd      t0, 0(t1)
    j       2b

/* Skip the instruction that trapped: 4 bytes without C (where every instruction, and every
 * pair of compressed probes, is 4 bytes), otherwise its length. */
    .balign 4
trap:
    csrr    t6, mcause
    csrr    t6, mtval
    csrr    t6, mepc
    csrr    t5, misa
    andi    t5, t5, 1 << ('C' - 'A')
    beqz    t5, 4f
    lhu     t5, 0(t6)
    andi    t5, t5, 3
    addi    t5, t5, -3
    beqz    t5, 4f
    addi    t6, t6, 2
    j       5f
4:  addi    t6, t6, 4
5:  csrw    mepc, t6
    mret

/* With C, the target of the half-aligned jumps returns at once. */
    .balign 4
half_aligned:
    .half   0x0001          /* c.nop */
    .half   0x8082          /* c.jr ra */

    .section .tohost, "aw", @progbits
    .align 6
    .globl tohost
tohost:   .dword 0
    .align 6
    .globl fromhost
fromhost: .dword 0

    .data
    .balign 64
data:
    .dword  0x0123456789abcdef, 0, 0, 0
