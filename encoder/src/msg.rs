//! N-Trace messages and their byte encoding (N-Trace 1.0.0-rc7 chapters 3, 6 and 7).
//!
//! Every message is a sequence of bytes, each with 6 MDO bits (bits 7:2) and 2 MSEO bits
//! (bits 1:0): MSEO `00` for a byte inside a message, `01` for the last byte of a
//! variable-length field, `11` for the last byte of the message; `0xFF` bytes between messages
//! are idle. Fields are packed LSB first: a fixed-length field takes exactly its bits and may
//! share bytes with its neighbours; a variable-length field starts in the bits left in the
//! current byte (or a new byte), sends its value with high-order zeros suppressed (at least one
//! bit) and ends on a byte boundary.
//!
//! The layouts of all messages are in one table, [`LAYOUTS`], as the reference code's
//! `NexRvMsg.h` has them; [`Message`] is the typed form; [`encode`] and [`parse`] convert.

use thiserror::Error;

/// The TCODEs of the instruction trace messages.
pub mod tcode {
    pub const OWNERSHIP: u8 = 2;
    pub const DIRECT_BRANCH: u8 = 3;
    pub const INDIRECT_BRANCH: u8 = 4;
    pub const ERROR: u8 = 8;
    pub const PROG_TRACE_SYNC: u8 = 9;
    pub const DIRECT_BRANCH_SYNC: u8 = 11;
    pub const INDIRECT_BRANCH_SYNC: u8 = 12;
    pub const RESOURCE_FULL: u8 = 27;
    pub const INDIRECT_BRANCH_HIST: u8 = 28;
    pub const INDIRECT_BRANCH_HIST_SYNC: u8 = 29;
    pub const REPEAT_BRANCH: u8 = 30;
    pub const PROG_TRACE_CORRELATION: u8 = 33;
}

/// The trace modes (trTeInstMode, N-Trace table 7): the values this encoder implements.
/// BTM: branch trace messaging.
pub const BTM: u8 = 3;
/// HTM: branch history messaging.
pub const HTM: u8 = 6;

/// B-TYPE, the reason for an indirect flow change (N-Trace table 9, "Details of Common
/// Fields").
pub mod btype {
    /// An indirect control flow change: an uninferable jump, call or return, or an xRET.
    pub const INDIRECT: u8 = 0;
    /// An exception or interrupt (for encoders that cannot tell 2 and 3 apart).
    pub const TRAP: u8 = 1;
    /// An exception (extension).
    pub const EXCEPTION: u8 = 2;
    /// An interrupt (extension).
    pub const INTERRUPT: u8 = 3;
}

/// SYNC, the reason for a synchronization message (N-Trace table 25, "SYNC Field Values").
pub mod sync {
    /// External trace trigger: a marker, the encoder state is not reset.
    pub const EXTERNAL_TRIGGER: u8 = 0;
    /// Exit from reset.
    pub const EXIT_RESET: u8 = 1;
    /// Periodic synchronization (trTeInstSyncMode, trTeInstSyncMax).
    pub const PERIODIC: u8 = 2;
    /// Exit from debug mode: the first sync message of a trace.
    pub const EXIT_DEBUG: u8 = 3;
    /// Sequential instruction counter: I-CNT overflowed (HTM).
    pub const ICNT_OVERFLOW: u8 = 4;
    /// Trace enable: trace restarts after a gap (filters, triggers).
    pub const TRACE_ENABLE: u8 = 5;
    /// Trace event: a marker (watchpoint with action 4), the encoder state is not reset.
    pub const TRACE_EVENT: u8 = 6;
    /// Restart from FIFO overrun: the first sync after lost trace.
    pub const FIFO_OVERRUN: u8 = 7;
    /// Exit from power-down.
    pub const EXIT_POWER_DOWN: u8 = 9;

    /// Whether a sync message with this code resets the encoder (and decoder) state (table
    /// 25's "Encoder Reset" column: all but the markers and the I-CNT overflow).
    pub fn resets(code: u8) -> bool {
        !matches!(code, EXTERNAL_TRIGGER | ICNT_OVERFLOW | TRACE_EVENT)
    }

    /// Whether the flow continues through a sync message with this code: the markers, the
    /// I-CNT overflow and the periodic sync (the others restart the trace).
    pub fn continues(code: u8) -> bool {
        matches!(
            code,
            EXTERNAL_TRIGGER | PERIODIC | ICNT_OVERFLOW | TRACE_EVENT
        )
    }
}

/// RCODE, what a ResourceFull message's RDATA holds (N-Trace table 19, "Resource Full Message
/// Fields").
pub mod rcode {
    /// I-CNT overflowed: RDATA is the I-CNT.
    pub const ICNT_OVERFLOW: u8 = 0;
    /// HIST overflowed: RDATA is the HIST (with its stop bit).
    pub const HIST_OVERFLOW: u8 = 1;
    /// Repeated history (extension, trTeInstEnRepeatedHistory): RDATA is the HIST, HREPEAT its
    /// repetitions.
    pub const HIST_REPEAT: u8 = 2;
}

/// EVCODE, why a ProgTraceCorrelation message was sent (N-Trace table 23, "Program Trace
/// Correlation Message Fields").
pub mod evcode {
    /// Entry into debug mode: the hart stopped (the end of a run).
    pub const ENTER_DEBUG: u8 = 0;
    /// Entry into low-power mode.
    pub const ENTER_LOW_POWER: u8 = 1;
    /// Program trace disabled (the hart still runs).
    pub const TRACE_DISABLED: u8 = 4;
}

/// FORMAT, the sub-field of an Ownership message's PROCESS (N-Trace table 12, "Encoding of
/// PROCESS field").
pub mod process {
    /// A V or PRV change: PROCESS carries V and PRV only.
    pub const FORMAT_PRIVILEGE: u8 = 0;
    /// A sync or scontext change: PROCESS carries V, PRV and scontext.
    pub const FORMAT_SCONTEXT: u8 = 2;
    /// A sync or hcontext change.
    pub const FORMAT_HCONTEXT: u8 = 3;
}

/// ETYPE and ECODE of the Error message (N-Trace table 15, "Error Message Fields").
pub mod error {
    /// ETYPE: queue overrun caused messages to be lost.
    pub const QUEUE_OVERRUN: u8 = 0;
    /// ECODE bit: program trace messages lost.
    pub const PROGRAM_TRACE_LOST: u64 = 0b100;
    /// ECODE bit: ownership trace messages lost.
    pub const OWNERSHIP_TRACE_LOST: u64 = 0b1000;
}

/// The kind of a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Fixed length, this many bits.
    Fixed(u8),
    /// Variable length.
    Var,
    /// Variable-length address (F-ADDR, U-ADDR): subject to trTeInstExtendAddrMSB.
    Addr,
}

/// A message layout: TCODE, name, and the fields after TCODE and SRC, in order. `TSTAMP`, when
/// timestamps are on, follows them; fields whose presence depends on an earlier field
/// (ResourceFull's HREPEAT, ProgTraceCorrelation's HIST) are marked in [`conditional`].
pub struct Layout {
    pub tcode: u8,
    pub name: &'static str,
    pub fields: &'static [(&'static str, Kind)],
}

use Kind::{Addr, Fixed, Var};

/// Every message N-Trace defines for instruction trace.
pub static LAYOUTS: [Layout; 12] = [
    Layout {
        tcode: tcode::OWNERSHIP,
        name: "Ownership",
        fields: &[("PROCESS", Var)],
    },
    Layout {
        tcode: tcode::DIRECT_BRANCH,
        name: "DirectBranch",
        fields: &[("ICNT", Var)],
    },
    Layout {
        tcode: tcode::INDIRECT_BRANCH,
        name: "IndirectBranch",
        fields: &[("BTYPE", Fixed(2)), ("ICNT", Var), ("UADDR", Addr)],
    },
    Layout {
        tcode: tcode::ERROR,
        name: "Error",
        fields: &[("ETYPE", Fixed(4)), ("ECODE", Var)],
    },
    Layout {
        tcode: tcode::PROG_TRACE_SYNC,
        name: "ProgTraceSync",
        fields: &[("SYNC", Fixed(4)), ("ICNT", Var), ("FADDR", Addr)],
    },
    Layout {
        tcode: tcode::DIRECT_BRANCH_SYNC,
        name: "DirectBranchSync",
        fields: &[("SYNC", Fixed(4)), ("ICNT", Var), ("FADDR", Addr)],
    },
    Layout {
        tcode: tcode::INDIRECT_BRANCH_SYNC,
        name: "IndirectBranchSync",
        fields: &[
            ("SYNC", Fixed(4)),
            ("BTYPE", Fixed(2)),
            ("ICNT", Var),
            ("FADDR", Addr),
        ],
    },
    Layout {
        tcode: tcode::RESOURCE_FULL,
        name: "ResourceFull",
        fields: &[("RCODE", Fixed(4)), ("RDATA", Var), ("HREPEAT", Var)],
    },
    Layout {
        tcode: tcode::INDIRECT_BRANCH_HIST,
        name: "IndirectBranchHist",
        fields: &[
            ("BTYPE", Fixed(2)),
            ("ICNT", Var),
            ("UADDR", Addr),
            ("HIST", Var),
        ],
    },
    Layout {
        tcode: tcode::INDIRECT_BRANCH_HIST_SYNC,
        name: "IndirectBranchHistSync",
        fields: &[
            ("SYNC", Fixed(4)),
            ("BTYPE", Fixed(2)),
            ("ICNT", Var),
            ("FADDR", Addr),
            ("HIST", Var),
        ],
    },
    Layout {
        tcode: tcode::REPEAT_BRANCH,
        name: "RepeatBranch",
        fields: &[("BCNT", Var)],
    },
    Layout {
        tcode: tcode::PROG_TRACE_CORRELATION,
        name: "ProgTraceCorrelation",
        fields: &[
            ("EVCODE", Fixed(4)),
            ("CDF", Fixed(2)),
            ("ICNT", Var),
            ("HIST", Var),
        ],
    },
];

/// The layout of a TCODE.
pub fn layout(tcode: u8) -> Option<&'static Layout> {
    match LAYOUT_OF.get(tcode as usize) {
        Some(&i) if i != NO_LAYOUT => Some(&LAYOUTS[i as usize]),
        _ => None,
    }
}

/// [`LAYOUTS`]' index of each TCODE's layout ([`NO_LAYOUT`]: none), so that [`layout`], once
/// per message encoded or parsed, does not search.
static LAYOUT_OF: [u8; 64] = {
    let mut t = [NO_LAYOUT; 64];
    let mut i = 0;
    while i < LAYOUTS.len() {
        t[LAYOUTS[i].tcode as usize] = i as u8;
        i += 1;
    }
    t
};
const NO_LAYOUT: u8 = u8::MAX;

/// Whether field `i` of a layout is present, given the values of the fields before it:
/// ResourceFull's HREPEAT only with RCODE 2, ProgTraceCorrelation's HIST only with CDF 1.
pub fn conditional(tcode: u8, i: usize, prev: &[u64]) -> bool {
    match (tcode, i) {
        (tcode::RESOURCE_FULL, 2) => prev[0] == rcode::HIST_REPEAT as u64,
        (tcode::PROG_TRACE_CORRELATION, 3) => prev[1] == 1,
        _ => true,
    }
}

/// The fields of a message, typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Body {
    Ownership {
        process: u64,
    },
    DirectBranch {
        icnt: u64,
    },
    IndirectBranch {
        btype: u8,
        icnt: u64,
        uaddr: u64,
    },
    Error {
        etype: u8,
        ecode: u64,
    },
    ProgTraceSync {
        sync: u8,
        icnt: u64,
        faddr: u64,
    },
    DirectBranchSync {
        sync: u8,
        icnt: u64,
        faddr: u64,
    },
    IndirectBranchSync {
        sync: u8,
        btype: u8,
        icnt: u64,
        faddr: u64,
    },
    ResourceFull {
        rcode: u8,
        rdata: u64,
        /// Present with RCODE 2.
        hrepeat: Option<u64>,
    },
    IndirectBranchHist {
        btype: u8,
        icnt: u64,
        uaddr: u64,
        hist: u64,
    },
    IndirectBranchHistSync {
        sync: u8,
        btype: u8,
        icnt: u64,
        faddr: u64,
        hist: u64,
    },
    RepeatBranch {
        bcnt: u64,
    },
    ProgTraceCorrelation {
        evcode: u8,
        cdf: u8,
        icnt: u64,
        /// Present with CDF 1.
        hist: Option<u64>,
    },
    /// A vendor-defined or reserved TCODE: its MDO bits after TCODE (and SRC), undecoded,
    /// as variable-length fields (the boundaries MSEO marks).
    Other {
        tcode: u8,
        fields: Vec<u64>,
    },
}

/// Address fields (F-ADDR, U-ADDR) hold the address shifted right by one (bit 0 of a RISC-V
/// pc is always 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// The SRC field (0 when the stream has none).
    pub src: u16,
    pub body: Body,
    pub tstamp: Option<u64>,
}

impl Body {
    pub fn tcode(&self) -> u8 {
        use tcode::*;
        match self {
            Body::Ownership { .. } => OWNERSHIP,
            Body::DirectBranch { .. } => DIRECT_BRANCH,
            Body::IndirectBranch { .. } => INDIRECT_BRANCH,
            Body::Error { .. } => ERROR,
            Body::ProgTraceSync { .. } => PROG_TRACE_SYNC,
            Body::DirectBranchSync { .. } => DIRECT_BRANCH_SYNC,
            Body::IndirectBranchSync { .. } => INDIRECT_BRANCH_SYNC,
            Body::ResourceFull { .. } => RESOURCE_FULL,
            Body::IndirectBranchHist { .. } => INDIRECT_BRANCH_HIST,
            Body::IndirectBranchHistSync { .. } => INDIRECT_BRANCH_HIST_SYNC,
            Body::RepeatBranch { .. } => REPEAT_BRANCH,
            Body::ProgTraceCorrelation { .. } => PROG_TRACE_CORRELATION,
            Body::Other { tcode, .. } => *tcode,
        }
    }

    pub fn name(&self) -> &'static str {
        layout(self.tcode()).map_or("Unknown", |l| l.name)
    }

    /// The SYNC field, for synchronization messages.
    pub fn sync(&self) -> Option<u8> {
        match self {
            Body::ProgTraceSync { sync, .. }
            | Body::DirectBranchSync { sync, .. }
            | Body::IndirectBranchSync { sync, .. }
            | Body::IndirectBranchHistSync { sync, .. } => Some(*sync),
            _ => None,
        }
    }

    /// The field values in layout order (conditional fields only when present).
    pub fn values(&self) -> Vec<u64> {
        match self {
            Body::Other { fields, .. } => fields.clone(),
            b => {
                let (v, n) = b.fixed_values();
                v[..n].to_vec()
            }
        }
    }

    /// [`Body::values`] without allocating: the values in an array, and how many there are
    /// (none for [`Body::Other`]). Encoding a message is the encoder's usual per-message
    /// work.
    fn fixed_values(&self) -> ([u64; 5], usize) {
        let mut v = [0u64; 5];
        let mut put = |vals: &[u64]| {
            v[..vals.len()].copy_from_slice(vals);
            vals.len()
        };
        let n = match self {
            Body::Ownership { process } => put(&[*process]),
            Body::DirectBranch { icnt } => put(&[*icnt]),
            Body::IndirectBranch { btype, icnt, uaddr } => put(&[*btype as u64, *icnt, *uaddr]),
            Body::Error { etype, ecode } => put(&[*etype as u64, *ecode]),
            Body::ProgTraceSync { sync, icnt, faddr } => put(&[*sync as u64, *icnt, *faddr]),
            Body::DirectBranchSync { sync, icnt, faddr } => put(&[*sync as u64, *icnt, *faddr]),
            Body::IndirectBranchSync {
                sync,
                btype,
                icnt,
                faddr,
            } => put(&[*sync as u64, *btype as u64, *icnt, *faddr]),
            Body::ResourceFull {
                rcode,
                rdata,
                hrepeat: Some(h),
            } => put(&[*rcode as u64, *rdata, *h]),
            Body::ResourceFull {
                rcode,
                rdata,
                hrepeat: None,
            } => put(&[*rcode as u64, *rdata]),
            Body::IndirectBranchHist {
                btype,
                icnt,
                uaddr,
                hist,
            } => put(&[*btype as u64, *icnt, *uaddr, *hist]),
            Body::IndirectBranchHistSync {
                sync,
                btype,
                icnt,
                faddr,
                hist,
            } => put(&[*sync as u64, *btype as u64, *icnt, *faddr, *hist]),
            Body::RepeatBranch { bcnt } => put(&[*bcnt]),
            Body::ProgTraceCorrelation {
                evcode,
                cdf,
                icnt,
                hist: Some(h),
            } => put(&[*evcode as u64, *cdf as u64, *icnt, *h]),
            Body::ProgTraceCorrelation {
                evcode,
                cdf,
                icnt,
                hist: None,
            } => put(&[*evcode as u64, *cdf as u64, *icnt]),
            Body::Other { .. } => 0,
        };
        (v, n)
    }

    /// Build a body from field values in layout order.
    fn from_values(tcode: u8, v: &[u64]) -> Body {
        use tcode::*;
        let b = |i: usize| v[i] as u8;
        match tcode {
            OWNERSHIP => Body::Ownership { process: v[0] },
            DIRECT_BRANCH => Body::DirectBranch { icnt: v[0] },
            INDIRECT_BRANCH => Body::IndirectBranch {
                btype: b(0),
                icnt: v[1],
                uaddr: v[2],
            },
            ERROR => Body::Error {
                etype: b(0),
                ecode: v[1],
            },
            PROG_TRACE_SYNC => Body::ProgTraceSync {
                sync: b(0),
                icnt: v[1],
                faddr: v[2],
            },
            DIRECT_BRANCH_SYNC => Body::DirectBranchSync {
                sync: b(0),
                icnt: v[1],
                faddr: v[2],
            },
            INDIRECT_BRANCH_SYNC => Body::IndirectBranchSync {
                sync: b(0),
                btype: b(1),
                icnt: v[2],
                faddr: v[3],
            },
            RESOURCE_FULL => Body::ResourceFull {
                rcode: b(0),
                rdata: v[1],
                hrepeat: v.get(2).copied(),
            },
            INDIRECT_BRANCH_HIST => Body::IndirectBranchHist {
                btype: b(0),
                icnt: v[1],
                uaddr: v[2],
                hist: v[3],
            },
            INDIRECT_BRANCH_HIST_SYNC => Body::IndirectBranchHistSync {
                sync: b(0),
                btype: b(1),
                icnt: v[2],
                faddr: v[3],
                hist: v[4],
            },
            REPEAT_BRANCH => Body::RepeatBranch { bcnt: v[0] },
            PROG_TRACE_CORRELATION => Body::ProgTraceCorrelation {
                evcode: b(0),
                cdf: b(1),
                icnt: v[2],
                hist: v.get(3).copied(),
            },
            _ => Body::Other {
                tcode,
                fields: v.to_vec(),
            },
        }
    }
}

/// What the byte format depends on besides the messages: the trace-control settings that
/// add or shape fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Format {
    /// Width of the SRC field (trTeSrcBits), 0 when there is none (or trTeInhibitSrc).
    pub src_bits: u8,
    /// trTsEnable: every message ends with TSTAMP.
    pub timestamps: bool,
    /// trTeInstExtendAddrMSB: the top MDO bit of an address field is extended to bit 63.
    pub extend_addr_msb: bool,
}

impl Format {
    /// The byte format trace-control settings give (the decoder's and the encoder's view of
    /// `trTeSrcBits`/`trTeInhibitSrc`, `trTsEnable` and `trTeInstExtendAddrMSB`).
    pub fn of(c: &iss::trace_control::TraceControl) -> Format {
        Format {
            src_bits: c.src_bits(),
            timestamps: c.tr_ts_enable,
            extend_addr_msb: c.tr_te_inst_extend_addr_msb,
        }
    }
}

/// Packs fields into MSEO/MDO bytes.
struct Packer {
    out: Vec<u8>,
    /// MDO bits used in the last byte (6: full or closed).
    used: u8,
}

impl Packer {
    fn new(out: Vec<u8>) -> Packer {
        Packer { out, used: 6 }
    }

    fn fixed(&mut self, mut bits: u8, mut v: u64) {
        while bits > 0 {
            if self.used == 6 {
                self.out.push(0);
                self.used = 0;
            }
            let k = bits.min(6 - self.used);
            let chunk = (v & ((1 << k) - 1)) as u8;
            *self.out.last_mut().unwrap_or(&mut 0) |= chunk << (2 + self.used);
            self.used += k;
            bits -= k;
            v >>= k;
        }
    }

    /// A variable-length field: `v`'s significant bits, at least one; `min_bytes` forces that
    /// many whole bytes when starting on a byte boundary (address MSB extension).
    fn var(&mut self, v: u64, min_bytes: usize) {
        let mut v = v;
        let mut wrote = false;
        if self.used < 6 && self.used > 0 {
            let k = 6 - self.used;
            let chunk = (v & ((1 << k) - 1)) as u8;
            if let Some(last) = self.out.last_mut() {
                *last |= chunk << (2 + self.used);
            }
            v >>= k;
            self.used = 6;
            wrote = true;
        }
        let mut n = 0;
        while v != 0 || (!wrote && n == 0) || n < min_bytes {
            self.out.push(((v & 0x3f) as u8) << 2);
            v >>= 6;
            n += 1;
        }
        if let Some(last) = self.out.last_mut() {
            *last |= 0b01;
        }
        self.used = 6;
    }

    /// An address field (F-ADDR, U-ADDR) of 63-bit value `v`: as many whole bytes as
    /// [`addr_bytes`] says (`extend`: with MSB extension, the bits above them are implied).
    fn addr(&mut self, v: u64, extend: bool) {
        let v = v & ((1 << 63) - 1);
        let k = addr_bytes(v, extend);
        let v = if 6 * k < 63 {
            v & ((1 << (6 * k)) - 1)
        } else {
            v
        };
        self.var(v, k)
    }

    fn end(mut self) -> Vec<u8> {
        if let Some(last) = self.out.last_mut() {
            *last |= 0b11;
        }
        self.out
    }
}

/// The fewest whole MDO bytes of an address field that give back `v` (a 63-bit field value)
/// as the decoder reads them, with MSB extension if `extend`.
fn addr_bytes(v: u64, extend: bool) -> usize {
    let v = v & ((1 << 63) - 1);
    for k in 1..=11usize {
        let bits = 6 * k;
        if bits >= 63 {
            // Bits 63.. are zero: no extension can happen, and all bits fit.
            return k;
        }
        let low = v & ((1u64 << bits) - 1);
        let top_bit = (low >> (bits - 1)) & 1;
        let high = v >> bits;
        if extend {
            let want_high = if top_bit == 1 {
                (1u64 << (63 - bits)) - 1
            } else {
                0
            };
            if high == want_high {
                return k;
            }
        } else if high == 0 {
            // Without extension the top MDO bit does not matter.
            return k;
        }
    }
    11
}

/// Encode a message into bytes appended to `out`.
pub fn encode(m: &Message, f: &Format, out: &mut Vec<u8>) {
    let start = out.len();
    let mut p = Packer::new(std::mem::take(out));
    let tcode = m.body.tcode();
    p.fixed(6, tcode as u64);
    if f.src_bits > 0 {
        p.fixed(f.src_bits, m.src as u64);
    }
    if !encode_common(&m.body, f, &mut p) {
        encode_fields(&m.body, tcode, f, &mut p);
    }
    if f.timestamps {
        if let Some(t) = m.tstamp {
            p.var(t, 0);
        }
    }
    *out = p.end();
    debug_assert!(out.len() > start);
}

/// The fields after TCODE (and SRC) of the messages most of a trace is made of, packed as
/// their layouts say, without walking the layout (which costs more than the packing: these
/// are about two thirds of the encoder's messages on code of short blocks, such as
/// coremark's). Returns false, having packed nothing, for every other message, which
/// [`encode_fields`] packs.
#[inline(always)]
fn encode_common(b: &Body, f: &Format, p: &mut Packer) -> bool {
    match *b {
        Body::IndirectBranchHist {
            btype,
            icnt,
            uaddr,
            hist,
        } => {
            p.fixed(2, btype as u64);
            p.var(icnt, 0);
            p.addr(uaddr, f.extend_addr_msb);
            p.var(hist, 0);
        }
        Body::IndirectBranch { btype, icnt, uaddr } => {
            p.fixed(2, btype as u64);
            p.var(icnt, 0);
            p.addr(uaddr, f.extend_addr_msb);
        }
        // HREPEAT is there with RCODE 2 only (`conditional`).
        Body::ResourceFull {
            rcode,
            rdata,
            hrepeat: None,
        } if rcode != rcode::HIST_REPEAT => {
            p.fixed(4, rcode as u64);
            p.var(rdata, 0);
        }
        _ => return false,
    }
    true
}

/// The fields after TCODE (and SRC) of message body `b`, by its layout.
fn encode_fields(b: &Body, tcode: u8, f: &Format, p: &mut Packer) {
    let fixed;
    let other;
    let values: &[u64] = match b {
        Body::Other { fields, .. } => {
            other = fields;
            other
        }
        b => {
            fixed = b.fixed_values();
            &fixed.0[..fixed.1]
        }
    };
    match layout(tcode) {
        Some(l) => {
            let mut vi = 0;
            for (i, (_, kind)) in l.fields.iter().enumerate() {
                if !conditional(tcode, i, values) {
                    continue;
                }
                let v = values[vi];
                vi += 1;
                match kind {
                    Fixed(n) => p.fixed(*n, v),
                    Var => p.var(v, 0),
                    Addr => p.addr(v, f.extend_addr_msb),
                }
            }
        }
        None => {
            for &v in values {
                p.var(v, 0);
            }
        }
    }
}

/// Encode one message into a new vector.
pub fn to_bytes(m: &Message, f: &Format) -> Vec<u8> {
    let mut v = Vec::new();
    encode(m, f, &mut v);
    v
}

/// Why a message could not be parsed.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ParseError {
    #[error("reserved MSEO value 10")]
    ReservedMseo,
    #[error("the message ends before its {field} field")]
    Truncated { field: &'static str },
    #[error("field {field} is longer than 64 bits")]
    FieldTooLong { field: &'static str },
    #[error("TCODE {0} is not an N-Trace instruction trace message")]
    UnknownTcode(u8),
    #[error("{0} extra variable-length field(s) after the message's last field")]
    ExtraFields(usize),
    #[error("field {field} ends where a fixed-length field continues")]
    Misplaced { field: &'static str },
    #[error("the message is empty")]
    Empty,
}

/// Unpacks fields from one message's bytes.
struct Unpacker<'a> {
    b: &'a [u8],
    /// Next byte, and next MDO bit in it.
    i: usize,
    bit: u8,
}

impl<'a> Unpacker<'a> {
    fn mseo(&self, i: usize) -> u8 {
        self.b[i] & 3
    }

    fn fixed(&mut self, n: u8, field: &'static str) -> Result<u64, ParseError> {
        let mut v = 0u64;
        let mut got = 0u8;
        while got < n {
            if self.i >= self.b.len() {
                return Err(ParseError::Truncated { field });
            }
            let k = (n - got).min(6 - self.bit);
            let mdo = (self.b[self.i] >> 2) as u64;
            v |= ((mdo >> self.bit) & ((1 << k) - 1)) << got;
            got += k;
            self.bit += k;
            if self.bit == 6 {
                // A fixed field may not run past the end of a variable-length field's byte.
                if self.mseo(self.i) != 0 && got < n {
                    return Err(ParseError::Misplaced { field });
                }
                self.i += 1;
                self.bit = 0;
            }
        }
        Ok(v)
    }

    /// A variable-length field: the bits left in this byte and whole bytes up to the end of
    /// the field (MSEO 01 or 11). Returns the value and the number of bits read.
    fn var(&mut self, field: &'static str) -> Result<(u64, u32), ParseError> {
        if self.i >= self.b.len() {
            return Err(ParseError::Truncated { field });
        }
        let mut v = 0u64;
        let mut nbits = 0u32;
        loop {
            let mdo = (self.b[self.i] >> 2) as u64;
            let k = 6 - self.bit as u32;
            let chunk = mdo >> self.bit;
            if nbits >= 64 && chunk != 0
                || nbits < 64 && nbits + k > 64 && chunk >> (64 - nbits) != 0
            {
                return Err(ParseError::FieldTooLong { field });
            }
            if nbits < 64 {
                v |= chunk << nbits;
            }
            nbits += k;
            let end = self.mseo(self.i) != 0;
            self.i += 1;
            self.bit = 0;
            if end {
                return Ok((v, nbits));
            }
            if self.i >= self.b.len() {
                return Err(ParseError::Truncated { field });
            }
        }
    }

    fn at_end(&self) -> bool {
        self.i >= self.b.len()
    }
}

/// Parse one message (its bytes from the first to the one with MSEO 11).
pub fn parse(bytes: &[u8], f: &Format) -> Result<Message, ParseError> {
    if bytes.is_empty() {
        return Err(ParseError::Empty);
    }
    if bytes.iter().any(|b| b & 3 == 2) {
        return Err(ParseError::ReservedMseo);
    }
    let mut u = Unpacker {
        b: bytes,
        i: 0,
        bit: 0,
    };
    let tcode = u.fixed(6, "TCODE")? as u8;
    let src = if f.src_bits > 0 {
        u.fixed(f.src_bits, "SRC")? as u16
    } else {
        0
    };
    let mut values = Vec::with_capacity(6);
    match layout(tcode) {
        Some(l) => {
            for (i, (name, kind)) in l.fields.iter().enumerate() {
                if !conditional(tcode, i, &values) {
                    continue;
                }
                let v = match kind {
                    Fixed(n) => u.fixed(*n, name)?,
                    Var => u.var(name)?.0,
                    Addr => {
                        let (v, nbits) = u.var(name)?;
                        extend_addr(v, nbits, f.extend_addr_msb)
                    }
                };
                values.push(v);
            }
        }
        None => {
            // Unknown TCODE: keep its variable-length fields as they are.
            while !u.at_end() {
                values.push(u.var("DATA")?.0);
            }
            return Ok(Message {
                src,
                body: Body::from_values(tcode, &values),
                tstamp: None,
            });
        }
    }
    let tstamp = if f.timestamps && !u.at_end() {
        Some(u.var("TSTAMP")?.0)
    } else {
        None
    };
    if !u.at_end() {
        let mut extra = 0;
        while !u.at_end() {
            u.var("extra")?;
            extra += 1;
        }
        return Err(ParseError::ExtraFields(extra));
    }
    Ok(Message {
        src,
        body: Body::from_values(tcode, &values),
        tstamp,
    })
}

/// The 63-bit value of an address field read as `nbits` bits, with MSB extension if on.
pub fn extend_addr(v: u64, nbits: u32, extend: bool) -> u64 {
    let mask63 = (1u64 << 63) - 1;
    if extend && nbits < 63 && (v >> (nbits - 1)) & 1 == 1 {
        (v | (u64::MAX << nbits)) & mask63
    } else {
        v & mask63
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The named codes are the specification's values (tables 9, 12, 15, 19, 23, 25), and
    /// SYNC's "Encoder Reset" column is table 25's.
    #[test]
    fn named_codes_are_the_spec_values() {
        assert_eq!((BTM, HTM), (3, 6));
        assert_eq!(
            [
                btype::INDIRECT,
                btype::TRAP,
                btype::EXCEPTION,
                btype::INTERRUPT
            ],
            [0, 1, 2, 3]
        );
        assert_eq!(
            [
                rcode::ICNT_OVERFLOW,
                rcode::HIST_OVERFLOW,
                rcode::HIST_REPEAT
            ],
            [0, 1, 2]
        );
        assert_eq!(
            [
                evcode::ENTER_DEBUG,
                evcode::ENTER_LOW_POWER,
                evcode::TRACE_DISABLED
            ],
            [0, 1, 4]
        );
        assert_eq!(
            [
                sync::EXTERNAL_TRIGGER,
                sync::EXIT_RESET,
                sync::PERIODIC,
                sync::EXIT_DEBUG,
                sync::ICNT_OVERFLOW,
                sync::TRACE_ENABLE,
                sync::TRACE_EVENT,
                sync::FIFO_OVERRUN,
                sync::EXIT_POWER_DOWN
            ],
            [0, 1, 2, 3, 4, 5, 6, 7, 9]
        );
        let resets: Vec<u8> = (0..16).filter(|&c| sync::resets(c)).collect();
        assert_eq!(resets, [1, 2, 3, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
        let continues: Vec<u8> = (0..16).filter(|&c| sync::continues(c)).collect();
        assert_eq!(continues, [0, 2, 4, 6]);
        assert_eq!(
            [
                process::FORMAT_PRIVILEGE,
                process::FORMAT_SCONTEXT,
                process::FORMAT_HCONTEXT
            ],
            [0, 2, 3]
        );
        assert_eq!(
            (
                error::QUEUE_OVERRUN,
                error::PROGRAM_TRACE_LOST,
                error::OWNERSHIP_TRACE_LOST
            ),
            (0, 0b100, 0b1000)
        );
    }

    fn plain() -> Format {
        Format::default()
    }

    #[test]
    fn spec_table_6_example() {
        // IndirectBranchHist: BTYPE 0, ICNT 0x7D, UADDR 0x7, HIST 0xFFE (N-Trace table 6).
        let m = Message {
            src: 0,
            body: Body::IndirectBranchHist {
                btype: btype::INDIRECT,
                icnt: 0x7d,
                uaddr: 0x7,
                hist: 0xffe,
            },
            tstamp: None,
        };
        let b = to_bytes(&m, &plain());
        assert_eq!(b, vec![0x70, 0xd0, 0x1d, 0x1d, 0xf8, 0xff]);
        assert_eq!(parse(&b, &plain()), Ok(m));
    }

    #[test]
    fn reference_dump_prog_trace_sync() {
        // From the reference code's example dump: SYNC=1, ICNT=0 (2 bits), FADDR=0x10008291.
        let b = [0x24, 0x05, 0x44, 0x28, 0x20, 0x00, 0x43];
        let m = parse(&b, &plain()).unwrap();
        assert_eq!(
            m.body,
            Body::ProgTraceSync {
                sync: sync::EXIT_RESET,
                icnt: 0,
                faddr: 0x1000_8291
            }
        );
        assert_eq!(to_bytes(&m, &plain()), b);
    }

    #[test]
    fn address_msb_extension_examples() {
        // Spec 8.2.1: MDO 111111 x4, 011111, 111100 -> field 0xF_1FFF_FFFF, extended.
        let b = [0xfc, 0xfc, 0xfc, 0xfc, 0x7c, 0xf1];
        let mut u = Unpacker {
            b: &b,
            i: 0,
            bit: 0,
        };
        let (v, n) = u.var("FADDR").unwrap();
        assert_eq!(v, 0xf_1fff_ffff);
        assert_eq!(extend_addr(v, n, true) << 1, 0xffff_fffe_3fff_fffe);
        assert_eq!(extend_addr(v, n, false) << 1, 0x1e_3fff_fffe);
        // Encoding picks the shortest form that extends back to the value.
        assert_eq!(addr_bytes(0x7fff_ffff_1fff_ffff, true), 6);
        assert_eq!(addr_bytes(0x7fff_ffff_1fff_ffff, false), 11);
        // A top MDO bit of 1 that must not be extended needs an extra zero byte.
        assert_eq!(addr_bytes(0x20, true), 2);
        assert_eq!(addr_bytes(0x20, false), 1);
    }

    proptest::proptest! {
        /// `addr_bytes` is the fewest bytes whose field `extend_addr` reads back as the value,
        /// for values of every length, positive and negative as 63-bit numbers.
        #[test]
        fn addr_bytes_is_the_fewest_that_read_back(
            x in proptest::prelude::any::<u64>(),
            shift in 0u32..64,
            negative in proptest::prelude::any::<bool>(),
            extend in proptest::prelude::any::<bool>(),
        ) {
            let mask63 = (1u64 << 63) - 1;
            let v = if negative { !(x >> shift) } else { x >> shift } & mask63;
            let fits = |k: usize| {
                let bits = 6 * k as u32;
                bits >= 63 || extend_addr(v & ((1 << bits) - 1), bits, extend) == v
            };
            let k = addr_bytes(v, extend);
            proptest::prop_assert!((1..=11).contains(&k));
            proptest::prop_assert!(fits(k), "{v:#x} in {k} bytes");
            proptest::prop_assert!(k == 1 || !fits(k - 1), "{v:#x} fits {} bytes", k - 1);
        }

        /// The common messages' own packing (`encode_common`) gives the bytes their layouts'
        /// walk (`encode_fields`) gives, and they parse back, for any values (of every
        /// length), SRC width, timestamps and MSB extension.
        #[test]
        fn common_messages_pack_as_their_layouts_say(
            kind in 0u8..3,
            btype in 0u8..4,
            rcode in 0u8..16,
            (x, y, z, t) in proptest::prelude::any::<(u64, u64, u64, u64)>(),
            shifts in proptest::prelude::any::<[u8; 4]>(),
            src_bits in 0u8..=12,
            src in proptest::prelude::any::<u16>(),
            timestamps in proptest::prelude::any::<bool>(),
            extend_addr_msb in proptest::prelude::any::<bool>(),
        ) {
            // Values of every length: each drawn value shifted right by 0 to 63.
            let v = [x, y, z, t];
            let [x, y, z, t] = [0, 1, 2, 3].map(|i| v[i] >> (shifts[i] % 64));
            let body = match kind {
                0 => Body::IndirectBranchHist { btype, icnt: x, uaddr: y & ((1 << 63) - 1), hist: z },
                1 => Body::IndirectBranch { btype, icnt: x, uaddr: y & ((1 << 63) - 1) },
                _ => Body::ResourceFull {
                    rcode: if rcode == rcode::HIST_REPEAT { 0 } else { rcode },
                    rdata: x,
                    hrepeat: None,
                },
            };
            let f = Format { src_bits, timestamps, extend_addr_msb };
            let src = if src_bits == 0 { 0 } else { src & ((1 << src_bits) - 1) };
            let m = Message { src, body, tstamp: timestamps.then_some(t) };
            let fast = to_bytes(&m, &f);
            let mut p = Packer::new(Vec::new());
            p.fixed(6, m.body.tcode() as u64);
            if src_bits > 0 {
                p.fixed(src_bits, src as u64);
            }
            encode_fields(&m.body, m.body.tcode(), &f, &mut p);
            if let Some(t) = m.tstamp {
                p.var(t, 0);
            }
            proptest::prop_assert_eq!(&fast, &p.end());
            proptest::prop_assert_eq!(parse(&fast, &f), Ok(m));
        }
    }

    #[test]
    fn round_trip_all_layouts_with_src_and_timestamps() {
        let f = Format {
            src_bits: 5,
            timestamps: true,
            extend_addr_msb: true,
        };
        let bodies = vec![
            Body::Ownership { process: 0x3b2 },
            Body::DirectBranch { icnt: 0 },
            Body::IndirectBranch {
                btype: btype::INTERRUPT,
                icnt: 123,
                uaddr: (0xffff_ffff_8000_31f4u64 >> 1),
            },
            Body::Error { etype: 0, ecode: 0 },
            Body::ProgTraceSync {
                sync: sync::EXIT_DEBUG,
                icnt: 0,
                faddr: 0x4000_0000,
            },
            Body::DirectBranchSync {
                sync: sync::PERIODIC,
                icnt: 77,
                faddr: 0x4000_0010,
            },
            Body::IndirectBranchSync {
                sync: sync::FIFO_OVERRUN,
                btype: btype::EXCEPTION,
                icnt: 1,
                faddr: 1,
            },
            Body::ResourceFull {
                rcode: rcode::ICNT_OVERFLOW,
                rdata: 1 << 20,
                hrepeat: None,
            },
            Body::ResourceFull {
                rcode: rcode::HIST_REPEAT,
                rdata: 0x5555_5555,
                hrepeat: Some(10),
            },
            Body::IndirectBranchHist {
                btype: btype::INDIRECT,
                icnt: 9,
                uaddr: 0,
                hist: 1,
            },
            Body::IndirectBranchHistSync {
                sync: sync::ICNT_OVERFLOW,
                btype: btype::INDIRECT,
                icnt: 8,
                faddr: 0x88,
                hist: 2,
            },
            Body::RepeatBranch { bcnt: 1000 },
            Body::ProgTraceCorrelation {
                evcode: evcode::ENTER_DEBUG,
                cdf: 1,
                icnt: 6,
                hist: Some(1),
            },
            Body::ProgTraceCorrelation {
                evcode: evcode::TRACE_DISABLED,
                cdf: 0,
                icnt: 0,
                hist: None,
            },
        ];
        for (i, body) in bodies.into_iter().enumerate() {
            let m = Message {
                src: (i % 32) as u16,
                body,
                tstamp: Some(i as u64 * 1000),
            };
            let b = to_bytes(&m, &f);
            assert_eq!(b.last().unwrap() & 3, 3);
            assert!(b[..b.len() - 1].iter().all(|x| x & 3 != 3));
            assert_eq!(parse(&b, &f).as_ref(), Ok(&m), "{m:?} -> {b:02x?}");
        }
    }

    #[test]
    fn parse_errors() {
        assert_eq!(parse(&[0x02], &plain()), Err(ParseError::ReservedMseo));
        // IndirectBranch cut after ICNT.
        let full = to_bytes(
            &Message {
                src: 0,
                body: Body::IndirectBranch {
                    btype: btype::INDIRECT,
                    icnt: 5,
                    uaddr: 9,
                },
                tstamp: None,
            },
            &plain(),
        );
        let mut cut = full[..2].to_vec();
        *cut.last_mut().unwrap() |= 3;
        assert_eq!(
            parse(&cut, &plain()),
            Err(ParseError::Truncated { field: "UADDR" })
        );
        // A run of zero bytes as one enormous variable-length field.
        let mut long = vec![0x0c]; // DirectBranch
        long.extend([0xfc; 12]);
        long.push(0xff);
        assert_eq!(
            parse(&long, &plain()),
            Err(ParseError::FieldTooLong { field: "ICNT" })
        );
        // Unknown TCODEs are kept raw.
        let m = parse(&[(60 << 2), 0x17], &plain()).unwrap();
        assert_eq!(
            m.body,
            Body::Other {
                tcode: 60,
                fields: vec![5]
            }
        );
    }
}
