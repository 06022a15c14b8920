//! Fortran callbacks over the engine (MPI 4.1 §20.3.7, §20.3.8): the routines of
//! `MPI_{COMM,TYPE,WIN}_CREATE_KEYVAL` (ADDRESS_KIND values; also `use mpi_f08`, whose
//! `TYPE(MPI_Comm)` arrives as a reference to its INTEGER) and of `MPI_KEYVAL_CREATE` (INTEGER
//! values), called with every argument by reference, the object as the engine's Fortran handle,
//! and `EXTRA_STATE` as a reference to the keyval's own copy. A copy routine's result is
//! stored as if that routine had set it: `FortranAddress`, or `FortranInteger` sign-extended.
//!
//! The predefined Fortran callbacks (`MPI_COMM_DUP_FN` ... as `mpif.h` / `use mpi` name them,
//! and `use mpi_f08`'s module procedures) are the engine's: recognised by the addresses the
//! dynamic linker gives their symbols, as a program that names them gets them.

#![allow(non_camel_case_types)]

use crate::caching::callback::{
    CallbackCall, Convention, CopyCallback, CopyFn, DeleteCallback, DeleteFn,
};
use crate::caching::convert::AttrWord;
use crate::kinds::ObjectKind;
use crate::layer::engine::{to_fortran, MPI_Fint};
use std::ffi::{c_void, CString};
use std::sync::OnceLock;

pub type MPI_Aint = isize;
/// gfortran's LOGICAL: `.TRUE.` is 1, any nonzero value reads true.
pub type MPI_Flogical = MPI_Fint;
const FORTRAN_FALSE: MPI_Flogical = 0;

/// The ADDRESS_KIND copy routine.
pub type FcopyAttr = unsafe extern "C" fn(
    oldobj: *const MPI_Fint,
    keyval: *const MPI_Fint,
    extra_state: *const MPI_Aint,
    attribute_val_in: *const MPI_Aint,
    attribute_val_out: *mut MPI_Aint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
);
/// The ADDRESS_KIND delete routine.
pub type FdeleteAttr = unsafe extern "C" fn(
    obj: *const MPI_Fint,
    keyval: *const MPI_Fint,
    attribute_val: *const MPI_Aint,
    extra_state: *const MPI_Aint,
    ierror: *mut MPI_Fint,
);
/// The INTEGER copy routine (`MPI_KEYVAL_CREATE`).
pub type Fcopy = unsafe extern "C" fn(
    oldcomm: *const MPI_Fint,
    keyval: *const MPI_Fint,
    extra_state: *const MPI_Fint,
    attribute_val_in: *const MPI_Fint,
    attribute_val_out: *mut MPI_Fint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
);
/// The INTEGER delete routine (`MPI_KEYVAL_CREATE`).
pub type Fdelete = unsafe extern "C" fn(
    comm: *const MPI_Fint,
    keyval: *const MPI_Fint,
    attribute_val: *const MPI_Fint,
    extra_state: *const MPI_Fint,
    ierror: *mut MPI_Fint,
);

struct AddressCopy(FcopyAttr, ObjectKind);
struct AddressDelete(FdeleteAttr, ObjectKind);
struct IntegerCopy(Fcopy);
struct IntegerDelete(Fdelete);

impl CopyCallback for AddressCopy {
    fn copy(&self, call: &CallbackCall<'_>) -> Result<Option<AttrWord>, i32> {
        let oldobj = to_fortran(self.1, call.object);
        let value_in = call.value.value.fortran_address_view() as MPI_Aint;
        let mut value_out: MPI_Aint = 0;
        let mut flag: MPI_Flogical = FORTRAN_FALSE;
        let mut ierror: MPI_Fint = 0;
        // SAFETY: registered with the ADDRESS_KIND copy signature; extra_state is the keyval's
        // own copy, alive for the call.
        unsafe {
            (self.0)(
                &oldobj,
                &call.keyval,
                call.extra_state.word_addr() as *const MPI_Aint,
                &value_in,
                &mut value_out,
                &mut flag,
                &mut ierror,
            )
        };
        match ierror {
            0 => {
                Ok((flag != FORTRAN_FALSE)
                    .then(|| AttrWord::from_fortran_address(value_out as i64)))
            }
            code => Err(code),
        }
    }
    fn convention(&self) -> Convention {
        Convention::FortranAddress
    }
}

impl DeleteCallback for AddressDelete {
    fn delete(&self, call: &CallbackCall<'_>) -> Result<(), i32> {
        let obj = to_fortran(self.1, call.object);
        let value = call.value.value.fortran_address_view() as MPI_Aint;
        let mut ierror: MPI_Fint = 0;
        // SAFETY: registered with the ADDRESS_KIND delete signature.
        unsafe {
            (self.0)(
                &obj,
                &call.keyval,
                &value,
                call.extra_state.word_addr() as *const MPI_Aint,
                &mut ierror,
            )
        };
        match ierror {
            0 => Ok(()),
            code => Err(code),
        }
    }
    fn convention(&self) -> Convention {
        Convention::FortranAddress
    }
}

impl CopyCallback for IntegerCopy {
    fn copy(&self, call: &CallbackCall<'_>) -> Result<Option<AttrWord>, i32> {
        let oldobj = to_fortran(ObjectKind::Comm, call.object);
        let value_in: MPI_Fint = call.value.value.fortran_integer_view();
        let mut value_out: MPI_Fint = 0;
        let mut flag: MPI_Flogical = FORTRAN_FALSE;
        let mut ierror: MPI_Fint = 0;
        // SAFETY: registered with the INTEGER copy signature (MPI_KEYVAL_CREATE).
        unsafe {
            (self.0)(
                &oldobj,
                &call.keyval,
                call.extra_state.int_addr() as *const MPI_Fint,
                &value_in,
                &mut value_out,
                &mut flag,
                &mut ierror,
            )
        };
        match ierror {
            0 => Ok((flag != FORTRAN_FALSE).then(|| AttrWord::from_fortran_integer(value_out))),
            code => Err(code),
        }
    }
    fn convention(&self) -> Convention {
        Convention::FortranInteger
    }
}

impl DeleteCallback for IntegerDelete {
    fn delete(&self, call: &CallbackCall<'_>) -> Result<(), i32> {
        let obj = to_fortran(ObjectKind::Comm, call.object);
        let value: MPI_Fint = call.value.value.fortran_integer_view();
        let mut ierror: MPI_Fint = 0;
        // SAFETY: registered with the INTEGER delete signature (MPI_KEYVAL_CREATE).
        unsafe {
            (self.0)(
                &obj,
                &call.keyval,
                &value,
                call.extra_state.int_addr() as *const MPI_Fint,
                &mut ierror,
            )
        };
        match ierror {
            0 => Ok(()),
            code => Err(code),
        }
    }
    fn convention(&self) -> Convention {
        Convention::FortranInteger
    }
}

/// The addresses of the engine's predefined Fortran callbacks, in every spelling.
struct Predefined {
    null_copy: Vec<usize>,
    dup: Vec<usize>,
    null_delete: Vec<usize>,
}

fn spellings(stem: &str) -> Vec<String> {
    let mut out = Vec::new();
    for p in ["mpi_", "pmpi_"] {
        let low = format!("{p}{stem}");
        out.push(format!("{low}_"));
        out.push(format!("{low}__"));
        out.push(low.to_uppercase());
        out.push(low);
    }
    out.push(format!("__mpi_f08_callbacks_MOD_mpi_{stem}"));
    out
}

fn addresses(stems: &[&str]) -> Vec<usize> {
    let mut out = Vec::new();
    for stem in stems {
        for name in spellings(stem) {
            let c = CString::new(name).unwrap();
            // SAFETY: dlsym with a NUL-terminated name; the address is only compared.
            let a = unsafe { libc::dlsym(libc::RTLD_DEFAULT, c.as_ptr()) };
            if !a.is_null() {
                out.push(a as usize);
            }
        }
    }
    out
}

fn predefined() -> &'static Predefined {
    static P: OnceLock<Predefined> = OnceLock::new();
    P.get_or_init(|| Predefined {
        null_copy: addresses(&[
            "comm_null_copy_fn",
            "type_null_copy_fn",
            "win_null_copy_fn",
            "null_copy_fn",
        ]),
        dup: addresses(&["comm_dup_fn", "type_dup_fn", "win_dup_fn", "dup_fn"]),
        null_delete: addresses(&[
            "comm_null_delete_fn",
            "type_null_delete_fn",
            "win_null_delete_fn",
            "null_delete_fn",
        ]),
    })
}

fn copy_native(f: *const c_void) -> Option<CopyFn> {
    let a = f as usize;
    let p = predefined();
    if a == 0 || p.null_copy.contains(&a) {
        Some(CopyFn::Null)
    } else if p.dup.contains(&a) {
        Some(CopyFn::Dup)
    } else {
        None
    }
}

fn delete_native(f: *const c_void) -> bool {
    let a = f as usize;
    a == 0 || predefined().null_delete.contains(&a)
}

/// An ADDRESS_KIND (or `mpi_f08`) copy routine as the caching engine sees it.
pub unsafe fn address_copy_fn(kind: ObjectKind, f: *const c_void) -> CopyFn {
    copy_native(f).unwrap_or_else(|| {
        // SAFETY: a Fortran procedure passed where the copy routine goes.
        CopyFn::User(Box::new(AddressCopy(
            unsafe { std::mem::transmute::<*const c_void, FcopyAttr>(f) },
            kind,
        )))
    })
}

/// An ADDRESS_KIND (or `mpi_f08`) delete routine.
pub unsafe fn address_delete_fn(kind: ObjectKind, f: *const c_void) -> DeleteFn {
    if delete_native(f) {
        return DeleteFn::Null;
    }
    // SAFETY: a Fortran procedure passed where the delete routine goes.
    DeleteFn::User(Box::new(AddressDelete(
        unsafe { std::mem::transmute::<*const c_void, FdeleteAttr>(f) },
        kind,
    )))
}

/// An INTEGER copy routine (`MPI_KEYVAL_CREATE`).
pub unsafe fn integer_copy_fn(f: *const c_void) -> CopyFn {
    copy_native(f).unwrap_or_else(|| {
        // SAFETY: a Fortran procedure passed where the copy routine goes.
        CopyFn::User(Box::new(IntegerCopy(unsafe {
            std::mem::transmute::<*const c_void, Fcopy>(f)
        })))
    })
}

/// An INTEGER delete routine (`MPI_KEYVAL_CREATE`).
pub unsafe fn integer_delete_fn(f: *const c_void) -> DeleteFn {
    if delete_native(f) {
        return DeleteFn::Null;
    }
    // SAFETY: a Fortran procedure passed where the delete routine goes.
    DeleteFn::User(Box::new(IntegerDelete(unsafe {
        std::mem::transmute::<*const c_void, Fdelete>(f)
    })))
}
