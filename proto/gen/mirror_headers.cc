// The text of the generated headers (mirror_generator.h): field numbers, plain enums and
// column blocks, each with the .proto's own comments where it has them.
#include <algorithm>
#include <cctype>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "proto/gen/mirror_generator.h"

namespace prof::mirror_gen {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::EnumDescriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::FileDescriptor;
using google::protobuf::SourceLocation;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
    lines.push_back(line);
  }
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

// The element's leading comment as "//" lines at `indent`; "" when it has none.
template <typename Element>
std::string LeadingComment(const Element& element, const std::string& indent) {
  SourceLocation location;
  if (!element.GetSourceLocation(&location)) return "";
  // "Next id" notes are for the .proto's editors (CheckMirrorable keeps them true).
  static const std::regex kNextIdNote(" *Next id: *[0-9]+ *");
  std::string out;
  for (const std::string& line : Lines(location.leading_comments)) {
    if (!std::regex_match(line, kNextIdNote)) out += indent + "//" + line + "\n";
  }
  return out;
}

// The element's trailing comment on one line, "" when it has none.
template <typename Element>
std::string TrailingComment(const Element& element) {
  SourceLocation location;
  if (!element.GetSourceLocation(&location)) return "";
  std::string joined;
  for (const std::string& line : Lines(location.trailing_comments)) {
    const size_t start = line.find_first_not_of(' ');
    if (start == std::string::npos) continue;
    joined += (joined.empty() ? "" : " ") + line.substr(start);
  }
  return joined;
}

std::string Guard(const std::string& include_path) {
  std::string guard = "PROF_";
  for (char c : include_path) {
    guard += std::isalnum(static_cast<unsigned char>(c))
                 ? static_cast<char>(std::toupper(static_cast<unsigned char>(c)))
                 : '_';
  }
  return guard + "_";
}

// The banner, the include guard's opening and the includes.
std::string Opening(const FileDescriptor& file, const std::string& include_path,
                    const std::string& purpose, const std::string& includes) {
  const std::string guard = Guard(include_path);
  return "// Generated from " + file.name() +
         " by //proto/gen:mirror_gen (proto/gen/mirror_generator.h).\n"
         "// Do not edit: edit the .proto, and the code that writes or reads the field.\n" +
         purpose + "#ifndef " + guard + "\n#define " + guard + "\n\n" + includes + "\n";
}

std::string Closing(const std::string& include_path, const std::string& name_space) {
  return "\n}  // namespace " + name_space + "\n\n#endif  // " + Guard(include_path) + "\n";
}

std::vector<const FieldDescriptor*> ByNumber(const Descriptor& message) {
  std::vector<const FieldDescriptor*> fields;
  for (int i = 0; i < message.field_count(); ++i) fields.push_back(message.field(i));
  std::sort(fields.begin(), fields.end(),
            [](const auto* a, const auto* b) { return a->number() < b->number(); });
  return fields;
}

std::string FieldConstants(const Descriptor& message, const std::string& indent) {
  std::string out;
  for (const FieldDescriptor* field : ByNumber(message)) {
    out += indent + "static constexpr uint32_t k" + CamelCase(field->name()) + " = " +
           std::to_string(field->number()) + ";\n";
  }
  return out;
}

std::string FieldStruct(const Descriptor& message) {
  std::string out = "\nstruct " + message.name() + " {\n";
  for (int i = 0; i < message.nested_type_count(); ++i) {  // map entries only
    out += "  struct " + message.nested_type(i)->name() + " {\n" +
           FieldConstants(*message.nested_type(i), "    ") + "  };\n";
  }
  return out + FieldConstants(message, "  ") + "};\n";
}

std::string EnumDefinition(const EnumDescriptor& type) {
  std::string out = "\n" + LeadingComment(type, "") + "enum " + type.name() + " : int32_t {\n";
  for (int i = 0; i < type.value_count(); ++i) {
    const auto& value = *type.value(i);
    const std::string trailing = TrailingComment(value);
    out += LeadingComment(value, "  ") + "  " + value.name() + " = " +
           std::to_string(value.number()) + "," + (trailing.empty() ? "" : "  // " + trailing) +
           "\n";
  }
  return out + "};\n";
}

// "Packed time_delta_ns;  // sint64: <trailing comment>"; a sparse column has no type.
std::string ColumnMember(const FieldDescriptor& field) {
  std::string note = !field.is_repeated()                         ? ""
                     : field.type() == FieldDescriptor::TYPE_ENUM ? field.enum_type()->name()
                                                                  : field.type_name();
  const std::string trailing = TrailingComment(field);
  if (!trailing.empty()) note += (note.empty() ? "" : ": ") + trailing;
  return LeadingComment(field, "  ") + "  " + (field.is_repeated() ? "Packed " : "Sparse ") +
         field.name() + ";" + (note.empty() ? "" : "  // " + note) + "\n";
}

std::string ColumnBlock(const Descriptor& message) {
  const std::vector<const FieldDescriptor*> fields = ByNumber(message);
  std::string out = "\n" + LeadingComment(message, "") +
                    "template <typename Packed, typename Sparse>\nstruct " + message.name() +
                    " {\n";
  for (const FieldDescriptor* field : fields) out += ColumnMember(*field);
  out +=
      "\n  // visit(field number, column) for every column, in field-number order.\n"
      "  template <typename Self, typename Visit>\n"
      "  static void Fields(Self& self, Visit visit) {\n";
  for (const FieldDescriptor* field : fields) {
    out += "    visit(field::" + message.name() + "::k" + CamelCase(field->name()) + ", self." +
           field->name() + ");\n";
  }
  return out + "  }\n};\n";
}

}  // namespace

std::string FieldsHeader(const FileDescriptor& file, const std::string& include_path) {
  std::string out = Opening(file, include_path,
                            "// The field numbers of its messages, for the code that writes the "
                            "wire format without\n// libprotobuf (proto/wire_format.h, the chunk "
                            "and header encoders).\n",
                            "#include <cstdint>\n") +
                    "namespace prof::field {\n";
  for (int i = 0; i < file.message_type_count(); ++i) out += FieldStruct(*file.message_type(i));
  return out + Closing(include_path, "prof::field");
}

std::string EnumsHeader(const FileDescriptor& file, const std::string& include_path) {
  std::string out = Opening(file, include_path,
                            "// Its enums as plain C++ enums, with the same names and numbers as "
                            "libprotobuf's, for code\n// that must not depend on libprotobuf: "
                            "the agent's hooks, records and writer.\n",
                            "#include <cstdint>\n") +
                    "namespace prof::schema {\n";
  for (int i = 0; i < file.enum_type_count(); ++i) out += EnumDefinition(*file.enum_type(i));
  return out + Closing(include_path, "prof::schema");
}

std::string ColumnsHeader(const FileDescriptor& file, const std::string& include_path,
                          const std::string& fields_include_path) {
  std::string out = Opening(
      file, include_path,
      "// Its column blocks: one member per column, named as the field, and Fields(), which\n"
      "// visits them in field-number order. Packed is the type of a packed repeated column,\n"
      "// Sparse that of a SparseColumn field (proto/chunk_blocks.h supplies both).\n",
      "#include \"" + fields_include_path + "\"\n");
  out += "namespace prof::block_columns {\n";
  for (int i = 0; i < file.message_type_count(); ++i) {
    if (IsColumnBlock(*file.message_type(i))) out += ColumnBlock(*file.message_type(i));
  }
  return out + Closing(include_path, "prof::block_columns");
}

}  // namespace prof::mirror_gen
