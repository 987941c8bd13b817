/* libc_glue.h - picolibc stdio glue for C programs.
 * stdout/stderr go through a line buffer to HTIF write (default) or the UART. */
#ifndef HARTSCOPE_LIBC_GLUE_H
#define HARTSCOPE_LIBC_GLUE_H

enum console { CONSOLE_HTIF = 0, CONSOLE_UART = 1 };
void console_select(enum console c);   /* flushes, then switches */
void console_flush(void);

#endif
