#!/usr/bin/env bash
# The test command: `bash ci/test.sh` (also what .ci/run calls).
#
# On a fresh Debian machine it installs what the tests need (a C compiler, gfortran and valgrind),
# then runs the whole workspace's tests in release mode: unit tests, the mpi.h freshness test,
# the C programs of tests/c (built with the installed mpicc, run plainly and under valgrind) and
# the Fortran programs. Exits non-zero on any failure.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# --- tools ---------------------------------------------------------------------------------
missing=()
command -v cc >/dev/null 2>&1 || missing+=(gcc libc6-dev)
command -v gfortran >/dev/null 2>&1 || missing+=(gfortran)
command -v valgrind >/dev/null 2>&1 || missing+=(valgrind)
for t in cmake pkg-config; do command -v $t >/dev/null 2>&1 || missing+=($t); done
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

# --- tests ---------------------------------------------------------------------------------
# valgrind is installed now: the C program tests must not skip their valgrind runs.
export MPICACHE_REQUIRE_VALGRIND=1
# --no-fail-fast: run every test binary and report every failure, not only the first.
cargo test --release --workspace --no-fail-fast
echo "ci/test.sh: all tests passed"
