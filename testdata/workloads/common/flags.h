// Tiny "--name value" flag parsing for the workloads (no dependency on a flags library,
// so the programs build anywhere the simulator builds). Unknown flags are an error.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace workloads {

class Flags {
 public:
  // `defaults` lists every accepted flag (without "--") and its default value.
  Flags(int argc, char** argv, std::map<std::string, std::string> defaults);

  int64_t Int(const std::string& name) const;
  const std::string& String(const std::string& name) const;
  const std::map<std::string, std::string>& all() const { return values_; }

 private:
  std::map<std::string, std::string> values_;
};

}  // namespace workloads
