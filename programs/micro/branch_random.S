/* branch_random - a conditional branch that goes either way at random every 5.5
 * instructions (see branch_loop.inc); against branch_taken, what the host's mispredictions
 * of the guest's branches cost. */
#define MASK 1
#include "branch_loop.inc"
