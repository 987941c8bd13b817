//! The program image the N-Trace decoder reads code from.
//!
//! An [`Image`] is a set of non-overlapping segments, each a run of bytes at an address with a
//! parallel vector of lazily decoded instructions, one slot per half-word (slot `i` decodes the
//! instruction starting at `base + 2 * i`). Fetching is an array index once the segment is
//! known; the decoder keeps the segment it is walking in and only searches when the pc leaves
//! it. A slot costs 16 bytes, so an image costs eight times its code in decoded slots.
//!
//! Segments come from an ELF file ([`Image::from_elf`]: every `PT_LOAD` segment at its physical
//! address and also at its virtual address when that differs), from raw binaries
//! ([`Image::add_raw`]), or as aliases of other addresses ([`Image::alias`]: code that runs at a
//! virtual address, found at the physical one).

use iss::decode::{decode, insn_len};
use iss::elf::ElfFile;
use iss::insn::{Insn, Op};
use thiserror::Error;

/// Why an image could not be built.
#[derive(Debug, Error)]
pub enum ImageError {
    /// What the ELF reader (`iss::elf`, the hart's own) found wrong, with the file's name.
    #[error(transparent)]
    Elf(#[from] iss::elf::ElfError),
    #[error("{what} at {addr:#x}..{end:#x} overlaps the image's {other:#x}..{other_end:#x}")]
    Overlap {
        what: String,
        addr: u64,
        end: u64,
        other: u64,
        other_end: u64,
    },
    #[error("alias {va:#x}+{len:#x}: the target {target:#x}..{end:#x} is not inside one segment of the image")]
    AliasTarget {
        va: u64,
        target: u64,
        end: u64,
        len: u64,
    },
    #[error("{what} at {addr:#x}: odd address (instructions are on half-word boundaries)")]
    Odd { what: String, addr: u64 },
    #[error("{what} at {addr:#x} with {len:#x} bytes wraps around the address space")]
    Wraps { what: String, addr: u64, len: u64 },
}

/// Why an instruction could not be fetched.
#[derive(Debug, Error, Clone, Copy, PartialEq, Eq)]
pub enum FetchError {
    #[error("address {0:#x} is outside the program image")]
    Outside(u64),
    #[error("the 32-bit instruction at {0:#x} runs past the end of its segment")]
    Straddles(u64),
    #[error("odd address {0:#x}")]
    Odd(u64),
}

/// One contiguous run of code.
#[derive(Clone, Debug)]
pub(crate) struct Segment {
    pub(crate) base: u64,
    bytes: Vec<u8>,
    /// One slot per half-word; [`Op::NotDecoded`] until first fetched.
    insns: Vec<Insn>,
}

impl Segment {
    fn new(base: u64, bytes: Vec<u8>) -> Segment {
        let n = bytes.len() / 2;
        Segment {
            base,
            bytes,
            insns: vec![Insn::NOT_DECODED; n],
        }
    }

    /// Bytes covered by half-word slots.
    #[inline]
    pub(crate) fn len(&self) -> u64 {
        (self.insns.len() as u64) * 2
    }

    fn end(&self) -> u64 {
        self.base + self.len()
    }

    /// The decoded-instruction slots (one per half-word).
    #[inline]
    pub(crate) fn slots(&mut self) -> &mut [Insn] {
        &mut self.insns
    }

    /// The instruction at slot `i` (which must exist), decoding it on first use.
    #[inline]
    fn insn(&mut self, i: usize) -> Result<Insn, FetchError> {
        let d = self.insns[i];
        if d.op != Op::NotDecoded {
            return Ok(d);
        }
        self.decode_slot(i)
    }

    #[cold]
    fn decode_slot(&mut self, i: usize) -> Result<Insn, FetchError> {
        let lo = u16::from_le_bytes([self.bytes[2 * i], self.bytes[2 * i + 1]]);
        let d = if insn_len(lo) == 2 {
            decode(lo as u32)
        } else {
            if i + 1 >= self.insns.len() {
                return Err(FetchError::Straddles(self.base + 2 * i as u64));
            }
            let hi = u16::from_le_bytes([self.bytes[2 * i + 2], self.bytes[2 * i + 3]]);
            decode(lo as u32 | (hi as u32) << 16)
        };
        // `decode` never returns the cache's empty marker; keep it that way for the cache.
        debug_assert_ne!(d.op, Op::NotDecoded);
        self.insns[i] = d;
        Ok(d)
    }
}

/// The program image: code bytes at addresses, and their decoded instructions.
#[derive(Clone, Debug, Default)]
pub struct Image {
    pub(crate) segs: Vec<Segment>,
}

impl Image {
    /// An empty image.
    pub fn new() -> Image {
        Image::default()
    }

    /// The image of an RV64 ELF executable: each `PT_LOAD` segment's file bytes at its
    /// physical address (`p_paddr`) and, when the virtual address (`p_vaddr`) differs, a copy
    /// there too. `path` is only used in error messages.
    pub fn from_elf(bytes: &[u8], path: &str) -> Result<Image, ImageError> {
        let elf = ElfFile::parse(bytes, path)?;
        elf.check_riscv()?;
        let mut img = Image::new();
        for (s, data) in elf.loaded()? {
            img.add(
                format!("{path}: segment {}", s.index),
                s.p_paddr,
                data.to_vec(),
            )?;
            if s.p_vaddr != s.p_paddr {
                img.add(
                    format!("{path}: segment {} (virtual)", s.index),
                    s.p_vaddr,
                    data.to_vec(),
                )?;
            }
        }
        Ok(img)
    }

    /// Adds raw code bytes at `addr` (a flat binary, or memory read from the target).
    pub fn add_raw(&mut self, addr: u64, bytes: Vec<u8>) -> Result<(), ImageError> {
        self.add(format!("raw bytes at {addr:#x}"), addr, bytes)
    }

    /// Makes the `len` bytes at `target` (which must lie in one segment) also appear at `va`,
    /// for code that is executed at a virtual address.
    pub fn alias(&mut self, va: u64, target: u64, len: u64) -> Result<(), ImageError> {
        let bad = || ImageError::AliasTarget {
            va,
            target,
            end: target.wrapping_add(len),
            len,
        };
        let s = self
            .segs
            .iter()
            .find(|s| target >= s.base && target < s.end())
            .ok_or_else(bad)?;
        let off = target - s.base;
        if len > s.len() - off {
            return Err(bad());
        }
        let bytes = s.bytes[off as usize..(off + len) as usize].to_vec();
        self.add(format!("alias of {target:#x}"), va, bytes)
    }

    fn add(&mut self, what: String, addr: u64, bytes: Vec<u8>) -> Result<(), ImageError> {
        if addr & 1 != 0 {
            return Err(ImageError::Odd { what, addr });
        }
        let len = bytes.len() as u64 & !1;
        if len == 0 {
            return Ok(());
        }
        let Some(end) = addr.checked_add(len) else {
            return Err(ImageError::Wraps { what, addr, len });
        };
        if let Some(o) = self.segs.iter().find(|s| addr < s.end() && s.base < end) {
            return Err(ImageError::Overlap {
                what,
                addr,
                end,
                other: o.base,
                other_end: o.end(),
            });
        }
        let at = self.segs.partition_point(|s| s.base < addr);
        self.segs.insert(at, Segment::new(addr, bytes));
        Ok(())
    }

    /// The index of the segment holding `addr`.
    #[inline]
    pub(crate) fn find(&self, addr: u64) -> Option<usize> {
        let i = self.segs.partition_point(|s| s.base <= addr);
        let i = i.checked_sub(1)?;
        (addr - self.segs[i].base < self.segs[i].len()).then_some(i)
    }

    /// The instruction at `pc`.
    pub fn fetch(&mut self, pc: u64) -> Result<Insn, FetchError> {
        if pc & 1 != 0 {
            return Err(FetchError::Odd(pc));
        }
        let i = self.find(pc).ok_or(FetchError::Outside(pc))?;
        let s = &mut self.segs[i];
        s.insn(((pc - s.base) / 2) as usize)
    }

    /// The decoder's slow path: the segment holding `pc` and its (decoded) instruction.
    #[cold]
    #[inline(never)]
    pub(crate) fn fetch_slow(&mut self, pc: u64) -> Result<(usize, Insn), FetchError> {
        if pc & 1 != 0 {
            return Err(FetchError::Odd(pc));
        }
        let i = self.find(pc).ok_or(FetchError::Outside(pc))?;
        let s = &mut self.segs[i];
        let d = s.insn(((pc - s.base) / 2) as usize)?;
        Ok((i, d))
    }

    /// A copy of the image's bytes without the decoded slots (an eighth of the image's
    /// memory), for showing the instructions the decoder walks while it owns the image.
    pub fn code(&self) -> Code {
        Code {
            segs: self
                .segs
                .iter()
                .map(|s| (s.base, s.bytes.clone()))
                .collect(),
        }
    }

    /// Whether `addr` is inside the image.
    pub fn contains(&self, addr: u64) -> bool {
        self.find(addr).is_some()
    }

    /// The segments, as (address, length in bytes).
    pub fn segments(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.segs.iter().map(|s| (s.base, s.len()))
    }
}

/// The bytes of an [`Image`], without its decoded instructions ([`Image::code`]).
#[derive(Clone, Debug, Default)]
pub struct Code {
    /// (address, bytes), sorted by address, not overlapping.
    segs: Vec<(u64, Vec<u8>)>,
}

impl Code {
    /// The raw bits of the instruction at `pc` (16 or 32 of them, as its low bits say), for
    /// showing it; `None` outside the image or past the end of a segment.
    pub fn bits(&self, pc: u64) -> Option<u32> {
        let i = self.segs.partition_point(|s| s.0 <= pc).checked_sub(1)?;
        let (base, bytes) = &self.segs[i];
        let o = usize::try_from(pc - base).ok()?;
        let half = |at: usize| -> Option<u32> {
            let b = bytes.get(at..at.checked_add(2)?)?;
            Some(u32::from(u16::from_le_bytes([b[0], b[1]])))
        };
        let lo = half(o)?;
        if insn_len(lo as u16) == 2 {
            return Some(lo);
        }
        Some(lo | half(o.checked_add(2)?)? << 16)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(ws: &[u32]) -> Vec<u8> {
        ws.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    #[test]
    fn fetch_decodes_lazily_and_mixes_sizes() {
        let mut img = Image::new();
        // addi a0,a0,1 ; c.addi a0,1 ; c.nop ; jal x0,-8
        let mut b = words(&[0x00150513]);
        b.extend([0x05, 0x05, 0x01, 0x00]);
        b.extend(words(&[0xff9ff06f]));
        img.add_raw(0x1000, b).unwrap();
        assert_eq!(img.fetch(0x1000).unwrap().op, Op::Addi);
        assert_eq!(img.fetch(0x1000).unwrap().len, 4);
        assert_eq!(img.fetch(0x1004).unwrap().len, 2);
        assert_eq!(img.fetch(0x1008).unwrap().op, Op::Jal);
        assert_eq!(img.fetch(0x1008).unwrap().imm, -8);
        assert_eq!(img.fetch(0x100c), Err(FetchError::Outside(0x100c)));
        assert_eq!(img.fetch(0xffe), Err(FetchError::Outside(0xffe)));
        assert_eq!(img.fetch(0x1001), Err(FetchError::Odd(0x1001)));
        assert!(img.contains(0x100b));
        assert!(!img.contains(0x100c));
    }

    /// goblin's internals ("Malformed entity: ... Overflowed: false") do not reach the user.
    #[test]
    fn malformed_elf_errors_are_plain() {
        let elf = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../programs/bin/rv64i.elf"
        ))
        .unwrap();
        let mut bad = elf.clone();
        let shoff = u64::from_le_bytes(bad[0x28..0x30].try_into().unwrap()) as usize;
        let shnum = u16::from_le_bytes([bad[0x3c], bad[0x3d]]) as usize;
        for i in 0..shnum {
            let at = shoff + 64 * i + 0x18;
            bad[at..at + 8].copy_from_slice(&0xf_ffff_fff0u64.to_le_bytes());
        }
        // Section offsets past the end: the symbols cannot be read, but the image can.
        assert!(Image::from_elf(&bad, "bad.elf").is_ok());
        // A segment's data past the end of the file is named, with the file's size.
        let cut = &elf[..elf.len() / 2];
        let e = Image::from_elf(cut, "cut.elf").unwrap_err().to_string();
        assert!(e.starts_with("cut.elf: "), "{e}");
        assert!(e.contains(&format!("{:#x}", cut.len())), "{e}");
        assert!(
            !e.contains("Overflowed") && !e.contains("Malformed entity"),
            "{e}"
        );
        let e = Image::from_elf(b"\x7fELX and more bytes than a header", "x")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("x: not an ELF file"), "{e}");
    }

    #[test]
    fn straddling_instruction_is_an_error() {
        let mut img = Image::new();
        // c.nop, then the first half of addi.
        img.add_raw(0x2000, vec![0x01, 0x00, 0x13, 0x05]).unwrap();
        // A following segment does not make it fetchable.
        img.add_raw(0x2004, vec![0x15, 0x00]).unwrap();
        assert_eq!(img.fetch(0x2002), Err(FetchError::Straddles(0x2002)));
        assert_eq!(img.fetch(0x2000).unwrap().len, 2);
    }

    #[test]
    fn overlaps_aliases_and_odd_addresses() {
        let mut img = Image::new();
        img.add_raw(0x8000_0000, words(&[0x00150513, 0x00008067]))
            .unwrap();
        assert!(matches!(
            img.add_raw(0x8000_0004, vec![0; 4]),
            Err(ImageError::Overlap { .. })
        ));
        assert!(matches!(
            img.add_raw(0x1001, vec![0; 4]),
            Err(ImageError::Odd { .. })
        ));
        img.alias(0xffff_ffff_c000_0000, 0x8000_0004, 4).unwrap();
        assert_eq!(img.fetch(0xffff_ffff_c000_0000).unwrap().op, Op::Jalr);
        assert_eq!(
            img.fetch(0xffff_ffff_c000_0004),
            Err(FetchError::Outside(0xffff_ffff_c000_0004))
        );
        assert!(matches!(
            img.alias(0x1000, 0x8000_0004, 8),
            Err(ImageError::AliasTarget { .. })
        ));
        assert!(matches!(
            img.alias(0x1000, 0x9000_0000, 2),
            Err(ImageError::AliasTarget { .. })
        ));
        let segs: Vec<_> = img.segments().collect();
        assert_eq!(segs, vec![(0x8000_0000, 8), (0xffff_ffff_c000_0000, 4)]);
    }

    /// A minimal ELF64 RISC-V executable with one PT_LOAD segment whose physical and virtual
    /// addresses differ.
    fn tiny_elf(paddr: u64, vaddr: u64, code: &[u8]) -> Vec<u8> {
        let mut e = vec![0u8; 64 + 56];
        e[..4].copy_from_slice(b"\x7fELF");
        e[4] = 2; // ELFCLASS64
        e[5] = 1; // little-endian
        e[6] = 1; // version
        e[16..18].copy_from_slice(&2u16.to_le_bytes()); // ET_EXEC
        e[18..20].copy_from_slice(&243u16.to_le_bytes()); // EM_RISCV
        e[20..24].copy_from_slice(&1u32.to_le_bytes());
        e[24..32].copy_from_slice(&vaddr.to_le_bytes()); // entry
        e[32..40].copy_from_slice(&64u64.to_le_bytes()); // phoff
        e[52..54].copy_from_slice(&64u16.to_le_bytes()); // ehsize
        e[54..56].copy_from_slice(&56u16.to_le_bytes()); // phentsize
        e[56..58].copy_from_slice(&1u16.to_le_bytes()); // phnum
        let ph = 64;
        e[ph..ph + 4].copy_from_slice(&1u32.to_le_bytes()); // PT_LOAD
        e[ph + 4..ph + 8].copy_from_slice(&5u32.to_le_bytes()); // R X
        e[ph + 8..ph + 16].copy_from_slice(&120u64.to_le_bytes()); // offset
        e[ph + 16..ph + 24].copy_from_slice(&vaddr.to_le_bytes());
        e[ph + 24..ph + 32].copy_from_slice(&paddr.to_le_bytes());
        e[ph + 32..ph + 40].copy_from_slice(&(code.len() as u64).to_le_bytes());
        e[ph + 40..ph + 48].copy_from_slice(&(code.len() as u64).to_le_bytes());
        e[ph + 48..ph + 56].copy_from_slice(&4u64.to_le_bytes());
        e.extend_from_slice(code);
        e
    }

    #[test]
    fn elf_segments_at_physical_and_virtual_addresses() {
        let elf = tiny_elf(0x8000_0000, 0xffff_ffff_8000_0000, &words(&[0x00008067]));
        let mut img = Image::from_elf(&elf, "tiny.elf").unwrap();
        assert_eq!(img.fetch(0x8000_0000).unwrap().op, Op::Jalr);
        assert_eq!(img.fetch(0xffff_ffff_8000_0000).unwrap().op, Op::Jalr);
        let same = tiny_elf(0x8000_0000, 0x8000_0000, &words(&[0x00008067]));
        assert_eq!(Image::from_elf(&same, "x").unwrap().segments().count(), 1);
        assert!(matches!(
            Image::from_elf(b"not an elf", "junk.bin"),
            Err(ImageError::Elf(e)) if e.to_string().starts_with("junk.bin: not an ELF file")
        ));
        let mut cut = elf.clone();
        cut.truncate(122);
        assert!(matches!(
            Image::from_elf(&cut, "cut.elf"),
            Err(ImageError::Elf(e)) if e.to_string().starts_with("cut.elf: ")
                && e.to_string().contains("truncated")
        ));
    }

    /// The bytes the decoder's printer shows come from the image (one ELF reader): at the
    /// physical and the virtual address, 32-bit instructions whole, nothing past a segment.
    #[test]
    fn code_bits_at_both_addresses() {
        let elf = tiny_elf(
            0x8000_0000,
            0xffff_ffff_8000_0000,
            &[0x67, 0x80, 0, 0, 0x82, 0x80],
        );
        let code = Image::from_elf(&elf, "tiny.elf").unwrap().code();
        assert_eq!(code.bits(0x8000_0000), Some(0x8067));
        assert_eq!(code.bits(0xffff_ffff_8000_0000), Some(0x8067));
        assert_eq!(code.bits(0x8000_0004), Some(0x8082));
        assert_eq!(code.bits(0x8000_0006), None);
        assert_eq!(code.bits(0x7fff_fffe), None);
        let cut = tiny_elf(0x8000_0000, 0x8000_0000, &[0x67, 0x80]);
        assert_eq!(
            Image::from_elf(&cut, "x").unwrap().code().bits(0x8000_0000),
            None
        );
    }
}
