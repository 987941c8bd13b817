/* bench - a CPU benchmark for hartscope: each of BENCH_ITERS iterations runs
 *   - a linked list: refill with pseudo-random keys, merge sort, walk (CoreMark-like)
 *   - a 24x24 int32 matrix multiply (verified with a Freivalds check)
 *   - a character-class state machine over a generated number string
 *   - CRC-32 (table driven) over 2 KiB, CRC-16 (bitwise) over 256 bytes
 *   - memory traffic: memcpy at varying alignments, memset, a strided sum
 *   - double precision: a 5-body gravity simulation step and a 12x12 matrix multiply
 * and folds every result into a CRC-32 checksum. Self-checks: list sorted,
 * Freivalds identity, table and bitwise CRC agree, n-body energy drift small,
 * and, for BENCH_ITERS values with a known result, the checksum (the golden
 * values were computed by compiling this file natively on x86-64 with
 * -ffp-contract=off, independently of any RISC-V simulator).
 * Exits 0 on success. The default length (BENCH_ITERS = 3000) retires about
 * 1e9 instructions; the count is read from minstret and printed.
 * Build on a host for the golden value: cc -O2 -ffp-contract=off -DHOST_BUILD -DBENCH_ITERS=N bench.c */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <math.h>

#ifndef BENCH_ITERS
#define BENCH_ITERS 3000
#endif

/* ---------------- utilities ---------------- */
static uint32_t rng_state;
static uint32_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

static uint32_t crc_table[256];
static void crc32_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
        crc_table[i] = c;
    }
}
static uint32_t crc32_update(uint32_t crc, const void *data, size_t len)
{
    const uint8_t *p = data;
    crc = ~crc;
    while (len--)
        crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
    return ~crc;
}
static uint32_t crc32_bitwise(uint32_t crc, const void *data, size_t len)
{
    const uint8_t *p = data;
    crc = ~crc;
    while (len--) {
        crc ^= *p++;
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
    }
    return ~crc;
}
static uint16_t crc16_bitwise(uint16_t crc, const uint8_t *p, size_t len)
{
    while (len--) {
        crc ^= (uint16_t)(*p++) << 8;
        for (int k = 0; k < 8; k++)
            crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
    }
    return crc;
}

static uint32_t checksum;
static void fold(uint64_t v) { checksum = crc32_update(checksum, &v, sizeof v); }
static uint64_t dbits(double d) { uint64_t u; memcpy(&u, &d, sizeof u); return u; }

static int failures;
static void fail(const char *what) { if (failures++ < 5) printf("bench: FAILED: %s\n", what); }

/* ---------------- linked list ---------------- */
#define LIST_N 256
struct node { struct node *next; int32_t key; uint16_t idx; };
static struct node nodes[LIST_N];

static struct node *merge(struct node *a, struct node *b)
{
    struct node head, *t = &head;
    while (a && b) {
        if (a->key <= b->key) { t->next = a; a = a->next; }
        else { t->next = b; b = b->next; }
        t = t->next;
    }
    t->next = a ? a : b;
    return head.next;
}
static struct node *msort(struct node *h)
{
    if (!h || !h->next) return h;
    struct node *slow = h, *fast = h->next;
    while (fast && fast->next) { slow = slow->next; fast = fast->next->next; }
    struct node *b = slow->next;
    slow->next = NULL;
    return merge(msort(h), msort(b));
}
static void bench_list(void)
{
    for (int i = 0; i < LIST_N; i++) {
        nodes[i].key = (int32_t)(rng() % 100000) - 50000;
        nodes[i].idx = (uint16_t)i;
        nodes[i].next = (i + 1 < LIST_N) ? &nodes[i + 1] : NULL;
    }
    struct node *h = msort(&nodes[0]);
    int n = 0, sorted = 1;
    uint32_t acc = 0;
    for (struct node *p = h; p; p = p->next, n++) {
        if (p->next && p->key > p->next->key) sorted = 0;
        acc = acc * 31 + p->idx;
    }
    if (!sorted || n != LIST_N) fail("list sort");
    fold(acc);
}

/* ---------------- integer matrix ---------------- */
#define MN 24
static int32_t ma[MN][MN], mb[MN][MN], mc[MN][MN];
static void bench_matrix(void)
{
    for (int i = 0; i < MN; i++)
        for (int j = 0; j < MN; j++) {
            ma[i][j] = (int32_t)(rng() & 0xff) - 128;
            mb[i][j] = (int32_t)(rng() & 0xff) - 128;
        }
    for (int i = 0; i < MN; i++)
        for (int j = 0; j < MN; j++) {
            int32_t s = 0;
            for (int k = 0; k < MN; k++)
                s += ma[i][k] * mb[k][j];
            mc[i][j] = s;
        }
    /* Freivalds with x = (1, 2, 3, ...): A (B x) == C x */
    int64_t bx[MN], abx, cx;
    for (int k = 0; k < MN; k++) {
        bx[k] = 0;
        for (int j = 0; j < MN; j++) bx[k] += (int64_t)mb[k][j] * (j + 1);
    }
    uint64_t acc = 0;
    for (int i = 0; i < MN; i++) {
        abx = 0; cx = 0;
        for (int k = 0; k < MN; k++) abx += (int64_t)ma[i][k] * bx[k];
        for (int j = 0; j < MN; j++) cx += (int64_t)mc[i][j] * (j + 1);
        if (abx != cx) fail("matrix");
        acc = acc * 1000003 + (uint64_t)cx;
    }
    fold(acc);
}

/* ---------------- state machine ---------------- */
enum state { S_START, S_INT, S_FRAC, S_EXP_SIGN, S_EXP, S_INVALID, S_NSTATES };
static char text[512];
static void bench_state(void)
{
    static const char alphabet[] = "0123456789012345678901234567890123456789+-.eE,, x";
    for (int i = 0; i < (int)sizeof text - 1; i++)
        text[i] = alphabet[rng() % (sizeof alphabet - 1)];
    text[sizeof text - 1] = 0;
    uint32_t counts[S_NSTATES] = {0}, transitions = 0;
    enum state s = S_START;
    for (const char *p = text; *p; p++) {
        char c = *p;
        enum state n = s;
        if (c == ',') {
            counts[s]++;
            n = S_START;
        } else {
            switch (s) {
            case S_START: n = (c >= '0' && c <= '9') ? S_INT : (c == '+' || c == '-') ? S_INT : (c == '.') ? S_FRAC : S_INVALID; break;
            case S_INT: n = (c >= '0' && c <= '9') ? S_INT : (c == '.') ? S_FRAC : (c == 'e' || c == 'E') ? S_EXP_SIGN : S_INVALID; break;
            case S_FRAC: n = (c >= '0' && c <= '9') ? S_FRAC : (c == 'e' || c == 'E') ? S_EXP_SIGN : S_INVALID; break;
            case S_EXP_SIGN: n = (c >= '0' && c <= '9') || c == '+' || c == '-' ? S_EXP : S_INVALID; break;
            case S_EXP: n = (c >= '0' && c <= '9') ? S_EXP : S_INVALID; break;
            default: n = S_INVALID; break;
            }
        }
        if (n != s) transitions++;
        s = n;
    }
    uint64_t acc = transitions;
    for (int i = 0; i < S_NSTATES; i++) acc = acc * 1009 + counts[i];
    fold(acc);
}

/* ---------------- CRC ---------------- */
static uint8_t crcbuf[2048];
static int crc_iter;
static void bench_crc(void)
{
    for (int i = 0; i < (int)sizeof crcbuf; i += 4) {
        uint32_t r = rng();
        memcpy(crcbuf + i, &r, 4);
    }
    uint32_t c = crc32_update(0, crcbuf, sizeof crcbuf);
    if ((crc_iter++ & 15) == 0 && c != crc32_bitwise(0, crcbuf, sizeof crcbuf))
        fail("crc32 table vs bitwise");
    uint16_t c16 = crc16_bitwise(0xffff, crcbuf, 256);
    fold(((uint64_t)c << 16) | c16);
}

/* ---------------- memory ---------------- */
#define MEMSZ 8192
static uint8_t mbuf_a[MEMSZ + 64], mbuf_b[MEMSZ + 64];
static uint64_t stride_buf[8192];
static void bench_memory(int iter)
{
    int soff = iter & 7, doff = (iter >> 3) & 7;
    memset(mbuf_a, iter & 0xff, 64);
    memcpy(mbuf_b + doff, mbuf_a + soff, MEMSZ);
    memcpy(mbuf_a + soff, mbuf_b + doff, MEMSZ / 2);
    uint64_t acc = 0;
    for (int i = 0; i < 8192; i += 67)
        acc += stride_buf[i] ^ (uint64_t)i;
    for (int i = 0; i < 8192; i += 129)
        stride_buf[i] += acc;
    acc += mbuf_b[doff + (iter % MEMSZ)] + mbuf_a[100];
    fold(acc);
}

/* ---------------- double precision ---------------- */
#define NB 5
struct body { double x, y, z, vx, vy, vz, m; };
static struct body bodies[NB];
static void nbody_init(void)
{
    static const double init[NB][7] = {
        { 0, 0, 0, 0, 0, 0, 39.47841760435743 },
        { 4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01,
          6.06326392995832020e-01, 2.81198684491626026e+00, -2.52183616598876197e-02, 3.76936748703894930e-02 },
        { 8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01,
          -1.01077434617879343e+00, 1.82566237123041186e+00, 8.41576137658415351e-03, 1.12863261319687668e-02 },
        { 1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01,
          1.08279100644154084e+00, 8.68713018169608157e-01, -1.01083240859115520e-02, 1.72372405705975930e-03 },
        { 1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01,
          9.79090732243897980e-01, 5.94698998647676060e-01, -3.47559555040781108e-02, 2.03368686992463060e-03 },
    };
    for (int i = 0; i < NB; i++) {
        bodies[i].x = init[i][0]; bodies[i].y = init[i][1]; bodies[i].z = init[i][2];
        bodies[i].vx = init[i][3]; bodies[i].vy = init[i][4]; bodies[i].vz = init[i][5];
        bodies[i].m = init[i][6];
    }
    /* zero total momentum */
    double px = 0, py = 0, pz = 0;
    for (int i = 0; i < NB; i++) { px += bodies[i].vx * bodies[i].m; py += bodies[i].vy * bodies[i].m; pz += bodies[i].vz * bodies[i].m; }
    bodies[0].vx = -px / bodies[0].m; bodies[0].vy = -py / bodies[0].m; bodies[0].vz = -pz / bodies[0].m;
}
static double nbody_energy(void)
{
    double e = 0;
    for (int i = 0; i < NB; i++) {
        struct body *b = &bodies[i];
        e += 0.5 * b->m * (b->vx * b->vx + b->vy * b->vy + b->vz * b->vz);
        for (int j = i + 1; j < NB; j++) {
            double dx = b->x - bodies[j].x, dy = b->y - bodies[j].y, dz = b->z - bodies[j].z;
            e -= b->m * bodies[j].m / sqrt(dx * dx + dy * dy + dz * dz);
        }
    }
    return e;
}
static void nbody_advance(double dt)
{
    for (int i = 0; i < NB; i++) {
        struct body *b = &bodies[i];
        for (int j = i + 1; j < NB; j++) {
            struct body *c = &bodies[j];
            double dx = b->x - c->x, dy = b->y - c->y, dz = b->z - c->z;
            double d2 = dx * dx + dy * dy + dz * dz;
            double mag = dt / (d2 * sqrt(d2));
            b->vx -= dx * c->m * mag; b->vy -= dy * c->m * mag; b->vz -= dz * c->m * mag;
            c->vx += dx * b->m * mag; c->vy += dy * b->m * mag; c->vz += dz * b->m * mag;
        }
    }
    for (int i = 0; i < NB; i++) {
        bodies[i].x += dt * bodies[i].vx;
        bodies[i].y += dt * bodies[i].vy;
        bodies[i].z += dt * bodies[i].vz;
    }
}
#define DN 12
static double da[DN][DN], db[DN][DN], dc[DN][DN];
static void bench_double(void)
{
    for (int s = 0; s < 20; s++)
        nbody_advance(0.01);
    for (int i = 0; i < DN; i++)
        for (int j = 0; j < DN; j++) {
            da[i][j] = (double)(int32_t)(rng() % 2001 - 1000) / 256.0;
            db[i][j] = (double)(int32_t)(rng() % 2001 - 1000) / 1024.0 + 0.1;
        }
    double trace = 0;
    for (int i = 0; i < DN; i++)
        for (int j = 0; j < DN; j++) {
            double s = 0;
            for (int k = 0; k < DN; k++)
                s += da[i][k] * db[k][j];
            dc[i][j] = s;
        }
    for (int i = 0; i < DN; i++) trace += dc[i][i] / (1.0 + fabs(dc[i][(i + 1) % DN]));
    fold(dbits(trace) ^ dbits(bodies[1].x));
}

/* ---------------- golden checksums (x86-64 host, -ffp-contract=off) ---------------- */
struct golden { int iters; uint32_t sum; };
static const struct golden goldens[] = {
    { 1, 0x5a91f16b }, { 10, 0xa3977364 }, { 100, 0x28c45179 }, { 3000, 0x07fd8c93 },
};

#ifdef HOST_BUILD
static uint64_t read_instret(void) { return 0; }
#else
static uint64_t read_instret(void) { uint64_t v; __asm__ volatile("csrr %0, minstret" : "=r"(v)); return v; }
#endif

int main(void)
{
    uint64_t i0 = read_instret();
    crc32_init();
    rng_state = 0x2545f491u;
    checksum = 0;
    for (int i = 0; i < 8192; i++) stride_buf[i] = (uint64_t)i * 0x9e3779b97f4a7c15ULL;
    nbody_init();
    double e0 = nbody_energy();

    for (int it = 0; it < BENCH_ITERS; it++) {
        bench_list();
        bench_matrix();
        bench_state();
        bench_crc();
        bench_memory(it);
        bench_double();
    }

    double e1 = nbody_energy();
    double drift = fabs((e1 - e0) / e0);
    if (!(drift < 1e-3)) fail("n-body energy drift");
    fold(dbits(e1));
    uint64_t i1 = read_instret();

    printf("bench: iterations %d, checksum 0x%08lx, energy %.9f -> %.9f\n",
           BENCH_ITERS, (unsigned long)checksum, e0, e1);
#ifndef HOST_BUILD
    printf("bench: instructions retired (minstret) %lu\n", (unsigned long)(i1 - i0));
#else
    (void)i0; (void)i1;
#endif
    for (size_t g = 0; g < sizeof goldens / sizeof goldens[0]; g++)
        if (goldens[g].iters == BENCH_ITERS && goldens[g].sum != 0 && goldens[g].sum != checksum)
            fail("checksum differs from the golden value");
    if (failures)
        return 1;
    printf("bench: OK\n");
    return 0;
}
