#!/bin/sh
# Installs the Fortran half of mpicache under a prefix where ci/install.sh has installed the
# library (ci/install.sh calls this at its end; it also runs on its own afterwards):
#
#   ci/install_fortran.sh --prefix DIR
#
# DIR/include/mpif.h, DIR/include/mpi.mod (the `mpi` module, compiled with the Fortran compiler
# the wrapper uses), DIR/lib/libmpicache_f.a (the module's object, linked by the wrapper), and
# DIR/bin/mpifort with mpif90 and mpif77 as links to it.
set -eu

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

root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
fc=${MPICACHE_FC:-gfortran}

if ! command -v "$fc" >/dev/null 2>&1; then
    echo "$0: Fortran compiler '$fc' not found: the Fortran half is not installed" >&2
    exit 1
fi
if [ ! -e "$prefix/lib/libmpicache.so" ]; then
    echo "$0: $prefix/lib/libmpicache.so is missing: run ci/install.sh --prefix $prefix first" >&2
    exit 1
fi

mkdir -p "$prefix/include" "$prefix/lib" "$prefix/bin"
build=$(mktemp -d "${TMPDIR:-/tmp}/mpicache-fortran.XXXXXX")
trap 'rm -rf "$build"' EXIT INT TERM

# The mpi module: mpi.mod goes to include/, its object (empty of code today, but the place for
# module procedures) to lib/libmpicache_f.a.
"$fc" -c -O2 -fPIC -J "$build" -o "$build/mpi.o" "$root/fortran/mpi.f90"
install -m 0644 "$build/mpi.mod" "$prefix/include/.mpi.mod.tmp"
mv -f "$prefix/include/.mpi.mod.tmp" "$prefix/include/mpi.mod"
rm -f "$build/libmpicache_f.a"
ar rcs "$build/libmpicache_f.a" "$build/mpi.o"
install -m 0644 "$build/libmpicache_f.a" "$prefix/lib/.libmpicache_f.a.tmp"
mv -f "$prefix/lib/.libmpicache_f.a.tmp" "$prefix/lib/libmpicache_f.a"
install -m 0644 "$root/fortran/mpif.h" "$prefix/include/.mpif.h.tmp"
mv -f "$prefix/include/.mpif.h.tmp" "$prefix/include/mpif.h"

# The wrapper, with the prefix baked in as a single-quoted sh string.
quoted=$(printf '%s' "$prefix" | sed "s/'/'\\\\''/g")
{
    echo '#!/bin/sh'
    echo '# mpifort for mpicache, written by ci/install_fortran.sh.'
    echo '#'
    echo '#   mpifort [-show] [compiler arguments...]'
    echo '#'
    echo '# Runs ${MPICACHE_FC:-gfortran} with mpicache'"'"'s include directory (mpif.h, mpi.mod)'
    echo '# and, when the command links, mpicache'"'"'s libraries (with an rpath, so programs run'
    echo '# without LD_LIBRARY_PATH). -show prints the command instead of running it.'
    echo "prefix='$quoted'"
    cat <<'WRAPPER'
fc=${MPICACHE_FC:-gfortran}

show=no
link=yes
for arg in "$@"; do
    case $arg in
        -show|--show|-showme|--showme) show=yes ;;
        -c|-E|-S|-M|-MM|-fsyntax-only) link=no ;;
    esac
done

first=yes
for arg in "$@"; do
    if [ "$first" = yes ]; then
        set --
        first=no
    fi
    case $arg in
        -show|--show|-showme|--showme) ;;
        *) set -- "$@" "$arg" ;;
    esac
done

if [ "$link" = yes ]; then
    set -- "$fc" -I "$prefix/include" "$@" -L "$prefix/lib" "-Wl,-rpath,$prefix/lib" \
        -lmpicache_f -lmpicache
else
    set -- "$fc" -I "$prefix/include" "$@"
fi

if [ "$show" = yes ]; then
    echo "$@"
    exit 0
fi
exec "$@"
WRAPPER
} > "$prefix/bin/.mpifort.tmp"
chmod 0755 "$prefix/bin/.mpifort.tmp"
mv -f "$prefix/bin/.mpifort.tmp" "$prefix/bin/mpifort"
for alias in mpif90 mpif77; do
    ln -sfn mpifort "$prefix/bin/$alias"
done

echo "mpicache Fortran bindings installed in $prefix ($fc)"
