#!/bin/sh
# Rewrites the golden outputs in this folder from the current analyzer; review the diff.
set -e
cd "$(dirname "$0")/../.."
PROF_REGENERATE_GOLDEN=1 bazel --output_user_root=/tmp/bazel-analyzer run //analyzer/cli:golden_test
git diff --stat -- analyzer/testdata || true
