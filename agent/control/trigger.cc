#include "agent/control/trigger.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "agent/control/config_values.h"

namespace prof {
namespace {

// lstat and fstat through the system calls: glibc 2.33 made them functions of a version
// above libprof.so's glibc floor (agent/compat/glibc_floor.c); the kernel's struct stat is
// glibc's on the 64-bit targets.
int LinkStat(const char* path, struct stat* info) {
  return static_cast<int>(syscall(SYS_newfstatat, AT_FDCWD, path, info, AT_SYMLINK_NOFOLLOW));
}

int FileStat(int fd, struct stat* info) { return static_cast<int>(syscall(SYS_fstat, fd, info)); }

// A folder only this user can enter: owned by us, no access for group or others, not a link.
bool PrivateFolder(const std::string& folder, std::string* refusal) {
  struct stat info;
  if (LinkStat(folder.c_str(), &info) != 0) return false;
  if (!S_ISDIR(info.st_mode) || info.st_uid != geteuid() || (info.st_mode & 077) != 0) {
    *refusal = folder + " is not a folder of this user with mode 0700";
    return false;
  }
  return true;
}

}  // namespace

bool ParseTriggerRequest(std::string_view text, TriggerRequest* request) {
  text = TrimAscii(text);
  const size_t equals = text.find('=');
  if (equals == std::string_view::npos) return false;
  const std::string_view name = TrimAscii(text.substr(0, equals));
  const std::string value(TrimAscii(text.substr(equals + 1)));
  TriggerRequest parsed;
  if (name == "steps") {
    if (!ParseBoundedInteger(value, 1, kMaxTriggerSteps, &parsed.steps)) return false;
  } else if (name == "flight") {
    if (value != "1") return false;
    parsed.flight = true;
  } else if (name == "seconds") {
    char* end = nullptr;
    const double seconds = value.empty() ? -1 : std::strtod(value.c_str(), &end);
    if (!end || *end != '\0' || !std::isfinite(seconds) || seconds <= 0 ||
        seconds * 1e9 > static_cast<double>(kMaxTriggerNs)) {
      return false;
    }
    parsed.duration_ns = static_cast<uint64_t>(seconds * 1e9);
    if (parsed.duration_ns == 0) return false;
  } else {
    return false;
  }
  *request = parsed;
  return true;
}

std::string ControlFolder(const std::string& configured) {
  if (!configured.empty()) return configured;
  char folder[64];
  std::snprintf(folder, sizeof(folder), "/tmp/libprof-%u", static_cast<unsigned>(geteuid()));
  return folder;
}

bool TakeTriggerRequest(const std::string& folder, int pid, TriggerRequest* request,
                        std::string* refusal) {
  const std::string path = folder + "/" + std::to_string(pid) + ".trigger";
  struct stat info;
  if (LinkStat(path.c_str(), &info) != 0) return false;  // the usual case: no request
  if (!PrivateFolder(folder, refusal)) return false;
  // O_NOFOLLOW and the checks on the open file: what is read is what was checked.
  const int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return false;
  char text[128] = {0};
  ssize_t size = -1;
  if (FileStat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_uid == geteuid()) {
    size = read(fd, text, sizeof(text) - 1);
  }
  close(fd);
  unlink(path.c_str());
  if (size < 0) {
    *refusal = path + " is not a regular file of this user";
    return false;
  }
  if (!ParseTriggerRequest(std::string_view(text, static_cast<size_t>(size)), request)) {
    *refusal = path + " holds '" + std::string(TrimAscii(std::string_view(text, size))) +
               "', not steps=N (1..1000000000), seconds=S (up to 86400) or flight=1";
    return false;
  }
  return true;
}

}  // namespace prof
