/* coremark - workload: the kinds of work the well-known CoreMark benchmark does,
 * written here from scratch (no CoreMark source): every pass
 *   - processes a linked list of records: finds keys, reverses the list,
 *     merge-sorts it by a derived key and back into its original order;
 *   - runs 16-bit integer matrix operations: add a constant, multiply by a
 *     constant, matrix times vector, matrix times matrix, and matrix times
 *     matrix with bit fields taken out of each product;
 *   - scans a byte string with a state machine that tells integers, decimals,
 *     numbers in scientific notation and invalid tokens apart, counting the
 *     state transitions;
 *   - folds the results of each of the three into a CRC-16, and the three CRCs
 *     into the pass's CRC, which seeds the next pass.
 * The final CRC is compared with the value a host build gives (integer code, no
 * undefined behaviour: the same on any host). WL_ITERS (default 750) passes;
 * the default retires about 2e8 instructions.
 * Host build for the golden value: cc -O2 -DWL_ITERS=N coremark.c */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#ifndef WL_ITERS
#define WL_ITERS 750
#endif
/* the CRC and the trail of the default length, from a host build (x86-64, gcc -O2) */
#define GOLDEN 0xd1f1u
#define GOLDEN_TRAIL 0xc7944238dad88169ull

/* ---------------------------------------------------------------- CRC-16 */

/* CRC-16/ARC: reflected polynomial 0x8005, bit by bit (as small cores do) */
static uint16_t crc8(uint8_t b, uint16_t crc)
{
    crc ^= b;
    for (int i = 0; i < 8; i++)
        crc = (crc & 1) ? (uint16_t)((crc >> 1) ^ 0xa001u) : (uint16_t)(crc >> 1);
    return crc;
}

static uint16_t crc16(uint16_t v, uint16_t crc)
{
    return crc8((uint8_t)(v >> 8), crc8((uint8_t)v, crc));
}

static uint16_t crc32v(uint32_t v, uint16_t crc)
{
    return crc16((uint16_t)(v >> 16), crc16((uint16_t)v, crc));
}

/* ------------------------------------------------------------ list work */

#define LIST_N 96

struct rec {
    struct rec *next;
    int16_t key;      /* sorted on (through derived()) */
    uint16_t seq;     /* the original position: sorting on it restores the list */
    uint32_t payload;
};

static struct rec pool[LIST_N];

static struct rec *list_build(uint16_t seed)
{
    struct rec *head = 0;
    for (int i = LIST_N - 1; i >= 0; i--) {
        struct rec *r = &pool[i];
        r->seq = (uint16_t)i;
        r->key = (int16_t)(uint16_t)((i * 0x9e37u + seed * 0x3bu) ^ (i << 5));
        r->payload = (uint32_t)i * 2654435761u ^ seed;
        r->next = head;
        head = r;
    }
    return head;
}

/* the sort key: a small computation on the record, as CoreMark's comparator does */
static int32_t derived(const struct rec *r, uint16_t mode)
{
    uint32_t k = (uint16_t)r->key;
    switch (mode & 3) {
    case 0: return (int32_t)(k ^ 0x5a5a);
    case 1: return (int32_t)((k * 7u + (r->payload & 0xff)) & 0xffff);
    case 2: return (int32_t)(int16_t)k;
    default: return (int32_t)(((k >> 3) | (k << 13)) & 0xffff);
    }
}

static struct rec *find(struct rec *l, int16_t key, int *pos)
{
    int i = 0;
    for (; l; l = l->next, i++)
        if (l->key == key)
            break;
    *pos = l ? i : -1;
    return l;
}

static struct rec *reverse(struct rec *l)
{
    struct rec *prev = 0;
    while (l) {
        struct rec *n = l->next;
        l->next = prev;
        prev = l;
        l = n;
    }
    return prev;
}

/* bottom-up merge sort of a singly linked list; by seq if mode is 0xffff, else by derived() */
static int before(const struct rec *a, const struct rec *b, uint16_t mode)
{
    if (mode == 0xffff)
        return a->seq <= b->seq;
    int32_t x = derived(a, mode), y = derived(b, mode);
    return x < y || (x == y && a->seq <= b->seq);
}

static struct rec *sort(struct rec *l, uint16_t mode)
{
    for (int width = 1;; width *= 2) {
        struct rec *p = l, *head = 0, *tail = 0;
        int merges = 0;
        while (p) {
            merges++;
            struct rec *q = p;
            int psize = 0;
            for (int i = 0; i < width && q; i++) {
                psize++;
                q = q->next;
            }
            int qsize = width;
            while (psize > 0 || (qsize > 0 && q)) {
                struct rec *e;
                if (psize == 0) {
                    e = q; q = q->next; qsize--;
                } else if (qsize == 0 || !q) {
                    e = p; p = p->next; psize--;
                } else if (before(p, q, mode)) {
                    e = p; p = p->next; psize--;
                } else {
                    e = q; q = q->next; qsize--;
                }
                if (tail)
                    tail->next = e;
                else
                    head = e;
                tail = e;
            }
            p = q;
        }
        tail->next = 0;
        l = head;
        if (merges <= 1)
            return l;
    }
}

static uint16_t list_work(uint16_t seed)
{
    uint16_t crc = 0;
    struct rec *l = list_build(seed);
    for (int round = 0; round < 4; round++) {
        for (int f = 0; f < 8; f++) {
            int pos;
            int16_t want = pool[(seed + f * 13 + round) % LIST_N].key;
            if (f & 1)
                want = (int16_t)(want + 1);     /* usually absent: a full walk */
            struct rec *r = find(l, want, &pos);
            crc = crc16((uint16_t)pos, crc);
            if (r)
                crc = crc16((uint16_t)r->payload, crc);
        }
        l = reverse(l);
        l = sort(l, (uint16_t)(seed + round));
        for (struct rec *r = l; r; r = r->next)
            crc = crc16((uint16_t)r->key, crc);
        /* change some keys so the next sort has other work */
        int i = 0;
        for (struct rec *r = l; r; r = r->next, i++)
            if ((i & 7) == (round & 7))
                r->key = (int16_t)(uint16_t)(r->key + 0x111 * (round + 1));
        l = sort(l, 0xffff);
        crc = crc16(l->seq, crc);
        crc = crc16((uint16_t)l->next->key, crc);
    }
    return crc;
}

/* ---------------------------------------------------------- matrix work */

#define MN 12

static int16_t ma[MN][MN], mb[MN][MN];
static int32_t mc[MN][MN];

static void mat_init(uint16_t seed)
{
    uint32_t s = seed | 1u;
    for (int i = 0; i < MN; i++)
        for (int j = 0; j < MN; j++) {
            s = s * 1103515245u + 12345u;
            ma[i][j] = (int16_t)((int32_t)((s >> 16) & 0x7ff) - 0x400);
            s = s * 1103515245u + 12345u;
            mb[i][j] = (int16_t)((int32_t)((s >> 16) & 0x7ff) - 0x400);
        }
}

/* fold the result matrix: its sum and how many entries exceed a running threshold */
static uint16_t mat_fold(uint16_t crc)
{
    uint32_t sum = 0;
    int32_t thresh = 0;
    uint16_t over = 0;
    for (int i = 0; i < MN; i++)
        for (int j = 0; j < MN; j++) {
            sum += (uint32_t)mc[i][j];
            if (mc[i][j] > thresh) {
                over++;
                thresh += mc[i][j] >> 4;
            } else {
                thresh -= thresh >> 3;
            }
        }
    return crc16(over, crc32v(sum, crc));
}

static void mat_add_const(int16_t v)
{
    for (int i = 0; i < MN; i++)
        for (int j = 0; j < MN; j++)
            ma[i][j] = (int16_t)(ma[i][j] + v);
}

static void mat_mul_const(int16_t v)
{
    for (int i = 0; i < MN; i++)
        for (int j = 0; j < MN; j++)
            mc[i][j] = (int32_t)ma[i][j] * v;
}

static void mat_mul_vec(void)
{
    for (int i = 0; i < MN; i++) {
        int32_t acc = 0;
        for (int j = 0; j < MN; j++)
            acc += (int32_t)ma[i][j] * mb[j][0];
        for (int j = 0; j < MN; j++)
            mc[i][j] = acc >> (j & 3);
    }
}

static void mat_mul_mat(void)
{
    for (int i = 0; i < MN; i++)
        for (int j = 0; j < MN; j++) {
            int32_t acc = 0;
            for (int k = 0; k < MN; k++)
                acc += (int32_t)ma[i][k] * mb[k][j];
            mc[i][j] = acc;
        }
}

static void mat_mul_bits(void)
{
    for (int i = 0; i < MN; i++)
        for (int j = 0; j < MN; j++) {
            int32_t acc = 0;
            for (int k = 0; k < MN; k++) {
                uint32_t p = (uint32_t)((int32_t)ma[i][k] * mb[k][j]);
                acc += (int32_t)((p >> 2) & 0xf) * (int32_t)((p >> 5) & 0x7f);
            }
            mc[i][j] = acc;
        }
}

static uint16_t matrix_work(uint16_t seed)
{
    uint16_t crc = 0;
    int16_t v = (int16_t)((seed & 0x3ff) | 0x10);
    mat_init(seed);
    mat_add_const(v);
    mat_mul_const(v);
    crc = mat_fold(crc);
    mat_mul_vec();
    crc = mat_fold(crc);
    mat_mul_mat();
    crc = mat_fold(crc);
    mat_mul_bits();
    crc = mat_fold(crc);
    mat_add_const((int16_t)-v);
    mat_mul_mat();
    crc = mat_fold(crc);
    return crc;
}

/* ----------------------------------------------------- state machine work */

enum state { S_START, S_SIGN, S_INT, S_DOT, S_FRAC, S_EXP, S_EXP_SIGN, S_EXP_INT, S_BAD, NSTATES };

static const char *const tokens[] = {
    "0", "42", "-7", "+1234", "98765", "3.25", "-0.5", ".75", "+6.", "1e9", "6.02e23", "-1E-5",
    "2.5e+3", "1.2.3", "abc", "5e", "--4", "7e+", "0x1f", "12a", "-.", "e5", "+", "314159.",
};
#define NTOKENS (int)(sizeof tokens / sizeof tokens[0])

static char text[512];

static int text_build(uint16_t seed)
{
    int n = 0;
    uint32_t s = seed * 2654435761u + 1;
    while (n < (int)sizeof text - 16) {
        s = s * 1664525u + 1013904223u;
        const char *t = tokens[(s >> 24) % NTOKENS];
        size_t len = strlen(t);
        memcpy(text + n, t, len);
        n += (int)len;
        text[n++] = ',';
    }
    /* a few bytes changed, as input corruption */
    for (int k = 0; k < 3; k++) {
        s = s * 1664525u + 1013904223u;
        int at = (int)((s >> 16) % (uint32_t)n);
        if (text[at] != ',')
            text[at] = (char)(text[at] ^ 1);
    }
    return n;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static enum state step(enum state s, char c)
{
    switch (s) {
    case S_START:
        if (is_digit(c)) return S_INT;
        if (c == '+' || c == '-') return S_SIGN;
        if (c == '.') return S_DOT;
        return S_BAD;
    case S_SIGN:
        if (is_digit(c)) return S_INT;
        if (c == '.') return S_DOT;
        return S_BAD;
    case S_INT:
        if (is_digit(c)) return S_INT;
        if (c == '.') return S_FRAC;
        if (c == 'e' || c == 'E') return S_EXP;
        return S_BAD;
    case S_DOT:
        if (is_digit(c)) return S_FRAC;
        return S_BAD;
    case S_FRAC:
        if (is_digit(c)) return S_FRAC;
        if (c == 'e' || c == 'E') return S_EXP;
        return S_BAD;
    case S_EXP:
        if (is_digit(c)) return S_EXP_INT;
        if (c == '+' || c == '-') return S_EXP_SIGN;
        return S_BAD;
    case S_EXP_SIGN:
        if (is_digit(c)) return S_EXP_INT;
        return S_BAD;
    case S_EXP_INT:
        if (is_digit(c)) return S_EXP_INT;
        return S_BAD;
    default:
        return S_BAD;
    }
}

static uint16_t state_work(uint16_t seed)
{
    uint32_t trans[NSTATES] = {0}, final[NSTATES] = {0};
    uint32_t ints = 0, decs = 0, scis = 0, bad = 0;
    int n = text_build(seed);
    enum state s = S_START;
    for (int i = 0; i < n; i++) {
        char c = text[i];
        if (c == ',') {
            final[s]++;
            if (s == S_INT)
                ints++;
            else if (s == S_FRAC)
                decs++;
            else if (s == S_EXP_INT)
                scis++;
            else
                bad++;
            s = S_START;
            continue;
        }
        enum state t = step(s, c);
        if (t != s)
            trans[s]++;
        s = t;
    }
    uint16_t crc = 0;
    for (int k = 0; k < NSTATES; k++)
        crc = crc32v(trans[k] << 8 ^ final[k], crc);
    return crc16((uint16_t)(ints ^ decs << 4 ^ scis << 8 ^ bad << 12), crc);
}

/* ------------------------------------------------------------------ main */

int main(void)
{
    uint16_t crc = 0, seed = 0x66;
    uint64_t trail = 0;
    for (int it = 0; it < WL_ITERS; it++) {
        uint16_t cl = list_work(seed);
        uint16_t cm = matrix_work(seed);
        uint16_t cs = state_work(seed);
        crc = crc16(cs, crc16(cm, crc16(cl, crc)));
        trail = trail * 0x100000001b3ull ^ ((uint64_t)cl << 32 | (uint64_t)cm << 16 | cs);
        seed = (uint16_t)(crc ^ it);
    }
    printf("coremark: iterations %d, crc 0x%04x, trail 0x%016llx\n", WL_ITERS, crc,
           (unsigned long long)trail);
#if WL_ITERS == 750
    if (crc != GOLDEN || trail != GOLDEN_TRAIL) {
        printf("coremark: FAILED (want 0x%04x, 0x%016llx)\n", GOLDEN, GOLDEN_TRAIL);
        return 1;
    }
#endif
    printf("coremark: OK\n");
    return 0;
}
