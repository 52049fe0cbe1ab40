#!/usr/bin/env bash
# Builds the release package: dist/libprof-<version>-linux-x86_64.tar.gz with libprof.so,
# its Python helper, profanalyze (with the shared libraries it needs) and QUICKSTART.md
# (release/make_package.sh says what goes where; //release:package_test checks it works).
#
#   ./scripts/package.sh [version]      (default: 0.1-g<commit>, from git)
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh

version="${1:-0.1-g$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}"
bazel build -c opt --noshow_progress //:libprof.so //:profanalyze //agent/python:analysis_extension 2>&1 |
  grep -E "^(ERROR|FAILED)" >&2 && exit 1
bin="$(bazel info -c opt bazel-bin 2>/dev/null)"

# The agent must load anywhere; say so loudly when this build's does not (yet).
if ! agent/self_contained_test.sh "$bin/agent/libprof.so" > /tmp/libprof-package-check.$$ 2>&1; then
  echo "package.sh: WARNING: this libprof.so is not self-contained yet:" >&2
  grep -E "^(FAIL|DT_NEEDED)" /tmp/libprof-package-check.$$ | cut -c1-200 >&2
fi
rm -f /tmp/libprof-package-check.$$

out="dist/libprof-$version-linux-x86_64.tar.gz"
release/make_package.sh --version "$version" --libprof "$bin/agent/libprof.so" \
  --profanalyze "$bin/analyzer/cli/profanalyze" --quickstart release/QUICKSTART.md --out "$out"
echo "$out ($(du -h "$out" | cut -f1))"
