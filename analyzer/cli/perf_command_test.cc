// profanalyze perf-summary: the Perf Summary of given steps. Expected figures by hand: 0.1,
// 0.2 and 0.3 s steps of 32 samples with 0.05 s of reading each: batch_cost 0.2 avg, reader
// ratio 0.05 / 0.2 = 25%, ips 96 / 0.6 = 160 (320 and 106.67 per step).
#include "analyzer/cli/perf_command.h"

#include <catch2/catch.hpp>

#include <sstream>
#include <string>

namespace prof::analyzer {
namespace {

PerfFigures Parse(const std::string& text) {
  std::istringstream input(text);
  absl::StatusOr<PerfFigures> figures = ParsePerfSteps(input);
  REQUIRE(figures.ok());
  return *figures;
}

TEST_CASE("perf-summary: three steps print a table (no warm-up skip at <= 10 steps)") {
  PerfFigures figures =
      Parse("100000000 50000000 32\n\n200000000 50000000 32\n300000000 50000000 32\n");
  figures.ips_unit = "images";
  const std::string text = RenderPerfSummary(figures, -1);
  CHECK(text.find("Steps: 3 recorded, first 0 skipped as warm-up (--perf-skip), 3 measured") !=
        std::string::npos);
  CHECK(text.find("Reader Ratio: 25.000%") != std::string::npos);
  CHECK(text.find("IPS Unit: images/s") != std::string::npos);
  CHECK(text.find("|    batch_cost   |     0.20000     |     0.30000     |     0.10000     |") !=
        std::string::npos);
  CHECK(text.find("|       ips       |    160.00000    |    320.00000    |    106.66667    |") !=
        std::string::npos);
}

TEST_CASE("perf-summary: 12 steps skip 10; unknown samples give steps/s; none left: empty") {
  std::string text;
  for (int step = 0; step < 12; ++step) text += step < 10 ? "900000000 0 0\n" : "500000000 0 0\n";
  const std::string table = RenderPerfSummary(Parse(text), -1);
  CHECK(table.find("first 10 skipped as warm-up") != std::string::npos);
  CHECK(table.find("IPS Unit: steps/s") != std::string::npos);
  CHECK(table.find("|    batch_cost   |     0.50000     |     0.50000     |     0.50000     |") !=
        std::string::npos);
  CHECK(table.find("reader_cost") == std::string::npos);  // no reading measured
  CHECK(RenderPerfSummary(Parse("100 0 1\n"), 1).empty());
}

TEST_CASE("perf-summary: a bad line is named") {
  for (const char* bad : {"1 2\n", "1 2 3 4\n", "-5 0 1\n", "1 x 1\n"}) {
    std::istringstream input(std::string("10 0 1\n") + bad);
    const absl::StatusOr<PerfFigures> figures = ParsePerfSteps(input);
    INFO(bad);
    REQUIRE_FALSE(figures.ok());
    CHECK(std::string(figures.status().message()).rfind("line 2: ", 0) == 0);
  }
}

}  // namespace
}  // namespace prof::analyzer
