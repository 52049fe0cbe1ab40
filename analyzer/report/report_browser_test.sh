#!/usr/bin/env bash
# The HTML report in a real browser: renders the report of a 4-rank run in Debian's
# headless Chromium with every host name unresolvable (the page must need nothing from
# elsewhere), fails on any script error, checks that every chart drew shapes (the memory
# charts: the allocator samples and host RSS) and that
# the findings are on the page, and saves a screenshot (report.png among the test's
# outputs: bazel-testlogs/analyzer/report/report_browser_test/test.outputs/).
# Then a 2,048-rank synthetic job (rank 1500 the injected straggler) in the job layout
# (job_layout.h): one file under 1.5 MB, no script errors, the straggler named and charted
# first, at most 32 charted ranks with the rest counted, the heat map at most 128 rows
# (and one column per step), the job view's 7 tables drawn, and report_job.png saved.
# Skipped, with a message saying so, where Chromium is not installed.
#
#   report_browser_test.sh PROFANALYZE MAKE_REPORT_TRACES MAKE_JOB_TRACES
set -euo pipefail
profanalyze="$1"
make_traces="$2"
make_job_traces="$3"

browser="$(command -v chromium || command -v chromium-browser || true)"
if [ -z "$browser" ]; then
  echo "SKIPPED: Chromium is not installed, so the report was not tested in a browser" \
       "(scripts/setup.sh installs Debian's chromium)."
  exit 0
fi

scratch="${TEST_TMPDIR:-$(mktemp -d)}"
outputs="${TEST_UNDECLARED_OUTPUTS_DIR:-$scratch}"
export HOME="$scratch/home"  # Chromium's profile and caches
mkdir -p "$HOME"
fail() { echo "FAIL: $*" >&2; exit 1; }

"$make_traces" "$scratch/traces" 4 >/dev/null
"$profanalyze" report "$scratch/traces" -o "$scratch/report.html" 2>"$scratch/report.log" ||
  fail "profanalyze report: $(cat "$scratch/report.log")"

# Runs the page for up to 10 s of virtual time (scripts run to the end), no network.
chrome() {
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --host-resolver-rules="MAP * ~NOTFOUND" --virtual-time-budget=10000 --enable-logging=stderr --v=0 "$@"
}

# The DOM after the scripts ran; sets `dom`. Console errors also land in $2.
render() {
  chrome --dump-dom "file://$1" >"$scratch/dom.html" 2>"$2" || fail "chromium exited with $? ($(tail -3 "$2"))"
  dom="$(cat "$scratch/dom.html")"
}

# First: a page with a broken script must be caught, or the checks below prove nothing.
sed 's|</body>|<script>notDefinedAnywhere();</script></body>|' "$scratch/report.html" >"$scratch/broken.html"
render "$scratch/broken.html" "$scratch/broken.log"
grep -q 'data-script-errors="0"' <<<"$dom" && fail "a script error in the page went unnoticed"

render "$scratch/report.html" "$scratch/chrome.log"
grep -q 'data-report-status="ok"' <<<"$dom" || fail "the report did not finish: $(grep -o 'Script errors:[^<]*' <<<"$dom")"
grep -q 'data-script-errors="0"' <<<"$dom" || fail "script errors: $(grep -o 'Script errors:[^<]*' <<<"$dom")"
if grep -q "Uncaught" "$scratch/chrome.log"; then fail "console: $(grep Uncaught "$scratch/chrome.log" | head -3)"; fi

# Every chart drew shapes (ECharts' display list; 'empty' would mean no data).
for chart in step-time straggler phases gpu-busy utilization communication kernels operators memory-steps \
             memory-host memory-flow; do
  drawn="$(grep -o "id=\"chart-$chart\"[^>]*data-drawn=\"[^\"]*\"" <<<"$dom" | grep -o 'data-drawn="[^"]*"' |
           grep -o '[0-9a-z]*"$' | tr -d '"' || true)"
  [[ "$drawn" =~ ^[0-9]+$ ]] && [ "$drawn" -ge 10 ] || fail "chart-$chart drew '${drawn:-nothing}'"
done

# The memory charts drew the allocator samples and host RSS (report_scenario.h), not the
# cudaMalloc fallback.
series_of() { grep -o "id=\"chart-$1\"[^>]*data-series=\"[^\"]*\"" <<<"$dom" | sed 's/.*data-series="//; s/"$//' || true; }
[ "$(series_of memory-steps)" = "GPU0 allocated|GPU0 reserved|GPU0 peak" ] ||
  fail "chart-memory-steps drew series '$(series_of memory-steps)', not the allocator's"
[ "$(series_of memory-host)" = "Host RSS" ] || fail "chart-memory-host drew series '$(series_of memory-host)'"

# The findings: rank 2 is the straggler, the lost records are in the red banner, the
# long kernel name is whole in the table.
grep -q 'data-slowest-rank="2"' <<<"$dom" || fail "the slowest rank is not rank 2"
grep -q 'id="quality-banner" role="alert" class="bad"' <<<"$dom" || fail "no data-quality banner"
grep -q '12 record(s) lost by the agent (LOSS_KIND_CUPTI_DROPPED)' <<<"$dom" || fail "the banner does not show the loss"
grep -q 'cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4::Params)' <<<"$dom" ||
  fail "the kernel table does not hold the whole kernel name"

chrome --window-size=1400,4800 --screenshot="$outputs/report.png" "file://$scratch/report.html" \
  >/dev/null 2>"$scratch/screenshot.log" || fail "screenshot failed ($(tail -3 "$scratch/screenshot.log"))"
[ "$(stat -c %s "$outputs/report.png")" -gt 20000 ] || fail "the screenshot is (nearly) blank"
# The job layout: a 2,048-rank job, rank 1500 computing 3 ms longer in step 1 of 3.
"$make_job_traces" "$scratch/job" 2048 1500 >/dev/null
"$profanalyze" report "$scratch/job" -o "$scratch/job.html" 2>"$scratch/job.log" ||
  fail "profanalyze report (job): $(cat "$scratch/job.log")"
job_bytes="$(stat -c %s "$scratch/job.html")"
[ "$job_bytes" -lt 1500000 ] || fail "the 2,048-rank report is $job_bytes bytes (bound: 1,500,000)"
render "$scratch/job.html" "$scratch/job_chrome.log"
grep -q 'data-report-status="ok"' <<<"$dom" || fail "the job report did not finish: $(grep -o 'Script errors:[^<]*' <<<"$dom")"
grep -q 'data-script-errors="0"' <<<"$dom" || fail "job report script errors: $(grep -o 'Script errors:[^<]*' <<<"$dom")"
if grep -q "Uncaught" "$scratch/job_chrome.log"; then fail "console: $(grep Uncaught "$scratch/job_chrome.log" | head -3)"; fi
attribute() { grep -o "id=\"$1\"[^>]*$2=\"[^\"]*\"" <<<"$dom" | sed "s/.*$2=\"//; s/\"\$//" || true; }
[ "$(attribute straggler-line data-straggler-rank)" = "1500" ] ||
  fail "the job's straggler is '$(attribute straggler-line data-straggler-rank)', not rank 1500"
grep -q '<option value="0">rank 1500: straggler #1' <<<"$dom" || fail "rank 1500 is not the first charted rank"
options="$(sed 's|</select>|\n|g' <<<"$dom" | grep 'id="rank-select"' | grep -o '<option value=' | wc -l)"
charted="$(attribute rank-scope data-charted)"
[ "$options" -ge 3 ] && [ "$options" -le 32 ] && [ "$charted" = "$options" ] ||
  fail "$options rank(s) in the picker, $charted charted (want 3 to 32, the same)"
[ "$(attribute rank-scope data-aggregated)" = "$((2048 - options))" ] || fail "the aggregated ranks are not counted"
rows="$(attribute chart-straggler data-rows)"
[ "$rows" -ge 100 ] && [ "$rows" -le 128 ] || fail "the heat map has '$rows' rows (want 100 to 128)"
[ "$(attribute chart-straggler data-columns)" = "3" ] || fail "the heat map has '$(attribute chart-straggler data-columns)' columns, not the 3 steps"
[ "$(attribute job-tables data-tables)" = "7" ] || fail "the job section drew '$(attribute job-tables data-tables)' tables"
for chart in step-time straggler phases gpu-busy utilization communication kernels; do
  drawn="$(attribute "chart-$chart" data-drawn)"
  [[ "$drawn" =~ ^[0-9]+$ ]] && [ "$drawn" -ge 10 ] || fail "job chart-$chart drew '${drawn:-nothing}'"
done
chrome --window-size=1400,4800 --screenshot="$outputs/report_job.png" "file://$scratch/job.html" \
  >/dev/null 2>"$scratch/screenshot.log" || fail "job screenshot failed ($(tail -3 "$scratch/screenshot.log"))"
echo "job layout: 2,048 ranks, $job_bytes bytes, $options charted, $rows heat-map rows"

echo "PASS: report rendered in $("$browser" --version 2>/dev/null || echo chromium), screenshot $outputs/report.png"
