// The hand-shake between a terminating-signal handler and the writer thread. The handler
// may only do async-signal-safe things: it raises a flag and waits on a futex word for
// the writer, which finishes every file and then wakes it. A futex rather than a pipe:
// the agent opens no file descriptor before a recording session starts, and a daemon that
// closes and reuses descriptors (closerange) cannot be written to by mistake.
#ifndef PROF_AGENT_WRITER_EMERGENCY_FLUSH_H_
#define PROF_AGENT_WRITER_EMERGENCY_FLUSH_H_

namespace prof {

// Signal handler side. Returns after the writer acknowledged, or after `timeout_ms`, or
// at once when no writer runs. Async-signal-safe.
// `signal_number`: the terminating signal (0: none), for the flight recorder's dump reason.
void RequestEmergencyFlush(int timeout_ms, int signal_number = 0);

// Writer side.
void MarkWriterRunning(bool running);
bool EmergencyFlushRequested();
// The signal given to RequestEmergencyFlush (0: none).
int EmergencyFlushSignal();
void AcknowledgeEmergencyFlush();

// In a forked child (atfork handler): nothing requested, no writer. Atomics only.
void ResetEmergencyFlushAfterFork();

}  // namespace prof

#endif  // PROF_AGENT_WRITER_EMERGENCY_FLUSH_H_
