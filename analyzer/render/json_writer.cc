#include "analyzer/render/json_writer.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace prof::analyzer {

void JsonWriter::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_in_scope_.empty()) {
    if (!first_in_scope_.back()) buffer_ += ',';
    first_in_scope_.back() = false;
  }
}

void JsonWriter::BeginObject() {
  BeforeValue();
  buffer_ += '{';
  first_in_scope_.push_back(true);
}

void JsonWriter::EndObject() {
  buffer_ += '}';
  first_in_scope_.pop_back();
  MaybeFlush();
}

void JsonWriter::BeginArray() {
  BeforeValue();
  buffer_ += '[';
  first_in_scope_.push_back(true);
}

void JsonWriter::EndArray() {
  buffer_ += ']';
  first_in_scope_.pop_back();
  MaybeFlush();
}

void JsonWriter::Key(absl::string_view key) {
  String(key);
  buffer_ += ':';
  after_key_ = true;
}

void JsonWriter::String(absl::string_view value) {
  BeforeValue();
  buffer_ += '"';
  for (char c : value) {
    switch (c) {
      case '"': buffer_ += "\\\""; break;
      case '\\': buffer_ += "\\\\"; break;
      case '\n': buffer_ += "\\n"; break;
      case '\t': buffer_ += "\\t"; break;
      case '\r': buffer_ += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          absl::StrAppendFormat(&buffer_, "\\u%04x", static_cast<int>(c));
        } else {
          buffer_ += c;
        }
    }
  }
  buffer_ += '"';
}

void JsonWriter::Int(int64_t value) {
  BeforeValue();
  absl::StrAppend(&buffer_, value);
}

void JsonWriter::Uint(uint64_t value) {
  BeforeValue();
  absl::StrAppend(&buffer_, value);
}

void JsonWriter::Double(double value, int decimals) {
  if (!std::isfinite(value)) {
    Null();  // JSON has no inf/nan
    return;
  }
  BeforeValue();
  absl::StrAppendFormat(&buffer_, "%.*f", decimals, value);
}

void JsonWriter::Bool(bool value) {
  BeforeValue();
  buffer_ += value ? "true" : "false";
}

void JsonWriter::Null() {
  BeforeValue();
  buffer_ += "null";
}

void JsonWriter::Flush() {
  if (!out_ || buffer_.empty()) return;
  if (std::fwrite(buffer_.data(), 1, buffer_.size(), out_) != buffer_.size()) failed_ = true;
  buffer_.clear();
}

}  // namespace prof::analyzer
