// The report's per-step memory from the samples the Python helper's allocator sampling
// (prof_memory_sample) and the agent's host RSS reading at step boundaries write: what a
// caching allocator really holds, which cudaMalloc/cudaFree records cannot show.
//
// A sample is assigned as memory_sample_summary.h assigns it, so the chart and the Memory
// Summary agree: a device sample to the step holding its time, a host sample (stamped with
// the boundary that ended its step, exclusive) to the step holding the time 1 ns earlier;
// a step keeps its last sample per place. Samples between steps are not shown.
#ifndef PROF_ANALYZER_REPORT_SAMPLED_MEMORY_H_
#define PROF_ANALYZER_REPORT_SAMPLED_MEMORY_H_

#include <map>
#include <string>
#include <vector>

#include "analyzer/model/trace_model.h"
#include "analyzer/report/report_figures.h"

namespace prof::analyzer::report {

// Adds the window's samples to `places`. `steps` holds every step so far, in time order;
// the window's own are steps[first_step...]. Each place's vector is kept as long as `steps`
// (earlier steps, where the place was not sampled, are marked not recorded).
void AddSampledMemory(const TraceModel& window, const std::vector<StepFigures>& steps,
                      size_t first_step, std::map<std::string, std::vector<SampledStep>>* places);

}  // namespace prof::analyzer::report

#endif  // PROF_ANALYZER_REPORT_SAMPLED_MEMORY_H_
