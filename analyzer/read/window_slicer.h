// Cuts one large recording window into step-aligned slices, so a file of any size is
// analyzed holding a bounded part of it (the consumers merge windows already, see
// summary/report.h). The loader feeds the models of consecutive parts of the file
// (segments, cut wherever a number of events was reached) in file order; the slicer joins
// them to what it still holds, links device records to their calls across segments, and
// hands on the records before a step boundary once nothing more can arrive for them.
//
// The rule for a cut at the end T of a step (every record goes to the side of its time; a
// device record to the side of its launching call, wherever it ran):
//  - two more steps must have been read (the agent hands every thread's records to the
//    writer at each step boundary, so a step's host records arrive by the next one's);
//  - every device stream active in the step before T must have been read past T (CUPTI
//    delivers device records later than their calls; a stream idle since before that step
//    does not hold the cut back);
//  - in a file with device records, the device record of some call starting at or after
//    T must have been read: CUPTI hands its records on a buffer at a time (about 19K
//    kernels), in about the order of their launches, so a stream whose latest record is
//    steps old may be lagging, not idle (a window whose GPU rests for long is then cut
//    only past force_events);
//  - no host range but steps and marks may span T, when a boundary without one exists.
// When more than `force_events` are held, the latest cut with two more steps is taken
// anyway. A record read after its slice was handed on goes with the next slice and is
// counted (DataQuality::late_slice_records), never dropped.
//
// Not thread-safe; one per file.
//
//   WindowSlicer slicer(path, header, force_events, device_records, on_slice);
//   slicer.AddSegment(builder.Finish(path));   // any number of times, in file order
//   builder = ModelBuilder(&dictionary, header, slicer.TakeHeld());  // optional
//   slicer.Finish();                            // hands on the rest, per-file figures last
#ifndef PROF_ANALYZER_READ_WINDOW_SLICER_H_
#define PROF_ANALYZER_READ_WINDOW_SLICER_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "analyzer/model/correlation.h"
#include "analyzer/model/trace_model.h"
#include "proto/trace.pb.h"

namespace prof::analyzer {

// Moves the records whose time is before `cut_ns` (device records: their call's time when
// linked) out of `model` into the returned model. The slice takes the model's names,
// kernel launches and thread names as they are (its records keep their ids); what stays
// keeps only the names and launches its records use, renumbered. So a slice's names are
// its own and those of the few records held after it, however many slices came before: a
// numbering carried across cuts grew with the file's steps, each named apart. Identity and
// headers go to both; files, CPU windows and data quality stay in `model`, but for the
// slice's own count of device records without a call (quality.unmatched_device_records).
// `late_records`, when given: set to the number of records before `late_ns` by the same
// rule (the records late for an earlier cut), counted in the same pass.
TraceModel TakeSliceBefore(uint64_t cut_ns, TraceModel* model, uint64_t late_ns = 0,
                           uint64_t* late_records = nullptr);

// The step end to cut `model` at under the rule above, if any; `force`: ignore device
// streams and spanning ranges. `stream_latest`: the latest start on each of the model's
// device streams, as linking it found them (LinkDeviceActivitiesToApiCalls).
// `answered_to`: the latest start of a call whose device record was read so far (no cut
// after it), the largest uint64_t where no device record is to come.
std::optional<uint64_t> ChooseCut(const TraceModel& model, bool force,
                                  const StreamLatestStarts& stream_latest,
                                  uint64_t answered_to = ~uint64_t{0});

class WindowSlicer {
 public:
  using SliceSink = std::function<void(TraceModel slice)>;
  // `device_records`: whether the file holds any device record (then no cut passes the
  // latest call a device record answered, above).
  WindowSlicer(std::string path, trace::FileHeader header, uint64_t force_events,
               bool device_records, SliceSink sink);

  // A segment's model (clocks converted with all the file's anchors). Its per-file figures
  // (files, CPU windows, clock line, dictionary counts) are dropped: the last segment's,
  // given to Finish, are the file's.
  void AddSegment(TraceModel segment);
  // The last segment; hands on everything held. Always hands on at least one slice.
  void Finish(TraceModel last_segment);
  // What is held after the last AddSegment, for the next segment's builder to continue
  // (ModelBuilder's continuing constructor): the next segment then brings it back, and the
  // held records are not copied into each segment. Without it, segments are appended.
  TraceModel TakeHeld();

  uint64_t slices() const { return slices_; }

 private:
  void Join(TraceModel segment);
  void Emit(TraceModel slice);

  std::string path_;
  trace::FileHeader header_;
  uint64_t force_events_;
  SliceSink sink_;
  TraceModel held_;
  StreamLatestStarts stream_latest_;  // held_'s, found as Join links it
  // The latest start of a call whose device record was read (the largest uint64_t in a
  // file without device records).
  uint64_t answered_to_;
  bool holding_ = false;
  uint64_t cut_ns_ = 0;  // the latest cut handed on
  uint64_t slices_ = 0;
};

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_READ_WINDOW_SLICER_H_
