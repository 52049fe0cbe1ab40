#include "agent/control/session.h"

#include <fcntl.h>
#include <unistd.h>

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
constexpr uint64_t kTriggerPollNs = 100000000;          // one stat() per 100 ms

// With read(), not std::ifstream: a stream would initialize the C++ locale, the costliest
// part of building a session (a third of it, measured with callgrind).
std::string CommandLine() {
  std::string bytes;
  const int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return bytes;
  char buffer[4096];
  ssize_t length;
  while ((length = read(fd, buffer, sizeof(buffer))) > 0) bytes.append(buffer, length);
  close(fd);
  for (char& c : bytes) {
    if (c == '\0') c = ' ';
  }
  while (!bytes.empty() && bytes.back() == ' ') bytes.pop_back();
  return bytes;
}

// A forked child's configuration: its parent's, with a name of its own.
Config ChildConfig(const Config& parent) {
  Config config = parent;
  config.worker_name = parent.worker_name + "_child_" + std::to_string(getpid());
  config.applied["PROF_WORKER_NAME"] = config.worker_name;
  // A worker that never uses CUDA (a DataLoader worker) leaves no file behind.
  config.files_need_cuda_activity = true;
  return config;
}

}  // namespace

std::atomic<Session*> Session::current_{nullptr};
std::atomic<Session*> Session::deferred_parent_{nullptr};
std::atomic<const Config*> Session::planned_{nullptr};
uint64_t Session::planned_start_ns_ = 0;
std::atomic<bool> Session::planned_for_child_{false};

namespace {
// Orders concurrent first uses (CreateDeferred); rebuilt by DeferForChild in a child, since
// the thread that held it at fork time does not exist there.
std::mutex g_build_mutex;
}  // namespace

void Session::Plan(const Config* config, uint64_t start_ns) {
  planned_start_ns_ = start_ns;
  planned_.store(config, std::memory_order_release);
}

const Config* Session::ConfigForChildren() {
  Session* session = Existing();
  if (!session) session = deferred_parent_.load(std::memory_order_acquire);
  return session ? &session->config() : planned_.load(std::memory_order_acquire);
}

void Session::DeferForChild() {
  new (&g_build_mutex) std::mutex();
  // A parent that never built its session leaves the plan: the child builds from it.
  if (Session* parent = current_.load(std::memory_order_relaxed)) {
    current_.store(nullptr, std::memory_order_relaxed);
    deferred_parent_.store(parent, std::memory_order_release);
  }
  planned_for_child_.store(true, std::memory_order_release);
}

bool Session::ScheduleRecordsFirstStep(const Config& config) {
  const StepState first = config.schedule.StateOf(0);
  return first == StepState::kRecord || first == StepState::kRecordAndReturn;
}

Session* Session::CreateDeferred() {
  std::lock_guard<std::mutex> lock(g_build_mutex);
  if (Session* built = current_.load(std::memory_order_acquire)) return built;
  Session* parent = deferred_parent_.load(std::memory_order_acquire);
  const Config* plan = planned_.load(std::memory_order_acquire);
  Session* session = nullptr;
  if (parent) {
    session = new Session(ChildConfig(parent->config()), MonotonicNs());
    session->forked_from_ = parent;
  } else if (!plan) {
    return nullptr;
  } else if (planned_for_child_.load(std::memory_order_acquire)) {
    session = new Session(ChildConfig(*plan), MonotonicNs());
  } else {
    session = new Session(*plan, planned_start_ns_);
  }
  // Lives until the process ends; the plan stays reachable too (planned_ is kept).
  current_.store(session, std::memory_order_release);
  deferred_parent_.store(nullptr, std::memory_order_release);
  return session;
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
    writer_->SetControlPoll([this](uint64_t now_ns) { return PollControl(now_ns); });
  }
  steps_->Begin();
}

bool Session::PollControl(uint64_t now_ns) {
  const bool deadline = steps_->Tick(now_ns);
  if (now_ns < next_trigger_check_ns_) return deadline;
  next_trigger_check_ns_ = now_ns + kTriggerPollNs;
  TriggerRequest request;
  std::string refusal;
  if (!TakeTriggerRequest(control_folder_, getpid(), &request, &refusal)) {
    if (!refusal.empty() && !warned_trigger_) {
      warned_trigger_ = true;
      Log(LogLevel::kWarn, "on-demand trigger ignored: %s", refusal.c_str());
    }
    return deadline;
  }
  if (request.flight) {
    writer_->DumpFlight("trigger", "profanalyze trigger --flight");
    return deadline;
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
  return true;  // the window just opened may have an end time
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
    Log(LogLevel::kWarn,
        "the final flush did not finish in time; the trace ends at its last "
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
