#include "analyzer/cli/trigger_command.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace prof::analyzer {
namespace {

std::string ControlFolder(const std::string& option) {
  if (!option.empty()) return option;
  const char* configured = std::getenv("PROF_CONTROL_DIR");
  if (configured && configured[0]) return configured;
  return "/tmp/libprof-" + std::to_string(geteuid());
}

// Creates the folder (0700) if needed; false with a message if it is not private.
bool PrivateFolder(const std::string& folder) {
  if (mkdir(folder.c_str(), 0700) != 0 && errno != EEXIST) {
    std::fprintf(stderr, "profanalyze trigger: cannot create %s\n", folder.c_str());
    return false;
  }
  struct stat info;
  if (lstat(folder.c_str(), &info) != 0 || !S_ISDIR(info.st_mode) || info.st_uid != geteuid() ||
      (info.st_mode & 077) != 0) {
    std::fprintf(stderr,
                 "profanalyze trigger: %s must be a folder of this user with mode 0700 "
                 "(agents ignore requests in any other)\n",
                 folder.c_str());
    return false;
  }
  return true;
}

bool OwnedByThisUser(int pid) {
  struct stat info;
  const std::string path = "/proc/" + std::to_string(pid);
  return stat(path.c_str(), &info) == 0 && info.st_uid == geteuid();
}

bool HasAgentLoaded(int pid) {
  std::ifstream maps("/proc/" + std::to_string(pid) + "/maps");
  std::string line;
  while (std::getline(maps, line)) {
    if (line.size() >= 10 && line.compare(line.size() - 10, 10, "libprof.so") == 0) return true;
  }
  return false;
}

// Written to a temporary name, then renamed: the agent never reads half a request.
bool WriteRequest(const std::string& folder, int pid, const std::string& request) {
  const std::string path = folder + "/" + std::to_string(pid) + ".trigger";
  const std::string temporary = path + ".tmp" + std::to_string(getpid());
  const int fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
  if (fd < 0) return false;
  const bool written =
      write(fd, request.data(), request.size()) == static_cast<ssize_t>(request.size());
  close(fd);
  if (!written || rename(temporary.c_str(), path.c_str()) != 0) {
    unlink(temporary.c_str());
    return false;
  }
  return true;
}

}  // namespace

std::vector<int> AgentProcessesOfThisUser() {
  std::vector<int> pids;
  DIR* proc = opendir("/proc");
  if (!proc) return pids;
  while (const dirent* entry = readdir(proc)) {
    char* end = nullptr;
    const long pid = std::strtol(entry->d_name, &end, 10);
    if (!end || *end != '\0' || pid <= 0 || pid == getpid()) continue;
    if (OwnedByThisUser(static_cast<int>(pid)) && HasAgentLoaded(static_cast<int>(pid))) {
      pids.push_back(static_cast<int>(pid));
    }
  }
  closedir(proc);
  return pids;
}

CLI::App* AddTriggerCommand(CLI::App* app, TriggerCommandOptions* options) {
  CLI::App* command = app->add_subcommand(
      "trigger",
      "make running processes under libprof.so record the next steps or seconds, "
      "or write a flight-recorder dump (--flight)");
  command->add_option("PID", options->pids, "processes to trigger");
  command->add_flag("--all", options->all, "every process of this user with libprof.so loaded");
  CLI::Option* steps = command->add_option("--steps", options->steps, "record the next N steps")
                           ->check(CLI::Range(int64_t{1}, int64_t{1000000000}));
  CLI::Option* seconds =
      command->add_option("--seconds", options->seconds, "record for S seconds from now")
          ->check(CLI::Range(0.001, 86400.0));
  steps->excludes(seconds);
  CLI::Option* flight =
      command->add_flag("--flight", options->flight,
                        "write a flight-recorder dump now (processes run with PROF_FLIGHT=1)");
  flight->excludes(steps);
  flight->excludes(seconds);
  command->add_option("--control-dir", options->control_dir,
                      "the control folder (default: PROF_CONTROL_DIR, else /tmp/libprof-UID)");
  return command;
}

int RunTriggerCommand(const TriggerCommandOptions& options) {
  std::vector<int> pids = options.pids;
  if (options.all) {
    for (int pid : AgentProcessesOfThisUser()) pids.push_back(pid);
  }
  if (pids.empty()) {
    std::fprintf(stderr, "profanalyze trigger: no process (give PIDs, or --all)\n");
    return 2;
  }
  char request[64];
  if (options.flight) {
    std::snprintf(request, sizeof(request), "flight=1\n");
  } else if (options.seconds > 0) {
    std::snprintf(request, sizeof(request), "seconds=%.3f\n", options.seconds);
  } else {
    std::snprintf(request, sizeof(request), "steps=%lld\n",
                  static_cast<long long>(options.steps > 0 ? options.steps : 1));
  }
  const std::string folder = ControlFolder(options.control_dir);
  if (!PrivateFolder(folder)) return 1;
  int failures = 0;
  for (int pid : pids) {
    if (!OwnedByThisUser(pid) || !HasAgentLoaded(pid)) {
      std::fprintf(stderr,
                   "profanalyze trigger: %d is not a process of this user with libprof.so loaded\n",
                   pid);
      ++failures;
    } else if (!WriteRequest(folder, pid, request)) {
      std::fprintf(stderr, "profanalyze trigger: cannot write the request for %d in %s\n", pid,
                   folder.c_str());
      ++failures;
    } else {
      std::printf("triggered %d: %s", pid, request);
    }
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace prof::analyzer
