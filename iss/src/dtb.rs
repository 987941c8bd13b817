//! The device tree the built-in SBI hands to S-mode software (a1 at entry), written with
//! `vm-fdt` (Devicetree Specification 0.4, chapter 5; the RISC-V bindings Linux reads).
//!
//! ```text
//! / { #address-cells = 2; #size-cells = 2; compatible = "hartscope,spike-compatible"; model = "hartscope";
//!   chosen { stdout-path = "/soc/serial@10000000"; }
//!   cpus { #address-cells = 1; #size-cells = 0; timebase-frequency = 10000000;
//!     cpu@0 { device_type = "cpu"; reg = 0; compatible = "riscv"; status = "okay";
//!             riscv,isa = "rv64imafdc_zicntr_zicsr_zifencei_zihpm[_sscofpmf][_smcsrind_smctr_smstateen_sscsrind_ssctr]" (as --isa asks);
//!             riscv,isa-base = "rv64i"; riscv,isa-extensions = "i", "m", ...; mmu-type = "riscv,sv48";
//!             riscv,pmpregions = 16; riscv,pmpgranularity = 4;
//!             interrupt-controller { #interrupt-cells = 1; interrupt-controller; compatible = "riscv,cpu-intc"; phandle = 1; } } }
//!   memory@80000000 { device_type = "memory"; reg = <RAM base and size>; }
//!   soc { #address-cells = 2; #size-cells = 2; compatible = "simple-bus"; ranges;
//!     clint@2000000 { compatible = "sifive,clint0", "riscv,clint0"; reg = <0x2000000 0xc0000>;
//!                     interrupts-extended = <1 3>, <1 7>; }
//!     plic@c000000 { compatible = "sifive,plic-1.0.0", "riscv,plic0"; reg = <0xc000000 0x4000000>;
//!                    #address-cells = 0; #interrupt-cells = 1; interrupt-controller;
//!                    interrupts-extended = <1 11>, <1 9>; riscv,ndev = 63; phandle = 2; }
//!     serial@10000000 { compatible = "ns16550a"; reg = <0x10000000 0x100>; clock-frequency = 3686400;
//!                       reg-shift = 0; reg-io-width = 1; interrupt-parent = <2>; interrupts = <10>; }
//!     test@100000 { compatible = "sifive,test1", "sifive,test0", "syscon"; reg = <0x100000 0x1000>; }  (with the finisher)
//!   }
//!   htif { compatible = "ucb,htif0"; }
//!   pmu { compatible = "riscv,pmu"; riscv,event-to-mhpmevent = ...; riscv,event-to-mhpmcounters = ...;
//!         riscv,raw-event-to-mhpmcounters = ...; }   (the PMU crate's dt_tables)
//! }
//! ```
//!
//! **timebase-frequency** is 10 MHz, the rate Spike states for the same time model: mtime
//! advances one tick per 100 retired instructions, and the hart is taken to retire one
//! instruction per nanosecond (1 GHz at one instruction per cycle), so a tick is 100 ns.
//!
//! The UART's interrupt is PLIC source 10 (as on QEMU `virt`); the PLIC's context 0 is hart
//! 0's M-mode external interrupt, context 1 its S-mode one. The boot ROM (without the built-in
//! SBI) has no node, as in Spike's tree.

use crate::bus::{
    CLINT_BASE, CLINT_SIZE, FINISHER_BASE, FINISHER_SIZE, PLIC_BASE, PLIC_SIZE, PLIC_SOURCES,
    UART_BASE, UART_IRQ, UART_SIZE,
};
use crate::machine::Config;
use vm_fdt::{Error, FdtWriter};

/// mtime's rate as the device tree states it (Hz).
pub const TIMEBASE_FREQUENCY: u32 = 10_000_000;
/// The UART's input clock as the device tree states it (Hz); nothing depends on it.
pub const UART_CLOCK: u32 = 3_686_400;
/// The phandle of hart 0's interrupt controller.
const INTC_PHANDLE: u32 = 1;

/// The phandle of hart `h`'s interrupt controller: 1 for hart 0, then 3, 4... (2 is the
/// PLIC's).
fn intc_phandle(h: usize) -> u32 {
    if h == 0 {
        INTC_PHANDLE
    } else {
        PLIC_PHANDLE + h as u32
    }
}
/// The phandle of the PLIC.
const PLIC_PHANDLE: u32 = 2;

/// The extension set of a hart with this configuration: `cfg.isa`, with Sscofpmf and CTR as
/// the configuration has them.
fn live_isa(cfg: &Config) -> crate::Isa {
    crate::Isa {
        sscofpmf: cfg.sscofpmf,
        ctr: cfg.ctr.is_some(),
        ..cfg.isa
    }
}

/// The ISA extensions of a hart with this configuration, in the order of the canonical ISA
/// string (single letters, then Z, then S extensions, each alphabetically).
pub fn isa_extensions(cfg: &Config) -> Vec<&'static str> {
    live_isa(cfg).extensions()
}

/// The `riscv,isa` string: `rv64` and the single letters, then the multi-letter extensions
/// joined by `_`.
pub fn isa_string(cfg: &Config) -> String {
    live_isa(cfg).to_string()
}

fn reg(base: u64, size: u64) -> [u64; 2] {
    [base, size]
}

/// Write the device tree of a machine with this configuration and PMU tables.
pub fn build(cfg: &Config, pmu: &pmu::PmuDtTables) -> Result<Vec<u8>, Error> {
    let mut fdt = FdtWriter::new()?;
    let root = fdt.begin_node("")?;
    fdt.property_u32("#address-cells", 2)?;
    fdt.property_u32("#size-cells", 2)?;
    fdt.property_string("compatible", "hartscope,spike-compatible")?;
    fdt.property_string("model", "hartscope")?;

    let chosen = fdt.begin_node("chosen")?;
    fdt.property_string("stdout-path", &format!("/soc/serial@{UART_BASE:x}"))?;
    fdt.end_node(chosen)?;

    let cpus = fdt.begin_node("cpus")?;
    fdt.property_u32("#address-cells", 1)?;
    fdt.property_u32("#size-cells", 0)?;
    fdt.property_u32("timebase-frequency", TIMEBASE_FREQUENCY)?;
    for h in 0..cfg.harts.max(1) {
        let cpu = fdt.begin_node(&format!("cpu@{h}"))?;
        fdt.property_string("device_type", "cpu")?;
        fdt.property_u32("reg", h as u32)?;
        fdt.property_string("compatible", "riscv")?;
        fdt.property_string("status", "okay")?;
        fdt.property_string("riscv,isa", &isa_string(cfg))?;
        fdt.property_string("riscv,isa-base", "rv64i")?;
        let exts: Vec<String> = isa_extensions(cfg).iter().map(|e| e.to_string()).collect();
        fdt.property_string_list("riscv,isa-extensions", exts)?;
        fdt.property_string("mmu-type", "riscv,sv48")?;
        // Spike reads these two when it is handed this tree (`spike --dtb`).
        fdt.property_u32("riscv,pmpregions", cfg.pmp_regions as u32)?;
        fdt.property_u32("riscv,pmpgranularity", cfg.pmp_granularity as u32)?;
        // The cache block of Zicbom/Zicboz (Spike's 64 bytes).
        if cfg.isa.zicbom {
            fdt.property_u32("riscv,cbom-block-size", crate::exec::cbo::BLOCK as u32)?;
        }
        if cfg.isa.zicboz {
            fdt.property_u32("riscv,cboz-block-size", crate::exec::cbo::BLOCK as u32)?;
        }
        let intc = fdt.begin_node("interrupt-controller")?;
        fdt.property_u32("#interrupt-cells", 1)?;
        fdt.property_null("interrupt-controller")?;
        fdt.property_string("compatible", "riscv,cpu-intc")?;
        fdt.property_phandle(intc_phandle(h))?;
        fdt.end_node(intc)?;
        fdt.end_node(cpu)?;
    }
    fdt.end_node(cpus)?;

    let mut memory = vec![(cfg.ram_base, cfg.ram_size)];
    memory.extend_from_slice(&cfg.extra_ram);
    memory.sort_unstable();
    for (base, size) in memory {
        let mem = fdt.begin_node(&format!("memory@{base:x}"))?;
        fdt.property_string("device_type", "memory")?;
        fdt.property_array_u64("reg", &reg(base, size))?;
        fdt.end_node(mem)?;
    }

    let soc = fdt.begin_node("soc")?;
    fdt.property_u32("#address-cells", 2)?;
    fdt.property_u32("#size-cells", 2)?;
    fdt.property_string("compatible", "simple-bus")?;
    fdt.property_null("ranges")?;
    let clint = fdt.begin_node(&format!("clint@{CLINT_BASE:x}"))?;
    fdt.property_string_list(
        "compatible",
        vec!["sifive,clint0".into(), "riscv,clint0".into()],
    )?;
    fdt.property_array_u64("reg", &reg(CLINT_BASE, CLINT_SIZE))?;
    // Machine software (3) and timer (7) interrupts of each hart.
    let per_hart = |a: u32, b: u32| -> Vec<u32> {
        (0..cfg.harts.max(1))
            .flat_map(|h| [intc_phandle(h), a, intc_phandle(h), b])
            .collect()
    };
    fdt.property_array_u32("interrupts-extended", &per_hart(3, 7))?;
    fdt.end_node(clint)?;
    let plic = fdt.begin_node(&format!("plic@{PLIC_BASE:x}"))?;
    fdt.property_string_list(
        "compatible",
        vec!["sifive,plic-1.0.0".into(), "riscv,plic0".into()],
    )?;
    fdt.property_array_u64("reg", &reg(PLIC_BASE, PLIC_SIZE))?;
    fdt.property_u32("#address-cells", 0)?;
    fdt.property_u32("#interrupt-cells", 1)?;
    fdt.property_null("interrupt-controller")?;
    // Context 2h: machine external (11), context 2h + 1: supervisor external (9) of hart h.
    fdt.property_array_u32("interrupts-extended", &per_hart(11, 9))?;
    fdt.property_u32("riscv,ndev", PLIC_SOURCES as u32 - 1)?;
    fdt.property_phandle(PLIC_PHANDLE)?;
    fdt.end_node(plic)?;
    let uart = fdt.begin_node(&format!("serial@{UART_BASE:x}"))?;
    fdt.property_string("compatible", "ns16550a")?;
    fdt.property_array_u64("reg", &reg(UART_BASE, UART_SIZE))?;
    fdt.property_u32("clock-frequency", UART_CLOCK)?;
    fdt.property_u32("reg-shift", 0)?;
    fdt.property_u32("reg-io-width", 1)?;
    fdt.property_u32("interrupt-parent", PLIC_PHANDLE)?;
    fdt.property_u32("interrupts", UART_IRQ as u32)?;
    fdt.end_node(uart)?;
    if cfg.finisher {
        let test = fdt.begin_node(&format!("test@{FINISHER_BASE:x}"))?;
        fdt.property_string_list(
            "compatible",
            vec![
                "sifive,test1".into(),
                "sifive,test0".into(),
                "syscon".into(),
            ],
        )?;
        fdt.property_array_u64("reg", &reg(FINISHER_BASE, FINISHER_SIZE))?;
        fdt.end_node(test)?;
    }
    fdt.end_node(soc)?;

    let htif = fdt.begin_node("htif")?;
    fdt.property_string("compatible", "ucb,htif0")?;
    fdt.end_node(htif)?;

    let p = fdt.begin_node("pmu")?;
    fdt.property_string("compatible", "riscv,pmu")?;
    fdt.property_array_u32("riscv,event-to-mhpmevent", &pmu.event_to_mhpmevent_cells())?;
    fdt.property_array_u32(
        "riscv,event-to-mhpmcounters",
        &pmu.event_to_mhpmcounters_cells(),
    )?;
    fdt.property_array_u32(
        "riscv,raw-event-to-mhpmcounters",
        &pmu.raw_event_to_mhpmcounters_cells(),
    )?;
    fdt.end_node(p)?;

    fdt.end_node(root)?;
    fdt.finish()
}

/// What is wrong with a flattened device tree blob, and where (byte offsets into the blob).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum FdtError {
    #[error("not a flattened device tree: magic {0:#010x} (expected 0xd00dfeed)")]
    Magic(u32),
    #[error("truncated: {what} at byte {offset:#x} runs past the blob's {len} bytes")]
    Truncated {
        what: &'static str,
        offset: usize,
        len: usize,
    },
    #[error("unknown structure token {token:#x} at byte {offset:#x}")]
    Token { token: u32, offset: usize },
    #[error("nodes do not nest at byte {offset:#x}")]
    Unbalanced { offset: usize },
    #[error("the header's totalsize is {header} bytes but the blob has {len}")]
    TotalSize { header: u32, len: usize },
    #[error(
        "version {version} (last compatible version {last_comp}): only versions 16 and 17 \
         (last compatible version 16 or 17) are read"
    )]
    Version { version: u32, last_comp: u32 },
    #[error("the {what} at byte {offset:#x} ({size} bytes) runs past the blob's {len} bytes")]
    Block {
        what: &'static str,
        offset: u32,
        size: u32,
        len: usize,
    },
    #[error("the structure block does not end with the end token (at byte {offset:#x})")]
    NoEnd { offset: usize },
    #[error("nodes nest deeper than {max} levels at byte {offset:#x}")]
    Depth { max: usize, offset: usize },
    #[error("the name at byte {offset:#x} is not text (UTF-8)")]
    Name { offset: usize },
    #[error("the root node has no name '' (found {name:?})")]
    Root { name: String },
    #[error("{what} {name:?}: {why}")]
    Value {
        what: &'static str,
        name: String,
        why: &'static str,
    },
}

/// Reads a blob's big-endian words and NUL-terminated strings, each bounds-checked.
pub(crate) struct Blob<'a>(pub(crate) &'a [u8]);

impl Blob<'_> {
    pub(crate) fn u32(&self, offset: usize, what: &'static str) -> Result<u32, FdtError> {
        self.bytes(offset, 4, what)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }
    pub(crate) fn bytes(
        &self,
        offset: usize,
        n: usize,
        what: &'static str,
    ) -> Result<&[u8], FdtError> {
        offset
            .checked_add(n)
            .and_then(|end| self.0.get(offset..end))
            .ok_or(FdtError::Truncated {
                what,
                offset,
                len: self.0.len(),
            })
    }
    pub(crate) fn cstr(&self, offset: usize, what: &'static str) -> Result<&[u8], FdtError> {
        let rest = self.0.get(offset..).unwrap_or_default();
        let n = rest
            .iter()
            .position(|&c| c == 0)
            .ok_or(FdtError::Truncated {
                what,
                offset,
                len: self.0.len(),
            })?;
        Ok(&rest[..n])
    }
}

/// A property's value in DTS syntax: strings when it is a list of printable NUL-terminated
/// strings, cells when its length is a multiple of 4, bytes otherwise (as `dtc -O dts` does).
fn dts_value(v: &[u8]) -> String {
    let printable =
        |s: &[u8]| !s.is_empty() && s.iter().all(|&c| (0x20..0x7f).contains(&c) && c != b'"');
    if v.last() == Some(&0) && v[..v.len() - 1].split(|&c| c == 0).all(printable) {
        let parts: Vec<String> = v[..v.len() - 1]
            .split(|&c| c == 0)
            .map(|s| format!("\"{}\"", String::from_utf8_lossy(s)))
            .collect();
        parts.join(", ")
    } else if v.len().is_multiple_of(4) {
        let cells: Vec<String> = v
            .chunks(4)
            .map(|c| format!("{:#04x}", u32::from_be_bytes([c[0], c[1], c[2], c[3]])))
            .collect();
        format!("<{}>", cells.join(" "))
    } else {
        let bytes: Vec<String> = v.iter().map(|b| format!("{b:02x}")).collect();
        format!("[{}]", bytes.join(" "))
    }
}

/// The device tree source of a flattened device tree blob (Devicetree Specification 0.4,
/// chapter 5), in the layout `dtc -I dtb -O dts` prints, so that a tree hartscope generates
/// can be read without a device tree compiler.
pub fn to_dts(blob: &[u8]) -> Result<String, FdtError> {
    let b = Blob(blob);
    let magic = b.u32(0, "the header")?;
    if magic != 0xd00d_feed {
        return Err(FdtError::Magic(magic));
    }
    let st = b.u32(8, "the header")? as usize;
    let strings = b.u32(12, "the header")? as usize;
    let rsvmap = b.u32(16, "the header")? as usize;
    let mut out = String::from("/dts-v1/;\n\n");
    let mut pos = rsvmap;
    loop {
        let e = b.bytes(pos, 16, "a memory reservation")?;
        let (addr, size) = (
            u64::from_be_bytes(e[..8].try_into().unwrap_or_default()),
            u64::from_be_bytes(e[8..].try_into().unwrap_or_default()),
        );
        if addr == 0 && size == 0 {
            break;
        }
        out.push_str(&format!("/memreserve/ {addr:#x} {size:#x};\n"));
        pos += 16;
    }
    let mut pos = st;
    let mut depth = 0usize;
    loop {
        let token = b.u32(pos, "a structure token")?;
        let at = pos;
        pos += 4;
        let indent = "\t".repeat(depth);
        match token {
            1 => {
                let name = b.cstr(pos, "a node name")?;
                pos = (pos + name.len() + 1).next_multiple_of(4);
                let name = if depth == 0 && name.is_empty() {
                    "/".into()
                } else {
                    String::from_utf8_lossy(name)
                };
                if depth > 0 {
                    out.push('\n');
                }
                out.push_str(&format!("{indent}{name} {{\n"));
                depth += 1;
            }
            2 => {
                depth = depth
                    .checked_sub(1)
                    .ok_or(FdtError::Unbalanced { offset: at })?;
                out.push_str(&format!("{}}};\n", "\t".repeat(depth)));
                if depth == 0 {
                    let end = b.u32(pos, "the end token")?;
                    return if end == 9 {
                        Ok(out)
                    } else {
                        Err(FdtError::Unbalanced { offset: pos })
                    };
                }
            }
            3 => {
                if depth == 0 {
                    return Err(FdtError::Unbalanced { offset: at });
                }
                let len = b.u32(pos, "a property length")? as usize;
                let nameoff = b.u32(pos + 4, "a property name offset")? as usize;
                let name = b.cstr(strings.saturating_add(nameoff), "a property name")?;
                let value = b.bytes(pos + 8, len, "a property value")?;
                pos = (pos + 8 + len).next_multiple_of(4);
                let name = String::from_utf8_lossy(name);
                if value.is_empty() {
                    out.push_str(&format!("{indent}{name};\n"));
                } else {
                    out.push_str(&format!("{indent}{name} = {};\n", dts_value(value)));
                }
            }
            4 => {}
            token => return Err(FdtError::Token { token, offset: at }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// A node of a parsed device tree.
    #[derive(Debug, Default)]
    struct Node {
        props: BTreeMap<String, Vec<u8>>,
        children: BTreeMap<String, Node>,
    }

    impl Node {
        fn at(&self, path: &str) -> &Node {
            path.split('/')
                .filter(|p| !p.is_empty())
                .fold(self, |n, p| &n.children[p])
        }
        fn u32s(&self, prop: &str) -> Vec<u32> {
            self.props[prop]
                .chunks(4)
                .map(|c| u32::from_be_bytes(c.try_into().unwrap()))
                .collect()
        }
        fn strings(&self, prop: &str) -> Vec<String> {
            let v = &self.props[prop];
            assert_eq!(v.last(), Some(&0), "{prop}: not NUL-terminated");
            v[..v.len() - 1]
                .split(|&b| b == 0)
                .map(|s| String::from_utf8(s.to_vec()).unwrap())
                .collect()
        }
    }

    fn be32(b: &[u8], off: usize) -> u32 {
        u32::from_be_bytes(b[off..off + 4].try_into().unwrap())
    }

    /// A small FDT reader (Devicetree Specification 0.4, 5.2-5.5): header, memory
    /// reservation block, structure block, strings block.
    fn parse(b: &[u8]) -> Node {
        assert_eq!(be32(b, 0), 0xd00d_feed, "magic");
        assert_eq!(be32(b, 4) as usize, b.len(), "totalsize");
        let (st, strings, rsv) = (be32(b, 8) as usize, be32(b, 12) as usize, be32(b, 16));
        assert_eq!(be32(b, 20), 17, "version");
        assert_eq!(be32(b, 24), 16, "last compatible version");
        assert_eq!(rsv % 8, 0);
        // No memory reservations: the block is one terminating entry of zeros.
        assert!(b[rsv as usize..rsv as usize + 16].iter().all(|&x| x == 0));
        let st_size = be32(b, 36) as usize;
        let mut pos = st;
        let mut stack: Vec<(String, Node)> = Vec::new();
        let mut root = None;
        loop {
            let tok = be32(b, pos);
            pos += 4;
            match tok {
                1 => {
                    let end = pos + b[pos..].iter().position(|&c| c == 0).unwrap();
                    let name = String::from_utf8(b[pos..end].to_vec()).unwrap();
                    pos = (end + 1).div_ceil(4) * 4;
                    stack.push((name, Node::default()));
                }
                2 => {
                    let (name, node) = stack.pop().expect("balanced nodes");
                    match stack.last_mut() {
                        Some((_, parent)) => {
                            parent.children.insert(name, node);
                        }
                        None => root = Some(node),
                    }
                }
                3 => {
                    let len = be32(b, pos) as usize;
                    let nameoff = be32(b, pos + 4) as usize + strings;
                    let nend = nameoff + b[nameoff..].iter().position(|&c| c == 0).unwrap();
                    let name = String::from_utf8(b[nameoff..nend].to_vec()).unwrap();
                    let val = b[pos + 8..pos + 8 + len].to_vec();
                    pos = (pos + 8 + len).div_ceil(4) * 4;
                    stack
                        .last_mut()
                        .expect("a property in a node")
                        .1
                        .props
                        .insert(name, val);
                }
                4 => {}
                9 => break,
                t => panic!("bad token {t:#x} at {pos:#x}"),
            }
        }
        assert_eq!(pos, st + st_size, "structure block size");
        root.expect("a root node")
    }

    fn config(sscofpmf: bool, ctr: bool) -> Config {
        let mut c = Config {
            sscofpmf,
            ctr: ctr.then(ctr::CtrConfig::default),
            ..Config::default()
        };
        c.pmu.hpm_counters = 29;
        c
    }

    #[test]
    fn platform_nodes() {
        let cfg = config(true, false);
        let pmu = pmu::Pmu::new(cfg.pmu.clone()).unwrap();
        let t = pmu.dt_tables();
        let root = parse(&build(&cfg, &t).unwrap());
        assert_eq!(root.u32s("#address-cells"), [2]);
        assert_eq!(root.u32s("#size-cells"), [2]);
        assert_eq!(
            root.at("chosen").strings("stdout-path"),
            ["/soc/serial@10000000"]
        );
        let cpus = root.at("cpus");
        assert_eq!(cpus.u32s("timebase-frequency"), [10_000_000]);
        let cpu = root.at("cpus/cpu@0");
        assert_eq!(cpu.strings("device_type"), ["cpu"]);
        assert_eq!(cpu.u32s("reg"), [0]);
        assert_eq!(
            cpu.strings("riscv,isa"),
            ["rv64imafdc_zicntr_zicsr_zifencei_zihpm_sscofpmf"]
        );
        assert_eq!(cpu.strings("riscv,isa-base"), ["rv64i"]);
        assert_eq!(
            cpu.strings("riscv,isa-extensions"),
            ["i", "m", "a", "f", "d", "c", "zicntr", "zicsr", "zifencei", "zihpm", "sscofpmf"]
        );
        assert_eq!(cpu.strings("mmu-type"), ["riscv,sv48"]);
        let intc = cpu.at("interrupt-controller");
        assert_eq!(intc.strings("compatible"), ["riscv,cpu-intc"]);
        assert_eq!(intc.u32s("phandle"), [1]);
        assert!(intc.props["interrupt-controller"].is_empty());
        let mem = root.at("memory@80000000");
        assert_eq!(mem.strings("device_type"), ["memory"]);
        let size = cfg.ram_size;
        assert_eq!(
            mem.u32s("reg"),
            [0, 0x8000_0000, (size >> 32) as u32, size as u32]
        );
        let clint = root.at("soc/clint@2000000");
        assert_eq!(
            clint.strings("compatible"),
            ["sifive,clint0", "riscv,clint0"]
        );
        assert_eq!(clint.u32s("reg"), [0, 0x0200_0000, 0, 0xc_0000]);
        assert_eq!(clint.u32s("interrupts-extended"), [1, 3, 1, 7]);
        let uart = root.at("soc/serial@10000000");
        assert_eq!(uart.strings("compatible"), ["ns16550a"]);
        assert_eq!(uart.u32s("reg"), [0, 0x1000_0000, 0, 0x100]);
        assert_eq!(uart.u32s("reg-io-width"), [1]);
        assert_eq!(uart.u32s("interrupt-parent"), [2]);
        assert_eq!(uart.u32s("interrupts"), [10]);
        let plic = root.at("soc/plic@c000000");
        assert_eq!(
            plic.strings("compatible"),
            ["sifive,plic-1.0.0", "riscv,plic0"]
        );
        assert_eq!(plic.u32s("reg"), [0, 0x0c00_0000, 0, 0x0400_0000]);
        assert_eq!(plic.u32s("interrupts-extended"), [1, 11, 1, 9]);
        assert_eq!(plic.u32s("riscv,ndev"), [63]);
        assert_eq!(plic.u32s("phandle"), [2]);
        assert_eq!(plic.u32s("#interrupt-cells"), [1]);
        assert!(plic.props["interrupt-controller"].is_empty());
        assert_eq!(root.at("soc").strings("compatible"), ["simple-bus"]);
        assert!(root.at("soc").children.contains_key("test@100000"));
        let p = root.at("pmu");
        assert_eq!(p.strings("compatible"), ["riscv,pmu"]);
        assert_eq!(
            p.u32s("riscv,event-to-mhpmevent"),
            t.event_to_mhpmevent_cells()
        );
        assert_eq!(
            p.u32s("riscv,event-to-mhpmcounters"),
            t.event_to_mhpmcounters_cells()
        );
        assert_eq!(
            p.u32s("riscv,raw-event-to-mhpmcounters"),
            t.raw_event_to_mhpmcounters_cells()
        );
        // Cycles and instructions may use the fixed counters, everything else the hpm ones.
        assert!(p
            .u32s("riscv,event-to-mhpmcounters")
            .chunks(3)
            .any(|r| r == [1, 1, 0xffff_fff9]));
    }

    #[test]
    fn isa_follows_the_configuration() {
        assert_eq!(
            isa_string(&config(false, false)),
            "rv64imafdc_zicntr_zicsr_zifencei_zihpm"
        );
        assert_eq!(
            isa_string(&config(true, true)),
            "rv64imafdc_zicntr_zicsr_zifencei_zihpm_smcsrind_smctr_smstateen_sscofpmf_sscsrind_ssctr"
        );
        let mut no_finisher = config(false, true);
        no_finisher.finisher = false;
        let pmu = pmu::Pmu::new(no_finisher.pmu.clone()).unwrap();
        let root = parse(&build(&no_finisher, &pmu.dt_tables()).unwrap());
        assert!(!root.at("soc").children.contains_key("test@100000"));
        assert!(root
            .at("cpus/cpu@0")
            .strings("riscv,isa-extensions")
            .contains(&"smctr".to_string()));
    }

    /// Zicbom and Zicboz: the extensions are listed and the cache block sizes given.
    #[test]
    fn cbo_block_sizes() {
        let mut cfg = config(false, false);
        let pmu = pmu::Pmu::new(cfg.pmu.clone()).unwrap();
        let cpu = |cfg: &Config| parse(&build(cfg, &pmu.dt_tables()).unwrap());
        let root = cpu(&cfg);
        assert!(!root
            .at("cpus/cpu@0")
            .props
            .contains_key("riscv,cbom-block-size"));
        cfg.isa = crate::Isa::parse("rv64gc_zicbom_zicboz").unwrap();
        let root = cpu(&cfg);
        let c = root.at("cpus/cpu@0");
        assert_eq!(c.u32s("riscv,cbom-block-size"), [64]);
        assert_eq!(c.u32s("riscv,cboz-block-size"), [64]);
        let exts = c.strings("riscv,isa-extensions");
        assert!(exts.contains(&"zicbom".to_string()) && exts.contains(&"zicboz".to_string()));
    }

    #[test]
    fn models_add_their_events() {
        let mut cfg = config(true, false);
        cfg.pmu = cfg.pmu.clone().with_all_models();
        let pmu = pmu::Pmu::new(cfg.pmu.clone()).unwrap();
        let root = parse(&build(&cfg, &pmu.dt_tables()).unwrap());
        let rows = root.at("pmu").u32s("riscv,event-to-mhpmevent");
        // L1D read miss (0x10001) is there, as <event_idx 0 selector>.
        assert!(rows.chunks(3).any(|r| r == [0x10001, 0, 0x10001]));
    }

    #[test]
    fn dts_of_the_generated_tree() {
        let cfg = config(false, false);
        let pmu = pmu::Pmu::new(cfg.pmu.clone()).unwrap();
        let dts = to_dts(&build(&cfg, &pmu.dt_tables()).unwrap()).unwrap();
        assert!(
            dts.starts_with("/dts-v1/;\n\n/ {\n\t#address-cells = <0x02>;\n"),
            "{dts}"
        );
        assert!(dts.contains("\t\tcpu@0 {\n"), "{dts}");
        assert!(dts.contains("\t\t\triscv,isa = \"rv64imafdc_zicntr_zicsr_zifencei_zihpm\";\n"));
        assert!(dts.contains("\t\t\triscv,pmpregions = <0x10>;\n"), "{dts}");
        assert!(dts.contains("\t\t\t\tinterrupt-controller;\n"), "{dts}");
        assert!(
            dts.contains("\t\treg = <0x00 0x80000000 0x00 0x10000000>;\n"),
            "{dts}"
        );
        assert!(dts.contains("compatible = \"sifive,clint0\", \"riscv,clint0\";"));
        assert!(dts.ends_with("\t};\n};\n"), "{dts}");
    }

    #[test]
    fn dts_of_bad_blobs_is_an_error() {
        let cfg = config(false, false);
        let pmu = pmu::Pmu::new(cfg.pmu.clone()).unwrap();
        let blob = build(&cfg, &pmu.dt_tables()).unwrap();
        assert_eq!(to_dts(&[0; 8]), Err(FdtError::Magic(0)));
        // Every truncation is an error, never a panic.
        for n in 0..blob.len() {
            assert!(to_dts(&blob[..n]).is_err(), "truncated at {n}");
        }
        // A bad token names its offset.
        let st = be32(&blob, 8) as usize;
        let mut bad = blob.clone();
        bad[st..st + 4].copy_from_slice(&7u32.to_be_bytes());
        assert_eq!(
            to_dts(&bad),
            Err(FdtError::Token {
                token: 7,
                offset: st
            })
        );
    }
}
