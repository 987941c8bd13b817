//! The hartscope hart: an exact, fast RV64GC instruction-set simulator.
//!
//! - [`ops`]: the instruction table, every operation and what is known about it;
//! - [`insn`] / [`decode`]: the decoded instruction and the decoder;
//! - [`machine`]: the hart's state, its bus ([`bus`]) and options;
//! - `exec`: instruction semantics, by extension; [`fp`]: IEEE 754 through SoftFloat;
//! - [`mmu`]: Sv39/Sv48 translation, PMP, and the load/store/fetch paths;
//! - `trap`: trap entry and interrupt selection; [`run`]: the run loop and time model;
//! - [`record`]: retirement records and sinks; [`elf`]: the loader; [`htif`]: HTIF;
//! - [`sbi`]: the built-in SBI for S-mode programs, and [`dtb`]: the device tree it provides;
//!   [`fdt`]: checking and rewriting a user's device tree; [`image`]: the Linux `Image` header.

pub mod bus;
pub mod classify;
pub mod commitlog;
pub mod csr;
mod dcache;
pub mod decode;
pub mod disasm;
pub mod dtb;
pub mod elf;
mod events;
mod exec;
pub mod fdt;
pub mod files;
pub mod fp;
pub mod htif;
pub mod image;
pub mod ingress;
pub mod insn;
pub mod isa;
mod jit;
pub mod machine;
pub mod mmu;
pub mod ops;
pub mod options;
pub mod record;
pub mod run;
pub mod sbi;
pub mod stage;
pub mod state;
pub mod trace_control;
mod trap;
pub mod trigger;

pub use arch::{Cause, Exception, Interrupt, Priv};
pub use isa::{Isa, IsaError};
pub use machine::{Config, Machine, Misaligned};
pub use record::{At, Detail, NoSink, Retired, Sink, TrapRecord, Watched};
pub use run::{StepOutcome, Stop};
