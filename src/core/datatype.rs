//! Datatypes: the predefined ones and the derived ones of MPI 4.1 §5.1.
//!
//! A datatype's typemap is kept as a small tree (`Map`) that is flattened on demand into byte
//! blocks, so a constructor's memory is bounded by its array arguments, never by its counts
//! (`MPI_Type_contiguous(1 << 30, MPI_INT)` is one node). Bounds follow the standard's marker
//! rules (§5.1.7): a type made by `MPI_Type_create_resized` (or a subarray) has explicit, "sticky"
//! lower and upper bounds that every type built from it inherits; otherwise the bounds come from
//! the data, and a struct's extent is padded to the alignment of its most aligned basic type
//! (the ε of §5.1.6), as the C compiler lays out the struct the user describes.
//!
//! Caching: `type_dup` copies the attributes through the copy callbacks, `type_free` deletes them
//! (a failing delete callback leaves the type valid), and constructed types start with none.

use crate::consts::*;
use crate::core::attr_table::AttrTable;
use crate::core::comm::truncate_name;
use crate::core::error::{BadHandleReason, Error, Result};
use crate::core::handle::{kind_of, Handle, HandleKind, Slab};
use crate::core::runtime::Runtime;
use crate::core::state::State;
use crate::core::ObjRef;
use std::sync::Arc;

/// The size of the Fortran INTEGER and LOGICAL (`MPI_INTEGER`, `MPI_LOGICAL`, each half of
/// `MPI_2INTEGER`): 4 bytes, or 8 with the `fortran-integer-8` feature (programs compiled with
/// -fdefault-integer-8). REAL and DOUBLE PRECISION do not change with that flag.
const FINT: i64 = std::mem::size_of::<crate::core::convert::FortranInteger>() as i64;

/// The typemap of one element, as a tree whose leaves are runs of bytes.
#[derive(Debug)]
enum Map {
    /// `len` contiguous bytes at displacement 0.
    Bytes(i64),
    /// `count` copies of `child`, the i-th at displacement `i * stride`.
    Repeat {
        count: i64,
        stride: i64,
        child: Arc<Map>,
    },
    /// Children at displacements, in typemap order.
    Seq(Vec<(i64, Arc<Map>)>),
}

impl Map {
    fn empty() -> Arc<Map> {
        Arc::new(Map::Seq(Vec::new()))
    }

    /// `count` copies of `child` at `stride`, collapsed to one run when they touch.
    fn repeat(count: i64, stride: i64, child: &Arc<Map>) -> Arc<Map> {
        match (count, &**child) {
            (1, _) => child.clone(),
            (_, Map::Bytes(len)) if *len == stride => Arc::new(Map::Bytes(len * count)),
            _ => Arc::new(Map::Repeat {
                count,
                stride,
                child: child.clone(),
            }),
        }
    }

    /// Calls `f(offset, len)` for every run of bytes, in typemap order.
    fn visit(&self, base: i64, f: &mut impl FnMut(i64, i64)) {
        match self {
            Map::Bytes(len) => {
                if *len > 0 {
                    f(base, *len)
                }
            }
            Map::Repeat {
                count,
                stride,
                child,
            } => {
                for i in 0..*count {
                    child.visit(base.wrapping_add(i.wrapping_mul(*stride)), f);
                }
            }
            Map::Seq(parts) => {
                for (disp, child) in parts {
                    child.visit(base.wrapping_add(*disp), f);
                }
            }
        }
    }
}

/// Everything about a datatype's shape; shared (cheaply) by duplicates and resized types.
#[derive(Debug, Clone)]
pub struct Layout {
    /// Bytes of data in one element (`MPI_Type_size`).
    pub size: i64,
    pub lb: i64,
    pub ub: i64,
    pub true_lb: i64,
    pub true_ub: i64,
    /// The largest alignment of a basic type in the typemap (for a struct's ε).
    pub align: i64,
    /// Whether the bounds are explicit (set by resized or subarray) rather than from the data.
    pub sticky_lb: bool,
    pub sticky_ub: bool,
    /// Whether the typemap has no entries at all (no data and no explicit bounds).
    pub empty: bool,
    map: Arc<Map>,
}

impl Layout {
    pub fn extent(&self) -> i64 {
        self.ub - self.lb
    }

    /// A basic type of `size` bytes and natural alignment `align`.
    fn basic(size: i64, align: i64) -> Layout {
        Layout::pair(&[(0, size)], size, align)
    }

    /// A type made of runs `(offset, len)`, with the given extent (from 0) and alignment.
    fn pair(parts: &[(i64, i64)], extent: i64, align: i64) -> Layout {
        let map = if let [(0, len)] = parts {
            Arc::new(Map::Bytes(*len))
        } else {
            Arc::new(Map::Seq(
                parts
                    .iter()
                    .map(|&(off, len)| (off, Arc::new(Map::Bytes(len))))
                    .collect(),
            ))
        };
        Layout {
            size: parts.iter().map(|p| p.1).sum(),
            lb: 0,
            ub: extent,
            true_lb: 0,
            true_ub: parts.iter().map(|p| p.0 + p.1).max().unwrap_or(0),
            align,
            sticky_lb: false,
            sticky_ub: false,
            empty: false,
            map,
        }
    }

    /// Calls `f(offset, len)` for each maximal run of bytes of `count` consecutive elements
    /// (element i at `i * extent`), in typemap order; adjacent runs are merged.
    pub fn for_each_block(&self, count: i64, mut f: impl FnMut(i64, i64)) {
        let mut cur: Option<(i64, i64)> = None;
        let ext = self.extent();
        for i in 0..count {
            self.map
                .visit(i.wrapping_mul(ext), &mut |off, len| match &mut cur {
                    Some((o, l)) if o.wrapping_add(*l) == off => *l += len,
                    _ => {
                        if let Some((o, l)) = cur.replace((off, len)) {
                            f(o, l);
                        }
                    }
                });
        }
        if let Some((o, l)) = cur {
            f(o, l);
        }
    }

    /// The byte runs `(offset, len)` of `count` consecutive elements, merged where they touch.
    pub fn blocks(&self, count: i64) -> Vec<(i64, i64)> {
        let mut out = Vec::new();
        self.for_each_block(count, |o, l| out.push((o, l)));
        out
    }
}

#[derive(Debug)]
pub struct Datatype {
    pub name: String,
    pub attrs: AttrTable,
    pub freeing: bool,
    pub layout: Layout,
    /// Committed types may be used in communication (predefined types always are).
    pub committed: bool,
    /// The `MPI_COMBINER_*` that made it.
    pub combiner: i32,
}

impl Datatype {
    fn new(layout: Layout, combiner: i32) -> Datatype {
        Datatype {
            name: String::new(),
            attrs: AttrTable::new(),
            freeing: false,
            layout,
            committed: false,
            combiner,
        }
    }
}

/// Every predefined datatype of `consts.rs`: (handle, name, layout) with x86_64 Linux sizes.
fn predefined_types() -> Vec<(i32, &'static str, Layout)> {
    let b = Layout::basic;
    // Pair types are the C structs {T1 a; T2 b;} (MPI 4.1 §6.9.4), with the struct's padding.
    let p = |first: i64, second_off: i64, second: i64, extent: i64, align: i64| {
        Layout::pair(&[(0, first), (second_off, second)], extent, align)
    };
    vec![
        (MPI_AINT, "MPI_AINT", b(8, 8)),
        (MPI_COUNT, "MPI_COUNT", b(8, 8)),
        (MPI_OFFSET, "MPI_OFFSET", b(8, 8)),
        (MPI_PACKED, "MPI_PACKED", b(1, 1)),
        (MPI_SHORT, "MPI_SHORT", b(2, 2)),
        (MPI_INT, "MPI_INT", b(4, 4)),
        (MPI_LONG, "MPI_LONG", b(8, 8)),
        (MPI_LONG_LONG_INT, "MPI_LONG_LONG_INT", b(8, 8)),
        (MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT", b(2, 2)),
        (MPI_UNSIGNED, "MPI_UNSIGNED", b(4, 4)),
        (MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", b(8, 8)),
        (MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG", b(8, 8)),
        (MPI_FLOAT, "MPI_FLOAT", b(4, 4)),
        (MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX", b(8, 4)),
        (MPI_DOUBLE, "MPI_DOUBLE", b(8, 8)),
        (MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", b(16, 8)),
        (MPI_INTEGER, "MPI_INTEGER", b(FINT, FINT)),
        (MPI_LOGICAL, "MPI_LOGICAL", b(FINT, FINT)),
        (MPI_REAL, "MPI_REAL", b(4, 4)),
        (MPI_COMPLEX, "MPI_COMPLEX", b(8, 4)),
        (MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", b(8, 8)),
        (MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX", b(16, 8)),
        (MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", b(16, 16)),
        (
            MPI_C_LONG_DOUBLE_COMPLEX,
            "MPI_C_LONG_DOUBLE_COMPLEX",
            b(32, 16),
        ),
        (MPI_FLOAT_INT, "MPI_FLOAT_INT", p(4, 4, 4, 8, 4)),
        (MPI_DOUBLE_INT, "MPI_DOUBLE_INT", p(8, 8, 4, 16, 8)),
        (MPI_LONG_INT, "MPI_LONG_INT", p(8, 8, 4, 16, 8)),
        (MPI_2INT, "MPI_2INT", p(4, 4, 4, 8, 4)),
        (MPI_SHORT_INT, "MPI_SHORT_INT", p(2, 4, 4, 8, 4)),
        (
            MPI_LONG_DOUBLE_INT,
            "MPI_LONG_DOUBLE_INT",
            p(16, 16, 4, 32, 16),
        ),
        (MPI_2REAL, "MPI_2REAL", p(4, 4, 4, 8, 4)),
        (
            MPI_2DOUBLE_PRECISION,
            "MPI_2DOUBLE_PRECISION",
            p(8, 8, 8, 16, 8),
        ),
        (
            MPI_2INTEGER,
            "MPI_2INTEGER",
            p(FINT, FINT, FINT, 2 * FINT, FINT),
        ),
        (MPI_C_BOOL, "MPI_C_BOOL", b(1, 1)),
        (MPI_WCHAR, "MPI_WCHAR", b(4, 4)),
        (MPI_INT8_T, "MPI_INT8_T", b(1, 1)),
        (MPI_UINT8_T, "MPI_UINT8_T", b(1, 1)),
        (MPI_CHAR, "MPI_CHAR", b(1, 1)),
        (MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", b(1, 1)),
        (MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", b(1, 1)),
        (MPI_BYTE, "MPI_BYTE", b(1, 1)),
        (MPI_INT16_T, "MPI_INT16_T", b(2, 2)),
        (MPI_UINT16_T, "MPI_UINT16_T", b(2, 2)),
        (MPI_INT32_T, "MPI_INT32_T", b(4, 4)),
        (MPI_UINT32_T, "MPI_UINT32_T", b(4, 4)),
        (MPI_INT64_T, "MPI_INT64_T", b(8, 8)),
        (MPI_UINT64_T, "MPI_UINT64_T", b(8, 8)),
        (MPI_INTEGER1, "MPI_INTEGER1", b(1, 1)),
        (MPI_CHARACTER, "MPI_CHARACTER", b(1, 1)),
        (MPI_INTEGER2, "MPI_INTEGER2", b(2, 2)),
        (MPI_INTEGER4, "MPI_INTEGER4", b(4, 4)),
        (MPI_REAL4, "MPI_REAL4", b(4, 4)),
        (MPI_INTEGER8, "MPI_INTEGER8", b(8, 8)),
        (MPI_REAL8, "MPI_REAL8", b(8, 8)),
        (MPI_COMPLEX8, "MPI_COMPLEX8", b(8, 4)),
        (MPI_INTEGER16, "MPI_INTEGER16", b(16, 16)),
        (MPI_REAL16, "MPI_REAL16", b(16, 16)),
        (MPI_COMPLEX16, "MPI_COMPLEX16", b(16, 8)),
        (MPI_COMPLEX32, "MPI_COMPLEX32", b(32, 16)),
    ]
}

/// Installs every predefined datatype, committed, named as its constant.
pub fn install_predefined(types: &mut Slab<Datatype>) {
    for (h, name, layout) in predefined_types() {
        let mut t = Datatype::new(layout, MPI_COMBINER_NAMED);
        t.name = name.to_owned();
        t.committed = true;
        types.insert_predefined(Handle(h), t);
    }
}

/// Accepts the predefined reduction operations (`MPI_SUM` ... `MPI_NO_OP`).
pub fn check_op(h: Handle) -> Result<()> {
    const OPS: [i32; 14] = [
        MPI_SUM,
        MPI_MIN,
        MPI_MAX,
        MPI_PROD,
        MPI_BAND,
        MPI_BOR,
        MPI_BXOR,
        MPI_LAND,
        MPI_LOR,
        MPI_LXOR,
        MPI_MINLOC,
        MPI_MAXLOC,
        MPI_REPLACE,
        MPI_NO_OP,
    ];
    if OPS.contains(&h.0) {
        return Ok(());
    }
    if h.0 == MPI_OP_NULL {
        return Err(Error::NullHandle {
            kind: HandleKind::Op,
        });
    }
    let reason = match kind_of(h) {
        Some(k) if k != HandleKind::Op => BadHandleReason::WrongKind(k),
        _ => BadHandleReason::Forged,
    };
    Err(Error::BadHandle {
        kind: HandleKind::Op,
        handle: h.0,
        reason,
    })
}

// ---- arithmetic that reports overflow instead of wrapping ------------------------------------

fn too_large() -> Error {
    Error::invalid(
        MPI_ERR_ARG,
        "the datatype would be larger than an MPI_Aint can describe",
    )
}

fn mul(a: i64, b: i64) -> Result<i64> {
    a.checked_mul(b).ok_or_else(too_large)
}

fn add(a: i64, b: i64) -> Result<i64> {
    a.checked_add(b).ok_or_else(too_large)
}

fn check_count(count: i64) -> Result<()> {
    if count < 0 {
        return Err(Error::invalid(
            MPI_ERR_COUNT,
            format!("count {count} is negative"),
        ));
    }
    Ok(())
}

fn check_blocklength(bl: i64) -> Result<()> {
    if bl < 0 {
        return Err(Error::invalid(
            MPI_ERR_ARG,
            format!("blocklength {bl} is negative"),
        ));
    }
    Ok(())
}

/// `count` copies of `old`, the i-th at byte displacement `disp + i * stride`.
struct Block<'a> {
    disp: i64,
    count: i64,
    stride: i64,
    old: &'a Layout,
}

/// The layout of a typemap made of blocks (MPI 4.1 §5.1.2–§5.1.7). Each copy of an old type
/// contributes its bounds shifted; for a struct (`is_struct`), explicit bounds of some members
/// win over the others', and without an explicit upper bound the extent is rounded up to the
/// largest alignment (ε).
fn combine(blocks: &[Block<'_>], is_struct: bool) -> Result<Layout> {
    let mut size = 0i64;
    let mut align = 1i64;
    let (mut lb, mut ub) = (i64::MAX, i64::MIN);
    let (mut sticky_lb_v, mut sticky_ub_v) = (i64::MAX, i64::MIN);
    let (mut sticky_lb, mut sticky_ub) = (false, false);
    let (mut true_lb, mut true_ub) = (i64::MAX, i64::MIN);
    let mut parts: Vec<(i64, Arc<Map>)> = Vec::new();
    let mut empty = true;
    for b in blocks {
        check_blocklength(b.count)?;
        if b.count == 0 || b.old.empty {
            continue;
        }
        empty = false;
        let span = mul(b.count - 1, b.stride)?;
        let (lo, hi) = (span.min(0), span.max(0));
        let blb = add(add(b.disp, b.old.lb)?, lo)?;
        let bub = add(add(b.disp, b.old.ub)?, hi)?;
        lb = lb.min(blb);
        ub = ub.max(bub);
        if b.old.sticky_lb {
            sticky_lb = true;
            sticky_lb_v = sticky_lb_v.min(blb);
        }
        if b.old.sticky_ub {
            sticky_ub = true;
            sticky_ub_v = sticky_ub_v.max(bub);
        }
        align = align.max(b.old.align);
        if b.old.size > 0 {
            size = add(size, mul(b.count, b.old.size)?)?;
            true_lb = true_lb.min(add(add(b.disp, b.old.true_lb)?, lo)?);
            true_ub = true_ub.max(add(add(b.disp, b.old.true_ub)?, hi)?);
            parts.push((b.disp, Map::repeat(b.count, b.stride, &b.old.map)));
        }
    }
    if empty {
        return Ok(Layout {
            size: 0,
            lb: 0,
            ub: 0,
            true_lb: 0,
            true_ub: 0,
            align: 1,
            sticky_lb: false,
            sticky_ub: false,
            empty: true,
            map: Map::empty(),
        });
    }
    if sticky_lb {
        lb = sticky_lb_v;
    }
    if sticky_ub {
        ub = sticky_ub_v;
    }
    if is_struct && !sticky_ub {
        let rem = (ub - lb).rem_euclid(align);
        if rem != 0 {
            ub = add(ub, align - rem)?;
        }
    }
    if size == 0 {
        (true_lb, true_ub) = (lb, lb);
    }
    let map = match parts.as_slice() {
        [] => Map::empty(),
        [(0, m)] => m.clone(),
        _ => Arc::new(Map::Seq(parts)),
    };
    Ok(Layout {
        size,
        lb,
        ub,
        true_lb,
        true_ub,
        align,
        sticky_lb,
        sticky_ub,
        empty: false,
        map,
    })
}

/// The layout of `count` contiguous copies of `old` (the inner part of many constructors).
fn contiguous(count: i64, old: &Layout) -> Result<Layout> {
    combine(
        &[Block {
            disp: 0,
            count,
            stride: old.extent(),
            old,
        }],
        false,
    )
}

/// `count` blocks of `blocklength` elements, block i starting `stride` bytes after block i-1.
fn hvector(count: i64, blocklength: i64, stride: i64, old: &Layout) -> Result<Layout> {
    check_count(count)?;
    check_blocklength(blocklength)?;
    let block = contiguous(blocklength, old)?;
    combine(
        &[Block {
            disp: 0,
            count,
            stride,
            old: &block,
        }],
        false,
    )
}

/// Blocks of `old` at byte displacements.
fn hindexed(blocklengths: &[i64], displacements: &[i64], old: &Layout) -> Result<Layout> {
    if blocklengths.len() != displacements.len() {
        return Err(Error::invalid(
            MPI_ERR_ARG,
            "blocklength and displacement arrays differ in length",
        ));
    }
    let ext = old.extent();
    let blocks: Vec<Block<'_>> = blocklengths
        .iter()
        .zip(displacements)
        .map(|(&count, &disp)| Block {
            disp,
            count,
            stride: ext,
            old,
        })
        .collect();
    combine(&blocks, false)
}

/// Element displacements (in multiples of `old`'s extent) as byte displacements.
fn scale(displacements: &[i64], old: &Layout) -> Result<Vec<i64>> {
    displacements
        .iter()
        .map(|&d| mul(d, old.extent()))
        .collect()
}

fn subarray(
    sizes: &[i64],
    subsizes: &[i64],
    starts: &[i64],
    order: i32,
    old: &Layout,
) -> Result<Layout> {
    let n = sizes.len();
    if n == 0 || subsizes.len() != n || starts.len() != n {
        return Err(Error::invalid(
            MPI_ERR_ARG,
            format!("ndims = {n}: a subarray needs at least one dimension"),
        ));
    }
    for i in 0..n {
        let (size, sub, start) = (sizes[i], subsizes[i], starts[i]);
        if size < 1 {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("array_of_sizes[{i}] = {size} is not positive"),
            ));
        }
        if sub < 1 || sub > size {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("array_of_subsizes[{i}] = {sub} is not in 1..={size}"),
            ));
        }
        if start < 0 || start > size - sub {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!(
                    "array_of_starts[{i}] = {start} puts the subarray outside the array \
                     (size {size}, subsize {sub})"
                ),
            ));
        }
    }
    // Dimensions from slowest to fastest varying.
    let dims: Vec<usize> = match order {
        MPI_ORDER_C => (0..n).collect(),
        MPI_ORDER_FORTRAN => (0..n).rev().collect(),
        _ => {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("order {order} is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN"),
            ))
        }
    };
    let ext = old.extent();
    // Byte stride of each dimension, fastest first.
    let mut stride = ext;
    let mut offset = 0i64;
    let mut layout: Option<Layout> = None;
    for &d in dims.iter().rev() {
        offset = add(offset, mul(starts[d], stride)?)?;
        let inner = layout.as_ref().unwrap_or(old);
        layout = Some(combine(
            &[Block {
                disp: 0,
                count: subsizes[d],
                stride,
                old: inner,
            }],
            false,
        )?);
        stride = mul(stride, sizes[d])?;
    }
    let inner = layout.expect("at least one dimension");
    let mut placed = combine(
        &[Block {
            disp: offset,
            count: 1,
            stride: 0,
            old: &inner,
        }],
        false,
    )?;
    // MPI 4.1 §5.1.3: the subarray type has the lower bound 0 and the extent of the full array.
    placed.lb = 0;
    placed.ub = stride;
    placed.sticky_lb = true;
    placed.sticky_ub = true;
    Ok(placed)
}

fn resized(old: &Layout, lb: i64, extent: i64) -> Result<Layout> {
    let mut l = old.clone();
    l.lb = lb;
    l.ub = add(lb, extent)?;
    l.sticky_lb = true;
    l.sticky_ub = true;
    l.empty = false;
    Ok(l)
}

impl State {
    fn layout_of(&self, h: Handle) -> Result<Layout> {
        Ok(self.types.get(h)?.layout.clone())
    }
}

impl Runtime {
    /// Builds a new derived type from old ones, all looked up under one lock.
    fn derive(
        &self,
        olds: &[Handle],
        combiner: i32,
        build: impl FnOnce(&[Layout]) -> Result<Layout>,
    ) -> Result<Handle> {
        let mut st = self.active()?;
        let layouts = olds
            .iter()
            .map(|&h| st.layout_of(h))
            .collect::<Result<Vec<_>>>()?;
        let layout = build(&layouts)?;
        st.types.insert(Datatype::new(layout, combiner))
    }

    /// `MPI_Type_contiguous` (MPI 4.1 §5.1.2).
    pub fn type_contiguous(&self, count: i64, old: Handle) -> Result<Handle> {
        check_count(count)?;
        self.derive(&[old], MPI_COMBINER_CONTIGUOUS, |l| {
            contiguous(count, &l[0])
        })
    }

    /// `MPI_Type_vector`: the stride is in multiples of `old`'s extent.
    pub fn type_vector(
        &self,
        count: i64,
        blocklength: i64,
        stride: i64,
        old: Handle,
    ) -> Result<Handle> {
        check_count(count)?;
        self.derive(&[old], MPI_COMBINER_VECTOR, |l| {
            hvector(count, blocklength, mul(stride, l[0].extent())?, &l[0])
        })
    }

    /// `MPI_Type_create_hvector`: the stride is in bytes.
    pub fn type_create_hvector(
        &self,
        count: i64,
        blocklength: i64,
        stride: i64,
        old: Handle,
    ) -> Result<Handle> {
        check_count(count)?;
        self.derive(&[old], MPI_COMBINER_HVECTOR, |l| {
            hvector(count, blocklength, stride, &l[0])
        })
    }

    /// `MPI_Type_indexed`: displacements in multiples of `old`'s extent.
    pub fn type_indexed(
        &self,
        blocklengths: &[i64],
        displacements: &[i64],
        old: Handle,
    ) -> Result<Handle> {
        self.derive(&[old], MPI_COMBINER_INDEXED, |l| {
            hindexed(blocklengths, &scale(displacements, &l[0])?, &l[0])
        })
    }

    /// `MPI_Type_create_hindexed`: displacements in bytes.
    pub fn type_create_hindexed(
        &self,
        blocklengths: &[i64],
        displacements: &[i64],
        old: Handle,
    ) -> Result<Handle> {
        self.derive(&[old], MPI_COMBINER_HINDEXED, |l| {
            hindexed(blocklengths, displacements, &l[0])
        })
    }

    /// `MPI_Type_create_indexed_block`: one blocklength, displacements in extents.
    pub fn type_create_indexed_block(
        &self,
        blocklength: i64,
        displacements: &[i64],
        old: Handle,
    ) -> Result<Handle> {
        check_blocklength(blocklength)?;
        self.derive(&[old], MPI_COMBINER_INDEXED_BLOCK, |l| {
            let bls = vec![blocklength; displacements.len()];
            hindexed(&bls, &scale(displacements, &l[0])?, &l[0])
        })
    }

    /// `MPI_Type_create_hindexed_block`: one blocklength, displacements in bytes.
    pub fn type_create_hindexed_block(
        &self,
        blocklength: i64,
        displacements: &[i64],
        old: Handle,
    ) -> Result<Handle> {
        check_blocklength(blocklength)?;
        self.derive(&[old], MPI_COMBINER_HINDEXED_BLOCK, |l| {
            let bls = vec![blocklength; displacements.len()];
            hindexed(&bls, displacements, &l[0])
        })
    }

    /// `MPI_Type_create_struct` (MPI 4.1 §5.1.2, bounds §5.1.6–§5.1.7).
    pub fn type_create_struct(
        &self,
        blocklengths: &[i64],
        displacements: &[i64],
        types: &[Handle],
    ) -> Result<Handle> {
        if blocklengths.len() != displacements.len() || blocklengths.len() != types.len() {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                "struct argument arrays differ in length",
            ));
        }
        self.derive(types, MPI_COMBINER_STRUCT, |l| {
            let blocks: Vec<Block<'_>> = blocklengths
                .iter()
                .zip(displacements)
                .zip(l)
                .map(|((&count, &disp), old)| Block {
                    disp,
                    count,
                    stride: old.extent(),
                    old,
                })
                .collect();
            combine(&blocks, true)
        })
    }

    /// `MPI_Type_create_subarray` (MPI 4.1 §5.1.3), in `MPI_ORDER_C` or `MPI_ORDER_FORTRAN`.
    pub fn type_create_subarray(
        &self,
        sizes: &[i64],
        subsizes: &[i64],
        starts: &[i64],
        order: i32,
        old: Handle,
    ) -> Result<Handle> {
        self.derive(&[old], MPI_COMBINER_SUBARRAY, |l| {
            subarray(sizes, subsizes, starts, order, &l[0])
        })
    }

    /// `MPI_Type_create_resized` (MPI 4.1 §5.1.7).
    pub fn type_create_resized(&self, old: Handle, lb: i64, extent: i64) -> Result<Handle> {
        self.derive(&[old], MPI_COMBINER_RESIZED, |l| resized(&l[0], lb, extent))
    }

    /// `MPI_Type_dup` (MPI 4.1 §5.1.10): same layout and committed state, no name, and the
    /// attributes the copy callbacks allow. If a copy callback fails, the attributes already
    /// copied are deleted (their delete callbacks run) and the new type goes.
    pub fn type_dup(&self, old: Handle) -> Result<Handle> {
        let new = {
            let mut st = self.active()?;
            let t = st.types.get(old)?;
            let mut nt = Datatype::new(t.layout.clone(), MPI_COMBINER_DUP);
            nt.committed = t.committed;
            st.types.insert(nt)?
        };
        if let Err(e) = self.copy_attrs(ObjRef::datatype(old.0), ObjRef::datatype(new.0)) {
            let _ = self.delete_all_attrs_forced(ObjRef::datatype(new.0));
            let _ = self.lock().types.remove(new);
            return Err(e);
        }
        Ok(new)
    }

    /// `MPI_Type_commit`; committing a committed or predefined type does nothing.
    pub fn type_commit(&self, h: Handle) -> Result<()> {
        self.active()?.types.get_mut(h)?.committed = true;
        Ok(())
    }

    /// `MPI_Type_free`: deletes the attributes, last set first; a failing delete callback stops
    /// the free and leaves the type valid. Types built from this one are not affected.
    pub fn type_free(&self, h: Handle) -> Result<()> {
        {
            let st = self.active()?;
            st.types.get(h)?;
            if st.types.is_predefined(h) {
                return Err(Error::PredefinedHandle {
                    kind: HandleKind::Datatype,
                    handle: h.0,
                    action: "freed",
                });
            }
        }
        self.free_object(ObjRef::datatype(h.0), |st| st.types.remove(h).map(drop))
    }

    /// `MPI_Type_size_x`: bytes of data in one element.
    pub fn type_size(&self, h: Handle) -> Result<i64> {
        Ok(self.active()?.types.get(h)?.layout.size)
    }

    /// `MPI_Type_get_extent_x`: (lb, extent).
    pub fn type_get_extent(&self, h: Handle) -> Result<(i64, i64)> {
        let st = self.active()?;
        let l = &st.types.get(h)?.layout;
        Ok((l.lb, l.extent()))
    }

    /// `MPI_Type_get_true_extent_x`: (true_lb, true_extent), from the data alone.
    pub fn type_get_true_extent(&self, h: Handle) -> Result<(i64, i64)> {
        let st = self.active()?;
        let l = &st.types.get(h)?.layout;
        Ok((l.true_lb, l.true_ub - l.true_lb))
    }

    pub fn type_is_committed(&self, h: Handle) -> Result<bool> {
        Ok(self.active()?.types.get(h)?.committed)
    }

    pub fn type_set_name(&self, h: Handle, name: &str) -> Result<()> {
        self.active()?.types.get_mut(h)?.name = truncate_name(name);
        Ok(())
    }

    pub fn type_get_name(&self, h: Handle) -> Result<String> {
        Ok(self.active()?.types.get(h)?.name.clone())
    }

    /// The byte runs `(offset, len)` of `count` elements of a datatype usable in communication
    /// (committed or predefined), relative to the buffer's address, merged where they touch.
    /// This is what a local copy from one buffer to another moves.
    pub fn type_blocks(&self, h: Handle, count: i64) -> Result<Vec<(i64, i64)>> {
        check_count(count)?;
        let layout = {
            let st = self.active()?;
            let t = st.types.get(h)?;
            if !t.committed {
                return Err(Error::invalid(
                    MPI_ERR_TYPE,
                    format!("datatype {:#x} is not committed", h.0),
                ));
            }
            t.layout.clone()
        };
        if count > 0 {
            // Every offset must be describable: the last element's bounds must not overflow.
            let last = mul(count - 1, layout.extent())?;
            add(last, layout.true_lb)?;
            add(last, layout.true_ub)?;
        }
        Ok(layout.blocks(count))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::callback::{CallbackCall, Convention, CopyFn, DeleteCallback, DeleteFn};
    use crate::core::convert::AttrWord;
    use crate::core::ObjectKind;
    use std::sync::Mutex;

    fn rt() -> Runtime {
        let r = Runtime::new();
        r.init(0).unwrap();
        r
    }

    fn h(v: i32) -> Handle {
        Handle(v)
    }

    /// (size, lb, extent, true_lb, true_extent)
    fn shape(r: &Runtime, t: Handle) -> (i64, i64, i64, i64, i64) {
        let s = r.type_size(t).unwrap();
        let (lb, ext) = r.type_get_extent(t).unwrap();
        let (tlb, text) = r.type_get_true_extent(t).unwrap();
        (s, lb, ext, tlb, text)
    }

    /// The MPI standard's example old type {(double, 0), (char, 8)}, extent 16.
    fn double_char(r: &Runtime) -> Handle {
        r.type_create_struct(&[1, 1], &[0, 8], &[h(MPI_DOUBLE), h(MPI_CHAR)])
            .unwrap()
    }

    #[test]
    fn predefined_sizes_names_and_commit() {
        // MPI 4.1 §3.2.2, §6.9.4: predefined types, x86_64 sizes; pair types are C structs.
        let r = rt();
        let cases = [
            (MPI_INT, 4, 4),
            (MPI_LONG, 8, 8),
            (MPI_LONG_DOUBLE, 16, 16),
            (MPI_INTEGER, FINT, FINT),
            (MPI_LOGICAL, FINT, FINT),
            (MPI_2INTEGER, 2 * FINT, 2 * FINT),
            (MPI_REAL, 4, 4),
            (MPI_DOUBLE_PRECISION, 8, 8),
            (MPI_COMPLEX, 8, 8),
            (MPI_DOUBLE_COMPLEX, 16, 16),
            (MPI_CHARACTER, 1, 1),
            (MPI_2INT, 8, 8),
            (MPI_FLOAT_INT, 8, 8),
            (MPI_DOUBLE_INT, 12, 16),
            (MPI_LONG_INT, 12, 16),
            (MPI_SHORT_INT, 6, 8),
            (MPI_LONG_DOUBLE_INT, 20, 32),
            (MPI_2DOUBLE_PRECISION, 16, 16),
        ];
        for (t, size, ext) in cases {
            assert_eq!(r.type_size(h(t)).unwrap(), size, "size of {t:#x}");
            assert_eq!(
                r.type_get_extent(h(t)).unwrap(),
                (0, ext),
                "extent of {t:#x}"
            );
            assert!(r.type_is_committed(h(t)).unwrap());
        }
        assert_eq!(r.type_get_name(h(MPI_INT)).unwrap(), "MPI_INT");
        assert_eq!(
            r.type_get_name(h(MPI_DOUBLE_PRECISION)).unwrap(),
            "MPI_DOUBLE_PRECISION"
        );
        // Every predefined constant resolves.
        for (t, name, _) in predefined_types() {
            assert_eq!(r.type_get_name(h(t)).unwrap(), name);
        }
        // MPI_SHORT_INT: data at 0..2 and 4..8.
        assert_eq!(
            r.type_blocks(h(MPI_SHORT_INT), 2).unwrap(),
            vec![(0, 2), (4, 6), (12, 4)]
        );
    }

    #[test]
    fn contiguous_size_and_extent() {
        // MPI 4.1 §5.1.2: contiguous is count copies at multiples of the extent.
        let r = rt();
        let t = r.type_contiguous(3, h(MPI_INT)).unwrap();
        assert_eq!(shape(&r, t), (12, 0, 12, 0, 12));
        let e = r.type_contiguous(0, h(MPI_INT)).unwrap();
        assert_eq!(shape(&r, e), (0, 0, 0, 0, 0));
        // A huge count is one block, not a huge typemap.
        let big = r.type_contiguous(1 << 40, h(MPI_INT)).unwrap();
        assert_eq!(r.type_size(big).unwrap(), 4 << 40);
        r.type_commit(big).unwrap();
        assert_eq!(r.type_blocks(big, 1).unwrap(), vec![(0, 4 << 40)]);
    }

    #[test]
    fn vector_size_and_extent() {
        // MPI 4.1 §5.1.2, vector: 2 blocks of 3 doubles, stride 4 doubles → data at
        // 0..24 and 32..56: size 48, extent 56.
        let r = rt();
        let t = r.type_vector(2, 3, 4, h(MPI_DOUBLE)).unwrap();
        assert_eq!(shape(&r, t), (48, 0, 56, 0, 56));
        r.type_commit(t).unwrap();
        assert_eq!(r.type_blocks(t, 1).unwrap(), vec![(0, 24), (32, 24)]);
        // Two elements: the second starts at the extent, 56, touching the first's last block.
        assert_eq!(
            r.type_blocks(t, 2).unwrap(),
            vec![(0, 24), (32, 48), (88, 24)]
        );
        // MPI 4.1 §5.1.2 example: oldtype {(double,0),(char,8)} extent 16; vector(2,3,4) has
        // entries up to (char,104): size 54, extent 112.
        let dc = double_char(&r);
        assert_eq!(shape(&r, dc), (9, 0, 16, 0, 9));
        let v = r.type_vector(2, 3, 4, dc).unwrap();
        assert_eq!(shape(&r, v), (54, 0, 112, 0, 105));
        // A negative stride puts the lower bound before 0.
        let n = r.type_vector(2, 1, -2, h(MPI_INT)).unwrap();
        assert_eq!(shape(&r, n), (8, -8, 12, -8, 12));
    }

    #[test]
    fn hvector_size_and_extent() {
        // MPI 4.1 §5.1.2, hvector: the stride is in bytes.
        let r = rt();
        let t = r.type_create_hvector(3, 2, 20, h(MPI_INT)).unwrap();
        assert_eq!(shape(&r, t), (24, 0, 48, 0, 48));
        r.type_commit(t).unwrap();
        assert_eq!(r.type_blocks(t, 1).unwrap(), vec![(0, 8), (20, 8), (40, 8)]);
    }

    #[test]
    fn indexed_size_and_extent() {
        // MPI 4.1 §5.1.2 example: oldtype {(double,0),(char,8)}, blocklengths (3,1),
        // displacements (4,0) → entries from 64 to 104 and at 0: size 36, extent 112.
        let r = rt();
        let dc = double_char(&r);
        let t = r.type_indexed(&[3, 1], &[4, 0], dc).unwrap();
        assert_eq!(shape(&r, t), (36, 0, 112, 0, 105));
        let ti = r.type_indexed(&[2, 1], &[1, 5], h(MPI_INT)).unwrap();
        assert_eq!(shape(&r, ti), (12, 4, 20, 4, 20));
        r.type_commit(ti).unwrap();
        assert_eq!(r.type_blocks(ti, 1).unwrap(), vec![(4, 8), (20, 4)]);
        // Zero-length blocks add no entries.
        let z = r.type_indexed(&[0, 1], &[100, 2], h(MPI_INT)).unwrap();
        assert_eq!(shape(&r, z), (4, 8, 4, 8, 4));
        // Negative blocklengths are invalid.
        assert_eq!(
            r.type_indexed(&[-1], &[0], h(MPI_INT)).unwrap_err().class(),
            MPI_ERR_ARG
        );
    }

    #[test]
    fn hindexed_and_block_variants() {
        // MPI 4.1 §5.1.2: hindexed (bytes), indexed_block (extents), hindexed_block (bytes).
        let r = rt();
        let a = r
            .type_create_hindexed(&[1, 2], &[10, 0], h(MPI_INT))
            .unwrap();
        assert_eq!(shape(&r, a), (12, 0, 14, 0, 14));
        let b = r
            .type_create_indexed_block(2, &[0, 3, 6], h(MPI_DOUBLE))
            .unwrap();
        assert_eq!(shape(&r, b), (48, 0, 64, 0, 64));
        let c = r
            .type_create_hindexed_block(2, &[0, 100], h(MPI_SHORT))
            .unwrap();
        assert_eq!(shape(&r, c), (8, 0, 104, 0, 104));
        r.type_commit(c).unwrap();
        assert_eq!(r.type_blocks(c, 1).unwrap(), vec![(0, 4), (100, 4)]);
    }

    #[test]
    fn struct_bounds_and_alignment() {
        // MPI 4.1 §5.1.2 example: struct of (2 × float at 0, 1 × {double,char} at 16,
        // 3 × char at 26): size 2*4 + 9 + 3 = 20; entries end at 29, the alignment of double
        // pads the extent to 32.
        let r = rt();
        let dc = double_char(&r);
        let t = r
            .type_create_struct(&[2, 1, 3], &[0, 16, 26], &[h(MPI_FLOAT), dc, h(MPI_CHAR)])
            .unwrap();
        assert_eq!(shape(&r, t), (20, 0, 32, 0, 29));
        // MPI 4.1 §5.1.6: ε rounds {int, char} up to the int alignment, 8.
        let ic = r
            .type_create_struct(&[1, 1], &[0, 4], &[h(MPI_INT), h(MPI_CHAR)])
            .unwrap();
        assert_eq!(shape(&r, ic), (5, 0, 8, 0, 5));
        // MPI 4.1 §5.1.7: explicit bounds of a resized member win; no ε is added.
        let rz = r.type_create_resized(h(MPI_INT), -4, 12).unwrap();
        let s = r
            .type_create_struct(&[1, 1], &[0, 16], &[rz, h(MPI_DOUBLE)])
            .unwrap();
        assert_eq!(shape(&r, s), (12, -4, 12, 0, 24));
        // Mismatched array lengths are an argument error.
        assert_eq!(
            r.type_create_struct(&[1], &[0, 1], &[h(MPI_INT)])
                .unwrap_err()
                .class(),
            MPI_ERR_ARG
        );
    }

    #[test]
    fn subarray_in_both_orders() {
        // MPI 4.1 §5.1.3: a 2×3 block at (1,1) of a 4×5 int array; lb 0, extent = whole array.
        let r = rt();
        let c = r
            .type_create_subarray(&[4, 5], &[2, 3], &[1, 1], MPI_ORDER_C, h(MPI_INT))
            .unwrap();
        // Rows of 5 ints (20 bytes); elements (1,1..4) and (2,1..4).
        assert_eq!(shape(&r, c), (24, 0, 80, 24, 32));
        r.type_commit(c).unwrap();
        assert_eq!(r.type_blocks(c, 1).unwrap(), vec![(24, 12), (44, 12)]);
        // Fortran order: columns of 4 ints (16 bytes); dim 0 is fastest.
        let f = r
            .type_create_subarray(&[4, 5], &[2, 3], &[1, 1], MPI_ORDER_FORTRAN, h(MPI_INT))
            .unwrap();
        assert_eq!(shape(&r, f), (24, 0, 80, 20, 40));
        r.type_commit(f).unwrap();
        assert_eq!(
            r.type_blocks(f, 1).unwrap(),
            vec![(20, 8), (36, 8), (52, 8)]
        );
        // Bad sizes and orders are MPI_ERR_ARG.
        for (sizes, subs, starts, order) in [
            (vec![4], vec![5], vec![0], MPI_ORDER_C),
            (vec![4], vec![2], vec![3], MPI_ORDER_C),
            (vec![4], vec![0], vec![0], MPI_ORDER_C),
            (vec![0], vec![0], vec![0], MPI_ORDER_C),
            (vec![4], vec![2], vec![-1], MPI_ORDER_C),
            (vec![4], vec![2], vec![0], 99),
            (vec![], vec![], vec![], MPI_ORDER_C),
        ] {
            let e = r
                .type_create_subarray(&sizes, &subs, &starts, order, h(MPI_INT))
                .unwrap_err();
            assert_eq!(
                e.class(),
                MPI_ERR_ARG,
                "{sizes:?} {subs:?} {starts:?} {order}"
            );
        }
    }

    #[test]
    fn resized_sets_bounds_that_stick() {
        // MPI 4.1 §5.1.7: resized sets lb and extent; true bounds stay the data's.
        let r = rt();
        let t = r.type_create_resized(h(MPI_INT), -2, 10).unwrap();
        assert_eq!(shape(&r, t), (4, -2, 10, 0, 4));
        // Copies of a resized type are placed at multiples of its extent.
        let c = r.type_contiguous(3, t).unwrap();
        assert_eq!(shape(&r, c), (12, -2, 30, 0, 24));
        r.type_commit(c).unwrap();
        assert_eq!(r.type_blocks(c, 1).unwrap(), vec![(0, 4), (10, 4), (20, 4)]);
        // Resizing the {double,char} struct to 9 bytes packs it.
        let dc = double_char(&r);
        let packed = r.type_create_resized(dc, 0, 9).unwrap();
        let two = r.type_contiguous(2, packed).unwrap();
        r.type_commit(two).unwrap();
        assert_eq!(r.type_blocks(two, 1).unwrap(), vec![(0, 18)]);
    }

    #[test]
    fn errors_of_constructors_and_free() {
        let r = rt();
        // MPI 4.1 §2.6.4: negative counts are MPI_ERR_COUNT.
        assert_eq!(
            r.type_contiguous(-1, h(MPI_INT)).unwrap_err().class(),
            MPI_ERR_COUNT
        );
        assert_eq!(
            r.type_vector(-1, 1, 1, h(MPI_INT)).unwrap_err().class(),
            MPI_ERR_COUNT
        );
        // MPI 4.1 §5.1: invalid or null old types are MPI_ERR_TYPE.
        assert_eq!(
            r.type_contiguous(1, h(MPI_DATATYPE_NULL)).unwrap_err(),
            Error::NullHandle {
                kind: HandleKind::Datatype
            }
        );
        let t = r.type_contiguous(2, h(MPI_INT)).unwrap();
        r.type_free(t).unwrap();
        assert_eq!(r.type_size(t).unwrap_err().class(), MPI_ERR_TYPE);
        assert_eq!(r.type_dup(t).unwrap_err().class(), MPI_ERR_TYPE);
        // MPI 4.1 §5.1.9: predefined datatypes cannot be freed.
        assert!(matches!(
            r.type_free(h(MPI_INT)).unwrap_err(),
            Error::PredefinedHandle { .. }
        ));
        // MPI 4.1 §5.1.9: freeing a type does not affect types built from it.
        let base = r.type_contiguous(2, h(MPI_INT)).unwrap();
        let outer = r.type_contiguous(2, base).unwrap();
        r.type_free(base).unwrap();
        assert_eq!(r.type_size(outer).unwrap(), 16);
        // MPI 4.1 §5.1.9: an uncommitted type cannot be used in communication.
        assert_eq!(r.type_blocks(outer, 1).unwrap_err().class(), MPI_ERR_TYPE);
    }

    #[test]
    fn names_of_derived_and_duplicated_types() {
        // MPI 4.1 §7.8: names; a new (derived or duplicated) type has none.
        let r = rt();
        let t = r.type_contiguous(2, h(MPI_INT)).unwrap();
        assert_eq!(r.type_get_name(t).unwrap(), "");
        r.type_set_name(t, "pair").unwrap();
        assert_eq!(r.type_get_name(t).unwrap(), "pair");
        let d = r.type_dup(t).unwrap();
        assert_eq!(r.type_get_name(d).unwrap(), "");
        let d2 = r.type_dup(h(MPI_INT)).unwrap();
        assert_eq!(r.type_get_name(d2).unwrap(), "");
        // The dup of a predefined type is committed and has its shape.
        assert!(r.type_is_committed(d2).unwrap());
        assert_eq!(shape(&r, d2), (4, 0, 4, 0, 4));
        let long = "x".repeat(300);
        r.type_set_name(t, &long).unwrap();
        assert_eq!(
            r.type_get_name(t).unwrap().len(),
            MPI_MAX_OBJECT_NAME as usize - 1
        );
    }

    #[test]
    fn check_op_accepts_predefined_ops_only() {
        // MPI 4.1 §6.9.2: the predefined reduction operations.
        assert!(check_op(h(MPI_SUM)).is_ok());
        assert!(check_op(h(MPI_NO_OP)).is_ok());
        assert_eq!(
            check_op(h(MPI_OP_NULL)).unwrap_err(),
            Error::NullHandle {
                kind: HandleKind::Op
            }
        );
        assert_eq!(check_op(h(0x25)).unwrap_err().class(), MPI_ERR_OP);
        assert_eq!(check_op(h(MPI_INT)).unwrap_err().class(), MPI_ERR_OP);
    }

    struct Recorder {
        log: Arc<Mutex<Vec<(i32, i64)>>>,
        fail: bool,
    }

    impl DeleteCallback for Recorder {
        fn delete(&self, call: &CallbackCall<'_>) -> std::result::Result<(), i32> {
            self.log
                .lock()
                .unwrap()
                .push((call.object.0, call.value.value().word));
            if self.fail {
                Err(MPI_ERR_OTHER)
            } else {
                Ok(())
            }
        }
        fn convention(&self) -> Convention {
            Convention::C
        }
    }

    fn recorder(log: &Arc<Mutex<Vec<(i32, i64)>>>, fail: bool) -> DeleteFn {
        DeleteFn::User(Box::new(Recorder {
            log: log.clone(),
            fail,
        }))
    }

    #[test]
    fn type_dup_copies_attributes_through_dup_fn() {
        // MPI 4.1 §7.7.4: MPI_Type_dup runs the copy callbacks; MPI_TYPE_DUP_FN copies the value,
        // MPI_TYPE_NULL_COPY_FN does not. Constructors copy nothing.
        let r = rt();
        let dup_kv = r
            .create_keyval(ObjectKind::Datatype, CopyFn::Dup, DeleteFn::Null, 0)
            .unwrap();
        let null_kv = r
            .create_keyval(ObjectKind::Datatype, CopyFn::Null, DeleteFn::Null, 0)
            .unwrap();
        let t = r.type_vector(2, 1, 3, h(MPI_INT)).unwrap();
        let obj = ObjRef::datatype(t.0);
        r.set_attr(obj, dup_kv, AttrWord::from_c_pointer(0x1234))
            .unwrap();
        r.set_attr(obj, null_kv, AttrWord::from_c_pointer(0x99))
            .unwrap();
        let d = r.type_dup(t).unwrap();
        let dobj = ObjRef::datatype(d.0);
        assert_eq!(
            r.get_attr(dobj, dup_kv).unwrap().map(|a| a.value.word),
            Some(0x1234)
        );
        assert_eq!(r.get_attr(dobj, null_kv).unwrap(), None);
        assert_eq!(shape(&r, d), shape(&r, t));
        let c = r.type_contiguous(1, t).unwrap();
        assert_eq!(r.get_attr(ObjRef::datatype(c.0), dup_kv).unwrap(), None);
        // Attributes on predefined datatypes are allowed and copied too.
        r.set_attr(
            ObjRef::datatype(MPI_INT),
            dup_kv,
            AttrWord::from_c_pointer(7),
        )
        .unwrap();
        let di = r.type_dup(h(MPI_INT)).unwrap();
        assert_eq!(
            r.get_attr(ObjRef::datatype(di.0), dup_kv)
                .unwrap()
                .map(|a| a.value.word),
            Some(7)
        );
    }

    struct FailingCopy;

    impl crate::core::callback::CopyCallback for FailingCopy {
        fn copy(&self, _: &CallbackCall<'_>) -> std::result::Result<Option<AttrWord>, i32> {
            Err(MPI_ERR_OTHER)
        }
        fn convention(&self) -> Convention {
            Convention::C
        }
    }

    #[test]
    fn failed_type_dup_deletes_what_it_copied() {
        // MPI 4.1 §7.7.2: a failing copy callback fails the dup; the attributes already copied
        // get their delete callbacks and no type is left behind.
        let r = rt();
        let log = Arc::new(Mutex::new(Vec::new()));
        let first = r
            .create_keyval(ObjectKind::Datatype, CopyFn::Dup, recorder(&log, false), 0)
            .unwrap();
        let failing = r
            .create_keyval(
                ObjectKind::Datatype,
                CopyFn::User(Box::new(FailingCopy)),
                DeleteFn::Null,
                0,
            )
            .unwrap();
        let t = r.type_contiguous(2, h(MPI_INT)).unwrap();
        r.set_attr(ObjRef::datatype(t.0), first, AttrWord::from_c_pointer(5))
            .unwrap();
        r.set_attr(ObjRef::datatype(t.0), failing, AttrWord::from_c_pointer(6))
            .unwrap();
        let before = r.lock().types.len();
        let e = r.type_dup(t).unwrap_err();
        assert_eq!(e.code(), MPI_ERR_OTHER);
        assert_eq!(r.lock().types.len(), before);
        let log = log.lock().unwrap();
        assert_eq!(log.len(), 1);
        assert_ne!(log[0].0, t.0, "the delete ran on the new type");
        assert_eq!(log[0].1, 5);
    }

    #[test]
    fn type_free_runs_delete_callbacks_last_set_first() {
        // MPI 4.1 §7.7.4: freeing a datatype deletes its attributes; §7.7.2: a failing delete
        // callback fails the free and leaves the type valid.
        let r = rt();
        let log = Arc::new(Mutex::new(Vec::new()));
        let k1 = r
            .create_keyval(ObjectKind::Datatype, CopyFn::Null, recorder(&log, false), 0)
            .unwrap();
        let k2 = r
            .create_keyval(ObjectKind::Datatype, CopyFn::Null, recorder(&log, false), 0)
            .unwrap();
        let t = r.type_contiguous(4, h(MPI_CHAR)).unwrap();
        let obj = ObjRef::datatype(t.0);
        r.set_attr(obj, k1, AttrWord::from_c_pointer(1)).unwrap();
        r.set_attr(obj, k2, AttrWord::from_c_pointer(2)).unwrap();
        r.type_free(t).unwrap();
        assert_eq!(*log.lock().unwrap(), vec![(t.0, 2), (t.0, 1)]);
        assert!(r.type_size(t).is_err());

        let flog = Arc::new(Mutex::new(Vec::new()));
        let kf = r
            .create_keyval(ObjectKind::Datatype, CopyFn::Null, recorder(&flog, true), 0)
            .unwrap();
        let u = r.type_contiguous(4, h(MPI_CHAR)).unwrap();
        r.set_attr(ObjRef::datatype(u.0), kf, AttrWord::from_c_pointer(3))
            .unwrap();
        assert_eq!(r.type_free(u).unwrap_err().code(), MPI_ERR_OTHER);
        assert_eq!(r.type_size(u).unwrap(), 4, "the type is still valid");
        assert!(r.get_attr(ObjRef::datatype(u.0), kf).unwrap().is_some());
        assert_eq!(flog.lock().unwrap().len(), 1);
    }
}
