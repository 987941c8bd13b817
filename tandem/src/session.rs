//! Running a program with the writer attached, in one call: for the tests, the mutation
//! harness and the benchmarks (the command line builds its own machine in `hartscope run`).

use crate::config::WriterConfig;
use crate::writer::{InitialState, TandemWriter, WriterStats};
use iss::{Config, Machine, Misaligned, Stop};
use std::io::Write;

/// The hart's options, as `hartscope run` has them.
#[derive(Clone, Copy, Debug)]
pub struct HartConfig {
    pub ram_size: u64,
    pub misaligned: Misaligned,
}

impl Default for HartConfig {
    fn default() -> Self {
        HartConfig {
            ram_size: iss::bus::DEFAULT_RAM_SIZE,
            misaligned: Misaligned::Trap,
        }
    }
}

/// A machine with the program loaded and booted, its console discarded.
pub fn machine(
    elf: &[u8],
    path: &str,
    hart: HartConfig,
) -> Result<(Machine, iss::elf::Program), String> {
    crate::limits::check_ram_size(hart.ram_size).map_err(|e| e.to_string())?;
    let mut m = Machine::try_new(Config {
        ram_size: hart.ram_size,
        misaligned: hart.misaligned,
        finisher: true,
        ..Config::default()
    })
    .map_err(|e| e.to_string())?;
    m.bus.console = iss::bus::Console::Null;
    let prog = iss::elf::load(&mut m, elf, path).map_err(|e| e.to_string())?;
    m.boot(prog.entry);
    Ok((m, prog))
}

/// A writer for a machine that is about to run.
pub fn writer<W: Write + Send + 'static>(
    m: &Machine,
    prog: &iss::elf::Program,
    cfg: &WriterConfig,
    out: W,
) -> Result<TandemWriter<W>, String> {
    let init = InitialState::capture(m, Some(prog), cfg.image);
    TandemWriter::new(cfg.clone(), out, &init).map_err(|e| e.to_string())
}

/// Run a program (to its end or `limit` retired instructions) writing its stream to `out`.
pub fn record<W: Write + Send + 'static>(
    elf: &[u8],
    path: &str,
    hart: HartConfig,
    cfg: &WriterConfig,
    limit: Option<u64>,
    out: W,
) -> Result<(W, Stop, WriterStats), String> {
    let (mut m, prog) = machine(elf, path, hart)?;
    let mut w = writer(&m, &prog, cfg, out)?;
    let stop = m.run(&mut w, limit);
    let (out, stats) = w.finish(Some(m.hart.prv)).map_err(|e| e.to_string())?;
    Ok((out, stop, stats))
}
