// The schema's names ("NCCL_OPERATION_ALL_REDUCE", ...) of the plain enums in
// schema_enums.h, read from libprotobuf's descriptors: for the analyzer's reports. ""
// for a value the schema does not define.
#ifndef PROF_PROTO_SCHEMA_NAMES_H_
#define PROF_PROTO_SCHEMA_NAMES_H_

#include <string>

#include "proto/schema_enums.h"
#include "proto/trace.pb.h"

namespace prof {

inline const std::string& SchemaName(schema::LossKind value) {
  return trace::LossKind_Name(static_cast<trace::LossKind>(value));
}
inline const std::string& SchemaName(schema::NcclOperation value) {
  return trace::NcclOperation_Name(static_cast<trace::NcclOperation>(value));
}
inline const std::string& SchemaName(schema::MemoryKind value) {
  return trace::MemoryKind_Name(static_cast<trace::MemoryKind>(value));
}
inline const std::string& SchemaName(schema::SynchronizationKind value) {
  return trace::SynchronizationKind_Name(static_cast<trace::SynchronizationKind>(value));
}
inline const std::string& SchemaName(schema::RangeKind value) {
  return trace::RangeKind_Name(static_cast<trace::RangeKind>(value));
}

}  // namespace prof

#endif  // PROF_PROTO_SCHEMA_NAMES_H_
