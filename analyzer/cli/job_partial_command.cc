#include "analyzer/cli/job_partial_command.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "analyzer/cli/analyze_inputs.h"
#include "analyzer/job/job_partial.h"

namespace prof::analyzer {
namespace {

// The partial as a file: written to PART.tmp, then renamed, so a killed map leaves no
// half-written partial under the final name.
bool WritePartial(const prof::job::JobPartial& partial, const std::string& path) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << SerializeJobPartial(partial);
    if (!out.good()) return false;
  }
  return std::rename(temporary.c_str(), path.c_str()) == 0;
}

absl::StatusOr<prof::job::JobPartial> ReadPartial(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open the partial"));
  std::stringstream bytes;
  bytes << in.rdbuf();
  absl::StatusOr<prof::job::JobPartial> partial = ParseJobPartial(bytes.str());
  if (!partial.ok())
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", partial.status().message()));
  return partial;
}

}  // namespace

prof::job::JobPartial MapProcesses(const Inputs& inputs, const SummaryCommandOptions& options) {
  const AnalyzedInputs analyzed = AnalyzeProcesses(
      inputs, SummaryOptionsOf(options), ViewSet{View::kJob}, options.threads, options.window);
  return JobPartialOf(analyzed.reports, analyzed.unreadable);
}

prof::job::JobPartial MapPaths(const std::vector<std::string>& paths,
                               const SummaryCommandOptions& options) {
  return MapProcesses(OpenEachInput(paths), options);
}

CLI::App* AddMapCommand(CLI::App* app, MapCommandOptions* options) {
  CLI::App* map = app->add_subcommand(
      "map", "analyze rank files into one job partial (for profanalyze reduce)");
  map->add_option("PATH", options->summary.paths, "trace files or folders of them")->required();
  map->add_option("-o,--output", options->output, "the partial to write")->required();
  map->add_option("--threads", options->summary.threads, "reader threads (0: one per core)")
      ->check(CLI::NonNegativeNumber);
  map->add_option("--window", options->summary.window,
                  "recording window K only (the file's window index)")
      ->check(CLI::NonNegativeNumber);
  map->add_option("--perf-skip", options->summary.perf_skip, "as profanalyze's")
      ->check(CLI::NonNegativeNumber);
  map->add_flag("--include-setup", options->summary.include_setup, "as profanalyze's");
  return map;
}

int RunMapCommand(const MapCommandOptions& options) {
  const prof::job::JobPartial partial = MapPaths(options.summary.paths, options.summary);
  for (const std::string& line : partial.unreadable())
    std::fprintf(stderr, "profanalyze: %s\n", line.c_str());
  if (!WritePartial(partial, options.output)) {
    std::fprintf(stderr, "profanalyze: %s: cannot write the partial\n", options.output.c_str());
    return 1;
  }
  return 0;
}

CLI::App* AddReduceCommand(CLI::App* app, SummaryCommandOptions* options) {
  CLI::App* reduce = app->add_subcommand(
      "reduce",
      "print the job view of partials written by profanalyze map (as profanalyze --views job)");
  AddSummaryOptions(reduce, options);
  return reduce;
}

SummaryOutput ReducePartialFiles(const SummaryCommandOptions& options) {
  if (!CheckJobViewOptions(options)) return {2, ""};
  prof::job::JobPartial merged;
  for (const std::string& path : options.paths) {
    absl::StatusOr<prof::job::JobPartial> partial = ReadPartial(path);
    if (!partial.ok()) {
      merged.add_unreadable(std::string(partial.status().message()));
      continue;
    }
    MergeJobPartial(*std::move(partial), &merged);
  }
  return ProduceJobSummary(options, merged);
}

int RunReduceCommand(const SummaryCommandOptions& options) {
  const SummaryOutput output = ReducePartialFiles(options);
  std::fputs(output.text.c_str(), stdout);
  return output.exit_code;
}

}  // namespace prof::analyzer
