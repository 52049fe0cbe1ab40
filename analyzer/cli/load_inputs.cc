#include "analyzer/cli/load_inputs.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <optional>
#include <thread>
#include <tuple>

#include "analyzer/cli/progress_line.h"
#include "analyzer/model/model_merge.h"
#include "analyzer/read/input_paths.h"
#include "analyzer/read/trace_file_loader.h"

namespace prof::analyzer {

void ParallelFor(size_t count, int threads, const std::function<void(size_t)>& work) {
  size_t workers = threads > 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
  workers = std::min(workers, count);
  if (workers <= 1) {
    for (size_t i = 0; i < count; ++i) work(i);
    return;
  }
  std::atomic<size_t> next{0};
  std::vector<std::thread> pool;
  for (size_t w = 0; w < workers; ++w) {
    pool.emplace_back([&] {
      for (size_t i = next++; i < count; i = next++) work(i);
    });
  }
  for (std::thread& thread : pool) thread.join();
}

absl::StatusOr<LoadedInputs> LoadInputs(const std::vector<std::string>& paths, int threads) {
  absl::StatusOr<std::vector<std::string>> files = ExpandInputPaths(paths);
  if (!files.ok()) return files.status();
  std::vector<std::optional<absl::StatusOr<TraceModel>>> results(files->size());
  std::atomic<uint64_t> events{0};
  {
    ProgressLine progress(files->size(), &events);
    ParallelFor(files->size(), threads, [&](size_t i) { results[i] = LoadTraceFile((*files)[i], &events); });
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
  std::stable_sort(loaded.processes.begin(), loaded.processes.end(), [](const TraceModel& a, const TraceModel& b) {
    return std::tie(a.identity.rank, a.identity.host, a.identity.pid) <
           std::tie(b.identity.rank, b.identity.host, b.identity.pid);
  });
  return loaded;
}

}  // namespace prof::analyzer
