// `profanalyze map` / `reduce`: through partial files, the same bytes as `profanalyze` on
// the same rank files (the job view, every rank's tables, --rank, --all-ranks, --views,
// JSON), whatever the number of partials (P = 1, 2, 3, 8), the grouping of ranks into
// them and the order they are reduced in. A missing, truncated or corrupt input is one
// unreadable line in the job's data quality.
#include "analyzer/cli/job_partial_command.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "absl/strings/str_cat.h"
#include "analyzer/job/job_partial.h"
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

std::string Profanalyze(SummaryCommandOptions options, const std::vector<std::string>& paths) {
  options.paths = paths;
  const SummaryOutput output = ProduceSummary(options);
  REQUIRE(output.exit_code == 0);
  return output.text;
}

std::string Profanalyze(const std::vector<std::string>& paths, const std::string& views,
                        const std::string& format) {
  return Profanalyze(Options(paths, views, format), paths);
}

// Maps rank i into partial i % parts (strided, so no partial holds a contiguous block),
// with `options`' analysis options, then lists the partials in reverse order.
std::vector<std::string> MapStrided(const JobTruth& truth, size_t parts, const std::string& folder,
                                    const SummaryCommandOptions& options = Options({}, "",
                                                                                   "text")) {
  std::vector<std::vector<std::string>> shares(parts);
  for (size_t i = 0; i < truth.paths.size(); ++i) shares[i % parts].push_back(truth.paths[i]);
  std::vector<std::string> partials;
  for (size_t p = 0; p < parts; ++p) {
    MapCommandOptions map;
    map.summary = options;
    map.summary.paths = shares[p];
    map.output = absl::StrCat(folder, "/part", p, ".pb");
    REQUIRE(RunMapCommand(map) == 0);
    partials.push_back(map.output);
  }
  std::reverse(partials.begin(), partials.end());
  return partials;
}

std::string Reduce(SummaryCommandOptions options, const std::vector<std::string>& partials) {
  options.paths = partials;
  const SummaryOutput output = ReducePartialFiles(options);
  REQUIRE(output.exit_code == 0);
  return output.text;
}

std::string Reduce(const std::vector<std::string>& partials, const std::string& views,
                   const std::string& format) {
  return Reduce(Options(partials, views, format), partials);
}

// The option lines the byte-for-byte tests try, each given to map, reduce and profanalyze.
std::vector<SummaryCommandOptions> OptionLines() {
  std::vector<SummaryCommandOptions> lines(8, Options({}, "", "text"));
  lines[1].format = "json";
  lines[2].rank = 1;
  lines[3].all_ranks = true;
  lines[4].views = "kernel,distributed,data_quality";
  lines[5].views = "kernel,job";
  lines[5].format = "json";
  lines[6].sorted_by = "GPUTotal";
  lines[6].top = 2;
  lines[6].time_unit = "us";
  lines[7].name_regex = "nccl";
  lines[7].rank = 2;
  lines[7].format = "json";
  return lines;
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

TEST_CASE("map/reduce: every rank's tables, --rank, --all-ranks, --views and JSON, byte for byte") {
  const std::string folder = testing::ScratchFolder("mapreduce_tables");
  JobSpec small = Job16();
  small.ranks = 3;
  small.steps = 6;
  small.straggler_rank = 1;
  small.straggler_first_step = 2;
  small.straggler_last_step = 4;
  JobSpec large = Job16();
  large.steps = 6;
  large.straggler_first_step = 2;
  large.straggler_last_step = 4;
  for (const JobSpec& spec : {small, large}) {
    const JobTruth truth =
        WriteJobTraces(spec, testing::ScratchFolder(absl::StrCat("mapreduce_tables", spec.ranks)));
    const std::vector<SummaryCommandOptions> lines = OptionLines();
    for (size_t line = 0; line < lines.size(); ++line) {
      INFO(spec.ranks << " ranks, option line " << line);
      const std::string expected = Profanalyze(lines[line], {truth.folder});
      // Not vacuous: per-rank tables are there (past 8 ranks, the default text is the job
      // view alone).
      const bool job_alone = (line == 0 || line == 6) && spec.ranks > 8;
      CHECK((expected.find("Kernel Summary") != std::string::npos) == !job_alone);
      for (size_t parts : {1, 3}) {
        INFO(parts << " partial(s)");
        const std::string reduced =
            Reduce(lines[line], MapStrided(truth, parts, folder, lines[line]));
        INFO(FirstDifferentLine(expected, reduced));
        CHECK(reduced == expected);
      }
    }
  }
}

TEST_CASE("map/reduce: which ranks' tables a partial carries follows what the output prints") {
  SummaryCommandOptions options = Options({}, "", "text");
  CHECK(TablesPrinted(options, 8).kind == TablePolicy::Kind::kAll);
  CHECK(TablesPrinted(options, 9).kind == TablePolicy::Kind::kNone);  // the job view alone
  CHECK(TablesPrinted(options, 0).kind == TablePolicy::Kind::kAll);   // size not known yet
  options.rank = 4;
  CHECK(TablesPrinted(options, 10000).kind == TablePolicy::Kind::kOneRank);
  CHECK(TablesPrinted(options, 10000).Keeps(4));
  CHECK_FALSE(TablesPrinted(options, 10000).Keeps(5));
  options.rank = -1;
  options.all_ranks = true;
  CHECK(TablesPrinted(options, 10000).kind == TablePolicy::Kind::kAll);
  CHECK(TablesPrinted(Options({}, "job", "json"), 3).kind == TablePolicy::Kind::kNone);
  CHECK(TablesPrinted(Options({}, "kernel", "text"), 10000).kind == TablePolicy::Kind::kAll);
  CHECK(TablesPrinted(Options({}, "", "json"), 10000).kind == TablePolicy::Kind::kAll);
}

// The number of ranks of the partial at `path` that carry tables.
size_t RanksWithTables(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  absl::StatusOr<prof::job::JobPartial> partial = ParseJobPartial(bytes);
  REQUIRE(partial.ok());
  size_t with_tables = 0;
  for (const prof::job::RankPartial& rank : partial->ranks()) with_tables += rank.tables_size() > 0;
  return with_tables;
}

TEST_CASE("map: past 8 processes of its own, a map builds no tables for the default text") {
  const std::string traces = testing::ScratchFolder("mapreduce_tables_traces");
  const JobTruth truth = WriteJobTraces(Job16(), traces);
  // One map of 16 ranks: the job has more than 8, so its text is the job view alone.
  const std::vector<std::string> one = MapStrided(truth, 1, testing::ScratchFolder("tables_one"));
  CHECK(RanksWithTables(one[0]) == 0);
  // Two maps of 8: each may be the whole job, so each keeps every rank's tables.
  const std::vector<std::string> two = MapStrided(truth, 2, testing::ScratchFolder("tables_two"));
  CHECK(RanksWithTables(two[0]) == 8);
  CHECK(RanksWithTables(two[1]) == 8);
  // What the output prints whatever the job's size is kept by any map: --all-ranks.
  SummaryCommandOptions all = Options({}, "", "text");
  all.all_ranks = true;
  CHECK(RanksWithTables(MapStrided(truth, 1, testing::ScratchFolder("tables_all"), all)[0]) == 16);
  CHECK(Reduce(one, "", "text") == Reduce(two, "", "text"));
}

TEST_CASE("map/reduce: tables mapped with other options are refused with one line") {
  const std::string folder = testing::ScratchFolder("mapreduce_mismatch");
  JobSpec spec = Job16();
  spec.ranks = 3;
  spec.steps = 4;
  spec.straggler_rank = -1;
  const JobTruth truth = WriteJobTraces(spec, testing::ScratchFolder("mapreduce_mismatch_traces"));
  const std::vector<std::string> partials = MapStrided(truth, 1, folder);
  CHECK(AnalysisWords(Options({}, "kernel", "json")) == "--views kernel");
  // The same tables asked for in another order or spelling are the same analysis.
  CHECK(AnalysisWords(Options({}, "overview,kernel", "text")) == "--views overview,kernel");
  CHECK(AnalysisWords(Options({}, "KernelView, overview", "text")) == "--views overview,kernel");
  SummaryCommandOptions kernel = Options(partials, "kernel", "text");
  CHECK(ReducePartialFiles(kernel).exit_code == 2);
  kernel.views = "job";  // no tables printed: any partial will do
  CHECK(ReducePartialFiles(kernel).exit_code == 0);
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

// The count a rank's own Data Quality table shows for `item` (profanalyze --rank N).
uint64_t RankCount(const std::string& folder, int rank, const std::string& item) {
  SummaryCommandOptions options = Options({folder}, "data_quality", "text");
  options.rank = rank;
  const std::string text = Profanalyze(options, {folder});
  const size_t at = text.find(item);
  REQUIRE(at != std::string::npos);
  return std::stoull(text.substr(at + item.size()));
}

TEST_CASE("map/reduce: a damaged rank's Data Quality counts reach the job view's groups") {
  const std::string folder = testing::ScratchFolder("mapreduce_quality");
  const JobTruth truth =
      WriteJobTraces(Job16(), testing::ScratchFolder("mapreduce_quality_traces"));
  // Ranks 3 and 7 lose the end of their files (the same length cut): one group of two.
  const uintmax_t size = std::filesystem::file_size(truth.paths[3]) * 6 / 10;
  std::filesystem::resize_file(truth.paths[3], size);
  std::filesystem::resize_file(truth.paths[7], size);
  const uint64_t skipped = RankCount(truth.folder, 3, "bytes skipped by the reader");
  CHECK(skipped > 0);
  CHECK(RankCount(truth.folder, 7, "bytes skipped by the reader") == skipped);
  const std::string expected = absl::StrCat("bytes skipped by the reader ", 2 * skipped,
                                            ", files without the final chunk 2 (--rank N");
  const std::string in_process = Profanalyze({truth.folder}, "job", "text");
  INFO(in_process);
  CHECK(in_process.find(expected) != std::string::npos);
  CHECK(in_process.find("rank 3, rank 7") != std::string::npos);
  for (size_t parts : {1, 3}) {
    const std::string reduced = Reduce(MapStrided(truth, parts, folder), "job", "text");
    CHECK(reduced == in_process);
  }
}

TEST_CASE("map/reduce: a bad option value is refused with one line, nothing read") {
  CHECK(ReducePartialFiles(Options({"/nonexistent"}, "kernal", "text")).exit_code == 2);
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
