//! What `hartscope run` puts in memory before the hart starts, besides PROGRAM: a kernel or
//! payload (`--kernel`, `--payload`), an initrd (`--initrd`), and the device tree a1 points at
//! (generated, or `--dtb FILE`, with `--bootargs` and the initrd's bounds in `/chosen`).
//!
//! - `--kernel FILE`: a RISC-V Linux `Image` ([`iss::image`]), loaded at main RAM's base plus
//!   its `text_offset` (0x8020_0000 for RV64's 0x200000), or an ELF loaded at its physical
//!   addresses (`p_paddr`). With `--sbi builtin` it is the S-mode program: the built-in SBI
//!   enters it at its load address (an ELF's entry translated to its physical address) with
//!   a0 = hart id, a1 = the device tree; PROGRAM is not given then. Without it, PROGRAM is
//!   M-mode firmware that starts the kernel (OpenSBI's fw_jump jumps to 0x8020_0000):
//!   `--payload FILE` is the same thing under its older name.
//! - `--initrd FILE`: placed as QEMU places it (`riscv_load_initrd`): at the kernel's load
//!   address plus half of main RAM or 128 MiB, whichever is less, and never below the end of
//!   the kernel (without a kernel: of PROGRAM), rounded up to 4 KiB; it must end within main
//!   RAM. `/chosen` gets `linux,initrd-start` and `linux,initrd-end` (64-bit values).
//! - Everything placed (PROGRAM's segments, the kernel, the initrd, and with the built-in SBI
//!   the device tree at the top of main RAM) must keep clear of everything else: an overlap is
//!   refused naming both ranges.

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use iss::elf::Program;
use iss::Machine;
use std::path::{Path, PathBuf};

/// The most a `--dtb` file may hold (16 MiB: far more than fits anywhere it can go).
const DTB_CAP: u64 = 16 << 20;

#[derive(Args, Debug, Default, Clone)]
pub struct BootArgs {
    /// A kernel: a RISC-V Linux Image (loaded at RAM's base + its text_offset, 0x80200000 on
    /// RV64) or an ELF (loaded at its physical addresses). With --sbi builtin it is the S-mode
    /// program (entered at its load address, a0 = hart id, a1 = the device tree; no PROGRAM
    /// then); without, PROGRAM is the M-mode firmware that starts it (as --payload).
    #[arg(long, value_name = "FILE")]
    pub kernel: Option<PathBuf>,
    /// An initrd, loaded in main RAM after the kernel (as QEMU places it: the kernel's load
    /// address + min(RAM/2, 128 MiB), 4 KiB aligned); /chosen gets linux,initrd-start and
    /// linux,initrd-end.
    #[arg(long, value_name = "FILE")]
    pub initrd: Option<PathBuf>,
    /// A device tree blob to hand the program instead of the generated one (checked; where
    /// the generated one goes: the boot ROM at 0x1020, or with --sbi builtin the top of RAM).
    #[arg(long, value_name = "FILE")]
    pub dtb: Option<PathBuf>,
    /// The kernel's command line: /chosen/bootargs in the device tree (the generated one, or
    /// --dtb's, rewritten).
    #[arg(long, value_name = "STRING")]
    pub bootargs: Option<String>,
}

/// A range of physical memory something was placed in.
struct Region {
    what: String,
    start: u64,
    end: u64,
}

/// What has been placed so far.
#[derive(Default)]
struct Layout(Vec<Region>);

impl Layout {
    /// The first region `start..end` overlaps, if any (empty ranges overlap nothing).
    fn overlap(&self, start: u64, end: u64) -> Option<&Region> {
        self.0
            .iter()
            .find(|r| start < end && r.start < r.end && start < r.end && r.start < end)
    }

    /// Place `what` at `start..end`, refusing an overlap with anything placed before.
    fn add(&mut self, what: String, start: u64, end: u64) -> Result<()> {
        self.check(&what, start, end)?;
        self.0.push(Region { what, start, end });
        Ok(())
    }

    /// Refuse `what` at `start..end` if it overlaps anything placed.
    fn check(&self, what: &str, start: u64, end: u64) -> Result<()> {
        if let Some(r) = self.overlap(start, end) {
            bail!(
                "{what} at {start:#x}..{end:#x} overlaps {} at {:#x}..{:#x}",
                r.what,
                r.start,
                r.end
            );
        }
        Ok(())
    }

    /// Place the segments of one file (which the ELF loader took as they are), checked
    /// against what other files placed, not against each other.
    fn add_file(&mut self, segments: Vec<(String, u64, u64)>) -> Result<()> {
        for (what, start, end) in &segments {
            self.check(what, *start, *end)?;
        }
        self.0.extend(
            segments
                .into_iter()
                .map(|(what, start, end)| Region { what, start, end }),
        );
        Ok(())
    }
}

/// Where a kernel went.
struct Kernel {
    /// Its physical entry.
    entry: u64,
    /// The memory it takes (its lowest address, the end of its highest).
    span: (u64, u64),
    /// Its symbols and segments, when it is an ELF.
    elf: Option<Program>,
}

/// What [`load`] put where.
pub struct Loaded {
    /// The program whose symbols and HTIF the run uses (PROGRAM, or the kernel).
    pub prog: Program,
    /// Where the hart starts.
    pub entry: u64,
    /// The initrd's bounds, when there is one.
    pub initrd: Option<(u64, u64)>,
}

/// Load PROGRAM, the kernel or payload, the initrd, and the device tree the options describe.
pub fn load(
    m: &mut Machine,
    program: Option<&Path>,
    payload: Option<&Path>,
    pc: Option<u64>,
    b: &BootArgs,
) -> Result<Loaded> {
    let sbi = m.config.sbi;
    let kernel = match (&b.kernel, payload) {
        (Some(k), Some(p)) => bail!(
            "--kernel {} and --payload {}: give one (--kernel takes what --payload takes, and a \
             Linux Image too)",
            k.display(),
            p.display()
        ),
        (Some(k), None) => Some(("--kernel", k.as_path())),
        (None, Some(p)) => Some(("--payload", p)),
        (None, None) => None,
    };
    if let (true, Some(("--payload", p))) = (sbi, kernel) {
        bail!(
            "--payload {}: the built-in SBI (--sbi builtin) starts PROGRAM in S-mode itself; \
             --payload is for M-mode firmware such as OpenSBI's fw_jump (--kernel FILE gives \
             the built-in SBI a kernel)",
            p.display()
        );
    }
    let mut layout = Layout::default();
    let mut prog = match (program, kernel) {
        (Some(p), Some(("--kernel", k))) if sbi => bail!(
            "--kernel {} with --sbi builtin: the kernel is the S-mode program the built-in SBI \
             starts, so PROGRAM ({}) would be a second one; give one of them",
            k.display(),
            p.display()
        ),
        (Some(p), _) => {
            let prog = iss::elf::load_file(m, p)?;
            let segments = prog
                .segments
                .iter()
                .enumerate()
                .map(|(i, &(addr, _, mem, _))| {
                    let what = format!("segment {i} of {}", p.display());
                    (what, addr, addr.saturating_add(mem))
                });
            layout.add_file(segments.collect())?;
            Some(prog)
        }
        (None, Some((option, k))) if !sbi => bail!(
            "{option} {} without --sbi builtin needs PROGRAM, the M-mode firmware that starts \
             the kernel (OpenSBI's fw_jump.elf, which jumps to 0x80200000), or --sbi builtin",
            k.display()
        ),
        (None, _) => None,
    };
    let mut kernel_span = None;
    let mut entry = prog.as_ref().map(|p| p.entry);
    if let Some((option, path)) = kernel {
        let htif = (m.htif.tohost, m.htif.fromhost);
        let k = load_kernel(m, option, path, &mut layout)?;
        if htif.0.is_some() {
            // The firmware's HTIF, when it has one.
            (m.htif.tohost, m.htif.fromhost) = htif;
        }
        kernel_span = Some(k.span);
        if prog.is_none() {
            entry = Some(k.entry);
            prog = Some(k.elf.unwrap_or_else(|| Program {
                entry: k.entry,
                ..Program::default()
            }));
        }
    }
    let prog = prog.context("no program: give PROGRAM, or --kernel FILE with --sbi builtin")?;
    let entry = pc.or(entry).unwrap_or(prog.entry);

    let initrd = match &b.initrd {
        Some(path) => {
            let after = kernel_span.or_else(|| program_span(m, &prog));
            Some(load_initrd(m, path, after, &mut layout)?)
        }
        None => None,
    };

    let chosen = iss::fdt::Chosen {
        bootargs: b.bootargs.clone(),
        initrd,
    };
    let shown = match &b.dtb {
        Some(p) => format!("--dtb {}", p.display()),
        None => "the generated device tree".to_string(),
    };
    if b.dtb.is_some() || !chosen.is_empty() {
        let base = match &b.dtb {
            Some(p) => iss::files::read_capped(p, DTB_CAP, "a device tree blob")
                .map_err(|e| anyhow!("--dtb {e}"))?,
            None => m.dtb().to_vec(),
        };
        let blob = iss::fdt::patch_chosen(&base, &chosen).map_err(|e| anyhow!("{shown}: {e}"))?;
        m.set_dtb(blob).map_err(|e| anyhow!("{shown}: {e}"))?;
    }
    if sbi {
        let len = m.dtb().len() as u64;
        let Some(addr) = m.dtb_addr() else {
            bail!(
                "--sbi builtin: main RAM is too small to hold the device tree ({len} bytes; use \
                 --mem)"
            );
        };
        layout
            .add(
                format!("{shown}, which the built-in SBI puts at the top of main RAM,"),
                addr,
                addr + len,
            )
            .context("--sbi builtin (use --mem to enlarge RAM)")?;
    }
    Ok(Loaded {
        prog,
        entry,
        initrd,
    })
}

/// The memory PROGRAM takes in main RAM: its lowest address and the end of its highest.
fn program_span(m: &Machine, prog: &Program) -> Option<(u64, u64)> {
    let (base, end) = (
        m.config.ram_base,
        m.config.ram_base.saturating_add(m.config.ram_size),
    );
    let segs = prog
        .segments
        .iter()
        .filter(|&&(a, _, mem, _)| a >= base && a < end && mem > 0);
    let lo = segs.clone().map(|s| s.0).min()?;
    let hi = segs.map(|s| s.0.saturating_add(s.2)).max()?;
    Some((lo, hi))
}

/// Load a kernel (an Image or an ELF) for `option`, refusing overlaps with what is placed.
fn load_kernel(m: &mut Machine, option: &str, path: &Path, layout: &mut Layout) -> Result<Kernel> {
    let shown = path.display().to_string();
    let bytes = iss::files::read_capped(path, iss::elf::MAX_ELF_FILE, "a kernel")
        .map_err(|e| anyhow!("{option} {e}"))?;
    if iss::image::is_elf(&bytes) {
        let elf = iss::elf::ElfFile::parse(&bytes, &shown).map_err(|e| anyhow!("{option}: {e}"))?;
        // Checked before anything is loaded.
        let mut span = (u64::MAX, 0);
        let mut entry = elf.entry;
        let mut segments = Vec::new();
        for seg in elf.loadable() {
            let (a, end) = (seg.p_paddr, seg.p_paddr.saturating_add(seg.p_memsz));
            if a >> 63 != 0 {
                bail!(
                    "{option} {shown}: segment {} has physical address {a:#x}, a kernel's \
                     virtual one (a vmlinux?): give the kernel's Image (arch/riscv/boot/Image) \
                     or an ELF with physical load addresses",
                    seg.index
                );
            }
            segments.push((format!("{option} {shown}: segment {}", seg.index), a, end));
            if seg.p_memsz > 0 {
                span = (span.0.min(a), span.1.max(end));
            }
            // The entry, a virtual address, at its physical address.
            let off = elf.entry.wrapping_sub(seg.p_vaddr);
            if off < seg.p_memsz {
                entry = seg.p_paddr.wrapping_add(off);
            }
        }
        layout.add_file(segments)?;
        let prog = iss::elf::load(m, &bytes, &shown).map_err(|e| anyhow!("{option}: {e}"))?;
        if span.0 > span.1 {
            span = (entry, entry);
        }
        return Ok(Kernel {
            entry,
            span,
            elf: Some(prog),
        });
    }
    let h = iss::image::parse(&bytes).map_err(|e| anyhow!("{option} {shown}: {e}"))?;
    let ram_base = m.config.ram_base;
    let ram_end = ram_base.saturating_add(m.config.ram_size);
    let size = h.image_size.max(bytes.len() as u64);
    let at = ram_base
        .checked_add(h.text_offset)
        .and_then(|a| Some((a, a.checked_add(size)?)));
    let Some((addr, end)) = at.filter(|&(a, e)| e <= ram_end && a < ram_end) else {
        bail!(
            "{option} {shown}: the Image ({size} bytes with its image_size) at text_offset {:#x} \
             from main RAM's base {ram_base:#x} does not fit in main RAM {ram_base:#x}..\
             {ram_end:#x} (use --mem to enlarge RAM)",
            h.text_offset
        );
    };
    layout.add(format!("{option} {shown} (an Image)"), addr, end)?;
    let off = m
        .bus
        .ram
        .offset(addr, bytes.len() as u64)
        .ok_or_else(|| anyhow!("{option} {shown}: {addr:#x} is not in RAM"))?;
    m.bus
        .ram
        .bytes_mut(off, bytes.len())
        .copy_from_slice(&bytes);
    Ok(Kernel {
        entry: addr,
        span: (addr, end),
        elf: None,
    })
}

/// The largest initrd read (1 GiB, the cap of a kernel or an ELF file).
const MAX_INITRD: u64 = iss::elf::MAX_ELF_FILE;

/// The most of main RAM that QEMU leaves between a kernel's start and its initrd.
const INITRD_GAP: u64 = 128 << 20;

/// Place and load the initrd after `after` (the kernel's or PROGRAM's span); its bounds.
fn load_initrd(
    m: &mut Machine,
    path: &Path,
    after: Option<(u64, u64)>,
    layout: &mut Layout,
) -> Result<(u64, u64)> {
    let shown = path.display();
    let (ram_base, ram_size) = (m.config.ram_base, m.config.ram_size);
    let ram_end = ram_base.saturating_add(ram_size);
    let (lo, hi) = after.unwrap_or((ram_base, ram_base));
    let start = lo
        .saturating_add((ram_size / 2).min(INITRD_GAP))
        .max(hi)
        .checked_next_multiple_of(iss::bus::PAGE_SIZE)
        .filter(|&s| s >= ram_base && s <= ram_end);
    let Some(start) = start else {
        bail!(
            "--initrd {shown}: no room in main RAM ({ram_base:#x}..{ram_end:#x}) after the \
             kernel at {lo:#x}..{hi:#x} (use --mem to enlarge RAM)"
        );
    };
    let space = ram_end - start;
    let too_large = |len: String| {
        anyhow!(
            "--initrd {shown}: {len} bytes do not fit in RAM: it goes at {start:#x} (after the \
             kernel at {lo:#x}..{hi:#x}) and main RAM ends at {ram_end:#x}, {space} bytes on \
             (use --mem to enlarge RAM)"
        )
    };
    if let Ok(md) = std::fs::metadata(path) {
        if md.is_file() && md.len() > space {
            return Err(too_large(md.len().to_string()));
        }
    }
    // Read whole into host memory first: at most what RAM can take, and never more than the
    // largest initrd read (an endless source, `/dev/zero`, is an error, not a full memory).
    let cap = space.min(MAX_INITRD);
    let bytes = match iss::files::read_capped(path, cap, "an initrd") {
        Ok(b) => b,
        Err(iss::files::ReadError::TooLarge { .. }) if cap == space => {
            return Err(too_large(format!("more than {space}")))
        }
        Err(e) => bail!("--initrd {e}"),
    };
    let end = start + bytes.len() as u64;
    layout.add(format!("--initrd {shown}"), start, end)?;
    let off = m
        .bus
        .ram
        .offset(start, bytes.len() as u64)
        .ok_or_else(|| anyhow!("--initrd {shown}: {start:#x} is not in RAM"))?;
    m.bus
        .ram
        .bytes_mut(off, bytes.len())
        .copy_from_slice(&bytes);
    Ok((start, end))
}
