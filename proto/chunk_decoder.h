// Turns a Chunk back into plain events (events.h), calling an EventSink once per event
// in column order. Undoes the grouping, delta encoding and sparse columns of
// ChunkEncoder, and checks every block: a block whose columns disagree in length is
// skipped whole and counted, never half-read.
//
// Stateless between chunks except for the FileDictionary, which the caller keeps per file.
//
//   prof::FileDictionary dictionary;
//   MySink sink;
//   while (reader->Next(&chunk)) {
//     dictionary.AddDefinitions(chunk);
//     prof::ChunkDecodeStats stats = prof::DecodeChunk(chunk, &sink);
//   }
#ifndef PROF_PROTO_CHUNK_DECODER_H_
#define PROF_PROTO_CHUNK_DECODER_H_

#include <cstdint>
#include <string>

#include "proto/events.h"
#include "proto/trace.pb.h"

namespace prof {

// Receives decoded events. Every method defaults to doing nothing.
class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual void OnApiCall(const ApiCallEvent&) {}
  virtual void OnHostRange(const HostRangeEvent&) {}
  virtual void OnStep(const StepEvent&) {}
  virtual void OnNcclCall(const NcclCallEvent&) {}
  virtual void OnMemory(const MemoryEvent&) {}
  virtual void OnKernel(const KernelEvent&) {}
  virtual void OnMemcpy(const MemcpyEvent&) {}
  virtual void OnMemset(const MemsetEvent&) {}
  virtual void OnSynchronization(const SynchronizationEvent&) {}
  virtual void OnThreadName(uint64_t /*thread_id*/, StringId /*name*/) {}
  virtual void OnProcess(StringId /*name*/, int64_t /*parent_pid*/) {}
  virtual void OnLoss(schema::LossKind /*kind*/, uint64_t /*count*/) {}
  // After OnLoss, for a counter that names the step its records were lost in.
  virtual void OnStepLoss(schema::LossKind /*kind*/, uint64_t /*count*/, int64_t /*step*/) {}
  virtual void OnClockAnchor(const trace::ClockAnchor&) {}
  virtual void OnCpuUsage(const trace::CpuUsage&) {}
  virtual void OnMemorySample(const MemorySampleEvent&) {}
};

struct ChunkDecodeStats {
  uint64_t events = 0;
  uint64_t malformed_blocks = 0;   // blocks skipped because their columns disagree
  uint64_t malformed_columns = 0;  // sparse columns ignored (their rows lose the value)
  std::string first_problem;       // describes the first malformed block or column
};

ChunkDecodeStats DecodeChunk(const trace::Chunk& chunk, EventSink* sink);

}  // namespace prof

#endif  // PROF_PROTO_CHUNK_DECODER_H_
