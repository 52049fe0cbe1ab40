// Test support: one-line descriptions of decoded events and a sink that records them,
// so tests compare what went in with what came out and print a readable difference.
#ifndef PROF_PROTO_TESTING_EVENT_STRINGS_H_
#define PROF_PROTO_TESTING_EVENT_STRINGS_H_

#include <string>
#include <vector>

#include "proto/chunk_decoder.h"
#include "proto/events.h"

namespace prof::testing {

std::string Describe(const ApiCallEvent& event);
std::string Describe(const HostRangeEvent& event);
std::string Describe(const StepEvent& event);
std::string Describe(const NcclCallEvent& event);
std::string Describe(const MemoryEvent& event);
std::string Describe(const KernelEvent& event);
std::string Describe(const MemcpyEvent& event);
std::string Describe(const MemsetEvent& event);
std::string Describe(const SynchronizationEvent& event);

// Records every event as its description, in arrival order, plus the other callbacks.
class RecordingSink : public EventSink {
 public:
  void OnApiCall(const ApiCallEvent& event) override { events.push_back(Describe(event)); }
  void OnHostRange(const HostRangeEvent& event) override { events.push_back(Describe(event)); }
  void OnStep(const StepEvent& event) override { events.push_back(Describe(event)); }
  void OnNcclCall(const NcclCallEvent& event) override { events.push_back(Describe(event)); }
  void OnMemory(const MemoryEvent& event) override { events.push_back(Describe(event)); }
  void OnKernel(const KernelEvent& event) override { events.push_back(Describe(event)); }
  void OnMemcpy(const MemcpyEvent& event) override { events.push_back(Describe(event)); }
  void OnMemset(const MemsetEvent& event) override { events.push_back(Describe(event)); }
  void OnSynchronization(const SynchronizationEvent& event) override {
    events.push_back(Describe(event));
  }
  void OnThreadName(uint64_t thread_id, StringId name) override;
  void OnProcess(StringId name, int64_t parent_pid) override;
  void OnLoss(schema::LossKind kind, uint64_t count) override;
  void OnStepLoss(schema::LossKind kind, uint64_t count, int64_t step) override;
  void OnClockAnchor(const trace::ClockAnchor& anchor) override;

  std::vector<std::string> events;
  std::vector<std::string> other;  // names, process, losses, anchors
};

}  // namespace prof::testing

#endif  // PROF_PROTO_TESTING_EVENT_STRINGS_H_
