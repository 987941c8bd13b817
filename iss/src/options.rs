//! The hart's options as `hartscope run` takes them (`--isa`, `--sbi`, `--hpm-counters`,
//! `--hpm-width`, `--pmu-models`, `--ctr`, and the settings files' contents), turned into a
//! [`Config`]. One mapping serves the command line and the tests that build a machine the way
//! the command line would (a guest program's `hartscope-options:` line).

use crate::Config;

/// What the ISA string asks for beyond RV64GC.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Isa {
    pub sscofpmf: bool,
    pub ctr: bool,
}

/// Check an ISA string against what hartscope implements.
pub fn parse_isa(isa: &str) -> Result<Isa, String> {
    let l = isa.to_ascii_lowercase();
    let Some(rest) = l.strip_prefix("rv64") else {
        return Err(format!(
            "--isa {isa}: hartscope simulates RV64 harts (the string must start with rv64)"
        ));
    };
    let mut parts = rest.split('_');
    let base = parts.next().unwrap_or("").replace('g', "imafd");
    if let Some(c) = base.chars().find(|c| !"imafdc".contains(*c)) {
        return Err(format!(
            "--isa {isa}: extension '{c}' is not implemented (hartscope implements rv64gc)"
        ));
    }
    if !base.contains('i') {
        return Err(format!("--isa {isa}: the base integer ISA (i) is required"));
    }
    // The hart always has M, A, F, D and C: a string without one of them would run code the
    // user said the hart lacks, so it is refused rather than taken as RV64GC.
    let missing: Vec<String> = "mafdc"
        .chars()
        .filter(|c| !base.contains(*c))
        .map(|c| c.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "--isa {isa}: hartscope cannot leave out {}: its hart always implements rv64gc \
             (imafdc), and switching extensions off is not implemented",
            missing.join(", ")
        ));
    }
    let mut out = Isa::default();
    let mut csrind = false;
    for ext in parts {
        match ext {
            "zicsr" | "zifencei" | "zicntr" | "zihpm" => {}
            "sscofpmf" => out.sscofpmf = true,
            "smctr" | "ssctr" => out.ctr = true,
            "smcsrind" | "sscsrind" | "smstateen" | "ssstateen" => csrind = true,
            "" => return Err(format!("--isa {isa}: empty extension name")),
            other => {
                return Err(format!(
                    "--isa {isa}: extension '{other}' is not implemented"
                ))
            }
        }
    }
    if csrind && !out.ctr {
        return Err(format!(
            "--isa {isa}: smcsrind, sscsrind and smstateen come with smctr/ssctr here"
        ));
    }
    Ok(out)
}

/// The hart's options (see `hartscope run --help`).
#[derive(Clone, Debug)]
pub struct HartOptions {
    /// `--isa`; default rv64gc, or rv64gc_sscofpmf with the built-in SBI.
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
        }
    }
}

impl HartOptions {
    /// The options among `args` (command-line words: `--isa rv64gc_smctr --ctr 1.0`). Only
    /// the options above that take no file; anything else is an error.
    pub fn from_args<S: AsRef<str>>(args: &[S]) -> Result<HartOptions, String> {
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
                    .ok_or_else(|| format!("{name} needs a value"))
            };
            match name {
                "--isa" => o.isa = Some(value()?),
                "--sbi" => {
                    o.sbi = match value()?.as_str() {
                        "builtin" => true,
                        "none" => false,
                        v => return Err(format!("--sbi {v}: none or builtin")),
                    }
                }
                "--hpm-counters" => {
                    let v = value()?;
                    o.hpm_counters = Some(v.parse().map_err(|_| format!("--hpm-counters {v}"))?);
                }
                "--hpm-width" => {
                    let v = value()?;
                    o.hpm_width = v.parse().map_err(|_| format!("--hpm-width {v}"))?;
                }
                "--pmu-models" => o.pmu_models = Some(value()?),
                "--ctr" => o.ctr_layout = Some(value()?),
                "--pmpregions" => {
                    let v = value()?;
                    o.pmp_regions = Some(v.parse().map_err(|_| format!("--pmpregions {v}"))?);
                }
                "--pmpgranularity" => {
                    let v = value()?;
                    o.pmp_granularity =
                        Some(v.parse().map_err(|_| format!("--pmpgranularity {v}"))?);
                }
                "--tval-zero" => o.tval_zero = Some(value()?),
                other => return Err(format!("{other}: not a hart option")),
            }
        }
        Ok(o)
    }

    /// The machine configuration these options describe, on top of `base`.
    pub fn config(&self, base: Config) -> Result<Config, String> {
        let default_isa = if self.sbi {
            "rv64gc_sscofpmf"
        } else {
            "rv64gc"
        };
        let isa = parse_isa(self.isa.as_deref().unwrap_or(default_isa))?;
        let mut c = base;
        c.sscofpmf = isa.sscofpmf;
        c.sbi = self.sbi;
        match &self.pmu {
            Some(p) => c.pmu = p.clone(),
            None => c.pmu.hpm_counters = if isa.sscofpmf || self.sbi { 29 } else { 0 },
        }
        if let Some(n) = self.hpm_counters {
            if n > 29 {
                return Err(format!(
                    "--hpm-counters {n}: at most 29 hpm counters (mhpmcounter3..31)"
                ));
            }
            c.pmu.hpm_counters = n;
        }
        if !(1..=64).contains(&self.hpm_width) {
            return Err(format!(
                "--hpm-width {}: the counter width must be in 1..=64 bits",
                self.hpm_width
            ));
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
                    other => {
                        return Err(format!(
                            "--pmu-models: unknown model '{other}' (caches, tlb, bp, all)"
                        ))
                    }
                }
            }
        }
        c.pmu.validate().map_err(|e| format!("PMU settings: {e}"))?;
        if isa.ctr || self.ctr_layout.is_some() || self.ctr.is_some() {
            let mut cc = self.ctr.unwrap_or_default();
            if let Some(l) = &self.ctr_layout {
                cc.layout = l.parse().map_err(|e| format!("--ctr {l}: {e}"))?;
            }
            // Mispredictions exist only with a branch predictor to make them.
            cc.misp = c.pmu.bp.is_some();
            cc.validate().map_err(|e| format!("CTR settings: {e}"))?;
            c.ctr = Some(cc);
        }
        if let Some(n) = self.pmp_regions {
            c.pmp_regions = n;
        }
        if let Some(g) = self.pmp_granularity {
            c.pmp_granularity = g;
        }
        c.check_pmp().map_err(|e| {
            let flag = if e.contains("entries") {
                "--pmpregions"
            } else {
                "--pmpgranularity"
            };
            format!("{flag}: {e}")
        })?;
        if let Some(list) = &self.tval_zero {
            c.tval_zero = parse_exceptions(list).map_err(|e| format!("--tval-zero: {e}"))?;
        }
        Ok(c)
    }
}

/// A set of exceptions as a mask by exception code, from a comma-separated list of their
/// codes (`2`) or names as the privileged spec's table 3.6 gives them, in any case, with
/// spaces and slashes as dashes (`illegal-instruction`, `breakpoint`,
/// `store/amo-access-fault` or `store-access-fault`); `all` for every exception, `none` for
/// none.
pub fn parse_exceptions(list: &str) -> Result<u64, String> {
    use arch::Exception;
    let norm = |s: &str| {
        s.trim()
            .to_ascii_lowercase()
            .replace([' ', '/', '_'], "-")
            .replace("-amo-", "-")
    };
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
                    return Err(format!(
                        "'{}' is not an exception (a code, or one of: {})",
                        item.trim(),
                        all.iter()
                            .map(|e| norm(e.name()))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
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
            assert!(e.starts_with(msg), "{args:?}: {e}");
        }
        assert!(HartOptions::from_args(&["--isa"]).is_err());
    }

    /// A subset of RV64GC is refused, naming what is missing, never run as RV64GC.
    #[test]
    fn subsets_are_refused() {
        for (isa, missing) in [
            ("rv64i", "m, a, f, d, c"),
            ("rv64imac", "f, d"),
            ("rv64g", "c"),
            ("rv64imafd_zicsr", "c"),
            ("RV64IMAFC", "d"),
        ] {
            let e = parse_isa(isa).unwrap_err();
            assert!(
                e.contains(&format!("cannot leave out {missing}:")),
                "{isa}: {e}"
            );
        }
        for isa in [
            "rv64gc",
            "rv64imafdc",
            "rv64gc_sscofpmf",
            "RV64IMAFDC_ZICSR_ZIFENCEI",
        ] {
            assert!(parse_isa(isa).is_ok(), "{isa}");
        }
    }
}
