//! What the tool information interface exposes (MPI 4.1 §15.3): control variables for the
//! library's documented limits and its initial error handler, performance variables read from
//! the world's own tables (live objects per kind, live keyvals, attributes on one object), the
//! categories grouping them, one enumeration, one event and one source. Nothing here is a
//! made-up number: every read asks the world what it holds now.

use super::table::TResult;
use crate::consts::*;
use crate::error::Limited;
use crate::kinds::{HandleKind, ObjectKind};
use crate::world::errhandler::limit_of;
use crate::world::handle::Handle;
use crate::world::objects::errhandler::INITIAL_ERRHANDLER;
use crate::world::runtime::Runtime;
use std::sync::atomic::Ordering;

/// An enumeration (`MPI_T_enum`): its handle is its index plus one (0 is `MPI_T_ENUM_NULL`).
pub struct Enum {
    pub name: &'static str,
    pub items: &'static [(i32, &'static str)],
}

pub const ENUMS: [Enum; 1] = [Enum {
    name: "mpicache_errhandler",
    items: &[
        (MPI_ERRORS_ARE_FATAL, "MPI_ERRORS_ARE_FATAL"),
        (MPI_ERRORS_RETURN, "MPI_ERRORS_RETURN"),
        (MPI_ERRORS_ABORT, "MPI_ERRORS_ABORT"),
    ],
}];

/// The enumeration of the error handlers a program can start with.
pub const ERRHANDLER_ENUM: i32 = 1;

/// A control variable.
pub struct Cvar {
    pub name: String,
    pub desc: String,
    pub verbosity: i32,
    pub datatype: i32,
    pub enumtype: i32,
    pub bind: i32,
    pub scope: i32,
    pub what: CvarWhat,
}

pub enum CvarWhat {
    /// The initial error handler (MPI 4.1 §9.3): settable until the library's objects exist.
    InitialErrhandler,
    /// A fixed limit of the library.
    Limit(Limited),
}

fn limit_slug(l: Limited) -> String {
    l.to_string().replace(' ', "_")
}

pub fn cvars() -> Vec<Cvar> {
    let mut v = vec![Cvar {
        name: "mpicache_initial_errhandler".into(),
        desc: "The error handler MPI_COMM_WORLD and MPI_COMM_SELF start with (MPI 4.1 §9.3); \
               settable before MPI_Init or the first session, like mpiexec -initial-errhandler"
            .into(),
        verbosity: MPI_T_VERBOSITY_USER_BASIC,
        datatype: MPI_INT,
        enumtype: ERRHANDLER_ENUM,
        bind: MPI_T_BIND_NO_OBJECT,
        scope: MPI_T_SCOPE_LOCAL,
        what: CvarWhat::InitialErrhandler,
    }];
    for l in Limited::ALL {
        v.push(Cvar {
            name: format!("mpicache_max_{}", limit_slug(l)),
            desc: format!("The most {l} a program can hold at once (MPI_ERR_NO_MEM beyond)"),
            verbosity: MPI_T_VERBOSITY_TUNER_DETAIL,
            datatype: MPI_UNSIGNED_LONG_LONG,
            enumtype: MPI_T_ENUM_NULL,
            bind: MPI_T_BIND_NO_OBJECT,
            scope: MPI_T_SCOPE_CONSTANT,
            what: CvarWhat::Limit(l),
        });
    }
    v
}

/// A control variable's value.
pub enum Value {
    Int(i32),
    U64(u64),
}

pub fn cvar_read(what: &CvarWhat) -> Value {
    match what {
        CvarWhat::InitialErrhandler => Value::Int(crate::world::errhandler::initial_errhandler().0),
        CvarWhat::Limit(l) => Value::U64(limit_of(*l) as u64),
    }
}

/// Writes an `int` control variable.
pub fn cvar_write(what: &CvarWhat, value: i32) -> TResult<()> {
    match what {
        CvarWhat::Limit(_) => Err(MPI_T_ERR_CVAR_SET_NEVER),
        CvarWhat::InitialErrhandler => {
            if Runtime::global().lock().up {
                return Err(MPI_T_ERR_CVAR_SET_NOT_NOW);
            }
            if !ENUMS[0].items.iter().any(|&(v, _)| v == value) {
                return Err(MPI_T_ERR_INVALID);
            }
            INITIAL_ERRHANDLER.store(value, Ordering::Relaxed);
            Ok(())
        }
    }
}

/// A performance variable: every one is a level read from the world (read-only, continuous).
pub struct Pvar {
    pub name: String,
    pub desc: String,
    pub bind: i32,
    pub what: PvarWhat,
}

#[derive(Clone, Copy)]
pub enum PvarWhat {
    Live(HandleKind),
    Keyvals,
    Attributes(ObjectKind),
}

const LIVE: [HandleKind; 9] = [
    HandleKind::Comm,
    HandleKind::Group,
    HandleKind::Datatype,
    HandleKind::Win,
    HandleKind::Errhandler,
    HandleKind::Request,
    HandleKind::Info,
    HandleKind::Session,
    HandleKind::File,
];

pub fn pvars() -> Vec<Pvar> {
    let mut v: Vec<Pvar> = LIVE
        .iter()
        .map(|&k| Pvar {
            name: format!("mpicache_live_{}", limit_slug(Limited::Handles(k))),
            desc: format!(
                "The {} that exist now, predefined ones included",
                Limited::Handles(k)
            ),
            bind: MPI_T_BIND_NO_OBJECT,
            what: PvarWhat::Live(k),
        })
        .collect();
    v.push(Pvar {
        name: "mpicache_live_keyvals".into(),
        desc: "The attribute keys held now, by the program or by attributes still set (freed \
               keyvals count until their last attribute goes)"
            .into(),
        bind: MPI_T_BIND_NO_OBJECT,
        what: PvarWhat::Keyvals,
    });
    for (kind, bind, what) in [
        (ObjectKind::Comm, MPI_T_BIND_MPI_COMM, "communicator"),
        (ObjectKind::Datatype, MPI_T_BIND_MPI_DATATYPE, "datatype"),
        (ObjectKind::Win, MPI_T_BIND_MPI_WIN, "window"),
    ] {
        v.push(Pvar {
            name: format!("mpicache_{what}_attributes"),
            desc: format!("The attributes cached on the {what} now (MPI 4.1 §7.7)"),
            bind,
            what: PvarWhat::Attributes(kind),
        });
    }
    v
}

/// Checks the object a bound variable is about (at handle allocation).
pub fn check_bound(what: PvarWhat, obj: i32) -> TResult<()> {
    if let PvarWhat::Attributes(kind) = what {
        let st = Runtime::global().lock();
        st.attr_count(crate::caching::ObjRef {
            kind,
            key: Handle(obj).key(),
        })
        .map_err(|_| MPI_T_ERR_INVALID_HANDLE)?;
    }
    Ok(())
}

/// A performance variable's value now.
pub fn pvar_read(what: PvarWhat, obj: i32) -> TResult<u64> {
    let st = Runtime::global().lock();
    if !st.up {
        // Before MPI_Init (or the first session) and after finalize nothing exists.
        return match what {
            PvarWhat::Attributes(_) => Err(MPI_T_ERR_INVALID_HANDLE),
            _ => Ok(0),
        };
    }
    Ok(match what {
        PvarWhat::Live(k) => match k {
            HandleKind::Comm => st.comms.len(),
            HandleKind::Group => st.groups.len(),
            HandleKind::Datatype => st.types.len(),
            HandleKind::Win => st.wins.len(),
            HandleKind::Errhandler => st.errhandlers.len(),
            HandleKind::Request => st.requests.len(),
            HandleKind::Info => st.infos.len(),
            HandleKind::Session => st.sessions.len(),
            HandleKind::File => st.files.len(),
            HandleKind::Op => 0,
            HandleKind::Message => st.messages.len(),
        },
        PvarWhat::Keyvals => st.keyvals().held(),
        PvarWhat::Attributes(kind) => st
            .attr_count(crate::caching::ObjRef {
                kind,
                key: Handle(obj).key(),
            })
            .map_err(|_| MPI_T_ERR_INVALID_HANDLE)?,
    } as u64)
}

/// A category: its variables, events and subcategories, by index.
pub struct Category {
    pub name: &'static str,
    pub desc: &'static str,
    pub cvars: Vec<i32>,
    pub pvars: Vec<i32>,
    pub events: Vec<i32>,
    pub categories: Vec<i32>,
}

pub fn categories() -> Vec<Category> {
    vec![
        Category {
            name: "mpicache",
            desc: "Everything mpicache exposes to tools",
            cvars: vec![],
            pvars: vec![],
            events: vec![],
            categories: vec![1, 2],
        },
        Category {
            name: "mpicache_limits",
            desc: "The library's settings and fixed limits",
            cvars: (0..cvars().len() as i32).collect(),
            pvars: vec![],
            events: vec![],
            categories: vec![],
        },
        Category {
            name: "mpicache_objects",
            desc: "The objects, keyvals and attributes the program holds, and the errors raised",
            cvars: vec![],
            pvars: (0..pvars().len() as i32).collect(),
            events: vec![0],
            categories: vec![],
        },
    ]
}
