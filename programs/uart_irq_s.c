/* uart_irq_s - uart_irq.c in S-mode: the PLIC's context 1 drives mip.SEIP,
 * delegated to S (mideleg), whose handler claims and completes.
 * hartscope-only: Spike's UART reads only its terminal (there is no --uart-input) and interrupts on source 1 by default.
 * hartscope-options: --uart-input programs/uart_irq.in
 * Expected result: the input echoed, one summary line, exit code 0. */
#define SMODE 1
#include "uart_irq.c"
