#include "agent/writer/terminating_signals.h"

#include <errno.h>
#include <signal.h>

#include "agent/writer/emergency_flush.h"

namespace prof {
namespace {

// SIGABRT covers uncaught C++ exceptions (std::terminate calls abort()).
constexpr int kFlushedSignals[] = {SIGTERM, SIGHUP, SIGABRT};

// Async-signal-safe: asks the writer (which blocks all signals) to finish every file (and,
// with PROF_FLIGHT=1, to write a flight dump naming the signal: flight_monitor.h),
// waits for it with a bound, then lets the signal do what SIG_DFL does. The signal is
// blocked while this runs, so the raise takes effect when the handler returns.
void OnTerminatingSignal(int signal_number) {
  const int saved_errno = errno;
  RequestEmergencyFlush(/*timeout_ms=*/2000, signal_number);
  struct sigaction default_action = {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  sigaction(signal_number, &default_action, nullptr);
  raise(signal_number);
  errno = saved_errno;
}

}  // namespace

int InstallTerminationFlush() {
  int installed = 0;
  for (int signal_number : kFlushedSignals) {
    struct sigaction current;
    if (sigaction(signal_number, nullptr, &current) != 0) continue;
    if ((current.sa_flags & SA_SIGINFO) || current.sa_handler != SIG_DFL) continue;
    struct sigaction action = {};
    action.sa_handler = OnTerminatingSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    // Between the check and this call the program may install its own handler on another
    // thread; that window is a few instructions at a window open, and the program's later
    // sigaction still replaces ours.
    if (sigaction(signal_number, &action, nullptr) == 0) ++installed;
  }
  return installed;
}

}  // namespace prof
