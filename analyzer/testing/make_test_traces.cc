// Writes the hand-built test traces into a folder, for trying the CLI and for README
// examples: training_step.pb, ranks/rank0.pb, ranks/rank1.pb.
//
//   bazel run //analyzer/testing:make_test_traces -- /tmp/traces
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "analyzer/testing/scenarios.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_test_traces FOLDER\n");
    return 2;
  }
  const std::string folder = argv[1];
  std::filesystem::create_directories(folder + "/ranks");
  setenv("TEST_TMPDIR", folder.c_str(), 1);
  prof::analyzer::testing::WriteTrainingStepTrace("training_step.pb");
  prof::analyzer::testing::WriteRankTrace("ranks/rank0.pb", 0, 10000000);
  prof::analyzer::testing::WriteRankTrace("ranks/rank1.pb", 1, 12000000);
  std::printf("wrote %s/training_step.pb and %s/ranks/rank{0,1}.pb\n", folder.c_str(),
              folder.c_str());
  return 0;
}
