#include "proto/chunk_guard.h"

#include <unordered_map>

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/message.h"
#include "google/protobuf/wire_format_lite.h"
#include "proto/wire_format.h"

namespace prof {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedInputStream;

constexpr uint64_t kPointer = sizeof(void*);
constexpr uint64_t kHeapOverhead = 16;  // malloc's header and rounding, per allocation
constexpr uint64_t kStringObject = 32;  // std::string (short strings stay inside it)
constexpr uint64_t kShortString = 15;

// sizeof the generated message class, from its default instance; cached per thread.
uint64_t MessageObjectBytes(const Descriptor* type) {
  thread_local std::unordered_map<const Descriptor*, uint64_t> cache;
  auto [it, inserted] = cache.try_emplace(type, 0);
  if (inserted) {
    const google::protobuf::Message* prototype =
        google::protobuf::MessageFactory::generated_factory()->GetPrototype(type);
    it->second = prototype ? prototype->SpaceUsedLong() : 256;
  }
  return it->second;
}

uint64_t ScalarBytes(const FieldDescriptor* field) {
  switch (field->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT64:
    case FieldDescriptor::CPPTYPE_UINT64:
    case FieldDescriptor::CPPTYPE_DOUBLE: return 8;
    case FieldDescriptor::CPPTYPE_BOOL: return 1;
    default: return 4;
  }
}

// Elements in a packed run of `length` bytes: one per varint end, or per fixed width.
uint64_t PackedCount(const FieldDescriptor* field, const uint8_t* run, uint32_t length) {
  switch (field->type()) {
    case FieldDescriptor::TYPE_FIXED32:
    case FieldDescriptor::TYPE_SFIXED32:
    case FieldDescriptor::TYPE_FLOAT: return length / 4;
    case FieldDescriptor::TYPE_FIXED64:
    case FieldDescriptor::TYPE_SFIXED64:
    case FieldDescriptor::TYPE_DOUBLE: return length / 8;
    default: break;
  }
  return wire::VarintEnds(run, run + length);  // a varint ends at each byte below 0x80
}

class Estimator {
 public:
  explicit Estimator(uint64_t stop_above) : stop_above_(stop_above) {}

  // Adds the fields of one message of `type` held in [data, data + size).
  void Message(const Descriptor* type, const uint8_t* data, size_t size, int depth) {
    CodedInputStream input(data, static_cast<int>(size));
    while (total_ <= stop_above_) {
      const int before = input.CurrentPosition();
      const uint32_t tag = input.ReadTag();
      if (tag == 0) return;
      const FieldDescriptor* field = type->FindFieldByNumber(static_cast<int>(tag >> 3));
      if (WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
        uint32_t length = 0;
        if (!input.ReadVarint32(&length) || length > size - input.CurrentPosition()) return;
        const uint8_t* run = data + input.CurrentPosition();
        Delimited(field, run, length, depth);
        input.Skip(static_cast<int>(length));
        continue;
      }
      if (!WireFormatLite::SkipField(&input, tag)) return;
      // A scalar: one element of a repeated field (or a singular field, inside its
      // message's object); unknown fields keep their wire bytes.
      if (field == nullptr) total_ += input.CurrentPosition() - before;
      else if (field->is_repeated()) total_ += ScalarBytes(field);
    }
  }

  uint64_t total() const { return total_; }

 private:
  void Delimited(const FieldDescriptor* field, const uint8_t* run, uint32_t length, int depth) {
    if (field == nullptr) {
      total_ += length + 8;  // an unknown field: its bytes
    } else if (field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      const uint64_t object = MessageObjectBytes(field->message_type()) + kHeapOverhead;
      total_ += object + (field->is_repeated() ? kPointer : 0);
      // The schema is not recursive; the depth check only bounds a hostile descriptor walk.
      if (depth < 16) Message(field->message_type(), run, length, depth + 1);
    } else if (field->cpp_type() == FieldDescriptor::CPPTYPE_STRING) {
      const uint64_t heap = length > kShortString ? length + 1 + kHeapOverhead : 0;
      total_ += heap + (field->is_repeated() ? kPointer + kStringObject + kHeapOverhead : 0);
    } else {
      total_ += PackedCount(field, run, length) * ScalarBytes(field);
    }
  }

  uint64_t stop_above_;
  uint64_t total_ = 0;
};

}  // namespace

uint64_t ParsedBytesEstimate(const Descriptor* type, const uint8_t* payload, size_t size,
                             uint64_t stop_above) {
  Estimator estimator(stop_above);
  estimator.Message(type, payload, size, 0);
  return estimator.total();
}

}  // namespace prof
