#include "agent/control/config_values.h"

#include <cstdint>
#include <limits>
#include <string>

#include <catch2/catch.hpp>

namespace prof {
namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

bool Parses(const std::string& text, int64_t expected, int64_t minimum = kMin,
            int64_t maximum = kMax) {
  int64_t value = 12345;
  return ParseBoundedInteger(text, minimum, maximum, &value) && value == expected;
}

bool Refused(const std::string& text, int64_t minimum = kMin, int64_t maximum = kMax) {
  int64_t value = 12345;
  return !ParseBoundedInteger(text, minimum, maximum, &value) && value == 12345;
}

TEST_CASE("integers: the whole int64 range, nothing beyond it, nothing wrapped") {
  CHECK(Parses("9223372036854775807", kMax));
  CHECK(Parses("-9223372036854775808", kMin));
  CHECK(Refused("9223372036854775808"));
  CHECK(Refused("-9223372036854775809"));
  CHECK(Refused("18446744073709551616"));  // 2^64: would wrap to 0
  CHECK(Refused("18446744073709551617"));  // 2^64 + 1: would wrap to 1
  CHECK(Refused("92233720368547758070"));  // INT64_MAX * 10
  CHECK(Refused(std::string(5000, '9')));
  CHECK(Parses(std::string(5000, '0') + "7", 7));  // leading zeros are only zeros
}

TEST_CASE("integers: bounds, whitespace and garbage") {
  CHECK(Parses(" 16\t", 16, 1, 65536));
  CHECK(Refused("0", 1, 65536));
  CHECK(Refused("65537", 1, 65536));
  CHECK(Refused("-1", 0, 10));
  for (const char* bad :
       {"", " ", "-", "+", "+5", "1e3", "0x10", "12abc", "1 2", "1.0", "--1", "\xff"}) {
    CHECK(Refused(bad));
  }
}

TEST_CASE("flags: one set of spellings") {
  for (const char* on : {"1", "true", "TRUE", " yes ", "On"}) CHECK(ParseFlagText(on) == true);
  for (const char* off : {"0", "false", "No", "\toff\n"}) CHECK(ParseFlagText(off) == false);
  for (const char* bad : {"", "2", "-1", "y", "enable", "1 1", "truee"})
    CHECK_FALSE(ParseFlagText(bad));
}

TEST_CASE("a value in a warning is one short line") {
  CHECK(ShowValue("a\nb\tc\x01") == "a\\nb\\tc\\x01");
  CHECK(ShowValue(std::string(100, 'x')) == std::string(64, 'x') + "...");
  CHECK(ConfigWarning("PROF_X", "v\n", "is bad\n", "1\n") == "PROF_X='v\\n' is bad\\n; using 1\\n");
}

}  // namespace
}  // namespace prof
