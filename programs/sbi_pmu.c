/* sbi_pmu.c - the SBI PMU extension from S-mode, used the way Linux's riscv_pmu_sbi driver uses
 * it: probe, num_counters, counter_get_info for every counter, event_get_info, config_matching
 * for every hardware general event and every cache event (CLEAR_VALUE, SKIP_MATCH, AUTO_START,
 * the inhibit flags), start with an initial value, reads through csrr, stop (RESET,
 * TAKE_SNAPSHOT), firmware counters (fw_read, fw_read_hi), snapshot shared memory, and
 * overflow sampling with LCOFI delegated to S-mode collecting the sampled pc. Every result,
 * error paths included, is checked against the tables below; the first mismatch prints
 * "FAIL: test n" and exits with n (through SBI SRST).
 *
 * Counted events are checked exactly on a block of known content (run_w below: 17
 * instructions, 4 loads, 3 stores, 1 AMO, 2 taken and 2 not-taken branches, 1 call, 1 return,
 * 1 jump, 2 FP operations), model events (caches, TLB, branch predictor) within bounds.
 *
 * hartscope-only: runs in S-mode under hartscope's built-in SBI, with hartscope's PMU events
 * hartscope-options: --sbi builtin --pmu-models all
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "encoding.h"
#include "runtime.h"
#include "sbi.h"
#include "sbi_check.h"

#define SCAUSE_INTR (1UL << 63)
#define IRQ_LCOF 13
#define SIP_LCOFIP (1UL << IRQ_LCOF)
#define SSTATUS_SIE (1UL << 1)
#define NHPM 29
#define NCTR (3 + NHPM + 16)
#define FW_FIRST (3 + NHPM)
#define ALL_MASK (((1UL << NCTR) - 1) & ~2UL)
#define HPM_MASK (((1UL << (3 + NHPM)) - 1) & ~7UL)


#define PMU(fid, a, b, c, d, e) sbi_call(SBI_EXT_PMU, fid, a, b, c, d, e, 0)

/* ---------------------------------------------------------------- counters through csrr */

#define RD(n) case n: return csr_read(hpmcounter##n);
static unsigned long read_counter(unsigned idx)
{
    switch (idx) {
    case 0: return csr_read(cycle);
    case 2: return csr_read(instret);
    RD(3) RD(4) RD(5) RD(6) RD(7) RD(8) RD(9) RD(10) RD(11) RD(12) RD(13) RD(14) RD(15)
    RD(16) RD(17) RD(18) RD(19) RD(20) RD(21) RD(22) RD(23) RD(24) RD(25) RD(26) RD(27)
    RD(28) RD(29) RD(30) RD(31)
    }
    return 0;
}

/* ---------------------------------------------------------------- the measured block */

/* run_w(init): counter_start(3, SET_INIT_VALUE, init), the block, csrr hpmcounter3 (returned);
 * the start's error goes to w_err. The block between the start's ecall and the csrr: */
unsigned long w_err;
uint64_t w_data[8] __attribute__((aligned(64))) = {1, 2, 3, 4, 5, 6, 7, 8};
unsigned long run_w(unsigned long init);
asm(".text\n.align 2\n.option push\n.option norvc\n"
    ".globl run_w\nrun_w:\n"
    "  mv t4, ra\n"
    "  la t0, w_data\n"
    "  mv a3, a0\n  li a0, 3\n  li a1, 1\n  li a2, 1\n"
    "  li a6, 3\n  li a7, 0x504D55\n"
    "  ecall\n"
    "  ld t1, 0(t0)\n  ld t2, 8(t0)\n  lw t3, 16(t0)\n  lbu t3, 17(t0)\n" /* 4 loads */
    "  sd t1, 24(t0)\n  sw t2, 32(t0)\n  sb t3, 40(t0)\n"                  /* 3 stores */
    "  amoadd.d t1, t1, (t0)\n"                                              /* 1 AMO */
    "  beq x0, x0, 1f\n1: beq x0, x0, 2f\n2: bne x0, x0, 3f\n3: bne x0, x0, 3b\n"
    "  jal ra, w_fn\n"                                                       /* call, return */
    "  j 4f\n4:\n"                                                           /* jump */
    "  fadd.d ft0, ft0, ft0\n  fmul.d ft0, ft0, ft0\n"                      /* 2 FP */
    "  csrr t5, hpmcounter3\n"
    "  mv ra, t4\n"
    "  la t0, w_err\n  sd a0, 0(t0)\n"
    "  mv a0, t5\n  ret\n"
    "w_fn: ret\n"
    ".option pop\n");

/* ---------------------------------------------------------------- sampling */

#define MAX_SAMPLES 64
static volatile unsigned long samples[MAX_SAMPLES], nsamples, lcofi_count, ovf_seen;
static volatile unsigned long sample_period, restart; /* restart: re-arm in the handler */

long s_trap_handler(struct trap_frame *f)
{
    if (f->cause != (SCAUSE_INTR | IRQ_LCOF))
        sbi_exit(254);
    /* as riscv_pmu_sbi's overflow handler: which counters overflowed, stop them, clear the
       interrupt, take the sample, restart with the period */
    unsigned long ovf = csr_read(0xda0); /* scountovf */
    ovf_seen |= ovf;
    lcofi_count++;
    PMU(SBI_PMU_COUNTER_STOP, 3, 1, 0, 0, 0);
    csr_clear(sip, SIP_LCOFIP);
    if (nsamples < MAX_SAMPLES)
        samples[nsamples++] = f->epc;
    if (restart)
        PMU(SBI_PMU_COUNTER_START, 3, 1, START_SET_INIT_VALUE, -sample_period, 0);
    return 1;
}

/* sample_sled(period): counter 3 started at -period, then 64 four-byte nops */
void sample_sled(unsigned long period);
extern char sled_start[];
asm(".text\n.align 2\n.option push\n.option norvc\n"
    ".globl sample_sled, sled_start\nsample_sled:\n"
    "  neg a3, a0\n  li a0, 3\n  li a1, 1\n  li a2, 1\n"
    "  li a6, 3\n  li a7, 0x504D55\n"
    "  ecall\n"
    "sled_start:\n"
    "  .rept 64\n  nop\n  .endr\n"
    "  ret\n"
    ".option pop\n");

/* a loop of 4 instructions per iteration, n iterations */
void workload(unsigned long n);
extern char workload_start[], workload_end[];
asm(".text\n.align 2\n.option push\n.option norvc\n"
    ".globl workload, workload_start, workload_end\nworkload:\n"
    "workload_start:\n"
    "1: addi a0, a0, -1\n  xor t0, t0, a0\n  add t1, t1, t0\n  bnez a0, 1b\n"
    "workload_end:\n"
    "  ret\n"
    ".option pop\n");

/* ---------------------------------------------------------------- tables */

/* get_info: what every counter reports */
static unsigned long expected_info(unsigned i)
{
    if (i >= FW_FIRST)
        return 1UL << 63 | 63UL << 12;
    return (0xc00 + i) | 63UL << 12;
}

/* hardware general events: supported with the models on (BUS_CYCLES never; 0 is "no event") */
static const struct {
    unsigned long code;
    int supported;
} general[] = {
    {0, 0}, {1, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 1}, {6, 1}, {7, 0}, {8, 1}, {9, 1}, {10, 1},
    {11, 0},
};

/* cache events: supported[cache][op] (read, write, prefetch) for access and miss alike */
static const int cache_supported[7][3] = {
    {1, 1, 0}, /* L1D */
    {1, 0, 0}, /* L1I */
    {1, 1, 0}, /* LL */
    {1, 1, 0}, /* DTLB */
    {1, 0, 0}, /* ITLB */
    {1, 0, 0}, /* BPU */
    {0, 0, 0}, /* NODE */
};
#define CACHE_EV(c, op, res) (0x10000UL | (c) << 3 | (op) << 1 | (res))

/* events counted on run_w: event_idx, event_data, counted minimum and maximum */
static const struct {
    unsigned long idx, data, min, max;
} counted[] = {
    {0x2, 0, 17, 17},            /* INSTRUCTIONS */
    {0x5, 0, 7, 7},              /* BRANCH_INSTRUCTIONS: 4 conditional, jump, call, return */
    {0x1, 0, 17, 17 + 1000},     /* CPU_CYCLES: instructions plus stalls */
    {0xa, 0, 17, 17 + 1000},     /* REF_CPU_CYCLES */
    {0x3, 0, 8, 8},              /* CACHE_REFERENCES: 4 reads + 4 writes, one line each */
    {0x4, 0, 0, 8},              /* CACHE_MISSES */
    {0x6, 0, 0, 7},              /* BRANCH_MISSES */
    {0x8, 0, 0, 1000},           /* STALLED_CYCLES_FRONTEND */
    {0x9, 0, 0, 1000},           /* STALLED_CYCLES_BACKEND */
    {CACHE_EV(0, 0, 0), 0, 4, 4}, /* L1D read access: the 4 loads */
    {CACHE_EV(0, 0, 1), 0, 0, 4},
    {CACHE_EV(0, 1, 0), 0, 4, 4}, /* L1D write access: 3 stores and the AMO */
    {CACHE_EV(0, 1, 1), 0, 0, 4},
    {CACHE_EV(1, 0, 0), 0, 1, 6}, /* L1I read access: the block spans 2 or 3 lines */
    {CACHE_EV(3, 0, 0), 0, 0, 0}, /* DTLB: bare (satp = 0): no lookups */
    {CACHE_EV(3, 1, 0), 0, 0, 0},
    {CACHE_EV(4, 0, 0), 0, 0, 0}, /* ITLB */
    {CACHE_EV(5, 0, 0), 0, 7, 7}, /* BPU read access = branch instructions */
    {CACHE_EV(5, 0, 1), 0, 0, 7},
    {0x20000, 0x20001, 4, 4},    /* raw: LOADS */
    {0x20000, 0x20002, 3, 3},    /* STORES */
    {0x20000, 0x20003, 1, 1},    /* ATOMICS */
    {0x20000, 0x20004, 2, 2},    /* BRANCHES_TAKEN */
    {0x20000, 0x20005, 2, 2},    /* BRANCHES_NOT_TAKEN */
    {0x20000, 0x20006, 1, 1},    /* JUMPS */
    {0x20000, 0x20007, 1, 1},    /* CALLS */
    {0x20000, 0x20008, 1, 1},    /* RETURNS */
    {0x20000, 0x20009, 2, 2},    /* FP_OPS */
    {0x20000, 0x2000a, 0, 0},    /* EXCEPTIONS (the start's ecall comes before counting) */
    {0x20000, 0x2000b, 0, 0},    /* INTERRUPTS */
    {0x20000, 0x2000c, 0, 0},    /* MISALIGNED */
    {0x20000, 0x2000d, 4, 4},    /* CONDITIONAL_BRANCHES */
    {0x20000, 0x2000e, 0, 4},    /* COND_MISPREDICTS */
    {0x20000, 0x2000f, 0, 3},    /* TARGET_MISPREDICTS */
    {0x30000, 0x20001, 4, 4},    /* raw v2: LOADS */
    {0x30000, 0xff00000000020002UL, 3, 3}, /* raw v2: bits 63:56 are not the selector's */
};

/* config_matching results: base, mask, flags, event_idx, event_data -> error, counter */
static const struct {
    unsigned long base, mask, flags, idx, data;
    long err;
    unsigned long ctr;
} matching[] = {
    /* errors */
    {0, 0, 0, 2, 0, SBI_ERR_INVALID_PARAM, 0},               /* empty set */
    {0, 2, 0, 2, 0, SBI_ERR_INVALID_PARAM, 0},               /* the hole (time) */
    {0, 7, 0, 2, 0, SBI_ERR_INVALID_PARAM, 0},               /* a set naming the hole */
    {NCTR - 1, 3, 0, 2, 0, SBI_ERR_INVALID_PARAM, 0},        /* past the last counter */
    {~0UL, 3, 0, 2, 0, SBI_ERR_INVALID_PARAM, 0},            /* base + bit overflows */
    {0, ALL_MASK, 1UL << 8, 2, 0, SBI_ERR_INVALID_PARAM, 0}, /* reserved flag bit */
    {0, ALL_MASK, 0, 0x40000, 0, SBI_ERR_NOT_SUPPORTED, 0},  /* unknown type */
    {0, ALL_MASK, 0, 0x100002, 0, SBI_ERR_NOT_SUPPORTED, 0}, /* reserved event_idx bit */
    {0, ALL_MASK, 0, 0x20001, 0x20001, SBI_ERR_NOT_SUPPORTED, 0}, /* raw: code not 0 */
    {0, ALL_MASK, 0, 0x20000, 0x12345, SBI_ERR_NOT_SUPPORTED, 0}, /* raw: not an event */
    {0, ALL_MASK, 0, 0xf0016, 0, SBI_ERR_NOT_SUPPORTED, 0},  /* firmware code 22 */
    {0, ALL_MASK, 0, 0xfffff, 0, SBI_ERR_NOT_SUPPORTED, 0},  /* firmware platform event */
    {0, 1, 0, 2, 0, SBI_ERR_NOT_SUPPORTED, 0},               /* instructions on cycle */
    {0, 4, 0, 5, 0, SBI_ERR_NOT_SUPPORTED, 0},               /* branches on instret */
    {0, HPM_MASK, 0, 0xf0005, 0, SBI_ERR_NOT_SUPPORTED, 0},  /* fw event on hw counters */
    {FW_FIRST, 0xffff, 0, 2, 0, SBI_ERR_NOT_SUPPORTED, 0},   /* hw event on fw counters */
    {0, 1, CFG_SKIP_MATCH, 2, 0, SBI_ERR_NOT_SUPPORTED, 0},  /* SKIP_MATCH, cannot count it */
    /* matches (each freed again with stop RESET before the next) */
    {0, ALL_MASK, 0, 1, 0, 0, 3},             /* cycles: an hpm counter first (sampling) */
    {0, ALL_MASK, 0, 2, 0, 0, 3},
    {0, 1, 0, 1, 0, 0, 0},                    /* cycles on mcycle when it is the only one */
    {0, 5, 0, 2, 0, 0, 2},                    /* instructions on minstret */
    {8, 0xf0, 0, 2, 0, 0, 12},                /* the lowest free counter of the set */
    {5, 1, CFG_SKIP_MATCH, 5, 0, 0, 5},       /* SKIP_MATCH: the first counter, as is */
    {0, 1, CFG_SKIP_MATCH, 1, 0, 0, 0},
    {0, ALL_MASK, CFG_SET_VUINH | CFG_SET_VSINH | CFG_SET_MINH, 2, 0, 0, 3}, /* hints */
    {0, ALL_MASK, 0, 0xf0004, 0, 0, FW_FIRST}, /* firmware: the first free fw counter */
    {FW_FIRST + 3, 1, CFG_SKIP_MATCH, 0xf0005, 0, 0, FW_FIRST + 3},
};

/* event_get_info entries */
struct event_info {
    uint32_t event_idx;
    uint32_t output;
    uint64_t event_data;
};
static struct event_info infos[128] __attribute__((aligned(16)));
static uint8_t snapshot[2][4096] __attribute__((aligned(4096)));

static void free_counter(int n, unsigned long c)
{
    /* stop with RESET: frees it whether it was running or not */
    struct sbiret r = PMU(SBI_PMU_COUNTER_STOP, c, 1, STOP_RESET, 0, 0);
    checks++;
    if (r.error != 0 && r.error != SBI_ERR_ALREADY_STOPPED)
        fail(n, r.error, r.value);
}

int main(void)
{
    struct sbiret r;

    /* ---- probe (1-9), as the driver's probe does */
    check_ret(1, SBI1(SBI_EXT_BASE, 3, SBI_EXT_PMU), 0, 1);
    r = SBI0(SBI_EXT_BASE, 0);
    check(2, r.error == 0 && r.value >= 0x03000000);
    check_ret(3, PMU(SBI_PMU_NUM_COUNTERS, 0, 0, 0, 0, 0), 0, NCTR);
    check_err(4, PMU(9, 0, 0, 0, 0, 0), SBI_ERR_NOT_SUPPORTED);

    /* ---- counter_get_info for every counter (10-19) */
    for (unsigned i = 0; i <= NCTR; i++) {
        r = PMU(SBI_PMU_COUNTER_GET_INFO, i, 0, 0, 0, 0);
        if (i == 1 || i == NCTR)
            check_err(10, r, SBI_ERR_INVALID_PARAM); /* time is a hole; past the last */
        else
            check_ret(11, r, 0, expected_info(i));
    }
    check_err(12, PMU(SBI_PMU_COUNTER_GET_INFO, ~0UL, 0, 0, 0, 0), SBI_ERR_INVALID_PARAM);
    /* every hardware counter reads through its CSR in S-mode (mcounteren = all ones) */
    for (unsigned i = 0; i < 32; i++)
        if (i != 1)
            (void)read_counter(i);

    /* ---- event_get_info (20-39) */
    unsigned n = 0;
    for (unsigned i = 0; i < sizeof general / sizeof general[0]; i++)
        infos[n++] = (struct event_info){general[i].code, 0xffff, 0};
    for (unsigned c = 0; c < 7; c++)
        for (unsigned op = 0; op < 3; op++)
            for (unsigned res = 0; res < 2; res++)
                infos[n++] = (struct event_info){CACHE_EV(c, op, res), 0xffff, 0};
    for (unsigned e = 0x20001; e <= 0x2000f; e++)
        infos[n++] = (struct event_info){0x20000, 0xffff, e};
    infos[n++] = (struct event_info){0x20000, 0xffff, 0x20010};
    infos[n++] = (struct event_info){0x30000, 0xffff, 0x20004};
    for (unsigned e = 0; e <= 22; e++)
        infos[n++] = (struct event_info){0xf0000 | e, 0xffff, 0};
    infos[n++] = (struct event_info){0xf0100, 0xffff, 0};
    infos[n++] = (struct event_info){0xfffff, 0xffff, 0};
    check_ret(20, PMU(SBI_PMU_EVENT_GET_INFO, (unsigned long)infos, 0, n, 0, 0), 0, 0);
    unsigned k = 0;
    for (unsigned i = 0; i < sizeof general / sizeof general[0]; i++, k++)
        check(21, infos[k].output == (uint32_t)general[i].supported);
    for (unsigned c = 0; c < 7; c++)
        for (unsigned op = 0; op < 3; op++)
            for (unsigned res = 0; res < 2; res++, k++)
                check(22, infos[k].output == (uint32_t)cache_supported[c][op]);
    for (unsigned e = 0x20001; e <= 0x2000f; e++, k++)
        check(23, infos[k].output == 1);
    check(24, infos[k++].output == 0);
    check(25, infos[k++].output == 1);
    for (unsigned e = 0; e <= 22; e++, k++)
        check(26, infos[k].output == (e <= 21));
    check(27, infos[k++].output == 0 && infos[k++].output == 0 && k == n);
    check_err(28, PMU(SBI_PMU_EVENT_GET_INFO, (unsigned long)infos, 0, n, 1, 0), SBI_ERR_INVALID_PARAM);
    check_err(29, PMU(SBI_PMU_EVENT_GET_INFO, (unsigned long)infos + 8, 0, 1, 0, 0), SBI_ERR_INVALID_PARAM);
    check_err(30, PMU(SBI_PMU_EVENT_GET_INFO, (unsigned long)infos, 0, 0, 0, 0), SBI_ERR_INVALID_PARAM);
    check_err(31, PMU(SBI_PMU_EVENT_GET_INFO, (unsigned long)infos, 1, 1, 0, 0), SBI_ERR_INVALID_ADDRESS);
    check_err(32, PMU(SBI_PMU_EVENT_GET_INFO, 0x1000, 0, 1, 0, 0), SBI_ERR_INVALID_ADDRESS);
    infos[0].event_idx = 0x100002; /* a reserved event_idx bit: nothing is written */
    infos[1].output = 0xabcd;
    check_err(33, PMU(SBI_PMU_EVENT_GET_INFO, (unsigned long)infos, 0, 2, 0, 0), SBI_ERR_INVALID_PARAM);
    check(34, infos[1].output == 0xabcd);

    /* ---- config_matching table (40-59) */
    for (unsigned i = 0; i < sizeof matching / sizeof matching[0]; i++) {
        r = PMU(SBI_PMU_CFG_MATCH, matching[i].base, matching[i].mask, matching[i].flags,
                matching[i].idx, matching[i].data);
        checks++;
        if (r.error != matching[i].err || (r.error == 0 && r.value != matching[i].ctr)) {
            printf("config_matching row %u\n", i);
            fail(40, r.error, r.value);
        }
        if (r.error == 0 && r.value >= 3) /* cycle and instret are dedicated: they run on */
            free_counter(41, r.value);
    }

    /* ---- every general and cache event: config_matching as the driver does it (60-79) */
    for (unsigned i = 0; i < sizeof general / sizeof general[0]; i++) {
        r = PMU(SBI_PMU_CFG_MATCH, 0, ALL_MASK, CFG_CLEAR_VALUE, general[i].code, 0);
        if (general[i].supported) {
            check_ret(60, r, 0, 3);
            free_counter(61, 3);
        } else {
            check_err(62, r, SBI_ERR_NOT_SUPPORTED);
        }
    }
    for (unsigned c = 0; c < 7; c++)
        for (unsigned op = 0; op < 3; op++)
            for (unsigned res = 0; res < 2; res++) {
                r = PMU(SBI_PMU_CFG_MATCH, 0, HPM_MASK, CFG_CLEAR_VALUE, CACHE_EV(c, op, res), 0);
                if (cache_supported[c][op]) {
                    check_ret(63, r, 0, 3);
                    free_counter(64, 3);
                } else {
                    check_err(65, r, SBI_ERR_NOT_SUPPORTED);
                }
            }

    /* ---- counting: start with an initial value, the block, read with csrr (80-99) */
    for (unsigned i = 0; i < sizeof counted / sizeof counted[0]; i++) {
        r = PMU(SBI_PMU_CFG_MATCH, 0, HPM_MASK, CFG_CLEAR_VALUE, counted[i].idx, counted[i].data);
        check_ret(80, r, 0, 3);
        unsigned long v = run_w(1000);
        checks++;
        if (w_err != 0 || v < 1000 + counted[i].min || v > 1000 + counted[i].max) {
            printf("counted row %u: %lu\n", i, v - 1000);
            fail(81, (long)w_err, v);
        }
        check_ret(82, PMU(SBI_PMU_COUNTER_STOP, 3, 1, 0, 0, 0), 0, 0);
        /* stopped: the value stays */
        unsigned long a = read_counter(3);
        check(83, read_counter(3) == a && a >= v);
        check_err(84, PMU(SBI_PMU_COUNTER_STOP, 3, 1, 0, 0, 0), SBI_ERR_ALREADY_STOPPED);
        check_ret(85, PMU(SBI_PMU_COUNTER_STOP, 3, 1, STOP_RESET, 0, 0), SBI_ERR_ALREADY_STOPPED, 0);
    }

    /* ---- start and stop (100-139) */
    /* start: errors */
    check_err(100, PMU(SBI_PMU_COUNTER_START, 3, 1, 0, 0, 0), SBI_ERR_INVALID_PARAM); /* not configured */
    check_err(101, PMU(SBI_PMU_COUNTER_START, 0, 0, 0, 0, 0), SBI_ERR_INVALID_PARAM);
    check_err(102, PMU(SBI_PMU_COUNTER_START, 1, 1, 0, 0, 0), SBI_ERR_INVALID_PARAM);
    check_err(103, PMU(SBI_PMU_COUNTER_START, 0, 1, 4, 0, 0), SBI_ERR_INVALID_PARAM);
    check_err(104, PMU(SBI_PMU_COUNTER_START, 0, 1, START_INIT_SNAPSHOT, 0, 0), SBI_ERR_NO_SHMEM);
    check_err(105, PMU(SBI_PMU_COUNTER_START, 0, 1, 0, 0, 0), SBI_ERR_ALREADY_STARTED); /* cycle runs */
    check_err(106, PMU(SBI_PMU_COUNTER_STOP, 0, 1, 4, 0, 0), SBI_ERR_INVALID_PARAM);
    check_err(107, PMU(SBI_PMU_COUNTER_STOP, 0, 1, STOP_TAKE_SNAPSHOT, 0, 0), SBI_ERR_NO_SHMEM);
    check_err(108, PMU(SBI_PMU_COUNTER_STOP, 3, 1, 0, 0, 0), SBI_ERR_INVALID_PARAM); /* not configured */
    /* AUTO_START: counting without a start; starting again is ALREADY_STARTED */
    check_ret(110, PMU(SBI_PMU_CFG_MATCH, 0, HPM_MASK, CFG_CLEAR_VALUE | CFG_AUTO_START, 2, 0), 0, 3);
    unsigned long a = read_counter(3);
    check(111, a > 0 && a < 100 && read_counter(3) > a);
    check_err(112, PMU(SBI_PMU_COUNTER_START, 3, 1, START_SET_INIT_VALUE, 5, 0), SBI_ERR_ALREADY_STARTED);
    check(113, read_counter(3) > a); /* a running counter keeps its value */
    check_ret(114, PMU(SBI_PMU_COUNTER_STOP, 3, 1, 0, 0, 0), 0, 0);
    a = read_counter(3);
    /* configured again without CLEAR_VALUE the value stays; with it, it is 0 */
    free_counter(115, 3);
    check_ret(116, PMU(SBI_PMU_CFG_MATCH, 0, HPM_MASK, 0, 2, 0), 0, 3);
    check(117, read_counter(3) == a);
    free_counter(118, 3);
    check_ret(119, PMU(SBI_PMU_CFG_MATCH, 0, HPM_MASK, CFG_CLEAR_VALUE, 2, 0), 0, 3);
    check(120, read_counter(3) == 0);
    /* SET_SINH: no counting in S-mode */
    free_counter(121, 3);
    check_ret(122, PMU(SBI_PMU_CFG_MATCH, 0, HPM_MASK, CFG_CLEAR_VALUE | CFG_SET_SINH | CFG_AUTO_START, 2, 0), 0, 3);
    workload(100);
    check(123, read_counter(3) == 0);
    free_counter(124, 3);
    /* SET_UINH alone: S-mode counts */
    check_ret(125, PMU(SBI_PMU_CFG_MATCH, 0, HPM_MASK, CFG_CLEAR_VALUE | CFG_SET_UINH | CFG_AUTO_START, 2, 0), 0, 3);
    workload(100);
    check(126, read_counter(3) >= 400);
    free_counter(127, 3);
    /* a set of several counters, started and stopped together */
    for (unsigned c = 3; c < 6; c++)
        check_ret(128, PMU(SBI_PMU_CFG_MATCH, c, 1, CFG_CLEAR_VALUE, 2, 0), 0, c);
    check_ret(129, PMU(SBI_PMU_COUNTER_START, 3, 7, START_SET_INIT_VALUE, 100, 0), 0, 0);
    workload(10);
    check_ret(130, PMU(SBI_PMU_COUNTER_STOP, 3, 7, 0, 0, 0), 0, 0);
    check(131, read_counter(3) > 140 && read_counter(3) == read_counter(4) && read_counter(4) == read_counter(5));
    /* a set with a running and a stopped counter: the others are done, ALREADY_STARTED */
    check_ret(132, PMU(SBI_PMU_COUNTER_START, 3, 1, 0, 0, 0), 0, 0);
    check_err(133, PMU(SBI_PMU_COUNTER_START, 3, 7, 0, 0, 0), SBI_ERR_ALREADY_STARTED);
    check_err(134, PMU(SBI_PMU_COUNTER_START, 4, 1, 0, 0, 0), SBI_ERR_ALREADY_STARTED);
    check_ret(135, PMU(SBI_PMU_COUNTER_STOP, 3, 7, STOP_RESET, 0, 0), 0, 0);
    /* all hpm counters taken: no match */
    for (unsigned c = 3; c < 3 + NHPM; c++)
        check_ret(136, PMU(SBI_PMU_CFG_MATCH, 0, HPM_MASK, 0, 5, 0), 0, c);
    check_err(137, PMU(SBI_PMU_CFG_MATCH, 0, HPM_MASK, 0, 5, 0), SBI_ERR_NOT_SUPPORTED);
    check_ret(138, PMU(SBI_PMU_CFG_MATCH, 0, ALL_MASK, 0, 2, 0), 0, 2); /* falls back to minstret */
    check_ret(139, PMU(SBI_PMU_COUNTER_STOP, 3, (1UL << NHPM) - 1, STOP_RESET, 0, 0), SBI_ERR_ALREADY_STOPPED, 0);

    /* ---- firmware counters (140-159) */
    r = PMU(SBI_PMU_CFG_MATCH, 0, ALL_MASK, CFG_CLEAR_VALUE | CFG_AUTO_START, 0xf0000 | FW_SET_TIMER, 0);
    check_ret(140, r, 0, FW_FIRST);
    for (int i = 0; i < 3; i++)
        SBI1(SBI_EXT_TIME, 0, ~0UL);
    check_ret(141, PMU(SBI_PMU_FW_READ, FW_FIRST, 0, 0, 0, 0), 0, 3);
    check_ret(142, PMU(SBI_PMU_FW_READ_HI, FW_FIRST, 0, 0, 0, 0), 0, 0);
    check_ret(143, PMU(SBI_PMU_COUNTER_STOP, FW_FIRST, 1, 0, 0, 0), 0, 0);
    SBI1(SBI_EXT_TIME, 0, ~0UL);
    check_ret(144, PMU(SBI_PMU_FW_READ, FW_FIRST, 0, 0, 0, 0), 0, 3); /* stopped */
    check_ret(145, PMU(SBI_PMU_COUNTER_START, FW_FIRST, 1, START_SET_INIT_VALUE, 100, 0), 0, 0);
    SBI1(SBI_EXT_TIME, 0, ~0UL);
    check_ret(146, PMU(SBI_PMU_FW_READ, FW_FIRST, 0, 0, 0, 0), 0, 101);
    check_err(147, PMU(SBI_PMU_COUNTER_START, FW_FIRST, 1, 0, 0, 0), SBI_ERR_ALREADY_STARTED);
    check_err(148, PMU(SBI_PMU_FW_READ, 3, 0, 0, 0, 0), SBI_ERR_INVALID_PARAM);   /* hardware */
    check_err(149, PMU(SBI_PMU_FW_READ, 1, 0, 0, 0, 0), SBI_ERR_INVALID_PARAM);   /* the hole */
    check_err(150, PMU(SBI_PMU_FW_READ, NCTR, 0, 0, 0, 0), SBI_ERR_INVALID_PARAM); /* past */
    check_err(151, PMU(SBI_PMU_FW_READ, FW_FIRST + 1, 0, 0, 0, 0), SBI_ERR_INVALID_PARAM); /* free */
    check_err(152, PMU(SBI_PMU_FW_READ_HI, 3, 0, 0, 0, 0), SBI_ERR_INVALID_PARAM);
    check_err(153, PMU(SBI_PMU_FW_READ_HI, FW_FIRST + 1, 0, 0, 0, 0), SBI_ERR_INVALID_PARAM);
    check_ret(154, PMU(SBI_PMU_COUNTER_STOP, FW_FIRST, 1, STOP_RESET, 0, 0), 0, 0);
    check_err(155, PMU(SBI_PMU_FW_READ, FW_FIRST, 0, 0, 0, 0), SBI_ERR_INVALID_PARAM); /* freed */

    /* ---- snapshot shared memory (160-189) */
    unsigned long shm = (unsigned long)snapshot[0];
    check_err(160, PMU(SBI_PMU_SNAPSHOT_SET_SHMEM, shm + 8, 0, 0, 0, 0), SBI_ERR_INVALID_PARAM);
    check_err(161, PMU(SBI_PMU_SNAPSHOT_SET_SHMEM, shm, 1, 0, 0, 0), SBI_ERR_INVALID_ADDRESS);
    check_err(162, PMU(SBI_PMU_SNAPSHOT_SET_SHMEM, 0x1000, 0, 0, 0, 0), SBI_ERR_INVALID_ADDRESS);
    check_err(163, PMU(SBI_PMU_SNAPSHOT_SET_SHMEM, shm, 0, 1, 0, 0), SBI_ERR_INVALID_PARAM);
    check_ret(164, PMU(SBI_PMU_SNAPSHOT_SET_SHMEM, shm, 0, 0, 0, 0), 0, 0);
    uint64_t *bitmap = (uint64_t *)snapshot[0];
    uint64_t *values = bitmap + 1;
    memset(snapshot[0], 0xee, 64); /* the SBI writes only what it must */
    check_ret(165, PMU(SBI_PMU_CFG_MATCH, 3, 1, CFG_CLEAR_VALUE, 2, 0), 0, 3);
    check_ret(166, PMU(SBI_PMU_CFG_MATCH, 4, 1, CFG_CLEAR_VALUE, 5, 0), 0, 4);
    check_ret(167, PMU(SBI_PMU_COUNTER_START, 3, 3, START_SET_INIT_VALUE, 50, 0), 0, 0);
    workload(10);
    check_ret(168, PMU(SBI_PMU_COUNTER_STOP, 3, 3, STOP_TAKE_SNAPSHOT, 0, 0), 0, 0);
    check(169, values[0] == read_counter(3) && values[0] >= 90 && values[1] == read_counter(4));
    check(170, values[2] == 0xeeeeeeeeeeeeeeeeULL); /* counter 5: not in the set */
    check(171, (*bitmap & 3) == 0);
    /* start from the snapshot: counter_values relative to counter_idx_base */
    values[0] = 7000;
    values[1] = 8000;
    check_ret(172, PMU(SBI_PMU_COUNTER_START, 3, 3, START_INIT_SNAPSHOT, 0, 0), 0, 0);
    check(173, read_counter(3) >= 7000 && read_counter(3) < 7100 && read_counter(4) >= 8000 && read_counter(4) < 8100);
    check_ret(174, PMU(SBI_PMU_COUNTER_STOP, 3, 3, STOP_RESET | STOP_TAKE_SNAPSHOT, 0, 0), 0, 0);
    /* a second page; disable; then NO_SHMEM again */
    check_ret(175, PMU(SBI_PMU_SNAPSHOT_SET_SHMEM, (unsigned long)snapshot[1], 0, 0, 0, 0), 0, 0);
    check_ret(176, PMU(SBI_PMU_SNAPSHOT_SET_SHMEM, ~0UL, ~0UL, 0, 0, 0), 0, 0);
    check_err(177, PMU(SBI_PMU_COUNTER_STOP, 0, 1, STOP_TAKE_SNAPSHOT, 0, 0), SBI_ERR_NO_SHMEM);

    /* ---- overflow sampling with LCOFI in S-mode (190-219) */
    csr_set(sie, SIP_LCOFIP);
    csr_set(sstatus, SSTATUS_SIE);
    /* one sample, skid-free: started at -10, the interrupt comes after the 10th nop */
    restart = 0;
    check_ret(190, PMU(SBI_PMU_CFG_MATCH, 0, HPM_MASK, CFG_CLEAR_VALUE, 2, 0), 0, 3);
    sample_sled(10);
    check(191, lcofi_count == 1 && nsamples == 1);
    check(192, samples[0] == (unsigned long)sled_start + 10 * 4);
    check(193, ovf_seen == 1UL << 3);
    check(194, (csr_read(sip) & SIP_LCOFIP) == 0);
    /* the overflowed counter in a snapshot: its bit in the overflow bitmap */
    check_ret(195, PMU(SBI_PMU_SNAPSHOT_SET_SHMEM, shm, 0, 0, 0, 0), 0, 0);
    check_err(196, PMU(SBI_PMU_COUNTER_STOP, 3, 1, STOP_TAKE_SNAPSHOT, 0, 0), SBI_ERR_ALREADY_STOPPED);
    check(197, (*bitmap & 1) == 1 && values[0] == read_counter(3) && values[0] < 1000);
    check_err(198, PMU(SBI_PMU_COUNTER_STOP, 3, 1, STOP_RESET | STOP_TAKE_SNAPSHOT, 0, 0), SBI_ERR_ALREADY_STOPPED);
    check(199, (*bitmap & 1) == 0);
    /* periodic sampling: 20000 instructions of workload, period 1000 */
    nsamples = 0;
    lcofi_count = 0;
    ovf_seen = 0;
    restart = 1;
    sample_period = 1000;
    check_ret(200, PMU(SBI_PMU_CFG_MATCH, 0, HPM_MASK, CFG_CLEAR_VALUE, 2, 0), 0, 3);
    check_ret(201, PMU(SBI_PMU_COUNTER_START, 3, 1, START_SET_INIT_VALUE, -1000UL, 0), 0, 0);
    workload(5000);
    restart = 0;
    free_counter(202, 3);
    check(203, nsamples >= 19 && nsamples <= 21 && lcofi_count == nsamples);
    for (unsigned i = 0; i < nsamples; i++)
        check(204, samples[i] >= (unsigned long)workload_start && samples[i] < (unsigned long)workload_end);
    check(205, ovf_seen == 1UL << 3);
    csr_clear(sstatus, SSTATUS_SIE);
    csr_clear(sie, SIP_LCOFIP);

    printf("sbi_pmu: all %d checks passed (%lu samples)\n", checks, nsamples);
    return 0;
}
