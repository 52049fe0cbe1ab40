#include "agent/control/python_bootstrap.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "agent/control/config_values.h"
#include "agent/control/log.h"

namespace prof {
namespace {

// argv[0], read from /proc because a library constructor gets no arguments portably.
std::string ProgramArgumentZero() {
  char buffer[4096];
  const int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  const ssize_t length = read(fd, buffer, sizeof(buffer) - 1);
  close(fd);
  if (length <= 0) return "";
  buffer[length] = '\0';
  return buffer;  // up to the first NUL: argv[0]
}

std::string LibraryFolder() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void*>(&OfferPythonHelper), &info) || !info.dli_fname) return "";
  const char* slash = std::strrchr(info.dli_fname, '/');
  if (!slash) return ".";
  return std::string(info.dli_fname, slash - info.dli_fname);
}

// sitecustomize.py and the libprof package: beside it (Bazel's layout, the tarball's), or
// two folders up, where the wheel has the helper folder (libprof/_lib/python/).
bool HoldsHelper(const std::string& folder) {
  return access((folder + "/sitecustomize.py").c_str(), R_OK) == 0 &&
         (access((folder + "/libprof/__init__.py").c_str(), R_OK) == 0 ||
          access((folder + "/../../../libprof/__init__.py").c_str(), R_OK) == 0);
}

// PROF_PYTHON, with the spellings of every PROF_* flag (ParseFlagText); unset or bad
// leaves the helper on. Silent: ParseConfig, which ran first in the same constructor,
// already warned about a bad value and recorded the applied one in the header.
bool HelperWanted() {
  const char* value = std::getenv("PROF_PYTHON");
  if (!value) return true;
  return ParseFlagText(value).value_or(true);
}

}  // namespace

bool IsPythonInterpreterName(const char* path) {
  const char* slash = std::strrchr(path, '/');
  const char* name = slash ? slash + 1 : path;
  if (std::strncmp(name, "python", 6) != 0) return false;
  const char* suffix = name + 6;
  while ((*suffix >= '0' && *suffix <= '9') || *suffix == '.') ++suffix;
  for (const char* allowed : {"", "d", "m", "u", "w", "dm", "-dbg"}) {
    if (std::strcmp(suffix, allowed) == 0) return true;
  }
  return false;
}

bool IsPythonProcess() {
  char executable[4096];
  const ssize_t length = readlink("/proc/self/exe", executable, sizeof(executable) - 1);
  if (length > 0) {
    executable[length] = '\0';
    if (IsPythonInterpreterName(executable)) return true;
  }
  const std::string argument_zero = ProgramArgumentZero();
  return !argument_zero.empty() && IsPythonInterpreterName(argument_zero.c_str());
}

std::string PrependPathEntry(const std::string& entry, const char* path) {
  if (!path || path[0] == '\0') return entry;
  const std::string existing = path;
  size_t begin = 0;
  while (begin <= existing.size()) {
    size_t end = existing.find(':', begin);
    if (end == std::string::npos) end = existing.size();
    if (existing.compare(begin, end - begin, entry) == 0) return existing;
    begin = end + 1;
  }
  return entry + ":" + existing;
}

void OfferPythonHelper() {
  if (!HelperWanted() || !IsPythonProcess()) return;
  const char* configured = std::getenv("PROF_PYTHON_PATH");
  const std::string folder =
      configured && configured[0] ? std::string(configured) : LibraryFolder() + "/python";
  if (!HoldsHelper(folder)) {
    Log(LogLevel::kWarn,
        "the Python helper (sitecustomize.py, libprof/) is not in %s%s; no Python steps or "
        "phases (set PROF_PYTHON_PATH to its folder, or PROF_PYTHON=0 to silence this)",
        folder.c_str(), configured && configured[0] ? " (PROF_PYTHON_PATH)" : "");
    return;
  }
  const std::string python_path = PrependPathEntry(folder, std::getenv("PYTHONPATH"));
  setenv("PYTHONPATH", python_path.c_str(), /*overwrite=*/1);
}

}  // namespace prof
