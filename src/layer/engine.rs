//! The engine MPI as the layer sees it: its handle type, the `PMPI_` routines the layer calls,
//! the facts of its header (src/layer/engine.c), and the keys the caching engine knows its
//! objects by.
//!
//! A key is made from the handle itself, with no call into the engine: MPICH's `int` handle
//! with its high half mixed into its low bits (`x ^ x >> 16`, its own inverse: MPICH's handles
//! differ in their high bits first, and the store spreads keys by their bits), sign-extended;
//! a pointer handle's address (Open MPI, the MPI 5.0 ABI: never 0, one per live object).
//!
//! A handle the engine frees and hands out again must not carry the attributes of the object it
//! named before: the layer unbinds a handle's attributes at every free it sees (`MPI_Comm_free`,
//! `MPI_Comm_disconnect`, `MPI_Type_free`, `MPI_Win_free`, from C and every Fortran binding,
//! and the unprefixed calls the engine's own code makes, such as ROMIO's `MPI_Win_free`), and
//! the new handle of every dup it makes is cleared before its copies are stored. An object the
//! engine frees through `PMPI_` without the layer seeing it is one the engine made for itself
//! (ROMIO's communicators, whose keyvals are the engine's, never the layer's), or one freed by
//! `MPI_Finalize`, after which the layer answers nothing.
#![allow(non_camel_case_types, non_snake_case)]

use crate::caching::ObjKey;
use crate::kinds::ObjectKind;
use std::ffi::{c_char, c_int, c_void};
#[cfg(all(layer_fortran, not(layer_int_handles)))]
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// A handle of the engine (`MPI_Comm`, `MPI_Datatype`, `MPI_Win`, `MPI_Info`, `MPI_Request`
/// share its representation).
#[cfg(layer_int_handles)]
pub type Handle = c_int;
#[cfg(not(layer_int_handles))]
pub type Handle = *mut c_void;

/// `MPI_Fint` (engines with Fortran).
pub type MPI_Fint = c_int;

/// What engine.c takes as the kind of an object: 0 communicator, 1 datatype, 2 window.
#[inline(always)]
const fn code(kind: ObjectKind) -> c_int {
    match kind {
        ObjectKind::Comm => 0,
        ObjectKind::Datatype => 1,
        ObjectKind::Win => 2,
    }
}

#[inline(always)]
const fn mix(x: i32) -> i32 {
    x ^ ((x as u32) >> 16) as i32
}

/// The key of a handle of `kind`.
#[inline(always)]
pub fn key(kind: ObjectKind, h: Handle) -> ObjKey {
    #[cfg(layer_int_handles)]
    {
        let _ = kind;
        ObjKey::from_int(mix(h))
    }
    #[cfg(not(layer_int_handles))]
    {
        let _ = kind;
        ObjKey(h as usize as u64)
    }
}

/// The handle of a key of `kind`.
#[inline(always)]
pub fn handle(kind: ObjectKind, k: ObjKey) -> Handle {
    #[cfg(layer_int_handles)]
    {
        let _ = kind;
        mix(k.int())
    }
    #[cfg(not(layer_int_handles))]
    {
        let _ = kind;
        handle_of(k.0)
    }
}

/// The bits engine.c reads a handle from (an `int` sign-extended, a pointer's address).
#[inline(always)]
pub fn bits_of(h: Handle) -> u64 {
    #[cfg(layer_int_handles)]
    {
        h as i64 as u64
    }
    #[cfg(not(layer_int_handles))]
    {
        h as usize as u64
    }
}

/// The handle engine.c gives as bits.
#[inline(always)]
fn handle_of(bits: u64) -> Handle {
    #[cfg(layer_int_handles)]
    {
        bits as i64 as c_int
    }
    #[cfg(not(layer_int_handles))]
    {
        bits as usize as Handle
    }
}

/// What engine.c reports (`struct mpicache_engine_facts`).
#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
struct RawFacts {
    comm_world: u64,
    comm_self: u64,
    comm_null: u64,
    datatype_null: u64,
    win_null: u64,
    copy_null: [u64; 4],
    copy_dup: [u64; 4],
    delete_null: [u64; 4],
    keyval_invalid: i32,
    err_keyval: i32,
    comm_keyvals: [i32; 7],
    win_keyvals: [i32; 5],
}

/// The engine's values the layer needs, as keys and addresses.
#[derive(Debug, Clone, Copy)]
pub struct Facts {
    pub comm_world: ObjKey,
    pub comm_self: ObjKey,
    pub comm_null: ObjKey,
    pub datatype_null: ObjKey,
    pub win_null: ObjKey,
    /// The predefined C callbacks' values (communicator, datatype, window, MPI-1).
    pub copy_null: [usize; 4],
    pub copy_dup: [usize; 4],
    pub delete_null: [usize; 4],
    pub keyval_invalid: i32,
    /// The null handles' bits (communicator, datatype, window).
    null_handles: [u64; 3],
    /// The engine's predefined keyvals as C sees them (`MPI_TAG_UB` ..., `MPI_WIN_BASE` ...).
    comm_keyvals: [i32; 7],
    win_keyvals: [i32; 5],
}

impl Facts {
    /// Whether `keyval` is one of the engine's predefined keyvals (C values), and of which kind.
    pub fn predefined_keyval(&self, keyval: i32) -> Option<ObjectKind> {
        if self.comm_keyvals.contains(&keyval) {
            Some(ObjectKind::Comm)
        } else if self.win_keyvals.contains(&keyval) {
            Some(ObjectKind::Win)
        } else {
            None
        }
    }
    /// Whether `keyval` is one of the predefined attributes whose value is the process's, not
    /// a communicator's (`MPI_TAG_UB`, `MPI_HOST`, `MPI_IO`, `MPI_WTIME_IS_GLOBAL`: C values).
    pub fn process_wide_keyval(&self, keyval: i32) -> bool {
        self.comm_keyvals[..4].contains(&keyval)
    }

    /// The null handle of a kind.
    pub fn null_handle(&self, kind: ObjectKind) -> Handle {
        handle_of(self.null_handles[code(kind) as usize])
    }

    /// The null handle of a kind.
    pub fn null(&self, kind: ObjectKind) -> ObjKey {
        match kind {
            ObjectKind::Comm => self.comm_null,
            ObjectKind::Datatype => self.datatype_null,
            ObjectKind::Win => self.win_null,
        }
    }
}

/// The engine's facts, read once.
pub fn facts() -> &'static Facts {
    static FACTS: OnceLock<Facts> = OnceLock::new();
    FACTS.get_or_init(|| {
        let mut raw = RawFacts::default();
        // SAFETY: engine.c fills the struct this one mirrors.
        unsafe { mpicache_engine_facts(&mut raw) };
        Facts {
            comm_world: key(ObjectKind::Comm, handle_of(raw.comm_world)),
            comm_self: key(ObjectKind::Comm, handle_of(raw.comm_self)),
            comm_null: key(ObjectKind::Comm, handle_of(raw.comm_null)),
            datatype_null: key(ObjectKind::Datatype, handle_of(raw.datatype_null)),
            win_null: key(ObjectKind::Win, handle_of(raw.win_null)),
            null_handles: [raw.comm_null, raw.datatype_null, raw.win_null],
            comm_keyvals: raw.comm_keyvals,
            win_keyvals: raw.win_keyvals,
            copy_null: raw.copy_null.map(|a| a as usize),
            copy_dup: raw.copy_dup.map(|a| a as usize),
            delete_null: raw.delete_null.map(|a| a as usize),
            keyval_invalid: raw.keyval_invalid,
        }
    })
}

/// The engine's error class for one of mpicache's.
pub fn engine_class(ours: i32) -> i32 {
    // SAFETY: a pure function of an int.
    unsafe { mpicache_engine_class(ours) }
}

/// Raises `code` on the handler of the object concerned (`kind` None: `MPI_COMM_SELF`),
/// printing `line` first when that handler stops the program. Returns `code`.
pub fn raise(kind: Option<ObjectKind>, obj: Handle, code: i32, line: &str) -> i32 {
    let k = match kind {
        Some(ObjectKind::Comm) => 0,
        Some(ObjectKind::Win) => 2,
        _ => 1,
    };
    let mut text = line.as_bytes().to_vec();
    text.retain(|&b| b != 0);
    text.push(0);
    // SAFETY: `text` is NUL-terminated and outlives the call.
    unsafe { mpicache_engine_raise(k, bits_of(obj), code, text.as_ptr().cast()) }
}

/// Whether a datatype is predefined (`MPI_COMBINER_NAMED`).
pub fn type_is_named(obj: ObjKey) -> bool {
    // SAFETY: the engine checks the handle.
    unsafe { mpicache_engine_type_is_named(bits_of(handle(ObjectKind::Datatype, obj))) != 0 }
}

/// Whether `h` names a live object of `kind`, asked of the engine (which raises its own error
/// on its handler when not, as its own caching routine would): the engine's code otherwise.
pub fn check(kind: ObjectKind, h: Handle) -> Result<(), i32> {
    // SAFETY: the engine checks the handle.
    match unsafe { mpicache_engine_check(code(kind), bits_of(h)) } {
        0 => Ok(()),
        rc => Err(rc),
    }
}

/// Whether the engine has finalized.
pub fn finalized() -> bool {
    let mut flag: c_int = 0;
    // SAFETY: MPI_Finalized may be called at any time.
    unsafe { PMPI_Finalized(&mut flag) };
    flag != 0
}

extern "C" {
    fn mpicache_engine_facts(out: *mut RawFacts);
    fn mpicache_engine_class(ours: c_int) -> c_int;
    fn mpicache_engine_raise(kind: c_int, obj: u64, code: c_int, line: *const c_char) -> c_int;
    fn mpicache_engine_type_is_named(ty: u64) -> c_int;
    fn mpicache_engine_check(kind: c_int, h: u64) -> c_int;

    pub fn PMPI_Finalized(flag: *mut c_int) -> c_int;
    pub fn PMPI_Finalize() -> c_int;

    pub fn PMPI_Comm_dup(comm: Handle, newcomm: *mut Handle) -> c_int;
    pub fn PMPI_Comm_dup_with_info(comm: Handle, info: Handle, newcomm: *mut Handle) -> c_int;
    pub fn PMPI_Comm_idup(comm: Handle, newcomm: *mut Handle, request: *mut Handle) -> c_int;
    #[cfg(layer_idup_with_info)]
    pub fn PMPI_Comm_idup_with_info(
        comm: Handle,
        info: Handle,
        newcomm: *mut Handle,
        request: *mut Handle,
    ) -> c_int;
    pub fn PMPI_Comm_free(comm: *mut Handle) -> c_int;
    pub fn PMPI_Comm_disconnect(comm: *mut Handle) -> c_int;
    pub fn PMPI_Type_dup(ty: Handle, newtype: *mut Handle) -> c_int;
    pub fn PMPI_Type_free(ty: *mut Handle) -> c_int;
    pub fn PMPI_Win_free(win: *mut Handle) -> c_int;

    pub fn PMPI_Comm_get_attr(
        comm: Handle,
        keyval: c_int,
        value: *mut c_void,
        flag: *mut c_int,
    ) -> c_int;
    pub fn PMPI_Comm_set_attr(comm: Handle, keyval: c_int, value: *mut c_void) -> c_int;
    pub fn PMPI_Comm_delete_attr(comm: Handle, keyval: c_int) -> c_int;
    pub fn PMPI_Comm_free_keyval(keyval: *mut c_int) -> c_int;
    pub fn PMPI_Type_get_attr(
        ty: Handle,
        keyval: c_int,
        value: *mut c_void,
        flag: *mut c_int,
    ) -> c_int;
    pub fn PMPI_Type_set_attr(ty: Handle, keyval: c_int, value: *mut c_void) -> c_int;
    pub fn PMPI_Type_delete_attr(ty: Handle, keyval: c_int) -> c_int;
    pub fn PMPI_Type_free_keyval(keyval: *mut c_int) -> c_int;
    pub fn PMPI_Win_get_attr(
        win: Handle,
        keyval: c_int,
        value: *mut c_void,
        flag: *mut c_int,
    ) -> c_int;
    pub fn PMPI_Win_set_attr(win: Handle, keyval: c_int, value: *mut c_void) -> c_int;
    pub fn PMPI_Win_delete_attr(win: Handle, keyval: c_int) -> c_int;
    pub fn PMPI_Win_free_keyval(keyval: *mut c_int) -> c_int;
}

#[cfg(layer_fortran)]
extern "C" {
    fn mpicache_engine_c2f(kind: c_int, h: u64) -> MPI_Fint;
    fn mpicache_engine_f2c(kind: c_int, f: MPI_Fint) -> u64;
}

/// What engine.c's c2f / f2c take as the kind of handle.
#[cfg(layer_fortran)]
#[derive(Clone, Copy)]
pub enum FortranKind {
    Comm = 0,
    Datatype = 1,
    Win = 2,
    Info = 3,
    Request = 4,
}

#[cfg(layer_fortran)]
impl From<ObjectKind> for FortranKind {
    fn from(k: ObjectKind) -> FortranKind {
        match k {
            ObjectKind::Comm => FortranKind::Comm,
            ObjectKind::Datatype => FortranKind::Datatype,
            ObjectKind::Win => FortranKind::Win,
        }
    }
}

/// The Fortran handle of an engine handle (the engine's `MPI_*_c2f`).
#[cfg(layer_fortran)]
pub fn c2f(kind: FortranKind, h: Handle) -> MPI_Fint {
    // SAFETY: c2f takes any handle of its kind.
    unsafe { mpicache_engine_c2f(kind as c_int, bits_of(h)) }
}

/// The engine handle of a Fortran handle (the engine's `MPI_*_f2c`).
#[cfg(layer_fortran)]
pub fn f2c(kind: FortranKind, f: MPI_Fint) -> Handle {
    // SAFETY: f2c takes any INTEGER (an invalid one gives an invalid handle, which the
    // engine's routines refuse).
    handle_of(unsafe { mpicache_engine_f2c(kind as c_int, f) })
}

/// The Fortran handle of an object (engines with Fortran).
#[cfg(layer_fortran)]
pub fn to_fortran(kind: ObjectKind, k: ObjKey) -> MPI_Fint {
    c2f(kind.into(), handle(kind, k))
}

/// The object of a Fortran handle (engines with Fortran). Over pointer handles (Open MPI)
/// the engine's `f2c` is a call and a table lookup; the keys of the Fortran handles seen are
/// kept in [`FORTRAN_KEYS`], so a Fortran get pays it once per object.
#[cfg(layer_fortran)]
#[inline(always)]
pub fn from_fortran(kind: ObjectKind, f: MPI_Fint) -> ObjKey {
    #[cfg(not(layer_int_handles))]
    {
        if let Some(entry) = fortran_key_entry(kind, f) {
            let k = entry.load(Ordering::Acquire);
            if k != 0 {
                return ObjKey(k);
            }
            let made = key(kind, f2c(kind.into(), f));
            entry.store(made.0, Ordering::Release);
            return made;
        }
    }
    key(kind, f2c(kind.into(), f))
}

/// Fortran handles below this have their key kept (Open MPI's are small integers, reused
/// lowest first).
#[cfg(all(layer_fortran, not(layer_int_handles)))]
const FORTRAN_KEYS_PER_KIND: usize = 1 << 16;

/// Per kind, the key of each Fortran handle a Fortran call has named since its object was
/// made, or 0. Zeroes in `.bss` until used. An entry is cleared at every free and dup the layer
/// sees of its object (see [`forget_fortran`]): the engine hands a Fortran handle out again only
/// after the object's free, so a kept key is always the live object's.
#[cfg(all(layer_fortran, not(layer_int_handles)))]
static FORTRAN_KEYS: [[AtomicU64; FORTRAN_KEYS_PER_KIND]; 3] =
    [const { [const { AtomicU64::new(0) }; FORTRAN_KEYS_PER_KIND] }; 3];

#[cfg(all(layer_fortran, not(layer_int_handles)))]
#[inline(always)]
fn fortran_key_entry(kind: ObjectKind, f: MPI_Fint) -> Option<&'static AtomicU64> {
    FORTRAN_KEYS[code(kind) as usize].get(usize::try_from(f).ok()?)
}

/// The object `h` of `kind` goes (a free) or is new (a dup): the key kept for its Fortran
/// handle, if any, is dropped.
#[inline]
pub fn forget_fortran(kind: ObjectKind, h: Handle) {
    #[cfg(all(layer_fortran, not(layer_int_handles)))]
    if let Some(entry) = fortran_key_entry(kind, c2f(kind.into(), h)) {
        entry.store(0, Ordering::Release);
    }
    #[cfg(not(all(layer_fortran, not(layer_int_handles))))]
    let _ = (kind, h);
}
