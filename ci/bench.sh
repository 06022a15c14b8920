#!/usr/bin/env bash
# The attribute benchmark, side by side with MPICH and Open MPI (issue 5):
#
#   bash ci/bench.sh [--peers] [--quick] [--out DIR] [--rounds N]
#
# Installs mpicache to DIR/mpicache (ci/install.sh --prefix), builds the floor library
# (bench/floor.c -> DIR/lib/libfloor.so) and the benchmarks (bench/attr_bench.c,
# bench/attr_bench.f90, bench/attr_mem.c) against every MPI present: mpicache always, MPICH (mpicc.mpich) and
# Open MPI (mpicc.openmpi) when installed. --peers installs them from Debian first when they are
# missing. The benchmarks run interleaved, round-robin over the implementations for several
# rounds (each round starting with the next implementation), so the machine's drift hits all
# alike; peers run as singletons (one process, no mpiexec).
#
# Prints one table (bench/plot.py): per case the ns/op of each implementation (median over
# rounds), how many times better mpicache is than the better peer, and each get case's ratio to
# the floor, timed in the same run alternately with the case (see bench/attr_bench.c). The
# MPI_THREAD_MULTIPLE cases (mt_get_*, mt_throughput_2v1:
# 2-thread / 1-thread throughput of MPI_Comm_get_attr, each thread on its own CPU when there are
# two) come with the same measurement of the floor call (mt_floor_1thread, mt_floor_2threads,
# mt_floor_2v1): the scaling the machine itself allows in that run. The memory and first-use
# cases of issue 15 (bench/attr_mem.c: many objects with one attribute each, attributes with
# keyvals created far apart, memory after freeing and after MPI_Finalize, mappings per object,
# the first set_attr on new objects, dup + set + free cycles) run in the same rounds, each case
# in a process of its own (attr_mem --case NAME); lower is better in all of them, and the table
# marks, with a note under it, an implementation that made fewer objects than asked (MPICH stops
# at about 2,000 communicators, Open MPI at about 65,000). Linux only (they read /proc/self).
# Writes DIR/raw.csv (every result line of every run), DIR/notes.txt (their '#' lines: the
# figures behind them, and why an implementation stopped short), DIR/table.csv and
# DIR/get_latency.png (installing matplotlib from Debian or PyPI when it is missing).
# Default DIR: target/bench. Default run: about 5 minutes on 2 idle cores (7 rounds; the memory
# cases make 1,000,000 datatypes and 100,000 communicators, up to about 2 GB resident for Open
# MPI); --quick (2 rounds, shorter runs, 100,000 attributes in attr_bench's memory case, 50,000
# datatypes and 5,000 communicators in attr_mem's): about 30 seconds. Longer when
# other processes keep the CPUs busy: the mt_ cases then repeat the disturbed repetitions (up to
# three times as many; see bench/attr_bench.c), and the table's mt_floor_2v1 well below 2 says
# that the machine did not give two threads two CPUs.
#
# With --over ENGINE: the same benchmark binary with and without the layer over that engine
# (issue 17; ci/bench_over.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

for arg in "$@"; do
    case $arg in
        --over|--over=*) exec bash "$(dirname "$0")/bench_over.sh" "$@" ;;
    esac
done

usage() {
    echo "usage: $0 [--peers] [--quick] [--out DIR] [--rounds N] | --over ENGINE [...]" >&2
    exit 2
}

cd "$root"

peers=no
quick=no
out=$root/target/bench
rounds=""
while [ $# -gt 0 ]; do
    case $1 in
        --peers) peers=yes; shift ;;
        --quick) quick=yes; shift ;;
        --out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
        --out=*) out=${1#--out=}; shift ;;
        --rounds) [ $# -ge 2 ] || usage; rounds=$2; shift 2 ;;
        --rounds=*) rounds=${1#--rounds=}; shift ;;
        -h|--help) usage ;;
        *) echo "$0: unknown argument: $1" >&2; usage ;;
    esac
done

# Rounds over the implementations; runs per case, iteration cap and time budget (ms) per run.
if [ "$quick" = yes ]; then
    : "${rounds:=2}"
    bench_args=(-r 3 -n 200000 -t 3 --warm 100)
    mem_args=(--mem-comms 100 --mem-attrs 1000)
    # attr_mem: timing runs, then the objects of each case.
    objs_args=(-r 3 -n 20000 -t 3 --types 50000 --comms 5000 --far-comms 1000 --first 200
        --maps-types 5000)
else
    : "${rounds:=7}"
    bench_args=(-r 5 -n 5000000 -t 20)
    mem_args=(--mem-comms 1000 --mem-attrs 1000)
    objs_args=(-r 7 -n 1000000 -t 20 --types 1000000 --comms 100000 --far-comms 1000 --first 200
        --maps-types 10000)
fi
mem_cases=(lifecycle far first cycle maps)

log() { echo "ci/bench.sh: $*" >&2; }

# --- tools and peers --------------------------------------------------------------------------
need_tools cc="gcc libc6-dev" gfortran=gfortran python3=python3
missing=()
if [ "$peers" = yes ]; then
    command -v mpicc.mpich >/dev/null 2>&1 && command -v mpif90.mpich >/dev/null 2>&1 ||
        missing+=(libmpich-dev mpich)
    command -v mpicc.openmpi >/dev/null 2>&1 && command -v mpif90.openmpi >/dev/null 2>&1 ||
        missing+=(libopenmpi-dev openmpi-bin)
fi
[ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"

# Open MPI refuses to run as root without these; peers run as singletons.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# --- build ------------------------------------------------------------------------------------
mkdir -p "$out/bin" "$out/lib"
out=$(cd "$out" && pwd)
bash ci/install.sh --prefix "$out/mpicache" >&2

cc -O2 -fPIC -shared bench/floor.c -o "$out/lib/libfloor.so"
# Every timed loop starts a 64-byte line, for every implementation alike: where a loop of some
# 50 bytes falls across two lines, it costs a cycle more per call (measured on an AMD EPYC), so
# that the cases' ratios to the floor depended on where each loop happened to land.
bench_cflags=(-O2 -falign-loops=64)
floor_link=(-Wl,--no-as-needed -L"$out/lib" -lfloor -Wl,-rpath,"$out/lib")

impls=()
declare -A cc_of fc_of
cc_of[mpicache]=$out/mpicache/bin/mpicc
fc_of[mpicache]=$out/mpicache/bin/mpifort
for p in mpich openmpi; do
    cc_of[$p]=mpicc.$p
    fc_of[$p]=mpif90.$p
done
for impl in mpicache mpich openmpi; do
    command -v "${cc_of[$impl]}" >/dev/null 2>&1 || { log "$impl: no ${cc_of[$impl]}: skipped"; continue; }
    "${cc_of[$impl]}" "${bench_cflags[@]}" -pthread bench/attr_bench.c -o "$out/bin/attr_bench.$impl" \
        "${floor_link[@]}"
    "${cc_of[$impl]}" "${bench_cflags[@]}" bench/attr_mem.c -o "$out/bin/attr_mem.$impl"
    if command -v "${fc_of[$impl]}" >/dev/null 2>&1; then
        # Each build in its own directory: the .mod files of one compiler must not meet another's.
        mkdir -p "$out/build/$impl"
        (cd "$out/build/$impl" &&
            "${fc_of[$impl]}" "${bench_cflags[@]}" "$root/bench/attr_bench.f90" \
                -o "$out/bin/attr_bench_f.$impl" \
                "${floor_link[@]}")
    else
        log "$impl: no ${fc_of[$impl]}: no Fortran benchmark"
        rm -f "$out/bin/attr_bench_f.$impl"
    fi
    impls+=("$impl")
done
log "implementations: ${impls[*]}; $rounds rounds"

# --- run --------------------------------------------------------------------------------------
raw=$out/raw.csv
notes=$out/notes.txt
echo "round,case,impl,median,min,max,unit,floor_ratio" > "$raw"
: > "$notes"
run_one() { # round impl exe args...
    local round=$1 impl=$2 exe=$3
    shift 3
    local lines label
    label=$(basename "$exe")
    [ "${1:-}" != --case ] || label="$label --case $2"
    if ! lines=$(timeout 900 "$exe" --impl "$impl" "$@" 2> "$out/stderr.$impl.txt"); then
        log "round $round: $label failed:"
        cat "$out/stderr.$impl.txt" >&2
        printf '%s\n' "$lines" | tail -n 3 >&2
        return 1
    fi
    printf '%s\n' "$lines" | { grep '^#' || true; } |
        sed "s|^|round $round, $label: |" >> "$notes"
    printf '%s\n' "$lines" | grep -v '^#' | sed "s/^/$round,/" >> "$raw"
}
status=0
n=${#impls[@]}
for ((round = 1; round <= rounds; round++)); do
    for ((j = 0; j < n; j++)); do
        impl=${impls[$(((round - 1 + j) % n))]}
        log "round $round/$rounds: $impl"
        run_one "$round" "$impl" "$out/bin/attr_bench.$impl" "${bench_args[@]}" "${mem_args[@]}" ||
            status=1
        if [ -x "$out/bin/attr_bench_f.$impl" ]; then
            run_one "$round" "$impl" "$out/bin/attr_bench_f.$impl" "${bench_args[@]}" || status=1
        fi
        for c in "${mem_cases[@]}"; do
            run_one "$round" "$impl" "$out/bin/attr_mem.$impl" --case "$c" "${objs_args[@]}" ||
                status=1
        done
    done
done

# --- table and plot ---------------------------------------------------------------------------
python=""
for py in python3 /usr/bin/python3; do
    if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import matplotlib' >/dev/null 2>&1; then
        python=$py
        break
    fi
done
if [ -z "$python" ]; then
    log "matplotlib is missing: installing it"
    if command -v apt-get >/dev/null 2>&1 && apt_install python3-matplotlib >&2 &&
        /usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1; then
        python=/usr/bin/python3
    elif python3 -m pip install --quiet matplotlib >&2 ||
        python3 -m pip install --quiet --break-system-packages matplotlib >&2; then
        python3 -c 'import matplotlib' >/dev/null 2>&1 && python=python3
    fi
    [ -n "$python" ] || { log "could not install matplotlib: the table only, no plot"; python=python3; }
fi

echo
echo "Attribute benchmark: median over $rounds rounds (ns/op unless the unit says otherwise;"
echo "lower is better except mt_throughput_2v1 and the *_made counts)"
"$python" bench/plot.py --raw "$raw" --csv "$out/table.csv" --png "$out/get_latency.png" \
    --notes "$notes"
echo "raw:   $raw"
echo "notes: $notes"
if [ $status -ne 0 ]; then
    log "some benchmark runs failed (see above): the table lacks their lines"
fi
exit $status
