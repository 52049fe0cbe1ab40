// The report's data as one JSON document, embedded in the page and read by report.js.
// Times are nanoseconds from each rank's own origin (its first step or allocation: ranks
// are not aligned in time); names are whole. Schema "profanalyze.report", version 1. A job
// of many ranks (job_layout.h) embeds only its charted ranks under "ranks" and the job
// layout under "job" (job_json.h).
#ifndef PROF_ANALYZER_REPORT_FIGURES_JSON_H_
#define PROF_ANALYZER_REPORT_FIGURES_JSON_H_

#include <string>
#include <vector>

#include "analyzer/report/report_figures.h"

namespace prof::analyzer::report {

inline constexpr size_t kMaxNamedRows = 100;  // kernels and operators per rank, by GPU time

struct JobLayout;

std::string FiguresJson(const std::vector<RankFigures>& ranks,
                        const std::vector<std::string>& unreadable_files);
// `ranks` in the order given; `job` (may be null) written under "job".
std::string FiguresJson(const std::vector<const RankFigures*>& ranks,
                        const std::vector<std::string>& unreadable_files, const JobLayout* job);

}  // namespace prof::analyzer::report

#endif  // PROF_ANALYZER_REPORT_FIGURES_JSON_H_
