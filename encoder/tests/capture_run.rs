//! `encoder::capture::run`: the hart runs with whichever sinks are present, and every path
//! gives the same run: the same stop, the same number of instructions, and each sink hears
//! of every one of them.

use encoder::capture::{run, Recorders};
use iss::record::{Retired, TrapRecord};
use iss::{Config, Detail, Machine, NoSink, Sink, Stop};
use std::io::Sink as NullWriter;
use std::path::Path;

/// Counts the records it is given.
#[derive(Default)]
struct Count {
    retired: u64,
    traps: u64,
}

impl Sink for Count {
    const DETAIL: Detail = Detail::Records;
    fn retire(&mut self, r: &Retired) {
        if r.retired() {
            self.retired += 1;
        }
    }
    fn trap(&mut self, _: &TrapRecord) {
        self.traps += 1;
    }
}

fn machine(name: &str) -> Machine {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../programs/bin/{name}.elf"));
    let bytes = std::fs::read(&p).unwrap();
    let mut m = Machine::new(Config::default());
    m.bus.console = iss::bus::Console::Null;
    let prog = iss::elf::load(&mut m, &bytes, &p.display().to_string()).unwrap();
    m.boot(prog.entry);
    m
}

type R = Recorders<Count, Count, NullWriter>;

#[test]
fn every_path_runs_the_same_program_the_same_way() {
    let (stop0, n0) = {
        let mut m = machine("traps");
        let before = m.retired();
        (m.run(&mut NoSink, None), m.retired() - before)
    };
    assert!(matches!(stop0, Stop::Exit(0)), "{stop0:?}");
    // No sink: untraced.
    let mut m = machine("traps");
    let before = m.retired();
    let none: R = Recorders {
        log: None,
        port: None,
        tandem: None,
        trace_hart: 0,
        running: 0,
    };
    let (stop, _) = run(&mut m, none, None);
    assert_eq!((stop, m.retired() - before), (stop0.clone(), n0));
    // One records sink alone, either slot, and both together: each hears of every instruction.
    for (log, tandem) in [(true, false), (false, true), (true, true)] {
        let mut m = machine("traps");
        let before = m.retired();
        let r: R = Recorders {
            log: log.then(Count::default),
            port: None,
            tandem: tandem.then(Count::default),
            trace_hart: 0,
            running: 0,
        };
        let (stop, r) = run(&mut m, r, None);
        assert_eq!(
            (stop, m.retired() - before),
            (stop0.clone(), n0),
            "{log} {tandem}"
        );
        for c in [r.log, r.tandem].into_iter().flatten() {
            assert_eq!(c.retired, n0, "{log} {tandem}");
            assert!(c.traps > 0, "traps.elf takes traps");
        }
    }
}
