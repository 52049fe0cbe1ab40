// Figures for the analyzer (prints, asserts nothing): writes a synthetic trace of N
// events shaped like training steps (70% launch+kernel pairs, 20% copy/memset pairs,
// 10% operator and user ranges, a step every 5000 events), then times file -> model ->
// every table on one thread, and reports events/s per core and peak RSS. Per core means
// per CPU second (user + system time of the analysis), so a loaded machine does not
// distort it; the wall-clock figure is printed beside it.
//
//   bazel run -c opt //analyzer/bench:analyzer_benchmark -- --events=10000000
//   analyzer_benchmark --events=10000000 --write=/tmp/t.pb   (writes the trace, keeps it,
//                                                            analyzes nothing; see run_benchmark.sh)
//   analyzer_benchmark --events=10000000 --windows=10 --write=/tmp/run
//       (the same timeline cut at step boundaries into 10 window files of one process, in
//        the folder /tmp/run, as a cycling PROF_SCHEDULE writes them)
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>

#include "absl/strings/str_format.h"
#include "analyzer/read/trace_file_loader.h"
#include "analyzer/summary/report.h"
#include "proto/chunk_encoder.h"
#include "proto/trace_file_writer.h"

namespace prof::analyzer {
namespace {

constexpr uint64_t kCuptiOffset = 3000000000000ull;
constexpr uint64_t kThread = 31337;

class SyntheticTrace {
 public:
  explicit SyntheticTrace(ChunkEncoder* encoder) { Rebind(encoder); }

  // Continues the same timeline in another file: names are interned per file.
  void Rebind(ChunkEncoder* encoder) {
    encoder_ = encoder;
    kernels_.clear();
    operators_.clear();
    for (int i = 0; i < 30; ++i) {
      KernelConfigValue config;
      config.name = encoder_->InternString(absl::StrFormat("void kernel_%d<float, %d>(float*, int)", i, i * 7));
      config.grid[0] = 80;
      config.block[0] = 256;
      kernels_.push_back(encoder_->InternKernelConfig(config));
    }
    for (const char* name : {"aten::linear", "aten::relu", "aten::add", "aten::mm", "aten::softmax", "aten::copy_"}) {
      operators_.push_back(encoder_->InternString(name));
    }
    user_ = encoder_->InternString("my_block");
    launch_ = encoder_->InternString("cudaLaunchKernel");
    copy_ = encoder_->InternString("cudaMemcpyAsync");
    memset_ = encoder_->InternString("cudaMemsetAsync");
  }

  // 20 events: 7 launches, a copy, a memset (pairs) and 2 ranges; a step every 250 groups.
  // Returns the number of events added.
  int AddGroup() {
    const uint64_t group_start = now_;
    for (int i = 0; i < 7; ++i) Pair(launch_, 0);
    Pair(copy_, 1);
    Pair(memset_, 2);
    Range(operators_[random_() % operators_.size()], trace::RANGE_KIND_OPERATOR, group_start);
    Range(user_, trace::RANGE_KIND_USER, group_start + 100);
    if (++groups_ % 250 != 0) return 20;
    Step();
    return 21;
  }

 private:
  void Pair(StringId name, int kind) {
    ApiCallEvent call;
    call.thread_id = kThread;
    call.start_ns = now_;
    call.duration_ns = 2000 + random_() % 6000;
    call.name = name;
    call.correlation_id = ++correlation_;
    encoder_->AddApiCall(call);
    now_ += call.duration_ns + 500;
    const uint64_t start = std::max(device_ready_, call.start_ns + kCuptiOffset + 3000);
    // About as long as the host spends per launch, so the GPU keeps up (as CUDA forces it
    // to: a full launch queue blocks the host) instead of falling ever further behind.
    const uint64_t duration = 1000 + random_() % 9000;
    device_ready_ = start + duration;
    const StreamKey where{0, 1, static_cast<uint32_t>(7 + kind), trace::CLOCK_DOMAIN_CUPTI};
    if (kind == 0) {
      KernelEvent kernel{where, start, duration, kernels_[random_() % kernels_.size()], correlation_};
      encoder_->AddKernel(kernel);
    } else if (kind == 1) {
      MemcpyEvent memcpy{where, start, duration, 1 << 20, trace::COPY_KIND_HOST_TO_DEVICE};
      memcpy.correlation_id = correlation_;
      encoder_->AddMemcpy(memcpy);
    } else {
      MemsetEvent memset{where, start, duration, 1 << 20, 0, correlation_};
      encoder_->AddMemset(memset);
    }
  }

  void Range(StringId name, trace::RangeKind kind, uint64_t start) {
    HostRangeEvent range;
    range.thread_id = kThread;
    range.start_ns = start;
    range.duration_ns = now_ - start;
    range.name = name;
    range.kind = kind;
    encoder_->AddHostRange(range);
  }

  void Step() {
    StepEvent step;
    step.thread_id = kThread;
    step.start_ns = step_start_;
    step.duration_ns = now_ - step_start_;
    step.step_number = step_number_++;
    step.sample_count = 64;
    encoder_->AddStep(step);
    step_start_ = now_;
  }

  ChunkEncoder* encoder_;
  std::mt19937_64 random_{42};
  std::vector<KernelConfigId> kernels_;
  std::vector<StringId> operators_;
  StringId user_, launch_, copy_, memset_;
  uint64_t now_ = 1000000000, step_start_ = 1000000000, device_ready_ = 0, correlation_ = 0;
  uint64_t groups_ = 0;
  int64_t step_number_ = 0;
};

// Writes about `events` events into `windows` files (one: the file `path`; more: window
// files in the folder `path`), each window ending on a step boundary. Returns the number
// of events written (steps included).
uint64_t WriteTrace(const std::string& path, uint64_t events, int windows) {
  trace::FileHeader header;
  header.set_host_name("bench");
  header.set_pid(1);
  trace::ClockAnchor* anchor = header.add_clock_anchors();
  anchor->set_host_monotonic_ns(1000000000);
  anchor->set_cupti_ns(1000000000 + kCuptiOffset);
  std::unique_ptr<SyntheticTrace> trace;
  uint64_t written = 0;
  for (int window = 0; window < windows && written < events; ++window) {
    header.set_window_index(window);
    const std::string file = windows == 1 ? path : absl::StrFormat("%s/bench.window_%d.prof.pb", path, window);
    auto writer = TraceFileWriter::Create(file, header);
    if (!writer.ok()) std::exit(1);
    ChunkEncoder encoder;
    if (trace) trace->Rebind(&encoder); else trace = std::make_unique<SyntheticTrace>(&encoder);
    const uint64_t window_end = events * (window + 1) / windows;
    bool step_ended = false;
    while (written < events && (written < window_end || !step_ended)) {
      const int added = trace->AddGroup();
      written += added;
      step_ended = added == 21;
      if (encoder.pending_events() >= 65536) (*writer)->AppendChunk(encoder.Finish(false)).IgnoreError();
    }
    (*writer)->AppendChunk(encoder.Finish(true)).IgnoreError();
    (*writer)->Close().IgnoreError();
  }
  return written;
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// User + system CPU seconds of this process so far.
double CpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + 1e-6 * (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

long PeakRssMiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;
}

}  // namespace
}  // namespace prof::analyzer

int main(int argc, char** argv) {
  uint64_t events = 10000000;
  std::string write_only;
  int windows = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument.rfind("--events=", 0) == 0) events = std::strtoull(argument.c_str() + 9, nullptr, 10);
    if (argument.rfind("--write=", 0) == 0) write_only = argument.substr(8);
    if (argument.rfind("--windows=", 0) == 0) windows = std::max(1, std::atoi(argument.c_str() + 10));
  }
  if (!write_only.empty()) {
    std::printf("%llu\n", static_cast<unsigned long long>(prof::analyzer::WriteTrace(write_only, events, windows)));
    return 0;
  }
  const std::string path = absl::StrFormat("/tmp/analyzer_benchmark.%d.pb", getpid());
  const uint64_t written = prof::analyzer::WriteTrace(path, events, 1);
  const long rss_before = prof::analyzer::PeakRssMiB();

  const double cpu_start = prof::analyzer::CpuSeconds();
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<prof::analyzer::TraceModel> model = prof::analyzer::LoadTraceFile(path);
  if (!model.ok()) return 1;
  const double load_seconds = prof::analyzer::CpuSeconds() - cpu_start;
  const prof::analyzer::ProcessReport report =
      prof::analyzer::BuildProcessReport(std::move(*model), {}, prof::analyzer::AllViews());
  const double total_seconds = prof::analyzer::CpuSeconds() - cpu_start;
  const double wall_seconds = prof::analyzer::Seconds(start);
  std::remove(path.c_str());

  std::printf("analyzer benchmark: %llu events in one file, one thread (file -> model -> all %zu tables)\n",
              static_cast<unsigned long long>(written), report.tables.size());
  std::printf("%-40s %12s %12s\n", "figure", "measured", "goal");
  std::printf("%-40s %12.2f %12s\n", "read + model, M events/s per core", written / load_seconds / 1e6, "");
  std::printf("%-40s %12.2f %12s\n", "file to all tables, M events/s per core", written / total_seconds / 1e6, ">= 5");
  std::printf("%-40s %12.2f %12s\n", "file to all tables, CPU seconds", total_seconds, "");
  std::printf("%-40s %12.2f %12s\n", "file to all tables, wall seconds", wall_seconds, "");
  std::printf("%-40s %12ld %12s\n", "peak RSS, MiB (whole process)", prof::analyzer::PeakRssMiB(), "");
  std::printf("%-40s %12ld %12s\n", "peak RSS before analysis, MiB (writer)", rss_before, "");
  return report.event_count == written ? 0 : 1;
}
