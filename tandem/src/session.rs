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
    /// The block compiler (`Config::jit`; off for `bench --no-jit`).
    pub jit: bool,
}

impl Default for HartConfig {
    fn default() -> Self {
        HartConfig {
            ram_size: iss::bus::DEFAULT_RAM_SIZE,
            misaligned: Misaligned::Trap,
            jit: true,
        }
    }
}

/// Why a machine, its program, a writer or a verifier could not be set up, or a recording
/// could not be finished. Each says what its cause says (no prefix of its own).
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// The trace parameters are not this hart's.
    #[error("{0}")]
    Params(crate::params::ParamsError),
    #[error("{0}")]
    RamSize(crate::limits::RamSizeError),
    /// The recorded machine settings (a settings file's `hart.machine`).
    #[error("{0}")]
    MachineSettings(crate::sidecar::MachineSettingsError),
    #[error("{0}")]
    Machine(iss::machine::ConfigError),
    #[error("{0}")]
    Elf(iss::elf::ElfError),
    /// Writing the stream (the writer's header, its end).
    #[error("{0}")]
    Write(std::io::Error),
}

/// A machine with the program loaded and booted, its console discarded.
pub fn machine(
    elf: &[u8],
    path: &str,
    hart: HartConfig,
) -> Result<(Machine, iss::elf::Program), SetupError> {
    crate::limits::check_ram_size(hart.ram_size).map_err(SetupError::RamSize)?;
    let mut m = Machine::try_new(Config {
        ram_size: hart.ram_size,
        misaligned: hart.misaligned,
        finisher: true,
        jit: hart.jit,
        ..Config::default()
    })
    .map_err(SetupError::Machine)?;
    m.bus.console = iss::bus::Console::Null;
    let prog = iss::elf::load(&mut m, elf, path).map_err(SetupError::Elf)?;
    m.boot(prog.entry);
    Ok((m, prog))
}

/// A writer for a machine that is about to run.
pub fn writer<W: Write + Send + 'static>(
    m: &Machine,
    prog: &iss::elf::Program,
    cfg: &WriterConfig,
    out: W,
) -> Result<TandemWriter<W>, SetupError> {
    let init = InitialState::capture(m, Some(prog), cfg.image);
    TandemWriter::new(cfg.clone(), out, &init).map_err(SetupError::Write)
}

/// Run a program (to its end or `limit` retired instructions) writing its stream to `out`.
pub fn record<W: Write + Send + 'static>(
    elf: &[u8],
    path: &str,
    hart: HartConfig,
    cfg: &WriterConfig,
    limit: Option<u64>,
    out: W,
) -> Result<(W, Stop, WriterStats), SetupError> {
    let (mut m, prog) = machine(elf, path, hart)?;
    let mut w = writer(&m, &prog, cfg, out)?;
    let stop = crate::writer::run(&mut m, &mut w, limit);
    let (out, stats) = w.finish(Some(m.hart.prv)).map_err(SetupError::Write)?;
    Ok((out, stop, stats))
}
