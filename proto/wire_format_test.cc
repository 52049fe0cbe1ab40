// The wire-format primitives against libprotobuf itself: the same bytes as its
// CodedOutputStream for varints (every length, the extremes), zigzag as WireFormatLite
// defines it, and fields that libprotobuf parses back into the values written.
#include "proto/wire_format.h"

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/wire_format_lite.h>

#include "proto/trace.pb.h"
#include "proto/trace_fields.h"

namespace prof::wire {
namespace {

using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedInputStream;
using google::protobuf::io::CodedOutputStream;
using google::protobuf::io::StringOutputStream;

constexpr uint64_t kMax64 = std::numeric_limits<uint64_t>::max();
constexpr int64_t kMinSigned = std::numeric_limits<int64_t>::min();
constexpr int64_t kMaxSigned = std::numeric_limits<int64_t>::max();

std::string LibprotobufVarints(const std::vector<uint64_t>& values) {
  std::string bytes;
  {
    StringOutputStream stream(&bytes);
    CodedOutputStream out(&stream);
    for (uint64_t value : values) out.WriteVarint64(value);
  }
  return bytes;
}

// 0, 1, every 2^k - 1, 2^k and 2^k + 1, the maximum, and random values of every length.
std::vector<uint64_t> InterestingValues() {
  std::vector<uint64_t> values = {0, 1, 127, 128, 16383, 16384, kMax64, kMax64 - 1};
  for (int bit = 1; bit < 64; ++bit) {
    const uint64_t power = uint64_t{1} << bit;
    values.insert(values.end(), {power - 1, power, power + 1});
  }
  std::mt19937_64 random(11);
  for (int i = 0; i < 2000; ++i) values.push_back(random() >> (random() % 64));
  return values;
}

TEST_CASE("varints are the bytes libprotobuf writes, and VarintSize their length") {
  const std::vector<uint64_t> values = InterestingValues();
  Buffer buffer;
  for (uint64_t value : values) {
    const size_t before = buffer.size();
    buffer.AppendVarint(value);
    INFO("value " << value);
    CHECK(buffer.size() - before == VarintSize(value));
    CHECK(VarintSize(value) == CodedOutputStream::VarintSize64(value));
  }
  CHECK(buffer.view() == LibprotobufVarints(values));  // also crosses many Grow() calls
  CHECK(VarintSize(0) == 1);
  CHECK(VarintSize(kMax64) == kMaxVarintSize);
}

TEST_CASE("zigzag and int32 sign extension are protobuf's") {
  for (int64_t value : {int64_t{0}, int64_t{-1}, int64_t{1}, int64_t{-64}, int64_t{63}, kMinSigned,
                        kMaxSigned, kMinSigned + 1}) {
    CHECK(ZigZag(value) == WireFormatLite::ZigZagEncode64(value));
  }
  CHECK(ZigZag(-1) == 1);  // hand-checked: -1 -> 1, 1 -> 2
  CHECK(ZigZag(1) == 2);
  CHECK(Int32Bits(-1) == kMax64);  // ten bytes on the wire, as libprotobuf writes int32 -1
  CHECK(VarintSize(Int32Bits(-1)) == 10);
  CHECK(Int32Bits(std::numeric_limits<int32_t>::max()) == 0x7fffffffu);
}

TEST_CASE("fixed, length-delimited and tags read back with CodedInputStream") {
  Buffer buffer;
  PutFixed64Field(&buffer, 3, 0x0102030405060708ull);
  PutFixed32Field(&buffer, 4, 0xA0B0C0D0u);
  PutBytesField(&buffer, 5, std::string("a\0b", 3));
  PutBytesField(&buffer, 6, "");
  PutVarintField(&buffer, 536870911, kMax64);  // the largest field number
  const std::string bytes(buffer.view());
  CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                      static_cast<int>(bytes.size()));
  uint64_t fixed64 = 0;
  uint32_t fixed32 = 0;
  std::string text;
  uint64_t varint = 0;
  CHECK(in.ReadTag() == WireFormatLite::MakeTag(3, WireFormatLite::WIRETYPE_FIXED64));
  CHECK(in.ReadLittleEndian64(&fixed64));
  CHECK(fixed64 == 0x0102030405060708ull);
  CHECK(in.ReadTag() == WireFormatLite::MakeTag(4, WireFormatLite::WIRETYPE_FIXED32));
  CHECK(in.ReadLittleEndian32(&fixed32));
  CHECK(fixed32 == 0xA0B0C0D0u);
  CHECK(in.ReadTag() == WireFormatLite::MakeTag(5, WireFormatLite::WIRETYPE_LENGTH_DELIMITED));
  CHECK(WireFormatLite::ReadBytes(&in, &text));
  CHECK(text == std::string("a\0b", 3));
  CHECK(in.ReadTag() == WireFormatLite::MakeTag(6, WireFormatLite::WIRETYPE_LENGTH_DELIMITED));
  CHECK(WireFormatLite::ReadBytes(&in, &text));
  CHECK(text.empty());
  CHECK(in.ReadTag() == WireFormatLite::MakeTag(536870911, WireFormatLite::WIRETYPE_VARINT));
  CHECK(in.ReadVarint64(&varint));
  CHECK(varint == kMax64);
  CHECK(in.ReadTag() == 0);  // end of input
}

TEST_CASE("packed columns of every integer kind parse into the values written") {
  const std::vector<int64_t> signed_values = {0, -1, 1, kMinSigned, kMaxSigned, -123456789};
  const std::vector<uint64_t> unsigned_values = {0, 1, kMax64, 1ull << 63, 300};
  PackedColumn start, duration, step, samples;
  for (int64_t value : signed_values) {
    start.AddSigned(value);
    step.AddSigned(static_cast<int64_t>(0 - static_cast<uint64_t>(value)));  // wraps at INT64_MIN
    samples.AddSigned(value / 3);
    duration.AddUnsigned(static_cast<uint64_t>(value));
  }
  Buffer buffer;
  PutPackedField(&buffer, field::Steps::kStartDeltaNs, start);
  PutPackedField(&buffer, field::Steps::kDurationNs, duration);
  PutPackedField(&buffer, field::Steps::kStepNumberDelta, step);
  PutPackedField(&buffer, field::Steps::kSampleCount, samples);
  trace::Steps steps;
  REQUIRE(steps.ParseFromArray(buffer.data(), static_cast<int>(buffer.size())));
  REQUIRE(steps.start_delta_ns_size() == static_cast<int>(signed_values.size()));
  for (size_t i = 0; i < signed_values.size(); ++i) {
    CHECK(steps.start_delta_ns(i) == signed_values[i]);
    CHECK(steps.duration_ns(i) == static_cast<uint64_t>(signed_values[i]));
    CHECK(steps.step_number_delta(i) ==
          static_cast<int64_t>(0 - static_cast<uint64_t>(signed_values[i])));
    CHECK(steps.sample_count(i) == signed_values[i] / 3);
  }

  PackedColumn devices, kinds;
  for (int32_t device :
       {-1, 0, 7, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()}) {
    devices.AddInt32(device);
    kinds.AddInt32(device == 7 ? 2 : 0);
  }
  Buffer memory_bytes;
  PutPackedField(&memory_bytes, field::MemoryEvents::kDevice, devices);
  PutPackedField(&memory_bytes, field::MemoryEvents::kKind, kinds);
  trace::MemoryEvents memory;
  REQUIRE(memory.ParseFromArray(memory_bytes.data(), static_cast<int>(memory_bytes.size())));
  CHECK(std::vector<int32_t>(memory.device().begin(), memory.device().end()) ==
        std::vector<int32_t>{-1, 0, 7, std::numeric_limits<int32_t>::min(),
                             std::numeric_limits<int32_t>::max()});
  CHECK(memory.kind(2) == trace::MEMORY_KIND_PINNED);
  // The same message serialized by libprotobuf is the same bytes.
  CHECK(memory.SerializeAsString() == memory_bytes.view());

  PackedColumn addresses;
  for (uint64_t value : unsigned_values) addresses.AddUnsigned(value);
  Buffer stack_bytes;
  PutVarintFieldIfNonZero(&stack_bytes, field::CallStack::kId, 9);
  PutPackedField(&stack_bytes, field::CallStack::kFrameAddresses, addresses);
  PutPackedField(&stack_bytes, field::CallStack::kFrameNameIds, PackedColumn());  // empty: absent
  trace::CallStack stack;
  REQUIRE(stack.ParseFromArray(stack_bytes.data(), static_cast<int>(stack_bytes.size())));
  CHECK(stack.id() == 9);
  CHECK(std::vector<uint64_t>(stack.frame_addresses().begin(), stack.frame_addresses().end()) ==
        unsigned_values);
  CHECK(stack.frame_name_ids_size() == 0);
  CHECK(stack.SerializeAsString() == stack_bytes.view());
}

TEST_CASE("proto3 defaults stay off the wire, as libprotobuf leaves them") {
  Buffer buffer;
  PutVarintFieldIfNonZero(&buffer, 1, 0);
  PutInt32FieldIfNonZero(&buffer, 2, 0);
  PutSignedFieldIfNonZero(&buffer, 3, 0);
  PutStringFieldIfNonEmpty(&buffer, 4, "");
  CHECK(buffer.empty());
  CHECK(VarintFieldSizeIfNonZero(1, 0) == 0);
  CHECK(PackedFieldSize(1, PackedColumn()) == 0);
  trace::ClockAnchor empty;
  CHECK(empty.SerializeAsString().empty());
}

TEST_CASE("a cleared buffer is reused without losing what is appended next") {
  Buffer buffer;
  for (int i = 0; i < 100000; ++i) buffer.AppendVarint(static_cast<uint64_t>(i) << 20);
  buffer.clear();
  CHECK(buffer.empty());
  buffer.AppendBytes("xyz", 3);
  buffer.AppendBytes(nullptr, 0);
  CHECK(buffer.view() == "xyz");
}

TEST_CASE("varints libprotobuf writes read back, one by one and as a packed payload") {
  const std::vector<uint64_t> values = InterestingValues();
  const std::string bytes = LibprotobufVarints(values);
  const uint8_t* begin = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint8_t* end = begin + bytes.size();
  const uint8_t* p = begin;
  for (uint64_t expected : values) {
    uint64_t value = 0;
    p = ReadVarint(p, end, &value);
    REQUIRE(p != nullptr);
    CHECK(value == expected);
  }
  CHECK(p == end);
  REQUIRE(PackedVarintCount(begin, end) == static_cast<int64_t>(values.size()));
  std::vector<uint64_t> decoded(values.size());
  CHECK(DecodePackedVarints(begin, PackedVarintCount(begin, end), decoded.data(),
                            [](uint64_t v) { return v; }));
  CHECK(decoded == values);
}

TEST_CASE("runs of one-byte varints decode as their values, whatever the runs' lengths") {
  // Runs of 0 to 19 one-byte values between longer ones, so that a run starts and ends at
  // every offset within eight bytes; converted, as a signed column's are.
  std::vector<uint64_t> values;
  for (uint64_t run = 0; run < 20; ++run) {
    for (uint64_t i = 0; i < run; ++i) values.push_back((run * 7 + i) & 0x7f);
    values.push_back(0x80 + run * 1000);
  }
  for (uint64_t i = 0; i < 11; ++i) values.push_back(i);  // ends with a run
  const std::string bytes = LibprotobufVarints(values);
  const uint8_t* begin = reinterpret_cast<const uint8_t*>(bytes.data());
  const int64_t count = PackedVarintCount(begin, begin + bytes.size());
  REQUIRE(count == static_cast<int64_t>(values.size()));
  std::vector<int64_t> decoded(values.size());
  REQUIRE(DecodePackedVarints(begin, count, decoded.data(), UnZigZag));
  for (size_t i = 0; i < values.size(); ++i) CHECK(decoded[i] == UnZigZag(values[i]));
}

TEST_CASE("runs of two-byte varints among shorter and longer ones decode as their values") {
  // Runs of 0 to 9 two-byte values (the edges 128 and 16383 among them) between one-byte
  // (127, 0) and three-byte (16384) ones, so that pairs start at odd and even places; each
  // payload ends with 0 to 5 two-byte values, so that a pair ends at the payload's last byte
  // or stops short of it.
  for (uint64_t tail = 0; tail < 6; ++tail) {
    std::vector<uint64_t> values;
    for (uint64_t run = 0; run < 10; ++run) {
      for (uint64_t i = 0; i < run; ++i) {
        values.push_back(i % 3 == 0 ? 128 : i % 3 == 1 ? 16383 : 128 + run * 1000 + i);
      }
      values.push_back(run % 3 == 0 ? 127 : run % 3 == 1 ? 16384 : 0);
    }
    for (uint64_t i = 0; i < tail; ++i) values.push_back(16383 - i * 4000);
    const std::string bytes = LibprotobufVarints(values);
    const uint8_t* begin = reinterpret_cast<const uint8_t*>(bytes.data());
    const int64_t count = PackedVarintCount(begin, begin + bytes.size());
    REQUIRE(count == static_cast<int64_t>(values.size()));
    std::vector<uint64_t> decoded(values.size());
    REQUIRE(DecodePackedVarints(begin, count, decoded.data(), [](uint64_t v) { return v; }));
    CHECK(decoded == values);
    std::vector<int64_t> signed_decoded(values.size());  // converted, as a signed column's
    REQUIRE(DecodePackedVarints(begin, count, signed_decoded.data(), UnZigZag));
    for (size_t i = 0; i < values.size(); ++i) CHECK(signed_decoded[i] == UnZigZag(values[i]));
  }
}

TEST_CASE("an overflowing varint after pairs of two-byte ones is refused") {
  // 300 = 0xac 0x02 (hand-encoded), four times, then ten bytes over 64 bits.
  const uint8_t bytes[] = {0xac, 0x02, 0xac, 0x02, 0xac, 0x02, 0xac, 0x02, 0xff,
                           0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
  const int64_t count = PackedVarintCount(bytes, bytes + sizeof(bytes));
  REQUIRE(count == 5);
  uint64_t out[5] = {};
  CHECK_FALSE(DecodePackedVarints(bytes, count, out, [](uint64_t v) { return v; }));
  CHECK(out[0] == 300);
  CHECK(out[3] == 300);
}

TEST_CASE("zigzag decodes what ZigZag and libprotobuf encode") {
  for (int64_t value : {int64_t{0}, int64_t{-1}, int64_t{1}, int64_t{-64}, int64_t{63}, kMinSigned,
                        kMaxSigned, kMinSigned + 1}) {
    CHECK(UnZigZag(ZigZag(value)) == value);
    CHECK(UnZigZag(WireFormatLite::ZigZagEncode64(value)) == value);
  }
  CHECK(UnZigZag(3) == -2);  // hand-checked: 3 -> -2, 4 -> 2
  CHECK(UnZigZag32(4) == 2);
  CHECK(UnZigZag32(WireFormatLite::ZigZagEncode32(std::numeric_limits<int32_t>::min())) ==
        std::numeric_limits<int32_t>::min());
}

TEST_CASE("cut, overlong and overflowing varints are refused") {
  uint64_t value = 0;
  const uint8_t cut[] = {0x80, 0x80};
  CHECK(ReadVarint(cut, cut + 2, &value) == nullptr);
  CHECK(ReadVarint(cut, cut, &value) == nullptr);
  CHECK(PackedVarintCount(cut, cut + 2) == -1);
  // Ten bytes: the tenth may hold only the 64th bit.
  const uint8_t max[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
  CHECK(ReadVarint(max, max + 10, &value) == max + 10);
  CHECK(value == kMax64);
  const uint8_t over[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
  CHECK(ReadVarint(over, over + 10, &value) == nullptr);
  uint64_t out = 0;
  CHECK_FALSE(DecodePackedVarints(over, PackedVarintCount(over, over + 10), &out,
                                  [](uint64_t v) { return v; }));
  const uint8_t eleven[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x81, 0x00};
  CHECK(ReadVarint(eleven, eleven + 11, &value) == nullptr);
  CHECK(PackedVarintCount(eleven, eleven + 11) == 1);
  CHECK_FALSE(DecodePackedVarints(eleven, 1, &out, [](uint64_t v) { return v; }));
}

}  // namespace
}  // namespace prof::wire
