#!/usr/bin/env bash
# Builds the release packages from one -c opt build:
#   dist/libprof-<version>-linux-x86_64.tar.gz         libprof.so, its Python helper,
#       profanalyze, profanalyze-mpi where it builds, and QUICKSTART.md
#       (release/make_package.sh says what goes where; //release:package_test checks it);
#   dist/libprof-<wheel version>-py3-none-manylinux2014_x86_64.whl   the same for pip
#       (release/make_wheel.py; //release:wheel_test installs it into fresh virtual
#       environments). Its version is <version> in PEP 440's spelling: 0.1-g<commit>
#       becomes 0.1+g<commit>.
#
#   ./scripts/package.sh [version]      (default: <VERSION>-g<commit>: the top-level VERSION
#                                         file, the one place the release number is set)
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh

version="${1:-$(tr -d '[:space:]' < VERSION)-g$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}"
wheel_version="$(sed -E 's/^([0-9][0-9.]*)-(.+)$/\1+\2/' <<< "$version" | tr '[:upper:]-' '[:lower:].')"
bazel build -c opt --noshow_progress //:libprof.so //release:profanalyze //agent/python:analysis_extension 2>&1 |
  grep -E "^(ERROR|FAILED)" >&2 && exit 1
bin="$(bazel info -c opt bazel-bin 2>/dev/null)"

# The agent must load anywhere; say so loudly when this build's does not (yet).
if ! agent/self_contained_test.sh "$bin/agent/libprof.so" > /tmp/libprof-package-check.$$ 2>&1; then
  echo "package.sh: WARNING: this libprof.so is not self-contained yet:" >&2
  grep -E "^(FAIL|DT_NEEDED)" /tmp/libprof-package-check.$$ | cut -c1-200 >&2
fi
rm -f /tmp/libprof-package-check.$$

# profanalyze-mpi where Open MPI's headers are installed (libopenmpi-dev); the tarball only.
mpi=()
if bazel build -c opt --noshow_progress //release:profanalyze-mpi > /dev/null 2>&1; then
  mpi=(--profanalyze-mpi "$bin/release/profanalyze-mpi")
else
  echo "package.sh: no profanalyze-mpi in the tarball (//release:profanalyze-mpi did not build)" >&2
fi
out="dist/libprof-$version-linux-x86_64.tar.gz"
release/make_package.sh --version "$version" --libprof "$bin/agent/libprof.so" \
  --profanalyze "$bin/release/profanalyze" "${mpi[@]}" --quickstart release/QUICKSTART.md --out "$out"
echo "$out ($(du -h "$out" | cut -f1))"

# The wheel's tag says glibc >= 2.17 (manylinux2014): no wheel unless both programs keep it.
for program in "$bin/agent/libprof.so" "$bin/release/profanalyze --program"; do
  # shellcheck disable=SC2086  # the option travels with the path
  agent/self_contained_test.sh $program > /tmp/libprof-package-check.$$ 2>&1 || {
    echo "package.sh: no wheel: ${program%% *} needs more than glibc 2.17:" >&2
    grep -E "^(FAIL|DT_NEEDED|highest)" /tmp/libprof-package-check.$$ | cut -c1-200 >&2
    rm -f /tmp/libprof-package-check.$$
    exit 1
  }
done
rm -f /tmp/libprof-package-check.$$
wheel="$(python3 release/make_wheel.py --version "$wheel_version" --libprof "$bin/agent/libprof.so" \
  --profanalyze "$bin/release/profanalyze" --helper "$bin/agent/python" --out-dir dist)"
echo "$wheel ($(du -h "$wheel" | cut -f1))"
