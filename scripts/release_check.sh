#!/usr/bin/env bash
# Release checks that need other Debian roots (issues 24 and 25), run in chroots built with
# debootstrap from the Debian mirror this machine's apt uses. Manual (root, network, a root
# of 0.7 to 1.6 GB), never part of `bazel test //...`; the roots are cached and reused.
#
#   scripts/release_check.sh old-glibc [SUITE]   (default bullseye, glibc 2.31) the wheel from
#       dist/ in a fresh virtual environment of the root's python3: release/wheel_test.sh as
#       is (contents, glibc floor, libprof-run, profanalyze against the workload's truth, the
#       Python analyzer, uninstall), then what a user does: pip show libprof, the agent
#       under /bin/true, python3 -c and the simulated training workload, its summary.
#   scripts/release_check.sh torch2 [SUITE]      (default trixie, python3-torch 2.6) Debian's
#       CPU PyTorch 2: scripts/gpu_check.sh --simulated (its Kineto comparison needs torch's
#       Kineto trace, which 1.13 does not write) and the Python helper's tests
#       (python/tests, PROF_PYTHON_OPS=1 ones included) with the root's /usr/bin/python3;
#       then release/launchers/launchers_check.sh: the wheel (bazel-bin's, from
#       //release:wheel) with torch in a virtual environment, `torchrun --no_python
#       libprof-run` and `srun libprof-run` (a one-node Slurm in the root) on a 2-rank gloo
#       job, one trace per rank. Slurm is added to a cached root with apt-get, not rebuilt.
#
# Options (before the check): --roots DIR (default $LIBPROF_ROOTS or
# ${XDG_CACHE_HOME:-~/.cache}/libprof/roots, where scripts/test.sh --torch2 keeps CI's),
# --bin DIR (default bazel-bin; build first: see docs/release-checks.md), --wheel FILE
# (default: old-glibc the newest dist/libprof-*.whl, torch2 the one in --bin's release/).
# Exit status 1 if a check fails, 2 on bad usage.
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
roots="${LIBPROF_ROOTS:-${XDG_CACHE_HOME:-$HOME/.cache}/libprof/roots}" bin="$here/bazel-bin" wheel="" added=""
while [ $# -gt 0 ]; do
  case "$1" in
    --roots) roots="$2"; shift 2 ;;
    --bin) bin="$(cd "$2" && pwd)" || exit 2; shift 2 ;;
    --wheel) wheel="$(realpath "$2")" || exit 2; shift 2 ;;
    *) break ;;
  esac
done
check="${1:-}" suite="${2:-}"
usage() { echo "release_check.sh: $1 (see the header of $0)" >&2; exit 2; }
case "$check" in
  old-glibc) suite="${suite:-bullseye}" packages=python3,python3-venv,binutils,g++ ;;
  torch2) suite="${suite:-trixie}" packages=python3,python3-torch,python3-numpy,python3-venv
    added=slurmctld,slurmd,slurm-client ;;
  *) usage "the check must be old-glibc or torch2, got '${check}'" ;;
esac
[ "$(id -u)" = 0 ] || usage "needs root (debootstrap, chroot)"
command -v debootstrap > /dev/null || usage "needs debootstrap (apt-get install debootstrap)"

# The mirror apt already uses (its main suite, not -security/-updates): the script names no
# host of its own.
mirror="$(apt-get indextargets --format '$(REPO_URI) $(SUITE)' 2>/dev/null |
  awk '$2 !~ /-/ && $1 ~ /\/debian\/$/ {print $1; exit}')"
[ -n "$mirror" ] || usage "no Debian mirror in apt's sources (apt-get indextargets)"

# make_root: $root, a minbase SUITE root with $packages, built once (the stamp names them).
root="$roots/$suite"
# One run at a time per root (CI jobs on one machine): each builds it or stages in its /check.
mkdir -p "$roots" && exec 9> "$roots/$suite.lock" && flock 9 ||
  { echo "release_check.sh: cannot lock $roots/$suite.lock" >&2; exit 1; }
make_root() {
  if [ "$(cat "$root/.libprof-packages" 2>/dev/null)" = "$packages" ]; then
    echo "release_check.sh: reusing $root ($(du -sh "$root" | cut -f1))"
    return 0
  fi
  # A run killed before its EXIT trap leaves /dev bound in the root: never rm -rf through it.
  if grep -qE " $root(\.partial)?/" /proc/mounts; then
    usage "something is still mounted in $root (umount $root/proc $root/dev)"
  fi
  mkdir -p "$roots" && rm -rf "$root.partial"
  # Unreachable is not "not there": wget's exit status 8 is the server's answer, others
  # (4: network) mean no answer. debootstrap fetches with wget too.
  wget -q -T 30 -t 2 --spider "${mirror}dists/$suite/Release"
  case $? in
    0 | 8) ;;
    *) echo "release_check.sh: cannot reach Debian's registry ($mirror) to build the $suite root" \
         "in $root: no network, or a proxy missing" >&2; exit 1 ;;
  esac
  echo "release_check.sh: debootstrap $suite from $mirror into $root ($packages)"
  local started=$SECONDS
  if ! debootstrap --variant=minbase --include="$packages" "$suite" "$root.partial" "$mirror" \
      > "$roots/$suite.debootstrap.log" 2>&1; then
    rm -rf "$root.partial"
    if grep -q "Failed getting release file" "$roots/$suite.debootstrap.log"; then
      echo "release_check.sh: $suite is not on $mirror (no dists/$suite/Release)" >&2
    else
      echo "release_check.sh: debootstrap $suite failed: $(grep -m1 '^E:' "$roots/$suite.debootstrap.log")" \
        "(see $roots/$suite.debootstrap.log)" >&2
    fi
    exit 1
  fi
  rm -rf "$root" && mv "$root.partial" "$root" && echo "$packages" > "$root/.libprof-packages"
  echo "release_check.sh: $root built in $((SECONDS - started)) s ($(du -sh "$root" | cut -f1))"
}

# in_root CMD...: CMD in the root, with /proc and /dev, a clean environment and /check as
# its working folder.
mounted=()
unmount() { for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount "${mounted[$i]}"; done; }
trap unmount EXIT
in_root() {
  local target
  for target in proc dev; do
    if ! mountpoint -q "$root/$target"; then
      if [ $target = proc ]; then mount -t proc proc "$root/proc"; else mount --bind /dev "$root/dev"; fi
      mounted+=("$root/$target")
    fi
  done
  chroot "$root" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/root LANG=C.UTF-8 \
    TEST_TMPDIR=/check/tmp PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INDEX=1 PIP_NO_CACHE_DIR=1 \
    /bin/bash -c 'cd /check && "$@"' in_root "$@"
}

# add_packages: $added (comma list) installed into the root with its own apt-get, once
# (a stamp names them): a package a check gained later costs an install, not a new root.
add_packages() {
  [ -n "$added" ] || return 0
  [ "$(cat "$root/.libprof-added" 2>/dev/null)" = "$added" ] && return 0
  echo "release_check.sh: apt-get install ${added//,/ } in $root"
  if ! in_root bash -c 'export PATH=/usr/sbin:/sbin:$PATH DEBIAN_FRONTEND=noninteractive
      apt-get update -q && apt-get install -y -q --no-install-recommends "$@"' add ${added//,/ } \
      > "$roots/$suite.added.log" 2>&1; then
    echo "release_check.sh: apt-get install ${added//,/ } in the $suite root failed:" \
      "$(grep -m1 -E '^(E|W):' "$roots/$suite.added.log") (see $roots/$suite.added.log)" >&2
    exit 1
  fi
  echo "$added" > "$root/.libprof-added"
}

# stage: a fresh /check in the root with the built programs under bin/ (bazel-bin's layout).
stage() {
  rm -rf "$root/check" && mkdir -p "$root/check/tmp" "$root/check/bin" || exit 1
  local path
  for path in "$@"; do
    [ -e "$bin/$path" ] || usage "$bin/$path is missing: build it first (docs/release-checks.md)"
    mkdir -p "$root/check/bin/$(dirname "$path")"
    cp -rL "$bin/$path" "$root/check/bin/$path"
  done
}

make_root
echo "release_check.sh: $suite: $(chroot "$root" /usr/bin/ldd --version | head -1)," \
  "$(chroot "$root" /usr/bin/python3 --version)"
if [ "$check" = old-glibc ]; then
  if [ -z "$wheel" ]; then
    wheel="$(ls -t "$here"/dist/libprof-*-py3-none-manylinux2014_x86_64.whl 2>/dev/null | head -1)"
    [ -n "$wheel" ] || usage "no wheel in $here/dist: run ./scripts/package.sh"
  fi
  rm -rf "$root/check" && mkdir -p "$root/check/tmp" "$root/check/src" "$root/check/cuda" || exit 1
  cp "$wheel" "$here/release/wheel_test.sh" "$here/agent/self_contained_test.sh" "$here/VERSION" "$root/check/"
  # The simulated CUDA platform and the training workload, compiled in the root with its own
  # g++: built here they need glibc 2.34 and GCC 12's libstdc++. Only the CUDA headers come
  # from here ($CUDA_HOME, as the build takes them).
  cp -r "$here/testdata" "$root/check/src/" && cp -rL "${CUDA_HOME:-/usr/local/cuda}/include" "$root/check/cuda/" ||
    usage "no CUDA headers in ${CUDA_HOME:-/usr/local/cuda}/include"
  echo "== the simulated CUDA libraries and testdata/workloads/train, built with $suite's g++"
  in_root bash -euc '
    mkdir -p sim
    flags="-std=c++17 -O1 -fPIC -w -Isrc -Isrc/testdata/sim/include -Isrc/testdata/sim/nccl/include -Icuda/include"
    sim=src/testdata/sim
    g++ $flags -shared -fvisibility=hidden -D__CUDA_API_VERSION_INTERNAL $sim/cudart/*.cc \
      -Wl,-soname,libcudart.so.13 -lpthread -o sim/libcudart.so.13 &
    g++ $flags -shared -fvisibility=hidden $sim/cupti/*.cc -Wl,-soname,libcupti.so.13 -lpthread -ldl \
      -o sim/libcupti.so.13
    wait $!
    g++ $flags -shared -fvisibility=hidden $sim/nccl/*.cc -Wl,-soname,libnccl.so.2 \
      -Wl,--version-script=$sim/nccl/libnccl.lds -Lsim -l:libcudart.so.13 -lrt -o sim/libnccl.so.2
    g++ $flags src/testdata/workloads/train.cc src/testdata/workloads/common/*.cc -Lsim -l:libnccl.so.2 \
      -l:libcudart.so.13 -ldl -Wl,-rpath,"\$ORIGIN/sim" -o train' || exit 1
  w="/check/$(basename "$wheel")"
  echo "== release/wheel_test.sh $(basename "$wheel") in $suite"
  in_root bash /check/wheel_test.sh "$w" train sim/libcupti.so.13 /check/self_contained_test.sh \
    /check/VERSION || exit 1
  echo "== as a user: pip install, libprof-run, profanalyze, pip uninstall ($suite)"
  in_root bash -euxc '
    python3 -m venv venv > /dev/null
    venv/bin/pip install -q "$1"
    venv/bin/pip show libprof | head -2
    venv/bin/profanalyze --version
    venv/bin/libprof-run -o traces_true -- /bin/true
    venv/bin/libprof-run -o traces_py -- python3 -c "import sys; print(sys.version.split()[0])"
    venv/bin/libprof-run -o traces -s skip_first=2,record=4,repeat=1 \
      --cupti-lib sim/libcupti.so.13 -- ./train --steps 8 > train.log
    venv/bin/profanalyze traces | head -40
    venv/bin/python -c "import libprof; print(libprof.library_path())"
    venv/bin/pip uninstall -y -q libprof
    if find venv -iname "*libprof*" -o -name profanalyze | grep .; then exit 1; fi
    echo "pip uninstall left nothing"' check "$w" || exit 1
  echo "PASS: old-glibc: the wheel in $suite"
  exit 0
fi

# ---- torch2: Debian's PyTorch 2 ------------------------------------------------------------
mkdir -p "$root/check"
add_packages
in_root python3 -c 'import torch; print("release_check.sh: torch", torch.__version__,
  "(Kineto: %s)" % torch.autograd.kineto_available())' || exit 1
workloads=(testdata/workloads/{train,static_app,neighbour_app,train_ranks})
stage agent/libprof.so agent/python/sitecustomize.py agent/python/libprof testdata/sim "${workloads[@]}"
# The workloads find the simulated libraries through their RUNPATH, in bazel-bin's _solib.
mkdir -p "$root/check/bin/_solib_k8" && cp -rL "$bin"/_solib_k8/*testdata_Ssim* "$root/check/bin/_solib_k8/"
# profanalyze: the shipped one (glibc only); bazel-bin's analyzer/cli/profanalyze needs Debian
# 12's protobuf and Abseil, which the root has not. Same main and commands.
[ -x "$bin/release/profanalyze" ] || usage "$bin/release/profanalyze is missing: build //release:profanalyze"
mkdir -p "$root/check/bin/analyzer/cli" && cp "$bin/release/profanalyze" "$root/check/bin/analyzer/cli/"
# The helper's tests read raw traces with trace_facts, built here against Debian 12's
# protobuf: it runs there with its own copies of the libraries it needs but glibc's.
facts="$bin/python/tests/trace_facts"
[ -x "$facts" ] || usage "$facts is missing: build //python/tests:trace_facts"
tests="$root/check/bin/python/tests"
mkdir -p "$tests/trace_facts.libs" && cp "$facts" "$tests/trace_facts.bin"
ldd "$facts" | awk '$3 ~ /^\// {print $3}' | grep -vE '/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*)\.so' |
  xargs -r cp -L -t "$tests/trace_facts.libs"
printf '#!/bin/sh\nd="$(dirname "$0")"\nLD_LIBRARY_PATH="$d/trace_facts.libs" exec "$d/trace_facts.bin" "$@"\n' > "$tests/trace_facts"
chmod +x "$tests/trace_facts"
cp -r "$here"/python/tests/*.py "$here/python/tests/programs" "$tests/"
# aten_sources_test reads the observer's utility names from its source, as under Bazel.
mkdir -p "$root/check/bin/agent/torch" && cp "$here/agent/torch/operator_stack.cc" "$root/check/bin/agent/torch/"
mkdir -p "$root/check/src/scripts" && cp -r "$here/testdata" "$root/check/src/" &&
  cp "$here/scripts/gpu_check.sh" "$root/check/src/scripts/"

status=0
echo "== scripts/gpu_check.sh --simulated with $suite's torch"
# The checks whose outcome varies from run to run, as //scripts:gpu_check_simulated_test
# passes them (its header says why).
in_root bash src/scripts/gpu_check.sh --simulated --bin /check/bin --out /check/gpu_check_out \
  --expect-fail "~b: ATen operator names and counts" --expect-fail "~f: " || status=1
echo "== the Python helper's tests (python/tests) with $suite's torch"
for test in "$here"/python/tests/*_test.py; do
  name="$(basename "$test" .py)"
  started=$SECONDS
  if in_root bash -c 'cd bin && timeout 600 python3 -B "python/tests/$1.py"' test "$name" \
      > "$root/check/$name.log" 2>&1; then
    echo "PASS: $name ($((SECONDS - started)) s): $(grep -E '^Ran ' "$root/check/$name.log")"
  else
    status=1
    echo "FAIL: $name ($((SECONDS - started)) s); the end of its output ($root/check/$name.log):"
    grep -E '^(FAIL|ERROR):|Error|assert' "$root/check/$name.log" | head -12 | cut -c1-300 | sed 's/^/  /'
    tail -n 1 "$root/check/$name.log" | sed 's/^/  /'
  fi
done
echo "== libprof-run under torchrun and srun (release/launchers), with the wheel"
if [ -z "$wheel" ]; then
  wheel="$bin/release/libprof-$(tr -d '[:space:]' < "$here/VERSION")+test-py3-none-manylinux2014_x86_64.whl"
  [ -f "$wheel" ] || usage "no $wheel: build //release:wheel"
fi
cp "$wheel" "$root/check/" && cp -r "$here/release/launchers" "$root/check/" || exit 1
in_root bash launchers/launchers_check.sh "/check/$(basename "$wheel")" 4 || status=1
echo "$([ $status = 0 ] && echo PASS || echo FAIL): torch2 in $suite; logs and traces in $root/check"
exit $status
