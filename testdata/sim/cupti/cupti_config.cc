#include "testdata/sim/cupti/cupti_config.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace simcupti {
namespace {

// A bad value never stops the program under test: warn and keep the default.
bool ReadInteger(const char* variable, long long* out) {
  const char* text = std::getenv(variable);
  if (text == nullptr || *text == '\0') return false;
  char* end = nullptr;
  errno = 0;
  long long value = std::strtoll(text, &end, 0);
  if (errno != 0 || *end != '\0') {
    std::fprintf(stderr, "[sim cupti] ignoring %s=%s (bad value), using the default\n", variable,
                 text);
    return false;
  }
  *out = value;
  return true;
}

CuptiConfig ReadConfig() {
  CuptiConfig config;
  long long value = 0;
  if (ReadInteger("SIM_CUPTI_DROP_EVERY", &value) && value > 0) config.drop_every = value;
  if (ReadInteger("SIM_CUPTI_LATE_BUFFERS", &value)) config.late_buffers = value != 0;
  if (ReadInteger("SIM_CUPTI_PARTIAL_BUFFERS", &value)) config.partial_buffers = value != 0;
  if (ReadInteger("SIM_CUPTI_HOLD_AFTER_FLUSH", &value)) config.hold_after_flush = value != 0;
  if (ReadInteger("SIM_CUPTI_OTHER_SUBSCRIBER", &value)) config.other_subscriber = value != 0;
  if (ReadInteger("SIM_CUPTI_CLOCK_OFFSET_NS", &value)) config.clock_offset_ns = value;
  if (ReadInteger("SIM_CUPTI_FLUSH_PERIOD_MS", &value) && value > 0) config.flush_period_ms = value;
  if (ReadInteger("SIM_CUPTI_ENABLE_MS", &value) && value >= 0) config.enable_ms = value;
  return config;
}

}  // namespace

const CuptiConfig& Config() {
  static const CuptiConfig config = ReadConfig();
  return config;
}

}  // namespace simcupti
