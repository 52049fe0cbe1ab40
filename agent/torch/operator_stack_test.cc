#include "agent/torch/operator_stack.h"

#include <cstring>
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

void Collect(bool user, const char* name, size_t length, uint64_t start, uint64_t end) {
  CHECK(length == std::strlen(name));
  g_ranges->push_back({user, name, start, end});
}

// Runs `calls`: "+name@t" starts an operator at t ("+u:name@t" a user range), "-@t" ends
// the innermost open call at t, "-name@t" the innermost open call of that name; returns
// the ranges the stack handed on, in order. Each call's identity is the address of its
// own slot (RecordFunctions are told apart by address).
// Ends go as the observer sends them (EndInnermost for the innermost call, else End), or
// all through End with `only_end`.
std::vector<Range> Run(OperatorStack& stack, const std::vector<std::string>& calls,
                       bool only_end = false) {
  std::vector<Range> ranges;
  g_ranges = &ranges;
  // Names and identities outlive the calls here; the real callers' names live only until
  // the end.
  static std::vector<std::string>* names = new std::vector<std::string>(4096);
  static size_t next = 0;
  std::vector<size_t> open;  // slots of the open calls, innermost last
  for (const std::string& call : calls) {
    const size_t at = call.find('@');
    const uint64_t time = std::stoull(call.substr(at + 1));
    std::string name = call.substr(1, at - 1);
    if (call[0] == '-') {
      size_t index = open.size() - 1;
      while (!name.empty() && index > 0 && (*names)[open[index]] != name) --index;
      const void* ended = &(*names)[open[index]];
      if (!only_end && stack.IsInnermost(ended)) {
        stack.EndInnermost(time, Collect);
      } else {
        stack.End(ended, time, Collect);
      }
      open.erase(open.begin() + static_cast<std::ptrdiff_t>(index));
      continue;
    }
    const bool user = name.rfind("u:", 0) == 0;
    if (user) name = name.substr(2);
    const size_t slot = next++ % names->size();
    (*names)[slot] = name;
    open.push_back(slot);
    stack.Start(&(*names)[slot], (*names)[slot].c_str(), user, time);
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

TEST_CASE("an innermost call's end is the same through End and EndInnermost") {
  const std::vector<std::string> calls = {"+aten::linear@1",
                                          "+aten::t@2",
                                          "-@3",
                                          "+aten::addmm@4",
                                          "+aten::addmm@5",
                                          "-@6",
                                          "-@7",
                                          "-@8",
                                          "+aten::add@9",
                                          "+aten::is_leaf@10",
                                          "-@11",
                                          "+u:Optimizer.step@12",
                                          "-@13",
                                          "-@14"};
  OperatorStack observed, ended;
  const auto expected = Run(ended, calls, /*only_end=*/true);
  REQUIRE(expected.size() == 5);  // the inner aten::addmm folded, aten::is_leaf no range
  CHECK(Run(observed, calls) == expected);
  CHECK(observed.folded() == ended.folded());
  CHECK(observed.depth() == 0);
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

TEST_CASE("a first child of its parent's length but another name is no duplicate") {
  OperatorStack stack;
  const auto ranges = Run(stack, {"+aten::mm@1", "+aten::mv@2", "-@3", "-@4"});
  REQUIRE(ranges == std::vector<Range>{{false, "aten::mv", 2, 3}, {false, "aten::mm", 1, 4}});
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

TEST_CASE("utility names are exactly torch.profiler's _filter_name list") {
  // torch/autograd/profiler_util.py, _filter_name: every name on it, and names that share
  // a prefix or a first character with one (the check skips the full compare by them).
  for (const char* utility :
       {"[memory]", "[OutOfMemory]", "profiler::_record_function_enter",
        "profiler::_record_function_enter_new", "profiler::_record_function_exit",
        "aten::is_leaf", "aten::output_nr", "aten::_version"}) {
    INFO(utility);
    CHECK(IsUtilityOperatorName(utility));
    CHECK(MayBeUtility(utility, std::strlen(utility)));  // the start's test before the compare
  }
  // Most operators' names fail it (no utility's length, or no utility's seventh character
  // at that length): the start calls no compare for them.
  for (const char* name : {"aten::add", "aten::linear", "aten::reshape", "aten::transpose",
                           "aten::unsqueeze", "aten::empty_like"}) {
    INFO(name);
    CHECK_FALSE(MayBeUtility(name, std::strlen(name)));
  }
  const std::string long_name(64, 'o');  // no utility is this long
  CHECK_FALSE(MayBeUtility(long_name.c_str(), long_name.size()));
  for (const char* other :
       {"", "a", "aten::", "aten::add", "aten::is_nonzero", "aten::is_leaf_", "aten::output",
        "aten::_version2", "aten::_to_copy", "aten::ones", "autograd::engine", "[memory",
        "[memory]x", "profiler::_record_function", "prim::is_leaf", "aten:is_leaf",
        "Optimizer.step#SGD.step", "at", "aten:", "aten::i", "aten::o", "aten::_",
        // a character after "aten::" sharing a utility lead's bit (')' & 63 == 'i' & 63)
        "aten::)s_leaf", "aten::index", "aten::_versio"}) {
    INFO(other);
    CHECK_FALSE(IsUtilityOperatorName(other));
  }
}

TEST_CASE("only the innermost open call is innermost") {
  OperatorStack stack;
  int outer = 0, inner = 0;
  CHECK_FALSE(stack.IsInnermost(&outer));  // nothing open
  stack.Start(&outer, "aten::a", false, 1);
  CHECK(stack.IsInnermost(&outer));
  stack.Start(&inner, "aten::b", false, 2);
  CHECK(stack.IsInnermost(&inner));
  CHECK_FALSE(stack.IsInnermost(&outer));
  stack.End(&inner, 3, [](bool, const char*, size_t, uint64_t, uint64_t) {});
  CHECK(stack.IsInnermost(&outer));
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

TEST_CASE("an end that is not the innermost call's takes its call out from under the others") {
  OperatorStack stack;
  // torch 1.13's record_function: its range starts inside the operator that opens it and
  // outlives it; the operators after it are the range's children.
  const auto ranges = Run(stack, {"+aten::zeros@1", "+u:forward@2", "-aten::zeros@3",
                                  "+aten::mm@4", "-@5", "-u:forward@6"});
  REQUIRE(ranges == std::vector<Range>{{false, "aten::zeros", 1, 3},
                                       {false, "aten::mm", 4, 5},
                                       {true, "forward", 2, 6}});
  CHECK(stack.out_of_order() == 1);
  CHECK(stack.depth() == 0);
}

TEST_CASE("ends without starts and calls past the depth are counted, not recorded") {
  OperatorStack stack;
  int unknown = 0;
  stack.End(&unknown, 1, Collect);  // callbacks added inside this call, or after a Reset
  CHECK(stack.unmatched() == 1);
  // A call open across a Reset (callbacks removed and added again inside it) never takes
  // a later call's end.
  Run(stack, {"+aten::linear@1"});
  stack.Reset();
  const auto after_reset = Run(stack, {"+aten::addmm@2", "-@3"});
  CHECK(after_reset == std::vector<Range>{{false, "aten::addmm", 2, 3}});

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
