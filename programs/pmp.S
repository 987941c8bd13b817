/* pmp - physical memory protection (16 entries, granularity 4 bytes assumed):
 * OFF entries never match; TOR (entry 0 from address 0, entry i from
 * pmpaddr[i-1]); NA4; NAPOT of 8 and 64 bytes and 4 KiB; R/W/X checked for U
 * and S loads, stores, AMOs and instruction fetch (access faults with mtval);
 * the lowest-numbered matching entry wins (also for M: an unlocked entry
 * shadows a locked one with a higher number); an access that only partly
 * matches an entry fails; no match: M succeeds, S/U fail; M ignores unlocked
 * entries; the lock bit applies an entry to M and freezes its pmpcfg/pmpaddr
 * (and the pmpaddr below a locked TOR entry); pmpcfg1/3 do not exist on RV64;
 * sfence.vma after every PMP change. */
#include "test_macros.h"

#define CFG(i, v)  ((v) << (8 * ((i) % 8)))
#define RWX        (PMP_R | PMP_W | PMP_X)

/* in U or S: insn must raise `cause` with mtval == reg */
.macro FAULT n, cause, reg, insn:vararg
  ARM_M .Lr\@
  \insn
  FAIL \n
.Lr\@:
  CHECK_CAUSE_M \n, \cause
  CHECK_TVAL_M \n, \reg
.endm

    .option norvc
    .text
    .globl main
main:
    /* pmpcfg1 / pmpcfg3 are RV32-only */
    TEST_TRAP_M 1, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, 0x3a1
    TEST_TRAP_M 2, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, 0x3a3
    /* pmpaddr read back */
    li      t0, 0x0000123456789abc
    csrw    pmpaddr5, t0
    csrr    a0, pmpaddr5
    CHECK_EQR 3, a0, t0
    csrw    pmpaddr5, zero

    /* ---------------- layout ----------------
     * entry 0: TOR [0, P)            RWX   (code, rodata, data below P)
     * entry 1: OFF (RWX bits set)          (pmpaddr1 = P + 8K: base of entry 2)
     * entry 2: TOR [P + 8K, top)     RWX   (runtime data, stacks)
     * P .. P+8K is matched by no entry yet. */
    la      s0, pmp_page                     /* P */
    la      s1, pmp_page2                    /* P + 4K */
    srli    t0, s0, 2
    csrw    pmpaddr0, t0
    li      t1, 8192
    add     t0, s0, t1
    srli    t0, t0, 2
    csrw    pmpaddr1, t0
    li      t0, -1
    csrw    pmpaddr2, t0
    li      t0, CFG(0, PMP_TOR | RWX) | CFG(1, PMP_OFF | RWX) | CFG(2, PMP_TOR | RWX)
    csrw    pmpcfg0, t0
    csrw    pmpcfg2, zero
    sfence.vma
    csrr    a0, pmpcfg0
    CHECK_EQR 4, a0, t0
    li      t0, 0x1122334455667788
    sd      t0, 0(s0)                        /* M: no match -> allowed */
    ld      a0, 0(s0)
    CHECK_EQ 5, a0, 0x1122334455667788

    /* ---------------- no match: U and S fail ---------------- */
    ENTER_U
    mv      a1, s0
    FAULT   6, CAUSE_LOAD_ACCESS, a1, ld a0, 0(a1)
    FAULT   7, CAUSE_STORE_ACCESS, a1, sd a0, 0(a1)
    FAULT   8, CAUSE_STORE_ACCESS, a1, amoswap.d a0, a0, (a1)
    addi    a1, s1, 0x100
    FAULT   9, CAUSE_LOAD_ACCESS, a1, lbu a0, 0(a1)
    /* TOR boundaries: P - 8 (entry 0) and P + 8K (entry 2) are accessible */
    ld      a0, -8(s0)
    li      t0, 4096
    add     a2, s1, t0
    ld      a0, 0(a2)
    ENTER_M
    ENTER_S
    mv      a1, s0
    FAULT   10, CAUSE_LOAD_ACCESS, a1, lw a0, 0(a1)
    CHECK_PRV_M 11, PRV_S
    ENTER_M

    /* ---------------- NA4, NAPOT, priority, partial match ----------------
     * entry 3: NA4     P+0x10, 4 bytes    R
     * entry 4: NAPOT   P+0x20, 8 bytes    RW
     * entry 5: NAPOT   P+0x40, 64 bytes   R
     * entry 6: NAPOT   P,      4 KiB      RW   (lower priority than 3..5)
     * entry 7: NAPOT   P+4K,   4 KiB      RW   (no X) */
    addi    t0, s0, 0x10
    srli    t0, t0, 2
    csrw    pmpaddr3, t0
    addi    t0, s0, 0x20
    srli    t0, t0, 2                        /* NAPOT 8: no trailing ones */
    csrw    pmpaddr4, t0
    addi    t0, s0, 0x40
    srli    t0, t0, 2
    ori     t0, t0, 0x7                      /* NAPOT 64: 3 trailing ones: 2^(3+3) */
    csrw    pmpaddr5, t0
    srli    t0, s0, 2
    ori     t0, t0, 0x1ff                    /* 4 KiB */
    csrw    pmpaddr6, t0
    srli    t0, s1, 2
    ori     t0, t0, 0x1ff
    csrw    pmpaddr7, t0
    li      t0, CFG(0, PMP_TOR | RWX) | CFG(1, PMP_OFF | RWX) | CFG(2, PMP_TOR | RWX) | CFG(3, PMP_NA4 | PMP_R) | CFG(4, PMP_NAPOT | PMP_R | PMP_W) | CFG(5, PMP_NAPOT | PMP_R) | CFG(6, PMP_NAPOT | PMP_R | PMP_W) | CFG(7, PMP_NAPOT | PMP_R | PMP_W)
    csrw    pmpcfg0, t0
    sfence.vma
    csrr    a0, pmpcfg0
    CHECK_EQR 12, a0, t0
    /* put an instruction sequence "addi a0, zero, 7; ret" at P+4K */
    la      t0, code_tmpl
    lwu     t1, 0(t0)
    sw      t1, 0(s1)
    lwu     t1, 4(t0)
    sw      t1, 4(s1)
    fence.i
    ENTER_U
    /* NA4 at P+0x10: read ok, write fails, 8-byte read only partly matches */
    lw      a0, 0x10(s0)
    addi    a1, s0, 0x10
    FAULT   13, CAUSE_STORE_ACCESS, a1, sw a0, 0(a1)
    FAULT   14, CAUSE_LOAD_ACCESS, a1, ld a0, 0(a1)
    addi    a2, a1, 3
    FAULT   15, CAUSE_STORE_ACCESS, a2, sb a0, 0(a2)
    /* P+0x14 is outside the NA4 entry: entry 6 (RW) applies */
    sw      a0, 0x14(s0)
    /* P+0x0c (4 bytes below): entry 6 */
    sw      a0, 0x0c(s0)
    /* NAPOT 8 at P+0x20 (RW) */
    sd      a0, 0x20(s0)
    ld      a0, 0x20(s0)
    /* NAPOT 64 at P+0x40 (R): reads ok, writes fail at both ends */
    ld      a0, 0x40(s0)
    ld      a0, 0x78(s0)
    addi    a1, s0, 0x40
    FAULT   16, CAUSE_STORE_ACCESS, a1, sd a0, 0(a1)
    addi    a1, s0, 0x7c
    FAULT   17, CAUSE_STORE_ACCESS, a1, sw a0, 0(a1)
    FAULT   18, CAUSE_STORE_ACCESS, a1, amoadd.w a0, a0, (a1)
    /* P+0x80: just past it, entry 6 (RW) */
    sw      a0, 0x80(s0)
    /* instruction fetch from P+4K: entry 7 has no X */
    mv      a1, s1
    ARM_M   1f
    jalr    ra, 0(a1)
    FAIL    19
1:  CHECK_CAUSE_M 19, CAUSE_FETCH_ACCESS
    CHECK_TVAL_M 20, a1
    ld      t5, trap_epc_m
    CHECK_EQR 21, t5, a1
    ENTER_M
    /* M: entries without L do not apply: M may write the R-only regions */
    sw      a0, 0x10(s0)
    sd      a0, 0x40(s0)
    jalr    ra, 0(s1)                        /* and execute from P+4K */
    CHECK_EQ 22, a0, 7
    /* give entry 7 X: U can execute there */
    li      t0, CFG(7, 0xff)
    csrc    pmpcfg0, t0
    li      t0, CFG(7, PMP_NAPOT | PMP_X)
    csrs    pmpcfg0, t0
    sfence.vma
    ENTER_U
    li      a0, 0
    jalr    ra, 0(s1)
    CHECK_EQ 23, a0, 7
    /* ... but cannot read it any more */
    mv      a1, s1
    FAULT   24, CAUSE_LOAD_ACCESS, a1, lw a0, 0(a1)
    ENTER_M

    /* ---------------- lock bit (last: locks cannot be undone) ----------------
     * entry 8:  NAPOT P+0x800, 8 bytes, L|R      -> M can read, not write
     * entry 9:  OFF, pmpaddr9 = P+0xc00 (base of entry 10)
     * entry 10: TOR [P+0xc00, P+0xc10), L, no permissions -> M cannot read */
    addi    t0, s0, 0x7ff
    addi    t0, t0, 1
    srli    t0, t0, 2
    csrw    pmpaddr8, t0
    li      t0, 0xc00
    add     t0, s0, t0
    srli    t0, t0, 2
    csrw    pmpaddr9, t0
    li      t0, 0xc10
    add     t0, s0, t0
    srli    t0, t0, 2
    csrw    pmpaddr10, t0
    li      t0, CFG(8, PMP_L | PMP_NAPOT | PMP_R) | CFG(9, PMP_OFF) | CFG(10, PMP_L | PMP_TOR)
    csrw    pmpcfg2, t0
    sfence.vma
    csrr    a0, pmpcfg2
    CHECK_EQR 25, a0, t0
    /* entry 6 (unlocked, lower number) still covers P..P+4K: it wins, so M
       is not restricted by the locked entries yet */
    li      t0, 0x5555
    li      a1, 0x800
    add     a1, s0, a1
    sd      t0, 0(a1)
    li      a1, 0xc08
    add     a1, s0, a1
    ld      a0, 0(a1)
    /* switch entry 6 off: M is now checked against entries 8 and 10 */
    li      t0, CFG(6, 0xff)
    csrc    pmpcfg0, t0
    sfence.vma
    li      a1, 0x800
    add     a1, s0, a1
    ld      a0, 0(a1)
    CHECK_EQ 26, a0, 0x5555
    FAULT   27, CAUSE_STORE_ACCESS, a1, sd a0, 0(a1)
    li      a1, 0xc08
    add     a1, s0, a1
    FAULT   28, CAUSE_LOAD_ACCESS, a1, ld a0, 0(a1)
    li      a1, 0xc10
    add     a1, s0, a1
    ld      a0, 0(a1)                        /* just past entry 10: no locked match */
    /* locked entries ignore writes to pmpcfg and pmpaddr */
    csrr    s2, pmpcfg2
    li      t0, CFG(8, 0xff) | CFG(10, 0xff)
    csrc    pmpcfg2, t0
    csrr    a0, pmpcfg2
    CHECK_EQR 29, a0, s2
    csrr    s3, pmpaddr8
    csrw    pmpaddr8, zero
    csrr    a0, pmpaddr8
    CHECK_EQR 30, a0, s3
    csrr    s3, pmpaddr10
    csrw    pmpaddr10, zero
    csrr    a0, pmpaddr10
    CHECK_EQR 31, a0, s3
    /* pmpaddr9 is the base of the locked TOR entry 10: locked too */
    csrr    s3, pmpaddr9
    csrw    pmpaddr9, zero
    csrr    a0, pmpaddr9
    CHECK_EQR 32, a0, s3
    /* entry 9 itself (unlocked) can still be configured */
    li      t0, CFG(9, PMP_NA4 | PMP_R)
    csrs    pmpcfg2, t0
    csrr    a0, pmpcfg2
    or      s2, s2, t0
    CHECK_EQR 33, a0, s2
    /* unlocked entries can still be changed */
    csrw    pmpaddr11, s3
    csrr    a0, pmpaddr11
    CHECK_EQR 34, a0, s3

    TEST_PASS

    .balign 4
code_tmpl:
    addi    a0, zero, 7
    jalr    zero, 0(ra)

    .data
    .balign 4096
pmp_page:
    .space  4096
pmp_page2:
    .space  4096
