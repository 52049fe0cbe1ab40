// Memory Manipulation Summary and UserDefined Summary: user (RANGE_KIND_USER) and NVTX
// ranges grouped by name, CPU time over T and all device time launched inside over the
// steps' device time GG. Ranges whose name mentions memcpy / memorycopy / memset go to
// Memory Manipulation (first-seen order; its table is memory_manipulation_summary.h,
// beside the copy calls); the other user ranges to UserDefined (sorted, grouped by thread
// with thread_sep). NVTX ranges appear only in Memory Manipulation.
#ifndef PROF_ANALYZER_SUMMARY_USER_RANGE_SUMMARIES_H_
#define PROF_ANALYZER_SUMMARY_USER_RANGE_SUMMARIES_H_

#include <cstdint>
#include <map>
#include <optional>

#include "absl/strings/string_view.h"
#include "analyzer/summary/analysis_context.h"
#include "analyzer/summary/named_items.h"
#include "analyzer/summary/summary_table.h"

namespace prof::analyzer {

bool IsMemoryManipulationName(absl::string_view name);

struct UserRangeFigures {
  NamedItems<NamedItem> memory_manipulation;
  std::map<uint64_t, NamedItems<NamedItem>> user_defined;  // by thread with thread_sep, else 0
};

// Adds one window's user and NVTX ranges.
void AddUserRangeFigures(const AnalysisContext& window, UserRangeFigures* figures);
std::optional<SummaryTable> UserDefinedSummary(const UserRangeFigures& figures,
                                               const RenderContext& context);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_USER_RANGE_SUMMARIES_H_
