// `profanalyze export` reads one window file at a time; a run cut into window files
// exports the same events and launch flows as the run in one file, as valid JSON.
#include "analyzer/cli/export_command.h"

#include <filesystem>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <algorithm>
#include <map>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "analyzer/cli/export_timeline.h"

#include "analyzer/read/trace_file_loader.h"
#include "analyzer/render/perfetto_trace.pb.h"
#include "analyzer/testing/sliced_window.h"
#include "analyzer/testing/scratch.h"
#include "analyzer/testing/synthetic_trace.h"
#include "analyzer/testing/test_trace.h"

namespace prof::analyzer {
namespace {

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

size_t Occurrences(const std::string& text, const std::string& what) {
  size_t count = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

std::string Export(const std::string& input, const std::string& output) {
  ExportCommandOptions options;
  options.paths = {input};
  options.output = output;
  REQUIRE(RunExportCommand(options) == 0);
  // Valid JSON, as Perfetto and chrome://tracing read it.
  CHECK(std::system(("python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '" + output + "'")
                        .c_str()) == 0);
  return ReadAll(output);
}

TEST_CASE("export: one file or three window files, the same events and flows") {
  const std::string single = testing::ScratchFolder("export_single") + "/run.pb";
  const std::string windows = testing::ScratchFolder("export_windows");
  REQUIRE(WriteSyntheticTrace(single, 30000, 1) == WriteSyntheticTrace(windows, 30000, 3));
  const std::string whole = Export(single, single + ".json");
  const std::string split = Export(windows, windows + "/../split.json");
  for (const char* kind : {"\"ph\":\"X\"", "\"ph\":\"s\"", "\"ph\":\"f\""}) {
    INFO(kind);
    CHECK(Occurrences(whole, kind) > 0);
    // Each window file adds its labeled "recording windows" range.
    const size_t windows_ranges = std::string(kind) == "\"ph\":\"X\"" ? 1 : 0;
    CHECK(Occurrences(split, kind) - 3 * windows_ranges ==
          Occurrences(whole, kind) - windows_ranges);
  }
  CHECK(Occurrences(whole, "\"cat\":\"window\"") == 1);
  CHECK(Occurrences(split, "\"cat\":\"window\"") == 3);
}

// The lines of a Chrome export (one event per line), sorted: a window read in slices is
// written slice by slice, so its events come in another order.
std::vector<std::string> SortedLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.front() == ',') line.erase(0, 1);  // the first event has none
    if (line.size() >= 2 && line.compare(line.size() - 2, 2, "]}") == 0)  // the last closes
      line.resize(line.size() - 2);
    lines.push_back(line);
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

// The lines of `a` that `b` lacks (both sorted, as SortedLines): the count and the first
// three, so a failure shows what differs rather than two whole exports.
std::string Missing(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::string> missing;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(missing));
  std::string text = std::to_string(missing.size()) + " lines";
  for (size_t i = 0; i < missing.size() && i < 3; ++i) text += "\n" + missing[i];
  return missing.empty() ? "" : text;
}

// The `format` export of `input` read whole, and read in slices (a segment per chunk).
std::pair<std::string, std::string> WholeAndSliced(const std::string& input,
                                                   const std::string& format = "chrome") {
  TimelineExport whole, sliced;
  REQUIRE(ExportTimeline({input}, input + ".whole.json", format, &whole).ok());
  REQUIRE(ExportTimeline({input}, input + ".sliced.json", format, &sliced, {0, 1}).ok());
  CHECK(sliced.summary == whole.summary);
  size_t slices = 0;
  REQUIRE(ReadTraceFileInSlices(input, {0, 1}, nullptr, [&](TraceModel) { ++slices; }).ok());
  CHECK(slices >= 3);
  return {ReadAll(input + ".whole.json"), ReadAll(input + ".sliced.json")};
}

TEST_CASE("export: a window read in slices writes the events of a whole read") {
  // Device records a chunk after their calls, memory alive across steps.
  testing::TestTrace trace(0);
  testing::AddTwelveSteps(false, &trace);
  const std::string twelve = trace.Write("export_sliced_twelve.pb");
  const std::string synthetic = testing::ScratchFolder("export_sliced") + "/run.pb";
  REQUIRE(WriteSyntheticTrace(synthetic, 300000, 1) > 0);
  for (const std::string& input : {twelve, synthetic}) {
    INFO(input);
    const auto [whole, sliced] = WholeAndSliced(input);
    CHECK(Occurrences(sliced, "\"cat\":\"window\"") == 1);  // one recording window, whole span
    CHECK(Occurrences(whole, "\"ph\":\"f\"") > 0);
    CHECK(Occurrences(whole, "\"name\":\"thread_name\"") > 1);
    CHECK(SortedLines(sliced) == SortedLines(whole));
  }
}

TEST_CASE("export --format kineto: a window read in slices writes the events of a whole read") {
  testing::TestTrace trace(0);
  testing::AddTwelveSteps(false, &trace);
  const std::string twelve = trace.Write("export_sliced_kineto_twelve.pb");
  const std::string synthetic = testing::ScratchFolder("export_sliced_kineto") + "/run.pb";
  REQUIRE(WriteSyntheticTrace(synthetic, 300000, 1) > 0);
  for (const std::string& input : {twelve, synthetic}) {
    INFO(input);
    const auto [whole, sliced] = WholeAndSliced(input, "kineto");
    CHECK(Occurrences(whole, "\"External id\"") > 0);
    CHECK(Occurrences(whole, "\"ph\":\"f\"") > 0);
    // Each slice's events come after the previous slice's: the same events, and the same
    // External ids, in another order.
    const std::vector<std::string> whole_lines = SortedLines(whole);
    const std::vector<std::string> sliced_lines = SortedLines(sliced);
    CHECK(Missing(whole_lines, sliced_lines) == "");
    CHECK(Missing(sliced_lines, whole_lines) == "");
  }
}

// A Perfetto trace as what a reader makes of it: per track (by uuid), its begin and end
// packets in order, then its instants and counters sorted; track descriptors (key 0) sorted.
std::map<uint64_t, std::vector<std::string>> PerfettoTracks(const std::string& bytes) {
  perfetto::Trace trace;
  REQUIRE(trace.ParseFromString(bytes));
  std::map<uint64_t, std::vector<std::string>> nesting, others;
  for (const perfetto::TracePacket& packet : trace.packet()) {
    const std::string text = packet.SerializeAsString();
    if (!packet.has_track_event()) {
      others[0].push_back(text);
      continue;
    }
    const perfetto::TrackEvent& event = packet.track_event();
    const bool nests = event.type() == perfetto::TrackEvent::TYPE_SLICE_BEGIN ||
                       event.type() == perfetto::TrackEvent::TYPE_SLICE_END;
    (nests ? nesting : others)[event.track_uuid()].push_back(text);
  }
  for (auto& [track, packets] : others) {
    std::sort(packets.begin(), packets.end());
    std::vector<std::string>& all = nesting[track];
    all.insert(all.end(), packets.begin(), packets.end());
  }
  return nesting;
}

TEST_CASE("export --format perfetto: a window read in slices nests each track as a whole read") {
  testing::TestTrace trace(0);
  testing::AddTwelveSteps(false, &trace);
  const std::string twelve = trace.Write("export_sliced_perfetto_twelve.pb");
  const std::string synthetic = testing::ScratchFolder("export_sliced_perfetto") + "/run.pb";
  REQUIRE(WriteSyntheticTrace(synthetic, 300000, 1) > 0);
  for (const std::string& input : {twelve, synthetic}) {
    INFO(input);
    TimelineExport whole, sliced;
    REQUIRE(ExportTimeline({input}, input + ".whole.pftrace", "perfetto", &whole).ok());
    REQUIRE(ExportTimeline({input}, input + ".sliced.pftrace", "perfetto", &sliced, {0, 1}).ok());
    size_t slices = 0;
    REQUIRE(ReadTraceFileInSlices(input, {0, 1}, nullptr, [&](TraceModel) { ++slices; }).ok());
    CHECK(slices >= 3);
    // The same packets, slices, flows and clamped slices.
    CHECK(sliced.summary == whole.summary);
    const auto whole_tracks = PerfettoTracks(ReadAll(input + ".whole.pftrace"));
    const auto sliced_tracks = PerfettoTracks(ReadAll(input + ".sliced.pftrace"));
    CHECK(whole_tracks.size() > 3);
    for (const auto& [track, packets] : whole_tracks) {
      INFO("track " << track << ": " << packets.size() << " packets");
      const auto found = sliced_tracks.find(track);
      REQUIRE(found != sliced_tracks.end());
      CHECK(found->second.size() == packets.size());
      CHECK((found->second == packets));
    }
    CHECK(sliced_tracks.size() == whole_tracks.size());
  }
}

// Slice begins per event name category, read back with the protobuf reader.
std::map<std::string, int> PerfettoSlices(const std::string& input, const std::string& output) {
  ExportCommandOptions options;
  options.paths = {input};
  options.output = output;
  options.format = "perfetto";
  REQUIRE(RunExportCommand(options) == 0);
  perfetto::Trace trace;
  REQUIRE(trace.ParseFromString(ReadAll(output)));
  std::map<std::string, int> begins;
  int open = 0;
  for (const perfetto::TracePacket& packet : trace.packet()) {
    if (!packet.has_track_event()) continue;
    const perfetto::TrackEvent& event = packet.track_event();
    if (event.type() == perfetto::TrackEvent::TYPE_SLICE_BEGIN) {
      ++begins[event.categories_size() ? event.categories(0) : ""];
      ++open;
    }
    if (event.type() == perfetto::TrackEvent::TYPE_SLICE_END) --open;
  }
  CHECK(open == 0);
  return begins;
}

TEST_CASE("export --format perfetto: one file or three window files, the same slices") {
  const std::string single = testing::ScratchFolder("perfetto_single") + "/run.pb";
  const std::string windows = testing::ScratchFolder("perfetto_windows");
  REQUIRE(WriteSyntheticTrace(single, 30000, 1) == WriteSyntheticTrace(windows, 30000, 3));
  std::map<std::string, int> whole = PerfettoSlices(single, single + ".perfetto-trace");
  std::map<std::string, int> split = PerfettoSlices(windows, windows + "/../split.perfetto-trace");
  CHECK(whole["window"] == 1);
  CHECK(split["window"] == 3);
  CHECK(whole["Kernel"] > 0);
  whole.erase("window");
  split.erase("window");
  CHECK(split == whole);
}

int ExportKineto(const std::string& input, const std::string& output) {
  ExportCommandOptions options;
  options.paths = {input};
  options.output = output;
  options.format = "kineto";
  return RunExportCommand(options);
}

TEST_CASE("export --format kineto: one file or three window files, the same events") {
  const std::string single = testing::ScratchFolder("kineto_single") + "/run.pb";
  const std::string windows = testing::ScratchFolder("kineto_windows");
  REQUIRE(WriteSyntheticTrace(single, 30000, 1) == WriteSyntheticTrace(windows, 30000, 3));
  REQUIRE(ExportKineto(single, single + ".json") == 0);
  REQUIRE(ExportKineto(windows, windows + "/../split.json") == 0);
  const std::string whole = ReadAll(single + ".json");
  const std::string split = ReadAll(windows + "/../split.json");
  for (const char* kind : {"\"ph\":\"X\"", "\"ph\":\"s\"", "\"ph\":\"f\"", "\"cat\":\"kernel\""}) {
    INFO(kind);
    CHECK(Occurrences(whole, kind) > 0);
    CHECK(Occurrences(split, kind) == Occurrences(whole, kind));
  }
}

TEST_CASE("export --format kineto: several processes, one file per rank in the --output folder") {
  const std::string folder = testing::ScratchFolder("kineto_ranks");
  for (int rank = 0; rank < 2; ++rank) {
    testing::TestTrace trace(rank, /*pid=*/100 + rank);
    trace.Step(1, 0, 1000, 1);
    trace.WriteFile(folder + "/rank" + std::to_string(rank) + ".pb");
  }
  CHECK(ExportKineto(folder, "-") == 1);  // one stream cannot hold two traces
  REQUIRE(ExportKineto(folder, folder + "/kineto") == 0);
  for (int rank = 0; rank < 2; ++rank) {
    const std::string path = folder + "/kineto/rank" + std::to_string(rank) + ".json";
    INFO(path);
    CHECK(std::system(("python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); "
                       "sys.exit(d[\"distributedInfo\"][\"rank\"] != int(sys.argv[2]))' '" +
                       path + "' " + std::to_string(rank))
                          .c_str()) == 0);
  }
}

TEST_CASE("export: nothing readable is exit status 1") {
  const std::string folder = testing::ScratchFolder("export_bad");
  std::ofstream(folder + "/bad.pb") << "not a trace";
  ExportCommandOptions options;
  options.paths = {folder + "/bad.pb"};
  options.output = folder + "/out.json";
  CHECK(RunExportCommand(options) == 1);
}

TEST_CASE("export: nothing readable is one error and no output, in every format") {
  const std::string folder = testing::ScratchFolder("export_junk");
  std::ofstream(folder + "/junk.pb") << "not a trace";
  for (const char* format : {"chrome", "perfetto", "kineto"}) {
    INFO(format);
    const std::string output = folder + "/out." + format;
    TimelineExport result;
    const absl::Status status = ExportTimeline({folder}, output, format, &result);
    CHECK(absl::IsFailedPrecondition(status));
    CHECK(status.message() == "nothing could be read");
    REQUIRE(result.unreadable.size() == 1);  // reported once, not once per pass
    CHECK(result.unreadable[0].find("junk.pb") != std::string::npos);
    CHECK(!std::filesystem::exists(output));
  }
}

}  // namespace
}  // namespace prof::analyzer
