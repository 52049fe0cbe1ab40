// Where a trace file's bytes go: the bytes of each column of each block over the whole file
// ("ApiCalls.start_delta_ns", a sparse column with its index and values), and the rest
// (framing, header, interned definitions, group and block headers) as one figure. For the
// format's benchmark: the columns that cost the most are the ones to encode better.
#ifndef PROF_PROTO_TESTING_COLUMN_BYTES_H_
#define PROF_PROTO_TESTING_COLUMN_BYTES_H_

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>

namespace prof::testing {

struct ColumnBytes {
  std::map<std::string, uint64_t> columns;  // "Block.column" -> bytes, tag and length included
  uint64_t file_bytes = 0;
  uint64_t events = 0;
  std::string problem;  // set when the file could not be read
};

ColumnBytes MeasureColumnBytes(const std::string& path);

// One line per column, the costliest first, as bytes per event and share of the file, then
// "everything else".
void PrintColumnBytes(const ColumnBytes& measured, std::FILE* out);

}  // namespace prof::testing

#endif  // PROF_PROTO_TESTING_COLUMN_BYTES_H_
