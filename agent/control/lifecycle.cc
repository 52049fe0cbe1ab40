// The agent's life in a process: the library constructor (configuration only: no threads,
// no files, no signal handlers, no CUDA while the loader lock may be held, and no session:
// it is built at first use), the exit flush and fork.
#include <dlfcn.h>
#include <pthread.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <utility>

#include "agent/control/config.h"
#include "agent/control/log.h"
#include "agent/control/python_bootstrap.h"
#include "agent/control/session.h"
#include "agent/control/step_markers.h"
#include "agent/cupti/cupti_source.h"
#include "agent/record/buffer_registry.h"
#include "agent/record/call_stack.h"
#include "agent/record/cuda_presence.h"
#include "agent/record/flight_error.h"
#include "agent/record/flight_host.h"
#include "agent/record/flight_ring.h"
#include "agent/record/clock.h"
#include "agent/record/host_clock_calibration.h"
#include "agent/record/kernel_names.h"
#include "agent/record/nccl_registry.h"
#include "agent/record/recorder.h"
#include "agent/writer/emergency_flush.h"

namespace prof {
namespace {

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
  NoteProcessExiting();  // a CUPTI failure from now on is CUDA's teardown (cupti_source.h)
  // Existing, not Current: a forked child that never recorded builds no session to end.
  if (Session* session = Session::Existing()) session->Shutdown();
}

// fork() and the agent (heaptrack's rule: the child does nothing in the atfork handler
// beyond resetting state that can be reset safely). Before the fork the registries' locks
// are taken, so no other thread is inside one of them when the address space is copied;
// the parent and the child (which holds them: it is the forking thread) release them.
// The child then has only the forking thread: the parent's writer thread and session are
// left untouched (never used, never freed). A child that records builds its own session
// lazily, at its first recorded call or step (Session::Current), in ordinary context, not
// in this handler.
void BeforeFork() {
  LockBuffersForFork();
  LockKernelNamesForFork();
}

void AfterForkInParent() {
  UnlockKernelNamesAfterFork();
  UnlockBuffersAfterFork();
}

void AfterForkInChild() {
  const Config* parent = Session::ConfigForChildren();
  ResetBuffersAfterFork();
  ResetKernelNamesAfterFork();
  ResetCommunicatorsAfterFork();
  ResetFlightAfterFork();
  ResetFlightHostAfterFork();  // the child's thread takes an empty ring at its next call
  ResetFlightErrorAfterFork();
  ResetEmergencyFlushAfterFork();
  ResetHostClockAfterFork();  // the clock itself stays valid: same TSC, same CLOCK_MONOTONIC
  internal::g_device_deferred.store(false);
  if (!parent) return;
  // Atomics only from here: the child's session is built on first use.
  SetRecording(Session::ScheduleRecordsFirstStep(*parent));
  Session::DeferForChild();
}

__attribute__((constructor)) void InitializeAgent() {
  std::vector<std::string> warnings;
  Config config = ParseConfig(ProcessEnvironment(), &warnings);
  SetLogLevel(config.log_level);
  for (const std::string& warning : warnings) Log(LogLevel::kWarn, "%s", warning.c_str());
  if (config.disabled) return;
  ConfigureBuffers(config.buffer_bytes);
  // The flight ring is allocated here, once, so its hot path never allocates.
  if (config.flight) {
    ConfigureFlight(config.flight_entries);
    ConfigureFlightHost(config.flight_host_entries);  // rings come at each thread's first call
  }
  ApplyStartupSettings(config);
  ConfigureHostClock(config.clock_tsc);  // calibrated later, on the writer thread
  // Loaded by `import libprof` into a running interpreter (PROF_IN_PROCESS, set by the
  // helper around its dlopen): no PYTHONPATH offer (the helper is imported already) and no
  // NVTX_INJECTION64_PATH (child processes inheriting it would load the agent unasked).
  const char* in_process = std::getenv("PROF_IN_PROCESS");
  const bool loaded_in_process = in_process && in_process[0];
  if ((config.activities & (kActivityNvtx | kActivityTimerOnly)) && !loaded_in_process) {
    OfferNvtxInjection();
  }
  if (!loaded_in_process) OfferPythonHelper();  // before the interpreter's main() reads PYTHONPATH
  const char* why_no_stacks = nullptr;
  if (config.stacks && !EnableCallStacks(&why_no_stacks)) {
    Log(LogLevel::kWarn, "PROF_STACKS=1 but %s; recording without call stacks", why_no_stacks);
  }
  SetSessionStartCallback(&StartSession);
  internal::g_enable_deferred_device = &EnableDeferredDevice;
  if (LogEnabled(LogLevel::kInfo)) {
    Log(LogLevel::kInfo, "recording %s into %s", config.schedule.ToString().c_str(),
        config.output_dir.c_str());
  }
  // The session is built at the first recorded call or step (session.h): until then the
  // hooks need only the recording flag, set as the session's step 0 will set it, once the
  // plan they build from is in place.
  const bool records_first_step = Session::ScheduleRecordsFirstStep(config);
  Session::Plan(new Config(std::move(config)), MonotonicNs());  // lives until the process ends
  SetRecording(records_first_step);
  pthread_atfork(&BeforeFork, &AfterForkInParent, &AfterForkInChild);
  std::atexit(&AtExit);
  // No signal handler here: see agent/writer/terminating_signals.h.
}

}  // namespace

}  // namespace prof
