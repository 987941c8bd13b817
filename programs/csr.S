/* csr - CSR instructions and CSR access rules: csrrw/csrrs/csrrc and the
 * immediate forms (old value returned, set/clear semantics, rs1 = x0 and
 * uimm = 0 do not write), mscratch/sscratch full width, misa (RV64, IMAFDC + S
 * + U), mhartid = 0, writes to read-only CSRs (mhartid, mvendorid, cycle,
 * time, instret) -> illegal instruction with mtval = the instruction, reading
 * them without writing is allowed, M-mode CSRs from S and U and S-mode CSRs
 * from U -> illegal, cycle/time/instret readable from S/U only as
 * mcounteren/scounteren allow, minstret counting and writes, mcountinhibit,
 * mepc/sepc bit 0 hardwired to 0, medeleg[11] read-only 0, mideleg M bits
 * read-only 0, satp write with an unsupported MODE ignored, sstatus as a
 * view of mstatus, mstatus.UXL/SXL = 2. */
#include "test_macros.h"

/* ILLEGAL n, insn: insn must raise illegal instruction with mtval = its
 * 32-bit encoding; execution continues in the same privilege */
.macro ILLEGAL n, insn:vararg
  ARM_M .Lr\@
.Li\@:
  \insn
  FAIL \n
.Lr\@:
  CHECK_CAUSE_M \n, CAUSE_ILLEGAL_INSTRUCTION
  la t4, .Li\@
  lwu t4, 0(t4)
  CHECK_TVAL_M \n, t4
.endm

/* LEGAL n, insn: insn must not trap (an unexpected trap exits with 255) */
.macro LEGAL n, insn:vararg
  \insn
.endm

    .option norvc
    .text
    .globl main
main:
    /* ---------------- CSR instruction semantics (on mscratch) ---------------- */
    csrr    s0, mscratch                 /* runtime's frame pointer: restore later */
    li      a1, 0x0123456789abcdef
    csrw    mscratch, a1
    csrr    a0, mscratch
    CHECK_EQ 1, a0, 0x0123456789abcdef
    li      a1, -1
    csrrw   a0, mscratch, a1
    CHECK_EQ 2, a0, 0x0123456789abcdef
    csrr    a0, mscratch
    CHECK_EQ 3, a0, -1
    li      a1, 0x00ff00ff00ff00ff
    csrrc   a0, mscratch, a1
    CHECK_EQ 4, a0, -1
    csrr    a0, mscratch
    CHECK_EQ 5, a0, 0xff00ff00ff00ff00
    li      a1, 0x0f
    csrrs   a0, mscratch, a1
    CHECK_EQ 6, a0, 0xff00ff00ff00ff00
    csrr    a0, mscratch
    CHECK_EQ 7, a0, 0xff00ff00ff00ff0f
    csrrwi  a0, mscratch, 31
    CHECK_EQ 8, a0, 0xff00ff00ff00ff0f
    csrr    a0, mscratch
    CHECK_EQ 9, a0, 31
    csrrci  a0, mscratch, 5
    CHECK_EQ 10, a0, 31
    csrr    a0, mscratch
    CHECK_EQ 11, a0, 26
    csrrsi  a0, mscratch, 1
    CHECK_EQ 12, a0, 26
    csrr    a0, mscratch
    CHECK_EQ 13, a0, 27
    csrrs   a0, mscratch, zero           /* no write */
    csrrc   a0, mscratch, zero
    csrrsi  a0, mscratch, 0
    csrrci  a0, mscratch, 0
    CHECK_EQ 14, a0, 27
    csrrw   zero, mscratch, zero         /* rd = x0: write only */
    csrr    a0, mscratch
    CHECK_EQ 15, a0, 0
    li      a1, 0x8000000000000001
    csrrw   a1, mscratch, a1             /* rd == rs1: old value returned */
    CHECK_EQ 16, a1, 0
    csrr    a0, mscratch
    CHECK_EQ 17, a0, 0x8000000000000001
    csrrwi  zero, mscratch, 0
    csrw    mscratch, s0

    /* sscratch */
    csrr    s1, sscratch
    li      a1, 0xfedcba9876543210
    csrw    sscratch, a1
    csrr    a0, sscratch
    CHECK_EQ 18, a0, 0xfedcba9876543210
    csrrc   a0, sscratch, a1
    csrr    a0, sscratch
    CHECK_EQ 19, a0, 0
    csrw    sscratch, s1

    /* ---------------- identification ---------------- */
    csrr    a0, misa
    srli    a1, a0, 62
    CHECK_EQ 20, a1, 2                   /* MXL = 64 */
    li      t0, (1 << 0) | (1 << 2) | (1 << 3) | (1 << 5) | (1 << 8) | (1 << 12) | (1 << 18) | (1 << 20)
    and     a1, a0, t0
    CHECK_EQR 21, a1, t0                 /* A C D F I M S U */
    csrr    a0, mhartid
    CHECK_EQ 22, a0, 0
    csrr    a0, mstatus
    srli    a0, a0, 32
    andi    a0, a0, 0xf
    CHECK_EQ 23, a0, 0xa                 /* UXL = SXL = 2 */

    /* ---------------- read-only CSRs ---------------- */
    ILLEGAL 24, csrw mhartid, zero
    ILLEGAL 25, csrrwi a0, mvendorid, 0
    ILLEGAL 26, csrs marchid, t0
    ILLEGAL 27, csrw cycle, zero
    ILLEGAL 28, csrw time, zero
    ILLEGAL 29, csrw instret, zero
    ILLEGAL 30, csrrsi a0, cycle, 1
    ILLEGAL 31, csrrci a0, instret, 3
    ILLEGAL 32, csrrw zero, mimpid, zero
    LEGAL   33, csrrs a0, mhartid, zero
    LEGAL   34, csrrc a0, mvendorid, zero
    LEGAL   35, csrrsi a0, mimpid, 0
    LEGAL   36, csrrci a0, cycle, 0
    /* a CSR that does not exist */
    ILLEGAL 37, csrr a0, 0x600
    ILLEGAL 38, csrw 0x7a0 + 0x30, zero   /* 0x7d0: debug-mode/custom range, not implemented */

    /* ---------------- writable WARL / read-only fields ---------------- */
    li      a1, -1
    csrw    mepc, a1
    csrr    a0, mepc
    CHECK_EQ 39, a0, -2                  /* IALIGN = 16: bit 0 is zero */
    csrw    sepc, a1
    csrr    a0, sepc
    CHECK_EQ 40, a0, -2
    csrw    medeleg, a1
    csrr    a0, medeleg
    li      t0, (1 << 11)
    and     a2, a0, t0
    CHECK_EQ 41, a2, 0                   /* ecall from M is never delegated */
    li      t0, (1 << 8) | (1 << 3) | (1 << 2)
    and     a2, a0, t0
    CHECK_EQR 42, a2, t0                 /* ecall-U, breakpoint, illegal are delegable */
    csrw    medeleg, zero
    csrw    mideleg, a1
    csrr    a0, mideleg
    li      t0, 0x888
    and     a2, a0, t0
    CHECK_EQ 43, a2, 0                   /* M-level interrupts not delegable */
    andi    a2, a0, 0x222
    CHECK_EQ 44, a2, 0x222               /* S-level interrupts delegable */
    csrw    mideleg, zero
    /* satp: an unsupported MODE write has no effect */
    csrw    satp, zero
    li      a1, (5 << 60) | 0x12345
    csrw    satp, a1
    csrr    a0, satp
    CHECK_EQ 45, a0, 0
    li      a1, (8 << 60) | 0x12345      /* Sv39 is supported */
    csrw    satp, a1
    csrr    a0, satp
    CHECK_EQR 46, a0, a1
    li      a1, (15 << 60) | 0x777
    csrw    satp, a1
    csrr    a0, satp
    li      a1, (8 << 60) | 0x12345
    CHECK_EQR 47, a0, a1
    csrw    satp, zero
    /* sstatus is a view of mstatus */
    li      t0, MSTATUS_SUM
    csrs    sstatus, t0
    csrr    a0, mstatus
    and     a0, a0, t0
    CHECK_EQR 48, a0, t0
    csrc    mstatus, t0
    csrr    a0, sstatus
    and     a0, a0, t0
    CHECK_EQ 49, a0, 0
    li      t0, MSTATUS_MPP
    csrs    mstatus, t0
    csrr    a0, sstatus
    and     a0, a0, t0
    CHECK_EQ 50, a0, 0                   /* MPP not visible in sstatus */
    li      t0, MSTATUS_MIE | MSTATUS_MPIE | MSTATUS_TVM | MSTATUS_TW | MSTATUS_TSR | MSTATUS_MPRV
    csrc    mstatus, t0
    csrs    sstatus, t0                  /* M-only fields not writable through sstatus */
    csrr    a0, mstatus
    and     a0, a0, t0
    CHECK_EQ 51, a0, 0
    li      t0, MSTATUS_MPP
    csrc    mstatus, t0

    /* ---------------- counters in M-mode ---------------- */
    csrr    a1, instret
    csrr    a2, instret
    sub     a0, a2, a1
    CHECK_EQ 52, a0, 1
    csrr    a1, minstret
    nop
    nop
    nop
    csrr    a2, minstret
    sub     a0, a2, a1
    CHECK_EQ 53, a0, 4
    li      t0, 1000
    csrw    minstret, t0
    csrr    a0, minstret
    CHECK_EQ 54, a0, 1000                /* the writing instruction does not count */
    csrr    a1, minstret
    csrr    a2, instret                  /* instret is a read-only shadow */
    sub     a0, a2, a1
    CHECK_EQ 55, a0, 1
    csrr    a1, cycle
    nop
    csrr    a2, mcycle
    bgtu    a2, a1, 1f
    FAIL    56
1:  li      t0, 5000
    csrw    mcycle, t0
    csrr    a0, mcycle
    li      t1, 5000
    bltu    a0, t1, 2f
    li      t1, 5100
    bgeu    a0, t1, 2f
    j       1f
2:  FAIL    57
1:  /* mcountinhibit.IR stops minstret */
    csrwi   mcountinhibit, 4
    csrr    a1, minstret
    nop
    nop
    csrr    a2, minstret
    csrwi   mcountinhibit, 0
    CHECK_EQR 58, a1, a2
    csrr    a0, mcountinhibit
    CHECK_EQ 59, a0, 0
    /* time advances */
    csrr    a1, time
    li      t0, 6000                     /* > 10000 instructions (Spike ticks mtime every 5000) */
1:  addi    t0, t0, -1
    bnez    t0, 1b
    csrr    a2, time
    bgtu    a2, a1, 1f
    FAIL    60
1:  /* time CSR == CLINT mtime (read back to back: within a small window) */
    li      t1, CLINT_MTIME
    ld      a1, 0(t1)
    csrr    a2, time
    sub     a0, a2, a1
    li      t0, 1000
    bleu    a0, t0, 1f
    FAIL    61
1:

    /* ---------------- privilege checks from S-mode ---------------- */
    csrw    mcounteren, zero
    csrw    scounteren, zero
    ENTER_S
    LEGAL   62, csrr a0, sstatus
    LEGAL   63, csrr a0, sscratch
    LEGAL   64, csrr a0, stvec
    LEGAL   65, csrr a0, satp
    ILLEGAL 66, csrr a0, mstatus
    ILLEGAL 67, csrr a0, mscratch
    ILLEGAL 68, csrw mscratch, zero
    ILLEGAL 69, csrr a0, mhartid
    ILLEGAL 70, csrr a0, misa
    ILLEGAL 71, csrr a0, medeleg
    ILLEGAL 72, csrr a0, mcycle
    ILLEGAL 73, csrr a0, minstret
    ILLEGAL 74, csrr a0, pmpcfg0
    ILLEGAL 75, csrr a0, pmpaddr0
    ILLEGAL 76, csrr a0, cycle           /* mcounteren.CY = 0 */
    ILLEGAL 77, csrr a0, time            /* mcounteren.TM = 0 */
    ILLEGAL 78, csrr a0, instret         /* mcounteren.IR = 0 */
    ILLEGAL 79, mret
    ENTER_M
    csrwi   mcounteren, 1                /* CY */
    ENTER_S
    LEGAL   80, csrr a0, cycle
    ILLEGAL 81, csrr a0, time
    ILLEGAL 82, csrr a0, instret
    ENTER_M
    csrwi   mcounteren, 6                /* TM, IR */
    ENTER_S
    ILLEGAL 83, csrr a0, cycle
    LEGAL   84, csrr a0, time
    LEGAL   85, csrr a0, instret
    csrr    a1, instret                  /* counters count in S-mode too */
    nop
    csrr    a2, instret
    sub     a0, a2, a1
    CHECK_EQ 86, a0, 2
    /* S-mode may write scounteren */
    csrwi   scounteren, 7
    csrr    a0, scounteren
    CHECK_EQ 87, a0, 7
    ENTER_M

    /* ---------------- privilege checks from U-mode ---------------- */
    csrwi   mcounteren, 7
    csrwi   scounteren, 0
    ENTER_U
    ILLEGAL 88, csrr a0, sstatus
    ILLEGAL 89, csrr a0, sscratch
    ILLEGAL 90, csrw sscratch, zero
    ILLEGAL 91, csrr a0, satp
    ILLEGAL 92, csrr a0, mstatus
    ILLEGAL 93, csrr a0, mscratch
    ILLEGAL 94, csrr a0, cycle           /* scounteren = 0 */
    ILLEGAL 95, csrr a0, time
    ILLEGAL 96, csrr a0, instret
    ILLEGAL 97, sret
    ILLEGAL 98, mret
    LEGAL   99, csrr a0, fflags          /* user FP CSRs are accessible (FS != Off) */
    ENTER_M
    csrwi   scounteren, 5                /* CY, IR: but mcounteren must allow too */
    csrwi   mcounteren, 3                /* CY, TM */
    ENTER_U
    LEGAL   100, csrr a0, cycle          /* 1 & 1 */
    ILLEGAL 101, csrr a0, time           /* scounteren.TM = 0 */
    ILLEGAL 102, csrr a0, instret        /* mcounteren.IR = 0 */
    ENTER_M
    csrwi   scounteren, 7
    csrwi   mcounteren, 7
    ENTER_U
    LEGAL   103, csrr a0, cycle
    LEGAL   104, csrr a0, time
    LEGAL   105, csrr a0, instret
    ENTER_M
    csrw    mcounteren, zero
    csrw    scounteren, zero
    /* back in M: check the privilege the last trap came from */
    ENTER_U
    ILLEGAL 106, csrr a0, mstatus
    ENTER_M
    CHECK_PRV_M 106, PRV_U
    ENTER_S
    ILLEGAL 107, csrr a0, mstatus
    ENTER_M
    CHECK_PRV_M 107, PRV_S

    TEST_PASS
