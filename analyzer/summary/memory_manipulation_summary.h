// Memory Manipulation Summary: every recorded copy and memset call (cudaMemcpy*,
// cudaMemset*, cuMemcpy*, cuMemset*) as a row named by call and direction
// ("cudaMemcpyAsync HtoD"), with the host time of the calls, the device time of the copies
// they issued (CUPTI records joined by correlation id), the bytes moved and the achieved
// bandwidth (bytes over device time). Ranges named like memcpy/memset (user or NVTX, paddle's
// rows) follow as rows of their own, without bytes. Before this table read the calls, only
// those ranges fed it, so a program's real copies never showed.
#ifndef PROF_ANALYZER_SUMMARY_MEMORY_MANIPULATION_SUMMARY_H_
#define PROF_ANALYZER_SUMMARY_MEMORY_MANIPULATION_SUMMARY_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "analyzer/summary/analysis_context.h"
#include "analyzer/summary/summary_table.h"
#include "analyzer/summary/user_range_summaries.h"

namespace prof::analyzer {

// One row: the calls of one API function in one direction.
struct CopyCallFigures {
  DurationStats host;    // the calls' own time on the calling thread
  DurationStats device;  // the copies' / memsets' time on the device (calls that have one)
  uint64_t bytes = 0;    // every call's bytes
  uint64_t bytes_with_device_time = 0;  // bytes of the calls `device` counts (for GB/s)
};

struct CopyFigures {
  // "cudaMemcpyAsync HtoD" -> figures; ordered by name, displayed by the sort key.
  std::map<std::string, CopyCallFigures> rows;
};

// True for the API functions that copy or set memory (cudaMemcpy*, cudaMemset*, cuMemcpy*,
// cuMemset*), by name.
bool IsCopyOrSetCall(absl::string_view name);

// Adds one window's copy and memset calls, as the one walk over the window's calls
// (AddCallFigures, cuda_api_summary.h) meets them: the calls are read once for both the
// API table and this one.
class CopyCallAdder {
 public:
  CopyCallAdder(const AnalysisContext& window, CopyFigures* figures);
  ~CopyCallAdder();
  // Whether the calls named `name` copy or set memory (IsCopyOrSetCall), remembered.
  bool IsCopyCall(NameId name);
  // Adds call `index` of the window, a copy or set call.
  void Add(int32_t index, const ApiCall& call);

 private:
  class Adder;
  std::unique_ptr<Adder> adder_;
};

// The table: copy rows, then the range rows of `ranges`; nullopt when both are empty.
std::optional<SummaryTable> MemoryManipulationSummary(const CopyFigures& copies,
                                                      const UserRangeFigures& ranges,
                                                      const RenderContext& context);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_MEMORY_MANIPULATION_SUMMARY_H_
