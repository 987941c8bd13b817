//! Every architectural number of Smctr/Ssctr in one place: CSR addresses, control-register bit
//! positions for both layouts, status and entry-register fields, the indirect-select range,
//! the Smstateen bit and the SCTRCLR encoding.
//!
//! Draft 0.1.4 positions come from chapters 2 and 3 of `smctr-ssctr-0.1.4.txt` (its register
//! diagrams are damaged in the text rendering; every position here was cross-checked against the
//! field tables, the `sctrcontrol` rule "bits 0 and 8 are read-only 0 ... M and MTE", and the
//! rule that filter bit `32 + itype` belongs to transfer type `itype`). Ratified 1.0 positions
//! come from the ratified Smctr/Ssctr text (RISC-V privileged ISA, chapter "Smctr") and agree
//! with the facts listed in `../shared/specs/README.md`.

/// CSR addresses.
pub mod csr {
    /// Draft 0.1.4 (section 2.6, "CSR Listing").
    pub mod draft014 {
        /// `sctrcontrol`: the S-mode view of `mctrcontrol` (section 2.2).
        pub const SCTRCONTROL: u16 = 0x181;
        /// `sctrcontrolh`: RV32 only; illegal on this RV64 hart.
        pub const SCTRCONTROLH: u16 = 0x182;
        /// `sctrstatus`: S-mode alias of `mctrstatus` (section 2.5).
        pub const SCTRSTATUS: u16 = 0x183;
        /// `vsctrcontrol`: needs the H extension, which this hart lacks: illegal (section 2.3).
        pub const VSCTRCONTROL: u16 = 0x281;
        /// `vsctrcontrolh`: RV32 only and needs H: illegal.
        pub const VSCTRCONTROLH: u16 = 0x282;
        /// `mctrcontrol` (section 2.1).
        pub const MCTRCONTROL: u16 = 0x381;
        /// `mctrcontrolh`: RV32 only; illegal on this RV64 hart.
        pub const MCTRCONTROLH: u16 = 0x382;
        /// `mctrstatus` (section 2.4).
        pub const MCTRSTATUS: u16 = 0x383;
    }
    /// Ratified 1.0.
    pub mod ratified10 {
        /// `sctrctl`: the S-mode view of `mctrctl`.
        pub const SCTRCTL: u16 = 0x14E;
        /// `sctrstatus`: WRPTR\[7:0\] and FROZEN (bit 31); there is no `mctrstatus`.
        pub const SCTRSTATUS: u16 = 0x14F;
        /// `sctrdepth`: DEPTH\[2:0\].
        pub const SCTRDEPTH: u16 = 0x15F;
        /// `vsctrctl`: needs the H extension, which this hart lacks: illegal.
        pub const VSCTRCTL: u16 = 0x24E;
        /// `mctrctl`.
        pub const MCTRCTL: u16 = 0x34E;
    }
}

/// Bit positions of the control register (`mctrcontrol` in 0.1.4, `mctrctl` in 1.0) that
/// differ between the layouts. A mask of 0 means the layout has no such field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CtlBits {
    /// Enable recording in M-mode.
    pub m: u64,
    /// Enable recording in S-mode.
    pub s: u64,
    /// Enable recording in U-mode.
    pub u: u64,
    /// CLR (0.1.4 only): clear the array when written with 1; reads 0.
    pub clr: u64,
    /// MTE: opt in to recording external traps into M-mode.
    pub mte: u64,
    /// STE: opt in to recording external traps into S-mode.
    pub ste: u64,
    /// RASEMU: return-address-stack emulation.
    pub rasemu: u64,
    /// BPFRZ: freeze on a breakpoint exception.
    pub bpfrz: u64,
    /// LCOFIFRZ: freeze on a local counter overflow interrupt.
    pub lcofifrz: u64,
    /// ETEN (0.1.4 only): tools' opt in to recording external traps.
    pub eten: u64,
    /// DEPTH\[3:0\] (0.1.4 only, bits 19:16); `sctrdepth` holds the depth in 1.0.
    pub depth: u64,
}

/// Draft 0.1.4 `mctrcontrol` (section 2.1): M=0, S=1, U=2, CLR=7, MTE=8, STE=9, RASEMU=10,
/// BPFRZ=11, LCOFIFRZ=12, DEPTH=19:16, ETEN=38.
pub const DRAFT014: CtlBits = CtlBits {
    m: 1 << 0,
    s: 1 << 1,
    u: 1 << 2,
    clr: 1 << 7,
    mte: 1 << 8,
    ste: 1 << 9,
    rasemu: 1 << 10,
    bpfrz: 1 << 11,
    lcofifrz: 1 << 12,
    eten: 1 << 38,
    depth: 0xF << 16,
};

/// Ratified 1.0 `mctrctl`: U=0, S=1, M=2, RASEMU=7, STE=8, MTE=9, BPFRZ=11, LCOFIFRZ=12; no
/// CLR (replaced by SCTRCLR), no DEPTH (moved to `sctrdepth`), no ETEN.
pub const RATIFIED10: CtlBits = CtlBits {
    m: 1 << 2,
    s: 1 << 1,
    u: 1 << 0,
    clr: 0,
    mte: 1 << 9,
    ste: 1 << 8,
    rasemu: 1 << 7,
    bpfrz: 1 << 11,
    lcofifrz: 1 << 12,
    eten: 0,
    depth: 0,
};

/// Shift of the DEPTH field in the 0.1.4 `mctrcontrol`.
pub const DEPTH_SHIFT_014: u32 = 16;

/// The transfer-type filter bits sit at `32 + itype` in both layouts (0.1.4 section 5.2,
/// "Bits 47:32 ... leverage the type definitions" of E-Trace; 1.0 "xctrctl\[47:32\]").
pub const FILTER_SHIFT: u32 = 32;
/// EXCINH: inhibit exceptions (itype 1).
pub const EXCINH: u64 = 1 << 33;
/// INTRINH: inhibit interrupts (itype 2).
pub const INTRINH: u64 = 1 << 34;
/// TRETINH: inhibit trap returns (itype 3).
pub const TRETINH: u64 = 1 << 35;
/// NTBREN: *enable* not-taken branches (itype 4); opt-in polarity.
pub const NTBREN: u64 = 1 << 36;
/// TKBRINH: inhibit taken branches (itype 5).
pub const TKBRINH: u64 = 1 << 37;
/// INDCALLINH: inhibit indirect calls (itype 8).
pub const INDCALLINH: u64 = 1 << 40;
/// DIRCALLINH: inhibit direct calls (itype 9).
pub const DIRCALLINH: u64 = 1 << 41;
/// INDJMPINH (0.1.4: INDJUMPINH): inhibit indirect jumps without linkage (itype 10).
pub const INDJMPINH: u64 = 1 << 42;
/// DIRJMPINH (0.1.4: DIRJUMPINH): inhibit direct jumps without linkage (itype 11).
pub const DIRJMPINH: u64 = 1 << 43;
/// CORSWAPINH: inhibit co-routine swaps (itype 12).
pub const CORSWAPINH: u64 = 1 << 44;
/// RETINH: inhibit function returns (itype 13).
pub const RETINH: u64 = 1 << 45;
/// INDLJMPINH (0.1.4: INDOJMPINH): inhibit other indirect jumps with linkage (itype 14).
pub const INDLJMPINH: u64 = 1 << 46;
/// DIRLJMPINH (0.1.4: DIROJMPINH): inhibit other direct jumps with linkage (itype 15).
pub const DIRLJMPINH: u64 = 1 << 47;
/// Every standard transfer-type filter bit (EXCINH..TKBRINH, INDCALLINH..DIRLJMPINH), as a
/// 16-bit mask over bits 47:32.
pub const FILTERS_ALL: u16 = 0xFF3E;
/// Bits 63:60 of the control register are reserved for custom extensions in both layouts.
pub const CUSTOM_SHIFT: u32 = 60;

/// `mctrstatus` / `sctrstatus` fields.
pub mod status {
    /// WRPTR\[7:0\] in both layouts; bits above `depth - 1` are read-only 0.
    pub const WRPTR: u64 = 0xFF;
    /// 0.1.4 WRAP (bit 14): sticky "WRPTR wrapped".
    pub const WRAP_014: u64 = 1 << 14;
    /// 0.1.4 FROZEN (bit 15).
    pub const FROZEN_014: u64 = 1 << 15;
    /// 1.0 FROZEN (bit 31).
    pub const FROZEN_10: u64 = 1 << 31;
}

/// Entry-register fields (0.1.4 chapter 3; unchanged in 1.0).
pub mod entry {
    /// `ctrsource`.V (bit 0).
    pub const V: u64 = 1;
    /// `ctrtarget`.MISP (bit 0).
    pub const MISP: u64 = 1;
    /// `ctrdata`.TYPE\[3:0\].
    pub const TYPE: u64 = 0xF;
    /// `ctrdata`.CCV (bit 15).
    pub const CCV: u64 = 1 << 15;
    /// `ctrdata`.CC\[15:0\] lives at bits 31:16.
    pub const CC_SHIFT: u32 = 16;
    /// `ctrdata`.CCM: CC\[11:0\] = ctrdata\[27:16\].
    pub const CCM: u64 = 0xFFF << 16;
    /// `ctrdata`.CCE: CC\[15:12\] = ctrdata\[31:28\].
    pub const CCE_SHIFT: u32 = 28;
}

/// The `*iselect` values 0x200..=0x2FF select logical entries 0..=255 (0.1.4 chapter 3;
/// 1.0 "Entry Registers").
pub const SELECT_FIRST: u64 = 0x200;
/// Last select value of the CTR range.
pub const SELECT_LAST: u64 = 0x2FF;

/// `mstateen0` bit gating S-mode access to CTR state in draft 0.1.4 (chapter 4: "The CTR bit
/// is bit 55 in mstateen0 and hstateen0").
pub const MSTATEEN0_CTR_014: u32 = 55;
/// `mstateen0` bit gating S-mode access to CTR state in 1.0.
pub const MSTATEEN0_CTR_10: u32 = 54;

/// The SCTRCLR instruction (1.0 only): SYSTEM, funct12 0x104, rs1 = rd = funct3 = 0.
pub const SCTRCLR: u32 = 0x1040_0073;
