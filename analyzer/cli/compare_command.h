// `profanalyze compare BASE NEW`: per-step distributions of two runs aligned by step
// figure, kernel, operator, CUDA API and NCCL collective; deltas sorted by impact;
// --fail-on rules judged against the runs' own noise (analyzer/compare/README.md).
// Exit status: 0 no rule broken, 1 a rule broken, 2 bad input or a bad rule.
#ifndef PROF_ANALYZER_CLI_COMPARE_COMMAND_H_
#define PROF_ANALYZER_CLI_COMPARE_COMMAND_H_

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace prof::analyzer {

struct CompareCommandOptions {
  std::string base;
  std::string candidate;
  std::string fail_on;
  std::string format = "text";
  std::string junit_path;     // also write JUnit XML here
  std::string markdown_path;  // also write markdown here
  std::string json_path;      // also write JSON here
  double confidence = 0.99;
  int skip_first = 0;
  bool strip_templates = false;
  int top = 20;
  int threads = 0;
};

CLI::App* AddCompareCommand(CLI::App* app, CompareCommandOptions* options);
int RunCompareCommand(const CompareCommandOptions& options);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_CLI_COMPARE_COMMAND_H_
