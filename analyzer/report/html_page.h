// Assembles the self-contained HTML report: page.html with its slots filled by the style,
// the charting library, the report's script and the figures JSON. Slots are filled from
// the template only (never searched for inside the inserted text), and the JSON is made
// safe inside <script> by writing '<' as \u003c.
#ifndef PROF_ANALYZER_REPORT_HTML_PAGE_H_
#define PROF_ANALYZER_REPORT_HTML_PAGE_H_

#include <string>

namespace prof::analyzer::report {

std::string RenderHtmlPage(const std::string& title, const std::string& figures_json);

// `json` with every '<' written as \u003c ('<' only occurs inside JSON strings).
std::string EscapeJsonForScript(const std::string& json);

}  // namespace prof::analyzer::report

#endif  // PROF_ANALYZER_REPORT_HTML_PAGE_H_
