#!/usr/bin/env bash
# The main job, on a fresh machine: installs what is missing, builds, records a workload
# and prints what the analyzer makes of it. Parts that do not exist yet are skipped with
# a note, so the script always shows what there is.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh

echo "== building"
bazel build //... 2>&1 | grep -E "^(ERROR|FAILED)|Build completed" || true

echo "== trace format: size and speed on a realistic mix (1M events)"
bazel run -c opt //proto:trace_format_benchmark -- --events=1000000 2>/dev/null
