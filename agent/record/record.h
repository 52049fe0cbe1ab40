// The fixed-layout records that hooks append to their thread's buffer. Plain data: the
// hot path fills one with no allocation, locking or formatting, and the writer thread
// turns it into trace events later. Names that hooks cannot know cheaply (kernel names)
// are resolved by the writer from the raw pointer stored here.
//
// Typed per kind, as Tracy's queue items: every record starts with the common header
// (Record: size, kind, times, name length) and each kind has its own plain struct after it
// (ApiCallRecord, NcclCallRecord, ...), with its size asserted below. A kind's records are
// only as large as their own fields, so a range or a step takes less of the ring than an
// API call. Hooks fill the typed struct (BeginRecord<T>, recorder.h); the writer reads the
// header, then the kind's struct (RecordAs<T>).
#ifndef PROF_AGENT_RECORD_RECORD_H_
#define PROF_AGENT_RECORD_RECORD_H_

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

namespace prof {

// Append-only: the numbering is internal but keep it stable for readability of dumps.
enum class RecordKind : uint8_t {
  kPadding = 0,      // fills the end of the ring before it wraps (only `kind` is written)
  kApiCall = 1,      // ApiCallRecord: CUDA runtime / driver call (api = ApiId)
  kRangePush = 2,    // NamedRecord: name follows; subkind = RangeKind
  kRangePop = 3,     // NamedRecord: subkind = RangeKind
  kRangeStart = 4,   // NamedRecord: NVTX start/end ranges: correlation = range id; name follows
  kRangeEnd = 5,     // NamedRecord: correlation = range id
  kMark = 6,         // NamedRecord: name follows
  kStep = 7,         // StepRecord: start/end of the ended step
  kNcclCall = 8,     // NcclCallRecord: api = NcclOperation
  kMemory = 9,       // MemoryRecord: allocation / free
  kThreadName = 10,  // NamedRecord: name follows
  // An operator range push with details (prof_operator_push_detail), OperatorDetailRecord:
  // the name area holds four NUL-separated texts, "name\0shapes\0dtypes\0source", and
  // name_length counts them all (see OperatorDetailTexts). Closed by kRangePop like
  // kRangePush.
  kOperatorPushDetail = 11,
  // A whole operator range that already ended, with details (prof_operator_range_detail):
  // texts as kOperatorPushDetail; start_ns and end_ns are the range's own times.
  kOperatorRangeDetail = 12,
  kMemorySample = 13,  // MemorySampleRecord: prof_memory_sample, a device allocator's figures
  kLaunch = 14,        // LaunchRecord: a runtime kernel launch in one 64-byte line
  // A whole operator range that already ended, without details (the RecordFunction
  // observer's, prof_operator_range_detail with no texts), OperatorRangeRecord: the name
  // alone after the header, start_ns and end_ns the range's times.
  kOperatorRange = 15,
};
// One past the highest kind: the size table below has this many entries.
constexpr size_t kRecordKindCount = 16;

// Record::flags bit: return addresses follow the record's name (PROF_STACKS=1); their
// count is in the flags' high byte. See FramesOf().
constexpr uint16_t kRecordHasStack = 2;
// Record::flags bit of kMemory records: a free (else an allocation).
constexpr uint16_t kRecordMemoryFree = 1;

// kApiCall subkind: which API family the call belongs to.
constexpr uint8_t kApiSubkindRuntime = 0;
constexpr uint8_t kApiSubkindDriver = 1;

// Each kind's struct names the kinds it serves, so the compiler checks that a writer fills
// (BeginRecord) the struct of the kind it records: `kKind` for a struct of one kind,
// `kKinds` for one shared by several. The size table (RecordTypeSize) is derived from them.
//
// The header every record starts with; the drain reads only this (size, kind, start_ns).
// The kind's own struct follows (each derives from Record), then the name, if any
// (name_length > 0: that many bytes and a NUL), then the call stack, if any.
struct Record {
  uint16_t size;  // bytes including the kind's struct, name and stack; a multiple of 8
  RecordKind kind;
  uint8_t subkind;
  uint16_t api;
  uint16_t flags;
  int32_t status;
  uint32_t name_length;  // bytes of the name after the kind's struct (without NUL)
  uint64_t start_ns;
  uint64_t end_ns;
  uint64_t correlation_id;

  // The name stored after the kind's struct, "" when there is none.
  inline const char* name() const;
};

struct LaunchGeometry {
  uint32_t grid[3];
  uint32_t block[3];
  uint32_t shared_memory;
  uint32_t reserved;
};

// kApiCall. api = ApiId, or kApiNone with the function's name inline (calls seen only
// through CUPTI callbacks); subkind = kApiSubkind*.
struct ApiCallRecord : Record {
  static constexpr RecordKind kKind = RecordKind::kApiCall;
  uint64_t stream_plus_one;  // 0: the call has no stream argument
  uint64_t bytes;
  uint64_t copy_kind_plus_one;  // cudaMemcpyKind + 1; 0: not a copy
  const void* function;         // the kernel launched; null: not a launch
  LaunchGeometry launch;        // valid when `function` is set
};

// kLaunch: a kernel launch recorded by a runtime hook, in 64 bytes, where an ApiCallRecord
// takes 104 (1.6 cache lines: the writer's first read of a launch's second line was ~10 ns
// a launch, and the hook stored three words no launch uses). Read as the ApiCallRecord it
// stands for (UnpackLaunch); a launch whose values do not fit (PackLaunch) is recorded as
// an ApiCallRecord, so nothing is lost. api = ApiId; subkind = kApiSubkindRuntime.
// The pointers' top 16 bits (zero for user-space addresses below 2^48) carry grid y and z.
struct PackedLaunch {
  uint64_t function_grid_y;  // bits 0-47: the kernel's function; 48-63: grid y
  uint64_t stream_grid_z;    // bits 0-47: the stream handle + 1 (0: none); 48-63: grid z
  // Bits 0-19: grid x; 20-29, 30-39, 40-45: block x, y and z minus one (CUDA's limits are
  // 1024, 1024 and 64); 46-63: dynamic shared memory bytes (below 256 KiB).
  uint64_t geometry;
};
struct LaunchRecord : Record {
  static constexpr RecordKind kKind = RecordKind::kLaunch;
  PackedLaunch launch;
};

// The fields of an ApiCallRecord a launch has: what LaunchRecord packs.
struct UnpackedLaunch {
  const void* function;
  uint64_t stream_plus_one;
  LaunchGeometry geometry;
};

namespace internal {
constexpr uint64_t kLaunchPointerMask = (uint64_t{1} << 48) - 1;
constexpr uint64_t Bits(uint64_t value, int shift, int width) {
  return (value >> shift) & ((uint64_t{1} << width) - 1);
}
}  // namespace internal

// Packs a launch's fields into `packed`; false (nothing written) when a value does not fit.
// Takes the sizes one by one so a hook can pass them from registers (a LaunchGeometry built
// on its stack and read back field by field costs store-forwarding stalls).
inline bool PackLaunch(const void* function, uint64_t stream_plus_one, uint32_t grid_x,
                       uint32_t grid_y, uint32_t grid_z, uint32_t block_x, uint32_t block_y,
                       uint32_t block_z, uint64_t shared_memory, PackedLaunch* packed) {
  const uint64_t function_bits = reinterpret_cast<uintptr_t>(function);
  // Unsigned: a zero block size wraps to a large value and fails the check too.
  const bool fits = ((function_bits | stream_plus_one) >> 48) == 0 &&
                    (grid_y | grid_z) < (1u << 16) && grid_x < (1u << 20) &&
                    block_x - 1 < 1024 && block_y - 1 < 1024 && block_z - 1 < 64 &&
                    shared_memory < (1u << 18);
  if (!fits) return false;
  packed->function_grid_y = function_bits | uint64_t{grid_y} << 48;
  packed->stream_grid_z = stream_plus_one | uint64_t{grid_z} << 48;
  packed->geometry = grid_x | uint64_t{block_x - 1} << 20 | uint64_t{block_y - 1} << 30 |
                     uint64_t{block_z - 1} << 40 | shared_memory << 46;
  return true;
}

inline bool PackLaunch(const void* function, uint64_t stream_plus_one,
                       const LaunchGeometry& geometry, PackedLaunch* packed) {
  return PackLaunch(function, stream_plus_one, geometry.grid[0], geometry.grid[1],
                    geometry.grid[2], geometry.block[0], geometry.block[1], geometry.block[2],
                    geometry.shared_memory, packed);
}

inline UnpackedLaunch UnpackLaunch(const PackedLaunch& packed) {
  using internal::Bits;
  UnpackedLaunch launch;
  launch.function =
      reinterpret_cast<const void*>(packed.function_grid_y & internal::kLaunchPointerMask);
  launch.stream_plus_one = packed.stream_grid_z & internal::kLaunchPointerMask;
  const uint64_t bits = packed.geometry;
  launch.geometry.grid[0] = static_cast<uint32_t>(Bits(bits, 0, 20));
  launch.geometry.grid[1] = static_cast<uint32_t>(packed.function_grid_y >> 48);
  launch.geometry.grid[2] = static_cast<uint32_t>(packed.stream_grid_z >> 48);
  launch.geometry.block[0] = static_cast<uint32_t>(Bits(bits, 20, 10) + 1);
  launch.geometry.block[1] = static_cast<uint32_t>(Bits(bits, 30, 10) + 1);
  launch.geometry.block[2] = static_cast<uint32_t>(Bits(bits, 40, 6) + 1);
  launch.geometry.shared_memory = static_cast<uint32_t>(Bits(bits, 46, 18));
  launch.geometry.reserved = 0;
  return launch;
}

// kNcclCall. api = NcclOperation.
struct NcclCallRecord : Record {
  static constexpr RecordKind kKind = RecordKind::kNcclCall;
  uint64_t comm;         // ncclComm_t; 0 for group calls
  uint64_t bytes;        // nccl-tests' size S (count * element size, times ranks where per rank)
  uint64_t count;        // elements, as passed to NCCL
  uint64_t stream;       // cudaStream_t
  int32_t root_or_peer;  // -1: the call has none
  int16_t reduction;     // ncclRedOp_t; -1: the call has none
  uint8_t data_type;     // ncclDataType_t
  uint8_t reserved0;
  // The hook's per-communicator number (nccl_registry.h NextCallSequence); 0: the
  // writer numbers the recorded calls itself (an unknown communicator).
  int64_t sequence;
};

// kMemory. subkind = MemoryKind; flags kRecordMemoryFree; start_ns = end_ns = when.
struct MemoryRecord : Record {
  static constexpr RecordKind kKind = RecordKind::kMemory;
  uint64_t address;
  uint64_t bytes;
  int32_t device;  // -1: host memory
  uint32_t reserved0;
  uint64_t stream_plus_one;  // 0: the call has no stream argument
};

// kStep: start_ns and end_ns are the ended step's.
struct StepRecord : Record {
  static constexpr RecordKind kKind = RecordKind::kStep;
  int64_t step;
  int64_t samples;
};

// kMemorySample: start_ns = end_ns = when sampled.
struct MemorySampleRecord : Record {
  static constexpr RecordKind kKind = RecordKind::kMemorySample;
  int32_t device;
  uint32_t reserved0;
  uint64_t allocated;  // bytes
  uint64_t reserved;   // bytes
  uint64_t peak;       // bytes
};

// Ranges, marks and thread names (RecordNamed).
struct NamedRecord : Record {
  static constexpr RecordKind kKinds[] = {RecordKind::kRangePush,  RecordKind::kRangePop,
                                          RecordKind::kRangeStart, RecordKind::kRangeEnd,
                                          RecordKind::kMark,       RecordKind::kThreadName};
  // NVTX domain name, null for the default: a pointer to a never-freed string.
  const char* domain;
};

// kOperatorPushDetail and kOperatorRangeDetail: the header, then the four texts.
struct OperatorDetailRecord : Record {
  static constexpr RecordKind kKinds[] = {RecordKind::kOperatorPushDetail,
                                          RecordKind::kOperatorRangeDetail};
};

// kOperatorRange: the header, then the name. One text, so one strlen on the program's
// thread and no split on the writer's (the observer records every operator this way).
struct OperatorRangeRecord : Record {
  static constexpr RecordKind kKind = RecordKind::kOperatorRange;
};

static_assert(sizeof(Record) == 40, "the common header");
static_assert(sizeof(LaunchGeometry) == 32, "hashed by 64-bit words (window_file.h)");
static_assert(sizeof(ApiCallRecord) == 104, "the header, 4 arguments and the geometry");
static_assert(sizeof(LaunchRecord) == 64, "a launch in one cache line");
static_assert(sizeof(NcclCallRecord) == 88, "the header and 6 words of arguments");
static_assert(sizeof(MemoryRecord) == 72, "the header and 4 words");
static_assert(sizeof(StepRecord) == 56, "the header and 2 words");
static_assert(sizeof(MemorySampleRecord) == 72, "the header and 4 words");
static_assert(sizeof(NamedRecord) == 48, "the header and the domain");
static_assert(sizeof(OperatorDetailRecord) == 40, "the header only");
static_assert(sizeof(OperatorRangeRecord) == 40, "the header only");

namespace internal {
template <typename T, typename = void>
struct HasKindList : std::false_type {};
template <typename T>
struct HasKindList<T, std::void_t<decltype(T::kKinds)>> : std::true_type {};
}  // namespace internal

// Whether T is the struct of records of `kind` (by T's kKind or kKinds).
template <typename T>
constexpr bool RecordServes(RecordKind kind) {
  static_assert(std::is_base_of<Record, T>::value, "a record struct starts with Record");
  if constexpr (internal::HasKindList<T>::value) {
    for (RecordKind served : T::kKinds) {
      if (served == kind) return true;
    }
    return false;
  } else {
    return T::kKind == kind;
  }
}

namespace internal {
// Every kind's struct size, by kind, from the structs' own kind lists. Padding has the
// header only; an entry left 0 is a kind no struct serves (asserted below).
struct RecordTypeSizeTable {
  uint8_t bytes[kRecordKindCount] = {};
};
template <typename... Types>
constexpr RecordTypeSizeTable MakeRecordTypeSizeTable() {
  RecordTypeSizeTable table;
  table.bytes[0] = sizeof(Record);
  for (size_t kind = 1; kind < kRecordKindCount; ++kind) {
    ((table.bytes[kind] +=
      RecordServes<Types>(static_cast<RecordKind>(kind)) ? static_cast<uint8_t>(sizeof(Types)) : 0),
     ...);
  }
  return table;
}
// Each kind is served by exactly one struct.
template <typename... Types>
constexpr bool EachKindServedOnce() {
  for (size_t kind = 1; kind < kRecordKindCount; ++kind) {
    if ((int{RecordServes<Types>(static_cast<RecordKind>(kind))} + ...) != 1) return false;
  }
  return true;
}
#define PROF_RECORD_TYPES                                                                   \
  ApiCallRecord, NcclCallRecord, MemoryRecord, StepRecord, MemorySampleRecord, NamedRecord, \
      OperatorDetailRecord, OperatorRangeRecord, LaunchRecord
static_assert(EachKindServedOnce<PROF_RECORD_TYPES>(), "every kind has one struct");
constexpr RecordTypeSizeTable kRecordTypeSizes = MakeRecordTypeSizeTable<PROF_RECORD_TYPES>();
#undef PROF_RECORD_TYPES
}  // namespace internal

// The size of `kind`'s struct, where its name starts (0 for an unknown kind).
constexpr size_t RecordTypeSize(RecordKind kind) {
  const size_t index = static_cast<size_t>(kind);
  return index < kRecordKindCount ? internal::kRecordTypeSizes.bytes[index] : 0;
}

// A record's bytes in the ring with a name of `name_length` bytes (0: none, and no NUL),
// before any call stack.
constexpr size_t RecordSize(RecordKind kind, size_t name_length) {
  return (RecordTypeSize(kind) + (name_length ? name_length + 1 : 0) + 7) & ~size_t{7};
}

inline const char* Record::name() const {
  if (name_length == 0) return "";
  return reinterpret_cast<const char*>(this) + RecordTypeSize(kind);
}

// The name of a record whose kind's struct is T, known where it is read: it follows T, so
// no look-up of the kind's size (Record::name()'s; ~5 instructions an operator on the
// writer, callgrind, issue 26). Empty (not NUL-terminated) when name_length is 0.
template <typename T>
std::string_view NameOf(const T& record) {
  return std::string_view(reinterpret_cast<const char*>(&record) + sizeof(T), record.name_length);
}

// The kind's struct of a record of that kind (the caller has checked `kind`; debug builds
// check it again: T must be the struct of the record's kind).
template <typename T>
const T& RecordAs(const Record& record) {
  assert(RecordServes<T>(record.kind) && "a record read through another kind's struct");
  return static_cast<const T&>(record);
}

// The call stack stored after a record's name (kRecordHasStack).
inline const uint64_t* FramesOf(const Record& record) {
  return reinterpret_cast<const uint64_t*>(reinterpret_cast<const char*>(&record) +
                                           RecordSize(record.kind, record.name_length));
}
inline int FrameCountOf(const Record& record) {
  return (record.flags & kRecordHasStack) ? record.flags >> 8 : 0;
}

// The four texts of a kOperatorPushDetail record, pointing into it (empty when absent).
struct OperatorDetailTexts {
  const char* name = "";
  const char* shapes = "";
  const char* dtypes = "";
  const char* source = "";
};
inline OperatorDetailTexts DetailTextsOf(const Record& record) {
  const char* texts[4] = {"", "", "", ""};
  const char* cursor = record.name();
  const char* end = cursor + record.name_length;  // the record ends with a NUL at `end`
  for (int i = 0; i < 4 && cursor <= end; ++i) {
    texts[i] = cursor;
    while (cursor < end && *cursor) ++cursor;
    ++cursor;  // past this text's NUL
  }
  return OperatorDetailTexts{texts[0], texts[1], texts[2], texts[3]};
}

}  // namespace prof

#endif  // PROF_AGENT_RECORD_RECORD_H_
