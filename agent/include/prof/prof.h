/* The C API exported by libprof.so.
 *
 * Programs look these up at run time, so they run unchanged without the agent:
 *
 *   typedef void (*prof_step_fn)(int64_t);
 *   prof_step_fn step = (prof_step_fn)dlsym(RTLD_DEFAULT, "prof_step");
 *   if (step) step(batch_size);
 *
 * Every function is thread-safe, never blocks on I/O and costs one branch while the
 * agent is not recording. */
#ifndef PROF_PROF_H_
#define PROF_PROF_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Ends the current step and begins the next one. num_samples is the number of samples
 * (e.g. the batch size) the ending step processed; <= 0 means unknown. Steps drive
 * PROF_SCHEDULE and become ProfileStep#k ranges in the trace. */
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

#ifdef __cplusplus
}
#endif

#endif /* PROF_PROF_H_ */
