/* encoding.h - CSR numbers and bit-field constants for hartscope guest programs.
 * Usable from C and from assembly (.S): only #defines. */
#ifndef HARTSCOPE_ENCODING_H
#define HARTSCOPE_ENCODING_H

#ifdef __ASSEMBLER__
#define _UL(x) x
#else
#define _UL(x) x##UL
#endif

/* ---- platform ---- */
#define RAM_BASE        0x80000000
#define CLINT_BASE      0x02000000
#define CLINT_MSIP      (CLINT_BASE + 0x0)
#define CLINT_MTIMECMP  (CLINT_BASE + 0x4000)
#define CLINT_MTIME     (CLINT_BASE + 0xbff8)
#define UART_BASE       0x10000000
#define UART_THR        0
#define UART_LSR        5
#define UART_LSR_THRE   0x20
#define TEST_FINISHER   0x00100000   /* hartscope/QEMU only, not on Spike */
#define UNMAPPED_ADDR   0x40000000   /* no device, no memory: access fault */

/* ---- mstatus / sstatus ---- */
#define MSTATUS_SIE     (1 << 1)
#define MSTATUS_MIE     (1 << 3)
#define MSTATUS_SPIE    (1 << 5)
#define MSTATUS_UBE     (1 << 6)
#define MSTATUS_MPIE    (1 << 7)
#define MSTATUS_SPP     (1 << 8)
#define MSTATUS_MPP     (3 << 11)
#define MSTATUS_MPP_U   (0 << 11)
#define MSTATUS_MPP_S   (1 << 11)
#define MSTATUS_MPP_M   (3 << 11)
#define MSTATUS_FS      (3 << 13)
#define MSTATUS_FS_OFF     (0 << 13)
#define MSTATUS_FS_INITIAL (1 << 13)
#define MSTATUS_FS_CLEAN   (2 << 13)
#define MSTATUS_FS_DIRTY   (3 << 13)
#define MSTATUS_XS      (3 << 15)
#define MSTATUS_MPRV    (1 << 17)
#define MSTATUS_SUM     (1 << 18)
#define MSTATUS_MXR     (1 << 19)
#define MSTATUS_TVM     (1 << 20)
#define MSTATUS_TW      (1 << 21)
#define MSTATUS_TSR     (1 << 22)
#define MSTATUS_UXL     (_UL(3) << 32)    
#define MSTATUS_SXL     (_UL(3) << 34)
#define MSTATUS_SD      (_UL(1) << 63)

#define PRV_U 0
#define PRV_S 1
#define PRV_M 3

/* ---- interrupts (mip/mie bit numbers and masks) ---- */
#define IRQ_S_SOFT   1
#define IRQ_M_SOFT   3
#define IRQ_S_TIMER  5
#define IRQ_M_TIMER  7
#define IRQ_S_EXT    9
#define IRQ_M_EXT    11
#define MIP_SSIP     (1 << IRQ_S_SOFT)
#define MIP_MSIP     (1 << IRQ_M_SOFT)
#define MIP_STIP     (1 << IRQ_S_TIMER)
#define MIP_MTIP     (1 << IRQ_M_TIMER)
#define MIP_SEIP     (1 << IRQ_S_EXT)
#define MIP_MEIP     (1 << IRQ_M_EXT)

/* ---- exception causes ---- */
#define CAUSE_MISALIGNED_FETCH    0
#define CAUSE_FETCH_ACCESS        1
#define CAUSE_ILLEGAL_INSTRUCTION 2
#define CAUSE_BREAKPOINT          3
#define CAUSE_MISALIGNED_LOAD     4
#define CAUSE_LOAD_ACCESS         5
#define CAUSE_MISALIGNED_STORE    6
#define CAUSE_STORE_ACCESS        7
#define CAUSE_USER_ECALL          8
#define CAUSE_SUPERVISOR_ECALL    9
#define CAUSE_MACHINE_ECALL       11
#define CAUSE_FETCH_PAGE_FAULT    12
#define CAUSE_LOAD_PAGE_FAULT     13
#define CAUSE_STORE_PAGE_FAULT    15
#define CAUSE_INTR                (_UL(1) << 63)   /* mcause interrupt bit */

/* ---- CSR numbers ---- */
#define CSR_FFLAGS    0x001
#define CSR_FRM       0x002
#define CSR_FCSR      0x003
#define CSR_CYCLE     0xc00
#define CSR_TIME      0xc01
#define CSR_INSTRET   0xc02
#define CSR_HPMCOUNTER3 0xc03
#define CSR_SSTATUS   0x100
#define CSR_SIE       0x104
#define CSR_STVEC     0x105
#define CSR_SCOUNTEREN 0x106
#define CSR_SSCRATCH  0x140
#define CSR_SEPC      0x141
#define CSR_SCAUSE    0x142
#define CSR_STVAL     0x143
#define CSR_SIP       0x144
#define CSR_SATP      0x180
#define CSR_MVENDORID 0xf11
#define CSR_MARCHID   0xf12
#define CSR_MIMPID    0xf13
#define CSR_MHARTID   0xf14
#define CSR_MSTATUS   0x300
#define CSR_MISA      0x301
#define CSR_MEDELEG   0x302
#define CSR_MIDELEG   0x303
#define CSR_MIE       0x304
#define CSR_MTVEC     0x305
#define CSR_MCOUNTEREN 0x306
#define CSR_MSCRATCH  0x340
#define CSR_MEPC      0x341
#define CSR_MCAUSE    0x342
#define CSR_MTVAL     0x343
#define CSR_MIP       0x344
#define CSR_PMPCFG0   0x3a0
#define CSR_PMPCFG2   0x3a2
#define CSR_PMPADDR0  0x3b0
#define CSR_MCYCLE    0xb00
#define CSR_MINSTRET  0xb02
#define CSR_MCOUNTINHIBIT 0x320

/* ---- satp ---- */
#define SATP_MODE_BARE  0
#define SATP_MODE_SV39  8
#define SATP_MODE_SV48  9
#define SATP_MODE_SHIFT 60

/* ---- page-table entries ---- */
#define PTE_V (1 << 0)
#define PTE_R (1 << 1)
#define PTE_W (1 << 2)
#define PTE_X (1 << 3)
#define PTE_U (1 << 4)
#define PTE_G (1 << 5)
#define PTE_A (1 << 6)
#define PTE_D (1 << 7)
#define PTE_PPN_SHIFT 10
#define PAGE_SHIFT 12
#define PAGE_SIZE  4096

/* ---- PMP ---- */
#define PMP_R     0x01
#define PMP_W     0x02
#define PMP_X     0x04
#define PMP_A     0x18
#define PMP_OFF   0x00
#define PMP_TOR   0x08
#define PMP_NA4   0x10
#define PMP_NAPOT 0x18
#define PMP_L     0x80

/* ---- fflags / frm ---- */
#define FFLAG_NX 0x01
#define FFLAG_UF 0x02
#define FFLAG_OF 0x04
#define FFLAG_DZ 0x08
#define FFLAG_NV 0x10
#define RM_RNE 0
#define RM_RTZ 1
#define RM_RDN 2
#define RM_RUP 3
#define RM_RMM 4
#define RM_DYN 7

/* ---- HTIF ---- */
#define SYS_write 64

#endif
