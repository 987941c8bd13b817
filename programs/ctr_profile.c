/* ctr_profile.c - branch-stack profiling with Control Transfer Records (Smctr/Ssctr 1.0), the
 * way Linux perf samples with `-b`: S-mode code samples with an hpm counter's overflow
 * interrupt (Sscofpmf LCOFI), CTR freezes on it (LCOFIFRZ), the handler reads the branch stack
 * through siselect/sireg*, adds every recorded edge (source -> target) to a histogram, clears
 * FROZEN and goes on. At the end the histogram is printed:
 *
 *   ctr_profile: <samples> samples of every <period> S-mode instructions, depth <depth>
 *   edge 0x<source> 0x<target> <count>
 *   ...
 *   ctr_profile: <edges> edges, <records> records
 *
 * The M-mode prologue plays firmware: it opens CTR and the indirect CSRs to S-mode
 * (mstateen0), delegates LCOFI, programs mhpmevent3 to count S-mode instructions, and serves
 * one call from S-mode (ecall, a7 = PROF_RESTART, a0 = start value): restart counter 3, OF
 * cleared, as the SBI PMU's counter_start with an initial value does. Recording: S-mode only,
 * trap returns, exceptions and interrupts inhibited (so the handler's sret and the firmware
 * call leave no trace), every branch and jump recorded.
 *
 * tests/ctr.rs runs it and checks the printed histogram against the one computed from the
 * same run's retired instruction stream.
 *
 * hartscope-only: Control Transfer Records (Smctr) and Sscofpmf are not implemented by Spike
 * hartscope-options: --isa rv64gc_zicntr_zihpm_smctr_sscofpmf --ctr 1.0
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CTR_LAYOUT 10
#include "ctr.h"
#include "runtime.h"

#define PERIOD 997                     /* S-mode instructions between samples */
#define DEPTH_LOG 1                    /* sctrdepth 1: 32 entries */
#define DEPTH (16 << DEPTH_LOG)
#define PROF_RESTART 0x50524f46        /* "PROF" */
#define HIST_SLOTS 1024
#define SCTRCLR_C() __asm__ volatile(".word 0x10400073" ::: "memory")

#define csr_read(csr) ({ uint64_t v_; __asm__ volatile("csrr %0, %1" : "=r"(v_) : "i"(csr)); v_; })
#define csr_write(csr, v) __asm__ volatile("csrw %0, %1" :: "i"(csr), "r"((uint64_t)(v)) : "memory")
#define csr_set(csr, v) __asm__ volatile("csrs %0, %1" :: "i"(csr), "r"((uint64_t)(v)) : "memory")
#define csr_clear(csr, v) __asm__ volatile("csrc %0, %1" :: "i"(csr), "r"((uint64_t)(v)) : "memory")

struct edge {
    uint64_t src, dst, count;
};

static struct edge hist[HIST_SLOTS];
static unsigned edges;
static uint64_t samples, records;

/* ---------------- the workload (S-mode): calls, returns, loops, a jump table, function
   pointers, recursion ---------------- */

__attribute__((noinline)) static unsigned fib(unsigned n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) static unsigned op_add(unsigned x) { return x + 7; }
__attribute__((noinline)) static unsigned op_mul(unsigned x) { return x * 3; }
__attribute__((noinline)) static unsigned op_xor(unsigned x) { return x ^ 0x5a5a; }
__attribute__((noinline)) static unsigned op_rot(unsigned x) { return x << 5 | x >> 27; }
static unsigned (*const ops[4])(unsigned) = {op_add, op_mul, op_xor, op_rot};

/* a tiny byte-code interpreter: a switch compiled to a jump table */
__attribute__((noinline)) static unsigned interp(const uint8_t *code, unsigned n, unsigned acc)
{
    for (unsigned pc = 0; pc < n; pc++) {
        switch (code[pc] & 7) {
        case 0: acc += code[pc]; break;
        case 1: acc ^= acc >> 3; break;
        case 2: acc = ops[acc & 3](acc); break;
        case 3: acc -= 11; break;
        case 4: acc = acc * 5 + 1; break;
        case 5: acc |= 0x100; break;
        case 6: acc &= 0xfffff; break;
        default: acc += fib(acc & 7); break;
        }
    }
    return acc;
}

__attribute__((noinline)) static void insertion_sort(uint32_t *a, unsigned n)
{
    for (unsigned i = 1; i < n; i++) {
        uint32_t v = a[i];
        unsigned j = i;
        while (j > 0 && a[j - 1] > v) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = v;
    }
}

static uint8_t code[64];
static uint32_t data[48];

__attribute__((noinline)) static unsigned work(unsigned rounds)
{
    unsigned acc = 1;
    for (unsigned r = 0; r < rounds; r++) {
        for (unsigned i = 0; i < sizeof code; i++)
            code[i] = (uint8_t)(acc * 31 + i * 17 + r);
        acc = interp(code, sizeof code, acc);
        for (unsigned i = 0; i < 48; i++)
            data[i] = (acc ^ (i * 2654435761u)) >> 7;
        insertion_sort(data, 48);
        acc += data[acc % 48] + fib(9 + (r & 3));
    }
    return acc;
}

/* ---------------- the profiler (S-mode) ---------------- */

static void hist_add(uint64_t src, uint64_t dst)
{
    unsigned h = (unsigned)((src * 0x9e3779b97f4a7c15ull ^ dst) >> 40) % HIST_SLOTS;
    while (hist[h].count && (hist[h].src != src || hist[h].dst != dst))
        h = (h + 1) % HIST_SLOTS;
    if (!hist[h].count) {
        if (++edges > HIST_SLOTS / 2)
            test_fail(4);
        hist[h].src = src;
        hist[h].dst = dst;
    }
    hist[h].count++;
}

/* the firmware call: counter 3 restarts at `start` with OF clear */
static void restart_counter(uint64_t start)
{
    register uint64_t a0 __asm__("a0") = start;
    register uint64_t a7 __asm__("a7") = PROF_RESTART;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a7) : "memory");
}

/* Called by prof_vector for every trap taken in S-mode while profiling: an LCOFI, with CTR
   frozen. */
void prof_sample(void)
{
    if (csr_read(CSR_SCAUSE) != (CAUSE_INTR | IRQ_LCOF))
        test_fail(2);
    if (!(csr_read(CSR_SCTRSTATUS) & CTR_FROZEN))
        test_fail(3);                   /* LCOFIFRZ froze the array at the trap */
    unsigned valid = 0;
    for (unsigned i = 0; i < DEPTH; i++) {
        csr_write(CSR_SISELECT, CTR_SELECT + i);
        uint64_t src = csr_read(CSR_SIREG);
        if (!(src & 1))
            continue;                   /* not written yet */
        uint64_t dst = csr_read(CSR_SIREG2);
        hist_add(src & ~1ull, dst & ~1ull);
        valid++;
    }
    if (valid == 0)
        test_fail(5);
    records += valid;
    samples++;
    csr_clear(CSR_SIP, MIP_LCOFIP);
    restart_counter(-(uint64_t)PERIOD);
}

/* The S-mode trap vector while profiling: save the caller-saved registers, prof_sample(),
   restore them, clear FROZEN last (no transfer may follow it but the sret, which TRETINH
   keeps out of the array) and return. */
__asm__(
    "  .text\n"
    "  .p2align 2\n"
    "prof_vector:\n"
    "  addi sp, sp, -128\n"
    "  sd ra, 0(sp)\n  sd t0, 8(sp)\n  sd t1, 16(sp)\n  sd t2, 24(sp)\n"
    "  sd a0, 32(sp)\n  sd a1, 40(sp)\n  sd a2, 48(sp)\n  sd a3, 56(sp)\n"
    "  sd a4, 64(sp)\n  sd a5, 72(sp)\n  sd a6, 80(sp)\n  sd a7, 88(sp)\n"
    "  sd t3, 96(sp)\n  sd t4, 104(sp)\n  sd t5, 112(sp)\n  sd t6, 120(sp)\n"
    "  call prof_sample\n"
    "  ld ra, 0(sp)\n  ld t1, 16(sp)\n  ld t2, 24(sp)\n"
    "  ld a0, 32(sp)\n  ld a1, 40(sp)\n  ld a2, 48(sp)\n  ld a3, 56(sp)\n"
    "  ld a4, 64(sp)\n  ld a5, 72(sp)\n  ld a6, 80(sp)\n  ld a7, 88(sp)\n"
    "  ld t3, 96(sp)\n  ld t4, 104(sp)\n  ld t5, 112(sp)\n  ld t6, 120(sp)\n"
    "  li t0, 1\n"
    "  slli t0, t0, 31\n"
    "  csrc 0x14f, t0\n"               /* sctrstatus.FROZEN */
    "  ld t0, 8(sp)\n"
    "  addi sp, sp, 128\n"
    "  sret\n");
extern char prof_vector[];

static volatile unsigned result;

/* S-mode: set the profiler up, run the workload, stop. */
static void profile(void)
{
    csr_write(CSR_STVEC, (uint64_t)prof_vector);
    csr_write(CSR_SCTRDEPTH, DEPTH_LOG);
    SCTRCLR_C();
    csr_write(CSR_SCTRSTATUS, 0);
    csr_write(CSR_SCTRCTL, CTR_S | CTR_LCOFIFRZ | CTR_TRETINH | CTR_EXCINH | CTR_INTRINH);
    restart_counter(-(uint64_t)PERIOD);
    csr_set(CSR_SIE, MIP_LCOFIP);
    csr_set(CSR_SSTATUS, MSTATUS_SIE);
    result = work(24);
    csr_clear(CSR_SSTATUS, MSTATUS_SIE);
    csr_clear(CSR_SIE, MIP_LCOFIP);
    csr_write(CSR_SCTRCTL, 0);
}

/* ---------------- M-mode: the firmware ---------------- */

static long firmware(struct trap_frame *f)
{
    if (f->cause != CAUSE_SUPERVISOR_ECALL || f->x[17] != PROF_RESTART)
        return 0;
    csr_write(CSR_MHPMEVENT3, HPMEVENT_INSTRUCTIONS | HPMEVENT_MINH | HPMEVENT_UINH);
    csr_write(CSR_MHPMCOUNTER3, f->x[10]);
    f->epc += 4;
    return 1;
}

static inline void enter_s(void)
{
    __asm__ volatile("li t0, %0\n csrc mstatus, t0\n li t0, %1\n csrs mstatus, t0\n"
                     "la t0, 1f\n csrw mepc, t0\n mret\n1:"
                     :: "i"(MSTATUS_MPP), "i"(MSTATUS_MPP_S) : "t0", "memory");
}

static inline void enter_m(void)
{
    register uint64_t a7 __asm__("a7") = ECALL_MAGIC;
    __asm__ volatile("ecall" :: "r"(a7) : "memory");
}

static int by_count(const void *a, const void *b)
{
    const struct edge *x = a, *y = b;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    return x->dst < y->dst ? -1 : x->dst > y->dst;
}

int main(void)
{
    csr_write(CSR_MSTATEEN0, MSTATEEN0_CTR | MSTATEEN0_CSRIND | MSTATEEN0_SE0);
    csr_set(CSR_MIDELEG, MIP_LCOFIP);
    csr_write(CSR_MCOUNTEREN, ~0u);
    trap_hook_m = firmware;

    enter_s();
    profile();
    enter_m();
    trap_hook_m = 0;

    if (samples < 100)
        return 6;
    /* the edges, most frequent first */
    static struct edge sorted[HIST_SLOTS];
    unsigned n = 0;
    uint64_t total = 0;
    for (unsigned i = 0; i < HIST_SLOTS; i++) {
        if (hist[i].count) {
            sorted[n++] = hist[i];
            total += hist[i].count;
        }
    }
    if (n != edges || total != records)
        return 7;
    qsort(sorted, n, sizeof sorted[0], by_count);
    printf("ctr_profile: %lu samples of every %u S-mode instructions, depth %u\n",
           (unsigned long)samples, PERIOD, DEPTH);
    for (unsigned i = 0; i < n; i++)
        printf("edge 0x%lx 0x%lx %lu\n", (unsigned long)sorted[i].src,
               (unsigned long)sorted[i].dst, (unsigned long)sorted[i].count);
    printf("ctr_profile: %u edges, %lu records\n", n, (unsigned long)records);
    return 0;
}
