// Log: every message is exactly one whole line on stderr, whatever its text.
#include "agent/control/log.h"

#include <catch2/catch.hpp>
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace prof {
namespace {

// Runs `body` with file descriptor 2 sent to a temporary file; returns what was written.
template <typename Body>
std::string CaptureStderr(Body body) {
  const char* dir = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(dir ? dir : "/tmp") + "/log_test_stderr";
  const int file = open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
  REQUIRE(file >= 0);
  const int saved = dup(2);
  dup2(file, 2);
  body();
  dup2(saved, 2);
  close(saved);
  std::string text;
  char buffer[4096];
  lseek(file, 0, SEEK_SET);
  for (ssize_t got; (got = read(file, buffer, sizeof(buffer))) > 0;) text.append(buffer, got);
  close(file);
  return text;
}

TEST_CASE("a message is one line with the prefix and one newline") {
  SetLogLevel(LogLevel::kWarn);
  CHECK(CaptureStderr([] { Log(LogLevel::kWarn, "value %d", 7); }) == "libprof: value 7\n");
  CHECK(CaptureStderr([] { Log(LogLevel::kInfo, "filtered"); }).empty());
}

TEST_CASE("newlines inside a message never split or double the line") {
  SetLogLevel(LogLevel::kWarn);
  // A library's error text (dlerror, CUPTI) may carry its own newline.
  CHECK(CaptureStderr([] { Log(LogLevel::kWarn, "dlopen: %s", "no such file\n"); }) ==
        "libprof: dlopen: no such file\n");
  CHECK(CaptureStderr([] { Log(LogLevel::kWarn, "first\nsecond\r\n"); }) ==
        "libprof: first second\n");
}

TEST_CASE("a message too long for one line is cut, marked, and still ends the line") {
  SetLogLevel(LogLevel::kWarn);
  const std::string long_text(5000, 'x');
  const std::string line = CaptureStderr([&] { Log(LogLevel::kWarn, "%s", long_text.c_str()); });
  REQUIRE(line.size() <= 1024);
  CHECK(line.rfind("libprof: xxx", 0) == 0);
  CHECK(line.substr(line.size() - 4) == "...\n");
  CHECK(line.find('\n') == line.size() - 1);
}

}  // namespace
}  // namespace prof
