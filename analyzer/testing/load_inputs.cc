#include "analyzer/testing/load_inputs.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <optional>
#include <tuple>

#include "analyzer/model/model_merge.h"
#include "analyzer/pipeline/progress_line.h"
#include "analyzer/pipeline/run_processes.h"
#include "analyzer/read/input_paths.h"
#include "analyzer/read/trace_file_loader.h"

namespace prof::analyzer {

absl::StatusOr<LoadedInputs> LoadInputs(const std::vector<std::string>& paths, int threads) {
  absl::StatusOr<std::vector<std::string>> files = ExpandInputPaths(paths);
  if (!files.ok()) return files.status();
  std::vector<std::optional<absl::StatusOr<TraceModel>>> results(files->size());
  std::atomic<uint64_t> events{0};
  {
    ProgressLine progress(files->size(), &events);
    ParallelFor(files->size(), threads,
                [&](size_t i) { results[i] = LoadTraceFile((*files)[i], &events); });
  }
  LoadedInputs loaded;
  std::map<std::tuple<int32_t, std::string, int64_t>, size_t> process_index;
  for (auto& result : results) {
    if (!result->ok()) {
      loaded.unreadable.push_back(std::string(result->status().message()));
      continue;
    }
    ++loaded.files_read;
    TraceModel& model = **result;
    const auto key = std::make_tuple(model.identity.rank, model.identity.host, model.identity.pid);
    auto [it, inserted] = process_index.try_emplace(key, loaded.processes.size());
    if (inserted) {
      loaded.processes.push_back(std::move(model));
    } else {
      AppendModel(std::move(model), &loaded.processes[it->second]);
    }
  }
  std::stable_sort(loaded.processes.begin(), loaded.processes.end(),
                   [](const TraceModel& a, const TraceModel& b) {
                     return std::tie(a.identity.rank, a.identity.host, a.identity.pid) <
                            std::tie(b.identity.rank, b.identity.host, b.identity.pid);
                   });
  return loaded;
}

}  // namespace prof::analyzer
