#!/bin/bash
# mirror_gen as the build runs it: the three headers for a good .proto; for one it cannot
# mirror, status 1 and exactly one line on stderr naming the element.
set -u
gen="$1" tiny="$2" oneof="$3"
out="${TEST_TMPDIR:-$(mktemp -d)}"
fail() { echo "FAIL: $*"; exit 1; }

"$gen" "$tiny" proto/gen/testdata/tiny.proto x "$out" f.h e.h c.h 2>"$out/err" ||
  fail "good .proto refused: $(cat "$out/err")"
grep -q 'static constexpr uint32_t kNoteId = 4;' "$out/f.h" || fail "f.h lacks Samples.note_id"
grep -q 'COLOR_BLUE = 2,' "$out/e.h" || fail "e.h lacks COLOR_BLUE"
grep -q '#include "x/f.h"' "$out/c.h" || fail "c.h does not include the fields header"

"$gen" "$oneof" proto/gen/testdata/oneof.proto x "$out" f.h e.h c.h 2>"$out/err"
status=$?
[ "$status" -eq 1 ] || fail "status $status for a .proto with a oneof"
[ "$(wc -l <"$out/err")" -eq 1 ] || fail "not one line: $(cat "$out/err")"
grep -q '^mirror_gen: proto/gen/testdata/oneof.proto: Kernels.start: oneof' "$out/err" ||
  fail "unclear line: $(cat "$out/err")"
echo PASS
