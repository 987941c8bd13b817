//! `hartscope run --gdb PORT`: a GDB remote stub (the Remote Serial Protocol, through the
//! `gdbstub` crate) on 127.0.0.1:PORT.
//!
//! GDB sees one RV64 hart: the GPRs and the pc in the `g` packet, the FPRs, the CSRs the hart
//! implements and the privilege level (`priv`, as OpenOCD and Spike name it) one at a time
//! (`p`/`P`), all described by a target description XML with GDB's own feature names
//! (`org.gnu.gdb.riscv.cpu`, `.fpu`, `.csr`, `.virtual`) and GDB's register numbers (CSR n
//! is 65 + n, `priv` 4161). Memory is physical RAM: a read or write elsewhere (devices,
//! unmapped addresses) is an error reply.
//!
//! How the hart runs under the debugger keeps its trace exact: every run goes through the
//! hart's own run loop ([`Machine::run_paused`]), which pauses where the debugger needs it
//! and resumes as if it had never stopped, so the records the sinks get (the commit log, the
//! trace) are those of a run without a debugger.
//! - `continue` with no breakpoint or watchpoint runs whole quanta at full speed, 20 at a
//!   time (100 000 instructions), looking at the socket for a Ctrl-C between them;
//! - with breakpoints or watchpoints, and for `stepi`, one instruction (or a trap taken) at
//!   a time: a breakpoint stops before the instruction at its address executes; a watchpoint
//!   stops before the load or store that touches its bytes executes (GDB's RISC-V watchpoints
//!   are "non-steppable": GDB then steps over the access itself and shows the values), and
//!   not for an instruction that would raise an exception instead
//!   ([`Machine::next_data_access`]).
//!
//! The guest's end (HTIF exit, the test finisher) is a `W` packet with the exit code modulo
//! 256; the other ends of a run are signals, the hart left to look at: the instruction limit
//! `SIGXCPU`, a trap loop `SIGSEGV`, a WFI nothing can wake `SIGSTOP`; a reset request and a
//! host I/O failure end the session (`X` with `SIGABRT` and `SIGPIPE`). `detach` lets the
//! run go on to its end without the debugger; `kill` ends it there.

use anyhow::{Context, Result};
use gdbstub::arch::{Arch, RegId, Registers};
use gdbstub::common::Signal;
use gdbstub::conn::ConnectionExt;
use gdbstub::stub::run_blocking::{BlockingEventLoop, Event, WaitForStopReasonError};
use gdbstub::stub::{DisconnectReason, GdbStub, SingleThreadStopReason};
use gdbstub::target::ext::base::single_register_access::{
    SingleRegisterAccess, SingleRegisterAccessOps,
};
use gdbstub::target::ext::base::singlethread::{
    SingleThreadBase, SingleThreadResume, SingleThreadResumeOps, SingleThreadSingleStep,
    SingleThreadSingleStepOps,
};
use gdbstub::target::ext::base::BaseOps;
use gdbstub::target::ext::breakpoints::{
    Breakpoints, BreakpointsOps, HwBreakpoint, HwBreakpointOps, HwWatchpoint, HwWatchpointOps,
    SwBreakpoint, SwBreakpointOps, WatchKind,
};
use gdbstub::target::ext::target_description_xml_override::{
    TargetDescriptionXmlOverride, TargetDescriptionXmlOverrideOps,
};
use gdbstub::target::{Target, TargetError, TargetResult};
use iss::run::Pause;
use iss::{Machine, Priv, Sink, Stop};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::net::{TcpListener, TcpStream};
use std::num::NonZeroUsize;

/// GDB's register number of the first FPR.
const FIRST_FPR: usize = 33;
/// GDB's register number of CSR 0 (CSR n is `FIRST_CSR + n`).
const FIRST_CSR: usize = 65;
/// GDB's register number of the privilege level (`RISCV_PRIV_REGNUM`).
const PRIV_REGNUM: usize = FIRST_CSR + 4096;
/// Quanta a `continue` without breakpoints runs between looks at the socket.
const QUANTA_PER_POLL: u64 = 20;
/// Instructions a `continue` with breakpoints steps between looks at the socket.
const STEPS_PER_POLL: u32 = 4096;

/// The exit status of `hartscope run` when GDB killed the program (a shell's for SIGKILL).
pub const EXIT_KILLED: u8 = 137;

/// The listening socket, made before the run starts (so that a port in use is reported
/// before anything is written).
pub struct Server {
    listener: TcpListener,
    port: u16,
    /// How the session ended, when it did not end with the run.
    pub outcome: Option<Outcome>,
}

/// A session's end other than the run's.
#[derive(Debug)]
pub enum Outcome {
    /// GDB killed the program.
    Killed,
    /// The connection failed (GDB went away without detaching, an unusable packet stream).
    Lost(String),
}

impl Server {
    /// Listen on 127.0.0.1:`port` (0: a port the system picks; the message says which).
    pub fn listen(port: u16) -> Result<Server> {
        let listener = TcpListener::bind(("127.0.0.1", port))
            .with_context(|| format!("--gdb {port}: cannot listen on 127.0.0.1:{port}"))?;
        let port = listener
            .local_addr()
            .with_context(|| format!("--gdb {port}: cannot read the listening address"))?
            .port();
        Ok(Server {
            listener,
            port,
            outcome: None,
        })
    }

    /// Wait for GDB, then serve it until the run ends, GDB detaches (then the run goes on to
    /// its end), kills the program or goes away (see [`Server::outcome`]). Returns how the
    /// run stopped (for a kill or a lost connection: where it was).
    pub fn serve<S: Sink>(&mut self, m: &mut Machine, sink: &mut S, limit: Option<u64>) -> Stop {
        eprintln!("hartscope: waiting for gdb on 127.0.0.1:{}", self.port);
        let conn = match self.listener.accept() {
            Ok((c, _)) => c,
            Err(e) => {
                self.outcome = Some(Outcome::Lost(format!("cannot accept a connection: {e}")));
                return Stop::HostIoError;
            }
        };
        let mut hart = Hart::new(m, sink, limit);
        let result = GdbStub::new(conn).run_blocking::<EventLoop<Hart<'_, S>>>(&mut hart);
        let stop = hart.stop.take();
        let Hart { m, sink, .. } = hart;
        match result {
            Ok(DisconnectReason::TargetExited(_)) | Ok(DisconnectReason::TargetTerminated(_)) => {
                stop.unwrap_or(Stop::HostIoError)
            }
            Ok(DisconnectReason::Disconnect) => {
                // Detached: the program goes on without the debugger.
                match stop {
                    Some(s) if ends_session(&s) => s,
                    _ => m.run(sink, limit),
                }
            }
            Ok(DisconnectReason::Kill) => {
                self.outcome = Some(Outcome::Killed);
                stop.unwrap_or(Stop::InstructionLimit)
            }
            Err(e) => {
                let what = if e.is_connection_error() {
                    "the connection to gdb was lost".to_string()
                } else {
                    "the session failed".to_string()
                };
                self.outcome = Some(Outcome::Lost(format!("{what}: {e}")));
                stop.unwrap_or(Stop::HostIoError)
            }
        }
    }
}

/// Whether a stop ends the session (the others leave the hart to look at).
fn ends_session(s: &Stop) -> bool {
    matches!(s, Stop::Exit(_) | Stop::ResetRequested | Stop::HostIoError)
}

/// What GDB asked the hart to do.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Action {
    Continue,
    Step,
}

/// The debugged hart, with the sink its records go to.
struct Hart<'a, S: Sink> {
    m: &'a mut Machine,
    sink: &'a mut S,
    limit: Option<u64>,
    sw_breaks: BTreeSet<u64>,
    hw_breaks: BTreeSet<u64>,
    /// Address, length, kind.
    watches: Vec<(u64, u64, WatchKind)>,
    action: Action,
    /// How the run stopped, once it did.
    stop: Option<Stop>,
    /// The target description (built at connection from the CSRs the hart has).
    xml: String,
}

impl<'a, S: Sink> Hart<'a, S> {
    fn new(m: &'a mut Machine, sink: &'a mut S, limit: Option<u64>) -> Self {
        let csrs: Vec<u16> = (0..4096u16)
            .filter(|&c| !matches!(c, 1..=3))
            .filter(|&c| iss::csr::csr_name(c).is_some() && m.csr_read(c).is_some())
            .collect();
        let flen = tandem::params::hart_flen(&m.config.isa);
        let xml = target_xml(&csrs, flen);
        Hart {
            m,
            sink,
            limit,
            sw_breaks: BTreeSet::new(),
            hw_breaks: BTreeSet::new(),
            watches: Vec::new(),
            action: Action::Continue,
            stop: None,
            xml,
        }
    }

    /// Bytes of an FPR for GDB: FLEN / 8 (8 with D, 4 with F alone, 0 without F).
    fn fpr_bytes(&self) -> usize {
        tandem::params::hart_flen(&self.m.config.isa) as usize / 8
    }

    /// Execute one instruction (or take one trap). `Some` when the run stopped.
    fn step_one(&mut self) -> Option<Stop> {
        let pause = Pause {
            at_retired: Some(self.m.retired() + 1),
            after_trap: true,
            after_quanta: None,
        };
        self.m.run_paused(self.sink, self.limit, pause)
    }

    /// The stop reason GDB gets for the run's end.
    fn report_stop(&mut self, stop: Stop) -> SingleThreadStopReason<u64> {
        let r = match &stop {
            Stop::Exit(code) => SingleThreadStopReason::Exited((*code & 0xff) as u8),
            Stop::InstructionLimit => SingleThreadStopReason::Signal(Signal::SIGXCPU),
            Stop::TrapLoop { .. } => SingleThreadStopReason::Signal(Signal::SIGSEGV),
            Stop::WaitForever { .. } => SingleThreadStopReason::Signal(Signal::SIGSTOP),
            Stop::ResetRequested => SingleThreadStopReason::Terminated(Signal::SIGABRT),
            Stop::HostIoError => SingleThreadStopReason::Terminated(Signal::SIGPIPE),
        };
        self.stop = Some(stop);
        r
    }

    /// A watchpoint the next instruction's data access triggers.
    fn watch_hit(&mut self) -> Option<(WatchKind, u64)> {
        let a = self.m.next_data_access()?;
        let (lo, hi) = (a.vaddr, a.vaddr.wrapping_add(a.size as u64));
        self.watches.iter().find_map(|&(addr, len, kind)| {
            let overlaps = lo < addr.wrapping_add(len.max(1)) && addr < hi;
            let fires = match kind {
                WatchKind::Write => a.write,
                WatchKind::Read => a.read,
                WatchKind::ReadWrite => a.read || a.write,
            };
            // GDB is told the watched address, which it looks its watchpoint up by.
            (overlaps && fires).then_some((kind, addr.max(lo)))
        })
    }

    /// Run for GDB's `continue` or `step` until something stops the hart, or until data
    /// arrives from GDB (a Ctrl-C, or a disconnection).
    fn wait(
        &mut self,
        conn: &mut TcpStream,
    ) -> Result<Event<SingleThreadStopReason<u64>>, WaitForStopReasonError<String, std::io::Error>>
    {
        if let Some(s) = &self.stop {
            // The run ended (the limit, a trap loop): it ends there again.
            let s = s.clone();
            return Ok(Event::TargetStopped(self.report_stop(s)));
        }
        if self.action == Action::Step {
            return Ok(Event::TargetStopped(match self.step_one() {
                Some(s) => self.report_stop(s),
                None => SingleThreadStopReason::DoneStep,
            }));
        }
        let stepping =
            !self.sw_breaks.is_empty() || !self.hw_breaks.is_empty() || !self.watches.is_empty();
        if !stepping {
            loop {
                let pause = Pause {
                    after_quanta: Some(QUANTA_PER_POLL),
                    ..Pause::default()
                };
                if let Some(s) = self.m.run_paused(self.sink, self.limit, pause) {
                    return Ok(Event::TargetStopped(self.report_stop(s)));
                }
                if let Some(b) = poll(conn)? {
                    return Ok(Event::IncomingData(b));
                }
            }
        }
        let mut first = true;
        let mut n = 0u32;
        loop {
            // The instruction GDB resumed at runs even if a breakpoint is on it (GDB steps
            // over its own breakpoints; this also makes a resume from one go on).
            if !std::mem::take(&mut first) {
                let pc = self.m.hart.pc;
                if self.sw_breaks.contains(&pc) {
                    return Ok(Event::TargetStopped(SingleThreadStopReason::SwBreak(())));
                }
                if self.hw_breaks.contains(&pc) {
                    return Ok(Event::TargetStopped(SingleThreadStopReason::HwBreak(())));
                }
            }
            if !self.watches.is_empty() {
                if let Some((kind, addr)) = self.watch_hit() {
                    // Before the access; GDB steps over it with its watchpoints removed.
                    return Ok(Event::TargetStopped(SingleThreadStopReason::Watch {
                        tid: (),
                        kind,
                        addr,
                    }));
                }
            }
            if let Some(s) = self.step_one() {
                return Ok(Event::TargetStopped(self.report_stop(s)));
            }
            n += 1;
            if n.is_multiple_of(STEPS_PER_POLL) {
                if let Some(b) = poll(conn)? {
                    return Ok(Event::IncomingData(b));
                }
            }
        }
    }

    fn reg_value(&mut self, id: HartReg) -> Option<u64> {
        Some(match id {
            HartReg::X(i) => self.m.x(i),
            HartReg::Pc => self.m.hart.pc,
            HartReg::F(i) => self.m.hart.f[i as usize],
            HartReg::Csr(c) => self.m.csr_read(c)?,
            HartReg::Priv => self.m.hart.prv as u64,
        })
    }
}

/// Data from GDB waiting on the socket: read its first byte. An end of file is an error
/// (GDB went away); nothing waiting is `None`.
fn poll(
    conn: &mut TcpStream,
) -> Result<Option<u8>, WaitForStopReasonError<String, std::io::Error>> {
    use std::os::fd::AsRawFd;
    let mut b = 0u8;
    // One system call: a non-blocking peek (the stream itself stays blocking).
    // SAFETY: the descriptor is the open socket's; the buffer is one valid byte.
    let n = unsafe {
        libc::recv(
            conn.as_raw_fd(),
            (&mut b as *mut u8).cast(),
            1,
            libc::MSG_PEEK | libc::MSG_DONTWAIT,
        )
    };
    match n {
        1 => ConnectionExt::read(conn)
            .map(Some)
            .map_err(WaitForStopReasonError::Connection),
        0 => Err(WaitForStopReasonError::Connection(std::io::Error::new(
            std::io::ErrorKind::UnexpectedEof,
            "gdb closed the connection",
        ))),
        _ => {
            let e = std::io::Error::last_os_error();
            match e.kind() {
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::Interrupted => Ok(None),
                _ => Err(WaitForStopReasonError::Connection(e)),
            }
        }
    }
}

struct EventLoop<S>(std::marker::PhantomData<S>);

impl<'a, S: Sink> BlockingEventLoop for EventLoop<Hart<'a, S>> {
    type Target = Hart<'a, S>;
    type Connection = TcpStream;
    type StopReason = SingleThreadStopReason<u64>;

    fn wait_for_stop_reason(
        target: &mut Hart<'a, S>,
        conn: &mut TcpStream,
    ) -> Result<Event<Self::StopReason>, WaitForStopReasonError<String, std::io::Error>> {
        target.wait(conn)
    }

    fn on_interrupt(_target: &mut Hart<'a, S>) -> Result<Option<Self::StopReason>, String> {
        Ok(Some(SingleThreadStopReason::Signal(Signal::SIGINT)))
    }
}

/// The architecture as GDB sees it: RV64 with its registers described by the XML.
enum Rv64Hart {}

impl Arch for Rv64Hart {
    type Usize = u64;
    type Registers = CoreRegs;
    type BreakpointKind = usize;
    type RegId = HartReg;
}

/// The `g` packet: x0..x31 and the pc (the other registers are read one by one).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct CoreRegs {
    x: [u64; 32],
    pc: u64,
}

impl Registers for CoreRegs {
    type ProgramCounter = u64;

    fn pc(&self) -> u64 {
        self.pc
    }

    fn gdb_serialize(&self, mut write_byte: impl FnMut(Option<u8>)) {
        for v in self.x.iter().chain(std::iter::once(&self.pc)) {
            for b in v.to_le_bytes() {
                write_byte(Some(b));
            }
        }
    }

    fn gdb_deserialize(&mut self, bytes: &[u8]) -> Result<(), ()> {
        if bytes.len() < 33 * 8 {
            return Err(());
        }
        let mut words = bytes.chunks_exact(8).map(|c| {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            u64::from_le_bytes(w)
        });
        for x in self.x.iter_mut() {
            *x = words.next().ok_or(())?;
        }
        self.pc = words.next().ok_or(())?;
        Ok(())
    }
}

/// A register by GDB's number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum HartReg {
    X(u8),
    Pc,
    F(u8),
    Csr(u16),
    Priv,
}

impl RegId for HartReg {
    fn from_raw_id(id: usize) -> Option<(Self, Option<NonZeroUsize>)> {
        let r = match id {
            0..=31 => HartReg::X(id as u8),
            32 => HartReg::Pc,
            33..=64 => HartReg::F((id - FIRST_FPR) as u8),
            PRIV_REGNUM => HartReg::Priv,
            _ if (FIRST_CSR..PRIV_REGNUM).contains(&id) => HartReg::Csr((id - FIRST_CSR) as u16),
            _ => return None,
        };
        // An FPR's size is the hart's FLEN (4 or 8 bytes), which only the target knows.
        let size = match r {
            HartReg::Priv => NonZeroUsize::new(1),
            HartReg::F(_) => None,
            _ => NonZeroUsize::new(8),
        };
        Some((r, size))
    }
}

/// The target description: GDB's feature names and register numbers. The FPRs are FLEN
/// bits (`flen`: 64 `ieee_double` with D, 32 `ieee_single` with F alone; no FPU feature
/// without F).
fn target_xml(csrs: &[u16], flen: u8) -> String {
    // GDB's own names: x8 is `fp` there (arch::GPR_ABI has Spike's `s0`).
    const X: [&str; 32] = [
        "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "fp", "s1", "a0", "a1", "a2", "a3", "a4",
        "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4",
        "t5", "t6",
    ];
    use arch::FPR_ABI as F;
    let mut s = String::from(
        "<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n<target version=\"1.0\">\n\
         <architecture>riscv:rv64</architecture>\n<feature name=\"org.gnu.gdb.riscv.cpu\">\n",
    );
    for (i, n) in X.iter().enumerate() {
        let ty = match i {
            1 => "code_ptr",
            2 | 8 => "data_ptr",
            _ => "int",
        };
        let _ = writeln!(
            s,
            "<reg name=\"{n}\" bitsize=\"64\" type=\"{ty}\" regnum=\"{i}\"/>"
        );
    }
    s.push_str("<reg name=\"pc\" bitsize=\"64\" type=\"code_ptr\" regnum=\"32\"/>\n</feature>\n");
    if flen != 0 {
        let ty = if flen == 32 {
            "ieee_single"
        } else {
            "ieee_double"
        };
        s.push_str("<feature name=\"org.gnu.gdb.riscv.fpu\">\n");
        for (i, n) in F.iter().enumerate() {
            let _ = writeln!(
                s,
                "<reg name=\"{n}\" bitsize=\"{flen}\" type=\"{ty}\" regnum=\"{}\"/>",
                FIRST_FPR + i
            );
        }
        for (c, n) in [(1, "fflags"), (2, "frm"), (3, "fcsr")] {
            let _ = writeln!(
                s,
                "<reg name=\"{n}\" bitsize=\"64\" type=\"int\" regnum=\"{}\" group=\"float\"/>",
                FIRST_CSR + c
            );
        }
        s.push_str("</feature>\n");
    }
    s.push_str("<feature name=\"org.gnu.gdb.riscv.csr\">\n");
    for &c in csrs {
        if let Some(n) = iss::csr::csr_name(c) {
            let _ = writeln!(
                s,
                "<reg name=\"{n}\" bitsize=\"64\" type=\"int\" regnum=\"{}\" group=\"system\"/>",
                FIRST_CSR + c as usize
            );
        }
    }
    s.push_str("</feature>\n<feature name=\"org.gnu.gdb.riscv.virtual\">\n");
    let _ = writeln!(
        s,
        "<reg name=\"priv\" bitsize=\"8\" type=\"int\" regnum=\"{PRIV_REGNUM}\" group=\"general\"/>"
    );
    s.push_str("</feature>\n</target>\n");
    s
}

/// An error reply with this errno (14: EFAULT, 22: EINVAL, 2: ENOENT).
fn errno(code: u8) -> TargetError<String> {
    TargetError::Errno(code)
}

impl<'a, S: Sink> Target for Hart<'a, S> {
    type Arch = Rv64Hart;
    type Error = String;

    fn base_ops(&mut self) -> BaseOps<'_, Self::Arch, Self::Error> {
        BaseOps::SingleThread(self)
    }

    fn support_breakpoints(&mut self) -> Option<BreakpointsOps<'_, Self>> {
        Some(self)
    }

    fn support_target_description_xml_override(
        &mut self,
    ) -> Option<TargetDescriptionXmlOverrideOps<'_, Self>> {
        Some(self)
    }

    fn guard_rail_implicit_sw_breakpoints(&self) -> bool {
        true
    }
}

impl<'a, S: Sink> SingleThreadBase for Hart<'a, S> {
    fn read_registers(&mut self, regs: &mut CoreRegs) -> TargetResult<(), Self> {
        for (i, x) in regs.x.iter_mut().enumerate() {
            *x = self.m.x(i as u8);
        }
        regs.pc = self.m.hart.pc;
        Ok(())
    }

    fn write_registers(&mut self, regs: &CoreRegs) -> TargetResult<(), Self> {
        for (i, &x) in regs.x.iter().enumerate() {
            self.m.set_x(i as u8, x);
        }
        self.m.set_pc(regs.pc);
        Ok(())
    }

    fn support_single_register_access(&mut self) -> Option<SingleRegisterAccessOps<'_, (), Self>> {
        Some(self)
    }

    fn read_addrs(&mut self, start: u64, data: &mut [u8]) -> TargetResult<usize, Self> {
        // Physical RAM: as much of the range as is RAM from its start (none: an error).
        let ram = &self.m.bus.ram;
        let Some(off) = ram.offset(start, 1) else {
            return Err(errno(14));
        };
        let n = (data.len() as u64).min(ram.size() - off as u64) as usize;
        data[..n].copy_from_slice(ram.bytes(off, n));
        Ok(n)
    }

    fn write_addrs(&mut self, start: u64, data: &[u8]) -> TargetResult<(), Self> {
        if self.m.host_write_phys(start, data) {
            Ok(())
        } else {
            Err(errno(14))
        }
    }

    fn support_resume(&mut self) -> Option<SingleThreadResumeOps<'_, Self>> {
        Some(self)
    }
}

impl<'a, S: Sink> SingleRegisterAccess<()> for Hart<'a, S> {
    fn read_register(&mut self, _: (), id: HartReg, buf: &mut [u8]) -> TargetResult<usize, Self> {
        let size = match id {
            HartReg::Priv => 1,
            HartReg::F(_) => self.fpr_bytes(),
            _ => 8,
        };
        match self.reg_value(id) {
            Some(v) => {
                let bytes = v.to_le_bytes();
                let dst = buf.get_mut(..size).ok_or(errno(22))?;
                dst.copy_from_slice(&bytes[..size]);
                Ok(size)
            }
            // A CSR that reads as nothing now: unavailable.
            None => Ok(0),
        }
    }

    fn write_register(&mut self, _: (), id: HartReg, val: &[u8]) -> TargetResult<(), Self> {
        if val.is_empty() || val.len() > 8 {
            return Err(errno(22));
        }
        let mut b = [0u8; 8];
        b[..val.len()].copy_from_slice(val);
        let v = u64::from_le_bytes(b);
        match id {
            HartReg::X(i) => self.m.set_x(i, v),
            HartReg::Pc => self.m.set_pc(v),
            HartReg::F(i) => {
                // FLEN 32 (F without D): the 32 bits GDB sends, NaN-boxed as the hart holds
                // them.
                let v = match self.fpr_bytes() {
                    0 => return Err(errno(22)),
                    4 if val.len() == 4 => tandem::params::nan_box32(v),
                    4 => return Err(errno(22)),
                    _ => v,
                };
                self.m.hart.f[i as usize] = v;
            }
            HartReg::Csr(c) => {
                if !self.m.set_reg(c, v) {
                    return Err(errno(22));
                }
                // Translation, PMP and the interrupt bits follow the new value.
                self.m.state_replaced();
            }
            HartReg::Priv => match Priv::from_bits(v) {
                Some(p) => {
                    self.m.set_priv_level(p);
                    self.m.state_replaced();
                }
                None => return Err(errno(22)),
            },
        }
        Ok(())
    }
}

impl<'a, S: Sink> SingleThreadResume for Hart<'a, S> {
    fn resume(&mut self, _signal: Option<Signal>) -> Result<(), String> {
        self.action = Action::Continue;
        Ok(())
    }

    fn support_single_step(&mut self) -> Option<SingleThreadSingleStepOps<'_, Self>> {
        Some(self)
    }
}

impl<'a, S: Sink> SingleThreadSingleStep for Hart<'a, S> {
    fn step(&mut self, _signal: Option<Signal>) -> Result<(), String> {
        self.action = Action::Step;
        Ok(())
    }
}

impl<'a, S: Sink> Breakpoints for Hart<'a, S> {
    fn support_sw_breakpoint(&mut self) -> Option<SwBreakpointOps<'_, Self>> {
        Some(self)
    }

    fn support_hw_breakpoint(&mut self) -> Option<HwBreakpointOps<'_, Self>> {
        Some(self)
    }

    fn support_hw_watchpoint(&mut self) -> Option<HwWatchpointOps<'_, Self>> {
        Some(self)
    }
}

impl<'a, S: Sink> SwBreakpoint for Hart<'a, S> {
    fn add_sw_breakpoint(&mut self, addr: u64, _kind: usize) -> TargetResult<bool, Self> {
        // Set twice (a breakpoint and a tbreak at one place) is still set.
        self.sw_breaks.insert(addr);
        Ok(true)
    }

    fn remove_sw_breakpoint(&mut self, addr: u64, _kind: usize) -> TargetResult<bool, Self> {
        Ok(self.sw_breaks.remove(&addr))
    }
}

impl<'a, S: Sink> HwBreakpoint for Hart<'a, S> {
    fn add_hw_breakpoint(&mut self, addr: u64, _kind: usize) -> TargetResult<bool, Self> {
        self.hw_breaks.insert(addr);
        Ok(true)
    }

    fn remove_hw_breakpoint(&mut self, addr: u64, _kind: usize) -> TargetResult<bool, Self> {
        Ok(self.hw_breaks.remove(&addr))
    }
}

impl<'a, S: Sink> HwWatchpoint for Hart<'a, S> {
    fn add_hw_watchpoint(
        &mut self,
        addr: u64,
        len: u64,
        kind: WatchKind,
    ) -> TargetResult<bool, Self> {
        self.watches.push((addr, len, kind));
        Ok(true)
    }

    fn remove_hw_watchpoint(
        &mut self,
        addr: u64,
        len: u64,
        kind: WatchKind,
    ) -> TargetResult<bool, Self> {
        match self.watches.iter().position(|&w| w == (addr, len, kind)) {
            Some(i) => {
                self.watches.remove(i);
                Ok(true)
            }
            None => Ok(false),
        }
    }
}

impl<'a, S: Sink> TargetDescriptionXmlOverride for Hart<'a, S> {
    fn target_description_xml(
        &self,
        annex: &[u8],
        offset: u64,
        length: usize,
        buf: &mut [u8],
    ) -> TargetResult<usize, Self> {
        if annex != b"target.xml" {
            return Err(errno(2));
        }
        let xml = self.xml.as_bytes();
        let start = (offset as usize).min(xml.len());
        let n = length.min(buf.len()).min(xml.len() - start);
        buf[..n].copy_from_slice(&xml[start..start + n]);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine(isa: &str) -> Machine {
        let isa = iss::isa::Isa::parse(isa).expect("an ISA string");
        Machine::new(iss::Config {
            isa,
            ..iss::Config::default()
        })
    }

    /// The FPRs are FLEN bits: 32-bit `ieee_single` registers for a hart with F and without
    /// D, read as their 32 bits and written NaN-boxed; 64-bit `ieee_double` with D; no FPU
    /// feature without F.
    #[test]
    fn fprs_follow_flen() {
        let mut m = machine("rv64imafc");
        let mut sink = iss::NoSink;
        let mut h = Hart::new(&mut m, &mut sink, None);
        assert!(h
            .xml
            .contains("<reg name=\"fa1\" bitsize=\"32\" type=\"ieee_single\" regnum=\"44\"/>"));
        assert!(!h.xml.contains("ieee_double"));
        h.write_register((), HartReg::F(11), &2.5f32.to_le_bytes())
            .ok()
            .unwrap();
        assert_eq!(h.m.hart.f[11], 0xffff_ffff_4020_0000, "NaN-boxed");
        let mut buf = [0u8; 8];
        assert_eq!(h.read_register((), HartReg::F(11), &mut buf).ok(), Some(4));
        assert_eq!(&buf[..4], &2.5f32.to_le_bytes());
        // A 64-bit value does not fit a 32-bit register.
        assert!(h
            .write_register((), HartReg::F(11), &1.0f64.to_le_bytes())
            .is_err());

        let mut m = machine("rv64gc");
        let mut h = Hart::new(&mut m, &mut sink, None);
        assert!(h
            .xml
            .contains("<reg name=\"fa1\" bitsize=\"64\" type=\"ieee_double\" regnum=\"44\"/>"));
        h.write_register((), HartReg::F(11), &1.0f64.to_le_bytes())
            .ok()
            .unwrap();
        assert_eq!(h.m.hart.f[11], 1.0f64.to_bits());
        assert_eq!(h.read_register((), HartReg::F(11), &mut buf).ok(), Some(8));

        let mut m = machine("rv64imac");
        let mut h = Hart::new(&mut m, &mut sink, None);
        assert!(!h.xml.contains("riscv.fpu"));
        assert_eq!(h.read_register((), HartReg::F(11), &mut buf).ok(), Some(0));
        assert!(h.write_register((), HartReg::F(11), &[0; 4]).is_err());
    }
}
