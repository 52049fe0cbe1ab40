// The pieces every PROF_* variable is read with: a value is trimmed of ASCII whitespace,
// a number is checked against its bounds before anything is computed from it (no
// strtoll, no overflow, no exceptions), a flag takes one set of spellings, and a refused
// value becomes one warning line. Shared by config.cc, schedule.cc and rank_identity.cc
// so that every variable behaves the same way.
//
//   int64_t megabytes = 0;
//   if (!ParseBoundedInteger(text, 1, 65536, &megabytes)) warnings->push_back(
//       ConfigWarning("PROF_BUFFER_MB", text, "is not a number of MiB in 1..65536", "128"));
#ifndef PROF_AGENT_CONTROL_CONFIG_VALUES_H_
#define PROF_AGENT_CONTROL_CONFIG_VALUES_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace prof {

// Looks up one environment variable; nullptr when unset.
using EnvironmentLookup = std::function<const char*(const char* name)>;

// getenv, for the real process.
EnvironmentLookup ProcessEnvironment();

// `text` without leading and trailing spaces, tabs, newlines and carriage returns.
std::string_view TrimAscii(std::string_view text);

// Decimal digits with an optional leading '-' (after trimming), in [minimum, maximum].
// False for anything else: empty, garbage, hex, exponents, a value out of bounds, or a
// digit string of any length beyond int64 (checked digit by digit, never wrapped).
bool ParseBoundedInteger(std::string_view text, int64_t minimum, int64_t maximum, int64_t* value);

// The flag spellings every PROF_* flag accepts (case-insensitive, trimmed):
// 1/true/yes/on and 0/false/no/off. Nothing for anything else.
std::optional<bool> ParseFlagText(std::string_view text);

// A value as a warning shows it: control characters escaped (a newline in a value must
// not make a second line), at most 64 bytes, then "...".
std::string ShowValue(std::string_view value);

// "NAME='VALUE' WHY; using USED": the one line a refused value gives.
std::string ConfigWarning(const char* name, std::string_view value, std::string_view why,
                          std::string_view used);

}  // namespace prof

#endif  // PROF_AGENT_CONTROL_CONFIG_VALUES_H_
