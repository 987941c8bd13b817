/* ctr_trigger.S - a debug trigger's breakpoint freezes Control Transfer Records as ebreak's
 * does (sctrctl.BPFRZ freezes on any breakpoint exception): an mcontrol6 execute trigger
 * fires before `tr_hit` with BPFRZ set, M-mode recording on. The jump before it is recorded;
 * the breakpoint exception is not; FROZEN is set; nothing after is recorded until FROZEN is
 * cleared. The handler checks mcause = 3 and mtval = the trigger's address, disables the
 * trigger and returns to `tr_hit`, which then executes.
 *
 *   1-9      the breakpoint: cause, tval, epc
 *   10-19    the records and the status
 *
 * hartscope-only: Control Transfer Records (Smctr) are not implemented by Spike
 * hartscope-options: --isa rv64gc_zicntr_zihpm_smctr --ctr 0.1.4
 */
#include "test_macros.h"
#include "ctr.h"

#define TSELECT  0x7a0
#define TDATA1   0x7a1
#define TDATA2   0x7a2

  .option norvc
  .text
  .globl main
main:
  CTR_RESET
  la t0, tr_trap
  csrw mtvec, t0
  csrw TSELECT, zero
  la t0, tr_hit
  csrw TDATA2, t0
  li t0, 6                              /* mcontrol6: execute, M */
  slli t0, t0, 60
  ori t0, t0, (1 << 6) | (1 << 2)
  csrw TDATA1, t0
  li a0, CTR_M | CTR_BPFRZ
  csrw CSR_CTRCTL, a0
  csrsi mstatus, MSTATUS_MIE            /* M-mode triggers fire with MIE set */
tr_j1:
  j tr_j1t
tr_j1t:
tr_hit:
  addi s3, s3, 1                        /* the breakpoint, then this */
tr_j2:
  j tr_j2t
tr_j2t:
  csrr s4, CSR_CTRSTATUS
  li t6, CTR_FROZEN
  csrc CSR_CTRSTATUS, t6
  CTR_STOP
  csrci mstatus, MSTATUS_MIE
  la t0, trap_vector_m
  csrw mtvec, t0

  ld a0, tr_cause
  CHECK_EQ 1, a0, 3
  ld a0, tr_tval
  la a1, tr_hit
  CHECK_EQR 2, a0, a1
  ld a0, tr_epc
  CHECK_EQR 3, a0, a1
  CHECK_EQ 4, s3, 1                     /* tr_hit executed once, after the handler */

  CTR_EXPECT 10, 0, tr_j1, tr_j1t, CTR_T_DIRJMP
  CTR_EXPECT_ZERO_FROM 11, 1
  CHECK_EQ 12, s4, CTR_FROZEN | 1       /* frozen by the breakpoint, one record */
  CTR_RESET
  TEST_PASS

  .p2align 2
tr_trap:
  csrr t6, mcause
  sd t6, tr_cause, t5
  csrr t6, mtval
  sd t6, tr_tval, t5
  csrr t6, mepc
  sd t6, tr_epc, t5
  csrw TDATA1, zero
  mret

  CTR_ROUTINES

  .data
  .p2align 3
tr_cause: .dword 0
tr_tval:  .dword 0
tr_epc:   .dword 0
