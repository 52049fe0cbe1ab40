#include "analyzer/model/nvtx_operator_name.h"

namespace prof::analyzer {
namespace {

// The keys PyTorch's getNvtxStr appends after the name, each as ", KEY = VALUE".
constexpr absl::string_view kKeys[] = {"seq = ", "op_id = ", "sizes = ", "input_op_ids = "};

// Length of the key `text` starts with, or 0.
size_t KeyLength(absl::string_view text) {
  for (absl::string_view key : kKeys) {
    if (text.substr(0, key.size()) == key) return key.size();
  }
  return 0;
}

// The bracketed list at the start of `text` ("[[2, 3], []]"), or empty if unbalanced.
absl::string_view BracketedList(absl::string_view text) {
  if (text.empty() || text[0] != '[') return {};
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '[') ++depth;
    if (text[i] == ']' && --depth == 0) return text.substr(0, i + 1);
  }
  return {};
}

}  // namespace

NvtxOperatorName SplitNvtxOperatorName(absl::string_view text) {
  // The name ends at the first ", " followed by a known key; names have no such suffix.
  size_t name_end = absl::string_view::npos;
  for (size_t at = text.find(", "); at != absl::string_view::npos; at = text.find(", ", at + 1)) {
    if (KeyLength(text.substr(at + 2))) {
      name_end = at;
      break;
    }
  }
  if (name_end == absl::string_view::npos || name_end == 0) return {text, {}};
  NvtxOperatorName parts{text.substr(0, name_end), {}};
  const size_t sizes = text.find(", sizes = ", name_end);
  if (sizes != absl::string_view::npos) {
    parts.shapes = BracketedList(text.substr(sizes + 10));
  }
  return parts;
}

}  // namespace prof::analyzer
