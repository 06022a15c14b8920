//! User reduction operations and local reduction (MPI 4.1 §6.9.5, §6.9.7): `MPI_Op_create`,
//! `MPI_Op_create_c`, `MPI_Reduce_local`, `MPI_Reduce_local_c`. The collectives over one
//! process never call an operation (one contribution is the result); `MPI_Reduce_local` does:
//! the user's function, or the predefined operation of [`crate::world::op_apply`].

use crate::boundary::rt;
use crate::capi::boundary::Scope;
use crate::capi::coll_body::Count;
use crate::capi::coll_work::{check_buffer, is_in_place};
use crate::capi::types::*;
use crate::consts::*;
use crate::world::op::UserOp;
use crate::world::op_apply::{apply, element_extent};
use crate::world::{Error, Handle, Result};
use crate::{entry, try_out};
use std::ffi::{c_int, c_void};

/// Both forms of `MPI_Op_create`: the function's address and its length width.
fn create(func: Option<usize>, commute: c_int, big_count: bool) -> Result<Handle> {
    let func = func.ok_or(Error::NullArgument { name: "user_fn" })?;
    rt().op_create(UserOp {
        func,
        commute: commute != 0,
        big_count,
        caller: None,
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Op_create(
    user_fn: Option<MPI_User_function>,
    commute: c_int,
    op: *mut MPI_Op,
) -> c_int {
    entry!("MPI_Op_create", Scope::NoObject, {
        let op = try_out!(op);
        op.set(create(user_fn.map(|f| f as usize), commute, false)?.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Op_create_c(
    user_fn: Option<MPI_User_function_c>,
    commute: c_int,
    op: *mut MPI_Op,
) -> c_int {
    entry!("MPI_Op_create_c", Scope::NoObject, {
        let op = try_out!(op);
        op.set(create(user_fn.map(|f| f as usize), commute, true)?.0);
        Ok(())
    })
}

/// `inoutbuf = inbuf op inoutbuf` (§6.9.7), for counts of either width.
///
/// # Safety
/// Both buffers hold `count` elements of `datatype`, as the MPI caller promises.
unsafe fn reduce_local<C: Count>(
    inbuf: *const c_void,
    inoutbuf: *mut c_void,
    count: C,
    datatype: MPI_Datatype,
    op: MPI_Op,
) -> Result<()> {
    let count: i64 = count.into();
    let blocks = rt().type_blocks(Handle(datatype), count)?;
    rt().op_check(Handle(op))?;
    if is_in_place(inbuf) || is_in_place(inoutbuf.cast_const()) {
        return Err(Error::invalid(
            MPI_ERR_BUFFER,
            "MPI_IN_PLACE is not an argument of MPI_Reduce_local",
        ));
    }
    check_buffer(inbuf, &blocks, "inbuf")?;
    check_buffer(inoutbuf, &blocks, "inoutbuf")?;
    if count == 0 {
        return Ok(());
    }
    match rt().op_user(Handle(op))? {
        // SAFETY: the buffers as this function's contract gives them; `user` came from
        // MPI_Op_create(_c), which is what `call_user` asks.
        Some(user) => unsafe { call_user(user, inbuf, inoutbuf, count, datatype) },
        None if op == MPI_REPLACE || op == MPI_NO_OP => Err(Error::invalid(
            MPI_ERR_OP,
            "MPI_REPLACE and MPI_NO_OP are for accumulate operations only (MPI 4.1 §12.3.4)",
        )),
        None => {
            let (_, extent) = rt().type_get_extent(Handle(datatype))?;
            // An F90 type (MPI 4.1 §19.1.9) reduces as the named type it behaves as.
            let datatype = rt().type_like(Handle(datatype))?.0;
            if element_extent(datatype) != Some(extent as usize) {
                return Err(Error::invalid(
                    MPI_ERR_OP,
                    format!("predefined operation {op:#x} on datatype {datatype:#x}: only predefined numeric, logical, byte and pair datatypes are supported"),
                ));
            }
            let n = (count * extent) as usize;
            // SAFETY: both buffers hold `count` elements of the predefined datatype (extent
            // bytes each), checked non-NULL above; the input is copied first, so the two may
            // even overlap.
            let input = unsafe { std::slice::from_raw_parts(inbuf.cast::<u8>(), n) }.to_vec();
            // SAFETY: as above; `inoutbuf` is the caller's writable buffer of the same size.
            let inout = unsafe { std::slice::from_raw_parts_mut(inoutbuf.cast::<u8>(), n) };
            apply(op, datatype, count as usize, &input, inout)
        }
    }
}

/// Calls a user operation's function with the length type it was created for.
///
/// # Safety
/// As [`reduce_local`]; `user.func` came from `MPI_Op_create(_c)`.
unsafe fn call_user(
    user: UserOp,
    inbuf: *const c_void,
    inoutbuf: *mut c_void,
    count: i64,
    datatype: MPI_Datatype,
) -> Result<()> {
    let mut dt = datatype;
    if let Some(caller) = user.caller {
        // SAFETY: `caller` came with `user.func` from the face that made the operation, and
        // the buffers hold `count` elements of `datatype` (this function's contract).
        let called = unsafe { caller(user.func, inbuf.cast_mut(), inoutbuf, count, datatype) };
        if !called {
            return Err(Error::invalid(
                MPI_ERR_COUNT,
                format!("count {count} exceeds the INTEGER length of an MPI_OP_CREATE function"),
            ));
        }
    } else if user.big_count {
        // SAFETY: the address is the `MPI_User_function_c` given to MPI_Op_create_c.
        let f: MPI_User_function_c = unsafe { std::mem::transmute(user.func) };
        let mut len: MPI_Count = count;
        // SAFETY: the user's function gets buffers of `len` elements of `dt` (this function's
        // contract), as MPI 4.1 §6.9.5 promises it.
        unsafe { f(inbuf.cast_mut(), inoutbuf, &mut len, &mut dt) };
    } else {
        let mut len = c_int::try_from(count).map_err(|_| {
            Error::invalid(
                MPI_ERR_COUNT,
                format!("count {count} exceeds the int length of an MPI_Op_create function"),
            )
        })?;
        // SAFETY: the address is the `MPI_User_function` given to MPI_Op_create.
        let f: MPI_User_function = unsafe { std::mem::transmute(user.func) };
        // SAFETY: the user's function gets buffers of `len` elements of `dt` (this function's
        // contract), as MPI 4.1 §6.9.5 promises it.
        unsafe { f(inbuf.cast_mut(), inoutbuf, &mut len, &mut dt) };
    }
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Reduce_local(
    inbuf: *const c_void,
    inoutbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
) -> c_int {
    entry!("MPI_Reduce_local", Scope::NoObject, {
        // SAFETY: the buffers are as MPI_Reduce_local's C binding describes (the entry points'
        // contract, capi/mod.rs), which is what `reduce_local` asks.
        unsafe { reduce_local(inbuf, inoutbuf, count, datatype, op) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Reduce_local_c(
    inbuf: *const c_void,
    inoutbuf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
) -> c_int {
    entry!("MPI_Reduce_local_c", Scope::NoObject, {
        // SAFETY: the buffers are as MPI_Reduce_local's C binding describes (the entry points'
        // contract, capi/mod.rs), which is what `reduce_local` asks.
        unsafe { reduce_local(inbuf, inoutbuf, count, datatype, op) }
    })
}
