/* ctr_s.S - Control Transfer Records across privilege modes, draft v0.1.4 layout (ctr_s10.S
 * builds the same checks for the ratified 1.0 layout). M-mode sets up, S- and U-mode code runs
 * known control flow; the records are read back (through siselect/sireg* in S-mode and
 * M-mode) and every entry compared: source, target, TYPE, V, and zero beyond the records.
 *
 *   1-39     S-mode access: the S view of the control register (M, MTE hidden and kept), the
 *            status alias, DEPTH / sctrdepth, entries through siselect/sireg*, *ireg4-6, M-level
 *            registers illegal from S, SCTRCLR (1.0: legal in S; 0.1.4: not an instruction),
 *            nothing from U-mode
 *   40-59    Smstateen: mstateen0.CTR clear makes S-mode access illegal while recording in
 *            S goes on; mstateen0.CSRIND clear makes siselect illegal
 *   60-129   the privilege transition table (5.1): traps U->S, U->M, S->M and trap returns
 *            between enabled and disabled modes (partial records with pc 0), external traps
 *            (0.1.4: ETEN and the target's xTE; 1.0: the xTE of every mode crossed),
 *            EXCINH/INTRINH/TRETINH, a delegated interrupt
 *   130-159  freeze on a local counter overflow interrupt (LCOFIFRZ) in S-mode: the sampled
 *            path kept, the LCOFI not recorded, FROZEN set; without LCOFIFRZ the interrupt and
 *            its sret are recorded
 *   160-179  cycle counting: cycles in a disabled mode and while frozen are not counted
 *
 * hartscope-only: Control Transfer Records (Smctr) and Sscofpmf are not implemented by Spike
 * hartscope-options: --isa rv64gc_zicntr_zihpm_smctr_sscofpmf --ctr 0.1.4
 */
#define CTR_BANK S
#include "test_macros.h"
#include "ctr.h"

#if CTR_LAYOUT == 10
#define ALL_ONES_CTL   0x0000ff3e00001b87
#define DEPTH128_CTL   0
#define LI_FROZEN      2               /* li t0, 1 << 31: li, slli */
#else
#define ALL_ONES_CTL   0x0000ff7e000f1f07
#define DEPTH128_CTL   (0x7 << CTR_DEPTH_SHIFT)
#define LI_FROZEN      1               /* li t0, 1 << 15: lui */
#endif
#define ILL CAUSE_ILLEGAL_INSTRUCTION
#define LC_K 20                        /* LCOFI after this many S-mode instructions */

/* RUN_FLOW ctl, entry, mpp: empty the array, install the flow's trap handlers (flow_mtvec,
   flow_stvec), then from M-mode write control = ctl and mret to `entry` in privilege mpp.
   The flow ends with a trap to h_m's exit, which stops recording and comes back here in
   M-mode, where crt0's handlers are put back (the checks may fail). */
.macro RUN_FLOW ctl, entry, mpp
  CTR_RESET
  ld t0, flow_mtvec
  csrw mtvec, t0
  ld t0, flow_stvec
  csrw stvec, t0
  la t0, .Lcont\@
  sd t0, cont_addr, t1
  la t0, \entry
  csrw mepc, t0
  li t0, MSTATUS_MPP
  csrc mstatus, t0
  li t0, (\mpp) << 11
  csrs mstatus, t0
  li a0, \ctl
  call flow_go
.Lcont\@:
  la t0, trap_vector_m
  csrw mtvec, t0
  la t0, trap_vector_s
  csrw stvec, t0
.endm

/* SET_FLOW_TRAPS m, s: the handlers of the next flows */
.macro SET_FLOW_TRAPS m, s
  la t0, \m
  sd t0, flow_mtvec, t1
  la t0, \s
  sd t0, flow_stvec, t1
.endm

/* SSI_FLOW ctl: a supervisor software interrupt pending when mret enters U-mode at i1 */
.macro SSI_FLOW ctl
  li t0, MIP_SSIP
  csrs mie, t0
  csrs mip, t0
  RUN_FLOW \ctl, i1, PRV_U
  li t0, MIP_SSIP
  csrc mie, t0
.endm

/* CHECK_FLOW n, table, rows: the array holds exactly the rows of table */
.macro CHECK_FLOW n, table, rows
  CTR_EXPECT_TABLE \n, \table, \rows, 0xffff, 16
.endm

/* CHECK_NONE n: nothing recorded */
.macro CHECK_NONE n
  CTR_EXPECT_ZERO_FROM \n, 0
.endm

  .option norvc
  .text
  .globl main
main:
  li t0, MSTATEEN0_CTR | MSTATEEN0_CSRIND | MSTATEEN0_SE0
  csrw CSR_MSTATEEN0, t0
  csrr a0, CSR_MSTATEEN0
  CHECK_EQ 1, a0, MSTATEEN0_CTR | MSTATEEN0_CSRIND | MSTATEEN0_SE0
  li t0, (1 << ILL) | (1 << CAUSE_BREAKPOINT) | (1 << CAUSE_USER_ECALL)
  csrw medeleg, t0

  /* ================= 1. S-mode access ================= */
  CTR_RESET
  li t0, CTR_MTE
  csrw CSR_CTRCTL, t0
  ENTER_S
  csrr a0, CSR_SCTRCTL
  CHECK_EQ 2, a0, 0                    /* MTE is not visible */
  li t0, -1
  csrrw zero, CSR_SCTRCTL, t0
  csrrw a0, CSR_SCTRCTL, zero
  CHECK_EQ 3, a0, ALL_ONES_CTL & ~(CTR_M | CTR_MTE)
  ENTER_M
  csrr a0, CSR_CTRCTL
  CHECK_EQ 4, a0, CTR_MTE              /* S-mode writes left MTE alone */
  csrw CSR_CTRCTL, zero
  ENTER_S
  li t0, 3
  csrw CSR_SCTRSTATUS, t0
  csrr a0, CSR_SCTRSTATUS
  CHECK_EQ 5, a0, 3
  csrw CSR_SCTRSTATUS, zero
#if CTR_LAYOUT == 10
  li t0, 1
  csrw CSR_SCTRDEPTH, t0
  csrr a0, CSR_SCTRDEPTH
  CHECK_EQ 6, a0, 1
  csrw CSR_SCTRDEPTH, zero
#else
  li t0, 1 << CTR_DEPTH_SHIFT          /* DEPTH through the S view */
  csrw CSR_SCTRCTL, t0
  csrr a0, CSR_SCTRCTL
  CHECK_EQ 6, a0, 1 << CTR_DEPTH_SHIFT
  csrw CSR_SCTRCTL, zero
#endif
  /* entry 0 through sireg*, written and read back */
  li t0, CTR_SELECT
  csrw CSR_SISELECT, t0
  la t0, s_src
  ori t0, t0, 1
  csrw CSR_SIREG, t0
  la t0, s_dst
  csrw CSR_SIREG2, t0
  li t0, CTR_T_RET
  csrw CSR_SIREG3, t0
  CTR_EXPECT 7, 0, s_src, s_dst, CTR_T_RET
  csrr a0, CSR_SIREG4
  CHECK_EQ 8, a0, 0
  /* M-level registers */
  TEST_TRAP_S 9, ILL, csrr a0, CSR_CTRCTL
  TEST_TRAP_S 10, ILL, csrr a0, CSR_MIREG
  TEST_TRAP_S 11, ILL, csrw CSR_MISELECT, zero
  TEST_TRAP_S 12, ILL, csrr a0, CSR_VSCTRCTL
#if CTR_LAYOUT == 10
  SCTRCLR                              /* legal in S-mode */
  CTR_EXPECT_ZERO_FROM 13, 0
#else
  TEST_TRAP_S 13, ILL, csrr a0, CSR_CTRSTATUS
  TEST_TRAP_S 14, ILL, SCTRCLR         /* not an instruction in 0.1.4 */
  li t0, CTR_CLR                       /* CLR through the S view */
  csrw CSR_SCTRCTL, t0
  CTR_EXPECT_ZERO_FROM 15, 0
#endif
  /* nothing from U-mode */
  S_ENTER_U
  TEST_TRAP_S 16, ILL, csrr a0, CSR_SCTRCTL
  TEST_TRAP_S 17, ILL, csrr a0, CSR_SCTRSTATUS
  TEST_TRAP_S 18, ILL, csrw CSR_SISELECT, zero
#if CTR_LAYOUT == 10
  TEST_TRAP_S 19, ILL, SCTRCLR
  TEST_TRAP_S 20, ILL, csrr a0, CSR_SCTRDEPTH
#endif
  ENTER_M

  /* ================= 2. Smstateen ================= */
  CTR_RESET
  li t0, MSTATEEN0_CSRIND | MSTATEEN0_SE0
  csrw CSR_MSTATEEN0, t0
  li t0, CTR_S
  csrw CSR_CTRCTL, t0                  /* S-mode records */
  ENTER_S
  TEST_TRAP_S 40, ILL, csrr a0, CSR_SCTRCTL
  TEST_TRAP_S 41, ILL, csrw CSR_SCTRSTATUS, zero
  TEST_TRAP_S 42, ILL, csrr a0, CSR_SCTRSTATUS
#if CTR_LAYOUT == 10
  TEST_TRAP_S 43, ILL, csrr a0, CSR_SCTRDEPTH
  TEST_TRAP_S 44, ILL, SCTRCLR
#endif
  li t0, CTR_SELECT                    /* siselect itself is Sscsrind's, open */
  csrw CSR_SISELECT, t0
  TEST_TRAP_S 45, ILL, csrr a0, CSR_SIREG
  TEST_TRAP_S 46, ILL, csrw CSR_SIREG2, zero
  TEST_TRAP_S 47, ILL, csrr a0, CSR_SIREG6
  /* recording in S-mode goes on */
g_j1:
  j g_t1
g_t1:
g_j2:
  j g_t2
g_t2:
  ENTER_M                              /* S -> M: M not enabled, no ETEN: not recorded */
  csrr a0, CSR_SCTRCTL                 /* M-mode is never gated */
  CHECK_EQ 48, a0, CTR_S
  CTR_STOP
  CTR_EXPECT 49, 0, g_j2, g_t2, CTR_T_DIRJMP
  CTR_EXPECT 50, 1, g_j1, g_t1, CTR_T_DIRJMP
  csrw CSR_MSTATEEN0, zero
  ENTER_S
  TEST_TRAP_S 51, ILL, csrr a0, CSR_SISELECT
  TEST_TRAP_S 52, ILL, csrr a0, CSR_SSTATEEN0
  ENTER_M
  li t0, MSTATEEN0_CTR | MSTATEEN0_CSRIND | MSTATEEN0_SE0
  csrw CSR_MSTATEEN0, t0

  /* ================= 3. privilege transitions ================= */
  li t0, 1 << CAUSE_USER_ECALL         /* illegal instructions go to M-mode */
  csrw medeleg, t0
  SET_FLOW_TRAPS h_m, h_s
  /* U -> S (ecall), S -> U (sret), U -> M (illegal) */
  RUN_FLOW CTR_U | CTR_S, u1, PRV_U
  CHECK_FLOW 60, t_u1_us, 4
  RUN_FLOW CTR_S, u1, PRV_U
  CHECK_FLOW 61, t_u1_s, 2
  RUN_FLOW CTR_U, u1, PRV_U
  CHECK_FLOW 62, t_u1_u, 2
  RUN_FLOW CTR_U | CTR_ETEN | CTR_STE, u1, PRV_U
  CHECK_FLOW 63, t_u1_ste, 3
  RUN_FLOW CTR_U | CTR_ETEN | CTR_MTE, u1, PRV_U
#if CTR_LAYOUT == 10
  CHECK_FLOW 64, t_u1_u, 2             /* U -> M crosses S: STE needed too */
#else
  CHECK_FLOW 64, t_u1_mte, 3
#endif
  RUN_FLOW CTR_U | CTR_ETEN | CTR_STE | CTR_MTE, u1, PRV_U
  CHECK_FLOW 65, t_u1_ste_mte, 4
  RUN_FLOW CTR_U | CTR_S | CTR_EXCINH, u1, PRV_U
  CHECK_FLOW 66, t_u1_us_excinh, 3
  RUN_FLOW CTR_U | CTR_EXCINH | CTR_ETEN | CTR_STE, u1, PRV_U
  CHECK_FLOW 67, t_u1_ste, 3           /* EXCINH does not apply to external traps */
  RUN_FLOW CTR_U | CTR_S | CTR_TRETINH, u1, PRV_U
  CHECK_FLOW 68, t_u1_us_tretinh, 3
  RUN_FLOW CTR_ETEN | CTR_STE | CTR_MTE, u1, PRV_U
  CHECK_NONE 69
#if CTR_LAYOUT != 10
  RUN_FLOW CTR_U | CTR_STE | CTR_MTE, u1, PRV_U
  CHECK_FLOW 70, t_u1_u, 2             /* no ETEN: no external traps */
#endif
  /* M -> S (mret), S -> M (ecall), M (jr), M -> S (mret), S -> M (illegal) */
  RUN_FLOW CTR_S | CTR_M, s1, PRV_S
  CHECK_FLOW 80, t_s1_sm, 8
  RUN_FLOW CTR_M, s1, PRV_S
  CHECK_FLOW 81, t_s1_m, 6
  RUN_FLOW CTR_S, s1, PRV_S
  CHECK_FLOW 82, t_s1_s, 2
  RUN_FLOW CTR_S | CTR_ETEN | CTR_MTE, s1, PRV_S
  CHECK_FLOW 83, t_s1_mte, 4
  RUN_FLOW CTR_S | CTR_ETEN | CTR_STE, s1, PRV_S
  CHECK_FLOW 84, t_s1_s, 2             /* STE is for traps into S */
  RUN_FLOW CTR_S | CTR_M | CTR_TRETINH, s1, PRV_S
  CHECK_FLOW 85, t_s1_sm_tretinh, 6
  RUN_FLOW CTR_S | CTR_M | CTR_EXCINH | CTR_INDJMPINH, s1, PRV_S
  CHECK_FLOW 86, t_s1_sm_excinh, 4
  /* a delegated supervisor software interrupt taken in U-mode */
  li t0, MIP_SSIP
  csrs mideleg, t0
  SET_FLOW_TRAPS h_m, h_si
  SSI_FLOW CTR_U | CTR_S
  CHECK_FLOW 90, t_i1_us, 3
  SSI_FLOW CTR_U | CTR_S | CTR_INTRINH
  CHECK_FLOW 91, t_i1_us_intrinh, 2
  SSI_FLOW CTR_U | CTR_ETEN | CTR_STE
  CHECK_FLOW 92, t_i1_ste, 2
  SSI_FLOW CTR_U | CTR_ETEN | CTR_STE | CTR_INTRINH
  CHECK_FLOW 93, t_i1_ste, 2           /* INTRINH does not apply to external traps */
  SSI_FLOW CTR_S
  CHECK_FLOW 94, t_i1_s, 2

  /* ================= 4. freeze on LCOFI ================= */
  li t0, MIP_LCOFIP
  csrs mideleg, t0
  csrs mie, t0
  li t0, HPMEVENT_INSTRUCTIONS | HPMEVENT_MINH
  csrw CSR_MHPMEVENT3, t0
  SET_FLOW_TRAPS h_m, h_lcofi
  li t0, MSTATUS_SIE
  csrs mstatus, t0                     /* S-mode takes its interrupts (not M-mode) */
  li t0, -LC_K
  csrw CSR_MHPMCOUNTER3, t0
  RUN_FLOW CTR_S | CTR_LCOFIFRZ, lc_run, PRV_S
  ld a0, lc_scause
  CHECK_EQ 130, a0, CAUSE_INTR | IRQ_LCOF
  /* m = jumps retired before the sample (the counter counts S-mode instructions) */
  ld s0, lc_sepc
  la t0, lj_1
  sub s0, s0, t0
  srli s0, s0, 2
  li t0, LC_K - 1
  bltu s0, t0, 1f
  li t0, LC_K
  bleu s0, t0, 2f
1:
  FAIL 131
2:
  /* exactly those m jumps, the youngest 16 of them, and no interrupt record */
  la a0, lc_table
  mv a1, s0
  li a2, 1 << CTR_T_DIRJMP
  li a3, 132
  li a4, 16
  li a5, 1
  call ctr_check_table
  andi t0, s0, 15
  li t1, CTR_FROZEN | CTR_WRAP
  or t0, t0, t1
  csrr a0, CSR_CTRSTATUS
  CHECK_EQR 133, a0, t0
  /* the same without LCOFIFRZ, at depth 128: the interrupt and its sret are recorded */
#if CTR_LAYOUT == 10
  li t0, 3
  csrw CSR_SCTRDEPTH, t0
#endif
  li t0, HPMEVENT_INSTRUCTIONS | HPMEVENT_MINH
  csrw CSR_MHPMEVENT3, t0              /* clears OF */
  li t0, -LC_K
  csrw CSR_MHPMCOUNTER3, t0
  RUN_FLOW CTR_S | DEPTH128_CTL, lc_run, PRV_S
  ld s1, lc_sepc
  la t0, lj_1
  sub t0, s1, t0
  srli t0, t0, 2
  CHECK_EQR 134, t0, s0                /* the same sample point */
  CTR_EXPECT 135, 0, lj_64, lt_64, CTR_T_DIRJMP
  li s2, 64
  sub s2, s2, s0                       /* jumps after the sample: logical 0..s2-1 */
  mv a0, s2
  call ctr_read
  la t0, h_lcofi_sret
  ori t0, t0, 1
  CHECK_EQR 136, a0, t0
  CHECK_EQR 137, a1, s1
  andi a2, a2, CTR_DATA_TYPE
  CHECK_EQ 138, a2, CTR_T_TRET
  addi a0, s2, 1
  call ctr_read
  ori t0, s1, 1
  CHECK_EQR 139, a0, t0
  la t0, h_lcofi
  CHECK_EQR 140, a1, t0
  andi a2, a2, CTR_DATA_TYPE
  CHECK_EQ 141, a2, CTR_T_INTR
  addi a0, s2, 2
  call ctr_read
  addi t0, s1, -4                      /* the last jump before the sample */
  ori t0, t0, 1
  CHECK_EQR 142, a0, t0
  CTR_EXPECT_ZERO_FROM 143, 66
  CTR_EXPECT_STATUS 144, 66
  li t0, MIP_LCOFIP
  csrc mie, t0
  csrw CSR_MHPMEVENT3, zero
#if CTR_LAYOUT == 10
  csrw CSR_SCTRDEPTH, zero
#endif

  /* ================= 5. cycles in disabled modes and while frozen ================= */
  SET_FLOW_TRAPS h_m_spin, h_s
  RUN_FLOW CTR_S | (CTR_INH_ALL & ~CTR_DIRCALLINH), cy_run, PRV_S
  CTR_EXPECT 160, 2, cy_c1, cy_f, CTR_T_DIRCALL
  CTR_EXPECT 161, 1, cy_c2, cy_f, CTR_T_DIRCALL
  CTR_EXPECT 162, 0, cy_c3, cy_f, CTR_T_DIRCALL
  CTR_EXPECT_ZERO_FROM 163, 3
  li a0, 1
  call ctr_read
  /* ret and jal: the ecall does not retire, the M-mode handler and its mret ran in a mode
     that does not record */
  CHECK_EQ 164, a2, CTR_T_DIRCALL | CTR_DATA_CCV | (2 << CTR_DATA_CC_SHIFT)
  li a0, 0
  call ctr_read
  /* ret, li, the csrs that froze, jal: the loop and the csrc ran frozen */
  CHECK_EQ 165, a2, CTR_T_DIRCALL | CTR_DATA_CCV | ((3 + LI_FROZEN) << CTR_DATA_CC_SHIFT)

  CTR_RESET
  TEST_PASS

/* ---------------------------------------------------------------------------------------- */
/* flow_go(a0 = control): write it and mret (mepc and MPP set by the caller) */
flow_go:
  csrw CSR_CTRCTL, a0
flow_go_mret:
  mret

/* U-mode flow */
u1:
u1_j1:
  j u1_t1
u1_t1:
u1_ecall:
  ecall                                /* to S (delegated) */
u1_after:
u1_j2:
  j u1_t2
u1_t2:
u1_ill:
  csrr t0, mstatus                     /* to M: the exit */
  FAIL 99

/* S-mode flow */
s1:
s1_j1:
  j s1_t1
s1_t1:
s1_ecall:
  ecall                                /* to M, which returns */
s1_after:
s1_j2:
  j s1_t2
s1_t2:
s1_ill:
  csrr t0, mstatus                     /* to M: the exit */
  FAIL 99

/* the software-interrupt flow, entered in U-mode with SSIP pending */
i1:
i1_j:
  j i1_t
i1_t:
i1_ill:
  csrr t0, mstatus
  FAIL 99

/* the LCOFI flow, in S-mode: 64 jumps each to the next instruction */
lc_run:
  .irp i, 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64
lj_\i:
  j lt_\i
lt_\i:
  .endr
  csrr t0, mstatus
  FAIL 99

/* the cycles flow, in S-mode */
cy_run:
cy_c1:
  jal ra, cy_f
  ecall                                /* to M, which spins for 2000 instructions */
cy_c2:
  jal ra, cy_f
  li t0, CTR_FROZEN
  csrs CSR_SCTRSTATUS, t0
  li t1, 500
1:
  addi t1, t1, -1
  bnez t1, 1b
  csrc CSR_SCTRSTATUS, t0
cy_c3:
  jal ra, cy_f
  csrr t0, mstatus
  FAIL 99
cy_f:
  ret

/* S-mode trap handler of the flows: skip the ecall */
  .p2align 2
h_s:
  csrr t6, sepc
  addi t6, t6, 4
  csrw sepc, t6
h_s_sret:
  sret

/* S-mode software interrupt handler */
  .p2align 2
h_si:
  li t6, MIP_SSIP
  csrc sip, t6
h_si_sret:
  sret

/* S-mode LCOFI handler: note where and why, clear LCOFIP (OF keeps the counter quiet) */
  .p2align 2
h_lcofi:
  csrr t6, sepc
  sd t6, lc_sepc, t5
  csrr t6, scause
  sd t6, lc_scause, t5
  li t6, MIP_LCOFIP
  csrc sip, t6
h_lcofi_sret:
  sret

/* M-mode trap handler of the flows: by mcause, to h_m_ecall (ecall from S: return after it)
   or h_m_exit (anything else: stop recording, back to the flow's caller in M-mode) */
  .p2align 2
h_m:
  csrr t6, mcause
  andi t6, t6, 15
  slli t6, t6, 3
  la t5, h_m_table
  add t5, t5, t6
  ld t5, 0(t5)
h_m_jr:
  jr t5
h_m_ecall:
  csrr t6, mepc
  addi t6, t6, 4
  csrw mepc, t6
h_m_mret:
  mret
h_m_exit:
  CTR_STOP
  ld t6, cont_addr
  jr t6

/* M-mode handler of the cycles flow: 2000 instructions in M-mode, then as h_m */
  .p2align 2
h_m_spin:
  li t6, 1000
1:
  addi t6, t6, -1
  bnez t6, 1b
  csrr t6, mcause
  li t5, CAUSE_SUPERVISOR_ECALL
  bne t6, t5, h_m_exit
  j h_m_ecall

  CTR_ROUTINES

  .section .rodata
  .p2align 3
h_m_table:
  .rept 9
  .dword h_m_exit
  .endr
  .dword h_m_ecall                     /* 9: ecall from S */
  .rept 6
  .dword h_m_exit
  .endr

#define U1_J1    CTR_ROW u1_j1, u1_t1, CTR_T_DIRJMP
#define U1_EC    CTR_ROW u1_ecall, h_s, CTR_T_EXC
#define U1_EC_S  CTR_ROW 0, h_s, CTR_T_EXC
#define U1_EC_X  CTR_ROW u1_ecall, 0, CTR_T_EXC
#define U1_SRET  CTR_ROW h_s_sret, u1_after, CTR_T_TRET
#define U1_SRET_S CTR_ROW h_s_sret, 0, CTR_T_TRET
#define U1_J2    CTR_ROW u1_j2, u1_t2, CTR_T_DIRJMP
#define U1_ILL_X CTR_ROW u1_ill, 0, CTR_T_EXC
t_u1_us:          U1_J1; U1_EC; U1_SRET; U1_J2
t_u1_s:           U1_EC_S; U1_SRET_S
t_u1_u:           U1_J1; U1_J2
t_u1_ste:         U1_J1; U1_EC_X; U1_J2
t_u1_mte:         U1_J1; U1_J2; U1_ILL_X
t_u1_ste_mte:     U1_J1; U1_EC_X; U1_J2; U1_ILL_X
t_u1_us_excinh:   U1_J1; U1_SRET; U1_J2
t_u1_us_tretinh:  U1_J1; U1_EC; U1_J2

#define S1_MRET0  CTR_ROW flow_go_mret, s1, CTR_T_TRET
#define S1_MRET0_M CTR_ROW flow_go_mret, 0, CTR_T_TRET
#define S1_J1     CTR_ROW s1_j1, s1_t1, CTR_T_DIRJMP
#define S1_EC     CTR_ROW s1_ecall, h_m, CTR_T_EXC
#define S1_EC_M   CTR_ROW 0, h_m, CTR_T_EXC
#define S1_EC_X   CTR_ROW s1_ecall, 0, CTR_T_EXC
#define S1_JR1    CTR_ROW h_m_jr, h_m_ecall, CTR_T_INDJMP
#define S1_MRET   CTR_ROW h_m_mret, s1_after, CTR_T_TRET
#define S1_MRET_M CTR_ROW h_m_mret, 0, CTR_T_TRET
#define S1_J2     CTR_ROW s1_j2, s1_t2, CTR_T_DIRJMP
#define S1_ILL    CTR_ROW s1_ill, h_m, CTR_T_EXC
#define S1_ILL_M  CTR_ROW 0, h_m, CTR_T_EXC
#define S1_ILL_X  CTR_ROW s1_ill, 0, CTR_T_EXC
#define S1_JR2    CTR_ROW h_m_jr, h_m_exit, CTR_T_INDJMP
t_s1_sm:          S1_MRET0; S1_J1; S1_EC; S1_JR1; S1_MRET; S1_J2; S1_ILL; S1_JR2
t_s1_m:           S1_MRET0_M; S1_EC_M; S1_JR1; S1_MRET_M; S1_ILL_M; S1_JR2
t_s1_s:           S1_J1; S1_J2
t_s1_mte:         S1_J1; S1_EC_X; S1_J2; S1_ILL_X
t_s1_sm_tretinh:  S1_J1; S1_EC; S1_JR1; S1_J2; S1_ILL; S1_JR2
t_s1_sm_excinh:   S1_MRET0; S1_J1; S1_MRET; S1_J2

#define I1_IRQ    CTR_ROW i1, h_si, CTR_T_INTR
#define I1_IRQ_S  CTR_ROW 0, h_si, CTR_T_INTR
#define I1_IRQ_X  CTR_ROW i1, 0, CTR_T_INTR
#define I1_SRET   CTR_ROW h_si_sret, i1, CTR_T_TRET
#define I1_SRET_S CTR_ROW h_si_sret, 0, CTR_T_TRET
#define I1_J      CTR_ROW i1_j, i1_t, CTR_T_DIRJMP
t_i1_us:          I1_IRQ; I1_SRET; I1_J
t_i1_us_intrinh:  I1_SRET; I1_J
t_i1_ste:         I1_IRQ_X; I1_J
t_i1_s:           I1_IRQ_S; I1_SRET_S

lc_table:
  .irp i, 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64
  CTR_ROW lj_\i, lt_\i, CTR_T_DIRJMP
  .endr

  .data
  .p2align 3
cont_addr: .dword 0
flow_mtvec: .dword 0
flow_stvec: .dword 0
lc_sepc:   .dword 0
lc_scause: .dword 0
s_src:     .dword 0
s_dst:     .dword 0
