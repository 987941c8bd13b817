//! The physical address space: RAM and the platform devices.
//!
//! | range                     | device                                           |
//! |---------------------------|--------------------------------------------------|
//! | `0x0000_1000..+4 KiB * n` | boot ROM (Spike's): reset vector, device tree     |
//! | `0x0010_0000..+0x1000`    | SiFive test finisher (QEMU `virt` compatible)     |
//! | `0x0200_0000..+0xc_0000`  | CLINT: msip +0, mtimecmp +0x4000, mtime +0xbff8   |
//! | `0x0c00_0000..+0x400_0000`| PLIC (QEMU `virt` layout), [`Plic`]               |
//! | `0x1000_0000..+0x100`     | ns16550a UART (byte registers)                    |
//! | `0x8000_0000..+--mem`     | RAM, allocated lazily                             |
//!
//! Anything else is not there: the access raises an access fault in the guest.
//! HTIF `tohost`/`fromhost` live in RAM at the ELF's symbols and are polled by the scheduler
//! (see [`crate::htif`]).

use std::collections::VecDeque;
use std::io::Write;

pub const RAM_BASE: u64 = 0x8000_0000;
pub const DEFAULT_RAM_SIZE: u64 = 256 << 20;
pub const CLINT_BASE: u64 = 0x0200_0000;
pub const CLINT_SIZE: u64 = 0xc_0000;
pub const CLINT_MSIP: u64 = 0x0;

/// Whether physical address `pa` is in the CLINT.
#[inline]
pub fn is_clint(pa: u64) -> bool {
    (CLINT_BASE..CLINT_BASE + CLINT_SIZE).contains(&pa)
}
pub const CLINT_MTIMECMP: u64 = 0x4000;
pub const CLINT_MTIME: u64 = 0xbff8;
pub const PLIC_BASE: u64 = 0x0c00_0000;
pub const PLIC_SIZE: u64 = 0x0400_0000;
/// Interrupt sources of the PLIC, source 0 (no interrupt) included: IDs 1..=63.
pub const PLIC_SOURCES: usize = 64;
/// Highest priority a source can have (priorities are 3 bits, as QEMU `virt`'s).
pub const PLIC_MAX_PRIORITY: u32 = 7;
/// Contexts: `2h` is hart h's M-mode (mip.MEIP), `2h + 1` its S-mode (mip.SEIP), as QEMU
/// `virt`'s and Spike's; those of harts beyond the machine's do not exist.
pub const PLIC_CONTEXTS: usize = 2 * MAX_HARTS;
const PLIC_PENDING: u64 = 0x1000;
const PLIC_ENABLE: u64 = 0x2000;
const PLIC_ENABLE_STRIDE: u64 = 0x80;
const PLIC_CONTEXT: u64 = 0x20_0000;
const PLIC_CONTEXT_STRIDE: u64 = 0x1000;
/// The UART's interrupt source (QEMU `virt`'s UART0_IRQ).
pub const UART_IRQ: usize = 10;
pub const UART_BASE: u64 = 0x1000_0000;
pub const UART_SIZE: u64 = 0x100;
pub const FINISHER_BASE: u64 = 0x0010_0000;
pub const FINISHER_SIZE: u64 = 0x1000;
/// The boot ROM (Spike's `DEFAULT_RSTVEC`).
pub const ROM_BASE: u64 = 0x1000;
/// The most the boot ROM may take (0x1000..0x10000, as QEMU `virt`'s mask ROM): RAM and
/// external regions must keep clear of it when there is a ROM.
pub const ROM_MAX_SIZE: u64 = 0xf000;
/// Bytes of the reset vector before the device tree (Spike's `reset_vec_size` * 4).
pub const ROM_RESET_VEC_SIZE: u64 = 32;

pub const PAGE_SHIFT: u32 = 12;
pub const PAGE_SIZE: u64 = 1 << PAGE_SHIFT;

/// The largest RAM hartscope builds (1 TiB): `--mem` and the tandem sidecar's `ram_size` are
/// checked against it.
pub const MAX_RAM_SIZE: u64 = 1 << 40;

/// Why guest RAM could not be set up.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RamError {
    #[error("RAM size {size:#x}: must be at least one byte and at most {max:#x} (1 TiB)", max = MAX_RAM_SIZE)]
    Size { size: u64 },
    #[error("RAM {base:#x}+{size:#x} wraps around the 64-bit address space")]
    Wraps { base: u64, size: u64 },
    #[error("cannot reserve {size} bytes ({mib} MiB) of host address space for guest RAM: {reason}", mib = size >> 20)]
    Reserve { size: u64, reason: String },
    #[error("RAM {base:#x}+{size:#x} overlaps {what} ({other_base:#x}+{other_size:#x})")]
    Overlap {
        base: u64,
        size: u64,
        what: &'static str,
        other_base: u64,
        other_size: u64,
    },
    #[error("RAM regions from {lo:#x} to {hi:#x} span more than {max:#x} bytes (1 TiB)", max = MAX_RAM_SIZE)]
    Span { lo: u64, hi: u64 },
}

/// Zero-filled host memory reserved with `mmap(MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE)`:
/// the kernel commits a page only when it is first touched, so a large guest RAM costs only
/// the pages the guest (or the loader) writes, and reserving more than the host has is not an
/// error. Dereferences to a byte slice, so RAM accesses index a slice exactly as a `Vec` would.
pub struct LazyBytes {
    ptr: std::ptr::NonNull<u8>,
    len: usize,
}

// SAFETY: LazyBytes owns its mapping exclusively (like a Box<[u8]>); shared access only reads.
unsafe impl Send for LazyBytes {}
// SAFETY: as above: &LazyBytes gives only &[u8].
unsafe impl Sync for LazyBytes {}

impl LazyBytes {
    /// Reserve `len` zero bytes. `len` 0 needs no mapping.
    pub fn new(len: usize) -> std::io::Result<LazyBytes> {
        if len == 0 {
            return Ok(LazyBytes {
                ptr: std::ptr::NonNull::dangling(),
                len: 0,
            });
        }
        // SAFETY: an anonymous private mapping at an address of the kernel's choosing: it
        // aliases nothing of ours. The result is checked before use.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return Err(std::io::Error::last_os_error());
        }
        match std::ptr::NonNull::new(p.cast::<u8>()) {
            Some(ptr) => Ok(LazyBytes { ptr, len }),
            None => Err(std::io::Error::other("mmap returned a null mapping")),
        }
    }
}

impl Drop for LazyBytes {
    fn drop(&mut self) {
        if self.len != 0 {
            // SAFETY: the mapping made in `new`, of this length, not used after this.
            unsafe { libc::munmap(self.ptr.as_ptr().cast(), self.len) };
        }
    }
}

impl std::ops::Deref for LazyBytes {
    type Target = [u8];
    #[inline(always)]
    fn deref(&self) -> &[u8] {
        // SAFETY: `len` readable, initialised (zero-filled by the kernel) bytes owned by self.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl std::ops::DerefMut for LazyBytes {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [u8] {
        // SAFETY: as in `deref`, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

/// Guest RAM, reserved lazily ([`LazyBytes`]): only the pages touched cost host memory.
/// Several regions ([`Ram::with_regions`]) share one reservation that spans them all; a gap
/// between them is not RAM.
pub struct Ram {
    base: u64,
    data: LazyBytes,
    /// With several regions: each as offsets `[start, end)` in `data`, sorted. Empty: one
    /// region, all of `data`.
    regions: Vec<(u64, u64)>,
}

impl Ram {
    /// RAM of `size` bytes at `base`, or why it cannot be had: a size of 0 or above
    /// [`MAX_RAM_SIZE`], a range that wraps, or a host that refuses even the reservation.
    pub fn new(base: u64, size: u64) -> Result<Ram, RamError> {
        if size == 0 || size > MAX_RAM_SIZE {
            return Err(RamError::Size { size });
        }
        if base.checked_add(size).is_none() {
            return Err(RamError::Wraps { base, size });
        }
        let len = usize::try_from(size).map_err(|_| RamError::Size { size })?;
        let data = LazyBytes::new(len).map_err(|e| RamError::Reserve {
            size,
            reason: e.to_string(),
        })?;
        Ok(Ram {
            base,
            data,
            regions: Vec::new(),
        })
    }

    /// RAM made of several regions, each `(base, size)`: checked as [`Ram::new`] checks one,
    /// and for overlaps; the span from the lowest base to the highest end is reserved (at
    /// most [`MAX_RAM_SIZE`]), and only the regions are RAM.
    pub fn with_regions(regions: &[(u64, u64)]) -> Result<Ram, RamError> {
        let mut rs = regions.to_vec();
        rs.sort_unstable();
        for &(base, size) in &rs {
            if size == 0 || size > MAX_RAM_SIZE {
                return Err(RamError::Size { size });
            }
            if base.checked_add(size).is_none() {
                return Err(RamError::Wraps { base, size });
            }
        }
        for w in rs.windows(2) {
            if w[0].0 + w[0].1 > w[1].0 {
                return Err(RamError::Overlap {
                    base: w[1].0,
                    size: w[1].1,
                    what: "another RAM region",
                    other_base: w[0].0,
                    other_size: w[0].1,
                });
            }
        }
        match rs.as_slice() {
            [] => Err(RamError::Size { size: 0 }),
            [(base, size)] => Ram::new(*base, *size),
            [(lo, _), .., (last, last_size)] => {
                let hi = last + last_size;
                if hi - lo > MAX_RAM_SIZE {
                    return Err(RamError::Span { lo: *lo, hi });
                }
                let mut ram = Ram::new(*lo, hi - lo)?;
                ram.regions = rs.iter().map(|&(b, s)| (b - lo, b - lo + s)).collect();
                Ok(ram)
            }
        }
    }

    /// The regions, as `(base, size)`, lowest first.
    pub fn regions(&self) -> Vec<(u64, u64)> {
        if self.regions.is_empty() {
            vec![(self.base, self.size())]
        } else {
            self.regions
                .iter()
                .map(|&(s, e)| (self.base + s, e - s))
                .collect()
        }
    }

    /// The lowest RAM address; with several regions, RAM offsets count from it.
    #[inline]
    pub fn base(&self) -> u64 {
        self.base
    }

    #[inline]
    pub fn size(&self) -> u64 {
        self.data.len() as u64
    }

    /// Offset of `[pa, pa+len)` in RAM, if it lies wholly inside (one region).
    #[inline]
    pub fn offset(&self, pa: u64, len: u64) -> Option<usize> {
        let off = pa.wrapping_sub(self.base);
        if off < self.data.len() as u64
            && len <= self.data.len() as u64 - off
            && (self.regions.is_empty() || self.in_one_region(off, len))
        {
            Some(off as usize)
        } else {
            None
        }
    }

    #[cold]
    fn in_one_region(&self, off: u64, len: u64) -> bool {
        self.regions
            .iter()
            .any(|&(s, e)| off >= s && off + len <= e)
    }

    /// Read `size` (1, 2, 4 or 8) bytes little-endian at offset `off`. Panics if out of range:
    /// callers check with [`Ram::offset`] first.
    #[inline(always)]
    pub fn read(&self, off: usize, size: u8) -> u64 {
        let d = &self.data;
        match size {
            1 => d[off] as u64,
            2 => u16::from_le_bytes([d[off], d[off + 1]]) as u64,
            4 => u32::from_le_bytes(d[off..off + 4].try_into().unwrap()) as u64,
            _ => u64::from_le_bytes(d[off..off + 8].try_into().unwrap()),
        }
    }

    #[inline(always)]
    pub fn write(&mut self, off: usize, size: u8, val: u64) {
        let d = &mut self.data;
        match size {
            1 => d[off] = val as u8,
            2 => d[off..off + 2].copy_from_slice(&(val as u16).to_le_bytes()),
            4 => d[off..off + 4].copy_from_slice(&(val as u32).to_le_bytes()),
            _ => d[off..off + 8].copy_from_slice(&val.to_le_bytes()),
        }
    }

    /// The host address of RAM offset 0, its provenance exposed, so that a host address in
    /// RAM kept as a number (the TLBs keep them: `mmu::TlbTable`) is read and written
    /// through ([`Ram::read_host`], [`Ram::write_host`]) with no base to add. The RAM's
    /// mapping does not move while the `Ram` lives.
    #[inline]
    pub(crate) fn host_base(&self) -> usize {
        self.data.as_ptr().expose_provenance()
    }

    /// [`Ram::read`] at host address `host` ([`Ram::host_base`] plus the offset), which the
    /// caller knows lies in RAM with its `size` bytes: one the load TLB gave, whose entries
    /// are only ever whole RAM pages (`Machine::resolve` fills them from
    /// `Ram::offset(page, PAGE_SIZE)`), for an aligned access that cannot leave its page.
    ///
    /// # Safety
    ///
    /// `host..host + size` lies in this RAM's bytes.
    #[inline(always)]
    pub(crate) unsafe fn read_host(&self, host: usize, size: u8) -> u64 {
        debug_assert!(
            host >= self.host_base() && host + size as usize <= self.host_base() + self.data.len()
        );
        // SAFETY: the caller's promise; the provenance is the mapping's, exposed by
        // `host_base`; reads are unaligned-safe.
        unsafe {
            let p = std::ptr::with_exposed_provenance::<u8>(host);
            match size {
                1 => *p as u64,
                2 => (p as *const u16).read_unaligned().to_le() as u64,
                4 => (p as *const u32).read_unaligned().to_le() as u64,
                _ => (p as *const u64).read_unaligned().to_le(),
            }
        }
    }

    /// [`Ram::write`] at host address `host`, which the caller knows lies in RAM with its
    /// `size` bytes (from the store TLB, as [`Ram::read_host`]).
    ///
    /// # Safety
    ///
    /// `host..host + size` lies in this RAM's bytes.
    #[inline(always)]
    pub(crate) unsafe fn write_host(&mut self, host: usize, size: u8, val: u64) {
        debug_assert!(
            host >= self.host_base() && host + size as usize <= self.host_base() + self.data.len()
        );
        // SAFETY: the caller's promise, with `&mut self` making the access exclusive; the
        // provenance is the mapping's, exposed by `host_base`; writes are unaligned-safe.
        unsafe {
            let p = std::ptr::with_exposed_provenance_mut::<u8>(host);
            match size {
                1 => *p = val as u8,
                2 => (p as *mut u16).write_unaligned((val as u16).to_le()),
                4 => (p as *mut u32).write_unaligned((val as u32).to_le()),
                _ => (p as *mut u64).write_unaligned(val.to_le()),
            }
        }
    }

    #[inline(always)]
    pub fn read_u16(&self, off: usize) -> u16 {
        u16::from_le_bytes([self.data[off], self.data[off + 1]])
    }

    pub fn bytes(&self, off: usize, len: usize) -> &[u8] {
        &self.data[off..off + len]
    }

    pub fn bytes_mut(&mut self, off: usize, len: usize) -> &mut [u8] {
        &mut self.data[off..off + len]
    }
}

/// The boot ROM at [`ROM_BASE`], as Spike builds it (`sim_t::set_rom`): eight words of reset
/// vector (`auipc t0, 0; addi a1, t0, 32; csrr a0, mhartid; ld t0, 24(t0); jr t0; 0;` then the
/// entry point as a doubleword at 0x1018), the device tree blob at 0x1020, zeros up to a
/// multiple of 4 KiB. Loads (any width, within it) and fetches read it; stores to it are
/// access faults, as on Spike. The hart does not execute it at reset (it starts at the entry
/// in the state the five instructions leave, [`crate::machine::BOOT_STEPS`]), but a program
/// may read it, or jump to it.
pub struct BootRom {
    data: Vec<u8>,
}

/// A device region [`Bus::add_external`] cannot add.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegionError {
    /// The region has no bytes or runs past the end of the address space.
    #[error("a device region at 0x{base:x} of 0x{size:x} bytes is empty or wraps around")]
    Empty { base: u64, size: u64 },
    /// The region overlaps `what` (RAM, a device, another region) at `other` (start, end).
    #[error(
        "the device region 0x{base:x}..0x{end:x} overlaps {what} (0x{:x}..0x{:x})",
        other.0,
        other.1
    )]
    Overlaps {
        base: u64,
        end: u64,
        what: &'static str,
        other: (u64, u64),
    },
}

/// Why a boot ROM cannot be built.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RomError {
    #[error(
        "the device tree ({len} bytes) does not fit in the boot ROM at {ROM_BASE:#x} (at most \
         {max} bytes after the reset vector)",
        max = ROM_MAX_SIZE - ROM_RESET_VEC_SIZE
    )]
    TooLarge { len: usize },
}

impl BootRom {
    /// The ROM that starts a program at `entry` with the device tree `dtb`.
    pub fn new(entry: u64, dtb: &[u8]) -> Result<BootRom, RomError> {
        if dtb.len() as u64 > ROM_MAX_SIZE - ROM_RESET_VEC_SIZE {
            return Err(RomError::TooLarge { len: dtb.len() });
        }
        let words: [u32; 8] = [
            0x0000_0297,                                       // auipc t0, 0
            0x0002_8593 + ((ROM_RESET_VEC_SIZE as u32) << 20), // addi a1, t0, 32
            0xf140_2573,                                       // csrr a0, mhartid
            0x0182_b283,                                       // ld t0, 24(t0)
            0x0002_8067,                                       // jr t0
            0,
            entry as u32,
            (entry >> 32) as u32,
        ];
        let mut data: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        data.extend_from_slice(dtb);
        data.resize(data.len().next_multiple_of(PAGE_SIZE as usize), 0);
        Ok(BootRom { data })
    }

    /// Its size in bytes (a multiple of 4 KiB).
    pub fn size(&self) -> u64 {
        self.data.len() as u64
    }

    /// Its bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.data
    }

    /// The offset of `pa` in the ROM, if it is there.
    #[inline]
    fn offset(&self, pa: u64) -> Option<usize> {
        let off = pa.wrapping_sub(ROM_BASE);
        (off < self.data.len() as u64).then_some(off as usize)
    }

    /// `size` bytes little-endian at offset `off`; `None` past its end.
    fn read(&self, off: usize, size: u8) -> Option<u64> {
        let b = self.data.get(off..off.checked_add(size as usize)?)?;
        let mut v = [0u8; 8];
        v[..b.len()].copy_from_slice(b);
        Some(u64::from_le_bytes(v))
    }
}

/// Harts a machine can have (`Config::harts`): Spike's CLINT and PLIC take any number, and
/// 8 keeps every per-hart table small.
pub const MAX_HARTS: usize = 8;

/// The CLINT: each hart's msip (at `4 * h`) and mtimecmp (at `0x4000 + 8 * h`), and mtime.
/// mtime is advanced by the scheduler. Registers of harts beyond `harts` do not exist (an
/// access faults, as Spike's CLINT, whose size follows its harts).
#[derive(Clone)]
pub struct Clint {
    pub msip: [bool; MAX_HARTS],
    pub mtimecmp: [u64; MAX_HARTS],
    pub mtime: u64,
    /// The harts it serves (1..=[`MAX_HARTS`]).
    pub harts: usize,
}

impl Default for Clint {
    fn default() -> Self {
        Clint {
            msip: [false; MAX_HARTS],
            mtimecmp: [0; MAX_HARTS],
            mtime: 0,
            harts: 1,
        }
    }
}

impl Clint {
    /// Spike's CLINT (`clint.cc`): msip words below 0x4000 and mtimecmp below mtime, those of
    /// harts that do not exist reading 0 and ignoring writes; a doubleword msip access is two
    /// word accesses; a store into the middle of an msip word is ignored; the rest of the
    /// region reads 0 and ignores writes.
    fn load(&self, off: u64, size: u8) -> Option<u64> {
        let n = self.harts as u64;
        if off >= CLINT_SIZE || off + size as u64 > CLINT_SIZE {
            return None;
        }
        if off < CLINT_MTIMECMP {
            if size == 8 {
                let lo = self.load(off, 4)?;
                let hi = self.load(off + 4, 4)?;
                return Some(lo | hi << 32);
            }
            let h = (off - CLINT_MSIP) / 4;
            let v = (h < n && self.msip[h as usize]) as u64;
            let shift = off % 4;
            return (shift + size as u64 <= 4).then(|| extract(v, shift, size));
        }
        let (v, shift) = if off < CLINT_MTIME {
            let h = (off - CLINT_MTIMECMP) / 8;
            let v = if h < n { self.mtimecmp[h as usize] } else { 0 };
            (v, (off - CLINT_MTIMECMP) % 8)
        } else if off < CLINT_MTIME + 8 {
            (self.mtime, off - CLINT_MTIME)
        } else {
            return Some(0);
        };
        (shift + size as u64 <= 8).then(|| extract(v, shift, size))
    }

    fn store(&mut self, off: u64, size: u8, val: u64) -> bool {
        let n = self.harts as u64;
        if off >= CLINT_SIZE || off + size as u64 > CLINT_SIZE {
            return false;
        }
        if off < CLINT_MTIMECMP {
            if size == 8 {
                return self.store(off, 4, val) && self.store(off + 4, 4, val >> 32);
            }
            let h = (off - CLINT_MSIP) / 4;
            if off.is_multiple_of(4) && h < n {
                self.msip[h as usize] = val & 1 != 0;
            }
            return true;
        }
        if off < CLINT_MTIME {
            let h = (off - CLINT_MTIMECMP) / 8;
            let shift = (off - CLINT_MTIMECMP) % 8;
            if shift + size as u64 > 8 {
                return false;
            }
            if h < n {
                let r = &mut self.mtimecmp[h as usize];
                *r = insert(*r, shift, size, val);
            }
        } else if off < CLINT_MTIME + 8 {
            let shift = off - CLINT_MTIME;
            if shift + size as u64 > 8 {
                return false;
            }
            self.mtime = insert(self.mtime, shift, size, val);
        }
        true
    }
}

fn extract(v: u64, byte: u64, size: u8) -> u64 {
    let v = v >> (byte * 8);
    if size >= 8 {
        v
    } else {
        v & ((1u64 << (size as u32 * 8)) - 1)
    }
}

fn insert(old: u64, byte: u64, size: u8, val: u64) -> u64 {
    let mask = if size >= 8 {
        u64::MAX
    } else {
        (1u64 << (size as u32 * 8)) - 1
    };
    let sh = byte * 8;
    (old & !(mask << sh)) | ((val & mask) << sh)
}

/// The platform-level interrupt controller (RISC-V PLIC specification 1.0.0), in QEMU `virt`'s
/// layout: source priorities at +4*id, pending bits at +0x1000, each context's enable bits at
/// +0x2000 + 0x80*context, its threshold at +0x20_0000 + 0x1000*context and claim/complete 4
/// bytes after. Registers are 32 bits wide and accessed as such (other widths and misaligned
/// accesses are access faults, as on QEMU); unassigned offsets read 0 and ignore writes.
///
/// Sources are level-triggered: a source's pending bit follows its level while it is not
/// claimed; a claim (a read of claim/complete: the enabled pending source of highest
/// priority, the lowest ID among equals, 0 if none) clears it, and the gateway forwards the
/// source again only after the completion (a write of its ID, ignored unless the source is
/// enabled for that context). A context's interrupt line is up while a pending source it
/// enables has a priority above its threshold. Priority 0 never interrupts.
#[derive(Clone, Debug)]
pub struct Plic {
    priority: [u32; PLIC_SOURCES],
    /// Each source's input level, pending and claimed (in flight) bits, by ID.
    level: u64,
    pending: u64,
    claimed: u64,
    enable: [u64; PLIC_CONTEXTS],
    threshold: [u32; PLIC_CONTEXTS],
    /// The lines as last given to the harts ([`crate::Machine::irq_update`]).
    pub(crate) lines: [bool; PLIC_CONTEXTS],
    /// The contexts that exist: two per hart.
    pub contexts: usize,
}

impl Default for Plic {
    fn default() -> Self {
        Plic {
            priority: [0; PLIC_SOURCES],
            level: 0,
            pending: 0,
            claimed: 0,
            enable: [0; PLIC_CONTEXTS],
            threshold: [0; PLIC_CONTEXTS],
            lines: [false; PLIC_CONTEXTS],
            contexts: 2,
        }
    }
}

/// Source IDs that exist (1..=63): bit 0 is never set.
const PLIC_IDS: u64 = !1;

impl Plic {
    /// Drive source `id`'s input (1..[`PLIC_SOURCES`]).
    pub fn set_level(&mut self, id: usize, level: bool) {
        let bit = 1u64 << (id % PLIC_SOURCES) & PLIC_IDS;
        if level {
            self.level |= bit;
            self.pending |= bit & !self.claimed;
        } else {
            self.level &= !bit;
            self.pending &= !bit;
        }
    }

    /// Whether source `id` is pending.
    pub fn is_pending(&self, id: usize) -> bool {
        self.pending >> (id % PLIC_SOURCES) & 1 != 0
    }

    /// The enabled pending source of `ctx` with the highest priority above `floor`, lowest ID
    /// first among equals.
    fn best(&self, ctx: usize, floor: u32) -> Option<usize> {
        let mut cand = self.pending & self.enable[ctx];
        let mut best: Option<(usize, u32)> = None;
        while cand != 0 {
            let id = cand.trailing_zeros() as usize;
            cand &= cand - 1;
            let p = self.priority[id];
            if p > floor && best.is_none_or(|(_, bp)| p > bp) {
                best = Some((id, p));
            }
        }
        best.map(|(id, _)| id)
    }

    /// Whether context `ctx`'s interrupt line is up.
    pub fn line(&self, ctx: usize) -> bool {
        self.best(ctx, self.threshold[ctx]).is_some()
    }

    fn load(&mut self, off: u64, size: u8) -> Option<u64> {
        if size != 4 || !off.is_multiple_of(4) {
            return None;
        }
        let word = |bits: u64, w: u64| (bits >> (32 * w)) as u32 as u64;
        Some(match off {
            o if o < PLIC_PENDING => self.priority.get((o / 4) as usize).map_or(0, |&p| p as u64),
            o if o < PLIC_ENABLE => word(self.pending, (o - PLIC_PENDING) / 4),
            o if o < PLIC_CONTEXT => {
                let (ctx, w) = (
                    (o - PLIC_ENABLE) / PLIC_ENABLE_STRIDE,
                    (o % PLIC_ENABLE_STRIDE) / 4,
                );
                match self.enable.get(ctx as usize) {
                    Some(&e) if w < 2 && (ctx as usize) < self.contexts => word(e, w),
                    _ => 0,
                }
            }
            o => {
                let ctx = ((o - PLIC_CONTEXT) / PLIC_CONTEXT_STRIDE) as usize;
                if ctx >= self.contexts {
                    return Some(0);
                }
                match o % PLIC_CONTEXT_STRIDE {
                    0 => self.threshold[ctx] as u64,
                    4 => self.claim(ctx) as u64,
                    _ => 0,
                }
            }
        })
    }

    /// A claim by context `ctx`: the source it gets (0: none).
    fn claim(&mut self, ctx: usize) -> usize {
        match self.best(ctx, 0) {
            Some(id) => {
                self.pending &= !(1 << id);
                self.claimed |= 1 << id;
                id
            }
            None => 0,
        }
    }

    fn store(&mut self, off: u64, size: u8, val: u64) -> bool {
        if size != 4 || !off.is_multiple_of(4) {
            return false;
        }
        let val = val as u32;
        match off {
            o if o < PLIC_PENDING => {
                if let Some(p) = self.priority.get_mut((o / 4) as usize).filter(|_| o != 0) {
                    *p = val & PLIC_MAX_PRIORITY;
                }
            }
            // Pending bits are read-only.
            o if o < PLIC_ENABLE => {}
            o if o < PLIC_CONTEXT => {
                let (ctx, w) = (
                    (o - PLIC_ENABLE) / PLIC_ENABLE_STRIDE,
                    (o % PLIC_ENABLE_STRIDE) / 4,
                );
                let live = (ctx as usize) < self.contexts;
                if let Some(e) = self.enable.get_mut(ctx as usize).filter(|_| w < 2 && live) {
                    let sh = 32 * w;
                    *e = (*e & !(0xffff_ffff << sh) | (val as u64) << sh) & PLIC_IDS;
                }
            }
            o => {
                let ctx = ((o - PLIC_CONTEXT) / PLIC_CONTEXT_STRIDE) as usize;
                if ctx < self.contexts {
                    match o % PLIC_CONTEXT_STRIDE {
                        0 => self.threshold[ctx] = val & PLIC_MAX_PRIORITY,
                        4 => self.complete(ctx, val as usize),
                        _ => {}
                    }
                }
            }
        }
        true
    }

    /// A completion of source `id` by context `ctx`: the gateway forwards it again (at once,
    /// if its level is still up).
    fn complete(&mut self, ctx: usize, id: usize) {
        if id >= PLIC_SOURCES || self.enable[ctx] >> id & 1 == 0 {
            return;
        }
        let bit = 1u64 << id;
        self.claimed &= !bit;
        self.pending |= self.level & bit;
    }
}

/// Where the guest's console output goes (UART transmit, HTIF console and syscall writes).
pub enum Console {
    /// The host's standard output, flushed at every newline and at the end of the run. The
    /// first write error (a full disk, a closed pipe) is kept; output after it is dropped, and
    /// the run loop ends the run ([`crate::Stop::HostIoError`]).
    Stdout {
        out: std::io::BufWriter<std::io::Stdout>,
        error: Option<std::io::Error>,
    },
    /// Kept in memory (tests, the tandem verifier's reference hart).
    Capture(Vec<u8>),
    /// Discarded.
    Null,
}

impl Console {
    /// The host's standard output.
    pub fn stdout() -> Console {
        Console::Stdout {
            out: std::io::BufWriter::new(std::io::stdout()),
            error: None,
        }
    }

    pub fn write_bytes(&mut self, b: &[u8]) {
        match self {
            Console::Stdout { out, error } => {
                if error.is_some() {
                    return;
                }
                let mut r = out.write_all(b);
                if r.is_ok() && b.contains(&b'\n') {
                    r = out.flush();
                }
                if let Err(e) = r {
                    *error = Some(e);
                }
            }
            Console::Capture(v) => v.extend_from_slice(b),
            Console::Null => {}
        }
    }

    pub fn flush(&mut self) {
        if let Console::Stdout { out, error } = self {
            if error.is_none() {
                if let Err(e) = out.flush() {
                    *error = Some(e);
                }
            }
        }
    }

    /// The write error that ended the console's output, if any.
    pub fn error(&self) -> Option<&std::io::Error> {
        match self {
            Console::Stdout { error, .. } => error.as_ref(),
            _ => None,
        }
    }

    pub fn captured(&self) -> &[u8] {
        match self {
            Console::Capture(v) => v,
            _ => &[],
        }
    }
}

/// Bytes read from the input source at a time: the most [`UartInput`] holds.
pub const UART_INPUT_CHUNK: usize = 4096;

/// What the UART's receiver delivers: bytes given directly ([`UartInput::extend`]) and then
/// those of a source (`--uart-input`: a file, a FIFO, standard input), read as the guest
/// consumes them, [`UART_INPUT_CHUNK`] bytes at a time. When the buffer is empty and the
/// guest looks (LSR, RBR, the SBI console), the source is read, blocking until it has data or
/// ends, so the guest sees the same bytes whatever the timing of the source. Memory stays
/// bounded whatever the source's length (`/dev/zero` included). A read error ends the input
/// and is kept: the run loop then ends the run ([`crate::Stop::HostIoError`]).
///
/// A live source ([`UartInput::set_live_source`]: a terminal, where a person types) is read
/// by a thread of its own instead: the guest sees what has been typed so far and never waits
/// for it (a kernel polling LSR while it boots goes on booting); only a hart that waits for
/// an interrupt with nothing else to wake it waits for typing ([`UartInput::wait_live`]).
#[derive(Default)]
pub struct UartInput {
    buf: VecDeque<u8>,
    source: Option<Box<dyn std::io::Read + Send>>,
    live: Option<std::sync::mpsc::Receiver<std::io::Result<Vec<u8>>>>,
    error: Option<std::io::Error>,
}

impl UartInput {
    /// Deliver `bytes` (before anything the source still holds).
    pub fn extend<'a>(&mut self, bytes: impl IntoIterator<Item = &'a u8>) {
        self.buf.extend(bytes);
    }

    /// Read the rest from `source`, as the guest consumes it.
    pub fn set_source(&mut self, source: Box<dyn std::io::Read + Send>) {
        self.source = Some(source);
    }

    /// Read the rest from `source` as it comes (a terminal): a thread reads it, and the guest
    /// sees what has arrived without waiting for more.
    pub fn set_live_source(&mut self, mut source: Box<dyn std::io::Read + Send>) {
        // One chunk in flight: memory stays bounded whatever is typed or pasted.
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        std::thread::spawn(move || {
            let mut chunk = [0u8; UART_INPUT_CHUNK];
            loop {
                let msg = match source.read(&mut chunk) {
                    Ok(0) => return,
                    Ok(n) => Ok(chunk[..n].to_vec()),
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => Err(e),
                };
                let last = msg.is_err();
                if tx.send(msg).is_err() || last {
                    return;
                }
            }
        });
        self.live = Some(rx);
    }

    /// Whether input may still come from a live source.
    pub fn is_live(&self) -> bool {
        self.live.is_some()
    }

    /// For a hart that nothing else can wake: wait until the live source has data or ends.
    /// Whether data came.
    pub fn wait_live(&mut self) -> bool {
        if let Some(rx) = &self.live {
            let got = rx.recv();
            self.take_live(got.map_err(|_| std::sync::mpsc::TryRecvError::Disconnected));
        }
        !self.buf.is_empty()
    }

    fn take_live(&mut self, got: Result<std::io::Result<Vec<u8>>, std::sync::mpsc::TryRecvError>) {
        match got {
            Ok(Ok(v)) => self.buf.extend(v),
            Ok(Err(e)) => {
                self.error = Some(e);
                self.live = None;
            }
            Err(std::sync::mpsc::TryRecvError::Empty) => {}
            Err(std::sync::mpsc::TryRecvError::Disconnected) => self.live = None,
        }
    }

    /// The read error that ended the input, if any.
    pub fn error(&self) -> Option<&std::io::Error> {
        self.error.as_ref()
    }

    /// Make data available if there is more: read the source when the buffer is empty (a
    /// live source: take what has arrived).
    fn fill(&mut self) {
        if !self.buf.is_empty() {
            return;
        }
        if let Some(rx) = &self.live {
            let got = rx.try_recv();
            self.take_live(got);
            return;
        }
        let Some(src) = &mut self.source else {
            return;
        };
        let mut chunk = [0u8; UART_INPUT_CHUNK];
        loop {
            match src.read(&mut chunk) {
                Ok(0) => {
                    self.source = None;
                    return;
                }
                Ok(n) => {
                    self.buf.extend(&chunk[..n]);
                    return;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.error = Some(e);
                    self.source = None;
                    return;
                }
            }
        }
    }

    /// Whether a byte is waiting (LSR.DR).
    pub fn has_data(&mut self) -> bool {
        self.fill();
        !self.buf.is_empty()
    }

    /// The next byte, if any.
    pub fn pop_front(&mut self) -> Option<u8> {
        self.fill();
        self.buf.pop_front()
    }

    /// Up to `n` bytes of what is waiting (reading the source at most once).
    pub fn take(&mut self, n: usize) -> Vec<u8> {
        self.fill();
        let k = n.min(self.buf.len());
        self.buf.drain(..k).collect()
    }
}

/// An ns16550a-compatible UART, registers one byte wide at consecutive addresses.
///
/// Transmission is immediate, so the transmitter holding register is always empty (LSR.THRE
/// and TEMT). IIR reports the interrupt sources of the 16550A by priority: received data
/// available (IER.ERBFI with LSR.DR, ID 0b010), then transmitter holding register empty
/// (IER.ETBEI, ID 0b001). The THRE condition is raised when THR empties (after every write,
/// transmission being immediate) and when ETBEI is switched on, and cleared by a read of IIR
/// that reports it, as the 16550A does; a driver that polls IIR (Linux's 8250 without an
/// interrupt line) so sees its transmitter ready. The interrupt output ([`Uart::irq_level`]) is
/// up while IIR has a source to report, and drives PLIC source [`UART_IRQ`] (10). MSR reports
/// DCD, DSR and CTS asserted, or in loopback (MCR bit 4) MCR's OUT2, OUT1, RTS and DTR as DCD,
/// RI, CTS and DSR; no delta bit is ever set (the modem lines never change), and the line
/// status has no errors, so those two interrupt sources never fire. FCR enables the FIFOs (IIR
/// bits 7:6); its FIFO resets discard nothing, since received bytes come from the input as the
/// guest reads them.
pub struct Uart {
    ier: u8,
    /// The THRE interrupt condition (see above).
    thre_pending: bool,
    lcr: u8,
    mcr: u8,
    scr: u8,
    dll: u8,
    dlm: u8,
    fcr: u8,
    pub input: UartInput,
}

const UART_LSR_DR: u8 = 0x01;
const UART_LSR_THRE: u8 = 0x20;
const UART_LSR_TEMT: u8 = 0x40;
const UART_LCR_DLAB: u8 = 0x80;
const UART_IER_ERBFI: u8 = 0x01;
const UART_IER_ETBEI: u8 = 0x02;
const UART_IIR_NONE: u8 = 0x01;
const UART_IIR_THRE: u8 = 0x02;
const UART_IIR_RDA: u8 = 0x04;

impl Default for Uart {
    fn default() -> Self {
        Uart {
            ier: 0,
            thre_pending: false,
            lcr: 0,
            mcr: 0,
            scr: 0,
            dll: 0x0c,
            dlm: 0,
            fcr: 0,
            input: UartInput::default(),
        }
    }
}

impl Uart {
    fn load(&mut self, off: u64) -> u64 {
        let dlab = self.lcr & UART_LCR_DLAB != 0;
        (match off {
            0 if dlab => self.dll,
            0 => self.input.pop_front().unwrap_or(0),
            1 if dlab => self.dlm,
            1 => self.ier,
            2 => self.iir(),
            3 => self.lcr,
            4 => self.mcr,
            5 => {
                UART_LSR_THRE
                    | UART_LSR_TEMT
                    | if self.input.has_data() {
                        UART_LSR_DR
                    } else {
                        0
                    }
            }
            // MSR: DCD, DSR, CTS asserted; in loopback, OUT2, OUT1, RTS, DTR.
            6 if self.mcr & 0x10 != 0 => {
                let m = self.mcr;
                (m & 0x08) << 4 | (m & 0x04) << 4 | (m & 0x02) << 3 | (m & 0x01) << 5
            }
            6 => 0xb0,
            7 => self.scr,
            _ => 0,
        }) as u64
    }

    /// The interrupt output: received data with IER.ERBFI, or the THRE condition with
    /// IER.ETBEI (what IIR would report). Looking for received data reads the input source
    /// when the buffer is empty, as a read of LSR does.
    pub fn irq_level(&mut self) -> bool {
        (self.ier & UART_IER_ETBEI != 0 && self.thre_pending)
            || (self.ier & UART_IER_ERBFI != 0 && self.input.has_data())
    }

    /// Whether the receive interrupt is enabled (IER.ERBFI): new input can raise the line.
    #[inline]
    pub fn rx_irq_enabled(&self) -> bool {
        self.ier & UART_IER_ERBFI != 0
    }

    /// IIR: the highest-priority pending source (bit 0 clear) or none (0x01); bits 7:6 set
    /// when the FIFOs are enabled. Reporting THRE clears it.
    fn iir(&mut self) -> u8 {
        let fifo = if self.fcr & 1 != 0 { 0xc0 } else { 0 };
        let id = if self.ier & UART_IER_ERBFI != 0 && self.input.has_data() {
            UART_IIR_RDA
        } else if self.ier & UART_IER_ETBEI != 0 && self.thre_pending {
            self.thre_pending = false;
            UART_IIR_THRE
        } else {
            UART_IIR_NONE
        };
        fifo | id
    }

    fn store(&mut self, off: u64, val: u8, console: &mut Console) {
        let dlab = self.lcr & UART_LCR_DLAB != 0;
        match off {
            0 if dlab => self.dll = val,
            0 => {
                console.write_bytes(&[val]);
                // Sent at once: THR is empty again.
                self.thre_pending = true;
            }
            1 if dlab => self.dlm = val,
            1 => {
                // Enabling ETBEI with THR empty raises THRE.
                if val & UART_IER_ETBEI != 0 && self.ier & UART_IER_ETBEI == 0 {
                    self.thre_pending = true;
                }
                self.ier = val & 0x0f;
            }
            2 => self.fcr = val,
            3 => self.lcr = val,
            4 => self.mcr = val & 0x1f,
            7 => self.scr = val,
            _ => {}
        }
    }
}

/// Why the platform asked the run to end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlatformExit {
    /// The guest finished with this exit code (HTIF, test finisher pass/fail).
    Code(u64),
    /// The test finisher was asked to reset the machine, which hartscope does not model.
    ResetRequested,
}

/// What a bus access hit, for the hart's bookkeeping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BusEffect {
    None,
    /// The CLINT changed: msip or mtimecmp or mtime were written.
    Clint,
    /// The run should end.
    Exit,
}

/// A device whose registers the program embedding the hart provides (a testbench's model,
/// a Python object): the hart's loads and stores in its region are handed to it.
pub trait ExternalDevice: Send {
    /// A load of `size` bytes at `offset` in the region; `None` is an access fault.
    fn load(&mut self, offset: u64, size: u8) -> Option<u64>;
    /// A store; `false` is an access fault.
    fn store(&mut self, offset: u64, size: u8, value: u64) -> bool;
}

/// A region of the physical address space that belongs to the embedding program.
pub struct ExternalRegion {
    pub base: u64,
    pub size: u64,
    /// Its model; none: loads read 0 and stores are dropped (a lockstep checker takes the
    /// values the core loaded).
    pub device: Option<Box<dyn ExternalDevice>>,
}

impl ExternalRegion {
    fn offset(&self, pa: u64) -> Option<u64> {
        let off = pa.wrapping_sub(self.base);
        (off < self.size).then_some(off)
    }
}

/// The physical address space.
pub struct Bus {
    pub ram: Ram,
    pub clint: Clint,
    pub uart: Uart,
    pub console: Console,
    pub exit: Option<PlatformExit>,
    /// Whether the SiFive test finisher is present.
    pub finisher: bool,
    /// Regions the embedding program provides ([`Bus::add_external`]).
    pub external: Vec<ExternalRegion>,
    /// The boot ROM, when the machine has one ([`crate::Machine::boot`] builds it for runs
    /// without the built-in SBI).
    pub rom: Option<BootRom>,
    pub plic: Plic,
    /// The UART or the PLIC was accessed: their interrupt lines may have changed
    /// ([`crate::Machine::irq_update`] looks).
    pub irq_dirty: bool,
}

impl Bus {
    /// The bus with `ram_size` bytes of RAM at [`RAM_BASE`] (see [`Ram::new`] for the errors).
    pub fn new(ram_size: u64) -> Result<Bus, RamError> {
        Bus::with_ram(Ram::new(RAM_BASE, ram_size)?)
    }

    /// The bus with this RAM, which must not overlap the platform's devices.
    pub fn with_ram(ram: Ram) -> Result<Bus, RamError> {
        for (base, size) in ram.regions() {
            for (what, b, n) in [
                ("the CLINT", CLINT_BASE, CLINT_SIZE),
                ("the PLIC", PLIC_BASE, PLIC_SIZE),
                ("the UART", UART_BASE, UART_SIZE),
                ("the test finisher", FINISHER_BASE, FINISHER_SIZE),
            ] {
                if base < b + n && b < base + size {
                    return Err(RamError::Overlap {
                        base,
                        size,
                        what,
                        other_base: b,
                        other_size: n,
                    });
                }
            }
        }
        Ok(Bus {
            ram,
            clint: Clint::default(),
            uart: Uart::default(),
            console: Console::stdout(),
            exit: None,
            finisher: true,
            external: Vec::new(),
            rom: None,
            plic: Plic::default(),
            irq_dirty: false,
        })
    }

    /// Add a region the embedding program provides. It must not overlap RAM, the platform's
    /// devices or another such region.
    pub fn add_external(&mut self, r: ExternalRegion) -> Result<(), RegionError> {
        let end = r.base.checked_add(r.size).filter(|_| r.size > 0);
        let Some(end) = end else {
            return Err(RegionError::Empty {
                base: r.base,
                size: r.size,
            });
        };
        let overlaps = |b: u64, e: u64| r.base < e && b < end;
        let mut taken: Vec<(&str, u64, u64)> = self
            .ram
            .regions()
            .into_iter()
            .map(|(b, n)| ("RAM", b, b + n))
            .collect();
        taken.extend([
            ("the CLINT", CLINT_BASE, CLINT_BASE + CLINT_SIZE),
            ("the PLIC", PLIC_BASE, PLIC_BASE + PLIC_SIZE),
            ("the UART", UART_BASE, UART_BASE + UART_SIZE),
        ]);
        if self.rom.is_some() {
            taken.push(("the boot ROM", ROM_BASE, ROM_BASE + ROM_MAX_SIZE));
        }
        if self.finisher {
            taken.push((
                "the test finisher",
                FINISHER_BASE,
                FINISHER_BASE + FINISHER_SIZE,
            ));
        }
        for x in &self.external {
            taken.push(("another device region", x.base, x.base + x.size));
        }
        if let Some((what, b, e)) = taken.into_iter().find(|&(_, b, e)| overlaps(b, e)) {
            return Err(RegionError::Overlaps {
                base: r.base,
                end,
                what,
                other: (b, e),
            });
        }
        self.external.push(r);
        Ok(())
    }

    /// Whether `pa` is in a device region (not RAM). Used to decide what may be cached.
    pub fn is_device(&self, pa: u64) -> bool {
        self.rom.as_ref().is_some_and(|r| r.offset(pa).is_some())
            || (CLINT_BASE..CLINT_BASE + CLINT_SIZE).contains(&pa)
            || (PLIC_BASE..PLIC_BASE + PLIC_SIZE).contains(&pa)
            || (UART_BASE..UART_BASE + UART_SIZE).contains(&pa)
            || (self.finisher && (FINISHER_BASE..FINISHER_BASE + FINISHER_SIZE).contains(&pa))
            || self.external.iter().any(|r| r.offset(pa).is_some())
    }

    /// Whether a load at `pa` reads a device whose data the model cannot know in advance
    /// (its state, the testbench's, the outside world's): every device but the boot ROM,
    /// whose contents are fixed. A checker takes such loads' data from the core.
    pub fn is_mmio(&self, pa: u64) -> bool {
        self.is_device(pa) && self.rom.as_ref().is_none_or(|r| r.offset(pa).is_none())
    }

    /// A load outside RAM. `None` is an access fault.
    pub fn device_load(&mut self, pa: u64, size: u8) -> Option<u64> {
        if let Some(off) = self.rom.as_ref().and_then(|r| r.offset(pa)) {
            return self.rom.as_ref()?.read(off, size);
        }
        if (CLINT_BASE..CLINT_BASE + CLINT_SIZE).contains(&pa) {
            self.clint.load(pa - CLINT_BASE, size)
        } else if (PLIC_BASE..PLIC_BASE + PLIC_SIZE).contains(&pa) {
            self.irq_dirty = true;
            self.plic.load(pa - PLIC_BASE, size)
        } else if (UART_BASE..UART_BASE + UART_SIZE).contains(&pa) {
            if size != 1 {
                return None;
            }
            self.irq_dirty = true;
            Some(self.uart.load(pa - UART_BASE))
        } else if self.finisher && (FINISHER_BASE..FINISHER_BASE + FINISHER_SIZE).contains(&pa) {
            Some(0)
        } else {
            let r = self.external.iter_mut().find(|r| r.offset(pa).is_some())?;
            let off = pa - r.base;
            match &mut r.device {
                Some(d) => d.load(off, size),
                None => Some(0),
            }
        }
    }

    /// A store outside RAM. `None` is an access fault.
    pub fn device_store(&mut self, pa: u64, size: u8, val: u64) -> Option<BusEffect> {
        if (CLINT_BASE..CLINT_BASE + CLINT_SIZE).contains(&pa) {
            self.clint
                .store(pa - CLINT_BASE, size, val)
                .then_some(BusEffect::Clint)
        } else if (PLIC_BASE..PLIC_BASE + PLIC_SIZE).contains(&pa) {
            self.irq_dirty = true;
            self.plic
                .store(pa - PLIC_BASE, size, val)
                .then_some(BusEffect::None)
        } else if (UART_BASE..UART_BASE + UART_SIZE).contains(&pa) {
            if size != 1 {
                return None;
            }
            self.irq_dirty = true;
            self.uart
                .store(pa - UART_BASE, val as u8, &mut self.console);
            Some(BusEffect::None)
        } else if self.finisher && (FINISHER_BASE..FINISHER_BASE + FINISHER_SIZE).contains(&pa) {
            // As QEMU's sifive_test: 16- and 32-bit writes of its one register (OpenSBI's
            // system reset writes 0x5555 with a 16-bit store; its code field is then 0).
            if pa != FINISHER_BASE || size < 2 {
                return Some(BusEffect::None);
            }
            let v = if size == 2 {
                val as u16 as u32
            } else {
                val as u32
            };
            match v & 0xffff {
                0x5555 => self.exit = Some(PlatformExit::Code(0)),
                0x3333 => self.exit = Some(PlatformExit::Code((v >> 16) as u64)),
                0x7777 => self.exit = Some(PlatformExit::ResetRequested),
                _ => return Some(BusEffect::None),
            }
            Some(BusEffect::Exit)
        } else {
            let r = self.external.iter_mut().find(|r| r.offset(pa).is_some())?;
            let off = pa - r.base;
            match &mut r.device {
                Some(d) => d.store(off, size, val).then_some(BusEffect::None),
                None => Some(BusEffect::None),
            }
        }
    }

    /// The offset in the boot ROM of `pa`, if the ROM holds it.
    #[inline]
    pub fn rom_offset(&self, pa: u64) -> Option<u64> {
        self.rom.as_ref()?.offset(pa).map(|o| o as u64)
    }

    /// A load of `size` bytes at offset `off` of the boot ROM (as [`Bus::device_load`] reads
    /// it); `None` past its end or without one.
    #[inline]
    pub fn rom_read(&self, off: u64, size: u8) -> Option<u64> {
        self.rom.as_ref()?.read(usize::try_from(off).ok()?, size)
    }

    /// The half-word of the boot ROM at `pa`, for an instruction fetch; `None` when `pa` is
    /// not in the ROM (an access fault).
    #[inline]
    pub fn rom_fetch(&self, pa: u64) -> Option<u16> {
        let rom = self.rom.as_ref()?;
        rom.read(rom.offset(pa)?, 2).map(|v| v as u16)
    }

    /// Read physical memory for the host (loader, HTIF, signatures): RAM only.
    pub fn read_phys(&self, pa: u64, buf: &mut [u8]) -> bool {
        match self.ram.offset(pa, buf.len() as u64) {
            Some(off) => {
                buf.copy_from_slice(self.ram.bytes(off, buf.len()));
                true
            }
            None => false,
        }
    }

    pub fn read_u64(&self, pa: u64) -> Option<u64> {
        self.ram.offset(pa, 8).map(|off| self.ram.read(off, 8))
    }

    pub fn write_u64(&mut self, pa: u64, v: u64) -> bool {
        match self.ram.offset(pa, 8) {
            Some(off) => {
                self.ram.write(off, 8, v);
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ram_bounds() {
        let r = Ram::new(RAM_BASE, 4096).unwrap();
        assert_eq!(r.offset(RAM_BASE, 8), Some(0));
        assert_eq!(r.offset(RAM_BASE + 4088, 8), Some(4088));
        assert_eq!(r.offset(RAM_BASE + 4089, 8), None);
        assert_eq!(r.offset(RAM_BASE - 1, 1), None);
        assert_eq!(r.offset(u64::MAX, 8), None);
    }

    /// RAM is reserved, not committed: the largest size builds even on a small host, its last
    /// byte is writable, and impossible sizes are errors, not panics or aborts.
    #[test]
    fn ram_is_lazy_and_sizes_are_checked() {
        let mut r = Ram::new(RAM_BASE, MAX_RAM_SIZE).expect("1 TiB of address space");
        let last = r.offset(RAM_BASE + MAX_RAM_SIZE - 8, 8).unwrap();
        r.write(last, 8, 0x1122_3344_5566_7788);
        assert_eq!(r.read(last, 8), 0x1122_3344_5566_7788);
        assert_eq!(r.read(0, 8), 0);
        assert_eq!(
            Ram::new(RAM_BASE, 0).err(),
            Some(RamError::Size { size: 0 })
        );
        assert_eq!(
            Ram::new(RAM_BASE, MAX_RAM_SIZE + 4096).err(),
            Some(RamError::Size {
                size: MAX_RAM_SIZE + 4096
            })
        );
        assert!(matches!(
            Ram::new(u64::MAX - 4095, 8192),
            Err(RamError::Wraps { .. })
        ));
        let e = crate::Machine::try_new(crate::Config {
            ram_size: u64::MAX,
            ..crate::Config::default()
        })
        .err()
        .expect("an impossible RAM size is an error");
        assert!(e.to_string().contains("RAM size 0xffffffffffffffff"), "{e}");
    }

    /// Spike's reset vector, the entry at 0x1018, the tree at 0x1020; 4 KiB multiples; loads
    /// of every width within it, none past it; stores fault; fetches read it.
    #[test]
    fn boot_rom_layout_and_access() {
        let dtb = [0xd0, 0x0d, 0xfe, 0xed, 1, 2, 3];
        let rom = BootRom::new(0x8020_0000_1234, &dtb).unwrap();
        assert_eq!(rom.size(), 0x1000);
        let mut b = Bus::new(4096).unwrap();
        b.rom = Some(rom);
        let words = [0x297, 0x0202_8593, 0xf140_2573, 0x0182_b283, 0x28067, 0];
        for (i, w) in words.iter().enumerate() {
            assert_eq!(
                b.device_load(ROM_BASE + 4 * i as u64, 4),
                Some(*w),
                "word {i}"
            );
        }
        assert_eq!(b.device_load(ROM_BASE + 0x18, 8), Some(0x8020_0000_1234));
        assert_eq!(b.device_load(ROM_BASE + 0x20, 4), Some(0xedfe_0dd0));
        assert_eq!(b.device_load(ROM_BASE + 0x26, 1), Some(3));
        assert_eq!(b.device_load(ROM_BASE + 0x27, 1), Some(0));
        assert_eq!(b.device_load(ROM_BASE + 0xff8, 8), Some(0));
        assert_eq!(b.device_load(ROM_BASE + 0x1000, 1), None);
        assert_eq!(b.device_load(ROM_BASE - 1, 1), None);
        assert_eq!(b.device_store(ROM_BASE, 4, 0), None);
        assert_eq!(b.device_store(ROM_BASE + 0x20, 1, 0), None);
        assert_eq!(b.rom_fetch(ROM_BASE + 2), Some(0));
        assert_eq!(b.rom_fetch(ROM_BASE + 8), Some(0x2573));
        assert_eq!(b.rom_fetch(ROM_BASE + 0x1000), None);
        assert!(b.is_device(ROM_BASE) && !b.is_device(ROM_BASE + 0x1000));
        // A region of the embedding program may not take the ROM's window.
        let e = b
            .add_external(ExternalRegion {
                base: 0x8000,
                size: 0x1000,
                device: None,
            })
            .unwrap_err();
        assert!(e.to_string().contains("the boot ROM"), "{e}");
        assert_eq!(
            e,
            RegionError::Overlaps {
                base: 0x8000,
                end: 0x9000,
                what: "the boot ROM",
                other: (ROM_BASE, ROM_BASE + ROM_MAX_SIZE)
            }
        );
        // A larger tree makes a larger ROM; one past the window is an error.
        assert_eq!(BootRom::new(0, &[0; 0x1000]).unwrap().size(), 0x2000);
        assert_eq!(
            BootRom::new(0, &[0; 0xf000]).err(),
            Some(RomError::TooLarge { len: 0xf000 })
        );
    }

    fn plic_w(b: &mut Bus, off: u64, v: u32) {
        assert_eq!(
            b.device_store(PLIC_BASE + off, 4, v as u64),
            Some(BusEffect::None)
        );
    }
    fn plic_r(b: &mut Bus, off: u64) -> u32 {
        b.device_load(PLIC_BASE + off, 4).unwrap() as u32
    }

    /// The QEMU `virt` register layout, WARL priorities and threshold, enables per context,
    /// 32-bit accesses only.
    #[test]
    fn plic_registers() {
        let mut b = Bus::new(4096).unwrap();
        plic_w(&mut b, 4 * 10, 0xffff_ffff);
        assert_eq!(plic_r(&mut b, 4 * 10), 7);
        plic_w(&mut b, 0, 3);
        assert_eq!(plic_r(&mut b, 0), 0, "source 0 has no priority");
        plic_w(&mut b, 4 * 63, 2);
        assert_eq!(plic_r(&mut b, 4 * 63), 2);
        assert_eq!(plic_r(&mut b, 4 * 64), 0, "no source 64");
        plic_w(&mut b, 0x2000, 0xffff_ffff);
        assert_eq!(plic_r(&mut b, 0x2000), 0xffff_fffe, "no source 0");
        plic_w(&mut b, 0x2084, 0x8000_0001);
        assert_eq!(plic_r(&mut b, 0x2084), 0x8000_0001);
        assert_eq!(plic_r(&mut b, 0x2080), 0);
        assert_eq!(plic_r(&mut b, 0x2100), 0, "no context 2");
        plic_w(&mut b, 0x20_1000, 9);
        assert_eq!(plic_r(&mut b, 0x20_1000), 1);
        plic_w(&mut b, 0x1000, 0xffff_ffff);
        assert_eq!(plic_r(&mut b, 0x1000), 0, "pending is read-only");
        assert_eq!(b.device_load(PLIC_BASE + 0x1000, 8), None);
        assert_eq!(b.device_load(PLIC_BASE + 0x1002, 4), None);
        assert_eq!(b.device_store(PLIC_BASE + 4, 1, 1), None);
        assert_eq!(plic_r(&mut b, 0x300_0000), 0);
        assert!(b.irq_dirty);
    }

    /// Level-triggered gateways: pending follows the level until claimed; a claim takes the
    /// highest priority (lowest ID among equals); completion re-arms; the threshold masks the
    /// line but not the claim.
    #[test]
    fn plic_claim_and_complete() {
        let mut b = Bus::new(4096).unwrap();
        let p = |b: &mut Bus| b.plic.clone();
        for id in [3, 5, 7] {
            plic_w(&mut b, 4 * id, 2);
        }
        plic_w(&mut b, 4 * 7, 5);
        plic_w(&mut b, 0x2000, (1 << 3) | (1 << 5) | (1 << 7));
        b.plic.set_level(5, true);
        b.plic.set_level(3, true);
        assert!(p(&mut b).line(0) && !p(&mut b).line(1));
        assert_eq!(plic_r(&mut b, 0x1000), (1 << 3) | (1 << 5));
        b.plic.set_level(5, false);
        assert_eq!(plic_r(&mut b, 0x1000), 1 << 3, "pending follows the level");
        b.plic.set_level(5, true);
        b.plic.set_level(7, true);
        plic_w(&mut b, 0x20_0000, 5);
        assert!(!p(&mut b).line(0), "priority 5 is not above threshold 5");
        assert_eq!(
            plic_r(&mut b, 0x20_0004),
            7,
            "the claim ignores the threshold"
        );
        plic_w(&mut b, 0x20_0000, 0);
        assert_eq!(plic_r(&mut b, 0x20_0004), 3, "equal priorities: lowest ID");
        assert_eq!(plic_r(&mut b, 0x20_0004), 5);
        assert_eq!(plic_r(&mut b, 0x20_0004), 0, "all claimed");
        assert!(!p(&mut b).line(0));
        // Claimed sources are not forwarded until completed, even with the level up.
        b.plic.set_level(3, true);
        assert!(!b.plic.is_pending(3));
        plic_w(&mut b, 0x20_0004, 3);
        assert!(
            b.plic.is_pending(3),
            "completed with the level up: pending again"
        );
        // Completing a source the context does not enable is ignored.
        plic_w(&mut b, 0x2000, 1 << 3);
        b.plic.set_level(5, false);
        plic_w(&mut b, 0x20_0004, 5);
        b.plic.set_level(5, true);
        assert!(
            !b.plic.is_pending(5),
            "5 was claimed and its completion ignored"
        );
    }

    #[test]
    fn clint_partial_access() {
        let mut c = Clint::default();
        assert!(c.store(CLINT_MTIMECMP, 4, 0x1234_5678));
        assert!(c.store(CLINT_MTIMECMP + 4, 4, 0x9abc_def0));
        assert_eq!(c.mtimecmp[0], 0x9abc_def0_1234_5678);
        assert_eq!(c.load(CLINT_MTIMECMP + 4, 4), Some(0x9abc_def0));
        assert_eq!(c.load(CLINT_MTIMECMP + 6, 4), None);
        assert!(c.store(CLINT_MSIP, 4, 3));
        assert!(c.msip[0]);
        // As Spike's: another hart's msip (none here) reads 0 and ignores writes, and so
        // does the rest of the region.
        assert_eq!(c.load(0x100, 4), Some(0));
        assert!(c.store(4, 4, 1));
        assert_eq!(c.load(4, 4), Some(0));
        assert_eq!(c.load(0x8000, 8), Some(0));
        assert_eq!(c.load(CLINT_SIZE - 4, 8), None);
        c.harts = 2;
        assert!(c.store(0, 8, 1 << 32));
        assert_eq!((c.msip[0], c.msip[1]), (false, true));
        assert!(c.store(CLINT_MTIMECMP + 8, 8, 77));
        assert_eq!(c.mtimecmp[1], 77);
        assert_eq!(c.load(CLINT_MTIMECMP + 8, 8), Some(77));
    }

    #[test]
    fn uart_transmit_and_status() {
        let mut b = Bus::new(4096).unwrap();
        b.console = Console::Capture(Vec::new());
        assert_eq!(b.device_load(UART_BASE + 5, 1), Some(0x60));
        b.device_store(UART_BASE, 1, b'h' as u64).unwrap();
        assert_eq!(b.console.captured(), b"h");
        assert_eq!(b.device_store(UART_BASE, 4, 0), None);
        b.uart.input.extend(b"x");
        assert_eq!(b.device_load(UART_BASE + 5, 1), Some(0x61));
        assert_eq!(b.device_load(UART_BASE, 1), Some(b'x' as u64));
    }

    /// A live source (a terminal) is never waited for: with nothing typed, LSR says no data
    /// at once (a kernel polling LSR while it boots goes on); what is typed then arrives,
    /// and `wait_live` waits for it; the source's end ends the input.
    #[test]
    fn uart_live_input_is_not_waited_for() {
        struct Typist(std::sync::mpsc::Receiver<Vec<u8>>);
        impl std::io::Read for Typist {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                match self.0.recv() {
                    Ok(v) => {
                        buf[..v.len()].copy_from_slice(&v);
                        Ok(v.len())
                    }
                    Err(_) => Ok(0),
                }
            }
        }
        let (keys, rx) = std::sync::mpsc::channel();
        let mut u = Uart::default();
        u.input.set_live_source(Box::new(Typist(rx)));
        // Nothing typed: LSR answers at once, without DR.
        assert_eq!(u.load(5) & UART_LSR_DR as u64, 0);
        assert!(u.input.is_live());
        keys.send(b"hi\n".to_vec()).unwrap();
        assert!(u.input.wait_live(), "typed input arrives");
        assert_eq!(u.load(5) & UART_LSR_DR as u64, UART_LSR_DR as u64);
        assert_eq!(
            [u.load(0), u.load(0), u.load(0)],
            [b'h' as u64, b'i' as u64, 10]
        );
        drop(keys);
        assert!(!u.input.wait_live(), "the end of the source");
        assert!(!u.input.is_live());
        assert_eq!(u.load(5) & UART_LSR_DR as u64, 0);
    }

    /// IIR as a 16550A reports it: no source, received data, THRE raised by enabling ETBEI
    /// and by each transmitted byte, cleared by the read that reports it.
    #[test]
    fn uart_iir_sources() {
        let mut b = Bus::new(4096).unwrap();
        let iir = |b: &mut Bus| b.device_load(UART_BASE + 2, 1).unwrap();
        assert_eq!(iir(&mut b), 0x01);
        // ETBEI on: THRE pending once.
        b.device_store(UART_BASE + 1, 1, 0x02).unwrap();
        assert_eq!(iir(&mut b), 0x02);
        assert_eq!(iir(&mut b), 0x01);
        // A byte sent: THR empty again.
        b.console = Console::Null;
        b.device_store(UART_BASE, 1, b'x' as u64).unwrap();
        assert_eq!(iir(&mut b), 0x02);
        assert_eq!(iir(&mut b), 0x01);
        // Received data outranks THRE and stays until read; FIFOs on set bits 7:6.
        b.device_store(UART_BASE + 2, 1, 0x01).unwrap();
        b.device_store(UART_BASE + 1, 1, 0x03).unwrap();
        b.device_store(UART_BASE, 1, b'y' as u64).unwrap();
        b.uart.input.extend(b"z");
        assert_eq!(iir(&mut b), 0xc4);
        assert_eq!(iir(&mut b), 0xc4);
        assert_eq!(b.device_load(UART_BASE, 1), Some(b'z' as u64));
        assert_eq!(iir(&mut b), 0xc2);
        assert_eq!(iir(&mut b), 0xc1);
        // With the sources disabled nothing is reported.
        b.device_store(UART_BASE + 1, 1, 0x00).unwrap();
        b.device_store(UART_BASE, 1, b'w' as u64).unwrap();
        assert_eq!(iir(&mut b), 0xc1);
    }

    #[test]
    fn finisher() {
        let mut b = Bus::new(4096).unwrap();
        b.device_store(FINISHER_BASE, 4, (3 << 16) | 0x3333)
            .unwrap();
        assert_eq!(b.exit, Some(PlatformExit::Code(3)));
        // A 16-bit write (OpenSBI's power-off) counts; its code field is 0.
        let mut b = Bus::new(4096).unwrap();
        b.device_store(FINISHER_BASE, 2, 0x5555).unwrap();
        assert_eq!(b.exit, Some(PlatformExit::Code(0)));
        let mut b = Bus::new(4096).unwrap();
        b.device_store(FINISHER_BASE, 2, 0x3333).unwrap();
        assert_eq!(b.exit, Some(PlatformExit::Code(0)));
        // A byte, or another offset, is not the register.
        let mut b = Bus::new(4096).unwrap();
        b.device_store(FINISHER_BASE, 1, 0x55).unwrap();
        b.device_store(FINISHER_BASE + 2, 2, 0x5555).unwrap();
        assert_eq!(b.exit, None);
    }
}
