// Field numbers of proto/trace.proto's messages, for the code that writes the wire format
// without libprotobuf (proto/wire_format.h, the chunk and header encoders). The schema
// stays the one source: proto/schema_mirror_test.cc static_asserts every number here
// against the generated code's k...FieldNumber constants.
#ifndef PROF_PROTO_TRACE_FIELDS_H_
#define PROF_PROTO_TRACE_FIELDS_H_

#include <cstdint>

namespace prof::field {

struct ClockAnchor {
  static constexpr uint32_t kHostMonotonicNs = 1;
  static constexpr uint32_t kHostRealtimeNs = 2;
  static constexpr uint32_t kCuptiNs = 3;
  static constexpr uint32_t kUncertaintyNs = 4;
  static constexpr uint32_t kReason = 5;
};

struct CpuUsage {
  static constexpr uint32_t kHostMonotonicNs = 1;
  static constexpr uint32_t kProcessCpuNs = 2;
  static constexpr uint32_t kSystemBusyTicks = 3;
  static constexpr uint32_t kSystemIdleTicks = 4;
  static constexpr uint32_t kSystemKnown = 5;
};

struct FileHeader {
  static constexpr uint32_t kFormatVersion = 1;
  static constexpr uint32_t kAgentVersion = 2;
  static constexpr uint32_t kHostName = 3;
  static constexpr uint32_t kPid = 4;
  static constexpr uint32_t kRank = 5;
  static constexpr uint32_t kWorldSize = 6;
  static constexpr uint32_t kLocalRank = 7;
  static constexpr uint32_t kWorkerName = 8;
  static constexpr uint32_t kWindowIndex = 9;
  static constexpr uint32_t kWindowFirstStep = 10;
  static constexpr uint32_t kWindowEndStep = 11;
  static constexpr uint32_t kClockAnchors = 12;
  static constexpr uint32_t kConfig = 13;
  static constexpr uint32_t kCommandLine = 14;
  static constexpr uint32_t kCpuUsage = 15;
  static constexpr uint32_t kWindowOrigin = 16;
  static constexpr uint32_t kFlight = 17;
};

struct FlightUnfinishedCall {
  static constexpr uint32_t kCommHash = 1;
  static constexpr uint32_t kSequenceNumber = 2;
  static constexpr uint32_t kOperation = 3;
  static constexpr uint32_t kEnterNs = 4;
  static constexpr uint32_t kThreadId = 5;
  static constexpr uint32_t kResult = 6;
};

struct FlightDump {
  static constexpr uint32_t kReason = 1;
  static constexpr uint32_t kDetail = 2;
  static constexpr uint32_t kDumpNs = 3;
  static constexpr uint32_t kCallsSeen = 4;
  static constexpr uint32_t kCallsOverwritten = 5;
  static constexpr uint32_t kCallsTorn = 6;
  static constexpr uint32_t kRingEntries = 7;
  static constexpr uint32_t kUnfinished = 8;
};

struct Chunk {
  static constexpr uint32_t kSequence = 1;
  static constexpr uint32_t kFirstStringId = 2;
  static constexpr uint32_t kStrings = 3;
  static constexpr uint32_t kKernelConfigs = 4;
  static constexpr uint32_t kThreads = 5;
  static constexpr uint32_t kStreams = 6;
  static constexpr uint32_t kNcclCommunicators = 7;
  static constexpr uint32_t kCallStacks = 8;
  static constexpr uint32_t kThreadNames = 9;
  static constexpr uint32_t kLosses = 10;
  static constexpr uint32_t kClockAnchors = 11;
  static constexpr uint32_t kProcess = 12;
  static constexpr uint32_t kLastChunk = 13;
  static constexpr uint32_t kCpuUsage = 14;
  static constexpr uint32_t kMemorySamples = 15;
};

struct MemorySample {
  static constexpr uint32_t kTimeNs = 1;
  static constexpr uint32_t kDevice = 2;
  static constexpr uint32_t kAllocated = 3;
  static constexpr uint32_t kReserved = 4;
  static constexpr uint32_t kPeak = 5;
  static constexpr uint32_t kRss = 6;
};

struct KernelConfig {
  static constexpr uint32_t kId = 1;
  static constexpr uint32_t kNameId = 2;
  static constexpr uint32_t kGridX = 3;
  static constexpr uint32_t kGridY = 4;
  static constexpr uint32_t kGridZ = 5;
  static constexpr uint32_t kBlockX = 6;
  static constexpr uint32_t kBlockY = 7;
  static constexpr uint32_t kBlockZ = 8;
  static constexpr uint32_t kStaticSharedMemory = 9;
  static constexpr uint32_t kDynamicSharedMemory = 10;
  static constexpr uint32_t kRegistersPerThread = 11;
};

struct NcclCommunicator {
  static constexpr uint32_t kId = 1;
  static constexpr uint32_t kCommHash = 2;
  static constexpr uint32_t kRank = 3;
  static constexpr uint32_t kRankCount = 4;
  static constexpr uint32_t kDevice = 5;
  static constexpr uint32_t kInitStartNs = 6;
  static constexpr uint32_t kInitDurationNs = 7;
};

struct CallStack {
  static constexpr uint32_t kId = 1;
  static constexpr uint32_t kFrameAddresses = 2;
  static constexpr uint32_t kFrameNameIds = 3;
};

struct ThreadName {
  static constexpr uint32_t kThreadId = 1;
  static constexpr uint32_t kNameId = 2;
};

struct ProcessInfo {
  static constexpr uint32_t kNameId = 1;
  static constexpr uint32_t kParentPid = 2;
};

struct LossCounter {
  static constexpr uint32_t kKind = 1;
  static constexpr uint32_t kCount = 2;
  static constexpr uint32_t kStepNumber = 3;
  static constexpr uint32_t kStepKnown = 4;
};

struct SparseColumn {
  static constexpr uint32_t kIndexDelta = 1;
  static constexpr uint32_t kValue = 2;
};

struct ThreadEvents {
  static constexpr uint32_t kThreadId = 1;
  static constexpr uint32_t kClock = 2;
  static constexpr uint32_t kApiCalls = 3;
  static constexpr uint32_t kRanges = 4;
  static constexpr uint32_t kSteps = 5;
  static constexpr uint32_t kNcclCalls = 6;
  static constexpr uint32_t kMemory = 7;
};

struct ApiCalls {
  static constexpr uint32_t kStartDeltaNs = 1;
  static constexpr uint32_t kDurationNs = 2;
  static constexpr uint32_t kNameId = 3;
  static constexpr uint32_t kCorrelationIdDelta = 4;
  static constexpr uint32_t kDomain = 5;
  static constexpr uint32_t kStatus = 6;
  static constexpr uint32_t kStream = 7;
  static constexpr uint32_t kBytes = 8;
  static constexpr uint32_t kCopyKind = 9;
  static constexpr uint32_t kKernelConfigId = 10;
  static constexpr uint32_t kCallStackId = 11;
};

struct HostRanges {
  static constexpr uint32_t kStartDeltaNs = 1;
  static constexpr uint32_t kDurationNs = 2;
  static constexpr uint32_t kNameId = 3;
  static constexpr uint32_t kKind = 4;
  static constexpr uint32_t kDomainNameId = 5;
  static constexpr uint32_t kShapesId = 6;
  static constexpr uint32_t kDtypesId = 7;
  static constexpr uint32_t kSourceId = 8;
};

struct Steps {
  static constexpr uint32_t kStartDeltaNs = 1;
  static constexpr uint32_t kDurationNs = 2;
  static constexpr uint32_t kStepNumberDelta = 3;
  static constexpr uint32_t kSampleCount = 4;
};

struct NcclCalls {
  static constexpr uint32_t kStartDeltaNs = 1;
  static constexpr uint32_t kDurationNs = 2;
  static constexpr uint32_t kOperation = 3;
  static constexpr uint32_t kCount = 4;
  static constexpr uint32_t kDataType = 5;
  static constexpr uint32_t kBytes = 6;
  static constexpr uint32_t kCommunicatorId = 7;
  static constexpr uint32_t kSequenceNumberDelta = 8;
  static constexpr uint32_t kStream = 9;
  static constexpr uint32_t kRootOrPeer = 10;
  static constexpr uint32_t kReductionOp = 11;
};

struct MemoryEvents {
  static constexpr uint32_t kTimeDeltaNs = 1;
  static constexpr uint32_t kOperation = 2;
  static constexpr uint32_t kAddressDelta = 3;
  static constexpr uint32_t kBytes = 4;
  static constexpr uint32_t kDevice = 5;
  static constexpr uint32_t kKind = 6;
  static constexpr uint32_t kStream = 7;
  static constexpr uint32_t kCallStackId = 8;
};

struct StreamEvents {
  static constexpr uint32_t kDevice = 1;
  static constexpr uint32_t kContext = 2;
  static constexpr uint32_t kStream = 3;
  static constexpr uint32_t kClock = 4;
  static constexpr uint32_t kKernels = 5;
  static constexpr uint32_t kMemcpys = 6;
  static constexpr uint32_t kMemsets = 7;
  static constexpr uint32_t kSynchronizations = 8;
};

struct Kernels {
  static constexpr uint32_t kStartDeltaNs = 1;
  static constexpr uint32_t kDurationNs = 2;
  static constexpr uint32_t kKernelConfigId = 3;
  static constexpr uint32_t kCorrelationIdDelta = 4;
  static constexpr uint32_t kGraphId = 5;
  static constexpr uint32_t kGraphNodeId = 6;
  static constexpr uint32_t kLaunchType = 7;
};

struct Memcpys {
  static constexpr uint32_t kStartDeltaNs = 1;
  static constexpr uint32_t kDurationNs = 2;
  static constexpr uint32_t kBytes = 3;
  static constexpr uint32_t kCopyKind = 4;
  static constexpr uint32_t kSourceKind = 5;
  static constexpr uint32_t kDestinationKind = 6;
  static constexpr uint32_t kCorrelationIdDelta = 7;
};

struct Memsets {
  static constexpr uint32_t kStartDeltaNs = 1;
  static constexpr uint32_t kDurationNs = 2;
  static constexpr uint32_t kBytes = 3;
  static constexpr uint32_t kValue = 4;
  static constexpr uint32_t kCorrelationIdDelta = 5;
};

struct Synchronizations {
  static constexpr uint32_t kStartDeltaNs = 1;
  static constexpr uint32_t kDurationNs = 2;
  static constexpr uint32_t kKind = 3;
  static constexpr uint32_t kCorrelationIdDelta = 4;
  static constexpr uint32_t kEventId = 5;
};
}  // namespace prof::field

#endif  // PROF_PROTO_TRACE_FIELDS_H_
