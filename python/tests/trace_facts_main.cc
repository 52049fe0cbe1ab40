// Prints what agent/tests/trace_summary.h counts in a folder of traces, as JSON, for the
// Python helper's tests (written in Python, so they read it with json.load):
//   {"files": [{"path", "pid", "window", "complete"}], "steps": [...], "samples": [...],
//    "ranges": {name: count}, "ranges_by_kind": {RANGE_KIND_*: count}, "losses": n}
#include <cstdio>
#include <string>

#include "agent/tests/trace_summary.h"
#include "proto/trace.pb.h"

namespace {

std::string Quoted(const std::string& text) {
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') quoted += '\\';
    if (static_cast<unsigned char>(c) < 0x20) continue;  // names hold no control characters
    quoted += c;
  }
  return quoted + "\"";
}

template <typename Values>
std::string List(const Values& values) {
  std::string list = "[";
  for (const auto& value : values) list += (list.size() > 1 ? ", " : "") + std::to_string(value);
  return list + "]";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: trace_facts FOLDER\n");
    return 2;
  }
  const prof::testing::TraceSummary summary = prof::testing::SummarizeFolder(argv[1]);
  std::string files;
  for (const auto& file : summary.files) {
    files += (files.empty() ? "" : ", ") + std::string("{\"path\": ") + Quoted(file.path) +
             ", \"pid\": " + std::to_string(file.pid) +
             ", \"window\": " + std::to_string(file.window_index) +
             ", \"complete\": " + (file.complete ? "true" : "false") + "}";
  }
  std::string ranges;
  for (const auto& [name, count] : summary.ranges) {
    ranges += (ranges.empty() ? "" : ", ") + Quoted(name) + ": " + std::to_string(count);
  }
  std::string kinds;
  for (const auto& [kind, count] : summary.ranges_by_kind) {
    const std::string kind_name =
        prof::trace::RangeKind_IsValid(kind)
            ? prof::trace::RangeKind_Name(static_cast<prof::trace::RangeKind>(kind))
            : std::to_string(kind);
    kinds += (kinds.empty() ? "" : ", ") + Quoted(kind_name) + ": " + std::to_string(count);
  }
  uint64_t losses = 0;
  for (const auto& [kind, count] : summary.losses) losses += count;
  std::printf(
      "{\"files\": [%s], \"steps\": %s, \"samples\": %s, \"ranges\": {%s}, "
      "\"ranges_by_kind\": {%s}, \"losses\": %llu}\n",
      files.c_str(), List(summary.step_numbers).c_str(), List(summary.step_samples).c_str(),
      ranges.c_str(), kinds.c_str(), static_cast<unsigned long long>(losses));
  return 0;
}
