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

RunProfile FromFiles(const std::string& path, const ProfileOptions& options = {}) {
  absl::StatusOr<Inputs> inputs = OpenInputs({path});
  REQUIRE(inputs.ok());
  std::vector<std::string> unreadable;
  const RunProfile profile = BuildRunProfileFromInputs(*inputs, options, &unreadable);
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

TEST_CASE("run profile: a file read in slices gives the profile of a whole read") {
  const std::string single = testing::ScratchFolder("profile_sliced") + "/run.pb";
  // 300000 events: six chunks of 60 steps in all, so a segment per chunk makes slices.
  REQUIRE(WriteSyntheticTrace(single, 300000, 1) > 0);
  ProfileOptions sliced;
  sliced.slices = SliceOptions{0, 1};  // every file sliced, a segment per chunk
  const RunProfile whole = FromFiles(single);
  const RunProfile parts = FromFiles(single, sliced);
  REQUIRE(whole.step_numbers.size() >= 30);
  CHECK(parts.step_numbers == whole.step_numbers);
  CHECK(parts.event_count == whole.event_count);
  CHECK(parts.notes == whole.notes);
  REQUIRE(parts.values.size() == whole.values.size());
  for (const auto& [key, series] : whole.values) {
    INFO(DisplayName(key));
    REQUIRE(parts.values.count(key) == 1);
    CHECK(parts.values.at(key) == series);
  }
}

}  // namespace
}  // namespace prof::analyzer::compare
