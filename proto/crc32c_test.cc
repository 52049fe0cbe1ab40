#include "proto/crc32c.h"

#include <string>

#include <catch2/catch.hpp>

namespace prof {
namespace {

TEST_CASE("crc32c matches the published check value") {
  const std::string check = "123456789";
  CHECK(Crc32c(check.data(), check.size()) == 0xE3069283u);
  CHECK(Crc32cPortable(check.data(), check.size()) == 0xE3069283u);
  CHECK(Crc32c("", 0) == 0u);
}

TEST_CASE("the fast path agrees with the table at every length and alignment") {
  std::string bytes;
  for (int i = 0; i < 300; ++i) bytes.push_back(static_cast<char>(i * 131 + 7));
  for (size_t offset = 0; offset < 8; ++offset) {
    for (size_t length = 0; length + offset <= bytes.size(); length += 13) {
      INFO("offset " << offset << " length " << length);
      CHECK(Crc32c(bytes.data() + offset, length) == Crc32cPortable(bytes.data() + offset, length));
    }
  }
}

}  // namespace
}  // namespace prof
