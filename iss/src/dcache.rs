//! The decoded-instruction cache: straight-line blocks of decoded instructions.
//!
//! A *block* is the run of instructions from an entry point up to and including the first
//! instruction that may change control flow or machine state the run loop depends on (a
//! branch, jump, CSR access, system instruction, an illegal encoding), or up to the end of its
//! 4 KiB page. Blocks are decoded once into one arena, one after another, each followed by an
//! end marker ([`Op::NotDecoded`], whose handler says "look up the next block"), so the run
//! loop steps through a block by index, never waiting on the previous instruction to know
//! where the next one is.
//!
//! Blocks are found per physical page: for each code page, a table maps each halfword slot to
//! the block starting there. A bitmap over slots marks the bytes some block was decoded from.
//! A store over such bytes (seen on the store fast path through the store TLB's code mark, or
//! on the slow path through the page bitmap) drops every block of that page and sets `dirty`,
//! which makes the running block stop after the store; so self-modifying code is seen at
//! once, with or without FENCE.I. Stores to data that merely shares a page with code cost
//! nothing. FENCE.I drops every block.
//!
//! The arena is held by the run loop while it executes ([`take`], [`put`]): handlers read
//! their operands in place through a shared reference while they mutate the rest of the
//! machine. Dropping blocks only touches the tables, so it is safe meanwhile; the arena's
//! unreachable entries are reclaimed when it grows past a limit.
//!
//! [`take`]: DecodeCache::take
//! [`put`]: DecodeCache::put

use crate::bus::{PAGE_SHIFT, PAGE_SIZE};
use crate::insn::{Insn, Op};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

pub const SLOTS_PER_PAGE: usize = (PAGE_SIZE / 2) as usize;

/// The longest block (bounds the work a decode does ahead of execution).
pub const MAX_BLOCK: usize = 64;
// An instruction's place in its block, in halfwords, is a u8 (`Insn::off`).
const _: () = assert!(2 * (MAX_BLOCK - 1) <= u8::MAX as usize);

/// When the arena holds this many entries, everything is dropped and decoded again.
const MAX_ARENA: usize = 1 << 22;
// A link (u32) holds an arena place (`exec::Ix`).
const _: () = assert!(MAX_ARENA * crate::exec::IX_STEP <= u32::MAX as usize);

/// Whether an instruction ends a block: it may go anywhere but the next instruction, or it
/// changes something the run loop must look at again (the instruction table's
/// [`crate::ops::Block`]).
#[inline]
pub fn ends_block(op: Op) -> bool {
    op.facts().block.ends()
}

/// Whether an operation starts a block of its own: a CSR instruction or SCTRCLR, so that
/// everything before it has been accounted for when it reads a counter or restarts CTR's
/// cycle count (see `events.rs`).
#[inline]
pub fn starts_block(op: Op) -> bool {
    op.facts().block.starts()
}

/// The hash of the page map's keys, physical page addresses: one multiply (Fibonacci
/// hashing), its high half folded into the low bits the table indexes by. The map holds the
/// pages beyond [`DENSE_PAGES`] (the rest are in an array), looked up on every run-loop entry
/// and store-TLB fill; its keys come from the guest's own page tables, not from an
/// adversary.
#[derive(Default)]
struct PageHasher(u64);

impl Hasher for PageHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }

    #[inline]
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0 ^ v).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 32)
    }
}

/// RAM pages (counted from RAM's base) whose page numbers [`DecodeCache`] keeps in an array
/// rather than its map: the first 4 GiB (an array of at most 4 MiB, grown as code is found).
const DENSE_PAGES: u64 = 1 << 20;

pub(crate) struct DecodeCache {
    /// Physical page address -> page number (index into the per-page tables), for the pages
    /// `dense` does not cover.
    map: HashMap<u64, usize, BuildHasherDefault<PageHasher>>,
    /// Per RAM page from RAM's base, below [`DENSE_PAGES`]: its page number plus one, or 0
    /// when it has no tables. The run loop looks its page up on every entry (a Linux boot:
    /// 2 million times), which the array does in a few instructions.
    dense: Vec<u32>,
    /// Per page, per slot: arena index of the block starting there (0: none).
    entry: Vec<u32>,
    /// Per page, per slot: some block was decoded from this halfword.
    covered: Vec<u64>,
    /// The blocks; index 0 is unused so that 0 can mean "no block".
    arena: Vec<Insn>,
    /// Per arena entry (as long as the arena): for a direct jump or branch, the block its
    /// target starts; for an end marker, the block that follows; when that block is in the
    /// same page and was found once (0: not yet, or never). See `exec::chain_link`. A block
    /// is kept as its place in the arena (`exec::Ix`: its index times 16), which the handlers
    /// address it by ([`MAX_ARENA`] times 16 fits).
    links: Vec<u32>,
    /// All zeros, at least as long as `links`: the links handlers follow when chaining is
    /// off ([`DecodeCache::links_for`]).
    no_links: Vec<u32>,
    /// Per arena entry (as long as the arena), for an entry that starts a block: its
    /// compiled code's address, or how many times chains entered it before it was compiled
    /// (`crate::jit`: [`crate::jit::NATIVE_MIN`], [`crate::jit::NEVER`]); for plain chains,
    /// then for simple runs, which leave effects (`fx`).
    native: [Vec<usize>; 2],
    /// The compiled code ([`crate::jit`]), dropped with the arena.
    pub(crate) code_mem: crate::jit::CodeMem,
    /// Per block, what a run through it means for the PMU and CTR (its end marker's `bits`
    /// index it).
    pub meta: crate::events::BlockMetas,
    /// One bit per RAM page: has blocks.
    code: Vec<u64>,
    /// The running block must stop after the current instruction (a store checks it, see
    /// `Machine::after_store`): blocks were dropped, or the store asked the run to end (the
    /// test finisher).
    pub dirty: bool,
    /// RAM's lowest address.
    ram_base: u64,
}

impl DecodeCache {
    /// A cache for code in RAM that starts at `ram_base` (the code-page bitmap counts pages
    /// from there).
    pub fn new(ram_base: u64) -> DecodeCache {
        DecodeCache {
            ram_base,
            map: HashMap::default(),
            dense: Vec::new(),
            entry: Vec::new(),
            covered: Vec::new(),
            arena: vec![Insn::NOT_DECODED],
            links: vec![0],
            no_links: vec![0; 2],
            native: [vec![0], vec![0]],
            code_mem: crate::jit::CodeMem::new(),
            meta: crate::events::BlockMetas::default(),
            code: Vec::new(),
            dirty: false,
        }
    }

    #[inline]
    fn bit(&self, page_pa: u64) -> Option<(usize, u64)> {
        let idx = page_pa.checked_sub(self.ram_base)? >> PAGE_SHIFT;
        Some(((idx / 64) as usize, 1u64 << (idx % 64)))
    }

    /// Whether the RAM page at `page_pa` has blocks.
    #[inline]
    pub fn is_code_page(&self, page_pa: u64) -> bool {
        match self.bit(page_pa) {
            Some((w, m)) => self.code.get(w).is_some_and(|&x| x & m != 0),
            None => false,
        }
    }

    /// The page number of the page at `page_pa`, creating its tables if needed. The bool is
    /// true when the page is new (the caller must then flush the store TLB, whose entries carry
    /// the mark of code pages).
    #[inline]
    pub fn page(&mut self, page_pa: u64) -> (usize, bool) {
        match self.dense_index(page_pa) {
            Some(i) => match self.dense.get(i) {
                Some(&p) if p != 0 => (p as usize - 1, false),
                _ => self.new_page(page_pa),
            },
            None => match self.map.get(&page_pa) {
                Some(&p) => (p, false),
                None => self.new_page(page_pa),
            },
        }
    }

    /// `page_pa`'s index in `dense`, if it has one.
    #[inline(always)]
    fn dense_index(&self, page_pa: u64) -> Option<usize> {
        let i = page_pa.wrapping_sub(self.ram_base) >> PAGE_SHIFT;
        (i < DENSE_PAGES).then_some(i as usize)
    }

    /// Give the page at `page_pa` (which has none) its tables.
    #[cold]
    #[inline(never)]
    fn new_page(&mut self, page_pa: u64) -> (usize, bool) {
        let p = self.entry.len() / SLOTS_PER_PAGE;
        self.entry.resize((p + 1) * SLOTS_PER_PAGE, 0);
        self.covered.resize((p + 1) * SLOTS_PER_PAGE / 64, 0);
        match self.dense_index(page_pa) {
            Some(i) => {
                if self.dense.len() <= i {
                    self.dense.resize(i + 1, 0);
                }
                self.dense[i] = p as u32 + 1;
            }
            None => {
                self.map.insert(page_pa, p);
            }
        }
        if let Some((w, m)) = self.bit(page_pa) {
            if self.code.len() <= w {
                self.code.resize(w + 1, 0);
            }
            self.code[w] |= m;
        }
        (p, true)
    }

    /// The page number of the page at `page_pa`, if it has tables.
    #[inline]
    pub fn page_of(&self, page_pa: u64) -> Option<usize> {
        if !self.is_code_page(page_pa) {
            return None;
        }
        match self.dense_index(page_pa) {
            Some(i) => self
                .dense
                .get(i)
                .filter(|&&p| p != 0)
                .map(|&p| p as usize - 1),
            None => self.map.get(&page_pa).copied(),
        }
    }

    /// The block starting at `slot` of page `p` (an arena index), if decoded.
    #[inline(always)]
    pub fn block(&self, p: usize, slot: usize) -> u32 {
        self.entry[p * SLOTS_PER_PAGE + slot]
    }

    /// The address of page `p`'s table of blocks by slot, as [`DecodeCache::block`] reads
    /// it, for the handlers that chain: valid until the next `build` (which may grow the
    /// tables); dropping blocks only writes zeros into it.
    #[inline]
    pub fn entries(&self, p: usize) -> usize {
        self.entry[p * SLOTS_PER_PAGE..(p + 1) * SLOTS_PER_PAGE].as_ptr() as usize
    }

    /// The address of the links handlers follow in a block of `len` entries: with chaining
    /// `on`, the cache's own (`len` is the arena's: the cache keeps a link per arena entry,
    /// `build` growing the links with the arena and clearing both together, and a link is 0
    /// or the arena index of a block); off, `len` zeros, which send every transfer back to
    /// the run loop. Valid until the next `build`.
    #[inline]
    pub fn links_for(&mut self, on: bool, len: usize) -> usize {
        if on {
            debug_assert!(
                len <= self.links.len(),
                "{len} of {} links",
                self.links.len()
            );
            return self.links.as_ptr() as usize;
        }
        if self.no_links.len() < len {
            self.no_links.resize(len.next_power_of_two(), 0);
        }
        self.no_links.as_ptr() as usize
    }

    /// Link arena entry `k` to the block at place `to` in the arena (`exec::Ix`, its index
    /// times 16).
    #[inline]
    pub fn set_link(&mut self, k: usize, to: u32) {
        if let Some(l) = self.links.get_mut(k) {
            *l = to;
        }
    }

    /// The native word of the block at arena index `k` ([`DecodeCache::native`]), for
    /// simple runs (`fx`) or not.
    ///
    /// # Safety
    ///
    /// `k` is an index of the arena (the native words are as long).
    #[inline(always)]
    pub(crate) unsafe fn native(&self, fx: bool, k: usize) -> usize {
        let n = &self.native[fx as usize];
        debug_assert!(k < n.len());
        // SAFETY: the caller's promise.
        unsafe { *n.get_unchecked(k) }
    }

    /// Set the native word of the block at arena index `k`, for simple runs (`fx`) or not.
    #[inline(always)]
    pub(crate) fn set_native(&mut self, fx: bool, k: usize, v: usize) {
        if let Some(n) = self.native[fx as usize].get_mut(k) {
            *n = v;
        }
    }

    /// Hand the arena to the run loop.
    #[inline]
    pub fn take(&mut self) -> Vec<Insn> {
        std::mem::take(&mut self.arena)
    }

    /// Take the arena back.
    #[inline]
    pub fn put(&mut self, arena: Vec<Insn>) {
        self.arena = arena;
    }

    /// Decode a block starting at `slot` of page `p` into `arena` (the run loop's), reading the
    /// page's bytes through `halfword(slot)`. Returns the block's arena index, or 0 when the
    /// first instruction crosses into the next page (it must run uncached).
    #[inline(never)]
    pub fn build(
        &mut self,
        arena: &mut Vec<Insn>,
        p: usize,
        slot: usize,
        halfword: impl Fn(usize) -> u16,
        decode: impl Fn(u32) -> Insn,
    ) -> u32 {
        if arena.len() >= MAX_ARENA {
            self.drop_all();
            arena.clear();
            arena.push(Insn::NOT_DECODED);
            self.links.clear();
            self.links.push(0);
            for n in &mut self.native {
                n.clear();
                n.push(0);
            }
            self.code_mem.reset();
            self.meta.clear();
        }
        let start = arena.len();
        // The block starts inside code already decoded (where a budget cut a block, or a
        // jump into the middle of one): it ends where the next decoded block starts.
        let first = p * SLOTS_PER_PAGE + slot;
        let inside = self.covered[first / 64] & (1 << (first % 64)) != 0;
        let mut s = slot;
        while s < SLOTS_PER_PAGE && arena.len() - start < MAX_BLOCK {
            let lo = halfword(s);
            let (bits, len) = if lo & 3 != 3 {
                (lo as u32, 1)
            } else if s + 1 < SLOTS_PER_PAGE {
                (lo as u32 | (halfword(s + 1) as u32) << 16, 2)
            } else {
                break; // crosses into the next page
            };
            let mut d = decode(bits);
            if starts_block(d.op) && arena.len() > start {
                break;
            }
            // Inside decoded code, a block starts here: end at it and fall through into it,
            // rather than decode its instructions again. Without this, a run that resumes
            // where a budget cut a block in a long straight-line stretch decodes every block
            // after it anew at the cut's offset, and a loop longer than a few blocks, cut at a
            // different place each quantum, fills the arena with copies of itself
            // (`programs/micro/straight_*`). A block that starts in code not yet decoded runs
            // on as usual: ending it at a join point decoded earlier would cost a chain step
            // on every pass (coremark: 3.8% more host instructions).
            if inside && arena.len() > start && self.entry[p * SLOTS_PER_PAGE + s] != 0 {
                break;
            }
            // At most MAX_BLOCK instructions of at most two halfwords: fits (asserted).
            d.off = (s - slot) as u8;
            for c in s..s + len {
                let i = p * SLOTS_PER_PAGE + c;
                self.covered[i / 64] |= 1 << (i % 64);
            }
            arena.push(d);
            s += len;
            if ends_block(d.op) {
                break;
            }
        }
        if arena.len() == start {
            return 0;
        }
        let mut end = Insn::block_end(2 * (s - slot) as u32);
        crate::events::mark_block(&mut end, &arena[start..], &mut self.meta);
        crate::ingress::mark_block_end(&mut end, &arena[start..]);
        arena.push(end);
        self.links.resize(arena.len(), 0);
        for n in &mut self.native {
            n.resize(arena.len(), 0);
        }
        self.entry[p * SLOTS_PER_PAGE + slot] = start as u32;
        start as u32
    }

    /// A store wrote `len` bytes at `page_off` of page `p`: if any block was decoded from
    /// them (both halves of a 32-bit instruction are marked), drop the page's blocks.
    #[inline]
    pub fn store_in_page(&mut self, p: usize, page_off: u64, len: u8) {
        let first = (page_off >> 1) as usize;
        let last = (((page_off + len as u64 - 1) >> 1) as usize).min(SLOTS_PER_PAGE - 1);
        let base = p * SLOTS_PER_PAGE;
        let hit = (first..=last).any(|s| {
            let i = base + s;
            self.covered[i / 64] & (1 << (i % 64)) != 0
        });
        if hit {
            self.drop_page(p);
        }
    }

    /// A store (or the host) wrote `[pa, pa+len)`, on any page.
    pub fn store(&mut self, pa: u64, len: u64) {
        let mut a = pa & !(PAGE_SIZE - 1);
        while a < pa + len {
            if let Some(p) = self.page_of(a) {
                let lo = pa.max(a) - a;
                let hi = (pa + len).min(a + PAGE_SIZE) - a;
                self.store_in_page(p, lo, (hi - lo) as u8);
            }
            a += PAGE_SIZE;
        }
    }

    /// Drop every block of page `p`.
    fn drop_page(&mut self, p: usize) {
        let base = p * SLOTS_PER_PAGE;
        self.entry[base..base + SLOTS_PER_PAGE].fill(0);
        self.covered[base / 64..(base + SLOTS_PER_PAGE) / 64].fill(0);
        self.dirty = true;
    }

    /// Drop every block (FENCE.I). The pages keep their tables; the arena is reclaimed later.
    pub fn drop_all(&mut self) {
        self.entry.fill(0);
        self.covered.fill(0);
        self.dirty = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bus::RAM_BASE;
    use crate::decode::decode;

    fn words(v: &[u32]) -> Vec<u16> {
        v.iter()
            .flat_map(|w| [*w as u16, (*w >> 16) as u16])
            .collect()
    }

    #[test]
    fn blocks_end_at_control_flow_and_stores_drop_them() {
        let mut c = DecodeCache::new(RAM_BASE);
        let (p, new) = c.page(RAM_BASE + 0x1000);
        assert!(new);
        assert!(c.is_code_page(RAM_BASE + 0x1000));
        // addi a0,a0,1 ; add a1,a1,a0 ; bne a0,a1,-8 ; addi a2,a2,1
        let mem = words(&[0x00150513, 0x00a585b3, 0xfeb51ce3, 0x00160613]);
        let mut arena = c.take();
        let b = c.build(
            &mut arena,
            p,
            0,
            |s| mem.get(s).copied().unwrap_or(0),
            decode,
        );
        assert_eq!(b, 1);
        assert_eq!(arena[1].op, Op::Addi);
        assert_eq!(arena[2].op, Op::Add);
        assert_eq!(arena[3].op, Op::Bne);
        assert_eq!(arena[4].op, Op::NotDecoded);
        assert_eq!(c.block(p, 0), 1);
        // A store past the block's bytes drops nothing.
        c.store_in_page(p, 12, 4);
        assert!(!c.dirty);
        assert_eq!(c.block(p, 0), 1);
        // A store into the add drops the page's blocks.
        c.store_in_page(p, 6, 1);
        assert!(c.dirty);
        assert_eq!(c.block(p, 0), 0);
        c.put(arena);
    }

    #[test]
    fn a_block_inside_decoded_code_ends_where_a_decoded_one_starts() {
        let mut c = DecodeCache::new(RAM_BASE);
        let (p, _) = c.page(RAM_BASE);
        // 100 `addi a0,a0,1` (instructions 0-99, slots 0-198), then `ret`.
        let mut code = vec![0x00150513u32; 100];
        code.push(0x00008067);
        let mem = words(&code);
        let read = |s: usize| mem.get(s).copied().unwrap_or(0);
        let len = |arena: &[Insn], k: usize| {
            let n = arena[k..]
                .iter()
                .position(|d| d.op == Op::NotDecoded)
                .unwrap();
            assert!(arena[k..k + n]
                .iter()
                .all(|d| d.op == Op::Addi || d.op == Op::Jalr));
            n
        };
        let mut arena = c.take();
        // Instructions 30-93: MAX_BLOCK of them.
        let mid = c.build(&mut arena, p, 60, read, decode) as usize;
        assert_eq!(len(&arena, mid), MAX_BLOCK);
        // From 0, in code not decoded yet: on past the block at 30, to MAX_BLOCK.
        let head = c.build(&mut arena, p, 0, read, decode) as usize;
        assert_eq!(len(&arena, head), MAX_BLOCK);
        // From 94, the rest and the `ret`.
        let tail = c.build(&mut arena, p, 188, read, decode) as usize;
        assert_eq!(len(&arena, tail), 7);
        // From 50, inside the block at 30 (where a budget cut it): up to the block at 94,
        // which the new one falls through into.
        let cut = c.build(&mut arena, p, 100, read, decode) as usize;
        assert_eq!(len(&arena, cut), 44);
        assert_eq!(arena.len(), cut + 45);
        assert_eq!(c.block(p, 100), cut as u32);
        // The blocks already there are still the ones at their slots.
        assert_eq!(
            (c.block(p, 0), c.block(p, 60), c.block(p, 188)),
            (head as u32, mid as u32, tail as u32)
        );
        c.put(arena);
    }

    #[test]
    fn crossing_instruction_is_not_cached() {
        let mut c = DecodeCache::new(RAM_BASE);
        let (p, _) = c.page(RAM_BASE);
        let mut arena = c.take();
        // A 32-bit instruction in the last slot crosses into the next page.
        let b = c.build(&mut arena, p, SLOTS_PER_PAGE - 1, |_| 0x0513, decode);
        assert_eq!(b, 0);
        c.put(arena);
    }
}
