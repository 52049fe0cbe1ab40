#include "analyzer/e2e/workload_runner.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include "absl/strings/str_cat.h"
#include "agent/tests/sanitizer_preload.h"
#include "analyzer/testing/scratch.h"

extern char** environ;

namespace prof::analyzer::e2e {
namespace {

constexpr auto kTimeout = std::chrono::seconds(60);

std::vector<std::string> MergedEnvironment(const std::map<std::string, std::string>& extra) {
  std::map<std::string, std::string> merged;
  for (char** entry = environ; *entry; ++entry) {
    const std::string text = *entry;
    const size_t equals = text.find('=');
    if (equals != std::string::npos) merged[text.substr(0, equals)] = text.substr(equals + 1);
  }
  for (const auto& [name, value] : extra) merged[name] = value;
  std::vector<std::string> entries;
  for (const auto& [name, value] : merged) entries.push_back(absl::StrCat(name, "=", value));
  return entries;
}

std::vector<char*> Pointers(std::vector<std::string>* strings) {
  std::vector<char*> pointers;
  for (std::string& text : *strings) pointers.push_back(text.data());
  pointers.push_back(nullptr);
  return pointers;
}

std::string LogTail(const std::string& path) {
  std::ifstream file(path);
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  return text.size() > 2000 ? text.substr(text.size() - 2000) : text;
}

// posix_spawn with stdout and stderr redirected to `log_path`; -1 on failure.
pid_t Spawn(const WorkloadProcess& process, const std::map<std::string, std::string>& environment,
            const std::string& log_path) {
  std::vector<std::string> arguments = {process.program};
  arguments.insert(arguments.end(), process.arguments.begin(), process.arguments.end());
  std::vector<std::string> variables = MergedEnvironment(environment);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = -1;
  const int error = posix_spawn(&pid, process.program.c_str(), &actions, nullptr,
                                Pointers(&arguments).data(), Pointers(&variables).data());
  posix_spawn_file_actions_destroy(&actions);
  return error == 0 ? pid : -1;
}

// Waits for `pid` until `deadline`, then kills it. Returns the wait status, or -1.
int WaitUntil(pid_t pid, std::chrono::steady_clock::time_point deadline) {
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return status;
}

}  // namespace

absl::Status RunUnderAgent(const std::vector<WorkloadProcess>& processes,
                           const std::string& output_dir) {
  std::vector<pid_t> pids;
  std::vector<std::string> logs;
  for (size_t i = 0; i < processes.size(); ++i) {
    std::map<std::string, std::string> environment = {
        {"LD_PRELOAD", prof::testing::WithSanitizerRuntime(Runfile("agent/libprof.so"))},
        {"PROF_OUTPUT_DIR", output_dir},
        {"PROF_CUPTI_LIB", Runfile("testdata/sim/libcupti.so.13")}};
    for (const auto& [name, value] : processes[i].environment) environment[name] = value;
    logs.push_back(absl::StrCat(output_dir, "/../",
                                std::filesystem::path(output_dir).filename().string(), ".process",
                                i, ".log"));
    pids.push_back(Spawn(processes[i], environment, logs.back()));
  }
  const auto deadline = std::chrono::steady_clock::now() + kTimeout;
  absl::Status result;
  for (size_t i = 0; i < pids.size(); ++i) {
    if (pids[i] < 0) {
      result.Update(absl::InternalError(absl::StrCat("cannot start ", processes[i].program)));
      continue;
    }
    const int status = WaitUntil(pids[i], deadline);
    if (status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) continue;
    result.Update(absl::InternalError(absl::StrCat(processes[i].program, " failed (wait status ",
                                                   status, "); its output:\n", LogTail(logs[i]))));
  }
  return result;
}

std::string Runfile(const std::string& path) {
  const char* root = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  return absl::StrCat(root ? root : ".", "/", workspace ? workspace : "prof", "/", path);
}

std::string FreshFolder(const std::string& name) { return testing::ScratchFolder(name); }

}  // namespace prof::analyzer::e2e
