#include "agent/record/host_rss.h"

#include <cstdlib>
#include <cstring>
#include <vector>

#include <catch2/catch.hpp>

namespace prof {
namespace {

uint64_t Resident(const char* text) {
  uint64_t pages = 0;
  return ParseStatmResidentPages(text, std::strlen(text), &pages) ? pages : ~uint64_t{0};
}

TEST_CASE("statm: the second number is the resident pages") {
  CHECK(Resident("1048576 2345 678 9 0 4096 0\n") == 2345);
  CHECK(Resident("7 0 0 0 0 0 0") == 0);
  CHECK(Resident("") == ~uint64_t{0});
  CHECK(Resident("12") == ~uint64_t{0});
  CHECK(Resident("abc def") == ~uint64_t{0});
  CHECK(Resident("1 99999999999999999999999") == ~uint64_t{0});
}

TEST_CASE("the process's RSS grows by what it touches") {
  const uint64_t before = ReadHostRssBytes();
  REQUIRE(before > 0);
  constexpr size_t kBytes = 64 << 20;
  std::vector<char> touched(kBytes, 1);  // every page written
  const uint64_t after = ReadHostRssBytes();
  CHECK(after >= before + kBytes / 2);  // whatever else the allocator returned meanwhile
  CHECK(touched[kBytes - 1] == 1);
}

}  // namespace
}  // namespace prof
