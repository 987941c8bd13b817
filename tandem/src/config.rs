//! What the writer puts in the stream, and what a partial trace leaves out.
//!
//! The default ([`WriterConfig::flute`]) writes groups the way Bluespec's Piccolo, Flute and
//! Toooba do (see the errata in shared/specs/README.md): `01 | 07 0a <next pc> | 11 <insn> or
//! 10 <insn> | 04 <reg> <value>... | 02`, x0 writes left out, loads with `07 03 <eaddr>`,
//! stores with `07 04..07 <data>` and `07 03 <eaddr>`, traps with the privilege and the trap
//! CSRs, interrupts as groups without an instruction, reset as `01 0a 02`. Everything else is
//! an extra, off by default. [`WriterConfig::spec`] writes the layout of the spec's Appendix C
//! (increment pc, physical addresses, incremental fflags, its order of trap CSRs).
//!
//! A partial trace ([`Partial`], spec section 3.2) leaves chosen elements out; the verifier
//! must be told the same (`--absent`), which the sidecar file does for streams hartscope
//! wrote.

use crate::params::Params;
use serde::{Deserialize, Serialize};

/// Group layout.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Style {
    /// Bluespec Flute/Piccolo: traps as `pc, insn, priv, status, cause, epc, tval`, the
    /// status of a trap into S-mode as sstatus.
    #[default]
    Flute,
    /// The spec's Appendix C: traps as `pc, insn, epc, cause, status, tval, priv`.
    Spec,
    /// Exactly what Flute's encoder (`mkTV_Encode`, commit 35c72be) writes, rule by rule
    /// (docs/tandem.md): an FP operation's group carries fflags and mstatus always, an FP
    /// load's mstatus, a CSR instruction's group only rd and the CSR it names, MRET/SRET the
    /// new privilege and mstatus, a trap's the trap CSRs by the new privilege; and mip, outside
    /// any group, whenever its value changes (before the group of the first instruction or
    /// trap that sees the new value).
    FluteStrict,
}

impl Style {
    /// Flute's group shapes (the trap CSRs' order, sstatus for a trap into S-mode).
    pub fn flute_layout(self) -> bool {
        matches!(self, Style::Flute | Style::FluteStrict)
    }
}

/// How the next pc is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PcMode {
    /// Always the full next pc (additional state 10).
    #[default]
    Full,
    /// Increment pc (opcode 3) when the next pc is the instruction's pc plus its length, the
    /// full next pc otherwise.
    Increment,
}

/// Elements a partial trace leaves out.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Partial {
    /// GPR writes.
    pub gpr: bool,
    /// FPR writes.
    pub fpr: bool,
    /// CSR writes of instructions.
    pub csr: bool,
    /// The trap CSRs (xepc, xcause, xtval, xstatus) of traps.
    pub trap: bool,
    /// The next pc (full or increment).
    pub pc: bool,
    /// Instruction fields.
    pub insn: bool,
    /// Privilege changes.
    #[serde(rename = "priv")]
    pub priv_: bool,
    /// Effective addresses.
    pub eaddr: bool,
    /// Memory store data.
    pub store_data: bool,
    /// These CSRs, wherever they are written.
    pub csrs: Vec<u16>,
}

impl Partial {
    /// Whether anything is left out.
    pub fn any(&self) -> bool {
        self.gpr
            || self.fpr
            || self.csr
            || self.trap
            || self.pc
            || self.insn
            || self.priv_
            || self.eaddr
            || self.store_data
            || !self.csrs.is_empty()
    }

    /// Parse a comma-separated list: `gpr`, `fpr`, `csr`, `trap`, `pc`, `insn`, `priv`,
    /// `eaddr`, `store-data`, `csr:NAME` (a CSR by name or number).
    pub fn parse(s: &str) -> Result<Partial, ListError> {
        let mut p = Partial::default();
        for w in s.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            match w {
                "none" => {}
                "gpr" => p.gpr = true,
                "fpr" => p.fpr = true,
                "csr" => p.csr = true,
                "trap" => p.trap = true,
                "pc" => p.pc = true,
                "insn" => p.insn = true,
                "priv" => p.priv_ = true,
                "eaddr" => p.eaddr = true,
                "store-data" => p.store_data = true,
                _ => match w.strip_prefix("csr:") {
                    Some(name) => p.csrs.push(csr_by_name(name)?),
                    None => return Err(ListError::Element(w.to_string())),
                },
            }
        }
        Ok(p)
    }
}

/// A word of a comma-separated option list (`--tandem-omit`, `--absent`, `--nondet`,
/// `--tandem-extras`) that names nothing: the word, and the words the list takes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ListError {
    /// An element of a [`Partial`] list.
    #[error(
        "unknown element '{0}' (gpr, fpr, csr, trap, pc, insn, priv, eaddr, store-data, \
         csr:NAME)"
    )]
    Element(String),
    /// A CSR name or number ([`csr_by_name`]).
    #[error("unknown CSR '{0}'")]
    Csr(String),
    /// An extra of [`WriterConfig::apply_extras`].
    #[error(
        "unknown extra '{0}' (incr-pc, incremental, implicit-end, eaddr, paddr, store-data, \
         pc-paddr, mtime, mem, image, counters, start-state, all)"
    )]
    Extra(String),
    /// A non-deterministic state of [`crate::verify::Nondet::parse`].
    #[error(
        "unknown non-deterministic state '{0}' (mip, time, mcycle, minstret, hpm, mmio, sc, \
         htif, none, default)"
    )]
    Nondet(String),
}

/// A CSR by name (`mtval`) or number (`0x343`, `835`).
pub fn csr_by_name(name: &str) -> Result<u16, ListError> {
    let n = name.trim();
    let num = if let Some(h) = n.strip_prefix("0x") {
        u16::from_str_radix(h, 16).ok()
    } else {
        n.parse::<u16>().ok()
    };
    if let Some(v) = num.filter(|v| *v < 0x1000) {
        return Ok(v);
    }
    (0..0x1000u16)
        .find(|&c| iss::csr::csr_name(c).is_some_and(|s| s == n))
        .ok_or_else(|| ListError::Csr(n.to_string()))
}

/// Everything the writer can be asked to do.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct WriterConfig {
    pub params: Params,
    pub style: Style,
    pub pc: PcMode,
    /// Incremental register updates where they fit: signed add (opcode 5) for GPR writes
    /// within -128..127 of the old value and for the counters, OR (opcode 6) on fcsr for
    /// newly raised FP exception flags (the spec's own example).
    pub incremental: bool,
    /// Leave out end group before a begin group (the spec allows it).
    pub implicit_end: bool,
    /// Effective address (additional state 3) of loads and stores.
    pub eaddr: bool,
    /// Physical address (additional state 2) of loads and stores.
    pub paddr: bool,
    /// Memory store data (additional state 4-7).
    pub store_data: bool,
    /// Physical address of the next pc (additional state 9), from the fetch of the next
    /// instruction (so not after the last group, nor before an interrupt).
    pub pc_paddr: bool,
    /// mtime (additional state 8) whenever it changed since it was last written.
    pub mtime: bool,
    /// Memory requests and responses (opcodes 8, 9) for data accesses and instruction fetches.
    pub memory: bool,
    /// State-initialisation groups (opcode 11) carrying the loaded program image and the
    /// hart's start state, after the reset group.
    pub image: bool,
    /// minstret and mcycle after every retired instruction.
    pub counters: bool,
    /// A state-initialisation group (opcode 11) after the reset group with the hart's start
    /// state: the pc, the privilege, every GPR that is not 0 (what Spike's boot ROM leaves:
    /// a0 the hart id, a1 the device tree address 0x1020, t0 the entry) and minstret and
    /// mcycle (5, the boot ROM's instructions, which hartscope does not trace). With it a
    /// checker that applies state-initialisation groups starts where hartscope starts. On by
    /// default; `-start-state` leaves it out (the streams of hartscope before it).
    pub start_state: bool,
    /// Elements left out (partial trace).
    pub omit: Partial,
}

impl Default for WriterConfig {
    fn default() -> Self {
        WriterConfig::flute()
    }
}

impl WriterConfig {
    /// What Bluespec Flute/Piccolo write.
    pub fn flute() -> Self {
        WriterConfig {
            params: Params::RV64GC,
            style: Style::Flute,
            pc: PcMode::Full,
            incremental: false,
            implicit_end: false,
            eaddr: true,
            paddr: false,
            store_data: true,
            pc_paddr: false,
            mtime: false,
            memory: false,
            image: false,
            counters: false,
            start_state: true,
            omit: Partial::default(),
        }
    }

    /// Exactly what Flute's encoder writes ([`Style::FluteStrict`]).
    pub fn flute_strict() -> Self {
        WriterConfig {
            style: Style::FluteStrict,
            ..WriterConfig::flute()
        }
    }

    /// The layout of the spec's Appendix C.
    pub fn spec() -> Self {
        WriterConfig {
            style: Style::Spec,
            pc: PcMode::Increment,
            incremental: true,
            eaddr: false,
            paddr: true,
            ..WriterConfig::flute()
        }
    }

    /// Every extra on.
    pub fn everything() -> Self {
        WriterConfig {
            pc: PcMode::Increment,
            incremental: true,
            implicit_end: true,
            paddr: true,
            pc_paddr: true,
            mtime: true,
            memory: true,
            image: true,
            counters: true,
            ..WriterConfig::flute()
        }
    }

    /// Switch extras on (`+name`, or a bare name) or off (`-name`) from a comma-separated
    /// list: `incr-pc`, `incremental`, `implicit-end`, `eaddr`, `paddr`, `store-data`,
    /// `pc-paddr`, `mtime`, `mem`, `image`, `counters`, `start-state`, `all`.
    pub fn apply_extras(&mut self, s: &str) -> Result<(), ListError> {
        for w in s.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            let (on, name) = match w.strip_prefix('-') {
                Some(n) => (false, n),
                None => (true, w.strip_prefix('+').unwrap_or(w)),
            };
            match name {
                "incr-pc" => self.pc = if on { PcMode::Increment } else { PcMode::Full },
                "incremental" => self.incremental = on,
                "implicit-end" => self.implicit_end = on,
                "eaddr" => self.eaddr = on,
                "paddr" => self.paddr = on,
                "store-data" => self.store_data = on,
                "pc-paddr" => self.pc_paddr = on,
                "mtime" => self.mtime = on,
                "mem" => self.memory = on,
                "image" => self.image = on,
                "counters" => self.counters = on,
                "start-state" => self.start_state = on,
                "all" => {
                    let keep = (self.params, self.style, self.omit.clone());
                    *self = if on {
                        WriterConfig::everything()
                    } else {
                        WriterConfig::flute()
                    };
                    (self.params, self.style, self.omit) = keep;
                }
                _ => return Err(ListError::Extra(name.to_string())),
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A word a list does not take is a typed error carrying the word; the message names the
    /// words the list takes.
    #[test]
    fn list_errors_carry_the_word() {
        assert_eq!(
            Partial::parse("gpr, bogus"),
            Err(ListError::Element("bogus".into()))
        );
        assert_eq!(
            Partial::parse("csr: nosuch"),
            Err(ListError::Csr("nosuch".into()))
        );
        assert_eq!(csr_by_name("0x1000"), Err(ListError::Csr("0x1000".into())));
        let mut c = WriterConfig::flute();
        let e = c.apply_extras("+mem,-wobble").unwrap_err();
        assert_eq!(e, ListError::Extra("wobble".into()));
        assert!(
            e.to_string()
                .starts_with("unknown extra 'wobble' (incr-pc, "),
            "{e}"
        );
        let e = crate::verify::Nondet::parse("mip,+sideways").unwrap_err();
        assert_eq!(e, ListError::Nondet("sideways".into()));
        assert_eq!(
            e.to_string(),
            "unknown non-deterministic state 'sideways' (mip, time, mcycle, minstret, hpm, mmio, \
             sc, htif, none, default)"
        );
    }

    #[test]
    fn lists() {
        let p = Partial::parse("gpr, csr:mtval,csr:0x341,store-data").unwrap();
        assert!(p.gpr && p.store_data && !p.fpr);
        assert_eq!(p.csrs, vec![0x343, 0x341]);
        assert!(Partial::parse("bogus").is_err());
        assert!(Partial::parse("csr:nosuch").is_err());
        let mut c = WriterConfig::flute();
        c.apply_extras("incr-pc,mem,-eaddr").unwrap();
        assert_eq!(c.pc, PcMode::Increment);
        assert!(c.memory && !c.eaddr);
        assert!(c.apply_extras("nope").is_err());
    }
}
