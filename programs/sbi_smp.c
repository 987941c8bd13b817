/* sbi_smp.c - several harts under the built-in SBI, as a kernel brings them up: HSM
 * hart_get_status of the secondary harts (STOPPED), hart_start of each with an opaque value
 * (its errors: itself, a hart that does not exist, a hart already starting or started), IPIs
 * (send_ipi to a mask, to all with hart_mask_base = -1, an invalid mask), a remote
 * sfence.vma that a secondary hart's TLB must see (hart 0 remaps the page the secondaries
 * read through Sv39, fences them remotely, and they read the new page), remote_fence_i, and
 * the secondaries stopping themselves (hart_stop) until hart_get_status says STOPPED. The
 * secondary harts take no traps (the trap frame and stack of crt0_s are hart 0's): they wait
 * for SSIP in WFI with sstatus.SIE = 0. The first mismatch prints "FAIL: test n" and exits
 * with n.
 *
 * hartscope-only: runs in S-mode under hartscope's built-in SBI (Spike has no SBI of its own)
 * hartscope-options: --sbi builtin --harts 4
 */
#include <stdint.h>
#include <stdio.h>
#include "encoding.h"
#include "runtime.h"
#include "sbi.h"
#include "sbi_check.h"

#define MAX_HARTS 8
#define SIP_SSIP (1UL << 1)
#define SATP_SV39 (8UL << 60)
#define LEAF (PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D)
/* the page the secondary harts read through the MMU */
#define VA 0x40000000UL
#define MARK_A 0xaaaa0001UL
#define MARK_B 0xbbbb0002UL

#define HSM_STARTED 0
#define HSM_STOPPED 1
#define HSM_START_PENDING 2

static uint64_t root[512] __attribute__((aligned(4096)));
static uint64_t l1[512] __attribute__((aligned(4096)));
static uint64_t l0[512] __attribute__((aligned(4096)));
static volatile uint64_t page_a[512] __attribute__((aligned(4096)));
static volatile uint64_t page_b[512] __attribute__((aligned(4096)));
char sec_stacks[MAX_HARTS][4096] __attribute__((aligned(16)));

static volatile unsigned long alive[MAX_HARTS], seen_a[MAX_HARTS], seen_b[MAX_HARTS];
static volatile unsigned long ipis[MAX_HARTS];
static volatile unsigned long cmd;

/* a secondary hart's entry (hart_start's start_addr): a0 = hart id, a1 = opaque; a stack of
 * its own, then secondary() */
asm(".pushsection .text\n"
    ".option push\n"
    ".option norelax\n"
    ".globl sec_entry\n"
    "sec_entry:\n"
    "  la gp, __global_pointer$\n"
    "  la sp, sec_stacks\n"
    "  addi t0, a0, 1\n"
    "  slli t0, t0, 12\n"
    "  add sp, sp, t0\n"
    "  tail secondary\n"
    ".option pop\n"
    ".popsection\n");
void sec_entry(void);

static void sfence_all(void) { asm volatile("sfence.vma" ::: "memory"); }

void secondary(unsigned long hart, unsigned long opaque) __attribute__((noreturn));
void secondary(unsigned long hart, unsigned long opaque)
{
    alive[hart] = opaque;
    csr_write(satp, SATP_SV39 | ((uintptr_t)root >> 12));
    sfence_all();
    seen_a[hart] = *(volatile uint64_t *)VA; /* through the TLB from now on */
    csr_write(sie, SIP_SSIP);
    for (;;) {
        while (!(csr_read(sip) & SIP_SSIP))
            asm volatile("wfi");
        csr_clear(sip, SIP_SSIP);
        unsigned long c = cmd;
        if (c == 1)
            seen_b[hart] = *(volatile uint64_t *)VA;
        __atomic_fetch_add(&ipis[hart], 1, __ATOMIC_SEQ_CST);
        if (c == 2) {
            csr_write(satp, 0);
            sfence_all();
            SBI0(SBI_EXT_HSM, 1); /* hart_stop: does not return */
            sbi_exit(40);
        }
    }
}

static void wait_ipis(unsigned long n, unsigned long want)
{
    for (unsigned long h = 1; h < n; h++)
        while (ipis[h] != want)
            ;
}

int main(void)
{
    /* how many harts: hart_get_status until INVALID_PARAM */
    unsigned long n = 1;
    while (n < MAX_HARTS && SBI1(SBI_EXT_HSM, 2, n).error == SBI_SUCCESS)
        n++;
    check(1, n >= 2);
    check_ret(2, SBI1(SBI_EXT_HSM, 2, 0), SBI_SUCCESS, HSM_STARTED);
    check_err(3, SBI1(SBI_EXT_HSM, 2, n), SBI_ERR_INVALID_PARAM);
    for (unsigned long h = 1; h < n; h++)
        check_ret(4, SBI1(SBI_EXT_HSM, 2, h), SBI_SUCCESS, HSM_STOPPED);

    /* the page tables: 0x80000000 identity (a gigapage), VA -> page_a */
    root[2] = (0x80000000UL >> 12) << 10 | LEAF;
    root[VA >> 30] = ((uintptr_t)l1 >> 12) << 10 | PTE_V;
    l1[0] = ((uintptr_t)l0 >> 12) << 10 | PTE_V;
    l0[0] = ((uintptr_t)page_a >> 12) << 10 | LEAF;
    page_a[0] = MARK_A;
    page_b[0] = MARK_B;

    /* hart_start: errors first */
    check_err(5, SBI3(SBI_EXT_HSM, 0, 0, (uintptr_t)sec_entry, 0), SBI_ERR_ALREADY_AVAILABLE);
    check_err(6, SBI3(SBI_EXT_HSM, 0, n, (uintptr_t)sec_entry, 0), SBI_ERR_INVALID_PARAM);
    check_err(7, SBI3(SBI_EXT_HSM, 0, 1, 0x1000, 0), SBI_ERR_INVALID_ADDRESS);
    for (unsigned long h = 1; h < n; h++) {
        check_err(8, SBI3(SBI_EXT_HSM, 0, h, (uintptr_t)sec_entry, 0x100 * h), SBI_SUCCESS);
        check_ret(9, SBI1(SBI_EXT_HSM, 2, h), SBI_SUCCESS, HSM_START_PENDING);
        check_err(10, SBI3(SBI_EXT_HSM, 0, h, (uintptr_t)sec_entry, 0), SBI_ERR_INVALID_PARAM);
    }
    for (unsigned long h = 1; h < n; h++) {
        while (!alive[h])
            ;
        check(11, alive[h] == 0x100 * h);
        check_ret(12, SBI1(SBI_EXT_HSM, 2, h), SBI_SUCCESS, HSM_STARTED);
        check_err(13, SBI3(SBI_EXT_HSM, 0, h, (uintptr_t)sec_entry, 0), SBI_ERR_ALREADY_AVAILABLE);
        while (!seen_a[h])
            ;
        check(14, seen_a[h] == MARK_A);
    }

    /* an IPI to every secondary hart: a mask relative to base 0 */
    unsigned long mask = ((1UL << n) - 1) & ~1UL;
    check_err(15, SBI2(SBI_EXT_IPI, 0, mask, 0), SBI_SUCCESS);
    wait_ipis(n, 1);
    check(16, !(csr_read(sip) & SIP_SSIP));

    /* remap VA to page_b; the secondaries' TLBs hold page_a until the remote sfence */
    l0[0] = ((uintptr_t)page_b >> 12) << 10 | LEAF;
    asm volatile("fence rw, rw" ::: "memory");
    check_err(17, SBI4(SBI_EXT_RFENCE, 1, mask >> 1, 1, VA, 4096), SBI_SUCCESS);
    cmd = 1;
    check_err(18, SBI2(SBI_EXT_IPI, 0, mask >> 1, 1), SBI_SUCCESS);
    wait_ipis(n, 2);
    for (unsigned long h = 1; h < n; h++)
        check(19, seen_b[h] == MARK_B);
    check_err(20, SBI2(SBI_EXT_RFENCE, 0, mask, 0), SBI_SUCCESS);
    check_err(21, SBI5(SBI_EXT_RFENCE, 2, mask, 0, 0, 0, 0), SBI_SUCCESS);
    check_err(22, SBI4(SBI_EXT_RFENCE, 1, 1UL << n, 0, 0, 0), SBI_ERR_INVALID_PARAM);

    /* every hart, hart 0 included: hart_mask_base = -1 */
    cmd = 0;
    check_err(23, SBI2(SBI_EXT_IPI, 0, 0, -1UL), SBI_SUCCESS);
    check(24, csr_read(sip) & SIP_SSIP);
    csr_clear(sip, SIP_SSIP);
    wait_ipis(n, 3);
    check_err(25, SBI2(SBI_EXT_IPI, 0, 1, n), SBI_ERR_INVALID_PARAM);

    /* the secondaries stop themselves */
    cmd = 2;
    check_err(26, SBI2(SBI_EXT_IPI, 0, mask, 0), SBI_SUCCESS);
    for (unsigned long h = 1; h < n; h++)
        while (SBI1(SBI_EXT_HSM, 2, h).value != HSM_STOPPED)
            ;
    printf("sbi_smp: %lu harts started, interrupted, fenced and stopped\n", n);
    return 0;
}
