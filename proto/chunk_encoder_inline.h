// ChunkEncoder::AddApiCallInline: AddApiCall's body, in a header so that the writer's launch
// path (agent/writer/record_converter.cc) compiles it into its own code. Inlined there, the
// fields the converter sets to constants (domain, bytes, copy kind, ...) fold away and the
// event is never stored and read back: ~40 instructions a launch (callgrind, issue 26).
// AddApiCall (chunk_encoder_columns.cc) is the same body, out of line, for everyone else.
// AddHostRangeInline likewise, for the writer's operator ranges (their domain and details
// are constants there), and InternStringInline, the string memo's hit (a call and its frame
// were ~15 of its ~70 instructions an operator; InternString is the same, out of line).
#ifndef PROF_PROTO_CHUNK_ENCODER_INLINE_H_
#define PROF_PROTO_CHUNK_ENCODER_INLINE_H_

#include <cstring>

#include "proto/chunk_blocks.h"
#include "proto/chunk_encoder.h"

namespace prof {
namespace chunk_encoder_internal {

inline RecentKey RecentKeyOf(std::string_view value) {
  RecentKey key;
  key.length = value.size();
  if (key.length >= 8) {
    std::memcpy(&key.head, value.data(), 8);
    std::memcpy(&key.tail, value.data() + key.length - 8, 8);
  } else if (key.length > 0) {
    std::memcpy(&key.head, value.data(), key.length);
  }
  return key;
}

// recent_strings_' slot for a string (`slots` a power of two, at least 2): its key, mixed
// (a few instructions for any length; names differ mostly at their ends: "aten::..."). The
// slot is the product's top bits: a multiplication carries a difference only upwards, and
// with bits 32 and up "aten::zeros" and "aten::zero_" (whose last bytes, the tail's top
// byte, differ) always shared a slot.
inline size_t RecentSlot(const RecentKey& key, size_t slots) {
  const uint64_t mixed =
      (key.head ^ (key.tail * 0x9E3779B97F4A7C15ull) ^ key.length) * 0xFF51AFD7ED558CCDull;
  return static_cast<size_t>(mixed >> (64 - __builtin_ctzll(slots)));
}

}  // namespace chunk_encoder_internal

inline StringId ChunkEncoder::InternStringInline(std::string_view value) {
  const chunk_encoder_internal::RecentKey key = chunk_encoder_internal::RecentKeyOf(value);
  const size_t slot = chunk_encoder_internal::RecentSlot(key, kRecentStrings);
  const RecentString& recent = recent_strings_[slot];
  if (recent.Holds(key, value)) return recent.id;
  return InternStringMiss(value, slot);
}

inline void ChunkEncoder::AddApiCallInline(const ApiCallEvent& event) {
  chunk_blocks::ApiCalls& calls = Thread(event.thread_id, event.clock).api;
  const uint32_t row = chunk_blocks::NewRow(&calls);
  calls.start_delta_ns.AddSigned(chunk_blocks::TakeDelta(event.start_ns, &calls.deltas.start));
  calls.duration_ns.AddUnsigned(event.duration_ns);
  calls.name_id.AddRepeating(event.name);
  calls.correlation_id_delta.AddRepeatingSigned(
      chunk_blocks::TakeDelta(event.correlation_id, &calls.deltas.correlation));
  if (event.domain != schema::API_DOMAIN_RUNTIME) {
    calls.domain.Append(row, wire::Int32Bits(event.domain));
  }
  if (event.status != 0) calls.status.Append(row, static_cast<uint64_t>(event.status));
  if (event.stream) calls.stream.Append(row, *event.stream);
  if (event.bytes != 0) calls.bytes.Append(row, event.bytes);
  if (event.copy_kind != schema::COPY_KIND_UNKNOWN) {
    calls.copy_kind.Append(row, wire::Int32Bits(event.copy_kind));
  }
  if (event.kernel_config != 0) calls.kernel_config_id.Append(row, event.kernel_config);
  if (event.call_stack != 0) calls.call_stack_id.Append(row, event.call_stack);
  ++pending_events_;
}

inline void ChunkEncoder::AddHostRangeInline(const HostRangeEvent& event) {
  chunk_blocks::HostRanges& ranges = Thread(event.thread_id, event.clock).ranges;
  const uint32_t row = chunk_blocks::NewRow(&ranges);
  ranges.start_delta_ns.AddSigned(chunk_blocks::TakeDelta(event.start_ns, &ranges.deltas.start));
  ranges.duration_ns.AddUnsigned(event.duration_ns);
  ranges.name_id.AddRepeating(event.name);
  if (event.kind != schema::RANGE_KIND_OPERATOR) {  // an operator's kind: written later
    chunk_blocks::WriteOperatorKinds(&ranges, row);
    ranges.kind.AddRepeatingInt32(event.kind);
  }
  if (event.domain != 0) ranges.domain_name_id.Append(row, event.domain);
  if (event.shapes != 0) ranges.shapes_id.Append(row, event.shapes);
  if (event.dtypes != 0) ranges.dtypes_id.Append(row, event.dtypes);
  if (event.source != 0) ranges.source_id.Append(row, event.source);
  ++pending_events_;
}

}  // namespace prof

#endif  // PROF_PROTO_CHUNK_ENCODER_INLINE_H_
