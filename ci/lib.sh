# What the ci/ scripts share. Sourced (bash), never run:  . "$(dirname "$0")/lib.sh"
#
# Sets `root` (the repository) and defines:
#   apt_install PKG...        installs Debian packages (sudo when not root; apt-get update once)
#   need_tools TOOL=PKG...    installs the packages of the tools not on PATH
#   find_fc                   prints the Fortran compiler to use (MPICACHE_FC, else gfortran), or
#                             nothing when there is none
#   find_cc                   the C compiler to use (MPICACHE_CC, else cc)
#   mpich5_venv               makes sure MPICH 5 (its mpi_abi.h, mpicc_abi) is in target/mpich5
#                             and exports MPICACHE_MPICH5; a warning when PyPI cannot be reached
#   crate_version             the [package] version of Cargo.toml
#   shq STRING                STRING as it goes inside single quotes in sh
#   subst TEMPLATE OUT KEY=VALUE...   writes TEMPLATE with every @KEY@ replaced by VALUE
#   install_file MODE SRC DEST        installs through a temporary name and a rename, so a
#                             running program never sees a torn file
# Messages start with the calling script's name.

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ci_name=$(basename "$0")

apt_updated=no
apt_install() {
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    echo "$ci_name: installing $* from Debian" >&2
    export DEBIAN_FRONTEND=noninteractive
    if [ "$apt_updated" = no ]; then
        "${sudo[@]}" apt-get update >&2
        apt_updated=yes
    fi
    "${sudo[@]}" apt-get install -y --no-install-recommends "$@" >&2
}

need_tools() {
    local missing=() pair tool pkgs
    for pair in "$@"; do
        tool=${pair%%=*}
        pkgs=${pair#*=}
        # shellcheck disable=SC2206
        command -v "$tool" >/dev/null 2>&1 || missing+=($pkgs)
    done
    [ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
}

find_fc() {
    local fc=${MPICACHE_FC:-gfortran}
    if command -v "$fc" >/dev/null 2>&1; then
        printf '%s\n' "$fc"
    fi
}

find_cc() {
    printf '%s\n' "${MPICACHE_CC:-cc}"
}

mpich5_venv() {
    local mpich5="$root/target/mpich5"
    if [ ! -f "$mpich5/include/mpi_abi.h" ]; then
        echo "$ci_name: installing MPICH 5 (pip install mpich==5.0.2) into $mpich5" >&2
        rm -rf "$mpich5"
        if ! { python3 -m venv "$mpich5" && "$mpich5/bin/pip" install --quiet mpich==5.0.2; }; then
            echo "$ci_name: could not install MPICH 5 from PyPI: tests of the MPI 5.0 ABI will fail" >&2
        fi
    fi
    export MPICACHE_MPICH5="$mpich5"
}

crate_version() {
    sed -n '/^\[package\]/,/^\[/{s/^version *= *"\([^"]*\)".*/\1/p}' "$root/Cargo.toml" | head -n1
}

shq() {
    printf '%s' "$1" | sed "s/'/'\\\\''/g"
}

subst() {
    local template=$1 out=$2 script="" kv key val
    shift 2
    for kv in "$@"; do
        key=${kv%%=*}
        val=$(printf '%s' "${kv#*=}" | sed 's/[\\&|]/\\&/g')
        script="$script s|@$key@|$val|g;"
    done
    sed "$script" "$template" > "$out.tmp"
    mv -f "$out.tmp" "$out"
}

install_file() {
    local mode=$1 src=$2 dest=$3
    install -m "$mode" "$src" "$(dirname "$dest")/.$(basename "$dest").tmp"
    mv -f "$(dirname "$dest")/.$(basename "$dest").tmp" "$dest"
}
