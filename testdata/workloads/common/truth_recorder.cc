#include "testdata/workloads/common/truth_recorder.h"

#include <cxxabi.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace workloads {
namespace {

uint64_t HostNowNs() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + now.tv_nsec;
}

void WriteDurationFields(const DurationStat& stat, JsonWriter* json) {
  json->Field("count", stat.count);
  json->Field("total_ns", stat.total_ns);
  json->Field("min_ns", stat.min_ns);
  json->Field("max_ns", stat.max_ns);
}

void WriteCounts(const std::string& key, const std::map<std::string, uint64_t>& counts,
                 JsonWriter* json) {
  uint64_t total = 0;
  for (const auto& entry : counts) total += entry.second;
  json->Key(key);
  json->BeginObject();
  json->Field("count", total);
  json->Key("by_name");
  json->BeginObject();
  for (const auto& entry : counts) json->Field(entry.first, entry.second);
  json->EndObject();
  json->EndObject();
}

void WriteKernels(const std::map<std::string, KernelStat>& kernels, JsonWriter* json) {
  DurationStat all;
  for (const auto& entry : kernels) {
    all.count += entry.second.count;
    all.total_ns += entry.second.total_ns;
  }
  json->Key("kernels");
  json->BeginObject();
  json->Field("count", all.count);
  json->Field("total_ns", all.total_ns);
  json->Key("by_name");
  json->BeginObject();
  for (const auto& entry : kernels) {
    json->Key(entry.first);
    json->BeginObject();
    json->Field("demangled", Demangle(entry.first));
    json->Field("library", entry.second.library);
    WriteDurationFields(entry.second, json);
    json->EndObject();
  }
  json->EndObject();
  json->EndObject();
}

void WriteMemcpy(const std::map<std::string, TransferStat>& by_kind, JsonWriter* json) {
  TransferStat all;
  for (const auto& entry : by_kind) {
    all.count += entry.second.count;
    all.bytes += entry.second.bytes;
    all.total_ns += entry.second.total_ns;
  }
  json->Key("memcpy");
  json->BeginObject();
  json->Field("count", all.count);
  json->Field("bytes", all.bytes);
  json->Field("total_ns", all.total_ns);
  json->Key("by_kind");
  json->BeginObject();
  for (const auto& entry : by_kind) {
    json->Key(entry.first);
    json->BeginObject();
    json->Field("bytes", entry.second.bytes);
    WriteDurationFields(entry.second, json);
    json->EndObject();
  }
  json->EndObject();
  json->EndObject();
}

void WriteCollectives(const std::map<std::string, CollectiveStat>& by_op, JsonWriter* json) {
  CollectiveStat all;
  for (const auto& entry : by_op) all.count += entry.second.count, all.bytes += entry.second.bytes;
  json->Key("collectives");
  json->BeginObject();
  json->Field("count", all.count);
  json->Field("bytes", all.bytes);
  json->Key("by_op");
  json->BeginObject();
  for (const auto& entry : by_op) {
    json->Key(entry.first);
    json->BeginObject();
    json->Field("count", entry.second.count);
    json->Field("bytes", entry.second.bytes);
    json->Field("elements", entry.second.elements);
    json->Field("kernel_ns", entry.second.kernel_ns);
    json->Field("ranks", entry.second.ranks);
    json->EndObject();
  }
  json->EndObject();
  json->EndObject();
}

}  // namespace

void DurationStat::Add(uint64_t duration_ns, uint64_t times) {
  if (times == 0) return;
  min_ns = count == 0 ? duration_ns : std::min(min_ns, duration_ns);
  max_ns = std::max(max_ns, duration_ns);
  count += times;
  total_ns += duration_ns * times;
}

void TruthSection::WriteJson(JsonWriter* json) const {
  WriteKernels(kernels, json);
  WriteMemcpy(memcpy_by_kind, json);
  json->Key("memset");
  json->BeginObject();
  json->Field("bytes", memset.bytes);
  WriteDurationFields(memset, json);
  json->EndObject();
  WriteCollectives(collectives, json);
  WriteCounts("nvtx_ranges", nvtx_ranges, json);
  WriteCounts("user_ranges", user_ranges, json);
  WriteCounts("marks", marks, json);
}

TruthRecorder::TruthRecorder(std::string program, int rank, int world_size)
    : program_(std::move(program)), rank_(rank), world_size_(world_size), start_ns_(HostNowNs()) {}

TruthSection& TruthRecorder::Current() { return in_step_ ? steps_.back().section : outside_steps_; }

void TruthRecorder::ForBoth(const std::function<void(TruthSection&)>& update) {
  std::lock_guard<std::mutex> lock(mutex_);
  update(totals_);
  update(Current());
}

void TruthRecorder::BeginStep() {
  std::lock_guard<std::mutex> lock(mutex_);
  StepTruth step;
  step.index = static_cast<int64_t>(steps_.size());
  step.start_ns = HostNowNs();
  steps_.push_back(step);
  in_step_ = true;
}

void TruthRecorder::EndStep(int64_t num_samples) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!in_step_) return;
  steps_.back().num_samples = num_samples;
  steps_.back().end_ns = HostNowNs();
  in_step_ = false;
}

void TruthRecorder::RecordKernel(const std::string& name, uint64_t duration_ns,
                                 const std::string& library, uint64_t times) {
  ForBoth([&](TruthSection& section) {
    KernelStat& stat = section.kernels[name];
    stat.library = library;
    stat.Add(duration_ns, times);
  });
}

void TruthRecorder::RecordCopy(const std::string& kind, uint64_t bytes, uint64_t duration_ns) {
  ForBoth([&](TruthSection& section) {
    TransferStat& stat = section.memcpy_by_kind[kind];
    stat.bytes += bytes;
    stat.Add(duration_ns, 1);
  });
}

void TruthRecorder::RecordMemset(uint64_t bytes, uint64_t duration_ns) {
  ForBoth([&](TruthSection& section) {
    section.memset.bytes += bytes;
    section.memset.Add(duration_ns, 1);
  });
}

void TruthRecorder::RecordCollective(const std::string& op, uint64_t elements, uint64_t bytes,
                                     uint64_t kernel_ns, int ranks) {
  ForBoth([&](TruthSection& section) {
    CollectiveStat& stat = section.collectives[op];
    stat.count += 1;
    stat.elements += elements;
    stat.bytes += bytes;
    stat.kernel_ns += kernel_ns;
    stat.ranks = ranks;
  });
}

void TruthRecorder::RecordNvtxRange(const std::string& name) {
  ForBoth([&](TruthSection& section) { section.nvtx_ranges[name] += 1; });
}

void TruthRecorder::RecordUserRange(const std::string& name) {
  ForBoth([&](TruthSection& section) { section.user_ranges[name] += 1; });
}

void TruthRecorder::RecordMark(const std::string& name) {
  ForBoth([&](TruthSection& section) { section.marks[name] += 1; });
}

void TruthRecorder::SetArg(const std::string& key, const std::string& value) {
  std::lock_guard<std::mutex> lock(mutex_);
  args_[key] = value;
}

void TruthRecorder::SetExtraJson(const std::string& key, const std::string& raw_json) {
  std::lock_guard<std::mutex> lock(mutex_);
  extra_json_[key] = raw_json;
}

std::string TruthRecorder::ToJson() const {
  std::lock_guard<std::mutex> lock(mutex_);
  JsonWriter json;
  json.BeginObject();
  json.Field("schema", "prof-sim-truth/1");
  json.Field("program", program_);
  json.Field("pid", static_cast<int64_t>(getpid()));
  json.Field("rank", rank_);
  json.Field("world_size", world_size_);
  json.Field("start_ns", start_ns_);
  json.Field("end_ns", HostNowNs());
  json.Key("args");
  json.BeginObject();
  for (const auto& arg : args_) json.Field(arg.first, arg.second);
  json.EndObject();
  json.Field("step_count", static_cast<int64_t>(steps_.size()));
  json.Key("totals");
  json.BeginObject();
  totals_.WriteJson(&json);
  json.EndObject();
  json.Key("outside_steps");
  json.BeginObject();
  outside_steps_.WriteJson(&json);
  json.EndObject();
  json.Key("steps");
  json.BeginArray();
  for (const StepTruth& step : steps_) {
    json.BeginObject();
    json.Field("index", step.index);
    json.Field("num_samples", step.num_samples);
    json.Field("start_ns", step.start_ns);
    json.Field("end_ns", step.end_ns);
    step.section.WriteJson(&json);
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
  std::string text = json.text();
  // Program-specific objects are spliced in before the closing brace.
  for (const auto& extra : extra_json_) {
    text.insert(text.size() - 2, ",\n  \"" + extra.first + "\": " + extra.second);
  }
  return text + "\n";
}

bool TruthRecorder::WriteFile(const std::string& path) const {
  if (path.empty()) return true;
  // Write then rename, so a reader never sees half a file.
  const std::string temporary = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << ToJson();
    if (!out.good()) {
      std::fprintf(stderr, "cannot write truth file %s\n", temporary.c_str());
      return false;
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::fprintf(stderr, "cannot rename %s to %s: %s\n", temporary.c_str(), path.c_str(),
                 std::strerror(errno));
    return false;
  }
  return true;
}

std::string TruthPathFromArgsOrEnv(int argc, char** argv) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--truth") == 0) return argv[i + 1];
  }
  const char* env = std::getenv("SIM_TRUTH");
  return env != nullptr ? env : "";
}

std::string PerRankPath(const std::string& path, int rank) {
  if (path.empty()) return path;
  const std::string placeholder = "{rank}";
  const size_t at = path.find(placeholder);
  if (at != std::string::npos) {
    return path.substr(0, at) + std::to_string(rank) + path.substr(at + placeholder.size());
  }
  const std::string suffix = ".json";
  const std::string tag = ".rank" + std::to_string(rank);
  if (path.size() > suffix.size() &&
      path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0) {
    return path.substr(0, path.size() - suffix.size()) + tag + suffix;
  }
  return path + tag;
}

std::string Demangle(const std::string& name) {
  int status = 0;
  char* demangled = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  if (status != 0 || demangled == nullptr) return name;
  std::string result(demangled);
  std::free(demangled);
  return result;
}

}  // namespace workloads
