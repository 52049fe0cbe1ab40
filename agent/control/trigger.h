// On-demand capture of a running process (`profanalyze trigger PID --steps N | --seconds S`),
// as Kineto's on-demand mode does through dynolog, without a daemon and without touching
// the program's signal handlers: the trigger writes a request file named after the process
// id into a per-user control folder, and the agent's writer thread looks for its own file
// (one stat() every 100 ms, on the writer thread only: nothing on the program's threads).
//
// Permissions: the folder must be a real folder (not a link) owned by this user with mode
// 0700, and the request a regular file owned by this user; anything else is ignored with
// one warning. So only the process's own user (or root) can trigger it.
//
// The request file holds one line: "steps=N" (record the next N steps, from the next step
// boundary), "seconds=S" (record from now for S seconds; S may have a fraction) or
// "flight=1" (write a flight-recorder dump now: PROF_FLIGHT=1, writer/flight_monitor.h). It is
// removed once read. A request that arrives while a window is open is dropped with a note
// at info level: the process is recording already.
//
// The folder: PROF_CONTROL_DIR, else /tmp/libprof-<uid>. The trigger command creates it.
#ifndef PROF_AGENT_CONTROL_TRIGGER_H_
#define PROF_AGENT_CONTROL_TRIGGER_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace prof {

struct TriggerRequest {
  int64_t steps = 0;         // > 0: record this many steps
  uint64_t duration_ns = 0;  // > 0: record for this long
  bool flight = false;       // a flight dump, not a window
};

// The most a request may ask for: a billion steps, or a day.
constexpr int64_t kMaxTriggerSteps = 1000000000;
constexpr uint64_t kMaxTriggerNs = 86400ull * 1000000000ull;

// "steps=N", "seconds=S" or "flight=1" (spaces and a trailing newline ignored); false when
// malformed or out of bounds.
bool ParseTriggerRequest(std::string_view text, TriggerRequest* request);

// PROF_CONTROL_DIR's value when set (`configured` non-empty), else /tmp/libprof-<uid>.
std::string ControlFolder(const std::string& configured);

// Reads and removes `pid`'s request in `folder`. True with `*request` filled when there
// was a valid one; false when none (the usual case, one failed stat) or refused (then
// `*refusal` says why, for one warning).
bool TakeTriggerRequest(const std::string& folder, int pid, TriggerRequest* request,
                        std::string* refusal);

}  // namespace prof

#endif  // PROF_AGENT_CONTROL_TRIGGER_H_
