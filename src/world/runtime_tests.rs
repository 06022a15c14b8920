//! Tests of the caching engine as the single-process world uses it: what the world adds to
//! the engine's rules (the rules themselves are tested on a fake world in `caching::tests`).
//! The world's dup and free closures (a failed dup leaves no communicator behind), its
//! finalize order and phase (`MPI_COMM_SELF` first, `MPI_Finalized` false inside the
//! callbacks), its predefined attributes and its handle errors. Each names the rule it checks.
// The C view of an integer-valued predefined attribute is an address: read as C would.
#![allow(unsafe_code)]

use crate::caching::callback::*;
use crate::caching::convert::AttrWord;
use crate::consts::*;
use crate::world::state::Phase;
use crate::world::{Error, Handle, ObjRef, ObjectKind, Runtime};
use std::sync::{Arc, Mutex};

type Log = Arc<Mutex<Vec<String>>>;

fn runtime() -> &'static Runtime {
    let rt: &'static Runtime = Box::leak(Box::new(Runtime::new()));
    rt.init(MPI_THREAD_MULTIPLE).unwrap();
    rt
}

/// A copy callback that logs and copies the word as a C pointer, or fails at a given value.
struct Copy {
    log: Log,
    fail_on: Option<i64>,
}
impl CopyCallback for Copy {
    fn copy(&self, c: &CallbackCall<'_>) -> Result<Option<AttrWord>, i32> {
        let v = c.value.value.word;
        self.log.lock().unwrap().push(format!("copy {v}"));
        if Some(v) == self.fail_on {
            return Err(MPI_ERR_OTHER);
        }
        Ok(Some(AttrWord::from_fortran_address(v + 1000)))
    }
    fn convention(&self) -> Convention {
        Convention::FortranAddress
    }
}

/// A delete callback that logs the object, value and extra state, or fails at a given value.
struct Delete {
    log: Log,
    fail_on: Arc<Mutex<Option<i64>>>,
}
impl DeleteCallback for Delete {
    fn delete(&self, c: &CallbackCall<'_>) -> Result<(), i32> {
        let v = c.value.value.word;
        self.log.lock().unwrap().push(format!(
            "delete {v} on {:#x} extra {}",
            c.object.int(),
            c.extra_state.word()
        ));
        if Some(v) == *self.fail_on.lock().unwrap() {
            return Err(MPI_ERR_OTHER);
        }
        Ok(())
    }
    fn convention(&self) -> Convention {
        Convention::C
    }
}

struct Kv {
    number: i32,
    log: Log,
}

fn keyval(rt: &Runtime, kind: ObjectKind, copy: Option<Option<i64>>, extra: i64) -> Kv {
    let log: Log = Arc::default();
    let fail_delete = Arc::new(Mutex::new(None));
    let copy = match copy {
        None => CopyFn::Dup,
        Some(fail_on) => CopyFn::User(Box::new(Copy {
            log: log.clone(),
            fail_on,
        })),
    };
    let delete = DeleteFn::User(Box::new(Delete {
        log: log.clone(),
        fail_on: fail_delete.clone(),
    }));
    let number = rt.create_keyval(kind, copy, delete, extra).unwrap();
    Kv { number, log }
}

fn events(kv: &Kv) -> Vec<String> {
    std::mem::take(&mut *kv.log.lock().unwrap())
}

const WORLD: ObjRef = ObjRef::comm(MPI_COMM_WORLD);
const SELF: ObjRef = ObjRef::comm(MPI_COMM_SELF);

// README "Documented outcomes": a failing copy callback fails MPI_Comm_dup; copies already made
// are deleted once and the new communicator is gone.
#[test]
fn failing_copy_callback_fails_the_dup_and_cleans_up() {
    let rt = runtime();
    let comm = rt.comm_dup(Handle(MPI_COMM_WORLD)).unwrap();
    let c = ObjRef::comm(comm.0);
    let kvs: Vec<Kv> = (0..4)
        .map(|i| keyval(rt, ObjectKind::Comm, Some(Some(100 + i)), 0))
        .collect();
    for k in 0..4usize {
        // The k-th keyval's copy fails (its value is 100 + k), the others succeed.
        for (i, kv) in kvs.iter().enumerate() {
            let v = if i == k { 100 + i } else { i };
            rt.set_attr(c, kv.number, AttrWord::from_c_pointer(v))
                .unwrap();
            events(kv);
        }
        let before = rt.lock().comms.len();
        let err = rt.comm_dup(comm);
        let fail = err.unwrap_err();
        assert_eq!(fail.code(), MPI_ERR_OTHER);
        assert_eq!(
            rt.lock().comms.len(),
            before,
            "the new communicator is gone"
        );
        for (i, kv) in kvs.iter().enumerate() {
            let ev = events(kv);
            if i < k {
                assert_eq!(
                    ev.len(),
                    2,
                    "attribute {i} copied then deleted once: {ev:?}"
                );
                assert!(ev[1].starts_with(&format!("delete {}", i + 1000)));
            } else if i == k {
                assert_eq!(ev, vec![format!("copy {}", 100 + i)]);
            } else {
                assert!(ev.is_empty(), "no copy after the failure");
            }
        }
    }
    rt.comm_free(comm).unwrap();
}

// MPI 4.1 §20.3.7: MPI_TAG_UB answers on every communicator, dups and splits included.
#[test]
fn predefined_attributes_on_dups_and_splits() {
    let rt = runtime();
    let dup = rt.comm_dup(Handle(MPI_COMM_SELF)).unwrap();
    let split = rt.comm_split(Handle(MPI_COMM_WORLD), 0, 0).unwrap();
    for h in [dup, split] {
        let r = rt.get_attr(ObjRef::comm(h.0), MPI_TAG_UB).unwrap().unwrap();
        // SAFETY: a FortranInteger attribute's C view is its internal int.
        assert_eq!(unsafe { *(r.c_view as *const i32) }, TAG_UB_VALUE);
    }
    let code = rt.add_error_class().unwrap();
    let last = rt.get_attr(WORLD, MPI_LASTUSEDCODE).unwrap().unwrap();
    assert_eq!(
        last.value.word, code as i64,
        "MPI_Add_error_class moves MPI_LASTUSEDCODE"
    );
}

// MPI 4.1 §11.2.4: MPI_COMM_SELF's attributes are deleted first at finalize, in reverse order
// of setting, while MPI_Finalized is still false.
#[test]
fn finalize_deletes_self_first_in_reverse_order() {
    let rt = runtime();
    let log: Log = Arc::default();
    struct Rec(Log, &'static Runtime);
    impl DeleteCallback for Rec {
        fn delete(&self, c: &CallbackCall<'_>) -> Result<(), i32> {
            let finalized = self.1.phase() == Phase::Finalized;
            self.0.lock().unwrap().push(format!(
                "{:#x}:{}:{finalized}",
                c.object.int(),
                c.value.value.word
            ));
            Ok(())
        }
        fn convention(&self) -> Convention {
            Convention::C
        }
    }
    let k = rt
        .create_keyval(
            ObjectKind::Comm,
            CopyFn::Null,
            DeleteFn::User(Box::new(Rec(log.clone(), rt))),
            0,
        )
        .unwrap();
    let k2 = rt
        .create_keyval(
            ObjectKind::Comm,
            CopyFn::Null,
            DeleteFn::User(Box::new(Rec(log.clone(), rt))),
            0,
        )
        .unwrap();
    rt.set_attr(WORLD, k, AttrWord::from_c_pointer(9)).unwrap();
    rt.set_attr(SELF, k, AttrWord::from_c_pointer(1)).unwrap();
    rt.set_attr(SELF, k2, AttrWord::from_c_pointer(2)).unwrap();
    rt.finalize().unwrap();
    assert_eq!(
        *log.lock().unwrap(),
        vec!["0x102:2:false", "0x102:1:false", "0x101:9:false"]
    );
    assert_eq!(rt.phase(), Phase::Finalized);
    assert_eq!(rt.get_attr(WORLD, k).unwrap_err(), Error::Finalized);
}

// MPI 4.1 §7.4.4: freeing predefined communicators is erroneous; handles are checked.
#[test]
fn handle_errors() {
    let rt = runtime();
    assert_eq!(
        rt.comm_free(Handle(MPI_COMM_WORLD)).unwrap_err().class(),
        MPI_ERR_COMM
    );
    assert_eq!(
        rt.get_attr(ObjRef::comm(MPI_COMM_NULL), MPI_TAG_UB)
            .unwrap_err()
            .class(),
        MPI_ERR_COMM
    );
    let dup = rt.comm_dup(Handle(MPI_COMM_WORLD)).unwrap();
    rt.comm_free(dup).unwrap();
    assert_eq!(rt.comm_free(dup).unwrap_err().class(), MPI_ERR_COMM);
    assert_eq!(
        rt.get_attr(ObjRef::comm(MPI_INT), MPI_TAG_UB)
            .unwrap_err()
            .class(),
        MPI_ERR_COMM
    );
}

/// Issue 15 item 7: the error of a full kind is a code of class `MPI_ERR_NO_MEM` whose
/// `MPI_Error_string` names the limit (MPI 4.1 §9.4: a code's class and string).
#[test]
fn a_limit_error_code_has_class_no_mem_and_names_the_limit() {
    use crate::error::{Limited, Thousands};
    let rt = runtime();
    for what in [
        Limited::Handles(crate::kinds::HandleKind::Comm),
        Limited::Handles(crate::kinds::HandleKind::Info),
        Limited::Keyvals,
    ] {
        let limit = crate::world::errhandler::limit_of(what);
        let err = Error::Exhausted { what, limit };
        assert_eq!(rt.error_class(err.code()).unwrap(), MPI_ERR_NO_MEM);
        let text = rt.error_string(err.code()).unwrap();
        assert_eq!(text, err.to_string());
        assert!(text.contains(&Thousands(limit).to_string()), "{text}");
    }
    assert_eq!(
        rt.error_string(Limited::Keyvals.code()).unwrap(),
        "too many live keyvals: the limit is 65,535"
    );
}
