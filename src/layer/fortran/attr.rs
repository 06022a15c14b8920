//! The Fortran caching routines (MPI 4.1 §7.7, §20.3.7): `MPI_{COMM,TYPE,WIN}_*` with
//! INTEGER(KIND=MPI_ADDRESS_KIND) values (and their `mpi_f08` forms), and the deprecated
//! `MPI_KEYVAL_CREATE`, `MPI_KEYVAL_FREE`, `MPI_ATTR_PUT`, `MPI_ATTR_GET`, `MPI_ATTR_DELETE`
//! with INTEGER values. The reader's routine picks the view (caching/convert.rs).
//!
//! One body per operation, driven by a [`Routines`]: the three kinds of object and the MPI-1
//! forms differ only in their names, the engine's own routine a foreign keyval goes to, and
//! (MPI-1) INTEGER values and callbacks.
#![allow(non_snake_case)]

use crate::caching::callback::{CopyFn, DeleteFn};
use crate::caching::convert::{fortran_integer_view, AttrWord};
use crate::caching::keyval::is_own;
use crate::caching::store::Fast;
use crate::caching::ObjRef;
use crate::error::{Error, Result};
use crate::kinds::ObjectKind;
use crate::layer::boundary::{engine_code, Scope};
use crate::layer::c_attr::{refuse_invalid, refuse_predefined};
use crate::layer::engine::{self, from_fortran, to_fortran, MPI_Fint};
use crate::layer::fortran::callbacks::{
    address_copy_fn, address_delete_fn, integer_copy_fn, integer_delete_fn, MPI_Aint, MPI_Flogical,
};
use crate::layer::fortran::{engine_routine, int};
use crate::layer::world::{cache, live_store};
use crate::{layer_fentry, layer_nonnull};
use std::ffi::{c_void, CStr};
use std::sync::OnceLock;

type F4 = unsafe extern "C" fn(*const c_void, *const c_void, *mut c_void, *mut c_void, *mut c_void);

/// One of the engine's own Fortran routines (`pmpi_x_`), looked up on first use.
pub struct EngineRoutine {
    found: OnceLock<Option<usize>>,
    name: &'static CStr,
}

impl EngineRoutine {
    const fn new(name: &'static CStr) -> EngineRoutine {
        EngineRoutine {
            found: OnceLock::new(),
            name,
        }
    }

    /// Hands a call with a keyval the layer does not own to the engine's routine, which
    /// answers it as the engine alone would (its own Fortran keyval numbers, views and errors).
    /// `args` are the caller's arguments before `ierror`.
    fn call(&self, args: &[*mut c_void]) -> Result<()> {
        let name = self.name;
        let Some(f) = *self.found.get_or_init(|| engine_routine(name)) else {
            return Err(Error::invalid(
                crate::consts::MPI_ERR_KEYVAL,
                format!("the engine has no {name:?} for a keyval the layer does not own"),
            ));
        };
        let mut ierror: MPI_Fint = 0;
        let e = &mut ierror as *mut MPI_Fint as *mut c_void;
        let n = std::ptr::null_mut();
        // SAFETY: `f` is the address dlsym gave for the engine's Fortran routine of this name,
        // a function; seen as one of five pointer arguments (see below).
        let f: F4 = unsafe { std::mem::transmute::<usize, F4>(f) };
        // SAFETY: the engine's routine takes its arguments by reference, ierror last, and
        // these are the caller's references plus our `ierror`; a routine of fewer arguments
        // ignores the trailing ones (System V: passed in registers, caller-cleaned).
        unsafe {
            match *args {
                [a] => f(a, e, n, n, n),
                [a, b] => f(a, b, e, n, n),
                [a, b, c] => f(a, b, c, e, n),
                [a, b, c, d] => f(a, b, c, d, e),
                _ => unreachable!("Fortran caching routines take 1 to 4 arguments before ierror"),
            }
        }
        match ierror {
            0 => Ok(()),
            code => Err(engine_code(code)),
        }
    }
}

/// The Fortran caching routines of one kind of object, or the MPI-1 forms.
pub struct Routines {
    kind: ObjectKind,
    /// The MPI-1 forms: INTEGER values, extra_state and callbacks.
    integer: bool,
    /// For the error line: create keyval, free keyval, set, get, delete.
    names: [&'static str; 5],
    free_keyval: EngineRoutine,
    set_attr: EngineRoutine,
    get_attr: EngineRoutine,
    delete_attr: EngineRoutine,
}

pub static COMM: Routines = Routines {
    kind: ObjectKind::Comm,
    integer: false,
    names: [
        "MPI_COMM_CREATE_KEYVAL",
        "MPI_COMM_FREE_KEYVAL",
        "MPI_COMM_SET_ATTR",
        "MPI_COMM_GET_ATTR",
        "MPI_COMM_DELETE_ATTR",
    ],
    free_keyval: EngineRoutine::new(c"pmpi_comm_free_keyval_"),
    set_attr: EngineRoutine::new(c"pmpi_comm_set_attr_"),
    get_attr: EngineRoutine::new(c"pmpi_comm_get_attr_"),
    delete_attr: EngineRoutine::new(c"pmpi_comm_delete_attr_"),
};

pub static TYPE: Routines = Routines {
    kind: ObjectKind::Datatype,
    integer: false,
    names: [
        "MPI_TYPE_CREATE_KEYVAL",
        "MPI_TYPE_FREE_KEYVAL",
        "MPI_TYPE_SET_ATTR",
        "MPI_TYPE_GET_ATTR",
        "MPI_TYPE_DELETE_ATTR",
    ],
    free_keyval: EngineRoutine::new(c"pmpi_type_free_keyval_"),
    set_attr: EngineRoutine::new(c"pmpi_type_set_attr_"),
    get_attr: EngineRoutine::new(c"pmpi_type_get_attr_"),
    delete_attr: EngineRoutine::new(c"pmpi_type_delete_attr_"),
};

pub static WIN: Routines = Routines {
    kind: ObjectKind::Win,
    integer: false,
    names: [
        "MPI_WIN_CREATE_KEYVAL",
        "MPI_WIN_FREE_KEYVAL",
        "MPI_WIN_SET_ATTR",
        "MPI_WIN_GET_ATTR",
        "MPI_WIN_DELETE_ATTR",
    ],
    free_keyval: EngineRoutine::new(c"pmpi_win_free_keyval_"),
    set_attr: EngineRoutine::new(c"pmpi_win_set_attr_"),
    get_attr: EngineRoutine::new(c"pmpi_win_get_attr_"),
    delete_attr: EngineRoutine::new(c"pmpi_win_delete_attr_"),
};

pub static MPI1: Routines = Routines {
    kind: ObjectKind::Comm,
    integer: true,
    names: [
        "MPI_KEYVAL_CREATE",
        "MPI_KEYVAL_FREE",
        "MPI_ATTR_PUT",
        "MPI_ATTR_GET",
        "MPI_ATTR_DELETE",
    ],
    free_keyval: EngineRoutine::new(c"pmpi_keyval_free_"),
    set_attr: EngineRoutine::new(c"pmpi_attr_put_"),
    get_attr: EngineRoutine::new(c"pmpi_attr_get_"),
    delete_attr: EngineRoutine::new(c"pmpi_attr_delete_"),
};

impl Routines {
    /// Whose error handler hears of an error about the object of Fortran handle `h`.
    fn scope(&self, h: *const MPI_Fint) -> Scope {
        if h.is_null() {
            return Scope::NoObject;
        }
        // SAFETY: non-NULL: the caller's INTEGER handle argument.
        let h = engine::f2c(self.kind.into(), unsafe { *h });
        crate::layer::c_attr::scope_of(self.kind, h)
    }

    /// The object of a Fortran handle, checked with the engine (which raises its own error on
    /// a dead one, as its own routine would).
    fn obj(&self, h: *const MPI_Fint) -> Result<ObjRef> {
        // SAFETY: `int` checks NULL; otherwise the caller's INTEGER handle argument.
        let f = unsafe { int(h)? };
        engine::check(self.kind, engine::f2c(self.kind.into(), f)).map_err(engine_code)?;
        Ok(ObjRef::new(self.kind, from_fortran(self.kind, f)))
    }
}

/// `MPI_{COMM,TYPE,WIN}_CREATE_KEYVAL`, `MPI_KEYVAL_CREATE`: `extra_state` is an
/// INTEGER(KIND=MPI_ADDRESS_KIND), or an INTEGER for the MPI-1 form.
///
/// # Safety
/// Fortran's conventions: every argument NULL or a reference of its type.
pub unsafe fn create_keyval(
    of: &Routines,
    copy_fn: *const c_void,
    delete_fn: *const c_void,
    keyval: *mut MPI_Fint,
    extra_state: *const c_void,
    ierror: *mut MPI_Fint,
) {
    layer_fentry!(of.names[0], Scope::NoObject, ierror, {
        layer_nonnull!(keyval, extra_state);
        // SAFETY: the callbacks are the caller's procedures (or the predefined ones), of the
        // interface their routine names; extra_state is non-NULL, of the width the routine
        // names.
        let (copy, delete, extra): (CopyFn, DeleteFn, i64) = unsafe {
            if of.integer {
                (
                    integer_copy_fn(copy_fn),
                    integer_delete_fn(delete_fn),
                    *extra_state.cast::<MPI_Fint>() as i64,
                )
            } else {
                (
                    address_copy_fn(of.kind, copy_fn),
                    address_delete_fn(of.kind, delete_fn),
                    *extra_state.cast::<MPI_Aint>() as i64,
                )
            }
        };
        let k = cache().create_keyval(of.kind, copy, delete, extra)?;
        // SAFETY: checked non-NULL above; the caller's output argument.
        unsafe { *keyval = k };
        Ok(())
    })
}

/// # Safety
/// Fortran's conventions: every argument NULL or a reference of its type.
pub unsafe fn free_keyval(of: &Routines, keyval: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    layer_fentry!(of.names[1], Scope::NoObject, ierror, {
        // SAFETY: `int` checks NULL; otherwise the caller's INOUT argument.
        let k = unsafe { int(keyval)? };
        if !is_own(k) {
            refuse_predefined(of.kind, k, "freed")?;
            return of.free_keyval.call(&[keyval.cast()]);
        }
        cache().free_keyval(of.kind, k)?;
        // SAFETY: read above, so non-NULL; the caller's INOUT argument.
        unsafe { *keyval = engine::facts().keyval_invalid };
        Ok(())
    })
}

/// `attribute_val`: an INTEGER(KIND=MPI_ADDRESS_KIND), or an INTEGER for `MPI_ATTR_PUT`
/// (sign-extended, provenance `FortranInteger`).
///
/// # Safety
/// Fortran's conventions: every argument NULL or a reference of its type.
pub unsafe fn set_attr(
    of: &Routines,
    handle: *const MPI_Fint,
    keyval: *const MPI_Fint,
    attribute_val: *const c_void,
    ierror: *mut MPI_Fint,
) {
    layer_fentry!(of.names[2], of.scope(handle), ierror, {
        layer_nonnull!(attribute_val);
        // SAFETY: `int` checks NULL; otherwise the caller's INTEGER argument.
        let k = unsafe { int(keyval)? };
        if !is_own(k) {
            refuse_predefined(of.kind, k, "set by users")?;
            return of
                .set_attr
                .call(&[handle as _, keyval as _, attribute_val as _]);
        }
        // SAFETY: checked non-NULL above; a reference of the width the routine names.
        let value = unsafe {
            if of.integer {
                AttrWord::from_fortran_integer(*attribute_val.cast::<MPI_Fint>())
            } else {
                AttrWord::from_fortran_address(*attribute_val.cast::<MPI_Aint>() as i64)
            }
        };
        cache().set_attr(of.obj(handle)?, k, value)
    })
}

/// The hot Fortran get, answered by the store without the lock or the boundary (a layer
/// keyval, every argument given, a plain hit or miss): true when answered.
///
/// # Safety
/// Fortran's conventions: every argument NULL or a reference of its type.
#[inline(always)]
unsafe fn get_attr_fast(
    of: &Routines,
    handle: *const MPI_Fint,
    keyval: *const MPI_Fint,
    value: *mut c_void,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) -> bool {
    if handle.is_null() || keyval.is_null() || value.is_null() || flag.is_null() {
        return false;
    }
    // SAFETY: checked non-NULL above; the caller's INTEGER argument.
    let k = unsafe { *keyval };
    if !is_own(k) {
        return false;
    }
    let Some(store) = live_store() else {
        return false;
    };
    // SAFETY: as above, the caller's INTEGER handle.
    let obj = ObjRef::new(of.kind, from_fortran(of.kind, unsafe { *handle }));
    match store.get_word(obj, k) {
        // SAFETY: `value` and `flag` checked non-NULL above; the caller's outputs, `value` of
        // the width the routine names.
        Fast::Hit(word) => unsafe {
            if of.integer {
                *value.cast::<MPI_Fint>() = fortran_integer_view(word);
            } else {
                *value.cast::<MPI_Aint>() = word as MPI_Aint;
            }
            *flag = 1;
        },
        // SAFETY: as above.
        Fast::Miss => unsafe { *flag = 0 },
        Fast::Slow => return false,
    }
    if !ierror.is_null() {
        // SAFETY: non-NULL: the caller's (optional in mpi_f08) ierror.
        unsafe { *ierror = 0 };
    }
    true
}

/// A Fortran reader: the ADDRESS_KIND view, or the INTEGER view of `MPI_ATTR_GET`.
///
/// # Safety
/// Fortran's conventions: every argument NULL or a reference of its type.
pub unsafe fn get_attr(
    of: &Routines,
    handle: *const MPI_Fint,
    keyval: *const MPI_Fint,
    value: *mut c_void,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    // SAFETY: the caller's arguments, under the same contract.
    if unsafe { get_attr_fast(of, handle, keyval, value, flag, ierror) } {
        return;
    }
    // SAFETY: as above.
    unsafe { get_slow(of, handle, keyval, value, flag, ierror) }
}

#[cold]
#[inline(never)]
unsafe fn get_slow(
    of: &Routines,
    handle: *const MPI_Fint,
    keyval: *const MPI_Fint,
    value: *mut c_void,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    layer_fentry!(of.names[3], of.scope(handle), ierror, {
        // SAFETY: `int` checks NULL; otherwise the caller's INTEGER argument.
        let k = unsafe { int(keyval)? };
        if !is_own(k) {
            refuse_invalid(of.kind, k)?;
            of.get_attr
                .call(&[handle as _, keyval as _, value, flag.cast()])?;
            // MPI_TAG_UB & co. answer on every communicator (c_attr::get_attr says why); the
            // C numbers are Open MPI's Fortran ones too (MPICH's differ, and it answers).
            if of.kind == ObjectKind::Comm
                && !flag.is_null()
                // SAFETY: non-NULL, and the engine's call above succeeded, so it wrote it.
                && unsafe { *flag } == 0
                && engine::facts().process_wide_keyval(k)
            {
                let world = to_fortran(ObjectKind::Comm, engine::facts().comm_world);
                let w = &world as *const MPI_Fint;
                of.get_attr
                    .call(&[w as _, keyval as _, value, flag.cast()])?;
            }
            return Ok(());
        }
        layer_nonnull!(value, flag);
        match cache().get_attr_word(of.obj(handle)?, k)? {
            // SAFETY: both checked non-NULL above; the caller's outputs, `value` of the width
            // the routine names.
            Some(word) => unsafe {
                if of.integer {
                    *value.cast::<MPI_Fint>() = fortran_integer_view(word);
                } else {
                    *value.cast::<MPI_Aint>() = word as MPI_Aint;
                }
                *flag = 1;
            },
            // SAFETY: as above.
            None => unsafe { *flag = 0 },
        }
        Ok(())
    })
}

/// # Safety
/// Fortran's conventions: every argument NULL or a reference of its type.
pub unsafe fn delete_attr(
    of: &Routines,
    handle: *const MPI_Fint,
    keyval: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    layer_fentry!(of.names[4], of.scope(handle), ierror, {
        // SAFETY: `int` checks NULL; otherwise the caller's INTEGER argument.
        let k = unsafe { int(keyval)? };
        if !is_own(k) {
            refuse_predefined(of.kind, k, "deleted by users")?;
            return of.delete_attr.call(&[handle as _, keyval as _]);
        }
        cache().delete_attr(of.obj(handle)?, k)
    })
}

// ---- the bodies of each routine, by kind (their spellings: attr_spellings.rs) ---------------

macro_rules! routines {
    ($of:expr, $v:ty, $create:ident, $free:ident, $set:ident, $get:ident, $delete:ident) => {
        /// # Safety
        /// Fortran's conventions: every argument NULL or a reference of its type.
        pub unsafe fn $create(
            copy_fn: *const c_void,
            delete_fn: *const c_void,
            keyval: *mut MPI_Fint,
            extra_state: *const $v,
            ierror: *mut MPI_Fint,
        ) {
            // SAFETY: the caller's arguments, under the same contract.
            unsafe { create_keyval(&$of, copy_fn, delete_fn, keyval, extra_state.cast(), ierror) }
        }
        /// # Safety
        /// Fortran's conventions: every argument NULL or a reference of its type.
        pub unsafe fn $free(keyval: *mut MPI_Fint, ierror: *mut MPI_Fint) {
            // SAFETY: the caller's arguments, under the same contract.
            unsafe { free_keyval(&$of, keyval, ierror) }
        }
        /// # Safety
        /// Fortran's conventions: every argument NULL or a reference of its type.
        pub unsafe fn $set(
            handle: *const MPI_Fint,
            keyval: *const MPI_Fint,
            attribute_val: *const $v,
            ierror: *mut MPI_Fint,
        ) {
            // SAFETY: the caller's arguments, under the same contract.
            unsafe { set_attr(&$of, handle, keyval, attribute_val.cast(), ierror) }
        }
        /// # Safety
        /// Fortran's conventions: every argument NULL or a reference of its type.
        pub unsafe fn $get(
            handle: *const MPI_Fint,
            keyval: *const MPI_Fint,
            attribute_val: *mut $v,
            flag: *mut MPI_Flogical,
            ierror: *mut MPI_Fint,
        ) {
            // SAFETY: the caller's arguments, under the same contract.
            unsafe { get_attr(&$of, handle, keyval, attribute_val.cast(), flag, ierror) }
        }
        /// # Safety
        /// Fortran's conventions: every argument NULL or a reference of its type.
        pub unsafe fn $delete(
            handle: *const MPI_Fint,
            keyval: *const MPI_Fint,
            ierror: *mut MPI_Fint,
        ) {
            // SAFETY: the caller's arguments, under the same contract.
            unsafe { delete_attr(&$of, handle, keyval, ierror) }
        }
    };
}

routines!(
    COMM,
    MPI_Aint,
    comm_create_keyval,
    comm_free_keyval,
    comm_set_attr,
    comm_get_attr,
    comm_delete_attr
);
routines!(
    TYPE,
    MPI_Aint,
    type_create_keyval,
    type_free_keyval,
    type_set_attr,
    type_get_attr,
    type_delete_attr
);
routines!(
    WIN,
    MPI_Aint,
    win_create_keyval,
    win_free_keyval,
    win_set_attr,
    win_get_attr,
    win_delete_attr
);
routines!(
    MPI1,
    MPI_Fint,
    keyval_create,
    keyval_free,
    attr_put,
    attr_get,
    attr_delete
);
