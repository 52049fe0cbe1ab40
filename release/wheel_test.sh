#!/usr/bin/env bash
# The wheel as pip users get it (no network: pip install --no-index from the file).
#
#   wheel_test.sh WHEEL TRAIN_WORKLOAD SIMULATED_LIBCUPTI SELF_CONTAINED_TEST VERSION_FILE
#
# 1. Its contents: py3-none-manylinux2014_x86_64, no CPython-specific file (no
#    _analysis_native*.so, no bytecode), RECORD's hashes right, and both programs need
#    glibc >= 2.17 only (agent/self_contained_test.sh: DT_NEEDED, objdump -T's highest
#    GLIBC_ version, exports).
# 2. Installed into a fresh virtual environment of /usr/bin/python3: import libprof,
#    library_path(), libprof-run on Python and on the simulated training workload (steps
#    2-5 recorded), profanalyze on the trace against the workload's ground truth, the
#    Python analyzer (through the packaged profanalyze: the wheel has no extension), and
#    pip uninstall leaving nothing in site-packages or bin/.
# 3. The same, shorter, in virtual environments of CPython 3.8 and 3.13 where pyenv has
#    them (skipped, saying so, where not).
set -euo pipefail

wheel="$(realpath "$1")"
train="$(realpath "$2")"
cupti="$(realpath "$3")"
self_contained="$(realpath "$4")"
# The wheel's version, from its name: the top-level VERSION file's, plus a local label
# (//release:wheel's "+test", scripts/package.sh's "+g<commit>").
release="$(tr -d '[:space:]' < "$5")"
version="$(basename "$wheel" | sed -E 's/^libprof-([^-]+)-py3-.*$/\1/')"
case "$version" in
  "$release" | "$release"+*) ;;
  *) echo "FAIL: the wheel's version $version is not VERSION's ($release)"; exit 1 ;;
esac
work="$(mktemp -d "${TEST_TMPDIR:-/tmp}/wheel_test.XXXXXX")"
cd "$work"
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INDEX=1 PIP_NO_CACHE_DIR=1
unset PYTHONPATH PYTHONHOME LD_PRELOAD

fail() { echo "FAIL: $*"; exit 1; }

# ---- 1. contents ---------------------------------------------------------------------
case "$(basename "$wheel")" in
  libprof-*-py3-none-manylinux2014_x86_64.whl) ;;
  *) fail "wheel name $(basename "$wheel")" ;;
esac
/usr/bin/python3 - "$wheel" "$work/unpacked" <<'PY' || exit 1
import base64, hashlib, sys, zipfile

wheel = zipfile.ZipFile(sys.argv[1])
names = wheel.namelist()
problems = []
for name in names:
    if name.endswith((".pyc", ".pyd")) or "_analysis_native" in name or "/tests/" in name:
        problems.append("a CPython-specific or test file: " + name)
    if name.endswith(".so") and name != "libprof/_lib/libprof.so":
        problems.append("a shared object other than the agent: " + name)
for needed in ("libprof/__init__.py", "libprof/_lib/libprof.so", "libprof/_lib/python/sitecustomize.py",
               "libprof/_bin/profanalyze"):
    if needed not in names:
        problems.append("no " + needed)
info = [name for name in names if name.endswith(".dist-info/WHEEL")]
wheel_file = wheel.read(info[0]).decode() if info else ""
if "Tag: py3-none-manylinux2014_x86_64\n" not in wheel_file or "Root-Is-Purelib: false" not in wheel_file:
    problems.append("WHEEL: %r" % wheel_file)
record = [name for name in names if name.endswith(".dist-info/RECORD")][0]
listed = set()
for line in wheel.read(record).decode().splitlines():
    name, digest, size = line.rsplit(",", 2)
    listed.add(name)
    if name == record:
        continue
    data = wheel.read(name)
    expected = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    if digest != expected or int(size) != len(data):
        problems.append("RECORD is wrong about " + name)
if listed != set(names):
    problems.append("RECORD and the wheel differ in %s" % sorted(listed ^ set(names)))
for name in ("libprof/_lib/libprof.so", "libprof/_bin/profanalyze"):
    if (wheel.getinfo(name).external_attr >> 16) & 0o111 == 0:
        problems.append(name + " is not executable")
wheel.extractall(sys.argv[2], ["libprof/_lib/libprof.so", "libprof/_bin/profanalyze"])
for problem in problems:
    print("FAIL: " + problem)
sys.exit(1 if problems else 0)
PY
"$self_contained" "$work/unpacked/libprof/_lib/libprof.so" > "$work/agent_check.txt" 2>&1 ||
  { cat "$work/agent_check.txt"; fail "the wheel's libprof.so needs more than glibc 2.17"; }
"$self_contained" "$work/unpacked/libprof/_bin/profanalyze" --program > "$work/analyzer_check.txt" 2>&1 ||
  { cat "$work/analyzer_check.txt"; fail "the wheel's profanalyze needs more than glibc 2.17"; }
echo "PASS: contents; $(grep -h '^highest' "$work/agent_check.txt") (libprof.so)," \
  "$(grep -h '^highest' "$work/analyzer_check.txt") (profanalyze)"

# ---- installs --------------------------------------------------------------------------
# install PYTHON NAME: a fresh virtual environment $work/NAME with the wheel installed.
install() {
  local python="$1" venv="$work/$2"
  "$python" -m venv "$venv" > "$work/$2.venv.log" 2>&1 || { cat "$work/$2.venv.log"; fail "$python -m venv"; }
  "$venv/bin/python" -m pip install --no-index -q "$wheel" > "$work/$2.pip.log" 2>&1 ||
    { cat "$work/$2.pip.log"; fail "pip install into $2"; }
  for script in profanalyze libprof-run; do
    [ -x "$venv/bin/$script" ] || fail "$2: no console script $script"
  done
  # The installed analyzer knows the wheel's version (pip's METADATA beside it).
  local answer
  answer="$("$venv/bin/profanalyze" --version)"
  [ "$answer" = "profanalyze $version" ] ||
    fail "$2: profanalyze --version printed '$answer', expected 'profanalyze $version'"
}

# check_python NAME: import, library_path, libprof-run on Python, the analyzer from Python
# on $work/traces (recorded by the first environment) against profanalyze's own text.
check_python() {
  local venv="$work/$1" site
  site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')"
  local library
  library="$("$venv/bin/python" -c 'import libprof; print(libprof.library_path())')" ||
    fail "$1: import libprof; libprof.library_path()"
  [ "$library" = "$site/libprof/_lib/libprof.so" ] || fail "$1: library_path() is $library"
  [ "$("$venv/bin/libprof-run" -o "$work/$1.py_traces" -- "$venv/bin/python" -c 'print(1)')" = 1 ] ||
    fail "$1: libprof-run -- python -c 'print(1)'"
  # Under libprof-run the agent is loaded and armed this environment's package.
  local armed
  armed="$("$venv/bin/libprof-run" -o "$work/$1.py_traces" -- "$venv/bin/python" -c \
    'import sys, libprof; print(libprof.agent_loaded(), sys.modules["libprof"].__file__, "libprof._autostart" in sys.modules)')"
  [ "$armed" = "True $site/libprof/__init__.py True" ] || fail "$1: under libprof-run: $armed"
  # The Python analyzer prints what profanalyze prints, and reads the same tables.
  "$venv/bin/profanalyze" "$work/traces" > "$work/$1.expected.txt" || fail "$1: profanalyze"
  "$venv/bin/python" - "$work/traces" "$work/$1.expected.txt" <<'PY' || fail "$1: libprof's analyzer"
import sys
import libprof
from libprof._analysis import summary_text

expected = open(sys.argv[2]).read()
if summary_text(sys.argv[1]) != expected:
    sys.exit("summary_text differs from profanalyze's output")
result = libprof.load_profiler_result(sys.argv[1])
steps = [row for row in result.tables()["overview"] if row["event_type"] == "ProfileStep"]
if [row["calls"] for row in steps] != [4]:
    sys.exit("load_profiler_result: overview %r" % steps)
if not result.tables()["kernel"] or "gpu_total_ns" not in result.tables()["kernel"][0]:
    sys.exit("load_profiler_result: kernel table %r" % result.tables()["kernel"][:1])
try:
    next(result.events())
    sys.exit("events() without the extension module")
except ImportError as error:
    if "_analysis_native" not in str(error):
        sys.exit("events(): %s" % error)
PY
  echo "PASS: $1: $("$venv/bin/python" -c 'import sys; print("CPython %d.%d.%d" % sys.version_info[:3])'):" \
    "import libprof, library_path(), libprof-run, the analyzer from Python"
}

# check_uninstall NAME: pip uninstall leaves no file of the wheel behind.
check_uninstall() {
  local venv="$work/$1" site
  site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')"
  "$venv/bin/python" -m pip uninstall -y -q libprof > "$work/$1.uninstall.log" 2>&1 ||
    { cat "$work/$1.uninstall.log"; fail "$1: pip uninstall"; }
  local left
  left="$(cd "$site" && find . -iname '*libprof*'; ls "$venv/bin" | grep -E '^(profanalyze|libprof-run)$' || true)"
  [ -z "$left" ] || fail "$1: pip uninstall left $(echo $left)"
  echo "PASS: $1: pip uninstall left nothing"
}

# ---- 2. /usr/bin/python3 ---------------------------------------------------------------
install /usr/bin/python3 venv
venv="$work/venv"
# The simulated training workload under libprof-run: steps 0-1 skipped, 2-5 recorded.
"$venv/bin/libprof-run" -o "$work/traces" -s skip_first=2,record=4,repeat=1 --cupti-lib "$cupti" -- \
  "$train" --steps 8 --truth "$work/truth.json" > "$work/train.log" 2>&1 ||
  { cat "$work/train.log"; fail "the workload under libprof-run"; }
ls "$work"/traces/*.pb > /dev/null 2>&1 || fail "no trace written under libprof-run"
"$venv/bin/profanalyze" "$work/traces" --format json > "$work/analysis.json" || fail "profanalyze --format json"
/usr/bin/python3 - "$work/truth.json" "$work/analysis.json" <<'PY' || exit 1
import json
import sys

truth = json.load(open(sys.argv[1]))
tables = json.load(open(sys.argv[2]))["processes"][0]["tables"]
recorded = [step for step in truth["steps"] if 2 <= step["index"] < 6]
overview = {row["event_type"]: row for row in tables["overview"]["rows"]}
kernels = overview.get("Kernel", {"calls": 0, "time_ns": 0})
expected_calls = sum(step["kernels"]["count"] for step in recorded)
expected_ns = sum(step["kernels"]["total_ns"] for step in recorded)
failures = []
if overview.get("ProfileStep", {}).get("calls") != 4:
    failures.append("ProfileStep calls %r, expected 4" % overview.get("ProfileStep"))
if kernels["calls"] != expected_calls or abs(kernels["time_ns"] - expected_ns) > 0.5:
    failures.append("kernels %d, %.0f ns; the truth has %d, %d ns"
                    % (kernels["calls"], kernels["time_ns"], expected_calls, expected_ns))
for failure in failures:
    print("FAIL: " + failure)
if failures:
    sys.exit(1)
print("PASS: libprof-run recorded the workload and profanalyze read it: 4 steps, %d kernels, as "
      "the truth says" % kernels["calls"])
PY
# libprof-run's variables, after what LD_PRELOAD already holds.
composed="$(LD_PRELOAD=/opt/other.so "$venv/bin/libprof-run" --print-env -s 2:5 -e PROF_LOG_LEVEL=info)"
site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')"
[ "$composed" = "PROF_SCHEDULE=2:5
PROF_LOG_LEVEL=info
LD_PRELOAD=/opt/other.so:$site/libprof/_lib/libprof.so" ] || fail "libprof-run --print-env: $composed"
check_python venv
check_uninstall venv

# ---- 3. other CPythons -------------------------------------------------------------------
pyenv_roots=("${PYENV_ROOT:-}" "$(getent passwd "$(id -u)" | cut -d: -f6)/.pyenv" /opt/pyenv)
for minor in 3.8 3.13; do
  python=""
  for root in "${pyenv_roots[@]}"; do
    [ -n "$root" ] || continue
    for candidate in "$root"/versions/"$minor".*/bin/python3; do
      [ -x "$candidate" ] && python="$candidate"
    done
  done
  if [ -z "$python" ]; then
    echo "SKIP: no CPython $minor (looked for pyenv's in ${pyenv_roots[*]})"
    continue
  fi
  install "$python" "venv$minor"
  check_python "venv$minor"
  check_uninstall "venv$minor"
done
echo "PASS: the wheel"
