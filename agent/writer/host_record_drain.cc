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
  ForEachBuffer([this, before_ns](ThreadBuffer& buffer) {
    const uint64_t thread_id = buffer.thread_id();
    if (!buffer.empty()) NameThread(thread_id, *windows_.back());
    records_drained_ += buffer.DrainBefore(before_ns, [&](const Record& record) {
      WindowFile& window = *WindowAt(record.start_ns);
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
