//! The getters' entry points (hand-written on x86-64,
//! src/caching/store/getters_x86_64.rs) answer every call as the
//! library's Rust path does: for hits and misses through page 0 and the other pages, values
//! written from C, by `MPI_COMM_SET_ATTR` and by `MPI_ATTR_PUT`, and for every call they leave to
//! the full path (freed, forged, NULL and wrong-kind handles, dead, predefined, foreign-kind and
//! garbage keyvals, keyval slots past the inline pages, NULL arguments); and for keyvals the user
//! freed while attributes still use them, before and after their last attribute goes.
//!
//! Rules checked: MPI 4.1 §7.7.2 (a get returns the attribute and flag = true, or flag = false
//! when none is set; a freed keyval names the attributes it has until the last is deleted or
//! freed with its object, and is invalid after), §7.7.1 and §9.4 (`MPI_ERR_KEYVAL` for an invalid keyval or one of another
//! kind, `MPI_ERR_COMM` / `MPI_ERR_TYPE` / `MPI_ERR_WIN` for invalid handles, `MPI_ERR_ARG` for
//! NULL output arguments), §20.3.7 (the C view of a Fortran-written value is a pointer to it;
//! `MPI_ATTR_GET` gets the low-order INTEGER).
// The Fortran routines here take 4-byte INTEGERs; the 8-byte build has tests/programs/ilp64.rs.
#![cfg(not(feature = "fortran-integer-8"))]

use mpicache::capi::attr::*;
use mpicache::capi::comm::{MPI_Comm_dup, MPI_Comm_free};
use mpicache::capi::datatype::{MPI_Type_contiguous, MPI_Type_free};
use mpicache::capi::errhandler::{MPI_Comm_set_errhandler, MPI_Win_set_errhandler};
use mpicache::capi::init::MPI_Init;
use mpicache::capi::win::{MPI_Win_create, MPI_Win_free};
use mpicache::consts::*;
use mpicache::fortran::attr::{
    mpi_attr_get_, mpi_attr_put_, mpi_comm_get_attr_, mpi_comm_set_attr_, mpi_type_get_attr_,
    mpi_win_get_attr_,
};
use mpicache::world::{ObjRef, ObjectKind, Runtime};
use std::ffi::{c_int, c_void};

mod common;

/// What a C getter returned.
#[derive(Debug, PartialEq, Eq)]
enum Answer {
    Value(usize),
    NotSet,
    Error(c_int),
}

/// What the Rust path answers for a C reader.
fn expected_c(obj: ObjRef, keyval: i32) -> Answer {
    match Runtime::global().get_attr(obj, keyval) {
        Ok(Some(read)) => Answer::Value(read.c_view),
        Ok(None) => Answer::NotSet,
        Err(e) => Answer::Error(e.code()),
    }
}

/// What the Rust path answers for a Fortran reader: the word.
fn expected_word(obj: ObjRef, keyval: i32) -> (Option<i64>, c_int) {
    match Runtime::global().get_attr(obj, keyval) {
        Ok(Some(read)) => (Some(read.value.word), MPI_SUCCESS),
        Ok(None) => (None, MPI_SUCCESS),
        Err(e) => (None, e.code()),
    }
}

type CGetter = unsafe extern "C" fn(c_int, c_int, *mut c_void, *mut c_int) -> c_int;

unsafe fn c_get(getter: CGetter, handle: c_int, keyval: c_int) -> Answer {
    let mut value: *mut c_void = std::ptr::null_mut();
    let mut flag: c_int = -7;
    let rc = unsafe {
        getter(
            handle,
            keyval,
            (&mut value as *mut *mut c_void).cast(),
            &mut flag,
        )
    };
    match (rc, flag) {
        (MPI_SUCCESS, 1) => Answer::Value(value as usize),
        (MPI_SUCCESS, 0) => {
            assert!(value.is_null(), "flag = false wrote the value");
            Answer::NotSet
        }
        (MPI_SUCCESS, f) => panic!("flag {f}"),
        (rc, _) => Answer::Error(rc),
    }
}

type FGetter = unsafe extern "C" fn(*const c_int, *const c_int, *mut isize, *mut c_int, *mut c_int);
type FIntGetter =
    unsafe extern "C" fn(*const c_int, *const c_int, *mut c_int, *mut c_int, *mut c_int);

/// A Fortran `*_GET_ATTR`: (value if FLAG, IERROR); also called without IERROR (as an
/// `mpi_f08` call may), which must answer the same.
unsafe fn f_get(getter: FGetter, handle: c_int, keyval: c_int) -> (Option<i64>, c_int) {
    let mut answers = Vec::new();
    for with_ierror in [true, false] {
        let mut value: isize = -99;
        let mut flag: c_int = -7;
        let mut ierror: c_int = -7;
        let ierror_arg = if with_ierror {
            &mut ierror as *mut c_int
        } else {
            std::ptr::null_mut()
        };
        unsafe { getter(&handle, &keyval, &mut value, &mut flag, ierror_arg) };
        let got = match flag {
            1 => Some(value as i64),
            _ => {
                assert_eq!(value, -99, "FLAG = .FALSE. wrote the value");
                None
            }
        };
        answers.push((got, if with_ierror { ierror } else { MPI_SUCCESS }));
    }
    if answers[0].1 == MPI_SUCCESS {
        assert_eq!(answers[0], answers[1], "with and without IERROR");
    }
    answers.swap_remove(0)
}

unsafe fn f_attr_get(getter: FIntGetter, handle: c_int, keyval: c_int) -> (Option<i32>, c_int) {
    let mut value: c_int = -99;
    let mut flag: c_int = -7;
    let mut ierror: c_int = -7;
    unsafe { getter(&handle, &keyval, &mut value, &mut flag, &mut ierror) };
    ((flag == 1).then_some(value), ierror)
}

/// MPI_Init once for the tests of this file, with errors returned.
fn init() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| unsafe {
        assert_eq!(
            MPI_Init(std::ptr::null_mut(), std::ptr::null_mut()),
            MPI_SUCCESS
        );
        for c in [MPI_COMM_WORLD, MPI_COMM_SELF] {
            assert_eq!(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN), MPI_SUCCESS);
        }
    });
}

/// Every getter, C and Fortran, against the Rust path, for every handle and keyval given;
/// returns the number of calls compared.
unsafe fn compare_all(
    comms: &[c_int],
    types: &[c_int],
    wins: &[c_int],
    keyvals: &[c_int],
) -> usize {
    let mut checked = 0;
    for &h in comms {
        for &k in keyvals {
            let obj = ObjRef::comm(h);
            for getter in [MPI_Comm_get_attr as CGetter, MPI_Attr_get as CGetter] {
                assert_eq!(
                    unsafe { c_get(getter, h, k) },
                    expected_c(obj, k),
                    "comm {h:#x} keyval {k:#x}"
                );
            }
            let (word, code) = expected_word(obj, k);
            assert_eq!(
                unsafe { f_get(mpi_comm_get_attr_, h, k) },
                (word, code),
                "MPI_COMM_GET_ATTR comm {h:#x} keyval {k:#x}"
            );
            // MPI_ATTR_GET: the low-order INTEGER of the word.
            assert_eq!(
                unsafe { f_attr_get(mpi_attr_get_, h, k) },
                (word.map(|w| w as i32), code),
                "MPI_ATTR_GET comm {h:#x} keyval {k:#x}"
            );
            checked += 4;
        }
    }
    for (kind, getter, fgetter, handles) in [
        (
            ObjectKind::Datatype,
            MPI_Type_get_attr as CGetter,
            mpi_type_get_attr_ as FGetter,
            types,
        ),
        (
            ObjectKind::Win,
            MPI_Win_get_attr as CGetter,
            mpi_win_get_attr_ as FGetter,
            wins,
        ),
    ] {
        for &h in handles {
            for &k in keyvals {
                let obj = ObjRef::of_int(kind, h);
                assert_eq!(
                    unsafe { c_get(getter, h, k) },
                    expected_c(obj, k),
                    "{kind} {h:#x} keyval {k:#x}"
                );
                assert_eq!(
                    unsafe { f_get(fgetter, h, k) },
                    expected_word(obj, k),
                    "{kind} {h:#x} keyval {k:#x}"
                );
                checked += 2;
            }
        }
    }
    checked
}

#[test]
fn getters_answer_as_the_rust_path() {
    init();
    unsafe {
        let mut comm: c_int = 0;
        let mut gone: c_int = 0;
        assert_eq!(MPI_Comm_dup(MPI_COMM_WORLD, &mut comm), MPI_SUCCESS);
        assert_eq!(MPI_Comm_dup(MPI_COMM_WORLD, &mut gone), MPI_SUCCESS);
        let gone_handle = gone;
        assert_eq!(MPI_Comm_free(&mut gone), MPI_SUCCESS);
        let mut datatype: c_int = 0;
        assert_eq!(MPI_Type_contiguous(2, MPI_INT, &mut datatype), MPI_SUCCESS);
        let mut buf = [0u8; 64];
        let mut win: c_int = 0;
        assert_eq!(
            MPI_Win_create(
                buf.as_mut_ptr().cast(),
                64,
                1,
                MPI_INFO_NULL,
                MPI_COMM_WORLD,
                &mut win
            ),
            MPI_SUCCESS
        );

        // Communicator keyvals in page 0 and past it (slots above 64), set three ways.
        let mut ckeys = Vec::new();
        for i in 0..160 {
            let mut k = 0;
            assert_eq!(
                MPI_Comm_create_keyval(None, None, &mut k, std::ptr::null_mut()),
                MPI_SUCCESS
            );
            match i % 4 {
                0 => assert_eq!(
                    MPI_Comm_set_attr(comm, k, (0x1000 + i) as *mut c_void),
                    MPI_SUCCESS
                ),
                1 => {
                    let value: isize = (1 << 40) + i as isize;
                    let mut ierror = -1;
                    mpi_comm_set_attr_(&comm, &k, &value, &mut ierror);
                    assert_eq!(ierror, MPI_SUCCESS);
                }
                2 => {
                    let value: c_int = -5 - i;
                    let mut ierror = -1;
                    mpi_attr_put_(&comm, &k, &value, &mut ierror);
                    assert_eq!(ierror, MPI_SUCCESS);
                }
                _ => {} // not set
            }
            ckeys.push(k);
        }
        // MPI 4.1 §7.7.2: keyvals freed while their attribute on `comm` stays (set from C, by
        // MPI_COMM_SET_ATTR, by MPI_ATTR_PUT; in page 0 and past it) still name it; one that
        // no attribute uses (not set) dies at its free.
        let freed_held = [ckeys[4], ckeys[5], ckeys[6], ckeys[132]];
        let dead = ckeys[7];
        for k in freed_held.iter().chain([&dead]) {
            let mut var = *k;
            assert_eq!(MPI_Comm_free_keyval(&mut var), MPI_SUCCESS);
            assert_eq!(var, MPI_KEYVAL_INVALID);
        }

        // A window starts with MPI_ERRORS_ARE_FATAL whatever its communicator has (§9.3).
        assert_eq!(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN), MPI_SUCCESS);

        let mut tkey = 0;
        let mut wkey = 0;
        let mut tfreed = 0;
        let mut wfreed = 0;
        for k in [&mut tkey, &mut tfreed] {
            assert_eq!(
                MPI_Type_create_keyval(None, None, k, std::ptr::null_mut()),
                MPI_SUCCESS
            );
        }
        for k in [&mut wkey, &mut wfreed] {
            assert_eq!(
                MPI_Win_create_keyval(None, None, k, std::ptr::null_mut()),
                MPI_SUCCESS
            );
        }
        assert_eq!(
            MPI_Type_set_attr(datatype, tkey, 7 as *mut c_void),
            MPI_SUCCESS
        );
        assert_eq!(MPI_Win_set_attr(win, wkey, 9 as *mut c_void), MPI_SUCCESS);
        assert_eq!(
            MPI_Type_set_attr(datatype, tfreed, 17 as *mut c_void),
            MPI_SUCCESS
        );
        assert_eq!(
            MPI_Win_set_attr(win, wfreed, 19 as *mut c_void),
            MPI_SUCCESS
        );
        let (tfreed_number, wfreed_number) = (tfreed, wfreed);
        assert_eq!(MPI_Type_free_keyval(&mut tfreed), MPI_SUCCESS);
        assert_eq!(MPI_Win_free_keyval(&mut wfreed), MPI_SUCCESS);

        assert_eq!(
            MPI_Comm_set_attr(MPI_COMM_WORLD, ckeys[3], 3 as *mut c_void),
            MPI_SUCCESS
        );

        let mut keyvals: Vec<c_int> = ckeys.clone();
        keyvals.extend([
            tkey,
            wkey,
            tfreed_number,
            wfreed_number,
            MPI_TAG_UB,
            MPI_HOST,
            MPI_WIN_BASE,
            MPI_KEYVAL_INVALID,
            0,
            1,
            -1,
            i32::MAX,
            i32::MIN,
            dead ^ (1 << 18),     // another generation of a dead keyval's slot
            ckeys[0] ^ (1 << 18), // another generation of a live keyval's slot
            ckeys[0] & !(3 << 26) | (2 << 26), // a communicator keyval's slot as a datatype's
            freed_held[0] & !(3 << 26) | (3 << 26), // a freed one's slot as a window's
        ]);
        let comms = [
            comm,
            MPI_COMM_WORLD,
            MPI_COMM_SELF,
            gone_handle,
            MPI_COMM_NULL,
            datatype,
            0,
            -1,
            comm ^ (1 << 24), // another generation of a live communicator
        ];
        let types = [datatype, MPI_INT, MPI_DATATYPE_NULL, comm, win, 0];
        let wins = [win, MPI_WIN_NULL, comm, datatype, 0, -1];
        assert!(compare_all(&comms, &types, &wins, &keyvals) > 5000);

        // Answers seen above, spelled out: a hit through page 0, one past it, a value from
        // Fortran seen from C (a pointer to it), and the errors.
        assert_eq!(
            c_get(MPI_Comm_get_attr, comm, ckeys[0]),
            Answer::Value(0x1000)
        );
        assert_eq!(
            c_get(MPI_Comm_get_attr, comm, ckeys[128]),
            Answer::Value(0x1000 + 128)
        );
        assert_eq!(c_get(MPI_Comm_get_attr, comm, ckeys[3]), Answer::NotSet);
        assert_eq!(c_get(MPI_Comm_get_attr, comm, ckeys[131]), Answer::NotSet);
        match c_get(MPI_Comm_get_attr, comm, ckeys[129]) {
            Answer::Value(p) => assert_eq!(*(p as *const i64), (1 << 40) + 129),
            other => panic!("{other:?}"),
        }
        match c_get(MPI_Comm_get_attr, comm, ckeys[130]) {
            Answer::Value(p) => assert_eq!(*(p as *const c_int), -5 - 130),
            other => panic!("{other:?}"),
        }
        // A freed keyval with its attribute: a hit where it is set (every reader), a miss
        // elsewhere; one that died at its free: MPI_ERR_KEYVAL.
        assert_eq!(
            c_get(MPI_Comm_get_attr, comm, freed_held[0]),
            Answer::Value(0x1004)
        );
        assert_eq!(
            c_get(MPI_Attr_get, comm, freed_held[3]),
            Answer::Value(0x1000 + 132)
        );
        assert_eq!(
            f_get(mpi_comm_get_attr_, comm, freed_held[1]),
            (Some((1 << 40) + 5), MPI_SUCCESS)
        );
        assert_eq!(
            f_attr_get(mpi_attr_get_, comm, freed_held[2]),
            (Some(-5 - 6), MPI_SUCCESS)
        );
        match c_get(MPI_Comm_get_attr, comm, freed_held[1]) {
            Answer::Value(p) => assert_eq!(*(p as *const i64), (1 << 40) + 5),
            other => panic!("{other:?}"),
        }
        for k in freed_held {
            assert_eq!(c_get(MPI_Comm_get_attr, MPI_COMM_WORLD, k), Answer::NotSet);
            assert_eq!(
                f_get(mpi_comm_get_attr_, MPI_COMM_SELF, k),
                (None, MPI_SUCCESS)
            );
        }
        assert_eq!(
            c_get(MPI_Type_get_attr, datatype, tfreed_number),
            Answer::Value(17)
        );
        assert_eq!(
            c_get(MPI_Type_get_attr, MPI_INT, tfreed_number),
            Answer::NotSet
        );
        assert_eq!(
            f_get(mpi_win_get_attr_, win, wfreed_number),
            (Some(19), MPI_SUCCESS)
        );
        assert_eq!(
            c_get(MPI_Comm_get_attr, comm, dead),
            Answer::Error(MPI_ERR_KEYVAL)
        );
        assert_eq!(
            c_get(MPI_Comm_get_attr, comm, tkey),
            Answer::Error(MPI_ERR_KEYVAL)
        );
        assert_eq!(
            c_get(MPI_Comm_get_attr, gone_handle, ckeys[0]),
            Answer::Error(MPI_ERR_COMM)
        );
        assert_eq!(
            f_get(mpi_comm_get_attr_, comm, ckeys[129]),
            (Some((1 << 40) + 129), MPI_SUCCESS)
        );
        assert_eq!(
            f_attr_get(mpi_attr_get_, comm, ckeys[129]),
            (Some(129), MPI_SUCCESS)
        );
        assert_eq!(
            f_get(mpi_comm_get_attr_, comm, ckeys[130]),
            (Some(-5 - 130), MPI_SUCCESS)
        );

        // NULL output arguments: MPI_ERR_ARG, nothing written.
        let mut flag: c_int = -7;
        let mut value: *mut c_void = std::ptr::null_mut();
        let value_arg = (&mut value as *mut *mut c_void).cast();
        for getter in [MPI_Comm_get_attr as CGetter, MPI_Attr_get as CGetter] {
            assert_eq!(
                getter(comm, ckeys[0], std::ptr::null_mut(), &mut flag),
                MPI_ERR_ARG
            );
            assert_eq!(
                getter(comm, ckeys[0], value_arg, std::ptr::null_mut()),
                MPI_ERR_ARG
            );
        }
        assert_eq!(flag, -7);
        assert!(value.is_null());
        let mut ierror = -7;
        mpi_comm_get_attr_(
            &comm,
            &ckeys[0],
            std::ptr::null_mut(),
            &mut flag,
            &mut ierror,
        );
        assert_eq!(ierror, MPI_ERR_ARG);

        // The freed keyvals' hits and misses take no lock: answered while another thread
        // holds the runtime's lock (the miss on MPI_COMM_WORLD, which has an attribute: an
        // object with none bound is left to the locked path, whatever the keyval).
        let held = [freed_held[0], freed_held[3], tfreed_number, wfreed_number];
        let (tx, rx) = std::sync::mpsc::channel();
        let guard = Runtime::global().lock();
        let reader = std::thread::spawn(move || {
            let answers = [
                c_get(MPI_Comm_get_attr, comm, held[0]),
                c_get(MPI_Attr_get, comm, held[1]),
                c_get(MPI_Comm_get_attr, MPI_COMM_WORLD, held[0]),
                c_get(MPI_Type_get_attr, datatype, held[2]),
                c_get(MPI_Win_get_attr, win, held[3]),
            ];
            let fortran = f_get(mpi_comm_get_attr_, comm, held[1]);
            tx.send((answers, fortran)).unwrap();
        });
        let lock_free = rx.recv_timeout(std::time::Duration::from_secs(20));
        drop(guard);
        reader.join().unwrap();
        assert_eq!(
            lock_free.expect("a get of a freed keyval's attribute waited for the lock"),
            (
                [
                    Answer::Value(0x1004),
                    Answer::Value(0x1000 + 132),
                    Answer::NotSet,
                    Answer::Value(17),
                    Answer::Value(19)
                ],
                (Some(0x1000 + 132), MPI_SUCCESS)
            )
        );

        // MPI 4.1 §7.7.2: the last attribute goes (a delete, an object's free): the keyval is
        // dead and its number invalid for every getter.
        let mut datatype_var = datatype;
        let mut win_var = win;
        for k in freed_held {
            assert_eq!(MPI_Comm_delete_attr(comm, k), MPI_SUCCESS);
        }
        assert_eq!(MPI_Type_free(&mut datatype_var), MPI_SUCCESS);
        assert_eq!(MPI_Win_delete_attr(win, wfreed_number), MPI_SUCCESS);
        let mut datatype2: c_int = 0;
        assert_eq!(MPI_Type_contiguous(3, MPI_INT, &mut datatype2), MPI_SUCCESS);
        let types = [datatype2, datatype, MPI_INT, comm, win];
        let wins = [win, MPI_WIN_NULL, comm];
        assert!(compare_all(&comms, &types, &wins, &keyvals) > 3000);
        for k in freed_held {
            for getter in [MPI_Comm_get_attr as CGetter, MPI_Attr_get as CGetter] {
                assert_eq!(c_get(getter, comm, k), Answer::Error(MPI_ERR_KEYVAL));
            }
            assert_eq!(
                f_get(mpi_comm_get_attr_, MPI_COMM_WORLD, k),
                (None, MPI_ERR_KEYVAL)
            );
            assert_eq!(f_attr_get(mpi_attr_get_, comm, k), (None, MPI_ERR_KEYVAL));
        }
        assert_eq!(
            c_get(MPI_Type_get_attr, datatype2, tfreed_number),
            Answer::Error(MPI_ERR_KEYVAL)
        );
        assert_eq!(
            f_get(mpi_win_get_attr_, win, wfreed_number),
            (None, MPI_ERR_KEYVAL)
        );
        assert_eq!(c_get(MPI_Win_get_attr, win, wkey), Answer::Value(9));
        assert_eq!(MPI_Type_free(&mut datatype2), MPI_SUCCESS);
        assert_eq!(MPI_Win_free(&mut win_var), MPI_SUCCESS);
    }
}

/// Many attributes on one object with keyvals far apart (slots past 16,384): the table grows
/// and probes past collisions, and every getter gives the Rust path's answers.
#[test]
fn keyvals_far_apart_in_a_grown_table() {
    init();
    unsafe {
        let mut comm: c_int = 0;
        assert_eq!(MPI_Comm_dup(MPI_COMM_WORLD, &mut comm), MPI_SUCCESS);
        let mut keys = Vec::new();
        for _ in 0..16_500 {
            let mut k = 0;
            assert_eq!(
                MPI_Comm_create_keyval(None, None, &mut k, std::ptr::null_mut()),
                MPI_SUCCESS
            );
            keys.push(k);
        }
        let far: Vec<c_int> = keys
            .iter()
            .copied()
            .filter(|k| (k & 0xffff) >= 16_384)
            .collect();
        assert!(!far.is_empty(), "no keyval slot past 16,384");
        for (i, &k) in far.iter().enumerate() {
            if i % 2 == 0 {
                assert_eq!(
                    MPI_Comm_set_attr(comm, k, (i + 1) as *mut c_void),
                    MPI_SUCCESS
                );
            }
        }
        for (i, &k) in far.iter().enumerate() {
            let want = if i % 2 == 0 {
                Answer::Value(i + 1)
            } else {
                Answer::NotSet
            };
            assert_eq!(c_get(MPI_Comm_get_attr, comm, k), want);
            assert_eq!(
                f_get(mpi_comm_get_attr_, comm, k),
                ((i % 2 == 0).then_some(i as i64 + 1), MPI_SUCCESS)
            );
        }
    }
}

/// The first bytes of every hand-written getter: `mov [rsp - 8], rcx`, which the compiler's
/// code for the Rust getters never starts with (they do not touch the red zone first).
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
const ASM_PROLOGUE: [u8; 5] = [0x48, 0x89, 0x4c, 0x24, 0xf8];

/// Issue 16: the getters linked here are the hand-written ones exactly when the feature
/// `asm-getters` is on (ci/test.sh runs this file both ways), for C and Fortran.
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
#[test]
fn linked_getters_are_the_assembly_exactly_with_the_feature() {
    let getters: [(&str, *const u8); 5] = [
        ("MPI_Comm_get_attr", MPI_Comm_get_attr as *const u8),
        ("MPI_Type_get_attr", MPI_Type_get_attr as *const u8),
        ("MPI_Win_get_attr", MPI_Win_get_attr as *const u8),
        ("mpi_comm_get_attr_", mpi_comm_get_attr_ as *const u8),
        ("mpi_attr_get_", mpi_attr_get_ as *const u8),
    ];
    for (name, f) in getters {
        // SAFETY: the first bytes of a function's code, readable in the test binary.
        let head = unsafe { std::slice::from_raw_parts(f, ASM_PROLOGUE.len()) };
        assert_eq!(
            head == ASM_PROLOGUE,
            cfg!(feature = "asm-getters"),
            "{name} starts {head:02x?}"
        );
    }
}

/// Issue 16: the installed library (ci/install.sh, default features) carries the hand-written
/// getters: its marker symbol is there and `MPI_Comm_get_attr` / `mpi_comm_get_attr_` start
/// with their code.
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
#[test]
fn installed_getters_are_the_assembly() {
    let lib = common::install_prefix().join("lib/libmpicache.so");
    let path = std::ffi::CString::new(lib.to_str().unwrap()).unwrap();
    // SAFETY: dlopen/dlsym of the installed library (its constructors are Rust's: none run
    // user code); the symbols are read as bytes, never called.
    unsafe {
        let h = libc::dlopen(path.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL);
        assert!(!h.is_null(), "cannot dlopen {}", lib.display());
        let marker = libc::dlsym(h, c"mpicache_asm_getters".as_ptr());
        assert!(
            !marker.is_null(),
            "the installed library has no asm getters marker"
        );
        for name in [c"MPI_Comm_get_attr", c"mpi_comm_get_attr_", c"MPI_Attr_get"] {
            let f = libc::dlsym(h, name.as_ptr()).cast::<u8>();
            assert!(!f.is_null(), "{name:?} missing");
            let head = std::slice::from_raw_parts(f, ASM_PROLOGUE.len());
            assert_eq!(
                head, ASM_PROLOGUE,
                "{name:?} is not the hand-written getter"
            );
        }
    }
}

/// MPI 4.1 §7.7.2 under MPI_THREAD_MULTIPLE, deterministically: while a writer holds the
/// attribute's bucket (a test hook claims its seqlock), a get through the real entry points
/// (C and Fortran) must not answer from what it reads there: it takes the locked path, which
/// waits for the writer, and then answers the attribute as set.
#[test]
fn a_get_meeting_a_held_bucket_takes_the_slow_path() {
    use mpicache::testhooks::{hold_bucket, locked_gets};
    use std::sync::mpsc;
    use std::time::Duration;
    init();
    unsafe {
        let mut comm: c_int = 0;
        assert_eq!(MPI_Comm_dup(MPI_COMM_WORLD, &mut comm), MPI_SUCCESS);
        let mut k = 0;
        assert_eq!(
            MPI_Comm_create_keyval(None, None, &mut k, std::ptr::null_mut()),
            MPI_SUCCESS
        );
        assert_eq!(
            MPI_Comm_set_attr(comm, k, 0x5150 as *mut c_void),
            MPI_SUCCESS
        );
        mpi_comm_set_attr_(&comm, &k, &77isize, std::ptr::null_mut());
        for fortran in [false, true] {
            let held = hold_bucket(ObjRef::comm(comm), k).expect("the attribute's bucket");
            let slow_before = locked_gets();
            let (tx, rx) = mpsc::channel();
            let getter = std::thread::spawn(move || {
                let answer = if fortran {
                    f_get(mpi_comm_get_attr_, comm, k).0.map(|v| v as usize)
                } else {
                    match c_get(MPI_Comm_get_attr, comm, k) {
                        Answer::Value(v) => Some(v),
                        other => panic!("{other:?}"),
                    }
                };
                tx.send(answer).unwrap();
            });
            // The get cannot answer while the bucket is held.
            assert!(
                rx.recv_timeout(Duration::from_millis(200)).is_err(),
                "a get answered through a held bucket"
            );
            assert!(locked_gets() > slow_before, "the get took the locked path");
            drop(held);
            let answer = rx
                .recv_timeout(Duration::from_secs(10))
                .expect("the get ends");
            getter.join().unwrap();
            if fortran {
                assert_eq!(answer, Some(77));
            } else {
                // The C view of a Fortran-set value: a pointer to its MPI_Aint.
                let p = answer.expect("set") as *const isize;
                assert_eq!(*p, 77);
            }
        }
        assert_eq!(MPI_Comm_free(&mut comm), MPI_SUCCESS);
    }
}
