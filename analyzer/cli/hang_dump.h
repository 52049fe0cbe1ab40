// One flight dump's RankDump (job/hang_analysis.h) from its model, read whole or in slices
// (read/window_slicer.h): what `profanalyze hang` needs of a dump is carried from slice to
// slice (the latest call and range, the collectives, the last step), so a large dump is read
// holding one slice at a time and gives what a whole read gives.
//
//   DumpBuilder builder;
//   builder.Add(slice);  // each slice in order (or the whole model once)
//   RankDump dump = builder.Finish();
#ifndef PROF_ANALYZER_CLI_HANG_DUMP_H_
#define PROF_ANALYZER_CLI_HANG_DUMP_H_

#include <cstdint>
#include <optional>
#include <string>

#include "analyzer/job/hang_analysis.h"
#include "analyzer/model/trace_model.h"

namespace prof::analyzer {

class DumpBuilder {
 public:
  // The model's header must have a flight dump (FileHeader.flight); the first call's header
  // is the dump's.
  void Add(const TraceModel& part);
  RankDump Finish();

 private:
  // The latest record of a kind seen so far, with its name (names are per slice).
  struct Latest {
    uint64_t start_ns = 0;
    std::string text;
  };
  bool started_ = false;
  RankDump dump_;
  uint64_t dump_ns_ = 0;
  int32_t largest_communicator_ = 0;
  std::optional<NcclCall> last_call_;
  std::optional<Latest> api_call_;
  std::optional<Latest> range_;
  bool range_open_ = false;
};

// A whole model's dump.
RankDump DumpOf(const TraceModel& model);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_CLI_HANG_DUMP_H_
