#!/usr/bin/env bash
# The analyzer benchmark (figures, not a test): writes a synthetic trace of N events
# (analyzer_benchmark --write), times `profanalyze --format json` on it (file -> all
# tables, one thread), then the same timeline cut into 10 window files of one process (as a
# cycling PROF_SCHEDULE or PROF_STEPS_PER_FILE writes it: analyzed one file at a time, so
# the peak memory is one file's), and, as the baseline, the same Kernel Summary computed by pandas
# (kernel_summary_pandas.py) from the Chrome JSON export of the same trace. Then the peak
# memory of the summary for 1M and 10M events in one file (with --huge, 125M too: a 1 GB
# file, about 1 GB more disk while it runs and a few minutes), beside the goal (<= 1 GiB
# whatever the file's size: a large window is analyzed in step-aligned slices), and of
# export (Chrome JSON), compare and info on the N-event file; with
# --compare-with, another build's profanalyze is measured on the same files, side by side.
#
#   analyzer/bench/run_benchmark.sh [--events N] [--baseline-events N] [--workdir DIR] [--no-baseline] [--quick]
#                                   [--huge] [--compare-with PROFANALYZE]
#   BAZEL_STARTUP="--output_user_root=/tmp/x" BAZEL_BUILD_FLAGS="--symlink_prefix=/" \
#     analyzer/bench/run_benchmark.sh
#
# "Per core" = events / (user + system CPU seconds) of the one-thread run, so a busy
# machine does not distort it; wall seconds are printed beside, and the goal (>= 20M
# events/s per core, issue 22) beside the figure. --compare-with times another profanalyze
# build (e.g. the previous commit's, built into a folder of its own) on the same files in
# the same run, alternating with this one, so a loaded machine affects both alike. pandas needs about
# 1.5 KB of memory per event; when the trace would not fit in 40 % of MemAvailable (or is
# larger than --baseline-events) the baseline runs on a smaller trace (printed) and
# profanalyze is timed on that one too, so the ratio always compares the same file.
set -euo pipefail
cd "$(dirname "$0")/../.."

events=10000000
work="${TMPDIR:-/tmp}/prof-analyzer-bench"
baseline=1
baseline_cap=0
compare=""
goal=20  # M events/s per core
memory_events="1000000 10000000"
while [ $# -gt 0 ]; do
  case "$1" in
    --events) events="$2"; shift 2 ;;
    --workdir) work="$2"; shift 2 ;;
    --baseline-events) baseline_cap="$2"; shift 2 ;;
    --no-baseline) baseline=0; shift ;;
    --quick) events=1000000; memory_events=1000000; shift ;;
    --huge) memory_events="$memory_events 125000000"; shift ;;
    --compare-with) compare="$2"; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
if [ ! -x /usr/bin/time ]; then
  echo "run_benchmark.sh needs GNU time at /usr/bin/time (Debian: apt-get install time)" >&2
  exit 2
fi
python="${PYTHON:-/usr/bin/python3}"   # Debian's python3-pandas is for the system python
[ -x "$python" ] || python=python3

bazel ${BAZEL_STARTUP:-} build -c opt ${BAZEL_BUILD_FLAGS:-} --noshow_progress //analyzer/bench:analyzer_benchmark \
  //analyzer/cli:profanalyze >&2
bin="$(bazel ${BAZEL_STARTUP:-} info -c opt ${BAZEL_BUILD_FLAGS:-} bazel-bin 2>/dev/null)"
mkdir -p "$work"

# Runs a command under GNU time; prints "cpu_seconds wall_seconds peak_rss_kib".
measure() {
  local out="$work/time.txt"
  /usr/bin/time -f "%U %S %e %M" -o "$out" "$@" >"$work/stdout.txt"
  awk '{ printf "%.2f %.2f %d\n", $1 + $2, $3, $4 }' "$out"
}

# Writes a trace of about $1 events to $2; prints the exact event count.
write_trace() { "$bin/analyzer/bench/analyzer_benchmark" --events="$1" --write="$2"; }

profanalyze_figures() {  # trace events label
  read -r cpu wall rss < <(measure "$bin/analyzer/cli/profanalyze" "$1" --format json --threads 1)
  printf '%-44s %s / %s\n' "profanalyze ($3): CPU s / wall s" "$cpu" "$wall"
  printf '%-44s %.2f (goal >= %d)\n' "profanalyze ($3): M events/s per core" \
    "$(awk -v e="$2" -v s="$cpu" 'BEGIN{print e/s/1e6}')" "$goal"
  printf '%-44s %d\n' "profanalyze ($3): peak RSS, MiB" $((rss / 1024))
  profanalyze_cpu="$cpu"; profanalyze_rss="$rss"
  if [ -n "$compare" ]; then
    read -r ccpu cwall crss < <(measure "$compare" "$1" --format json --threads 1)
    printf '%-44s %s / %s, %.2f M events/s per core, %d MiB (this: %.2fx less CPU)\n' \
      "  same input, $compare:" "$ccpu" "$cwall" "$(awk -v e="$2" -v s="$ccpu" 'BEGIN{print e/s/1e6}')" \
      $((crss / 1024)) "$(awk -v a="$ccpu" -v b="$cpu" 'BEGIN{print a/b}')"
  fi
}

trace="$work/trace.pb"
written="$(write_trace "$events" "$trace")"
echo "== analyzer benchmark: $(date -u +%Y-%m-%d), $(nproc) cores, $(uname -m), load $(cut -d' ' -f1 /proc/loadavg)"
printf '%-44s %s\n' "events" "$written"
printf '%-44s %s (%.1f bytes/event)\n' "trace file size, bytes" "$(stat -c %s "$trace")" \
  "$(awk -v b="$(stat -c %s "$trace")" -v e="$written" 'BEGIN{print b/e}')"
profanalyze_figures "$trace" "$written" "full trace"
full_cpu="$profanalyze_cpu"; full_rss="$profanalyze_rss"
windows="$work/windows"
rm -rf "$windows" && mkdir -p "$windows"
"$bin/analyzer/bench/analyzer_benchmark" --events="$events" --windows=10 --write="$windows" >/dev/null
profanalyze_figures "$windows" "$written" "10 window files"
rm -rf "$windows"

# Peak memory against the size of one file: the figure the 1 GiB goal is about.
memory_figures() {  # trace events label binary
  read -r cpu wall rss < <(measure "$4" "$1" --format json --threads 1)
  printf '%-44s %6d MiB  (CPU %s s, wall %s s)\n' "$3" $((rss / 1024)) "$cpu" "$wall"
}
echo "-- peak RSS of the summary (--format json, one thread), one file; goal <= 1024 MiB"
for n in $memory_events; do
  if [ "$n" = "$events" ]; then one="$trace"; else one="$work/memory.pb"; write_trace "$n" "$one" >/dev/null; fi
  label="$((n / 1000000))M events in one file ($(($(stat -c %s "$one") / 1048576)) MiB)"
  memory_figures "$one" "$n" "$label" "$bin/analyzer/cli/profanalyze"
  # A build that reads the file whole needs about 95 bytes per event (125M: 11 GiB).
  if [ -n "$compare" ] && [ $((n / 1024 * 95)) -gt $(($(awk '/MemAvailable/ {print $2}' /proc/meminfo) * 6 / 10)) ]; then
    echo "  the same, $compare: skipped (a whole read would need about $((n / 1024 * 95 / 1024)) MiB)"
  elif [ -n "$compare" ]; then
    memory_figures "$one" "$n" "  the same, $compare" "$compare"
  fi
  [ "$one" = "$trace" ] || rm -f "$one"
done
# The other commands that read a whole window (export, compare, info) on the same one-file
# trace: a file over 32 MiB is read in step-aligned slices by each, as by the summary.
command_figures() {  # label binary args...
  local label="$1" binary="$2"; shift 2
  read -r cpu wall rss < <(measure "$binary" "$@")
  printf '%-44s %6d MiB  (CPU %s s, wall %s s)\n' "$label" $((rss / 1024)) "$cpu" "$wall"
}
echo "-- peak RSS of other commands, $((written / 1000000))M events in one file; goal <= 1024 MiB"
for row in "export (Chrome JSON):export $trace -o /dev/null" "compare (the file with itself):compare $trace $trace" \
           "info:info $trace"; do
  label="${row%%:*}"; read -r -a args <<<"${row#*:}"
  command_figures "$label" "$bin/analyzer/cli/profanalyze" "${args[@]}"
  if [ -n "$compare" ]; then command_figures "  the same, $compare" "$compare" "${args[@]}"; fi
done
profanalyze_cpu="$full_cpu"; profanalyze_rss="$full_rss"

if [ "$baseline" = 0 ]; then exit 0; fi
if ! "$python" -c "import pandas" 2>/dev/null; then
  echo "note: pandas is not installed for $python (Debian: apt-get install -y python3-pandas); baseline skipped"
  exit 0
fi
available_kib="$(awk '/MemAvailable/ {print $2}' /proc/meminfo)"
fit_events=$((available_kib * 4 / 10 * 1024 / 1536))
if [ "$baseline_cap" -gt 0 ] && [ "$baseline_cap" -lt "$fit_events" ]; then fit_events="$baseline_cap"; fi
baseline_trace="$trace"; baseline_events="$written"; label="full trace"
if [ "$fit_events" -lt "$written" ]; then
  baseline_trace="$work/baseline.pb"
  baseline_events="$(write_trace "$fit_events" "$baseline_trace")"
  label="$baseline_events events"
  echo "note: pandas would need about $((written * 3 / 2 / 1024 / 1024)) GiB for the full trace" \
       "(limit: $fit_events events); the baseline compares both tools on a $baseline_events-event trace"
  profanalyze_figures "$baseline_trace" "$baseline_events" "$label"
fi
"$bin/analyzer/cli/profanalyze" export "$baseline_trace" -o "$work/trace.json" >&2
printf '%-44s %s\n' "Chrome JSON export ($label), bytes" "$(stat -c %s "$work/trace.json")"
read -r pcpu pwall prss < <(measure "$python" analyzer/bench/kernel_summary_pandas.py "$work/trace.json" --top 5)
printf '%-44s %s / %s\n' "pandas kernel summary ($label): CPU s / wall s" "$pcpu" "$pwall"
printf '%-44s %d\n' "pandas kernel summary ($label): peak RSS, MiB" $((prss / 1024))
printf '%-44s %.1fx CPU time, %.1fx peak RSS\n' "pandas / profanalyze (same trace)" \
  "$(awk -v a="$pcpu" -v b="$profanalyze_cpu" 'BEGIN{print a/b}')" \
  "$(awk -v a="$prss" -v b="$profanalyze_rss" 'BEGIN{print a/b}')"
grep "kernel records" "$work/stdout.txt" || true
rm -f "$work/trace.json" "$work/baseline.pb"
