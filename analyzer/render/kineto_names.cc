#include "analyzer/render/kineto_names.h"

#include <utility>

#include "absl/strings/strip.h"
#include "absl/strings/str_cat.h"
#include "analyzer/model/enum_names.h"
#include "analyzer/model/kernel_names.h"

namespace prof::analyzer {

const char* KinetoSyncName(absl::string_view model_name) {
  static const std::pair<schema::SynchronizationKind, const char*> kNames[] = {
      {schema::SYNCHRONIZATION_KIND_EVENT, "Event Sync"},
      {schema::SYNCHRONIZATION_KIND_STREAM_WAIT_EVENT, "Stream Wait Event"},
      {schema::SYNCHRONIZATION_KIND_STREAM, "Stream Sync"},
      {schema::SYNCHRONIZATION_KIND_CONTEXT, "Context Sync"}};
  for (const auto& [kind, name] : kNames) {
    if (model_name == absl::StrCat("SYNC_", SynchronizationKindName(kind))) return name;
  }
  return "Unknown Sync";
}

absl::string_view KinetoApiName(absl::string_view model_name) {
  if (model_name == "__cudaLaunchKernel") return "cudaLaunchKernel";
  if (model_name == "__cudaLaunchKernel_ptsz") return "cudaLaunchKernel_ptsz";
  return model_name;
}

const char* KinetoMemoryKindName(uint8_t kind) {
  switch (kind) {
    case schema::MEMORY_KIND_UNKNOWN: return "Unknown";
    case schema::MEMORY_KIND_PAGEABLE: return "Pageable";
    case schema::MEMORY_KIND_PINNED: return "Pinned";
    // cudaMallocAsync's pools are device memory to CUPTI.
    case schema::MEMORY_KIND_DEVICE:
    case schema::MEMORY_KIND_DEVICE_POOL: return "Device";
    case schema::MEMORY_KIND_MANAGED: return "Managed";
    case schema::MEMORY_KIND_ARRAY: return "Array";
    default: return "Unrecognized";
  }
}

std::string KinetoDeviceName(const TraceModel& model, const DeviceActivity& activity) {
  const absl::string_view name = model.names.Get(activity.name);
  switch (activity.kind) {
    case DeviceKind::kKernel: return std::string(name);
    case DeviceKind::kMemset: return "Memset (Unknown)";
    case DeviceKind::kSynchronization: return KinetoSyncName(name);
    case DeviceKind::kMemcpy: break;
  }
  // The direction as the model names it ("MEMCPY_HtoD", inferred from the memory kinds
  // for cudaMemcpyDefault); libkineto's word where there is none.
  const schema::MemoryKind source = activity.source_kind();
  const schema::MemoryKind destination = activity.destination_kind();
  absl::string_view direction =
      MemcpyName(activity.copy_kind(), source, destination);
  if (!absl::ConsumePrefix(&direction, "MEMCPY_")) direction = "<unknown>";
  return absl::StrCat("Memcpy ", direction, " (", KinetoMemoryKindName(source), " -> ",
                      KinetoMemoryKindName(destination), ")");
}

}  // namespace prof::analyzer
