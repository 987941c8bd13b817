/* hello - prints "Hello from hartscope!\n" through the ns16550a UART at
 * 0x10000000 (polling LSR.THRE) and exits 0 through HTIF. */
#include "uart.h"

int main(void)
{
    uart_puts("Hello from hartscope!\n");
    return 0;
}
