#!/usr/bin/env bash
# The test command: `bash ci/test.sh` (also what .ci/run calls).
#
# On a fresh Debian machine it installs what the tests need (a C compiler, gfortran, valgrind,
# MPICH and Open MPI for the layer, and MPICH 5 from PyPI into target/mpich5 for its mpi_abi.h
# and the layer over the MPI 5.0 ABI), then runs the whole workspace's tests
# in release mode: unit tests, the mpi.h freshness test, the C programs of tests/c (built with
# the installed mpicc, run plainly and under valgrind), the Fortran programs and the comparison
# of every constant with the MPI 5.0 ABI. Exits non-zero on any failure.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# --- tools ---------------------------------------------------------------------------------
missing=()
command -v cc >/dev/null 2>&1 || missing+=(gcc libc6-dev)
command -v gfortran >/dev/null 2>&1 || missing+=(gfortran)
command -v valgrind >/dev/null 2>&1 || missing+=(valgrind)
for t in cmake pkg-config; do command -v $t >/dev/null 2>&1 || missing+=($t); done
# The engines the layer runs over (issue 17; tests/layer_smoke.rs, tests/layer_programs.rs): Debian's MPICH and Open MPI.
command -v mpicc.mpich >/dev/null 2>&1 || missing+=(mpich libmpich-dev)
command -v mpicc.openmpi >/dev/null 2>&1 || missing+=(openmpi-bin libopenmpi-dev)
# python3 with venv and pip, for MPICH 5 below.
command -v python3 >/dev/null 2>&1 || missing+=(python3)
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || missing+=(python3-venv)
if [ ${#missing[@]} -gt 0 ]; then
    echo "ci/test.sh: installing ${missing[*]}"
    sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        sudo=(sudo)
    fi
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update
    "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi
command -v cargo >/dev/null 2>&1 || {
    echo "ci/test.sh: cargo is not installed (https://rustup.rs)" >&2
    exit 1
}

# --- MPICH 5, for its mpi_abi.h --------------------------------------------------------------
# tests/abi_constants.rs compares every constant with the published MPI 5.0 ABI, as MPICH 5's
# mpi_abi.h (PyPI package `mpich`, pinned so the reference does not move) defines it. Installed
# once into target/mpich5; if PyPI cannot be reached, that test fails and says why.
mpich5="$root/target/mpich5"
if [ ! -f "$mpich5/include/mpi_abi.h" ]; then
    echo "ci/test.sh: installing MPICH 5 (pip install mpich==5.0.2) into $mpich5"
    rm -rf "$mpich5"
    if ! { python3 -m venv "$mpich5" && "$mpich5/bin/pip" install --quiet mpich==5.0.2; }; then
        echo "ci/test.sh: could not install MPICH 5 from PyPI: tests/abi_constants.rs will fail" >&2
    fi
fi
export MPICACHE_MPICH5="$mpich5"

# --- tests ---------------------------------------------------------------------------------
# valgrind is installed now: the C program tests must not skip their valgrind runs.
export MPICACHE_REQUIRE_VALGRIND=1
# The engines are installed now: the layer's tests must not skip one.
export MPICACHE_REQUIRE_ENGINES=1
# --no-fail-fast: run every test binary and report every failure, not only the first.
cargo test --release --workspace --no-fail-fast
# The getters both ways (issue 16): the tests above ran the hand-written x86-64 getters (feature
# asm-getters, on by default); these run the portable Rust getters through the same checks.
cargo test --release --no-default-features --features test-hooks --test fast_get --test get_path
echo "ci/test.sh: all tests passed"
