#include "testdata/workloads/common/flags.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

namespace workloads {

Flags::Flags(int argc, char** argv, std::map<std::string, std::string> defaults)
    : values_(std::move(defaults)) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const std::string name = arg.rfind("--", 0) == 0 ? arg.substr(2) : "";
    if (name.empty() || values_.count(name) == 0 || i + 1 >= argc) {
      std::fprintf(stderr, "%s: bad argument '%s'; accepted:", argv[0], arg.c_str());
      for (const auto& entry : values_) std::fprintf(stderr, " --%s", entry.first.c_str());
      std::fprintf(stderr, " (each followed by a value)\n");
      std::exit(2);
    }
    values_[name] = argv[++i];
  }
}

int64_t Flags::Int(const std::string& name) const {
  const std::string& text = values_.at(name);
  char* end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (end == text.c_str() || *end != '\0') {
    std::fprintf(stderr, "--%s expects an integer, got '%s'\n", name.c_str(), text.c_str());
    std::exit(2);
  }
  return value;
}

const std::string& Flags::String(const std::string& name) const { return values_.at(name); }

}  // namespace workloads
