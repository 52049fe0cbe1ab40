#!/usr/bin/env bash
# A CI performance gate: records N steps of a command under libprof.so, compares them with
# a baseline folder of traces using `profanalyze compare`, writes a JUnit XML report (one
# test case per rule) and a markdown summary, and exits like the comparison:
#   0  no rule broken        1  a rule broken beyond noise (fail the build)
#   2  bad input or bad rule (no baseline, nothing recorded, a typo in --fail-on)
#
# Usage:
#   scripts/ci-example.sh [options] -- COMMAND [ARGS...]
# Options:
#   --baseline DIR   baseline traces (a folder of *.pb, e.g. from the main branch)   required
#   --out DIR        where the new traces and reports go             (default ./perf-ci)
#   --steps N        steps to record                                  (default 20)
#   --warmup N       steps skipped before recording                   (default 5)
#   --fail-on RULES  the gate    (default "step_time>+3%,gpu_time>+5%,kernel:*>+5%,busbw<-5%")
#   --junit FILE     JUnit XML report                                 (default OUT/compare.junit.xml)
#   --update-baseline  copy the new traces into --baseline instead of comparing (exit 0)
# Environment: PROFANALYZE (default: profanalyze on PATH, else bazel-bin/analyzer/cli/profanalyze),
#   LIBPROF (default: bazel-bin/agent/libprof.so); PROF_* variables pass through to the agent
#   (e.g. PROF_CUPTI_LIB). The command must mark steps (prof_step, an NVTX "ProfileStep"
#   range, or PROF_STEP_MARKER) and run at least warmup + steps of them.
#
# Example (the simulated workload; on a GPU machine use your own benchmark command):
#   scripts/ci-example.sh --baseline perf-baseline --update-baseline -- bazel-bin/testdata/workloads/train --steps 30
#   scripts/ci-example.sh --baseline perf-baseline -- bazel-bin/testdata/workloads/train --steps 30
set -euo pipefail

baseline="" out="./perf-ci" steps=20 warmup=5 update=0 junit=""
rules="step_time>+3%,gpu_time>+5%,kernel:*>+5%,busbw<-5%"
while [ $# -gt 0 ]; do
  case "$1" in
    --baseline) baseline="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --steps) steps="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --fail-on) rules="$2"; shift 2 ;;
    --junit) junit="$2"; shift 2 ;;
    --update-baseline) update=1; shift ;;
    --) shift; break ;;
    *) echo "ci-example.sh: unknown option '$1' (see the header of $0)" >&2; exit 2 ;;
  esac
done
if [ -z "$baseline" ] || [ $# -eq 0 ]; then
  echo "ci-example.sh: needs --baseline DIR and -- COMMAND (see the header of $0)" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
profanalyze="${PROFANALYZE:-$(command -v profanalyze || echo "$root/bazel-bin/analyzer/cli/profanalyze")}"
libprof="${LIBPROF:-$root/bazel-bin/agent/libprof.so}"
for file in "$profanalyze" "$libprof"; do
  [ -e "$file" ] || { echo "ci-example.sh: $file not found (build //:profanalyze //:libprof.so)" >&2; exit 2; }
done
junit="${junit:-$out/compare.junit.xml}"

# Record: skip the warm-up steps, then one window of N steps (one file per process).
rm -rf "$out/traces"
mkdir -p "$out/traces"
echo "ci-example.sh: recording $steps steps after $warmup warm-up steps: $*" >&2
LD_PRELOAD="$libprof" PROF_OUTPUT_DIR="$out/traces" PROF_SCHEDULE="skip_first=$warmup,record=$steps,repeat=1" \
  "$@" > "$out/command.log" 2>&1 || { echo "ci-example.sh: the command failed; see $out/command.log" >&2; exit 2; }
ls "$out"/traces/*.pb > /dev/null 2>&1 || { echo "ci-example.sh: nothing recorded (no steps?)" >&2; exit 2; }

if [ $update = 1 ]; then
  rm -rf "$baseline"
  mkdir -p "$baseline"
  cp "$out"/traces/*.pb "$baseline"/
  echo "ci-example.sh: baseline $baseline updated" >&2
  exit 0
fi
status=0
"$profanalyze" compare "$baseline" "$out/traces" --fail-on "$rules" --junit "$junit" \
  --markdown "$out/compare.md" || status=$?
echo "ci-example.sh: JUnit report $junit, markdown $out/compare.md, exit status $status" >&2
exit $status
