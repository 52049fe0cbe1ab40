// A minimal streaming JSON writer: objects, arrays, strings (escaped), numbers, null.
// Commas are inserted automatically. Output goes to a std::string or is flushed to a
// FILE* in blocks, so a large export never sits whole in memory. Not thread-safe.
//
//   JsonWriter json(stdout);
//   json.BeginObject(); json.Key("version"); json.Int(1); json.EndObject();
#ifndef PROF_ANALYZER_RENDER_JSON_WRITER_H_
#define PROF_ANALYZER_RENDER_JSON_WRITER_H_

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace prof::analyzer {

class JsonWriter {
 public:
  explicit JsonWriter(std::FILE* out) : out_(out) {}
  JsonWriter() = default;  // collects into text()
  ~JsonWriter() { Flush(); }

  void BeginObject();
  void EndObject();
  void BeginArray();
  void EndArray();
  void Key(absl::string_view key);
  void String(absl::string_view value);
  void Int(int64_t value);
  void Uint(uint64_t value);
  void Double(double value, int decimals = 3);
  void Bool(bool value);
  void Null();
  // A raw newline between array elements, for readable large files.
  void Newline() { buffer_ += '\n'; }

  const std::string& text() const { return buffer_; }
  void Flush();
  bool failed() const { return failed_; }

 private:
  void BeforeValue();
  void MaybeFlush() {
    if (out_ && buffer_.size() >= (1u << 20)) Flush();
  }

  std::FILE* out_ = nullptr;
  std::string buffer_;
  std::vector<bool> first_in_scope_;
  bool after_key_ = false;
  bool failed_ = false;
};

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_RENDER_JSON_WRITER_H_
