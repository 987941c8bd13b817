//! The cache, TLB and branch-predictor models and the cycle cost model on crafted access
//! patterns, with hits, misses and cycles computed by hand in the comments.

use arch::{Itype, Priv};
use pmu::{
    AccessKind, BpConfig, CacheConfig, CacheGeometry, Class, Penalties, Pmu, PmuConfig, TlbConfig,
    TlbGeometry,
};

const PEN: Penalties = Penalties {
    l1_miss: 10,
    ll_miss: 100,
    tlb_miss: 30,
    mispredict: 5,
};

fn geom(size: u64, ways: u32, line: u32) -> CacheGeometry {
    CacheGeometry { size, ways, line }
}

fn caches(ll: Option<CacheGeometry>) -> Pmu {
    Pmu::new(PmuConfig {
        caches: Some(CacheConfig {
            // 2 sets x 2 ways of 64-byte lines.
            l1i: geom(256, 2, 64),
            l1d: geom(256, 2, 64),
            ll,
        }),
        penalties: PEN,
        ..PmuConfig::default()
    })
    .unwrap()
}

fn t(p: &Pmu, prv: Priv, c: Class) -> u64 {
    p.totals[pmu::prv_index(prv)][c as usize]
}

const S: Priv = Priv::S;

#[test]
fn l1d_lru_pattern_without_last_level() {
    let mut p = caches(None);
    // Lines: 0x000 -> line 0 (set 0), 0x080 -> line 2 (set 0), 0x100 -> line 4 (set 0).
    //   0x000 miss [0]; 0x008 hit; 0x080 miss [2 0]; 0x000 hit [0 2];
    //   0x100 miss, evicts 2 [4 0]; 0x080 miss, evicts 0 [2 4]; 0x000 miss, evicts 4 [0 2].
    for a in [0x000u64, 0x008, 0x080, 0x000, 0x100, 0x080, 0x000] {
        p.data_access(S, a, a, AccessKind::Read, 8, None);
    }
    assert_eq!(t(&p, S, Class::L1dReadAccess), 7);
    assert_eq!(t(&p, S, Class::L1dReadMiss), 5);
    // No LL: every miss pays l1_miss + ll_miss.
    assert_eq!(t(&p, S, Class::StallBackend), 5 * 110);
    // Stores and AMOs are writes; line 1 (set 1) is cold, then hot.
    p.data_access(S, 0x40, 0x40, AccessKind::Write, 4, None);
    p.data_access(S, 0x44, 0x44, AccessKind::Atomic, 4, None);
    assert_eq!(t(&p, S, Class::L1dWriteAccess), 2);
    assert_eq!(t(&p, S, Class::L1dWriteMiss), 1);
    // A misaligned access across lines 0 and 1: two accesses, both hits.
    p.data_access(S, 0x3c, 0x3c, AccessKind::Read, 8, None);
    assert_eq!(t(&p, S, Class::L1dReadAccess), 9);
    assert_eq!(t(&p, S, Class::L1dReadMiss), 5);
    // cycles = instructions + stalls.
    p.retire(S, 10);
    assert_eq!(p.counter(pmu::MCYCLE_IDX), 10 + 6 * 110);
}

#[test]
fn last_level_sees_l1_misses() {
    // LL: 1 set x 2 ways of 64-byte lines: holds two lines.
    let mut p = caches(Some(geom(128, 2, 64)));
    // Lines 0, 2, 4 all fall in L1D set 0; the LL is one set of two ways. Most recent first:
    //   read 0: L1D miss [0],     LL miss [0]
    //   read 2: L1D miss [2 0],   LL miss [2 0]
    //   read 4: L1D miss [4 2],   LL miss [4 2]
    //   read 0: L1D miss [0 4],   LL miss [0 4]
    for a in [0x000u64, 0x080, 0x100, 0x000] {
        p.data_access(S, a, a, AccessKind::Read, 4, None);
    }
    assert_eq!(t(&p, S, Class::L1dReadMiss), 4);
    assert_eq!(t(&p, S, Class::LlReadAccess), 4);
    assert_eq!(t(&p, S, Class::LlReadMiss), 4);
    //   write 6: L1D miss [6 0],  LL write miss [6 0]
    p.data_access(S, 0x180, 0x180, AccessKind::Write, 4, None);
    assert_eq!(t(&p, S, Class::LlWriteAccess), 1);
    assert_eq!(t(&p, S, Class::LlWriteMiss), 1);
    //   read 0: L1D hit [0 6],    LL untouched [6 0]
    p.data_access(S, 0x000, 0x000, AccessKind::Read, 4, None);
    assert_eq!(t(&p, S, Class::L1dReadMiss), 4);
    //   read 2: L1D miss [2 0],   LL miss [2 6]
    //   fetch 6: L1I miss [6],    LL hit [6 2]
    p.data_access(S, 0x080, 0x080, AccessKind::Read, 4, None);
    p.fetch(S, 0x180, 0x180, 4, None);
    assert_eq!(t(&p, S, Class::L1iReadMiss), 1);
    assert_eq!(t(&p, S, Class::LlReadAccess), 6);
    assert_eq!(t(&p, S, Class::LlReadMiss), 5);
    // Stalls: backend 6 L1D misses (10 each) + 6 LL misses on data (100 each); frontend
    // one L1I miss that hit the LL.
    assert_eq!(t(&p, S, Class::StallBackend), 6 * 10 + 6 * 100);
    assert_eq!(t(&p, S, Class::StallFrontend), 10);
}

#[test]
fn fetch_accesses_the_l1i_when_it_moves_to_another_line() {
    let mut p = caches(None);
    let base = 0x8000_1000u64;
    p.fetch(S, 0x1000, base, 16, None); // line A: access, miss
    p.fetch(S, 0x1010, base + 0x10, 16, None); // still A: nothing
    p.fetch(S, 0x1030, base + 0x30, 32, None); // A (held), then B: access, miss
    p.fetch(S, 0x1000, base, 8, None); // back to A: access, hit
    p.fetch(S, 0x1002, base + 2, 2, None); // still A
    assert_eq!(t(&p, S, Class::L1iReadAccess), 3);
    assert_eq!(t(&p, S, Class::L1iReadMiss), 2);
    // fence.i empties the L1I.
    p.fence_i();
    p.fetch(S, 0x1000, base, 4, None);
    assert_eq!(t(&p, S, Class::L1iReadMiss), 3);
    assert_eq!(t(&p, S, Class::StallFrontend), 3 * 110);
    // How the runs are split does not matter: the same bytes in one run give the same counts.
    let mut q = caches(None);
    q.fetch(S, 0x1000, base, 0x40, None);
    let mut r = caches(None);
    for off in (0..0x40).step_by(2) {
        r.fetch(S, 0x1000 + off, base + off, 2, None);
    }
    assert_eq!(q.totals, r.totals);
}

fn tlbs() -> Pmu {
    Pmu::new(PmuConfig {
        tlb: Some(TlbConfig {
            itlb: TlbGeometry {
                entries: 2,
                ways: 2,
            },
            dtlb: TlbGeometry {
                entries: 2,
                ways: 2,
            },
        }),
        penalties: PEN,
        ..PmuConfig::default()
    })
    .unwrap()
}

#[test]
fn dtlb_lru_asids_and_sfence() {
    let mut p = tlbs();
    let u = Priv::U;
    // Pages 1, 2, 1, 3, 2 under ASID 7, 2 entries: miss, miss, hit, miss (evicts 2), miss.
    for page in [1u64, 2, 1, 3, 2] {
        p.data_access(u, page << 12, 0x8000_0000, AccessKind::Read, 8, Some(7));
    }
    assert_eq!(t(&p, u, Class::DtlbReadAccess), 5);
    assert_eq!(t(&p, u, Class::DtlbReadMiss), 4);
    // Held: [2 3]. Another ASID misses; untranslated accesses do not look up.
    p.data_access(u, 2 << 12, 0, AccessKind::Write, 8, Some(8));
    p.data_access(u, 3 << 12, 0, AccessKind::Write, 8, None);
    assert_eq!(t(&p, u, Class::DtlbWriteAccess), 1);
    assert_eq!(t(&p, u, Class::DtlbWriteMiss), 1);
    // Held: [2/8 2/7]. sfence.vma x0, asid 8 drops 2/8; page 2 under 7 still hits.
    p.tlb_flush(Some(8), None);
    p.data_access(u, 2 << 12, 0, AccessKind::Read, 8, Some(7));
    assert_eq!(t(&p, u, Class::DtlbReadMiss), 4);
    p.tlb_flush(None, Some(2 << 12));
    p.data_access(u, 2 << 12, 0, AccessKind::Read, 8, Some(7));
    assert_eq!(t(&p, u, Class::DtlbReadMiss), 5);
    assert_eq!(t(&p, u, Class::StallBackend), 6 * 30);
}

#[test]
fn itlb_looks_up_when_fetch_moves_to_another_page() {
    let mut p = tlbs();
    p.fetch(S, 0x1000, 0x8000_1000, 4, Some(1)); // page 1: access, miss
    p.fetch(S, 0x1004, 0x8000_1004, 64, Some(1)); // same page
    p.fetch(S, 0x2000, 0x8000_5000, 4, Some(1)); // page 2: access, miss
    p.fetch(S, 0x1100, 0x8000_1100, 4, Some(1)); // page 1: access, hit
    assert_eq!(t(&p, S, Class::ItlbReadAccess), 3);
    assert_eq!(t(&p, S, Class::ItlbReadMiss), 2);
    // sfence.vma forgets the held page too.
    p.tlb_flush(None, None);
    p.fetch(S, 0x1104, 0x8000_1104, 4, Some(1));
    assert_eq!(t(&p, S, Class::ItlbReadAccess), 4);
    assert_eq!(t(&p, S, Class::ItlbReadMiss), 3);
    // M-mode / bare: no lookups.
    p.fetch(Priv::M, 0x3000, 0x3000, 4, None);
    assert_eq!(t(&p, Priv::M, Class::ItlbReadAccess), 0);
}

#[test]
fn branch_predictor_loops_calls_and_returns() {
    let mut p = Pmu::new(PmuConfig {
        bp: Some(BpConfig {
            table_bits: 6,
            history_bits: 0,
            btb_entries: 16,
            ras_depth: 4,
        }),
        penalties: PEN,
        ..PmuConfig::default()
    })
    .unwrap();
    // A loop branch taken 9 times then not taken, run 3 times. Bimodal counter from 1:
    // run 1: T miss (1->2), 8 hits (->3), N miss (->2); runs 2, 3: 9 hits, N miss.
    let mut misses = 0;
    for _ in 0..3 {
        for i in 0..10 {
            let it = if i < 9 {
                Itype::TakenBranch
            } else {
                Itype::NontakenBranch
            };
            misses += p.branch(S, 0x100, 4, 0x80, it) as u64;
        }
    }
    assert_eq!(misses, 4);
    assert_eq!(t(&p, S, Class::CondMispredicts), 4);
    // call f; f calls g; g returns; f returns: all predicted. A return with an empty RAS
    // and an indirect jump seen for the first time are not.
    assert!(!p.branch(S, 0x200, 4, 0x1000, Itype::InferableCall));
    assert!(p.branch(S, 0x1000, 2, 0x2000, Itype::UninferableCall)); // BTB cold
    assert!(!p.branch(S, 0x2010, 2, 0x1002, Itype::Return));
    assert!(!p.branch(S, 0x1010, 2, 0x204, Itype::Return));
    assert!(p.branch(S, 0x300, 2, 0x204, Itype::Return));
    assert!(!p.branch(S, 0x200, 4, 0x1000, Itype::InferableCall));
    assert!(!p.branch(S, 0x1000, 2, 0x2000, Itype::UninferableCall)); // BTB warm
    assert_eq!(t(&p, S, Class::TargetMispredicts), 2);
    assert_eq!(t(&p, S, Class::StallFrontend), 6 * 5);
    // BRANCH_MISSES on an hpm counter sees them all (written before: rebased at 0).
    p.write_mhpmevent(3, 0x6);
    assert!(p.branch(S, 0x400, 4, 0x500, Itype::OtherUninferableJump));
    assert_eq!(p.counter(3), 1);
}

#[test]
fn models_off_cost_nothing_and_count_nothing() {
    let mut p = Pmu::new(PmuConfig::default()).unwrap();
    assert!(!p.models_on());
    p.fetch(S, 0, 0, 64, Some(1));
    p.data_access(S, 0, 0, AccessKind::Write, 8, Some(1));
    assert!(!p.branch(S, 0, 4, 8, Itype::TakenBranch));
    p.tlb_flush(None, None);
    p.fence_i();
    assert!(p.totals.iter().all(|row| row.iter().all(|&v| v == 0)));
    // Their events cannot be selected.
    p.write_mhpmevent(3, 0x10001);
    assert_eq!(p.mhpmevent(3), 0);
}

#[test]
fn events_count_in_the_privilege_of_the_instruction() {
    let mut p = caches(None);
    // L1D read misses, not in U-mode.
    p.write_mhpmevent(3, pmu::event::MHPMEVENT_UINH | 0x10001);
    p.data_access(Priv::U, 0x000, 0x000, AccessKind::Read, 4, None);
    p.data_access(Priv::S, 0x040, 0x040, AccessKind::Read, 4, None);
    p.data_access(Priv::M, 0x080, 0x080, AccessKind::Read, 4, None);
    assert_eq!(p.counter(3), 2);
    // mcycle counts the stalls of every privilege.
    assert_eq!(p.counter(pmu::MCYCLE_IDX), 3 * 110);
}
