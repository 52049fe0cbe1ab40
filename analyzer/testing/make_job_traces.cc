// Writes a synthetic job (testing/job_traces.h) into a folder, one trace file per rank:
// the example (rank STRAGGLER computing 3 ms longer in steps 8-14 of 20, or step 1
// of 3 past 1,024 ranks), for the MPI test, the job benchmark and trying the CLI. TP > 1:
// tensor x data parallel groups of TP ranks (many communicators) instead of the world one.
// STEPS: that many steps instead (more collectives per rank, for measuring memory).
//
//   bazel run //analyzer/testing:make_job_traces -- FOLDER RANKS [STRAGGLER [TP [STEPS]]]
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "analyzer/testing/job_traces.h"

int main(int argc, char** argv) {
  if (argc < 3 || argc > 6) {
    std::fprintf(stderr, "usage: make_job_traces FOLDER RANKS [STRAGGLER [TP [STEPS]]]\n");
    return 2;
  }
  prof::analyzer::testing::JobSpec spec;
  spec.ranks = std::atoi(argv[2]);
  spec.straggler_rank = argc >= 4 ? std::atoi(argv[3]) : spec.ranks * 11 / 16;
  spec.tensor_parallel = argc >= 5 ? std::atoi(argv[4]) : 1;
  if (spec.ranks < 2 || spec.straggler_rank < 0 || spec.straggler_rank >= spec.ranks) {
    std::fprintf(stderr, "make_job_traces: RANKS must be 2 or more and STRAGGLER one of them\n");
    return 2;
  }
  if (spec.tensor_parallel < 1 || spec.ranks % spec.tensor_parallel != 0) {
    std::fprintf(stderr, "make_job_traces: TP must be 1 or more and divide RANKS\n");
    return 2;
  }
  spec.straggler_extra_ns = 3000000;
  const bool large = spec.ranks > 1024;
  spec.steps = large ? 3 : 20;
  spec.straggler_first_step = large ? 1 : 8;
  spec.straggler_last_step = large ? 1 : 14;
  if (argc == 6) spec.steps = std::atoi(argv[5]);
  if (spec.steps < 1) {
    std::fprintf(stderr, "make_job_traces: STEPS must be 1 or more\n");
    return 2;
  }
  std::filesystem::create_directories(argv[1]);
  const prof::analyzer::testing::JobTruth truth =
      prof::analyzer::testing::WriteJobTraces(spec, argv[1]);
  std::printf("wrote %zu rank files into %s (straggler: rank %d; tensor parallel %d)\n",
              truth.paths.size(), argv[1], spec.straggler_rank, spec.tensor_parallel);
  return 0;
}
