// Where to look for libcupti, in order of preference: PROF_CUPTI_LIB alone when it is set
// (the user's explicit choice is never second-guessed); else a libcupti the process has
// already loaded (a framework's own copy, e.g. torch's Kineto: a second copy would crash);
// else beside the loaded libcudart, in every layout pip, conda and the toolkit use:
//   cu12x wheels  site-packages/nvidia/cuda_runtime/lib/libcudart.so.12
//                 with          nvidia/cuda_cupti/lib/libcupti.so.12
//   cu13 wheels   site-packages/nvidia/cu13/lib/ holds both
//   torch/lib     a runtime bundled in torch/lib: the wheels' nvidia/ folders beside torch/
//   conda         $CONDA_PREFIX/lib/ holds both
//   toolkit       lib64/libcudart.so.N with lib64/ or extras/CUPTI/lib64/libcupti.so.N
// (the folder of the path the loader opened and of the file it resolves to, so a symlinked
// runtime is followed to its real folder); then $CUDA_HOME, $CONDA_PREFIX/lib,
// /usr/local/cuda; else the loader's search path. Only the runtime's own major is looked for
// (libcupti.so.12 for libcudart.so.12): CUPTI 13 cannot trace a CUDA 12 program. Without a
// shared runtime (a statically linked one) both majors are candidates, 13 first.
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

// What the search starts from; every field may be "".
struct CuptiSearch {
  std::string explicit_path;  // PROF_CUPTI_LIB
  std::string loaded_cupti;   // a libcupti* the process has mapped
  std::string runtime;        // the loaded libcudart*, as the loader opened it
  std::string runtime_real;   // the file it resolves to
  std::string cuda_home;      // $CUDA_HOME
  std::string conda_prefix;   // $CONDA_PREFIX
};

// The candidates for `search`, in order, without duplicates.
std::vector<CuptiCandidate> CuptiCandidatesFor(const CuptiSearch& search);

// The search of this process (loaded objects, environment).
CuptiSearch ProcessCuptiSearch(const std::string& explicit_path);

// The loaded libcudart* ("" when none is: no CUDA yet, or a static runtime).
std::string LoadedRuntimePath();

inline std::vector<CuptiCandidate> CuptiCandidates(const std::string& explicit_path) {
  return CuptiCandidatesFor(ProcessCuptiSearch(explicit_path));
}

}  // namespace prof

#endif  // PROF_AGENT_CUPTI_CUPTI_LOCATOR_H_
