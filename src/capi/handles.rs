//! Handle conversion between C and Fortran. A handle is the same integer in both languages, so
//! `c2f` is the identity; `f2c` checks the value and gives the null handle for one that names
//! no live object of the kind.

use crate::capi::types::*;
use crate::core::{Handle, HandleKind, Runtime};

fn f2c(kind: HandleKind, f: MPI_Fint) -> MPI_Fint {
    let h = Handle(f);
    if h == kind.null() || Runtime::global().check_handle(kind, h).is_ok() {
        f
    } else {
        kind.null().0
    }
}

#[no_mangle]
pub extern "C" fn MPI_Comm_c2f(comm: MPI_Comm) -> MPI_Fint {
    comm
}
#[no_mangle]
pub extern "C" fn MPI_Comm_f2c(comm: MPI_Fint) -> MPI_Comm {
    f2c(HandleKind::Comm, comm)
}
#[no_mangle]
pub extern "C" fn MPI_Type_c2f(datatype: MPI_Datatype) -> MPI_Fint {
    datatype
}
#[no_mangle]
pub extern "C" fn MPI_Type_f2c(datatype: MPI_Fint) -> MPI_Datatype {
    f2c(HandleKind::Datatype, datatype)
}
#[no_mangle]
pub extern "C" fn MPI_Win_c2f(win: MPI_Win) -> MPI_Fint {
    win
}
#[no_mangle]
pub extern "C" fn MPI_Win_f2c(win: MPI_Fint) -> MPI_Win {
    f2c(HandleKind::Win, win)
}
#[no_mangle]
pub extern "C" fn MPI_Errhandler_c2f(errhandler: MPI_Errhandler) -> MPI_Fint {
    errhandler
}
#[no_mangle]
pub extern "C" fn MPI_Errhandler_f2c(errhandler: MPI_Fint) -> MPI_Errhandler {
    f2c(HandleKind::Errhandler, errhandler)
}
#[no_mangle]
pub extern "C" fn MPI_Group_c2f(group: MPI_Group) -> MPI_Fint {
    group
}
#[no_mangle]
pub extern "C" fn MPI_Group_f2c(group: MPI_Fint) -> MPI_Group {
    f2c(HandleKind::Group, group)
}
#[no_mangle]
pub extern "C" fn MPI_Info_c2f(info: MPI_Info) -> MPI_Fint {
    info
}
#[no_mangle]
pub extern "C" fn MPI_Info_f2c(info: MPI_Fint) -> MPI_Info {
    f2c(HandleKind::Info, info)
}
#[no_mangle]
pub extern "C" fn MPI_Request_c2f(request: MPI_Request) -> MPI_Fint {
    request
}
#[no_mangle]
pub extern "C" fn MPI_Request_f2c(request: MPI_Fint) -> MPI_Request {
    f2c(HandleKind::Request, request)
}
#[no_mangle]
pub extern "C" fn MPI_Op_c2f(op: MPI_Op) -> MPI_Fint {
    op
}
#[no_mangle]
pub extern "C" fn MPI_Op_f2c(op: MPI_Fint) -> MPI_Op {
    f2c(HandleKind::Op, op)
}
