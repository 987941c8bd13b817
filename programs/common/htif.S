/* htif.S - Host-Target Interface: exit and the syscall proxy (write).
 * tohost/fromhost live in the .tohost section; the host finds them by symbol.
 * These routines use physical addresses: call them from M-mode (MPRV = 0)
 * or with an identity mapping. */
#include "encoding.h"

    .option norelax

    .section .tohost, "aw", @progbits
    .align 6
    .globl tohost
tohost:   .dword 0
    .align 6
    .globl fromhost
fromhost: .dword 0

    .bss
    .align 6
magic_mem: .space 64

    .text
/* void htif_exit(long code): tohost = (code << 1) | 1, forever */
    .globl htif_exit
htif_exit:
    slli    a0, a0, 1
    ori     a0, a0, 1
    la      t0, tohost
1:  sd      a0, 0(t0)
    j       1b

/* long htif_syscall(long which, long arg0, long arg1, long arg2) */
    .globl htif_syscall
htif_syscall:
    la      t0, magic_mem
    sd      a0, 0(t0)
    sd      a1, 8(t0)
    sd      a2, 16(t0)
    sd      a3, 24(t0)
    sd      zero, 32(t0)
    sd      zero, 40(t0)
    sd      zero, 48(t0)
    sd      zero, 56(t0)
    fence   rw, rw
    la      t1, tohost
    sd      t0, 0(t1)
    la      t2, fromhost
1:  ld      t3, 0(t2)
    beqz    t3, 1b
    sd      zero, 0(t2)
    fence   rw, rw
    ld      a0, 0(t0)
    ret

/* long htif_write(const void *buf, size_t len): write(1, buf, len) */
    .globl htif_write
htif_write:
    mv      a3, a1
    mv      a2, a0
    li      a1, 1
    li      a0, SYS_write
    j       htif_syscall

/* long htif_puts(const char *s) */
    .globl htif_puts
htif_puts:
    mv      t0, a0
1:  lbu     t1, 0(t0)
    beqz    t1, 2f
    addi    t0, t0, 1
    j       1b
2:  sub     a1, t0, a0
    beqz    a1, 3f
    j       htif_write
3:  li      a0, 0
    ret
