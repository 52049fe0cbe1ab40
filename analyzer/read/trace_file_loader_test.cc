#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "analyzer/read/input_paths.h"
#include "analyzer/read/trace_file_loader.h"
#include "analyzer/testing/test_trace.h"

namespace prof::analyzer {
namespace {

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

void WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// Three chunks of 10 kernel launches each.
std::string ThreeChunkTrace(const std::string& name) {
  testing::TestTrace trace;
  for (int chunk = 0; chunk < 3; ++chunk) {
    for (int i = 0; i < 10; ++i) {
      const uint64_t t = chunk * 100000 + i * 1000;
      trace.Launch(1, t, t + 10, "k", 0, 7, t + 100, t + 200);
    }
    if (chunk < 2) trace.NextChunk();
  }
  return trace.Write(name);
}

TEST_CASE("a whole file reads with perfect quality") {
  absl::StatusOr<TraceModel> model = LoadTraceFile(ThreeChunkTrace("whole.pb"));
  REQUIRE(model.ok());
  CHECK(model->event_count == 60);
  CHECK(model->quality.Perfect());
}

TEST_CASE("a truncated file reads partially and says so") {
  const std::string path = ThreeChunkTrace("truncated.pb");
  const std::string bytes = ReadBytes(path);
  WriteBytes(path, bytes.substr(0, bytes.size() - 40));
  absl::StatusOr<TraceModel> model = LoadTraceFile(path);
  REQUIRE(model.ok());
  CHECK(model->event_count == 40);  // the last chunk is lost whole
  CHECK(model->quality.files_without_last_chunk == 1);
  CHECK_FALSE(model->quality.reader_issues.empty());
  CHECK_FALSE(model->quality.Perfect());
}

TEST_CASE("a corrupt chunk is skipped and counted; the others are read") {
  const std::string path = ThreeChunkTrace("corrupt.pb");
  std::string bytes = ReadBytes(path);
  const size_t middle = bytes.size() / 2;
  bytes[middle] = static_cast<char>(bytes[middle] ^ 0x5a);
  WriteBytes(path, bytes);
  absl::StatusOr<TraceModel> model = LoadTraceFile(path);
  REQUIRE(model.ok());
  CHECK(model->event_count == 40);
  CHECK(model->quality.chunks_missing >= 1);
}

TEST_CASE("bad input gives one clear message") {
  const std::string not_trace = testing::TempPath("hello.txt");
  WriteBytes(not_trace, "hello, this is not a trace at all");
  absl::StatusOr<TraceModel> model = LoadTraceFile(not_trace);
  REQUIRE_FALSE(model.ok());
  CHECK(std::string(model.status().message()).find("not a profiler trace") != std::string::npos);

  const std::string missing = testing::TempPath("missing.pb");
  CHECK_FALSE(LoadTraceFile(missing).ok());
  CHECK_FALSE(ExpandInputPaths({missing}).ok());
}

TEST_CASE("an empty recording window reads as zero events") {
  testing::TestTrace trace;
  absl::StatusOr<TraceModel> model = LoadTraceFile(trace.Write("empty.pb"));
  REQUIRE(model.ok());
  CHECK(model->event_count == 0);
}

TEST_CASE("agent losses reach the data quality counts") {
  testing::TestTrace trace;
  trace.Loss(schema::LOSS_KIND_CUPTI_DROPPED, 7);
  trace.Launch(1, 0, 10, "k", 0, 7, 20, 30);
  absl::StatusOr<TraceModel> model = LoadTraceFile(trace.Write("losses.pb"));
  REQUIRE(model.ok());
  CHECK(model->quality.losses.at("LOSS_KIND_CUPTI_DROPPED") == 7);
}

}  // namespace
}  // namespace prof::analyzer
