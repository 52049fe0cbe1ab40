// `profanalyze info` reads a process one file at a time and prints the totals of all its
// files; bad input is one message and exit status 1.
#include "analyzer/cli/info_command.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "absl/strings/str_cat.h"
#include "analyzer/testing/scratch.h"
#include "analyzer/testing/synthetic_trace.h"

namespace prof::analyzer {
namespace {

// Runs the command with stdout sent to a file; returns the exit status and the output.
std::pair<int, std::string> RunInfo(const std::vector<std::string>& paths,
                                    const std::string& capture,
                                    const SliceOptions& slices = SliceOptions()) {
  std::fflush(stdout);
  const int saved = dup(STDOUT_FILENO);
  const int fd = open(capture.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  dup2(fd, STDOUT_FILENO);
  close(fd);
  InfoCommandOptions options;
  options.paths = paths;
  options.slices = slices;
  const int status = RunInfoCommand(options);
  std::fflush(stdout);
  dup2(saved, STDOUT_FILENO);
  close(saved);
  std::ifstream in(capture);
  std::stringstream text;
  text << in.rdbuf();
  return {status, text.str()};
}

size_t Occurrences(const std::string& text, const std::string& what) {
  size_t count = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

TEST_CASE("info: one process in three window files, totals over all of them") {
  const std::string folder = testing::ScratchFolder("info_windows");
  const uint64_t events = WriteSyntheticTrace(folder, 60000, 3);
  REQUIRE(events > 0);
  const auto [status, text] = RunInfo({folder}, folder + "/../info.txt");
  CHECK(status == 0);
  CHECK(Occurrences(text, "file: ") == 3);
  CHECK(text.find(absl::StrCat("events: ", events, "\n")) != std::string::npos);
  CHECK(text.find("data quality: perfect") != std::string::npos);
}

TEST_CASE("info: a file read in slices prints what a whole read prints") {
  const std::string folder = testing::ScratchFolder("info_sliced");
  // One window of 300000 events: six chunks, so a segment per chunk gives several slices.
  const uint64_t events = WriteSyntheticTrace(folder + "/run.pb", 300000, 1);
  REQUIRE(events > 0);
  const auto [whole_status, whole] = RunInfo({folder}, folder + "/../info_whole.txt");
  const auto [sliced_status, sliced] =
      RunInfo({folder}, folder + "/../info_sliced.txt", SliceOptions{0, 1});
  CHECK(whole_status == 0);
  CHECK(sliced_status == 0);
  CHECK(Occurrences(sliced, "file: ") == 1);
  CHECK(sliced.find(absl::StrCat("events: ", events, "\n")) != std::string::npos);
  CHECK(sliced == whole);
}

TEST_CASE("info: nothing readable is exit status 1") {
  const std::string folder = testing::ScratchFolder("info_bad");
  std::ofstream(folder + "/not_a_trace.pb") << "hello";
  CHECK(RunInfo({folder + "/not_a_trace.pb"}, folder + "/out.txt").first == 1);
  CHECK(RunInfo({folder + "/missing.pb"}, folder + "/out.txt").first == 1);
}

}  // namespace
}  // namespace prof::analyzer
