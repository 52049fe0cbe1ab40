#include "analyzer/read/input_paths.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace prof::analyzer {

absl::StatusOr<std::vector<std::string>> ExpandInputPaths(const std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code error;
    const fs::file_status status = fs::status(path, error);
    if (error || !fs::exists(status)) {
      return absl::NotFoundError(absl::StrCat(path, ": no such file or folder"));
    }
    if (!fs::is_directory(status)) {
      files.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    for (const fs::directory_entry& entry : fs::directory_iterator(path, error)) {
      const std::string name = entry.path().filename().string();
      // A run folder also holds logs and exports: only *.pb files are traces there.
      const bool trace_name = name.size() > 3 && name.compare(name.size() - 3, 3, ".pb") == 0;
      if (name[0] == '.' || !trace_name || !entry.is_regular_file(error)) continue;
      found.push_back(entry.path().string());
    }
    if (error) return absl::UnavailableError(absl::StrCat(path, ": ", error.message()));
    if (found.empty())
      return absl::NotFoundError(absl::StrCat(path, ": folder holds no trace files (*.pb)"));
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

}  // namespace prof::analyzer
