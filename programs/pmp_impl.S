/* pmp_impl - what depends on the PMP implementation: how many entries it has
 * and its granularity. Run against Spike once per implementation (8, 16 and
 * 64 entries; 4-, 8- and 4096-byte granules: tests/spike_diff.rs,
 * pmp_implementations_match_spike); the commit logs, which hold every value
 * read, must be identical. (A hart with no PMP at all cannot run it: crt0
 * writes pmpaddr0, which then does not exist; iss's unit tests cover that.)
 * Probed here:
 * - every pmpaddr written all-ones and read back (entries the hart lacks read
 *   0 and ignore writes);
 * - every pmpcfg written with TOR, NA4 (NAPOT above 4-byte granules) and the
 *   reserved W-without-R, and read back;
 * - pmpaddr's low bits in OFF, TOR and NAPOT mode (zeros, zeros and ones
 *   below the granule);
 * - U-mode loads at the edges of a TOR region whose top is not on a granule
 *   boundary, and of a NAPOT region of 8 bytes, each allowed or faulting.
 * Nothing here depends on the implementation for passing: it always exits 0.
 * The test gives the implementation as --pmpregions and --pmpgranularity. */
#include "test_macros.h"

#define CFG(i, v)  ((v) << (8 * ((i) % 8)))
#define RWX        (PMP_R | PMP_W | PMP_X)

/* write all-ones to pmpaddr\i and read it back into a0 (a trap resumes after) */
.macro PROBE_ADDR i
  ARM_M .Lp\@
  li      t0, -1
  csrw    pmpaddr\i, t0
  csrr    a0, pmpaddr\i
.Lp\@:
  DISARM_M
.endm

/* write \val to pmpcfg\i and read it back into a0 */
.macro PROBE_CFG i, val
  li      t0, \val
  csrw    pmpcfg\i, t0
  csrr    a0, pmpcfg\i
.endm

/* a U-mode load of the doubleword at \off(s0) (a 12-bit offset); a fault resumes after it */
.macro U_LOAD off
  ARM_M .Lu\@
  ld      a0, \off(s0)
.Lu\@:
  DISARM_M
.endm

    .option norvc
    .text
    .globl main
main:
    /* ---------------- pmpaddr0..63 ---------------- */
    .irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    PROBE_ADDR \i
    .endr
    .irp i, 32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63
    PROBE_ADDR \i
    .endr

    /* ---------------- pmpcfg0..14 (even) ---------------- */
    .irp i, 0,2,4,6,8,10,12,14
    PROBE_CFG \i, 0x0f0e0d0c0b0a0908    /* TOR with every R/W/X */
    PROBE_CFG \i, 0x1111111111111111    /* NA4, R */
    PROBE_CFG \i, 0x1a1a1a1a02020202    /* W without R: reserved */
    PROBE_CFG \i, 0
    .endr

    /* ---------------- pmpaddr's low bits by mode ---------------- */
    li      s2, 0x20000123                   /* low bits 0b100100011 */
    ARM_M   .Lbits
    csrw    pmpaddr1, s2
    csrr    a0, pmpaddr1                     /* OFF */
    li      t0, CFG(1, PMP_TOR)
    csrw    pmpcfg0, t0
    csrr    a0, pmpaddr1                     /* TOR */
    li      t0, CFG(1, PMP_NAPOT)
    csrw    pmpcfg0, t0
    csrr    a0, pmpaddr1                     /* NAPOT */
    li      t0, CFG(1, PMP_NA4)
    csrw    pmpcfg0, t0
    csrr    a0, pmpcfg0
    csrr    a0, pmpaddr1                     /* NA4 (NAPOT above 4-byte granules) */
.Lbits:
    DISARM_M
    csrw    pmpcfg0, zero

    /* ---------------- U-mode accesses ----------------
     * entry 0: TOR [0, P)              RWX  (code, data and stacks below P)
     * entry 1: TOR [P, P + 0x14)       R    (top not on an 8-byte granule)
     * entry 2: NAPOT [P + 0x100, +8)   R    (8 bytes: NA4-sized with 4-byte granules)
     * entry 3: OFF, pmpaddr3 = P + 8K
     * entry 4: TOR [P + 8K, top)       RWX  (whatever lies above the pages)
     * With fewer entries the missing ones are absent; with none, PMP allows all. */
    la      s0, probe_page                   /* P */
    ARM_M   .Lsetup
    srli    t0, s0, 2
    csrw    pmpaddr0, t0
    addi    t0, s0, 0x14
    srli    t0, t0, 2
    csrw    pmpaddr1, t0
    addi    t0, s0, 0x100
    srli    t0, t0, 2                        /* NAPOT of 8 bytes: ...0 */
    csrw    pmpaddr2, t0
    li      t1, 8192
    add     t0, s0, t1
    srli    t0, t0, 2
    csrw    pmpaddr3, t0
    li      t0, -1
    csrw    pmpaddr4, t0
.Lsetup:
    DISARM_M
    li      t0, CFG(0, PMP_TOR | RWX) | CFG(1, PMP_TOR | PMP_R) | CFG(2, PMP_NAPOT | PMP_R) | CFG(4, PMP_TOR | RWX)
    csrw    pmpcfg0, t0
    sfence.vma
    csrr    a0, pmpcfg0

    ENTER_U
    U_LOAD  0
    U_LOAD  8
    U_LOAD  0x10
    U_LOAD  0x18
    U_LOAD  0xf8
    U_LOAD  0x100
    U_LOAD  0x108
    li      t0, 0x7f8
    add     s0, s0, t0
    U_LOAD  0x7f8                            /* P + 0xff0 */
    addi    s0, s0, 0x10
    U_LOAD  0x7f8                            /* P + 0x1000 */
    ENTER_M

    /* PMP as the reset left it would let the runtime's exit path run in any mode;
     * M ignores unlocked entries, so nothing needs undoing. */
    TEST_PASS

    .data
    .balign 4096
probe_page:
    .space  8192
