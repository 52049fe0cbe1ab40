#!/usr/bin/env bash
# profanalyze-mpi under `mpirun -n P --oversubscribe` (P = 1, 2, 3, 4) prints the bytes that
# profanalyze prints for the same 16 rank files (the issue's example: rank 11 the
# straggler): the job view as text (the default past 8 ranks, and --views job) and as
# JSON; every rank's tables through the partials (--rank, --all-ranks, --views, JSON) on
# those 16 ranks and on a 3-rank job (whose default text is every rank's tables); and the
# same on a tensor x data parallel job (32 ranks in 8 tensor groups of 4 and 4 data groups
# of 8: 12 communicators, whose collectives are exchanged by communicator between the MPI
# processes). With a rank file missing and one truncated, it prints what profanalyze map +
# reduce print (profanalyze itself refuses a missing PATH): both unreadable, counted, each
# named once, whichever MPI rank read the truncated file's header.
#
#   mpi_job_test.sh PROFANALYZE PROFANALYZE_MPI MAKE_JOB_TRACES
set -uo pipefail

profanalyze="$1"
mpi="$2"
make_job_traces="$3"
work="${TEST_TMPDIR:-$(mktemp -d)}/mpi_job"
rm -rf "$work" && mkdir -p "$work"
# Open MPI refuses root without these (CI containers run as root), and needs a writable
# session folder.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 TMPDIR="$work"
failures=0

check_same() {  # NAME EXPECTED ACTUAL
  if cmp -s "$2" "$3"; then
    echo "ok: $1"
  else
    echo "FAIL: $1 differs from profanalyze's:"
    diff "$2" "$3" | head -20 | cut -c1-300
    failures=$((failures + 1))
  fi
}

"$make_job_traces" "$work/job" 16 11 >/dev/null || exit 1
"$make_job_traces" "$work/jobtp" 32 29 4 >/dev/null || exit 1
for job in job jobtp; do
  "$profanalyze" "$work/$job" >"$work/$job.default.txt" || exit 1
  "$profanalyze" --views job "$work/$job" >"$work/$job.job.txt" || exit 1
  "$profanalyze" --views job --format json "$work/$job" >"$work/$job.job.json" || exit 1
done
grep -q "Straggler: rank 11" "$work/job.default.txt" || { echo "FAIL: profanalyze does not name rank 11"; exit 1; }
grep -q "Straggler: rank 29" "$work/jobtp.default.txt" || { echo "FAIL: profanalyze does not name rank 29"; exit 1; }
grep -q "Job: 32 rank(s) on 4 host(s); 240 collective(s)" "$work/jobtp.default.txt" ||
  { echo "FAIL: the tensor x data parallel job is not 12 communicators x 20 steps"; exit 1; }

for job in job jobtp; do
  for p in 1 2 3 4; do
    [ "$job" = jobtp ] && [ "$p" = 3 ] && continue  # 1, 2 and 4 suffice for the second job
    mpirun -n "$p" --oversubscribe "$mpi" "$work/$job" >"$work/$job.mpi$p.txt" 2>"$work/$job.mpi$p.err" ||
      { echo "FAIL: mpirun -n $p exited $?"; cat "$work/$job.mpi$p.err"; failures=$((failures + 1)); }
    check_same "$job, mpirun -n $p, default text" "$work/$job.default.txt" "$work/$job.mpi$p.txt"
    mpirun -n "$p" --oversubscribe "$mpi" --views job "$work/$job" >"$work/$job.mpi$p.job.txt" 2>/dev/null
    check_same "$job, mpirun -n $p, --views job" "$work/$job.job.txt" "$work/$job.mpi$p.job.txt"
    mpirun -n "$p" --oversubscribe "$mpi" --views job --format json "$work/$job" >"$work/$job.mpi$p.json" 2>/dev/null
    check_same "$job, mpirun -n $p, --views job --format json" "$work/$job.job.json" "$work/$job.mpi$p.json"
  done
done

# The exchange in many small rounds (a job past 1 GiB per process takes several): 4 KiB.
PROFANALYZE_MPI_ROUND_BYTES=4096 mpirun -n 3 --oversubscribe -x PROFANALYZE_MPI_ROUND_BYTES \
  "$mpi" "$work/jobtp" >"$work/jobtp.rounds.txt" 2>/dev/null
check_same "jobtp, mpirun -n 3, 4 KiB exchange rounds" "$work/jobtp.default.txt" "$work/jobtp.rounds.txt"

# Per-rank tables: each option line as profanalyze prints it, at P = 2 and 3.
"$make_job_traces" "$work/job3" 3 1 >/dev/null || exit 1
option_lines=("" "--rank 1" "--all-ranks" "--views kernel,distributed,data_quality"
  "--format json" "--sorted-by GPUTotal --top 2 --time-unit us")
for job in job3 job jobtp; do
  for i in "${!option_lines[@]}"; do
    read -r -a opts <<<"${option_lines[$i]}"
    "$profanalyze" "${opts[@]}" "$work/$job" >"$work/$job.$i.expected" 2>/dev/null || exit 1
    for p in 2 3; do
      mpirun -n "$p" --oversubscribe "$mpi" "${opts[@]}" "$work/$job" >"$work/$job.$i.mpi$p" 2>/dev/null
      check_same "$job, mpirun -n $p, '${option_lines[$i]}'" "$work/$job.$i.expected" "$work/$job.$i.mpi$p"
    done
  done
done
grep -q "Kernel Summary" "$work/job3.0.expected" || { echo "FAIL: no per-rank tables for 3 ranks"; failures=$((failures + 1)); }

# Damaged inputs: rank 15's file cut to 64 bytes, a 17th rank file that does not exist.
head -c 64 "$work/job/rank_00015.pb" >"$work/cut.pb"
inputs=("$work"/job/rank_0000*.pb "$work"/job/rank_0001[0-4].pb "$work/cut.pb" "$work/absent.pb")
"$profanalyze" map "${inputs[@]}" -o "$work/part.pb" 2>/dev/null || { echo "FAIL: map"; exit 1; }
"$profanalyze" reduce "$work/part.pb" >"$work/reduced.txt" 2>/dev/null || { echo "FAIL: reduce"; exit 1; }
grep -q "Job: 15 rank(s) .* 2 unreadable file(s)." "$work/reduced.txt" ||
  { echo "FAIL: reduce does not count the 2 unreadable files"; head -4 "$work/reduced.txt"; failures=$((failures + 1)); }
mpirun -n 3 --oversubscribe "$mpi" "${inputs[@]}" >"$work/mpi_damaged.txt" 2>/dev/null ||
  { echo "FAIL: mpirun -n 3 on damaged inputs exited $?"; failures=$((failures + 1)); }
check_same "mpirun -n 3, damaged inputs (vs map + reduce)" "$work/reduced.txt" "$work/mpi_damaged.txt"

# Each MPI rank reads the headers of its slice of the 17 inputs: the cut file, 11th (index
# 10), is in MPI rank 1's slice at P = 2 and 3 ([9,17), [6,12)) and rank 2's at P = 4
# ([9,13)), never rank 0's; the output is still map + reduce's, and each unreadable input is
# one line on stderr, once.
inputs=("$work"/job/rank_0000*.pb "$work/cut.pb" "$work"/job/rank_0001[0-4].pb "$work/absent.pb")
"$profanalyze" map "${inputs[@]}" -o "$work/part_mid.pb" 2>/dev/null || { echo "FAIL: map"; exit 1; }
"$profanalyze" reduce "$work/part_mid.pb" >"$work/reduced_mid.txt" 2>/dev/null || { echo "FAIL: reduce"; exit 1; }
for p in 2 3 4; do
  mpirun -n "$p" --oversubscribe "$mpi" "${inputs[@]}" >"$work/mpi_mid$p.txt" 2>"$work/mpi_mid$p.err" ||
    { echo "FAIL: mpirun -n $p on damaged inputs exited $?"; failures=$((failures + 1)); }
  check_same "mpirun -n $p, cut file in another MPI rank's slice" "$work/reduced_mid.txt" "$work/mpi_mid$p.txt"
  for name in cut.pb absent.pb; do
    count=$(grep -c "$name" "$work/mpi_mid$p.err")
    [ "$count" = 1 ] || { echo "FAIL: mpirun -n $p: $name on stderr $count time(s), not once"; failures=$((failures + 1)); }
  done
done

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "all same"
