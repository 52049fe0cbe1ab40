// A run's per-step profile is the same whether the run is one file or several window
// files read one at a time, and the same as from the models loaded whole.
#include "analyzer/compare/run_profile.h"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "analyzer/testing/load_inputs.h"
#include "analyzer/testing/scratch.h"
#include "analyzer/testing/synthetic_trace.h"

namespace prof::analyzer::compare {
namespace {

RunProfile FromFiles(const std::string& path) {
  absl::StatusOr<Inputs> inputs = OpenInputs({path});
  REQUIRE(inputs.ok());
  std::vector<std::string> unreadable;
  const RunProfile profile = BuildRunProfileFromInputs(*inputs, ProfileOptions{}, &unreadable);
  CHECK(unreadable.empty());
  return profile;
}

TEST_CASE("run profile: one file, five window files, and whole models agree step for step") {
  const std::string single = testing::ScratchFolder("profile_single") + "/run.pb";
  const std::string windows = testing::ScratchFolder("profile_windows");
  REQUIRE(WriteSyntheticTrace(single, 100000, 1) == WriteSyntheticTrace(windows, 100000, 5));

  const RunProfile whole = FromFiles(single);
  const RunProfile split = FromFiles(windows);
  REQUIRE(whole.step_numbers.size() >= 15);
  CHECK(split.step_numbers == whole.step_numbers);
  CHECK(split.event_count == whole.event_count);
  REQUIRE(split.values.size() == whole.values.size());
  for (const auto& [key, series] : whole.values) {
    INFO(DisplayName(key));
    REQUIRE(split.values.count(key) == 1);
    // gpu_util too: GPU work running past a window's end is carried into the next.

    CHECK(split.values.at(key) == series);
  }

  absl::StatusOr<LoadedInputs> loaded = LoadInputs({windows}, 1);
  REQUIRE(loaded.ok());
  const RunProfile merged = BuildRunProfile(std::move(loaded->processes), ProfileOptions{});
  CHECK(merged.step_numbers == split.step_numbers);
  CHECK(merged.event_count == split.event_count);
}

}  // namespace
}  // namespace prof::analyzer::compare
