//! The typemap of a datatype and the arithmetic of the constructors (MPI 4.1 §5.1.2–§5.1.7):
//! a small tree flattened on demand into byte runs, with the standard's bound rules.

use super::external32::Elem;
use crate::consts::*;
use crate::error::{Error, Result};
use std::sync::Arc;

/// The size of the Fortran INTEGER and LOGICAL (`MPI_INTEGER`, `MPI_LOGICAL`, each half of
/// `MPI_2INTEGER`): 4 bytes, or 8 with the `fortran-integer-8` feature (programs compiled with
/// -fdefault-integer-8). REAL and DOUBLE PRECISION do not change with that flag.
pub(super) const FINT: i64 = std::mem::size_of::<crate::caching::convert::FortranInteger>() as i64;

/// The typemap of one element, as a tree whose leaves are runs of bytes.
#[derive(Debug)]
enum Map {
    /// `len` contiguous bytes at displacement 0, whole elements of one basic kind (what
    /// external32 converts, `external32.rs`).
    Bytes(i64, Elem),
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
    /// Bytes of one element in external32.
    fn external32_size(&self) -> Result<i64> {
        match self {
            Map::Bytes(len, e) => mul(len / i64::from(e.native), i64::from(e.external)),
            Map::Repeat { count, child, .. } => mul(*count, child.external32_size()?),
            Map::Seq(parts) => parts
                .iter()
                .try_fold(0, |a, (_, m)| add(a, m.external32_size()?)),
        }
    }

    fn empty() -> Arc<Map> {
        Arc::new(Map::Seq(Vec::new()))
    }

    /// `count` copies of `child` at `stride`, collapsed to one run when they touch.
    fn repeat(count: i64, stride: i64, child: &Arc<Map>) -> Arc<Map> {
        match (count, &**child) {
            (1, _) => child.clone(),
            (_, Map::Bytes(len, e)) if *len == stride => Arc::new(Map::Bytes(len * count, *e)),
            _ => Arc::new(Map::Repeat {
                count,
                stride,
                child: child.clone(),
            }),
        }
    }

    /// Calls `f(offset, len, elem)` for every run of bytes, in typemap order.
    fn visit(&self, base: i64, f: &mut impl FnMut(i64, i64, Elem)) {
        match self {
            Map::Bytes(len, e) => {
                if *len > 0 {
                    f(base, *len, *e)
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
    pub(super) fn basic(size: i64, align: i64) -> Layout {
        Layout::pair(&[(0, size)], size, align)
    }

    /// A type made of runs `(offset, len)`, with the given extent (from 0) and alignment.
    /// Its elements are bytes until `typed` says what they are.
    pub(super) fn pair(parts: &[(i64, i64)], extent: i64, align: i64) -> Layout {
        let map = if let [(0, len)] = parts {
            Arc::new(Map::Bytes(*len, Elem::BYTE))
        } else {
            Arc::new(Map::Seq(
                parts
                    .iter()
                    .map(|&(off, len)| (off, Arc::new(Map::Bytes(len, Elem::BYTE))))
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
                .visit(i.wrapping_mul(ext), &mut |off, len, _| match &mut cur {
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

    /// A predefined type's layout with its runs (in typemap order) made of `elems`; a run of
    /// several elements (a complex) takes the same kind.
    pub(super) fn typed(mut self, elems: &[Elem]) -> Layout {
        let leaf = |len: i64, e: Elem| Arc::new(Map::Bytes(len, e));
        self.map = match (&*self.map, elems) {
            (Map::Bytes(len, _), [e, ..]) => leaf(*len, *e),
            (Map::Seq(parts), _) if parts.len() == elems.len() => Arc::new(Map::Seq(
                parts
                    .iter()
                    .zip(elems)
                    .map(|((off, m), e)| match &**m {
                        Map::Bytes(len, _) => (*off, leaf(*len, *e)),
                        _ => (*off, m.clone()),
                    })
                    .collect(),
            )),
            _ => self.map,
        };
        self
    }

    /// Calls `f(offset, len, elem)` for each run of whole basic elements of `count` consecutive
    /// elements, in typemap order (not merged: runs of different kinds convert differently).
    pub fn for_each_run(&self, count: i64, mut f: impl FnMut(i64, i64, Elem)) {
        let ext = self.extent();
        for i in 0..count {
            self.map.visit(i.wrapping_mul(ext), &mut f);
        }
    }

    /// The bytes `count` elements take in the external32 representation (MPI 4.1 §14.5.2).
    pub fn external32_size(&self, count: i64) -> Result<i64> {
        mul(count, self.map.external32_size()?)
    }

    /// The byte runs `(offset, len)` of `count` consecutive elements, merged where they touch.
    pub fn blocks(&self, count: i64) -> Vec<(i64, i64)> {
        let mut out = Vec::new();
        self.for_each_block(count, |o, l| out.push((o, l)));
        out
    }
}

// ---- arithmetic that reports overflow instead of wrapping ------------------------------------

pub(super) fn too_large() -> Error {
    Error::invalid(
        MPI_ERR_ARG,
        "the datatype would be larger than an MPI_Aint can describe",
    )
}

pub(super) fn mul(a: i64, b: i64) -> Result<i64> {
    a.checked_mul(b).ok_or_else(too_large)
}

pub(super) fn add(a: i64, b: i64) -> Result<i64> {
    a.checked_add(b).ok_or_else(too_large)
}

pub(super) fn check_count(count: i64) -> Result<()> {
    if count < 0 {
        return Err(Error::invalid(
            MPI_ERR_COUNT,
            format!("count {count} is negative"),
        ));
    }
    Ok(())
}

pub(super) fn check_blocklength(bl: i64) -> Result<()> {
    if bl < 0 {
        return Err(Error::invalid(
            MPI_ERR_ARG,
            format!("blocklength {bl} is negative"),
        ));
    }
    Ok(())
}

/// `count` copies of `old`, the i-th at byte displacement `disp + i * stride`.
pub(super) struct Block<'a> {
    pub(super) disp: i64,
    pub(super) count: i64,
    pub(super) stride: i64,
    pub(super) old: &'a Layout,
}

/// The layout of a typemap made of blocks (MPI 4.1 §5.1.2–§5.1.7). Each copy of an old type
/// contributes its bounds shifted; for a struct (`is_struct`), explicit bounds of some members
/// win over the others', and without an explicit upper bound the extent is rounded up to the
/// largest alignment (ε).
pub(super) fn combine(blocks: &[Block<'_>], is_struct: bool) -> Result<Layout> {
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
pub(super) fn contiguous(count: i64, old: &Layout) -> Result<Layout> {
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
pub(super) fn hvector(count: i64, blocklength: i64, stride: i64, old: &Layout) -> Result<Layout> {
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
pub(super) fn hindexed(
    blocklengths: &[i64],
    displacements: &[i64],
    old: &Layout,
) -> Result<Layout> {
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
pub(super) fn scale(displacements: &[i64], old: &Layout) -> Result<Vec<i64>> {
    displacements
        .iter()
        .map(|&d| mul(d, old.extent()))
        .collect()
}

pub(super) fn subarray(
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

pub(super) fn resized(old: &Layout, lb: i64, extent: i64) -> Result<Layout> {
    let mut l = old.clone();
    l.lb = lb;
    l.ub = add(lb, extent)?;
    l.sticky_lb = true;
    l.sticky_ub = true;
    l.empty = false;
    Ok(l)
}

/// The index runs `(start, length)` one process coordinate owns along one darray dimension
/// (MPI 4.1 §5.1.4): all of it (`MPI_DISTRIBUTE_NONE`), one block of `darg` (default
/// ⌈gsize/psize⌉), or blocks of `darg` (default 1) dealt round-robin.
pub(super) fn darray_runs(
    dim: usize,
    gsize: i64,
    distrib: i32,
    darg: i64,
    psize: i64,
    coord: i64,
) -> Result<Vec<(i64, i64)>> {
    let bad = |what: String| {
        Err(Error::invalid(
            MPI_ERR_ARG,
            format!("dimension {dim}: {what}"),
        ))
    };
    if gsize < 1 {
        return bad(format!("array_of_gsizes = {gsize} is not positive"));
    }
    if psize < 1 {
        return bad(format!("array_of_psizes = {psize} is not positive"));
    }
    let dflt = darg == i64::from(MPI_DISTRIBUTE_DFLT_DARG);
    if !dflt && darg < 1 {
        return bad(format!(
            "array_of_dargs = {darg} is neither positive nor MPI_DISTRIBUTE_DFLT_DARG"
        ));
    }
    match distrib {
        MPI_DISTRIBUTE_NONE => {
            if psize != 1 {
                return bad(format!(
                    "MPI_DISTRIBUTE_NONE needs array_of_psizes = 1, not {psize}"
                ));
            }
            Ok(vec![(0, gsize)])
        }
        MPI_DISTRIBUTE_BLOCK => {
            let b = if dflt {
                (gsize + psize - 1) / psize
            } else {
                darg
            };
            if mul(b, psize)? < gsize {
                return bad(format!(
                    "block {b} times {psize} processes does not cover {gsize}"
                ));
            }
            let start = mul(coord, b)?;
            let len = (gsize - start).clamp(0, b);
            Ok(if len > 0 { vec![(start, len)] } else { vec![] })
        }
        MPI_DISTRIBUTE_CYCLIC => {
            let b = if dflt { 1 } else { darg };
            let step = mul(b, psize)?;
            let mut runs = Vec::new();
            let mut start = mul(coord, b)?;
            while start < gsize {
                crate::primitives::alloc::try_push(&mut runs, (start, b.min(gsize - start)))?;
                start = add(start, step)?;
            }
            Ok(runs)
        }
        other => bad(format!(
            "array_of_distribs = {other} is not an MPI_DISTRIBUTE_ value"
        )),
    }
}

/// The darray typemap (MPI 4.1 §5.1.4): this process's elements in array order, lower bound 0
/// and the extent of the whole global array. `runs[d]` are dimension `d`'s owned index runs.
pub(super) fn darray(
    gsizes: &[i64],
    runs: &[Vec<(i64, i64)>],
    order: i32,
    old: &Layout,
) -> Result<Layout> {
    let n = gsizes.len();
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
    let mut stride = old.extent();
    let mut layout: Option<Layout> = None;
    for &d in dims.iter().rev() {
        let inner = layout.as_ref().unwrap_or(old);
        let blocks = runs[d]
            .iter()
            .map(|&(start, len)| {
                Ok(Block {
                    disp: mul(start, stride)?,
                    count: len,
                    stride,
                    old: inner,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        layout = Some(combine(&blocks, false)?);
        stride = mul(stride, gsizes[d])?;
    }
    let mut placed = layout.expect("at least one dimension");
    placed.lb = 0;
    placed.ub = stride;
    placed.sticky_lb = true;
    placed.sticky_ub = true;
    placed.empty = false;
    Ok(placed)
}
