/* deleg - exception and interrupt delegation to S-mode: medeleg routes
 * ecall-from-U, illegal instruction, breakpoint, misaligned and access-fault
 * exceptions from U and S to the S handler (scause, sepc, stval, sstatus.SPP/
 * SPIE/SIE checked); delegated exceptions raised in M-mode stay in M;
 * non-delegated exceptions from U/S go to M; sret restores SIE from SPIE,
 * sets SPIE and SPP = U; mret sets MPP = U; ecall from S to M and, with
 * medeleg[9], to S; stvec direct and vectored (exceptions at the base, a
 * delegated supervisor software interrupt at base + 4 * 1). */
#include "test_macros.h"

/* DELEG_TRAP n, cause, insn: insn must trap to the S handler with cause */
.macro DELEG_TRAP n, cause, insn:vararg
  ARM_S .Lr\@
.Li\@:
  \insn
  FAIL \n
.Lr\@:
  CHECK_CAUSE_S \n, \cause
  CHECK_EPC_S \n, .Li\@
.endm

#define DELEG_MASK ((1 << CAUSE_USER_ECALL) | (1 << CAUSE_ILLEGAL_INSTRUCTION) | (1 << CAUSE_BREAKPOINT) | \
                    (1 << CAUSE_MISALIGNED_LOAD) | (1 << CAUSE_MISALIGNED_STORE) | (1 << CAUSE_LOAD_ACCESS) | \
                    (1 << CAUSE_STORE_ACCESS) | (1 << CAUSE_FETCH_ACCESS))

    .option norvc
    .text
    .globl main
main:
    li      t0, DELEG_MASK
    csrw    medeleg, t0
    csrr    a0, medeleg
    CHECK_EQR 1, a0, t0

    /* ---------------- delegated exceptions in M stay in M ---------------- */
    ARM_M   1f
2:  .word   0x04b50533                  /* illegal */
    FAIL    2
1:  CHECK_CAUSE_M 2, CAUSE_ILLEGAL_INSTRUCTION
    CHECK_EPC_M 3, 2b
    ARM_M   1f
    ebreak
    FAIL    4
1:  CHECK_CAUSE_M 4, CAUSE_BREAKPOINT

    /* ---------------- exceptions from S delegated to S ---------------- */
    ENTER_S
    la      a1, buf
    DELEG_TRAP 5, CAUSE_ILLEGAL_INSTRUCTION, .word 0x04b50533
    CHECK_TVAL_S_IMM 6, 0x04b50533
    CHECK_PRV_S 7, PRV_S
    DELEG_TRAP 8, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, mstatus
    DELEG_TRAP 9, CAUSE_BREAKPOINT, ebreak
    ld      t5, trap_epc_s
    CHECK_TVAL_S 10, t5                 /* stval = pc */
    addi    a1, a1, 1
    DELEG_TRAP 11, CAUSE_MISALIGNED_LOAD, lw a0, 0(a1)
    CHECK_TVAL_S 12, a1
    DELEG_TRAP 13, CAUSE_MISALIGNED_STORE, sd a0, 0(a1)
    CHECK_TVAL_S 14, a1
    li      a1, UNMAPPED_ADDR
    DELEG_TRAP 15, CAUSE_LOAD_ACCESS, ld a0, 0(a1)
    CHECK_TVAL_S 16, a1
    DELEG_TRAP 17, CAUSE_STORE_ACCESS, sw a0, 0(a1)
    CHECK_TVAL_S 18, a1
    ARM_S   1f
    jalr    ra, 0(a1)
    FAIL    19
1:  CHECK_CAUSE_S 19, CAUSE_FETCH_ACCESS
    CHECK_TVAL_S 20, a1
    /* the S handler state: SPP = S, SPIE = old SIE, SIE = 0 (recorded by a hook) */
    la      t0, s_record_hook
    sd      t0, trap_hook_s, t1
    csrsi   sstatus, MSTATUS_SIE        /* no S interrupt enabled in sie: nothing fires */
    ebreak
    ld      a0, rec_status
    andi    a1, a0, MSTATUS_SPP
    CHECK_EQ 21, a1, MSTATUS_SPP
    andi    a1, a0, MSTATUS_SPIE
    CHECK_EQ 22, a1, MSTATUS_SPIE
    andi    a1, a0, MSTATUS_SIE
    CHECK_EQ 23, a1, 0
    ld      a0, rec_cause
    CHECK_EQ 24, a0, CAUSE_BREAKPOINT
    /* after sret: SIE = SPIE = 1, SPIE = 1, SPP = U */
    csrr    a0, sstatus
    andi    a1, a0, MSTATUS_SIE
    CHECK_EQ 25, a1, MSTATUS_SIE
    andi    a1, a0, MSTATUS_SPIE
    CHECK_EQ 26, a1, MSTATUS_SPIE
    andi    a1, a0, MSTATUS_SPP
    CHECK_EQ 27, a1, 0
    /* SIE = 0 before the trap: SPIE = 0 in the handler */
    csrci   sstatus, MSTATUS_SIE
    ebreak
    ld      a0, rec_status
    andi    a1, a0, MSTATUS_SPIE
    CHECK_EQ 28, a1, 0
    csrr    a0, sstatus
    andi    a1, a0, MSTATUS_SIE
    CHECK_EQ 29, a1, 0
    sd      zero, trap_hook_s, t1

    /* ---------------- exceptions from U delegated to S ---------------- */
    S_ENTER_U
    li      a7, 0
    DELEG_TRAP 30, CAUSE_USER_ECALL, ecall
    CHECK_TVAL_S_IMM 31, 0
    CHECK_PRV_S 32, PRV_U
    DELEG_TRAP 33, CAUSE_ILLEGAL_INSTRUCTION, .word 0x04b5053b
    CHECK_TVAL_S_IMM 34, 0x04b5053b
    CHECK_PRV_S 35, PRV_U
    DELEG_TRAP 36, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, sstatus
    DELEG_TRAP 37, CAUSE_ILLEGAL_INSTRUCTION, sret
    DELEG_TRAP 38, CAUSE_ILLEGAL_INSTRUCTION, mret
    .option rvc
    DELEG_TRAP 39, CAUSE_BREAKPOINT, c.ebreak
    .option norvc
    la      a1, buf + 2
    DELEG_TRAP 40, CAUSE_MISALIGNED_LOAD, ld a0, 0(a1)
    CHECK_TVAL_S 41, a1
    li      a1, UNMAPPED_ADDR + 8
    DELEG_TRAP 42, CAUSE_LOAD_ACCESS, lbu a0, 0(a1)
    CHECK_TVAL_S 43, a1
    CHECK_PRV_S 44, PRV_U
    U_ENTER_S                           /* magic ecall: delegated to S, back in S */
    /* ecall from S is not delegated (medeleg[9] = 0): goes to M */
    li      a7, 0
    ARM_M   1f
2:  ecall
    FAIL    45
1:  CHECK_CAUSE_M 45, CAUSE_SUPERVISOR_ECALL
    CHECK_PRV_M 46, PRV_S
    CHECK_EPC_M 47, 2b
    ENTER_M
    /* non-delegated exception from U goes to M */
    li      t0, DELEG_MASK & ~(1 << CAUSE_ILLEGAL_INSTRUCTION)
    csrw    medeleg, t0
    ENTER_U
    ARM_M   1f
    csrr    a0, sstatus
    FAIL    48
1:  CHECK_CAUSE_M 48, CAUSE_ILLEGAL_INSTRUCTION
    CHECK_PRV_M 49, PRV_U
    ENTER_M
    li      t0, DELEG_MASK
    csrw    medeleg, t0

    /* ---------------- mret sets MPP to U; sret sets SPP to U ---------------- */
    li      t0, MSTATUS_MPP
    csrs    mstatus, t0
    la      t0, 1f
    csrw    mepc, t0
    mret                                /* to M (MPP = M) */
1:  csrr    a0, mstatus
    li      t0, MSTATUS_MPP
    and     a0, a0, t0
    CHECK_EQ 50, a0, 0                  /* MPP = U after mret */
    li      t0, MSTATUS_SPP
    csrs    mstatus, t0
    la      t0, 1f
    csrw    sepc, t0
    sret                                /* sret in M: to S (SPP = S) */
1:  /* in S now */
    csrr    a0, sstatus
    andi    a0, a0, MSTATUS_SPP
    CHECK_EQ 51, a0, 0                  /* SPP = U after sret */
    ARM_S   1f
    .word   0x04b50533
1:  CHECK_PRV_S 52, PRV_S               /* sret really went to S */
    ENTER_M

    /* ---------------- stvec vectored ---------------- */
    la      t0, s_vec_table
    ori     t0, t0, 1
    csrw    stvec, t0
    csrr    a0, stvec
    CHECK_EQR 53, a0, t0
    ENTER_S
    /* exceptions go to the base (entry 0 jumps to the runtime handler) */
    DELEG_TRAP 54, CAUSE_ILLEGAL_INSTRUCTION, .word 0x04b50533
    ld      a0, vec_hit
    CHECK_EQ 55, a0, 0
    ENTER_M
    /* delegated SSI, taken in S with SIE = 1: vector entry 1 */
    li      t0, MIP_SSIP
    csrw    mideleg, t0
    csrw    mie, t0
    ENTER_S
    ARM_S   1f
    csrsi   sstatus, MSTATUS_SIE
    csrsi   sip, MIP_SSIP
    nop
    FAIL    56
1:  CHECK_CAUSE_S 56, CAUSE_INTR | IRQ_S_SOFT
    ld      a0, vec_hit
    CHECK_EQ 57, a0, 1
    CHECK_PRV_S 58, PRV_S
    csrr    a0, sip
    andi    a0, a0, MIP_SSIP
    CHECK_EQ 59, a0, 0                  /* cleared by the vector stub */
    ENTER_M
    /* stvec direct: the same interrupt goes to the base */
    la      t0, trap_vector_s
    csrw    stvec, t0
    sd      zero, vec_hit, t1
    ENTER_S
    ARM_S   1f
    csrsi   sstatus, MSTATUS_SIE
    csrsi   sip, MIP_SSIP
    nop
    FAIL    60
1:  CHECK_CAUSE_S 60, CAUSE_INTR | IRQ_S_SOFT
    ld      a0, vec_hit
    CHECK_EQ 61, a0, 0
    csrci   sip, MIP_SSIP
    ENTER_M
    csrw    mie, zero
    csrw    mideleg, zero

    /* ---------------- ecall from S delegated to S (last: stays in S) ---------------- */
    li      t0, (1 << CAUSE_SUPERVISOR_ECALL)
    csrw    medeleg, t0
    ENTER_S
    li      a7, 0
    ARM_S   1f
2:  ecall
    FAIL    62
1:  CHECK_CAUSE_S 62, CAUSE_SUPERVISOR_ECALL
    CHECK_PRV_S 63, PRV_S
    CHECK_EPC_S 64, 2b
    /* exit from S-mode (HTIF is reachable: no translation, PMP allows it) */
    TEST_PASS

/* s_record_hook(a0 = frame): record sstatus/scause at entry, skip the instruction */
s_record_hook:
    ld      t0, FRAME_STATUS(a0)
    sd      t0, rec_status, t1
    ld      t0, FRAME_CAUSE(a0)
    sd      t0, rec_cause, t1
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

/* vectored stvec table: entry 0 = exceptions, entry 1 = SSI */
    CODE_ALIGN 6
s_vec_table:
    j       trap_vector_s
    j       s_vec_ssi
    j       s_vec_bad
    j       s_vec_bad
    j       s_vec_bad
    j       s_vec_bad
    j       s_vec_bad
    j       s_vec_bad
    j       s_vec_bad
    j       s_vec_bad
s_vec_ssi:
    csrci   sip, MIP_SSIP
    csrrw   t0, sscratch, t0
    sd      t1, FRAME_REG(6)(t0)
    sd      t2, FRAME_REG(7)(t0)
    la      t1, vec_hit
    li      t2, 1
    sd      t2, 0(t1)
    ld      t1, FRAME_REG(6)(t0)
    ld      t2, FRAME_REG(7)(t0)
    csrrw   t0, sscratch, t0
    j       trap_vector_s
s_vec_bad:
    li      a0, 99
    j       test_fail

    .data
    .balign 8
rec_status: .dword 0
rec_cause:  .dword 0
vec_hit:    .dword 0
    .balign 16
buf:        .space 64
