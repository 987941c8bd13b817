//! PMU options: how many hpm counters exist and how wide they are, which models run, and the
//! cycle cost model's penalties. Models that are not configured cost nothing and their events
//! are not supported (an mhpmevent write selecting one reads back as "no event"; the SBI
//! answers NOT_SUPPORTED).

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A bad PMU option.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ConfigError {
    #[error("hpm counters: {0} is more than 29")]
    TooManyCounters(u8),
    #[error("hpm counter width: {0} bits is not in 1..=64")]
    BadWidth(u8),
    #[error("{what}: {field} = {value} must be a power of two")]
    NotPowerOfTwo {
        what: &'static str,
        field: &'static str,
        value: u64,
    },
    #[error("{0}")]
    Geometry(String),
}

/// The most lines a cache model has (16 Mi: a 1 GiB cache of 64-byte lines).
pub const MAX_CACHE_LINES: u64 = 1 << 24;
/// The most entries a TLB model has.
pub const MAX_TLB_ENTRIES: u32 = 1 << 16;
/// The most BTB entries the branch predictor has.
pub const MAX_BTB_ENTRIES: u32 = 1 << 20;

/// The geometry of a set-associative cache (LRU replacement, physically indexed and tagged,
/// write-back with write-allocate).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CacheGeometry {
    /// Total size in bytes.
    pub size: u64,
    /// Associativity.
    pub ways: u32,
    /// Line size in bytes.
    pub line: u32,
}

impl CacheGeometry {
    pub fn sets(&self) -> u64 {
        self.size / (self.ways as u64 * self.line as u64)
    }

    fn validate(&self, what: &'static str) -> Result<(), ConfigError> {
        for (field, value) in [
            ("size", self.size),
            ("ways", self.ways as u64),
            ("line", self.line as u64),
        ] {
            if value == 0 || !value.is_power_of_two() {
                return Err(ConfigError::NotPowerOfTwo { what, field, value });
            }
        }
        if self.line < 4 || self.ways as u64 * self.line as u64 > self.size {
            return Err(ConfigError::Geometry(format!(
                "{what}: {} bytes cannot hold {} ways of {}-byte lines",
                self.size, self.ways, self.line
            )));
        }
        // The model keeps a tag per line: a size from a settings file must not be an
        // allocation the host refuses (which aborts).
        if self.size / self.line as u64 > MAX_CACHE_LINES {
            return Err(ConfigError::Geometry(format!(
                "{what}: {} bytes of {}-byte lines is more than {MAX_CACHE_LINES} lines",
                self.size, self.line
            )));
        }
        Ok(())
    }
}

/// The cache models: L1 instruction and data caches and an optional last-level cache that
/// both L1s miss into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CacheConfig {
    pub l1i: CacheGeometry,
    pub l1d: CacheGeometry,
    #[serde(default)]
    pub ll: Option<CacheGeometry>,
}

impl Default for CacheConfig {
    /// 32 KiB 4-way L1s with 64-byte lines, 1 MiB 16-way last-level cache.
    fn default() -> Self {
        let l1 = CacheGeometry {
            size: 32 << 10,
            ways: 4,
            line: 64,
        };
        CacheConfig {
            l1i: l1,
            l1d: l1,
            ll: Some(CacheGeometry {
                size: 1 << 20,
                ways: 16,
                line: 64,
            }),
        }
    }
}

/// The geometry of a set-associative TLB of 4 KiB pages (LRU, ASID-tagged).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TlbGeometry {
    pub entries: u32,
    pub ways: u32,
}

impl TlbGeometry {
    fn validate(&self, what: &'static str) -> Result<(), ConfigError> {
        for (field, value) in [("entries", self.entries), ("ways", self.ways)] {
            if value == 0 || !value.is_power_of_two() {
                return Err(ConfigError::NotPowerOfTwo {
                    what,
                    field,
                    value: value as u64,
                });
            }
        }
        if self.ways > self.entries {
            return Err(ConfigError::Geometry(format!(
                "{what}: {} ways in {} entries",
                self.ways, self.entries
            )));
        }
        if self.entries > MAX_TLB_ENTRIES {
            return Err(ConfigError::Geometry(format!(
                "{what}: {} entries is more than {MAX_TLB_ENTRIES}",
                self.entries
            )));
        }
        Ok(())
    }
}

/// The architectural TLB models (independent of the simulator's own translation cache).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TlbConfig {
    pub itlb: TlbGeometry,
    pub dtlb: TlbGeometry,
}

impl Default for TlbConfig {
    /// 32-entry fully associative ITLB and DTLB.
    fn default() -> Self {
        let g = TlbGeometry {
            entries: 32,
            ways: 32,
        };
        TlbConfig { itlb: g, dtlb: g }
    }
}

/// The branch predictor: gshare (bimodal with `history_bits` = 0) over 2-bit counters for
/// conditional branches, a direct-mapped BTB for indirect jumps and calls, a return address
/// stack for returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BpConfig {
    /// log2 of the number of 2-bit counters.
    pub table_bits: u32,
    /// Bits of global history XORed into the index (0: bimodal).
    pub history_bits: u32,
    /// BTB entries (a power of two).
    pub btb_entries: u32,
    /// Return address stack depth.
    pub ras_depth: u32,
}

impl Default for BpConfig {
    /// 4096-entry gshare with 12 bits of history, 512-entry BTB, 16-entry RAS.
    fn default() -> Self {
        BpConfig {
            table_bits: 12,
            history_bits: 12,
            btb_entries: 512,
            ras_depth: 16,
        }
    }
}

impl BpConfig {
    fn validate(&self) -> Result<(), ConfigError> {
        if self.table_bits == 0 || self.table_bits > 24 || self.history_bits > self.table_bits {
            return Err(ConfigError::Geometry(format!(
                "branch predictor: table_bits {} must be 1..=24 and history_bits {} at most that",
                self.table_bits, self.history_bits
            )));
        }
        if self.btb_entries == 0 || !self.btb_entries.is_power_of_two() {
            return Err(ConfigError::NotPowerOfTwo {
                what: "branch predictor",
                field: "btb_entries",
                value: self.btb_entries as u64,
            });
        }
        if self.btb_entries > MAX_BTB_ENTRIES {
            return Err(ConfigError::Geometry(format!(
                "branch predictor: btb_entries {} is more than {MAX_BTB_ENTRIES}",
                self.btb_entries
            )));
        }
        if self.ras_depth == 0 || self.ras_depth > 1024 {
            return Err(ConfigError::Geometry(format!(
                "branch predictor: ras_depth {} must be 1..=1024",
                self.ras_depth
            )));
        }
        Ok(())
    }
}

/// The cycle cost model: one cycle per instruction retired, plus these penalties.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Penalties {
    /// Every L1I or L1D miss (the line comes from the last-level cache).
    pub l1_miss: u64,
    /// Added for every last-level miss, and for every L1 miss when there is no last-level
    /// cache (the line comes from memory).
    pub ll_miss: u64,
    /// Every ITLB or DTLB miss (the page-table walk).
    pub tlb_miss: u64,
    /// Every mispredicted branch or jump.
    pub mispredict: u64,
}

impl Default for Penalties {
    fn default() -> Self {
        Penalties {
            l1_miss: 12,
            ll_miss: 100,
            tlb_miss: 30,
            mispredict: 5,
        }
    }
}

/// Everything the PMU can be configured with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PmuConfig {
    /// Implemented hpm counters, mhpmcounter3 .. mhpmcounter(3 + n - 1); 0..=29.
    pub hpm_counters: u8,
    /// Bits in each hpm counter, 1..=64 (mcycle and minstret are always 64 bits).
    pub hpm_width: u8,
    pub caches: Option<CacheConfig>,
    pub tlb: Option<TlbConfig>,
    pub bp: Option<BpConfig>,
    pub penalties: Penalties,
    /// SBI calls kept one by one for the report (the rest are only counted).
    pub sbi_log_limit: usize,
    /// Whether the SBI offers snapshot memory (`snapshot_set_shmem`); false answers
    /// NOT_SUPPORTED, as OpenSBI does.
    pub sbi_snapshot: bool,
}

impl Default for PmuConfig {
    /// 29 hpm counters of 64 bits, every model off.
    fn default() -> Self {
        PmuConfig {
            hpm_counters: 29,
            hpm_width: 64,
            caches: None,
            tlb: None,
            bp: None,
            penalties: Penalties::default(),
            sbi_log_limit: 4096,
            sbi_snapshot: true,
        }
    }
}

impl PmuConfig {
    /// Every model on, with its default geometry.
    pub fn with_all_models(mut self) -> Self {
        self.caches = Some(CacheConfig::default());
        self.tlb = Some(TlbConfig::default());
        self.bp = Some(BpConfig::default());
        self
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.hpm_counters > 29 {
            return Err(ConfigError::TooManyCounters(self.hpm_counters));
        }
        if self.hpm_width == 0 || self.hpm_width > 64 {
            return Err(ConfigError::BadWidth(self.hpm_width));
        }
        if let Some(c) = &self.caches {
            c.l1i.validate("l1i")?;
            c.l1d.validate("l1d")?;
            if let Some(ll) = &c.ll {
                ll.validate("ll")?;
            }
        }
        if let Some(t) = &self.tlb {
            t.itlb.validate("itlb")?;
            t.dtlb.validate("dtlb")?;
        }
        if let Some(b) = &self.bp {
            b.validate()?;
        }
        Ok(())
    }

    /// Whether any model runs (the stall-cycle events exist only then).
    pub fn any_model(&self) -> bool {
        self.caches.is_some() || self.tlb.is_some() || self.bp.is_some()
    }

    /// The value mask of an hpm counter.
    pub fn hpm_mask(&self) -> u64 {
        if self.hpm_width >= 64 {
            u64::MAX
        } else {
            (1u64 << self.hpm_width) - 1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_validate() {
        PmuConfig::default().validate().unwrap();
        PmuConfig::default().with_all_models().validate().unwrap();
    }

    #[test]
    fn bad_options() {
        let c = PmuConfig {
            hpm_counters: 30,
            ..PmuConfig::default()
        };
        assert_eq!(c.validate(), Err(ConfigError::TooManyCounters(30)));
        let c = PmuConfig {
            hpm_width: 0,
            ..PmuConfig::default()
        };
        assert_eq!(c.validate(), Err(ConfigError::BadWidth(0)));
        let mut c = PmuConfig::default().with_all_models();
        c.caches.as_mut().unwrap().l1d.ways = 3;
        assert!(matches!(
            c.validate(),
            Err(ConfigError::NotPowerOfTwo { field: "ways", .. })
        ));
        let mut c = PmuConfig::default().with_all_models();
        c.caches.as_mut().unwrap().l1d.size = 128;
        assert!(matches!(c.validate(), Err(ConfigError::Geometry(_))));
    }

    /// Sizes from a settings file (the tandem sidecar's `hart.machine.pmu`, `--pmu-config`)
    /// became allocations: a 2^62-byte cache aborted the process. Each model has a ceiling.
    #[test]
    fn model_sizes_have_a_ceiling() {
        let mut c = PmuConfig::default().with_all_models();
        c.caches.as_mut().unwrap().l1d.size = 1 << 62;
        let e = c.validate().unwrap_err().to_string();
        assert!(
            e.contains("l1d") && e.contains("more than 16777216 lines"),
            "{e}"
        );
        c.caches.as_mut().unwrap().l1d.size = 1 << 30;
        c.validate().unwrap();
        let mut c = PmuConfig::default().with_all_models();
        c.tlb.as_mut().unwrap().dtlb.entries = 1 << 31;
        let e = c.validate().unwrap_err().to_string();
        assert!(e.contains("dtlb") && e.contains("more than 65536"), "{e}");
        let mut c = PmuConfig::default().with_all_models();
        c.bp.as_mut().unwrap().btb_entries = 1 << 31;
        let e = c.validate().unwrap_err().to_string();
        assert!(
            e.contains("btb_entries") && e.contains("more than 1048576"),
            "{e}"
        );
    }
}
