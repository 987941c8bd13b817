/* uart.h - polled ns16550a transmitter at UART_BASE (0x10000000). */
#ifndef HARTSCOPE_UART_H
#define HARTSCOPE_UART_H
#include <stddef.h>

void uart_putc(char c);                       /* waits for LSR.THRE, writes THR */
void uart_write(const char *buf, size_t len);
void uart_puts(const char *s);                /* no newline added */

#endif
