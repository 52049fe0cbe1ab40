#include "analyzer/cli/hang_render.h"

#include <cinttypes>
#include <cstdio>

#include "analyzer/model/enum_names.h"
#include "analyzer/render/json_writer.h"

namespace prof::analyzer {
namespace {

constexpr size_t kCulpritsShown = 20;  // more are counted, and all are in the JSON

std::string Hex(uint64_t value) {
  char text[20];
  std::snprintf(text, sizeof(text), "%016" PRIx64, value);
  return text;
}

std::string Operation(int32_t operation) {
  return NcclOperationName(static_cast<schema::NcclOperation>(operation));
}

// "    last API call: ..., last range: ..., last kernel launched: ..." (nothing where the
// dump kept no host activity: PROF_FLIGHT_HOST_ENTRIES=0, or a dump from an older agent).
void AppendLastActivity(const LastActivity& last, std::string* out) {
  if (last.api_call.empty() && last.range.empty() && last.kernel.empty()) return;
  const auto or_none = [](const std::string& text) { return text.empty() ? "none" : text; };
  *out += "    last API call: " + or_none(last.api_call) + "; last range: " + or_none(last.range) +
          "; last kernel launched: " + or_none(last.kernel) + "\n";
}

// One line, only where a recorder lost something: what the dumps cannot show.
void AppendLosses(const FlightLosses& l, std::string* out) {
  if (!l.Any()) return;
  *out += "Not kept by the recorders (not in the dumps): NCCL calls: " +
          std::to_string(l.calls_overwritten) + " overwritten, " + std::to_string(l.calls_torn) +
          " torn; CUDA calls and ranges: " + std::to_string(l.host_overwritten) +
          " overwritten, " + std::to_string(l.host_torn) + " torn; " +
          std::to_string(l.host_threads_refused) + " thread(s) without a ring\n";
}

void AppendCulprits(const HangReport& report, std::string* out) {
  if (report.culprits.empty()) {
    *out += "No culprit: no collective is waited in by some ranks and missed by others.\n";
    return;
  }
  *out += "Culprits (ranks the others wait for):\n";
  for (size_t i = 0; i < report.culprits.size() && i < kCulpritsShown; ++i) {
    const Culprit& c = report.culprits[i];
    const bool on_gpu = c.state != "never entered" && c.state != "no dump";
    // A hang on the GPU: the rank entered the collective; its copy is what holds the others.
    *out += "  rank " + std::to_string(c.rank) + ": " + (on_gpu ? "" : "never entered ") +
            Operation(c.operation) + " #" + std::to_string(c.seq) + " on communicator " +
            Hex(c.comm) + (on_gpu ? " " + c.state + " on its GPU" : "");
    if (c.dump_missing) {
      *out += " (no dump from this rank: what it did is unknown)\n";
      continue;
    }
    *out += "; last entered #" + std::to_string(c.last_entered) + ", last completed step " +
            (c.last_step >= 0 ? std::to_string(c.last_step) : std::string("none")) +
            ", last NCCL call: " + (c.last_call.empty() ? "none" : c.last_call) + "\n";
    AppendLastActivity(c.last, out);
  }
  if (report.culprits.size() > kCulpritsShown) {
    *out += "  ... and " + std::to_string(report.culprits.size() - kCulpritsShown) +
            " more (see --format json)\n";
  }
}

void AppendCommunicators(const HangReport& report, std::string* out) {
  for (const CommunicatorState& state : report.communicators) {
    *out += "\nCommunicator " + Hex(state.comm) + " (" + std::to_string(state.size) + " ranks)";
    if (state.waited_seq > 0) {
      *out += ": waiting in " + Operation(state.waited_operation) + " #" +
              std::to_string(state.waited_seq);
    }
    *out += "\n";
    for (const RankGroup& group : state.groups) {
      char line[160];
      std::snprintf(line, sizeof(line),
                    "  %-40s entered #%-6" PRId64 " completed #%-6" PRId64 " %zu rank(s): ",
                    group.state.c_str(), group.entered, group.completed, group.ranks.size());
      *out += line + RankRanges(group.ranks) + "\n";
    }
  }
}

void AppendMismatches(const HangReport& report, std::string* out) {
  for (const MismatchedCollective& m : report.mismatches) {
    *out += "\nMISMATCH: communicator " + Hex(m.comm) + " #" + std::to_string(m.seq) + ":";
    for (const MismatchedCollective::Variant& v : m.variants) {
      *out += " " + Operation(v.operation) + " of " + std::to_string(v.bytes) +
              " bytes on rank(s) " + RankRanges(v.ranks) + ";";
    }
    *out += "\n";
  }
}

}  // namespace

std::string RenderHangText(const HangReport& report) {
  std::string out = "Hang analysis: " + std::to_string(report.dumps) + " flight dump(s)";
  if (report.world_size > 0) out += " of " + std::to_string(report.world_size) + " ranks";
  out += "\n";
  if (!report.missing_ranks.empty()) {
    out += "Missing dumps: rank(s) " + RankRanges(report.missing_ranks) + "\n";
  }
  AppendLosses(report.losses, &out);
  AppendCulprits(report, &out);
  AppendCommunicators(report, &out);
  AppendMismatches(report, &out);
  return out;
}

namespace {

void WriteRanks(JsonWriter* json, const std::vector<int32_t>& ranks) {
  json->BeginArray();
  for (int32_t rank : ranks) json->Int(rank);
  json->EndArray();
}

void WriteCulprit(JsonWriter* json, const Culprit& c) {
  json->BeginObject();
  json->Key("rank");
  json->Int(c.rank);
  json->Key("comm");
  json->String(Hex(c.comm));
  json->Key("seq");
  json->Int(c.seq);
  json->Key("operation");
  json->String(Operation(c.operation));
  json->Key("dump_missing");
  json->Bool(c.dump_missing);
  json->Key("last_entered");
  json->Int(c.last_entered);
  json->Key("last_step");
  json->Int(c.last_step);
  json->Key("last_call");
  json->String(c.last_call);
  json->Key("last_api_call");
  json->String(c.last.api_call);
  json->Key("last_range");
  json->String(c.last.range);
  json->Key("last_kernel");
  json->String(c.last.kernel);
  json->Key("state");
  json->String(c.state);
  json->EndObject();
}

void WriteCommunicator(JsonWriter* json, const CommunicatorState& state) {
  json->BeginObject();
  json->Key("comm");
  json->String(Hex(state.comm));
  json->Key("size");
  json->Int(state.size);
  json->Key("waited_seq");
  json->Int(state.waited_seq);
  json->Key("waited_operation");
  json->String(state.waited_seq > 0 ? Operation(state.waited_operation) : "");
  json->Key("groups");
  json->BeginArray();
  for (const RankGroup& group : state.groups) {
    json->BeginObject();
    json->Key("state");
    json->String(group.state);
    json->Key("entered");
    json->Int(group.entered);
    json->Key("completed");
    json->Int(group.completed);
    json->Key("ranks");
    WriteRanks(json, group.ranks);
    json->EndObject();
  }
  json->EndArray();
  json->EndObject();
}

void WriteMismatch(JsonWriter* json, const MismatchedCollective& m) {
  json->BeginObject();
  json->Key("comm");
  json->String(Hex(m.comm));
  json->Key("seq");
  json->Int(m.seq);
  json->Key("variants");
  json->BeginArray();
  for (const MismatchedCollective::Variant& v : m.variants) {
    json->BeginObject();
    json->Key("operation");
    json->String(Operation(v.operation));
    json->Key("bytes");
    json->Uint(v.bytes);
    json->Key("ranks");
    WriteRanks(json, v.ranks);
    json->EndObject();
  }
  json->EndArray();
  json->EndObject();
}

}  // namespace

std::string RenderHangJson(const HangReport& report) {
  JsonWriter json;
  json.BeginObject();
  json.Key("hang");
  json.BeginObject();
  json.Key("dumps");
  json.Uint(report.dumps);
  json.Key("world_size");
  json.Int(report.world_size);
  json.Key("missing_ranks");
  WriteRanks(&json, report.missing_ranks);
  const FlightLosses& losses = report.losses;
  for (const auto& [key, count] : {std::pair{"calls_overwritten", losses.calls_overwritten},
                                   {"calls_torn", losses.calls_torn},
                                   {"host_overwritten", losses.host_overwritten},
                                   {"host_torn", losses.host_torn},
                                   {"host_threads_refused", losses.host_threads_refused}}) {
    json.Key(key);
    json.Uint(count);
  }
  json.Key("culprits");
  json.BeginArray();
  for (const Culprit& c : report.culprits) WriteCulprit(&json, c);
  json.EndArray();
  json.Key("communicators");
  json.BeginArray();
  for (const CommunicatorState& state : report.communicators) WriteCommunicator(&json, state);
  json.EndArray();
  json.Key("mismatches");
  json.BeginArray();
  for (const MismatchedCollective& m : report.mismatches) WriteMismatch(&json, m);
  json.EndArray();
  json.EndObject();
  json.EndObject();
  return json.text() + "\n";
}

}  // namespace prof::analyzer
