// The flight recorder's shared trigger folder (PROF_FLIGHT_TRIGGER_DIR): a file created
// there (any name not starting with '.') makes every agent watching the folder dump once,
// so a user or a scheduler can ask a whole job for its flight dumps with one `touch`, and
// one rank's hang dump asks the others (Announce). Writer thread only: one stat() of the
// folder a second, and a readdir only when the folder changed (its mtime) or changed
// within the last 2 s (a file system with coarse timestamps may show two changes as one).
//
// Files older than the agent's start are ignored (a folder reused by an earlier job), and
// each file acts once (by name and mtime: a file touched again acts again once its mtime
// moved and the folder is listed). The agent's own announcement never triggers itself.
#ifndef PROF_AGENT_WRITER_FLIGHT_TRIGGER_FOLDER_H_
#define PROF_AGENT_WRITER_FLIGHT_TRIGGER_FOLDER_H_

#include <cstdint>
#include <set>
#include <string>
#include <utility>

namespace prof {

class FlightTriggerFolder {
 public:
  static constexpr uint64_t kPeriodNs = 1000000000ull;

  // `folder` "": off. `own_name`: the file Announce writes (the worker name: host, pid,
  // rank). `start_realtime_ns`: files modified before it are ignored.
  FlightTriggerFolder(std::string folder, std::string own_name, uint64_t start_realtime_ns);

  // At most once per kPeriodNs of `now_ns` (monotonic): true with the newest new file's
  // name and mtime (realtime ns) when files appeared since the last look.
  bool Poll(uint64_t now_ns, std::string* name, uint64_t* mtime_ns);

  // Writes "<own_name>.<what>" holding `line` (to a hidden name, then renamed, so no agent
  // reads half of it); false when the folder is off or cannot be written.
  bool Announce(const std::string& what, const std::string& line);

  bool on() const { return !folder_.empty(); }

 private:
  bool List(std::string* name, uint64_t* mtime_ns);

  const std::string folder_;
  const std::string own_name_;
  const uint64_t start_realtime_ns_;
  uint64_t next_poll_ns_ = 0;
  uint64_t folder_mtime_ns_ = 0;
  std::set<std::pair<std::string, uint64_t>> seen_;  // (name, mtime) acted on
  std::set<std::string> announced_;                  // our own files
};

}  // namespace prof

#endif  // PROF_AGENT_WRITER_FLIGHT_TRIGGER_FOLDER_H_
