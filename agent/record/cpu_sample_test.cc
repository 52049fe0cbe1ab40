#include "agent/record/cpu_sample.h"

#include <cstring>

#include <catch2/catch.hpp>

namespace prof {
namespace {

TEST_CASE("the /proc/stat cpu line: busy and idle ticks") {
  const char line[] = "cpu  100 20 30 400 50 6 7 8 9 10\ncpu0 1 2 3 4 5 6 7 8 9 10\n";
  uint64_t busy = 0, idle = 0;
  REQUIRE(ParseProcStatCpuLine(line, std::strlen(line), &busy, &idle));
  CHECK(busy == 100 + 20 + 30 + 6 + 7 + 8);
  CHECK(idle == 400 + 50);
  const char old_kernel[] = "cpu  1 2 3 4\n";  // before iowait existed
  REQUIRE(ParseProcStatCpuLine(old_kernel, std::strlen(old_kernel), &busy, &idle));
  CHECK(busy == 6);
  CHECK(idle == 4);
  CHECK_FALSE(ParseProcStatCpuLine("cpu0 1 2 3 4\n", 13, &busy, &idle));
  CHECK_FALSE(ParseProcStatCpuLine("intr 1 2", 8, &busy, &idle));
  CHECK_FALSE(ParseProcStatCpuLine("cpu  1 2\n", 9, &busy, &idle));
}

TEST_CASE("a sample: process CPU time grows with work, the system line is read") {
  const CpuSample before = SampleCpu();
  volatile uint64_t sink = 0;
  for (uint64_t i = 0; i < 20000000; ++i) sink = sink + i * i;
  const CpuSample after = SampleCpu();
  CHECK(before.valid);
  CHECK(after.host_ns > before.host_ns);
  CHECK(after.process_cpu_ns > before.process_cpu_ns);
  CHECK(after.system_known);
  CHECK(after.busy_ticks + after.idle_ticks >= before.busy_ticks + before.idle_ticks);
}

}  // namespace
}  // namespace prof
