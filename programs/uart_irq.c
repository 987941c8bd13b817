/* uart_irq - the ns16550a's receive interrupt through the PLIC (QEMU virt
 * layout at 0x0c000000, the UART on source 10), taken in M-mode through
 * context 0 (mip.MEIP); uart_irq_s.c builds the same checks for S-mode through
 * context 1 (mip.SEIP, delegated with mideleg). The bytes come from
 * programs/uart_irq.in (`--uart-input`). The handler claims, checks IIR,
 * reads one byte from RBR, echoes it and completes; with more bytes waiting,
 * the completion lets the source interrupt again at once, so every byte is
 * its own interrupt. Before interrupts are on it checks the PLIC's registers:
 * priority (3 bits, WARL), the pending bit following the UART's line, the
 * threshold masking the context's line, claims of nothing returning 0.
 * hartscope-only: Spike's UART reads only its terminal (there is no --uart-input) and interrupts on source 1 by default.
 * hartscope-options: --uart-input programs/uart_irq.in
 * Expected result: the input echoed, one summary line, exit code 0; else the
 * number of the first failed check. */
#include <stdint.h>
#include "encoding.h"
#include "runtime.h"
#include "uart.h"

#ifndef SMODE
#define SMODE 0
#endif
/* the PLIC context, its mip bit and the interrupt cause */
#define CTX        SMODE
#define EIP        (SMODE ? MIP_SEIP : MIP_MEIP)
#define EXT_CAUSE  (CAUSE_INTR | (SMODE ? IRQ_S_EXT : IRQ_M_EXT))
#define NAME       (SMODE ? "uart_irq_s" : "uart_irq")

#define PLIC               0x0c000000UL
#define PLIC_PRIORITY(id)  (PLIC + 4 * (id))
#define PLIC_PENDING       (PLIC + 0x1000)
#define PLIC_ENABLE(ctx)   (PLIC + 0x2000 + 0x80 * (ctx))
#define PLIC_THRESHOLD(c)  (PLIC + 0x200000 + 0x1000 * (c))
#define PLIC_CLAIM(c)      (PLIC_THRESHOLD(c) + 4)
#define UART_IRQ           10

#define RBR 0
#define IER 1
#define IIR 2
#define FCR 2
#define LSR 5

static inline volatile uint32_t *reg32(uintptr_t a) { return (volatile uint32_t *)a; }
static volatile uint8_t *const uart = (volatile uint8_t *)UART_BASE;

#define CSR_READ(name) ({ uint64_t v_; __asm__ volatile("csrr %0, " #name : "=r"(v_)); v_; })
#define CSR_SET(name, v) __asm__ volatile("csrs " #name ", %0" ::"r"((uint64_t)(v)))
#define CSR_CLEAR(name, v) __asm__ volatile("csrc " #name ", %0" ::"r"((uint64_t)(v)))
#define CSR_WRITE(name, v) __asm__ volatile("csrw " #name ", %0" ::"r"((uint64_t)(v)))

/* mip, or in S-mode sip (which shows the delegated SEIP only) */
#define IP() (SMODE ? CSR_READ(sip) : CSR_READ(mip))

static volatile unsigned long received, irqs, bad;
static char buf[128];

/* The external interrupt: claim, check IIR, one byte, echo, complete. A
 * problem is noted in `bad` (the handler must not trap). */
static long ext_irq(struct trap_frame *f)
{
    if (f->cause != EXT_CAUSE)
        return 0;
    irqs++;
    uint32_t id = *reg32(PLIC_CLAIM(CTX));
    if (id != UART_IRQ) {
        bad = 40;
        return 1;
    }
    /* FIFOs on: bits 7:6 set; received data available: ID 0b010 */
    if (uart[IIR] != 0xc4 && !bad)
        bad = 41;
    char c = uart[RBR];
    if (received < sizeof buf)
        buf[received] = c;
    received++;
    uart_putc(c);
    *reg32(PLIC_CLAIM(CTX)) = id;
    return 1;
}

/* The checks, run in M-mode, or in S-mode for SMODE. */
static long run(void)
{
    /* 2-4: priority is 3 bits; source 0 has none; pending is read-only */
    *reg32(PLIC_PRIORITY(UART_IRQ)) = 0xff;
    if (*reg32(PLIC_PRIORITY(UART_IRQ)) != 7)
        return 2;
    *reg32(PLIC_PRIORITY(0)) = 5;
    if (*reg32(PLIC_PRIORITY(0)) != 0)
        return 3;
    *reg32(PLIC_PRIORITY(UART_IRQ)) = 1;
    /* 4: the UART's line is down while its receive interrupt is off */
    uart[FCR] = 0x07;
    if (*reg32(PLIC_PENDING) & (1u << UART_IRQ))
        return 4;
    /* 5-6: ERBFI with data waiting: pending; not enabled for the context: no line */
    uart[IER] = 0x01;
    if (!(*reg32(PLIC_PENDING) & (1u << UART_IRQ)))
        return 5;
    if (IP() & (MIP_MEIP | MIP_SEIP))
        return 6;
    /* 7-8: enabled, but the threshold masks priority 1; then 0 lets it through */
    *reg32(PLIC_THRESHOLD(CTX)) = 1;
    *reg32(PLIC_ENABLE(CTX)) = 1u << UART_IRQ;
    if (*reg32(PLIC_ENABLE(CTX)) != 1u << UART_IRQ)
        return 7;
    if (IP() & EIP)
        return 8;
    *reg32(PLIC_THRESHOLD(CTX)) = 0;
    if (!(IP() & EIP))
        return 9;
    if (IP() & (SMODE ? MIP_MEIP : MIP_SEIP))
        return 10;
    /* 11: take them, one byte each, until the line's end */
    if (SMODE) {
        trap_hook_s = ext_irq;
        CSR_SET(sie, MIP_SEIP);
        CSR_SET(sstatus, MSTATUS_SIE);
    } else {
        trap_hook_m = ext_irq;
        CSR_SET(mie, MIP_MEIP);
        CSR_SET(mstatus, MSTATUS_MIE);
    }
    for (long spins = 0; !(received && buf[(received - 1) % sizeof buf] == '\n'); spins++) {
        if (spins > 100000 || bad)
            break;
        __asm__ volatile("wfi");
    }
    if (SMODE)
        CSR_CLEAR(sstatus, MSTATUS_SIE);
    else
        CSR_CLEAR(mstatus, MSTATUS_MIE);
    if (bad)
        return bad;
    if (!received || received != irqs)
        return 11;
    /* 12-13: all read: the line is down, a claim finds nothing */
    if (IP() & EIP)
        return 12;
    if (*reg32(PLIC_CLAIM(CTX)) != 0)
        return 13;
    uart_puts(NAME);
    uart_puts(": ");
    char n[4] = {(char)('0' + irqs / 10 % 10), (char)('0' + irqs % 10), 0};
    uart_puts(n);
    uart_puts(" bytes, each by an interrupt\n");
    return 0;
}

#if SMODE
static void s_entry(void) __attribute__((noreturn));
static void s_entry(void)
{
    htif_exit(run());
}
#endif

int main(void)
{
#if SMODE
    /* S-mode owns the supervisor external interrupt */
    CSR_WRITE(mideleg, MIP_SEIP);
    CSR_WRITE(mie, MIP_SEIP);
    uint64_t s = CSR_READ(mstatus);
    CSR_WRITE(mstatus, (s & ~MSTATUS_MPP) | MSTATUS_MPP_S);
    CSR_WRITE(mepc, (uintptr_t)s_entry);
    __asm__ volatile("mret");
    return 254;
#else
    return run();
#endif
}
