// A progress line on stderr while files are read, only when stderr is a terminal:
// "profanalyze: reading N file(s): M events", redrawn every 200 ms by its own thread and
// erased when the object is destroyed.
#ifndef PROF_ANALYZER_PIPELINE_PROGRESS_LINE_H_
#define PROF_ANALYZER_PIPELINE_PROGRESS_LINE_H_

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>

namespace prof::analyzer {

class ProgressLine {
 public:
  // `events` is advanced by the readers; it must outlive this object.
  ProgressLine(size_t files, const std::atomic<uint64_t>* events);
  ~ProgressLine();

 private:
  void Run();

  size_t files_;
  const std::atomic<uint64_t>* events_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
};

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_PIPELINE_PROGRESS_LINE_H_
