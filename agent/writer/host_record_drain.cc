// Draining the program threads' buffers into the windows' files: each record goes to the
// window containing its start time (WindowAt), each thread is named once per file, and the
// records a buffer lost are reported (host_losses.h).
//
// Thread safety: writer thread (or Shutdown's inline finish, when no writer thread exists).
// The buffers are shared with their threads through buffer_registry.h's rules.
#include "agent/record/buffer_registry.h"
#include "agent/writer/host_losses.h"
#include "agent/writer/trace_writer.h"
#include "agent/writer/window_readings.h"

namespace prof {

void TraceWriter::DrainHostRecords(uint64_t before_ns) {
  // With no window open, records wait in their buffers for the next one rather than being
  // thrown away (a record can be made just before its window is handed to the writer).
  if (windows_.empty()) return;
  drained_before_ns_ = before_ns;
  // The windows do not change during a drain (commands open and close them, FinishWindows
  // removes them, both between drains), so the newest, where nearly every record goes, is
  // looked up once a pass rather than through the deque for each record (~9 instructions
  // an operator; callgrind, issue 26).
  WindowFile& newest = *windows_.back();
  const uint64_t newest_open_ns = newest.spec().open_ns;
  ForEachBuffer([&](ThreadBuffer& buffer) {
    const uint64_t thread_id = buffer.thread_id();
    if (!buffer.empty()) NameThread(thread_id, newest);
    // The visitor is inlined into DrainBefore's loop by force: with the operator's whole
    // conversion inside it (RecordConverter::Add), the compiler made it a function of its
    // own, a call and a frame for every record (~23 instructions an operator; callgrind,
    // issue 26).
    records_drained_ += buffer.DrainBefore(
        before_ns, [&](const Record& record) __attribute__((always_inline)) {
          WindowFile& window =
              record.start_ns >= newest_open_ns ? newest : *WindowAt(record.start_ns);
          converter_.Add(thread_id, record, window);
          window.FlushIfFull();  // within the pass, so a chunk stays small (window_file.h)
        });
    ReportHostLosses(&buffer, *windows_.back());
    buffer.ReleaseIfExited();  // its chunk back to the pool, the buffer to a new thread
  });
  ReportHostLosses(nullptr, *windows_.back());
}

void TraceWriter::NameThread(uint64_t thread_id, WindowFile& window) {
  if (!window.interning().named_threads.insert(thread_id).second) return;
  const std::string name = ThreadNameOf(thread_id);
  if (!name.empty()) window.encoder().SetThreadName(thread_id, name);
}

}  // namespace prof
