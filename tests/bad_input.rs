//! Bad-input table (issue 6, part 5) and the panic boundary (part 6), through the real C and
//! Fortran entry points.
//!
//! Every erroneous call of the caching chapter — unknown, freed, MPI_KEYVAL_INVALID, wrong-kind
//! and predefined keyvals where not allowed; null, freed and forged handles; NULL output
//! pointers (C); setting, deleting and freeing predefined keyvals; freeing a keyval twice —
//! (1) returns its class under MPI_ERRORS_RETURN and leaves the state unchanged (the fixture's
//! attributes still read back, no delete callback ran, the keyvals still work), and (2) under
//! MPI_ERRORS_ARE_FATAL makes the process exit non-zero with exactly one line
//! `mpicache: CALL: CLASS: detail` naming the call and the class (each case in a child process:
//! this test binary re-run with MPICACHE_BAD_CASE set). Calls before MPI_Init and after
//! MPI_Finalize also run in child processes.
//!
//! Rules: MPI 4.1 §7.7 (caching: MPI_ERR_KEYVAL for invalid keyvals), §9.3 (errors of calls on
//! no communicator or window go to MPI_COMM_SELF's handler), §9.4 (MPI_ERRORS_RETURN), §11.2
//! (calls before MPI_Init / after MPI_Finalize are erroneous); README "Conventions at the C
//! boundary".
// These drive the Fortran entry points with 4-byte INTEGERs; the 8-byte build has
// tests/programs/ilp64.rs.
#![cfg(not(feature = "fortran-integer-8"))]

use mpicache::capi::attr::*;
use mpicache::capi::comm::*;
use mpicache::capi::datatype::{MPI_Type_contiguous, MPI_Type_free};
use mpicache::capi::errhandler::{MPI_Comm_set_errhandler, MPI_Win_set_errhandler};
use mpicache::capi::init::{MPI_Finalize, MPI_Init};
use mpicache::capi::win::{MPI_Win_create, MPI_Win_free};
use mpicache::consts::*;
use mpicache::fortran::attr::*;
use std::ffi::{c_int, c_void};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

static SERIAL: Mutex<()> = Mutex::new(());
static DELETES: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn counting_delete(_: c_int, _: c_int, _: *mut c_void, _: *mut c_void) -> c_int {
    DELETES.fetch_add(1, Ordering::SeqCst);
    MPI_SUCCESS
}

const FORGED_KEYVAL: i32 = 987_654;
const FORGED_HANDLE: i32 = 0x12345;

/// The state every bad call must leave alone.
#[derive(Debug, Clone, Copy)]
struct Fx {
    /// A communicator keyval (C), set on MPI_COMM_WORLD to 0x1234.
    k: i32,
    /// A freed communicator keyval.
    freed_k: i32,
    /// A datatype keyval, set on `t` to 0x55.
    tk: i32,
    /// A window keyval, set on `w` to 0x66.
    wk: i32,
    t: i32,
    w: i32,
    freed_comm: i32,
    freed_type: i32,
}

static mut WIN_BUF: [u8; 64] = [0; 64];

fn ok(rc: c_int, what: &str) {
    assert_eq!(rc, MPI_SUCCESS, "{what}");
}

/// MPI_Init and the fixture, with MPI_ERRORS_RETURN on WORLD, SELF and the window.
unsafe fn setup() -> Fx {
    unsafe {
        ok(
            MPI_Init(std::ptr::null_mut(), std::ptr::null_mut()),
            "MPI_Init",
        );
        ok(
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN),
            "errh",
        );
        ok(
            MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN),
            "errh",
        );
        let mut k = 0;
        ok(
            MPI_Comm_create_keyval(None, Some(counting_delete), &mut k, std::ptr::null_mut()),
            "kv",
        );
        ok(
            MPI_Comm_set_attr(MPI_COMM_WORLD, k, 0x1234 as *mut c_void),
            "set",
        );
        let mut freed_k = 0;
        ok(
            MPI_Comm_create_keyval(None, None, &mut freed_k, std::ptr::null_mut()),
            "kv",
        );
        let freed_number = freed_k;
        ok(MPI_Comm_free_keyval(&mut freed_k), "free kv");
        let mut tk = 0;
        ok(
            MPI_Type_create_keyval(None, Some(counting_delete), &mut tk, std::ptr::null_mut()),
            "tkv",
        );
        let mut t = 0;
        ok(MPI_Type_contiguous(2, MPI_INT, &mut t), "type");
        ok(MPI_Type_set_attr(t, tk, 0x55 as *mut c_void), "tset");
        let mut wk = 0;
        ok(
            MPI_Win_create_keyval(None, Some(counting_delete), &mut wk, std::ptr::null_mut()),
            "wkv",
        );
        let mut w = 0;
        let base = std::ptr::addr_of_mut!(WIN_BUF).cast::<c_void>();
        ok(
            MPI_Win_create(base, 64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mut w),
            "win",
        );
        ok(MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN), "win errh");
        ok(MPI_Win_set_attr(w, wk, 0x66 as *mut c_void), "wset");
        let mut fc = 0;
        ok(MPI_Comm_dup(MPI_COMM_SELF, &mut fc), "dup");
        let freed_comm = fc;
        ok(MPI_Comm_free(&mut fc), "free comm");
        let mut ft = 0;
        ok(MPI_Type_contiguous(3, MPI_INT, &mut ft), "type");
        let freed_type = ft;
        ok(MPI_Type_free(&mut ft), "free type");
        DELETES.store(0, Ordering::SeqCst);
        Fx {
            k,
            freed_k: freed_number,
            tk,
            wk,
            t,
            w,
            freed_comm,
            freed_type,
        }
    }
}

/// The state is unchanged: every attribute reads back, no delete callback ran, keyvals work.
unsafe fn check_state(fx: &Fx, case: &str) {
    unsafe {
        let read = |rc: c_int, flag: c_int, v: *mut c_void, want: usize, what: &str| {
            assert!(
                rc == MPI_SUCCESS && flag == 1 && v as usize == want,
                "{case}: state changed: {what} rc={rc} flag={flag} value={v:?}"
            );
        };
        let (mut v, mut flag) = (std::ptr::null_mut::<c_void>(), 0);
        let rc = MPI_Comm_get_attr(
            MPI_COMM_WORLD,
            fx.k,
            (&mut v as *mut *mut c_void).cast(),
            &mut flag,
        );
        read(rc, flag, v, 0x1234, "WORLD attribute");
        let rc = MPI_Type_get_attr(fx.t, fx.tk, (&mut v as *mut *mut c_void).cast(), &mut flag);
        read(rc, flag, v, 0x55, "datatype attribute");
        let rc = MPI_Win_get_attr(fx.w, fx.wk, (&mut v as *mut *mut c_void).cast(), &mut flag);
        read(rc, flag, v, 0x66, "window attribute");
        let rc = MPI_Comm_get_attr(
            MPI_COMM_SELF,
            fx.k,
            (&mut v as *mut *mut c_void).cast(),
            &mut flag,
        );
        assert!(
            rc == MPI_SUCCESS && flag == 0,
            "{case}: keyval unusable or SELF changed (rc={rc}, flag={flag})"
        );
        assert_eq!(
            DELETES.load(Ordering::SeqCst),
            0,
            "{case}: a delete callback ran"
        );
    }
}

type Call = Box<dyn Fn(&Fx) -> c_int>;

struct Case {
    /// The call's name as the fatal line must give it.
    call: &'static str,
    label: String,
    class: i32,
    run: Call,
}

fn class_name(class: i32) -> &'static str {
    match class {
        MPI_ERR_KEYVAL => "MPI_ERR_KEYVAL",
        MPI_ERR_COMM => "MPI_ERR_COMM",
        MPI_ERR_TYPE => "MPI_ERR_TYPE",
        MPI_ERR_WIN => "MPI_ERR_WIN",
        MPI_ERR_ARG => "MPI_ERR_ARG",
        MPI_ERR_INTERN => "MPI_ERR_INTERN",
        _ => "?",
    }
}

fn fierr(f: impl FnOnce(*mut i32)) -> c_int {
    let mut ierr = -1;
    f(&mut ierr);
    ierr
}

/// The whole table.
fn cases() -> Vec<Case> {
    let mut v: Vec<Case> = Vec::new();
    macro_rules! case {
        ($call:literal, $label:expr, $class:expr, $f:expr) => {
            v.push(Case {
                call: $call,
                label: format!("{} {}", $call, $label),
                class: $class,
                run: Box::new($f),
            })
        };
    }
    // Keyvals that are wrong on a communicator.
    type KvPick = fn(&Fx) -> i32;
    let bad_comm_kvs: [(&str, KvPick); 5] = [
        ("unknown keyval", |_| FORGED_KEYVAL),
        ("freed keyval", |f| f.freed_k),
        ("MPI_KEYVAL_INVALID", |_| MPI_KEYVAL_INVALID),
        ("datatype keyval", |f| f.tk),
        ("window keyval", |f| f.wk),
    ];
    for (what, kv) in bad_comm_kvs {
        let p = 7usize as *mut c_void;
        case!("MPI_Comm_set_attr", what, MPI_ERR_KEYVAL, move |f| unsafe {
            MPI_Comm_set_attr(MPI_COMM_WORLD, kv(f), p)
        });
        case!("MPI_Comm_get_attr", what, MPI_ERR_KEYVAL, move |f| unsafe {
            let (mut v, mut fl) = (std::ptr::null_mut::<c_void>(), 0);
            MPI_Comm_get_attr(
                MPI_COMM_WORLD,
                kv(f),
                (&mut v as *mut *mut c_void).cast(),
                &mut fl,
            )
        });
        case!(
            "MPI_Comm_delete_attr",
            what,
            MPI_ERR_KEYVAL,
            move |f| unsafe { MPI_Comm_delete_attr(MPI_COMM_WORLD, kv(f)) }
        );
        case!("MPI_Attr_put", what, MPI_ERR_KEYVAL, move |f| unsafe {
            MPI_Attr_put(MPI_COMM_WORLD, kv(f), p)
        });
        case!("MPI_Attr_get", what, MPI_ERR_KEYVAL, move |f| unsafe {
            let (mut v, mut fl) = (std::ptr::null_mut::<c_void>(), 0);
            MPI_Attr_get(
                MPI_COMM_WORLD,
                kv(f),
                (&mut v as *mut *mut c_void).cast(),
                &mut fl,
            )
        });
        case!("MPI_Attr_delete", what, MPI_ERR_KEYVAL, move |f| unsafe {
            MPI_Attr_delete(MPI_COMM_WORLD, kv(f))
        });
        case!("MPI_COMM_SET_ATTR", what, MPI_ERR_KEYVAL, move |f| {
            let (h, k, val) = (MPI_COMM_WORLD, kv(f), 7isize);
            fierr(|e| unsafe { mpi_comm_set_attr_(&h, &k, &val, e) })
        });
        case!("MPI_COMM_GET_ATTR", what, MPI_ERR_KEYVAL, move |f| {
            let (h, k, mut val, mut fl) = (MPI_COMM_WORLD, kv(f), 0isize, 0);
            fierr(|e| unsafe { mpi_comm_get_attr_(&h, &k, &mut val, &mut fl, e) })
        });
        case!("MPI_COMM_DELETE_ATTR", what, MPI_ERR_KEYVAL, move |f| {
            let (h, k) = (MPI_COMM_WORLD, kv(f));
            fierr(|e| unsafe { mpi_comm_delete_attr_(&h, &k, e) })
        });
        case!("MPI_ATTR_PUT", what, MPI_ERR_KEYVAL, move |f| {
            let (h, k, val) = (MPI_COMM_WORLD, kv(f), 7i32);
            fierr(|e| unsafe { mpi_attr_put_(&h, &k, &val, e) })
        });
        case!("MPI_ATTR_GET", what, MPI_ERR_KEYVAL, move |f| {
            let (h, k, mut val, mut fl) = (MPI_COMM_WORLD, kv(f), 0i32, 0);
            fierr(|e| unsafe { mpi_attr_get_(&h, &k, &mut val, &mut fl, e) })
        });
        case!("MPI_ATTR_DELETE", what, MPI_ERR_KEYVAL, move |f| {
            let (h, k) = (MPI_COMM_WORLD, kv(f));
            fierr(|e| unsafe { mpi_attr_delete_(&h, &k, e) })
        });
    }
    // Keyvals that are wrong on a datatype / a window.
    let bad_type_kvs: [(&str, KvPick); 5] = [
        ("unknown keyval", |_| FORGED_KEYVAL),
        ("MPI_KEYVAL_INVALID", |_| MPI_KEYVAL_INVALID),
        ("communicator keyval", |f| f.k),
        ("window keyval", |f| f.wk),
        ("predefined communicator keyval MPI_TAG_UB", |_| MPI_TAG_UB),
    ];
    for (what, kv) in bad_type_kvs {
        case!("MPI_Type_set_attr", what, MPI_ERR_KEYVAL, move |f| unsafe {
            MPI_Type_set_attr(f.t, kv(f), 7usize as *mut c_void)
        });
        case!("MPI_Type_get_attr", what, MPI_ERR_KEYVAL, move |f| unsafe {
            let (mut v, mut fl) = (std::ptr::null_mut::<c_void>(), 0);
            MPI_Type_get_attr(f.t, kv(f), (&mut v as *mut *mut c_void).cast(), &mut fl)
        });
        case!(
            "MPI_Type_delete_attr",
            what,
            MPI_ERR_KEYVAL,
            move |f| unsafe { MPI_Type_delete_attr(f.t, kv(f)) }
        );
        case!("MPI_TYPE_SET_ATTR", what, MPI_ERR_KEYVAL, move |f| {
            let (h, k, val) = (f.t, kv(f), 7isize);
            fierr(|e| unsafe { mpi_type_set_attr_(&h, &k, &val, e) })
        });
        case!("MPI_TYPE_GET_ATTR", what, MPI_ERR_KEYVAL, move |f| {
            let (h, k, mut val, mut fl) = (f.t, kv(f), 0isize, 0);
            fierr(|e| unsafe { mpi_type_get_attr_(&h, &k, &mut val, &mut fl, e) })
        });
    }
    let bad_win_kvs: [(&str, KvPick); 4] = [
        ("unknown keyval", |_| FORGED_KEYVAL),
        ("MPI_KEYVAL_INVALID", |_| MPI_KEYVAL_INVALID),
        ("communicator keyval", |f| f.k),
        ("datatype keyval", |f| f.tk),
    ];
    for (what, kv) in bad_win_kvs {
        case!("MPI_Win_set_attr", what, MPI_ERR_KEYVAL, move |f| unsafe {
            MPI_Win_set_attr(f.w, kv(f), 7usize as *mut c_void)
        });
        case!("MPI_Win_get_attr", what, MPI_ERR_KEYVAL, move |f| unsafe {
            let (mut v, mut fl) = (std::ptr::null_mut::<c_void>(), 0);
            MPI_Win_get_attr(f.w, kv(f), (&mut v as *mut *mut c_void).cast(), &mut fl)
        });
        case!(
            "MPI_Win_delete_attr",
            what,
            MPI_ERR_KEYVAL,
            move |f| unsafe { MPI_Win_delete_attr(f.w, kv(f)) }
        );
        case!("MPI_WIN_SET_ATTR", what, MPI_ERR_KEYVAL, move |f| {
            let (h, k, val) = (f.w, kv(f), 7isize);
            fierr(|e| unsafe { mpi_win_set_attr_(&h, &k, &val, e) })
        });
        case!("MPI_WIN_DELETE_ATTR", what, MPI_ERR_KEYVAL, move |f| {
            let (h, k) = (f.w, kv(f));
            fierr(|e| unsafe { mpi_win_delete_attr_(&h, &k, e) })
        });
    }
    // Predefined keyvals: cannot be set, deleted or freed by users; wrong kind elsewhere.
    let pre = "predefined keyval";
    case!(
        "MPI_Comm_set_attr",
        format!("{pre} MPI_TAG_UB"),
        MPI_ERR_KEYVAL,
        |_| unsafe {
            MPI_Comm_set_attr(
                MPI_COMM_WORLD,
                MPI_TAG_UB,
                std::ptr::dangling_mut::<c_void>(),
            )
        }
    );
    case!(
        "MPI_Comm_delete_attr",
        format!("{pre} MPI_TAG_UB"),
        MPI_ERR_KEYVAL,
        |_| unsafe { MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_TAG_UB) }
    );
    case!(
        "MPI_Attr_put",
        format!("{pre} MPI_TAG_UB"),
        MPI_ERR_KEYVAL,
        |_| unsafe {
            MPI_Attr_put(
                MPI_COMM_WORLD,
                MPI_TAG_UB,
                std::ptr::dangling_mut::<c_void>(),
            )
        }
    );
    case!(
        "MPI_Attr_delete",
        format!("{pre} MPI_TAG_UB"),
        MPI_ERR_KEYVAL,
        |_| unsafe { MPI_Attr_delete(MPI_COMM_WORLD, MPI_TAG_UB) }
    );
    case!(
        "MPI_Comm_free_keyval",
        format!("{pre} MPI_TAG_UB"),
        MPI_ERR_KEYVAL,
        |_| unsafe {
            let mut k = MPI_TAG_UB;
            MPI_Comm_free_keyval(&mut k)
        }
    );
    case!(
        "MPI_Keyval_free",
        format!("{pre} MPI_TAG_UB"),
        MPI_ERR_KEYVAL,
        |_| unsafe {
            let mut k = MPI_TAG_UB;
            MPI_Keyval_free(&mut k)
        }
    );
    case!(
        "MPI_Win_set_attr",
        format!("{pre} MPI_WIN_BASE"),
        MPI_ERR_KEYVAL,
        |f| unsafe { MPI_Win_set_attr(f.w, MPI_WIN_BASE, std::ptr::dangling_mut::<c_void>()) }
    );
    case!(
        "MPI_Win_delete_attr",
        format!("{pre} MPI_WIN_BASE"),
        MPI_ERR_KEYVAL,
        |f| unsafe { MPI_Win_delete_attr(f.w, MPI_WIN_BASE) }
    );
    case!(
        "MPI_Win_free_keyval",
        format!("{pre} MPI_WIN_BASE"),
        MPI_ERR_KEYVAL,
        |_| unsafe {
            let mut k = MPI_WIN_BASE;
            MPI_Win_free_keyval(&mut k)
        }
    );
    case!(
        "MPI_Comm_get_attr",
        format!("{pre} MPI_WIN_BASE (window kind)"),
        MPI_ERR_KEYVAL,
        |_| unsafe {
            let (mut v, mut fl) = (std::ptr::null_mut::<c_void>(), 0);
            MPI_Comm_get_attr(
                MPI_COMM_WORLD,
                MPI_WIN_BASE,
                (&mut v as *mut *mut c_void).cast(),
                &mut fl,
            )
        }
    );
    case!(
        "MPI_COMM_SET_ATTR",
        format!("{pre} MPI_TAG_UB"),
        MPI_ERR_KEYVAL,
        |_| {
            let (h, k, val) = (MPI_COMM_WORLD, MPI_TAG_UB, 1isize);
            fierr(|e| unsafe { mpi_comm_set_attr_(&h, &k, &val, e) })
        }
    );
    case!(
        "MPI_ATTR_DELETE",
        format!("{pre} MPI_TAG_UB"),
        MPI_ERR_KEYVAL,
        |_| {
            let (h, k) = (MPI_COMM_WORLD, MPI_TAG_UB);
            fierr(|e| unsafe { mpi_attr_delete_(&h, &k, e) })
        }
    );
    case!(
        "MPI_COMM_FREE_KEYVAL",
        format!("{pre} MPI_TAG_UB"),
        MPI_ERR_KEYVAL,
        |_| {
            let mut k = MPI_TAG_UB;
            fierr(|e| unsafe { mpi_comm_free_keyval_(&mut k, e) })
        }
    );
    // Freeing keyvals that are not there (a second free included) or of the wrong kind.
    case!(
        "MPI_Comm_free_keyval",
        "keyval freed twice",
        MPI_ERR_KEYVAL,
        |f| unsafe {
            let mut k = f.freed_k;
            MPI_Comm_free_keyval(&mut k)
        }
    );
    case!(
        "MPI_Keyval_free",
        "keyval freed twice",
        MPI_ERR_KEYVAL,
        |f| unsafe {
            let mut k = f.freed_k;
            MPI_Keyval_free(&mut k)
        }
    );
    case!(
        "MPI_COMM_FREE_KEYVAL",
        "keyval freed twice",
        MPI_ERR_KEYVAL,
        |f| {
            let mut k = f.freed_k;
            fierr(|e| unsafe { mpi_comm_free_keyval_(&mut k, e) })
        }
    );
    case!(
        "MPI_KEYVAL_FREE",
        "keyval freed twice",
        MPI_ERR_KEYVAL,
        |f| {
            let mut k = f.freed_k;
            fierr(|e| unsafe { mpi_keyval_free_(&mut k, e) })
        }
    );
    case!(
        "MPI_Comm_free_keyval",
        "unknown keyval",
        MPI_ERR_KEYVAL,
        |_| unsafe {
            let mut k = FORGED_KEYVAL;
            MPI_Comm_free_keyval(&mut k)
        }
    );
    case!(
        "MPI_Comm_free_keyval",
        "MPI_KEYVAL_INVALID",
        MPI_ERR_KEYVAL,
        |_| unsafe {
            let mut k = MPI_KEYVAL_INVALID;
            MPI_Comm_free_keyval(&mut k)
        }
    );
    case!(
        "MPI_Comm_free_keyval",
        "datatype keyval",
        MPI_ERR_KEYVAL,
        |f| unsafe {
            let mut k = f.tk;
            MPI_Comm_free_keyval(&mut k)
        }
    );
    case!(
        "MPI_Type_free_keyval",
        "communicator keyval",
        MPI_ERR_KEYVAL,
        |f| unsafe {
            let mut k = f.k;
            MPI_Type_free_keyval(&mut k)
        }
    );
    case!(
        "MPI_Win_free_keyval",
        "communicator keyval",
        MPI_ERR_KEYVAL,
        |f| unsafe {
            let mut k = f.k;
            MPI_Win_free_keyval(&mut k)
        }
    );
    case!(
        "MPI_TYPE_FREE_KEYVAL",
        "window keyval",
        MPI_ERR_KEYVAL,
        |f| {
            let mut k = f.wk;
            fierr(|e| unsafe { mpi_type_free_keyval_(&mut k, e) })
        }
    );
    case!(
        "MPI_WIN_FREE_KEYVAL",
        "unknown keyval",
        MPI_ERR_KEYVAL,
        |_| {
            let mut k = FORGED_KEYVAL;
            fierr(|e| unsafe { mpi_win_free_keyval_(&mut k, e) })
        }
    );
    // Bad communicator handles.
    type HPick = fn(&Fx) -> i32;
    let bad_comms: [(&str, HPick); 3] = [
        ("MPI_COMM_NULL", |_| MPI_COMM_NULL),
        ("freed communicator", |f| f.freed_comm),
        ("forged communicator", |_| FORGED_HANDLE),
    ];
    for (what, h) in bad_comms {
        case!("MPI_Comm_set_attr", what, MPI_ERR_COMM, move |f| unsafe {
            MPI_Comm_set_attr(h(f), f.k, 7usize as *mut c_void)
        });
        case!("MPI_Comm_get_attr", what, MPI_ERR_COMM, move |f| unsafe {
            let (mut v, mut fl) = (std::ptr::null_mut::<c_void>(), 0);
            MPI_Comm_get_attr(h(f), f.k, (&mut v as *mut *mut c_void).cast(), &mut fl)
        });
        case!(
            "MPI_Comm_delete_attr",
            what,
            MPI_ERR_COMM,
            move |f| unsafe { MPI_Comm_delete_attr(h(f), f.k) }
        );
        case!("MPI_Attr_put", what, MPI_ERR_COMM, move |f| unsafe {
            MPI_Attr_put(h(f), f.k, 7usize as *mut c_void)
        });
        case!("MPI_Attr_get", what, MPI_ERR_COMM, move |f| unsafe {
            let (mut v, mut fl) = (std::ptr::null_mut::<c_void>(), 0);
            MPI_Attr_get(h(f), f.k, (&mut v as *mut *mut c_void).cast(), &mut fl)
        });
        case!("MPI_Attr_delete", what, MPI_ERR_COMM, move |f| unsafe {
            MPI_Attr_delete(h(f), f.k)
        });
        case!("MPI_Comm_dup", what, MPI_ERR_COMM, move |f| unsafe {
            let mut n = 0;
            MPI_Comm_dup(h(f), &mut n)
        });
        case!("MPI_Comm_free", what, MPI_ERR_COMM, move |f| unsafe {
            let mut c = h(f);
            MPI_Comm_free(&mut c)
        });
        case!("MPI_COMM_SET_ATTR", what, MPI_ERR_COMM, move |f| {
            let (c, k, val) = (h(f), f.k, 7isize);
            fierr(|e| unsafe { mpi_comm_set_attr_(&c, &k, &val, e) })
        });
        case!("MPI_COMM_GET_ATTR", what, MPI_ERR_COMM, move |f| {
            let (c, k, mut val, mut fl) = (h(f), f.k, 0isize, 0);
            fierr(|e| unsafe { mpi_comm_get_attr_(&c, &k, &mut val, &mut fl, e) })
        });
        case!("MPI_ATTR_GET", what, MPI_ERR_COMM, move |f| {
            let (c, k, mut val, mut fl) = (h(f), f.k, 0i32, 0);
            fierr(|e| unsafe { mpi_attr_get_(&c, &k, &mut val, &mut fl, e) })
        });
        case!("MPI_ATTR_PUT", what, MPI_ERR_COMM, move |f| {
            let (c, k, val) = (h(f), f.k, 1i32);
            fierr(|e| unsafe { mpi_attr_put_(&c, &k, &val, e) })
        });
    }
    case!(
        "MPI_Comm_free",
        "predefined MPI_COMM_WORLD",
        MPI_ERR_COMM,
        |_| unsafe {
            let mut c = MPI_COMM_WORLD;
            MPI_Comm_free(&mut c)
        }
    );
    let bad_types: [(&str, HPick); 3] = [
        ("MPI_DATATYPE_NULL", |_| MPI_DATATYPE_NULL),
        ("freed datatype", |f| f.freed_type),
        ("forged datatype", |_| FORGED_HANDLE),
    ];
    for (what, h) in bad_types {
        case!("MPI_Type_set_attr", what, MPI_ERR_TYPE, move |f| unsafe {
            MPI_Type_set_attr(h(f), f.tk, 7usize as *mut c_void)
        });
        case!("MPI_Type_get_attr", what, MPI_ERR_TYPE, move |f| unsafe {
            let (mut v, mut fl) = (std::ptr::null_mut::<c_void>(), 0);
            MPI_Type_get_attr(h(f), f.tk, (&mut v as *mut *mut c_void).cast(), &mut fl)
        });
        case!(
            "MPI_Type_delete_attr",
            what,
            MPI_ERR_TYPE,
            move |f| unsafe { MPI_Type_delete_attr(h(f), f.tk) }
        );
        case!("MPI_TYPE_GET_ATTR", what, MPI_ERR_TYPE, move |f| {
            let (c, k, mut val, mut fl) = (h(f), f.tk, 0isize, 0);
            fierr(|e| unsafe { mpi_type_get_attr_(&c, &k, &mut val, &mut fl, e) })
        });
    }
    let bad_wins: [(&str, HPick); 2] = [
        ("MPI_WIN_NULL", |_| MPI_WIN_NULL),
        ("forged window", |_| FORGED_HANDLE),
    ];
    for (what, h) in bad_wins {
        case!("MPI_Win_set_attr", what, MPI_ERR_WIN, move |f| unsafe {
            MPI_Win_set_attr(h(f), f.wk, 7usize as *mut c_void)
        });
        case!("MPI_Win_get_attr", what, MPI_ERR_WIN, move |f| unsafe {
            let (mut v, mut fl) = (std::ptr::null_mut::<c_void>(), 0);
            MPI_Win_get_attr(h(f), f.wk, (&mut v as *mut *mut c_void).cast(), &mut fl)
        });
        case!("MPI_Win_delete_attr", what, MPI_ERR_WIN, move |f| unsafe {
            MPI_Win_delete_attr(h(f), f.wk)
        });
        case!("MPI_WIN_GET_ATTR", what, MPI_ERR_WIN, move |f| {
            let (c, k, mut val, mut fl) = (h(f), f.wk, 0isize, 0);
            fierr(|e| unsafe { mpi_win_get_attr_(&c, &k, &mut val, &mut fl, e) })
        });
    }
    // NULL output pointers (C only: Fortran passes everything by reference).
    let null = std::ptr::null_mut::<c_void>();
    case!(
        "MPI_Comm_get_attr",
        "NULL attribute_val",
        MPI_ERR_ARG,
        move |f| unsafe {
            let mut fl = 0;
            MPI_Comm_get_attr(MPI_COMM_WORLD, f.k, null, &mut fl)
        }
    );
    case!("MPI_Comm_get_attr", "NULL flag", MPI_ERR_ARG, |f| unsafe {
        let mut v = std::ptr::null_mut::<c_void>();
        MPI_Comm_get_attr(
            MPI_COMM_WORLD,
            f.k,
            (&mut v as *mut *mut c_void).cast(),
            std::ptr::null_mut(),
        )
    });
    case!(
        "MPI_Attr_get",
        "NULL attribute_val",
        MPI_ERR_ARG,
        move |f| unsafe {
            let mut fl = 0;
            MPI_Attr_get(MPI_COMM_WORLD, f.k, null, &mut fl)
        }
    );
    case!("MPI_Attr_get", "NULL flag", MPI_ERR_ARG, |f| unsafe {
        let mut v = std::ptr::null_mut::<c_void>();
        MPI_Attr_get(
            MPI_COMM_WORLD,
            f.k,
            (&mut v as *mut *mut c_void).cast(),
            std::ptr::null_mut(),
        )
    });
    case!(
        "MPI_Type_get_attr",
        "NULL attribute_val",
        MPI_ERR_ARG,
        move |f| unsafe {
            let mut fl = 0;
            MPI_Type_get_attr(f.t, f.tk, null, &mut fl)
        }
    );
    case!("MPI_Type_get_attr", "NULL flag", MPI_ERR_ARG, |f| unsafe {
        let mut v = std::ptr::null_mut::<c_void>();
        MPI_Type_get_attr(
            f.t,
            f.tk,
            (&mut v as *mut *mut c_void).cast(),
            std::ptr::null_mut(),
        )
    });
    case!(
        "MPI_Win_get_attr",
        "NULL attribute_val",
        MPI_ERR_ARG,
        move |f| unsafe {
            let mut fl = 0;
            MPI_Win_get_attr(f.w, f.wk, null, &mut fl)
        }
    );
    case!("MPI_Win_get_attr", "NULL flag", MPI_ERR_ARG, |f| unsafe {
        let mut v = std::ptr::null_mut::<c_void>();
        MPI_Win_get_attr(
            f.w,
            f.wk,
            (&mut v as *mut *mut c_void).cast(),
            std::ptr::null_mut(),
        )
    });
    case!(
        "MPI_Comm_create_keyval",
        "NULL comm_keyval",
        MPI_ERR_ARG,
        move |_| unsafe { MPI_Comm_create_keyval(None, None, std::ptr::null_mut(), null) }
    );
    case!(
        "MPI_Type_create_keyval",
        "NULL type_keyval",
        MPI_ERR_ARG,
        move |_| unsafe { MPI_Type_create_keyval(None, None, std::ptr::null_mut(), null) }
    );
    case!(
        "MPI_Win_create_keyval",
        "NULL win_keyval",
        MPI_ERR_ARG,
        move |_| unsafe { MPI_Win_create_keyval(None, None, std::ptr::null_mut(), null) }
    );
    case!(
        "MPI_Keyval_create",
        "NULL keyval",
        MPI_ERR_ARG,
        move |_| unsafe { MPI_Keyval_create(None, None, std::ptr::null_mut(), null) }
    );
    case!(
        "MPI_Comm_free_keyval",
        "NULL comm_keyval",
        MPI_ERR_ARG,
        |_| unsafe { MPI_Comm_free_keyval(std::ptr::null_mut()) }
    );
    case!("MPI_Keyval_free", "NULL keyval", MPI_ERR_ARG, |_| unsafe {
        MPI_Keyval_free(std::ptr::null_mut())
    });
    case!("MPI_Comm_dup", "NULL newcomm", MPI_ERR_ARG, |_| unsafe {
        MPI_Comm_dup(MPI_COMM_WORLD, std::ptr::null_mut())
    });
    case!("MPI_Comm_free", "NULL comm", MPI_ERR_ARG, |_| unsafe {
        MPI_Comm_free(std::ptr::null_mut())
    });
    v
}

/// The fixture's objects, freed so that finalize has nothing left but the attributes.
unsafe fn teardown(fx: &Fx) {
    unsafe {
        let mut t = fx.t;
        ok(MPI_Type_free(&mut t), "type free");
        let mut w = fx.w;
        ok(MPI_Win_free(&mut w), "win free");
        ok(MPI_Finalize(), "finalize");
    }
    mpicache::testhooks::reset();
}

#[test]
fn every_bad_call_returns_its_class_and_changes_nothing() {
    let _s = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    mpicache::testhooks::reset();
    let fx = unsafe { setup() };
    let table = cases();
    let mut failures = Vec::new();
    for case in &table {
        let rc = (case.run)(&fx);
        if rc != case.class {
            failures.push(format!(
                "{}: returned {rc}, expected {} ({})",
                case.label,
                case.class,
                class_name(case.class)
            ));
        }
        unsafe { check_state(&fx, &case.label) };
    }
    unsafe { teardown(&fx) };
    eprintln!(
        "bad_input: {} erroneous calls tried under MPI_ERRORS_RETURN",
        table.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} bad calls:\n{}",
        failures.len(),
        table.len(),
        failures.join("\n")
    );
}

/// Runs this test binary again with `env` set, to do one thing in a fresh process.
fn child(env: &[(&str, String)]) -> std::process::Output {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args(["child_entry", "--exact", "--nocapture", "--test-threads=1"]);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

/// Checks a fatal exit: non-zero status, one `mpicache: CALL: CLASS: detail` line naming the
/// call and the class.
fn check_fatal(
    label: &str,
    out: &std::process::Output,
    call: &str,
    class: &str,
) -> Result<(), String> {
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("mpicache: "))
        .collect();
    let fail = |why: &str| {
        Err(format!(
            "{label}: {why}; status {:?}; stderr:\n{stderr}",
            out.status.code()
        ))
    };
    if out.status.success() || out.status.code().is_none() {
        return fail("did not exit with a non-zero status");
    }
    if lines.len() != 1 {
        return fail("not exactly one `mpicache: ` line");
    }
    let fields: Vec<&str> = lines[0].splitn(4, ": ").collect();
    if fields.len() != 4
        || fields[1] != call
        || !fields[2].contains(class)
        || fields[3].trim().is_empty()
    {
        return fail(&format!("line is not `mpicache: {call}: {class}: detail`"));
    }
    Ok(())
}

/// The child side: does what MPICACHE_BAD_CASE / MPICACHE_BAD_PHASE say (a no-op otherwise).
#[test]
fn child_entry() {
    if let Some(i) = std::env::var("MPICACHE_BAD_CASE")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
    {
        let fx = unsafe { setup() };
        unsafe {
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
            MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
            MPI_Win_set_errhandler(fx.w, MPI_ERRORS_ARE_FATAL);
        }
        let rc = (cases()[i].run)(&fx);
        println!("child: case {i} returned {rc} instead of dying");
        std::process::exit(0);
    }
    match std::env::var("MPICACHE_BAD_PHASE").as_deref() {
        Ok("before_init") => unsafe {
            let mut v = std::ptr::null_mut::<c_void>();
            let mut flag = 0;
            let rc = MPI_Comm_get_attr(
                MPI_COMM_WORLD,
                MPI_TAG_UB,
                (&mut v as *mut *mut c_void).cast(),
                &mut flag,
            );
            println!("child: returned {rc} instead of dying");
            std::process::exit(0);
        },
        Ok("before_init_keyval") => unsafe {
            let mut k = 0;
            let rc = MPI_Comm_create_keyval(None, None, &mut k, std::ptr::null_mut());
            println!("child: returned {rc} instead of dying");
            std::process::exit(0);
        },
        Ok("after_finalize") => unsafe {
            ok(MPI_Init(std::ptr::null_mut(), std::ptr::null_mut()), "init");
            ok(MPI_Finalize(), "finalize");
            let rc = MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, std::ptr::null_mut());
            println!("child: returned {rc} instead of dying");
            std::process::exit(0);
        },
        Ok("panic_fatal") => unsafe {
            ok(MPI_Init(std::ptr::null_mut(), std::ptr::null_mut()), "init");
            let rc = mpicache::testhooks::panic_in_entry_point();
            println!("child: returned {rc} instead of dying");
            std::process::exit(0);
        },
        _ => {}
    }
}

#[test]
fn every_bad_call_is_fatal_under_errors_are_fatal() {
    let table = cases();
    let mut failures = Vec::new();
    for (i, case) in table.iter().enumerate() {
        let out = child(&[("MPICACHE_BAD_CASE", i.to_string())]);
        if let Err(e) = check_fatal(&case.label, &out, case.call, class_name(case.class)) {
            failures.push(e);
        }
    }
    eprintln!(
        "bad_input: {} erroneous calls tried under MPI_ERRORS_ARE_FATAL",
        table.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {}:\n{}",
        failures.len(),
        table.len(),
        failures.join("\n\n")
    );
}

/// MPI 4.1 §11.2.1: no MPI call but a few queries before MPI_Init; no error handler can be
/// set yet, so the library treats them as fatal, with a clear line.
#[test]
fn calls_before_init_and_after_finalize_are_fatal() {
    let mut failures = Vec::new();
    for (phase, call) in [
        ("before_init", "MPI_Comm_get_attr"),
        ("before_init_keyval", "MPI_Comm_create_keyval"),
        ("after_finalize", "MPI_Comm_set_attr"),
    ] {
        let out = child(&[("MPICACHE_BAD_PHASE", phase.to_owned())]);
        if let Err(e) = check_fatal(phase, &out, call, "MPI_ERR_") {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// After MPI_Finalize, with MPI_ERRORS_RETURN on MPI_COMM_SELF before it, caching calls
/// return an error instead of touching freed state.
#[test]
fn calls_after_finalize_return_an_error_when_self_returns() {
    let _s = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    mpicache::testhooks::reset();
    unsafe {
        ok(MPI_Init(std::ptr::null_mut(), std::ptr::null_mut()), "init");
        ok(
            MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN),
            "errh",
        );
        let mut k = 0;
        ok(
            MPI_Comm_create_keyval(None, None, &mut k, std::ptr::null_mut()),
            "kv",
        );
        ok(
            MPI_Comm_set_attr(MPI_COMM_WORLD, k, 5usize as *mut c_void),
            "set",
        );
        ok(MPI_Finalize(), "finalize");
        let mut v = std::ptr::null_mut::<c_void>();
        let mut flag = 0;
        let calls: [(&str, c_int); 5] = [
            (
                "MPI_Comm_set_attr",
                MPI_Comm_set_attr(MPI_COMM_WORLD, k, std::ptr::null_mut()),
            ),
            (
                "MPI_Comm_get_attr",
                MPI_Comm_get_attr(
                    MPI_COMM_WORLD,
                    k,
                    (&mut v as *mut *mut c_void).cast(),
                    &mut flag,
                ),
            ),
            (
                "MPI_Comm_delete_attr",
                MPI_Comm_delete_attr(MPI_COMM_WORLD, k),
            ),
            ("MPI_Comm_free_keyval", MPI_Comm_free_keyval(&mut k)),
            (
                "MPI_Comm_create_keyval",
                MPI_Comm_create_keyval(None, None, &mut k, std::ptr::null_mut()),
            ),
        ];
        mpicache::testhooks::reset();
        for (name, rc) in calls {
            assert_ne!(rc, MPI_SUCCESS, "{name} after MPI_Finalize succeeded");
        }
    }
}

/// README: "A panic inside the library never crosses into C: the call fails with
/// MPI_ERR_INTERN" (test-only trigger in src/testhooks.rs).
#[test]
fn a_panic_in_an_entry_point_is_mpi_err_intern() {
    let _s = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    mpicache::testhooks::reset();
    unsafe {
        ok(MPI_Init(std::ptr::null_mut(), std::ptr::null_mut()), "init");
        ok(
            MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN),
            "errh",
        );
        assert_eq!(mpicache::testhooks::panic_in_entry_point(), MPI_ERR_INTERN);
        // The library still works afterwards (the lock is not poisoned into uselessness).
        let mut k = 0;
        ok(
            MPI_Comm_create_keyval(None, None, &mut k, std::ptr::null_mut()),
            "kv after panic",
        );
        ok(
            MPI_Comm_set_attr(MPI_COMM_SELF, k, 9usize as *mut c_void),
            "set after panic",
        );
        let mut v = std::ptr::null_mut::<c_void>();
        let mut flag = 0;
        ok(
            MPI_Comm_get_attr(
                MPI_COMM_SELF,
                k,
                (&mut v as *mut *mut c_void).cast(),
                &mut flag,
            ),
            "get after panic",
        );
        assert!(flag == 1 && v as usize == 9);
        ok(MPI_Finalize(), "finalize");
    }
    mpicache::testhooks::reset();
    let out = child(&[("MPICACHE_BAD_PHASE", "panic_fatal".to_owned())]);
    check_fatal(
        "panic under MPI_ERRORS_ARE_FATAL",
        &out,
        "MPI_Test_panic",
        "MPI_ERR_INTERN",
    )
    .unwrap();
}
