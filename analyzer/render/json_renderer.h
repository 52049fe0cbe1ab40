// Renders process reports as versioned JSON (schema in README, "JSON output"): every
// number the text shows, with times in ns and ratios in percent, whatever --time-unit.
#ifndef PROF_ANALYZER_RENDER_JSON_RENDERER_H_
#define PROF_ANALYZER_RENDER_JSON_RENDERER_H_

#include <optional>
#include <string>
#include <vector>

#include "analyzer/render/json_writer.h"
#include "analyzer/summary/report.h"
#include "analyzer/summary/summary_table.h"

namespace prof::analyzer {

inline constexpr int kJsonSchemaVersion = 1;

void WriteTableJson(const SummaryTable& table, JsonWriter* json);
// The table's data rows as an array of objects keyed by the columns' JSON keys.
void WriteRowsArray(const SummaryTable& table, JsonWriter* json);

// The whole document; `ranks` is the cross-rank table when there are several processes;
// `job` the job view's tables (analyzer/job/job_tables.h), written under "job" unless empty.
std::string RenderReportsJson(const std::vector<ProcessReport>& reports,
                              const std::optional<SummaryTable>& ranks,
                              const std::vector<std::string>& unreadable_files,
                              const std::vector<SummaryTable>& job = {});

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_RENDER_JSON_RENDERER_H_
