// The schema's plain C++ mirrors, generated from a .proto's descriptors at build time (as
// Perfetto's protozero generates its writers): field numbers, enums and the column lists of
// the column blocks, for the agent's own wire-format writer, which links no libprotobuf.
// This generator links libprotobuf, but runs only at build time (//proto:trace_mirrors).
//
// Adding a field to trace.proto: edit trace.proto only (and its "Next id" note, which is
// checked here), then the encoder and decoder code that writes and reads the new field. The
// field's number (prof::field::Message::kField), enum values (prof::schema) and, for a
// column block, its column member are generated. See proto/README.md.
//
// What is mirrored, and what a .proto must keep to be mirrorable (anything else is refused
// with one line naming the element and the reason, see CheckMirrorable):
// - proto3, top-level messages and enums only (map fields' entries excepted);
// - no oneof, no `optional` (the writer omits zero values: it has no field presence);
// - no float, double or group field (wire_format.h has no writer for them);
// - names that are not C++ keywords;
// - a "Next id: N" note in a message's leading comment, if present, equal to the next free
//   field number (one past the highest field number or reserved number).
// A column block is a message other than SparseColumn whose fields are all repeated
// non-message fields or SparseColumn fields; its repeated fields must be packed varints.
#ifndef PROF_PROTO_GEN_MIRROR_GENERATOR_H_
#define PROF_PROTO_GEN_MIRROR_GENERATOR_H_

#include <string>

#include <google/protobuf/descriptor.h>

namespace prof::mirror_gen {

// The message whose fields in a column block are sparse columns.
inline constexpr char kSparseColumnMessage[] = "SparseColumn";

// Loads `proto_name` (as protoc names it, "proto/trace.proto") and its imports from a
// serialized FileDescriptorSet into `pool`. nullptr and one line in `error` on failure.
const google::protobuf::FileDescriptor* LoadFile(const std::string& descriptor_set,
                                                 const std::string& proto_name,
                                                 google::protobuf::DescriptorPool* pool,
                                                 std::string* error);

// "" when `file` can be mirrored; otherwise one line, "<file>: <element>: <why>".
std::string CheckMirrorable(const google::protobuf::FileDescriptor& file);

// True for a column block (see the header comment).
bool IsColumnBlock(const google::protobuf::Descriptor& message);

// The headers' text; `file` must have passed CheckMirrorable. `include_path` is the
// header's own include path ("proto/trace_fields.h"), which names its include guard.
std::string FieldsHeader(const google::protobuf::FileDescriptor& file,
                         const std::string& include_path);
std::string EnumsHeader(const google::protobuf::FileDescriptor& file,
                        const std::string& include_path);
// The column blocks; it includes the fields header, at `fields_include_path`.
std::string ColumnsHeader(const google::protobuf::FileDescriptor& file,
                          const std::string& include_path, const std::string& fields_include_path);

// "start_delta_ns" -> "StartDeltaNs".
std::string CamelCase(const std::string& snake);

}  // namespace prof::mirror_gen

#endif  // PROF_PROTO_GEN_MIRROR_GENERATOR_H_
