//! Sdtrig: the debug triggers (RISC-V Debug spec 1.0 chapter 5), as Spike has them.
//!
//! Four triggers (Spike's default `--triggers=4`), reached through `tselect` and `tdata1..3`;
//! `tinfo` lists the types every trigger supports: mcontrol (2), icount (3), itrigger (4),
//! etrigger (5), mcontrol6 (6) and disabled (15), with version 1. `mcontext` (0x7a8, which
//! Spike's commit log calls `hcontext`) and `scontext` (0x5a8) hold the values `tdata3`
//! (textra) compares with. There is no debugger, so `dmode` always reads 0 and action 1
//! (enter Debug Mode) becomes 0; tcontrol does not exist (as on Spike).
//!
//! What fires, and when (Spike's `triggers.cc`, `mmu.cc`, `execute.cc`, `processor.cc`):
//! - mcontrol and mcontrol6 compare an execute, load or store access's address (`select` 0)
//!   or its data (`select` 1: the loaded or stored value, or for execute each 16-bit parcel
//!   of the instruction) with tdata2: equal, NAPOT (mcontrol6 only: mcontrol's maskmax is 0),
//!   `>=`, `<`, and the two masked compares; in the modes its m/s/u bits name, and only when
//!   the action is allowed (action 0 raises a breakpoint exception, which M-mode allows with
//!   mstatus.MIE set and S-mode with SIE set when medeleg delegates breakpoints). A chain
//!   (`chain` = 1) matches only when every trigger in it does. Timing: execute triggers fire
//!   before the instruction; a load data trigger after the load (at the next instruction);
//!   others as mcontrol's `timing` says (mcontrol6: before). Before: a breakpoint exception
//!   at the instruction with the address in xtval, the instruction not executed; after: the
//!   instruction retires and the exception is taken before the next one (xepc its pc).
//! - icount counts instructions (and interrupts) in the modes it names; when the count goes
//!   from 1 to 0 it becomes pending, and the breakpoint fires before the next instruction in
//!   those modes, with xtval 0.
//! - itrigger and etrigger look at a trap's cause (tdata2's bit of it, `nmi` for cause 0 of
//!   an interrupt) in the privilege the trap came from: the breakpoint is taken right after
//!   the trap, at its handler, with xtval 0.
//!
//! Actions 2-4 (trace-on, trace-off, trace-notify; Spike aborts on them) are the ingress
//! spec's ("Using trigger outputs from the Debug Module"): no breakpoint, no trap; the trigger
//! pulses the ingress port's `trigger` sideband (bit 0 trace-on, bit 1 trace-off, bit 2
//! trace-notify) on the beat of the instruction that caused it: the [`Triggers::pulse`] bits
//! go to the sink ([`crate::Sink::trigger`]) right before that instruction's retirement is
//! reported. mcontrol and mcontrol6 (before or after) pulse with the instruction that
//! matched; icount with the instruction before which its breakpoint would have been taken;
//! itrigger and etrigger with the handler's first instruction. An instruction that does not
//! retire (it takes an exception) pulses nothing. The action field is WARL: 0, 2, 3 and 4
//! read back as written; 1 (Debug Mode, without a debugger) and values above 4 read 0. tinfo
//! is unchanged (it lists types, not actions).

use arch::Priv;

/// The number of triggers (Spike's default).
pub const TRIGGERS: usize = 4;

pub const TSELECT: u16 = 0x7a0;
pub const TDATA1: u16 = 0x7a1;
pub const TDATA2: u16 = 0x7a2;
pub const TDATA3: u16 = 0x7a3;
pub const TINFO: u16 = 0x7a4;
pub const MCONTEXT: u16 = 0x7a8;
pub const SCONTEXT: u16 = 0x5a8;

/// tinfo: the types supported and version 1.
pub const TINFO_VALUE: u64 =
    (1 << 2) | (1 << 3) | (1 << 4) | (1 << 5) | (1 << 6) | (1 << 15) | (1 << 24);
/// mcontext holds as many bits as textra's mhvalue (13) compares.
const MCONTEXT_MASK: u64 = 0x1fff;
const SCONTEXT_MASK: u64 = 0xffff_ffff;

/// The type of a trigger (tdata1.type).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Kind {
    #[default]
    Disabled,
    Mcontrol,
    Icount,
    Itrigger,
    Etrigger,
    Mcontrol6,
}

/// One trigger's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trigger {
    pub kind: Kind,
    pub m: bool,
    pub s: bool,
    pub u: bool,
    pub action: u8,
    /// mcontrol6's two hit bits (hit1:hit0); the others' one bit.
    pub hit: u8,
    pub select: bool,
    /// After (1) or before (0).
    pub timing: bool,
    pub chain: bool,
    pub match_: u8,
    pub execute: bool,
    pub store: bool,
    pub load: bool,
    pub count: u16,
    pub pending: bool,
    /// What tdata1 reads of count and pending: their values before the current instruction's
    /// count (Spike stashes them).
    pub count_read: u16,
    pub pending_read: bool,
    pub nmi: bool,
    pub tdata2: u64,
    mhvalue: u16,
    mhselect: u8,
    sbytemask: u8,
    svalue: u32,
    sselect: u8,
}

/// A memory operation a trigger can match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Execute,
    Store,
    Load,
}

/// What a trigger looks at of the hart when it matches.
#[derive(Clone, Copy, Debug)]
pub struct Ctx {
    pub prv: Priv,
    pub mstatus: u64,
    pub medeleg: u64,
    pub satp: u64,
}

/// A match: its timing (after: true) and action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    pub after: bool,
    pub action: u8,
}

fn field(v: u64, lo: u32, bits: u32) -> u64 {
    (v >> lo) & ((1u64 << bits) - 1)
}

fn bit(v: u64, b: u32) -> bool {
    (v >> b) & 1 != 0
}

/// Action values above 4 (and 1, Debug Mode, without a debugger) become 0.
fn legal_action(a: u64) -> u8 {
    if a > 4 || a == 1 {
        0
    } else {
        a as u8
    }
}

impl Trigger {
    fn tdata1(&self) -> u64 {
        let b = |x: bool, n: u32| (x as u64) << n;
        match self.kind {
            Kind::Disabled => 15 << 60,
            Kind::Mcontrol => {
                (2 << 60)
                    | b(self.hit != 0, 20)
                    | b(self.select, 19)
                    | b(self.timing, 18)
                    | self.mem_bits()
            }
            Kind::Mcontrol6 => {
                (6 << 60)
                    | b(self.hit & 2 != 0, 25)
                    | b(self.hit & 1 != 0, 22)
                    | b(self.select, 21)
                    | self.mem_bits()
            }
            Kind::Icount => {
                (3 << 60)
                    | b(self.hit != 0, 24)
                    | ((self.count_read as u64) << 10)
                    | b(self.m, 9)
                    | b(self.pending_read, 8)
                    | b(self.s, 7)
                    | b(self.u, 6)
                    | self.action as u64
            }
            Kind::Itrigger | Kind::Etrigger => {
                let ty = if self.kind == Kind::Itrigger { 4 } else { 5 };
                (ty << 60)
                    | b(self.hit != 0, 58)
                    | b(self.nmi, 10)
                    | b(self.m, 9)
                    | b(self.s, 7)
                    | b(self.u, 6)
                    | self.action as u64
            }
        }
    }

    /// The fields mcontrol and mcontrol6 share (bits 15:0).
    fn mem_bits(&self) -> u64 {
        let b = |x: bool, n: u32| (x as u64) << n;
        ((self.action as u64) << 12)
            | b(self.chain, 11)
            | ((self.match_ as u64) << 7)
            | b(self.m, 6)
            | b(self.s, 4)
            | b(self.u, 3)
            | b(self.execute, 2)
            | b(self.store, 1)
            | b(self.load, 0)
    }

    /// A tdata1 write (dmode already cleared) makes a new trigger of the type it names, keeping
    /// tdata2 and tdata3.
    fn from_tdata1(v: u64, old: &Trigger) -> Trigger {
        let mut t = Trigger {
            tdata2: old.tdata2,
            mhvalue: old.mhvalue,
            mhselect: old.mhselect,
            sbytemask: old.sbytemask,
            svalue: old.svalue,
            sselect: old.sselect,
            ..Trigger::default()
        };
        let kind = match v >> 60 {
            2 => Kind::Mcontrol,
            3 => Kind::Icount,
            4 => Kind::Itrigger,
            5 => Kind::Etrigger,
            6 => Kind::Mcontrol6,
            _ => return t,
        };
        t.kind = kind;
        match kind {
            Kind::Mcontrol | Kind::Mcontrol6 => {
                t.action = legal_action(field(v, 12, 4));
                t.chain = bit(v, 11);
                t.m = bit(v, 6);
                t.s = bit(v, 4);
                t.u = bit(v, 3);
                t.execute = bit(v, 2);
                t.store = bit(v, 1);
                t.load = bit(v, 0);
                let m = field(v, 7, 4) as u8;
                let napot = kind == Kind::Mcontrol6;
                t.match_ = match m {
                    0 | 2..=5 => m,
                    1 if napot => 1,
                    _ => 0,
                };
                let (select, timing) = if kind == Kind::Mcontrol {
                    t.hit = bit(v, 20) as u8;
                    (bit(v, 19), bit(v, 18))
                } else {
                    t.hit = ((bit(v, 25) as u8) << 1) | bit(v, 22) as u8;
                    (bit(v, 21), false)
                };
                t.select = select;
                // Load data triggers fire after the load; execute triggers before.
                t.timing = if select && t.load {
                    true
                } else if t.execute {
                    false
                } else {
                    timing
                };
            }
            Kind::Icount => {
                t.hit = bit(v, 24) as u8;
                t.count = field(v, 10, 14) as u16;
                t.count_read = t.count;
                t.m = bit(v, 9);
                t.pending = bit(v, 8);
                t.pending_read = t.pending;
                t.s = bit(v, 7);
                t.u = bit(v, 6);
                t.action = legal_action(field(v, 0, 6));
            }
            Kind::Itrigger | Kind::Etrigger => {
                t.hit = bit(v, 58) as u8;
                t.nmi = kind == Kind::Itrigger && bit(v, 10);
                t.m = bit(v, 9);
                t.s = bit(v, 7);
                t.u = bit(v, 6);
                t.action = legal_action(field(v, 0, 6));
            }
            Kind::Disabled => {}
        }
        t
    }

    fn tdata3(&self) -> u64 {
        ((self.mhvalue as u64) << 51)
            | ((self.mhselect as u64) << 48)
            | ((self.sbytemask as u64) << 36)
            | ((self.svalue as u64) << 2)
            | self.sselect as u64
    }

    fn set_tdata3(&mut self, v: u64) {
        self.mhvalue = field(v, 51, 13) as u16;
        // Without H, mhselect is 0 or 4 (mcontext).
        self.mhselect = if field(v, 48, 3) >= 4 { 4 } else { 0 };
        self.sbytemask = field(v, 36, 4) as u8;
        self.svalue = field(v, 2, 32) as u32;
        let sselect = field(v, 0, 2) as u8;
        self.sselect = if sselect <= 2 { sselect } else { 0 };
    }

    fn mode_match(&self, prv: Priv) -> bool {
        match prv {
            Priv::M => self.m,
            Priv::S => self.s,
            Priv::U => self.u,
            _ => false,
        }
    }

    /// textra: scontext or the ASID (sselect), mcontext (mhselect).
    fn textra_match(&self, t: &Triggers, ctx: &Ctx) -> bool {
        match self.sselect {
            1 => {
                let mut mask = (1u64 << 34) - 1;
                for i in 0..4 {
                    if self.sbytemask & (1 << i) != 0 {
                        mask &= !(0xff << (8 * i));
                    }
                }
                if t.scontext & mask != self.svalue as u64 & mask {
                    return false;
                }
            }
            2 => {
                let asid = (ctx.satp >> 44) & 0xffff;
                if asid != self.svalue as u64 & 0xffff {
                    return false;
                }
            }
            _ => {}
        }
        if self.mhselect == 4 && t.mcontext & ((1 << 14) - 1) != self.mhvalue as u64 {
            return false;
        }
        true
    }

    /// Whether the action may be taken now: a breakpoint exception in M-mode needs
    /// mstatus.MIE, in S-mode (when medeleg delegates breakpoints) sstatus.SIE.
    fn allow_action(&self, ctx: &Ctx) -> bool {
        if self.action != 0 {
            return true;
        }
        let mie = ctx.mstatus & crate::csr::MSTATUS_MIE != 0;
        let sie = ctx.mstatus & crate::csr::MSTATUS_SIE != 0;
        let deleg = (ctx.medeleg >> 3) & 1 != 0;
        (ctx.prv != Priv::M || mie) && (ctx.prv != Priv::S || !deleg || sie)
    }

    fn simple_match(&self, value: u64) -> bool {
        let d = self.tdata2;
        match self.match_ {
            0 => value == d,
            1 => {
                let ones = d.trailing_ones();
                // Spike computes the mask in 32-bit `int` arithmetic: 1 << (cto+1) as int.
                let mask = !((1i32.wrapping_shl(ones + 1)).wrapping_sub(1) as i64 as u64);
                value & mask == d & mask
            }
            2 => value >= d,
            3 => value < d,
            4 => {
                let (hi, lo) = (d >> 32, d & 0xffff_ffff);
                (value & 0xffff_ffff) & hi == lo
            }
            5 => {
                let (hi, lo) = (d >> 32, d & 0xffff_ffff);
                (value >> 32) & hi == lo
            }
            _ => false,
        }
    }
}

/// The trigger module.
#[derive(Clone, Debug, Default)]
pub struct Triggers {
    pub t: [Trigger; TRIGGERS],
    pub tselect: usize,
    pub mcontext: u64,
    pub scontext: u64,
    /// A match whose timing is after: the breakpoint taken before the next instruction (its
    /// xtval).
    pub deferred: Option<u64>,
    /// An itrigger's or etrigger's breakpoint, taken right after its trap, at the handler,
    /// before anything else (its xtval): Spike logs it as a trap of its own.
    pub after_trap: Option<u64>,
    /// Some trigger watches instruction fetches, data accesses or counts instructions: the
    /// hart runs one instruction at a time through `Machine::trig_before_fetch` (the reset
    /// state: false, nothing is checked).
    pub armed: bool,
    /// Some trigger watches traps (itrigger, etrigger).
    pub traps: bool,
    /// The exception being taken is a trigger's breakpoint: unlike other exceptions, it does
    /// not end the time quantum (Spike takes it inside its step loop).
    pub fired: bool,
    /// The last exception taken was a trigger's breakpoint.
    pub took: bool,
    /// The exception being taken is an itrigger's or etrigger's breakpoint (which they do not
    /// look at).
    pub took_after_trap: bool,
    /// The trap being taken is a trigger's breakpoint, for its [`crate::TrapRecord`].
    pub log_trigger: bool,
    /// Trace actions (bit 0 trace-on, 1 trace-off, 2 notify) that fired for the instruction
    /// being executed: handed to the sink before its retirement ([`crate::Sink::trigger`]).
    pub pulse: u8,
    /// Trace actions for the next instruction (an itrigger's or etrigger's, after its trap).
    pub pulse_next: u8,
}

/// The `trigger` sideband bit of a trace action (2 trace-on: bit 0, 3 trace-off: bit 1,
/// 4 trace-notify: bit 2); 0 for the others.
pub fn pulse_bit(action: u8) -> u8 {
    match action {
        2..=4 => 1 << (action - 2),
        _ => 0,
    }
}

impl Triggers {
    /// Read a trigger CSR. `None`: not one.
    pub fn read(&self, csr: u16) -> Option<u64> {
        let t = &self.t[self.tselect];
        Some(match csr {
            TSELECT => self.tselect as u64,
            TDATA1 => t.tdata1(),
            TDATA2 => t.tdata2,
            TDATA3 => t.tdata3(),
            TINFO => TINFO_VALUE,
            MCONTEXT => self.mcontext,
            SCONTEXT => self.scontext,
            _ => return None,
        })
    }

    /// Write a trigger CSR (tinfo is read-only: a write does nothing). False: not one.
    pub fn write(&mut self, csr: u16, v: u64) -> bool {
        let i = self.tselect;
        match csr {
            TSELECT => {
                if v < TRIGGERS as u64 {
                    self.tselect = v as usize;
                }
            }
            TDATA1 => {
                // No debugger: dmode is written 0.
                let v = v & !(1 << 59);
                self.t[i] = Trigger::from_tdata1(v, &self.t[i]);
            }
            TDATA2 => self.t[i].tdata2 = v,
            TDATA3 => self.t[i].set_tdata3(v),
            TINFO => {}
            MCONTEXT => self.mcontext = v & MCONTEXT_MASK,
            SCONTEXT => self.scontext = v & SCONTEXT_MASK,
            _ => return false,
        }
        self.update();
        true
    }

    /// Recompute what the hart must check.
    pub(crate) fn update(&mut self) {
        self.armed = self.t.iter().any(|t| match t.kind {
            Kind::Mcontrol | Kind::Mcontrol6 => t.execute || t.load || t.store,
            Kind::Icount => t.count > 0 || t.pending,
            _ => false,
        }) || self.deferred.is_some()
            || self.after_trap.is_some()
            || self.pulse_next != 0;
        self.traps = self
            .t
            .iter()
            .any(|t| matches!(t.kind, Kind::Itrigger | Kind::Etrigger));
    }

    /// Whether an access matches (Spike's `detect_memory_access_match`): the chains are
    /// followed; the match with the highest action wins.
    pub fn memory_match(&mut self, op: Op, addr: u64, data: Option<u64>, ctx: &Ctx) -> Option<Hit> {
        let mut ret: Option<Hit> = None;
        let mut chain_ok = true;
        for i in 0..TRIGGERS {
            let tr = self.t[i];
            if !chain_ok {
                chain_ok = !tr.chain;
                continue;
            }
            let r = self.trigger_match(i, op, addr, data, ctx);
            if let Some(h) = r {
                if !tr.chain && ret.is_none_or(|x| x.action < h.action) {
                    ret = Some(h);
                }
            }
            chain_ok = r.is_some() || !tr.chain;
        }
        ret
    }

    fn trigger_match(
        &mut self,
        i: usize,
        op: Op,
        addr: u64,
        data: Option<u64>,
        ctx: &Ctx,
    ) -> Option<Hit> {
        let tr = self.t[i];
        if !matches!(tr.kind, Kind::Mcontrol | Kind::Mcontrol6) {
            return None;
        }
        let wanted = match op {
            Op::Execute => tr.execute,
            Op::Store => tr.store,
            Op::Load => tr.load,
        };
        if !wanted || !tr.mode_match(ctx.prv) || !tr.textra_match(self, ctx) {
            return None;
        }
        let value = if tr.select { data? } else { addr };
        if !(tr.simple_match(value) && tr.allow_action(ctx)) {
            return None;
        }
        let t = &mut self.t[i];
        t.hit = match (t.kind, t.timing) {
            (Kind::Mcontrol, _) => 1,
            (_, true) => 3,
            (_, false) => 1,
        };
        Some(Hit {
            after: t.timing,
            action: t.action,
        })
    }

    /// icount before an instruction (Spike's `detect_icount_match`): the stashed read
    /// values, a pending trigger firing, and the counts going down. Also called when an
    /// interrupt is taken (its result then ignored).
    pub fn icount(&mut self, ctx: &Ctx) -> Option<Hit> {
        for t in self.t.iter_mut() {
            t.count_read = t.count;
            t.pending_read = t.pending;
        }
        let mut ret: Option<Hit> = None;
        for i in 0..TRIGGERS {
            let t = self.t[i];
            if t.kind != Kind::Icount
                || !t.mode_match(ctx.prv)
                || !t.textra_match(self, ctx)
                || !t.allow_action(ctx)
                || !t.pending
            {
                continue;
            }
            if ret.is_none_or(|r| r.action < t.action) {
                ret = Some(Hit {
                    after: false,
                    action: t.action,
                });
            }
            self.t[i].pending = false;
            self.t[i].hit = 1;
        }
        for i in 0..TRIGGERS {
            let t = self.t[i];
            if t.kind != Kind::Icount
                || !t.mode_match(ctx.prv)
                || !t.textra_match(self, ctx)
                || !t.allow_action(ctx)
            {
                continue;
            }
            let t = &mut self.t[i];
            if t.count >= 1 {
                if t.count == 1 {
                    t.pending = true;
                }
                t.count -= 1;
            }
        }
        self.update();
        if !self.armed {
            // Spike keeps stashing the read values before every instruction until a trigger
            // CSR is written: what tdata1 reads from now on is the state itself.
            for t in self.t.iter_mut() {
                t.count_read = t.count;
                t.pending_read = t.pending;
            }
        }
        ret
    }

    /// itrigger and etrigger after a trap with `cause` (`xcause`, interrupt bit 63) taken from
    /// `from`, the hart now in the trap's handler (`ctx`).
    pub fn trap_match(&mut self, xcause: u64, from: Priv, ctx: &Ctx) -> Option<Hit> {
        let interrupt = xcause >> 63 != 0;
        let code = xcause & !(1 << 63);
        let mut ret: Option<Hit> = None;
        for i in 0..TRIGGERS {
            let t = self.t[i];
            let fits = match t.kind {
                Kind::Itrigger => {
                    interrupt
                        && ((code == 0 && t.nmi) || (code < 64 && (t.tdata2 >> code) & 1 != 0))
                }
                Kind::Etrigger => !interrupt && code < 64 && (t.tdata2 >> code) & 1 != 0,
                _ => false,
            };
            if !fits || !t.mode_match(from) || !t.textra_match(self, ctx) || !t.allow_action(ctx) {
                continue;
            }
            self.t[i].hit = 1;
            if ret.is_none_or(|r| r.action < t.action) {
                ret = Some(Hit {
                    after: true,
                    action: t.action,
                });
            }
        }
        ret
    }
}

use crate::machine::Machine;
use arch::{Cause, Exception};

impl Machine {
    /// Whether the last exception the hart took was a debug trigger's breakpoint, which does
    /// not end Spike's time quantum as other exceptions do (for callers that keep Spike's
    /// time themselves while stepping).
    pub fn trigger_breakpoint_taken(&self) -> bool {
        self.hart.trig.took
    }

    fn trig_ctx(&self) -> Ctx {
        let c = &self.hart.csr;
        Ctx {
            prv: self.hart.prv,
            mstatus: c.mstatus,
            medeleg: c.medeleg,
            satp: c.satp,
        }
    }

    /// A trigger CSR was written: while any trigger is armed, instructions run one at a time
    /// and data accesses take the slow path (the TLBs keep no page: `resolve`), where the
    /// triggers are looked at.
    pub(crate) fn trig_changed(&mut self) {
        self.flush_tlb();
    }

    /// What a match does: a breakpoint exception now (before; `Err`), or before the next
    /// instruction (after). Actions 2-4 (trace) pulse the trigger sideband with this
    /// instruction, whatever the timing.
    fn trig_fire(&mut self, h: Hit, tval: u64) -> Result<(), ()> {
        if h.action != 0 {
            self.hart.trig.pulse |= pulse_bit(h.action);
            return Ok(());
        }
        if h.after {
            let t = &mut self.hart.trig;
            if t.deferred.is_none() {
                t.deferred = Some(tval);
                t.armed = true;
            }
            return Ok(());
        }
        self.exc = (Cause::Exception(Exception::Breakpoint), tval);
        self.hart.trig.fired = true;
        Err(())
    }

    /// Look at a data access (the triggers armed): `data` is the loaded or stored value, or
    /// `None` for a load's address before it is made. `Err`: a breakpoint exception is in
    /// `exc`.
    #[cold]
    #[inline(never)]
    pub(crate) fn trig_access(&mut self, op: Op, va: u64, data: Option<u64>) -> Result<(), ()> {
        // After a match that waits for the next instruction, the instruction matches no more.
        if self.hart.trig.deferred.is_some() {
            return Ok(());
        }
        let ctx = self.trig_ctx();
        match self.hart.trig.memory_match(op, va, data, &ctx) {
            Some(h) => self.trig_fire(h, va),
            None => Ok(()),
        }
    }

    /// Before the instruction at `pc` is fetched (the triggers armed): icount, a match that
    /// waited for this instruction, an execute trigger on `pc`. `Err`: a breakpoint exception
    /// is in `exc`.
    #[cold]
    #[inline(never)]
    pub(crate) fn trig_before_fetch(&mut self, pc: u64) -> Result<(), ()> {
        if let Some(tval) = self.hart.trig.after_trap.take() {
            self.hart.trig.update();
            self.hart.trig.took_after_trap = true;
            self.exc = (Cause::Exception(Exception::Breakpoint), tval);
            self.hart.trig.fired = true;
            return Err(());
        }
        // What is left of an instruction that reported none (a sink that wants nothing).
        self.hart.trig.pulse = std::mem::take(&mut self.hart.trig.pulse_next);
        let ctx = self.trig_ctx();
        if let Some(h) = self.hart.trig.icount(&ctx) {
            if h.action == 0 {
                self.exc = (Cause::Exception(Exception::Breakpoint), 0);
                self.hart.trig.fired = true;
                return Err(());
            }
            self.hart.trig.pulse |= pulse_bit(h.action);
        }
        if let Some(tval) = self.hart.trig.deferred.take() {
            self.hart.trig.update();
            self.exc = (Cause::Exception(Exception::Breakpoint), tval);
            self.hart.trig.fired = true;
            return Err(());
        }
        self.trig_access(Op::Execute, pc, None)
    }

    /// After the instruction at `pc` (`raw`, `len` bytes) was fetched: execute triggers on its
    /// parcels' bits (select), and on the address of its second parcel, as Spike fetches
    /// them (16 bits at a time).
    #[cold]
    #[inline(never)]
    pub(crate) fn trig_after_fetch(&mut self, pc: u64, raw: u32, len: u8) -> Result<(), ()> {
        self.trig_access(Op::Execute, pc, Some(raw as u64 & 0xffff))?;
        if len == 4 {
            let pc2 = pc.wrapping_add(2);
            self.trig_access(Op::Execute, pc2, None)?;
            self.trig_access(Op::Execute, pc2, Some((raw >> 16) as u64))?;
        }
        Ok(())
    }

    /// After a trap from `from` with `xcause` was taken (itrigger, etrigger watching): the
    /// breakpoint they raise, at the handler, with xtval 0, is taken before the handler's
    /// first instruction (through [`Machine::trig_before_fetch`]: the hart is armed).
    #[cold]
    #[inline(never)]
    pub(crate) fn trig_after_trap(&mut self, xcause: u64, from: Priv) {
        let ctx = self.trig_ctx();
        if let Some(h) = self.hart.trig.trap_match(xcause, from, &ctx) {
            if h.action == 0 {
                self.hart.trig.after_trap = Some(0);
            } else {
                self.hart.trig.pulse_next |= pulse_bit(h.action);
            }
            self.hart.trig.armed = true;
            self.flush_tlb();
        }
    }

    /// An interrupt is about to be taken (icount armed): it counts as an instruction, as
    /// Spike's `take_pending_interrupt` counts it.
    #[cold]
    #[inline(never)]
    pub(crate) fn trig_interrupt(&mut self) {
        let ctx = self.trig_ctx();
        let _ = self.hart.trig.icount(&ctx);
    }
}
