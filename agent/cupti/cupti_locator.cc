#include "agent/cupti/cupti_locator.h"

#include <cstdlib>
#include <cstring>

#include "agent/record/cuda_presence.h"

namespace prof {
namespace {

std::string FolderOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

// Both the versioned soname (what CUDA 13 installs) and the development link.
void AddFolder(const std::string& folder, std::vector<CuptiCandidate>* candidates) {
  if (folder.empty()) return;
  candidates->push_back({folder + "/libcupti.so.13", false});
  candidates->push_back({folder + "/libcupti.so", false});
}

}  // namespace

std::vector<CuptiCandidate> CuptiCandidates(const std::string& explicit_path) {
  if (!explicit_path.empty()) return {{explicit_path, false}};
  std::vector<CuptiCandidate> candidates;
  const std::string loaded_cupti = LoadedLibraryPath("libcupti.so");
  if (!loaded_cupti.empty()) candidates.push_back({loaded_cupti, true});
  const std::string cudart_folder = FolderOf(LoadedLibraryPath("libcudart.so"));
  AddFolder(cudart_folder, &candidates);
  // pip wheels: nvidia/cuda_runtime/lib/libcudart.so.13 next to nvidia/cuda_cupti/lib.
  if (!cudart_folder.empty()) AddFolder(cudart_folder + "/../../cuda_cupti/lib", &candidates);
  const char* cuda_home = std::getenv("CUDA_HOME");
  if (cuda_home && *cuda_home) AddFolder(std::string(cuda_home) + "/lib64", &candidates);
  AddFolder("/usr/local/cuda/lib64", &candidates);
  candidates.push_back({"libcupti.so.13", false});  // LD_LIBRARY_PATH, ldconfig
  return candidates;
}

}  // namespace prof
