#!/usr/bin/env bash
# Builds a real MPI client against the installed mpicache and runs its own tests:
#
#   ci/clients.sh mpi4py [--all] [--modules "test_a test_b"] [--no-build] [--keep-going]
#   ci/clients.sh mpi4py --over mpich|openmpi|PATH_TO_ENGINE_MPICC [--procs "1 2"] [--no-build]
#
# With --over, the client is built over an engine through the layer and runs its whole suite
# on many processes (issue 17): ci/clients_over.sh does that part and says how.
#
# mpi4py: installs mpicache under target/clients/prefix (ci/install.sh), makes a virtual
# environment target/clients/venv with Cython from PyPI, builds mpi4py $MPI4PY_VERSION from
# its PyPI source against target/clients/prefix/bin/mpicc (mpi4py's configure step probes
# every routine and stubs the absent ones), then runs its test modules one by one and prints a
# table (module, tests, passed, skipped, failed, errors). Exit 1 on any failure or error, or on
# a module that could not run. By default the 13 modules of issue 14; --all runs every
# test_*.py of mpi4py's suite; --modules names others. --no-build reuses the last build.
#
# MODULE_TIMEOUT (seconds, default 600) bounds each module.
# Takes minutes (Cython's output is one large C file), so it is not part of ci/test.sh.
set -euo pipefail

MPI4PY_VERSION=${MPI4PY_VERSION:-4.1.2}
DEFAULT_MODULES="test_attributes test_comm test_datatype test_win test_errhandler test_info
test_group test_environ test_handle test_exceptions test_errorcode test_status test_request"

usage() {
    echo "usage: $0 mpi4py [--all] [--modules \"test_a test_b\"] [--no-build]" >&2
    exit 2
}

[ $# -ge 1 ] || usage
client=$1
shift
[ "$client" = mpi4py ] || { echo "$0: unknown client: $client (known: mpi4py)" >&2; exit 2; }
for arg in "$@"; do
    case $arg in
        --over|--over=*) exec bash "$(dirname "$0")/clients_over.sh" "$client" "$@" ;;
    esac
done

all=0
build=1
modules=$DEFAULT_MODULES
while [ $# -gt 0 ]; do
    case $1 in
        --all) all=1; shift ;;
        --modules) [ $# -ge 2 ] || usage; modules=$2; shift 2 ;;
        --no-build) build=0; shift ;;
        -h|--help) usage ;;
        *) echo "$0: unknown argument: $1" >&2; usage ;;
    esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
work=${CLIENTS_DIR:-$root/target/clients}
prefix=$work/prefix
venv=$work/venv
src=$work/mpi4py-$MPI4PY_VERSION
mkdir -p "$work"

# python3 with venv (Debian splits it out).
if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
    echo "clients.sh: installing python3-venv"
    apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
fi

if [ "$build" = 1 ]; then
    echo "clients.sh: installing mpicache into $prefix"
    bash "$root/ci/install.sh" --prefix "$prefix" >"$work/install.log" 2>&1 ||
        { tail -20 "$work/install.log"; exit 1; }

    if [ ! -x "$venv/bin/python" ]; then
        python3 -m venv "$venv"
    fi
    # Build tools only (mpi4py itself is built from source below, without build isolation,
    # so pip does not build another Cython from source for it).
    "$venv/bin/pip" install --quiet --upgrade cython setuptools wheel

    tarball=$work/sdist/mpi4py-$MPI4PY_VERSION.tar.gz
    if [ ! -f "$tarball" ]; then
        "$venv/bin/pip" download --quiet --no-deps --no-binary :all: --no-build-isolation \
            "mpi4py==$MPI4PY_VERSION" -d "$work/sdist"
    fi
    rm -rf "$src"
    tar xzf "$tarball" -C "$work"

    echo "clients.sh: building mpi4py $MPI4PY_VERSION against $prefix/bin/mpicc (minutes)"
    if ! (cd "$src" && MPI4PY_BUILD_CONFIGURE=1 MPI4PY_BUILD_MPICC="$prefix/bin/mpicc" \
        "$venv/bin/pip" install --no-build-isolation --no-deps --force-reinstall -v . \
        >"$work/build.log" 2>&1); then
        tail -40 "$work/build.log"
        echo "clients.sh: the mpi4py build failed (log: $work/build.log)" >&2
        exit 1
    fi
fi

[ -d "$src/test" ] || { echo "clients.sh: no mpi4py source in $src (run without --no-build)" >&2; exit 1; }

# What mpi4py's configure step found missing: `#undef PyMPI_HAVE_MPI_X` in pympiconf.h; each
# is a stub raising NotImplementedError.
conf=$src/src/lib-mpi/pympiconf.h
if [ -f "$conf" ]; then
    missing=$(sed -n 's/^#undef  *PyMPI_HAVE_\(MPI_[A-Z][a-z][A-Za-z_0-9]*\).*/\1/p' "$conf" | tr '\n' ' ' || true)
    echo "clients.sh: routines mpi4py did not find ($(echo $missing | wc -w)): $missing"
fi

if [ "$all" = 1 ]; then
    modules=$(cd "$src/test" && ls test_*.py | sed 's/\.py$//' | tr '\n' ' ')
fi

printf '%-24s %6s %6s %7s %6s %6s\n' module tests passed skipped failed errors
total_t=0 total_p=0 total_s=0 total_f=0 total_e=0 bad=0
for m in $modules; do
    log=$work/$m.log
    # Each module on its own (a crash in one does not hide the others), with a time limit.
    set +e
    (cd "$src/test" && timeout "${MODULE_TIMEOUT:-600}" "$venv/bin/python" -m unittest -v "$m") >"$log" 2>&1
    rc=$?
    set -e
    ran=$(sed -n 's/^Ran \([0-9]*\) tests\{0,1\} in .*/\1/p' "$log" | tail -1)
    last=$(grep -E '^(OK|FAILED)' "$log" | tail -1 || true)
    num() { echo "$last" | grep -o "$1=[0-9]*" | cut -d= -f2 || true; }
    f=$(num failures); e=$(num errors); s=$(num skipped); x=$(num 'expected failures')
    f=${f:-0} e=${e:-0} s=${s:-0} x=${x:-0}
    if [ -z "$ran" ] || [ -z "$last" ]; then
        # The module did not finish (crash, abort, timeout): count it as one error.
        printf '%-24s %6s %6s %7s %6s %6s  (did not finish, exit %s; log %s)\n' "$m" - - - - 1 "$rc" "$log"
        total_e=$((total_e + 1))
        bad=1
        continue
    fi
    # Tests that passed, counted from the verbose lines (failures and errors of subtests are
    # counted one by one in the summary, so tests minus the rest would undercount).
    p=$(grep -c ' \.\.\. ok$' "$log" || true)
    printf '%-24s %6d %6d %7d %6d %6d\n' "$m" "$ran" "$p" "$s" "$f" "$e"
    total_t=$((total_t + ran)) total_p=$((total_p + p)) total_s=$((total_s + s))
    total_f=$((total_f + f)) total_e=$((total_e + e))
    [ "$f" = 0 ] && [ "$e" = 0 ] || bad=1
done
printf '%-24s %6d %6d %7d %6d %6d\n' total "$total_t" "$total_p" "$total_s" "$total_f" "$total_e"
echo "$total_p passed, $((total_f + total_e)) failed, $total_s skipped"
exit "$bad"
