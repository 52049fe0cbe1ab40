#include "analyzer/pipeline/run_processes.h"

#include <sys/stat.h>

#include <algorithm>
#include <future>
#include <optional>
#include <thread>
#include <utility>

#include "absl/status/statusor.h"
#include "analyzer/pipeline/progress_line.h"
#include "analyzer/read/trace_file_loader.h"

namespace prof::analyzer {
namespace {

size_t ThreadCount(int threads) {
  return threads > 0 ? static_cast<size_t>(threads)
                     : std::max(1u, std::thread::hardware_concurrency());
}

// One window: handed over from an earlier pass when it decoded this path, else read.
class WindowReader {
 public:
  WindowReader(const RunOptions& options, std::atomic<uint64_t>* events)
      : options_(options), events_(events) {}

  absl::StatusOr<TraceModel> Read(const std::string& path) const {
    if (options_.decoded != nullptr) {
      auto it = options_.decoded->find(path);
      if (it != options_.decoded->end()) {
        TraceModel window = std::move(it->second);
        if (events_ != nullptr) *events_ += window.event_count;
        return window;
      }
    }
    return LoadTraceFile(path, events_);
  }

  // True when `path` is read in slices (ReadSlices) rather than whole (Read).
  bool Sliced(const std::string& path) const {
    if (!options_.slices) return false;
    if (options_.decoded != nullptr && options_.decoded->count(path) > 0) return false;
    struct stat info {};
    return stat(path.c_str(), &info) == 0 &&
           static_cast<uint64_t>(info.st_size) > options_.slices->whole_file_bytes;
  }

  absl::Status ReadSlices(const std::string& path,
                          const std::function<void(TraceModel)>& on_slice) const {
    return ReadTraceFileInSlices(path, *options_.slices, events_, on_slice);
  }

 private:
  const RunOptions& options_;
  std::atomic<uint64_t>* events_;
};

bool InWindow(const TraceModel& model, int window) {
  if (window < 0) return true;
  return !model.headers.empty() &&
         model.headers.front().window_index() == static_cast<uint32_t>(window);
}

// Hands the slices of one large file to the consumer (window_slicer.h); the window
// filter looks at the first, as every slice carries the file's header.
void ReadSliced(const std::string& path, const RunOptions& options, const WindowReader& reader,
                ProcessConsumer* consumer, ProcessOutcome* outcome) {
  size_t index = 0;
  bool wanted = true;
  const absl::Status status = reader.ReadSlices(path, [&](TraceModel slice) {
    if (index == 0) {
      wanted = InWindow(slice, options.window);
      outcome->files_read += wanted;
    }
    if (wanted) consumer->AddSlice(std::move(slice), path, index);
    ++index;
  });
  if (!status.ok()) outcome->unreadable.push_back(std::string(status.message()));
}

// With `read_ahead`, the next window is read on another thread while this one is consumed
// (two windows in memory instead of one); a file read in slices is not read ahead.
ProcessOutcome ReadProcess(const ProcessFiles& process, const RunOptions& options, bool read_ahead,
                           const WindowReader& reader, ProcessConsumer* consumer) {
  ProcessOutcome outcome;
  const std::vector<std::string>& paths = process.paths;
  auto read = [&reader](const std::string& path) { return reader.Read(path); };
  std::future<absl::StatusOr<TraceModel>> next;
  auto read_ahead_from = [&](size_t i) {
    if (read_ahead && i < paths.size() && !reader.Sliced(paths[i]))
      next = std::async(std::launch::async, read, paths[i]);
  };
  read_ahead_from(0);
  for (size_t i = 0; i < paths.size(); ++i) {
    if (reader.Sliced(paths[i])) {
      ReadSliced(paths[i], options, reader, consumer, &outcome);
      read_ahead_from(i + 1);
      continue;
    }
    absl::StatusOr<TraceModel> model = next.valid() ? next.get() : read(paths[i]);
    read_ahead_from(i + 1);
    if (!model.ok()) {
      outcome.unreadable.push_back(std::string(model.status().message()));
      continue;
    }
    if (!InWindow(*model, options.window)) continue;
    ++outcome.files_read;
    consumer->AddWindow(*std::move(model));  // the consumer frees the window's events
  }
  consumer->Finish(outcome);
  return outcome;
}

}  // namespace

RunSummary RunProcesses(const Inputs& inputs, const RunOptions& options,
                        const ConsumerFactory& consumer_for) {
  std::vector<ProcessOutcome> outcomes(inputs.processes.size());
  std::atomic<uint64_t> events{0};
  // Fewer processes than threads: each also reads its next window ahead.
  const bool read_ahead = inputs.processes.size() < ThreadCount(options.threads);
  const WindowReader reader(options, &events);
  {
    std::optional<ProgressLine> progress;
    if (options.progress) progress.emplace(inputs.FileCount(), &events);
    ParallelFor(inputs.processes.size(), options.threads, [&](size_t i) {
      std::unique_ptr<ProcessConsumer> consumer = consumer_for(i);
      outcomes[i] = ReadProcess(inputs.processes[i], options, read_ahead, reader, consumer.get());
    });
  }
  RunSummary summary;
  summary.unreadable = inputs.unreadable;
  for (ProcessOutcome& outcome : outcomes) {  // in the order of inputs.processes
    summary.unreadable.insert(summary.unreadable.end(), outcome.unreadable.begin(),
                              outcome.unreadable.end());
    summary.files_read += outcome.files_read;
  }
  return summary;
}

void ParallelFor(size_t count, int threads, const std::function<void(size_t)>& work) {
  const size_t workers = std::min(ThreadCount(threads), count);
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

}  // namespace prof::analyzer
