// The writer's handling of the queued commands, in queue order: opening a window's file,
// closing the open windows (a split closes them and opens the next together), and the
// device commands (device_commands.cc).
//
// CPU readings: a window's opening and closing readings are taken here, when the writer
// handles the boundary (within one drain period of the step's timestamp: 10 ms when idle,
// 4 ms when busy, sooner when a device command woke it; later if it is stalled), not on
// the program's thread. Each reading carries its own host time, and the analyzer divides by
// the readings' own interval, so the CPU ratios stay exact; they cover the window shifted
// by that delay. A split's closing and opening readings are one reading.
//
// Thread safety: writer thread (or Shutdown's inline finish, when no writer thread exists).
#include <unistd.h>

#include <algorithm>
#include <memory>
#include <utility>

#include "agent/control/log.h"
#include "agent/record/clock.h"
#include "agent/writer/terminating_signals.h"
#include "agent/writer/trace_writer.h"
#include "agent/writer/window_readings.h"

namespace prof {
namespace {

constexpr uint64_t kCloseGraceNs = 30000000;  // late records of a closed window

// The earliest opening time among the windows that commands[after + 1...] open, or
// kDrainEverything when they open none.
template <typename Command>
uint64_t FirstOpenAfter(const std::vector<Command>& commands, size_t after) {
  uint64_t first = kDrainEverything;
  for (size_t i = after + 1; i < commands.size(); ++i) {
    if (commands[i].kind == Command::kOpen) first = std::min(first, commands[i].spec.open_ns);
  }
  return first;
}

}  // namespace

void TraceWriter::RunCommands(std::vector<Command>& commands, uint64_t horizon) {
  uint64_t closed_ns = 0;  // the latest close of this batch so far
  for (size_t i = 0; i < commands.size(); ++i) {
    Command& command = commands[i];
    // Host records go to windows by their start time (WindowAt), and a closed window takes
    // late records until it is finalized, so opening and closing need no drain first: the
    // writer handles a command some time after the step controller issued it, and the
    // buffers may already hold records made after it (the first Dataloader range of a new
    // window, or of the next file of a split window). Unsubscribing drains first: the
    // device records it flushes find their window through the API calls' correlation ids;
    // that drain stops before the windows this batch has yet to open (their records would
    // go to the previous window). Subscribing does not wait for a drain (READY's step may
    // be short). It drains up to the close before it in this batch even past the horizon:
    // every window opened before that close is in hand, and the kernels a window launched
    // last often run after its close, so their device records need their calls drained to
    // be told from launches made after it (WindowFor).
    if (command.kind == Command::kDisableDevice) {
      DrainHostRecords(std::min(std::max(horizon, closed_ns), FirstOpenAfter(commands, i)));
    }
    if (command.kind == Command::kClose) closed_ns = std::max(closed_ns, command.time_ns);
    switch (command.kind) {
      case Command::kOpen: OpenWindowFile(command.spec); break;
      case Command::kClose: {
        const bool split_opens_next =
            command.split && i + 1 < commands.size() && commands[i + 1].kind == Command::kOpen;
        // SplitWindow queued both together: the next window's opening reading is this one.
        CloseOpenWindows(command, split_opens_next ? &commands[i + 1].spec : nullptr);
        break;
      }
      case Command::kEnableDevice:
      case Command::kDisableDevice: RunDeviceCommand(command.kind == Command::kEnableDevice); break;
    }
  }
}

void TraceWriter::OpenWindowFile(WindowSpec& spec) {
  Log(LogLevel::kDebug, "writer: window %u opens at %lu", spec.index,
      static_cast<unsigned long>(spec.open_ns));
  // Here, not in the constructor: the program and its runtime have started and
  // installed whatever handlers they wanted (terminating_signals.h).
  InstallTerminationFlush();
  if (!spec.open_cpu.valid) spec.open_cpu = SampleCpu();
  FileHeaderValue header = header_;
  header.clock_anchors.push_back(HostAnchor("window open"));
  if (spec.open_cpu.valid) header.cpu_usage.push_back(CpuUsageOf(spec.open_cpu));
  if (device_enabled_) header.clock_anchors.push_back(device_->Anchor("window open"));
  WindowFile& window =
      windows_.Open(spec, PathOf(spec.index), std::move(header), config_.files_need_cuda_activity);
  window.encoder().SetProcess(ThreadNameOf(getpid()), getppid());
  NoteLateDevice(window);
}

void TraceWriter::CloseOpenWindows(const Command& close, WindowSpec* next) {
  Log(LogLevel::kDebug, "writer: windows close at %lu", static_cast<unsigned long>(close.time_ns));
  const CpuSample cpu = SampleCpu();
  if (next != nullptr) next->open_cpu = cpu;
  windows_.CloseOpen(close.time_ns, cpu, MonotonicNs() + kCloseGraceNs,
                     close.split ? static_cast<int64_t>(close.spec.index) : -1);
}

}  // namespace prof
