#include "agent/torch/operator_stack.h"

#include <cstdint>
#include <cstring>

namespace prof {

namespace {

// torch/autograd/profiler_util.py, _filter_name (1.13 and 2.x).
constexpr const char* kUtilities[] = {
    "[memory]",
    "[OutOfMemory]",
    "profiler::_record_function_enter",
    "profiler::_record_function_enter_new",
    "profiler::_record_function_exit",
    "aten::is_leaf",
    "aten::output_nr",
    "aten::_version",
};

// strlen, when compiled.
constexpr size_t LengthOf(const char* text) {
  size_t length = 0;
  while (text[length] != '\0') ++length;
  return length;
}

// The characters after "aten::" that start a utility's name, as bits (character & 63):
// an aten:: name whose bit is clear is no utility, found without the list.
constexpr uint64_t AtenUtilityLeads() {
  uint64_t leads = 0;
  for (const char* utility : kUtilities) {
    if (utility[0] == 'a') leads |= uint64_t{1} << (utility[6] & 63);
  }
  return leads;
}

// The utilities' lengths, or their seventh characters (& 63), as bits (all are 8 to 63
// characters long).
constexpr uint64_t UtilityBits(bool lengths) {
  uint64_t bits = 0;
  for (const char* utility : kUtilities) {
    bits |= uint64_t{1} << (lengths ? LengthOf(utility) : utility[6] & 63);
  }
  return bits;
}

// MayBeUtility reads a name's seventh character only at a utility's length, and keeps
// lengths as bits of one word: both hold while every utility is 8 to 63 characters long.
constexpr bool UtilityLengthsFit() {
  for (const char* utility : kUtilities) {
    if (LengthOf(utility) < 8 || LengthOf(utility) > 63) return false;
  }
  return true;
}
static_assert(UtilityLengthsFit(), "a utility's name must be 8 to 63 characters long");

}  // namespace

const uint64_t kUtilityLengthBits = UtilityBits(true);
const uint64_t kUtilitySeventhBits = UtilityBits(false);

bool IsUtilityOperatorName(const char* name) {
  // Called at the start of an operator whose name may be a utility's (MayBeUtility), and
  // nearly every name is "aten::<op>": the prefix is checked a character at a time (a
  // shorter name stops at its NUL), then the character after it against the utilities'
  // leads; only a name passing both is compared with the utilities that share its first
  // characters. Where this was strncmp and a walk over the list, it took ~100 instructions
  // an operator (callgrind, aten_cost.py's loop). The
  // utilities starting with 'a' are all aten:: names (operator_stack_test lists them).
  const char first = name[0];
  if (first != '[' && first != 'p' && first != 'a') return false;
  const bool aten = first == 'a';
  if (aten) {
    if (name[1] != 't' || name[2] != 'e' || name[3] != 'n' || name[4] != ':' || name[5] != ':' ||
        name[6] == '\0') {
      return false;
    }
    constexpr uint64_t kLeads = AtenUtilityLeads();
    if (((kLeads >> (name[6] & 63)) & 1) == 0) return false;
  }
  for (const char* utility : kUtilities) {
    if (utility[0] != first) continue;
    if (aten && (utility[6] != name[6] || utility[7] != name[7])) continue;
    if (std::strcmp(name, utility) == 0) return true;
  }
  return false;
}

}  // namespace prof
