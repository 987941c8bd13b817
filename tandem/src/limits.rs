//! Limits on sizes that come from outside (a settings file, a stream, an option), checked
//! before anything is allocated from them.
//!
//! The reference hart's RAM size follows the rules of `hartscope run --mem` (a unit test of
//! the command line checks that its `parse_size` agrees with [`check_ram_size`]): a non-zero
//! multiple of 4 KiB, at most [`MAX_RAM_SIZE`]. RAM is reserved lazily (`iss::bus::Ram`), so
//! a size within the rules may exceed the host's memory; a reservation the host refuses is
//! `Machine::try_new`'s error, which the verifier passes on.

use thiserror::Error;

/// The largest RAM `hartscope run --mem` accepts: the hart's own limit.
pub const MAX_RAM_SIZE: u64 = iss::bus::MAX_RAM_SIZE;
/// RAM sizes are whole pages.
pub const RAM_GRANULE: u64 = 4096;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum RamSizeError {
    #[error("RAM size {0} is not a non-zero multiple of 4 KiB")]
    NotPages(u64),
    #[error("RAM size {0} is more than the limit of 1 TiB")]
    TooLarge(u64),
}

/// A RAM size `hartscope run --mem` would accept.
pub fn check_ram_size(n: u64) -> Result<(), RamSizeError> {
    if n > MAX_RAM_SIZE {
        return Err(RamSizeError::TooLarge(n));
    }
    if n == 0 || !n.is_multiple_of(RAM_GRANULE) {
        return Err(RamSizeError::NotPages(n));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ram_sizes() {
        assert_eq!(check_ram_size(256 << 20), Ok(()));
        assert_eq!(check_ram_size(MAX_RAM_SIZE), Ok(()));
        assert_eq!(check_ram_size(0), Err(RamSizeError::NotPages(0)));
        assert_eq!(check_ram_size(4097), Err(RamSizeError::NotPages(4097)));
        assert_eq!(
            check_ram_size(u64::MAX),
            Err(RamSizeError::TooLarge(u64::MAX))
        );
        assert_eq!(
            check_ram_size(MAX_RAM_SIZE + 4096),
            Err(RamSizeError::TooLarge(MAX_RAM_SIZE + 4096))
        );
    }
}
