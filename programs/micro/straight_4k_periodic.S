/* straight_4k_periodic - straight_4k with its operations in a fixed cycle of 13 (see
 * straight_loop.inc): the same code size and decoded blocks, with an order of operations the
 * host predicts. */
#define LEN 4096
#define PERIODIC 1
#include "straight_loop.inc"
