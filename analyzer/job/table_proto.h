// A finished SummaryTable (analyzer/summary/summary_table.h) as a job-partial message and
// back, field for field, so a table that crossed a partial renders the same bytes (text
// and JSON) as the table it came from. Generic: no table's layout is known here.
//
//   prof::job::Table message = TableToProto(table);
//   absl::StatusOr<SummaryTable> back = TableFromProto(message);  // == table
#ifndef PROF_ANALYZER_JOB_TABLE_PROTO_H_
#define PROF_ANALYZER_JOB_TABLE_PROTO_H_

#include "absl/status/statusor.h"
#include "analyzer/summary/summary_table.h"
#include "proto/job_partial.pb.h"

namespace prof::analyzer {

prof::job::Table TableToProto(const SummaryTable& table);

// InvalidArgument naming the field for an enum value this profanalyze does not know (a
// damaged or newer partial): rendering a guessed layout would print wrong tables.
absl::StatusOr<SummaryTable> TableFromProto(const prof::job::Table& message);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_JOB_TABLE_PROTO_H_
