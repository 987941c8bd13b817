//! Names of registers by debug-spec address (`x3/gp`, `f7/ft7`, `mstatus`) and of privilege
//! levels, for the dump and the verifier's reports.

use std::borrow::Cow;

pub use arch::{FPR_ABI, GPR_ABI};

/// The name of the register at a debug-spec address: `x3/gp`, `f7/ft7`, a CSR's name, or
/// `csr0x7c0` / `reg0x2000` for addresses with no known register.
pub fn reg_name(addr: u16) -> Cow<'static, str> {
    match addr {
        0..=0xfff => match iss::csr::csr_name(addr) {
            Some(n) => n,
            None => Cow::Owned(format!("csr0x{addr:03x}")),
        },
        0x1000..=0x101f => {
            let n = (addr - 0x1000) as usize;
            Cow::Owned(format!("x{n}/{}", GPR_ABI[n]))
        }
        0x1020..=0x103f => {
            let n = (addr - 0x1020) as usize;
            Cow::Owned(format!("f{n}/{}", FPR_ABI[n]))
        }
        _ => Cow::Owned(format!("reg0x{addr:04x}")),
    }
}

/// `U`, `S`, `M` (or the number for anything else).
pub fn priv_name(p: u8) -> Cow<'static, str> {
    match p {
        0 => Cow::Borrowed("U"),
        1 => Cow::Borrowed("S"),
        3 => Cow::Borrowed("M"),
        _ => Cow::Owned(p.to_string()),
    }
}

/// Disassemble an instruction (`disc-v`, RV64).
pub fn disasm(pc: u64, bits: u32, len: u8) -> String {
    let b = if len == 2 {
        bits as u64 & 0xffff
    } else {
        bits as u64
    };
    disc_v::decode(disc_v::Isa::Rv64, pc, b).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(reg_name(0x1003), "x3/gp");
        assert_eq!(reg_name(0x1027), "f7/ft7");
        assert_eq!(reg_name(0x300), "mstatus");
        assert_eq!(reg_name(0x7c0), "csr0x7c0");
        assert_eq!(reg_name(0x2000), "reg0x2000");
        assert_eq!(disasm(0, 0x006281b3, 4), "add gp,t0,t1");
    }
}
