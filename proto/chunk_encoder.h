// Turns plain events (events.h) into Chunk messages: groups host events by thread and
// device events by stream, delta-encodes timestamps and correlation ids, fills sparse
// columns, and interns strings, kernel configurations and call stacks for the whole file.
//
// One encoder per trace file (interning is per file), used by one thread at a time.
// Memory grows with the number of distinct interned values and with the events pending
// in the current chunk; Finish() empties the chunk but keeps its capacity.
//
//   prof::ChunkEncoder encoder;
//   prof::KernelEvent kernel; kernel.config = encoder.InternKernelConfig(config); ...
//   encoder.AddKernel(kernel);
//   if (encoder.pending_events() >= 65536) writer->AppendChunk(encoder.Finish(false));
//   writer->AppendChunk(encoder.Finish(true));
#ifndef PROF_PROTO_CHUNK_ENCODER_H_
#define PROF_PROTO_CHUNK_ENCODER_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "proto/events.h"
#include "proto/trace.pb.h"

namespace prof {

class ChunkEncoder {
 public:
  ChunkEncoder();
  ~ChunkEncoder();
  ChunkEncoder(const ChunkEncoder&) = delete;
  ChunkEncoder& operator=(const ChunkEncoder&) = delete;

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
  void AddLoss(trace::LossKind kind, uint64_t count);
  void AddClockAnchor(const trace::ClockAnchor& anchor);
  void AddCpuUsage(const trace::CpuUsage& usage);

  // Events added since the last Finish().
  uint64_t pending_events() const { return pending_events_; }

  // Seals the current chunk with the next sequence number and returns it; the reference
  // stays valid until the next call on this encoder.
  const trace::Chunk& Finish(bool last_chunk);

 private:
  struct ThreadGroup;
  struct StreamGroup;

  ThreadGroup& Thread(uint64_t thread_id, trace::ClockDomain clock);
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

}  // namespace prof

#endif  // PROF_PROTO_CHUNK_ENCODER_H_
