/* finisher - hartscope / QEMU virt only (NOT Spike: Spike has no test
 * finisher and takes an access fault): prints a line through HTIF, then ends
 * the run by writing 0x5555 (pass) to the SiFive test finisher at 0x100000.
 * hartscope-only: Spike has no test finisher.
 * Expected result: exit code 0. If the finisher is missing, the store's
 * access fault is an unexpected trap and the program exits with 255; if the
 * store has no effect, HTIF exit 3 follows. */
#include "test_macros.h"

    .section .rodata
msg:    .ascii "finisher: writing 0x5555 to the test finisher\n"
msg_end:
    .equ MSG_LEN, msg_end - msg

    .text
    .globl main
main:
    la      a0, msg
    li      a1, MSG_LEN
    call    htif_write
    li      t0, TEST_FINISHER
    li      t1, 0x5555
    sw      t1, 0(t0)
    /* not reached on a platform with the finisher */
    li      a0, 3
    j       test_fail
