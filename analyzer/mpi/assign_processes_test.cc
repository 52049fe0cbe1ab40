// Largest first onto the least-loaded worker; shares survive their encoding.
#include "analyzer/mpi/assign_processes.h"

#include <catch2/catch.hpp>

namespace prof::analyzer {
namespace {

ProcessFiles Process(const std::string& name) {
  ProcessFiles process;
  process.paths = {name + ".0.pb", name + ".1.pb"};
  return process;
}

TEST_CASE("assign: largest first, each to the least-loaded worker") {
  const std::vector<ProcessFiles> processes = {Process("a"), Process("b"), Process("c"),
                                               Process("d"), Process("e")};
  // By hand: e(9) -> w0 = 9; b(7) -> w1 = 7; d(5) -> w1 = 12 (7 < 9); c(4) -> w0 = 13
  // (9 < 12); a(1) -> w1 = 13 (12 < 13).
  const auto shares = AssignLargestFirst(processes, {1, 7, 4, 5, 9}, 2);
  REQUIRE(shares.size() == 2);
  REQUIRE(shares[0].size() == 2);
  CHECK(shares[0][0].paths[0] == "e.0.pb");
  CHECK(shares[0][1].paths[0] == "c.0.pb");
  REQUIRE(shares[1].size() == 3);
  CHECK(shares[1][0].paths[0] == "b.0.pb");
  CHECK(shares[1][1].paths[0] == "d.0.pb");
  CHECK(shares[1][2].paths[0] == "a.0.pb");
}

TEST_CASE("assign: more workers than processes leaves some idle, none lost") {
  const auto shares = AssignLargestFirst({Process("a")}, {3}, 3);
  REQUIRE(shares.size() == 3);
  CHECK(shares[0].size() == 1);
  CHECK(shares[1].empty());
  CHECK(shares[2].empty());
}

TEST_CASE("assign: a share round-trips through its encoding") {
  const std::vector<ProcessFiles> share = {Process("/x/rank 1"), Process("y")};
  const std::vector<ProcessFiles> decoded = DecodeShare(EncodeShare(share));
  REQUIRE(decoded.size() == 2);
  CHECK(decoded[0].paths == share[0].paths);
  CHECK(decoded[1].paths == share[1].paths);
  CHECK(DecodeShare("").empty());
  CHECK(DecodeShare(std::string("a.pb\0\0b.p", 10)).size() == 1);  // unterminated tail dropped
}

}  // namespace
}  // namespace prof::analyzer
