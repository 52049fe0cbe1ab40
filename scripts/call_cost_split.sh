#!/bin/bash
# Where a recorded call's cost goes, by thread: ns a launch of the launching thread's hook
# (the agent's own samples, by its file name), its kernel time, the writer thread's time
# (and its kernel part), and the process's page faults, for each agent given, runs
# alternating. perf's software clock (this VM has no hardware counters), 20 kHz: one
# sample is 50 us.
#   scripts/call_cost_split.sh BAZEL_BIN RUNS LAUNCHES libprof.so [other libprof.so ...]
# (PROF_ACTIVITIES=cuda, as process_call_cost.py; launch_stress from BAZEL_BIN, -c opt.)
set -euo pipefail
bin=$1 runs=$2 launches=$3
shift 3
scratch=$(mktemp -d /tmp/prof-call-split.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
export PROF_LOG_LEVEL=error PROF_ACTIVITIES=cuda
program=("$bin/testdata/workloads/launch_stress" --launches "$launches" --truth "$scratch/truth.json")
for _ in $(seq "$runs"); do
  for agent in "$@"; do
    rm -rf "$scratch/out"
    PROF_OUTPUT_DIR="$scratch/out" LD_PRELOAD=$agent perf record -q -F 20000 -e cpu-clock \
      -o "$scratch/perf.data" -- "${program[@]}" >/dev/null 2>&1
    rm -rf "$scratch/out"
    faults=$(PROF_OUTPUT_DIR="$scratch/out" LD_PRELOAD=$agent perf stat -x, -e page-faults \
      -- "${program[@]}" 2>&1 >/dev/null | grep page-faults | cut -d, -f1)
    # perf names a shared object by its file name: an agent copied aside as base.so is base.so.
    perf report -i "$scratch/perf.data" --sort comm,dso --stdio -F sample,comm,dso 2>/dev/null |
      grep -v '^#' | grep -v '^$' | awk -v n="$launches" -v agent="$agent" -v faults="$faults" \
        -v dso="$(basename "$agent")" '
        { ns = $1 * 50000 / n
          if ($2 == "prof-writer") { writer += ns; if ($3 == "[kernel.kallsyms]") writer_kernel += ns }
          else if ($3 == dso) hook += ns
          else if ($3 == "[kernel.kallsyms]") program_kernel += ns }
        END { printf "%-28s hook %5.1f  program kernel %4.1f  writer %5.1f (kernel %4.1f)  faults %s\n",
                     agent, hook, program_kernel, writer, writer_kernel, faults }'
  done
done
