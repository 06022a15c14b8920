#!/usr/bin/env bash
# Installs mpicache's caching layer over an engine MPI (issue 17; README "Many processes"):
#
#   ci/install.sh --prefix DIR --over mpich|openmpi|PATH_TO_ENGINE_MPICC
#
# (ci/install.sh hands --over here.) mpich is Debian's MPICH (mpicc.mpich), openmpi Debian's
# Open MPI (mpicc.openmpi); a path names an engine's C compiler wrapper, e.g. MPICH 5's
# /work/mpich5/bin/mpicc_abi (the MPI 5.0 ABI, C only). Installs:
#   DIR/lib/libmpicache_layer.so    the layer (owns the caching routines, the rest goes to the
#                                   engine through PMPI_)
#   DIR/bin/mpicc                   the engine's mpicc with the layer linked before the engine
#   DIR/bin/mpifort, mpif90, mpif77 the same for the engine's Fortran wrapper, when it has one
#   DIR/bin/mpiexec, mpirun         the engine's launcher
#   DIR/bin/mpicache-info           names the engine and its version
# A program built with the engine's own mpicc gets the layer with
#   LD_PRELOAD=DIR/lib/libmpicache_layer.so mpiexec -n 4 ./prog
set -euo pipefail

me=ci/install.sh
usage() {
    echo "usage: $me --prefix DIR --over mpich|openmpi|PATH_TO_ENGINE_MPICC" >&2
    exit 2
}
prefix=""
over=""
while [ $# -gt 0 ]; do
    case $1 in
        --prefix) [ $# -ge 2 ] || usage; prefix=$2; shift 2 ;;
        --prefix=*) prefix=${1#--prefix=}; shift ;;
        --over) [ $# -ge 2 ] || usage; over=$2; shift 2 ;;
        --over=*) over=${1#--over=}; shift ;;
        --profile|--profile=*) [ "$1" = --profile ] && shift; shift ;; # the layer is built release
        -h|--help) usage ;;
        *) echo "$me: unknown argument: $1" >&2; usage ;;
    esac
done
[ -n "$prefix" ] && [ -n "$over" ] || usage

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# The engine: its C wrapper, its Fortran wrapper (if any) and its launcher.
case $over in
    mpich) engine=mpich; cc=mpicc.mpich; fc=mpifort.mpich; run=mpiexec.mpich ;;
    openmpi) engine=openmpi; cc=mpicc.openmpi; fc=mpifort.openmpi; run=mpiexec.openmpi ;;
    */*|*mpicc*)
        engine=$over; cc=$over; dir=$(dirname "$over"); base=$(basename "$over")
        fc="$dir/${base/mpicc/mpifort}"; run=""
        [ "$fc" != "$over" ] && [ -x "$fc" ] || fc=""
        [ -x "$dir/mpiexec" ] && run=$dir/mpiexec ;;
    *) echo "$me: --over takes mpich, openmpi or the path of an engine's mpicc, not '$over'" >&2; exit 2 ;;
esac
cc_path=$(command -v "$cc" 2>/dev/null) || {
    echo "$me: engine $over: its C compiler wrapper $cc was not found" >&2
    exit 1
}
case $cc_path in
    /*) ;;
    *) cc_path=$(cd "$(dirname "$cc_path")" && pwd)/$(basename "$cc_path") ;;
esac
probe=$(mktemp -d "${TMPDIR:-/tmp}/mpicache-layer.XXXXXX")
trap 'rm -rf "$probe"' EXIT
cat > "$probe/v.c" <<'EOF'
#include <mpi.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int n = 0;
    MPI_Get_library_version(v, &n);
    v[strcspn(v, "\n")] = 0;
    printf("%s\n", v);
    return 0;
}
EOF
if ! "$cc_path" -show >/dev/null 2>&1 || ! "$cc_path" -o "$probe/v" "$probe/v.c" >/dev/null 2>&1 \
    || [ ! -x "$probe/v" ]; then
    echo "$me: engine $over: $cc_path is not an MPI C compiler wrapper (it cannot build a program with <mpi.h>)" >&2
    exit 1
fi
engine_version=$("$probe/v" 2>/dev/null | head -n1 || true)
if [ -n "$fc" ]; then
    fc=$(command -v "$fc" 2>/dev/null || true)
fi
if [ -z "$run" ] || ! command -v "$run" >/dev/null 2>&1; then
    run=$(command -v mpiexec 2>/dev/null || true)
fi
abspath() { case $1 in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$(cd "$(dirname "$1")" && pwd)" "$(basename "$1")" ;; esac; }
[ -n "$run" ] && run=$(abspath "$(command -v "$run")")
[ -n "$fc" ] && fc=$(abspath "$fc")

# The layer, built against the engine's mpi.h in a target directory of its own.
id=$(printf '%s' "$engine" | tr -c 'A-Za-z0-9_.\n-' '_' | sed 's/^_*//')
target_dir=${CARGO_TARGET_DIR:-$root/target}/layer/$id
MPICACHE_ENGINE_MPICC=$cc_path "${CARGO:-cargo}" build --release --lib --features layer \
    --target-dir "$target_dir"
built=$target_dir/release/libmpicache.so
[ -f "$built" ] || { echo "$me: $built was not built" >&2; exit 1; }

mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
mkdir -p "$prefix/lib" "$prefix/bin" "$prefix/share/mpicache"
install -m 0755 "$built" "$prefix/lib/.libmpicache_layer.so.tmp"
mv -f "$prefix/lib/.libmpicache_layer.so.tmp" "$prefix/lib/libmpicache_layer.so"

version=$(sed -n '/^\[package\]/,/^\[/{s/^version *= *"\([^"]*\)".*/\1/p}' Cargo.toml | head -n1)

# The compiler wrappers: the engine's, with the layer linked before the engine's libraries (the
# engine's wrapper puts its own after the program's arguments) and found at run time.
wrapper() { # name engine-wrapper language
    local out=$prefix/bin/$1
    cat > "$out.tmp" <<EOF
#!/bin/sh
# $1: mpicache $version's caching layer over $engine ($3), written by ci/install.sh --over.
# Runs $2 with libmpicache_layer.so linked before the engine's libraries; -show prints the
# whole command.
engine='$2'
libdir='$prefix/lib'
link=yes
for arg in "\$@"; do
    case \$arg in
        -c|-E|-S|-M|-MM|-fsyntax-only) link=no ;;
        -showme:compile|--showme:compile|-compile-info|--compile-info) link=no ;;
    esac
done
if [ "\$link" = yes ]; then
    set -- "\$@" -L"\$libdir" -Wl,-rpath,"\$libdir" -Wl,--no-as-needed -lmpicache_layer -Wl,--as-needed
fi
exec "\$engine" "\$@"
EOF
    chmod 0755 "$out.tmp"
    mv -f "$out.tmp" "$out"
}
wrapper mpicc "$cc_path" C
fortran=no
rm -f "$prefix/bin/mpifort" "$prefix/bin/mpif90" "$prefix/bin/mpif77"
if [ -n "$fc" ]; then
    fortran=yes
    wrapper mpifort "$fc" Fortran
    ln -sfn mpifort "$prefix/bin/mpif90"
    ln -sfn mpifort "$prefix/bin/mpif77"
fi

# The launcher: the engine's, with any -n (Open MPI: more processes than cores allowed).
cat > "$prefix/bin/mpiexec.tmp" <<EOF
#!/bin/sh
# mpiexec (mpirun) for mpicache $version's layer over $engine: runs $run.
case '$engine' in
    openmpi) export OMPI_MCA_rmaps_base_oversubscribe=\${OMPI_MCA_rmaps_base_oversubscribe:-1} ;;
esac
exec '$run' "\$@"
EOF
chmod 0755 "$prefix/bin/mpiexec.tmp"
mv -f "$prefix/bin/mpiexec.tmp" "$prefix/bin/mpiexec"
ln -sfn mpiexec "$prefix/bin/mpirun"

# mpicache-info: what this installation is.
{
    echo "mpicache=$version"
    echo "mode=layer"
    echo "engine=$engine"
    echo "engine_mpicc=$cc_path"
    echo "engine_mpifort=${fc:-none}"
    echo "engine_mpiexec=${run:-none}"
    echo "engine_version=${engine_version:-unknown}"
    echo "library=$prefix/lib/libmpicache_layer.so"
    echo "fortran=$fortran"
} > "$prefix/share/mpicache/layer.conf"
cat > "$prefix/bin/mpicache-info.tmp" <<EOF
#!/bin/sh
# mpicache-info for the layer over $engine (written by ci/install.sh --over).
conf='$prefix/share/mpicache/layer.conf'
echo "mpicache $version: the caching layer over an engine MPI"
sed -n 's/^engine=/engine: /p; s/^engine_version=/engine version: /p; s/^engine_mpicc=/engine mpicc: /p; s/^engine_mpifort=/engine mpifort: /p; s/^engine_mpiexec=/engine mpiexec: /p; s/^library=/library: /p; s/^fortran=/fortran: /p' "\$conf"
EOF
chmod 0755 "$prefix/bin/mpicache-info.tmp"
mv -f "$prefix/bin/mpicache-info.tmp" "$prefix/bin/mpicache-info"

echo "mpicache $version layer over $engine (${engine_version:-unknown}) installed in $prefix"
