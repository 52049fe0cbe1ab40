// Where to look for libcupti, in order of preference: PROF_CUPTI_LIB alone when it is set
// (the user's explicit choice is never second-guessed); else a libcupti the process has
// already loaded (a framework's own copy: a second copy would crash); else next to the
// loaded libcudart; else $CUDA_HOME/lib64, then /usr/local/cuda/lib64; else the loader's
// search path.
//
// Thread safety: stateless; safe from any thread (dl_iterate_phdr takes the loader lock,
// so never call it while holding an agent lock).
#ifndef PROF_AGENT_CUPTI_CUPTI_LOCATOR_H_
#define PROF_AGENT_CUPTI_CUPTI_LOCATOR_H_

#include <string>
#include <vector>

namespace prof {

struct CuptiCandidate {
  std::string path;
  bool only_if_loaded = false;  // dlopen with RTLD_NOLOAD: use it only if already mapped
};

std::vector<CuptiCandidate> CuptiCandidates(const std::string& explicit_path);

}  // namespace prof

#endif  // PROF_AGENT_CUPTI_CUPTI_LOCATOR_H_
