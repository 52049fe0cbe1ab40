// Display names of the trace.proto enums, total over every value a file can hold: a value
// this build's schema does not define (a newer agent, a damaged or hostile file) gets a
// name too, never an exception. Use these instead of `X_Name(v).substr(N)`, which throws on
// an unknown value and took the whole analysis down (issue 16).
//
// Pure functions; thread-safe.
#ifndef PROF_ANALYZER_MODEL_ENUM_NAMES_H_
#define PROF_ANALYZER_MODEL_ENUM_NAMES_H_

#include <string>

#include "proto/schema_enums.h"

namespace prof::analyzer {

// "EVENT", "STREAM_WAIT_EVENT", ...; "UNKNOWN(99)" for an undefined value.
std::string SynchronizationKindName(schema::SynchronizationKind kind);
// "PINNED", "DEVICE", ...; "UNKNOWN(99)".
std::string MemoryKindName(schema::MemoryKind kind);
// "ALL_REDUCE", ...; "OP_99" (the spelling the NCCL Summary has always used).
std::string NcclOperationName(schema::NcclOperation operation);
// "LOSS_KIND_HOST_BUFFER_FULL", ... (the agent's full names); "UNKNOWN(99)".
std::string LossKindName(schema::LossKind kind);
// A copy's direction: "HtoD", "DtoH", "HtoH", "DtoD", "PtoP"; "" when it has none to name
// (cudaMemcpyDefault, unknown and undefined values).
const char* CopyDirectionName(schema::CopyKind kind);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_MODEL_ENUM_NAMES_H_
