/* interp - workload: a bytecode interpreter (switch dispatch through a jump
 * table: many short blocks and indirect jumps, as interpreters, emulators and
 * parsers are). A small stack machine runs three programs: a Collatz step
 * counter, a sieve of Eratosthenes over its own memory, and a recursive
 * Fibonacci (call/return on its own stack). Each result is checked against
 * the same computation written directly in C. Exits 0 when all agree.
 * WL_ITERS (default 4) repeats the set; the default retires about 2e8
 * instructions. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#ifndef WL_ITERS
#define WL_ITERS 4
#endif

enum op {
    PUSH, POP, DUP, OVER, SWAP, ADD, SUB, MUL, SHR, AND, LT, EQ,
    JMP, JZ, JNZ, LOAD, STORE, CALL, RET, HALT, INC, DEC, ROT,
};

static int64_t mem[8192];

/* Run `code` with an empty stack; returns the value on top at HALT. */
static int64_t run(const int32_t *code)
{
    int64_t st[256];
    int32_t rs[256];
    int sp = 0, rp = 0;
    int32_t pc = 0;
    for (;;) {
        int32_t op = code[pc++];
        switch (op) {
        case PUSH: st[sp++] = code[pc++]; break;
        case POP: sp--; break;
        case DUP: st[sp] = st[sp - 1]; sp++; break;
        case OVER: st[sp] = st[sp - 2]; sp++; break;
        case SWAP: { int64_t t = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = t; } break;
        case ROT: { int64_t t = st[sp - 3]; st[sp - 3] = st[sp - 2]; st[sp - 2] = st[sp - 1]; st[sp - 1] = t; } break;
        case ADD: sp--; st[sp - 1] += st[sp]; break;
        case SUB: sp--; st[sp - 1] -= st[sp]; break;
        case MUL: sp--; st[sp - 1] *= st[sp]; break;
        case SHR: sp--; st[sp - 1] >>= st[sp]; break;
        case AND: sp--; st[sp - 1] &= st[sp]; break;
        case LT: sp--; st[sp - 1] = st[sp - 1] < st[sp]; break;
        case EQ: sp--; st[sp - 1] = st[sp - 1] == st[sp]; break;
        case INC: st[sp - 1]++; break;
        case DEC: st[sp - 1]--; break;
        case JMP: pc = code[pc]; break;
        case JZ: pc = st[--sp] == 0 ? code[pc] : pc + 1; break;
        case JNZ: pc = st[--sp] != 0 ? code[pc] : pc + 1; break;
        case LOAD: st[sp - 1] = mem[st[sp - 1] & 8191]; break;
        case STORE: sp -= 2; mem[st[sp + 1] & 8191] = st[sp]; break;
        case CALL: rs[rp++] = pc + 1; pc = code[pc]; break;
        case RET: pc = rs[--rp]; break;
        case HALT: return st[sp - 1];
        default: return -1;
        }
    }
}

/* sum over n in [1, 1500) of the Collatz steps of n */
static int64_t collatz_c(void)
{
    int64_t total = 0;
    for (int64_t n = 1; n < 1500; n++)
        for (int64_t x = n; x != 1; x = (x & 1) ? 3 * x + 1 : x >> 1)
            total++;
    return total;
}

/* the same in bytecode: stack total n x */
static int32_t prog_collatz[64];
static void build_collatz(void)
{
    int32_t *c = prog_collatz;
    int i = 0;
#define E(x) c[i++] = (x)
    E(PUSH); E(0); E(PUSH); E(1);          /* total n */
    int loop = i;
    E(DUP); E(PUSH); E(1500); E(LT); E(JZ); int jend = i; E(0);
    E(DUP);                                /* total n x */
    int inner = i;
    E(DUP); E(PUSH); E(1); E(EQ); E(JNZ); int jdone = i; E(0);
    E(ROT); E(INC); E(ROT); E(ROT);        /* total+1 n x */
    E(DUP); E(PUSH); E(1); E(AND); E(JZ); int jeven = i; E(0);
    E(DUP); E(DUP); E(ADD); E(ADD); E(INC); E(JMP); E(inner);   /* x = 3x + 1 */
    c[jeven] = i;
    E(PUSH); E(1); E(SHR); E(JMP); E(inner);                   /* x >>= 1 */
    c[jdone] = i;
    E(POP); E(INC); E(JMP); E(loop);                            /* n++ */
    c[jend] = i;
    E(POP); E(HALT);
#undef E
}

/* primes below 8000 by a sieve in mem[] */
static int32_t prog_sieve[64];
static void build_sieve(void)
{
    int32_t *c = prog_sieve;
    int i = 0;
#define E(x) c[i++] = (x)
    /* clear: for a in 0..8000: mem[a] = 0 */
    E(PUSH); E(0);
    int clr = i;
    E(DUP); E(PUSH); E(8000); E(LT); E(JZ); int jc = i; E(0);
    E(PUSH); E(0); E(OVER); E(STORE); E(INC); E(JMP); E(clr);
    c[jc] = i;
    E(POP);
    /* count = 0; for p in 2..8000: if !mem[p]: count++, for m = 2p; m < 8000; m += p: mem[m] = 1 */
    E(PUSH); E(0); E(PUSH); E(2);          /* count p */
    int outer = i;
    E(DUP); E(PUSH); E(8000); E(LT); E(JZ); int jo = i; E(0);
    E(DUP); E(LOAD); E(JNZ); int jnext = i; E(0);
    E(SWAP); E(INC); E(SWAP);              /* count+1 p */
    E(DUP); E(DUP); E(ADD);                /* count p m */
    int mark = i;
    E(DUP); E(PUSH); E(8000); E(LT); E(JZ); int jm = i; E(0);
    E(PUSH); E(1); E(OVER); E(STORE);      /* mem[m] = 1 */
    E(OVER); E(ADD); E(JMP); E(mark);      /* m += p */
    c[jm] = i;
    E(POP);
    c[jnext] = i;
    E(INC); E(JMP); E(outer);
    c[jo] = i;
    E(POP); E(HALT);
#undef E
}

static int64_t sieve_c(void)
{
    static uint8_t m[8000];
    memset(m, 0, sizeof m);
    int64_t count = 0;
    for (int p = 2; p < 8000; p++) {
        if (m[p])
            continue;
        count++;
        for (int k = 2 * p; k < 8000; k += p)
            m[k] = 1;
    }
    return count;
}

/* fib(n) by naive recursion: fib: DUP 2 LT JNZ base; DUP DEC CALL fib; SWAP DEC DEC CALL fib; ADD RET */
static int32_t prog_fib[64];
static void build_fib(void)
{
    int32_t *c = prog_fib;
    int i = 0;
#define E(x) c[i++] = (x)
    E(PUSH); E(21); E(CALL); int jcall = i; E(0); E(HALT);
    int fib = i;
    c[jcall] = fib;
    E(DUP); E(PUSH); E(2); E(LT); E(JNZ); int jbase = i; E(0);
    E(DUP); E(DEC); E(CALL); E(fib);       /* n fib(n-1) */
    E(SWAP); E(DEC); E(DEC); E(CALL); E(fib);   /* fib(n-1) fib(n-2) */
    E(ADD); E(RET);
    c[jbase] = i;
    E(RET);
#undef E
}

static int64_t fib_c(int n) { return n < 2 ? n : fib_c(n - 1) + fib_c(n - 2); }

int main(void)
{
    build_collatz();
    build_sieve();
    build_fib();
    int64_t want[3] = { collatz_c(), sieve_c(), fib_c(21) };
    int bad = 0;
    for (int it = 0; it < WL_ITERS; it++) {
        int64_t got[3] = { run(prog_collatz), run(prog_sieve), run(prog_fib) };
        for (int k = 0; k < 3; k++)
            if (got[k] != want[k]) {
                if (bad++ < 3)
                    printf("interp: program %d gave %ld, C gives %ld\n", k, (long)got[k],
                           (long)want[k]);
            }
    }
    if (bad)
        return 1;
    printf("interp: OK (collatz %ld, primes %ld, fib %ld)\n", (long)want[0], (long)want[1],
           (long)want[2]);
    return 0;
}
