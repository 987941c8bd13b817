//! The decoded-instruction cache.
//!
//! Instructions are decoded once and kept per physical 4 KiB page: one slot per halfword
//! (2048 slots of 16 bytes), all pages in one flat vector so the run loop indexes
//! `insns[base + slot]` with a single bounds check. A bitmap over RAM pages marks the pages
//! that have decoded slots; stores to such pages (which always take the slow store path, see
//! `mmu.rs`) reset exactly the slots whose bytes they overwrote, so self-modifying code is
//! seen at once, with or without FENCE.I. FENCE.I drops the whole cache.

use crate::bus::{PAGE_SHIFT, PAGE_SIZE, RAM_BASE};
use crate::insn::Insn;
use std::collections::HashMap;

pub const SLOTS_PER_PAGE: usize = (PAGE_SIZE / 2) as usize;

/// When the cache holds this many pages, it is dropped and refilled (bounds host memory).
const MAX_PAGES: usize = 8192;

pub(crate) struct DecodeCache {
    /// Physical page address -> index of its first slot in `insns`.
    map: HashMap<u64, usize>,
    pub(crate) insns: Vec<Insn>,
    /// One bit per RAM page: has decoded slots.
    code: Vec<u64>,
}

impl DecodeCache {
    pub fn new() -> DecodeCache {
        DecodeCache {
            map: HashMap::new(),
            insns: Vec::new(),
            code: Vec::new(),
        }
    }

    #[inline]
    fn bit(page_pa: u64) -> Option<(usize, u64)> {
        let idx = page_pa.checked_sub(RAM_BASE)? >> PAGE_SHIFT;
        Some(((idx / 64) as usize, 1u64 << (idx % 64)))
    }

    /// Whether the RAM page at `page_pa` has decoded instructions.
    #[inline]
    pub fn is_code_page(&self, page_pa: u64) -> bool {
        match Self::bit(page_pa) {
            Some((w, m)) => self.code.get(w).is_some_and(|&x| x & m != 0),
            None => false,
        }
    }

    /// The first slot of the page at `page_pa`, creating it if needed. The bool is true when
    /// the page is new (the caller must then keep stores to it off the fast path).
    pub fn page(&mut self, page_pa: u64) -> (usize, bool) {
        if let Some(&b) = self.map.get(&page_pa) {
            return (b, false);
        }
        if self.map.len() >= MAX_PAGES {
            self.clear();
        }
        let base = self.insns.len();
        self.insns
            .resize(base + SLOTS_PER_PAGE, Insn::NOT_DECODED);
        self.map.insert(page_pa, base);
        if let Some((w, m)) = Self::bit(page_pa) {
            if self.code.len() <= w {
                self.code.resize(w + 1, 0);
            }
            self.code[w] |= m;
        }
        (base, true)
    }

    /// Forget the slots overlapping the bytes `[pa, pa+len)`: the instructions starting in
    /// them and the one that may start a halfword before (a 32-bit instruction).
    pub fn invalidate(&mut self, pa: u64, len: u64) {
        let first = pa.saturating_sub(2);
        let last = pa + len - 1;
        let mut a = first & !1;
        while a <= last {
            let page = a & !(PAGE_SIZE - 1);
            if let Some(&b) = self.map.get(&page) {
                let slot = ((a & (PAGE_SIZE - 1)) >> 1) as usize;
                self.insns[b + slot] = Insn::NOT_DECODED;
            }
            a += 2;
        }
    }

    /// Drop everything.
    pub fn clear(&mut self) {
        self.map.clear();
        self.insns.clear();
        self.code.iter_mut().for_each(|w| *w = 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::insn::Op;

    #[test]
    fn pages_and_invalidation() {
        let mut c = DecodeCache::new();
        let (b, new) = c.page(RAM_BASE + 0x1000);
        assert!(new);
        assert!(c.is_code_page(RAM_BASE + 0x1000));
        assert!(!c.is_code_page(RAM_BASE));
        for s in 0..4 {
            c.insns[b + s] = Insn::illegal(0, 4);
        }
        // A byte store at offset 4 kills slots 1 (a 32-bit insn at 2 covers 4) and 2.
        c.invalidate(RAM_BASE + 0x1004, 1);
        assert_eq!(c.insns[b].op, Op::Illegal);
        assert_eq!(c.insns[b + 1].op, Op::NotDecoded);
        assert_eq!(c.insns[b + 2].op, Op::NotDecoded);
        assert_eq!(c.insns[b + 3].op, Op::Illegal);
        assert_eq!(c.page(RAM_BASE + 0x1000), (b, false));
        c.clear();
        assert!(!c.is_code_page(RAM_BASE + 0x1000));
    }
}
