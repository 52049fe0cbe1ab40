#include "testdata/sim/cudart/device_properties.h"

#include <cstdio>
#include <cstring>

namespace sim {
namespace {

constexpr size_t kTotalGlobalMem = 150754820096ull;  // 140.4 GiB usable, like an H200
constexpr int kMultiProcessors = 132;
constexpr int kMaxThreadsPerBlock = 1024;
constexpr int kWarpSize = 32;
constexpr int kSharedMemPerBlock = 48 * 1024;
constexpr int kSharedMemPerBlockOptin = 227 * 1024;
constexpr int kSharedMemPerMultiprocessor = 228 * 1024;
constexpr int kRegsPerBlock = 65536;
constexpr int kL2CacheSize = 50 * 1024 * 1024;
constexpr int kMaxThreadsPerMultiProcessor = 2048;
constexpr int kMemoryBusWidth = 6144;
constexpr int kClockRateKhz = 1980000;
constexpr int kMemoryClockRateKhz = 3201000;
constexpr int kTotalConstMem = 65536;
constexpr int kMaxGridX = 2147483647;
constexpr int kMaxGridYZ = 65535;

int PciBusId(int device) { return 0x18 + 0x10 * device; }

}  // namespace

void FillDeviceProperties(int device, cudaDeviceProp* prop) {
  std::memset(prop, 0, sizeof(*prop));
  std::snprintf(prop->name, sizeof(prop->name), "NVIDIA H200 (simulated)");
  for (int i = 0; i < 16; ++i) prop->uuid.bytes[i] = static_cast<char>(0x50 + device + i);
  prop->totalGlobalMem = kTotalGlobalMem;
  prop->sharedMemPerBlock = kSharedMemPerBlock;
  prop->regsPerBlock = kRegsPerBlock;
  prop->warpSize = kWarpSize;
  prop->memPitch = 2147483647;
  prop->maxThreadsPerBlock = kMaxThreadsPerBlock;
  prop->maxThreadsDim[0] = 1024;
  prop->maxThreadsDim[1] = 1024;
  prop->maxThreadsDim[2] = 64;
  prop->maxGridSize[0] = kMaxGridX;
  prop->maxGridSize[1] = kMaxGridYZ;
  prop->maxGridSize[2] = kMaxGridYZ;
  prop->totalConstMem = kTotalConstMem;
  prop->major = 9;
  prop->minor = 0;
  prop->textureAlignment = 512;
  prop->texturePitchAlignment = 32;
  prop->multiProcessorCount = kMultiProcessors;
  prop->canMapHostMemory = 1;
  prop->concurrentKernels = 1;
  prop->ECCEnabled = 1;
  prop->pciBusID = PciBusId(device);
  prop->asyncEngineCount = 3;
  prop->unifiedAddressing = 1;
  prop->memoryBusWidth = kMemoryBusWidth;
  prop->l2CacheSize = kL2CacheSize;
  prop->persistingL2CacheMaxSize = kL2CacheSize * 3 / 4;
  prop->maxThreadsPerMultiProcessor = kMaxThreadsPerMultiProcessor;
  prop->streamPrioritiesSupported = 1;
  prop->globalL1CacheSupported = 1;
  prop->localL1CacheSupported = 1;
  prop->sharedMemPerMultiprocessor = kSharedMemPerMultiprocessor;
  prop->regsPerMultiprocessor = kRegsPerBlock;
  prop->managedMemory = 1;
  prop->concurrentManagedAccess = 1;
  prop->computePreemptionSupported = 1;
  prop->cooperativeLaunch = 1;
  prop->sharedMemPerBlockOptin = kSharedMemPerBlockOptin;
  prop->maxBlocksPerMultiProcessor = 32;
  prop->reservedSharedMemPerBlock = 1024;
  prop->memoryPoolsSupported = 1;
  prop->clusterLaunch = 1;
}

bool DeviceAttribute(int device, cudaDeviceAttr attr, int* value) {
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = kMaxThreadsPerBlock; return true;
    case cudaDevAttrMaxBlockDimX: *value = 1024; return true;
    case cudaDevAttrMaxBlockDimY: *value = 1024; return true;
    case cudaDevAttrMaxBlockDimZ: *value = 64; return true;
    case cudaDevAttrMaxGridDimX: *value = kMaxGridX; return true;
    case cudaDevAttrMaxGridDimY: *value = kMaxGridYZ; return true;
    case cudaDevAttrMaxGridDimZ: *value = kMaxGridYZ; return true;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = kSharedMemPerBlock; return true;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = kSharedMemPerBlockOptin; return true;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
      *value = kSharedMemPerMultiprocessor;
      return true;
    case cudaDevAttrTotalConstantMemory: *value = kTotalConstMem; return true;
    case cudaDevAttrWarpSize: *value = kWarpSize; return true;
    case cudaDevAttrMaxRegistersPerBlock: *value = kRegsPerBlock; return true;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = kRegsPerBlock; return true;
    case cudaDevAttrClockRate: *value = kClockRateKhz; return true;
    case cudaDevAttrMemoryClockRate: *value = kMemoryClockRateKhz; return true;
    case cudaDevAttrGlobalMemoryBusWidth: *value = kMemoryBusWidth; return true;
    case cudaDevAttrMultiProcessorCount: *value = kMultiProcessors; return true;
    case cudaDevAttrL2CacheSize: *value = kL2CacheSize; return true;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = kMaxThreadsPerMultiProcessor; return true;
    case cudaDevAttrComputeCapabilityMajor: *value = 9; return true;
    case cudaDevAttrComputeCapabilityMinor: *value = 0; return true;
    case cudaDevAttrConcurrentKernels: *value = 1; return true;
    case cudaDevAttrAsyncEngineCount: *value = 3; return true;
    case cudaDevAttrUnifiedAddressing: *value = 1; return true;
    case cudaDevAttrIntegrated: *value = 0; return true;
    case cudaDevAttrCanMapHostMemory: *value = 1; return true;
    case cudaDevAttrComputeMode: *value = cudaComputeModeDefault; return true;
    case cudaDevAttrEccEnabled: *value = 1; return true;
    case cudaDevAttrPciBusId: *value = PciBusId(device); return true;
    case cudaDevAttrPciDeviceId: *value = 0; return true;
    case cudaDevAttrPciDomainId: *value = 0; return true;
    case cudaDevAttrManagedMemory: *value = 1; return true;
    case cudaDevAttrCooperativeLaunch: *value = 1; return true;
    case cudaDevAttrMemoryPoolsSupported: *value = 1; return true;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = 32; return true;
    case cudaDevAttrStreamPrioritiesSupported: *value = 1; return true;
    default: return false;
  }
}

}  // namespace sim
