//! Recording a lockstep session as a Bluespec tandem stream: the hart-reset group, the program
//! image and start state (state-initialisation groups, as `hartscope run --tandem-image`
//! writes them), then the group of every checked retirement, exactly as the checker built it.
//! `hartscope tandem verify FILE` (no ELF needed) replays the session to the same verdict.

use crate::Error;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use tandem::config::{Partial, WriterConfig};
use tandem::item::{Item, MemReq};
use tandem::opcode::{MemOp, MemSize};
use tandem::params::Params;
use tandem::sidecar::{HartInfo, Sidecar};
use tandem::writer::{InitialState, TandemWriter};

pub(crate) struct Recorder {
    out: BufWriter<File>,
    path: String,
    params: Params,
    buf: Vec<u8>,
    offset: u64,
}

impl Recorder {
    /// Start a recording in `path`, with its settings file beside it (`path.json`: the
    /// elements the core does not report, the hart, the program) so that `tandem verify`
    /// replays it with the settings of the session.
    pub fn create(
        path: &Path,
        m: &iss::Machine,
        prog: Option<(&iss::elf::Program, &str)>,
        images: &[(u64, u64)],
        absent: Partial,
        hart: HartInfo,
    ) -> Result<Recorder, Error> {
        let name = path.display().to_string();
        let io = |e: std::io::Error| Error::Io {
            path: name.clone(),
            source: e,
        };
        let cfg = WriterConfig {
            image: true,
            omit: absent,
            ..WriterConfig::flute()
        };
        let params = cfg.params;
        let sidecar = Sidecar {
            format: tandem::sidecar::FORMAT.into(),
            writer: cfg.clone(),
            hart,
            program: prog.map(|(_, name)| name.to_string()),
            entry: m.hart.pc,
        };
        sidecar.write(path).map_err(|e| Error::Io {
            path: tandem::sidecar::path_for(path).display().to_string(),
            source: e,
        })?;
        let mut init = InitialState::capture(m, prog.map(|(p, _)| p), true);
        // Raw images and backdoor writes: their non-zero words too.
        for &(addr, len) in images {
            let mut a = addr & !7;
            while a < addr.saturating_add(len) {
                if let Some(v) = m.bus.read_u64(a).filter(|&v| v != 0) {
                    init.image.push((a, v));
                }
                a += 8;
            }
        }
        init.image.sort_unstable();
        init.image.dedup();
        let header = TandemWriter::new(cfg, Vec::new(), &init)
            .and_then(|w| w.finish(None))
            .map_err(io)?
            .0;
        let mut out = BufWriter::new(File::create(path).map_err(io)?);
        out.write_all(&header).map_err(io)?;
        Ok(Recorder {
            out,
            path: name,
            params,
            offset: header.len() as u64,
            buf: Vec::with_capacity(256),
        })
    }

    /// Byte offset of the next group.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    pub fn write(&mut self, items: &[Item]) -> Result<(), Error> {
        self.buf.clear();
        for it in items {
            tandem::item::encode(&self.params, it, &mut self.buf);
        }
        self.out.write_all(&self.buf).map_err(|e| self.err(e))?;
        self.offset += self.buf.len() as u64;
        Ok(())
    }

    /// Memory the host (HTIF) wrote: state-initialisation groups, as `hartscope run
    /// --tandem` writes them, so a replay sees what the program then loads.
    pub fn host_writes(&mut self, words: &[(u64, u64)]) -> Result<(), Error> {
        for &(addr, value) in words {
            let items = [
                Item::BeginGroup,
                Item::StateInit,
                Item::MemReq(MemReq {
                    addr,
                    op: MemOp::Store,
                    size: MemSize::B64,
                    data: Some(value),
                }),
                Item::EndGroup,
            ];
            self.write(&items)?;
        }
        Ok(())
    }

    pub fn finish(mut self) -> Result<(), Error> {
        self.out.flush().map_err(|e| self.err(e))
    }

    fn err(&self, e: std::io::Error) -> Error {
        Error::Record(std::io::Error::new(e.kind(), format!("{}: {e}", self.path)))
    }
}
