#!/usr/bin/env bash
# The real-GPU check in one command: every workload under libprof beside its truth (the
# program's own counts, torch.profiler on the same steps), one table of verdicts.
#
#   scripts/gpu_check.sh [--out DIR] [--rounds N] [--expect-fail CHECK]...   on a GPU machine, from
#       the release package (needs nvidia-smi, nvcc, python3 with CUDA PyTorch; no network,
#       no Bazel); about 5-10 minutes
#   scripts/gpu_check.sh --simulated [--bin DIR] [--out DIR] ...     the same checks on the
#       simulated CUDA platform (DIR: bazel-bin, or a test's runfiles), Debian's CPU PyTorch
#
# Checks: (a) a plain C++ CUDA program, (b) a PyTorch loop against torch.profiler, (c)
# torch.profiler inside a profiled program, both orders, (d) NCCL, (e) a CUDA graph and
# torch.compile, (f) step-time cost. Traces, reports and logs stay in DIR (default
# ./gpu_check_out). Exit status 1 if any check FAILs (--expect-fail PREFIX: a known gap,
# shown as XFAIL; it fails the run once it passes; --expect-fail "~PREFIX": a check that
# passes or fails from run to run, XFAIL or PASS, neither fails the run), 2 on bad usage.
set -u
here="$(cd "$(dirname "$0")/.." && pwd)"   # the package root, or the repository
simulated=0 bin="$here/bazel-bin" out="$PWD/gpu_check_out" expect=() rounds=""
while [ $# -gt 0 ]; do
  case "$1" in
    --simulated) simulated=1; shift ;;
    --bin) bin="$(cd "$2" && pwd)" || exit 2; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --expect-fail) expect+=("$2"); shift 2 ;;
    --rounds) rounds="$2"; shift 2  # (f)'s interleaved rounds (default 5, simulated 3)
      [[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "gpu_check.sh: --rounds takes a positive number, not '$rounds'" >&2; exit 2; } ;;
    *) echo "gpu_check.sh: unknown option $1 (see the header of $0)" >&2; exit 2 ;;
  esac
done
mkdir -p "$out" && out="$(cd "$out" && pwd)" && rm -rf "${out:?}"/* || exit 2
src="$here/testdata/gpu"
verdicts="$out/verdicts.tsv"
python="${PYTHON:-python3}"
compare() { "$python" "$src/compare.py" "$verdicts" "$@"; }
skip() { compare skip "$1" "$2"; }
started=$(date +%s)

if [ $simulated = 1 ]; then
  agent="$bin/agent/libprof.so" analyzer="$bin/analyzer/cli/profanalyze" w="$bin/testdata/workloads"
  # The simulated programs find the simulated runtime through their RUNPATH; static_app has
  # no libcudart beside which the agent could look for CUPTI.
  export PROF_CUPTI_LIB="$bin/testdata/sim/libcupti.so.13"
  python=/usr/bin/python3   # Debian's CPU PyTorch 1.13
else
  agent="$here/lib/libprof.so" analyzer="$here/bin/profanalyze"
fi
for file in "$agent" "$analyzer" "$src/compare.py" "$src/train.py"; do
  [ -e "$file" ] || { echo "gpu_check.sh: $file is missing (--simulated: build with Bazel; on a GPU: run from the release package)" >&2; exit 2; }
done
export PYTHONUNBUFFERED=1

# run NAME TIMEOUT [under TRACEDIR] [VAR=VALUE...] CMD...: output to NAME.out/.err; a
# failure shows on the terminal. "under TRACEDIR": with the agent, its traces in TRACEDIR.
run() {
  local name=$1 limit=$2; shift 2
  if [ "$1" = under ]; then set -- env LD_PRELOAD="$agent" PROF_OUTPUT_DIR="$out/$2" "${@:3}"; fi
  timeout "$limit" "$@" > "$out/$name.out" 2> "$out/$name.err"
  local rc=$?
  [ $rc = 0 ] || { echo "gpu_check.sh: $name exited $rc:" >&2; tail -3 "$out/$name.err" >&2; }
  return $rc
}
analyze() {  # analyze TRACEDIR: the text report, JSON and the Chrome export beside it
  "$analyzer" "$out/$1" > "$out/$1.txt" 2>&1
  "$analyzer" "$out/$1" --format json > "$out/$1.json" 2> "$out/$1.json.err"
  "$analyzer" export "$out/$1" -o "$out/$1.chrome.json" > /dev/null 2>&1
}
window="skip_first=5,ready=1,record=5,repeat=1"   # steps 6-10 of the C++ program

echo "gpu_check.sh: $([ $simulated = 1 ] && echo simulated platform || nvidia-smi -L | head -1); output in $out"
# (a) + (e, graph): the plain C++ program, nvcc's defaults (static runtime).
if [ $simulated = 1 ]; then
  app="$w/static_app"
else
  app="$out/cuda_app"
  nvcc -o "$app" "$src/cuda_app.cu" > "$out/nvcc.log" 2>&1 || { echo "gpu_check.sh: nvcc failed (see $out/nvcc.log)" >&2; app=""; }
fi
if [ -n "$app" ] && run app 120 under t_app PROF_SCHEDULE=$window "$app" 20; then
  analyze t_app
  compare app "a: C++ program" "$out/t_app.json" "$out/app.out" 5
else
  compare count "a: C++ program ran" failed 0
fi

# (b) the PyTorch loop, iterations 4-8, beside torch.profiler on the same iterations.
steps=10
run train_tp 300 "$python" "$src/train.py" "$out/train_tp.json" --steps $steps --torch-profiler 4:9 "$out/train_tp.chrome.json" &&
  run train 300 under t_train PROF_SCHEDULE=4:9 "$python" "$src/train.py" "$out/train.json" --steps $steps &&
  analyze t_train
compare ops "b: ATen operator names and counts" "$out/t_train.json" "$out/train_tp.json"
"$analyzer" export "$out/t_train" -o "$out/t_train.kineto.json" --format kineto > /dev/null 2>&1
compare kineto "b: Kineto layout" "$out/t_train.kineto.json" "$out/train_tp.chrome.json"
# The window's last step against its others (ms): reading the window's operators at its end
# once lengthened it (ProfilerStep#8 43.5 ms, the others 9-10; torch.profiler's 8.3).
last_step_ms() {
  "$python" -c 'import json,statistics,sys
d = json.load(open(sys.argv[1])); events = d["traceEvents"] if isinstance(d, dict) else d
steps = sorted((e["ts"], e["dur"] / 1e3) for e in events if e.get("cat") == "user_annotation"
               and str(e.get("name", "")).startswith("ProfilerStep#"))
print(steps[-1][1], "/", statistics.median(dur for _, dur in steps[1:-1]))' "$1" 2>/dev/null || echo "0 / 1"
}
if [ $simulated = 1 ]; then
  skip "b: last recorded step vs the window's others" "CPU PyTorch: python/tests aten_operators_test"
else
  compare cost "b: last recorded step vs the window's others" 25 $(last_step_ms "$out/t_train.kineto.json")
fi
if [ $simulated = 1 ]; then
  skip "b: kernel names and counts, GPU time" "CPU PyTorch: no kernels"
  skip "b: unmatched correlation ids" "CPU PyTorch: no kernels"
else
  compare kernels "b" "$out/t_train.chrome.json" "$out/train_tp.chrome.json"
  compare unmatched "b: unmatched correlation ids" "$out/t_train.json"
fi

# (c) torch.profiler inside a profiled program, both orders: it keeps every kernel it
# gets alone; the agent records the steps before / after it.
if [ $simulated = 1 ]; then
  # The Kineto stand-in: 2 kernels a step, 2 ms a step; expected figures from its runs alone.
  # As train.py with torch.profiler: Kineto is initialized once, by the first profiler torch
  # prepares (tp_after: the helper's CPU-only operator collection in the agent's window,
  # which asks CUPTI for RUNTIME and DRIVER records), and keeps its subscription to the end. CUPTI completes a buffer when it is full or flushed
  # (SIM_CUPTI_LATE_BUFFERS=1), and Kineto flushes only while CUPTI holds one of its buffers.
  # The agent uses the CUPTI the program loaded (PROF_CUPTI_LIB unset), as it finds torch's:
  # one copy in the process, whose one subscription both share (a staged copy of the file
  # would be a second CUPTI).
  # SIM_CUPTI_HOLD_AFTER_FLUSH: CUPTI keeps a buffer of the client registered at a forced
  # flush, as CUDA 13.0's did on the H200 (tp_late: Kineto's records went into libprof's).
  n="$w/neighbour_app" sim=(SIM_CUPTI_LATE_BUFFERS=1 SIM_CUPTI_HOLD_AFTER_FLUSH=1)
  run kineto_alone 60 env "${sim[@]}" "$n" --steps 12 --kineto-init 1 --kineto-trace 2:6 --step-us 2000 &&
    run tp_first 60 under t_tp_first "${sim[@]}" PROF_CUPTI_LIB= PROF_SCHEDULE=skip_first=10,ready=1,record=4,repeat=1 "$n" --steps 16 --kineto-init 1 --kineto-trace 2:6 --step-us 2000 &&
    run tp_after 60 under t_tp_after "${sim[@]}" PROF_CUPTI_LIB= PROF_SCHEDULE=skip_first=1,ready=1,record=4,repeat=1 "$n" --steps 12 --kineto-init 2 --cpu-trace 2:6 --kineto-trace 8:12 --step-us 2000 &&
    run tp_late 60 under t_tp_late "${sim[@]}" PROF_CUPTI_LIB= PROF_SCHEDULE=skip_first=1,ready=1,record=4,repeat=1 "$n" --steps 16 --kineto-init 10 --kineto-trace 10:14 --step-us 2000
  analyze t_tp_first; analyze t_tp_after; analyze t_tp_late
  alone=$(awk '/kineto_kernels/ {print $2}' "$out/kineto_alone.out")
  compare count "c: torch.profiler first: its kernels" "$(awk '/kineto_kernels/ {print $2}' "$out/tp_first.out")" "$alone"
  compare count "c: torch.profiler first: agent's kernels after it" "$("$python" -c 'import json,sys; print(sum(r["calls"] for r in json.load(open(sys.argv[1]))["processes"][0]["tables"].get("kernel",{}).get("rows",[])))' "$out/t_tp_first.json")" "$alone"
  compare count "c: agent first: torch.profiler's kernels" "$(awk '/kineto_kernels/ {print $2}' "$out/tp_after.out")" "$alone"
  compare count "c: agent first: agent's kernels before it" "$("$python" -c 'import json,sys; print(sum(r["calls"] for r in json.load(open(sys.argv[1]))["processes"][0]["tables"].get("kernel",{}).get("rows",[])))' "$out/t_tp_after.json")" "$alone"
  compare count "c: torch.profiler prepared after the agent's window: its kernels" "$(awk '/kineto_kernels/ {print $2}' "$out/tp_late.out")" "$alone"
else
  # torch.profiler on iterations 2-6 then the agent on 10-14; the agent on 2-6 then torch.profiler on 10-14.
  run tp_alone 300 "$python" "$src/train.py" "$out/tp_alone.json" --steps 16 --torch-profiler 10:15 "$out/tp_alone.chrome.json"
  run tp_first 300 under t_tp_first PROF_SCHEDULE=10:15 "$python" "$src/train.py" "$out/tp_first.json" --steps 16 --torch-profiler 2:7 "$out/tp_first.chrome.json"
  run tp_after 300 under t_tp_after PROF_SCHEDULE=2:7 "$python" "$src/train.py" "$out/tp_after.json" --steps 16 --torch-profiler 10:15 "$out/tp_after.chrome.json"
  # torch.profiler created after the agent's window with a warm-up step (the H200's probe:
  # 325 of 575 kernels with d3825eb).
  run tp_late 300 under t_tp_late PROF_SCHEDULE=2:7 "$python" "$src/train.py" "$out/tp_late.json" --steps 16 --torch-profiler 10:15 "$out/tp_late.chrome.json" --torch-warmup
  analyze t_tp_first; analyze t_tp_after; analyze t_tp_late
  compare torch_kernels "c: torch.profiler first: its kernels" "$out/tp_first.chrome.json" "$out/tp_alone.chrome.json"
  compare torch_kernels "c: torch.profiler first: agent's kernels after it" "$out/t_tp_first.chrome.json" "$out/tp_alone.chrome.json"
  compare torch_kernels "c: agent first: torch.profiler's kernels" "$out/tp_after.chrome.json" "$out/tp_alone.chrome.json"
  compare torch_kernels "c: agent first: agent's kernels before it" "$out/t_tp_after.chrome.json" "$out/tp_alone.chrome.json"
  compare torch_kernels "c: torch.profiler prepared after the agent's window: its kernels" "$out/tp_late.chrome.json" "$out/tp_alone.chrome.json"
fi

# (d) NCCL: every call with its bytes, as the program counted them.
if [ $simulated = 1 ]; then
  if run nccl 120 under t_nccl "$w/train_ranks" --ranks 2 --steps 4 --truth "$out/nccl_truth.json"; then
    for rank in 0 1; do
      file=$(ls "$out"/t_nccl/*.pb | sed -n "$((rank + 1))p")   # one per process; the truth's rank order is checked below
      "$analyzer" "$file" --format json > "$out/t_nccl.$rank.json"
      read -r calls bytes < <("$python" -c 'import json,sys; t=json.load(open(sys.argv[1]))["totals"]["collectives"]; print(t["count"], t["bytes"])' "$out/nccl_truth.rank$rank.json")
      compare nccl "d: NCCL calls and bytes, process $rank" "$out/t_nccl.$rank.json" "$calls" "$bytes"
    done
  else
    compare count "d: NCCL program ran" failed 0
  fi
else
  run nccl 300 under t_nccl PROF_SCHEDULE=4:9 "$python" "$src/train.py" "$out/nccl.json" --steps 10 --nccl --model mlp && analyze t_nccl
  read -r calls bytes < <("$python" -c 'import json,sys; a=json.load(open(sys.argv[1]))["all_reduce"]; print(5 * a["calls_per_step"], 5 * a["bytes_per_step"])' "$out/nccl.json")
  compare nccl "d: NCCL calls and bytes (world size 1)" "$out/t_nccl.json" "$calls" "$bytes"
fi

# (e) torch.compile: the compiled model's kernels (Triton's) against torch.profiler's.
if [ $simulated = 1 ]; then
  skip "e: torch.compile" "not simulated (Debian 12's torch 1.13 has none)"
else
  run compile_tp 300 "$python" "$src/train.py" "$out/compile_tp.json" --steps 10 --compile --model mlp --torch-profiler 4:9 "$out/compile_tp.chrome.json" &&
    run compile 300 under t_compile PROF_SCHEDULE=4:9 "$python" "$src/train.py" "$out/compile.json" --steps 10 --compile --model mlp && analyze t_compile
  compare kernels "e: torch.compile" "$out/t_compile.chrome.json" "$out/compile_tp.chrome.json"
  compare unmatched "e: torch.compile: unmatched correlation ids" "$out/t_compile.json"
fi

# (f) step-time cost in interleaved rounds: CLOSED and RECORD against a plain run and
# against torch.profiler recording every step.
declare -A ms
# Five rounds on a GPU: three left a 1% verdict inside the plain runs' own spread (the
# first H100 run: 5.98-6.33 ms plain); three in the simulated check (CI time).
# --rounds N: fewer for a quick look (each round is about a minute on an H100).
[ -n "$rounds" ] || { rounds=5; [ $simulated = 1 ] && rounds=3; }
for round in $(seq $rounds); do
  if [ $simulated = 1 ]; then
    # The train workload's host-side cost; its truth file times each step.
    for cfg in plain closed record; do
      case $cfg in
        plain) cmd=("$w/train") ;;
        closed) cmd=(under t_cost PROF_SCHEDULE=skip_first=100000 "$w/train") ;;
        record) cmd=(under t_cost PROF_SCHEDULE=skip_first=2,ready=2,record=100,repeat=1 "$w/train") ;;
      esac
      run cost_${cfg}_$round 120 "${cmd[@]}" --steps 30 --truth "$out/cost_${cfg}_$round.json"
      ms[$cfg]+=" $("$python" -c 'import json,statistics,sys; s=json.load(open(sys.argv[1]))["steps"][5:]; print(statistics.median((x["end_ns"]-x["start_ns"])/1e6 for x in s))' "$out/cost_${cfg}_$round.json")"
    done
  else
    # record_noops: RECORD without the ATen operators (PROF_PYTHON_OPS=0), which
    # separates torch's own operator collection from the agent's CUPTI and phases.
    for cfg in plain closed record record_noops torchprof; do
      case $cfg in
        plain) pre=() extra=() ;;
        closed) pre=(under t_cost PROF_SCHEDULE=skip_first=100000) extra=() ;;
        record) pre=(under t_cost PROF_SCHEDULE=skip_first=2,ready=2,record=100,repeat=1) extra=() ;;
        record_noops) pre=(under t_cost PROF_PYTHON_OPS=0 PROF_SCHEDULE=skip_first=2,ready=2,record=100,repeat=1) extra=() ;;
        torchprof) pre=() extra=(--torch-profiler 2:end "$out/cost_tp.chrome.json") ;;
      esac
      run cost_${cfg}_$round 120 "${pre[@]}" "$python" "$src/train.py" "$out/cost_${cfg}_$round.json" --model mlp --steps 60 "${extra[@]}"
      ms[$cfg]+=" $("$python" -c 'import json,sys; print(json.load(open(sys.argv[1]))["median_step_ms"])' "$out/cost_${cfg}_$round.json")"
    done
  fi
  rm -rf "$out/t_cost"
done
if [ $simulated = 1 ]; then
  compare cost "f: CLOSED vs plain (simulated, host side)" 5 ${ms[closed]} / ${ms[plain]}
  compare cost "f: RECORD vs plain (simulated, host side)" 15 ${ms[record]} / ${ms[plain]}
  skip "f: vs torch.profiler" "no GPU"
else
  # The goals of issue 24: CLOSED <= +1%, RECORD <= +10%, both below torch.profiler's.
  compare cost "f: CLOSED vs plain" 1 ${ms[closed]} / ${ms[plain]}
  compare cost "f: RECORD vs plain" 10 ${ms[record]} / ${ms[plain]}
  compare cost "f: RECORD, PROF_PYTHON_OPS=0 vs plain" 10 ${ms[record_noops]} / ${ms[plain]}
  # What a 1% verdict can resolve: the plain run's own spread over the rounds.
  compare cost "f: noise: plain, slowest round vs fastest" 1 \
    "$(printf '%s\n' ${ms[plain]} | sort -g | tail -1)" / "$(printf '%s\n' ${ms[plain]} | sort -g | head -1)"
  compare cost "f: RECORD vs torch.profiler" 0 ${ms[record]} / ${ms[torchprof]}
fi

echo
compare table "${expect[@]}" | tee "$out/verdicts.txt"
status=${PIPESTATUS[0]}
echo "gpu_check.sh: $(( $(date +%s) - started )) s; traces, reports and logs in $out"
exit $status
