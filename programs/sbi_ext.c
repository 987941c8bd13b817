/* sbi_ext.c - the built-in SBI's extensions other than PMU, from S-mode, as a kernel uses them:
 * the boot state and device tree, Base, legacy console, DBCN, HSM, Timer, IPI, RFENCE and SRST
 * (every function, error paths included), the exceptions the SBI handles for S and U mode
 * (misaligned loads and stores emulated; misaligned atomics, illegal instructions and access
 * faults redirected to S-mode) and the firmware counters that count them. Every result is
 * checked against the table or the expectation next to the call; the first mismatch prints
 * "FAIL: test n" and exits with n (through SBI SRST).
 *
 * hartscope-only: runs in S-mode under hartscope's built-in SBI (Spike has no SBI of its own)
 * hartscope-options: --sbi builtin
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "encoding.h"
#include "runtime.h"
#include "sbi.h"
#include "sbi_check.h"

#define SCAUSE_INTR (1UL << 63)
#define SIP_SSIP (1UL << 1)
#define SIP_STIP (1UL << 5)
#define SSTATUS_SIE (1UL << 1)
#define SSTATUS_SPP (1UL << 8)


/* ---------------------------------------------------------------- traps */

static volatile unsigned long trap_count, last_cause, last_tval, last_epc, last_spp;
static volatile unsigned long sti_count, ssi_count;
volatile unsigned long u_return; /* where a U-mode ecall goes back to (in S) */

long s_trap_handler(struct trap_frame *f)
{
    if (f->cause & SCAUSE_INTR) {
        unsigned long code = f->cause & ~SCAUSE_INTR;
        if (code == IRQ_S_TIMER) {
            sti_count++;
            SBI1(SBI_EXT_TIME, 0, ~0UL); /* clears STIP */
        } else if (code == IRQ_S_SOFT) {
            ssi_count++;
            csr_clear(sip, SIP_SSIP);
        } else {
            sbi_exit(254);
        }
        return 1;
    }
    trap_count++;
    last_cause = f->cause;
    last_tval = f->tval;
    last_epc = f->epc;
    last_spp = (f->status & SSTATUS_SPP) != 0;
    if (f->cause == CAUSE_USER_ECALL) {
        /* back to S-mode at u_return */
        f->epc = u_return;
        f->status |= SSTATUS_SPP;
        return 1;
    }
    if (f->cause == CAUSE_FETCH_ACCESS) {
        /* a call to a bad address: return to the caller */
        f->epc = f->x[1];
        return 1;
    }
    /* skip the instruction (2 or 4 bytes; it is readable: it trapped on its own access) */
    uint16_t lo = *(volatile uint16_t *)f->epc;
    f->epc += (lo & 3) == 3 ? 4 : 2;
    return 1;
}

/* the instruction that raised the last trap, with its cause and tval */
static void check_trap(int n, unsigned long before, unsigned long cause, unsigned long tval)
{
    checks++;
    if (trap_count != before + 1 || last_cause != cause || last_tval != tval)
        fail(n, (long)last_cause, last_tval);
}

/* ---------------------------------------------------------------- helpers in assembly */

/* hsm non-retentive suspend: a0 = opaque. Returns the call's error if it returns; after the
 * resume, returns 1 with the resume registers in resume_a0 / resume_a1 */
unsigned long resume_a0, resume_a1, resume_sstatus;
long suspend_nonret(unsigned long opaque);
asm(".text\n"
    ".globl suspend_nonret\n"
    "suspend_nonret:\n"
    "  la t0, suspend_save\n"
    "  sd ra, 0(t0)\n  sd sp, 8(t0)\n  sd s0, 16(t0)\n  sd s1, 24(t0)\n  sd s2, 32(t0)\n"
    "  sd s3, 40(t0)\n  sd s4, 48(t0)\n  sd s5, 56(t0)\n  sd s6, 64(t0)\n  sd s7, 72(t0)\n"
    "  sd s8, 80(t0)\n  sd s9, 88(t0)\n  sd s10, 96(t0)\n  sd s11, 104(t0)\n"
    "  mv a2, a0\n"
    "  li a0, 0x80000000\n"
    "  la a1, 1f\n"
    "  li a6, 3\n"
    "  li a7, 0x48534D\n"
    "  ecall\n"
    "  ret\n"
    "1:\n"
    "  la t0, resume_a0\n  sd a0, 0(t0)\n"
    "  la t0, resume_a1\n  sd a1, 0(t0)\n"
    "  csrr t1, sstatus\n  la t0, resume_sstatus\n  sd t1, 0(t0)\n"
    "  la t0, suspend_save\n"
    "  ld ra, 0(t0)\n  ld sp, 8(t0)\n  ld s0, 16(t0)\n  ld s1, 24(t0)\n  ld s2, 32(t0)\n"
    "  ld s3, 40(t0)\n  ld s4, 48(t0)\n  ld s5, 56(t0)\n  ld s6, 64(t0)\n  ld s7, 72(t0)\n"
    "  ld s8, 80(t0)\n  ld s9, 88(t0)\n  ld s10, 96(t0)\n  ld s11, 104(t0)\n"
    "  li a0, 1\n"
    "  ret\n"
    ".data\n.align 3\nsuspend_save: .space 112\n.text\n");

/* a legacy call: returns a0; *a1 gets a1 after the call (set to 0x1234 before) */
static long legacy_call(unsigned long eid, unsigned long arg, unsigned long *a1_after)
{
    register unsigned long r0 asm("a0") = arg;
    register unsigned long r1 asm("a1") = 0x1234;
    register unsigned long r7 asm("a7") = eid;
    asm volatile("ecall" : "+r"(r0), "+r"(r1) : "r"(r7) : "memory");
    *a1_after = r1;
    return (long)r0;
}

/* run in U-mode: an hpm counter read (scounteren bit 3 is clear: illegal), then ecall */
void u_code(void);
asm(".text\n.globl u_code\nu_code:\n  csrr a0, hpmcounter3\n  ecall\n1: j 1b\n");

/* sret to u_code in U-mode; its ecall comes back to the instruction after the sret */
void run_in_u(void);
asm(".text\n.globl run_in_u\nrun_in_u:\n"
    "  la t0, 1f\n  la t1, u_return\n  sd t0, 0(t1)\n"
    "  la t0, u_code\n  csrw sepc, t0\n"
    "  li t0, 0x100\n  csrc sstatus, t0\n"
    "  sret\n"
    "1: ret\n");

/* a function the program rewrites */
long patched(void);
asm(".text\n.align 2\n.option push\n.option norvc\n.globl patched\npatched:\n  li a0, 1\n  ret\n.option pop\n");

/* ---------------------------------------------------------------- firmware counters */

static const unsigned fw_events[] = {
    FW_MISALIGNED_LOAD, FW_MISALIGNED_STORE, FW_ACCESS_LOAD, FW_ACCESS_STORE,
    FW_ILLEGAL_INSN, FW_SET_TIMER, FW_IPI_SENT, FW_IPI_RECEIVED,
    FW_FENCE_I_SENT, FW_FENCE_I_RECEIVED, FW_SFENCE_VMA_SENT, FW_SFENCE_VMA_RECEIVED,
    FW_SFENCE_VMA_ASID_SENT, FW_SFENCE_VMA_ASID_RECEIVED,
};
#define NFW (sizeof fw_events / sizeof fw_events[0])
static unsigned long fw_counter[NFW];
static unsigned long fw_expected[22];

static unsigned long time_now(void)
{
    return csr_read(time);
}

static uint8_t buf[64] __attribute__((aligned(16)));

int main(void)
{
    struct sbiret r;
    unsigned long a1;
    unsigned long me = boot_hartid;

    /* ---- boot state (1-19) */
    check(1, me == 0);
    check(2, boot_dtb != 0 && (boot_dtb & 0xfff) == 0);
    {
        const uint8_t *d = (const uint8_t *)boot_dtb;
        uint32_t magic = (uint32_t)d[0] << 24 | d[1] << 16 | d[2] << 8 | d[3];
        uint32_t size = (uint32_t)d[4] << 24 | d[5] << 16 | d[6] << 8 | d[7];
        check(3, magic == 0xd00dfeed);
        check(4, size > 64 && size < 0x10000);
        int found = 0;
        for (uint32_t i = 0; i + 9 < size; i++)
            if (memcmp(d + i, "riscv,pmu", 9) == 0)
                found = 1;
        check(5, found);
    }
    unsigned long sstatus = csr_read(sstatus);
    check(6, (sstatus & SSTATUS_SIE) == 0);
    check(7, ((sstatus >> 13) & 3) == 3); /* FS = Dirty, as OpenSBI leaves it */
    check(8, csr_read(satp) == 0);
    check(9, csr_read(scounteren) == 7);
    check(10, csr_read(sie) == 0);
    /* every counter readable from S (mcounteren = all ones) */
    (void)csr_read(cycle);
    (void)csr_read(instret);
    (void)csr_read(hpmcounter3);
    (void)csr_read(hpmcounter31);
    check(11, trap_count == 0);

    /* firmware counters, as Linux configures them: one per event, auto-started */
    r = SBI0(SBI_EXT_PMU, SBI_PMU_NUM_COUNTERS);
    check_ret(12, r, 0, 3 + 29 + 16);
    unsigned long all = ((1UL << r.value) - 1) & ~2UL;
    for (unsigned i = 0; i < NFW; i++) {
        r = SBI5(SBI_EXT_PMU, SBI_PMU_CFG_MATCH, 0, all, CFG_AUTO_START | CFG_CLEAR_VALUE,
                 0xf0000 | fw_events[i], 0);
        check_err(13, r, 0);
        check(14, r.value >= 32 && r.value < 48);
        fw_counter[i] = r.value;
    }

    /* ---- Base (20-39) */
    check_ret(20, SBI0(SBI_EXT_BASE, 0), 0, 0x03000000);
    check_ret(21, SBI0(SBI_EXT_BASE, 1), 0, 0x6873);
    check_err(22, SBI0(SBI_EXT_BASE, 2), 0);
    static const struct {
        unsigned long eid, present;
    } probes[] = {
        {SBI_EXT_BASE, 1}, {SBI_EXT_TIME, 1}, {SBI_EXT_IPI, 1}, {SBI_EXT_RFENCE, 1},
        {SBI_EXT_HSM, 1}, {SBI_EXT_SRST, 1}, {SBI_EXT_PMU, 1}, {SBI_EXT_DBCN, 1},
        {SBI_EXT_LEGACY_PUTCHAR, 1}, {SBI_EXT_LEGACY_GETCHAR, 1}, {0x00, 0}, {0x03, 0},
        {0x08, 0}, {0x53555350 /* SUSP */, 0}, {0x43505043 /* CPPC */, 0},
        {0x46574654 /* FWFT */, 0}, {0x0BADBAD, 0},
    };
    for (unsigned i = 0; i < sizeof probes / sizeof probes[0]; i++)
        check_ret(23, SBI1(SBI_EXT_BASE, 3, probes[i].eid), 0, probes[i].present);
    check_ret(24, SBI0(SBI_EXT_BASE, 4), 0, 0);
    check_ret(25, SBI0(SBI_EXT_BASE, 5), 0, 0);
    check_ret(26, SBI0(SBI_EXT_BASE, 6), 0, 0);
    check_err(27, SBI0(SBI_EXT_BASE, 7), SBI_ERR_NOT_SUPPORTED);
    check_ret(28, SBI0(0x0BADBAD, 0), SBI_ERR_NOT_SUPPORTED, 0);
    check_ret(29, SBI0(0x00, 0), SBI_ERR_NOT_SUPPORTED, 0);

    /* ---- legacy console (40-49): a0 only, a1 untouched */
    check(40, legacy_call(SBI_EXT_LEGACY_PUTCHAR, 'L', &a1) == 0 && a1 == 0x1234);
    check(41, legacy_call(SBI_EXT_LEGACY_PUTCHAR, '\n', &a1) == 0 && a1 == 0x1234);
    check(42, legacy_call(SBI_EXT_LEGACY_GETCHAR, 0, &a1) == -1 && a1 == 0x1234);

    /* ---- DBCN (50-69) */
    static const char msg[] = "sbi_ext: console_write\n";
    check_ret(50, SBI3(SBI_EXT_DBCN, 0, sizeof msg - 1, (unsigned long)msg, 0), 0, sizeof msg - 1);
    check_ret(51, SBI1(SBI_EXT_DBCN, 2, 'B'), 0, 0);
    check_ret(52, SBI1(SBI_EXT_DBCN, 2, '\n'), 0, 0);
    check_ret(53, SBI3(SBI_EXT_DBCN, 0, 0, (unsigned long)msg, 0), 0, 0);
    check_err(54, SBI3(SBI_EXT_DBCN, 0, 4, (unsigned long)msg, 1), SBI_ERR_INVALID_PARAM);
    check_err(55, SBI3(SBI_EXT_DBCN, 0, 4, 0, 0), SBI_ERR_INVALID_PARAM);
    check_err(56, SBI3(SBI_EXT_DBCN, 0, 4, UART_BASE, 0), SBI_ERR_INVALID_PARAM);
    check_ret(57, SBI3(SBI_EXT_DBCN, 1, 8, (unsigned long)buf, 0), 0, 0);
    check_ret(58, SBI3(SBI_EXT_DBCN, 1, 0, (unsigned long)buf, 0), 0, 0);
    check_err(59, SBI3(SBI_EXT_DBCN, 1, 8, 0, 0), SBI_ERR_INVALID_PARAM);
    check_err(60, SBI3(SBI_EXT_DBCN, 1, 8, (unsigned long)buf, 1), SBI_ERR_INVALID_PARAM);
    check_err(61, SBI0(SBI_EXT_DBCN, 3), SBI_ERR_NOT_SUPPORTED);

    /* ---- HSM (70-89) */
    check_ret(70, SBI1(SBI_EXT_HSM, 2, me), 0, 0);
    check_err(71, SBI1(SBI_EXT_HSM, 2, me + 1), SBI_ERR_INVALID_PARAM);
    check_err(72, SBI3(SBI_EXT_HSM, 0, me, (unsigned long)patched, 0), SBI_ERR_ALREADY_AVAILABLE);
    check_err(73, SBI3(SBI_EXT_HSM, 0, me + 1, (unsigned long)patched, 0), SBI_ERR_INVALID_PARAM);
    check_err(74, SBI3(SBI_EXT_HSM, 0, me, 0, 0), SBI_ERR_INVALID_ADDRESS);
    check_err(75, SBI3(SBI_EXT_HSM, 3, 1, 0, 0), SBI_ERR_INVALID_PARAM);
    check_err(76, SBI3(SBI_EXT_HSM, 3, 0x10000000, 0, 0), SBI_ERR_INVALID_PARAM);
    check_err(77, SBI3(SBI_EXT_HSM, 3, 0x80000001, 0, 0), SBI_ERR_INVALID_PARAM);
    check_err(78, SBI3(SBI_EXT_HSM, 3, 0x90000000, 0, 0), SBI_ERR_INVALID_PARAM);
    check_err(79, SBI3(SBI_EXT_HSM, 3, 0x100000000UL, 0, 0), SBI_ERR_INVALID_PARAM);
    check_err(80, SBI3(SBI_EXT_HSM, 3, 0x80000000, 0x4, 0), SBI_ERR_INVALID_ADDRESS);
    check_err(81, SBI0(SBI_EXT_HSM, 4), SBI_ERR_NOT_SUPPORTED);
    /* retentive suspend, woken by the timer (STIE on, SIE off: no trap) */
    csr_set(sie, SIP_STIP);
    unsigned long t0 = time_now();
    check_ret(82, SBI1(SBI_EXT_TIME, 0, t0 + 200), 0, 0);
    fw_expected[FW_SET_TIMER]++;
    check_ret(83, SBI3(SBI_EXT_HSM, 3, 0, 0, 0), 0, 0);
    check(84, time_now() >= t0 + 200 && (csr_read(sip) & SIP_STIP));
    /* non-retentive suspend: resumes at the given address with a0 = hart id, a1 = opaque,
       SIE = 0 */
    t0 = time_now();
    SBI1(SBI_EXT_TIME, 0, t0 + 100);
    fw_expected[FW_SET_TIMER]++;
    check(85, !(csr_read(sip) & SIP_STIP));
    csr_set(sstatus, SSTATUS_SIE);
    long s = suspend_nonret(0x5ca1ab1e);
    check(86, s == 1);
    check(87, resume_a0 == me && resume_a1 == 0x5ca1ab1e);
    check(88, (resume_sstatus & SSTATUS_SIE) == 0 && time_now() >= t0 + 100);
    check(89, sti_count == 0 && (csr_read(sip) & SIP_STIP));
    csr_clear(sie, SIP_STIP);

    /* ---- Timer (90-109) */
    t0 = time_now();
    check_ret(90, SBI1(SBI_EXT_TIME, 0, t0 + 300), 0, 0);
    fw_expected[FW_SET_TIMER]++;
    check(91, !(csr_read(sip) & SIP_STIP));
    for (int i = 0; i < 1000000 && time_now() < t0 + 300; i++)
        ;
    check(92, time_now() >= t0 + 300);
    /* STIP is raised when time passes the deadline (at the next tick at the latest) */
    for (int i = 0; i < 1000 && !(csr_read(sip) & SIP_STIP); i++)
        ;
    check(93, csr_read(sip) & SIP_STIP);
    SBI1(SBI_EXT_TIME, 0, ~0UL);
    fw_expected[FW_SET_TIMER]++;
    check(94, !(csr_read(sip) & SIP_STIP));
    SBI1(SBI_EXT_TIME, 0, 0); /* in the past: at once */
    fw_expected[FW_SET_TIMER]++;
    check(95, csr_read(sip) & SIP_STIP);
    check_err(96, SBI1(SBI_EXT_TIME, 1, 0), SBI_ERR_NOT_SUPPORTED);
    /* the timer interrupt, taken in S-mode */
    SBI1(SBI_EXT_TIME, 0, ~0UL);
    fw_expected[FW_SET_TIMER]++;
    csr_set(sie, SIP_STIP);
    csr_set(sstatus, SSTATUS_SIE);
    t0 = time_now();
    SBI1(SBI_EXT_TIME, 0, t0 + 100);
    fw_expected[FW_SET_TIMER]++;
    for (int i = 0; i < 1000000 && sti_count == 0; i++)
        ;
    check(97, sti_count == 1);
    fw_expected[FW_SET_TIMER]++; /* the handler's */
    /* wfi until the timer */
    csr_clear(sstatus, SSTATUS_SIE);
    t0 = time_now();
    SBI1(SBI_EXT_TIME, 0, t0 + 500);
    fw_expected[FW_SET_TIMER]++;
    asm volatile("wfi");
    check(98, time_now() >= t0 + 500 && (csr_read(sip) & SIP_STIP));
    SBI1(SBI_EXT_TIME, 0, ~0UL);
    fw_expected[FW_SET_TIMER]++;
    csr_clear(sie, SIP_STIP);

    /* ---- IPI (110-129) */
    check_ret(110, SBI2(SBI_EXT_IPI, 0, 1, me), 0, 0);
    fw_expected[FW_IPI_SENT]++;
    fw_expected[FW_IPI_RECEIVED]++;
    check(111, csr_read(sip) & SIP_SSIP);
    csr_clear(sip, SIP_SSIP);
    check_ret(112, SBI2(SBI_EXT_IPI, 0, 0, me), 0, 0);
    check(113, !(csr_read(sip) & SIP_SSIP));
    check_err(114, SBI2(SBI_EXT_IPI, 0, 2, me), SBI_ERR_INVALID_PARAM);
    check_err(115, SBI2(SBI_EXT_IPI, 0, 1, me + 1), SBI_ERR_INVALID_PARAM);
    check_err(116, SBI2(SBI_EXT_IPI, 0, 3, me), SBI_ERR_INVALID_PARAM);
    check(117, !(csr_read(sip) & SIP_SSIP));
    check_ret(118, SBI2(SBI_EXT_IPI, 0, 0, ~0UL), 0, 0);
    fw_expected[FW_IPI_SENT]++;
    fw_expected[FW_IPI_RECEIVED]++;
    check(119, csr_read(sip) & SIP_SSIP);
    /* taken as an interrupt */
    csr_set(sie, SIP_SSIP);
    csr_set(sstatus, SSTATUS_SIE);
    check(120, ssi_count == 1);
    SBI2(SBI_EXT_IPI, 0, 1, me);
    fw_expected[FW_IPI_SENT]++;
    fw_expected[FW_IPI_RECEIVED]++;
    check(121, ssi_count == 2);
    csr_clear(sstatus, SSTATUS_SIE);
    csr_clear(sie, SIP_SSIP);
    check_err(122, SBI0(SBI_EXT_IPI, 1), SBI_ERR_NOT_SUPPORTED);

    /* ---- RFENCE (130-149) */
    check_ret(130, SBI2(SBI_EXT_RFENCE, 0, 1, me), 0, 0);
    fw_expected[FW_FENCE_I_SENT]++;
    fw_expected[FW_FENCE_I_RECEIVED]++;
    check_ret(131, SBI4(SBI_EXT_RFENCE, 1, 1, me, 0, 0), 0, 0);
    fw_expected[FW_SFENCE_VMA_SENT]++;
    fw_expected[FW_SFENCE_VMA_RECEIVED]++;
    check_ret(132, SBI4(SBI_EXT_RFENCE, 1, 0, ~0UL, 0x80000000, 0x2000), 0, 0);
    fw_expected[FW_SFENCE_VMA_SENT]++;
    fw_expected[FW_SFENCE_VMA_RECEIVED]++;
    check_ret(133, SBI5(SBI_EXT_RFENCE, 2, 1, me, 0, ~0UL, 7), 0, 0);
    fw_expected[FW_SFENCE_VMA_ASID_SENT]++;
    fw_expected[FW_SFENCE_VMA_ASID_RECEIVED]++;
    check_ret(134, SBI2(SBI_EXT_RFENCE, 0, 0, me), 0, 0);
    check_err(135, SBI2(SBI_EXT_RFENCE, 0, 2, me), SBI_ERR_INVALID_PARAM);
    check_err(136, SBI4(SBI_EXT_RFENCE, 1, 1, me + 1, 0, 0), SBI_ERR_INVALID_PARAM);
    for (unsigned long f = 3; f <= 6; f++)
        check_err(137, SBI5(SBI_EXT_RFENCE, f, 1, me, 0, 0, 0), SBI_ERR_NOT_SUPPORTED);
    check_err(138, SBI0(SBI_EXT_RFENCE, 7), SBI_ERR_NOT_SUPPORTED);
    /* self-modifying code made visible by remote_fence_i */
    check(139, patched() == 1);
    *(volatile uint32_t *)(void *)patched = 0x00200513; /* li a0, 2 */
    check_ret(140, SBI2(SBI_EXT_RFENCE, 0, 1, me), 0, 0);
    fw_expected[FW_FENCE_I_SENT]++;
    fw_expected[FW_FENCE_I_RECEIVED]++;
    check(141, patched() == 2);

    /* ---- exceptions the SBI handles (150-199) */
    for (int i = 0; i < 16; i++)
        buf[i] = (uint8_t)(0x10 + i);
    unsigned long tc = trap_count;
    /* misaligned loads and stores: emulated, no trap reaches S-mode */
    uint64_t v64;
    uint32_t v32;
    uint16_t v16;
    asm volatile("ld %0, 1(%1)" : "=r"(v64) : "r"(buf) : "memory");
    check(150, v64 == 0x1817161514131211ULL);
    asm volatile("lw %0, 3(%1)" : "=r"(v32) : "r"(buf) : "memory");
    check(151, v32 == 0x16151413);
    asm volatile("lhu %0, 5(%1)" : "=r"(v16) : "r"(buf) : "memory");
    check(152, v16 == 0x1615);
    long sv;
    asm volatile("lh %0, 7(%1)" : "=r"(sv) : "r"(buf) : "memory");
    check(153, sv == 0x1817);
    fw_expected[FW_MISALIGNED_LOAD] += 4;
    asm volatile("sd %0, 9(%1)" ::"r"(0x0102030405060708ULL), "r"(buf) : "memory");
    check(154, buf[9] == 8 && buf[16] == 1 && buf[8] == 0x18 && buf[17] == 0);
    asm volatile("sw %0, 21(%1)" ::"r"(0xa1a2a3a4), "r"(buf) : "memory");
    check(155, buf[21] == 0xa4 && buf[24] == 0xa1);
    fw_expected[FW_MISALIGNED_STORE] += 2;
    double dv;
    asm volatile("fld %0, 9(%1)" : "=f"(dv) : "r"(buf) : "memory");
    uint64_t dbits;
    memcpy(&dbits, &dv, 8);
    check(156, dbits == 0x0102030405060708ULL);
    fw_expected[FW_MISALIGNED_LOAD]++;
    check(157, trap_count == tc);
    /* misaligned atomics: redirected (store/AMO misaligned, LR: load misaligned) */
    unsigned long addr = (unsigned long)buf + 33;
    asm volatile("amoadd.w zero, zero, (%0)" ::"r"(addr) : "memory");
    check_trap(158, tc, CAUSE_MISALIGNED_STORE, addr);
    fw_expected[FW_MISALIGNED_STORE]++;
    tc = trap_count;
    asm volatile("lr.d %0, (%1)" : "=r"(v64) : "r"(addr) : "memory");
    check_trap(159, tc, CAUSE_MISALIGNED_LOAD, addr);
    fw_expected[FW_MISALIGNED_LOAD]++;
    check(160, last_spp == 1);
    /* illegal instruction: an M-mode CSR */
    tc = trap_count;
    asm volatile("csrr t0, mhartid" ::: "t0", "memory");
    check_trap(161, tc, CAUSE_ILLEGAL_INSTRUCTION, 0xf14022f3); /* csrr t0, mhartid */
    fw_expected[FW_ILLEGAL_INSN]++;
    /* access faults */
    tc = trap_count;
    asm volatile("ld %0, 0(%1)" : "=r"(v64) : "r"(0x40000000UL) : "memory");
    check_trap(162, tc, CAUSE_LOAD_ACCESS, 0x40000000UL);
    fw_expected[FW_ACCESS_LOAD]++;
    tc = trap_count;
    asm volatile("sd zero, 8(%0)" ::"r"(0x40000000UL) : "memory");
    check_trap(163, tc, CAUSE_STORE_ACCESS, 0x40000008UL);
    fw_expected[FW_ACCESS_STORE]++;
    tc = trap_count;
    ((void (*)(void))0x40000000UL)();
    check_trap(164, tc, CAUSE_FETCH_ACCESS, 0x40000000UL);
    /* delegated: breakpoint goes to S-mode directly */
    tc = trap_count;
    asm volatile("ebreak");
    check(165, trap_count == tc + 1 && last_cause == CAUSE_BREAKPOINT);
    /* from U-mode: an illegal hpm counter read (redirected, SPP = U), then ecall (delegated) */
    tc = trap_count;
    run_in_u();
    check(166, trap_count == tc + 2 && last_cause == CAUSE_USER_ECALL);
    fw_expected[FW_ILLEGAL_INSN]++;

    /* ---- SRST error paths (200-209) */
    check_err(200, SBI2(SBI_EXT_SRST, 0, 3, 0), SBI_ERR_INVALID_PARAM);
    check_err(201, SBI2(SBI_EXT_SRST, 0, 0xF0000000UL, 0), SBI_ERR_INVALID_PARAM);
    check_err(202, SBI2(SBI_EXT_SRST, 0, 0, 2), SBI_ERR_INVALID_PARAM);
    check_err(203, SBI2(SBI_EXT_SRST, 0, 0, 0xF0000000UL), SBI_ERR_INVALID_PARAM);
    check_err(204, SBI2(SBI_EXT_SRST, 0, 0x100000000UL, 0), SBI_ERR_INVALID_PARAM);
    check_err(205, SBI2(SBI_EXT_SRST, 0, 0, 0x1FFFFFFFFUL), SBI_ERR_INVALID_PARAM);
    check_err(206, SBI0(SBI_EXT_SRST, 1), SBI_ERR_NOT_SUPPORTED);

    /* ---- the firmware counters counted what the SBI saw (210-229) */
    for (unsigned i = 0; i < NFW; i++) {
        r = SBI1(SBI_EXT_PMU, SBI_PMU_FW_READ, fw_counter[i]);
        checks++;
        if (r.error != 0 || r.value != fw_expected[fw_events[i]])
            fail(210 + (int)fw_events[i], r.error, r.value);
        check_ret(230, SBI1(SBI_EXT_PMU, SBI_PMU_FW_READ_HI, fw_counter[i]), 0, 0);
    }

    printf("sbi_ext: all %d checks passed\n", checks);
    return 0;
}
