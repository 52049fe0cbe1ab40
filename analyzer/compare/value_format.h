// How compare's renderers write numbers: times with an automatic unit, percentages,
// GB/s, counts, relative changes ("+10.2%", "new", "gone") and intervals. Shared by the
// text, markdown and JUnit renderers so they read the same.
#ifndef PROF_ANALYZER_COMPARE_VALUE_FORMAT_H_
#define PROF_ANALYZER_COMPARE_VALUE_FORMAT_H_

#include <string>

#include "analyzer/compare/metric.h"
#include "analyzer/compare/profile_diff.h"
#include "analyzer/compare/rule_evaluation.h"

namespace prof::analyzer::compare {

// "812 ns", "12.4 us", "2.512 ms", "56.2%", "12.34 GB/s", "19", "2.5".
std::string FormatValue(MetricUnit unit, double value);

// The change of a metric as the tables show it: relative ("+10.2%", "new", "gone"), or in
// points for gpu_util ("-2.1pt").
std::string FormatChange(const MetricDiff& diff);
// The shift interval in the same terms: "[-8.1%, +9.0%]".
std::string FormatInterval(const MetricDiff& diff);
// Step-to-step noise of each side relative to its median: "±12% / ±11%".
std::string FormatNoise(const MetricDiff& diff);

// A rule item's change in the rule's own unit ("+10.2%", "+1.5pt", "+1.2 us", "+1").
std::string FormatRuleChange(const Rule& rule, const ItemResult& item);

// The shift interval in the rule's own unit: "[+1, +1]", "[+10.0%, +10.0%]".
std::string FormatRuleInterval(const Rule& rule, const ItemResult& item);

// One line saying why an item passed or failed, with confidence and steps, e.g.
// "+10.0% (99% CI [+10.0%, +10.0%], 10 vs 10 steps, noise ±0.0% / ±0.0%): regression".
std::string DescribeItem(const Rule& rule, const ItemResult& item);

}  // namespace prof::analyzer::compare

#endif  // PROF_ANALYZER_COMPARE_VALUE_FORMAT_H_
