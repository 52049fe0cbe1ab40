// Puts the host records lost since the last pass into a window's file, each counter with
// the step it was lost in (LossCounter.step_number), so the analyzer's Data Quality table
// can name the incomplete steps. The counts come from the threads' buffers and from the
// global tables (threads that found no buffer, counts displaced at a step change:
// step_losses.h).
//
// Thread safety: writer thread only.
#ifndef PROF_AGENT_WRITER_HOST_LOSSES_H_
#define PROF_AGENT_WRITER_HOST_LOSSES_H_

#include "agent/record/thread_buffer.h"
#include "agent/writer/window_file.h"

namespace prof {

// `buffer`: that thread's losses; nullptr: the global ones.
void ReportHostLosses(ThreadBuffer* buffer, WindowFile& window);

}  // namespace prof

#endif  // PROF_AGENT_WRITER_HOST_LOSSES_H_
