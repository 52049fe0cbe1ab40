// Writes one flight-recorder dump (PROF_FLIGHT=1) as an ordinary trace file, so every
// profanalyze command reads it: the process header marked as a flight dump with its
// reason (trace.proto FlightDump), one clock anchor, the communicators, every NCCL call
// the ring still held (a call that had not returned ends at the dump's time; it, a call
// returned whose GPU work had not completed (with its device state) and a call that
// returned an NCCL error are listed in the header's `unfinished`), the last step
// boundaries and the step in progress at the dump (ending at its time, marked open as a
// window file marks the step open at exit), and what the ring lost (the calls it
// overwrote, and those torn while copied) both in the header and as loss records
// (LOSS_KIND_FLIGHT_*). Writer thread only.
#ifndef PROF_AGENT_WRITER_FLIGHT_DUMP_H_
#define PROF_AGENT_WRITER_FLIGHT_DUMP_H_

#include <cstdint>
#include <string>

#include "agent/record/flight_ring.h"
#include "proto/header_encoder.h"

namespace prof {

struct FlightDumpRequest {
  std::string path;
  FileHeaderValue header;  // the process's (session.h MakeProcessHeader)
  std::string reason;      // "hang", "signal SIGTERM", ...
  std::string detail;
  uint64_t dump_ns = 0;
  uint64_t device_untracked = 0;  // calls without GPU-side state (flight_events.h)
};

// The dump's file name: "<worker>.flight_<n>.prof.pb" in `folder` (the worker name holds
// the host, the pid and rank_<N> where known, as the window files' names do).
std::string FlightDumpPath(const std::string& folder, const std::string& worker_name,
                           uint32_t number);

// False (with `*error` set) when the file could not be written.
bool WriteFlightDump(const FlightDumpRequest& request, const FlightSnapshot& snapshot,
                     std::string* error);

}  // namespace prof

#endif  // PROF_AGENT_WRITER_FLIGHT_DUMP_H_
