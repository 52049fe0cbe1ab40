/* The C API exported by libprof.so.
 *
 * Programs look these up at run time, so they run unchanged without the agent:
 *
 *   typedef void (*prof_step_fn)(int64_t);
 *   prof_step_fn step = (prof_step_fn)dlsym(RTLD_DEFAULT, "prof_step");
 *   if (step) step(batch_size);
 *
 * Every function is thread-safe and may be called from any thread. None does I/O, reads
 * /proc, or waits for the agent's writer thread or for CUPTI: what a step boundary needs
 * (window files, CPU readings, CUPTI subscription) is handed to the writer thread.
 * Exceptions, once each: a thread's first recorded event allocates its buffer (under a
 * short lock), and the process's first event or step starts the agent's session (its
 * writer thread; CUPTI when step 0 must record).
 *
 * Cost on the calling thread: the range and mark functions are one branch while the agent
 * is not recording, and one timestamp and one append to the thread's buffer while it is.
 * prof_step takes a short mutex that only other step boundaries (prof_step on another
 * thread, NVTX ProfileStep ranges, PROF_STEP_MARKER rules) also take, never held across a
 * wait: about 50 ns per step while CLOSED, 60 ns while recording, ~120 ns at a step that
 * opens or closes a window (median, x86-64 -O2). */
#ifndef PROF_PROF_H_
#define PROF_PROF_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Ends the current step and begins the next one. num_samples is the number of samples
 * (e.g. the batch size) the ending step processed; <= 0 means unknown. Steps drive
 * PROF_SCHEDULE and become ProfileStep#k ranges in the trace; the boundary's timestamp is
 * taken here, on the calling thread, so windows begin and end exactly at it. At the start
 * of a READY step the writer is asked to subscribe CUPTI, and it does so while that step
 * runs: the first recorded step has all its device activity if READY lasts longer than
 * the subscription (milliseconds). prof_step never waits for it; a window that opens
 * earlier says in its file when device activity began. */
void prof_step(int64_t num_samples);

/* Opens a user range on the calling thread (UserDefined in the analyzer). */
void prof_range_push(const char* name);

/* Closes the innermost range opened by prof_range_push on the calling thread. */
void prof_range_pop(void);

/* An instant event. */
void prof_mark(const char* name);

/* Opens / closes a model phase range (Dataloader, Forward, Backward, Optimization). */
void prof_phase_push(const char* name);
void prof_phase_pop(void);

/* Opens / closes an operator range (framework operators). */
void prof_operator_push(const char* name);
void prof_operator_pop(void);

/* A device memory sample from the framework's caching allocator (PyTorch:
 * torch.cuda.memory_allocated, memory_reserved, max_memory_allocated), in bytes: what live
 * tensors hold, what the allocator holds from the driver, and the high-water mark of
 * `allocated` so far. Recorded only while a window records (one branch otherwise), at the
 * calling thread's time; the Python helper calls it at each step boundary when CUDA is
 * initialized. The Memory Summary shows the figures per step and the step of the peak. */
void prof_memory_sample(int32_t device, int64_t allocated, int64_t reserved, int64_t peak);

#ifdef __cplusplus
}
#endif

#endif /* PROF_PROF_H_ */
