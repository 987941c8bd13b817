//! The `hartscope` command-line program.

mod bench;
mod bench_models;
mod boot;
mod dtb_cmd;
mod files;
mod gdb;
mod hart_args;
mod ntrace_cmd;
mod prealloc;
mod progress;
mod run;
mod spike;
mod spike_cmd;
mod tandem_cmd;
mod trace;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// hartscope: an exact, fast RV64GC instruction-set simulator for tracing and verifying harts.
#[derive(Parser)]
#[command(version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a bare-metal RV64 ELF program.
    Run(Box<run::RunArgs>),
    /// Spike's command line (`hartscope spike [Spike's options] ELF`), run as `run` would:
    /// -l, --log-commits, --log=, --isa=, --priv=msu, --misaligned, -m, -p1, --pc=,
    /// --instructions=, +signature=, +signature-granularity= (`hartscope spike --help`).
    #[command(disable_help_flag = true)]
    Spike {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<std::ffi::OsString>,
    },
    /// Measure hartscope's speed against Spike's on the same program.
    Bench(bench::BenchArgs),
    /// Write the platform's device tree (for Spike's --dtb, Linux, or to read).
    Dtb(dtb_cmd::DtbArgs),
    /// Read N-Trace byte streams: dump their messages, decode the pc flow.
    #[command(subcommand)]
    Ntrace(ntrace_cmd::NtraceCommand),
    /// The Bluespec tandem trace: dump a stream, verify it against the architecture, measure.
    #[command(subcommand)]
    Tandem(tandem_cmd::TandemCommand),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if matches!(&cli.command, Command::Run(a) if a.hart.trace_sbi) {
        // --trace-sbi: the built-in SBI's call log (iss::sbi) on standard error.
        tracing_subscriber::fmt()
            .with_writer(std::io::stderr)
            .with_max_level(tracing::Level::INFO)
            .without_time()
            .init();
    }
    let result = match cli.command {
        Command::Run(args) => run::run(*args),
        Command::Spike { args } => spike_cmd::run(args),
        Command::Bench(args) => bench::bench(args).map(|()| ExitCode::SUCCESS),
        Command::Dtb(args) => dtb_cmd::run(args).map(|()| ExitCode::SUCCESS),
        Command::Ntrace(cmd) => ntrace_cmd::run(cmd),
        Command::Tandem(cmd) => tandem_cmd::run(cmd),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("hartscope: error: {e:#}");
            ExitCode::from(run::EXIT_HOST_ERROR)
        }
    }
}
