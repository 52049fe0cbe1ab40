// The profiler agent's C API (prof_step, prof_range_push, prof_range_pop, prof_mark),
// looked up at run time with dlsym(RTLD_DEFAULT, ...) the way programs are told to, so a
// workload runs unchanged with or without libprof.so preloaded. Every call is also
// recorded in the truth (the agent's presence does not change what the program did).
#pragma once

#include <cstdint>

#include "testdata/workloads/common/truth_recorder.h"

namespace workloads {

class ProfApi {
 public:
  explicit ProfApi(TruthRecorder* truth);

  // Opens a step in the truth (call at the top of each iteration; the agent needs no
  // call here, its step k runs from prof_step #k-1 to prof_step #k).
  void BeginStep();
  // Closes the truth's step with num_samples and calls prof_step (end of iteration).
  void Step(int64_t num_samples);
  void RangePush(const char* name);
  void RangePop();
  void Mark(const char* name);

  bool agent_present() const { return step_ != nullptr; }

 private:
  TruthRecorder* truth_;
  void (*step_)(int64_t) = nullptr;
  void (*range_push_)(const char*) = nullptr;
  void (*range_pop_)() = nullptr;
  void (*mark_)(const char*) = nullptr;
};

}  // namespace workloads
