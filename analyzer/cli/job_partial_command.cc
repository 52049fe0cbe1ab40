#include "analyzer/cli/job_partial_command.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "analyzer/cli/analyze_inputs.h"
#include "analyzer/job/job_partial.h"
#include "analyzer/summary/table_query.h"

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

prof::job::JobPartial MapProcesses(const Inputs& inputs, const SummaryCommandOptions& options,
                                   const TablePolicy& tables) {
  // The options were checked (CheckPartialOptions) before any file was opened.
  ViewSet views{View::kJob};
  if (tables.kind != TablePolicy::Kind::kNone) views = *SelectedViews(options);
  AnalyzedInputs analyzed =
      AnalyzeProcesses(inputs, SummaryOptionsOf(options), views, options.threads, options.window);
  const TableQuery query = *ParseTableQuery(options.name_regex, options.min_time,
                                            options.aggregate_by, options.order_by);
  for (ProcessReport& report : analyzed.reports) {
    if (!tables.Keeps(report.identity.rank)) continue;
    for (SummaryTable& table : report.tables) ApplyTableQuery(query, &table);
  }
  prof::job::JobPartial partial = JobPartialOf(analyzed.reports, analyzed.unreadable, tables);
  partial.set_analysis(AnalysisWords(options));
  return partial;
}

prof::job::JobPartial MapPaths(const std::vector<std::string>& paths,
                               const SummaryCommandOptions& options) {
  // Map cannot know the job's size, but its own processes are part of the job: what a job
  // of that many prints (past kJobViewRanks, the default text is the job view alone, so no
  // rank's tables are built: most of a map's time and of its partial's size); fewer, every
  // rank's tables of the views asked for (none with --views job).
  const Inputs inputs = OpenEachInput(paths);
  const TablePolicy tables = TablesPrinted(options, inputs.processes.size());
  prof::job::JobPartial partial = MapProcesses(inputs, options, tables);
  // The headers promised more processes than could be read: the job may print tables.
  if (tables.kind == TablePolicy::Kind::kNone &&
      TablesPrinted(options, partial.ranks_size()).kind != TablePolicy::Kind::kNone) {
    partial = MapProcesses(inputs, options, TablesPrinted(options, partial.ranks_size()));
  }
  return partial;
}

CLI::App* AddMapCommand(CLI::App* app, MapCommandOptions* options) {
  CLI::App* map = app->add_subcommand(
      "map", "analyze rank files into one job partial (for profanalyze reduce)");
  AddSummaryOptions(map, &options->summary);
  map->get_option("PATH")->required();
  map->add_option("-o,--output", options->output, "the partial to write")->required();
  return map;
}

int RunMapCommand(const MapCommandOptions& options) {
  if (!CheckPartialOptions(options.summary)) return 2;
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
      "print what profanalyze prints for the rank files of partials written by profanalyze map");
  AddSummaryOptions(reduce, options);
  return reduce;
}

SummaryOutput ReducePartialFiles(const SummaryCommandOptions& options) {
  if (!CheckPartialOptions(options)) return {2, ""};
  const std::string analysis = AnalysisWords(options);
  std::string mapped_otherwise;  // the first partial whose tables were built otherwise
  prof::job::JobPartial merged;
  for (const std::string& path : options.paths) {
    absl::StatusOr<prof::job::JobPartial> partial = ReadPartial(path);
    if (!partial.ok()) {
      merged.add_unreadable(std::string(partial.status().message()));
      continue;
    }
    if (mapped_otherwise.empty() && (partial->version() < 2 || partial->analysis() != analysis)) {
      mapped_otherwise = absl::StrCat(
          path, partial->version() < 2 ? " holds no tables (an older profanalyze map)"
                                       : absl::StrCat(" was mapped with '", partial->analysis(),
                                                      "', reduce was given '", analysis, "'"));
    }
    // Streaming: once the job is larger than the output's table budget, drop what it won't
    // print, from the partial before it joins (its tables freed with it) and from the merge.
    const TablePolicy tables = TablesPrinted(options, merged.ranks_size() + partial->ranks_size());
    ApplyTablePolicy(tables, &*partial);
    MergeJobPartial(*std::move(partial), &merged);
    ApplyTablePolicy(tables, &merged);
  }
  if (!mapped_otherwise.empty() &&
      TablesPrinted(options, merged.ranks_size()).kind != TablePolicy::Kind::kNone) {
    std::fprintf(stderr, "profanalyze: %s: give map and reduce the same options\n",
                 mapped_otherwise.c_str());
    return {2, ""};
  }
  return ProducePartialSummary(options, merged);
}

int RunReduceCommand(const SummaryCommandOptions& options) {
  const SummaryOutput output = ReducePartialFiles(options);
  std::fputs(output.text.c_str(), stdout);
  return output.exit_code;
}

}  // namespace prof::analyzer
