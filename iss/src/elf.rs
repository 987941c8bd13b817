//! Loading RV64 little-endian ELF executables with `goblin`.
//!
//! PT_LOAD segments are copied to their physical addresses (`p_paddr`, as Spike does) and the
//! rest of each segment (`p_memsz - p_filesz`) is zeroed. The symbol table is kept for HTIF
//! (`tohost`, `fromhost`), signatures (`begin_signature`, `end_signature`) and symbolised
//! output.

use crate::machine::Machine;
use goblin::elf::{header, program_header, sym, Elf, ProgramHeader};
use std::collections::BTreeMap;
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
    #[error(
        "{path}: segment {index} at {addr:#x}..{end:#x} lies outside RAM {ram_start:#x}..{ram_end:#x} \
         (use --mem to enlarge RAM)"
    )]
    SegmentOutsideRam {
        path: String,
        index: usize,
        addr: u64,
        end: u64,
        ram_start: u64,
        ram_end: u64,
    },
    #[error("{path}: segment {index}: file range {offset:#x}+{size:#x} is past the end of the file ({file_len:#x} bytes)")]
    Truncated {
        path: String,
        index: usize,
        offset: u64,
        size: u64,
        file_len: u64,
    },
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
        if s.size != 0 && addr >= s.addr + s.size && !s.is_func {
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
    if bytes.len() < 4 || &bytes[..4] != b"\x7fELF" {
        return Err(ElfError::NotElf {
            path: p(),
            reason: "no ELF magic number".into(),
        });
    }
    if bytes.len() > 4 && bytes[4] == header::ELFCLASS32 {
        return Err(ElfError::Not64Bit { path: p() });
    }
    if bytes.len() > 5 && bytes[5] == header::ELFDATA2MSB {
        return Err(ElfError::BigEndian { path: p() });
    }
    let elf = Elf::parse(bytes).map_err(|e| ElfError::NotElf {
        path: p(),
        reason: e.to_string(),
    })?;
    if !elf.is_64 {
        return Err(ElfError::Not64Bit { path: p() });
    }
    if !elf.little_endian {
        return Err(ElfError::BigEndian { path: p() });
    }
    if elf.header.e_machine != header::EM_RISCV {
        return Err(ElfError::NotRiscv {
            path: p(),
            machine: elf.header.e_machine,
            name: header::machine_to_str(elf.header.e_machine),
        });
    }
    if elf.header.e_type != header::ET_EXEC {
        return Err(ElfError::NotExecutable {
            path: p(),
            kind: elf.header.e_type,
        });
    }
    let ram_start = m.bus.ram.base();
    let ram_end = ram_start + m.bus.ram.size();
    let mut prog = Program {
        entry: elf.entry,
        ..Default::default()
    };
    for (index, ph) in elf.program_headers.iter().enumerate() {
        if ph.p_type != program_header::PT_LOAD || ph.p_memsz == 0 {
            continue;
        }
        let addr = ph.p_paddr;
        let end = addr.saturating_add(ph.p_memsz);
        if m.bus.ram.offset(addr, ph.p_memsz).is_none() || ph.p_filesz > ph.p_memsz {
            return Err(ElfError::SegmentOutsideRam {
                path: p(),
                index,
                addr,
                end,
                ram_start,
                ram_end,
            });
        }
        let Some(data) = segment_file_bytes(bytes, ph) else {
            return Err(ElfError::Truncated {
                path: p(),
                index,
                offset: ph.p_offset,
                size: ph.p_filesz,
                file_len: bytes.len() as u64,
            });
        };
        let off = m.bus.ram.offset(addr, ph.p_memsz).unwrap_or(0);
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
    collect_symbols(&elf, &mut prog);
    m.htif.tohost = prog.symbol("tohost");
    m.htif.fromhost = prog.symbol("fromhost");
    Ok(prog)
}

/// The bytes the file holds for the segment of program header `ph` (`p_filesz` bytes from
/// `p_offset`); `None` when the file is shorter.
pub fn segment_file_bytes<'a>(bytes: &'a [u8], ph: &ProgramHeader) -> Option<&'a [u8]> {
    let end = ph.p_offset.checked_add(ph.p_filesz)?;
    if end > bytes.len() as u64 {
        return None;
    }
    Some(&bytes[ph.p_offset as usize..end as usize])
}

/// The symbols and entry point of an ELF, without loading it (for tools that read traces).
pub fn parse_symbols(bytes: &[u8], path: &str) -> Result<Program, ElfError> {
    let elf = Elf::parse(bytes).map_err(|e| ElfError::NotElf {
        path: path.to_string(),
        reason: e.to_string(),
    })?;
    let mut prog = Program {
        entry: elf.entry,
        ..Default::default()
    };
    collect_symbols(&elf, &mut prog);
    Ok(prog)
}

fn collect_symbols(elf: &Elf, prog: &mut Program) {
    for s in elf.syms.iter() {
        if s.st_name == 0 || s.st_shndx == 0 {
            continue;
        }
        let t = s.st_type();
        if t != sym::STT_FUNC && t != sym::STT_OBJECT && t != sym::STT_NOTYPE {
            continue;
        }
        let Some(name) = elf.strtab.get_at(s.st_name) else {
            continue;
        };
        if name.is_empty() || name.starts_with(".L") || name.starts_with('$') {
            continue;
        }
        prog.symbols.entry(s.st_value).or_default().push(Symbol {
            name: name.to_string(),
            addr: s.st_value,
            size: s.st_size,
            is_func: t == sym::STT_FUNC,
        });
    }
}

/// Read and load an ELF file.
pub fn load_file(m: &mut Machine, path: &std::path::Path) -> Result<Program, ElfError> {
    let shown = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| ElfError::Io {
        path: shown.clone(),
        source,
    })?;
    load(m, &bytes, &shown)
}
