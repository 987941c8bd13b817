/* ctr_m.S - Control Transfer Records in M-mode, draft v0.1.4 layout (ctr_m10.S builds the same
 * checks for the ratified 1.0 layout). Every check reads the records back through the indirect
 * interface and compares source, target, TYPE and V of each entry, and that the entries not
 * written since the last clear and those at or beyond the depth read zero.
 *
 *   1-49     discovery (DEPTH 0000/1111, every implemented field), WARL of the control and
 *            status registers, the S view of the control register, registers that do not exist
 *   50-69    filtering: one flow with every transfer type (branches taken and not, calls,
 *            jumps, co-routine swap, return, exception, interrupt, trap returns) recorded with
 *            no filter, with NTBREN, and with each *INH bit
 *   70-119   WRPTR/WRAP, depth changes (32 -> 16 without clearing, back), CLR / SCTRCLR
 *   120-159  entry registers: writes and their masks, synthesized records, *ireg4-6, entries
 *            beyond the depth, the other indirect interface
 *   160-199  RAS emulation: 20 nested calls at depth 16, returns popping, co-routine swaps,
 *            filter bits ignored, other types inhibited
 *   200-219  freeze on breakpoint (BPFRZ): the ebreak not recorded, FROZEN, recording resumes
 *   220-239  cycle counting: CCV after a control write, CC of loops of known length
 *
 * hartscope-only: Control Transfer Records (Smctr) are not implemented by Spike
 * hartscope-options: --isa rv64gc_zicntr_zihpm_smctr --ctr 0.1.4
 */
#include "test_macros.h"
#include "ctr.h"

#if CTR_LAYOUT == 10
#define DEPTHCODE(log) 0
#define ALL_ONES_CTL   0x0000ff3e00001b87
#else
#define DEPTHCODE(log) (((1 << (log)) - 1) << CTR_DEPTH_SHIFT)
#define ALL_ONES_CTL   0x0000ff7e000f1f07
#endif
#define KEEP_DEFAULT   0xff2e           /* TYPEs recorded with no filter bit set */
#define FREEZE   li t6, CTR_FROZEN; csrs CSR_CTRSTATUS, t6
#define UNFREEZE li t6, CTR_FROZEN; csrc CSR_CTRSTATUS, t6
#define FA_ROWS  16
#define BP_ROWS  5

/* FILTER_CASE n, bit: the flow with control = M | 1 << bit; bit's TYPE flips in the kept set */
.macro FILTER_CASE n, bit
  CTR_RESET
  li a0, CTR_M | (1 << (\bit))
  call flow_all
  CTR_EXPECT_TABLE \n, fa_table, FA_ROWS, KEEP_DEFAULT ^ (1 << ((\bit) - 32)), 16
.endm

  .option norvc
  .text
  .globl main
main:
  /* ================= 1. discovery and WARL ================= */
  csrw CSR_CTRCTL, zero
#if CTR_LAYOUT == 10
  csrw CSR_SCTRDEPTH, zero
  csrr a0, CSR_SCTRDEPTH
  CHECK_EQ 1, a0, 0                   /* minimum depth: 16 */
  li t0, 7
  csrw CSR_SCTRDEPTH, t0
  csrr a0, CSR_SCTRDEPTH
  CHECK_EQ 2, a0, 4                   /* maximum depth: 256 */
  li t0, 2
  csrw CSR_SCTRDEPTH, t0
  csrr a0, CSR_SCTRDEPTH
  CHECK_EQ 3, a0, 2                   /* 64 */
  li t0, 5
  csrw CSR_SCTRDEPTH, t0
  csrr a0, CSR_SCTRDEPTH
  CHECK_EQ 4, a0, 4                   /* reserved 101: more than 256, so 256 */
  csrw CSR_SCTRDEPTH, zero
  csrr a0, CSR_CTRCTL
  CHECK_EQ 5, a0, 0
#else
  csrr a0, CSR_CTRCTL
  CHECK_EQ 1, a0, 0                   /* DEPTH 0000: the minimum, 16 */
  li t0, 0xf << CTR_DEPTH_SHIFT
  csrw CSR_CTRCTL, t0
  csrr a0, CSR_CTRCTL
  CHECK_EQ 2, a0, 0xf << CTR_DEPTH_SHIFT   /* 1111: the maximum, 256 */
  li t0, 0x1 << CTR_DEPTH_SHIFT
  csrw CSR_CTRCTL, t0
  csrr a0, CSR_CTRCTL
  CHECK_EQ 3, a0, 0x1 << CTR_DEPTH_SHIFT   /* 32 */
  li t0, 0x2 << CTR_DEPTH_SHIFT
  csrw CSR_CTRCTL, t0
  csrr a0, CSR_CTRCTL
  CHECK_EQ 4, a0, 0x3 << CTR_DEPTH_SHIFT   /* not a legal code: 64 (its top bit) */
  li t0, 0x8 << CTR_DEPTH_SHIFT
  csrw CSR_CTRCTL, t0
  csrr a0, CSR_CTRCTL
  CHECK_EQ 5, a0, 0xf << CTR_DEPTH_SHIFT
  csrw CSR_CTRCTL, zero
#endif
  /* every implemented field (CLR reads 0); written and read with nothing recorded after */
  li t0, -1
  csrrw zero, CSR_CTRCTL, t0
  csrrw a0, CSR_CTRCTL, zero
  CHECK_EQ 6, a0, ALL_ONES_CTL
  /* the S view: M and MTE read 0, and S writes leave them */
  li t0, -1
  csrw CSR_CTRCTL, t0
  csrrw a0, CSR_SCTRCTL, zero
  csrrw a1, CSR_CTRCTL, zero
  CHECK_EQ 7, a0, ALL_ONES_CTL & ~(CTR_M | CTR_MTE)
  CHECK_EQ 8, a1, CTR_M | CTR_MTE
  li t0, CTR_S | CTR_STE
  csrw CSR_SCTRCTL, t0
  csrr a0, CSR_CTRCTL
  CHECK_EQ 9, a0, CTR_S | CTR_STE
  csrw CSR_CTRCTL, zero
  /* status: WRPTR bits above depth-1 read 0; WRAP (0.1.4) and FROZEN writable */
  li t0, -1
  csrw CSR_CTRSTATUS, t0
  csrr a0, CSR_CTRSTATUS
  CHECK_EQ 10, a0, CTR_FROZEN | CTR_WRAP | 0xf
  csrw CSR_CTRSTATUS, zero
  csrr a0, CSR_CTRSTATUS
  CHECK_EQ 11, a0, 0
  csrw CSR_SCTRSTATUS, t0              /* the S alias is the same register */
  csrrw a0, CSR_CTRSTATUS, zero
  CHECK_EQ 12, a0, CTR_FROZEN | CTR_WRAP | 0xf
#if CTR_LAYOUT == 10
  li t0, 4
  csrw CSR_SCTRDEPTH, t0
#else
  li t0, 0xf << CTR_DEPTH_SHIFT
  csrw CSR_CTRCTL, t0
#endif
  li t0, 0xff
  csrw CSR_CTRSTATUS, t0
  csrrw a0, CSR_CTRSTATUS, zero
  CHECK_EQ 13, a0, 0xff                /* depth 256: all eight bits */
  CTR_RESET
  CTR_DEPTH 0
  /* registers that do not exist on this hart */
  TEST_TRAP_M 14, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, CSR_VSCTRCTL
#if CTR_LAYOUT == 10
  TEST_TRAP_M 15, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, 0x383      /* no mctrstatus in 1.0 */
  TEST_TRAP_M 16, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, 0x381      /* nor mctrcontrol */
  /* mireg* on CTR select values: only siselect reaches entries in 1.0 */
  li t0, CTR_SELECT
  csrw CSR_MISELECT, t0
  TEST_TRAP_M 17, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, CSR_MIREG
  TEST_TRAP_M 18, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, CSR_MIREG3
  TEST_TRAP_M 19, CAUSE_ILLEGAL_INSTRUCTION, csrw CSR_MIREG2, zero
  TEST_TRAP_M 20, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, CSR_MIREG4
  csrw CSR_MISELECT, zero
#else
  TEST_TRAP_M 15, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, CSR_CTRCTLH
  TEST_TRAP_M 16, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, 0x34e      /* no mctrctl in 0.1.4 */
  TEST_TRAP_M 17, CAUSE_ILLEGAL_INSTRUCTION, SCTRCLR             /* nor SCTRCLR */
  TEST_TRAP_M 18, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, 0x15f      /* nor sctrdepth */
#endif

  /* ================= 2. filtering ================= */
  /* no filter bit: every type but not-taken branches */
  CTR_RESET
  li a0, CTR_M
  call flow_all
  CTR_EXPECT_TABLE 50, fa_table, FA_ROWS, KEEP_DEFAULT, 16
  CTR_EXPECT_STATUS 51, 15
  /* NTBREN opts in: all 16 rows fill the array exactly */
  FILTER_CASE 52, 36
  CTR_EXPECT_STATUS 53, CTR_WRAP
  FILTER_CASE 54, 33                  /* EXCINH */
  FILTER_CASE 55, 34                  /* INTRINH */
  FILTER_CASE 56, 35                  /* TRETINH */
  FILTER_CASE 57, 37                  /* TKBRINH */
  FILTER_CASE 58, 40                  /* INDCALLINH */
  FILTER_CASE 59, 41                  /* DIRCALLINH */
  FILTER_CASE 60, 42                  /* INDJMPINH */
  FILTER_CASE 61, 43                  /* DIRJMPINH */
  FILTER_CASE 62, 44                  /* CORSWAPINH */
  FILTER_CASE 63, 45                  /* RETINH */
  FILTER_CASE 64, 46                  /* INDLJMPINH */
  FILTER_CASE 65, 47                  /* DIRLJMPINH */
  /* all *INH bits and NTBREN: only not-taken branches */
  CTR_RESET
  li a0, CTR_M | CTR_INH_ALL | CTR_NTBREN
  call flow_all
  CTR_EXPECT_TABLE 66, fa_table, FA_ROWS, 1 << CTR_T_NTBR, 16
  /* nothing recorded in a mode that is not enabled */
  CTR_RESET
  li a0, CTR_S | CTR_U | CTR_NTBREN
  call flow_all
  CTR_EXPECT_ZERO_FROM 67, 0
  CTR_EXPECT_STATUS 68, 0

  /* ================= 3. WRPTR, WRAP, depth, clearing ================= */
  /* 20 jumps at depth 16: the oldest four overwritten, WRPTR 4, WRAP */
  CTR_RESET
  li a0, CTR_M
  call flow_jumps
  CTR_EXPECT_TABLE 70, fj_table, 20, 1 << CTR_T_DIRJMP, 16
  CTR_EXPECT_STATUS 71, CTR_WRAP | 4
  /* at depth 32 all twenty fit */
  CTR_RESET
#if CTR_LAYOUT == 10
  CTR_DEPTH 1
#endif
  li a0, CTR_M | DEPTHCODE(1)
  call flow_jumps
  CTR_EXPECT_TABLE 72, fj_table, 20, 1 << CTR_T_DIRJMP, 32
  CTR_EXPECT_STATUS 73, 20
  /* down to 16 without clearing: WRPTR keeps its low 4 bits (20 -> 4), entries at or beyond
     16 read 0, logical 0 is physical 3 (the fourth jump) */
  CTR_DEPTH 0
  CTR_EXPECT_STATUS 74, 4
  CTR_EXPECT 75, 0, fj_4, fj_t4, CTR_T_DIRJMP
  CTR_EXPECT 76, 3, fj_1, fj_t1, CTR_T_DIRJMP
  CTR_EXPECT 77, 4, fj_16, fj_t16, CTR_T_DIRJMP
  CTR_EXPECT 78, 15, fj_5, fj_t5, CTR_T_DIRJMP
  CTR_EXPECT_ZERO_FROM 79, 16
  /* back to 32: entries 16..31 are visible again (WRPTR stays 4) */
  CTR_DEPTH 1
  CTR_EXPECT_STATUS 80, 4
  CTR_EXPECT 81, 0, fj_4, fj_t4, CTR_T_DIRJMP
  CTR_EXPECT 82, 16, fj_20, fj_t20, CTR_T_DIRJMP    /* physical 19 */
  CTR_EXPECT_ZERO_FROM 83, 32
  /* clearing while frozen */
  li t0, CTR_FROZEN | 4
  csrw CSR_CTRSTATUS, t0
#if CTR_LAYOUT == 10
  SCTRCLR
  CTR_EXPECT_STATUS 84, CTR_FROZEN | 4       /* SCTRCLR leaves WRPTR and FROZEN */
#else
  li t0, CTR_CLR | DEPTHCODE(1)
  csrs CSR_CTRCTL, t0
  csrr a0, CSR_CTRCTL
  CHECK_EQ 85, a0, DEPTHCODE(1)              /* CLR reads 0 */
  CTR_EXPECT_STATUS 84, 0                    /* CLR zeroes mctrstatus: WRPTR, WRAP, FROZEN */
#endif
  CTR_EXPECT_ZERO_FROM 86, 0
  CTR_RESET
  CTR_DEPTH 0
  /* a clear while recording: the array restarts from the clear */
  CTR_RESET
  li a0, CTR_M
  call flow_clear
  CTR_EXPECT 87, 0, fc_j2, fc_t2, CTR_T_DIRJMP
  CTR_EXPECT_ZERO_FROM 88, 1

  /* ================= 4. entry registers ================= */
  /* after the NTBREN flow the array is full (WRPTR 0); WRPTR := 5 makes physical 4 (the fifth
     row, the indirect call) logical entry 0, and physical 15 (the last row) logical 5 */
  CTR_RESET
  li a0, CTR_M | CTR_NTBREN
  call flow_all
  li t0, 5
  csrw CSR_CTRSTATUS, t0
  CTR_EXPECT 120, 0, fa_c2, fa_f1, CTR_T_INDCALL
  CTR_EXPECT 121, 5, fa_irq_mret, fa_irq_at, CTR_T_TRET
  CTR_EXPECT 122, 15, fa_f1, fa_c2r, CTR_T_RET
  /* synthesize a record (2.4): WRPTR + 1, then write logical entry 0 */
  li t0, 6
  csrw CSR_CTRSTATUS, t0
  li t0, CTR_SELECT
  csrw CTR_ISELECT, t0
  la t0, synth_src
  ori t0, t0, 1
  csrw CTR_CSR(CTR_BANK, IREG), t0
  la t0, synth_dst
  ori t0, t0, 1                       /* MISP: read-only 0 without a branch predictor */
  csrw CTR_CSR(CTR_BANK, IREG2), t0
  li t0, -1
  csrw CTR_CSR(CTR_BANK, IREG3), t0
  CTR_EXPECT 123, 0, synth_src, synth_dst, 15
  csrr a0, CTR_CSR(CTR_BANK, IREG3)
  CHECK_EQ 124, a0, 0xffff800f         /* TYPE, CCV, CCE and CCM: nothing else */
  csrr a0, CTR_CSR(CTR_BANK, IREG2)
  andi a0, a0, 1
  CHECK_EQ 125, a0, 0
  CTR_EXPECT 126, 1, fa_c2, fa_f1, CTR_T_INDCALL
  /* *ireg4-6 read 0 and ignore writes */
  li t0, -1
  csrw CTR_CSR(CTR_BANK, IREG4), t0
  csrw CTR_CSR(CTR_BANK, IREG5), t0
  csrw CTR_CSR(CTR_BANK, IREG6), t0
  csrr a0, CTR_CSR(CTR_BANK, IREG4)
  CHECK_EQ 127, a0, 0
  csrr a0, CTR_CSR(CTR_BANK, IREG6)
  CHECK_EQ 128, a0, 0
  /* emulate a RAS pop (2.4): clear V of entry 0, decrement WRPTR */
  li t0, CTR_SELECT
  csrw CTR_ISELECT, t0
  li t0, 1
  csrc CTR_CSR(CTR_BANK, IREG), t0
  li t0, 5
  csrw CSR_CTRSTATUS, t0
  CTR_EXPECT 129, 0, fa_c2, fa_f1, CTR_T_INDCALL
  CTR_EXPECT_POPPED 130, 15, synth_src, synth_dst, 15
  /* writes beyond the depth are ignored */
  li t0, CTR_SELECT + 16
  csrw CTR_ISELECT, t0
  li t0, -1
  csrw CTR_CSR(CTR_BANK, IREG), t0
  csrw CTR_CSR(CTR_BANK, IREG3), t0
  CTR_EXPECT_ZERO_FROM 131, 16
  /* select values outside the CTR range are not CTR's: *iselect keeps them */
  li t0, 0x300
  csrw CTR_ISELECT, t0
  csrr a0, CTR_ISELECT
  CHECK_EQ 132, a0, 0x300
#if CTR_LAYOUT != 10
  /* the supervisor interface reaches the same entries from M-mode */
  li t0, CTR_SELECT
  csrw CSR_SISELECT, t0
  csrr a0, CSR_SIREG
  la t0, fa_c2
  ori t0, t0, 1
  CHECK_EQR 133, a0, t0
  csrr a0, CSR_SIREG5
  CHECK_EQ 134, a0, 0
#endif

  /* ================= 5. RAS emulation ================= */
  /* filter bits are ignored, branches and jumps inhibited */
  CTR_RESET
  li a0, CTR_M | CTR_RASEMU | CTR_DIRCALLINH | CTR_RETINH | CTR_NTBREN
  call flow_ras
  /* after the last return: every call popped, WRPTR back to 0 and WRAP cleared by the
     decrement from 0 */
  CTR_EXPECT_STATUS 160, 0
  li s0, 0
1:
  mv a0, s0
  call ctr_read
  andi a0, a0, 1
  beqz a0, 2f
  FAIL 161
2:
  addi s0, s0, 1
  li t0, 16
  bltu s0, t0, 1b
  CTR_EXPECT_POPPED 162, 0, ras_c15, ras_f16, CTR_T_DIRCALL /* physical 15: the 16th call */
  CTR_EXPECT_ZERO_FROM 163, 16
  /* co-routine swaps overwrite entry 0 */
  CTR_RESET
  li a0, CTR_M | CTR_RASEMU | CTR_CORSWAPINH
  call flow_swap
  CTR_EXPECT_POPPED 170, 15, co_s2, co_g2, CTR_T_CORSWAP
  CTR_EXPECT_ZERO_FROM 171, 16
  CTR_EXPECT_STATUS 172, 0

  /* ================= 6. freeze on breakpoint ================= */
  CTR_RESET
  li a0, CTR_M
  call flow_bp
  CTR_EXPECT_TABLE 200, bp_table, BP_ROWS, KEEP_DEFAULT, 16
  CTR_RESET
  li a0, CTR_M | CTR_BPFRZ
  call flow_bp
  CTR_EXPECT 201, 0, bp_j3, bp_j3t, CTR_T_DIRJMP
  CTR_EXPECT 202, 1, bp_j1, bp_j1t, CTR_T_DIRJMP
  CTR_EXPECT_ZERO_FROM 203, 2
  ld a0, bp_frozen
  CHECK_EQ 204, a0, CTR_FROZEN | 1      /* status read in the flow after the ebreak */
  /* freeze does not depend on recording: a breakpoint freezes with no mode enabled */
  CTR_RESET
  li a0, CTR_BPFRZ
  call flow_bp
  CTR_EXPECT_STATUS 205, 0              /* (the flow cleared FROZEN again) */
  ld a0, bp_frozen
  CHECK_EQ 206, a0, CTR_FROZEN

  /* ================= 7. cycle counting ================= */
  /* calls only: one instruction is one cycle without the PMU's models */
  CTR_RESET
  li a0, CTR_M | (CTR_INH_ALL & ~CTR_DIRCALLINH)
  call flow_cc
  CTR_EXPECT 220, 4, cc_c1, cc_loop, CTR_T_DIRCALL
  li a0, 4
  call ctr_read
  li t0, CTR_DATA_TYPE | CTR_DATA_CCV
  and a2, a2, t0
  CHECK_EQ 221, a2, CTR_T_DIRCALL                 /* the first record after a control write: CCV 0 */
  li a0, 3
  call ctr_read
  /* 2000 loop iterations (4000) + ret + li + jal */
  CHECK_EQ 222, a2, CTR_T_DIRCALL | CTR_DATA_CCV | (4003 << CTR_DATA_CC_SHIFT)
  li a0, 2
  call ctr_read
  /* 4000 + ret + li (lui, addiw) + jal = 4004 */
  CHECK_EQ 223, a2, CTR_T_DIRCALL | CTR_DATA_CCV | (4004 << CTR_DATA_CC_SHIFT)
  li a0, 1
  call ctr_read
  /* 6000 + 4 = 6004: CCE 1, CCM 6004 - 4096 */
  CHECK_EQ 224, a2, CTR_T_DIRCALL | CTR_DATA_CCV | (1 << 28) | ((6004 - 4096) << CTR_DATA_CC_SHIFT)
  li a0, 0
  call ctr_read
  /* 20000 + ret + jal = 20002: CCE 3 (top bit 14), CCM = bits 13:2, decoding to 20000 */
  CHECK_EQ 225, a2, CTR_T_DIRCALL | CTR_DATA_CCV | (3 << 28) | (((20002 >> 2) & 0xfff) << CTR_DATA_CC_SHIFT)
  /* cycles in a disabled mode and while frozen do not count: see ctr_s.S */

  CTR_RESET
  TEST_PASS

/* ---------------------------------------------------------------------------------------- */
/* flow_all(a0 = control): one transfer of every type, recorded with control a0 (written
   first, cleared last). */
flow_all:
  addi sp, sp, -16
  sd ra, 8(sp)
  la t0, fa_trap
  csrw mtvec, t0
  li t0, MIP_MSIP
  csrs mie, t0
  csrw CSR_CTRCTL, a0
fa_b1:
  beq zero, zero, fa_b1t
  FAIL 40
fa_b1t:
fa_b2:
  bne zero, zero, fa_b1
fa_b2n:
fa_c1:
  jal ra, fa_f1
fa_c1r:
  la a1, fa_f1
fa_c2:
  jalr ra, 0(a1)
fa_c2r:
fa_j1:
  j fa_j1t
  FAIL 41
fa_j1t:
  la a1, fa_j2t
fa_j2:
  jr a1
  FAIL 42
fa_j2t:
  la t0, fa_co
fa_s1:
  jalr ra, 0(t0)
fa_s1r:
fa_l1:
  jal a2, fa_l1t
  FAIL 43
fa_l1t:
  la a1, fa_l2t
fa_l2:
  jalr a2, 0(a1)
  FAIL 44
fa_l2t:
fa_ecall:
  ecall
fa_after_ecall:
  la t0, fa_irq_h
  csrw mtvec, t0
  li t0, CLINT_MSIP
  li t1, 1
  sw t1, 0(t0)
  csrsi mstatus, MSTATUS_MIE            /* the software interrupt is taken right after */
fa_irq_at:
  csrci mstatus, MSTATUS_MIE
  CTR_STOP
  li t0, MIP_MSIP
  csrc mie, t0
  la t0, trap_vector_m
  csrw mtvec, t0
  ld ra, 8(sp)
  addi sp, sp, 16
  ret
fa_f1:
  ret
fa_co:
  ret
  .p2align 2
fa_trap:
  csrr t6, mepc
  addi t6, t6, 4
  csrw mepc, t6
fa_trap_mret:
  mret
  .p2align 2
fa_irq_h:
  li t6, CLINT_MSIP
  sw zero, 0(t6)
fa_irq_mret:
  mret

/* flow_jumps(a0 = control): 20 direct jumps fj_i -> fj_ti */
flow_jumps:
  csrw CSR_CTRCTL, a0
  .irp i, 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20
fj_\i:
  j fj_t\i
  FAIL 45
fj_t\i:
  .endr
  CTR_STOP
  ret

/* flow_clear(a0 = control): a jump, a clear, a jump */
flow_clear:
  csrw CSR_CTRCTL, a0
fc_j1:
  j fc_t1
fc_t1:
#if CTR_LAYOUT == 10
  SCTRCLR
#else
  li t0, CTR_CLR
  csrs CSR_CTRCTL, t0
#endif
fc_j2:
  j fc_t2
fc_t2:
  CTR_STOP
  ret

/* flow_ras(a0 = control): 20 nested calls ras_ci -> ras_f(i+1); the innermost checks the
   array, and so does ras_f16 after four returns. */
flow_ras:
  addi sp, sp, -16
  sd ra, 8(sp)
  csrw CSR_CTRCTL, a0
ras_c0:
  jal ra, ras_f1
  CTR_STOP
  ld ra, 8(sp)
  addi sp, sp, 16
  ret

.macro RAS_FN i, next
ras_f\i:
  addi sp, sp, -16
  sd ra, 0(sp)
  beq zero, zero, 1f                   /* not recorded under RASEMU, even with NTBREN */
1:
  bne zero, zero, 1b
  j 2f
2:
ras_c\i:
  jal ra, ras_f\next
  .if \i == 16
  FREEZE
  call ras_check_mid
  UNFREEZE
  .endif
  ld ra, 0(sp)
  addi sp, sp, 16
  ret
.endm
  RAS_FN 1, 2
  RAS_FN 2, 3
  RAS_FN 3, 4
  RAS_FN 4, 5
  RAS_FN 5, 6
  RAS_FN 6, 7
  RAS_FN 7, 8
  RAS_FN 8, 9
  RAS_FN 9, 10
  RAS_FN 10, 11
  RAS_FN 11, 12
  RAS_FN 12, 13
  RAS_FN 13, 14
  RAS_FN 14, 15
  RAS_FN 15, 16
  RAS_FN 16, 17
  RAS_FN 17, 18
  RAS_FN 18, 19
  RAS_FN 19, 20
ras_f20:
  FREEZE
  addi sp, sp, -16
  sd ra, 0(sp)
  call ras_check_bottom
  ld ra, 0(sp)
  addi sp, sp, 16
  UNFREEZE
  ret

/* 20 calls at depth 16: the 16 youngest, WRPTR 20 mod 16, WRAP (0.1.4) */
ras_check_bottom:
  addi sp, sp, -16
  sd ra, 0(sp)
  CTR_EXPECT_TABLE 164, ras_table, 20, 1 << CTR_T_DIRCALL, 16
  CTR_EXPECT_STATUS 165, CTR_FROZEN | CTR_WRAP | 4
  ld ra, 0(sp)
  addi sp, sp, 16
  ret

/* after four returns: calls 1..16 valid at logical 11..0 (read as 12 valid entries with no
   zero check), the four popped calls (20, 19, 18, 17) at logical 12..15 with V = 0; WRPTR 0,
   WRAP still set */
ras_check_mid:
  addi sp, sp, -16
  sd ra, 0(sp)
  CTR_EXPECT_TABLE_TOP 166, ras_table, 16, 1 << CTR_T_DIRCALL, 12
  CTR_EXPECT_POPPED 167, 12, ras_c19, ras_f20, CTR_T_DIRCALL
  CTR_EXPECT_POPPED 168, 13, ras_c18, ras_f19, CTR_T_DIRCALL
  CTR_EXPECT_POPPED 169, 14, ras_c17, ras_f18, CTR_T_DIRCALL
  CTR_EXPECT_POPPED 173, 15, ras_c16, ras_f17, CTR_T_DIRCALL
  CTR_EXPECT_ZERO_FROM 174, 16
  CTR_EXPECT_STATUS 175, CTR_FROZEN | CTR_WRAP
  ld ra, 0(sp)
  addi sp, sp, 16
  ret

/* flow_swap(a0 = control): a call into a co-routine, two swaps, a return */
flow_swap:
  addi sp, sp, -16
  sd ra, 8(sp)
  csrw CSR_CTRCTL, a0
co_c1:
  jal ra, co_g                         /* push: co_c1 -> co_g */
co_c1r:
  FREEZE
  CTR_EXPECT 176, 0, co_s1, co_c1r, CTR_T_CORSWAP   /* the swap replaced the call */
  CTR_EXPECT_ZERO_FROM 177, 1
  CTR_EXPECT_STATUS 178, CTR_FROZEN | 1
  UNFREEZE
co_s2:
  jalr ra, 0(t0)                       /* swap back into co_g: replaces entry 0 */
co_s2r:                                /* (co_g2 returned here) */
  FREEZE
  CTR_EXPECT_POPPED 179, 15, co_s2, co_g2, CTR_T_CORSWAP   /* the return popped it */
  CTR_EXPECT_STATUS 180, CTR_FROZEN
  UNFREEZE
  CTR_STOP
  ld ra, 8(sp)
  addi sp, sp, 16
  ret
co_g:
co_s1:
  jalr t0, 0(ra)                       /* swap: back to co_c1r, t0 = co_g2 */
co_g2:
  ret                                  /* pop the swap record, to co_s2r */

/* flow_bp(a0 = control): a jump, ebreak, a jump, FROZEN read into bp_frozen and cleared, a
   jump */
flow_bp:
  la t0, bp_trap
  csrw mtvec, t0
  csrw CSR_CTRCTL, a0
bp_j1:
  j bp_j1t
bp_j1t:
bp_ebreak:
  ebreak
bp_after:
bp_j2:
  j bp_j2t
bp_j2t:
  csrr t0, CSR_CTRSTATUS
  sd t0, bp_frozen, t1
  UNFREEZE
bp_j3:
  j bp_j3t
bp_j3t:
  CTR_STOP
  la t0, trap_vector_m
  csrw mtvec, t0
  ret
  .p2align 2
bp_trap:
  csrr t6, mepc
  addi t6, t6, 4
  csrw mepc, t6
bp_mret:
  mret

/* flow_cc(a0 = control): calls around loops of known length */
flow_cc:
  addi sp, sp, -16
  sd ra, 8(sp)
  li t0, 2000
  csrw CSR_CTRCTL, a0
cc_c1:
  jal ra, cc_loop
  li t0, 2000
cc_c2:
  jal ra, cc_loop
  li t0, 3000
cc_c3:
  jal ra, cc_loop
  li t0, 10000
cc_c4:
  jal ra, cc_loop
cc_c5:
  jal ra, cc_ret
  CTR_STOP
  ld ra, 8(sp)
  addi sp, sp, 16
  ret
cc_loop:
  addi t0, t0, -1
  bnez t0, cc_loop
cc_ret:
  ret

  CTR_ROUTINES

  .section .rodata
  .p2align 3
fa_table:
  CTR_ROW fa_b1, fa_b1t, CTR_T_TKBR
  CTR_ROW fa_b2, fa_b2n, CTR_T_NTBR
  CTR_ROW fa_c1, fa_f1, CTR_T_DIRCALL
  CTR_ROW fa_f1, fa_c1r, CTR_T_RET
  CTR_ROW fa_c2, fa_f1, CTR_T_INDCALL
  CTR_ROW fa_f1, fa_c2r, CTR_T_RET
  CTR_ROW fa_j1, fa_j1t, CTR_T_DIRJMP
  CTR_ROW fa_j2, fa_j2t, CTR_T_INDJMP
  CTR_ROW fa_s1, fa_co, CTR_T_CORSWAP
  CTR_ROW fa_co, fa_s1r, CTR_T_RET
  CTR_ROW fa_l1, fa_l1t, CTR_T_DIRLJMP
  CTR_ROW fa_l2, fa_l2t, CTR_T_INDLJMP
  CTR_ROW fa_ecall, fa_trap, CTR_T_EXC
  CTR_ROW fa_trap_mret, fa_after_ecall, CTR_T_TRET
  CTR_ROW fa_irq_at, fa_irq_h, CTR_T_INTR
  CTR_ROW fa_irq_mret, fa_irq_at, CTR_T_TRET
fj_table:
  .irp i, 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20
  CTR_ROW fj_\i, fj_t\i, CTR_T_DIRJMP
  .endr
ras_table:
  CTR_ROW ras_c0, ras_f1, CTR_T_DIRCALL
  CTR_ROW ras_c1, ras_f2, CTR_T_DIRCALL
  CTR_ROW ras_c2, ras_f3, CTR_T_DIRCALL
  CTR_ROW ras_c3, ras_f4, CTR_T_DIRCALL
  CTR_ROW ras_c4, ras_f5, CTR_T_DIRCALL
  CTR_ROW ras_c5, ras_f6, CTR_T_DIRCALL
  CTR_ROW ras_c6, ras_f7, CTR_T_DIRCALL
  CTR_ROW ras_c7, ras_f8, CTR_T_DIRCALL
  CTR_ROW ras_c8, ras_f9, CTR_T_DIRCALL
  CTR_ROW ras_c9, ras_f10, CTR_T_DIRCALL
  CTR_ROW ras_c10, ras_f11, CTR_T_DIRCALL
  CTR_ROW ras_c11, ras_f12, CTR_T_DIRCALL
  CTR_ROW ras_c12, ras_f13, CTR_T_DIRCALL
  CTR_ROW ras_c13, ras_f14, CTR_T_DIRCALL
  CTR_ROW ras_c14, ras_f15, CTR_T_DIRCALL
  CTR_ROW ras_c15, ras_f16, CTR_T_DIRCALL
  CTR_ROW ras_c16, ras_f17, CTR_T_DIRCALL
  CTR_ROW ras_c17, ras_f18, CTR_T_DIRCALL
  CTR_ROW ras_c18, ras_f19, CTR_T_DIRCALL
  CTR_ROW ras_c19, ras_f20, CTR_T_DIRCALL
bp_table:
  CTR_ROW bp_j1, bp_j1t, CTR_T_DIRJMP
  CTR_ROW bp_ebreak, bp_trap, CTR_T_EXC
  CTR_ROW bp_mret, bp_after, CTR_T_TRET
  CTR_ROW bp_j2, bp_j2t, CTR_T_DIRJMP
  CTR_ROW bp_j3, bp_j3t, CTR_T_DIRJMP

  .data
  .p2align 3
bp_frozen: .dword 0
synth_src: .dword 0
synth_dst: .dword 0
