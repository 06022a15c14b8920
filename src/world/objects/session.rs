//! Sessions as the world keeps them (the operations: `world::session`).

use crate::world::handle::Handle;

/// One session.
#[derive(Debug)]
pub struct Session {
    pub errhandler: Handle,
    /// The thread support level asked for in the info (`thread_level`) and provided.
    pub thread_level: i32,
}
