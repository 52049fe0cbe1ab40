// Figures for the trace format on a realistic mix (70% kernel + launch pairs, 20%
// memcpy/memset, 10% ranges): bytes per event on disk, write and read events per second on
// one core, and, as a baseline measured in the same run, the size of the same events as
// Chrome trace-event JSON (what Kineto and paddle write), and where the bytes go, column by
// column. Prints figures, asserts nothing.
//
//   bazel run -c opt //proto:trace_format_benchmark -- --events=10000000
//   bazel run -c opt //proto:trace_format_benchmark -- --breakdown=TRACE  (any trace file)
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "proto/chunk_decoder.h"
#include "proto/chunk_encoder.h"
#include "proto/file_dictionary.h"
#include "proto/testing/column_bytes.h"
#include "proto/testing/realistic_mix.h"
#include "proto/trace_file_reader.h"
#include "proto/trace_file_writer.h"

namespace prof {
namespace {

constexpr uint64_t kEventsPerChunk = 65536;

// CPU seconds of this thread: on a shared machine, time the encoder spent waiting for a
// core is not counted (the wall-clock rates below count it).
double ThreadCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return now.tv_sec + now.tv_nsec / 1e9;
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// Counts events and, for the baseline, the bytes of their Chrome trace-event JSON.
class MeasuringSink : public EventSink {
 public:
  explicit MeasuringSink(FileDictionary* dictionary, bool format_json)
      : dictionary_(dictionary), format_json_(format_json) {}

  void OnApiCall(const ApiCallEvent& e) override {
    ++events;
    if (!format_json_) return;
    Json(dictionary_->String(e.name), "cuda_runtime", e.start_ns, e.duration_ns, e.thread_id,
         absl::StrFormat("\"correlation\": %d", e.correlation_id));
  }
  void OnHostRange(const HostRangeEvent& e) override {
    ++events;
    if (!format_json_) return;
    Json(dictionary_->String(e.name), "user_annotation", e.start_ns, e.duration_ns, e.thread_id,
         "\"kind\": \"nvtx\"");
  }
  void OnKernel(const KernelEvent& e) override {
    ++events;
    if (!format_json_) return;
    const KernelConfigValue* config = dictionary_->KernelConfig(e.config);
    Json(config ? dictionary_->String(config->name) : "?", "kernel", e.start_ns, e.duration_ns,
         e.where.stream,
         config
             ? absl::StrFormat("\"correlation\": %d, \"grid\": [%d, %d, %d], \"block\": "
                               "[%d, %d, %d], \"registers per thread\": %d, \"shared "
                               "memory\": %d, \"device\": %d, \"context\": %d, \"stream\": %d",
                               e.correlation_id, config->grid[0], config->grid[1], config->grid[2],
                               config->block[0], config->block[1], config->block[2],
                               config->registers_per_thread, config->dynamic_shared_memory,
                               e.where.device, e.where.context, e.where.stream)
             : "");
  }
  void OnMemcpy(const MemcpyEvent& e) override {
    ++events;
    if (!format_json_) return;
    Json("Memcpy HtoD (Pinned -> Device)", "gpu_memcpy", e.start_ns, e.duration_ns, e.where.stream,
         absl::StrFormat("\"correlation\": %d, \"bytes\": %d, \"memory bandwidth (GB/s)\": %.3f",
                         e.correlation_id, e.bytes, 1.0 * e.bytes / (e.duration_ns + 1)));
  }
  void OnMemset(const MemsetEvent& e) override {
    ++events;
    if (!format_json_) return;
    Json("Memset (Device)", "gpu_memset", e.start_ns, e.duration_ns, e.where.stream,
         absl::StrFormat("\"correlation\": %d, \"bytes\": %d", e.correlation_id, e.bytes));
  }

  uint64_t events = 0;
  uint64_t json_bytes = 0;

 private:
  void Json(absl::string_view name, absl::string_view category, uint64_t start, uint64_t duration,
            uint64_t lane, const std::string& args) {
    json_bytes += absl::StrFormat(
                      "  {\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"%s\", \"pid\": %d, "
                      "\"tid\": %d, \"ts\": %.3f, \"dur\": %.3f, \"args\": {%s}},\n",
                      category, name, 4242, lane, start / 1000.0, duration / 1000.0, args)
                      .size();
  }

  FileDictionary* dictionary_;
  bool format_json_;
};

struct WriteFigures {
  uint64_t events = 0;
  uint64_t bytes = 0;
  double seconds = 0;
  double cpu_seconds = 0;
};

// Encodes and writes `events` events. The events are made before the clock starts (one
// block, replayed with shifted times), so only encoding and writing are timed.
WriteFigures Write(const std::string& path, uint64_t events) {
  ChunkEncoder encoder;
  testing::RealisticMix mix(&encoder, 42);
  std::vector<testing::MixedEvent> block;
  while (block.size() < std::min<uint64_t>(events, 1000000)) mix.MakeGroup(&block);

  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = ThreadCpuSeconds();
  auto writer = TraceFileWriter::Create(path, FileHeaderValue());
  if (!writer.ok()) {
    std::fprintf(stderr, "benchmark: %s\n", std::string(writer.status().message()).c_str());
    std::exit(1);
  }
  WriteFigures figures;
  for (uint64_t replay = 0; figures.events < events; ++replay) {
    for (size_t begin = 0; begin < block.size(); begin += kEventsPerChunk) {
      const size_t end = std::min(block.size(), begin + kEventsPerChunk);
      testing::ReplayShifted(absl::MakeConstSpan(block).subspan(begin, end - begin),
                             replay * mix.elapsed_ns(), replay * mix.correlation_ids_used(),
                             &encoder);
      figures.events += end - begin;
      (*writer)->AppendChunk(encoder.Finish(false)).IgnoreError();
    }
  }
  (*writer)->AppendChunk(encoder.Finish(true)).IgnoreError();
  (*writer)->Close().IgnoreError();
  figures.seconds = Seconds(start);
  figures.cpu_seconds = ThreadCpuSeconds() - cpu_start;
  figures.bytes = (*writer)->bytes_written();
  return figures;
}

// Reads the file; with `format_json` also formats every event as Chrome JSON (baseline).
MeasuringSink Read(const std::string& path, double* seconds, bool format_json,
                   double* cpu_seconds = nullptr) {
  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = ThreadCpuSeconds();
  FileDictionary dictionary;
  MeasuringSink sink(&dictionary, format_json);
  auto reader = TraceFileReader::Open(path);
  if (!reader.ok()) std::exit(1);
  trace::Chunk chunk;
  while ((*reader)->Next(&chunk)) {
    dictionary.AddDefinitions(chunk);
    DecodeChunk(chunk, &sink);
  }
  *seconds = Seconds(start);
  if (cpu_seconds != nullptr) *cpu_seconds = ThreadCpuSeconds() - cpu_start;
  return sink;
}

uint64_t ParseEvents(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument.rfind("--events=", 0) == 0)
      return std::strtoull(argument.c_str() + 9, nullptr, 10);
  }
  return 10000000;
}

// The file named by --breakdown=FILE; "" without one.
std::string ParseBreakdown(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument.rfind("--breakdown=", 0) == 0) return argument.substr(12);
  }
  return "";
}

// Prints the per-column bytes of `path`; false (and one line) when it cannot be read.
bool PrintBreakdown(const std::string& path) {
  const testing::ColumnBytes measured = testing::MeasureColumnBytes(path);
  if (!measured.problem.empty()) {
    std::fprintf(stderr, "benchmark: %s\n", measured.problem.c_str());
    return false;
  }
  testing::PrintColumnBytes(measured, stdout);
  return true;
}

}  // namespace
}  // namespace prof

int main(int argc, char** argv) {
  const std::string breakdown = prof::ParseBreakdown(argc, argv);
  if (!breakdown.empty()) return prof::PrintBreakdown(breakdown) ? 0 : 1;
  const uint64_t events = prof::ParseEvents(argc, argv);
  const std::string path = absl::StrFormat("/tmp/trace_format_benchmark.%d.pb", getpid());
  const prof::WriteFigures written = prof::Write(path, events);
  double read_seconds = 0, read_cpu_seconds = 0;
  const prof::MeasuringSink read = prof::Read(path, &read_seconds, false, &read_cpu_seconds);
  double json_seconds = 0;
  const prof::MeasuringSink baseline = prof::Read(path, &json_seconds, true);
  const prof::testing::ColumnBytes columns = prof::testing::MeasureColumnBytes(path);
  std::remove(path.c_str());

  const double n = static_cast<double>(written.events);
  std::printf(
      "trace format benchmark: %llu events (70%% kernel+launch, 20%% memcpy/memset, 10%% ranges), "
      "one thread\n",
      static_cast<unsigned long long>(written.events));
  std::printf("%-34s %14s %14s\n", "figure", "measured", "goal");
  std::printf("%-34s %14.2f %14s\n", "bytes per event on disk", written.bytes / n, "<= 16");
  std::printf("%-34s %14.1f %14s\n", "write, M events/s (encode+write)", n / written.seconds / 1e6,
              ">= 20");
  std::printf("%-34s %14.1f %14s\n", "read, M events/s (read+decode)", n / read_seconds / 1e6,
              ">= 10");
  std::printf("%-34s %14.1f %14s\n", "write, CPU ns per event", written.cpu_seconds * 1e9 / n, "");
  std::printf("%-34s %14.1f %14s\n", "read, CPU ns per event", read_cpu_seconds * 1e9 / n, "");
  std::printf("%-34s %14.1f %14s\n", "baseline: Chrome JSON bytes/event",
              1.0 * baseline.json_bytes / n, "(Kineto 224-319)");
  std::printf("%-34s %14.1f %14s\n", "size ratio, JSON / ours",
              1.0 * baseline.json_bytes / written.bytes, "");
  std::printf("\nwhere the bytes go:\n");
  prof::testing::PrintColumnBytes(columns, stdout);
  return read.events == written.events ? 0 : 1;
}
