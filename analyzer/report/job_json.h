// The job layout (job_layout.h) as the JSON object the page reads under "job": the charted
// ranks with why each is charted (parallel to the document's "ranks"), the worst straggler
// and last arrival, the ranks grouped by data-quality state, the job view's tables with
// their cells as the text view prints them (times in ms), and the aggregated heat map.
#ifndef PROF_ANALYZER_REPORT_JOB_JSON_H_
#define PROF_ANALYZER_REPORT_JOB_JSON_H_

#include "analyzer/render/json_writer.h"
#include "analyzer/report/job_layout.h"

namespace prof::analyzer::report {

// Rank labels named per data-quality group in the banner; the rest are counted.
inline constexpr size_t kNamedQualityMembers = 10;

void WriteJobLayout(const JobLayout& layout, JsonWriter* json);

}  // namespace prof::analyzer::report

#endif  // PROF_ANALYZER_REPORT_JOB_JSON_H_
