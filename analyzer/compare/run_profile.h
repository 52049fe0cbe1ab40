// The aggregate compare works on: for one run (every process of a BASE or NEW argument),
// one value per step for every metric. Processes (ranks) are aligned by step number and
// averaged, so a 2-rank run gives one distribution per metric, not two. Built with the
// analyzer's own tree and analysis context, one window file (or slice of a large one) at a time:
// a window's events are dropped once its steps' values are taken.
#ifndef PROF_ANALYZER_COMPARE_RUN_PROFILE_H_
#define PROF_ANALYZER_COMPARE_RUN_PROFILE_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "analyzer/compare/kernel_name_normalizer.h"
#include "analyzer/compare/metric.h"
#include "analyzer/model/trace_model.h"
#include "analyzer/pipeline/inputs.h"
#include "analyzer/read/trace_file_loader.h"

namespace prof::analyzer::compare {

struct ProfileOptions {
  NameOptions names;
  int skip_first = 0;  // warm-up steps left out (after aligning the ranks)
  int threads = 0;     // processes analysed in parallel (0: one per core)
  // A file past slices.whole_file_bytes is read in step-aligned slices, each appended as a
  // window (the carry takes work across), so memory stays flat in the file's size.
  SliceOptions slices;
};

struct RunProfile {
  int process_count = 0;
  uint64_t event_count = 0;
  std::vector<int64_t> step_numbers;                // the steps kept, in order
  std::map<MetricKey, std::vector<double>> values;  // each parallel to step_numbers
  std::vector<std::string> notes;                   // data-quality and alignment remarks
};

// From models already loaded (one per process, its windows merged).
RunProfile BuildRunProfile(std::vector<TraceModel> processes, const ProfileOptions& options);

// From the opened inputs, each process's window files read one at a time (pipeline/). The
// inputs' unreadable lines and each file that cannot be read are appended to
// `unreadable`; a process none of whose files can be read is left out.
RunProfile BuildRunProfileFromInputs(const Inputs& inputs, const ProfileOptions& options,
                                     std::vector<std::string>* unreadable);

}  // namespace prof::analyzer::compare

#endif  // PROF_ANALYZER_COMPARE_RUN_PROFILE_H_
