// The flight recorder's writer-side half (PROF_FLIGHT=1): decides when the ring
// (record/flight_ring.h) is dumped and writes the dump (flight_dump.h). Runs only on the
// writer thread, never on the program's threads, and calls into CUDA only for
// cudaEventQuery (never NCCL, never a call that waits), so it cannot block behind the hang
// it reports.
//
// Triggers:
//   - a hang: an NCCL call entered and not returned, or returned and its GPU work not
//     completed (the CUDA events around it, polled every writer pass with cudaEventQuery,
//     which never blocks: record/flight_events.h), for PROF_FLIGHT_HANG_S seconds
//     (checked every 100 ms: one scan of the ring's slots, no copy); one dump per hung
//     call;
//   - a terminating signal (SIGTERM, SIGHUP, SIGABRT) that reached the agent's flush
//     handler (terminating_signals.h): the writer dumps before it acknowledges;
//   - a request (profanalyze trigger --flight, through the control poll): Dump();
//   - an NCCL call that returned ncclSystemError or ncclRemoteError (a timed-out or dead
//     peer; record/flight_error.h): once per process, reason "nccl error: <name>";
//   - a slow step (PROF_FLIGHT_SLOW_FACTOR > 0; flight_slow_step.h): reason "slow-step",
//     the detail naming the step; at most one per kSlowStepGapNs;
//   - a file created in the shared PROF_FLIGHT_TRIGGER_DIR (flight_trigger_folder.h):
//     reason "trigger file", the detail naming it. After a hang dump the agent creates
//     one there itself, so every rank of the job dumps, the culprit included (it is not
//     in an NCCL call, so it has no hang of its own to see). A file is ignored when this
//     agent dumped within kTriggerCoverNs before it appeared: the ranks that hang together
//     dump once each, not once per other rank's announcement.
// At most kMaxDumps dumps per process, so a job that keeps hanging cannot fill a disk.
#ifndef PROF_AGENT_WRITER_FLIGHT_MONITOR_H_
#define PROF_AGENT_WRITER_FLIGHT_MONITOR_H_

#include <cstdint>
#include <string>

#include "agent/control/config.h"
#include "agent/writer/flight_slow_step.h"
#include "agent/writer/flight_trigger_folder.h"
#include "proto/header_encoder.h"

namespace prof {

class FlightMonitor {
 public:
  static constexpr uint32_t kMaxDumps = 16;
  static constexpr uint64_t kSlowStepGapNs = 600ull * 1000000000ull;
  static constexpr uint64_t kTriggerCoverNs = 10ull * 1000000000ull;

  FlightMonitor(const Config& config, FileHeaderValue header);

  // Every writer pass: the hang, slow-step and trigger-folder checks when they are due.
  void Poll(uint64_t now_ns);
  // Every writer pass, the last at exit included: the NCCL-error dump, once.
  void DumpOnNcclError(uint64_t now_ns);
  // A dump now; returns its path ("" when none was written: the limit, or an error, warned).
  std::string Dump(const std::string& reason, const std::string& detail, uint64_t now_ns);

  uint32_t dumps() const { return dumps_; }

 private:
  void CheckHang(uint64_t now_ns);
  void CheckSlowSteps(uint64_t now_ns);
  void CheckTriggerFolder(uint64_t now_ns);

  const std::string folder_;
  const std::string worker_name_;
  const FileHeaderValue header_;
  const uint64_t hang_ns_;
  uint64_t next_check_ns_ = 0;
  uint64_t dumped_hang_ticket_ = 0;  // the hung call already dumped for
  uint32_t dumps_ = 0;
  bool warned_limit_ = false;
  uint64_t last_dump_realtime_ns_ = 0;  // 0: none yet
  SlowStepDetector slow_steps_;
  const bool slow_steps_on_;
  uint64_t steps_read_ = 0;         // boundaries read from the ring so far
  uint64_t last_slow_dump_ns_ = 0;  // 0: none yet
  FlightTriggerFolder trigger_folder_;
};

// "all-reduce", "send", ... for one line of text (schema::NcclOperation).
const char* FlightOperationName(uint16_t operation);

}  // namespace prof

#endif  // PROF_AGENT_WRITER_FLIGHT_MONITOR_H_
