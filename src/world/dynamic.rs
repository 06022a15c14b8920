//! Process creation and management (MPI 4.1 §11.8) in a single process: ports and a name
//! service that are real within the process, and honest errors for what needs another process.
//!
//! - `MPI_Open_port` gives a fresh port name; `MPI_Close_port` closes an open one (an unknown
//!   name is `MPI_ERR_PORT`).
//! - `MPI_Publish_name` / `MPI_Lookup_name` / `MPI_Unpublish_name` keep service names in a
//!   table of this process: a lookup of an unpublished name is `MPI_ERR_NAME`, unpublishing one
//!   is `MPI_ERR_SERVICE` (§11.8.5), publishing a name twice is `MPI_ERR_SERVICE`.
//! - `MPI_Comm_connect` needs a server in another process listening on the port: a closed or
//!   unknown port is `MPI_ERR_PORT` (§11.8.2). One process has no other process to connect to:
//!   an open port has no acceptor either, so connect reports `MPI_ERR_PORT` as the standard's
//!   timeout case does; `MPI_Comm_accept` would wait for a client that cannot exist, and
//!   reports `MPI_ERR_PORT` instead of hanging.
//! - `MPI_Comm_spawn(_multiple)` cannot start processes: `MPI_ERR_SPAWN`, every error code set.
//! - `MPI_Comm_join` needs a process at the socket's other end: `MPI_ERR_ARG` for a descriptor
//!   that is not a connected socket; none can lead to another MPI process here.

use crate::consts::*;
use crate::error::{Error, Result};
use crate::world::handle::Handle;
use crate::world::runtime::Runtime;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// Ports open now, and published service names with their port.
struct Names {
    ports: Vec<String>,
    next_port: u64,
    services: BTreeMap<String, String>,
}

static NAMES: Mutex<Names> = Mutex::new(Names {
    ports: Vec::new(),
    next_port: 0,
    services: BTreeMap::new(),
});

fn names() -> std::sync::MutexGuard<'static, Names> {
    NAMES.lock().unwrap_or_else(|p| p.into_inner())
}

fn check_port_name(port: &str) -> Result<()> {
    if port.is_empty() || port.len() >= MPI_MAX_PORT_NAME as usize {
        return Err(Error::invalid(
            MPI_ERR_PORT,
            format!(
                "port name of {} characters (1 to {} allowed)",
                port.len(),
                MPI_MAX_PORT_NAME - 1
            ),
        ));
    }
    Ok(())
}

fn check_service_name(service: &str) -> Result<()> {
    if service.is_empty() {
        return Err(Error::invalid(MPI_ERR_ARG, "service name is empty"));
    }
    Ok(())
}

impl Runtime {
    /// `MPI_Comm_get_parent`: this process was not spawned.
    pub fn comm_get_parent(&self) -> Result<Handle> {
        drop(self.active()?);
        Ok(Handle(MPI_COMM_NULL))
    }

    /// `MPI_Open_port`: a new port name, unique in this process.
    pub fn open_port(&self) -> Result<String> {
        drop(self.active()?);
        let mut n = names();
        n.next_port += 1;
        let name = format!("mpicache-port:{}:{}", std::process::id(), n.next_port);
        n.ports.push(name.clone());
        Ok(name)
    }

    /// `MPI_Close_port`.
    pub fn close_port(&self, port: &str) -> Result<()> {
        drop(self.active()?);
        check_port_name(port)?;
        let mut n = names();
        let i =
            n.ports.iter().position(|p| p == port).ok_or_else(|| {
                Error::invalid(MPI_ERR_PORT, format!("port {port:?} is not open"))
            })?;
        n.ports.remove(i);
        Ok(())
    }

    /// `MPI_Comm_accept` / `MPI_Comm_connect` (`accept` tells which) on `comm`, root 0.
    pub fn connect_or_accept(
        &self,
        port: &str,
        comm: Handle,
        root: i32,
        accept: bool,
    ) -> Result<Handle> {
        let size = self.comm_size(comm)?;
        if root < 0 || root >= size {
            return Err(Error::invalid(
                MPI_ERR_ROOT,
                format!("root {root} is not a rank of a communicator of size {size}"),
            ));
        }
        check_port_name(port)?;
        let open = names().ports.iter().any(|p| p == port);
        Err(Error::invalid(
            MPI_ERR_PORT,
            match (open, accept) {
                (false, _) => format!("port {port:?} is not open"),
                (true, true) => format!(
                    "no client can connect to port {port:?}: a single process has no other process"
                ),
                (true, false) => format!(
                    "no server accepts on port {port:?}: a single process has no other process"
                ),
            },
        ))
    }

    /// `MPI_Publish_name`: `port` is published under `service`.
    pub fn publish_name(&self, service: &str, port: &str) -> Result<()> {
        drop(self.active()?);
        check_service_name(service)?;
        check_port_name(port)?;
        let mut n = names();
        if n.services.contains_key(service) {
            return Err(Error::invalid(
                MPI_ERR_SERVICE,
                format!("service {service:?} is already published"),
            ));
        }
        n.services.insert(service.to_owned(), port.to_owned());
        Ok(())
    }

    /// `MPI_Unpublish_name`: `port` must be the one published under `service`.
    pub fn unpublish_name(&self, service: &str, port: &str) -> Result<()> {
        drop(self.active()?);
        check_service_name(service)?;
        let mut n = names();
        match n.services.get(service) {
            Some(p) if p == port => {
                n.services.remove(service);
                Ok(())
            }
            Some(_) => Err(Error::invalid(
                MPI_ERR_SERVICE,
                format!("service {service:?} is published with another port"),
            )),
            None => Err(Error::invalid(
                MPI_ERR_SERVICE,
                format!("service {service:?} is not published"),
            )),
        }
    }

    /// `MPI_Lookup_name`: the port published under `service`.
    pub fn lookup_name(&self, service: &str) -> Result<String> {
        drop(self.active()?);
        check_service_name(service)?;
        names().services.get(service).cloned().ok_or_else(|| {
            Error::invalid(
                MPI_ERR_NAME,
                format!("no service is published as {service:?}"),
            )
        })
    }

    /// `MPI_Comm_spawn(_multiple)` on `comm` with `root`: the arguments are checked, then no
    /// process can be started (the caller fills the error codes).
    pub fn spawn(&self, comm: Handle, root: i32, maxprocs: &[i32]) -> Result<()> {
        let size = self.comm_size(comm)?;
        if root < 0 || root >= size {
            return Err(Error::invalid(
                MPI_ERR_ROOT,
                format!("root {root} is not a rank of a communicator of size {size}"),
            ));
        }
        if let Some(m) = maxprocs.iter().find(|&&m| m <= 0) {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("maxprocs {m} is not positive"),
            ));
        }
        Err(Error::invalid(
            MPI_ERR_SPAWN,
            format!(
                "cannot start {} process(es): mpicache is a single-process MPI",
                maxprocs.iter().map(|&m| i64::from(m)).sum::<i64>()
            ),
        ))
    }

    /// `MPI_Comm_disconnect`: a free that first waits for pending communication on `comm`; with
    /// nothing in this process able to complete it (no other thread may, below
    /// `MPI_THREAD_MULTIPLE`), waiting would never end, and that is reported instead.
    pub fn comm_disconnect(&self, comm: Handle) -> Result<()> {
        loop {
            let st = self.active()?;
            st.comms.get(comm)?;
            if !st.p2p_pending_on(comm) {
                break;
            }
            if st.thread_level != MPI_THREAD_MULTIPLE {
                return Err(crate::world::p2p::deadlock(
                    "disconnecting a communicator with pending communication",
                ));
            }
            drop(st);
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        self.comm_free(comm)
    }
}
