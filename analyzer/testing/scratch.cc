#include "analyzer/testing/scratch.h"

#include <cstdlib>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace prof::analyzer::testing {

std::string ScratchFolder(const std::string& name) {
  const char* root = std::getenv("TEST_TMPDIR");
  const std::string folder = std::string(root ? root : "/tmp") + "/" + name;
  std::system(("rm -rf '" + folder + "' && mkdir -p '" + folder + "'").c_str());
  return folder;
}

std::string FirstDifferentLine(const std::string& a, const std::string& b) {
  const std::vector<std::string> left = absl::StrSplit(a, '\n');
  const std::vector<std::string> right = absl::StrSplit(b, '\n');
  for (size_t i = 0; i < left.size() && i < right.size(); ++i) {
    if (left[i] != right[i]) return absl::StrCat("line ", i + 1, ":\n  ", left[i], "\n  ", right[i]);
  }
  return left.size() == right.size() ? "" : "one text has more lines";
}

}  // namespace prof::analyzer::testing
