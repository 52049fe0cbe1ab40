// The page is self-contained (nothing to fetch) and data cannot break out of its <script>.
#include "analyzer/report/html_page.h"

#include <catch2/catch.hpp>

#include "analyzer/report/assets.h"

namespace prof::analyzer::report {
namespace {

// True when some <script ...> tag of `html` has a src attribute.
bool AnyScriptHasSource(const std::string& html) {
  for (size_t at = html.find("<script"); at != std::string::npos;
       at = html.find("<script", at + 1)) {
    const std::string tag = html.substr(at, html.find('>', at) - at);
    if (tag.find("src=") != std::string::npos) return true;
  }
  return false;
}

TEST_CASE("every slot is filled and the library is inlined") {
  const std::string html = RenderHtmlPage("run <A>", "{\"ranks\":[]}");
  CHECK(html.find("{{") == std::string::npos);
  CHECK(html.find("<title>run &lt;A&gt;</title>") != std::string::npos);
  CHECK(html.find(EchartsJs()) != std::string::npos);
  CHECK(EchartsJs().size() > 1000000);  // the whole minified library, not a stub
  CHECK(html.find("function drawReport()") != std::string::npos);
}

TEST_CASE("nothing is loaded from elsewhere") {
  const std::string html = RenderHtmlPage("t", "{}");
  // No <script src=...>, <link href=...> or url(...) in what the page itself declares.
  CHECK_FALSE(AnyScriptHasSource(PageHtml()));
  CHECK(AnyScriptHasSource("<p><script async src=\"x.js\"></script>"));  // the check can fail
  CHECK(PageHtml().find("<link") == std::string::npos);
  CHECK(ReportCss().find("url(") == std::string::npos);
  CHECK(html.find("<script src") == std::string::npos);
}

TEST_CASE("a kernel name with </script> stays inside the data") {
  const std::string json = "{\"name\":\"</script><script>alert(1)</script>\"}";
  const std::string escaped = EscapeJsonForScript(json);
  CHECK(escaped.find('<') == std::string::npos);
  CHECK(escaped == "{\"name\":\"\\u003c/script>\\u003cscript>alert(1)\\u003c/script>\"}");
  const std::string html = RenderHtmlPage("t", json);
  CHECK(html.find("alert(1)</script>") == std::string::npos);
}

}  // namespace
}  // namespace prof::analyzer::report
