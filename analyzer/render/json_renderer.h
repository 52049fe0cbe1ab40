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

// The whole document; `ranks` is the cross-rank table when there are several processes.
std::string RenderReportsJson(const std::vector<ProcessReport>& reports,
                              const std::optional<SummaryTable>& ranks,
                              const std::vector<std::string>& unreadable_files);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_RENDER_JSON_RENDERER_H_
