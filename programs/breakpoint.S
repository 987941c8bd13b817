/* breakpoint.S - riscv-tests' rv64mi breakpoint test, written again for Sdtrig's CSRs
 * (tselect, tdata1, tdata2: the riscv-tests source of the suite's version names the old
 * tdrselect/tdrdata registers) and Spike's rule that an M-mode trigger fires only with
 * mstatus.MIE set. mcontrol triggers in M-mode:
 *
 *   2   an execute trigger: the handler skips the instruction it fires on
 *   3   reading that instruction's word does not trap
 *   4   a load trigger: the load is skipped (its destination keeps its value)
 *   5   a store to that address does not trap
 *   6   a store trigger: the store is skipped (memory keeps its value)
 *   8   a second trigger (tselect 1) on another word's loads fires
 *   10  the first still fires, on stores
 *
 * Only the even numbers may trap (the handler checks), each with cause 3 and the address in
 * mtval; the number of breakpoints taken is checked at the end.
 */
#include "test_macros.h"

#define TSELECT  0x7a0
#define TDATA1   0x7a1
#define TDATA2   0x7a2
/* mcontrol: type 2, M, and execute / store / load */
#define MC(bits) ((2 << 60) | (1 << 6) | (bits))
#define MC_X     4
#define MC_W     2
#define MC_R     1

  .option norvc
  .text
  .globl main
main:
  la t0, bp_trap
  csrw mtvec, t0
  li s1, 0                              /* breakpoints taken */
  csrsi mstatus, MSTATUS_MIE

  li s0, 2
  csrw TSELECT, zero
  csrr a0, TSELECT
  CHECK_EQ 20, a0, 0
  la a2, 1f
  csrw TDATA2, a2
  li a0, MC(MC_X)
  csrw TDATA1, a0
  csrr a1, TDATA1
  CHECK_EQR 21, a0, a1
1:
  j bp_fail                             /* skipped by the handler */

  li s0, 3
  lw a0, (a2)

  li s0, 4
  li a0, MC(MC_R)
  csrw TDATA1, a0
  la a2, data1
  csrw TDATA2, a2
  li a3, 77
  lw a3, (a2)                           /* skipped */
  CHECK_EQ 22, a3, 77

  li s0, 5
  sw zero, (a2)

  li s0, 6
  li a0, MC(MC_W)
  csrw TDATA1, a0
  sw a2, (a2)                           /* skipped */
  li s0, 7
  lw a3, (a2)
  CHECK_EQ 23, a3, 0

  li s0, 8
  li t0, 1
  csrw TSELECT, t0
  csrr a1, TSELECT
  CHECK_EQ 24, a1, 1
  li a0, MC(MC_R)
  csrw TDATA1, a0
  la a3, data2
  csrw TDATA2, a3
  li a4, 55
  lw a4, (a3)                           /* skipped */
  CHECK_EQ 25, a4, 55

  li s0, 10
  sw a2, (a2)                           /* trigger 0 still fires: skipped */
  li s0, 11
  lw a2, (a2)
  CHECK_EQ 26, a2, 0

  csrci mstatus, MSTATUS_MIE
  csrw TDATA1, zero
  csrw TSELECT, zero
  csrw TDATA1, zero
  la t0, trap_vector_m
  csrw mtvec, t0
  CHECK_EQ 27, s1, 5
  TEST_PASS

bp_fail:
  FAIL 28

  .p2align 2
bp_trap:
  andi t0, s0, 1
  bnez t0, 1f                           /* odd: must not trap */
  csrr t0, mcause
  li t1, 3
  bne t0, t1, 1f
  addi s1, s1, 1
  csrr t0, mepc
  addi t0, t0, 4
  csrw mepc, t0
  mret
1:
  la t0, trap_vector_m
  csrw mtvec, t0
  FAIL 29

  .data
  .p2align 2
data1: .word 0
data2: .word 0
