//! MPI-IO file manipulation entry points (MPI 4.1 §14.2, §14.3, §14.5.3, §14.6, §14.7). Errors
//! go to the file's error handler, `MPI_FILE_NULL`'s for open, delete and a bad file handle;
//! files start with `MPI_ERRORS_RETURN` (§14.7).

use crate::boundary::{read_c_string, report, rt, write_c_string, Scope};
use crate::capi::types::*;
use crate::consts::*;
use crate::world::errhandler::UserErrhandler;
use crate::world::{Error, Handle, HandleKind};
use crate::{entry, nonnull, try_out};
use std::ffi::{c_char, c_int, c_void};
use std::sync::Arc;

#[no_mangle]
pub unsafe extern "C" fn MPI_File_open(
    comm: MPI_Comm,
    filename: *const c_char,
    amode: c_int,
    info: MPI_Info,
    fh: *mut MPI_File,
) -> c_int {
    entry!("MPI_File_open", Scope::File(MPI_FILE_NULL), {
        nonnull!(filename);
        let fh = try_out!(fh);
        // SAFETY: `filename` checked non-NULL above (capi/mod.rs contract).
        let name = unsafe { read_c_string(filename) }?;
        let r = rt().file_open(Handle(comm), &name, amode, Handle(info));
        fh.set(r.as_ref().map_or(MPI_FILE_NULL, |h| h.0));
        r.map(drop)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_close(fh: *mut MPI_File) -> c_int {
    let scope = if fh.is_null() {
        Scope::File(MPI_FILE_NULL)
    } else {
        // SAFETY: `fh` checked non-NULL above (capi/mod.rs contract).
        Scope::File(unsafe { *fh })
    };
    entry!("MPI_File_close", scope, {
        let fh = try_out!(fh);
        let r = rt().file_close(Handle(fh.get()));
        // The handle is gone even when deleting the file on close failed.
        if !matches!(&r, Err(e) if e.class() == MPI_ERR_FILE) {
            fh.set(MPI_FILE_NULL);
        }
        r
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_delete(filename: *const c_char, info: MPI_Info) -> c_int {
    entry!("MPI_File_delete", Scope::File(MPI_FILE_NULL), {
        nonnull!(filename);
        rt().check_handle(HandleKind::Info, Handle(info))?;
        // SAFETY: `filename` checked non-NULL above (capi/mod.rs contract).
        rt().file_delete(&unsafe { read_c_string(filename) }?)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_set_size(fh: MPI_File, size: MPI_Offset) -> c_int {
    entry!("MPI_File_set_size", Scope::File(fh), {
        rt().file_set_size(Handle(fh), size)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_preallocate(fh: MPI_File, size: MPI_Offset) -> c_int {
    entry!("MPI_File_preallocate", Scope::File(fh), {
        rt().file_preallocate(Handle(fh), size)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_get_size(fh: MPI_File, size: *mut MPI_Offset) -> c_int {
    entry!("MPI_File_get_size", Scope::File(fh), {
        let size = try_out!(size);
        size.set(rt().file_get_size(Handle(fh))?);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_get_group(fh: MPI_File, group: *mut MPI_Group) -> c_int {
    entry!("MPI_File_get_group", Scope::File(fh), {
        let group = try_out!(group);
        group.set(rt().file_group(Handle(fh))?.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_get_amode(fh: MPI_File, amode: *mut c_int) -> c_int {
    entry!("MPI_File_get_amode", Scope::File(fh), {
        let amode = try_out!(amode);
        amode.set(rt().file_amode(Handle(fh))?);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_set_info(fh: MPI_File, info: MPI_Info) -> c_int {
    entry!("MPI_File_set_info", Scope::File(fh), {
        rt().file_set_info(Handle(fh), Handle(info))
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_get_info(fh: MPI_File, info_used: *mut MPI_Info) -> c_int {
    entry!("MPI_File_get_info", Scope::File(fh), {
        let info_used = try_out!(info_used);
        info_used.set(rt().file_get_info(Handle(fh))?.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_set_view(
    fh: MPI_File,
    disp: MPI_Offset,
    etype: MPI_Datatype,
    filetype: MPI_Datatype,
    datarep: *const c_char,
    info: MPI_Info,
) -> c_int {
    entry!("MPI_File_set_view", Scope::File(fh), {
        nonnull!(datarep);
        // SAFETY: `datarep` checked non-NULL above (capi/mod.rs contract).
        let rep = unsafe { read_c_string(datarep) }?;
        rt().file_set_view(
            Handle(fh),
            disp,
            Handle(etype),
            Handle(filetype),
            &rep,
            Handle(info),
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_get_view(
    fh: MPI_File,
    disp: *mut MPI_Offset,
    etype: *mut MPI_Datatype,
    filetype: *mut MPI_Datatype,
    datarep: *mut c_char,
) -> c_int {
    entry!("MPI_File_get_view", Scope::File(fh), {
        let disp = try_out!(disp);
        let etype = try_out!(etype);
        let filetype = try_out!(filetype);
        nonnull!(datarep);
        let (d, e, f, rep) = rt().file_get_view(Handle(fh))?;
        disp.set(d);
        etype.set(e.0);
        filetype.set(f.0);
        // SAFETY: `datarep` checked non-NULL; MPI_MAX_DATAREP_STRING bytes (MPI 4.1 §14.3).
        unsafe { write_c_string(datarep, MPI_MAX_DATAREP_STRING as usize, &rep) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_get_type_extent(
    fh: MPI_File,
    datatype: MPI_Datatype,
    extent: *mut MPI_Aint,
) -> c_int {
    entry!("MPI_File_get_type_extent", Scope::File(fh), {
        let extent = try_out!(extent);
        extent.set(rt().file_type_extent(Handle(fh), Handle(datatype))? as MPI_Aint);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_get_type_extent_c(
    fh: MPI_File,
    datatype: MPI_Datatype,
    extent: *mut MPI_Count,
) -> c_int {
    entry!("MPI_File_get_type_extent_c", Scope::File(fh), {
        let extent = try_out!(extent);
        extent.set(rt().file_type_extent(Handle(fh), Handle(datatype))?);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_set_atomicity(fh: MPI_File, flag: c_int) -> c_int {
    entry!("MPI_File_set_atomicity", Scope::File(fh), {
        rt().file_atomicity(Handle(fh), Some(flag != 0)).map(drop)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_get_atomicity(fh: MPI_File, flag: *mut c_int) -> c_int {
    entry!("MPI_File_get_atomicity", Scope::File(fh), {
        let flag = try_out!(flag);
        flag.set(rt().file_atomicity(Handle(fh), None)? as c_int);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_sync(fh: MPI_File) -> c_int {
    entry!("MPI_File_sync", Scope::File(fh), {
        rt().file_sync(Handle(fh))
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_seek(fh: MPI_File, offset: MPI_Offset, whence: c_int) -> c_int {
    entry!("MPI_File_seek", Scope::File(fh), {
        rt().file_seek(Handle(fh), offset, whence, false)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_seek_shared(
    fh: MPI_File,
    offset: MPI_Offset,
    whence: c_int,
) -> c_int {
    entry!("MPI_File_seek_shared", Scope::File(fh), {
        rt().file_seek(Handle(fh), offset, whence, true)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_get_position(fh: MPI_File, offset: *mut MPI_Offset) -> c_int {
    entry!("MPI_File_get_position", Scope::File(fh), {
        let offset = try_out!(offset);
        offset.set(rt().file_position(Handle(fh), false)?);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_get_position_shared(
    fh: MPI_File,
    offset: *mut MPI_Offset,
) -> c_int {
    entry!("MPI_File_get_position_shared", Scope::File(fh), {
        let offset = try_out!(offset);
        offset.set(rt().file_position(Handle(fh), true)?);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_get_byte_offset(
    fh: MPI_File,
    offset: MPI_Offset,
    disp: *mut MPI_Offset,
) -> c_int {
    entry!("MPI_File_get_byte_offset", Scope::File(fh), {
        let disp = try_out!(disp);
        disp.set(rt().file_byte_offset(Handle(fh), offset)?);
        Ok(())
    })
}

/// A C file error handler.
struct CFileErrhandler(MPI_File_errhandler_function);

impl UserErrhandler for CFileErrhandler {
    fn call(&self, object: Handle, code: i32) {
        let mut h = object.0;
        let mut c = code;
        // SAFETY: registered with the C file errhandler signature; no varargs are passed.
        unsafe { (self.0)(&mut h, &mut c) };
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_create_errhandler(
    file_errhandler_fn: Option<MPI_File_errhandler_function>,
    errhandler: *mut MPI_Errhandler,
) -> c_int {
    entry!("MPI_File_create_errhandler", Scope::NoObject, {
        let errhandler = try_out!(errhandler);
        let f = file_errhandler_fn.ok_or(Error::NullArgument {
            name: "file_errhandler_fn",
        })?;
        errhandler.set(rt().create_file_errhandler(Arc::new(CFileErrhandler(f)))?.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_set_errhandler(
    file: MPI_File,
    errhandler: MPI_Errhandler,
) -> c_int {
    entry!("MPI_File_set_errhandler", Scope::File(file), {
        rt().file_set_errhandler(Handle(file), Handle(errhandler))
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_get_errhandler(
    file: MPI_File,
    errhandler: *mut MPI_Errhandler,
) -> c_int {
    entry!("MPI_File_get_errhandler", Scope::File(file), {
        let errhandler = try_out!(errhandler);
        errhandler.set(rt().file_get_errhandler(Handle(file))?.0);
        Ok(())
    })
}

/// `MPI_File_call_errhandler`: runs the file's handler (`MPI_FILE_NULL`'s for it) on
/// `errorcode`; the call itself succeeds once the handler returns.
#[no_mangle]
pub unsafe extern "C" fn MPI_File_call_errhandler(fh: MPI_File, errorcode: c_int) -> c_int {
    entry!("MPI_File_call_errhandler", Scope::File(fh), {
        rt().file_check(Handle(fh), true)?;
        let class = rt().error_class(errorcode).unwrap_or(MPI_ERR_OTHER);
        let _ = report(
            "MPI_File_call_errhandler",
            Scope::File(fh),
            Error::Invalid {
                class,
                detail: format!("error code {errorcode} raised by the program"),
            },
        );
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn MPI_File_c2f(file: MPI_File) -> MPI_Fint {
    file
}

/// `MPI_File_f2c`: `MPI_FILE_NULL` for a value that names no open file.
#[no_mangle]
pub extern "C" fn MPI_File_f2c(file: MPI_Fint) -> MPI_File {
    match rt().check_handle(HandleKind::File, Handle(file)) {
        Ok(()) => file,
        Err(_) => MPI_FILE_NULL,
    }
}

/// `MPI_Register_datarep` (MPI 4.1 §14.5.3): the name is registered (`MPI_ERR_DUP_DATAREP`
/// the second time); a view in it is `MPI_ERR_UNSUPPORTED_DATAREP` (README, MPI-IO).
#[no_mangle]
pub unsafe extern "C" fn MPI_Register_datarep(
    datarep: *const c_char,
    read_conversion_fn: Option<MPI_Datarep_conversion_function>,
    write_conversion_fn: Option<MPI_Datarep_conversion_function>,
    dtype_file_extent_fn: Option<MPI_Datarep_extent_function>,
    extra_state: *mut c_void,
) -> c_int {
    let _ = (read_conversion_fn, write_conversion_fn, extra_state);
    entry!("MPI_Register_datarep", Scope::File(MPI_FILE_NULL), {
        register(datarep, dtype_file_extent_fn.is_some())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Register_datarep_c(
    datarep: *const c_char,
    read_conversion_fn: Option<MPI_Datarep_conversion_function_c>,
    write_conversion_fn: Option<MPI_Datarep_conversion_function_c>,
    dtype_file_extent_fn: Option<MPI_Datarep_extent_function>,
    extra_state: *mut c_void,
) -> c_int {
    let _ = (read_conversion_fn, write_conversion_fn, extra_state);
    entry!("MPI_Register_datarep_c", Scope::File(MPI_FILE_NULL), {
        register(datarep, dtype_file_extent_fn.is_some())
    })
}

/// The datarep routines' common body: the extent function is required (MPI 4.1 §14.5.3).
fn register(datarep: *const c_char, has_extent_fn: bool) -> crate::error::Result<()> {
    nonnull!(datarep);
    if !has_extent_fn {
        return Err(Error::NullArgument {
            name: "dtype_file_extent_fn",
        });
    }
    // SAFETY: `datarep` checked non-NULL above (capi/mod.rs contract).
    rt().register_datarep(&unsafe { read_c_string(datarep) }?)
}
