#include "agent/writer/window_readings.h"

#include <cstdio>
#include <cstring>

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
  // stdio, not std::ifstream: a stream pulls the C++ locale and iostreams into the
  // agent's image (about 500 KB of text and 2,200 relocations paid at every load).
  char name[64] = {0};  // comm holds at most 15 characters and a newline
  std::FILE* file = std::fopen(path, "re");
  if (file == nullptr) return std::string();
  const bool read = std::fgets(name, sizeof(name), file) != nullptr;
  std::fclose(file);
  if (!read) return std::string();
  name[std::strcspn(name, "\n")] = '\0';
  return name;
}

}  // namespace prof
