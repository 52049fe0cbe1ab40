#!/usr/bin/env bash
# The main job on a fresh machine, no GPU needed: installs what is missing, builds, records
# a 2-rank training run on the simulated CUDA platform under the agent (LD_PRELOAD, a
# step schedule, CUPTI, NVTX, NCCL), prints what profanalyze makes of it and writes its
# HTML report (profiler_log/demo/report.html).
#
#   ./scripts/demo.sh [output folder]       (default: ./profiler_log/demo)
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh

echo "== building libprof.so, profanalyze and the simulated platform" >&2
bazel build --noshow_progress //:libprof.so //:profanalyze //testdata/sim:libcupti.so.13 \
  //testdata/workloads:train_ranks 2>&1 | grep -E "^(ERROR|FAILED)" >&2 || true
bin="$(bazel info bazel-bin 2>/dev/null)"

output="${1:-./profiler_log/demo}"
rm -rf "$output"
mkdir -p "$output"
rendezvous="$(mktemp -u /tmp/prof-demo-rendezvous.XXXXXX)"

# Two ranks started the way torchrun starts them; the agent is the only addition.
echo "== recording: 2 ranks x 16 steps, PROF_SCHEDULE=skip_first=3,ready=1,record=10,repeat=1" >&2
pids=()
for rank in 0 1; do
  RANK=$rank WORLD_SIZE=2 LOCAL_RANK=$rank \
  LD_PRELOAD="$bin/agent/libprof.so" \
  PROF_SCHEDULE="skip_first=3,ready=1,record=10,repeat=1" \
  PROF_OUTPUT_DIR="$output" \
  PROF_CUPTI_LIB="$bin/testdata/sim/libcupti.so.13" \
    "$bin/testdata/workloads/train_ranks" --steps 16 --batch-size 64 \
      --rendezvous "$rendezvous" >"$output/rank$rank.log" 2>&1 &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done
rm -f "$rendezvous"
ls -l "$output"/*.pb >&2

echo "== profanalyze $output --sorted-by GPUTotal" >&2
"$bin/analyzer/cli/profanalyze" "$output" --sorted-by GPUTotal

echo "== profanalyze report $output -o $output/report.html" >&2
"$bin/analyzer/cli/profanalyze" report "$output" -o "$output/report.html" --title "profanalyze demo: 2 ranks"
echo "report: $(cd "$output" && pwd)/report.html (open it in a browser; it needs no network)"
