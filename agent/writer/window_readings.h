// The readings a window's file takes at its boundaries: a host clock anchor (realtime
// against monotonic), the process's CPU usage, and the kernel's names of its threads. Taken
// by the writer when it opens or finishes a window, never on a program thread.
//
// Thread safety: writer thread (or Shutdown's inline finish, when no writer thread exists).
#ifndef PROF_AGENT_WRITER_WINDOW_READINGS_H_
#define PROF_AGENT_WRITER_WINDOW_READINGS_H_

#include <cstdint>
#include <string>

#include "agent/record/cpu_sample.h"
#include "proto/header_encoder.h"

namespace prof {

// `sample` as the file's CPU usage value.
CpuUsageValue CpuUsageOf(const CpuSample& sample);

// CLOCK_REALTIME read between two CLOCK_MONOTONIC readings; `reason` names the boundary.
ClockAnchorValue HostAnchor(const char* reason);

// The kernel's name of a thread of this process ("python3", "pt_autograd_0", ...); "" when
// the thread is gone.
std::string ThreadNameOf(uint64_t thread_id);

}  // namespace prof

#endif  // PROF_AGENT_WRITER_WINDOW_READINGS_H_
