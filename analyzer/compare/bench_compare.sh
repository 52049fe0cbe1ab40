#!/usr/bin/env bash
# Compare-time figure for scripts/bench.sh: records the 2-rank demo run (train_ranks,
# 2 ranks, PROF_SCHEDULE=skip_first=3,ready=1,record=10,repeat=1, as scripts/demo.sh)
# twice on the simulated platform, then times `profanalyze compare A B --fail-on ...`
# (median of 11 runs) beside the baseline of the same run: `profanalyze A` (all summary
# tables of one side). Never part of the tests.
#
#   analyzer/compare/bench_compare.sh [BAZEL_BIN]
# BAZEL_BIN: a bazel-bin holding //:profanalyze, //:libprof.so, //testdata/sim:libcupti.so.13
# and //testdata/workloads:train_ranks (default: builds them with -c opt).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="${1:-}"
if [ -z "$bin" ]; then
  bazel build -c opt --noshow_progress //:profanalyze //:libprof.so //testdata/sim:libcupti.so.13 \
    //testdata/workloads:train_ranks 2>&1 | grep -E "^(ERROR|FAILED)" >&2 || true
  bin="$(bazel info -c opt bazel-bin 2>/dev/null)"
fi
scratch="$(mktemp -d /tmp/prof-bench-compare.XXXXXX)"
trap 'rm -rf "$scratch"' EXIT

record() {  # record OUTPUT_DIR: the demo's two ranks
  local pids=()
  for rank in 0 1; do
    RANK=$rank WORLD_SIZE=2 LOCAL_RANK=$rank LD_PRELOAD="$bin/agent/libprof.so" \
    PROF_SCHEDULE="skip_first=3,ready=1,record=10,repeat=1" PROF_OUTPUT_DIR="$1" \
    PROF_CUPTI_LIB="$bin/testdata/sim/libcupti.so.13" \
      "$bin/testdata/workloads/train_ranks" --steps 16 --batch-size 64 \
        --rendezvous "$scratch/rendezvous.id" > "$scratch/record.log" 2>&1 &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid"; done
}

median_ms() {  # median_ms COMMAND...: median wall time of 11 runs, in ms
  for _ in $(seq 11); do
    local start end
    start=$(date +%s%N)
    "$@" > /dev/null 2>&1 || [ $? -le 1 ]
    end=$(date +%s%N)
    echo $(( (end - start) / 1000 ))
  done | sort -n | sed -n 6p | awk '{printf "%.1f", $1 / 1000}'
}

record "$scratch/a"
record "$scratch/b"
events=$("$bin/analyzer/cli/profanalyze" info "$scratch/a" | awk '/^events:/ {sum += $2} END {print sum}')
rules="step_time>+3%,gpu_time>+5%,kernel:*>+5%,api:*>+10%,busbw<-5%,gpu_util<-2pt"
compare_ms=$(median_ms "$bin/analyzer/cli/profanalyze" compare "$scratch/a" "$scratch/b" --fail-on "$rules")
summary_ms=$(median_ms "$bin/analyzer/cli/profanalyze" "$scratch/a")
echo "== compare: two 10-step traces of the 2-rank demo run ($events events per side), median of 11"
printf "   %-44s %8s ms   goal: interactive (< 1 s)\n" "profanalyze compare A B --fail-on (6 rules)" "$compare_ms"
printf "   %-44s %8s ms   (baseline, same run)\n" "profanalyze A (every summary table, one side)" "$summary_ms"
