#include "testdata/workloads/common/prof_api.h"

#include <dlfcn.h>

namespace workloads {

ProfApi::ProfApi(TruthRecorder* truth) : truth_(truth) {
  step_ = reinterpret_cast<void (*)(int64_t)>(dlsym(RTLD_DEFAULT, "prof_step"));
  range_push_ = reinterpret_cast<void (*)(const char*)>(dlsym(RTLD_DEFAULT, "prof_range_push"));
  range_pop_ = reinterpret_cast<void (*)()>(dlsym(RTLD_DEFAULT, "prof_range_pop"));
  mark_ = reinterpret_cast<void (*)(const char*)>(dlsym(RTLD_DEFAULT, "prof_mark"));
}

void ProfApi::BeginStep() { truth_->BeginStep(); }

void ProfApi::Step(int64_t num_samples) {
  truth_->EndStep(num_samples);
  if (step_ != nullptr) step_(num_samples);
}

void ProfApi::RangePush(const char* name) {
  truth_->RecordUserRange(name);
  if (range_push_ != nullptr) range_push_(name);
}

void ProfApi::RangePop() {
  if (range_pop_ != nullptr) range_pop_();
}

void ProfApi::Mark(const char* name) {
  truth_->RecordMark(name);
  if (mark_ != nullptr) mark_(name);
}

}  // namespace workloads
