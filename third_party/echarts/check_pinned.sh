#!/usr/bin/env bash
# The committed echarts.min.js is the pinned release's file, byte for byte.
set -euo pipefail
expected="b66b25aeb4df84e33199dc21694014d336d222cbd9deb0e5a7c14bd6aa0d0fd0"  # echarts@6.1.0 dist/echarts.min.js
actual="$(sha256sum "$1" | cut -d' ' -f1)"
if [ "$actual" != "$expected" ]; then
  echo "echarts.min.js: sha256 $actual, expected $expected (run third_party/echarts/update.sh)" >&2
  exit 1
fi
