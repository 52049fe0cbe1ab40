// The four outputs of a compare report; none computes anything. Text for people at a
// terminal, JSON for tools (schema "profanalyze.compare", version 1), JUnit XML for CI
// (one test case per rule; a broken rule is a <failure>, an undecided one <skipped>),
// markdown for a pull-request comment.
#ifndef PROF_ANALYZER_COMPARE_COMPARE_RENDERERS_H_
#define PROF_ANALYZER_COMPARE_COMPARE_RENDERERS_H_

#include <string>

#include "analyzer/compare/compare_report.h"

namespace prof::analyzer::compare {

// `top`: rows of the changes table (0: all).
std::string RenderCompareText(const CompareReport& report, int top);
std::string RenderCompareJson(const CompareReport& report);
std::string RenderCompareJunit(const CompareReport& report);
std::string RenderCompareMarkdown(const CompareReport& report, int top);

// Items of a rule worth showing: every failing or undecided one (up to `limit`), else the
// one with the largest change.
std::vector<const ItemResult*> ShownItems(const RuleResult& result, size_t limit);

// "FAIL: 1 of 6 rules broken (kernel:*gemm*>+5%)" or "PASS: 6 rules hold".
std::string Conclusion(const CompareReport& report);

}  // namespace prof::analyzer::compare

#endif  // PROF_ANALYZER_COMPARE_COMPARE_RENDERERS_H_
