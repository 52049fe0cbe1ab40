#include "agent/control/config_values.h"

#include <cstdio>
#include <cstdlib>

namespace prof {
namespace {

constexpr size_t kShownValueBytes = 64;
constexpr size_t kShownTextBytes = 160;  // the reason and the value used instead

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

char LowerAscii(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool EqualsIgnoreCase(std::string_view text, const char* word) {
  size_t i = 0;
  for (; word[i] != '\0'; ++i) {
    if (i >= text.size() || LowerAscii(text[i]) != word[i]) return false;
  }
  return i == text.size();
}

// `text` with control characters escaped, cut after `limit` bytes with "...".
std::string Escaped(std::string_view text, size_t limit) {
  std::string shown;
  for (size_t i = 0; i < text.size(); ++i) {
    if (shown.size() >= limit) {
      shown += "...";
      break;
    }
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      shown += "\\n";
    } else if (c == '\t') {
      shown += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\x%02x", c);
      shown += escaped;
    } else {
      shown += static_cast<char>(c);
    }
  }
  return shown;
}

}  // namespace

EnvironmentLookup ProcessEnvironment() {
  return [](const char* name) -> const char* { return std::getenv(name); };
}

std::string_view TrimAscii(std::string_view text) {
  while (!text.empty() && IsBlank(text.front())) text.remove_prefix(1);
  while (!text.empty() && IsBlank(text.back())) text.remove_suffix(1);
  return text;
}

bool ParseBoundedInteger(std::string_view text, int64_t minimum, int64_t maximum, int64_t* value) {
  text = TrimAscii(text);
  const bool negative = !text.empty() && text.front() == '-';
  if (negative) text.remove_prefix(1);
  if (text.empty()) return false;
  // The magnitude, in uint64, never passes 2^63 (checked before each multiplication, so
  // it cannot wrap): a longer digit string is out of every int64 bound anyway.
  constexpr uint64_t kLimit = 1ull << 63;
  uint64_t magnitude = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (magnitude > (kLimit - digit) / 10) return false;
    magnitude = magnitude * 10 + digit;
  }
  if (!negative && magnitude == kLimit) return false;
  // -2^63 is representable; -(int64)magnitude would overflow for it, so go through uint64.
  const int64_t parsed =
      negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
  if (parsed < minimum || parsed > maximum) return false;
  *value = parsed;
  return true;
}

std::optional<bool> ParseFlagText(std::string_view text) {
  text = TrimAscii(text);
  for (const char* word : {"1", "true", "yes", "on"}) {
    if (EqualsIgnoreCase(text, word)) return true;
  }
  for (const char* word : {"0", "false", "no", "off"}) {
    if (EqualsIgnoreCase(text, word)) return false;
  }
  return std::nullopt;
}

std::string ShowValue(std::string_view value) { return Escaped(value, kShownValueBytes); }

std::string ConfigWarning(const char* name, std::string_view value, std::string_view why,
                          std::string_view used) {
  std::string line = name;
  line += "='";
  line += ShowValue(value);
  line += "' ";
  line += Escaped(why, kShownTextBytes);
  line += "; using ";
  line += Escaped(used, kShownTextBytes);
  return line;
}

}  // namespace prof
