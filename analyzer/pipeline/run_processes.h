// The second step of every command: each process's window files read once, in window
// order, and handed to that process's consumer (the summary's ProcessAnalysis, the
// report's RankCollector, compare's step metrics, info's counts, an exporter). Processes
// run on a small thread pool; one process's windows always go to one consumer on one
// thread, one window in memory at a time (two with read-ahead, below). A file that cannot
// be read is one line in the outcome, never an exception or a silent skip.
//
//   RunProcesses(inputs, options, [&](size_t i) { return std::make_unique<MyConsumer>(&results[i]);
//   });
#ifndef PROF_ANALYZER_PIPELINE_RUN_PROCESSES_H_
#define PROF_ANALYZER_PIPELINE_RUN_PROCESSES_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/model/trace_model.h"
#include "analyzer/pipeline/inputs.h"
#include "analyzer/read/trace_file_loader.h"

namespace prof::analyzer {

// How one process's reading went.
struct ProcessOutcome {
  size_t files_read = 0;                // windows handed to the consumer
  std::vector<std::string> unreadable;  // one message per file that could not be read
};

// What a front-end does with one process. Created on the worker thread that reads the
// process, destroyed there after Finish, so its working state lives only that long.
class ProcessConsumer {
 public:
  virtual ~ProcessConsumer() = default;
  // The process's readable windows, in window order; the consumer may keep or free them.
  virtual void AddWindow(TraceModel window) = 0;
  // A file read in slices (RunOptions::slices): its slices in time order, `index` 0 first.
  // By default each is a window, as consumers that merge windows want; a consumer whose
  // output depends on where a window starts (its header, its rows' names) overrides this.
  virtual void AddSlice(TraceModel slice, const std::string& path, size_t index) {
    AddWindow(std::move(slice));
  }
  // After the last window (files_read == 0: nothing of the process could be read).
  virtual void Finish(const ProcessOutcome& outcome) {}
};

// Makes the consumer of inputs.processes[process_index].
using ConsumerFactory = std::function<std::unique_ptr<ProcessConsumer>(size_t process_index)>;

struct RunOptions {
  int threads = 1;  // processes read at once; 0: one per hardware thread
  // >= 0: only the files of that recording window (FileHeader.window_index) reach the
  // consumer; the others are still read, so a damaged one is still reported.
  int window = -1;
  bool progress = false;  // "reading N file(s): M events" on stderr when it is a terminal
  // Windows an earlier pass decoded already, by path: handed over (moved out) instead of
  // being read again. Read by several workers at once only at distinct paths.
  std::map<std::string, TraceModel>* decoded = nullptr;
  // Set: a file larger than slices->whole_file_bytes reaches the consumer as several
  // step-aligned windows (ReadTraceFileInSlices), for consumers that merge windows into
  // the figures one whole window gives (the summary's). Unset: every file is one window.
  std::optional<SliceOptions> slices;
};

struct RunSummary {
  size_t files_read = 0;
  // The inputs' unreadable lines, then each process's, in the order of inputs.processes.
  std::vector<std::string> unreadable;
};

RunSummary RunProcesses(const Inputs& inputs, const RunOptions& options,
                        const ConsumerFactory& consumer_for);

// Runs `work(i)` for i in [0, count) on up to `threads` threads (0: hardware threads).
void ParallelFor(size_t count, int threads, const std::function<void(size_t)>& work);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_PIPELINE_RUN_PROCESSES_H_
