#!/usr/bin/env bash
# The test command: `bash ci/test.sh` (also what .ci/run calls), or `bash ci/test.sh --quick`.
#
# Full (default): on a fresh Debian machine it installs what the tests need (a C compiler,
# gfortran, valgrind, cmake, pkg-config, MPICH and Open MPI for the layer, and MPICH 5 from PyPI
# into target/mpich5 for its mpi_abi.h and the layer over the MPI 5.0 ABI), then runs every test
# in release mode: unit tests, the mpi.h freshness test, the C programs of tests/c (built with
# the installed mpicc, run plainly and under valgrind), the Fortran programs, the comparison of
# every constant with the MPI 5.0 ABI, the layer over each engine at 1, 2 and 4 processes, and
# the getter tests with the portable Rust getters, after clippy with every warning denied.
# Exits non-zero on any failure.
#
# --quick: the edit loop (under a minute after one edit on 2 cores, once target/quick is built):
# the unit tests, the getters against the Rust path (tests/fast_get.rs), the randomized model
# test (tests/model_random.rs), the get path's allocations (tests/get_path.rs), the layering and
# import-cycle check (tests/engine_imports.rs) and mpi.h's freshness (tests/header.rs). No
# installation, no C or Fortran program, no valgrind, nothing installed from the network.
# Built in the `quick` profile (release code, incremental): the full run is the gate.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"

quick=no
while [ $# -gt 0 ]; do
    case $1 in
        --quick) quick=yes; shift ;;
        -h|--help) echo "usage: $0 [--quick]" >&2; exit 2 ;;
        *) echo "$0: unknown argument: $1" >&2; exit 2 ;;
    esac
done

command -v cargo >/dev/null 2>&1 || {
    echo "ci/test.sh: cargo is not installed (https://rustup.rs)" >&2
    exit 1
}

if [ "$quick" = yes ]; then
    # One cargo invocation in the `quick` profile (Cargo.toml: release code generation,
    # incremental, no debug info, its own target/quick): an edit recompiles what it touched.
    cargo test --profile quick --lib --test fast_get --test model_random --test get_path \
        --test engine_imports --test header
    echo "ci/test.sh --quick: all tests passed"
    exit 0
fi

# --- tools ---------------------------------------------------------------------------------
# python3 with venv and pip, for MPICH 5 below.
# The engines the layer runs over (issue 17): Debian's MPICH and Open MPI.
need_tools cc="gcc libc6-dev" gfortran=gfortran valgrind=valgrind cmake=cmake \
    pkg-config=pkg-config python3=python3 mpicc.mpich="mpich libmpich-dev" \
    mpicc.openmpi="openmpi-bin libopenmpi-dev"
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || apt_install python3-venv

# --- MPICH 5, for its mpi_abi.h --------------------------------------------------------------
# tests/programs/abi_constants.rs compares every constant with the published MPI 5.0 ABI, as
# MPICH 5's mpi_abi.h (PyPI package `mpich`, pinned so the reference does not move) defines it.
# Installed once into target/mpich5; if PyPI cannot be reached, that test fails and says why.
mpich5_venv

# --- lints ---------------------------------------------------------------------------------
# Every warning is an error, and src/lib.rs denies `unsafe` without its `// SAFETY:` line and
# public `unsafe fn` without `# Safety` (issue 16). Checking only: no code is generated.
if cargo clippy --version >/dev/null 2>&1; then
    cargo clippy --release --all-targets -- -D warnings
    # The layer (feature `layer`, src/layer) under the same lints, over each engine: its code
    # differs by engine (int or pointer handles, Fortran or not). In the target directories
    # ci/install.sh --over builds it in, so the tests' builds reuse the check's dependencies.
    for engine_cc in "$(command -v mpicc.mpich)" "$(command -v mpicc.openmpi)" \
        "$root/target/mpich5/bin/mpicc_abi"; do
        id=$(printf '%s' "$engine_cc" | tr -c 'A-Za-z0-9_.\n-' '_' | sed 's/^_*//')
        case $engine_cc in *mpicc.mpich) id=mpich ;; *mpicc.openmpi) id=openmpi ;; esac
        MPICACHE_ENGINE_MPICC=$engine_cc cargo clippy --release --lib --features layer \
            --target-dir "$root/target/layer/$id" -- -D warnings
    done
else
    echo "ci/test.sh: clippy is not installed (rustup component add clippy)" >&2
    exit 1
fi

# --- tests ---------------------------------------------------------------------------------
# valgrind is installed now: the C program tests must not skip their valgrind runs.
export MPICACHE_REQUIRE_VALGRIND=1
# The engines are installed now: the layer's tests must not skip one.
export MPICACHE_REQUIRE_ENGINES=1
# --no-fail-fast: run every test binary and report every failure, not only the first.
cargo test --release --workspace --no-fail-fast
# The getters both ways (issue 16): the tests above ran the hand-written x86-64 getters (feature
# asm-getters, on by default); these run the portable Rust getters through the same checks. In a
# target directory of their own: the library's artifacts carry no feature hash, so building this
# variant in target/release would replace the default one and the next run would rebuild it.
CARGO_TARGET_DIR="$root/target/portable" cargo test --release --no-default-features \
    --features test-hooks --test fast_get --test get_path
echo "ci/test.sh: all tests passed"
