/*
 * A stand-in for cuBLAS/cuBLASLt/cuDNN on the simulated platform (libsimblas.so): a library
 * that launches through its own statically linked runtime (simStaticRuntime, sim_ext.h) and
 * through the driver API (simLaunchNamedKernel), so an LD_PRELOAD interposer of the runtime
 * sees none of its launches, as with the real libraries.
 */
#ifndef PROF_TESTDATA_SIM_BLAS_SIM_BLAS_H_
#define PROF_TESTDATA_SIM_BLAS_SIM_BLAS_H_

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The device work of one simblasGemm call, in order, on `stream`: */
#define SIM_BLAS_GEMM_KERNEL                                                                \
  "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_" \
  "segment_k_off_kernel__5x_cublas"                            /* static runtime cudaLaunchKernel */
#define SIM_BLAS_REDUCE_KERNEL "cublasLt::splitKreduce_kernel" /* driver cuLaunchKernel */
/* plus one cudaMemsetAsync of `workspace_bytes` (static runtime) before the kernels. */

/* Zeroes the workspace, runs the GEMM and its split-K reduction: 1 memset, 2 kernels. */
cudaError_t simblasGemm(cudaStream_t stream, void* workspace, size_t workspace_bytes);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PROF_TESTDATA_SIM_BLAS_SIM_BLAS_H_ */
