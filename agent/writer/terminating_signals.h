// Flush-on-termination for SIGTERM, SIGHUP and SIGABRT, installed so that the program
// cannot tell it is there:
//
//   - never in the library constructor: a runtime that installs its own handler only where
//     it finds SIG_DFL at start-up (CPython's SIGINT -> KeyboardInterrupt, the JVM, Go)
//     must find SIG_DFL. It is installed when the writer thread starts (the session's
//     start: the first recorded CUDA call or step, after the program's start-up) and
//     checked again by the writer at every window open;
//   - only where the disposition is still SIG_DFL: a handler the program installed, or
//     SIG_IGN (nohup), is never replaced. A handler the program installs later replaces
//     ours, and the program's own exit path flushes through atexit;
//   - it chains to what was there (SIG_DFL): after the flush it restores SIG_DFL and raises
//     the signal again, so the exit status is the signal's, as without the agent.
//
// SIGINT is never handled: a program killed by Ctrl-C under SIG_DFL loses at most the
// writer's flush period (100 ms) and its files are read up to their last chunk.
#ifndef PROF_AGENT_WRITER_TERMINATING_SIGNALS_H_
#define PROF_AGENT_WRITER_TERMINATING_SIGNALS_H_

namespace prof {

// At the writer thread's start and at each window open. Returns how many it installed.
int InstallTerminationFlush();

}  // namespace prof

#endif  // PROF_AGENT_WRITER_TERMINATING_SIGNALS_H_
