/* isa_svinval - Svinval: sinval.vma, sfence.w.inval and sfence.inval.ir in M-mode, in S-mode
 * (with and without mstatus.TVM) and in U-mode, and an invalidation that takes effect: an
 * Sv39 page remapped, then sfence.w.inval, sinval.vma of its address, sfence.inval.ir, and a
 * load that must see the new page. Under a handler that skips what traps (so the same ELF runs
 * with Svinval off: the three then raise illegal instruction everywhere). It always exits 0:
 * the tests diff its commit log against Spike's with the same ISA string.
 *
 * Its own start-up (no crt0). S and U ask M with ecall, a7 = what to do.
 */
#include "encoding.h"

    .option norvc
    .option norelax

/* binutils knows Svinval; spelled with .insn so that any assembler takes them */
.macro SINVAL_VMA rs1, rs2
    .insn r 0x73, 0, 0x0b, zero, \rs1, \rs2
.endm
.macro SFENCE_W_INVAL
    .word 0x18000073
.endm
.macro SFENCE_INVAL_IR
    .word 0x18100073
.endm

.macro ALL3
    SINVAL_VMA zero, zero
    SINVAL_VMA a0, a1
    SFENCE_W_INVAL
    SFENCE_INVAL_IR
.endm

#define VA_TEST     0x40000000          /* pt_l0[0]: page_a, then page_b */
#define VA_UALIAS   0x100000000         /* root[4]: user alias of 0x80000000 */
#define LEAF_RWX    (PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D)

/* table[idx] = pa (in t4) as a PTE with flags; uses t0-t3 */
.macro PTE table, idx, flags
    la      t0, \table
    li      t3, (\idx) * 8
    add     t0, t0, t3
    srli    t2, t4, 12
    slli    t2, t2, 10
    li      t1, \flags
    or      t2, t2, t1
    sd      t2, 0(t0)
.endm

    .section .text.init, "ax", @progbits
    .globl _start
_start:
    la      t0, trap
    csrw    mtvec, t0
    li      t0, -1
    csrw    pmpaddr0, t0
    li      t0, PMP_NAPOT | PMP_R | PMP_W | PMP_X
    csrw    pmpcfg0, t0
    li      a0, VA_TEST
    li      a1, 0

    ALL3

    /* markers and page tables */
    la      t0, page_a
    li      t1, 0xaaaa
    sd      t1, 0(t0)
    la      t0, page_b
    li      t1, 0xbbbb
    sd      t1, 0(t0)
    la      t4, pt_l1
    PTE     pt_root, 1, PTE_V
    li      t4, 0x80000000
    PTE     pt_root, 2, LEAF_RWX
    PTE     pt_root, 4, LEAF_RWX | PTE_U
    la      t4, pt_l0
    PTE     pt_l1, 0, PTE_V
    la      t4, page_b
    PTE     pt_l0, 1, PTE_V | PTE_R | PTE_W | PTE_A | PTE_D    /* kept: the new PTE */
    la      t4, page_a
    PTE     pt_l0, 0, PTE_V | PTE_R | PTE_W | PTE_A | PTE_D

    la      t0, pt_root
    srli    t0, t0, 12
    li      t1, SATP_MODE_SV39
    slli    t1, t1, 60
    or      t0, t0, t1
    csrw    satp, t0
    li      t0, MSTATUS_MPP
    csrc    mstatus, t0
    li      t0, MSTATUS_MPP_S
    csrs    mstatus, t0
    la      t0, smode
    csrw    mepc, t0
    mret

smode:
    ALL3
    li      t0, VA_TEST
    ld      a2, 0(t0)                  /* page_a */
    /* remap VA_TEST to page_b, then invalidate it the Svinval way */
    la      t1, pt_l0
    ld      t2, 8(t1)
    sd      t2, 0(t1)
    SFENCE_W_INVAL
    SINVAL_VMA t0, zero
    SFENCE_INVAL_IR
    ld      a2, 0(t0)                  /* page_b (without Svinval too: the traps flush) */
    sfence.vma
    ld      a2, 0(t0)                  /* page_b */
    li      a7, 1                      /* TVM = 1 */
    ecall
    ALL3                               /* sinval.vma traps, the fences do not */
    sfence.vma
    li      a7, 2                      /* TVM = 0, and on to U-mode */
    ecall

/* U-mode code, run from the user alias: a page of its own (the N-Trace round trip aliases
 * whole pages of the ELF) */
    .section .text, "ax", @progbits
    .balign 4096
umode:
    ALL3
    li      a7, 3
    ecall
    .balign 4096

    .section .text.init, "ax", @progbits

/* M-mode: ecalls do what a7 says; other exceptions are skipped (4-byte instructions). */
    .balign 4
trap:
    csrr    t6, mcause
    csrr    t5, mtval
    li      t5, 8
    beq     t6, t5, mecall
    li      t5, 9
    beq     t6, t5, mecall
skip:
    csrr    t6, mepc
    addi    t6, t6, 4
    csrw    mepc, t6
    mret
mecall:
    li      t5, 1
    bne     a7, t5, 1f
    li      t6, MSTATUS_TVM
    csrs    mstatus, t6
    j       skip
1:  li      t5, 2
    bne     a7, t5, 2f
    li      t6, MSTATUS_TVM
    csrc    mstatus, t6
    li      t6, MSTATUS_MPP
    csrc    mstatus, t6
    la      t6, umode
    li      t5, 0x80000000
    sub     t6, t6, t5
    li      t5, VA_UALIAS
    add     t6, t6, t5
    csrw    mepc, t6
    mret
2:  li      t0, 1
    la      t1, tohost
3:  sd      t0, 0(t1)
    j       3b

    .section .tohost, "aw", @progbits
    .align 6
    .globl tohost
tohost:   .dword 0
    .align 6
    .globl fromhost
fromhost: .dword 0

    .bss
    .balign 4096
pt_root: .skip 4096
pt_l1:   .skip 4096
pt_l0:   .skip 4096
page_a:  .skip 4096
page_b:  .skip 4096
