// The names Kineto gives device records, which tools built for PyTorch traces read (HTA
// counts a GPU record as memory work when its name holds "Memcpy" or "Memset"): kernels by
// their demangled name; copies "Memcpy HtoD (Pageable -> Device)" (libkineto's
// memcpyName: direction, then the source's and destination's memory kinds); memsets
// "Memset (Device)"; synchronizations "Stream Sync", "Context Sync", "Event Sync",
// "Stream Wait Event" (syncTypeString).
#ifndef PROF_ANALYZER_RENDER_KINETO_NAMES_H_
#define PROF_ANALYZER_RENDER_KINETO_NAMES_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "analyzer/model/trace_model.h"

namespace prof::analyzer {

// Kineto's name of `activity`, a record of `model`. The agent records no memset's memory
// kind: "Memset (Unknown)", Kineto's word for a kind it was not told.
std::string KinetoDeviceName(const TraceModel& model, const DeviceActivity& activity);

// Kineto's name of a synchronization record, from the model's (model_builder.cc:
// "SYNC_" + SynchronizationKindName); "Unknown Sync" for any other.
const char* KinetoSyncName(absl::string_view model_name);

// Kineto's name of a runtime or driver call: CUPTI's callback name, which for CUDA 13's
// __cudaLaunchKernel (the entry point of <<<>>>, which the agent interposes under its own
// name) is cudaLaunchKernel's: the launches of torch's own kernels in (b) on the H100.
absl::string_view KinetoApiName(absl::string_view model_name);

// libkineto's memoryKindString of a schema::MemoryKind.
const char* KinetoMemoryKindName(uint8_t kind);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_RENDER_KINETO_NAMES_H_
