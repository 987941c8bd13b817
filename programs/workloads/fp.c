/* fp - workload: floating point (fused multiply-adds, divisions, square roots,
 * conversions between integers, floats and doubles, min/max, comparisons),
 * in double and single precision: a polynomial evaluated by Horner's rule with
 * fma, Newton's reciprocal and square root against fdiv and fsqrt, a 16x16
 * LU-style elimination, and a float <-> int conversion sweep. Every result is
 * folded into a checksum compared with the value a host build gives (IEEE 754
 * arithmetic is exact to the bit; -ffp-contract=off keeps the compiler from
 * fusing what the source does not fuse). WL_ITERS (default 2500) repeats it;
 * the default retires about 2e8 instructions.
 * Host build for the golden value: cc -O2 -ffp-contract=off -DWL_ITERS=N fp.c -lm */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <math.h>

#ifndef WL_ITERS
#define WL_ITERS 2500
#endif
/* the checksum of the default length, from a host build (x86-64, gcc -O2 -ffp-contract=off) */
#define GOLDEN 0xb0d0537cdaca1382ull

static uint64_t sum;
static void fold(uint64_t v) { sum = (sum ^ v) * 0x100000001b3ull; }
static uint64_t dbits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static double horner(double x)
{
    static const double c[12] = { 1.0, -0.5, 0.3333333333333333, -0.25, 0.2, -0.1666666666666667,
                                  0.1428571428571428, -0.125, 0.1111111111111111, -0.1,
                                  0.0909090909090909, -0.0833333333333333 };
    double r = c[11];
    for (int i = 10; i >= 0; i--)
        r = fma(r, x, c[i]);
    return r;
}

static float hornerf(float x)
{
    float r = 0.1f;
    for (int i = 0; i < 12; i++)
        r = fmaf(r, x, 1.0f / (float)(i + 2));
    return r;
}

static void newton(double a)
{
    /* 1/a and sqrt(a) by Newton's method, and by fdiv and fsqrt */
    double r = 1.0 / (a + 1.0), s = a > 1.0 ? a * 0.5 : 1.0;
    for (int i = 0; i < 6; i++) {
        r = r * (2.0 - a * r);
        s = 0.5 * (s + a / s);
    }
    fold(dbits(r));
    fold(dbits(s));
    fold(dbits(1.0 / a));
    fold(dbits(sqrt(a)));
    float af = (float)a;
    fold(fbits(sqrtf(af)));
    fold(fbits(1.0f / af));
}

static void eliminate(double m[16][17])
{
    for (int k = 0; k < 16; k++) {
        double p = m[k][k];
        for (int i = k + 1; i < 16; i++) {
            double f = m[i][k] / p;
            for (int j = k; j < 17; j++)
                m[i][j] = fma(-f, m[k][j], m[i][j]);
        }
    }
    for (int i = 15; i >= 0; i--) {
        double s = m[i][16];
        for (int j = i + 1; j < 16; j++)
            s -= m[i][j] * m[j][16];
        m[i][16] = s / m[i][i];
        fold(dbits(m[i][16]));
    }
}

static void convert(int it)
{
    for (int i = -200; i < 200; i++) {
        double d = (double)(i * 37 + it) / 7.0;
        float f = (float)d;
        fold((uint64_t)(int64_t)d);
        fold((uint64_t)(int32_t)f);
        fold((uint64_t)(uint32_t)(d < 0 ? -d : d));
        fold(fbits((float)(int64_t)(i * 1000003LL)));
        fold(dbits((double)(uint64_t)(i + 300) * 1e-3));
        fold(dbits(fmin(d, (double)f)) ^ dbits(fmax(d, (double)f)));
        fold((uint64_t)(d < f) | (uint64_t)(d == (double)f) << 1 | (uint64_t)(f <= 0.5f) << 2);
    }
}

int main(void)
{
    static double m[16][17];
    for (int it = 0; it < WL_ITERS; it++) {
        for (int i = 0; i < 64; i++) {
            fold(dbits(horner((double)i / 64.0 - 0.5 + it * 1e-6)));
            fold(fbits(hornerf((float)i / 80.0f)));
            newton(1.0 + i * 0.75 + it);
        }
        for (int i = 0; i < 16; i++)
            for (int j = 0; j < 17; j++)
                m[i][j] = (i == j ? 20.0 : 0.0) + 1.0 / (1.0 + i + j + (it & 7));
        eliminate(m);
        convert(it);
    }
    printf("fp: iterations %d, checksum 0x%016llx\n", WL_ITERS, (unsigned long long)sum);
#if WL_ITERS == 2500
    if (sum != GOLDEN)
        return 1;
#endif
    printf("fp: OK\n");
    return 0;
}
