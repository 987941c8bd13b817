/* crt0_s.S - entry and trap vector for S-mode programs, which run under hartscope's built-in
 * SBI (hartscope run --sbi builtin): the Makefile links programs named sbi_* with this file
 * instead of crt0.S.
 *
 * _start (S-mode, as OpenSBI leaves it: a0 = hart id, a1 = device tree address; started any
 * other way, e.g. in M-mode by Spike's boot ROM, it prints "SKIP: ..." and exits 0):
 *   - keeps a0/a1 in boot_hartid / boot_dtb
 *   - sets sp, gp, tp; zeroes .tbss and .bss
 *   - stvec = s_trap_vector (direct), sscratch = &s_trap_frame
 *   - calls main(); exits with its return value through sbi_exit
 * s_trap_vector saves x1..x31, scause, sepc, stval and sstatus in s_trap_frame (the
 * trap_frame layout of runtime.h), calls s_trap_handler(frame) on the S trap stack, then
 * restores everything (sepc and sstatus from the frame, which the handler may change) and
 * returns with sret. The default s_trap_handler (weak) reports the trap and exits with 255.
 * A trap taken inside the handler is fatal.
 * sbi_exit(code): SBI SRST shutdown with reason 0 (code 0) or hartscope's reason
 * 0xE0000000 + code, which ends the run with exit status code. console_flush (C programs) is
 * called first when linked in.
 */
#include "encoding.h"
#include "runtime.h"

#define SBI_EXT_SRST      0x53525354
#define SBI_REASON_EXIT   0xE0000000

    .option norelax

    .section .text.init, "ax", @progbits
    .globl _start
_start:
    /* Under the built-in SBI, a1 is the device tree in RAM; Spike's boot ROM leaves 0x1020.
       Run without it (in M-mode), there is nothing to check: say so and exit 0. */
    li      t0, RAM_BASE
    bltu    a1, t0, not_under_sbi
    la      t0, boot_hartid
    sd      a0, 0(t0)
    la      t0, boot_dtb
    sd      a1, 0(t0)
    la      sp, __stack_top
    la      gp, __global_pointer$
    la      tp, __tls_base
    la      t0, s_trap_vector
    csrw    stvec, t0
    la      t0, s_trap_frame
    csrw    sscratch, t0

    la      t0, __tbss_start
    la      t1, __tbss_end
    call    zero_range_s
    la      t0, __bss_start
    la      t1, __bss_end
    call    zero_range_s

    li      a0, 0
    li      a1, 0
    li      a2, 0
    call    main
    j       sbi_exit

not_under_sbi:
    la      sp, __stack_top
    la      a0, msg_skip
    call    htif_puts
    li      a0, 0
    j       htif_exit

/* zero [t0, t1), t0 and t1 8-byte aligned */
zero_range_s:
    bgeu    t0, t1, 2f
1:  sd      zero, 0(t0)
    addi    t0, t0, 8
    bltu    t0, t1, 1b
2:  ret

    .text
/* void sbi_exit(long code) */
    .globl sbi_exit
sbi_exit:
    mv      s0, a0
    ld      t0, console_flush_ptr
    beqz    t0, 1f
    jalr    t0
1:  li      a0, 0                 /* shutdown */
    li      a1, 0                 /* no reason */
    beqz    s0, 2f
    li      a1, SBI_REASON_EXIT
    add     a1, a1, s0
    slli    a1, a1, 32            /* keep it a 32-bit value */
    srli    a1, a1, 32
2:  li      a7, SBI_EXT_SRST
    li      a6, 0
    ecall
    /* system_reset does not return; if it did, exit through HTIF */
    mv      a0, s0
    j       htif_exit

/* ------------------------------------------------------------------ */
.macro SAVE_REGS_S
    sd      x1, 1*8(t0)
    sd      x2, 2*8(t0)
    sd      x3, 3*8(t0)
    sd      x4, 4*8(t0)
    .irp n, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
    sd      x\n, \n*8(t0)
    .endr
.endm

.macro RESTORE_REGS_S
    ld      x1, 1*8(t0)
    ld      x2, 2*8(t0)
    ld      x3, 3*8(t0)
    ld      x4, 4*8(t0)
    .irp n, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
    ld      x\n, \n*8(t0)
    .endr
    ld      x5, 5*8(t0)
.endm

    .align 6
    .globl s_trap_vector
s_trap_vector:
    csrrw   t0, sscratch, t0
    SAVE_REGS_S
    csrr    t1, sscratch
    sd      t1, 5*8(t0)
    csrw    sscratch, t0
    csrr    t1, scause
    sd      t1, FRAME_CAUSE(t0)
    csrr    t1, sepc
    sd      t1, FRAME_EPC(t0)
    csrr    t1, stval
    sd      t1, FRAME_TVAL(t0)
    csrr    t1, sstatus
    sd      t1, FRAME_STATUS(t0)
    mv      s0, t0
    la      sp, __strap_stack_top
    la      gp, __global_pointer$
    la      tp, __tls_base
    ld      t1, in_s_trap
    bnez    t1, s_trap_nested
    li      t1, 1
    sd      t1, in_s_trap, t2
    mv      a0, s0
    call    s_trap_handler
    sd      zero, in_s_trap, t2
    ld      t1, FRAME_EPC(s0)
    csrw    sepc, t1
    ld      t1, FRAME_STATUS(s0)
    csrw    sstatus, t1
    mv      t0, s0
    RESTORE_REGS_S
    sret

s_trap_nested:
    li      a0, EXIT_UNEXPECTED_TRAP
    j       sbi_exit

/* the default handler: report the trap and exit with 255 */
    .weak   s_trap_handler
s_trap_handler:
    mv      s1, a0
    la      a0, msg_unexpected
    call    htif_puts
    li      a0, EXIT_UNEXPECTED_TRAP
    j       sbi_exit

    .section .rodata
msg_unexpected: .asciz "unexpected S-mode trap\n"
msg_skip:       .asciz "SKIP: an S-mode program: run it with hartscope run --sbi builtin\n"

    .data
    .align 3
    .weak   console_flush
console_flush_ptr: .dword console_flush
    .globl  boot_hartid, boot_dtb
boot_hartid: .dword 0
boot_dtb:    .dword 0
in_s_trap:   .dword 0

    .bss
    .align 6
    .globl s_trap_frame
s_trap_frame: .space FRAME_SIZE
