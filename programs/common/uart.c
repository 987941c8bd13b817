/* uart.c - polled ns16550a transmitter. */
#include <stdint.h>
#include "encoding.h"
#include "uart.h"

#define UART_REG(off) (*(volatile uint8_t *)(uintptr_t)(UART_BASE + (off)))

void uart_putc(char c)
{
    while ((UART_REG(UART_LSR) & UART_LSR_THRE) == 0)
        ;
    UART_REG(UART_THR) = (uint8_t)c;
}

void uart_write(const char *buf, size_t len)
{
    for (size_t i = 0; i < len; i++)
        uart_putc(buf[i]);
}

void uart_puts(const char *s)
{
    while (*s)
        uart_putc(*s++);
}
