//! Reading, checking and rewriting a flattened device tree blob a user gives (`run --dtb FILE`),
//! and setting `/chosen`'s boot properties (`--bootargs`, the initrd's bounds) in it or in the
//! generated tree ([`crate::dtb`]).
//!
//! A blob is checked before anything uses it (Devicetree Specification 0.4, chapter 5): the
//! magic, `totalsize` against the blob's length, the version (16 or 17, which every `dtc`
//! writes), every block within the blob, and the structure block's tokens, nesting (at most
//! [`MAX_DEPTH`] levels) and names (text) read within their blocks. The rewriter parses the blob into a tree, changes
//! `/chosen`, and writes a version-17 blob again with the same memory reservations and
//! `boot_cpuid_phys`: nodes and properties keep their order and values.

use crate::dtb::{Blob, FdtError};

const FDT_MAGIC: u32 = 0xd00d_feed;
const FDT_BEGIN_NODE: u32 = 1;
const FDT_END_NODE: u32 = 2;
const FDT_PROP: u32 = 3;
const FDT_NOP: u32 = 4;
const FDT_END: u32 = 9;
/// The header's size (version 17).
const HEADER_SIZE: usize = 40;
/// The deepest nesting read (Linux's `FDT_MAX_DEPTH`): the rewriter's recursion is bounded.
pub const MAX_DEPTH: usize = 64;

/// A node: its name (`name@unit`), its properties in order, its children in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Node {
    pub name: String,
    pub props: Vec<(String, Vec<u8>)>,
    pub children: Vec<Node>,
}

impl Node {
    /// The child named `name`.
    pub fn child(&self, name: &str) -> Option<&Node> {
        self.children.iter().find(|c| c.name == name)
    }

    /// The value of property `name`.
    pub fn prop(&self, name: &str) -> Option<&[u8]> {
        self.props
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_slice())
    }

    /// Set property `name` (replacing its value where it is, else appended).
    pub fn set_prop(&mut self, name: &str, value: Vec<u8>) {
        match self.props.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = value,
            None => self.props.push((name.to_string(), value)),
        }
    }
}

/// A parsed device tree.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tree {
    /// The memory reservation block's entries, `(address, size)`.
    pub reserved: Vec<(u64, u64)>,
    pub boot_cpuid_phys: u32,
    pub root: Node,
}

/// What `/chosen` gets for a boot: the kernel's command line and the initrd's bounds
/// (`linux,initrd-start`, `linux,initrd-end`: 64-bit values, as QEMU writes them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Chosen {
    pub bootargs: Option<String>,
    /// The initrd's first byte and the byte after its last.
    pub initrd: Option<(u64, u64)>,
}

impl Chosen {
    /// Nothing to set.
    pub fn is_empty(&self) -> bool {
        self.bootargs.is_none() && self.initrd.is_none()
    }
}

/// Check that `blob` is a flattened device tree this reader takes: see the module's text.
pub fn check(blob: &[u8]) -> Result<(), FdtError> {
    parse(blob).map(|_| ())
}

/// The header's fields, checked: (off_dt_struct, size_dt_struct, off_dt_strings,
/// size_dt_strings, off_mem_rsvmap, boot_cpuid_phys).
fn header(blob: &[u8]) -> Result<[u32; 6], FdtError> {
    let b = Blob(blob);
    let magic = b.u32(0, "the header")?;
    if magic != FDT_MAGIC {
        return Err(FdtError::Magic(magic));
    }
    b.bytes(0, HEADER_SIZE, "the header")?;
    let word = |i: usize| b.u32(4 * i, "the header");
    let total = word(1)?;
    if total as usize != blob.len() {
        return Err(FdtError::TotalSize {
            header: total,
            len: blob.len(),
        });
    }
    let (version, last_comp) = (word(5)?, word(6)?);
    if !(16..=17).contains(&version) || !(16..=17).contains(&last_comp) {
        return Err(FdtError::Version { version, last_comp });
    }
    let (st, strings, rsv, cpuid, strings_size, st_size) =
        (word(2)?, word(3)?, word(4)?, word(7)?, word(8)?, word(9)?);
    for (what, offset, size) in [
        ("structure block", st, st_size),
        ("strings block", strings, strings_size),
        ("memory reservation block", rsv, 16),
    ] {
        if offset as u64 + size as u64 > blob.len() as u64 {
            return Err(FdtError::Block {
                what,
                offset,
                size,
                len: blob.len(),
            });
        }
    }
    Ok([st, st_size, strings, strings_size, rsv, cpuid])
}

/// Parse a blob into a tree, checking it (see the module's text).
pub fn parse(blob: &[u8]) -> Result<Tree, FdtError> {
    let [st, st_size, strings, strings_size, rsv, cpuid] = header(blob)?;
    let b = Blob(blob);
    let mut tree = Tree {
        boot_cpuid_phys: cpuid,
        ..Tree::default()
    };
    let mut pos = rsv as usize;
    loop {
        let e = b.bytes(pos, 16, "a memory reservation")?;
        let word = |i: usize| u64::from_be_bytes(std::array::from_fn(|k| e[i + k]));
        let (addr, size) = (word(0), word(8));
        if addr == 0 && size == 0 {
            break;
        }
        tree.reserved.push((addr, size));
        pos += 16;
    }
    // Tokens are read within the structure block, names within the strings block.
    let st_end = st as usize + st_size as usize;
    let sb = Blob(&blob[..st_end]);
    let names = Blob(&blob[strings as usize..strings as usize + strings_size as usize]);
    let mut pos = st as usize;
    let mut stack: Vec<Node> = Vec::new();
    let mut root = None;
    loop {
        let at = pos;
        let token = sb.u32(pos, "a structure token")?;
        pos += 4;
        match token {
            FDT_BEGIN_NODE => {
                if root.is_some() {
                    return Err(FdtError::Unbalanced { offset: at });
                }
                let name = sb.cstr(pos, "a node name")?;
                let name =
                    String::from_utf8(name.to_vec()).map_err(|_| FdtError::Name { offset: pos })?;
                pos = (pos + name.len() + 1).next_multiple_of(4);
                if stack.is_empty() && !name.is_empty() {
                    return Err(FdtError::Root { name });
                }
                if stack.len() >= MAX_DEPTH {
                    return Err(FdtError::Depth {
                        max: MAX_DEPTH,
                        offset: at,
                    });
                }
                stack.push(Node {
                    name,
                    ..Node::default()
                });
            }
            FDT_END_NODE => {
                let node = stack.pop().ok_or(FdtError::Unbalanced { offset: at })?;
                match stack.last_mut() {
                    Some(parent) => parent.children.push(node),
                    None => root = Some(node),
                }
            }
            FDT_PROP => {
                let Some(node) = stack.last_mut() else {
                    return Err(FdtError::Unbalanced { offset: at });
                };
                let len = sb.u32(pos, "a property length")? as usize;
                let nameoff = sb.u32(pos + 4, "a property name offset")? as usize;
                let name = names.cstr(nameoff, "a property name")?;
                let name = String::from_utf8(name.to_vec()).map_err(|_| FdtError::Name {
                    offset: strings as usize + nameoff,
                })?;
                let value = sb.bytes(pos + 8, len, "a property value")?;
                pos = (pos + 8 + len).next_multiple_of(4);
                node.props.push((name, value.to_vec()));
            }
            FDT_NOP => {}
            FDT_END => {
                return match (root, stack.is_empty()) {
                    (Some(root), true) => {
                        tree.root = root;
                        Ok(tree)
                    }
                    _ => Err(FdtError::Unbalanced { offset: at }),
                };
            }
            token => return Err(FdtError::Token { token, offset: at }),
        }
        if pos >= st_end {
            return Err(FdtError::NoEnd { offset: at });
        }
    }
}

impl Tree {
    /// The blob (version 17, last compatible version 16): header, memory reservations,
    /// structure block, strings block (each property name once).
    pub fn to_blob(&self) -> Vec<u8> {
        let mut st = Vec::new();
        let mut strings: Vec<u8> = Vec::new();
        let mut offsets = std::collections::HashMap::new();
        fn node(
            n: &Node,
            st: &mut Vec<u8>,
            strings: &mut Vec<u8>,
            offsets: &mut std::collections::HashMap<String, u32>,
        ) {
            st.extend_from_slice(&FDT_BEGIN_NODE.to_be_bytes());
            st.extend_from_slice(n.name.as_bytes());
            st.push(0);
            st.resize(st.len().next_multiple_of(4), 0);
            for (name, value) in &n.props {
                let off = *offsets.entry(name.clone()).or_insert_with(|| {
                    let off = strings.len() as u32;
                    strings.extend_from_slice(name.as_bytes());
                    strings.push(0);
                    off
                });
                st.extend_from_slice(&FDT_PROP.to_be_bytes());
                st.extend_from_slice(&(value.len() as u32).to_be_bytes());
                st.extend_from_slice(&off.to_be_bytes());
                st.extend_from_slice(value);
                st.resize(st.len().next_multiple_of(4), 0);
            }
            for c in &n.children {
                node(c, st, strings, offsets);
            }
            st.extend_from_slice(&FDT_END_NODE.to_be_bytes());
        }
        node(&self.root, &mut st, &mut strings, &mut offsets);
        st.extend_from_slice(&FDT_END.to_be_bytes());
        let rsv_off = HEADER_SIZE.next_multiple_of(8);
        let rsv_len = 16 * (self.reserved.len() + 1);
        let st_off = rsv_off + rsv_len;
        let strings_off = st_off + st.len();
        let total = strings_off + strings.len();
        let mut out = Vec::with_capacity(total);
        for w in [
            FDT_MAGIC,
            total as u32,
            st_off as u32,
            strings_off as u32,
            rsv_off as u32,
            17,
            16,
            self.boot_cpuid_phys,
            strings.len() as u32,
            st.len() as u32,
        ] {
            out.extend_from_slice(&w.to_be_bytes());
        }
        out.resize(rsv_off, 0);
        for &(a, s) in self.reserved.iter().chain([(0, 0)].iter()) {
            out.extend_from_slice(&a.to_be_bytes());
            out.extend_from_slice(&s.to_be_bytes());
        }
        out.extend_from_slice(&st);
        out.extend_from_slice(&strings);
        out
    }

    /// Set `/chosen`'s boot properties (the node is made, first under the root, when there is
    /// none).
    pub fn set_chosen(&mut self, chosen: &Chosen) -> Result<(), FdtError> {
        if chosen.is_empty() {
            return Ok(());
        }
        let i = match self.root.children.iter().position(|c| c.name == "chosen") {
            Some(i) => i,
            None => {
                self.root.children.insert(
                    0,
                    Node {
                        name: "chosen".into(),
                        ..Node::default()
                    },
                );
                0
            }
        };
        let node = &mut self.root.children[i];
        if let Some(args) = &chosen.bootargs {
            if args.contains('\0') {
                return Err(FdtError::Value {
                    what: "bootargs",
                    name: args.clone(),
                    why: "a NUL character cannot be in a device tree string",
                });
            }
            let mut v = args.as_bytes().to_vec();
            v.push(0);
            node.set_prop("bootargs", v);
        }
        if let Some((start, end)) = chosen.initrd {
            node.set_prop("linux,initrd-start", start.to_be_bytes().to_vec());
            node.set_prop("linux,initrd-end", end.to_be_bytes().to_vec());
        }
        Ok(())
    }
}

/// `blob` with `/chosen`'s boot properties set; `blob` itself when there is nothing to set
/// (after checking it).
pub fn patch_chosen(blob: &[u8], chosen: &Chosen) -> Result<Vec<u8>, FdtError> {
    let mut tree = parse(blob)?;
    if chosen.is_empty() {
        return Ok(blob.to_vec());
    }
    tree.set_chosen(chosen)?;
    Ok(tree.to_blob())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn generated() -> Vec<u8> {
        let cfg = crate::Config::default();
        let pmu = pmu::Pmu::new(cfg.pmu.clone()).unwrap();
        crate::dtb::build(&cfg, &pmu.dt_tables()).unwrap()
    }

    /// The generated tree reads back, and writes again to a blob that reads as the same tree
    /// and prints as the same source.
    #[test]
    fn round_trip() {
        let blob = generated();
        let tree = parse(&blob).unwrap();
        assert_eq!(tree.root.name, "");
        assert!(tree.root.child("chosen").is_some());
        let again = tree.to_blob();
        assert_eq!(parse(&again).unwrap(), tree);
        assert_eq!(
            crate::dtb::to_dts(&again).unwrap(),
            crate::dtb::to_dts(&blob).unwrap()
        );
    }

    #[test]
    fn chosen_gets_bootargs_and_initrd() {
        let blob = generated();
        let c = Chosen {
            bootargs: Some("console=ttyS0 earlycon".into()),
            initrd: Some((0x8820_0000, 0x8830_0000)),
        };
        let out = patch_chosen(&blob, &c).unwrap();
        let tree = parse(&out).unwrap();
        let ch = tree.root.child("chosen").unwrap();
        assert_eq!(ch.prop("bootargs").unwrap(), b"console=ttyS0 earlycon\0");
        assert_eq!(
            ch.prop("linux,initrd-start").unwrap(),
            0x8820_0000u64.to_be_bytes()
        );
        assert_eq!(
            ch.prop("linux,initrd-end").unwrap(),
            0x8830_0000u64.to_be_bytes()
        );
        assert!(ch.prop("stdout-path").is_some(), "kept");
        // Replacing keeps one of each.
        let out2 = patch_chosen(
            &out,
            &Chosen {
                bootargs: Some("quiet".into()),
                initrd: None,
            },
        )
        .unwrap();
        let t2 = parse(&out2).unwrap();
        let ch = t2.root.child("chosen").unwrap();
        assert_eq!(ch.props.iter().filter(|(n, _)| n == "bootargs").count(), 1);
        assert_eq!(ch.prop("bootargs").unwrap(), b"quiet\0");
        // A tree with no /chosen gets one.
        let mut t = parse(&blob).unwrap();
        t.root.children.retain(|c| c.name != "chosen");
        t.reserved.push((0x8000_0000, 0x1000));
        let out = patch_chosen(&t.to_blob(), &c).unwrap();
        let t3 = parse(&out).unwrap();
        assert_eq!(t3.reserved, [(0x8000_0000, 0x1000)]);
        assert!(t3.root.child("chosen").unwrap().prop("bootargs").is_some());
        assert!(patch_chosen(
            &blob,
            &Chosen {
                bootargs: Some("a\0b".into()),
                initrd: None
            }
        )
        .is_err());
    }

    /// Every header field that can be wrong is an error naming it; every truncation and
    /// every single-byte corruption is an error or a tree, never a panic.
    #[test]
    fn bad_blobs_are_errors() {
        let blob = generated();
        let set = |off: usize, v: u32| {
            let mut b = blob.clone();
            b[off..off + 4].copy_from_slice(&v.to_be_bytes());
            b
        };
        assert_eq!(parse(&set(0, 0x1234)), Err(FdtError::Magic(0x1234)));
        assert_eq!(
            parse(&set(4, 99)),
            Err(FdtError::TotalSize {
                header: 99,
                len: blob.len()
            })
        );
        assert!(matches!(
            parse(&set(20, 2)),
            Err(FdtError::Version { version: 2, .. })
        ));
        assert!(matches!(
            parse(&set(8, 0xffff_fff0)),
            Err(FdtError::Block {
                what: "structure block",
                ..
            })
        ));
        assert!(matches!(
            parse(&set(36, 0x7fff_ffff)),
            Err(FdtError::Block { .. })
        ));
        for n in 0..blob.len() {
            assert!(parse(&blob[..n]).is_err(), "truncated at {n}");
        }
        // Nesting past MAX_DEPTH.
        let mut t = Tree::default();
        let mut n = Node::default();
        for _ in 0..MAX_DEPTH {
            n = Node {
                name: "n".into(),
                children: vec![n],
                ..Node::default()
            };
        }
        t.root.children.push(n);
        assert!(matches!(
            parse(&t.to_blob()),
            Err(FdtError::Depth { max: 64, .. })
        ));
        for i in 0..blob.len() {
            for x in [0x01, 0x80, 0xff] {
                let mut b = blob.clone();
                b[i] ^= x;
                let _ = parse(&b);
            }
        }
    }
}
