// The hand-shake between a terminating-signal handler and the writer thread. The handler
// may only do async-signal-safe things: it raises a flag and waits on a pipe (poll) for
// the writer, which finishes every file and then writes one byte to the pipe.
#ifndef PROF_AGENT_WRITER_EMERGENCY_FLUSH_H_
#define PROF_AGENT_WRITER_EMERGENCY_FLUSH_H_

namespace prof {

// Signal handler side. Returns after the writer acknowledged, or after `timeout_ms`, or
// at once when no writer runs.
void RequestEmergencyFlush(int timeout_ms);

// Writer side.
void MarkWriterRunning(bool running);
bool EmergencyFlushRequested();
void AcknowledgeEmergencyFlush();

// In a forked child: a new pipe, nothing requested, no writer.
void ResetEmergencyFlushAfterFork();

}  // namespace prof

#endif  // PROF_AGENT_WRITER_EMERGENCY_FLUSH_H_
