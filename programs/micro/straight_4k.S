/* straight_4k - a loop of 4096 ALU instructions in random order (see straight_loop.inc): four
 * pages of code whose order of operations the host cannot predict, against
 * straight_4k_periodic, the same loop with its operations in a cycle of 13. */
#define LEN 4096
#define PERIODIC 0
#include "straight_loop.inc"
