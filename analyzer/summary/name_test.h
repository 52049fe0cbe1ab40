// A test of a name's text (is it a copy call, a communication operator, ...) asked per
// event but answered once per name: names repeat, events number millions, and the tests
// lowercase or search. Answers are kept by NameId (dense: a StringPool), a byte each.
#ifndef PROF_ANALYZER_SUMMARY_NAME_TEST_H_
#define PROF_ANALYZER_SUMMARY_NAME_TEST_H_

#include <cstdint>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/strings/string_view.h"
#include "analyzer/model/string_pool.h"

namespace prof::analyzer {

// `test` of the name's text, remembered. The answers are an enum, not int8_t: a store
// through a char type may alias any object, and forced the loops around the test to reload
// every vector's bounds after each (the copy table's walk over every call).
template <bool (*test)(absl::string_view)>
class NameTest {
 public:
  explicit NameTest(const StringPool& names) : names_(names), known_(names.size()) {}

  // Inline only for a name tested before; the first test of a name is out of line.
  bool operator()(NameId name) {
    if (name < known_.size() && known_[name] != Known::kUntested) {
      return known_[name] == Known::kYes;
    }
    return Test(name);
  }

 private:
  ABSL_ATTRIBUTE_NOINLINE bool Test(NameId name) {
    if (name >= known_.size()) known_.resize(name + 1);
    Known& known = known_[name];
    if (known == Known::kUntested) known = test(names_.Get(name)) ? Known::kYes : Known::kNo;
    return known == Known::kYes;
  }

  enum class Known : uint8_t { kUntested, kNo, kYes };
  const StringPool& names_;
  std::vector<Known> known_;
};

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_NAME_TEST_H_
