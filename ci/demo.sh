#!/usr/bin/env bash
# Builds mpicache, installs it in ./_install and builds and runs the examples with the installed
# wrappers, as a user would:
#
#   bash ci/demo.sh
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
prefix="$root/_install"

bash ci/install.sh --prefix "$prefix"

mkdir -p _build
echo
echo "== C: examples/c/demo.c =="
"$prefix/bin/mpicc" -show -Wall -Wextra -std=c99 examples/c/demo.c -o _build/demo_c
"$prefix/bin/mpicc" -Wall -Wextra -std=c99 examples/c/demo.c -o _build/demo_c
./_build/demo_c

# ---- FORTRAN HALF: the Fortran demo goes here --------------------------------------------
# Once ci/install_fortran.sh installs "$prefix/bin/mpifort", build and run examples/fortran/
# here the same way as the C demo above.
# ---- end of the Fortran half ---------------------------------------------------------------
