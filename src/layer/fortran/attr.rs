//! The Fortran caching routines (MPI 4.1 §7.7, §20.3.7): `MPI_{COMM,TYPE,WIN}_*` with
//! INTEGER(KIND=MPI_ADDRESS_KIND) values (and their `mpi_f08` forms), and the deprecated
//! `MPI_KEYVAL_CREATE`, `MPI_KEYVAL_FREE`, `MPI_ATTR_PUT`, `MPI_ATTR_GET`, `MPI_ATTR_DELETE`
//! with INTEGER values. The reader's routine picks the view (caching/convert.rs).
#![allow(non_snake_case)]

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
use crate::layer::world::cache;
use crate::{layer_fentry, layer_nonnull};
use std::ffi::{c_void, CStr};
use std::sync::OnceLock;

type F4 = unsafe extern "C" fn(*const c_void, *const c_void, *mut c_void, *mut c_void, *mut c_void);

/// Hands a call with a keyval the layer does not own to the engine's own Fortran routine
/// (`pmpi_x_`), which answers it as the engine alone would (its own Fortran keyval numbers,
/// views and errors).
fn to_engine(
    slot: &'static OnceLock<Option<usize>>,
    name: &'static CStr,
    args: &[*mut c_void],
) -> Result<()> {
    let Some(f) = *slot.get_or_init(|| engine_routine(name)) else {
        return Err(Error::invalid(
            crate::consts::MPI_ERR_KEYVAL,
            format!("the engine has no {name:?} for a keyval the layer does not own"),
        ));
    };
    let mut ierror: MPI_Fint = 0;
    let e = &mut ierror as *mut MPI_Fint as *mut c_void;
    let n = std::ptr::null_mut();
    // SAFETY: the engine's routine takes its arguments by reference, ierror last; a routine
    // of fewer arguments ignores the trailing ones (System V: passed in registers).
    let f: F4 = unsafe { std::mem::transmute::<usize, F4>(f) };
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

macro_rules! engine_fn {
    ($name:literal) => {{
        static SLOT: OnceLock<Option<usize>> = OnceLock::new();
        (&SLOT, $name)
    }};
}

/// The object of a Fortran handle, checked with the engine (which raises its own error on a
/// dead one, as its own routine would).
fn obj(kind: ObjectKind, h: *const MPI_Fint) -> Result<ObjRef> {
    let f = unsafe { int(h)? };
    engine::check(kind, engine::f2c(kind.into(), f)).map_err(engine_code)?;
    Ok(ObjRef::new(kind, from_fortran(kind, f)))
}

/// The routine's name for the error line: `what` is CREATE_KEYVAL, FREE_KEYVAL, SET_ATTR,
/// GET_ATTR or DELETE_ATTR; `mpi1` names the MPI-1 form.
fn name(kind: ObjectKind, what: usize, mpi1: bool) -> &'static str {
    const COMM: [&str; 5] = [
        "MPI_COMM_CREATE_KEYVAL",
        "MPI_COMM_FREE_KEYVAL",
        "MPI_COMM_SET_ATTR",
        "MPI_COMM_GET_ATTR",
        "MPI_COMM_DELETE_ATTR",
    ];
    const TYPE: [&str; 5] = [
        "MPI_TYPE_CREATE_KEYVAL",
        "MPI_TYPE_FREE_KEYVAL",
        "MPI_TYPE_SET_ATTR",
        "MPI_TYPE_GET_ATTR",
        "MPI_TYPE_DELETE_ATTR",
    ];
    const WIN: [&str; 5] = [
        "MPI_WIN_CREATE_KEYVAL",
        "MPI_WIN_FREE_KEYVAL",
        "MPI_WIN_SET_ATTR",
        "MPI_WIN_GET_ATTR",
        "MPI_WIN_DELETE_ATTR",
    ];
    const MPI1: [&str; 5] = [
        "MPI_KEYVAL_CREATE",
        "MPI_KEYVAL_FREE",
        "MPI_ATTR_PUT",
        "MPI_ATTR_GET",
        "MPI_ATTR_DELETE",
    ];
    match (kind, mpi1) {
        (_, true) => MPI1[what],
        (ObjectKind::Comm, _) => COMM[what],
        (ObjectKind::Datatype, _) => TYPE[what],
        (ObjectKind::Win, _) => WIN[what],
    }
}

fn scope(kind: ObjectKind, h: *const MPI_Fint) -> Scope {
    if h.is_null() {
        return Scope::NoObject;
    }
    let h = engine::f2c(kind.into(), unsafe { *h });
    match kind {
        ObjectKind::Comm => Scope::Comm(h),
        ObjectKind::Win => Scope::Win(h),
        ObjectKind::Datatype => Scope::NoObject,
    }
}

unsafe fn create_keyval(
    kind: ObjectKind,
    copy_fn: *const c_void,
    delete_fn: *const c_void,
    keyval: *mut MPI_Fint,
    extra_state: *const MPI_Aint,
    ierror: *mut MPI_Fint,
) {
    layer_fentry!(name(kind, 0, false), Scope::NoObject, ierror, {
        layer_nonnull!(keyval, extra_state);
        let k = cache().create_keyval(
            kind,
            unsafe { address_copy_fn(kind, copy_fn) },
            unsafe { address_delete_fn(kind, delete_fn) },
            unsafe { *extra_state } as i64,
        )?;
        unsafe { *keyval = k };
        Ok(())
    })
}

unsafe fn free_keyval(kind: ObjectKind, keyval: *mut MPI_Fint, mpi1: bool, ierror: *mut MPI_Fint) {
    layer_fentry!(name(kind, 1, mpi1), Scope::NoObject, ierror, {
        let k = unsafe { int(keyval)? };
        if !is_own(k) {
            refuse_predefined(kind, k, "freed")?;
            let (slot, name) = match kind {
                ObjectKind::Comm => engine_fn!(c"pmpi_comm_free_keyval_"),
                ObjectKind::Datatype => engine_fn!(c"pmpi_type_free_keyval_"),
                ObjectKind::Win => engine_fn!(c"pmpi_win_free_keyval_"),
            };
            return to_engine(slot, name, &[keyval.cast()]);
        }
        cache().free_keyval(kind, k)?;
        unsafe { *keyval = engine::facts().keyval_invalid };
        Ok(())
    })
}

unsafe fn set_attr(
    kind: ObjectKind,
    handle: *const MPI_Fint,
    keyval: *const MPI_Fint,
    value: AttrWord,
    raw: *const c_void,
    ierror: *mut MPI_Fint,
) {
    let mpi1 = value.provenance == crate::caching::convert::Provenance::FortranInteger;
    layer_fentry!(name(kind, 2, mpi1), scope(kind, handle), ierror, {
        let k = unsafe { int(keyval)? };
        if !is_own(k) {
            refuse_predefined(kind, k, "set by users")?;
            let (slot, name) = match (kind, value.provenance) {
                (_, crate::caching::convert::Provenance::FortranInteger) => {
                    engine_fn!(c"pmpi_attr_put_")
                }
                (ObjectKind::Comm, _) => engine_fn!(c"pmpi_comm_set_attr_"),
                (ObjectKind::Datatype, _) => engine_fn!(c"pmpi_type_set_attr_"),
                (ObjectKind::Win, _) => engine_fn!(c"pmpi_win_set_attr_"),
            };
            return to_engine(slot, name, &[handle as _, keyval as _, raw as _]);
        }
        cache().set_attr(obj(kind, handle)?, k, value)
    })
}

/// The hot Fortran get, answered by the store without the lock or the boundary (a layer
/// keyval, every argument given, a plain hit or miss): true when answered.
#[inline(always)]
unsafe fn get_attr_fast(
    kind: ObjectKind,
    handle: *const MPI_Fint,
    keyval: *const MPI_Fint,
    value: *mut c_void,
    flag: *mut MPI_Flogical,
    integer: bool,
    ierror: *mut MPI_Fint,
) -> bool {
    if handle.is_null() || keyval.is_null() || value.is_null() || flag.is_null() {
        return false;
    }
    let k = unsafe { *keyval };
    if !is_own(k) {
        return false;
    }
    let Some(store) = cache().live_store() else {
        return false;
    };
    let obj = ObjRef::new(kind, from_fortran(kind, unsafe { *handle }));
    match store.get_word(obj, k) {
        Fast::Hit(word) => unsafe {
            if integer {
                *value.cast::<MPI_Fint>() = fortran_integer_view(word);
            } else {
                *value.cast::<MPI_Aint>() = word as MPI_Aint;
            }
            *flag = 1;
        },
        Fast::Miss => unsafe { *flag = 0 },
        Fast::Slow => return false,
    }
    if !ierror.is_null() {
        unsafe { *ierror = 0 };
    }
    true
}

/// A Fortran reader: the ADDRESS_KIND view (`integer` false) or the INTEGER view of
/// `MPI_ATTR_GET`.
unsafe fn get_attr(
    kind: ObjectKind,
    handle: *const MPI_Fint,
    keyval: *const MPI_Fint,
    value: *mut c_void,
    flag: *mut MPI_Flogical,
    integer: bool,
    ierror: *mut MPI_Fint,
) {
    layer_fentry!(name(kind, 3, integer), scope(kind, handle), ierror, {
        let k = unsafe { int(keyval)? };
        if !is_own(k) {
            let (slot, name) = match (kind, integer) {
                (_, true) => engine_fn!(c"pmpi_attr_get_"),
                (ObjectKind::Comm, _) => engine_fn!(c"pmpi_comm_get_attr_"),
                (ObjectKind::Datatype, _) => engine_fn!(c"pmpi_type_get_attr_"),
                (ObjectKind::Win, _) => engine_fn!(c"pmpi_win_get_attr_"),
            };
            refuse_invalid(kind, k)?;
            to_engine(slot, name, &[handle as _, keyval as _, value, flag.cast()])?;
            // MPI_TAG_UB & co. answer on every communicator (c_attr::get_attr says why); the
            // C numbers are Open MPI's Fortran ones too (MPICH's differ, and it answers).
            if kind == ObjectKind::Comm
                && !flag.is_null()
                && unsafe { *flag } == 0
                && engine::facts().process_wide_keyval(k)
            {
                let world = to_fortran(ObjectKind::Comm, engine::facts().comm_world);
                let w = &world as *const MPI_Fint;
                to_engine(slot, name, &[w as _, keyval as _, value, flag.cast()])?;
            }
            return Ok(());
        }
        layer_nonnull!(value, flag);
        match cache().get_attr_word(obj(kind, handle)?, k)? {
            Some(word) => unsafe {
                if integer {
                    *value.cast::<MPI_Fint>() = fortran_integer_view(word);
                } else {
                    *value.cast::<MPI_Aint>() = word as MPI_Aint;
                }
                *flag = 1;
            },
            None => unsafe { *flag = 0 },
        }
        Ok(())
    })
}

unsafe fn delete_attr(
    kind: ObjectKind,
    handle: *const MPI_Fint,
    keyval: *const MPI_Fint,
    mpi1: bool,
    ierror: *mut MPI_Fint,
) {
    layer_fentry!(name(kind, 4, mpi1), scope(kind, handle), ierror, {
        let k = unsafe { int(keyval)? };
        if !is_own(k) {
            refuse_predefined(kind, k, "deleted by users")?;
            let (slot, name) = match (kind, mpi1) {
                (_, true) => engine_fn!(c"pmpi_attr_delete_"),
                (ObjectKind::Comm, _) => engine_fn!(c"pmpi_comm_delete_attr_"),
                (ObjectKind::Datatype, _) => engine_fn!(c"pmpi_type_delete_attr_"),
                (ObjectKind::Win, _) => engine_fn!(c"pmpi_win_delete_attr_"),
            };
            return to_engine(slot, name, &[handle as _, keyval as _]);
        }
        cache().delete_attr(obj(kind, handle)?, k)
    })
}

// ---- the bodies of each routine, by object kind -------------------------------------------

macro_rules! kind_routines {
    ($kind:expr, $create:ident, $free:ident, $set:ident, $get:ident, $delete:ident) => {
        pub unsafe fn $create(
            copy_fn: *const c_void,
            delete_fn: *const c_void,
            keyval: *mut MPI_Fint,
            extra_state: *const MPI_Aint,
            ierror: *mut MPI_Fint,
        ) {
            unsafe { create_keyval($kind, copy_fn, delete_fn, keyval, extra_state, ierror) }
        }
        pub unsafe fn $free(keyval: *mut MPI_Fint, ierror: *mut MPI_Fint) {
            unsafe { free_keyval($kind, keyval, false, ierror) }
        }
        pub unsafe fn $set(
            handle: *const MPI_Fint,
            keyval: *const MPI_Fint,
            attribute_val: *const MPI_Aint,
            ierror: *mut MPI_Fint,
        ) {
            let value = if attribute_val.is_null() {
                AttrWord::from_fortran_address(0)
            } else {
                AttrWord::from_fortran_address(unsafe { *attribute_val } as i64)
            };
            if attribute_val.is_null() {
                layer_fentry!(name($kind, 2, false), Scope::NoObject, ierror, {
                    layer_nonnull!(attribute_val);
                    Ok(())
                });
                return;
            }
            unsafe { set_attr($kind, handle, keyval, value, attribute_val.cast(), ierror) }
        }
        pub unsafe fn $get(
            handle: *const MPI_Fint,
            keyval: *const MPI_Fint,
            attribute_val: *mut MPI_Aint,
            flag: *mut MPI_Flogical,
            ierror: *mut MPI_Fint,
        ) {
            let value = attribute_val.cast();
            if unsafe { get_attr_fast($kind, handle, keyval, value, flag, false, ierror) } {
                return;
            }
            unsafe { get_attr($kind, handle, keyval, value, flag, false, ierror) }
        }
        pub unsafe fn $delete(
            handle: *const MPI_Fint,
            keyval: *const MPI_Fint,
            ierror: *mut MPI_Fint,
        ) {
            unsafe { delete_attr($kind, handle, keyval, false, ierror) }
        }
    };
}

kind_routines!(
    ObjectKind::Comm,
    comm_create_keyval,
    comm_free_keyval,
    comm_set_attr,
    comm_get_attr,
    comm_delete_attr
);
kind_routines!(
    ObjectKind::Datatype,
    type_create_keyval,
    type_free_keyval,
    type_set_attr,
    type_get_attr,
    type_delete_attr
);
kind_routines!(
    ObjectKind::Win,
    win_create_keyval,
    win_free_keyval,
    win_set_attr,
    win_get_attr,
    win_delete_attr
);

/// `MPI_KEYVAL_CREATE`: INTEGER callbacks and extra_state.
pub unsafe fn keyval_create(
    copy_fn: *const c_void,
    delete_fn: *const c_void,
    keyval: *mut MPI_Fint,
    extra_state: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    layer_fentry!("MPI_KEYVAL_CREATE", Scope::NoObject, ierror, {
        layer_nonnull!(keyval, extra_state);
        let k = cache().create_keyval(
            ObjectKind::Comm,
            unsafe { integer_copy_fn(copy_fn) },
            unsafe { integer_delete_fn(delete_fn) },
            unsafe { *extra_state } as i64,
        )?;
        unsafe { *keyval = k };
        Ok(())
    })
}

pub unsafe fn keyval_free(keyval: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    unsafe { free_keyval(ObjectKind::Comm, keyval, true, ierror) }
}

/// `MPI_ATTR_PUT`: the INTEGER value, sign-extended (provenance `FortranInteger`).
pub unsafe fn attr_put(
    comm: *const MPI_Fint,
    keyval: *const MPI_Fint,
    attribute_val: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    if attribute_val.is_null() {
        layer_fentry!("MPI_ATTR_PUT", Scope::NoObject, ierror, {
            layer_nonnull!(attribute_val);
            Ok(())
        });
        return;
    }
    let value = AttrWord::from_fortran_integer(unsafe { *attribute_val });
    unsafe {
        set_attr(
            ObjectKind::Comm,
            comm,
            keyval,
            value,
            attribute_val.cast(),
            ierror,
        )
    }
}

pub unsafe fn attr_get(
    comm: *const MPI_Fint,
    keyval: *const MPI_Fint,
    attribute_val: *mut MPI_Fint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    let value = attribute_val.cast();
    if unsafe { get_attr_fast(ObjectKind::Comm, comm, keyval, value, flag, true, ierror) } {
        return;
    }
    unsafe { get_attr(ObjectKind::Comm, comm, keyval, value, flag, true, ierror) }
}

pub unsafe fn attr_delete(comm: *const MPI_Fint, keyval: *const MPI_Fint, ierror: *mut MPI_Fint) {
    unsafe { delete_attr(ObjectKind::Comm, comm, keyval, true, ierror) }
}
