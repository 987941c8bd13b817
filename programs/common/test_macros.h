/* test_macros.h - assembler macros for self-checking hartscope test programs.
 *
 * A test program defines `main` (called by crt0 in M-mode) and ends with
 * TEST_PASS. Every check has a test number n; on mismatch the program prints
 * "FAIL: test n" through HTIF and exits with code n (see test_fail in crt0.S).
 * Test numbers must not be 0 or 255 modulo 256 (Spike truncates exit codes to
 * 8 bits; 255 is the unexpected-trap code), which the macros check at
 * assembly time. Find a test in the source with: grep -n ' n,' prog.S.
 *
 * Register use: the macros use a0-a7 and t3-t6 as scratch and for operands
 * (a0 = result in most macros, a1/a2/a3 = operands); fa0-fa3 for FP.
 */
#ifndef HARTSCOPE_TEST_MACROS_H
#define HARTSCOPE_TEST_MACROS_H

#include "encoding.h"
#include "runtime.h"

#ifdef __ASSEMBLER__

/* ---------------- basic pass/fail ---------------- */

.macro TESTNUM_OK n
  .if ((\n) & 0xff) == 0 || ((\n) & 0xff) == 0xff || (\n) <= 0
    .error "test number must not be 0 or 255 modulo 256"
  .endif
.endm

/* unconditional failure of test n */
.macro FAIL n
  TESTNUM_OK \n
  li a0, \n
  j test_fail
.endm

.macro TEST_PASS
  j test_pass
.endm

/* reg == 64-bit immediate val, else fail n (uses t6) */
.macro CHECK_EQ n, reg, val
  li t6, \val
  beq \reg, t6, .Lok\@
  FAIL \n
.Lok\@:
.endm

/* reg == sign-extended 32-bit val (uses t6) */
.macro CHECK_EQ32 n, reg, val
  li t6, \val
  addiw t6, t6, 0
  beq \reg, t6, .Lok\@
  FAIL \n
.Lok\@:
.endm

/* reg1 == reg2 */
.macro CHECK_EQR n, r1, r2
  beq \r1, \r2, .Lok\@
  FAIL \n
.Lok\@:
.endm

.macro CHECK_NER n, r1, r2
  bne \r1, \r2, .Lok\@
  FAIL \n
.Lok\@:
.endm

/* doubleword at symbol == val (uses t5, t6) */
.macro CHECK_MEM n, sym, val
  ld t5, \sym
  CHECK_EQ \n, t5, \val
.endm

/* ---------------- integer ALU ---------------- */

.macro TEST_RR n, inst, res, v1, v2
  li a1, \v1
  li a2, \v2
  \inst a0, a1, a2
  CHECK_EQ \n, a0, \res
.endm

.macro TEST_RI n, inst, res, v1, imm
  li a1, \v1
  \inst a0, a1, \imm
  CHECK_EQ \n, a0, \res
.endm

.macro TEST_RR_SRC1_EQ_DEST n, inst, res, v1, v2
  li a1, \v1
  li a2, \v2
  \inst a1, a1, a2
  CHECK_EQ \n, a1, \res
.endm

.macro TEST_RR_SRC2_EQ_DEST n, inst, res, v1, v2
  li a1, \v1
  li a2, \v2
  \inst a2, a1, a2
  CHECK_EQ \n, a2, \res
.endm

.macro TEST_RR_SRC12_EQ_DEST n, inst, res, v1
  li a1, \v1
  \inst a1, a1, a1
  CHECK_EQ \n, a1, \res
.endm

.macro TEST_RI_SRC1_EQ_DEST n, inst, res, v1, imm
  li a1, \v1
  \inst a1, a1, \imm
  CHECK_EQ \n, a1, \res
.endm

/* rd = x0: result discarded, x0 stays 0 */
.macro TEST_RR_ZERODEST n, inst, v1, v2
  li a1, \v1
  li a2, \v2
  \inst x0, a1, a2
  CHECK_EQ \n, x0, 0
.endm

.macro TEST_RI_ZERODEST n, inst, v1, imm
  li a1, \v1
  \inst x0, a1, \imm
  CHECK_EQ \n, x0, 0
.endm

.macro TEST_RR_ZEROSRC1 n, inst, res, v2
  li a2, \v2
  \inst a0, x0, a2
  CHECK_EQ \n, a0, \res
.endm

.macro TEST_RR_ZEROSRC2 n, inst, res, v1
  li a1, \v1
  \inst a0, a1, x0
  CHECK_EQ \n, a0, \res
.endm

.macro TEST_RI_ZEROSRC1 n, inst, res, imm
  \inst a0, x0, \imm
  CHECK_EQ \n, a0, \res
.endm

/* ---------------- loads and stores ---------------- */

/* load from base+off (base is a symbol) */
.macro TEST_LD n, inst, res, off, base
  la a1, \base
  \inst a0, \off(a1)
  CHECK_EQ \n, a0, \res
.endm

/* store val with stinst, read back with ldinst, expect res */
.macro TEST_ST n, ldinst, stinst, res, val, off, base
  la a1, \base
  li a2, \val
  \stinst a2, \off(a1)
  \ldinst a0, \off(a1)
  CHECK_EQ \n, a0, \res
.endm

/* ---------------- branches ---------------- */

.macro TEST_BR_TAKEN n, inst, v1, v2
  li a1, \v1
  li a2, \v2
  \inst a1, a2, .Lt\@
  FAIL \n
.Lt\@:
.endm

.macro TEST_BR_NOTTAKEN n, inst, v1, v2
  li a1, \v1
  li a2, \v2
  \inst a1, a2, .Lf\@
  j .Lok\@
.Lf\@:
  FAIL \n
.Lok\@:
.endm

/* ---------------- floating point ----------------
 * Operands and results are bit patterns. flags = expected fflags
 * (accrued flags are cleared before the operation). rm is optional. */

.macro FP_LOAD_D freg, val
  li t6, \val
  fmv.d.x \freg, t6
.endm

.macro FP_LOAD_S freg, val
  li t6, \val
  fmv.w.x \freg, t6
.endm

.macro CHECK_FFLAGS n, flags
  frflags t5
  CHECK_EQ \n, t5, \flags
.endm

.macro TEST_FD_OP2 n, inst, flags, res, v1, v2, rm
  FP_LOAD_D fa1, \v1
  FP_LOAD_D fa2, \v2
  fsflags zero
  .ifb \rm
  \inst fa0, fa1, fa2
  .else
  \inst fa0, fa1, fa2, \rm
  .endif
  fmv.x.d a0, fa0
  CHECK_EQ \n, a0, \res
  CHECK_FFLAGS \n, \flags
.endm

.macro TEST_FD_OP1 n, inst, flags, res, v1, rm
  FP_LOAD_D fa1, \v1
  fsflags zero
  .ifb \rm
  \inst fa0, fa1
  .else
  \inst fa0, fa1, \rm
  .endif
  fmv.x.d a0, fa0
  CHECK_EQ \n, a0, \res
  CHECK_FFLAGS \n, \flags
.endm

.macro TEST_FD_OP3 n, inst, flags, res, v1, v2, v3, rm
  FP_LOAD_D fa1, \v1
  FP_LOAD_D fa2, \v2
  FP_LOAD_D fa3, \v3
  fsflags zero
  .ifb \rm
  \inst fa0, fa1, fa2, fa3
  .else
  \inst fa0, fa1, fa2, fa3, \rm
  .endif
  fmv.x.d a0, fa0
  CHECK_EQ \n, a0, \res
  CHECK_FFLAGS \n, \flags
.endm

/* comparisons / fclass: integer result */
.macro TEST_FD_CMP n, inst, flags, res, v1, v2
  FP_LOAD_D fa1, \v1
  FP_LOAD_D fa2, \v2
  fsflags zero
  \inst a0, fa1, fa2
  CHECK_EQ \n, a0, \res
  CHECK_FFLAGS \n, \flags
.endm

/* fp -> int conversion (and fclass with rm empty) */
.macro TEST_FD_TOINT n, inst, flags, res, v1, rm
  FP_LOAD_D fa1, \v1
  fsflags zero
  .ifb \rm
  \inst a0, fa1
  .else
  \inst a0, fa1, \rm
  .endif
  CHECK_EQ \n, a0, \res
  CHECK_FFLAGS \n, \flags
.endm

/* int -> fp conversion */
.macro TEST_FD_FROMINT n, inst, flags, res, v1, rm
  li a1, \v1
  fsflags zero
  .ifb \rm
  \inst fa0, a1
  .else
  \inst fa0, a1, \rm
  .endif
  fmv.x.d a0, fa0
  CHECK_EQ \n, a0, \res
  CHECK_FFLAGS \n, \flags
.endm

/* single precision: results must also be NaN-boxed (upper 32 bits all ones) */
.macro CHECK_BOXED n, freg
  fmv.x.d t5, \freg
  srai t5, t5, 32
  CHECK_EQ \n, t5, -1
.endm

.macro TEST_FS_OP2 n, inst, flags, res, v1, v2, rm
  FP_LOAD_S fa1, \v1
  FP_LOAD_S fa2, \v2
  fsflags zero
  .ifb \rm
  \inst fa0, fa1, fa2
  .else
  \inst fa0, fa1, fa2, \rm
  .endif
  fmv.x.w a0, fa0
  CHECK_EQ32 \n, a0, \res
  CHECK_FFLAGS \n, \flags
  CHECK_BOXED \n, fa0
.endm

.macro TEST_FS_OP1 n, inst, flags, res, v1, rm
  FP_LOAD_S fa1, \v1
  fsflags zero
  .ifb \rm
  \inst fa0, fa1
  .else
  \inst fa0, fa1, \rm
  .endif
  fmv.x.w a0, fa0
  CHECK_EQ32 \n, a0, \res
  CHECK_FFLAGS \n, \flags
  CHECK_BOXED \n, fa0
.endm

.macro TEST_FS_OP3 n, inst, flags, res, v1, v2, v3, rm
  FP_LOAD_S fa1, \v1
  FP_LOAD_S fa2, \v2
  FP_LOAD_S fa3, \v3
  fsflags zero
  .ifb \rm
  \inst fa0, fa1, fa2, fa3
  .else
  \inst fa0, fa1, fa2, fa3, \rm
  .endif
  fmv.x.w a0, fa0
  CHECK_EQ32 \n, a0, \res
  CHECK_FFLAGS \n, \flags
  CHECK_BOXED \n, fa0
.endm

.macro TEST_FS_CMP n, inst, flags, res, v1, v2
  FP_LOAD_S fa1, \v1
  FP_LOAD_S fa2, \v2
  fsflags zero
  \inst a0, fa1, fa2
  CHECK_EQ \n, a0, \res
  CHECK_FFLAGS \n, \flags
.endm

.macro TEST_FS_TOINT n, inst, flags, res, v1, rm
  FP_LOAD_S fa1, \v1
  fsflags zero
  .ifb \rm
  \inst a0, fa1
  .else
  \inst a0, fa1, \rm
  .endif
  CHECK_EQ \n, a0, \res
  CHECK_FFLAGS \n, \flags
.endm

.macro TEST_FS_FROMINT n, inst, flags, res, v1, rm
  li a1, \v1
  fsflags zero
  .ifb \rm
  \inst fa0, a1
  .else
  \inst fa0, a1, \rm
  .endif
  fmv.x.w a0, fa0
  CHECK_EQ32 \n, a0, \res
  CHECK_FFLAGS \n, \flags
  CHECK_BOXED \n, fa0
.endm

/* fcvt.s.d: double operand, single (boxed) result */
.macro TEST_FD_TO_S n, flags, res, v1, rm
  FP_LOAD_D fa1, \v1
  fsflags zero
  fcvt.s.d fa0, fa1, \rm
  fmv.x.w a0, fa0
  CHECK_EQ32 \n, a0, \res
  CHECK_FFLAGS \n, \flags
  CHECK_BOXED \n, fa0
.endm

/* fcvt.d.s: single operand, double result */
.macro TEST_FS_TO_D n, flags, res, v1
  FP_LOAD_S fa1, \v1
  fsflags zero
  fcvt.d.s fa0, fa1
  fmv.x.d a0, fa0
  CHECK_EQ \n, a0, \res
  CHECK_FFLAGS \n, \flags
.endm

/* ---------------- traps ----------------
 * ARM_M / ARM_S: the next trap taken by the M (S) handler is recorded and
 * execution resumes at `label` in the privilege the trap came from.
 * trap_cause_x is set to -1 so that a missing trap is detected. */

.macro ARM_M label
  la t6, \label
  sd t6, trap_resume_m, t5
  li t6, -1
  sd t6, trap_cause_m, t5
.endm

.macro ARM_S label
  la t6, \label
  sd t6, trap_resume_s, t5
  li t6, -1
  sd t6, trap_cause_s, t5
.endm

.macro DISARM_M
  sd zero, trap_resume_m, t5
.endm

.macro DISARM_S
  sd zero, trap_resume_s, t5
.endm

.macro CHECK_CAUSE_M n, cause
  CHECK_MEM \n, trap_cause_m, \cause
.endm
.macro CHECK_CAUSE_S n, cause
  CHECK_MEM \n, trap_cause_s, \cause
.endm

/* tval == register */
.macro CHECK_TVAL_M n, reg
  ld t5, trap_tval_m
  CHECK_EQR \n, t5, \reg
.endm
.macro CHECK_TVAL_S n, reg
  ld t5, trap_tval_s
  CHECK_EQR \n, t5, \reg
.endm
.macro CHECK_TVAL_M_IMM n, val
  CHECK_MEM \n, trap_tval_m, \val
.endm
.macro CHECK_TVAL_S_IMM n, val
  CHECK_MEM \n, trap_tval_s, \val
.endm

/* epc == address of label */
.macro CHECK_EPC_M n, label
  ld t5, trap_epc_m
  la t4, \label
  CHECK_EQR \n, t5, t4
.endm
.macro CHECK_EPC_S n, label
  ld t5, trap_epc_s
  la t4, \label
  CHECK_EQR \n, t5, t4
.endm

.macro CHECK_PRV_M n, prv
  CHECK_MEM \n, trap_prv_m, \prv
.endm
.macro CHECK_PRV_S n, prv
  CHECK_MEM \n, trap_prv_s, \prv
.endm

/* execute the instruction(s) `insn`, which must trap to M with `cause`
 * (the trap resumes after them). */
.macro TEST_TRAP_M n, cause, insn:vararg
  ARM_M .Lr\@
  \insn
  FAIL \n
.Lr\@:
  CHECK_CAUSE_M \n, \cause
.endm

.macro TEST_TRAP_S n, cause, insn:vararg
  ARM_S .Lr\@
  \insn
  FAIL \n
.Lr\@:
  CHECK_CAUSE_S \n, \cause
.endm

/* the instruction must not trap */
.macro TEST_NOTRAP n, insn:vararg
  \insn
.endm

/* CODE_ALIGN p2: align code to 2^p2 bytes. (Under ".option norvc" gas does
 * not pad a 2-byte misalignment with .balign, so switch RVC on for it.) */
.macro CODE_ALIGN p2
  .option push
  .option rvc
  .p2align \p2
  .option pop
.endm

/* ---------------- privilege switching ----------------
 * ENTER_U / ENTER_S (from M): continue at the next instruction in U / S.
 * ENTER_M (from any mode): magic ecalls, continue after them in M.
 * S_ENTER_U (from S): sret to the next instruction in U.
 * U_ENTER_S (from U, with U-ecalls delegated to S): magic ecall to the S handler.
 * These clobber t6 (and a7 for the ecall forms). mret/sret also update
 * xIE/xPIE as usual. */

.macro ENTER_PRIV prv
  li t6, MSTATUS_MPP
  csrc mstatus, t6
  li t6, ((\prv) << 11)
  csrs mstatus, t6
  la t6, .Lenter\@
  csrw mepc, t6
  mret
.Lenter\@:
.endm

.macro ENTER_U
  ENTER_PRIV PRV_U
.endm

.macro ENTER_S
  ENTER_PRIV PRV_S
.endm

/* two ecalls: from U with U-ecalls delegated, the first one only reaches S */
.macro ENTER_M
  li a7, ECALL_MAGIC
  ecall
  ecall
.endm

.macro S_ENTER_U
  li t6, MSTATUS_SPP
  csrc sstatus, t6
  la t6, .Lenter\@
  csrw sepc, t6
  sret
.Lenter\@:
.endm

.macro U_ENTER_S
  li a7, ECALL_MAGIC
  ecall
.endm

#endif /* __ASSEMBLER__ */
#endif
