// Writes the report scenario's traces (report_scenario.h) into a folder, for the browser
// test and for trying `profanalyze report` by hand:
//
//   bazel run //analyzer/report:make_report_traces -- /tmp/report_traces [ranks]
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "analyzer/report/report_scenario.h"

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: make_report_traces FOLDER [RANKS]\n");
    return 2;
  }
  const int ranks = argc == 3 ? std::atoi(argv[2]) : 4;
  if (ranks < 1 || ranks > 512) {
    std::fprintf(stderr, "make_report_traces: RANKS must be 1..512\n");
    return 2;
  }
  std::filesystem::create_directories(argv[1]);
  const auto paths = prof::analyzer::report::testing::WriteReportScenario(
      std::filesystem::absolute(argv[1]), ranks);
  std::printf("wrote %zu trace file(s) to %s\n", paths.size(), argv[1]);
  return 0;
}
