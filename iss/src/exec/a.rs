//! The A extension: LR/SC with a one-address reservation, and the AMOs (unprivileged spec
//! chapter 8).
//!
//! Atomics must be naturally aligned: a misaligned LR raises load-address-misaligned, a
//! misaligned SC or AMO raises store/AMO-address-misaligned (never emulated, whatever the
//! misaligned-access option says). An atomic to a device region raises an access fault (the
//! devices do not support atomics). SC translates and checks its address even when it has no
//! reservation, so an SC to a bad address faults rather than failing quietly, as on Spike.
//! Any SC clears the reservation.

use super::tri;
use crate::insn::Insn;
use crate::machine::Machine;
use crate::mmu::Access;
use crate::ops::{AmoOp, Atomic};
use crate::record::MemKind;
use crate::trigger::Op as TrigOp;
use pmu::AccessKind;

impl Machine {
    #[inline(never)]
    pub(crate) fn exec_atomic<const REC: bool>(&mut self, d: &Insn, npc: u64) -> u64 {
        let atomic = d.op.facts().atomic;
        let size = atomic.size();
        let va = self.rs1(d);
        let src = self.rs2(d);
        let sext = |v: u64| -> u64 {
            if size == 4 {
                v as i32 as i64 as u64
            } else {
                v
            }
        };
        match atomic {
            Atomic::Lr(_) => {
                if self.hart.trig.armed {
                    tri!(self.trig_access(TrigOp::Load, va, None));
                }
                let pa = tri!(self.atomic_addr(va, size, Access::Load, AccessKind::Read));
                let v = self.ram_read(pa, size);
                if self.hart.trig.armed {
                    tri!(self.trig_access(TrigOp::Load, va, Some(v)));
                }
                if REC {
                    self.record_mem(MemKind::Load, va, pa, size, v);
                }
                self.hart.reservation = Some(pa);
                self.wx::<REC>(d, sext(v));
                npc
            }
            Atomic::Sc(_) => {
                let pa = tri!(self.atomic_addr(va, size, Access::Store, AccessKind::Write));
                let ok = self.hart.reservation == Some(pa);
                self.hart.reservation = None;
                if ok {
                    let v = if size == 4 { src & 0xffff_ffff } else { src };
                    // A trigger's breakpoint: the SC did not happen, the reservation stays.
                    if self.hart.trig.armed && self.trig_access(TrigOp::Store, va, Some(v)).is_err()
                    {
                        self.hart.reservation = Some(pa);
                        return crate::exec::TRAP;
                    }
                    self.ram_write(pa, size, v);
                    if REC {
                        self.record_mem(MemKind::Store, va, pa, size, v);
                    }
                } else if REC {
                    self.rec.sc_failed = true;
                    self.rec.sc_addr = va;
                }
                self.wx::<REC>(d, (!ok) as u64);
                self.after_store(npc)
            }
            Atomic::Amo(_, op) => {
                let pa = tri!(self.atomic_addr(va, size, Access::Store, AccessKind::Atomic));
                let old = self.ram_read(pa, size);
                let (a, b) = (sext(old), sext(src));
                let new = match op {
                    AmoOp::Swap => b,
                    AmoOp::Add => a.wrapping_add(b),
                    AmoOp::Xor => a ^ b,
                    AmoOp::And => a & b,
                    AmoOp::Or => a | b,
                    AmoOp::Min => (a as i64).min(b as i64) as u64,
                    AmoOp::Max => (a as i64).max(b as i64) as u64,
                    AmoOp::Minu if size == 4 => (a as u32).min(b as u32) as u64,
                    AmoOp::Maxu if size == 4 => (a as u32).max(b as u32) as u64,
                    AmoOp::Minu => a.min(b),
                    AmoOp::Maxu => a.max(b),
                };
                let new = if size == 4 { new & 0xffff_ffff } else { new };
                if self.hart.trig.armed {
                    // As Spike: a load (address, then value), then a store.
                    tri!(self.trig_access(TrigOp::Load, va, None));
                    tri!(self.trig_access(TrigOp::Load, va, Some(old)));
                    tri!(self.trig_access(TrigOp::Store, va, Some(new)));
                }
                self.ram_write(pa, size, new);
                if REC {
                    self.record_mem(MemKind::Load, va, pa, size, old);
                    self.record_mem(MemKind::Store, va, pa, size, new);
                }
                self.wx::<REC>(d, a);
                self.after_store(npc)
            }
            // Only the atomic operations' rows bind this handler.
            Atomic::No => self.illegal(d),
        }
    }
}
