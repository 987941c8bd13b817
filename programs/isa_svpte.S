/* isa_svpte - Svpbmt, Svnapot and Svadu: Sv39 page tables with memory types (PTE.PBMT),
 * 64 KiB NAPOT leaves (PTE.N), and PTEs with A or D clear, accessed from S-mode twice: with
 * menvcfg clear, then with menvcfg written all ones (PBMTE and ADUE stick when their
 * extension is on). Every access that faults is skipped by the M-mode handler (a fetch fault
 * returns to ra), so the same ELF runs with any of the three off: PBMT and N are then
 * reserved bits that fault, and A/D clear faults as without Svadu. The PTEs are read back
 * after each round (the A/D updates are stores to them), and a last access needs an A update
 * of a PTE that PMP makes read-only (an access fault with ADUE, a page fault without). It
 * always exits 0: the tests diff its commit log against Spike's with the same ISA string.
 *
 * Its own start-up (no crt0). S-mode asks M with ecall, a7 = what to do.
 */
#include "encoding.h"

    .option norvc
    .option norelax

#define VA0(i)      (0x40000000 + (i) * 0x1000)     /* pt_l0[i] */
#define VA1(k)      (0x40000000 + (k) * 0x200000)   /* pt_l1[k] */
#define LEAF_RW     (PTE_V | PTE_R | PTE_W | PTE_A | PTE_D)
/* PTE bits 63:60, as the PTE macro's hi */
#define HI_N        8                               /* Svnapot's N */
#define HI_NC       2                               /* PBMT = 1: NC */
#define HI_IO       4                               /* PBMT = 2: IO */
#define HI_RSVD     6                               /* PBMT = 3: reserved */
#define HI_B60      1                               /* a reserved bit */

/* pt[idx] = ((pa >> 12) | ppnlow) << 10 | flags | hi << 60 (hi: PTE bits 63:60). pa is in
 * t4; uses t0-t3. */
.macro PTE table, idx, flags, hi=0, ppnlow=0
    la      t0, \table
    li      t3, (\idx) * 8
    add     t0, t0, t3
    srli    t2, t4, 12
    ori     t2, t2, \ppnlow
    slli    t2, t2, 10
    li      t1, \flags
    or      t2, t2, t1
    .if \hi
    li      t1, \hi
    slli    t1, t1, 60
    or      t2, t2, t1
    .endif
    sd      t2, 0(t0)
.endm

.macro ACCESSES
    /* loads from every leaf */
    .irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
    li      t0, VA0(\i)
    ld      a0, 0(t0)
    .endr
    /* stores where a load may succeed */
    .irp i, 0, 1, 2, 5, 6, 7, 9, 12
    li      t0, VA0(\i)
    sd      t0, 16(t0)
    .endr
    /* level-1 entries: N on a 2 MiB leaf, N, PBMT and A on pointers */
    .irp k, 1, 2, 3, 4
    li      t0, VA1(\k)
    ld      a0, 0(t0)
    .endr
    /* a fetch from a page with A clear */
    li      t0, VA0(13)
    jalr    ra, 0(t0)
.endm

/* read back the leaf PTEs whose A/D may change */
.macro READ_PTES
    la      t0, pt_l0
    .irp i, 5, 6, 7, 8, 13
    ld      a0, \i*8(t0)
    .endr
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

    /* markers: data0 and the 16 pages of napot64 */
    la      t0, data0
    li      t1, 0xd0d0d0d0
    sd      t1, 0(t0)
    la      t0, napot64
    li      t1, 0x6400
    li      t2, 16
1:  sd      t1, 0(t0)
    li      t3, 0x1000
    add     t0, t0, t3
    addi    t1, t1, 1
    addi    t2, t2, -1
    bnez    t2, 1b

    /* page tables */
    la      t4, pt_l1
    PTE     pt_root, 1, PTE_V
    li      t4, 0x80000000
    PTE     pt_root, 2, LEAF_RW | PTE_X                 /* identity: code, data, tables */
    la      t4, pt_l0
    PTE     pt_l1, 0, PTE_V
    li      t4, 0x80400000
    PTE     pt_l1, 1, LEAF_RW, HI_N                         /* 2 MiB leaf with N */
    la      t4, pt_l0
    PTE     pt_l1, 2, PTE_V, HI_N                           /* pointer with N */
    PTE     pt_l1, 3, PTE_V, HI_NC                        /* pointer with PBMT */
    PTE     pt_l1, 4, PTE_V | PTE_A                      /* pointer with A */
    la      t4, data0
    PTE     pt_l0, 0, LEAF_RW
    PTE     pt_l0, 1, LEAF_RW, HI_NC
    PTE     pt_l0, 2, LEAF_RW, HI_IO
    PTE     pt_l0, 3, LEAF_RW, HI_RSVD
    PTE     pt_l0, 4, LEAF_RW, HI_B60                    /* bit 60: reserved */
    PTE     pt_l0, 5, LEAF_RW & ~PTE_A
    PTE     pt_l0, 6, LEAF_RW & ~PTE_D
    PTE     pt_l0, 7, LEAF_RW & ~(PTE_A | PTE_D)
    PTE     pt_l0, 8, PTE_V | PTE_R
    la      t4, napot64
    PTE     pt_l0, 9, LEAF_RW, HI_N, 8                   /* 64 KiB NAPOT */
    PTE     pt_l0, 10, LEAF_RW, HI_N, 0                  /* N, ppn ...0000: reserved */
    PTE     pt_l0, 11, LEAF_RW, HI_N, 4                  /* N, ppn ...0100: reserved */
    PTE     pt_l0, 12, LEAF_RW, HI_N | HI_NC, 8           /* NAPOT and PBMT */
    la      t4, xpage
    PTE     pt_l0, 13, PTE_V | PTE_R | PTE_X             /* code with A clear */

    /* to S-mode with Sv39 */
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
    sfence.vma
    ACCESSES
    READ_PTES
    li      a0, -1                     /* menvcfg = all ones */
    li      a7, 1
    ecall
    sfence.vma
    ACCESSES
    READ_PTES
    /* A clear again on pt_l0[8], which PMP then makes read-only */
    la      t0, pt_l0
    ld      a0, 8 * 8(t0)
    andi    a0, a0, ~PTE_A
    sd      a0, 8 * 8(t0)
    sfence.vma
    li      a7, 2
    ecall
    li      t0, VA0(8)
    ld      a0, 0(t0)
    la      t0, pt_l0
    ld      a0, 8 * 8(t0)
    li      a7, 3
    ecall

/* M-mode: ecalls from S do what a7 says; a fetch fault returns to ra; other exceptions are
 * skipped (every instruction is 4 bytes). */
    .balign 4
trap:
    csrr    t6, mcause
    csrr    t5, mtval
    li      t5, 9
    beq     t6, t5, mecall
    li      t5, 12
    beq     t6, t5, fetch
    li      t5, 1
    beq     t6, t5, fetch
skip:
    csrr    t6, mepc
    addi    t6, t6, 4
    csrw    mepc, t6
    mret
fetch:
    csrw    mepc, ra
    mret
mecall:
    li      t5, 1
    bne     a7, t5, 1f
    csrw    menvcfg, a0
    csrr    a0, menvcfg
    j       skip
1:  li      t5, 2
    bne     a7, t5, 2f
    /* entry 0: pt_l0 read-only; entry 1: everything */
    la      t6, pt_l0
    srli    t6, t6, 2
    ori     t6, t6, 0x1ff
    csrw    pmpaddr0, t6
    li      t6, -1
    csrw    pmpaddr1, t6
    li      t6, (PMP_NAPOT | PMP_R) | ((PMP_NAPOT | PMP_R | PMP_W | PMP_X) << 8)
    csrw    pmpcfg0, t6
    j       skip
2:  li      t0, 1
    la      t1, tohost
3:  sd      t0, 0(t1)
    j       3b

/* the page fetched through pt_l0[13] */
    .balign 4096
xpage:
    ret
    .balign 4096

    .section .tohost, "aw", @progbits
    .align 6
    .globl tohost
tohost:   .dword 0
    .align 6
    .globl fromhost
fromhost: .dword 0

    .bss
    .balign 65536
napot64: .skip 65536
pt_root: .skip 4096
pt_l1:   .skip 4096
pt_l0:   .skip 4096
data0:   .skip 4096
