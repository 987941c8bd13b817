/* libc_glue.c - picolibc glue: stdin/stdout/stderr, _exit, exit hook. */
#include <stdio.h>
#include <stdint.h>
#include "runtime.h"
#include "uart.h"
#include "libc_glue.h"

static char linebuf[128];
static size_t linelen;
static enum console console_kind = CONSOLE_HTIF;

void console_flush(void)
{
    if (linelen == 0)
        return;
    if (console_kind == CONSOLE_UART)
        uart_write(linebuf, linelen);
    else
        htif_write(linebuf, linelen);
    linelen = 0;
}

void console_select(enum console c)
{
    console_flush();
    console_kind = c;
}

static int console_putc(char c, FILE *f)
{
    (void)f;
    linebuf[linelen++] = c;
    if (c == '\n' || linelen == sizeof linebuf)
        console_flush();
    return (unsigned char)c;
}

static int console_getc(FILE *f)
{
    (void)f;
    return EOF;
}

static int console_fflush(FILE *f)
{
    (void)f;
    console_flush();
    return 0;
}

static FILE console_file = FDEV_SETUP_STREAM(console_putc, console_getc, console_fflush, _FDEV_SETUP_RW);
FILE *const stdin = &console_file;
FILE *const stdout = &console_file;
FILE *const stderr = &console_file;

/* called by crt0 with main's return value, and by exit() through _exit */
void __hartscope_exit(long code) __attribute__((noreturn));
void __hartscope_exit(long code)
{
    console_flush();
    htif_exit(code);
}

void _exit(int code) __attribute__((noreturn));
void _exit(int code)
{
    __hartscope_exit(code);
}
