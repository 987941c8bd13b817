//! The hartscope hart: an RV64GC instruction-set simulator.
//!
//! Modules: [`insn`] (the decoded instruction), [`decode`] (bits to [`insn::Insn`]), [`fp`]
//! (IEEE 754 through Berkeley SoftFloat with RISC-V rules).

pub mod insn;
