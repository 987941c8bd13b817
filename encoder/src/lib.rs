//! N-Trace (Nexus-based trace) for hartscope: the message codec ([`msg`]), the encoder fed by
//! the hart's ingress port, the decoder that turns a byte stream and the program image back
//! into the executed pc flow, the dump, and writers of ingress beats for other tools; and
//! [`capture`], which wires the port, the encoder and a writer together for a run.

pub mod capture;
pub mod decoder;
pub mod dump;
pub mod encoder;
pub mod image;
pub mod msg;
pub mod writers;
