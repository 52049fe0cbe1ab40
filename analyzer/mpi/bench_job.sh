#!/usr/bin/env bash
# The job view at scale: wall time and peak memory for a synthetic 10,000-rank job
# (analyzer/testing/make_job_traces), by profanalyze (one process, the baseline), by
# profanalyze map + reduce (8 partials), and by profanalyze-mpi under mpirun -n 1, 2, 4;
# each output compared with profanalyze's. Goals: the same bytes; <= 60 s wall and <= 1 GB
# per process (the issue's memory goal) on this machine. TP > 1: tensor x data parallel
# groups (many communicators, make_job_traces); STEPS: more collectives per rank.
# BASELINE_MPI=an older build's profanalyze-mpi: measured beside this one, in the same run
# (the largest process's peak is the one that grows with the job). Under mpirun, the header
# phase (expanding the PATHs, reading the headers, the shares) is printed too: MPI rank 0's
# wall and CPU and the slowest rank's (a baseline without PROFANALYZE_MPI_PHASE_TIMES: none).
#
#   [BASELINE_MPI=PATH] analyzer/mpi/bench_job.sh BAZEL_BIN [RANKS [TP [STEPS]]]
set -euo pipefail
bin="$1"
ranks="${2:-10000}"
tp="${3:-1}"
steps="${4:-}"
scratch="$(mktemp -d /tmp/prof-job-bench.XXXXXX)"
trap 'rm -rf "$scratch"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
profanalyze="$bin/analyzer/cli/profanalyze"
mpi="$bin/analyzer/mpi/profanalyze-mpi"

"$bin/analyzer/testing/make_job_traces" "$scratch/job" "$ranks" $((ranks * 11 / 16)) "$tp" $steps | sed 's/^/   /'
echo "   $(du -sh "$scratch/job" | cut -f1) of rank files; goals: same bytes, <= 60 s, <= 1 GB per process"

# LABEL EXPECTED COMMAND...: wall time, the largest peak RSS of its processes, same bytes or not.
measure() {
  local label="$1" expected="$2"
  shift 2
  local start end
  start=$(date +%s.%N)
  : >"$scratch/time.txt"
  "$@" >"$scratch/out.txt" 2>"$scratch/err.txt"
  end=$(date +%s.%N)
  local peak peaks
  peak=$(grep -o 'peak_kb=[0-9]*' "$scratch/time.txt" | cut -d= -f2 | sort -n | tail -1)
  peaks=$(grep -o 'peak_kb=[0-9]*' "$scratch/time.txt" | cut -d= -f2 | sort -n | awk '{printf "%s%.0f", (NR > 1 ? "/" : ""), $1 / 1024}')
  local same="-"
  [ -n "$expected" ] && { cmp -s "$expected" "$scratch/out.txt" && same="same bytes" || same="DIFFERENT"; }
  local cpu
  cpu=$(grep -o 'cpu=[0-9.]*+[0-9.]*' "$scratch/time.txt" | tr '=+' '  ' | awk '{s += $2 + $3} END {printf "%.2f", s}')
  printf "   %-40s %7.2f s  CPU %6.2f s  peak %6.0f MiB per process (%s)  %s\n" "$label" \
    "$(echo "$end - $start" | bc)" "$cpu" "$(echo "${peak:-0} / 1024" | bc -l)" "$peaks" "$same"
  # The header phase (PROFANALYZE_MPI_PHASE_TIMES): MPI rank 0's, and the slowest rank's.
  grep -q ': headers: wall' "$scratch/err.txt" || return 0
  sed -n 's/.*MPI rank \([0-9]*\): headers: wall \([0-9.]*\) s, CPU \([0-9.]*\) s/\1 \2 \3/p' \
    "$scratch/err.txt" | sort -k2,2g | awk '$1 == 0 {r0 = $2 " s, CPU " $3 " s"} {last = "rank " $1 ": " $2 " s, CPU " $3 " s"}
      END {printf "   %-40s rank 0: %s; slowest, %s\n", "  header phase", r0, last}'
}
export PROFANALYZE_MPI_PHASE_TIMES=1  # each MPI rank's header phase on stderr, read above
timed() { /usr/bin/time -a -o "$scratch/time.txt" -f "peak_kb=%M cpu=%U+%S" "$@"; }

measure "profanalyze (1 process)" "" timed "$profanalyze" "$scratch/job"
cp "$scratch/out.txt" "$scratch/expected.txt"
map_reduce() {
  local files=("$scratch"/job/*.pb) parts=() p
  for p in 0 1 2 3 4 5 6 7; do
    timed "$profanalyze" map $(printf '%s\n' "${files[@]}" | awk -v p=$p 'NR % 8 == p') -o "$scratch/part$p.pb"
    parts+=("$scratch/part$p.pb")
  done
  timed "$profanalyze" reduce "${parts[@]}"
}
measure "profanalyze map x8 + reduce" "$scratch/expected.txt" map_reduce
for p in 1 2 4; do
  measure "mpirun -n $p profanalyze-mpi" "$scratch/expected.txt" \
    mpirun -n $p --oversubscribe -x PROFANALYZE_MPI_PHASE_TIMES /usr/bin/time -a -o "$scratch/time.txt" -f "peak_kb=%M cpu=%U+%S" "$mpi" "$scratch/job"
  [ -n "${BASELINE_MPI:-}" ] || continue
  measure "mpirun -n $p baseline profanalyze-mpi" "$scratch/expected.txt" \
    mpirun -n $p --oversubscribe -x PROFANALYZE_MPI_PHASE_TIMES /usr/bin/time -a -o "$scratch/time.txt" -f "peak_kb=%M cpu=%U+%S" "$BASELINE_MPI" "$scratch/job"
done
