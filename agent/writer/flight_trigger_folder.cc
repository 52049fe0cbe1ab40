#include "agent/writer/flight_trigger_folder.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "agent/writer/window_file.h"

namespace prof {
namespace {

constexpr uint64_t kCoarseTimestampNs = 2000000000ull;

// stat through the system call (glibc 2.33 made stat a function above libprof.so's glibc
// floor: control/trigger.cc).
bool MtimeOf(const std::string& path, uint64_t* mtime_ns, bool* regular) {
  struct stat info;
  if (syscall(SYS_newfstatat, AT_FDCWD, path.c_str(), &info, 0) != 0) return false;
  *mtime_ns = static_cast<uint64_t>(info.st_mtim.tv_sec) * 1000000000ull + info.st_mtim.tv_nsec;
  *regular = S_ISREG(info.st_mode);
  return true;
}

uint64_t RealtimeNs() {
  timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + now.tv_nsec;
}

}  // namespace

FlightTriggerFolder::FlightTriggerFolder(std::string folder, std::string own_name,
                                         uint64_t start_realtime_ns)
    : folder_(std::move(folder)),
      own_name_(std::move(own_name)),
      start_realtime_ns_(start_realtime_ns) {}

bool FlightTriggerFolder::Poll(uint64_t now_ns, std::string* name, uint64_t* mtime_ns) {
  if (folder_.empty() || now_ns < next_poll_ns_) return false;
  next_poll_ns_ = now_ns + kPeriodNs;
  uint64_t folder_mtime = 0;
  bool regular = false;
  if (!MtimeOf(folder_, &folder_mtime, &regular)) return false;  // not created yet
  const bool recent = folder_mtime + kCoarseTimestampNs > RealtimeNs();
  if (folder_mtime == folder_mtime_ns_ && !recent) return false;
  folder_mtime_ns_ = folder_mtime;
  return List(name, mtime_ns);
}

bool FlightTriggerFolder::List(std::string* name, uint64_t* mtime_ns) {
  DIR* folder = opendir(folder_.c_str());
  if (!folder) return false;
  bool found = false;
  while (const dirent* entry = readdir(folder)) {
    const std::string file = entry->d_name;
    if (file.empty() || file[0] == '.' || announced_.count(file)) continue;
    uint64_t mtime = 0;
    bool regular = false;
    if (!MtimeOf(folder_ + "/" + file, &mtime, &regular) || !regular) continue;
    if (mtime < start_realtime_ns_ || !seen_.insert({file, mtime}).second) continue;
    if (!found || mtime > *mtime_ns) {
      *name = file;
      *mtime_ns = mtime;
    }
    found = true;
  }
  closedir(folder);
  return found;
}

bool FlightTriggerFolder::Announce(const std::string& what, const std::string& line) {
  if (folder_.empty()) return false;
  MakeFolders(folder_);
  const std::string file = own_name_ + "." + what;
  const std::string hidden = folder_ + "/." + file;
  const int fd = open(hidden.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  const std::string text = line + "\n";
  const bool written = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  announced_.insert(file);
  if (!written || rename(hidden.c_str(), (folder_ + "/" + file).c_str()) != 0) {
    unlink(hidden.c_str());
    return false;
  }
  return true;
}

}  // namespace prof
