#include "agent/control/session.h"

#include <unistd.h>

#include <fstream>
#include <iterator>
#include <mutex>
#include <new>
#include <string>

#include "agent/control/log.h"
#include "agent/control/trigger.h"
#include "agent/cupti/cupti_source.h"
#include "agent/record/clock.h"
#include "proto/schema_enums.h"

namespace prof {
namespace {

constexpr uint64_t kShutdownTimeoutNs = 3000000000ull;  // exit never waits longer
constexpr uint64_t kTriggerPollNs = 100000000;           // one stat() per 100 ms

std::string CommandLine() {
  std::ifstream file("/proc/self/cmdline", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  for (char& c : bytes) {
    if (c == '\0') c = ' ';
  }
  while (!bytes.empty() && bytes.back() == ' ') bytes.pop_back();
  return bytes;
}

}  // namespace

std::atomic<Session*> Session::current_{nullptr};
std::atomic<Session*> Session::deferred_parent_{nullptr};

namespace {
// Orders concurrent first uses in a child; rebuilt by DeferForChild, since the thread that
// held it at fork time does not exist in the child.
std::mutex g_child_mutex;
}  // namespace

void Session::DeferForChild(Session* parent) {
  new (&g_child_mutex) std::mutex();
  current_.store(nullptr, std::memory_order_relaxed);
  deferred_parent_.store(parent, std::memory_order_release);
}

bool Session::ScheduleRecordsFirstStep(const Config& config) {
  const StepState first = config.schedule.StateOf(0);
  return first == StepState::kRecord || first == StepState::kRecordAndReturn;
}

Session* Session::CreateDeferredChild() {
  std::lock_guard<std::mutex> lock(g_child_mutex);
  Session* parent = deferred_parent_.load(std::memory_order_acquire);
  if (Session* built = current_.load(std::memory_order_acquire)) return built;
  if (!parent) return nullptr;
  Config config = parent->config();
  config.worker_name = parent->config().worker_name + "_child_" + std::to_string(getpid());
  config.applied["PROF_WORKER_NAME"] = config.worker_name;
  // A worker that never uses CUDA (a DataLoader worker) leaves no file behind.
  config.files_need_cuda_activity = true;
  Session* child = new Session(config, MonotonicNs());  // lives until the process ends
  child->forked_from_ = parent;
  current_.store(child, std::memory_order_release);
  deferred_parent_.store(nullptr, std::memory_order_release);
  return child;
}

FileHeaderValue MakeProcessHeader(const Config& config) {
  FileHeaderValue header;
  header.agent_version = "libprof 0.1";
  char host[256] = "unknown";
  gethostname(host, sizeof(host) - 1);
  header.host_name = host;
  header.pid = getpid();
  // The same identity that named the file (config.cc), so file name and header agree.
  header.rank = config.rank.rank;
  header.world_size = config.rank.world_size;
  header.local_rank = config.rank.local_rank;
  header.worker_name = config.worker_name;
  header.config = config.applied;
  header.command_line = CommandLine();
  return header;
}

Session::Session(const Config& config, uint64_t start_ns) : config_(config) {
  std::unique_ptr<DeviceActivitySource> device;
  const uint32_t device_kinds = kActivityKernel | kActivityMemcpy | kActivityMemset | kActivitySync;
  if (!config_.timer_only && (config_.activities & device_kinds)) {
    device = MakeCuptiSource(config_);
  }
  writer_ = std::make_unique<TraceWriter>(config_, MakeProcessHeader(config_), std::move(device));
  steps_ = std::make_unique<StepController>(config_.schedule, writer_.get(), start_ns,
                                            config_.steps_per_file);
  if (config_.trigger) {
    control_folder_ = ControlFolder(config_.control_dir);
    writer_->SetControlPoll([this](uint64_t now_ns) { PollControl(now_ns); });
  }
  steps_->Begin();
}

void Session::PollControl(uint64_t now_ns) {
  steps_->Tick(now_ns);
  if (now_ns < next_trigger_check_ns_) return;
  next_trigger_check_ns_ = now_ns + kTriggerPollNs;
  TriggerRequest request;
  std::string refusal;
  if (!TakeTriggerRequest(control_folder_, getpid(), &request, &refusal)) {
    if (!refusal.empty() && !warned_trigger_) {
      warned_trigger_ = true;
      Log(LogLevel::kWarn, "on-demand trigger ignored: %s", refusal.c_str());
    }
    return;
  }
  if (request.flight) {
    writer_->DumpFlight("trigger", "profanalyze trigger --flight");
    return;
  }
  const bool taken = request.steps > 0
                         ? steps_->OpenAtNextStep(request.steps)
                         : steps_->OpenOnDemand(-1, now_ns + request.duration_ns, true,
                                                schema::WINDOW_ORIGIN_TRIGGER) >= 0;
  if (taken) {
    Log(LogLevel::kInfo, "on-demand trigger: recording the next %lld %s",
        static_cast<long long>(request.steps > 0 ? request.steps : request.duration_ns / 1000000),
        request.steps > 0 ? "steps" : "ms");
  } else {
    Log(LogLevel::kInfo, "on-demand trigger ignored: a window is open already");
  }
}

void Session::Shutdown() {
  if (shut_down_.exchange(true)) return;
  const int64_t steps = steps_->steps_seen();
  // A process that recorded nothing and marked no step (a shell, a compiler, a tool run
  // under the same LD_PRELOAD) leaves no file and does not touch CUDA or CUPTI.
  if (!steps_->started()) return;
  steps_->End();
  if (!config_.schedule.record_everything && !config_.schedule.off && steps == 0) {
    Log(LogLevel::kWarn,
        "PROF_SCHEDULE is set but the program marked no step (prof_step, an NVTX range named "
        "ProfileStep, or PROF_STEP_MARKER), so only step 0 was scheduled");
  }
  if (!writer_->Shutdown(kShutdownTimeoutNs)) {
    Log(LogLevel::kWarn, "the final flush did not finish in time; the trace ends at its last "
                         "complete chunk");
  }
}

bool Session::CountMarkerCall() {
  for (const StepMarkerRule& rule : config_.step_markers) {
    if (!rule.api.empty()) {
      return (marker_calls_.fetch_add(1, std::memory_order_relaxed) + 1) % rule.every == 0;
    }
  }
  return false;
}

}  // namespace prof
