//! Fortran callback adapters (both conventions) and the predefined Fortran callbacks.
//!
//! - `MPI_{COMM,TYPE,WIN}_CREATE_KEYVAL` routines (ADDRESS_KIND): `SUBROUTINE COPY(OLDOBJ,
//!   KEYVAL, EXTRA_STATE, ATTRIBUTE_VAL_IN, ATTRIBUTE_VAL_OUT, FLAG, IERROR)` and `SUBROUTINE
//!   DELETE(OBJ, KEYVAL, ATTRIBUTE_VAL, EXTRA_STATE, IERROR)`, every argument by reference,
//!   values and extra_state INTEGER(KIND=MPI_ADDRESS_KIND);
//! - deprecated `MPI_KEYVAL_CREATE` routines (INTEGER): the same shapes, all INTEGER.
//!
//! EXTRA_STATE is a reference to the keyval's own stored copy (MPI 4.1 §20.3.8: extra_state is
//! IN); the value is the view that generation reads, in a local variable; the copy routine's
//! result is stored as if that routine had set it in its own generation (MPI 4.1 §20.3.7: the
//! MPI-1 rules apply "implicitly, by attribute copying callback functions").

use crate::caching::callback::{
    callbacks_of, CallbackCall, Callbacks, Convention, CopyCallback, CopyFn, DeleteCallback,
    DeleteFn,
};
use crate::caching::convert::AttrWord;
use crate::consts::MPI_SUCCESS;
use crate::fortran::{
    callback_code, fint, MPI_Aint, MPI_Fint, MPI_Flogical, FORTRAN_FALSE, FORTRAN_TRUE,
};

/// ADDRESS_KIND copy routine (`MPI_COMM_COPY_ATTR_FUNCTION` & co.).
pub type MPI_Fcopy_attr_function = unsafe extern "C" fn(
    oldobj: *const MPI_Fint,
    keyval: *const MPI_Fint,
    extra_state: *const MPI_Aint,
    attribute_val_in: *const MPI_Aint,
    attribute_val_out: *mut MPI_Aint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
);

/// ADDRESS_KIND delete routine (`MPI_COMM_DELETE_ATTR_FUNCTION` & co.).
pub type MPI_Fdelete_attr_function = unsafe extern "C" fn(
    obj: *const MPI_Fint,
    keyval: *const MPI_Fint,
    attribute_val: *const MPI_Aint,
    extra_state: *const MPI_Aint,
    ierror: *mut MPI_Fint,
);

/// INTEGER copy routine (`MPI_KEYVAL_CREATE`'s `COPY_FUNCTION`).
pub type MPI_Fcopy_function = unsafe extern "C" fn(
    oldcomm: *const MPI_Fint,
    keyval: *const MPI_Fint,
    extra_state: *const MPI_Fint,
    attribute_val_in: *const MPI_Fint,
    attribute_val_out: *mut MPI_Fint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
);

/// INTEGER delete routine (`MPI_KEYVAL_CREATE`'s `DELETE_FUNCTION`).
pub type MPI_Fdelete_function = unsafe extern "C" fn(
    comm: *const MPI_Fint,
    keyval: *const MPI_Fint,
    attribute_val: *const MPI_Fint,
    extra_state: *const MPI_Fint,
    ierror: *mut MPI_Fint,
);

struct FortranAddressCopy(MPI_Fcopy_attr_function);
struct FortranAddressDelete(MPI_Fdelete_attr_function);
struct FortranIntegerCopy(MPI_Fcopy_function);
struct FortranIntegerDelete(MPI_Fdelete_function);

impl CopyCallback for FortranAddressCopy {
    fn copy(&self, call: &CallbackCall<'_>) -> Result<Option<AttrWord>, i32> {
        let oldobj: MPI_Fint = fint(call.object.int());
        let keyval: MPI_Fint = fint(call.keyval);
        let value_in = call.value.value.fortran_address_view() as MPI_Aint;
        let mut value_out: MPI_Aint = 0;
        let mut flag: MPI_Flogical = FORTRAN_FALSE;
        let mut ierror: MPI_Fint = fint(MPI_SUCCESS);
        // SAFETY: the user registered this routine with the ADDRESS_KIND copy signature; the
        // extra_state reference is the keyval's own copy, alive for the call.
        unsafe {
            (self.0)(
                &oldobj,
                &keyval,
                call.extra_state.word_addr() as *const MPI_Aint,
                &value_in,
                &mut value_out,
                &mut flag,
                &mut ierror,
            )
        };
        if ierror != fint(MPI_SUCCESS) {
            return Err(callback_code(ierror));
        }
        Ok((flag != FORTRAN_FALSE).then(|| AttrWord::from_fortran_address(value_out as i64)))
    }
    fn convention(&self) -> Convention {
        Convention::FortranAddress
    }
}

impl DeleteCallback for FortranAddressDelete {
    fn delete(&self, call: &CallbackCall<'_>) -> Result<(), i32> {
        let obj: MPI_Fint = fint(call.object.int());
        let keyval: MPI_Fint = fint(call.keyval);
        let value = call.value.value.fortran_address_view() as MPI_Aint;
        let mut ierror: MPI_Fint = fint(MPI_SUCCESS);
        // SAFETY: registered with the ADDRESS_KIND delete signature.
        unsafe {
            (self.0)(
                &obj,
                &keyval,
                &value,
                call.extra_state.word_addr() as *const MPI_Aint,
                &mut ierror,
            )
        };
        match callback_code(ierror) {
            MPI_SUCCESS => Ok(()),
            code => Err(code),
        }
    }
    fn convention(&self) -> Convention {
        Convention::FortranAddress
    }
}

impl CopyCallback for FortranIntegerCopy {
    fn copy(&self, call: &CallbackCall<'_>) -> Result<Option<AttrWord>, i32> {
        let oldobj: MPI_Fint = fint(call.object.int());
        let keyval: MPI_Fint = fint(call.keyval);
        let value_in: MPI_Fint = call.value.value.fortran_integer_view();
        let mut value_out: MPI_Fint = 0;
        let mut flag: MPI_Flogical = FORTRAN_FALSE;
        let mut ierror: MPI_Fint = fint(MPI_SUCCESS);
        // SAFETY: registered with the INTEGER copy signature (MPI_KEYVAL_CREATE).
        unsafe {
            (self.0)(
                &oldobj,
                &keyval,
                call.extra_state.int_addr() as *const MPI_Fint,
                &value_in,
                &mut value_out,
                &mut flag,
                &mut ierror,
            )
        };
        if ierror != fint(MPI_SUCCESS) {
            return Err(callback_code(ierror));
        }
        Ok((flag != FORTRAN_FALSE).then(|| AttrWord::from_fortran_integer(value_out)))
    }
    fn convention(&self) -> Convention {
        Convention::FortranInteger
    }
}

impl DeleteCallback for FortranIntegerDelete {
    fn delete(&self, call: &CallbackCall<'_>) -> Result<(), i32> {
        let obj: MPI_Fint = fint(call.object.int());
        let keyval: MPI_Fint = fint(call.keyval);
        let value: MPI_Fint = call.value.value.fortran_integer_view();
        let mut ierror: MPI_Fint = fint(MPI_SUCCESS);
        // SAFETY: registered with the INTEGER delete signature (MPI_KEYVAL_CREATE).
        unsafe {
            (self.0)(
                &obj,
                &keyval,
                &value,
                call.extra_state.int_addr() as *const MPI_Fint,
                &mut ierror,
            )
        };
        match callback_code(ierror) {
            MPI_SUCCESS => Ok(()),
            code => Err(code),
        }
    }
    fn convention(&self) -> Convention {
        Convention::FortranInteger
    }
}

/// What a predefined Fortran callback is, by its (canonical) address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Predefined {
    NullCopy,
    Dup,
    NullDelete,
}

fn predefined(addr: usize) -> Option<Predefined> {
    let addr = crate::fortran::twins::canonical_callback(addr);
    let null_copy = [
        mpi_comm_null_copy_fn_ as *const () as usize,
        mpi_type_null_copy_fn_ as *const () as usize,
        mpi_win_null_copy_fn_ as *const () as usize,
        mpi_null_copy_fn_ as *const () as usize,
    ];
    let dup = [
        mpi_comm_dup_fn_ as *const () as usize,
        mpi_type_dup_fn_ as *const () as usize,
        mpi_win_dup_fn_ as *const () as usize,
        mpi_dup_fn_ as *const () as usize,
    ];
    let null_delete = [
        mpi_comm_null_delete_fn_ as *const () as usize,
        mpi_type_null_delete_fn_ as *const () as usize,
        mpi_win_null_delete_fn_ as *const () as usize,
        mpi_null_delete_fn_ as *const () as usize,
    ];
    if null_copy.contains(&addr) {
        Some(Predefined::NullCopy)
    } else if dup.contains(&addr) {
        Some(Predefined::Dup)
    } else if null_delete.contains(&addr) {
        Some(Predefined::NullDelete)
    } else {
        None
    }
}

/// What a keyval made by `MPI_*_CREATE_KEYVAL` records of these routines when both are
/// predefined (no user code: the keyval can be created on the fast path); `None` otherwise.
/// Decides as [`fortran_address_copy_fn`] and [`fortran_address_delete_fn`] do.
pub fn fortran_native_callbacks(
    copy: Option<MPI_Fcopy_attr_function>,
    delete: Option<MPI_Fdelete_attr_function>,
) -> Option<Callbacks> {
    let copy = match copy {
        None => CopyFn::Null,
        Some(f) => match predefined(f as usize)? {
            Predefined::Dup => CopyFn::Dup,
            Predefined::NullCopy | Predefined::NullDelete => CopyFn::Null,
        },
    };
    match delete.map(|f| predefined(f as usize)) {
        None | Some(Some(Predefined::NullDelete)) => Some(callbacks_of(&copy, &DeleteFn::Null)),
        Some(_) => None,
    }
}

/// The copy behaviour of a routine given to `MPI_*_CREATE_KEYVAL`: the predefined Fortran
/// routines are recognised by address (any spelling), so a DUP keeps value and provenance.
pub fn fortran_address_copy_fn(f: Option<MPI_Fcopy_attr_function>) -> crate::error::Result<CopyFn> {
    let Some(f) = f else { return Ok(CopyFn::Null) };
    match predefined(f as usize) {
        Some(Predefined::Dup) => Ok(CopyFn::Dup),
        Some(_) => Ok(CopyFn::Null),
        None => Ok(CopyFn::User(crate::primitives::alloc::try_box(
            FortranAddressCopy(f),
        )?)),
    }
}

/// The delete behaviour of a routine given to `MPI_*_CREATE_KEYVAL`.
pub fn fortran_address_delete_fn(
    f: Option<MPI_Fdelete_attr_function>,
) -> crate::error::Result<DeleteFn> {
    let Some(f) = f else {
        return Ok(DeleteFn::Null);
    };
    match predefined(f as usize) {
        Some(Predefined::NullDelete) => Ok(DeleteFn::Null),
        _ => Ok(DeleteFn::User(crate::primitives::alloc::try_box(
            FortranAddressDelete(f),
        )?)),
    }
}

/// The copy behaviour of a routine given to `MPI_KEYVAL_CREATE`.
pub fn fortran_integer_copy_fn(f: Option<MPI_Fcopy_function>) -> crate::error::Result<CopyFn> {
    let Some(f) = f else { return Ok(CopyFn::Null) };
    match predefined(f as usize) {
        Some(Predefined::Dup) => Ok(CopyFn::Dup),
        Some(_) => Ok(CopyFn::Null),
        None => Ok(CopyFn::User(crate::primitives::alloc::try_box(
            FortranIntegerCopy(f),
        )?)),
    }
}

/// The delete behaviour of a routine given to `MPI_KEYVAL_CREATE`.
pub fn fortran_integer_delete_fn(
    f: Option<MPI_Fdelete_function>,
) -> crate::error::Result<DeleteFn> {
    let Some(f) = f else {
        return Ok(DeleteFn::Null);
    };
    match predefined(f as usize) {
        Some(Predefined::NullDelete) => Ok(DeleteFn::Null),
        _ => Ok(DeleteFn::User(crate::primitives::alloc::try_box(
            FortranIntegerDelete(f),
        )?)),
    }
}

// The predefined routines themselves, callable from Fortran like any user routine (a program
// may call them, or pass them on). Passed to a create-keyval routine they never run: the core
// handles them natively.

unsafe fn set(p: *mut MPI_Fint, v: MPI_Fint) {
    if !p.is_null() {
        // SAFETY: `p` checked non-NULL above (fortran/mod.rs contract).
        unsafe { *p = v };
    }
}

// The bodies the predefined routines share when a program calls them directly.

/// `*_NULL_COPY_FN`: FLAG = .FALSE., IERROR = MPI_SUCCESS.
unsafe fn null_copy(flag: *mut MPI_Flogical, ierror: *mut MPI_Fint) {
    unsafe {
        set(flag, FORTRAN_FALSE);
        set(ierror, fint(MPI_SUCCESS));
    }
}

/// `*_DUP_FN`: ATTRIBUTE_VAL_OUT = ATTRIBUTE_VAL_IN, FLAG = .TRUE., IERROR = MPI_SUCCESS, for
/// either generation's value type.
unsafe fn dup_copy<T: Copy>(
    value_in: *const T,
    value_out: *mut T,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    unsafe {
        if !value_in.is_null() && !value_out.is_null() {
            *value_out = *value_in;
        }
        set(flag, FORTRAN_TRUE);
        set(ierror, fint(MPI_SUCCESS));
    }
}

/// `*_NULL_DELETE_FN`: IERROR = MPI_SUCCESS.
unsafe fn null_delete(ierror: *mut MPI_Fint) {
    unsafe { set(ierror, fint(MPI_SUCCESS)) };
}

/// `MPI_COMM_NULL_COPY_FN`: FLAG = .FALSE.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_null_copy_fn_(
    oldcomm: *const MPI_Fint,
    comm_keyval: *const MPI_Fint,
    extra_state: *const MPI_Aint,
    attribute_val_in: *const MPI_Aint,
    attribute_val_out: *mut MPI_Aint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    let _ = (
        oldcomm,
        comm_keyval,
        extra_state,
        attribute_val_in,
        attribute_val_out,
    );
    unsafe { null_copy(flag, ierror) }
}

/// `MPI_COMM_DUP_FN`: ATTRIBUTE_VAL_OUT = ATTRIBUTE_VAL_IN, FLAG = .TRUE.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_dup_fn_(
    oldcomm: *const MPI_Fint,
    comm_keyval: *const MPI_Fint,
    extra_state: *const MPI_Aint,
    attribute_val_in: *const MPI_Aint,
    attribute_val_out: *mut MPI_Aint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    let _ = (oldcomm, comm_keyval, extra_state);
    unsafe { dup_copy(attribute_val_in, attribute_val_out, flag, ierror) }
}

/// `MPI_COMM_NULL_DELETE_FN`: does nothing.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_null_delete_fn_(
    comm: *const MPI_Fint,
    comm_keyval: *const MPI_Fint,
    attribute_val: *const MPI_Aint,
    extra_state: *const MPI_Aint,
    ierror: *mut MPI_Fint,
) {
    let _ = (comm, comm_keyval, attribute_val, extra_state);
    unsafe { null_delete(ierror) };
}

/// `MPI_TYPE_NULL_COPY_FN`.
#[no_mangle]
pub unsafe extern "C" fn mpi_type_null_copy_fn_(
    oldtype: *const MPI_Fint,
    type_keyval: *const MPI_Fint,
    extra_state: *const MPI_Aint,
    attribute_val_in: *const MPI_Aint,
    attribute_val_out: *mut MPI_Aint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    unsafe {
        mpi_comm_null_copy_fn_(
            oldtype,
            type_keyval,
            extra_state,
            attribute_val_in,
            attribute_val_out,
            flag,
            ierror,
        )
    }
}

/// `MPI_TYPE_DUP_FN`.
#[no_mangle]
pub unsafe extern "C" fn mpi_type_dup_fn_(
    oldtype: *const MPI_Fint,
    type_keyval: *const MPI_Fint,
    extra_state: *const MPI_Aint,
    attribute_val_in: *const MPI_Aint,
    attribute_val_out: *mut MPI_Aint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    unsafe {
        mpi_comm_dup_fn_(
            oldtype,
            type_keyval,
            extra_state,
            attribute_val_in,
            attribute_val_out,
            flag,
            ierror,
        )
    }
}

/// `MPI_TYPE_NULL_DELETE_FN`.
#[no_mangle]
pub unsafe extern "C" fn mpi_type_null_delete_fn_(
    datatype: *const MPI_Fint,
    type_keyval: *const MPI_Fint,
    attribute_val: *const MPI_Aint,
    extra_state: *const MPI_Aint,
    ierror: *mut MPI_Fint,
) {
    let _ = (datatype, type_keyval, attribute_val, extra_state);
    unsafe { null_delete(ierror) };
}

/// `MPI_WIN_NULL_COPY_FN`.
#[no_mangle]
pub unsafe extern "C" fn mpi_win_null_copy_fn_(
    oldwin: *const MPI_Fint,
    win_keyval: *const MPI_Fint,
    extra_state: *const MPI_Aint,
    attribute_val_in: *const MPI_Aint,
    attribute_val_out: *mut MPI_Aint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    let _ = (
        oldwin,
        win_keyval,
        extra_state,
        attribute_val_in,
        attribute_val_out,
    );
    unsafe { null_copy(flag, ierror) }
}

/// `MPI_WIN_DUP_FN`.
#[no_mangle]
pub unsafe extern "C" fn mpi_win_dup_fn_(
    oldwin: *const MPI_Fint,
    win_keyval: *const MPI_Fint,
    extra_state: *const MPI_Aint,
    attribute_val_in: *const MPI_Aint,
    attribute_val_out: *mut MPI_Aint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    let _ = (oldwin, win_keyval, extra_state);
    unsafe { dup_copy(attribute_val_in, attribute_val_out, flag, ierror) }
}

/// `MPI_WIN_NULL_DELETE_FN`.
#[no_mangle]
pub unsafe extern "C" fn mpi_win_null_delete_fn_(
    win: *const MPI_Fint,
    win_keyval: *const MPI_Fint,
    attribute_val: *const MPI_Aint,
    extra_state: *const MPI_Aint,
    ierror: *mut MPI_Fint,
) {
    let _ = (win, win_keyval, attribute_val, extra_state);
    unsafe { null_delete(ierror) };
}

/// `MPI_NULL_COPY_FN` (deprecated, INTEGER): FLAG = .FALSE.
#[no_mangle]
pub unsafe extern "C" fn mpi_null_copy_fn_(
    oldcomm: *const MPI_Fint,
    keyval: *const MPI_Fint,
    extra_state: *const MPI_Fint,
    attribute_val_in: *const MPI_Fint,
    attribute_val_out: *mut MPI_Fint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    let _ = (
        oldcomm,
        keyval,
        extra_state,
        attribute_val_in,
        attribute_val_out,
    );
    unsafe { null_copy(flag, ierror) }
}

/// `MPI_DUP_FN` (deprecated, INTEGER): ATTRIBUTE_VAL_OUT = ATTRIBUTE_VAL_IN, FLAG = .TRUE.
#[no_mangle]
pub unsafe extern "C" fn mpi_dup_fn_(
    oldcomm: *const MPI_Fint,
    keyval: *const MPI_Fint,
    extra_state: *const MPI_Fint,
    attribute_val_in: *const MPI_Fint,
    attribute_val_out: *mut MPI_Fint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    let _ = (oldcomm, keyval, extra_state);
    unsafe { dup_copy(attribute_val_in, attribute_val_out, flag, ierror) }
}

/// `MPI_NULL_DELETE_FN` (deprecated, INTEGER).
#[no_mangle]
pub unsafe extern "C" fn mpi_null_delete_fn_(
    comm: *const MPI_Fint,
    keyval: *const MPI_Fint,
    attribute_val: *const MPI_Fint,
    extra_state: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    let _ = (comm, keyval, attribute_val, extra_state);
    unsafe { null_delete(ierror) };
}
