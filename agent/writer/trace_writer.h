// The writer thread: drains every thread's buffer, converts records into the open
// windows' files, finalizes each window's file once it has ended, and at exit finishes
// everything within a time bound. The only thread that encodes or does file I/O.
//
// Thread safety: OpenWindow, CloseWindow, SetDeviceEnabled and Shutdown may be called from
// any thread (they queue a command); everything else runs on the writer thread.
#ifndef PROF_AGENT_WRITER_TRACE_WRITER_H_
#define PROF_AGENT_WRITER_TRACE_WRITER_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "agent/control/config.h"
#include "agent/writer/device_source.h"
#include "agent/writer/record_converter.h"
#include "agent/writer/window_file.h"
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
  void SetDeviceEnabled(bool enabled);
  // Like SetDeviceEnabled(true), but subscribes now, on the calling thread, when the writer
  // thread does not exist yet (the session's start), so no device work is missed.
  void EnableDeviceNow();

  // Drains and finishes every window; returns false if `timeout_ns` passed first (the
  // files then end at their last complete chunk, and the writer thread is parked for good
  // before this returns, or, if it is inside one system call, parks when that returns and
  // touches nothing else: static destructors may run safely after).
  bool Shutdown(uint64_t timeout_ns);

  // WindowRouter (writer thread).
  WindowFile* WindowFor(uint64_t correlation_id, uint64_t host_time_ns) override;

  // The path the window with `index` is written to.
  std::string PathOf(uint32_t index) const;

 private:
  struct Command {
    enum Kind { kOpen, kClose, kEnableDevice, kDisableDevice } kind;
    WindowSpec spec;  // kOpen: the window; kClose of a split: the window that continues it
    uint64_t time_ns = 0;
    bool split = false;  // kClose: the window goes on in spec's file
    CpuSample cpu;       // kClose: read when the window ended
  };

  void EnsureThread();
 public:
  void Run();  // the thread's body (public for the pthread trampoline only)

 private:
  void RunCommands(std::vector<Command>& commands);
  // After an exit timeout: never returns (see Shutdown).
  void ParkIfAbandoned();
  void DrainHostRecords();
  void AcknowledgeDeviceCommand();
  void FinishWindows(bool everything);
  WindowFile* WindowAt(uint64_t host_time_ns);
  void NameThread(uint64_t thread_id, WindowFile& window);
  WindowFile* WindowByIndex(uint32_t index);

  const Config config_;
  const FileHeaderValue header_;
  std::unique_ptr<DeviceActivitySource> device_;
  bool device_enabled_ = false;

  std::mutex mutex_;  // guards the fields up to `done_`
  std::condition_variable wake_;
  std::condition_variable finished_;
  std::condition_variable device_done_;  // a device command was carried out
  uint64_t device_commands_sent_ = 0;
  uint64_t device_commands_done_ = 0;
  std::vector<Command> commands_;
  bool stopping_ = false;
  bool done_ = false;
  bool thread_started_ = false;
  bool parked_ = false;  // the writer stopped for good after an exit timeout
  // Set when Shutdown ran out of time: the writer parks at its next check.
  std::atomic<bool> abandon_{false};

  // Writer thread only.
  std::deque<std::unique_ptr<WindowFile>> windows_;
  RecordConverter converter_;
  uint64_t last_flush_ns_ = 0;
  uint64_t records_drained_ = 0;
};

}  // namespace prof

#endif  // PROF_AGENT_WRITER_TRACE_WRITER_H_
