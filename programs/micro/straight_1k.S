/* straight_1k - a loop of 1024 ALU instructions in random order (see straight_loop.inc):
 * whatever is left of the hart's cost per instruction when the loop's code is too large for
 * the host to learn every dispatch of, but every block stays decoded. A budget cuts a block
 * at a different place every quantum; the run goes on in a block decoded from there up to the
 * next decoded one. */
#define LEN 1024
#define PERIODIC 0
#include "straight_loop.inc"
