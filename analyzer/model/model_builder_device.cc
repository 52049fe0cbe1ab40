// ModelBuilder's device records (kernels, copies, memsets, synchronizations), apart from
// model_builder.cc for its size.
#include "absl/strings/str_cat.h"
#include "analyzer/model/enum_names.h"
#include "analyzer/model/model_builder.h"
#include "analyzer/model/record_append.h"

namespace prof::analyzer {

using model_records::AppendNew;
using model_records::HasRoom;

inline void ModelBuilder::WriteKernelName(const KernelName& cached, DeviceActivity* activity) {
  activity->name = cached.name;
  activity->nccl = cached.nccl;
  activity->launch = cached.launch;
}

template <typename Event>
inline void ModelBuilder::WriteDevice(DeviceKind kind, const Event& event, bool cupti,
                                      DeviceActivity* activity) {
  activity->kind = kind;
  uint64_t start_ns = event.start_ns;
  if (cupti && fixed_clock_) {  // as ConvertClocks would: the duration kept as measured
    start_ns = fixed_clock_->ToHost(start_ns);
    cupti = false;
    ++device_records_converted_;
  }
  activity->start_ns = start_ns;
  activity->end_ns = start_ns + event.duration_ns;
  activity->correlation_id = event.correlation_id;
  activity->device = event.where.device;
  activity->stream = event.where.stream;
  if (cupti) NoteDeviceOnCuptiClock(activity - model_.device_activities.data());
}

template <typename Event>
DeviceActivity& ModelBuilder::AddDevice(DeviceKind kind, const Event& event) {
  DeviceActivity& activity = AppendNew(&model_.device_activities);
  WriteDevice(kind, event, Clock(event.where.clock), &activity);
  ++model_.event_count;
  return activity;
}

// The usual kernel (its configuration seen before, a defined clock, room in the vector)
// without a call, as OnApiCall; any other takes the general path.
void ModelBuilder::OnKernel(const KernelEvent& event) {
  std::vector<DeviceActivity>& activities = model_.device_activities;
  const KernelName* cached = kernel_name_of_config_.Peek(event.config);
  const schema::ClockDomain clock = event.where.clock;
  if (__builtin_expect(cached == nullptr || cached->name == 0 ||
                           (clock != schema::CLOCK_DOMAIN_CUPTI &&
                            clock != schema::CLOCK_DOMAIN_HOST_MONOTONIC) ||
                           !HasRoom(activities),
                       0))
    return AddKernel(event);
  DeviceActivity& activity = activities.emplace_back();
  WriteDevice(DeviceKind::kKernel, event, clock == schema::CLOCK_DOMAIN_CUPTI, &activity);
  WriteKernelName(*cached, &activity);
  ++model_.event_count;
}

void ModelBuilder::AddKernel(const KernelEvent& event) {
  DeviceActivity& activity = AddDevice(DeviceKind::kKernel, event);
  WriteKernelName(KernelNameOf(event.config), &activity);
}

void ModelBuilder::OnMemcpy(const MemcpyEvent& event) {
  DeviceActivity& activity = AddDevice(DeviceKind::kMemcpy, event);
  activity.bytes = event.bytes;
  // An undefined kind (a newer agent, a damaged file) is kept as unknown (the readers name
  // an undefined copy kind as they name an unknown one).
  if (Known(trace::CopyKind_IsValid(event.copy_kind), "copy kind"))
    activity.set_copy_kind(event.copy_kind);
  const bool source_known = Known(trace::MemoryKind_IsValid(event.source_kind), "memory kind");
  const bool destination_known =
      Known(trace::MemoryKind_IsValid(event.destination_kind), "memory kind");
  activity.set_memory_kinds(
      source_known ? event.source_kind : schema::MEMORY_KIND_UNKNOWN,
      destination_known ? event.destination_kind : schema::MEMORY_KIND_UNKNOWN);
  activity.name = MemcpyNameId(event.copy_kind, event.source_kind, event.destination_kind);
}

void ModelBuilder::OnMemset(const MemsetEvent& event) {
  DeviceActivity& activity = AddDevice(DeviceKind::kMemset, event);
  activity.bytes = event.bytes;
  if (memset_name_ == 0) memset_name_ = model_.names.Intern("MEMSET");
  activity.name = memset_name_;
}

void ModelBuilder::OnSynchronization(const SynchronizationEvent& event) {
  DeviceActivity& activity = AddDevice(DeviceKind::kSynchronization, event);
  activity.name = model_.names.Intern(absl::StrCat("SYNC_", SynchronizationKindName(event.kind)));
  Known(trace::SynchronizationKind_IsValid(event.kind), "synchronization kind");
}

}  // namespace prof::analyzer
