/*
 * hartscope's Linux init: proves the PMU through Linux's own perf driver (riscv_pmu_sbi).
 *
 * Built static on Linux's tools/include/nolibc (scripts/build-linux), it runs as /init of
 * the built-in initramfs:
 *   1. prints a banner, mounts /proc and prints /proc/cpuinfo;
 *   2. samples: INSTRUCTIONS, then CPU_CYCLES, each with sample_period 10000 and
 *      PERF_SAMPLE_IP over pmu_loop(LOOP_N), read from the mmap ring buffer: how many
 *      samples, how many IPs in [pmu_loop, pmu_loop_end), throttle and lost records;
 *   3. counts raw r10001 (L1D read misses: the PMU takes it only with --pmu-models) on
 *      its own over pmu_loop(LOOP_N), saying whether it ran;
 *   4. counts a group of INSTRUCTIONS, CPU_CYCLES and the raw event r20004 (hartscope's
 *      BRANCHES_TAKEN), first over pmu_loop(1) (the baseline), then over pmu_loop(LOOP_N).
 *      These are the last perf events of the run, so --pmu-report's final counter values
 *      are theirs;
 *   5. reads a line from the console (skipping empty ones) and echoes it (unless
 *      "noinput" is on its command line), then powers off.
 * With "bench" on its command line (scripts/bench-linux) it prints the banner and powers
 * off at once: the boot to init, and nothing else, is measured.
 * All events are user-only (exclude_kernel): the SBI programs SINH, so each count is the
 * user instructions between the two ioctls, the same code path in every measurement.
 * tests/linux.rs checks every number against the loop and --pmu-report.
 */
#include <linux/perf_event.h>

#define LOOP_N 350000L   /* pmu_loop(n) retires 4 * n + 1 instructions: 1400001 */
#define PERIOD 10000
#define RING_PAGES 8

void pmu_loop(long n);
extern char pmu_loop_end[];

/* Four instructions an iteration (n - 1 taken branches), the ret after. No compression,
 * so the sizes do not depend on the assembler's choices. */
__asm__(".text\n"
        ".option push\n"
        ".option norvc\n"
        ".globl pmu_loop\n"
        ".type pmu_loop, @function\n"
        "pmu_loop:\n"
        "1:  addi a0, a0, -1\n"
        "    add  t0, t0, a0\n"
        "    xor  t1, t1, t0\n"
        "    bnez a0, 1b\n"
        "    ret\n"
        ".globl pmu_loop_end\n"
        "pmu_loop_end:\n"
        ".size pmu_loop, pmu_loop_end - pmu_loop\n"
        ".option pop\n");

static long perf_open(struct perf_event_attr *a, int group)
{
    return my_syscall5(__NR_perf_event_open, a, 0, -1, group, 0);
}

static void attr_init(struct perf_event_attr *a, unsigned int type, unsigned long long config)
{
    memset(a, 0, sizeof(*a));
    a->size = sizeof(*a);
    a->type = type;
    a->config = config;
    a->disabled = 1;
    a->exclude_kernel = 1;
    a->exclude_hv = 1;
}

static const char *err_name(long e)
{
    switch (-e) {
    case 2: return "ENOENT";
    case 13: return "EACCES";
    case 22: return "EINVAL";
    case 95: return "EOPNOTSUPP";
    default: return "error";
    }
}

/* The one measured code path: enable, the loop, disable. The same in every measurement. */
static __attribute__((noinline)) void measure(int fd, long n)
{
    ioctl(fd, PERF_EVENT_IOC_ENABLE, (void *)PERF_IOC_FLAG_GROUP);
    pmu_loop(n);
    ioctl(fd, PERF_EVENT_IOC_DISABLE, (void *)PERF_IOC_FLAG_GROUP);
}

static unsigned long long read_count(int fd)
{
    unsigned long long v = 0;

    if (read(fd, &v, sizeof(v)) != sizeof(v))
        return ~0ULL;
    return v;
}

static void sample(const char *name, unsigned long long config)
{
    struct perf_event_attr a;
    struct perf_event_mmap_page *meta;
    unsigned long page = 4096, size = page * RING_PAGES;
    unsigned long long head, pos, ip;
    unsigned long samples = 0, in_loop = 0, throttles = 0, lost = 0, other = 0;
    unsigned long lo = (unsigned long)pmu_loop, hi = (unsigned long)pmu_loop_end;
    char *data;
    long fd;

    attr_init(&a, PERF_TYPE_HARDWARE, config);
    a.sample_period = PERIOD;
    a.sample_type = PERF_SAMPLE_IP;
    a.wakeup_events = 1000000;
    fd = perf_open(&a, -1);
    if (fd < 0) {
        printf("sample %s: perf_event_open failed: %s (%ld)\n", name, err_name(fd), fd);
        return;
    }
    meta = mmap(NULL, page + size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (meta == MAP_FAILED) {
        printf("sample %s: mmap failed\n", name);
        close(fd);
        return;
    }
    data = (char *)meta + page;
    measure(fd, LOOP_N);
    head = meta->data_head;
    __asm__ volatile("fence r, rw" ::: "memory");
    for (pos = meta->data_tail; pos < head;) {
        struct perf_event_header h;
        unsigned long off = pos % size;

        memcpy(&h, data + off, sizeof(h));
        if (h.size == 0)
            break;
        if (h.type == PERF_RECORD_SAMPLE) {
            memcpy(&ip, data + (off + sizeof(h)) % size, sizeof(ip));
            samples++;
            if (ip >= lo && ip < hi)
                in_loop++;
        } else if (h.type == PERF_RECORD_THROTTLE) {
            throttles++;
        } else if (h.type == PERF_RECORD_LOST) {
            lost++;
        } else {
            other++;
        }
        pos += h.size;
    }
    printf("sample %s: period %d, %lu samples, %lu in pmu_loop, %lu throttled, %lu lost, %lu other\n",
           name, PERIOD, samples, in_loop, throttles, lost, other);
    munmap(meta, page + size);
    close(fd);
}

/* A group of three user-only events; perf's counts add up over the measurements, so
 * each measurement prints the difference. */
struct counting {
    long fd[3];
    unsigned long long prev[3];
};

static void count(struct counting *c, long n, const char *what)
{
    unsigned long long v[3];
    int i;

    measure(c->fd[0], n);
    for (i = 0; i < 3; i++) {
        unsigned long long now = read_count(c->fd[i]);

        v[i] = now - c->prev[i];
        c->prev[i] = now;
    }
    printf("count %s: instructions %llu, cycles %llu, r20004 %llu\n", what, v[0], v[1], v[2]);
}

/* A raw event on its own: whether the PMU took it (time running) and what it counted. */
static void raw(unsigned long long config)
{
    struct perf_event_attr a;
    unsigned long long v[3] = { 0, 0, 0 };
    long fd;

    attr_init(&a, PERF_TYPE_RAW, config);
    a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    fd = perf_open(&a, -1);
    if (fd < 0) {
        printf("raw r%llx: perf_event_open failed: %s (%ld)\n", config, err_name(fd), fd);
        return;
    }
    measure(fd, LOOP_N);
    if (read(fd, v, sizeof(v)) != sizeof(v))
        printf("raw r%llx: read failed\n", config);
    else if (v[2] == 0)
        printf("raw r%llx: not counted (the PMU refused it)\n", config);
    else
        printf("raw r%llx: %llu\n", config, v[0]);
    close(fd);
}

static void cat(const char *path)
{
    char buf[512];
    long n;
    int fd = open(path, O_RDONLY, 0);

    if (fd < 0) {
        printf("cannot open %s\n", path);
        return;
    }
    while ((n = read(fd, buf, sizeof(buf))) > 0)
        write(1, buf, n);
    close(fd);
}

int main(int argc, char **argv)
{
    struct perf_event_attr a;
    struct counting c;
    char line[256];
    long n = 0;
    int i, input = 1, bench = 0;

    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "noinput"))
            input = 0;
        if (!strcmp(argv[i], "bench"))
            bench = 1;
    }

    printf("\nhartscope init: Linux's perf on the hartscope PMU\n");
    if (bench) {
        reboot(LINUX_REBOOT_CMD_POWER_OFF);
        printf("power-off failed\n");
        return 1;
    }
    if (mount("proc", "/proc", "proc", 0, NULL) < 0)
        printf("cannot mount /proc\n");
    cat("/proc/cpuinfo");
    printf("pmu_loop: %ld instructions at [%p, %p)\n", 4 * LOOP_N + 1, (void *)pmu_loop,
           (void *)pmu_loop_end);

    sample("instructions", PERF_COUNT_HW_INSTRUCTIONS);
    sample("cycles", PERF_COUNT_HW_CPU_CYCLES);

    raw(0x10001);

    attr_init(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
    c.fd[0] = perf_open(&a, -1);
    attr_init(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
    a.disabled = 0;
    c.fd[1] = perf_open(&a, c.fd[0]);
    attr_init(&a, PERF_TYPE_RAW, 0x20004);
    a.disabled = 0;
    c.fd[2] = perf_open(&a, c.fd[0]);
    if (c.fd[0] < 0 || c.fd[1] < 0 || c.fd[2] < 0) {
        printf("count: perf_event_open failed: %s %s %s\n", err_name(c.fd[0]),
               err_name(c.fd[1]), err_name(c.fd[2]));
    } else {
        memset(c.prev, 0, sizeof(c.prev));
        count(&c, 1, "pmu_loop(1)");
        count(&c, LOOP_N, "pmu_loop(350000)");
    }

    if (input) {
        /* Empty lines are skipped: a script's input starts with a few newlines, since
         * Linux's 8250 driver reads (and drops) two bytes when it opens the port. */
        printf("type a line:\n");
        for (;;) {
            char ch;

            if (read(0, &ch, 1) != 1)
                break;
            if (ch == '\n') {
                if (n > 0)
                    break;
                continue;
            }
            if (n < (long)sizeof(line) - 1)
                line[n++] = ch;
        }
        line[n] = 0;
        printf("echo: %s\n", line);
    }
    printf("hartscope init: powering off\n");
    reboot(LINUX_REBOOT_CMD_POWER_OFF);
    printf("power-off failed\n");
    for (;;)
        sleep(1000);
}
