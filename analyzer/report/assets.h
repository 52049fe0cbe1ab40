// The files the HTML report inlines, compiled into the binary (embed_assets.py writes
// assets.cc from them at build time), so profanalyze needs nothing beside it at run time.
#ifndef PROF_ANALYZER_REPORT_ASSETS_H_
#define PROF_ANALYZER_REPORT_ASSETS_H_

#include <string>

namespace prof::analyzer::report {

std::string PageHtml();   // page.html: the skeleton with {{...}} slots
std::string ReportCss();  // report.css
std::string ReportJs();   // the report's scripts, concatenated in drawing order
std::string EchartsJs();  // third_party/echarts/echarts.min.js

inline constexpr const char* kEchartsVersion = "6.1.0";

}  // namespace prof::analyzer::report

#endif  // PROF_ANALYZER_REPORT_ASSETS_H_
