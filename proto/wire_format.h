// The protobuf wire format, written without libprotobuf: tags, varints, zigzag, fixed,
// packed and length-delimited fields appended straight into byte buffers; and, at the end,
// the checked reading of varints and packed varint fields (chunk_block_reader.cc,
// chunk_guard.cc). This header is the only code on the writing side that knows how protobuf
// lays out bytes; the chunk and header encoders (chunk_encoder.cc, header_encoder.cc) say
// which field gets which value.
//
// Why not libprotobuf: the agent is preloaded into programs that may carry their own
// protobuf runtime (issue 11); a message object per chunk also costs a copy per value.
// The analyzer reads a chunk's thread and stream blocks with the reading side below and
// everything else with libprotobuf; the tests check that what these functions write parses
// into the values written (wire_format_test.cc, chunk_wire_test.cc).
//
// Rules followed so that the bytes equal libprotobuf's own serialization: fields in
// field-number order, proto3 scalars equal to 0 (and empty strings) omitted by the
// callers, int32 values sign-extended to ten-byte varints, lengths as minimal varints.
//
// Not thread-safe; a Buffer belongs to one encoder. No exceptions beyond std::bad_alloc.
//
//   prof::wire::Buffer out;
//   prof::wire::PutVarintField(&out, 1, 42);
//   prof::wire::PackedColumn column; column.AddSigned(-3);
//   prof::wire::PutPackedField(&out, 2, column);
#ifndef PROF_PROTO_WIRE_FORMAT_H_
#define PROF_PROTO_WIRE_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

namespace prof::wire {

enum WireType : uint32_t {
  kVarint = 0,
  kFixed64 = 1,
  kLengthDelimited = 2,
  kFixed32 = 5,
};

inline constexpr size_t kMaxVarintSize = 10;

constexpr uint32_t Tag(uint32_t field, WireType type) { return (field << 3) | type; }

// Bytes the varint of `value` takes (1 to 10).
inline size_t VarintSize(uint64_t value) {
  // 1 + floor(bit_length / 7), with value|1 so that 0 takes one byte.
  const int bits = 64 - __builtin_clzll(value | 1);
  return static_cast<size_t>((bits * 9 + 64) / 64);
}

inline uint64_t ZigZag(int64_t value) {
  return (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
}

// int32 fields: negative values are sign-extended to 64 bits (ten bytes on the wire).
inline uint64_t Int32Bits(int32_t value) {
  return static_cast<uint64_t>(static_cast<int64_t>(value));
}

// Writes the varint of `value` at `out` (room for kMaxVarintSize bytes); returns the end.
inline uint8_t* WriteVarint(uint64_t value, uint8_t* out) {
  while (value >= 0x80) {
    *out++ = static_cast<uint8_t>(value | 0x80);
    value >>= 7;
  }
  *out++ = static_cast<uint8_t>(value);
  return out;
}

// A growable byte string whose appends write in place; clear() keeps the capacity, so
// an encoder reused chunk after chunk stops allocating once its buffers have grown.
// It keeps a write cursor (end_): an append loads and stores only that, where a data
// pointer and a size were both loaded and the size stored for each value (~3 instructions a
// value on the writer's path; callgrind, issue 26).
class Buffer {
 public:
  Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer(Buffer&& other) noexcept { *this = std::move(other); }
  Buffer& operator=(Buffer&& other) noexcept {
    if (this != &other) {
      bytes_ = std::move(other.bytes_);
      end_ = other.end_;
      limit_ = other.limit_;
      other.end_ = other.limit_ = nullptr;
    }
    return *this;
  }

  const uint8_t* data() const { return bytes_.get(); }
  size_t size() const { return static_cast<size_t>(end_ - bytes_.get()); }
  bool empty() const { return end_ == bytes_.get(); }
  void clear() { end_ = bytes_.get(); }
  std::string_view view() const {
    return std::string_view(reinterpret_cast<const char*>(bytes_.get()), size());
  }

  void AppendVarint(uint64_t value) {
    Reserve(kMaxVarintSize);
    AppendVarintInRoom(value);
  }
  // Makes room for `more` bytes, so that appends of that many bytes in all can go through
  // AppendVarintInRoom, which checks nothing (one check for several values: the encoder's
  // columns make room for many rows at once, chunk_blocks.h).
  void Reserve(size_t more) {
    if (more > static_cast<size_t>(limit_ - end_)) Grow(size() + more);
  }
  void AppendVarintInRoom(uint64_t value) { end_ = WriteVarint(value, end_); }
  // `times` copies of the varint of `value` (a run of one value written at once).
  void AppendVarintRepeated(uint64_t value, size_t times) {
    uint8_t one[kMaxVarintSize];
    const size_t size = static_cast<size_t>(WriteVarint(value, one) - one);
    Reserve(size * times);
    if (size == 1) {
      std::memset(end_, one[0], times);
    } else {
      for (size_t i = 0; i < times; ++i) std::memcpy(end_ + i * size, one, size);
    }
    end_ += size * times;
  }
  void AppendFixed32(uint32_t value) { AppendLittleEndian(value, 4); }
  void AppendFixed64(uint64_t value) { AppendLittleEndian(value, 8); }
  void AppendBytes(const void* data, size_t size) {
    if (size == 0) return;
    Reserve(size);
    std::memcpy(end_, data, size);
    end_ += size;
  }

 private:
  void Grow(size_t needed);
  void AppendLittleEndian(uint64_t value, int size) {
    Reserve(8);
    for (int i = 0; i < size; ++i) end_[i] = static_cast<uint8_t>(value >> (8 * i));
    end_ += size;
  }

  // bytes_[0, end_) are written; [end_, limit_) is spare capacity.
  std::unique_ptr<uint8_t[]> bytes_;
  uint8_t* end_ = nullptr;
  uint8_t* limit_ = nullptr;
};

// The values of one packed repeated field, already varint-encoded, and their count.
class PackedColumn {
 public:
  void AddUnsigned(uint64_t value) {
    bytes_.AppendVarint(value);
    ++count_;
  }
  void AddSigned(int64_t value) { AddUnsigned(ZigZag(value)); }    // sint32/sint64
  void AddInt32(int32_t value) { AddUnsigned(Int32Bits(value)); }  // int32, enums
  // Room for `values` more values, each then added by AddUnsignedInRoom without a check.
  void Reserve(size_t values) { bytes_.Reserve(values * kMaxVarintSize); }
  void AddUnsignedInRoom(uint64_t value) {
    bytes_.AppendVarintInRoom(value);
    ++count_;
  }
  // `times` copies of `value`, with their own capacity check.
  void AddUnsignedRepeated(uint64_t value, size_t times) {
    bytes_.AppendVarintRepeated(value, times);
    count_ += times;
  }
  size_t count() const { return count_; }
  const Buffer& bytes() const { return bytes_; }
  void clear() {
    bytes_.clear();
    count_ = 0;
  }

 private:
  Buffer bytes_;
  size_t count_ = 0;
};

// Sizes of whole fields (tag, length prefix where there is one, and value).
inline size_t VarintFieldSize(uint32_t field, uint64_t value) {
  return VarintSize(Tag(field, kVarint)) + VarintSize(value);
}
inline size_t LengthDelimitedFieldSize(uint32_t field, size_t payload_size) {
  return VarintSize(Tag(field, kLengthDelimited)) + VarintSize(payload_size) + payload_size;
}
// 0 for an empty column: a packed field without values is not written.
inline size_t PackedFieldSize(uint32_t field, const PackedColumn& column) {
  return column.count() == 0 ? 0 : LengthDelimitedFieldSize(field, column.bytes().size());
}

inline void PutVarintField(Buffer* out, uint32_t field, uint64_t value) {
  out->AppendVarint(Tag(field, kVarint));
  out->AppendVarint(value);
}
inline void PutSignedField(Buffer* out, uint32_t field, int64_t value) {
  PutVarintField(out, field, ZigZag(value));
}
inline void PutFixed64Field(Buffer* out, uint32_t field, uint64_t value) {
  out->AppendVarint(Tag(field, kFixed64));
  out->AppendFixed64(value);
}
inline void PutFixed32Field(Buffer* out, uint32_t field, uint32_t value) {
  out->AppendVarint(Tag(field, kFixed32));
  out->AppendFixed32(value);
}
// The tag and length of a length-delimited field whose `payload_size` bytes follow.
inline void PutLengthDelimitedHeader(Buffer* out, uint32_t field, size_t payload_size) {
  out->AppendVarint(Tag(field, kLengthDelimited));
  out->AppendVarint(payload_size);
}
inline void PutBytesField(Buffer* out, uint32_t field, std::string_view bytes) {
  PutLengthDelimitedHeader(out, field, bytes.size());
  out->AppendBytes(bytes.data(), bytes.size());
}
// Writes nothing for an empty column.
inline void PutPackedField(Buffer* out, uint32_t field, const PackedColumn& column) {
  if (column.count() == 0) return;
  PutBytesField(out, field, column.bytes().view());
}

// proto3 leaves scalars at their default (0, "") off the wire; so do these.
inline void PutVarintFieldIfNonZero(Buffer* out, uint32_t field, uint64_t value) {
  if (value != 0) PutVarintField(out, field, value);
}
inline void PutInt32FieldIfNonZero(Buffer* out, uint32_t field, int32_t value) {
  if (value != 0) PutVarintField(out, field, Int32Bits(value));
}
inline void PutSignedFieldIfNonZero(Buffer* out, uint32_t field, int64_t value) {
  if (value != 0) PutSignedField(out, field, value);
}
inline void PutStringFieldIfNonEmpty(Buffer* out, uint32_t field, std::string_view value) {
  if (!value.empty()) PutBytesField(out, field, value);
}
inline size_t VarintFieldSizeIfNonZero(uint32_t field, uint64_t value) {
  return value == 0 ? 0 : VarintFieldSize(field, value);
}

// Reading the same format. Traces are untrusted: each function checks the bytes it reads
// and says so when they are malformed. Varints longer than ten bytes, or whose tenth byte
// holds more than the 64th bit, are refused here even where a lenient parser would take
// them: a reader that gets no answer can hand the bytes to libprotobuf (chunk_block_reader).

// Reads the varint at `p`, which must end before `end`: the byte after it, or nullptr.
inline const uint8_t* ReadVarint(const uint8_t* p, const uint8_t* end, uint64_t* value) {
  uint64_t result = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (p == end) return nullptr;
    const uint64_t byte = *p++;
    if (shift == 63 && byte > 1) return nullptr;
    result |= (byte & 0x7f) << shift;
    if (byte < 0x80) {
      *value = result;
      return p;
    }
  }
  return nullptr;
}

inline int64_t UnZigZag(uint64_t value) {
  return static_cast<int64_t>((value >> 1) ^ (~(value & 1) + 1));
}
inline int32_t UnZigZag32(uint64_t value) {
  const uint32_t low = static_cast<uint32_t>(value);
  return static_cast<int32_t>((low >> 1) ^ (~(low & 1) + 1));
}

// The bytes in [p, end) below 0x80: the varints that end there. The bytes with the high
// bit set are counted eight at a time (each high bit moved to its byte's low bit, the
// multiply summing them into the top byte: at most 8, no carry; no popcnt instruction
// without -mpopcnt) and taken from the length. A byte at a time, the chunk guard's walk
// over every chunk (chunk_guard.cc) was 3% of an analysis.
inline uint64_t VarintEnds(const uint8_t* p, const uint8_t* end) {
  constexpr uint64_t kLowBits = 0x0101010101010101;
  const uint64_t bytes = static_cast<uint64_t>(end - p);
  const uint8_t* const words_end = p + (bytes & ~uint64_t{7});  // once, not per word
  uint64_t continued = 0;  // bytes with the high bit set: not the last of their varint
  for (; p != words_end; p += 8) {
    uint64_t word = 0;
    std::memcpy(&word, p, 8);
    continued += (((word >> 7) & kLowBits) * kLowBits) >> 56;
  }
  for (; p < end; ++p) continued += *p >> 7;
  return bytes - continued;
}

// The number of varints in the payload [p, end) of a packed field: each ends with a byte
// below 0x80. -1 when the last one does not end inside the payload.
inline int64_t PackedVarintCount(const uint8_t* p, const uint8_t* end) {
  if (p == end) return 0;
  if (end[-1] >= 0x80) return -1;
  return static_cast<int64_t>(VarintEnds(p, end));
}

// Decodes the varint at `p`, which ends before its payload does (PackedVarintCount), so no
// read passes it: the byte after it, or nullptr past 64 bits. Each byte is added with its
// value less one at its place, which takes back the continuation bit the byte before it
// added there (no mask per byte; unrolled, no shift count). With a loop that masked and
// shifted each byte and a count a byte at a time, our packed parse cost more than
// libprotobuf's (113M against 83M instructions on a 1M-event file); with these, 60M.
inline const uint8_t* DecodeVarintInPayload(const uint8_t* p, uint64_t* value) {
  uint64_t result = p[0];
  if (result < 0x80) {
    *value = result;
    return p + 1;
  }
#pragma GCC unroll 9
  for (int i = 1; i < 10; ++i) {
    const uint64_t byte = p[i];
    result += (byte - 1) << (7 * i);
    if (byte < 0x80) {
      if (i == 9 && byte > 1) return nullptr;  // the tenth byte holds only the 64th bit
      *value = result;
      return p + i + 1;
    }
  }
  return nullptr;  // more than ten bytes
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
inline constexpr bool kLittleEndianHost = true;
#else
inline constexpr bool kLittleEndianHost = false;  // the pair test below reads a word's bytes
#endif

// Decodes pairs of two-byte varints at `p` into out[*i, ...) while at least four varints
// are left (so at least four bytes: the word read never passes the payload) and the next
// four bytes are continued, last, continued, last: the byte after the last pair. Half the
// file's varints are two bytes (deltas, ids); one at a time they cost about 17 instructions
// each (callgrind, issue 22). Little-endian hosts only; elsewhere it decodes none.
template <typename T, typename Convert>
const uint8_t* DecodeTwoByteVarintPairs(const uint8_t* p, int64_t* i, int64_t count, T* out,
                                        Convert convert) {
  if constexpr (kLittleEndianHost) {
    int64_t next = *i;  // a local: out[] may alias *i, which would be reloaded per store
    const int64_t last_pair = count - 4;  // four varints left at least, from here
    while (next <= last_pair) {
      uint32_t word = 0;
      std::memcpy(&word, p, 4);
      if ((word & 0x80808080u) != 0x00800080u) break;
      // Both values at once, one a half: each half's low seven bits, and its high byte
      // moved down one onto the continuation bit's place.
      const uint32_t values = (word & 0x007f007fu) | ((word >> 1) & 0x3f803f80u);
      out[next] = convert(uint64_t{values & 0xffff});
      out[next + 1] = convert(uint64_t{values >> 16});
      next += 2;
      p += 4;
    }
    *i = next;
  }
  return p;
}

// Decodes the `count` varints of a packed payload at `p` (PackedVarintCount) into
// out[0, count), each through `convert`. False on a varint over 64 bits (out then partly
// written). After a one-byte varint it takes each next eight bytes below 0x80 as eight
// more: a column of small values (run lengths, ids, kinds) then costs about two
// instructions a value, not eight (callgrind, issue 22); a column of longer varints never
// pays for the test. Eight varints left are at least eight bytes, so the test reads none
// past the payload. After a two-byte varint it takes pairs of two-byte ones
// (DecodeTwoByteVarintPairs), which columns of longer varints never pay for either.
template <typename T, typename Convert>
bool DecodePackedVarints(const uint8_t* p, int64_t count, T* out, Convert convert) {
  constexpr uint64_t kHighBits = 0x8080808080808080;
  int64_t i = 0;
  while (i < count) {
    if (p[0] < 0x80) {
      out[i++] = convert(*p++);
      while (count - i >= 8) {  // then each eight one-byte varints at once
        uint64_t word = 0;
        std::memcpy(&word, p, 8);
        if ((word & kHighBits) != 0) break;
        for (int k = 0; k < 8; ++k) out[i + k] = convert(p[k]);
        i += 8;
        p += 8;
      }
      continue;
    }
    uint64_t value = 0;
    const uint8_t* const start = p;
    p = DecodeVarintInPayload(p, &value);
    if (p == nullptr) return false;
    out[i++] = convert(value);
    if (p - start == 2) p = DecodeTwoByteVarintPairs(p, &i, count, out, convert);
  }
  return true;
}

}  // namespace prof::wire

#endif  // PROF_PROTO_WIRE_FORMAT_H_
