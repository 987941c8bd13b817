/* traps - workload: traps, privilege changes and CSR accesses, as firmware and
 * kernels make them. The loop runs in U-mode and makes system calls (ecall to
 * M), executes a CSR the hart lacks (illegal instruction, emulated by the M
 * handler: the instruction is decoded from mtval), loads misaligned words
 * (emulated with byte loads), and takes timer interrupts (the handler re-arms
 * mtimecmp); in M-mode between rounds it reads and writes counters and
 * scratch CSRs. The C trap hook of the runtime (crt0.S) saves every register,
 * as a kernel's entry does. Results are checked against the same arithmetic
 * done directly. WL_ITERS (default 25000) rounds; the default retires about
 * 4.5e7 instructions (Spike runs traps about 15 times slower than straight code). */
#include <stdio.h>
#include <stdint.h>
#include "encoding.h"
#include "runtime.h"

#ifndef WL_ITERS
#define WL_ITERS 25000
#endif

#define SYS_MIX 1
#define CLINT_MTIMECMP_ADDR 0x2004000ul
#define CLINT_MTIME_ADDR 0x200bff8ul

static volatile uint64_t ticks, emulated, misaligned;

static void arm_timer(void)
{
    volatile uint64_t *mtime = (volatile uint64_t *)CLINT_MTIME_ADDR;
    volatile uint64_t *cmp = (volatile uint64_t *)CLINT_MTIMECMP_ADDR;
    *cmp = *mtime + 40;
}

static long hook(struct trap_frame *f)
{
    uint64_t cause = f->cause;
    if (cause == (1ull << 63 | 7)) {            /* machine timer */
        ticks++;
        arm_timer();
        return 1;
    }
    if (cause == CAUSE_USER_ECALL && f->x[17] == SYS_MIX) {
        uint64_t a = f->x[10], b = f->x[11];
        f->x[10] = (a * 2654435761u) ^ (b >> 3);
        f->epc += 4;
        return 1;
    }
    if (cause == CAUSE_ILLEGAL_INSTRUCTION) {
        uint32_t insn = (uint32_t)f->tval;
        /* csrrs rd, 0x8c0, x0 (a custom user CSR the hart lacks): rd = emulated count */
        if ((insn & 0x7f) == 0x73 && (insn >> 20) == 0x8c0) {
            uint32_t rd = (insn >> 7) & 31;
            if (rd)
                f->x[rd] = ++emulated;
            f->epc += 4;
            return 1;
        }
        return 0;
    }
    if (cause == CAUSE_MISALIGNED_LOAD) {
        /* the instruction may be 2-byte aligned (the code around it is compressed) */
        const volatile uint16_t *h = (const volatile uint16_t *)f->epc;
        uint32_t insn = h[0] | (uint32_t)h[1] << 16;
        if ((insn & 0x707f) == 0x2003) {        /* lw */
            const volatile uint8_t *p = (const volatile uint8_t *)f->tval;
            uint32_t v = p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
            uint32_t rd = (insn >> 7) & 31;
            if (rd)
                f->x[rd] = (uint64_t)(int64_t)(int32_t)v;
            misaligned++;
            f->epc += 4;
            return 1;
        }
    }
    return 0;
}

static inline uint64_t sys_mix(uint64_t a, uint64_t b)
{
    register uint64_t a0 __asm__("a0") = a, a1 __asm__("a1") = b, a7 __asm__("a7") = SYS_MIX;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a7) : "memory");
    return a0;
}

static inline uint64_t custom_csr(void)
{
    uint64_t v;
    __asm__ volatile(".option push\n .option norvc\n csrr %0, 0x8c0\n .option pop"
                     : "=r"(v) :: "memory");
    return v;
}

static inline int32_t load_misaligned(const void *p)
{
    int32_t v;
    __asm__ volatile(".option push\n .option norvc\n lw %0, 0(%1)\n .option pop"
                     : "=r"(v) : "r"(p) : "memory");
    return v;
}

static inline void enter_u(void)
{
    __asm__ volatile("li t0, %0\n csrc mstatus, t0\n"
                     "la t0, 1f\n csrw mepc, t0\n mret\n1:"
                     :: "i"(MSTATUS_MPP) : "t0", "memory");
}

static inline void enter_m(void)
{
    register uint64_t a7 __asm__("a7") = ECALL_MAGIC;
    __asm__ volatile("ecall" :: "r"(a7) : "memory");
}

static uint8_t bytes[64] __attribute__((aligned(8)));

int main(void)
{
    for (int i = 0; i < 64; i++)
        bytes[i] = (uint8_t)(i * 29 + 7);
    trap_hook_m = hook;
    arm_timer();
    __asm__ volatile("csrs mie, %0" :: "r"(1ul << 7));
    uint64_t acc = 0, want = 0, counted = 0, unaligned = 0;
    for (int round = 0; round < WL_ITERS; round++) {
        enter_u();
        for (int k = 0; k < 4; k++) {
            uint64_t a = acc + k, b = (uint64_t)round << 7;
            acc += sys_mix(a, b);
            want += (a * 2654435761u) ^ (b >> 3);
        }
        counted += custom_csr();
        const uint8_t *p = bytes + 1 + (round & 31);
        unaligned += ((uintptr_t)p & 3) != 0;
        int32_t v = load_misaligned(p);
        int32_t w = (int32_t)(p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24);
        acc ^= (uint64_t)(int64_t)v;
        want ^= (uint64_t)(int64_t)w;
        enter_m();
        uint64_t c0, i0;
        __asm__ volatile("csrr %0, mcycle\n csrr %1, minstret" : "=r"(c0), "=r"(i0));
        /* mscratch holds the trap frame (crt0): swap, set bits, and put it back */
        uint64_t frame;
        __asm__ volatile("csrrw %0, mscratch, %1\n csrrs zero, mscratch, %2\n csrw mscratch, %0"
                         : "=&r"(frame) : "r"(c0), "r"(i0 & 0xff));
    }
    __asm__ volatile("csrc mie, %0" :: "r"(1ul << 7));
    trap_hook_m = 0;
    uint64_t n = WL_ITERS;
    int ok = acc == want && counted == n * (n + 1) / 2 && misaligned == unaligned && ticks > 0;
    printf("traps: rounds %lu, ticks %lu, emulated %lu, misaligned %lu: %s\n", (unsigned long)n,
           (unsigned long)ticks, (unsigned long)emulated, (unsigned long)misaligned,
           ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
