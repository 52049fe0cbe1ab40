// The writer at exit: when Shutdown's time bound passes while the writer is stuck (here in
// a device flush that takes longer than the bound, as a CUPTI flush on a hung GPU would),
// Shutdown returns false and the writer touches nothing after the stuck call returns: no
// drain, no file written. Static destructors then run without it.
#include "agent/writer/trace_writer.h"

#include <sys/stat.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>

#include "agent/cupti/cupti_test_support.h"
#include "agent/record/clock.h"

namespace prof {
namespace {

// A device source whose forced flush takes `flush_ms`; counts what the writer asks of it.
class SlowFlushSource : public DeviceActivitySource {
 public:
  explicit SlowFlushSource(int flush_ms) : flush_ms_(flush_ms) {}
  bool Enable() override { return true; }
  void Disable() override {}
  void Flush(bool forced) override {
    if (!forced) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(flush_ms_));
    flush_returned.store(true);
  }
  void Drain(WindowRouter&) override { drains.fetch_add(1); }
  ClockAnchorValue Anchor(const char*) override { return ClockAnchorValue(); }

  std::atomic<bool> flush_returned{false};
  std::atomic<int> drains{0};

 private:
  const int flush_ms_;
};

long FileSize(const std::string& path) {
  struct stat status;
  return stat(path.c_str(), &status) == 0 ? static_cast<long>(status.st_size) : -1;
}

TEST_CASE("after an exit timeout the writer parks and touches nothing more") {
  Config config;
  config.output_dir = testing::FreshOutputFolder("writer_exit");
  REQUIRE_FALSE(config.output_dir.empty());
  config.worker_name = "exit_timeout";
  auto owned = std::make_unique<SlowFlushSource>(/*flush_ms=*/800);
  SlowFlushSource* source = owned.get();
  FileHeaderValue header;
  header.worker_name = config.worker_name;
  // Leaked, as at process exit: its thread stays parked on it.
  TraceWriter& writer = *new TraceWriter(config, header, std::move(owned));
  writer.EnableDeviceNow();  // no writer thread yet: subscribed here
  WindowSpec spec;
  spec.open_ns = MonotonicNs();
  writer.OpenWindow(spec);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the window is open

  const auto start = std::chrono::steady_clock::now();
  CHECK_FALSE(writer.Shutdown(/*timeout_ns=*/100 * 1000 * 1000));
  const auto waited = std::chrono::steady_clock::now() - start;
  CHECK(waited < std::chrono::milliseconds(700));  // the bound plus the short park wait
  const int drains_at_timeout = source->drains.load();
  const long size_at_timeout = FileSize(writer.PathOf(0));

  // The stuck call returns 800 ms after the writer entered it; on a loaded machine the
  // writer may have entered it late, so wait for the return (a fixed 1.2 s failed once
  // under CI's load), then give the writer 300 ms in which it must do nothing.
  for (int i = 0; i < 1000 && !source->flush_returned.load(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  REQUIRE(source->flush_returned.load());  // the stuck call did return...
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK(source->drains.load() == drains_at_timeout);  // ...and nothing ran after it
  CHECK(FileSize(writer.PathOf(0)) == size_at_timeout);
}

}  // namespace
}  // namespace prof
