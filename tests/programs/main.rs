//! The tests that build and run real C and Fortran programs, or install mpicache as a user
//! does, in one test binary: one link per edit instead of one per file, and one installation
//! (tests/common/mod.rs installs once per binary) shared by all of them.
//!
//! A new test file of this kind joins by going into this directory as `tests/programs/NAME.rs`
//! with `use crate::common;` where a standalone file has `mod common;`, and a `mod NAME;` line
//! below; run it alone with `cargo test --release --test programs NAME::`. Tests that call the
//! library in-process (its global MPI state, a global allocator) stay binaries of their own
//! (tests/bad_input.rs, tests/fast_get.rs, tests/get_path.rs, tests/model_random.rs).

#[path = "../common/mod.rs"]
mod common;

// The generators of build/, for the freshness tests of the Fortran files (fortran_programs,
// fortran_f08).
#[path = "../../build/signatures.rs"]
#[allow(dead_code)]
mod signatures;

#[path = "../../build/fortran_bind.rs"]
#[allow(dead_code)]
mod fortran_bind;

#[path = "../../build/fortran_gen.rs"]
#[allow(dead_code)]
mod fortran_gen;

mod abi_constants;
mod bench_smoke;
mod c_programs;
mod c_stress;
mod fortran_choice;
mod fortran_f08;
mod fortran_programs;
mod ilp64;
mod initial_errhandler;
mod install_tools;
mod patterns;
