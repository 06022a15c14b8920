//! Fortran caching routines (MPI 4.1 §7.7, §20.3.7), both generations.
//!
//! - `MPI_{COMM,TYPE,WIN}_SET_ATTR` store an INTEGER(KIND=MPI_ADDRESS_KIND) as it is
//!   (provenance `FortranAddress`); `*_GET_ATTR` read the whole word.
//! - deprecated `MPI_ATTR_PUT` stores an INTEGER sign-extended (`FortranInteger`);
//!   `MPI_ATTR_GET` reads the low part of the word.
//! - When the flag comes back false nothing is written to the value argument.

use crate::boundary::{rt, Out, Scope};
use crate::caching::convert::{fortran_address_view, fortran_integer_view, AttrWord};
use crate::caching::store::getters_x86_64::fortran_get_attr;
use crate::caching::store::Fast;
use crate::consts::{
    MPI_COMM_NULL, MPI_DATATYPE_NULL, MPI_ERR_COMM, MPI_ERR_KEYVAL, MPI_ERR_TYPE, MPI_ERR_WIN,
    MPI_KEYVAL_INVALID, MPI_WIN_NULL,
};
use crate::fortran::callbacks::{
    fortran_address_copy_fn, fortran_address_delete_fn, fortran_integer_copy_fn,
    fortran_integer_delete_fn, fortran_native_callbacks, MPI_Fcopy_attr_function,
    MPI_Fcopy_function, MPI_Fdelete_attr_function, MPI_Fdelete_function,
};
use crate::fortran::{
    by_ref, fint, logical, narrow, scope_handle, succeeded, wide, MPI_Aint, MPI_Fint, MPI_Flogical,
};
use crate::world::{ObjRef, ObjectKind, Result, Runtime};
use crate::{fentry, try_in, try_out};

// What the hand-written Fortran getters (caching/store/getters_x86_64.rs) store: .TRUE. as
// MPI_SUCCESS (a zeroed register) plus one, in 4-byte INTEGERs and LOGICALs.
#[cfg(mpicache_fast_get_fortran)]
const _: () = assert!(crate::fortran::FORTRAN_TRUE == 1 && crate::fortran::FORTRAN_FALSE == 0);
#[cfg(mpicache_fast_get_fortran)]
const _: () =
    assert!(std::mem::size_of::<MPI_Fint>() == 4 && std::mem::size_of::<MPI_Flogical>() == 4);

/// The routines of one object kind (or the deprecated MPI-1 forms, on communicators): the
/// shared bodies below take it, so the kind is data and only the signatures are per kind.
struct Calls {
    kind: ObjectKind,
    /// The kind's null handle: a NULL handle argument (only C can pass one) reads as it.
    null: i32,
    /// The class of a handle that names no object of the kind, and the argument's name.
    class: i32,
    handle: &'static str,
    create_keyval: &'static str,
    free_keyval: &'static str,
    set_attr: &'static str,
    get_attr: &'static str,
    delete_attr: &'static str,
}

impl Calls {
    /// Whose error handler the call's errors go to (a handle too wide for 32 bits: the null
    /// one's, and the body reports it).
    ///
    /// # Safety
    /// `handle` is the entry point's by-reference handle argument.
    #[inline(always)]
    unsafe fn scope(&self, handle: *const MPI_Fint) -> Scope {
        Scope::of(
            self.kind,
            // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
            scope_handle(unsafe { by_ref(handle, self.null) }, self.null),
        )
    }

    /// The object the call is on.
    ///
    /// # Safety
    /// As for [`Calls::scope`].
    #[inline(always)]
    unsafe fn obj(&self, handle: *const MPI_Fint) -> Result<ObjRef> {
        let h = narrow(
            // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
            unsafe { by_ref(handle, self.null) },
            self.class,
            self.handle,
        )?;
        Ok(ObjRef::of_int(self.kind, h))
    }
}

const COMM: Calls = Calls {
    kind: ObjectKind::Comm,
    null: MPI_COMM_NULL,
    class: MPI_ERR_COMM,
    handle: "comm",
    create_keyval: "MPI_COMM_CREATE_KEYVAL",
    free_keyval: "MPI_COMM_FREE_KEYVAL",
    set_attr: "MPI_COMM_SET_ATTR",
    get_attr: "MPI_COMM_GET_ATTR",
    delete_attr: "MPI_COMM_DELETE_ATTR",
};
const TYPE: Calls = Calls {
    kind: ObjectKind::Datatype,
    null: MPI_DATATYPE_NULL,
    class: MPI_ERR_TYPE,
    handle: "datatype",
    create_keyval: "MPI_TYPE_CREATE_KEYVAL",
    free_keyval: "MPI_TYPE_FREE_KEYVAL",
    set_attr: "MPI_TYPE_SET_ATTR",
    get_attr: "MPI_TYPE_GET_ATTR",
    delete_attr: "MPI_TYPE_DELETE_ATTR",
};
const WIN: Calls = Calls {
    kind: ObjectKind::Win,
    null: MPI_WIN_NULL,
    class: MPI_ERR_WIN,
    handle: "win",
    create_keyval: "MPI_WIN_CREATE_KEYVAL",
    free_keyval: "MPI_WIN_FREE_KEYVAL",
    set_attr: "MPI_WIN_SET_ATTR",
    get_attr: "MPI_WIN_GET_ATTR",
    delete_attr: "MPI_WIN_DELETE_ATTR",
};
const MPI1: Calls = Calls {
    kind: ObjectKind::Comm,
    null: MPI_COMM_NULL,
    class: MPI_ERR_COMM,
    handle: "comm",
    create_keyval: "MPI_KEYVAL_CREATE",
    free_keyval: "MPI_KEYVAL_FREE",
    set_attr: "MPI_ATTR_PUT",
    get_attr: "MPI_ATTR_GET",
    delete_attr: "MPI_ATTR_DELETE",
};

/// A keyval argument: one that does not fit 32 bits is no keyval (MPI_ERR_KEYVAL).
#[inline(always)]
fn keyval_arg(k: MPI_Fint) -> Result<i32> {
    narrow(k, MPI_ERR_KEYVAL, "keyval")
}

/// An INTEGER argument as the core's `i32`, if it is there and fits; the fast paths leave
/// every error to the locked path.
#[inline(always)]
unsafe fn fits(p: *const MPI_Fint) -> Option<i32> {
    if p.is_null() {
        return None;
    }
    #[allow(clippy::useless_conversion)]
    // SAFETY: not NULL: the entry point's by-reference INTEGER argument.
    i32::try_from(unsafe { *p }).ok()
}

/// The hot create (predefined routines), answered inline: true when done; false sends the
/// call to the full path, which also gives the precise error.
#[inline(always)]
unsafe fn create_keyval_fast(
    kind: ObjectKind,
    copy_fn: Option<MPI_Fcopy_attr_function>,
    delete_fn: Option<MPI_Fdelete_attr_function>,
    keyval: *mut MPI_Fint,
    extra_state: *const MPI_Aint,
) -> bool {
    // SAFETY: the entry point's output argument (MPI's contract).
    let Some(keyval) = (unsafe { Out::new(keyval) }) else {
        return false;
    };
    if extra_state.is_null() {
        return false;
    }
    let Some(callbacks) = fortran_native_callbacks(copy_fn, delete_fn) else {
        return false;
    };
    // SAFETY: not NULL: the entry point's input argument.
    let extra_state = unsafe { *extra_state } as i64;
    match rt().try_create_native_keyval(kind, callbacks, extra_state) {
        Some(k) => {
            keyval.set(fint(k));
            true
        }
        None => false,
    }
}

/// A keyval create in full, for what [`create_keyval_fast`] leaves.
#[cold]
#[inline(never)]
unsafe fn create_keyval_slow(
    calls: &'static Calls,
    copy_fn: Option<MPI_Fcopy_attr_function>,
    delete_fn: Option<MPI_Fdelete_attr_function>,
    keyval: *mut MPI_Fint,
    extra_state: *const MPI_Aint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, calls.create_keyval, Scope::NoObject, {
        let keyval = try_out!(keyval);
        // The keyval keeps its own copy of extra_state (MPI 4.1 §20.3.8).
        let extra_state = try_in!(extra_state) as i64;
        keyval.set(fint(rt().create_keyval(
            calls.kind,
            fortran_address_copy_fn(copy_fn)?,
            fortran_address_delete_fn(delete_fn)?,
            extra_state,
        )?));
        Ok(())
    })
}

/// The hot free (a live keyval that no attribute uses), answered inline: true when done.
#[inline(always)]
unsafe fn free_keyval_fast(kind: ObjectKind, keyval: *mut MPI_Fint) -> bool {
    // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
    let Some(k) = (unsafe { fits(keyval) }) else {
        return false;
    };
    let Some(freed) = rt().try_free_keyval(kind, k) else {
        return false;
    };
    // SAFETY: not NULL (`fits` read it): the entry point's INOUT argument.
    unsafe { *keyval = fint(MPI_KEYVAL_INVALID) };
    freed.recycle();
    true
}

/// A keyval free in full, for what [`free_keyval_fast`] leaves: sets KEYVAL to
/// MPI_KEYVAL_INVALID.
#[cold]
#[inline(never)]
unsafe fn free_keyval_slow(calls: &'static Calls, keyval: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    fentry!(ierror, calls.free_keyval, Scope::NoObject, {
        let keyval = try_out!(keyval);
        rt().free_keyval(calls.kind, keyval_arg(keyval.get())?)?;
        keyval.set(fint(MPI_KEYVAL_INVALID));
        Ok(())
    })
}

/// A free: the hot path inline, the rest in [`free_keyval_slow`].
#[inline(always)]
unsafe fn free_keyval(calls: &'static Calls, keyval: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
    if unsafe { free_keyval_fast(calls.kind, keyval) } {
        // SAFETY: `ierror` NULL or valid (fortran/mod.rs contract).
        unsafe { succeeded(ierror) }
    } else {
        // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
        unsafe { free_keyval_slow(calls, keyval, ierror) }
    }
}

/// A get the store answers without any call: `write` stores the reader's view of the word.
/// (Where the getters are written by hand, `caching/store/getters_x86_64.rs`, they answer the
/// same without it.)
#[inline(always)]
#[cfg_attr(mpicache_fast_get_fortran, allow(dead_code))]
unsafe fn get_word_fast<T>(
    kind: ObjectKind,
    handle: *const MPI_Fint,
    keyval: *const MPI_Fint,
    attribute_val: *mut T,
    flag: *mut MPI_Flogical,
    view: impl FnOnce(i64) -> T,
) -> bool {
    // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
    let (Some(h), Some(k)) = (unsafe { fits(handle) }, unsafe { fits(keyval) }) else {
        return false;
    };
    // SAFETY: the entry point's output arguments (MPI's contract).
    let (Some(attribute_val), Some(flag)) = (unsafe { Out::new(attribute_val) }, unsafe {
        Out::new(flag)
    }) else {
        return false;
    };
    match Runtime::global_tables().get_word(ObjRef::of_int(kind, h), k) {
        Fast::Hit(word) => {
            attribute_val.set(view(word));
            flag.set(logical(true));
            true
        }
        Fast::Miss => {
            flag.set(logical(false));
            true
        }
        Fast::Slow => false,
    }
}

/// A get in full: `view` gives the reader's view of the word. Inlined into each get's slow
/// path (which has the entry point's signature: the hand-written getter jumps to it).
#[inline(always)]
unsafe fn get_attr<T>(
    calls: &'static Calls,
    handle: *const MPI_Fint,
    keyval: *const MPI_Fint,
    attribute_val: *mut T,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
    view: impl FnOnce(i64) -> T,
) {
    // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
    fentry!(ierror, calls.get_attr, unsafe { calls.scope(handle) }, {
        let obj = unsafe { calls.obj(handle) }?;
        let keyval = try_in!(keyval);
        let (attribute_val, flag) = (try_out!(attribute_val), try_out!(flag));
        match rt().get_attr_word(obj, keyval_arg(keyval)?)? {
            Some(word) => {
                attribute_val.set(view(word));
                flag.set(logical(true));
            }
            None => flag.set(logical(false)),
        }
        Ok(())
    })
}

/// An overwrite the store does without the lock (no delete callback to run): true when done.
#[inline(always)]
unsafe fn overwrite_fast(
    kind: ObjectKind,
    handle: *const MPI_Fint,
    keyval: *const MPI_Fint,
    value: Option<AttrWord>,
) -> bool {
    // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
    let (Some(h), Some(k), Some(value)) = (unsafe { fits(handle) }, unsafe { fits(keyval) }, value)
    else {
        return false;
    };
    Runtime::global_tables().try_overwrite(ObjRef::of_int(kind, h), k, value)
}

/// A set in full, for what [`overwrite_fast`] leaves: `word` stores the value with the
/// provenance of the routine.
#[cold]
#[inline(never)]
unsafe fn set_attr_slow<T: Copy>(
    calls: &'static Calls,
    handle: *const MPI_Fint,
    keyval: *const MPI_Fint,
    attribute_val: *const T,
    ierror: *mut MPI_Fint,
    word: fn(T) -> AttrWord,
) {
    // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
    fentry!(ierror, calls.set_attr, unsafe { calls.scope(handle) }, {
        let obj = unsafe { calls.obj(handle) }?;
        let (keyval, attribute_val) = (try_in!(keyval), try_in!(attribute_val));
        rt().set_attr(obj, keyval_arg(keyval)?, word(attribute_val))
    })
}

/// A set: the hot overwrite inline, the rest in [`set_attr_slow`]. (The handle is read again
/// on the slow path: nothing stays live across the fast one.)
#[inline(always)]
unsafe fn set_attr<T: Copy>(
    calls: &'static Calls,
    handle: *const MPI_Fint,
    keyval: *const MPI_Fint,
    attribute_val: *const T,
    ierror: *mut MPI_Fint,
    word: fn(T) -> AttrWord,
) {
    // SAFETY: the entry point's input argument, read when not NULL.
    let value = (!attribute_val.is_null()).then(|| word(unsafe { *attribute_val }));
    if unsafe { overwrite_fast(calls.kind, handle, keyval, value) } {
        // SAFETY: `ierror` NULL or valid (fortran/mod.rs contract).
        unsafe { succeeded(ierror) }
    } else {
        // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
        unsafe { set_attr_slow(calls, handle, keyval, attribute_val, ierror, word) }
    }
}

/// An ADDRESS_KIND value as stored by `MPI_{COMM,TYPE,WIN}_SET_ATTR`.
fn address_word(v: MPI_Aint) -> AttrWord {
    AttrWord::from_fortran_address(v as i64)
}

/// A delete (no fast path: it may run a delete callback).
unsafe fn delete_attr(
    calls: &'static Calls,
    handle: *const MPI_Fint,
    keyval: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
    fentry!(ierror, calls.delete_attr, unsafe { calls.scope(handle) }, {
        let obj = unsafe { calls.obj(handle) }?;
        rt().delete_attr(obj, keyval_arg(try_in!(keyval))?)
    })
}

/// `MPI_COMM_CREATE_KEYVAL(COMM_COPY_ATTR_FN, COMM_DELETE_ATTR_FN, COMM_KEYVAL, EXTRA_STATE,
/// IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_create_keyval_(
    comm_copy_attr_fn: Option<MPI_Fcopy_attr_function>,
    comm_delete_attr_fn: Option<MPI_Fdelete_attr_function>,
    comm_keyval: *mut MPI_Fint,
    extra_state: *const MPI_Aint,
    ierror: *mut MPI_Fint,
) {
    let (copy_fn, delete_fn, keyval) = (comm_copy_attr_fn, comm_delete_attr_fn, comm_keyval);
    // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
    if unsafe { create_keyval_fast(ObjectKind::Comm, copy_fn, delete_fn, keyval, extra_state) } {
        // SAFETY: `ierror` NULL or valid (fortran/mod.rs contract).
        unsafe { succeeded(ierror) }
    } else {
        // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
        unsafe { create_keyval_slow(&COMM, copy_fn, delete_fn, keyval, extra_state, ierror) }
    }
}

/// `MPI_COMM_FREE_KEYVAL(COMM_KEYVAL, IERROR)`: sets COMM_KEYVAL to MPI_KEYVAL_INVALID.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_free_keyval_(comm_keyval: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
    unsafe { free_keyval(&COMM, comm_keyval, ierror) }
}

/// `MPI_COMM_SET_ATTR(COMM, COMM_KEYVAL, ATTRIBUTE_VAL, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_set_attr_(
    comm: *const MPI_Fint,
    comm_keyval: *const MPI_Fint,
    attribute_val: *const MPI_Aint,
    ierror: *mut MPI_Fint,
) {
    // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
    unsafe {
        set_attr(
            &COMM,
            comm,
            comm_keyval,
            attribute_val,
            ierror,
            address_word,
        )
    }
}

/// `MPI_COMM_GET_ATTR(COMM, COMM_KEYVAL, ATTRIBUTE_VAL, FLAG, IERROR)`.
#[cfg_attr(mpicache_fast_get_fortran, unsafe(naked))]
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_get_attr_(
    comm: *const MPI_Fint,
    comm_keyval: *const MPI_Fint,
    attribute_val: *mut MPI_Aint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    fortran_get_attr!(ObjectKind::Comm, address, comm_get_attr_slow, {
        let view = |w| fortran_address_view(w) as MPI_Aint;
        // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
        if unsafe {
            get_word_fast(
                ObjectKind::Comm,
                comm,
                comm_keyval,
                attribute_val,
                flag,
                view,
            )
        } {
            // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
            unsafe { succeeded(ierror) }
        } else {
            unsafe { comm_get_attr_slow(comm, comm_keyval, attribute_val, flag, ierror) }
        }
    })
}

/// `MPI_COMM_GET_ATTR` in full, for what the fast path leaves.
#[cold]
#[inline(never)]
unsafe extern "C" fn comm_get_attr_slow(
    comm: *const MPI_Fint,
    comm_keyval: *const MPI_Fint,
    attribute_val: *mut MPI_Aint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    let view = |w| fortran_address_view(w) as MPI_Aint;
    // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
    unsafe { get_attr(&COMM, comm, comm_keyval, attribute_val, flag, ierror, view) }
}

/// `MPI_COMM_DELETE_ATTR(COMM, COMM_KEYVAL, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_delete_attr_(
    comm: *const MPI_Fint,
    comm_keyval: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
    unsafe { delete_attr(&COMM, comm, comm_keyval, ierror) }
}

/// `MPI_TYPE_CREATE_KEYVAL(TYPE_COPY_ATTR_FN, TYPE_DELETE_ATTR_FN, TYPE_KEYVAL, EXTRA_STATE,
/// IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_type_create_keyval_(
    type_copy_attr_fn: Option<MPI_Fcopy_attr_function>,
    type_delete_attr_fn: Option<MPI_Fdelete_attr_function>,
    type_keyval: *mut MPI_Fint,
    extra_state: *const MPI_Aint,
    ierror: *mut MPI_Fint,
) {
    let (copy_fn, delete_fn, keyval) = (type_copy_attr_fn, type_delete_attr_fn, type_keyval);
    // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
    if unsafe {
        create_keyval_fast(
            ObjectKind::Datatype,
            copy_fn,
            delete_fn,
            keyval,
            extra_state,
        )
    } {
        // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
        unsafe { succeeded(ierror) }
    } else {
        unsafe { create_keyval_slow(&TYPE, copy_fn, delete_fn, keyval, extra_state, ierror) }
    }
}

/// `MPI_TYPE_FREE_KEYVAL(TYPE_KEYVAL, IERROR)`: sets TYPE_KEYVAL to MPI_KEYVAL_INVALID.
#[no_mangle]
pub unsafe extern "C" fn mpi_type_free_keyval_(type_keyval: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
    unsafe { free_keyval(&TYPE, type_keyval, ierror) }
}

/// `MPI_TYPE_SET_ATTR(DATATYPE, TYPE_KEYVAL, ATTRIBUTE_VAL, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_type_set_attr_(
    datatype: *const MPI_Fint,
    type_keyval: *const MPI_Fint,
    attribute_val: *const MPI_Aint,
    ierror: *mut MPI_Fint,
) {
    // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
    unsafe {
        set_attr(
            &TYPE,
            datatype,
            type_keyval,
            attribute_val,
            ierror,
            address_word,
        )
    }
}

/// `MPI_TYPE_GET_ATTR(DATATYPE, TYPE_KEYVAL, ATTRIBUTE_VAL, FLAG, IERROR)`.
#[cfg_attr(mpicache_fast_get_fortran, unsafe(naked))]
#[no_mangle]
pub unsafe extern "C" fn mpi_type_get_attr_(
    datatype: *const MPI_Fint,
    type_keyval: *const MPI_Fint,
    attribute_val: *mut MPI_Aint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    fortran_get_attr!(ObjectKind::Datatype, address, type_get_attr_slow, {
        let view = |w| fortran_address_view(w) as MPI_Aint;
        // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
        if unsafe {
            get_word_fast(
                ObjectKind::Datatype,
                datatype,
                type_keyval,
                attribute_val,
                flag,
                view,
            )
        } {
            // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
            unsafe { succeeded(ierror) }
        } else {
            unsafe { type_get_attr_slow(datatype, type_keyval, attribute_val, flag, ierror) }
        }
    })
}

/// `MPI_TYPE_GET_ATTR` in full, for what the fast path leaves.
#[cold]
#[inline(never)]
unsafe extern "C" fn type_get_attr_slow(
    datatype: *const MPI_Fint,
    type_keyval: *const MPI_Fint,
    attribute_val: *mut MPI_Aint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    let view = |w| fortran_address_view(w) as MPI_Aint;
    // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
    unsafe {
        get_attr(
            &TYPE,
            datatype,
            type_keyval,
            attribute_val,
            flag,
            ierror,
            view,
        )
    }
}

/// `MPI_TYPE_DELETE_ATTR(DATATYPE, TYPE_KEYVAL, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_type_delete_attr_(
    datatype: *const MPI_Fint,
    type_keyval: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
    unsafe { delete_attr(&TYPE, datatype, type_keyval, ierror) }
}

/// `MPI_WIN_CREATE_KEYVAL(WIN_COPY_ATTR_FN, WIN_DELETE_ATTR_FN, WIN_KEYVAL, EXTRA_STATE,
/// IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_win_create_keyval_(
    win_copy_attr_fn: Option<MPI_Fcopy_attr_function>,
    win_delete_attr_fn: Option<MPI_Fdelete_attr_function>,
    win_keyval: *mut MPI_Fint,
    extra_state: *const MPI_Aint,
    ierror: *mut MPI_Fint,
) {
    let (copy_fn, delete_fn, keyval) = (win_copy_attr_fn, win_delete_attr_fn, win_keyval);
    // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
    if unsafe { create_keyval_fast(ObjectKind::Win, copy_fn, delete_fn, keyval, extra_state) } {
        // SAFETY: `ierror` NULL or valid (fortran/mod.rs contract).
        unsafe { succeeded(ierror) }
    } else {
        // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
        unsafe { create_keyval_slow(&WIN, copy_fn, delete_fn, keyval, extra_state, ierror) }
    }
}

/// `MPI_WIN_FREE_KEYVAL(WIN_KEYVAL, IERROR)`: sets WIN_KEYVAL to MPI_KEYVAL_INVALID.
#[no_mangle]
pub unsafe extern "C" fn mpi_win_free_keyval_(win_keyval: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
    unsafe { free_keyval(&WIN, win_keyval, ierror) }
}

/// `MPI_WIN_SET_ATTR(WIN, WIN_KEYVAL, ATTRIBUTE_VAL, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_win_set_attr_(
    win: *const MPI_Fint,
    win_keyval: *const MPI_Fint,
    attribute_val: *const MPI_Aint,
    ierror: *mut MPI_Fint,
) {
    // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
    unsafe { set_attr(&WIN, win, win_keyval, attribute_val, ierror, address_word) }
}

/// `MPI_WIN_GET_ATTR(WIN, WIN_KEYVAL, ATTRIBUTE_VAL, FLAG, IERROR)`.
#[cfg_attr(mpicache_fast_get_fortran, unsafe(naked))]
#[no_mangle]
pub unsafe extern "C" fn mpi_win_get_attr_(
    win: *const MPI_Fint,
    win_keyval: *const MPI_Fint,
    attribute_val: *mut MPI_Aint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    fortran_get_attr!(ObjectKind::Win, address, win_get_attr_slow, {
        let view = |w| fortran_address_view(w) as MPI_Aint;
        // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
        if unsafe { get_word_fast(ObjectKind::Win, win, win_keyval, attribute_val, flag, view) } {
            // SAFETY: `ierror` NULL or valid (fortran/mod.rs contract).
            unsafe { succeeded(ierror) }
        } else {
            // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
            unsafe { win_get_attr_slow(win, win_keyval, attribute_val, flag, ierror) }
        }
    })
}

/// `MPI_WIN_GET_ATTR` in full, for what the fast path leaves.
#[cold]
#[inline(never)]
unsafe extern "C" fn win_get_attr_slow(
    win: *const MPI_Fint,
    win_keyval: *const MPI_Fint,
    attribute_val: *mut MPI_Aint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    let view = |w| fortran_address_view(w) as MPI_Aint;
    // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
    unsafe { get_attr(&WIN, win, win_keyval, attribute_val, flag, ierror, view) }
}

/// `MPI_WIN_DELETE_ATTR(WIN, WIN_KEYVAL, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_win_delete_attr_(
    win: *const MPI_Fint,
    win_keyval: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
    unsafe { delete_attr(&WIN, win, win_keyval, ierror) }
}

/// Deprecated `MPI_KEYVAL_CREATE(COPY_FN, DELETE_FN, KEYVAL, EXTRA_STATE, IERROR)`: INTEGER
/// callbacks and extra_state (the callbacks use the INTEGER convention).
#[no_mangle]
pub unsafe extern "C" fn mpi_keyval_create_(
    copy_fn: Option<MPI_Fcopy_function>,
    delete_fn: Option<MPI_Fdelete_function>,
    keyval: *mut MPI_Fint,
    extra_state: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, MPI1.create_keyval, Scope::NoObject, {
        let keyval = try_out!(keyval);
        let extra_state = wide(try_in!(extra_state));
        keyval.set(fint(rt().create_keyval(
            MPI1.kind,
            fortran_integer_copy_fn(copy_fn)?,
            fortran_integer_delete_fn(delete_fn)?,
            extra_state,
        )?));
        Ok(())
    })
}

/// Deprecated `MPI_KEYVAL_FREE(KEYVAL, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_keyval_free_(keyval: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
    unsafe { free_keyval(&MPI1, keyval, ierror) }
}

/// Deprecated `MPI_ATTR_PUT(COMM, KEYVAL, ATTRIBUTE_VAL, IERROR)`: the INTEGER is stored
/// sign-extended to the word (MPI 4.1 §20.3.7).
#[no_mangle]
pub unsafe extern "C" fn mpi_attr_put_(
    comm: *const MPI_Fint,
    keyval: *const MPI_Fint,
    attribute_val: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    let word = AttrWord::from_fortran_integer;
    // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
    unsafe { set_attr(&MPI1, comm, keyval, attribute_val, ierror, word) }
}

/// Deprecated `MPI_ATTR_GET(COMM, KEYVAL, ATTRIBUTE_VAL, FLAG, IERROR)`: the low part of the
/// word (MPI 4.1 §20.3.7).
#[cfg_attr(mpicache_fast_get_fortran, unsafe(naked))]
#[no_mangle]
pub unsafe extern "C" fn mpi_attr_get_(
    comm: *const MPI_Fint,
    keyval: *const MPI_Fint,
    attribute_val: *mut MPI_Fint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    fortran_get_attr!(ObjectKind::Comm, integer, attr_get_slow, {
        let view = fortran_integer_view;
        // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
        if unsafe { get_word_fast(ObjectKind::Comm, comm, keyval, attribute_val, flag, view) } {
            // SAFETY: `ierror` NULL or valid (fortran/mod.rs contract).
            unsafe { succeeded(ierror) }
        } else {
            // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
            unsafe { attr_get_slow(comm, keyval, attribute_val, flag, ierror) }
        }
    })
}

/// `MPI_ATTR_GET` in full, for what the fast path leaves.
#[cold]
#[inline(never)]
unsafe extern "C" fn attr_get_slow(
    comm: *const MPI_Fint,
    keyval: *const MPI_Fint,
    attribute_val: *mut MPI_Fint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    let view = fortran_integer_view;
    // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
    unsafe { get_attr(&MPI1, comm, keyval, attribute_val, flag, ierror, view) }
}

/// Deprecated `MPI_ATTR_DELETE(COMM, KEYVAL, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_attr_delete_(
    comm: *const MPI_Fint,
    keyval: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    // SAFETY: the entry point's own arguments, under its contract (fortran/mod.rs).
    unsafe { delete_attr(&MPI1, comm, keyval, ierror) }
}
