// The fixed-layout records that hooks append to their thread's buffer. Plain data: the
// hot path fills one with no allocation, locking or formatting, and the writer thread
// turns it into trace events later. Names that hooks cannot know cheaply (kernel names)
// are resolved by the writer from the raw pointer stored here.
#ifndef PROF_AGENT_RECORD_RECORD_H_
#define PROF_AGENT_RECORD_RECORD_H_

#include <cstddef>
#include <cstdint>

namespace prof {

// Append-only: the numbering is internal but keep it stable for readability of dumps.
enum class RecordKind : uint8_t {
  kPadding = 0,      // fills the end of the ring before it wraps
  kApiCall = 1,      // CUDA runtime / driver call (api = ApiId)
  kRangePush = 2,    // name follows; subkind = RangeKind
  kRangePop = 3,     // subkind = RangeKind
  kRangeStart = 4,   // NVTX start/end ranges: correlation = range id; name follows
  kRangeEnd = 5,     // correlation = range id
  kMark = 6,         // name follows
  kStep = 7,         // start/end of the ended step; args[0] = step number, args[1] = samples
  kNcclCall = 8,     // api = NcclOperation; Record::nccl holds the arguments
  kMemory = 9,       // allocation / free
  kThreadName = 10,  // name follows
  // An operator range push with details (prof_operator_push_detail): the name area holds
  // four NUL-separated texts, "name\0shapes\0dtypes\0source", and name_length counts
  // them all (see OperatorDetailTexts). Closed by kRangePop like kRangePush.
  kOperatorPushDetail = 11,
  // A whole operator range that already ended, with details (prof_operator_range_detail):
  // texts as kOperatorPushDetail; start_ns and end_ns are the range's own times.
  kOperatorRangeDetail = 12,
  kMemorySample = 13,  // prof_memory_sample: a device allocator's figures (see below)
  // 14: reserved for memory samples.
};

// Record::flags bit: return addresses follow the record's name (PROF_STACKS=1); their
// count is in the flags' high byte. See FramesOf().
constexpr uint16_t kRecordHasStack = 2;

// kApiCall subkind: which API family the call belongs to.
constexpr uint8_t kApiSubkindRuntime = 0;
constexpr uint8_t kApiSubkindDriver = 1;

// Arguments of each kind, in Record::args:
//  kApiCall:   api = ApiId, or kApiNone with the function's name inline (calls seen only
//              through CUPTI callbacks); subkind = kApiSubkind*; [0] stream (+1, 0 = none)
//              [1] bytes  [2] copy kind (+1)  [3] kernel function pointer; geometry in
//              `launch`
//  kNcclCall:  typed: Record::nccl (NcclArguments) instead of args and launch
//  kMemory:    [0] address  [1] bytes  [2] device + 1 (0 = host)  [3] stream (+1, 0 = none)
//              subkind = MemoryKind, flags bit 0 = free
//  kStep:      [0] step number  [1] sample count
//  kMemorySample: status = device  [0] allocated  [1] reserved  [2] peak (bytes);
//              start_ns = end_ns = when sampled
struct LaunchGeometry {
  uint32_t grid[3];
  uint32_t block[3];
  uint32_t shared_memory;
  uint32_t reserved;
};

// The arguments of an NCCL call (RecordKind::kNcclCall), in the space of args + launch.
struct NcclArguments {
  uint64_t comm;    // ncclComm_t; 0 for group calls
  uint64_t bytes;   // nccl-tests' size S (count * element size, times ranks where per rank)
  uint64_t count;   // elements, as passed to NCCL
  uint64_t stream;  // cudaStream_t
  int32_t root_or_peer;  // -1: the call has none
  int16_t reduction;     // ncclRedOp_t; -1: the call has none
  uint8_t data_type;     // ncclDataType_t
  uint8_t reserved0;
  // The hook's per-communicator number (nccl_registry.h NextCallSequence); 0: the
  // writer numbers the recorded calls itself (an unknown communicator).
  int64_t sequence;
  uint64_t reserved[2];
};

struct Record {
  uint16_t size;  // bytes including the trailing name, a multiple of 8
  RecordKind kind;
  uint8_t subkind;
  uint16_t api;
  uint16_t flags;
  int32_t status;
  uint32_t name_length;  // bytes of the name after the record (without NUL)
  uint64_t start_ns;
  uint64_t end_ns;
  uint64_t correlation_id;
  union {
    struct {  // every kind but kNcclCall (see the layout above)
      uint64_t args[4];
      LaunchGeometry launch;
    };
    NcclArguments nccl;
  };

  const char* name() const { return reinterpret_cast<const char*>(this + 1); }
};

static_assert(sizeof(Record) % 8 == 0, "records are 8-byte aligned in the ring");
static_assert(sizeof(NcclArguments) == sizeof(uint64_t) * 4 + sizeof(LaunchGeometry),
              "NCCL arguments share the space of args and launch");

constexpr size_t RecordSize(size_t name_length) {
  return (sizeof(Record) + name_length + 1 + 7) & ~size_t{7};
}

// The call stack stored after a record's name (kRecordHasStack).
inline const uint64_t* FramesOf(const Record& record) {
  return reinterpret_cast<const uint64_t*>(reinterpret_cast<const char*>(&record) +
                                           RecordSize(record.name_length));
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
