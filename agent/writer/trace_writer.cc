#include "agent/writer/trace_writer.h"

#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>

#include "agent/control/log.h"
#include "agent/record/buffer_registry.h"
#include "agent/record/clock.h"
#include "agent/writer/emergency_flush.h"
#include "agent/writer/terminating_signals.h"

namespace prof {
namespace {

// The writer drains every 10 ms, and every 1 ms while records flow fast, so a thread's
// 2 MiB ring (about 20k records) does not fill even at several million launches a second.
constexpr auto kIdleDrainPeriod = std::chrono::milliseconds(10);
constexpr auto kBusyDrainPeriod = std::chrono::milliseconds(1);
constexpr uint64_t kBusyRecords = 2000;
constexpr uint64_t kFlushPeriodNs = 100000000;   // a crash loses at most ~100 ms
constexpr uint64_t kChunkEvents = 65536;         // or this many events, whichever first
constexpr auto kParkWait = std::chrono::milliseconds(200);  // after an exit timeout
constexpr uint64_t kCloseGraceNs = 30000000;     // late records of a closed window

CpuUsageValue CpuUsageOf(const CpuSample& sample) {
  CpuUsageValue usage;
  usage.host_monotonic_ns = sample.host_ns;
  usage.process_cpu_ns = sample.process_cpu_ns;
  usage.system_known = sample.system_known;
  usage.system_busy_ticks = sample.busy_ticks;
  usage.system_idle_ticks = sample.idle_ticks;
  return usage;
}

ClockAnchorValue HostAnchor(const char* reason) {
  ClockAnchorValue anchor;
  const uint64_t before = MonotonicNs();
  anchor.host_realtime_ns = RealtimeNs();
  const uint64_t after = MonotonicNs();
  anchor.host_monotonic_ns = before + (after - before) / 2;
  anchor.uncertainty_ns = (after - before) / 2;
  anchor.reason = reason;
  return anchor;
}

// The kernel's name of a thread of this process ("python3", "pt_autograd_0", ...).
std::string ThreadNameOf(uint64_t thread_id) {
  char path[64];
  std::snprintf(path, sizeof(path), "/proc/self/task/%llu/comm",
                static_cast<unsigned long long>(thread_id));
  std::ifstream file(path);
  std::string name;
  std::getline(file, name);
  return name;
}

}  // namespace

TraceWriter::TraceWriter(const Config& config, FileHeaderValue header,
                         std::unique_ptr<DeviceActivitySource> device)
    : config_(config),
      header_(std::move(header)),
      device_(std::move(device)),
      converter_([this](uint32_t index) { return WindowByIndex(index); }) {}

TraceWriter::~TraceWriter() = default;

std::string TraceWriter::PathOf(uint32_t index) const {
  return config_.output_dir + "/" + config_.worker_name + ".window_" + std::to_string(index) +
         ".prof.pb";
}

void TraceWriter::OpenWindow(const WindowSpec& spec) {
  std::lock_guard<std::mutex> lock(mutex_);
  commands_.push_back({Command::kOpen, spec, spec.open_ns});
  EnsureThread();
  wake_.notify_one();
}

void TraceWriter::CloseWindow(uint64_t close_ns) {
  // Read here, on the caller's thread, so the reading is at the window's end.
  const CpuSample cpu = SampleCpu();
  std::lock_guard<std::mutex> lock(mutex_);
  commands_.push_back({Command::kClose, {}, close_ns, /*split=*/false, cpu});
  wake_.notify_one();
}

void TraceWriter::SplitWindow(uint64_t split_ns, const WindowSpec& next) {
  std::lock_guard<std::mutex> lock(mutex_);
  commands_.push_back({Command::kClose, next, split_ns, /*split=*/true, next.open_cpu});
  commands_.push_back({Command::kOpen, next, next.open_ns});
  EnsureThread();
  wake_.notify_one();
}

void TraceWriter::SetDeviceEnabled(bool enabled) {
  std::unique_lock<std::mutex> lock(mutex_);
  commands_.push_back({enabled ? Command::kEnableDevice : Command::kDisableDevice, {}, 0});
  const uint64_t ticket = ++device_commands_sent_;
  EnsureThread();
  wake_.notify_one();
  // Subscribing must be done before the caller's next step records (READY exists for
  // this), so wait for the writer, boundedly; turning off needs no wait.
  if (enabled && thread_started_) {
    device_done_.wait_for(lock, std::chrono::seconds(2),
                          [&] { return device_commands_done_ >= ticket || done_; });
  }
}

void TraceWriter::EnableDeviceNow() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!thread_started_ && !stopping_) {
    // No writer thread yet: nothing else touches the device source.
    if (!device_enabled_ && device_) device_enabled_ = device_->Enable();
    return;
  }
  commands_.push_back({Command::kEnableDevice, {}, 0});
  ++device_commands_sent_;
  wake_.notify_one();
}

// Called with mutex_ held.
void TraceWriter::EnsureThread() {
  if (thread_started_ || stopping_) return;
  // The writer must not run the program's signal handlers: block everything while the
  // thread is created so it inherits a full mask.
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &previous);
  // pthread_create rather than std::thread: a failure must be a return value here, never
  // an exception in the host program.
  pthread_t thread;
  const int error = pthread_create(
      &thread, nullptr,
      [](void* writer) -> void* {
        static_cast<TraceWriter*>(writer)->Run();
        return nullptr;
      },
      this);
  if (error == 0) {
    pthread_detach(thread);
    thread_started_ = true;
    // From now on a terminating signal waits for this thread, even if it has not run yet.
    MarkWriterRunning(true);
  } else {
    Log(LogLevel::kWarn, "cannot start the writer thread; nothing will be recorded");
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

void TraceWriter::Run() {
  prctl(PR_SET_NAME, "prof-writer", 0, 0, 0);
  uint64_t drained_before = 0;
  while (true) {
    std::vector<Command> commands;
    bool stopping = false;
    const bool busy = records_drained_ - drained_before > kBusyRecords;
    drained_before = records_drained_;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait_for(lock, busy ? kBusyDrainPeriod : kIdleDrainPeriod,
                     [this] { return !commands_.empty() || stopping_; });
      commands.swap(commands_);
      stopping = stopping_;
    }
    RunCommands(commands);
    ParkIfAbandoned();
    DrainHostRecords();
    ParkIfAbandoned();
    if (device_enabled_) device_->Drain(*this);
    ParkIfAbandoned();
    if (EmergencyFlushRequested()) {
      // A terminating signal: the process ends as soon as we acknowledge.
      FinishWindows(true);
      AcknowledgeEmergencyFlush();
      break;
    }
    FinishWindows(stopping);
    if (stopping) break;
  }
  Log(LogLevel::kDebug, "writer: %lu records drained", static_cast<unsigned long>(records_drained_));
  std::lock_guard<std::mutex> lock(mutex_);
  done_ = true;
  finished_.notify_all();
  device_done_.notify_all();
}

void TraceWriter::RunCommands(std::vector<Command>& commands) {
  for (const Command& command : commands) {
    // Host records go to windows by their start time (WindowAt), and a closed window takes
    // late records until it is finalized, so opening and closing need no drain first: the
    // writer handles a command some time after the step controller issued it, and the
    // buffers may already hold records made after it (the first Dataloader range of a new
    // window, or of the next file of a split window). Device commands do drain first:
    // device records find their window through the API calls' correlation ids.
    if (command.kind != Command::kOpen && command.kind != Command::kClose) DrainHostRecords();
    switch (command.kind) {
      case Command::kOpen: {
        Log(LogLevel::kDebug, "writer: window %u opens at %lu", command.spec.index,
            static_cast<unsigned long>(command.spec.open_ns));
        // Here, not in the constructor: the program and its runtime have started and
        // installed whatever handlers they wanted (terminating_signals.h).
        InstallTerminationFlush();
        FileHeaderValue header = header_;
        header.clock_anchors.push_back(HostAnchor("window open"));
        if (command.spec.open_cpu.valid) header.cpu_usage.push_back(CpuUsageOf(command.spec.open_cpu));
        if (device_enabled_) header.clock_anchors.push_back(device_->Anchor("window open"));
        windows_.push_back(std::make_unique<WindowFile>(command.spec, PathOf(command.spec.index),
                                                        header, config_.files_need_cuda_activity));
        windows_.back()->encoder().SetProcess(ThreadNameOf(getpid()), getppid());
        break;
      }
      case Command::kClose:
        Log(LogLevel::kDebug, "writer: windows close at %lu",
            static_cast<unsigned long>(command.time_ns));
        for (auto& window : windows_) {
          if (window->closing) continue;
          window->closing = true;
          window->close_ns = command.time_ns;
          window->continued = command.split;
          window->continued_in = command.spec.index;
          window->close_cpu = command.cpu;
          window->finalize_after_ns = MonotonicNs() + kCloseGraceNs;
        }
        break;
      case Command::kEnableDevice:
        if (!device_enabled_ && device_) device_enabled_ = device_->Enable();
        AcknowledgeDeviceCommand();
        break;
      case Command::kDisableDevice:
        if (device_enabled_) {
          device_->Flush(true);
          device_->Drain(*this);
          device_->Disable();
          device_enabled_ = false;
        }
        AcknowledgeDeviceCommand();
        break;
    }
  }
}

void TraceWriter::AcknowledgeDeviceCommand() {
  std::lock_guard<std::mutex> lock(mutex_);
  ++device_commands_done_;
  device_done_.notify_all();
}

void TraceWriter::DrainHostRecords() {
  // With no window open, records wait in their buffers for the next one rather than being
  // thrown away (a record can be made just before its window is handed to the writer).
  if (windows_.empty()) return;
  ForEachBuffer([this](ThreadBuffer& buffer) {
    const uint64_t thread_id = buffer.thread_id();
    if (!buffer.empty()) NameThread(thread_id, *windows_.back());
    records_drained_ += buffer.Drain([&](const Record& record) {
      converter_.Add(thread_id, record, *WindowAt(record.start_ns));
    });
    const uint64_t dropped = buffer.TakeDropped();
    if (dropped && !windows_.empty()) {
      windows_.back()->AddLoss(schema::LOSS_KIND_HOST_BUFFER_FULL, dropped);
    }
  });
  const uint64_t no_buffer = TakeThreadLimitDrops();
  if (no_buffer && !windows_.empty()) {
    windows_.back()->AddLoss(schema::LOSS_KIND_THREAD_LIMIT, no_buffer);
  }
}

void TraceWriter::FinishWindows(bool everything) {
  const uint64_t now = MonotonicNs();
  const bool periodic = now - last_flush_ns_ >= kFlushPeriodNs;
  if (periodic) last_flush_ns_ = now;
  const bool finishing_any =
      everything || (!windows_.empty() && windows_.front()->closing &&
                     now >= windows_.front()->finalize_after_ns);
  if (finishing_any && device_enabled_) {
    device_->Flush(true);
    device_->Drain(*this);
  }
  while (!windows_.empty()) {
    ParkIfAbandoned();
    WindowFile& window = *windows_.front();
    const bool finish = everything || (window.closing && now >= window.finalize_after_ns);
    if (!finish) break;
    if (!window.closing) window.close_ns = now;
    if (window.continued) {
      converter_.MoveOpenRanges(window.spec().index, window.continued_in);
    } else {
      converter_.CloseOpenRanges(window);
    }
    window.encoder().AddClockAnchor(HostAnchor("window close"));
    window.encoder().AddCpuUsage(CpuUsageOf(window.close_cpu.valid ? window.close_cpu : SampleCpu()));
    if (device_enabled_) window.encoder().AddClockAnchor(device_->Anchor("window close"));
    window.Finish();
    converter_.ForgetWindow(window.spec().index);
    windows_.pop_front();
  }
  for (auto& window : windows_) {
    ParkIfAbandoned();
    if (periodic || window->encoder().pending_events() >= kChunkEvents) window->Flush(false);
  }
}

void TraceWriter::NameThread(uint64_t thread_id, WindowFile& window) {
  if (!window.named_threads.insert(thread_id).second) return;
  const std::string name = ThreadNameOf(thread_id);
  if (!name.empty()) window.encoder().SetThreadName(thread_id, name);
}

WindowFile* TraceWriter::WindowAt(uint64_t host_time_ns) {
  if (windows_.empty()) return nullptr;
  for (auto it = windows_.rbegin(); it != windows_.rend(); ++it) {
    if ((*it)->spec().open_ns <= host_time_ns) return it->get();
  }
  return windows_.front().get();
}

WindowFile* TraceWriter::WindowByIndex(uint32_t index) {
  for (auto& window : windows_) {
    if (window->spec().index == index) return window.get();
  }
  return nullptr;
}

WindowFile* TraceWriter::WindowFor(uint64_t correlation_id, uint64_t host_time_ns) {
  if (correlation_id != 0 && !windows_.empty()) {
    // Launched before the first window's first recorded call: READY-step warm-up activity,
    // discarded by design (CUPTI is subscribed a step early so the window starts warm).
    const WindowFile& first = *windows_.front();
    if (first.min_correlation_id != 0 && correlation_id < first.min_correlation_id &&
        host_time_ns < first.spec().open_ns) {
      return nullptr;
    }
    for (auto& window : windows_) {
      if (correlation_id <= window->max_correlation_id) return window.get();
    }
  }
  return WindowAt(host_time_ns);
}

bool TraceWriter::Shutdown(uint64_t timeout_ns) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!thread_started_) {
    // Nothing ever opened a window, or the thread could not start: finish inline.
    std::vector<Command> commands;
    commands.swap(commands_);
    stopping_ = true;
    lock.unlock();
    RunCommands(commands);
    DrainHostRecords();
    FinishWindows(true);
    return true;
  }
  stopping_ = true;
  wake_.notify_one();
  if (finished_.wait_for(lock, std::chrono::nanoseconds(timeout_ns), [this] { return done_; })) {
    return true;
  }
  // Out of time. Static destructors run once we return, so the writer must stop touching
  // anything: it parks at its next check (between chunks, buffers and commands), and we
  // wait for that, briefly. The files end at their last complete chunk.
  abandon_.store(true, std::memory_order_release);
  finished_.wait_for(lock, kParkWait, [this] { return done_ || parked_; });
  return false;
}

void TraceWriter::ParkIfAbandoned() {
  if (!abandon_.load(std::memory_order_acquire)) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    parked_ = true;
    finished_.notify_all();
  }
  // Blocks for good: this thread has every signal blocked, and the process is exiting.
  for (;;) pause();
}

}  // namespace prof
