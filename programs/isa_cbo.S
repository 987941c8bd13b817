/* isa_cbo - Zicbom and Zicboz: cbo.clean, cbo.flush, cbo.inval and cbo.zero in M-mode (on
 * RAM at aligned and unaligned addresses, on the boot ROM and on nothing: store access
 * faults, with rs1 or the block's first byte in mtval), then in S-mode and U-mode under
 * seven menvcfg/senvcfg settings (CBIE 00/01/11 and the reserved 10, CBCFE, CBZE: enabled,
 * or illegal instruction) on RAM that PMP makes read-write, read-only and inaccessible. A
 * handler skips what traps; ecall from S or U returns to M. It always exits 0: the tests
 * diff its commit log against Spike's with the same ISA string (with the extensions off,
 * every cbo.* is illegal and menvcfg/senvcfg keep no CMO bits).
 *
 * Its own start-up, as isa_probe's; cbo.* under .option arch.
 */
#include "encoding.h"

    .option norvc
    .option norelax
    .option arch, +zicbom, +zicboz

.macro CBO_ALL reg
    cbo.clean   (\reg)
    cbo.flush   (\reg)
    cbo.inval   (\reg)
    cbo.zero    (\reg)
.endm

    .section .text.init, "ax", @progbits
    .globl _start
_start:
    la      t0, trap
    csrw    mtvec, t0
    csrr    a0, misa
    la      s0, buf

    /* M-mode: RAM, aligned and not */
    addi    a0, s0, 8
    CBO_ALL a0
    ld      a1, 0(s0)
    ld      a1, 56(s0)
    ld      a1, 64(s0)
    addi    a0, s0, 127
    cbo.zero (a0)
    ld      a1, 64(s0)
    ld      a1, 120(s0)
    /* the boot ROM and nothing */
    li      a0, 0x1238
    CBO_ALL a0
    li      a0, 0x238
    CBO_ALL a0

    /* PMP: [0, buf+128) RWX, [buf+128, buf+192) R, [buf+192, buf+256) none, the rest RWX */
    addi    t0, s0, 128
    srli    t0, t0, 2
    csrw    pmpaddr0, t0
    addi    t0, s0, 192
    srli    t0, t0, 2
    csrw    pmpaddr1, t0
    addi    t0, s0, 256
    srli    t0, t0, 2
    csrw    pmpaddr2, t0
    li      t0, -1
    csrw    pmpaddr3, t0
    li      t0, 0x0f08090f
    csrw    pmpcfg0, t0

    /* menvcfg, senvcfg pairs */
    la      s1, settings
    la      s2, settings_end
1:  ld      t0, 0(s1)
    csrw    menvcfg, t0
    csrr    a1, menvcfg
    ld      t0, 8(s1)
    csrw    senvcfg, t0
    csrr    a1, senvcfg
    li      a2, 1           /* S */
    jal     ra, lower
    li      a2, 0           /* U */
    jal     ra, lower
    addi    s1, s1, 16
    bltu    s1, s2, 1b

    /* exit 0 through HTIF */
    li      t0, 1
    la      t1, tohost
2:  sd      t0, 0(t1)
    j       2b

/* Run `tests` in privilege a2 (0 U, 1 S); its ecall comes back to ra. */
lower:
    mv      s11, ra
    li      t0, 0x1800
    csrc    mstatus, t0
    slli    t0, a2, 11
    csrs    mstatus, t0
    la      t0, tests
    csrw    mepc, t0
    mret

tests:
    addi    a0, s0, 16
    CBO_ALL a0
    addi    a0, s0, 132     /* read-only */
    CBO_ALL a0
    addi    a0, s0, 200     /* inaccessible */
    CBO_ALL a0
    ld      a1, 0(s0)
    ecall

/* ecall from S or U: back to M at s11. Anything else: skip the instruction. */
    .balign 4
trap:
    csrr    t6, mcause
    csrr    t5, mtval
    li      t4, 8
    beq     t6, t4, 1f
    li      t4, 9
    beq     t6, t4, 1f
    csrr    t6, mepc
    addi    t6, t6, 4
    csrw    mepc, t6
    mret
1:  jr      s11

    .data
    .balign 8
settings:
    .dword  0x00, 0x00
    .dword  0xf0, 0x00
    .dword  0xf0, 0xf0
    .dword  0x10, 0x10      /* CBIE = 01: inval flushes */
    .dword  0x20, 0x20      /* CBIE = 10: reserved, reads 00 */
    .dword  0x40, 0x80
    .dword  0x80, 0xc0
    .dword  0x30, 0x10
settings_end:
    .balign 64
buf:
    .fill   256, 1, 0xa5

    .section .tohost, "aw", @progbits
    .align 6
    .globl tohost
tohost:   .dword 0
    .align 6
    .globl fromhost
fromhost: .dword 0
