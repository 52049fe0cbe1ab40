// CPU time counters for paddle's Device Summary rows CPU(Process) and CPU(System), read
// when a window opens and closes (never per call): the process's CPU time and the
// system's busy and idle ticks from /proc/stat. The analyzer divides the differences.
//
// Async-signal-safe (clock_gettime, open, read, close; no allocation), so a window closed
// on a signal path can be sampled too.
#ifndef PROF_AGENT_RECORD_CPU_SAMPLE_H_
#define PROF_AGENT_RECORD_CPU_SAMPLE_H_

#include <cstddef>
#include <cstdint>

namespace prof {

struct CpuSample {
  bool valid = false;  // false: never sampled
  uint64_t host_ns = 0;
  uint64_t process_cpu_ns = 0;
  bool system_known = false;
  uint64_t busy_ticks = 0;  // user + nice + system + irq + softirq + steal
  uint64_t idle_ticks = 0;  // idle + iowait
};

CpuSample SampleCpu();

// Parses the first line of /proc/stat ("cpu  user nice system idle iowait irq softirq
// steal ..."). False when it is not such a line.
bool ParseProcStatCpuLine(const char* text, size_t length, uint64_t* busy_ticks,
                          uint64_t* idle_ticks);

}  // namespace prof

#endif  // PROF_AGENT_RECORD_CPU_SAMPLE_H_
