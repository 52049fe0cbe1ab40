// What one clock read costs on this machine: RDTSC back to back, and clock_gettime
// (CLOCK_MONOTONIC, through the vDSO). A recorded call needs a start and an end time, so
// any tracer of a call's duration pays two of them: scripts/process_call_cost.py prints
// its figure less two reads beside the goal. Median over batches of the average time per
// read (thread CPU time); prints "tsc_ns <x>" and "clock_gettime_ns <y>". Asserts nothing.
//   clock_cost [batches] [reads per batch]       (defaults 31, 1000000)
#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace {

uint64_t NowNs(clockid_t clock = CLOCK_MONOTONIC) {
  struct timespec now;
  clock_gettime(clock, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + now.tv_nsec;
}

// Each read's value is folded into a sum that is printed nowhere but kept (volatile), so
// the compiler keeps every read.
volatile uint64_t g_sink;

uint64_t ReadTsc() {
#if defined(__x86_64__)
  return __rdtsc();
#else
  return NowNs();
#endif
}

uint64_t ReadClockGettime() { return NowNs(); }

// One batch: the average time of `reads` reads, in the thread's CPU time (a machine shared
// with other work takes the core away now and then; that time is not the read's).
template <typename Read>
double NsPerRead(Read read, int reads) {
  uint64_t sum = 0;
  const uint64_t start = NowNs(CLOCK_THREAD_CPUTIME_ID);
  for (int i = 0; i < reads; ++i) sum += read();
  const double ns = static_cast<double>(NowNs(CLOCK_THREAD_CPUTIME_ID) - start) / reads;
  g_sink = sum;
  return ns;
}

double Median(std::vector<double> values) {
  std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
  return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int batches = argc > 1 ? std::max(1, std::atoi(argv[1])) : 31;
  const int reads = argc > 2 ? std::max(1, std::atoi(argv[2])) : 1000000;
  // Alternating batches of the two, so load that comes and goes touches both alike.
  std::vector<double> tsc, gettime;
  for (int i = 0; i < batches; ++i) {
    tsc.push_back(NsPerRead(ReadTsc, reads));
    gettime.push_back(NsPerRead(ReadClockGettime, reads));
  }
  std::printf("tsc_ns %.2f\nclock_gettime_ns %.2f\n", Median(tsc), Median(gettime));
  return 0;
}
