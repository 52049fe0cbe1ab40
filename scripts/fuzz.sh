#!/usr/bin/env bash
# Builds the libFuzzer targets with Debian's clang (outside Bazel, whose toolchain is gcc)
# against the reader's sources and Debian's protobuf and Abseil, then runs each for
# SECONDS (default 60) from a seed corpus make_seeds generates (fuzz/make_seeds.cc). Usage:
#   ./scripts/fuzz.sh [SECONDS] [TARGET...]   TARGET: frame_reader chunk_decoder model_builder
# Findings (crash-*, oom-*, timeout-*) land in $FUZZ_BUILD/findings (chunk decoder ones
# also framed as FINDING.pb); copy each, named *.pb, into analyzer/testdata/hostile/ so that
# //analyzer/cli:hostile_input_test reads it from then on. The frame reader target runs with
# FUZZ_FIX_CRC=1 (checksums recomputed) unless FUZZ_FIX_CRC=0 is set.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(frame_reader chunk_decoder model_builder)
build=${FUZZ_BUILD:-/tmp/prof-fuzz-$(id -u)}
cxx=${CXX_FUZZ:-clang++}
mkdir -p "$build/gen" "$build/obj" "$build/findings"

mkdir -p "$build/gen.new/proto"
protoc -I. --cpp_out="$build/gen.new" proto/trace.proto
# The plain C++ mirrors of trace.proto, as //proto:trace_mirrors generates them in Bazel.
protoc -I. --include_imports --include_source_info --descriptor_set_out="$build/trace.desc" \
  proto/trace.proto
[ -x "$build/mirror_gen" ] && [ -z "$(find proto/gen -name "mirror_*" -newer "$build/mirror_gen")" ] ||
  "$cxx" -std=c++17 -O1 -I. proto/gen/mirror_check.cc proto/gen/mirror_headers.cc \
    proto/gen/mirror_gen_main.cc $(pkg-config --cflags --libs protobuf) -o "$build/mirror_gen"
"$build/mirror_gen" "$build/trace.desc" proto/trace.proto proto "$build/gen.new/proto" \
  trace_fields.h schema_enums.h trace_columns.h
for f in trace.pb.h trace.pb.cc trace_fields.h schema_enums.h trace_columns.h; do
  # keep the old file (and its objects) when unchanged
  cmp -s "$build/gen.new/proto/$f" "$build/gen/proto/$f" 2>/dev/null ||
    { mkdir -p "$build/gen/proto"; cp "$build/gen.new/proto/$f" "$build/gen/proto/$f"; }
done
flags=(-std=c++17 -O1 -g -fno-omit-frame-pointer -I. -I"$build/gen"
       -fsanitize=address,undefined -fno-sanitize-recover=undefined)
sources=(proto/crc32c.cc proto/framing.cc proto/byte_source.cc proto/read_report.cc
         proto/trace_file_reader.cc proto/chunk_decoder.cc proto/file_dictionary.cc
         proto/chunk_guard.cc proto/reusable_chunk.cc proto/chunk_block_reader.cc
         "$build/gen/proto/trace.pb.cc"
         fuzz/fuzz_support.cc
         analyzer/model/clock_alignment.cc analyzer/model/correlation.cc
         analyzer/model/data_quality.cc analyzer/model/enum_names.cc
         analyzer/model/kernel_names.cc analyzer/model/model_builder.cc
         analyzer/model/nvtx_operator_name.cc
         analyzer/model/trace_model.cc)
objects=()
newest_header=$(ls -t proto/*.h analyzer/model/*.h fuzz/*.h "$build"/gen/proto/*.h | head -n 1)
for source in "${sources[@]}"; do
  object="$build/obj/$(echo "$source" | tr / _).o"
  # Rebuilt when its source or any header it may include changed (no stale layouts).
  if [ ! -e "$object" ] || [ "$source" -nt "$object" ] || [ "$newest_header" -nt "$object" ]; then
    "$cxx" "${flags[@]}" -fsanitize=fuzzer-no-link -c "$source" -o "$object" &
  fi
  objects+=("$object")
done
wait
seed_sources=(proto/chunk_encoder.cc proto/chunk_encoder_columns.cc proto/run_column.cc
              proto/wire_format.cc proto/header_encoder.cc proto/trace_file_writer.cc
              proto/testing/sample_trace.cc proto/testing/event_strings.cc
              proto/testing/realistic_mix.cc proto/testing/reference_chunk_encoder.cc
              proto/testing/reference_runs.cc proto/header_message.cc
              proto/testing/frame_bytes.cc analyzer/testing/hostile_traces.cc)
libs=$(pkg-config --libs absl_str_format absl_status absl_statusor absl_flat_hash_map absl_strings protobuf)
# Seeds: generated from the format's test fixtures and the crafted traces, not checked in.
[ -x "$build/make_seeds" ] && [ "$build/make_seeds" -nt "$newest_header" ] &&
  [ -z "$(find fuzz proto analyzer/testing -name "*.cc" -newer "$build/make_seeds")" ] ||
"$cxx" -std=c++17 -O1 -I. -I"$build/gen" fuzz/make_seeds.cc "${seed_sources[@]}" \
  $(for s in "${sources[@]}"; do case $s in analyzer/*|fuzz/*) ;; *) echo "$s" ;; esac; done) \
  $libs -o "$build/make_seeds"
mkdir -p "$build/seeds/files" "$build/seeds/chunks"
"$build/make_seeds" "$build/seeds"
for target in "${targets[@]}"; do
  "$cxx" "${flags[@]}" -fsanitize=fuzzer "fuzz/${target}_fuzzer.cc" "${objects[@]}" $libs \
    -o "$build/${target}_fuzzer"
done

for target in "${targets[@]}"; do
  corpus="$build/corpus/$target"
  mkdir -p "$corpus"
  case $target in
    chunk_decoder) cp -n "$build"/seeds/chunks/* "$corpus/" ;;
    *) cp -n "$build"/seeds/files/* "$corpus/" ;;
  esac
  [ "$target" = frame_reader ] && export FUZZ_FIX_CRC=${FUZZ_FIX_CRC:-1}
  echo "== $target for ${seconds}s (corpus $corpus)"
  # One process (no -jobs): the log goes to the tee below, nothing lands in the worktree.
  "$build/${target}_fuzzer" "$corpus" -max_total_time="$seconds" \
    -rss_limit_mb=2048 -max_len=262144 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$build/findings/$target-" 2>&1 | tee "$build/$target.log" |
    grep -E '^#[0-9]+.*(DONE|pulse)|^stat::|ERROR|SUMMARY' || true
done
# A chunk decoder finding is a bare chunk: frame it into a trace file for the regression test.
for finding in "$build"/findings/chunk_decoder-*; do
  [ -e "$finding" ] && [ "${finding%.pb}" = "$finding" ] && "$build/make_seeds" --frame "$finding" "$finding.pb"
done
ls -l "$build/findings"
