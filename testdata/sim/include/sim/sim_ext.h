/*
 * Simulator-only extension API of the simulated CUDA runtime (testdata/sim).
 *
 * These functions are exported by the simulated libcudart.so.13 and exist in no real CUDA
 * runtime. Test infrastructure (the simulated NCCL, workloads, tests) uses them to enqueue
 * work the way libraries with a statically linked cudart do, and to compute exact ground
 * truth from the same timing model the simulator uses. Plain C so C and ctypes users can
 * call it too.
 *
 * Times are CLOCK_MONOTONIC nanoseconds (the simulator's virtual device time equals the
 * host's CLOCK_MONOTONIC). Durations returned by the model already include SIM_TIME_SCALE.
 */
#ifndef PROF_TESTDATA_SIM_SIM_EXT_H_
#define PROF_TESTDATA_SIM_SIM_EXT_H_

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Pass as duration_ns to simLaunchNamedKernel to use the model's duration for the name. */
#define SIM_DURATION_FROM_MODEL UINT64_MAX

/* Current CLOCK_MONOTONIC time in ns (the device's virtual clock). */
uint64_t simNowNs(void);

/*
 * Enqueues a kernel called `name` on `stream`, lasting exactly `duration_ns` (taken as is,
 * SIM_TIME_SCALE is NOT applied; SIM_DURATION_FROM_MODEL uses the model), that cannot start
 * before `not_before_ns` (0: no constraint). It does not go through the exported
 * cudaLaunchKernel symbol, so an LD_PRELOAD interposer never sees it; CUPTI does: it gets a
 * correlation id, a DRIVER API record/callback "cuLaunchKernel", and a kernel record, like
 * a launch by a library that links cudart statically (NCCL, cuBLAS).
 * Errors: cudaErrorInvalidValue (name NULL or empty, zero grid/block dimension),
 * cudaErrorInvalidResourceHandle (destroyed stream).
 */
cudaError_t simLaunchNamedKernel(const char* name, dim3 grid, dim3 block,
                                 size_t dynamic_shared_memory, cudaStream_t stream,
                                 uint64_t duration_ns, uint64_t not_before_ns);

/* When the last item enqueued on `stream` completes (ns); 0 for an unknown stream. */
uint64_t simStreamReadyTimeNs(cudaStream_t stream);

/* The model's duration (ns, SIM_TIME_SCALE applied) of a kernel launch. */
uint64_t simKernelDurationNs(const char* name, dim3 grid, dim3 block);

/* The model's duration (ns, SIM_TIME_SCALE applied) of a copy or a memset. */
uint64_t simCopyDurationNs(size_t bytes, enum cudaMemcpyKind kind);
uint64_t simMemsetDurationNs(size_t bytes);

/* The SIM_TIME_SCALE factor and SIM_SEED value in effect. */
double simTimeScale(void);
uint64_t simSeed(void);

/*
 * Registers a kernel called `name` without nvcc and returns a host function pointer
 * usable with cudaLaunchKernel / cudaLaunchKernelExC. Registering the same name twice
 * returns the same pointer. NULL if name is NULL or empty.
 */
const void* simRegisterKernel(const char* name);

/*
 * Ground truth of the last device work item (kernel, copy, memset) the calling thread
 * enqueued directly (not via a graph launch): its start/end in ns and the correlation id
 * CUPTI reports for it. Returns 0 on success, -1 if this thread enqueued nothing yet.
 * Any out-pointer may be NULL.
 */
int simLastEnqueuedItem(uint64_t* start_ns, uint64_t* end_ns, uint32_t* correlation_id);

/* The stream id CUPTI reports for `stream` (NULL: the legacy default stream, whose id is 7
 * like on real CUDA; created and per-thread streams count up from 13). 0 if unknown. */
uint32_t simStreamId(cudaStream_t stream);

/*
 * The entry points of a statically linked runtime, as cuBLAS, cuBLASLt and cuDNN carry their
 * own: the exported functions of the same names, reported to CUPTI as the same runtime API
 * calls (callback ids, params, correlation ids, activity records), but reached through this
 * table, so an LD_PRELOAD interposer of the exported symbols never sees them.
 */
typedef struct SimStaticRuntime {
  cudaError_t (*launchKernel)(const void* func, dim3 grid, dim3 block, void** args,
                              size_t shared_memory, cudaStream_t stream);
  cudaError_t (*memsetAsync)(void* dev_ptr, int value, size_t count, cudaStream_t stream);
  cudaError_t (*memcpyAsync)(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind,
                             cudaStream_t stream);
  cudaError_t (*streamSynchronize)(cudaStream_t stream);
} SimStaticRuntime;

const SimStaticRuntime* simStaticRuntime(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PROF_TESTDATA_SIM_SIM_EXT_H_ */
