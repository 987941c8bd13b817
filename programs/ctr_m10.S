/* ctr_m10.S - the checks of ctr_m.S in the ratified Smctr 1.0 layout: mctrctl, sctrstatus,
 * sctrdepth, SCTRCLR, entries only through siselect/sireg* (mireg* on CTR select values is
 * illegal), no WRAP and no ETEN.
 *
 * hartscope-only: Control Transfer Records (Smctr) are not implemented by Spike
 * hartscope-options: --isa rv64gc_zicntr_zihpm_smctr --ctr 1.0
 */
#define CTR_LAYOUT 10
#include "ctr_m.S"
