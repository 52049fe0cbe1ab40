// Everything the report shows about one process, collected one recording window at a
// time (each window's model is dropped after, as in the summary command): the report's
// own figures (steps, memory flow, full-name kernel and operator times, data quality)
// and, through ProcessAnalysis, the summaries' GPU utilization and communication figures,
// so the report and the text tables agree.
//
// Not thread-safe; one collector per process, windows in time order.
#ifndef PROF_ANALYZER_REPORT_RANK_COLLECTOR_H_
#define PROF_ANALYZER_REPORT_RANK_COLLECTOR_H_

#include "analyzer/model/trace_model.h"
#include "analyzer/report/memory_flow.h"
#include "analyzer/report/report_figures.h"
#include "analyzer/summary/intervals.h"
#include "analyzer/summary/report.h"

namespace prof::analyzer::report {

class RankCollector {
 public:
  RankCollector();
  void AddWindow(TraceModel window);
  // `report`, when given, receives the process's ProcessReport (its tables, per-step
  // figures and collectives): what the job view reads (analyzer/job/job_partial.h).
  RankFigures Finish(ProcessReport* report = nullptr) &&;

 private:
  RankFigures figures_;
  MemoryFlowBuilder memory_;
  ProcessAnalysis analysis_;
  uint64_t last_time_ns_ = 0;
  size_t windows_ = 0;
  IntervalList busy_carry_;  // device work running past a window's last step (step_figures.h)
};

// Adds a window's data-quality counts to the report's.
void AddQuality(const DataQuality& quality, QualityFigures* figures);

}  // namespace prof::analyzer::report

#endif  // PROF_ANALYZER_REPORT_RANK_COLLECTOR_H_
