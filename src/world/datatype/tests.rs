//! Tests of the datatypes: every constructor's size and bounds, with the standard's examples,
//! and the caching semantics of dup and free.

use super::layout::FINT;
use super::predefined::predefined_types;
use super::*;
use crate::caching::callback::{CallbackCall, Convention, CopyFn, DeleteCallback, DeleteFn};
use crate::caching::convert::AttrWord;
use crate::world::ObjectKind;
use std::sync::{Arc, Mutex};

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
        (MPI_CXX_FLOAT_COMPLEX, 8, 8),
        (MPI_CXX_DOUBLE_COMPLEX, 16, 16),
        (MPI_CXX_LONG_DOUBLE_COMPLEX, 32, 32),
        (MPI_CXX_BOOL, 1, 1),
        (MPI_LOGICAL1, 1, 1),
        (MPI_LOGICAL2, 2, 2),
        (MPI_LOGICAL4, 4, 4),
        (MPI_LOGICAL8, 8, 8),
        (MPI_LOGICAL16, 16, 16),
        (MPI_REAL2, 2, 2),
        (MPI_COMPLEX4, 4, 4),
        (MPI_INTEGER1, 1, 1),
        (MPI_INTEGER16, 16, 16),
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

/// Every datatype constant of src/consts.rs (the MPI 5.0 ABI's list) is a real predefined
/// datatype, named as its constant (or as the name it aliases: `MPI_LONG_LONG`, `MPI_C_COMPLEX`).
#[test]
fn every_datatype_constant_is_a_datatype() {
    // MPI 4.1 §3.2.2, §5.1.16, §19.1.9: the predefined datatypes and their names.
    let r = rt();
    let consts = include_str!("../../consts.rs");
    let start = consts.find("pub const MPI_DATATYPE_NULL").unwrap();
    let end = consts.find("// ---- datatype combiners").unwrap();
    let mut seen = 0;
    for line in consts[start..end].lines() {
        let Some(rest) = line.strip_prefix("pub const ") else {
            continue;
        };
        let (name, value) = rest.split_once(": i32 = ").unwrap();
        let value =
            i32::from_str_radix(value.trim_end_matches(';').trim_start_matches("0x"), 16).unwrap();
        if name == "MPI_DATATYPE_NULL" {
            assert_eq!(value, MPI_DATATYPE_NULL);
            continue;
        }
        let got = r.type_get_name(h(value)).unwrap();
        let alias = matches!(name, "MPI_LONG_LONG" | "MPI_C_COMPLEX");
        assert!(got == name || alias, "{name} ({value:#x}) is named {got}");
        assert!(r.type_size(h(value)).unwrap() > 0, "{name} has a size");
        seen += 1;
    }
    assert_eq!(seen, predefined_types().len() + 2, "two aliases");
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
            .push((call.object.int(), call.value.value.word));
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

impl crate::caching::callback::CopyCallback for FailingCopy {
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
