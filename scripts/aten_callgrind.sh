#!/bin/bash
# Instructions per iteration of aten_cost.py's loop under callgrind (docs/benchmarks.md,
# "PyTorch operators"): the counted loop of the program's thread (the part between the two
# getppid dumps) plus every other thread (the agent's writer) from the warm-up on, over the
# counted iterations. Instrumentation starts just before the warm-up (the import of torch
# runs uninstrumented: minutes instead of half an hour on a loaded machine).
#   scripts/aten_callgrind.sh OUT_DIR LABEL plain|torch.profiler [AGENT_ROOT PROF_PYTHON_OPS]
# AGENT_ROOT: a folder with agent/libprof.so (its helper beside it) and
# testdata/sim/libcupti.so.13, e.g. a copy of bazel-bin from a -c opt build; none: no agent.
set -euo pipefail
out_dir=$1 label=$2 mode=$3 agent=${4:-} operators=${5:-}
iterations=200
here=$(cd "$(dirname "$0")" && pwd)
out=$out_dir/cg.$label
rm -rf "$out".* "$out_dir/ready.$label" "$out_dir/go.$label" "$out_dir/trace.$label"
env_args=(PYTHONHASHSEED=0)
if [ -n "$agent" ]; then
  env_args+=(LD_PRELOAD="$agent/agent/libprof.so"
             PROF_CUPTI_LIB="$agent/testdata/sim/libcupti.so.13"
             PROF_OUTPUT_DIR="$out_dir/trace.$label" PROF_PYTHON_OPS="$operators")
fi
env -u LD_PRELOAD "${env_args[@]}" valgrind --tool=callgrind --separate-threads=yes \
  --instr-atstart=no --dump-before=getppid --callgrind-out-file="$out" \
  /usr/bin/python3 "$here/aten_callgrind_loop.py" "$mode" "$iterations" \
  "$out_dir/ready.$label" "$out_dir/go.$label" > "$out_dir/log.$label" 2>&1 &
valgrind_pid=$!
while [ ! -e "$out_dir/ready.$label" ] && kill -0 "$valgrind_pid" 2>/dev/null; do sleep 1; done
callgrind_control -i on "$valgrind_pid" >> "$out_dir/log.$label" 2>&1
touch "$out_dir/go.$label"
wait "$valgrind_pid"
# A part's instructions (0 for a thread that ran none in it: its file has no totals).
total() {
  callgrind_annotate "$1" | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); n = $1} END {print n + 0}'
}
# The agent calls getppid once more before the loop: its loop is the third part there.
if [ -n "$agent" ]; then loop=$(total "$out.3-01"); else loop=$(total "$out.2-01"); fi
others=0
for file in "$out"-0[2-9] "$out".*-0[2-9]; do
  [ -e "$file" ] && others=$((others + $(total "$file")))
done
echo "$label: program thread's loop $loop, other threads $others," \
  "$(((loop + others) / iterations)) an iteration"
rm -rf "$out_dir/trace.$label"
