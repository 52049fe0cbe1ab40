#include "analyzer/cli/perf_command.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "absl/strings/str_format.h"
#include "analyzer/render/text_renderer.h"

namespace prof::analyzer {

CLI::App* AddPerfCommand(CLI::App* app, PerfCommandOptions* options) {
  CLI::App* command = app->add_subcommand(
      "perf-summary",
      "the Perf Summary of steps measured elsewhere: one line per step, "
      "'DURATION_NS READER_NS SAMPLES' (SAMPLES <= 0: unknown); what libprof.Profiler prints");
  command->add_option("file", options->path, "the steps ('-': standard input)");
  command->add_option("--ips-unit", options->ips_unit, "the IPS unit (default: samples)");
  command->add_option("--perf-skip", options->perf_skip,
                      "warm-up steps left out (default: 10 when more than 10, else none)");
  return command;
}

absl::StatusOr<PerfFigures> ParsePerfSteps(std::istream& input) {
  PerfFigures figures;
  std::string line;
  for (int number = 1; std::getline(input, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::istringstream fields(line);
    long long duration_ns = 0, reader_ns = 0, samples = 0;
    std::string rest;
    if (!(fields >> duration_ns >> reader_ns >> samples) || (fields >> rest) || duration_ns < 0 ||
        reader_ns < 0) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "line %d: '%s' is not 'DURATION_NS READER_NS SAMPLES' (integers, times >= 0)", number,
          line));
    }
    // Unknown samples are 0: kStepOpenAtExit (a negative count) means a trace's last step.
    figures.steps.push_back(
        {static_cast<uint64_t>(duration_ns), reader_ns * 1e-9, samples > 0 ? samples : 0});
  }
  return figures;
}

std::string RenderPerfSummary(const PerfFigures& figures, int perf_skip) {
  RenderContext context;
  context.options.perf_skip = perf_skip;
  const std::optional<SummaryTable> table = PerfSummary(figures, context);
  return table ? RenderTable(*table, TimeUnit::kSeconds) : "";
}

int RunPerfCommand(const PerfCommandOptions& options) {
  if (options.perf_skip < -1) {
    std::fprintf(stderr, "profanalyze perf-summary: --perf-skip must not be negative\n");
    return 2;
  }
  std::ifstream file;
  if (options.path != "-") {
    file.open(options.path);
    if (!file) {
      std::fprintf(stderr, "profanalyze perf-summary: cannot read %s\n", options.path.c_str());
      return 2;
    }
  }
  absl::StatusOr<PerfFigures> figures = ParsePerfSteps(options.path == "-" ? std::cin : file);
  if (!figures.ok()) {
    std::fprintf(stderr, "profanalyze perf-summary: %s\n",
                 std::string(figures.status().message()).c_str());
    return 2;
  }
  figures->ips_unit = options.ips_unit;
  const std::string text = RenderPerfSummary(*figures, options.perf_skip);
  if (text.empty()) {
    std::fprintf(stderr, "profanalyze perf-summary: no step to measure (%zu given)\n",
                 figures->steps.size());
    return 1;
  }
  std::fputs(text.c_str(), stdout);
  return 0;
}

}  // namespace prof::analyzer
