#!/usr/bin/env bash
# The wheel's Python start-up cost, as a pip user gets it: builds a wheel from BIN (a
# -c opt bazel-bin with //:libprof.so, //release:profanalyze and //agent/bench:spawn_cost),
# installs it into a fresh virtual environment (pip compiles the package's bytecode there),
# and times `python -c pass` of that environment plainly and under the wheel's agent
# (scripts/startup_cost.py: alternating runs, medians, CPU time beside wall time).
#   scripts/wheel_startup.sh BIN RUNS      (scripts/bench.sh runs it)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$1" runs="$2"
work="$(mktemp -d /tmp/prof-wheel-startup.XXXXXX)"
trap 'rm -rf "$work"' EXIT
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INDEX=1 PIP_NO_CACHE_DIR=1
wheel="$(python3 release/make_wheel.py --version "$(tr -d '[:space:]' < VERSION)+bench" \
  --libprof "$bin/agent/libprof.so" --profanalyze "$bin/release/profanalyze" \
  --helper "$bin/agent/python" --out-dir "$work")"
/usr/bin/python3 -m venv "$work/venv" > "$work/venv.log" 2>&1 || { cat "$work/venv.log"; exit 1; }
"$work/venv/bin/python" -m pip install -q "$wheel" > "$work/pip.log" 2>&1 || { cat "$work/pip.log"; exit 1; }
agent="$("$work/venv/bin/python" -c 'import libprof; print(libprof.library_path())')"
scripts/startup_cost.py --spawner "$bin/agent/bench/spawn_cost" --runs "$runs" \
  --goal-ms 1 "plain:" \
  "agent, PROF_PYTHON=0:LD_PRELOAD=$agent,PROF_OUTPUT_DIR=$work/py,PROF_PYTHON=0" \
  "agent with the helper:LD_PRELOAD=$agent,PROF_OUTPUT_DIR=$work/py" \
  -- "$work/venv/bin/python" -c pass
