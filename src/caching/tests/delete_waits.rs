//! Issue 15 item 9: a delete (or free) that meets another thread's deletion of the same
//! attribute waits for its outcome (MPI 4.1 §7.7.2 makes `MPI_Comm_delete_attr` delete the
//! attribute: a success must mean it is gone). The first delete callback is held on its thread
//! by a gate until the test opens it, so the racing call is known to start while the deletion
//! is under way; the outcome checked after is the same whatever the timing.

use super::*;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// A delete callback whose first run waits at a gate and then fails or succeeds; later runs
/// succeed at once. Counts its runs.
#[derive(Default)]
struct Gate {
    entered: AtomicBool,
    open: AtomicBool,
    first_fails: AtomicBool,
    runs: AtomicU32,
}

struct Gated(Arc<Gate>);

impl DeleteCallback for Gated {
    fn delete(&self, _: &CallbackCall<'_>) -> std::result::Result<(), i32> {
        let g = &self.0;
        if g.runs.fetch_add(1, Ordering::SeqCst) > 0 {
            return Ok(());
        }
        g.entered.store(true, Ordering::SeqCst);
        while !g.open.load(Ordering::SeqCst) {
            std::thread::yield_now();
        }
        if g.first_fails.load(Ordering::SeqCst) {
            Err(MPI_ERR_OTHER)
        } else {
            Ok(())
        }
    }
    fn convention(&self) -> Convention {
        Convention::C
    }
}

fn wait_until(flag: &AtomicBool) {
    let start = Instant::now();
    while !flag.load(Ordering::SeqCst) {
        assert!(start.elapsed() < Duration::from_secs(20), "timed out");
        std::thread::yield_now();
    }
}

/// What [`race`] saw.
struct Raced {
    rt: &'static Cache<FakeWorld>,
    obj: ObjRef,
    k: i32,
    gate: Arc<Gate>,
    /// A's and B's results.
    ra: Result<()>,
    rb: Result<()>,
    /// B had returned before the gate opened.
    early: bool,
}

/// Thread A deletes (its callback held at the gate); thread B then runs `racing`.
fn race(
    first_fails: bool,
    racing: impl FnOnce(&'static Cache<FakeWorld>, ObjRef, i32) -> Result<()> + Send + 'static,
) -> Raced {
    let rt = cache();
    let obj = rt.new_obj(ObjectKind::Comm);
    let gate = Arc::new(Gate::default());
    gate.first_fails.store(first_fails, Ordering::SeqCst);
    let k = rt
        .create_keyval(
            ObjectKind::Comm,
            CopyFn::Null,
            DeleteFn::User(Box::new(Gated(gate.clone()))),
            0,
        )
        .unwrap();
    rt.set_attr(obj, k, AttrWord::from_c_pointer(5)).unwrap();
    let a = std::thread::spawn(move || rt.delete_attr(obj, k));
    wait_until(&gate.entered);
    let b_done = Arc::new(AtomicBool::new(false));
    let b_flag = b_done.clone();
    let b = std::thread::spawn(move || {
        let r = racing(rt, obj, k);
        b_flag.store(true, Ordering::SeqCst);
        r
    });
    // B has had time to reach the engine; it must still be waiting for A's outcome.
    std::thread::sleep(Duration::from_millis(100));
    let early = b_done.load(Ordering::SeqCst);
    gate.open.store(true, Ordering::SeqCst);
    let ra = a.join().unwrap();
    let rb = b.join().unwrap();
    Raced {
        rt,
        obj,
        k,
        gate,
        ra,
        rb,
        early,
    }
}

// MPI 4.1 §7.7.2: A's deletion succeeds; B's delete of the same attribute waits, then
// succeeds with the attribute gone, and the callback ran once.
#[test]
fn a_delete_waits_for_a_successful_deletion_elsewhere() {
    let Raced {
        rt,
        obj,
        k,
        gate,
        ra,
        rb,
        early,
        ..
    } = race(false, |rt, obj, k| rt.delete_attr(obj, k));
    assert!(!early, "B returned while A's delete callback was running");
    ra.unwrap();
    rb.unwrap();
    assert_eq!(word(rt, obj, k), None, "a get after a successful delete");
    assert_eq!(gate.runs.load(Ordering::SeqCst), 1);
}

// MPI 4.1 §7.7.2: A's delete callback fails, so the attribute stays for A; B's delete then
// runs the callback itself and its success is B's: the attribute is gone.
#[test]
fn a_delete_runs_the_callback_itself_when_the_deletion_elsewhere_failed() {
    let Raced {
        rt,
        obj,
        k,
        gate,
        ra,
        rb,
        early,
        ..
    } = race(true, |rt, obj, k| rt.delete_attr(obj, k));
    assert!(!early, "B returned while A's delete callback was running");
    assert_eq!(ra.unwrap_err().code(), MPI_ERR_OTHER);
    rb.unwrap();
    assert_eq!(gate.runs.load(Ordering::SeqCst), 2, "A's run and B's own");
    assert_eq!(word(rt, obj, k), None);
}

// MPI 4.1 §7.7.4 (an object's free deletes its attributes): a free that meets another
// thread's deletion waits for it; A's success leaves nothing to delete and the object goes.
#[test]
fn a_free_waits_for_a_deletion_elsewhere() {
    let Raced {
        rt,
        obj,
        gate,
        ra,
        rb,
        early,
        ..
    } = race(false, |rt, obj, _| rt.free(obj));
    assert!(
        !early,
        "the free returned while A's delete callback was running"
    );
    ra.unwrap();
    rb.unwrap();
    assert!(!rt.is_live(obj));
    assert_eq!(gate.runs.load(Ordering::SeqCst), 1);
}

// The same with A's callback failing: the free runs the callback itself and succeeds.
#[test]
fn a_free_deletes_what_a_failed_deletion_elsewhere_left() {
    let Raced {
        rt,
        obj,
        gate,
        ra,
        rb,
        early,
        ..
    } = race(true, |rt, obj, _| rt.free(obj));
    assert!(!early);
    assert_eq!(ra.unwrap_err().code(), MPI_ERR_OTHER);
    rb.unwrap();
    assert!(!rt.is_live(obj));
    assert_eq!(gate.runs.load(Ordering::SeqCst), 2);
}

/// Deletes the attribute again from inside its own delete callback (same thread).
struct Nested {
    cache: &'static Cache<FakeWorld>,
    keyval: Arc<AtomicI32>,
    inner: Arc<Mutex<Option<Result<()>>>>,
}

impl DeleteCallback for Nested {
    fn delete(&self, c: &CallbackCall<'_>) -> std::result::Result<(), i32> {
        let obj = ObjRef::new(ObjectKind::Comm, c.object);
        let r = self
            .cache
            .delete_attr(obj, self.keyval.load(Ordering::SeqCst));
        *self.inner.lock().unwrap() = Some(r);
        Ok(())
    }
    fn convention(&self) -> Convention {
        Convention::C
    }
}

// Nested deletes from inside the callback keep their behaviour: success at once, nothing run
// twice, no deadlock.
#[test]
fn a_nested_delete_on_the_deleting_thread_does_not_wait() {
    let rt = cache();
    let obj = rt.new_obj(ObjectKind::Comm);
    let keyval = Arc::new(AtomicI32::new(0));
    let inner = Arc::new(Mutex::new(None));
    let k = rt
        .create_keyval(
            ObjectKind::Comm,
            CopyFn::Null,
            DeleteFn::User(Box::new(Nested {
                cache: rt,
                keyval: keyval.clone(),
                inner: inner.clone(),
            })),
            0,
        )
        .unwrap();
    keyval.store(k, Ordering::SeqCst);
    rt.set_attr(obj, k, AttrWord::from_c_pointer(1)).unwrap();
    rt.delete_attr(obj, k).unwrap();
    assert_eq!(inner.lock().unwrap().take(), Some(Ok(())));
    assert_eq!(word(rt, obj, k), None);
}
