// WindowSet alone: which window a host time, a correlation id or an index finds, and how
// closing and splitting change that. Windows are built by hand (no file is written: nothing
// is flushed), with the correlation ids the record converter would have noted.
#include "agent/writer/window_set.h"

#include <catch2/catch.hpp>

namespace prof {
namespace {

WindowFile& Add(WindowSet& set, uint32_t index, uint64_t open_ns, uint64_t min_id,
                uint64_t max_id) {
  WindowSpec spec;
  spec.index = index;
  spec.open_ns = open_ns;
  WindowFile& window = set.Open(spec, "/nonexistent/window", FileHeaderValue(), false);
  window.NoteCorrelationId(min_id);
  window.NoteCorrelationId(max_id);
  return window;
}

int64_t IndexOf(const WindowFile* window) {
  return window ? static_cast<int64_t>(window->spec().index) : -1;
}

TEST_CASE("host times: the newest window opened at or before; the oldest before all") {
  WindowSet set;
  CHECK(set.At(100) == nullptr);
  Add(set, 0, 100, 0, 0);
  Add(set, 1, 200, 0, 0);
  CHECK(IndexOf(set.At(50)) == 0);
  CHECK(IndexOf(set.At(150)) == 0);
  CHECK(IndexOf(set.At(200)) == 1);
  CHECK(IndexOf(set.At(999)) == 1);
  CHECK(IndexOf(set.ByIndex(1)) == 1);
  CHECK(set.ByIndex(7) == nullptr);
}

TEST_CASE("device records: by their call's correlation id, else by time") {
  WindowSet set;
  Add(set, 0, 100, 10, 20);
  Add(set, 1, 200, 30, 40);
  CHECK(IndexOf(set.For(15, 0)) == 0);
  CHECK(IndexOf(set.For(35, 0)) == 1);
  CHECK(set.For(25, 150) == nullptr);     // launched between the windows (READY): no one's
  CHECK(set.For(5, 150) == nullptr);      // before the first window's first call
  CHECK(IndexOf(set.For(50, 250)) == 1);  // a call not drained yet: by time
  CHECK(set.For(0, 50) == nullptr);       // before any window
  set.CloseOpen(300, CpuSample(), 400, -1);
  CHECK(set.For(50, 350) == nullptr);  // after the last window closed
  CHECK(IndexOf(set.For(50, 250)) == 1);
}

TEST_CASE("closing: every open window ends once; a split continues in the next file") {
  WindowSet set;
  WindowFile& first = Add(set, 0, 100, 10, 20);
  CHECK_FALSE(set.AnyClosing());
  set.CloseOpen(200, CpuSample(), 300, 1);
  WindowFile& second = Add(set, 1, 200, 30, 40);
  CHECK(set.AnyClosing());
  CHECK(first.closing());
  CHECK(first.close_ns() == 200);
  CHECK(first.finalize_after_ns() == 300);
  CHECK(first.continued());
  CHECK(first.continued_in() == 1);
  CHECK_FALSE(second.closing());
  // An id below the second file's first call, after a split: the window goes on there.
  CHECK(IndexOf(set.For(25, 0)) == 1);
  set.CloseOpen(500, CpuSample(), 600, -1);
  CHECK(first.close_ns() == 200);  // closed already: unchanged
  CHECK(second.close_ns() == 500);
  CHECK_FALSE(second.continued());
  second.EndIfOpen(700);
  CHECK(second.close_ns() == 500);
  set.PopFront();
  CHECK(set.size() == 1);
  CHECK(IndexOf(set.front()) == 1);
  CHECK(IndexOf(set.back()) == 1);
}

TEST_CASE("a window's correlation range: its calls' lowest and highest ids, 0 ignored") {
  WindowSet set;
  WindowFile& window = Add(set, 0, 100, 0, 0);
  CHECK(window.min_correlation_id() == 0);
  CHECK(window.max_correlation_id() == 0);
  window.NoteCorrelationId(30);
  window.NoteCorrelationId(0);  // a call CUPTI did not see
  window.NoteCorrelationId(10);
  window.NoteCorrelationId(20);
  CHECK(window.min_correlation_id() == 10);
  CHECK(window.max_correlation_id() == 30);
}

TEST_CASE("a window that never closed ends when it is finished") {
  WindowSet set;
  WindowFile& window = Add(set, 0, 100, 0, 0);
  window.EndIfOpen(700);
  CHECK(window.close_ns() == 700);
  CHECK_FALSE(window.closing());
}

}  // namespace
}  // namespace prof
