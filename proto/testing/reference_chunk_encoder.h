// Test support: the chunk encoder as it was before the agent stopped using libprotobuf,
// filling trace::Chunk messages field by field and leaving serialization to libprotobuf.
// The oracle of chunk_wire_test.cc: ChunkEncoder's bytes must equal what libprotobuf
// serializes from the message this builds from the same calls.
#ifndef PROF_PROTO_TESTING_REFERENCE_CHUNK_ENCODER_H_
#define PROF_PROTO_TESTING_REFERENCE_CHUNK_ENCODER_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "proto/events.h"
#include "proto/header_encoder.h"
#include "proto/trace.pb.h"

namespace prof::testing {

class ReferenceChunkEncoder {
 public:
  ReferenceChunkEncoder();
  ~ReferenceChunkEncoder();
  ReferenceChunkEncoder(const ReferenceChunkEncoder&) = delete;
  ReferenceChunkEncoder& operator=(const ReferenceChunkEncoder&) = delete;

  // Interning: the first call for a value defines it in the current chunk.
  StringId InternString(absl::string_view value);
  KernelConfigId InternKernelConfig(const KernelConfigValue& value);
  // `frame_names` (optional, one per address) are the symbolized frames.
  CallStackId InternCallStack(absl::Span<const uint64_t> frame_addresses,
                              absl::Span<const std::string> frame_names = {});
  // Every communicator initialization gets its own id.
  CommunicatorId AddCommunicator(const CommunicatorValue& value);

  void AddApiCall(const ApiCallEvent& event);
  void AddHostRange(const HostRangeEvent& event);
  void AddStep(const StepEvent& event);
  void AddNcclCall(const NcclCallEvent& event);
  void AddMemory(const MemoryEvent& event);
  void AddKernel(const KernelEvent& event);
  void AddMemcpy(const MemcpyEvent& event);
  void AddMemset(const MemsetEvent& event);
  void AddSynchronization(const SynchronizationEvent& event);

  void SetThreadName(uint64_t thread_id, absl::string_view name);
  void SetProcess(absl::string_view name, int64_t parent_pid);
  void AddLoss(schema::LossKind kind, uint64_t count);
  void AddClockAnchor(const ClockAnchorValue& anchor);
  void AddCpuUsage(const CpuUsageValue& usage);
  void AddMemorySample(const MemorySampleEvent& sample);

  // Events added since the last Finish().
  uint64_t pending_events() const { return pending_events_; }

  // Seals the current chunk with the next sequence number and returns it; the reference
  // stays valid until the next call on this encoder.
  const trace::Chunk& Finish(bool last_chunk);

 private:
  struct ThreadGroup;
  struct StreamGroup;

  ThreadGroup& Thread(uint64_t thread_id, schema::ClockDomain clock);
  StreamGroup& Stream(const StreamKey& key);

  trace::Chunk chunk_;     // being built
  trace::Chunk finished_;  // returned by the last Finish()
  uint64_t next_sequence_ = 0;
  uint64_t pending_events_ = 0;

  absl::flat_hash_map<std::string, StringId> string_ids_;
  absl::flat_hash_map<KernelConfigValue, KernelConfigId> kernel_config_ids_;
  absl::flat_hash_map<std::vector<uint64_t>, CallStackId> call_stack_ids_;
  CommunicatorId next_communicator_id_ = 1;

  // Groups of the current chunk; indexes into the vectors, which Finish() clears.
  std::vector<ThreadGroup> thread_groups_;
  std::vector<StreamGroup> stream_groups_;
  absl::flat_hash_map<std::pair<uint64_t, int>, size_t> thread_group_index_;
  absl::flat_hash_map<std::pair<uint64_t, uint64_t>, size_t> stream_group_index_;
};

}  // namespace prof::testing

#endif  // PROF_PROTO_TESTING_REFERENCE_CHUNK_ENCODER_H_
