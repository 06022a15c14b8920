#!/usr/bin/env bash
# A real client over each engine through the layer (issue 17 item 6):
#
#   ci/clients_over.sh mpi4py --over mpich|openmpi|PATH_TO_ENGINE_MPICC [--procs "1 2"] [--no-build]
#
# (reached as `ci/clients.sh mpi4py --over ENGINE`, which hands --over runs here.) Installs the layer
# over the engine (ci/install.sh --over) into target/clients-over/ENGINE/layer, builds mpi4py
# $MPI4PY_VERSION (4.1.2) from its PyPI source with the layered DIR/bin/mpicc in the virtual
# environment target/clients-over/venv-ENGINE (Cython from PyPI; MPI4PY_BUILD_CONFIGURE=1,
# MPI4PY_BUILD_MPICC=DIR/bin/mpicc, pip install --no-build-isolation --no-deps .), checks that
# mpi4py's attribute calls reach the layer (LD_DEBUG=bindings: MPI_Comm_create_keyval,
# MPI_Comm_set_attr, MPI_Comm_get_attr, MPI_Comm_dup and MPI_Comm_free of mpi4py's extension
# bind to libmpicache_layer.so, and a Python copy and delete callback run through them), then
# runs mpi4py's whole test suite (test/main.py) under the installed mpiexec on 1 and 2
# processes: MPICH at 2 processes without test_util_sync (it waits on MPICH's progress), Open
# MPI with MPI4PY_TEST_SPAWN=0 and without OMPI_MCA_osc=pt2pt (with it mpi4py skips more window
# tests; its one-process MPI_Win_create fails either way, layer or not: README). Prints a table of ran / passed / skipped / failed / errors per
# process count (the worst rank); exit 1 on any failure or error, or a run that did not finish.
#
# Takes minutes (Cython's output is one large C file): not part of ci/test.sh.
set -euo pipefail

MPI4PY_VERSION=${MPI4PY_VERSION:-4.1.2}
me=ci/clients_over.sh
usage() {
    echo "usage: $me mpi4py --over mpich|openmpi|PATH_TO_ENGINE_MPICC [--procs \"1 2\"] [--no-build]" >&2
    exit 2
}
[ $# -ge 1 ] || usage
client=$1
shift
[ "$client" = mpi4py ] || { echo "$me: unknown client: $client (known: mpi4py)" >&2; exit 2; }
over=""
procs="1 2"
build=1
while [ $# -gt 0 ]; do
    case $1 in
        --over) [ $# -ge 2 ] || usage; over=$2; shift 2 ;;
        --over=*) over=${1#--over=}; shift ;;
        --procs) [ $# -ge 2 ] || usage; procs=$2; shift 2 ;;
        --no-build) build=0; shift ;;
        -h|--help) usage ;;
        *) echo "$me: unknown argument: $1" >&2; usage ;;
    esac
done
[ -n "$over" ] || usage

root=$(cd "$(dirname "$0")/.." && pwd)
id=$(basename "$over" | tr -c 'A-Za-z0-9_.\n-' '_')
work=${CLIENTS_DIR:-$root/target/clients-over}
prefix=$work/$id/layer
venv=$work/venv-$id
src=$work/$id/mpi4py-$MPI4PY_VERSION
mkdir -p "$work/$id"
log() { echo "$me: $*" >&2; }

if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
    log "installing python3-venv"
    apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
fi

if [ "$build" = 1 ]; then
    log "installing the layer over $over into $prefix"
    bash "$root/ci/install.sh" --prefix "$prefix" --over "$over" >"$work/$id/install.log" 2>&1 ||
        { tail -20 "$work/$id/install.log"; exit 1; }
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --upgrade cython setuptools wheel
    tarball=$work/sdist/mpi4py-$MPI4PY_VERSION.tar.gz
    if [ ! -f "$tarball" ]; then
        "$venv/bin/pip" download --quiet --no-deps --no-binary :all: --no-build-isolation \
            "mpi4py==$MPI4PY_VERSION" -d "$work/sdist"
    fi
    rm -rf "$src"
    tar xzf "$tarball" -C "$work/$id"
    log "building mpi4py $MPI4PY_VERSION with $prefix/bin/mpicc (minutes)"
    if ! (cd "$src" && MPI4PY_BUILD_CONFIGURE=1 MPI4PY_BUILD_MPICC="$prefix/bin/mpicc" \
        "$venv/bin/pip" install --no-build-isolation --no-deps --force-reinstall -v . \
        >"$work/$id/build.log" 2>&1); then
        tail -40 "$work/$id/build.log"
        log "the mpi4py build failed (log: $work/$id/build.log)"
        exit 1
    fi
fi
[ -d "$src/test" ] || { log "no mpi4py source in $src (run without --no-build)"; exit 1; }

engine=$(sed -n 's/^engine=//p' "$prefix/share/mpicache/layer.conf")
run_env=()
case $engine in
    openmpi) run_env=(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 MPI4PY_TEST_SPAWN=0) ;;
esac

# --- mpi4py's attribute calls go through the layer ------------------------------------------
cat > "$work/$id/probe.py" <<'EOF'
from mpi4py import MPI
calls = []
def copy_fn(obj, keyval, value):
    calls.append("copy")
    return value + 1
def delete_fn(obj, keyval, value):
    calls.append("delete")
# The layer's keyvals carry its tag in bits 31..28 and the kind in bits 27..26
# (src/caching/keyval/number.rs): communicator 0x84000000.., datatype 0x88000000..; no engine's
# keyval looks like that, so these numbers show mpicache made the keyvals.
k = MPI.Comm.Create_keyval(copy_fn=copy_fn, delete_fn=delete_fn)
assert 0x84000000 <= k & 0xFFFFFFFF <= 0x87FFFFFF, hex(k & 0xFFFFFFFF)
c = MPI.COMM_WORLD.Dup()
c.Set_attr(k, 41)
d = c.Dup()
assert d.Get_attr(k) == 42, d.Get_attr(k)
d.Free()
c.Free()
MPI.Comm.Free_keyval(k)
assert calls == ["copy", "delete", "delete"], calls
t = MPI.Datatype.Create_keyval(copy_fn=copy_fn, delete_fn=delete_fn)
assert 0x88000000 <= t & 0xFFFFFFFF <= 0x8BFFFFFF, hex(t & 0xFFFFFFFF)
a = MPI.INT.Dup()
a.Set_attr(t, 7)
b = a.Dup()
assert b.Get_attr(t) == 8, b.Get_attr(t)
b.Free()
a.Free()
MPI.Datatype.Free_keyval(t)
assert calls == ["copy", "delete", "delete"] * 2, calls
print("probe ok: keyvals %#x %#x," % (k & 0xFFFFFFFF, t & 0xFFFFFFFF), calls)
EOF
bindings=$work/$id/bindings
rm -f "$bindings".*
env "${run_env[@]}" LD_DEBUG=bindings LD_DEBUG_OUTPUT="$bindings" \
    "$prefix/bin/mpiexec" -n 1 "$venv/bin/python" "$work/$id/probe.py" >"$work/$id/probe.log" 2>&1 ||
    { cat "$work/$id/probe.log"; log "the attribute probe failed"; exit 1; }
through=yes
# (No grep -q in a pipe: under pipefail the writer's SIGPIPE would read as "not found".)
bound=$(cat "$bindings".* | grep "MPI\.cpython" | grep "libmpicache_layer\.so" || true)
for sym in MPI_Comm_create_keyval MPI_Comm_set_attr MPI_Comm_get_attr MPI_Comm_dup MPI_Comm_free \
    MPI_Type_create_keyval MPI_Type_set_attr MPI_Type_get_attr MPI_Type_dup MPI_Type_free; do
    if ! printf '%s\n' "$bound" | grep "\`$sym'" >/dev/null; then
        log "mpi4py's $sym does not bind to libmpicache_layer.so"
        through=no
    fi
done
[ "$through" = yes ] || exit 1
log "mpi4py's keyval, attribute, dup and free calls bind to the layer; $(grep 'probe ok' "$work/$id/probe.log")"

# --- the whole suite ---------------------------------------------------------------------------
printf '%-6s %6s %6s %7s %6s %6s\n' procs ran passed skipped failed errors
bad=0
for n in $procs; do
    args=()
    [ "$engine" = mpich ] && [ "$n" -gt 1 ] && args=(-e test_util_sync)
    out=$work/$id/suite.$n.log
    set +e
    (cd "$src/test" && env "${run_env[@]}" timeout 1800 "$prefix/bin/mpiexec" -n "$n" \
        "$venv/bin/python" main.py "${args[@]}") >"$out" 2>&1
    rc=$?
    set -e
    # Each rank prints unittest's summary; take the worst rank.
    summary=$(python3 - "$out" "$n" <<'EOF'
import re, sys
text = open(sys.argv[1], errors="replace").read()
n = int(sys.argv[2])
# The ranks share the output, and their writes interleave inside lines ("sOK", "-----Ran 2127
# tests", "OK (skipped=517) (skipped=517)"), so ranks cannot be told apart: count the summaries
# anywhere in a line and report the worst figures any rank printed.
ran = [int(x) for x in re.findall(r"Ran (\d+) tests? in", text)]
oks = len(re.findall(r"(?<![A-Z])OK(?![A-Z])", text))
failed = len(re.findall(r"FAILED \(", text))
if len(ran) < n or oks + failed < n:
    print("- - - - - unfinished")
    sys.exit()
def worst(key):
    return max([int(v) for v in re.findall(key + r"=(\d+)", text)] or [0])
f, e, s = worst("failures"), worst("errors"), worst("skipped")
x, u = worst("expected failures"), worst("unexpected successes")
r = max(ran)
print(r, r - f - e - s - x - u, s, f, e, "ok" if failed == 0 and f + e == 0 else "bad")
EOF
)
    read -r ran passed skipped failed errors verdict <<<"$summary"
    if [ "$verdict" = unfinished ]; then
        printf '%-6s %6s %6s %7s %6s %6s  (did not finish, exit %s; log %s)\n' "$n" - - - - - "$rc" "$out"
        bad=1
        continue
    fi
    printf '%-6s %6s %6s %7s %6s %6s\n' "$n" "$ran" "$passed" "$skipped" "$failed" "$errors"
    if [ "$verdict" != ok ] || [ "$rc" -ne 0 ]; then
        bad=1
        grep -E "^(FAIL|ERROR):" "$out" | sort | uniq -c | head -20 >&2 || true
    fi
done
echo "logs: $work/$id/suite.*.log"
exit $bad
