// The Perfetto export parses back with the protobuf reader as a Trace: every track used is
// described, slices begin and end in nesting order per track, and the events carry the
// same recorded arguments as the Chrome export (values from timeline_test_trace.cc).
#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "analyzer/render/perfetto_exporter.h"
#include "analyzer/render/perfetto_trace.pb.h"
#include "analyzer/render/timeline_test_trace.h"
#include "analyzer/testing/analyze.h"
#include "analyzer/testing/test_trace.h"

namespace prof::analyzer {
namespace {

perfetto::Trace ExportAndParse(const std::string& trace_name, PerfettoExportFigures* figures) {
  const TraceModel model = testing::LoadOrDie(testing::WriteRecordedArgumentsTrace(trace_name));
  const std::string path = testing::TempPath(trace_name + ".perfetto-trace");
  std::FILE* out = std::fopen(path.c_str(), "wb");
  REQUIRE(out != nullptr);
  REQUIRE(ExportPerfettoTrace({&model}, out, figures).ok());
  std::fclose(out);
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  perfetto::Trace trace;
  REQUIRE(trace.ParseFromString(bytes.str()));
  return trace;
}

const perfetto::TrackEvent* FindBegin(const perfetto::Trace& trace, const std::string& name) {
  for (const perfetto::TracePacket& packet : trace.packet()) {
    if (packet.has_track_event() && packet.track_event().name() == name)
      return &packet.track_event();
  }
  return nullptr;
}

const perfetto::DebugAnnotation* Arg(const perfetto::TrackEvent& event, const std::string& name) {
  for (const perfetto::DebugAnnotation& annotation : event.debug_annotations()) {
    if (annotation.name() == name) return &annotation;
  }
  return nullptr;
}

TEST_CASE("Perfetto export: described tracks, balanced slices, launch flows") {
  PerfettoExportFigures figures;
  const perfetto::Trace trace = ExportAndParse("perfetto_tracks.pb", &figures);
  REQUIRE(trace.packet_size() == static_cast<int>(figures.packets));
  CHECK(trace.packet(0).sequence_flags() == perfetto::TracePacket::SEQ_INCREMENTAL_STATE_CLEARED);
  std::map<uint64_t, std::string> tracks;
  std::map<uint64_t, int> depth;
  for (const perfetto::TracePacket& packet : trace.packet()) {
    CHECK(packet.trusted_packet_sequence_id() == 1);
    if (packet.has_track_descriptor()) {
      const perfetto::TrackDescriptor& track = packet.track_descriptor();
      tracks[track.uuid()] = track.has_process()  ? track.process().process_name()
                             : track.has_thread() ? track.thread().thread_name()
                                                  : track.name();
      continue;
    }
    if (!packet.has_track_event()) continue;
    const perfetto::TrackEvent& event = packet.track_event();
    INFO("event " << event.name() << " on track " << event.track_uuid());
    CHECK(tracks.count(event.track_uuid()) == 1);  // described before use
    if (event.type() == perfetto::TrackEvent::TYPE_SLICE_BEGIN) ++depth[event.track_uuid()];
    if (event.type() == perfetto::TrackEvent::TYPE_SLICE_END)
      CHECK(--depth[event.track_uuid()] >= 0);
  }
  for (const auto& [track, open] : depth) CHECK(open == 0);
  std::multiset<std::string> names;
  for (const auto& [uuid, name] : tracks) names.insert(name);
  CHECK(names.count("Process 4242 (CPU) rank 1") == 1);
  CHECK(names.count("GPU 0 rank 1") == 1);
  CHECK(names.count("stream 7") == 1);
  CHECK(names.count("recording windows") == 1);
  CHECK(names.count("memory GPU0") == 1);
  // Two launches matched (kernel, copy): their flows start on the calls and end on the GPU.
  CHECK(figures.flows == 2);
  const perfetto::TrackEvent* launch = FindBegin(trace, "cudaLaunchKernel");
  const perfetto::TrackEvent* kernel = FindBegin(trace, "gemm_kernel");
  REQUIRE(launch != nullptr);
  REQUIRE(kernel != nullptr);
  REQUIRE(launch->flow_ids_size() == 1);
  REQUIRE(kernel->terminating_flow_ids_size() == 1);
  CHECK(launch->flow_ids(0) == kernel->terminating_flow_ids(0));
  CHECK(figures.clamped_slices == 0);
}

TEST_CASE("Perfetto export: events carry the recorded arguments") {
  PerfettoExportFigures figures;
  const perfetto::Trace trace = ExportAndParse("perfetto_args.pb", &figures);
  const perfetto::TrackEvent* kernel = FindBegin(trace, "gemm_kernel");
  REQUIRE(kernel != nullptr);
  REQUIRE(Arg(*kernel, "grid") != nullptr);
  CHECK(Arg(*kernel, "grid")->string_value() == "[4, 2, 1]");
  CHECK(Arg(*kernel, "registers per thread")->uint_value() == 64);
  CHECK(Arg(*kernel, "theoretical occupancy %")->double_value() == Approx(50.0));
  const perfetto::TrackEvent* copy = FindBegin(trace, "MEMCPY_HtoD");
  if (copy == nullptr) {
    for (const perfetto::TracePacket& packet : trace.packet()) {
      if (packet.has_track_event() && !packet.track_event().categories().empty() &&
          packet.track_event().categories(0) == "Memcpy")
        copy = &packet.track_event();
    }
  }
  REQUIRE(copy != nullptr);
  CHECK(Arg(*copy, "GB/s")->double_value() == Approx(100.0));
  CHECK(Arg(*copy, "kind")->string_value() == "HtoD");
  const perfetto::TrackEvent* send = FindBegin(trace, "ncclSend");
  REQUIRE(send != nullptr);
  CHECK(Arg(*send, "count")->uint_value() == 256);
  CHECK(Arg(*send, "dtype")->string_value() == "ncclFloat32");
  CHECK(Arg(*send, "peer rank")->int_value() == 3);
  CHECK(Arg(*send, "ranks")->int_value() == 4);
  CHECK(FindBegin(trace, "ncclAllReduce") != nullptr);
  const perfetto::TrackEvent* allocation = FindBegin(trace, "allocate");
  REQUIRE(allocation != nullptr);
  CHECK(allocation->type() == perfetto::TrackEvent::TYPE_INSTANT);
  CHECK(Arg(*allocation, "call stack")->string_value() == "at::native::empty_cuda < 0x4f0");
  CHECK(FindBegin(trace, "window 2 (steps 5-6)") != nullptr);
  CHECK(FindBegin(trace, "ProfileStep#5") != nullptr);
}

TEST_CASE("Perfetto export: allocator samples and host RSS are byte counter tracks") {
  PerfettoExportFigures figures;
  const perfetto::Trace trace = ExportAndParse("perfetto_samples.pb", &figures);
  std::map<uint64_t, std::string> counter_tracks;  // uuid -> name, byte counters only
  std::map<std::string, std::vector<std::pair<uint64_t, int64_t>>> values;  // name -> (time, bytes)
  for (const perfetto::TracePacket& packet : trace.packet()) {
    if (packet.has_track_descriptor() && packet.track_descriptor().has_counter()) {
      const perfetto::TrackDescriptor& track = packet.track_descriptor();
      CHECK(track.counter().unit() == perfetto::CounterDescriptor::UNIT_SIZE_BYTES);
      counter_tracks[track.uuid()] = track.name();
    }
    if (!packet.has_track_event() ||
        packet.track_event().type() != perfetto::TrackEvent::TYPE_COUNTER)
      continue;
    const auto track = counter_tracks.find(packet.track_event().track_uuid());
    REQUIRE(track != counter_tracks.end());  // described before use
    values[track->second].push_back({packet.timestamp(), packet.track_event().counter_value()});
  }
  // timeline_test_trace.cc's samples.
  using Points = std::vector<std::pair<uint64_t, int64_t>>;
  CHECK(values["GPU0 allocated"] == Points{{60000, 4096}, {90000, 0}});
  CHECK(values["GPU0 reserved"] == Points{{60000, 2097152}, {90000, 2097152}});
  CHECK(values["Host RSS"] == Points{{100000, 123456789}});
  CHECK(values["memory GPU0"] == Points{{50000, 4096}});  // the cudaMalloc-based track stays
}

// Kernels converted from the CUPTI clock can overlap their neighbour on a stream by a
// nanosecond; the earlier one ends where the later starts, the later keeps its duration.
TEST_CASE("Perfetto export: overlapping slices on a track end the earlier one early") {
  testing::TestTrace trace;
  trace.Kernel("first", 0, 7, 1000, 2001, 1);
  trace.Kernel("second", 0, 7, 2000, 3000, 2);
  const TraceModel model = testing::LoadOrDie(trace.Write("overlap.pb"));
  const std::string path = testing::TempPath("overlap.perfetto-trace");
  std::FILE* out = std::fopen(path.c_str(), "wb");
  REQUIRE(out != nullptr);
  PerfettoExportFigures figures;
  REQUIRE(ExportPerfettoTrace({&model}, out, &figures).ok());
  std::fclose(out);
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  perfetto::Trace parsed;
  REQUIRE(parsed.ParseFromString(bytes.str()));
  std::vector<std::pair<int, uint64_t>> events;  // (type, time) of the stream's slices
  for (const perfetto::TracePacket& packet : parsed.packet()) {
    if (!packet.has_track_event()) continue;
    const int type = packet.track_event().type();
    if (type == perfetto::TrackEvent::TYPE_SLICE_BEGIN ||
        type == perfetto::TrackEvent::TYPE_SLICE_END) {
      events.push_back({type, packet.timestamp()});
    }
  }
  // Each track's events are written together: the stream's four, in host time.
  CHECK(figures.clamped_slices == 1);
  const std::vector<std::pair<int, uint64_t>> kernels = {
      {perfetto::TrackEvent::TYPE_SLICE_BEGIN, 1000},
      {perfetto::TrackEvent::TYPE_SLICE_END, 2000},
      {perfetto::TrackEvent::TYPE_SLICE_BEGIN, 2000},
      {perfetto::TrackEvent::TYPE_SLICE_END, 3000}};
  CHECK(std::search(events.begin(), events.end(), kernels.begin(), kernels.end()) != events.end());
}

}  // namespace
}  // namespace prof::analyzer
