#include "proto/block_decoder.h"

#include <algorithm>
#include <limits>

#include "absl/strings/str_format.h"

namespace prof::block_decoding {

using columns::ColumnRows;
using columns::kRunsNumberOffset;
using google::protobuf::Reflection;

BlockLayout::BlockLayout(const Descriptor& type) : descriptor(type) {
  for (int i = 0; i < type.field_count(); ++i) {
    const FieldDescriptor* field = type.field(i);
    highest_number = std::max(highest_number, field->number());
    if (!field->is_repeated()) {
      if (field->message_type() == trace::SparseColumn::descriptor()) sparse.push_back(field);
      continue;
    }
    // A companion is checked with its column.
    if (field->number() > kRunsNumberOffset) continue;
    const FieldDescriptor* runs = type.FindFieldByNumber(field->number() + kRunsNumberOffset);
    if (runs != nullptr && runs->name() != field->name() + "_runs") runs = nullptr;
    columns.push_back({field, runs});
  }
}

void BlockDecoder::Problem(std::string description) {
  if (stats_.first_problem.empty()) {
    stats_.first_problem = absl::StrFormat("chunk %d: %s", sequence_, description);
  }
}

int BlockDecoder::Rows(const Message& block, const BlockLayout& layout) {
  int64_t rows = -1;
  for (const BlockLayout::Column& column : layout.columns) {
    const int64_t size = ColumnRows(block, column.values, column.runs);
    if (size < 0 || size > std::numeric_limits<int>::max()) {
      ++stats_.malformed_blocks;
      Problem(absl::StrFormat("%s block: the runs of %s do not fit the column",
                              layout.descriptor.name(), column.values->name()));
      return -1;
    }
    if (rows >= 0 && size != rows) {
      ++stats_.malformed_blocks;
      Problem(
          absl::StrFormat("%s block has columns of different lengths", layout.descriptor.name()));
      return -1;
    }
    rows = size;
  }
  return static_cast<int>(std::max<int64_t>(rows, 0));
}

std::vector<SparseCursor> BlockDecoder::SparseColumns(const Message& block,
                                                      const BlockLayout& layout, int rows) {
  const Reflection& reflection = *block.GetReflection();
  std::vector<SparseCursor> cursors(layout.highest_number + 1, SparseCursor(empty_column_, rows));
  for (const FieldDescriptor* field : layout.sparse) {
    const auto& column =
        static_cast<const trace::SparseColumn&>(reflection.GetMessage(block, field));
    SparseCursor cursor(column, rows);
    if (cursor.valid()) {
      cursors[field->number()] = cursor;
      continue;
    }
    ++stats_.malformed_columns;
    Problem(absl::StrFormat("sparse column %s.%s is malformed and was ignored",
                            layout.descriptor.name(), field->name()));
  }
  return cursors;
}

void BlockDecoder::Thread(const trace::ThreadEvents& thread) {
  if (thread.has_api_calls()) ApiCalls(thread);
  if (thread.has_ranges()) Ranges(thread);
  if (thread.has_steps()) Steps(thread);
  if (thread.has_nccl_calls()) NcclCalls(thread);
  if (thread.has_memory()) Memory(thread);
}

void BlockDecoder::Stream(const trace::StreamEvents& stream) {
  const StreamKey where{stream.device(), stream.context(), stream.stream(),
                        static_cast<schema::ClockDomain>(stream.clock())};
  if (stream.has_kernels()) Kernels(where, stream.kernels());
  if (stream.has_memcpys()) Memcpys(where, stream.memcpys());
  if (stream.has_memsets()) Memsets(where, stream.memsets());
  if (stream.has_synchronizations()) Synchronizations(where, stream.synchronizations());
}

}  // namespace prof::block_decoding
