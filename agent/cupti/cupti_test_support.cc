#include "agent/cupti/cupti_test_support.h"

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "proto/chunk_decoder.h"
#include "proto/trace_file_reader.h"

namespace prof {
namespace testing {
namespace {

std::string TempDir() {
  const char* dir = std::getenv("TEST_TMPDIR");
  return dir && *dir ? dir : "/tmp";
}

class CollectingSink : public EventSink {
 public:
  explicit CollectingSink(TraceContents* contents) : contents_(contents) {}
  void OnKernel(const KernelEvent& event) override { contents_->kernels.push_back(event); }
  void OnMemcpy(const MemcpyEvent& event) override { contents_->memcpys.push_back(event); }
  void OnMemset(const MemsetEvent& event) override { contents_->memsets.push_back(event); }
  void OnSynchronization(const SynchronizationEvent& event) override {
    contents_->synchronizations.push_back(event);
  }
  void OnLoss(schema::LossKind kind, uint64_t count) override { contents_->losses[kind] += count; }

 private:
  TraceContents* contents_;
};

}  // namespace

OneWindowRouter::OneWindowRouter(const std::string& name) {
  FileHeaderValue header;
  header.worker_name = name;
  WindowSpec spec;
  spec.index = 0;
  window_ = std::make_unique<WindowFile>(spec, TempDir() + "/" + name + ".prof.pb", header);
}

WindowFile* OneWindowRouter::WindowFor(uint64_t correlation_id, uint64_t host_time_ns) {
  if (correlation_id != 0) host_times.push_back(host_time_ns);
  return window_.get();
}

std::string OneWindowRouter::Finish() {
  window_->Finish();
  return window_->path();
}

std::string TraceContents::KernelName(const KernelEvent& kernel) {
  const KernelConfigValue* config = dictionary.KernelConfig(kernel.config);
  return config ? std::string(dictionary.String(config->name)) : std::string("<no config>");
}

KernelConfigValue TraceContents::KernelConfig(const KernelEvent& kernel) {
  const KernelConfigValue* config = dictionary.KernelConfig(kernel.config);
  return config ? *config : KernelConfigValue();
}

std::unique_ptr<TraceContents> ReadTrace(const std::string& path) {
  auto contents = std::make_unique<TraceContents>();
  auto reader = TraceFileReader::Open(path);
  if (!reader.ok()) return contents;
  CollectingSink sink(contents.get());
  trace::Chunk chunk;
  while ((*reader)->Next(&chunk)) {
    contents->dictionary.AddDefinitions(chunk);
    contents->malformed_blocks += DecodeChunk(chunk, &sink).malformed_blocks;
  }
  contents->read_ok = true;
  return contents;
}

StderrCapture::StderrCapture() {
  static int counter = 0;
  path_ = TempDir() + "/stderr_" + std::to_string(getpid()) + "_" + std::to_string(counter++);
  const int file = ::open(path_.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0644);
  saved_ = ::dup(STDERR_FILENO);
  ::dup2(file, STDERR_FILENO);
  ::close(file);
}

StderrCapture::~StderrCapture() { Stop(); }

std::string StderrCapture::Stop() {
  if (saved_ < 0) return "";
  ::dup2(saved_, STDERR_FILENO);
  ::close(saved_);
  saved_ = -1;
  std::ifstream file(path_);
  std::stringstream text;
  text << file.rdbuf();
  ::write(STDERR_FILENO, text.str().data(), text.str().size());  // keep it in the test log
  return text.str();
}

int CountLines(const std::string& text, const std::string& needle) {
  std::istringstream lines(text);
  std::string line;
  int count = 0;
  while (std::getline(lines, line)) {
    if (line.find(needle) != std::string::npos) ++count;
  }
  return count;
}

std::string SimCuptiPath() {
  const char* root = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  // The _cuda12 twin of a test (agent/tests/e2e_flavours.bzl) is built for the CUDA 12
  // flavour and runs with PROF_TEST_CUDA=12: its CUPTI is the one of the runtime it links.
  const char* flavour = std::getenv("PROF_TEST_CUDA");
  const char* cupti = flavour && std::string(flavour) == "12" ? "libcupti.so.12" : "libcupti.so.13";
  const std::string relative = std::string(root ? root : ".") + "/" +
                               (workspace ? workspace : "prof") + "/testdata/sim/" + cupti;
  char resolved[PATH_MAX];
  return realpath(relative.c_str(), resolved) ? std::string(resolved) : relative;
}

std::string FreshOutputFolder(const std::string& name) {
  const std::string path = TempDir() + "/" + name;
  const std::string command = "rm -rf '" + path + "' && mkdir -p '" + path + "'";
  return std::system(command.c_str()) == 0 ? path : "";
}

Config TestConfig(const std::string& cupti_library) {
  Config config;
  config.cupti_library = cupti_library;
  config.activities = kActivityAll;
  return config;
}

}  // namespace testing
}  // namespace prof
