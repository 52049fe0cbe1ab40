// `profanalyze map FILE... -o PART` and `profanalyze reduce PART...`: profanalyze through
// files, for schedulers without MPI. Map analyzes its rank files into one job partial
// (job/job_partial.h) with every rank's tables; reduce merges any number of partials, in
// any order, and prints what `profanalyze` prints for all the files (text or JSON, the
// job view, --rank, --all-ranks, --views), keeping only the tables it will print. Give
// map and reduce the same analysis options (--views, --sorted-by, ...; reduce refuses
// partials mapped otherwise when it prints tables). A rank file or
// a partial that is missing, truncated or corrupt is one line in the job's data quality,
// not a failure; a failed map is re-run alone. Map every file of a process (all its
// recording windows) in one map: a process split over two partials counts twice.
#ifndef PROF_ANALYZER_CLI_JOB_PARTIAL_COMMAND_H_
#define PROF_ANALYZER_CLI_JOB_PARTIAL_COMMAND_H_

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "analyzer/cli/summary_command.h"
#include "analyzer/pipeline/inputs.h"
#include "proto/job_partial.pb.h"

namespace prof::analyzer {

struct MapCommandOptions {
  SummaryCommandOptions summary;  // PATH: the rank files; the analysis options
  std::string output;             // -o PART
};

// The job partial of opened inputs (e.g. one MPI rank's share), their unreadable lines
// included, with the tables `tables` keeps (none: only the job view's figures are analyzed).
prof::job::JobPartial MapProcesses(const Inputs& inputs, const SummaryCommandOptions& options,
                                   const TablePolicy& tables);

// The job partial of the PATH arguments (files or folders); missing ones are unreadable lines.
prof::job::JobPartial MapPaths(const std::vector<std::string>& paths,
                               const SummaryCommandOptions& options);

CLI::App* AddMapCommand(CLI::App* app, MapCommandOptions* options);
int RunMapCommand(const MapCommandOptions& options);

// `reduce` takes the summary options; its PATH arguments are partials.
// `map` takes them too (its render options, such as --rank and --format, change nothing).
CLI::App* AddReduceCommand(CLI::App* app, SummaryCommandOptions* options);
int RunReduceCommand(const SummaryCommandOptions& options);

// ReduceFiles's text and exit code, for tests.
SummaryOutput ReducePartialFiles(const SummaryCommandOptions& options);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_CLI_JOB_PARTIAL_COMMAND_H_
