//! Writes the `PMPI_*` twins of the C entry points (see build/pmpi_gen.rs) and the other
//! spellings and profiling forms of the Fortran entry points (see build/fortran_gen.rs).

#[path = "build/signatures.rs"]
mod signatures;

#[path = "build/pmpi_gen.rs"]
mod pmpi_gen;

#[path = "build/fortran_gen.rs"]
#[allow(dead_code)]
mod fortran_gen;

#[path = "build/fortran_bind.rs"]
#[allow(dead_code)]
mod fortran_bind;

#[path = "build/layer_gen.rs"]
mod layer_gen;

use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let capi = manifest.join("src/capi");
    println!("cargo:rerun-if-changed=src/capi");
    println!("cargo:rerun-if-changed=build/pmpi_gen.rs");
    let entries = pmpi_gen::parse_dir(&capi, "crate::capi");
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    std::fs::write(out_dir.join("pmpi.rs"), pmpi_gen::render(&entries)).unwrap();
    // Fortran: the one body of each routine is `mpi_xxx_`; the other spellings are generated.
    let fortran = manifest.join("src/fortran");
    println!("cargo:rerun-if-changed=src/fortran");
    println!("cargo:rerun-if-changed=build/fortran_gen.rs");
    println!("cargo:rerun-if-changed=build/fortran_bind.rs");
    let _ = &fortran;
    // Fortran bindings of the C routines without a hand-written one (build/fortran_bind.rs).
    let bindings = fortran_bind::bindings(&manifest);
    std::fs::write(
        out_dir.join("fortran_bindings.rs"),
        fortran_bind::render(&bindings),
    )
    .unwrap();
    let fentries = fortran_gen::all_entries(&manifest);
    std::fs::write(
        out_dir.join("fortran_twins.rs"),
        fortran_gen::render_twins(&fentries),
    )
    .unwrap();
    // The shared library carries its version in its soname; the layer (feature `layer`, issue
    // 17) is installed as libmpicache_layer.so, with its C part built by the engine's mpicc.
    let major = std::env::var("CARGO_PKG_VERSION_MAJOR").unwrap();
    let minor = std::env::var("CARGO_PKG_VERSION_MINOR").unwrap();
    if std::env::var_os("CARGO_FEATURE_LAYER").is_some() {
        layer_gen::build(&manifest, &out_dir);
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libmpicache_layer.so");
    } else {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libmpicache.so.{major}.{minor}");
    }
    // Calls inside the library (PMPI_X -> MPI_X, Fortran spellings -> their body) bind to the
    // library's own functions, so a program that wraps MPI_X and calls PMPI_X (the profiling
    // interface, MPI 4.1 §15.2) reaches the library, not itself.
    println!("cargo:rustc-cdylib-link-arg=-Wl,-Bsymbolic-functions");
    // The attribute getters have hand-written entry points
    // (src/caching/store/getters_x86_64.rs) with the feature `asm-getters` (default) where the target
    // is x86-64 with the System V calling convention and ELF sections.
    // The Fortran ones read 4-byte INTEGERs and LOGICALs, so not in the 8-byte INTEGER build.
    println!("cargo::rustc-check-cfg=cfg(mpicache_fast_get, mpicache_fast_get_fortran)");
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let asm = std::env::var_os("CARGO_FEATURE_ASM_GETTERS").is_some();
    if asm && arch == "x86_64" && os == "linux" {
        println!("cargo::rustc-cfg=mpicache_fast_get");
        if std::env::var_os("CARGO_FEATURE_FORTRAN_INTEGER_8").is_none() {
            println!("cargo::rustc-cfg=mpicache_fast_get_fortran");
        }
    }
}
