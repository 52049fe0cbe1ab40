#!/usr/bin/env bash
# Installs what is missing, then runs every test: ./scripts/test.sh [--sanitizers] [bazel test flags]
# --sanitizers (what CI runs, .ci/run): afterwards the agent's, the analyzer's and the trace
# format's tests again under AddressSanitizer + UndefinedBehaviorSanitizer (--config=asan)
# and ThreadSanitizer (--config=tsan); see .bazelrc. gcc's sanitizer runtimes come with g++.
set -euo pipefail
cd "$(dirname "$0")/.."
sanitizers=0
if [ "${1:-}" = "--sanitizers" ]; then
  sanitizers=1
  shift
fi
./scripts/setup.sh
bazel test //... "$@"
if [ "$sanitizers" -eq 1 ]; then
  for config in asan tsan; do
    bazel test --config="$config" //agent/... //analyzer/... //proto/... "$@"
  done
fi
