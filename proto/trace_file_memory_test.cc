// Reading is streaming: a 10M-event file is read with memory that does not grow with the
// file. The bound is checked on the reader's own buffer (exact) and on the process's
// peak resident memory while reading, measured in a forked child.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

#include "proto/chunk_decoder.h"
#include "proto/chunk_encoder.h"
#include "proto/file_dictionary.h"
#include "proto/testing/realistic_mix.h"
#include "proto/trace_file_reader.h"
#include "proto/trace_file_writer.h"

namespace prof {
namespace {

constexpr uint64_t kEvents = 10000000;
constexpr uint64_t kEventsPerChunk = 65536;
// Stated bound: reading any number of events grows peak RSS by at most this much.
constexpr uint64_t kReadMemoryBoundBytes = 16ull << 20;

class CountingSink : public EventSink {
 public:
  void OnApiCall(const ApiCallEvent&) override { ++events; }
  void OnHostRange(const HostRangeEvent&) override { ++events; }
  void OnKernel(const KernelEvent&) override { ++events; }
  void OnMemcpy(const MemcpyEvent&) override { ++events; }
  void OnMemset(const MemsetEvent&) override { ++events; }
  uint64_t events = 0;
};

uint64_t ProcStatusKilobytes(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field + ":", 0) == 0)
      return std::strtoull(line.c_str() + field.size() + 1, nullptr, 10);
  }
  return 0;
}

std::string WriteLargeTrace() {
  const char* directory = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(directory ? directory : "/tmp") + "/large.pb";
  auto writer = TraceFileWriter::Create(path, FileHeaderValue());
  REQUIRE(writer.ok());
  ChunkEncoder encoder;
  testing::RealisticMix mix(&encoder, 1);
  for (uint64_t written = 0; written < kEvents; written += testing::RealisticMix::kEventsPerGroup) {
    mix.AddGroup();
    if (encoder.pending_events() >= kEventsPerChunk) {
      REQUIRE((*writer)->AppendChunk(encoder.Finish(false)).ok());
    }
  }
  REQUIRE((*writer)->AppendChunk(encoder.Finish(true)).ok());
  REQUIRE((*writer)->Close().ok());
  return path;
}

struct ChildReport {
  uint64_t events = 0;
  uint64_t peak_growth_bytes = 0;
  uint64_t reader_buffer_bytes = 0;
  int reset_peak = 0;  // 1 when /proc/self/clear_refs reset the peak
};

// Runs in the child: reads the whole file and reports through `fd`.
void ReadInChild(const std::string& path, int fd) {
  ChildReport report;
  {
    std::ofstream clear("/proc/self/clear_refs");
    clear << "5";  // resets VmHWM to the current RSS
    report.reset_peak = clear.good() ? 1 : 0;
  }
  const uint64_t baseline_kb = ProcStatusKilobytes("VmRSS");
  auto reader = TraceFileReader::Open(path);
  if (reader.ok()) {
    FileDictionary dictionary;
    CountingSink sink;
    trace::Chunk chunk;
    while ((*reader)->Next(&chunk)) {
      dictionary.AddDefinitions(chunk);
      DecodeChunk(chunk, &sink);
    }
    report.events = sink.events;
    report.reader_buffer_bytes = (*reader)->peak_buffer_bytes();
  }
  report.peak_growth_bytes = (ProcStatusKilobytes("VmHWM") - baseline_kb) * 1024;
  (void)!write(fd, &report, sizeof(report));
  _exit(0);
}

TEST_CASE("reading a 10M-event file stays under the stated memory bound") {
  const std::string path = WriteLargeTrace();
  int pipe_fds[2];
  REQUIRE(pipe(pipe_fds) == 0);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) ReadInChild(path, pipe_fds[1]);
  close(pipe_fds[1]);
  ChildReport report;
  REQUIRE(read(pipe_fds[0], &report, sizeof(report)) == sizeof(report));
  int status = 0;
  waitpid(child, &status, 0);
  CHECK(report.events >= kEvents);
  // The reader holds one frame: its buffer is bounded by the chunk size, not the file.
  CHECK(report.reader_buffer_bytes <= (2u << 20));
  INFO("peak RSS growth while reading: " << report.peak_growth_bytes / 1024 << " KiB");
  if (report.reset_peak) CHECK(report.peak_growth_bytes <= kReadMemoryBoundBytes);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace prof
