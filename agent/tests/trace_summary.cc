#include "agent/tests/trace_summary.h"

#include <dirent.h>

#include <algorithm>
#include <unordered_set>

#include "proto/chunk_decoder.h"
#include "proto/file_dictionary.h"
#include "proto/trace_file_reader.h"

namespace prof::testing {
namespace {

class SummarySink : public EventSink {
 public:
  SummarySink(FileDictionary* dictionary, TraceSummary* summary)
      : dictionary_(dictionary), summary_(summary) {}

  void OnApiCall(const ApiCallEvent& e) override {
    if (e.correlation_id != 0) call_ids_.insert(e.correlation_id);
    ++summary_->api_calls[std::string(dictionary_->String(e.name))];
    if (e.kernel_config) {
      const KernelConfigValue* config = dictionary_->KernelConfig(e.kernel_config);
      if (config) ++summary_->launches[std::string(dictionary_->String(config->name))];
      summary_->launch_start_ns.push_back(e.start_ns);
    }
    if (e.copy_kind != schema::COPY_KIND_UNKNOWN)
      summary_->memcpy_bytes_by_kind[e.copy_kind] += e.bytes;
    CountStack(e.call_stack);
  }
  void OnHostRange(const HostRangeEvent& e) override {
    const std::string name(dictionary_->String(e.name));
    if (e.domain != 0) {
      ++summary_->ranges_by_domain[std::string(dictionary_->String(e.domain)) + "/" + name];
    }
    if (e.kind == schema::RANGE_KIND_MARK) {
      ++summary_->marks[name];
    } else {
      ++summary_->ranges[name];
    }
    ++summary_->ranges_by_kind[e.kind];
  }
  void OnStep(const StepEvent& e) override {
    summary_->step_numbers.push_back(e.step_number);
    summary_->step_samples.push_back(e.sample_count);
    summary_->step_spans.emplace_back(e.start_ns, e.start_ns + e.duration_ns);
  }
  void OnNcclCall(const NcclCallEvent& e) override {
    ++summary_->nccl_calls[e.operation];
    if (e.communicator == 0) return;  // group start/end
    NcclCallDetail detail;
    detail.operation = e.operation;
    detail.count = e.count;
    detail.bytes = e.bytes;
    detail.data_type = e.data_type;
    detail.root_or_peer = e.root_or_peer.value_or(-1);
    detail.reduction = e.reduction_op ? static_cast<int64_t>(*e.reduction_op) : -1;
    detail.sequence_number = e.sequence_number;
    if (const CommunicatorValue* comm = dictionary_->Communicator(e.communicator)) {
      detail.comm_hash = comm->comm_hash;
      detail.rank = comm->rank;
      detail.rank_count = comm->rank_count;
    }
    summary_->nccl_details.push_back(detail);
  }
  void OnMemory(const MemoryEvent& e) override {
    ++summary_->memory_events;
    CountStack(e.call_stack);
  }
  void OnKernel(const KernelEvent& e) override {
    const KernelConfigValue* config = dictionary_->KernelConfig(e.config);
    const std::string name = config ? std::string(dictionary_->String(config->name)) : "?";
    ++summary_->kernels[name];
    summary_->kernel_ns[name] += e.duration_ns;
    device_ids_.push_back(e.correlation_id);
  }
  void OnMemcpy(const MemcpyEvent& e) override {
    ++summary_->device_memcpys;
    device_ids_.push_back(e.correlation_id);
  }
  void OnMemset(const MemsetEvent& e) override {
    ++summary_->device_memsets;
    device_ids_.push_back(e.correlation_id);
  }
  void OnLoss(schema::LossKind kind, uint64_t count) override { summary_->losses[kind] += count; }
  void OnStepLoss(schema::LossKind kind, uint64_t count, int64_t step) override {
    summary_->losses_by_step[step][kind] += count;
  }
  void OnThreadName(uint64_t, StringId name) override {
    summary_->thread_names.emplace_back(dictionary_->String(name));
  }
  void OnProcess(StringId name, int64_t) override {
    summary_->process_names.emplace_back(dictionary_->String(name));
  }

  // At the end of a file: its device records without an API call of the same id.
  void CountUnmatched() {
    for (uint64_t id : device_ids_) summary_->unmatched_device_records += call_ids_.count(id) == 0;
  }

 private:
  void CountStack(CallStackId stack) {
    if (stack == 0) return;
    ++summary_->events_with_stack;
    const std::vector<std::string> names = dictionary_->CallStackNames(stack);
    summary_->named_stack_frames += names.size();
    if (summary_->sample_stack.empty()) summary_->sample_stack = names;
  }

  FileDictionary* dictionary_;
  TraceSummary* summary_;
  std::unordered_set<uint64_t> call_ids_;
  std::vector<uint64_t> device_ids_;
};

void SummarizeFile(const std::string& path, TraceSummary* summary) {
  FileSummary file;
  file.path = path;
  auto reader = TraceFileReader::Open(path);
  if (!reader.ok()) {
    file.issues.push_back(std::string(reader.status().message()));
    summary->files.push_back(file);
    return;
  }
  file.pid = (*reader)->header().pid();
  file.window_index = (*reader)->header().window_index();
  file.window_origin = (*reader)->header().window_origin();
  FileDictionary dictionary;
  SummarySink sink(&dictionary, summary);
  trace::Chunk chunk;
  while ((*reader)->Next(&chunk)) {
    dictionary.AddDefinitions(chunk);
    const ChunkDecodeStats stats = DecodeChunk(chunk, &sink);
    file.largest_chunk_events = std::max(file.largest_chunk_events, stats.events);
    summary->malformed_blocks += stats.malformed_blocks + stats.malformed_columns;
    if (summary->first_decode_problem.empty()) summary->first_decode_problem = stats.first_problem;
  }
  sink.CountUnmatched();
  file.chunks = (*reader)->report().chunks_read;
  file.complete = (*reader)->report().complete();
  file.issues = (*reader)->report().Describe();
  summary->unknown_references += dictionary.unknown_references();
  summary->files.push_back(file);
}

}  // namespace

TraceSummary SummarizeFolder(const std::string& folder) {
  TraceSummary summary;
  std::vector<std::string> paths;
  if (DIR* directory = opendir(folder.c_str())) {
    while (dirent* entry = readdir(directory)) {
      const std::string name = entry->d_name;
      if (name.size() > 8 && name.substr(name.size() - 8) == ".prof.pb") {
        paths.push_back(folder + "/" + name);
      }
    }
    closedir(directory);
  }
  std::sort(paths.begin(), paths.end());
  for (const std::string& path : paths) SummarizeFile(path, &summary);
  return summary;
}

}  // namespace prof::testing
