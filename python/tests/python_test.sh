#!/usr/bin/env bash
# Runs one of the Python helper's test modules with Debian's /usr/bin/python3, the
# interpreter that has python3-torch (scripts/setup.sh installs it).
set -euo pipefail
exec /usr/bin/python3 -B "$@"
