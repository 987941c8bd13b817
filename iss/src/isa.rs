//! The ISA string (`--isa`, the plugin's `Config::isa`) parsed once into the set of live
//! extensions ([`Isa`]), which everything else asks: the decoder's filter (an instruction of
//! an extension that is off decodes as [`Op::Illegal`]), the CSR file (misa, the FP CSRs, the
//! counters), the jump handlers (IALIGN) and the device tree (`riscv,isa`,
//! `riscv,isa-extensions`).
//!
//! The string follows the unprivileged spec's naming chapter: `rv64`, then the base `i` (or
//! `g`, which stands for `imafd_zicsr_zifencei`), then single-letter extensions in canonical
//! order (`m a f d c`; an underscore may separate them), then multi-letter ones (`z...`,
//! `s...`) separated by underscores, in any order. Upper case is accepted; every extension may
//! carry a version (`m2p0`, `zicsr2p0`, `i2`), which is accepted and ignored (hartscope
//! implements one version of each).
//!
//! As on Spike (and in the ISA strings written before Zicsr and Zifencei were split out of
//! I), **Zicsr and Zifencei come with the base I**: naming them is accepted and changes
//! nothing, and they cannot be switched off. A hart with machine mode needs Zicsr to take a
//! trap at all, and Spike, the reference every differential test compares with, always
//! implements both. Zicntr and Zihpm, as on Spike, exist only when named.
//!
//! A profile name (`rva22u64`, `rva23u64`, [`PROFILES`]) stands for the profile's mandatory
//! extensions that hartscope implements; what it lacks of them is documented there (and in
//! the README), and the rest of the string may name more extensions.
//!
//! What hartscope cannot do is refused with an [`IsaError`] naming the extension: another
//! base (rv32, `e`), an extension it does not implement, a letter out of canonical order, and
//! impossible combinations (`d` without `f`; Smcsrind/Smstateen without CTR).

use crate::insn::{Insn, Op};
use thiserror::Error;

/// An extension an operation belongs to: a column of the instruction table
/// ([`crate::ops`]), which the decode-time filter ([`Isa::filter`]) reads through
/// [`Isa::decodes`]. Compressed instructions belong to the extension of the operation they
/// expand to, and to C; those in Zcb's encoding space ([`crate::decode::is_zcb`]) to Zcb as
/// well (the filter reads the bits, so no operation needs a row of its own for Zcb).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ext {
    /// The base integer ISA (RV64I).
    I,
    M,
    A,
    F,
    D,
    Zicsr,
    Zifencei,
    Zba,
    Zbb,
    Zbs,
    Zicond,
    /// Zicbom: `cbo.clean`, `cbo.flush`, `cbo.inval`.
    Zicbom,
    /// Zicboz: `cbo.zero`.
    Zicboz,
    /// Zfa's single-precision forms (with F).
    Zfa,
    /// Zfa's double-precision forms (with D).
    ZfaD,
    /// The privileged architecture's instructions (xRET, WFI, SFENCE.VMA): every hart has
    /// them.
    Priv,
    /// Smctr/Ssctr (SCTRCLR).
    Smctr,
    /// Svinval: `sinval.vma`, `sfence.w.inval`, `sfence.inval.ir`.
    Svinval,
}

/// The live extensions of the hart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Isa {
    pub m: bool,
    pub a: bool,
    pub f: bool,
    pub d: bool,
    pub c: bool,
    /// Always true (see the module documentation).
    pub zicsr: bool,
    /// Always true (see the module documentation).
    pub zifencei: bool,
    /// cycle, time, instret (the user-level counters).
    pub zicntr: bool,
    /// hpmcounter3..31 (the user-level hpm counters).
    pub zihpm: bool,
    /// Zba: address generation (`add.uw`, `sh[123]add[.uw]`, `slli.uw`).
    pub zba: bool,
    /// Zbb: basic bit manipulation.
    pub zbb: bool,
    /// Zbs: single-bit instructions.
    pub zbs: bool,
    /// Zicond: `czero.eqz`, `czero.nez`.
    pub zicond: bool,
    /// Zcb: the simple 16-bit instructions (`c.lbu`, `c.zext.b`, `c.mul`...), with C; those
    /// that expand to an M, Zba or Zbb operation need that extension too.
    pub zcb: bool,
    /// Zihintpause: `pause` (a FENCE hint, which executes as such with it or without it).
    pub zihintpause: bool,
    /// Zihintntl: the non-temporal locality hints `ntl.*` and `c.ntl.*` (ADD/C.ADD hints to x0,
    /// which execute as such with it or without it).
    pub zihintntl: bool,
    /// Zicbop: `prefetch.i/r/w` (ORI hints to x0, which execute as such with it or without it).
    pub zicbop: bool,
    /// Zicbom: cache-block management (`cbo.clean`, `cbo.flush`, `cbo.inval`).
    pub zicbom: bool,
    /// Zicboz: `cbo.zero`.
    pub zicboz: bool,
    /// Zfa: `fli`, `fminm`/`fmaxm`, `fround`/`froundnx`, `fcvtmod.w.d`, `fleq`/`fltq` (the
    /// single forms with F, the double ones with D).
    pub zfa: bool,
    /// Sscofpmf: counter overflow and mode filtering.
    pub sscofpmf: bool,
    /// Smctr/Ssctr (with Smcsrind/Sscsrind and Smstateen/Ssstateen, which come with them).
    pub ctr: bool,
    /// Sstc: stimecmp drives STIP (with menvcfg.STCE).
    pub sstc: bool,
    /// Svpbmt: page-based memory types in PTE bits 62:61 (with menvcfg.PBMTE).
    pub svpbmt: bool,
    /// Svnapot: 64 KiB NAPOT leaf PTEs (PTE bit 63).
    pub svnapot: bool,
    /// Svadu: hardware A/D updating (with menvcfg.ADUE).
    pub svadu: bool,
    /// Svinval: `sinval.vma`, `sfence.w.inval`, `sfence.inval.ir`.
    pub svinval: bool,
}

impl Default for Isa {
    fn default() -> Self {
        Isa::DEFAULT
    }
}

/// Why an ISA string cannot be honoured.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum IsaError {
    #[error("hartscope simulates RV64 harts (the string must start with rv64)")]
    NotRv64,
    #[error("the base integer ISA must follow rv64: i or g (the E base is not implemented)")]
    Base,
    #[error("extension '{0}' is not implemented (hartscope implements rv64imafdc, b, zicsr, zifencei, zicntr, zihpm, zicond, zba, zbb, zbs, zcb, zihintpause, zihintntl, zicbop, zicbom, zicboz, zfa, sscofpmf, sstc, svadu, svinval, svnapot, svpbmt, smctr/ssctr with smcsrind/sscsrind and smstateen/ssstateen)")]
    Unsupported(String),
    #[error("extension '{ext}' is out of canonical order: it must come before '{after}' (the order is i, m, a, f, d, c)")]
    Order { ext: char, after: char },
    #[error("extension '{ext}' requires '{needs}'")]
    Requires {
        ext: &'static str,
        needs: &'static str,
    },
    #[error("profile '{0}' is not known (hartscope knows rva22u64 and rva23u64)")]
    Profile(String),
    #[error("an empty extension name (two underscores in a row, or one at the end)")]
    Empty,
    #[error("'{0}' cannot be parsed (extensions are letters, each with an optional version such as 2p0)")]
    Syntax(String),
}

/// An ISA profile `--isa` accepts by name: it selects the profile's mandatory extensions that
/// hartscope implements (`expansion`, an ISA string; more extensions may follow the name,
/// `rva22u64_zicond`), and runs without the ones it does not (`lacks`: what a program written
/// for the profile may meet as illegal instructions, or, for Zicclsm, as misaligned-access
/// traps unless `--misaligned emulate`). V and its Zv* extensions, which RVA23U64 mandates,
/// are left out by design (rva23u64 means rva23u64 minus V), and naming `v` is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    pub name: &'static str,
    pub expansion: &'static str,
    pub lacks: &'static [&'static str],
}

/// The profiles `--isa` knows. The memory-system properties the profiles name as extensions
/// (Ziccif, Ziccrse, Ziccamoa, Za64rs, Zic64b) hold on hartscope's one hart with its 64-byte
/// cache blocks; Zkt (data-independent timing) has no meaning for a simulator that has no
/// timing, and is not listed as lacking.
pub const PROFILES: [Profile; 2] = [
    Profile {
        name: "rva22u64",
        expansion: "rv64imafdcb_zicntr_zihpm_zihintpause_zicbom_zicbop_zicboz",
        lacks: &["zfhmin", "zicclsm (with --misaligned trap, the default)"],
    },
    Profile {
        name: "rva23u64",
        expansion:
            "rv64imafdcb_zicntr_zihpm_zihintpause_zicbom_zicbop_zicboz_zihintntl_zicond_zcb_zfa",
        lacks: &[
            "zfhmin",
            "zicclsm (with --misaligned trap, the default)",
            "zimop",
            "zcmop",
            "zawrs",
            "supm",
            "v (with zvfhmin, zvbb, zvkt: left out by design)",
        ],
    },
];

/// The canonical order of the single-letter extensions after the base (the unprivileged
/// spec's table of standard extensions); hartscope implements m, a, f, d and c of them.
const LETTER_ORDER: &str = "mafdqlcbkjtpvnh";

impl Isa {
    /// RV64GC: rv64imafdc with Zicsr and Zifencei, and nothing else (what `rv64gc` means).
    pub const RV64GC: Isa = Isa {
        m: true,
        a: true,
        f: true,
        d: true,
        c: true,
        zicsr: true,
        zifencei: true,
        zicntr: false,
        zihpm: false,
        zba: false,
        zbb: false,
        zbs: false,
        zicond: false,
        zcb: false,
        zihintpause: false,
        zihintntl: false,
        zicbop: false,
        zicbom: false,
        zicboz: false,
        zfa: false,
        sscofpmf: false,
        ctr: false,
        sstc: false,
        svpbmt: false,
        svnapot: false,
        svadu: false,
        svinval: false,
    };

    /// The hart when no ISA string is given: Spike's default, `rv64imafdc_zicntr_zihpm`.
    pub const DEFAULT: Isa = Isa {
        zicntr: true,
        zihpm: true,
        ..Isa::RV64GC
    };

    /// The string [`Isa::DEFAULT`] is parsed from.
    pub const DEFAULT_STRING: &'static str = "rv64imafdc_zicntr_zihpm";

    /// Parse an ISA string (see the module documentation).
    pub fn parse(isa: &str) -> Result<Isa, IsaError> {
        let l = isa.to_ascii_lowercase();
        for p in PROFILES {
            if let Some(tail) = l.strip_prefix(p.name) {
                if tail.is_empty() || tail.starts_with('_') {
                    return Isa::parse(&format!("{}{tail}", p.expansion));
                }
            }
        }
        if l.starts_with("rva") || l.starts_with("rvb") {
            let name = l.split('_').next().unwrap_or(&l);
            return Err(IsaError::Profile(name.to_string()));
        }
        let rest = l.strip_prefix("rv64").ok_or(IsaError::NotRv64)?;
        // The base alone (Zicsr and Zifencei always come with it, as on Spike).
        let mut out = Isa {
            m: false,
            a: false,
            f: false,
            d: false,
            c: false,
            ..Isa::RV64GC
        };
        let b = rest.as_bytes();
        let mut i = 0;
        match b.first() {
            Some(b'i') => {}
            Some(b'g') => {
                out.m = true;
                out.a = true;
                out.f = true;
                out.d = true;
            }
            _ => return Err(IsaError::Base),
        }
        i += 1;
        i = skip_version(b, i);
        // Single letters, in canonical order.
        let mut last: Option<(usize, char)> = None;
        loop {
            if b.get(i) == Some(&b'_') && b.get(i + 1).is_some_and(|c| single_letter(*c)) {
                i += 1;
            }
            let Some(&ch) = b.get(i) else { break };
            if !single_letter(ch) {
                break;
            }
            let ch = ch as char;
            let Some(pos) = LETTER_ORDER.find(ch) else {
                // 'g' or 'i' again, 'e', or a letter that is no extension.
                return Err(IsaError::Unsupported(ch.to_string()));
            };
            if let Some((p, prev)) = last {
                if pos < p {
                    return Err(IsaError::Order {
                        ext: ch,
                        after: prev,
                    });
                }
            }
            last = Some((pos, ch));
            match ch {
                'm' => out.m = true,
                'a' => out.a = true,
                'f' => out.f = true,
                'd' => out.d = true,
                'c' => out.c = true,
                // B is Zba, Zbb and Zbs.
                'b' => {
                    out.zba = true;
                    out.zbb = true;
                    out.zbs = true;
                }
                other => return Err(IsaError::Unsupported(other.to_string())),
            }
            i = skip_version(b, i + 1);
        }
        // Multi-letter extensions, separated by underscores (the first one optional).
        let tail = &rest[i..];
        if !tail.is_empty() {
            let tail = tail.strip_prefix('_').unwrap_or(tail);
            let mut csrind = false;
            for ext in tail.split('_') {
                if ext.is_empty() {
                    return Err(IsaError::Empty);
                }
                let name = strip_version(ext);
                if name.is_empty() || !name.bytes().all(|c| c.is_ascii_lowercase()) {
                    return Err(IsaError::Syntax(ext.to_string()));
                }
                match name {
                    "zicsr" => out.zicsr = true,
                    "zifencei" => out.zifencei = true,
                    "zicntr" => out.zicntr = true,
                    "zihpm" => out.zihpm = true,
                    "zicond" => out.zicond = true,
                    "zba" => out.zba = true,
                    "zbb" => out.zbb = true,
                    "zbs" => out.zbs = true,
                    "zcb" => out.zcb = true,
                    "zihintpause" => out.zihintpause = true,
                    "zihintntl" => out.zihintntl = true,
                    "zicbop" => out.zicbop = true,
                    "zicbom" => out.zicbom = true,
                    "zicboz" => out.zicboz = true,
                    "zfa" => out.zfa = true,
                    "sscofpmf" => out.sscofpmf = true,
                    "smctr" | "ssctr" => out.ctr = true,
                    "smcsrind" | "sscsrind" | "smstateen" | "ssstateen" => csrind = true,
                    "sstc" => out.sstc = true,
                    "svpbmt" => out.svpbmt = true,
                    "svnapot" => out.svnapot = true,
                    "svadu" => out.svadu = true,
                    "svinval" => out.svinval = true,
                    // The debug triggers are always there, as on Spike (which has them whatever
                    // its ISA string says, and refuses the name): accepted, changing nothing.
                    "sdtrig" => {}
                    other => return Err(IsaError::Unsupported(other.to_string())),
                }
            }
            if csrind && !out.ctr {
                return Err(IsaError::Requires {
                    ext: "smcsrind/sscsrind/smstateen",
                    needs: "smctr or ssctr (hartscope implements them for CTR only)",
                });
            }
        }
        if out.zfa && !out.f {
            return Err(IsaError::Requires {
                ext: "zfa",
                needs: "f",
            });
        }
        if out.zcb && !out.c {
            return Err(IsaError::Requires {
                ext: "zcb",
                needs: "c (zca)",
            });
        }
        // Spike's stimecmp checks its access through the time CSR, which Zicntr brings.
        if out.sstc && !out.zicntr {
            return Err(IsaError::Requires {
                ext: "sstc",
                needs: "zicntr (stimecmp's access follows the time CSR's)",
            });
        }
        if out.d && !out.f {
            return Err(IsaError::Requires {
                ext: "d",
                needs: "f",
            });
        }
        if out.f && !out.zicsr {
            return Err(IsaError::Requires {
                ext: "f",
                needs: "zicsr",
            });
        }
        Ok(out)
    }

    /// misa: MXL = 2 (RV64), I, S and U, and the single-letter extensions that are on.
    pub fn misa(&self) -> u64 {
        let bit = |c: u8| 1u64 << (c - b'A');
        let mut v = (2u64 << 62) | bit(b'I') | bit(b'S') | bit(b'U');
        for (on, c) in [
            (self.m, b'M'),
            (self.a, b'A'),
            (self.f, b'F'),
            (self.d, b'D'),
            (self.c, b'C'),
            // As on Spike, B reads 1 when Zba, Zbb and Zbs are all there.
            (self.zba && self.zbb && self.zbs, b'B'),
        ] {
            if on {
                v |= bit(c);
            }
        }
        v
    }

    /// Every extension of rv64gc is on: the decoder's filter has nothing to do.
    #[inline]
    pub fn is_full(&self) -> bool {
        self.m
            && self.a
            && self.f
            && self.d
            && self.c
            && self.zicsr
            && self.zifencei
            && self.zba
            && self.zbb
            && self.zbs
            && self.zicond
            && self.zcb
            && self.zicbom
            && self.zicboz
            && self.zfa
            && self.svinval
    }

    /// The bits of mcounteren and scounteren that exist (as on Spike: CY, TM, IR with Zicntr,
    /// HPM3..31 with Zihpm).
    pub fn counteren_mask(&self) -> u32 {
        (if self.zicntr { 7 } else { 0 }) | (if self.zihpm { !7 } else { 0 })
    }

    /// The menvcfg bits that are writable: the enable of each extension that is on (STCE
    /// with Sstc, PBMTE with Svpbmt, ADUE with Svadu); the others read 0. FIOM is read-only
    /// zero, as on Spike.
    pub fn menvcfg_mask(&self) -> u64 {
        use crate::csr::{MENVCFG_ADUE, MENVCFG_PBMTE, MENVCFG_STCE};
        (if self.sstc { MENVCFG_STCE } else { 0 })
            | if self.svpbmt { MENVCFG_PBMTE } else { 0 }
            | if self.svadu { MENVCFG_ADUE } else { 0 }
    }

    /// What xepc reads as: with C, bit 0 clear (it is never set); without C (IALIGN 32),
    /// bit 1 reads 0 too, as the privileged spec and Spike have it.
    #[inline]
    pub fn epc_mask(&self) -> u64 {
        if self.c {
            !0
        } else {
            !3
        }
    }

    /// Whether the instructions of extension `ext` decode on this hart (an instruction of an
    /// extension that is off decodes as illegal).
    #[inline]
    pub const fn decodes(&self, ext: Ext) -> bool {
        match ext {
            Ext::I | Ext::Priv => true,
            Ext::M => self.m,
            Ext::A => self.a,
            Ext::F => self.f,
            Ext::D => self.d,
            Ext::Zicsr => self.zicsr,
            Ext::Zifencei => self.zifencei,
            Ext::Zba => self.zba,
            Ext::Zbb => self.zbb,
            Ext::Zbs => self.zbs,
            Ext::Zicond => self.zicond,
            Ext::Zicbom => self.zicbom,
            Ext::Zicboz => self.zicboz,
            Ext::Zfa => self.zfa && self.f,
            Ext::ZfaD => self.zfa && self.d,
            // SCTRCLR decodes on every hart and raises illegal-instruction when it executes
            // without CTR 1.0 (the CTR version is the CTR model's to say, not the ISA
            // string's).
            Ext::Smctr => true,
            Ext::Svinval => self.svinval,
        }
    }

    /// Whether operation `op` (of an instruction `len` bytes long) belongs to extensions that
    /// are all on: its own ([`crate::ops::Facts::ext`]), and C when it is compressed.
    #[inline]
    pub fn allows(&self, op: Op, len: u8) -> bool {
        if len == 2 && !self.c {
            return false;
        }
        self.decodes(op.facts().ext)
    }

    /// The instruction as this hart executes it: `d` itself, or an illegal instruction of the
    /// same bits and length when its extension is off (or, for a 16-bit instruction in Zcb's
    /// encoding space, when Zcb is off). Applied where instructions are
    /// decoded (the decode cache, single steps), so it costs nothing per execution.
    #[inline]
    pub fn filter(&self, d: Insn) -> Insn {
        // No `is_full` shortcut: the column look-up is as cheap as testing every field.
        let zcb_ok = d.len != 2 || self.zcb || !crate::decode::is_zcb(d.bits);
        if (self.allows(d.op, d.len) && zcb_ok) || d.op == Op::NotDecoded {
            d
        } else {
            Insn::illegal(d.bits, d.len)
        }
    }

    /// The extensions in the order of the canonical ISA string (single letters, then Z
    /// extensions, then S extensions, each group alphabetically), as the device tree's
    /// `riscv,isa-extensions` lists them.
    pub fn extensions(&self) -> Vec<&'static str> {
        let mut v = vec!["i"];
        for (on, e) in [
            (self.m, "m"),
            (self.a, "a"),
            (self.f, "f"),
            (self.d, "d"),
            (self.c, "c"),
            (self.zicbom, "zicbom"),
            (self.zicbop, "zicbop"),
            (self.zicboz, "zicboz"),
            (self.zicntr, "zicntr"),
            (self.zicond, "zicond"),
            (self.zicsr, "zicsr"),
            (self.zifencei, "zifencei"),
            (self.zihintntl, "zihintntl"),
            (self.zihintpause, "zihintpause"),
            (self.zihpm, "zihpm"),
            (self.zfa, "zfa"),
            (self.zcb, "zcb"),
            (self.zba, "zba"),
            (self.zbb, "zbb"),
            (self.zbs, "zbs"),
        ] {
            if on {
                v.push(e);
            }
        }
        if self.ctr {
            v.extend(["smcsrind", "smctr", "smstateen"]);
        }
        if self.sscofpmf {
            v.push("sscofpmf");
        }
        if self.ctr {
            v.extend(["sscsrind", "ssctr"]);
        }
        for (on, e) in [
            (self.sstc, "sstc"),
            (self.svadu, "svadu"),
            (self.svinval, "svinval"),
            (self.svnapot, "svnapot"),
            (self.svpbmt, "svpbmt"),
        ] {
            if on {
                v.push(e);
            }
        }
        v
    }
}

impl std::fmt::Display for Isa {
    /// The canonical ISA string: `rv64`, the single letters, then the multi-letter
    /// extensions joined by `_`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let exts = self.extensions();
        f.write_str("rv64")?;
        for e in exts.iter().filter(|e| e.len() == 1) {
            f.write_str(e)?;
        }
        for e in exts.iter().filter(|e| e.len() > 1) {
            write!(f, "_{e}")?;
        }
        Ok(())
    }
}

fn single_letter(c: u8) -> bool {
    c.is_ascii_lowercase() && !matches!(c, b'z' | b's' | b'x')
}

/// Skip a version (`2`, `2p0`) at `i`.
fn skip_version(b: &[u8], mut i: usize) -> usize {
    if !b.get(i).is_some_and(u8::is_ascii_digit) {
        return i;
    }
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    if b.get(i) == Some(&b'p') && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
        i += 1;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
    }
    i
}

/// A multi-letter extension's name without its version (`zicsr2p0` -> `zicsr`).
fn strip_version(ext: &str) -> &str {
    let b = ext.as_bytes();
    let mut end = b.len();
    while end > 0 && b[end - 1].is_ascii_digit() {
        end -= 1;
    }
    if end == b.len() {
        return ext;
    }
    // `..2p0`: digits, 'p', digits.
    if end >= 2 && b[end - 1] == b'p' && b[end - 2].is_ascii_digit() {
        let mut e = end - 1;
        while e > 0 && b[e - 1].is_ascii_digit() {
            e -= 1;
        }
        return &ext[..e];
    }
    &ext[..end]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode;

    #[test]
    fn spellings_of_rv64gc() {
        for s in [
            "rv64gc",
            "RV64GC",
            "rv64imafdc",
            "rv64imafdc_zicsr_zifencei",
            "rv64i2p1m2p0a2p1f2p2d2p2c2p0_zicsr2p0_zifencei2p0",
            "rv64i_m_a_f_d_c",
            "rv64g_c",
            "rv64gczicsr_zifencei",
        ] {
            assert_eq!(Isa::parse(s), Ok(Isa::RV64GC), "{s}");
        }
        assert_eq!(Isa::parse(Isa::DEFAULT_STRING), Ok(Isa::DEFAULT));
        assert_eq!(
            Isa::DEFAULT.to_string(),
            "rv64imafdc_zicntr_zicsr_zifencei_zihpm"
        );
        assert_eq!(
            Isa::parse(&Isa::DEFAULT.to_string()),
            Ok(Isa::DEFAULT),
            "the canonical string parses back"
        );
    }

    #[test]
    fn subsets() {
        let i = Isa::parse("rv64i").unwrap();
        assert!(!i.m && !i.a && !i.f && !i.d && !i.c && i.zicsr && i.zifencei && !i.zicntr);
        assert_eq!(i.misa(), 2 << 62 | 1 << 8 | 1 << 18 | 1 << 20);
        let imac = Isa::parse("rv64imac_zicntr").unwrap();
        assert!(imac.m && imac.a && imac.c && !imac.f && !imac.d && imac.zicntr);
        assert_eq!(imac.to_string(), "rv64imac_zicntr_zicsr_zifencei");
        assert_eq!(Isa::RV64GC.misa(), crate::csr::MISA_RV64GC);
        assert_eq!(Isa::parse("rv64if").unwrap().misa() & 1 << 3, 0);
    }

    #[test]
    fn bit_manipulation_and_zicond() {
        let b = Isa::parse("rv64gcb_zicond").unwrap();
        assert!(b.zba && b.zbb && b.zbs && b.zicond);
        assert_eq!(b.misa() & 2, 2, "misa.B with Zba, Zbb and Zbs");
        assert_eq!(Isa::parse("rv64gc_zba_zbb_zbs_zicond"), Ok(b));
        assert_eq!(
            b.to_string(),
            "rv64imafdc_zicond_zicsr_zifencei_zba_zbb_zbs"
        );
        let zbb = Isa::parse("rv64gc_zbb").unwrap();
        assert_eq!(zbb.misa() & 2, 0);
        for (bits, on) in [
            (0x20c5a533u32, zbb.zba), // sh1add a0, a1, a2
            (0x60059513, zbb.zbb),    // clz a0, a1
            (0x48c59533, zbb.zbs),    // bclr a0, a1, a2
            (0x0ec5d533, zbb.zicond), // czero.eqz a0, a1, a2
        ] {
            let d = decode(bits);
            assert_ne!(d.op, Op::Illegal, "{bits:#x}");
            assert_eq!(zbb.filter(d).op != Op::Illegal, on, "{bits:#x}");
            assert_eq!(b.filter(d), d, "{bits:#x}");
        }
    }

    /// Zcb's 16-bit encodings decode to I, M, Zba and Zbb operations: the filter makes them
    /// illegal without Zcb (the encoding space says so), and without the operation's own
    /// extension.
    #[test]
    fn zcb_needs_zcb_and_the_extension_of_its_operation() {
        let all = Isa::parse("rv64gcb_zcb").unwrap();
        let zcb = Isa::parse("rv64gc_zcb").unwrap();
        let no_m = Isa::parse("rv64iac_zbb_zcb").unwrap();
        assert!(zcb.zcb && !Isa::RV64GC.zcb);
        assert_eq!(zcb.to_string(), "rv64imafdc_zicsr_zifencei_zcb");
        assert_eq!(zcb.misa(), Isa::RV64GC.misa(), "no misa bit");
        type On = fn(&Isa) -> bool;
        let cases: [(u32, Op, On); 12] = [
            (0x8188, Op::Lbu, |i| i.zcb),            // c.lbu a0, 1(a1)
            (0x85a8, Op::Lhu, |i| i.zcb),            // c.lhu a0, 2(a1)
            (0x85c8, Op::Lh, |i| i.zcb),             // c.lh a0, 0(a1)
            (0x89f0, Op::Sb, |i| i.zcb),             // c.sb a2, 3(a1)
            (0x8db0, Op::Sh, |i| i.zcb),             // c.sh a2, 2(a1)
            (0x9d61, Op::Andi, |i| i.zcb),           // c.zext.b a0
            (0x9d75, Op::Xori, |i| i.zcb),           // c.not a0
            (0x9d65, Op::SextB, |i| i.zcb && i.zbb), // c.sext.b a0
            (0x9d69, Op::ZextH, |i| i.zcb && i.zbb), // c.zext.h a0
            (0x9d6d, Op::SextH, |i| i.zcb && i.zbb), // c.sext.h a0
            (0x9d71, Op::AddUw, |i| i.zcb && i.zba), // c.zext.w a0
            (0x9d51, Op::Mul, |i| i.zcb && i.m),     // c.mul a0, a2
        ];
        for isa in [Isa::RV64GC, zcb, no_m, all] {
            for (bits, op, on) in cases {
                let d = decode(bits);
                assert_eq!((d.op, d.len), (op, 2), "{bits:#x}");
                let want = if on(&isa) { d } else { Insn::illegal(bits, 2) };
                assert_eq!(isa.filter(d), want, "{isa}: {bits:#x}");
            }
        }
        // c.and next to them is plain C.
        assert_eq!(Isa::RV64GC.filter(decode(0x8d71)).op, Op::And);
        assert_eq!(
            Isa::parse("rv64i_zcb"),
            Err(IsaError::Requires {
                ext: "zcb",
                needs: "c (zca)"
            })
        );
    }

    /// The hints of Zihintpause, Zihintntl and Zicbop are named (the device tree lists them)
    /// but change no instruction: their encodings are FENCE, ADD and ORI hints either way.
    #[test]
    fn hint_extensions_are_named_and_change_nothing() {
        let h = Isa::parse("rv64gc_zihintpause_zihintntl_zicbop").unwrap();
        assert!(h.zihintpause && h.zihintntl && h.zicbop);
        assert_eq!(
            h.to_string(),
            "rv64imafdc_zicbop_zicsr_zifencei_zihintntl_zihintpause"
        );
        assert_eq!(Isa::parse(&h.to_string()), Ok(h));
        assert_eq!(h.misa(), Isa::RV64GC.misa());
        for bits in [0x0100000fu32, 0x00200033, 0x900a, 0x00056013, 0x00356013] {
            let d = decode(bits);
            assert_ne!(d.op, Op::Illegal, "{bits:#x}");
            assert_eq!(Isa::RV64GC.filter(d), d, "{bits:#x}");
            assert_eq!(h.filter(d), d, "{bits:#x}");
        }
    }

    /// cbo.clean/flush/inval need Zicbom, cbo.zero Zicboz; menvcfg/senvcfg keep the CMO
    /// enables of the extensions that are on (CBIE's reserved 10 reads 00).
    #[test]
    fn zicbom_and_zicboz() {
        use crate::exec::cbo::envcfg_write;
        let m = Isa::parse("rv64gc_zicbom").unwrap();
        let z = Isa::parse("rv64gc_zicboz").unwrap();
        let mz = Isa::parse("rv64gc_zicbom_zicboz").unwrap();
        assert_eq!(mz.to_string(), "rv64imafdc_zicbom_zicboz_zicsr_zifencei");
        for (bits, op) in [
            (0x0005200fu32, Op::CboInval),
            (0x0015200f, Op::CboClean),
            (0x0025200f, Op::CboFlush),
            (0x0045200f, Op::CboZero),
        ] {
            let d = decode(bits);
            assert_eq!(d.op, op, "{bits:#x}");
            assert_eq!(Isa::RV64GC.filter(d).op, Op::Illegal, "{bits:#x}");
            assert_eq!(
                m.filter(d).op != Op::Illegal,
                op != Op::CboZero,
                "{bits:#x}"
            );
            assert_eq!(
                z.filter(d).op != Op::Illegal,
                op == Op::CboZero,
                "{bits:#x}"
            );
            assert_eq!(mz.filter(d), d, "{bits:#x}");
        }
        // FIOM is read-only zero, as on Spike.
        assert_eq!(envcfg_write(&Isa::RV64GC, !0), 0);
        assert_eq!(envcfg_write(&m, !0), 0x70);
        assert_eq!(envcfg_write(&z, !0), 0x80);
        assert_eq!(envcfg_write(&mz, 0x20), 0);
        assert_eq!(envcfg_write(&mz, 0x90), 0x90);
    }

    /// A profile name selects its mandatory extensions that hartscope implements; more may
    /// follow; V is refused by name; other profiles are refused.
    #[test]
    fn profiles() {
        let a22 = Isa::parse("rva22u64").unwrap();
        assert_eq!(
            a22.to_string(),
            "rv64imafdc_zicbom_zicbop_zicboz_zicntr_zicsr_zifencei_zihintpause_zihpm_zba_zbb_zbs"
        );
        assert_eq!(Isa::parse(&a22.to_string()), Ok(a22));
        assert_eq!(a22.misa() & 2, 2, "misa.B");
        let a23 = Isa::parse("RVA23U64").unwrap();
        assert!(a23.zcb && a23.zicond && a23.zihintntl && a23.zicbom && a23.zba && a23.zfa);
        assert!(!a22.zcb && !a22.zicond && !a22.zihintntl && !a22.zfa);
        assert_eq!(
            Isa::parse("rva22u64_zicond"),
            Ok(Isa {
                zicond: true,
                ..a22
            })
        );
        assert_eq!(
            Isa::parse("rva23u64_v"),
            Err(IsaError::Unsupported("v".into()))
        );
        assert_eq!(
            Isa::parse("rva20u64"),
            Err(IsaError::Profile("rva20u64".into()))
        );
        assert_eq!(
            Isa::parse("rva23s64_zicond"),
            Err(IsaError::Profile("rva23s64".into()))
        );
        assert!(Isa::parse("rva22u64x").is_err());
        for p in PROFILES {
            assert_eq!(Isa::parse(p.expansion), Isa::parse(p.name), "{}", p.name);
        }
    }

    /// Zfa's single forms need F, its double forms D too; zfa without f is refused.
    #[test]
    fn zfa_needs_f_and_d() {
        let fd = Isa::parse("rv64gc_zfa").unwrap();
        let f = Isa::parse("rv64imafc_zfa").unwrap();
        assert_eq!(fd.to_string(), "rv64imafdc_zicsr_zifencei_zfa");
        for (bits, op) in [
            (0xf0180553u32, Op::FliS),   // fli.s fa0, 1.0
            (0x28c5a553, Op::FminmS),    // fminm.s fa0, fa1, fa2
            (0x40558553, Op::FroundnxS), // froundnx.s fa0, fa1, rne
            (0xa0c5d553, Op::FltqS),     // fltq.s a0, fa1, fa2
            (0xf2180553, Op::FliD),      // fli.d fa0, 1.0
            (0xc2859553, Op::FcvtmodWD), // fcvtmod.w.d a0, fa1, rtz
            (0xa2c5c553, Op::FleqD),     // fleq.d a0, fa1, fa2
        ] {
            let d = decode(bits);
            assert_eq!(d.op, op, "{bits:#x}");
            assert_eq!(fd.filter(d), d, "{bits:#x}");
            assert_eq!(Isa::RV64GC.filter(d).op, Op::Illegal, "{bits:#x}");
            let single = op.facts().ext == Ext::Zfa;
            assert_eq!(f.filter(d).op != Op::Illegal, single, "{bits:#x}");
        }
        // fcvtmod.w.d with another rounding mode than RTZ is no Zfa instruction.
        assert_eq!(decode(0xc2858553).op, Op::Illegal);
        assert_eq!(
            Isa::parse("rv64imac_zfa"),
            Err(IsaError::Requires {
                ext: "zfa",
                needs: "f"
            })
        );
        assert_eq!(crate::fp::fli_text(9), "0.3125");
        assert_eq!(crate::fp::fli_text(22), "3.0");
        assert_eq!(crate::fp::fli_text(2), "1.52587890625e-05");
        assert_eq!(crate::fp::fli_s(1), 0x0080_0000);
        assert_eq!(crate::fp::fli_d(9), 0x3fd4_0000_0000_0000);
    }

    #[test]
    fn refusals_name_the_extension() {
        for (s, e) in [
            ("rv32gc", IsaError::NotRv64),
            ("rv64e", IsaError::Base),
            ("rv64mafd", IsaError::Base),
            ("rv64gcv", IsaError::Unsupported("v".into())),
            ("rv64gq", IsaError::Unsupported("q".into())),
            ("rv64gc_zbc", IsaError::Unsupported("zbc".into())),
            ("rv64imacsu", IsaError::Unsupported("su".into())),
            ("rv64ima_zicsr__zifencei", IsaError::Empty),
            ("rv64gc_", IsaError::Empty),
            (
                "rv64iam",
                IsaError::Order {
                    ext: 'm',
                    after: 'a',
                },
            ),
            (
                "rv64icm",
                IsaError::Order {
                    ext: 'm',
                    after: 'c',
                },
            ),
            ("rv64ig", IsaError::Unsupported("g".into())),
            (
                "rv64id",
                IsaError::Requires {
                    ext: "d",
                    needs: "f",
                },
            ),
            ("rv64gc_zicsr2q0", IsaError::Syntax("zicsr2q0".into())),
        ] {
            assert_eq!(Isa::parse(s), Err(e), "{s}");
        }
        let msg = Isa::parse("rv64gc_smcsrind").unwrap_err().to_string();
        assert!(msg.contains("smcsrind") && msg.contains("smctr"), "{msg}");
    }

    #[test]
    fn privileged_extensions() {
        let i = Isa::parse("rv64gc_zicntr_sstc_svpbmt_svnapot_svadu_svinval").unwrap();
        assert!(i.sstc && i.svpbmt && i.svnapot && i.svadu && i.svinval);
        assert_eq!(
            i.to_string(),
            "rv64imafdc_zicntr_zicsr_zifencei_sstc_svadu_svinval_svnapot_svpbmt"
        );
        assert_eq!(Isa::parse(&i.to_string()), Ok(i));
        assert_eq!(i.menvcfg_mask(), 7 << 61);
        assert_eq!(Isa::DEFAULT.menvcfg_mask(), 0);
        assert_eq!(
            Isa::parse("rv64gc_svpbmt").unwrap().menvcfg_mask(),
            crate::csr::MENVCFG_PBMTE
        );
        assert_eq!(
            Isa::parse("rv64gc_sstc"),
            Err(IsaError::Requires {
                ext: "sstc",
                needs: "zicntr (stimecmp's access follows the time CSR's)"
            })
        );
        // Svinval's instructions decode only with Svinval.
        for bits in [0x16b50073u32, 0x18000073, 0x18100073] {
            let d = decode(bits);
            assert_ne!(d.op, Op::Illegal, "{bits:#x}");
            assert_eq!(i.filter(d), d, "{bits:#x}");
            assert_eq!(Isa::DEFAULT.filter(d).op, Op::Illegal, "{bits:#x}");
        }
    }

    /// Each extension that is off turns its instructions into illegal ones; the others pass.
    #[test]
    fn filter_by_extension() {
        type On = fn(&Isa) -> bool;
        let cases: [(u32, On); 8] = [
            (0x02b50533, |i| i.m),     // mul a0, a0, a1
            (0x100525af, |i| i.a),     // lr.w a1, (a0)
            (0x00052507, |i| i.f),     // flw fa0, 0(a0)
            (0x02b57553, |i| i.d),     // fadd.d fa0, fa0, fa1
            (0x4505, |i| i.c),         // c.li a0, 1
            (0x2108, |i| i.c && i.d),  // c.fld fa0, 0(a0)
            (0x30529073, |i| i.zicsr), // csrw mtvec, t0
            (0x00b50533, |_| true),    // add a0, a0, a1
        ];
        for s in [
            "rv64i",
            "rv64im",
            "rv64ima",
            "rv64imaf",
            "rv64imafd",
            "rv64imac",
            "rv64gc",
        ] {
            let isa = Isa::parse(s).unwrap();
            for (bits, on) in cases {
                let d = decode(bits);
                let f = isa.filter(d);
                if on(&isa) {
                    assert_eq!(f, d, "{s}: {bits:#x}");
                } else {
                    assert_eq!(f, Insn::illegal(d.bits, d.len), "{s}: {bits:#x}");
                }
            }
        }
    }
}
