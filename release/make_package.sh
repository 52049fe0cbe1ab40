#!/usr/bin/env bash
# Assembles the release tarball from built products; scripts/package.sh (bazel -c opt,
# dist/) and //release:package (the package test's copy) both call it, so the test checks
# what ships.
#
#   make_package.sh --version V --libprof LIBPROF_SO --profanalyze PROFANALYZE \
#                   [--profanalyze-mpi PROFANALYZE_MPI] --quickstart QUICKSTART.md --out FILE.tar.gz
#
# Layout of libprof-V-linux-x86_64/:
#   lib/libprof.so            the agent: self-contained (glibc >= 2.17 only)
#   lib/python/               its Python helper (libprof.so finds it beside itself), with
#                             libprof/_analysis_native.cpython-*.so, the analyzer for
#                             Python, when it was built beside the helper
#   bin/profanalyze           the analyzer, a wrapper that points it at its own libraries
#   libexec/profanalyze       the analyzer's binary (//release:profanalyze: glibc >= 2.17
#                             only, like the agent; a dynamically linked one works too)
#   bin/profanalyze-mpi       where built (//release:profanalyze-mpi): profanalyze over MPI,
#   libexec/profanalyze-mpi   linked to the machine's Open MPI (libmpi.so.40), not shipped
#   libexec/lib/              the shared libraries the analyzer and the Python extension
#                             were linked with (protobuf, Abseil, libstdc++ ...), all but
#                             glibc's own
#   QUICKSTART.md
#   VERSION                   V, which bin/profanalyze --version prints
#   scripts/gpu_check.sh      the real-GPU check (nvcc and PyTorch on the GPU machine), with
#   testdata/gpu/             the sources it builds and runs, beside this script's folder's
#                             copies in the repository (found relative to make_package.sh)
set -euo pipefail

version="" libprof="" profanalyze="" profanalyze_mpi="" quickstart="" out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --version) version="$2"; shift 2 ;;
    --libprof) libprof="$2"; shift 2 ;;
    --profanalyze) profanalyze="$2"; shift 2 ;;
    --profanalyze-mpi) profanalyze_mpi="$2"; shift 2 ;;
    --quickstart) quickstart="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "make_package.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
for value in "$version" "$libprof" "$profanalyze" "$quickstart" "$out"; do
  [ -n "$value" ] || { echo "make_package.sh: missing an option (see its header)" >&2; exit 2; }
done
helper="$(dirname "$libprof")/python"
[ -f "$helper/sitecustomize.py" ] || { echo "make_package.sh: no helper in $helper" >&2; exit 2; }

name="libprof-$version-linux-x86_64"
stage="$(mktemp -d "${TMPDIR:-/tmp}/libprof-package.XXXXXX")"
trap 'rm -rf "$stage"' EXIT
root="$stage/$name"
mkdir -p "$root/lib" "$root/bin" "$root/libexec/lib"

cp "$libprof" "$root/lib/libprof.so"
mkdir -p "$root/lib/python"
(cd "$helper" && find . -name '*.py' ! -path './tests/*' -print0 |
  xargs -0 -I{} cp --parents {} "$root/lib/python/")
cp "$profanalyze" "$root/libexec/profanalyze"
# The analyzer's Python extension (libprof._analysis), if built: it finds the libraries
# below in libexec/lib through its RUNPATH ($ORIGIN/../../../libexec/lib).
extensions=()
for extension in "$helper"/libprof/_analysis_native*.so; do
  [ -f "$extension" ] || continue
  cp "$extension" "$root/lib/python/libprof/"
  extensions+=("$extension")
done

# The analyzer's shared libraries, but glibc's own (the dynamic loader, libc, libm, ...),
# which must come from the machine it runs on.
glibc='^(ld-linux-x86-64|libc|libm|libdl|libpthread|librt|libresolv|libutil)\.so'
ldd "$profanalyze" "${extensions[@]}" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' |
  while read -r soname path; do
    [[ "$soname" =~ $glibc ]] || cp -L "$path" "$root/libexec/lib/$soname"
  done
echo "$version" > "$root/VERSION"
cat > "$root/bin/profanalyze" <<'WRAPPER'
#!/bin/sh
# profanalyze with the shared libraries it was built with (../libexec/lib), whatever the
# machine has installed; only glibc comes from the machine. --version names the release
# (../VERSION): answered here for profanalyze-mpi, which has no --version of its own
# (libexec/profanalyze reads ../VERSION itself, analyzer/cli/version.h).
here="$(cd "$(dirname "$0")/.." && pwd)"
for argument in "$@"; do
  case "$argument" in
    --) break ;;
    --version) echo "$(basename "$0") $(cat "$here/VERSION")"; exit 0 ;;
  esac
done
LD_LIBRARY_PATH="$here/libexec/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec "$here/libexec/profanalyze" "$@"
WRAPPER
chmod 755 "$root/bin/profanalyze" "$root/libexec/profanalyze" "$root/lib/libprof.so"
# profanalyze-mpi, where built: its libraries beyond glibc's are Open MPI's (libmpi.so.40
# and what it loads), which must be the machine's, matching its mpirun; none is copied.
if [ -n "$profanalyze_mpi" ]; then
  # ldd's whole answer first: `ldd | grep -q` under pipefail fails when grep's early exit
  # ends ldd with SIGPIPE (seen once on a loaded machine).
  grep -q 'libmpi\.so\.40' <<< "$(ldd "$profanalyze_mpi")" ||
    { echo "make_package.sh: $profanalyze_mpi does not link libmpi.so.40" >&2; exit 2; }
  cp "$profanalyze_mpi" "$root/libexec/profanalyze-mpi"
  sed 's|libexec/profanalyze"|libexec/profanalyze-mpi"|' "$root/bin/profanalyze" > "$root/bin/profanalyze-mpi"
  chmod 755 "$root/bin/profanalyze-mpi" "$root/libexec/profanalyze-mpi"
fi

# The glibc each part needs: the highest GLIBC_ symbol version it references.
highest_glibc() {
  objdump -T "$@" 2>/dev/null | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' |
    sort -u -V | tail -1
}
agent_glibc="$(highest_glibc "$root/lib/libprof.so")"
analyzer_glibc="$(highest_glibc "$root/libexec/profanalyze" "$root"/libexec/lib/*)"
sed -e "s/@VERSION@/$version/g" -e "s/@AGENT_GLIBC@/$agent_glibc/g" \
  -e "s/@ANALYZER_GLIBC@/$analyzer_glibc/g" "$quickstart" > "$root/QUICKSTART.md"

# The real-GPU check runs from the package: the script and its sources, as in the repository.
repository="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$root/scripts" "$root/testdata/gpu"
cp "$repository/scripts/gpu_check.sh" "$root/scripts/"
cp "$repository"/testdata/gpu/{cuda_app.cu,train.py,compare.py} "$root/testdata/gpu/"
chmod 755 "$root/scripts/gpu_check.sh"

mkdir -p "$(dirname "$out")"
tar --sort=name --owner=0 --group=0 --numeric-owner -C "$stage" -czf "$out" "$name"
