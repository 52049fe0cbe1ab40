// Every host record lands in the file of the window that contains its start time, however
// late the writer is to see a window open. The writer takes the queued window commands,
// runs them (a CUPTI subscription can take 100+ ms on a real GPU), then drains the threads'
// buffers; meanwhile the program goes on, opens the next window and records in it. Those
// records must wait for the writer to see that open, not go into the previous window's
// file (drain_horizon.h); and a closed window must not be finalized while its records still
// wait for the writer. Deterministic cases (the writer held inside a subscription), and a
// stress case (short windows, several recording threads, a slow subscription).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "agent/control/step_controller.h"
#include "agent/cupti/cupti_test_support.h"
#include "agent/record/api_ids.h"
#include "agent/record/clock.h"
#include "agent/record/recorder.h"
#include "proto/chunk_decoder.h"
#include "proto/file_dictionary.h"
#include "proto/trace_file_reader.h"

namespace prof {
namespace {

// Device activity without CUPTI: each subscription takes `enable_us`, as a slow
// cuptiSubscribe would; after HoldNextEnable() the next one also waits (on the writer
// thread) until the test releases it.
class SlowSubscription : public DeviceActivitySource {
 public:
  explicit SlowSubscription(int enable_us) : enable_us_(enable_us) {}
  bool Enable() override {
    std::unique_lock<std::mutex> lock(mutex_);
    if (held_) {
      entered_ = true;
      entered_changed_.notify_all();
      released_.wait(lock, [this] { return !held_; });
    }
    lock.unlock();
    std::this_thread::sleep_for(std::chrono::microseconds(enable_us_));
    return true;
  }
  void Disable() override {}
  void Flush(bool) override {}
  void Drain(WindowRouter&) override {}
  ClockAnchorValue Anchor(const char*) override { return ClockAnchorValue(); }

  void HoldNextEnable() {
    std::lock_guard<std::mutex> lock(mutex_);
    held_ = true;
    entered_ = false;
  }
  void WaitUntilEntered() {
    std::unique_lock<std::mutex> lock(mutex_);
    entered_changed_.wait_for(lock, std::chrono::seconds(5), [this] { return entered_; });
    REQUIRE(entered_);  // the writer thread is now inside Enable
  }
  void Release() {
    std::lock_guard<std::mutex> lock(mutex_);
    held_ = false;
    released_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable released_;
  std::condition_variable entered_changed_;
  bool held_ = false;
  bool entered_ = false;
  const int enable_us_;
};

// A writer and a step controller on `schedule_text`; the writer subscribes through `source`.
struct Rig {
  Rig(const std::string& name, const char* schedule_text, std::unique_ptr<SlowSubscription> owned) {
    // The simulated runtime is loaded (the writer subscribes only in a process using CUDA).
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    source = owned.get();
    config.output_dir = testing::FreshOutputFolder(name);
    REQUIRE_FALSE(config.output_dir.empty());
    config.worker_name = name;
    FileHeaderValue header;
    header.worker_name = name;
    writer = std::make_unique<TraceWriter>(config, header, std::move(owned));
    steps = std::make_unique<StepController>(*ParseSchedule(schedule_text).schedule, writer.get(),
                                             MonotonicNs());
    steps->Begin();
  }
  void Finish() {
    source->Release();
    steps->End();
    REQUIRE(writer->Shutdown(10000000000ull));
    SetRecording(false);
  }

  Config config;
  SlowSubscription* source = nullptr;
  std::unique_ptr<TraceWriter> writer;
  std::unique_ptr<StepController> steps;
};

// What a window file holds: its marks' names, API calls (by the id the test put in their
// byte count, with start times) and steps.
struct FileContents {
  std::map<std::string, int> marks;          // name -> count
  std::map<uint64_t, uint64_t> call_starts;  // id -> start
  int duplicate_calls = 0;
  std::vector<StepEvent> steps;
};

class ContentsSink : public EventSink {
 public:
  ContentsSink(FileContents* contents, FileDictionary* dictionary)
      : contents_(contents), dictionary_(dictionary) {}
  void OnHostRange(const HostRangeEvent& event) override {
    if (event.kind == schema::RANGE_KIND_MARK) {
      ++contents_->marks[std::string(dictionary_->String(event.name))];
    }
  }
  void OnApiCall(const ApiCallEvent& event) override {
    if (!contents_->call_starts.emplace(event.bytes, event.start_ns).second) {
      ++contents_->duplicate_calls;
    }
  }
  void OnStep(const StepEvent& event) override { contents_->steps.push_back(event); }

 private:
  FileContents* contents_;
  FileDictionary* dictionary_;
};

// A window in which nothing was recorded has no file: then nothing.
FileContents ReadContents(const std::string& path) {
  FileContents contents;
  auto reader = TraceFileReader::Open(path);
  if (!reader.ok()) return contents;
  FileDictionary dictionary;
  ContentsSink sink(&contents, &dictionary);
  trace::Chunk chunk;
  while ((*reader)->Next(&chunk)) {
    dictionary.AddDefinitions(chunk);
    REQUIRE(DecodeChunk(chunk, &sink).malformed_blocks == 0);
  }
  CHECK((*reader)->report().complete());
  return contents;
}

void Mark(const char* name) { RecordNamed<RecordKind::kMark>(0, name, MonotonicNs(), 0); }

TEST_CASE("a window opened while the writer is inside a subscription gets its own records") {
  // Step 0 CLOSED, step 1 window 0, step 2 CLOSED, step 3 window 1: every window asks for
  // CUPTI, and the first subscription holds the writer until the test releases it.
  Rig rig("held_writer", "closed=1,record=1,repeat=2", std::make_unique<SlowSubscription>(0));
  rig.source->HoldNextEnable();
  rig.steps->Step(1);  // window 0 opens; the writer takes the subscription and is held
  rig.source->WaitUntilEntered();
  REQUIRE(Recording());
  for (int i = 0; i < 3; ++i) Mark("in_window_0");
  rig.steps->Step(1);  // window 0 closes
  rig.steps->Step(1);  // window 1 opens, queued behind the held writer
  REQUIRE(Recording());
  for (int i = 0; i < 4; ++i) Mark("in_window_1");
  rig.source->Release();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the writer's next passes
  rig.steps->Step(1);                                          // window 1 closes
  CHECK_FALSE(Recording());
  rig.Finish();

  const FileContents first = ReadContents(rig.writer->PathOf(0));
  const FileContents second = ReadContents(rig.writer->PathOf(1));
  CHECK(first.marks == std::map<std::string, int>{{"in_window_0", 3}});
  CHECK(second.marks == std::map<std::string, int>{{"in_window_1", 4}});
  REQUIRE(first.steps.size() == 1);
  CHECK(first.steps[0].step_number == 1);
  REQUIRE(second.steps.size() == 1);
  CHECK(second.steps[0].step_number == 3);
}

TEST_CASE("a closed window is finalized only once its records are drained") {
  // Step 0 CLOSED, 1 READY, 2 window 0, 3 CLOSED, 4 READY, 5 window 1.
  Rig rig("finalized_late", "closed=1,ready=1,record=1,repeat=2",
          std::make_unique<SlowSubscription>(0));
  rig.steps->Step(1);  // READY: subscribed
  rig.steps->Step(1);  // window 0 opens
  Mark("in_window_0");
  rig.steps->Step(1);  // window 0 closes; unsubscribed
  for (int i = 0; i < 500 && !rig.writer->DeviceCommandDone(2); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  REQUIRE(rig.writer->DeviceCommandDone(2));  // the writer has handled the close
  rig.source->HoldNextEnable();
  rig.steps->Step(1);  // READY: the writer takes the subscription and is held
  rig.source->WaitUntilEntered();
  // Made after window 0 closed, before window 1 opens (a thread that saw the recording flag
  // just before it went off): window 0's, the last window open at its start time. The
  // writer's pass began before it, so that pass leaves it in its buffer.
  Mark("after_window_0");
  // The held pass outlasts window 0's close grace (30 ms); it must still not finalize the
  // window before the record is drained. (The pass began well within the grace: only a
  // writer stalled for 30 ms before taking the subscription would make the record late.)
  std::this_thread::sleep_for(std::chrono::milliseconds(80));
  rig.source->Release();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the writer's next passes
  rig.steps->Step(1);                                          // window 1 opens
  Mark("in_window_1");
  rig.steps->Step(1);  // window 1 closes
  rig.Finish();

  const FileContents first = ReadContents(rig.writer->PathOf(0));
  const FileContents second = ReadContents(rig.writer->PathOf(1));
  CHECK(first.marks == std::map<std::string, int>{{"in_window_0", 1}, {"after_window_0", 1}});
  CHECK(second.marks == std::map<std::string, int>{{"in_window_1", 1}});
}

// Appends an API call whose byte count is `id`; false when the buffer was full.
bool RecordCall(uint64_t id, uint64_t start_ns) {
  size_t size;
  ApiCallRecord* record = BeginRecord<ApiCallRecord>(nullptr, &size);
  if (!record) return false;
  record->api = kApi_cudaMemcpy;
  record->start_ns = start_ns;
  record->end_ns = MonotonicNs();
  record->stream_plus_one = 0;
  record->bytes = id;
  record->copy_kind_plus_one = 0;
  record->function = nullptr;
  record->launch = LaunchGeometry{};
  CommitRecord(size);
  return true;
}

// One recording thread's output: which calls it made, and which of them took so long from
// their start time to their append (a preempted thread) that the writer may have finalized
// their window first: such a late record goes to the oldest window still open, by design.
struct ThreadCalls {
  std::vector<uint64_t> made;
  std::set<uint64_t> late;
};

constexpr uint64_t kLateNs = 5000000;  // 5 ms, far below the writer's 30 ms close grace

// Records while a window records: a call, and sometimes a call with a nested one, so a
// buffer's start times are not in order (the outer call is appended after the inner).
void RecordWhileRunning(int thread, const std::atomic<bool>& running, ThreadCalls* out) {
  uint64_t sequence = 0;
  auto make = [&](uint64_t start) {
    const uint64_t id = (uint64_t(thread) << 32) | sequence++;
    if (!RecordCall(id, start)) return;
    out->made.push_back(id);
    if (MonotonicNs() - start > kLateNs) out->late.insert(id);
  };
  while (running.load()) {
    if (!Recording()) {
      std::this_thread::yield();
      continue;
    }
    const uint64_t start = MonotonicNs();
    if (sequence % 4 == 0) make(MonotonicNs());  // inner, appended before the outer call
    make(start);
    const uint64_t until = MonotonicNs() + 2000;  // about one call every 2 us
    while (MonotonicNs() < until) {
    }
  }
}

TEST_CASE("stress: short windows, several recording threads, a slow subscription") {
  constexpr int kWindows = 150;
  constexpr int kThreads = 3;
  // Every window subscribes (300 us, as a slow CUPTI) and unsubscribes; steps of ~100 us.
  Rig rig("stress", "closed=1,record=1,repeat=150", std::make_unique<SlowSubscription>(300));
  std::atomic<bool> running{true};
  std::vector<ThreadCalls> calls(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    calls[t].made.reserve(1 << 20);
    threads.emplace_back(RecordWhileRunning, t + 1, std::cref(running), &calls[t]);
  }
  // The time of each step boundary lies within [before, after] of its Step() call.
  std::vector<uint64_t> before, after;
  for (int step = 0; step < 2 * kWindows; ++step) {
    std::this_thread::sleep_for(std::chrono::microseconds(100));
    before.push_back(MonotonicNs());
    rig.steps->Step(1);
    after.push_back(MonotonicNs());
  }
  CHECK_FALSE(Recording());
  running.store(false);
  for (auto& thread : threads) thread.join();
  rig.Finish();

  std::map<uint64_t, int> found;  // id -> window index
  std::map<uint64_t, uint64_t> start_of;
  int in_earlier_window = 0, in_later_window = 0, steps_misplaced = 0, duplicates = 0;
  for (int k = 0; k < kWindows; ++k) {
    const FileContents contents = ReadContents(rig.writer->PathOf(k));
    // Window k opens at boundary 2k (the end of step 2k) and the next one at 2k + 2.
    const uint64_t opened_before = before[2 * k];
    const uint64_t next_opened_after = k + 1 < kWindows ? after[2 * k + 2] : UINT64_MAX;
    if (contents.steps.size() != 1 || contents.steps[0].step_number != 2 * k + 1) ++steps_misplaced;
    duplicates += contents.duplicate_calls;
    for (const auto& [id, start] : contents.call_starts) {
      if (!found.emplace(id, k).second) ++duplicates;
      start_of[id] = start;
      // In a window before the one containing its start: the race this test is about.
      if (start >= next_opened_after) ++in_earlier_window;
      if (start < opened_before) ++in_later_window;  // excused below if appended late
    }
  }
  int excused = 0, made = 0, missing = 0;
  for (const ThreadCalls& thread : calls) {
    made += static_cast<int>(thread.made.size());
    for (uint64_t id : thread.made) missing += found.count(id) ? 0 : 1;
    for (uint64_t id : thread.late) {
      const auto it = found.find(id);
      if (it != found.end() && start_of[id] < before[2 * it->second]) ++excused;
    }
  }
  INFO("calls made: " << made);
  CHECK(made > 1000);
  CHECK(in_earlier_window == 0);          // the race: a window that closed before it began
  CHECK(in_later_window - excused == 0);  // nor a later one, unless appended late
  CHECK(steps_misplaced == 0);            // each window's own step record is in its file
  CHECK(missing == 0);
  CHECK(duplicates == 0);
}

}  // namespace
}  // namespace prof
