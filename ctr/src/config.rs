//! Implementation options: which layout, which depths, which optional fields.
//!
//! The spec leaves most of CTR optional (0.1.4 section 2.1: "M, CLR, and DEPTH are required
//! fields ... All other fields are optional"; 1.0: "All fields are optional except for M, S, U,
//! and BPFRZ"). [`CtrConfig`] names each option; the default implements everything the spec
//! defines except MISP, which needs a branch-predictor model.

use crate::bits::FILTERS_ALL;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Which CTR specification the CSR file follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Layout {
    /// Draft v0.1.4 (2023-09-15): `mctrcontrol`/`sctrcontrol`/`mctrstatus`, DEPTH and CLR in the
    /// control register, ETEN, entries through `miselect` and `siselect`.
    #[default]
    #[serde(rename = "0.1.4")]
    Draft014,
    /// Ratified 1.0: `mctrctl`/`sctrctl`/`sctrstatus`/`sctrdepth`, SCTRCLR, entries through
    /// `siselect` only, external traps gated by the xTE of every mode crossed.
    #[serde(rename = "1.0")]
    Ratified10,
}

impl Layout {
    /// The option spelling (`0.1.4` or `1.0`).
    pub fn name(self) -> &'static str {
        match self {
            Layout::Draft014 => "0.1.4",
            Layout::Ratified10 => "1.0",
        }
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Layout {
    type Err = ConfigError;
    /// Accepts `0.1.4` (or `draft`) and `1.0` (or `ratified`).
    fn from_str(s: &str) -> Result<Layout, ConfigError> {
        match s {
            "0.1.4" | "draft" => Ok(Layout::Draft014),
            "1.0" | "ratified" => Ok(Layout::Ratified10),
            _ => Err(ConfigError::UnknownLayout(s.to_string())),
        }
    }
}

/// A bad [`CtrConfig`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// `supported_depths` must name at least one of 16..256 and the supported depths must be
    /// consecutive (0.1.4 section 2.1: "supported values must be consecutive"; 1.0 discovery
    /// relies on the same).
    #[error("CTR supported depths {0:#07b}: need a non-empty run of consecutive depths among 16, 32, 64, 128, 256 (bit 0 = 16 ... bit 4 = 256)")]
    Depths(u8),
    /// CCE has 0..4 implemented bits (0.1.4 section 5.3, 1.0 "Cycle Counting").
    #[error("CTR cycle-count exponent bits {0}: must be 0..=4")]
    CceBits(u8),
    /// Only bits 63:60 are custom.
    #[error("CTR custom bits {0:#x}: must be a mask of the 4 custom bits 63:60 (0..=0xf)")]
    Custom(u8),
    /// Not `0.1.4` or `1.0`.
    #[error("unknown CTR layout {0:?}: expected 0.1.4 or 1.0")]
    UnknownLayout(String),
}

/// How a CTR implementation is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CtrConfig {
    /// The register layout.
    pub layout: Layout,
    /// Supported depths: bit 0 = 16, bit 1 = 32, bit 2 = 64, bit 3 = 128, bit 4 = 256. Must be
    /// a consecutive run. Default: all five.
    pub supported_depths: u8,
    /// Implemented transfer-type filter bits, as a mask over control-register bits 47:32 (bit
    /// `i` = control bit `32 + i`). Only the standard positions ([`FILTERS_ALL`]) count.
    /// Default: all.
    pub filter_bits: u16,
    /// RASEMU implemented.
    pub rasemu: bool,
    /// External-trap recording implemented: MTE and STE (and ETEN in 0.1.4), which the specs
    /// require together.
    pub external_traps: bool,
    /// BPFRZ implemented (always implemented in 1.0, where it is required).
    pub bpfrz: bool,
    /// LCOFIFRZ implemented (1.0 requires it when Sscofpmf is implemented).
    pub lcofifrz: bool,
    /// Cycle counting (CCV and CC) implemented.
    pub cycle_counting: bool,
    /// Implemented CCE bits, 0..=4 (only meaningful with `cycle_counting`).
    pub cce_bits: u8,
    /// MISP implemented: only when the hart has a branch-predictor model that can report
    /// mispredictions; otherwise `ctrtarget`.MISP is read-only 0.
    pub misp: bool,
    /// Writable custom bits of the control register, as a mask over bits 63:60 (bit `i` =
    /// control bit `60 + i`). This model defines no custom behaviour: the bits are storage
    /// only, so behaviour is standard whatever they hold. Default: 0 (read-only 0).
    pub custom_bits: u8,
}

impl Default for CtrConfig {
    fn default() -> CtrConfig {
        CtrConfig {
            layout: Layout::Draft014,
            supported_depths: 0b1_1111,
            filter_bits: FILTERS_ALL,
            rasemu: true,
            external_traps: true,
            bpfrz: true,
            lcofifrz: true,
            cycle_counting: true,
            cce_bits: 4,
            misp: false,
            custom_bits: 0,
        }
    }
}

impl CtrConfig {
    /// The default configuration with a given layout.
    pub fn with_layout(layout: Layout) -> CtrConfig {
        CtrConfig {
            layout,
            ..CtrConfig::default()
        }
    }

    /// Check the options.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let d = self.supported_depths;
        if d == 0 || d > 0b1_1111 {
            return Err(ConfigError::Depths(d));
        }
        // A consecutive run: shifting out the trailing zeros leaves 2^k - 1.
        let run = d >> d.trailing_zeros();
        if run & (run + 1) != 0 {
            return Err(ConfigError::Depths(d));
        }
        if self.cce_bits > 4 {
            return Err(ConfigError::CceBits(self.cce_bits));
        }
        if self.custom_bits > 0xF {
            return Err(ConfigError::Custom(self.custom_bits));
        }
        Ok(())
    }

    /// log2(min supported depth / 16).
    pub(crate) fn min_depth_log(&self) -> u8 {
        self.supported_depths.trailing_zeros() as u8
    }

    /// log2(max supported depth / 16).
    pub(crate) fn max_depth_log(&self) -> u8 {
        7 - self.supported_depths.leading_zeros() as u8
    }

    /// The largest supported depth: the number of physical entries.
    pub fn max_depth(&self) -> usize {
        16 << self.max_depth_log()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_masks() {
        for ok in [0b1, 0b11, 0b110, 0b11100, 0b11111, 0b10000] {
            let c = CtrConfig {
                supported_depths: ok,
                ..CtrConfig::default()
            };
            assert_eq!(c.validate(), Ok(()), "{ok:#b}");
        }
        for bad in [0, 0b101, 0b10001, 0b100000, 0xFF] {
            let c = CtrConfig {
                supported_depths: bad,
                ..CtrConfig::default()
            };
            assert_eq!(c.validate(), Err(ConfigError::Depths(bad)), "{bad:#b}");
        }
        let c = CtrConfig {
            supported_depths: 0b01110,
            ..CtrConfig::default()
        };
        assert_eq!((c.min_depth_log(), c.max_depth_log()), (1, 3));
        assert_eq!(c.max_depth(), 128);
    }

    #[test]
    fn layout_names() {
        assert_eq!("0.1.4".parse::<Layout>(), Ok(Layout::Draft014));
        assert_eq!("1.0".parse::<Layout>(), Ok(Layout::Ratified10));
        assert!("1.1".parse::<Layout>().is_err());
        assert_eq!(Layout::Ratified10.to_string(), "1.0");
    }
}
