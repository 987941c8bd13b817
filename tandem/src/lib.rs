//! The Bluespec tandem trace protocol (Trace Protocol Specification, 2018-11-20, with the
//! errata in shared/specs/README.md) and a shadow-state tandem verifier.
//!
//! - [`opcode`]: every opcode, additional-state identifier and memory code, in one table;
//! - [`item`] / [`parser`]: the stream's elements, their encoding, and a streaming parser
//!   that assembles [`group::Group`]s in bounded memory and reports malformed input;
//! - [`writer`]: a hart sink writing the stream ([`config`] says what goes in it);
//! - [`dump`]: one line per group, with disassembly and register names;
//! - [`verify`]: the tandem verifier of spec sections 3.1 and 3.2 against a hartscope
//!   reference hart ([`refhart`]);
//! - [`mutate`]: broken-core streams for the mutation test; [`mod@bench`]: the benchmarks;
//! - [`sidecar`]: the settings file written beside a trace; [`limits`]: sizes from outside
//!   and capped reads of settings files.

pub mod bench;
pub mod config;
pub mod dump;
pub mod group;
pub mod item;
pub mod limits;
pub mod mutate;
pub mod names;
pub mod opcode;
pub mod params;
pub mod parser;
pub mod refhart;
pub mod session;
pub mod sidecar;
pub mod verify;
pub mod writer;

pub use config::{Partial, PcMode, Style, WriterConfig};
pub use group::Group;
pub use item::Item;
pub use params::Params;
pub use parser::{GroupReader, ParseError, ParserOptions};
pub use verify::{Nondet, Report, Verifier, VerifyConfig};
pub use writer::{InitialState, TandemWriter, WriterStats};
