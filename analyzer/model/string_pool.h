// Interned strings of one analysis unit (a process: one or more trace files). Ids are
// dense, 0 is the empty string. Owns its strings; not thread-safe.
//
//   StringPool pool;
//   NameId id = pool.Intern("cudaLaunchKernel");
//   absl::string_view name = pool.Get(id);
#ifndef PROF_ANALYZER_MODEL_STRING_POOL_H_
#define PROF_ANALYZER_MODEL_STRING_POOL_H_

#include <cstdint>
#include <deque>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"

namespace prof::analyzer {

using NameId = uint32_t;

class StringPool {
 public:
  StringPool() { Intern(""); }
  StringPool(const StringPool&) = delete;
  StringPool& operator=(const StringPool&) = delete;
  StringPool(StringPool&&) = default;
  StringPool& operator=(StringPool&&) = default;

  NameId Intern(absl::string_view value) {
    auto it = ids_.find(value);
    if (it != ids_.end()) return it->second;
    // A deque keeps every string (and the views keyed on it) at a stable address.
    strings_.emplace_back(value);
    const NameId id = static_cast<NameId>(strings_.size() - 1);
    ids_.emplace(absl::string_view(strings_.back()), id);
    return id;
  }

  absl::string_view Get(NameId id) const {
    return id < strings_.size() ? absl::string_view(strings_[id]) : absl::string_view();
  }

  size_t size() const { return strings_.size(); }

 private:
  std::deque<std::string> strings_;
  absl::flat_hash_map<absl::string_view, NameId> ids_;
};

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_MODEL_STRING_POOL_H_
