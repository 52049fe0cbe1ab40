// The reader against CRC-valid hostile files (issue 16): resynchronization over fake frame
// headers does work linear in the file size (counted, not timed), a frame header claiming
// more than the file holds allocates nothing, and a frame whose parse would expand far
// beyond its size is refused, with the process's peak memory measured in a forked child.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

#include "proto/chunk_guard.h"
#include "proto/framing.h"
#include "proto/testing/frame_bytes.h"
#include "proto/testing/sample_trace.h"
#include "proto/trace_file_reader.h"

namespace prof {
namespace {

// A valid preamble and header frame.
std::string FileStart() {
  return testing::PreambleBytes() +
         testing::FrameBytes(FrameType::kFileHeader, testing::SampleHeader().SerializeAsString());
}

// `bytes` of valid 20-byte frame headers, each claiming a 60 MiB payload that is not there.
std::string FakeHeaders(size_t bytes) { return testing::FakeFrameHeaders(bytes, 60u << 20, 1); }

// A source whose size is not known up front, like a pipe.
class UnsizedSource : public ByteSource {
 public:
  explicit UnsizedSource(const std::string& bytes) : inner_(MakeMemorySource(bytes)) {}
  absl::StatusOr<size_t> Read(uint8_t* out, size_t max_bytes) override {
    return inner_->Read(out, max_bytes);
  }

 private:
  std::unique_ptr<ByteSource> inner_;
};

TraceFileReader::Work ReadAllCountingWork(std::unique_ptr<ByteSource> source, size_t* buffer_bytes,
                                          uint64_t* chunks) {
  auto reader = TraceFileReader::OpenSource(std::move(source), "fake headers");
  REQUIRE(reader.ok());
  trace::Chunk chunk;
  *chunks = 0;
  while ((*reader)->Next(&chunk)) ++*chunks;
  CHECK((*reader)->report().bytes_skipped > 0);
  *buffer_bytes = (*reader)->peak_buffer_bytes();
  return (*reader)->work();
}

TEST_CASE("resynchronizing over MiBs of fake frame headers does linear work") {
  const std::string file = FileStart() + FakeHeaders(4u << 20) +
                           testing::MakeSampleTrace(1, 2).bytes.substr(kPreambleSize);
  for (bool sized : {true, false}) {
    INFO((sized ? "file-like source" : "pipe-like source"));
    size_t buffer_bytes = 0;
    uint64_t chunks = 0;
    std::unique_ptr<ByteSource> source =
        sized ? MakeMemorySource(file) : std::make_unique<UnsizedSource>(file);
    const TraceFileReader::Work work =
        ReadAllCountingWork(std::move(source), &buffer_bytes, &chunks);
    CHECK(chunks == 1);  // the real chunk after the fake headers is still found
    // Each byte is moved at most a few times and each fake header examined once.
    CHECK(work.bytes_moved <= 2 * file.size());
    CHECK(work.payload_bytes_checked <= 2 * file.size());
    CHECK(work.headers_examined <= file.size() / kFrameHeaderSize + 16);
    // Memory: never the 60 MiB the headers claim.
    CHECK(buffer_bytes <= 2 * file.size() + (1u << 20));
  }
}

// Reads `file` in a forked child; the growth of its peak resident memory while reading.
uint64_t PeakGrowthReading(const std::string& file, uint64_t* chunks_read) {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    std::ofstream("/proc/self/clear_refs") << "5";  // VmHWM := VmRSS
    auto status_kb = [](const char* field) {
      std::ifstream status("/proc/self/status");
      std::string line;
      while (std::getline(status, line)) {
        if (line.rfind(field, 0) == 0) return std::strtoull(line.c_str() + 6, nullptr, 10);
      }
      return 0ull;
    };
    const uint64_t baseline = status_kb("VmRSS");
    uint64_t result[2] = {0, 0};
    auto reader = TraceFileReader::OpenSource(MakeMemorySource(file), "expanding");
    trace::Chunk chunk;
    while (reader.ok() && (*reader)->Next(&chunk)) ++result[1];
    result[0] = (status_kb("VmHWM") - baseline) * 1024;
    (void)!write(fds[1], result, sizeof(result));
    _exit(0);
  }
  close(fds[1]);
  uint64_t result[2] = {0, 0};
  REQUIRE(read(fds[0], result, sizeof(result)) == sizeof(result));
  close(fds[0]);
  waitpid(child, nullptr, 0);
  *chunks_read = result[1];
  return result[0];
}

// 2 x `count` bytes: `count` empty ThreadEvents (a message object each once parsed).
std::string EmptyThreads(size_t count) {
  std::string payload;
  for (size_t i = 0; i < count; ++i) payload += std::string("\x2a\x00", 2);
  return payload;
}

// One ThreadEvents whose ApiCalls.duration_ns holds `count` one-byte varints (8 bytes each
// once parsed).
std::string PackedOnes(size_t count) {
  trace::Chunk chunk;
  trace::ApiCalls* calls = chunk.add_threads()->mutable_api_calls();
  for (size_t i = 0; i < count; ++i) calls->add_duration_ns(1);
  return chunk.SerializeAsString();
}

TEST_CASE("the parse limit: 8x a frame, at most 64 MiB") {
  CHECK(ParsedBytesLimit(1000) == 8000 + kParsedBytesSlack);
  CHECK(ParsedBytesLimit(kMaxFramePayloadSize) == (64u << 20));
}

TEST_CASE("a frame whose parse would pass the limit is refused, within the memory bound") {
  // Before the guard: 8 MiB of empty threads parsed into ~400 MiB; 20 MiB of packed ones
  // into 160 MiB (and up to 480 MiB while the field grows).
  for (const std::string& payload : {EmptyThreads(4u << 20), PackedOnes(20u << 20)}) {
    const std::string file = FileStart() + testing::FrameBytes(FrameType::kChunk, payload);
    uint64_t chunks = 0;
    const uint64_t growth = PeakGrowthReading(file, &chunks);
    INFO("peak growth " << growth / 1024 << " KiB for a " << payload.size() / 1024 << " KiB frame");
    CHECK(chunks == 0);
    CHECK(growth <= 3 * payload.size() + (4u << 20));  // refused: about the frame's bytes
  }
}

TEST_CASE("a frame inside the limit is read, within the stated bound") {
  const std::string payload = PackedOnes(4u << 20);  // 4 MiB, 32 MiB parsed
  const std::string file = FileStart() + testing::FrameBytes(FrameType::kChunk, payload);
  uint64_t chunks = 0;
  const uint64_t growth = PeakGrowthReading(file, &chunks);
  INFO("peak growth " << growth / 1024 << " KiB for a " << payload.size() / 1024 << " KiB frame");
  CHECK(chunks == 1);
  CHECK(growth <= 3 * payload.size() / 2 + 3 * ParsedBytesLimit(payload.size()) + (4u << 20));
}

TEST_CASE("the estimate counts each element of a packed column, whatever its varint size") {
  trace::SparseColumn column;
  // 11 uint64 values of 1 to 10 wire bytes (29 bytes: not a multiple of the 8 counted at
  // once), 9 uint32 ones of 1 to 5.
  for (uint64_t value : {uint64_t{1}, uint64_t{300}, uint64_t{1} << 40, uint64_t{5}, ~uint64_t{0},
                         uint64_t{127}, uint64_t{128}, uint64_t{0}, uint64_t{1} << 20,
                         uint64_t{1} << 63, uint64_t{77}})
    column.add_value(value);
  for (uint32_t delta : {1u, 2u, 200u, 70000u, ~0u, 0u, 3u, 1u << 28, 9u})
    column.add_index_delta(delta);
  const std::string payload = column.SerializeAsString();
  const uint64_t estimate = ParsedBytesEstimate(trace::SparseColumn::descriptor(),
                                                reinterpret_cast<const uint8_t*>(payload.data()),
                                                payload.size(), ~uint64_t{0});
  CHECK(estimate == 11 * 8 + 9 * 4);
}

TEST_CASE("realistic chunks are far inside the expansion limit") {
  const testing::SampleTrace sample = testing::MakeSampleTrace(3, 200);
  auto reader = TraceFileReader::OpenSource(MakeMemorySource(sample.bytes), "sample");
  REQUIRE(reader.ok());
  trace::Chunk chunk;
  int chunks = 0;
  while ((*reader)->Next(&chunk)) {
    const std::string payload = chunk.SerializeAsString();
    const uint64_t estimate = ParsedBytesEstimate(trace::Chunk::descriptor(),
                                                  reinterpret_cast<const uint8_t*>(payload.data()),
                                                  payload.size(), ~uint64_t{0});
    INFO("estimate " << estimate << " for " << payload.size() << " bytes");
    CHECK(estimate <= ParsedBytesLimit(payload.size()));
    CHECK(estimate >= payload.size());  // it does count the parsed columns
    ++chunks;
  }
  CHECK(chunks == 3);
  CHECK((*reader)->report().complete());
}

}  // namespace
}  // namespace prof
