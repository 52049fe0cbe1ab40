// A minimal streaming JSON writer for the ground-truth files: objects, arrays, strings,
// integers and doubles, with commas and escaping handled here so callers only say what
// to write. No dependencies, so workloads stay small.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace workloads {

class JsonWriter {
 public:
  void BeginObject();
  void EndObject();
  void BeginArray();
  void EndArray();
  // Inside an object: the key of the next value.
  void Key(const std::string& key);
  void String(const std::string& value);
  void Int(int64_t value);
  void UInt(uint64_t value);
  void Double(double value);
  void Bool(bool value);

  // Shorthands for "key": value inside an object.
  void Field(const std::string& key, const std::string& value) { Key(key), String(value); }
  void Field(const std::string& key, const char* value) { Key(key), String(value); }
  void Field(const std::string& key, int64_t value) { Key(key), Int(value); }
  void Field(const std::string& key, int value) { Key(key), Int(value); }
  void Field(const std::string& key, uint64_t value) { Key(key), UInt(value); }
  void Field(const std::string& key, double value) { Key(key), Double(value); }
  void Field(const std::string& key, bool value) { Key(key), Bool(value); }

  const std::string& text() const { return text_; }

 private:
  void BeforeValue();
  void AppendQuoted(const std::string& value);
  void CloseContainer(char closing);
  void Indent();

  std::string text_;
  // Per open container: whether it already holds an element (so the next needs a comma).
  std::vector<bool> has_element_;
  bool after_key_ = false;
};

}  // namespace workloads
