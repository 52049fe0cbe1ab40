// Data quality section: every count of DataQuality that is not zero, the kernel launches no
// device kernel record answered, the reader's issue lines and the clock anchors used.
// Returned only when something is not perfect.
#ifndef PROF_ANALYZER_SUMMARY_DATA_QUALITY_SUMMARY_H_
#define PROF_ANALYZER_SUMMARY_DATA_QUALITY_SUMMARY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/model/data_quality.h"
#include "analyzer/summary/summary_table.h"

namespace prof::analyzer {

// Kernel launches (calls with a launch configuration) and those no device kernel record
// answered (KernelFigures: the Kernel Launch Summary's count).
struct LaunchCoverage {
  uint64_t launches = 0;
  uint64_t without_device = 0;
};

// Whether there is nothing to say: no count of `quality` and every launch answered (the
// section is absent exactly then; the report's quality_perfect is this rule).
bool QualityPerfect(const DataQuality& quality, const LaunchCoverage& launches = {});

std::optional<SummaryTable> DataQualitySummary(const DataQuality& quality,
                                               const LaunchCoverage& launches = {});

// Every count the section shows, as (item, count) in its order, without the per-step rows
// (a breakdown of the losses): what the job view groups ranks by and adds up.
using QualityCounts = std::vector<std::pair<std::string, uint64_t>>;
QualityCounts QualityCountsOf(const DataQuality& quality, const LaunchCoverage& launches = {});

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_DATA_QUALITY_SUMMARY_H_
