#include "analyzer/cli/load_inputs.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <tuple>

#include "analyzer/model/model_merge.h"
#include "analyzer/read/input_paths.h"
#include "analyzer/read/trace_file_loader.h"

namespace prof::analyzer {
namespace {

// Prints "reading N files: M events" on stderr every 200 ms while alive, if a terminal.
class ProgressLine {
 public:
  ProgressLine(size_t files, const std::atomic<uint64_t>* events) : files_(files), events_(events) {
    if (!isatty(STDERR_FILENO)) return;
    thread_ = std::thread([this] { Run(); });
  }
  ~ProgressLine() {
    if (!thread_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    wake_.notify_all();
    thread_.join();
    std::fprintf(stderr, "\r\033[K");
  }

 private:
  void Run() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!wake_.wait_for(lock, std::chrono::milliseconds(200), [this] { return done_; })) {
      std::fprintf(stderr, "\rprofanalyze: reading %zu file(s): %.1fM events", files_,
                   events_->load(std::memory_order_relaxed) / 1e6);
    }
  }

  size_t files_;
  const std::atomic<uint64_t>* events_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
};

}  // namespace

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
