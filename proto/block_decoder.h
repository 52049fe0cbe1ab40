// The decoder of a chunk's column blocks, one file per part: block_decoder.cc (the checks
// every block shares), thread_block_decoder.cc (API calls, ranges, steps, NCCL calls,
// memory), stream_block_decoder.cc (kernels, copies, memsets, synchronizations), and
// chunk_decoder.cc (the chunk around them). Internal to the chunk codec: DecodeChunk
// (chunk_decoder.h) is its interface.
#ifndef PROF_PROTO_BLOCK_DECODER_H_
#define PROF_PROTO_BLOCK_DECODER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "proto/chunk_decoder.h"
#include "proto/columns.h"

namespace prof::block_decoding {

using columns::SparseCursor;
using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;

// The columns of one block message type, found from its descriptor once per process: the
// walk over its fields, the search for each companion and the companion's name were per
// block of every chunk.
struct BlockLayout {
  struct Column {
    const FieldDescriptor* values;
    const FieldDescriptor* runs;  // its companion of run lengths; nullptr when it has none
  };
  explicit BlockLayout(const Descriptor& type);

  const Descriptor& descriptor;
  std::vector<Column> columns;                 // every packed column, in declaration order
  std::vector<const FieldDescriptor*> sparse;  // every SparseColumn field
  int highest_number = 0;
};

template <typename Block>
const BlockLayout& LayoutOf() {
  static const BlockLayout layout(*Block::descriptor());
  return layout;
}

// Decodes the blocks of one chunk, collecting what was malformed.
class BlockDecoder {
 public:
  BlockDecoder(uint64_t sequence, EventSink* sink) : sequence_(sequence), sink_(sink) {}

  void Thread(const trace::ThreadEvents& thread);
  void Stream(const trace::StreamEvents& stream);
  ChunkDecodeStats& stats() { return stats_; }

 private:
  void ApiCalls(const trace::ThreadEvents& thread);
  void Ranges(const trace::ThreadEvents& thread);
  void Steps(const trace::ThreadEvents& thread);
  void NcclCalls(const trace::ThreadEvents& thread);
  void Memory(const trace::ThreadEvents& thread);
  void Kernels(const StreamKey& where, const trace::Kernels& kernels);
  void Memcpys(const StreamKey& where, const trace::Memcpys& copies);
  void Memsets(const StreamKey& where, const trace::Memsets& memsets);
  void Synchronizations(const StreamKey& where, const trace::Synchronizations& syncs);

  // The rows of `block` (a column block of trace.proto): the common length of all its
  // packed columns (a column written as runs: the sum of its companion's lengths), found
  // from its descriptor so that a column added to the schema is checked without a change
  // here. -1 (and counted) when the lengths differ or runs do not fit their column.
  template <typename Block>
  int Rows(const Block& block) {
    return Rows(block, LayoutOf<Block>());
  }
  int Rows(const Message& block, const BlockLayout& layout);
  // A cursor over every sparse column of `block`, indexed by field number (from its
  // descriptor, as Rows); an invalid column is counted and reads as empty.
  template <typename Block>
  std::vector<SparseCursor> SparseColumns(const Block& block, int rows) {
    return SparseColumns(block, LayoutOf<Block>(), rows);
  }
  std::vector<SparseCursor> SparseColumns(const Message& block, const BlockLayout& layout,
                                          int rows);
  void Problem(std::string description);

  uint64_t sequence_;
  EventSink* sink_;
  ChunkDecodeStats stats_;
  trace::SparseColumn empty_column_;
};

}  // namespace prof::block_decoding

#endif  // PROF_PROTO_BLOCK_DECODER_H_
