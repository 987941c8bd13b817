/* sbi.h - SBI calls for S-mode programs under hartscope's built-in SBI (crt0_s.S).
 * Calling convention (SBI 3.0): a7 = EID, a6 = FID, a0-a5 = arguments; a0 = error,
 * a1 = value on return. */
#ifndef HARTSCOPE_SBI_H
#define HARTSCOPE_SBI_H

#include <stdint.h>

/* extension IDs */
#define SBI_EXT_LEGACY_PUTCHAR 0x01
#define SBI_EXT_LEGACY_GETCHAR 0x02
#define SBI_EXT_BASE   0x10
#define SBI_EXT_TIME   0x54494D45
#define SBI_EXT_IPI    0x735049
#define SBI_EXT_RFENCE 0x52464E43
#define SBI_EXT_HSM    0x48534D
#define SBI_EXT_SRST   0x53525354
#define SBI_EXT_PMU    0x504D55
#define SBI_EXT_DBCN   0x4442434E

/* error codes */
#define SBI_SUCCESS                0
#define SBI_ERR_FAILED            -1
#define SBI_ERR_NOT_SUPPORTED     -2
#define SBI_ERR_INVALID_PARAM     -3
#define SBI_ERR_DENIED            -4
#define SBI_ERR_INVALID_ADDRESS   -5
#define SBI_ERR_ALREADY_AVAILABLE -6
#define SBI_ERR_ALREADY_STARTED   -7
#define SBI_ERR_ALREADY_STOPPED   -8
#define SBI_ERR_NO_SHMEM          -9

/* PMU functions and flags */
#define SBI_PMU_NUM_COUNTERS      0
#define SBI_PMU_COUNTER_GET_INFO  1
#define SBI_PMU_CFG_MATCH         2
#define SBI_PMU_COUNTER_START     3
#define SBI_PMU_COUNTER_STOP      4
#define SBI_PMU_FW_READ           5
#define SBI_PMU_FW_READ_HI        6
#define SBI_PMU_SNAPSHOT_SET_SHMEM 7
#define SBI_PMU_EVENT_GET_INFO    8

#define CFG_SKIP_MATCH   (1UL << 0)
#define CFG_CLEAR_VALUE  (1UL << 1)
#define CFG_AUTO_START   (1UL << 2)
#define CFG_SET_VUINH    (1UL << 3)
#define CFG_SET_VSINH    (1UL << 4)
#define CFG_SET_UINH     (1UL << 5)
#define CFG_SET_SINH     (1UL << 6)
#define CFG_SET_MINH     (1UL << 7)
#define START_SET_INIT_VALUE   (1UL << 0)
#define START_INIT_SNAPSHOT    (1UL << 1)
#define STOP_RESET             (1UL << 0)
#define STOP_TAKE_SNAPSHOT     (1UL << 1)

/* firmware events (event_idx = 0xf0000 | code) */
#define FW_MISALIGNED_LOAD   0
#define FW_MISALIGNED_STORE  1
#define FW_ACCESS_LOAD       2
#define FW_ACCESS_STORE      3
#define FW_ILLEGAL_INSN      4
#define FW_SET_TIMER         5
#define FW_IPI_SENT          6
#define FW_IPI_RECEIVED      7
#define FW_FENCE_I_SENT      8
#define FW_FENCE_I_RECEIVED  9
#define FW_SFENCE_VMA_SENT   10
#define FW_SFENCE_VMA_RECEIVED 11
#define FW_SFENCE_VMA_ASID_SENT 12
#define FW_SFENCE_VMA_ASID_RECEIVED 13

/* hartscope's SRST reason "exit with code n" */
#define SBI_REASON_EXIT 0xE0000000UL

struct sbiret {
    long error;
    unsigned long value;
};

static inline struct sbiret sbi_call(unsigned long eid, unsigned long fid, unsigned long a0,
                                     unsigned long a1, unsigned long a2, unsigned long a3,
                                     unsigned long a4, unsigned long a5)
{
    register unsigned long r0 asm("a0") = a0;
    register unsigned long r1 asm("a1") = a1;
    register unsigned long r2 asm("a2") = a2;
    register unsigned long r3 asm("a3") = a3;
    register unsigned long r4 asm("a4") = a4;
    register unsigned long r5 asm("a5") = a5;
    register unsigned long r6 asm("a6") = fid;
    register unsigned long r7 asm("a7") = eid;
    asm volatile("ecall"
                 : "+r"(r0), "+r"(r1)
                 : "r"(r2), "r"(r3), "r"(r4), "r"(r5), "r"(r6), "r"(r7)
                 : "memory");
    struct sbiret r = {(long)r0, r1};
    return r;
}

#define SBI0(e, f) sbi_call(e, f, 0, 0, 0, 0, 0, 0)
#define SBI1(e, f, a) sbi_call(e, f, a, 0, 0, 0, 0, 0)
#define SBI2(e, f, a, b) sbi_call(e, f, a, b, 0, 0, 0, 0)
#define SBI3(e, f, a, b, c) sbi_call(e, f, a, b, c, 0, 0, 0)
#define SBI4(e, f, a, b, c, d) sbi_call(e, f, a, b, c, d, 0, 0)
#define SBI5(e, f, a, b, c, d, g) sbi_call(e, f, a, b, c, d, g, 0)

/* crt0_s.S */
extern volatile uint64_t boot_hartid, boot_dtb;
void sbi_exit(long code) __attribute__((noreturn));

#define csr_read(csr) ({ unsigned long __v; asm volatile("csrr %0, " #csr : "=r"(__v) :: "memory"); __v; })
#define csr_write(csr, v) asm volatile("csrw " #csr ", %0" :: "rK"((unsigned long)(v)) : "memory")
#define csr_set(csr, v) asm volatile("csrs " #csr ", %0" :: "rK"((unsigned long)(v)) : "memory")
#define csr_clear(csr, v) asm volatile("csrc " #csr ", %0" :: "rK"((unsigned long)(v)) : "memory")

#endif
