//! The C99 `<stdint.h>` integer types, with the sizes the target's C compiler gives them.
//!
//! A stand-in for crates.io's `c99` 0.1.1 (same names), patched in by the workspace so that
//! SoftFloat's bindings build with a C compiler alone; see `build.rs`.
#![no_std]
#![allow(non_camel_case_types)]

pub type int8_t = i8;
pub type int16_t = i16;
pub type int32_t = i32;
pub type int64_t = i64;
pub type uint8_t = u8;
pub type uint16_t = u16;
pub type uint32_t = u32;
pub type uint64_t = u64;

include!(concat!(env!("OUT_DIR"), "/types.rs"));
