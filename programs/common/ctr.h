/* ctr.h - Control Transfer Records (Smctr/Ssctr) for guest programs: CSR numbers and bits of
 * both layouts, the indirect-access and Smstateen CSRs, Sscofpmf's, and (in assembly) macros
 * and check routines shared by the CTR test programs.
 *
 * The layout is chosen before including: `#define CTR_LAYOUT 10` for the ratified 1.0 layout,
 * otherwise the draft v0.1.4 (hartscope's default, `--ctr 0.1.4`). Names are layout-neutral:
 * CSR_CTRCTL is mctrcontrol (0.1.4) or mctrctl (1.0), CTR_M is the M enable bit of either...
 * See docs/ctr.md for every CSR and bit.
 */
#ifndef HARTSCOPE_CTR_H
#define HARTSCOPE_CTR_H

#include "encoding.h"

#ifndef CTR_LAYOUT
#define CTR_LAYOUT 14
#endif

/* ---- Smcsrind / Sscsrind, Smstateen, Sscofpmf ---- */
#define CSR_SISELECT   0x150
#define CSR_SIREG      0x151
#define CSR_SIREG2     0x152
#define CSR_SIREG3     0x153
#define CSR_SIREG4     0x155
#define CSR_SIREG5     0x156
#define CSR_SIREG6     0x157
#define CSR_MISELECT   0x350
#define CSR_MIREG      0x351
#define CSR_MIREG2     0x352
#define CSR_MIREG3     0x353
#define CSR_MIREG4     0x355
#define CSR_MIREG5     0x356
#define CSR_MIREG6     0x357
#define CSR_SSTATEEN0  0x10c
#define CSR_MSTATEEN0  0x30c
#define MSTATEEN0_CSRIND (_UL(1) << 60)
#define MSTATEEN0_SE0    (_UL(1) << 63)
#define CSR_MHPMEVENT3   0x323
#define CSR_MHPMCOUNTER3 0xb03
#define CSR_HPMCOUNTER3_ 0xc03
#define CSR_SCOUNTOVF    0xda0
#define IRQ_LCOF         13
#define MIP_LCOFIP       (1 << IRQ_LCOF)
#define HPMEVENT_OF      (_UL(1) << 63)
#define HPMEVENT_MINH    (_UL(1) << 62)
#define HPMEVENT_SINH    (_UL(1) << 61)
#define HPMEVENT_UINH    (_UL(1) << 60)
#define HPMEVENT_INSTRUCTIONS 0x2      /* docs/pmu.md: instructions retired */
#define HPMEVENT_BRANCHES     0x5      /* branches, jumps, calls and returns retired */

/* ---- CTR: CSRs and control bits of the chosen layout ---- */
#define CTR_SELECT     0x200           /* *iselect of logical entry 0 */
#define CTR_INSN_SCTRCLR 0x10400073    /* 1.0 only */

#if CTR_LAYOUT == 10
#define CSR_CTRCTL     0x34e           /* mctrctl */
#define CSR_SCTRCTL    0x14e           /* sctrctl */
#define CSR_VSCTRCTL   0x24e           /* vsctrctl: no H extension, illegal */
#define CSR_CTRSTATUS  0x14f           /* sctrstatus (there is no mctrstatus) */
#define CSR_SCTRSTATUS 0x14f
#define CSR_SCTRDEPTH  0x15f
#define CTR_U          (1 << 0)
#define CTR_S          (1 << 1)
#define CTR_M          (1 << 2)
#define CTR_RASEMU     (1 << 7)
#define CTR_STE        (1 << 8)
#define CTR_MTE        (1 << 9)
#define CTR_ETEN       0               /* no ETEN in 1.0 */
#define CTR_FROZEN     (_UL(1) << 31)
#define CTR_WRAP       0               /* no WRAP in 1.0 */
#define MSTATEEN0_CTR  (_UL(1) << 54)
#else
#define CSR_CTRCTL     0x381           /* mctrcontrol */
#define CSR_SCTRCTL    0x181           /* sctrcontrol */
#define CSR_VSCTRCTL   0x281           /* vsctrcontrol: no H extension, illegal */
#define CSR_CTRCTLH    0x382           /* mctrcontrolh: RV32 only, illegal */
#define CSR_CTRSTATUS  0x383           /* mctrstatus */
#define CSR_SCTRSTATUS 0x183
#define CTR_M          (1 << 0)
#define CTR_S          (1 << 1)
#define CTR_U          (1 << 2)
#define CTR_CLR        (1 << 7)
#define CTR_MTE        (1 << 8)
#define CTR_STE        (1 << 9)
#define CTR_RASEMU     (1 << 10)
#define CTR_DEPTH_SHIFT 16
#define CTR_DEPTH_MASK (0xf << 16)
#define CTR_ETEN       (_UL(1) << 38)
#define CTR_FROZEN     (1 << 15)
#define CTR_WRAP       (1 << 14)
#define MSTATEEN0_CTR  (_UL(1) << 55)
#endif
#define CTR_BPFRZ      (1 << 11)
#define CTR_LCOFIFRZ   (1 << 12)
/* transfer-type filter bits: bit 32 + TYPE (both layouts) */
#define CTR_EXCINH     (_UL(1) << 33)
#define CTR_INTRINH    (_UL(1) << 34)
#define CTR_TRETINH    (_UL(1) << 35)
#define CTR_NTBREN     (_UL(1) << 36)
#define CTR_TKBRINH    (_UL(1) << 37)
#define CTR_INDCALLINH (_UL(1) << 40)
#define CTR_DIRCALLINH (_UL(1) << 41)
#define CTR_INDJMPINH  (_UL(1) << 42)
#define CTR_DIRJMPINH  (_UL(1) << 43)
#define CTR_CORSWAPINH (_UL(1) << 44)
#define CTR_RETINH     (_UL(1) << 45)
#define CTR_INDLJMPINH (_UL(1) << 46)
#define CTR_DIRLJMPINH (_UL(1) << 47)
#define CTR_INH_ALL    (_UL(0xff2e) << 32)   /* every *INH bit (NTBREN and ETEN excluded) */

/* ctrdata.TYPE (the E-Trace itype codes) */
#define CTR_T_EXC      1
#define CTR_T_INTR     2
#define CTR_T_TRET     3
#define CTR_T_NTBR     4
#define CTR_T_TKBR     5
#define CTR_T_INDCALL  8
#define CTR_T_DIRCALL  9
#define CTR_T_INDJMP   10
#define CTR_T_DIRJMP   11
#define CTR_T_CORSWAP  12
#define CTR_T_RET      13
#define CTR_T_INDLJMP  14
#define CTR_T_DIRLJMP  15
/* ctrdata fields */
#define CTR_DATA_TYPE  0xf
#define CTR_DATA_CCV   (1 << 15)
#define CTR_DATA_CC_SHIFT 16

#ifdef __ASSEMBLER__

/* The indirect interface the programs read entries through: miselect/mireg* in 0.1.4 from
 * M-mode (CTR_BANK M), siselect/sireg* otherwise (1.0 has no CTR range for miselect). */
#ifndef CTR_BANK
#if CTR_LAYOUT == 10
#define CTR_BANK S
#else
#define CTR_BANK M
#endif
#endif

/* SCTRCLR: not known to the assembler */
.macro SCTRCLR
  .word CTR_INSN_SCTRCLR
.endm

/* Stop recording and empty the array: control 0, then clear (0.1.4: CLR, which also zeroes
 * WRPTR and WRAP; 1.0: SCTRCLR and WRPTR := 0), FROZEN cleared. Uses t6. */
.macro CTR_RESET
  csrw CSR_CTRCTL, zero
#if CTR_LAYOUT == 10
  SCTRCLR
#else
  li t6, CTR_CLR
  csrw CSR_CTRCTL, t6
#endif
  csrw CSR_CTRSTATUS, zero
.endm

/* Stop recording in every mode, keeping the other control bits (and DEPTH in 0.1.4). Uses t6.
 * (A control write: the next record has CCV = 0.) */
.macro CTR_STOP
  li t6, CTR_M | CTR_S | CTR_U
  csrc CSR_CTRCTL, t6
.endm

/* Select depth 16 << log (0.1.4: DEPTH code in the control register, which stays 0;
 * 1.0: sctrdepth). Uses t6. */
.macro CTR_DEPTH log
#if CTR_LAYOUT == 10
  li t6, \log
  csrw CSR_SCTRDEPTH, t6
#else
  li t6, ((1 << (\log)) - 1) << CTR_DEPTH_SHIFT
  csrw CSR_CTRCTL, t6
#endif
.endm

/* Expect logical entry idx to be a valid record src -> dst of TYPE type (src, dst: symbols
 * or 0 for a partial record); fail test n otherwise. Uses a0-a2, t3-t6. */
.macro CTR_EXPECT n, idx, src, dst, type
  TESTNUM_OK \n
  li a0, \idx
  call ctr_read
  .ifc \src,0
  li t4, 1
  .else
  la t4, \src
  ori t4, t4, 1
  .endif
  bne a0, t4, .Lbad\@
  .ifc \dst,0
  li t4, 0
  .else
  la t4, \dst
  .endif
  andi t5, a1, -2
  bne t5, t4, .Lbad\@
  andi t5, a2, CTR_DATA_TYPE
  li t4, \type
  beq t5, t4, .Lok\@
.Lbad\@:
  FAIL \n
.Lok\@:
.endm

/* Expect logical entry idx to be an invalid (popped) record that still holds src -> dst of
 * TYPE type (RAS emulation). */
.macro CTR_EXPECT_POPPED n, idx, src, dst, type
  TESTNUM_OK \n
  li a0, \idx
  call ctr_read
  la t4, \src
  bne a0, t4, .Lbad\@
  la t4, \dst
  andi t5, a1, -2
  bne t5, t4, .Lbad\@
  andi t5, a2, CTR_DATA_TYPE
  li t4, \type
  beq t5, t4, .Lok\@
.Lbad\@:
  FAIL \n
.Lok\@:
.endm

/* Expect logical entries idx..255 to read 0 in all six *ireg registers (not recorded since
 * the last clear, or at or beyond the depth). */
.macro CTR_EXPECT_ZERO_FROM n, idx
  TESTNUM_OK \n
  li a0, \idx
  li a1, \n
  call ctr_check_zero_from
.endm

/* Expect the status register to read val. Uses t5, t6. */
.macro CTR_EXPECT_STATUS n, val
  csrr t5, CSR_CTRSTATUS
  CHECK_EQ \n, t5, \val
.endm

/* Expect a table of transfers (see ctr_check_table) in the array, and nothing else. */
.macro CTR_EXPECT_TABLE n, table, count, keep, depth
  TESTNUM_OK \n
  la a0, \table
  li a1, \count
  li a2, \keep
  li a3, \n
  li a4, \depth
  li a5, 1
  call ctr_check_table
.endm

/* The same for the `entries` youngest kept rows only, with no check of the others. */
.macro CTR_EXPECT_TABLE_TOP n, table, count, keep, entries
  TESTNUM_OK \n
  la a0, \table
  li a1, \count
  li a2, \keep
  li a3, \n
  li a4, \entries
  li a5, 0
  call ctr_check_table
.endm

/* One transfer of a table: source, target (0 for partial records), TYPE. */
.macro CTR_ROW src, dst, type
  .dword \src
  .dword \dst
  .dword \type
.endm

#define CTR_CAT3(a, b, c) a##b##c
#define CTR_CSR(bank, name) CTR_CAT3(CSR_, bank, name)
#define CTR_ISELECT CTR_CSR(CTR_BANK, ISELECT)

/* The check routines. Instantiate once, in .text. */
.macro CTR_ROUTINES

/* ctr_read(a0 = logical entry): a0 = ctrsource, a1 = ctrtarget, a2 = ctrdata. Uses t6. */
ctr_read:
  li t6, CTR_SELECT
  add t6, t6, a0
  csrw CTR_ISELECT, t6
  csrr a0, CTR_CSR(CTR_BANK, IREG)
  csrr a1, CTR_CSR(CTR_BANK, IREG2)
  csrr a2, CTR_CSR(CTR_BANK, IREG3)
  ret

/* ctr_check_zero_from(a0 = first logical entry, a1 = test number): entries a0..255 read 0 in
 * *ireg..*ireg6. */
ctr_check_zero_from:
  li t6, CTR_SELECT
  add t6, t6, a0
  li t5, CTR_SELECT + 256
1:
  bgeu t6, t5, 2f
  csrw CTR_ISELECT, t6
  csrr t4, CTR_CSR(CTR_BANK, IREG)
  csrr t3, CTR_CSR(CTR_BANK, IREG2)
  or t4, t4, t3
  csrr t3, CTR_CSR(CTR_BANK, IREG3)
  or t4, t4, t3
  csrr t3, CTR_CSR(CTR_BANK, IREG4)
  or t4, t4, t3
  csrr t3, CTR_CSR(CTR_BANK, IREG5)
  or t4, t4, t3
  csrr t3, CTR_CSR(CTR_BANK, IREG6)
  or t4, t4, t3
  bnez t4, 3f
  addi t6, t6, 1
  j 1b
2:
  ret
3:
  mv a0, a1
  j test_fail

/* ctr_check_table(a0 = table of CTR_ROWs in program order, a1 = rows, a2 = mask of the TYPEs
 * kept (bit TYPE), a3 = test number, a4 = depth, a5 = 1 to check the rest): the array holds
 * the kept rows, youngest at logical entry 0 (at most depth of them), and (a5 = 1) nothing
 * else since the last clear. Rows with a target of 0 are partial records; a source of 0
 * likewise. */
ctr_check_table:
  addi sp, sp, -64
  sd ra, 0(sp)
  sd s0, 8(sp)
  sd s1, 16(sp)
  sd s2, 24(sp)
  sd s3, 32(sp)
  sd s4, 40(sp)
  sd s5, 48(sp)
  mv s5, a5
  li t6, 24
  mul t6, a1, t6
  add s0, a0, t6          /* s0: one past the last row */
  mv s1, a0               /* s1: first row */
  mv s2, a2
  mv s3, a3
  mv s4, a4
  li t0, 0                /* t0: next logical entry */
1:
  beq s0, s1, 3f
  addi s0, s0, -24
  ld t1, 16(s0)           /* TYPE */
  srl t2, s2, t1
  andi t2, t2, 1
  beqz t2, 1b
  bgeu t0, s4, 1b         /* older than the depth: overwritten */
  mv a0, t0
  call ctr_read
  ld t1, 0(s0)
  ori t1, t1, 1
  bne a0, t1, 2f
  ld t1, 8(s0)
  andi a1, a1, -2
  bne a1, t1, 2f
  andi a2, a2, CTR_DATA_TYPE
  ld t1, 16(s0)
  bne a2, t1, 2f
  addi t0, t0, 1
  j 1b
2:
  mv a0, s3
  j test_fail
3:
  beqz s5, 5f
  bgeu t0, s4, 4f         /* the array is full */
  mv a0, t0
  mv a1, s3
  call ctr_check_zero_from
  j 5f
4:
  mv a0, s4
  mv a1, s3
  call ctr_check_zero_from
5:
  ld ra, 0(sp)
  ld s0, 8(sp)
  ld s1, 16(sp)
  ld s2, 24(sp)
  ld s3, 32(sp)
  ld s4, 40(sp)
  ld s5, 48(sp)
  addi sp, sp, 64
  ret
.endm

#endif /* __ASSEMBLER__ */
#endif
