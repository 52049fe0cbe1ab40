// Which CUPTI serves which runtime, and where it is looked for in pip, conda and toolkit
// layouts (cupti_versions.h, cupti_locator.h).
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "agent/cupti/cupti_locator.h"
#include "agent/cupti/cupti_versions.h"

namespace prof {
namespace {

std::vector<std::string> Paths(const CuptiSearch& search) {
  std::vector<std::string> paths;
  for (const CuptiCandidate& candidate : CuptiCandidatesFor(search)) {
    paths.push_back(candidate.path);
  }
  return paths;
}

bool Has(const std::vector<std::string>& paths, const std::string& path) {
  for (const std::string& each : paths) {
    if (each == path) return true;
  }
  return false;
}

TEST_CASE("CUPTI API versions: 12.0-12.9 and 13.x are read, others are not") {
  CHECK(CudaMajorOfCuptiVersion(18) == 0);  // CUDA 11.8
  CHECK(CudaMajorOfCuptiVersion(19) == 12);
  CHECK(CudaMajorOfCuptiVersion(24) == 12);
  CHECK(CudaMajorOfCuptiVersion(28) == 12);
  CHECK(CudaMajorOfCuptiVersion(29) == 0);
  CHECK(CudaMajorOfCuptiVersion(130001) == 13);
  CHECK(CudaMajorOfCuptiVersion(140000) == 0);
}

TEST_CASE("a library's CUDA major comes from its file name") {
  CHECK(CudaMajorOfLibraryName("/x/nvidia/cuda_runtime/lib/libcudart.so.12") == 12);
  CHECK(CudaMajorOfLibraryName("/conda/lib/libcudart.so.12.4.127") == 12);
  CHECK(CudaMajorOfLibraryName("/site/torch/lib/libcudart-9335f6a2.so.12") == 12);
  CHECK(CudaMajorOfLibraryName("libcupti.so.13") == 13);
  CHECK(CudaMajorOfLibraryName("/usr/local/cuda/lib64/libcudart.so") == 0);
  CHECK(CudaMajorOfLibraryName("") == 0);
}

TEST_CASE("a CUPTI of another major or an unknown version is one line naming both files") {
  CHECK(CuptiVersionProblem(24, "/a/libcupti.so.12", "/b/libcudart.so.12").empty());
  CHECK(CuptiVersionProblem(130001, "/a/libcupti.so.13", "/b/libcudart.so.13").empty());
  CHECK(CuptiVersionProblem(130001, "/a/libcupti.so.13", "").empty());  // static runtime
  const std::string mismatch =
      CuptiVersionProblem(130001, "/a/libcupti.so.13", "/b/libcudart.so.12");
  CHECK(mismatch.find("/a/libcupti.so.13") != std::string::npos);
  CHECK(mismatch.find("/b/libcudart.so.12") != std::string::npos);
  CHECK(mismatch.find('\n') == std::string::npos);
  const std::string old = CuptiVersionProblem(18, "/a/libcupti.so.11.8", "/b/libcudart.so.11.0");
  CHECK(old.find("API version 18") != std::string::npos);
  CHECK(old.find("/b/libcudart.so.11.0") != std::string::npos);
}

TEST_CASE("cu12x wheels: nvidia/cuda_cupti/lib beside nvidia/cuda_runtime/lib") {
  CuptiSearch search;
  search.runtime = "/venv/site-packages/nvidia/cuda_runtime/lib/libcudart.so.12";
  const std::vector<std::string> paths = Paths(search);
  CHECK(paths[0] == "/venv/site-packages/nvidia/cuda_runtime/lib/libcupti.so.12");
  CHECK(paths[1] == "/venv/site-packages/nvidia/cuda_cupti/lib/libcupti.so.12");
  for (const std::string& path : paths) CHECK(path.find("libcupti.so.13") == std::string::npos);
  CHECK(paths.back() == "libcupti.so.12");
}

TEST_CASE("cu13 wheels and conda: the runtime's own folder first") {
  CuptiSearch wheel;
  wheel.runtime = "/venv/site-packages/nvidia/cu13/lib/libcudart.so.13";
  CHECK(Paths(wheel)[0] == "/venv/site-packages/nvidia/cu13/lib/libcupti.so.13");
  CuptiSearch conda;
  conda.runtime = "/opt/conda/lib/libcudart.so.12";
  conda.conda_prefix = "/opt/conda";
  CHECK(Paths(conda)[0] == "/opt/conda/lib/libcupti.so.12");
}

TEST_CASE("torch/lib, the toolkit's extras/CUPTI, $CUDA_HOME, a symlinked runtime") {
  CuptiSearch torch;
  torch.runtime = "/venv/site-packages/torch/lib/libcudart-9335f6a2.so.12";
  CHECK(Has(Paths(torch), "/venv/site-packages/nvidia/cuda_cupti/lib/libcupti.so.12"));
  CuptiSearch toolkit;
  toolkit.runtime = "/opt/cuda-12.4/lib64/libcudart.so.12";
  toolkit.cuda_home = "/opt/cuda-12.6";
  const std::vector<std::string> paths = Paths(toolkit);
  CHECK(Has(paths, "/opt/cuda-12.4/extras/CUPTI/lib64/libcupti.so.12"));
  CHECK(Has(paths, "/opt/cuda-12.6/lib64/libcupti.so.12"));
  CHECK(Has(paths, "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.12"));
  CuptiSearch linked;
  linked.runtime = "/links/libcudart.so.12";
  linked.runtime_real = "/real/lib/libcudart.so.12";
  CHECK(Has(Paths(linked), "/real/lib/libcupti.so.12"));
}

TEST_CASE("an already loaded CUPTI comes first; PROF_CUPTI_LIB is the only candidate") {
  CuptiSearch loaded;
  loaded.loaded_cupti = "/venv/site-packages/nvidia/cuda_cupti/lib/libcupti.so.12";
  loaded.runtime = "/venv/site-packages/nvidia/cuda_runtime/lib/libcudart.so.12";
  const std::vector<CuptiCandidate> candidates = CuptiCandidatesFor(loaded);
  CHECK(candidates[0].path == loaded.loaded_cupti);
  CHECK(candidates[0].only_if_loaded);
  CuptiSearch chosen = loaded;
  chosen.explicit_path = "/mine/libcupti.so";
  CHECK(Paths(chosen) == std::vector<std::string>{"/mine/libcupti.so"});
}

TEST_CASE("no shared runtime (a static one): both majors, 13 first") {
  const std::vector<std::string> paths = Paths(CuptiSearch());
  CHECK(Has(paths, "/usr/local/cuda/lib64/libcupti.so.13"));
  CHECK(Has(paths, "/usr/local/cuda/lib64/libcupti.so.12"));
  CHECK(paths[paths.size() - 2] == "libcupti.so.13");
  CHECK(paths.back() == "libcupti.so.12");
}

}  // namespace
}  // namespace prof
