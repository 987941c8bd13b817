/* crt0.S - entry, machine set-up and default trap handlers for hartscope guest programs.
 *
 * _start (M-mode, any register state except pc):
 *   - zeroes x1..x31, sets sp, gp, tp
 *   - mstatus: MIE/SIE = 0, MPRV = 0, FS = Initial; f0..f31 = +0.0, fcsr = 0
 *   - mtvec/stvec/mscratch/sscratch as described in runtime.h
 *   - medeleg = mideleg = mie = 0, satp = 0, mcounteren = scounteren = 0
 *   - CLINT mtimecmp = -1, msip = 0
 *   - PMP entry 0 = NAPOT over the whole address space, RWX (so S/U can access memory)
 *   - zeroes .bss and .tbss
 *   - calls main(); its return value is the exit code (through HTIF)
 * See runtime.h for the trap handler protocol.
 */
#include "encoding.h"
#include "runtime.h"

    .option norelax

    .section .text.init, "ax", @progbits
    .globl _start
_start:
    /* an early trap vector: any trap before set-up exits with 255 */
    la      t0, early_trap
    csrw    mtvec, t0
    li      x1, 0
    li      x2, 0
    li      x3, 0
    li      x4, 0
    li      x5, 0
    li      x6, 0
    li      x7, 0
    li      x8, 0
    li      x9, 0
    li      x10, 0
    li      x11, 0
    li      x12, 0
    li      x13, 0
    li      x14, 0
    li      x15, 0
    li      x16, 0
    li      x17, 0
    li      x18, 0
    li      x19, 0
    li      x20, 0
    li      x21, 0
    li      x22, 0
    li      x23, 0
    li      x24, 0
    li      x25, 0
    li      x26, 0
    li      x27, 0
    li      x28, 0
    li      x29, 0
    li      x30, 0
    li      x31, 0

    la      sp, __stack_top
    la      gp, __global_pointer$
    la      tp, __tls_base

    /* mstatus: everything off, FS = Initial */
    li      t0, MSTATUS_MIE | MSTATUS_SIE | MSTATUS_MPIE | MSTATUS_SPIE | MSTATUS_MPRV | MSTATUS_SUM | MSTATUS_MXR | MSTATUS_TVM | MSTATUS_TW | MSTATUS_TSR | MSTATUS_FS | MSTATUS_MPP | MSTATUS_SPP
    csrc    mstatus, t0
    li      t0, MSTATUS_FS_INITIAL
    csrs    mstatus, t0
    fcvt.d.l f0, zero
    fmv.d   f1, f0
    fmv.d   f2, f0
    fmv.d   f3, f0
    fmv.d   f4, f0
    fmv.d   f5, f0
    fmv.d   f6, f0
    fmv.d   f7, f0
    fmv.d   f8, f0
    fmv.d   f9, f0
    fmv.d   f10, f0
    fmv.d   f11, f0
    fmv.d   f12, f0
    fmv.d   f13, f0
    fmv.d   f14, f0
    fmv.d   f15, f0
    fmv.d   f16, f0
    fmv.d   f17, f0
    fmv.d   f18, f0
    fmv.d   f19, f0
    fmv.d   f20, f0
    fmv.d   f21, f0
    fmv.d   f22, f0
    fmv.d   f23, f0
    fmv.d   f24, f0
    fmv.d   f25, f0
    fmv.d   f26, f0
    fmv.d   f27, f0
    fmv.d   f28, f0
    fmv.d   f29, f0
    fmv.d   f30, f0
    fmv.d   f31, f0
    csrw    fcsr, zero
    /* back to Initial (the moves above made FS Dirty) */
    li      t0, MSTATUS_FS
    csrc    mstatus, t0
    li      t0, MSTATUS_FS_INITIAL
    csrs    mstatus, t0

    /* trap vectors and scratch registers */
    la      t0, trap_vector_m
    csrw    mtvec, t0
    la      t0, trap_frame_m
    csrw    mscratch, t0
    la      t0, trap_vector_s
    csrw    stvec, t0
    la      t0, trap_frame_s
    csrw    sscratch, t0
    csrw    medeleg, zero
    csrw    mideleg, zero
    csrw    mie, zero
    csrw    satp, zero
    csrw    mcounteren, zero
    csrw    scounteren, zero

    /* CLINT: no timer or software interrupt pending (mtimecmp resets to 0 on
       some platforms, which makes MTIP pending) */
    li      t0, CLINT_MTIMECMP
    li      t1, -1
    sd      t1, 0(t0)
    li      t0, CLINT_MSIP
    sw      zero, 0(t0)

    /* PMP entry 0: NAPOT, all addresses, RWX */
    li      t0, -1
    csrw    pmpaddr0, t0
    li      t0, PMP_NAPOT | PMP_R | PMP_W | PMP_X
    csrw    pmpcfg0, t0

    /* zero .tbss and .bss */
    la      t0, __tbss_start
    la      t1, __tbss_end
    call    zero_range
    la      t0, __bss_start
    la      t1, __bss_end
    call    zero_range

    li      a0, 0
    li      a1, 0
    li      a2, 0
    call    main
    j       __hartscope_exit

/* default exit path (C programs override it to flush their console) */
    .weak   __hartscope_exit
__hartscope_exit:
    j       htif_exit

/* zero [t0, t1), t0 and t1 8-byte aligned */
zero_range:
    bgeu    t0, t1, 2f
1:  sd      zero, 0(t0)
    addi    t0, t0, 8
    bltu    t0, t1, 1b
2:  ret

    .align 2
early_trap:
    li      a0, EXIT_UNEXPECTED_TRAP
    j       htif_exit

    .text
/* ------------------------------------------------------------------ */
/* test_pass / test_fail: used by the assembly test macros.            */
/* test_fail(a0 = code): get back to M-mode (two magic ecalls: the     */
/* first may be caught by the S handler if ecalls are delegated), print */
/* "FAIL: test <n>" and exit with the code.                            */
    .globl test_pass
test_pass:
    li      a0, 0
    j       htif_exit

    .globl test_fail
test_fail:
    li      a7, ECALL_MAGIC
    ecall
    ecall
    /* now in M-mode; make data accesses physical */
    li      t0, MSTATUS_MPRV
    csrc    mstatus, t0
    la      sp, __trap_stack_top
    la      t0, test_result
    sd      a0, 0(t0)
    mv      s0, a0
    la      a0, msg_fail
    call    htif_puts
    mv      a0, s0
    la      a1, numbuf
    call    fmt_dec
    la      a0, numbuf
    call    htif_puts
    la      a0, msg_nl
    call    htif_puts
    mv      a0, s0
    j       htif_exit

/* fmt_dec(a0 = value (unsigned), a1 = buffer of >= 21 bytes): NUL-terminated decimal */
fmt_dec:
    addi    sp, sp, -32
    mv      t0, sp
    li      t2, 10
1:  remu    t1, a0, t2
    addi    t1, t1, '0'
    sb      t1, 0(t0)
    addi    t0, t0, 1
    divu    a0, a0, t2
    bnez    a0, 1b
2:  addi    t0, t0, -1
    lbu     t1, 0(t0)
    sb      t1, 0(a1)
    addi    a1, a1, 1
    bne     t0, sp, 2b
    sb      zero, 0(a1)
    addi    sp, sp, 32
    ret

/* fmt_hex(a0 = value, a1 = buffer of >= 19 bytes): "0x" + 16 hex digits + NUL */
fmt_hex:
    li      t0, '0'
    sb      t0, 0(a1)
    li      t0, 'x'
    sb      t0, 1(a1)
    addi    a1, a1, 2
    li      t2, 60
1:  srl     t0, a0, t2
    andi    t0, t0, 15
    li      t1, 10
    blt     t0, t1, 2f
    addi    t0, t0, 'a' - '0' - 10
2:  addi    t0, t0, '0'
    sb      t0, 0(a1)
    addi    a1, a1, 1
    addi    t2, t2, -4
    bgez    t2, 1b
    sb      zero, 0(a1)
    ret

/* report_trap(a0 = prefix string, s1 = cause, s2 = epc, s3 = tval): prints a line */
report_trap:
    mv      s4, ra
    call    htif_puts
    la      a0, msg_cause
    call    htif_puts
    mv      a0, s1
    la      a1, numbuf
    call    fmt_hex
    la      a0, numbuf
    call    htif_puts
    la      a0, msg_epc
    call    htif_puts
    mv      a0, s2
    la      a1, numbuf
    call    fmt_hex
    la      a0, numbuf
    call    htif_puts
    la      a0, msg_tval
    call    htif_puts
    mv      a0, s3
    la      a1, numbuf
    call    fmt_hex
    la      a0, numbuf
    call    htif_puts
    la      a0, msg_nl
    call    htif_puts
    mv      ra, s4
    ret

/* ------------------------------------------------------------------ */
/* save/restore helpers: t0 = frame pointer                            */
.macro SAVE_REGS
    sd      x1, 1*8(t0)
    sd      x2, 2*8(t0)
    sd      x3, 3*8(t0)
    sd      x4, 4*8(t0)
    sd      x6, 6*8(t0)
    sd      x7, 7*8(t0)
    sd      x8, 8*8(t0)
    sd      x9, 9*8(t0)
    sd      x10, 10*8(t0)
    sd      x11, 11*8(t0)
    sd      x12, 12*8(t0)
    sd      x13, 13*8(t0)
    sd      x14, 14*8(t0)
    sd      x15, 15*8(t0)
    sd      x16, 16*8(t0)
    sd      x17, 17*8(t0)
    sd      x18, 18*8(t0)
    sd      x19, 19*8(t0)
    sd      x20, 20*8(t0)
    sd      x21, 21*8(t0)
    sd      x22, 22*8(t0)
    sd      x23, 23*8(t0)
    sd      x24, 24*8(t0)
    sd      x25, 25*8(t0)
    sd      x26, 26*8(t0)
    sd      x27, 27*8(t0)
    sd      x28, 28*8(t0)
    sd      x29, 29*8(t0)
    sd      x30, 30*8(t0)
    sd      x31, 31*8(t0)
.endm

.macro RESTORE_REGS
    ld      x1, 1*8(t0)
    ld      x2, 2*8(t0)
    ld      x3, 3*8(t0)
    ld      x4, 4*8(t0)
    ld      x6, 6*8(t0)
    ld      x7, 7*8(t0)
    ld      x8, 8*8(t0)
    ld      x9, 9*8(t0)
    ld      x10, 10*8(t0)
    ld      x11, 11*8(t0)
    ld      x12, 12*8(t0)
    ld      x13, 13*8(t0)
    ld      x14, 14*8(t0)
    ld      x15, 15*8(t0)
    ld      x16, 16*8(t0)
    ld      x17, 17*8(t0)
    ld      x18, 18*8(t0)
    ld      x19, 19*8(t0)
    ld      x20, 20*8(t0)
    ld      x21, 21*8(t0)
    ld      x22, 22*8(t0)
    ld      x23, 23*8(t0)
    ld      x24, 24*8(t0)
    ld      x25, 25*8(t0)
    ld      x26, 26*8(t0)
    ld      x27, 27*8(t0)
    ld      x28, 28*8(t0)
    ld      x29, 29*8(t0)
    ld      x30, 30*8(t0)
    ld      x31, 31*8(t0)
    ld      x5, 5*8(t0)
.endm

/* ------------------------------------------------------------------ */
/* M-mode trap handler                                                 */
    .align 6
    .globl trap_vector_m
trap_vector_m:
    csrrw   t0, mscratch, t0
    SAVE_REGS
    csrr    t1, mscratch
    sd      t1, 5*8(t0)
    csrw    mscratch, t0
    csrr    t1, mcause
    sd      t1, FRAME_CAUSE(t0)
    csrr    t2, mepc
    sd      t2, FRAME_EPC(t0)
    csrr    t3, mtval
    sd      t3, FRAME_TVAL(t0)
    csrr    t4, mstatus
    sd      t4, FRAME_STATUS(t0)
    mv      s0, t0
    la      sp, __trap_stack_top
    la      gp, __global_pointer$
    la      tp, __tls_base

    /* 1. magic ecall (cause 8, 9 or 11 and a7 == ECALL_MAGIC): return to M */
    bltz    t1, 2f
    li      t5, CAUSE_USER_ECALL
    beq     t1, t5, 1f
    li      t5, CAUSE_SUPERVISOR_ECALL
    beq     t1, t5, 1f
    li      t5, CAUSE_MACHINE_ECALL
    bne     t1, t5, 2f
1:  ld      t5, 17*8(s0)
    li      t6, ECALL_MAGIC_GOTO
    bne     t5, t6, 4f
    ld      t2, 16*8(s0)                /* continue in M at the address in a6 */
    addi    t2, t2, -4
4:  li      t6, ECALL_MAGIC
    beq     t5, t6, 5f
    li      t6, ECALL_MAGIC_GOTO
    bne     t5, t6, 2f
5:  addi    t2, t2, 4
    sd      t2, FRAME_EPC(s0)
    li      t5, MSTATUS_MPP
    or      t4, t4, t5
    sd      t4, FRAME_STATUS(s0)
    j       .Lrestore_m

    /* 2. hook (a trap taken while the hook runs is fatal) */
2:  ld      t5, trap_hook_m
    beqz    t5, 3f
    ld      t6, in_hook_m
    bnez    t6, .Lnested_m
    li      t6, 1
    sd      t6, in_hook_m, t0
    mv      a0, s0
    jalr    t5
    sd      zero, in_hook_m, t0
    bnez    a0, .Lrestore_m

    /* 3. armed resume */
3:  ld      t5, trap_resume_m
    ld      t1, FRAME_CAUSE(s0)
    ld      t2, FRAME_EPC(s0)
    ld      t3, FRAME_TVAL(s0)
    ld      t4, FRAME_STATUS(s0)
    sd      t1, trap_cause_m, t6
    sd      t2, trap_epc_m, t6
    sd      t3, trap_tval_m, t6
    srli    t6, t4, 11
    andi    t6, t6, 3
    sd      t6, trap_prv_m, t0
    beqz    t5, .Lunexpected_m
    sd      zero, trap_resume_m, t6
    ld      t6, trap_count_m
    addi    t6, t6, 1
    sd      t6, trap_count_m, t0
    sd      t5, FRAME_EPC(s0)
    bgez    t1, .Lrestore_m
    li      t6, MSTATUS_MPIE
    not     t6, t6
    and     t4, t4, t6
    sd      t4, FRAME_STATUS(s0)

.Lrestore_m:
    ld      t1, FRAME_EPC(s0)
    csrw    mepc, t1
    ld      t1, FRAME_STATUS(s0)
    csrw    mstatus, t1
    mv      t0, s0
    RESTORE_REGS
    mret

.Lnested_m:
    ld      t1, FRAME_CAUSE(s0)
    ld      t2, FRAME_EPC(s0)
    ld      t3, FRAME_TVAL(s0)
.Lunexpected_m:
    li      t0, MSTATUS_MPRV
    csrc    mstatus, t0
    mv      s1, t1
    mv      s2, t2
    mv      s3, t3
    la      a0, msg_unexp_m
    call    report_trap
    li      a0, EXIT_UNEXPECTED_TRAP
    j       htif_exit

/* ------------------------------------------------------------------ */
/* S-mode trap handler (used when traps are delegated)                 */
    .align 6
    .globl trap_vector_s
trap_vector_s:
    csrrw   t0, sscratch, t0
    SAVE_REGS
    csrr    t1, sscratch
    sd      t1, 5*8(t0)
    csrw    sscratch, t0
    csrr    t1, scause
    sd      t1, FRAME_CAUSE(t0)
    csrr    t2, sepc
    sd      t2, FRAME_EPC(t0)
    csrr    t3, stval
    sd      t3, FRAME_TVAL(t0)
    csrr    t4, sstatus
    sd      t4, FRAME_STATUS(t0)
    mv      s0, t0
    la      sp, __strap_stack_top
    la      gp, __global_pointer$
    la      tp, __tls_base

    /* 1. magic ecall from U or S: return to S */
    bltz    t1, 2f
    li      t5, CAUSE_USER_ECALL
    beq     t1, t5, 1f
    li      t5, CAUSE_SUPERVISOR_ECALL
    bne     t1, t5, 2f
1:  ld      t5, 17*8(s0)
    li      t6, ECALL_MAGIC
    bne     t5, t6, 2f
    addi    t2, t2, 4
    sd      t2, FRAME_EPC(s0)
    ori     t4, t4, MSTATUS_SPP
    sd      t4, FRAME_STATUS(s0)
    j       .Lrestore_s

2:  ld      t5, trap_hook_s
    beqz    t5, 3f
    ld      t6, in_hook_s
    bnez    t6, .Lnested_s
    li      t6, 1
    sd      t6, in_hook_s, t0
    mv      a0, s0
    jalr    t5
    sd      zero, in_hook_s, t0
    bnez    a0, .Lrestore_s

3:  ld      t5, trap_resume_s
    ld      t1, FRAME_CAUSE(s0)
    ld      t2, FRAME_EPC(s0)
    ld      t3, FRAME_TVAL(s0)
    ld      t4, FRAME_STATUS(s0)
    sd      t1, trap_cause_s, t6
    sd      t2, trap_epc_s, t6
    sd      t3, trap_tval_s, t6
    srli    t6, t4, 8
    andi    t6, t6, 1
    sd      t6, trap_prv_s, t0
    beqz    t5, .Lunexpected_s
    sd      zero, trap_resume_s, t6
    ld      t6, trap_count_s
    addi    t6, t6, 1
    sd      t6, trap_count_s, t0
    sd      t5, FRAME_EPC(s0)
    bgez    t1, .Lrestore_s
    andi    t4, t4, ~MSTATUS_SPIE
    sd      t4, FRAME_STATUS(s0)

.Lrestore_s:
    ld      t1, FRAME_EPC(s0)
    csrw    sepc, t1
    ld      t1, FRAME_STATUS(s0)
    csrw    sstatus, t1
    mv      t0, s0
    RESTORE_REGS
    sret

.Lnested_s:
    ld      t1, FRAME_CAUSE(s0)
    ld      t2, FRAME_EPC(s0)
    ld      t3, FRAME_TVAL(s0)
.Lunexpected_s:
    mv      s1, t1
    mv      s2, t2
    mv      s3, t3
    li      a7, ECALL_MAGIC
    ecall                       /* to M-mode */
    li      t0, MSTATUS_MPRV
    csrc    mstatus, t0
    la      sp, __trap_stack_top
    la      a0, msg_unexp_s
    call    report_trap
    li      a0, EXIT_UNEXPECTED_TRAP
    j       htif_exit

/* ------------------------------------------------------------------ */
    .section .rodata
msg_fail:    .asciz "FAIL: test "
msg_nl:      .asciz "\n"
msg_unexp_m: .asciz "unexpected M-mode trap:"
msg_unexp_s: .asciz "unexpected S-mode trap:"
msg_cause:   .asciz " cause="
msg_epc:     .asciz " epc="
msg_tval:    .asciz " tval="

    .data
    .align 3
    .globl trap_hook_m, trap_resume_m, trap_cause_m, trap_epc_m, trap_tval_m, trap_prv_m, trap_count_m
    .globl trap_hook_s, trap_resume_s, trap_cause_s, trap_epc_s, trap_tval_s, trap_prv_s, trap_count_s
    .globl test_result
trap_hook_m:   .dword 0
trap_resume_m: .dword 0
trap_cause_m:  .dword 0
trap_epc_m:    .dword 0
trap_tval_m:   .dword 0
trap_prv_m:    .dword 0
trap_count_m:  .dword 0
trap_hook_s:   .dword 0
trap_resume_s: .dword 0
trap_cause_s:  .dword 0
trap_epc_s:    .dword 0
trap_tval_s:   .dword 0
trap_prv_s:    .dword 0
trap_count_s:  .dword 0
test_result:   .dword 0
in_hook_m:     .dword 0
in_hook_s:     .dword 0

    .bss
    .align 6
    .globl trap_frame_m, trap_frame_s
trap_frame_m:  .space FRAME_SIZE
    .align 6
trap_frame_s:  .space FRAME_SIZE
numbuf:        .space 32
