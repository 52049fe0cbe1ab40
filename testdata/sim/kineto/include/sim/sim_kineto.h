/*
 * A stand-in for PyTorch's Kineto on the simulated platform (libsimkineto.so): another CUPTI
 * client in the process, making the calls libkineto makes, in its order (libkineto/src/
 * init.cpp, CuptiCallbackApi.cpp, CuptiActivityApi.cpp, CuptiActivityProfiler.cpp; torch's
 * kineto_shim.cpp), through the program's CUPTI (linked, so an LD_PRELOAD interposer sees
 * them, as it sees libtorch's):
 *  - simKinetoInit: libkineto_init with CUDA present, which torch runs once per process, the
 *    first time any of its profilers is prepared (torch.profiler, or a CPU-only collection:
 *    torch asks for CUDA whenever CUDA is present): cuptiSubscribe, then the RESOURCE
 *    domain's CONTEXT_CREATED callback. The subscriber is kept for the life of the process
 *    (TEARDOWN_CUPTI is off by default); when either call fails, Kineto is CPU-only for the
 *    life of the process. Later calls return the first answer: 1 when it can record GPU
 *    activity, 0 when CPU-only.
 *  - simKinetoStartTrace: a torch.profiler trace. When GPU-capable: registers its activity
 *    buffer callbacks (each trace does), enables RUNTIME, DRIVER and, with `cuda_activities`,
 *    CONCURRENT_KERNEL and MEMCPY, and throws away what the warm-up recorded. CPU-only:
 *    touches no CUPTI.
 *  - simKinetoStopTrace: disables what it enabled, THEN flushes (forced), and only while
 *    CUPTI holds a buffer it handed out (CuptiActivityApi::activityBuffers); returns the
 *    kernel records of the buffers it got back.
 *  - simKinetoUnknownBuffers: buffers completed to Kineto that it never handed out (another
 *    client's; Kineto logs and ignores them).
 *  - simKinetoShutdown: cuptiUnsubscribe, which Kineto does only with TEARDOWN_CUPTI=1.
 */
#ifndef PROF_TESTDATA_SIM_KINETO_SIM_KINETO_H_
#define PROF_TESTDATA_SIM_KINETO_SIM_KINETO_H_

#ifdef __cplusplus
extern "C" {
#endif

int simKinetoInit(void);
void simKinetoStartTrace(int cuda_activities);
long simKinetoStopTrace(void);
long simKinetoUnknownBuffers(void);
void simKinetoShutdown(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PROF_TESTDATA_SIM_KINETO_SIM_KINETO_H_ */
