#!/usr/bin/env bash
# The project's figures, each beside its goal and a baseline measured in the same run.
# Never part of the tests' pass/fail.  ./scripts/bench.sh [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
quick=0
[ "${1:-}" = "--quick" ] && quick=1

bazel build -c opt --noshow_progress //:libprof.so //release:profanalyze //proto:trace_format_benchmark \
  //agent/bench:hook_cost_benchmark //agent/bench:nccl_hook_cost_benchmark //agent/bench:step_cost_benchmark //agent/bench:spawn_cost //agent/bench:clock_cost //testdata/sim:libcupti.so.13 \
  //testdata/workloads:train //testdata/workloads:launch_stress //testdata/workloads:train_ranks 2>&1 | grep -E "^(ERROR|FAILED)" || true
bin="$(bazel info -c opt bazel-bin 2>/dev/null)"
agent="$bin/agent/libprof.so"
cupti="$bin/testdata/sim/libcupti.so.13"
scratch="$(mktemp -d /tmp/prof-bench.XXXXXX)"
# Runs a PyTorch benchmark where Debian's python3 has torch; says it was skipped elsewhere.
with_torch() {
  if /usr/bin/python3 -c "import torch" 2>/dev/null; then
    "$@"
  else
    echo "   skipped: /usr/bin/python3 has no torch (scripts/setup.sh installs python3-torch)"
  fi
}
trap 'rm -rf "$scratch"' EXIT

echo "== machine: $(nproc) cores, $(uname -m), $(date -u +%Y-%m-%d)"

echo
echo "== libprof.so: what it needs to load (goal: DT_NEEDED only libc, libm, libdl, libpthread,"
echo "   librt, the dynamic loader; glibc symbol versions <= 2.17)"
needed="$(readelf -d "$agent" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')"
echo "   DT_NEEDED: $(echo "$needed" | wc -l) entries: $(echo $needed)"
echo "   highest GLIBC_ version: $(objdump -T "$agent" | grep -o 'GLIBC_[0-9][0-9.]*' | sort -u -V | tail -1)"
echo "   libstdc++/libgcc versions needed: $(objdump -T "$agent" | grep -oE '(GLIBCXX|CXXABI|GCC)_[0-9.]+' | sort -u | wc -l)"

echo
echo "== agent: added start-up time and peak RSS in processes that never touch CUDA"
startup_runs=300
[ $quick = 1 ] && startup_runs=100
scripts/startup_cost.py --spawner "$bin/agent/bench/spawn_cost" --runs $startup_runs \
  --goal-ms 0.3 --goal-kib 1024 "/bin/true:" \
  "/bin/true under the agent:LD_PRELOAD=$agent,PROF_OUTPUT_DIR=$scratch/true" -- /bin/true
echo
echo "== Python start-up: python3 -c pass; goal: the helper (last line, vs above) <= 1 ms"
scripts/startup_cost.py --spawner "$bin/agent/bench/spawn_cost" --runs $((startup_runs / 3)) \
  --goal-ms 1 "plain:" \
  "agent, PROF_PYTHON=0:LD_PRELOAD=$agent,PROF_OUTPUT_DIR=$scratch/py,PROF_PYTHON=0" \
  "agent with the helper:LD_PRELOAD=$agent,PROF_OUTPUT_DIR=$scratch/py" \
  -- /usr/bin/python3 -c pass
echo
echo "== Python start-up with the wheel installed (pip install into a fresh venv; its python -c pass);"
echo "   goal: the helper (last line, vs above) <= 1 ms"
scripts/wheel_startup.sh "$bin" $((startup_runs / 3))

echo
echo "== trace format (proto/trace_format_benchmark)"
events=10000000
[ $quick = 1 ] && events=2000000
"$bin/proto/trace_format_benchmark" --events=$events
echo
echo "== trace size on the held-out style launcher (launch_stress at 1 us a launch, simulated CUPTI)"
bazel build -c opt --noshow_progress //agent/tests:trace_counts 2>&1 | grep -E "^(ERROR|FAILED)" || true
python3 scripts/trace_size.py --bin "$bin" --agent "$agent" --cupti "$cupti" --goal 6

echo
echo "== agent: added host cost per intercepted call (median of 2M calls, interposed vs direct)"
echo "   goals: CLOSED <= 2 ns, RECORD <= 100 ns; READY: CUPTI subscribed, nothing recorded"
common=(PROF_OUTPUT_DIR="$scratch/hooks" PROF_CUPTI_LIB="$cupti" PROF_LOG_LEVEL=error)
env "${common[@]}" LD_PRELOAD="$agent" PROF_SCHEDULE=skip_first=1000000,record=1 \
  "$bin/agent/bench/hook_cost_benchmark" CLOSED
# The flight recorder's host rings (agent/record/flight_host.h): every CUDA call kept.
env "${common[@]}" LD_PRELOAD="$agent" PROF_SCHEDULE=skip_first=1000000,record=1 PROF_FLIGHT=1 \
  "$bin/agent/bench/hook_cost_benchmark" "CLOSED, PROF_FLIGHT=1"
env "${common[@]}" LD_PRELOAD="$agent" PROF_SCHEDULE=closed=1,ready=1000000,record=1 \
  "$bin/agent/bench/hook_cost_benchmark" READY
env "${common[@]}" LD_PRELOAD="$agent" PROF_SCHEDULE=skip_first=1,record=1000000 \
  "$bin/agent/bench/hook_cost_benchmark" RECORD
env "${common[@]}" LD_PRELOAD="$agent" PROF_SCHEDULE=skip_first=1,record=1000000 PROF_CLOCK=monotonic \
  "$bin/agent/bench/hook_cost_benchmark" "RECORD, PROF_CLOCK=monotonic"

echo
echo "== flight recorder (PROF_FLIGHT=1): added host cost per NCCL call, CLOSED schedule"
echo "   (median of 2M ncclGroupStart/End calls, interposed vs direct; the ring's share is the"
echo "   difference between the two lines)"
for flight in 0 1; do
  env "${common[@]}" LD_PRELOAD="$agent" PROF_SCHEDULE=skip_first=1000000,record=1 PROF_FLIGHT=$flight \
    "$bin/agent/bench/nccl_hook_cost_benchmark" "CLOSED, PROF_FLIGHT=$flight"
done
echo
echo "== flight recorder: slowdown of the held-out style launcher (train_ranks), CLOSED"
echo "   schedule, PROF_FLIGHT=1 vs not; goal <= 2% (<= 1% on a realistic step)"
scripts/flight_cost.py --agent "$agent" --cupti "$cupti" --program "$bin/testdata/workloads/train_ranks" \
  --ranks 2 --steps 40 --runs $([ $quick = 1 ] && echo 5 || echo 9)

echo
echo "== agent: added cost per recorded call at process level (the hook and the writer's share)"
echo "   goal: <= 40 ns wall per launch (the loop's own rate, net of load and exit), each run"
echo "   beside a plain one; host clock from the invariant TSC (PROF_CLOCK=tsc), then clock_gettime;"
echo "   and the same less the two clock reads a recorded call needs (agent/bench/clock_cost)"
call_runs=5
[ $quick = 1 ] && call_runs=3
scripts/process_call_cost.py --agent "$agent" --program "$bin/testdata/workloads/launch_stress" \
  --runs $call_runs --goal-ns 40 --clock-cost "$bin/agent/bench/clock_cost"
scripts/process_call_cost.py --agent "$agent" --program "$bin/testdata/workloads/launch_stress" \
  --runs $call_runs --goal-ns 40 --env PROF_CLOCK=monotonic --clock-cost "$bin/agent/bench/clock_cost" \
  | tail -5

echo
echo "== agent: prof_step on the calling thread (ns per call; the writer does the rest)"
echo "   goal: no wait on I/O or the writer; a window boundary costs about what a step does"
env "${common[@]}" LD_PRELOAD="$agent" PROF_SCHEDULE=skip_first=100000000,record=1 \
  "$bin/agent/bench/step_cost_benchmark" CLOSED
env "${common[@]}" LD_PRELOAD="$agent" PROF_STEPS_PER_FILE=0 \
  "$bin/agent/bench/step_cost_benchmark" RECORD
env "${common[@]}" LD_PRELOAD="$agent" PROF_SCHEDULE=closed=1,ready=1,record=2 \
  "$bin/agent/bench/step_cost_benchmark" CYCLING 400

# Median step time (ms) of a workload's truth file, skipping the first 3 steps.
median_step_ms() {
  python3 -c '
import json, statistics, sys
steps = json.load(open(sys.argv[1]))["steps"][3:]
print("%.4f" % statistics.median((s["end_ns"] - s["start_ns"]) / 1e6 for s in steps))' "$1"
}
launch_rate() {
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["args"]["measured_launches_per_second"])' "$1"
}

echo
echo "== agent: slowdown of whole workloads (alternating runs, median of medians)"
runs=5
[ $quick = 1 ] && runs=3
for mode in without CLOSED RECORD; do : > "$scratch/$mode.train"; : > "$scratch/$mode.launch"; done
for run in $(seq $runs); do
  for mode in without CLOSED RECORD; do
    case $mode in
      without) preload=() ;;
      CLOSED) preload=(LD_PRELOAD="$agent" PROF_SCHEDULE=skip_first=1000000,record=1) ;;
      RECORD) preload=(LD_PRELOAD="$agent") ;;
    esac
    rm -rf "$scratch/out"
    env "${common[@]}" PROF_OUTPUT_DIR="$scratch/out" "${preload[@]}" \
      "$bin/testdata/workloads/train" --steps 40 --truth "$scratch/t.json" >/dev/null 2>&1
    median_step_ms "$scratch/t.json" >> "$scratch/$mode.train"
    rm -rf "$scratch/out"
    env "${common[@]}" PROF_OUTPUT_DIR="$scratch/out" "${preload[@]}" \
      "$bin/testdata/workloads/launch_stress" --launches 200000 --truth "$scratch/l.json" >/dev/null 2>&1
    launch_rate "$scratch/l.json" >> "$scratch/$mode.launch"
  done
done
python3 - "$scratch" <<'PY'
import statistics, sys
folder = sys.argv[1]
def median(name):
    return statistics.median(float(x) for x in open(f"{folder}/{name}") if x.strip())
base_step, base_rate = median("without.train"), median("without.launch")
print(f"   {'':8} {'train: step ms':>15} {'slowdown':>9}   {'launch_stress: launches/s':>26} {'slowdown':>9}")
print(f"   {'without':8} {base_step:15.3f} {'':>9}   {base_rate:26.0f}")
for mode, goal in (("CLOSED", "not measurable"), ("RECORD", "<= 1% (3% launch-bound)")):
    step, rate = median(f"{mode}.train"), median(f"{mode}.launch")
    print(f"   {mode:8} {step:15.3f} {100 * (step / base_step - 1):+8.2f}%   {rate:26.0f} {100 * (base_rate / rate - 1):+8.2f}%   goal {goal}")
PY
echo
echo "== PyTorch operators: host cost per operator, the agent (PROF_PYTHON_OPS) beside"
echo "   torch.profiler's CPU-only profiling on the same loop (scripts/aten_cost.py)"
# 2,000 iterations: a process of 300 ends before the helper's first 0.2 s read of torch's
# collection (PROF_ATEN_SOURCE=profiler), whose figure would leave the reads out.
with_torch /usr/bin/python3 scripts/aten_cost.py --agent "$agent" --cupti "$cupti" \
  --runs $([ $quick = 1 ] && echo 3 || echo 7) --iterations 2000

echo
echo "== PyTorch: the Python helper while nothing records, on the same loop"
echo "   (scripts/helper_closed_cost.py); goal: CLOSED <= +1%, the helper included"
with_torch scripts/helper_closed_cost.py --agent "$agent" --cupti "$cupti" --runs $([ $quick = 1 ] && echo 3 || echo 7)

echo
echo "== PyTorch: gpu_check's training loop (testdata/gpu/train.py, conv + attention, AdamW,"
echo "   a DataLoader) on the CPU: CLOSED and RECORD beside a plain run and torch.profiler"
echo "   (scripts/step_cost.py); goals: CLOSED <= +1%, RECORD <= +10%, operators no costlier"
echo "   than torch.profiler's collection"
with_torch /usr/bin/python3 scripts/step_cost.py --agent "$agent" --cupti "$cupti" \
  --runs $([ $quick = 1 ] && echo 3 || echo 5) --steps 100

echo
echo "== compare: time to compare two 10-step runs of the 2-rank demo (analyzer/compare/bench_compare.sh)"
bazel build -c opt --noshow_progress //:profanalyze //testdata/workloads:train_ranks 2>&1 \
  | grep -E "^(ERROR|FAILED)" || true
analyzer/compare/bench_compare.sh "$bin"

if [ -x analyzer/bench/run_benchmark.sh ]; then
  echo
  echo "== analyzer (analyzer/bench/run_benchmark.sh)"
  analyzer/bench/run_benchmark.sh $([ $quick = 1 ] && echo --quick)
fi

echo
echo "== the job view at scale: 10,000-rank synthetic job, 1 process vs map/reduce vs MPI (analyzer/mpi/bench_job.sh)"
bazel build -c opt --noshow_progress //:profanalyze //:profanalyze_mpi //analyzer/testing:make_job_traces 2>&1 \
  | grep -E "^(ERROR|FAILED)" || true
analyzer/mpi/bench_job.sh "$bin" $([ $quick = 1 ] && echo 2048 || echo 10000)

echo
echo "== agent: sustained recording rate at the default PROF_BUFFER_MB (scripts/sustained_rate.py)"
echo "   goals: zero loss for 1 thread at >= 5M calls/s, for 8 threads at >= 1M calls/s each"
bazel build -c opt --noshow_progress //agent/bench:record_rate_benchmark \
  //agent/bench:drain_rate_benchmark //agent/tests:trace_counts 2>&1 | grep -E "^(ERROR|FAILED)" || true
echo "   the machine's ceilings: the runtime call alone, and the writer alone"
"$bin/agent/bench/record_rate_benchmark" 1 0 2 | sed 's/^/   cudaEventRecord without the agent, 1 thread: /'
"$bin/agent/bench/drain_rate_benchmark" $([ $quick = 1 ] && echo 1000000 || echo 4000000)
"$bin/agent/bench/drain_rate_benchmark" $([ $quick = 1 ] && echo 1000000 || echo 4000000) launches
python3 scripts/sustained_rate.py --bin "$bin" --agent "$agent" --cupti "$cupti" \
  --seconds $([ $quick = 1 ] && echo 1 || echo 2) --steps $([ $quick = 1 ] && echo 3 || echo 5)
