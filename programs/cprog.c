/* cprog - a C program on picolibc: string and memory functions, formatted
 * output (snprintf with integers, hex, strings, padding, doubles), strtol/
 * strtoul, qsort/bsearch, malloc/realloc/free, setjmp/longjmp, libm (sqrt,
 * sin, cos, exp, log, pow, floor, fmod, frexp/ldexp) with tolerances,
 * 64-bit and 128-bit integer arithmetic, a C trap hook that skips an illegal
 * instruction, and console output through HTIF (printf) and the UART.
 * Exits 0 on success, otherwise the number of the first failed check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <math.h>
#include <setjmp.h>
#include "runtime.h"
#include "encoding.h"
#include "libc_glue.h"

static int failed;

#define CHECK(n, cond) do { if (!(cond) && !failed) { failed = (n); \
    printf("cprog: check %d failed: %s (line %d)\n", (n), #cond, __LINE__); } } while (0)

static int streq(const char *a, const char *b) { return strcmp(a, b) == 0; }

static int near(double a, double b, double tol)
{
    return fabs(a - b) <= tol * (fabs(b) > 1.0 ? fabs(b) : 1.0);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static volatile uint64_t hook_hits, hook_cause, hook_tval;

/* a C trap hook: counts illegal instructions and skips them (no FP in here) */
static long skip_illegal(struct trap_frame *f)
{
    if (f->cause != CAUSE_ILLEGAL_INSTRUCTION)
        return 0;
    hook_hits++;
    hook_cause = f->cause;
    hook_tval = f->tval;
    uint16_t half = *(volatile uint16_t *)(uintptr_t)f->epc;
    f->epc += ((half & 3) == 3) ? 4 : 2;
    return 1;
}

static jmp_buf jb;
static void jump_back(int v) { longjmp(jb, v); }

static uint32_t lcg_state = 12345;
static uint32_t lcg(void) { lcg_state = lcg_state * 1103515245u + 12345u; return lcg_state >> 8; }

int main(void)
{
    char buf[128];

    /* ---- strings and memory ---- */
    CHECK(1, strlen("hartscope") == 9);
    CHECK(2, strcmp("abc", "abd") < 0 && strcmp("b", "a") > 0 && strcmp("x", "x") == 0);
    CHECK(3, strncmp("hello world", "hello there", 5) == 0);
    strcpy(buf, "foo");
    strcat(buf, "bar");
    CHECK(4, streq(buf, "foobar"));
    CHECK(5, strchr(buf, 'b') == buf + 3 && strrchr("a/b/c", '/') != NULL && strstr(buf, "oba") == buf + 2);
    memset(buf, 'x', 10);
    buf[10] = 0;
    CHECK(6, streq(buf, "xxxxxxxxxx"));
    strcpy(buf, "0123456789");
    memmove(buf + 2, buf, 6);
    CHECK(7, streq(buf, "0101234589"));
    memmove(buf, buf + 2, 6);
    CHECK(8, streq(buf, "0123454589"));
    CHECK(9, memcmp("abcd", "abce", 4) < 0 && memcmp("abcd", "abcd", 4) == 0);
    {
        static uint8_t src[300], dst[300];
        for (int i = 0; i < 300; i++) src[i] = (uint8_t)(i * 7 + 1);
        for (int off = 0; off < 8; off++) {
            memset(dst, 0, sizeof dst);
            memcpy(dst + off, src + 3, 250);
            int ok = dst[off] == src[3] && dst[off + 249] == src[252] && (off == 0 || dst[off - 1] == 0) && dst[off + 250] == 0;
            CHECK(10 + off, ok);
        }
    }

    /* ---- formatted output ---- */
    snprintf(buf, sizeof buf, "%d %u %ld %x %lX %o", -42, 42u, -1234567890123L, 0xbeefu, 0xCAFEF00DDEADBEEFUL, 8u);
    CHECK(20, streq(buf, "-42 42 -1234567890123 beef CAFEF00DDEADBEEF 10"));
    snprintf(buf, sizeof buf, "[%5d|%-5d|%05d|%+d|%s|%.3s|%c]", 42, 42, 42, 7, "str", "abcdef", 'Z');
    CHECK(21, streq(buf, "[   42|42   |00042|+7|str|abc|Z]"));
    snprintf(buf, sizeof buf, "%.3f %.1f %g %e", 3.14159, -2.25, 0.0001, 12345.678);
    CHECK(22, streq(buf, "3.142 -2.2 0.0001 1.234568e+04"));
    snprintf(buf, sizeof buf, "%#x %#o %p", 255u, 8u, (void *)0x1000);
    CHECK(23, streq(buf, "0xff 010 0x1000"));
    {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-truncation"
        int n = snprintf(buf, 8, "%s", "truncated output");
#pragma GCC diagnostic pop
        CHECK(24, n == 16 && streq(buf, "truncat"));
    }
    snprintf(buf, sizeof buf, "%lld %llu", (long long)INT64_MIN, (unsigned long long)UINT64_MAX);
    CHECK(25, streq(buf, "-9223372036854775808 18446744073709551615"));

    /* ---- conversions ---- */
    CHECK(30, strtol("-12345", NULL, 10) == -12345);
    CHECK(31, strtol("0x7fff", NULL, 16) == 0x7fff && strtol("0x7fff", NULL, 0) == 0x7fff);
    CHECK(32, strtoul("777", NULL, 8) == 0777);
    {
        char *end;
        long v = strtol("  99 bottles", &end, 10);
        CHECK(33, v == 99 && streq(end, " bottles"));
    }
    CHECK(34, atoi("2024") == 2024);
    CHECK(35, strtoll("-9223372036854775808", NULL, 10) == INT64_MIN);
    CHECK(36, near(strtod("2.5e3", NULL), 2500.0, 0));

    /* ---- qsort / bsearch ---- */
    {
        static int arr[200];
        for (int i = 0; i < 200; i++) arr[i] = (int)(lcg() % 1000) - 500;
        qsort(arr, 200, sizeof arr[0], cmp_int);
        int sorted = 1;
        for (int i = 1; i < 200; i++) if (arr[i - 1] > arr[i]) sorted = 0;
        CHECK(40, sorted);
        int key = arr[137];
        int *p = bsearch(&key, arr, 200, sizeof arr[0], cmp_int);
        CHECK(41, p != NULL && *p == key);
        key = 10000;
        CHECK(42, bsearch(&key, arr, 200, sizeof arr[0], cmp_int) == NULL);
    }

    /* ---- heap ---- */
    {
        char *blocks[32];
        for (int i = 0; i < 32; i++) {
            blocks[i] = malloc(16 + i * 37);
            CHECK(50, blocks[i] != NULL);
            if (blocks[i]) memset(blocks[i], i, 16 + i * 37);
        }
        int ok = 1;
        for (int i = 0; i < 32; i++)
            if (blocks[i] && (blocks[i][0] != i || blocks[i][15 + i * 37] != i)) ok = 0;
        CHECK(51, ok);
        for (int i = 0; i < 32; i += 2) free(blocks[i]);
        char *big = malloc(10000);
        CHECK(52, big != NULL);
        if (big) {
            big[0] = 1;
            big[9999] = 2;
            big = realloc(big, 20000);
            CHECK(53, big != NULL && big[0] == 1 && big[9999] == 2);
            free(big);
        }
        for (int i = 1; i < 32; i += 2) free(blocks[i]);
        int *z = calloc(100, sizeof(int));
        int allzero = z != NULL;
        for (int i = 0; z && i < 100; i++) if (z[i]) allzero = 0;
        CHECK(54, allzero);
        free(z);
    }

    /* ---- setjmp / longjmp ---- */
    {
        volatile int count = 0;
        int r = setjmp(jb);
        count++;
        if (r < 3) jump_back(r + 1);
        CHECK(60, r == 3 && count == 4);
    }

    /* ---- libm ---- */
    CHECK(70, sqrt(2.0) == 1.4142135623730951);
    CHECK(71, near(sin(0.5), 0.479425538604203, 1e-15));
    CHECK(72, near(cos(1.0), 0.5403023058681398, 1e-15));
    CHECK(73, near(exp(1.0), 2.718281828459045, 1e-15));
    CHECK(74, near(log(10.0), 2.302585092994046, 1e-15));
    CHECK(75, near(pow(2.0, 0.5), 1.4142135623730951, 1e-15) && pow(2.0, 10.0) == 1024.0);
    CHECK(76, floor(-2.5) == -3.0 && ceil(-2.5) == -2.0 && trunc(2.7) == 2.0 && round(2.5) == 3.0);
    CHECK(77, fmod(10.0, 3.0) == 1.0);
    {
        int e;
        double m = frexp(48.0, &e);
        CHECK(78, m == 0.75 && e == 6 && ldexp(m, e) == 48.0);
    }
    CHECK(79, near(atan2(1.0, 1.0), 0.7853981633974483, 1e-15));
    CHECK(80, sqrtf(16.0f) == 4.0f && near(sinf(0.5f), 0.4794255386f, 1e-6));
    CHECK(81, isnan(sqrt(-1.0)) && isinf(1.0 / (volatile double){0.0}));
    CHECK(82, fmin(-0.0, 0.0) == 0.0 && signbit(fmin(-0.0, 0.0)));

    /* ---- wide integer arithmetic ---- */
    {
        volatile uint64_t a = 0xfedcba9876543210ULL, b = 0x0123456789abcdefULL;
        unsigned __int128 p = (unsigned __int128)a * b;
        CHECK(90, (uint64_t)(p >> 64) == 0x0121fa00ad77d742ULL && (uint64_t)p == 0x2236d88fe5618cf0ULL);
        volatile int64_t c = -7, d = 2;
        CHECK(91, c / d == -3 && c % d == -1);
        volatile int64_t mn = INT64_MIN, m1 = -1;
        CHECK(92, mn / 1 == INT64_MIN && (uint64_t)mn / (uint64_t)m1 == 0);
        (void)m1;
    }

    /* ---- a C trap hook ---- */
    trap_hook_m = skip_illegal;
    __asm__ volatile(".word 0x04b50533");     /* illegal: skipped by the hook */
    __asm__ volatile(".half 0x0000");         /* 16-bit illegal */
    trap_hook_m = 0;
    CHECK(100, hook_hits == 2 && hook_cause == CAUSE_ILLEGAL_INSTRUCTION && hook_tval == 0);

    /* ---- console ---- */
    printf("cprog: printf through HTIF, %d + %d = %d\n", 2, 3, 2 + 3);
    console_select(CONSOLE_UART);
    printf("cprog: printf through the UART\n");
    console_select(CONSOLE_HTIF);

    if (!failed)
        printf("cprog: all checks passed\n");
    return failed;
}
