/* branch_taken - branch_random's loop with its branch always taken (see branch_loop.inc):
 * the same instructions, all predictable. */
#define MASK 0
#include "branch_loop.inc"
