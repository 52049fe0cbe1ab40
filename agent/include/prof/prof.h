/* The C API exported by libprof.so.
 *
 * Programs look these up at run time, so they run unchanged without the agent:
 *
 *   typedef void (*prof_step_fn)(int64_t);
 *   prof_step_fn step = (prof_step_fn)dlsym(RTLD_DEFAULT, "prof_step");
 *   if (step) step(batch_size);
 *
 * Every function is thread-safe and may be called from any thread. None does I/O, reads
 * /proc, or waits for the agent's writer thread or for CUPTI (but prof_flush, which exists
 * to wait for the writer): what a step boundary needs
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

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this API: a library returns the PROF_API_VERSION of the header it was
 * built with. Version 1 is every function declared here. A later version keeps every
 * function of the earlier ones, with the same signature, and adds some: a caller needing
 * version N checks once that prof_api_version() >= N (libprof's Python helper does)
 * instead of looking up each function. A library without prof_api_version is older than
 * version 1. Version 2 adds prof_user_range; version 3 prof_config_get,
 * prof_schedule_state, prof_window_goes_on and prof_step_ended. */
#define PROF_API_VERSION 3
int prof_api_version(void);

/* The agent's own answers, for callers that would otherwise parse PROF_* variables or
 * compute the schedule again (libprof's Python helper asks these; it has no copy).
 *
 * prof_config_get: the value of the PROF_* variable `name` as the agent applied it at
 * start (the trace header's list: flags as 1 or 0, PROF_PYTHON_OPS as 1, python or 0,
 * PROF_SCHEDULE in its full form, a refused value as the default used instead), copied to
 * value[size] NUL-terminated. Returns 1 when copied; 0 for a name the agent does not read;
 * -1 when the agent is not running (PROF_DISABLE, or not initialized); -2 when `size` is
 * too small. Never starts the session.
 *
 * prof_schedule_state: the state (0 CLOSED, 1 READY, 2 RECORD, 3 RECORD_AND_RETURN, as
 * prof_step_to's) of step `step` (from 0) under `schedule`, written as PROF_SCHEDULE is
 * (blank: every step records); NULL asks for the agent's applied schedule. -1 when the text
 * is refused, `step` < 0, or NULL with the agent not running. Pure arithmetic: no lock, no
 * session started; parses `schedule` at each call (0.3 us a call from Python through
 * ctypes, against 0.07 us for prof_api_version). */
int prof_config_get(const char* name, char* value, size_t size);
int prof_schedule_state(const char* schedule, int64_t step);

/* Ends the current step and begins the next one. num_samples is the number of samples
 * (e.g. the batch size) the ending step processed; <= 0 means unknown. Steps drive
 * PROF_SCHEDULE and become ProfileStep#k ranges in the trace; the boundary's timestamp is
 * taken here, on the calling thread, so windows begin and end exactly at it. At the start
 * of a READY step the writer is asked to subscribe CUPTI, and it does so while that step
 * runs: the first recorded step has all its device activity if READY lasts longer than
 * the subscription (milliseconds). prof_step never waits for it; a window that opens
 * earlier says in its file when device activity began. */
void prof_step(int64_t num_samples);

/* prof_step, then what follows it, as bit flags: PROF_STEP_RECORDS when the step it begins
 * records (prof_recording's answer), PROF_NEXT_STEP_RECORDS when the step after that one
 * records by the state it will get from a prof_step (the schedule's, or the state the
 * program gave with prof_step_to/prof_set_state), as things stand (a prof_start, a trigger
 * or a state given meanwhile may change it). 0 when the agent is not running. One call
 * where the Python helper made three at each boundary of a step nothing records. Version 3. */
#define PROF_STEP_RECORDS 1
#define PROF_NEXT_STEP_RECORDS 2
int prof_step_ended(int64_t num_samples);

/* Takes now the timestamp of the next step boundary the calling thread makes (prof_step,
 * prof_step_ended, prof_step_to), for a caller with work to do before that boundary that
 * belongs to the ending step: the Python helper calls it where the program reached its
 * step, then hands over what the step holds (at a window's last boundary, PyTorch's
 * operators of the whole window: tens of ms), then ends the step, which ends at the stamp.
 * Until that boundary the writer holds back the records made after the stamp; the caller
 * must make the boundary soon. A second call before the boundary keeps the first stamp.
 * Added in version 3 after prof_step_ended (look it up). */
void prof_step_stamp(void);

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

/* Opens an operator range with details, closed by prof_operator_pop: its input shapes as
 * text (e.g. "[[8, 3, 32, 32], [16, 3, 3, 3], []]", one list per input, [] for a
 * non-tensor), its input dtypes as text (e.g. "[float, float, Scalar]") and the Python
 * line that called it ("train.py:42"). Each may be NULL or empty; each is cut at 4096
 * bytes. The analyzer groups by shapes with --group-by-shape and computes FLOPs from
 * them. Cost: prof_operator_push plus copying the three texts. */
void prof_operator_push_detail(const char* name, const char* shapes, const char* dtypes,
                               const char* source);

/* A whole operator range that already ended, on the calling thread: start_ns and end_ns
 * are CLOCK_MONOTONIC nanoseconds (the agent's host clock). For callers that learn about
 * operators after the fact (the Python helper drains PyTorch's own operator records at
 * step boundaries): ranges may be given in any order and nest by their times. Recorded
 * when a window records at the time of this call; nothing otherwise. */
void prof_operator_range(const char* name, uint64_t start_ns, uint64_t end_ns);

/* `count` operator ranges, each as prof_operator_range(names[i], start_ns[i], end_ns[i]),
 * in one call: for a caller that replays many operators at once (the Python helper's
 * drains of PyTorch's operator records), where a call each would cost more than recording
 * them. */
void prof_operator_ranges(size_t count, const char* const* names, const uint64_t* start_ns,
                          const uint64_t* end_ns);

/* prof_operator_range with the details of prof_operator_push_detail (shapes, dtypes,
 * source; each may be NULL or empty, each cut at 4096 bytes). */
void prof_operator_range_detail(const char* name, uint64_t start_ns, uint64_t end_ns,
                                const char* shapes, const char* dtypes, const char* source);

/* A whole user range that already ended (times as for prof_operator_range): the range
 * prof_range_push/prof_range_pop would have made, for a caller that learns of it
 * afterwards (the Python helper replays PyTorch's record_function ranges, such as
 * Optimizer.step#AdamW.step, as the user ranges torch.profiler shows them as). */
void prof_user_range(const char* name, uint64_t start_ns, uint64_t end_ns);

/* A whole model phase range that already ended (times as for prof_operator_range): for a
 * phase whose end is known only later (the Python helper's one Forward per step, from the
 * first outermost module call to the last one before Backward). */
void prof_phase_range(const char* name, uint64_t start_ns, uint64_t end_ns);

/* PyTorch's operators from the agent's own RecordFunction callbacks, on the calling thread
 * and the threads torch hands its thread-local state to (autograd's, at::launch's): each
 * operator a prof_operator_range, each record_function range a prof_user_range, named and
 * counted as torch.profiler's tables (agent/torch/torch_observer.h). num_scopes: the
 * number of torch's at::RecordScope values (torch._C._profiler.RecordScope's members).
 * Returns 1 when on, 0 when libtorch_cpu (or a function of it) is not loaded, -1 for a
 * bad num_scopes. Recorded only while a window records. */
int prof_torch_observer_start(int num_scopes);
/* Removes the calling thread's callbacks; returns 1 when there were some, else 0. */
int prof_torch_observer_stop(void);
/* Fills counts[0..capacity) with what the observer saw in this process: threads,
 * folded (duplicate only children), async (skipped), overflowed (past the stack's depth),
 * unmatched (ends without a start), no_stack (calls on a thread without memory for its
 * stack), out_of_order (ends of calls that were not the innermost). Returns how many
 * counts there are. */
int prof_torch_observer_counts(uint64_t* counts, int capacity);

/* 1 while a recording window is open (the current step records), else 0: one load. Lets
 * a caller skip work whose only use is recording (the Python helper starts PyTorch's
 * operator collection only for steps that record). */
int prof_recording(void);
/* 1 when the window open now goes on, in the same file, past the next step boundary, where
 * that boundary gives the next step `next_state` (-1: prof_step's, the schedule's; else
 * prof_step_to's); 0 when none is open, when that boundary closes it or continues it in a
 * new file (PROF_STEPS_PER_FILE), at exit, or when the window may close before then (a
 * window on demand with an end time). What is recorded with the times of the open window
 * before its end reaches its file: the Python helper keeps PyTorch's operator collection
 * running through a window and hands it over only where this is 0. Version 3. */
int prof_window_goes_on(int next_state);
/* A device memory sample from the framework's caching allocator (PyTorch:
 * torch.cuda.memory_allocated, memory_reserved, max_memory_allocated), in bytes: what live
 * tensors hold, what the allocator holds from the driver, and the high-water mark of
 * `allocated` so far. Recorded only while a window records (one branch otherwise), at the
 * calling thread's time; the Python helper calls it at each step boundary when CUDA is
 * initialized. The Memory Summary shows the figures per step and the step of the peak. */
void prof_memory_sample(int32_t device, int64_t allocated, int64_t reserved, int64_t peak);

/* Windows on demand (MindSpore's start_profile/stop_profile, torch.profiler's start/stop;
 * the Python Profiler is built on these).
 *
 * prof_start opens a recording window now, whatever PROF_SCHEDULE says, and returns its
 * index (the N of the file's ".window_N.prof.pb"), or -1 when the agent is not running or
 * the process is exiting. A schedule window open at that moment ends there (its file is
 * complete up to now). While a window opened by prof_start is open, prof_start returns its
 * index again and the schedule opens and closes nothing; a schedule window it overlapped is
 * not reopened after it, and the schedule resumes with its next window (so with no
 * PROF_SCHEDULE, which records everything in one window, the program controls windows from
 * its first prof_start or prof_stop on). PROF_SCHEDULE=off starts with no window at all.
 *
 * prof_stop closes the open window (one opened by prof_start, a trigger or the schedule:
 * the rest of a schedule window is then skipped) and returns its index, or -1 if none was
 * open. Like a step boundary they take a timestamp and queue the window change for the
 * writer thread (~100 ns); prof_start then waits, when device activity was off, until
 * the writer has subscribed CUPTI (milliseconds; the first time in a process it also loads
 * libcupti; at most 2 s), so the kernels launched after it returns are all recorded.
 * prof_stop never waits. */
int prof_start(void);
int prof_stop(void);

/* Finished windows: the writer finishes a closed window's file some 30 ms after the window
 * ended (late records of the window's last moments), or at once on prof_flush.
 *
 * prof_flush waits at most timeout_ms until every window closed so far is finished, and is
 * the one function here that waits for the writer thread. Returns 1 when done, 0 on time
 * out, -1 when the agent is not running.
 *
 * prof_windows_finished: how many windows have finished so far (lock-free, for polling).
 * prof_window_file: for window `index`, 1 when finished with a file, its path copied to
 * path[size] (NUL-terminated); 0 when finished without a file (it recorded nothing); -1 when
 * not finished yet (or unknown); -2 when `size` is too small. Neither waits. */
int prof_flush(int timeout_ms);

/* The program's own schedule (the Python Profiler's scheduler, paddle's ProfilerState):
 * states 0 CLOSED, 1 READY (device activity subscribed ahead of a window), 2 RECORD, 3
 * RECORD_AND_RETURN (the window's last step). prof_step_to ends the current step like
 * prof_step and puts the next one in `next_state`, so windows open and close exactly at
 * the step boundary (never waiting); prof_set_state puts the current step in `state`
 * now (waiting for the CUPTI subscription as prof_start does). From the first
 * call of either, PROF_SCHEDULE no longer applies (prof_step then keeps the state, but
 * RECORD_AND_RETURN is followed by CLOSED). Both return the index of the window open
 * afterwards, or -1 (none, or no agent); an out-of-range state leaves the state to the
 * schedule. */
int prof_step_to(int64_t num_samples, int next_state);
int prof_set_state(int state);
int prof_windows_finished(void);
int prof_window_file(int index, char* path, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* PROF_PROF_H_ */
