//! hartscope's performance monitoring unit, as a library the hart owns and drives.
//!
//! - **Counters** (privileged spec: Zicntr, Zihpm; Sscofpmf): mcycle, minstret,
//!   mhpmcounter3..31 with mhpmevent3..31, mcountinhibit, the user views and scountovf, with
//!   their access checks ([`Pmu::csr_read`], [`Pmu::csr_write`]). Counter values are derived
//!   lazily from per-privilege event totals ([`class`], `counters.rs`), so counting costs
//!   the hart one add per class it counts, whatever the counters are doing.
//! - **Events** ([`event`]): what each mhpmevent selector counts; the SBI event_idx layout,
//!   plus hartscope's own events.
//! - **Models** ([`model`]): set-associative L1I/L1D/LL caches, ITLB/DTLB, a branch predictor,
//!   and the cycle cost model (one cycle per instruction plus penalties). Off by default.
//! - **SBI PMU extension** ([`sbi`]): all nine functions, firmware counters, the call log.
//! - **Device tree** ([`dt`]): the `riscv,pmu` node's event mappings.
//! - **Report** ([`report`]): every counter and every SBI call, as JSON or a table.
//!
//! docs/pmu.md describes the encoding, the cost model, the interpretations of the specs and
//! how the hart drives the PMU.

pub mod class;
pub mod config;
mod counters;
pub mod csr;
pub mod dt;
pub mod event;
pub mod model;
pub mod report;
pub mod sbi;

pub use class::{prv_index, Class, NCLASS, NPRV};
pub use config::{
    BpConfig, CacheConfig, CacheGeometry, ConfigError, Penalties, PmuConfig, TlbConfig, TlbGeometry,
};
pub use counters::{Pmu, HPM_FIRST, MCYCLE_IDX, MINSTRET_IDX, TIME_IDX};
pub use csr::{counter_accessible, is_pmu_csr, CsrCtx, CsrError};
pub use dt::PmuDtTables;
pub use model::AccessKind;
pub use report::{CounterReport, PmuReport};
pub use sbi::{FwEvent, SbiError, SbiPmuHost, SbiRet, EID_PMU};

impl Pmu {
    /// The `riscv,pmu` device-tree tables for this PMU's configuration.
    pub fn dt_tables(&self) -> PmuDtTables {
        PmuDtTables::new(&self.cfg)
    }
}
