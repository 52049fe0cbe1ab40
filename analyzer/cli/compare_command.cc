#include "analyzer/cli/compare_command.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "analyzer/compare/compare_renderers.h"
#include "analyzer/compare/compare_report.h"
#include "analyzer/compare/rule_parser.h"
#include "analyzer/compare/run_profile.h"
#include "analyzer/pipeline/inputs.h"

namespace prof::analyzer {
namespace {

constexpr int kNoRegression = 0;
constexpr int kRegression = 1;
constexpr int kBadInput = 2;

// Reads one side (a trace file or a folder) into its per-step profile. Errors: the path
// is missing, nothing in it is readable, or it holds no steps.
absl::StatusOr<compare::RunProfile> LoadSide(const std::string& path, const char* side,
                                             const compare::ProfileOptions& options) {
  absl::StatusOr<Inputs> inputs = OpenInputs({path});
  if (!inputs.ok())
    return absl::InvalidArgumentError(absl::StrCat(side, ": ", inputs.status().message()));
  std::vector<std::string> unreadable;
  compare::RunProfile profile = compare::BuildRunProfileFromInputs(*inputs, options, &unreadable);
  for (const std::string& message : unreadable)
    std::fprintf(stderr, "profanalyze compare: %s\n", message.c_str());
  if (profile.process_count == 0) {
    return absl::InvalidArgumentError(absl::StrCat(side, " (", path, "): no readable trace"));
  }
  if (profile.step_numbers.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        side, " (", path,
        "): no steps to compare (mark steps with prof_step, an NVTX ProfileStep range or "
        "PROF_STEP_MARKER; or lower --skip-first)"));
  }
  return profile;
}

bool WriteFile(const std::string& path, const std::string& text) {
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) {
    std::fprintf(stderr, "profanalyze compare: cannot write %s: %s\n", path.c_str(),
                 std::strerror(errno));
    return false;
  }
  const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  return std::fclose(file) == 0 && written;
}

std::string Render(const compare::CompareReport& report, const std::string& format, int top) {
  if (format == "json") return compare::RenderCompareJson(report);
  if (format == "junit") return compare::RenderCompareJunit(report);
  if (format == "markdown") return compare::RenderCompareMarkdown(report, top);
  return compare::RenderCompareText(report, top);
}

// The extra report files; false when one could not be written.
bool WriteExtraReports(const compare::CompareReport& report, const CompareCommandOptions& options) {
  bool ok = true;
  if (!options.junit_path.empty())
    ok &= WriteFile(options.junit_path, compare::RenderCompareJunit(report));
  if (!options.markdown_path.empty()) {
    ok &= WriteFile(options.markdown_path, compare::RenderCompareMarkdown(report, options.top));
  }
  if (!options.json_path.empty())
    ok &= WriteFile(options.json_path, compare::RenderCompareJson(report));
  return ok;
}

}  // namespace

CLI::App* AddCompareCommand(CLI::App* app, CompareCommandOptions* options) {
  CLI::App* command = app->add_subcommand(
      "compare",
      "compare two runs step by step; with --fail-on, exit 1 when a rule is broken beyond noise");
  command->add_option("BASE", options->base, "baseline: a trace file or a folder of them")
      ->required();
  command->add_option("NEW", options->candidate, "candidate: a trace file or a folder of them")
      ->required();
  command->add_option(
      "--fail-on", options->fail_on,
      "comma-separated rules, e.g. \"step_time>+3%,kernel:*gemm*>+5%,busbw<-5%,gpu_util<-2pt\"");
  command->add_option("--format", options->format, "output on stdout")
      ->check(CLI::IsMember({"text", "json", "junit", "markdown"}));
  command->add_option("--junit", options->junit_path,
                      "also write JUnit XML (one test case per rule) to this file");
  command->add_option("--markdown", options->markdown_path,
                      "also write markdown (a pull-request comment) here");
  command->add_option("--json", options->json_path, "also write the JSON report here");
  command
      ->add_option("--confidence", options->confidence, "confidence of the intervals and verdicts")
      ->check(CLI::Range(0.5, 0.9999));
  command->add_option("--skip-first", options->skip_first, "warm-up steps left out of each run")
      ->check(CLI::NonNegativeNumber);
  command->add_flag("--strip-templates", options->strip_templates,
                    "match kernels without template arguments");
  command->add_option("--top", options->top, "rows of the changes table (0: all)")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--threads", options->threads, "reader threads (0: one per core)")
      ->check(CLI::NonNegativeNumber);
  return command;
}

int RunCompareCommand(const CompareCommandOptions& options) {
  compare::CompareSettings settings;
  settings.confidence = options.confidence;
  if (!options.fail_on.empty()) {
    absl::StatusOr<std::vector<compare::Rule>> rules = compare::ParseRules(options.fail_on);
    if (!rules.ok()) {
      std::fprintf(stderr, "profanalyze compare: %s\n",
                   std::string(rules.status().message()).c_str());
      return kBadInput;
    }
    settings.rules = *std::move(rules);
  }
  compare::ProfileOptions profile_options;
  profile_options.names.strip_templates = options.strip_templates;
  profile_options.skip_first = options.skip_first;
  profile_options.threads = options.threads;
  absl::StatusOr<compare::RunProfile> base = LoadSide(options.base, "BASE", profile_options);
  absl::StatusOr<compare::RunProfile> candidate =
      base.ok() ? LoadSide(options.candidate, "NEW", profile_options) : base.status();
  if (!candidate.ok()) {
    std::fprintf(stderr, "profanalyze compare: %s\n",
                 std::string(candidate.status().message()).c_str());
    return kBadInput;
  }
  const compare::CompareReport report =
      compare::BuildCompareReport(*base, {options.base}, *candidate, {options.candidate}, settings);
  std::fputs(Render(report, options.format, options.top).c_str(), stdout);
  if (!WriteExtraReports(report, options)) return kBadInput;
  return report.Failed() ? kRegression : kNoRegression;
}

}  // namespace prof::analyzer
