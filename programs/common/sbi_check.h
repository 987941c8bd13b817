/* sbi_check.h - the checks of the SBI test programs: each counts itself in `checks`; the first
 * that fails prints "FAIL: test n" with the call's error and value, and ends the run with
 * exit status n through SBI SRST. */
#ifndef HARTSCOPE_SBI_CHECK_H
#define HARTSCOPE_SBI_CHECK_H

#include <stdio.h>
#include "sbi.h"

static int checks;

static void fail(int n, long err, unsigned long val)
{
    printf("FAIL: test %d (error %ld, value %#lx)\n", n, err, val);
    sbi_exit(n);
}

static void check(int n, int ok)
{
    checks++;
    if (!ok)
        fail(n, 0, 0);
}

static void check_ret(int n, struct sbiret r, long err, unsigned long val)
{
    checks++;
    if (r.error != err || r.value != val)
        fail(n, r.error, r.value);
}

static void check_err(int n, struct sbiret r, long err)
{
    checks++;
    if (r.error != err)
        fail(n, r.error, r.value);
}

#endif
