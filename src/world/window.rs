//! Windows (MPI 4.1 §12.2) and the memory of `MPI_Alloc_mem` (MPI 4.1 §9.2), in the
//! single-process world.
//!
//! What matters for caching is real: each window carries the predefined attributes
//! `MPI_WIN_BASE`, `MPI_WIN_SIZE`, `MPI_WIN_DISP_UNIT`, `MPI_WIN_CREATE_FLAVOR` and
//! `MPI_WIN_MODEL` with the provenance MPI 4.1 §20.3.7 gives them (docs/DESIGN.md "Predefined
//! attributes"), and freeing a window deletes its attributes, last set first, through their
//! delete callbacks. Windows have no dup, so no copy callback ever runs on them.
//!
//! Memory handed to C (`MPI_Win_allocate`, `MPI_Alloc_mem`) is owned here as a `Vec<u128>`:
//! 16-byte aligned, zero-filled, never moved while it is handed out (moving the `Vec` does not
//! move its buffer), and dropped when the window is freed, by `MPI_Free_mem`, or at
//! `MPI_Finalize` (the state reset drops everything).

use crate::caching::ObjRef;
use crate::consts::*;
use crate::error::{Error, Result};
use crate::world::comm::{truncate_name, Group};
use crate::world::handle::Handle;
pub use crate::world::objects::window::Window;
use crate::world::objects::window::{zeroed_memory, MPI_BOTTOM};
use crate::world::runtime::Runtime;
use crate::world::state::State;

/// Checks the arguments of a window creation; returns the communicator's members.
fn check_create(st: &State, comm: Handle, size: i64, disp_unit: i32) -> Result<Vec<i32>> {
    let members = st.comms.get(comm)?.members.clone();
    if size < 0 {
        return Err(Error::invalid(
            MPI_ERR_SIZE,
            format!("window size {size} is negative"),
        ));
    }
    if disp_unit <= 0 {
        return Err(Error::invalid(
            MPI_ERR_DISP,
            format!("displacement unit {disp_unit} is not positive"),
        ));
    }
    Ok(members.to_vec())
}

impl Runtime {
    /// `MPI_Win_create`: a window over the caller's memory (never touched here).
    pub fn win_create(
        &self,
        base: usize,
        size: i64,
        disp_unit: i32,
        comm: Handle,
    ) -> Result<Handle> {
        let mut st = self.active()?;
        let members = check_create(&st, comm, size, disp_unit)?;
        st.wins.insert(Window::new(
            members,
            base,
            size,
            disp_unit,
            MPI_WIN_FLAVOR_CREATE,
            Vec::new(),
        ))
    }

    /// `MPI_Win_allocate`: a window over new memory the window owns; returns it and its base.
    pub fn win_allocate(&self, size: i64, disp_unit: i32, comm: Handle) -> Result<(Handle, usize)> {
        self.win_allocate_as(size, disp_unit, comm, MPI_WIN_FLAVOR_ALLOCATE)
    }

    /// `MPI_Win_allocate` or, with `MPI_WIN_FLAVOR_SHARED`, `MPI_Win_allocate_shared` (one
    /// process: its memory is trivially shared with itself).
    pub fn win_allocate_as(
        &self,
        size: i64,
        disp_unit: i32,
        comm: Handle,
        flavor: i32,
    ) -> Result<(Handle, usize)> {
        check_create(&*self.active()?, comm, size, disp_unit)?;
        // Allocate (and zero) without the lock.
        let memory = zeroed_memory(size)?;
        let base = memory.as_ptr() as usize;
        let mut st = self.active()?;
        let members = check_create(&st, comm, size, disp_unit)?;
        let h = st
            .wins
            .insert(Window::new(members, base, size, disp_unit, flavor, memory))?;
        Ok((h, base))
    }

    /// `MPI_Win_create_dynamic`: base `MPI_BOTTOM`, size 0, displacement unit 1 (MPI 4.1
    /// §12.2.4: displacements in a dynamic window are addresses).
    pub fn win_create_dynamic(&self, comm: Handle) -> Result<Handle> {
        let mut st = self.active()?;
        let members = check_create(&st, comm, 0, 1)?;
        st.wins.insert(Window::new(
            members,
            MPI_BOTTOM,
            0,
            1,
            MPI_WIN_FLAVOR_DYNAMIC,
            Vec::new(),
        ))
    }

    /// `MPI_Win_free`: deletes the attributes, last set first; a failing delete callback stops
    /// the free and leaves the window valid. Memory of `MPI_Win_allocate` goes with the window.
    pub fn win_free(&self, win: Handle) -> Result<()> {
        self.active()?.wins.get(win)?;
        self.free_object(ObjRef::win(win.0), |st| {
            let w = st.wins.remove(win)?;
            st.errhandler_release(w.errhandler);
            Ok(())
        })
    }

    /// Checks that `win` names a live window.
    pub fn win_check(&self, win: Handle) -> Result<()> {
        self.active()?.wins.get(win).map(drop)
    }

    pub fn win_set_name(&self, win: Handle, name: &str) -> Result<()> {
        self.active()?.wins.get_mut(win)?.name = truncate_name(name);
        Ok(())
    }

    /// `MPI_Win_get_name`; the null handle is named `MPI_WIN_NULL` (MPI 4.1 §12.2.6).
    pub fn win_get_name(&self, win: Handle) -> Result<String> {
        if win == Handle(MPI_WIN_NULL) {
            drop(self.active()?);
            return Ok("MPI_WIN_NULL".to_owned());
        }
        Ok(self.active()?.wins.get(win)?.name.clone())
    }

    /// `MPI_Win_get_group`: a new group of the processes of the window's communicator.
    pub fn win_group(&self, win: Handle) -> Result<Handle> {
        let mut st = self.active()?;
        let members = st.wins.get(win)?.members.clone();
        st.groups.insert(Group { members })
    }

    /// `MPI_Alloc_mem`: zero-filled, 16-byte aligned memory; returns its base address. Every
    /// call, size 0 included, gives a distinct address that `MPI_Free_mem` accepts.
    pub fn alloc_mem(&self, size: i64) -> Result<usize> {
        drop(self.active()?);
        if size < 0 {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("MPI_Alloc_mem size {size} is negative"),
            ));
        }
        let memory = zeroed_memory(size)?;
        let base = memory.as_ptr() as usize;
        self.active()?.alloc_mem.insert(base, memory);
        Ok(base)
    }

    /// `MPI_Free_mem`: `base` must be an address `MPI_Alloc_mem` returned and not yet freed
    /// (MPI 4.1: `MPI_ERR_BASE`). NULL is accepted and does nothing, as in MPICH and Open MPI.
    pub fn free_mem(&self, base: usize) -> Result<()> {
        let mut st = self.active()?;
        if base == 0 {
            return Ok(());
        }
        match st.alloc_mem.remove(&base) {
            Some(memory) => {
                drop(st);
                drop(memory);
                Ok(())
            }
            None => Err(Error::invalid(
                MPI_ERR_BASE,
                format!("{base:#x} is not an address returned by MPI_Alloc_mem (or it was already freed)"),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::caching::callback::{CallbackCall, Convention, CopyFn, DeleteCallback, DeleteFn};
    use crate::caching::convert::{AttrWord, Provenance};
    use crate::world::ObjectKind;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::sync::Mutex;

    fn runtime() -> Runtime {
        let rt = Runtime::new();
        rt.init(0).unwrap();
        rt
    }

    fn world() -> Handle {
        Handle(MPI_COMM_WORLD)
    }

    /// A delete callback that records its calls and fails while `fail` is set.
    struct Recorder {
        calls: Arc<AtomicUsize>,
        log: Arc<Mutex<Vec<(i32, i64)>>>,
        fail: Arc<AtomicBool>,
    }

    impl DeleteCallback for Recorder {
        fn delete(&self, call: &CallbackCall<'_>) -> std::result::Result<(), i32> {
            self.calls.fetch_add(1, Ordering::SeqCst);
            if self.fail.load(Ordering::SeqCst) {
                return Err(MPI_ERR_OTHER);
            }
            self.log
                .lock()
                .unwrap()
                .push((call.keyval, call.value.value.word));
            Ok(())
        }
        fn convention(&self) -> Convention {
            Convention::C
        }
    }

    struct Probe {
        calls: Arc<AtomicUsize>,
        log: Arc<Mutex<Vec<(i32, i64)>>>,
        fail: Arc<AtomicBool>,
    }

    fn probe() -> Probe {
        Probe {
            calls: Arc::new(AtomicUsize::new(0)),
            log: Arc::new(Mutex::new(Vec::new())),
            fail: Arc::new(AtomicBool::new(false)),
        }
    }

    fn win_keyval(rt: &Runtime, p: &Probe) -> i32 {
        let cb = Recorder {
            calls: p.calls.clone(),
            log: p.log.clone(),
            fail: p.fail.clone(),
        };
        rt.create_keyval(
            ObjectKind::Win,
            CopyFn::Null,
            DeleteFn::User(Box::new(cb)),
            0,
        )
        .unwrap()
    }

    fn read(rt: &Runtime, w: Handle, keyval: i32) -> crate::caching::convert::AttrRead {
        rt.get_attr(ObjRef::win(w.0), keyval)
            .unwrap()
            .expect("predefined window attributes are always set")
    }

    /// The address of the internal word of a predefined cell (what C readers are pointed at).
    fn internal_address(rt: &Runtime, w: Handle, keyval: i32) -> usize {
        let st = rt.lock();
        let cell = &st
            .wins
            .get(w)
            .unwrap()
            .predefined
            .iter()
            .find(|(k, _)| *k == keyval)
            .unwrap()
            .1;
        cell.c_view()
    }

    // MPI 4.1 §12.2.6 and §20.3.7: MPI_WIN_SIZE is an MPI_Aint* to C (as if set by Fortran
    // MPI_WIN_SET_ATTR), MPI_WIN_BASE is the base pointer itself (as if set from C).
    #[test]
    fn size_is_an_aint_pointer_and_base_is_the_pointer() {
        let rt = runtime();
        let (w, base) = rt.win_allocate(100, 4, world()).unwrap();
        assert_ne!(base, 0);
        assert_eq!(base % 16, 0, "allocated memory is 16-byte aligned");

        let size = read(&rt, w, MPI_WIN_SIZE);
        assert_eq!(size.value.provenance, Provenance::FortranAddress);
        assert_eq!(size.value.word, 100);
        assert_eq!(size.value.fortran_address_view(), 100);
        assert_ne!(size.c_view, 100, "C gets a pointer, not the value");
        assert_eq!(size.c_view, internal_address(&rt, w, MPI_WIN_SIZE));
        assert_eq!(
            read(&rt, w, MPI_WIN_SIZE).c_view,
            size.c_view,
            "the internal MPI_Aint does not move"
        );

        let b = read(&rt, w, MPI_WIN_BASE);
        assert_eq!(b.value.provenance, Provenance::CPointer);
        assert_eq!(b.value.word as usize, base);
        assert_eq!(b.c_view, base, "C gets the base pointer itself");
        rt.win_free(w).unwrap();
    }

    // MPI 4.1 §12.2.6 and §20.3.7: MPI_WIN_DISP_UNIT, MPI_WIN_CREATE_FLAVOR and MPI_WIN_MODEL
    // are integer valued: as if put by MPI_ATTR_PUT, C gets an int*.
    #[test]
    fn integer_valued_window_attributes_are_int_pointers() {
        let rt = runtime();
        let mut buf = [0u8; 64];
        let addr = buf.as_mut_ptr() as usize;
        let w = rt.win_create(addr, 64, 8, world()).unwrap();
        for (k, v) in [
            (MPI_WIN_DISP_UNIT, 8),
            (MPI_WIN_CREATE_FLAVOR, MPI_WIN_FLAVOR_CREATE),
            (MPI_WIN_MODEL, MPI_WIN_UNIFIED),
        ] {
            let r = read(&rt, w, k);
            assert_eq!(r.value.provenance, Provenance::FortranInteger, "keyval {k}");
            assert_eq!(r.value.word, i64::from(v), "keyval {k}: the INTEGER value");
            assert_eq!(r.c_view, internal_address(&rt, w, k), "keyval {k}");
        }
        assert_eq!(read(&rt, w, MPI_WIN_BASE).c_view, addr);
        assert_eq!(read(&rt, w, MPI_WIN_SIZE).value.word, 64);
        rt.win_free(w).unwrap();
    }

    // MPI 4.1 §12.2.6: MPI_WIN_CREATE_FLAVOR tells how the window was made; a dynamic window
    // has base MPI_BOTTOM and size 0 (§12.2.4).
    #[test]
    fn flavor_of_each_creation_routine() {
        let rt = runtime();
        let c = rt.win_create(0x1000, 0, 1, world()).unwrap();
        let (a, _) = rt.win_allocate(0, 1, world()).unwrap();
        let d = rt.win_create_dynamic(world()).unwrap();
        let flavor = |w| read(&rt, w, MPI_WIN_CREATE_FLAVOR).value.word as i32;
        assert_eq!(flavor(c), MPI_WIN_FLAVOR_CREATE);
        assert_eq!(flavor(a), MPI_WIN_FLAVOR_ALLOCATE);
        assert_eq!(flavor(d), MPI_WIN_FLAVOR_DYNAMIC);
        assert_eq!(read(&rt, d, MPI_WIN_BASE).c_view, 0, "MPI_BOTTOM");
        assert_eq!(read(&rt, d, MPI_WIN_SIZE).value.word, 0);
        assert_eq!(read(&rt, d, MPI_WIN_DISP_UNIT).value.word, 1);
        assert_ne!(
            read(&rt, a, MPI_WIN_BASE).c_view,
            0,
            "a zero-size allocated window still has a real base"
        );
        for w in [c, a, d] {
            rt.win_free(w).unwrap();
        }
    }

    // MPI 4.1 §7.7.5: predefined keyvals cannot be set or deleted by users (MPI_ERR_KEYVAL);
    // a communicator keyval is not a window keyval.
    #[test]
    fn predefined_window_keyvals_cannot_be_set_or_deleted() {
        let rt = runtime();
        let w = rt.win_create_dynamic(world()).unwrap();
        for k in [
            MPI_WIN_BASE,
            MPI_WIN_SIZE,
            MPI_WIN_DISP_UNIT,
            MPI_WIN_CREATE_FLAVOR,
            MPI_WIN_MODEL,
        ] {
            let e = rt
                .set_attr(ObjRef::win(w.0), k, AttrWord::from_c_pointer(1))
                .unwrap_err();
            assert_eq!(e.class(), MPI_ERR_KEYVAL, "set {k}");
            let e = rt.delete_attr(ObjRef::win(w.0), k).unwrap_err();
            assert_eq!(e.class(), MPI_ERR_KEYVAL, "delete {k}");
            let e = rt.free_keyval(ObjectKind::Win, k).unwrap_err();
            assert_eq!(e.class(), MPI_ERR_KEYVAL, "free {k}");
        }
        let e = rt.get_attr(ObjRef::win(w.0), MPI_TAG_UB).unwrap_err();
        assert_eq!(
            e.class(),
            MPI_ERR_KEYVAL,
            "MPI_TAG_UB is a communicator keyval"
        );
        let e = rt
            .get_attr(ObjRef::comm(MPI_COMM_WORLD), MPI_WIN_BASE)
            .unwrap_err();
        assert_eq!(e.class(), MPI_ERR_KEYVAL, "MPI_WIN_BASE is a window keyval");
        assert_eq!(read(&rt, w, MPI_WIN_SIZE).value.word, 0, "still readable");
        rt.win_free(w).unwrap();
    }

    // MPI 4.1 §12.2.5 and §7.7.2: MPI_WIN_FREE runs the delete callback of every attribute
    // once, last set first, and the handle is then invalid (MPI_ERR_WIN).
    #[test]
    fn win_free_runs_delete_callbacks_last_set_first() {
        let rt = runtime();
        let p = probe();
        let k1 = win_keyval(&rt, &p);
        let k2 = win_keyval(&rt, &p);
        let w = rt.win_create_dynamic(world()).unwrap();
        let obj = ObjRef::win(w.0);
        rt.set_attr(obj, k2, AttrWord::from_c_pointer(22)).unwrap();
        rt.set_attr(obj, k1, AttrWord::from_c_pointer(11)).unwrap();
        rt.win_free(w).unwrap();
        assert_eq!(p.calls.load(Ordering::SeqCst), 2);
        assert_eq!(*p.log.lock().unwrap(), vec![(k1, 11), (k2, 22)]);
        assert_eq!(rt.win_check(w).unwrap_err().class(), MPI_ERR_WIN);
        assert_eq!(rt.win_free(w).unwrap_err().class(), MPI_ERR_WIN);
        assert_eq!(p.calls.load(Ordering::SeqCst), 2, "no second call");
        assert_eq!(
            rt.lock().keyvals().held(),
            2,
            "only the keyvals' own references"
        );
    }

    // MPI 4.1 §7.7.2 (MPI_WIN_FREE_KEYVAL follows MPI_COMM_FREE_KEYVAL): a freed window keyval
    // names the attributes it has until MPI_WIN_FREE releases the last; then it is invalid.
    #[test]
    fn freed_window_keyval_lives_until_win_free() {
        let rt = runtime();
        let p = probe();
        let k = win_keyval(&rt, &p);
        let w = rt.win_create_dynamic(world()).unwrap();
        let other = rt.win_create_dynamic(world()).unwrap();
        let obj = ObjRef::win(w.0);
        rt.set_attr(obj, k, AttrWord::from_c_pointer(31)).unwrap();
        rt.free_keyval(ObjectKind::Win, k).unwrap();
        assert_eq!(read(&rt, w, k).value.word, 31);
        assert_eq!(rt.get_attr(ObjRef::win(other.0), k).unwrap(), None);
        let e = rt
            .set_attr(ObjRef::win(other.0), k, AttrWord::from_c_pointer(1))
            .unwrap_err();
        assert_eq!(e, crate::error::Error::KeyvalFreed { keyval: k });
        rt.set_attr(obj, k, AttrWord::from_c_pointer(32)).unwrap();
        assert_eq!(
            *p.log.lock().unwrap(),
            vec![(k, 31)],
            "overwrite deletes the old value"
        );
        rt.win_free(w).unwrap();
        assert_eq!(*p.log.lock().unwrap(), vec![(k, 31), (k, 32)]);
        assert_eq!(rt.lock().keyvals().held(), 0);
        let e = rt.get_attr(ObjRef::win(other.0), k).unwrap_err();
        assert_eq!(e.class(), MPI_ERR_KEYVAL);
        rt.win_free(other).unwrap();
    }

    // MPI 4.1 §7.7.2: a failing delete callback fails MPI_WIN_FREE with its code and leaves the
    // window valid with its attribute in place, so the user can retry.
    #[test]
    fn failing_delete_callback_leaves_the_window_valid() {
        let rt = runtime();
        let p = probe();
        let k = win_keyval(&rt, &p);
        let (w, _) = rt.win_allocate(32, 1, world()).unwrap();
        let obj = ObjRef::win(w.0);
        rt.set_attr(obj, k, AttrWord::from_fortran_address(5))
            .unwrap();
        p.fail.store(true, Ordering::SeqCst);
        let e = rt.win_free(w).unwrap_err();
        assert_eq!(e.code(), MPI_ERR_OTHER, "the callback's code is the call's");
        rt.win_check(w).unwrap();
        let r = rt.get_attr(obj, k).unwrap().expect("attribute still set");
        assert_eq!(r.value.word, 5);
        assert_eq!(read(&rt, w, MPI_WIN_SIZE).value.word, 32);
        p.fail.store(false, Ordering::SeqCst);
        rt.win_free(w).unwrap();
        assert_eq!(p.calls.load(Ordering::SeqCst), 2);
        assert!(rt.win_check(w).is_err());
    }

    // MPI 4.1 §12.2.1: size must be >= 0 (MPI_ERR_SIZE), disp_unit > 0 (MPI_ERR_DISP), comm a
    // valid communicator (MPI_ERR_COMM).
    #[test]
    fn creation_arguments_are_checked() {
        let rt = runtime();
        let class = |r: Result<Handle>| r.unwrap_err().class();
        assert_eq!(class(rt.win_create(0, -1, 1, world())), MPI_ERR_SIZE);
        assert_eq!(class(rt.win_create(0, 8, 0, world())), MPI_ERR_DISP);
        assert_eq!(
            class(rt.win_create(0, 8, 1, Handle(MPI_COMM_NULL))),
            MPI_ERR_COMM
        );
        assert_eq!(class(rt.win_create(0, 8, 1, Handle(12345))), MPI_ERR_COMM);
        assert_eq!(
            class(rt.win_create_dynamic(Handle(MPI_COMM_NULL))),
            MPI_ERR_COMM
        );
        let alloc = |size, d| rt.win_allocate(size, d, world()).map(|(h, _)| h);
        assert_eq!(class(alloc(-5, 1)), MPI_ERR_SIZE);
        assert_eq!(class(alloc(8, -2)), MPI_ERR_DISP);
        assert_eq!(class(alloc(i64::MAX, 1)), MPI_ERR_NO_MEM);
        assert!(rt.lock().wins.is_empty(), "no window left behind");
    }

    // MPI 4.1 §9.3: windows start with MPI_ERRORS_ARE_FATAL; §7.8: a window's name starts empty.
    // §12.2.6: MPI_WIN_GET_GROUP is the group of the window's communicator.
    #[test]
    fn new_window_errhandler_name_and_group() {
        let rt = runtime();
        let w = rt.win_create_dynamic(Handle(MPI_COMM_SELF)).unwrap();
        assert_eq!(
            rt.get_errhandler(ObjectKind::Win, w).unwrap(),
            Handle(MPI_ERRORS_ARE_FATAL)
        );
        assert_eq!(rt.win_get_name(w).unwrap(), "");
        rt.win_set_name(w, "halo").unwrap();
        assert_eq!(rt.win_get_name(w).unwrap(), "halo");
        let g = rt.win_group(w).unwrap();
        assert_eq!(rt.group_size(g).unwrap(), 1);
        assert_eq!(rt.group_rank(g).unwrap(), 0);
        rt.group_free(g).unwrap();
        rt.win_free(w).unwrap();
    }

    // MPI 4.1 §9.2: MPI_ALLOC_MEM returns memory MPI_FREE_MEM releases; freeing an address not
    // returned by MPI_ALLOC_MEM is MPI_ERR_BASE; a negative size is MPI_ERR_ARG.
    #[test]
    fn alloc_mem_and_free_mem() {
        let rt = runtime();
        let a = rt.alloc_mem(100).unwrap();
        let b = rt.alloc_mem(0).unwrap();
        let c = rt.alloc_mem(0).unwrap();
        assert_eq!(a % 16, 0);
        assert!(
            a != b && b != c && a != c,
            "distinct addresses, size 0 included"
        );
        assert_eq!(rt.alloc_mem(-1).unwrap_err().class(), MPI_ERR_ARG);
        assert_eq!(rt.free_mem(a + 16).unwrap_err().class(), MPI_ERR_BASE);
        rt.free_mem(a).unwrap();
        assert_eq!(
            rt.free_mem(a).unwrap_err().class(),
            MPI_ERR_BASE,
            "double free"
        );
        rt.free_mem(0).unwrap();
        rt.free_mem(b).unwrap();
        assert_eq!(rt.lock().alloc_mem.len(), 1);
    }

    // MPI 4.1 §11.2.4 and docs/DESIGN.md: MPI_FINALIZE deletes the attributes of windows the program
    // did not free (their delete callbacks run once), and everything the library allocated is
    // released.
    #[test]
    fn finalize_releases_windows_and_memory() {
        let rt = runtime();
        let p = probe();
        let k = win_keyval(&rt, &p);
        let (w, _) = rt.win_allocate(1 << 12, 1, world()).unwrap();
        rt.set_attr(ObjRef::win(w.0), k, AttrWord::from_c_pointer(7))
            .unwrap();
        rt.alloc_mem(64).unwrap();
        rt.finalize().unwrap();
        assert_eq!(p.calls.load(Ordering::SeqCst), 1);
        let st = rt.lock();
        assert!(st.wins.is_empty());
        assert!(st.alloc_mem.is_empty());
    }
}
