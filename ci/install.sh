#!/usr/bin/env bash
# Builds mpicache and installs it under a prefix:
#
#   ci/install.sh --prefix DIR [--profile release|debug] [--features LIST]
#   ci/install.sh --prefix DIR --over mpich|openmpi|PATH_TO_ENGINE_MPICC   (ci/install_layer.sh)
#
# DIR/lib/libmpicache.so.X.Y.Z (+ the soname link libmpicache.so.X.Y and libmpicache.so),
# DIR/lib/libmpicache.a, DIR/include/mpi.h and DIR/bin/mpicc (a wrapper with DIR baked in).
# Then the Fortran half (ci/install_fortran.sh, same --prefix) when a Fortran compiler is found
# (MPICACHE_FC, else gfortran); without one, a warning and a C-only installation.
# --features: cargo features of the library (comma-separated), such as fortran-integer-8 (what
# ci/install_ilp64.sh builds). MPICACHE_INSTALL_FEATURES adds features to every installation
# made while it is set: the tests set it to test-hooks, so that their installations (this script
# run by tests/common/mod.rs and by ci/conformance.sh) reuse the library `cargo test` built.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# With --over ENGINE: the caching layer over that MPI instead (ci/install_layer.sh).
for arg in "$@"; do
    case $arg in
        --over|--over=*) exec bash "$(dirname "$0")/install_layer.sh" "$@" ;;
    esac
done

usage() {
    echo "usage: $0 --prefix DIR [--profile release|debug] [--features LIST]" >&2
    exit 2
}

prefix=""
profile=release
features=""
while [ $# -gt 0 ]; do
    case $1 in
        --prefix) [ $# -ge 2 ] || usage; prefix=$2; shift 2 ;;
        --prefix=*) prefix=${1#--prefix=}; shift ;;
        --profile) [ $# -ge 2 ] || usage; profile=$2; shift 2 ;;
        --profile=*) profile=${1#--profile=}; shift ;;
        --features) [ $# -ge 2 ] || usage; features=$2; shift 2 ;;
        --features=*) features=${1#--features=}; shift ;;
        -h|--help) usage ;;
        *) echo "$0: unknown argument: $1" >&2; usage ;;
    esac
done
[ -n "$prefix" ] || usage
case $profile in
    release) cargo_flags=(--release); outdir=release ;;
    debug) cargo_flags=(); outdir=debug ;;
    *) echo "$0: --profile must be release or debug" >&2; exit 2 ;;
esac
features=${MPICACHE_INSTALL_FEATURES:+$MPICACHE_INSTALL_FEATURES${features:+,}}$features
[ -z "$features" ] || cargo_flags+=(--features "$features")

cd "$root"

mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)

# The version (and the soname, see build.rs) comes from Cargo.toml's [package] version.
version=$(crate_version)
[ -n "$version" ] || { echo "$0: cannot read the version from Cargo.toml" >&2; exit 1; }
major=${version%%.*}
rest=${version#*.}
minor=${rest%%.*}
soname="libmpicache.so.$major.$minor"

"${CARGO:-cargo}" build --lib --bin mpicache-info "${cargo_flags[@]}"

target_dir=${CARGO_TARGET_DIR:-$root/target}
built="$target_dir/$outdir"
for f in libmpicache.so libmpicache.a mpicache-info; do
    [ -f "$built/$f" ] || { echo "$0: $built/$f was not built" >&2; exit 1; }
done

mkdir -p "$prefix/lib" "$prefix/include" "$prefix/bin"
# Install through a temporary name and rename, so a running program never sees a torn file.
install_file 0755 "$built/libmpicache.so" "$prefix/lib/libmpicache.so.$version"
ln -sfn "libmpicache.so.$version" "$prefix/lib/$soname"
ln -sfn "$soname" "$prefix/lib/libmpicache.so"
install -m 0644 include/mpi.h "$prefix/include/mpi.h"

# The static library for the profiling interface (MPI 4.1 §15.2): a program that defines its own
# MPI_X and calls PMPI_X must link against libmpicache.a too. The library's MPI_X definitions are
# renamed mpicache_MPI_X (the library's own calls, PMPI_X -> MPI_X included, follow the rename, so
# they always reach the library), and a small object of weak MPI_X trampolines that jump to
# mpicache_MPI_X is added: a user's strong MPI_X wins over the weak one, and PMPI_X still reaches
# the library. Only routine names (MPI_Comm_dup, not MPI_COMM_DUP_FN nor the Fortran spellings)
# are touched. (This is what -Wl,-Bsymbolic-functions does for the shared library, see build.rs.)
tmp_a=$(mktemp -d "${TMPDIR:-/tmp}/mpicache-static.XXXXXX")
trap 'rm -rf "$tmp_a"' EXIT
nm --defined-only "$built/libmpicache.a" 2>/dev/null \
    | awk '$2 == "T" && $3 ~ /^MPI_[A-Z][a-z]/ { print $3 }' | sort -u > "$tmp_a/routines"
[ -s "$tmp_a/routines" ] || { echo "$0: no MPI_ routines found in $built/libmpicache.a" >&2; exit 1; }
awk '{ print $1 " mpicache_" $1 }' "$tmp_a/routines" > "$tmp_a/renames"
case $(uname -m) in
    x86_64|i?86) jump=jmp ;;
    aarch64|arm64) jump=b ;;
    *) jump="" ;;
esac
if [ -n "$jump" ]; then
    {
        echo '    .text'
        while read -r sym; do
            printf '    .weak %s\n    .type %s, @function\n    .p2align 4\n%s:\n    %s mpicache_%s\n    .size %s, .-%s\n' \
                "$sym" "$sym" "$sym" "$jump" "$sym" "$sym" "$sym"
        done < "$tmp_a/routines"
        echo '    .section .note.GNU-stack,"",@progbits'
    } > "$tmp_a/mpicache_weak.s"
    cc -c -o "$tmp_a/mpicache_weak_mpi.o" "$tmp_a/mpicache_weak.s"
    # The embedded LLVM bitcode (.llvmbc) goes: binutils' LTO plugin cannot read rustc's, and ar
    # would then leave the standard library's symbols out of the archive index.
    objcopy --remove-section=.llvmbc --remove-section=.llvmcmd \
        --redefine-syms="$tmp_a/renames" "$built/libmpicache.a" "$tmp_a/libmpicache.a"
    ar qs "$tmp_a/libmpicache.a" "$tmp_a/mpicache_weak_mpi.o"
else
    # Unknown architecture: plain weak symbols (PMPI_X of a routine the library calls internally
    # may then reach the user's MPI_X).
    objcopy --wildcard --weaken-symbol='MPI_[A-Z][a-z]*' "$built/libmpicache.a" "$tmp_a/libmpicache.a"
fi
install_file 0644 "$tmp_a/libmpicache.a" "$prefix/lib/libmpicache.a"

# What a static link of the Rust library needs from the system (rustc --print native-static-libs).
native_libs="-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc"
cc_default=$(find_cc)

# mpicc, from the wrapper template shared with mpifort.
subst ci/wrappers/wrapper.in "$prefix/bin/.mpicc" \
    PREFIX="$(shq "$prefix")" NAME=mpicc VERSION="$version" LANG=C ENVVAR=MPICACHE_CC \
    DEFAULT="$(shq "$cc_default")" SELECT=-cc= SELECT2=-cc= SELECT3=-cc= \
    SHARED_LIBS=-lmpicache STATIC_ARCHIVES=libmpicache.a NATIVE_LIBS="$native_libs" LANG_FLAGS=
chmod 0755 "$prefix/bin/.mpicc"
mv -f "$prefix/bin/.mpicc" "$prefix/bin/mpicc"

# mpiexec and mpirun.
subst ci/mpiexec.in "$prefix/bin/.mpiexec" VERSION="$version"
chmod 0755 "$prefix/bin/.mpiexec"
mv -f "$prefix/bin/.mpiexec" "$prefix/bin/mpiexec"
ln -sfn mpiexec "$prefix/bin/mpirun"

# mpicache-info and its configuration (what this installation was really made with).
install_file 0755 "$built/mpicache-info" "$prefix/bin/mpicache-info"
mkdir -p "$prefix/share/mpicache"
cc_path=$(command -v "$cc_default" 2>/dev/null || echo "$cc_default")
cc_version=$("$cc_default" --version 2>/dev/null | head -n1 || true)
{
    echo "# Written by ci/install.sh: read by mpicache-info."
    echo "prefix=$prefix"
    echo "profile=$profile"
    echo "features=${features:-none}"
    echo "c_compiler=$cc_default ($cc_path)"
    echo "c_compiler_version=${cc_version:-unknown}"
    echo "include_dir=$prefix/include"
    echo "lib_dir=$prefix/lib"
} > "$prefix/share/mpicache/.install.conf.tmp"
mv -f "$prefix/share/mpicache/.install.conf.tmp" "$prefix/share/mpicache/install.conf"

# pkg-config: mpicache.pc (C) now, mpicache-fort.pc after the Fortran half.
mkdir -p "$prefix/lib/pkgconfig"
subst ci/pkgconfig/mpicache.pc.in "$prefix/lib/pkgconfig/mpicache.pc" \
    PREFIX="$prefix" VERSION="$version" NATIVE_LIBS="$native_libs"

echo "mpicache $version installed in $prefix ($profile)"

# The Fortran half (mpif.h, the mpi module, mpifort) is installed by its own script, when there
# is a Fortran compiler; without one the installation is C-only.
if [ -z "$(find_fc)" ]; then
    echo "$0: warning: no Fortran compiler (${MPICACHE_FC:-gfortran}) found: C-only installation (no mpifort, mpif.h or mpi module)" >&2
elif [ -x ci/install_fortran.sh ]; then
    bash ci/install_fortran.sh --prefix "$prefix"
    if [ -f "$prefix/include/mpi.mod" ]; then
        fort_libs="-lmpicache"
        [ -f "$prefix/lib/libmpicache_f.a" ] && fort_libs="-lmpicache_f -lmpicache"
        subst ci/pkgconfig/mpicache-fort.pc.in "$prefix/lib/pkgconfig/mpicache-fort.pc" \
            PREFIX="$prefix" VERSION="$version" LIBS="$fort_libs" NATIVE_LIBS="$native_libs"
    fi
fi
