//! One-sided communication entry points (MPI 4.1 §12.3): put, get, the accumulate family and
//! their request-based and large-count forms, to this process's own window. The world checks
//! the call and says which absolute bytes of the target it touches (`world::rma`); this face
//! moves them. Every operation is complete when the call returns, so a request-based call
//! returns a request that is already complete.

use crate::capi::boundary::Scope;
use crate::capi::p2p::{pack, unpack};
use crate::capi::types::*;
use crate::consts::*;
use crate::world::rma::TargetRuns;
use crate::world::rma_op;
use crate::world::{Error, Handle, Result};
use crate::{entry, try_out};
use std::ffi::{c_int, c_void};

use crate::boundary::rt;

/// The bytes of the target runs, in order.
///
/// # Safety
/// The runs lie in the window's memory, which the program keeps valid while the window lives.
unsafe fn read_runs(runs: &TargetRuns) -> Vec<u8> {
    let mut out = Vec::with_capacity(runs.iter().map(|r| r.1).sum());
    for &(a, n) in runs {
        // SAFETY: the world checked the run lies in the window's memory (see above).
        out.extend_from_slice(unsafe { std::slice::from_raw_parts(a as *const u8, n) });
    }
    out
}

/// Writes `data` along the target runs.
///
/// # Safety
/// As [`read_runs`].
unsafe fn write_runs(runs: &TargetRuns, data: &[u8]) {
    let mut at = 0;
    for &(a, n) in runs {
        // SAFETY: as read_runs; `data` holds the runs' total (checked by the callers).
        unsafe { std::ptr::copy(data.as_ptr().add(at), a as *mut u8, n) };
        at += n;
    }
}

fn signature_error(what: &str, a: usize, b: usize) -> Error {
    Error::invalid(
        MPI_ERR_TYPE,
        format!("the {what} describes {a} bytes, the target {b}: the type signatures differ"),
    )
}

/// One target (`rank`, `disp`, `count`, `datatype`) of an RMA call.
#[derive(Clone, Copy)]
struct Target {
    rank: c_int,
    disp: MPI_Aint,
    count: i64,
    datatype: MPI_Datatype,
}

/// `MPI_Put` and its forms (MPI 4.1 §12.3.1).
///
/// # Safety
/// `origin` holds `count` x `datatype` (the MPI caller's promise).
unsafe fn put(
    origin: *const c_void,
    count: i64,
    datatype: MPI_Datatype,
    t: Target,
    win: MPI_Win,
    request_based: bool,
) -> Result<()> {
    rt().win_check(Handle(win))?;
    // SAFETY: the caller's origin buffer (contract above).
    let data = unsafe { pack(origin, count, datatype) }?;
    let runs = rt().rma_target(
        Handle(win),
        t.rank,
        t.disp as i64,
        t.count,
        Handle(t.datatype),
        request_based,
    )?;
    let Some(runs) = runs else { return Ok(()) };
    let n: usize = runs.iter().map(|r| r.1).sum();
    if n != data.len() {
        return Err(signature_error("origin", data.len(), n));
    }
    // SAFETY: the runs are in the window (checked by the world); sizes checked above.
    unsafe { write_runs(&runs, &data) };
    Ok(())
}

/// `MPI_Get` and its forms (MPI 4.1 §12.3.2).
///
/// # Safety
/// `origin` has room for `count` x `datatype`.
unsafe fn get(
    origin: *mut c_void,
    count: i64,
    datatype: MPI_Datatype,
    t: Target,
    win: MPI_Win,
    request_based: bool,
) -> Result<()> {
    rt().win_check(Handle(win))?;
    let blocks = rt().type_blocks(Handle(datatype), count)?;
    let runs = rt().rma_target(
        Handle(win),
        t.rank,
        t.disp as i64,
        t.count,
        Handle(t.datatype),
        request_based,
    )?;
    let Some(runs) = runs else { return Ok(()) };
    let want: i64 = blocks.iter().map(|b| b.1).sum();
    // SAFETY: the runs are in the window (checked by the world).
    let data = unsafe { read_runs(&runs) };
    if want as usize != data.len() {
        return Err(signature_error("origin", want as usize, data.len()));
    }
    // SAFETY: the caller's origin buffer (contract above).
    unsafe { unpack(origin as usize, &blocks, &data) };
    Ok(())
}

/// The result buffer of the fetching accumulates.
#[derive(Clone, Copy)]
struct ResultBuf {
    addr: *mut c_void,
    count: i64,
    datatype: MPI_Datatype,
}

/// The accumulate family (MPI 4.1 §12.3.4): the target's elements become `target op origin`;
/// with a result buffer, it receives the target's old contents first.
///
/// # Safety
/// `origin` holds `count` x `datatype` (unless `op` is `MPI_NO_OP`); `result` has room.
#[allow(clippy::too_many_arguments)]
unsafe fn accumulate(
    origin: *const c_void,
    count: i64,
    datatype: MPI_Datatype,
    result: Option<ResultBuf>,
    t: Target,
    op: MPI_Op,
    win: MPI_Win,
    request_based: bool,
) -> Result<()> {
    rt().win_check(Handle(win))?;
    // MPI 4.1 §12.3: an operation on MPI_PROC_NULL is a no-op; as in MPICH and Open MPI its
    // datatypes and operation are not examined (mpi4py passes MPI_DATATYPE_NULL there).
    if t.rank == MPI_PROC_NULL {
        return Ok(());
    }
    let mut types = vec![Handle(t.datatype)];
    if op != MPI_NO_OP {
        types.push(Handle(datatype));
    }
    if let Some(r) = result {
        types.push(Handle(r.datatype));
    }
    // No element, no operation to define on it (MPICH accepts MPI_SUM on 0 x MPI_BYTE).
    let kind = if t.count == 0 {
        crate::world::datatype::check_op(Handle(op))?;
        None
    } else {
        Some(rt().rma_acc_kind(Handle(op), &types)?.kind)
    };
    let data = if op == MPI_NO_OP {
        Vec::new()
    } else {
        // SAFETY: the caller's origin buffer (contract above).
        unsafe { pack(origin, count, datatype) }?
    };
    let result_blocks = match result {
        Some(r) => Some(rt().type_blocks(Handle(r.datatype), r.count)?),
        None => None,
    };
    let runs = rt().rma_target(
        Handle(win),
        t.rank,
        t.disp as i64,
        t.count,
        Handle(t.datatype),
        request_based,
    )?;
    let Some(runs) = runs else { return Ok(()) };
    // SAFETY: the runs are in the window (checked by the world).
    let mut target = unsafe { read_runs(&runs) };
    if op != MPI_NO_OP && data.len() != target.len() {
        return Err(signature_error("origin", data.len(), target.len()));
    }
    if let (Some(r), Some(blocks)) = (result, &result_blocks) {
        let n: i64 = blocks.iter().map(|b| b.1).sum();
        if n as usize != target.len() {
            return Err(signature_error("result", n as usize, target.len()));
        }
        // SAFETY: the caller's result buffer (contract above).
        unsafe { unpack(r.addr as usize, blocks, &target) };
    }
    if let (true, Some(kind)) = (op != MPI_NO_OP, kind) {
        rma_op::apply(op, kind, &mut target, &data);
        // SAFETY: the runs are in the window (checked by the world); same length as read.
        unsafe { write_runs(&runs, &target) };
    }
    Ok(())
}

/// `MPI_Fetch_and_op` and `MPI_Compare_and_swap` take one element of a predefined type.
fn check_predefined(datatype: MPI_Datatype) -> Result<()> {
    if rt().type_envelope(Handle(datatype))?.combiner != MPI_COMBINER_NAMED {
        return Err(Error::invalid(
            MPI_ERR_TYPE,
            format!("datatype {datatype:#x} is not a predefined datatype"),
        ));
    }
    Ok(())
}

/// The request of a request-based call: complete, since the operation is.
///
/// # Safety
/// `request` is the entry point's output argument.
unsafe fn complete_request(request: *mut MPI_Request) -> Result<()> {
    let out = try_out!(request);
    out.set(rt().completed_request()?.0);
    Ok(())
}

macro_rules! tgt {
    ($rank:expr, $disp:expr, $count:expr, $dt:expr) => {
        Target {
            rank: $rank,
            disp: $disp,
            count: i64::from($count),
            datatype: $dt,
        }
    };
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Put(
    origin_addr: *const c_void,
    origin_count: c_int,
    origin_datatype: MPI_Datatype,
    target_rank: c_int,
    target_disp: MPI_Aint,
    target_count: c_int,
    target_datatype: MPI_Datatype,
    win: MPI_Win,
) -> c_int {
    entry!("MPI_Put", Scope::Win(win), {
        let t = tgt!(target_rank, target_disp, target_count, target_datatype);
        // SAFETY: MPI 4.1 §12.3.1: `origin_addr` holds `origin_count` x `origin_datatype` (the
        // caller's promise, capi/mod.rs), as `put` asks.
        unsafe {
            put(
                origin_addr,
                origin_count.into(),
                origin_datatype,
                t,
                win,
                false,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Put_c(
    origin_addr: *const c_void,
    origin_count: MPI_Count,
    origin_datatype: MPI_Datatype,
    target_rank: c_int,
    target_disp: MPI_Aint,
    target_count: MPI_Count,
    target_datatype: MPI_Datatype,
    win: MPI_Win,
) -> c_int {
    entry!("MPI_Put_c", Scope::Win(win), {
        let t = tgt!(target_rank, target_disp, target_count, target_datatype);
        // SAFETY: MPI 4.1 §12.3.1: `origin_addr` holds `origin_count` x `origin_datatype` (the
        // caller's promise, capi/mod.rs), as `put` asks.
        unsafe { put(origin_addr, origin_count, origin_datatype, t, win, false) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Rput(
    origin_addr: *const c_void,
    origin_count: c_int,
    origin_datatype: MPI_Datatype,
    target_rank: c_int,
    target_disp: MPI_Aint,
    target_count: c_int,
    target_datatype: MPI_Datatype,
    win: MPI_Win,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Rput", Scope::Win(win), {
        let t = tgt!(target_rank, target_disp, target_count, target_datatype);
        // SAFETY: MPI 4.1 §12.3.1: `origin_addr` holds `origin_count` x `origin_datatype` (the
        // caller's promise, capi/mod.rs), as `put` asks;
        // `request` is the routine's output argument, as `complete_request` asks.
        unsafe {
            put(
                origin_addr,
                origin_count.into(),
                origin_datatype,
                t,
                win,
                true,
            )?;
            complete_request(request)
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Rput_c(
    origin_addr: *const c_void,
    origin_count: MPI_Count,
    origin_datatype: MPI_Datatype,
    target_rank: c_int,
    target_disp: MPI_Aint,
    target_count: MPI_Count,
    target_datatype: MPI_Datatype,
    win: MPI_Win,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Rput_c", Scope::Win(win), {
        let t = tgt!(target_rank, target_disp, target_count, target_datatype);
        // SAFETY: MPI 4.1 §12.3.1: `origin_addr` holds `origin_count` x `origin_datatype` (the
        // caller's promise, capi/mod.rs), as `put` asks;
        // `request` is the routine's output argument, as `complete_request` asks.
        unsafe {
            put(origin_addr, origin_count, origin_datatype, t, win, true)?;
            complete_request(request)
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Get(
    origin_addr: *mut c_void,
    origin_count: c_int,
    origin_datatype: MPI_Datatype,
    target_rank: c_int,
    target_disp: MPI_Aint,
    target_count: c_int,
    target_datatype: MPI_Datatype,
    win: MPI_Win,
) -> c_int {
    entry!("MPI_Get", Scope::Win(win), {
        let t = tgt!(target_rank, target_disp, target_count, target_datatype);
        // SAFETY: MPI 4.1 §12.3.2: `origin_addr` has room for `origin_count` x `origin_datatype`
        // (the caller's promise, capi/mod.rs), as `get` asks.
        unsafe {
            get(
                origin_addr,
                origin_count.into(),
                origin_datatype,
                t,
                win,
                false,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Get_c(
    origin_addr: *mut c_void,
    origin_count: MPI_Count,
    origin_datatype: MPI_Datatype,
    target_rank: c_int,
    target_disp: MPI_Aint,
    target_count: MPI_Count,
    target_datatype: MPI_Datatype,
    win: MPI_Win,
) -> c_int {
    entry!("MPI_Get_c", Scope::Win(win), {
        let t = tgt!(target_rank, target_disp, target_count, target_datatype);
        // SAFETY: MPI 4.1 §12.3.2: `origin_addr` has room for `origin_count` x `origin_datatype`
        // (the caller's promise, capi/mod.rs), as `get` asks.
        unsafe { get(origin_addr, origin_count, origin_datatype, t, win, false) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Rget(
    origin_addr: *mut c_void,
    origin_count: c_int,
    origin_datatype: MPI_Datatype,
    target_rank: c_int,
    target_disp: MPI_Aint,
    target_count: c_int,
    target_datatype: MPI_Datatype,
    win: MPI_Win,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Rget", Scope::Win(win), {
        let t = tgt!(target_rank, target_disp, target_count, target_datatype);
        // SAFETY: MPI 4.1 §12.3.2: `origin_addr` has room for `origin_count` x `origin_datatype`
        // (the caller's promise, capi/mod.rs), as `get` asks;
        // `request` is the routine's output argument, as `complete_request` asks.
        unsafe {
            get(
                origin_addr,
                origin_count.into(),
                origin_datatype,
                t,
                win,
                true,
            )?;
            complete_request(request)
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Rget_c(
    origin_addr: *mut c_void,
    origin_count: MPI_Count,
    origin_datatype: MPI_Datatype,
    target_rank: c_int,
    target_disp: MPI_Aint,
    target_count: MPI_Count,
    target_datatype: MPI_Datatype,
    win: MPI_Win,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Rget_c", Scope::Win(win), {
        let t = tgt!(target_rank, target_disp, target_count, target_datatype);
        // SAFETY: MPI 4.1 §12.3.2: `origin_addr` has room for `origin_count` x `origin_datatype`
        // (the caller's promise, capi/mod.rs), as `get` asks;
        // `request` is the routine's output argument, as `complete_request` asks.
        unsafe {
            get(origin_addr, origin_count, origin_datatype, t, win, true)?;
            complete_request(request)
        }
    })
}

/// `MPI_NO_OP` is for the fetching calls only (MPI 4.1 §12.3.4).
fn no_op_refused(op: MPI_Op) -> Result<()> {
    if op == MPI_NO_OP {
        return Err(Error::invalid(
            MPI_ERR_OP,
            "MPI_NO_OP is not valid in MPI_Accumulate (only in the fetching accumulates)",
        ));
    }
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Accumulate(
    origin_addr: *const c_void,
    origin_count: c_int,
    origin_datatype: MPI_Datatype,
    target_rank: c_int,
    target_disp: MPI_Aint,
    target_count: c_int,
    target_datatype: MPI_Datatype,
    op: MPI_Op,
    win: MPI_Win,
) -> c_int {
    entry!("MPI_Accumulate", Scope::Win(win), {
        no_op_refused(op)?;
        let t = tgt!(target_rank, target_disp, target_count, target_datatype);
        let (o, n, d) = (origin_addr, origin_count.into(), origin_datatype);
        // SAFETY: MPI 4.1 §12.3.4: the origin buffer `o` holds `n` x `d` (the caller's promise,
        // capi/mod.rs), as `accumulate` asks.
        unsafe { accumulate(o, n, d, None, t, op, win, false) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Accumulate_c(
    origin_addr: *const c_void,
    origin_count: MPI_Count,
    origin_datatype: MPI_Datatype,
    target_rank: c_int,
    target_disp: MPI_Aint,
    target_count: MPI_Count,
    target_datatype: MPI_Datatype,
    op: MPI_Op,
    win: MPI_Win,
) -> c_int {
    entry!("MPI_Accumulate_c", Scope::Win(win), {
        no_op_refused(op)?;
        let t = tgt!(target_rank, target_disp, target_count, target_datatype);
        let (o, n, d) = (origin_addr, origin_count, origin_datatype);
        // SAFETY: MPI 4.1 §12.3.4: the origin buffer `o` holds `n` x `d` (the caller's promise,
        // capi/mod.rs), as `accumulate` asks.
        unsafe { accumulate(o, n, d, None, t, op, win, false) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Raccumulate(
    origin_addr: *const c_void,
    origin_count: c_int,
    origin_datatype: MPI_Datatype,
    target_rank: c_int,
    target_disp: MPI_Aint,
    target_count: c_int,
    target_datatype: MPI_Datatype,
    op: MPI_Op,
    win: MPI_Win,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Raccumulate", Scope::Win(win), {
        no_op_refused(op)?;
        let t = tgt!(target_rank, target_disp, target_count, target_datatype);
        let (o, n, d) = (origin_addr, origin_count.into(), origin_datatype);
        // SAFETY: MPI 4.1 §12.3.4: the origin buffer `o` holds `n` x `d` (the caller's promise,
        // capi/mod.rs), as `accumulate` asks;
        // `request` is the routine's output argument, as `complete_request` asks.
        unsafe {
            accumulate(o, n, d, None, t, op, win, true)?;
            complete_request(request)
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Raccumulate_c(
    origin_addr: *const c_void,
    origin_count: MPI_Count,
    origin_datatype: MPI_Datatype,
    target_rank: c_int,
    target_disp: MPI_Aint,
    target_count: MPI_Count,
    target_datatype: MPI_Datatype,
    op: MPI_Op,
    win: MPI_Win,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Raccumulate_c", Scope::Win(win), {
        no_op_refused(op)?;
        let t = tgt!(target_rank, target_disp, target_count, target_datatype);
        let (o, n, d) = (origin_addr, origin_count, origin_datatype);
        // SAFETY: MPI 4.1 §12.3.4: the origin buffer `o` holds `n` x `d` (the caller's promise,
        // capi/mod.rs), as `accumulate` asks;
        // `request` is the routine's output argument, as `complete_request` asks.
        unsafe {
            accumulate(o, n, d, None, t, op, win, true)?;
            complete_request(request)
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Get_accumulate(
    origin_addr: *const c_void,
    origin_count: c_int,
    origin_datatype: MPI_Datatype,
    result_addr: *mut c_void,
    result_count: c_int,
    result_datatype: MPI_Datatype,
    target_rank: c_int,
    target_disp: MPI_Aint,
    target_count: c_int,
    target_datatype: MPI_Datatype,
    op: MPI_Op,
    win: MPI_Win,
) -> c_int {
    entry!("MPI_Get_accumulate", Scope::Win(win), {
        let t = tgt!(target_rank, target_disp, target_count, target_datatype);
        let r = ResultBuf {
            addr: result_addr,
            count: result_count.into(),
            datatype: result_datatype,
        };
        let (o, n, d) = (origin_addr, origin_count.into(), origin_datatype);
        // SAFETY: MPI 4.1 §12.3.5: the origin buffer `o` holds `n` x `d` (unless the op is
        // MPI_NO_OP) and the result buffer `r` has room for its count and datatype (the
        // caller's promise, capi/mod.rs), as `accumulate` asks.
        unsafe { accumulate(o, n, d, Some(r), t, op, win, false) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Get_accumulate_c(
    origin_addr: *const c_void,
    origin_count: MPI_Count,
    origin_datatype: MPI_Datatype,
    result_addr: *mut c_void,
    result_count: MPI_Count,
    result_datatype: MPI_Datatype,
    target_rank: c_int,
    target_disp: MPI_Aint,
    target_count: MPI_Count,
    target_datatype: MPI_Datatype,
    op: MPI_Op,
    win: MPI_Win,
) -> c_int {
    entry!("MPI_Get_accumulate_c", Scope::Win(win), {
        let t = tgt!(target_rank, target_disp, target_count, target_datatype);
        let r = ResultBuf {
            addr: result_addr,
            count: result_count,
            datatype: result_datatype,
        };
        let (o, n, d) = (origin_addr, origin_count, origin_datatype);
        // SAFETY: MPI 4.1 §12.3.5: the origin buffer `o` holds `n` x `d` (unless the op is
        // MPI_NO_OP) and the result buffer `r` has room for its count and datatype (the
        // caller's promise, capi/mod.rs), as `accumulate` asks.
        unsafe { accumulate(o, n, d, Some(r), t, op, win, false) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Rget_accumulate(
    origin_addr: *const c_void,
    origin_count: c_int,
    origin_datatype: MPI_Datatype,
    result_addr: *mut c_void,
    result_count: c_int,
    result_datatype: MPI_Datatype,
    target_rank: c_int,
    target_disp: MPI_Aint,
    target_count: c_int,
    target_datatype: MPI_Datatype,
    op: MPI_Op,
    win: MPI_Win,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Rget_accumulate", Scope::Win(win), {
        let t = tgt!(target_rank, target_disp, target_count, target_datatype);
        let r = ResultBuf {
            addr: result_addr,
            count: result_count.into(),
            datatype: result_datatype,
        };
        let (o, n, d) = (origin_addr, origin_count.into(), origin_datatype);
        // SAFETY: MPI 4.1 §12.3.5: the origin buffer `o` holds `n` x `d` (unless the op is
        // MPI_NO_OP) and the result buffer `r` has room for its count and datatype (the
        // caller's promise, capi/mod.rs), as `accumulate` asks;
        // `request` is the routine's output argument, as `complete_request` asks.
        unsafe {
            accumulate(o, n, d, Some(r), t, op, win, true)?;
            complete_request(request)
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Rget_accumulate_c(
    origin_addr: *const c_void,
    origin_count: MPI_Count,
    origin_datatype: MPI_Datatype,
    result_addr: *mut c_void,
    result_count: MPI_Count,
    result_datatype: MPI_Datatype,
    target_rank: c_int,
    target_disp: MPI_Aint,
    target_count: MPI_Count,
    target_datatype: MPI_Datatype,
    op: MPI_Op,
    win: MPI_Win,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Rget_accumulate_c", Scope::Win(win), {
        let t = tgt!(target_rank, target_disp, target_count, target_datatype);
        let r = ResultBuf {
            addr: result_addr,
            count: result_count,
            datatype: result_datatype,
        };
        let (o, n, d) = (origin_addr, origin_count, origin_datatype);
        // SAFETY: MPI 4.1 §12.3.5: the origin buffer `o` holds `n` x `d` (unless the op is
        // MPI_NO_OP) and the result buffer `r` has room for its count and datatype (the
        // caller's promise, capi/mod.rs), as `accumulate` asks;
        // `request` is the routine's output argument, as `complete_request` asks.
        unsafe {
            accumulate(o, n, d, Some(r), t, op, win, true)?;
            complete_request(request)
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Fetch_and_op(
    origin_addr: *const c_void,
    result_addr: *mut c_void,
    datatype: MPI_Datatype,
    target_rank: c_int,
    target_disp: MPI_Aint,
    op: MPI_Op,
    win: MPI_Win,
) -> c_int {
    entry!("MPI_Fetch_and_op", Scope::Win(win), {
        rt().win_check(Handle(win))?;
        check_predefined(datatype)?;
        let t = tgt!(target_rank, target_disp, 1, datatype);
        let r = ResultBuf {
            addr: result_addr,
            count: 1,
            datatype,
        };
        // SAFETY: MPI 4.1 §12.3.5: `origin_addr` holds one `datatype` (unless the op is
        // MPI_NO_OP) and `r` has room for one (the caller's promise), as `accumulate` asks.
        unsafe { accumulate(origin_addr, 1, datatype, Some(r), t, op, win, false) }
    })
}

/// MPI 4.1 §12.3.4: the types `MPI_Compare_and_swap` takes (C integer, Fortran integer,
/// logical, multi-language types, byte).
fn check_cas_type(datatype: MPI_Datatype) -> Result<()> {
    check_predefined(datatype)?;
    let fint = std::mem::size_of::<crate::caching::convert::FortranInteger>();
    match rma_op::kind_of(datatype, fint) {
        rma_op::Kind::Int { .. } | rma_op::Kind::Logical(_) | rma_op::Kind::Byte => Ok(()),
        _ => Err(Error::invalid(
            MPI_ERR_TYPE,
            format!("MPI_Compare_and_swap takes integer, logical or byte types, not {datatype:#x}"),
        )),
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Compare_and_swap(
    origin_addr: *const c_void,
    compare_addr: *const c_void,
    result_addr: *mut c_void,
    datatype: MPI_Datatype,
    target_rank: c_int,
    target_disp: MPI_Aint,
    win: MPI_Win,
) -> c_int {
    entry!("MPI_Compare_and_swap", Scope::Win(win), {
        rt().win_check(Handle(win))?;
        check_cas_type(datatype)?;
        let runs = rt().rma_target(
            Handle(win),
            target_rank,
            target_disp as i64,
            1,
            Handle(datatype),
            false,
        )?;
        let Some(runs) = runs else { return Ok(()) };
        // SAFETY: the MPI caller's buffers, one element each (capi/mod.rs contract).
        let (origin, compare) = unsafe {
            (
                pack(origin_addr, 1, datatype)?,
                pack(compare_addr, 1, datatype)?,
            )
        };
        // SAFETY: the runs are in the window (checked by the world).
        let old = unsafe { read_runs(&runs) };
        let blocks = rt().type_blocks(Handle(datatype), 1)?;
        // SAFETY: the caller's result buffer, one element.
        unsafe { unpack(result_addr as usize, &blocks, &old) };
        if old == compare {
            // SAFETY: as read_runs; one element, the same length.
            unsafe { write_runs(&runs, &origin) };
        }
        Ok(())
    })
}
