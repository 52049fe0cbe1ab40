// Test support: a window shaped to be cut into slices (analyzer/read/window_slicer.h),
// with what makes slicing hard: device records written a chunk after their calls (or all
// at the end), memory alive across steps, a clock anchor read mid-file.
#ifndef PROF_ANALYZER_TESTING_SLICED_WINDOW_H_
#define PROF_ANALYZER_TESTING_SLICED_WINDOW_H_

#include "analyzer/testing/test_trace.h"

namespace prof::analyzer::testing {

// Twelve 1000 ns steps on thread 1 from 10000 ns, a chunk each (see sliced_window.cc).
// `kernels_at_end`: every kernel is written in the last chunk instead of the next step's.
// `device_lag` > 0: every device record (kernels and copies) is written that many steps'
// chunks after its launch instead, as CUPTI hands its records on a full buffer at a time.
void AddTwelveSteps(bool kernels_at_end, TestTrace* trace, uint64_t device_lag = 0);

}  // namespace prof::analyzer::testing

#endif  // PROF_ANALYZER_TESTING_SLICED_WINDOW_H_
