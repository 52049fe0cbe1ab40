// CUPTI 12.x's own record structs (Kernel9, Memcpy5, Synchronization v1, what CUDA 12.0-12.7
// write), packed at their own sizes as CUPTI 12 packs them, read by the converter that is
// built with CUDA 13's headers: every field lands in the trace as written.
#include <cupti.h>

#include <cstring>
#include <vector>

#include <catch2/catch.hpp>

#include "agent/cupti/activity_converter.h"
#include "agent/cupti/cupti_test_support.h"

namespace prof {
namespace testing {
namespace {

constexpr uint64_t kStart = 5000000000000ull;  // CUPTI time of the records

// The size CUPTI 12.6 gives each kind: what its cuptiActivityGetNextRecord steps by.
size_t Cuda12Size(const CUpti_Activity* record) {
  switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: return sizeof(CUpti_ActivityKernel9);
    case CUPTI_ACTIVITY_KIND_MEMCPY: return sizeof(CUpti_ActivityMemcpy5);
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: return sizeof(CUpti_ActivitySynchronization);
    default: return 0;
  }
}

CUptiResult CUPTIAPI NextCuda12Record(uint8_t* buffer, size_t valid, CUpti_Activity** record) {
  uint8_t* next = buffer;
  if (*record) next = reinterpret_cast<uint8_t*>(*record) + Cuda12Size(*record);
  if (next >= buffer + valid) return CUPTI_ERROR_MAX_LIMIT_REACHED;
  *record = reinterpret_cast<CUpti_Activity*>(next);
  return CUPTI_SUCCESS;
}

template <typename Record>
void Append(const Record& record, std::vector<uint8_t>* buffer) {
  const uint8_t* bytes = reinterpret_cast<const uint8_t*>(&record);
  buffer->insert(buffer->end(), bytes, bytes + sizeof(record));
}

std::vector<uint8_t> Cuda12Buffer() {
  std::vector<uint8_t> buffer;
  CUpti_ActivityKernel9 kernel;
  std::memset(&kernel, 0, sizeof(kernel));
  kernel.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
  kernel.start = kStart + 1000;
  kernel.end = kStart + 1000 + 4321;
  kernel.deviceId = 1;
  kernel.contextId = 2;
  kernel.streamId = 7;
  kernel.gridX = 64;
  kernel.blockX = 256;
  kernel.correlationId = 11;
  kernel.name = "gemm_cuda12";
  kernel.maxActiveClusters = 0xFFFFFFFF;  // a field Kernel10 has elsewhere: must not leak
  Append(kernel, &buffer);
  CUpti_ActivityMemcpy5 copy;
  std::memset(&copy, 0, sizeof(copy));
  copy.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
  copy.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
  copy.bytes = 1 << 20;
  copy.start = kStart + 9000;
  copy.end = kStart + 9500;
  copy.deviceId = 1;
  copy.contextId = 2;
  copy.correlationId = 12;
  copy.runtimeCorrelationId = 13;
  Append(copy, &buffer);
  CUpti_ActivitySynchronization sync;
  std::memset(&sync, 0, sizeof(sync));
  sync.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
  sync.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE;
  sync.start = kStart + 9600;
  sync.end = kStart + 9900;
  sync.correlationId = 14;
  sync.contextId = 2;
  sync.streamId = 7;
  Append(sync, &buffer);
  return buffer;
}

TEST_CASE("CUPTI 12's Kernel9, Memcpy5 and Synchronization records read field by field") {
  std::vector<uint8_t> bytes = Cuda12Buffer();
  ActivityBuffer buffer;
  buffer.data = bytes.data();
  buffer.size = buffer.valid_size = bytes.size();
  OneWindowRouter router("cuda12_records");
  ActivityConverter converter(&NextCuda12Record);
  converter.SetClockOffset(static_cast<int64_t>(kStart));
  ConversionCounts counts;
  converter.ConvertBuffer(buffer, router, &counts);
  CHECK(counts.converted == 3);
  CHECK(counts.corrupt_buffers == 0);
  auto trace = ReadTrace(router.Finish());
  REQUIRE(trace->read_ok);
  REQUIRE(trace->kernels.size() == 1);
  const KernelEvent& kernel = trace->kernels[0];
  CHECK(trace->KernelName(kernel) == "gemm_cuda12");
  CHECK(kernel.start_ns == kStart + 1000);
  CHECK(kernel.duration_ns == 4321);
  CHECK(kernel.correlation_id == 11);
  CHECK(kernel.where.device == 1);
  CHECK(kernel.where.stream == 7);
  CHECK(trace->KernelConfig(kernel).grid[0] == 64);
  CHECK(trace->KernelConfig(kernel).block[0] == 256);
  CHECK_FALSE(kernel.graph_id.has_value());
  REQUIRE(trace->memcpys.size() == 1);
  CHECK(trace->memcpys[0].bytes == (1u << 20));
  CHECK(trace->memcpys[0].duration_ns == 500);
  CHECK(trace->memcpys[0].correlation_id == 13);  // the runtime's id
  CHECK(trace->memcpys[0].copy_kind == schema::COPY_KIND_HOST_TO_DEVICE);
  REQUIRE(trace->synchronizations.size() == 1);
  CHECK(trace->synchronizations[0].kind == schema::SYNCHRONIZATION_KIND_STREAM);
  CHECK(trace->synchronizations[0].duration_ns == 300);
  CHECK(trace->synchronizations[0].where.device == 1);  // learned from the kernel's context
}

}  // namespace
}  // namespace testing
}  // namespace prof
