// The whole text output of the summary command: the cross-rank table, then each
// process's tables (under a banner when there are several processes).
#ifndef PROF_ANALYZER_RENDER_REPORT_TEXT_H_
#define PROF_ANALYZER_RENDER_REPORT_TEXT_H_

#include <optional>
#include <string>
#include <vector>

#include "analyzer/render/text_renderer.h"
#include "analyzer/summary/report.h"

namespace prof::analyzer {

// `only_rank` >= 0 prints that rank's tables only.
std::string RenderReportsText(const std::vector<ProcessReport>& reports,
                              const std::optional<SummaryTable>& ranks, TimeUnit unit,
                              int only_rank = -1);

// Tables one after the other (the job view).
std::string RenderTablesText(const std::vector<SummaryTable>& tables, TimeUnit unit);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_RENDER_REPORT_TEXT_H_
