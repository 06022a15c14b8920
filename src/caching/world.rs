//! The engine's one view of the objects it serves: the [`World`] that owns them.
//!
//! The engine never names a world type. It asks its world only what caching needs (MPI 4.1
//! §7.7): whether calls are allowed now, whether an object is live and of its kind, whether it
//! is predefined, which keyvals are predefined and what their attributes hold, and which objects
//! lose their attributes first at `MPI_Finalize`. Whether an object is being freed is the
//! engine's own state. The world lives behind the engine's one lock ([`crate::caching::Cache`]),
//! so every method here is called with it held, except [`World::predefined_keyval`], which the
//! lock-free keyval free asks and which therefore takes no `self`.

use crate::caching::convert::AttrRead;
use crate::caching::object::ObjRef;
use crate::error::Result;
use crate::kinds::ObjectKind;

pub trait World: Send + 'static {
    /// Ok while MPI calls are allowed (initialized and not finalized, and while finalize runs
    /// the delete callbacks); else the error a call gets (`Error::NotInitialized`, ...).
    fn check_active(&self) -> Result<()>;

    /// Ok when `obj` names a live object of its kind; else the world's error for the handle
    /// (`MPI_ERR_COMM`, `MPI_ERR_TYPE`, `MPI_ERR_WIN`).
    ///
    fn check(&self, obj: ObjRef) -> Result<()>;

    /// Keys are dense: live objects of one kind differ in their key's low
    /// `caching::store::KEY_INDEX_BITS` bits (24), so the store finds them through a two-level
    /// array (the single-process world's handles: it asserts it where it makes them). Others
    /// (engine handles, pointers) get a hash directory. Key 0 names no object.
    const DENSE_KEYS: bool = false;

    /// Predefined objects cannot be freed by users.
    fn is_predefined(&self, obj: ObjRef) -> bool;

    /// Which keyvals are predefined, and of which kind (`MPI_TAG_UB` ..., `MPI_WIN_BASE` ...).
    /// Users cannot set, delete or free them.
    fn predefined_keyval(keyval: i32) -> Option<ObjectKind>;

    /// The value of a predefined attribute on a live `obj` (`keyval` is a predefined keyval of
    /// `obj`'s kind), with what a C reader gets; `None`: not set on it (flag = false).
    fn predefined_attr(&self, obj: ObjRef, keyval: i32) -> Option<AttrRead>;

    /// The objects whose attributes `MPI_Finalize` deletes before all others, in this order
    /// (MPI 4.1 §11.2.4: `MPI_COMM_SELF` first). The others follow kind by kind
    /// (communicators, datatypes, windows), in the store's order.
    fn finalize_first(&self) -> &[ObjRef];
}
