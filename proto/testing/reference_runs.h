// Test support: the run-length choice of trace.proto ("Run-length columns") applied to a
// finished trace::Chunk message, as the reference encoder's last step. Written with
// libprotobuf's reflection and size arithmetic, apart from the agent's RunColumn, so that
// chunk_wire_test's byte identity checks the encoder's choice and not a copy of it.
#ifndef PROF_PROTO_TESTING_REFERENCE_RUNS_H_
#define PROF_PROTO_TESTING_REFERENCE_RUNS_H_

#include "proto/trace.pb.h"

namespace prof::testing {

// Rewrites, in every block of `chunk` (and every sparse column), each column that has a
// `<name>_runs` companion as runs when that makes its two fields smaller than the plain
// column's one field.
void ApplyRunLengthColumns(trace::Chunk* chunk);

}  // namespace prof::testing

#endif  // PROF_PROTO_TESTING_REFERENCE_RUNS_H_
