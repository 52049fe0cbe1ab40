// The Data Quality table's words for the flight recorder's losses (a flight dump's host
// rings and NCCL ring) and for ranges cut at a file's end; other kinds keep their name.
#include "analyzer/summary/data_quality_summary.h"

#include <string>

#include <catch2/catch.hpp>

namespace prof::analyzer {
namespace {

const Row* RowNamed(const SummaryTable& table, const std::string& item) {
  for (const Row& row : table.rows) {
    if (row.kind == Row::Kind::kData && row.cells[0].text == item) return &row;
  }
  return nullptr;
}

TEST_CASE("a flight dump's ring losses and its open ranges are rows in words, with counts") {
  DataQuality quality;
  quality.losses["LOSS_KIND_FLIGHT_HOST_OVERWRITTEN"] = 36;
  quality.losses["LOSS_KIND_FLIGHT_HOST_TORN"] = 2;
  quality.losses["LOSS_KIND_FLIGHT_HOST_THREAD_REFUSED"] = 1;
  quality.losses["LOSS_KIND_FLIGHT_TORN"] = 4;
  quality.losses["LOSS_KIND_RANGE_OPEN_AT_END"] = 3;
  quality.losses["LOSS_KIND_HOST_BUFFER_FULL"] = 5;
  const std::optional<SummaryTable> table = DataQualitySummary(quality);
  REQUIRE(table.has_value());
  const std::pair<const char*, double> expected[] = {
      {"CUDA calls and ranges overwritten in the flight rings", 36},
      {"CUDA calls and ranges torn in the flight rings", 2},
      {"threads without a flight ring", 1},
      {"NCCL calls torn in the flight ring", 4},
      {"ranges open at the file's end", 3},
      {"records lost by the agent: LOSS_KIND_HOST_BUFFER_FULL", 5},
  };
  for (const auto& [item, count] : expected) {
    INFO(item);
    const Row* row = RowNamed(*table, item);
    REQUIRE(row != nullptr);
    CHECK(row->cells[1].value == count);
  }
  CHECK(table->rows.size() == 6);
}

}  // namespace
}  // namespace prof::analyzer

namespace prof::analyzer {
namespace {

TEST_CASE("kernel launches without a device kernel record are counted, of all launches") {
  DataQuality perfect;
  CHECK(!DataQualitySummary(perfect, {}).has_value());  // nothing to say
  LaunchCoverage launches;
  launches.launches = 6;
  launches.without_device = 4;
  const std::optional<SummaryTable> table = DataQualitySummary(perfect, launches);
  REQUIRE(table.has_value());  // the launches alone make the section
  REQUIRE(table->rows.size() == 1);
  CHECK(table->rows[0].cells[0].text == "kernel launches without a device record");
  CHECK(table->rows[0].cells[1].value == 4);
  CHECK(table->rows[0].cells[2].text.rfind("of 6 launches;", 0) == 0);
  const QualityCounts counts = QualityCountsOf(perfect, launches);
  REQUIRE(counts.size() == 1);
  CHECK(counts[0].second == 4);
  CHECK_FALSE(QualityPerfect(perfect, launches));
  launches.without_device = 0;
  CHECK(!DataQualitySummary(perfect, launches).has_value());
  CHECK(QualityPerfect(perfect, launches));
}

}  // namespace
}  // namespace prof::analyzer
