#include "agent/control/config.h"

#include <unistd.h>

#include <cstdlib>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace prof {
namespace {

// Reads one variable and records it (or its default) in `config->applied`.
class ConfigParser {
 public:
  ConfigParser(const EnvironmentLookup& environment, Config* config,
               std::vector<std::string>* warnings)
      : environment_(environment), config_(config), warnings_(warnings) {}

  const char* Get(const char* name) {
    const char* value = environment_(name);
    return (value && *value) ? value : nullptr;
  }

  void Warn(const char* name, absl::string_view value, absl::string_view why,
            absl::string_view used) {
    warnings_->push_back(absl::StrFormat("%s='%s' %s; using %s", name, value, why, used));
  }

  bool Flag(const char* name, bool fallback) {
    const char* value = Get(name);
    bool result = fallback;
    if (value) {
      const std::string lower = absl::AsciiStrToLower(value);
      if (lower == "1" || lower == "true" || lower == "yes" || lower == "on") result = true;
      else if (lower == "0" || lower == "false" || lower == "no" || lower == "off") result = false;
      else Warn(name, value, "is not 0 or 1", fallback ? "1" : "0");
    }
    config_->applied[name] = result ? "1" : "0";
    return result;
  }

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

std::string DefaultWorkerName(const EnvironmentLookup& environment) {
  char host[256] = "unknown";
  gethostname(host, sizeof(host) - 1);
  std::string name = absl::StrFormat("host_%s_pid_%d", host, getpid());
  for (const char* variable : {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"}) {
    const char* rank = environment(variable);
    if (rank && *rank) return absl::StrFormat("%s_rank_%s", name, rank);
  }
  return name;
}

uint32_t ParseActivities(ConfigParser* parser, const char* value) {
  static const struct { const char* name; uint32_t bits; } kNames[] = {
      {"cuda", kActivityCudaApi}, {"kernel", kActivityKernel}, {"memcpy", kActivityMemcpy},
      {"memset", kActivityMemset}, {"nccl", kActivityNccl},    {"nvtx", kActivityNvtx},
      {"memory", kActivityMemory}, {"sync", kActivitySync},    {"all", kActivityAll}};
  uint32_t bits = 0;
  for (absl::string_view item : absl::StrSplit(value, ',', absl::SkipWhitespace())) {
    item = absl::StripAsciiWhitespace(item);
    bool known = false;
    for (const auto& entry : kNames) {
      if (item == entry.name) {
        bits |= entry.bits;
        known = true;
      }
    }
    if (!known) parser->Warn("PROF_ACTIVITIES", item, "is not a known activity", "the others");
  }
  if (bits == 0) {
    parser->Warn("PROF_ACTIVITIES", value, "selects nothing", "all");
    bits = kActivityAll;
  }
  return bits;
}

void ParseStepMarkers(ConfigParser* parser, const char* value, Config* config) {
  for (absl::string_view rule : absl::StrSplit(value, ';', absl::SkipWhitespace())) {
    rule = absl::StripAsciiWhitespace(rule);
    StepMarkerRule parsed;
    if (absl::ConsumePrefix(&rule, "kernel:") && !rule.empty()) {
      parsed.kernel_glob = std::string(rule);
      config->step_markers.push_back(parsed);
      continue;
    }
    if (absl::ConsumePrefix(&rule, "api:")) {
      std::vector<absl::string_view> parts = absl::StrSplit(rule, ':');
      parsed.api = std::string(parts[0]);
      if (parts.size() == 2 && absl::SimpleAtoi(parts[1], &parsed.every) && parsed.every > 0 &&
          !parsed.api.empty()) {
        config->step_markers.push_back(parsed);
        continue;
      }
      if (parts.size() == 1 && !parsed.api.empty()) {
        config->step_markers.push_back(parsed);
        continue;
      }
    }
    parser->Warn("PROF_STEP_MARKER", rule, "is not api:NAME[:N] or kernel:GLOB", "no such rule");
  }
}

void ParseNumbers(ConfigParser* parser, Config* config) {
  if (const char* value = parser->Get("PROF_BUFFER_MB")) {
    uint64_t megabytes = 0;
    if (absl::SimpleAtoi(value, &megabytes) && megabytes >= 1 && megabytes <= 65536) {
      config->buffer_bytes = megabytes << 20;
    } else {
      parser->Warn("PROF_BUFFER_MB", value, "is not a number of MiB in 1..65536",
                   absl::StrCat(config->buffer_bytes >> 20));
    }
  }
  config->applied["PROF_BUFFER_MB"] = absl::StrCat(config->buffer_bytes >> 20);
  if (const char* value = parser->Get("PROF_STEPS_PER_FILE")) {
    int64_t steps = 0;
    if (absl::SimpleAtoi(value, &steps) && steps >= 0 && steps <= 1000000000) {
      config->steps_per_file = steps;
    } else {
      parser->Warn("PROF_STEPS_PER_FILE", value, "is not a number of steps in 0..1000000000 (0: no limit)",
                   absl::StrCat(config->steps_per_file));
    }
  }
  config->applied["PROF_STEPS_PER_FILE"] = absl::StrCat(config->steps_per_file);
  if (const char* value = parser->Get("PROF_LOG_LEVEL")) {
    const std::string lower = absl::AsciiStrToLower(value);
    if (lower == "error") config->log_level = LogLevel::kError;
    else if (lower == "warn") config->log_level = LogLevel::kWarn;
    else if (lower == "info") config->log_level = LogLevel::kInfo;
    else if (lower == "debug") config->log_level = LogLevel::kDebug;
    else parser->Warn("PROF_LOG_LEVEL", value, "is not error, warn, info or debug", "warn");
  }
}

}  // namespace

EnvironmentLookup ProcessEnvironment() {
  return [](const char* name) -> const char* { return std::getenv(name); };
}

Config ParseConfig(const EnvironmentLookup& environment, std::vector<std::string>* warnings) {
  Config config;
  ConfigParser parser(environment, &config, warnings);
  config.disabled = parser.Flag("PROF_DISABLE", false);
  ParseNumbers(&parser, &config);
  if (const char* value = parser.Get("PROF_SCHEDULE")) {
    auto schedule = ParseSchedule(value);
    if (schedule.ok()) {
      config.schedule = *schedule;
    } else {
      parser.Warn("PROF_SCHEDULE", value, schedule.status().message(), "every step");
    }
  }
  config.applied["PROF_SCHEDULE"] = config.schedule.ToString();
  config.output_dir = parser.Text("PROF_OUTPUT_DIR", "./profiler_log");
  config.worker_name = parser.Text("PROF_WORKER_NAME", DefaultWorkerName(environment));
  if (const char* value = parser.Get("PROF_ACTIVITIES")) {
    config.activities = ParseActivities(&parser, value);
  }
  config.applied["PROF_ACTIVITIES"] = absl::StrFormat("0x%x", config.activities);
  config.timer_only = parser.Flag("PROF_TIMER_ONLY", false);
  if (config.timer_only) config.activities = kActivityTimerOnly;
  if (const char* value = parser.Get("PROF_STEP_MARKER")) {
    ParseStepMarkers(&parser, value, &config);
    config.applied["PROF_STEP_MARKER"] = value;
  }
  config.cupti_library = parser.Text("PROF_CUPTI_LIB", "");
  config.stacks = parser.Flag("PROF_STACKS", false);
  return config;
}

bool IsDataloaderName(const char* name) {
  return name && absl::StartsWithIgnoreCase(name, "dataloader");
}

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
