#include "agent/torch/operator_stack.h"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

namespace prof {
namespace {

struct Range {
  bool user;
  std::string name;
  uint64_t start, end;
  bool operator==(const Range& other) const {
    return user == other.user && name == other.name && start == other.start && end == other.end;
  }
};

std::vector<Range>* g_ranges = nullptr;

void Collect(bool user, const char* name, uint64_t start, uint64_t end) {
  g_ranges->push_back({user, name, start, end});
}

// Runs `calls`: "+name@t" starts an operator at t ("+u:name@t" a user range), "-@t" ends
// the innermost call at t; returns the ranges the stack handed on, in order.
std::vector<Range> Run(OperatorStack& stack, const std::vector<std::string>& calls) {
  std::vector<Range> ranges;
  g_ranges = &ranges;
  for (const std::string& call : calls) {
    const size_t at = call.find('@');
    const uint64_t time = std::stoull(call.substr(at + 1));
    if (call[0] == '-') {
      stack.End(time, Collect);
      continue;
    }
    std::string name = call.substr(1, at - 1);
    const bool user = name.rfind("u:", 0) == 0;
    if (user) name = name.substr(2);
    // Names outlive the calls here; the real callers' names live only until the end.
    static std::vector<std::string>* kept = new std::vector<std::string>();
    kept->reserve(1000);
    kept->push_back(name);
    stack.Start(kept->back().c_str(), user, time);
  }
  return ranges;
}

TEST_CASE("nested calls become whole ranges, innermost first") {
  OperatorStack stack;
  const auto ranges = Run(stack, {"+aten::linear@10", "+aten::t@11", "-@12", "+aten::addmm@13",
                                  "-@20", "-@21"});
  REQUIRE(ranges == std::vector<Range>{{false, "aten::t", 11, 12},
                                       {false, "aten::addmm", 13, 20},
                                       {false, "aten::linear", 10, 21}});
  CHECK(stack.depth() == 0);
  CHECK(stack.folded() == 0);
}

TEST_CASE("an only child named as its parent is folded, to a fixed point") {
  OperatorStack stack;
  // aten::bmm > aten::bmm > aten::bmm > aten::mul: torch.profiler counts one bmm, one mul.
  const auto ranges = Run(stack, {"+aten::bmm@1", "+aten::bmm@2", "+aten::bmm@3", "+aten::mul@4",
                                  "-@5", "-@6", "-@7", "-@8"});
  REQUIRE(ranges == std::vector<Range>{{false, "aten::mul", 4, 5}, {false, "aten::bmm", 1, 8}});
  CHECK(stack.folded() == 2);
}

TEST_CASE("a same-name child with a sibling is kept, the sibling after it") {
  OperatorStack stack;
  const auto ranges = Run(stack, {"+aten::add@1", "+aten::add@2", "-@3", "+aten::copy_@4", "-@5",
                                  "-@6"});
  REQUIRE(ranges == std::vector<Range>{{false, "aten::add", 2, 3},
                                       {false, "aten::copy_", 4, 5},
                                       {false, "aten::add", 1, 6}});
  CHECK(stack.folded() == 0);
}

TEST_CASE("a same-name child that is not the first child is no duplicate") {
  OperatorStack stack;
  const auto ranges = Run(stack, {"+aten::add@1", "+aten::copy_@2", "-@3", "+aten::add@4", "-@5",
                                  "-@6"});
  REQUIRE(ranges.size() == 3);
  CHECK(ranges[1] == Range{false, "aten::add", 4, 5});
}

TEST_CASE("utility names are no ranges and no children") {
  OperatorStack stack;
  // The only counted child of aten::to is aten::to: folded, as torch folds it.
  const auto ranges = Run(stack, {"+aten::to@1", "+aten::is_leaf@2", "-@3", "+aten::to@4", "-@5",
                                  "+aten::_version@6", "-@7", "-@8"});
  REQUIRE(ranges == std::vector<Range>{{false, "aten::to", 1, 8}});
  CHECK(stack.folded() == 1);
}

TEST_CASE("user ranges keep their kind, also when held pending") {
  OperatorStack stack;
  const auto ranges = Run(stack, {"+u:Optimizer.step#SGD.step@1", "+u:Optimizer.step#SGD.step@2",
                                  "-@3", "+aten::add_@4", "-@5", "-@6"});
  REQUIRE(ranges == std::vector<Range>{{true, "Optimizer.step#SGD.step", 2, 3},
                                       {false, "aten::add_", 4, 5},
                                       {true, "Optimizer.step#SGD.step", 1, 6}});
}

TEST_CASE("calls started while not recording count as children but are not recorded") {
  OperatorStack stack;
  // The outer call started before the window (start 0): the inner one is its only child
  // of another name; a same-name unrecorded child is neither pending nor recorded.
  const auto ranges = Run(stack, {"+aten::linear@0", "+aten::addmm@5", "-@6", "-@7"});
  REQUIRE(ranges == std::vector<Range>{{false, "aten::addmm", 5, 6}});
  const auto same = Run(stack, {"+aten::mm@3", "+aten::mm@0", "-@6", "-@7"});
  REQUIRE(same == std::vector<Range>{{false, "aten::mm", 3, 7}});
}

TEST_CASE("ends without starts and calls past the depth are counted, not recorded") {
  OperatorStack stack;
  const auto unmatched = Run(stack, {"-@1", "-@2"});
  CHECK(unmatched.empty());
  CHECK(stack.unmatched() == 2);

  std::vector<std::string> calls;
  for (int i = 0; i < OperatorStack::kDepth + 3; ++i) {
    calls.push_back("+op" + std::to_string(i) + "@" + std::to_string(i + 1));
  }
  for (int i = 0; i < OperatorStack::kDepth + 3; ++i) calls.push_back("-@1000");
  const auto deep = Run(stack, calls);
  CHECK(stack.overflowed() == 3);
  CHECK(deep.size() == OperatorStack::kDepth);
  CHECK(deep.back() == Range{false, "op0", 1, 1000});
  CHECK(stack.depth() == 0);
}

}  // namespace
}  // namespace prof
