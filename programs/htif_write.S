/* htif_write - prints one line through the HTIF syscall proxy
 * (SYS_write to fd 1) and checks the returned byte count. */
#include "test_macros.h"

    .section .rodata
msg:    .ascii "Hello from hartscope through HTIF!\n"
msg_end:
    .equ MSG_LEN, msg_end - msg

    .text
    .globl main
main:
    la      a0, msg
    li      a1, MSG_LEN
    call    htif_write
    CHECK_EQ 1, a0, MSG_LEN
    /* a zero-length write returns 0 */
    la      a0, msg
    li      a1, 0
    call    htif_write
    CHECK_EQ 2, a0, 0
    TEST_PASS
