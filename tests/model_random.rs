//! Randomized model test (issue 6, part 1): random sequences of caching calls through the real
//! C and Fortran entry points, every outcome, every value read and every callback invocation
//! checked against the reference model of tests/model/ (written from docs/DESIGN.md, nothing shared
//! with the library). proptest shrinks a failing sequence to a minimal one.
//!
//! Rules checked (MPI 4.1 §7.7 caching, §20.3.7 attributes across languages; docs/DESIGN.md):
//! - the provenance table: C `void*`, Fortran ADDRESS_KIND and Fortran INTEGER writers, each
//!   read by the C, ADDRESS_KIND and INTEGER readers (C readers of Fortran-set values get a
//!   pointer to an internal MPI_Aint / int, which must not move while the attribute lives);
//! - the three callback conventions (C by value; Fortran ADDRESS_KIND and INTEGER, every
//!   argument by reference, exactly as gfortran calls them) and the predefined
//!   NULL_COPY / DUP / NULL_DELETE functions of both languages;
//! - copy callbacks on MPI_Comm_dup, MPI_Comm_dup_with_info, MPI_Comm_idup (+ MPI_Wait) and
//!   Fortran MPI_COMM_DUP, in order of setting; a failing copy callback fails the dup with its
//!   code, deletes the partial copies once and returns MPI_COMM_NULL;
//! - delete callbacks once per attribute instance: on delete, overwrite, free (last set first,
//!   stopping at a failure) and MPI_Finalize (SELF first, then WORLD, then the rest);
//! - freeing a keyval in use; errors (MPI_ERR_COMM, MPI_ERR_KEYVAL) under MPI_ERRORS_RETURN.
//!
//! How the single global runtime is reused: each case is one MPI lifetime (MPI_Init ... ops ...
//! MPI_Finalize), after which `mpicache::testhooks::reset()` (test-hooks feature) returns the
//! runtime to "not initialized"; cases run one after the other in this process.
//!
//! Size: by default ≥ 100,000 operations (MPICACHE_MODEL_CASES overrides the number of cases);
//! MPICACHE_SOAK=1 runs 40,000 cases (millions of operations). MPICACHE_MODEL_SEED=<u64>
//! replays a run; the seed is printed.
// These drive the Fortran entry points with 4-byte INTEGERs; the 8-byte build has
// tests/programs/ilp64.rs.
#![cfg(not(feature = "fortran-integer-8"))]

mod model;

use model::*;
use mpicache::capi::attr::*;
use mpicache::capi::callbacks::*;
use mpicache::capi::comm::*;
use mpicache::capi::errhandler::MPI_Comm_set_errhandler;
use mpicache::capi::init::MPI_Init;
use mpicache::capi::request::MPI_Wait;
use mpicache::consts::*;
use mpicache::fortran::attr::*;
use mpicache::fortran::callbacks::*;
use mpicache::fortran::comm::{mpi_comm_dup_, mpi_comm_free_};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use std::collections::HashMap;
use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

// ---------------------------------------------------------------------------------------------
// The callbacks: they record what they were given and do what the behaviour table says.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seen {
    /// A C callback's `void*`; when it is not one of the test's C values (which are all below
    /// 0x10000 or above 2**63), what it points to, read during the call.
    C {
        ptr: usize,
        as_int: Option<i32>,
        as_aint: Option<i64>,
    },
    FAddr(i64),
    FInt(i32),
}

#[derive(Debug, Clone, Copy)]
struct Event {
    kind: CbKind,
    handle: i32,
    keyval: i32,
    seen: Seen,
    /// extra_state as the convention sees it (C: the pointer as an integer).
    extra: i64,
    conv: Conv,
}

static LOG: Mutex<Vec<Event>> = Mutex::new(Vec::new());
/// keyval number -> (copy behaviour, delete behaviour, the LOGICAL true a Fortran copy
/// routine writes).
type Behaviors = HashMap<i32, (CopyBehavior, DeleteBehavior, i32)>;
static BEHAVIOR: Mutex<Option<Behaviors>> = Mutex::new(None);
static OPS: AtomicU64 = AtomicU64::new(0);
/// Operations that named a keyval the user had freed while attributes still used it (MPI 4.1
/// §7.7.2), and those among them that found one of its attributes.
static FREED_HELD_OPS: AtomicU64 = AtomicU64::new(0);
static FREED_HELD_HITS: AtomicU64 = AtomicU64::new(0);
/// One MPI lifetime at a time in this process.
static SERIAL: Mutex<()> = Mutex::new(());

fn log(e: Event) {
    LOG.lock().unwrap_or_else(|p| p.into_inner()).push(e);
}

fn behavior(keyval: i32) -> (CopyBehavior, DeleteBehavior, i32) {
    BEHAVIOR
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .as_ref()
        .and_then(|m| m.get(&keyval).copied())
        .unwrap_or((CopyBehavior::Skip, DeleteBehavior::Ok, 1))
}

/// The test's C values: below 0x10000 (never a mapped address) or with the top bit set (never a
/// user-space address). Anything else a C callback or reader receives is a library pointer.
fn c_domain(p: usize) -> bool {
    p < 0x10000 || (p as u64) >= 1 << 63
}

fn c_value(v: i64) -> u64 {
    let p = v as u64;
    if c_domain(p as usize) {
        p
    } else {
        p & 0xffff
    }
}

/// Reads what a library pointer points to (an int, and an MPI_Aint when 8-aligned).
unsafe fn c_seen(p: *mut c_void) -> Seen {
    let ptr = p as usize;
    if c_domain(ptr) {
        return Seen::C {
            ptr,
            as_int: None,
            as_aint: None,
        };
    }
    let as_int = Some(unsafe { *(p as *const i32) });
    let as_aint = ptr.is_multiple_of(8).then(|| unsafe { *(p as *const i64) });
    Seen::C {
        ptr,
        as_int,
        as_aint,
    }
}

unsafe extern "C" fn c_copy(
    old: c_int,
    keyval: c_int,
    extra: *mut c_void,
    val_in: *mut c_void,
    val_out: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    log(Event {
        kind: CbKind::Copy,
        handle: old,
        keyval,
        seen: unsafe { c_seen(val_in) },
        extra: extra as i64,
        conv: Conv::C,
    });
    match behavior(keyval).0 {
        CopyBehavior::Pass => unsafe {
            *(val_out as *mut *mut c_void) = val_in;
            *flag = 1;
        },
        CopyBehavior::Const(w) => unsafe {
            *(val_out as *mut *mut c_void) = c_value(w) as usize as *mut c_void;
            *flag = 1;
        },
        CopyBehavior::Skip => unsafe { *flag = 0 },
        CopyBehavior::Fail(code) => return code,
    }
    MPI_SUCCESS
}

unsafe extern "C" fn c_delete(
    comm: c_int,
    keyval: c_int,
    val: *mut c_void,
    extra: *mut c_void,
) -> c_int {
    log(Event {
        kind: CbKind::Delete,
        handle: comm,
        keyval,
        seen: unsafe { c_seen(val) },
        extra: extra as i64,
        conv: Conv::C,
    });
    match behavior(keyval).1 {
        DeleteBehavior::Ok => MPI_SUCCESS,
        DeleteBehavior::Fail(code) => code,
    }
}

/// gfortran's view of `SUBROUTINE COPY(OLDCOMM, KEYVAL, EXTRA_STATE, ATTRIBUTE_VAL_IN,
/// ATTRIBUTE_VAL_OUT, FLAG, IERROR)` with INTEGER(KIND=MPI_ADDRESS_KIND) values.
unsafe extern "C" fn fa_copy(
    old: *const i32,
    keyval: *const i32,
    extra: *const isize,
    val_in: *const isize,
    val_out: *mut isize,
    flag: *mut i32,
    ierror: *mut i32,
) {
    let (old, keyval, extra, val_in) = unsafe { (*old, *keyval, *extra, *val_in) };
    log(Event {
        kind: CbKind::Copy,
        handle: old,
        keyval,
        seen: Seen::FAddr(val_in as i64),
        extra: extra as i64,
        conv: Conv::FAddress,
    });
    let (b, _, truth) = behavior(keyval);
    unsafe {
        *ierror = MPI_SUCCESS;
        match b {
            CopyBehavior::Pass => {
                *val_out = val_in;
                *flag = truth;
            }
            CopyBehavior::Const(w) => {
                *val_out = w as isize;
                *flag = truth;
            }
            CopyBehavior::Skip => *flag = 0,
            CopyBehavior::Fail(code) => *ierror = code,
        }
    }
}

unsafe extern "C" fn fa_delete(
    comm: *const i32,
    keyval: *const i32,
    val: *const isize,
    extra: *const isize,
    ierror: *mut i32,
) {
    let (comm, keyval, val, extra) = unsafe { (*comm, *keyval, *val, *extra) };
    log(Event {
        kind: CbKind::Delete,
        handle: comm,
        keyval,
        seen: Seen::FAddr(val as i64),
        extra: extra as i64,
        conv: Conv::FAddress,
    });
    unsafe {
        *ierror = match behavior(keyval).1 {
            DeleteBehavior::Ok => MPI_SUCCESS,
            DeleteBehavior::Fail(code) => code,
        }
    };
}

/// gfortran's view of the INTEGER copy routine of `MPI_KEYVAL_CREATE`.
unsafe extern "C" fn fi_copy(
    old: *const i32,
    keyval: *const i32,
    extra: *const i32,
    val_in: *const i32,
    val_out: *mut i32,
    flag: *mut i32,
    ierror: *mut i32,
) {
    let (old, keyval, extra, val_in) = unsafe { (*old, *keyval, *extra, *val_in) };
    log(Event {
        kind: CbKind::Copy,
        handle: old,
        keyval,
        seen: Seen::FInt(val_in),
        extra: extra as i64,
        conv: Conv::FInteger,
    });
    let (b, _, truth) = behavior(keyval);
    unsafe {
        *ierror = MPI_SUCCESS;
        match b {
            CopyBehavior::Pass => {
                *val_out = val_in;
                *flag = truth;
            }
            CopyBehavior::Const(w) => {
                *val_out = w as i32;
                *flag = truth;
            }
            CopyBehavior::Skip => *flag = 0,
            CopyBehavior::Fail(code) => *ierror = code,
        }
    }
}

unsafe extern "C" fn fi_delete(
    comm: *const i32,
    keyval: *const i32,
    val: *const i32,
    extra: *const i32,
    ierror: *mut i32,
) {
    let (comm, keyval, val, extra) = unsafe { (*comm, *keyval, *val, *extra) };
    log(Event {
        kind: CbKind::Delete,
        handle: comm,
        keyval,
        seen: Seen::FInt(val),
        extra: extra as i64,
        conv: Conv::FInteger,
    });
    unsafe {
        *ierror = match behavior(keyval).1 {
            DeleteBehavior::Ok => MPI_SUCCESS,
            DeleteBehavior::Fail(code) => code,
        }
    };
}

// ---------------------------------------------------------------------------------------------
// Operations.

#[derive(Debug, Clone, Copy)]
enum KvApi {
    /// C `MPI_Comm_create_keyval`.
    CComm,
    /// C deprecated `MPI_Keyval_create`.
    CKeyval,
    /// C `MPI_Type_create_keyval` (a keyval of the wrong kind for communicators).
    CType,
    /// Fortran `MPI_COMM_CREATE_KEYVAL` (ADDRESS_KIND convention).
    FComm,
    /// Fortran deprecated `MPI_KEYVAL_CREATE` (INTEGER convention).
    FKeyval,
}

#[derive(Debug, Clone, Copy)]
enum CopySel {
    NullPointer,
    /// `MPI_COMM_NULL_COPY_FN` / `mpi_comm_null_copy_fn_` / `mpi_null_copy_fn_`.
    NullFn,
    /// The MPI-1 spelling (`MPI_NULL_COPY_FN`) or the datatype one for Fortran.
    NullFnOther,
    DupFn,
    DupFnOther,
    User,
}

#[derive(Debug, Clone, Copy)]
enum DelSel {
    NullPointer,
    NullFn,
    User,
}

#[derive(Debug, Clone, Copy)]
enum KvSel {
    Created(u8),
    TagUb,
    Invalid,
    Forged,
}

#[derive(Debug, Clone, Copy)]
enum Writer {
    CSet,
    CAttrPut,
    FSet,
    FAttrPut,
}

#[derive(Debug, Clone, Copy)]
#[allow(clippy::enum_variant_names)]
enum Reader {
    CGet,
    CAttrGet,
    FGet,
    FAttrGet,
}

#[derive(Debug, Clone, Copy)]
enum Via {
    C,
    CDeprecated,
    F,
    FDeprecated,
}

#[derive(Debug, Clone, Copy)]
enum DupApi {
    C,
    CWithInfo,
    CIdup,
    F,
}

#[derive(Debug, Clone, Copy)]
enum Op {
    CreateKeyval {
        api: KvApi,
        copy: CopySel,
        delete: DelSel,
        extra: i64,
    },
    Behave {
        kv: u8,
        copy: CopyBehavior,
        delete: DeleteBehavior,
        fortran_true: i32,
    },
    Set {
        comm: u8,
        kv: KvSel,
        writer: Writer,
        value: i64,
    },
    Get {
        comm: u8,
        kv: KvSel,
        reader: Reader,
    },
    Delete {
        comm: u8,
        kv: KvSel,
        via: Via,
    },
    Dup {
        comm: u8,
        via: DupApi,
    },
    Free {
        comm: u8,
        fortran: bool,
    },
    FreeKeyval {
        kv: KvSel,
        /// C / CDeprecated (`MPI_Keyval_free`) / F / FDeprecated; `type_api` uses the datatype
        /// routine instead.
        via: Via,
        type_api: bool,
    },
}

fn value_strategy() -> impl Strategy<Value = i64> {
    prop_oneof![
        -5i64..5,
        0i64..0x10000,
        Just(1i64 << 40),
        Just(i64::MIN),
        Just(-1i64),
        (i32::MIN as i64)..=(i32::MAX as i64),
        any::<i64>(),
    ]
}

fn code_strategy() -> impl Strategy<Value = i32> {
    prop_oneof![Just(MPI_ERR_OTHER), Just(MPI_ERR_ARG), 1000i32..1010]
}

fn kv_sel() -> impl Strategy<Value = KvSel> {
    prop_oneof![
        12 => any::<u8>().prop_map(KvSel::Created),
        1 => Just(KvSel::TagUb),
        1 => Just(KvSel::Invalid),
        1 => Just(KvSel::Forged),
    ]
}

fn op_strategy() -> impl Strategy<Value = Op> {
    let create = (
        prop_oneof![
            Just(KvApi::CComm),
            Just(KvApi::CKeyval),
            Just(KvApi::CType),
            Just(KvApi::FComm),
            Just(KvApi::FKeyval)
        ],
        prop_oneof![
            1 => Just(CopySel::NullPointer),
            1 => Just(CopySel::NullFn),
            1 => Just(CopySel::NullFnOther),
            1 => Just(CopySel::DupFn),
            1 => Just(CopySel::DupFnOther),
            4 => Just(CopySel::User)
        ],
        prop_oneof![1 => Just(DelSel::NullPointer), 1 => Just(DelSel::NullFn), 4 => Just(DelSel::User)],
        value_strategy(),
    )
        .prop_map(|(api, copy, delete, extra)| Op::CreateKeyval {
            api,
            copy,
            delete,
            extra,
        });
    let behave = (
        any::<u8>(),
        prop_oneof![
            4 => Just(CopyBehavior::Pass),
            2 => value_strategy().prop_map(CopyBehavior::Const),
            1 => Just(CopyBehavior::Skip),
            1 => code_strategy().prop_map(CopyBehavior::Fail),
        ],
        prop_oneof![
            5 => Just(DeleteBehavior::Ok),
            1 => code_strategy().prop_map(DeleteBehavior::Fail),
        ],
        prop_oneof![Just(1i32), Just(-1i32), Just(7i32)],
    )
        .prop_map(|(kv, copy, delete, fortran_true)| Op::Behave {
            kv,
            copy,
            delete,
            fortran_true,
        });
    let writer = prop_oneof![
        Just(Writer::CSet),
        Just(Writer::CAttrPut),
        Just(Writer::FSet),
        Just(Writer::FAttrPut)
    ];
    let reader = prop_oneof![
        Just(Reader::CGet),
        Just(Reader::CAttrGet),
        Just(Reader::FGet),
        Just(Reader::FAttrGet)
    ];
    let via = prop_oneof![
        Just(Via::C),
        Just(Via::CDeprecated),
        Just(Via::F),
        Just(Via::FDeprecated)
    ];
    let dup = prop_oneof![
        Just(DupApi::C),
        Just(DupApi::CWithInfo),
        Just(DupApi::CIdup),
        Just(DupApi::F)
    ];
    prop_oneof![
        3 => create,
        2 => behave,
        10 => (any::<u8>(), kv_sel(), writer, value_strategy())
            .prop_map(|(comm, kv, writer, value)| Op::Set { comm, kv, writer, value }),
        8 => (any::<u8>(), kv_sel(), reader).prop_map(|(comm, kv, reader)| Op::Get { comm, kv, reader }),
        3 => (any::<u8>(), kv_sel(), via.clone()).prop_map(|(comm, kv, via)| Op::Delete { comm, kv, via }),
        3 => (any::<u8>(), dup).prop_map(|(comm, via)| Op::Dup { comm, via }),
        2 => (any::<u8>(), any::<bool>()).prop_map(|(comm, fortran)| Op::Free { comm, fortran }),
        2 => (kv_sel(), via, prop::bool::weighted(0.2))
            .prop_map(|(kv, via, type_api)| Op::FreeKeyval { kv, via, type_api }),
    ]
}

// ---------------------------------------------------------------------------------------------
// The driver: runs one op through the entry points and checks it against the model.

const FORGED_KEYVAL: i32 = 987_654;

struct Driver {
    model: Model,
    /// Model communicator index -> real handle.
    comms: Vec<i32>,
    /// Model keyval index -> real number.
    keyvals: Vec<i32>,
    /// C reader pointers into the library's storage of Fortran-set values: (comm, keyval,
    /// instance, pointer, value); each must keep pointing at the value while the instance lives.
    pointers: Vec<(usize, usize, u64, usize, Val)>,
}

type Check = Result<(), TestCaseError>;

macro_rules! ensure {
    ($cond:expr, $($fmt:tt)+) => {
        if !$cond {
            return Err(TestCaseError::fail(format!($($fmt)+)));
        }
    };
}

fn take_log() -> Vec<Event> {
    std::mem::take(&mut *LOG.lock().unwrap_or_else(|p| p.into_inner()))
}

fn set_behavior(keyval: i32, b: (CopyBehavior, DeleteBehavior, i32)) {
    BEHAVIOR
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get_or_insert_with(HashMap::new)
        .insert(keyval, b);
}

impl Driver {
    fn kv_ref(&self, kv: KvSel) -> (KvRef, i32) {
        match kv {
            KvSel::Created(i) if !self.keyvals.is_empty() => {
                let k = i as usize % self.keyvals.len();
                (KvRef::Created(k), self.keyvals[k])
            }
            KvSel::Created(_) | KvSel::Forged => (KvRef::Forged, FORGED_KEYVAL),
            KvSel::TagUb => (KvRef::TagUb, MPI_TAG_UB),
            KvSel::Invalid => (KvRef::Invalid, MPI_KEYVAL_INVALID),
        }
    }

    fn comm(&self, c: u8) -> usize {
        c as usize % self.comms.len()
    }

    fn check_outcome(&self, what: &str, rc: i32, outcome: &Outcome) -> Check {
        let ok = match outcome {
            Outcome::Ok => rc == MPI_SUCCESS,
            Outcome::Class(classes) => classes.iter().any(|c| {
                rc == match c {
                    ErrClass::Comm => MPI_ERR_COMM,
                    ErrClass::Keyval => MPI_ERR_KEYVAL,
                }
            }),
            Outcome::Code(code) => rc == *code,
            Outcome::AnyCode(codes) => codes.contains(&rc),
        };
        ensure!(ok, "{what}: returned {rc}, model expects {outcome:?}");
        Ok(())
    }

    /// A C reader's or C callback's view of `val`.
    fn check_c_view(
        &self,
        what: &str,
        ptr: usize,
        as_int: Option<i32>,
        as_aint: Option<i64>,
        val: Val,
    ) -> Check {
        match val.prov {
            Prov::CPointer => ensure!(
                ptr == val.word as usize,
                "{what}: C view is {ptr:#x}, expected the pointer {:#x}",
                val.word as u64
            ),
            Prov::FAddress => {
                ensure!(
                    !c_domain(ptr) && ptr.is_multiple_of(8),
                    "{what}: C view of a Fortran ADDRESS_KIND value {} should point to an MPI_Aint, got {ptr:#x}",
                    val.word
                );
                ensure!(
                    as_aint == Some(val.word),
                    "{what}: *(MPI_Aint*) is {as_aint:?}, expected {}",
                    val.word
                );
            }
            Prov::FInteger => {
                ensure!(
                    !c_domain(ptr),
                    "{what}: C view of a Fortran INTEGER value {} should point to an int, got {ptr:#x}",
                    val.word
                );
                ensure!(
                    as_int == Some(val.word as i32),
                    "{what}: *(int*) is {as_int:?}, expected {}",
                    val.word as i32
                );
            }
        }
        Ok(())
    }

    fn check_event(
        &self,
        what: &str,
        got: &Event,
        want: &Call,
        new_handle: &mut Option<i32>,
    ) -> Check {
        ensure!(
            got.kind == want.kind && got.conv == want.conv,
            "{what}: callback {:?}/{:?} called, model expects {:?}/{:?} ({got:?} vs {want:?})",
            got.kind,
            got.conv,
            want.kind,
            want.conv
        );
        match want.obj {
            ObjId::Comm(c) => ensure!(
                got.handle == self.comms[c],
                "{what}: {:?} callback got handle {:#x}, expected {:#x}",
                want.kind,
                got.handle,
                self.comms[c]
            ),
            ObjId::FailedDupNew => {
                let h = *new_handle.get_or_insert(got.handle);
                ensure!(
                    h == got.handle && !self.comms.contains(&h) && h != MPI_COMM_NULL,
                    "{what}: delete callback of a failed dup's copy got handle {:#x}",
                    got.handle
                );
            }
        }
        ensure!(
            got.keyval == self.keyvals[want.kv],
            "{what}: callback got keyval {}, expected {}",
            got.keyval,
            self.keyvals[want.kv]
        );
        let extra_ok = match want.conv {
            Conv::C | Conv::FAddress => got.extra == want.extra,
            Conv::FInteger => got.extra == want.extra as i32 as i64,
        };
        ensure!(
            extra_ok,
            "{what}: callback got extra_state {}, expected {}",
            got.extra,
            want.extra
        );
        match (got.seen, want.conv) {
            (
                Seen::C {
                    ptr,
                    as_int,
                    as_aint,
                },
                Conv::C,
            ) => self.check_c_view(
                &format!("{what}: {:?} callback value", want.kind),
                ptr,
                as_int,
                as_aint,
                want.val,
            )?,
            (Seen::FAddr(v), Conv::FAddress) => ensure!(
                v == want.val.faddr_view(),
                "{what}: ADDRESS_KIND {:?} callback got {v}, expected {} ({:?})",
                want.kind,
                want.val.faddr_view(),
                want.val
            ),
            (Seen::FInt(v), Conv::FInteger) => ensure!(
                v == want.val.fint_view(),
                "{what}: INTEGER {:?} callback got {v}, expected {} ({:?})",
                want.kind,
                want.val.fint_view(),
                want.val
            ),
            (seen, conv) => ensure!(false, "{what}: {seen:?} seen by a {conv:?} callback"),
        }
        Ok(())
    }

    fn check_calls(&self, what: &str, got: &[Event], want: &[Call]) -> Check {
        ensure!(
            got.len() == want.len(),
            "{what}: {} callback calls, model expects {}:\n got: {got:#?}\n want: {want:#?}",
            got.len(),
            want.len()
        );
        let mut new_handle = None;
        for (i, (g, w)) in got.iter().zip(want).enumerate() {
            self.check_event(&format!("{what}: call {i}"), g, w, &mut new_handle)?;
        }
        Ok(())
    }

    /// Every pointer handed to a C reader for a Fortran-set value still points at the value.
    fn check_pointers(&mut self) -> Check {
        let model = &self.model;
        self.pointers.retain(|&(c, kv, inst, _, _)| {
            model.instance(c, kv).is_some_and(|a| a.instance == inst)
        });
        for &(_, _, _, ptr, val) in &self.pointers {
            // SAFETY: the attribute instance is alive, so the library keeps this storage.
            let seen = unsafe { c_seen(ptr as *mut c_void) };
            if let Seen::C {
                ptr,
                as_int,
                as_aint,
            } = seen
            {
                self.check_c_view(
                    "C reader pointer kept while the attribute lives",
                    ptr,
                    as_int,
                    as_aint,
                    val,
                )?;
            }
        }
        Ok(())
    }

    /// Counts an operation on communicator `comm` that names a keyval freed while attributes
    /// still use it, so the run can show it exercised them.
    fn count_freed_held(&self, comm: u8, kv: KvSel) {
        if let (KvRef::Created(k), _) = self.kv_ref(kv) {
            if self.model.keyvals[k].freed && self.model.held(k) {
                FREED_HELD_OPS.fetch_add(1, Ordering::Relaxed);
                if self.model.instance(self.comm(comm), k).is_some() {
                    FREED_HELD_HITS.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
    }

    fn run(&mut self, op: &Op) -> Check {
        OPS.fetch_add(1, Ordering::Relaxed);
        let what = format!("{op:?}");
        let what = what.as_str();
        if let Op::Set { comm, kv, .. } | Op::Get { comm, kv, .. } | Op::Delete { comm, kv, .. } =
            *op
        {
            self.count_freed_held(comm, kv);
        }
        match *op {
            Op::CreateKeyval {
                api,
                copy,
                delete,
                extra,
            } => {
                let (kind, conv) = match api {
                    KvApi::CComm | KvApi::CKeyval => (KvKind::Comm, Conv::C),
                    KvApi::CType => (KvKind::Type, Conv::C),
                    KvApi::FComm => (KvKind::Comm, Conv::FAddress),
                    KvApi::FKeyval => (KvKind::Comm, Conv::FInteger),
                };
                let extra = if conv == Conv::FInteger {
                    extra as i32 as i64
                } else {
                    extra
                };
                let copy_kind = match copy {
                    CopySel::NullPointer | CopySel::NullFn | CopySel::NullFnOther => CopyKind::Null,
                    CopySel::DupFn | CopySel::DupFnOther => CopyKind::Dup,
                    CopySel::User => CopyKind::User,
                };
                let delete_kind = match delete {
                    DelSel::NullPointer | DelSel::NullFn => DeleteKind::Null,
                    DelSel::User => DeleteKind::User,
                };
                let mut number: i32 = -1;
                let rc = match conv {
                    Conv::C => {
                        let cf: Option<mpicache::capi::types::MPI_Comm_copy_attr_function> =
                            match copy {
                                CopySel::NullPointer => None,
                                CopySel::NullFn => Some(MPI_COMM_NULL_COPY_FN),
                                CopySel::NullFnOther => Some(MPI_NULL_COPY_FN),
                                CopySel::DupFn => Some(MPI_COMM_DUP_FN),
                                CopySel::DupFnOther => Some(MPI_DUP_FN),
                                CopySel::User => Some(c_copy),
                            };
                        let df: Option<mpicache::capi::types::MPI_Comm_delete_attr_function> =
                            match delete {
                                DelSel::NullPointer => None,
                                DelSel::NullFn => Some(MPI_COMM_NULL_DELETE_FN),
                                DelSel::User => Some(c_delete),
                            };
                        let es = extra as usize as *mut c_void;
                        unsafe {
                            match api {
                                KvApi::CComm => MPI_Comm_create_keyval(cf, df, &mut number, es),
                                KvApi::CKeyval => MPI_Keyval_create(cf, df, &mut number, es),
                                _ => MPI_Type_create_keyval(cf, df, &mut number, es),
                            }
                        }
                    }
                    Conv::FAddress => {
                        let cf: Option<MPI_Fcopy_attr_function> = match copy {
                            CopySel::NullPointer => None,
                            CopySel::NullFn => Some(mpi_comm_null_copy_fn_),
                            CopySel::NullFnOther => Some(mpi_type_null_copy_fn_),
                            CopySel::DupFn => Some(mpi_comm_dup_fn_),
                            CopySel::DupFnOther => Some(mpi_win_dup_fn_),
                            CopySel::User => Some(fa_copy),
                        };
                        let df: Option<MPI_Fdelete_attr_function> = match delete {
                            DelSel::NullPointer => None,
                            DelSel::NullFn => Some(mpi_comm_null_delete_fn_),
                            DelSel::User => Some(fa_delete),
                        };
                        // The caller's variable goes away at once: the keyval keeps its own copy.
                        let es: isize = extra as isize;
                        let mut ierr = -1;
                        unsafe { mpi_comm_create_keyval_(cf, df, &mut number, &es, &mut ierr) };
                        ierr
                    }
                    Conv::FInteger => {
                        let cf: Option<MPI_Fcopy_function> = match copy {
                            CopySel::NullPointer => None,
                            CopySel::NullFn | CopySel::NullFnOther => Some(mpi_null_copy_fn_),
                            CopySel::DupFn | CopySel::DupFnOther => Some(mpi_dup_fn_),
                            CopySel::User => Some(fi_copy),
                        };
                        let df: Option<MPI_Fdelete_function> = match delete {
                            DelSel::NullPointer => None,
                            DelSel::NullFn => Some(mpi_null_delete_fn_),
                            DelSel::User => Some(fi_delete),
                        };
                        let es: i32 = extra as i32;
                        let mut ierr = -1;
                        unsafe { mpi_keyval_create_(cf, df, &mut number, &es, &mut ierr) };
                        ierr
                    }
                };
                ensure!(rc == MPI_SUCCESS, "{what}: returned {rc}");
                ensure!(
                    number > 0
                        && number != MPI_KEYVAL_INVALID
                        && number != MPI_TAG_UB
                        && !self.keyvals.contains(&number),
                    "{what}: keyval number {number} is invalid or was handed out before ({:?})",
                    self.keyvals
                );
                let k = self
                    .model
                    .create_keyval(kind, conv, copy_kind, delete_kind, extra);
                self.keyvals.push(number);
                let kv = &self.model.keyvals[k];
                set_behavior(number, (kv.copy_behavior, kv.delete_behavior, 1));
                ensure!(take_log().is_empty(), "{what}: a callback ran");
            }
            Op::Behave {
                kv,
                copy,
                delete,
                fortran_true,
            } => {
                if self.keyvals.is_empty() {
                    return Ok(());
                }
                let k = kv as usize % self.keyvals.len();
                // A C routine returns one of the test's C values (see `c_domain`).
                let copy = match (copy, self.model.keyvals[k].conv) {
                    (CopyBehavior::Const(w), Conv::C) => CopyBehavior::Const(c_value(w) as i64),
                    (b, _) => b,
                };
                self.model.keyvals[k].copy_behavior = copy;
                self.model.keyvals[k].delete_behavior = delete;
                set_behavior(self.keyvals[k], (copy, delete, fortran_true));
            }
            Op::Set {
                comm,
                kv,
                writer,
                value,
            } => {
                let c = self.comm(comm);
                let h = self.comms[c];
                let (kref, number) = self.kv_ref(kv);
                let (rc, val) = match writer {
                    Writer::CSet | Writer::CAttrPut => {
                        let p = c_value(value);
                        let rc = unsafe {
                            if matches!(writer, Writer::CSet) {
                                MPI_Comm_set_attr(h, number, p as usize as *mut c_void)
                            } else {
                                MPI_Attr_put(h, number, p as usize as *mut c_void)
                            }
                        };
                        (rc, Val::c(p))
                    }
                    Writer::FSet => {
                        let v = value as isize;
                        let mut ierr = -1;
                        unsafe { mpi_comm_set_attr_(&h, &number, &v, &mut ierr) };
                        (ierr, Val::faddr(value))
                    }
                    Writer::FAttrPut => {
                        let v = value as i32;
                        let mut ierr = -1;
                        unsafe { mpi_attr_put_(&h, &number, &v, &mut ierr) };
                        (ierr, Val::fint(v))
                    }
                };
                let ex = self.model.set(c, kref, val);
                self.check_outcome(what, rc, &ex.outcome)?;
                self.check_calls(what, &take_log(), &ex.calls)?;
            }
            Op::Get { comm, kv, reader } => {
                let c = self.comm(comm);
                let h = self.comms[c];
                let (kref, number) = self.kv_ref(kv);
                let ex = self.model.get(c, kref);
                match reader {
                    Reader::CGet | Reader::CAttrGet => {
                        const SENTINEL: usize = 0x5e57_1ae1;
                        let mut p: *mut c_void = SENTINEL as *mut c_void;
                        let mut flag: c_int = -7;
                        let rc = unsafe {
                            let out = (&mut p as *mut *mut c_void).cast::<c_void>();
                            if matches!(reader, Reader::CGet) {
                                MPI_Comm_get_attr(h, number, out, &mut flag)
                            } else {
                                MPI_Attr_get(h, number, out, &mut flag)
                            }
                        };
                        self.check_outcome(what, rc, &ex.outcome)?;
                        match ex.read {
                            Some(Some(val)) => {
                                ensure!(flag == 1, "{what}: flag {flag}, expected true");
                                if let Seen::C {
                                    ptr,
                                    as_int,
                                    as_aint,
                                } = unsafe { c_seen(p) }
                                {
                                    self.check_c_view(what, ptr, as_int, as_aint, val)?;
                                }
                                if val.prov != Prov::CPointer {
                                    if let KvRef::Created(k) = kref {
                                        let inst =
                                            self.model.instance(c, k).expect("read").instance;
                                        self.pointers.push((c, k, inst, p as usize, val));
                                    }
                                }
                            }
                            Some(None) => {
                                ensure!(flag == 0, "{what}: flag {flag}, expected false");
                                ensure!(
                                    p as usize == SENTINEL,
                                    "{what}: value written with flag false"
                                );
                            }
                            None => {}
                        }
                    }
                    Reader::FGet => {
                        let mut v: isize = 0x5e57;
                        let mut flag = -7;
                        let mut ierr = -1;
                        unsafe { mpi_comm_get_attr_(&h, &number, &mut v, &mut flag, &mut ierr) };
                        self.check_outcome(what, ierr, &ex.outcome)?;
                        match ex.read {
                            Some(Some(val)) => {
                                ensure!(
                                    flag == 1,
                                    "{what}: LOGICAL flag {flag}, expected .TRUE. (1)"
                                );
                                ensure!(
                                    v as i64 == val.faddr_view(),
                                    "{what}: read {v}, expected {} ({val:?})",
                                    val.faddr_view()
                                );
                            }
                            Some(None) => {
                                ensure!(flag == 0, "{what}: flag {flag}, expected .FALSE.");
                                ensure!(v == 0x5e57, "{what}: value written with flag false");
                            }
                            None => {}
                        }
                    }
                    Reader::FAttrGet => {
                        let mut v: i32 = 0x5e57;
                        let mut flag = -7;
                        let mut ierr = -1;
                        unsafe { mpi_attr_get_(&h, &number, &mut v, &mut flag, &mut ierr) };
                        self.check_outcome(what, ierr, &ex.outcome)?;
                        match ex.read {
                            Some(Some(val)) => {
                                ensure!(
                                    flag == 1,
                                    "{what}: LOGICAL flag {flag}, expected .TRUE. (1)"
                                );
                                ensure!(
                                    v == val.fint_view(),
                                    "{what}: read {v}, expected {} ({val:?})",
                                    val.fint_view()
                                );
                            }
                            Some(None) => {
                                ensure!(flag == 0, "{what}: flag {flag}, expected .FALSE.");
                                ensure!(v == 0x5e57, "{what}: value written with flag false");
                            }
                            None => {}
                        }
                    }
                }
                ensure!(take_log().is_empty(), "{what}: a callback ran on a get");
            }
            Op::Delete { comm, kv, via } => {
                let c = self.comm(comm);
                let h = self.comms[c];
                let (kref, number) = self.kv_ref(kv);
                let rc = unsafe {
                    let mut ierr = -1;
                    match via {
                        Via::C => MPI_Comm_delete_attr(h, number),
                        Via::CDeprecated => MPI_Attr_delete(h, number),
                        Via::F => {
                            mpi_comm_delete_attr_(&h, &number, &mut ierr);
                            ierr
                        }
                        Via::FDeprecated => {
                            mpi_attr_delete_(&h, &number, &mut ierr);
                            ierr
                        }
                    }
                };
                let ex = self.model.delete(c, kref);
                self.check_outcome(what, rc, &ex.outcome)?;
                self.check_calls(what, &take_log(), &ex.calls)?;
            }
            Op::Dup { comm, via } => {
                let c = self.comm(comm);
                let h = self.comms[c];
                let mut newcomm: i32 = 0x7e57;
                let rc = unsafe {
                    match via {
                        DupApi::C => MPI_Comm_dup(h, &mut newcomm),
                        DupApi::CWithInfo => MPI_Comm_dup_with_info(h, MPI_INFO_NULL, &mut newcomm),
                        DupApi::CIdup => {
                            let mut req = MPI_REQUEST_NULL;
                            let rc = MPI_Comm_idup(h, &mut newcomm, &mut req);
                            if rc == MPI_SUCCESS {
                                let w = MPI_Wait(&mut req, std::ptr::null_mut());
                                ensure!(
                                    w == MPI_SUCCESS && req == MPI_REQUEST_NULL,
                                    "{what}: MPI_Wait on the idup request returned {w}, request {req:#x}"
                                );
                            }
                            rc
                        }
                        DupApi::F => {
                            let mut ierr = -1;
                            mpi_comm_dup_(&h, &mut newcomm, &mut ierr);
                            ierr
                        }
                    }
                };
                let ex = self.model.dup(c);
                self.check_outcome(what, rc, &ex.outcome)?;
                self.check_calls(what, &take_log(), &ex.calls)?;
                match ex.new_comm {
                    Some(n) => {
                        ensure!(
                            newcomm != MPI_COMM_NULL && !self.comms.contains(&newcomm),
                            "{what}: new handle {newcomm:#x} is null or already known"
                        );
                        assert_eq!(n, self.comms.len());
                        self.comms.push(newcomm);
                    }
                    None => {
                        if matches!(ex.outcome, Outcome::Code(_)) {
                            ensure!(
                                newcomm == MPI_COMM_NULL,
                                "{what}: a failed dup must return MPI_COMM_NULL, got {newcomm:#x}"
                            );
                        }
                    }
                }
            }
            Op::Free { comm, fortran } => {
                let c = self.comm(comm);
                let mut h = self.comms[c];
                let rc = unsafe {
                    if fortran {
                        let mut ierr = -1;
                        mpi_comm_free_(&mut h, &mut ierr);
                        ierr
                    } else {
                        MPI_Comm_free(&mut h)
                    }
                };
                let ex = self.model.free_comm(c);
                self.check_outcome(what, rc, &ex.outcome)?;
                self.check_calls(what, &take_log(), &ex.calls)?;
                if rc == MPI_SUCCESS {
                    ensure!(
                        h == MPI_COMM_NULL,
                        "{what}: handle not set to MPI_COMM_NULL"
                    );
                } else {
                    ensure!(
                        h == self.comms[c],
                        "{what}: handle changed by a failed free"
                    );
                }
            }
            Op::FreeKeyval { kv, via, type_api } => {
                let (kref, number) = self.kv_ref(kv);
                let mut var = number;
                let rc = unsafe {
                    let mut ierr = -1;
                    match (type_api, via) {
                        (true, Via::C | Via::CDeprecated) => MPI_Type_free_keyval(&mut var),
                        (true, _) => {
                            mpi_type_free_keyval_(&mut var, &mut ierr);
                            ierr
                        }
                        (false, Via::C) => MPI_Comm_free_keyval(&mut var),
                        (false, Via::CDeprecated) => MPI_Keyval_free(&mut var),
                        (false, Via::F) => {
                            mpi_comm_free_keyval_(&mut var, &mut ierr);
                            ierr
                        }
                        (false, Via::FDeprecated) => {
                            mpi_keyval_free_(&mut var, &mut ierr);
                            ierr
                        }
                    }
                };
                let kind = if type_api { KvKind::Type } else { KvKind::Comm };
                let ex = self.model.free_keyval(kref, kind);
                self.check_outcome(what, rc, &ex.outcome)?;
                if rc == MPI_SUCCESS {
                    ensure!(
                        var == MPI_KEYVAL_INVALID,
                        "{what}: keyval not set to MPI_KEYVAL_INVALID"
                    );
                } else {
                    ensure!(
                        var == number,
                        "{what}: keyval variable changed by a failed free"
                    );
                }
                ensure!(take_log().is_empty(), "{what}: a callback ran");
            }
        }
        self.check_pointers()
    }

    /// MPI_Finalize: SELF's and WORLD's calls in order, then one run per other communicator.
    fn finalize(&mut self) -> Check {
        OPS.fetch_add(1, Ordering::Relaxed);
        let ex = self.model.finalize();
        let rc = mpicache::testhooks::reset();
        let log = take_log();
        self.check_outcome("MPI_Finalize", rc, &ex.outcome)?;
        let n = ex.calls.len();
        ensure!(
            log.len() >= n,
            "MPI_Finalize: {} calls, expected at least {n}:\n got: {log:#?}\n want: {:#?}",
            log.len(),
            ex.calls
        );
        self.check_calls("MPI_Finalize (SELF, WORLD)", &log[..n], &ex.calls)?;
        let mut rest = &log[n..];
        let mut groups = ex.unordered_groups.clone();
        while let Some(first) = rest.first() {
            let run = rest.iter().take_while(|e| e.handle == first.handle).count();
            let pos = groups.iter().position(|g| match g[0].obj {
                ObjId::Comm(c) => self.comms[c] == first.handle,
                ObjId::FailedDupNew => false,
            });
            ensure!(
                pos.is_some(),
                "MPI_Finalize: unexpected calls on handle {:#x}: {:#?}\n remaining groups: {groups:#?}",
                first.handle,
                &rest[..run]
            );
            let g = groups.remove(pos.unwrap());
            self.check_calls("MPI_Finalize (other communicators)", &rest[..run], &g)?;
            rest = &rest[run..];
        }
        ensure!(
            groups.is_empty(),
            "MPI_Finalize: delete callbacks never ran: {groups:#?}"
        );
        Ok(())
    }
}

/// Resets the runtime and the test's tables whatever happens to a case.
struct CaseGuard;

impl Drop for CaseGuard {
    fn drop(&mut self) {
        mpicache::testhooks::reset();
        take_log();
        *BEHAVIOR.lock().unwrap_or_else(|p| p.into_inner()) = None;
    }
}

fn run_case(ops: &[Op]) -> Check {
    let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let _guard = CaseGuard;
    unsafe {
        let rc = MPI_Init(std::ptr::null_mut(), std::ptr::null_mut());
        ensure!(rc == MPI_SUCCESS, "MPI_Init returned {rc}");
        ensure!(
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN) == MPI_SUCCESS,
            "set errhandler"
        );
        ensure!(
            MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN) == MPI_SUCCESS,
            "set errhandler"
        );
    }
    let mut d = Driver {
        model: Model::new(),
        comms: vec![MPI_COMM_WORLD, MPI_COMM_SELF],
        keyvals: Vec::new(),
        pointers: Vec::new(),
    };
    for op in ops {
        d.run(op)?;
    }
    d.finalize()
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

#[test]
fn random_sequences_match_the_model() {
    let soak = std::env::var_os("MPICACHE_SOAK").is_some_and(|v| v != "0");
    let cases = env_u64("MPICACHE_MODEL_CASES").unwrap_or(if soak { 40_000 } else { 2_500 }) as u32;
    let seed = env_u64("MPICACHE_MODEL_SEED").unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
    });
    eprintln!("model_random: {cases} cases, seed {seed} (replay with MPICACHE_MODEL_SEED={seed})");
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let config = Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 20_000,
        ..Config::default()
    };
    let mut runner = TestRunner::new_with_rng(
        config,
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes),
    );
    let start = std::time::Instant::now();
    let result = runner.run(&prop::collection::vec(op_strategy(), 1..300), |ops| {
        run_case(&ops)
    });
    let ops = OPS.load(Ordering::Relaxed);
    let freed_held = FREED_HELD_OPS.load(Ordering::Relaxed);
    let freed_hits = FREED_HELD_HITS.load(Ordering::Relaxed);
    eprintln!(
        "model_random: {ops} operations checked (shrinking included) in {:.1}s; {freed_held} \
         named a keyval freed while in use ({freed_hits} of them on an object holding it)",
        start.elapsed().as_secs_f64()
    );
    if let Err(e) = result {
        panic!("model_random (seed {seed}): {e}");
    }
    if env_u64("MPICACHE_MODEL_CASES").is_none() {
        assert!(
            ops >= 100_000,
            "only {ops} operations checked; the suite promises 100,000"
        );
        assert!(
            freed_held >= 1_000 && freed_hits >= 200,
            "only {freed_held} operations named a keyval freed while in use ({freed_hits} on \
             an object holding it): MPI 4.1 §7.7.2 is not exercised"
        );
    }
}
