/*
 * Simulator-only extension API of the simulated libnccl.so.2 (testdata/sim/nccl).
 *
 * No real NCCL exports these. Workloads and tests use them to write exact ground truth
 * about the kernels NCCL enqueued (which an interposer of cudaLaunchKernel never sees)
 * and to predict durations from the same model the library uses. Plain C.
 */
#ifndef PROF_TESTDATA_SIM_NCCL_SIM_NCCL_EXT_H_
#define PROF_TESTDATA_SIM_NCCL_SIM_NCCL_EXT_H_

#include <stddef.h>
#include <stdint.h>

#include <nccl.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One kernel the simulated NCCL enqueued (a fused group of ops shares one kernel). */
typedef struct {
  char kernel_name[192];  /* demangled, as CUPTI reports it */
  uint64_t duration_ns;   /* exact duration passed to the simulated runtime */
  uint64_t not_before_ns; /* latest arrival of all ranks taking part */
  uint64_t start_ns;      /* when the simulated device starts / ends it */
  uint64_t end_ns;
  uint32_t correlation_id; /* CUPTI correlation id of the launch */
  int op_count;            /* NCCL calls fused into this kernel */
} simNcclLaunchInfo;

/*
 * The kernels launched by the calling thread's most recent ncclGroupEnd (or ungrouped
 * call): fills up to `capacity` entries and returns how many there were (0 if none).
 */
int simNcclLastLaunches(simNcclLaunchInfo* infos, int capacity);

/*
 * Duration (ns, SIM_TIME_SCALE applied) the model gives one ungrouped call.
 * `func` is "AllReduce", "Broadcast", "Reduce", "AllGather", "ReduceScatter", "Send",
 * "Recv", "AlltoAll", "Gather" or "Scatter"; `count` is the call's count argument. 0 for
 * an unknown func or datatype.
 */
uint64_t simNcclCallDurationNs(const char* func, size_t count, ncclDataType_t datatype, int nranks);

/* Demangled kernel name an ungrouped call gets (honours SIM_NCCL_KERNEL_NAMES). */
const char* simNcclCallKernelName(const char* func, ncclDataType_t datatype, ncclRedOp_t op);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PROF_TESTDATA_SIM_NCCL_SIM_NCCL_EXT_H_ */
