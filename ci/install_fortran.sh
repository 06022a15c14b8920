#!/usr/bin/env bash
# Installs the Fortran half of mpicache under a prefix where ci/install.sh has installed the
# library (ci/install.sh calls this at its end; it also runs on its own afterwards):
#
#   ci/install_fortran.sh --prefix DIR
#
# DIR/include/mpif.h, DIR/include/mpi.mod and mpi_f08.mod (the `mpi` and `mpi_f08` modules,
# compiled with the Fortran compiler the wrapper uses), DIR/lib/libmpicache_f.a (the modules'
# objects, linked by the wrapper), DIR/share/mpicache/fortran_integer.conf, and
# DIR/bin/mpifort with mpif90 and mpif77 as links to it.
set -eu
. "$(dirname "$0")/lib.sh"

usage() {
    echo "usage: $0 --prefix DIR" >&2
    exit 2
}

prefix=""
while [ $# -gt 0 ]; do
    case $1 in
        --prefix) [ $# -ge 2 ] || usage; prefix=$2; shift 2 ;;
        --prefix=*) prefix=${1#--prefix=}; shift ;;
        -h|--help) usage ;;
        *) echo "$0: unknown argument: $1" >&2; usage ;;
    esac
done
[ -n "$prefix" ] || usage

mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
fc=$(find_fc)

if [ -z "$fc" ]; then
    echo "$0: Fortran compiler '${MPICACHE_FC:-gfortran}' not found: the Fortran half is not installed" >&2
    exit 1
fi
if [ ! -e "$prefix/lib/libmpicache.so" ]; then
    echo "$0: $prefix/lib/libmpicache.so is missing: run ci/install.sh --prefix $prefix first" >&2
    exit 1
fi

mkdir -p "$prefix/include" "$prefix/lib" "$prefix/bin"
build=$(mktemp -d "${TMPDIR:-/tmp}/mpicache-fortran.XXXXXX")
trap 'rm -rf "$build"' EXIT INT TERM

# The Fortran INTEGER size the installation is for: 4, or 8 for programs compiled with
# -fdefault-integer-8 (ci/install_ilp64.sh sets MPICACHE_FORTRAN_INTEGER_SIZE=8 after building
# the library with the cargo feature fortran-integer-8). The modules are then compiled with
# -fdefault-integer-8 and MPI_INTEGER_KIND says 8.
int_size=${MPICACHE_FORTRAN_INTEGER_SIZE:-4}
case $int_size in
    4) int_flags="" ;;
    8) int_flags="-fdefault-integer-8" ;;
    *) echo "$0: MPICACHE_FORTRAN_INTEGER_SIZE must be 4 or 8" >&2; exit 2 ;;
esac
for f in mpif.h mpi.f90 mpi_f08.f90; do
    sed "s/MPI_INTEGER_KIND *= *4\b/MPI_INTEGER_KIND=$int_size/" "$root/fortran/$f" > "$build/$f"
done

# The mpi and mpi_f08 modules: mpi.mod and mpi_f08.mod go to include/, their objects (the
# mpi_f08 module procedures) to lib/libmpicache_f.a.
# shellcheck disable=SC2086
"$fc" -c -O2 -fPIC $int_flags -J "$build" -o "$build/mpi.o" "$build/mpi.f90"
# shellcheck disable=SC2086
"$fc" -c -O2 -fPIC $int_flags -J "$build" -o "$build/mpi_f08.o" "$build/mpi_f08.f90"
for m in mpi.mod mpi_f08.mod; do
    install_file 0644 "$build/$m" "$prefix/include/$m"
done
rm -f "$build/libmpicache_f.a"
ar rcs "$build/libmpicache_f.a" "$build/mpi.o" "$build/mpi_f08.o"
install_file 0644 "$build/libmpicache_f.a" "$prefix/lib/libmpicache_f.a"
install_file 0644 "$build/mpif.h" "$prefix/include/mpif.h"
# The INTEGER size, for mpicache-info.
mkdir -p "$prefix/share/mpicache"
{
    echo "# Written by ci/install_fortran.sh: the Fortran INTEGER (and LOGICAL) size in bytes."
    echo "fortran_integer_size=$int_size"
} > "$prefix/share/mpicache/.fortran_integer.conf.tmp"
mv -f "$prefix/share/mpicache/.fortran_integer.conf.tmp" "$prefix/share/mpicache/fortran_integer.conf"

# The wrappers mpifort, mpif90, mpif77, from the template shared with mpicc
# (ci/wrappers/wrapper.in); the default compiler is the one mpi.mod was just compiled with.
# Plus share/mpicache/fortran.conf, which mpicache-info reads.
# gfortran 10 and later reject a routine without explicit interface (the choice-buffer ones:
# MPI_BCAST, MPI_REDUCE, ...) called with different argument types in one file; MPICH's mpifort
# passes -fallow-argument-mismatch for that, and so does ours when the compiler accepts it.
fc_lang_flags=
if printf '      end\n' > "$build/probe.f" &&
    "$fc" -fallow-argument-mismatch -c "$build/probe.f" -o "$build/probe.o" >/dev/null 2>&1; then
    fc_lang_flags=-fallow-argument-mismatch
fi
version=$(crate_version)
for name in mpifort mpif90 mpif77; do
    subst "$root/ci/wrappers/wrapper.in" "$prefix/bin/.$name.tmp" \
        PREFIX="$(shq "$prefix")" NAME=$name VERSION="$version" LANG=Fortran ENVVAR=MPICACHE_FC \
        DEFAULT="$(shq "$fc")" SELECT=-fc= SELECT2=-f90= SELECT3=-f77= \
        SHARED_LIBS="-lmpicache_f -lmpicache" STATIC_ARCHIVES="libmpicache_f.a libmpicache.a" \
        NATIVE_LIBS="-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc" LANG_FLAGS="$fc_lang_flags"
    chmod 0755 "$prefix/bin/.$name.tmp"
    mv -f "$prefix/bin/.$name.tmp" "$prefix/bin/$name"
done
mkdir -p "$prefix/share/mpicache"
{
    echo "# Written by ci/install_fortran.sh: read by mpicache-info."
    echo "fortran_compiler=$fc ($(command -v "$fc"))"
    echo "fortran_compiler_version=$("$fc" --version 2>/dev/null | head -n1)"
    echo "module_dir=$prefix/include"
} > "$prefix/share/mpicache/.fortran.conf.tmp"
mv -f "$prefix/share/mpicache/.fortran.conf.tmp" "$prefix/share/mpicache/fortran.conf"

echo "mpicache Fortran bindings installed in $prefix ($fc)"
