#!/usr/bin/env bash
# Builds mpicache, installs it in ./_install and builds and runs the examples with the installed
# wrappers, as a user would:
#
#   bash ci/demo.sh
# Without a Fortran compiler ci/install.sh makes a C-only installation and the Fortran half is
# skipped.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"
prefix="$root/_install"

bash ci/install.sh --prefix "$prefix"

mkdir -p _build
echo
echo "== C: examples/c/demo.c =="
"$prefix/bin/mpicc" -show -Wall -Wextra -std=c99 examples/c/demo.c -o _build/demo_c
"$prefix/bin/mpicc" -Wall -Wextra -std=c99 examples/c/demo.c -o _build/demo_c
./_build/demo_c

# ---- FORTRAN HALF: built and run by ci/demo_fortran.sh ------------------------------------
# ci/install.sh installed "$prefix/bin/mpifort" (through ci/install_fortran.sh) when a Fortran
# compiler is present; the demo builds examples/fortran/ with it and prints the writer x reader
# table as observed.
echo
echo "== Fortran: examples/fortran/handoff.f90 + handoff_c.c =="
if [ -x "$prefix/bin/mpifort" ]; then
    bash ci/demo_fortran.sh --prefix "$prefix"
else
    echo "(no Fortran compiler: $prefix/bin/mpifort was not installed, Fortran half skipped)"
fi
# ---- end of the Fortran half ---------------------------------------------------------------
