/* isa_cbo_sv39 - Zicbom and Zicboz under Sv39: cbo.zero, cbo.clean, cbo.flush and cbo.inval
 * from S-mode on leaves that allow or refuse them: read-write, read-only, write-only
 * (reserved), execute-only, invalid, A clear, D clear, a U page (SUM clear and set), an
 * execute-only page with MXR set, a page whose physical page PMP denies (access faults), and
 * an address past the page tables' reach. Four rounds, menvcfg's CBIE set to flush (01), then
 * to invalidate (11), then those two again with sstatus.SUM and MXR set. cbo.zero needs a
 * store's permission (store page fault, cause 15); the management operations are allowed
 * when a load or a store would be (else a store page fault as well). The M-mode handler skips
 * what traps. Always exits 0: the tests diff its commit log and `-l` trace against Spike's
 * with the same ISA string (faults: cause, tval, epc).
 *
 * Its own start-up (no crt0). S-mode asks M with ecall, a7 = what to do.
 */
#include "encoding.h"

    .option norvc
    .option norelax
    .option arch, +zicbom, +zicboz

#define VA0(i)      (0x40000000 + (i) * 0x1000)     /* pt_l0[i] */
#define LEAF_RW     (PTE_V | PTE_R | PTE_W | PTE_A | PTE_D)
#define MENVCFG_CBIE_FLUSH  (1 << 4)
#define MENVCFG_CBIE_INVAL  (3 << 4)
#define MENVCFG_CBCFE       (1 << 6)
#define MENVCFG_CBZE        (1 << 7)

/* pt[idx] = (pa >> 12) << 10 | flags, pa in t4; uses t0-t2. */
.macro PTE table, idx, flags
    la      t0, \table
    li      t1, (\idx) * 8
    add     t0, t0, t1
    srli    t2, t4, 12
    slli    t2, t2, 10
    li      t1, \flags
    or      t2, t2, t1
    sd      t2, 0(t0)
.endm

/* every cbo on VA0(i) + 0x48 (not block-aligned: the block is the aligned one) */
.macro CBO_ON i
    li      a0, VA0(\i) + 0x48
    cbo.zero    (a0)
    cbo.clean   (a0)
    cbo.flush   (a0)
    cbo.inval   (a0)
.endm

.macro ROUND
    .irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
    CBO_ON \i
    .endr
    /* past the tables' reach: no level-1 entry */
    li      a0, 0x40400000
    cbo.zero    (a0)
    cbo.clean   (a0)
    /* what cbo.zero wrote to the read-write page, and what the D-clear PTE is now */
    li      t0, VA0(0)
    ld      a1, 0x40(t0)
    ld      a1, 0x78(t0)
    la      t0, pt_l0
    ld      a1, 6 * 8(t0)
.endm

    .section .text.init, "ax", @progbits
    .globl _start
_start:
    la      t0, trap
    csrw    mtvec, t0
    /* PMP: entry 0 denies the page `denied`, entry 1 allows everything */
    la      t0, denied
    srli    t0, t0, 2
    ori     t0, t0, 0x1ff
    csrw    pmpaddr0, t0
    li      t0, -1
    csrw    pmpaddr1, t0
    li      t0, PMP_NAPOT | ((PMP_NAPOT | PMP_R | PMP_W | PMP_X) << 8)
    csrw    pmpcfg0, t0

    /* markers in the data pages */
    la      t0, data0
    li      t1, 0xd0d0d0d0
    li      t2, 10
1:  sd      t1, 0x40(t0)
    sd      t1, 0x78(t0)
    li      t3, 0x1000
    add     t0, t0, t3
    addi    t1, t1, 1
    addi    t2, t2, -1
    bnez    t2, 1b

    /* page tables: pt_root[1] -> pt_l1, pt_root[2] identity (code, data, tables) */
    la      t4, pt_l1
    PTE     pt_root, 1, PTE_V
    li      t4, 0x80000000
    PTE     pt_root, 2, LEAF_RW | PTE_X
    la      t4, pt_l0
    PTE     pt_l1, 0, PTE_V
    la      t4, data0
    PTE     pt_l0, 0, LEAF_RW
    li      t5, 0x1000
    add     t4, t4, t5
    PTE     pt_l0, 1, PTE_V | PTE_R | PTE_A
    add     t4, t4, t5
    PTE     pt_l0, 2, PTE_V | PTE_W | PTE_A | PTE_D           /* W without R: reserved */
    add     t4, t4, t5
    PTE     pt_l0, 3, PTE_V | PTE_X | PTE_A                   /* execute-only */
    add     t4, t4, t5
    PTE     pt_l0, 4, PTE_R | PTE_W | PTE_A | PTE_D           /* not valid */
    add     t4, t4, t5
    PTE     pt_l0, 5, LEAF_RW & ~PTE_A
    add     t4, t4, t5
    PTE     pt_l0, 6, LEAF_RW & ~PTE_D
    add     t4, t4, t5
    PTE     pt_l0, 7, LEAF_RW | PTE_U                         /* a U page */
    add     t4, t4, t5
    PTE     pt_l0, 8, PTE_V | PTE_R | PTE_A                   /* read-only, D clear */
    la      t4, denied
    PTE     pt_l0, 9, LEAF_RW                                 /* PMP denies it */

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
    li      a0, MENVCFG_CBZE | MENVCFG_CBCFE | MENVCFG_CBIE_FLUSH
    li      a7, 1
    ecall
    ROUND
    li      a0, MENVCFG_CBZE | MENVCFG_CBCFE | MENVCFG_CBIE_INVAL
    li      a7, 1
    ecall
    ROUND
    li      t0, MSTATUS_SUM | MSTATUS_MXR
    csrs    sstatus, t0
    li      a0, MENVCFG_CBZE | MENVCFG_CBCFE | MENVCFG_CBIE_FLUSH
    li      a7, 1
    ecall
    ROUND
    li      a0, MENVCFG_CBZE | MENVCFG_CBCFE | MENVCFG_CBIE_INVAL
    li      a7, 1
    ecall
    ROUND
    li      a7, 2
    ecall

/* M-mode: ecalls from S do what a7 says (1: menvcfg = a0; 2: exit 0); other exceptions are
 * skipped (every instruction is 4 bytes). */
    .balign 4
trap:
    csrr    t6, mcause
    csrr    t5, mtval
    li      t5, 9
    beq     t6, t5, mecall
skip:
    csrr    t6, mepc
    addi    t6, t6, 4
    csrw    mepc, t6
    mret
mecall:
    li      t5, 1
    bne     a7, t5, 2f
    csrw    menvcfg, a0
    csrr    a0, menvcfg
    j       skip
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

    .data
    .balign 4096
pt_root: .skip 4096
pt_l1:   .skip 4096
pt_l0:   .skip 4096
data0:   .skip 4096 * 9
denied:  .skip 4096
