//! HTIF, the host-target interface of Spike and the riscv-tests: `tohost`/`fromhost` words in
//! RAM at the ELF's symbols, polled at the end of every quantum as Spike polls them.
//!
//! A command is `device << 56 | cmd << 48 | payload`:
//! - device 0, cmd 0, payload odd: the program exits with code `payload >> 1`;
//! - device 0, cmd 0, payload even: a proxied system call; `payload` points at
//!   `magic_mem[8] = {number, arg0, arg1, ...}`, the result goes to `magic_mem[0]` and
//!   `fromhost` gets `1`. Supported: write (64) to fd 1 or 2, exit (93) and exit_group (94);
//!   anything else returns -ENOSYS;
//! - device 1 (console), cmd 1: write the low byte of `payload`; `fromhost` gets the reply.

use crate::machine::Machine;
use crate::run::Stop;

const SYS_WRITE: u64 = 64;
const SYS_EXIT: u64 = 93;
const SYS_EXIT_GROUP: u64 = 94;
const ENOSYS: i64 = 38;

/// Where `tohost` and `fromhost` are, if the program has them.
#[derive(Clone, Copy, Debug, Default)]
pub struct Htif {
    pub tohost: Option<u64>,
    pub fromhost: Option<u64>,
}

impl Machine {
    /// Look at `tohost`; act on a command. Returns `Some` when the program exits.
    pub(crate) fn htif_poll(&mut self) -> Option<Stop> {
        let th = self.htif.tohost?;
        let v = self.bus.read_u64(th)?;
        if v == 0 {
            return None;
        }
        self.host_write_u64(th, 0);
        let device = v >> 56;
        let cmd = (v >> 48) & 0xff;
        let payload = v & ((1 << 48) - 1);
        match (device, cmd) {
            (0, 0) if payload & 1 == 1 => return Some(Stop::Exit(payload >> 1)),
            (0, 0) => {
                if let Some(code) = self.htif_syscall(payload) {
                    return Some(Stop::Exit(code));
                }
                self.htif_reply(device, cmd, 1);
            }
            (1, 1) => {
                self.bus.console.write_bytes(&[payload as u8]);
                self.htif_reply(device, cmd, 0x100 | (payload & 0xff));
            }
            // Console reads get no data; unknown devices are ignored, as by Spike.
            _ => {}
        }
        None
    }

    fn htif_reply(&mut self, device: u64, cmd: u64, data: u64) {
        if let Some(fh) = self.htif.fromhost {
            self.host_write_u64(fh, (device << 56) | (cmd << 48) | data);
        }
    }

    /// Run a proxied system call; `Some(code)` when it is an exit.
    fn htif_syscall(&mut self, magic: u64) -> Option<u64> {
        let mut args = [0u64; 8];
        for (i, a) in args.iter_mut().enumerate() {
            *a = self.bus.read_u64(magic + 8 * i as u64).unwrap_or(0);
        }
        let ret: i64 = match args[0] {
            SYS_WRITE if args[1] == 1 || args[1] == 2 => {
                let (buf, len) = (args[2], args[3]);
                let mut bytes = vec![0u8; len.min(1 << 24) as usize];
                if self.bus.read_phys(buf, &mut bytes) {
                    self.bus.console.write_bytes(&bytes);
                    bytes.len() as i64
                } else {
                    -14 // EFAULT
                }
            }
            SYS_EXIT | SYS_EXIT_GROUP => return Some(args[1]),
            _ => -ENOSYS,
        };
        self.host_write_u64(magic, ret as u64);
        None
    }

    /// The host writes guest RAM (keeps the decoded-instruction cache exact).
    pub fn host_write_u64(&mut self, pa: u64, v: u64) {
        if self.bus.write_u64(pa, v) {
            self.code_written(pa, 8);
        }
    }
}
