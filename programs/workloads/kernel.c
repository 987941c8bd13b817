/* kernel - workload: a small kernel under Sv39, as an operating system on SBI
 * firmware runs. Three privilege levels:
 *   - M (the firmware): builds the page tables, delegates U system calls, page
 *     faults and the supervisor interrupts to S (medeleg/mideleg), and serves
 *     the SBI timer call as OpenSBI does without Sstc: set_timer writes
 *     mtimecmp, clears mip.STIP and enables MTI; the machine timer interrupt
 *     disables MTI and raises mip.STIP for S;
 *   - S (the kernel): runs with satp = Sv39, its own memory mapped with
 *     megapages (global, no U); takes system calls, page faults and supervisor
 *     timer interrupts from U through the runtime's S trap entry (crt0.S, all
 *     registers saved) and a C handler;
 *   - U (the process): a loop doing real work over its memory: a 512-page
 *     buffer touched one word per page, a quarter of it per pass (a TLB miss
 *     per access on a TLB of fewer than 512 entries),
 *     a 64-page buffer mapped on demand (the first touch of each page faults
 *     and the kernel zero-fills a frame and maps it; each timer tick unmaps a
 *     quarter of it and a reclaim system call every 16 passes half of it,
 *     with sfence.vma, so the faults recur; the data stays in the frames),
 *     sums over one page, and system calls.
 * The user code runs from an alias of the program image at USER_ALIAS (4 KiB
 * pages, U, text read/execute and data read/write), so the same compiled
 * function also runs in M on plain physical memory ("direct": no system calls
 * and no paging); the two results must be equal, and ticks, faults and
 * reclaims must all have happened. WL_ITERS (default 12000) passes; the
 * default retires about 2.1e8 instructions. */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include "encoding.h"
#include "runtime.h"

#ifndef WL_ITERS
#define WL_ITERS 12000
#endif

/* virtual layout */
#define USER_ALIAS  0x00400000ul     /* the program image again, for U (PA RAM_BASE) */
#define UBUF_B      0x10000000ul     /* NB pages, mapped up front */
#define UBUF_A      0x20000000ul     /* NA pages, mapped on demand */
#define KERNEL_MAP  0x80000000ul     /* = PA: KERNEL_MEGAPAGES megapages of RAM */
#define KERNEL_MEGAPAGES 8
/* physical frames (beyond the image, inside the kernel's map; RAM is zero at reset) */
#define FRAMES_B    0x80800000ul
#define FRAMES_A    0x80a00000ul
#define MODEL_B     0x80c00000ul     /* M's direct evaluation */
#define MODEL_A     0x80e00000ul
#define NB 512
#define NA 64
#define WORDS 512                    /* 64-bit words per page */

/* timer ticks between supervisor timer interrupts (mtime runs at Spike's rate:
 * 50 ticks per 5000-step quantum, and every trap ends a quantum) */
#define TICK 5000

#define SYS_MIX     1
#define SYS_RECLAIM 2
#define SYS_TICKS   3
#define SYS_EXIT    93

#define SBI_EXT_TIME 0x54494d45ul
#define ASID 1ul

#define PTE_LEAF_K  (PTE_V | PTE_R | PTE_W | PTE_X | PTE_G | PTE_A | PTE_D)
#define PTE_USER_RX (PTE_V | PTE_R | PTE_X | PTE_U | PTE_A)
#define PTE_USER_RW (PTE_V | PTE_R | PTE_W | PTE_U | PTE_A | PTE_D)

static uint64_t pt_root[512] __attribute__((aligned(4096)));
static uint64_t pt_l1_kernel[512] __attribute__((aligned(4096)));
static uint64_t pt_l1_user[512] __attribute__((aligned(4096)));
static uint64_t pt_l0_image[512] __attribute__((aligned(4096)));
static uint64_t pt_l0_b[512] __attribute__((aligned(4096)));
static uint64_t pt_l0_a[512] __attribute__((aligned(4096)));

static uint8_t user_stack[8192] __attribute__((aligned(16)));
static uint8_t kernel_stack[8192] __attribute__((aligned(16)));

extern char __data_start[], _end[], __global_pointer$[];

/* what the process sees (through its alias) and what it leaves */
struct uctx {
    uint64_t iters;
    uint64_t direct;      /* 1: M's plain evaluation (no system calls, physical buffers) */
    uint64_t a, b;        /* the buffers' addresses */
    uint64_t result;
    uint64_t ticks_seen;
};

static struct uctx ctx, model;

/* kernel state */
static volatile uint64_t ticks, faults, zero_fills, reclaimed, syscalls;
static uint8_t populated[NA];

static uint64_t pte(uint64_t pa, uint64_t flags) { return (pa >> PAGE_SHIFT) << PTE_PPN_SHIFT | flags; }
static uint64_t table(const uint64_t *t) { return pte((uint64_t)t, PTE_V); }
static uint64_t alias(const void *p) { return (uint64_t)p - RAM_BASE + USER_ALIAS; }

static uint64_t mix(uint64_t a, uint64_t b) { return (a * 0x9e3779b97f4a7c15ull) ^ (b >> 3) ^ (a >> 29); }

/* ------------------------------------------------------------ user side */

static inline uint64_t sys2(uint64_t n, uint64_t a, uint64_t b)
{
    register uint64_t a0 __asm__("a0") = a, a1 __asm__("a1") = b, a7 __asm__("a7") = n;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a7) : "memory");
    return a0;
}

/* One pass of the process's work; shared by U (paged) and M (direct). No
 * absolute addresses (no switch tables, no function pointers): it runs from
 * the alias. */
static uint64_t __attribute__((noinline)) user_pass(struct uctx *c, uint64_t it)
{
    uint64_t *a = (uint64_t *)c->a, *b = (uint64_t *)c->b;
    uint64_t acc = it;
    /* a word of every fourth page of B (all of B in four passes) */
    uint64_t off = (it * 3) & (WORDS - 1);
    for (uint64_t p = it & 3; p < NB; p += 4) {
        uint64_t *w = b + p * WORDS + off;
        uint64_t x = *w;
        *w = x + (p ^ it);
        acc += x ^ p;
    }
    /* four words of every page of A (faulting where the kernel unmapped it) */
    for (uint64_t p = 0; p < NA; p++) {
        uint64_t *w = a + p * WORDS + ((it + p) & 31) * 16;
        for (int k = 0; k < 4; k++) {
            uint64_t x = w[k];
            w[k] = x * 3 + it + k;
            acc = acc * 31 + x;
        }
    }
    /* a whole page of A */
    const uint64_t *pg = a + (it % NA) * WORDS;
    for (int i = 0; i < WORDS; i++)
        acc += pg[i] >> (i & 7);
    /* system calls */
    for (uint64_t k = 0; k < 3; k++)
        acc ^= c->direct ? mix(acc + k, it) : sys2(SYS_MIX, acc + k, it);
    if (!c->direct && (it & 15) == 15)
        sys2(SYS_RECLAIM, it >> 4, 0);
    if (!c->direct && (it & 63) == 0)
        c->ticks_seen = sys2(SYS_TICKS, 0, 0);
    return acc;
}

uint64_t user_run(struct uctx *c);
uint64_t __attribute__((noinline)) user_run(struct uctx *c)
{
    uint64_t r = 0;
    for (uint64_t it = 0; it < c->iters; it++)
        r = r * 0x100000001b3ull ^ user_pass(c, it);
    c->result = r;
    return r;
}

/* the process's entry (a0 = its context): run, then exit to the kernel */
__asm__(".section .text.user_entry, \"ax\", @progbits\n"
        ".globl user_entry\n"
        "user_entry:\n"
        "    call user_run\n"
        "    li a7, 93\n"
        "    ecall\n"
        "1:  j 1b\n"
        ".text\n");
void user_entry(void);

/* ------------------------------------------------------------ kernel (S) */

static inline uint64_t rdtime(void)
{
    uint64_t t;
    __asm__ volatile("rdtime %0" : "=r"(t));
    return t;
}

static void sbi_set_timer(uint64_t when)
{
    register uint64_t a0 __asm__("a0") = when, a6 __asm__("a6") = 0, a7 __asm__("a7") = SBI_EXT_TIME;
    register uint64_t a1 __asm__("a1");
    __asm__ volatile("ecall" : "+r"(a0), "=r"(a1) : "r"(a6), "r"(a7) : "memory");
}

static inline void sfence_page(uint64_t va)
{
    __asm__ volatile("sfence.vma %0, %1" :: "r"(va), "r"(ASID) : "memory");
}

/* unmap every step-th page of A from first on; flush each page or, if global, all at once */
static void reclaim(int first, int step, int global)
{
    for (int i = first; i < NA; i += step) {
        if (pt_l0_a[i] & PTE_V) {
            pt_l0_a[i] = 0;
            reclaimed++;
            if (!global)
                sfence_page(UBUF_A + (uint64_t)i * PAGE_SIZE);
        }
    }
    if (global)
        __asm__ volatile("sfence.vma" ::: "memory");
}

static void __attribute__((noreturn)) kernel_exit(uint64_t result);

static long kernel_trap(struct trap_frame *f)
{
    uint64_t cause = f->cause;
    if (cause == (CAUSE_INTR | IRQ_S_TIMER)) {
        /* a clock hand: a quarter of A per tick */
        reclaim((int)(ticks & 3), 4, 1);
        ticks++;
        sbi_set_timer(rdtime() + TICK);
        return 1;
    }
    if (cause == CAUSE_LOAD_PAGE_FAULT || cause == CAUSE_STORE_PAGE_FAULT) {
        uint64_t va = f->tval;
        if (va - UBUF_A >= (uint64_t)NA * PAGE_SIZE)
            return 0;                       /* not ours: the runtime reports it */
        uint64_t i = (va - UBUF_A) >> PAGE_SHIFT;
        uint64_t frame = FRAMES_A + i * PAGE_SIZE;
        if (!populated[i]) {
            uint64_t *p = (uint64_t *)frame;
            for (int k = 0; k < WORDS; k += 4) {
                p[k] = 0;
                p[k + 1] = 0;
                p[k + 2] = 0;
                p[k + 3] = 0;
            }
            populated[i] = 1;
            zero_fills++;
        }
        pt_l0_a[i] = pte(frame, PTE_USER_RW);
        sfence_page(va & ~(uint64_t)(PAGE_SIZE - 1));
        faults++;
        return 1;
    }
    if (cause == CAUSE_USER_ECALL) {
        syscalls++;
        f->epc += 4;
        switch (f->x[17]) {
        case SYS_MIX:
            f->x[10] = mix(f->x[10], f->x[11]);
            return 1;
        case SYS_RECLAIM:
            reclaim((int)(f->x[10] & 1), 2, 0);
            f->x[10] = 0;
            return 1;
        case SYS_TICKS:
            f->x[10] = ticks;
            return 1;
        case SYS_EXIT:
            /* back into the kernel: kernel_exit(a0) on the kernel stack, in S, SIE off */
            f->epc = (uint64_t)kernel_exit;
            f->status = (f->status | MSTATUS_SPP) & ~(uint64_t)MSTATUS_SPIE;
            f->x[2] = (uint64_t)(kernel_stack + sizeof kernel_stack);
            __asm__ volatile("mv %0, gp" : "=r"(f->x[3]));
            return 1;
        }
        f->epc -= 4;
        return 0;
    }
    return 0;
}

/* sret to U at the entry (a1) with a0 = context, sp = a2, gp = a3 */
__asm__(".text\n"
        "enter_user:\n"
        "    csrw sepc, a1\n"
        "    li t0, 0x100\n"       /* SPP */
        "    csrc sstatus, t0\n"
        "    li t0, 0x20\n"        /* SPIE */
        "    csrs sstatus, t0\n"
        "    mv sp, a2\n"
        "    mv gp, a3\n"
        "    sret\n");
void enter_user(uint64_t ctx, uint64_t entry, uint64_t sp, uint64_t gp) __attribute__((noreturn));

static void __attribute__((noreturn)) kernel_main(void)
{
    __asm__ volatile("sfence.vma" ::: "memory");
    sbi_set_timer(rdtime() + TICK);
    trap_hook_s = kernel_trap;
    enter_user(alias(&ctx), alias((const void *)user_entry), alias(user_stack + sizeof user_stack),
               alias(__global_pointer$));
}

/* ------------------------------------------------------------ firmware (M) */

static long firmware_trap(struct trap_frame *f)
{
    uint64_t cause = f->cause;
    if (cause == (CAUSE_INTR | IRQ_M_TIMER)) {
        /* hand the tick to S */
        __asm__ volatile("csrc mie, %0\n csrs mip, %1" :: "r"(MIP_MTIP), "r"(MIP_STIP));
        return 1;
    }
    if (cause == CAUSE_SUPERVISOR_ECALL && f->x[17] == SBI_EXT_TIME && f->x[16] == 0) {
        *(volatile uint64_t *)CLINT_MTIMECMP = f->x[10];
        __asm__ volatile("csrc mip, %0\n csrs mie, %1" :: "r"(MIP_STIP), "r"(MIP_MTIP));
        f->x[10] = 0;
        f->x[11] = 0;
        f->epc += 4;
        return 1;
    }
    return 0;
}

static void build_page_tables(void)
{
    pt_root[KERNEL_MAP >> 30] = table(pt_l1_kernel);
    for (uint64_t i = 0; i < KERNEL_MEGAPAGES; i++)
        pt_l1_kernel[i] = pte(KERNEL_MAP + (i << 21), PTE_LEAF_K);
    pt_root[0] = table(pt_l1_user);
    pt_l1_user[USER_ALIAS >> 21] = table(pt_l0_image);
    pt_l1_user[UBUF_B >> 21] = table(pt_l0_b);
    pt_l1_user[UBUF_A >> 21] = table(pt_l0_a);
    uint64_t data = (uint64_t)__data_start, end = (uint64_t)_end;
    for (uint64_t pa = RAM_BASE; pa < end; pa += PAGE_SIZE)
        pt_l0_image[(pa - RAM_BASE) >> PAGE_SHIFT] =
            pte(pa, pa < data ? PTE_USER_RX : PTE_USER_RW);
    for (uint64_t i = 0; i < NB; i++)
        pt_l0_b[i] = pte(FRAMES_B + i * PAGE_SIZE, PTE_USER_RW);
    /* pt_l0_a stays empty: demand paging */
}

static void __attribute__((noreturn)) kernel_exit(uint64_t result)
{
    /* back to M (the runtime's magic ecall) */
    register uint64_t a7 __asm__("a7") = ECALL_MAGIC;
    __asm__ volatile("ecall" :: "r"(a7) : "memory");
    __asm__ volatile("csrw satp, zero\n csrw mie, zero" ::: "memory");
    *(volatile uint64_t *)CLINT_MTIMECMP = ~0ull;
    trap_hook_s = 0;
    trap_hook_m = 0;

    model.iters = WL_ITERS;
    model.direct = 1;
    model.a = MODEL_A;
    model.b = MODEL_B;
    uint64_t want = user_run(&model);
    int ok = result == want && ctx.result == want && ticks > 0 && faults > NA &&
             zero_fills == NA && reclaimed > 0 && ctx.ticks_seen > 0;
    printf("kernel: passes %d, syscalls %lu, ticks %lu, page faults %lu (zero-fills %lu), "
           "reclaimed %lu, result 0x%016llx: %s\n",
           WL_ITERS, (unsigned long)syscalls, (unsigned long)ticks, (unsigned long)faults,
           (unsigned long)zero_fills, (unsigned long)reclaimed, (unsigned long long)result,
           ok ? "OK" : "FAILED");
    if (!ok)
        printf("kernel: direct evaluation gives 0x%016llx\n", (unsigned long long)want);
    exit(ok ? 0 : 1);
}

int main(void)
{
    if ((uint64_t)_end - RAM_BASE > 512 * PAGE_SIZE || (uint64_t)_end > FRAMES_B) {
        printf("kernel: the image (up to %p) does not fit its alias\n", (void *)_end);
        return 2;
    }
    build_page_tables();
    ctx.iters = WL_ITERS;
    ctx.direct = 0;
    ctx.a = UBUF_A;
    ctx.b = UBUF_B;
    trap_hook_m = firmware_trap;
    __asm__ volatile("csrw medeleg, %0" :: "r"((1ul << CAUSE_USER_ECALL) | (1ul << CAUSE_FETCH_PAGE_FAULT) |
                                              (1ul << CAUSE_LOAD_PAGE_FAULT) | (1ul << CAUSE_STORE_PAGE_FAULT)));
    __asm__ volatile("csrw mideleg, %0" :: "r"(MIP_SSIP | MIP_STIP | MIP_SEIP));
    __asm__ volatile("csrw mie, %0" :: "r"(MIP_MTIP | MIP_STIP));
    __asm__ volatile("csrw mcounteren, %0" :: "r"(2));     /* time for S */
    uint64_t satp = (uint64_t)SATP_MODE_SV39 << SATP_MODE_SHIFT | ASID << 44 |
                    (uint64_t)pt_root >> PAGE_SHIFT;
    __asm__ volatile("csrw satp, %0\n sfence.vma" :: "r"(satp) : "memory");
    /* mret to S at kernel_main */
    __asm__ volatile("csrw mepc, %0\n"
                     "li t0, %1\n csrc mstatus, t0\n"
                     "li t0, %2\n csrs mstatus, t0\n"
                     "mret"
                     :: "r"((uint64_t)kernel_main), "i"(MSTATUS_MPP), "i"(MSTATUS_MPP_S)
                     : "t0", "memory");
    __builtin_unreachable();
}
