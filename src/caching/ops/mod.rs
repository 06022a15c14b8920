//! The caching operations.

mod attr;
pub use attr::*;
