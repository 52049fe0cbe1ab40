#include "agent/writer/window_readings.h"

#include <cstdio>
#include <fstream>

#include "agent/record/clock.h"

namespace prof {

CpuUsageValue CpuUsageOf(const CpuSample& sample) {
  CpuUsageValue usage;
  usage.host_monotonic_ns = sample.host_ns;
  usage.process_cpu_ns = sample.process_cpu_ns;
  usage.system_known = sample.system_known;
  usage.system_busy_ticks = sample.busy_ticks;
  usage.system_idle_ticks = sample.idle_ticks;
  return usage;
}

ClockAnchorValue HostAnchor(const char* reason) {
  ClockAnchorValue anchor;
  const uint64_t before = MonotonicNs();
  anchor.host_realtime_ns = RealtimeNs();
  const uint64_t after = MonotonicNs();
  anchor.host_monotonic_ns = before + (after - before) / 2;
  anchor.uncertainty_ns = (after - before) / 2;
  anchor.reason = reason;
  return anchor;
}

std::string ThreadNameOf(uint64_t thread_id) {
  char path[64];
  std::snprintf(path, sizeof(path), "/proc/self/task/%llu/comm",
                static_cast<unsigned long long>(thread_id));
  std::ifstream file(path);
  std::string name;
  std::getline(file, name);
  return name;
}

}  // namespace prof
