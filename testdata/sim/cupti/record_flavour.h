// Which CUDA the simulated CUPTI is: the record structs it writes and the API version
// cuptiGetVersion reports. Built twice (BUILD.bazel): libcupti.so.13 as CUDA 13.0 Update 1
// (the installed headers' own structs), and libcupti.so.12 with SIM_CUPTI_CUDA12 defined, as
// CUDA 12.6 (API version 24), whose CUPTI writes CUpti_ActivityKernel9, Memcpy5, Memset4,
// Synchronization (v1) and API records; the 13.0 headers still declare those in
// cupti_activity_deprecated.h. 12.6 rather than 12.8/12.9 (Memcpy6, Synchronization2): its
// records differ from 13's in the most struct versions, so a reader that assumed 13's
// layouts would be caught here.
#ifndef PROF_TESTDATA_SIM_CUPTI_RECORD_FLAVOUR_H_
#define PROF_TESTDATA_SIM_CUPTI_RECORD_FLAVOUR_H_

#include <cupti.h>

#include <cstdint>

namespace simcupti {

#ifdef SIM_CUPTI_CUDA12
using KernelRecord = CUpti_ActivityKernel9;
using MemcpyRecord = CUpti_ActivityMemcpy5;
using SynchronizationRecord = CUpti_ActivitySynchronization;
constexpr uint32_t kApiVersion = 24;                  // CUDA 12.6 (cupti_version.h's table)
constexpr char kRuntimeSoname[] = "libcudart.so.12";  // the runtime of the same major
#else
using KernelRecord = CUpti_ActivityKernel10;
using MemcpyRecord = CUpti_ActivityMemcpy6;
using SynchronizationRecord = CUpti_ActivitySynchronization2;
constexpr uint32_t kApiVersion = CUPTI_API_VERSION;
constexpr char kRuntimeSoname[] = "libcudart.so.13";
#endif
using MemsetRecord = CUpti_ActivityMemset4;  // CUDA 11.6 to 13.0
using ApiRecord = CUpti_ActivityAPI;

}  // namespace simcupti

#endif  // PROF_TESTDATA_SIM_CUPTI_RECORD_FLAVOUR_H_
