#include "agent/control/config.h"

#include <strings.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <optional>
#include <string_view>

namespace prof {
namespace {

constexpr int64_t kMaxBufferMegabytes = 65536;
constexpr int64_t kMaxStepsPerFile = 1000000000;
constexpr int64_t kMaxMarkerEvery = 1000000000;
constexpr size_t kMaxWorkerNameBytes = 200;

// Splits `text` at `separator` into trimmed, non-empty parts.
std::vector<std::string_view> SplitTrimmed(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  while (true) {
    const size_t at = text.find(separator);
    const std::string_view part = TrimAscii(text.substr(0, at));
    if (!part.empty()) parts.push_back(part);
    if (at == std::string_view::npos) return parts;
    text.remove_prefix(at + 1);
  }
}

std::string Join(const std::vector<std::string>& parts, const char* separator, const char* empty) {
  if (parts.empty()) return empty;
  std::string joined;
  for (const std::string& part : parts) joined += (joined.empty() ? "" : separator) + part;
  return joined;
}

// Reads one variable and records it (or its default) in `config->applied`.
class ConfigParser {
 public:
  ConfigParser(const EnvironmentLookup& environment, Config* config,
               std::vector<std::string>* warnings)
      : environment_(environment), config_(config), warnings_(warnings) {}

  // The value, or nullptr when unset or blank.
  const char* Get(const char* name) {
    const char* value = environment_(name);
    return (value && !TrimAscii(value).empty()) ? value : nullptr;
  }

  void Warn(const char* name, std::string_view value, std::string_view why, std::string_view used) {
    warnings_->push_back(ConfigWarning(name, value, why, used));
  }

  bool Flag(const char* name, bool fallback) {
    bool result = fallback;
    if (const char* value = Get(name)) {
      const std::optional<bool> parsed = ParseFlagText(value);
      if (parsed) result = *parsed;
      else Warn(name, value, "is not 1/true/yes/on or 0/false/no/off", fallback ? "1" : "0");
    }
    config_->applied[name] = result ? "1" : "0";
    return result;
  }

  int64_t Integer(const char* name, int64_t minimum, int64_t maximum, int64_t fallback,
                  const char* what) {
    int64_t result = fallback;
    if (const char* value = Get(name)) {
      if (!ParseBoundedInteger(value, minimum, maximum, &result)) {
        result = fallback;
        Warn(name, value, std::string("is not ") + what, std::to_string(fallback));
      }
    }
    config_->applied[name] = std::to_string(result);
    return result;
  }

  void Record(const char* name, const char* applied) { config_->applied[name] = applied; }

  std::string Text(const char* name, std::string fallback) {
    const char* value = Get(name);
    std::string result = value ? std::string(value) : std::move(fallback);
    config_->applied[name] = result;
    return result;
  }

 private:
  const EnvironmentLookup& environment_;
  Config* config_;
  std::vector<std::string>* warnings_;
};

std::string DefaultWorkerName(const RankIdentity& rank) {
  char host[256] = "unknown";
  gethostname(host, sizeof(host) - 1);
  char name[400];
  if (rank.rank >= 0) {
    std::snprintf(name, sizeof(name), "host_%s_pid_%d_rank_%d", host, getpid(), rank.rank);
  } else {
    std::snprintf(name, sizeof(name), "host_%s_pid_%d", host, getpid());
  }
  return name;
}

// The worker name is part of a file name: no folder separator, no control characters.
bool IsFileNamePart(std::string_view name) {
  if (name.size() > kMaxWorkerNameBytes || name == "." || name == "..") return false;
  for (char c : name) {
    if (c == '/' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return false;
  }
  return true;
}

void ParseWorkerName(ConfigParser* parser, Config* config) {
  std::string name = DefaultWorkerName(config->rank);
  if (const char* value = parser->Get("PROF_WORKER_NAME")) {
    if (IsFileNamePart(value)) {
      name = value;
    } else {
      parser->Warn("PROF_WORKER_NAME", value,
                   "is not a file-name part (at most 200 bytes, no '/' or control characters)",
                   name);
    }
  }
  config->worker_name = name;
  config->applied["PROF_WORKER_NAME"] = name;
}

struct ActivityName {
  const char* name;
  uint32_t bits;
};

constexpr ActivityName kActivityNames[] = {
    {"cuda", kActivityCudaApi},  {"kernel", kActivityKernel}, {"memcpy", kActivityMemcpy},
    {"memset", kActivityMemset}, {"nccl", kActivityNccl},     {"nvtx", kActivityNvtx},
    {"memory", kActivityMemory}, {"sync", kActivitySync},     {"all", kActivityAll}};

constexpr char kKnownActivities[] = "known: cuda,kernel,memcpy,memset,nccl,nvtx,memory,sync,all";

std::string ActivityList(uint32_t bits) {
  if (bits == kActivityAll) return "all";
  std::vector<std::string> names;
  for (const ActivityName& entry : kActivityNames) {
    if (entry.bits != kActivityAll && (bits & entry.bits)) names.push_back(entry.name);
  }
  return Join(names, ",", "none");
}

// One warning for the whole variable, however many names in it are unknown.
uint32_t ParseActivities(ConfigParser* parser, const char* value) {
  uint32_t bits = 0;
  std::vector<std::string> unknown;
  for (std::string_view item : SplitTrimmed(value, ',')) {
    bool known = false;
    for (const ActivityName& entry : kActivityNames) {
      if (item.size() == std::strlen(entry.name) &&
          strncasecmp(item.data(), entry.name, item.size()) == 0) {
        bits |= entry.bits;
        known = true;
      }
    }
    if (!known) unknown.push_back("'" + ShowValue(item) + "'");
  }
  if (bits == 0) bits = kActivityAll;
  if (!unknown.empty()) {
    parser->Warn(
        "PROF_ACTIVITIES", value,
        "names unknown activities (" + Join(unknown, ", ", "") + "; " + kKnownActivities + ")",
        ActivityList(bits));
  } else if (bits == kActivityAll && SplitTrimmed(value, ',').empty()) {
    parser->Warn("PROF_ACTIVITIES", value,
                 std::string("selects no activity (") + kKnownActivities + ")", "all");
  }
  return bits;
}

// One rule of PROF_STEP_MARKER; false when it is not api:NAME[:N] or kernel:GLOB.
bool ParseStepMarkerRule(std::string_view rule, StepMarkerRule* parsed) {
  if (rule.substr(0, 7) == "kernel:") {
    parsed->kernel_glob = std::string(TrimAscii(rule.substr(7)));
    return !parsed->kernel_glob.empty();
  }
  if (rule.substr(0, 4) != "api:") return false;
  rule.remove_prefix(4);
  const size_t colon = rule.find(':');
  parsed->api = std::string(TrimAscii(rule.substr(0, colon)));
  if (parsed->api.empty()) return false;
  if (colon == std::string_view::npos) return true;
  return ParseBoundedInteger(rule.substr(colon + 1), 1, kMaxMarkerEvery, &parsed->every);
}

std::string RuleText(const StepMarkerRule& rule) {
  if (!rule.kernel_glob.empty()) return "kernel:" + rule.kernel_glob;
  return "api:" + rule.api + ":" + std::to_string(rule.every);
}

void ParseStepMarkers(ConfigParser* parser, const char* value, Config* config) {
  std::vector<std::string> bad;
  std::vector<std::string> applied;
  for (std::string_view rule : SplitTrimmed(value, ';')) {
    StepMarkerRule parsed;
    if (ParseStepMarkerRule(rule, &parsed)) {
      config->step_markers.push_back(parsed);
      applied.push_back(RuleText(parsed));
    } else {
      bad.push_back("'" + ShowValue(rule) + "'");
    }
  }
  const std::string used = Join(applied, ";", "none");
  if (!bad.empty()) {
    parser->Warn("PROF_STEP_MARKER", value,
                 "has rules that are not api:NAME[:N] with N in 1..1000000000 or kernel:GLOB (" +
                     Join(bad, ", ", "") + ")",
                 used);
  }
  config->applied["PROF_STEP_MARKER"] = used;
}

void ParseLogLevel(ConfigParser* parser, Config* config) {
  static const struct {
    const char* name;
    LogLevel level;
  } kLevels[] = {{"error", LogLevel::kError},
                 {"warn", LogLevel::kWarn},
                 {"info", LogLevel::kInfo},
                 {"debug", LogLevel::kDebug}};
  const char* applied = "warn";
  if (const char* value = parser->Get("PROF_LOG_LEVEL")) {
    const std::string_view text = TrimAscii(value);
    bool known = false;
    for (const auto& entry : kLevels) {
      if (text.size() == std::strlen(entry.name) &&
          strncasecmp(text.data(), entry.name, text.size()) == 0) {
        config->log_level = entry.level;
        applied = entry.name;
        known = true;
      }
    }
    if (!known) parser->Warn("PROF_LOG_LEVEL", value, "is not error, warn, info or debug", "warn");
  }
  config->applied["PROF_LOG_LEVEL"] = applied;
}

void ApplySchedule(ConfigParser* parser, Config* config) {
  if (const char* value = parser->Get("PROF_SCHEDULE")) {
    ParsedSchedule parsed = ParseSchedule(value);
    if (parsed.schedule) {
      config->schedule = *parsed.schedule;
    } else {
      // Recording every step instead could fill a disk with the steps the user meant to
      // skip: a schedule that cannot be read records nothing, and the warning says so.
      config->schedule = Schedule::Nothing();
      parser->Warn("PROF_SCHEDULE", value, parsed.error, "no step (nothing is recorded)");
    }
  }
  config->applied["PROF_SCHEDULE"] = config->schedule.ToString();
}

PythonOperators ParsePythonOperators(ConfigParser* parser) {
  constexpr const char* kName = "PROF_PYTHON_OPS";
  // Operators by default inside recording windows, as paddle.profiler and torch.profiler
  // record them (the --sorted-by GPUTotal table is about them).
  PythonOperators mode = PythonOperators::kAten;
  if (const char* value = parser->Get(kName)) {
    const std::string_view text = TrimAscii(value);
    const std::optional<bool> flag = ParseFlagText(text);
    if (flag) {
      mode = *flag ? PythonOperators::kAten : PythonOperators::kOff;
    } else if (text.size() == 4 && strncasecmp(text.data(), "aten", 4) == 0) {
      mode = PythonOperators::kAten;
    } else if (text.size() == 6 && strncasecmp(text.data(), "python", 6) == 0) {
      mode = PythonOperators::kPython;
    } else {
      parser->Warn(kName, value, "is not 1/aten, python or 0 (any PROF_* flag spelling)", "1");
    }
  }
  parser->Record(kName, mode == PythonOperators::kAten     ? "1"
                        : mode == PythonOperators::kPython ? "python"
                                                           : "0");
  return mode;
}

// PROF_ATEN_SOURCE=auto|observer|profiler, read by the Python helper only (prof_config_get):
// where ATen operators come from (python/src/libprof/_torch/aten_operators.py). auto: the
// agent's RecordFunction callbacks where torch and the settings allow, else torch's own
// collection; the other two force one (observer still falls back when it cannot run).
void ParseAtenSource(ConfigParser* parser) {
  constexpr const char* kName = "PROF_ATEN_SOURCE";
  const char* applied = "auto";
  if (const char* value = parser->Get(kName)) {
    const std::string_view text = TrimAscii(value);
    for (const char* known : {"auto", "observer", "profiler"}) {
      if (text.size() == std::strlen(known) && strncasecmp(text.data(), known, text.size()) == 0) {
        applied = known;
        value = nullptr;
        break;
      }
    }
    if (value) parser->Warn(kName, value, "is not auto, observer or profiler", "auto");
  }
  parser->Record(kName, applied);
}

// PROF_CLOCK=tsc|monotonic (record/clock.h); any case.
void ParseClock(ConfigParser* parser, Config* config) {
  if (const char* value = parser->Get("PROF_CLOCK")) {
    const std::string_view text = TrimAscii(value);
    if (text.size() == 9 && strncasecmp(text.data(), "monotonic", 9) == 0) {
      config->clock_tsc = false;
    } else if (!(text.size() == 3 && strncasecmp(text.data(), "tsc", 3) == 0)) {
      parser->Warn("PROF_CLOCK", value, "is not tsc or monotonic", "tsc");
    }
  }
  parser->Record("PROF_CLOCK", config->clock_tsc ? "tsc" : "monotonic");
}

// PROF_FLIGHT* (record/flight_ring.h, writer/flight_monitor.h).
void ParseFlight(ConfigParser* parser, Config* config) {
  config->flight = parser->Flag("PROF_FLIGHT", false);
  config->flight_entries = static_cast<uint64_t>(parser->Integer(
      "PROF_FLIGHT_ENTRIES", 16, 1 << 24, static_cast<int64_t>(config->flight_entries),
      "a number of NCCL calls in 16..16777216"));
  config->flight_host_entries = static_cast<uint64_t>(parser->Integer(
      "PROF_FLIGHT_HOST_ENTRIES", 0, 1 << 20, static_cast<int64_t>(config->flight_host_entries),
      "a number of entries per thread in 0..1048576 (0: off)"));
  config->flight_hang_s = parser->Integer("PROF_FLIGHT_HANG_S", 1, 86400, config->flight_hang_s,
                                          "a number of seconds in 1..86400");
  config->flight_dir = parser->Text("PROF_FLIGHT_DIR", "");
  config->flight_slow_factor =
      parser->Integer("PROF_FLIGHT_SLOW_FACTOR", 0, 1000000, config->flight_slow_factor,
                      "a factor in 0..1000000 (0: off)");
  config->flight_trigger_dir = parser->Text("PROF_FLIGHT_TRIGGER_DIR", "");
}

}  // namespace

Config ParseConfig(const EnvironmentLookup& environment, std::vector<std::string>* warnings) {
  Config config;
  ConfigParser parser(environment, &config, warnings);
  config.disabled = parser.Flag("PROF_DISABLE", false);
  config.buffer_bytes = static_cast<uint64_t>(parser.Integer(
                            "PROF_BUFFER_MB", 1, kMaxBufferMegabytes, config.buffer_bytes >> 20,
                            "a number of MiB in 1..65536"))
                        << 20;
  config.steps_per_file =
      parser.Integer("PROF_STEPS_PER_FILE", 0, kMaxStepsPerFile, config.steps_per_file,
                     "a number of steps in 0..1000000000 (0: no limit)");
  ParseLogLevel(&parser, &config);
  ApplySchedule(&parser, &config);
  config.output_dir = parser.Text("PROF_OUTPUT_DIR", "./profiler_log");
  config.rank = ResolveRankIdentity(environment, warnings);
  ParseWorkerName(&parser, &config);
  if (const char* value = parser.Get("PROF_ACTIVITIES")) {
    config.activities = ParseActivities(&parser, value);
  }
  config.applied["PROF_ACTIVITIES"] = ActivityList(config.activities);
  config.timer_only = parser.Flag("PROF_TIMER_ONLY", false);
  if (config.timer_only) config.activities = kActivityTimerOnly;
  if (const char* value = parser.Get("PROF_STEP_MARKER")) ParseStepMarkers(&parser, value, &config);
  config.cupti_library = parser.Text("PROF_CUPTI_LIB", "");
  config.stacks = parser.Flag("PROF_STACKS", false);
  config.python_helper = parser.Flag("PROF_PYTHON", true);
  config.python_operators = ParsePythonOperators(&parser);
  config.shapes = parser.Flag("PROF_SHAPES", false);
  // Read by the Python helper only, through prof_config_get: parsed here so that it has
  // the agent's spellings and warning, and shows in the trace header.
  parser.Flag("PROF_ATEN_STACKS", false);
  ParseAtenSource(&parser);
  parser.Text("PROF_PYTHON_PATH", "");
  ParseClock(&parser, &config);
  config.control_dir = parser.Text("PROF_CONTROL_DIR", "");
  config.trigger = parser.Flag("PROF_TRIGGER", true);
  ParseFlight(&parser, &config);
  return config;
}

bool IsDataloaderName(const char* name) { return name && strncasecmp(name, "dataloader", 10) == 0; }

bool GlobMatch(const char* glob, const char* text) {
  const char* star_glob = nullptr;
  const char* star_text = nullptr;
  while (*text) {
    if (*glob == '*') {
      star_glob = ++glob;
      star_text = text;
    } else if (*glob == '?' || *glob == *text) {
      ++glob;
      ++text;
    } else if (star_glob) {
      glob = star_glob;
      text = ++star_text;
    } else {
      return false;
    }
  }
  while (*glob == '*') ++glob;
  return *glob == '\0';
}

}  // namespace prof
