/* sv48 - Sv48 virtual memory: the sv39 test body with four levels, plus a
 * 512 GiB superpage, a misaligned 512 GiB superpage, the Sv48 canonical
 * upper half (0xffff8000_00000000) and an address canonical in Sv48 only.
 * See sv39.S for the list of checks. */
#define LEVELS 4
#include "sv39.S"
