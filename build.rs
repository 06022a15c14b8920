//! Writes the `PMPI_*` twins of the C entry points (see build/pmpi_gen.rs).

#[path = "build/pmpi_gen.rs"]
mod pmpi_gen;

use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let capi = manifest.join("src/capi");
    println!("cargo:rerun-if-changed=src/capi");
    println!("cargo:rerun-if-changed=build/pmpi_gen.rs");
    let entries = pmpi_gen::parse_dir(&capi, "crate::capi");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("pmpi.rs");
    std::fs::write(out, pmpi_gen::render(&entries)).unwrap();
    // The shared library carries its version in its soname.
    let major = std::env::var("CARGO_PKG_VERSION_MAJOR").unwrap();
    let minor = std::env::var("CARGO_PKG_VERSION_MINOR").unwrap();
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libmpicache.so.{major}.{minor}");
}
