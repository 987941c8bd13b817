//! The verifier's shadow state and resynchronisation, one defect each (found by the
//! mutation test at its release count): a stream that is right must verify, and one fault
//! must be one report.

mod common;

use common::*;
use tandem::config::WriterConfig;
use tandem::group::Group;
use tandem::parser::{GroupReader, ParserOptions};
use tandem::verify::Status;

/// The hart's records name mcontext's writes hcontext (as Spike's commit log does; without H
/// hcontext is not a register): the shadow state must hold them as mcontext's, or the full
/// comparison finds mcontext stale. isa_sdtrig sets mcontext to 5 at about instruction 350
/// and clears it about 40 later: a stream cut in between ends with mcontext 5.
#[test]
fn mcontext_written_as_hcontext_is_mcontext() {
    let elf = program("isa_sdtrig");
    let cfg = WriterConfig::flute();
    let bytes = stream("isa_sdtrig", &elf, &cfg, Some(370));
    assert_eq!(last_value(&bytes, &cfg, iss::csr::HCONTEXT), Some(5));
    let r = check("isa_sdtrig", &elf, &bytes, &cfg);
    assert_eq!(r.status, Status::Match, "{}", show(&r));
}

/// The last value a stream gives a register (by its debug-spec address).
fn last_value(bytes: &[u8], cfg: &WriterConfig, addr: u16) -> Option<u64> {
    let mut reader = GroupReader::new(bytes, ParserOptions::with_params(cfg.params));
    let mut g = Group::default();
    let mut last = None;
    while reader.next_group(&mut g).expect("a clean stream") {
        last = g.full_reg(addr).or(last);
    }
    last
}
