#!/bin/sh
# Builds and runs the C/Fortran attribute handoff demo (examples/fortran/) with the installed
# wrappers:  ci/demo_fortran.sh --prefix DIR   (after ci/install.sh --prefix DIR)
set -eu
[ "${1:-}" = --prefix ] && [ $# -ge 2 ] || { echo "usage: $0 --prefix DIR" >&2; exit 2; }
prefix=$(cd "$2" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/mpicache-demo-fortran.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
"$prefix/bin/mpicc" -c "$root/examples/fortran/handoff_c.c" -o "$work/handoff_c.o"
"$prefix/bin/mpifort" "$root/examples/fortran/handoff.f90" "$work/handoff_c.o" -o "$work/handoff"
# gfortran and C buffer stdout separately: unbuffer both so the lines interleave in order.
GFORTRAN_UNBUFFERED_PRECONNECTED=y stdbuf -o0 "$work/handoff"
