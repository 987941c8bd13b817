/* sv39 - Sv39 virtual memory with page tables built by the program
 * (sv48.S includes this file with LEVELS = 4 for Sv48):
 * 4 KiB pages, 2 MiB and 1 GiB superpages (and 512 GiB in Sv48) including the
 * canonical upper half; load/store/fetch page faults with mtval/stval = the
 * virtual address: invalid PTE, W without R, missing R/W/X, pointer PTE at the
 * last level, misaligned superpages, non-canonical addresses, A = 0 and D = 0
 * (this platform, like Spike, does not update A/D: it faults); MXR; U bit for
 * S (SUM = 0/1, never executable by S) and for U; MPRV with MPP = S/U/M
 * (and MPRV + MXR), the mret of a trap leaving MPRV = 1 with MPP = U;
 * instruction fetch through a mapped page and a 32-bit instruction spanning
 * into an unmapped page (mepc = start, mtval = the second page); sfence.vma
 * after remapping (global and by address); satp Bare in S; page faults
 * delegated to S through medeleg, from S and from U (running from a user
 * alias of the program, since S cannot execute user pages). */
#include "test_macros.h"

#ifndef LEVELS
#define LEVELS 3
#endif

#if LEVELS == 3
#define SATP_MODE  SATP_MODE_SV39
#define GIGA_TABLE pt_root          /* table whose entries map 1 GiB each */
#define NONCANON1  0x0000004000000000
#define NONCANON2  0x8000000000000000
#else
#define SATP_MODE  SATP_MODE_SV48
#define GIGA_TABLE pt_l2
#define NONCANON1  0x0000800000000000
#define NONCANON2  0x8000000000000000
#endif

#define LEAF_RWX   (PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D)
#define LEAF_RW    (PTE_V | PTE_R | PTE_W | PTE_A | PTE_D)

/* virtual layout */
#define VA_4K      0x40000000       /* 4 KiB pages: GIGA_TABLE[1] -> pt_l1 -> pt_l0 */
#define VA_2M      0x40200000       /* pt_l1[1]: 2 MiB leaf -> PA_2M */
#define VA_2M_BAD  0x40400000       /* pt_l1[2]: misaligned 2 MiB leaf */
#define VA_1G      0xc0000000       /* GIGA_TABLE[3]: 1 GiB leaf -> 0x80000000 */
#define VA_1G_BAD  0x100000000      /* GIGA_TABLE[4]: misaligned 1 GiB leaf */
#define VA_UALIAS  0x140000000      /* GIGA_TABLE[5]: user RWX alias of 0x80000000 */
#define PA_2M      0x80400000
#define PAGE(i)    (VA_4K + (i) * 4096)

/* SET_PTE table, index, reg (physical address), flags  (uses t0-t3) */
.macro SET_PTE table, idx, pareg, flags
  la t0, \table
  li t3, (\idx) * 8
  add t0, t0, t3
  srli t2, \pareg, 12
  slli t2, t2, 10
  li t1, \flags
  or t2, t2, t1
  sd t2, 0(t0)
.endm

/* SET_PTE_ADDR table, idx, symbol, flags */
.macro SET_PTE_SYM table, idx, sym, flags
  la t4, \sym
  SET_PTE \table, \idx, t4, \flags
.endm

/* expect a trap to M with cause; mtval == reg */
.macro VFAULT n, cause, reg, insn:vararg
  ARM_M .Lr\@
.Li\@:
  \insn
  FAIL \n
.Lr\@:
  CHECK_CAUSE_M \n, \cause
  CHECK_TVAL_M \n, \reg
.endm

/* set or clear the U bit of the identity gigapage (M-mode) */
.macro IDENTITY_U on
  la t0, GIGA_TABLE + 2 * 8
  ld t1, 0(t0)
  .if \on
  ori t1, t1, PTE_U
  .else
  andi t1, t1, ~PTE_U
  .endif
  sd t1, 0(t0)
  sfence.vma
.endm

    .option norvc
    .text
    .globl main
main:
    /* ---------------- build the page tables (M-mode, physical) ---------------- */
#if LEVELS == 4
    SET_PTE_SYM pt_root, 0, pt_l2, PTE_V
    li      t4, 0
    SET_PTE pt_root, 1, t4, LEAF_RWX                 /* 512 GiB at VA 2^39 -> PA 0 */
    li      t4, 0x80000000
    SET_PTE pt_root, 2, t4, LEAF_RWX                 /* misaligned 512 GiB */
    li      t4, 0
    SET_PTE pt_root, 256, t4, LEAF_RWX               /* VA 0xffff800000000000 -> PA 0 */
#else
    li      t4, 0x80000000
    SET_PTE pt_root, 256, t4, LEAF_RWX               /* VA 0xffffffc000000000 -> 0x80000000 */
#endif
    li      t4, 0x80000000
    SET_PTE GIGA_TABLE, 2, t4, LEAF_RWX              /* identity: code, data, stacks */
    SET_PTE GIGA_TABLE, 3, t4, LEAF_RW               /* alias at VA 0xc0000000 */
    li      t4, 0x80200000
    SET_PTE GIGA_TABLE, 4, t4, LEAF_RW               /* misaligned 1 GiB */
    li      t4, 0x80000000
    SET_PTE GIGA_TABLE, 5, t4, LEAF_RWX | PTE_U      /* user alias */
    SET_PTE_SYM GIGA_TABLE, 1, pt_l1, PTE_V
    SET_PTE_SYM pt_l1, 0, pt_l0, PTE_V
    li      t4, PA_2M
    SET_PTE pt_l1, 1, t4, LEAF_RW                    /* 2 MiB */
    li      t4, PA_2M + 0x1000
    SET_PTE pt_l1, 2, t4, LEAF_RW                    /* misaligned 2 MiB */
    /* 4 KiB pages */
    SET_PTE_SYM pt_l0, 0, page0, LEAF_RW                               /* RW */
    SET_PTE_SYM pt_l0, 1, page1, PTE_V | PTE_R | PTE_A                 /* R only */
    SET_PTE_SYM pt_l0, 2, page2, PTE_V | PTE_X | PTE_A                 /* X only */
    SET_PTE_SYM pt_l0, 3, page3, LEAF_RW & ~PTE_V                      /* invalid */
    SET_PTE_SYM pt_l0, 4, page4, PTE_V | PTE_W | PTE_A | PTE_D         /* W without R: reserved */
    SET_PTE_SYM pt_l0, 5, page5, LEAF_RW | PTE_U                       /* user RW */
    SET_PTE_SYM pt_l0, 6, page6, LEAF_RW & ~PTE_A                      /* A = 0 */
    SET_PTE_SYM pt_l0, 7, page7, LEAF_RW & ~PTE_D                      /* D = 0 */
    SET_PTE_SYM pt_l0, 8, page8, PTE_V | PTE_R | PTE_X | PTE_A         /* code, S */
    SET_PTE_SYM pt_l0, 9, page9, PTE_V | PTE_R | PTE_X | PTE_A | PTE_U /* code, U */
    SET_PTE_SYM pt_l0, 10, page10, LEAF_RW                             /* code page without X */
    SET_PTE_SYM pt_l0, 11, page0, LEAF_RW                              /* remapped later */
    SET_PTE_SYM pt_l0, 12, page12, PTE_V | PTE_R | PTE_X | PTE_A       /* code; page 13 unmapped */
    SET_PTE_SYM pt_l0, 14, page1, PTE_V                                /* pointer at the last level */
    SET_PTE_SYM pt_l0, 15, page5, PTE_V | PTE_R | PTE_X | PTE_A | PTE_U /* U, R+X, no W */

    /* markers in every data page */
    la      a1, page0
    li      a2, 0x1000
    li      a3, 0xa0a0a0a000000000
    li      a4, 16
1:  sd      a3, 0(a1)
    sd      a3, 8(a1)
    add     a1, a1, a2
    addi    a3, a3, 1
    addi    a4, a4, -1
    bnez    a4, 1b
    li      a1, PA_2M + 0x123458
    li      a2, 0x2222222222222222
    sd      a2, 0(a1)
    la      a1, marker
    li      a2, 0x3333333333333333
    sd      a2, 0(a1)
    /* code: "addi a0, zero, 7; ret" in page8, page9, page10; a 32-bit
       instruction at the end of page12 that spans into page 13 */
    la      a1, code_tmpl
    lwu     a2, 0(a1)
    lwu     a3, 4(a1)
    la      a4, page8
    sw      a2, 0(a4)
    sw      a3, 4(a4)
    la      a4, page9
    sw      a2, 0(a4)
    sw      a3, 4(a4)
    la      a4, page10
    sw      a2, 0(a4)
    sw      a3, 4(a4)
    la      a4, page12
    li      t0, 0xffc
    add     a4, a4, t0
    li      t0, 0x00010001                 /* c.nop at 0xffc (0xffe is overwritten below) */
    sw      t0, 0(a4)
    li      t0, 0x0013                     /* low half of "addi zero, zero, 0" at 0xffe */
    sh      t0, 2(a4)
    fence.i

    /* satp */
    la      t0, pt_root
    srli    t0, t0, 12
    li      t1, SATP_MODE << 60
    or      t0, t0, t1
    csrw    satp, t0
    csrr    a0, satp
    CHECK_EQR 1, a0, t0
    sfence.vma
    /* M-mode is not translated */
    la      a1, marker
    ld      a0, 0(a1)
    CHECK_EQ 2, a0, 0x3333333333333333

    /* ================= S-mode ================= */
    ENTER_S
    /* identity mapping: data accessible */
    la      a1, marker
    ld      a0, 0(a1)
    CHECK_EQ 3, a0, 0x3333333333333333
    /* 4 KiB RW page */
    li      a1, PAGE(0)
    ld      a0, 0(a1)
    CHECK_EQ 4, a0, 0xa0a0a0a000000000
    li      a2, 0x5a5a
    sd      a2, 16(a1)
    ld      a0, 16(a1)
    CHECK_EQ 5, a0, 0x5a5a
    la      a3, page0
    ld      a0, 16(a3)                   /* same memory through the identity map */
    CHECK_EQ 6, a0, 0x5a5a
    /* R-only page: load ok, store faults */
    li      a1, PAGE(1) + 8
    ld      a0, 0(a1)
    CHECK_EQ 7, a0, 0xa0a0a0a000000001
    VFAULT  8, CAUSE_STORE_PAGE_FAULT, a1, sd a0, 0(a1)
    VFAULT  9, CAUSE_STORE_PAGE_FAULT, a1, amoadd.d a0, a0, (a1)
    /* X-only page: loads fault unless MXR */
    li      a1, PAGE(2)
    VFAULT  10, CAUSE_LOAD_PAGE_FAULT, a1, ld a0, 0(a1)
    li      t0, MSTATUS_MXR
    csrs    sstatus, t0
    ld      a0, 0(a1)
    CHECK_EQ 11, a0, 0xa0a0a0a000000002
    VFAULT  12, CAUSE_STORE_PAGE_FAULT, a1, sd a0, 0(a1)   /* MXR does not give W */
    csrc    sstatus, t0
    /* invalid PTE */
    li      a1, PAGE(3) + 0x10
    VFAULT  13, CAUSE_LOAD_PAGE_FAULT, a1, lw a0, 0(a1)
    VFAULT  14, CAUSE_STORE_PAGE_FAULT, a1, sw a0, 0(a1)
    VFAULT  15, CAUSE_FETCH_PAGE_FAULT, a1, jalr ra, 0(a1)
    ld      t5, trap_epc_m
    CHECK_EQR 16, t5, a1
    /* W without R (reserved encoding) */
    li      a1, PAGE(4)
    VFAULT  17, CAUSE_LOAD_PAGE_FAULT, a1, ld a0, 0(a1)
    VFAULT  18, CAUSE_STORE_PAGE_FAULT, a1, sd a0, 0(a1)
    /* U page from S: SUM = 0 faults, SUM = 1 allows loads/stores */
    li      a1, PAGE(5) + 0x20
    VFAULT  19, CAUSE_LOAD_PAGE_FAULT, a1, ld a0, 0(a1)
    VFAULT  20, CAUSE_STORE_PAGE_FAULT, a1, sd a0, 0(a1)
    li      t0, MSTATUS_SUM
    csrs    sstatus, t0
    li      a2, 0x5555
    sd      a2, 0(a1)
    ld      a0, 0(a1)
    CHECK_EQ 21, a0, 0x5555
    /* ... but S never executes from a U page, even with SUM */
    li      a1, PAGE(9)
    VFAULT  22, CAUSE_FETCH_PAGE_FAULT, a1, jalr ra, 0(a1)
    li      t0, MSTATUS_SUM
    csrc    sstatus, t0
    /* A = 0 and D = 0 */
    li      a1, PAGE(6)
    VFAULT  23, CAUSE_LOAD_PAGE_FAULT, a1, ld a0, 0(a1)
    VFAULT  24, CAUSE_STORE_PAGE_FAULT, a1, sd a0, 0(a1)
    li      a1, PAGE(7) + 8
    ld      a0, 0(a1)                    /* load with D = 0 is fine */
    CHECK_EQ 25, a0, 0xa0a0a0a000000007
    VFAULT  26, CAUSE_STORE_PAGE_FAULT, a1, sd a0, 0(a1)
    VFAULT  27, CAUSE_STORE_PAGE_FAULT, a1, amoswap.d a0, a0, (a1)
    /* pointer PTE at the last level */
    li      a1, PAGE(14)
    VFAULT  28, CAUSE_LOAD_PAGE_FAULT, a1, ld a0, 0(a1)
    /* instruction fetch through a 4 KiB page */
    li      a1, PAGE(8)
    li      a0, 0
    jalr    ra, 0(a1)
    CHECK_EQ 29, a0, 7
    li      a1, PAGE(10)                 /* no X */
    VFAULT  30, CAUSE_FETCH_PAGE_FAULT, a1, jalr ra, 0(a1)
    /* R+X page: loads work too */
    li      a1, PAGE(8)
    lwu     a0, 0(a1)
    la      a2, code_tmpl
    lwu     a2, 0(a2)
    CHECK_EQR 31, a0, a2
    VFAULT  32, CAUSE_STORE_PAGE_FAULT, a1, sw a0, 0(a1)
    /* a 32-bit instruction spanning into an unmapped page */
    li      a1, PAGE(12) + 0xffc
    li      a2, PAGE(13)
    ARM_M   1f
    jalr    ra, 0(a1)                    /* c.nop at 0xffc, then the spanning instruction at 0xffe */
    FAIL    33
1:  CHECK_CAUSE_M 33, CAUSE_FETCH_PAGE_FAULT
    CHECK_TVAL_M 34, a2
    ld      t5, trap_epc_m
    addi    a1, a1, 2
    CHECK_EQR 35, t5, a1
    /* 2 MiB superpage */
    li      a1, VA_2M + 0x123458
    ld      a0, 0(a1)
    CHECK_EQ 36, a0, 0x2222222222222222
    li      a2, 0x77
    sd      a2, -8(a1)                   /* verified from M below */
    li      a1, VA_2M_BAD + 0x10
    VFAULT  37, CAUSE_LOAD_PAGE_FAULT, a1, ld a0, 0(a1)
    VFAULT  38, CAUSE_STORE_PAGE_FAULT, a1, sd a0, 0(a1)
    /* 1 GiB superpage alias */
    la      a1, marker
    li      t0, 0x80000000
    sub     a1, a1, t0
    li      t0, VA_1G
    add     a1, a1, t0
    ld      a0, 0(a1)
    CHECK_EQ 39, a0, 0x3333333333333333
    li      a1, VA_1G_BAD + 0x100
    VFAULT  40, CAUSE_LOAD_PAGE_FAULT, a1, ld a0, 0(a1)
    /* the alias has no X */
    la      a1, 1f
    li      t0, 0x80000000
    sub     a1, a1, t0
    li      t0, VA_1G
    add     a1, a1, t0
    VFAULT  41, CAUSE_FETCH_PAGE_FAULT, a1, jalr ra, 0(a1)
1:  /* canonical upper half */
    la      a1, marker
#if LEVELS == 3
    li      t0, 0xffffffc000000000 - 0x80000000
#else
    li      t0, 0xffff800000000000
#endif
    add     a1, a1, t0
    ld      a0, 0(a1)
    CHECK_EQ 42, a0, 0x3333333333333333
    /* non-canonical addresses */
    li      a1, NONCANON1
    VFAULT  43, CAUSE_LOAD_PAGE_FAULT, a1, ld a0, 0(a1)
    VFAULT  44, CAUSE_STORE_PAGE_FAULT, a1, sd a0, 0(a1)
    VFAULT  45, CAUSE_FETCH_PAGE_FAULT, a1, jalr ra, 0(a1)
    la      a1, marker
    li      t0, NONCANON2
    or      a1, a1, t0
    VFAULT  46, CAUSE_LOAD_PAGE_FAULT, a1, ld a0, 0(a1)
#if LEVELS == 4
    /* 512 GiB superpage: VA 2^39 + PA */
    la      a1, marker
    li      t0, 0x8000000000
    add     a1, a1, t0
    ld      a0, 0(a1)
    CHECK_EQ 47, a0, 0x3333333333333333
    li      a1, 0x10000000000 + 0x80000000
    VFAULT  48, CAUSE_LOAD_PAGE_FAULT, a1, ld a0, 0(a1)
    /* an address that is canonical in Sv48 but not in Sv39 */
    li      a1, 0x8000000000 + 0x80000000
    ld      a0, 0(a1)
#endif

    /* ---------------- sfence.vma after remapping ---------------- */
    li      a1, PAGE(11)
    ld      a0, 0(a1)
    CHECK_EQ 49, a0, 0xa0a0a0a000000000      /* page 11 -> page0 */
    ENTER_M
    SET_PTE_SYM pt_l0, 11, page1, LEAF_RW
    ENTER_S
    sfence.vma
    li      a1, PAGE(11)
    ld      a0, 8(a1)
    CHECK_EQ 50, a0, 0xa0a0a0a000000001      /* now -> page1 */
    ENTER_M
    SET_PTE_SYM pt_l0, 11, page2, LEAF_RW
    ENTER_S
    li      a1, PAGE(11)
    sfence.vma a1                            /* by address */
    ld      a0, 8(a1)
    CHECK_EQ 51, a0, 0xa0a0a0a000000002
    ENTER_M
    SET_PTE_SYM pt_l0, 11, page2, LEAF_RW & ~PTE_V
    ENTER_S
    li      a1, PAGE(11)
    sfence.vma a1, zero
    VFAULT  52, CAUSE_LOAD_PAGE_FAULT, a1, ld a0, 0(a1)

    /* ---------------- satp = Bare in S ---------------- */
    csrr    s1, satp
    csrw    satp, zero
    sfence.vma
    la      a1, marker
    ld      a0, 0(a1)                    /* identity: same address works */
    CHECK_EQ 53, a0, 0x3333333333333333
    li      a1, VA_4K                    /* now a physical address: nothing there */
    VFAULT  54, CAUSE_LOAD_ACCESS, a1, ld a0, 0(a1)
    csrw    satp, s1
    sfence.vma
    li      a1, PAGE(0)
    ld      a0, 0(a1)
    CHECK_EQ 55, a0, 0xa0a0a0a000000000
    ENTER_M

    /* ================= U-mode ================= */
    IDENTITY_U 1
    ENTER_U
    la      a1, marker
    ld      a0, 0(a1)
    CHECK_EQ 56, a0, 0x3333333333333333
    li      a1, PAGE(5) + 0x20
    ld      a0, 0(a1)
    CHECK_EQ 57, a0, 0x5555
    sd      a0, 8(a1)
    li      a1, PAGE(0)                  /* not U */
    VFAULT  58, CAUSE_LOAD_PAGE_FAULT, a1, ld a0, 0(a1)
    VFAULT  59, CAUSE_STORE_PAGE_FAULT, a1, sd a0, 0(a1)
    CHECK_PRV_M 60, PRV_U
    li      a1, PAGE(9)                  /* U code page */
    li      a0, 0
    jalr    ra, 0(a1)
    CHECK_EQ 61, a0, 7
    li      a1, PAGE(8)                  /* S code page */
    VFAULT  62, CAUSE_FETCH_PAGE_FAULT, a1, jalr ra, 0(a1)
    li      a1, VA_2M + 0x100            /* S superpage */
    VFAULT  63, CAUSE_LOAD_PAGE_FAULT, a1, ld a0, 0(a1)
    /* MXR applies to U too: page 15 is U with R+X: loads fine; page 2 (X, not U) still faults */
    li      a1, PAGE(15)
    ld      a0, 0(a1)
    VFAULT  64, CAUSE_STORE_PAGE_FAULT, a1, sd a0, 0(a1)
    ENTER_M

    /* ================= MPRV ================= */
    /* The identity map is made U and SUM is set, so that the test's own data
       stays reachable whichever of S/U the loads and stores are checked as
       (a trap's mret leaves MPRV = 1 and sets MPP = U). */
    IDENTITY_U 1
    li      t0, MSTATUS_SUM
    csrs    mstatus, t0
    /* MPRV = 1, MPP = S: M-mode loads/stores are translated as S */
    li      t0, MSTATUS_MPP
    csrc    mstatus, t0
    li      t0, MSTATUS_MPP_S | MSTATUS_MPRV
    csrs    mstatus, t0
    li      a1, PAGE(0)
    ld      a0, 0(a1)
    CHECK_EQ 65, a0, 0xa0a0a0a000000000
    li      a1, PAGE(1)
    VFAULT  66, CAUSE_STORE_PAGE_FAULT, a1, sd a0, 0(a1)
    CHECK_PRV_M 67, PRV_M
    /* mret set MPP = U (MPRV stays 1): now accesses are checked as U */
    li      a1, PAGE(0)
    VFAULT  68, CAUSE_LOAD_PAGE_FAULT, a1, ld a0, 0(a1)
    /* MPRV + MXR, as S */
    li      t0, MSTATUS_MPP
    csrc    mstatus, t0
    li      t0, MSTATUS_MPP_S | MSTATUS_MXR
    csrs    mstatus, t0
    li      a1, PAGE(2)
    ld      a0, 0(a1)
    CHECK_EQ 69, a0, 0xa0a0a0a000000002
    li      t0, MSTATUS_MXR
    csrc    mstatus, t0
    /* MPRV = 1, MPP = U */
    li      t0, MSTATUS_MPP
    csrc    mstatus, t0
    li      a1, PAGE(5) + 0x20
    ld      a0, 0(a1)
    CHECK_EQ 70, a0, 0x5555
    li      a1, PAGE(0)
    VFAULT  71, CAUSE_LOAD_PAGE_FAULT, a1, ld a0, 0(a1)
    /* MPP = M: no translation (VA_4K is not a physical address) */
    li      t0, MSTATUS_MPP
    csrs    mstatus, t0
    li      a1, VA_4K
    VFAULT  83, CAUSE_LOAD_ACCESS, a1, ld a0, 0(a1)
    li      t0, MSTATUS_MPRV | MSTATUS_SUM
    csrc    mstatus, t0
    IDENTITY_U 0
    /* check the 2 MiB store made from S earlier */
    li      a3, PA_2M + 0x123450
    ld      a0, 0(a3)
    CHECK_EQ 72, a0, 0x77

    /* ================= page faults delegated to S ================= */
    li      t0, (1 << CAUSE_FETCH_PAGE_FAULT) | (1 << CAUSE_LOAD_PAGE_FAULT) | (1 << CAUSE_STORE_PAGE_FAULT)
    csrw    medeleg, t0
    ENTER_S
    li      a1, PAGE(3)
    ARM_S   1f
    ld      a0, 0(a1)
    FAIL    73
1:  CHECK_CAUSE_S 73, CAUSE_LOAD_PAGE_FAULT
    CHECK_TVAL_S 74, a1
    li      a1, PAGE(1) + 0x18
    ARM_S   1f
    sd      a0, 0(a1)
    FAIL    75
1:  CHECK_CAUSE_S 75, CAUSE_STORE_PAGE_FAULT
    CHECK_TVAL_S 76, a1
    li      a1, PAGE(10)
    ARM_S   1f
    jalr    ra, 0(a1)
    FAIL    77
1:  CHECK_CAUSE_S 77, CAUSE_FETCH_PAGE_FAULT
    CHECK_TVAL_S 78, a1
    ld      t5, trap_epc_s
    CHECK_EQR 79, t5, a1
    /* from U to S: U runs from a user alias of the program (VA_UALIAS), since
       the S handler needs the identity map to stay supervisor-only */
    ENTER_M
    li      t0, MSTATUS_MPP
    csrc    mstatus, t0                  /* MPP = U */
    la      t0, 2f
    li      t1, VA_UALIAS - 0x80000000
    add     t0, t0, t1
    csrw    mepc, t0
    mret
2:  /* now at the alias: pc-relative addresses are alias addresses */
    li      a1, PAGE(0)
    ARM_S   1f
    lw      a0, 0(a1)
    FAIL    80
1:  CHECK_CAUSE_S 80, CAUSE_LOAD_PAGE_FAULT
    CHECK_TVAL_S 81, a1
    CHECK_PRV_S 82, PRV_U
    /* back to M at the identity address */
    la      a6, 3f
    li      t1, VA_UALIAS - 0x80000000
    sub     a6, a6, t1
    li      a7, ECALL_MAGIC_GOTO
    ecall
3:  csrw    medeleg, zero
    csrw    satp, zero
    sfence.vma
    TEST_PASS

    .balign 4
code_tmpl:
    addi    a0, zero, 7
    jalr    zero, 0(ra)

    .data
    .balign 8
marker:
    .dword  0

    .bss
    .balign 4096
pt_root: .space 4096
pt_l2:   .space 4096
pt_l1:   .space 4096
pt_l0:   .space 4096
page0:   .space 4096
page1:   .space 4096
page2:   .space 4096
page3:   .space 4096
page4:   .space 4096
page5:   .space 4096
page6:   .space 4096
page7:   .space 4096
page8:   .space 4096
page9:   .space 4096
page10:  .space 4096
page11:  .space 4096
page12:  .space 4096
page13:  .space 4096
page14:  .space 4096
page15:  .space 4096
