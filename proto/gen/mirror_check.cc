// What the generator accepts: loading the descriptor set, and the rules a .proto must keep
// for the plain C++ mirrors to describe it completely (mirror_generator.h).
#include <algorithm>
#include <cctype>
#include <regex>
#include <set>
#include <string>

#include <google/protobuf/descriptor.pb.h>

#include "proto/gen/mirror_generator.h"

namespace prof::mirror_gen {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::EnumDescriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::FileDescriptor;

bool IsCppKeyword(const std::string& name) {
  static const std::set<std::string> kKeywords = {"alignas",     "alignof",    "and",
                                                  "asm",         "auto",       "bitand",
                                                  "bitor",       "bool",       "break",
                                                  "case",        "catch",      "char",
                                                  "class",       "compl",      "const",
                                                  "constexpr",   "const_cast", "continue",
                                                  "decltype",    "default",    "delete",
                                                  "do",          "double",     "dynamic_cast",
                                                  "else",        "enum",       "explicit",
                                                  "export",      "extern",     "false",
                                                  "float",       "for",        "friend",
                                                  "goto",        "if",         "inline",
                                                  "int",         "long",       "mutable",
                                                  "namespace",   "new",        "noexcept",
                                                  "not",         "nullptr",    "operator",
                                                  "or",          "private",    "protected",
                                                  "public",      "register",   "reinterpret_cast",
                                                  "return",      "short",      "signed",
                                                  "sizeof",      "static",     "static_assert",
                                                  "static_cast", "struct",     "switch",
                                                  "template",    "this",       "thread_local",
                                                  "throw",       "true",       "try",
                                                  "typedef",     "typeid",     "typename",
                                                  "union",       "unsigned",   "using",
                                                  "virtual",     "void",       "volatile",
                                                  "wchar_t",     "while",      "xor"};
  return kKeywords.count(name) > 0;
}

// Varint-encoded scalar types: the only ones a packed column (wire::PackedColumn) holds.
bool IsVarint(const FieldDescriptor& field) {
  switch (field.type()) {
    case FieldDescriptor::TYPE_INT32:
    case FieldDescriptor::TYPE_INT64:
    case FieldDescriptor::TYPE_UINT32:
    case FieldDescriptor::TYPE_UINT64:
    case FieldDescriptor::TYPE_SINT32:
    case FieldDescriptor::TYPE_SINT64:
    case FieldDescriptor::TYPE_BOOL:
    case FieldDescriptor::TYPE_ENUM: return true;
    default: return false;
  }
}

bool IsSparseColumn(const FieldDescriptor& field) {
  return !field.is_repeated() && field.type() == FieldDescriptor::TYPE_MESSAGE &&
         field.message_type()->name() == kSparseColumnMessage;
}

// One past the highest field or reserved number of `message`.
int NextFreeNumber(const Descriptor& message) {
  int next = 1;
  for (int i = 0; i < message.field_count(); ++i) {
    next = std::max(next, message.field(i)->number() + 1);
  }
  for (int i = 0; i < message.reserved_range_count(); ++i) {
    next = std::max(next, message.reserved_range(i)->end);  // end is exclusive
  }
  return next;
}

// The "Next id: N" note, where the message's leading comment has one.
std::string CheckNextIdNote(const Descriptor& message) {
  google::protobuf::SourceLocation location;
  if (!message.GetSourceLocation(&location)) return "";
  static const std::regex kNote("Next id: *([0-9]+)");
  std::smatch match;
  if (!std::regex_search(location.leading_comments, match, kNote)) return "";
  const int noted = std::stoi(match[1].str());
  const int next = NextFreeNumber(message);
  if (noted == next) return "";
  return message.name() + ": its note says \"Next id: " + std::to_string(noted) +
         "\" but the next free field number is " + std::to_string(next);
}

std::string CheckField(const FieldDescriptor& field, bool in_block) {
  const std::string where = field.containing_type()->name() + "." + field.name() + ": ";
  if (IsCppKeyword(field.name())) return where + "a C++ keyword cannot name a member";
  if (field.has_optional_keyword()) {
    return where + "`optional` is not mirrored (the writer omits zeros: no field presence)";
  }
  if (field.real_containing_oneof() != nullptr) {
    return where + "oneof is not mirrored (the writer omits zeros: no field presence)";
  }
  switch (field.type()) {
    case FieldDescriptor::TYPE_FLOAT:
    case FieldDescriptor::TYPE_DOUBLE:
    case FieldDescriptor::TYPE_GROUP:
      return where + "type " + field.type_name() + " has no writer in proto/wire_format.h";
    default: break;
  }
  if (in_block && field.is_repeated() && !(IsVarint(field) && field.is_packed())) {
    return where + "a column block's repeated fields must be packed varints, not " +
           (field.is_packed() ? "" : "unpacked ") + field.type_name();
  }
  return "";
}

std::string CheckMessage(const Descriptor& message) {
  if (IsCppKeyword(message.name())) return message.name() + ": a C++ keyword cannot name a type";
  for (int i = 0; i < message.nested_type_count(); ++i) {
    if (!message.nested_type(i)->options().map_entry()) {
      return message.name() + "." + message.nested_type(i)->name() +
             ": nested messages are not mirrored (declare it at file level)";
    }
  }
  if (message.enum_type_count() > 0) {
    return message.name() + "." + message.enum_type(0)->name() +
           ": nested enums are not mirrored (declare it at file level)";
  }
  const bool block = IsColumnBlock(message);
  for (int i = 0; i < message.field_count(); ++i) {
    std::string problem = CheckField(*message.field(i), block);
    if (!problem.empty()) return problem;
  }
  return CheckNextIdNote(message);
}

}  // namespace

const FileDescriptor* LoadFile(const std::string& descriptor_set, const std::string& proto_name,
                               google::protobuf::DescriptorPool* pool, std::string* error) {
  google::protobuf::FileDescriptorSet set;
  if (!set.ParseFromString(descriptor_set)) {
    *error = "not a serialized FileDescriptorSet (protoc --descriptor_set_out)";
    return nullptr;
  }
  // protoc --include_imports lists every file after the files it imports.
  for (const google::protobuf::FileDescriptorProto& proto : set.file()) {
    if (pool->BuildFile(proto) == nullptr) {
      *error = proto.name() + ": its descriptors do not build";
      return nullptr;
    }
  }
  const FileDescriptor* file = pool->FindFileByName(proto_name);
  if (file == nullptr) *error = proto_name + ": not in the descriptor set";
  return file;
}

std::string CheckMirrorable(const FileDescriptor& file) {
  std::string problem;
  if (file.syntax() != FileDescriptor::SYNTAX_PROTO3) {
    problem = "only proto3 is mirrored (the writer omits zero values)";
  }
  for (int i = 0; problem.empty() && i < file.message_type_count(); ++i) {
    problem = CheckMessage(*file.message_type(i));
  }
  for (int i = 0; problem.empty() && i < file.enum_type_count(); ++i) {
    if (IsCppKeyword(file.enum_type(i)->name())) {
      problem = file.enum_type(i)->name() + ": a C++ keyword cannot name a type";
    }
  }
  return problem.empty() ? "" : file.name() + ": " + problem;
}

bool IsColumnBlock(const Descriptor& message) {
  if (message.name() == kSparseColumnMessage || message.field_count() == 0) return false;
  for (int i = 0; i < message.field_count(); ++i) {
    const FieldDescriptor& field = *message.field(i);
    const bool column =
        field.is_repeated() ? field.type() != FieldDescriptor::TYPE_MESSAGE : IsSparseColumn(field);
    if (!column) return false;
  }
  return true;
}

std::string CamelCase(const std::string& snake) {
  std::string camel;
  bool upper = true;
  for (char c : snake) {
    if (c == '_') {
      upper = true;
      continue;
    }
    camel += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return camel;
}

}  // namespace prof::mirror_gen
