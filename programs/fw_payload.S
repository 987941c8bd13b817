/* fw_payload - an S-mode payload for SBI firmware: OpenSBI's fw_jump, which
 * jumps to it at 0x80200000 (`hartscope run fw_jump.elf --payload
 * fw_payload.elf`), or hartscope's built-in SBI (`--sbi builtin`). It prints a
 * line through the legacy console_putchar (EID 0x01, which every SBI version
 * has) and shuts the machine down through SRST (EID 0x53525354, FID 0,
 * type 0 shutdown, reason 0 none). Linked alone at 0x80200000 (no crt0: it is
 * entered in S-mode with a0 = hart id, a1 = the device tree).
 * hartscope-only: an S-mode payload; Spike starts programs in M-mode without SBI firmware.
 * hartscope-options: --sbi builtin
 * Expected result: the line below on the console, then exit code 0 (the
 * firmware's power-off). If SRST returns, the payload exits through a wfi loop
 * that nothing wakes (hartscope's exit status 125). */

    .section .text.init, "ax", @progbits
    .globl _start
_start:
    la      s0, msg
1:
    lbu     a0, 0(s0)
    beqz    a0, 2f
    li      a7, 0x01
    ecall
    addi    s0, s0, 1
    j       1b
2:
    li      a7, 0x53525354
    li      a6, 0
    li      a0, 0
    li      a1, 0
    ecall
3:
    wfi
    j       3b

    .section .rodata
msg:
    .asciz  "fw_payload: hello from S-mode through the SBI\n"
