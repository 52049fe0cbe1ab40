#include "agent/tests/program_runner.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "agent/tests/sanitizer_preload.h"

namespace prof::testing {
namespace {

std::vector<char*> Environment(const std::map<std::string, std::string>& extra,
                               std::vector<std::string>* storage) {
  std::map<std::string, std::string> merged;
  for (char** entry = environ; *entry; ++entry) {
    const std::string text = *entry;
    const size_t equals = text.find('=');
    if (equals != std::string::npos) merged[text.substr(0, equals)] = text.substr(equals + 1);
  }
  for (const auto& [name, value] : extra) merged[name] = value;
  const auto preload = merged.find("LD_PRELOAD");
  if (preload != merged.end()) preload->second = WithSanitizerRuntime(preload->second);
  for (const auto& [name, value] : merged) storage->push_back(name + "=" + value);
  std::vector<char*> pointers;
  for (std::string& entry : *storage) pointers.push_back(entry.data());
  pointers.push_back(nullptr);
  return pointers;
}

// Reads the child's stdout and stderr until both close; sends the signal after "ready".
void Pump(int out_fd, int err_fd, pid_t child, const RunOptions& options, RunResult* result) {
  std::string& out = result->standard_output;
  bool signalled = false;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(options.timeout_ms);
  struct pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  int open_count = 2;
  while (open_count > 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(child, SIGKILL);
      result->timed_out = true;
      break;
    }
    if (poll(fds, 2, 100) <= 0) continue;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP))) continue;
      char buffer[4096];
      const ssize_t got = read(fds[i].fd, buffer, sizeof(buffer));
      if (got <= 0) {
        fds[i].fd = -1;
        --open_count;
        continue;
      }
      (i == 0 ? out : result->standard_error).append(buffer, got);
    }
    if (options.signal_after_ready && !signalled && out.find("ready") != std::string::npos) {
      std::this_thread::sleep_for(std::chrono::milliseconds(options.signal_delay_ms));
      kill(child, options.signal_after_ready);
      signalled = true;
    }
  }
}

}  // namespace

RunResult RunProgram(const std::string& path, const std::vector<std::string>& arguments,
                     const RunOptions& options) {
  int out_pipe[2], err_pipe[2];
  RunResult result;
  if (pipe(out_pipe) != 0 || pipe(err_pipe) != 0) return result;
  std::vector<std::string> storage;
  std::vector<char*> environment = Environment(options.environment, &storage);
  std::vector<std::string> argument_storage = {path};
  argument_storage.insert(argument_storage.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (std::string& argument : argument_storage) argv.push_back(argument.data());
  argv.push_back(nullptr);
  const pid_t child = fork();
  if (child == 0) {
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    close(out_pipe[0]);
    close(err_pipe[0]);
    execve(path.c_str(), argv.data(), environment.data());
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  Pump(out_pipe[0], err_pipe[0], child, options, &result);
  close(out_pipe[0]);
  close(err_pipe[0]);
  int status = 0;
  waitpid(child, &status, 0);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

std::string Runfile(const std::string& path) {
  const char* root = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  return std::string(root ? root : ".") + "/" + (workspace ? workspace : "prof") + "/" + path;
}

std::string FreshFolder(const std::string& name) {
  const char* root = std::getenv("TEST_TMPDIR");
  const std::string folder = std::string(root ? root : "/tmp") + "/" + name;
  const std::string command = "rm -rf '" + folder + "' && mkdir -p '" + folder + "'";
  if (std::system(command.c_str()) != 0) return folder;
  return folder;
}

}  // namespace prof::testing
