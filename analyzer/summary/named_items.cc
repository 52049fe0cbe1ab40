#include "analyzer/summary/named_items.h"

#include "absl/strings/str_cat.h"

namespace prof::analyzer {

std::string Shorten(absl::string_view name, size_t width) {
  if (name.size() <= width) return std::string(name);
  return absl::StrCat(name.substr(0, width - 3), "...");
}

std::string KernelDisplayName(absl::string_view name) {
  if (name.empty() || name.back() != ')') return std::string(name);
  // Find the '(' opening the final argument list.
  int depth = 0;
  size_t open = absl::string_view::npos;
  for (size_t i = name.size(); i-- > 0;) {
    if (name[i] == ')') ++depth;
    if (name[i] == '(' && --depth == 0) {
      open = i;
      break;
    }
  }
  if (open == absl::string_view::npos || open == 0 || name[open - 1] != '>')
    return std::string(name);
  if (name.substr(0, open).find('<') == absl::string_view::npos) return std::string(name);
  return std::string(name.substr(0, open));
}

void KeepTop(int top, std::vector<size_t>* order) {
  if (top > 0 && order->size() > static_cast<size_t>(top)) order->resize(top);
}

}  // namespace prof::analyzer
