#include "agent/record/cpu_sample.h"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "agent/record/clock.h"

namespace prof {

bool ParseProcStatCpuLine(const char* text, size_t length, uint64_t* busy_ticks,
                          uint64_t* idle_ticks) {
  if (length < 4 || text[0] != 'c' || text[1] != 'p' || text[2] != 'u' || text[3] != ' ')
    return false;
  // user nice system idle iowait irq softirq steal (guest times are already in user/nice)
  uint64_t values[8] = {};
  int count = 0;
  size_t i = 3;
  while (count < 8 && i < length && text[i] != '\n') {
    while (i < length && text[i] == ' ') ++i;
    if (i >= length || text[i] < '0' || text[i] > '9') break;
    uint64_t value = 0;
    while (i < length && text[i] >= '0' && text[i] <= '9') value = value * 10 + (text[i++] - '0');
    values[count++] = value;
  }
  if (count < 4) return false;
  *busy_ticks = values[0] + values[1] + values[2] + values[5] + values[6] + values[7];
  *idle_ticks = values[3] + values[4];
  return true;
}

CpuSample SampleCpu() {
  CpuSample sample;
  sample.valid = true;
  sample.host_ns = MonotonicNs();
  timespec cpu{};
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu) == 0) {
    sample.process_cpu_ns = static_cast<uint64_t>(cpu.tv_sec) * 1000000000ull + cpu.tv_nsec;
  }
  const int fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return sample;
  char text[512];  // the first line fits easily
  const ssize_t length = read(fd, text, sizeof(text));
  close(fd);
  if (length > 0) {
    sample.system_known = ParseProcStatCpuLine(text, static_cast<size_t>(length),
                                               &sample.busy_ticks, &sample.idle_ticks);
  }
  return sample;
}

}  // namespace prof
