//! A set-associative cache with LRU replacement, tracking line addresses only (no data).
//!
//! Each set keeps its lines in recency order, most recent first; a hit moves the line to the
//! front, a miss evicts the last and inserts at the front. Lines are physical addresses
//! shifted right by log2(line size); the set is the low bits of the line address.

use crate::config::CacheGeometry;

const INVALID: u64 = u64::MAX;

#[derive(Clone, Debug)]
pub struct Cache {
    ways: usize,
    line_shift: u32,
    set_mask: u64,
    lines: Vec<u64>,
}

impl Cache {
    /// A cache of the geometry (validated by `PmuConfig::validate`), every line invalid.
    pub fn new(g: &CacheGeometry) -> Cache {
        let sets = g.sets().max(1);
        Cache {
            ways: g.ways as usize,
            line_shift: g.line.trailing_zeros(),
            set_mask: sets - 1,
            lines: vec![INVALID; (sets as usize) * g.ways as usize],
        }
    }

    /// log2 of the line size.
    #[inline]
    pub fn line_shift(&self) -> u32 {
        self.line_shift
    }

    /// Access line `line` (an address shifted right by [`Cache::line_shift`]); true on a hit.
    /// A miss allocates the line.
    #[inline]
    pub fn access(&mut self, line: u64) -> bool {
        let set = (line & self.set_mask) as usize;
        let s = &mut self.lines[set * self.ways..(set + 1) * self.ways];
        match s.iter().position(|&l| l == line) {
            Some(pos) => {
                s[..=pos].rotate_right(1);
                true
            }
            None => {
                s.rotate_right(1);
                s[0] = line;
                false
            }
        }
    }

    /// Whether line `line` is present (no state change).
    pub fn contains(&self, line: u64) -> bool {
        let set = (line & self.set_mask) as usize;
        self.lines[set * self.ways..(set + 1) * self.ways].contains(&line)
    }

    pub fn invalidate_all(&mut self) {
        self.lines.fill(INVALID);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geom(size: u64, ways: u32, line: u32) -> CacheGeometry {
        CacheGeometry { size, ways, line }
    }

    #[test]
    fn direct_mapped_conflicts() {
        // 4 sets x 1 way: lines 0 and 4 share set 0.
        let mut c = Cache::new(&geom(256, 1, 64));
        assert!(!c.access(0));
        assert!(c.access(0));
        assert!(!c.access(4));
        assert!(!c.access(0));
        assert!(!c.access(1));
        assert!(c.access(1));
    }

    #[test]
    fn lru_within_a_set() {
        // 1 set x 2 ways.
        let mut c = Cache::new(&geom(128, 2, 64));
        assert!(!c.access(10)); // [10]
        assert!(!c.access(11)); // [11 10]
        assert!(c.access(10)); // [10 11]
        assert!(!c.access(12)); // evicts 11: [12 10]
        assert!(c.access(10));
        assert!(!c.access(11)); // evicts 12
        assert!(!c.access(12));
        c.invalidate_all();
        assert!(!c.contains(12));
    }
}
