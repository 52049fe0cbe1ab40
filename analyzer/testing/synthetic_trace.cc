#include "analyzer/testing/synthetic_trace.h"

#include <algorithm>
#include <memory>
#include <random>
#include <vector>

#include "absl/strings/str_format.h"
#include "proto/chunk_encoder.h"
#include "proto/header_message.h"

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
      config.name = encoder_->InternString(
          absl::StrFormat("void kernel_%d<float, %d>(float*, int)", i, i * 7));
      config.grid[0] = 80;
      config.block[0] = 256;
      kernels_.push_back(encoder_->InternKernelConfig(config));
    }
    for (const char* name :
         {"aten::linear", "aten::relu", "aten::add", "aten::mm", "aten::softmax", "aten::copy_"}) {
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
    Range(operators_[random_() % operators_.size()], schema::RANGE_KIND_OPERATOR, group_start);
    Range(user_, schema::RANGE_KIND_USER, group_start + 100);
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
    const StreamKey where{0, 1, static_cast<uint32_t>(7 + kind), schema::CLOCK_DOMAIN_CUPTI};
    if (kind == 0) {
      KernelEvent kernel{where, start, duration, kernels_[random_() % kernels_.size()],
                         correlation_};
      encoder_->AddKernel(kernel);
    } else if (kind == 1) {
      MemcpyEvent memcpy{where, start, duration, 1 << 20, schema::COPY_KIND_HOST_TO_DEVICE};
      memcpy.correlation_id = correlation_;
      encoder_->AddMemcpy(memcpy);
    } else {
      MemsetEvent memset{where, start, duration, 1 << 20, 0, correlation_};
      encoder_->AddMemset(memset);
    }
  }

  void Range(StringId name, schema::RangeKind kind, uint64_t start) {
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

}  // namespace

uint64_t WriteSyntheticTrace(const std::string& path, uint64_t events, int windows) {
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
    const std::string file =
        windows == 1 ? path : absl::StrFormat("%s/bench.window_%d.prof.pb", path, window);
    auto writer = CreateTraceFileWriter(file, header);
    if (!writer.ok()) return 0;
    ChunkEncoder encoder;
    if (trace) trace->Rebind(&encoder);
    else trace = std::make_unique<SyntheticTrace>(&encoder);
    const uint64_t window_end = events * (window + 1) / windows;
    bool step_ended = false;
    while (written < events && (written < window_end || !step_ended)) {
      const int added = trace->AddGroup();
      written += added;
      step_ended = added == 21;
      if (encoder.pending_events() >= 65536)
        (*writer)->AppendChunk(encoder.Finish(false)).IgnoreError();
    }
    (*writer)->AppendChunk(encoder.Finish(true)).IgnoreError();
    (*writer)->Close().IgnoreError();
  }
  return written;
}

}  // namespace prof::analyzer
