// Matching and clock fitting on hand-built collective tables, with the offsets, drift and
// problems chosen here: every figure below follows from the inputs by hand.
#include <catch2/catch.hpp>

#include "analyzer/job/clock_fit.h"
#include "analyzer/job/collective_match.h"
#include "proto/schema_enums.h"

namespace prof::analyzer {
namespace {

// A collective that ends at true time `end` on every rank, entered at `enter[rank]`,
// recorded on clocks reading true time + offset[rank] + drift[rank] * true time.
void AddCollective(int64_t sequence, uint64_t end, const std::vector<uint64_t>& enter,
                   const std::vector<double>& offset, const std::vector<double>& drift,
                   std::vector<CollectiveTable>* tables) {
  for (size_t rank = 0; rank < tables->size(); ++rank) {
    auto clock = [&](uint64_t t) {
      return static_cast<uint64_t>(t + offset[rank] + drift[rank] * t);
    };
    CollectiveRecord record;
    record.comm_hash = 0xAB;
    record.sequence = sequence;
    record.operation = schema::NCCL_OPERATION_ALL_REDUCE;
    record.rank_count = static_cast<int32_t>(tables->size());
    record.bytes = 1024;
    record.enter_ns = clock(enter[rank]);
    record.end_ns = clock(end);
    (*tables)[rank].collectives.push_back(record);
  }
}

std::vector<const CollectiveTable*> Pointers(const std::vector<CollectiveTable>& tables) {
  std::vector<const CollectiveTable*> pointers;
  for (const CollectiveTable& table : tables) pointers.push_back(&table);
  return pointers;
}

TEST_CASE(
    "clock fit: offsets and drift recovered from collective ends, relative to the first rank") {
  const std::vector<double> offset = {1e6, -4e6, 2.5e6};
  const std::vector<double> drift = {0, 20e-6, -5e-6};
  std::vector<CollectiveTable> tables(3);
  for (int k = 1; k <= 50; ++k) {
    const uint64_t t = 1000000000ull + k * 10000000ull;
    AddCollective(k, t, {t - 3000000, t - 2000000, t - 1000000}, offset, drift, &tables);
  }
  const CollectiveMatch match = MatchCollectives(Pointers(tables));
  REQUIRE(match.collectives.size() == 50);
  CHECK(match.incomplete == 0);
  const ClockFit fit = FitClocks(match, 3);
  CHECK(fit.reference == 0);
  CHECK(fit.fitted_collectives == 50);
  for (uint32_t rank = 0; rank < 3; ++rank) {
    for (uint64_t t : {1000000000ull, 1250000000ull, 1500000000ull}) {
      const double local = t + offset[rank] + drift[rank] * t;
      const double reference = t + offset[0];
      CHECK(fit.Align(rank, local) == Approx(reference).margin(50));
    }
  }
  CHECK(fit.ranks[1].drift * 1e6 == Approx(20).margin(0.1));
  CHECK(fit.residual_max_ns < 50);
  CHECK(fit.violations == 0);
}

TEST_CASE("clock fit: an end before another rank's arrival is a violation, counted") {
  std::vector<CollectiveTable> tables(2);
  const std::vector<double> none = {0, 0};
  for (int k = 1; k <= 9; ++k) {
    const uint64_t t = 1000000000ull + k * 10000000ull;
    AddCollective(k, t, {t - 100000, t - 50000}, none, none, &tables);
  }
  // Collective 10: rank 1 "arrives" 1 ms after the common end: impossible on aligned clocks.
  AddCollective(10, 1100000000ull, {1099000000ull, 1101000000ull}, none, none, &tables);
  const ClockFit fit = FitClocks(MatchCollectives(Pointers(tables)), 2);
  CHECK(fit.checked == 10);
  CHECK(fit.violations == 1);
}

TEST_CASE("match: missing members named, unnumbered, duplicate and mismatched calls counted") {
  std::vector<CollectiveTable> tables(3);
  const std::vector<double> none = {0, 0, 0};
  AddCollective(1, 2000000, {1000000, 1000000, 1000000}, none, none, &tables);
  AddCollective(2, 4000000, {3000000, 3000000, 3000000}, none, none, &tables);
  tables[2].collectives.pop_back();                                // rank 2 misses sequence 2
  tables[0].collectives.push_back(tables[0].collectives.front());  // a duplicate of sequence 1
  tables[1].collectives.back().bytes = 2048;  // rank 1 disagrees on sequence 2's size
  CollectiveRecord unnumbered = tables[0].collectives.front();
  unnumbered.sequence = 0;
  tables[0].collectives.push_back(unnumbered);
  const CollectiveMatch match = MatchCollectives(Pointers(tables));
  REQUIRE(match.collectives.size() == 2);
  CHECK(match.collectives[0].complete);
  CHECK(!match.collectives[1].complete);
  CHECK(match.incomplete == 1);
  CHECK(match.missing_per_rank == std::vector<uint64_t>{0, 0, 1});
  CHECK(match.duplicates == 1);
  CHECK(match.mismatched == 1);
  CHECK(match.unnumbered == 1);
  CHECK(match.calls_per_rank == std::vector<uint64_t>{4, 2, 1});
}

}  // namespace
}  // namespace prof::analyzer
