#!/bin/bash
# Runs one workload into $TEST_TMPDIR and checks its truth files with check_truth.py.
# usage: run_workload_test.sh PROGRAM BINARY CHECK_ARGS -- WORKLOAD_ARGS...
#   CHECK_ARGS: check_truth.py flags joined by commas (Bazel splits args on spaces),
#   e.g. "--steps=6,--ranks=2"; the truth files are found by PROGRAM.
set -euo pipefail
program="$1"; binary="$2"; check_args="${3//,/ }"; shift 4
# Under bazel test the checker is in the runfiles; run by hand it sits next to this script.
if [[ -n "${TEST_SRCDIR:-}" ]]; then
  checker="$TEST_SRCDIR/prof/testdata/workloads/tests/check_truth.py"
else
  checker="$(dirname "${BASH_SOURCE[0]}")/check_truth.py"
fi
out="${TEST_TMPDIR:-/tmp}/${program}.json"
rm -f "${TEST_TMPDIR:-/tmp}/${program}"*.json
"$binary" --truth "$out" "$@"
files=$(ls "${TEST_TMPDIR:-/tmp}/${program}"*.json)
# Worker files of threads_fork_graph are checked on their own (they have no steps).
main_files=$(echo "$files" | grep -v '\.child_' || true)
python3 "$checker" --program "$program" $check_args $main_files
for worker in $(echo "$files" | grep '\.child_' || true); do
  python3 "$checker" --program worker --steps 0 "$worker"
done
