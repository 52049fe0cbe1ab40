// --fail-on parsing: the examples, units, names holding commas and brackets,
// and bad rules, which the command rejects with exit status 2 and a message naming them.
#include <string>

#include <catch2/catch.hpp>

#include "absl/strings/str_cat.h"
#include "analyzer/cli/compare_command.h"
#include "analyzer/compare/rule_parser.h"

namespace prof::analyzer::compare {
namespace {

TEST_CASE("the issue's example rules parse") {
  absl::StatusOr<std::vector<Rule>> rules = ParseRules(
      "step_time>+3%,gpu_time>+5%,kernel:*gemm*>+5%,api:cudaMemcpy*>+10%,busbw<-5%,gpu_util<-2pt");
  REQUIRE(rules.ok());
  REQUIRE(rules->size() == 6);
  CHECK((*rules)[0].family == MetricFamily::kStepTime);
  CHECK((*rules)[0].threshold == Approx(0.03));
  CHECK((*rules)[0].direction == Direction::kIncrease);
  CHECK((*rules)[2].family == MetricFamily::kKernel);
  CHECK((*rules)[2].pattern == "*gemm*");
  CHECK((*rules)[3].pattern == "cudaMemcpy*");
  CHECK((*rules)[4].family == MetricFamily::kBusBw);
  CHECK((*rules)[4].pattern.empty());
  CHECK((*rules)[4].direction == Direction::kDecrease);
  CHECK((*rules)[4].threshold == Approx(-0.05));
  CHECK((*rules)[5].unit == ThresholdUnit::kPoints);
  CHECK((*rules)[5].threshold == Approx(-2));
  CHECK(ThresholdText((*rules)[5]) == "-2pt");
}

TEST_CASE("absolute thresholds, counts and names with commas") {
  absl::StatusOr<std::vector<Rule>> rules = ParseRules(
      " op:matmul>50us , api_calls:cudaStreamSynchronize>+0,kernel:relu_kernel<float, "
      "256>>+5%,busbw:ALL_*<-1");
  REQUIRE(rules.ok());
  REQUIRE(rules->size() == 4);
  CHECK((*rules)[0].threshold == Approx(50000));
  CHECK((*rules)[0].unit == ThresholdUnit::kAbsolute);
  CHECK((*rules)[1].family == MetricFamily::kApiCalls);
  CHECK((*rules)[1].threshold == 0);
  CHECK((*rules)[2].pattern == "relu_kernel<float, 256>");
  CHECK((*rules)[3].pattern == "ALL_*");
  CHECK((*rules)[3].threshold == Approx(-1));
}

TEST_CASE("bad rules are refused with a message naming the rule") {
  const char* const bad[] = {
      "step_time",            // no comparison
      "step_time>fast",       // no number
      "wall_time>+3%",        // unknown metric
      "kernel>+5%",           // needs a name
      "step_time:x>+3%",      // takes no name
      "kernel:>+5%",          // empty pattern
      "step_time>+3",         // a time needs a unit
      "step_time>+3pt",       // pt only for gpu_util
      "api_calls:x>+2ms",     // a time unit on a count
      "busbw<+5%",            // '<' needs a threshold <= 0
      "step_time>-3%",        // '>' needs a threshold >= 0
      "step_time>+3parsecs",  // unknown unit
  };
  for (const char* text : bad) {
    absl::StatusOr<std::vector<Rule>> rules = ParseRules(absl::StrCat("gpu_time>+5%,", text));
    INFO(text);
    REQUIRE_FALSE(rules.ok());
    CHECK(std::string(rules.status().message()).find(absl::StrCat("'", text, "'")) !=
          std::string::npos);
  }
  CHECK_FALSE(ParseRules("").ok());
  CHECK_FALSE(ParseRules(" , ").ok());
}

TEST_CASE("a bad rule makes `profanalyze compare` exit 2 before reading anything") {
  CompareCommandOptions options;
  options.base = "/nonexistent/base";
  options.candidate = "/nonexistent/new";
  options.fail_on = "step_time>+3%,kernel>+5%";
  CHECK(RunCompareCommand(options) == 2);
  options.fail_on = "step_time>+3%";
  CHECK(RunCompareCommand(options) == 2);  // bad input: no such path
}

TEST_CASE("glob matching") {
  CHECK(GlobMatch("*gemm*", "volta_sgemm_128x64_nn"));
  CHECK(GlobMatch("cudaMemcpy*", "cudaMemcpyAsync"));
  CHECK(GlobMatch("cudaMemcpy*", "cudaMemcpy"));
  CHECK_FALSE(GlobMatch("cudaMemcpy*", "cudaMemset"));
  CHECK(GlobMatch("nccl:All?educe*", "nccl:AllReduce_Sum_f32"));
  CHECK(GlobMatch("*", ""));
  CHECK_FALSE(GlobMatch("a*b", "acbd"));
  CHECK(GlobMatch("a*b*", "acbd"));
}

}  // namespace
}  // namespace prof::analyzer::compare
