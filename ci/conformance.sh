#!/usr/bin/env bash
# Runs the standard-MPI test programs of tests/c and tests/fortran against an MPI implementation
# and prints a table of cases x implementations:
#
#   ci/conformance.sh --mpi mpich|openmpi|mpicache|all [--mpi ...] [--out DIR]
#
# Each program is built exactly as tests/programs/c_programs.rs and
# tests/programs/fortran_programs.rs build it,
# but with that implementation's wrappers (Debian's mpicc.mpich / mpif90.mpich / mpiexec.mpich,
# mpicc.openmpi / mpif90.openmpi / mpiexec.openmpi; for mpicache the ones ci/install.sh installs),
# and run under its mpiexec with 1 and with 2 processes (mpicache: 1 only). MPICH and Open MPI
# are installed from Debian (apt-get) when missing.
#
# A case passes when the program exits 0 (the Fortran ones also print " 0 failure(s)"); every
# process must pass. fatal_*.c programs check mpicache's exact fatal-error line, so for the other
# implementations their cell says "mpicache-specific" (with whether the program did stop with a
# non-zero status, which the standard does require under MPI_ERRORS_ARE_FATAL).
#
# Results of each implementation go to DIR/results-IMPL.tsv (default DIR: target/conformance),
# logs to DIR/IMPL/; the table (every implementation with results in DIR) is printed and written
# to DIR/table.md.
set -euo pipefail

. "$(dirname "$0")/lib.sh"
out="$root/target/conformance"
impls=()
usage() {
    echo "usage: $0 --mpi mpich|openmpi|mpicache|all [--mpi ...] [--out DIR]" >&2
    exit 2
}
while [ $# -gt 0 ]; do
    case $1 in
        --mpi) [ $# -ge 2 ] || usage; impls+=("$2"); shift 2 ;;
        --mpi=*) impls+=("${1#--mpi=}"); shift ;;
        --out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
        --out=*) out=${1#--out=}; shift ;;
        -h|--help) usage ;;
        *) echo "$0: unknown argument: $1" >&2; usage ;;
    esac
done
[ ${#impls[@]} -gt 0 ] || usage
expanded=()
for i in "${impls[@]}"; do
    case $i in
        all) expanded+=(mpicache mpich openmpi) ;;
        mpicache|mpich|openmpi) expanded+=("$i") ;;
        *) echo "$0: --mpi must be mpich, openmpi, mpicache or all, not '$i'" >&2; exit 2 ;;
    esac
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
TIME_LIMIT=${MPICACHE_CONFORMANCE_TIMEOUT:-120}

CFLAGS=(-Wall -Wextra -Werror -std=c99 -g)
FFLAGS=(-ffree-line-length-none -Wall)

# Sets MPICC, MPIFORT, MPIEXEC (arrays) and MAXNP for one implementation.
setup() {
    case $1 in
        mpicache)
            local prefix="$out/mpicache-install"
            bash "$root/ci/install.sh" --prefix "$prefix" >&2
            MPICC=("$prefix/bin/mpicc"); MPIFORT=("$prefix/bin/mpifort")
            MPIEXEC=("$prefix/bin/mpiexec"); MAXNP=1 ;;
        mpich)
            command -v mpicc.mpich >/dev/null 2>&1 && command -v mpif90.mpich >/dev/null 2>&1 \
                || apt_install libmpich-dev mpich gfortran
            MPICC=(mpicc.mpich); MPIFORT=(mpif90.mpich); MPIEXEC=(mpiexec.mpich); MAXNP=2 ;;
        openmpi)
            command -v mpicc.openmpi >/dev/null 2>&1 && command -v mpif90.openmpi >/dev/null 2>&1 \
                || apt_install libopenmpi-dev openmpi-bin gfortran
            export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
            # One core is enough for the two processes of these tests.
            MPICC=(mpicc.openmpi); MPIFORT=(mpif90.openmpi)
            MPIEXEC=(mpiexec.openmpi --oversubscribe); MAXNP=2 ;;
    esac
}

# The cases, one a line: "c NAME" or "fortran NAME VARIANT" (VARIANT: module | mpif.h).
cases() {
    local f name
    for f in "$root"/tests/c/*.c; do
        name=$(basename "$f" .c)
        echo "c $name"
    done
    for f in "$root"/tests/fortran/*.F90; do
        name=$(basename "$f" .F90)
        # ilp64_*: programs for the 8-byte INTEGER build (-fdefault-integer-8), run by
        # tests/programs/ilp64.rs.
        case $name in ilp64_*) continue ;; esac
        echo "fortran $name module"
        echo "fortran $name mpif.h"
    done
}

case_label() {
    if [ "$1" = c ]; then echo "c/$2"; else echo "fortran/$2 ($3)"; fi
}

# Runs "$@" with the time limit, output to a log file; returns the exit status.
run_logged() {
    local log=$1
    shift
    { echo "\$ $*"; } >"$log"
    local status=0
    timeout --kill-after=10 "$TIME_LIMIT" "$@" </dev/null >"$log.out" 2>"$log.err" || status=$?
    { echo "--- stdout ---"; cat "$log.out"; echo "--- stderr ---"; cat "$log.err"; echo "--- exit status: $status"; } >>"$log"
    return $status
}

# Judges one run: prints a cell.
judge() {
    local impl=$1 kind=$2 name=$3 log=$4 status=$5
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
        echo "FAIL (timeout)"
        return
    fi
    if [ "$kind" = c ] && [[ $name == fatal_* ]]; then
        local words line lines
        words=$(sed -n 's/^expect-fatal://p' "$log.out" | head -n1)
        if [ "$impl" != mpicache ]; then
            if [ "$status" -ne 0 ]; then echo "mpicache-specific (stopped, exit $status)"
            else echo "mpicache-specific (did NOT stop)"; fi
            return
        fi
        lines=$(grep -c '^mpicache: ' "$log.err" || true)
        line=$(grep '^mpicache: ' "$log.err" | head -n1 || true)
        if [ "$status" -eq 0 ] || [ -z "$words" ] || [ "$lines" != 1 ]; then
            echo "FAIL (exit $status)"
            return
        fi
        local w
        for w in $words; do
            case $line in *"$w"*) ;; *) echo "FAIL (line lacks $w)"; return ;; esac
        done
        echo "pass"
        return
    fi
    if [ "$status" -ne 0 ]; then
        echo "FAIL (exit $status)"
    elif [ "$kind" = fortran ] && ! grep -q ' 0 failure(s)' "$log.out"; then
        echo "FAIL (no summary)"
    else
        echo "pass"
    fi
}

run_impl() {
    local impl=$1
    setup "$impl"
    local dir="$out/$impl"
    rm -rf "$dir"
    mkdir -p "$dir/bin" "$dir/logs"
    local results="$out/results-$impl.tsv"
    : >"$results.tmp"
    local notes="$out/notes-$impl.tsv"
    : >"$notes.tmp"
    local kind name variant label exe base cell1 cell2 status obj
    local -a flags
    while read -r kind name variant; do
        label=$(case_label "$kind" "$name" "$variant")
        base="$kind-$name${variant:+-${variant/./}}"
        exe="$dir/bin/$base"
        cell1="build error"; cell2="build error"
        if [ "$kind" = c ]; then
            if run_logged "$dir/logs/$base.build" "${MPICC[@]}" "${CFLAGS[@]}" \
                "$root/tests/c/$name.c" -o "$exe"; then
                cell1=""
            fi
        else
            obj=""
            local ok=yes
            if [ -f "$root/tests/fortran/${name}_c.c" ]; then
                obj="$dir/bin/$base-c.o"
                run_logged "$dir/logs/$base.build-c" "${MPICC[@]}" -c -Wall \
                    "$root/tests/fortran/${name}_c.c" -o "$obj" || ok=no
            fi
            flags=("${FFLAGS[@]}")
            [ "$variant" = mpif.h ] && flags+=(-DUSE_MPIF_H)
            [ -n "$obj" ] && flags+=("$obj")
            if [ $ok = yes ] && run_logged "$dir/logs/$base.build" "${MPIFORT[@]}" "${flags[@]}" \
                "$root/tests/fortran/$name.F90" -o "$exe"; then
                cell1=""
            fi
        fi
        if [ -z "$cell1" ]; then
            status=0
            run_logged "$dir/logs/$base.n1" "${MPIEXEC[@]}" -n 1 "$exe" || status=$?
            cell1=$(judge "$impl" "$kind" "$name" "$dir/logs/$base.n1" "$status")
            if [ "$MAXNP" -ge 2 ]; then
                status=0
                run_logged "$dir/logs/$base.n2" "${MPIEXEC[@]}" -n 2 "$exe" || status=$?
                cell2=$(judge "$impl" "$kind" "$name" "$dir/logs/$base.n2" "$status")
            fi
        fi
        [ "$MAXNP" -ge 2 ] || cell2="n/a (single process)"
        local np log why cell
        for np in 1 2; do
            log="$dir/logs/$base.n$np"
            if [ "$np" = 1 ]; then cell=$cell1; else cell=$cell2; fi
            case $cell in FAIL*) ;; *) continue ;; esac
            why=$( { grep -m1 -E 'FAIL' "$log.out" || true; grep -m1 -v '^[[:space:]]*$' "$log.err" || true; } 2>/dev/null | head -n1 | cut -c1-200 || true)
            printf '%s\t-n %s\t%s\n' "$label" "$np" "${why:-no output}" >>"$notes.tmp"
        done
        printf '%s\t%s\t%s\n' "$label" "$cell1" "$cell2" >>"$results.tmp"
        printf 'conformance: %-8s %-40s -n 1: %-28s -n 2: %s\n' "$impl" "$label" "$cell1" "$cell2" >&2
    done < <(cases)
    mv -f "$results.tmp" "$results"
    mv -f "$notes.tmp" "$notes"
    # What was run, for the table's header.
    local ver
    case $impl in
        mpicache) ver=$("$out/mpicache-install/bin/mpicache-info" --version 2>/dev/null || echo "?") ;;
        mpich) ver=$(dpkg-query -W -f '${Version}' libmpich-dev 2>/dev/null || echo "?") ;;
        openmpi) ver=$(dpkg-query -W -f '${Version}' libopenmpi-dev 2>/dev/null || echo "?") ;;
    esac
    echo "$ver" >"$out/version-$impl"
}

for impl in "${expanded[@]}"; do
    run_impl "$impl"
done

# The table: every implementation with results in $out, in a fixed order.
table="$out/table.md"
{
    have=()
    for impl in mpicache mpich openmpi; do
        [ -f "$out/results-$impl.tsv" ] && have+=("$impl")
    done
    header="| case |"
    rule="|---|"
    for impl in "${have[@]}"; do
        v=$(cat "$out/version-$impl" 2>/dev/null || echo "?")
        header="$header $impl $v -n 1 | $impl $v -n 2 |"
        rule="$rule---|---|"
    done
    echo "$header"
    echo "$rule"
    while read -r kind name variant; do
        label=$(case_label "$kind" "$name" "$variant")
        row="| $label |"
        for impl in "${have[@]}"; do
            cells=$(awk -F'\t' -v l="$label" '$1 == l { print $2 "\t" $3 }' "$out/results-$impl.tsv")
            if [ -z "$cells" ]; then
                row="$row not run | not run |"
            else
                row="$row ${cells%%$'\t'*} | ${cells#*$'\t'} |"
            fi
        done
        echo "$row"
    done < <(cases)
    echo
    echo "First failure reported by each failing run (full logs in $out/IMPL/logs/):"
    echo
    for impl in "${have[@]}"; do
        [ -s "$out/notes-$impl.tsv" ] || continue
        while IFS=$'\t' read -r label np why; do
            echo "- $impl, $label, $np: \`$why\`"
        done <"$out/notes-$impl.tsv"
    done
} >"$table"
echo
cat "$table"
echo
echo "conformance: table written to $table; logs in $out/IMPL/logs/"
