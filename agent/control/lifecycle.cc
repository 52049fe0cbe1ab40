// The agent's life in a process: the library constructor (configuration only: no threads,
// no files, no CUDA while the loader lock may be held), the exit flush, fork and the
// terminating signals.
#include <dlfcn.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "absl/strings/str_format.h"
#include "agent/control/config.h"
#include "agent/control/log.h"
#include "agent/control/python_bootstrap.h"
#include "agent/control/session.h"
#include "agent/hooks/hook_support.h"
#include "agent/record/api_ids.h"
#include "agent/record/buffer_registry.h"
#include "agent/record/call_stack.h"
#include "agent/record/cuda_presence.h"
#include "agent/record/clock.h"
#include "agent/record/kernel_names.h"
#include "agent/record/nccl_registry.h"
#include "agent/writer/emergency_flush.h"

namespace prof {
namespace internal {
uint16_t g_marker_api = kApiNone;
bool g_marker_kernels = false;
uint32_t g_activities = kActivityAll;
}  // namespace internal

namespace {

// SIGABRT covers uncaught C++ exceptions (std::terminate calls abort()).
constexpr int kTerminatingSignals[] = {SIGTERM, SIGINT, SIGHUP, SIGABRT};

// Per-thread buffers: each 1/64 of the budget (2 MiB of the default 128, about 20k
// records), between 256 KiB and 8 MiB.
size_t BufferBytesFor(uint64_t budget) {
  const uint64_t share = budget / 64;
  return static_cast<size_t>(share < (256u << 10) ? (256u << 10)
                                                  : share > (8u << 20) ? (8u << 20) : share);
}

void ApplyStepMarkers(const Config& config) {
  std::vector<std::string> globs;
  for (const StepMarkerRule& rule : config.step_markers) {
    if (!rule.kernel_glob.empty()) globs.push_back(rule.kernel_glob);
    if (!rule.api.empty() && internal::g_marker_api == kApiNone) {
      internal::g_marker_api = ApiIdByName(rule.api.c_str());
      if (internal::g_marker_api == kApiNone) internal::g_marker_api = NcclMarkerApiId(rule.api);
      if (internal::g_marker_api == kApiNone) {
        Log(LogLevel::kWarn, "PROF_STEP_MARKER='api:%s' names a call the agent does not "
                             "intercept; using no api rule", rule.api.c_str());
      }
    }
  }
  SetStepMarkerKernelGlobs(globs);
  internal::g_marker_kernels = !globs.empty();
  if (internal::g_marker_api != kApiNone || internal::g_marker_kernels) {
    internal::g_hook_mode.fetch_or(internal::kModeMarkers);
  }
}

// NVTX finds tools through NVTX_INJECTION64_PATH; point it at this library unless the
// user (or another tool, such as nsys) already set it.
void OfferNvtxInjection() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(&OfferNvtxInjection), &info) && info.dli_fname) {
    setenv("NVTX_INJECTION64_PATH", info.dli_fname, /*overwrite=*/0);
  }
}

void StartSession() {
  if (Session* session = Session::Current()) session->Start();
}

void EnableDeferredDevice() {
  if (Session* session = Session::Current()) session->steps().EnableDeferredDevice();
}

void AtExit() {
  if (Session* session = Session::Current()) session->Shutdown();
}

// Async-signal-safe: asks the writer (which blocks all signals) to finish every file,
// waits for it with a bound, then lets the signal do what it would have done.
void OnTerminatingSignal(int signal_number) {
  RequestEmergencyFlush(/*timeout_ms=*/2000);
  struct sigaction default_action = {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  sigaction(signal_number, &default_action, nullptr);
  raise(signal_number);
}

void InstallSignalHandlers() {
  for (int signal_number : kTerminatingSignals) {
    struct sigaction current;
    if (sigaction(signal_number, nullptr, &current) != 0) continue;
    // Only where nobody else handles the signal: the program's own handlers (Python's
    // SIGINT) win, and their exit path flushes through atexit.
    if (current.sa_handler != SIG_DFL || (current.sa_flags & SA_SIGINFO)) continue;
    struct sigaction action = {};
    action.sa_handler = OnTerminatingSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(signal_number, &action, nullptr);
  }
}

// In the child of fork(): only this thread exists; the writer thread and any lock another
// thread held are gone. The child gets a fresh session of its own (its own files, named
// after its pid); what the parent had buffered stays the parent's.
void AfterForkInChild() {
  Session* parent = Session::Current();
  if (!parent) return;
  SetRecording(false);
  ResetBuffersAfterFork();
  ResetKernelNamesAfterFork();
  ResetCommunicatorsAfterFork();
  ResetEmergencyFlushAfterFork();
  internal::g_device_deferred.store(false);
  Config config = parent->config();
  config.worker_name = absl::StrFormat("%s_child_%d", parent->config().worker_name, getpid());
  config.applied["PROF_WORKER_NAME"] = config.worker_name;
  // A worker that never uses CUDA (a DataLoader worker) leaves no file behind.
  config.files_need_cuda_activity = true;
  Session::Install(new Session(config, MonotonicNs()));  // the parent's is left alone
}

__attribute__((constructor)) void InitializeAgent() {
  std::vector<std::string> warnings;
  const Config config = ParseConfig(ProcessEnvironment(), &warnings);
  SetLogLevel(config.log_level);
  for (const std::string& warning : warnings) Log(LogLevel::kWarn, "%s", warning.c_str());
  if (config.disabled) return;
  internal::g_activities = config.activities;
  ConfigureBuffers(config.buffer_bytes, BufferBytesFor(config.buffer_bytes));
  ApplyStepMarkers(config);
  if (config.activities & (kActivityNvtx | kActivityTimerOnly)) OfferNvtxInjection();
  OfferPythonHelper();  // before the interpreter's main() reads PYTHONPATH
  const char* why_no_stacks = nullptr;
  if (config.stacks && !EnableCallStacks(&why_no_stacks)) {
    Log(LogLevel::kWarn, "PROF_STACKS=1 but %s; recording without call stacks", why_no_stacks);
  }
  SetSessionStartCallback(&StartSession);
  internal::g_enable_deferred_device = &EnableDeferredDevice;
  Session::Install(new Session(config, MonotonicNs()));  // lives until the process ends
  pthread_atfork(nullptr, nullptr, &AfterForkInChild);
  std::atexit(&AtExit);
  InstallSignalHandlers();
  Log(LogLevel::kInfo, "recording %s into %s", config.schedule.ToString().c_str(),
      config.output_dir.c_str());
}

}  // namespace

void OnMarkerApiCall(uint16_t api) {
  (void)api;
  Session* session = Session::Current();
  if (session && session->CountMarkerCall()) session->steps().Step(0);
}

void OnMarkerKernelLaunch(const void* function) {
  if (!IsStepMarkerKernel(function)) return;
  if (Session* session = Session::Current()) session->steps().Step(0);
}

}  // namespace prof
