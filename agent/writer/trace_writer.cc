// The TraceWriter's producer side: the window and device commands the step controller
// queues on the program's threads. The writer thread's side is in writer_thread.cc (its
// start and its passes), window_commands.cc, device_commands.cc, host_record_drain.cc,
// window_finishing.cc, window_set.cc, flush_requests.cc and writer_shutdown.cc.
#include "agent/writer/trace_writer.h"

#include <mutex>
#include <string>
#include <utility>

#include "agent/control/log.h"
#include "agent/record/clock.h"
#include "agent/record/host_rss.h"
#include "agent/record/writer_doorbell.h"

namespace prof {

TraceWriter::TraceWriter(const Config& config, FileHeaderValue header,
                         std::unique_ptr<DeviceActivitySource> device)
    : config_(config),
      header_(std::move(header)),
      device_(std::move(device)),
      converter_([this](uint32_t index) { return WindowByIndex(index); }, &ReadHostRssBytes) {
  taken_commands_.reserve(2 * kRingCommands);
  if (config_.flight) flight_ = std::make_unique<FlightMonitor>(config_, header_);
}

TraceWriter::~TraceWriter() = default;

void TraceWriter::DumpFlight(const std::string& reason, const std::string& detail) {
  if (!flight_) {
    Log(LogLevel::kWarn, "flight dump requested (%s) but PROF_FLIGHT is not 1: nothing to dump",
        detail.c_str());
    return;
  }
  flight_->Dump(reason, detail, MonotonicNs());
}

std::string TraceWriter::PathOf(uint32_t index) const {
  return config_.output_dir + "/" + config_.worker_name + ".window_" + std::to_string(index) +
         ".prof.pb";
}

// The producer side runs on the program's threads at step boundaries, one at a time (see
// trace_writer.h). Nothing here waits for the writer, except once: the process's first
// command starts the writer thread (EnsureThread, under mutex_) if the session's start did
// not. A stalled writer's full ring is command_queue.h's business (an overflow list).
void TraceWriter::Queue(const Command& command) {
  if (!thread_started_flag_.load(std::memory_order_acquire)) {
    std::lock_guard<std::mutex> lock(mutex_);
    EnsureThread();
  }
  commands_.Push(command);
  // The writer sleeps up to 50 ms when nothing happens (writer_thread.cc): a command then
  // wakes it, so a window's start and end are handled as soon as before (within 10 ms). A
  // command pushed just as the writer goes to sleep may miss the flag: it then waits the
  // deep period at most, and is never lost.
  if (deep_idle_.load(std::memory_order_acquire)) WakeWriter();
}

// Wakes the writer without waiting for it or taking a lock (writer_doorbell.h): a ring is
// never missed, it ends the writer's next wait at once.
void TraceWriter::WakeWriter() { TheWriterDoorbell().Ring(); }

// Window commands do not wake the writer (a futex call, and often a switch to the writer
// on this CPU): records find their window by time and wait in their buffers meanwhile, so
// the writer's next periodic pass (10 ms at most, 4 ms while busy) is soon enough. Only a
// writer in its deep idle sleep is woken (Queue).
void TraceWriter::OpenWindow(const WindowSpec& spec) {
  Queue({Command::kOpen, spec, spec.open_ns});
}

void TraceWriter::CloseWindow(uint64_t close_ns) {
  Queue({Command::kClose, {}, close_ns, /*split=*/false});
}

void TraceWriter::SplitWindow(uint64_t split_ns, const WindowSpec& next) {
  Queue({Command::kClose, next, split_ns, /*split=*/true});
  Queue({Command::kOpen, next, next.open_ns});
}

// Device commands wake the writer: subscribing should be done within the READY step (no
// wait, though: see step_controller.h on READY), and after a window the program should
// stop paying for CUPTI at once.
uint64_t TraceWriter::SetDeviceEnabled(bool enabled) {
  Queue({enabled ? Command::kEnableDevice : Command::kDisableDevice, {}, 0});
  WakeWriter();
  return ++device_commands_sent_;
}

void TraceWriter::EnableDeviceNow() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!thread_started_ && !stopping_) {
      // No writer thread yet: nothing else touches the device source.
      if (!device_enabled_ && device_) device_enabled_ = device_->Enable();
      return;
    }
  }
  SetDeviceEnabled(true);
}

}  // namespace prof
