//! The low-level pieces that need `unsafe`, each with its SAFETY argument, so that nothing above
//! them does: the caching engine denies `unsafe_code`.

pub mod alloc;
pub mod arena;
pub mod asym_fence;
pub mod once_ptr;
pub mod shared;
pub mod zeroed;
