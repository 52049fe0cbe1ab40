// `profanalyze PATH...`: the summary tables of every process found, as text or JSON.
#ifndef PROF_ANALYZER_CLI_SUMMARY_COMMAND_H_
#define PROF_ANALYZER_CLI_SUMMARY_COMMAND_H_

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "absl/status/statusor.h"
#include "analyzer/cli/analyze_inputs.h"
#include "analyzer/job/job_analysis.h"
#include "analyzer/job/job_partial.h"
#include "analyzer/summary/report.h"
#include "proto/job_partial.pb.h"

namespace prof::analyzer {

struct SummaryCommandOptions {
  std::vector<std::string> paths;
  std::string sorted_by = "CPUTotal";
  std::string views;
  bool op_detail = true;
  bool group_by_shape = false;
  bool self_time = false;
  bool thread_sep = false;
  std::string time_unit = "ms";
  int top = 0;
  int perf_skip = -1;
  bool include_setup = false;
  int rank = -1;           // print only this rank's tables (the cross-rank table stays)
  bool all_ranks = false;  // past kJobViewRanks ranks: every rank's tables, not the job view
  std::string format = "text";
  int threads = 0;
  // Queries (table_query.h): one recording window; rows of the Operator and Kernel tables.
  int window = -1;
  std::string min_time;  // "1.5ms"
  std::string name_regex;
  std::string types;         // tables to show, as --views
  std::string aggregate_by;  // "name" | "base"
  std::string order_by;      // "[+|-]name|calls|{cpu,gpu}_{total,avg,max,min}"
};

// With more ranks than this, the default text output (no --views, --rank or --all-ranks)
// is the job view alone (analyzer/job/), bounded whatever the rank count.
inline constexpr size_t kJobViewRanks = 8;

// Adds the summary options and PATH positional to `app` (the top-level command).
void AddSummaryOptions(CLI::App* app, SummaryCommandOptions* options);

// The analysis options of the command line's (what each process's figures depend on).
SummaryOptions SummaryOptionsOf(const SummaryCommandOptions& options);

// --views and --type: the tables both allow (InvalidArgument naming an unknown view).
absl::StatusOr<ViewSet> SelectedViews(const SummaryCommandOptions& options);

// False (InvalidArgument naming the option) for a value the command line's checks would
// refuse: for callers that fill the options without CLI11 (the Python extension).
absl::Status CheckSummaryOptionValues(const SummaryCommandOptions& options);

// The summary's figures before rendering: what ProduceSummary prints, and what the Python
// extension keeps (analyzer/python).
struct SummaryResult {
  AnalyzedInputs inputs;  // the queries (--min-time, --name, ...) applied
  ViewSet views;          // --views and --type
};

// Errors: InvalidArgument for a bad option value (the message names it); NotFound (or
// Unavailable) for a PATH that cannot be listed. Nothing readable is not an error here:
// `inputs.reports` is empty and `inputs.unreadable` says why.
absl::StatusOr<SummaryResult> AnalyzeSummary(const SummaryCommandOptions& options);

// What ProduceSummary prints for `result` (text or JSON, --rank, --all-ranks, the job view).
std::string RenderSummary(const SummaryCommandOptions& options, const SummaryResult& result);

struct SummaryOutput {
  int exit_code = 0;  // 0 when something was read, 1 when nothing could be, 2 on a bad option value
  std::string text;   // what goes to stdout
};

// Everything but printing; problems go to stderr, one line each.
SummaryOutput ProduceSummary(const SummaryCommandOptions& options);

// What ProduceSummary prints for the same rank files, from merged partials (job/
// job_partial.h): `profanalyze reduce` and profanalyze-mpi. Tables come from the partials,
// so they must have been mapped with the options `options` analyzes with (AnalysisWords).
// `figures`: the job view's collective figures computed elsewhere (profanalyze-mpi, by
// communicator; one per rank of `partial`), whose ranks then need no collectives; null:
// computed here from the partial's.
SummaryOutput ProducePartialSummary(const SummaryCommandOptions& options,
                                    const prof::job::JobPartial& partial,
                                    const CollectiveFigures* figures = nullptr);

// False, with one line on stderr, for options ProducePartialSummary would refuse (before
// any rank file is read).
bool CheckPartialOptions(const SummaryCommandOptions& options);

// Which ranks' tables the output of `options` prints for a job of `processes` processes
// (0: not known yet, as in `profanalyze map`): none when the text is the job view alone.
TablePolicy TablesPrinted(const SummaryCommandOptions& options, size_t processes);

// The options that shape the tables, as command-line words ("--sorted-by GPUTotal
// --views kernel"; "" for the defaults): what a partial records, and reduce compares.
std::string AnalysisWords(const SummaryCommandOptions& options);

// Prints ProduceSummary's text; returns its exit code.
int RunSummaryCommand(const SummaryCommandOptions& options);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_CLI_SUMMARY_COMMAND_H_
