#!/usr/bin/env bash
# Installs what is missing, then runs every test:
#   ./scripts/test.sh [--sanitizers] [--torch2] [bazel test flags]
# --sanitizers: afterwards the agent's, the analyzer's and the trace format's tests again
# under AddressSanitizer + UndefinedBehaviorSanitizer (--config=asan) and ThreadSanitizer
# (--config=tsan); see .bazelrc. gcc's sanitizer runtimes come with g++.
# --torch2: after the normal suite, the Python helper's tests, scripts/gpu_check.sh
# --simulated and the wheel's libprof-run under torchrun and a one-node Slurm's srun, with
# PyTorch 2.6 in a Debian 13 root (scripts/release_check.sh torch2, which
# the normal suite's bazel-bin feeds; docs/release-checks.md). The root (1.6 GB) is built
# from Debian's registry when missing and kept outside the clone (LIBPROF_ROOTS, default
# ${XDG_CACHE_HOME:-~/.cache}/libprof/roots); it is rebuilt only when its recipe changes.
# Needs root (sudo otherwise: the root's cache is then root's) and, to build it, the registry.
# CI (.ci/run) runs both.
set -euo pipefail
cd "$(dirname "$0")/.."
sanitizers=0 torch2=0
while [ $# -gt 0 ]; do
  case "$1" in
    --sanitizers) sanitizers=1 ;;
    --torch2) torch2=1 ;;
    *) break ;;
  esac
  shift
done
./scripts/setup.sh
bazel test //... "$@"
if [ "$torch2" -eq 1 ]; then
  # Before the sanitizer runs: they point bazel-bin at their own output folders.
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo --preserve-env=LIBPROF_ROOTS,XDG_CACHE_HOME); fi
  "${sudo_cmd[@]}" ./scripts/release_check.sh torch2
fi
if [ "$sanitizers" -eq 1 ]; then
  for config in asan tsan; do
    bazel test --config="$config" //agent/... //analyzer/... //proto/... "$@"
  done
fi
