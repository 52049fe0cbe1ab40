#!/usr/bin/env bash
# Runs scripts/gpu_check.sh --simulated from this test's runfiles (laid out as bazel-bin).
set -euo pipefail
root="$PWD"   # the runfiles' workspace folder: scripts/, testdata/gpu/, agent/libprof.so, ...
# Known gaps, each one line (see the final report of the branch that added each):
#  - "b: ATen operator names and counts" varies: torch.profiler folds a call into a parent
#    of its name by whole microseconds (EventList._remove_dup_nodes), so its counts differ
#    by a call or two from run to run (aten::bmm); the helper folds as torch does, by its
#    own run's microseconds. On torch 1.13 torch.profiler also counts its own
#    record_function handles (aten::zeros, aten::empty, aten::zero_ around each
#    ProfilerStep#N: 5760/5779 calls). "b: ATen operator names" is checked. (aten::empty
#    and aten::set_ +-2 was train.py's two DataLoader workers racing, fixed: one worker.)
#  - "f: ..." (step-time cost) varies: a timing on a shared 2-core machine is no assertion
#    (CLOSED +8.8% once beside other tests, +0.1-0.6% alone); on a GPU it is a verdict.
exec "$root/scripts/gpu_check.sh" --simulated --bin "$root" --out "${TEST_UNDECLARED_OUTPUTS_DIR:-${TEST_TMPDIR:-/tmp}}/gpu_check" \
  --expect-fail "~b: ATen operator names and counts" --expect-fail "~f: "
