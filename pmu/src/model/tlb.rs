//! An architectural TLB model: set-associative, LRU, 4 KiB pages, entries tagged with an
//! ASID. It is a model of what a hardware TLB would hold, independent of the simulator's own
//! translation cache; `sfence.vma` flushes it through [`Tlb::flush`].
//!
//! Superpages are modelled as their 4 KiB pages, and global mappings as ordinary ones (an
//! ASID-specific `sfence.vma` also drops global pages it finds under that ASID).

use crate::config::TlbGeometry;

const INVALID: u64 = u64::MAX;
/// Virtual page number bits kept (virtual address bits 55:12).
const VPN_BITS: u32 = 44;
const VPN_MASK: u64 = (1 << VPN_BITS) - 1;

#[derive(Clone, Debug)]
pub struct Tlb {
    ways: usize,
    set_mask: u64,
    /// Keys (asid << 44 | vpn), most recent first in each set.
    keys: Vec<u64>,
}

#[inline]
pub fn vpn(va: u64) -> u64 {
    (va >> 12) & VPN_MASK
}

#[inline]
fn key(asid: u16, vpn: u64) -> u64 {
    (asid as u64) << VPN_BITS | vpn
}

impl Tlb {
    pub fn new(g: &TlbGeometry) -> Tlb {
        let sets = (g.entries / g.ways).max(1) as u64;
        Tlb {
            ways: g.ways as usize,
            set_mask: sets - 1,
            keys: vec![INVALID; g.entries as usize],
        }
    }

    /// Look up page `vpn` under `asid`; true on a hit. A miss fills the entry.
    #[inline]
    pub fn access(&mut self, asid: u16, vpn: u64) -> bool {
        let k = key(asid, vpn);
        let set = (vpn & self.set_mask) as usize;
        let s = &mut self.keys[set * self.ways..(set + 1) * self.ways];
        match s.iter().position(|&e| e == k) {
            Some(pos) => {
                s[..=pos].rotate_right(1);
                true
            }
            None => {
                s.rotate_right(1);
                s[0] = k;
                false
            }
        }
    }

    /// `sfence.vma`: `asid` None flushes every address space, `va` None every page.
    pub fn flush(&mut self, asid: Option<u16>, va: Option<u64>) {
        let page = va.map(vpn);
        let doomed = |k: u64| {
            asid.is_none_or(|a| (k >> VPN_BITS) as u16 == a)
                && page.is_none_or(|p| k & VPN_MASK == p)
        };
        for set in self.keys.chunks_mut(self.ways) {
            // Compact the survivors to the front, keeping their recency order.
            let mut w = 0;
            for r in 0..set.len() {
                let k = set[r];
                if k != INVALID && !doomed(k) {
                    set[w] = k;
                    w += 1;
                }
            }
            set[w..].fill(INVALID);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn asid_tagged_entries_and_flushes() {
        let mut t = Tlb::new(&TlbGeometry {
            entries: 4,
            ways: 4,
        });
        assert!(!t.access(1, 0x10));
        assert!(t.access(1, 0x10));
        assert!(!t.access(2, 0x10)); // other ASID
        assert!(!t.access(1, 0x11));
        t.flush(Some(1), Some(0x10 << 12));
        assert!(t.access(2, 0x10));
        assert!(t.access(1, 0x11));
        assert!(!t.access(1, 0x10));
        t.flush(Some(2), None);
        assert!(!t.access(2, 0x10));
        assert!(t.access(1, 0x11));
        t.flush(None, Some(0x11 << 12));
        assert!(!t.access(1, 0x11));
        t.flush(None, None);
        assert!(!t.access(1, 0x10));
    }

    #[test]
    fn lru_capacity() {
        // 2 entries, fully associative.
        let mut t = Tlb::new(&TlbGeometry {
            entries: 2,
            ways: 2,
        });
        assert!(!t.access(0, 1));
        assert!(!t.access(0, 2));
        assert!(t.access(0, 1));
        assert!(!t.access(0, 3)); // evicts 2
        assert!(t.access(0, 1));
        assert!(!t.access(0, 2));
    }
}
