//! CSR numbers, names and field masks (privileged spec 1.12, chapters 2-4; Zicntr/Zihpm).
//!
//! The state lives in [`Csrs`]; reading and writing with privilege checks and side effects is
//! in `exec/zicsr.rs`, next to the instructions that use it.

// Unprivileged floating point.
pub const FFLAGS: u16 = 0x001;
pub const FRM: u16 = 0x002;
pub const FCSR: u16 = 0x003;
// Unprivileged counters.
pub const CYCLE: u16 = 0xc00;
pub const TIME: u16 = 0xc01;
pub const INSTRET: u16 = 0xc02;
pub const HPMCOUNTER3: u16 = 0xc03;
pub const HPMCOUNTER31: u16 = 0xc1f;
// Supervisor.
pub const SSTATUS: u16 = 0x100;
pub const SIE: u16 = 0x104;
pub const STVEC: u16 = 0x105;
pub const SCOUNTEREN: u16 = 0x106;
pub const SENVCFG: u16 = 0x10a;
pub const SSCRATCH: u16 = 0x140;
pub const SEPC: u16 = 0x141;
pub const SCAUSE: u16 = 0x142;
pub const STVAL: u16 = 0x143;
pub const SIP: u16 = 0x144;
pub const SATP: u16 = 0x180;
/// Sstc's supervisor timer compare.
pub const STIMECMP: u16 = 0x14d;
// Machine.
pub const MVENDORID: u16 = 0xf11;
pub const MARCHID: u16 = 0xf12;
pub const MIMPID: u16 = 0xf13;
pub const MHARTID: u16 = 0xf14;
pub const MCONFIGPTR: u16 = 0xf15;
pub const MSTATUS: u16 = 0x300;
pub const MISA: u16 = 0x301;
pub const MEDELEG: u16 = 0x302;
pub const MIDELEG: u16 = 0x303;
pub const MIE: u16 = 0x304;
pub const MTVEC: u16 = 0x305;
pub const MCOUNTEREN: u16 = 0x306;
/// mvip (Smaia) is not implemented, but Spike's commit log names it on mip/sip writes.
pub const MVIP: u16 = 0x309;
pub const MENVCFG: u16 = 0x30a;
/// hcontext: Spike's commit log names mcontext (0x7a8) writes so (`crate::trigger`).
pub const HCONTEXT: u16 = 0x6a8;
/// PTE.N (Svnapot).
pub const PTE_N: u64 = 1 << 63;
/// PTE.PBMT (Svpbmt), bits 62:61.
pub const PTE_PBMT: u64 = 3 << 61;
/// menvcfg.ADUE (Svadu): hardware updates of PTE A/D bits.
pub const MENVCFG_ADUE: u64 = 1 << 61;
/// menvcfg.PBMTE (Svpbmt): PTE bits 62:61 select a memory type.
pub const MENVCFG_PBMTE: u64 = 1 << 62;
/// menvcfg.STCE (Sstc): stimecmp drives STIP, and S-mode may access it.
pub const MENVCFG_STCE: u64 = 1 << 63;
pub const MCOUNTINHIBIT: u16 = 0x320;
pub const MHPMEVENT3: u16 = 0x323;
pub const MHPMEVENT31: u16 = 0x33f;
pub const MSCRATCH: u16 = 0x340;
pub const MEPC: u16 = 0x341;
pub const MCAUSE: u16 = 0x342;
pub const MTVAL: u16 = 0x343;
pub const MIP: u16 = 0x344;
pub const PMPCFG0: u16 = 0x3a0;
pub const PMPCFG15: u16 = 0x3af;
pub const PMPADDR0: u16 = 0x3b0;
pub const PMPADDR63: u16 = 0x3ef;
pub const MCYCLE: u16 = 0xb00;
pub const MINSTRET: u16 = 0xb02;
pub const MHPMCOUNTER3: u16 = 0xb03;
pub const MHPMCOUNTER31: u16 = 0xb1f;
// Sscofpmf.
pub const SCOUNTOVF: u16 = 0xda0;
// Smstateen (present with CTR).
pub const SSTATEEN0: u16 = 0x10c;
pub const SSTATEEN3: u16 = 0x10f;
pub const MSTATEEN0: u16 = 0x30c;
pub const MSTATEEN3: u16 = 0x30f;
// Smcsrind / Sscsrind (present with CTR).
pub const SISELECT: u16 = 0x150;
pub const SIREG: u16 = 0x151;
pub const SIREG2: u16 = 0x152;
pub const SIREG3: u16 = 0x153;
pub const SIREG4: u16 = 0x155;
pub const SIREG5: u16 = 0x156;
pub const SIREG6: u16 = 0x157;
pub const MISELECT: u16 = 0x350;
pub const MIREG: u16 = 0x351;
pub const MIREG2: u16 = 0x352;
pub const MIREG3: u16 = 0x353;
pub const MIREG4: u16 = 0x355;
pub const MIREG5: u16 = 0x356;
pub const MIREG6: u16 = 0x357;

/// mstateen0.SE0: S-mode may access sstateen0.
pub const MSTATEEN0_SE0: u64 = 1 << 63;
/// mstateen0.CSRIND: S-mode may access siselect and sireg*.
pub const MSTATEEN0_CSRIND: u64 = 1 << 60;
/// The values miselect and siselect can hold (WARL).
pub const ISELECT_MASK: u64 = 0xfff;

// mstatus fields.
pub const MSTATUS_SIE: u64 = 1 << 1;
pub const MSTATUS_MIE: u64 = 1 << 3;
pub const MSTATUS_SPIE: u64 = 1 << 5;
pub const MSTATUS_UBE: u64 = 1 << 6;
pub const MSTATUS_MPIE: u64 = 1 << 7;
pub const MSTATUS_SPP: u64 = 1 << 8;
pub const MSTATUS_VS: u64 = 3 << 9;
pub const MSTATUS_MPP: u64 = 3 << 11;
pub const MSTATUS_MPP_SHIFT: u32 = 11;
pub const MSTATUS_FS: u64 = 3 << 13;
pub const MSTATUS_FS_SHIFT: u32 = 13;
pub const MSTATUS_XS: u64 = 3 << 15;
pub const MSTATUS_MPRV: u64 = 1 << 17;
pub const MSTATUS_SUM: u64 = 1 << 18;
pub const MSTATUS_MXR: u64 = 1 << 19;
pub const MSTATUS_TVM: u64 = 1 << 20;
pub const MSTATUS_TW: u64 = 1 << 21;
pub const MSTATUS_TSR: u64 = 1 << 22;
pub const MSTATUS_UXL: u64 = 3 << 32;
pub const MSTATUS_SXL: u64 = 3 << 34;
pub const MSTATUS_SBE: u64 = 1 << 36;
pub const MSTATUS_MBE: u64 = 1 << 37;
pub const MSTATUS_SD: u64 = 1 << 63;

/// FS values.
pub const FS_OFF: u64 = 0;
pub const FS_DIRTY: u64 = 3;

/// The mstatus bits software can write.
pub const MSTATUS_WRITABLE: u64 = MSTATUS_SIE
    | MSTATUS_MIE
    | MSTATUS_SPIE
    | MSTATUS_MPIE
    | MSTATUS_SPP
    | MSTATUS_MPP
    | MSTATUS_FS
    | MSTATUS_MPRV
    | MSTATUS_SUM
    | MSTATUS_MXR
    | MSTATUS_TVM
    | MSTATUS_TW
    | MSTATUS_TSR;

/// The mstatus bits visible through sstatus.
pub const SSTATUS_MASK: u64 = MSTATUS_SIE
    | MSTATUS_SPIE
    | MSTATUS_UBE
    | MSTATUS_SPP
    | MSTATUS_VS
    | MSTATUS_FS
    | MSTATUS_XS
    | MSTATUS_SUM
    | MSTATUS_MXR
    | MSTATUS_UXL
    | MSTATUS_SD;

/// The sstatus bits software can write.
pub const SSTATUS_WRITABLE: u64 =
    MSTATUS_SIE | MSTATUS_SPIE | MSTATUS_SPP | MSTATUS_FS | MSTATUS_SUM | MSTATUS_MXR;

// Interrupt bits (mip/mie).
pub const MIP_SSIP: u64 = 1 << 1;
pub const MIP_MSIP: u64 = 1 << 3;
pub const MIP_STIP: u64 = 1 << 5;
pub const MIP_MTIP: u64 = 1 << 7;
pub const MIP_SEIP: u64 = 1 << 9;
pub const MIP_MEIP: u64 = 1 << 11;
pub const MIP_LCOFIP: u64 = 1 << 13;

/// The indirect register number (1..=6) of an `*ireg*` CSR at `offset` from `*ireg`.
pub fn ireg_number(offset: u16) -> Option<u8> {
    match offset {
        0..=2 => Some(offset as u8 + 1),
        4..=6 => Some(offset as u8),
        _ => None,
    }
}

/// Interrupts S-mode can own (delegable through mideleg).
pub const S_INTERRUPTS: u64 = MIP_SSIP | MIP_STIP | MIP_SEIP;
pub const M_INTERRUPTS: u64 = MIP_MSIP | MIP_MTIP | MIP_MEIP;

/// Exceptions that can be delegated (medeleg), as on Spike: causes 1-9, 12, 13, 15, 18, 19.
/// Cause 0 is read-only zero (with C, instruction addresses are never misaligned); ecall from M
/// (11) is never delegated.
pub const MEDELEG_WRITABLE: u64 = 0xcb3fe;

/// misa: RV64 with I M A F D C S U.
pub const MISA_RV64GC: u64 = (2 << 62)
    | 1 // A
    | (1 << (b'C' - b'A'))
    | (1 << (b'D' - b'A'))
    | (1 << (b'F' - b'A'))
    | (1 << (b'I' - b'A'))
    | (1 << (b'M' - b'A'))
    | (1 << (b'S' - b'A'))
    | (1 << (b'U' - b'A'));

// satp.
pub const SATP_MODE_SHIFT: u32 = 60;
pub const SATP_MODE_BARE: u64 = 0;
pub const SATP_MODE_SV39: u64 = 8;
pub const SATP_MODE_SV48: u64 = 9;
pub const SATP_ASID_MASK: u64 = 0xffff << 44;
pub const SATP_PPN_MASK: u64 = (1 << 44) - 1;

// PMP configuration bits.
pub const PMP_R: u8 = 1 << 0;
pub const PMP_W: u8 = 1 << 1;
pub const PMP_X: u8 = 1 << 2;
pub const PMP_A: u8 = 3 << 3;
pub const PMP_A_SHIFT: u32 = 3;
pub const PMP_L: u8 = 1 << 7;
pub const PMP_OFF: u8 = 0;
pub const PMP_TOR: u8 = 1;
pub const PMP_NA4: u8 = 2;
pub const PMP_NAPOT: u8 = 3;

/// PMP entries a hart has by default, as Spike's (`--pmpregions`, [`crate::Config::pmp_regions`]).
pub const PMP_ENTRIES: usize = 16;
/// The most PMP entries the privileged spec allows (pmpcfg0..15, pmpaddr0..63).
pub const PMP_MAX: usize = 64;
/// pmpaddr holds physical address bits 55:2.
pub const PMPADDR_MASK: u64 = (1 << 54) - 1;
/// Number of hpm counters (mhpmcounter3..31).
pub const HPM_COUNTERS: usize = 29;

/// PMP at reset, as on Spike: entry 0 is NAPOT over the whole address space with R, W and X,
/// so S and U modes can reach memory before firmware programs PMP. (The privileged spec leaves
/// this to the platform's reset; programs that configure PMP overwrite it.)
pub const PMP_RESET_CFG: [u8; PMP_MAX] = {
    let mut c = [0u8; PMP_MAX];
    c[0] = (PMP_NAPOT << PMP_A_SHIFT) | PMP_R | PMP_W | PMP_X;
    c
};
pub const PMP_RESET_ADDR: [u64; PMP_MAX] = {
    let mut a = [0u64; PMP_MAX];
    a[0] = PMPADDR_MASK;
    a
};

/// The hart's CSR state. Counters are kept lazily elsewhere (see `counters`).
#[derive(Clone, Debug)]
pub struct Csrs {
    /// mstatus without SD (SD is computed on read).
    pub mstatus: u64,
    pub misa: u64,
    pub medeleg: u64,
    pub mideleg: u64,
    pub mie: u64,
    /// The software-writable and CLINT-driven bits of mip.
    pub mip: u64,
    pub mtvec: u64,
    pub stvec: u64,
    pub mepc: u64,
    pub sepc: u64,
    pub mcause: u64,
    pub scause: u64,
    pub mtval: u64,
    pub stval: u64,
    pub mscratch: u64,
    pub sscratch: u64,
    pub satp: u64,
    pub mcounteren: u32,
    pub scounteren: u32,
    pub menvcfg: u64,
    pub senvcfg: u64,
    /// Sstc's stimecmp.
    pub stimecmp: u64,
    pub mhartid: u64,
    pub fflags: u8,
    pub frm: u8,
    pub pmpcfg: [u8; PMP_MAX],
    pub pmpaddr: [u64; PMP_MAX],
    /// PMP entries implemented (0..=64; [`crate::Config::pmp_regions`]): the others read
    /// zero and ignore writes.
    pub pmp_regions: u8,
    /// log2 of the PMP granularity in bytes (2 for 4 bytes; [`crate::Config::pmp_granularity`]).
    pub pmp_lg: u8,
    /// mcountinhibit bits of counters that do not exist, kept as written (as Spike does).
    pub mcountinhibit_rest: u32,
    pub mstateen0: u64,
    pub miselect: u64,
    pub siselect: u64,
}

impl Default for Csrs {
    fn default() -> Self {
        Csrs {
            mstatus: (2 << 32) | (2 << 34),
            misa: MISA_RV64GC,
            medeleg: 0,
            mideleg: 0,
            mie: 0,
            mip: 0,
            mtvec: 0,
            stvec: 0,
            mepc: 0,
            sepc: 0,
            mcause: 0,
            scause: 0,
            mtval: 0,
            stval: 0,
            mscratch: 0,
            sscratch: 0,
            satp: 0,
            mcounteren: 0,
            scounteren: 0,
            menvcfg: 0,
            senvcfg: 0,
            stimecmp: 0,
            mhartid: 0,
            fflags: 0,
            frm: 0,
            pmpcfg: PMP_RESET_CFG,
            pmpaddr: PMP_RESET_ADDR,
            pmp_regions: PMP_ENTRIES as u8,
            pmp_lg: 2,
            mcountinhibit_rest: 0,
            mstateen0: 0,
            miselect: 0,
            siselect: 0,
        }
    }
}

impl Csrs {
    /// The pmpaddr bits that hold an address at the PMP granularity (the privileged spec's G
    /// low bits clear; all bits with 4-byte granularity).
    #[inline]
    pub fn pmp_tor_mask(&self) -> u64 {
        !0u64 << (self.pmp_lg - 2)
    }

    /// pmpaddr`i` as read: with a granularity above 4 bytes, bits G-1..0 read as zeros in OFF
    /// and TOR mode, and bits G-2..0 as ones in NAPOT mode (privileged spec 3.7.1).
    #[inline]
    pub fn pmpaddr_read(&self, i: usize) -> u64 {
        let v = self.pmpaddr[i];
        if (self.pmpcfg[i] & PMP_A) >> PMP_A_SHIFT == PMP_NAPOT {
            v | (!self.pmp_tor_mask() >> 1)
        } else {
            v & self.pmp_tor_mask()
        }
    }

    /// Set the PMP implementation (entries 0..=64, granularity log2 >= 2) and put PMP in its
    /// reset state: with any entry, entry 0 NAPOT over everything with R, W and X, as Spike
    /// leaves it; with none, nothing.
    pub fn set_pmp_implementation(&mut self, regions: u8, lg: u8) {
        self.pmp_regions = regions.min(PMP_MAX as u8);
        self.pmp_lg = lg.max(2);
        if regions == 0 {
            self.pmpcfg = [0; PMP_MAX];
            self.pmpaddr = [0; PMP_MAX];
        } else {
            self.pmpcfg = PMP_RESET_CFG;
            self.pmpaddr = PMP_RESET_ADDR;
        }
    }

    /// mstatus as software reads it (SD computed from FS/XS/VS).
    #[inline]
    pub fn mstatus_read(&self) -> u64 {
        let dirty = (self.mstatus & MSTATUS_FS) == MSTATUS_FS
            || (self.mstatus & MSTATUS_XS) == MSTATUS_XS
            || (self.mstatus & MSTATUS_VS) == MSTATUS_VS;
        self.mstatus | if dirty { MSTATUS_SD } else { 0 }
    }

    #[inline]
    pub fn fs(&self) -> u64 {
        (self.mstatus & MSTATUS_FS) >> MSTATUS_FS_SHIFT
    }

    #[inline]
    pub fn mpp(&self) -> u64 {
        (self.mstatus & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT
    }

    #[inline]
    pub fn satp_mode(&self) -> u64 {
        self.satp >> SATP_MODE_SHIFT
    }

    #[inline]
    pub fn fcsr(&self) -> u64 {
        ((self.frm as u64) << 5) | self.fflags as u64
    }
}

/// The name of a CSR, as Spike's commit log and disassemblers spell it.
pub fn csr_name(csr: u16) -> Option<std::borrow::Cow<'static, str>> {
    use std::borrow::Cow::{Borrowed, Owned};
    Some(match csr {
        FFLAGS => Borrowed("fflags"),
        FRM => Borrowed("frm"),
        FCSR => Borrowed("fcsr"),
        CYCLE => Borrowed("cycle"),
        TIME => Borrowed("time"),
        INSTRET => Borrowed("instret"),
        HPMCOUNTER3..=HPMCOUNTER31 => Owned(format!("hpmcounter{}", csr - CYCLE)),
        SSTATUS => Borrowed("sstatus"),
        SIE => Borrowed("sie"),
        STVEC => Borrowed("stvec"),
        SCOUNTEREN => Borrowed("scounteren"),
        SENVCFG => Borrowed("senvcfg"),
        SSCRATCH => Borrowed("sscratch"),
        SEPC => Borrowed("sepc"),
        SCAUSE => Borrowed("scause"),
        STVAL => Borrowed("stval"),
        SIP => Borrowed("sip"),
        SATP => Borrowed("satp"),
        STIMECMP => Borrowed("stimecmp"),
        MVENDORID => Borrowed("mvendorid"),
        MARCHID => Borrowed("marchid"),
        MIMPID => Borrowed("mimpid"),
        MHARTID => Borrowed("mhartid"),
        MCONFIGPTR => Borrowed("mconfigptr"),
        MSTATUS => Borrowed("mstatus"),
        MISA => Borrowed("misa"),
        MEDELEG => Borrowed("medeleg"),
        MIDELEG => Borrowed("mideleg"),
        MIE => Borrowed("mie"),
        MTVEC => Borrowed("mtvec"),
        MCOUNTEREN => Borrowed("mcounteren"),
        MVIP => Borrowed("mvip"),
        MENVCFG => Borrowed("menvcfg"),
        MCOUNTINHIBIT => Borrowed("mcountinhibit"),
        MHPMEVENT3..=MHPMEVENT31 => Owned(format!("mhpmevent{}", csr - 0x320)),
        MSCRATCH => Borrowed("mscratch"),
        MEPC => Borrowed("mepc"),
        MCAUSE => Borrowed("mcause"),
        MTVAL => Borrowed("mtval"),
        MIP => Borrowed("mip"),
        PMPCFG0..=PMPCFG15 => Owned(format!("pmpcfg{}", csr - PMPCFG0)),
        PMPADDR0..=PMPADDR63 => Owned(format!("pmpaddr{}", csr - PMPADDR0)),
        MCYCLE => Borrowed("mcycle"),
        MINSTRET => Borrowed("minstret"),
        MHPMCOUNTER3..=MHPMCOUNTER31 => Owned(format!("mhpmcounter{}", csr - MCYCLE)),
        SCOUNTOVF => Borrowed("scountovf"),
        SSTATEEN0..=SSTATEEN3 => Owned(format!("sstateen{}", csr - SSTATEEN0)),
        MSTATEEN0..=MSTATEEN3 => Owned(format!("mstateen{}", csr - MSTATEEN0)),
        SISELECT => Borrowed("siselect"),
        SIREG => Borrowed("sireg"),
        SIREG2..=SIREG3 | SIREG4..=SIREG6 => Owned(format!(
            "sireg{}",
            csr - SIREG + if csr >= SIREG4 { 0 } else { 1 }
        )),
        MISELECT => Borrowed("miselect"),
        MIREG => Borrowed("mireg"),
        MIREG2..=MIREG3 | MIREG4..=MIREG6 => Owned(format!(
            "mireg{}",
            csr - MIREG + if csr >= MIREG4 { 0 } else { 1 }
        )),
        0x7a0 => Borrowed("tselect"),
        0x7a1 => Borrowed("tdata1"),
        0x7a2 => Borrowed("tdata2"),
        0x7a3 => Borrowed("tdata3"),
        0x7a4 => Borrowed("tinfo"),
        0x7a8 => Borrowed("mcontext"),
        HCONTEXT => Borrowed("hcontext"),
        0x5a8 => Borrowed("scontext"),
        0x14e => Borrowed("sctrctl"),
        0x14f => Borrowed("sctrstatus"),
        0x15f => Borrowed("sctrdepth"),
        0x34e => Borrowed("mctrctl"),
        0x181 => Borrowed("sctrcontrol"),
        0x183 => Borrowed("sctrstatus"),
        0x381 => Borrowed("mctrcontrol"),
        0x383 => Borrowed("mctrstatus"),
        _ => return None,
    })
}
