#include "analyzer/report/html_page.h"

#include <map>

#include "analyzer/report/assets.h"

namespace prof::analyzer::report {
namespace {

std::string EscapeHtml(const std::string& text) {
  std::string escaped;
  for (char c : text) {
    switch (c) {
      case '<': escaped += "&lt;"; break;
      case '>': escaped += "&gt;"; break;
      case '&': escaped += "&amp;"; break;
      case '"': escaped += "&quot;"; break;
      default: escaped += c;
    }
  }
  return escaped;
}

}  // namespace

std::string EscapeJsonForScript(const std::string& json) {
  std::string escaped;
  escaped.reserve(json.size());
  for (char c : json) {
    if (c == '<') {
      escaped += "\\u003c";
    } else {
      escaped += c;
    }
  }
  return escaped;
}

std::string RenderHtmlPage(const std::string& title, const std::string& figures_json) {
  const std::map<std::string, std::string> slots = {
      {"TITLE", EscapeHtml(title)}, {"STYLE", ReportCss()},
      {"ECHARTS", EchartsJs()},     {"ECHARTS_VERSION", kEchartsVersion},
      {"SCRIPT", ReportJs()},       {"DATA", EscapeJsonForScript(figures_json)},
  };
  const std::string page = PageHtml();
  std::string html;
  size_t position = 0;
  while (true) {
    const size_t open = page.find("{{", position);
    const size_t close = open == std::string::npos ? open : page.find("}}", open);
    if (close == std::string::npos) break;
    auto slot = slots.find(page.substr(open + 2, close - open - 2));
    if (slot == slots.end()) {  // not a slot: keep the braces as they are
      html.append(page, position, open + 2 - position);
      position = open + 2;
      continue;
    }
    html.append(page, position, open - position);
    html += slot->second;
    position = close + 2;
  }
  html.append(page, position, std::string::npos);
  return html;
}

}  // namespace prof::analyzer::report
