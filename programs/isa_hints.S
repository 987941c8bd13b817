/* isa_hints - the hints of Zihintpause (pause), Zihintntl (ntl.p1, ntl.pall, ntl.s1, ntl.all
 * and their c.ntl forms) and Zicbop (prefetch.i, prefetch.r, prefetch.w at several offsets):
 * FENCE, ADD/C.ADD to x0 and ORI to x0 encodings, which retire and do nothing else whether
 * the extension is named or not (as on Spike). Their neighbours that are no such hint (other
 * ADD-to-x0 sources, prefetch-shaped ORIs with rs1 bits in the offset) are there too. Under a
 * handler that skips what traps (nothing should); it always exits 0: the tests diff its
 * commit log and -l trace against Spike's with the same ISA string.
 *
 * Its own start-up, as isa_probe's. Zihintntl is newer than the assembler: spelled with
 * .word/.hword; pause and prefetch under .option arch.
 */
#include "encoding.h"

    .option norvc
    .option norelax
    .option arch, +zihintpause, +zicbop

    .section .text.init, "ax", @progbits
    .globl _start
_start:
    la      t0, trap
    csrw    mtvec, t0
    la      a0, data
    li      t0, 7
    li      t1, 9

    pause
    .word   0x00200033      /* ntl.p1   (add x0, x0, x2) */
    .word   0x00300033      /* ntl.pall (add x0, x0, x3) */
    .word   0x00400033      /* ntl.s1   (add x0, x0, x4) */
    .word   0x00500033      /* ntl.all  (add x0, x0, x5) */
    .word   0x00600033      /* add x0, x0, x6: another hint, no NTL */
    .word   0x00228033      /* add x0, x5, x2: another hint, no NTL */
    .hword  0x900a          /* c.ntl.p1   (c.add x0, x2) */
    .hword  0x900e          /* c.ntl.pall (c.add x0, x3) */
    .hword  0x9012          /* c.ntl.s1   (c.add x0, x4) */
    .hword  0x9016          /* c.ntl.all  (c.add x0, x5) */
    .hword  0x901a          /* c.add x0, x6 */
    .hword  0x0001          /* c.nop: 4-byte alignment again */
    prefetch.i  0(a0)
    prefetch.r  0(a0)
    prefetch.w  0(a0)
    prefetch.i  32(a0)
    prefetch.r  -32(a0)
    prefetch.w  2016(sp)
    prefetch.r  -2048(t0)
    .word   0x00256013      /* ori x0, a0, 2: a hint, not a prefetch */
    .word   0x00456013      /* ori x0, a0, 4: the same */
    .word   0x0100000f      /* pause again, spelled as a fence */
    .word   0x0110000f      /* fence w, r: a real fence, not pause */
    addi    t0, t0, 1

    /* exit 0 through HTIF */
    li      t0, 1
    la      t1, tohost
2:  sd      t0, 0(t1)
    j       2b

/* Skip the instruction that trapped: 2 bytes when mtval's low bits are not 11. */
    .balign 4
trap:
    csrr    t6, mcause
    csrr    t5, mtval
    csrr    t6, mepc
    andi    t5, t5, 3
    addi    t6, t6, 2
    li      t4, 3
    bne     t5, t4, 1f
    addi    t6, t6, 2
1:  csrw    mepc, t6
    mret

    .data
    .balign 64
data:
    .dword  1, 2, 3, 4, 5, 6, 7, 8

    .section .tohost, "aw", @progbits
    .align 6
    .globl tohost
tohost:   .dword 0
    .align 6
    .globl fromhost
fromhost: .dword 0
