//! Handle conversion between C and Fortran (`c2f` / `f2c`), and MPI 5.0's handle serialization
//! functions between a C handle and a C `int` (`toint` / `fromint`). A handle is the same
//! integer in both languages and already an `int` whose predefined values are the ABI's, so
//! `c2f` and `toint` are the identity (MPI 5.0 §21.4: predefined handles give the ABI's
//! integers, a user handle always the same one, outside the 1..4095 reserved for predefined
//! handles by §21.3.3: ours have bit 30 set). `f2c` and `fromint` check the value and give the
//! null handle for one that names no live object of the kind (§21.4 makes passing such an
//! integer to `fromint` erroneous; the null handle makes the next call on it fail with the
//! kind's error class).

use crate::boundary::rt;
use crate::capi::types::*;
use crate::world::{Handle, HandleKind};
use std::ffi::c_int;

fn f2c(kind: HandleKind, f: MPI_Fint) -> MPI_Fint {
    let h = Handle(f);
    if h == kind.null() || rt().check_handle(kind, h).is_ok() {
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

// MPI 5.0 §21.4 handle serialization: one pair per handle kind the library has objects of (no
// files, messages or sessions here).
#[no_mangle]
pub extern "C" fn MPI_Comm_toint(comm: MPI_Comm) -> c_int {
    comm
}
#[no_mangle]
pub extern "C" fn MPI_Comm_fromint(comm: c_int) -> MPI_Comm {
    f2c(HandleKind::Comm, comm)
}
#[no_mangle]
pub extern "C" fn MPI_Errhandler_toint(errhandler: MPI_Errhandler) -> c_int {
    errhandler
}
#[no_mangle]
pub extern "C" fn MPI_Errhandler_fromint(errhandler: c_int) -> MPI_Errhandler {
    f2c(HandleKind::Errhandler, errhandler)
}
#[no_mangle]
pub extern "C" fn MPI_Group_toint(group: MPI_Group) -> c_int {
    group
}
#[no_mangle]
pub extern "C" fn MPI_Group_fromint(group: c_int) -> MPI_Group {
    f2c(HandleKind::Group, group)
}
#[no_mangle]
pub extern "C" fn MPI_Info_toint(info: MPI_Info) -> c_int {
    info
}
#[no_mangle]
pub extern "C" fn MPI_Info_fromint(info: c_int) -> MPI_Info {
    f2c(HandleKind::Info, info)
}
#[no_mangle]
pub extern "C" fn MPI_Op_toint(op: MPI_Op) -> c_int {
    op
}
#[no_mangle]
pub extern "C" fn MPI_Op_fromint(op: c_int) -> MPI_Op {
    f2c(HandleKind::Op, op)
}
#[no_mangle]
pub extern "C" fn MPI_Request_toint(request: MPI_Request) -> c_int {
    request
}
#[no_mangle]
pub extern "C" fn MPI_Request_fromint(request: c_int) -> MPI_Request {
    f2c(HandleKind::Request, request)
}
#[no_mangle]
pub extern "C" fn MPI_Type_toint(datatype: MPI_Datatype) -> c_int {
    datatype
}
#[no_mangle]
pub extern "C" fn MPI_Type_fromint(datatype: c_int) -> MPI_Datatype {
    f2c(HandleKind::Datatype, datatype)
}
#[no_mangle]
pub extern "C" fn MPI_Win_toint(win: MPI_Win) -> c_int {
    win
}
#[no_mangle]
pub extern "C" fn MPI_Win_fromint(win: c_int) -> MPI_Win {
    f2c(HandleKind::Win, win)
}
#[no_mangle]
pub extern "C" fn MPI_Session_c2f(session: MPI_Session) -> MPI_Fint {
    session
}
#[no_mangle]
pub extern "C" fn MPI_Session_f2c(session: MPI_Fint) -> MPI_Session {
    f2c(HandleKind::Session, session)
}
#[no_mangle]
pub extern "C" fn MPI_Session_toint(session: MPI_Session) -> c_int {
    session
}
#[no_mangle]
pub extern "C" fn MPI_Session_fromint(session: c_int) -> MPI_Session {
    f2c(HandleKind::Session, session)
}
#[no_mangle]
pub extern "C" fn MPI_Message_toint(message: MPI_Message) -> c_int {
    message
}
#[no_mangle]
pub extern "C" fn MPI_Message_fromint(message: c_int) -> MPI_Message {
    MPI_Message_f2c(message)
}
#[no_mangle]
pub extern "C" fn MPI_File_toint(file: MPI_File) -> c_int {
    file
}
#[no_mangle]
pub extern "C" fn MPI_File_fromint(file: c_int) -> MPI_File {
    f2c(HandleKind::File, file)
}
#[no_mangle]
pub extern "C" fn MPI_Message_c2f(message: MPI_Message) -> MPI_Fint {
    message
}
#[no_mangle]
pub extern "C" fn MPI_Message_f2c(message: MPI_Fint) -> MPI_Message {
    // MPI_MESSAGE_NO_PROC is a predefined message no table holds.
    if message == crate::consts::MPI_MESSAGE_NO_PROC {
        return message;
    }
    f2c(HandleKind::Message, message)
}
