#include "proto/testing/reference_runs.h"

#include <cstdint>
#include <vector>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

namespace prof::testing {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;
using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedOutputStream;

// A column's values as their 64-bit integers (equal values, equal wire bytes) and the
// size of each on the wire.
struct Values {
  std::vector<int64_t> values;
  std::vector<size_t> sizes;
};

size_t WireSize(const FieldDescriptor& field, int64_t value) {
  switch (field.type()) {
    case FieldDescriptor::TYPE_SINT64: return WireFormatLite::SInt64Size(value);
    case FieldDescriptor::TYPE_INT32:
    case FieldDescriptor::TYPE_ENUM: return WireFormatLite::Int32Size(static_cast<int32_t>(value));
    default:  // uint32, uint64
      return CodedOutputStream::VarintSize64(static_cast<uint64_t>(value));
  }
}

Values Read(const Message& block, const FieldDescriptor& field) {
  const Reflection& reflection = *block.GetReflection();
  Values read;
  for (int i = 0; i < reflection.FieldSize(block, &field); ++i) {
    int64_t value = 0;
    switch (field.cpp_type()) {
      case FieldDescriptor::CPPTYPE_UINT32:
        value = reflection.GetRepeatedUInt32(block, &field, i);
        break;
      case FieldDescriptor::CPPTYPE_UINT64:
        value = static_cast<int64_t>(reflection.GetRepeatedUInt64(block, &field, i));
        break;
      case FieldDescriptor::CPPTYPE_INT64:
        value = reflection.GetRepeatedInt64(block, &field, i);
        break;
      case FieldDescriptor::CPPTYPE_INT32:
        value = reflection.GetRepeatedInt32(block, &field, i);
        break;
      case FieldDescriptor::CPPTYPE_ENUM:
        value = reflection.GetRepeatedEnumValue(block, &field, i);
        break;
      default: break;
    }
    read.values.push_back(value);
    read.sizes.push_back(WireSize(field, value));
  }
  return read;
}

void Add(Message* block, const FieldDescriptor& field, int64_t value) {
  const Reflection& reflection = *block->GetReflection();
  switch (field.cpp_type()) {
    case FieldDescriptor::CPPTYPE_UINT32:
      reflection.AddUInt32(block, &field, static_cast<uint32_t>(value));
      break;
    case FieldDescriptor::CPPTYPE_UINT64:
      reflection.AddUInt64(block, &field, static_cast<uint64_t>(value));
      break;
    case FieldDescriptor::CPPTYPE_INT64: reflection.AddInt64(block, &field, value); break;
    case FieldDescriptor::CPPTYPE_INT32:
      reflection.AddInt32(block, &field, static_cast<int32_t>(value));
      break;
    case FieldDescriptor::CPPTYPE_ENUM:
      reflection.AddEnumValue(block, &field, static_cast<int>(value));
      break;
    default: break;
  }
}

// Size of a packed field with `payload` bytes of values; 0 without values.
size_t PackedSize(const FieldDescriptor& field, size_t count, size_t payload) {
  if (count == 0) return 0;
  return WireFormatLite::TagSize(field.number(), WireFormatLite::TYPE_BYTES) +
         CodedOutputStream::VarintSize64(payload) + payload;
}

void MaybeRuns(Message* block, const FieldDescriptor& column, const FieldDescriptor& runs) {
  const Values plain = Read(*block, column);
  std::vector<int64_t> run_values;
  std::vector<uint32_t> lengths;
  size_t plain_bytes = 0, value_bytes = 0, length_bytes = 0;
  for (size_t i = 0; i < plain.values.size(); ++i) {
    plain_bytes += plain.sizes[i];
    if (!run_values.empty() && run_values.back() == plain.values[i]) {
      ++lengths.back();
      continue;
    }
    run_values.push_back(plain.values[i]);
    lengths.push_back(1);
    value_bytes += plain.sizes[i];
  }
  for (const uint32_t length : lengths) length_bytes += CodedOutputStream::VarintSize32(length);
  const size_t as_runs = PackedSize(column, run_values.size(), value_bytes) +
                         PackedSize(runs, lengths.size(), length_bytes);
  // trace.proto: runs are considered where at most half the values are changes (unequal
  // to the value before; the first unless it is 0), and taken when smaller.
  const size_t changes = run_values.size() - (!plain.values.empty() && plain.values[0] == 0);
  if (plain.values.empty() || 2 * changes > plain.values.size() ||
      as_runs >= PackedSize(column, plain.values.size(), plain_bytes)) {
    return;
  }
  block->GetReflection()->ClearField(block, &column);
  for (const int64_t value : run_values) Add(block, column, value);
  for (const uint32_t length : lengths) block->GetReflection()->AddUInt32(block, &runs, length);
}

// Every column of `message` with a companion named "<column>_runs".
void ApplyToMessage(Message* message) {
  const Descriptor& descriptor = *message->GetDescriptor();
  const Reflection& reflection = *message->GetReflection();
  for (int i = 0; i < descriptor.field_count(); ++i) {
    const FieldDescriptor* field = descriptor.field(i);
    if (field->message_type() != nullptr && !field->is_repeated()) {
      if (reflection.HasField(*message, field))
        ApplyToMessage(reflection.MutableMessage(message, field));
      continue;
    }
    const FieldDescriptor* runs = descriptor.FindFieldByName(field->name() + "_runs");
    if (field->is_repeated() && runs != nullptr) MaybeRuns(message, *field, *runs);
  }
}

}  // namespace

void ApplyRunLengthColumns(trace::Chunk* chunk) {
  for (trace::ThreadEvents& thread : *chunk->mutable_threads()) ApplyToMessage(&thread);
  for (trace::StreamEvents& stream : *chunk->mutable_streams()) ApplyToMessage(&stream);
}

}  // namespace prof::testing
