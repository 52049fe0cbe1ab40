// Aligns two run profiles metric by metric (a step figure, a kernel by normalized name, a
// CUDA API, an operator, a collective) and estimates each metric's shift with its noise
// and confidence. Metrics only one run has are compared against zero time / zero calls
// (a new kernel is a regression of its whole cost). Sorted by impact: whole-step figures
// first, then per-name times by the absolute change of their median per step, then the
// rest by relative change.
#ifndef PROF_ANALYZER_COMPARE_PROFILE_DIFF_H_
#define PROF_ANALYZER_COMPARE_PROFILE_DIFF_H_

#include <vector>

#include "analyzer/compare/metric.h"
#include "analyzer/compare/run_profile.h"
#include "analyzer/compare/shift_statistics.h"

namespace prof::analyzer::compare {

enum class Presence { kBoth, kOnlyBase, kOnlyCandidate };

struct MetricDiff {
  MetricKey key;
  Presence presence = Presence::kBoth;
  ShiftEstimate shift;
  // delta / base median; +-infinity when the base median is 0 and the candidate's is not.
  double relative = 0;
};

// `confidence` of the shift intervals, e.g. 0.99.
std::vector<MetricDiff> DiffProfiles(const RunProfile& base, const RunProfile& candidate,
                                     double confidence);

// The relative change (fraction) of a shift; 0 when nothing changed.
double RelativeChange(const ShiftEstimate& shift);

}  // namespace prof::analyzer::compare

#endif  // PROF_ANALYZER_COMPARE_PROFILE_DIFF_H_
