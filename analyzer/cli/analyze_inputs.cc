#include "analyzer/cli/analyze_inputs.h"

#include <algorithm>
#include <atomic>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <thread>
#include <tuple>

#include "analyzer/cli/load_inputs.h"
#include "analyzer/cli/progress_line.h"
#include "analyzer/read/input_paths.h"
#include "analyzer/read/trace_file_loader.h"

namespace prof::analyzer {
namespace {

struct ProcessResult {
  std::optional<ProcessReport> report;  // absent when no window could be read
  std::vector<std::string> unreadable;
  size_t files_read = 0;
};

// With `prefetch`, the next window is read on another thread while this one is analyzed
// (two windows in memory instead of one).
ProcessResult AnalyzeProcess(const std::vector<std::string>& windows, const SummaryOptions& options,
                             const ViewSet& views, bool prefetch, int window, std::atomic<uint64_t>* events) {
  ProcessResult result;
  ProcessAnalysis analysis(options, views);
  auto load = [events](const std::string& path) { return LoadTraceFile(path, events); };
  std::future<absl::StatusOr<TraceModel>> next;
  if (prefetch && !windows.empty()) next = std::async(std::launch::async, load, windows[0]);
  for (size_t i = 0; i < windows.size(); ++i) {
    absl::StatusOr<TraceModel> model = prefetch ? next.get() : load(windows[i]);
    if (prefetch && i + 1 < windows.size()) next = std::async(std::launch::async, load, windows[i + 1]);
    if (!model.ok()) {
      result.unreadable.push_back(std::string(model.status().message()));
      continue;
    }
    // --window K: the other windows are read (their headers travel with the events) and skipped.
    if (window >= 0 && (model->headers.empty() || model->headers.front().window_index() != static_cast<uint32_t>(window))) {
      continue;
    }
    ++result.files_read;
    analysis.AddWindow(*std::move(model));  // the window's events are freed here
  }
  if (result.files_read > 0) result.report = std::move(analysis).Finish();
  return result;
}

}  // namespace

absl::StatusOr<AnalyzedInputs> AnalyzeInputs(const std::vector<std::string>& paths, const SummaryOptions& options,
                                             const ViewSet& views, int threads, int window) {
  absl::StatusOr<std::vector<std::string>> files = ExpandInputPaths(paths);
  if (!files.ok()) return files.status();
  std::vector<std::string> unreadable;
  const std::vector<ProcessFiles> work = GroupFilesByProcess(*files, &unreadable);
  AnalyzedInputs analyzed = AnalyzeProcesses(work, options, views, threads, window);
  analyzed.unreadable.insert(analyzed.unreadable.begin(), unreadable.begin(), unreadable.end());
  return analyzed;
}

AnalyzedInputs AnalyzeProcesses(const std::vector<ProcessFiles>& work, const SummaryOptions& options,
                                const ViewSet& views, int threads, int window) {
  AnalyzedInputs analyzed;
  std::vector<ProcessResult> results(work.size());
  std::atomic<uint64_t> events{0};
  size_t file_count = 0;
  for (const ProcessFiles& process : work) file_count += process.paths.size();
  // Fewer processes than threads: each also reads its next window ahead.
  const size_t thread_count = threads > 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
  const bool prefetch = work.size() < thread_count;
  {
    ProgressLine progress(file_count, &events);
    ParallelFor(work.size(), threads,
                [&](size_t i) { results[i] = AnalyzeProcess(work[i].paths, options, views, prefetch, window, &events); });
  }
  for (ProcessResult& result : results) {  // in the order of `work`
    analyzed.unreadable.insert(analyzed.unreadable.end(), result.unreadable.begin(), result.unreadable.end());
    analyzed.files_read += result.files_read;
    if (result.report) analyzed.reports.push_back(std::move(*result.report));
  }
  return analyzed;
}

std::vector<std::string> ExpandEachPath(const std::vector<std::string>& paths, std::vector<std::string>* unreadable) {
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    absl::StatusOr<std::vector<std::string>> expanded = ExpandInputPaths({path});
    if (!expanded.ok()) {
      unreadable->push_back(std::string(expanded.status().message()));
      continue;
    }
    files.insert(files.end(), expanded->begin(), expanded->end());
  }
  return files;
}

}  // namespace prof::analyzer
