#include "analyzer/testing/scratch.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace prof::analyzer::testing {

std::string ScratchFolder(const std::string& name) {
  const char* root = std::getenv("TEST_TMPDIR");
  const std::filesystem::path folder = std::filesystem::path(root ? root : "/tmp") / name;
  std::error_code ignored;
  std::filesystem::remove_all(folder, ignored);
  std::filesystem::create_directories(folder, ignored);
  return folder.string();
}

std::string FirstDifferentLine(const std::string& a, const std::string& b) {
  const std::vector<std::string> left = absl::StrSplit(a, '\n');
  const std::vector<std::string> right = absl::StrSplit(b, '\n');
  for (size_t i = 0; i < left.size() && i < right.size(); ++i) {
    if (left[i] != right[i])
      return absl::StrCat("line ", i + 1, ":\n  ", left[i], "\n  ", right[i]);
  }
  return left.size() == right.size() ? "" : "one text has more lines";
}

}  // namespace prof::analyzer::testing
