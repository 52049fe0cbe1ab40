#include "testdata/sim/cudart/config.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace sim {
namespace {

// A bad value must not stop the program under test: warn once and keep the default.
void WarnBadValue(const char* variable, const char* value) {
  std::fprintf(stderr, "[sim cudart] ignoring %s=%s (bad value), using the default\n", variable,
               value);
}

void ReadUnsigned(const char* variable, uint64_t* out) {
  const char* text = std::getenv(variable);
  if (text == nullptr || *text == '\0') return;
  char* end = nullptr;
  errno = 0;
  unsigned long long value = std::strtoull(text, &end, 0);
  if (errno != 0 || *end != '\0') return WarnBadValue(variable, text);
  *out = value;
}

void ReadScale(const char* variable, double* out) {
  const char* text = std::getenv(variable);
  if (text == nullptr || *text == '\0') return;
  char* end = nullptr;
  double value = std::strtod(text, &end);
  if (*end != '\0' || !(value >= 0.0) || value > 1e6) return WarnBadValue(variable, text);
  *out = value;
}

RuntimeConfig ReadConfig() {
  RuntimeConfig config;
  ReadUnsigned("SIM_SEED", &config.seed);
  ReadScale("SIM_TIME_SCALE", &config.time_scale);
  uint64_t devices = static_cast<uint64_t>(config.device_count);
  ReadUnsigned("SIM_DEVICE_COUNT", &devices);
  config.device_count = devices > 64 ? 64 : static_cast<int>(devices);
  return config;
}

}  // namespace

const RuntimeConfig& Config() {
  static const RuntimeConfig config = ReadConfig();
  return config;
}

}  // namespace sim
