#include "agent/cupti/cupti_locator.h"

#include <climits>
#include <cstdlib>

#include "agent/cupti/cupti_versions.h"
#include "agent/record/cuda_presence.h"

namespace prof {
namespace {

std::string FolderOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

bool EndsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// `folder` minus its last `levels` components ("" when it has fewer).
std::string Up(std::string folder, int levels) {
  for (int i = 0; i < levels && !folder.empty(); ++i) folder = FolderOf(folder);
  return folder;
}

class CandidateList {
 public:
  explicit CandidateList(int major) : major_(major) {}

  void Add(const std::string& path, bool only_if_loaded) {
    for (const CuptiCandidate& candidate : list_) {
      if (candidate.path == path) return;
    }
    list_.push_back({path, only_if_loaded});
  }

  // The runtime's own major, or both (and the development link) when it is unknown.
  void AddFolder(const std::string& folder) {
    if (folder.empty()) return;
    for (const std::string& name : Sonames()) Add(folder + "/" + name, false);
    if (major_ == 0) Add(folder + "/libcupti.so", false);
  }

  std::vector<std::string> Sonames() const {
    if (major_ != 0) return {"libcupti.so." + std::to_string(major_)};
    return {"libcupti.so.13", "libcupti.so.12"};
  }

  std::vector<CuptiCandidate> Take() { return std::move(list_); }

 private:
  const int major_;
  std::vector<CuptiCandidate> list_;
};

// The folders a runtime in `folder` implies (the layouts of cupti_locator.h).
void AddRuntimeLayouts(const std::string& folder, CandidateList* list) {
  if (folder.empty()) return;
  list->AddFolder(folder);  // cu13 wheels, conda, the toolkit's lib64
  if (EndsWith(folder, "/cuda_runtime/lib")) list->AddFolder(Up(folder, 2) + "/cuda_cupti/lib");
  if (EndsWith(folder, "/torch/lib")) {
    const std::string site_packages = Up(folder, 2);
    list->AddFolder(site_packages + "/nvidia/cuda_cupti/lib");
    list->AddFolder(site_packages + "/nvidia/cu13/lib");
  }
  list->AddFolder(Up(folder, 1) + "/extras/CUPTI/lib64");  // the toolkit's own layout
}

void AddToolkit(const std::string& root, CandidateList* list) {
  if (root.empty()) return;
  list->AddFolder(root + "/lib64");
  list->AddFolder(root + "/extras/CUPTI/lib64");
}

std::string RealPath(const std::string& path) {
  if (path.empty()) return "";
  char resolved[PATH_MAX];
  return realpath(path.c_str(), resolved) ? std::string(resolved) : std::string();
}

std::string Environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

}  // namespace

std::vector<CuptiCandidate> CuptiCandidatesFor(const CuptiSearch& search) {
  if (!search.explicit_path.empty()) return {{search.explicit_path, false}};
  CandidateList list(CudaMajorOfLibraryName(search.runtime));
  if (!search.loaded_cupti.empty()) list.Add(search.loaded_cupti, true);
  AddRuntimeLayouts(FolderOf(search.runtime), &list);
  AddRuntimeLayouts(FolderOf(search.runtime_real), &list);
  AddToolkit(search.cuda_home, &list);
  if (!search.conda_prefix.empty()) list.AddFolder(search.conda_prefix + "/lib");
  AddToolkit("/usr/local/cuda", &list);
  for (const std::string& name : list.Sonames()) list.Add(name, false);  // LD_LIBRARY_PATH
  return list.Take();
}

std::string LoadedRuntimePath() { return LoadedLibraryPath("libcudart"); }

CuptiSearch ProcessCuptiSearch(const std::string& explicit_path) {
  CuptiSearch search;
  search.explicit_path = explicit_path;
  if (!explicit_path.empty()) return search;
  search.loaded_cupti = LoadedLibraryPath("libcupti");
  search.runtime = LoadedRuntimePath();
  search.runtime_real = RealPath(search.runtime);
  search.cuda_home = Environment("CUDA_HOME");
  search.conda_prefix = Environment("CONDA_PREFIX");
  return search;
}

}  // namespace prof
