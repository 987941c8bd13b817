//! CSR behaviour: WARL fields, reserved and custom bits, DEPTH discovery and changes, CLR, WRPTR
//! and WRAP, the entry registers through the indirect interface, privilege checks and the
//! Smstateen gate. Section numbers are those of draft 0.1.4 unless a test says 1.0.

mod common;
use arch::{Itype, Priv};
use common::*;
use ctr::{AccessCtx, Bank, CtrConfig, Fault, Layout};
use rstest::rstest;
use Priv::{M, S, U};

/// Reset: nothing enabled, DEPTH the minimum supported (what writing 0 gives), status 0.
#[rstest]
fn reset_state(#[values(Layout::Draft014, Layout::Ratified10)] l: Layout) {
    let c = new(l);
    assert_eq!(ctl(&c), 0);
    assert_eq!(status(&c), 0);
    assert_eq!(c.depth(), 16);
    assert!(!c.active());
    assert!(c
        .entries()
        .all(|e| !e.valid && e.source == 0 && e.target == 0));
}

/// Writing all ones to the control register reads back exactly the implemented fields
/// (chapter 6: "Software can discover implemented optional ctrcontrol fields by writing all 1s
/// ... Unimplemented fields are read-only 0"; reserved bits 15:13, 32:20, 39 read 0, CLR reads
/// 0, DEPTH legalises to the deepest supported = 1111).
#[test]
fn control_all_ones_014() {
    let mut c = new(Layout::Draft014);
    set_ctl(&mut c, u64::MAX);
    // M S U | MTE STE RASEMU BPFRZ LCOFIFRZ | DEPTH=1111 | EXCINH..ETEN 38:33 | 47:40.
    assert_eq!(ctl(&c), 0x0000_FF7E_000F_1F07);
    assert_eq!(c.depth(), 256);
}

/// 1.0 mctrctl: U S M | RASEMU STE MTE | BPFRZ LCOFIFRZ | 37:33 | 47:40; no CLR, DEPTH, ETEN.
#[test]
fn control_all_ones_10() {
    let mut c = new(Layout::Ratified10);
    set_ctl(&mut c, u64::MAX);
    assert_eq!(ctl(&c), 0x0000_FF3E_0000_1B87);
    assert_eq!(c.depth(), 16, "writing mctrctl does not touch the depth");
}

/// Minimal implementation: only the required fields (0.1.4: M, S, U, CLR, DEPTH; 1.0: M, S,
/// U, BPFRZ).
#[rstest]
#[case::draft(Layout::Draft014, 0x0000_0000_0000_0007)]
#[case::ratified(Layout::Ratified10, 0x0000_0000_0000_0807)]
fn control_minimal(#[case] l: Layout, #[case] want: u64) {
    let cfg = CtrConfig {
        supported_depths: 0b1,
        filter_bits: 0,
        rasemu: false,
        external_traps: false,
        bpfrz: false,
        lcofifrz: false,
        cycle_counting: false,
        ..CtrConfig::with_layout(l)
    };
    let mut c = with(cfg);
    set_ctl(&mut c, u64::MAX);
    assert_eq!(ctl(&c), want);
}

/// Custom bits 63:60 ("reserved for custom extensions"): read-only 0 unless configured, then
/// plain storage; they change no behaviour.
#[rstest]
fn custom_control_bits(#[values(Layout::Draft014, Layout::Ratified10)] l: Layout) {
    let mut c = new(l);
    set_ctl(&mut c, 0xF << 60);
    assert_eq!(ctl(&c) >> 60, 0);
    let mut c = with(CtrConfig {
        custom_bits: 0b1010,
        ..CtrConfig::with_layout(l)
    });
    let b = bits(l);
    set_ctl(&mut c, (0xF << 60) | b.m);
    assert_eq!(ctl(&c) >> 60, 0b1010);
    assert_eq!(br(&mut c, 1, 2, M), ctr::Outcome::Recorded);
}

/// Section 2.2: sctrcontrol reads mctrcontrol with M (bit 0) and MTE (bit 8) as 0, and S-mode
/// writes cannot change them; all other fields (DEPTH and CLR included) are S-writable.
/// 1.0: bits 2 and 9.
#[rstest]
fn s_view_hides_m_and_mte(#[values(Layout::Draft014, Layout::Ratified10)] l: Layout) {
    let b = bits(l);
    let mut c = new(l);
    set_ctl(&mut c, b.m | b.mte | b.s);
    let s = c.csr_read(b.sctl, S, &ctx()).unwrap().unwrap();
    assert_eq!(s, b.s);
    // S-mode writes all ones: M and MTE keep their M-mode values.
    c.csr_write(b.sctl, !(b.m | b.mte), S, &ctx())
        .unwrap()
        .unwrap();
    assert_eq!(ctl(&c) & (b.m | b.mte), b.m | b.mte);
    c.csr_write(b.sctl, 0, S, &ctx()).unwrap().unwrap();
    assert_eq!(ctl(&c) & (b.m | b.mte), b.m | b.mte);
    assert_eq!(ctl(&c) & b.s, 0);
    c.csr_write(b.sctl, b.m | b.mte, S, &ctx())
        .unwrap()
        .unwrap();
    let s = c.csr_read(b.sctl, S, &ctx()).unwrap().unwrap();
    assert_eq!(s & (b.m | b.mte), 0);
    if l == Layout::Draft014 {
        // DEPTH through sctrcontrol.
        c.csr_write(b.sctl, 0b0011 << 16, S, &ctx())
            .unwrap()
            .unwrap();
        assert_eq!(c.depth(), 64);
    }
}

/// Chapter 6 discovery: writing 0000 to DEPTH reads back the minimum supported depth, 1111 the
/// maximum; with the codes 0000=16, 0001=32, 0011=64, 0111=128, 1111=256 (section 2.1).
#[rstest]
#[case::all(0b11111, 0b0000, 0b1111)]
#[case::only_16(0b00001, 0b0000, 0b0000)]
#[case::only_256(0b10000, 0b1111, 0b1111)]
#[case::d32_to_128(0b01110, 0b0001, 0b0111)]
#[case::d16_to_64(0b00111, 0b0000, 0b0011)]
#[case::d64_to_256(0b11100, 0b0011, 0b1111)]
fn discovery_014(#[case] depths: u8, #[case] min_code: u64, #[case] max_code: u64) {
    let mut c = with(CtrConfig {
        supported_depths: depths,
        ..CtrConfig::default()
    });
    set_ctl(&mut c, 0);
    assert_eq!(ctl(&c) >> 16 & 0xF, min_code);
    set_ctl(&mut c, 0b1111 << 16);
    assert_eq!(ctl(&c) >> 16 & 0xF, max_code);
    assert_eq!(c.depth(), 16 * (max_code as usize + 1));
}

/// Every legal DEPTH code selects its depth; an illegal code (not 0*1*) is read as the depth
/// its top bit reaches, then clamped (docs/ctr.md, "DEPTH legalisation").
#[rstest]
#[case(0b0000, 16)]
#[case(0b0001, 32)]
#[case(0b0011, 64)]
#[case(0b0111, 128)]
#[case(0b1111, 256)]
#[case(0b0010, 64)]
#[case(0b0101, 128)]
#[case(0b1000, 256)]
fn depth_codes_014(#[case] code: u64, #[case] depth: usize) {
    let mut c = new(Layout::Draft014);
    set_ctl(&mut c, code << 16);
    assert_eq!(c.depth(), depth);
    let legal = (depth as u64 / 16) - 1;
    assert_eq!(ctl(&c) >> 16 & 0xF, legal);
}

/// 1.0 sctrdepth: 000=16 ... 100=256, 11x reserved; discovery by 0 and all ones.
#[rstest]
#[case::all(0b11111, 0, 4)]
#[case::d32_to_128(0b01110, 1, 3)]
#[case::only_64(0b00100, 2, 2)]
fn discovery_10(#[case] depths: u8, #[case] min: u64, #[case] max: u64) {
    let mut c = with(CtrConfig {
        supported_depths: depths,
        ..CtrConfig::with_layout(Layout::Ratified10)
    });
    let w = |c: &mut ctr::Ctr, v| {
        c.csr_write(r10::SCTRDEPTH, v, M, &ctx()).unwrap().unwrap();
        c.csr_read(r10::SCTRDEPTH, M, &ctx()).unwrap().unwrap()
    };
    assert_eq!(w(&mut c, 0), min);
    assert_eq!(w(&mut c, u64::MAX), max);
    assert_eq!(w(&mut c, 0b110), max, "reserved 11x");
    assert_eq!(c.depth(), 16 << max);
}

/// Section 2.4 mctrstatus: WRPTR 7:0 (bits above depth-1 read-only 0), WRAP 14, FROZEN 15;
/// everything else reads 0 (WPRI; 31:28 custom, none implemented).
#[test]
fn status_fields_014() {
    let mut c = new(Layout::Draft014);
    set_status(&mut c, u64::MAX);
    assert_eq!(status(&c), 0xC00F, "depth 16: WRPTR[3:0], WRAP, FROZEN");
    set_ctl(&mut c, 0b1111 << 16);
    set_status(&mut c, u64::MAX);
    assert_eq!(status(&c), 0xC0FF);
    // mctrstatus and sctrstatus are the same register.
    let m = c.csr_read(d014::MCTRSTATUS, M, &ctx()).unwrap().unwrap();
    let s = c.csr_read(d014::SCTRSTATUS, S, &ctx()).unwrap().unwrap();
    assert_eq!(m, s);
    c.csr_write(d014::SCTRSTATUS, 0x25, S, &ctx())
        .unwrap()
        .unwrap();
    assert_eq!(
        c.csr_read(d014::MCTRSTATUS, M, &ctx()).unwrap().unwrap(),
        0x25
    );
}

/// Recording writes logical entry 0 at WRPTR and increments it; at depth-1 it wraps to 0 and
/// (0.1.4) sets the sticky WRAP; the oldest record is overwritten (chapter 5).
#[rstest]
fn wrap(#[values(Layout::Draft014, Layout::Ratified10)] l: Layout) {
    let mut c = new(l);
    set_ctl(&mut c, bits(l).m);
    for n in 0..15u64 {
        br(&mut c, 0x100 + 4 * n, 0x900 + 4 * n, M);
        assert_eq!(c.wrptr() as u64, n + 1);
    }
    assert_eq!(status(&c) & d014::WRAP, 0);
    br(&mut c, 0x100 + 4 * 15, 0x900 + 4 * 15, M);
    assert_eq!(c.wrptr(), 0);
    let wrap = if l == Layout::Draft014 { d014::WRAP } else { 0 };
    assert_eq!(status(&c) & (d014::WRAP | 0xFF), wrap);
    br(&mut c, 0x100 + 4 * 16, 0x900 + 4 * 16, M);
    assert_eq!(c.wrptr(), 1);
    assert_eq!(status(&c) & d014::WRAP, wrap, "WRAP is sticky");
    for x in 0..16u64 {
        let n = 16 - x;
        assert_eq!(rec(&c, x), (0x100 + 4 * n, 0x900 + 4 * n, 5, true));
    }
    // The 1st record (n = 0) is gone.
    assert!(valid_records(&c).iter().all(|r| r.0 != 0x100));
}

/// Logical entry 0 is the physical entry before WRPTR: logical x = (WRPTR - x - 1) mod depth
/// (section 2.4 note; 1.0 sctrstatus note).
#[rstest]
fn logical_mapping(#[values(Layout::Draft014, Layout::Ratified10)] l: Layout) {
    let mut c = new(l);
    // Write physical entries through logical numbers at WRPTR = 0: logical x = physical 15-x.
    for x in 0..16u64 {
        c.ireg_write(
            Bank::Supervisor,
            0x200 + x,
            1,
            (0x1000 + x) << 4 | 1,
            M,
            &ctx(),
        )
        .unwrap()
        .unwrap();
    }
    // Move WRPTR to 5: logical 0 is physical 4, which was logical 11.
    set_status(&mut c, 5);
    for x in 0..16u64 {
        let phys = (5 + 16 - x - 1) % 16;
        let was_logical = 15 - phys;
        assert_eq!(raw(&c, x).0, (0x1000 + was_logical) << 4 | 1, "{x}");
    }
    // A record goes to physical 5 = new logical 0.
    set_ctl(&mut c, bits(l).m);
    br(&mut c, 0xAA0, 0xBB0, M);
    assert_eq!(c.wrptr(), 6);
    assert_eq!(rec(&c, 0), (0xAA0, 0xBB0, 5, true));
    assert_eq!(raw(&c, 1).0, (0x1000 + 11) << 4 | 1);
}

/// Section 2.1 DEPTH: "mireg, mireg2, and mireg3 are read-only 0 when miselect holds a value in
/// N..255"; chapter 3: "mireg\[456\] are read-only zero".
#[rstest]
fn entries_beyond_depth_and_ireg456(#[values(Layout::Draft014, Layout::Ratified10)] l: Layout) {
    let mut c = new(l);
    for x in [16u64, 17, 100, 255] {
        for reg in 1..=3 {
            c.ireg_write(Bank::Supervisor, 0x200 + x, reg, u64::MAX, M, &ctx())
                .unwrap()
                .unwrap();
            let v = c
                .ireg_read(Bank::Supervisor, 0x200 + x, reg, M, &ctx())
                .unwrap()
                .unwrap();
            assert_eq!(v, 0, "entry {x} reg {reg}");
        }
    }
    for reg in 4..=6 {
        c.ireg_write(Bank::Supervisor, 0x200, reg, u64::MAX, M, &ctx())
            .unwrap()
            .unwrap();
        let v = c.ireg_read(Bank::Supervisor, 0x200, reg, M, &ctx());
        assert_eq!(v, Some(Ok(0)));
    }
    // Outside 0x200..0x2FF the select value is not CTR's.
    for sel in [0x1FF, 0x300, 0x30, 0] {
        assert_eq!(c.ireg_read(Bank::Supervisor, sel, 1, M, &ctx()), None);
        assert_eq!(c.ireg_write(Bank::Supervisor, sel, 1, 0, M, &ctx()), None);
    }
    // Not an alias register number.
    for reg in [0, 7] {
        assert_eq!(
            c.ireg_read(Bank::Supervisor, 0x200, reg, M, &ctx()),
            Some(Err(Fault::NotImplemented))
        );
    }
}

/// Entry-register WARL (chapter 3): ctrsource holds any address and V; ctrtarget.MISP is
/// read-only 0 when not implemented; ctrdata keeps TYPE, CCV, CC (CCE limited to the
/// implemented bits) and reads 0 elsewhere (14:4 WPRI/custom, 63:32 WPRI).
#[rstest]
#[case::full(true, 4, 0xFFFF_800F)]
#[case::cce2(true, 2, 0x3FFF_800F)]
#[case::cce0(true, 0, 0x0FFF_800F)]
#[case::no_cc(false, 4, 0x0000_000F)]
fn entry_register_warl(#[case] cc: bool, #[case] cce: u8, #[case] data: u64) {
    let mut c = with(CtrConfig {
        cycle_counting: cc,
        cce_bits: cce,
        ..CtrConfig::default()
    });
    for reg in 1..=3 {
        c.ireg_write(Bank::Machine, 0x203, reg, u64::MAX, M, &ctx())
            .unwrap()
            .unwrap();
    }
    let r = |reg| {
        c.ireg_read(Bank::Machine, 0x203, reg, M, &ctx())
            .unwrap()
            .unwrap()
    };
    assert_eq!(r(1), u64::MAX);
    assert_eq!(r(2), u64::MAX - 1, "MISP not implemented");
    assert_eq!(r(3), data);
}

/// Section 2.1 CLR: "When written to 1, zeroes" the entries and "Also zeroes mctrstatus"
/// (WRPTR, WRAP and FROZEN, which recording then resumes after); CLR itself reads 0. Entries above the new depth are cleared too (the
/// DEPTH note: "software should set ctrcontrol.CLR ... no transfer state is retained in the
/// now-inaccessible entries").
#[test]
fn clr_014() {
    let mut c = new(Layout::Draft014);
    set_ctl(&mut c, d014::M | 0b0001 << 16);
    for n in 0..40u64 {
        br(&mut c, 0x100 + 4 * n, 0x900, M);
    }
    let st = status(&c);
    set_status(&mut c, st | d014::FROZEN);
    assert_eq!(status(&c), d014::WRAP | d014::FROZEN | 8);
    // Reduce the depth and clear in one write.
    set_ctl(&mut c, d014::M | d014::CLR);
    assert_eq!(ctl(&c), d014::M, "CLR reads 0");
    assert_eq!(status(&c), 0, "CLR zeroes mctrstatus, FROZEN included");
    assert!(c
        .entries()
        .all(|e| !e.valid && e.source == 0 && e.target == 0));
    // Growing the depth again exposes no stale entries.
    set_ctl(&mut c, d014::M | 0b0001 << 16);
    for x in 0..32 {
        assert_eq!(raw(&c, x), (0, 0, 0));
    }
    // No longer frozen: the next transfer is recorded.
    br(&mut c, 0x40, 0x80, M);
    assert_eq!(status(&c), 1);
}

/// 1.0 has no CLR: bit 7 is RASEMU.
#[test]
fn no_clr_in_10() {
    let mut c = new(Layout::Ratified10);
    set_ctl(&mut c, r10::M);
    br(&mut c, 1, 2, M);
    set_ctl(&mut c, r10::M | (1 << 7));
    assert_eq!(c.wrptr(), 1);
    assert!(c.entry(0).unwrap().valid);
}

/// Depth changes: WRPTR keeps only the bits the new depth has; entries beyond the old depth
/// become visible with their physical contents ("unspecified but legal"), entries beyond the
/// new depth read 0.
#[rstest]
fn depth_changes(#[values(Layout::Draft014, Layout::Ratified10)] l: Layout) {
    let b = bits(l);
    let mut c = new(l);
    let set_depth = |c: &mut ctr::Ctr, log: u64| match l {
        Layout::Draft014 => set_ctl(c, b.m | ((1 << log) - 1) << 16),
        Layout::Ratified10 => {
            c.csr_write(r10::SCTRDEPTH, log, M, &ctx())
                .unwrap()
                .unwrap();
        }
    };
    set_ctl(&mut c, b.m);
    set_depth(&mut c, 1); // 32
    assert_eq!(c.depth(), 32);
    for n in 0..20u64 {
        br(&mut c, 0x1000 + 4 * n, 0x2000, M);
    }
    assert_eq!(c.wrptr(), 20);
    set_depth(&mut c, 0); // 16
    assert_eq!(c.depth(), 16);
    assert_eq!(c.wrptr(), 4, "WRPTR bit 4 is read-only 0 at depth 16");
    assert_eq!(status(&c) & 0xFF, 4);
    // Logical 0 is now physical 3 (the 4th record).
    assert_eq!(rec(&c, 0).0, 0x1000 + 4 * 3);
    assert_eq!(raw(&c, 16), (0, 0, 0), "beyond the depth");
    // Growing exposes physical entries 16..31 again: logical x = physical (4 - x - 1) mod 32,
    // so logical 15 is physical 20 (never written) and logical 16 is physical 19 (record 19).
    set_depth(&mut c, 1);
    assert_eq!(c.wrptr(), 4);
    assert_eq!(rec(&c, 15), (0, 0, 0, false));
    assert_eq!(rec(&c, 16), (0x1000 + 4 * 19, 0x2000, 5, true));
}

/// Privilege checks: M-level CSRs only from M; S-level from S and M; vsctrcontrol / vsctrctl
/// (no H extension) and the RV32-only high halves are illegal from every mode; other
/// addresses are not CTR's.
#[rstest]
#[case::m_ctl_014(Layout::Draft014, d014::MCTRCONTROL, [Ok(()), Err(Fault::Privilege), Err(Fault::Privilege)])]
#[case::m_status_014(Layout::Draft014, d014::MCTRSTATUS, [Ok(()), Err(Fault::Privilege), Err(Fault::Privilege)])]
#[case::s_ctl_014(Layout::Draft014, d014::SCTRCONTROL, [Ok(()), Ok(()), Err(Fault::Privilege)])]
#[case::s_status_014(Layout::Draft014, d014::SCTRSTATUS, [Ok(()), Ok(()), Err(Fault::Privilege)])]
#[case::vs_014(Layout::Draft014, d014::VSCTRCONTROL, [Err(Fault::NotImplemented); 3])]
#[case::vsh_014(Layout::Draft014, d014::VSCTRCONTROLH, [Err(Fault::NotImplemented); 3])]
#[case::mh_014(Layout::Draft014, d014::MCTRCONTROLH, [Err(Fault::NotImplemented); 3])]
#[case::sh_014(Layout::Draft014, d014::SCTRCONTROLH, [Err(Fault::NotImplemented); 3])]
#[case::m_ctl_10(Layout::Ratified10, r10::MCTRCTL, [Ok(()), Err(Fault::Privilege), Err(Fault::Privilege)])]
#[case::s_ctl_10(Layout::Ratified10, r10::SCTRCTL, [Ok(()), Ok(()), Err(Fault::Privilege)])]
#[case::s_status_10(Layout::Ratified10, r10::SCTRSTATUS, [Ok(()), Ok(()), Err(Fault::Privilege)])]
#[case::s_depth_10(Layout::Ratified10, r10::SCTRDEPTH, [Ok(()), Ok(()), Err(Fault::Privilege)])]
#[case::vs_10(Layout::Ratified10, r10::VSCTRCTL, [Err(Fault::NotImplemented); 3])]
fn csr_privilege(#[case] l: Layout, #[case] addr: u16, #[case] want: [Result<(), Fault>; 3]) {
    let mut c = new(l);
    for (p, w) in [M, S, U].into_iter().zip(want) {
        assert_eq!(
            c.csr_read(addr, p, &ctx()).map(|r| r.map(|_| ())),
            Some(w),
            "{p:?} read"
        );
        assert_eq!(c.csr_write(addr, 0, p, &ctx()), Some(w), "{p:?} write");
    }
}

/// Addresses of the other layout (and unrelated ones) are not CTR CSRs.
#[rstest]
#[case::draft(Layout::Draft014, [r10::MCTRCTL, r10::SCTRCTL, r10::SCTRSTATUS, r10::SCTRDEPTH, r10::VSCTRCTL, 0x300])]
#[case::ratified(Layout::Ratified10, [d014::MCTRCONTROL, d014::SCTRCONTROL, d014::MCTRSTATUS, d014::SCTRSTATUS, d014::VSCTRCONTROL, 0x180])]
fn foreign_addresses(#[case] l: Layout, #[case] addrs: [u16; 6]) {
    let mut c = new(l);
    for a in addrs {
        assert_eq!(c.csr_read(a, M, &ctx()), None, "{a:#x}");
        assert_eq!(c.csr_write(a, 0, M, &ctx()), None, "{a:#x}");
    }
}

/// Chapter 4 (0.1.4, bit 55) / 1.0 "State Enable Access Control" (bit 54): with mstateen0.CTR
/// clear, S-mode accesses to the S-level CSRs and to sireg* in the CTR range are illegal; M-mode
/// is never gated; recording goes on.
#[rstest]
#[case::draft(Layout::Draft014, d014::MSTATEEN0_CTR, 54)]
#[case::ratified(Layout::Ratified10, r10::MSTATEEN0_CTR, 55)]
fn mstateen_gating(#[case] l: Layout, #[case] bit: u32, #[case] other_bit: u32) {
    let b = bits(l);
    let mut c = new(l);
    assert_eq!(c.mstateen0_ctr_bit(), bit);
    let closed = AccessCtx {
        mstateen0: !(1u64 << bit),
        now_cycles: 0,
    };
    let open = AccessCtx {
        mstateen0: 1u64 << bit,
        now_cycles: 0,
    };
    let wrong_bit = AccessCtx {
        mstateen0: 1u64 << other_bit,
        now_cycles: 0,
    };
    let mut s_csrs = vec![b.sctl, b.sstatus];
    if l == Layout::Ratified10 {
        s_csrs.push(r10::SCTRDEPTH);
    }
    c.csr_write(b.ctl, b.s | b.u, M, &closed).unwrap().unwrap();
    for a in s_csrs {
        assert_eq!(
            c.csr_read(a, S, &closed),
            Some(Err(Fault::Stateen)),
            "{a:#x}"
        );
        assert_eq!(c.csr_write(a, 0, S, &closed), Some(Err(Fault::Stateen)));
        assert_eq!(c.csr_read(a, S, &wrong_bit), Some(Err(Fault::Stateen)));
        assert!(matches!(c.csr_read(a, S, &open), Some(Ok(_))));
        assert!(
            matches!(c.csr_read(a, M, &closed), Some(Ok(_))),
            "M not gated"
        );
        // U is refused on privilege first.
        assert_eq!(c.csr_read(a, U, &open), Some(Err(Fault::Privilege)));
    }
    assert_eq!(
        c.ireg_read(Bank::Supervisor, 0x200, 1, S, &closed),
        Some(Err(Fault::Stateen))
    );
    assert_eq!(
        c.ireg_write(Bank::Supervisor, 0x200, 1, 5, S, &closed),
        Some(Err(Fault::Stateen))
    );
    assert_eq!(
        c.ireg_read(Bank::Supervisor, 0x200, 1, S, &open),
        Some(Ok(0))
    );
    assert_eq!(
        c.ireg_read(Bank::Supervisor, 0x200, 1, U, &open),
        Some(Err(Fault::Privilege))
    );
    // "qualified control transfers executed in privilege modes less privileged than M-mode
    // will continue to implicitly update Entry Registers and mctrstatus".
    br(&mut c, 0x10, 0x20, S);
    c.transfer(0x30, 0x40, Itype::InferableCall, U, false, 0);
    assert_eq!(c.wrptr(), 2);
    assert_eq!(valid_records(&c), vec![(0x30, 0x40, 9), (0x10, 0x20, 5)]);
    assert_eq!(
        Fault::Stateen.exception(),
        arch::Exception::IllegalInstruction
    );
}

/// 0.1.4 chapter 3: entries through miselect/mireg* (M-mode only; mireg is an MRW CSR) and
/// through siselect/sireg* (S and M).
#[test]
fn indirect_banks_014() {
    let mut c = new(Layout::Draft014);
    c.ireg_write(Bank::Machine, 0x200, 2, 0x1234, M, &ctx())
        .unwrap()
        .unwrap();
    assert_eq!(
        c.ireg_read(Bank::Supervisor, 0x200, 2, S, &ctx()),
        Some(Ok(0x1234))
    );
    for p in [S, U] {
        assert_eq!(
            c.ireg_read(Bank::Machine, 0x200, 2, p, &ctx()),
            Some(Err(Fault::Privilege))
        );
    }
}
