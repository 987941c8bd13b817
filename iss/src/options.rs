//! The hart's options as `hartscope run` takes them (`--isa`, `--sbi`, `--hpm-counters`,
//! `--hpm-width`, `--pmu-models`, `--ctr`, and the settings files' contents), turned into a
//! [`Config`]. One mapping serves the command line and the tests that build a machine the way
//! the command line would (a guest program's `hartscope-options:` line).

use crate::isa::IsaError;
use crate::machine::PmpError;
use crate::{Config, Isa};

/// Hart options that cannot be applied: each names the option and the value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionsError {
    /// `--isa`: a string [`Isa::parse`] refuses.
    #[error("--isa {isa}: {err}")]
    Isa { isa: String, err: IsaError },
    /// An option given without its value.
    #[error("{0} needs a value")]
    NoValue(String),
    /// `--harts` out of range.
    #[error("--harts {0}: from 1 to {max}", max = crate::bus::MAX_HARTS)]
    Harts(usize),
    /// `--sbi` other than `none` or `builtin`.
    #[error("--sbi {0}: none or builtin")]
    Sbi(String),
    /// A number option whose value is not a number of its type.
    #[error("{option} {value}")]
    NotANumber { option: &'static str, value: String },
    /// Not one of the options [`HartOptions::from_args`] takes.
    #[error("{0}: not a hart option")]
    Unknown(String),
    #[error("--hpm-counters {0}: at most 29 hpm counters (mhpmcounter3..31)")]
    HpmCounters(u8),
    #[error("--hpm-width {0}: the counter width must be in 1..=64 bits")]
    HpmWidth(u8),
    #[error("--pmu-models: unknown model '{0}' (caches, tlb, bp, all)")]
    PmuModel(String),
    #[error("PMU settings: {0}")]
    Pmu(pmu::ConfigError),
    #[error("--ctr {layout}: {err}")]
    CtrLayout {
        layout: String,
        err: ctr::ConfigError,
    },
    #[error("CTR settings: {0}")]
    Ctr(ctr::ConfigError),
    /// `--pmpregions` or `--pmpgranularity` (the option the error is about).
    #[error("{flag}: {0}", flag = pmp_option(.0))]
    Pmp(PmpError),
    #[error("--tval-zero: {0}")]
    TvalZero(NotAnException),
}

/// Parse an ISA string ([`crate::isa`]) for `--isa`: the error names the string.
pub fn parse_isa(isa: &str) -> Result<Isa, OptionsError> {
    Isa::parse(isa).map_err(|err| OptionsError::Isa {
        isa: isa.to_string(),
        err,
    })
}

/// The hart's options (see `hartscope run --help`).
#[derive(Clone, Debug)]
pub struct HartOptions {
    /// `--isa`; default rv64imafdc_zicntr_zihpm (Spike's default), with `_sscofpmf` with the
    /// built-in SBI.
    pub isa: Option<String>,
    /// `--sbi builtin`.
    pub sbi: bool,
    /// `--hpm-counters`; default 29 with Sscofpmf or the SBI, else 0 (as on Spike).
    pub hpm_counters: Option<u8>,
    /// `--hpm-width`.
    pub hpm_width: u8,
    /// `--pmu-models`: caches, tlb, bp, all, none (comma-separated).
    pub pmu_models: Option<String>,
    /// `--pmu-config`: full PMU settings, in place of the defaults.
    pub pmu: Option<pmu::PmuConfig>,
    /// `--ctr`: the CTR layout (0.1.4 or 1.0).
    pub ctr_layout: Option<String>,
    /// `--ctr-config`: full CTR settings, in place of the defaults.
    pub ctr: Option<ctr::CtrConfig>,
    /// `--pmpregions`: PMP entries, 0..=64 (default 16, as Spike's).
    pub pmp_regions: Option<u8>,
    /// `--pmpgranularity`: PMP granularity in bytes (default 4).
    pub pmp_granularity: Option<u64>,
    /// `--tval-zero`: exceptions whose xtval is written 0 (comma-separated names or codes).
    pub tval_zero: Option<String>,
    /// `--harts`: 1..=[`crate::bus::MAX_HARTS`] (default 1).
    pub harts: Option<usize>,
    /// Not `--no-jit`: hot blocks run as compiled code ([`Config::jit`]; default on).
    pub jit: bool,
}

impl Default for HartOptions {
    fn default() -> Self {
        HartOptions {
            isa: None,
            sbi: false,
            hpm_counters: None,
            hpm_width: 64,
            pmu_models: None,
            pmu: None,
            ctr_layout: None,
            ctr: None,
            pmp_regions: None,
            pmp_granularity: None,
            tval_zero: None,
            harts: None,
            jit: true,
        }
    }
}

impl HartOptions {
    /// The options among `args` (command-line words: `--isa rv64gc_smctr --ctr 1.0`). Only
    /// the options above that take no file; anything else is an error.
    pub fn from_args<S: AsRef<str>>(args: &[S]) -> Result<HartOptions, OptionsError> {
        let mut o = HartOptions::default();
        let mut it = args.iter().map(AsRef::as_ref);
        while let Some(a) = it.next() {
            let (name, inline) = match a.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (a, None),
            };
            let mut value = || {
                inline
                    .or_else(|| it.next())
                    .map(str::to_string)
                    .ok_or_else(|| OptionsError::NoValue(name.to_string()))
            };
            match name {
                "--isa" => o.isa = Some(value()?),
                "--sbi" => {
                    o.sbi = match value()?.as_str() {
                        "builtin" => true,
                        "none" => false,
                        v => return Err(OptionsError::Sbi(v.to_string())),
                    }
                }
                "--hpm-counters" => {
                    o.hpm_counters = Some(number("--hpm-counters", value()?)?);
                }
                "--hpm-width" => {
                    o.hpm_width = number("--hpm-width", value()?)?;
                }
                "--pmu-models" => o.pmu_models = Some(value()?),
                "--ctr" => o.ctr_layout = Some(value()?),
                "--pmpregions" => {
                    o.pmp_regions = Some(number("--pmpregions", value()?)?);
                }
                "--pmpgranularity" => {
                    o.pmp_granularity = Some(number("--pmpgranularity", value()?)?);
                }
                "--tval-zero" => o.tval_zero = Some(value()?),
                "--harts" => o.harts = Some(number("--harts", value()?)?),
                "--no-jit" if inline.is_none() => o.jit = false,
                other => return Err(OptionsError::Unknown(other.to_string())),
            }
        }
        Ok(o)
    }

    /// The machine configuration these options describe, on top of `base`.
    pub fn config(&self, base: Config) -> Result<Config, OptionsError> {
        let isa = match &self.isa {
            Some(s) => parse_isa(s)?,
            None => Isa {
                sscofpmf: self.sbi,
                ..Isa::DEFAULT
            },
        };
        let mut c = base;
        c.isa = isa;
        c.sscofpmf = isa.sscofpmf;
        c.sbi = self.sbi;
        match &self.pmu {
            Some(p) => c.pmu = p.clone(),
            None => c.pmu.hpm_counters = if isa.sscofpmf || self.sbi { 29 } else { 0 },
        }
        if let Some(n) = self.hpm_counters {
            if n > 29 {
                return Err(OptionsError::HpmCounters(n));
            }
            c.pmu.hpm_counters = n;
        }
        if !(1..=64).contains(&self.hpm_width) {
            return Err(OptionsError::HpmWidth(self.hpm_width));
        }
        c.pmu.hpm_width = self.hpm_width;
        if let Some(list) = &self.pmu_models {
            for m in list.split(',').map(str::trim) {
                match m {
                    "caches" => c.pmu.caches = Some(Default::default()),
                    "tlb" => c.pmu.tlb = Some(Default::default()),
                    "bp" => c.pmu.bp = Some(Default::default()),
                    "all" => c.pmu = c.pmu.clone().with_all_models(),
                    "none" => {
                        c.pmu.caches = None;
                        c.pmu.tlb = None;
                        c.pmu.bp = None;
                    }
                    other => return Err(OptionsError::PmuModel(other.to_string())),
                }
            }
        }
        c.pmu.validate().map_err(OptionsError::Pmu)?;
        if isa.ctr || self.ctr_layout.is_some() || self.ctr.is_some() {
            let mut cc = self.ctr.unwrap_or_default();
            if let Some(l) = &self.ctr_layout {
                cc.layout = l.parse().map_err(|err| OptionsError::CtrLayout {
                    layout: l.clone(),
                    err,
                })?;
            }
            // Mispredictions exist only with a branch predictor to make them.
            cc.misp = c.pmu.bp.is_some();
            cc.validate().map_err(OptionsError::Ctr)?;
            c.ctr = Some(cc);
        }
        if let Some(n) = self.pmp_regions {
            c.pmp_regions = n;
        }
        if let Some(g) = self.pmp_granularity {
            c.pmp_granularity = g;
        }
        c.check_pmp().map_err(OptionsError::Pmp)?;
        if let Some(n) = self.harts {
            if !(1..=crate::bus::MAX_HARTS).contains(&n) {
                return Err(OptionsError::Harts(n));
            }
            c.harts = n;
        }
        if let Some(list) = &self.tval_zero {
            c.tval_zero = parse_exceptions(list).map_err(OptionsError::TvalZero)?;
        }
        c.jit = self.jit;
        Ok(c)
    }
}

/// The option a PMP error is about.
fn pmp_option(e: &PmpError) -> &'static str {
    match e {
        PmpError::Entries(_) => "--pmpregions",
        PmpError::Granularity(_) => "--pmpgranularity",
    }
}

/// A number option's value.
fn number<T: std::str::FromStr>(option: &'static str, value: String) -> Result<T, OptionsError> {
    value
        .parse()
        .map_err(|_| OptionsError::NotANumber { option, value })
}

/// An item of an exception list ([`parse_exceptions`]) that names no exception.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{item}' is not an exception (a code, or one of: {})", exception_names().join(", "))]
pub struct NotAnException {
    /// The item, trimmed.
    pub item: String,
}

/// Every exception's name as a list takes it (lower case, dashes).
fn exception_names() -> Vec<String> {
    (0..64)
        .filter_map(arch::Exception::from_code)
        .map(|e| normalized_exception(e.name()))
        .collect()
}

/// An exception name as [`parse_exceptions`] compares it.
fn normalized_exception(s: &str) -> String {
    s.trim()
        .to_ascii_lowercase()
        .replace([' ', '/', '_'], "-")
        .replace("-amo-", "-")
}

/// A set of exceptions as a mask by exception code, from a comma-separated list of their
/// codes (`2`) or names as the privileged spec's table 3.6 gives them, in any case, with
/// spaces and slashes as dashes (`illegal-instruction`, `breakpoint`,
/// `store/amo-access-fault` or `store-access-fault`); `all` for every exception, `none` for
/// none.
pub fn parse_exceptions(list: &str) -> Result<u64, NotAnException> {
    use arch::Exception;
    let norm = normalized_exception;
    let all: Vec<Exception> = (0..64).filter_map(Exception::from_code).collect();
    let mut mask = 0u64;
    for item in list.split(',').filter(|s| !s.trim().is_empty()) {
        let want = norm(item);
        match want.as_str() {
            "all" => mask |= all.iter().fold(0, |m, e| m | 1 << e.code()),
            "none" => {}
            w => {
                let e = match w.parse::<u64>() {
                    Ok(code) => Exception::from_code(code),
                    Err(_) => all.iter().copied().find(|e| norm(e.name()) == w),
                };
                let Some(e) = e else {
                    return Err(NotAnException {
                        item: item.trim().to_string(),
                    });
                };
                mask |= 1 << e.code();
            }
        }
    }
    Ok(mask)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn args_and_defaults() {
        let o = HartOptions::from_args(&["--isa", "rv64gc_smctr", "--ctr=1.0"]).unwrap();
        let c = o.config(Config::default()).unwrap();
        assert!(!c.sscofpmf && c.pmu.hpm_counters == 0);
        assert_eq!(c.ctr.unwrap().layout, ctr::Layout::Ratified10);
        let c = HartOptions::from_args(&["--sbi", "builtin"])
            .unwrap()
            .config(Config::default())
            .unwrap();
        assert!(c.sbi && c.sscofpmf && c.pmu.hpm_counters == 29 && c.ctr.is_none());
        assert!(c.jit, "the block compiler is on by default");
        let c = HartOptions::from_args(&["--no-jit"])
            .unwrap()
            .config(Config::default())
            .unwrap();
        assert!(!c.jit);
        assert!(HartOptions::from_args(&["--no-jit=1"]).is_err());
        assert!(HartOptions::from_args(&["--mem", "1M"]).is_err());
        let c = HartOptions::from_args(&[
            "--pmpregions=64",
            "--pmpgranularity",
            "4096",
            "--tval-zero",
            "illegal-instruction, 3,Store/AMO access fault",
        ])
        .unwrap()
        .config(Config::default())
        .unwrap();
        assert_eq!((c.pmp_regions, c.pmp_granularity), (64, 4096));
        assert_eq!(c.tval_zero, 1 << 2 | 1 << 3 | 1 << 7);
        for (args, msg) in [
            (
                &["--pmpregions", "65"][..],
                "--pmpregions: 65 entries: at most 64",
            ),
            (
                &["--pmpgranularity", "12"][..],
                "--pmpgranularity: granularity 12",
            ),
            (
                &["--pmpgranularity", "2"][..],
                "--pmpgranularity: granularity 2",
            ),
            (
                &["--tval-zero", "bogus"][..],
                "--tval-zero: 'bogus' is not an exception",
            ),
        ] {
            let e = HartOptions::from_args(args)
                .unwrap()
                .config(Config::default())
                .unwrap_err();
            assert!(e.to_string().starts_with(msg), "{args:?}: {e}");
        }
        assert!(HartOptions::from_args(&["--isa"]).is_err());
    }

    /// The errors are types that carry the option's value, not only text.
    #[test]
    fn errors_carry_the_values() {
        let config = |args: &[&str]| {
            HartOptions::from_args(args)
                .and_then(|o| o.config(Config::default()))
                .unwrap_err()
        };
        assert_eq!(
            config(&["--isa"]),
            OptionsError::NoValue("--isa".to_string())
        );
        assert_eq!(
            config(&["--hpm-width", "wide"]),
            OptionsError::NotANumber {
                option: "--hpm-width",
                value: "wide".to_string()
            }
        );
        assert_eq!(config(&["--hpm-width", "65"]), OptionsError::HpmWidth(65));
        assert_eq!(
            config(&["--pmpregions", "65"]),
            OptionsError::Pmp(PmpError::Entries(65))
        );
        assert_eq!(
            config(&["--pmpgranularity", "12"]),
            OptionsError::Pmp(PmpError::Granularity(12))
        );
        assert_eq!(
            config(&["--tval-zero", " bogus ,2"]),
            OptionsError::TvalZero(NotAnException {
                item: "bogus".to_string()
            })
        );
        assert_eq!(
            config(&["--pmpregions", "65"]).to_string(),
            "--pmpregions: 65 entries: at most 64 (the privileged spec's pmpaddr0..63)"
        );
    }

    /// A subset of RV64GC is what it says (it used to be refused): the configuration holds
    /// the extensions asked for, and misa with them.
    #[test]
    fn subsets_are_honoured() {
        for (isa, m, a, f, d, c) in [
            ("rv64i", false, false, false, false, false),
            ("rv64imac", true, true, false, false, true),
            ("rv64g", true, true, true, true, false),
            ("rv64imafd_zicsr", true, true, true, true, false),
            ("RV64IMAFC", true, true, true, false, true),
        ] {
            let cfg = HartOptions::from_args(&["--isa", isa])
                .unwrap()
                .config(Config::default())
                .unwrap();
            let i = cfg.isa;
            assert_eq!((i.m, i.a, i.f, i.d, i.c), (m, a, f, d, c), "{isa}");
            assert!(!i.zicntr && !i.zihpm, "{isa}: counters only when named");
        }
        let c = HartOptions::default().config(Config::default()).unwrap();
        assert_eq!(c.isa, Isa::DEFAULT);
        for (isa, msg) in [
            ("rv64id", "--isa rv64id: extension 'd' requires 'f'"),
            ("rv64gcv", "--isa rv64gcv: extension 'v' is not implemented"),
            (
                "rv64ica",
                "--isa rv64ica: extension 'a' is out of canonical order",
            ),
        ] {
            let e = parse_isa(isa).unwrap_err();
            assert!(e.to_string().starts_with(msg), "{isa}: {e}");
            assert!(
                matches!(&e, OptionsError::Isa { isa: i, .. } if i == isa),
                "{e:?}"
            );
        }
    }
}
