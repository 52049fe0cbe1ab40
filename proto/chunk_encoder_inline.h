// ChunkEncoder::AddApiCallInline: AddApiCall's body, in a header so that the writer's launch
// path (agent/writer/record_converter.cc) compiles it into its own code. Inlined there, the
// fields the converter sets to constants (domain, bytes, copy kind, ...) fold away and the
// event is never stored and read back: ~40 instructions a launch (callgrind, issue 26).
// AddApiCall (chunk_encoder_columns.cc) is the same body, out of line, for everyone else.
#ifndef PROF_PROTO_CHUNK_ENCODER_INLINE_H_
#define PROF_PROTO_CHUNK_ENCODER_INLINE_H_

#include "proto/chunk_blocks.h"
#include "proto/chunk_encoder.h"

namespace prof {

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

}  // namespace prof

#endif  // PROF_PROTO_CHUNK_ENCODER_INLINE_H_
