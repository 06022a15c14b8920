//! include/mpi.h is an artifact under test: regenerating it with the pinned cbindgen from
//! src/consts.rs, src/capi and the generated PMPI twins must give the checked-in file.
//! Regenerate with `MPICACHE_BLESS=1 cargo test --test header`.

#[path = "../build/signatures.rs"]
#[allow(dead_code)]
mod signatures;

#[path = "../build/pmpi_gen.rs"]
#[allow(dead_code)]
mod pmpi_gen;

use std::path::{Path, PathBuf};

fn generate() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let capi = root.join("src/capi");
    let pmpi = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pmpi_for_header.rs");
    std::fs::write(
        &pmpi,
        pmpi_gen::render(&pmpi_gen::parse_dir(&capi, "crate::capi")),
    )
    .unwrap();
    let config = cbindgen::Config::from_file(root.join("cbindgen.toml")).unwrap();
    let fragment = std::fs::read_to_string(root.join("include/mpi_fragment.h")).unwrap();
    // capi/mod.rs leads cbindgen to every entry-point module.
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_after_include(fragment)
        .with_src(root.join("src/consts.rs"))
        .with_src(capi.join("mod.rs"))
        .with_src(&pmpi)
        .generate()
        .expect("cbindgen");
    let mut out = Vec::new();
    bindings.write(&mut out);
    String::from_utf8(out).unwrap()
}

#[test]
fn mpi_h_is_fresh() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("include/mpi.h");
    let generated = generate();
    if std::env::var_os("MPICACHE_BLESS").is_some() {
        std::fs::write(&path, &generated).unwrap();
        return;
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        generated == checked_in,
        "include/mpi.h is stale: run `MPICACHE_BLESS=1 cargo test --test header` and commit it"
    );
}
