#!/usr/bin/env bash
# Records the simulated training workloads under libprof.so (one process; two ranks), then
# runs analysis_test.py with Debian's /usr/bin/python3 (the interpreter the extension is
# built for, with python3-torch) against those traces and profanalyze.
#
#   analysis_test.sh LIBPROF TRAIN TRAIN_RANKS LIBCUPTI PROFANALYZE EXTENSION OTHER_PROTOBUF TEST_PY
set -euo pipefail

libprof="$(realpath "$1")" train="$(realpath "$2")" train_ranks="$(realpath "$3")"
cupti="$(realpath "$4")"
export ANALYSIS_TEST_PROFANALYZE="$(realpath "$5")"
extension="$(realpath "$6")"
export ANALYSIS_TEST_OTHER_PROTOBUF="$(realpath "$7")"
test_py="$8"
work="$(mktemp -d "${TEST_TMPDIR:-/tmp}/analysis_test.XXXXXX")"
export ANALYSIS_TEST_WORK="$work"
export ANALYSIS_TEST_LIBPROF="$libprof"
# The helper package with the extension beside it (bazel-bin/agent/python/libprof/).
export ANALYSIS_TEST_PACKAGE_ROOT="$(dirname "$(dirname "$extension")")"

# Steps 0-1 skipped, 2-5 recorded, 6-7 after the window.
LD_PRELOAD="$libprof" PROF_OUTPUT_DIR="$work/train" PROF_SCHEDULE=skip_first=2,record=4,repeat=1 \
  PROF_CUPTI_LIB="$cupti" "$train" --steps 8 --truth "$work/train_truth.json" > "$work/train.log" 2>&1 ||
  { echo "FAIL: the train workload under the agent"; cat "$work/train.log"; exit 1; }
# Two ranks started as torchrun starts them (RANK, WORLD_SIZE, LOCAL_RANK), so each
# file's header carries its rank.
pids=()
for rank in 0 1; do
  RANK=$rank WORLD_SIZE=2 LOCAL_RANK=$rank LD_PRELOAD="$libprof" PROF_OUTPUT_DIR="$work/ranks" \
    PROF_SCHEDULE=skip_first=1,record=3,repeat=1 PROF_CUPTI_LIB="$cupti" \
    "$train_ranks" --steps 5 --rendezvous "$work/rendezvous.id" \
    --truth "$work/ranks_truth_$rank.json" > "$work/rank_$rank.log" 2>&1 &
  pids+=($!)
done
for rank in 0 1; do
  wait "${pids[$rank]}" || { echo "FAIL: train_ranks rank $rank under the agent"; cat "$work/rank_$rank.log"; exit 1; }
done

exec /usr/bin/python3 -B "$test_py"
