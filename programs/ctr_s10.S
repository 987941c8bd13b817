/* ctr_s10.S - the checks of ctr_s.S in the ratified Smctr 1.0 layout: sctrctl, sctrstatus,
 * sctrdepth and SCTRCLR from S-mode, mstateen0.CTR at bit 54, external traps needing the xTE
 * bit of every mode crossed (U -> M: MTE and STE), no ETEN.
 *
 * hartscope-only: Control Transfer Records (Smctr) and Sscofpmf are not implemented by Spike
 * hartscope-options: --isa rv64gc_zicntr_zihpm_smctr_sscofpmf --ctr 1.0
 */
#define CTR_LAYOUT 10
#include "ctr_s.S"
