#!/usr/bin/env bash
# Installs what is missing, then runs every test: ./scripts/test.sh [bazel test flags]
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
bazel test //... "$@"
