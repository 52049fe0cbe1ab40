#include "proto/chunk_block_reader.h"

#include <limits>
#include <map>
#include <memory>
#include <vector>

#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/message.h"
#include "proto/wire_format.h"

namespace prof {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;
using google::protobuf::RepeatedField;

// How one field is read: the value's conversion from its varint (or a nested message).
enum class Take : uint8_t { kNone, kUint64, kInt64, kSint64, kUint32, kInt32, kSint32, kMessage };

struct MessagePlan;

struct FieldPlan {
  Take take = Take::kNone;  // kNone: a field this reader does not read (it gives up)
  const FieldDescriptor* field = nullptr;
  const MessagePlan* message = nullptr;  // kMessage: the nested type's plan
};

// A message type's fields indexed by number, from its descriptor (once per process).
struct MessagePlan {
  std::vector<FieldPlan> by_number;
};

Take TakeOf(const FieldDescriptor& field) {
  switch (field.type()) {
    case FieldDescriptor::TYPE_UINT64: return Take::kUint64;
    case FieldDescriptor::TYPE_INT64: return Take::kInt64;
    case FieldDescriptor::TYPE_SINT64: return Take::kSint64;
    case FieldDescriptor::TYPE_UINT32: return Take::kUint32;
    case FieldDescriptor::TYPE_INT32:
    case FieldDescriptor::TYPE_ENUM: return Take::kInt32;
    case FieldDescriptor::TYPE_SINT32: return Take::kSint32;
    case FieldDescriptor::TYPE_MESSAGE: return field.is_repeated() ? Take::kNone : Take::kMessage;
    default: return Take::kNone;  // strings, fixed, bool, ...: not in a block
  }
}

// The plans of a message type and of every message type under it.
class Plans {
 public:
  const MessagePlan& Of(const Descriptor& type) {
    auto found = plans_.find(&type);
    if (found != plans_.end()) return *found->second;
    MessagePlan& plan = *(plans_[&type] = std::make_unique<MessagePlan>());
    for (int i = 0; i < type.field_count(); ++i) {
      const FieldDescriptor& field = *type.field(i);
      // Numbers stay small in the blocks; a far one is left to libprotobuf.
      if (field.number() > kHighestNumber) continue;
      if (static_cast<size_t>(field.number()) >= plan.by_number.size()) {
        plan.by_number.resize(field.number() + 1);
      }
      FieldPlan& read = plan.by_number[field.number()];
      read.take = TakeOf(field);
      read.field = &field;
      if (read.take == Take::kMessage) read.message = &Of(*field.message_type());
    }
    return plan;
  }

 private:
  static constexpr int kHighestNumber = 255;
  std::map<const Descriptor*, std::unique_ptr<MessagePlan>> plans_;
};

struct ChunkPlans {
  ChunkPlans()
      : thread(plans.Of(*trace::ThreadEvents::descriptor())),
        stream(plans.Of(*trace::StreamEvents::descriptor())) {}
  Plans plans;
  const MessagePlan& thread;
  const MessagePlan& stream;
};

const ChunkPlans& PlansOfChunk() {
  static const ChunkPlans plans;
  return plans;
}

// Appends the `count` varints at `p` to repeated field `field` of `message`, converted.
template <typename T, typename Convert>
bool AppendPacked(const uint8_t* p, int64_t count, const FieldDescriptor* field, Message* message,
                  Convert convert) {
  // The array itself (as columns.h's ColumnRows): deprecated for GetRepeatedFieldRef, kept.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  RepeatedField<T>* column = message->GetReflection()->MutableRepeatedField<T>(message, field);
#pragma GCC diagnostic pop
  const int old_size = column->size();
  if (count > std::numeric_limits<int>::max() - old_size) return false;
  const int added = static_cast<int>(count);
  column->Reserve(old_size + added);
  return wire::DecodePackedVarints(p, count, column->AddNAlreadyReserved(added), convert);
}

// A packed column's payload [p, end) appended to its field.
bool ReadPacked(const uint8_t* p, const uint8_t* end, const FieldPlan& read, Message* message) {
  const int64_t count = wire::PackedVarintCount(p, end);
  if (count < 0) return false;
  const FieldDescriptor* field = read.field;
  switch (read.take) {
    case Take::kUint64:
      return AppendPacked<uint64_t>(p, count, field, message, [](uint64_t v) { return v; });
    case Take::kInt64:
      return AppendPacked<int64_t>(p, count, field, message,
                                   [](uint64_t v) { return static_cast<int64_t>(v); });
    // Lambdas, not the functions' addresses: a pointer is called per value, not inlined.
    case Take::kSint64:
      return AppendPacked<int64_t>(p, count, field, message,
                                   [](uint64_t v) { return wire::UnZigZag(v); });
    case Take::kUint32:
      return AppendPacked<uint32_t>(p, count, field, message,
                                    [](uint64_t v) { return static_cast<uint32_t>(v); });
    case Take::kInt32:
      return AppendPacked<int32_t>(p, count, field, message,
                                   [](uint64_t v) { return static_cast<int32_t>(v); });
    case Take::kSint32:
      return AppendPacked<int32_t>(p, count, field, message,
                                   [](uint64_t v) { return wire::UnZigZag32(v); });
    default: return false;
  }
}

// A singular scalar field's varint, set as the field's type has it.
bool SetScalar(uint64_t value, const FieldPlan& read, Message* message) {
  const Reflection& reflection = *message->GetReflection();
  const FieldDescriptor* field = read.field;
  switch (read.take) {
    case Take::kUint64: reflection.SetUInt64(message, field, value); return true;
    case Take::kInt64:
      reflection.SetInt64(message, field, static_cast<int64_t>(value));
      return true;
    case Take::kSint64: reflection.SetInt64(message, field, wire::UnZigZag(value)); return true;
    case Take::kUint32:
      reflection.SetUInt32(message, field, static_cast<uint32_t>(value));
      return true;
    case Take::kSint32: reflection.SetInt32(message, field, wire::UnZigZag32(value)); return true;
    case Take::kInt32:
      if (field->type() == FieldDescriptor::TYPE_ENUM) {
        reflection.SetEnumValue(message, field, static_cast<int32_t>(value));
      } else {
        reflection.SetInt32(message, field, static_cast<int32_t>(value));
      }
      return true;
    default: return false;
  }
}

// Reads a length prefix at `p`: the payload's end, or nullptr when it passes `end`.
const uint8_t* ReadLength(const uint8_t** p, const uint8_t* end) {
  uint64_t length = 0;
  *p = wire::ReadVarint(*p, end, &length);
  if (*p == nullptr || length > static_cast<uint64_t>(end - *p)) return nullptr;
  return *p + length;
}

// Merges the message body [p, end) into `message` (of `plan`'s type), as libprotobuf would;
// false when it meets anything it does not read.
bool ReadMessage(const uint8_t* p, const uint8_t* end, const MessagePlan& plan, Message* message) {
  while (p < end) {
    uint64_t tag = 0;
    p = wire::ReadVarint(p, end, &tag);
    if (p == nullptr || (tag >> 3) >= plan.by_number.size()) return false;
    const FieldPlan& read = plan.by_number[tag >> 3];
    if (read.take == Take::kNone) return false;
    const uint32_t type = tag & 7;
    if (type == wire::kVarint && !read.field->is_repeated() && read.take != Take::kMessage) {
      uint64_t value = 0;
      p = wire::ReadVarint(p, end, &value);
      if (p == nullptr || !SetScalar(value, read, message)) return false;
      continue;
    }
    if (type != wire::kLengthDelimited) return false;
    const uint8_t* field_end = ReadLength(&p, end);
    if (field_end == nullptr) return false;
    if (read.take == Take::kMessage) {
      Message* part = message->GetReflection()->MutableMessage(message, read.field);
      if (!ReadMessage(p, field_end, *read.message, part)) return false;
    } else if (!read.field->is_repeated() || !ReadPacked(p, field_end, read, message)) {
      return false;
    }
    p = field_end;
  }
  return true;
}

// Skips the field whose tag was read: the byte after it, or nullptr (groups, a cut field).
const uint8_t* SkipField(const uint8_t* p, const uint8_t* end, uint32_t type) {
  uint64_t ignored = 0;
  switch (type) {
    case wire::kVarint: return wire::ReadVarint(p, end, &ignored);
    case wire::kFixed64: return end - p >= 8 ? p + 8 : nullptr;
    case wire::kFixed32: return end - p >= 4 ? p + 4 : nullptr;
    case wire::kLengthDelimited: return ReadLength(&p, end);
    default: return nullptr;
  }
}

// libprotobuf merges the chunk's fields [begin, end) other than threads and streams.
bool MergeOtherFields(const uint8_t* begin, const uint8_t* end, trace::Chunk* chunk) {
  if (begin == end) return true;
  const int size = static_cast<int>(end - begin);
  google::protobuf::io::ArrayInputStream input(begin, size);
  return chunk->MergeFromBoundedZeroCopyStream(&input, size);
}

}  // namespace

bool MergeChunkReadingBlocks(const uint8_t* payload, size_t size, trace::Chunk* chunk) {
  if (size > static_cast<size_t>(std::numeric_limits<int>::max())) return false;
  const ChunkPlans& plans = PlansOfChunk();
  const uint8_t* p = payload;
  const uint8_t* const end = payload + size;
  const uint8_t* others = p;  // the first byte of the fields libprotobuf merges next
  while (p < end) {
    const uint8_t* field_start = p;
    uint64_t tag = 0;
    p = wire::ReadVarint(p, end, &tag);
    if (p == nullptr || (tag >> 3) == 0 || (tag >> 3) > std::numeric_limits<int32_t>::max()) {
      return false;
    }
    const uint64_t number = tag >> 3;
    const bool block_group =
        number == trace::Chunk::kThreadsFieldNumber || number == trace::Chunk::kStreamsFieldNumber;
    if (!block_group || (tag & 7) != wire::kLengthDelimited) {
      p = SkipField(p, end, tag & 7);
      if (p == nullptr) return false;
      continue;
    }
    const uint8_t* group_end = ReadLength(&p, end);
    if (group_end == nullptr || !MergeOtherFields(others, field_start, chunk)) return false;
    const bool ok = number == trace::Chunk::kThreadsFieldNumber
                        ? ReadMessage(p, group_end, plans.thread, chunk->add_threads())
                        : ReadMessage(p, group_end, plans.stream, chunk->add_streams());
    if (!ok) return false;
    p = others = group_end;
  }
  return MergeOtherFields(others, end, chunk);
}

}  // namespace prof
