#include "analyzer/compare/kernel_name_normalizer.h"

#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "analyzer/model/kernel_names.h"

namespace prof::analyzer::compare {
namespace {

// Removes a trailing "(parameter list)" (and a trailing " const"), which demangled names
// carry and which changes with the library's internal argument structs.
absl::string_view WithoutParameters(absl::string_view name) {
  if (absl::EndsWith(name, " const")) name.remove_suffix(6);
  if (name.empty() || name.back() != ')') return name;
  int depth = 0;
  for (size_t i = name.size(); i-- > 0;) {
    if (name[i] == ')') ++depth;
    if (name[i] == '(' && --depth == 0) return i == 0 ? name : name.substr(0, i);
  }
  return name;
}

// Drops a return type ("void relu<float>" -> "relu<float>"): the text before the last
// space outside template brackets and parentheses.
absl::string_view WithoutReturnType(absl::string_view name) {
  int depth = 0;
  size_t cut = absl::string_view::npos;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '<' || c == '(') ++depth;
    if ((c == '>' || c == ')') && depth > 0) --depth;
    if (c == ' ' && depth == 0) cut = i;
  }
  return cut == absl::string_view::npos ? name : name.substr(cut + 1);
}

struct TypeSpelling {
  const char* legacy;
  const char* current;
};

// NCCL <= 2.18 spells element types like C; 2.19+ abbreviates them. Longest first so
// "uint8_t" is not read as "int8_t".
constexpr TypeSpelling kTypeSpellings[] = {
    {"__nv_fp8_e4m3", "f8e4m3"},
    {"__nv_fp8_e5m2", "f8e5m2"},
    {"__nv_bfloat16", "bf16"},
    {"uint8_t", "u8"},
    {"uint32_t", "u32"},
    {"uint64_t", "u64"},
    {"int8_t", "i8"},
    {"int32_t", "i32"},
    {"int64_t", "i64"},
    {"double", "f64"},
    {"float", "f32"},
    {"half", "f16"},
};

// Algorithm and protocol words, which NCCL chooses per size and version.
bool IsAlgorithmOrProtocol(absl::string_view token) {
  static const char* const kWords[] = {"RING", "TREE", "COLLNET", "DIRECT", "CHAIN",
                                       "NVLS", "PAT",  "LL",      "LL128",  "SIMPLE"};
  for (const char* word : kWords) {
    if (token == word) return true;
  }
  return false;
}

bool IsReduction(absl::string_view function) {
  return function == "AllReduce" || function == "Reduce" || function == "ReduceScatter";
}

}  // namespace

std::string CanonicalNcclKernelName(absl::string_view name) {
  absl::string_view rest;
  bool legacy = false;
  if (const size_t at = name.find("ncclDevKernel_"); at != absl::string_view::npos) {
    rest = name.substr(at + 14);
  } else if (const size_t old = name.find("ncclKernel_"); old != absl::string_view::npos) {
    rest = name.substr(old + 11);
    legacy = true;
  } else {
    return "";
  }
  std::string type;
  if (legacy) {
    for (const TypeSpelling& spelling : kTypeSpellings) {
      const std::string suffix = absl::StrCat("_", spelling.legacy);
      if (!absl::EndsWith(rest, suffix)) continue;
      type = spelling.current;
      rest.remove_suffix(suffix.size());
      break;
    }
  }
  std::vector<std::string> tokens;
  for (absl::string_view token : absl::StrSplit(rest, '_', absl::SkipEmpty())) {
    if (!IsAlgorithmOrProtocol(token)) tokens.emplace_back(token);
  }
  if (!type.empty()) tokens.push_back(type);
  if (tokens.empty()) return "nccl:unknown";
  // Data movement is instantiated as Sum over int8 by older NCCL: that is no reduction.
  if (!IsReduction(tokens[0])) tokens.resize(1);
  return absl::StrCat("nccl:", absl::StrJoin(tokens, "_"));
}

std::string StripTemplateArguments(absl::string_view name) {
  std::string result;
  int depth = 0;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    // "operator<" / "operator<<" are names, not template brackets.
    if (c == '<' && depth == 0 && i >= 8 && name.substr(i - 8, 8) == "operator") {
      result += c;
      continue;
    }
    if (c == '<') {
      ++depth;
      continue;
    }
    if (c == '>' && depth > 0) {
      --depth;
      continue;
    }
    if (depth == 0) result += c;
  }
  return result;
}

std::string NormalizeKernelName(absl::string_view name, const NameOptions& options) {
  const std::string demangled = DemangleKernelName(name);
  absl::string_view core = WithoutReturnType(WithoutParameters(demangled));
  if (IsNcclKernelName(core)) return CanonicalNcclKernelName(core);
  return options.strip_templates ? StripTemplateArguments(core) : std::string(core);
}

}  // namespace prof::analyzer::compare
