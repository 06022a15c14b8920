#!/usr/bin/env bash
# Builds and installs the 8-byte Fortran INTEGER variant of mpicache, for programs compiled
# with -fdefault-integer-8:
#
#   ci/install_ilp64.sh --prefix DIR
#
# The library is built with the cargo feature fortran-integer-8 (MPI_Fint and MPI_Flogical of
# 8 bytes in every Fortran entry point and callback) into its own target directory
# (CARGO_TARGET_DIR, default target/ilp64, so the default build is not overwritten) and
# installed by ci/install.sh --features fortran-integer-8; ci/install_fortran.sh then compiles
# mpif.h's constants, the mpi and mpi_f08 modules with -fdefault-integer-8
# (MPICACHE_FORTRAN_INTEGER_SIZE=8, MPI_INTEGER_KIND = 8) and writes
# DIR/share/mpicache/fortran_integer.conf
# (fortran_integer_size=8). mpifort, mpif90 and mpif77 add -fdefault-integer-8 themselves.
# The C interface (mpi.h, MPI_Fint = int) is the default one.
set -euo pipefail
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
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target/ilp64}
export MPICACHE_FORTRAN_INTEGER_SIZE=8

bash "$root/ci/install.sh" --prefix "$prefix" --features fortran-integer-8

[ -f "$prefix/include/mpi_f08.mod" ] || { echo "$0: the Fortran half was not installed (the 8-byte INTEGER build is for Fortran: a Fortran compiler is needed)" >&2; exit 1; }
grep -qx 'fortran_integer_size=8' "$prefix/share/mpicache/fortran_integer.conf" \
    || { echo "$0: the modules were not built for 8-byte INTEGER" >&2; exit 1; }

# The Fortran wrappers add -fdefault-integer-8: the real ones move to libexec/mpicache.
mkdir -p "$prefix/libexec/mpicache"
for name in mpifort mpif90 mpif77; do
    [ -e "$prefix/bin/$name" ] || continue
    mv -f "$prefix/bin/$name" "$prefix/libexec/mpicache/$name"
    {
        echo '#!/bin/sh'
        echo "# $name for the 8-byte Fortran INTEGER build of mpicache (ci/install_ilp64.sh)."
        printf 'exec %q -fdefault-integer-8 "$@"\n' "$prefix/libexec/mpicache/$name"
    } > "$prefix/bin/.$name.tmp"
    chmod 0755 "$prefix/bin/.$name.tmp"
    mv -f "$prefix/bin/.$name.tmp" "$prefix/bin/$name"
done
echo "mpicache (8-byte Fortran INTEGER) installed in $prefix"
