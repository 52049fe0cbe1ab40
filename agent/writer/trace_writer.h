// The writer thread: drains every thread's buffer, converts records into the open
// windows' files, finalizes each window's file once it has ended, and at exit finishes
// everything within a time bound. The only thread that encodes or does file I/O.
//
// Thread safety: OpenWindow, CloseWindow, SplitWindow, SetDeviceEnabled and EnableDeviceNow
// are called by one thread at a time (the step controller holds its mutex around them);
// they put a command in a lock-free queue (command_queue.h) and return: a step boundary
// never waits for the writer, for CUPTI or for I/O. Only when its ring is full (the writer
// has not run for kRingCommands commands) does a command take a locked overflow path. The
// CPU readings of window boundaries are taken by the writer when it handles the command
// (see RunCommands). DeviceCommandDone and Shutdown may be called from any thread;
// everything else runs on the writer thread.
//
// Its definitions, one file per idea: trace_writer.cc (the producer side: the commands),
// writer_thread.cc (the thread's start and its passes), window_commands.cc and
// device_commands.cc (the writer's handling of the commands), host_record_drain.cc,
// window_finishing.cc, window_set.cc (the windows and their routing), flush_requests.cc (Flush) and
// writer_shutdown.cc (the exit's time bound and the parking after it).
#ifndef PROF_AGENT_WRITER_TRACE_WRITER_H_
#define PROF_AGENT_WRITER_TRACE_WRITER_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "agent/control/config.h"
#include "agent/writer/device_source.h"
#include "agent/writer/drain_horizon.h"
#include "agent/writer/finished_windows.h"
#include "agent/writer/flight_monitor.h"
#include "agent/writer/record_converter.h"
#include "agent/writer/command_queue.h"
#include "agent/writer/window_file.h"
#include "agent/writer/window_set.h"
#include "proto/header_encoder.h"

namespace prof {

class TraceWriter : public WindowRouter {
 public:
  // `header` carries the process identity and configuration; `device` may be null.
  TraceWriter(const Config& config, FileHeaderValue header,
              std::unique_ptr<DeviceActivitySource> device);
  ~TraceWriter() override;

  void OpenWindow(const WindowSpec& spec);
  void CloseWindow(uint64_t close_ns);
  // Closes every open window and opens `next` in one step (a long window continuing in a
  // new file): the writer sees both commands together, so no record falls between them.
  void SplitWindow(uint64_t split_ns, const WindowSpec& next);
  // Asks the writer to subscribe (or unsubscribe) device activity; returns at once with a
  // ticket for DeviceCommandDone. The writer checks that CUDA is loaded first: if not, it
  // defers the subscription to the process's first CUDA call (cuda_presence.h).
  uint64_t SetDeviceEnabled(bool enabled);
  // True once the writer has carried out the device command with `ticket` (subscribed,
  // deferred, or failed and warned). Lock-free: read by the step controller at READY's end.
  bool DeviceCommandDone(uint64_t ticket) const {
    return device_commands_done_.load(std::memory_order_acquire) >= ticket;
  }
  // Like SetDeviceEnabled(true), but subscribes now, on the calling thread, when the writer
  // thread does not exist yet (the session's start), so no device work is missed.
  void EnableDeviceNow();

  // The producer of window commands marks each step boundary here, from before it reads
  // the boundary's timestamp until its commands are queued (drain_horizon.h).
  DrainHorizon& drain_horizon() { return horizon_; }

  // Drains and finishes every window; returns false if `timeout_ns` passed first (the
  // files then end at their last complete chunk, and the writer thread is parked for good
  // before this returns, or, if it is inside one system call, parks when that returns and
  // touches nothing else: static destructors may run safely after).
  bool Shutdown(uint64_t timeout_ns);

  // WindowRouter (writer thread).
  WindowFile* WindowFor(uint64_t correlation_id, uint64_t host_time_ns) override {
    return windows_.For(correlation_id, host_time_ns);
  }

  // The path the window with `index` is written to.
  std::string PathOf(uint32_t index) const;

  // Starts the writer thread now if it is not running and a control poll is set or the
  // flight recorder is on (the session's start: the poll and the flight recorder's hang
  // check run on it even while no window is open). Any thread.
  void StartThreadForPoll();
  // Called on the writer thread at every pass (10 ms when idle), outside every lock of the
  // writer: on-demand triggers and demand windows' deadlines (control/trigger.h). Set before
  // the thread starts. It returns whether it needs the regular period (a deadline is
  // ahead); otherwise the writer may sleep its deep idle period (writer_thread.cc).
  void SetControlPoll(std::function<bool(uint64_t now_ns)> poll) {
    control_poll_ = std::move(poll);
  }
  // Writer thread only (the control poll): a flight-recorder dump now (an on-demand
  // trigger); a warning when PROF_FLIGHT is not 1.
  void DumpFlight(const std::string& reason, const std::string& detail);

  // Windows finished so far (their files written and closed, or found empty). Any thread,
  // lock-free.
  uint32_t windows_finished() const { return finished_windows_.count(); }
  // Whether window `index` is finished; then `*path` is its file, or "" when it recorded
  // nothing and left no file. Any thread (a short lock the writer takes once per window).
  bool FinishedWindow(uint32_t index, std::string* path) {
    return finished_windows_.Find(index, path);
  }
  // Waits (at most `timeout_ns`) until every window closed before this call is finished,
  // finalizing them without the usual grace period for late records. The one call here
  // that waits for the writer; for prof_flush (the Python Profiler's window ends). True when
  // done in time.
  bool Flush(uint64_t timeout_ns);

 private:
  struct Command {
    enum Kind { kOpen, kClose, kEnableDevice, kDisableDevice } kind;
    WindowSpec spec;  // kOpen: the window; kClose of a split: the window that continues it
    uint64_t time_ns = 0;
    bool split = false;  // kClose: the window goes on in spec's file
  };
  static constexpr size_t kRingCommands = 64;

  void EnsureThread();
  void Queue(const Command& command);
  void WakeWriter();
  bool StoppingRequested();  // reads stopping_ under mutex_
  // Writer thread: waits for the drain period (shorter when `busy`, longer when `deep`, see
  // writer_thread.cc) or the doorbell.
  void WaitForWork(bool busy, bool deep);
  // Writer thread, after a pass: whether it found nothing to do and nothing waits for a
  // timely next pass.
  bool PassWasIdle(uint64_t drained_before, size_t commands, uint64_t flush,
                   bool poll_needs_period);
  // Writer thread, at a pass's start: takes the newest Flush() ticket into `*flush` (left
  // as is when none is new); returns whether Shutdown asked the writer to stop.
  bool TakeRequests(uint64_t* flush);
  // Writer thread: completes the Flush() ticket `*flush` (then 0) once no window is closing.
  void CompleteFlush(uint64_t* flush);

 public:
  void Run();  // the thread's body (public for the pthread trampoline only)

 private:
  // `horizon`: this pass's (drain_horizon.h), for the drain before unsubscribing.
  void RunCommands(std::vector<Command>& commands, uint64_t horizon);
  // kOpen: takes the opening CPU reading now unless a split's close took it.
  void OpenWindowFile(WindowSpec& spec);
  // kClose: every open window starts closing; `next` (a split's window, or null) gets the
  // closing CPU reading as its opening one.
  void CloseOpenWindows(const Command& close, WindowSpec* next);
  // After an exit timeout: never returns (see Shutdown).
  void ParkIfAbandoned();
  // Records that start before `before_ns` (kDrainEverything: all).
  void DrainHostRecords(uint64_t before_ns);
  void RunDeviceCommand(bool enable);
  void NoteLateDevice(WindowFile& window);
  // `flushing`: closed windows are finished once drained up to their end (Flush).
  void FinishWindows(bool everything, bool flushing = false);
  // Finalizes `window` (the oldest); `now`: its end when it never closed.
  void FinishWindow(WindowFile& window, uint64_t now);
  bool AnyWindowClosing() const;
  WindowFile* WindowAt(uint64_t host_time_ns) { return windows_.At(host_time_ns); }
  void NameThread(uint64_t thread_id, WindowFile& window);
  WindowFile* WindowByIndex(uint32_t index) { return windows_.ByIndex(index); }

  const Config config_;
  const FileHeaderValue header_;
  std::unique_ptr<DeviceActivitySource> device_;
  bool device_enabled_ = false;
  uint64_t device_enabled_at_ns_ = 0;          // writer thread only: when Enable last succeeded
  ClockAnchorValue device_subscribed_anchor_;  // writer thread only: taken then
  bool warned_late_device_ = false;            // writer thread only

  std::mutex mutex_;  // guards the fields up to `done_`
  std::condition_variable finished_;
  uint64_t device_commands_sent_ = 0;  // producer only (under the step controller's mutex)
  bool stopping_ = false;
  bool done_ = false;
  bool thread_started_ = false;
  bool parked_ = false;         // the writer stopped for good after an exit timeout
  uint64_t flushes_asked_ = 0;  // Flush() calls so far
  uint64_t flushes_taken_ = 0;  // the last one the writer took
  uint64_t flushes_done_ = 0;   // the last one it completed
  // Set when Shutdown ran out of time: the writer parks at its next check.
  std::atomic<bool> abandon_{false};
  std::atomic<bool> thread_started_flag_{false};  // thread_started_, read without the mutex

  CommandQueue<Command, kRingCommands> commands_;  // see Thread safety
  DrainHorizon horizon_;  // producers and the writer thread (see drain_horizon.h)

  // Written by the writer thread (and EnableDeviceNow before it exists), read lock-free.
  std::atomic<uint64_t> device_commands_done_{0};

  std::function<bool(uint64_t)> control_poll_;  // set before the thread starts
  // Set by the writer while it sleeps its deep idle period: a queued command then rings.
  std::atomic<bool> deep_idle_{false};
  FinishedWindows finished_windows_;
  // PROF_FLIGHT=1 (null otherwise): the hang check at every pass, the dump at a
  // terminating signal. Writer thread only.
  std::unique_ptr<FlightMonitor> flight_;

  // Writer thread only.
  std::vector<Command> taken_commands_;  // what commands_ gave, reused (keeps its capacity)
  WindowSet windows_;                    // and their routing (window_set.h)
  RecordConverter converter_;
  uint64_t last_flush_ns_ = 0;
  uint64_t records_drained_ = 0;
  uint64_t drained_before_ns_ = 0;  // the last drain took every record starting before this
};

}  // namespace prof

#endif  // PROF_AGENT_WRITER_TRACE_WRITER_H_
