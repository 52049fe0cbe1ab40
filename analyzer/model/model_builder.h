// Builds the TraceModel of one trace file from decoded events (an EventSink fed by the
// reader), then, in Finish(), moves every CUPTI timestamp onto the host clock and links
// device records to their launching API calls.
//
// One builder per file and thread; the FileDictionary must outlive it.
//
//   FileDictionary dictionary;
//   ModelBuilder builder(&dictionary, header);
//   ... dictionary.AddDefinitions(chunk); DecodeChunk(chunk, &builder); ...
//   TraceModel model = std::move(builder).Finish();
#ifndef PROF_ANALYZER_MODEL_MODEL_BUILDER_H_
#define PROF_ANALYZER_MODEL_MODEL_BUILDER_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/strings/string_view.h"
#include "analyzer/model/clock_alignment.h"
#include "analyzer/model/id_cache.h"
#include "analyzer/model/trace_model.h"
#include "proto/chunk_decoder.h"
#include "proto/file_dictionary.h"
#include "proto/trace.pb.h"

namespace prof::analyzer {

class ModelBuilder : public EventSink {
 public:
  ModelBuilder(FileDictionary* dictionary, const trace::FileHeader& header);
  // Continues `earlier`, the model of the same file's earlier segments (clocks converted):
  // new records are appended to its vectors and new names to its pool, so a slicer's held
  // records are not copied into each new segment (window_slicer.h).
  ModelBuilder(FileDictionary* dictionary, const trace::FileHeader& header, TraceModel earlier);

  void OnApiCall(const ApiCallEvent& event) override;
  void OnHostRange(const HostRangeEvent& event) override;
  void OnStep(const StepEvent& event) override;
  void OnNcclCall(const NcclCallEvent& event) override;
  void OnMemory(const MemoryEvent& event) override;
  void OnKernel(const KernelEvent& event) override;
  void OnMemcpy(const MemcpyEvent& event) override;
  void OnMemset(const MemsetEvent& event) override;
  void OnSynchronization(const SynchronizationEvent& event) override;
  void OnThreadName(uint64_t thread_id, StringId name) override;
  void OnLoss(schema::LossKind kind, uint64_t count) override;
  void OnStepLoss(schema::LossKind kind, uint64_t count, int64_t step) override;
  void OnClockAnchor(const trace::ClockAnchor& anchor) override;
  void OnCpuUsage(const trace::CpuUsage& usage) override;
  void OnMemorySample(const MemorySampleEvent& sample) override;

  DataQuality& quality() { return model_.quality; }

  // Every anchor of the file has been given (OnClockAnchor; later ones only repeat them, as
  // a segment's chunks repeat the file's scan): device records are then moved onto the
  // host clock as they are added, not in a walk over them in Finish (memory bound: 2% of
  // a 10M-event file). Call before any event.
  void FixClock() { fixed_clock_.emplace(anchors_); }

  // Converts clocks, correlates, and hands the model over. Call once. `correlate` false:
  // leaves device records unlinked, for a segment the slicer links with what it holds
  // (window_slicer.h), so its calls are not indexed twice.
  TraceModel Finish(const std::string& file_label, bool correlate = true);

 private:
  NameId Name(StringId file_id);
  ABSL_ATTRIBUTE_NOINLINE NameId ResolveName(StringId file_id);
  // "NAME, seq = N, op_id = N, sizes = [...]" (PyTorch emit_nvtx): NAME, sizes as shapes.
  void NormalizeOperatorName(HostRange* range);
  // The split of one operator name (by its NameId), made on its first range: operators
  // repeat their names, and splitting scanned the text every time.
  struct OperatorNameParts {
    NameId name;  // NAME's id (the range's own when unsplit); kUnresolved: not split yet
    absl::string_view shapes;  // the `sizes = ` list (views the pool); empty: none
    NameId shapes_id;          // kUnresolved until a range without shapes of its own takes them
  };
  // Normalizes the first range of a name as NormalizeOperatorName did uncached, and keeps
  // the split in `parts`.
  ABSL_ATTRIBUTE_NOINLINE void SplitOperatorName(HostRange* range, OperatorNameParts* parts);

  // The interned text of a call stack ("f < g < h"), 0 when unknown; cached by id.
  NameId StackName(CallStackId id);
  ABSL_ATTRIBUTE_NOINLINE NameId ResolveStackName(CallStackId id);
  // The ids of an API call, read from the caches.
  struct ApiCallIds {
    NameId name = 0;
    NameId call_stack = 0;
    int32_t launch = kNoIndex;
  };
  // OnApiCall's general path: fills the caches, checks and counts unusual values.
  ABSL_ATTRIBUTE_NOINLINE void AddApiCall(const ApiCallEvent& event);
  void FillApiCall(const ApiCallEvent& event, const ApiCallIds& ids, schema::CopyKind copy_kind,
                   bool cupti, ApiCall* call);
  // The cached entry of `id` without filling it (0 is "none"); false when not cached.
  bool CachedName(IdCache<NameId>* cache, uint32_t id, NameId* name);
  bool CachedLaunch(KernelConfigId config, int32_t* launch);
  // A new device record at the end of the model, its times, stream and clock from `event`.
  template <typename Event>
  DeviceActivity& AddDevice(DeviceKind kind, const Event& event);
  template <typename Event>
  void WriteDevice(DeviceKind kind, const Event& event, bool cupti, DeviceActivity* activity);
  // OnKernel's general path, as AddApiCall.
  ABSL_ATTRIBUTE_NOINLINE void AddKernel(const KernelEvent& event);
  void ConvertClocks();
  // Records `index`, a device record of this builder on the CUPTI clock, for ConvertClocks:
  // extends the last run when it follows it (almost always: a file's device records share
  // one clock), so the runs take a few bytes, not a flag in every record.
  void NoteDeviceOnCuptiClock(size_t index) {
    if (!device_on_cupti_clock_.empty() && device_on_cupti_clock_.back().end == index) {
      ++device_on_cupti_clock_.back().end;
    } else {
      device_on_cupti_clock_.push_back({index, index + 1});
    }
  }
  // Counts `value` in Data Quality when the schema does not define it; returns `valid`.
  // Inline: it runs a few times per event, and the count almost never.
  bool Known(bool valid, const char* field) {
    if (__builtin_expect(!valid, 0)) CountUnknown(field);
    return valid;
  }
  void CountUnknown(const char* field);
  // True for the CUPTI clock; an unknown domain is counted and read as the host clock.
  bool Clock(schema::ClockDomain clock) {
    if (clock == schema::CLOCK_DOMAIN_CUPTI) return true;
    if (clock != schema::CLOCK_DOMAIN_HOST_MONOTONIC) CountUnknownClock(clock);
    return false;
  }
  void CountUnknownClock(schema::ClockDomain clock);
  // Clock() for host-side records (API calls, ranges, NCCL calls, memory), counting those on
  // the CUPTI clock: with none, ConvertClocks skips their vectors instead of walking them.
  bool HostClock(schema::ClockDomain clock) {
    const bool cupti = Clock(clock);
    host_records_on_cupti_clock_ += cupti;
    return cupti;
  }
  // The interned MEMCPY_* name of a copy, cached by its three kinds (in range: 0-7 each).
  NameId MemcpyNameId(schema::CopyKind kind, schema::MemoryKind source,
                      schema::MemoryKind destination);

  // An IdCache entry not filled yet.
  static constexpr NameId kUnresolved = ~NameId{0};

  FileDictionary* dictionary_;
  TraceModel model_;
  std::vector<trace::ClockAnchor> anchors_;
  std::vector<trace::CpuUsage> cpu_usage_;  // the file's readings (open, close)
  // File string id -> model NameId, filled on first use (kUnresolved until then). The ids
  // come from the file: IdCache bounds the memory by the ids used, not their values.
  IdCache<NameId> name_of_file_id_;
  struct KernelName {
    NameId name;
    bool nccl;
    int32_t launch;  // index in model_.kernel_launches; kNoIndex: no configuration known
  };
  IdCache<KernelName> kernel_name_of_config_;  // by KernelConfigId; name 0 = unresolved
  // The name and launch of a configuration id, read from the dictionary on first use: the
  // device kernels' (CUPTI) and the launching calls' (host hooks) alike.
  const KernelName& KernelNameOf(KernelConfigId config);
  void WriteKernelName(const KernelName& cached, DeviceActivity* activity);
  // Fills `cached`, the entry of `config`: interns its name, adds its launch.
  ABSL_ATTRIBUTE_NOINLINE void ResolveKernelName(KernelConfigId config, KernelName* cached);
  IdCache<NameId> stack_name_of_id_;           // by CallStackId; kUnresolved until read
  IdCache<OperatorNameParts> operator_name_parts_;  // by the range's NameId
  // Names of copies and memsets: interned once, not hashed per record. 0 = not yet.
  NameId memcpy_names_[8 * 8 * 8] = {};
  NameId memset_name_ = 0;
  uint64_t host_records_on_cupti_clock_ = 0;  // by this builder (earlier ones are converted)
  // The records of `earlier` (continuing constructor), converted already: ConvertClocks
  // starts after them instead of walking every held record again each segment.
  struct RecordCounts {
    size_t ranges = 0, api_calls = 0, nccl_calls = 0, memory = 0;
  };
  RecordCounts converted_;
  // The device records still on the CUPTI clock (NoteDeviceOnCuptiClock): runs of indices
  // in model_.device_activities, [begin, end), ascending.
  struct IndexRun {
    size_t begin, end;
  };
  std::vector<IndexRun> device_on_cupti_clock_;
  std::optional<CuptiToHostClock> fixed_clock_;  // FixClock's
  uint64_t device_records_converted_ = 0;        // as added, on the fixed clock
};

// Inline: it runs per kernel and per launching call (model_builder.cc and
// model_builder_device.cc), and almost always finds its id cached.
inline const ModelBuilder::KernelName& ModelBuilder::KernelNameOf(KernelConfigId config) {
  KernelName& cached = kernel_name_of_config_.Slot(config);
  if (__builtin_expect(cached.name == 0, 0)) ResolveKernelName(config, &cached);
  return cached;
}

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_MODEL_MODEL_BUILDER_H_
