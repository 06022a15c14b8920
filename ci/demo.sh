#!/usr/bin/env bash
# Builds mpicache, installs it in ./_install and builds and runs the examples with the installed
# wrappers, as a user would; then, when Open MPI or MPICH is installed, the layer over it with
# the C/Fortran hand-off on 4 processes (./_install_layer):
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

# ---- MANY PROCESSES: the layer over an engine MPI (issue 17) --------------------------------
# When Open MPI or MPICH is installed (Open MPI first: alone, its Fortran delete callbacks get
# the wrong handle, which the layer puts right), the layer is installed over it in
# ./_install_layer and examples/layer/handoff_mp.f90 + handoff_mp_c.c run on 4 processes: each
# rank sets its own value from Fortran, MPI_COMM_DUP_FN copies it, C reads the copy after the
# original is freed and frees the dup, whose Fortran delete callback sees the dup's handle. The
# same program built with the engine's own wrappers follows, for comparison.
echo
echo "== Many processes: examples/layer/handoff_mp.f90 + handoff_mp_c.c on 4 processes =="
engine=""
for e in openmpi mpich; do
    if command -v "mpicc.$e" >/dev/null 2>&1 && command -v "mpifort.$e" >/dev/null 2>&1; then
        engine=$e
        break
    fi
done
if [ -z "$engine" ]; then
    echo "(neither Open MPI nor MPICH is installed: skipped; apt-get install libopenmpi-dev openmpi-bin)"
    exit 0
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
layer="$root/_install_layer"
bash ci/install.sh --prefix "$layer" --over "$engine"
mkdir -p _build/layer _build/alone
"$layer/bin/mpicc" -c examples/layer/handoff_mp_c.c -o _build/layer/handoff_mp_c.o
(cd _build/layer && "$layer/bin/mpifort" "$root/examples/layer/handoff_mp.f90" handoff_mp_c.o -o handoff_mp)
"$layer/bin/mpicache-info"
echo "-- through the layer: $layer/bin/mpiexec -n 4 _build/layer/handoff_mp"
"$layer/bin/mpiexec" -n 4 _build/layer/handoff_mp
"mpicc.$engine" -c examples/layer/handoff_mp_c.c -o _build/alone/handoff_mp_c.o
(cd _build/alone && "mpifort.$engine" "$root/examples/layer/handoff_mp.f90" handoff_mp_c.o -o handoff_mp)
echo "-- $engine alone (built with mpifort.$engine):"
"$layer/bin/mpiexec" -n 4 _build/alone/handoff_mp
