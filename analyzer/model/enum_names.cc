#include "analyzer/model/enum_names.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/generated_enum_reflection.h"
#include "proto/trace.pb.h"

namespace prof::analyzer {
namespace {

// The schema's name without `prefix`, or `unknown` followed by the number: a lookup in the
// enum's descriptor, which has an answer (possibly nullptr) for every int.
template <typename Enum>
std::string Name(Enum value, absl::string_view prefix, absl::string_view unknown,
                 absl::string_view unknown_end) {
  const google::protobuf::EnumValueDescriptor* defined =
      google::protobuf::GetEnumDescriptor<Enum>()->FindValueByNumber(static_cast<int>(value));
  if (defined == nullptr) return absl::StrCat(unknown, static_cast<int>(value), unknown_end);
  absl::string_view name = defined->name();
  if (name.substr(0, prefix.size()) == prefix) name.remove_prefix(prefix.size());
  return std::string(name);
}

}  // namespace

std::string SynchronizationKindName(schema::SynchronizationKind kind) {
  return Name(static_cast<trace::SynchronizationKind>(kind), "SYNCHRONIZATION_KIND_", "UNKNOWN(",
              ")");
}

std::string MemoryKindName(schema::MemoryKind kind) {
  return Name(static_cast<trace::MemoryKind>(kind), "MEMORY_KIND_", "UNKNOWN(", ")");
}

std::string NcclOperationName(schema::NcclOperation operation) {
  return Name(static_cast<trace::NcclOperation>(operation), "NCCL_OPERATION_", "OP_", "");
}

std::string LossKindName(schema::LossKind kind) {
  return Name(static_cast<trace::LossKind>(kind), "", "UNKNOWN(", ")");
}

const char* CopyDirectionName(schema::CopyKind kind) {
  switch (kind) {
    case schema::COPY_KIND_HOST_TO_DEVICE: return "HtoD";
    case schema::COPY_KIND_DEVICE_TO_HOST: return "DtoH";
    case schema::COPY_KIND_HOST_TO_HOST: return "HtoH";
    case schema::COPY_KIND_DEVICE_TO_DEVICE: return "DtoD";
    case schema::COPY_KIND_PEER_TO_PEER: return "PtoP";
    default: return "";
  }
}

}  // namespace prof::analyzer
