#!/usr/bin/env bash
# A host program that loads protobuf runtimes of its own (a framework's bundled copy that
# exports google::protobuf symbols, and Debian's libprotobuf.so.32, both RTLD_GLOBAL) and
# uses them while it trains on the simulated CUDA runtime: under libprof.so each runtime
# must answer as it does without the agent (the agent lends the host no protobuf symbol),
# and the trace must hold what the program did (its ground truth). profanalyze, which
# links Debian's protobuf and registers trace.proto itself, must also run under the agent.
#
#   protobuf_clash_test.sh WORKLOAD OTHER_RUNTIME LIBPROF CUPTI PROFANALYZE [--pending-clash]
#
# --pending-clash: while libprof.so itself still needs libprotobuf.so.32 (until issue 11's
# wire writer lands), a changed answer is reported, not failed; it fails as soon as
# libprof.so no longer needs libprotobuf and the clash remains. Everything else holds.
set -euo pipefail

workload="$(realpath "$1")"
other="$(realpath "$2")"
libprof="$(realpath "$3")"
cupti="$(realpath "$4")"
profanalyze="$(realpath "$5")"
pending="${6:-}"
work="$(mktemp -d "${TEST_TMPDIR:-/tmp}/protobuf_clash.XXXXXX")"

"$workload" "$other" libprotobuf.so.32 "$work/plain.json" > "$work/plain.txt" ||
  { echo "FAIL: the workload without the agent"; exit 1; }
grep -qx "other runtime: other-runtime 4000000" "$work/plain.txt" ||
  { echo "FAIL: the host's own runtime answered wrongly without the agent:"; cat "$work/plain.txt"; exit 1; }

# Step 0 READY (CUPTI subscribed a step ahead, as a schedule should), steps 1-4 recorded.
LD_PRELOAD="$libprof" PROF_OUTPUT_DIR="$work/traces" PROF_CUPTI_LIB="$cupti" \
  PROF_SCHEDULE=ready=1,record=4,repeat=1 \
  "$workload" "$other" libprotobuf.so.32 "$work/truth.json" > "$work/profiled.txt" 2> "$work/stderr.txt" ||
  { echo "FAIL: the workload under the agent"; cat "$work/stderr.txt"; exit 1; }

runtimes="the host's protobuf runtimes answered as without the agent"
if ! diff -u "$work/plain.txt" "$work/profiled.txt"; then
  runtimes="the known clash above (pending)"
  if [ "$pending" = "--pending-clash" ] &&
      readelf -d "$libprof" | grep -q 'NEEDED.*libprotobuf'; then
    echo "KNOWN CLASH (pending): libprof.so still needs libprotobuf.so.32, whose symbols"
    echo "  come before the host's own runtime in the global scope (answers above)"
  else
    echo "FAIL: a protobuf runtime of the host answered differently under the agent"
    exit 1
  fi
fi

"$profanalyze" "$work/traces" --format json > "$work/analysis.json"

# profanalyze is such a host too (Debian's libprotobuf, trace.proto registered in its
# generated pool), run where LD_PRELOAD is inherited (a job script that exported it).
if ! LD_PRELOAD="$libprof" PROF_OUTPUT_DIR="$work/analyzer_traces" \
    "$profanalyze" "$work/traces" --format json > "$work/analysis_preloaded.json" 2> "$work/analyzer.txt" ||
    ! cmp -s "$work/analysis.json" "$work/analysis_preloaded.json"; then
  if [ "$pending" = "--pending-clash" ] &&
      readelf -d "$libprof" | grep -q 'NEEDED.*libprotobuf'; then
    echo "KNOWN CLASH (pending): profanalyze under LD_PRELOAD=libprof.so: $(head -c 300 "$work/analyzer.txt")"
    runtimes="$runtimes; profanalyze under the agent: the known clash (pending)"
  else
    echo "FAIL: profanalyze under LD_PRELOAD=libprof.so did not answer as without it:"
    head -c 2000 "$work/analyzer.txt"
    exit 1
  fi
fi
python3 - "$work/truth.json" "$work/analysis.json" <<'PY'
import json
import sys

truth = json.load(open(sys.argv[1]))
tables = json.load(open(sys.argv[2]))["processes"][0]["tables"]
recorded = [step for step in truth["steps"] if 1 <= step["index"] < 5]
overview = {row["event_type"]: row for row in tables["overview"]["rows"]}
# The overview's kernels are those of the recorded steps (clipped to them); the kernel
# table may also hold a neighbour step's kernel whose device record arrived in the window.
kernel_row = overview.get("Kernel", {"calls": 0, "time_ns": 0})
calls, total_ns = kernel_row["calls"], kernel_row["time_ns"]
expected_calls = sum(step["kernels"]["count"] for step in recorded)
expected_ns = sum(step["kernels"]["total_ns"] for step in recorded)
failures = []
if overview.get("ProfileStep", {}).get("calls") != 4:
    failures.append("ProfileStep %r, expected 4 calls" % overview.get("ProfileStep"))
if (calls, round(total_ns)) != (expected_calls, expected_ns):
    failures.append("kernels %d, %d ns; the truth has %d, %d ns"
                    % (calls, total_ns, expected_calls, expected_ns))
for failure in failures:
    print("FAIL: " + failure)
sys.exit(1 if failures else 0)
PY
echo "PASS: $runtimes; 4 steps recorded as the truth says"
