// Shared by the CUPTI adapter's tests: a router with one real window file, reading that
// file back into plain events, capturing the agent's stderr lines, and where the simulated
// libcupti lies in the test's runfiles.
//
// Thread safety: test-thread only.
#ifndef PROF_AGENT_CUPTI_CUPTI_TEST_SUPPORT_H_
#define PROF_AGENT_CUPTI_CUPTI_TEST_SUPPORT_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "agent/control/config.h"
#include "agent/writer/device_source.h"
#include "agent/writer/window_file.h"
#include "proto/events.h"
#include "proto/file_dictionary.h"

namespace prof {
namespace testing {

// Every record goes into one WindowFile written to $TEST_TMPDIR/<name>.prof.pb.
class OneWindowRouter : public WindowRouter {
 public:
  explicit OneWindowRouter(const std::string& name);
  WindowFile* WindowFor(uint64_t correlation_id, uint64_t host_time_ns) override;
  WindowFile& window() { return *window_; }
  // Writes the last chunk; returns the file's path.
  std::string Finish();

  std::vector<uint64_t> host_times;  // every host_time_ns asked about (correlation id != 0)

 private:
  std::unique_ptr<WindowFile> window_;
};

struct TraceContents {
  bool read_ok = false;
  std::vector<KernelEvent> kernels;
  std::vector<MemcpyEvent> memcpys;
  std::vector<MemsetEvent> memsets;
  std::vector<SynchronizationEvent> synchronizations;
  std::map<schema::LossKind, uint64_t> losses;  // summed over chunks
  uint64_t malformed_blocks = 0;
  FileDictionary dictionary;

  std::string KernelName(const KernelEvent& kernel);
  KernelConfigValue KernelConfig(const KernelEvent& kernel);
};

std::unique_ptr<TraceContents> ReadTrace(const std::string& path);

// Redirects file descriptor 2 into a file until Stop(), which returns what was written.
class StderrCapture {
 public:
  StderrCapture();
  ~StderrCapture();
  std::string Stop();

 private:
  int saved_ = -1;
  std::string path_;
};

// Lines of `text` that contain `needle`.
int CountLines(const std::string& text, const std::string& needle);

// The simulated libcupti.so.13 in the runfiles (absolute); libcupti.so.12 in a _cuda12 twin
// (PROF_TEST_CUDA=12, agent/tests/e2e_flavours.bzl).
std::string SimCuptiPath();

// A fresh, empty folder `name` under TEST_TMPDIR (or /tmp) for window files; "" when it
// could not be made.
std::string FreshOutputFolder(const std::string& name);

// Every activity, PROF_CUPTI_LIB = `cupti_library`.
Config TestConfig(const std::string& cupti_library);

}  // namespace testing
}  // namespace prof

#endif  // PROF_AGENT_CUPTI_CUPTI_TEST_SUPPORT_H_
