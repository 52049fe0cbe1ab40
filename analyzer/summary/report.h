// Builds every table of one process (an analysis unit) in print order, and the figures
// the cross-rank table needs. The only place that knows which summaries exist.
//
// A process is analyzed one recording window (trace file) at a time: each window's model
// and range tree live only while its figures are added, so memory holds one window's
// events plus figures that grow with names, steps and live allocations.
//
//   ProcessAnalysis analysis(options, AllViews());
//   for (each window file of the process, in window order) analysis.AddWindow(LoadTraceFile(...));
//   ProcessReport report = std::move(analysis).Finish();
#ifndef PROF_ANALYZER_SUMMARY_REPORT_H_
#define PROF_ANALYZER_SUMMARY_REPORT_H_

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <memory>

#include "absl/status/statusor.h"
#include "analyzer/model/trace_model.h"
#include "analyzer/summary/analysis_context.h"
#include "analyzer/summary/collective_table.h"
#include "analyzer/summary/data_quality_summary.h"
#include "analyzer/summary/summary_table.h"

namespace prof::analyzer {

enum class View {
  kDevice,
  kOverview,
  kModel,
  kDistributed,
  kOperator,
  kKernel,
  kMemoryManipulation,
  kUserDefined,
  kPerf,
  kCudaApi,
  kNccl,
  kMemory,
  kDataQuality,
  kJob,  // the cross-rank job view (analyzer/job/); no per-process table
};
using ViewSet = std::set<View>;
ViewSet AllViews();
// Accepts our names (device, overview, ..., data_quality) and paddle's (DeviceView, ...).
absl::StatusOr<ViewSet> ParseViews(const std::string& list);
// `views` as ParseViews reads them: our names, comma-separated, in the order of View.
std::string ViewListOf(const ViewSet& views);

struct ProcessReport {
  ProcessIdentity identity;
  std::vector<std::string> files;
  uint64_t event_count = 0;
  std::vector<SummaryTable> tables;
  // For the cross-rank table.
  uint64_t step_count = 0;
  uint64_t total_ns = 0;  // T
  uint64_t communication_ns = 0;
  uint64_t computation_ns = 0;
  uint64_t overlap_ns = 0;
  // For the job view (analyzer/job/): collectives and steps on this process's clock, and
  // whether its data quality section has anything to say.
  CollectiveTable collectives;
  bool quality_perfect = true;
  QualityCounts quality_counts;  // every count its Data Quality section shows
};

class ProcessAnalysis {
 public:
  ProcessAnalysis(const SummaryOptions& options, const ViewSet& views);
  ~ProcessAnalysis();
  ProcessAnalysis(ProcessAnalysis&&);
  ProcessAnalysis& operator=(ProcessAnalysis&&);

  // Windows of one process, in time order (window_index); the model is dropped after.
  void AddWindow(TraceModel window);
  ProcessReport Finish() &&;

 private:
  struct Figures;  // every summary's figures (report.cc)

  SummaryOptions options_;
  ViewSet views_;
  std::unique_ptr<Figures> figures_;
};

// One model (one window, or windows already merged into one) to its report.
ProcessReport BuildProcessReport(TraceModel model, const SummaryOptions& options,
                                 const ViewSet& views);

// One row per process and the slowest one named; needs at least two reports.
SummaryTable RankSummary(const std::vector<ProcessReport>& reports);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_REPORT_H_
