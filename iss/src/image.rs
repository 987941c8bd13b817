//! The RISC-V Linux `Image` header (the kernel's Documentation/riscv/boot-image-header.rst):
//! 64 bytes at the start of the flat kernel image, which say where it goes in RAM
//! (`text_offset` from the start of RAM) and how much memory it takes (`image_size`, with its
//! bss).
//!
//! ```text
//!  0  u32 code0        executable code (a jump past the header)
//!  4  u32 code1
//!  8  u64 text_offset  image load offset from the start of RAM, little-endian (0x200000 on RV64)
//! 16  u64 image_size   effective image size (0: unknown, the file's size is used)
//! 24  u64 flags        bit 0: 0 little-endian, 1 big-endian
//! 32  u32 version      major << 16 | minor (0.2 today)
//! 36  u32 res1
//! 40  u64 res2
//! 48  u64 magic        "RISCV\0\0\0" (deprecated)
//! 56  u32 magic2       "RSC\x05"
//! 60  u32 res3
//! ```
//!
//! An image is taken when magic2 is "RSC\x05", or (images of header version 0.1, before magic2)
//! when magic is "RISCV\0\0\0".

/// The header's size.
pub const HEADER_SIZE: usize = 64;
/// The deprecated magic at byte 48.
pub const MAGIC: [u8; 8] = *b"RISCV\0\0\0";
/// The magic at byte 56.
pub const MAGIC2: [u8; 4] = *b"RSC\x05";

/// What the header says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageHeader {
    pub text_offset: u64,
    pub image_size: u64,
    pub flags: u64,
    pub version: u32,
}

/// Why a file is not an Image this hart can run.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ImageError {
    #[error("{len} bytes: shorter than the {HEADER_SIZE}-byte RISC-V Linux Image header")]
    Short { len: usize },
    #[error(
        "not a RISC-V Linux Image (nor an ELF): magic2 at byte 56 is {magic2} (expected \
         \"RSC\\x05\") and magic at byte 48 is {magic} (expected \"RISCV\\0\\0\\0\")"
    )]
    Magic { magic2: String, magic: String },
    #[error("a big-endian Image (flags {flags:#x} at byte 24): the hart is little-endian")]
    BigEndian { flags: u64 },
}

/// Bytes as an escaped string (`"RSC\x05"`).
fn shown(b: &[u8]) -> String {
    format!("\"{}\"", b.escape_ascii())
}

/// Read the header at the start of `bytes`.
pub fn parse(bytes: &[u8]) -> Result<ImageHeader, ImageError> {
    let Some(h) = bytes.get(..HEADER_SIZE) else {
        return Err(ImageError::Short { len: bytes.len() });
    };
    let u64_at = |o: usize| u64::from_le_bytes(std::array::from_fn(|i| h[o + i]));
    let (magic, magic2) = (&h[48..56], &h[56..60]);
    if magic2 != MAGIC2 && magic != MAGIC {
        return Err(ImageError::Magic {
            magic2: shown(magic2),
            magic: shown(magic),
        });
    }
    let flags = u64_at(24);
    if flags & 1 != 0 {
        return Err(ImageError::BigEndian { flags });
    }
    Ok(ImageHeader {
        text_offset: u64_at(8),
        image_size: u64_at(16),
        flags,
        version: u32::from_le_bytes(std::array::from_fn(|i| h[32 + i])),
    })
}

/// Whether `bytes` start as an ELF file does.
pub fn is_elf(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x7fELF")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(text_offset: u64, image_size: u64) -> Vec<u8> {
        let mut h = vec![0u8; HEADER_SIZE];
        h[8..16].copy_from_slice(&text_offset.to_le_bytes());
        h[16..24].copy_from_slice(&image_size.to_le_bytes());
        h[32..36].copy_from_slice(&2u32.to_le_bytes());
        h[48..56].copy_from_slice(&MAGIC);
        h[56..60].copy_from_slice(&MAGIC2);
        h
    }

    #[test]
    fn reads_the_header() {
        let h = parse(&header(0x20_0000, 0x1234)).unwrap();
        assert_eq!(
            h,
            ImageHeader {
                text_offset: 0x20_0000,
                image_size: 0x1234,
                flags: 0,
                version: 2
            }
        );
        // Either magic is enough.
        let mut old = header(0x20_0000, 0);
        old[56..60].fill(0);
        assert!(parse(&old).is_ok());
        let mut new = header(0x20_0000, 0);
        new[48..56].fill(0);
        assert!(parse(&new).is_ok());
    }

    #[test]
    fn bad_headers_are_errors() {
        assert_eq!(parse(&[0; 63]), Err(ImageError::Short { len: 63 }));
        let mut bad = header(0, 0);
        bad[48..60].copy_from_slice(b"ARM\x64ARM\x64RSC\x06");
        let e = parse(&bad).unwrap_err().to_string();
        assert!(e.contains("magic2 at byte 56 is \"RSC\\x06\""), "{e}");
        let mut be = header(0, 0);
        be[24] = 1;
        assert_eq!(parse(&be), Err(ImageError::BigEndian { flags: 1 }));
        assert!(is_elf(b"\x7fELF\x02") && !is_elf(&header(0, 0)));
    }
}
