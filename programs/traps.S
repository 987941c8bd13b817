/* traps - synchronous exceptions taken in M-mode, with mcause, mepc and mtval:
 * illegal instruction (mtval = the instruction bits, 32-bit and 16-bit,
 * including an unknown CSR and compressed FP with mstatus.FS = Off),
 * ebreak / c.ebreak (mtval = pc), ecall from M (mtval = 0), load/store address
 * misaligned for every width (mtval = address), load/store/fetch access fault
 * on non-existent addresses 0x0 and 0x40000000 (mtval = address), misaligned
 * before access fault, trap entry state (mstatus.MPP/MPIE/MIE, mepc) checked
 * from a hook, and mret restoring MIE from MPIE. */
#include "test_macros.h"

/* TRAP_INSN n, cause, tval, insn: execute insn, expect the trap with mtval == tval
 * (an immediate), mepc == the instruction */
.macro TRAP_INSN n, cause, tval, insn:vararg
  ARM_M .Lr\@
.Li\@:
  \insn
  FAIL \n
.Lr\@:
  CHECK_CAUSE_M \n, \cause
  CHECK_TVAL_M_IMM \n, \tval
  CHECK_EPC_M \n, .Li\@
  CHECK_PRV_M \n, PRV_M
.endm

/* like TRAP_INSN, with mtval == the address of the instruction */
.macro TRAP_INSN_PC n, cause, insn:vararg
  ARM_M .Lr\@
.Li\@:
  \insn
  FAIL \n
.Lr\@:
  CHECK_CAUSE_M \n, \cause
  la t4, .Li\@
  CHECK_TVAL_M \n, t4
  CHECK_EPC_M \n, .Li\@
.endm

/* MEM_TRAP n, cause, offset, insn: a1 = buffer + offset; insn uses (a1) */
.macro MEM_TRAP n, cause, insn:vararg
  ARM_M .Lr\@
.Li\@:
  \insn
  FAIL \n
.Lr\@:
  CHECK_CAUSE_M \n, \cause
  CHECK_TVAL_M \n, a1
  CHECK_EPC_M \n, .Li\@
.endm

    .text
    .globl main
main:
    /* ---------------- illegal instruction ---------------- */
    TRAP_INSN 1, CAUSE_ILLEGAL_INSTRUCTION, 0x00000000, .half 0x0000
    /* OP with an undefined funct7 (0000010) */
    TRAP_INSN 2, CAUSE_ILLEGAL_INSTRUCTION, 0x04b50533, .word 0x04b50533
    /* OP-32 with an undefined funct7 */
    TRAP_INSN 3, CAUSE_ILLEGAL_INSTRUCTION, 0x04b5053b, .word 0x04b5053b
    /* LOAD with funct3 = 7 (reserved) */
    TRAP_INSN 4, CAUSE_ILLEGAL_INSTRUCTION, 0x0005f503, .word 0x0005f503
    /* STORE with funct3 = 4 (reserved) */
    TRAP_INSN 5, CAUSE_ILLEGAL_INSTRUCTION, 0x00b5c023, .word 0x00b5c023
    /* a CSR that does not exist without the H extension (hstatus, 0x600) */
    TRAP_INSN 6, CAUSE_ILLEGAL_INSTRUCTION, 0x60002573, csrr a0, 0x600
    /* MISC-MEM with funct3 = 7 */
    TRAP_INSN 7, CAUSE_ILLEGAL_INSTRUCTION, 0x0000700f, .word 0x0000700f
    /* BRANCH with funct3 = 2 (reserved) */
    TRAP_INSN 8, CAUSE_ILLEGAL_INSTRUCTION, 0x00b52063, .word 0x00b52063
    /* JALR with funct3 != 0 */
    TRAP_INSN 9, CAUSE_ILLEGAL_INSTRUCTION, 0x00051567, .word 0x00051567
    /* SYSTEM: ecall encoding with rs1 != 0 is not ecall... use an undefined funct12 */
    TRAP_INSN 10, CAUSE_ILLEGAL_INSTRUCTION, 0x00400073, .word 0x00400073
    /* compressed FP load/store with mstatus.FS = Off: 16-bit illegal, mtval = 16 bits */
    li      t0, MSTATUS_FS
    csrc    mstatus, t0
    la      a1, buf
    TRAP_INSN 11, CAUSE_ILLEGAL_INSTRUCTION, 0x2188, c.fld fa0, 0(a1)
    TRAP_INSN 12, CAUSE_ILLEGAL_INSTRUCTION, 0xa188, c.fsd fa0, 0(a1)
    TRAP_INSN 13, CAUSE_ILLEGAL_INSTRUCTION, 0x2502, c.fldsp fa0, 0(sp)
    li      t0, MSTATUS_FS_INITIAL
    csrs    mstatus, t0
    /* the illegal instruction does not write its destination */
    li      a0, 0x77
    TRAP_INSN 14, CAUSE_ILLEGAL_INSTRUCTION, 0x04b50533, .word 0x04b50533
    CHECK_EQ 14, a0, 0x77

    /* ---------------- breakpoints and ecall ---------------- */
    TRAP_INSN_PC 15, CAUSE_BREAKPOINT, ebreak
    TRAP_INSN_PC 16, CAUSE_BREAKPOINT, c.ebreak
    .option push
    .option norvc
    TRAP_INSN_PC 17, CAUSE_BREAKPOINT, ebreak
    .option pop
    TRAP_INSN 18, CAUSE_MACHINE_ECALL, 0, ecall
    li      a7, 0
    li      a0, 5
    TRAP_INSN 19, CAUSE_MACHINE_ECALL, 0, ecall
    CHECK_EQ 19, a0, 5
    /* mcause of an exception has bit 63 clear: cause 11 exactly */
    CHECK_MEM 20, trap_cause_m, 11

    /* ---------------- misaligned loads and stores ---------------- */
    la      a2, buf
    addi    a1, a2, 1
    MEM_TRAP 21, CAUSE_MISALIGNED_LOAD, lh a0, 0(a1)
    MEM_TRAP 22, CAUSE_MISALIGNED_LOAD, lhu a0, 0(a1)
    MEM_TRAP 23, CAUSE_MISALIGNED_LOAD, lw a0, 0(a1)
    MEM_TRAP 24, CAUSE_MISALIGNED_LOAD, lwu a0, 0(a1)
    MEM_TRAP 25, CAUSE_MISALIGNED_LOAD, ld a0, 0(a1)
    MEM_TRAP 26, CAUSE_MISALIGNED_STORE, sh a0, 0(a1)
    MEM_TRAP 27, CAUSE_MISALIGNED_STORE, sw a0, 0(a1)
    MEM_TRAP 28, CAUSE_MISALIGNED_STORE, sd a0, 0(a1)
    addi    a1, a2, 2
    MEM_TRAP 29, CAUSE_MISALIGNED_LOAD, lw a0, 0(a1)
    MEM_TRAP 30, CAUSE_MISALIGNED_LOAD, ld a0, 0(a1)
    MEM_TRAP 31, CAUSE_MISALIGNED_STORE, sw a0, 0(a1)
    MEM_TRAP 32, CAUSE_MISALIGNED_STORE, sd a0, 0(a1)
    addi    a1, a2, 4
    MEM_TRAP 33, CAUSE_MISALIGNED_LOAD, ld a0, 0(a1)
    MEM_TRAP 34, CAUSE_MISALIGNED_STORE, sd a0, 0(a1)
    addi    a1, a2, 7
    MEM_TRAP 35, CAUSE_MISALIGNED_LOAD, lh a0, 0(a1)
    MEM_TRAP 36, CAUSE_MISALIGNED_STORE, sh a0, 0(a1)
    /* misaligned FP loads/stores */
    addi    a1, a2, 2
    MEM_TRAP 37, CAUSE_MISALIGNED_LOAD, flw fa0, 0(a1)
    MEM_TRAP 38, CAUSE_MISALIGNED_LOAD, fld fa0, 0(a1)
    MEM_TRAP 39, CAUSE_MISALIGNED_STORE, fsw fa0, 0(a1)
    MEM_TRAP 40, CAUSE_MISALIGNED_STORE, fsd fa0, 0(a1)
    /* address computed from base + offset: mtval is the effective address */
    la      a2, buf
    addi    a1, a2, 0x13
    MEM_TRAP 41, CAUSE_MISALIGNED_LOAD, lw a0, 0x13(a2)
    /* misaligned stores do not modify memory */
    la      a2, buf
    li      a3, 0x1111111111111111
    sd      a3, 0(a2)
    sd      a3, 8(a2)
    li      a0, -1
    addi    a1, a2, 3
    MEM_TRAP 42, CAUSE_MISALIGNED_STORE, sd a0, 0(a1)
    ld      a4, 0(a2)
    CHECK_EQ 42, a4, 0x1111111111111111
    ld      a4, 8(a2)
    CHECK_EQ 42, a4, 0x1111111111111111
    /* misaligned loads do not write rd */
    li      a0, 0x99
    MEM_TRAP 43, CAUSE_MISALIGNED_LOAD, ld a0, 0(a1)
    CHECK_EQ 43, a0, 0x99

    /* ---------------- access faults ---------------- */
    li      a1, UNMAPPED_ADDR
    MEM_TRAP 44, CAUSE_LOAD_ACCESS, ld a0, 0(a1)
    MEM_TRAP 45, CAUSE_LOAD_ACCESS, lb a0, 0(a1)
    MEM_TRAP 46, CAUSE_LOAD_ACCESS, lwu a0, 0(a1)
    MEM_TRAP 47, CAUSE_STORE_ACCESS, sd a0, 0(a1)
    MEM_TRAP 48, CAUSE_STORE_ACCESS, sb a0, 0(a1)
    MEM_TRAP 49, CAUSE_LOAD_ACCESS, fld fa0, 0(a1)
    MEM_TRAP 50, CAUSE_STORE_ACCESS, fsw fa0, 0(a1)
    li      a1, UNMAPPED_ADDR + 0x123458
    MEM_TRAP 51, CAUSE_LOAD_ACCESS, lw a0, 0(a1)
    li      a1, 0
    MEM_TRAP 52, CAUSE_LOAD_ACCESS, ld a0, 0(a1)
    MEM_TRAP 53, CAUSE_STORE_ACCESS, sw a0, 0(a1)
    /* a faulting load does not write rd */
    li      a1, UNMAPPED_ADDR
    li      a0, 0x42
    MEM_TRAP 54, CAUSE_LOAD_ACCESS, ld a0, 0(a1)
    CHECK_EQ 54, a0, 0x42
    /* misaligned has priority over access fault */
    li      a1, UNMAPPED_ADDR + 1
    MEM_TRAP 55, CAUSE_MISALIGNED_LOAD, lw a0, 0(a1)
    MEM_TRAP 56, CAUSE_MISALIGNED_STORE, sw a0, 0(a1)

    /* instruction access fault: jump to nothing; mepc = mtval = target */
    li      a1, UNMAPPED_ADDR
    ARM_M   1f
    jalr    ra, 0(a1)
    FAIL    57
1:  CHECK_CAUSE_M 57, CAUSE_FETCH_ACCESS
    CHECK_TVAL_M 58, a1
    ld      t5, trap_epc_m
    CHECK_EQR 59, t5, a1
    li      a1, 0
    ARM_M   1f
    jalr    ra, 0(a1)
    FAIL    60
1:  CHECK_CAUSE_M 60, CAUSE_FETCH_ACCESS
    CHECK_TVAL_M 61, a1
    li      a1, UNMAPPED_ADDR + 0x1002
    ARM_M   1f
    jr      a1
    FAIL    62
1:  CHECK_CAUSE_M 62, CAUSE_FETCH_ACCESS
    CHECK_TVAL_M 63, a1
    ld      t5, trap_epc_m
    CHECK_EQR 64, t5, a1

    /* ---------------- trap entry / exit state ---------------- */
    /* hook records mstatus, mepc, mcause at entry, then skips the instruction */
    la      t0, record_hook
    sd      t0, trap_hook_m, t1
    /* MIE = 1 (mie = 0, so no interrupt can be taken), MPIE = 0 */
    csrw    mie, zero
    li      t0, MSTATUS_MPIE
    csrc    mstatus, t0
    li      t0, MSTATUS_MIE
    csrs    mstatus, t0
1:  ecall
    ld      a0, rec_status
    andi    a1, a0, MSTATUS_MIE
    CHECK_EQ 65, a1, 0                  /* MIE cleared on entry */
    andi    a1, a0, MSTATUS_MPIE
    CHECK_EQ 66, a1, MSTATUS_MPIE       /* MPIE = old MIE */
    li      t0, MSTATUS_MPP
    and     a1, a0, t0
    CHECK_EQ 67, a1, MSTATUS_MPP_M      /* MPP = M */
    ld      a0, rec_epc
    la      a1, 1b
    CHECK_EQR 68, a0, a1
    csrr    a0, mstatus
    andi    a1, a0, MSTATUS_MIE
    CHECK_EQ 69, a1, MSTATUS_MIE        /* mret: MIE = MPIE = 1 */
    andi    a1, a0, MSTATUS_MPIE
    CHECK_EQ 70, a1, MSTATUS_MPIE       /* mret: MPIE = 1 */
    /* MIE = 0 before the trap: MPIE = 0 in the handler, MIE = 0 after mret */
    li      t0, MSTATUS_MIE
    csrc    mstatus, t0
    ebreak
    ld      a0, rec_status
    andi    a1, a0, MSTATUS_MPIE
    CHECK_EQ 71, a1, 0
    ld      a0, rec_cause
    CHECK_EQ 72, a0, CAUSE_BREAKPOINT
    csrr    a0, mstatus
    andi    a1, a0, MSTATUS_MIE
    CHECK_EQ 73, a1, 0
    andi    a1, a0, MSTATUS_MPIE
    CHECK_EQ 74, a1, MSTATUS_MPIE
    /* the mtval CSR read in the handler equals the value saved at entry */
    ld      a0, rec_mtval
    CHECK_EQ 75, a0, 0
    sd      zero, trap_hook_m, t1

    TEST_PASS

/* record_hook(a0 = frame): save status/epc/cause/tval, skip the instruction */
record_hook:
    ld      t0, FRAME_STATUS(a0)
    sd      t0, rec_status, t1
    ld      t0, FRAME_EPC(a0)
    sd      t0, rec_epc, t1
    ld      t0, FRAME_CAUSE(a0)
    sd      t0, rec_cause, t1
    csrr    t2, mtval
    ld      t3, FRAME_TVAL(a0)
    sub     t2, t2, t3                  /* CSR value == frame value -> 0 */
    sd      t2, rec_mtval, t1
    ld      t0, FRAME_EPC(a0)
    lhu     t1, 0(t0)
    andi    t1, t1, 3
    li      t2, 3
    addi    t0, t0, 2
    bne     t1, t2, 1f
    addi    t0, t0, 2
1:  sd      t0, FRAME_EPC(a0)
    li      a0, 1
    ret

    .data
    .align 4
rec_status: .dword 0
rec_epc:    .dword 0
rec_cause:  .dword 0
rec_mtval:  .dword 0
    .align 4
buf:        .space 64
