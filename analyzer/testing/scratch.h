// Small helpers for tests that write traces and compare rendered text.
#ifndef PROF_ANALYZER_TESTING_SCRATCH_H_
#define PROF_ANALYZER_TESTING_SCRATCH_H_

#include <string>

namespace prof::analyzer::testing {

// A fresh, empty folder under TEST_TMPDIR (or /tmp).
std::string ScratchFolder(const std::string& name);

// "line N:\n  <a's line>\n  <b's line>" for the first line where the texts differ, ""
// when they are equal: a failure message that shows where.
std::string FirstDifferentLine(const std::string& a, const std::string& b);

}  // namespace prof::analyzer::testing

#endif  // PROF_ANALYZER_TESTING_SCRATCH_H_
