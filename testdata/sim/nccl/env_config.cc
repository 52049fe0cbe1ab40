#include "testdata/sim/nccl/env_config.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace simnccl {
namespace {

// Parses a positive number from `name`, or returns `fallback` (saying so on stderr
// when the variable is set but unusable).
double PositiveNumberFromEnv(const char* name, double fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  if (errno != 0 || end == text || *end != '\0' || !(value > 0)) {
    std::fprintf(stderr, "[sim-nccl] %s=\"%s\" is not a positive number; using %g\n", name, text,
                 fallback);
    return fallback;
  }
  return value;
}

}  // namespace

uint64_t ConfiguredSlotBytes() {
  return static_cast<uint64_t>(PositiveNumberFromEnv("SIM_NCCL_SLOT_BYTES", 1 << 20));
}

uint64_t ConfiguredMailboxBytes() {
  return static_cast<uint64_t>(PositiveNumberFromEnv("SIM_NCCL_MAILBOX_BYTES", 256 << 10));
}

uint64_t ConfiguredTimeoutNs() {
  return static_cast<uint64_t>(PositiveNumberFromEnv("SIM_NCCL_TIMEOUT_MS", 30000) * 1e6);
}

bool LegacyKernelNames() {
  const char* text = std::getenv("SIM_NCCL_KERNEL_NAMES");
  return text != nullptr && std::strcmp(text, "legacy") == 0;
}

double ConfiguredBusBandwidthGBps() { return PositiveNumberFromEnv("SIM_NCCL_BUS_BW_GBPS", 100.0); }

uint64_t ConfiguredStepLatencyNs() {
  return static_cast<uint64_t>(PositiveNumberFromEnv("SIM_NCCL_STEP_LATENCY_NS", 1500));
}

uint64_t ConfiguredBaseLatencyNs() {
  return static_cast<uint64_t>(PositiveNumberFromEnv("SIM_NCCL_BASE_LATENCY_NS", 4000));
}

}  // namespace simnccl
