// Test support (Catch2): compares the analyzer's figures for one process with a section
// of the workload's ground truth. Counts, bytes and nanoseconds must be equal; ratios
// (fractions) must agree to 0.01 % of their value.
#ifndef PROF_ANALYZER_E2E_GOLDEN_CHECKS_H_
#define PROF_ANALYZER_E2E_GOLDEN_CHECKS_H_

#include "analyzer/e2e/analyzed_run.h"
#include "analyzer/e2e/workload_truth.h"

namespace prof::analyzer::e2e {

// Kernels by full demangled name (model) and by Kernel Summary row: calls and GPU total
// exact, each row's ratio equal to its share of the truth's kernel time.
void CheckKernels(const ProcessFigures& analyzed, const TruthSection& truth);

// Copies by direction: count and bytes exact.
void CheckCopies(const ProcessFigures& analyzed, const TruthSection& truth);

// Memory Manipulation Summary: the copy-call rows of each direction ("... HtoD") add up to
// the truth's copies of that direction (calls, bytes, device ns exact), the memset rows to
// its memsets, and each row's GB/s is its bytes over its device time.
void CheckCopyRows(const ProcessFigures& analyzed, const TruthSection& truth);

// NCCL Summary calls and bytes per collective, exact.
void CheckCollectives(const ProcessFigures& analyzed, const TruthSection& truth);

// NCCL Summary per collective: the Ranks column equals the truth's communicator size,
// and AlgBW / BusBW equal nccl-tests' formulas applied to the truth's bytes and kernel
// time (bus factor by hand: all-reduce 2(n-1)/n; all-gather, reduce-scatter, all-to-all,
// gather, scatter (n-1)/n; broadcast, reduce 1), to 0.5 % (the table rounds to 0.01 GB/s).
void CheckBusBandwidth(const ProcessFigures& analyzed, const TruthSection& truth);

// Model Summary calls of Dataloader / Forward / Backward / Optimization (each an NVTX
// range in the workloads) exact.
void CheckPhaseCalls(const ProcessFigures& analyzed, const TruthSection& truth);

// True when `a` and `b` agree to 0.01 % of the larger one (both 0 agree).
bool WithinOneBasisPoint(double a, double b);

}  // namespace prof::analyzer::e2e

#endif  // PROF_ANALYZER_E2E_GOLDEN_CHECKS_H_
