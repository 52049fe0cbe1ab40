#!/usr/bin/env bash
# Installs what the build and the tests need, from Debian's packages only. Idempotent:
# prints nothing and installs nothing when everything is there.
set -euo pipefail

packages=(
  bazel-bootstrap bazel-rules-java bazel-platforms bazel-skylib  # the build
  libabsl-dev libprotobuf-dev protobuf-compiler libfmt-dev libcli11-dev  # libraries
  catch2 libunwind-dev pkg-config g++  # tests, stacks, link flags, compiler
  python3  # workload truth checks
  python3-torch  # the Python helper's tests: Debian's CPU PyTorch for /usr/bin/python3
  python3-pybind11 python3-dev  # libprof._analysis: the analyzer as a CPython extension
  python3-pandas  # its DataFrame test (pandas stays optional for users)
  python3-venv  # the wheel's test installs it into fresh virtual environments
  chromium  # the HTML report's browser test (headless)
  libopenmpi-dev openmpi-bin  # profanalyze-mpi (//:profanalyze_mpi) and its mpirun test
  debootstrap  # scripts/test.sh --torch2: the Debian 13 root with PyTorch 2.6
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq >/dev/null
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

cuda_home="${CUDA_HOME:-/usr/local/cuda}"
if [ ! -f "$cuda_home/include/cupti.h" ] || [ ! -f "$cuda_home/include/nccl.h" ]; then
  echo "setup: the CUDA toolkit headers (cuda_runtime_api.h, cupti.h, nccl.h, nvtx3/) were not" \
       "found under $cuda_home; install the CUDA toolkit or set CUDA_HOME" >&2
  exit 1
fi
