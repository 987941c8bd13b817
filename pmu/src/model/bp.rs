//! A branch predictor: what decides BRANCH_MISSES.
//!
//! - Conditional branches: gshare, a table of 2-bit saturating counters indexed by
//!   `(pc >> 1) XOR global history` (bimodal when the history is 0 bits). Counters start at
//!   1 (weakly not taken); the history shifts in 1 for taken. Only the direction can be
//!   mispredicted: the target of a conditional branch is known at decode.
//! - Direct jumps and calls (`jal`): never mispredicted (the target is known at decode); a
//!   call pushes its return address.
//! - Returns: predicted by the return address stack (a circular stack: a push past its depth
//!   overwrites the oldest entry; a pop of an empty stack predicts nothing, a miss).
//! - Other indirect jumps and calls (`jalr`): predicted by a direct-mapped BTB indexed by
//!   `pc >> 1`, holding the last target; a miss or a different target is a misprediction.
//!   An indirect call also pushes its return address; a co-routine swap pops and then pushes.

use crate::config::BpConfig;
use arch::Itype;

/// How a transfer was predicted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Not a transfer the predictor sees.
    NotPredicted,
    Correct,
    /// The direction of a conditional branch was wrong.
    DirectionMiss,
    /// The target of an indirect jump, call or return was wrong.
    TargetMiss,
}

#[derive(Clone, Debug)]
pub struct BranchPredictor {
    pht: Vec<u8>,
    pht_mask: u64,
    history: u64,
    history_mask: u64,
    btb: Vec<(u64, u64)>,
    btb_mask: u64,
    ras: Vec<u64>,
    /// Index of the next push.
    ras_top: usize,
    ras_len: usize,
}

impl BranchPredictor {
    pub fn new(cfg: &BpConfig) -> BranchPredictor {
        BranchPredictor {
            pht: vec![1; 1 << cfg.table_bits],
            pht_mask: (1 << cfg.table_bits) - 1,
            history: 0,
            history_mask: (1u64 << cfg.history_bits) - 1,
            btb: vec![(u64::MAX, 0); cfg.btb_entries as usize],
            btb_mask: cfg.btb_entries as u64 - 1,
            ras: vec![0; cfg.ras_depth as usize],
            ras_top: 0,
            ras_len: 0,
        }
    }

    fn push(&mut self, ret: u64) {
        self.ras[self.ras_top] = ret;
        self.ras_top = (self.ras_top + 1) % self.ras.len();
        self.ras_len = (self.ras_len + 1).min(self.ras.len());
    }

    fn pop(&mut self) -> Option<u64> {
        if self.ras_len == 0 {
            return None;
        }
        self.ras_top = (self.ras_top + self.ras.len() - 1) % self.ras.len();
        self.ras_len -= 1;
        Some(self.ras[self.ras_top])
    }

    fn conditional(&mut self, pc: u64, taken: bool) -> Outcome {
        let i = (((pc >> 1) ^ self.history) & self.pht_mask) as usize;
        let ctr = &mut self.pht[i];
        let predicted = *ctr >= 2;
        *ctr = if taken {
            (*ctr + 1).min(3)
        } else {
            ctr.saturating_sub(1)
        };
        self.history = ((self.history << 1) | taken as u64) & self.history_mask;
        if predicted == taken {
            Outcome::Correct
        } else {
            Outcome::DirectionMiss
        }
    }

    fn indirect(&mut self, pc: u64, target: u64) -> Outcome {
        let e = &mut self.btb[((pc >> 1) & self.btb_mask) as usize];
        let hit = *e == (pc, target);
        *e = (pc, target);
        if hit {
            Outcome::Correct
        } else {
            Outcome::TargetMiss
        }
    }

    /// Predict and train on one retired transfer at `pc` (`len` bytes long) going to
    /// `target` (for a not-taken branch, anything).
    pub fn predict(&mut self, pc: u64, len: u64, target: u64, itype: Itype) -> Outcome {
        use Itype::*;
        let link = pc.wrapping_add(len);
        match itype {
            TakenBranch => self.conditional(pc, true),
            NontakenBranch => self.conditional(pc, false),
            InferableCall => {
                self.push(link);
                Outcome::Correct
            }
            InferableTailCall | OtherInferableJump => Outcome::Correct,
            UninferableCall => {
                let o = self.indirect(pc, target);
                self.push(link);
                o
            }
            Return => match self.pop() {
                Some(t) if t == target => Outcome::Correct,
                _ => Outcome::TargetMiss,
            },
            CoroutineSwap => {
                let o = match self.pop() {
                    Some(t) if t == target => Outcome::Correct,
                    _ => Outcome::TargetMiss,
                };
                self.push(link);
                o
            }
            UninferableJump | UninferableTailCall | OtherUninferableJump => {
                self.indirect(pc, target)
            }
            None | Exception | Interrupt | TrapReturn | Reserved7 => Outcome::NotPredicted,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bp(history_bits: u32) -> BranchPredictor {
        BranchPredictor::new(&BpConfig {
            table_bits: 4,
            history_bits,
            btb_entries: 4,
            ras_depth: 2,
        })
    }

    #[test]
    fn bimodal_learns_a_loop() {
        let mut b = bp(0);
        // Counter at 1: taken mispredicts once (1 -> 2), then predicts taken.
        assert_eq!(
            b.predict(0x100, 4, 0x80, Itype::TakenBranch),
            Outcome::DirectionMiss
        );
        assert_eq!(
            b.predict(0x100, 4, 0x80, Itype::TakenBranch),
            Outcome::Correct
        );
        assert_eq!(
            b.predict(0x100, 4, 0x80, Itype::TakenBranch),
            Outcome::Correct
        );
        // Loop exit: mispredicted (3 -> 2), next taken still predicted.
        assert_eq!(
            b.predict(0x100, 4, 0, Itype::NontakenBranch),
            Outcome::DirectionMiss
        );
        assert_eq!(
            b.predict(0x100, 4, 0x80, Itype::TakenBranch),
            Outcome::Correct
        );
    }

    #[test]
    fn gshare_learns_alternation() {
        // T, N, T, N...: bimodal keeps missing, gshare with history learns it.
        let mut b = bp(2);
        let mut misses = 0;
        for i in 0..40 {
            let it = if i % 2 == 0 {
                Itype::TakenBranch
            } else {
                Itype::NontakenBranch
            };
            if b.predict(0x40, 4, 0x80, it) != Outcome::Correct {
                misses += 1;
                assert!(i < 8, "still missing at {i}");
            }
        }
        assert!(misses > 0);
    }

    #[test]
    fn ras_and_btb() {
        let mut b = bp(0);
        // call at 0x10 (4 bytes), call at 0x200 (compressed), two returns.
        assert_eq!(
            b.predict(0x10, 4, 0x200, Itype::InferableCall),
            Outcome::Correct
        );
        assert_eq!(
            b.predict(0x200, 2, 0x300, Itype::InferableCall),
            Outcome::Correct
        );
        assert_eq!(b.predict(0x310, 2, 0x202, Itype::Return), Outcome::Correct);
        assert_eq!(b.predict(0x210, 2, 0x14, Itype::Return), Outcome::Correct);
        // Empty stack.
        assert_eq!(b.predict(0x20, 2, 0x14, Itype::Return), Outcome::TargetMiss);
        // Depth 2: the third push overwrites the oldest.
        for pc in [0x1000u64, 0x2000, 0x3000] {
            b.predict(pc, 4, pc + 0x100, Itype::InferableCall);
        }
        assert_eq!(b.predict(0, 2, 0x3004, Itype::Return), Outcome::Correct);
        assert_eq!(b.predict(0, 2, 0x2004, Itype::Return), Outcome::Correct);
        assert_eq!(b.predict(0, 2, 0x1004, Itype::Return), Outcome::TargetMiss);
        // BTB: first indirect jump misses, same target hits, new target misses.
        assert_eq!(
            b.predict(0x40, 4, 0x900, Itype::OtherUninferableJump),
            Outcome::TargetMiss
        );
        assert_eq!(
            b.predict(0x40, 4, 0x900, Itype::OtherUninferableJump),
            Outcome::Correct
        );
        assert_eq!(
            b.predict(0x40, 4, 0x904, Itype::OtherUninferableJump),
            Outcome::TargetMiss
        );
        assert_eq!(
            b.predict(0x40, 4, 0, Itype::TrapReturn),
            Outcome::NotPredicted
        );
    }
}
