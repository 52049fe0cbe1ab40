#include "proto/testing/event_strings.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace prof::testing {
namespace {

template <typename T>
std::string Optional(const std::optional<T>& value) {
  return value ? absl::StrCat(*value) : "-";
}

std::string Where(const StreamKey& where) {
  return absl::StrFormat("dev=%d ctx=%d stream=%d clock=%d", where.device, where.context,
                         where.stream, where.clock);
}

}  // namespace

std::string Describe(const ApiCallEvent& e) {
  return absl::StrFormat(
      "api tid=%d clock=%d start=%d dur=%d name=%d corr=%d domain=%d status=%d stream=%s "
      "bytes=%d copy=%d config=%d stack=%d",
      e.thread_id, e.clock, e.start_ns, e.duration_ns, e.name, e.correlation_id, e.domain, e.status,
      Optional(e.stream), e.bytes, e.copy_kind, e.kernel_config, e.call_stack);
}

std::string Describe(const HostRangeEvent& e) {
  std::string text =
      absl::StrFormat("range tid=%d clock=%d start=%d dur=%d name=%d kind=%d domain=%d",
                      e.thread_id, e.clock, e.start_ns, e.duration_ns, e.name, e.kind, e.domain);
  // Operator details only where present, so older expected texts stay as they were.
  if (e.shapes || e.dtypes || e.source) {
    absl::StrAppendFormat(&text, " shapes=%d dtypes=%d source=%d", e.shapes, e.dtypes, e.source);
  }
  return text;
}

std::string Describe(const StepEvent& e) {
  return absl::StrFormat("step tid=%d clock=%d start=%d dur=%d number=%d samples=%d", e.thread_id,
                         e.clock, e.start_ns, e.duration_ns, e.step_number, e.sample_count);
}

std::string Describe(const NcclCallEvent& e) {
  return absl::StrFormat(
      "nccl tid=%d clock=%d start=%d dur=%d op=%d count=%d type=%d bytes=%d comm=%d seq=%d "
      "stream=%d root=%s redop=%s",
      e.thread_id, e.clock, e.start_ns, e.duration_ns, e.operation, e.count, e.data_type, e.bytes,
      e.communicator, e.sequence_number, e.stream, Optional(e.root_or_peer),
      Optional(e.reduction_op));
}

std::string Describe(const MemoryEvent& e) {
  return absl::StrFormat(
      "memory tid=%d clock=%d time=%d op=%d address=%d bytes=%d device=%d kind=%d stream=%s "
      "stack=%d",
      e.thread_id, e.clock, e.time_ns, e.operation, e.address, e.bytes, e.device, e.kind,
      Optional(e.stream), e.call_stack);
}

std::string Describe(const KernelEvent& e) {
  return absl::StrFormat("kernel %s start=%d dur=%d config=%d corr=%d graph=%s node=%s launch=%s",
                         Where(e.where), e.start_ns, e.duration_ns, e.config, e.correlation_id,
                         Optional(e.graph_id), Optional(e.graph_node_id), Optional(e.launch_type));
}

std::string Describe(const MemcpyEvent& e) {
  return absl::StrFormat("memcpy %s start=%d dur=%d bytes=%d copy=%d src=%d dst=%d corr=%d",
                         Where(e.where), e.start_ns, e.duration_ns, e.bytes, e.copy_kind,
                         e.source_kind, e.destination_kind, e.correlation_id);
}

std::string Describe(const MemsetEvent& e) {
  return absl::StrFormat("memset %s start=%d dur=%d bytes=%d value=%d corr=%d", Where(e.where),
                         e.start_ns, e.duration_ns, e.bytes, e.value, e.correlation_id);
}

std::string Describe(const SynchronizationEvent& e) {
  return absl::StrFormat("sync %s start=%d dur=%d kind=%d corr=%d event=%s", Where(e.where),
                         e.start_ns, e.duration_ns, e.kind, e.correlation_id, Optional(e.event_id));
}

void RecordingSink::OnThreadName(uint64_t thread_id, StringId name) {
  other.push_back(absl::StrFormat("thread %d name=%d", thread_id, name));
}

void RecordingSink::OnProcess(StringId name, int64_t parent_pid) {
  other.push_back(absl::StrFormat("process name=%d parent=%d", name, parent_pid));
}

void RecordingSink::OnLoss(schema::LossKind kind, uint64_t count) {
  other.push_back(absl::StrFormat("loss kind=%d count=%d", kind, count));
}

void RecordingSink::OnStepLoss(schema::LossKind kind, uint64_t count, int64_t step) {
  other.push_back("loss kind=" + std::to_string(kind) + " count=" + std::to_string(count) +
                  " step=" + std::to_string(step));
}

void RecordingSink::OnClockAnchor(const trace::ClockAnchor& anchor) {
  other.push_back(absl::StrFormat("anchor mono=%d real=%d cupti=%d", anchor.host_monotonic_ns(),
                                  anchor.host_realtime_ns(), anchor.cupti_ns()));
}

}  // namespace prof::testing
