// `profanalyze map` / `reduce`: the job view through partial files prints the same bytes
// as `profanalyze --views job` on the same rank files, whatever the number of partials
// (P = 1, 2, 3, 8), the grouping of ranks into them and the order they are reduced in. A
// missing, truncated or corrupt input is one unreadable line in the job's data quality.
#include "analyzer/cli/job_partial_command.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "absl/strings/str_cat.h"
#include "analyzer/testing/job_traces.h"
#include "analyzer/testing/scratch.h"

namespace prof::analyzer {
namespace {

using testing::FirstDifferentLine;
using testing::JobSpec;
using testing::JobTruth;

// The example: 16 ranks, rank 11 computing 3 ms longer in steps 8-14.
JobSpec Job16() {
  JobSpec spec;
  spec.straggler_rank = 11;
  spec.straggler_extra_ns = 3000000;
  spec.straggler_first_step = 8;
  spec.straggler_last_step = 14;
  return spec;
}

SummaryCommandOptions Options(const std::vector<std::string>& paths, const std::string& views,
                              const std::string& format) {
  SummaryCommandOptions options;
  options.paths = paths;
  options.views = views;
  options.format = format;
  options.threads = 2;
  return options;
}

std::string Profanalyze(const std::vector<std::string>& paths, const std::string& views,
                        const std::string& format) {
  const SummaryOutput output = ProduceSummary(Options(paths, views, format));
  REQUIRE(output.exit_code == 0);
  return output.text;
}

// Maps rank i into partial i % parts (strided, so no partial holds a contiguous block),
// then reduces the partials in reverse order.
std::vector<std::string> MapStrided(const JobTruth& truth, size_t parts,
                                    const std::string& folder) {
  std::vector<std::vector<std::string>> shares(parts);
  for (size_t i = 0; i < truth.paths.size(); ++i) shares[i % parts].push_back(truth.paths[i]);
  std::vector<std::string> partials;
  for (size_t p = 0; p < parts; ++p) {
    MapCommandOptions map;
    map.summary.paths = shares[p];
    map.summary.threads = 2;
    map.output = absl::StrCat(folder, "/part", p, ".pb");
    REQUIRE(RunMapCommand(map) == 0);
    partials.push_back(map.output);
  }
  std::reverse(partials.begin(), partials.end());
  return partials;
}

std::string Reduce(const std::vector<std::string>& partials, const std::string& views,
                   const std::string& format) {
  const SummaryOutput output = ReducePartialFiles(Options(partials, views, format));
  REQUIRE(output.exit_code == 0);
  return output.text;
}

TEST_CASE("map/reduce: P = 1, 2, 3, 8 partials print profanalyze's job view byte for byte") {
  const std::string folder = testing::ScratchFolder("mapreduce16");
  const std::string traces = testing::ScratchFolder("mapreduce16_traces");
  const JobTruth truth = WriteJobTraces(Job16(), traces);
  const std::string text = Profanalyze({truth.folder}, "job", "text");
  const std::string json = Profanalyze({truth.folder}, "job", "json");
  const std::string default_text =
      Profanalyze({truth.folder}, "", "text");  // 16 > 8 ranks: the job view
  REQUIRE(text.find("Straggler: rank 11") != std::string::npos);
  for (size_t parts : {1, 2, 3, 8}) {
    INFO(parts << " partial(s)");
    const std::vector<std::string> partials = MapStrided(truth, parts, folder);
    const std::string reduced = Reduce(partials, "job", "text");
    INFO(FirstDifferentLine(text, reduced));
    CHECK(reduced == text);
    CHECK(Reduce(partials, "", "text") == default_text);
    CHECK(Reduce(partials, "job", "json") == json);
  }
}

TEST_CASE("map/reduce: a missing, truncated or corrupt input is counted, not fatal") {
  const std::string folder = testing::ScratchFolder("mapreduce_bad");
  const std::string traces = testing::ScratchFolder("mapreduce_bad_traces");
  const JobTruth truth = WriteJobTraces(Job16(), traces);
  std::vector<std::string> paths(truth.paths.begin(), truth.paths.end());
  // Rank 15's file is truncated to its first 64 bytes; rank 16's never appeared.
  std::filesystem::resize_file(paths[15], 64);
  paths.push_back(folder + "/rank_00016.pb");
  MapCommandOptions map;
  map.summary.paths = paths;
  map.output = folder + "/part.pb";
  REQUIRE(RunMapCommand(map) == 0);
  std::ofstream(folder + "/corrupt.pb") << "not a partial";
  const SummaryOutput output = ReducePartialFiles(
      Options({map.output, folder + "/corrupt.pb", folder + "/absent.pb"}, "job", "text"));
  REQUIRE(output.exit_code == 0);
  INFO(output.text);
  // 15 ranks read; the truncated rank file, the missing one, the corrupt and the absent partial.
  CHECK(output.text.find("Job: 15 rank(s)") != std::string::npos);
  CHECK(output.text.find("; 4 unreadable file(s).") != std::string::npos);
  CHECK(output.text.find("Straggler: rank 11") != std::string::npos);
}

TEST_CASE("map/reduce: partials hold the job view only; other views are refused with one line") {
  CHECK(ReducePartialFiles(Options({"/nonexistent"}, "kernel", "text")).exit_code == 2);
  CHECK(ReducePartialFiles(Options({"/nonexistent"}, "job", "text")).exit_code == 1);
}

TEST_CASE("map/reduce: 10,000 ranks in 8 partials, the default text stays within 200 lines") {
  const std::string folder = testing::ScratchFolder("mapreduce10000");
  const std::string traces = testing::ScratchFolder("mapreduce10000_traces");
  JobSpec spec = Job16();
  spec.ranks = 10000;
  spec.steps = 3;
  spec.straggler_first_step = 1;
  spec.straggler_last_step = 1;
  spec.straggler_rank = 6875;
  const JobTruth truth = WriteJobTraces(spec, traces);
  const std::string text = Reduce(MapStrided(truth, 8, folder), "", "text");
  CHECK(std::count(text.begin(), text.end(), '\n') <= 200);
  CHECK(text.find("Job: 10000 rank(s) on 1250 host(s)") != std::string::npos);
  CHECK(text.find("Straggler: rank 6875") != std::string::npos);
  CHECK(text.find("Last to arrive: rank 6875") != std::string::npos);
  CHECK(text == Profanalyze({truth.folder}, "", "text"));
}

}  // namespace
}  // namespace prof::analyzer
