//! Loading RV64 little-endian ELF executables.
//!
//! PT_LOAD segments are copied to their physical addresses (`p_paddr`, as Spike does) and the
//! rest of each segment (`p_memsz - p_filesz`) is zeroed. The symbol table is kept for HTIF
//! (`tohost`, `fromhost`), signatures (`begin_signature`, `end_signature`) and symbolised
//! output.
//!
//! The file is read by [`ElfFile`], a small reader of exactly the parts hartscope needs (the
//! ELF header, the program headers, the symbol table and its strings), with every offset and
//! size checked against the file: a damaged file is an [`ElfError`] that names the file, the
//! structure (header, program header or segment number, section) and the offsets against the
//! file's size. Symbol names need not be UTF-8 (they are converted lossily); a symbol whose
//! name lies outside its string table is skipped.

use crate::bus::MAX_RAM_SIZE;
use crate::machine::Machine;
use goblin::elf::{header, program_header, sym};
use std::collections::{BTreeMap, HashMap};
use thiserror::Error;

#[derive(Debug, Error)]
pub enum ElfError {
    #[error("{path}: cannot read")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: not an ELF file: {reason}")]
    NotElf { path: String, reason: String },
    #[error("{path}: larger than {cap:#x} bytes, the most hartscope reads of an ELF file")]
    TooLarge { path: String, cap: u64 },
    #[error("{path}: a 32-bit ELF; hartscope runs RV64 programs")]
    Not64Bit { path: String },
    #[error("{path}: a big-endian ELF; RISC-V programs are little-endian")]
    BigEndian { path: String },
    #[error("{path}: machine type {machine} ({name}), not RISC-V (243)")]
    NotRiscv {
        path: String,
        machine: u16,
        name: &'static str,
    },
    #[error("{path}: ELF type {0} is not an executable", kind)]
    NotExecutable { path: String, kind: u16 },
    /// A structure the file's headers place (partly) past its end.
    #[error(
        "{path}: truncated or corrupt ELF file: {what} at file offset {offset:#x} with {len:#x} \
         bytes runs past the end of the file ({file_len:#x} bytes)"
    )]
    Truncated {
        path: String,
        /// "the ELF header", "program header 2", "segment 1's data", "section header 7"...
        what: String,
        offset: u64,
        len: u64,
        file_len: u64,
    },
    /// A header field with a value the format does not allow.
    #[error("{path}: corrupt ELF file: {what}")]
    BadField { path: String, what: String },
    #[error(
        "{path}: segment {index} at {addr:#x}..{end:#x} lies below RAM, which starts at \
         {ram_start:#x}: only RAM ({ram_start:#x}..{ram_end:#x}) can be loaded"
    )]
    SegmentBelowRam {
        path: String,
        index: usize,
        addr: u64,
        end: u64,
        ram_start: u64,
        ram_end: u64,
    },
    #[error(
        "{path}: segment {index} at {addr:#x}..{end:#x} lies outside RAM {ram_start:#x}..{ram_end:#x}{hint}"
    )]
    SegmentOutsideRam {
        path: String,
        index: usize,
        addr: u64,
        end: u64,
        ram_start: u64,
        ram_end: u64,
        /// " (use --mem to enlarge RAM)" when a larger RAM would hold it.
        hint: &'static str,
    },
    #[error(
        "{path}: segment {index} at {addr:#x} with p_memsz {memsz:#x} runs past the end of the \
         64-bit address space"
    )]
    SegmentWraps {
        path: String,
        index: usize,
        addr: u64,
        memsz: u64,
    },
    #[error(
        "{path}: segment {index} at {addr:#x}..{end:#x}: its size in the file (p_filesz \
         {filesz:#x}) is larger than its size in memory (p_memsz {memsz:#x})"
    )]
    FileSizeAboveMemSize {
        path: String,
        index: usize,
        addr: u64,
        end: u64,
        filesz: u64,
        memsz: u64,
    },
}

/// Why `--signature` cannot be written.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SignatureError {
    #[error("the program has no begin_signature/end_signature symbols")]
    NoSymbols,
    #[error("end_signature {end:#x} is before begin_signature {begin:#x}")]
    Reversed { begin: u64, end: u64 },
    #[error(
        "begin_signature {begin:#x}..end_signature {end:#x} is not inside RAM \
         {ram_start:#x}..{ram_end:#x}"
    )]
    OutsideRam {
        begin: u64,
        end: u64,
        ram_start: u64,
        ram_end: u64,
    },
}

const EHDR_SIZE: u64 = 64;
const PHDR_SIZE: u64 = 56;
const SHDR_SIZE: u64 = 64;
const SYM_SIZE: u64 = 24;
const SHT_SYMTAB: u32 = 2;

/// `e_machine` of a RISC-V ELF file.
pub const EM_RISCV: u16 = header::EM_RISCV;

/// One program header of an [`ElfFile`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ElfSegment {
    /// Its index in the program header table.
    pub index: usize,
    pub p_type: u32,
    pub p_flags: u32,
    pub p_offset: u64,
    pub p_vaddr: u64,
    pub p_paddr: u64,
    pub p_filesz: u64,
    pub p_memsz: u64,
}

/// A checked view of an ELF64 little-endian file: the header was read and its tables lie
/// inside the file.
pub struct ElfFile<'a> {
    bytes: &'a [u8],
    path: &'a str,
    pub e_type: u16,
    pub e_machine: u16,
    pub entry: u64,
    phoff: u64,
    phnum: u64,
    shoff: u64,
    shnum: u64,
}

fn le16(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}
fn le32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}
fn le64(b: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(w)
}

impl<'a> ElfFile<'a> {
    /// Read the ELF header of `bytes` (named `path` in errors): an ELF64 little-endian file
    /// whose program and section header tables lie inside the file.
    pub fn parse(bytes: &'a [u8], path: &'a str) -> Result<ElfFile<'a>, ElfError> {
        let p = || path.to_string();
        if bytes.len() < 4 || &bytes[..4] != b"\x7fELF" {
            return Err(ElfError::NotElf {
                path: p(),
                reason: if bytes.is_empty() {
                    "the file is empty".into()
                } else {
                    "no ELF magic number".into()
                },
            });
        }
        if bytes.len() > 4 && bytes[4] == header::ELFCLASS32 {
            return Err(ElfError::Not64Bit { path: p() });
        }
        if bytes.len() > 5 && bytes[5] == header::ELFDATA2MSB {
            return Err(ElfError::BigEndian { path: p() });
        }
        let f = ElfFile {
            bytes,
            path,
            e_type: 0,
            e_machine: 0,
            entry: 0,
            phoff: 0,
            phnum: 0,
            shoff: 0,
            shnum: 0,
        };
        let h = f.range("the ELF header", 0, EHDR_SIZE)?;
        if h[4] != header::ELFCLASS64 {
            return Err(f.bad(format!("EI_CLASS is {}, not 2 (ELF64)", h[4])));
        }
        if h[5] != header::ELFDATA2LSB {
            return Err(f.bad(format!("EI_DATA is {}, not 1 (little-endian)", h[5])));
        }
        let phentsize = le16(h, 54);
        let shentsize = le16(h, 58);
        let mut f = ElfFile {
            e_type: le16(h, 16),
            e_machine: le16(h, 18),
            entry: le64(h, 24),
            phoff: le64(h, 32),
            shoff: le64(h, 40),
            phnum: u64::from(le16(h, 56)),
            shnum: u64::from(le16(h, 60)),
            ..f
        };
        if f.phnum != 0 && u64::from(phentsize) != PHDR_SIZE {
            return Err(f.bad(format!(
                "e_phentsize is {phentsize}, not {PHDR_SIZE} (the ELF64 program header size)"
            )));
        }
        if f.shnum != 0 && u64::from(shentsize) != SHDR_SIZE {
            return Err(f.bad(format!(
                "e_shentsize is {shentsize}, not {SHDR_SIZE} (the ELF64 section header size)"
            )));
        }
        f.range("the program header table", f.phoff, f.phnum * PHDR_SIZE)?;
        if f.shoff == 0 {
            f.shnum = 0;
        }
        f.range("the section header table", f.shoff, f.shnum * SHDR_SIZE)?;
        Ok(f)
    }

    fn bad(&self, what: String) -> ElfError {
        ElfError::BadField {
            path: self.path.to_string(),
            what,
        }
    }

    /// The bytes `offset..offset+len` of the file, or a [`ElfError::Truncated`] naming `what`.
    fn range(&self, what: &str, offset: u64, len: u64) -> Result<&'a [u8], ElfError> {
        let file_len = self.bytes.len() as u64;
        match offset.checked_add(len) {
            Some(end) if end <= file_len => Ok(&self.bytes[offset as usize..end as usize]),
            _ => Err(ElfError::Truncated {
                path: self.path.to_string(),
                what: what.to_string(),
                offset,
                len,
                file_len,
            }),
        }
    }

    /// The program headers.
    pub fn segments(&self) -> impl Iterator<Item = ElfSegment> + '_ {
        (0..self.phnum as usize).map(move |index| {
            let at = self.phoff as usize + index * PHDR_SIZE as usize;
            let b = &self.bytes[at..at + PHDR_SIZE as usize];
            ElfSegment {
                index,
                p_type: le32(b, 0),
                p_flags: le32(b, 4),
                p_offset: le64(b, 8),
                p_vaddr: le64(b, 16),
                p_paddr: le64(b, 24),
                p_filesz: le64(b, 32),
                p_memsz: le64(b, 40),
            }
        })
    }

    /// The loadable segments (`PT_LOAD`) that occupy memory, in file order.
    pub fn loadable(&self) -> impl Iterator<Item = ElfSegment> + '_ {
        self.segments()
            .filter(|s| s.p_type == program_header::PT_LOAD && s.p_memsz != 0)
    }

    /// A RISC-V file, or [`ElfError::NotRiscv`].
    pub fn check_riscv(&self) -> Result<(), ElfError> {
        if self.e_machine != EM_RISCV {
            return Err(ElfError::NotRiscv {
                path: self.path.to_string(),
                machine: self.e_machine,
                name: header::machine_to_str(self.e_machine),
            });
        }
        Ok(())
    }

    /// The loadable segments with the bytes the file holds for each (its physical and
    /// virtual addresses are the segment's `p_paddr` and `p_vaddr`): what a program image
    /// for reading code (the N-Trace decoder's) is made of.
    pub fn loaded(&self) -> Result<Vec<(ElfSegment, &'a [u8])>, ElfError> {
        self.loadable()
            .map(|s| Ok((s, self.segment_data(&s)?)))
            .collect()
    }

    /// The bytes the file holds for a segment (`p_filesz` from `p_offset`).
    pub fn segment_data(&self, s: &ElfSegment) -> Result<&'a [u8], ElfError> {
        self.range(
            &format!("segment {}'s data", s.index),
            s.p_offset,
            s.p_filesz,
        )
    }

    /// Section header `i`: (sh_type, sh_link, sh_offset, sh_size, sh_entsize).
    fn section(&self, i: u64) -> (u32, u32, u64, u64, u64) {
        let at = (self.shoff + i * SHDR_SIZE) as usize;
        let b = &self.bytes[at..at + SHDR_SIZE as usize];
        (
            le32(b, 4),
            le32(b, 40),
            le64(b, 24),
            le64(b, 32),
            le64(b, 56),
        )
    }

    /// The symbols of the (last) symbol table, kept as [`Program::symbols`] keeps them:
    /// functions, objects and untyped symbols with a section and a name. Names that are not
    /// UTF-8 are converted lossily; a name offset outside the string table skips the symbol.
    pub fn symbols(&self) -> Result<BTreeMap<u64, Vec<Symbol>>, ElfError> {
        let mut out: BTreeMap<u64, Vec<Symbol>> = BTreeMap::new();
        self.each_symbol(|st_name, st_info, st_shndx, value, size, raw| {
            if st_name == 0 || st_shndx == 0 {
                return;
            }
            let t = st_info & 0xf;
            if t != sym::STT_FUNC && t != sym::STT_OBJECT && t != sym::STT_NOTYPE {
                return;
            }
            if raw.is_empty() || raw.starts_with(b".L") || raw.starts_with(b"$") {
                return;
            }
            out.entry(value).or_default().push(Symbol {
                name: String::from_utf8_lossy(raw).into_owned(),
                addr: value,
                size,
                is_func: t == sym::STT_FUNC,
            });
        })?;
        Ok(out)
    }

    /// The name Spike's `-l` log shows (`>>>>  name`) at each address: Spike keeps every
    /// symbol of the table by name (a later one of the same name replacing an earlier one),
    /// then gives each address the first of its names in byte order. Every kind of symbol
    /// counts, mapping symbols (`$x`) and empty names included.
    pub fn spike_symbols(&self) -> Result<HashMap<u64, String>, ElfError> {
        let mut by_name: BTreeMap<Vec<u8>, u64> = BTreeMap::new();
        self.each_symbol(|_, _, _, value, _, raw| {
            by_name.insert(raw.to_vec(), value);
        })?;
        let mut out = HashMap::new();
        for (name, addr) in by_name {
            out.entry(addr)
                .or_insert_with(|| String::from_utf8_lossy(&name).into_owned());
        }
        Ok(out)
    }

    /// Call `f(st_name, st_info, st_shndx, st_value, st_size, name)` for every entry of the
    /// (last) symbol table; a name offset outside the string table skips the entry.
    fn each_symbol(
        &self,
        mut f: impl FnMut(usize, u8, u16, u64, u64, &[u8]),
    ) -> Result<(), ElfError> {
        let Some(idx) = (0..self.shnum)
            .rev()
            .find(|&i| self.section(i).0 == SHT_SYMTAB)
        else {
            return Ok(());
        };
        let (_, link, offset, size, entsize) = self.section(idx);
        if entsize != SYM_SIZE {
            return Err(self.bad(format!(
                "section {idx} (the symbol table): sh_entsize is {entsize}, not {SYM_SIZE}"
            )));
        }
        let table = self.range(
            &format!("section {idx} (the symbol table)"),
            offset,
            size - size % SYM_SIZE,
        )?;
        if u64::from(link) >= self.shnum {
            return Err(self.bad(format!(
                "section {idx} (the symbol table): its string table is section {link}, but \
                 there are {} sections",
                self.shnum
            )));
        }
        let (_, _, str_off, str_size, _) = self.section(u64::from(link));
        let strings = self.range(
            &format!("section {link} (the symbol table's strings)"),
            str_off,
            str_size,
        )?;
        for e in table.chunks_exact(SYM_SIZE as usize) {
            let (st_name, st_info, st_shndx) = (le32(e, 0) as usize, e[4], le16(e, 6));
            let (value, size) = (le64(e, 8), le64(e, 16));
            let Some(rest) = strings.get(st_name..) else {
                continue;
            };
            let raw = rest.split(|&c| c == 0).next().unwrap_or(&[]);
            f(st_name, st_info, st_shndx, value, size, raw);
        }
        Ok(())
    }
}

/// A symbol of the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub addr: u64,
    pub size: u64,
    pub is_func: bool,
}

/// What loading kept of the ELF.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub entry: u64,
    /// Symbols by address (several may share an address; functions are preferred).
    pub symbols: BTreeMap<u64, Vec<Symbol>>,
    /// Loaded segments: (address, bytes in the file, bytes in memory, executable).
    pub segments: Vec<(u64, u64, u64, bool)>,
}

impl Program {
    /// The address of a symbol by name.
    pub fn symbol(&self, name: &str) -> Option<u64> {
        self.symbols
            .values()
            .flatten()
            .find(|s| s.name == name)
            .map(|s| s.addr)
    }

    /// `name+0xoff` for an address, from the nearest preceding symbol (functions preferred).
    pub fn symbolize(&self, addr: u64) -> Option<String> {
        let (base, syms) = self.symbols.range(..=addr).next_back()?;
        let s = syms.iter().find(|s| s.is_func).unwrap_or(&syms[0]);
        if s.size != 0 && addr >= s.addr.saturating_add(s.size) && !s.is_func {
            return None;
        }
        let off = addr - base;
        Some(if off == 0 {
            s.name.clone()
        } else {
            format!("{}+{:#x}", s.name, off)
        })
    }
}

/// Parse and load `bytes` into the machine's RAM. `path` is only used in error messages.
pub fn load(m: &mut Machine, bytes: &[u8], path: &str) -> Result<Program, ElfError> {
    let p = || path.to_string();
    let elf = ElfFile::parse(bytes, path)?;
    elf.check_riscv()?;
    if elf.e_type != header::ET_EXEC {
        return Err(ElfError::NotExecutable {
            path: p(),
            kind: elf.e_type,
        });
    }
    let ram_start = m.bus.ram.base();
    let ram_end = ram_start.saturating_add(m.bus.ram.size());
    let mut prog = Program {
        entry: elf.entry,
        ..Default::default()
    };
    for ph in elf.loadable() {
        let (index, addr) = (ph.index, ph.p_paddr);
        let Some(end) = addr.checked_add(ph.p_memsz) else {
            return Err(ElfError::SegmentWraps {
                path: p(),
                index,
                addr,
                memsz: ph.p_memsz,
            });
        };
        if ph.p_filesz > ph.p_memsz {
            return Err(ElfError::FileSizeAboveMemSize {
                path: p(),
                index,
                addr,
                end,
                filesz: ph.p_filesz,
                memsz: ph.p_memsz,
            });
        }
        if addr < ram_start {
            return Err(ElfError::SegmentBelowRam {
                path: p(),
                index,
                addr,
                end,
                ram_start,
                ram_end,
            });
        }
        let Some(off) = m.bus.ram.offset(addr, ph.p_memsz) else {
            // A larger RAM (up to the largest there is) would hold it.
            let fits = end - ram_start <= MAX_RAM_SIZE;
            return Err(ElfError::SegmentOutsideRam {
                path: p(),
                index,
                addr,
                end,
                ram_start,
                ram_end,
                hint: if fits {
                    " (use --mem to enlarge RAM)"
                } else {
                    ""
                },
            });
        };
        let data = elf.segment_data(&ph)?;
        // offset() checked that p_memsz bytes from `off` are in RAM, and p_filesz <= p_memsz.
        let dst = m.bus.ram.bytes_mut(off, ph.p_memsz as usize);
        dst[..data.len()].copy_from_slice(data);
        dst[data.len()..].fill(0);
        prog.segments.push((
            addr,
            ph.p_filesz,
            ph.p_memsz,
            ph.p_flags & program_header::PF_X != 0,
        ));
    }
    prog.symbols = elf.symbols()?;
    m.htif.tohost = prog.symbol("tohost");
    m.htif.fromhost = prog.symbol("fromhost");
    Ok(prog)
}

/// The names Spike's `-l` log shows at each address (see [`ElfFile::spike_symbols`]).
pub fn spike_symbols(bytes: &[u8], path: &str) -> Result<HashMap<u64, String>, ElfError> {
    ElfFile::parse(bytes, path)?.spike_symbols()
}

/// The symbols and entry point of an ELF, without loading it (for tools that read traces).
pub fn parse_symbols(bytes: &[u8], path: &str) -> Result<Program, ElfError> {
    let elf = ElfFile::parse(bytes, path)?;
    Ok(Program {
        entry: elf.entry,
        symbols: elf.symbols()?,
        ..Default::default()
    })
}

/// Where `--signature` reads: the RAM offset and length of `begin_signature..end_signature`,
/// checked to lie in RAM.
pub fn signature_range(m: &Machine, prog: &Program) -> Result<(usize, usize), SignatureError> {
    let (Some(begin), Some(end)) = (prog.symbol("begin_signature"), prog.symbol("end_signature"))
    else {
        return Err(SignatureError::NoSymbols);
    };
    if end < begin {
        return Err(SignatureError::Reversed { begin, end });
    }
    let ram_start = m.bus.ram.base();
    let outside = SignatureError::OutsideRam {
        begin,
        end,
        ram_start,
        ram_end: ram_start.saturating_add(m.bus.ram.size()),
    };
    let off = m.bus.ram.offset(begin, end - begin).ok_or(outside)?;
    // offset() checked that end - begin bytes from `off` are in RAM: it fits in usize.
    Ok((off, (end - begin) as usize))
}

/// The largest ELF file [`load_file`] reads (1 GiB): more is refused rather than read into
/// memory without end (a path such as `/dev/zero` or an endless FIFO).
pub const MAX_ELF_FILE: u64 = 1 << 30;

/// Read and load an ELF file. The magic number is checked before the rest is read, and at
/// most [`MAX_ELF_FILE`] bytes are read.
pub fn load_file(m: &mut Machine, path: &std::path::Path) -> Result<Program, ElfError> {
    let bytes = read_file(path)?;
    load(m, &bytes, &path.display().to_string())
}

/// The names Spike's `-l` log shows at each address, from the ELF file at `path` (read with
/// the same cap as [`load_file`]).
pub fn spike_symbols_file(path: &std::path::Path) -> Result<HashMap<u64, String>, ElfError> {
    let bytes = read_file(path)?;
    spike_symbols(&bytes, &path.display().to_string())
}

/// The bytes of an ELF file, at most `MAX_ELF_FILE` of them (only the first four of a file
/// that is not an ELF, which is enough to say so).
pub fn read_file(path: &std::path::Path) -> Result<Vec<u8>, ElfError> {
    use std::io::Read;
    let shown = path.display().to_string();
    let io = |source| ElfError::Io {
        path: shown.clone(),
        source,
    };
    let mut f = std::fs::File::open(path).map_err(io)?;
    let mut bytes = Vec::new();
    (&mut f).take(4).read_to_end(&mut bytes).map_err(io)?;
    if bytes.as_slice() == b"\x7fELF" {
        f.take(MAX_ELF_FILE - 4 + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        if bytes.len() as u64 > MAX_ELF_FILE {
            return Err(ElfError::TooLarge {
                path: shown,
                cap: MAX_ELF_FILE,
            });
        }
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reader finds the same entry, segments and symbols as goblin in every shipped program.
    #[test]
    fn same_as_goblin_on_the_shipped_programs() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../programs/bin");
        let mut n = 0;
        for e in std::fs::read_dir(&dir).unwrap() {
            let path = e.unwrap().path();
            if path.extension().is_none_or(|x| x != "elf") {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            let g = goblin::elf::Elf::parse(&bytes).unwrap();
            let f = ElfFile::parse(&bytes, "p").unwrap();
            assert_eq!(f.entry, g.entry);
            let segs: Vec<_> = f
                .segments()
                .map(|s| (s.p_type, s.p_offset, s.p_paddr, s.p_filesz, s.p_memsz))
                .collect();
            let gsegs: Vec<_> = g
                .program_headers
                .iter()
                .map(|s| (s.p_type, s.p_offset, s.p_paddr, s.p_filesz, s.p_memsz))
                .collect();
            assert_eq!(segs, gsegs, "{}", path.display());
            let mut names = 0;
            for s in g.syms.iter() {
                let name = g.strtab.get_at(s.st_name).unwrap_or("");
                let t = s.st_type();
                if s.st_name == 0
                    || s.st_shndx == 0
                    || name.is_empty()
                    || name.starts_with(".L")
                    || name.starts_with('$')
                    || !(t == sym::STT_FUNC || t == sym::STT_OBJECT || t == sym::STT_NOTYPE)
                {
                    continue;
                }
                names += 1;
                assert!(
                    f.symbols().unwrap()[&s.st_value]
                        .iter()
                        .any(|x| x.name == name && x.size == s.st_size),
                    "{}: {name}",
                    path.display()
                );
            }
            let ours: usize = f.symbols().unwrap().values().map(Vec::len).sum();
            assert_eq!(ours, names, "{}", path.display());
            n += 1;
        }
        assert!(n > 20, "only {n} programs found in {}", dir.display());
    }
}
