#!/usr/bin/env bash
# libprof.so carries no protobuf and no Abseil, linked dynamically or statically: it is
# preloaded into programs that may load their own copies (issue 11), and the agent writes
# the trace wire format itself (proto/wire_format.h). Fails listing the symbols it found.
#   usage: agent/no_foreign_runtime_test.sh path/to/libprof.so
set -euo pipefail
library="$1"
# The whole symbol table (defined, undefined and local), demangled.
found="$(nm -C "$library" 2>/dev/null; nm -C -D "$library")"
foreign="$(grep -E 'google::protobuf|absl::|absl_lts|_ZN6google8protobuf|_ZN4absl' <<<"$found" || true)"
needed="$(readelf -d "$library" | grep NEEDED | grep -E 'protobuf|absl' || true)"
if [[ -n "$foreign$needed" ]]; then
  echo "libprof.so references protobuf or Abseil:"
  head -20 <<<"$needed$foreign"
  exit 1
fi
echo "no protobuf or Abseil symbol or DT_NEEDED entry in $library"
