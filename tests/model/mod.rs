//! The reference model of the caching chapter, written from docs/DESIGN.md's tables and README.md's
//! "Documented outcomes" with no code shared with the library (`src/`): plain Rust values, no library
//! types. It predicts, for each operation on communicators, the call's outcome, what a reader
//! gets, and every copy / delete callback invocation in order.
//!
//! Objects are named by the model's own indices (`comm` 0 = MPI_COMM_WORLD, 1 = MPI_COMM_SELF,
//! then every communicator made by a dup, in order); keyvals by their creation index. The
//! driver (tests/model_random.rs) maps them to real handles and keyval numbers.
#![allow(dead_code)]

/// Who wrote an attribute (docs/DESIGN.md "Values and who wrote them").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prov {
    /// C `MPI_Comm_set_attr` / `MPI_Attr_put`, C copy callbacks: the `void*` itself.
    CPointer,
    /// Fortran `MPI_COMM_SET_ATTR`, ADDRESS_KIND copy callbacks: the value.
    FAddress,
    /// Fortran `MPI_ATTR_PUT`, INTEGER copy callbacks: the value sign-extended.
    FInteger,
}

/// A stored attribute value: one word and its provenance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Val {
    pub word: i64,
    pub prov: Prov,
}

impl Val {
    pub fn c(ptr: u64) -> Val {
        Val {
            word: ptr as i64,
            prov: Prov::CPointer,
        }
    }
    pub fn faddr(v: i64) -> Val {
        Val {
            word: v,
            prov: Prov::FAddress,
        }
    }
    /// `MPI_ATTR_PUT` sign-extends the INTEGER to the word.
    pub fn fint(v: i32) -> Val {
        Val {
            word: v as i64,
            prov: Prov::FInteger,
        }
    }
    /// Fortran ADDRESS_KIND reader: the whole word, whatever the provenance.
    pub fn faddr_view(self) -> i64 {
        self.word
    }
    /// Fortran INTEGER reader (`MPI_ATTR_GET`): the low 32 bits (2**40 reads as 0).
    pub fn fint_view(self) -> i32 {
        self.word as u64 as u32 as i32
    }
}

/// The calling convention of a keyval's callbacks: decided by the call that created it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Conv {
    C,
    FAddress,
    FInteger,
}

/// What a keyval copies with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CopyKind {
    /// NULL or a predefined NULL_COPY_FN: never copied, nothing called.
    Null,
    /// A predefined DUP_FN: word and provenance copied, nothing called.
    Dup,
    /// A user routine (behaviour below), called in the keyval's convention.
    User,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeleteKind {
    Null,
    User,
}

/// What a user copy routine does when called.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CopyBehavior {
    /// Returns the value it was given, flag true.
    Pass,
    /// Returns this word (in the convention's own type), flag true.
    Const(i64),
    /// flag false: not copied.
    Skip,
    /// Returns (C) or sets IERROR to (Fortran) this code.
    Fail(i32),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeleteBehavior {
    Ok,
    Fail(i32),
}

/// Object kind of a keyval.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KvKind {
    Comm,
    Type,
}

#[derive(Debug, Clone)]
pub struct Keyval {
    pub kind: KvKind,
    pub conv: Conv,
    pub copy: CopyKind,
    pub delete: DeleteKind,
    pub extra: i64,
    pub freed: bool,
    pub copy_behavior: CopyBehavior,
    pub delete_behavior: DeleteBehavior,
}

/// One attribute instance on an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attr {
    pub kv: usize,
    pub val: Val,
    /// Unique per stored instance (changes on every set), for pointer-stability checks.
    pub instance: u64,
}

#[derive(Debug, Clone)]
pub struct Comm {
    pub alive: bool,
    pub predefined: bool,
    /// In order of setting (an overwrite counts as a new setting).
    pub attrs: Vec<Attr>,
}

/// What a call does with the keyval it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum KvUse {
    Get,
    Set,
    Delete,
}

/// Which keyval a call names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KvRef {
    Created(usize),
    /// `MPI_TAG_UB`: predefined, integer-valued (read as if put by `MPI_ATTR_PUT`).
    TagUb,
    /// `MPI_KEYVAL_INVALID`.
    Invalid,
    /// A number that was never created.
    Forged,
}

/// The handle a callback is told about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObjId {
    Comm(usize),
    /// The new communicator of a dup that failed (its handle never reaches the caller).
    FailedDupNew,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CbKind {
    Copy,
    Delete,
}

/// A callback invocation the model expects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Call {
    pub kind: CbKind,
    pub conv: Conv,
    pub obj: ObjId,
    pub kv: usize,
    /// The value as stored; the driver checks it in the convention's view.
    pub val: Val,
    pub extra: i64,
}

/// An outcome: success, or an error class / a callback's code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Ok,
    /// Any of these classes is acceptable (when two arguments are wrong, the standard does
    /// not say which is reported).
    Class(Vec<ErrClass>),
    /// A failing callback's exact code.
    Code(i32),
    /// One of these codes (finalize: the first failure, where "first" among the other
    /// communicators is not specified by the README).
    AnyCode(Vec<i32>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrClass {
    Comm,
    Keyval,
}

/// What one operation should do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expect {
    pub outcome: Outcome,
    pub calls: Vec<Call>,
    /// For gets: `Some(v)` when the flag must be true with value `v`, `None` for flag false.
    pub read: Option<Option<Val>>,
    /// For finalize: the calls on communicators other than SELF and WORLD, one group per
    /// communicator (each group in order, the groups in any order).
    pub unordered_groups: Vec<Vec<Call>>,
    /// For a successful dup: the new communicator's model index.
    pub new_comm: Option<usize>,
}

impl Expect {
    fn ok() -> Expect {
        Expect {
            outcome: Outcome::Ok,
            calls: Vec::new(),
            read: None,
            unordered_groups: Vec::new(),
            new_comm: None,
        }
    }
    fn class(c: Vec<ErrClass>) -> Expect {
        Expect {
            outcome: Outcome::Class(c),
            ..Expect::ok()
        }
    }
}

/// The value `MPI_TAG_UB` reports.
pub const TAG_UB_VALUE: i32 = 0x7fff_ffff;

pub struct Model {
    pub keyvals: Vec<Keyval>,
    pub comms: Vec<Comm>,
    next_instance: u64,
}

impl Default for Model {
    fn default() -> Self {
        Self::new()
    }
}

impl Model {
    /// Right after `MPI_Init`: WORLD (0) and SELF (1), no keyvals.
    pub fn new() -> Model {
        let predefined = Comm {
            alive: true,
            predefined: true,
            attrs: Vec::new(),
        };
        Model {
            keyvals: Vec::new(),
            comms: vec![predefined.clone(), predefined],
            next_instance: 1,
        }
    }

    pub fn create_keyval(
        &mut self,
        kind: KvKind,
        conv: Conv,
        copy: CopyKind,
        delete: DeleteKind,
        extra: i64,
    ) -> usize {
        self.keyvals.push(Keyval {
            kind,
            conv,
            copy,
            delete,
            extra,
            freed: false,
            copy_behavior: CopyBehavior::Pass,
            delete_behavior: DeleteBehavior::Ok,
        });
        self.keyvals.len() - 1
    }

    fn comm_err(&self, c: usize) -> bool {
        !self.comms[c].alive
    }

    /// Whether keyval `k` still exists: not freed by the user, or freed while attributes use
    /// it (MPI 4.1 §7.7.2: "the actual free does not transpire until after all references
    /// ... to the key have been freed"). Once freed with none left it is gone for good: no
    /// call can give it an attribute again.
    pub fn held(&self, k: usize) -> bool {
        !self.keyvals[k].freed
            || self
                .comms
                .iter()
                .any(|c| c.alive && c.attrs.iter().any(|a| a.kv == k))
    }

    /// The keyval error of naming `kv` on communicator `c` (None when usable there). A held
    /// keyval that the user freed names the attributes it has (get, delete, overwrite), but a
    /// set cannot create one under it.
    fn kv_err(&self, c: usize, kv: KvRef, op: KvUse) -> Option<ErrClass> {
        match kv {
            KvRef::Created(k) => {
                let kv = &self.keyvals[k];
                let creating = op == KvUse::Set && self.instance(c, k).is_none();
                (kv.kind != KvKind::Comm || !self.held(k) || (kv.freed && creating))
                    .then_some(ErrClass::Keyval)
            }
            // Predefined keyvals cannot be set or deleted by users.
            KvRef::TagUb => (op != KvUse::Get).then_some(ErrClass::Keyval),
            KvRef::Invalid | KvRef::Forged => Some(ErrClass::Keyval),
        }
    }

    fn arg_errors(&self, c: usize, kv: KvRef, op: KvUse) -> Option<Expect> {
        let mut classes = Vec::new();
        if self.comm_err(c) {
            classes.push(ErrClass::Comm);
        }
        if let Some(e) = self.kv_err(c, kv, op) {
            classes.push(e);
        }
        (!classes.is_empty()).then(|| Expect::class(classes))
    }

    fn delete_call(&self, obj: ObjId, a: &Attr) -> Option<(Call, DeleteBehavior)> {
        let k = &self.keyvals[a.kv];
        match k.delete {
            DeleteKind::Null => None,
            DeleteKind::User => Some((
                Call {
                    kind: CbKind::Delete,
                    conv: k.conv,
                    obj,
                    kv: a.kv,
                    val: a.val,
                    extra: k.extra,
                },
                k.delete_behavior,
            )),
        }
    }

    fn new_instance(&mut self) -> u64 {
        self.next_instance += 1;
        self.next_instance
    }

    /// `*_get_attr` / `MPI_Attr_get` (the reader's view is the driver's business).
    pub fn get(&self, c: usize, kv: KvRef) -> Expect {
        if let Some(e) = self.arg_errors(c, kv, KvUse::Get) {
            return e;
        }
        let read = match kv {
            KvRef::TagUb => Some(Val::fint(TAG_UB_VALUE)),
            KvRef::Created(k) => self.comms[c]
                .attrs
                .iter()
                .find(|a| a.kv == k)
                .map(|a| a.val),
            _ => unreachable!(),
        };
        Expect {
            read: Some(read),
            ..Expect::ok()
        }
    }

    /// The attribute instance currently under (c, kv), if any.
    pub fn instance(&self, c: usize, kv: usize) -> Option<Attr> {
        let comm = &self.comms[c];
        if !comm.alive {
            return None;
        }
        comm.attrs.iter().find(|a| a.kv == kv).copied()
    }

    /// `*_set_attr` / `MPI_Attr_put`: an overwrite runs the old value's delete callback
    /// first; if it fails the old value stays and the call returns its code. Under a keyval
    /// the user freed, only an overwrite.
    pub fn set(&mut self, c: usize, kv: KvRef, val: Val) -> Expect {
        if let Some(e) = self.arg_errors(c, kv, KvUse::Set) {
            return e;
        }
        let KvRef::Created(k) = kv else {
            unreachable!()
        };
        let mut ex = Expect::ok();
        if let Some(pos) = self.comms[c].attrs.iter().position(|a| a.kv == k) {
            let old = self.comms[c].attrs[pos];
            if let Some((call, behavior)) = self.delete_call(ObjId::Comm(c), &old) {
                ex.calls.push(call);
                if let DeleteBehavior::Fail(code) = behavior {
                    ex.outcome = Outcome::Code(code);
                    return ex;
                }
            }
            self.comms[c].attrs.remove(pos);
        }
        let instance = self.new_instance();
        self.comms[c].attrs.push(Attr {
            kv: k,
            val,
            instance,
        });
        ex
    }

    /// `*_delete_attr`: not set is not an error; a failing callback leaves it in place. A
    /// keyval the user freed is gone with its last attribute.
    pub fn delete(&mut self, c: usize, kv: KvRef) -> Expect {
        if let Some(e) = self.arg_errors(c, kv, KvUse::Delete) {
            return e;
        }
        let KvRef::Created(k) = kv else {
            unreachable!()
        };
        let mut ex = Expect::ok();
        if let Some(pos) = self.comms[c].attrs.iter().position(|a| a.kv == k) {
            let old = self.comms[c].attrs[pos];
            if let Some((call, behavior)) = self.delete_call(ObjId::Comm(c), &old) {
                ex.calls.push(call);
                if let DeleteBehavior::Fail(code) = behavior {
                    ex.outcome = Outcome::Code(code);
                    return ex;
                }
            }
            self.comms[c].attrs.remove(pos);
        }
        ex
    }

    /// What a copy routine of keyval `k` returns for `val`, as stored on the new object.
    fn copy_result(&self, k: usize, val: Val) -> Result<Option<Val>, i32> {
        let kv = &self.keyvals[k];
        match kv.copy_behavior {
            CopyBehavior::Skip => Ok(None),
            CopyBehavior::Fail(code) => Err(code),
            CopyBehavior::Pass => Ok(Some(match kv.conv {
                // A C routine handing back the pointer it was given: for a Fortran-set value
                // that is the pointer to the internal MPI_Aint/int, and the value and its
                // provenance are copied (docs/DESIGN.md); for a C value, the same pointer.
                Conv::C => val,
                Conv::FAddress => Val::faddr(val.faddr_view()),
                Conv::FInteger => Val::fint(val.fint_view()),
            })),
            CopyBehavior::Const(w) => Ok(Some(match kv.conv {
                Conv::C => Val::c(w as u64),
                Conv::FAddress => Val::faddr(w),
                Conv::FInteger => Val::fint(w as i32),
            })),
        }
    }

    /// `MPI_Comm_dup` and its variants: copy callbacks in order of setting; on a failure the
    /// copies made so far are deleted (last set first, failures ignored), the dup returns the
    /// code and the new handle is MPI_COMM_NULL.
    pub fn dup(&mut self, c: usize) -> Expect {
        if self.comm_err(c) {
            return Expect::class(vec![ErrClass::Comm]);
        }
        let mut ex = Expect::ok();
        let mut copied: Vec<Attr> = Vec::new();
        let source = self.comms[c].attrs.clone();
        for a in source {
            let kv = &self.keyvals[a.kv];
            let produced = match kv.copy {
                CopyKind::Null => None,
                CopyKind::Dup => Some(a.val),
                CopyKind::User => {
                    ex.calls.push(Call {
                        kind: CbKind::Copy,
                        conv: kv.conv,
                        obj: ObjId::Comm(c),
                        kv: a.kv,
                        val: a.val,
                        extra: kv.extra,
                    });
                    match self.copy_result(a.kv, a.val) {
                        Ok(v) => v,
                        Err(code) => {
                            for done in copied.iter().rev() {
                                if let Some((call, _)) = self.delete_call(ObjId::FailedDupNew, done)
                                {
                                    ex.calls.push(call);
                                }
                            }
                            ex.outcome = Outcome::Code(code);
                            return ex;
                        }
                    }
                }
            };
            if let Some(val) = produced {
                let instance = self.new_instance();
                copied.push(Attr {
                    kv: a.kv,
                    val,
                    instance,
                });
            }
        }
        self.comms.push(Comm {
            alive: true,
            predefined: false,
            attrs: copied,
        });
        ex.new_comm = Some(self.comms.len() - 1);
        ex
    }

    /// `MPI_Comm_free`: attributes deleted last set first; the first failure stops the free,
    /// the communicator stays valid with what is left and the call returns the code.
    pub fn free_comm(&mut self, c: usize) -> Expect {
        if self.comm_err(c) || self.comms[c].predefined {
            return Expect::class(vec![ErrClass::Comm]);
        }
        let mut ex = Expect::ok();
        while let Some(a) = self.comms[c].attrs.last().copied() {
            if let Some((call, behavior)) = self.delete_call(ObjId::Comm(c), &a) {
                ex.calls.push(call);
                if let DeleteBehavior::Fail(code) = behavior {
                    ex.outcome = Outcome::Code(code);
                    return ex;
                }
            }
            self.comms[c].attrs.pop();
        }
        self.comms[c].alive = false;
        ex
    }

    /// `MPI_Comm_free_keyval` & co.: once only; the attributes using it live on, and the number
    /// names them until the last goes.
    pub fn free_keyval(&mut self, kv: KvRef, kind: KvKind) -> Expect {
        match kv {
            KvRef::Created(k) if !self.keyvals[k].freed && self.keyvals[k].kind == kind => {
                self.keyvals[k].freed = true;
                Expect::ok()
            }
            _ => Expect::class(vec![ErrClass::Keyval]),
        }
    }

    /// `MPI_Finalize`: SELF's attributes (last set first), then WORLD's, then every other
    /// live communicator's (each last set first, communicators in any order). Failures do not
    /// stop it; the first failure is returned.
    pub fn finalize(&mut self) -> Expect {
        let mut ex = Expect::ok();
        let mut first: Option<i32> = None;
        let mut later: Vec<i32> = Vec::new();
        let order: Vec<usize> = [1, 0].into_iter().chain(2..self.comms.len()).collect();
        for c in order {
            if !self.comms[c].alive {
                continue;
            }
            let attrs = std::mem::take(&mut self.comms[c].attrs);
            let mut group = Vec::new();
            let mut group_fail = None;
            for a in attrs.iter().rev() {
                if let Some((call, behavior)) = self.delete_call(ObjId::Comm(c), a) {
                    group.push(call);
                    if let DeleteBehavior::Fail(code) = behavior {
                        group_fail.get_or_insert(code);
                    }
                }
            }
            if c < 2 {
                ex.calls.extend(group);
                if let Some(code) = group_fail {
                    first.get_or_insert(code);
                }
            } else {
                if !group.is_empty() {
                    ex.unordered_groups.push(group);
                }
                if let Some(code) = group_fail {
                    later.push(code);
                }
            }
        }
        ex.outcome = match (first, later.is_empty()) {
            (Some(code), _) => Outcome::Code(code),
            (None, true) => Outcome::Ok,
            (None, false) => Outcome::AnyCode(later),
        };
        for c in &mut self.comms {
            c.alive = false;
        }
        ex
    }
}
