#!/usr/bin/env bash
# Builds mpicache and installs it under a prefix:
#
#   ci/install.sh --prefix DIR [--profile release|debug]
#
# DIR/lib/libmpicache.so.X.Y.Z (+ the soname link libmpicache.so.X.Y and libmpicache.so),
# DIR/lib/libmpicache.a, DIR/include/mpi.h and DIR/bin/mpicc (a wrapper with DIR baked in).
# Then, if ci/install_fortran.sh exists and is executable, it runs with the same --prefix.
set -euo pipefail

usage() {
    echo "usage: $0 --prefix DIR [--profile release|debug]" >&2
    exit 2
}

prefix=""
profile=release
while [ $# -gt 0 ]; do
    case $1 in
        --prefix) [ $# -ge 2 ] || usage; prefix=$2; shift 2 ;;
        --prefix=*) prefix=${1#--prefix=}; shift ;;
        --profile) [ $# -ge 2 ] || usage; profile=$2; shift 2 ;;
        --profile=*) profile=${1#--profile=}; shift ;;
        -h|--help) usage ;;
        *) echo "$0: unknown argument: $1" >&2; usage ;;
    esac
done
[ -n "$prefix" ] || usage
case $profile in
    release) cargo_flags=(--release); outdir=release ;;
    debug) cargo_flags=(); outdir=debug ;;
    *) echo "$0: --profile must be release or debug" >&2; exit 2 ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)

# The version (and the soname, see build.rs) comes from Cargo.toml's [package] version.
version=$(sed -n '/^\[package\]/,/^\[/{s/^version *= *"\([^"]*\)".*/\1/p}' Cargo.toml | head -n1)
[ -n "$version" ] || { echo "$0: cannot read the version from Cargo.toml" >&2; exit 1; }
major=${version%%.*}
rest=${version#*.}
minor=${rest%%.*}
soname="libmpicache.so.$major.$minor"

"${CARGO:-cargo}" build --lib "${cargo_flags[@]}"

target_dir=${CARGO_TARGET_DIR:-$root/target}
built="$target_dir/$outdir"
for f in libmpicache.so libmpicache.a; do
    [ -f "$built/$f" ] || { echo "$0: $built/$f was not built" >&2; exit 1; }
done

mkdir -p "$prefix/lib" "$prefix/include" "$prefix/bin"
# Install through a temporary name and rename, so a running program never sees a torn file.
install -m 0755 "$built/libmpicache.so" "$prefix/lib/.libmpicache.so.$version.tmp"
mv -f "$prefix/lib/.libmpicache.so.$version.tmp" "$prefix/lib/libmpicache.so.$version"
ln -sfn "libmpicache.so.$version" "$prefix/lib/$soname"
ln -sfn "$soname" "$prefix/lib/libmpicache.so"
install -m 0644 "$built/libmpicache.a" "$prefix/lib/libmpicache.a"
install -m 0644 include/mpi.h "$prefix/include/mpi.h"

# The wrapper: the prefix goes into a single-quoted sh string, so quote ' and escape what sed
# treats specially in a replacement.
quoted=$(printf '%s' "$prefix" | sed "s/'/'\\\\''/g")
replacement=$(printf '%s' "$quoted" | sed 's/[\\&|]/\\&/g')
sed "s|@PREFIX@|$replacement|g" ci/wrappers/mpicc.in > "$prefix/bin/.mpicc.tmp"
chmod 0755 "$prefix/bin/.mpicc.tmp"
mv -f "$prefix/bin/.mpicc.tmp" "$prefix/bin/mpicc"

echo "mpicache $version installed in $prefix ($profile)"

# The Fortran half (mpif.h, the mpi module, mpifort) is installed by its own script.
if [ -x ci/install_fortran.sh ]; then
    ci/install_fortran.sh --prefix "$prefix"
fi
