#include "agent/cupti/cupti_versions.h"

#include <cstdio>
#include <cstdlib>

namespace prof {
namespace {

constexpr uint32_t kCuda12First = 19;  // CUDA 12.0
constexpr uint32_t kCuda12Last = 28;   // CUDA 12.9 Update 1, the last 12.x
constexpr uint32_t kCuda13First = 130000;
constexpr uint32_t kCuda13Last = 139999;

}  // namespace

int CudaMajorOfCuptiVersion(uint32_t version) {
  if (version >= kCuda12First && version <= kCuda12Last) return 12;
  if (version >= kCuda13First && version <= kCuda13Last) return 13;
  return 0;
}

// The number right after the file name's ".so.", e.g. "libcupti.so.13" -> 13.
int CudaMajorOfLibraryName(const std::string& path) {
  const size_t slash = path.rfind('/');
  const std::string file = slash == std::string::npos ? path : path.substr(slash + 1);
  const size_t so = file.find(".so.");
  if (so == std::string::npos) return 0;
  const char* digits = file.c_str() + so + 4;
  char* end = nullptr;
  const long major = std::strtol(digits, &end, 10);
  if (end == digits || major <= 0 || major > 1000) return 0;
  return static_cast<int>(major);
}

std::string CuptiVersionProblem(uint32_t version, const std::string& cupti_path,
                                const std::string& runtime_path) {
  char line[1024];
  const int cupti_major = CudaMajorOfCuptiVersion(version);
  if (cupti_major == 0) {
    std::snprintf(line, sizeof(line),
                  "%s has CUPTI API version %u, which libprof cannot read (it reads CUDA "
                  "12.0-12.9's, versions %u-%u, and CUDA 13's, %u-%u)%s%s",
                  cupti_path.c_str(), version, kCuda12First, kCuda12Last, kCuda13First, kCuda13Last,
                  runtime_path.empty() ? "" : "; the program's runtime is ", runtime_path.c_str());
    return line;
  }
  const int runtime_major = CudaMajorOfLibraryName(runtime_path);
  if (runtime_major == 0 || runtime_major == cupti_major) return "";
  std::snprintf(line, sizeof(line),
                "%s is CUDA %d's CUPTI (API version %u) but the program's runtime %s is CUDA "
                "%d's; set PROF_CUPTI_LIB to a libcupti.so.%d",
                cupti_path.c_str(), cupti_major, version, runtime_path.c_str(), runtime_major,
                runtime_major);
  return line;
}

}  // namespace prof
