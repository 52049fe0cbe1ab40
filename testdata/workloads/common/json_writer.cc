#include "testdata/workloads/common/json_writer.h"

#include <cmath>
#include <cstdio>

namespace workloads {

void JsonWriter::Indent() {
  text_ += '\n';
  text_.append(2 * has_element_.size(), ' ');
}

void JsonWriter::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!has_element_.empty()) {
    if (has_element_.back()) text_ += ',';
    has_element_.back() = true;
    Indent();
  }
}

void JsonWriter::BeginObject() {
  BeforeValue();
  text_ += '{';
  has_element_.push_back(false);
}

void JsonWriter::EndObject() { CloseContainer('}'); }

void JsonWriter::CloseContainer(char closing) {
  const bool had_elements = has_element_.back();
  has_element_.pop_back();
  if (had_elements) Indent();
  text_ += closing;
}

void JsonWriter::BeginArray() {
  BeforeValue();
  text_ += '[';
  has_element_.push_back(false);
}

void JsonWriter::EndArray() { CloseContainer(']'); }

void JsonWriter::Key(const std::string& key) {
  BeforeValue();
  AppendQuoted(key);
  text_ += ": ";
  after_key_ = true;
}

void JsonWriter::String(const std::string& value) {
  BeforeValue();
  AppendQuoted(value);
}

void JsonWriter::AppendQuoted(const std::string& value) {
  text_ += '"';
  for (unsigned char c : value) {
    switch (c) {
      case '"': text_ += "\\\""; break;
      case '\\': text_ += "\\\\"; break;
      case '\n': text_ += "\\n"; break;
      case '\t': text_ += "\\t"; break;
      default:
        if (c < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof(escaped), "\\u%04x", c);
          text_ += escaped;
        } else {
          text_ += static_cast<char>(c);
        }
    }
  }
  text_ += '"';
}

void JsonWriter::Int(int64_t value) {
  BeforeValue();
  text_ += std::to_string(value);
}

void JsonWriter::UInt(uint64_t value) {
  BeforeValue();
  text_ += std::to_string(value);
}

void JsonWriter::Double(double value) {
  BeforeValue();
  if (!std::isfinite(value)) {
    text_ += "null";  // JSON has no inf/nan
    return;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.17g", value);
  text_ += buffer;
}

void JsonWriter::Bool(bool value) {
  BeforeValue();
  text_ += value ? "true" : "false";
}

}  // namespace workloads
