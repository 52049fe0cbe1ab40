/*
 * A stand-in for PyTorch's Kineto on the simulated platform (libsimkineto.so): another CUPTI
 * client in the process, making the calls libkineto makes (kineto/libkineto/src/init.cpp,
 * CuptiActivityApi.cpp), through the program's CUPTI (linked, so an LD_PRELOAD interposer of
 * cuptiSubscribe sees them, as it sees libtorch's):
 *  - simKinetoInit: libkineto_init with CUDA present: cuptiSubscribe (and a callback); when
 *    that fails, Kineto carries on CPU-only for the rest of the process. Returns 1 when it
 *    can record GPU activity, 0 when CPU-only.
 *  - simKinetoStartTrace: a torch.profiler trace. When GPU-capable: registers its own
 *    activity buffers and enables RUNTIME, DRIVER (CPU activities for Kineto) and, with
 *    `cuda_activities`, CONCURRENT_KERNEL and MEMCPY. CPU-only: touches no CUPTI.
 *  - simKinetoStopTrace: flushes and disables what it enabled; returns the kernel records it
 *    received in the trace.
 *  - simKinetoShutdown: cuptiUnsubscribe (Kineto's teardown at exit).
 */
#ifndef PROF_TESTDATA_SIM_KINETO_SIM_KINETO_H_
#define PROF_TESTDATA_SIM_KINETO_SIM_KINETO_H_

#ifdef __cplusplus
extern "C" {
#endif

int simKinetoInit(void);
void simKinetoStartTrace(int cuda_activities);
long simKinetoStopTrace(void);
void simKinetoShutdown(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PROF_TESTDATA_SIM_KINETO_SIM_KINETO_H_ */
