//! Datatypes as the world keeps them, with what decoding needs (the constructors and the
//! operations: `world::datatype`).

use crate::primitives::shared::Shared;
use crate::world::datatype::layout::Layout;
use crate::world::handle::Handle;

#[derive(Debug)]
pub struct Datatype {
    pub name: String,
    pub layout: Layout,
    /// Committed types may be used in communication (predefined types always are).
    pub committed: bool,
    /// The `MPI_COMBINER_*` that made it.
    pub combiner: i32,
    /// The constructor's arguments, for decoding (MPI 4.1 §5.1.13); `None` for named types.
    pub contents: Option<Shared<Contents>>,
    /// Made by `MPI_Type_create_f90_*`: predefined (MPI 4.1 §19.1.9), so never freed, though
    /// it decodes with its F90 combiner.
    pub f90: bool,
}

impl Datatype {
    pub(crate) fn new(layout: Layout, combiner: i32) -> Datatype {
        Datatype {
            name: String::new(),
            layout,
            committed: false,
            combiner,
            contents: None,
            f90: false,
        }
    }
}

/// A datatype named in a constructor call.
#[derive(Debug, Clone)]
pub enum TypeRef {
    /// A predefined datatype: decoded as the same handle.
    Named(Handle),
    /// A derived datatype as it was when the constructor ran.
    Derived(Shared<Snapshot>),
}

/// What decoding needs of a derived datatype: its shape and how it was made.
#[derive(Debug)]
pub struct Snapshot {
    pub layout: Layout,
    pub combiner: i32,
    pub contents: Shared<Contents>,
}

/// Which form of a constructor made a type: MPI 4.1 §5.1.13's table differs for the two.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// The `int` / `MPI_Aint` form (`MPI_Type_vector`).
    #[default]
    Int,
    /// The large-count form (`MPI_Type_vector_c`): its counts and addresses are `MPI_Count`.
    Large,
}

/// A constructor's arguments as its `int` form lists them for `MPI_Type_get_contents`
/// (§5.1.13's table): integers, addresses, datatypes. The large-count form's split is derived
/// from these by the table (`world::datatype::table`).
#[derive(Debug, Default)]
pub struct Contents {
    pub ints: Vec<i64>,
    pub aints: Vec<i64>,
    pub types: Vec<TypeRef>,
    pub form: Form,
}

impl Contents {
    pub fn new(ints: Vec<i64>, aints: Vec<i64>) -> Contents {
        Contents {
            ints,
            aints,
            types: Vec::new(),
            form: Form::Int,
        }
    }
}

/// `MPI_Type_get_envelope`'s answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Envelope {
    pub num_integers: i64,
    pub num_addresses: i64,
    pub num_large_counts: i64,
    pub num_datatypes: i64,
    pub combiner: i32,
}

/// `MPI_Type_get_contents`'s answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    pub ints: Vec<i64>,
    pub aints: Vec<i64>,
    pub large: Vec<i64>,
    pub types: Vec<Handle>,
}
