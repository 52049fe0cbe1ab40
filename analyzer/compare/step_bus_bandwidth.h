// NCCL bus bandwidth per step, overall and per collective, with the NCCL Summary's
// definitions: time = GPU time of the NCCL kernels launched inside the call (same
// thread), else the call's host duration; busbw = bytes x nccl-tests factor / time.
// Pure function of the analysis context.
#ifndef PROF_ANALYZER_COMPARE_STEP_BUS_BANDWIDTH_H_
#define PROF_ANALYZER_COMPARE_STEP_BUS_BANDWIDTH_H_

#include <map>
#include <string>
#include <vector>

#include "analyzer/summary/analysis_context.h"

namespace prof::analyzer::compare {

// Key "" = all collectives of the step; "ALL_REDUCE", "ALL_GATHER", ... per collective.
// Each vector is parallel to context.steps, GB/s, MissingValue() for steps without that
// collective. Empty map when the process made no NCCL calls.
std::map<std::string, std::vector<double>> StepBusBandwidth(const AnalysisContext& context);

}  // namespace prof::analyzer::compare

#endif  // PROF_ANALYZER_COMPARE_STEP_BUS_BANDWIDTH_H_
