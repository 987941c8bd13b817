/* kernel_boot - a stand-in for a Linux kernel, to test how hartscope starts one: the RISC-V
 * Linux Image header (Documentation/riscv/boot-image-header.rst) comes first, so the ELF's
 * bytes from 0x80200000 are an Image (`objcopy -O binary`; tests/boot_args.rs flattens the
 * ELF the same way). Entered in S-mode with a0 = hart id and a1 = the device tree, by the
 * built-in SBI (`--sbi builtin --kernel`) or by OpenSBI's fw_jump (`fw_jump.elf --kernel`),
 * it checks that it runs where it was linked and that a1 holds a device tree, then prints
 * what /chosen says (bootargs, linux,initrd-start/-end) and the initrd's first line, through
 * the SBI's legacy console_putchar, and shuts down through SRST.
 * hartscope-only: an S-mode kernel; Spike starts programs in M-mode without SBI firmware.
 * hartscope-options: --sbi builtin
 * Expected result: "kernel_boot: ..." lines ending with "kernel_boot: OK", exit code 0;
 * a failed check prints "kernel_boot: FAIL ..." and shuts down with reason "system
 * failure" (exit status 1 under the built-in SBI). */

#include <stdint.h>

__asm__(
    "    .section .text.head, \"ax\", @progbits\n"
    "    .option push\n"
    "    .option norvc\n"
    "    .globl _start\n"
    "_start:\n"
    "    j       kernel_entry\n"       /* code0 */
    "    .word   0\n"                  /* code1 */
    "    .dword  0x200000\n"           /* text_offset */
    "    .dword  _end - _start\n"      /* image_size */
    "    .dword  0\n"                  /* flags: little-endian */
    "    .word   2\n"                  /* version 0.2 */
    "    .word   0\n"                  /* res1 */
    "    .dword  0\n"                  /* res2 */
    "    .ascii  \"RISCV\\0\\0\\0\"\n" /* magic (deprecated) */
    "    .ascii  \"RSC\\x05\"\n"       /* magic2 */
    "    .word   0\n"                  /* res3 */
    "kernel_entry:\n"
    "    auipc   a2, 0\n"
    "    addi    a2, a2, -64\n"        /* where _start runs */
    "    la      sp, kernel_stack + 16384\n"
    "    la      t0, __bss_start\n"
    "    la      t1, _end\n"
    "1:  bgeu    t0, t1, 2f\n"
    "    sd      zero, 0(t0)\n"
    "    addi    t0, t0, 8\n"
    "    j       1b\n"
    "2:  call    kmain\n"
    "3:  wfi\n"
    "    j       3b\n"
    "    .option pop\n"
    "    .text\n");

/* The stack (in .bss, so inside image_size). */
uint8_t kernel_stack[16384] __attribute__((aligned(16)));

static long sbi_call(long eid, long fid, long a0, long a1) {
    register long r0 __asm__("a0") = a0;
    register long r1 __asm__("a1") = a1;
    register long r6 __asm__("a6") = fid;
    register long r7 __asm__("a7") = eid;
    __asm__ volatile("ecall" : "+r"(r0), "+r"(r1) : "r"(r6), "r"(r7) : "memory");
    return r0;
}

static void putc_(char c) { sbi_call(0x01, 0, (unsigned char)c, 0); }

static void puts_(const char *s) {
    while (*s) putc_(*s++);
}

static void puthex(uint64_t v) {
    puts_("0x");
    int started = 0;
    for (int i = 60; i >= 0; i -= 4) {
        unsigned d = (v >> i) & 15;
        if (d || started || i == 0) {
            putc_("0123456789abcdef"[d]);
            started = 1;
        }
    }
}

static void putdec(uint64_t v) {
    char b[24];
    int n = 0;
    do {
        b[n++] = '0' + v % 10;
        v /= 10;
    } while (v);
    while (n) putc_(b[--n]);
}

static void shutdown(long reason) {
    sbi_call(0x53525354, 0, 0, reason);
    for (;;) __asm__ volatile("wfi");
}

static void fail(const char *why) {
    puts_("kernel_boot: FAIL ");
    puts_(why);
    putc_('\n');
    shutdown(1);
}

static uint32_t be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be_cells(const uint8_t *p, uint32_t len) {
    return len == 8 ? (uint64_t)be32(p) << 32 | be32(p + 4) : be32(p);
}

static int streq(const char *a, const char *b) {
    while (*a && *a == *b) a++, b++;
    return *a == *b;
}

static uint64_t align4(uint64_t x) { return (x + 3) & ~(uint64_t)3; }

void kmain(uint64_t hartid, uint64_t dtb, uint64_t start) {
    puts_("kernel_boot: hart ");
    putdec(hartid);
    puts_(" at ");
    puthex(start);
    puts_(" in S-mode, device tree at ");
    puthex(dtb);
    putc_('\n');
    if (start != 0x80200000) fail("not running where it was linked (0x80200000)");
    if (hartid != 0) fail("a0 is not hart 0");
    const uint8_t *fdt = (const uint8_t *)dtb;
    if (dtb == 0 || be32(fdt) != 0xd00dfeed) fail("a1 does not point at a device tree");
    const uint8_t *st = fdt + be32(fdt + 8);
    const char *strings = (const char *)fdt + be32(fdt + 12);
    const uint8_t *st_end = st + be32(fdt + 36);
    int depth = 0, in_chosen = 0;
    const char *bootargs = 0;
    uint64_t initrd_start = 0, initrd_end = 0;
    int have_start = 0, have_end = 0;
    const uint8_t *p = st;
    while (p < st_end) {
        uint32_t tok = be32(p);
        p += 4;
        if (tok == 1) {
            const char *name = (const char *)p;
            uint64_t n = 0;
            while (name[n]) n++;
            p += align4(n + 1);
            depth++;
            in_chosen = depth == 2 && streq(name, "chosen");
        } else if (tok == 2) {
            depth--;
            in_chosen = 0;
        } else if (tok == 3) {
            uint32_t len = be32(p), off = be32(p + 4);
            const uint8_t *val = p + 8;
            p += align4(8 + len);
            if (!in_chosen) continue;
            const char *name = strings + off;
            if (streq(name, "bootargs")) bootargs = (const char *)val;
            if (streq(name, "linux,initrd-start")) initrd_start = be_cells(val, len), have_start = 1;
            if (streq(name, "linux,initrd-end")) initrd_end = be_cells(val, len), have_end = 1;
        } else if (tok == 9) {
            break;
        } else if (tok != 4) {
            fail("a bad token in the device tree");
        }
    }
    if (bootargs) {
        puts_("kernel_boot: bootargs \"");
        puts_(bootargs);
        puts_("\"\n");
    } else {
        puts_("kernel_boot: no bootargs\n");
    }
    if (have_start != have_end) fail("only one of linux,initrd-start and linux,initrd-end");
    if (have_start) {
        if (initrd_end < initrd_start) fail("the initrd ends before it starts");
        puts_("kernel_boot: initrd ");
        puthex(initrd_start);
        puts_("..");
        puthex(initrd_end);
        puts_(" (");
        putdec(initrd_end - initrd_start);
        puts_(" bytes): \"");
        const char *c = (const char *)initrd_start;
        for (uint64_t i = 0; i < initrd_end - initrd_start && i < 64 && c[i] != '\n'; i++)
            putc_(c[i]);
        puts_("\"\n");
    } else {
        puts_("kernel_boot: no initrd\n");
    }
    puts_("kernel_boot: OK\n");
    shutdown(0);
}
