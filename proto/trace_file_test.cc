#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "proto/chunk_decoder.h"
#include "proto/chunk_encoder.h"
#include "proto/file_dictionary.h"
#include "proto/framing.h"
#include "proto/header_message.h"
#include "proto/testing/event_strings.h"
#include "proto/testing/sample_trace.h"
#include "proto/trace_file_reader.h"
#include "proto/trace_file_writer.h"

namespace prof {
namespace {

using testing::MakeSampleTrace;
using testing::SampleTrace;

std::string TempPath(const std::string& name) {
  const char* directory = std::getenv("TEST_TMPDIR");
  return std::string(directory ? directory : "/tmp") + "/" + name;
}

struct ReadResult {
  bool opened = false;
  std::string open_error;
  std::vector<uint64_t> sequences;
  ReadReport report;
};

ReadResult ReadAll(const std::string& bytes) {
  ReadResult result;
  auto reader = TraceFileReader::OpenSource(MakeMemorySource(bytes), "memory");
  if (!reader.ok()) {
    result.open_error = std::string(reader.status().message());
    return result;
  }
  result.opened = true;
  trace::Chunk chunk;
  while ((*reader)->Next(&chunk)) result.sequences.push_back(chunk.sequence());
  result.report = (*reader)->report();
  return result;
}

bool HasIssue(const ReadReport& report, ReadIssue::Kind kind) {
  for (const ReadIssue& issue : report.issues) {
    if (issue.kind == kind) return true;
  }
  return false;
}

TEST_CASE("a written file reads back whole: header, every chunk, every event") {
  const std::string path = TempPath("whole.pb");
  const trace::FileHeader header = testing::SampleHeader();
  std::vector<std::vector<std::string>> expected(3);
  {
    auto writer = CreateTraceFileWriter(path, header);
    REQUIRE(writer.ok());
    ChunkEncoder encoder;
    for (int chunk = 0; chunk < 3; ++chunk) {
      testing::AddEveryEventKind(&encoder, chunk, 10, &expected[chunk]);
      REQUIRE((*writer)->AppendChunk(encoder.Finish(chunk == 2)).ok());
    }
    REQUIRE((*writer)->Close().ok());
  }
  auto reader = TraceFileReader::Open(path);
  REQUIRE(reader.ok());
  CHECK((*reader)->header().host_name() == "testhost");
  CHECK((*reader)->header().rank() == 1);
  CHECK((*reader)->header().window_index() == 2);
  CHECK((*reader)->header().format_version() == kFormatVersion);
  CHECK((*reader)->header().config().at("PROF_SCHEDULE") == "skip_first=1,record=2");
  CHECK((*reader)->header().clock_anchors(0).cupti_ns() == 1005000000000);

  FileDictionary dictionary;
  trace::Chunk chunk;
  int index = 0;
  while ((*reader)->Next(&chunk)) {
    REQUIRE(index < 3);
    dictionary.AddDefinitions(chunk);
    testing::RecordingSink sink;
    DecodeChunk(chunk, &sink);
    std::sort(sink.events.begin(), sink.events.end());
    std::sort(expected[index].begin(), expected[index].end());
    CHECK(sink.events == expected[index]);
    ++index;
  }
  CHECK(index == 3);
  CHECK((*reader)->report().complete());
  CHECK((*reader)->report().saw_last_chunk);
  CHECK(dictionary.String(1) == "cudaLaunchKernel");
  CHECK(dictionary.unknown_references() == 0);
}

TEST_CASE("a file cut at every byte offset returns exactly the complete chunks") {
  const SampleTrace sample = MakeSampleTrace(4, 2);
  for (size_t length = 0; length <= sample.bytes.size(); ++length) {
    INFO("cut at " << length << " of " << sample.bytes.size());
    const ReadResult result = ReadAll(sample.bytes.substr(0, length));
    if (length < kPreambleSize) {
      CHECK_FALSE(result.opened);
      CHECK(result.open_error.find("not a profiler trace") != std::string::npos);
      continue;
    }
    REQUIRE(result.opened);
    size_t complete_chunks = 0;
    while (complete_chunks < sample.chunk_ends.size() &&
           sample.chunk_ends[complete_chunks] <= length) {
      ++complete_chunks;
    }
    REQUIRE(result.sequences.size() == complete_chunks);
    for (size_t i = 0; i < complete_chunks; ++i) CHECK(result.sequences[i] == i);
    CHECK(result.report.header_read == (length >= sample.header_end));
    CHECK(result.report.complete() == (length == sample.bytes.size()));
    // Every byte is accounted for: read as part of a frame, or reported as skipped.
    const uint64_t frame_bytes = complete_chunks == 0 ? 0 : sample.chunk_ends[complete_chunks - 1];
    const uint64_t read_end = std::max<uint64_t>(
        frame_bytes, result.report.header_read ? sample.header_end : kPreambleSize);
    CHECK(result.report.bytes_skipped == length - read_end);
  }
}

TEST_CASE("every single-bit flip is detected, and the other chunks are still read") {
  const SampleTrace sample = MakeSampleTrace(3, 2);
  const size_t chunk_count = sample.chunk_ends.size();
  for (size_t bit = 0; bit < sample.bytes.size() * 8; ++bit) {
    std::string damaged = sample.bytes;
    damaged[bit / 8] = static_cast<char>(damaged[bit / 8] ^ (1 << (bit % 8)));
    INFO("bit " << bit << " (byte " << bit / 8 << ")");
    const ReadResult result = ReadAll(damaged);
    if (!result.opened) {
      // Only the version field of the preamble may make the file unopenable, and then
      // the message says why.
      CHECK(bit / 8 < kPreambleSize);
      CHECK(result.open_error.find("version") != std::string::npos);
      continue;
    }
    CHECK_FALSE(result.report.complete());
    if (bit / 8 < sample.header_end) {
      CHECK(result.sequences.size() == chunk_count);  // preamble or header: no chunk lost
    } else {
      CHECK(result.sequences.size() == chunk_count - 1);
    }
  }
}

TEST_CASE("garbage between chunks is skipped and reported; all chunks are read") {
  const SampleTrace sample = MakeSampleTrace(3, 2);
  std::string damaged = sample.bytes;
  damaged.insert(sample.chunk_ends[0], std::string(1000, 'P'));  // looks like frame magic
  const ReadResult result = ReadAll(damaged);
  REQUIRE(result.opened);
  CHECK(result.sequences.size() == 3);
  CHECK(result.report.bytes_skipped == 1000);
  CHECK(HasIssue(result.report, ReadIssue::Kind::kCorruptBytes));
  CHECK(result.report.issue_count == 1);
}

TEST_CASE("a chunk missing from the middle is named by its sequence number") {
  const SampleTrace sample = MakeSampleTrace(4, 1);
  std::string damaged = sample.bytes;
  damaged.erase(sample.chunk_ends[0], sample.chunk_ends[1] - sample.chunk_ends[0]);
  const ReadResult result = ReadAll(damaged);
  REQUIRE(result.opened);
  CHECK(result.sequences == std::vector<uint64_t>{0, 2, 3});
  CHECK(result.report.chunks_missing == 1);
  REQUIRE(HasIssue(result.report, ReadIssue::Kind::kMissingChunks));
  CHECK(result.report.Describe()[0].find("chunks 1 to 1 are missing") != std::string::npos);
}

TEST_CASE("a file without its final chunk says the program may have been killed") {
  const SampleTrace sample = MakeSampleTrace(2, 1);
  const ReadResult result = ReadAll(sample.bytes.substr(0, sample.chunk_ends[0]));
  REQUIRE(result.opened);
  CHECK(result.sequences.size() == 1);
  CHECK_FALSE(result.report.saw_last_chunk);
  REQUIRE(result.report.issue_count == 1);
  CHECK(result.report.Describe()[0].find("killed") != std::string::npos);
}

TEST_CASE("a newer format version is refused with a message that says so") {
  SampleTrace sample = MakeSampleTrace(1, 1);
  uint8_t preamble[kPreambleSize];
  EncodePreamble(Preamble{kFormatVersion + 1}, preamble);
  sample.bytes.replace(0, kPreambleSize, reinterpret_cast<const char*>(preamble), kPreambleSize);
  const ReadResult result = ReadAll(sample.bytes);
  CHECK_FALSE(result.opened);
  CHECK(result.open_error.find("newer than this reader") != std::string::npos);
  CHECK(result.open_error.find("use a newer profanalyze") != std::string::npos);
}

TEST_CASE("files that are not traces are refused with one clear message") {
  for (const std::string& bytes : {std::string(), std::string("{\"traceEvents\": []}\n"),
                                   std::string(4096, '\0'), std::string(100000, 'P')}) {
    const ReadResult result = ReadAll(bytes);
    CHECK_FALSE(result.opened);
    CHECK(result.open_error.find("not a profiler trace") != std::string::npos);
  }
  auto missing = TraceFileReader::Open(TempPath("does-not-exist.pb"));
  CHECK(missing.status().code() == absl::StatusCode::kNotFound);
  auto folder = TraceFileReader::Open(TempPath(""));
  CHECK(std::string(folder.status().message()).find("is a folder") != std::string::npos);
}

TEST_CASE("writing into a folder that does not exist fails with a clear status") {
  auto writer = CreateTraceFileWriter(TempPath("no/such/folder/x.pb"), testing::SampleHeader());
  CHECK(writer.status().code() == WriteStatus::Code::kNotFound);
  CHECK(std::string(writer.status().message()).find("cannot create trace file") !=
        std::string::npos);
}

TEST_CASE("a full disk is reported as resource exhausted") {
  std::ifstream probe("/dev/full");
  if (!probe.good()) return;  // no /dev/full in this sandbox
  auto writer = CreateTraceFileWriter("/dev/full", testing::SampleHeader());
  REQUIRE_FALSE(writer.ok());
  CHECK(writer.status().code() == WriteStatus::Code::kResourceExhausted);
}

}  // namespace
}  // namespace prof
