#!/usr/bin/env bash
# The release package works as a new user gets it: unpacked into an empty folder, the
# simulated training workload recorded under the unpacked agent with a minimal
# environment (env -i plus the PROF_* variables), the trace analyzed with the unpacked
# profanalyze (and bin/profanalyze-mpi under mpirun). Expected figures come from the
# workload's ground truth file; the version from the top-level VERSION file.
#
#   package_test.sh PACKAGE.tar.gz TRAIN_WORKLOAD SIMULATED_LIBCUPTI VERSION_FILE
set -euo pipefail

package="$(realpath "$1")"
train="$(realpath "$2")"
cupti="$(realpath "$3")"
version="$(tr -d '[:space:]' < "$4")"
work="$(mktemp -d "${TEST_TMPDIR:-/tmp}/package_test.XXXXXX")"
mkdir "$work/unpacked"
tar -xzf "$package" -C "$work/unpacked"
root="$(echo "$work"/unpacked/libprof-*-linux-x86_64)"
for file in lib/libprof.so lib/python/sitecustomize.py lib/python/libprof/__init__.py \
    bin/profanalyze libexec/profanalyze QUICKSTART.md scripts/gpu_check.sh \
    testdata/gpu/cuda_app.cu testdata/gpu/train.py testdata/gpu/compare.py; do
  [ -e "$root/$file" ] || { echo "FAIL: the package has no $file"; exit 1; }
done
[ -x "$root/scripts/gpu_check.sh" ] || { echo "FAIL: scripts/gpu_check.sh is not executable"; exit 1; }
if grep -q '@[A-Z_]*@' "$root/QUICKSTART.md"; then
  echo "FAIL: QUICKSTART.md has an unfilled placeholder"; exit 1
fi
# Both programs name the release they came in, as the wheel's profanalyze does.
[ "$(basename "$root")" = "libprof-$version-linux-x86_64" ] ||
  { echo "FAIL: the package's folder is $(basename "$root"), not libprof-$version-linux-x86_64"; exit 1; }
for program in profanalyze profanalyze-mpi; do
  answer="$(env -i "$root/bin/$program" --version 2>&1)" || true
  [ "$answer" = "$program $version" ] ||
    { echo "FAIL: bin/$program --version printed '$answer', expected '$program $version'"; exit 1; }
done
answer="$(env -i LD_LIBRARY_PATH="$root/libexec/lib" "$root/libexec/profanalyze" --version 2>&1)" || true
[ "$answer" = "profanalyze $version" ] ||
  { echo "FAIL: libexec/profanalyze --version printed '$answer', expected 'profanalyze $version'"; exit 1; }
echo "PASS: bin/profanalyze, bin/profanalyze-mpi and libexec/profanalyze --version print $version (VERSION)"

# Steps 0-1 skipped, 2-5 recorded, 6-7 after the window.
minimal=(env -i PATH=/usr/bin:/bin HOME="$work")
"${minimal[@]}" LD_PRELOAD="$root/lib/libprof.so" PROF_OUTPUT_DIR="$work/traces" \
  PROF_SCHEDULE=skip_first=2,record=4,repeat=1 PROF_CUPTI_LIB="$cupti" \
  "$train" --steps 8 --truth "$work/truth.json" > "$work/train.log" 2>&1 ||
  { echo "FAIL: the workload under the unpacked agent"; cat "$work/train.log"; exit 1; }
ls "$work"/traces/*.pb > /dev/null || { echo "FAIL: no trace written"; exit 1; }

"${minimal[@]}" "$root/bin/profanalyze" "$work/traces" --format json > "$work/analysis.json" ||
  { echo "FAIL: the unpacked profanalyze"; exit 1; }
"${minimal[@]}" "$root/bin/profanalyze" "$work/traces" > "$work/analysis.txt"

# The helper beside the unpacked agent arms a Python process, and the API finds the agent.
if [ -x /usr/bin/python3 ]; then
  armed="$("${minimal[@]}" LD_PRELOAD="$root/lib/libprof.so" PROF_OUTPUT_DIR="$work/py" \
    /usr/bin/python3 -c 'import sys, libprof; print(libprof.agent_loaded(), sys.modules["libprof"].__file__)')"
  case "$armed" in
    "True $root/lib/python/libprof/__init__.py") ;;
    *) echo "FAIL: the Python helper under the unpacked agent: $armed"; exit 1 ;;
  esac
fi

# The analyzer from Python (libprof._analysis) in the unpacked package prints what the
# unpacked profanalyze prints, with only the package's own libraries (its RUNPATH).
ls "$root"/lib/python/libprof/_analysis_native*.so > /dev/null 2>&1 ||
  { echo "FAIL: the package has no lib/python/libprof/_analysis_native*.so"; exit 1; }
if [ -x /usr/bin/python3 ]; then
  from_python="$("${minimal[@]}" PYTHONPATH="$root/lib/python" /usr/bin/python3 -c \
    'import sys; from libprof._analysis import summary_text; sys.stdout.write(summary_text(sys.argv[1]))' \
    "$work/traces")" || { echo "FAIL: libprof._analysis from the unpacked package"; exit 1; }
  [ "$from_python" = "$(cat "$work/analysis.txt")" ] ||
    { echo "FAIL: libprof._analysis's summary differs from the unpacked profanalyze's"; exit 1; }
fi

# profanalyze-mpi: its one library beyond glibc's is the machine's Open MPI (libmpi.so.40);
# under mpirun it prints the unpacked profanalyze's bytes (not in sanitizer builds: Open
# MPI's runtime is not instrumented).
[ -x "$root/bin/profanalyze-mpi" ] || { echo "FAIL: the package has no bin/profanalyze-mpi"; exit 1; }
libraries="$(ldd "$root/libexec/profanalyze-mpi")"
grep -q 'libmpi\.so\.40' <<<"$libraries" || { echo "FAIL: profanalyze-mpi does not link libmpi.so.40"; exit 1; }
sanitized=0
grep -qE 'lib[at]san' <<<"$libraries" && sanitized=1  # their runtimes need libstdc++
if [ "$sanitized" = 0 ] && grep -qE 'libprotobuf|libabsl|libstdc\+\+' <<<"$libraries"; then
  echo "FAIL: profanalyze-mpi needs more than glibc and Open MPI:"; grep -E 'protobuf|absl|stdc' <<<"$libraries"; exit 1
fi
if command -v mpirun > /dev/null && [ "$sanitized" = 0 ]; then
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 TMPDIR="$work" \
    mpirun -n 2 --oversubscribe "$root/bin/profanalyze-mpi" "$work/traces" > "$work/mpi.txt" 2>/dev/null ||
    { echo "FAIL: mpirun -n 2 bin/profanalyze-mpi"; exit 1; }
  cmp -s "$work/mpi.txt" "$work/analysis.txt" ||
    { echo "FAIL: profanalyze-mpi's output differs from the unpacked profanalyze's"; exit 1; }
  echo "PASS: mpirun -n 2 bin/profanalyze-mpi prints the unpacked profanalyze's bytes"
fi

python3 - "$work/truth.json" "$work/analysis.json" <<'PY'
import json
import sys

truth = json.load(open(sys.argv[1]))
tables = json.load(open(sys.argv[2]))["processes"][0]["tables"]
recorded = [step for step in truth["steps"] if 2 <= step["index"] < 6]
overview = {row["event_type"]: row for row in tables["overview"]["rows"]}
expected_calls = sum(step["kernels"]["count"] for step in recorded)
expected_ns = sum(step["kernels"]["total_ns"] for step in recorded)
# The overview's kernels are those of the recorded steps (clipped to them); the kernel
# table may also hold a neighbour step's kernel whose device record arrived in the window.
kernel_row = overview.get("Kernel", {"calls": 0, "time_ns": 0})
calls, total_ns = kernel_row["calls"], kernel_row["time_ns"]
failures = []
if overview.get("ProfileStep", {}).get("calls") != 4:
    failures.append("ProfileStep calls %r, expected 4" % overview.get("ProfileStep"))
if calls != expected_calls:
    failures.append("kernel calls %d, the truth has %d" % (calls, expected_calls))
if abs(total_ns - expected_ns) > 0.5:
    failures.append("kernel time %.0f ns, the truth has %d" % (total_ns, expected_ns))
for failure in failures:
    print("FAIL: " + failure)
if failures:
    sys.exit(1)
print("PASS: 4 steps, %d kernels, %d ns of kernel time, as the truth says" % (calls, total_ns))
PY
